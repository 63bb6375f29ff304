"""The tool registry without a server: schemas are bounded, validation is located, failures never
leak a traceback, cancellation runs its hooks, and the DSPy adapter runs the same tools."""

from __future__ import annotations

import json
from typing import Any

import pytest

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.tools import Call, Registry, ToolError, ToolSpec, default_registry
from veristep.tools.adapters import DERIVE_PROOF_ANIMATION, check_arguments, dspy_tools
from veristep.tools.registry import obj, text, validate


def _walk(schema: dict[str, Any], where: str) -> list[str]:
    """Every unbounded spot of a schema: a string without maxLength, an array without maxItems,
    a number without both limits, an object that admits unknown keys."""
    kind = schema.get("type")
    bad = []
    if kind == "string" and "maxLength" not in schema and "enum" not in schema:
        bad.append(where)
    if kind == "array":
        if "maxItems" not in schema:
            bad.append(where)
        bad += _walk(schema.get("items", {}), f"{where}[]")
    if kind in ("integer", "number") and not {"minimum", "maximum"} <= set(schema):
        bad.append(where)
    if kind == "object":
        if schema.get("additionalProperties") is not False:
            bad.append(where)
        for key, sub in schema.get("properties", {}).items():
            bad += _walk(sub, f"{where}.{key}")
    return bad


def test_every_tool_input_is_bounded_and_closed() -> None:
    specs = list(default_registry())
    assert len({s.name for s in specs}) == len(specs) == 19
    for spec in specs:
        assert spec.input_schema["type"] == "object"
        assert _walk(spec.input_schema, spec.name) == [], spec.name
        assert spec.description and spec.budget_s > 0
        json.dumps(spec.openai_schema())


ECHO = ToolSpec(
    "echo",
    "Echo.",
    obj(
        {
            "word": text("a word", 5, minLength=1),
            "words": {"type": "array", "items": text("w", 3), "maxItems": 2},
            "n": {"type": "integer", "minimum": 0, "maximum": 3},
            "mode": {"type": "string", "enum": ["a", "b"]},
        },
        ["word"],
    ),
    lambda args, call: {"word": args["word"]},
)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "echo: arguments must be a JSON object"),
        ({}, "echo: argument 'word': is required"),
        ({"word": None}, "echo: argument 'word': is required"),
        ({"word": "ab", "x": 1}, "echo: unknown argument 'x'"),
        ({"word": 5}, "echo: argument 'word': must be of type string"),
        ({"word": "toolong"}, "echo: argument 'word': longer than 5 characters"),
        ({"word": ""}, "echo: argument 'word': is empty"),
        ({"word": "a\ud800"}, "echo: argument 'word': holds a lone surrogate"),
        ({"word": "a", "words": ["a", "b", "c"]}, "echo: argument 'words': more than 2 items"),
        ({"word": "a", "words": ["abcd"]}, "echo: argument 'words[0]': longer than 3"),
        ({"word": "a", "n": True}, "echo: argument 'n': must be of type integer"),
        ({"word": "a", "n": 4}, "echo: argument 'n': must be at most 3"),
        ({"word": "a", "mode": "c"}, "echo: argument 'mode': must be one of a, b"),
    ],
)
def test_validation_names_the_tool_and_the_argument(args: Any, message: str) -> None:
    with pytest.raises(ToolError) as info:
        validate(ECHO, args)
    assert str(info.value).startswith(message)


def _call(**kw: Any) -> Call:
    return Call(Settings(), 5.0, **kw)


def test_failures_become_located_tool_errors_without_tracebacks() -> None:
    def boom(args: dict, call: Call) -> dict:
        raise ZeroDivisionError("deep inside")

    def bad_input(args: dict, call: Call) -> dict:
        raise InputError("unbalanced braces", source="x{", position=1)

    def deep(args: dict, call: Call) -> dict:
        raise RecursionError

    registry = Registry(
        [
            ToolSpec(n, "d", obj({}, []), fn)
            for n, fn in (("boom", boom), ("bad", bad_input), ("deep", deep))
        ]
    )
    with pytest.raises(ToolError, match=r"^boom: internal error: ZeroDivisionError: deep inside"):
        registry.call("boom", {}, _call())
    with pytest.raises(ToolError, match=r"^bad: unbalanced braces"):
        registry.call("bad", {}, _call())
    with pytest.raises(ToolError, match="nested too deeply"):
        registry.call("deep", {}, _call())
    with pytest.raises(ToolError, match="no such tool"):
        registry.call("nope", {}, _call())
    with pytest.raises(ValueError, match="defined twice"):
        Registry([ECHO, ECHO])


def test_cancel_runs_every_hook_and_stops_at_the_next_checkpoint() -> None:
    ran: list[str] = []
    call = _call()

    def failing() -> None:
        raise OSError("already dead")

    call.on_cancel(failing)
    call.on_cancel(lambda: ran.append("killed"))
    call.checkpoint()  # not cancelled yet: no effect
    call.cancel()
    assert ran == ["killed"]
    registry = Registry([ToolSpec("slow", "d", obj({}, []), lambda a, c: c.checkpoint() or {})])
    with pytest.raises(ToolError, match="slow: stopped: cancelled by the client"):
        registry.call("slow", {}, call)
    spent = Call(Settings(), 0.0)
    with pytest.raises(ToolError, match=r"budget of 0 s spent"):
        registry.call("slow", {}, spent)


def test_the_chat_tool_schema_and_its_argument_check_come_from_the_registry() -> None:
    from veristep.web.agent import TOOL_SCHEMA

    assert DERIVE_PROOF_ANIMATION.openai_schema() == TOOL_SCHEMA
    assert check_arguments(DERIVE_PROOF_ANIMATION, '{"target_latex": "x = 1"}') == {
        "target_latex": "x = 1"
    }
    for bad in ("{", "[]", '{"target_latex": 5}', '{"bogus": "x", "target_latex": "x"}'):
        with pytest.raises(ToolError, match=r"^derive_proof_animation: "):
            check_arguments(DERIVE_PROOF_ANIMATION, bad)


def test_dspy_react_with_a_dummy_lm_reads_the_verifiers_tier_from_the_registry_tool() -> None:
    """A fake LM (DSPy's DummyLM) scripts the agent; the tool it calls is the real check."""
    import dspy
    from dspy.utils.dummies import DummyLM

    registry = Registry([default_registry().get("check")])
    tools = dspy_tools(registry, lambda spec, args: Call(Settings(), spec.budget_s))
    assert set(tools[0].args) == {"states", "change_types", "target", "positive"}
    lm = DummyLM(
        [
            {
                "next_thought": "check the chain",
                "next_tool_name": "check",
                "next_tool_args": {"states": ["2x + 3 = 7", "2x = 5"]},
            },
            {"next_thought": "done", "next_tool_name": "finish", "next_tool_args": {}},
            {"reasoning": "the tool said refuted", "answer": "step 1 is refuted"},
        ]
    )

    class Ask(dspy.Signature):
        """Check the derivation."""

        request: str = dspy.InputField()
        answer: str = dspy.OutputField()

    with dspy.context(lm=lm, adapter=dspy.ChatAdapter(use_json_adapter_fallback=False)):
        out = dspy.ReAct(Ask, tools=tools, max_iters=3)(request="2x+3=7 so 2x=5")
    observation = out.trajectory["observation_0"]
    assert observation["steps"][0]["tier"] == "refuted"
    with pytest.raises(ValueError, match="states"):  # DSPy checks the same schema first
        tools[0](states="not a list")
    bad = tools[0].func(states="not a list")  # and the registry again, behind it
    assert bad == {"error": "check: argument 'states': must be of type array"}


def test_a_cancel_kills_the_program_a_tool_started_deep_inside_it() -> None:
    """No hook registered by the tool: the call's kill scope reaches the program anyway."""
    import threading
    import time

    from veristep.core.subprocesses import run_with_deadline

    def slow(args: dict[str, Any], call: Call) -> dict[str, Any]:
        result = run_with_deadline(["sleep", "30"], timeout_s=30, memory_mb=None)
        return {"cancelled": result.cancelled}

    registry = Registry((ToolSpec("slow", "sleeps", obj({}, []), slow, budget_s=60.0),))
    call = Call(Settings(), 60.0)
    threading.Timer(0.3, call.cancel).start()
    start = time.monotonic()
    with pytest.raises(ToolError, match="stopped: cancelled"):
        registry.call("slow", {}, call)
    assert time.monotonic() - start < 5
