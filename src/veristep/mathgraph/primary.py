"""Primaries and postfix operators: numbers, names, constants, functions, scripts, factorials."""

from __future__ import annotations

from typing import TYPE_CHECKING

from veristep.core.errors import did_you_mean
from veristep.mathgraph.lexer import Token
from veristep.mathgraph.nodes import Kind, Node
from veristep.mathgraph.vocabulary import (
    BOOL_COMMANDS,
    CONNECTIVE_WORDS,
    CONSTANT_COMMANDS,
    FUNCTION_NAMES,
    GREEK,
    OPERATOR_NAMES,
    SETS,
)

if TYPE_CHECKING:
    from veristep.mathgraph.parser import Parser

    _Base = Parser
else:
    _Base = object

# Commands that begin a factor (so that juxtaposition continues through them).
_FACTOR_COMMANDS = frozenset(
    {"frac", "dfrac", "tfrac", "sqrt", "left", "lfloor", "lceil", "lvert", "vert", "binom",
     "dbinom", "tbinom", "int", "lim", "sum", "prod", "begin", "emptyset", "varnothing", "{",
     "partial"}
)  # fmt: skip
_WORD_CONSTANTS = {"e": "e", "i": "i"}
# Horizontal spaces a writer sets between factors (the lexer drops them; the source keeps them).
_ARGUMENT_SPACES = (",", ";", ":", ">", " ", "quad", "qquad", "enspace", "thinspace")
# Conventional dependent variables: y(x) is an application when its argument is one variable
# (y(y+2) and y(x+1) stay products; declare names in settings.function_names for more).
_DEPENDENT_NAMES = frozenset({"y", "u", "v"})


class PrimaryParts(_Base):
    def command_starts_factor(self, tok: Token) -> bool:
        if tok.kind != "cmd":
            return False
        name = tok.name
        return (
            name in GREEK
            or name in CONSTANT_COMMANDS
            or name in FUNCTION_NAMES
            or name in _FACTOR_COMMANDS
        )

    # --- postfix -------------------------------------------------------------------------------
    def parse_postfix(self) -> Node:
        with self.nested():
            node = self.parse_primary()
            count = 0
            while (tok := self.peek()) is not None and tok.kind == "char":
                count += 1
                if count > 8:
                    self.fail("too many postfix operators in a row", tok)
                if tok.text == "^":
                    if node.kind in (Kind.POW, Kind.CONJUGATE) and count > 1:
                        self.fail("double superscript: use braces, x^{a^{b}}", tok)
                    self.advance()
                    star = self.conjugate_star()
                    if star is not None:
                        node = Node.make(Kind.CONJUGATE, [node], star)
                    else:
                        node = Node.make(Kind.POW, [node, self.parse_script()])
                elif tok.text == "_":
                    node = self.subscripted(node, tok)
                elif tok.text == "!":
                    self.advance()
                    if self.at("!"):
                        self.fail("double factorial n!! is not supported", self.peek())
                    node = Node.make(Kind.FACTORIAL, [node])
                elif tok.text == "'":
                    node = self.primed(node, tok)
                else:
                    break
            return node

    def primed(self, node: Node, tok: Token) -> Node:
        if node.kind is not Kind.SYMBOL:
            self.fail(
                "a prime is only allowed on a name (write \\frac{d}{dx} for a derivative)", tok
            )
        self.advance()
        if self.at("'"):
            return Node.make(Kind.SYMBOL, value=node.value + "'")
        if self.application_follows():
            # x'(t) with x not a declared function would silently become a product
            self.fail(f"{node.value}'(...) needs {node.value} declared as a function "
                      "(settings.function_names)", tok)  # fmt: skip
        return Node.make(Kind.SYMBOL, value=node.value + "'")

    # --- primaries -----------------------------------------------------------------------------
    def parse_primary(self) -> Node:
        tok = self.peek()
        if tok is None:
            self.fail("expected an expression, found the end")
        if tok.kind == "number":
            self.advance()
            return Node.make(Kind.NUMBER, value=tok.text)
        if tok.kind == "letter":
            return self.parse_letter()
        if tok.kind == "text":
            return self.parse_text()
        if tok.kind == "char":
            return self.parse_char(tok)
        return self.parse_command(tok)

    def letter(self, tok: Token) -> Node:
        name = tok.text
        plain = name in self.bound or name in self.settings.plain_symbols
        if name in _WORD_CONSTANTS and not plain:
            return Node.make(Kind.CONSTANT, value=_WORD_CONSTANTS[name])
        return Node.make(Kind.SYMBOL, value=name)

    def parse_letter(self) -> Node:
        tok = self.advance()
        name = tok.text
        if name in self.functions and self.application_follows():
            return self.parse_application(name)
        if name in _DEPENDENT_NAMES and self.single_variable_argument(name, self.i):
            return self.parse_application(name)
        if name in _DEPENDENT_NAMES and self.at("'"):
            after = self.i
            while after < self.end and self.toks[after].text == "'":
                after += 1
            if self.single_variable_argument(name, after):
                return self.parse_application(name)
        if (name in self.functions or name in _DEPENDENT_NAMES) and self.at("^"):
            # f^2(x) and y^2(x) square the value, as \sin^2 x does
            saved = self.i
            self.advance()
            power = self.parse_script()
            applied = self.application_follows() if name in self.functions else (
                self.single_variable_argument(name, self.i))  # fmt: skip
            if applied and power.kind is not Kind.NEG:
                return Node.make(Kind.POW, [self.parse_application(name), power])
            self.i = saved
        return self.letter(tok)

    def single_variable_argument(self, name: str, start: int) -> bool:
        """``y(x)``, ``y\\left(x\\right)``: an argument of one variable other than y."""
        texts = [
            t.text if t.kind != "letter" else "VAR:" + t.text
            for t in self.toks[start : min(start + 6, self.end)]
        ]
        for pattern in (["(", "V", ")"], ["\\left", "(", "V", "\\right", ")"],
                        ["{", "\\left", "(", "V", "\\right", ")"]):  # fmt: skip
            window = texts[: len(pattern)]
            if len(window) == len(pattern) and all(
                w.startswith("VAR:") and w != f"VAR:{name}" if p == "V" else w == p
                for w, p in zip(window, pattern, strict=True)
            ):
                return True
        return False

    def application_follows(self) -> bool:
        """``f(``, ``f\\left(``, ``f{\\left(`` (SymPy) or ``f'(``: a declared function applied."""
        tok, nxt = self.peek(), self.peek(1)
        if tok is None:
            return False
        if tok.text in ("(", "'") or (tok.text == "\\left" and nxt is not None and nxt.text == "("):
            return True
        return tok.text == "{" and nxt is not None and nxt.text in ("(", "\\left")

    def parse_application(self, name: str) -> Node:
        primes = 0
        while self.at("'"):
            self.advance()
            primes += 1
        args = self.parse_arguments()
        app = Node.make(Kind.FUNC, args, name)
        if primes:
            if len(args) != 1 or args[0].kind is not Kind.SYMBOL:
                self.fail(f"{name}{chr(39) * primes}(...) needs a single variable argument")
            order = Node.make(Kind.NUMBER, value=str(primes))
            return Node.make(Kind.DERIV, [app, args[0], order], "prime")
        return app

    def parse_arguments(self) -> list[Node]:
        braced = self.at("{")
        if braced:
            brace = self.advance()
        left = self.at("\\left")
        if left:
            self.advance()
        self.expect("(")
        args = [self.parse_expr()]
        while self.at(","):
            self.advance()
            args.append(self.parse_expr())
        if left:
            self.expect("\\right", "\\right)")
        self.expect(")")
        if braced and not self.at("}"):
            self.fail("expected '}' after the arguments", brace)
        if braced:
            self.advance()
        return args

    def parse_text(self) -> Node:
        tok = self.advance()
        cmd, arg = tok.text, tok.arg
        if cmd == "\\mathbf" and arg in ("True", "False"):
            return Node.make(Kind.BOOL, value=arg)
        if cmd == "\\mathbb" and arg in SETS:
            return Node.make(Kind.SET_CONST, value=SETS[arg])
        if cmd in ("\\mathrm", "\\mathit") and len(arg) == 1 and arg.isalpha():
            if arg == "d":
                self.fail("a differential d outside a derivative or an integral", tok)
            return self.letter(Token("letter", arg, tok.pos, tok.end))
        if cmd == "\\operatorname":
            if arg in OPERATOR_NAMES or arg in FUNCTION_NAMES:
                return self.parse_function(OPERATOR_NAMES.get(arg, arg), tok)
            hint = did_you_mean(arg, list(OPERATOR_NAMES) + sorted(FUNCTION_NAMES))
            self.fail(f"unknown operator name {arg!r}", tok, hint=hint)
        if cmd in ("\\text", "\\mbox", "\\textrm", "\\rm") and arg.lower() in CONNECTIVE_WORDS:
            self.fail(f"the connective {arg!r} needs a statement on each side", tok)
        if cmd in ("\\text", "\\mbox", "\\textrm", "\\rm"):
            self.fail(f"text {arg!r} is not mathematics (only connective words such as 'or', "
                      "'and', 'for', 'where' may appear in \\text)", tok)  # fmt: skip
        self.fail(f"{cmd}{{{arg}}} is not supported", tok)

    def parse_command(self, tok: Token) -> Node:
        name = tok.name
        if name in CONSTANT_COMMANDS:
            self.advance()
            return Node.make(Kind.CONSTANT, value=CONSTANT_COMMANDS[name])
        if name in BOOL_COMMANDS:
            self.advance()
            return Node.make(Kind.BOOL, value=name)
        if name in GREEK:
            self.advance()
            if name in self.functions and self.application_follows():
                return self.parse_application(name)
            return Node.make(Kind.SYMBOL, value=name)
        if name in FUNCTION_NAMES:
            self.advance()
            return self.parse_function(name, tok)
        handler = self.COMMAND_HANDLERS.get(name)
        if handler is not None:
            return handler(self, tok)
        operator = name in ("cdot", "times", "div")
        if operator or self.connective() is not None or self.relation() is not None:
            self.fail(f"expected an expression before {tok.text}", tok)
        if name in ("right", "end", "rfloor", "rceil", "rvert", "}", "\\", "cr", "choose"):
            self.fail(f"{tok.text} without its opening counterpart here", tok)
        if name in ("pm", "mp"):
            self.fail(f"{tok.text} must stand between terms or at the start of one", tok)
        self.unknown_command(tok)

    # --- functions -----------------------------------------------------------------------------
    def parse_function(self, name: str, tok: Token) -> Node:
        """``\\sin x``, ``\\sin(x)``, ``\\sin^2 x`` = (sin x)², ``\\log_2 8``, ``\\sin{(x)}``."""
        base = None
        if name == "log" and self.at("_"):
            self.advance()
            base = self.parse_script()
        power = None
        if self.at("^"):
            self.advance()
            power = self.parse_script()
            if power.kind is Kind.NEG and name not in ("ln", "log", "exp"):
                self.fail(f"\\{name}^{{-1}} is ambiguous: write \\arc{name} or 1/\\{name}", tok,
                          hint=f"\\arc{name}")  # fmt: skip
        arg = self.function_argument(tok)
        node = (
            Node.make(Kind.LOG, [base, arg])
            if base is not None
            else Node.make(Kind.FUNC, [arg], name)
        )
        return Node.make(Kind.POW, [node, power]) if power is not None else node

    def function_argument(self, tok: Token) -> Node:
        nxt = self.peek()
        if nxt is None:
            self.fail(f"{tok.text} needs an argument", tok)
        if (nxt.kind == "char" and nxt.text in "({[") or nxt.text == "\\left":
            return self.parse_primary()
        # Unbracketed: the juxtaposed product up to the next function or calculus operator, so
        # \sin x \cos x and \sin x \frac{d}{dx} x^2 are products and \sin 2x is sin(2x).
        sign = self.at("-")
        if sign:
            self.advance()
        factors = [self.parse_postfix()]
        while self.starts_factor() and not self.function_ahead() and not self.spaced_apart():
            factors.append(self.parse_postfix())
        arg = factors[0] if len(factors) == 1 else Node.make(Kind.MUL, factors, "")
        return Node.make(Kind.NEG, [arg]) if sign else arg

    def spaced_apart(self) -> bool:
        """An explicit space (``\\,``, ``\\;``, ``\\quad``...) written before the next token: it
        ends an unbracketed argument, so ``\\cos x \\, e^{\\sin x}`` is cos x times e^{sin x}, as
        its writer set it apart, not cos(x e^{sin x})."""
        tok, before = self.peek(), self.toks[self.i - 1] if self.i > 0 else None
        if tok is None or before is None or tok is self.partial:
            return False
        gap = self.src[before.end : tok.pos]
        return any(f"\\{space}" in gap for space in _ARGUMENT_SPACES)

    def function_ahead(self) -> bool:
        tok = self.peek()
        if tok is None:
            return False
        if tok.kind == "cmd":
            return tok.name in FUNCTION_NAMES or self.operator_ahead()
        if tok.kind == "text":
            return tok.text == "\\operatorname"
        return (
            tok.kind == "letter"
            and tok.text in self.functions
            and self.peek(1) is not None
            and self.peek(1).text in ("(", "\\left", "{")
        )  # type: ignore[union-attr]
