"""Split the rows into sheets by a column: 按班级拆成几个sheet / 一个班一个工作表 / split it into sheets by Region."""

from __future__ import annotations

import re
from typing import Any

from modes.naming import output_stem
from modes.opspec import Found, OpSpec, PlanContext, Slot, StepSpec, operation, said_in

SPLIT_RX = re.compile(
    r"(?:拆|分|拆分|切分|分开)(?:成|到|为|进)?(?:几个|多个|不同的?|各个|若干个?)?\s*(?:sheet|工作表|表|页)"
    r"|(?:一个|每个)[\u4e00-\u9fffA-Za-z0-9_]{1,8}?(?:一个|单独一个|各一个|放一个|放一张|一张)\s*(?:sheet|工作表|表|页)"
    r"|(?<![a-z_])(?:split|break|separate)\b[^.;]{0,40}?\b(?:into|to|across)\s+(?:separate\s+|different\s+|multiple\s+)?(?:sheets|tabs|worksheets)(?![a-z_])"
    r"|(?<![a-z_])(?:one|a|separate)\s+(?:sheet|tab|worksheet)\s+(?:per|for each|for every)(?![a-z_])",
    re.I,
)
KEY_BEFORE = re.compile(r"(?:按|按照|根据|以|(?<![a-z_])(?:by|per|for each|for every)\s+)\s*$", re.I)
ONE_EACH = re.compile(r"(?:一个|每个)\s*$")
WRITTEN = re.compile(r"导出(?:来|去)?|导成|输出|另存|保存|存成|(?<![a-z_])(?:export|save)(?:\s+it)?(?![a-z_])", re.I)  # (the split is what is written)


@operation
class SplitSheets(OpSpec):
    name = "split_sheets"
    family = "export"
    label = {"zh": "按列拆成多个工作表", "en": "split into sheets"}
    words = {"zh": ("拆成几个sheet", "一个班一个sheet"), "en": ("split into sheets", "one sheet per")}
    slots = (Slot("by", "column", "按哪一列拆分成多个工作表？", "Split into sheets by which column?", gap="split_by"),)
    main_slot = "by"
    precedence = 1  # 按班级拆成几个sheet names no summary by 班级

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        m = SPLIT_RX.search(text)
        if m is None:
            return None
        keyed = [h for h in hits if h.column not in sheet.numeric and (KEY_BEFORE.search(text[max(0, h.start - 12) : h.start])
                                                                      or ONE_EACH.search(text[max(0, h.start - 4) : h.start])
                                                                      or m.start() <= h.start < m.end())]
        by = keyed[0].column if len(keyed) == 1 else None
        spans = [m.span(), *((h.start, h.end) for h in keyed[:1])]
        before = KEY_BEFORE.search(text[max(0, keyed[0].start - 12) : keyed[0].start]) if keyed else None
        if before is not None:
            spans.append((keyed[0].start - len(before.group(0)), keyed[0].start))
        spans += [w.span() for w in WRITTEN.finditer(text)]
        return Found(m.start(), self.name, {"by": by}, tuple(spans))

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        return said_in(lang, f"按 {args.get('by')} 的每个值拆成一个工作表，写入 outputs/ 下的新 xlsx（每行只在一个工作表里）",
                       f"split the rows into sheets, one for each {args.get('by')}, in a new xlsx in outputs/ (each row on one sheet)")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "拆分"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        stem = output_stem(ctx.request, ctx.labels or "拆分") if ctx.request is not None else "拆分"
        return [StepSpec("按列拆成多个工作表", "split_to_sheets", "导出成功", {"by": args["by"], "stem": stem})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "split_to_sheets":
            return None
        shown = ("、" if lang == "zh" else ", ").join(f"{k} {v}" for k, v in list(facts["counts"].items())[:12])
        more = said_in(lang, "……", " …") if len(facts["counts"]) > 12 else ""
        return said_in(lang, f"已按 {facts['by']} 拆成 {facts['sheet_count']} 个工作表（{shown}{more}，共 {facts['rows']:,} 行）。",
                       f"Split by {facts['by']} into {facts['sheet_count']} sheets ({shown}{more}; {facts['rows']:,} rows).")
