"""Round the numbers of the table: 保留整数 / 保留两位小数 / 四舍五入到1位 / round to 2 decimals / no decimals."""

from __future__ import annotations

import re
from typing import Any

from modes.opspec import Found, OpSpec, PlanContext, StepSpec, operation, said_in

ZH_DIGITS = {"零": 0, "一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6}
N = r"(?:\d|[零一两二三四五六])"
EN_OBJECT = r"(?:\s+(?:it|them|that|those|these|everything|all|off|up|the\s+(?:numbers|figures|values|results?|amounts?|averages?|totals?|means?)))"
EN_VERB_AT = r"(?:^\s*|(?<=[,;.:])\s*|(?<![a-z_])(?:and|then|please|also|just|now|pls|can you|could you)\s+)"  # round as the verb said
ROUND_RX = re.compile(
    rf"(?:保留|四舍五入(?:到|保留|成|为)?|精确到|取)\s*(?P<zn>{N})\s*位(?:小数)?|小数点?后\s*(?P<zn2>{N})\s*位"
    r"|(?P<zint>保留整数|取整数?|四舍五入(?:到|成|为)?整数|(?:不要|不保留|去掉|不留)\s*小数(?:点|部分)?|四舍五入)"
    # round to 2 decimals / round liters to whole numbers: the target said (never the other way round, all year round)
    rf"|(?<![a-z_])round(?:ed)?(?:{EN_OBJECT}|\s+(?P<obj>[a-z_][\w ]{{0,30}}?))?\s+to\s+(?:(?P<en>\d)\s*(?:dp|d\.p\.|decimal\s+places?|decimals?|places?|digits?)"
    r"|(?:the\s+)?(?:nearest\s+)?(?P<eint>whole\s+numbers?|integers?|whole|units?))(?![a-z_])"
    # and round them / round it off: the verb with its object (a bare "round" asks nothing)
    rf"|{EN_VERB_AT}round{EN_OBJECT}+(?=\s*(?:[,.;!?]|please|$))"
    r"|(?<![a-z_])(?P<eint2>no\s+decimals?|without\s+decimals?|(?:as|to|in)\s+whole\s+numbers?|drop\s+the\s+decimals?)(?![a-z_])",
    re.I,
)


def digits_of(m: re.Match[str]) -> int:
    for g in ("zn", "zn2", "en"):
        d = m.group(g)
        if d:
            return int(d) if d.isdigit() else ZH_DIGITS[d]
    return 0


def _after_summary(columns: list[str], ctx: PlanContext) -> list[str]:
    """The names the columns have when the rounding runs: after a summary, its figures of them (配件费 → 配件费_平均)."""
    from tools.ops import measure_name

    g = ctx.request.op("group") if ctx.request is not None else None
    measures = [m for m in (g.args.get("measures") or []) if m.get("column")] if g is not None else []
    if not measures:
        return columns
    lang = getattr(ctx.request, "lang", "zh")
    out = [measure_name(m["column"], m["agg"], lang) for c in columns for m in measures if m["column"] == c]
    return list(dict.fromkeys(out)) or columns


@operation
class RoundNumbers(OpSpec):
    name = "round_numbers"
    family = "transform"
    label = {"zh": "四舍五入", "en": "round"}
    saves_result = True  # (read by modes.ops before any column is, so that 保留 is never columns kept; no `words`, so the
    # rest of the request is read as it would be without it: 按维修厂算平均配件费，保留整数 is that summary, rounded)

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        m = ROUND_RX.search(text)
        if m is None:
            return None
        return Found(m.start(), self.name, {"digits": digits_of(m)}, (m.span(),))

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        n = int(args.get("digits") or 0)
        cols = list(args.get("columns") or [])
        zh = f"{'、'.join(cols)} " if cols else "数字列"
        en = f"{', '.join(cols)}" if cols else "the number columns"
        return said_in(lang, f"{zh}四舍五入到整数" if n == 0 else f"{zh}四舍五入，保留 {n} 位小数",
                       f"round {en} to whole numbers" if n == 0 else f"round {en} to {n} decimals")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "取整" if not args.get("digits") else "四舍五入"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        cols = {"columns": _after_summary(list(args["columns"]), ctx)} if args.get("columns") else {}
        return [StepSpec("四舍五入", "round_numbers", "数字已四舍五入", {"digits": int(args.get("digits") or 0), **cols})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "round_numbers":
            return None
        cols = facts["columns"]
        n = facts["digits"]
        if not cols:
            return said_in(lang, "没有带小数的数字列，不用四舍五入。", "No number column has decimals; nothing to round.")
        how_zh = "整数" if n == 0 else f" {n} 位小数"
        how_en = "whole numbers" if n == 0 else f"{n} decimals"
        return said_in(lang, f"已把 {'、'.join(cols)} 四舍五入到{how_zh}。", f"Rounded {', '.join(cols)} to {how_en}.")
