"""Recorded model answers: a session with a real model recorded once, replayed anywhere without a network.

    WENQING_MODEL_CASSETTE=answers.jsonl WENQING_MODEL_CASSETTE_MODE=record wenqing chat …   (a real model configured)
    WENQING_MODEL_CASSETTE=answers.jsonl wenqing chat …                                      (replay: no model needed)

A cassette is a JSON Lines file, one call per line:

    {"purpose": "query", "key": "<sha256 of the purpose and the normalised messages>", "request": "按城市汇总…",
     "answer": {"content": "{…}"}}

`key` is written when recording: a call matches it only when its purpose and every message are the same (whitespace
aside), so a changed prompt or workspace misses rather than replaying a stale answer. An entry written by hand (an
oracle's answer, a test's) may leave `key` out and give `match` instead — {"purpose": "query", "request": "…"}
(and optionally "turns": the earlier turns) — matched on the request's words; "request": "*" answers every call of
that purpose that nothing else matched. An answer is {"content": text} or
{"status": 429|500|…}.

Replay runs a loopback OpenAI-compatible server on 127.0.0.1 and points the real `openai` client at it, so the
client, its errors and wenqing's retries are the same as with a real server. A call the cassette does not hold is
answered 404: the rules decide, as with any failing model, and the miss is counted."""

from __future__ import annotations

import hashlib
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

MODES = ("replay", "record")
PURPOSE_HEADER = "X-Wenqing-Purpose"
REQUEST_RX = re.compile(r"<request>(.*?)</request>", re.S)
TURNS_RX = re.compile(r"<earlier_turns>(.*?)</earlier_turns>", re.S)


def key(purpose: str, messages: list[dict[str, Any]]) -> str:
    norm = [[str(m.get("role")), " ".join(str(m.get("content") or "").split())] for m in messages]
    return hashlib.sha256(json.dumps([purpose, norm], ensure_ascii=False).encode()).hexdigest()


def request_of(messages: list[dict[str, Any]]) -> tuple[str, list[str]]:
    """The user's words and earlier turns of a call (what a hand-written entry matches on)."""
    last = next((str(m.get("content") or "") for m in reversed(messages) if m.get("role") == "user" and "<request>" in str(m.get("content") or "")), "")
    m = REQUEST_RX.search(last)
    words = m.group(1).strip() if m else ""
    try:
        words = json.loads(words) if words.startswith('"') else words
    except json.JSONDecodeError:
        pass
    turns: list[str] = []
    t = TURNS_RX.search(last)
    if t:
        try:
            turns = [str(x) for x in json.loads(t.group(1))]
        except json.JSONDecodeError:
            turns = []
    return str(words), turns


class Cassette:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.exact: dict[str, dict[str, Any]] = {}
        self.loose: dict[tuple[str, str, tuple[str, ...] | None], dict[str, Any]] = {}
        self.misses: list[dict[str, Any]] = []
        self.hits = 0
        if self.path.is_file():
            for n, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), 1):
                if not line.strip():
                    continue
                try:
                    e = json.loads(line)
                except json.JSONDecodeError as err:
                    raise ValueError(f"{self.path.name}, line {n}: not JSON ({err.msg})") from err
                if not isinstance(e, dict) or not isinstance(e.get("answer"), dict):
                    raise ValueError(f"{self.path.name}, line {n}: an entry needs an answer object")
                if e.get("key"):
                    self.exact[str(e["key"])] = e
                elif isinstance(e.get("match"), dict):
                    m = e["match"]
                    turns = tuple(m["turns"]) if isinstance(m.get("turns"), list) else None
                    self.loose[(str(m.get("purpose", "query")), " ".join(str(m.get("request", "")).split()), turns)] = e

    def find(self, purpose: str, messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        e = self.exact.get(key(purpose, messages))
        if e is None:
            words, turns = request_of(messages)
            w = " ".join(words.split())
            e = self.loose.get((purpose, w, tuple(turns))) or self.loose.get((purpose, w, None)) or self.loose.get((purpose, "*", None))
        if e is None:
            words, _ = request_of(messages)
            self.misses.append({"purpose": purpose, "request": words})
            return None
        self.hits += 1
        return e["answer"]


class Recorder:
    """Appends every successful call to the cassette (record mode)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.lock = threading.Lock()

    def add(self, purpose: str, messages: list[dict[str, Any]], content: str) -> None:
        words, turns = request_of(messages)
        entry = {"purpose": purpose, "key": key(purpose, messages), "request": words, "turns": turns, "answer": {"content": content}}
        with self.lock, self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")


def send(handler: BaseHTTPRequestHandler, status: int, data: bytes, content_type: str = "application/json", drip: float = 0.0) -> None:
    """Write one HTTP response (a client that went away is no error); `drip` sends it a byte at a time."""
    import time

    try:
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        for i in range(0, len(data), 1 if drip else max(len(data), 1)):
            handler.wfile.write(data[i:i + (1 if drip else len(data))])
            handler.wfile.flush()
            if drip:
                time.sleep(drip)
    except (BrokenPipeError, ConnectionResetError):
        pass


class ReplayServer:
    """A loopback OpenAI-compatible server answering from a cassette."""

    def __init__(self, cassette: Cassette) -> None:
        self.cassette = cassette
        srv = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                try:
                    body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                except json.JSONDecodeError:
                    body = {}
                purpose = self.headers.get(PURPOSE_HEADER, "")
                answer = srv.cassette.find(purpose, body.get("messages") or [])
                status = 404 if answer is None else int(answer.get("status", 200))
                if answer is None or status != 200:
                    payload: dict[str, Any] = {"error": {"message": "no recorded answer for this call" if answer is None else f"recorded {status}",
                                                         "type": "cassette", "code": status}}
                else:
                    payload = {"id": "chatcmpl-cassette", "object": "chat.completion", "created": 0, "model": body.get("model", "cassette"),
                               "choices": [{"index": 0, "message": {"role": "assistant", "content": str(answer.get("content") or "")},
                                            "finish_reason": "stop"}],
                               "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}}
                send(self, status, json.dumps(payload, ensure_ascii=False).encode())

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


_SERVERS: dict[str, ReplayServer] = {}
_LOCK = threading.Lock()


def replay_server(path: str | Path) -> ReplayServer:
    """One loopback server per cassette file, for the life of the process."""
    p = str(Path(path).resolve())
    with _LOCK:
        if p not in _SERVERS:
            _SERVERS[p] = ReplayServer(Cassette(Path(p)))
        return _SERVERS[p]
