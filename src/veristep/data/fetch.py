"""Download the pinned corpus files, check size and SHA-256, and place them atomically.

A file is written under its final name only after its hash matched, so an interrupted or
tampered download never leaves a file that a benchmark would read as genuine.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from veristep.core.errors import InputError
from veristep.data.catalog import Corpus, CorpusFile

RAW_BASE = "https://raw.githubusercontent.com/"
CHUNK = 1 << 16


class Unreachable(InputError):
    """The download host could not be reached at all (offline, DNS, refused)."""


class HashMismatch(InputError):
    """The bytes served differ from the pinned ones."""


@dataclass
class FetchReport:
    fetched: list[str] = field(default_factory=list)
    present: list[str] = field(default_factory=list)  # already there with the pinned hash
    derived: list[str] = field(default_factory=list)  # no upstream copy to fetch


def file_url(base: str, corpus: Corpus, item: CorpusFile) -> str:
    assert item.upstream is not None
    return f"{base.rstrip('/')}/{corpus.repo}/{corpus.commit}/{item.upstream}"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def is_intact(path: Path, item: CorpusFile) -> bool:
    return path.is_file() and path.stat().st_size == item.size and sha256_of(path) == item.sha256


def fetch_corpus(
    corpus: Corpus, dest: Path, base: str = RAW_BASE, timeout_s: float = 30.0
) -> FetchReport:
    """Bring every fetchable file of ``corpus`` into ``dest/<name>/``; verify the ones present."""
    report = FetchReport()
    for item in corpus.files:
        target = dest / corpus.name / item.path
        label = f"{corpus.name}/{item.path}"
        if is_intact(target, item):
            report.present.append(label)
        elif item.upstream is None:
            report.derived.append(label)
        else:
            download(file_url(base, corpus, item), target, item, timeout_s)
            report.fetched.append(label)
    return report


def download(url: str, target: Path, item: CorpusFile, timeout_s: float) -> None:
    """Stream ``url`` into a temporary file beside ``target``; keep it only if the hash matches."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".part-", dir=target.parent)
    tmp = Path(tmp_name)
    try:
        digest, size = hashlib.sha256(), 0
        with os.fdopen(fd, "wb") as out, _open(url, timeout_s) as response:
            try:
                while chunk := response.read(CHUNK):
                    size += len(chunk)
                    if size > item.size:  # never store more than the pinned size
                        break
                    digest.update(chunk)
                    out.write(chunk)
            except OSError as err:  # a stalled or dropped connection mid-file
                raise Unreachable(
                    f"{url}: download interrupted ({err}); nothing was written"
                ) from None
        if size != item.size or digest.hexdigest() != item.sha256:
            raise HashMismatch(
                f"{url}: got {size} bytes with SHA-256 {digest.hexdigest()[:16]}…, "
                f"pinned {item.size} bytes with {item.sha256[:16]}…; nothing was written"
            )
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def _open(url: str, timeout_s: float):
    if urlsplit(url).scheme not in ("http", "https", "file"):
        raise InputError(f"unsupported download address {url!r} (http, https or file)")
    try:
        return urllib.request.urlopen(url, timeout=timeout_s)
    except urllib.error.HTTPError as err:
        raise InputError(f"{url}: HTTP {err.code} {err.reason}") from None
    except (urllib.error.URLError, OSError) as err:
        reason = getattr(err, "reason", err)
        host = urlsplit(url).netloc or url
        raise Unreachable(
            f"cannot reach {host} ({reason}); download the corpora elsewhere and set "
            "VERISTEP_DATA_ROOT to their folder"
        ) from None
