"""ALPS part 2: an independent checker of rewrite-system presentations of (infinite) models.

A presentation is a list of rules ``l → r`` over the one binary operation. It certifies that the
law L has a nontrivial model when the checker establishes, by its own code only:

1. **ordering** — every rule decreases in the Knuth–Bendix order (all weights 1; for one binary
   symbol this is: no variable occurs more often on the right, and the left is bigger, or as big
   and lexicographically greater). KBO is a reduction order, so the system terminates;
2. **confluence** — every critical pair (each rule's left side unified with a non-variable
   subterm of each rule's left side, renamed apart) has one normal form. Terminating + locally
   confluent is confluent (Newman), so normal forms are unique;
3. **the law holds** — both sides of L have the same normal form. In a convergent system that
   means L is an equational consequence of the rules, so it holds in every model of them;
4. **x ≠ y** — no left side is a variable (implied by 1), so distinct variables are distinct
   normal forms: x = y is not a consequence.

Then the term algebra over {a, b} modulo the rules is a model of L in which a ≠ b. Every rule
need not follow from L: the model is of the rules, and L holds in it. All work is bounded (rules,
term sizes, rewrite steps); running out of budget is "not shown", never a certificate.

Only *complete* (fully oriented) systems are checked here: presentations with unorientable
equations need ground joinability (ordered rewriting), which ``judge.ground_model`` checks.

>>> law = parse_law("x = y ◇ (x ◇ (x ◇ (y ◇ (z ◇ z))))")
>>> rules = [parse_law(r) for r in RULES_4916]
>>> check_presentation(law, rules).certified
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from veristep.alps.judge.limits import BudgetExhausted, Work
from veristep.alps.terms import Law, Op, Term, Var, show
from veristep.alps.terms import parse_law as parse_law  # for the doctest

MAX_RULES = 1_000
CHECK_WORK = 20_000_000  # term nodes visited over the whole check
RULES_4916 = (  # ALPS's Vampire saturation for law 4916, oriented (see tests for provenance)
    "y ◇ (x ◇ (x ◇ (y ◇ (z ◇ z)))) = x",
    "(x ◇ (y ◇ y)) ◇ (x ◇ (x ◇ (y ◇ y))) = x",
    "(x ◇ x) ◇ (x ◇ x) = x ◇ x",
    "(x ◇ x) ◇ (y ◇ (y ◇ (x ◇ x))) = y",
)


@dataclass(frozen=True)
class PresentationCheck:
    certified: bool
    reason: str  # why not, or what was shown
    rules: int
    critical_pairs: int = 0
    failures: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "certified": self.certified,
            "reason": self.reason,
            "rules": self.rules,
            "critical_pairs": self.critical_pairs,
            "failures": self.failures[:5],
        }


# ---------------------------------------------------------------- the order


def _size(t: Term) -> int:
    n, stack = 0, [t]
    while stack:
        node = stack.pop()
        n += 1
        if isinstance(node, Op):
            stack += [node.left, node.right]
    return n


def _var_counts(t: Term) -> dict[str, int]:
    counts: dict[str, int] = {}
    stack = [t]
    while stack:
        node = stack.pop()
        if isinstance(node, Var):
            counts[node.name] = counts.get(node.name, 0) + 1
        else:
            stack += [node.left, node.right]
    return counts


def kbo_greater(s: Term, t: Term) -> bool:
    """s > t in KBO with every weight 1 (one binary symbol, so no precedence is needed).

    >>> kbo_greater(parse_law("x ◇ x = x").lhs, parse_law("x ◇ x = x").rhs)
    True
    >>> kbo_greater(parse_law("x ◇ y = y ◇ x").lhs, parse_law("x ◇ y = y ◇ x").rhs)
    False
    """
    cs, ct = _var_counts(s), _var_counts(t)
    if any(cs.get(v, 0) < n for v, n in ct.items()):
        return False
    ws, wt = _size(s), _size(t)
    if ws != wt:
        return ws > wt
    if not (isinstance(s, Op) and isinstance(t, Op)):
        return False  # equal weight: a variable is never greater, and x > x does not hold
    if s.left != t.left:
        return kbo_greater(s.left, t.left)
    return kbo_greater(s.right, t.right)


# ---------------------------------------------------------------- terms


def _rename(t: Term, suffix: str) -> Term:
    if isinstance(t, Var):
        return Var(t.name + suffix)
    return Op(_rename(t.left, suffix), _rename(t.right, suffix))


def _walk(t: Term, sigma: dict[str, Term]) -> Term:
    while isinstance(t, Var) and t.name in sigma:
        t = sigma[t.name]
    return t


def _occurs(name: str, t: Term, sigma: dict[str, Term]) -> bool:
    stack = [t]
    while stack:
        node = _walk(stack.pop(), sigma)
        if isinstance(node, Var):
            if node.name == name:
                return True
        else:
            stack += [node.left, node.right]
    return False


def unify(s: Term, t: Term) -> dict[str, Term] | None:
    """A most general unifier (triangular form, with occurs check), or None."""
    sigma: dict[str, Term] = {}
    stack = [(s, t)]
    while stack:
        a, b = stack.pop()
        a, b = _walk(a, sigma), _walk(b, sigma)
        if a == b:
            continue
        if isinstance(a, Var):
            if _occurs(a.name, b, sigma):
                return None
            sigma[a.name] = b
        elif isinstance(b, Var):
            if _occurs(b.name, a, sigma):
                return None
            sigma[b.name] = a
        else:
            stack += [(a.left, b.left), (a.right, b.right)]
    return sigma


def apply(t: Term, sigma: dict[str, Term]) -> Term:
    t = _walk(t, sigma)
    if isinstance(t, Var):
        return t
    return Op(apply(t.left, sigma), apply(t.right, sigma))


def _match(pattern: Term, t: Term) -> dict[str, Term] | None:
    sigma: dict[str, Term] = {}
    stack = [(pattern, t)]
    while stack:
        p, s = stack.pop()
        if isinstance(p, Var):
            if sigma.setdefault(p.name, s) != s:
                return None
        elif isinstance(s, Op):
            stack += [(p.left, s.left), (p.right, s.right)]
        else:
            return None
    return sigma


def _subst(t: Term, sigma: dict[str, Term]) -> Term:
    if isinstance(t, Var):
        return sigma.get(t.name, t)
    return Op(_subst(t.left, sigma), _subst(t.right, sigma))


def normal_form(t: Term, rules: list[Law], work: Work) -> Term:
    """Innermost normal form; every step is paid for (rules are KBO-decreasing, so it ends)."""
    if isinstance(t, Op):
        left, right = normal_form(t.left, rules, work), normal_form(t.right, rules, work)
        t = t if (left is t.left and right is t.right) else Op(left, right)
        for rule in rules:
            work.spend(_size(rule.lhs))
            sigma = _match(rule.lhs, t)
            if sigma is not None:
                work.spend(_size(rule.rhs))
                return normal_form(_subst(rule.rhs, sigma), rules, work)
    return t


def _positions(t: Term, pos: tuple[int, ...] = ()):
    yield pos, t
    if isinstance(t, Op):
        yield from _positions(t.left, (*pos, 0))
        yield from _positions(t.right, (*pos, 1))


def _replace(t: Term, pos: tuple[int, ...], new: Term) -> Term:
    if not pos:
        return new
    assert isinstance(t, Op)
    if pos[0]:
        return Op(t.left, _replace(t.right, pos[1:], new))
    return Op(_replace(t.left, pos[1:], new), t.right)


def critical_pairs(r1: Law, r2: Law):
    """(s, t) for every overlap of ``r1``'s left side into a non-variable subterm of ``r2``'s."""
    a = Law(_rename(r1.lhs, "_1"), _rename(r1.rhs, "_1"))
    b = Law(_rename(r2.lhs, "_2"), _rename(r2.rhs, "_2"))
    for pos, sub in _positions(b.lhs):
        if isinstance(sub, Var):
            continue
        sigma = unify(a.lhs, sub)
        if sigma is None:
            continue
        if not pos and r1 == r2:
            continue  # a rule overlapping itself at the root gives a trivial pair
        yield apply(b.rhs, sigma), apply(_replace(b.lhs, pos, a.rhs), sigma)


# ---------------------------------------------------------------- the certificate


def check_convergent(rules: list[Law], work_limit: int = CHECK_WORK) -> PresentationCheck:
    """Conditions 1, 2 and 4: the rules are a convergent system with x ≠ y (a nontrivial model
    of the rules themselves); the first failing condition is the reason."""
    if not rules:
        return PresentationCheck(False, "no rules", 0)
    if len(rules) > MAX_RULES:
        return PresentationCheck(False, f"{len(rules)} rules (limit {MAX_RULES})", len(rules))
    unordered = [f"{show(r.lhs)} → {show(r.rhs)}" for r in rules if not kbo_greater(r.lhs, r.rhs)]
    if unordered:
        reason = f"{len(unordered)} rule(s) do not decrease in KBO"
        return PresentationCheck(False, reason, len(rules), failures=unordered)
    work = Work(work_limit)
    pairs = 0
    try:
        for r1 in rules:
            for r2 in rules:
                work.spend(_size(r1.lhs) * _size(r2.lhs))  # unifying r1 into every subterm of r2
                for s, t in critical_pairs(r1, r2):
                    pairs += 1
                    if normal_form(s, rules, work) != normal_form(t, rules, work):
                        bad = [f"{show(s)} = {show(t)}"]
                        reason = "a critical pair is not joinable"
                        return PresentationCheck(False, reason, len(rules), pairs, bad)
    except BudgetExhausted:
        reason = f"checking budget exhausted ({work_limit:,} units)"
        return PresentationCheck(False, reason, len(rules), pairs)
    except RecursionError:
        return PresentationCheck(False, "terms too deep to check", len(rules), pairs)
    shown = (
        f"convergent: {len(rules)} KBO-decreasing rules, {pairs} critical pairs joinable, "
        "x and y are distinct normal forms"
    )
    return PresentationCheck(True, shown, len(rules), pairs)


def check_presentation(
    law: Law, rules: list[Law], work_limit: int = CHECK_WORK
) -> PresentationCheck:
    """All four conditions: a convergent system in which ``law`` holds."""
    base = check_convergent(rules, work_limit)
    if not base.certified:
        return base
    try:
        work = Work(work_limit)
        same = normal_form(law.lhs, rules, work) == normal_form(law.rhs, rules, work)
    except (BudgetExhausted, RecursionError):
        return PresentationCheck(False, "budget exhausted normalising the law", base.rules)
    if not same:
        reason = "the law's two sides have different normal forms"
        return PresentationCheck(False, reason, base.rules, base.critical_pairs)
    reason = base.reason + "; the law's sides share a normal form"
    return PresentationCheck(True, reason, base.rules, base.critical_pairs)


def orient(equations: list[Law]) -> list[Law] | None:
    """Each equation as a KBO-decreasing rule, or None when one cannot be oriented."""
    out: list[Law] = []
    for eq in equations:
        if kbo_greater(eq.lhs, eq.rhs):
            out.append(eq)
        elif kbo_greater(eq.rhs, eq.lhs):
            out.append(Law(eq.rhs, eq.lhs))
        else:
            return None
    return out
