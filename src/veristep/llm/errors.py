"""One sentence for a failed model call, saying what the user can change.

The libraries' own messages name their internals (LiteLLM suggests ``Timeouts(read=...)``, which a
``veristep`` user cannot call), so the common failures are recognised by type and described in
terms of veristep's settings; anything else keeps its own message, shortened.

>>> describe_model_failure(TimeoutError("read timed out"), timeout_s=120)
'the model did not answer within 120 s: raise VERISTEP_LM_TIMEOUT, lower VERISTEP_MAX_TOKENS or use a faster model'
>>> describe_model_failure(ConnectionRefusedError(111, "Connection refused"), api_base="http://127.0.0.1:9/v1")
'cannot reach the model server at http://127.0.0.1:9/v1 (ConnectionRefusedError): is it running? (VERISTEP_API_BASE)'
"""  # noqa: E501

from __future__ import annotations

from typing import Any

_TIMEOUT_NAMES = frozenset(
    {"Timeout", "APITimeoutError", "ReadTimeout", "WriteTimeout", "ConnectTimeout", "TimeoutError"}
)
_CONNECTION_NAMES = frozenset({"APIConnectionError", "ConnectError", "ConnectionError"})


def describe_model_failure(
    exc: BaseException, *, timeout_s: float | None = None, api_base: str | None = None
) -> str:
    names = _class_names(exc)
    if names & _TIMEOUT_NAMES:
        within = f" within {timeout_s:g} s" if timeout_s else ""
        return (
            f"the model did not answer{within}: raise VERISTEP_LM_TIMEOUT, lower "
            "VERISTEP_MAX_TOKENS or use a faster model"
        )
    if names & _CONNECTION_NAMES:
        where = f" at {api_base}" if api_base else ""
        return (
            f"cannot reach the model server{where} ({type(exc).__name__}): is it running? "
            "(VERISTEP_API_BASE)"
        )
    return f"model call failed: {type(exc).__name__}: {short(exc)}"


def _class_names(exc: BaseException) -> set[str]:
    """Class names along the exception and its causes: DSPy wraps the transport's own error."""
    names: set[str] = set()
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        names |= {cls.__name__ for cls in type(current).__mro__}
        current = current.__cause__ or current.__context__
    return names


def lm_budgets(lm: Any) -> tuple[float | None, str | None]:
    """The request timeout and server address a ``dspy.LM`` was built with, when it has them."""
    kwargs = getattr(lm, "kwargs", None) or {}
    timeout = kwargs.get("timeout")
    return (float(timeout) if isinstance(timeout, (int, float)) else None, kwargs.get("api_base"))


def short(value: Any, limit: int = 200) -> str:
    text = str(value).replace("\n", " ")
    return text if len(text) <= limit else text[:limit] + "…"
