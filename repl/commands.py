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


@dataclass
class Context:
    session: Session
    render: Renderer
    running: bool = True
    opener: Callable[[Path], None] = field(default=system_open)


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    func: Callable[[Context, str], None]


COMMANDS: dict[str, Command] = {}


def command(name: str, help: str) -> Callable[[Callable[[Context, str], None]], Callable[[Context, str], None]]:
    def deco(func: Callable[[Context, str], None]) -> Callable[[Context, str], None]:
        COMMANDS[name] = Command(name, help, func)
        return func

    return deco


def dispatch(ctx: Context, line: str) -> None:
    name, _, arg = line.strip().partition(" ")
    cmd = COMMANDS.get(name)
    if cmd is None:
        ctx.render.say(f"没有这个命令：{name}。输入 /help 查看全部命令。")
        return
    cmd.func(ctx, arg.strip())


@command("/help", "显示帮助")
def _help(ctx: Context, arg: str) -> None:
    ctx.render.say("直接用中文或英文说要做什么，例如：“筛选 上海_poi.xlsx，地址不为空”“按城市汇总金额并导出”。")
    for c in COMMANDS.values():
        ctx.render.say(f"  {c.name:<10} {c.help}")


@command("/forget", "忘掉本次会话（当前文件、待确认的请求、澄清状态），保留输入历史")
def _forget(ctx: Context, arg: str) -> None:
    ctx.session.forget()
    ctx.render.say("好的，已经忘掉当前文件和待确认的请求。")


@command("/files", "列出工作区文件（大小、工作表、行数）和 outputs/ 里的结果")
def _files(ctx: Context, arg: str) -> None:
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
        if info is not None and info.error:
            sheets = "无法读取：" + info.error
        elif info is not None and info.sheets:
            sheets = "、".join(s.name for s in info.sheets if s.name)
            rowcount = "、".join(_rows(s.rows) for s in info.sheets)
        rows.append([rel, size, sheets, rowcount])
    ctx.render.say(f"工作区文件（{len(rows)} 个）", "bold")
    table, _ = fit_rows(["文件", "大小", "工作表", "行数"], rows, ctx.render.c.width)
    ctx.render.c.print(table)
    outputs = ws.output_files()
    if outputs:
        ctx.render.say("outputs/ 里的结果：" + "、".join(o.removeprefix("outputs/") for o in outputs))


def _size(n: float) -> str:
    for unit in ("B", "KB", "MB"):
        if n < 1024:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GB"


def _rows(n: int) -> str:
    from engine.catalog import SAMPLE_ROWS

    return f"{n}+" if n >= SAMPLE_ROWS else str(n)


@command("/trace", "显示最近一次（或指定 ID）运行的审计记录，包括这次请求的每一轮")
def _trace(ctx: Context, arg: str) -> None:
    run = ctx.session.audit.run(arg or None)
    if run is None:
        ctx.render.say("没有找到运行记录。")
        return
    ctx.render.trace(run)


HISTORY_SIZE = 10


def requests(ctx: Context, limit: int = HISTORY_SIZE) -> list[HistoryItem]:
    """The executed requests of this workspace, newest first (what /history lists and /open N counts)."""
    return [history_item(run) for run in ctx.session.history(limit)]


@command("/history", "列出最近的请求和结果（行数、写出的文件）")
def _history(ctx: Context, arg: str) -> None:
    ctx.render.history(requests(ctx))


@command("/open", "/open N：显示第 N 个结果（见 /history）的路径；/open N 打开：用系统程序打开")
def _open(ctx: Context, arg: str) -> None:
    parts = arg.split()
    try:
        n = int(parts[0]) if parts else 1
    except ValueError:
        ctx.render.say("用法：/open N（N 是 /history 里的编号），/open N 打开")
        return
    items = requests(ctx)
    if not 1 <= n <= len(items):
        ctx.render.say(f"没有第 {n} 个结果；/history 里有 {len(items)} 个。" if items else "还没有运行过的请求。")
        return
    item = items[n - 1]
    if not item.files:
        ctx.render.say(f"第 {n} 个请求（{item.request}）没有写出文件。")
        return
    launch = any(p.casefold() in ("打开", "open", "-o", "--open") for p in parts[1:])
    for rel in item.files:
        path = ctx.session.ws.root / rel
        if not path.is_file():
            ctx.render.say(f"{path}（文件已不在了）")
            continue
        ctx.render.say(str(path))
        if launch:
            try:
                ctx.opener(path)
            except FileNotFoundError:
                ctx.render.say("这台机器上没有可用的系统打开程序（如 xdg-open），请按上面的路径手动打开。", "red")
            except OSError as e:
                ctx.render.say(f"没能用系统程序打开（{type(e).__name__}），请按上面的路径手动打开。", "red")


@command("/undo", "删除上一次运行写出的文件（只删问清自己写的）")
def _undo(ctx: Context, arg: str) -> None:
    removed = ctx.session.undo()
    kept = ctx.session.undo_kept
    if removed:
        ctx.render.say("已删除：" + "、".join(removed))
    if kept:
        ctx.render.say("这些文件在写出后被改动或换成了别的文件，没有删除：" + "、".join(kept), "yellow")
    if not removed and not kept:
        ctx.render.say("上一次运行没有写出文件，没有可撤销的。")


@command("/recipe", "数据配方：/recipe save 名称 | /recipe list | /recipe run 名称 文件")
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


@command("/model", "显示正在使用的理解方式（规则或模型）和本次会话的模型调用")
def _model(ctx: Context, arg: str) -> None:
    a = ctx.session.assistant
    if a is None:
        ctx.render.say("正在使用：规则（完全离线，不联网）。配置 OPENAI_API_KEY 和 WENQING_MODEL 后用 --backend auto 或 model 启用模型。")
        return
    log = a.client.log
    ok = sum(1 for c in log if c.ok)
    tokens = sum(c.tokens_in + c.tokens_out for c in log)
    ctx.render.say(f"正在使用：规则 + 模型。{a.cfg.describe()}")
    ctx.render.say(f"本次会话调用模型 {len(log)} 次（成功 {ok} 次），共 {tokens} token。")


@command("/exit", "退出")
def _exit(ctx: Context, arg: str) -> None:
    ctx.running = False
