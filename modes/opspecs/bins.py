"""Bins: 年龄按10岁分段统计人数 / 价格按0-100、100-500、500以上分段 / bin price into 0-100,100-500,500+ / bin age by 10.

The rows of a numeric column counted per range: ranges of one width from the lowest value, or between the edges said
(each range holds its lower edge, not its upper one; 500以上 / 500+ has no end)."""

from __future__ import annotations

import re
from typing import Any

from modes.opspec import Found, OpSpec, PlanContext, Slot, StepSpec, operation, said_in
from modes.text import tidy

NUM = r"-?\d+(?:\.\d+)?"
RANGE = rf"{NUM}\s*(?:-|~|～|—|到|至)\s*{NUM}"
TOP = rf"{NUM}\s*(?:\+|以上|及以上|或以上|and (?:above|up|over)|or more)"
EDGES = rf"(?P<edges>{RANGE}(?:\s*(?:,|，|、|;|；)\s*{RANGE})*(?:\s*(?:,|，|、|;|；)\s*{TOP})?)"
COUNTED = r"(?:\s*(?:后|之后|再)?\s*(?:统计|计算|算|数|看)?\s*(?:一下)?\s*(?:的)?(?:人数|个数|行数|数量|计数|条数|单数|分布|各有多少(?:人|个|行|条)?|有多少(?:人|个|行|条)?))?"
UNIT = r"(?:岁|元|块|分|天|个|件|年|月|kg|公斤|万)?"
ZH = re.compile(
    rf"(?P<col>[^\s，,；;：:]{{1,30}}?)\s*(?:(?:按|以|每)\s*(?P<width>{NUM})\s*{UNIT}\s*(?:为)?\s*(?:一档|一段|一组|一个区间|为一段|为一组)?\s*"
    rf"(?:分段|分组|分档|划分|切分|一段|一档)|(?:按|按照|分成|分为|划分为|切成)\s*{EDGES}\s*(?:几段|这几段|区间)?\s*(?:分段|分组|分档)?)" + COUNTED)
EN = re.compile(
    rf"(?<![a-z_])(?:bin|bucket|band)\s+(?:the\s+)?(?P<col>.{{1,30}}?)\s+(?:(?:in|of)\s+\S+\s+)?(?:(?:by|in(?:to)? bins of|in steps of|with (?:a )?width(?: of)?)\s+(?P<width>{NUM})"
    rf"|into\s+(?:the\s+)?(?:ranges\s+|bins\s+)?{EDGES})" + r"(?:\s+and\s+count(?:\s+(?:the\s+)?rows)?)?", re.I)


@operation
class Bins(OpSpec):
    name = "bin"
    family = "explore"
    label = {"zh": "分段统计", "en": "bins"}
    words = {"zh": ("分段", "分档"), "en": ("bin", "bins")}
    slots = (Slot("column", "column", "按哪一列分段？", "Bin which column?", gap="bin_column"),)
    saves_result = True
    main_slot = "column"
    precedence = 2  # 按10岁 is the bins' width, never a group key

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        for m in (*ZH.finditer(text), *EN.finditer(text)):
            col = next((h for h in reversed(hits) if m.start("col") <= h.start and h.end <= m.end("col")), None)
            if col is None or col.column not in sheet.numeric:
                continue
            args: dict[str, Any] = {"column": col.column}
            if m.group("width"):
                args["width"] = tidy(float(m.group("width")))
            else:
                edges, top = _edges(m.group("edges"))
                if not edges:
                    continue
                args.update(edges=edges, open_top=top)
            start = m.start() if m.re is EN else col.start  # bin amount …: the verb is the operation's word too
            return Found(start, self.name, args, ((start, m.end()),))
        return None

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        col = args.get("column")
        if args.get("width") is not None:
            w = args["width"]
            return said_in(lang, f"把 {col} 按每 {w} 一段分段，统计每段的行数（含下限、不含上限）",
                           f"bin {col} in steps of {w} and count the rows per bin (lower edge in, upper edge out)")
        shown = _shown(args.get("edges") or [], bool(args.get("open_top")))
        return said_in(lang, f"把 {col} 按 {'、'.join(shown)} 分段，统计每段的行数（含下限、不含上限）",
                       f"bin {col} into {', '.join(shown)} and count the rows per bin (lower edge in, upper edge out)")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "分段"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        how = {"width": args["width"]} if args.get("width") is not None else {"edges": list(args["edges"]), "open_top": bool(args.get("open_top"))}
        return [StepSpec("分段计数", "bin_counts", "统计完成", {"column": args["column"], **how})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "bin_counts":
            return None
        out_zh = f"另有 {facts['out_of_range']} 行不在任何一段里。" if facts["out_of_range"] else ""
        out_en = f" {facts['out_of_range']} rows fall outside every bin." if facts["out_of_range"] else ""
        blank_zh = f"{facts['blank_rows']} 行为空或不是数字，没有计入。" if facts["blank_rows"] else ""
        blank_en = f" {facts['blank_rows']} blank or non-numeric rows were not counted." if facts["blank_rows"] else ""
        return said_in(lang, f"{facts['column']} 分为 {facts['bins']} 段，共计入 {facts['binned']:,} 行（每段含下限、不含上限）。{out_zh}{blank_zh}",
                       f"{facts['column']} in {facts['bins']} bins, {facts['binned']:,} rows counted (each bin holds its lower edge, not its upper).{out_en}{blank_en}")


def _edges(said: str) -> tuple[list[float], bool]:
    """0-100、100-500、500以上 -> ([0, 100, 500], True): the boundaries, and whether the last range has no end."""
    parts = [p.strip() for p in re.split(r"[,，、;；]", said) if p.strip()]
    top = bool(parts) and re.fullmatch(TOP, parts[-1], re.I) is not None
    nums: list[float] = []
    for p in parts:
        pair = re.fullmatch(rf"({NUM})\s*(?:-|~|～|—|到|至)\s*({NUM})", p)  # 0-100: the dash joins, it is no sign
        one = re.match(NUM, p)
        nums += [float(pair.group(1)), float(pair.group(2))] if pair else [float(one.group(0))] if one else []
    return [tidy(x) for x in sorted(set(nums))], top


def _shown(edges: list[float], top: bool) -> list[str]:
    bounds = [tidy(e) for e in edges]
    shown = [f"{a}-{b}" for a, b in zip(bounds, bounds[1:], strict=False)]
    return shown + ([f"{bounds[-1]}+"] if top and bounds else [])
