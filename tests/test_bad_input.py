"""Bad input on every command line: never a hang, never a traceback.

Each case runs ``veristep`` as a real subprocess with small budgets and asserts the contract of
docs/design.md: exit code 0 (a verdict, perhaps unchecked or invalid) or 2 (one located line on
stderr that names the offending thing), no traceback, ``--json`` prints exactly one JSON
document, and the call ends within its budget.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from veristep.core.subprocesses import process_group_gone

# Small budgets: a step gets 2 s, one CAS call 1 s, a proposer attempt 3 s, a prover call 2 s.
BUDGET_ENV = {
    "VERISTEP_STEP_TIMEOUT": "2",
    "VERISTEP_CAS_TIMEOUT": "1",
    "VERISTEP_DERIVE_TIMEOUT": "3",
    "VERISTEP_PROVER_TIMEOUT": "2",
    "VERISTEP_WORKERS": "1",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
}
LONG_STATE = "x = " + "+".join(["x"] * 2498)  # 5,000 characters


@dataclass(frozen=True)
class Case:
    argv: tuple[str | bytes, ...]
    code: int
    mentions: tuple[str, ...] = ()  # fragments the stderr line (code 2) must contain
    json: bool = False  # stdout must be exactly one JSON document
    budget_s: float = 20.0
    stdin: bytes = b""
    env: dict[str, str] = field(default_factory=dict)


def run(argv, tmp: Path, stdin: bytes = b"", budget_s: float = 20.0, env=None):
    """Run veristep; returns (exit code, stdout, stderr, seconds). A hang fails the test."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("VERISTEP_")}
    full_env.update(BUDGET_ENV, VERISTEP_DATA_DIR=str(tmp / "data"), **(env or {}))
    args = [a.replace("{tmp}", str(tmp)) if isinstance(a, str) else a for a in argv]
    start = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "veristep.cli", *args],
            input=stdin,
            capture_output=True,
            timeout=budget_s,
            env=full_env,
            cwd=tmp,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"veristep {' '.join(map(str, argv))[:120]} ran past {budget_s} s (a hang)")
    out = proc.stdout.decode("utf-8")  # strict: stdout must be UTF-8 text whatever came in
    err = proc.stderr.decode("utf-8", "replace")
    return proc.returncode, out, err, time.monotonic() - start


def assert_contract(case: Case, code: int, out: str, err: str) -> None:
    assert "Traceback" not in err, err
    assert code == case.code, f"exit {code}, stderr: {err[-500:]}"
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1, f"expected one error line, got: {err!r}"
        for fragment in case.mentions:
            assert fragment in lines[0], f"{fragment!r} not in {lines[0]!r}"
    if case.json:
        json.loads(out)  # one document: trailing text would be "Extra data"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    """Every malformed file the cases below refer to as {tmp}/NAME."""
    tmp = tmp_path_factory.mktemp("bad_input")
    files: dict[str, bytes] = {
        "empty.txt": b"",
        "random.bin": bytes((i * 151 + 7) % 256 for i in range(3000)),
        "latin1.md": "Let $x = 2$. Caf\xe9 $x^2 = 4$.".encode("latin-1"),
        "unclosed.md": b"Proof. We have $x = 1$ and $y = \\frac{1}{2\n",
        "not_json.json": b"{derivation: yes",
        "list.json": b"[1, 2]",
        "no_derivation.json": b'{"states": 5}',
        "laws_bad_type.jsonl": '{"law": "x = y ◇ (x ◇ z)"}\n{"law": 5}\n'.encode(),
        "laws_bad_json.jsonl": '{"law": "x = y ◇ z"}\n{"law": \n'.encode(),
        "laws_bad_law.txt": "x = y ◇ z\nx = y ◇ ◇ z\n".encode(),
        "laws_latin1.txt": b"x = y \xe9 z\n",
        "laws_ok.jsonl": '{"law": "x = y ◇ (x ◇ z)"}\n'.encode(),
        "chain.json": b'{"chain": ["a", "b"]}',
        "admitted.v": b"Theorem t : 1 + 1 = 2.\nProof.\nAdmitted.\n",
        "garbage.v": b"garbage ((( \x01 not coq\n",
        "latin1.v": "Theorem caf\u00e9 : True.\n".encode("latin-1"),
        "not_sqlite.db": b"this is not a database",
    }
    for name, data in files.items():
        (tmp / name).write_bytes(data)
    return tmp


CASES: dict[str, Case] = {
    # parse
    "parse-unbalanced": Case(("parse", "\\frac{1}{"), 2, ("never closed", "column 9")),
    "parse-empty": Case(("parse", ""), 2, ("empty input",)),
    # issue: "division by zero" carried no location; a 19,000-digit number was echoed whole
    "parse-division-by-zero": Case(("parse", "y = 2 + 1/0"), 2, ("division by zero", "column 9")),
    "parse-frac-zero": Case(("parse", "\\frac{1}{0}"), 2, ("division by zero", "column 1")),
    "parse-19000-digits": Case(("parse", "y = " + "7" * 19000), 2, ("(19000 characters)",)),
    # issue: each of these hung `check` (SymPy evaluated the power while building lhs - rhs)
    "check-tower-9-9-9": Case(
        ("check", "y = 9^{9^{9}}", "y = 9^{387420489}", "--json"), 0, json=True, budget_s=60
    ),
    "check-huge-scientific": Case(
        ("check", "y = 1.5 \\times 10^{999999999}", "y = 0", "--json"), 0, json=True, budget_s=60
    ),
    "check-huge-power-to-zero": Case(
        ("check", "y = 10^{999999999}", "y = 0", "--json"), 0, json=True, budget_s=60
    ),
    "parse-unknown-command": Case(("parse", "\\frobnicate x"), 2, ("\\frobnicate",)),
    "parse-5000-chars": Case(("parse", LONG_STATE, "--json"), 0, json=True),
    "parse-huge-power-in-sum": Case(("parse", "10^{10^{10}} + 1", "--json"), 0, json=True),
    "parse-20000-bit-integer": Case(("parse", "2^{20000}", "--json"), 0, json=True),
    # check with states
    "check-no-states": Case(("check",), 2, ("no states",)),
    "check-unknown-type": Case(("check", "x=1", "x=1", "--types", "bogus"), 2, ("'bogus'",)),
    "check-type-count": Case(("check", "x=1", "x=1", "--types", "rewrite,solve"), 2, ("2 change",)),
    "check-unparseable-state": Case(("check", "x=1", "y=", "--json"), 0, json=True),
    "check-non-utf8-argv": Case(
        ("check", b"x\xff=1", "x=1", "--json"), 0, json=True, env={"PYTHONIOENCODING": "utf-8"}
    ),
    "check-5000-chars": Case(("check", LONG_STATE, "x = 1", "--json"), 0, json=True),
    "check-expanding-power": Case(
        ("check", "(x+1)^{100000} = 0", "x = -1", "--json"), 0, json=True
    ),
    "check-tower": Case(("check", "10^{10^{10}}", "10^{10^{10}} + 1", "--json"), 0, json=True),
    "check-tower-sqrt": Case(
        ("check", "\\sqrt{10^{10^{10}}} > 0", "x > 0", "--json"), 0, json=True
    ),
    "check-states-and-jsonl": Case(("check", "x", "--jsonl", "{tmp}/empty.txt"), 2, ("not both",)),
    "check-jsonl-missing": Case(("check", "--jsonl", "{tmp}/missing.jsonl"), 2, ("missing.jsonl",)),
    "check-jsonl-empty": Case(("check", "--jsonl", "{tmp}/empty.txt"), 0),
    # derive
    "derive-unreachable": Case(
        ("derive", "x+1=2", "y=7", "--attempts", "1", "--json"), 0, json=True
    ),
    "derive-nonsense-target": Case(
        ("derive", "x+1=2", "\\frobnicate", "--json"), 2, ("TARGET", "\\frobnicate")
    ),
    "derive-empty-start": Case(("derive", "", "x=1"), 2, ("START is empty",)),  # a target may be
    "derive-huge-start": Case(
        ("derive", LONG_STATE, "x=0", "--attempts", "1", "--json"), 0, json=True, budget_s=40
    ),
    "derive-tower": Case(
        ("derive", "10^{10^{10}} + 1 = x", "x = 0", "--attempts", "1", "--json"),
        0,
        json=True,
        budget_s=40,
    ),
    "derive-attempts-0": Case(("derive", "x+1=2", "x=1", "--attempts", "0"), 2, ("--attempts",)),
    "derive-unknown-proposer": Case(("derive", "x", "x", "--proposer", "bogus"), 2, ("'bogus'",)),
    "derive-html-no-folder": Case(
        ("derive", "x", "y", "--html", "{tmp}/no/such/dir/o.html"), 2, ("o.html",)
    ),
    # serve (every case must refuse before uvicorn starts)
    "serve-port-0": Case(("serve", "--port", "0"), 2, ("--port", "0")),
    "serve-port-too-big": Case(("serve", "--port", "70000"), 2, ("70000",)),
    "serve-port-not-int": Case(("serve", "--port", "abc"), 2, ("'abc'",)),
    "serve-bad-host": Case(("serve", "--host", "999.1.1.1", "--port", "8123"), 2, ("999.1.1.1",)),
    "serve-import-missing": Case(("serve", "--import", "{tmp}/missing.json"), 2, ("missing.json",)),
    "serve-import-not-json": Case(
        ("serve", "--import", "{tmp}/not_json.json"), 2, ("not_json.json", "not JSON")
    ),
    "serve-import-binary": Case(("serve", "--import", "{tmp}/random.bin"), 2, ("random.bin",)),
    "serve-import-wrong-shape": Case(
        ("serve", "--import", "{tmp}/no_derivation.json"), 2, ("not a derivation",)
    ),
    "serve-import-list": Case(("serve", "--import", "{tmp}/list.json"), 2, ("not a derivation",)),
    "serve-db-not-sqlite": Case(
        ("serve", "--db", "{tmp}/not_sqlite.db", "--port", "8123"), 2, ("not_sqlite.db",)
    ),
    # alps
    "alps-id-ok": Case(("alps", "id", "x = y ◇ (x ◇ z)", "--json"), 0, json=True),
    "alps-id-double-op": Case(("alps", "id", "x = y ◇ ◇ z"), 2, ("column 9",)),
    "alps-id-empty": Case(("alps", "id", ""), 2, ("empty law",)),
    "alps-id-plus": Case(("alps", "id", "x = y + z"), 2, ("'+'",)),
    "alps-id-no-equals": Case(("alps", "id", "x ◇ y"), 2, ("'='",)),
    "alps-id-huge": Case(("alps", "id", "x = " + " ◇ ".join(["y"] * 3000)), 2, ("500",)),
    "alps-screen-missing": Case(
        ("alps", "screen", "{tmp}/missing.txt", "--out", "{tmp}/o.jsonl"), 2, ("missing.txt",)
    ),
    "alps-screen-law-not-str": Case(
        ("alps", "screen", "{tmp}/laws_bad_type.jsonl", "--out", "{tmp}/o.jsonl"),
        2,
        ("laws_bad_type.jsonl:2",),
    ),
    "alps-screen-bad-json": Case(
        ("alps", "screen", "{tmp}/laws_bad_json.jsonl", "--out", "{tmp}/o.jsonl"),
        2,
        ("laws_bad_json.jsonl:2",),
    ),
    "alps-screen-bad-law": Case(
        ("alps", "screen", "{tmp}/laws_bad_law.txt", "--out", "{tmp}/o.jsonl"),
        2,
        ("laws_bad_law.txt:2",),
    ),
    "alps-screen-non-utf8": Case(
        ("alps", "screen", "{tmp}/laws_latin1.txt", "--out", "{tmp}/o.jsonl"),
        2,
        ("laws_latin1.txt:1", "UTF-8"),
    ),
    "alps-screen-db-not-sqlite": Case(
        (
            "alps",
            "screen",
            "{tmp}/laws_ok.jsonl",
            "--out",
            "{tmp}/o.jsonl",
            "--db",
            "{tmp}/not_sqlite.db",
            "--no-progress",
        ),
        2,
        ("not_sqlite.db",),
    ),
    "alps-dedup-missing": Case(("alps", "dedup", "{tmp}/missing.txt"), 2, ("missing.txt",)),
    "alps-judge-missing": Case(
        ("alps", "judge", "--law", "x = y ◇ z", "{tmp}/missing.json"), 2, ("missing.json",)
    ),
    "alps-judge-bad-law": Case(
        ("alps", "judge", "--law", "x = = y", "{tmp}/chain.json"), 2, ("column",)
    ),
    "alps-judge-non-utf8": Case(
        ("alps", "judge", "--law", "x = y ◇ z", "{tmp}/random.bin", "--json"), 0, json=True
    ),
    "alps-judge-jsonl": Case(
        ("alps", "judge", "--law", "x = y ◇ z", "{tmp}/laws_ok.jsonl", "--json"), 0, json=True
    ),
    "alps-judge-empty": Case(
        ("alps", "judge", "--law", "x = y ◇ z", "{tmp}/empty.txt", "--json"), 0, json=True
    ),
    "alps-judge-cert-dir-is-file": Case(
        (
            "alps",
            "judge",
            "--law",
            "x = y ◇ z",
            "{tmp}/chain.json",
            "--cert-dir",
            "{tmp}/empty.txt",
        ),
        2,
        ("--cert-dir",),
    ),
    # review (no model configured: a verdict of OPEN steps, or an input error)
    "review-missing": Case(("review", "{tmp}/missing.md"), 2, ("missing.md",)),
    "review-binary": Case(("review", "{tmp}/random.bin"), 2, ("random.bin", "UTF-8")),
    "review-latin1": Case(("review", "{tmp}/latin1.md", "--json"), 2, ("latin1.md",)),
    "review-empty": Case(("review", "{tmp}/empty.txt"), 2, ("no steps",)),
    "review-unclosed-dollar": Case(("review", "{tmp}/unclosed.md"), 2, ("'$'", "line 1")),
    "review-stdin-non-utf8": Case(("review", "-"), 2, ("UTF-8",), stdin=b"Let $x\xff = 2$."),
    "review-html-no-folder": Case(
        ("review", "{tmp}/unclosed.md", "--html", "{tmp}/no/o.html"), 2, ("o.html",)
    ),
    "review-nothing": Case(("review",), 2, ("PROOF",)),
    # prove --check (text checks only: these never reach Coq)
    "prove-check-missing": Case(
        ("prove", "--check", "{tmp}/missing.v", "--json"), 2, ("missing.v",)
    ),
    "prove-check-admitted": Case(("prove", "--check", "{tmp}/admitted.v", "--json"), 0, json=True),
    "prove-check-garbage": Case(("prove", "--check", "{tmp}/garbage.v", "--json"), 2, ("Theorem",)),
    "prove-check-binary": Case(
        ("prove", "--check", "{tmp}/random.bin"), 2, ("random.bin", "UTF-8")
    ),
    "prove-file-non-utf8": Case(("prove", "{tmp}/latin1.v"), 2, ("latin1.v", "UTF-8")),
    "prove-nothing": Case(("prove",), 2, ("statement",)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_gets_a_clear_answer_in_time(name: str, inputs: Path) -> None:
    case = CASES[name]
    code, out, err, seconds = run(case.argv, inputs, case.stdin, case.budget_s, case.env)
    assert_contract(case, code, out, err)
    assert seconds < case.budget_s


def test_unreachable_and_exploding_derivations_are_never_grounded(inputs: Path) -> None:
    """The verdicts above are not just well-formed: a target never reached caps the chain."""
    code, out, err, _ = run(("derive", "x+1=2", "y=7", "--attempts", "1", "--json"), inputs)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["endpoint"]["reached"] is False
    assert doc["confidence"]["tier"] not in ("grounded", "verified")
    code, out, err, _ = run(("check", "10^{10^{10}}", "10^{10^{10}} + 1", "--json"), inputs)
    assert code == 0, err
    assert json.loads(out)["steps"][0]["tier"] != "grounded"  # they differ by one


def test_huge_powers_are_judged_never_forged(inputs: Path) -> None:
    """The same huge power on both sides is one object; a different value is never grounded."""
    argv = ("check", "y = 9^{9^{9}}", "y = 9^{387420489}", "y = 0", "--json")
    code, out, err, _ = run(argv, inputs, budget_s=90)
    assert code == 0, err
    steps = json.loads(out)["steps"]
    assert steps[0]["tier"] == "grounded"
    assert steps[1]["tier"] not in ("grounded", "verified")


def test_unparseable_state_is_unchecked_and_quotes_the_fragment(inputs: Path) -> None:
    code, out, err, _ = run(("check", "x=1", "x = \\frobnicate", "--json"), inputs)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["steps"][0]["tier"] == "unchecked"
    assert "\\frobnicate" in doc["steps"][0]["reason"]


def test_serve_refuses_a_port_in_use(inputs: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        case = Case(("serve", "--port", port), 2, (port, "cannot listen"))
        code, out, err, _ = run(case.argv, inputs, budget_s=case.budget_s)
    assert_contract(case, code, out, err)


JSONL_LINES: list[tuple[bytes, str | None]] = [
    (b'{"states": ["x+1=2", "x=1"]}', None),
    (b"{bad json", "invalid JSON"),
    (b"[1, 2]", "JSON object"),
    (b'"just a string"', "JSON object"),
    (b"null", "JSON object"),
    (b"{}", "'states'"),
    (b'{"states": "x=1"}', "'states'"),
    (b'{"states": [1, 2]}', "'states'"),
    (b'{"states": []}', "'states'"),
    (b'{"states": ["x=1"], "colour": "red"}', None),  # an extra key is graded and reported
    (b'{"states": ["x=1", "x=1"], "change_types": 5}', "'change_types'"),
    (b'{"states": ["x=1", "x=1"], "change_types": [5]}', "'change_types'"),
    (b'{"states": ["x=1", "x=1"], "change_types": ["bogus"]}', "'bogus'"),
    (b'{"states": ["x=1", "x=1"], "target": 5}', "'target'"),
    (b'{"states": ["x=1", "x=1"], "positive": "xy"}', "'positive'"),
    (b'{"states": ["x\xff=1", "x=1"]}', "UTF-8"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ('{"states": ["' + LONG_STATE + '", "x=1"]}', None),
    (b'{"states": ["10^{10^{10}} + 1", "10^{10^{10}}"]}', None),
    (b'{"states": ["(x+1)^{100000} = 0", "x = -1"]}', None),
]


def test_check_jsonl_answers_every_line_and_names_the_bad_ones(inputs: Path) -> None:
    batch = inputs / "batch.jsonl"
    lines = [line if isinstance(line, bytes) else line.encode() for line, _ in JSONL_LINES]
    batch.write_bytes(b"\n".join(lines) + b"\n")
    code, out, err, seconds = run(("check", "--jsonl", str(batch)), inputs, budget_s=40)
    assert "Traceback" not in err, err
    assert code == 2  # some lines were bad input; the good ones were still judged
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == len(JSONL_LINES)
    errors = err.strip().splitlines()
    for number, ((_, fragment), result) in enumerate(zip(JSONL_LINES, results, strict=True), 1):
        if fragment is None:
            assert "steps" in result, (number, result)
        else:
            assert result["line"] == number and fragment in result["message"], (number, result)
            line = next(e for e in errors if e.startswith(f"veristep check: line {number}:"))
            assert fragment in line
    assert len(errors) == sum(1 for _, f in JSONL_LINES if f is not None)
    assert results[9]["warnings"] == ["unknown key(s) colour ignored"]
    assert [r["line"] for r in results] == list(range(1, len(JSONL_LINES) + 1))
    assert seconds < 40


# --- fuzz: the exit-code contract under hostile argv and JSONL (Hypothesis, fixed budget) -------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

FUZZ_TEXT = st.one_of(
    st.text(max_size=24),
    st.sampled_from(
        ["y = 9^{9^{9}}", "y = 10^{999999999}", "\\frac{1}{0}", "x^{", "\\frobnicate{x}",
         "x = \\pm", "\\sqrt{-1}", "1" * 1500, "x \\le \\ge 2", "\\lim_{x\\to}", "%", "\x00"]
    ),
)  # fmt: skip


def run_isolated(argv: list[str], tmp: Path, stdin: bytes = b"") -> tuple[int, str, str]:
    """Run veristep in a session of its own; fail on a hang or on any process it leaves."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERISTEP_")}
    env.update(BUDGET_ENV, VERISTEP_DATA_DIR=str(tmp / "data"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "veristep.cli", *argv], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp,
        start_new_session=True,
    )  # fmt: skip
    try:
        out, err = proc.communicate(stdin, timeout=90)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        pytest.fail(f"veristep {' '.join(argv)[:120]!r} hung")
    if not process_group_gone(proc.pid):
        pytest.fail(f"veristep {' '.join(argv)[:120]!r} left a process behind")
    return proc.returncode, out.decode("utf-8"), err.decode("utf-8", "replace")


def assert_exit_contract(code: int, out: str, err: str, as_json: bool) -> None:
    assert "Traceback" not in err, err[-800:]
    assert code in (0, 2), (code, err[-500:])
    if code == 2:
        assert len(err.strip().splitlines()) == 1, err
    elif as_json:
        json.loads(out)


def _argv_safe(text: str) -> str:
    return text.replace("\x00", "")  # argv cannot carry NUL at all


FUZZ_SETTINGS = settings(
    max_examples=4,  # each example is a veristep process: the fixed budget of CI
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ_SETTINGS
@given(states=st.lists(FUZZ_TEXT.map(_argv_safe), min_size=1, max_size=3))
def test_fuzz_check_argv_keeps_the_exit_contract(inputs: Path, states: list[str]) -> None:
    code, out, err = run_isolated(["check", *states, "--json"], inputs)
    assert_exit_contract(code, out, err, as_json=True)


JSONL_LINE = st.one_of(
    st.lists(FUZZ_TEXT, min_size=1, max_size=3).map(lambda s: json.dumps({"states": s})),
    st.dictionaries(st.sampled_from(["states", "target", "change_types", "x"]), FUZZ_TEXT,
                    max_size=2).map(json.dumps),
    st.text(max_size=20).map(lambda t: t.replace("\n", " ")),
)  # fmt: skip


@FUZZ_SETTINGS
@given(lines=st.lists(JSONL_LINE, min_size=1, max_size=8))
def test_fuzz_check_jsonl_keeps_the_exit_contract(inputs: Path, lines: list[str]) -> None:
    data = "\n".join(lines).encode("utf-8", "surrogatepass") + b"\n"
    code, out, err = run_isolated(["check", "--jsonl", "-"], inputs, stdin=data)
    assert "Traceback" not in err, err[-800:]
    assert code in (0, 2), (code, err[-500:])
    for line in out.splitlines():
        json.loads(line)  # every result line is one JSON document
    assert all(line.startswith("veristep check:") for line in err.strip().splitlines()), err
