"""Every sheet of a workbook that is one table split into sheets (一季度/二季度/三季度, North/South), read as one
table with a column naming the sheet each row came from. Read by the gate (modes.gate._u_sheet), never by words
alone; the query takes it as its source (modes.query.SOURCE_OPS)."""

from __future__ import annotations

from typing import Any

from modes.opspec import Found, OpSpec, PlanContext, StepSpec, operation, said_in

SHEET_COLUMN = {"zh": "工作表", "en": "sheet"}


@operation
class Stack(OpSpec):
    name = "stack"
    family = "transform"
    label = {"zh": "合并工作表", "en": "stack sheets"}
    saves_result = True

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        return None

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        sheets = args.get("sheets") or []
        return said_in(lang, f"把 {'、'.join(sheets)} 这 {len(sheets)} 个工作表上下合并成一张表（加一列“工作表”注明来源）",
                       f"stack the sheets {', '.join(sheets)} into one table (a column 'sheet' says where each row came from)")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "合并"

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "stack_sheets" or not facts.get("skipped_totals"):
            return None
        n = facts["skipped_totals"]  # each sheet's own 合计 row, left out before the sheets were put together
        return said_in(lang, f"各工作表自带的合计行（{n} 行）不是数据，合并时没有放进来。",
                       f"The sheets' own total rows ({n}) are not data and were left out of the stacked table.")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        r = ctx.request
        lang = "en" if getattr(r, "lang", "zh") == "en" else "zh"
        return [StepSpec("合并工作表", "stack_sheets", "合并完成", {"path": r.file, "sheets": list(args.get("sheets") or []),
                                                                 "label": SHEET_COLUMN[lang]})]
