"""The learner view of a judged derivation: what each step means for a student, in plain words.

The teacher view is the derivation JSON itself (tiers, check names, reasons, witnesses). This
module words the same findings for a learner, from the structured data only — the relation, the
tier, a step's ``facts`` (values lost, added or wrong; each side at a wrong value; an assumption),
the witness point, the conclusion gate — never from a check's prose, so no check name, SymPy
syntax or tier word can leak through. It is pure (no CAS): values arrive as SymPy strings and are
re-spelt here (``-2`` → ``−2``, ``sqrt(2)`` → ``√2``, ``x**2`` → ``x²``).

>>> lost = {"index": 1, "tier": "plausible", "relation": "narrows",
...         "facts": {"var": "x", "kept": [2], "lost": [-2], "all": True}}
>>> said = step_sentence(lost, "x² = 4")
>>> said.startswith("incomplete: you lost x = −2."), said.endswith("every case: x = 2 or x = −2.")
(True, True)
>>> wrong = {"index": 1, "tier": "refuted", "relation": "refuted",
...          "facts": {"var": "x", "wrong": [19], "sides": {"left": "46", "right": "30"}}}
>>> step_sentence(wrong, "2x + 8 = 30").split(". ")[1]
'Put x = 19 into 2x + 8 = 30: the left side is 46, the right side 30.'
>>> plain_value("-b/(2*a) + sqrt(3)*x**2")
'−b/(2a) + √3·x²'
"""

from __future__ import annotations

import re
from typing import Any

# Words a learner must never be shown: the tiers' internal names and the verifier's vocabulary.
JARGON = (
    "grounded", "plausible", "verified", "refuted", "unchecked", "residual", "landmark",
    "powdenest", "declared", "witness", "narrows", "widens",
)  # fmt: skip

_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def plain_value(text: Any) -> str:
    """A SymPy-printed value or expression spelt the way a student writes it."""
    s = str(text).strip()
    s = re.sub(r"\*\*\(?(-?\d+)\)?", lambda m: m.group(1).translate(_SUPERSCRIPT), s)
    s = s.replace("**", "^")
    s = re.sub(r"(?<![\w.])(\d+)\*(?=[A-Za-z(])", r"\1", s)  # 2*a → 2a, 2*(x+1) → 2(x+1)
    s = re.sub(r"sqrt\((\w+)\)", r"√\1", s)
    s = s.replace("sqrt(", "√(")
    s = s.replace("*", "·")
    s = re.sub(r"\bpi\b", "π", s)
    s = re.sub(r"\boo\b", "∞", s)
    s = re.sub(r"(^|[\s(=,])-", r"\1−", s)  # a leading minus sign, not a hyphen
    return s.replace(" - ", " − ")


_LATEX_WORDS = {
    r"\cdot": "·", r"\times": "×", r"\lor": " or ", r"\vee": " or ", r"\land": " and ",
    r"\wedge": " and ", r"\leq": "≤", r"\le": "≤", r"\geq": "≥", r"\ge": "≥", r"\neq": "≠",
    r"\ne": "≠", r"\pi": "π", r"\pm": "±", r"\infty": "∞", r"\left": "", r"\right": "",
    r"\,": " ", r"\;": " ", r"\!": "", r"\quad": " ", r"\Rightarrow": "⇒", r"\implies": "⇒",
}  # fmt: skip


def plain_state(latex: str | None) -> str | None:
    """A state as a student would write it by hand, or None when it cannot be said plainly."""
    if not latex:
        return None
    s = latex.strip()
    for _ in range(6):  # innermost first: \frac{\sqrt{x}}{2}
        before = s
        s = re.sub(r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}", lambda m: _frac(m[1], m[2]), s)
        s = re.sub(r"\\sqrt\{([^{}]*)\}", lambda m: "√" + _group(m[1]), s)
        s = re.sub(r"\^\{(-?\d+)\}|\^(\d)", lambda m: (m[1] or m[2]).translate(_SUPERSCRIPT), s)
        s = re.sub(r"\\text\{([^{}]*)\}|\\mathrm\{([^{}]*)\}", lambda m: m[1] or m[2], s)
        if s == before:
            break
    for word in sorted(_LATEX_WORDS, key=len, reverse=True):
        s = s.replace(word, _LATEX_WORDS[word])
    s = re.sub(r"\\([A-Za-z]+)", r"\1", s)  # \sin → sin
    s = s.replace("{", "(").replace("}", ")")
    s = re.sub(r"\s+", " ", plain_value(s)).strip()
    s = re.sub(r"(\d) ([A-Za-z])(?![A-Za-z])", r"\1\2", s)  # 5 x → 5x (not "1 or")
    s = s.replace(") (", ")(")
    s = re.sub(r"(^|[=(,]\s*)− (?=[\w√(])", r"\1−", s)  # = − √2 → = −√2 (a sign, not a minus)
    return None if "\\" in s else s


def _group(inner: str) -> str:
    return inner if re.fullmatch(r"\w+", inner) else f"({inner})"


def _frac(top: str, bottom: str) -> str:
    return f"{_group(top)}/{_group(bottom)}"


# Keys of a witness that are not variables (the fingerprint check names its landmark).
_META = frozenset({"previous", "next", "landmark", "at", "left", "right"})


def _point(point: Any) -> str:
    if not isinstance(point, dict):
        return plain_value(point)
    return ", ".join(f"{k} = {plain_value(v)}" for k, v in point.items() if k not in _META)


def _values(var: str, values: list[Any]) -> str:
    return " or ".join(f"{var} = {plain_value(v)}" for v in values)


def _into(where: str | None, fallback: str) -> str:
    return where if where else fallback


def _sides(point: str, where: str | None, sides: dict[str, Any], fallback: str) -> str:
    return (
        f"Put {point} into {_into(where, fallback)}: the left side is "
        f"{plain_value(sides['left'])}, the right side {plain_value(sides['right'])}."
    )


def _squaring(prev: str | None, nxt: str | None) -> bool:
    """Whether the move looks like squaring: a root in the line before, none in this line."""
    return bool(prev and "√" in prev and (nxt is None or "√" not in nxt))


def step_sentence(
    step: dict[str, Any], prev: str | None = None, nxt: str | None = None, error: str | None = None
) -> str:
    """One step's feedback: prev and nxt are the two lines as plain text when known."""
    tier, relation = step.get("tier"), step.get("relation")
    facts = step.get("facts") or {}
    if tier == "unchecked":
        if error:
            return "I could not read this line: " + error.strip().splitlines()[0]
        return "I could not read this line, so it was not checked."
    if tier == "refuted":
        return "this step is wrong: " + _wrong(step, facts, prev)
    if relation == "refuted":  # a given fact: not wrong for not following, not supported either
        return "this line is a new fact: it does not follow from the line before."
    if relation == "narrows":
        return _narrows(tier, facts)
    if relation == "widens":
        return _widens(facts, prev, nxt)
    if relation == "equivalent":
        if tier == "grounded":
            return "this step is right."
        if facts.get("assumes"):
            return f"this step is right when {plain_value(facts['assumes'])}."
        return "this step is right where every part is defined (checked, not proved)."
    return "I could not check this step: it may be right or wrong, so check it yourself."


def _wrong(step: dict[str, Any], facts: dict[str, Any], prev: str | None) -> str:
    var = facts.get("var", "x")
    if facts.get("wrong"):
        v = facts["wrong"][0]
        said = f"{var} = {plain_value(v)} solves this line but not the line before."
        if facts.get("sides"):
            said += " " + _sides(f"{var} = {plain_value(v)}", prev, facts["sides"], "it")
        return said
    if facts.get("lost"):
        v = plain_value(facts["lost"][0])
        return f"{var} = {v} solves the line before, but this line has no solution."
    w = step.get("witness")
    if isinstance(w, dict) and {"previous", "next"} <= set(w):
        a, b = plain_value(w["previous"]), plain_value(w["next"])
        if _point(w):
            return f"put {_point(w)} into both lines: the line before gives {a}, this one {b}."
        if str(w.get("at", "")).startswith("→"):
            where = plain_value(str(w["at"])[1:].strip())
            return (
                f"as the variable approaches {where}, the line before tends to {a}, "
                f"this one to {b}."
            )
        return f"the line before is {a}, this one is {b}."
    if isinstance(w, list) and w:
        return f"{_values(var, w[:3])} solves this line but not the line before."
    if isinstance(w, dict) and _point(w):
        several = len([k for k in w if k not in _META]) > 1
        head = f"the values {_point(w)} solve" if several else f"{_point(w)} solves"
        return f"{head} this line but not the line before."
    return "it does not follow from the line before."


def _narrows(tier: str | None, facts: dict[str, Any]) -> str:
    if facts.get("assumes"):
        cond = plain_value(facts["assumes"])
        zero = cond.replace("≠", "=")
        return (
            f"this step is right when {cond}: you divided by something that can be 0, "
            f"so the case {zero} needs its own look."
        )
    var, lost = facts.get("var", "x"), facts.get("lost") or []
    if lost and tier in ("grounded", "verified"):
        return (
            f"this step is right: it leaves out {_values(var, lost)}, "
            "which does not solve the first line."
        )
    if lost:
        said = (
            f"incomplete: you lost {_values(var, lost)}. It solves the line before but not this one"
        )
        if facts.get("all"):  # finitely many solutions: these are all of them
            return f"{said}; keep every case: {_values(var, list(facts.get('kept') or []) + lost)}."
        return said + "."
    return "incomplete: this step loses a solution of the line before."


def _widens(facts: dict[str, Any], prev: str | None, nxt: str | None) -> str:
    var, added = facts.get("var", "x"), facts.get("added") or []
    head = "squaring can add a solution" if _squaring(prev, nxt) else "this move can add a solution"
    said = f"this step is right, but {head}"
    if added:
        said += f": {_values(var, added[:2])} solves this line but not the line before"
    return said + ". Check your answers in the first line at the end."


def learner_view(doc: dict[str, Any]) -> dict[str, Any]:
    """Per-step sentences and one summary for a derivation JSON document."""
    states = doc.get("states") or []
    shown = [plain_state(s.get("latex")) for s in states]
    errors = [s.get("error") for s in states]
    sentences = []
    for step in doc.get("steps") or []:
        i = int(step.get("index") or 0)
        prev = shown[i - 1] if 0 < i <= len(shown) else None
        nxt = shown[i] if 0 <= i < len(shown) else None
        err = errors[i] if 0 <= i < len(errors) else None
        sentences.append(step_sentence(step, prev, nxt, err))
    return {"steps": sentences, "summary": summary(doc, sentences, shown)}


def summary(doc: dict[str, Any], sentences: list[str], shown: list[str | None]) -> str:
    """The derivation's verdict in one or two plain sentences, consistent with every step."""
    steps = doc.get("steps") or []
    start = shown[0] if shown else None
    end = doc.get("endpoint") or {}
    parts: list[str] = []
    if doc.get("claim"):
        parts.append(_claim(doc["claim"]))
    if end.get("correction"):  # a wrong target: the correction names the right answer too
        parts.append(_sentence(end["correction"]))
    elif doc.get("answer") and doc["answer"].get("sentence"):
        parts.append(_sentence(doc["answer"]["sentence"], lead="the answer: "))
    conclusion = end.get("conclusion") or {}
    if conclusion.get("verdict") == "refuted":
        parts.append(_wrong_answer(conclusion, start, steps, shown))
    elif conclusion.get("verdict") == "incomplete":
        point = _point(conclusion.get("witness") or {})
        parts.append(
            f"Incomplete: you lost {point}; it also solves {_into(start, 'the first line')}."
        )
    counts = _step_counts(steps)
    if conclusion.get("verdict") == "incomplete":
        counts = [c for c in counts if not c.startswith("Incomplete")]  # said once, with the value
    parts += counts
    if not steps and not parts:
        parts.append("Nothing to check yet: write the next line under the first.")
    elif steps and not counts and not conclusion and not doc.get("claim"):
        parts.append(_all_right(steps))
        if doc.get("target") and not end.get("reached") and not end.get("correction"):
            parts.append("You have not reached the answer you aimed for yet.")
    return " ".join(dict.fromkeys(p for p in parts if p))


def _all_right(steps: list[dict[str, Any]]) -> str:
    """Every step holds: said with the one caveat that matters most."""
    widened = [int(s.get("index") or 0) for s in steps if s.get("relation") == "widens"]
    if widened:
        later = [s for s in steps if int(s.get("index") or 0) > widened[0]]
        if any((s.get("facts") or {}).get("dropped") for s in later):
            # The chain already checked its answers in the first line and left out what failed.
            return "Every step is right, and the solution a step added was checked and left out."
        return (
            "Every step is right, but one can add a solution: "
            "check your answers in the first line at the end."
        )
    if any((s.get("facts") or {}).get("assumes") for s in steps):
        return "Every step is right when the conditions named at its steps hold."
    if all(s.get("tier") == "grounded" for s in steps):
        return "Every step is right."
    return "Every step is right where every part is defined (some checked, not proved)."


def _wrong_answer(
    conclusion: dict[str, Any], start: str | None, steps: list[dict[str, Any]], shown: list[Any]
) -> str:
    point = _point(conclusion.get("witness") or {})
    said = f"Your answer is wrong: {point} does not solve {_into(start, 'the first line')}."
    if conclusion.get("sides"):
        said += " " + _sides(point, start, conclusion["sides"], "the first line")
    widened = [s for s in steps if s.get("relation") == "widens"]
    if widened:
        i = int(widened[0].get("index") or 1)
        nxt = shown[i] if i < len(shown) else None
        head = "Squaring" if _squaring(shown[i - 1], nxt) else f"Step {i}"
        said += f" {head} can add a solution: check your answers at the end."
    return said


def _step_counts(steps: list[dict[str, Any]]) -> list[str]:
    def where(pred: Any) -> list[str]:
        return [str(s.get("index")) for s in steps if pred(s)]

    out = []
    wrong = where(lambda s: s.get("tier") == "refuted")
    if wrong:
        verb, it = ("is", "it") if len(wrong) == 1 else ("are", "them")
        out.append(f"{_which('Step', wrong)} {verb} wrong: fix {it} first.")
    lost = where(lambda s: s.get("relation") == "narrows" and s.get("tier") == "plausible")
    if lost:
        verb = "loses" if len(lost) == 1 else "lose"
        out.append(f"Incomplete: {_which('step', lost)} {verb} a solution.")
    unknown = where(lambda s: s.get("relation") == "unknown" and s.get("tier") == "plausible")
    if unknown:
        out.append(f"{_which('Step', unknown)} could not be checked.")
    unread = where(lambda s: s.get("tier") == "unchecked")
    if unread:
        out.append(f"{_which('Line', unread)} could not be read.")
    return out


def _which(word: str, indices: list[str]) -> str:
    if len(indices) == 1:
        return f"{word} {indices[0]}"
    return f"{word}s {', '.join(indices[:-1])} and {indices[-1]}"


def _sentence(text: str, lead: str = "") -> str:
    """A sentence with $…$ maths spelt plainly; one that opens with maths gets ``lead`` (a
    variable is never capitalised)."""
    opens_with_maths = text.lstrip().startswith("$")
    s = re.sub(r"\$([^$]*)\$", lambda m: plain_state(m[1]) or m[1], text).strip()
    if opens_with_maths:
        s = lead + s
    s = s[:1].upper() + s[1:] if not opens_with_maths or lead else s
    return s if s.endswith(".") else s + "."


def _claim(claim: dict[str, Any]) -> str:
    verdict, w = claim.get("verdict"), claim.get("witness")
    if verdict == "true":
        return "This is true for every value of its letters."
    if verdict == "true_where_defined":
        cond = claim.get("condition")
        return f"This is true wherever both sides are defined{f' ({cond})' if cond else ''}."
    if verdict == "true_under_condition" and claim.get("condition"):
        return f"This is true when {plain_value(claim['condition'])}."
    if verdict == "false" and isinstance(w, dict) and {"previous", "next"} <= set(w) and _point(w):
        said = (
            f"This is false: put {_point(w)} into it: the left side is "
            f"{plain_value(w['previous'])}, the right side {plain_value(w['next'])}."
        )
        if claim.get("condition"):
            said += f" It is true only when {plain_value(claim['condition'])}."
        return said
    if verdict == "false":
        return "This is false."
    return "I could not decide whether this is true: check it yourself."
