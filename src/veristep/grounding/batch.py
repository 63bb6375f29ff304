"""One ``check --jsonl`` line as a batch-engine task (see ``core.batch``): a JSON task in, a JSON
result out, in a worker process, on Ray or in this process."""

from __future__ import annotations

from typing import Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings

# The settings that change a verdict: a stored result is reused only under the same ones.
_JUDGING = (
    "step_timeout_s", "cas_timeout_s", "inline_cas_s", "max_latex_chars", "max_graph_nodes",
    "max_exponent", "domain", "log_base", "function_names", "plain_symbols", "approx_rel_tol",
)  # fmt: skip


def check_task(task: dict[str, Any], settings: Settings) -> dict[str, Any]:
    """``{"ok": derivation}`` for a judged chain, ``{"bad": ...}`` for arguments it refuses."""
    from veristep.grounding.chain import check

    try:
        found = check(
            task["states"], task.get("change_types"), task.get("target"), settings,
            frozenset(task.get("positive") or ()),
        )  # fmt: skip
    except InputError as err:
        return {"bad": err.to_json(), "message": err.one_line()}
    return {"ok": found.to_json()}


def judging_salt(settings: Settings) -> str:
    """What, besides the task, a stored verdict depends on: the version and judging settings."""
    from veristep import __version__

    values = ", ".join(f"{name}={_plain(getattr(settings, name))}" for name in _JUDGING)
    return f"veristep {__version__}: {values}"


def _plain(value: Any) -> str:
    return repr(sorted(value)) if isinstance(value, frozenset) else repr(value)
