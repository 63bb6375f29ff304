"""``veristep prove``: formal proof search on a statement, a ``.v`` file or a benchmark.

Examples::

    veristep prove "Theorem t : forall n : nat, n + 0 = n." --header "Require Import Arith."
    veristep prove theorem.v --n 32 --mcts-iterations 40
    veristep prove --bench minif2f-rocq --split test --out runs/test.jsonl --resume
    veristep prove --bench minif2f-rocq --workers 8 --resume     # or --ray (RAY_ADDRESS: a cluster)
    veristep prove --check proof.v [--expect aime_1983_p1]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from veristep.core.batch_lines import add_backend_arguments
from veristep.core.errors import InputError
from veristep.core.settings import Settings

HELP = "verifier-guided formal proof search (Coq; Lean 4 optional) and strict proof checking"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "target", nargs="?", help="a Coq statement 'Theorem n : ... .' or a .v file"
    )
    parser.add_argument("--header", default="", help="imports/scopes for a statement given inline")
    parser.add_argument("--check", metavar="FILE.v", help="strict verdict on a finished proof")
    parser.add_argument(
        "--expect", metavar="NAME", help="with --check: the miniF2F theorem it must prove"
    )
    parser.add_argument("--bench", choices=["minif2f-rocq"], help="run a benchmark")
    parser.add_argument("--split", choices=["test", "valid"], default="test")
    parser.add_argument("--limit", type=int, help="only the first N benchmark theorems (by name)")
    parser.add_argument("--names", help="comma-separated benchmark theorem names")
    parser.add_argument("--backend", choices=["coq", "lean"], default="coq")
    parser.add_argument("--n", type=int, default=64, help="phase-1 whole-proof candidates")
    parser.add_argument("--mcts-iterations", type=int, default=40, help="0 disables phase 2")
    parser.add_argument("--expansion-k", type=int, default=12, help="tactics per MCTS expansion")
    parser.add_argument(
        "--model",
        help="DSPy model string for the agents (default: VERISTEP_MODEL, else offline); the "
        "built-in tactics always run first",
    )
    parser.add_argument("--theorem-budget", type=float, default=60.0, help="seconds per theorem")
    parser.add_argument("--total-budget", type=float, help="seconds for a whole benchmark run")
    parser.add_argument("--tactic-timeout", type=float, help="Coq Timeout per sentence (seconds)")
    parser.add_argument("--out", type=Path, help="JSONL output (benchmarks)")
    parser.add_argument(
        "--resume", action="store_true",
        help="skip theorems already in --out or in its result store (OUT with .sqlite)",
    )  # fmt: skip
    add_backend_arguments(parser, "benchmark", "theorems proved at once")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")


def run(args: argparse.Namespace, settings: Settings) -> int:
    if args.tactic_timeout is not None:
        if args.tactic_timeout <= 0:
            raise InputError(f"--tactic-timeout must be positive, got {args.tactic_timeout}")
        settings = settings.replace(coq_tactic_timeout_s=args.tactic_timeout)
    if args.backend == "lean":
        from veristep.formal.backends.lean import require_lean

        version = require_lean()
        # The REPL client and its batching exist (veristep.formal.backends.lean), but the offline
        # tactic portfolio and agents speak Coq; refusing is better than searching with Coq tactics.
        raise InputError(
            f"found {version}, but proof search with --backend lean is not wired yet; "
            "use the LeanBackend library class with a REPL command"
        )
    if args.check:
        return _check(args, settings)
    if args.bench:
        return _bench(args, settings)
    if not args.target:
        raise InputError("give a statement, a .v file, --bench or --check")
    return _prove_one(args, settings)


def _read_coq_file(path: Path) -> str:
    """The text of a .v file; a missing or non-UTF-8 file is an input error naming it."""
    if not path.is_file():
        raise InputError(f"file not found: {path}")
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{path} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from None


# -- --check -------------------------------------------------------------------------------
def _check(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.formal.strict import check_file

    path = Path(args.check)
    source = _read_coq_file(path)
    expected = _bench_theorem(args.expect, None) if args.expect else None
    verdict = check_file(
        source, expected, memory_mb=settings.coq_memory_mb, data_dir=settings.data_dir
    )
    if not verdict.accepted and verdict.reason.startswith("no Theorem/Lemma found"):
        # Nothing to judge is an input error (exit 2), not a rejected proof.
        raise InputError(f"{path}: {verdict.reason}", source=source[:200], position=0)
    if args.json:
        print(json.dumps({"file": str(path), **verdict.to_json()}))
    else:
        mark = "ACCEPTED" if verdict.accepted else "REJECTED"
        print(f"{mark}: {verdict.reason}")
        if verdict.axioms:
            print(f"  axioms: {', '.join(verdict.axioms)}")
    return 0


# -- one theorem ---------------------------------------------------------------------------
def _prove_one(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.formal.search import STATEMENT_REJECTED

    theorem = _target_theorem(args.target, args.header)
    backend, agents = _setup(args, settings)
    try:
        result = _search(theorem, backend, agents, args).run()
    finally:
        backend.close()
    if result.verdict.startswith(STATEMENT_REJECTED):
        raise InputError(
            result.verdict.split("statement does not open a proof: ")[-1].strip("[]'\""),
            source=theorem.statement,
            position=0,
            length=len(theorem.statement),
        )
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    if agents.has_model:  # what the model cost, said even when its answers were unusable
        traces = [a.trace for a in agents.parts()]
        calls = sum(t.model_calls + t.fallbacks for t in traces)
        print(
            f"model: {calls} requests ({sum(t.fallbacks for t in traces)} unusable), "
            f"tokens: {result.tokens}"
        )
    if result.solved:
        print(
            f"PROVED {theorem.name} by {result.phase} in {result.seconds:.1f} s "
            f"({result.coq_calls} Coq calls; {result.verdict})"
        )
        print(f"{theorem.statement.strip()}\nProof.\n{result.proof}\nQed.")
    else:
        failures = ", ".join(f"{k} {v}" for k, v in sorted(result.failures.items()))
        print(
            f"NOT PROVED {theorem.name} in {result.seconds:.1f} s ({result.coq_calls} Coq calls,"
            f" {result.attempts} attempts; failures by signal: {failures})"
        )
    return 0


def _target_theorem(target: str, header: str):
    from veristep.formal.backends.base import Theorem
    from veristep.formal.coq_text import declared_axioms, theorem_name
    from veristep.formal.strict import split_proof_file

    path = Path(target)
    if target.endswith(".v"):
        file_header, statement, _ = split_proof_file(_read_coq_file(path))
        header = file_header
    else:
        statement = target.strip()
    name = theorem_name(statement)
    if name is None:
        raise InputError(
            "expected 'Theorem NAME : STATEMENT.'",
            source=statement,
            position=0,
            length=min(len(statement), 12),
        )
    if not statement.endswith("."):
        raise InputError(
            "the statement must end with a period", source=statement, position=len(statement) - 1
        )
    return Theorem(name, header, statement, frozenset(declared_axioms(header)))


def _bench_theorem(name: str, split: str | None):
    from veristep.core.errors import did_you_mean
    from veristep.formal.bench import load_minif2f

    pool = [t for s in ("test", "valid") for t in load_minif2f(s, only_compiling=False)]
    for theorem in pool:
        if theorem.name == name and (split is None or theorem.split == split):
            return theorem
    hint = did_you_mean(name, [t.name for t in pool])
    raise InputError(f"unknown miniF2F theorem {name!r}", hint=hint)


# -- benchmark -----------------------------------------------------------------------------
def _bench(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.core.batch import backend_for
    from veristep.core.interrupts import Interrupted
    from veristep.formal.bench import (
        BenchSearch,
        load_minif2f,
        read_rows,
        run_benchmark,
        store_path,
        summarize,
    )

    if args.workers < 1:
        raise InputError(f"--workers must be at least 1, got {args.workers}")
    theorems = load_minif2f(args.split)
    if args.names:
        wanted = {n.strip() for n in args.names.split(",") if n.strip()}
        unknown = wanted - {t.name for t in theorems}
        if unknown:
            raise InputError(f"not in {args.bench} {args.split}: {', '.join(sorted(unknown))}")
        theorems = [t for t in theorems if t.name in wanted]
    theorems.sort(key=lambda t: t.name)
    if args.limit is not None:
        theorems = theorems[: args.limit]
    out = args.out or settings.data_dir / "formal" / f"{args.bench}_{args.split}.jsonl"
    search = BenchSearch(
        settings, args.model or settings.model, args.n, args.mcts_iterations, args.expansion_k,
        args.theorem_budget,
    )  # fmt: skip
    backend = backend_for(args.ray, args.workers)
    try:
        run_benchmark(
            theorems, search, out, resume=args.resume, total_budget_s=args.total_budget,
            backend=backend, salt=search.salt(), progress=not args.json,
        )  # fmt: skip
    except KeyboardInterrupt:
        raise Interrupted(
            f"every finished theorem is in {out} and {store_path(out)}: "
            "run the same command with --resume to go on"
        ) from None
    finally:
        backend.close()
        from veristep.formal.bench import close_warm

        close_warm()
    rows = read_rows(out, [t.name for t in theorems])
    summary = summarize(rows, total=len(theorems))
    summary.update(
        bench=args.bench, split=args.split, theorem_budget_s=args.theorem_budget, out=str(out)
    )
    if args.json:
        print(json.dumps(summary))
    else:
        _print_table(summary)
    return 0


def _print_table(summary: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"{summary['bench']} {summary['split']}: {summary['run']}/"
        f"{summary['theorems']} run, {summary['theorem_budget_s']:.0f} s per theorem"
    )
    table.add_column("system")
    table.add_column("solved", justify="right")
    table.add_column("rate", justify="right")
    for name, row in summary["systems"].items():
        table.add_row(name, str(row["solved"]), f"{100 * row['rate']:.1f} %")
    Console().print(table)
    calls, tokens = summary["coq_calls"], summary["tokens"]
    per = calls / summary["run"] if summary["run"] else 0.0
    print(
        f"seconds {summary['seconds']}, Coq calls {calls} ({per:.1f} per theorem), tokens {tokens}"
    )
    print(f"unsolved by dominant signal: {summary['unsolved_by_dominant_signal']}")
    print(f"per-theorem JSONL: {summary['out']}")


# -- shared set-up -------------------------------------------------------------------------
def _setup(args: argparse.Namespace, settings: Settings):
    from veristep.formal.agents import Critic, Retriever, Strategist, Tactician
    from veristep.formal.backends.coq import CoqBackend
    from veristep.formal.retriever import cached_index
    from veristep.formal.search import Agents

    model = args.model or settings.model  # --model, else VERISTEP_MODEL
    lm = _make_lm(model, settings) if model else None
    index = cached_index(settings.data_dir / "formal")
    agents = Agents(Strategist(lm), Retriever(index, lm), Critic(lm), Tactician(lm))
    return CoqBackend(settings), agents


def _search(theorem, backend, agents, args: argparse.Namespace):
    from veristep.formal.search import ProofSearch

    return ProofSearch(
        theorem,
        backend,
        agents,
        n=args.n,
        mcts_iterations=args.mcts_iterations,
        expansion_k=args.expansion_k,
        budget_s=args.theorem_budget,
    )


def _make_lm(model: str, settings: Settings) -> Any:
    from veristep.llm.config import make_lm

    return make_lm(model, settings)
