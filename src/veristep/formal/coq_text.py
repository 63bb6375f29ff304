"""Coq source text: sentences, theorem headers, and the strict filter on candidate proofs.

Candidate text comes from a model or a rule and is untrusted. Before Coq sees it, it must be a
plain proof script: no vernacular that could change what "proved" means (``Admitted``, ``Axiom``,
``Set``/``Unset`` of checking flags, a nested ``Qed``...), balanced comments and strings, and every
sentence terminated, so the session's end-of-candidate marker is never swallowed.

>>> split_sentences("intros n. induction n; simpl. - reflexivity. - now rewrite IHn.")
['intros n.', 'induction n; simpl.', '- reflexivity.', '- now rewrite IHn.']
>>> forbidden_reason("intros. admit.")
"forbidden word 'admit'"
>>> forbidden_reason("intros. lia.") is None
True
>>> rename_theorem("Theorem foo:\\n forall n : nat, n = n.", "cand_3")
'Theorem cand_3:\\n forall n : nat, n = n.'
"""

from __future__ import annotations

import re

# Words that end, abandon, weaken or re-scope a proof, or smuggle in assumptions. Checked as whole
# words outside comments, so ``admit_le`` (a lemma name) is allowed but ``admit`` is not.
FORBIDDEN_WORDS: frozenset[str] = frozenset(
    {
        "Admitted", "admit", "give_up", "Abort", "Axiom", "Axioms", "Parameter", "Parameters",
        "Conjecture", "Hypothesis", "Hypotheses", "Variable", "Variables", "Context",
        "Require", "Import", "Export", "Load", "Declare", "Set", "Unset", "Local", "Global",
        "Qed", "Defined", "Save", "Proof", "Theorem", "Lemma", "Fact", "Remark", "Corollary",
        "Proposition", "Definition", "Fixpoint", "CoFixpoint", "Example", "Goal", "Instance",
        "Existing", "Module", "Section", "End", "Reset", "Back", "BackTo", "Undo", "Restart",
        "Drop", "Quit", "Extract", "Extraction", "Ltac", "Tactic", "Notation", "Infix",
        "Inductive", "CoInductive", "Record", "Structure", "Class", "Opaque", "Transparent",
        "Strategy", "Typeclasses", "Hint", "Create", "Arguments", "Redirect", "Timeout",
        "Fail", "Succeed", "Time", "Instructions", "Program", "Obligation", "Obligations",
        "Next", "Solve", "Unshelve", "native_compute",
    }
)  # fmt: skip

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")
MAX_CANDIDATE_CHARS = 4000


def strip_comments(text: str) -> str | None:
    """The text with comments blanked as Coq lexes them (strings inside comments included), or
    None when a comment or string is unterminated."""
    from veristep.formal.coq_lex import mask

    return mask(text, strings=False)


def split_sentences(script: str) -> list[str]:
    """Split a proof script into sentences: a period followed by blank or end, and bullets/braces.

    Bullets (``-``, ``+``, ``*``) stay attached to the tactic they introduce; braces are their own
    sentences, which is how coqtop reads them too.
    """
    text = strip_comments(script)
    if text is None:
        return []
    sentences: list[str] = []
    current = ""
    i = 0
    while i < len(text):
        ch = text[i]
        current += ch
        nxt = text[i + 1] if i + 1 < len(text) else " "
        prev = text[i - 1] if i > 0 else " "
        if (ch == "." and nxt.isspace() and prev != ".") or (
            ch in "{}" and not current[:-1].strip().rstrip("-+*").strip()
        ):
            sentences.append(current.strip())
            current = ""
        i += 1
    if current.strip():
        sentences.append(current.strip())
    return [s for s in sentences if s]


def forbidden_reason(candidate: str) -> str | None:
    """Why ``candidate`` may not be sent to Coq as a proof script, or None if it may."""
    if len(candidate) > MAX_CANDIDATE_CHARS:
        return f"candidate longer than {MAX_CANDIDATE_CHARS} characters"
    text = strip_comments(candidate)
    if text is None:
        return "unbalanced comment or string"
    if not text.strip():
        return "empty proof script"
    for match in _WORD.finditer(text):
        if match.group(0) in FORBIDDEN_WORDS:
            return f"forbidden word {match.group(0)!r}"
    if "vs_mark" in text:
        return "reserved name 'vs_mark'"
    if '"' in text:  # printed strings could imitate the session's prompts, markers or verdicts
        return "string literals are not allowed in proof scripts"
    sentences = split_sentences(text)
    if not sentences or not sentences[-1].endswith((".", "}", "{")):
        return "the last sentence is not terminated by a period"
    return None


_THEOREM_HEAD = re.compile(
    r"^\s*(Theorem|Lemma|Fact|Remark|Corollary|Proposition|Example)\s+([A-Za-z_][\w']*)", re.M
)


def theorem_name(statement: str) -> str | None:
    """The declared name of a ``Theorem name : ... .`` statement, or None."""
    match = _THEOREM_HEAD.search(statement)
    return match.group(2) if match else None


def rename_theorem(statement: str, new_name: str) -> str:
    """The statement with its declared name replaced (so K candidates can coexist in a session)."""
    match = _THEOREM_HEAD.search(statement)
    if match is None:
        raise ValueError("statement does not start with Theorem/Lemma NAME")
    return statement[: match.start(2)] + new_name + statement[match.end(2) :]


_DECLARED_AXIOM = re.compile(
    r"^\s*(?:Axiom|Axioms|Parameter|Parameters|Conjecture|Hypothesis|Variable)s?\s+([\w' ]+?)\s*:",
    re.M,
)


def declared_axioms(header: str) -> set[str]:
    """Names the header itself postulates (allowed in ``Print Assumptions`` of that benchmark).

    >>> sorted(declared_axioms("Parameter f : nat -> nat.\\nAxiom f_def : forall n, f n = n."))
    ['f', 'f_def']
    """
    text = strip_comments(header) or header
    names: set[str] = set()
    for match in _DECLARED_AXIOM.finditer(text):
        names.update(match.group(1).split())
    return names


def normalize_statement(statement: str) -> str:
    """Whitespace- and comment-insensitive form, to compare a proved statement with the expected."""
    text = strip_comments(statement) or statement
    return " ".join(text.split())


_BINDER_KEYWORDS = frozenset({"forall", "exists", "fun", "Theorem", "Lemma", "let", "in"})


def declared_variables(statement: str, type_name: str) -> list[str]:
    """The letters a statement declares of ``type_name`` ("R", "nat", "Z"), in order of
    declaration: binders ``(x y : R)`` and ``forall a b : R,``, not functions ``(f : R -> R)``.

    >>> declared_variables("Theorem t (f : R -> R) (x y : R) : forall z : R, f x = z.", "R")
    ['x', 'y', 'z']
    """
    binder = re.compile(rf"((?:[A-Za-z_][\w']*\s+)+):\s*{re.escape(type_name)}\b(?!\s*->)")
    names: list[str] = []
    for match in binder.finditer(statement):
        names += [n for n in match.group(1).split() if n not in _BINDER_KEYWORDS]
    return list(dict.fromkeys(names))
