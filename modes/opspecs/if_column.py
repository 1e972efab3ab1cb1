"""IF columns: 新增一列：销售额大于1000为大单，否则小单 / add a column tier = high if amount > 1000 else low.

One label where a column compared with a number holds, another elsewhere; the rows it labels are every row (nothing
is filtered), and a row whose value is blank or not a number is left blank and counted."""

from __future__ import annotations

import re
from typing import Any

from modes.opspec import Found, OpSpec, PlanContext, Slot, StepSpec, operation, said_in
from modes.text import parse_number, tidy

# the comparison words, longest first, and the comparison each says
CMP_ZH = (("大于等于", "ge"), ("小于等于", "le"), ("不低于", "ge"), ("不少于", "ge"), ("不高于", "le"), ("不超过", "le"), ("大于", "gt"),
          ("高于", "gt"), ("超过", "gt"), ("多于", "gt"), ("小于", "lt"), ("低于", "lt"), ("少于", "lt"), ("不等于", "ne"), ("等于", "eq"),
          (">=", "ge"), ("<=", "le"), ("!=", "ne"), (">", "gt"), ("<", "lt"), ("=", "eq"))
CMP_EN = (("is at least", "ge"), ("at least", "ge"), ("is at most", "le"), ("at most", "le"), ("is greater than", "gt"),
          ("greater than", "gt"), ("is more than", "gt"), ("more than", "gt"), ("is above", "gt"), ("above", "gt"), ("is over", "gt"),
          ("over", "gt"), ("exceeds", "gt"), ("is less than", "lt"), ("less than", "lt"), ("is below", "lt"), ("below", "lt"),
          ("is under", "lt"), ("under", "lt"), (">=", "ge"), ("<=", "le"), ("!=", "ne"), ("==", "eq"), (">", "gt"), ("<", "lt"),
          ("=", "eq"), ("is", "eq"))
LABEL = r"[\"“'‘「]?(?P<{g}>[^\s，,；;。\"”'’」]{{1,16}}?)[\"”'’」]?"
ZH = re.compile(
    r"(?:新增|增加|添加|加上?|生成)(?:一|1)?(?:个|列)(?:新?列)?\s*[：:，,]?\s*(?:(?:叫|名为|叫做)?\s*[\"“']?(?P<name>[\w\u4e00-\u9fff]{1,16}?)[\"”']?\s*[：:=＝]\s*)?"
    r"(?:如果|若|当)?\s*(?P<col>[^\s，,；;：:]{1,30}?)\s*(?P<op>" + "|".join(re.escape(w) for w, _ in CMP_ZH) + r")\s*(?P<num>-?\d+(?:\.\d+)?\s*[万千]?)\s*"
    r"(?:的)?(?:时|的话)?\s*[，,]?\s*(?:就|则)?(?:为|是|记为|标为|算|写|填)\s*" + LABEL.format(g="then") + r"\s*[，,；;]?\s*"
    r"(?:否则|其余|其他的?|其它的?|不然)(?:的)?(?:就|则)?(?:为|是|记为|标为|算|写|填)?\s*" + LABEL.format(g="otherwise") + r"(?=$|[\s，,；;。])")
EN = re.compile(
    r"(?<![a-z_])(?:add|create|make)\s+(?:a\s+)?(?:new\s+)?column\s+(?:called\s+|named\s+)?[\"']?(?P<name>\w+)[\"']?\s*(?:=|:|as|that is|which is)\s*"
    r"[\"']?(?P<then>\w+)[\"']?\s+(?:if|when|where)\s+(?P<col>.{1,30}?)\s*(?P<op>" + "|".join(re.escape(w) for w, _ in CMP_EN) + r")\s*"
    r"(?P<num>-?\d+(?:\.\d+)?)\s*,?\s*(?:else|otherwise)\s*[\"']?(?P<otherwise>\w+)[\"']?", re.I)
OP_ZH = {"gt": "大于", "ge": "大于等于", "lt": "小于", "le": "小于等于", "eq": "等于", "ne": "不等于"}
OP_EN = {"gt": ">", "ge": ">=", "lt": "<", "le": "<=", "eq": "=", "ne": "!="}


@operation
class IfColumn(OpSpec):
    name = "if_column"
    family = "transform"
    label = {"zh": "条件列", "en": "IF column"}
    words = {"zh": ("否则",), "en": ("else", "otherwise")}
    slots = (Slot("column", "column", "按哪一列判断？", "Which column does the condition read?", gap="if_column_column"),)
    saves_result = True
    main_slot = "column"
    precedence = 2  # the condition is the new column's, never a filter of the rows

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        m = ZH.search(text) or EN.search(text)
        if m is None:
            return None
        en = m.re is EN
        col = next((h for h in hits if m.start("col") <= h.start and h.end <= m.end("col")), None)
        if col is None or not re.fullmatch(r"\s*(?:the\s+)?", text[m.start("col") : col.start], re.I):
            return None
        value = parse_number(m.group("num").replace(" ", ""))
        if value is None:
            return None
        op = dict(CMP_EN if en else CMP_ZH)[m.group("op").casefold() if en else m.group("op")]
        name = m.group("name") or ("label" if en else "标签")
        args = {"name": name, "column": col.column, "op": op, "value": value, "then": m.group("then"), "otherwise": m.group("otherwise")}
        return Found(m.start(), self.name, args, ((m.start(), m.end()),))

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        v = tidy(args["value"]) if isinstance(args.get("value"), (int, float)) else args.get("value")
        return said_in(lang, f"新增列 {args.get('name')}：{args.get('column')} {OP_ZH.get(args.get('op', ''), '')} {v} 为“{args.get('then')}”，否则为“{args.get('otherwise')}”",
                       f"add column {args.get('name')}: '{args.get('then')}' if {args.get('column')} {OP_EN.get(args.get('op', ''), '')} {v}, else '{args.get('otherwise')}'")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "加列"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        keys = ("name", "column", "op", "value", "then", "otherwise")
        return [StepSpec("按条件新增列", "if_column", "新列已计算", {k: args[k] for k in keys})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "if_column":
            return None
        blank_zh = f"{facts['column']} 为空或不是数字的 {facts['blank_rows']} 行留空。" if facts["blank_rows"] else ""
        blank_en = f" {facts['blank_rows']} rows with a blank or non-numeric {facts['column']} were left blank." if facts["blank_rows"] else ""
        return said_in(lang, f"已新增列 {facts['added']}：“{facts['then']}” {facts['then_rows']:,} 行，“{facts['otherwise']}” {facts['otherwise_rows']:,} 行。{blank_zh}",
                       f"Added column {facts['added']}: '{facts['then']}' on {facts['then_rows']:,} rows, '{facts['otherwise']}' on {facts['otherwise_rows']:,}.{blank_en}")
