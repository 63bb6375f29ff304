"""Mistake families: plausible wrong next steps, made from a correct step (runs in a CAS worker).

Each family is a function ``(previous, correct_next) -> list[SymPy state]`` that imitates one
error a learner makes:

* ``sign_error`` — one term, one root or the inequality's direction gets the wrong sign;
* ``lost_root`` — one case of a disjunction of roots is dropped;
* ``wrong_identity`` — a false "identity" applied to the previous state ((a+b)² = a² + b²,
  √(a+b) = √a + √b, ln(a+b) = ln a + ln b, 1/(a+b) = 1/a + 1/b);
* ``dropped_term`` — one additive term of the correct next state disappears;
* ``arithmetic_slip`` — one integer constant is off by one.

Nothing here decides that a candidate is wrong: the grounding cascade grades every candidate, and
``games`` offers only those it refutes (with a witness), never one it grades verified or better.

>>> import sympy as sp
>>> x = sp.Symbol("x", real=True)
>>> [str(s) for s in sign_error(sp.Eq(2 * x, 6), sp.Eq(x, 3))]
['Eq(x, -3)']
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp
from sympy.core.relational import Relational

Family = Callable[[sp.Basic, sp.Basic], list[sp.Basic]]
_FLIP = {sp.StrictLessThan: sp.StrictGreaterThan, sp.StrictGreaterThan: sp.StrictLessThan,
         sp.LessThan: sp.GreaterThan, sp.GreaterThan: sp.LessThan}  # fmt: skip


def _terms(e: sp.Basic) -> list[sp.Basic]:
    return list(e.args) if isinstance(e, sp.Add) else [e]


def _sides(state: sp.Basic) -> list[tuple[str, sp.Basic]]:
    if isinstance(state, Relational):
        return [("lhs", state.lhs), ("rhs", state.rhs)]
    if isinstance(state, sp.Expr):
        return [("expr", state)]
    return []


def _with_side(state: sp.Basic, which: str, new: sp.Basic) -> sp.Basic:
    if which == "expr":
        return new
    lhs, rhs = (new, state.rhs) if which == "lhs" else (state.lhs, new)
    return state.func(lhs, rhs)


def sign_error(prev: sp.Basic, nxt: sp.Basic) -> list[sp.Basic]:
    if isinstance(nxt, sp.Or):
        # Flip one case whose flipped form is not already another case (x = ±2 must not
        # collapse into x = 2, which would be a lost root rather than a sign error).
        for i, case in enumerate(nxt.args):
            for flipped in sign_error(prev, case):
                made = sp.Or(*nxt.args[:i], flipped, *nxt.args[i + 1 :])
                if isinstance(made, sp.Or) and len(made.args) == len(nxt.args):
                    return [made]
        return []
    if isinstance(nxt, sp.And):
        return _sign_error_in_conjunction(prev, nxt)
    return _sign_error_in_atom(nxt)


def _integer_parameters(state: sp.Basic) -> set[sp.Symbol]:
    """The k of a general solution (``x = πk + π/2 ∧ k ∈ ℤ``)."""
    return {
        c.args[0]
        for c in sp.preorder_traversal(state)
        if isinstance(c, sp.Contains) and c.args[1] == sp.S.Integers
    }


def _sign_error_in_family(atom: sp.Basic, ks: set[sp.Symbol]) -> list[sp.Basic]:
    """x = 2πk + π/6 → x = 2πk − π/6: the offset's sign, since −(2πk) runs over the same
    multiples as 2πk (negating the whole side is no error at all)."""
    if not (isinstance(atom, sp.Eq) and atom.rhs.has(*ks)):
        return []
    offset = sp.Add(*[t for t in sp.Add.make_args(atom.rhs) if not t.has(*ks)])
    return [sp.Eq(atom.lhs, atom.rhs - 2 * offset)] if offset != 0 else []


def _sign_error_in_atom(nxt: sp.Basic) -> list[sp.Basic]:
    if type(nxt) in _FLIP:
        return [_FLIP[type(nxt)](nxt.lhs, nxt.rhs)]
    # The constant of a sum changes sign (x − 3 → x + 3), inside a factor as much as outside,
    # and wherever that sum occurs: a learner who miscopies x − 3 miscopies it every time.
    site = _signed_constant(nxt)
    if site is not None:
        return [nxt.xreplace(site)]
    if isinstance(nxt, Relational):
        if nxt.rhs != 0:
            return [nxt.func(nxt.lhs, -nxt.rhs)]
        if not nxt.lhs.is_Add:
            return []
        if isinstance(nxt, sp.Eq):
            # −(x² − 3x) = 0 is the same equation; the slip is one term's sign (x² + 3x = 0).
            last = nxt.lhs.args[-1]
            return [sp.Eq(nxt.lhs - 2 * last, 0)]
        return [nxt.func(-nxt.lhs, nxt.rhs)]
    return [-nxt] if isinstance(nxt, sp.Expr) and nxt != 0 else []


def _signed_constant(tree: sp.Basic) -> dict[sp.Basic, sp.Basic] | None:
    """{sum: the same sum with its number negated} for the first sum (pre-order) that has one."""
    for node in sp.preorder_traversal(tree):
        if isinstance(node, sp.Add):
            const = next((t for t in node.args if t.is_Number and t != 0), None)
            if const is not None:
                return {node: node - 2 * const}
    return None


def _sign_error_in_conjunction(prev: sp.Basic, nxt: sp.And) -> list[sp.Basic]:
    """The slip happens in what the step wrote, not in a condition copied from the previous
    state (flipping x − 2 ≥ 0 there only widens or narrows the answer); equations first."""
    kept = set(sp.And.make_args(prev))
    fresh = sorted((c for c in nxt.args if c not in kept), key=lambda c: not isinstance(c, sp.Eq))
    ks = _integer_parameters(nxt)
    if ks:
        for conjunct in fresh:
            for flipped in _sign_error_in_family(conjunct, ks):
                return [nxt.xreplace({conjunct: flipped})]
        return []
    for conjunct in fresh:
        site = _signed_constant(conjunct)
        if site is None:
            continue
        made = nxt.xreplace({c: c.xreplace(site) for c in fresh})
        if isinstance(made, sp.And) and len(made.args) == len(nxt.args):
            return [made]
    for conjunct in fresh:
        for flipped in _sign_error_in_atom(conjunct):
            made = nxt.xreplace({conjunct: flipped})
            if isinstance(made, sp.And) and len(made.args) == len(nxt.args):
                return [made]
    return []


def _replace_once(tree: sp.Basic, old: sp.Basic, new: sp.Basic) -> sp.Basic:
    """``tree`` with the first occurrence (pre-order) of ``old`` replaced, the others kept."""
    done = [False]

    def walk(node: sp.Basic) -> sp.Basic:
        if done[0]:
            return node
        if node == old:
            done[0] = True
            return new
        if not node.args:
            return node
        args = [walk(a) for a in node.args]
        return node.func(*args) if done[0] else node

    return walk(tree)


def lost_root(prev: sp.Basic, nxt: sp.Basic) -> list[sp.Basic]:
    if isinstance(nxt, sp.Or) and len(nxt.args) >= 2:
        return [nxt.args[0]]
    return []


_a, _b = sp.Wild("a", exclude=[0]), sp.Wild("b", exclude=[0])
_FALSE_IDENTITIES: tuple[tuple[Callable[[sp.Basic], bool], Callable[[sp.Basic], sp.Basic]], ...] = (
    # (a + b)^2 → a^2 + b^2
    (lambda n: isinstance(n, sp.Pow) and n.exp == 2 and isinstance(n.base, sp.Add),
     lambda n: sp.Add(*[t**2 for t in n.base.args])),
    # sqrt(a + b) → sqrt(a) + sqrt(b)
    (lambda n: isinstance(n, sp.Pow) and n.exp == sp.S.Half and isinstance(n.base, sp.Add),
     lambda n: sp.Add(*[sp.sqrt(t) for t in n.base.args])),
    # ln(a + b) → ln a + ln b
    (lambda n: isinstance(n, sp.log) and isinstance(n.args[0], sp.Add),
     lambda n: sp.Add(*[sp.log(t) for t in n.args[0].args])),
    # 1/(a + b) → 1/a + 1/b
    (lambda n: isinstance(n, sp.Pow) and n.exp == -1 and isinstance(n.base, sp.Add),
     lambda n: sp.Add(*[1 / t for t in n.base.args])),
)  # fmt: skip


def wrong_identity(prev: sp.Basic, nxt: sp.Basic) -> list[sp.Basic]:
    """The false identity applied where the learner works: the previous state, else what the
    step wrote (never a condition only copied along, where it changes nothing that is asked)."""
    for source, other in ((prev, nxt), (nxt, prev)):
        carried = set(sp.And.make_args(other))
        parts = [c for c in sp.And.make_args(source) if c not in carried]
        for match, wrong in _FALSE_IDENTITIES:
            for part in parts:
                for node in sp.preorder_traversal(part):
                    if match(node):
                        return [source.xreplace({part: part.xreplace({node: wrong(node)})})]
    return []


def dropped_term(prev: sp.Basic, nxt: sp.Basic) -> list[sp.Basic]:
    for which, side in _sides(nxt):
        terms = _terms(side)
        if len(terms) >= 2:
            # Drop the last term with the variable if any, else the last one.
            keep = sp.Add(*terms[:-1])
            return [_with_side(nxt, which, keep)]
    return []


def arithmetic_slip(prev: sp.Basic, nxt: sp.Basic) -> list[sp.Basic]:
    """The last integer that stands as a term or a coefficient (not an exponent) is off by one.

    The last one, because it is usually the freshly computed constant (2x = 4 → 2x = 5), and it
    does not collapse a case into its neighbour (x = 2 ∨ x = 3 → x = 2 ∨ x = 4). Not for
    inequalities: a bound off by one gives a nested interval (x < 6 for x < 5), a step that
    narrows or widens but that no single value refutes.
    """
    if any(type(n) in _FLIP for n in sp.preorder_traversal(nxt)):
        return []
    sites = [
        (node, arg)
        for node in sp.preorder_traversal(nxt)
        if not isinstance(node, sp.Pow)
        for arg in node.args
        if isinstance(arg, sp.Integer) and abs(arg) > 1
    ]
    for node, arg in reversed(sites):
        bumped = node.func(*[a + 1 if a is arg else a for a in node.args])
        made = _replace_once(nxt, node, bumped)
        if sp.count_ops(made) == sp.count_ops(nxt):  # not collapsed into a neighbouring case
            return [made]
    return []


FAMILIES: dict[str, Family] = {
    "sign_error": sign_error,
    "lost_root": lost_root,
    "wrong_identity": wrong_identity,
    "dropped_term": dropped_term,
    "arithmetic_slip": arithmetic_slip,
}


def _not_real(state: sp.Basic) -> bool:
    """ln(x − 1) = ln x + ln(−1) brings in iπ: no learner writes that, so it is no distractor."""
    return state.has(sp.I, sp.zoo, sp.nan, sp.oo * sp.I)


def candidates(prev: sp.Basic, nxt: sp.Basic) -> list[tuple[str, str]]:
    """(family, LaTeX) of every distinct candidate that differs from the correct next state."""
    from veristep.propose.symbolic.printer import to_latex
    from veristep.workspace.worker import state_latex

    out: list[tuple[str, str]] = []
    seen = {sp.srepr(nxt)}
    for name, family in FAMILIES.items():
        try:
            made = family(prev, nxt)
        except (ArithmeticError, TypeError, ValueError, AttributeError, IndexError):
            continue  # a family that does not fit this step offers nothing
        for state in made:
            key = sp.srepr(state)
            if key in seen or state in (sp.true, sp.false) or _not_real(state):
                continue
            seen.add(key)
            out.append((name, state_latex(state, to_latex)))
    return out
