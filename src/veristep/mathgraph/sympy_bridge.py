"""Graph → SymPy. Arithmetic is canonical; calculus stays unevaluated; ≈ is its own relation.

Conventions (documented in docs/mathgraph.md):

* symbols are real by default (``real=False`` for the complex domain); names in ``positive`` are
  positive; a sum or product index is an integer;
* ``\\log`` follows ``settings.log_base`` ("e": natural, "10": common); ``\\log_b x`` is log base b;
* ± and ∓ expand into two branches with one sign choice per relation (∓ takes the opposite
  sign): ``x = \\pm 2`` becomes ``Or(Eq(x, 2), Eq(x, -2))``, and ``x^2 = 1 \\iff x = \\pm 1`` keeps
  the disjunction inside the equivalence. A bare expression with ± has no single form
  (:class:`PlusMinusError`); :func:`branches` gives one object per sign choice of the whole graph;
* a number literal that would be expensive to evaluate stays unevaluated, so that building the
  SymPy form is always fast: a huge power becomes an opaque :class:`HugePower` that no later sum,
  product, comparison, substitution or print evaluates either; factorials and binomials stay
  unevaluated (the literals of one state share one bit budget, :class:`LiteralBudget`);
* a division by a literal zero is an input error, never ``zoo``.

>>> from veristep.mathgraph.parser import parse_latex
>>> to_sympy(parse_latex(r"x = \\pm 2"))
Eq(x, -2) | Eq(x, 2)
>>> to_sympy(parse_latex(r"\\lim_{x\\to 0^+}\\frac{1}{x}"))
Limit(1/x, x, 0, dir='+')
>>> to_sympy(parse_latex(r"\\pi \\approx 3.14"))
Approx(pi, 157/50)
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import sympy
from sympy.logic.boolalg import Boolean, BooleanFunction

from veristep.core.errors import InputError, shorten
from veristep.core.settings import Settings
from veristep.mathgraph.errors import PlusMinusError
from veristep.mathgraph.nodes import Graph, Kind, Node
from veristep.mathgraph.sympy_calculus import CalculusConversion
from veristep.mathgraph.sympy_literals import HugePower, LiteralBudget
from veristep.mathgraph.sympy_subscripts import SubscriptBinding


class Approx(BooleanFunction):
    """``lhs ≈ rhs``: a declared approximation. Never an equation; the checker judges tolerance."""

    nargs = 2

    @classmethod
    def eval(cls, *args: Any) -> None:
        return None  # never evaluates: an approximation is not a truth value by itself

    @property
    def lhs(self) -> sympy.Expr:
        return self.args[0]

    @property
    def rhs(self) -> sympy.Expr:
        return self.args[1]

    def _latex(self, printer: Any) -> str:
        return f"{printer._print(self.lhs)} \\approx {printer._print(self.rhs)}"


def to_sympy(
    graph: Graph,
    *,
    real: bool = True,
    positive: frozenset[str] = frozenset(),
    settings: Settings | None = None,
) -> Any:
    root = graph.root if isinstance(graph, Graph) else graph
    return _convert(root, settings or Settings(), real, positive, sign=None)


def _convert(
    root: Node, settings: Settings, real: bool, positive: frozenset[str], sign: int | None
) -> Any:
    """Convert one tree; ``10^{10^{10}} + 1`` stays fast because its power is a HugePower."""
    converter = Converter(settings, real, positive, sign)
    converter.scan_dependents(root)
    return _guarded(converter.convert, root)


def _relation(cls: Any, a: Any, b: Any, evaluate: bool) -> Any:
    """``cls(a, b)``, settled to true/false here only where that is cheap: equal sides, a
    constant difference (2x - 6 = 2x - 3), a non-real constant side (x = i). SymPy's evaluation
    asks the assumptions system whether a - b is zero or positive, which was half the time spent
    reading a state; a relation only those queries settle (x^2 + 1 = 0) stays a relation, which
    the checks decide (no real solution) like any other."""
    if not evaluate or a == b:
        return cls(a, b, evaluate=evaluate)
    if not (a - b).free_symbols or any(_non_real_constant(side) for side in (a, b)):
        return cls(a, b)
    return cls(a, b, evaluate=False)


def _settled(statement: Any) -> Any:
    if isinstance(statement, sympy.core.relational.Relational) and not _has_calculus(
        statement.lhs, statement.rhs
    ):
        return type(statement)(statement.lhs, statement.rhs)
    return statement


def _non_real_constant(e: Any) -> bool:
    return bool(getattr(e, "is_number", False) and e.has(sympy.I))


def _odd_root_may_be_negative(radicand: Any, index: Any) -> bool:
    return (
        getattr(index, "is_Integer", False)
        and int(index) > 1
        and int(index) % 2 == 1  # int: with evaluation off, Mod(3, 2) == 1 is False
        and getattr(radicand, "is_extended_nonnegative", None) is not True
    )


def _guarded(convert: Any, root: Node) -> Any:
    """SymPy refuses some well-formed graphs (``i \\le 1``): that is bad input, not a crash."""
    try:
        return convert(root)
    except (TypeError, ValueError, AttributeError, NotImplementedError) as exc:
        raise InputError(f"no SymPy form: {exc}", kind="math") from None


def _name_fragment(err: InputError, node: Node) -> None:
    """Give an unlocated error the LaTeX of the innermost node that raised it (once), so that
    "division by zero" says where; :func:`locate` then finds that fragment in the source."""
    if err.source is not None or "fragment" in err.extra:
        return
    from veristep.mathgraph.latex_out import to_latex

    try:
        fragment = to_latex(node)
    except Exception:  # naming the place is a courtesy; the error itself must get through
        return
    err.extra.update(fragment=fragment, bare=err.message)
    err.message += f" in {shorten(fragment)!r}"
    err.args = (err.message,)


def locate(err: InputError, source: str) -> InputError:
    """Point ``err`` at its fragment in ``source`` (spacing aside) when it appears there.

    >>> err = InputError("division by zero", extra={"fragment": "1 / 0", "bare": "division"})
    >>> locate(err, "y = 2 + 1/0").one_line()
    "division at column 9: '1/0'"
    """
    fragment = err.extra.get("fragment")
    if err.source is not None or not isinstance(fragment, str) or not fragment.strip():
        return err
    kept = [i for i, ch in enumerate(source) if not ch.isspace()]
    compact = "".join(source[i] for i in kept)
    for spelling in (fragment, *_typed_spellings(fragment)):
        wanted = "".join(spelling.split())
        found = compact.find(wanted)
        if found >= 0:
            last = kept[found + len(wanted) - 1]
            err.source, err.position, err.length = source, kept[found], last - kept[found] + 1
            err.message = err.extra.get("bare", err.message)
            err.args = (err.message,)
            break
    return err


_FRAC = re.compile(r"\\frac\{([^{}]*)\}\{([^{}]*)\}")
_POWER = re.compile(r"\^\{([^{}]*)\}")


def _typed_spellings(fragment: str) -> list[str]:
    """How a person may have typed a LaTeX fragment as plain maths (``\\frac{1}{0}`` as ``1/0``),
    so that an error found after reading plain input is still located in what was typed.

    >>> _typed_spellings(r"\\frac{1}{x}")[:2]
    ['1/x', '(1)/(x)']
    """
    frac = _FRAC.fullmatch(fragment.strip())
    if frac:
        a, b = frac.groups()
        return [f"{a}/{b}", f"({a})/({b})", f"{a}/({b})", f"({a})/{b}"]
    power = _POWER.search(fragment)
    if power:
        inner = power.group(1)
        return [_POWER.sub(f"^{inner}", fragment, 1), _POWER.sub(f"^({inner})", fragment, 1)]
    return []


def branches(
    graph: Graph,
    *,
    real: bool = True,
    positive: frozenset[str] = frozenset(),
    settings: Settings | None = None,
) -> list[Any]:
    """Every ± in the graph takes the same sign, every ∓ the other; duplicates are dropped."""
    root = graph.root if isinstance(graph, Graph) else graph
    has_pm = any(n.kind is Kind.PM for n in root.walk())
    out: list[Any] = []
    for sign in (1, -1) if has_pm else (None,):
        form = _convert(root, settings or Settings(), real, positive, sign)
        if all(form != other for other in out):
            out.append(form)
    return out


_FUNCTIONS = {
    "sin": sympy.sin, "cos": sympy.cos, "tan": sympy.tan, "sec": sympy.sec, "csc": sympy.csc,
    "cot": sympy.cot, "arcsin": sympy.asin, "arccos": sympy.acos, "arctan": sympy.atan,
    "arcsec": sympy.asec, "arccsc": sympy.acsc, "arccot": sympy.acot, "sinh": sympy.sinh,
    "cosh": sympy.cosh, "tanh": sympy.tanh, "sech": sympy.sech, "csch": sympy.csch,
    "coth": sympy.coth, "arsinh": sympy.asinh, "arcosh": sympy.acosh, "artanh": sympy.atanh,
    "exp": sympy.exp, "ln": sympy.log, "sgn": sympy.sign,
}  # fmt: skip
_CONSTANTS = {"e": sympy.E, "i": sympy.I, "pi": sympy.pi, "infty": sympy.oo}
_SETS = {"R": sympy.S.Reals, "N": sympy.S.Naturals0, "Z": sympy.S.Integers,
         "Q": sympy.S.Rationals, "C": sympy.S.Complexes, "emptyset": sympy.S.EmptySet}  # fmt: skip
_RELATIONS = {"=": sympy.Eq, "<": sympy.Lt, ">": sympy.Gt, "ne": sympy.Ne, "le": sympy.Le,
              "ge": sympy.Ge}  # fmt: skip


_CALCULUS = (sympy.Integral, sympy.Limit, sympy.Sum, sympy.Product, sympy.Derivative)


def _folded(exp: Any) -> Any:
    """A small literal exponent written as arithmetic (``10^{3}``, ``2 \\cdot 3``) as its number.

    Built unevaluated (the written-domain reading), ``x^{2 \\cdot 3}`` kept a ``Mul`` exponent that
    the domain rules read as "maybe not an integer", restricting x to x ≥ 0 — which then hid the
    root -1 of ``x^{6} = 1`` and graded ``x = 1`` as grounded.
    """
    from veristep.core.prescreen import _literal_log10

    if isinstance(exp, sympy.Rational) or not isinstance(exp, sympy.Basic) or exp.free_symbols:
        return exp
    size = _literal_log10(exp)
    if size is None or size > 6:
        return exp
    with sympy.evaluate(True):
        return exp.doit()


def _has_calculus(*values: Any) -> bool:
    return any(isinstance(v, sympy.Basic) and v.has(*_CALCULUS) for v in values)


def _is_applied_name(node: Node) -> bool:
    """``y(x)``: a non-elementary function applied to one variable."""
    if node.value in _FUNCTIONS or node.value == "log" or len(node.children) != 1:
        return False
    return node.children[0].kind is Kind.SYMBOL


class Converter(SubscriptBinding, CalculusConversion):
    def __init__(
        self,
        settings: Settings,
        real: bool,
        positive: frozenset[str],
        sign: int | None,
        evaluate: bool = True,
    ) -> None:
        self.settings = settings
        self.evaluate = evaluate  # False: build factorials, floors and relations unevaluated
        self.budget = LiteralBudget()  # bits of evaluated literals this conversion may still build
        self.real = real
        self.positive = positive
        self.sign = sign
        self.integer_names: list[str] = []
        self.calculus_vars: list[str] = []  # variables of enclosing d/dx, integrals, limits
        self.dependents: dict[str, str] = {}

    def scan_dependents(self, root: Node) -> None:
        """``\\frac{dy}{dx}`` or ``y(x)`` make a bare y mean y(x) throughout the statement."""
        for node in root.walk():
            if node.kind is Kind.DERIV and node.value.endswith("-frac"):
                target, var = node.children[0], node.children[1]
                self.dependents.setdefault(target.value, var.value)
            elif node.kind is Kind.FUNC and _is_applied_name(node):
                self.dependents.setdefault(node.value, node.children[0].value)

    def convert(self, node: Node) -> Any:
        try:
            return getattr(self, f"c_{node.kind.name.lower()}")(node)
        except InputError as err:
            _name_fragment(err, node)
            raise

    def all(self, node: Node) -> list[Any]:
        return [self.convert(c) for c in node.children]

    def numbers(self, node: Node) -> list[Any]:
        """The converted operands of an arithmetic node; a truth value (``\\top``) is refused."""
        values = self.all(node)
        if any(isinstance(v, Boolean) and not isinstance(v, sympy.Expr) for v in values):
            raise InputError(f"a truth value cannot be an operand of {node.kind.value!r}",
                             kind="math")  # fmt: skip
        return values

    # --- leaves --------------------------------------------------------------------------------
    def symbol(self, name: str) -> Any:
        if name in self.dependents and name not in self.integer_names:
            return self.function(name)(self.symbol_plain(self.dependents[name]))
        if "_" in name and (self.integer_names or self.calculus_vars):
            bound = self.bound_subscript(name)
            if bound is not None:
                return bound
        return self.symbol_plain(name)

    def function(self, name: str) -> Any:
        return sympy.Function(name, real=True) if self.real else sympy.Function(name)

    def symbol_plain(self, name: str) -> sympy.Symbol:
        if name in self.integer_names:
            return sympy.Symbol(name, integer=True)
        if name in self.positive:
            return sympy.Symbol(name, positive=True)
        return sympy.Symbol(name, real=True) if self.real else sympy.Symbol(name)

    def c_symbol(self, n: Node) -> Any:
        return self.symbol(n.value)

    def c_number(self, n: Node) -> Any:
        return sympy.Rational(n.value) if "." in n.value else sympy.Integer(n.value)

    def c_constant(self, n: Node) -> Any:
        return _CONSTANTS[n.value]

    def c_bool(self, n: Node) -> Any:
        return sympy.true if n.value in ("True", "top") else sympy.false

    def c_set_const(self, n: Node) -> Any:
        return _SETS[n.value]

    # --- arithmetic ----------------------------------------------------------------------------
    def c_add(self, n: Node) -> Any:
        return sympy.Add(*self.numbers(n))

    def c_neg(self, n: Node) -> Any:
        return -self.numbers(n)[0]

    def c_pm(self, n: Node) -> Any:
        if self.sign is None:
            raise PlusMinusError(
                "an expression with ± has two values and no single SymPy form",
                hint="branches()",
            )
        sign = self.sign if n.value == "pm" else -self.sign
        return sign * self.convert(n.children[0])

    def c_mul(self, n: Node) -> Any:
        factors = self.numbers(n)
        if any(isinstance(f, sympy.MatrixBase) for f in factors):
            out = factors[0]
            for f in factors[1:]:
                out = out * f
            return out
        return sympy.Mul(*factors)

    def quotient(self, n: Node) -> Any:
        top, bottom = self.numbers(n)
        if bottom == 0:
            raise InputError("division by zero", kind="math")
        return top / bottom

    c_div = quotient
    c_frac = quotient

    def c_pow(self, n: Node) -> Any:
        base, exp = self.numbers(n)
        exp = _folded(exp)
        if not self.budget.power_fits(base, exp):
            return HugePower(base, exp)
        if base == 0 and exp.is_negative:
            raise InputError("division by zero (0 to a negative power)", kind="math")
        return sympy.Pow(base, exp)

    def c_sqrt(self, n: Node) -> Any:
        radicand = self.convert(n.children[0])
        if len(n.children) == 1:
            return sympy.sqrt(radicand)
        index = self.convert(n.children[1])
        if self.real and _odd_root_may_be_negative(radicand, index):
            # Over the reals \sqrt[3]{-8} is -2 and \sqrt[3]{A} is defined for every real A
            # (sign(A)|A|^{1/3}, what SymPy's real solveset of s^3 = A returns); SymPy's root is
            # the principal complex one, 2(-1)^{1/3} for -8, which would refute -2 and make a
            # cube root of a letter undefined below zero. Built by hand: sympy.real_root is a
            # Piecewise of principal roots when nothing evaluates (the written form).
            return sympy.sign(radicand) * sympy.Pow(sympy.Abs(radicand), sympy.Rational(1, index))
        return sympy.root(radicand, index)

    def c_func(self, n: Node) -> Any:
        args = self.numbers(n)
        if n.value == "log":
            return sympy.log(args[0]) if self.settings.log_base == "e" else sympy.log(args[0], 10)
        if n.value in _FUNCTIONS:
            return _FUNCTIONS[n.value](*args)
        return self.function(n.value)(*args)

    def c_log(self, n: Node) -> Any:
        base, arg = self.all(n)
        return sympy.log(arg, base)

    def c_conjugate(self, n: Node) -> Any:
        arg = self.convert(n.children[0])
        if self.real and not arg.has(sympy.I):
            # Over the reals the conjugate of an expression without i is the expression itself:
            # the writer means complex names (or a starred name such as an optimum x^*), and
            # the real reading would silently drop the bar.
            raise InputError(
                f"the complex conjugate of {arg} needs the complex domain (its names are real)",
                kind="math",
            )
        return sympy.conjugate(arg)

    def c_factorial(self, n: Node) -> Any:
        arg = self.convert(n.children[0])
        return sympy.factorial(arg, evaluate=self.evaluate and self.budget.factorial_fits(arg))

    def c_binom(self, n: Node) -> Any:
        top, bottom = self.all(n)
        fits = self.budget.binomial_fits(top, bottom)
        return sympy.binomial(top, bottom, evaluate=self.evaluate and fits)

    def c_abs(self, n: Node) -> Any:
        return sympy.Abs(self.convert(n.children[0]))

    def c_floor(self, n: Node) -> Any:
        arg = self.convert(n.children[0])
        return sympy.floor(arg, evaluate=self.evaluate and not _has_calculus(arg))

    def c_ceil(self, n: Node) -> Any:
        arg = self.convert(n.children[0])
        return sympy.ceiling(arg, evaluate=self.evaluate and not _has_calculus(arg))

    # --- statements ----------------------------------------------------------------------------
    def c_relation(self, n: Node) -> Any:
        if self.sign is None and any(c.kind is Kind.PM for c in n.walk()):
            # x = ±2 means x = 2 or x = -2: the relation is the disjunction of its branches
            forms = []
            for sign in (1, -1):
                self.sign = sign
                try:
                    forms.append(self.c_relation(n))
                finally:
                    self.sign = None
            return sympy.Or(*forms)
        items = self.all(n)
        parts = []
        for op, (a, b) in zip(n.value.split(","), itertools.pairwise(items), strict=True):
            if op in ("in", "notin"):
                if not isinstance(b, sympy.Set):
                    raise InputError(f"the right side of \\in is not a set: {b}", kind="math")
                member = sympy.Contains(a, b)
                parts.append(member if op == "in" else sympy.Not(member))
            elif op == "approx":
                parts.append(Approx(a, b))
            else:
                # Comparing an integral or a limit would evaluate it here, unbounded (Eq of
                # a Gaussian integral takes seconds): leave that to the grounding engine.
                evaluate = self.evaluate and not _has_calculus(a, b)
                parts.append(_relation(_RELATIONS[op], a, b, evaluate))
        return parts[0] if len(parts) == 1 else sympy.And(*parts)

    def statements(self, n: Node) -> list[Any]:
        out = []
        for child, value in zip(n.children, self.all(n), strict=True):
            if not isinstance(value, Boolean) and not (
                child.kind is Kind.SYMBOL and isinstance(value, sympy.Symbol)
            ):
                raise InputError(f"operand of {n.kind.value!r} is not a statement: {value}",
                                 kind="math")  # fmt: skip
            out.append(sympy.Symbol(value.name) if isinstance(value, sympy.Symbol) else value)
        return out

    def c_and(self, n: Node) -> Any:
        return sympy.And(*self.statements(n))

    def c_or(self, n: Node) -> Any:
        # A branch only the assumptions settle (a = -b with positive letters) is settled here, as
        # SymPy would: a disjunction is rare, and a false branch is one a person drops on sight.
        return sympy.Or(*(_settled(s) if self.evaluate else s for s in self.statements(n)))

    def c_system(self, n: Node) -> Any:
        return sympy.And(*self.statements(n))

    def c_not(self, n: Node) -> Any:
        return sympy.Not(self.statements(n)[0])

    def c_implies(self, n: Node) -> Any:
        return sympy.Implies(*self.statements(n))

    def c_iff(self, n: Node) -> Any:
        return sympy.Equivalent(*self.statements(n))

    def c_continuation(self, n: Node) -> Any:
        return self.convert(n.children[0])

    # --- collections ---------------------------------------------------------------------------
    def c_matrix(self, n: Node) -> Any:
        return sympy.ImmutableMatrix([self.all(row) for row in n.children])

    def c_row(self, n: Node) -> Any:
        return self.all(n)

    def c_set(self, n: Node) -> Any:
        return sympy.FiniteSet(*self.all(n))

    def c_union(self, n: Node) -> Any:
        sets = self.all(n)
        for value in sets:
            if not isinstance(value, sympy.Set):
                raise InputError(f"a part of a union (\\cup) is not a set: {value}", kind="math")
        return sympy.Union(*sets)

    def c_interval(self, n: Node) -> Any:
        lo, hi = self.all(n)
        return sympy.Interval(lo, hi, n.value[0] == "(", n.value[1] == ")")
