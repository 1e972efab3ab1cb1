"""The plan object of SPEC §1 ③, built from a decided request; each step names a registered tool."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from modes.catalog import Catalog, SheetInfo
from modes.decision import Decision, Request
from modes.replies import goal_summary

ID_LIKE = ("id", "编号", "号", "code", "代码")
AVERAGED = {"price", "rating", "age", "spend", "salary"}


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


def _stem(r: Request, label: str) -> str:
    base = (r.file or "result").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if r.sheet:
        base += f"_{r.sheet}"
    return f"{base}_{label}"


def _sheet(r: Request, catalog: Catalog) -> SheetInfo | None:
    f = catalog.get(r.file)
    if f is None or not f.sheets:
        return None
    return f.sheet(r.sheet) or f.sheets[0]


def _numeric_measures(sheet: SheetInfo | None, keys: list[str]) -> list[dict[str, str]]:
    if sheet is None:
        return []
    from modes.lexicon import concept_of

    cols = [c for c in sheet.columns if c in sheet.numeric and c not in keys and not c.casefold().endswith(ID_LIKE)]
    # rates and prices are averaged, amounts and counts are added up
    return [{"column": c, "agg": "mean" if concept_of(c) in AVERAGED else "sum"} for c in cols]


def build_plan(d: Decision, catalog: Catalog) -> Plan:
    """Steps for an act decision, each bound to a tool of the registry with typed arguments."""
    r = d.request
    steps: list[Step] = []

    def add(action: str, tool: str, done: str, **args: Any) -> None:
        steps.append(Step(len(steps) + 1, action, tool, done, args))

    sheet = _sheet(r, catalog)
    kinds = r.kinds()
    if kinds and kinds[0] == "list_files":
        add("列出工作区文件", "list_files", "获得文件清单")
        if "export" in kinds:
            add("导出文件清单", "export_list", "导出成功", stem="文件清单")
        return _plan(d, steps, "list")
    add("预览数据", "profile_dataset", "获取列信息", path=r.file, sheet=r.sheet, **({"head": _head(r)} if _head(r) else {}),
        **({"header_row": r.header_row} if r.header_row else {}))
    labels: list[str] = []
    wrote = False
    last_measure: str | None = None
    for op in r.ops:
        a = op.args
        if op.kind == "full_analysis":
            add("逐列统计", "describe_columns", "统计完成")
            f = catalog.get(r.file)
            if f and len(f.sheets) > 1:
                main_sheet = r.sheet or f.sheets[0].name
                for s in f.sheets:
                    if s.name != main_sheet:
                        add(f"预览工作表 {s.name}", "profile_dataset", "获取列信息", path=r.file, sheet=s.name)
                        add(f"逐列统计 {s.name}", "describe_columns", "统计完成")
                if len(r.ops) > 1:
                    add(f"回到工作表 {main_sheet}", "profile_dataset", "获取列信息", path=r.file, sheet=main_sheet)
            labels.append("分析")
        elif op.kind == "filter":
            add("筛选行", "filter_rows", "筛选完成", conditions=[c.to_tool() for c in a["conditions"]], logic=a.get("logic", "and"))
            labels.append("筛选")
        elif op.kind == "sort":
            by = a.get("by") or ([last_measure] if last_measure else [])
            add("排序", "sort_rows", "排序完成", by=by, ascending=bool(a.get("ascending", True)))
            labels.append("排序")
        elif op.kind == "group":
            keys = list(a.get("keys") or [])
            measures = list(a.get("measures") or []) or _numeric_measures(sheet, keys)
            add("分组汇总", "group_summarize", "汇总完成", keys=keys, measures=measures)
            from tools.ops import AGG_ZH

            first = next((m for m in measures if m.get("column")), None)
            last_measure = f"{first['column']}_{AGG_ZH[first['agg']]}" if first else "行数"
            labels.append("汇总")
        elif op.kind == "dedupe" and a.get("show"):
            add("找出重复行", "find_duplicates", "检查完成", **({"subset": a["subset"]} if a.get("subset") else {}))
            labels.append("重复行")
        elif op.kind == "dedupe":
            add("去重", "deduplicate", "去重完成", **({"subset": a["subset"]} if a.get("subset") else {}))
            labels.append("去重")
        elif op.kind == "clean":
            fill = a.get("fill")
            if fill and "*" in fill and sheet is not None:
                fill = {c: fill["*"] for c in sheet.columns}
            add("清洗", "clean", "清洗完成", **({"fill": fill} if fill else {}))
            labels.append("清洗")
        elif op.kind == "select":
            add("选择列", "select_columns", "列已选出", columns=a["columns"])
            labels.append("选列")
        elif op.kind == "add_column":
            add("新增计算列", "add_column", "新列已计算", name=a["name"], left=a["left"], op=a["op"], right=a["right"])
            labels.append("加列")
        elif op.kind == "top_n":
            add("取前几名", "top_n", "筛选完成", by=a.get("by") or last_measure, n=a.get("n", 10), ascending=bool(a.get("ascending", False)))
            labels.append(f"前{a.get('n', 10)}")
        elif op.kind == "compare":
            other = r.files[1] if len(r.files) > 1 else r.file
            add("对比两张表", "compare_tables", "对比完成", other_path=other, **({"columns": a["columns"]} if a.get("columns") else {}))
        elif op.kind == "outliers":
            add("找异常值", "find_outliers", "检查完成", column=a["column"])
            labels.append("异常值")
        elif op.kind == "correlate":
            add("计算相关性", "correlate_columns", "相关性已计算", a=a["columns"][0], b=a["columns"][1])
        elif op.kind == "join":
            sheets = a.get("sheets") or []
            if len(sheets) > 1:
                add("关联工作表", "join_tables", "关联完成", other_path=r.file, other_sheet=sheets[1], on=a["on"])
            else:
                add("关联文件", "join_tables", "关联完成", other_path=r.files[1], on=a["on"])
            labels.append("关联")
        elif op.kind == "append":
            add("上下合并两张表", "append_tables", "合并完成", other_path=r.files[1] if len(r.files) > 1 else r.file)
            labels.append("合并")
        elif op.kind == "rename":
            add("重命名列", "rename_columns", "列已改名", mapping=a["mapping"])
            labels.append("改名")
        elif op.kind == "head":
            add(f"取前 {a.get('n', 10)} 行", "head_rows", "筛选完成", n=a.get("n", 10))
            labels.append(f"前{a.get('n', 10)}行")
        elif op.kind == "count":
            pass  # the filter step's row count is the answer
        elif op.kind == "export":
            fmt = a.get("format") or _default_format(r)
            tool = "write_xlsx" if fmt == "xlsx" else "write_csv"
            add(f"导出 {fmt.upper()}", tool, "导出成功", stem=_stem(r, "".join(labels) or "导出"))
            wrote = True
    question = any(o.args.get("question") for o in r.ops)
    transforming = not question and any(k in kinds for k in ("filter", "sort", "group", "dedupe", "clean", "select", "add_column", "top_n", "join", "append", "head", "rename"))
    if transforming and not wrote:
        add("保存结果 CSV", "write_csv", "导出成功", stem=_stem(r, "".join(labels)))
    if r.full and not wrote and not transforming:
        add("保存统计结果", "write_report", "导出成功", stem=_stem(r, "分析"))
    return _plan(d, steps, "table")


def _head(r: Request) -> int | None:
    p = r.op("profile")
    return p.args.get("head") if p else None


def _default_format(r: Request) -> str:
    if r.target_format:
        return r.target_format
    if r.kinds() == ["export"] and r.file and r.file.lower().endswith((".csv", ".tsv")):
        return "xlsx"
    return "csv"


def _plan(d: Decision, steps: list[Step], kind: str) -> Plan:
    return Plan(d.mode, d.mode_reason, d.tier, d.plan_style_reason, steps, goal_summary(d.request, d.lang), kind)


def plan_for(d: Decision, catalog: Catalog) -> Plan | None:
    if d.gate != "act":
        return None
    return build_plan(d, catalog)
