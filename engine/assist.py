"""Where the model helps: intent deconstruction when the rules are unsure, chat replies, explore planning and a
final review. Every answer is validated; on any failure the rules' decision stands."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.model import (
    CHAT_SYSTEM,
    PLAN_SYSTEM,
    REVIEW_SYSTEM,
    Budget,
    CallLog,
    ModelClient,
    ModelConfig,
    PlanSpec,
    ReviewSpec,
    query_messages,
    workspace_summary,
)
from engine.plan import Plan, Step
from modes.catalog import Catalog
from modes.decision import RESTATE_BELOW, Decision, SessionState
from modes.intent import decide_answer
from modes.query import query_of
from modes.resolve import find_files
from modes.schema import Answer, View, read_answer, schema
from modes.text import normalize
from tools import registry

PLANNABLE = ("profile_dataset", "filter_rows", "select_columns", "sort_rows", "top_n", "head_rows", "group_summarize", "deduplicate", "find_duplicates", "rename_columns",
             "clean", "add_column", "describe_columns", "find_outliers", "correlate_columns", "compare_tables",
             "join_tables", "append_tables", "write_csv", "write_xlsx")
BOUND = ("ws", "table", "cache", "about")
FILE_ARGS = ("path", "other_path")  # a planned step reads only files the user named
WRITERS = ("write_csv", "write_xlsx")  # and writes only when the user asked for a file
STEP_TEXT = {
    "profile_dataset": ("预览数据", "获取列信息"), "filter_rows": ("筛选行", "筛选完成"), "select_columns": ("选择列", "列已选出"),
    "sort_rows": ("排序", "排序完成"), "top_n": ("取前几名", "筛选完成"), "head_rows": ("取前几行", "筛选完成"), "group_summarize": ("分组汇总", "汇总完成"),
    "deduplicate": ("去重", "去重完成"), "clean": ("清洗", "清洗完成"), "add_column": ("新增计算列", "新列已计算"),
    "describe_columns": ("逐列统计", "统计完成"), "find_outliers": ("找异常值", "检查完成"), "correlate_columns": ("计算相关性", "相关性已计算"),
    "compare_tables": ("对比两张表", "对比完成"), "join_tables": ("关联表", "关联完成"), "append_tables": ("上下合并", "合并完成"),
    "write_csv": ("导出 CSV", "导出成功"), "write_xlsx": ("导出 xlsx", "导出成功"),
}


def consult(d: Decision) -> bool:
    """Whether the model is asked: whenever the rules did not reach a confident act or a clear chat (a restatement,
    a question, an unknown request, words no rule read)."""
    if d.gate == "chat":
        return d.request.chat_kind == "other" and d.next == "reply"  # not read as work, not known small talk either
    if d.gate == "act" and d.next in ("execute", "plan_confirm") and d.confidence >= RESTATE_BELOW and not d.request.unexplained:
        return False
    if d.gate == "act" and d.request.plan_only:
        return False
    return not d.rule.startswith("confirm")  # 继续 runs what was restated, never a new reading


def model_asked(before: SessionState) -> bool:
    """Whether the turn answers a question the model's reading asked (its reply is read with that request)."""
    p = before.pending
    return p is not None and any(e.factor == "model" for e in p.request.evidence)


def named_files(turns: list[str], catalog: Catalog, current: str | None) -> set[str]:
    """The files the user's own words name or describe (and the current file), as the rules read them."""
    out = {current} if current else set()
    for t in turns:
        ref = find_files(normalize(t), catalog, current)
        out.update(ref.paths + (ref.candidates if ref.how == "ambiguous" else []))  # 上海那份和北京那份: both described
    return out


def steps_text(plan: Plan, lang: str) -> str:
    """The steps of a plan as the user confirms them: each tool with its arguments."""
    parts = []
    for s in plan.steps:
        args = json.dumps(s.args, ensure_ascii=False)[:120] if s.args else ""
        parts.append(f"{s.step}. {s.action}（{s.toolHint} {args}）" if lang == "zh" else f"{s.step}. {s.action} ({s.toolHint} {args})")
    return "；".join(parts) if lang == "zh" else "; ".join(parts)


@dataclass
class Assistant:
    cfg: ModelConfig
    client: ModelClient
    notices: list[str] = field(default_factory=list)

    @classmethod
    def create(cls, cfg: ModelConfig, on_call: Callable[[CallLog], None] | None = None,
               sleep: Callable[[float], None] | None = None) -> Assistant:
        kw: dict[str, Any] = {"on_call": on_call}
        if sleep is not None:
            kw["sleep"] = sleep
        return cls(cfg, ModelClient(cfg, **kw))

    def budget(self) -> Budget:
        return Budget(self.cfg.token_budget)

    def _drain(self) -> None:
        self.notices.extend(dict.fromkeys(self.client.notices))
        self.client.notices.clear()

    # 1. intent deconstruction ----------------------------------------------------------------
    def improve(self, before: SessionState, utterance: str, d: Decision, after: SessionState, catalog: Catalog,
                budget: Budget) -> tuple[Decision, SessionState]:
        """Ask the model only where the rules are unsure; a better decision must pass every check the rules pass."""
        if consult(d) or (model_asked(before) and not d.rule.startswith("confirm")):
            better = self._read(before, utterance, d, after, catalog, budget)
            if better is not None:
                return better
        if d.gate == "chat" and d.next == "reply" and d.request.chat_kind not in ("remark",):
            text = self.client.ask("chat", [{"role": "system", "content": CHAT_SYSTEM}, {"role": "user", "content": utterance}], None, budget)
            self._drain()
            if text:
                from dataclasses import replace

                return replace(d, reply=str(text)[:1200], rule="model:chat"), after
        return d, after

    def _read(self, before: SessionState, utterance: str, d: Decision, after: SessionState, catalog: Catalog,
              budget: Budget) -> tuple[Decision, SessionState] | None:
        """The model's reading of the request as a checked query, decided like any request (None: the rules' stands)."""
        history = list(before.pending.turns) if before.pending else []
        last = query_of(before.last.request) if before.last is not None else None
        view = View.of(catalog, previous=before.last_result)
        msgs = query_messages(utterance, history, workspace_summary(catalog, self.cfg.send_cell_values),
                              last.to_json() if last is not None else None)
        said = named_files([*history, utterance], catalog, before.current_file)
        read: list[Answer] = []

        def check(obj: Any) -> list[str]:
            a = read_answer(obj, view, d.lang)
            read[:] = [a]
            errors = list(a.errors)
            q = a.query
            for part in q.chain() if q is not None else []:
                for other in part.source.files[1:]:
                    if other not in said:
                        errors.append(f"file {other} was not named by the user; only files the user named can be joined or compared")
            return errors

        obj = self.client.ask("query", msgs, None, budget, check, schema=schema(view), repairs=1)
        self._drain()
        if obj is None or not read or (read[0].intent == "chat" and d.gate == "chat"):
            return None
        better = decide_answer(before.evolve(turn=after.turn), utterance, read[0], catalog, d.lang, rules=d)
        if better is None:
            return None
        return better[0], better[1].evolve(turn=after.turn)

    # 2. explore planning -----------------------------------------------------------------------
    def plan(self, d: Decision, plan: Plan, catalog: Catalog, budget: Budget, feedback: list[str] | None = None) -> tuple[Plan | None, list[str]]:
        """Steps from the registry only, arguments checked against each tool's signature and the columns.
        An invalid plan is sent back once with the exact errors; then the caller asks the user."""
        f = catalog.get(d.request.file)
        sheet = (f.sheet(d.request.sheet) or f.sheets[0]) if f and f.sheets else None
        columns = set(sheet.columns) if sheet else set()
        tools = {n: [p for p in registry.get_tool(n).params if p not in BOUND] for n in PLANNABLE}
        last_errors: list[str] = []
        allowed_files = {f for f in (d.request.file, *d.request.files) if f}
        wants_output = d.request.op("export") is not None

        def check(spec: PlanSpec) -> list[str]:
            errors: list[str] = []
            made: set[str] = set()
            for i, s in enumerate(spec.steps, 1):
                if s.tool not in tools:
                    errors.append(f"step {i}: unknown tool {s.tool}")
                    continue
                t = registry.get_tool(s.tool)
                extra = [a for a in s.args if a not in tools[s.tool]]
                need = [p for p in t.required if p not in BOUND and p not in s.args]
                if extra:
                    errors.append(f"step {i}: {s.tool} has no argument(s) {', '.join(extra)}")
                if need:
                    errors.append(f"step {i}: {s.tool} needs {', '.join(need)}")
                for k in ("by", "keys", "columns", "column", "a", "b", "left", "subset", "on"):
                    v = s.args.get(k)
                    for c in v if isinstance(v, list) else [v] if isinstance(v, str) else []:
                        if c not in columns and c not in made and not any(c.startswith(f"{m}_") for m in columns):
                            errors.append(f"step {i}: column {c} does not exist")
                for c in s.args.get("conditions") or []:
                    if isinstance(c, dict) and c.get("column") not in columns | made:
                        errors.append(f"step {i}: column {c.get('column')} does not exist")
                if s.tool == "add_column" and isinstance(s.args.get("name"), str):
                    made.add(s.args["name"])
                if s.tool == "profile_dataset" and s.args.get("path") != d.request.file:
                    errors.append(f"step {i}: profile_dataset must read {d.request.file}")
            for i, s in enumerate(spec.steps, 1):
                for k in FILE_ARGS:
                    v = s.args.get(k)
                    if v is not None and v not in allowed_files:
                        errors.append(f"step {i}: {s.tool} may only read {', '.join(sorted(allowed_files))} (the files the user named), not {v}")
                if s.tool in WRITERS and not wants_output:
                    errors.append(f"step {i}: the user did not ask for a file to be written; remove {s.tool}")
            if not spec.steps or spec.steps[0].tool != "profile_dataset":
                errors.append("the first step must be profile_dataset")
            last_errors[:] = errors
            return errors

        catalog_tools = json.dumps(tools, ensure_ascii=False)
        ask = json.dumps({"goal": plan.goalSummary, "file": d.request.file, "sheet": d.request.sheet,
                          "columns": sorted(columns), "tools": catalog_tools, "review_feedback": feedback or []}, ensure_ascii=False)
        spec = self.client.ask("plan", [{"role": "system", "content": PLAN_SYSTEM}, {"role": "user", "content": ask}],
                               PlanSpec, budget, check, attempts=2)
        self._drain()
        if spec is None:
            return None, last_errors
        steps = []
        for i, s in enumerate(spec.steps, 1):
            args = dict(s.args)
            if s.tool == "profile_dataset":
                args.setdefault("sheet", d.request.sheet)
            action, done = STEP_TEXT.get(s.tool, (registry.get_tool(s.tool).description[:24], "完成"))
            steps.append(Step(i, action, s.tool, done, args))
        return Plan(plan.mode, plan.modeReason + "（步骤由模型规划、代码校验）", plan.planStyle, plan.planStyleReason, steps, plan.goalSummary), []

    # 3. final review ---------------------------------------------------------------------------
    def review(self, answer: str, facts: list[dict[str, Any]], budget: Budget) -> ReviewSpec | None:
        data = json.dumps({"answer": answer, "tool_outputs": facts}, ensure_ascii=False, default=str)[:6000]
        spec = self.client.ask("review", [{"role": "system", "content": REVIEW_SYSTEM}, {"role": "user", "content": data}], ReviewSpec, budget)
        self._drain()
        return spec
