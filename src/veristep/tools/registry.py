"""One registry of agent tools: each defined once (name, description, input schema, function).

A tool is a :class:`ToolSpec`; its function takes the validated arguments and a :class:`Call`
(settings, budget, progress, cancellation, the caller's session state) and returns a JSON-ready
dict. The MCP server, the web chat agent and DSPy all read the same specs, so a tool's schema
and wording cannot drift between them.

Inputs are untrusted. :func:`validate` checks every argument against the schema before the
function runs (types, bounded lengths and counts, no unknown keys); any failure, in validation
or in the tool, is a :class:`ToolError` with a located one-line message, never a traceback.

>>> spec = ToolSpec("echo", "Echo a word.", {"type": "object", "properties":
...     {"word": {"type": "string", "maxLength": 5}}, "required": ["word"],
...     "additionalProperties": False}, lambda args, call: {"word": args["word"]})
>>> validate(spec, {"word": "toolong"})
Traceback (most recent call last):
veristep.tools.registry.ToolError: echo: argument 'word': longer than 5 characters
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from veristep.core.errors import InputError, VeristepError
from veristep.core.settings import Settings
from veristep.core.subprocesses import KillScope

ToolFn = Callable[[dict[str, Any], "Call"], dict[str, Any]]
ProgressFn = Callable[[float, float | None, str], None]

MAX_BUDGET_S = 600.0  # no single call may hold a worker or a prover longer than this


class ToolError(VeristepError):
    """A tool refused or failed: the message names the tool and, when known, the argument."""

    def __init__(self, tool: str, message: str, argument: str | None = None) -> None:
        where = f"{tool}: argument {argument!r}: " if argument else f"{tool}: "
        super().__init__(f"{where}{message}")
        self.tool, self.argument = tool, argument


class Cancelled(VeristepError):
    """The client cancelled the call, or its budget ran out (never evidence about the maths)."""


@dataclass(frozen=True)
class ToolSpec:
    """One tool: what an agent reads (name, description, schema) and what runs."""

    name: str
    description: str
    input_schema: dict[str, Any]
    fn: ToolFn
    budget_s: float = 30.0  # default wall budget; a ``budget_s`` argument may lower or raise it
    long: bool = False  # reports progress; worth cancelling
    title: str | None = None

    def openai_schema(self) -> dict[str, Any]:
        """The OpenAI function-calling form of this tool."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.input_schema,
            },
        }


@dataclass
class Call:
    """What one tool call may use: settings, a deadline, progress, cancellation, session state."""

    settings: Settings
    budget_s: float
    state: dict[str, Any] = field(default_factory=dict)  # per server: Coq sessions, saved items
    progress: ProgressFn | None = None
    # Structured events for a client that shows them (the web's prove page: each attempt's
    # phase and signals); MCP clients hear only ``progress``.
    events: Callable[[dict[str, Any]], None] | None = None
    cancelled: threading.Event = field(default_factory=threading.Event)
    started: float = field(default_factory=time.monotonic)
    _on_cancel: list[Callable[[], None]] = field(default_factory=list)
    # Every external program (E, coqc, coqchk) the tool starts in this call's context: a cancel
    # kills them too, however deep in the library they were started.
    programs: KillScope = field(default_factory=KillScope)

    @property
    def left(self) -> float:
        return self.budget_s - (time.monotonic() - self.started)

    def checkpoint(self) -> None:
        """Stop here if the client cancelled or the budget is spent."""
        if self.cancelled.is_set():
            raise Cancelled("cancelled by the client")
        if self.left <= 0:
            raise Cancelled(f"budget of {self.budget_s:g} s spent")

    def on_cancel(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` (kill a prover, say) if this call is cancelled while it works; at once if
        it already was (a cancel that came while the tool was still setting up)."""
        self._on_cancel.append(fn)
        if self.cancelled.is_set():
            with contextlib.suppress(Exception):
                fn()

    def cancel(self) -> None:
        """Mark the call cancelled and run its hooks (from any thread)."""
        self.cancelled.set()
        self.programs.kill()
        for fn in self._on_cancel:
            with contextlib.suppress(Exception):  # a failing hook must not stop the others
                fn()

    def report(self, done: float, total: float | None, message: str) -> None:
        if self.progress is not None:
            self.progress(done, total, message)

    def event(self, event: dict[str, Any]) -> None:
        if self.events is not None:
            self.events(event)


class Registry:
    """Tools by name, in the order they were added (the order clients list them)."""

    def __init__(self, specs: Iterable[ToolSpec] = ()) -> None:
        self._specs: dict[str, ToolSpec] = {}
        for spec in specs:
            self.add(spec)

    def add(self, spec: ToolSpec) -> None:
        if spec.name in self._specs:
            raise ValueError(f"tool {spec.name!r} is defined twice")
        self._specs[spec.name] = spec

    def __iter__(self):
        return iter(self._specs.values())

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def get(self, name: str) -> ToolSpec:
        spec = self._specs.get(name)
        if spec is None:
            raise ToolError(name, f"no such tool; the tools are: {', '.join(self._specs)}")
        return spec

    def budget(self, spec: ToolSpec, args: dict[str, Any]) -> float:
        asked = args.get("budget_s")
        return min(float(asked), MAX_BUDGET_S) if asked is not None else spec.budget_s

    def call(self, name: str, args: Any, call: Call) -> dict[str, Any]:
        """Validate ``args`` and run tool ``name``; every failure is a :class:`ToolError`."""
        spec = self.get(name)
        validate(spec, args)
        try:
            with call.programs.active():
                result = spec.fn(args, call)
            if call.cancelled.is_set():  # what its killed programs left is no answer
                raise Cancelled("cancelled by the client")
            return result
        except ToolError:
            raise
        except InputError as err:
            raise ToolError(name, err.one_line()) from None
        except Cancelled as exc:
            raise ToolError(name, f"stopped: {exc}") from None
        except RecursionError:
            raise ToolError(name, "input nested too deeply") from None
        except Exception as exc:  # the last line of defence: a located line, no traceback
            raise ToolError(name, f"internal error: {type(exc).__name__}: {exc}"[:500]) from None


_PY_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}


def validate(spec: ToolSpec, args: Any) -> None:
    """Check ``args`` against ``spec``'s schema (the subset our schemas use)."""
    if not isinstance(args, dict):
        raise ToolError(spec.name, "arguments must be a JSON object")
    schema = spec.input_schema
    props: dict[str, Any] = schema.get("properties", {})
    unknown = sorted(set(args) - set(props))
    if unknown:
        raise ToolError(spec.name, f"unknown argument {unknown[0]!r}; expected: {', '.join(props)}")
    for name in schema.get("required", []):
        if args.get(name) is None:
            raise ToolError(spec.name, "is required", name)
    for name, value in args.items():
        if value is not None:
            _check_value(spec.name, name, value, props[name])


def _check_value(tool: str, where: str, value: Any, schema: dict[str, Any]) -> None:
    kind = schema.get("type")
    if kind is not None:
        ok = isinstance(value, _PY_TYPES[kind]) and not (
            kind in ("integer", "number") and isinstance(value, bool)
        )
        if not ok:
            raise ToolError(tool, f"must be of type {kind}", where)
    if "enum" in schema and value not in schema["enum"]:
        raise ToolError(tool, f"must be one of {', '.join(map(str, schema['enum']))}", where)
    if isinstance(value, str):
        if len(value) > schema.get("maxLength", 20_000):
            raise ToolError(
                tool, f"longer than {schema.get('maxLength', 20_000)} characters", where
            )
        if any(0xD800 <= ord(ch) <= 0xDFFF for ch in value):
            raise ToolError(tool, "holds a lone surrogate, which is not text", where)
        if len(value) < schema.get("minLength", 0):
            raise ToolError(tool, "is empty", where)
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            raise ToolError(tool, f"must be at least {schema['minimum']}", where)
        if "maximum" in schema and value > schema["maximum"]:
            raise ToolError(tool, f"must be at most {schema['maximum']}", where)
    if isinstance(value, list):
        if len(value) > schema.get("maxItems", 100):
            raise ToolError(tool, f"more than {schema.get('maxItems', 100)} items", where)
        if len(value) < schema.get("minItems", 0):
            raise ToolError(tool, f"fewer than {schema['minItems']} items", where)
        for i, item in enumerate(value):
            _check_value(tool, f"{where}[{i}]", item, schema.get("items", {}))
    if isinstance(value, dict) and "properties" in schema:
        _check_object(tool, where, value, schema)


def _check_object(tool: str, where: str, value: dict[str, Any], schema: dict[str, Any]) -> None:
    props = schema["properties"]
    for key, item in value.items():
        if key not in props:
            if schema.get("additionalProperties", True) is False:
                raise ToolError(tool, f"unknown key {key!r}", where)
            continue
        _check_value(tool, f"{where}.{key}", item, props[key])
    for key in schema.get("required", []):
        if key not in value:
            raise ToolError(tool, f"key {key!r} is required", where)


# -- small schema builders, so that every tool's schema reads the same way ---------------------
def text(description: str, max_length: int = 20_000, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, "maxLength": max_length, **extra}


def budget(default: float, maximum: float = MAX_BUDGET_S) -> dict[str, Any]:
    return {
        "type": "number",
        "description": f"wall-clock budget in seconds (default {default:g})",
        "minimum": 0.1,
        "maximum": maximum,
    }


def obj(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
