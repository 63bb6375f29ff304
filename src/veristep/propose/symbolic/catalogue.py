"""The closed catalogue of the planner's named moves: every name a planned step can carry, the
change type the move declares, and one problem on which the planner offers it.

A move's name is its identity: the proposer bans a (state, name) pair whose step failed
grounding, and a derivation's metadata and the tests name moves by it. SymPy's ``fu.py`` and
mathsteps' ``ChangeTypes`` keep such a list, with an example each; this is the planner's. The
names are the planner's own strings (the derivation output is unchanged); what the catalogue adds
is one place that lists them and a test that holds both ways
(``tests/propose/test_move_catalogue.py``): every name the planner's modules write is here, and
the planner offers each entry's move on its example.
"""

from __future__ import annotations

from dataclasses import dataclass

from veristep.core.tiers import ChangeType


@dataclass(frozen=True)
class NamedMove:
    """One named move and a problem that shows it: planning from ``start`` toward ``target``
    ("": the goal's finished form), the planner offers this move at some state."""

    name: str
    declares: str  # the change type(s) the move declares, space-separated: "rewrite", "solve"
    start: str
    target: str = ""
    # False: no written problem reaches the move (SymPy reads its start as false before any
    # move is tried); the example then only shows the shape the strategy looks for.
    offered: bool = True

    @property
    def change_types(self) -> frozenset[ChangeType]:
        return frozenset(ChangeType(word) for word in self.declares.split())


CATALOGUE: tuple[NamedMove, ...] = (
    NamedMove("abs-bound", "rewrite", "|x - 3| < 2", r"1 < x \land x < 5"),
    NamedMove("abs-negative", "rewrite", "|x - 3| = -2", "x = 1"),
    NamedMove("abs-cases", "rewrite", "|x| = |x - 4|", "x = 2"),
    NamedMove("abs-intervals", "rewrite solve", "|x| + |x - 2| = 4", r"x = -1 \lor x = 3"),
    NamedMove("add-fractions", "rewrite", r"\frac{3}{x} + \frac{x}{2}", r"\frac{x^2 + 6}{2x}"),
    NamedMove("add-numerators", "rewrite", r"2 - \frac{3}{5}", r"\frac{7}{5}"),
    NamedMove("add-square", "rewrite", "x^2-x=30", r"x=6 \lor x=-5"),
    NamedMove("antiderivative", "rewrite", r"\int_0^{\pi} \sin x \, dx", "2"),
    NamedMove("apply-condition", "rewrite", r"x - \sqrt{x} = 6", "x = 9"),
    NamedMove("arithmetic", "rewrite", r"\ln 2 + \ln 3", r"\ln 6"),
    NamedMove(
        "basic-angles",
        "rewrite",
        r"\tan x = 1 \land 0 \le x \land x < 2\pi",
        r"x = \frac{\pi}{4} \lor x = \frac{5\pi}{4}",
    ),
    NamedMove("cancel", "rewrite", r"\frac{x^2 - 1}{x - 1}", "x + 1"),
    NamedMove("cancel-limit", "rewrite", r"\lim_{x \to 2} \frac{x^2 - 4}{x - 2}", "4"),
    NamedMove("cas-solve", "solve", "x^3 - 2x + 7 = 0", "x = -2.258"),
    NamedMove("cases", "rewrite", "a^2=b^2", r"a=b \lor a=-b"),
    NamedMove("chain", "rewrite", r"\frac{d}{dx}\left(\sin(x^2)\right)", r"2x \cos(x^2)"),
    NamedMove("clear-denominator", "rewrite", r"\frac{x - 1}{x + 2} > 0", r"x < -2 \lor x > 1"),
    NamedMove("clear-denominators", "rewrite solve", r"\frac{x^2-4}{x-2}=0", "x=-2"),
    NamedMove("clear-fractions", "rewrite solve", "0.5 x + 2 = 3", "x = 2"),
    NamedMove("collect", "rewrite", "ax + ay + bx + by", "(a + b)(x + y)"),
    NamedMove(
        "collect-logs",
        "rewrite",
        r"\log_{3}\left(x+17\right)-2=\log_{3}\left(2\cdot x\right)",
        "x=1",
    ),
    NamedMove("collect-unknown", "rewrite", "2(x+3) = 5x - 9", "x = 5"),
    NamedMove("combine", "rewrite", "2x + 3x", "5x"),
    NamedMove("combine-log", "rewrite", r"\ln 2 + \ln 3", r"\ln 6"),
    NamedMove("combine-logs", "rewrite", r"\ln x + \ln(x - 1) = \ln 6", "x = 3"),
    NamedMove(
        "combine-rhs", "rewrite", "a x^2 + b x + c = 0", r"x = \frac{-b \pm \sqrt{b^2 - 4ac}}{2a}"
    ),
    NamedMove("common-base", "rewrite", "4^{x} = 8^{x - 1}", "x = 3"),
    NamedMove("common-denominator", "rewrite", r"2 - \frac{3}{5}", r"\frac{7}{5}"),
    NamedMove("common-factor", "rewrite", "6x^2 + 9x", "3x(2x + 3)"),
    NamedMove("complete-square", "rewrite", "x^2 + 6x + 5", "(x + 3)^2 - 4"),
    NamedMove(
        "complete-squares", "rewrite", "x^2 + y^2 + 2x - 8y + 8 = 0", "(x + 1)^2 + (y - 4)^2 = 9"
    ),
    NamedMove("compute", "rewrite", "|3 - 7| + |-2|", "6"),
    NamedMove("confirm-candidates", "rewrite", r"\ln(x) = 2", "x = e^{2}"),
    NamedMove("conjugate", "rewrite", r"\lim_{x \to \infty} \left(\sqrt{x^2 + 4x} - x\right)", "2"),
    NamedMove("constant", "rewrite", r"\frac{d}{dx}\left(3x^2 + 2x + 1\right)", "6x + 2"),
    NamedMove("constant-multiple", "rewrite", r"\frac{d}{dx}\left(3x^2 + 2x + 1\right)", "6x + 2"),
    NamedMove("cos-double", "rewrite", r"\frac{\sin(2x)}{1 + \cos(2x)}", r"\tan x"),
    NamedMove("decimal-compute", "rewrite", r"(1.2 + 0.8) \cdot 1.5", "3"),
    NamedMove("difference-of-cubes", "rewrite", "x^3 - 8", "(x - 2)(x^2 + 2x + 4)"),
    NamedMove("difference-of-squares", "rewrite", "x^2 - 9", "(x - 3)(x + 3)"),
    NamedMove(
        "divide",
        "rewrite solve",
        r"2\cos x = \sqrt{3} \land 0 \le x \land x < 2\pi",
        r"x = \frac{\pi}{6} \lor x = \frac{11\pi}{6}",
    ),
    NamedMove("divide-power", "rewrite", r"\lim_{x \to \infty} \frac{3x^2 + 1}{x^2 - 5}", "3"),
    NamedMove("double-angle", "rewrite", r"\sin(2x)", r"2 \sin x \cos x"),
    NamedMove("elementary", "rewrite", r"\frac{d}{dx}\left(x \ln x\right)", r"\ln x + 1"),
    NamedMove(
        "eliminate",
        "rewrite",
        r"\begin{cases} x + y = 10 \\ x - y = 4 \end{cases}",
        r"x = 7 \land y = 3",
    ),
    NamedMove("equate-arguments", "rewrite", r"2\ln x = \ln(x + 6)", "x = 3"),
    NamedMove("equate-exponents", "rewrite", "3^{2x} = 3^{x + 4}", "x = 4"),
    NamedMove("evaluate", "rewrite", r"\log_2(x) = 5", "x = 32"),
    NamedMove("evaluate-limit", "rewrite", r"\lim_{x \to \infty} \frac{\ln x}{x}", "0"),
    NamedMove("exp-form", "rewrite", r"\ln(x) = 2", "x = e^{2}"),
    NamedMove("expand", "rewrite", "(x + 1)^2", "x^2 + 2x + 1"),
    NamedMove("expand-product", "rewrite", "(x - 3)(x^2 + 3x + 9)", "x^3 - 27"),
    NamedMove("expand-shown", "rewrite", "(2x - 3)^2 - (x + 1)^2", "3x^2 - 14x + 8"),
    NamedMove("expand-trig", "rewrite", r"\int_0^{\pi} \sin x \, dx", "2"),
    NamedMove("factor", "rewrite", "x^2 - 3x = 0", r"x = 0 \lor x = 3"),
    NamedMove("factor-limit", "rewrite", r"\lim_{x \to 2} \frac{x^2 - 4}{x - 2}", "4"),
    NamedMove(
        "factor-theorem",
        "rewrite",
        "x^4 - 5x^2 + 4 = 0",
        r"x = -2 \lor x = -1 \lor x = 1 \lor x = 2",
    ),
    NamedMove("factor-unknown", "rewrite", "ax + b = cx + d", r"x = \frac{d - b}{a - c}"),
    NamedMove(
        "general-solution", "rewrite", r"\cos x = -1 \land 0 \le x \land x < 2\pi", r"x = \pi"
    ),
    NamedMove("grouping", "rewrite", "ax + ay + bx + by", "(a + b)(x + y)"),
    NamedMove("identity", "rewrite", r"\frac{d}{dx}\left(x \ln x\right)", r"\ln x + 1"),
    NamedMove("implicit-differentiate", "solve", "xy = 4", r"\frac{dy}{dx} = -\frac{y}{x}"),
    NamedMove("index-laws", "rewrite", r"\frac{2^5 \cdot 2^3}{2^6}", "4"),
    NamedMove("integral-constant", "rewrite", r"\int 5 \cos x \, dx", r"5 \sin x + C"),
    NamedMove("integral-sum", "rewrite", r"\int_{0}^{2} (x^3 - x) \, dx", "2"),
    NamedMove("interval", "rewrite", "3x + 2 > 11", r"x \in (3, \infty)"),
    NamedMove("invert", "rewrite", r"\left(\frac{2}{3}\right)^{-2}", r"\frac{9}{4}"),
    NamedMove(
        "isolate",
        "rewrite",
        r"\begin{cases} xy = 6 \\ x + y = 5 \end{cases}",
        r"(x = 2 \land y = 3) \lor (x = 3 \land y = 2)",
    ),
    NamedMove("isolate-abs", "rewrite", "|3x| + 1 = 10", r"x = 3 \lor x = -3"),
    NamedMove("isolate-nonnegative", "rewrite", "x^2 + 1 = 0", ""),
    NamedMove("isolate-root", "rewrite", r"\sqrt{x} + 2 = 5", "x = 9"),
    NamedMove("known-limit", "rewrite", r"\lim_{x \to 0} \frac{\sin x}{x}", "1"),
    NamedMove("lhopital", "rewrite", r"\lim_{x \to 0} \frac{\tan x}{x}", "1"),
    NamedMove("like-roots", "rewrite", r"\sqrt{18} + \sqrt{8}", r"5\sqrt{2}"),
    NamedMove("log-as-power", "rewrite", r"\log_2 32", "5"),
    NamedMove("log-power", "rewrite", r"\ln 8 - \ln 2", r"2\ln 2"),
    NamedMove("log-product", "rewrite", r"\ln(x^2 y)", r"2 \ln x + \ln y"),
    NamedMove("log-quotient", "rewrite", r"\ln 8 - \ln 2", r"2\ln 2"),
    NamedMove("move-constant", "rewrite", "3x + 5 = 11", "x = 2"),
    NamedMove("move-term", "rewrite", "3x - 7 < 8", "x < 5"),
    NamedMove("multiply", "solve", r"a = \frac{b + c}{d}", "c = ad - b"),
    NamedMove("multiply-fractions", "rewrite", r"\frac{2}{3} \cdot \frac{9}{10}", r"\frac{3}{5}"),
    NamedMove("natural-logs", "rewrite", r"\log_3(x + 1) + \log_3(x - 1) = 1", "x = 2"),
    NamedMove("no-real-root", "rewrite", r"\sqrt{x} = -3", ""),
    NamedMove("no-real-solution", "solve", "x^2 + 1 = 0", ""),
    NamedMove("nth-root", "rewrite", "x^4=2", r"x= \pm 2^{\frac{1}{4}}"),
    NamedMove("odd-power", "rewrite", r"\sqrt[3]{2x - 1} = 3", "x = 14"),
    NamedMove("out-of-range", "solve", r"2\sin x - 10 = 0", ""),
    NamedMove(
        "partial-fractions", "rewrite", r"\frac{2x^2 - 3x - 1}{x - 2}", r"2x + 1 + \frac{1}{x - 2}"
    ),
    NamedMove("parts", "rewrite", r"\int_{0}^{1} x e^{x} \, dx", "1"),
    NamedMove("perfect-square", "rewrite", r"x^2-6\cdot x+9=0", "x=3"),
    NamedMove("pick-members", "rewrite", r"\cos x = -1 \land 0 \le x \land x < 2\pi", r"x = \pi"),
    NamedMove("positive-root", "solve", r"A = \pi r^2 \land r > 0", r"r = \sqrt{\frac{A}{\pi}}"),
    NamedMove("power", "rewrite", r"\frac{d}{dx}\left(\sqrt{x}\right)", r"\frac{1}{2\sqrt{x}}"),
    NamedMove("power-into-log", "rewrite", r"2\ln x = \ln(x + 6)", "x = 3"),
    NamedMove("power-of-fraction", "rewrite", r"\left(\frac{2}{3}\right)^{-2}", r"\frac{9}{4}"),
    NamedMove("powsimp", "rewrite", r"\sum_{k=1}^{n} k", r"\frac{n(n + 1)}{2}"),
    NamedMove(
        "principal-value",
        "rewrite",
        r"\cos x = 0",
        r"x = \frac{\pi}{2} + k\pi \land k \in \mathbb{Z}",
    ),
    NamedMove("product", "rewrite", r"\frac{d}{dx}\left(x \ln x\right)", r"\ln x + 1"),
    NamedMove("pythagorean", "rewrite", r"\sin^2 x + \cos^2 x", "1"),
    NamedMove("quotient", "rewrite", r"\tan x \cos x", r"\sin x"),
    NamedMove("radsimp", "rewrite", r"\frac{3}{x} + \frac{x}{2}", r"\frac{x^2 + 6}{2x}"),
    NamedMove("rationalize", "rewrite", r"\frac{6}{\sqrt{3}}", r"2\sqrt{3}"),
    NamedMove("reciprocal", "rewrite", r"\sec x - \cos x", r"\sin x \tan x"),
    NamedMove("reject-extraneous", "solve", r"\frac{x^2-4}{x-2}=0", "x=-2"),
    NamedMove("root-first", "rewrite", "27^{2/3}", "9"),
    NamedMove("root-out", "rewrite", r"\sqrt{72}", r"6\sqrt{2}"),
    NamedMove("same-base", "rewrite", "2^{x}=4", "x=2"),
    NamedMove(
        "scale-equation",
        "rewrite",
        r"\begin{cases} 5x - 3y = 1 \\ 2x + 4y = 16 \end{cases}",
        r"x = 2 \land y = 3",
    ),
    NamedMove("sign-table", "rewrite", "x^2 < 9", r"-3 < x \land x < 3"),
    NamedMove("simplify", "rewrite", r"\frac{1}{\sqrt{3} - 1}", r"\frac{\sqrt{3} + 1}{2}"),
    NamedMove("special-value", "rewrite", "|3 - 7| + |-2|", "6"),
    NamedMove("split-root", "rewrite", r"\sqrt{72}", r"6\sqrt{2}"),
    NamedMove("square", "rewrite solve", r"\sqrt{2x + 1} = 3", "x = 4"),
    NamedMove("square-root", "rewrite", "x^2=4", r"x=2 \lor x=-2"),
    NamedMove("standard-form", "rewrite", r"x^2-6\cdot x=-9", "x=3"),
    NamedMove("substitute", "rewrite", r"\lim_{x \to 3} (x^2 + 1)", "10"),
    NamedMove(
        "substitute-value",
        "rewrite",
        r"\begin{cases} x + 2y + z = 8 \\ y + z = 5 \\ z = 3 \end{cases}",
        r"x = 1 \land y = 2 \land z = 3",
    ),
    NamedMove("substitution", "rewrite", r"\int \cos(3x) \, dx", r"\frac{\sin(3x)}{3} + C"),
    NamedMove("sum", "rewrite", r"\frac{d}{dx}\left(3x^2 + 2x + 1\right)", "6x + 2"),
    NamedMove("sum-constant", "rewrite", r"\sum_{k=1}^{n} (2k + 1)", "n^2 + 2n"),
    NamedMove("sum-evaluate", "rewrite", r"\sum_{k=1}^{5} \frac{1}{k}", r"\frac{137}{60}"),
    NamedMove("sum-expand", "rewrite", r"\sum_{k=1}^{n} k(k + 1)", r"\frac{n(n + 1)(n + 2)}{3}"),
    NamedMove("sum-formula", "rewrite", r"\sum_{k=1}^{10} k^2", "385"),
    NamedMove("sum-of-cubes", "rewrite", "x^3 + 27", "(x + 3)(x^2 - 3x + 9)"),
    NamedMove("sum-split", "rewrite", r"\sum_{k=1}^{n} (2k + 1)", "n^2 + 2n"),
    NamedMove("swap", "rewrite", "16=x^4", r"x= \pm 2"),
    NamedMove("take-ln", "rewrite solve", "e^{2x} = 5", r"x = \frac{\ln 5}{2}"),
    NamedMove("take-root", "rewrite", "27^{2/3}", "9"),
    NamedMove("tan-quotient", "rewrite", r"\frac{d}{dx}\left(\tan x\right)", r"\frac{1}{\cos^2 x}"),
    NamedMove("target-form", "rewrite", "16=x^4", r"x= \pm 2"),
    NamedMove("together", "rewrite", r"\int_{0}^{1} e^{2x} \, dx", r"\frac{e^{2} - 1}{2}"),
    NamedMove("trinomial", "rewrite", "x^2 + 7x + 12", "(x + 3)(x + 4)"),
    NamedMove(
        "zero-product", "rewrite", r"\left(x-p\right)\cdot \left(x-q\right)=0", r"x=p \lor x=q"
    ),
)

MOVES: dict[str, NamedMove] = {move.name: move for move in CATALOGUE}
