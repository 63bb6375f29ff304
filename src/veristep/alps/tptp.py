"""TPTP (and Prover9) problem text for the questions ALPS asks a prover.

The operation is the binary function ``f``; ``a`` and ``b`` are the two distinct constants of a
nontriviality assumption. Each problem is a plain string, so certificates can store it verbatim.

>>> law = parse_law("x = y ◇ (x ◇ z)")
>>> print(fof_law(law))
![X,Y,Z]: (X = f(Y,f(X,Z)))
>>> print(triviality_problem(law).tptp.splitlines()[-1])
fof(goal, conjecture, ![X,Y]: X = Y).
>>> print(triviality_problem(law).ladr)
formulas(assumptions).
v0 = f(v1,f(v0,v2)).
end_of_list.
formulas(goals).
x = y.
end_of_list.
"""

from __future__ import annotations

from dataclasses import dataclass

from veristep.alps.terms import Law, Term, Var, leaf_names, var_name
from veristep.alps.terms import parse_law as parse_law  # for the doctest


@dataclass(frozen=True)
class Problem:
    """One prover question in TPTP, and in Prover9's LADR syntax when that can express it.

    ``goal`` says what answers it: "proof" (Theorem/Unsatisfiable) or "model" (Satisfiable)."""

    name: str
    tptp: str
    goal: str  # "proof" | "model"
    ladr: str | None = None


def _var_map(names: list[str]) -> dict[str, str]:
    return {n: var_name(i).upper() for i, n in enumerate(dict.fromkeys(names))}


def fof_term(t: Term, vmap: dict[str, str]) -> str:
    if isinstance(t, Var):
        return vmap[t.name]
    return f"f({fof_term(t.left, vmap)},{fof_term(t.right, vmap)})"


def fof_law(law: Law) -> str:
    vmap = _var_map(leaf_names(law.lhs) + leaf_names(law.rhs))
    body = f"{fof_term(law.lhs, vmap)} = {fof_term(law.rhs, vmap)}"
    return f"![{','.join(vmap.values())}]: ({body})" if vmap else f"({body})"


def _axioms(laws: list[Law], prefix: str = "law") -> list[str]:
    return [f"fof({prefix}{i}, axiom, {fof_law(law)})." for i, law in enumerate(laws)]


GOAL_TRIVIAL = "fof(goal, conjecture, ![X,Y]: X = Y)."
NONTRIVIAL = "fof(nontrivial, axiom, a != b)."


def triviality_problem(law: Law) -> Problem:
    """Does ``law`` imply x = y? Theorem: every model is trivial."""
    tptp = "\n".join([*_axioms([law]), GOAL_TRIVIAL])
    return Problem("triviality", tptp, "proof", _ladr([p9_law(law)], "x = y."))


def surjectivity_axiom(witness: Term, x: str) -> str:
    """Every element is a value of ``witness`` as ``x`` varies (the other variables fixed)."""
    names = leaf_names(witness)
    vmap = _var_map([x, *names])
    params = [vmap[n] for n in dict.fromkeys(names) if n != x]
    bound = ",".join(["W_", *params])
    return f"fof(surjective, axiom, ![{bound}]: ?[{vmap[x]}]: {fof_term(witness, vmap)} = W_)."


def admissibility_problem(law: Law, witness: Term, x: str) -> Problem:
    """Law + surjectivity of ``witness`` in ``x`` ⊢ x = y: if a theorem, every finite model is
    trivial, because the law makes ``witness`` injective in ``x`` and a finite injective map is
    surjective."""
    tptp = "\n".join([*_axioms([law]), surjectivity_axiom(witness, x), GOAL_TRIVIAL])
    names = list(dict.fromkeys(leaf_names(witness)))
    vmap = {n: f"p{i}" for i, n in enumerate(names)}
    quant = " ".join(f"all {vmap[n]}" for n in names if n != x)
    surj = f"all w0 {quant} exists {vmap[x]} {_p9_term(witness, vmap)} = w0."
    return Problem("admissibility", tptp, "proof", _ladr([p9_law(law), surj], "x = y."))


def injectivity_problem(law: Law, witness: Term, x: str) -> Problem:
    """L ⊢ S(x1, p) = S(x2, p) → x1 = x2: ``witness`` is injective in ``x``."""
    names = list(dict.fromkeys(leaf_names(witness)))
    vmap = _var_map([x, *names])
    params = [vmap[n] for n in names if n != x]
    one, two = {**vmap, x: "X1_"}, {**vmap, x: "X2_"}
    bound = ",".join(["X1_", "X2_", *params])
    goal = f"{fof_term(witness, one)} = {fof_term(witness, two)} => X1_ = X2_"
    tptp = "\n".join([*_axioms([law]), f"fof(injective, conjecture, ![{bound}]: ({goal}))."])
    return Problem("injectivity", tptp, "proof")


def nontriviality_problem(laws: list[Law]) -> Problem:
    """``laws`` ∪ {a ≠ b}: Satisfiable (a complete saturation) means a nontrivial model exists."""
    return Problem("nontriviality", "\n".join([*_axioms(laws), NONTRIVIAL]), "model")


def implication_problem(premises: list[Law], goal: Law) -> Problem:
    vmap = _var_map(leaf_names(goal.lhs) + leaf_names(goal.rhs))
    body = f"{fof_term(goal.lhs, vmap)} = {fof_term(goal.rhs, vmap)}"
    quant = f"![{','.join(vmap.values())}]: " if vmap else ""
    tptp = "\n".join([*_axioms(premises), f"fof(goal, conjecture, {quant}({body}))."])
    return Problem("implication", tptp, "proof", _ladr([p9_law(p) for p in premises], p9_law(goal)))


# ---------------------------------------------------------------- Prover9 (LADR syntax)


def _p9_term(t: Term, vmap: dict[str, str]) -> str:
    if isinstance(t, Var):
        return vmap[t.name]
    return f"f({_p9_term(t.left, vmap)},{_p9_term(t.right, vmap)})"


def p9_law(law: Law) -> str:
    # LADR treats names starting with u..z as variables; rename to v0, v1, ... to be safe.
    names = dict.fromkeys(leaf_names(law.lhs) + leaf_names(law.rhs))
    vmap = {n: f"v{i}" for i, n in enumerate(names)}
    return f"{_p9_term(law.lhs, vmap)} = {_p9_term(law.rhs, vmap)}."


def _ladr(assumptions: list[str], goal: str) -> str:
    lines = ["formulas(assumptions).", *assumptions, "end_of_list."]
    return "\n".join([*lines, "formulas(goals).", goal, "end_of_list."])
