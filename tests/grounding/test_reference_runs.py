"""The three reference runs of the issue, through the real command line entry point."""

from __future__ import annotations

import pytest

from veristep.cli import main

WHY = "introduces value(s) that do not solve the previous step: 7"
LOST = (
    "narrows: keeps 2, loses -2 — a lost solution: valid only under an assumption that excludes"
    " it (or keep every case)"
)
X_SQUARED = f"""\
   start :   x^{{2}} = 4
   step 1:  🔹 x = 2
             ({LOST})
   step 2:  ✗ x = 7
             (refuted: {WHY} — but the step was declared 'rewrite')
result:
  steps convertible : 2/2
  math correct      : ✓
  exact graph       : ✓
  step grounding    : 🔹✗
  confidence        : ✗ Refuted    (0/2 steps verified · 1 refuted · conclusion refuted: x = 7 \
does not solve the start · endpoint reached)
"""

PRODUCT_RULE = [
    r"\frac{d}{dx}\left(x^2 \sin x\right)",
    r"x^{2} \cdot \frac{d}{d x} \sin{\left(x \right)}"
    r" + \sin{\left(x \right)} \cdot \frac{d}{d x} x^{2}",
    r"x^{2} \cdot \frac{d}{d x} \sin{\left(x \right)} + 2 \cdot x \cdot \sin{\left(x \right)}",
    r"x^{2} \cdot \cos{\left(x \right)} + 2 \cdot x \cdot \sin{\left(x \right)}",
    r"x^{2} \cdot \cos{\left(x \right)} + 2 \cdot x \cdot \sin{\left(x \right)}",
]

SQRT = r"\sqrt{- 4 \cdot a \cdot c + b^{2}}"
QUADRATIC = [
    r"a \cdot x^{2} + b \cdot x + c = 0",
    r"a \cdot x^{2} + b \cdot x = - c",
    r"x^{2} + \frac{b \cdot x}{a} = - \frac{c}{a}",
    r"x^{2} + \frac{b \cdot x}{a} + \frac{b^{2}}{4 \cdot a^{2}} = - \frac{c}{a}"
    r" + \frac{b^{2}}{4 \cdot a^{2}}",
    r"\left(x + \frac{b}{2 \cdot a}\right)^{2} = - \frac{c}{a} + \frac{b^{2}}{4 \cdot a^{2}}",
    r"\left(x + \frac{b}{2 \cdot a}\right)^{2} = \frac{- 4 \cdot a \cdot c + b^{2}}{4 \cdot a^{2}}",
    rf"x + \frac{{b}}{{2 \cdot a}} = - \frac{{{SQRT}}}{{2 \cdot a}} \vee "
    rf"x + \frac{{b}}{{2 \cdot a}} = \frac{{{SQRT}}}{{2 \cdot a}}",
    rf"x = - \frac{{b}}{{2 \cdot a}} - \frac{{{SQRT}}}{{2 \cdot a}} \vee "
    rf"x = - \frac{{b}}{{2 \cdot a}} + \frac{{{SQRT}}}{{2 \cdot a}}",
    rf"x = \frac{{- b - {SQRT}}}{{2 \cdot a}} \vee x = \frac{{- b + {SQRT}}}{{2 \cdot a}}",
]
QUADRATIC_TARGET = r"x = \frac{-b \pm \sqrt{b^2 - 4ac}}{2a}"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["check", *argv]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_x_squared_is_refuted_with_witness_7(capsys: pytest.CaptureFixture[str]) -> None:
    # The lost root −2 makes step 1 plausible (docs/design.md, "Lossy steps"), never grounded.
    out = _run(capsys, "x^2 = 4", "x = 2", "x = 7", "--types", "solve,rewrite")
    assert out == X_SQUARED


def test_lost_root_is_named_and_caps_the_chain(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "--json", "x^2=4", "x=2")
    import json

    doc = json.loads(out)
    step = doc["steps"][0]
    assert (step["relation"], step["tier"]) == ("narrows", "plausible")
    assert "loses -2" in step["reason"]
    assert doc["endpoint"]["conclusion"]["verdict"] == "incomplete"
    assert doc["endpoint"]["conclusion"]["witness"] == {"x": "-2"}
    assert doc["confidence"]["tier"] == "plausible"


def test_product_rule_all_grounded(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, *PRODUCT_RULE, "--target", r"2 x \sin x + x^2 \cos x")
    assert "  step grounding    : 🥇🥇🥇🥇\n" in out
    assert "  math correct      : ✓\n" in out
    assert "  exact graph       : ✗\n" in out  # a·b vs b·a: equal mathematics, other structure
    assert "confidence        : 🥇 Grounded    (4/4 steps verified · endpoint reached)" in out


def test_quadratic_formula_reaches_the_pm_target(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, *QUADRATIC, "--target", QUADRATIC_TARGET)
    icons = out.split("step grounding    : ")[1].split("\n")[0]
    assert len(icons) == 8 and set(icons) <= {"🥇", "🥈"}, icons
    assert "  math correct      : ✓\n" in out
    assert "(8/8 steps verified · endpoint reached)" in out
    # Dividing by a loses only the degenerate case a = 0: verified, with the assumption named.
    assert icons[1] == "🥈"
    assert "Plausible" not in out and "Refuted" not in out
