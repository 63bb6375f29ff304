"""The operations themselves: SymPy work that runs inside a killable CAS worker.

:func:`apply` is the one entry point the worker calls (it must be importable by reference). It
returns the new state(s) and the warnings the operation itself knows about — the ones a person
must hear even when the grader agrees ("assumes x ≠ 0", "may add extraneous roots"). Grading is
not done here: every resulting state goes through the grounding cascade as a step.

Most operations produce one state. Differentiating and integrating produce two: the calculus
written out (a ``given`` step, the definition of what is being computed) and its value (a
``rewrite`` step the cascade checks), so the reader sees what was computed and that it is right.

>>> import sympy as sp
>>> x = sp.Symbol("x", real=True)
>>> states, notes = apply("divide", sp.Eq(2 * x, 6 * x**2), {"arg": x})
>>> print(states[0], *notes)
Eq(2, 6*x) assumes $x \\ne 0$
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy as sp
from sympy.core.relational import Relational

from veristep.core.errors import VeristepError

Params = dict[str, Any]
Result = tuple[list[sp.Basic], list[str]]


class OperationError(VeristepError, ValueError):
    """The operation does not apply to this state (a message for the person, not a crash)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason  # said to the person as it is: "there is no fraction to clear"


def apply(kind: str, state: sp.Basic, params: Params) -> Result:
    """Apply operation ``kind`` to ``state``; :class:`OperationError` when it does not fit."""
    fn = _OPERATIONS.get(kind)
    if fn is None:
        raise OperationError(f"no operation named {kind!r}")
    return fn(state, params)


# ---- helpers ------------------------------------------------------------------------------


def main_var(state: sp.Basic, params: Params) -> sp.Symbol:
    """The variable named in the command, else x, else the only/first free symbol."""
    symbols = sorted((s for s in state.free_symbols if isinstance(s, sp.Symbol)), key=str)
    wanted = params.get("var")
    if wanted is not None:
        for s in symbols:
            if s.name == str(wanted):
                return s
        return wanted if isinstance(wanted, sp.Symbol) else sp.Symbol(str(wanted), real=True)
    for name in ("x", "y", "t", "z", "n"):
        for s in symbols:
            if s.name == name:
                return s
    if not symbols:
        raise OperationError("this state has no variable")
    return symbols[0]


def _rebuild(rel: Relational, lhs: sp.Basic, rhs: sp.Basic) -> sp.Basic:
    return rel.func(lhs, rhs, evaluate=False)


def on_sides(state: sp.Basic, fn: Callable[[sp.Basic], sp.Basic], side: str | None) -> sp.Basic:
    """``fn`` applied to the chosen side(s) of each relation, or to the expression itself."""
    if isinstance(state, Relational):
        lhs = fn(state.lhs) if side in (None, "left") else state.lhs
        rhs = fn(state.rhs) if side in (None, "right") else state.rhs
        return _rebuild(state, lhs, rhs)
    if isinstance(state, (sp.And, sp.Or)):
        return state.func(*(on_sides(a, fn, side) for a in state.args), evaluate=False)
    if side is not None:
        raise OperationError(f"an expression has no {side} side")
    return fn(state)


def both_sides(state: sp.Basic, fn: Callable[[sp.Basic], sp.Basic]) -> sp.Basic:
    if isinstance(state, Relational):
        return _rebuild(state, fn(state.lhs), fn(state.rhs))
    if isinstance(state, sp.And):
        return sp.And(*(both_sides(a, fn) for a in state.args), evaluate=False)
    raise OperationError("this works on an equation or inequality; the state is an expression")


def _show(e: sp.Basic) -> str:
    return sp.latex(e)


# ---- rewrites of an expression (or of chosen sides) -----------------------------------------


def _rewrite(fn: Callable[[sp.Basic], sp.Basic]) -> Callable[[sp.Basic, Params], Result]:
    def op(state: sp.Basic, params: Params) -> Result:
        new = on_sides(state, fn, params.get("side"))
        return [new], _lost_denominators(state, new)

    return op


def _lost_denominators(old: sp.Basic, new: sp.Basic) -> list[str]:
    """A rewrite that cancels a factor can drop a point where the old form was undefined."""
    if not (old.free_symbols and isinstance(old, (sp.Expr, Relational))):
        return []
    before = {d for d in _denominators(old) if d.free_symbols}
    after = _denominators(new)
    lost = [d for d in before if not any(sp.simplify(d - a) == 0 for a in after)]
    return [f"assumes ${_show(d)} \\ne 0$" for d in lost[:2]]


def _denominators(e: sp.Basic) -> list[sp.Basic]:
    out = []
    for node in sp.preorder_traversal(e):
        if isinstance(node, sp.Pow) and node.exp.is_negative:
            out.append(node.base)
    return out


def _collect(state: sp.Basic, params: Params) -> Result:
    var = main_var(state, params)
    return [on_sides(state, lambda e: sp.collect(sp.expand(e), var), params.get("side"))], []


def _apart(state: sp.Basic, params: Params) -> Result:
    var = main_var(state, params)
    return [on_sides(state, lambda e: sp.apart(sp.together(e), var), params.get("side"))], []


def _complete_square(state: sp.Basic, params: Params) -> Result:
    var = main_var(state, params)

    def square(e: sp.Basic) -> sp.Basic:
        poly = sp.Poly(sp.expand(e), var) if e.has(var) else None
        if poly is None or poly.degree() != 2:
            return e
        a, b, c = poly.all_coeffs()
        h, k = sp.simplify(b / (2 * a)), sp.simplify(c - b**2 / (4 * a))
        return sp.Add(sp.Mul(a, sp.Pow(var + h, 2)), k)

    return [on_sides(state, square, params.get("side"))], []


def _half(arg: sp.Basic) -> sp.Basic | None:
    """``a`` when ``arg`` is written as ``2a`` (an even integer coefficient), else None."""
    coeff, rest = arg.as_coeff_Mul()
    if coeff.is_Integer and coeff % 2 == 0 and coeff != 0:
        return (coeff / 2) * rest
    return None


def _double(node: sp.Basic) -> sp.Basic:
    a = _half(node.args[0])
    if a is None:
        return node
    if isinstance(node, sp.sin):
        return 2 * sp.sin(a) * sp.cos(a)
    if isinstance(node, sp.cos):
        return sp.cos(a) ** 2 - sp.sin(a) ** 2
    return 2 * sp.tan(a) / (1 - sp.tan(a) ** 2)


def _double_angle(state: sp.Basic, params: Params) -> Result:
    def rewrite(e: sp.Basic) -> sp.Basic:
        return e.replace(lambda n: isinstance(n, (sp.sin, sp.cos, sp.tan)), _double)

    new = on_sides(state, rewrite, params.get("side"))
    if new == state:
        raise OperationError("no double angle (sin 2a, cos 2a, tan 2a) in this state")
    notes = ["assumes $\\tan a \\ne \\pm 1$"] if state.has(sp.tan) else []
    return [new], notes


def _log_rule(fn: Callable[..., sp.Basic]) -> Callable[[sp.Basic, Params], Result]:
    def op(state: sp.Basic, params: Params) -> Result:
        new = on_sides(state, lambda e: fn(e, force=True), params.get("side"))
        return [new], ["assumes every logarithm's argument is positive"]

    return op


# ---- operations on both sides of a relation -------------------------------------------------


def _arith(kind: str) -> Callable[[sp.Basic, Params], Result]:
    def op(state: sp.Basic, params: Params) -> Result:
        arg = params["arg"]
        notes = _arith_notes(kind, state, arg)
        fns = {
            "add": lambda e: e + arg,
            "subtract": lambda e: e - arg,
            "multiply": lambda e: e * arg,
            "divide": lambda e: e / arg,
        }
        new = both_sides(state, fns[kind])
        if kind in ("multiply", "divide") and arg.is_negative and _is_inequality(state):
            new = _FLIP[type(new)](new.lhs, new.rhs, evaluate=False)
            notes.append("the inequality flips: multiplying by a negative number")
        return [new], notes

    return op


_FLIP = {sp.StrictLessThan: sp.StrictGreaterThan, sp.StrictGreaterThan: sp.StrictLessThan,
         sp.LessThan: sp.GreaterThan, sp.GreaterThan: sp.LessThan}  # fmt: skip


def _is_inequality(state: sp.Basic) -> bool:
    return isinstance(state, Relational) and not isinstance(state, (sp.Eq, sp.Ne))


def _arith_notes(kind: str, state: sp.Basic, arg: sp.Basic) -> list[str]:
    if kind not in ("multiply", "divide"):
        return []
    if arg.is_zero:
        raise OperationError(f"cannot {kind} both sides by 0")
    if not arg.free_symbols:
        return []
    notes = []
    if kind == "divide":
        notes.append(f"assumes ${_show(arg)} \\ne 0$")
    else:
        notes.append(f"may add roots where ${_show(arg)} = 0$")
    if _is_inequality(state) and not (arg.is_positive or arg.is_negative):
        notes.append(f"the inequality's direction depends on the sign of ${_show(arg)}$")
    return notes


def _power(state: sp.Basic, params: Params) -> Result:
    n = params.get("arg", sp.Integer(2))
    new = both_sides(state, lambda e: e**n)
    even = n.is_integer and n.is_even
    return [new], (["may add extraneous roots (squaring is not reversible)"] if even else [])


def _sqrt_both(state: sp.Basic, params: Params) -> Result:
    if not isinstance(state, sp.Eq):
        raise OperationError("take square roots of both sides of an equation")
    lhs, rhs = state.lhs, state.rhs
    if isinstance(lhs, sp.Pow) and lhs.exp == 2:
        root = sp.sqrt(rhs)
        cases = sp.Or(sp.Eq(lhs.base, root), sp.Eq(lhs.base, -root), evaluate=False)
        return [cases], ["keeps both signs (±), so no root is lost"]
    return [sp.Eq(sp.sqrt(lhs), sp.sqrt(rhs), evaluate=False)], [
        "assumes both sides are non-negative"
    ]


def _log_both(state: sp.Basic, params: Params) -> Result:
    return [both_sides(state, sp.log)], ["assumes both sides are positive"]


def _exp_both(state: sp.Basic, params: Params) -> Result:
    return [both_sides(state, sp.exp)], []


def _reciprocal(state: sp.Basic, params: Params) -> Result:
    notes = ["assumes both sides are nonzero"]
    if _is_inequality(state):
        notes.append("the inequality flips only when both sides have the same sign")
    return [both_sides(state, lambda e: 1 / e)], notes


def _cross_multiply(state: sp.Basic, params: Params) -> Result:
    if not isinstance(state, sp.Eq):
        raise OperationError("cross-multiplying needs an equation")
    (n1, d1), (n2, d2) = sp.fraction(sp.together(state.lhs)), sp.fraction(sp.together(state.rhs))
    if d1 == 1 and d2 == 1:
        raise OperationError("there is no fraction to clear")
    dens = [d for d in (d1, d2) if d.free_symbols]
    notes = [f"may add roots where ${_show(d)} = 0$" for d in dens]
    return [sp.Eq(n1 * d2, n2 * d1, evaluate=False)], notes


def _to_one_side(state: sp.Basic, params: Params) -> Result:
    if not isinstance(state, Relational):
        raise OperationError("only an equation or inequality has sides")
    return [_rebuild(state, state.lhs - state.rhs, sp.Integer(0))], []


def _swap(state: sp.Basic, params: Params) -> Result:
    if not isinstance(state, Relational):
        raise OperationError("only an equation or inequality has sides")
    return [state.reversed], []


# ---- solving, substitution, calculus ------------------------------------------------------


def _solve(state: sp.Basic, params: Params) -> Result:
    var = main_var(state, params)
    if isinstance(state, sp.And):
        return [_solve_system(state)], []
    if not isinstance(state, Relational):
        raise OperationError("solve needs an equation or inequality")
    domain = sp.S.Complexes if params.get("domain") == "complex" else sp.S.Reals
    sols = sp.solveset(state, var, domain)
    return [_as_statement(sols, var)], []


def _as_statement(sols: sp.Set, var: sp.Symbol) -> sp.Basic:
    if isinstance(sols, sp.FiniteSet):
        eqs = [sp.Eq(var, v) for v in sols]
        if not eqs:
            return sp.false
        return eqs[0] if len(eqs) == 1 else sp.Or(*eqs, evaluate=False)
    if sols == sp.S.EmptySet:
        return sp.false
    if isinstance(sols, (sp.Interval, sp.Union, sp.Complement)) or sols == sp.S.Reals:
        return sols.as_relational(var)
    raise OperationError(f"SymPy cannot write these solutions in closed form: {sols}")


def _solve_system(state: sp.And) -> sp.Basic:
    eqs = [a for a in state.args if isinstance(a, sp.Eq)]
    symbols = sorted(set().union(*(e.free_symbols for e in eqs)), key=str)
    sols = sp.solve(eqs, symbols, dict=True)
    if not sols:
        return sp.false
    ands = [sp.And(*(sp.Eq(k, v) for k, v in sorted(s.items(), key=str))) for s in sols]
    return ands[0] if len(ands) == 1 else sp.Or(*ands)


def _substitute(state: sp.Basic, params: Params) -> Result:
    eq = params["arg"]
    if not isinstance(eq, sp.Eq):
        raise OperationError("write the substitution as an equation, e.g. 'u = x + 1'")
    old, new = eq.lhs, eq.rhs
    if (
        isinstance(new, sp.Symbol)
        and new not in state.free_symbols
        and not (isinstance(old, sp.Symbol) and old in state.free_symbols)
    ):
        old, new = new, old  # "x + 1 = u": the new symbol is on the right
    if isinstance(old, sp.Symbol) and old in state.free_symbols:
        return [state.subs(old, new)], []  # plug a value or an expression in for a variable
    if not isinstance(old, sp.Symbol):
        raise OperationError("one side of the substitution must be a single variable")
    # A new variable u = g(x): write x in terms of u, which needs g to be invertible here.
    shared = sorted(new.free_symbols & state.free_symbols, key=str)
    if len(shared) != 1:
        raise OperationError(f"the substitution must use exactly one variable of the state: {eq}")
    x = shared[0]
    inverse = sp.solve(sp.Eq(old, new), x)
    if len(inverse) != 1:
        raise OperationError(f"cannot write {x} in terms of {old} in one way ({len(inverse)} ways)")
    if not isinstance(state, (Relational, sp.And)):
        raise OperationError(
            "a change of variable needs an equation or inequality (an expression in u is not "
            "equal to the expression in x)"
        )
    # The definition travels with the state, so the new state says exactly what the old one did.
    new = sp.And(state.subs(x, inverse[0]), sp.Eq(old, new), evaluate=False)
    definition = eq.rhs if old == eq.lhs else eq.lhs
    return [new], [f"change of variable: ${_show(old)} = {_show(definition)}$"]


def _differentiate(state: sp.Basic, params: Params) -> Result:
    if isinstance(state, (Relational, sp.And, sp.Or)):
        raise OperationError("differentiate an expression; this state is a statement")
    var = main_var(state, params)
    written = sp.Derivative(state, var)
    return [written, written.doit()], []


def _integrate(state: sp.Basic, params: Params) -> Result:
    if isinstance(state, (Relational, sp.And, sp.Or)):
        raise OperationError("integrate an expression; this state is a statement")
    var = main_var(state, params)
    low, high = params.get("low"), params.get("high")
    limits = (var, low, high) if low is not None else (var,)
    written = sp.Integral(state, limits)
    value = written.doit()
    if value.has(sp.Integral):
        raise OperationError("SymPy finds no closed form for this integral")
    return [written, value], []


def _evaluate(state: sp.Basic, params: Params) -> Result:
    return [on_sides(state, lambda e: e.doit(), params.get("side"))], []


_OPERATIONS: dict[str, Callable[[sp.Basic, Params], Result]] = {
    "simplify": _rewrite(sp.simplify),
    "expand": _rewrite(sp.expand),
    "factor": _rewrite(sp.factor),
    "cancel": _rewrite(sp.cancel),
    "together": _rewrite(sp.together),
    "rationalize": _rewrite(sp.radsimp),
    "simplify_trig": _rewrite(sp.trigsimp),
    "expand_trig": _rewrite(sp.expand_trig),
    "collect": _collect,
    "apart": _apart,
    "complete_square": _complete_square,
    "double_angle": _double_angle,
    "expand_log": _log_rule(sp.expand_log),
    "combine_log": _log_rule(sp.logcombine),
    "evaluate": _evaluate,
    "add": _arith("add"),
    "subtract": _arith("subtract"),
    "multiply": _arith("multiply"),
    "divide": _arith("divide"),
    "square_both": _power,
    "power_both": _power,
    "sqrt_both": _sqrt_both,
    "log_both": _log_both,
    "exp_both": _exp_both,
    "reciprocal": _reciprocal,
    "cross_multiply": _cross_multiply,
    "to_one_side": _to_one_side,
    "swap_sides": _swap,
    "solve": _solve,
    "substitute": _substitute,
    "differentiate": _differentiate,
    "integrate": _integrate,
}

KINDS = frozenset(_OPERATIONS)
