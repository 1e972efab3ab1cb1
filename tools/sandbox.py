"""Parsers in a box: a workbook (xlsx, xls, ods) is parsed in a worker process whose memory is capped (RLIMIT_DATA,
above what the worker holds before the call) and which is killed at the file's deadline. A file that claims billions of cells, or a parser that aborts the process,
then costs at most the cap and one clear message: the session and every other file go on.

The worker is started on the first workbook read (a Python process that loads the parsers while the session goes
on; one killed by a bomb is replaced at the next read) and serves one call at a time. WENQING_PARSE_BOX=0 parses in the
session's own process (for debugging)."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from tools.errors import ParseFailed

MEMORY_BASE = 768 * 1024**2  # what any workbook may take, above what the worker holds before the call
MEMORY_PER_BYTE = 40  # of a workbook's uncompressed size: what its cells may take when laid out
MEMORY_MAX = 8 * 1024**3
MIN_SECONDS = 8.0  # the reading deadline of a small file (tools.guard)

_lock = threading.Lock()
_worker: _Worker | None = None


def enabled() -> bool:
    return os.environ.get("WENQING_PARSE_BOX", "1") != "0"


def worker_peak_mb() -> float:
    """The peak resident memory of the worker, when there is one (what a benchmark adds to the session's own)."""
    w = _worker
    if w is None or not w.alive():
        return 0.0
    try:
        with open(f"/proc/{w.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


def memory_for(uncompressed: int) -> int:
    """The memory a workbook of this uncompressed size may take to parse (above what the worker holds already)."""
    return min(MEMORY_MAX, MEMORY_BASE + MEMORY_PER_BYTE * max(0, uncompressed))


def call(name: str, fn: Any, args: tuple[Any, ...], seconds: float, memory: int) -> Any:
    """fn(*args) in the box (fn must be a module-level function); ParseFailed when the worker runs out of memory,
    out of time or dies. Errors fn raises itself come back as they were raised (UserError kinds with both languages)."""
    if not enabled():
        return fn(*args)
    with _lock:
        global _worker
        if _worker is None or not _worker.alive():
            _worker = _Worker()
        try:
            return _worker.call(name, fn, args, max(MIN_SECONDS, seconds), memory)
        except _Died as e:
            _worker = None
            raise e.failure() from None


class _Died(Exception):
    def __init__(self, name: str, why: str, seconds: float, memory: int) -> None:
        super().__init__(why)
        self.name, self.why, self.seconds, self.memory = name, why, seconds, memory

    def failure(self) -> ParseFailed:
        mb = self.memory // 1024**2
        if self.why == "timeout":
            return ParseFailed(f"{self.name}：读取超过 {self.seconds:g} 秒，已停止（文件过大或结构异常）。",
                               f"{self.name}: reading took more than {self.seconds:g} s and was stopped (too big or oddly built).")
        return ParseFailed(f"{self.name}：解析时所需内存超过上限（约 {mb} MB，文件结构异常或声明了海量单元格），已停止读取。",
                           f"{self.name}: parsing it needed more memory than the limit (about {mb} MB; the file is oddly built "
                           "or claims a huge number of cells), so reading stopped.")


class _Worker:
    """A Python process of its own (started with -c, so no script of the caller's is imported again), talking over a
    socket pair; its output and error streams go nowhere (a parser that aborts prints its backtrace there)."""

    def __init__(self) -> None:
        import socket
        import subprocess
        import sys
        from multiprocessing.connection import Connection

        ours, theirs = socket.socketpair()
        root = str(Path(__file__).resolve().parent.parent)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])]),
               "ARROW_DEFAULT_MEMORY_POOL": "system"}  # Arrow's own allocators take their arenas at once: under a cap, malloc
        self.proc = subprocess.Popen([sys.executable, "-c", f"from tools.sandbox import _main; _main({theirs.fileno()})"],
                                     pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=None if os.environ.get("WENQING_BOX_DEBUG") else subprocess.DEVNULL, env=env, close_fds=True)
        theirs.close()
        self.conn = Connection(ours.detach())

    def alive(self) -> bool:
        return self.proc.poll() is None

    def call(self, name: str, fn: Any, args: tuple[Any, ...], seconds: float, memory: int) -> Any:
        try:
            self.conn.send((fn, args, memory))
            ready = self.conn.poll(seconds)
            if not ready:
                self.kill()
                raise _Died(name, "timeout", seconds, memory)
            status, value = self.conn.recv()
        except (EOFError, OSError):
            self.kill()
            raise _Died(name, "died", seconds, memory) from None
        if status == "ok":
            return value
        if status == "memory":
            raise _Died(name, "memory", seconds, memory)
        kind, zh, en = value
        from tools import errors

        if en is None:  # the parser's own error: raised again under its own name (CalamineError …)
            raise type(kind, (RuntimeError,), {})(zh)
        cls = getattr(errors, kind, None)
        raise (cls if isinstance(cls, type) and issubclass(cls, errors.UserError) else ParseFailed)(zh, en)

    def kill(self) -> None:
        try:
            self.proc.kill()
            self.proc.wait(5)
        finally:
            self.conn.close()


def _main(fd: int) -> None:
    """The worker process: the parsers loaded once, then calls served until the session goes. Ctrl-C typed in the
    terminal reaches every process of its group: it is the session's to act on (a cancel at the next step boundary),
    so a read under way finishes instead of dying as if it had run out of memory."""
    import signal
    from multiprocessing.connection import Connection

    signal.signal(signal.SIGINT, signal.SIG_IGN)

    import pandas  # noqa: F401  (loaded before the first call, while the session goes on)
    import python_calamine  # noqa: F401

    import tools.io  # noqa: F401

    _serve(Connection(fd))


def _serve(conn: Any) -> None:
    """The worker: each call under its own address-space cap; a MemoryError is said, anything worse ends the process."""
    import resource

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    while True:
        try:
            fn, args, memory = conn.recv()
        except (EOFError, OSError):
            return
        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        cap = _data_size() + memory
        resource.setrlimit(resource.RLIMIT_DATA, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
        try:
            out: tuple[str, Any] = ("ok", fn(*args))
        except MemoryError:
            out = ("memory", None)
        except Exception as e:  # noqa: BLE001  (sent back whole: the session raises it again)
            from tools.errors import UserError

            out = ("error", (type(e).__name__, e.zh, e.en) if isinstance(e, UserError) else (type(e).__name__, str(e)[:500], None))
        finally:
            resource.setrlimit(resource.RLIMIT_DATA, (hard, hard))
        try:
            conn.send(out)
        except MemoryError:
            conn.send(("memory", None))


def _data_size() -> int:
    """This process's data segment now (VmData: the writable memory RLIMIT_DATA counts; reserved address space the
    allocators never touch does not count, so the cap is what a parse may really take)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 2 * 1024**3
