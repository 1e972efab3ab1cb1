"""The audit record: every run and every node's event, in SQLite at <workspace>/.wenqing/runs.sqlite."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from tools.workspace import STATE_DIR, Workspace

MIGRATIONS = [
    """
    CREATE TABLE runs (
        trace_id TEXT PRIMARY KEY, turn INTEGER, utterance TEXT, decision TEXT, plan TEXT, status TEXT,
        answer TEXT, fallback_reason TEXT, files TEXT, started REAL, ended REAL
    );
    CREATE TABLE events (
        trace_id TEXT, seq INTEGER, node TEXT, state_transition TEXT, "constraint" TEXT,
        constraint_evaluated INTEGER, fallback_reason TEXT, model_called INTEGER, inputs TEXT, outputs TEXT,
        duration_ms REAL, PRIMARY KEY (trace_id, seq)
    );
    CREATE INDEX runs_started ON runs(started);
    """,
]


def _dump(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False, default=str)[:4000]


class Audit:
    def __init__(self, conn: sqlite3.Connection, where: str) -> None:
        self.conn = conn
        self.where = where
        self._seq: dict[str, int] = {}
        self._migrate()

    @classmethod
    def open(cls, ws: Workspace) -> Audit:
        try:
            d = ws.root / STATE_DIR
            d.mkdir(exist_ok=True)
            conn = sqlite3.connect(d / "runs.sqlite", check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            return cls(conn, str(d / "runs.sqlite"))
        except (OSError, sqlite3.Error):
            return cls.in_memory()

    @classmethod
    def in_memory(cls) -> Audit:
        return cls(sqlite3.connect(":memory:", check_same_thread=False), ":memory:")

    def _migrate(self) -> None:
        c = self.conn
        c.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT DEFAULT CURRENT_TIMESTAMP)")
        done = {r[0] for r in c.execute("SELECT version FROM schema_migrations")}
        for i, sql in enumerate(MIGRATIONS, 1):
            if i not in done:
                c.executescript(sql)
                c.execute("INSERT INTO schema_migrations(version) VALUES (?)", (i,))
        c.commit()

    def start_run(self, trace_id: str, turn: int, utterance: str, decision: dict[str, Any], started: float) -> None:
        self.conn.execute(
            "INSERT INTO runs(trace_id, turn, utterance, decision, status, started) VALUES (?,?,?,?,?,?)",
            (trace_id, turn, utterance, _dump(decision), "running", started),
        )
        self.conn.commit()

    def set_decision(self, trace_id: str, decision: dict[str, Any]) -> None:
        self.conn.execute("UPDATE runs SET decision=? WHERE trace_id=?", (_dump(decision), trace_id))
        self.conn.commit()

    def event(self, trace_id: str, node: str, transition: str, constraint: str, evaluated: bool,
              fallback_reason: str | None, inputs: dict[str, Any], outputs: dict[str, Any], duration_ms: float,
              model_called: bool = False) -> None:
        seq = self._seq.get(trace_id, 0) + 1
        self._seq[trace_id] = seq
        self.conn.execute(
            'INSERT INTO events(trace_id, seq, node, state_transition, "constraint", constraint_evaluated, fallback_reason,'
            " model_called, inputs, outputs, duration_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (trace_id, seq, node, transition, constraint, int(evaluated), fallback_reason, int(model_called),
             _dump(inputs), _dump(outputs), round(duration_ms, 2)),
        )
        self.conn.commit()

    def finish_run(self, trace_id: str, status: str, answer: str | None, fallback_reason: str | None, ended: float,
                   plan: dict[str, Any] | None, files: list[dict[str, Any]]) -> None:
        self.conn.execute(
            "UPDATE runs SET status=?, answer=?, fallback_reason=?, ended=?, plan=?, files=? WHERE trace_id=?",
            (status, answer, fallback_reason, ended, _dump(plan) if plan else None, _dump(files), trace_id),
        )
        self.conn.commit()

    def runs(self, limit: int = 10) -> list[dict[str, Any]]:
        cur = self.conn.execute(
            "SELECT trace_id, turn, utterance, status, answer, fallback_reason, files, started FROM runs ORDER BY started DESC, rowid DESC LIMIT ?",
            (limit,),
        )
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]

    def chain(self, trace_id: str) -> list[dict[str, Any]]:
        """The earlier turns of the same request: the clarifications and restatements that led to this run."""
        rows = self.conn.execute("SELECT trace_id, turn, utterance, decision FROM runs ORDER BY started, rowid").fetchall()
        idx = next((i for i, r in enumerate(rows) if r[0] == trace_id), None)
        if idx is None:
            return []
        out = []
        for r in reversed(rows[:idx]):
            d = json.loads(r[3] or "{}")
            if d.get("next") not in ("ask_intent", "ask_slots", "restate_confirm", "plan_confirm"):
                break
            out.append({"trace_id": r[0], "turn": r[1], "utterance": r[2], "gate": d.get("gate"), "next": d.get("next"),
                        "missing": d.get("missing")})
        return list(reversed(out))

    def run(self, trace_id: str | None) -> dict[str, Any] | None:
        if trace_id is None:
            rows = self.runs(1)
            return self.run(rows[0]["trace_id"]) if rows else None
        cur = self.conn.execute("SELECT * FROM runs WHERE trace_id LIKE ?", (trace_id + "%",))
        row = cur.fetchone()
        if row is None:
            return None
        out = dict(zip([c[0] for c in cur.description], row, strict=True))
        ev = self.conn.execute('SELECT seq, node, state_transition, "constraint", constraint_evaluated, fallback_reason, model_called, inputs, outputs, duration_ms FROM events WHERE trace_id=? ORDER BY seq', (out["trace_id"],))
        names = [c[0] for c in ev.description]
        out["events"] = [dict(zip(names, r, strict=True)) for r in ev.fetchall()]
        out["chain"] = self.chain(out["trace_id"])
        return out
