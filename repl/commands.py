"""Slash commands, registered by decorator; /help is generated from the registry."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine.session import Session
from repl.render import HistoryItem, Renderer, fit_rows, history_item


def system_open(path: Path) -> None:
    """Open a file with the system's default application (xdg-open, open, or the Windows shell)."""
    if sys.platform == "win32":
        os.startfile(path)  # type: ignore[attr-defined]
        return
    opener = "open" if sys.platform == "darwin" else "xdg-open"
    subprocess.Popen([opener, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def console_pager(ctx: Context, draw: Callable[[], None]) -> None:
    """Page what `draw` prints through the terminal's pager (rich's, over less or more); printed as it is when the
    output is not a terminal."""
    c = ctx.render.c
    if not c.is_terminal:
        draw()
        return
    less = os.environ.get("LESS")
    os.environ["LESS"] = "-R" if less is None else (less if "R" in less else less + " -R")  # less shows the styles, not ESC[1m
    try:
        with c.pager(styles=True):
            draw()
    finally:
        if less is None:
            os.environ.pop("LESS", None)
        else:
            os.environ["LESS"] = less


@dataclass
class Context:
    session: Session
    render: Renderer
    running: bool = True
    opener: Callable[[Path], None] = field(default=system_open)
    pager: Callable[[Context, Callable[[], None]], None] = field(default=console_pager)


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    func: Callable[[Context, str], None]
    en: str = ""


COMMANDS: dict[str, Command] = {}


def command(name: str, help: str, en: str) -> Callable[[Callable[[Context, str], None]], Callable[[Context, str], None]]:
    def deco(func: Callable[[Context, str], None]) -> Callable[[Context, str], None]:
        COMMANDS[name] = Command(name, help, func, en)
        return func

    return deco


def dispatch(ctx: Context, line: str) -> None:
    name, _, arg = line.strip().partition(" ")
    cmd = COMMANDS.get(name)
    if cmd is None:
        ctx.render.say(f"没有这个命令：{name}。输入 /help 查看全部命令。" if ctx.session.lang == "zh" else f"There is no command {name}. Type /help for the list.")
        return
    cmd.func(ctx, arg.strip())


@command("/help", "显示帮助", "show this help")
def _help(ctx: Context, arg: str) -> None:
    zh = ctx.session.lang == "zh"
    ctx.render.say("直接用中文或英文说要做什么，例如：“筛选 上海_poi.xlsx，地址不为空”“按城市汇总金额并导出”。" if zh else
                   "Say what to do, in English or Chinese, for example: 'keep the rows of orders.xlsx where city is Paris', "
                   "'total sales by region and export it'.")
    for c in COMMANDS.values():
        ctx.render.say(f"  {c.name:<10} {c.help if zh or not c.en else c.en}")


@command("/forget", "忘掉本次会话（当前文件、待确认的请求、澄清状态），保留输入历史", "forget this session (current file, pending request, questions); input history stays")
def _forget(ctx: Context, arg: str) -> None:
    ctx.session.forget()
    ctx.render.say("好的，已经忘掉当前文件和待确认的请求。" if ctx.session.lang == "zh" else "Done: the current file and any pending request are forgotten.")


@command("/files", "列出工作区文件（大小、工作表、行数）和 outputs/ 里的结果", "list the workspace's files (size, sheets, rows) and the results in outputs/")
def _files(ctx: Context, arg: str) -> None:
    zh = ctx.session.lang == "zh"
    ws = ctx.session.ws
    catalog = ctx.session.catalog()
    rows = []
    for rel in ws.files():
        info = catalog.get(rel)
        try:
            size = _size((ws.root / rel).stat().st_size)
        except OSError:
            size = ""
        sheets = rowcount = ""
        sep = "、" if zh else ", "
        if info is not None and info.error:
            sheets = ("无法读取：" + info.error) if zh else "cannot be read: " + _error_en(ws.root / rel)
        elif info is not None and info.sheets:
            sheets = sep.join(s.name for s in info.sheets if s.name)
            rowcount = sep.join(_rows(s.rows) for s in info.sheets)
        rows.append([rel, size, sheets, rowcount])
    ctx.render.say(f"工作区文件（{len(rows)} 个）" if zh else f"Workspace files ({len(rows)})", "bold")
    table, _ = fit_rows(["文件", "大小", "工作表", "行数"] if zh else ["file", "size", "sheets", "rows"], rows, ctx.render.c.width)
    ctx.render.c.print(table)
    outputs = ws.output_files()
    if outputs:
        ctx.render.say(("outputs/ 里的结果：" if zh else "Results in outputs/: ") + ("、" if zh else ", ").join(o.removeprefix("outputs/") for o in outputs))


def _error_en(path: Path) -> str:
    """Why a file cannot be read, in English (the catalog keeps the Chinese reason): its first rows read again."""
    from tools.errors import UserError
    from tools.io import read_table

    try:
        read_table(path, nrows=5, sample=True)
    except UserError as e:
        return e.message("en")
    except Exception as e:  # noqa: BLE001  (what the catalog met: said by its kind)
        return f"reading it failed ({type(e).__name__})"
    return "it could not be read when the workspace was scanned"


def _size(n: float) -> str:
    for unit in ("B", "KB", "MB"):
        if n < 1024:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GB"


def _rows(n: int) -> str:
    from engine.catalog import SAMPLE_ROWS

    return f"{n}+" if n >= SAMPLE_ROWS else str(n)


@command("/trace", "显示最近一次（或指定 ID）运行的审计记录，包括这次请求的每一轮", "show the audit record of the last run (or of a given ID), every turn of its request included")
def _trace(ctx: Context, arg: str) -> None:
    run = ctx.session.audit.run(arg or None)
    zh = ctx.session.lang == "zh"
    if run is None:
        ctx.render.say("没有找到运行记录。" if zh else "No run was found.")
        return
    ctx.render.trace(run, zh)


@command("/sql", "显示上一次请求由 DuckDB 运行的 SQL（逐步；在内存中运行的步骤会说明）", "show the SQL DuckDB ran for the last request, step by step (steps run in memory are said)")
def _sql(ctx: Context, arg: str) -> None:
    from tools.outofcore import LOADED

    zh = ctx.session.lang == "zh"
    run, steps = ctx.session.statements(arg)
    if run is None:
        ctx.render.say("还没有运行过的请求。" if zh else "Nothing has run yet.")
        return
    said = history_item(run, zh).request  # the words that asked, not the 继续 that ran them
    ran = [s for s in steps if s["sql"]]
    if not ran:
        ctx.render.say(f"“{said}”在内存中运行：表载入后由同样的操作逐步完成，没有 SQL。由 DuckDB 运行的表（100 MB 以上的 CSV，"
                       "或设置 WENQING_ENGINE=duckdb）才有 SQL 可看。" if zh else
                       f"'{said}' ran in memory: the table was loaded and the same operations ran on it, with no SQL. Tables run "
                       "by DuckDB (CSV files of 100 MB or more, or WENQING_ENGINE=duckdb) have SQL to show.")
        return
    ctx.render.say(f"“{said}”由 DuckDB 运行的 SQL：" if zh else f"The SQL DuckDB ran for '{said}':")
    for s in steps:
        head = f"-- 第 {s['step']} 步（{s['tool']}）" if zh else f"-- step {s['step']} ({s['tool']})"
        if not s["sql"]:
            ctx.render.say(head + ("：没有它自己的 SQL（在内存中完成，或已并入后面的语句）" if zh else
                                   ": no SQL of its own (it ran in memory, or is part of a later statement)"), "dim")
            continue
        ctx.render.say(head, "dim")
        for q in s["sql"]:
            if q.startswith(LOADED):  # the table this step then worked on in memory (a step DuckDB has no form for)
                ctx.render.say("-- 读入内存的表（这一步随后在内存中运行）：" if zh else "-- the table read into memory (the step then ran in memory):", "dim")
                q = q.removeprefix(LOADED)
            ctx.render.say(q.rstrip(";") + ";")


HISTORY_SIZE = 10


def requests(ctx: Context, limit: int = HISTORY_SIZE) -> list[HistoryItem]:
    """The executed requests of this workspace, newest first (what /history lists and /open N counts)."""
    root = ctx.session.ws.root
    return [history_item(run, ctx.session.lang == "zh", gone=lambda f: not (root / f).exists()) for run in ctx.session.history(limit)]


@command("/history", "列出最近的请求和结果（行数、写出的文件）", "list the latest requests and their results (rows, files written)")
def _history(ctx: Context, arg: str) -> None:
    ctx.render.history(requests(ctx), ctx.session.lang == "zh")


@command("/open", "/open N：显示第 N 个结果（见 /history）的路径；/open N 打开：用系统程序打开", "/open N: the path of result N (see /history); /open N open: open it with the system's program")
def _open(ctx: Context, arg: str) -> None:
    parts = arg.split()
    zh = ctx.session.lang == "zh"
    try:
        n = int(parts[0]) if parts else 1
    except ValueError:
        ctx.render.say("用法：/open N（N 是 /history 里的编号），/open N 打开" if zh else "Usage: /open N (N is a number in /history), /open N open")
        return
    items = requests(ctx)
    if not 1 <= n <= len(items):
        ctx.render.say((f"没有第 {n} 个结果；/history 里有 {len(items)} 个。" if items else "还没有运行过的请求。") if zh else
                       (f"There is no result {n}; /history has {len(items)}." if items else "No request has run yet."))
        return
    item = items[n - 1]
    if not item.files:
        ctx.render.say(f"第 {n} 个请求（{item.request}）没有写出文件。" if zh else f"Request {n} ({item.request}) wrote no file.")
        return
    launch = any(p.casefold() in ("打开", "open", "-o", "--open") for p in parts[1:])
    for rel in item.files:
        path = ctx.session.ws.root / rel
        if not path.is_file():
            ctx.render.say(f"{path}（文件已不在了）" if zh else f"{path} (the file is gone)")
            continue
        ctx.render.say(str(path))
        if launch:
            try:
                ctx.opener(path)
            except FileNotFoundError:
                ctx.render.say("这台机器上没有可用的系统打开程序（如 xdg-open），请按上面的路径手动打开。" if zh else
                               "This machine has no program to open files (such as xdg-open); open it from the path above.", "red")
            except OSError as e:
                ctx.render.say(f"没能用系统程序打开（{type(e).__name__}），请按上面的路径手动打开。" if zh else
                               f"The system's program could not open it ({type(e).__name__}); open it from the path above.", "red")


SHOW_PAGE = 1000  # rows one /show pages through; /show N FROM goes on from row FROM


@command("/show", "/show [N|名字] [起始行]：分页查看第 N 个（或命名的）结果的全部行，q 退出", "/show [N|name] [from row]: page through every row of result N (or a named one); q quits the pager")
def _show(ctx: Context, arg: str) -> None:
    from tools.errors import UserError

    zh = ctx.session.lang == "zh"
    parts = arg.split()
    start = 1
    if len(parts) >= 2 and parts[-1].isdigit():
        start = max(1, int(parts.pop()))
    try:
        path, df = ctx.session.result_table(parts[0] if parts else "")
    except UserError as e:
        ctx.render.say(e.message(ctx.session.lang))
        return
    rows, cols = len(df), len(df.columns)
    if start > max(rows, 1):
        ctx.render.say(f"这个结果只有 {rows} 行。" if zh else f"That result has only {rows} rows.")
        return
    page = df.iloc[start - 1 : start - 1 + SHOW_PAGE]
    end = start - 1 + len(page)
    label = ctx.session.file_label(path)
    title = (f"{label}：共 {rows} 行 × {cols} 列，第 {start}–{end} 行" if zh else f"{label}: {rows} rows × {cols} columns, rows {start}–{end}")

    def draw() -> None:
        from repl.render import fit_table

        ctx.render.say(title, "bold")
        table, hidden = fit_table(page, len(page), ctx.render.c.width)
        ctx.render.c.print(table)
        if hidden:
            ctx.render.say((f"还有 {len(hidden)} 列放不下：" + "、".join(hidden)) if zh else f"{len(hidden)} more columns do not fit: " + ", ".join(hidden), "dim")
        if end < rows:
            which = parts[0] if parts else "1"
            ctx.render.say(f"还有 {rows - end} 行：/show {which} {end + 1}" if zh else f"{rows - end} more rows: /show {which} {end + 1}", "dim")

    ctx.pager(ctx, draw)


@command("/name", "/name N 名字：给第 N 个结果起名，之后请求里说这个名字就用这个结果", "/name N name: name result N; a request that says the name works on that result")
def _name(ctx: Context, arg: str) -> None:
    from tools.errors import UserError

    zh = ctx.session.lang == "zh"
    parts = arg.split(maxsplit=1)
    if parts and not parts[0].isdigit():
        parts = ["1", arg.strip()]
    if len(parts) != 2:
        named = ctx.session.named_results()
        if named:
            ctx.render.say(("已命名的结果：" + "、".join(sorted(named))) if zh else "Named results: " + ", ".join(sorted(named)))
        ctx.render.say("用法：/name N 名字（N 是 /history 里的编号，省略时是最近的结果）" if zh else "Usage: /name N name (N as /history numbers it; the latest when left out)")
        return
    try:
        ctx.session.name_result(parts[0], parts[1])
    except UserError as e:
        ctx.render.say(e.message(ctx.session.lang))
        return
    ctx.render.say(f"已把第 {parts[0]} 个结果命名为“{parts[1]}”。之后说“{parts[1]}里……”就用这个结果，/show {parts[1]} 查看。" if zh
                   else f"Result {parts[0]} is now named '{parts[1]}'. Say '{parts[1]}' in a request to work on it; /show {parts[1]} to look at it.")


@command("/undo", "删除上一次运行写出的文件（只删问清自己写的）", "remove the files the last run wrote (only files wenqing wrote)")
def _undo(ctx: Context, arg: str) -> None:
    removed = ctx.session.undo()
    kept = ctx.session.undo_kept
    zh = ctx.session.lang == "zh"
    if removed:
        ctx.render.say(("已删除：" + "、".join(removed)) if zh else "Removed: " + ", ".join(removed))
    if kept:
        ctx.render.say(("这些文件在写出后被改动或换成了别的文件，没有删除：" + "、".join(kept)) if zh else
                       "Changed or replaced since they were written, so not removed: " + ", ".join(kept), "yellow")
    if not removed and not kept:
        ctx.render.say("上一次运行没有写出文件，没有可撤销的。" if zh else "The last run wrote no file; there is nothing to undo.")


@command("/recipe", "数据配方：/recipe save 名称 | /recipe list | /recipe run 名称 文件", "recipes: /recipe save NAME | /recipe list | /recipe run NAME FILE")
def _recipe(ctx: Context, arg: str) -> None:
    from engine import recipes
    from tools.errors import UserError

    parts = arg.split()
    ws = ctx.session.ws
    try:
        if parts[:1] == ["save"] and len(parts) == 2:
            if ctx.session.last_executed is None:
                ctx.render.say("还没有成功执行过的方案，先跑一次再保存。")
                return
            plan, d = ctx.session.last_executed
            r = recipes.save(ws, parts[1], plan, d.request, ctx.session.chain)
            links = f"，连同它之前的 {len(r.chain)} 个接续请求" if r.chain else ""
            ctx.render.say(f"已保存配方“{r.name}”（{len(r.steps)} 步{links}，需要的列：{'、'.join(r.needed_columns()) or '无'}）。")
        elif parts[:1] == ["list"]:
            names = recipes.list_names(ws)
            ctx.render.say("配方：" + ("、".join(names) if names else "（还没有）"))
        elif parts[:1] == ["run"] and len(parts) >= 3:
            import uuid

            tid = uuid.uuid4().hex[:12]
            ctx.session.audit.start_run(tid, ctx.session.state.turn, f"/recipe {arg}", {"recipe": parts[1]}, ctx.session.clock())
            run = recipes.run(ws, parts[1], parts[2], parts[3] if len(parts) > 3 else None, ctx.session.audit, tid)
            ctx.session.audit.finish_run(tid, run.status, run.answer, run.fallback_reason, ctx.session.clock(), None, run.files)
            ctx.session.remember_written(run.files)
            ctx.render.say(run.answer or "；".join(run.notes))
        else:
            ctx.render.say("用法：/recipe save 名称 | /recipe list | /recipe run 名称 文件 [工作表]")
    except UserError as e:
        ctx.render.say(e.zh)


@command("/model", "显示正在使用的理解方式（规则或模型）和本次会话的模型调用", "show how requests are understood (rules, or rules and a model) and this session's model calls")
def _model(ctx: Context, arg: str) -> None:
    a = ctx.session.assistant
    zh = ctx.session.lang != "en"
    if a is None:
        ctx.render.say("正在使用：规则（完全离线，不联网）。配置 OPENAI_API_KEY 和 WENQING_MODEL 后用 --backend auto 或 model 启用模型。" if zh else
                       "Understanding: rules only (fully offline, nothing leaves this machine). Set OPENAI_API_KEY and WENQING_MODEL, "
                       "then start with --backend auto or model to add a model.")
        return
    log = a.client.log
    ok = sum(1 for c in log if c.ok)
    tokens = sum(c.tokens_in + c.tokens_out for c in log)
    ctx.render.say(f"正在使用：规则 + 模型。{a.cfg.describe()}" if zh else f"Understanding: rules and a model. {a.cfg.describe('en')}")
    ctx.render.say(f"本次会话调用模型 {len(log)} 次（成功 {ok} 次），共 {tokens} token。" if zh else
                   f"Model calls this session: {len(log)} ({ok} succeeded), {tokens} tokens.")


@command("/lang", "/lang zh|en：固定会话语言（默认跟随您的用语）", "/lang zh|en: fix the session's language (by default it follows yours)")
def _lang(ctx: Context, arg: str) -> None:
    want = {"zh": "zh", "中文": "zh", "cn": "zh", "en": "en", "english": "en", "英文": "en"}.get(arg.strip().casefold())
    if want is None:
        s = ctx.session
        now = ("中文" if s.lang == "zh" else "English") + ("（已固定）" if s.lang_fixed and s.lang == "zh" else " (fixed)" if s.lang_fixed else "")
        ctx.render.say(f"现在的语言：{now}。用法：/lang zh 或 /lang en" if s.lang == "zh" else f"Language now: {now}. Usage: /lang zh or /lang en")
        return
    ctx.session.lang = ctx.session.lang_fixed = want
    ctx.render.say("好的，之后都用中文回答。" if want == "zh" else "OK, every answer is in English from now on.")


@command("/exit", "退出", "quit")
def _exit(ctx: Context, arg: str) -> None:
    ctx.running = False
