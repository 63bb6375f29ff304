"""ALPS part 2: the judge's self-test — negative controls rejected, reference answers accepted.

Run before any sweep or evaluation (they refuse to start otherwise). The result is stamped in
the data directory with a fingerprint of the judge's code and the prover's command, so the
controls rerun only when either changes.

Chain channel: a link that is not an application, a two-position change, wrong endpoints and
junk JSON are rejected; a hand-written chain for a trivial law is accepted. Construction channel
(law 4916): E = {law} certifies itself; ``x ◇ y = x`` fails correctness (a); ``x = y`` fails
nonvacuity (b) (and is refused at the gate as a bare restatement). Lean gate: seven
proof-avoidance texts are refused before Lean would run; the compiled reference chain passes.

>>> two_position_chain()[3]
'a ◇ ((a ◇ (a ◇ (a ◇ (a ◇ (a ◇ a))))) ◇ (a ◇ (a ◇ (a ◇ a))))'
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from veristep.alps.judge import JudgeConfig, construction, judge, lean_export
from veristep.alps.judge.chain import check_chain
from veristep.alps.provers import EProver, Prover
from veristep.alps.terms import Var, parse_law, parse_term, replace_at, show, substitute
from veristep.core.errors import VeristepError

LAW_4916 = "x = y ◇ (x ◇ (x ◇ (y ◇ (z ◇ z))))"
TRIVIAL_LAW = "x = y ◇ (z ◇ y)"  # x does not occur on the right: every element is one value
REFERENCE_CHAIN = ["a", "a ◇ (a ◇ a)", "b"]
LEAN_ATTACKS = {
    "sorry": "theorem solution : Problem.TrivialGoal := by sorry",
    "axiom": "axiom cheat : Problem.TrivialGoal\ntheorem solution := cheat",
    "shadow namespace": "namespace Problem\ndef TrivialGoal : Prop := True\nend Problem\n"
    "theorem solution : Problem.TrivialGoal := trivial",
    "shadow open": "def TrivialGoal : Prop := True\ntheorem solution : TrivialGoal := trivial",
    "redefine Law": "def Law {M : Type} (_ : M → M → M) : Prop := False\n"
    "theorem solution : Problem.TrivialGoal := by intro M op h; exact h.elim",
    "native_decide": "theorem solution : Problem.TrivialGoal := by native_decide",
    "no solution": "theorem answer : Problem.TrivialGoal := by decide",
}


class SelftestFailed(VeristepError):
    """The judge failed its own controls: no sweep or evaluation may trust it."""


@dataclass(frozen=True)
class Control:
    name: str
    expected: str
    got: str
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.expected == self.got


@dataclass(frozen=True)
class SelftestReport:
    controls: list[Control]
    fingerprint: str

    @property
    def passed(self) -> bool:
        return bool(self.controls) and all(c.ok for c in self.controls)

    def to_json(self) -> dict[str, object]:
        return {
            "passed": self.passed,
            "fingerprint": self.fingerprint,
            "controls": [{**asdict(c), "ok": c.ok} for c in self.controls],
        }

    def lines(self) -> list[str]:
        out = [
            f"[{'ok' if c.ok else 'FAIL'}] {c.name:46} expected {c.expected:17} got {c.got}"
            for c in self.controls
        ]
        out.append("selftest PASSED" if self.passed else "selftest FAILED")
        return out


def two_position_chain() -> list[str]:
    """Valid up to step 3, which shrinks one place and grows another in a single link."""
    law = parse_law(LAW_4916)
    a = Var("a")
    t_a = substitute(law.rhs, {"x": a, "y": a, "z": a})
    grown = replace_at(t_a, (0,), t_a)
    mixed = replace_at(replace_at(grown, (0,), a), (1, 0), t_a)
    return ["a", show(t_a), show(grown), show(mixed), "b"]


def _chain_controls(cfg: JudgeConfig) -> list[Control]:
    cases = [
        ("chain: reference (trivial law)", TRIVIAL_LAW, {"chain": REFERENCE_CHAIN}, "accepted"),
        ("chain: link that is not an application", TRIVIAL_LAW, {"chain": ["a", "b"]}, "rejected"),
        ("chain: two-position change", LAW_4916, {"chain": two_position_chain()}, "rejected"),
        ("chain: wrong endpoints", TRIVIAL_LAW, {"chain": ["a", "a ◇ (a ◇ a)"]}, "invalid"),
        ("chain: junk JSON", TRIVIAL_LAW, '{"chain": ["a", "b"', "invalid"),
    ]
    out = []
    for name, law, submission, expected in cases:
        v = judge(law, submission, cfg)
        out.append(Control(name, expected, v.status, v.message))
    return out


def _construction_controls(prover: Prover, timeout_s: float, memory_mb: int) -> list[Control]:
    law = parse_law(LAW_4916)
    cases = [
        ("construction: E = {law 4916} certifies", [law], (True, True)),
        ("construction: x ◇ y = x fails (a)", [parse_law("x ◇ y = x")], (False, True)),
        ("construction: x = y fails (b)", [parse_law("x = y")], (True, False)),
    ]
    out = []
    for name, presentation, (want_a, want_b) in cases:
        r = construction.certify(law, presentation, prover, timeout_s, memory_mb)
        got = f"a={r.correctness.passed},b={r.nonvacuity.passed}"
        out.append(Control(name, f"a={want_a},b={want_b}", got, r.feedback))
    cfg = JudgeConfig(prover=prover, timeout_s=timeout_s, memory_mb=memory_mb)
    gate = judge(LAW_4916, {"E": ["x = y"]}, cfg)
    out.append(
        Control(
            "construction: bare x = y refused at the gate", "invalid", gate.status, gate.message
        )
    )
    return out


def _lean_controls() -> list[Control]:
    out = [
        Control(f"lean gate: {name}", "refused", "refused" if lean_export.scan(src) else "passed")
        for name, src in LEAN_ATTACKS.items()
    ]
    law = parse_law(TRIVIAL_LAW)
    result = check_chain(law, [parse_term(t) for t in REFERENCE_CHAIN])
    bad = lean_export.scan(lean_export.compile_chain(law, result))
    got = "refused" if bad else "passed"
    out.append(Control("lean gate: compiled reference chain", "passed", got, "; ".join(bad)))
    return out


def fingerprint(prover: Prover) -> str:
    """Hash of the judge's source files, this module and the prover's identity."""
    from veristep.alps import judge as judge_pkg

    digest = hashlib.sha256()
    for path in sorted(Path(judge_pkg.__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    digest.update(Path(__file__).read_bytes())
    digest.update(repr(prover).encode())
    return digest.hexdigest()[:16]


def run_selftest(
    prover: Prover | None = None, timeout_s: float = 20.0, memory_mb: int = 2048
) -> SelftestReport:
    prover = prover or EProver("auto")
    cfg = JudgeConfig(prover=prover, timeout_s=timeout_s, memory_mb=memory_mb)
    controls = [
        *_chain_controls(cfg),
        *_construction_controls(prover, timeout_s, memory_mb),
        *_lean_controls(),
    ]
    return SelftestReport(controls, fingerprint(prover))


def stamp_path(data_dir: Path) -> Path:
    return data_dir / "alps" / "selftest.json"


def ensure_selftest(
    data_dir: Path,
    prover: Prover | None = None,
    runner: Callable[[], SelftestReport] | None = None,
) -> SelftestReport | None:
    """Raise ``SelftestFailed`` unless the controls pass; reuse a stamp with our fingerprint.

    Returns the fresh report, or None when a matching passing stamp was reused.
    """
    prover = prover or EProver("auto")
    path = stamp_path(data_dir)
    want = fingerprint(prover)
    try:
        stamp = json.loads(path.read_text(encoding="utf-8"))
        if stamp.get("passed") is True and stamp.get("fingerprint") == want:
            return None
    except (OSError, ValueError):
        pass
    report = (runner or (lambda: run_selftest(prover)))()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report.to_json(), ensure_ascii=False, indent=1), encoding="utf-8")
    if not report.passed:
        failed = ", ".join(c.name for c in report.controls if not c.ok)
        raise SelftestFailed(f"the ALPS judge failed its self-test ({failed}); refusing to run")
    return report
