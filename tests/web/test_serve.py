"""``veristep serve`` as a real process: it serves, and saved derivations survive a restart."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request

import pytest

from veristep.web.testing import free_port


def _start(db, port, *extra):
    cmd = [sys.executable, "-m", "veristep.cli", "serve", "--port", str(port), "--db", str(db)]
    cmd += list(extra)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2) as r:
                if r.status == 200:
                    return proc
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(f"serve exited: {proc.stderr.read()}") from None
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("serve did not come up")


def _stop(proc):
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _request(url, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def test_serve_imports_once_and_saved_derivations_survive_a_restart(tmp_path):
    from veristep.grounding import check

    path = tmp_path / "d.json"
    path.write_text(json.dumps(check(["2x = 6", "x = 3"]).to_json()), encoding="utf-8")
    db, port = tmp_path / "serve.sqlite3", free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _start(db, port, "--import", str(path))
    try:
        made = _request(f"{base}/api/check", {"states": ["x + 1 = 2", "x = 1"], "save": True})
    finally:
        _stop(proc)
    assert f"{path} → {base}/d/" in proc.stdout.read()
    proc = _start(db, port, "--import", str(path))  # the same file again: no duplicate
    try:
        again = _request(f"{base}/api/derivations/{made['id']}")
        listed = _request(f"{base}/api/derivations")
    finally:
        _stop(proc)
    assert again["derivation"] == made["derivation"]
    assert listed["total"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--port", "70000"], "--port"), (["--import", "{bad}"], "not a derivation JSON")],
)
def test_serve_input_errors_exit_2_with_one_line(tmp_path, capsys, args, message):
    from veristep.cli import main

    bad = tmp_path / "bad.json"
    bad.write_text('{"start": "x"}', encoding="utf-8")
    args = [a.replace("{bad}", str(bad)) for a in args]
    assert main(["serve", *args, "--db", str(tmp_path / "x.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1
