"""The two chain-level gates beside the step verdicts (docs/design.md).

**Reached as written**: the last state *is* the target as written — the same graph up to the order
of the operands of ``+``, ``·``, ``=``, ``∨``, ``∧`` and the spelling of an operator (``\\cdot`` or
juxtaposition, ``\\dfrac`` or ``\\frac``). A derivation must write its answer, not merely mean it.

**Conclusion gate**: when the last state is a *solved form* (each unknown isolated: ``x = v``, an
∨ of those, a bound such as ``x > 3``, a conjunction of those for a system), it is compared with
the **start**: a value it admits that does not satisfy the start (by substitution into the start
as written, inside its natural domain) refutes the chain with that value as the witness; a value
of the start that it loses caps the chain at plausible. This catches an extraneous root that a
chain of individually honest widening steps carried to the end.

>>> from sympy import Eq, Or, sqrt, symbols
>>> x = symbols("x", real=True)
>>> solved_unknowns(Or(Eq(x, 1), Eq(x, 4)))
['x']
>>> solved_unknowns(Eq(x**2, 4)) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sympy import And, Basic, Eq, Ge, Gt, Le, Lt, Or, Symbol

from veristep.grounding import cas
from veristep.grounding.decision import Context
from veristep.grounding.witness import show


def same_as_written(a: Any, b: Any) -> bool:
    """Whether two graphs are the same state as written, up to commutative operand order."""
    return _canonical(a.root) == _canonical(b.root)


# Node values that are spelling only (how a product or a fraction was typed), not meaning.
_SPELLING_ONLY = {"mul", "frac", "or", "and", "div"}


def _canonical(node: Any) -> tuple:
    children = [_canonical(c) for c in node.children]
    if node.commutative:
        children.sort(key=repr)
    value = "" if node.kind.value in _SPELLING_ONLY else node.value
    return (node.kind.value, value, tuple(children))


def solved_unknowns(s: Basic) -> list[str] | None:
    """The unknowns a solved form isolates, or None when ``s`` is no solved form.

    Each atom is ``var = value`` or a bound ``var < value`` (either side) with ``value`` free of
    every isolated variable; ∨ and ∧ of such atoms are solved forms too.
    """
    atoms = _atoms(s)
    if atoms is None:
        return None
    isolated: set[Symbol] = set()
    for atom in atoms:
        var = _isolated(atom)
        if var is None:
            return None
        isolated.add(var)
    for atom in atoms:
        if any(atom.rhs.has(v) if atom.lhs in isolated else atom.lhs.has(v) for v in isolated):
            return None
    return sorted(v.name for v in isolated)


def _atoms(s: Basic) -> list[Basic] | None:
    if isinstance(s, (And, Or)):
        out: list[Basic] = []
        for arg in s.args:
            inner = _atoms(arg)
            if inner is None:
                return None
            out += inner
        return out
    if isinstance(s, (Eq, Lt, Le, Gt, Ge)):
        return [s]
    return None


def _isolated(atom: Basic) -> Symbol | None:
    lhs, rhs = atom.lhs, atom.rhs
    if isinstance(lhs, Symbol) and not rhs.has(lhs):
        return lhs
    if isinstance(rhs, Symbol) and not lhs.has(rhs):
        return rhs
    return None


@dataclass(frozen=True)
class Conclusion:
    """What the gate found: a refuting value, a lost value, or nothing (None fields)."""

    admitted_wrong: Any = None  # a value the conclusion admits that does not solve the start
    lost: Any = None  # a value solving the start that the conclusion loses
    reason: str = ""
    sides: dict[str, str] | None = None  # each side of the start at the wrong value


def conclusion_gate(start: Basic, last: Basic, ctx: Context) -> Conclusion | None:
    """Compare a solved-form last state with the start; None when the gate does not apply or
    cannot decide (a timeout is never evidence)."""
    from sympy import Float

    unknowns = solved_unknowns(last)
    if unknowns is None or start == last or last.has(Float):
        return None  # decimals are approximations: the approximate check judges those
    out = cas.run(compare_conclusion, start, last, ctx=ctx)
    if not out.ok or out.value is None:
        return None
    tag, value, *sides = out.value
    if tag == "wrong":
        where = _point(value)
        said = f"{where} does not solve the start"
        return Conclusion(admitted_wrong=value, reason=said, sides=sides[0] if sides else None)
    if tag == "lost":
        where = _point(value)
        return Conclusion(lost=value, reason=f"{where} also solves the start")
    return None


def _point(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} = {v}" for k, v in value.items())
    return show([value])


def compare_conclusion(start: Basic, last: Basic) -> tuple[str, Any] | None:
    """CAS task: ('wrong', point) | ('lost', point) | None.

    One unknown: exact real solution sets (values substituted back as written). Several: each
    point the conclusion names (finitely many) substituted into the start.
    """
    from veristep.grounding.solving import SetChange, compare_sets, holds, real_solution_set
    from veristep.grounding.statements import symbols_of
    from veristep.grounding.witness import sides_at

    syms = symbols_of(start, last)
    if len(syms) == 1:
        var = syms[0]
        tag, first, lost = compare_sets(real_solution_set(start, var), real_solution_set(last, var))
        if tag in (SetChange.NEW, SetChange.WIDENS):
            wrong = [v for v in first if holds(start, var, v) is False]
            if not wrong:
                return None
            return ("wrong", {var.name: str(wrong[0])}, sides_at(start, var, wrong[0]))
        if tag == SetChange.NARROWS:
            return ("lost", {var.name: str(lost[0])}) if lost else None
        if tag == SetChange.EMPTY:
            return ("lost", {var.name: str(first)})
        return None
    return _points_against_start(start, last, syms)


def _points_against_start(start: Basic, last: Basic, syms: list[Symbol]) -> tuple[str, Any] | None:
    """Several unknowns: a point of the conclusion (every unknown given a number) that makes
    the start false as written."""
    from sympy.logic.boolalg import to_dnf

    from veristep.grounding.solving import holds

    dnf = to_dnf(last) if isinstance(last, (And, Or)) else last
    for conj in Or.make_args(dnf):
        point = _numeric_point(conj)
        if point is None or set(point) != set(syms):
            continue
        # All unknowns but one substituted, then the domain-aware test on the last one.
        first = syms[0]
        others = {k: v for k, v in point.items() if k != first}
        if holds(start.subs(others), first, point[first]) is False:
            return ("wrong", {k.name: str(v) for k, v in point.items()})
    return None


def _numeric_point(conj: Basic) -> dict[Symbol, Basic] | None:
    point: dict[Symbol, Basic] = {}
    for atom in And.make_args(conj):
        if not isinstance(atom, Eq):
            return None
        var = _isolated(atom)
        if var is None:
            return None
        value = atom.rhs if atom.lhs == var else atom.lhs
        if value.free_symbols:
            return None
        point[var] = value
    return point
