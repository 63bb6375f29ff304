"""Read a model's trajectory defensively: LaTeX must survive whatever format the model chose.

The requested format is a plain block per step (no escaping, so ``\\frac`` stays ``\\frac``)::

    STEP 1
    operation: subtract 5 from both sides
    expr: 3x = 6
    justification: the same number may be subtracted from both sides
    change_type: rewrite

Models also answer in JSON. JSON escaping corrupts LaTeX — ``"\\frac"`` decodes to a form feed and
``rac``, ``"\\right"`` to a carriage return — so JSON is repaired before decoding (a backslash that
starts a LaTeX command is kept literal) and control characters left by an earlier decoder are
turned back into the commands they destroyed.

>>> steps = parse_trajectory('[{"operation": "o", "expr": "\\\\frac{1}{2}", "justification": "j"}]')
>>> steps[0].expr_latex
'\\\\frac{1}{2}'
>>> text = '{"steps": [{"operation": "o", "expr": "\\\\left(x\\\\right)", "justification": "j"}]}'
>>> parse_trajectory(text)[0].expr_latex
'\\\\left(x\\\\right)'
"""

from __future__ import annotations

import json
import re
from typing import Any

from veristep.core.errors import VeristepError
from veristep.propose.protocol import CHANGE_TYPES, ProposedStep


class TrajectoryFormatError(VeristepError):
    """The model's answer holds no readable step. Keeps the raw text for the record."""

    def __init__(self, message: str, raw: str) -> None:
        super().__init__(message)
        self.raw = raw


_FIELD_ALIASES = {
    "operation": "operation",
    "op": "operation",
    "action": "operation",
    "expr": "expr_latex",
    "expr_latex": "expr_latex",
    "expression": "expr_latex",
    "latex": "expr_latex",
    "result": "expr_latex",
    "justification": "justification",
    "reason": "justification",
    "why": "justification",
    "change_type": "change_type",
    "type": "change_type",
}
_STEP_HEAD = re.compile(r"^\s*(?:#+\s*)?\**\s*step\s*(\d+)\s*[:.)]?\s*\**\s*[:.]?\s*$", re.I)
_FIELD_LINE = re.compile(r"^\s*[-*]?\s*\**([A-Za-z_ ]+?)\**\s*:\s*(.*)$")
# Control characters a JSON decoder makes out of the first letter of a LaTeX command.
_RESTORE = {"\f": "\\f", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\v": "\\v", "\a": "\\a"}


def parse_trajectory(text: str) -> list[ProposedStep]:
    """The steps in ``text`` (block format or JSON); raises TrajectoryFormatError when none."""
    if not isinstance(text, str) or not text.strip():
        raise TrajectoryFormatError("the model returned an empty trajectory", str(text))
    body = _strip_fences(text)
    steps = _from_json(body) if body.lstrip()[:1] in "[{" else None
    if steps is None:
        steps = _from_blocks(body)
    if not steps:
        raise TrajectoryFormatError("no step could be read from the model's answer", text)
    return steps


def _strip_fences(text: str) -> str:
    fenced = re.search(r"```(?:json|text)?\s*\n(.*?)```", text, re.DOTALL)
    return fenced.group(1) if fenced else text


def repair_json_latex(text: str) -> str:
    """Double every backslash that starts a LaTeX command, so JSON decodes it literally.

    >>> json.loads(repair_json_latex('"\\\\frac{a}{b} \\\\, \\\\theta"'))
    '\\\\frac{a}{b} \\\\, \\\\theta'
    >>> json.loads(repair_json_latex('"x = 1\\\\n"'))
    'x = 1\\n'
    """
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch != "\\" or i + 1 >= len(text):
            out.append(ch)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt in '\\"/':
            out.append(text[i : i + 2])
            i += 2
        elif nxt == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", text[i + 2 : i + 6]):
            out.append(text[i : i + 6])
            i += 6
        elif nxt in "bfnrt" and not (i + 2 < len(text) and text[i + 2].isalpha()):
            out.append(text[i : i + 2])  # a real escape such as \n between fields
            i += 2
        else:
            out.append("\\\\")  # a LaTeX command (\frac, \right, \,): keep the backslash
            i += 1
    return "".join(out)


def restore_latex(value: str) -> str:
    """Undo a decoder that already turned ``\\frac`` into a form feed followed by ``rac``."""
    for ctrl, command in _RESTORE.items():
        value = value.replace(ctrl, command)
    return re.sub(r"\n(?=(?:eq|u|abla|ot|e|i|leq|geq)\b|[a-z]{2,})", r"\\n", value)


def _from_json(body: str) -> list[ProposedStep] | None:
    try:
        data = json.loads(repair_json_latex(body))
    except json.JSONDecodeError:
        return None
    if isinstance(data, dict):
        data = data.get("steps") or data.get("trajectory") or data.get("derivation")
    if not isinstance(data, list):
        return None
    return [s for s in (_step_from_mapping(item) for item in data) if s is not None]


def _from_blocks(body: str) -> list[ProposedStep]:
    blocks: list[dict[str, str]] = []
    current: dict[str, str] | None = None
    last_key: str | None = None
    for line in body.splitlines():
        if _STEP_HEAD.match(line):
            current, last_key = {}, None
            blocks.append(current)
            continue
        match = _FIELD_LINE.match(line)
        key = _FIELD_ALIASES.get(match.group(1).strip().lower()) if match else None
        if match and key:
            if current is None:
                current = {}
                blocks.append(current)
            current[key], last_key = match.group(2).strip(), key
        elif current is not None and last_key and line.strip():
            current[last_key] += " " + line.strip()  # a wrapped line continues the field
    return [s for s in (_step_from_mapping(b) for b in blocks) if s is not None]


def _step_from_mapping(item: Any) -> ProposedStep | None:
    if not isinstance(item, dict):
        return None
    fields: dict[str, str] = {}
    for raw_key, value in item.items():
        key = _FIELD_ALIASES.get(str(raw_key).strip().lower())
        if key and value is not None:
            fields[key] = restore_latex(str(value)).strip()
    expr = _unwrap_math(strip_prose(fields.get("expr_latex", "")))
    if not expr:
        return None
    change = fields.get("change_type", "rewrite").lower()
    return ProposedStep(
        operation=fields.get("operation", ""),
        expr_latex=expr,
        justification=fields.get("justification", ""),
        change_type=change if change in CHANGE_TYPES else "rewrite",
    )


def strip_prose(expr: str) -> str:
    """Cut the words a model writes after the expression (``3x = 6 by subtracting 5``).

    Prose is two words in a row (two letters or more each, one of three or more), outside LaTeX
    commands and ``\\text{…}``, neither a function name, together with the words (and numbers
    after words) just before it; the expression is what comes before that. Without the cut the
    step is unreadable and only unchecked, where the expression alone might be refuted or
    grounded. A logical word (and, or, not) anywhere keeps the text whole: cutting
    ``x = 2 and y = 3 by substitution`` would change the claim, so the parser refuses it instead.

    >>> strip_prose("3x = 6 (subtract 5 from both sides)")
    '3x = 6'
    >>> strip_prose("$x = 2$, as required")
    '$x = 2$'
    >>> strip_prose("x^2 - 4 = 0 since 5 was subtracted")
    'x^2 - 4 = 0'
    >>> strip_prose(r"\\sin x \\cdot \\text{for all real} x = 0")
    '\\\\sin x \\\\cdot \\\\text{for all real} x = 0'
    >>> strip_prose("x = 2 and y = 3 by the substitution")
    'x = 2 and y = 3 by the substitution'
    """
    masked = _MASK.sub(lambda m: " " * len(m.group()), expr)
    if _LOGICAL_WORD.search(masked):
        return expr
    for match in _PROSE_RUN.finditer(masked):
        words = (match.group(1).lower(), match.group(2).lower())
        if max(map(len, words)) < 3 or set(words) & _FUNCTION_WORDS:
            continue  # "dx dy", or "sin x" written without its backslash: mathematics
        start = match.start()
        before = _PROSE_TAIL.search(masked[:start])
        if before and not set(re.findall(r"[a-z]+", before.group().lower())) & _FUNCTION_WORDS:
            start = before.start()
        head = expr[:start].rstrip(" ,;:.—–(")
        return head if head.strip() else expr
    return expr


_MASK = re.compile(
    r"\\(?:text|mathrm|textrm|operatorname|mbox|textbf|mathbf)\s*\{[^{}]*\}|\\[A-Za-z]+"
)
_PROSE_RUN = re.compile(r"(?<![A-Za-z])([A-Za-z]{2,})[,;:]?\s+([A-Za-z]{2,})(?![A-Za-z])")
# Words, each maybe followed by a number ("subtract 5"), right before a prose run.
_PROSE_TAIL = re.compile(r"(?:(?<![A-Za-z])[A-Za-z]{2,}(?:\s+\d+(?:\.\d+)?)?[,;:]?\s+)+$")
_LOGICAL_WORD = re.compile(r"(?<![A-Za-z])(?:and|or|not)(?![A-Za-z])", re.I)
_FUNCTION_WORDS = frozenset(
    {"sin", "cos", "tan", "cot", "sec", "csc", "sinh", "cosh", "tanh", "arcsin", "arccos"}
    | {"arctan", "log", "ln", "lg", "exp", "lim", "max", "min", "sup", "inf", "det", "gcd"}
    | {"lcm", "mod", "deg", "sgn", "arg", "dim", "ker"}
)


def _unwrap_math(expr: str) -> str:
    """Drop the math delimiters a model may wrap an expression in ($…$, \\(…\\), \\[…\\])."""
    expr = expr.strip().strip("`").strip()
    for left, right in (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]")):
        if expr.startswith(left) and expr.endswith(right) and len(expr) > len(left) + len(right):
            return expr[len(left) : -len(right)].strip()
    return expr
