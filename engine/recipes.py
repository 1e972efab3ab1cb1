"""Recipes (数据配方): an executed plan saved as typed steps, replayed on another file without any model."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from engine.audit import Audit
from engine.catalog import file_info
from engine.executor import RunResult, execute, needed_columns
from engine.plan import Plan, Step
from modes.decision import Decision, Request
from modes.query import query_of
from tools.errors import UserError
from tools.workspace import STATE_DIR, Workspace
from tools.write import LinkRefused, kept_bytes, load_state, save_state

NAME = re.compile(r"^[\w\u4e00-\u9fff\-]{1,40}$")
MAX_STEPS = 200  # a recipe is a saved request or a short chain of them, never a program
KEYS = ("name", "source", "sheet", "goal", "steps", "chain")
STEP_KEYS = ("toolHint", "action", "doneWhen", "args")
BOUND = ("ws", "table", "cache")  # bound by the executor, never given by a recipe


@dataclass(frozen=True)
class Recipe:
    name: str
    source: str
    sheet: str | None
    goal: str
    steps: list[dict[str, Any]]
    # the requests that each went on from the result before (filter → 在这个结果里汇总 → 排序 …), replayed in turn; the first
    # is `steps`. Each link keeps its typed query.
    chain: list[dict[str, Any]] = field(default_factory=list)

    def needed_columns(self) -> list[str]:
        """Columns the steps read from the source table (not the ones earlier steps create)."""
        made: set[str] = set()
        need: list[str] = []
        for s in self.steps:
            a = s["args"]
            for c in needed_columns(s["toolHint"], a):
                if c not in made and c not in need and not any(c.startswith(f"{m}_") for m in need):
                    need.append(c)
            if s["toolHint"] == "add_column":
                made.add(a["name"])
            if s["toolHint"] == "group_summarize":
                break  # later steps read the summary, not the source
        return need


def _dir(ws: Workspace):  # type: ignore[no-untyped-def]
    return ws.root / STATE_DIR / "recipes"


def _link(plan: Plan, request: Request) -> dict[str, Any]:
    q = query_of(request)
    return {"goal": plan.goalSummary, "query": q.to_json() if q is not None else None,
            "steps": [{"toolHint": s.toolHint, "action": s.action, "doneWhen": s.doneWhen, "args": s.args} for s in plan.steps]}


def save(ws: Workspace, name: str, plan: Plan, request: Request, chain: list[tuple[Plan, Decision]] | None = None) -> Recipe:
    """Save the last run, or the whole chain of runs that led to it (each on the result of the one before)."""
    if not NAME.match(name):
        raise UserError("配方名只能用中文、字母、数字、下划线或短横线（最多 40 个字符）。", "A recipe name may use letters, digits, _ and - (up to 40).")
    links = [_link(p, d.request) for p, d in chain] if chain and len(chain) > 1 else []
    first_plan, first_req = (chain[0][0], chain[0][1].request) if links and chain else (plan, request)
    steps = _link(first_plan, first_req)["steps"]
    goal = "；然后".join(link["goal"] for link in links) if links else plan.goalSummary
    r = Recipe(name, first_req.file or "", first_req.sheet, goal, steps, links[1:])
    save_state(ws, "recipes", f"{name}.json", json.dumps(r.__dict__, ensure_ascii=False, indent=1).encode("utf-8"))
    return r


def load(ws: Workspace, name: str) -> Recipe:
    p = _dir(ws) / f"{name}.json"
    if not NAME.match(name) or not (p.is_file() or p.is_symlink()):
        have = "、".join(list_names(ws)) or "（还没有）"
        raise UserError(f"没有名为“{name}”的配方。现有配方：{have}", f"No recipe named '{name}'.")
    try:  # through the one path for wenqing's own files: a linked or hard-linked recipe is not read
        data = json.loads(load_state(ws, "recipes", f"{name}.json", limit=64 << 20).decode("utf-8"))
    except LinkRefused as e:
        raise UserError(f"配方“{name}”的文件是一个链接，为安全起见没有读取，也没有运行。",
                        f"Recipe '{name}' is a link; for safety it was not read, nothing was run.") from e
    except (json.JSONDecodeError, UnicodeDecodeError, OSError, RecursionError) as e:
        raise UserError(f"配方“{name}”的文件读不了（不是有效的 JSON：{getattr(e, 'msg', type(e).__name__)}），没有运行。",
                        f"Recipe '{name}' cannot be read (not valid JSON), nothing was run.") from e
    problems = validate(data)
    if problems:
        zh = "；".join(z for z, _ in problems[:6])
        en = "; ".join(e for _, e in problems[:6])
        raise UserError(f"配方“{name}”的内容不对，没有运行：{zh}。", f"Recipe '{name}' is not valid, nothing was run: {en}.")
    return Recipe(**{k: data.get(k, [] if k == "chain" else None) for k in KEYS})


def validate(data: Any) -> list[tuple[str, str]]:
    """Each problem of a recipe's saved form, in Chinese and English: its keys, its steps (registered tools with
    their own arguments only), and its size."""
    from tools import registry

    if not isinstance(data, dict):
        return [("内容应当是一个对象", "it must be one JSON object")]
    out: list[tuple[str, str]] = []
    extra = sorted(set(data) - set(KEYS))
    if extra:
        out.append((f"多了字段 {'、'.join(extra)}", f"unknown field(s) {', '.join(extra)}"))
    for k, kind in (("name", str), ("source", str), ("goal", str), ("steps", list)):
        if not isinstance(data.get(k), kind):
            out.append((f"缺少或写错了字段 {k}", f"field {k} is missing or of the wrong type"))
    if data.get("sheet") is not None and not isinstance(data.get("sheet"), str):
        out.append(("sheet 应当是文字", "sheet must be text"))
    chain = data.get("chain", [])
    if not isinstance(chain, list) or not all(isinstance(c, dict) and isinstance(c.get("steps"), list) for c in chain):
        out.append(("chain 应当是一串带 steps 的请求", "chain must be a list of requests with steps"))
        chain = []
    first = data.get("steps")
    parts: list[list[Any]] = [first if isinstance(first, list) else []] + [c["steps"] for c in chain]
    total = sum(len(p) for p in parts)
    if total > MAX_STEPS:
        out.append((f"一共 {total} 步，超过上限 {MAX_STEPS} 步", f"{total} steps, more than the limit of {MAX_STEPS}"))
        return out
    for n, steps in enumerate(parts):
        for i, st in enumerate(steps, 1):
            where = f"第 {i} 步" if n == 0 else f"第 {n + 1} 段第 {i} 步"
            where_en = f"step {i}" if n == 0 else f"link {n + 1}, step {i}"
            if not isinstance(st, dict) or set(st) - set(STEP_KEYS) or not isinstance(st.get("args"), dict) or not isinstance(st.get("toolHint"), str):
                out.append((f"{where}的格式不对", f"{where_en} is malformed"))
                continue
            try:
                t = registry.get_tool(st["toolHint"])
            except UserError:
                out.append((f"{where}用了不存在的工具 {st['toolHint']}", f"{where_en} names no tool ({st['toolHint']})"))
                continue
            bad = sorted(a for a in st["args"] if a not in t.params or a in BOUND)
            if bad:
                out.append((f"{where}（{t.name}）没有参数 {'、'.join(bad)}", f"{where_en} ({t.name}) takes no {', '.join(bad)}"))
    return out


def list_names(ws: Workspace) -> list[str]:
    d = _dir(ws)
    return sorted(p.stem for p in d.glob("*.json")) if d.is_dir() else []


def run(ws: Workspace, name: str, file: str, sheet: str | None, audit: Audit, trace_id: str, lang: str = "zh") -> RunResult:
    """Replay a recipe's typed steps on another file, after checking the columns it needs exist there."""
    r = load(ws, name)
    path = ws.resolve(file)
    rel = ws.rel(path)
    info = file_info(path, rel)
    if info.error:
        raise UserError(info.error)
    target = info.sheet(sheet) if sheet else (info.sheet(r.sheet) if r.sheet and info.sheet(r.sheet) else info.sheets[0])
    if target is None:
        raise UserError(f"{rel} 里没有工作表“{sheet}”。", f"{rel} has no sheet '{sheet}'.")
    missing = [c for c in r.needed_columns() if c not in target.columns]
    if missing:
        raise UserError(
            f"配方“{name}”需要的列在 {rel} 里不存在：{'、'.join(missing)}。现有列：{'、'.join(target.columns)}",
            f"Recipe '{name}' needs columns missing from {rel}: {', '.join(missing)}.",
        )
    stem = rel.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    run = _replay(ws, r, r.steps, rel, target.name if len(info.sheets) > 1 else None, stem, name, audit, trace_id, lang, r.goal.replace(r.source, rel))
    for link in r.chain:  # each further request reads the result of the one before, as it did when it was saved
        if run.status != "answered":
            return run
        prev = _result_of(ws, run, stem, trace_id)
        if prev is None:
            run.status, run.answer = "insufficient_context", None
            run.notes.append("上一步没有产生可以接着处理的表格，配方停在这里。")
            return run
        run = _replay(ws, r, link["steps"], prev, None, stem, name, audit, trace_id, lang, link["goal"])
    return run


def _result_of(ws: Workspace, run: RunResult, stem: str, trace_id: str) -> str | None:
    """The table a replayed step produced: the file it wrote, else its table kept under .wenqing/results/."""
    tables = [f["path"] for f in run.files if f["path"].lower().endswith((".csv", ".xlsx")) and f.get("columns")]
    if tables:
        return tables[0]
    table = run.table
    if table is None or not hasattr(table, "to_csv"):
        return None
    from modes.replies import HELD

    data, ext = kept_bytes(table)
    saved = save_state(ws, HELD.rstrip("/").rsplit("/", 1)[-1], f"{stem}_配方_{trace_id[:6]}_{len(run.steps)}.{ext}", data)
    return ws.rel(saved)


def _replay(ws: Workspace, r: Recipe, saved: list[dict[str, Any]], rel: str, sheet: str | None, stem: str, name: str,
            audit: Audit, trace_id: str, lang: str, goal: str) -> RunResult:
    steps = []
    for i, s in enumerate(saved, 1):
        args = dict(s["args"])
        if s["toolHint"] == "profile_dataset":
            args.update(path=rel, sheet=sheet)
        if "stem" in args:
            args["stem"] = f"{stem}_配方_{name}"
        if s["toolHint"] in ("compare_tables", "join_tables", "append_tables") and args.get("other_path") == r.source:
            args["other_path"] = rel
        steps.append(Step(i, s["action"], s["toolHint"], s["doneWhen"], args))
    req = Request(intent="work", file=rel, sheet=sheet, lang=lang)
    d = Decision("act", "execute", "recipe", "soft", 1.0, req, "", f"数据配方: {name}", "按保存的步骤重放", "recipe", lang=lang)
    plan = Plan("recipe", f"数据配方: {name}", "soft", "按保存的步骤重放", steps, goal)
    return execute(plan, d, ws, audit, trace_id)
