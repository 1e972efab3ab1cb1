"""The plan object of SPEC §1 ③, built from a decided request; each step names a registered tool."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from modes import opspec
from modes.catalog import Catalog, SheetInfo
from modes.decision import Decision, Request
from modes.naming import output_stem
from modes.opspec import PlanContext
from modes.query import ops_in_order, query_of
from modes.replies import goal_summary


@dataclass
class Step:
    step: int
    action: str
    toolHint: str  # noqa: N815  (the SPEC's key)
    doneWhen: str  # noqa: N815
    args: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "action": self.action, "toolHint": self.toolHint, "doneWhen": self.doneWhen}


@dataclass
class Plan:
    mode: str
    modeReason: str  # noqa: N815
    planStyle: str  # noqa: N815
    planStyleReason: str  # noqa: N815
    steps: list[Step]
    goalSummary: str  # noqa: N815
    answer_kind: str = "table"

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode, "modeReason": self.modeReason, "planStyle": self.planStyle,
            "planStyleReason": self.planStyleReason, "steps": [s.to_dict() for s in self.steps], "goalSummary": self.goalSummary,
        }


def _sheet(r: Request, catalog: Catalog) -> SheetInfo | None:
    f = catalog.get(r.file)
    if f is None or not f.sheets:
        return None
    return f.sheet(r.sheet) or f.sheets[0]


WRITE_TOOLS = ("write_csv", "write_xlsx", "write_report", "export_list", "write_chart", "split_to_sheets")


def build_plan(d: Decision, catalog: Catalog) -> Plan:
    """Steps for an act decision: each operation's OpSpec names its registered tools and typed arguments."""
    r = d.request
    steps: list[Step] = []

    def add(action: str, tool: str, done: str, **args: Any) -> None:
        steps.append(Step(len(steps) + 1, action, tool, done, args))

    kinds = r.kinds()
    if kinds and kinds[0] == "list_files":
        add("列出工作区文件", "list_files", "获得文件清单")
        if "export" in kinds:
            add("导出文件清单", "export_list", "导出成功", stem="file_list" if r.lang == "en" else "文件清单")
        return _plan(d, steps, "list")
    add("预览数据", "profile_dataset", "获取列信息", path=r.file, sheet=r.sheet, **({"head": _head(r)} if _head(r) else {}),
        **({"header_row": r.header_row} if r.header_row else {}))
    f = catalog.get(r.file) if r.file else None
    ctx = PlanContext(r, _sheet(r, catalog), tuple(f.sheets) if f else ())
    saves = False
    q = query_of(r)
    for op in ops_in_order(q) if q is not None else r.ops:
        spec = opspec.get(op.kind)
        if spec is None:
            continue
        for st in spec.to_steps(op.args, ctx):
            add(st.action, st.tool, st.done, **st.args)
        label = spec.stem_label(op.args)
        if label and op.kind != "export":
            ctx.labels.append(label)
        saves = saves or spec.saves_result
    wrote = any(s.toolHint in WRITE_TOOLS for s in steps)
    question = any(o.args.get("question") for o in r.ops)
    transforming = not question and saves
    if transforming and not wrote:
        add("保存结果 CSV", "write_csv", "导出成功", stem=output_stem(r, ctx.labels))
    if r.full and not wrote and not transforming:
        add("保存统计结果", "write_report", "导出成功", stem=output_stem(r, "分析"))
    return _plan(d, steps, "table")


def _head(r: Request) -> int | None:
    p = r.op("profile")
    return p.args.get("head") if p else None


def _plan(d: Decision, steps: list[Step], kind: str) -> Plan:
    return Plan(d.mode, d.mode_reason, d.tier, d.plan_style_reason, steps, goal_summary(d.request, d.lang), kind)


def plan_for(d: Decision, catalog: Catalog) -> Plan | None:
    if d.gate != "act":
        return None
    return build_plan(d, catalog)


def decision_json(d: Decision, plan: Plan | None, item_id: str | None = None) -> dict[str, Any]:
    """The decision line of SPEC §3."""
    out: dict[str, Any] = {}
    if item_id is not None:
        out["id"] = item_id
    out.update(
        gate=d.gate, next=d.next, mode=d.mode, tier=d.tier, confidence=round(d.confidence, 2),
        slots=jsonable(d.slots), missing=list(d.missing), reply=d.reply, plan=plan.to_dict() if plan else None,
        mode_reason=d.mode_reason, rule=d.rule, lowered_by=list(d.lowered_by),
    )
    q = query_of(d.request) if d.gate == "act" else None
    out["query"] = q.to_json() if q is not None else None
    if d.request.candidates and d.gate == "clarify":
        out["candidates"] = list(d.request.candidates)
    return out


def jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if hasattr(v, "to_tool"):
        return v.to_tool()
    return v
