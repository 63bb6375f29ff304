"""Simultaneous equations: substitution and elimination, one line per step, back-substitution.

A state is a conjunction of equations (or, once a quadratic splits, a disjunction of such
systems). Each move rewrites one equation and keeps the others, so every step is an equivalence:
solving one equation for an unknown, substituting it into the others, adding a multiple of one
equation to another, or solving an equation left with one unknown (by the one-unknown moves).

>>> x, y = sp.symbols("x y", real=True)
>>> s = sp.And(sp.Eq(x + y, 10), sp.Eq(x - y, 4))
>>> [m.operation for m in system_moves(s, Problem(s, None, None))]
['subtract $x - y = 4$ from $x + y = 10$']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import sympy as sp

from veristep.propose.symbolic.moves import Move, Problem, bare_tex, math

OneUnknown = Callable[[sp.Basic, Problem], list[Move]]


def unknowns(state: sp.Basic) -> list[sp.Symbol]:
    return sorted((s for s in state.free_symbols if isinstance(s, sp.Symbol)), key=lambda s: s.name)


def is_system(state: sp.Basic) -> bool:
    """A conjunction of at least two equations in at least two unknowns."""
    if isinstance(state, sp.Or):
        return all(is_system(c) for c in state.args)
    if not isinstance(state, sp.And):
        return False
    equations = all(isinstance(e, sp.Eq) or _is_cases(e) for e in state.args)
    return equations and len(unknowns(state)) >= 2


def _is_cases(e: sp.Basic) -> bool:
    return isinstance(e, sp.Or) and all(isinstance(c, sp.Eq) for c in e.args)


def solved_point(state: sp.Basic) -> dict[sp.Symbol, sp.Basic] | None:
    """``{x: 3, y: 2}`` when every equation reads ``unknown = number``."""
    if not isinstance(state, sp.And):
        return None
    point = {}
    for e in state.args:
        if not (isinstance(e, sp.Eq) and isinstance(e.lhs, sp.Symbol) and e.rhs.is_number):
            return None
        point[e.lhs] = e.rhs
    return point if len(point) == len(state.args) else None


def solved_points(state: sp.Basic) -> list[dict] | None:
    cases = state.args if isinstance(state, sp.Or) else (state,)
    points = [solved_point(c) for c in cases]
    return None if any(p is None for p in points) else points


def same_points(state: sp.Basic, target: sp.Basic) -> bool:
    mine, theirs = solved_points(state), solved_points(target)
    if mine is None or theirs is None:
        return False
    return _key(mine) == _key(theirs)


def _key(points: list[dict]) -> list:
    return sorted(sorted((s.name, str(sp.nsimplify(v))) for s, v in p.items()) for p in points)


def system_moves(state: sp.Basic, p: Problem, one: OneUnknown | None = None) -> list[Move]:
    """The next move; ``one`` gives the moves for an equation in one unknown."""
    if isinstance(state, sp.Or):
        return _each_case(state, p, one)
    eqs = list(state.args)
    for strategy in (_solve_single, _substitute_value, _distribute, _substitute_isolated,
                     _eliminate, _isolate_unit):  # fmt: skip
        move = strategy(eqs, p, one)
        if move is not None:
            return [move]
    return []


def _rebuild(eqs: list[sp.Basic], i: int, new: sp.Basic) -> sp.Basic:
    out = [*eqs[:i], new, *eqs[i + 1 :]]
    return sp.And(*out, evaluate=False)


def _single_unknown(e: sp.Basic) -> sp.Symbol | None:
    syms = unknowns(e)
    return syms[0] if len(syms) == 1 else None


def _is_value(e: sp.Basic) -> bool:
    return isinstance(e, sp.Eq) and isinstance(e.lhs, sp.Symbol) and e.rhs.is_number


def _solve_single(eqs: list[sp.Basic], p: Problem, one: OneUnknown | None) -> Move | None:
    """An equation left with one unknown: solve it with the one-unknown moves."""
    if one is None:
        return None
    for i, e in enumerate(eqs):
        v = _single_unknown(e)
        if v is None or _is_value(e) or not isinstance(e, sp.Eq):
            continue
        moves = one(e, dataclasses.replace(p, var=v, start=e, target=None))
        if moves:
            m = moves[0]
            if "both sides" in m.operation:
                op = m.operation.replace("both sides", f"both sides of {_name(e)}", 1)
            else:
                op = f"{m.operation} in {_name(e)}"
            return Move(m.name, op, m.justification, m.change_type, _rebuild(eqs, i, m.state))
    return None


def _substitute_value(eqs: list[sp.Basic], p: Problem, one: OneUnknown | None) -> Move | None:
    """``x = 3`` known: put it into the equations that still contain x."""
    for i, e in enumerate(eqs):
        if not _is_value(e):
            continue
        v, value = e.lhs, e.rhs
        others = [j for j, f in enumerate(eqs) if j != i and f.has(v)]
        if not others:
            continue
        out = list(eqs)
        for j in others:
            out[j] = _tidy(eqs[j].subs(v, value))
        where = " and ".join(_name(eqs[j]) for j in others)
        op = f"substitute {math(bare_tex(v) + ' = ' + bare_tex(value))} into {where}"
        return Move("substitute-value", op, "replace the unknown by its value", "rewrite",
                    sp.And(*out, evaluate=False))  # fmt: skip
    return None


def _tidy(e: sp.Eq) -> sp.Basic:
    lhs, rhs = sp.expand(e.lhs), sp.expand(e.rhs)
    if rhs.free_symbols and not lhs.free_symbols:
        lhs, rhs = rhs, lhs
    return sp.Eq(lhs, rhs, evaluate=False)


def _distribute(eqs: list[sp.Basic], p: Problem, one: OneUnknown | None) -> Move | None:
    """One equation split into cases (x = -1 ∨ x = 2): carry the other equations into each."""
    for i, e in enumerate(eqs):
        if isinstance(e, sp.Or):
            rest = [f for j, f in enumerate(eqs) if j != i]
            cases = [sp.And(c, *rest, evaluate=False) for c in e.args]
            why = "$(A \\lor B) \\land C$ is $(A \\land C) \\lor (B \\land C)$"
            return Move("cases", "take each case with the other equation", why, "rewrite",
                        sp.Or(*cases, evaluate=False))  # fmt: skip
    return None


def _isolated(e: sp.Basic) -> tuple[sp.Symbol, sp.Basic] | None:
    if isinstance(e, sp.Eq):
        for side, other in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
            if isinstance(side, sp.Symbol) and not other.has(side) and other.free_symbols:
                return side, other
    return None


def _substitute_isolated(eqs: list[sp.Basic], p: Problem, one: OneUnknown | None) -> Move | None:
    """``y = 2x - 1``: replace y in the other equations (the substitution method)."""
    for i, e in enumerate(eqs):
        found = _isolated(e)
        if found is None:
            continue
        v, expr = found
        others = [j for j, f in enumerate(eqs) if j != i and f.has(v)]
        if not others:
            continue
        out = list(eqs)
        for j in others:
            out[j] = eqs[j].subs(v, expr)
        where = " and ".join(_name(eqs[j]) for j in others)
        op = f"substitute {math(bare_tex(v) + ' = ' + bare_tex(expr))} into {where}"
        return Move("substitute", op, "substitution method", "rewrite",
                    sp.And(*out, evaluate=False))  # fmt: skip
    return None


def _linear(e: sp.Basic, syms: list[sp.Symbol]) -> dict[sp.Symbol, sp.Basic] | None:
    if not isinstance(e, sp.Eq):
        return None
    diff = sp.expand(e.lhs - e.rhs)
    try:
        poly = sp.Poly(diff, *syms)
    except sp.PolynomialError:
        return None
    if poly.total_degree() != 1:
        return None
    return {s: poly.coeff_monomial(s) for s in syms}


def _eliminate(eqs: list[sp.Basic], p: Problem, one: OneUnknown | None) -> Move | None:
    """Add a multiple of one equation to another so that one unknown disappears from it."""
    syms = unknowns(sp.And(*eqs))
    coeffs = [_linear(e, syms) for e in eqs]
    if any(c is None for c in coeffs):
        return None
    best = None
    for v in syms:
        for i, ci in enumerate(coeffs):
            for j, cj in enumerate(coeffs):
                if i == j or ci[v] == 0 or cj[v] == 0:
                    continue
                if sum(1 for s in syms if cj[s] != 0) < 2:
                    continue
                k = -cj[v] / ci[v]
                if not k.is_Integer or not _fewer(ci, cj, k, syms):
                    continue
                score = (abs(k), j)
                if best is None or score < best[0]:
                    best = (score, i, j, k)
    if best is None:
        return _scale_for_elimination(eqs, coeffs, syms)
    _, i, j, k = best
    new = sp.Eq(sp.expand(eqs[j].lhs + k * eqs[i].lhs), sp.expand(eqs[j].rhs + k * eqs[i].rhs))
    why = "adding a multiple of one equation to another keeps the solutions"
    return Move("eliminate", _combine_words(eqs[i], eqs[j], k), why, "rewrite",
                _rebuild(eqs, j, new))  # fmt: skip


def _fewer(ci: dict, cj: dict, k: sp.Basic, syms: list[sp.Symbol]) -> bool:
    """Adding k × (equation i) to equation j leaves j with fewer unknowns: real progress."""
    before = sum(1 for s in syms if cj[s] != 0)
    after = sum(1 for s in syms if cj[s] + k * ci[s] != 0)
    return after < before


def _combine_words(first: sp.Basic, second: sp.Basic, k: sp.Basic) -> str:
    times = "" if abs(k) == 1 else f"{abs(k)} times "
    verb, prep = ("add", "to") if k > 0 else ("subtract", "from")
    return f"{verb} {times}{_name(first)} {prep} {_name(second)}"


def _name(e: sp.Basic) -> str:
    """An equation named by what it says: SymPy orders the conjuncts, so a position would lie."""
    return math(bare_tex(e))


def _scale_for_elimination(eqs, coeffs, syms) -> Move | None:
    """No integer multiple eliminates: multiply one equation so that one will."""
    for v in syms:
        for i, ci in enumerate(coeffs):
            for j, cj in enumerate(coeffs):
                if i >= j or ci[v] == 0 or cj[v] == 0:
                    continue
                m = sp.lcm(ci[v], cj[v]) / ci[v]
                scaled = {s: m * c for s, c in ci.items()}
                if m.is_Integer and abs(m) != 1 and _fewer(scaled, cj, -cj[v] / (m * ci[v]), syms):
                    new = sp.Eq(sp.expand(m * eqs[i].lhs), sp.expand(m * eqs[i].rhs))
                    op = f"multiply both sides of {_name(eqs[i])} by {math(bare_tex(m))}"
                    why = f"to match the coefficients of {math(bare_tex(v))}"
                    return Move("scale-equation", op, why, "rewrite", _rebuild(eqs, i, new))
    return None


def _isolate_unit(eqs: list[sp.Basic], p: Problem, one: OneUnknown | None) -> Move | None:
    """An unknown with coefficient ±1 in a non-linear system: solve for it (to substitute)."""
    syms = unknowns(sp.And(*eqs))
    for i, e in enumerate(eqs):
        c = _linear(e, syms)
        if c is None:
            continue
        for v in reversed(syms):
            if abs(c[v]) == 1:
                solved = sp.solve(e, v)
                if len(solved) == 1:
                    op = f"solve {_name(e)} for {math(bare_tex(v))}"
                    return Move("isolate", op, "move the other terms to the right side",
                                "rewrite", _rebuild(eqs, i, sp.Eq(v, solved[0])))  # fmt: skip
    return None


def _each_case(state: sp.Or, p: Problem, one: OneUnknown | None) -> list[Move]:
    cases, ops = [], []
    for case in state.args:
        if solved_point(case) is not None:
            cases.append(case)
            continue
        moves = system_moves(case, p, one)
        if not moves:
            return []
        cases.append(moves[0].state)
        ops.append(moves[0])
    if not ops:
        return []
    words = list(dict.fromkeys(m.operation for m in ops))
    op = "in each case, " + words[0] if len(words) == 1 else "; ".join(words)
    return [Move("cases", op, ops[0].justification, "rewrite", sp.Or(*cases, evaluate=False))]
