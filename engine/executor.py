"""The executor: bind arguments, run registered tools, check each step, reflect within hard limits."""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.audit import Audit
from engine.datanotes import repeated_rows, step_notes
from engine.plan import WRITE_TOOLS, Plan, Step
from modes import opspec
from modes.decision import Decision
from modes.replies import HELD, NAMED, file_label
from tools import registry
from tools.errors import ColumnMissing, ParseFailed, UserError
from tools.localise import action_en, value_en
from tools.outofcore import Retype, counted_by_next_step, in_memory, is_big, statements
from tools.registry import ToolResult
from tools.values import reading_notes, recording
from tools.workspace import Workspace
from tools.write import SAFETY_FACTS, About, safety_notes

MAX_PER_STEP = 3
MAX_PER_REQUEST = 10
AGGREGATING = {"group_summarize", "add_column", "describe_columns", "correlate_columns", "compare_tables", "find_outliers", "top_n"}
CHECKED_TOOLS = {"add_column", "join_tables", "append_tables", "clean", "select_columns"}
# how a step is revised when its tool cannot work on the data as called: (cause, argument changes)
RETOOL: dict[str, tuple[str, dict[str, Any]]] = {
    "sort_rows": ("reparam", {"as_text": True}),  # numbers and text mixed in the key: order them as text
    "top_n": ("retool", {"as_text": True}),
}
REPORT_TOOLS = {"describe_columns", "correlate_columns", "compare_tables"}
COLUMN_ARGS = ("by", "keys", "columns", "column", "a", "b", "left", "subset", "on")
COUNTING_TOOLS = {"group_summarize", "describe_columns"}  # their pass over a big file also takes a profile's counts
SQL_KEPT = 20_000  # characters of one statement kept in the audit record


@dataclass
class StepOutcome:
    step: int
    tool: str
    status: str
    facts: dict[str, Any] = field(default_factory=dict)
    evidence: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    sql: list[str] = field(default_factory=list)  # what DuckDB ran for this step (/sql); none when it ran in memory


@dataclass
class RunResult:
    status: str
    answer: str | None
    fallback_reason: str | None = None
    steps: list[StepOutcome] = field(default_factory=list)
    files: list[dict[str, Any]] = field(default_factory=list)
    table: Any = None
    reports: list[tuple[str, Any]] = field(default_factory=list)
    profile: dict[str, Any] | None = None
    current_file: str | None = None
    notes: list[str] = field(default_factory=list)
    data_notes: list[str] = field(default_factory=list)  # said with the answer: what in the data the result rests on
    tried: list[str] = field(default_factory=list)
    reflections: int = 0


class Stop(Exception):
    def __init__(self, status: str, reason: str, zh: str, en: str) -> None:
        super().__init__(zh)
        self.status, self.reason, self.zh, self.en = status, reason, zh, en


def _cancelled(cancel: Any, step: int, total: int) -> Stop | None:
    """Ctrl-C while a request runs is seen at the next step boundary (a running DuckDB query is stopped at once)."""
    if cancel is None or not cancel.is_set():
        return None
    at = (f"第 {step} 步之前（共 {total} 步）", f"before step {step} of {total}") if step <= total else ("所有步骤做完之后、给出答案之前", "after the last step, before the answer")
    return Stop("cancelled", "cancelled", f"已取消：在{at[0]}停下。", f"Cancelled: stopped {at[1]}.")


def _discard_written(result: RunResult, ws: Workspace, lang: str) -> None:
    """A cancelled run leaves nothing behind: the files its finished steps wrote (all new names in outputs/) go."""
    removed = []
    for f in result.files:
        p = ws.root / f["path"]
        if str(f["path"]).startswith("outputs/") and ws.inside(p) and p.is_file() and not p.is_symlink():
            p.unlink(missing_ok=True)
            removed.append(str(f["path"]))
    result.files = []
    if lang == "zh":
        result.notes.append(f"这次已写出的 {'、'.join(removed)} 已删除，没有留下任何文件。" if removed else "没有写入任何文件。")
    else:
        result.notes.append(f"The {', '.join(removed)} it had written {'was' if len(removed) == 1 else 'were'} removed; nothing is left behind." if removed else "Nothing was written.")


def _done(step: Step, res: ToolResult, ws: Workspace) -> tuple[bool, str]:
    """doneWhen, checked in code."""
    t = step.toolHint
    if t == "profile_dataset":
        return bool(res.facts.get("columns")), "表里没有任何列"
    if t in WRITE_TOOLS:
        p = res.facts.get("path")
        ok = isinstance(p, str) and (ws.root / p).is_file() and (ws.root / p).stat().st_size > 0
        return ok, "导出文件不存在或为空"
    if t == "list_files":
        return "files" in res.facts, "没有得到文件清单"
    if res.data is None:
        return False, "工具没有返回数据"
    if "rows_out" in res.facts:
        return res.facts["rows_out"] == len(res.data), "行数与结果不一致"
    return True, ""


def _needed_columns(step: Step) -> list[str]:
    return needed_columns(step.toolHint, step.args)


def needed_columns(tool: str, args: dict[str, Any]) -> list[str]:
    """The columns a step's arguments name, which its input table must have."""
    cols: list[str] = []
    for k in COLUMN_ARGS:
        v = args.get(k)
        if isinstance(v, str):
            cols.append(v)
        elif isinstance(v, list):
            cols += [x for x in v if isinstance(x, str)]
    def cond_columns(c: dict[str, Any]) -> None:  # a comparison, or a tree of them
        for k in ("and", "or"):
            for x in c.get(k) or [] if "op" not in c else []:
                cond_columns(x)
        if "not" in c:
            cond_columns(c["not"])
        if "op" in c:
            cols.append(c["column"])
            if isinstance(c.get("value"), dict) and "column" in c["value"]:
                cols.append(c["value"]["column"])

    for c in args.get("conditions") or []:
        cond_columns(c)
    for m in args.get("measures") or []:
        if m.get("column"):
            cols.append(m["column"])
    if isinstance(args.get("right"), dict):
        cols.append(args["right"]["column"])
    if tool in ("compare_tables", "join_tables"):
        return [c for c in cols if c == args.get("on")] if tool == "join_tables" else []
    return cols


def about(plan: Plan, d: Decision) -> About:
    """What an xlsx's 说明 sheet tells about the run that wrote it."""
    r = d.request
    steps = (f"{s.action}（{s.toolHint}）" if d.lang != "en" else _step_en(s) for s in plan.steps)
    return About(plan.goalSummary, r.text, r.file, r.sheet, tuple(steps), d.lang)


def _step_en(step: Step) -> str:
    """A step named in English (its action is written in Chinese): its tool, in words."""
    return step.toolHint.replace("_", " ")


def _state_hash(step: Step, args: dict[str, Any], outcome: str) -> str:
    blob = json.dumps([step.step, step.toolHint, {k: v for k, v in args.items() if k not in ("ws", "table", "cache", "reports", "about")}, outcome], sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def _reparam_derived(step: Step, columns: list[str]) -> Step | None:
    """A column renamed by an earlier step of our own plan (金额 -> 金额_合计): use the derived name."""
    args = dict(step.args)
    changed = False
    for k in ("by", "column"):
        v = args.get(k)
        vals = v if isinstance(v, list) else [v] if isinstance(v, str) else []
        new = []
        for x in vals:
            if x in columns:
                new.append(x)
                continue
            derived = [c for c in columns if c.startswith(f"{x}_")]
            if len(derived) == 1:
                new.append(derived[0])
                changed = True
            else:
                new.append(x)
        if vals:
            args[k] = new if isinstance(v, list) else new[0]
    conds = args.get("conditions")
    if conds:
        new_conds = []
        for c in conds:
            derived = [x for x in columns if x.startswith(f"{c.get('column')}_")] if c.get("column") not in columns else []
            if len(derived) == 1:
                new_conds.append({**c, "column": derived[0]})
                changed = True
            else:
                new_conds.append(c)
        args["conditions"] = new_conds
    return Step(step.step, step.action, step.toolHint, step.doneWhen, args) if changed else None


def execute(plan: Plan, d: Decision, ws: Workspace, audit: Audit, trace_id: str, cache: Any = None,
            on_step: Callable[[int, int, str], None] | None = None, cancel: Any = None, own: set[str] | None = None) -> RunResult:
    """Run the plan. A big file profiled just before a step that reads it whole is read once, by that step; when the
    types taken from its first rows do not hold over the whole file, the plan runs again with the file checked first.
    `own` are the headers of the user's files (the catalog's): never renamed when wenqing's own words are put in English."""
    try:
        return _execute(plan, d, ws, audit, trace_id, cache, on_step, defer=True, cancel=cancel, own=own)
    except Retype as e:
        audit.event(trace_id, "run", "running -> retried", "每列的类型对整个文件成立", True, None, {}, {"message": str(e)[:200]}, 0)
        return _execute(plan, d, ws, audit, trace_id, cache, on_step, defer=False, cancel=cancel, own=own)


def _execute(plan: Plan, d: Decision, ws: Workspace, audit: Audit, trace_id: str, cache: Any,
             on_step: Callable[[int, int, str], None] | None, defer: bool, cancel: Any = None, own: set[str] | None = None) -> RunResult:
    lang = d.lang
    result = RunResult("answered", None, current_file=d.request.file)
    table = None
    own = set(own or ())  # the headers of the user's data, and those of every file a step reads
    seen: set[str] = set()
    total_reflections = 0
    try:
        for i, step in enumerate(plan.steps):
            if (stop := _cancelled(cancel, step.step, len(plan.steps))) is not None:
                raise stop
            counted_next = defer and step.toolHint == "profile_dataset" and i + 1 < len(plan.steps) and plan.steps[i + 1].toolHint in COUNTING_TOOLS
            if on_step is not None:
                on_step(step.step, len(plan.steps), step.action)
            attempts = 0
            current = step
            while True:
                if table is not None:
                    missing = [c for c in _needed_columns(current) if c is None or c not in table.columns]
                    if None in missing:  # a step with a column nobody named: stopped with the question, never a traceback
                        raise Stop("insufficient_context", "column_absent", "有一个条件没有说是哪一列的。请告诉我要用哪一列。",
                                   "A condition does not say which column it is about. Tell me which column to use.")
                    if missing:
                        revised = _reparam_derived(current, [str(c) for c in table.columns])
                        if revised is not None and attempts < MAX_PER_STEP and total_reflections < MAX_PER_REQUEST:
                            attempts += 1
                            total_reflections += 1
                            result.tried.append(f"reparam: {step.toolHint} {missing} -> {revised.args}")
                            audit.event(trace_id, f"reflect:{step.step}", "failed -> reparam", "下一步需要的列都存在", True, None,
                                        {"missing": missing}, {"revised": revised.args}, 0)
                            current = revised
                            continue
                        from modes.resolve import closest_columns

                        near = {m: closest_columns(m.casefold(), [str(c) for c in table.columns]) for m in missing}
                        hint = "；".join(f"“{m}”最接近：{'、'.join(v)}" for m, v in near.items())
                        raise Stop("insufficient_context", "column_absent",
                                   f"数据里没有列 {'、'.join(missing)}（{hint}）。请告诉我要用哪一列。",
                                   f"The data has no column {', '.join(missing)}. Tell me which column to use.")
                args = dict(current.args)
                tool = registry.get_tool(current.toolHint)
                if "ws" in tool.params:
                    args["ws"] = ws
                if "table" in tool.params:
                    args["table"] = table
                if lang == "en" and current.toolHint in WRITE_TOOLS:  # what is written is what is shown: in English
                    _in_english(args, own)
                before = table
                if "cache" in tool.params:
                    args["cache"] = cache
                if "reports" in tool.params:
                    args["reports"] = result.reports
                if "about" in tool.params:
                    args["about"] = about(plan, d)
                t0 = time.perf_counter()
                try:
                    with recording() as readings, statements() as ran:
                        if counted_next:
                            with counted_by_next_step():
                                res = registry.call(current.toolHint, args)
                        else:
                            res = registry.call(current.toolHint, args)
                except ParseFailed as e:
                    audit.event(trace_id, f"step:{step.step}", "running -> blocked", current.doneWhen, True, "parse_failed",
                                {"tool": current.toolHint}, {"error": e.zh}, (time.perf_counter() - t0) * 1000)
                    raise Stop("insufficient_context", "parse_failed", f"{e.zh} 请换一个文件或修好后再试。", f"{e.en} Please supply a readable file.") from e
                except ColumnMissing as e:
                    raise Stop("insufficient_context", "column_absent", e.zh, e.en) from e
                except Exception as e:
                    if (stop := _cancelled(cancel, step.step, len(plan.steps))) is not None:
                        raise stop from e  # the query was stopped by Ctrl-C, not by the data
                    if not isinstance(e, (TypeError, ValueError)):
                        raise
                    fix = RETOOL.get(current.toolHint)
                    attempts += 1
                    total_reflections += 1
                    tried = f"{current.toolHint}: {type(e).__name__}"
                    result.tried.append(tried)
                    if fix is None or attempts >= MAX_PER_STEP or total_reflections >= MAX_PER_REQUEST or fix[1] == {k: current.args.get(k) for k in fix[1]}:
                        raise Stop("escalated", "reflection_limit",
                                   f"我已经尝试了{attempts}种路径（{'；'.join(result.tried)}），这一步仍然无法完成。建议您检查“{current.action}”用到的列里是否混有不同类型的值。",
                                   f"I tried {attempts} ways ({'; '.join(result.tried)}) and this step still fails. Check the columns '{current.action}' uses for mixed kinds of values.") from e
                    cause, extra = fix
                    audit.event(trace_id, f"reflect:{step.step}", f"failed -> {cause}", "工具对这些数据可用", True, None,
                                {"error": str(e)[:200]}, {"revised": extra}, (time.perf_counter() - t0) * 1000)
                    current = Step(current.step, current.action, current.toolHint, current.doneWhen, {**current.args, **extra})
                    continue
                ms = (time.perf_counter() - t0) * 1000
                ok, why = _done(current, res, ws)
                h = _state_hash(current, current.args, json.dumps(res.facts, sort_keys=True, default=str))
                out = StepOutcome(step.step, current.toolHint, "success" if ok else "failed", _small(res.facts, 4000), res.evidence,
                                  sql=list(ran))
                audit.event(trace_id, f"step:{step.step}", f"running -> {'done' if ok else 'failed'}", f"doneWhen: {current.doneWhen}",
                            True, None, {"tool": current.toolHint, "args": _small(current.args), **({"sql": [q[:SQL_KEPT] for q in ran]} if ran else {})},
                            _small(res.facts), ms)
                if not ok:
                    if h in seen:
                        raise Stop("escalated", "repeated_state", "同一步骤、同样输入得到了同样结果，已停止。", "The same step gave the same result twice; stopped.")
                    seen.add(h)
                    attempts += 1
                    total_reflections += 1
                    result.tried.append(f"retry {current.toolHint}: {why}")
                    if attempts >= MAX_PER_STEP or total_reflections >= MAX_PER_REQUEST:
                        raise Stop("escalated", "reflection_limit",
                                   f"我已经尝试了{attempts}次：{'；'.join(result.tried)}。建议您检查数据或换个说法。",
                                   f"I tried {attempts} times: {'; '.join(result.tried)}. Please check the data or rephrase.")
                    continue
                result.steps.append(out)
                _say_readings(readings, result, audit, trace_id, step.step, lang)
                break
            if current.toolHint == "profile_dataset":
                result.profile = res.facts
                own.update(str(c) for c in res.facts.get("columns", []))
                if res.facts.get("skipped"):
                    result.notes.append(skipped_note(res.facts, lang))
                n_f = res.facts.get("uncached_formulas") or 0
                if n_f and any(s.toolHint in AGGREGATING for s in plan.steps):
                    raise Stop("insufficient_context", "formulas_uncached",
                               f"{res.facts['path']} 里有 {n_f} 个公式单元格没有缓存的计算结果（文件由程序生成、未在 Excel 中保存过），"
                               "据此汇总会得出错误的数字，所以没有计算。请在 Excel 中打开并保存一次后再试。",
                               f"{res.facts['path']} has {n_f} formula cells without cached values; aggregating them would give wrong "
                               "figures, so nothing was computed. Open and save the file in Excel, then retry.")
            if res.files:
                for f in res.files:
                    result.files.append({"path": f, "rows": res.facts.get("rows"), "columns": res.facts.get("columns", []),
                                         **{k: res.facts[k] for k in SAFETY_FACTS if res.facts.get(k)}})
            if table is not None and res.data is not None and current.toolHint in CHECKED_TOOLS and not is_big(res.data):
                for note in _introduced(in_memory(table), res.data, lang):
                    result.notes.append(f"第 {step.step} 步（{current.action}）：{note}" if lang == "zh" else f"Step {step.step} ({action_en(current.toolHint)}): {note}")
                    audit.event(trace_id, f"check:{step.step}", "done -> warned", "没有引入空值或改变列类型", True, None, {}, {"message": note}, 0)
            if res.data is not None and not is_big(res.data) and (table is None or not is_big(table)):
                result.data_notes += [n for n in step_notes(current.toolHint, current.args, table, res.data, lang) if n not in result.data_notes]
            if res.data is not None and current.toolHint in REPORT_TOOLS:
                result.reports.append((current.action if lang != "en" else _step_en(current), res.data))
            elif res.data is not None and current.toolHint not in WRITE_TOOLS:
                table = res.data
                result.table = res.data if current.toolHint != "profile_dataset" or len(plan.steps) == 1 else result.table
            if current.toolHint == "filter_rows" and res.facts.get("rows_out") == 0:
                raise _no_rows(before, current.args["conditions"])
        if (stop := _cancelled(cancel, len(plan.steps) + 1, len(plan.steps))) is not None:
            raise stop
        if result.table is None and table is not None:
            result.table = table
        result.answer = _answer(plan, result, lang, d)
        if lang == "en":  # wenqing's own headers and labels in English; the answer names them as the table does
            renamed = _names_en(result.table, own)
            result.table = _table_en(result.table, own)
            result.reports = [(a, _table_en(t, own)) for a, t in result.reports]
            for old, new in renamed.items():
                result.answer = result.answer.replace(old, new)
        unsupported = unsupported_numbers(result.answer, result)
        audit.event(trace_id, "review", "done -> answered" if not unsupported else "done -> flagged",
                    "答案里的每个数字都能在工具结果中找到", True, None,
                    {"answer": result.answer[:200]}, {"unsupported": unsupported}, 0)
        if unsupported:  # a bug, never a user error: say so rather than show an unfounded figure
            shown = ("、" if lang == "zh" else ", ").join(unsupported)
            result.notes.append(f"注意：回答里的数字 {shown} 在计算结果里找不到对应，请以表格为准。" if lang == "zh" else
                                f"Note: the figure {shown} in this answer does not match the computed results; trust the table.")
    except Stop as s:
        result.status, result.fallback_reason = s.status, s.reason
        result.answer = None
        result.notes.append(s.zh if lang == "zh" else s.en)
        if s.status == "cancelled":
            _discard_written(result, ws, lang)
        audit.event(trace_id, "run", f"running -> {s.status}", "证据足以回答", True, s.reason, {}, {"message": s.zh}, 0)
    except UserError as e:
        result.status, result.fallback_reason, result.answer = "failed", e.code, None
        result.notes.append(e.message(lang))
        audit.event(trace_id, "run", "running -> failed", "工具执行成功", True, e.code, {}, {"message": e.zh}, 0)
    if lang == "en" and result.status != "answered":  # a run that stopped part way shows what it made so far, in English too
        result.table = _table_en(result.table, own)
        result.reports = [(a, _table_en(t, own)) for a, t in result.reports]
    result.reflections = total_reflections
    return result


NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# a figure as shown to a user: 1,234,567.8 / 123.46万 / 3.2亿 / 23.45%
SHOWN = re.compile(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?:万|亿|%)?|-?\d+(?:\.\d+)?(?:万|亿|%)?")
SCALE = {"万": 1e4, "亿": 1e8, "%": 0.01}


def unsupported_numbers(answer: str | None, r: RunResult) -> list[str]:
    """Numbers in the answer that no tool output contains (facts, result rows, file names)."""
    if not answer:
        return []
    pool: set[str] = set()
    values: list[float] = []

    def feed(v: Any) -> None:
        if isinstance(v, dict):
            for x in v.values():
                feed(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                feed(x)
        elif isinstance(v, bool) or v is None:
            return
        elif isinstance(v, (int, float)):
            for f in {float(v), abs(float(v))}:  # a change of -4.8 is said as 减少 4.8
                shown = f"{f:.2f}".rstrip("0").rstrip(".")  # as tools.fmt shows it: 749.0012 -> 749
                pool.update({str(v), str(int(f)) if f.is_integer() else str(round(f, 2)), str(round(f, 3)), shown})
                values.append(f)
        else:
            pool.update(NUMBER.findall(str(v)))

    for s in r.steps:
        feed(s.facts)
    for f in r.files:
        feed(f)
    feed(r.data_notes)  # counted from the data by code, as tool facts are
    if r.table is not None:
        for row in r.table.head(50).itertuples(index=False, name=None):
            feed(list(row))
        feed(len(r.table))
    if r.profile:
        feed(r.profile)
    return [n for n in SHOWN.findall(answer) if not _supported(n, pool, values)]


def _supported(shown: str, pool: set[str], values: list[float]) -> bool:
    """A figure is supported when a tool output holds it, or holds the value it displays (rounded, 万/亿, %)."""
    bare = shown.replace(",", "")
    if bare in pool or bare.lstrip("-") in pool:
        return True
    scale = SCALE.get(bare[-1], 1.0)
    digits = bare.rstrip("万亿%")
    if digits in pool or digits.lstrip("-") in pool:
        return True
    if scale == 1.0 and "," not in shown:
        return False
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    target = float(digits)
    tol = 0.5 * 10 ** -decimals + 1e-9
    for v in values:
        if abs(v / scale - target) <= tol or abs(abs(v) / scale - abs(target)) <= tol:
            return True
        if scale == 0.01 and abs(v - target) <= tol:  # a fact already in percent
            return True
    return False


def _in_memory_table(t: Any) -> bool:
    return t is not None and not is_big(t) and hasattr(t, "columns")


def _key_said(v: Any, zh: bool) -> str:
    """A group's key in an answer: a blank key is said as blank, never as nan or None."""
    import pandas as pd

    return ("（空白）" if zh else "(blank)") if v is None or (not isinstance(v, str) and pd.isna(v)) else str(v)


def _join_said(f: dict[str, Any], d: Decision, zh: bool) -> str:
    """A join's answer: its kind, its keys and, always, how many rows of each side found no match."""
    how = f.get("how") or "left"
    keys = f["on"] if f.get("other_on") in (None, f["on"]) else f"{f['on']} ↔ {f['other_on']}"
    first = (file_label(d.request.file, "zh" if zh else "en") if d.request.file and d.request.file.startswith((HELD, NAMED)) else "") \
        or Path(d.request.file or "").name or ("第一张表" if zh else "the first table")  # (a result shown, never its internal name)
    second = f.get("other") or ("第二张表" if zh else "the second table")
    ul, ur = f.get("unmatched_left", 0), f.get("unmatched_right", 0)
    rep = f.get("repeated_keys", 0)
    eg = ("、" if zh else ", ").join(f"{k} ×{n}" for k, n in f.get("repeated_sample") or [])
    if rep and zh:
        text_rep = (f"注意：{second} 里有 {rep} 个 {keys} 的值出现了不止一次（如 {eg}），对应的行关联后变成了多行。"
                    f"要每行只配一次，请先对 {second} 按 {keys} 去重再关联。")
    elif rep:
        text_rep = (f" Note: {rep} value(s) of {keys} appear more than once in {second} (e.g. {eg}), so the matching rows were repeated "
                    f"by the join. To match each row once, remove the duplicates of {second} by {keys} first.")
    else:
        text_rep = ""
    if f.get("once_dropped"):  # 先按房号去重再对: the second table's repeats of the key left out first
        text_rep = (f"（{second} 先按 {keys} 去重，每个值只取第一行，去掉了 {f['once_dropped']} 行。）" if zh else
                    f" {second} was first deduplicated on {keys} (its first row per key): {f['once_dropped']} row(s) left out.") + text_rep
    same = f.get("same_repeats", 0)
    if same:  # a lookup: a key repeated with the same values was matched once
        text_rep = (f"（{second} 里有 {same} 行和前面的行完全相同（{keys} 和带过来的列都一样），只按一行对上。）" if zh else
                    f" {same} row(s) of {second} repeat an earlier row (same {keys} and values) and were matched once.") + text_rep
    if how == "anti":  # drivers who never appear in deliveries: the rows with no match, counted
        return (f"{first} 里在 {second} 中找不到 {keys} 的有 {f['rows_out']} 行（共 {f['rows_in']} 行）。" if zh else
                f"{f['rows_out']} of {f['rows_in']} rows of {first} have no {keys} in {second}.")
    if zh:
        kind = {"left": "左连接", "inner": "内连接", "full": "全连接"}[how]
        text = "（两边的键一边是数字、一边是文本，按写出来的内容对齐。）" if f.get("keys_as_text") else ""
        return (f"按 {keys} {kind}后共 {f['rows_out']} 行。没有匹配上的：{first} {ul} 行，{second} {ur} 行"
                + {"left": "（左连接保留了前者的每一行，后者没匹配上的不在结果里）。", "inner": "（内连接时都不在结果里）。",
                   "full": "（全连接时都保留，缺的一边为空）。"}[how] + text + text_rep)
    kind = {"left": "Left join", "inner": "Inner join", "full": "Full join"}[how]
    text = " The key is numbers on one side and text on the other: matched by what they say." if f.get("keys_as_text") else ""
    return (f"{kind} on {keys}: {f['rows_out']} rows. Rows without a match: {ul} in {first}, {ur} in {second}"
            + {"left": " (a left join keeps every row of the first; the second's unmatched rows are not in the result).",
               "inner": " (an inner join leaves both out).", "full": " (a full join keeps both, blank on the missing side)."}[how] + text + text_rep)


def _table_en(t: Any, own: set[str]) -> Any:
    """The table with wenqing's own headers (and, in memory, labels) in English; a table read out of core (DuckDB)
    gets its headers renamed in the query that reads it."""
    from tools.localise import english_names, table_en

    if _in_memory_table(t):
        return table_en(t, own)
    if t is not None and is_big(t):
        names = english_names(t.columns, own)
        return t.renamed(names) if names else t
    return t


def _names_en(t: Any, own: set[str]) -> dict[str, str]:
    from tools.localise import english_names

    return english_names(t.columns, own) if _in_memory_table(t) or (t is not None and is_big(t)) else {}


def _in_english(args: dict[str, Any], own: set[str]) -> None:
    """A write step's table (or reports) with wenqing's own headers and labels in English; a chart's columns follow."""
    if "table" in args:
        names = _names_en(args["table"], own)
        args["table"] = _table_en(args["table"], own)
        for k in ("x", "y"):
            v = args.get(k)
            if isinstance(v, str):
                args[k] = names.get(v, v)
            elif isinstance(v, list):
                args[k] = [names.get(c, c) if isinstance(c, str) else c for c in v]
        t, x = args["table"], args.get("x")
        if isinstance(x, str) and _in_memory_table(t) and x in t.columns and t[x].isna().any():
            t = t.copy()  # a blank category of a chart is named as blank in the session's language
            t[x] = t[x].astype(object).where(t[x].notna(), "(blank)")
            args["table"] = t
    if "reports" in args:
        args["reports"] = [(a, _table_en(t, own)) for a, t in args["reports"]]


def _n(n: Any, word: str) -> str:
    """3 rows, 1 row: an English count with its noun."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def skipped_note(facts: dict[str, Any], lang: str) -> str:
    """Rows the reader left out of a file (more fields than its header): said in every answer that read it."""
    n, lines, name = facts["skipped"], facts.get("skipped_lines") or [], facts["path"]
    shown = lines[:10]
    more = len(lines) > len(shown)
    if lang == "zh":
        where = f"（第 {'、'.join(map(str, shown))}{' 等' if more else ''} 行）" if shown else ""
        return f"读取 {name} 时跳过了 {n} 行字段比表头多的行{where}，结果里不含这些行。"
    where = f" (line{'s' if len(lines) > 1 else ''} {', '.join(map(str, shown))}{' …' if more else ''})" if shown else ""
    return f"Reading {name} skipped {_n(n, 'row')} with more fields than the header{where}; the result leaves {'them' if n != 1 else 'it'} out."


def _say_readings(readings: dict[Any, Any], result: RunResult, audit: Audit, trace_id: str, step: int, lang: str) -> None:
    """Columns a step read as numbers, dates or times from text, and the cells that did not read: said once each."""
    notes = reading_notes(readings, lang)
    if not notes:
        return
    if result.steps:
        result.steps[-1].facts["read_as"] = [{"column": r.column, "kind": r.kind, "converted": r.converted, "unread": r.unread,
                                              "examples": r.examples} for r in readings.values()]
    for note in notes:
        if note not in result.notes:
            result.notes.append(note)
    audit.event(trace_id, f"read:{step}", "running -> done", "文本写的数字、日期按值读取，读不出的行要说明", True, None, {}, {"notes": notes}, 0)


def _no_rows(table: Any, conditions: list[dict[str, Any]]) -> Stop:
    """Why a filter kept nothing: a date column whose cells do not read as dates, a period no row falls in, or
    conditions that each match rows but not together. A period is called absent only when it is."""
    dated = [c for c in conditions if isinstance(c.get("value"), dict) and "date" in c["value"]]
    none = Stop("insufficient_context", "no_rows_match", "没有任何行满足筛选条件，所以没有导出文件。请检查条件或换一个值。",
                "No rows match the condition, so nothing was exported. Check the condition or try another value.")
    absent = Stop("insufficient_context", "period_absent", "数据里没有落在所问时间段内的行，所以没有导出文件。请确认时间段。",
                  "No rows fall in the period asked for, so nothing was exported.")
    if not dated:
        return none
    if table is None or is_big(table):
        return absent
    from tools.io import as_dates

    for c in dated:
        col = c.get("column")
        if col not in table.columns:
            continue
        filled = table[col].astype("string").str.strip().fillna("") != ""
        if filled.any() and as_dates(table[col]).notna().sum() == 0:
            shown = "、".join(f"“{v}”" for v in table[col][filled].astype(str).head(2))
            return Stop("insufficient_context", "dates_unreadable",
                        f"列“{col}”里的值读不成日期（如 {shown}），所以无法按时间段筛选；这不说明该时间段没有数据。",
                        f"The values of '{col}' do not read as dates, so the period cannot be applied; this does not mean the period has no rows.")
        if registry.call("filter_rows", {"table": table, "conditions": [c]}).facts.get("rows_out") == 0:
            return absent
    return none


def _introduced(before: Any, after: Any, lang: str) -> list[str]:
    """Blanks a step added to a column, and columns whose kind of value changed (number <-> text)."""
    import pandas as pd

    notes = []
    for c in after.columns:
        new_blanks = int(after[c].isna().sum())
        if c in before.columns:
            old_blanks = int(before[c].isna().sum())
            if new_blanks > old_blanks and len(after) == len(before):
                notes.append(f"列“{c}”新增了 {new_blanks - old_blanks} 个空值" if lang == "zh" else f"column {c} gained {new_blanks - old_blanks} blanks")
            was_num, is_num = pd.api.types.is_numeric_dtype(before[c]), pd.api.types.is_numeric_dtype(after[c])
            if was_num != is_num and len(after):
                notes.append(f"列“{c}”的类型从{'数字' if was_num else '文本'}变成了{'数字' if is_num else '文本'}" if lang == "zh"
                             else f"column {c} changed from {'numbers' if was_num else 'text'} to {'numbers' if is_num else 'text'}")
        elif new_blanks:
            notes.append(f"新列“{c}”有 {new_blanks} 个空值（参与计算或关联的值缺失或不是数字）" if lang == "zh"
                         else f"new column {c} has {new_blanks} blanks (inputs missing or not numbers)")
    return notes[:5]


def _plain_value(v: Any) -> Any:
    if hasattr(v, "strftime"):
        try:
            return v.strftime("%Y-%m-%d")
        except ValueError:
            return str(v)
    return v


def _small(d: dict[str, Any], limit: int = 600) -> dict[str, Any]:
    """Facts without the injected objects; a value longer than `limit` as JSON is shown by its type only."""
    out = {}
    for k, v in d.items():
        if k in ("ws", "table", "cache", "reports"):
            continue
        if k == "column_info":
            continue
        out[k] = v if len(json.dumps(v, default=str, ensure_ascii=False)) < limit else f"<{type(v).__name__} …>"
    return out


def _tied_step(r: Any) -> dict[str, Any]:
    return next((s.facts for s in r.steps if s.tool == "top_n" and s.facts.get("tied_left_out")), {})


def _tied_at_the_top(r: Any) -> list[str]:
    """The keys level with the one top row kept (Bea, Cy), when one was asked for and others tie with it."""
    f = _tied_step(r)
    return list(f.get("tied_labels") or []) if f.get("rows_out") == 1 else []


def _versus_line(v: dict[str, Any], zh: bool) -> str:
    """整体平均 月薪 24,152.96；高于它的：技术部."""
    from tools.fmt import num

    ref = num(v["reference"], "zh" if zh else "en")
    above = ("、" if zh else ", ").join(v["above"]) or ("无" if zh else "none")
    if zh:
        what = "整体平均" if v["rows_mean"] else "各组平均"
        return f"{v['measure']} 的{what}为 {ref}，高于它的：{above}。"
    what = "overall mean" if v["rows_mean"] else "mean of the groups"
    return f"{v['measure']} {what}: {ref}; above it: {above}."


def _planned(plan: Plan, tool: str, arg: str) -> Any:
    """An argument of the plan's first step that runs this tool (the column a ranking or an order used), else None."""
    return next((s.args.get(arg) for s in plan.steps if s.toolHint == tool), None)


def _answer(plan: Plan, r: RunResult, lang: str, d: Decision) -> str:
    from tools.ops import ROWS  # the row-count column of a summary, in either language
    zh = lang == "zh"
    facts = {s.tool: s.facts for s in r.steps}
    parts: list[str] = []
    if "list_files" in facts:
        n = facts["list_files"].get("files", 0)
        parts.append(f"工作区共有 {n} 个文件。" if zh else f"The workspace has {n} files.")
    prof = r.profile
    if prof and plan.steps[-1].toolHint == "profile_dataset" and len([s for s in plan.steps if s.toolHint != "profile_dataset"]) == 0:
        sheet = f"（工作表 {prof['sheet']}）" if prof.get("sheet") and len(prof.get("sheets", [])) > 1 else ""
        blanks = [f"{c['name']} {c['blanks']}" for c in prof.get("column_info", []) if c["blanks"]]
        if zh:
            parts.append(f"{prof['path']}{sheet}共 {prof['rows']} 行、{len(prof['columns'])} 列。")
            if prof.get("total_rows"):
                parts.append(f"其中 {prof['total_rows']} 行是表中自带的合计行，数据共 {prof['rows'] - prof['total_rows']} 行。")
            if len(prof.get("sheets", [])) > 1:
                parts.append(f"工作表：{'、'.join(prof['sheets'])}。")
            parts.append(f"有空值的列：{'、'.join(blanks)}。" if blanks else "没有空值。")
            if prof.get("encoding"):
                parts.append(f"编码 {prof['encoding']}，分隔符“{prof['delimiter']}”。")
            for note in prof.get("notes", []):
                parts.append(note + "。")
        else:
            parts.append(f"{prof['path']}{' (sheet ' + prof['sheet'] + ')' if sheet else ''} has {prof['rows']} rows and {len(prof['columns'])} columns.")
            if prof.get("total_rows"):
                parts.append(f"{_n(prof['total_rows'], 'row')} of them the table's own total row: {_n(prof['rows'] - prof['total_rows'], 'row')} of data.")
            parts.append(f"Blanks: {', '.join(blanks)}." if blanks else "No blanks.")
    for s in r.steps:
        f = s.facts
        if s.tool == "filter_rows":
            parts.append(f"筛选：{f['rows_in']} 行 → {f['rows_out']} 行。" if zh else f"Filter: {f['rows_in']} → {_n(f['rows_out'], 'row')}.")
            if f['rows_in'] and f['rows_in'] == f['rows_out']:  # a condition that keeps every row: said, never passed over
                parts.append("注意：这个筛选条件没有去掉任何一行，结果就是全部的行；如果本意不是这样，请换个说法说条件。" if zh
                             else "Note: the condition removed no row, so the result is every row; if that is not what was meant, say the condition another way.")
            if f.get("skipped_totals"):
                parts.append(f"表中自带的合计行（{f['skipped_totals']} 行）不是一行数据，没有算进去。" if zh
                             else f"The table's own total row ({f['skipped_totals']}) is not a row of the data and was left out.")
        elif s.tool == "find_duplicates":
            parts.append(f"有 {f['rows_out']} 行是重复的（每份都列出）。" if zh else f"{f['rows_out']} rows are duplicates (every copy listed).")
        elif s.tool == "deduplicate":
            parts.append(f"去重：删除 {f['removed']} 行重复，剩 {f['rows_out']} 行。" if zh else f"Dedupe: removed {f['removed']} duplicate rows, {f['rows_out']} left.")
            if f.get("by"):  # which duplicate stayed, said with the count
                up = f.get("keep") == "last"
                parts.append(f"每组重复只保留了 {f['by']} {'最大/最晚' if up else '最小/最早'}的一行。" if zh else
                             f"Of each set of duplicates, the row with the {'largest/latest' if up else 'smallest/earliest'} {f['by']} stayed.")
            elif f.get("keep") == "last":
                parts.append("每组重复保留了最后一行。" if zh else "Of each set of duplicates, the last row stayed.")
        elif s.tool == "group_summarize":
            asked = any(o.kind == "group" and o.args.get("question") for o in d.request.ops)  # (a question's figures are said after)
            one = (s.evidence.get("sample") or [None])[0] if f["groups"] == 1 and not asked else None
            if isinstance(one, dict) and one:  # 北门金额合计: one figure (or one group), said, never only "1 group"
                from tools.fmt import num as fmt_one

                blank = "（空白）" if zh else "(blank)"  # a blank key is said as blank, never None
                figures = ("，" if zh else ", ").join(f"{k} {fmt_one(v, 'zh' if zh else 'en') if isinstance(v, (int, float)) and v == v else blank if v is None or v != v else v}"
                                                     for k, v in one.items())
                parts.append(f"汇总结果：{figures}。" if zh else f"Summary: {figures}.")
            else:
                parts.append(f"分组汇总：{f['groups']} 组。" if zh else f"Grouped into {_n(f['groups'], 'group')}.")
            for v in f.get("versus_overall", []):
                parts.append(_versus_line(v, zh))
            if f.get("skipped_totals"):
                parts.append(f"表中自带的合计行（{f['skipped_totals']} 行）没有重复计入。" if zh else f"The table's own total row ({f['skipped_totals']}) was left out: counted once, never as a group.")
        elif s.tool == "pivot_table" and f.get("skipped_totals"):
            parts.append(f"表中自带的合计行（{f['skipped_totals']} 行）没有重复计入。" if zh else f"The table's own total row ({f['skipped_totals']}) was left out: counted once.")
        elif s.tool in ("top_n", "extremes") and (f.get("skipped_totals") or f.get("blank_groups") or f.get("tied_left_out")):
            if f.get("tied_left_out"):
                from tools.fmt import num as fmt_num

                tv = fmt_num(f.get("tie_value"), "zh" if zh else "en")
                parts.append(f"另有 {f['tied_left_out']} 行与最后一名并列（{tv}），没有列出。" if zh
                             else f"{_n(f['tied_left_out'], 'more row')} tied with the last one shown ({tv}) and {'is' if f['tied_left_out'] == 1 else 'are'} not listed.")
            if f.get("skipped_totals"):
                parts.append(f"表中自带的合计行（{f['skipped_totals']} 行）不参与比较。" if zh else f"The table's own total row ({f['skipped_totals']}) was left out of the comparison.")
            if f.get("blank_groups"):
                parts.append(f"分组值为空的 {f['blank_groups']} 组不参与排名。" if zh else f"The group with a blank key ({f['blank_groups']}) was left out of the ranking.")
        elif s.tool == "clean":
            parts.append(f"清洗：去空格 {f['trimmed']} 处，删除全空行 {f['dropped_empty']} 行，填充空值 {f['filled']} 个。" if zh
                         else f"Clean: trimmed {f['trimmed']} cells, dropped {f['dropped_empty']} empty rows, filled {f['filled']} blanks.")
        elif s.tool == "find_outliers":
            parts.append(f"{f['column']} 的正常范围约为 {f['low']} ~ {f['high']}，范围外的有 {f['rows_out']} 行。" if zh
                         else f"Normal range of {f['column']} is about {f['low']} to {f['high']}; {f['rows_out']} rows fall outside.")
        elif s.tool == "correlate_columns":
            strength = "几乎无关" if abs(f["r"]) < 0.2 else "弱相关" if abs(f["r"]) < 0.5 else "较强相关"
            parts.append(f"相关系数 r = {f['r']}（样本 {f['n']}），{strength}。" if zh else f"Correlation r = {f['r']} (n = {f['n']}).")
        elif s.tool == "compare_tables":
            parts.append(f"对比：当前表 {f['rows_in']} 行，对比表 {f['other_rows']} 行，共同列 {len(f['shared_columns'])} 个。" if zh
                         else f"Compared: {f['rows_in']} vs {f['other_rows']} rows, {len(f['shared_columns'])} shared columns.")
        elif s.tool == "join_tables":
            parts.append(_join_said(f, d, zh))
        elif s.tool == "add_column":
            unit = f.get("date_unit")  # two dates subtracted: the time between them, in the unit said
            said = ({"hours": "小时", "minutes": "分钟", "days": "天"}[unit] if zh else unit) if unit else ""
            rounded = f.get("digits")
            parts.append((f"已新增列 {f['added']}" + (f"（两个日期相差的{said}数）" if unit else "")
                          + (f"（保留 {rounded} 位小数）" if rounded is not None else "") + "。") if zh
                         else f"Added column {f['added']}" + (f" (the time between the two dates, in {said})" if unit else "")
                         + (f" (rounded to {rounded} decimals)" if rounded is not None else "") + ".")
        else:  # a tool whose operation words its own result
            said = opspec.answer_for(s.tool, f, "zh" if zh else "en", d.request.kinds())
            if said:
                parts.append(said)
    q = next((o for o in d.request.ops if o.args.get("question")), None)
    if q is not None and r.table is not None:
        # the first rows of the result as a frame (a table read out of core is asked for its head only)
        tbl = r.table if hasattr(r.table, "iloc") else r.table.head(50)
        parts = [p for p in parts if not p.startswith(("筛选：", "Filter:", "分组汇总", "Grouped"))]
        if d.request.op("count"):
            # the rows the last step that keeps rows left: 去重以后是多少人 after a dedupe, the filter's after 先去重再筛选
            kept = [st.facts for st in r.steps if st.tool in ("filter_rows", "deduplicate") and "rows_out" in st.facts]
            n = kept[-1]["rows_out"] if kept else len(r.table)
            parts.append(f"满足条件的共有 {n} 行。" if zh else f"{n} rows match.")
            r.data_notes += [n for n in repeated_rows(r.table, zh) if n not in r.data_notes] if "deduplicate" not in facts else []  # (its figures are the data's: checked as such)
        elif q.kind == "profile" and q.args.get("question") == "rows":
            st = d.request.op("stack")
            if st is not None:  # 一共有多少条记录 over stacked sheets: the rows of all of them
                of = "、".join(st.args.get("sheets") or []) if zh else ", ".join(st.args.get("sheets") or [])
                parts = [f"{of} 一共 {len(r.table)} 行。" if zh else f"{len(r.table)} rows in total ({of})."]
            r.data_notes += [n for n in repeated_rows(r.table, zh) if n not in r.data_notes]
            # (one table: its preview's answer says its rows, never a row of it as the answer)
        elif len(r.table):
            g = d.request.op("group")
            keys = g.args.get("keys", []) if g else []
            measures = [c for c in tbl.columns if c not in keys]
            top = d.request.op("top_n")

            def num(v: Any) -> Any:
                if isinstance(v, bool) or not hasattr(v, "__float__") or isinstance(v, str):
                    return _plain_value(v)
                f = float(v)
                return int(f) if f.is_integer() else round(f, 2)

            by = top.args.get("by") if top is not None else None
            if not keys and top is not None and by in tbl.columns and len(r.table) > 1 and (top.args.get("n") or 1) > 1:
                # 工资最高的三个人是谁: every row of the cut, named by its first text column, with its figure
                from pandas.api.types import is_numeric_dtype

                label_col = next((c for c in tbl.columns if c != by and not is_numeric_dtype(tbl[c])), None)
                listed = [(f"{row[label_col]}（{num(row[by])}）" if zh else f"{row[label_col]} ({num(row[by])})") if label_col else str(num(row[by]))
                          for _, row in tbl.head(20).iterrows()]
                parts.append((f"{by} {'最低' if top.args.get('ascending') else '最高'}的 {len(listed)} 行：{'、'.join(listed)}。") if zh
                             else f"The {len(listed)} rows with the {'lowest' if top.args.get('ascending') else 'highest'} {by}: {', '.join(listed)}.")
            elif not keys:  # 金额是多少: the figure itself
                ranked = _planned(plan, "top_n", "by")  # 哪个月单最多: the count it was ranked by
                count_asked = g is not None and any(m.get("agg") == "count" and not m.get("column") and not m.get("where") for m in g.args.get("measures") or [])
                shown = [c for c in measures if c not in ROWS.values() or c == ranked or count_asked] or measures  # how many: the rows said too
                row0 = tbl.iloc[0]
                parts.append(("；".join(f"{c}：{num(row0[c])}" for c in shown) + "。") if zh else "; ".join(f"{c}: {num(value_en(row0[c]))}" for c in shown) + ".")
            elif top is not None and top.args.get("both"):
                pass  # the highest and the lowest: worded by the operation (extremes)
            elif top is not None:
                row0 = tbl.iloc[0]
                label = "、".join(_key_said(row0[k], zh) for k in keys)
                ranked_by = _planned(plan, "top_n", "by")
                measure = ranked_by if ranked_by in measures else measures[0]  # the figure the groups were ranked by
                low = bool(top.args.get("ascending"))
                word = ("最低" if low else "最高") if zh else ("lowest" if low else "highest")
                if (top.args.get("n") or 1) > 1 and len(r.table) > 1:  # 前三的销售员: each key's figure over its rows, ranked
                    ranked = [("、" if zh else ", ").join(_key_said(row[k], zh) for k in keys) + (f"（{num(row[measure])}）" if zh else f" ({num(row[measure])})")
                            for _, row in tbl.iterrows()]
                    within = list(top.args.get("within") or [])
                    if within:  # within each sheet, the highest 2: said per parent, never as the N highest of all
                        n = top.args.get("n") or 1
                        parts.append(f"在每个 {'、'.join(within)} 内，{measure} {word}的 {n} 个：{'、'.join(ranked)}。" if zh
                                     else f"Within each {', '.join(within)}, the {word} {n} by {measure}: {', '.join(ranked)}.")
                    else:
                        parts.append(f"按 {'、'.join(keys)} 汇总后，{measure} {word}的 {len(ranked)} 个是：{'、'.join(ranked)}。" if zh
                                     else f"Per {', '.join(keys)}, the {word} {len(ranked)} by {measure}: {', '.join(ranked)}.")
                elif level := _tied_at_the_top(r):  # 哪个导购单数最多, two level: both named, never one of them alone
                    parts[:] = [p for p in parts if not p.startswith(("另有 ", f"{_n(_tied_step(r)['tied_left_out'], 'more row')} tied"))]
                    parts.append(f"{'、'.join(keys)} 中 {measure} {word}的有 {len(level)} 个并列：{'、'.join(level)}，都是 {num(row0[measure])}。" if zh
                                 else f"{' and '.join(level) if len(level) < 3 else ', '.join(level)} tie for the {word} {measure}: {num(row0[measure])} each.")
                else:
                    parts.append(f"{'、'.join(keys)} 中 {measure} {word}的是 {label}：{num(row0[measure])}。" if zh else f"{label} has the {word} {measure}: {num(row0[measure])}.")
            elif (srt := d.request.op("sort")) is not None and g is not None and keys and measures:
                # 哪类报修最多，列个排名 / per Team, and which Team is highest: every group in that order, the first named
                by = (_planned(plan, "sort_rows", "by") or [None])[0]
                measure = by if by in measures else next((c for c in measures if c not in ROWS.values()), measures[0])
                ranked = [("、" if zh else ", ").join(_key_said(row[k], zh) for k in keys) + (f"（{num(row[measure])}）" if zh else f" ({num(row[measure])})")
                          for _, row in tbl.head(12).iterrows()]
                more = ("……" if zh else " …") if len(r.table) > 12 else ""
                word = ("最低" if srt.args.get("ascending") else "最高") if zh else ("lowest" if srt.args.get("ascending") else "highest")
                parts.append(f"按 {measure} 排列：{'、'.join(ranked)}{more}；{word}的是 {ranked[0].split('（')[0]}。" if zh
                             else f"By {measure}: {', '.join(ranked)}{more}; the {word} is {ranked[0].rsplit(' (', 1)[0]}.")
            else:  # 区有哪些: the distinct values with their counts
                def counted(row: Any) -> str:
                    name = ("、" if zh else ", ").join(_key_said(row[k], zh) for k in keys)
                    n = int(row[next(c for c in ROWS.values() if c in row)])
                    return f"{name}（{n}）" if zh else f"{name} ({n})"

                figs = [c for c in measures if c not in ROWS.values()]
                if figs:  # 东城和西湖的罚款总额各是多少: each group's figures, never only its rows
                    def figured(row: Any) -> str:
                        name = ("、" if zh else ", ").join(_key_said(row[k], zh) for k in keys)
                        said = ("，" if zh else ", ").join(f"{c} {num(row[c])}" for c in figs)
                        return f"{name}：{said}" if zh else f"{name}: {said}"

                    listed = [figured(row) for _, row in tbl.head(12).iterrows()]
                    parts.append(f"按 {'、'.join(keys)} 分 {len(r.table)} 组：{'；'.join(listed)}" + ("……" if len(r.table) > 12 else "") + "。" if zh
                                 else f"{len(r.table)} groups by {', '.join(keys)}: {'; '.join(listed)}.")
                else:
                    listed = [counted(row) for _, row in tbl.head(12).iterrows()]
                    parts.append(f"{'、'.join(keys)} 共有 {len(r.table)} 个不同的值：{'、'.join(listed)}" + ("……" if len(r.table) > 12 else "") + "。" if zh
                                 else f"{', '.join(keys)} has {len(r.table)} distinct values: {', '.join(listed)}.")
    parts += r.data_notes
    for f in r.files:
        parts.append(f"已保存到 {f['path']}（{f['rows']} 行）。" if zh else f"Saved to {f['path']} ({_n(f['rows'], 'row')}).")
        parts += safety_notes(f, lang)
    if d.request.overwrite and r.files:
        parts.append("原文件未改动。" if zh else "The source file was left as it is.")
    return "".join(parts) if zh else " ".join(parts)
