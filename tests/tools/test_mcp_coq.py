"""The Coq tools through ``veristep mcp`` with real coqtop, coqc and coqchk.

A scripted client (no model) proves three miniF2F-rocq theorems with only coq_open, coq_run and
coq_back, and coq_check accepts each final file; cheats sent through coq_run or coq_check are
refused; a long search is cancelled and its coqtop dies; a client that goes away leaves no
process behind.
"""

from __future__ import annotations

import time
from typing import Any

import anyio
import pytest

pytestmark = [pytest.mark.coq, pytest.mark.timeout(900)]

McpSession = Any  # conftest's McpSession

# Each plan: per step, the candidate tactics in the order a naive script tries them. A failing
# candidate leaves the session as it was; "BACK" undoes the last accepted tactic (a detour).
PLANS: dict[str, list[list[str]]] = {
    "mathd_algebra_412": [["intros x."], ["BACK"], ["intros x y h0 h1."], ["lia.", "lra."]],
    "mathd_algebra_176": [["lia.", "ring."]],
    "amc12b_2002_p2": [["subst x."], ["lra.", "reflexivity."]],
}

PREFIX_412 = (
    "Require Import Reals.\nOpen Scope R_scope.\n"
    "Theorem mathd_algebra_412:\n  forall (x y : R),\n  (x + y = 25) ->\n  (x - y = 11) ->\n"
    "  x = 18.\n"
)
CHEAT_FILES = {
    "axiom": "Require Import Reals.\nOpen Scope R_scope.\n"
    "Axiom cheat : forall x y : R, x = y.\n"
    + PREFIX_412[len("Require Import Reals.\nOpen Scope R_scope.\n") :]
    + "Proof. intros. apply cheat. Qed.\n",
    "admitted": PREFIX_412 + "Proof. intros. Admitted.\n",
    "redefined_eq": "Require Import Reals.\nOpen Scope R_scope.\n"
    "Definition eq {A : Type} (x y : A) := True.\n"
    'Notation "x = y" := (eq x y) : type_scope.\n'
    + PREFIX_412[len("Require Import Reals.\nOpen Scope R_scope.\n") :]
    + "Proof. intros. exact I. Qed.\n",
}


def run_plan(session: McpSession, name: str) -> tuple[dict, list[str]]:
    """Follow ``PLANS[name]`` with coq_open/coq_run/coq_back only; the last coq_run result."""
    opened = session.ok("coq_open", {"name": name})
    sid, last, used = opened["session"], opened, []
    for candidates in PLANS[name]:
        if candidates == ["BACK"]:
            last = session.ok("coq_back", {"session": sid})
            used.append("coq_back")
            continue
        for tactic in candidates:
            last = session.ok("coq_run", {"session": sid, "tactic": tactic})
            used.append("coq_run")
            if last["ok"]:
                break
        assert last["ok"], f"{name}: no candidate of {candidates} worked: {last['error']}"
    return last, used


@pytest.mark.parametrize("name", sorted(PLANS))
def test_a_scripted_client_proves_a_benchmark_theorem(mcp_session: McpSession, name: str) -> None:
    last, used = run_plan(mcp_session, name)
    assert set(used) <= {"coq_run", "coq_back"}
    assert last["no_goals_left"] and last["goal_count"] == 0
    assert "proved" not in last  # only coq_check says that
    verdict = mcp_session.ok("coq_check", {"proof": last["proof_file"], "expect": name})
    assert verdict["proved"] and verdict["accepted"], verdict["reason"]


def test_a_failed_tactic_reports_signals_and_leaves_the_session(mcp_session: McpSession) -> None:
    sid = mcp_session.ok("coq_open", {"name": "mathd_algebra_412"})["session"]
    mcp_session.ok("coq_run", {"session": sid, "tactic": "intros x y h0 h1."})
    failed = mcp_session.ok("coq_run", {"session": sid, "tactic": "lia."})
    assert not failed["ok"] and failed["error"] and failed["signals"]["failure"] == "tactic"
    assert failed["tactics"] == ["intros x y h0 h1."] and failed["goal_count"] == 1
    unknown = mcp_session.ok("coq_run", {"session": sid, "tactic": "apply no_such_lemma."})
    assert (
        unknown["signals"]["failure"] == "unknown_reference" and not unknown["signals"]["type_ok"]
    )
    tried = mcp_session.ok("coq_try", {"session": sid, "tactics": ["lia.", "lra.", "nia"]})
    assert [t["ok"] for t in tried["tried"]] == [False, True, False]
    assert tried["tried"][1]["signals"]["goals_after"] == 0
    assert tried["tactics"] == ["intros x y h0 h1."]  # coq_try changes nothing
    goals = mcp_session.ok("coq_goals", {"session": sid})
    assert "x = 18" in goals["goals"] and goals["goal_count"] == 1
    assert mcp_session.ok("coq_close", {"session": sid})["closed"]
    assert "no open session" in mcp_session.error("coq_goals", {"session": sid})


@pytest.mark.parametrize(
    "tactic",
    [
        "Admitted.",
        "admit.",
        "Axiom cheat : False.",
        'Notation "x = y" := True.',
        "Load evil.",
        "Set Printing All.",
        "intros. Qed.",
    ],
)
def test_cheats_through_coq_run_are_refused(mcp_session: McpSession, tactic: str) -> None:
    sid = mcp_session.ok("coq_open", {"name": "mathd_algebra_412"})["session"]
    refused = mcp_session.ok("coq_run", {"session": sid, "tactic": tactic})
    assert not refused["ok"] and refused["signals"]["failure"] in ("forbidden", "syntax")
    assert refused["tactics"] == [] and not refused["no_goals_left"]
    mcp_session.ok("coq_close", {"session": sid})


@pytest.mark.parametrize("cheat", sorted(CHEAT_FILES))
def test_cheats_through_coq_check_are_refused(mcp_session: McpSession, cheat: str) -> None:
    verdict = mcp_session.ok(
        "coq_check", {"proof": CHEAT_FILES[cheat], "expect": "mathd_algebra_412"}
    )
    assert not verdict["proved"] and not verdict["accepted"] and verdict["reason"]


def test_coq_tools_refuse_bad_input(mcp_session: McpSession) -> None:
    assert "did you mean" in mcp_session.error("coq_open", {"name": "mathd_algebra_41"}).lower()
    assert "either 'name'" in mcp_session.error("coq_open", {})
    header = {"statement": "Theorem t : 1 = 1.", "header": "Load evil."}
    assert "argument 'header'" in mcp_session.error("coq_open", header)
    two = {"statement": "Theorem t : 1 = 1. Axiom a : False."}
    assert "coq_open: " in mcp_session.error("coq_open", two)
    rejected = {"statement": "Theorem t : no_such_thing = 1."}
    assert "Coq rejects the statement" in mcp_session.error("coq_open", rejected)
    assert "no open session" in mcp_session.error("coq_run", {"session": "coq-x", "tactic": "a."})
    assert "more than 16 items" in mcp_session.error(
        "coq_try", {"session": "coq-x", "tactics": ["lia."] * 17}
    )
    assert "coq_check: " in mcp_session.error("coq_check", {"proof": "x", "expect": "nope"})
    nothing = mcp_session.ok("coq_check", {"proof": "Require Import Arith."})
    assert not nothing["proved"]


def test_own_statement_session_and_lemma_search(mcp_session: McpSession) -> None:
    opened = mcp_session.ok(
        "coq_open",
        {"statement": "Theorem t : forall n : nat, n + 0 = n.", "header": "Require Import Arith."},
    )
    sid = opened["session"]
    mcp_session.ok("coq_run", {"session": sid, "tactic": "intros n."})
    done = mcp_session.ok("coq_run", {"session": sid, "tactic": "lia."})
    assert done["no_goals_left"]
    assert mcp_session.ok("coq_check", {"proof": done["proof_file"]})["proved"]
    found = mcp_session.ok("coq_search", {"query": "Rabs triangle", "k": 5})["lemmas"]
    assert 0 < len(found) <= 5 and all(lem["name"] and lem["statement"] for lem in found)
    assert "coq_search: " in mcp_session.error("coq_search", {})


def test_a_sessions_goal_is_searched_by_its_shape(mcp_session: McpSession) -> None:
    statement = "Theorem t : forall a b : R, Rabs (a + b) <= Rabs a + Rabs b."
    opened = mcp_session.ok(
        "coq_open", {"statement": statement, "header": "Require Import Reals.\nOpen Scope R_scope."}
    )
    sid = opened["session"]
    mcp_session.ok("coq_run", {"session": sid, "tactic": "intros a b."})
    found = mcp_session.ok("coq_search", {"session": sid, "k": 3})["lemmas"]
    assert found[0]["name"].endswith("Rabs_triang"), found  # |·| of a sum ≤ a sum
    words = mcp_session.ok("coq_search", {"session": sid, "query": "triangle", "k": 3})["lemmas"]
    assert words[0]["name"].endswith("Rabs_triang")


def test_prove_finds_a_proof_that_coq_check_accepts(mcp_session: McpSession) -> None:
    out = mcp_session.ok("prove", {"name": "mathd_algebra_176", "n": 8, "budget_s": 60})
    assert out["found"] and "solved" not in out
    assert mcp_session.ok("coq_check", {"proof": out["proof_file"], "expect": "mathd_algebra_176"})[
        "proved"
    ]


def _coqtops(marked: Any, mark: str) -> int:
    return sum(1 for _, comm in marked(mark) if comm == "coqtop")


def _settle(predicate: Any, seconds: float = 15.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.2)
    return predicate()


def test_cancelling_a_long_search_kills_its_coqtop_and_the_client_leaving_ends_all(
    mcp_connect: Any, marked: Any, tmp_path: Any
) -> None:
    with mcp_connect(tmp_path) as session:
        kept = session.ok("coq_open", {"name": "mathd_algebra_412"})["session"]
        assert _coqtops(marked, session.mark) == 1
        started = anyio.Event()

        async def progress(done: float, total: float | None, message: str | None) -> None:
            if message == "searching":
                started.set()

        async def cancel_a_search() -> float:
            async with anyio.create_task_group() as group:

                async def search() -> None:
                    args = {"name": "imo_1959_p1", "mcts_iterations": 100, "budget_s": 300}
                    await session.client.call_tool("prove", args, progress_callback=progress)

                group.start_soon(search)
                with anyio.fail_after(120):
                    await started.wait()
                await anyio.sleep(3.0)  # the search is inside Coq now
                cancelled_at = time.monotonic()
                group.cancel_scope.cancel()
            return time.monotonic() - cancelled_at

        assert session.run(cancel_a_search) < 5.0
        # The search's coqtop is killed; the open session's stays.
        assert _settle(lambda: _coqtops(marked, session.mark) == 1)
        time.sleep(2.0)  # and the abandoned search does not start another
        assert _coqtops(marked, session.mark) == 1
        assert session.ok("coq_run", {"session": kept, "tactic": "intros x y h0 h1."})["ok"]
        mark = session.mark
    # The client went away: the server, its workers and every coqtop end with it.
    assert _settle(lambda: not marked(mark)), marked(mark)


def test_a_header_cannot_load_a_library_from_the_launch_folder(
    mcp_connect: Any, tmp_path: Any
) -> None:
    """coqtop loads compiled libraries from its working directory; the server runs from an
    empty folder of its own, so a Foo.vo beside the client is not found."""
    import subprocess

    launch = tmp_path / "launch"
    launch.mkdir()
    (launch / "Evil.v").write_text("Definition evil : 1 = 1 := eq_refl.\n")
    subprocess.run(["coqc", "Evil.v"], cwd=launch, check=True, timeout=120, capture_output=True)
    assert (launch / "Evil.vo").is_file()
    with mcp_connect(tmp_path / "data", cwd=launch) as session:
        opened = {"statement": "Theorem t : 1 = 1.", "header": "Require Import Evil."}
        assert "Coq rejects the statement" in session.error("coq_open", opened)
