"""LaTeX as plain readable text, for places that cannot typeset: page titles, tooltips, file names.

>>> plain_math(r"x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}")
'x = (-b ± √(b²-4ac))/(2a)'
>>> plain_math(r"\\htmlData{n=3}{x}^{2} \\le 4")
'x² ≤ 4'
>>> plain_math("y" * 300, limit=10)
'yyyyyyyyy…'
"""

from __future__ import annotations

import re

_SYMBOLS = {
    "pm": "±", "mp": "∓", "cdot": "·", "times": "×", "div": "÷", "le": "≤", "leq": "≤",
    "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "approx": "≈", "infty": "∞", "pi": "π",
    "lor": "∨", "vee": "∨", "land": "∧", "wedge": "∧", "to": "→", "int": "∫", "sum": "Σ",
    "prod": "Π", "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "theta": "θ",
    "lambda": "λ", "mu": "μ", "sigma": "σ", "phi": "φ", "omega": "ω", "in": "∈",
    "left": "", "right": "", "quad": " ", "qquad": " ", "ldots": "…", "cdots": "⋯", "dots": "…",
}  # fmt: skip
_SUPERSCRIPT = str.maketrans("0123456789-+n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺ⁿ")
_GROUP = r"\{([^{}]*)\}"


def _wrap(text: str) -> str:
    """Parentheses around a fraction's part unless it is one token."""
    return text if re.fullmatch(r"\d+(\.\d+)?|[A-Za-z]", text) else f"({text})"


def _power(match: re.Match[str]) -> str:
    exponent = match.group(1) if match.group(1) is not None else match.group(2)
    if re.fullmatch(r"[0-9n+-]{1,3}", exponent):
        return exponent.translate(_SUPERSCRIPT)
    return f"^{_wrap(exponent)}"


def plain_math(latex: str, limit: int = 160) -> str:
    """``latex`` with fractions, roots and powers written out and commands as symbols."""
    s = re.sub(r"\\htmlData\{[^{}]*\}", "", str(latex))
    s = re.sub(r"\\[,;:! ]", " ", s)
    for _ in range(60):  # innermost groups first; bounded whatever the input
        before = s
        s = re.sub(r"\\[dt]?frac" + _GROUP + _GROUP, lambda m: f"{_wrap(m[1])}/{_wrap(m[2])}", s)
        s = re.sub(r"\\sqrt" + _GROUP, lambda m: f"√{_wrap(m[1])}", s)
        s = re.sub(r"\^(?:" + _GROUP + r"|([0-9A-Za-z]))", _power, s)
        s = re.sub(r"_" + _GROUP, r"_\1", s)
        s = re.sub(r"\\(?:text|math[a-z]{2,5}|operatorname)" + _GROUP, r"\1", s)
        s = re.sub(r"(?<![\\A-Za-z}^_])" + _GROUP, r"\1", s)  # not a command argument
        if s == before:
            break
    s = re.sub(r"\\([A-Za-z]+)", lambda m: _SYMBOLS.get(m[1], m[1]), s)
    s = " ".join(s.replace("\\", "").split())
    return s if len(s) <= limit else s[: limit - 1] + "…"
