"""Property-based soundness audit of the grounding engine (real SymPy, real CAS workers).

Random one-variable equations (built from known roots, then spread over both sides) and random
expressions (polynomial, rational, radical, |·|, log, trig terms) are transformed correctly or
wrongly, rendered to LaTeX with ``sympy.latex`` and judged. The non-negotiables:

- a WRONG step that the oracle confirms is not equivalent is never grounded/verified equivalent;
- a narrowing or widening step is never reported as equivalent, at any tier;
- a correct step is never refuted, and
- every refuted verdict carries a witness that survives substitution at 60 digits (mpmath).

Deterministic: ``derandomize=True`` and a bounded number of examples per property.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from veristep.core.settings import Settings
from veristep.core.tiers import Relation, Tier
from veristep.grounding import Context, judge_transition

# ---------------------------------------------------------------- the oracle (mpmath, 60 digits)
# Independent of the engine: a statement holds at a point when every side is a finite *real*
# number there (an mpc result means the point is outside the real domain) and the relation is
# true; a refuting witness is checked by substituting it, never by asking the engine again.

X = sp.Symbol("x", real=True)
DPS = 60
_EPS = mpmath.mpf(10) ** -40
# Points away from the small integers and simple fractions the generators use as roots and poles.
_CALCULUS = (sp.Derivative, sp.Integral, sp.Sum, sp.Product, sp.Limit)
PROBES = ("-3.37", "-1.71", "-0.63", "0.41", "1.29", "2.93", "4.17", "7.23")


def real_at(e: sp.Expr, point: dict[sp.Symbol, Any]) -> Any:
    """``e`` at ``point`` as an mpmath real, or None where it is undefined over the reals."""
    syms = sorted(e.free_symbols, key=str)
    with mpmath.workdps(DPS):
        try:
            fn = sp.lambdify(syms, e, modules="mpmath")
            v = fn(*(mpmath.mpf(str(sp.N(point[s], DPS))) for s in syms))
        except (ZeroDivisionError, ValueError, TypeError, KeyError, OverflowError):
            return None
        if not isinstance(v, (mpmath.mpf, mpmath.mpc, bool)):
            v = +mpmath.mpmathify(
                v
            )  # a constant side: a Python number, or mpmath's pi (unary + rounds it to an mpf)
        if not isinstance(v, mpmath.mpf) or not mpmath.isfinite(v):
            return None  # complex (outside the real domain), infinite or not a number at all
        return v


def holds(s: Any, point: dict[sp.Symbol, Any]) -> bool:
    """Whether statement ``s`` is true at ``point``; false wherever a side is undefined."""
    if isinstance(s, sp.Or):
        return any(holds(a, point) for a in s.args)
    if isinstance(s, sp.And):
        return all(holds(a, point) for a in s.args)
    if isinstance(s, (bool, sp.logic.boolalg.BooleanAtom)):
        return bool(s)
    lhs, rhs = real_at(sp.sympify(s.lhs), point), real_at(sp.sympify(s.rhs), point)
    if lhs is None or rhs is None:
        return False
    d = lhs - rhs
    zero = abs(d) < _EPS
    if isinstance(s, sp.Eq):
        return zero
    if isinstance(s, sp.Ne):
        return not zero
    if isinstance(s, (sp.Gt, sp.Lt)):
        return not zero and ((d > 0) == isinstance(s, sp.Gt))
    return zero or ((d > 0) == isinstance(s, sp.Ge))


def differ_somewhere(a: sp.Expr, b: sp.Expr) -> bool:
    """Both expressions defined and clearly different at some probe point (so ``a ≢ b``)."""
    for p in PROBES:
        pt = {X: sp.Rational(p)}
        va, vb = real_at(a, pt), real_at(b, pt)
        if va is not None and vb is not None and abs(va - vb) > _EPS * (1 + abs(va)):
            return True
    return False


def statements_differ(a: Any, b: Any, points: list[Any]) -> bool:
    """Some point of ``points`` makes exactly one of the two statements true."""
    return any(holds(a, {X: p}) != holds(b, {X: p}) for p in points)


def witness_is_valid(verdict: Any, prev: Any, nxt: Any) -> tuple[bool, str]:
    """Re-check a refuted verdict's witness by substitution (``prev``/``nxt`` are the oracle's own
    SymPy forms of the two states). (valid, why) — limits are the one kind not re-computed."""
    w = verdict.witness
    reason = verdict.reason
    # Calculus in a state is evaluated by SymPy first; the substitution itself stays numeric.
    if not (isinstance(w, dict) and ({"left", "bounds"} & set(w))):
        prev, nxt = (s.doit() if s.has(*_CALCULUS) else s for s in (prev, nxt))
    if isinstance(w, list):
        values = [sp.sympify(v) for v in w]
        if "introduces value" in reason:
            ok = all(holds(nxt, {X: v}) and not holds(prev, {X: v}) for v in values)
            return ok, f"each of {w} solves the next and not the previous"
        if "no real solution" in reason:
            return all(holds(prev, {X: v}) for v in values), f"{w} solves the previous"
        return False, f"unrecognised list witness for: {reason}"
    if isinstance(w, dict) and {"left", "right"} <= set(w) and isinstance(prev, sp.Limit):
        expr, var, point = prev.args[0], prev.args[1], prev.args[2]
        left, right = sp.limit(expr, var, point, "-"), sp.limit(expr, var, point, "+")
        ok = (str(left), str(right)) == (w["left"], w["right"]) and left != right
        return ok, f"one-sided limits {left} and {right}"
    if isinstance(w, dict) and "bounds" in w and isinstance(prev, sp.Limit):
        expr, var, point = prev.args[0], prev.args[1], prev.args[2]
        sides = [sp.limit(expr, var, point, d) for d in (("+", "-") if point.is_finite else ("+",))]
        return any(isinstance(v, sp.AccumBounds) for v in sides), f"limits {sides}"
    if isinstance(w, dict) and "at" in w and not str(w["at"]).startswith("= "):
        return True, "a limit landmark (not re-computed)"
    if isinstance(w, dict) and {"previous", "next"} <= set(w):
        syms = prev.free_symbols | nxt.free_symbols
        if "at" in w:  # a landmark of a one-variable expression
            (var,) = syms or {X}
            pt = {var: sp.sympify(w["at"][2:])}
        else:
            pt = {v: sp.sympify(w[v.name]) for v in syms if v.name in w}
        if not pt and len(syms) == 1:
            # "the previous is 1 and the next is 2" about x/x → 2: both are constants wherever
            # they are defined, so any point where both are defined must show the difference.
            (var,) = syms
            return differ_somewhere(prev.subs(var, X), nxt.subs(var, X)), "two constants"
        if set(pt) < syms:
            return False, f"the witness does not fix every variable: {w}"
        va, vb = real_at(prev, pt), real_at(nxt, pt)
        ok = va is not None and vb is not None and abs(va - vb) > _EPS * (1 + abs(va))
        return ok, f"at {pt}: previous {va}, next {vb}"
    return False, f"unrecognised witness {w!r}"


# ---------------------------------------------------------------- the engine

SETTINGS = Settings(step_timeout_s=4.0, cas_timeout_s=2.0)
FUZZ = settings(
    max_examples=60,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
# Equation steps cost about ten times more (solution sets): fewer of them keep the file under 90 s.
FUZZ_EQ = settings(FUZZ, max_examples=30)
PROVED = (Tier.GROUNDED, Tier.VERIFIED)
# (x + 1)² − x² − 2x − 1 = 0, which SymPy does not see without expanding.
ZERO_IN_DISGUISE = r" + \left(x + 1\right)^{2} - x^{2} - 2 x - 1"


STATS: Counter[str] = Counter()  # verdicts per property, printed at the end (pytest -s)


@pytest.fixture(scope="module", autouse=True)
def _print_stats() -> Any:
    yield
    print("\nsoundness fuzz verdicts:", dict(sorted(STATS.items())))


def judge(prev: str, nxt: str, change_type: str | None = "rewrite") -> Any:
    return judge_transition(prev, nxt, change_type, Context(settings=SETTINGS))


def rel_latex(lhs: sp.Expr, rhs: sp.Expr, op: str = "=") -> str:
    # Rendered side by side: Eq(...) would evaluate (x-1)^2 + 10^-12 = 0 to False at once.
    return f"{sp.latex(lhs)} {op} {sp.latex(rhs)}"


def assert_witness(verdict: Any, prev: Any, nxt: Any, where: str) -> None:
    if verdict.relation is Relation.REFUTED:
        ok, why = witness_is_valid(verdict, prev, nxt)
        assert ok, f"{where}: bogus witness {verdict.witness!r} ({why}); reason: {verdict.reason}"


# ---------------------------------------------------------------- equations from known roots


@st.composite
def equations(draw: Any) -> dict[str, Any]:
    """A polynomial equation c·Π(x − rᵢ) = 0 spread over two sides: L = R with roots known."""
    roots = draw(st.lists(st.integers(-4, 4), min_size=1, max_size=3, unique=True))
    c = draw(st.sampled_from([1, 2, -1, 3, sp.Rational(1, 2)]))
    residual = sp.expand(c * sp.Mul(*(X - r for r in roots)))
    moved = draw(st.integers(-3, 3)) * X ** draw(st.integers(0, 2)) + draw(st.integers(-5, 5))
    return {"roots": roots, "c": c, "L": residual + moved, "R": moved, "P": residual}


def correct_equation_step(draw: Any, eq: dict[str, Any]) -> tuple[sp.Expr, sp.Expr]:
    lhs, rhs = eq["L"], eq["R"]
    move = draw(st.sampled_from(["expand", "factor", "add", "scale", "swap", "one_side"]))
    if move == "expand":
        return sp.expand(lhs), sp.expand(rhs)
    if move == "factor":
        return sp.factor(lhs - rhs), sp.S.Zero
    if move == "add":
        t = draw(st.integers(-4, 4)) * X ** draw(st.integers(0, 3)) + draw(st.integers(-3, 3))
        return sp.expand(lhs + t), sp.expand(rhs + t)
    if move == "scale":
        k = draw(st.sampled_from([2, -3, sp.Rational(1, 3), -1, 5]))
        return sp.expand(k * lhs), sp.expand(k * rhs)
    if move == "swap":
        return rhs, lhs
    return sp.expand(lhs - rhs), sp.S.Zero


def wrong_equation_step(draw: Any, eq: dict[str, Any]) -> tuple[sp.Expr, sp.Expr, str]:
    lhs, rhs = sp.expand(eq["L"]), eq["R"]
    terms = list(sp.Add.make_args(lhs))
    i = draw(st.integers(0, len(terms) - 1))
    move = draw(st.sampled_from(["sign", "drop", "coefficient", "exponent", "tiny", "root", "rhs"]))
    if move == "sign":
        terms[i] = -terms[i]
    elif move == "drop":
        terms.pop(i)
    elif move == "coefficient":
        terms[i] = terms[i] * 2 if terms[i].has(X) else terms[i] + 1
    elif move == "exponent":
        terms[i] = terms[i] * X
    elif move == "tiny":
        terms.append(sp.Rational(1, 10**12))
    elif move == "root":
        roots = [r for r in eq["roots"] if r != 0] or [1]
        r = roots[0]
        factors = [X + r if s == r else X - s for s in eq["roots"]] if r in eq["roots"] else []
        new = eq["c"] * sp.Mul(*factors) if factors else eq["P"] + 1
        return new, sp.S.Zero, move
    else:
        return lhs, rhs + draw(st.sampled_from([1, -2, X])), move
    return sp.Add(*terms), rhs, move


def narrowing_or_widening_step(draw: Any, eq: dict[str, Any]) -> tuple[str, Any] | None:
    """(LaTeX of the next state, its oracle form) for a step that changes the solution set."""
    roots, residual = eq["roots"], eq["P"]
    spare = next(s for s in range(-6, 7) if s not in roots)
    moves = ["multiply", "square"] + (["divide", "pick"] if len(roots) > 1 else [])
    move = draw(st.sampled_from(moves))
    if move == "multiply":  # by (x − s), s not a root: s is extraneous
        new = sp.expand(residual * (X - spare))
        return rel_latex(new, sp.S.Zero), sp.Eq(new, 0, evaluate=False)
    if move == "square":  # L = R → L² = R²: the roots of L + R = 0 join in
        lhs, rhs = eq["L"], eq["R"]
        extra = (
            set(sp.Poly(lhs + rhs, X).real_roots()) - set(roots) if (lhs + rhs).has(X) else set()
        )
        if not extra:
            return None  # squaring happened to add nothing: no change of solution set to test
        new_l, new_r = sp.expand(lhs**2), sp.expand(rhs**2)
        return rel_latex(new_l, new_r), sp.Eq(new_l, new_r, evaluate=False)
    if move == "divide":  # by (x − r) for a simple root r: r is lost
        new = sp.cancel(residual / (X - roots[-1]))
        return rel_latex(new, sp.S.Zero), sp.Eq(new, 0, evaluate=False)
    return f"x = {roots[0]}", sp.Eq(X, roots[0])


def check_points(eq: dict[str, Any]) -> list[Any]:
    """The known roots, their neighbours, and the generic probe points."""
    near = {r + d for r in eq["roots"] for d in (-3, -2, -1, 1, 2, 3)}
    return [sp.S(p) for p in sorted(set(eq["roots"]) | near)] + [sp.Rational(p) for p in PROBES]


@FUZZ_EQ
@given(data=st.data(), eq=equations())
def test_wrong_equation_steps_are_never_proved(data: Any, eq: dict[str, Any]) -> None:
    new_l, new_r, move = wrong_equation_step(data.draw, eq)
    prev = sp.Eq(eq["L"], eq["R"], evaluate=False)
    nxt = sp.Eq(new_l, new_r, evaluate=False)
    if not statements_differ(prev, nxt, check_points(eq)):
        STATS["wrong equation: kept the solution set, skipped"] += 1
        return  # the mutation happened to keep the solution set: not a wrong step
    v = judge(rel_latex(eq["L"], eq["R"]), rel_latex(new_l, new_r))
    STATS[f"wrong equation: {v.relation.value}"] += 1
    where = f"{move}: {rel_latex(eq['L'], eq['R'])} → {rel_latex(new_l, new_r)}"
    assert not (v.relation is Relation.EQUIVALENT and v.tier in PROVED), f"{where}: {v.reason}"
    assert_witness(v, prev, nxt, where)


@FUZZ_EQ
@given(data=st.data(), eq=equations())
def test_narrowing_and_widening_steps_are_never_equivalent(data: Any, eq: dict[str, Any]) -> None:
    step = narrowing_or_widening_step(data.draw, eq)
    if step is None:
        STATS["narrowing/widening: squaring added nothing, skipped"] += 1
        return
    nxt_latex, nxt = step
    prev = sp.Eq(eq["L"], eq["R"], evaluate=False)
    v = judge(rel_latex(eq["L"], eq["R"]), nxt_latex, "solve")
    STATS[f"narrowing/widening: {v.relation.value}"] += 1
    where = f"{rel_latex(eq['L'], eq['R'])} → {nxt_latex}"
    assert v.relation is not Relation.EQUIVALENT, f"{where}: {v.reason}"
    assert_witness(v, prev, nxt, where)


def test_correct_equation_steps_are_never_refuted_and_mostly_decided() -> None:
    tally: Counter[str] = Counter()

    @FUZZ_EQ
    @given(data=st.data(), eq=equations())
    def prop(data: Any, eq: dict[str, Any]) -> None:
        new = rel_latex(*correct_equation_step(data.draw, eq))
        if new == rel_latex(eq["L"], eq["R"]):  # nothing changed: add zero in disguise instead
            new = rel_latex(eq["L"], eq["R"]).replace(" =", ZERO_IN_DISGUISE + " =", 1)
        v = judge(rel_latex(eq["L"], eq["R"]), new)
        where = f"{rel_latex(eq['L'], eq['R'])} → {new}"
        assert v.relation in (Relation.EQUIVALENT, Relation.UNKNOWN), f"{where}: {v.reason}"
        tally["decided" if v.relation is Relation.EQUIVALENT else "undecided"] += 1
        tally[f"by {v.check}"] += 1

    prop()
    rate = tally["decided"] / max(1, tally["decided"] + tally["undecided"])
    total = tally["decided"] + tally["undecided"]
    print(f"correct equation steps decided: {tally['decided']}/{total} {dict(tally)}")
    assert rate >= 0.5, tally


# ---------------------------------------------------------------- expressions

_A = st.integers(-3, 3)


@st.composite
def expressions(draw: Any) -> sp.Expr:
    """Two or three terms from polynomial, rational, radical, |·|, log and trig families."""
    kinds = st.sampled_from(["poly", "square", "rational", "sqrt", "abs", "log", "trig", "pi"])
    terms = []
    for _ in range(draw(st.integers(2, 3))):
        kind, k, a = draw(kinds), draw(st.sampled_from([1, 2, -1, 3])), draw(_A)
        terms.append(
            {
                "poly": k * X ** draw(st.integers(1, 3)) + a,
                "square": k * (X - a) ** 2,
                "rational": sp.Rational(k, 1) / (X - a),
                "sqrt": k * sp.sqrt(X + 5),
                "abs": k * sp.Abs(X - a),
                "log": k * sp.log(X**2 + 1),
                "trig": k * sp.sin(2 * X) if a % 2 else k * sp.cos(X) ** 2,
                "pi": sp.pi * X,
            }[kind]
        )
    return sp.Add(*terms)


def correct_expression_step(draw: Any, e: sp.Expr) -> sp.Expr:
    # Each move changes how the expression is written, so the engine has something to prove.
    move = draw(st.sampled_from(["expand", "together", "trig", "halfangle", "factor"]))
    if move == "expand":
        return sp.expand(e)
    if move == "together":
        return sp.together(sp.expand(e))
    if move == "trig":  # sin 2x → 2 sin x cos x
        return sp.expand_trig(e)
    if move == "halfangle":  # cos² x → (1 + cos 2x)/2
        return e.replace(
            lambda n: n.is_Pow and n.exp == 2 and isinstance(n.base, sp.cos),
            lambda n: (1 + sp.cos(2 * n.base.args[0])) / 2,
        )
    return sp.factor_terms(sp.expand(e))


def wrong_expression_step(draw: Any, e: sp.Expr) -> tuple[sp.Expr, str]:
    terms = list(sp.Add.make_args(sp.expand(e)))
    i = draw(st.integers(0, len(terms) - 1))
    move = draw(
        st.sampled_from(["sign", "drop", "coefficient", "tiny", "pi", "abs", "square", "exp"])
    )
    if move == "sign":
        terms[i] = -terms[i]
    elif move == "drop":
        terms.pop(i)
    elif move == "coefficient":
        terms[i] = terms[i] * 3
    elif move == "tiny":  # (x−1)² vs (x−1)² + 10⁻¹²
        terms.append(sp.Rational(1, 10**12))
    elif move == "pi":  # an approximate constant written as if exact
        return e.subs(sp.pi, sp.Rational(314, 100)) + (0 if e.has(sp.pi) else X / 10**6), move
    elif move == "abs":  # |u| → u, sqrt(u) → u/2 …: dropping a function
        return e.replace(lambda n: isinstance(n, sp.Abs), lambda n: n.args[0]) + X / 7, move
    elif move == "square":  # (x − a)² → x² − a²
        return e.replace(
            lambda n: n.is_Pow and n.exp == 2 and n.base.is_Add,
            lambda n: sum(t**2 for t in n.base.args),
        ) + sp.Rational(1, 3), move
    else:  # off-by-one exponent
        terms[i] = terms[i] * X
    return sp.Add(*terms), move


@FUZZ
@given(data=st.data(), e=expressions())
def test_wrong_expression_steps_are_never_proved(data: Any, e: sp.Expr) -> None:
    new, move = wrong_expression_step(data.draw, e)
    if not differ_somewhere(e, new):
        STATS["wrong expression: equal at every probe, skipped"] += 1
        return
    v = judge(sp.latex(e), sp.latex(new))
    STATS[f"wrong expression: {v.relation.value}"] += 1
    where = f"{move}: {sp.latex(e)} → {sp.latex(new)}"
    assert not (v.relation is Relation.EQUIVALENT and v.tier in PROVED), f"{where}: {v.reason}"
    assert_witness(v, e, new, where)


def test_correct_expression_steps_are_never_refuted_and_mostly_decided() -> None:
    tally: Counter[str] = Counter()

    @FUZZ
    @given(data=st.data(), e=expressions())
    def prop(data: Any, e: sp.Expr) -> None:
        new = sp.latex(correct_expression_step(data.draw, e))
        if new == sp.latex(e):  # a move that changed nothing: add zero in disguise instead
            new += ZERO_IN_DISGUISE
        v = judge(sp.latex(e), new)
        where = f"{sp.latex(e)} → {new}"
        assert v.relation in (Relation.EQUIVALENT, Relation.UNKNOWN), f"{where}: {v.reason}"
        tally["decided" if v.relation is Relation.EQUIVALENT else "undecided"] += 1
        tally[f"by {v.check}"] += 1

    prop()
    rate = tally["decided"] / max(1, tally["decided"] + tally["undecided"])
    total = tally["decided"] + tally["undecided"]
    print(f"correct expression steps decided: {tally['decided']}/{total} {dict(tally)}")
    assert rate >= 0.5, tally


@pytest.mark.parametrize("x0", [sp.Integer(2), sp.Rational(-1, 3)])
def test_oracle_rejects_points_outside_the_real_domain(x0: Any) -> None:
    # The oracle itself must not accept sqrt(-2)·sqrt(-3) = -sqrt(6) as a real value.
    assert not holds(sp.Eq(sp.sqrt(X - 3) * sp.sqrt(X - 4), -sp.sqrt(2)), {X: x0})


# ---------------------------------------------------------------- hand-picked traps

FIXTURE = Path(__file__).parent / "fixtures" / "soundness.txt"


def _cases() -> list[Any]:
    out = []
    for number, raw in enumerate(FIXTURE.read_text(encoding="utf-8").splitlines(), 1):
        if raw.strip() and not raw.lstrip().startswith("#"):
            prev, nxt, change_type, rule = (p.strip() for p in raw.split(";;"))
            ct = None if change_type == "-" else change_type
            out.append(pytest.param(prev, nxt, ct, rule, id=f"soundness:{number}"))
    return out


def written(latex: str) -> Any:
    """The oracle's form of a state: converted WITHOUT evaluation, so that x/x keeps x ≠ 0."""
    from veristep.mathgraph import parse_latex, to_sympy

    with sp.evaluate(False):
        return to_sympy(parse_latex(latex, SETTINGS), real=True, settings=SETTINGS)


@pytest.mark.parametrize(("prev", "nxt", "change_type", "rule"), _cases())
def test_hand_picked_trap(prev: str, nxt: str, change_type: str | None, rule: str) -> None:
    v = judge(prev, nxt, change_type)
    where = f"{prev} → {nxt}: {v.relation.value}/{v.tier.name_lower}: {v.reason}"
    if rule == "not-proved":
        assert not (v.relation is Relation.EQUIVALENT and v.tier in PROVED), where
    elif rule == "not-equivalent":
        assert v.relation is not Relation.EQUIVALENT, where
    elif rule == "not-refuted":
        assert v.relation is not Relation.REFUTED, where
    else:
        assert rule == "sound", f"unknown rule {rule!r}"
    if v.relation is Relation.REFUTED and change_type != "approximate":
        w_prev, w_next = written(prev), written(nxt)
        one_sided = isinstance(v.witness, dict) and {"left", "bounds"} & set(v.witness)
        if isinstance(v.witness, dict) and "previous" not in v.witness and not one_sided:
            # A system's point (x = 2, y = 2): substitute it into both written systems.
            point = {s: sp.sympify(v.witness[s.name]) for s in w_prev.free_symbols}
            assert holds(w_next, point) and not holds(w_prev, point), where
        else:
            assert_witness(v, w_prev, w_next, where)
