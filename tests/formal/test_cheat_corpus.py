"""The cheat corpus against real coqc and coqchk: every cheat rejected, every valid proof accepted.

Each file in ``cheats/`` opens with a comment naming the verdict it must get, the reference it is
checked against (``file``: a bare check of its own statement; otherwise a theorem of
``references.json``, as ``--expect`` does) and why. The files are checked two at a time in one
module-scoped pass, since each needs up to three Coq runs.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from veristep.formal.accept import Reference, kernel_verdict, reference_of_file
from veristep.formal.backends.base import StrictVerdict, Theorem
from veristep.formal.coq_text import declared_axioms
from veristep.formal.strict import check_file

pytestmark = [pytest.mark.coq, pytest.mark.timeout(3600)]  # one pass checks every file

CORPUS = Path(__file__).parent / "cheats"
FILES = sorted(CORPUS.glob("*.v"))
_META = re.compile(r"veristep-corpus: (accept|reject)\s+reference: (\S+)\s+why: (.*?)\*\)", re.S)

# Cheats whose postulate the pre-scan names first; the kernel layers must reject them alone too.
KERNEL_ALONE = (
    "audit_context_top",
    "audit_variable_in_module",
    "audit_borrowed_module_name",
    "audit_short_name",
    "lex_string_in_comment_hides_axiom",
    "lex_guard_split_by_comment",
    "meaning_header_extra_axiom",
)


def _meta(path: Path) -> tuple[str, str, str]:
    match = _META.search(path.read_text(encoding="utf-8"))
    assert match, f"{path.name} lacks its 'veristep-corpus' comment"
    verdict, reference, why = match.groups()
    return verdict, reference, " ".join(why.split())


def _expected(name: str) -> Theorem | None:
    if name == "file":
        return None
    row = json.loads((CORPUS / "references.json").read_text(encoding="utf-8"))[name]
    postulates = frozenset(declared_axioms(row["header"]))
    return Theorem(name, row["header"], row["statement"], allowed_axioms=postulates)


def _judge(path: Path) -> StrictVerdict:
    _, reference, _ = _meta(path)
    return check_file(path.read_text(encoding="utf-8"), _expected(reference), timeout_s=300.0)


def _kernel(path: Path) -> StrictVerdict:
    _, name, _ = _meta(path)
    text = path.read_text(encoding="utf-8")
    expected = _expected(name)
    reference = Reference.of(expected) if expected else reference_of_file(text)
    return kernel_verdict(reference, text, timeout_s=300.0)


@pytest.fixture(scope="module")
def verdicts(request: pytest.FixtureRequest) -> dict[str, StrictVerdict]:
    """Every selected file's verdict, computed two at a time in one pass (``-k`` narrows it)."""
    wanted = {str(p) for p in _selected(request, "path")}
    files = [p for p in FILES if str(p) in wanted]
    kernel = [n for n in KERNEL_ALONE if n in set(_selected(request, "name"))]
    with ThreadPoolExecutor(max_workers=2) as pool:
        judged = dict(zip([p.stem for p in files], pool.map(_judge, files), strict=True))
        alone = pool.map(_kernel, [CORPUS / f"{name}.v" for name in kernel])
        judged.update({f"kernel:{k}": v for k, v in zip(kernel, alone, strict=True)})
    return judged


def _selected(request: pytest.FixtureRequest, param: str) -> list:
    return [
        item.callspec.params[param]
        for item in request.session.items
        if getattr(item, "callspec", None) is not None and param in item.callspec.params
    ]


def test_the_corpus_is_large_and_labelled() -> None:
    labels = [_meta(path)[0] for path in FILES]
    assert labels.count("reject") >= 60 and labels.count("accept") >= 15


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_corpus_file(path: Path, verdicts: dict[str, StrictVerdict]) -> None:
    want, _, why = _meta(path)
    verdict = verdicts[path.stem]
    assert verdict.accepted == (want == "accept"), f"{why}: {verdict.reason}"


@pytest.mark.parametrize("name", KERNEL_ALONE)
def test_kernel_layers_alone_reject(name: str, verdicts: dict[str, StrictVerdict]) -> None:
    verdict = verdicts[f"kernel:{name}"]
    assert not verdict.accepted and "forbidden" not in verdict.reason, verdict.reason
