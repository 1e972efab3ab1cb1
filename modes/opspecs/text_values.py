"""Text that holds numbers or dates, rewritten as them: 合同金额转换成数字 / 去掉千分位逗号, 签订日期转成日期格式,
convert 金额 to numbers."""

from __future__ import annotations

import re
from typing import Any

from modes.opspec import Found, OpSpec, PlanContext, Slot, StepSpec, operation, said_in

KIND_WORDS = (
    ("number", r"(?:转换?成|转为|转换为|改成|改为|变成|转)\s*(?:数字|数值|数字格式|数值格式|数值型|数字型)|去掉?\s*千分位(?:逗号|分隔符)?"
               r"|(?<![a-z_])(?:convert|change|turn)\b[^,;.]*?\bto\s+(?:numbers?|numeric)(?![a-z_])"),
    ("date", r"(?:转换?成|转为|转换为|改成|改为|变成|转)\s*(?:日期|日期格式|日期型)|(?<![a-z_])(?:convert|change|turn)\b[^,;.]*?\bto\s+dates?(?![a-z_])"),
)
CLAUSE_END = re.compile(r"[，,；;。]|再|然后|接着|(?<![a-z_])then(?![a-z_])", re.I)
KIND_RX = re.compile("|".join(f"(?P<{k}>{p})" for k, p in KIND_WORDS), re.I)
KIND_ZH = {"number": "数字", "date": "日期"}
KIND_EN = {"number": "numbers", "date": "dates"}


@operation
class TextValues(OpSpec):
    name = "text_values"
    family = "transform"
    label = {"zh": "文本转数字/日期", "en": "text to numbers or dates"}
    words = {"zh": ("转换成数字", "转成日期"), "en": ("convert to numbers", "convert to dates")}
    slots = (Slot("columns", "columns", "要把哪一列转换？", "Convert which column?", gap="convert_columns"),)
    saves_result = True
    main_slot = "columns"
    precedence = 1  # 转成数字 names a kind of value, never a value to write (改成X) or a file format (转成excel)

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        """The conversion words and the columns named before them (any column: a text column is what needs it)."""
        found = list(KIND_RX.finditer(text))
        if not found:
            return None
        kinds = {k for m in found for k, _ in KIND_WORDS if m.group(k)}
        if len(kinds) > 1:
            return None  # numbers and dates at once: two requests, left to the question
        # 面积先转成数字，再按区域求平均: the columns of the conversion's own clause; the next step reads the rest
        lo = max((x.end() for x in CLAUSE_END.finditer(text, 0, found[0].start())), default=0)
        nxt = CLAUSE_END.search(text, found[-1].end())
        hi = nxt.start() if nxt else len(text)
        own = [h for h in hits if lo <= h.start < hi] or hits
        args: dict[str, Any] = {"kind": kinds.pop(), "columns": list(dict.fromkeys(h.column for h in own))}
        return Found(found[0].start(), self.name, args, (*(m.span() for m in found), *((h.start, h.end) for h in own)))

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        cols = args.get("columns") or []
        kind = args.get("kind", "number")
        return said_in(lang, f"把 {'、'.join(cols)} 列的文本转换成{KIND_ZH[kind]}，另存为新文件（原文件不变）",
                       f"convert {', '.join(cols)} to {KIND_EN[kind]} in a new file (the source is not changed)")

    def stem_label(self, args: dict[str, Any]) -> str:
        return f"转{KIND_ZH.get(args.get('kind', ''), '值')}"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("文本转换", "convert_text_values", "转换完成", {"columns": list(args["columns"]), "kind": args["kind"]})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "convert_text_values":
            return None
        cols, kind = facts["columns"], facts["kind"]
        left = (f"；{facts['unread']} 个单元格不是{KIND_ZH[kind]}（{'、'.join(facts['examples'])}），保持原样" if facts["unread"] else "")
        left_en = (f"; {facts['unread']} cells are not {KIND_EN[kind]} ({', '.join(facts['examples'])}) and were kept as written"
                   if facts["unread"] else "")
        return said_in(lang, f"已把 {'、'.join(cols)} 转换成{KIND_ZH[kind]}：{facts['converted']:,} 个单元格{left}。",
                       f"Converted {', '.join(cols)} to {KIND_EN[kind]}: {facts['converted']:,} cells{left_en}.")
