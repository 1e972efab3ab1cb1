"""Rolling average: 销售额的7日移动平均 / 近7天滚动平均 / 3个月移动平均 / rolling 7-day average of amount / 4-week moving average.

A measure totalled per day (week, month) along a date column, every period between the first and the last one
(a period with no rows totals 0), then the average of the last N periods at each period; the first N-1 periods have
no full window and are left blank. With no measure named and a count word (订单数 / number of orders), the rows
of each period are counted; 各门店 / per store gives each store its own rolling average."""

from __future__ import annotations

import re
from typing import Any

from modes.ops import _id_like
from modes.opspec import Found, OpSpec, PlanContext, Slot, StepSpec, operation, said_in
from modes.opspecs.analysis import COUNT_WORDS, _by_keys, _cols, _date_column, _free, unquoted
from modes.opspecs.analysis import _lazy as lazy
from modes.text import chinese_int
from tools.fmt import num

N = r"\d{1,3}|十二|十四|三十|[一两二三四五六七八九十]"
UNIT_ZH = {"天": "day", "日": "day", "周": "week", "星期": "week", "个月": "month", "月": "month"}
ZH_WINDOW = rf"(?:近|最近|过去|前)?\s*(?P<n>{N})\s*(?P<u>天|日|周|个?星期|个月|月)"
ZH = lazy(rf"(?:{ZH_WINDOW}\s*(?:的|内的?)?\s*)?(?:移动|滚动|滑动)(?:平均|均值)(?:值|数|线)?|(?P<n2>{N})\s*(?P<u2>日|天|周)均线")
EN_WINDOW = r"(?P<n>\d{1,3})[- ]?(?P<u>day|week|month)s?"
EN = lazy(rf"(?<![a-z_])(?:(?:{EN_WINDOW}\s+)?(?:rolling|moving|trailing)\s+(?:(?P<n2>\d{{1,3}})[- ]?(?P<u2>day|week|month)s?\s+)?(?:average|mean|avg)"
          rf"(?:\s+(?:over|across|of)\s+(?:the\s+)?(?:last\s+|past\s+)?(?P<n3>\d{{1,3}})\s+(?P<u3>day|week|month)s?)?)(?![a-z_])", re.I)
APART = lazy(rf"(?<![\d.])(?P<n>{N})\s*(?P<u>天|日|周|个?星期|个月|月)|(?<![\d.])(?P<n2>\d{{1,3}})[- ]?(?P<u2>day|week|month)s?(?![a-z])", re.I)
DAILY = lazy(r"每天|每日|逐日|按天|按日|(?<![a-z_])(?:daily|per day|each day|by day)(?![a-z_])", re.I)
WINDOW_ANSWER = lazy(rf"^\s*(?:{N})\s*(?:天|日|周|个?星期|个月|月)?\s*$|^\s*\d{{1,3}}[- ]?(?:(?:day|week|month)s?)?\s*$", re.I)
UNIT_WORD = {"day": ("日", "day"), "week": ("周", "week"), "month": ("个月", "month")}
UNIT_BARE = {"day": "天", "week": "周", "month": "月"}
PER_ZH = {"day": "每天", "week": "每周", "month": "每月"}


def _n(said: str) -> int:
    return int(said) if said.isdigit() else chinese_int(said) or 0


def _unit(said: str) -> str:
    word = said.lower().replace("个星期", "星期")
    return UNIT_ZH.get(word) or (word if word in UNIT_WORD else "day")


@operation
class Rolling(OpSpec):
    name = "rolling"
    family = "explore"
    label = {"zh": "移动平均", "en": "rolling average"}
    words = {"zh": ("移动平均", "滚动平均", "滑动平均"), "en": ("rolling average", "moving average", "rolling mean")}
    slots = (Slot("value", "column", "要算哪一列的移动平均？", "Rolling average of which column?", numeric=True, required=False),
             Slot("column", "column", "按哪一个日期列？", "Along which date column?", gap="date_column", fits="date"),
             Slot("window", "number", "按几天（几周、几个月）移动平均？", "Over how many days (weeks, months)?", gap="window"))
    saves_result = True
    main_slot = "value"
    precedence = 2  # the 平均 / average of 移动平均 is this operation's, never a plain mean

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        m = unquoted(ZH, text) or unquoted(EN, text)
        if m is None:
            return None
        used = [m.span()]
        said = next(((m.group(n), m.group(u)) for n, u in (("n", "u"), ("n2", "u2"), ("n3", "u3")) if n in m.re.groupindex and m.group(n)), None)
        if said is None:  # the window written apart: 移动平均，7天 (an answer joined to the request) / moving average, 7 days
            w = APART.search(text, m.end())
            if w:
                said = (w.group("n") or w.group("n2"), w.group("u") or w.group("u2"))
                used.append(w.span())
        args: dict[str, Any] = {"column": _date_column(hits, sheet)}
        keys, by_spans = _by_keys(text, hits, sheet, used)  # 各门店的… / … per store: each store's own rolling average
        keys = [k for k in keys if k not in sheet.dates]
        if keys:
            args["by"] = keys
            used += by_spans
        args["unit"] = _unit(said[1]) if said else "day"
        if said:
            args["window"] = _n(said[0])
        daily = DAILY.search(text)
        if daily:
            used.append(daily.span())
        counted = [c.span() for c in COUNT_WORDS.finditer(text)]
        # 订单数 / number of orders counts rows: the order_id it names is what is counted, never a measure summed
        values = [h for h in _cols(hits, sheet, used, numeric=True)
                  if h.column not in sheet.dates and not (_id_like(h.column, sheet) and counted) and _free(counted, h.start, h.end)]
        if values:
            args["value"] = values[0].column
        elif counted:
            args["count"] = True
            used += counted
        used += [(h.start, h.end) for h in hits if h.column in (args.get("column"), args.get("value"))]
        return Found(m.start(), self.name, args, tuple(used))

    def gaps(self, args: dict[str, Any]) -> list[str]:
        return ((["value"] if not args.get("value") and not args.get("count") else []) + (["date_column"] if not args.get("column") else [])
                + (["window"] if not args.get("window") else []))

    def answer_word(self, slot: str, text: str) -> str | None:
        if slot == "window" and WINDOW_ANSWER.match(text):  # 7 / 7天 / 7 days, to "Over how many days?"
            said = text.strip()
            return said if not said.isdigit() else said + ("天" if re.search(r"[\u4e00-\u9fff]", said) else " days")
        return None

    def answer_join(self, slot: str, words: str, args: dict[str, Any], lang: str = "zh") -> str:
        return f"，{words}" if lang == "zh" else f", {words}"

    def question(self, slot: str, lang: str) -> str | None:
        if slot == "value":
            return said_in(lang, "要算哪一列的移动平均？（也可以回答“行数”，即每期的行数）", "Rolling average of which column? (or “count”, the rows per period)")
        return super().question(slot, lang)

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        n, unit = args.get("window"), args.get("unit") or "day"
        zh_unit, en_unit = UNIT_WORD[unit]
        before = max((n or 1) - 1, 0)
        by = args.get("by") or []
        if lang == "zh":
            what = f"{args['value']} 合计" if args.get("value") else "行数"
            apart = f"每个 {'、'.join(by)} 分别" if by else ""
            return (f"{apart}按 {args.get('column')} 计算{PER_ZH[unit]}的 {what}（没有记录的{UNIT_BARE[unit]}按 0 计），"
                    f"再取截至当期 {n}{zh_unit}的移动平均（前 {before} 期不足 {n}{zh_unit}，留空）")
        what = f"total {args['value']}" if args.get("value") else "count the rows"
        apart = f" for each {', '.join(by)} apart" if by else ""
        return (f"{what} per {en_unit} along {args.get('column')} ({en_unit}s with no rows count as 0), then the {n}-{en_unit} rolling "
                f"average up to each {en_unit} (the first {before} have no full window and stay blank){apart}")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "移动平均"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("计算移动平均", "rolling_average", "移动平均已算出",
                         {"column": args["column"], "value": args.get("value"), "window": int(args["window"]), "unit": args.get("unit") or "day",
                          **({"by": list(args["by"])} if args.get("by") else {})})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "rolling_average":
            return None
        zh_unit, en_unit = UNIT_WORD[facts["unit"]]
        what = facts["value"] or said_in(lang, "行数", "the row count")
        last = facts.get("last")
        empty = said_in(lang, f"其中 {facts['empty_periods']} 期没有记录，按 0 计。", f" {facts['empty_periods']} {en_unit}s had no rows and count as 0.") if facts["empty_periods"] else ""
        if facts.get("groups"):
            return said_in(lang, f"{facts['groups']} 组各 {facts['periods']} 期的 {what} {facts['window']}{zh_unit}移动平均已算出。{empty}",
                           f"The {facts['window']}-{en_unit} rolling average of {what} over {facts['periods']} {en_unit}s for each of {facts['groups']} groups.{empty}")
        if not last:
            return said_in(lang, f"共 {facts['periods']} 期，不足 {facts['window']}{zh_unit}，算不出移动平均。{empty}",
                           f"{facts['periods']} {en_unit}s: fewer than {facts['window']}, so no rolling average.{empty}")
        return said_in(lang, f"共 {facts['periods']} 期；截至 {last['period']}，{what} 的 {facts['window']}{zh_unit}移动平均为 {num(last['average'], lang)}。{empty}",
                       f"{facts['periods']} {en_unit}s; the {facts['window']}-{en_unit} rolling average of {what} up to {last['period']} is {num(last['average'], lang)}.{empty}")
