"""The interactive loop: prompt-toolkit input with history and completion, rich output."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings
from rich.console import Console

from repl.commands import Context, dispatch
from repl.complete import WenqingCompleter
from repl.render import Renderer
from tools.errors import UserError
from tools.workspace import Workspace

BANNER = "问清 wenqing · 工作区 {root}\n说说要对哪个表格做什么（/help 查看命令，Ctrl-D 退出）。"
BANNER_EN = "wenqing · workspace {root}\nSay what to do with which table (/help for commands, Ctrl-D to quit)."
PROMPT = {"zh": "问清> ", "en": "wenqing> "}


def start_language(ws: Workspace) -> str:
    """The language spoken before the user has said anything: WENQING_LANG when set; Chinese under a Chinese locale;
    English for a workspace whose tables are all named in Latin letters; else Chinese. The first request decides after."""
    said = os.environ.get("WENQING_LANG", "").strip().casefold()
    if said in ("zh", "en"):
        return said
    if any(os.environ.get(v, "").casefold().startswith("zh") for v in ("LC_ALL", "LC_MESSAGES", "LANG")):
        return "zh"
    names = ws.spreadsheets()
    return "en" if names and all(n.isascii() for n in names) else "zh"


def completion_keys() -> KeyBindings:
    """Tab completes a unique name at once (typing straight on never races the menu); otherwise the menu, best first."""
    kb = KeyBindings()

    @kb.add("tab")
    def _(event: Any) -> None:
        b = event.current_buffer
        if b.complete_state:
            b.complete_next()
            return
        if b.completer is None:
            return
        try:
            found = list(b.completer.get_completions(b.document, CompleteEvent(completion_requested=True)))
        except Exception:  # a completion problem never ends the session; the line stays as typed
            return
        if len(found) == 1:
            b.apply_completion(found[0])
        elif found:
            b.start_completion(select_first=True)

    return kb


def history_file() -> History:
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "wenqing"
    try:  # the folder and the file are wenqing's own: a link at either keeps the history in memory
        from tools.write import check_name, folder_fd

        fd = folder_fd(base)
        try:
            check_name(fd, "history")
        finally:
            os.close(fd)
        return FileHistory(str(Path(os.path.realpath(base)) / "history"))
    except OSError:
        return InMemoryHistory()


SHOW_PROGRESS_AFTER = 0.8


def log_error(ws: Workspace, e: BaseException) -> str:
    """Append the traceback to <workspace>/.wenqing/errors.log; return a hint for the user."""
    import traceback

    from tools.errors import UserError
    from tools.write import append_state

    try:
        append_state(ws, "errors.log", "".join(traceback.format_exception(e)) + "\n")
        return "详情记录在 .wenqing/errors.log。"
    except (OSError, UserError):
        return ""


def turn_with_progress(console: Console, session: Any, line: str) -> Any:
    """Run a turn in a worker; if it takes longer than about a second, show a progress bar over its steps. Ctrl-C
    cancels the request, not the session: it stops at the next step boundary, keeps nothing it wrote, and the
    prompt comes back."""
    import time
    from concurrent.futures import ThreadPoolExecutor, wait

    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    state: dict[str, Any] = {"i": 0, "n": 0, "label": ""}
    session.on_step = lambda i, n, label: state.update(i=i, n=n, label=label)
    cancel = getattr(session, "cancel", None)
    if cancel is not None:
        cancel.clear()
    en = _english(session, line)
    pool = ThreadPoolExecutor(max_workers=1)
    fut = pool.submit(session.turn, line)
    asked = False
    progress = None
    started = time.perf_counter()
    try:
        while not fut.done():
            try:
                if progress is None and time.perf_counter() - started >= SHOW_PROGRESS_AFTER:
                    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                               TextColumn("{task.completed}/{task.total} " + ("steps" if en else "步")), TimeElapsedColumn())
                    progress = Progress(*columns, console=console, transient=True)
                    progress.start()
                    task = progress.add_task("Working…" if en else "处理中……", total=None)
                if progress is not None:
                    n = state["n"] or None
                    label = ("Cancelling…" if en else "正在取消……") if asked else str(state["label"] or ("Reading…" if en else "读取中……"))
                    progress.update(task, total=n, completed=max(0, int(state["i"]) - 1), description=label)
                wait([fut], timeout=0.1)
            except KeyboardInterrupt:
                if not asked and hasattr(session, "interrupt"):
                    session.interrupt()
                    asked = True
                    console.print("正在取消：当前这一步结束后停下，不留下写了一半的文件。" if not en else
                                  "Cancelling: stopping after the current step; nothing half-written is kept.", style="yellow")
    finally:
        if progress is not None:
            progress.stop()
        pool.shutdown(wait=False)
    return fut.result()


def _english(session: Any, line: str) -> bool:
    from modes.text import SESSION_LANG, language

    token = SESSION_LANG.set(getattr(session, "lang", None))
    try:
        return bool(getattr(session, "lang_fixed", None) == "en" or language(line) == "en")
    finally:
        SESSION_LANG.reset(token)


def _ctrl_c_cancels() -> None:
    """Ctrl-C cancels the running request whatever the REPL was started from: a launcher that ignores SIGINT (it is
    inherited across exec) would otherwise leave a typed ^C without effect."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def run_repl(ws: Workspace, prompt: PromptSession[str] | None = None, console: Console | None = None, model: Any = None,
             opener: Callable[[Path], None] | None = None) -> None:
    from engine.session import Session

    console = console or Console()
    render = Renderer(console)
    session = Session(ws, model=model)
    ctx = Context(session, render) if opener is None else Context(session, render, opener=opener)
    completer = WenqingCompleter(ws, catalog=session.catalog, current_file=lambda: session.state.current_file)
    if prompt is None:
        prompt = PromptSession(history=history_file(), completer=completer, complete_while_typing=False,
                               key_bindings=completion_keys())
    elif prompt.completer is None:
        prompt.completer = completer
        prompt.key_bindings = prompt.key_bindings or completion_keys()
    session.lang = start_language(ws)
    _ctrl_c_cancels()
    render.say((BANNER_EN if session.lang == "en" else BANNER).format(root=ws.root), "bold")
    if not ws.spreadsheets():
        console.print("这个工作区里还没有表格文件（xlsx、xls、csv）。用 --workspace 指定别的文件夹，或把文件放进来。" if session.lang == "zh" else
                      "This workspace has no spreadsheet yet (xlsx, xls, csv). Point --workspace at another folder, or put files in it.", style="yellow")
    session.warm_up()  # while the user types the first request
    while ctx.running:
        try:
            line = prompt.prompt(PROMPT.get(session.lang, PROMPT["zh"]))
        except KeyboardInterrupt:
            continue
        except EOFError:
            break
        line = line.strip()
        if not line:
            continue
        try:
            if line.startswith("/"):
                dispatch(ctx, line)
                continue
            tr = turn_with_progress(console, session, line)
            render.turn(tr)
        except UserError as e:
            render.say(e.message(session.lang), "red")
        except Exception as e:  # a bug: say so, keep the session, keep the details
            where = log_error(ws, e)
            if session.lang == "en":
                render.say(f"Something went wrong (internal error {type(e).__name__}); this step did not finish and the session goes on."
                           + (" Details are in .wenqing/errors.log." if where else ""), "red")
            else:
                render.say(f"出错了（内部错误 {type(e).__name__}），这一步没有完成，会话继续。{where}", "red")
    console.print("再见！" if session.lang == "zh" else "Bye!")
