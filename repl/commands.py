"""Slash commands, registered by decorator; /help is generated from the registry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.session import Session
from repl.render import Renderer


@dataclass
class Context:
    session: Session
    render: Renderer
    running: bool = True


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
        ctx.render.c.print(f"没有这个命令：{name}。输入 /help 查看全部命令。")
        return
    cmd.func(ctx, arg.strip())


@command("/help", "显示帮助")
def _help(ctx: Context, arg: str) -> None:
    ctx.render.c.print("直接用中文或英文说要做什么，例如：“筛选 上海_poi.xlsx，地址不为空”“按城市汇总金额并导出”。")
    for c in COMMANDS.values():
        ctx.render.c.print(f"  {c.name:<10} {c.help}")


@command("/forget", "忘掉本次会话（当前文件、待确认的请求、澄清状态），保留输入历史")
def _forget(ctx: Context, arg: str) -> None:
    ctx.session.forget()
    ctx.render.c.print("好的，已经忘掉当前文件和待确认的请求。")


@command("/files", "列出工作区文件（类型、大小、工作表）和 outputs/ 里的结果")
def _files(ctx: Context, arg: str) -> None:
    from tools import registry

    ws = ctx.session.ws
    listing = registry.call("list_files", {"ws": ws}).data
    ctx.render.dataframe(listing, f"工作区文件（{len(listing)} 个）", limit=200)
    outputs = ws.output_files()
    if outputs:
        ctx.render.c.print("outputs/ 里的结果：" + "、".join(o.removeprefix("outputs/") for o in outputs))


@command("/trace", "显示最近一次（或指定 ID）运行的审计记录")
def _trace(ctx: Context, arg: str) -> None:
    run = ctx.session.audit.run(arg or None)
    if run is None:
        ctx.render.c.print("没有找到运行记录。")
        return
    ctx.render.trace(run)


@command("/history", "列出最近的运行")
def _history(ctx: Context, arg: str) -> None:
    ctx.render.history(ctx.session.audit.runs(10))


@command("/undo", "删除上一次运行写出的文件（只删问清自己写的）")
def _undo(ctx: Context, arg: str) -> None:
    removed = ctx.session.undo()
    if removed:
        ctx.render.c.print("已删除：" + "、".join(removed))
    else:
        ctx.render.c.print("上一次运行没有写出文件，没有可撤销的。")


@command("/recipe", "数据配方：/recipe save 名称 | /recipe list | /recipe run 名称 文件")
def _recipe(ctx: Context, arg: str) -> None:
    from engine import recipes
    from tools.errors import UserError

    parts = arg.split()
    ws = ctx.session.ws
    try:
        if parts[:1] == ["save"] and len(parts) == 2:
            if ctx.session.last_executed is None:
                ctx.render.c.print("还没有成功执行过的方案，先跑一次再保存。")
                return
            plan, d = ctx.session.last_executed
            r = recipes.save(ws, parts[1], plan, d.request)
            ctx.render.c.print(f"已保存配方“{r.name}”（{len(r.steps)} 步，需要的列：{'、'.join(r.needed_columns()) or '无'}）。")
        elif parts[:1] == ["list"]:
            names = recipes.list_names(ws)
            ctx.render.c.print("配方：" + ("、".join(names) if names else "（还没有）"))
        elif parts[:1] == ["run"] and len(parts) >= 3:
            import uuid

            tid = uuid.uuid4().hex[:12]
            ctx.session.audit.start_run(tid, ctx.session.state.turn, f"/recipe {arg}", {"recipe": parts[1]}, ctx.session.clock())
            run = recipes.run(ws, parts[1], parts[2], parts[3] if len(parts) > 3 else None, ctx.session.audit, tid)
            ctx.session.audit.finish_run(tid, run.status, run.answer, run.fallback_reason, ctx.session.clock(), None, run.files)
            ctx.session.last_files = [f["path"] for f in run.files]
            ctx.render.c.print(run.answer or "；".join(run.notes))
        else:
            ctx.render.c.print("用法：/recipe save 名称 | /recipe list | /recipe run 名称 文件 [工作表]")
    except UserError as e:
        ctx.render.c.print(e.zh)


@command("/model", "显示正在使用的理解方式（规则或模型）和本次会话的模型调用")
def _model(ctx: Context, arg: str) -> None:
    a = ctx.session.assistant
    if a is None:
        ctx.render.c.print("正在使用：规则（完全离线，不联网）。配置 OPENAI_API_KEY 和 WENQING_MODEL 后用 --backend auto 或 model 启用模型。")
        return
    log = a.client.log
    ok = sum(1 for c in log if c.ok)
    tokens = sum(c.tokens_in + c.tokens_out for c in log)
    ctx.render.c.print(f"正在使用：规则 + 模型。{a.cfg.describe()}")
    ctx.render.c.print(f"本次会话调用模型 {len(log)} 次（成功 {ok} 次），共 {tokens} token。")


@command("/exit", "退出")
def _exit(ctx: Context, arg: str) -> None:
    ctx.running = False
