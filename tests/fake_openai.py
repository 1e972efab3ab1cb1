"""A scripted OpenAI-compatible server on 127.0.0.1 for tests (the real openai client talks to it over HTTP).

As a program, for trying wenqing --backend model by hand:
    python tests/fake_openai.py --port 8765 --script replies.json
where replies.json is a list of replies (see Reply below); when the list runs out, `default` answers."""

from __future__ import annotations

import argparse
import json
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from engine.cassette import send

PASS_REVIEW = {"content": json.dumps({"status": "PASS", "missing_requirements": [], "unsupported_claims": [], "next_action": ""})}


class FakeOpenAI:
    """Replies: {"content": str} | {"json": obj} | {"status": 429|500} | {"sleep": secs, ...} |
    {"raw": body, "content_type": …} (any body) | {"drip": secs, "json": obj} (one byte every secs) |
    {"content": str, "finish_reason": "length"} | {"refusal": str}."""

    def __init__(self, replies: list[dict[str, Any]] | None = None, default: dict[str, Any] | None = None) -> None:
        self.replies: deque[dict[str, Any]] = deque(replies or [])
        self.default = default
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                with fake.lock:
                    fake.requests.append(body)
                    reply = fake.replies.popleft() if fake.replies else fake.default
                if reply is None:
                    reply = {"status": 500}
                if reply.get("sleep"):
                    time.sleep(reply["sleep"])
                if "raw" in reply or "drip" in reply:  # a body of any shape, or one byte at a time
                    data = reply["raw"].encode() if "raw" in reply else json.dumps(
                        {"choices": [{"index": 0, "message": {"role": "assistant", "content": json.dumps(reply.get("json", {}))}, "finish_reason": "stop"}]}).encode()
                    send(self, 200, data, reply.get("content_type", "application/json"), float(reply.get("drip") or 0))
                    return
                status = reply.get("status", 200)
                if status != 200:
                    payload = {"error": {"message": f"scripted {status}", "type": "server_error", "code": status}}
                else:
                    content = json.dumps(reply["json"], ensure_ascii=False) if "json" in reply else reply.get("content")
                    message: dict[str, Any] = {"role": "assistant", "content": content}
                    if reply.get("refusal"):
                        message = {"role": "assistant", "content": None, "refusal": reply["refusal"]}
                    payload = {
                        "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": body.get("model", "fake"),
                        "choices": [{"index": 0, "message": message, "finish_reason": reply.get("finish_reason", "stop")}],
                        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
                    }
                send(self, status, json.dumps(payload, ensure_ascii=False).encode())

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def start(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def bodies(self) -> list[str]:
        return [json.dumps(r, ensure_ascii=False) for r in self.requests]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--script", help="JSON file with a list of replies")
    a = ap.parse_args()
    replies = json.loads(open(a.script, encoding="utf-8").read()) if a.script else []
    fake = FakeOpenAI(replies, default=PASS_REVIEW)
    fake.server.server_close()
    fake.server = ThreadingHTTPServer(("127.0.0.1", a.port), fake.server.RequestHandlerClass)
    print(f"fake OpenAI-compatible server on http://127.0.0.1:{a.port}/v1", flush=True)
    try:
        fake.server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
