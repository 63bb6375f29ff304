"""A local OpenAI-compatible chat-completions server on 127.0.0.1 for tests (no network)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def chat_adapter_text(trajectory: str) -> str:
    """The same answer as an OpenAI-compatible server would return it for DSPy's ChatAdapter."""
    return (
        "[[ ## reasoning ## ]]\nWork one move at a time.\n\n"
        f"[[ ## trajectory ## ]]\n{trajectory}\n\n[[ ## completed ## ]]"
    )


def completion_body(content: str, model: str) -> bytes:
    return json.dumps(
        {
            "id": "chatcmpl-stub",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 120, "completion_tokens": 80, "total_tokens": 200},
        }
    ).encode()


class StubServer:
    """Answers every chat completion with the next scripted trajectory; records the requests."""

    def __init__(self, trajectories: list[str]) -> None:
        self.trajectories = list(trajectories)
        self.requests: list[dict] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                stub.requests.append(body)
                text = stub.trajectories.pop(0) if stub.trajectories else "nothing left"
                data = completion_body(chat_adapter_text(text), body.get("model", "stub"))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> StubServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
