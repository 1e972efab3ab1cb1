"""The audit record: every run and every node's event, in SQLite at <workspace>/.wenqing/runs.sqlite.

Several sessions may share one workspace: the database runs in WAL mode with a busy timeout, and writes
that still meet a lock are retried. A database that cannot be opened is an error the caller reports; it
is never silently replaced by one in memory. Runs left "running" by a process that is gone are marked
"interrupted" when the record is next opened.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable
from typing import Any, TypeVar

from tools.errors import UserError
from tools.workspace import STATE_DIR, Workspace

BUSY_TIMEOUT_S = 1.0  # another process holding the record: a turn waits about ATTEMPTS seconds once, then goes on in memory
ATTEMPTS = 3
T = TypeVar("T")

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
    """
    ALTER TABLE runs ADD COLUMN owner TEXT;
    CREATE INDEX runs_status ON runs(status);
    """,
]


class AuditUnavailable(UserError):
    code = "audit_unavailable"


DUMP_MAX = 32_000  # characters of one JSON field of an event


def _dump(v: Any) -> str:
    """JSON text of at most DUMP_MAX characters that is always valid JSON: long strings inside are cut first."""
    text = json.dumps(v, ensure_ascii=False, default=str)
    if len(text) <= DUMP_MAX:
        return text
    text = json.dumps(_cut(v, 2000), ensure_ascii=False, default=str)
    return text if len(text) <= DUMP_MAX else json.dumps({"cut": text[: DUMP_MAX // 2]}, ensure_ascii=False)


def _cut(v: Any, n: int) -> Any:
    if isinstance(v, str):
        return v if len(v) <= n else v[:n] + "…"
    if isinstance(v, dict):
        return {str(k): _cut(x, n) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_cut(x, n) for x in v]
    return v


def _transient(e: sqlite3.Error) -> bool:
    msg = str(e).lower()
    return isinstance(e, sqlite3.OperationalError) and ("locked" in msg or "busy" in msg)


def _retry(fn: Callable[[], T], attempts: int = ATTEMPTS) -> T:
    """Run `fn`, retrying with a growing pause while another process holds the database."""
    for i in range(attempts):
        try:
            return fn()
        except sqlite3.Error as e:
            if not _transient(e) or i == attempts - 1:
                raise
            time.sleep(0.05 * 2**i)
    raise AssertionError("unreachable")


def process_token(pid: int) -> str | None:
    """An identity for a live process: its pid and start time where the system tells it (so a reused pid is
    not mistaken for it); None when no such process runs."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f"{pid}:{f.read().rsplit(b')', 1)[1].split()[19].decode()}"
    except FileNotFoundError:
        if os.path.isdir("/proc/self"):
            return None
    except (OSError, IndexError):
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except OSError:
        pass
    return str(pid)


DB_NAMES = ("runs.sqlite", "runs.sqlite-wal", "runs.sqlite-shm", "runs.sqlite-journal")


def _plain_files(ws: Workspace) -> None:
    """The record's file and SQLite's files beside it are each absent or a plain file with no other name; a link
    (symbolic or hard) at any of them is refused, so the record never lands outside the workspace."""
    from tools.write import check_name, own_folder

    fd, _ = own_folder(ws)
    try:
        for name in DB_NAMES:
            check_name(fd, name)
    finally:
        os.close(fd)


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


class Audit:
    def __init__(self, conn: sqlite3.Connection, where: str) -> None:
        self.conn = conn
        self.where = where
        self.owner = process_token(os.getpid()) or str(os.getpid())
        self.interrupted: list[str] = []
        self.notices: list[tuple[str, str]] = []  # (zh, en) said once with the next answer: the record went to memory
        self._seq: dict[str, int] = {}
        _retry(self._migrate)

    @classmethod
    def open(cls, ws: Workspace) -> Audit:
        """The workspace's audit record; raises AuditUnavailable (with the reason) when it cannot be opened."""
        try:
            path = ws.state_dir() / "runs.sqlite"  # refused when .wenqing/ links out of the workspace
        except UserError as e:
            raise AuditUnavailable(
                f"无法打开审计记录：{e.zh}本次会话的运行记录不会保存到工作区。",
                f"Cannot open the audit record: {e.en} This session's runs will not be saved in the workspace.",
            ) from e

        def connect() -> Audit:
            _plain_files(ws)  # SQLite follows links: none may stand at the record's names
            conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, check_same_thread=False, isolation_level=None)
            try:
                conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
                if str(conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]).lower() != "wal":
                    raise sqlite3.OperationalError("database is locked (journal mode not switched to WAL)")
                # a commit is not flushed to the disk one by one (each flush costs milliseconds, a dozen per request):
                # in WAL mode the record stays whole, and what a killed process committed is kept; only the system
                # itself failing may lose the last commits
                conn.execute("PRAGMA synchronous=NORMAL")
                audit = cls(conn, str(path))
                audit.interrupted = _retry(audit.mark_interrupted)
                return audit
            except BaseException:
                conn.close()
                raise

        try:
            return _retry(connect)
        except (OSError, sqlite3.Error) as e:
            raise AuditUnavailable(
                f"无法打开审计记录 {STATE_DIR}/runs.sqlite（{type(e).__name__}: {e}），本次会话的运行记录不会保存到工作区。",
                f"Cannot open the audit record {STATE_DIR}/runs.sqlite ({type(e).__name__}: {e}); "
                "this session's runs will not be saved in the workspace.",
            ) from e

    @classmethod
    def in_memory(cls) -> Audit:
        return cls(sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None), ":memory:")

    def _migrate(self) -> None:
        c = self.conn
        c.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT DEFAULT CURRENT_TIMESTAMP)")
        done = {r[0] for r in c.execute("SELECT version FROM schema_migrations")}
        if len(done) >= len(MIGRATIONS):
            return
        c.execute("BEGIN IMMEDIATE")  # one process migrates; the others wait, then see it done
        try:
            done = {r[0] for r in c.execute("SELECT version FROM schema_migrations")}
            for i, sql in enumerate(MIGRATIONS, 1):
                if i not in done:
                    for stmt in _statements(sql):
                        c.execute(stmt)
                    c.execute("INSERT INTO schema_migrations(version) VALUES (?)", (i,))
            c.execute("COMMIT")
        except BaseException:
            c.execute("ROLLBACK")
            raise

    def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        """A write; when the file cannot take it (locked by another process, read-only, a full disk, a damaged page),
        the record goes on in memory for the rest of the session and the user is told once."""
        try:
            _retry(lambda: self.conn.execute(sql, params))
        except (sqlite3.Error, OSError) as e:
            if self.where == ":memory:":
                raise
            self._to_memory(e)
            self.conn.execute(sql, params)

    def _to_memory(self, e: BaseException) -> None:
        where = f"{STATE_DIR}/runs.sqlite"
        self.notices.append((f"审计记录 {where} 写不进去（{type(e).__name__}: {e}），这次会话之后的运行记录只保存在内存里。",
                             f"The audit record {where} cannot be written ({type(e).__name__}: {e}); the rest of this session's "
                             "runs are kept in memory only."))
        try:
            self.conn.close()
        except sqlite3.Error:
            pass
        self.conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        self.where = ":memory:"
        self._migrate()

    def mark_interrupted(self) -> list[str]:
        """Runs still "running" whose process is gone (killed, crashed) become "interrupted"."""
        rows = self.conn.execute("SELECT trace_id, owner FROM runs WHERE status='running'").fetchall()
        gone = []
        for trace_id, owner in rows:
            pid = str(owner or "").split(":")[0]
            if owner == self.owner or (pid.isdigit() and process_token(int(pid)) == owner):
                continue  # a live session is still working on it
            gone.append(trace_id)
        for trace_id in gone:
            self.conn.execute(
                "UPDATE runs SET status='interrupted', fallback_reason=?, ended=? WHERE trace_id=? AND status='running'",
                ("进程在运行中被终止", time.time(), trace_id),
            )
        return gone

    def start_run(self, trace_id: str, turn: int, utterance: str, decision: dict[str, Any], started: float) -> None:
        self._write(
            "INSERT INTO runs(trace_id, turn, utterance, decision, status, started, owner) VALUES (?,?,?,?,?,?,?)",
            (trace_id, turn, utterance, _dump(decision), "running", started, self.owner),
        )

    def set_decision(self, trace_id: str, decision: dict[str, Any]) -> None:
        self._write("UPDATE runs SET decision=? WHERE trace_id=?", (_dump(decision), trace_id))

    def event(self, trace_id: str, node: str, transition: str, constraint: str, evaluated: bool,
              fallback_reason: str | None, inputs: dict[str, Any], outputs: dict[str, Any], duration_ms: float,
              model_called: bool = False) -> None:
        seq = self._seq.get(trace_id, 0) + 1
        self._seq[trace_id] = seq
        self._write(
            'INSERT INTO events(trace_id, seq, node, state_transition, "constraint", constraint_evaluated, fallback_reason,'
            " model_called, inputs, outputs, duration_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (trace_id, seq, node, transition, constraint, int(evaluated), fallback_reason, int(model_called),
             _dump(inputs), _dump(outputs), round(duration_ms, 2)),
        )

    def finish_run(self, trace_id: str, status: str, answer: str | None, fallback_reason: str | None, ended: float,
                   plan: dict[str, Any] | None, files: list[dict[str, Any]]) -> None:
        self._write(
            "UPDATE runs SET status=?, answer=?, fallback_reason=?, ended=?, plan=?, files=? WHERE trace_id=?",
            (status, answer, fallback_reason, ended, _dump(plan) if plan else None, _dump(files), trace_id),
        )

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
