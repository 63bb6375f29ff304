"""Segmentation with locations, relation links, and the machine-first policy (fixture-driven)."""

from __future__ import annotations

from pathlib import Path

import pytest

from veristep.core.errors import InputError
from veristep.core.tiers import Tier
from veristep.review.arithmetic import evaluate
from veristep.review.claims import find_links
from veristep.review.machine import machine_check
from veristep.review.segment import segment_proof

FIXTURES = Path(__file__).parent / "fixtures"


def _machine_cases() -> list[tuple[str, str]]:
    cases = []
    for line in (FIXTURES / "machine_steps.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            expected, text = (part.strip() for part in line.split("|", 1))
            cases.append((expected, text))
    return cases


@pytest.mark.parametrize(("expected", "text"), _machine_cases())
def test_machine_outcome_fixture(expected: str, text: str) -> None:
    result = machine_check(text)
    assert result.outcome == expected, [(c.latex, c.tier, c.reason) for c in result.checks]
    if expected == "refuted":
        # Every witness names the values that make the claim false, for a person to re-check.
        assert result.witness and ("is false" in result.witness or " fails, " in result.witness)


def test_segments_keep_math_whole_and_know_their_lines() -> None:
    proof = (
        "## Proof\n\nSuppose $a.b = 1$. By Thm. 2 we get\n\n$$x = 1. y = 2$$\n\nhence $x<y$.\n"
        "- First item without a full stop\n- Second item.\n"
    )
    steps = segment_proof(proof)
    assert [s.text for s in steps] == [
        "Suppose $a.b = 1$.",
        "By Thm. 2 we get\n\n$$x = 1. y = 2$$\n\nhence $x<y$.",
        "First item without a full stop",
        "Second item.",
    ]
    assert [s.location for s in steps] == ["3:1", "3:20", "8:3", "9:3"]
    assert all(proof[s.start : s.end] == s.text for s in steps)


def test_unclosed_math_is_a_located_error_unless_lenient() -> None:
    with pytest.raises(InputError) as info:
        segment_proof("Fine.\nNow $x = 1 and more.")
    assert info.value.position == 10 and "line 2" in info.value.message
    assert len(segment_proof("Fine.\nNow $x = 1 and more.", strict=False)) == 2


def test_chains_split_into_links_and_letters_are_not_closed() -> None:
    links = find_links("Then $b^2 = 13^2 - 12^2 = 25$ and $1,000 + 1 = 1,001$, so $x \\le 3$.")
    assert [(link.lhs, link.rel, link.rhs, link.closed) for link in links] == [
        ("b^2", "=", "13^2 - 12^2", False),
        ("13^2 - 12^2", "=", "25", True),
        ("1,000 + 1", "=", "1,001", True),
        ("x", "<=", "3", False),
    ]


@pytest.mark.parametrize("text", ["2^{100000}", "\\sqrt{2}", "1/0", "3x", "\\pi", "(1 + 2", "200!"])
def test_arithmetic_declines_what_it_cannot_decide_exactly(text: str) -> None:
    assert evaluate(text) is None


def test_rounded_decimals_are_never_refuted_but_not_grounded_either() -> None:
    check = machine_check("So $\\frac{2}{3} = 0.667$.").checks[0]
    assert check.tier is Tier.PLAUSIBLE and "3 decimal" in check.reason
    assert machine_check("So $\\frac{2}{3} = 0.67$.").outcome == "undecided"
    assert machine_check("So $\\frac{2}{3} = 0.7$.").outcome == "undecided"
    assert machine_check("So $\\frac{2}{3} = 0.76$.").outcome == "refuted"


def test_identities_with_letters_go_to_the_grounding_cascade() -> None:
    from veristep.review.grounding_link import default_grounder

    grounder = default_grounder()
    assert grounder is not None
    result = machine_check("Hence $a^2 - b^2 = (a - b)(a + b)$.", grounder=grounder)
    assert result.outcome == "grounded"
    assert result.checks[0].check == "grounding:symbolic_equivalence"
    # An equation being solved is not an identity: grounding disagrees, but that is no flaw.
    condition = machine_check("We get $x^2 - 8x + 16 = 11 - 2x$.", grounder=grounder)
    assert condition.outcome == "undecided"
    assert condition.checks[0].tier is Tier.PLAUSIBLE


def test_latex_proof_environment_items_and_aligned_chains() -> None:
    proof = (
        "\\begin{proof}\nLet $n = 2^{10}$. Then\n\\begin{align*}\n"
        "n &= 1024 \\\\\n  &= 1000 + 25.\n\\end{align*}\n"
        "\\begin{itemize}\n\\item First, $a = 1$.\n\\item Second.\n\\end{itemize}\n\\end{proof}\n"
    )
    steps = segment_proof(proof)
    assert [s.text.split("\n")[0] for s in steps] == [
        "Let $n = 2^{10}$.",
        "Then",
        "First, $a = 1$.",
        "Second.",
    ]
    assert steps[1].text.endswith("\\end{align*}") and steps[2].location == "8:7"
    result = machine_check(steps[1].text)
    assert result.outcome == "refuted" and "1024 = 1000 + 25" in result.witness
    with pytest.raises(InputError, match="unclosed math delimiter"):
        segment_proof("Fine. \\begin{align} x = 1")


def test_a_claim_at_a_value_the_sentence_fixes_is_refuted_with_the_value_and_both_sides() -> None:
    import sympy

    from veristep.mathgraph import parse_latex, to_sympy

    result = machine_check(r"• $a = 1 - \sqrt2$: $a - \frac1a = 0$, so $x + y = 6$.")
    assert result.outcome == "refuted"
    assert result.witness == (
        r"at a = 1 - \sqrt2 (fixed earlier in the sentence), a - \frac1a = 0 is false: "
        "the left side is -sqrt(2) + 1 - 1/(1 - sqrt(2)) ≈ 2, the right side is 0"
    )
    # Re-checked by a path that shares no code with the check: SymPy through the semantic graph.
    value = to_sympy(parse_latex(r"1 - \sqrt2"))
    claim = to_sympy(parse_latex(r"a - \frac1a"))
    (a,) = claim.free_symbols
    assert sympy.simplify(claim.subs(a, value)) == 2


def test_a_value_concluded_from_an_equation_that_does_not_solve_it_is_refuted() -> None:
    import sympy

    from veristep.mathgraph import parse_latex, to_sympy

    result = machine_check("This simplifies to $2p=0.58$. So $p=0.58$.")
    assert result.outcome == "refuted"
    assert result.witness == (
        "2p = 0.58 fails, at p = 0.58: its real solutions are p ∈ {29/100}, "
        "so p = 0.58 does not follow"
    )
    # Re-checked without the solver: the concluded value leaves the two sides apart.
    left = to_sympy(parse_latex("2p"))
    (p,) = left.free_symbols
    assert left.subs(p, sympy.Rational(58, 100)) != sympy.Rational(58, 100)
    assert left.subs(p, sympy.Rational(29, 100)) == sympy.Rational(58, 100)
