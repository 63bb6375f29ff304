"""Trigonometric equations through their general solution, and literal equations (change of
subject) with a bracketed unknown or cleared denominators: real derivations, real grounding."""

from __future__ import annotations

from veristep.core.tiers import Tier
from veristep.propose import derive


def test_isolated_sine_on_an_interval_goes_through_the_general_solution():
    d = derive(r"\sin x = 0 \land 0 \le x \land x \le 2\pi", r"x = 0 \lor x = \pi \lor x = 2\pi")
    ops = [s.operation for s in d.steps]
    assert ops[0].startswith("write the general solution of")
    assert ops[1] == "keep the values of $k$ that satisfy the bounds"
    assert r"k \in \mathbb{Z}" in d.states[1].latex
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached


def test_general_solution_reads_the_angle_off_first_and_merges_the_families():
    d = derive(r"\cos x = 0", r"x = \frac{\pi}{2} + k\pi \land k \in \mathbb{Z}")
    angle = r"$\cos{\left(\frac{\pi}{2} \right)}$"
    assert [s.operation for s in d.steps] == [
        f"write $0$ as {angle}",
        r"write the general solution of $\cos{\left(x \right)} = " + angle[1:],
    ]  # SymPy's two families of period 2π are written as one of period π
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached
    d = derive(
        r"\sin x = \frac{1}{2}",
        r"(x = \frac{\pi}{6} + 2k\pi \lor x = \frac{5\pi}{6} + 2k\pi) \land k \in \mathbb{Z}",
    )
    assert r"\sin{\left(\frac{\pi}{6} \right)}" in d.states[1].latex
    assert len(d.steps) == 2 and all(s.tier is Tier.GROUNDED for s in d.steps)


def test_unknown_in_two_terms_is_factored_out_before_the_division():
    d = derive(r"ax + b = cx + d", r"x = \frac{d - b}{a - c}")
    ops = [s.operation for s in d.steps]
    assert ops[-2:] == ["factor $x$ out", "divide both sides by $a - c$"]
    assert d.steps[-1].tier is Tier.VERIFIED and "assumes a - c ≠ 0" in d.steps[-1].reason
    assert all(s.tier is Tier.GROUNDED for s in d.steps[:-1]) and d.endpoint.reached


def test_clearing_denominators_is_judged_and_f_times_a_bracket_stays_a_product():
    d = derive(r"\frac{1}{f} = \frac{1}{u} + \frac{1}{v}", r"f = \frac{uv}{u + v}")
    assert d.steps[0].operation == "multiply both sides by $f u v$"
    assert d.steps[0].relation.value == "widens" and d.steps[0].tier is Tier.VERIFIED
    assert any(r"f \cdot \left(u + v\right)" in s.latex for s in d.states)
    assert all(s.tier >= Tier.VERIFIED for s in d.steps) and d.endpoint.reached


def test_clearing_a_denominator_whose_zero_fails_the_next_step_is_grounded():
    d = derive(r"y = \frac{x + 1}{x - 1}", r"x = \frac{y + 1}{y - 1}")
    assert d.steps[0].operation == "multiply both sides by $x - 1$"
    assert d.steps[0].tier is Tier.GROUNDED and d.steps[0].relation.value == "equivalent"
    assert d.endpoint.reached


def test_substitution_with_the_inner_derivative_is_planned_and_ln_abs_is_grounded():
    # 2x is the derivative of x^2 + 1: it stays in the integrand, written as that derivative
    d = derive(r"\int \frac{2x}{x^2 + 1} \, dx", r"\ln(x^2 + 1) + C")
    ops = [s.operation for s in d.steps]
    assert ops[0] == "write the integrand with the derivative of $x^{2} + 1$ beside it"
    assert ops[1].startswith("integrate by the substitution $u = x^{2} + 1$")
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached
    d = derive(r"\int \left(\frac{1}{x} + e^{x}\right) dx", r"\ln|x| + e^{x} + C")
    assert [s.tier for s in d.steps] == [Tier.GROUNDED, Tier.GROUNDED] and d.endpoint.reached


def test_a_sign_condition_picks_the_positive_root_of_a_formula():
    d = derive(r"E = \frac{1}{2}mv^2 \land v > 0", r"v = \sqrt{\frac{2E}{m}}")
    ops = [s.operation for s in d.steps]
    assert ops == ["swap the two sides", r"divide both sides by $\frac{m}{2}$",
                   "take the positive square root"]  # fmt: skip
    assert "assumes m ≠ 0" in d.steps[1].reason  # dividing by the parameter, said
    assert d.steps[2].relation.value == "widens" and "v = 0" in d.steps[2].reason
    assert all(s.tier >= Tier.VERIFIED for s in d.steps) and d.endpoint.reached
