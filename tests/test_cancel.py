"""Ctrl-C cancels the running request, never the session: it stops at the next step boundary, nothing it wrote is
left behind, the audit records it as cancelled, and the next request runs."""

from __future__ import annotations

import os
import select
import sys
import textwrap
import time
from pathlib import Path

import pytest

from engine.session import Session

EXPORT = "按城市汇总 sample_data.xlsx 的金额并导出"


def _outputs(ws_dir: Path) -> list[str]:
    out = ws_dir / "outputs"
    return sorted(p.name for p in out.rglob("*") if p.is_file()) if out.is_dir() else []


def test_a_cancel_at_a_step_boundary_stops_there_and_writes_nothing(ws, ws_dir):
    s = Session(ws)
    seen: list[int] = []

    def on_step(i: int, n: int, label: str) -> None:
        seen.append(i)
        if i == 2:
            s.interrupt()  # as Ctrl-C does while step 2 runs

    s.on_step = on_step
    tr = s.turn(EXPORT)
    assert tr.run.status == "cancelled" and tr.run.answer is None
    assert seen == [1, 2]  # step 3 (the export) never started
    assert "已取消" in tr.run.notes[0] and "第 3 步之前" in tr.run.notes[0] and "没有写入任何文件" in tr.run.notes[-1]
    assert _outputs(ws_dir) == []
    assert s.audit.run(tr.trace_id)["status"] == "cancelled"
    s.on_step = None
    again = s.turn(EXPORT)  # the session goes on, and the flag does not cancel the next request
    assert again.run.status == "answered" and len(_outputs(ws_dir)) == 1


def test_a_cancel_during_the_last_step_removes_what_that_step_wrote(ws, ws_dir):
    s = Session(ws)
    s.on_step = lambda i, n, label: s.interrupt() if i == n else None
    tr = s.turn(EXPORT)
    assert tr.run.status == "cancelled" and tr.run.files == []
    assert "已删除" in tr.run.notes[-1] and _outputs(ws_dir) == []
    assert s.last_files == []  # /undo has nothing of a cancelled run to remove


def test_a_cancel_in_english_is_said_in_english(ws, ws_dir):
    s = Session(ws)
    s.on_step = lambda i, n, label: s.interrupt()
    tr = s.turn("group sample_data.xlsx by 城市 and sum 金额, then export it")
    assert tr.run is not None and tr.run.status == "cancelled", tr.decision.reply
    assert all("已" not in n for n in tr.run.notes) and "Cancelled" in tr.run.notes[0]


def test_a_running_duckdb_query_is_interrupted():
    import threading

    from tools import outofcore

    con = outofcore._connect(Path(os.environ.get("TMPDIR", "/tmp")))
    failed: list[BaseException] = []

    def run() -> None:
        try:
            con.execute("SELECT count(*) FROM range(100000000000) t(x) WHERE x % 7 = 3").fetchall()
        except Exception as e:  # noqa: BLE001
            failed.append(e)

    t = threading.Thread(target=run)
    t.start()
    time.sleep(0.3)
    outofcore.interrupt_queries()
    t.join(timeout=20)
    assert not t.is_alive() and failed and "Interrupt" in type(failed[0]).__name__


# The REPL in a real terminal: a child process on a pseudo-terminal, whose summing step is made slow (the test's own
# instrumentation, inside the child), gets ^C typed while the request runs.
CHILD = textwrap.dedent("""
    import dataclasses, sys, time
    from tools import registry
    registry._load()
    tool = registry.TOOLS["group_summarize"]
    def slow(**kw):
        time.sleep(6)  # long enough that ^C lands while it runs, even on a loaded machine
        return tool.func(**kw)
    registry.TOOLS["group_summarize"] = dataclasses.replace(tool, func=slow)
    if sys.argv[2] == "ignored":  # started by a launcher that ignores SIGINT (inherited across exec)
        import signal
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.argv = ["wenqing", "--workspace", sys.argv[1], "--backend", "rules"]
    from repl import main
    main()
""")


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
@pytest.mark.parametrize("sigint", ["default", "ignored"])
def test_ctrl_c_in_a_terminal_cancels_the_request_and_the_repl_goes_on(ws_dir, tmp_path, sigint):
    import pty

    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "TERM": "xterm", "COLUMNS": "100", "LINES": "40"}
    env.pop("OPENAI_API_KEY", None)
    pid, fd = pty.fork()
    if pid == 0:  # the child: the REPL, with the pty as its controlling terminal
        os.chdir(Path(__file__).resolve().parents[1])
        os.execve(sys.executable, [sys.executable, "-c", CHILD, str(ws_dir), sigint], env)
    out = b""

    def read_until(marker: str, timeout: float) -> str:
        nonlocal out
        end = time.monotonic() + timeout
        while marker.encode() not in out and time.monotonic() < end:
            r, _, _ = select.select([fd], [], [], 0.1)
            if r:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    break
        return out.decode("utf-8", "replace")

    try:
        assert "问清>" in read_until("问清>", 60)
        os.write(fd, (EXPORT + "\r").encode())
        read_until("处理中", 30)  # the request is running
        for _ in range(4):  # Ctrl-C, typed in the terminal (again if the first one landed before the run took the terminal)
            time.sleep(0.3)
            os.write(fd, b"\x03")
            if "正在取消" in read_until("正在取消", 1.0) or "已取消" in out.decode("utf-8", "replace"):
                break
        text = read_until("没有写入任何文件", 30)
        assert "已取消" in text and "没有写入任何文件" in text, text[-2000:]
        out = b""
        os.write(fd, "你好\r".encode())
        assert "你好！" in read_until("你好！", 30)  # the REPL is alive and answers the next line
        out = out[out.index("你好！".encode()):]
        read_until("问清>", 30)
        time.sleep(0.5)  # the prompt reads keys itself (raw mode) before ^D is typed
        os.write(fd, b"\x04")
        read_until("再见", 30)
        end, done = time.monotonic() + 30, 0
        while not done and time.monotonic() < end:  # keep reading: a child writing to a full terminal cannot exit
            done, status = os.waitpid(pid, os.WNOHANG)
            read_until("\0", 0.1)
        assert done and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    finally:
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)
    assert _outputs(ws_dir) == []
