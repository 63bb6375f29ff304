"""Test helpers every part of veristep uses for LM programs: scripted DSPy LMs and a local server.

- :func:`scripted_lm` — DSPy's ``DummyLM`` fed with one dict of output fields per call. For a
  ``dspy.ChainOfThought`` program each dict must also carry a ``"reasoning"`` key: ChainOfThought
  prepends a ``reasoning`` output field to the signature, and a reply without it fails to parse
  with an ``AdapterParseError`` that does not mention the cause. Pass ``chain_of_thought=True``
  to have that checked up front with a message that does.
- :class:`OpenAIStubServer` — an OpenAI-compatible server on 127.0.0.1, for tests of the real
  HTTP path (``make_lm("openai/stub-model", settings, api_base=server.api_base)``).
- :func:`chat_reply` — the text a DSPy ``ChatAdapter`` parses into the given output fields, to
  script the stub server.

Use ``with dspy.context(lm=...)`` in tests, not ``dspy.configure``: the context is undone on exit,
the global configuration leaks into every later test.

>>> import dspy
>>> lm = scripted_lm([{"reasoning": "6 times 7", "answer": "42"}], chain_of_thought=True)
>>> with dspy.context(lm=lm):
...     dspy.ChainOfThought("question -> answer")(question="6*7?").answer
'42'
>>> print(chat_reply(answer="42"))
[[ ## answer ## ]]
42
<BLANKLINE>
[[ ## completed ## ]]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import veristep.llm  # noqa: F401  (sets LITELLM_LOCAL_MODEL_COST_MAP before DSPy is imported)
from veristep.llm.stub_server import OpenAIStubServer

if TYPE_CHECKING:
    from dspy.utils import DummyLM

__all__ = ["OpenAIStubServer", "chat_reply", "scripted_lm"]


def scripted_lm(
    responses: Sequence[Mapping[str, Any]], *, chain_of_thought: bool = False
) -> DummyLM:
    """A ``DummyLM`` that answers call *i* with the output fields ``responses[i]``.

    Raises ``ValueError`` for a response that is not a dict of field names, and — with
    ``chain_of_thought=True`` — for one without the ``reasoning`` key ChainOfThought needs.
    """
    script: list[dict[str, Any]] = []
    for i, response in enumerate(responses):
        if not isinstance(response, Mapping) or not all(isinstance(k, str) for k in response):
            raise ValueError(f"response {i} must be a dict of output field names to values")
        if chain_of_thought and "reasoning" not in response:
            raise ValueError(
                f"response {i} has no 'reasoning' key: dspy.ChainOfThought adds a 'reasoning' "
                "output field before the signature's own, so every scripted reply must fill it, "
                f"e.g. {{'reasoning': '...', {', '.join(repr(k) + ': ...' for k in response)}}}"
            )
        script.append(dict(response))

    from dspy.utils import DummyLM

    return DummyLM(script)


def chat_reply(**fields: Any) -> str:
    """The completion text DSPy's ChatAdapter parses into ``fields`` (in the order given)."""
    parts = [f"[[ ## {name} ## ]]\n{value}" for name, value in fields.items()]
    parts.append("[[ ## completed ## ]]")
    return "\n\n".join(parts)
