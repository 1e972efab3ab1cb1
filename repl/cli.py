"""Command line: `wenqing` (the REPL), `wenqing decide`, `wenqing chat`, `wenqing trace`."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from repl import __version__, fast

T = TypeVar("T")

app = typer.Typer(add_completion=False, no_args_is_help=False, help="问清 wenqing — 先问清楚，再动手的表格助手。")

WorkspaceOpt = Annotated[Path, typer.Option("--workspace", "-w", help="工作区目录（默认当前目录）")]
BackendOpt = Annotated[str, typer.Option("--backend", help="rules | model | auto（auto：配置了模型就用）")]
NoCellsOpt = Annotated[bool, typer.Option("--no-cell-values", help="提示词里不放任何单元格内容，只放列名、类型和计数")]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"wenqing {__version__}")
        raise typer.Exit()


def _typer_exit(fn: Callable[..., T], *args: Any) -> T:
    """Run a command helper; its CliExit becomes typer's exit with the same code."""
    try:
        return fn(*args)
    except fast.CliExit as e:
        raise typer.Exit(e.code) from e


def _model(backend: str, no_cell_values: bool):  # type: ignore[no-untyped-def]
    return _typer_exit(fast.model_for, backend, no_cell_values)


def _read_lines(path: Path, what: str) -> list[str]:
    return _typer_exit(fast.read_lines, path, what)


def _workspace(path: Path):  # type: ignore[no-untyped-def]
    return _typer_exit(fast.workspace_at, path)


@app.callback(invoke_without_command=True)
def main_callback(
    ctx: typer.Context,
    workspace: WorkspaceOpt = Path("."),
    backend: BackendOpt = "auto",
    no_cell_values: NoCellsOpt = False,
    version: Annotated[bool, typer.Option("--version", "-V", callback=_version, is_eager=True, help="显示版本")] = False,
) -> None:
    """打开交互式会话（REPL）。"""
    if ctx.invoked_subcommand is not None:
        return
    raise typer.Exit(_typer_exit(fast.session, workspace, backend, no_cell_values))


@app.command()
def decide(
    utterance: Annotated[str | None, typer.Argument(help="一句话；省略时用 --batch")] = None,
    workspace: WorkspaceOpt = Path("."),
    batch: Annotated[Path | None, typer.Option("--batch", help="JSONL：每行 {id, history, utterance}；- 表示标准输入")] = None,
    backend: BackendOpt = "auto",
    no_cell_values: NoCellsOpt = False,
) -> None:
    """只做决定，不执行：输出 SPEC §3 的 JSON 决定。"""
    _typer_exit(fast.decide, utterance, workspace, batch, backend, no_cell_values)


@app.command()
def chat(
    workspace: WorkspaceOpt = Path("."),
    script: Annotated[Path | None, typer.Option("--script", help="每行一个用户回合；- 表示标准输入")] = None,
    events: Annotated[Path | None, typer.Option("--events", help="把事件写成 JSONL")] = None,
    backend: BackendOpt = "auto",
    no_cell_values: NoCellsOpt = False,
) -> None:
    """无终端运行一段对话：真实执行，打印回复，写事件。"""
    from repl.script import run_lines

    ws = _workspace(workspace)
    model = _model(backend, no_cell_values)
    lines = _read_lines(script if script is not None else Path("-"), "脚本")
    raise typer.Exit(run_lines(ws, lines, events, model=model))


recipe_app = typer.Typer(help="数据配方：保存过的步骤，可在别的文件上重放。")
app.add_typer(recipe_app, name="recipe")


@recipe_app.command("run")
def recipe_run(
    name: Annotated[str, typer.Argument(help="配方名")],
    file: Annotated[str, typer.Option("--file", help="要处理的文件（工作区内）")],
    workspace: WorkspaceOpt = Path("."),
    sheet: Annotated[str | None, typer.Option("--sheet", help="工作表")] = None,
) -> None:
    """在另一个文件上重放配方（不调用任何模型）。"""
    import uuid

    from engine import recipes
    from engine.audit import Audit
    from tools.errors import UserError

    ws = _workspace(workspace)
    try:
        audit = Audit.open(ws)
    except UserError as e:
        typer.echo(e.zh, err=True)
        raise typer.Exit(2) from e
    tid = uuid.uuid4().hex[:12]
    audit.start_run(tid, 0, f"recipe run {name} --file {file}", {"recipe": name}, __import__("time").time())
    try:
        run = recipes.run(ws, name, file, sheet, audit, tid)
    except UserError as e:
        typer.echo(e.zh, err=True)
        raise typer.Exit(1) from e
    audit.finish_run(tid, run.status, run.answer, run.fallback_reason, __import__("time").time(), None, run.files)
    typer.echo(run.answer or "；".join(run.notes))
    raise typer.Exit(0 if run.status == "answered" else 1)


@recipe_app.command("list")
def recipe_list(workspace: WorkspaceOpt = Path(".")) -> None:
    """列出配方。"""
    from engine import recipes

    for n in recipes.list_names(_workspace(workspace)):
        typer.echo(n)


@app.command()
def trace(
    run_id: Annotated[str | None, typer.Argument(help="运行 ID（默认最近一次）")] = None,
    workspace: WorkspaceOpt = Path("."),
    as_json: Annotated[bool, typer.Option("--json", help="输出 JSON")] = False,
) -> None:
    """查看审计记录。"""
    from engine.audit import Audit, AuditUnavailable
    from repl.render import Renderer

    ws = _workspace(workspace)
    try:
        audit = Audit.open(ws)
    except AuditUnavailable as e:
        typer.echo(e.zh, err=True)
        raise typer.Exit(2) from e
    run = audit.run(run_id)
    if run is None:
        typer.echo("没有找到运行记录。")
        raise typer.Exit(1)
    if as_json:
        sys.stdout.write(json.dumps(trace_json(run), ensure_ascii=False, default=str) + "\n")
        return
    Renderer.plain().trace(run)


JSON_FIELDS = ("decision", "plan", "files", "inputs", "outputs")


def trace_json(run: dict[str, Any]) -> dict[str, Any]:
    """A run as `trace --json` prints it: the columns of the audit record, its stored JSON fields parsed into objects."""

    def parsed(d: dict[str, Any]) -> dict[str, Any]:
        out = dict(d)
        for k in JSON_FIELDS:
            if isinstance(out.get(k), str):
                try:
                    out[k] = json.loads(out[k])
                except ValueError:
                    pass
        return out

    out = parsed(run)
    out["events"] = [parsed(e) for e in run.get("events", [])]
    return out


def main() -> None:
    for stream in (sys.stdout, sys.stderr):  # a lone surrogate from a file or a pipe never ends a run
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    app()


if __name__ == "__main__":
    main()
