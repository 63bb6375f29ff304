"""Inequalities in one unknown: linear moves (naming the sign flip), absolute-value bounds, and sign
analysis for quadratic and rational inequalities, ending in bounds or intervals.

Every move is an equivalence: both sides change together, a division by a negative number reverses
the relation and says so, and a sign table decides which intervals belong to the answer.

>>> x = sp.Symbol("x", real=True)
>>> p = Problem(start=sp.Lt(5 - 2 * x, 11), target=None, var=x)
>>> [m.operation for m in inequality_moves(sp.Lt(-2 * x, 6), p)]
['divide both sides by $-2$ and reverse the inequality sign']
"""

from __future__ import annotations

import itertools

import sympy as sp
from sympy.core.relational import Relational

from veristep.propose.symbolic.moves import Move, Problem, bare_tex, math, tex

_FLIP = {sp.StrictLessThan: sp.StrictGreaterThan, sp.StrictGreaterThan: sp.StrictLessThan,
         sp.LessThan: sp.GreaterThan, sp.GreaterThan: sp.LessThan}  # fmt: skip
_INEQ = tuple(_FLIP)


def is_inequality(state: sp.Basic) -> bool:
    return isinstance(state, _INEQ)


def _rel(kind: type, lhs: sp.Basic, rhs: sp.Basic) -> sp.Basic:
    return kind(lhs, rhs, evaluate=False)


def is_bound(state: sp.Basic, x: sp.Symbol) -> bool:
    """``x < a``, ``a < x`` … with the unknown alone on one side."""
    if not isinstance(state, _INEQ):
        return False
    return (state.lhs == x and not state.rhs.has(x)) or (state.rhs == x and not state.lhs.has(x))


def is_solved_inequality(state: sp.Basic, x: sp.Symbol | None) -> bool:
    """A bound, a conjunction of bounds, a disjunction of those, or ``x \\in`` an interval."""
    if x is None:
        return False
    if isinstance(state, sp.Contains):
        return state.args[0] == x and not state.args[1].has(x)
    if isinstance(state, sp.Or):
        return all(is_solved_inequality(a, x) or _is_point(a, x) for a in state.args)
    if isinstance(state, sp.And):
        return all(is_bound(a, x) for a in state.args)
    return is_bound(state, x)


def _is_point(state: sp.Basic, x: sp.Symbol) -> bool:
    return isinstance(state, sp.Eq) and state.lhs == x and not state.rhs.has(x)


def inequality_moves(state: sp.Basic, p: Problem) -> list[Move]:
    """The next move for an inequality (or a conjunction of two bounds on the same expression)."""
    x = p.var
    if x is None:
        return []
    if isinstance(state, sp.And) and len(state.args) == 2:
        return _double_moves(state, x) or _excluded_sign_moves(state, x)
    if not is_inequality(state) or is_bound(state, x):
        return []
    for strategy in (_absolute_moves, _linear_moves, _sign_analysis_moves):
        moves = strategy(state, x)
        if moves:
            return moves
    return []


# --- linear ----------------------------------------------------------------------------------


def _linear_moves(state: Relational, x: sp.Symbol) -> list[Move]:
    diff = state.lhs - state.rhs
    if state.has(sp.Abs) or not diff.is_polynomial(x) or sp.degree(sp.expand(diff), x) != 1:
        return []
    lhs, rhs, kind = state.lhs, state.rhs, type(state)
    if sp.expand(lhs) != lhs or sp.expand(rhs) != rhs:
        new = _rel(kind, sp.expand(lhs), sp.expand(rhs))
        return [Move("expand", "expand the brackets", "distributive law", "rewrite", new)]
    lcd = sp.lcm([sp.fraction(sp.together(t))[1] for t in sp.Add.make_args(lhs - rhs)])
    if lcd != 1 and lcd.is_number and lcd > 0:
        new = _rel(kind, sp.expand(lhs * lcd), sp.expand(rhs * lcd))
        why = f"clear the fractions; {tex(lcd)} is positive, so the inequality sign stays"
        return [Move("clear-fractions", f"multiply both sides by {tex(lcd)}", why, "rewrite", new)]
    if not lhs.has(x):
        new = _rel(_FLIP[kind], rhs, lhs)
        why = "$a < b$ means $b > a$"
        return [Move("swap", "write the unknown on the left", why, "rewrite", new)]
    x_right = sp.Add(*[t for t in sp.Add.make_args(rhs) if t.has(x)])
    if x_right != 0:
        return [_add_both(state, x_right, "collect the terms with the unknown on the left")]
    const = sp.Add(*[t for t in sp.Add.make_args(lhs) if not t.has(x)])
    if const != 0:
        return [_add_both(state, const, "isolate the term with the unknown")]
    coeff = sp.simplify(lhs / x)
    if coeff == 1 or not coeff.is_number:
        return []
    return [_divide(state, coeff)]


def _add_both(state: Relational, term: sp.Basic, why: str) -> Move:
    op = f"add {tex(-term)} to" if term.could_extract_minus_sign() else f"subtract {tex(term)} from"
    new = _rel(type(state), sp.expand(state.lhs - term), sp.expand(state.rhs - term))
    why += "; adding the same number to both sides keeps the inequality"
    return Move("move-term", f"{op} both sides", why, "rewrite", new)


def _divide(state: Relational, coeff: sp.Basic) -> Move:
    kind = type(state)
    new_kind = _FLIP[kind] if coeff.is_negative else kind
    new = _rel(new_kind, sp.expand(state.lhs / coeff), sp.expand(state.rhs / coeff))
    if coeff.is_negative:
        op = f"divide both sides by {tex(coeff)} and reverse the inequality sign"
        why = "dividing by a negative number reverses the inequality"
    else:
        op = f"divide both sides by {tex(coeff)}"
        why = "dividing by a positive number keeps the inequality"
    return Move("divide", op, why, "rewrite", new)


# --- two bounds on one expression: a < u < b --------------------------------------------------


def _double_moves(state: sp.And, x: sp.Symbol) -> list[Move]:
    """``a < u ∧ u < b`` with u linear in x: the same operation on every part."""
    low, high = _as_double(state, x)
    if low is None:
        return []
    (a, lo_kind), u, (b, hi_kind) = low, _middle(state, x), high
    if u == x:
        return []
    const = sp.Add(*[t for t in sp.Add.make_args(sp.expand(u)) if not t.has(x)])
    if const != 0:
        word = (
            f"add {tex(-const)} to"
            if const.could_extract_minus_sign()
            else (f"subtract {tex(const)} from")
        )
        new = _double(a - const, lo_kind, sp.expand(u - const), hi_kind, b - const)
        return [Move("move-term", f"{word} every part", "the same number added to every part "
                     "keeps both inequalities", "rewrite", new)]  # fmt: skip
    coeff = sp.simplify(sp.expand(u) / x)
    if not coeff.is_number or coeff == 1:
        return []
    if coeff.is_negative:
        new = _double(b / coeff, hi_kind, x, lo_kind, a / coeff)
        op = f"divide every part by {tex(coeff)} and reverse the inequality signs"
        why = "dividing by a negative number reverses every inequality"
    else:
        new = _double(a / coeff, lo_kind, x, hi_kind, b / coeff)
        op, why = f"divide every part by {tex(coeff)}", "dividing by a positive number keeps them"
    return [Move("divide", op, why, "rewrite", new)]


def _as_double(state: sp.And, x: sp.Symbol):
    """((a, kind), (b, kind)) when the state reads a (<|≤) u and u (<|≤) b for one u."""
    lows, highs = [], []
    for arg in state.args:
        if not isinstance(arg, _INEQ):
            return None, None
        small, big = (
            (arg.lhs, arg.rhs)
            if isinstance(arg, sp.StrictLessThan | sp.LessThan)
            else (arg.rhs, arg.lhs)
        )
        strict = isinstance(arg, sp.StrictLessThan | sp.StrictGreaterThan)
        kind = sp.StrictLessThan if strict else sp.LessThan
        if big.has(x) and not small.has(x):
            lows.append((small, kind, big))
        elif small.has(x) and not big.has(x):
            highs.append((big, kind, small))
    if len(lows) != 1 or len(highs) != 1 or lows[0][2] != highs[0][2]:
        return None, None
    return (lows[0][0], lows[0][1]), (highs[0][0], highs[0][1])


def _middle(state: sp.And, x: sp.Symbol) -> sp.Basic:
    arg = state.args[0]
    return arg.lhs if arg.lhs.has(x) else arg.rhs


def _double(a: sp.Basic, lo: type, u: sp.Basic, hi: type, b: sp.Basic) -> sp.Basic:
    return sp.And(_rel(lo, a, u), _rel(hi, u, b), evaluate=False)


# --- absolute values --------------------------------------------------------------------------


def _absolute_moves(state: Relational, x: sp.Symbol) -> list[Move]:
    lhs, rhs, kind = state.lhs, state.rhs, type(state)
    if isinstance(rhs, sp.Abs) and not lhs.has(x):
        lhs, rhs, kind = rhs, lhs, _FLIP[kind]
    if not isinstance(lhs, sp.Abs):
        return _isolate_abs(state, x)
    if rhs.has(x) or not rhs.is_number or not rhs.is_positive:
        return []
    u, b = lhs.args[0], rhs
    strict = kind in (sp.StrictLessThan, sp.StrictGreaterThan)
    lt, gt = ("<", ">") if strict else ("\\le", "\\ge")
    if kind in (sp.StrictLessThan, sp.LessThan):
        k = sp.StrictLessThan if strict else sp.LessThan
        new = _double(-b, k, u, k, b)
        why = f"{math(f'|u| {lt} b')} means {math(f'-b {lt} u {lt} b')}"
        op = "write the bound on the absolute value as two inequalities"
        return [Move("abs-bound", op, why, "rewrite", new)]
    lo = sp.StrictLessThan if strict else sp.LessThan
    hi = sp.StrictGreaterThan if strict else sp.GreaterThan
    new = sp.Or(_rel(lo, u, -b), _rel(hi, u, b), evaluate=False)
    why = f"{math(f'|u| {gt} b')} means {math(f'u {lt} -b')} or {math(f'u {gt} b')}"
    op = "split the absolute value into two inequalities"
    return [Move("abs-bound", op, why, "rewrite", new)]


def _isolate_abs(state: Relational, x: sp.Symbol) -> list[Move]:
    terms = [t for t in sp.Add.make_args(state.lhs) if t.has(sp.Abs)]
    if len(terms) != 1 or state.rhs.has(x):
        return []
    rest = state.lhs - terms[0]
    if rest != 0 and not rest.has(x):
        return [_add_both(state, rest, "isolate the absolute value")]
    coeff, bare = terms[0].as_independent(x, as_Add=False)
    if isinstance(bare, sp.Abs) and coeff.is_number and coeff != 1:
        return [_divide(state, coeff)]
    return []


# --- sign analysis: quadratic and rational ----------------------------------------------------


def _sign_analysis_moves(state: Relational, x: sp.Symbol) -> list[Move]:
    diff = sp.together(state.lhs - state.rhs)
    num, den = sp.fraction(diff)
    if not (num.is_polynomial(x) and den.is_polynomial(x)) or state.has(sp.Abs):
        return []
    if state.rhs != 0:
        kind = type(state)
        new = _rel(kind, sp.expand(state.lhs - state.rhs), sp.S.Zero)
        if den.has(x):
            new = _rel(kind, sp.factor(diff), sp.S.Zero)
        why = f"subtract {tex(state.rhs)} from both sides: compare with zero"
        return [Move("standard-form", "bring every term to the left side", why, "rewrite", new)]
    if den.has(x):
        return [_clear_denominator(state, num, den, x)]
    factored = sp.factor(state.lhs)
    if isinstance(state.lhs, sp.Add) and not isinstance(factored, sp.Add):
        new = _rel(type(state), factored, sp.S.Zero)
        why = _factor_why(state.lhs, factored)
        return [Move("factor", "factor the left side", why, "rewrite", new)]
    return _sign_table_move(state, x)


def _clear_denominator(state: Relational, num: sp.Basic, den: sp.Basic, x: sp.Symbol) -> Move:
    """Multiply by the square of the denominator: positive wherever the fraction is defined, so
    the sign stays; a non-strict inequality keeps the excluded values written beside it."""
    new = _rel(type(state), sp.factor(num) * sp.factor(den), sp.S.Zero)
    poles = sorted(sp.solveset(den, x, sp.Reals), key=float)
    square = math("(" + bare_tex(den) + ")^2")
    why = f"{square} is positive wherever the fraction is defined"
    if isinstance(state, sp.LessThan | sp.GreaterThan) and poles:
        new = sp.And(new, *[sp.Ne(x, v) for v in poles], evaluate=False)
        why += "; the excluded values stay excluded"
    return Move("clear-denominator", f"multiply both sides by {square}", why, "rewrite", new)


def _excluded_sign_moves(state: sp.And, x: sp.Symbol) -> list[Move]:
    """``p(x) ≤ 0 ∧ x ≠ a``: the sign table with the excluded value left out."""
    rels = [a for a in state.args if isinstance(a, _INEQ)]
    nes = [a for a in state.args if isinstance(a, sp.Ne) and a.lhs == x and a.rhs.is_number]
    if len(rels) != 1 or len(rels) + len(nes) != len(state.args) or rels[0].rhs != 0:
        return []
    rel = rels[0]
    factored = sp.factor(rel.lhs)
    if isinstance(rel.lhs, sp.Add) and not isinstance(factored, sp.Add):
        new = sp.And(_rel(type(rel), factored, sp.S.Zero), *nes, evaluate=False)
        why = _factor_why(rel.lhs, factored)
        return [Move("factor", "factor the left side", why, "rewrite", new)]
    return _sign_table_move(rel, x, excluded=[a.rhs for a in nes])


def _factor_why(before: sp.Basic, after: sp.Basic) -> str:
    return f"{math(bare_tex(before) + ' = ' + bare_tex(after))}: the roots give the critical points"


def _sign_table_move(
    state: Relational, x: sp.Symbol, excluded: list[sp.Basic] | None = None
) -> list[Move]:
    expr = state.lhs
    num, den = sp.fraction(sp.together(expr))
    zeros = sp.solveset(num, x, sp.Reals)
    poles = sp.solveset(den, x, sp.Reals) if den.has(x) else sp.S.EmptySet
    if not all(isinstance(s, sp.FiniteSet) or s is sp.S.EmptySet for s in (zeros, poles)):
        return []
    zeros, poles = list(zeros), [*poles, *(excluded or [])]
    points = sorted(set(zeros) | set(poles), key=float)
    if not points or not all(v.is_real for v in points):
        return []
    strict = isinstance(state, sp.StrictLessThan | sp.StrictGreaterThan)
    wants_positive = isinstance(state, sp.StrictGreaterThan | sp.GreaterThan)
    signs, keep = [], []
    for lo, hi in zip([-sp.oo, *points], [*points, sp.oo], strict=True):
        value = expr.subs(x, _probe(lo, hi))
        positive = bool(value > 0)
        signs.append("+" if positive else "-")
        if positive == wants_positive:
            keep.append([lo, hi, strict or lo in poles or lo == -sp.oo,
                         strict or hi in poles or hi == sp.oo])  # fmt: skip
    if not strict:
        keep = _join_touching(keep, [z for z in zeros if z not in poles])
    new = _intervals_state(keep, x)
    if new is None:
        return []
    table = _table(points, signs)
    crit = ", ".join(math(bare_tex(v)) for v in points)
    why = f"critical points {crit}; sign of {tex(expr)}: {table}"
    return [Move("sign-table", "read the answer from a sign table", why, "rewrite", new)]


def _probe(lo: sp.Basic, hi: sp.Basic) -> sp.Basic:
    if lo == -sp.oo:
        return hi - 1
    if hi == sp.oo:
        return lo + 1
    return (lo + hi) / 2


def _join_touching(keep: list[list], zeros: list[sp.Basic]) -> list[list]:
    """Closed ends at zeros of the numerator; merge pieces that meet at such a zero; add isolated
    zeros as points."""
    for piece in keep:
        piece[2] = piece[2] and piece[0] not in zeros
        piece[3] = piece[3] and piece[1] not in zeros
    merged: list[list] = []
    for piece in keep:
        if merged and merged[-1][1] == piece[0] and piece[0] in zeros:
            merged[-1][1], merged[-1][3] = piece[1], piece[3]
        else:
            merged.append(piece)
    covered = {p[0] for p in merged} | {p[1] for p in merged}
    merged += [[z, z, False, False] for z in zeros if z not in covered]
    return sorted(merged, key=lambda p: float(p[0]) if p[0] != -sp.oo else -1e300)


def _intervals_state(pieces: list[list], x: sp.Symbol) -> sp.Basic | None:
    parts = []
    for lo, hi, open_lo, open_hi in pieces:
        if lo == hi:
            parts.append(sp.Eq(x, lo))
            continue
        bounds = []
        if lo != -sp.oo:
            bounds.append(_rel(sp.StrictLessThan if open_lo else sp.LessThan, lo, x))
        if hi != sp.oo:
            bounds.append(_rel(sp.StrictLessThan if open_hi else sp.LessThan, x, hi))
        if not bounds:
            return None
        if len(bounds) == 1 and lo != -sp.oo:  # a lower bound alone reads x > a
            b = bounds[0]
            bounds = [_rel(_FLIP[type(b)], x, lo)]
        parts.append(sp.And(*bounds, evaluate=False) if len(bounds) == 2 else bounds[0])
    if not parts:
        return sp.false
    return sp.Or(*parts, evaluate=False) if len(parts) > 1 else parts[0]


def _table(points: list[sp.Basic], signs: list[str]) -> str:
    """The sign table in words: the sign on each interval between critical points."""
    ends = [None, *points, None]
    cells = []
    for (lo, hi), sign in zip(itertools.pairwise(ends), signs, strict=True):
        parts = [bare_tex(lo)] if lo is not None else []
        parts += ["x"] + ([bare_tex(hi)] if hi is not None else [])
        where = " < ".join(parts)
        cells.append(f"{'positive' if sign == '+' else 'negative'} on {math(where)}")
    return "; ".join(cells)


def interval_form_move(state: sp.Basic, p: Problem) -> list[Move]:
    """A solved inequality written as the target's interval (``x \\in (3, \\infty)``)."""
    target, x = p.target, p.var
    if not (isinstance(target, sp.Contains) and is_solved_inequality(state, x)):
        return []
    if isinstance(state, sp.Contains):
        return []
    try:
        same = state.as_set() == target.args[1]
    except (NotImplementedError, TypeError, ValueError):
        return []
    if not same:
        return []
    why = "the values satisfying the bounds form this interval"
    return [Move("interval", "write the answer as an interval", why, "rewrite", target)]
