"""A tiny OpenAI-compatible chat-completions server on 127.0.0.1 for tests.

It answers ``POST …/chat/completions`` with scripted replies, counts tokens so usage tracking has
something real to record, and keeps every request it received. Tests then exercise the same HTTP
path as production (DSPy → LiteLLM or DSPy's native client → socket) without any network.

>>> import json, urllib.request
>>> with OpenAIStubServer(["hi there"]) as server:
...     body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hello"}]})
...     req = urllib.request.Request(server.api_base + "/chat/completions", body.encode(),
...                                  {"Content-Type": "application/json"})
...     reply = json.load(urllib.request.urlopen(req, timeout=10))
>>> reply["choices"][0]["message"]["content"], reply["usage"]["completion_tokens"]
('hi there', 2)
>>> server.requests[0]["messages"][0]["content"]
'hello'
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = str | Callable[[dict[str, Any]], str]


class OpenAIStubServer:
    """Serve scripted chat completions until closed; a context manager.

    ``responses`` is either a list of reply texts, used in order (a request past the end gets an
    HTTP 500 that names the problem), or a callable that builds the reply from the request's JSON
    body. ``requests`` holds every request body received, in order, and ``headers`` their HTTP
    headers (lower-case names). ``fail_with`` makes every
    request answer with that HTTP status (for error-path tests).
    """

    def __init__(
        self,
        responses: Sequence[str] | Callable[[dict[str, Any]], str],
        *,
        model: str = "stub-model",
        fail_with: int | None = None,
    ) -> None:
        self._script = responses if callable(responses) else list(responses)
        self._next = 0
        self._lock = threading.Lock()
        self.model = model
        self.fail_with = fail_with
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self.headers: list[dict[str, str]] = []
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def api_base(self) -> str:
        """The base URL clients expect, ending in ``/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> OpenAIStubServer:
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._httpd.serve_forever, name="openai-stub", daemon=True
            )
            self._thread.start()
        return self

    def close(self) -> None:
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(5)
            self._thread = None
        self._httpd.server_close()

    def __enter__(self) -> OpenAIStubServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _reply_for(self, body: dict[str, Any]) -> str | None:
        with self._lock:
            self.requests.append(body)
            if callable(self._script):
                return self._script(body)
            if self._next >= len(self._script):
                return None
            self._next += 1
            return self._script[self._next - 1]


def _handler_for(server: OpenAIStubServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            server.paths.append(self.path)
            server.headers.append({k.lower(): v for k, v in self.headers.items()})
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except json.JSONDecodeError:
                self._send(400, _error("request body is not JSON"))
                return
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, _error(f"the stub serves only chat completions, not {self.path}"))
                return
            if server.fail_with is not None:
                self._send(server.fail_with, _error(f"scripted failure {server.fail_with}"))
                return
            if body.get("stream"):
                self._send(400, _error("the stub does not stream"))
                return
            reply = server._reply_for(body)
            if reply is None:
                self._send(500, _error("the stub server has no scripted responses left"))
                return
            self._send(200, _completion(body, reply, server.model))

        def do_GET(self) -> None:
            server.paths.append(self.path)
            if self.path.rstrip("/").endswith("/models"):
                self._send(
                    200, {"object": "list", "data": [{"id": server.model, "object": "model"}]}
                )
            else:
                self._send(404, _error(f"no such endpoint: {self.path}"))

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # test output stays clean; requests are recorded on the server object instead

    return Handler


def _completion(body: dict[str, Any], reply: str, model: str) -> dict[str, Any]:
    prompt_tokens = sum(_count_tokens(m.get("content")) for m in body.get("messages", []))
    completion_tokens = _count_tokens(reply)
    return {
        "id": f"chatcmpl-stub-{time.time_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model") or model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def _count_tokens(content: Any) -> int:
    """Whitespace-separated words: deterministic, so tests can predict the usage they will see."""
    if isinstance(content, list):  # multi-part content: [{"type": "text", "text": ...}, ...]
        return sum(_count_tokens(part.get("text")) for part in content if isinstance(part, dict))
    return len(content.split()) if isinstance(content, str) else 0


def _error(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "stub_error", "code": None}}
