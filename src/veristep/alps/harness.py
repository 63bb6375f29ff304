"""ALPS part 2: the LLM evaluation harness — a fixed protocol, any DSPy model.

Every model gets the same law, task statement and answer format (ALPS's protocol, appendix B):
up to ``rounds`` submissions, each judged, with the judge's message appended verbatim as the
next round's feedback. Optional waypoints are intermediate equalities taken from E's proof of
triviality. Every round is a saved row (law, model, run, round, submission, verdict, feedback,
tokens, cost); pass@1 is the mean solve rate over laws × repeated runs.

DSPy is imported only inside functions, so ``veristep alps`` starts without it.

>>> tptp_equation("f(f(X1,X2),X3)=X2")
'(x ◇ y) ◇ z = y'
>>> tptp_equation("X1=X2") is None
True
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from veristep.alps.judge import JudgeConfig, judge
from veristep.alps.provers import EProver, Prover
from veristep.alps.terms import Law, Op, Term, Var, canonical, parse_law, var_name
from veristep.alps.tptp import triviality_problem

TASKS = {
    "chain": (
        "Decide nothing: this law forces triviality (every magma satisfying it has one "
        "element). Prove it as a chain of terms a = t1 = … = b built only from the two elements "
        "a, b and ◇. Each adjacent pair must differ by EXACTLY ONE application of the law at one "
        "position: a subterm e becomes R with the law's left variable := e and the other "
        "variables := any terms, or the reverse (an instance of R collapses to the term bound to "
        "the left variable). Everything outside that subterm stays identical. Write every "
        "intermediate term; never relate a and b directly."
    ),
    "construction": (
        "This law has no nontrivial finite model. Propose a finite presentation E of an infinite "
        "nontrivial model: unconditional identities 'LHS = RHS' over variables x, y, z, w and ◇ "
        "that (a) entail the law and (b) are consistent with two distinct elements. No "
        "implications, disequations or connectives; do not restate the law or write x = y."
    ),
}
FORMATS = {
    "chain": 'Return ONLY JSON: {"chain": ["a", "<term>", ..., "b"]}',
    "construction": 'Return ONLY JSON: {"E": ["<equation>", ...]}',
}


# ---------------------------------------------------------------- waypoints


def _tptp_term(text: str, names: dict[str, str]) -> Term:
    """``f(X1,f(X2,X1))`` → a term; raises ValueError on anything else (e.g. skolem constants)."""
    tokens = re.findall(r"f\(|[A-Z][A-Za-z0-9_]*|,|\)|\S", text)
    stack: list[list[Term]] = [[]]
    for tok in tokens:
        if tok == "f(":
            stack.append([])
        elif tok == ")":
            args = stack.pop()
            if len(args) != 2:
                raise ValueError("f takes two arguments")
            stack[-1].append(Op(args[0], args[1]))
        elif tok == ",":
            continue
        elif tok[0].isupper():
            stack[-1].append(Var(names.setdefault(tok, var_name(len(names)))))
        else:
            raise ValueError(f"unexpected {tok!r}")
    if len(stack) != 1 or len(stack[0]) != 1:
        raise ValueError("unbalanced term")
    return stack[0][0]


def tptp_equation(text: str) -> str | None:
    """A positive unit equation of E's proof as a law in ◇ notation; None if it is not one."""
    if "=" not in text or "!=" in text:
        return None
    left, right = text.split("=", 1)
    names: dict[str, str] = {}
    try:
        law = Law(_tptp_term(left, names), _tptp_term(right, names))
    except ValueError:
        return None
    if isinstance(law.lhs, Var) and isinstance(law.rhs, Var):
        return None
    return str(law)


_PROOF_CLAUSE = re.compile(
    r"^cnf\([^,]+, plain, \((.*)\), inference\((?!split_conjunct)", re.MULTILINE
)


def waypoints(
    law: Law, prover: Prover | None = None, timeout_s: float = 30.0, limit: int = 6
) -> list[str]:
    """Intermediate equalities from E's proof of L ⊢ x = y (empty when E finds no proof)."""
    res = (prover or EProver("auto")).run(triviality_problem(law), timeout_s, 2048)
    if not res.proved:
        return []
    found = [eq for m in _PROOF_CLAUSE.finditer(res.output) if (eq := tptp_equation(m.group(1)))]
    own = str(canonical(law))
    unique = [eq for eq in dict.fromkeys(found) if str(canonical(parse_law(eq))) != own]
    return unique[:limit]


# ---------------------------------------------------------------- the DSPy program


@cache
def _signatures() -> dict[str, Any]:
    import dspy

    class SolveTrivial(dspy.Signature):
        """Prove that the magma law forces triviality, as a chain of single law applications."""

        law: str = dspy.InputField()
        task: str = dspy.InputField(desc="task statement and answer format")
        hints: str = dspy.InputField(desc="waypoint lemmas derivable from the law, or 'none'")
        feedback: str = dspy.InputField(
            desc="the judge's verdict on your last submission, or 'none'"
        )
        submission: str = dspy.OutputField(desc='JSON {"chain": ["a", ..., "b"]}')

    class SolveConstruction(dspy.Signature):
        """Propose a finite presentation of an infinite nontrivial model of the magma law."""

        law: str = dspy.InputField()
        task: str = dspy.InputField(desc="task statement and answer format")
        hints: str = dspy.InputField(desc="always 'none' on this channel")
        feedback: str = dspy.InputField(
            desc="the judge's verdict on your last submission, or 'none'"
        )
        submission: str = dspy.OutputField(desc='JSON {"E": ["lhs = rhs", ...]}')

    return {"chain": SolveTrivial, "construction": SolveConstruction}


def make_program(channel: str):
    import dspy

    return dspy.Predict(_signatures()[channel])


def _usage(lm: Any, since: int) -> tuple[int, int, float | None]:
    """Tokens and cost of the LM calls since ``since``. Cost is None when no call had a price
    (a local or unknown model): unpriced is not free, so it is never summed in as 0.0."""
    prompt = completion = 0
    priced: list[float] = []
    for entry in getattr(lm, "history", [])[since:]:
        usage = entry.get("usage") or {}
        prompt += int(usage.get("prompt_tokens") or 0)
        completion += int(usage.get("completion_tokens") or 0)
        if isinstance(entry.get("cost"), (int, float)):
            priced.append(float(entry["cost"]))
    return prompt, completion, sum(priced) if priced else None


# ---------------------------------------------------------------- the protocol


@dataclass
class Row:
    law: str
    model: str
    channel: str
    run: int
    round: int
    submission: str
    verdict: str
    feedback: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None  # None: no price known for the model
    hints: list[str] = field(default_factory=list)
    certificate: str = ""


def solve_law(
    law: Law,
    channel: str,
    lm: Any,
    model: str,
    judge_cfg: JudgeConfig,
    rounds: int = 3,
    hints: list[str] | None = None,
    run: int = 0,
) -> list[Row]:
    """Up to ``rounds`` submissions for one law; stops at the first accepted one."""
    import dspy

    program = make_program(channel)
    task = f"{TASKS[channel]}\n{FORMATS[channel]}"
    hint_text = "\n".join(f"- {h}" for h in hints) if hints else "none"
    feedback = "none"
    rows: list[Row] = []
    for rnd in range(1, rounds + 1):
        since = len(getattr(lm, "history", []))
        try:
            with dspy.context(lm=lm):
                submission = str(
                    program(law=str(law), task=task, hints=hint_text, feedback=feedback).submission
                )
        except Exception as err:  # a model or adapter failure is a failed round, not a crash
            submission, cert = "", ""
            message, status = f"no answer: {type(err).__name__}: {str(err)[:200]}", "invalid"
        else:
            verdict = judge(law, submission, judge_cfg)
            message, status, cert = verdict.message, verdict.status, verdict.certificate_hash
        prompt, completion, cost = _usage(lm, since)
        row = Row(str(law), model, channel, run, rnd, submission, status, message)
        row.prompt_tokens, row.completion_tokens, row.cost = prompt, completion, cost
        row.hints, row.certificate = list(hints or []), cert
        rows.append(row)
        if status == "accepted":
            break
        feedback = message  # verbatim, as ALPS's protocol prescribes
    return rows


@dataclass
class EvalSummary:
    model: str
    channel: str
    laws: int
    runs: int
    solved: int
    pass_at_1: float
    median_completion_tokens_solved: float | None
    tokens_per_law: float
    cost: float | None  # USD over the priced calls; None when no call had a price
    unpriced_rounds: int = 0

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        if self.cost is None:
            out["cost"] = "unpriced"
        return out


def summarize(rows: list[Row], model: str, channel: str) -> EvalSummary:
    import statistics

    attempts: dict[tuple[str, int], list[Row]] = {}
    for row in rows:
        attempts.setdefault((row.law, row.run), []).append(row)
    solved = [rs for rs in attempts.values() if any(r.verdict == "accepted" for r in rs)]
    tokens = [sum(r.completion_tokens for r in rs) for rs in solved]
    laws = {law for law, _ in attempts}
    priced = [r.cost for r in rows if r.cost is not None]
    total = sum(r.prompt_tokens + r.completion_tokens for r in rows)
    return EvalSummary(
        model,
        channel,
        len(laws),
        len({run for _, run in attempts}),
        len(solved),
        len(solved) / max(1, len(attempts)),
        statistics.median(tokens) if tokens else None,
        total / max(1, len(laws)),
        sum(priced) if priced else None,
        len(rows) - len(priced),
    )


def evaluate(
    laws: list[Law],
    channel: str,
    lm: Any,
    model: str,
    judge_cfg: JudgeConfig,
    out: Path,
    runs: int = 1,
    rounds: int = 3,
    use_waypoints: bool = False,
    progress: bool = True,
) -> EvalSummary:
    """Every law × run; rows appended to ``out`` (JSONL) as they finish."""
    from rich.progress import Progress

    if channel not in TASKS:
        raise ValueError(f"unknown channel {channel!r}")
    out.parent.mkdir(parents=True, exist_ok=True)
    rows: list[Row] = []
    with Progress(disable=not progress) as bar, open(out, "a", encoding="utf-8") as fh:
        task = bar.add_task(f"{model} · {channel}", total=len(laws) * runs)
        for law in laws:
            hints = waypoints(law, judge_cfg.prover, judge_cfg.timeout_s) if use_waypoints else None
            for run in range(runs):
                new = solve_law(law, channel, lm, model, judge_cfg, rounds, hints, run)
                for row in new:
                    fh.write(json.dumps(asdict(row), ensure_ascii=False) + "\n")
                fh.flush()
                rows += new
                bar.update(task, advance=1)
    return summarize(rows, model, channel)


# ---------------------------------------------------------------- command line


def add_eval_arguments(p) -> None:
    p.add_argument("laws", type=Path, help="JSONL with a 'law' field (e.g. cert63_laws.jsonl)")
    p.add_argument("--channel", choices=sorted(TASKS), default="chain")
    p.add_argument("--model", help="any DSPy model string (default: settings.model)")
    p.add_argument("--api-base", help="OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1")
    p.add_argument("--runs", type=int, default=1, help="repeated runs per law (pass@1 over them)")
    p.add_argument("--rounds", type=int, default=3, help="submissions per law (default 3)")
    p.add_argument("--waypoints", action="store_true", help="hints from E's triviality proof")
    p.add_argument("--limit", type=int, help="first N laws")
    p.add_argument("--timeout", type=float, help="seconds per judge prover call")
    p.add_argument("--out", type=Path, required=True, help="JSONL of every round")
    p.add_argument("--no-progress", action="store_true")


def run_eval_command(args, settings) -> int:
    from veristep.alps.selftest import ensure_selftest
    from veristep.alps.sweep import read_law_file
    from veristep.core.errors import InputError
    from veristep.llm.config import make_lm

    model = args.model or settings.model
    if not model:
        raise InputError("no model: pass --model (e.g. openai/gpt-4o-mini) or set VERISTEP_MODEL")
    if args.runs < 1 or args.rounds < 1:
        raise InputError("--runs and --rounds must be at least 1")
    if not args.laws.is_file():
        raise InputError(f"law file not found: {args.laws}")
    laws = [parse_law(t) for t in read_law_file(args.laws, args.limit)]
    if not laws:
        raise InputError(f"{args.laws}: no law to evaluate (one JSON object with 'law' per line)")
    lm = make_lm(model, settings, api_base=args.api_base, cache=False)
    ensure_selftest(settings.data_dir)  # raises: no evaluation on a judge that fails its controls
    timeout = args.timeout or settings.prover_timeout_s
    cfg = JudgeConfig(timeout_s=timeout, memory_mb=settings.prover_memory_mb)
    summary = evaluate(
        laws,
        args.channel,
        lm,
        model,
        cfg,
        args.out,
        args.runs,
        args.rounds,
        args.waypoints,
        not args.no_progress,
    )
    print(json.dumps(summary.to_json()))
    return 0
