"""The research pages in headless Chromium, end to end with the real checkers.

Review: a false computation is FLAWED with its witness, a correct one is not flagged, and the
shared link shows the same report. Prove: a miniF2F-rocq theorem proved and accepted by the
strict path; a cheat file refused with its reason; Cancel and navigating away kill coqtop (no
process outlives the stream). Laws: a law's ETP number and screen status; a wrong chain
rejected at its first bad link; Cancel and navigating away kill E. Each page is photographed
at 1280 and 390 px.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

FALSE_AND_TRUE = "We have $17 \\cdot 3 = 52$. Also $2^{10} = 1024$. Hence the claim holds."
COQ_PROGRAMS = ("coqtop", "coqidetop", "coqc", "coqchk")
E_PROGRAMS = ("eprover", "eprover-ho")
# No finite model up to the SAT stage's size and none of E's modes decides it quickly: its
# screen keeps E busy for a minute or more (status OPEN in the ALPS corpus).
E_BUSY_LAW = "x = (((y ◇ x) ◇ y) ◇ y) ◇ (x ◇ z)"
AXIOM_CHEAT = (
    "Require Import Reals.\nOpen Scope R_scope.\n"
    "Axiom cheat : forall x y : R, x = y.\n"
    "Theorem mathd_algebra_412:\n  forall (x y : R),\n  (x + y = 25) ->\n  (x - y = 11) ->\n"
    "  x = 18.\nProof. intros. apply cheat. Qed.\n"
)


@pytest.fixture
def page(chromium, server):
    """A page that may reach only the app; console errors fail the test."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.route(
        "**/*", lambda r: r.continue_() if r.request.url.startswith(server) else r.abort()
    )
    pg = context.new_page()
    problems: list[str] = []
    pg.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: problems.append(str(e)))
    yield pg
    context.close()
    assert not problems, problems


def serious_violations(page) -> list[str]:
    """axe-core's serious and critical findings on the page as it stands (results shown)."""
    import axe_playwright_python

    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        script = Path(axe_playwright_python.__file__).with_name("axe.min.js")
        page.add_script_tag(content=script.read_text("utf-8"))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {node['target']}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
        for node in v["nodes"][:3]
    ]


def shoot(page, artifacts: Path, name: str) -> None:
    """Screenshots at desktop and phone width; the page must not scroll sideways on a phone,
    and axe-core must find nothing serious in it with its results on show."""
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(artifacts / f"{name}-{width}.png"), full_page=True)
        overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 1, f"{name} scrolls sideways by {overflow}px at {width}px"
    page.set_viewport_size({"width": 1280, "height": 900})
    assert not serious_violations(page), serious_violations(page)


def coq_processes() -> list[tuple[int, str]]:
    """Coq programs descended from this test process (the live server runs in it)."""
    return descendants(COQ_PROGRAMS)


def e_processes() -> list[tuple[int, str]]:
    return descendants(E_PROGRAMS)


def descendants(programs: tuple[str, ...]) -> list[tuple[int, str]]:
    """The live processes named in ``programs`` that descend from this test process."""
    parents: dict[int, int] = {}
    names: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name, rest = stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2 :]
        state, ppid = rest.split()[:2]
        if state != "Z":
            parents[int(entry.name)], names[int(entry.name)] = int(ppid), name
    me, found = os.getpid(), []
    for pid, name in names.items():
        if name not in programs:
            continue
        up = parents.get(pid)
        while up and up != me:
            up = parents.get(up)
        if up == me:
            found.append((pid, name))
    return found


def settle(predicate, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def stays(predicate, seconds: float) -> bool:
    """True throughout ``seconds`` (a search restarts coqtop between attempts: a moment
    without one proves nothing)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not predicate():
            return False
        time.sleep(0.05)
    return True


def test_review_flags_the_false_computation_with_its_witness(page, server, artifacts) -> None:
    page.goto(server + "/review")
    assert "No language model is configured" in page.inner_text("#model-status")
    # By keyboard and by label, as a screen-reader user would: the findings land in live regions.
    page.get_by_label("Proof").fill(FALSE_AND_TRUE)
    page.get_by_role("button", name="Review", exact=True).focus()
    page.keyboard.press("Enter")
    assert page.get_attribute("#review-steps", "aria-live") == "polite"
    assert page.get_attribute("#review-status", "role") == "status"
    page.wait_for_selector("body[data-review=done]", timeout=60_000)
    flawed = page.locator("li[data-step=s1]")
    assert flawed.get_attribute("data-state") == "flawed"
    assert "FLAWED" in flawed.inner_text() and "the left side is 51" in flawed.inner_text()
    right = page.locator("li[data-step=s2]")
    assert right.get_attribute("data-state") == "verified"
    assert right.locator(".rs-witness").count() == 0 and "flaw" not in right.inner_text()
    assert page.locator("li[data-step=s3]").get_attribute("data-state") == "open"
    assert "rejected" in page.inner_text("#review-verdict")
    shoot(page, artifacts, "review")
    # The shared link shows the same report, saved by the server.
    page.click("#review-share")
    page.wait_for_selector("body[data-review=done]")
    assert "/review/" in page.url
    states = page.eval_on_selector_all(
        "#review-steps > li", "ls => ls.map(l => [l.dataset.step, l.dataset.state])"
    )
    assert states == [["s1", "flawed"], ["s2", "verified"], ["s3", "open"]]
    assert page.get_attribute("#review-export", "href").endswith("/export")


def test_a_proof_file_opened_on_the_review_page_is_reviewed(page, server) -> None:
    page.goto(server + "/review")
    proof = "\\begin{proof}\nWe compute \\(7 \\cdot 8 = 54\\).\n\\end{proof}\n"
    upload = {"name": "proof.tex", "mimeType": "text/plain", "buffer": proof.encode()}
    page.get_by_label("or open a file").set_input_files(upload)
    page.wait_for_function("() => document.querySelector('#review-proof').value.length > 0")
    assert page.input_value("#review-proof") == proof
    page.get_by_role("button", name="Review", exact=True).click()
    page.wait_for_selector("body[data-review=done]", timeout=60_000)
    flawed = page.locator("li[data-step=s1]")
    assert flawed.get_attribute("data-state") == "flawed" and "56" in flawed.inner_text()


@pytest.mark.coq
@pytest.mark.timeout(600)
def test_a_minif2f_theorem_is_proved_and_a_cheat_refused(page, server, artifacts) -> None:
    page.goto(server + "/prove")
    page.fill("#prove-name", "mathd_algebra_176")
    page.get_by_role("button", name="Prove", exact=True).click()
    page.wait_for_selector("body[data-prove=done]", timeout=180_000)
    assert page.locator("#prove-attempts li.rs-phase").first.inner_text().startswith("Portfolio")
    verdict = page.locator("#prove-result [data-accepted]")
    assert verdict.get_attribute("data-accepted") == "1", verdict.inner_text()
    assert "accepted by the strict path" in verdict.inner_text()
    assert "coqchk" in page.inner_text("#prove-result")
    assert "Theorem mathd_algebra_176" in page.inner_text("#prove-result pre")
    # Check my proof: a file that proves the theorem from an axiom of its own.
    page.fill("#coqcheck-proof", AXIOM_CHEAT)
    page.get_by_role("button", name="Check", exact=True).click()
    page.wait_for_selector("body[data-coqcheck=done]", timeout=120_000)
    refused = page.locator("#coqcheck-result [data-accepted]")
    assert refused.get_attribute("data-accepted") == "0"
    assert "Refused" in refused.inner_text() and "axiom" in refused.inner_text().lower()
    shoot(page, artifacts, "prove")
    assert settle(lambda: not coq_processes(), 10), coq_processes()


@pytest.mark.coq
@pytest.mark.timeout(600)
def test_cancel_and_navigating_away_stop_coq_at_once(page, server) -> None:
    def start_a_long_search() -> None:
        page.goto(server + "/prove")
        page.fill("#prove-name", "imo_1959_p1")
        page.check("#prove-mcts")
        page.fill("#prove-budget", "300")
        page.get_by_role("button", name="Prove", exact=True).click()
        page.wait_for_selector("#prove-attempts li[data-failure]", timeout=120_000)  # in Coq
        assert any(n == "coqtop" for _, n in coq_processes())

    start_a_long_search()
    page.click("#prove-cancel")
    assert page.get_attribute("body", "data-prove") == "cancelled"
    assert settle(lambda: not coq_processes(), 5), coq_processes()
    assert stays(lambda: not coq_processes(), 3), coq_processes()  # and none starts again

    start_a_long_search()
    page.goto(server + "/alps")  # navigating away closes the stream
    assert settle(lambda: not coq_processes(), 5), coq_processes()
    assert stays(lambda: not coq_processes(), 3), coq_processes()


@pytest.mark.eprover
def test_a_law_is_numbered_and_screened_and_a_wrong_chain_rejected(page, server, artifacts):
    page.goto(server + "/alps")
    page.fill("#law-text", "x = y ◇ x")
    page.get_by_role("button", name="Number and screen").click()
    page.wait_for_selector("body[data-law=done]", timeout=120_000)
    assert page.inner_text("#law-number") == "Equation 5"
    assert "x = x ◇ y" in page.inner_text("#law-result")
    assert page.get_attribute("#law-status", "data-status") == "HAS_FINITE_MODEL"
    cells = page.eval_on_selector_all(
        "table.rs-model tr",
        "rs => rs.slice(1).map(r => [...r.cells].slice(1).map(c => c.innerText))",
    )
    assert cells and all(row[b] == str(b) for row in cells for b in range(len(row)))  # y ◇ x = x
    page.fill("#judge-law", "x = x ◇ y")
    page.fill("#judge-submission", '{"chain": ["a", "a ◇ a", "b ◇ b", "b"]}')
    page.get_by_role("button", name="Judge").click()
    page.wait_for_selector("body[data-judge=done]", timeout=60_000)
    verdict = page.locator("#judge-verdict")
    assert verdict.get_attribute("data-status") == "rejected"
    assert "step 2 " in verdict.inner_text()
    marks = page.eval_on_selector_all("tr[data-link]", "rs => rs.map(r => r.dataset.ok)")
    assert marks == ["1", "0"]  # the first link applies the law; the judge stops at the second
    shoot(page, artifacts, "alps")


@pytest.mark.eprover
@pytest.mark.timeout(300)
def test_cancel_and_navigating_away_stop_e_at_once(page, server) -> None:
    def start_a_long_screen() -> None:
        page.goto(server + "/alps")
        page.fill("#law-text", E_BUSY_LAW)
        page.get_by_role("button", name="Number and screen").click()
        # Wait inside Playwright, not in time.sleep: the page's requests pass through the route
        # handler, which runs only while Playwright has control.
        for _ in range(900):
            if e_processes():
                break
            page.wait_for_timeout(100)
        assert e_processes(), "E never started"

    start_a_long_screen()
    page.click("#law-cancel")
    assert page.get_attribute("body", "data-law") == "cancelled"
    assert page.inner_text("#law-screen") == "Cancelled."
    assert settle(lambda: not e_processes(), 5), e_processes()
    assert stays(lambda: not e_processes(), 3), e_processes()  # the next stage never starts

    start_a_long_screen()
    page.goto(server + "/review")  # navigating away closes the request
    assert settle(lambda: not e_processes(), 5), e_processes()
    assert stays(lambda: not e_processes(), 3), e_processes()
