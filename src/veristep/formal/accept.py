"""The one acceptance path for a finished Coq proof, built so that the candidate cannot fool it.

Nothing the candidate prints is read. The candidate is compiled as a library of its own
(``VsCand.VsCandidate``); then a small *trusted* file of ours elaborates the reference statement
in a clean environment — the reference header, compiled as its own library ``VsRef.VsHeader``,
and nothing else — *before* it loads the candidate, and only then asks the kernel to accept
``VsCand.VsCandidate.<name>`` at that type. No notation, redefinition or look-alike symbol in the
candidate can change what the statement means, because the statement never sees them. Finally
``coqchk`` (Coq's independent kernel checker) re-checks both libraries and lists every axiom in
their environment by fully qualified name; each must be one the *reference environment* itself
has (the standard library's axioms for the real numbers, the reference header's own postulates),
computed once per header by ``coqchk`` on a trusted baseline file. A candidate cannot add a name
under ``Coq.`` or ``VsRef.``: its declarations all live under ``VsCand.``.

A text pre-scan with Coq's own comment and string rules refuses commands that step outside the
file (``Load``, ``Add LoadPath``, ``Declare ML Module``, ``Redirect``...), unsafe checking flags,
abandoned proofs and postulates before Coq runs; the kernel checks above would catch the
postulates anyway, the scan only gives the clearer reason.
"""

from __future__ import annotations

import atexit
import re
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from veristep.core.errors import VeristepError
from veristep.formal.backends.base import StrictVerdict, Theorem
from veristep.formal.coq_lex import Sentence, mask, normalized, sentences
from veristep.formal.signals import FailureKind, classify_error

# The standard library's axioms for the real numbers, by fully qualified name. They are allowed
# because the baseline environment (which loads Reals) has them; listed here for reference.
REAL_AXIOMS: frozenset[str] = frozenset(
    {
        "Coq.Reals.ClassicalDedekindReals.sig_forall_dec",
        "Coq.Reals.ClassicalDedekindReals.sig_not_dec",
        "Coq.Logic.FunctionalExtensionality.functional_extensionality_dep",
        "Coq.Logic.Classical_Prop.classic",
    }
)

# Installed libraries a candidate may load with ``From ROOT Require``.
INSTALLED_ROOTS: frozenset[str] = frozenset({"Coq", "Hammer", "Coquelicot", "Ltac2", "mathcomp"})

# What every reference environment also loads: the libraries the search's tactics come from.
# Their axioms (by full name) are the allowlist, together with the reference header's own.
BASELINE_IMPORTS = (
    "From Coq Require Import Reals Lia Lra Psatz Zify ZArith QArith Field Ring Znumtheory.\n"
    "From Coq Require Import Classical_Prop FunctionalExtensionality.\n"
    "From Hammer Require Import Tactics.\n"
)

MAX_CANDIDATE_CHARS = 200_000
_THEOREM_WORDS = ("Theorem", "Lemma", "Fact", "Remark", "Corollary", "Proposition", "Example")
_IMPORT_HEADS = ("Require", "From", "Import", "Export", "Open", "Close", "Local", "Global")

# Words that never belong in a candidate outside the reference header: they abandon a proof,
# postulate, reach outside the file, or rewind the document.
_FORBIDDEN_WORDS = frozenset(
    {
        "Admitted", "admit", "give_up", "Abort", "Admit", "Axiom", "Axioms", "Parameter",
        "Parameters", "Conjecture", "Load", "Cd", "Drop", "Redirect", "Extraction", "Register",
        "Primitive", "bypass_check", "native_compute", "native_cast_no_check", "Back", "BackTo",
        "Reset", "Undo", "Restart",
    }
)  # fmt: skip
_SECTION_LOCAL = frozenset({"Context", "Variable", "Variables", "Hypothesis", "Hypotheses"})
_UNSAFE_FLAG = re.compile(r"\b(Guard|Positivity|Universe)\s+Checking\b|\bTyping\s+Flags\b")
_ADD_PATH = re.compile(r"\bAdd\s+(Rec\s+)?(LoadPath|ML)\b")
_DECLARE = re.compile(r"\bDeclare\s+(?!Scope\b|Custom\b|Reduction\b|Left\b|Right\b)(\w+)")
_FROM = re.compile(r"^From\s+([^\W\d][\w']*)")


@dataclass(frozen=True)
class Reference:
    """The trusted side: a header and a statement ``Theorem NAME BINDERS : TYPE.``."""

    name: str
    header: str
    statement: str
    postulates: frozenset[str] = frozenset()  # what the header may postulate (short names)
    note: str = ""  # said when the candidate's theorem does not check against the statement
    definitions: tuple[str, ...] = ()  # a bare check's own Definition/Fixpoint sentences

    @classmethod
    def of(cls, theorem: Theorem) -> Reference:
        from veristep.formal.coq_text import theorem_name

        name = theorem_name(theorem.statement) or theorem.name
        return cls(name, theorem.header, theorem.statement, theorem.allowed_axioms)


class Refused(VeristepError):
    """A reason to reject before or without Coq (the verdict's failure kind travels with it)."""

    def __init__(
        self,
        reason: str,
        failure: FailureKind = FailureKind.FORBIDDEN,
        axioms: list[str] | None = None,
    ) -> None:
        super().__init__(reason)
        self.failure = failure
        self.axioms = axioms or []


# -- reading files ---------------------------------------------------------------------------
def is_import(sentence: Sentence) -> bool:
    """Require/Import/Export/scope commands: what a header may hold without declaring anything."""
    head = sentence.head
    if not head or head[0] not in _IMPORT_HEADS:
        return False
    if head[0] in ("Local", "Global"):
        return len(head) > 1 and head[1] in ("Open", "Close")
    if head[0] == "From":
        return "Require" in head
    return True


def judged_statement(text: str) -> tuple[list[Sentence], int]:
    """The file's sentences and the index of the theorem it proves (its last Theorem/Lemma)."""
    try:
        parts = sentences(text)
    except ValueError as exc:
        raise Refused(f"{exc}: the file is not valid Coq") from None
    starts = [i for i, s in enumerate(parts) if s.head and s.head[0] in _THEOREM_WORDS]
    if not starts:
        raise Refused("no Theorem/Lemma found in the file", FailureKind.SYNTAX)
    return parts, starts[-1]


def reference_of_file(text: str) -> Reference:
    """For a bare check: the file's own statement, with only the file's imports and scopes as
    its environment (everything else in the file is the candidate's and cannot shape it)."""
    parts, at = judged_statement(text)
    statement = parts[at].text
    name = parts[at].head[1] if len(parts[at].head) > 1 else ""
    if not name:
        raise Refused("the theorem has no name", FailureKind.SYNTAX)
    header = "\n".join(s.text for s in parts[:at] if is_import(s))
    definitions = tuple(s.text for s in parts[:at] if _is_plain_definition(s))
    own = [s.head[1] for s in parts[:at] if len(s.head) > 1 and not is_import(s)]
    note = (
        f" (a bare check reads the statement with the file's imports and its own plain "
        f"Definitions/Fixpoints of new names only, among {', '.join(own[:3])}; use --expect "
        "NAME for a benchmark statement)"
        if own
        else ""
    )
    return Reference(name, header, statement, note=note, definitions=definitions)


def _is_plain_definition(sentence: Sentence) -> bool:
    """``Definition``/``Fixpoint`` with a body in the sentence itself (no proof mode), under an
    ASCII name: a non-ASCII name can pass for a standard one (a Cyrillic ``О`` for ``O``)."""
    head = sentence.head
    return (
        len(head) > 1
        and head[0] in ("Definition", "Fixpoint")
        and head[1].isascii()
        and ":=" in sentence.code
    )


def statement_type(statement: str) -> str:
    """``forall BINDERS, TYPE`` (or ``TYPE``) of ``Theorem NAME BINDERS : TYPE.``, one term.

    >>> statement_type("Theorem t (x : nat) {y} : x = x.")
    'forall (x : nat) {y}, (x = x)'
    >>> statement_type("Lemma u: 1 = 1 .")
    '(1 = 1)'
    """
    code = mask(statement, strings=False)
    if code is None:
        raise Refused("unterminated comment or string in the statement", FailureKind.SYNTAX)
    code = " ".join(code.split())
    match = re.match(r"^(?:#\[[^\]]*\]\s*)?(?:Local\s+|Global\s+)?\w+\s+[^\W\d][\w']*", code)
    if match is None or not code.endswith("."):
        raise Refused("expected 'Theorem NAME : STATEMENT.'", FailureKind.SYNTAX)
    body = code[match.end() : -1]
    colon = _top_level_colon(body)
    if colon is None:
        raise Refused("no ':' before the statement", FailureKind.SYNTAX)
    binders, typ = body[:colon].strip(), body[colon + 1 :].strip()
    inner = mask(typ + " " + binders)
    if inner is None or re.search(r"(?<!\.)\.(?=\s|$)", inner):
        raise Refused("the statement holds more than one sentence", FailureKind.FORBIDDEN)
    return f"forall {binders}, ({typ})" if binders else f"({typ})"


def _top_level_colon(body: str) -> int | None:
    depth = 0
    for i, ch in enumerate(body):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ":" and depth == 0 and body[i + 1 : i + 2] not in ("=", ":", ">"):
            return i
    return None


def forbidden_command(parts: list[Sentence]) -> str | None:
    """Why these candidate sentences may not be compiled, or None."""
    open_blocks: list[str] = []
    for sentence in parts:
        code, head = sentence.code, sentence.head
        for word in sentence.words:
            if word in _FORBIDDEN_WORDS:
                return f"forbidden command or tactic {word!r}"
        if _UNSAFE_FLAG.search(code):
            return "an unsafe checking flag"
        if _ADD_PATH.search(code):
            return "'Add LoadPath'/'Add ML Path': only the installed libraries may be loaded"
        declare = _DECLARE.search(code)
        if declare:
            return f"'Declare {declare.group(1)}'"
        root = _FROM.match(" ".join(_strip_attributes(code).split()))
        if root and root.group(1) not in INSTALLED_ROOTS:
            return f"'From {root.group(1)}': only the installed libraries may be loaded"
        if not head:
            continue
        if head[0] in ("Section", "Module") and ":=" not in code:
            open_blocks.append(head[0])
        elif head[0] == "End" and open_blocks:
            open_blocks.pop()
        elif head[0] in _SECTION_LOCAL and "Section" not in open_blocks:
            return f"'{head[0]}' outside a section postulates it"
    return None


def _strip_attributes(code: str) -> str:
    return re.sub(r"#\[[^\]]*\]", " ", code).strip()


# -- the reference environment ---------------------------------------------------------------
@dataclass
class _Environment:
    folder: Path  # holds ref/VsHeader.vo
    allowed: frozenset[str]  # axioms of the baseline environment, fully qualified
    declares: bool  # the header declares things (so candidates must reuse its library)
    sentences: list[str]  # the header's sentences, normalized (the prefix a candidate repeats)


_ENVIRONMENTS: dict[str, _Environment] = {}
_ENV_LOCK = threading.Lock()
_ROOT: list[Path] = []


def _scratch_root() -> Path:
    if not _ROOT:
        root = Path(tempfile.mkdtemp(prefix="vs_accept_"))
        atexit.register(shutil.rmtree, root, True)
        _ROOT.append(root)
    return _ROOT[0]


def exported_header(header: str) -> str:
    """The header rewritten as a library whose importers see what the header's own file saw."""
    lines = []
    for sentence in sentences(header):
        text = sentence.text
        if is_import(sentence):
            text = re.sub(r"\bRequire\s+Import\b", "Require Export", text, count=1)
            text = re.sub(r"^(\s*)Import\b", r"\1Export", text, count=1)
            text = re.sub(r"^(\s*)Local\s+(Open|Close)\b", r"\1\2", text, count=1)
        lines.append(text)
    return "\n".join(lines) + "\n"


def _environment(
    header: str, deadline: float, memory_mb: int, data_dir: Path | None
) -> _Environment:
    with _ENV_LOCK:
        cached = _ENVIRONMENTS.get(header)
        if cached is not None:
            return cached
        try:
            parts = sentences(header)
        except ValueError:
            raise Refused("the reference header is not valid Coq", FailureKind.SYNTAX) from None
        folder = Path(tempfile.mkdtemp(prefix="env_", dir=_scratch_root()))
        (folder / "ref").mkdir()
        (folder / "base").mkdir()
        (folder / "ref" / "VsHeader.v").write_text(exported_header(header), encoding="utf-8")
        _coqc(folder, "ref/VsHeader.v", deadline, memory_mb, what="the reference header")
        store = _allowlist_store(data_dir)
        allowed = _stored_allowlist(header, store)
        if allowed is None:
            allowed = _baseline_allowlist(folder, deadline, memory_mb)
            _store_allowlist(header, allowed, store)
        env = _Environment(
            folder,
            allowed,
            declares=any(
                not is_import(s) and s.head[:1] not in (["Set"], ["Unset"]) for s in parts
            ),
            sentences=[normalized(s.text) for s in parts],
        )
        _ENVIRONMENTS[header] = env
        return env


def _baseline_allowlist(folder: Path, deadline: float, memory_mb: int) -> frozenset[str]:
    """Axioms (full names) of the header plus the tactic libraries, per ``coqchk``."""
    base = f"Require Import VsRef.VsHeader.\n{BASELINE_IMPORTS}"
    (folder / "base" / "VsBase.v").write_text(base, encoding="utf-8")
    _coqc(folder, "base/VsBase.v", deadline, memory_mb, what="the baseline environment")
    axioms = _coqchk(folder, ["VsRef.VsHeader", "VsBase.VsBase"], deadline, memory_mb)
    # The header's own postulates are allowed per reference (its ``postulates``), not here.
    return frozenset(a for a in axioms if not a.startswith(("VsBase.", "VsRef.")))


def _allowlist_store(data_dir: Path | None) -> tuple[Path, str] | None:
    """The on-disk cache of baseline allowlists under ``data_dir`` (the caller's
    ``Settings.data_dir``; None: no cache on disk) and the key part naming this Coq installation:
    the baseline costs a load of the real-number and tactic libraries plus a ``coqchk`` run,
    the same for every process on the same installation."""
    from veristep.core.subprocesses import run_with_deadline

    if data_dir is None:
        return None
    if not _COQ_VERSION:
        result = run_with_deadline(["coqc", "-where"], 30.0, None)
        where = result.stdout.strip()
        version = run_with_deadline(["coqc", "--version"], 30.0, None).stdout.strip()
        _COQ_VERSION.append(f"{version}|{where}")
    return data_dir / "formal" / "coqchk_allowlists.json", _COQ_VERSION[0]


_COQ_VERSION: list[str] = []


def _allowlist_key(header: str, installation: str) -> str:
    import hashlib

    text = f"{installation}\n{BASELINE_IMPORTS}\n{header}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _stored_allowlist(header: str, store: tuple[Path, str] | None) -> frozenset[str] | None:
    import json

    if store is None:
        return None
    path, installation = store
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
        names = table.get(_allowlist_key(header, installation))
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return None
    return frozenset(names)


def _store_allowlist(header: str, allowed: frozenset[str], store: tuple[Path, str] | None) -> None:
    import json
    import os

    if store is None:
        return
    path, installation = store
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            table = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            table = {}
        if not isinstance(table, dict):
            table = {}
        table[_allowlist_key(header, installation)] = sorted(allowed)
        scratch = path.with_suffix(f".{os.getpid()}.tmp")
        scratch.write_text(json.dumps(table), encoding="utf-8")
        scratch.replace(path)  # atomic: a reader never sees half a file
    except OSError:
        pass  # a cache that cannot be written only costs time


# -- running Coq -----------------------------------------------------------------------------
_LOAD_PATHS = ["-R", "ref", "VsRef", "-R", "cand", "VsCand", "-R", "trust", "VsTrust",
               "-R", "base", "VsBase"]  # fmt: skip


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0.5:
        raise Refused("Timeout: the acceptance check ran out of time", FailureKind.TIMEOUT)
    return left


def _coqc(folder: Path, path: str, deadline: float, memory_mb: int, what: str) -> None:
    from veristep.core.subprocesses import run_with_deadline

    result = run_with_deadline(
        ["coqc", "-q", "-noglob", *_LOAD_PATHS, path], _left(deadline), memory_mb, cwd=folder
    )
    if result.timed_out:
        raise Refused(f"Timeout: coqc on {what} ran out of time", FailureKind.TIMEOUT)
    if result.returncode != 0:
        output = (result.stdout + result.stderr).strip()
        error = output[output.find("Error") :] if "Error" in output else output
        error = " ".join(error.split())[:400] or f"exit status {result.returncode}"
        raise Refused(f"coqc on {what}: {error}", _error_kind(output, result.returncode))


def _error_kind(output: str, status: int) -> FailureKind:
    kind = classify_error(output)
    if kind is FailureKind.NONE:
        return FailureKind.CRASH if status < 0 else FailureKind.TACTIC
    return kind


def _coqchk(folder: Path, modules: list[str], deadline: float, memory_mb: int) -> list[str]:
    """Axioms of the environment of ``modules`` by full name; refuses any other unsafe trait."""
    from veristep.core.subprocesses import run_with_deadline

    argv = ["coqchk", "-silent", "-o", *_LOAD_PATHS]
    for module in modules:
        argv += ["-norec", module]
    result = run_with_deadline(argv, _left(deadline), memory_mb, cwd=folder)
    if result.timed_out:
        raise Refused("Timeout: coqchk ran out of time", FailureKind.TIMEOUT)
    output = result.stdout + result.stderr
    if result.returncode != 0:
        tail = " ".join(output.strip().split())[-300:]
        raise Refused(f"coqchk refused the libraries: {tail}", FailureKind.CRASH)
    return parse_coqchk(output)


def parse_coqchk(output: str) -> list[str]:
    """The axioms of a ``coqchk -o`` context summary; refuses anything else it reports.

    >>> parse_coqchk(_SAMPLE)
    ['Coq.Logic.Classical_Prop.classic']
    """
    if "CONTEXT SUMMARY" not in output:
        raise Refused("coqchk printed no context summary", FailureKind.CRASH)
    summary = output[output.rindex("CONTEXT SUMMARY") :]
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in summary.splitlines():
        if line.startswith("* "):
            title, _, rest = line[2:].partition(":")
            current = sections.setdefault(title.strip(), [])
            if rest.strip():
                current.append(rest.strip())
        elif current is not None and line.strip():
            current.append(line.strip())
    if sections.get("Theory") != ["Set is predicative"]:
        raise Refused(f"coqchk theory: {sections.get('Theory')}", FailureKind.FORBIDDEN)
    for title, items in sections.items():
        if title not in ("Theory", "Axioms") and items != ["<none>"]:
            raise Refused(f"coqchk: {title}: {', '.join(items)}", FailureKind.FORBIDDEN)
    return [a for a in sections.get("Axioms", []) if a != "<none>"]


_SAMPLE = """CONTEXT SUMMARY
===============

* Theory: Set is predicative

* Axioms:
    Coq.Logic.Classical_Prop.classic

* Constants/Inductives relying on type-in-type: <none>

* Constants/Inductives relying on unsafe (co)fixpoints: <none>

* Inductives whose positivity is assumed: <none>
"""


# -- the acceptance path -------------------------------------------------------------------
def trusted_file(reference: Reference) -> str:
    """Our file: the statement elaborated before the candidate is even loaded, then the check."""
    if not re.fullmatch(r"[^\W\d][\w']*", reference.name):
        raise Refused(f"not a theorem name: {reference.name!r}", FailureKind.SYNTAX)
    # A bare check's own definitions are re-elaborated here, in the clean environment, and only
    # under names that mean nothing there yet (``Fail Check`` fails the file otherwise): the
    # candidate's copies must then be convertible to these, which no notation of its can fake.
    own = "".join(f"Fail Check {_declared_name(d)}.\n{d}\n" for d in reference.definitions)
    return (
        "Require Import VsRef.VsHeader.\n"
        f"{own}"
        f"Definition vs_reference_type := {statement_type(reference.statement)}.\n"
        "Require VsCand.VsCandidate.\n"
        "Definition vs_reference_check : vs_reference_type :=\n"
        f"  VsCand.VsCandidate.{reference.name}.\n"
    )


def _declared_name(definition: str) -> str:
    name = sentences(definition)[0].head[1]
    if not re.fullmatch(r"[^\W\d][\w']*", name):
        raise Refused(f"not a definition name: {name!r}", FailureKind.SYNTAX)
    return name


def candidate_library(env: _Environment, candidate: str) -> tuple[str, list[Sentence]]:
    """The text compiled as ``VsCand.VsCandidate`` and the sentences the pre-scan must pass.

    A candidate that repeats the reference header gets the compiled header library in its place
    (required when the header declares things, so that both sides share the same constants).
    """
    try:
        parts = sentences(candidate)
    except ValueError as exc:
        raise Refused(str(exc), FailureKind.SYNTAX) from None
    k = len(env.sentences)
    repeats = k > 0 and [normalized(s.text) for s in parts[:k]] == env.sentences
    if env.declares and not repeats:
        raise Refused(
            "the file must begin with the reference header (it declares what the statement uses)",
            FailureKind.TYPE,
        )
    if not repeats:
        return candidate, parts
    rest = candidate[parts[k - 1].start + len(parts[k - 1].text) :]
    return f"Require Import VsRef.VsHeader.\n{rest}", parts[k:]


def accept(
    reference: Reference,
    candidate: str,
    timeout_s: float = 60.0,
    memory_mb: int = 4096,
    data_dir: Path | None = None,
) -> StrictVerdict:
    """The strict verdict on ``candidate`` (a whole ``.v`` text) as a proof of ``reference``.

    ``data_dir`` (``Settings.data_dir``) keeps the baseline axiom allowlists between processes;
    without it they are computed once per process. Either way the verdict is the same.
    """
    return _verdict(reference, candidate, timeout_s, memory_mb, data_dir, prescan=True)


def kernel_verdict(
    reference: Reference,
    candidate: str,
    timeout_s: float = 60.0,
    memory_mb: int = 4096,
    data_dir: Path | None = None,
) -> StrictVerdict:
    """The verdict of the Coq layers alone, without the text pre-scan. Never an acceptance
    path: it exists to show that the kernel checks reject a cheat by themselves too."""
    return _verdict(reference, candidate, timeout_s, memory_mb, data_dir, prescan=False)


def _verdict(
    reference: Reference,
    candidate: str,
    timeout_s: float,
    memory_mb: int,
    data_dir: Path | None,
    prescan: bool,
) -> StrictVerdict:
    started = time.monotonic()
    deadline = started + timeout_s
    try:
        if len(candidate) > MAX_CANDIDATE_CHARS:
            raise Refused(f"candidate longer than {MAX_CANDIDATE_CHARS} characters")
        trusted = trusted_file(reference)
        env = _environment(reference.header, deadline + 120.0, memory_mb, data_dir)
        text, scanned = candidate_library(env, candidate)
        reason = forbidden_command(scanned) if prescan else None
        if reason is not None:
            raise Refused(reason)
        allowed = env.allowed | {f"VsRef.VsHeader.{p}" for p in reference.postulates}
        axioms = _check(env, allowed, text, trusted, deadline, memory_mb, reference.note)
    except Refused as refused:
        return StrictVerdict(
            False, str(refused), refused.axioms, refused.failure, time.monotonic() - started
        )
    return StrictVerdict(
        True,
        "compiled by coqc; reference statement checked by the kernel; coqchk: axioms allowlisted",
        axioms,
        seconds=time.monotonic() - started,
    )


def _check(
    env: _Environment,
    allowed: frozenset[str],
    text: str,
    trusted: str,
    deadline: float,
    memory_mb: int,
    note: str = "",
) -> list[str]:
    folder = Path(tempfile.mkdtemp(prefix="cand_", dir=_scratch_root()))
    try:
        (folder / "ref").symlink_to(env.folder / "ref", target_is_directory=True)
        (folder / "cand").mkdir()
        (folder / "cand" / "VsCandidate.v").write_text(text, encoding="utf-8")
        _coqc(folder, "cand/VsCandidate.v", deadline, memory_mb, what="the candidate")
        # Written only now, so that nothing the candidate did while compiling can touch it.
        (folder / "trust").mkdir()
        (folder / "trust" / "VsCheck.v").write_text(trusted, encoding="utf-8")
        try:
            _coqc(folder, "trust/VsCheck.v", deadline, memory_mb, what="the reference check")
        except Refused as refused:
            if refused.failure is FailureKind.TIMEOUT:
                raise
            raise Refused(
                f"does not prove the reference statement: {refused}{note}", FailureKind.TYPE
            ) from None
        modules = ["VsRef.VsHeader", "VsCand.VsCandidate", "VsTrust.VsCheck"]
        axioms = _coqchk(folder, modules, deadline, memory_mb)
        extra = [a for a in axioms if a not in allowed]
        if extra:
            reason = f"uses non-allowlisted axioms: {', '.join(extra)}"
            raise Refused(reason, FailureKind.GIVEN_UP, axioms)
        return axioms
    finally:
        shutil.rmtree(folder, ignore_errors=True)
