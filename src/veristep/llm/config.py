"""The one place that turns a model string into a configured ``dspy.LM``.

Model strings are LiteLLM/DSPy provider strings, ``provider/name``:

- hosted providers — ``openai/gpt-4o-mini``, ``anthropic/claude-…``, ``gemini/…``,
  ``openrouter/…``: the key comes from the provider's own environment variable, read by DSPy/LiteLLM
  (``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, ``GEMINI_API_KEY``, ``OPENROUTER_API_KEY``, …), or
  from ``settings.api_key`` (``VERISTEP_API_KEY``) when set;
- local OpenAI-compatible servers (llama.cpp's ``llama-server``, vLLM) — ``hosted_vllm/<name>``
  with an ``api_base`` ending in ``/v1``: no key needed, and it sends ``max_tokens``, which
  llama.cpp honours (``openai/`` sends ``max_completion_tokens``, which llama.cpp ignores and then
  generates to the end of its context);
- other OpenAI-compatible servers (LM Studio, …) — ``openai/<name>`` with an ``api_base``. The
  OpenAI client insists on a non-empty key, so without an explicit key a placeholder is sent: the
  ambient ``OPENAI_API_KEY`` is deliberately *not* forwarded to a server the user named, because
  it is a credential for someone else;
- ``ollama_chat/<name>``: the Ollama server at ``api_base``, default ``http://localhost:11434/v1``;
  a base without the ``/v1`` suffix gets it appended, because that is the path Ollama's
  OpenAI-compatible endpoint lives under.

``api_base`` comes from the argument, else ``settings.api_base`` (``VERISTEP_API_BASE``);
temperature, max tokens, request timeout, retries and DSPy's response cache from settings
(``lm_temperature``, ``lm_max_tokens``, ``lm_timeout_s``, ``lm_num_retries``, ``lm_cache``; the
middle three from ``VERISTEP_MAX_TOKENS``, ``VERISTEP_LM_TIMEOUT``, ``VERISTEP_LM_RETRIES``).

>>> from veristep.core.settings import Settings
>>> lm = make_lm("hosted_vllm/qwen", Settings(), api_base="http://127.0.0.1:8000/v1")
>>> lm.model, lm.kwargs["max_tokens"], lm.kwargs["temperature"], lm.cache
('hosted_vllm/qwen', 4000, 0.0, False)
>>> make_lm("gpt4", Settings())
Traceback (most recent call last):
...
veristep.core.errors.InputError: model 'gpt4' has no provider prefix (did you mean openai/gpt4?)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import veristep.llm  # noqa: F401  (sets LITELLM_LOCAL_MODEL_COST_MAP before DSPy is imported)
from veristep.core.errors import InputError

if TYPE_CHECKING:
    import dspy

    from veristep.core.settings import Settings

OLLAMA_DEFAULT_BASE = "http://localhost:11434/v1"
LOCAL_PLACEHOLDER_KEY = "local-server-no-key"

# Providers DSPy/LiteLLM route by prefix; listed only to give a "did you mean" on a typo, never to
# refuse a provider missing from this list (LiteLLM knows many more).
KNOWN_PROVIDERS = (
    "openai",
    "anthropic",
    "gemini",
    "vertex_ai",
    "azure",
    "bedrock",
    "mistral",
    "groq",
    "together_ai",
    "openrouter",
    "deepseek",
    "xai",
    "fireworks_ai",
    "hosted_vllm",
    "ollama",
    "ollama_chat",
    "huggingface",
    "databricks",
    "cohere",
)


def make_lm(
    model: str,
    settings: Settings,
    *,
    api_base: str | None = None,
    api_key: str | None = None,
    cache: bool | None = None,
    **kwargs: Any,
) -> dspy.LM:
    """Build a ``dspy.LM`` for ``model`` with budgets from ``settings``.

    Raises :class:`InputError` for a model string without a provider prefix and for a local
    provider that needs an ``api_base`` it did not get. Extra ``kwargs`` go to ``dspy.LM``.
    """
    provider, name = split_model(model)
    base = api_base or settings.api_base
    key = api_key or settings.api_key
    if provider == "ollama_chat":
        base = _with_v1(base or OLLAMA_DEFAULT_BASE)
    elif provider == "hosted_vllm" and not base:
        raise InputError(
            f"model {model!r} needs an api_base (the vLLM server, e.g. http://127.0.0.1:8000/v1)"
        )
    elif provider == "openai" and base and not key:
        key = LOCAL_PLACEHOLDER_KEY
    options: dict[str, Any] = {
        "temperature": settings.lm_temperature,
        "max_tokens": settings.lm_max_tokens,
        "cache": settings.lm_cache if cache is None else cache,
        "num_retries": settings.lm_num_retries,
        "timeout": settings.lm_timeout_s,
    }
    if base:
        options["api_base"] = base
    if key:
        options["api_key"] = key
    options.update(kwargs)

    import dspy

    _quiet_library_logs()
    return dspy.LM(f"{provider}/{name}", **options)


def _quiet_library_logs() -> None:
    # DSPy and LiteLLM log warnings (a truncated reply, a retry) straight to stderr, where the
    # CLI's contract is one located line; what they report reaches the user in the run's note.
    import logging

    for name in ("dspy", "LiteLLM", "litellm", "httpx"):
        logging.getLogger(name).setLevel(logging.ERROR)


def split_model(model: str) -> tuple[str, str]:
    """``"openai/gpt-4o"`` → ``("openai", "gpt-4o")``; a located error for anything else.

    >>> split_model("ollama_chat/llama3.1:8b")
    ('ollama_chat', 'llama3.1:8b')
    """
    provider, sep, name = model.strip().partition("/")
    if not sep:
        raise InputError(f"model {model!r} has no provider prefix", hint=f"openai/{model}")
    if not provider or not name:
        raise InputError(
            f"model {model!r} needs both a provider and a name, as in openai/gpt-4o-mini",
            source=model,
            position=0 if not provider else len(provider),
            length=max(len(model), 1),
        )
    if provider not in KNOWN_PROVIDERS:
        from veristep.core.errors import did_you_mean

        hint = did_you_mean(provider, KNOWN_PROVIDERS, cutoff=0.8)
        if hint:
            raise InputError(
                f"unknown model provider {provider!r}",
                source=model,
                position=0,
                length=len(provider),
                hint=f"{hint}/{name}",
            )
    return provider, name


def _with_v1(base: str) -> str:
    base = base.rstrip("/")
    return base if base.endswith("/v1") else base + "/v1"
