"""The Coq tools: a proof session an agent steers, lemma search, strict checking, offline search.

``coq_open`` → ``coq_run`` / ``coq_try`` / ``coq_back`` / ``coq_goals`` walk a proof the way a
person steps through it in an IDE. Every tactic passes the formal pre-scan first (no
``Admitted``, ``Axiom``, ``Notation``, ``Load``, flags...: ``coq_text.forbidden_reason``),
and a header or statement given by the client must be imports and one theorem only
(:func:`formal.accept.forbidden_command`). No tool but ``coq_check`` ever says "proved": it runs
the one strict acceptance path (a clean compile against the reference statement and a
``coqchk`` axiom audit). ``coq_run`` only reports that no goals are left.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from veristep.formal.backends.base import Theorem
from veristep.formal.backends.coq import CoqBackend
from veristep.formal.backends.coqtop import CoqCrashed, CoqtopSession
from veristep.tools.coq_session import MAX_STEPS, CoqSession, CoqSessions
from veristep.tools.registry import Call, ToolError, ToolSpec, budget, obj, text

STATEMENT_CHARS = 4_000
HEADER_CHARS = 4_000
TACTIC_CHARS = 1_000
MAX_TRIES = 16  # candidates in one coq_try: the search's batch size

_SESSION = text("a session id from coq_open", 40, minLength=1)
_NAME = text("a miniF2F-rocq theorem name, e.g. mathd_algebra_412", 120, minLength=1)


@dataclass
class StoppableBackend(CoqBackend):
    """A backend that starts no coqtop once stopped: a cancelled search must not restart the
    process its cancellation killed and carry on in its thread."""

    stopped: threading.Event = field(default_factory=threading.Event, repr=False)

    def _session_for(self, theorem: Theorem) -> CoqtopSession:
        if self.stopped.is_set():
            raise CoqCrashed("stopped: the call was cancelled or ran out of budget")
        try:
            session = super()._session_for(theorem)
        except OSError:
            if not self.stopped.is_set():
                raise
            # stop() closed the pipes of the coqtop this thread was starting
            raise CoqCrashed("stopped: the call was cancelled or ran out of budget") from None
        if self.stopped.is_set():
            # stop() ran while this thread was starting coqtop (it takes seconds): the process
            # it started after stop()'s close would otherwise outlive the cancellation.
            self.close()
            raise CoqCrashed("stopped: the call was cancelled or ran out of budget")
        return session

    def stop(self) -> None:
        self.stopped.set()
        self.close()


def sessions(call: Call) -> CoqSessions:
    return call.state.setdefault("coq", CoqSessions())


def _session(tool: str, call: Call, sid: str) -> CoqSession:
    session = sessions(call).get(sid)
    if session is None:
        raise ToolError(tool, "no open session has this id (it may have been closed)", "session")
    return session


def benchmark_theorem(name: str) -> Theorem:
    """The miniF2F-rocq theorem ``name`` (test or valid split); an unknown name says so."""
    from veristep.core.errors import InputError, did_you_mean
    from veristep.formal.bench import load_minif2f

    pool = [t for s in ("test", "valid") for t in load_minif2f(s, only_compiling=False)]
    for theorem in pool:
        if theorem.name == name:
            return theorem
    raise InputError(
        f"unknown miniF2F theorem {name!r}", hint=did_you_mean(name, [t.name for t in pool])
    )


def user_theorem(tool: str, statement: str, header: str) -> Theorem:
    """A theorem from client text, pre-scanned like the acceptance path's candidates."""
    from veristep.formal.accept import Refused, forbidden_command, is_import, judged_statement
    from veristep.formal.coq_lex import sentences
    from veristep.formal.coq_text import declared_axioms, theorem_name

    try:
        head_parts = sentences(header) if header.strip() else []
        parts, at = judged_statement(statement)
    except (ValueError, Refused) as exc:
        raise ToolError(tool, str(exc), "statement") from None
    bad = next((s for s in head_parts if not is_import(s)), None)
    if bad is not None:
        raise ToolError(
            tool, f"only Require/Import/Open lines may be given: {bad.text[:80]!r}", "header"
        )
    if len(parts) != 1 or at != 0:
        raise ToolError(tool, "give exactly one 'Theorem NAME : TYPE.' sentence", "statement")
    for where, group in (("header", head_parts), ("statement", parts)):
        reason = forbidden_command(group)
        if reason is not None:
            raise ToolError(tool, f"refused before Coq: {reason}", where)
    name = theorem_name(statement.strip())
    if name is None:
        raise ToolError(tool, "expected 'Theorem NAME : TYPE.'", "statement")
    return Theorem(name, header, statement.strip(), frozenset(declared_axioms(header)))


# -- coq_open / coq_goals / coq_close -----------------------------------------------------------
def coq_open(args: dict[str, Any], call: Call) -> dict[str, Any]:
    if bool(args.get("name")) == bool(args.get("statement")):
        raise ToolError("coq_open", "give either 'name' (a benchmark theorem) or 'statement'")
    if args.get("name"):
        theorem = benchmark_theorem(args["name"])
    else:
        theorem = user_theorem("coq_open", args["statement"], args.get("header") or "")
    settings = call.settings.replace(
        coq_tactic_timeout_s=min(call.settings.coq_tactic_timeout_s, max(1.0, call.left))
    )
    call.report(0, None, "starting coqtop")
    try:
        session = sessions(call).open(theorem, settings)
    except CoqCrashed as exc:
        raise ToolError("coq_open", f"Coq rejects the statement: {str(exc)[:400]}") from None
    return {**session.view(), "statement": theorem.statement, "header": theorem.header}


COQ_OPEN = ToolSpec(
    "coq_open",
    "Open a Coq proof session: a miniF2F-rocq theorem by 'name', or your own 'statement' "
    "('Theorem t : forall n : nat, n + 0 = n.') with an optional 'header' of Require/Import/"
    "Open lines. Returns the session id and the goals. Lia, Lra, Psatz and Hammer's tactics "
    "are loaded.",
    obj(
        {
            "name": _NAME,
            "statement": text("a Coq theorem statement", STATEMENT_CHARS),
            "header": text("Require/Import/Open Scope lines for the statement", HEADER_CHARS),
        },
        [],
    ),
    coq_open,
    budget_s=120.0,
    long=True,
)


def coq_goals(args: dict[str, Any], call: Call) -> dict[str, Any]:
    return _session("coq_goals", call, args["session"]).view()


COQ_GOALS = ToolSpec(
    "coq_goals",
    "The current goals of a Coq session and the tactics accepted so far.",
    obj({"session": _SESSION}, ["session"]),
    coq_goals,
    budget_s=5.0,
)


def coq_close(args: dict[str, Any], call: Call) -> dict[str, Any]:
    return {"session": args["session"], "closed": sessions(call).close(args["session"])}


COQ_CLOSE = ToolSpec(
    "coq_close",
    "Close a Coq session and its coqtop process.",
    obj({"session": _SESSION}, ["session"]),
    coq_close,
    budget_s=10.0,
)


# -- coq_run / coq_try / coq_back -------------------------------------------------------------
def _attempt(session: CoqSession, tactic: str, call: Call) -> Any:
    """One tactic after the session's line; the backend pre-scans it before Coq sees it."""
    call.checkpoint()
    if len(session.tactics) >= MAX_STEPS:
        raise ToolError("coq_run", f"a session holds at most {MAX_STEPS} tactics")
    goals_before = session.goal_count
    call.on_cancel(session.backend.close)  # a cancelled step kills coqtop; the next one replays
    return session.backend.apply(session.theorem, list(session.tactics), tactic, goals_before)


def _outcome(attempt: Any) -> dict[str, Any]:
    signals = attempt.signals.to_json()
    return {
        "tactic": attempt.text,
        "ok": attempt.signals.ok,
        "error": signals.pop("message") or None,
        "signals": {
            k: signals[k]
            for k in ("syntax_ok", "type_ok", "goals_before", "goals_after", "failure", "no_op")
        },
        "goals": signals.get("goals_text") or None,
        "seconds": round(attempt.seconds, 3),
    }


def coq_run(args: dict[str, Any], call: Call) -> dict[str, Any]:
    session = _session("coq_run", call, args["session"])
    with session.lock:
        attempt = _attempt(session, args["tactic"].strip(), call)
        out = _outcome(attempt)
        if attempt.signals.ok:
            session.tactics.append(attempt.text)
            session.goals.append(attempt.signals.goals_text or "No more goals.")
        out.update(session.view())
        if out["ok"] and session.goal_count == 0:
            # Not "proved": only coq_check says that, after the strict acceptance path.
            out["proof_file"] = session.proof_file()
            out["next"] = "no goals left: send proof_file to coq_check for the strict verdict"
    return out


COQ_RUN = ToolSpec(
    "coq_run",
    "Run one tactic sentence ('intros x y h0 h1.', 'lra.', '- ring.') in a Coq session. On "
    "success: the new goals; on failure: Coq's error and the verifier signals (syntax_ok, "
    "type_ok, goals_before/after, failure class), and the session is unchanged. When no goals "
    "are left the result carries proof_file: send it to coq_check.",
    obj(
        {"session": _SESSION, "tactic": text("one tactic sentence", TACTIC_CHARS, minLength=1)},
        ["session", "tactic"],
    ),
    coq_run,
    budget_s=60.0,
)


def coq_try(args: dict[str, Any], call: Call) -> dict[str, Any]:
    session = _session("coq_try", call, args["session"])
    outcomes = []
    with session.lock:
        tactics = [t.strip() for t in args["tactics"]]
        for i, tactic in enumerate(tactics):
            call.report(i, len(tactics), f"trying {tactic[:40]}")
            outcomes.append(_outcome(_attempt(session, tactic, call)))
    return {
        **session.view(),
        "tried": outcomes,
        "note": "the session is unchanged: coq_run the tactic you choose",
    }


COQ_TRY = ToolSpec(
    "coq_try",
    f"Try up to {MAX_TRIES} candidate tactics from the current state of a Coq session, each "
    "on its own, in the session's warm coqtop; returns every candidate's outcome (the goals it "
    "leaves, or Coq's error and the signals) without changing the session.",
    obj(
        {
            "session": _SESSION,
            "tactics": {
                "type": "array",
                "items": text("one tactic sentence", TACTIC_CHARS, minLength=1),
                "minItems": 1,
                "maxItems": MAX_TRIES,
            },
        },
        ["session", "tactics"],
    ),
    coq_try,
    budget_s=120.0,
    long=True,
)


def coq_back(args: dict[str, Any], call: Call) -> dict[str, Any]:
    session = _session("coq_back", call, args["session"])
    steps = args.get("steps") or 1
    with session.lock:
        if steps > len(session.tactics):
            raise ToolError("coq_back", f"only {len(session.tactics)} tactics to undo", "steps")
        del session.tactics[len(session.tactics) - steps :]
        del session.goals[len(session.goals) - steps :]
        return session.view()


COQ_BACK = ToolSpec(
    "coq_back",
    "Undo the last tactic(s) of a Coq session (default 1); returns the goals there.",
    obj(
        {"session": _SESSION, "steps": {"type": "integer", "minimum": 1, "maximum": MAX_STEPS}},
        ["session"],
    ),
    coq_back,
    budget_s=10.0,
)


# -- coq_search / coq_check / prove -----------------------------------------------------------
def lemma_index(call: Call) -> Any:
    """The harvested lemma index (built by Coq once, cached in the data directory)."""
    from veristep.formal.retriever import cached_index

    index = call.state.get("lemma_index")
    if index is None:
        call.report(0, None, "loading the lemma index")
        index = cached_index(call.settings.data_dir / "formal")
        call.state["lemma_index"] = index
    return index


def coq_search(args: dict[str, Any], call: Call) -> dict[str, Any]:
    from veristep.formal.state import ProofState

    query = args.get("query") or ""
    k = args.get("k") or 8
    if args.get("session"):
        # The session's first goal is ranked by its shape, its hypotheses and the query's words
        # only add keywords (read as one text, they would make one odd proposition).
        session = _session("coq_search", call, args["session"])
        state = ProofState.from_goals(session.theorem, session.goals[-1])
        found = lemma_index(call).retrieve(
            state.conclusion, k=k, hypotheses=state.hypotheses, keywords=query
        )
    elif query.strip():
        found = lemma_index(call).retrieve(query, k=k)
    else:
        raise ToolError("coq_search", "give a query or a session whose goal to search for")
    return {
        "lemmas": [
            {"name": lem.name, "statement": lem.statement, "module": lem.module} for lem in found
        ]
    }


COQ_SEARCH = ToolSpec(
    "coq_search",
    "Lemma names from Coq's standard library (Reals, Arith, ZArith...) that match a query or "
    "a session's current goal: a goal is ranked by the shape of the lemmas' conclusions, words "
    "by token overlap; each with its statement.",
    obj(
        {
            "query": text("words or a goal, e.g. 'Rabs triangle'", 2_000),
            "session": _SESSION,
            "k": {"type": "integer", "minimum": 1, "maximum": 30},
        },
        [],
    ),
    coq_search,
    budget_s=300.0,
    long=True,
)


def coq_check(args: dict[str, Any], call: Call) -> dict[str, Any]:
    from veristep.formal.strict import check_file

    expected = benchmark_theorem(args["expect"]) if args.get("expect") else None
    call.report(0, None, "compiling and auditing")
    verdict = check_file(
        args["proof"],
        expected,
        timeout_s=max(5.0, call.left),
        memory_mb=call.settings.coq_memory_mb,
        data_dir=call.settings.data_dir,
    )
    out = verdict.to_json()
    out["proved"] = verdict.accepted
    out["expect"] = args.get("expect")
    return out


COQ_CHECK = ToolSpec(
    "coq_check",
    "The strict verdict on a whole Coq file (the only tool that ever says proved): compiled as "
    "its own library, its theorem checked against the reference statement in a clean "
    "environment (with 'expect': the miniF2F-rocq theorem of that name), and every axiom "
    "audited by coqchk. Admitted, new axioms, redefined notations and the like are refused.",
    obj(
        {
            "proof": text(
                "the whole .v file: imports, the theorem and its proof", 200_000, minLength=1
            ),
            "expect": _NAME,
            "budget_s": budget(120.0, 300.0),
        },
        ["proof"],
    ),
    coq_check,
    budget_s=120.0,
    long=True,
)


def prove(args: dict[str, Any], call: Call) -> dict[str, Any]:
    from veristep.formal.agents import Critic, Retriever, Strategist, Tactician
    from veristep.formal.search import Agents, Phase, ProofSearch

    if bool(args.get("name")) == bool(args.get("statement")):
        raise ToolError("prove", "give either 'name' (a benchmark theorem) or 'statement'")
    theorem = (
        benchmark_theorem(args["name"])
        if args.get("name")
        else user_theorem("prove", args["statement"], args.get("header") or "")
    )
    index = lemma_index(call)
    agents = Agents(Strategist(None), Retriever(index, None), Critic(None), Tactician(None))
    backend = StoppableBackend(call.settings)
    call.on_cancel(backend.stop)  # a cancelled search kills its coqtop at once, for good
    call.report(0, None, "searching")
    tried = 0

    def on_attempt(phase: Phase, attempt: Any) -> None:
        nonlocal tried
        tried += 1
        call.report(tried, None, f"{phase}: {attempt.text[:60]}")
        call.event({"event": "attempt", "phase": phase, "n": tried, **attempt.to_json()})

    try:
        search = ProofSearch(
            theorem,
            backend,
            agents,
            n=args.get("n") or 64,
            mcts_iterations=args.get("mcts_iterations") or 0,
            budget_s=max(1.0, call.left - 1.0),
            on_attempt=on_attempt,
        )
        result = search.run()
    finally:
        backend.close()
    call.checkpoint()
    out = result.to_json()
    out.pop("solved", None)  # "solved" here is the search's belief; the strict verdict follows
    out["found"] = result.proof is not None
    if result.proof is not None:
        from veristep.formal.backends.coq import TACTIC_PRELUDE
        from veristep.formal.strict import build_file

        out["proof_file"] = build_file(theorem, result.proof, TACTIC_PRELUDE)
        out["next"] = "send proof_file to coq_check for the strict verdict"
    return out


PROVE = ToolSpec(
    "prove",
    "Offline proof search (no model): a portfolio of closing tactics, Best-of-N scripts and, "
    "with mcts_iterations, a tree search, within budget_s. Returns the proof it found as a "
    "file for coq_check (found is not proved until coq_check accepts it).",
    obj(
        {
            "name": _NAME,
            "statement": text("a Coq theorem statement", STATEMENT_CHARS),
            "header": text("Require/Import/Open Scope lines for the statement", HEADER_CHARS),
            "n": {"type": "integer", "minimum": 1, "maximum": 64},
            "mcts_iterations": {"type": "integer", "minimum": 0, "maximum": 100},
            "budget_s": budget(60.0, 600.0),
        },
        [],
    ),
    prove,
    budget_s=60.0,
    long=True,
)

TOOLS = (COQ_OPEN, COQ_GOALS, COQ_RUN, COQ_TRY, COQ_BACK, COQ_CLOSE, COQ_SEARCH, COQ_CHECK, PROVE)
