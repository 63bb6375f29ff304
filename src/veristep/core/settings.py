"""Settings are a frozen object passed in; the environment is read once, by the CLI.

>>> s = Settings().replace(step_timeout_s=1.5)
>>> s.step_timeout_s
1.5
>>> Settings().replace(step_timout_s=1)
Traceback (most recent call last):
...
ValueError: unknown setting 'step_timout_s' (did you mean step_timeout_s?)
>>> Settings.from_env({"VERISTEP_STEP_TIMEOUT": "3"}).step_timeout_s
3.0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from veristep.core.errors import InputError, did_you_mean


def _default_data_dir() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("veristep", appauthor=False))


@dataclass(frozen=True)
class Settings:
    """Every budget and convention in one place. Defaults are the documented behaviour."""

    # grounding
    step_timeout_s: float = 8.0  # wall budget for judging one transition (all checks together)
    cas_timeout_s: float = 3.0  # one CAS call in a worker process
    cas_memory_mb: int = 2048  # address-space cap of a CAS worker
    pool_workers: int = 2
    worker_max_tasks: int = 500  # recycle a worker after this many calls (SymPy caches grow)
    # Small CAS calls may be judged in-process under an alarm (seconds; 0: never), so that a
    # trivial `veristep check` answers before the worker pool has even started. Off by default:
    # only one-shot commands turn it on, never a server, whose main thread runs its event loop.
    inline_cas_s: float = 0.0
    max_latex_chars: int = 20_000
    max_graph_nodes: int = 5_000
    max_exponent: int = 1_000  # pre-screen: literal exponents above this are not expanded
    domain: Literal["real", "complex"] = "real"
    log_base: Literal["e", "10"] = "e"  # meaning of a bare \log
    function_names: frozenset[str] = frozenset({"f", "g", "h", "F", "G"})  # f(x) is applied
    plain_symbols: frozenset[str] = frozenset()  # e.g. {"e", "i"}: letters that are NOT constants
    approx_rel_tol: float = 1e-6
    derive_timeout_s: float = 20.0  # wall budget of one proposer attempt in `derive`
    # provers and proof checkers
    prover_timeout_s: float = 30.0
    prover_memory_mb: int = 4096
    coq_tactic_timeout_s: float = 10.0
    coq_memory_mb: int = 4096
    lean_project_dir: Path | None = None  # a Lean 4 project for `lake env lean` (ALPS judge)
    # language models
    model: str | None = None
    api_base: str | None = None
    api_key: str | None = field(default=None, repr=False)
    lm_temperature: float = 0.0
    lm_max_tokens: int = 4000
    lm_timeout_s: float = 120.0  # one LM request; a stalled server must not hang a run
    lm_num_retries: int = 2  # transient HTTP failures only (DSPy's exponential backoff)
    lm_cache: bool = False  # DSPy's response cache; off so repeated runs really ask the model
    # storage
    data_dir: Path = field(default_factory=_default_data_dir)
    # web app
    web_max_body_bytes: int = 256_000  # larger request bodies get 413 before they are read
    web_request_timeout_s: float = 120.0  # a derive/check request past this answers 504

    def replace(self, **changes: Any) -> Settings:
        known = {f.name for f in dataclasses.fields(self)}
        for key in changes:
            if key not in known:
                hint = did_you_mean(key, known, cutoff=0.6)
                suffix = f" (did you mean {hint}?)" if hint else ""
                raise ValueError(f"unknown setting {key!r}{suffix}")
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Settings:
        """Build settings from ``VERISTEP_*`` variables; malformed values are input errors."""
        changes: dict[str, Any] = {}
        for var, (name, convert) in _ENV.items():
            raw = environ.get(var)
            if raw is None or raw == "":
                continue
            try:
                changes[name] = convert(raw)
            except ValueError:
                raise InputError(
                    f"environment variable {var}={raw!r} is not a valid value"
                ) from None
        return cls().replace(**changes)


def _choice(*options: str):
    def convert(raw: str) -> str:
        if raw not in options:
            raise ValueError(raw)
        return raw

    return convert


_ENV: dict[str, tuple[str, Any]] = {
    "VERISTEP_STEP_TIMEOUT": ("step_timeout_s", float),
    "VERISTEP_CAS_TIMEOUT": ("cas_timeout_s", float),
    "VERISTEP_DERIVE_TIMEOUT": ("derive_timeout_s", float),
    "VERISTEP_CAS_MEMORY_MB": ("cas_memory_mb", int),
    "VERISTEP_WORKERS": ("pool_workers", int),
    "VERISTEP_INLINE_CAS": ("inline_cas_s", float),
    "VERISTEP_DOMAIN": ("domain", _choice("real", "complex")),
    "VERISTEP_LOG_BASE": ("log_base", _choice("e", "10")),
    "VERISTEP_PROVER_TIMEOUT": ("prover_timeout_s", float),
    "VERISTEP_COQ_TIMEOUT": ("coq_tactic_timeout_s", float),
    "VERISTEP_LEAN_PROJECT": ("lean_project_dir", Path),
    "VERISTEP_MODEL": ("model", str),
    "VERISTEP_API_BASE": ("api_base", str),
    "VERISTEP_API_KEY": ("api_key", str),
    "VERISTEP_MAX_TOKENS": ("lm_max_tokens", int),
    "VERISTEP_LM_TIMEOUT": ("lm_timeout_s", float),
    "VERISTEP_LM_RETRIES": ("lm_num_retries", int),
    "VERISTEP_DATA_DIR": ("data_dir", Path),
}
