"""A FAKE Lean REPL for tests: replays a transcript written by hand, no Lean involved.

Reads blank-line-separated JSON requests on stdin; answers each with the response of the first
transcript entry whose ``match`` fits (``cmd_contains``: substrings of ``cmd``; or exact
``tactic``/``proofState``), followed by a blank line — the framing of the real REPL.
"""

from __future__ import annotations

import json
import sys


def matches(rule: dict, request: dict) -> bool:
    if "cmd_contains" in rule:
        cmd = request.get("cmd", "")
        return all(part in cmd for part in rule["cmd_contains"]) and not any(
            part in cmd for part in rule.get("cmd_lacks", [])
        )
    return all(request.get(key) == value for key, value in rule.items())


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as handle:
        transcript = json.load(handle)
    buffer = ""
    for line in sys.stdin:
        if line.strip():
            buffer += line
            continue
        if not buffer.strip():
            continue
        request, buffer = json.loads(buffer), ""
        entry = next((e for e in transcript if matches(e["match"], request)), None)
        response = entry["response"] if entry else {"message": f"fake: no entry for {request}"}
        sys.stdout.write(json.dumps(response) + "\n\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
