"""What the commands do, without typer: the typer app in repl/cli.py calls these, and `wenqing decide` with plain
arguments runs them directly, so a decision does not pay for building the whole command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


class CliExit(Exception):
    """End the command with this exit code (the message, if any, is already written)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def say(message: str, err: bool = False) -> None:
    stream = sys.stderr if err else sys.stdout
    stream.write(message + "\n")
    stream.flush()


def model_for(backend: str, no_cell_values: bool) -> Any:
    from engine.config import for_backend
    from tools.errors import UserError

    try:
        return for_backend(backend, send_cell_values=not no_cell_values)
    except UserError as e:
        say(e.zh, err=True)
        raise CliExit(2) from e


def split_lines(text: str) -> list[str]:
    """Lines end at \\n only: U+2028 or U+0085 inside a JSON string or a typed turn does not end it."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def read_lines(path: Path, what: str) -> list[str]:
    """The lines of a file, or of standard input when the path is "-" (/dev/stdin works as any file does)."""
    if str(path) == "-":
        return split_lines(sys.stdin.buffer.read().decode("utf-8-sig", errors="replace"))
    if not path.exists() or path.is_dir():
        say(f"找不到{what}：{path}", err=True)
        raise CliExit(2)
    try:
        return split_lines(path.read_bytes().decode("utf-8-sig", errors="replace"))
    except OSError as e:
        say(f"读不了{what}：{path}（{e.strerror}）", err=True)
        raise CliExit(2) from e


def workspace_at(path: Path) -> Any:
    from tools.workspace import Workspace

    if not path.is_dir():
        say(f"工作区不存在：{path}", err=True)
        raise CliExit(2)
    return Workspace.at(path)


def decide(utterance: str | None, workspace: Path, batch: Path | None, backend: str, no_cell_values: bool) -> None:
    """`wenqing decide`: one JSON decision, or one per line of a batch."""
    from engine.batch import decide_batch, decide_one
    from engine.intake import encodable

    ws = workspace_at(workspace)
    model = model_for(backend, no_cell_values)
    if batch is not None:
        for line in decide_batch(ws, read_lines(batch, "文件"), model):
            sys.stdout.write(encodable(json.dumps(line, ensure_ascii=False)) + "\n")
        return
    if utterance is None:
        say("请给出一句话，或用 --batch。", err=True)
        raise CliExit(2)
    sys.stdout.write(encodable(json.dumps(decide_one(ws, utterance, model), ensure_ascii=False)) + "\n")


def session(workspace: Path, backend: str, no_cell_values: bool) -> int:
    """`wenqing`: the REPL on a terminal; turns piped on standard input run as a script."""
    ws = workspace_at(workspace)
    model = model_for(backend, no_cell_values)
    if not sys.stdin.isatty():
        from repl.script import run_lines

        return run_lines(ws, read_lines(Path("-"), "输入"), None, model=model)
    from repl.loop import run_repl

    run_repl(ws, model=model)
    return 0


VALUES = {"--workspace": "workspace", "-w": "workspace", "--backend": "backend"}
FLAGS = {"--no-cell-values": "no_cell_values"}


def plain_args(argv: list[str], values: dict[str, str], words_allowed: int) -> dict[str, Any] | None:
    """The options and words of a plain command line: known options, each at most once, and at most
    `words_allowed` words that do not look like options; None for anything else, which the full command line
    reads (and explains: --help, an unknown option, "--")."""
    opts: dict[str, Any] = {}
    words: list[str] = []
    i = 0
    while i < len(argv):
        a = argv[i]
        name, eq, value = a.partition("=") if a.startswith("--") else (a, "", "")
        if name in values:
            if not eq:
                if i + 1 >= len(argv):
                    return None
                i, value = i + 1, argv[i + 1]
            if values[name] in opts:
                return None
            opts[values[name]] = value
        elif a in FLAGS and FLAGS[a] not in opts:
            opts[FLAGS[a]] = True
        elif a.startswith("-") or len(words) >= words_allowed:
            return None
        else:
            words.append(a)
        i += 1
    return {"workspace": Path(opts.get("workspace", ".")), "backend": opts.get("backend", "auto"),
            "no_cell_values": bool(opts.get("no_cell_values", False)), "batch": opts.get("batch"), "words": words}


def run_plain(argv: list[str]) -> int | None:
    """Run a plain `wenqing [options]` or `wenqing decide ...` and return its exit code; None when the command
    line is not plain. A bug is said in one short line (the details go to the workspace's error log)."""
    args: dict[str, Any] | None = None
    words: list[str] = []
    try:
        if argv[:1] == ["decide"]:
            args = plain_args(argv[1:], {**VALUES, "--batch": "batch"}, 1)
            if args is None:
                return None
            batch, words = args.pop("batch"), args.pop("words")
            decide(words[0] if words else None, batch=Path(batch) if batch is not None else None, **args)
            return 0
        args = plain_args(argv, VALUES, 0)
        if args is None:
            return None
        del args["batch"], args["words"]
        return session(**args)
    except CliExit as e:
        return e.code
    except KeyboardInterrupt:
        say("已中断。" if not _english(words) else "Interrupted.", err=True)
        return 130
    except Exception as e:  # a bug: one line for the user, the traceback in the error log
        where = _log_bug(args["workspace"] if args else None, e)
        if _english(words):
            say(f"Something went wrong (internal error {type(e).__name__}); the command did not finish. {where[1]}".rstrip(), err=True)
        else:
            say(f"出错了（内部错误 {type(e).__name__}），命令没有完成。{where[0]}", err=True)
        return 1


def _english(words: list[str]) -> bool:
    """The request of the command line is written in English."""
    from modes.text import language

    return bool(words) and language(words[0]) == "en"


def _log_bug(workspace: Path | None, e: BaseException) -> tuple[str, str]:
    """Append the traceback to <workspace>/.wenqing/errors.log; (Chinese hint, English hint) saying where it is."""
    if workspace is None or not workspace.is_dir():
        return "", ""
    try:
        from repl.loop import log_error
        from tools.workspace import Workspace

        hint = log_error(Workspace.at(workspace), e)
    except Exception:  # noqa: BLE001  (the log is a help, never a second failure)
        return "", ""
    return (hint, "Details are in .wenqing/errors.log.") if hint else ("", "")
