"""Offline PRMBench figure: machine checks alone catch computational errors, no correct step."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from veristep.review.metrics import grounding_figure


def test_grounding_alone_on_the_prmbench_slice_flags_no_correct_step(shared_data: Path) -> None:
    path = shared_data / "prmbench_slice" / "prmbench_subset_slice.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    figure = grounding_figure(rows)
    assert figure.correct_steps == 1505 and figure.error_steps == 225
    # Soundness: not one step of the correct processes, nor an unlabelled modified step.
    assert figure.correct_flagged == 0, figure.correct_flagged_keys
    assert figure.unlabelled_flagged == 0
    # Recall on what the machine can see: the known computational errors are caught.
    assert {
        "prm_test_p1_4:modified:13",
        "prm_test_p1_10:modified:6",
        "prm_test_p1_0:modified:5",  # "2p = 0.58. So p = 0.58": not a solution of the equation
        "prm_test_p1_6:modified:20",  # "divide 49 by 4 we get 12 with a remainder of 2"
    } <= set(figure.caught_keys)
    assert figure.caught >= 6


def test_a_division_said_in_words_counts_as_a_closed_computation() -> None:
    # The figure's "containing a closed computation" counts every reader of closed arithmetic,
    # not only formulas: a division with remainder in words is one.
    row = {
        "idx": "synthetic",
        "original_question": "What is the remainder of 49 divided by 4?",
        "original_process": ["When we divide 49 by 4 we get 12 with a remainder of 1."],
        "modified_question": "What is the remainder of 49 divided by 4?",
        "modified_process": ["When we divide 49 by 4 we get 12 with a remainder of 2."],
        "error_steps": [1],
    }
    figure = grounding_figure([row])
    assert (figure.error_steps, figure.computational_error_steps, figure.caught) == (1, 1, 1)
    assert figure.correct_flagged == 0


def _opc_rows(shared_data: Path) -> list[dict]:
    path = shared_data / "opc_judge_test" / "opc_judge_test.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _machine_flags(row: dict) -> tuple[int, list[tuple[str, object]]]:
    """The proof read as the benchmark reads it: each step in the context of the problem and
    the steps before (declared letters, defined functions)."""
    from veristep.review.machine import check_steps
    from veristep.review.segment import segment_proof

    segments = segment_proof(row["proof"], strict=False)
    results = check_steps([s.text for s in segments], row["problem"])
    flags = [(s.id, r) for s, r in zip(segments, results, strict=True) if r.outcome == "refuted"]
    return sum(r.outcome == "grounded" for r in results), flags


# Steps of proofs that humans judged correct which are nevertheless false as written, each
# examined by hand. opc-test-073:s15 writes, for a = 1 - sqrt 2, "a - 1/a = (1-\\sqrt2) -
# (-(\\sqrt2-1)) = -2": the middle expression is 0 and a - 1/a is 2, a slip the proof's
# conclusion survives (it only needs |a - 1/a|). A new entry here needs the same reading.
FALSE_STEPS_IN_CORRECT_PROOFS = {"opc-test-073:s15"}


def test_machine_checks_flag_no_true_step_of_the_correct_opc_proofs(shared_data: Path) -> None:
    import sympy

    from veristep.mathgraph import parse_latex, to_sympy

    rows = [row for row in _opc_rows(shared_data) if row["label"] == "correct"]
    flagged, grounded = {}, 0
    for row in rows:
        proof_grounded, flags = _machine_flags(row)
        grounded += proof_grounded
        flagged |= {f"{row['id']}:{sid}": result for sid, result in flags}
    assert len(rows) == 161 and grounded > 20
    assert set(flagged) == FALSE_STEPS_IN_CORRECT_PROOFS
    for result in flagged.values():  # the slip is re-checked by a path that shares no code
        check = next(c for c in result.checks if c.witness == result.witness)
        lhs, _, rhs = check.latex.partition(" = ")
        left, right = (to_sympy(parse_latex(side)) for side in (lhs, rhs))
        assert sympy.simplify(left - right) != 0, check.latex


def test_every_flag_on_the_incorrect_opc_proofs_has_a_witness_that_is_rechecked(
    shared_data: Path, recheck_fails: Callable
) -> None:
    """The flags measured by ``bench/review.py opc-grounding``, each re-checked by a path that
    shares nothing with the check that raised it: a false computation by SymPy through the
    semantic graph; a counterexample under the problem's hypotheses by substituting its values
    into the claim and into the problem's equation with exact rational arithmetic."""
    import sympy

    from veristep.mathgraph import parse_latex, to_sympy
    from veristep.review.standing import read_standing

    expected = {
        "opc-test-065": ["s4", "s6"],
        "opc-test-182": ["s25"],  # a false factorization right after an identity in a chain
        "opc-test-223": ["s13"],
        "opc-test-278": ["s8"],
        "opc-test-354": ["s21", "s36"],  # s36 admits a gap: see the next test
        "opc-test-397": ["s14"],
        "opc-test-429": ["s143", "s150", "s182", "s203"],  # s182 admits a gap
    }
    rows = {row["id"]: row for row in _opc_rows(shared_data) if row["id"] in expected}
    for key, steps in expected.items():
        _, flags = _machine_flags(rows[key])
        assert [sid for sid, _ in flags] == steps
        for _, result in flags:
            check = next(c for c in result.checks if c.witness == result.witness)
            if check.check == "admitted_gap":
                continue
            if check.check == "standing_hypotheses":
                values = dict(re.findall(r"\b([a-z]) = (-?[\d/]+)", result.witness.split("(")[0]))
                assert recheck_fails(check.latex, values), result.witness
                constraint = read_standing(rows[key]["problem"]).constraint
                assert not recheck_fails(constraint, values)  # the point satisfies the problem
                assert all(Fraction(v) > 0 for v in values.values())  # positive reals
                continue
            lhs, _, rhs = check.latex.partition(" = ")
            left, right = (to_sympy(parse_latex(side)) for side in (lhs, rhs))
            assert sympy.simplify(left - right) != 0, check.latex
            if check.check == "chain_rewrite":  # the two sides differ at the witness's values
                values = dict(re.findall(r"\b([a-z]) = (-?\d+)", result.witness.split(":")[0]))
                point = {x: int(values[str(x)]) for x in left.free_symbols | right.free_symbols}
                assert left.subs(point) != right.subs(point), result.witness
                continue
            assert check.check in ("exact_arithmetic", "exact_real")
            assert f"the left side is {left}" in result.witness
            assert f"the right side is {right}" in result.witness


def test_the_incorrect_opc_proofs_that_admit_a_gap_are_flagged_with_their_own_words(
    shared_data: Path,
) -> None:
    """41 of the 273 incorrect proofs say, in a sentence of their own, that they do not prove
    something (or offer evidence in its place); each is flagged at that step and the witness
    quotes the sentence verbatim. No correct proof is (see the test above)."""
    admitting = {
        "opc-test-011", "opc-test-014", "opc-test-025", "opc-test-030", "opc-test-038",
        "opc-test-054", "opc-test-064", "opc-test-068", "opc-test-076", "opc-test-087",
        "opc-test-092", "opc-test-116", "opc-test-124", "opc-test-161", "opc-test-178",
        "opc-test-195", "opc-test-218", "opc-test-234", "opc-test-237", "opc-test-252",
        "opc-test-260", "opc-test-270", "opc-test-280", "opc-test-290", "opc-test-291",
        "opc-test-299", "opc-test-300", "opc-test-318", "opc-test-319", "opc-test-325",
        "opc-test-354", "opc-test-357", "opc-test-376", "opc-test-380", "opc-test-389",
        "opc-test-408", "opc-test-417", "opc-test-422", "opc-test-424", "opc-test-427",
        "opc-test-429",
    }  # fmt: skip
    rows = [row for row in _opc_rows(shared_data) if row["label"] == "incorrect"]
    found = set()
    for row in rows:
        _, flags = _machine_flags(row)
        admitted = [r for _, r in flags if r.checks[0].check == "admitted_gap"]
        if admitted:
            found.add(row["id"])
            quote = admitted[0].checks[0].latex
            assert quote in " ".join(row["proof"].split()), quote
    assert found == admitting
