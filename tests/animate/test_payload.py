"""The animation payload and the self-contained export, on real mathgraph parses."""

from __future__ import annotations

import re

from veristep.animate import build_payload, export_html
from veristep.animate.assets import KATEX_VERSION, static_dir
from veristep.animate.payload import ids_in
from veristep.animate.plots import function_tree, number_line, system_curves
from veristep.mathgraph import parse_latex


def test_payload_threads_stable_ids_through_the_quadratic_formula(make_derivation, qf_states):
    payload = build_payload(make_derivation())
    frames = payload["frames"]
    assert len(frames) == len(qf_states)
    assert all(r"\htmlData{n=" in f["tex"] for f in frames)
    x_ids = [set(_ids_of_symbol(f["tex"], "x")) for f in frames]
    # The x that is solved for is the same glyph from the first state to the last.
    assert set.intersection(*x_ids)
    for step in payload["steps"]:
        k = step["index"]
        before, after = set(frames[k - 1]["ids"]), set(frames[k]["ids"])
        assert set(step["moves"]) == before & after
        assert set(step["deletes"]) == before - after
        assert set(step["inserts"]) == after - before
        assert step["moves"], f"step {k} keeps no glyph"
    assert [s["tier"] for s in payload["steps"]] == [s["tier"] for s in make_derivation()["steps"]]
    assert payload["steps"][0]["icon"] == "🥇"


def _ids_of_symbol(tex: str, name: str) -> list[int]:
    return [int(m) for m in re.findall(r"\\htmlData\{n=(\d+)\}\{" + name + r"\}", tex)]


def test_unparsable_state_becomes_a_cross_fading_frame(make_derivation):
    states = ["2x = 6", r"x = \fracc{6}{2}", "x = 3"]
    d = make_derivation(states, ["unchecked", "unchecked"])
    payload = build_payload(d)
    bad = payload["frames"][1]
    assert "error" in bad and "fracc" in bad["error"]
    assert len(bad["ids"]) == 1 and not set(bad["ids"]) & set(payload["frames"][0]["ids"])
    # Rebasing resumes from the last parsed state: x keeps its id across the bad frame.
    x0 = _ids_of_symbol(payload["frames"][0]["tex"], "x")
    x2 = _ids_of_symbol(payload["frames"][2]["tex"], "x")
    assert x0 == x2


def test_an_unknown_tier_is_shown_as_unchecked_never_stronger(make_derivation, qf_states):
    d = make_derivation(qf_states[:2], ["grounded"])
    d["steps"][0]["tier"] = "proven-by-vibes"
    assert build_payload(d)["steps"][0]["tier"] == "unchecked"


def test_planner_mapping_is_used(make_derivation):
    # 3x = 3y → 3x = y; the planner says the 3 on the right (graph id of that num) moved left.
    from veristep.mathgraph import parse_latex

    g0, g1 = parse_latex("3 x = 3 y"), parse_latex("3 x = y")
    right3 = [n.id for n in g0.nodes() if n.label == "num:3"][-1]
    left3_new = next(n.id for n in g1.nodes() if n.label == "num:3")
    d = make_derivation(["3 x = 3 y", "3 x = y"], ["grounded"])
    plain = build_payload(d)
    d["steps"][0]["mapping"] = {str(right3): left3_new}
    hinted = build_payload(d)
    assert plain["steps"][0]["deletes"] != hinted["steps"][0]["deletes"]


def test_ids_in():
    assert ids_in(r"\htmlData{n=4,role=op}{+}\htmlData{n=2}{x}") == [2, 4]


def test_export_is_self_contained(make_derivation):
    doc = export_html(make_derivation())
    assert doc.startswith("<!doctype html>")
    assert "data:font/woff2;base64," in doc
    assert "katex" in doc and "VeristepPlayer" in doc
    # Nothing is fetched: no external script, stylesheet, font or image reference.
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", doc)
    assert "url(fonts/" not in doc and "url(http" not in doc
    assert doc.count("</script>") == doc.count("<script")
    assert len(doc) < 1_500_000


def test_vendored_katex_is_pinned_and_small():
    root = static_dir() / "katex"
    assert (root / "VERSION").read_text().strip() == KATEX_VERSION
    assert "MIT" in (root / "LICENSE").read_text()
    fonts = list((root / "fonts").iterdir())
    assert fonts and all(f.suffix == ".woff2" for f in fonts)
    total = sum(f.stat().st_size for f in root.rglob("*") if f.is_file())
    assert total < 800_000


def test_plots_for_a_one_unknown_start_and_a_witnessed_refuted_step(make_derivation):
    derivation = make_derivation(["2x + 3 = 9", "2x = 6", "x = 4"], ["grounded", "refuted"])
    derivation["steps"][1]["witness"] = [4]
    plots = build_payload(derivation)["plots"]
    assert [(p["kind"], p["frame"], p["var"]) for p in plots] == [
        ("states", 0, "x"),
        ("witness", 2, "x"),
    ]
    assert plots[1]["witness"] == 4.0
    # The plot that follows the animation: both sides while a state is an equation in x, its
    # solutions on a number line once it is solved.
    frames = plots[0]["frames"]
    assert [(k, spec["type"]) for k, spec in frames] == [
        (0, "equation"), (1, "equation"), (2, "numberline")]  # fmt: skip
    assert frames[2][1]["points"] == [[4.0, True]]
    line = number_line(parse_latex(r"x < -2 \lor x > 2"))
    assert line["intervals"] == [[None, -2.0, False, False], [2.0, None, False, False]]
    assert number_line(parse_latex(r"x \in [1, 5)"))["intervals"] == [[1.0, 5.0, True, False]]
    assert number_line(parse_latex("x^2 > 4")) is None  # not solved: no line to read it off
    # Parameters, or a witness that is not one number: no plot rather than a wrong one.
    derivation = make_derivation(["a x = 1", "x = 1"], ["refuted"])
    derivation["steps"][0]["witness"] = {"x": "1", "a": "2"}
    assert build_payload(derivation)["plots"] == []


def test_vendored_uplot_is_pinned_and_licensed():
    root = static_dir() / "uplot"
    assert (root / "VERSION").read_text().strip() == "1.6.32"
    assert "MIT" in (root / "LICENSE").read_text()
    assert (root / "uPlot.iife.min.js").stat().st_size < 100_000
    assert "uPlot" in export_html({"states": [], "steps": []})


def test_calculus_states_get_a_derivative_or_area_plot(make_derivation):
    derivation = make_derivation([r"\frac{d}{dx} x^2 = 2x", "2x = 2x"], ["grounded"])
    (plot,) = [p for p in build_payload(derivation)["plots"] if p["frame"] == 0]
    assert plot["kind"] == "derivative" and plot["var"] == "x"
    area = make_derivation([r"\int_0^1 x^2 \, dx = \frac{1}{3}", r"\frac{1}{3} = \frac{1}{3}"],
                           ["grounded"])  # fmt: skip
    (plot,) = build_payload(area)["plots"]
    assert plot["kind"] == "area" and (plot["lower"], plot["upper"]) == (0.0, 1.0)


def test_a_system_of_two_equations_follows_the_animation_as_two_curves(make_derivation):
    states = [r"\begin{cases} x + y = 3 \\ x - y = 1 \end{cases}", r"2 y = 2 \land x - y = 1",
              r"x = 2 \land y = 1"]  # fmt: skip
    (plot,) = build_payload(make_derivation(states, ["grounded", "grounded"]))["plots"]
    assert plot["kind"] == "states" and [k for k, _ in plot["frames"]] == [0, 1, 2]
    assert all(
        spec["type"] == "system" and spec["vars"] == ["x", "y"] for _, spec in plot["frames"]
    )
    # The trees name their unknowns, so the player knows which one runs up the page.
    assert plot["frames"][1][1]["equations"][0] == [
        ["mul", ["num", 2.0], ["var", "y"]], ["num", 2.0]]  # fmt: skip
    # Not a system of two curves: a choice, three unknowns, an inequality.
    for latex in (r"x = 2 \lor y = 1", r"x + y + z = 1 \land x = 2", r"x + y < 1 \land x = 2"):
        assert system_curves(parse_latex(latex)) is None, latex
    assert system_curves(parse_latex(r"y = 1 \land a = 2"))["vars"] == ["a", "y"]


def test_a_function_tree_is_only_a_function_of_its_variable():
    from veristep.mathgraph import parse_math

    assert function_tree(parse_math(r"\sin x + \frac{1}{x}"), "x") == [
        "add", ["fn", "sin", ["var"]], ["div", ["num", 1.0], ["var"]]]  # fmt: skip
    for text, var in (("x^2 = 4", "x"), ("t^2", "x"), (r"\arcsin x", "x"), ("x y", "x")):
        assert function_tree(parse_math(text), var) is None, text
