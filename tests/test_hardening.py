"""Hardening: concurrent sessions on one audit record, killed runs, bad files isolated, hostile input,
and model-proposed steps that always pass the same gate as typed requests."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.audit import Audit, AuditUnavailable
from engine.session import Session
from tools.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------- item 2 and 7: the audit record


def _record_one(root: str, start_at: float, n: int) -> None:
    while time.time() < start_at:
        time.sleep(0.001)
    audit = Audit.open(Workspace.at(root))
    audit.start_run(f"run{n}", 1, f"第 {n} 个会话", {}, time.time())
    audit.event(f"run{n}", "gate", "idle -> chat", "c", True, None, {}, {}, 0.1)
    audit.finish_run(f"run{n}", "answered", "ok", None, time.time(), None, [])


def test_six_sessions_opening_a_fresh_audit_record_at_once_record_six_runs(tmp_path):
    ctx = multiprocessing.get_context("spawn")
    start_at = time.time() + 1.5
    procs = [ctx.Process(target=_record_one, args=(str(tmp_path), start_at, n)) for n in range(6)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0] * 6
    db = sqlite3.connect(tmp_path / ".wenqing" / "runs.sqlite")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    rows = db.execute("SELECT trace_id, status FROM runs ORDER BY trace_id").fetchall()
    assert rows == [(f"run{n}", "answered") for n in range(6)]
    assert db.execute("SELECT count(*) FROM events").fetchone()[0] == 6


def test_an_audit_record_that_cannot_be_opened_is_said_plainly(tmp_path):
    (tmp_path / ".wenqing").write_text("a file where the folder should be")
    with pytest.raises(AuditUnavailable) as err:
        Audit.open(Workspace.at(tmp_path))
    assert "无法打开审计记录" in err.value.zh
    s = Session(Workspace.at(tmp_path))
    tr = s.turn("你好")
    assert any("无法打开审计记录" in n for n in tr.notices)
    assert not any("无法打开审计记录" in n for n in s.turn("你好").notices)  # said once, not on every turn


def test_a_run_killed_midway_is_marked_interrupted_at_the_next_start(tmp_path):
    code = (
        "import sys, time\n"
        "from engine.audit import Audit\nfrom tools.workspace import Workspace\n"
        f"a = Audit.open(Workspace.at({str(tmp_path)!r}))\n"
        "a.start_run('killed', 1, '分析 大表.xlsx', {}, time.time())\n"
        "print('started', flush=True)\ntime.sleep(60)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert p.stdout is not None and p.stdout.readline().strip() == "started"
    live = Audit.open(Workspace.at(tmp_path))  # the other session still runs: its run is left alone
    assert live.interrupted == [] and live.run("killed")["status"] == "running"
    live.start_run("mine", 1, "你好", {}, time.time())
    os.kill(p.pid, signal.SIGKILL)
    p.wait(10)
    again = Audit.open(Workspace.at(tmp_path))
    assert again.interrupted == ["killed"]
    assert again.run("killed")["status"] == "interrupted" and again.run("killed")["ended"] is not None
    assert again.run("mine")["status"] == "running"  # this process is alive
