"""The condition grammar: comparisons, ranges, text matches, blanks, periods and value lists, in Chinese and English."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cache
from typing import Any

from modes import lexicon as lx
from modes.catalog import SheetInfo
from modes.lazyre import lazy
from modes.resolve import ColumnHit, find_values, resolve_column
from modes.text import CJK, NUMBER_RE, _number, normalize, parse_number, tidy

OP_ZH = {"eq": "等于", "ne": "不等于", "gt": "大于", "ge": "不低于", "lt": "小于", "le": "不超过", "between": "介于",
         "contains": "包含", "not_contains": "不包含", "in": "属于", "not_in": "不属于", "empty": "为空",
         "not_empty": "不为空", "startswith": "开头是", "endswith": "结尾是", "not_startswith": "开头不是", "not_endswith": "结尾不是", "numeric": "是数字（空值不算）",
         "not_numeric": "不是数字（空值不算）", "not_between": "不在", "blank_or_numeric": "是数字或为空",
         "blank_or_not_numeric": "不是数字或为空", "weekday_in": "在", "weekday_not_in": "不在"}
OP_EN = {"eq": "=", "ne": "≠", "gt": ">", "ge": "≥", "lt": "<", "le": "≤", "between": "between", "contains": "contains",
         "not_contains": "does not contain", "in": "in", "not_in": "not in", "empty": "is empty",
         "not_empty": "is not empty", "startswith": "starts with", "endswith": "ends with", "not_startswith": "does not start with",
         "not_endswith": "does not end with", "numeric": "is a number (blanks aside)",
         "not_numeric": "is not a number (blanks aside)", "not_between": "not between", "blank_or_numeric": "is a number or blank",
         "blank_or_not_numeric": "is not a number, or blank", "weekday_in": "on", "weekday_not_in": "not on"}


NO_VALUE = ("empty", "not_empty", "numeric", "not_numeric", "blank_or_numeric", "blank_or_not_numeric")


@dataclass(frozen=True)
class Cond:
    column: str | None
    op: str
    value: Any = None
    value2: Any = None
    raw: str = ""
    how: str = "exact"
    closest: tuple[str, ...] = ()

    def to_tool(self) -> dict[str, Any]:
        d: dict[str, Any] = {"column": self.column, "op": self.op}
        if self.op not in NO_VALUE:
            d["value"] = self.value
        if self.op in ("between", "not_between"):
            d["value2"] = self.value2
        return d

    def describe(self, lang: str = "zh") -> str:
        col = self.column or self.raw
        def show(v: Any) -> str:
            if isinstance(v, dict) and "stat" in v:
                zh = {"mean": "平均值", "median": "中位数", "min": "最小值", "max": "最大值"}.get(v["stat"], v["stat"])
                return (f"{v['column']} 的{zh}" if lang == "zh" else f"the {v['stat']} of {v['column']}")
            if isinstance(v, dict):
                return v.get("date") or v.get("column") or str(v)
            if isinstance(v, list):  # 包含 A 或 B: any of the words
                either = self.op in ("contains", "not_contains")
                return ((" 或 " if either else "、") if lang == "zh" else (" or " if either else ", ")).join(map(str, v))
            return str(tidy(v)) if isinstance(v, float) else str(v)
        if self.op in NO_VALUE:
            return f"{col}{OP_ZH[self.op]}" if lang == "zh" else f"{col} {OP_EN[self.op]}"
        if self.op == "between":
            return f"{col} 介于 {show(self.value)} 和 {show(self.value2)} 之间" if lang == "zh" else f"{col} between {show(self.value)} and {show(self.value2)}"
        if self.op == "not_between":
            return f"{col} 不在 {show(self.value)} 和 {show(self.value2)} 之间" if lang == "zh" else f"{col} not between {show(self.value)} and {show(self.value2)}"
        if self.op in ("weekday_in", "weekday_not_in"):  # 下单日期 在 周六、周日 / Date on Saturday, Sunday
            names = weekday_names(self.value, lang)
            return f"{col} {OP_ZH[self.op]} {names}" if lang == "zh" else f"{col} {OP_EN[self.op]} {names}"
        if self.op == "not_contains" and isinstance(self.value, list):  # contains none of the words
            return f"{col} 不包含 {'、'.join(map(str, self.value))} 中的任何一个" if lang == "zh" else f"{col} contains none of {', '.join(map(str, self.value))}"
        words = OP_ZH if lang == "zh" else OP_EN
        return f"{col} {words[self.op]} {show(self.value)}"


@dataclass
class CondParse:
    conds: list[Cond] = field(default_factory=list)
    logic: str = "and"
    spans: list[tuple[int, int]] = field(default_factory=list)
    mixed: bool = False  # or between some conditions, and between others
    years_listed: bool = False  # a period read from years listed one after another (2023年和2024年)

    @property
    def unresolved(self) -> list[Cond]:
        return [c for c in self.conds if c.column is None]


def _alt(*ws: str) -> str:
    return "|".join(sorted((re.escape(w) for w in ws), key=len, reverse=True))


INFIX = [
    ("ge", _alt(">=", "≥", "=>", "大于等于", "大于或等于", "不低于", "不少于", "不小于", "至少", "不早于", "at least", "no less than", "greater than or equal to", "not less than", "no earlier than", "not before")),
    ("le", _alt("<=", "≤", "=<", "小于等于", "小于或等于", "不超过", "不高于", "不大于", "不多于", "至多", "不晚于", "不迟于", "at most", "no more than", "less than or equal to", "not more than", "no later than", "not after")),
    ("not_contains", _alt("不包含", "不含有", "不含", "不带", "does not contain", "doesn't contain", "not containing", "without")
     + r"|(?:(?:的)?(?:名字|名称|文字|字)?(?:里面|里头|里|中)(?:不带|不含|没有|没带))"),  # 食材名字里不带肉
    ("ne", _alt("!=", "≠", "<>", "不等于", "不是", "不为", "is not", "isn't", "not equal to", "is neither", "neither", "not")),
    ("gt", _alt(">", "大于", "超过", "高于", "多于", "晚于", "greater than", "more than", "above", "over", "higher than", "larger than", "bigger than", "exceeds", "exceeding", "longer than")),
    ("lt", _alt("<", "小于", "低于", "不到", "少于", "早于", "less than", "below", "under", "lower than", "smaller than", "fewer than", "shorter than")),
    ("contains", _alt("包含", "含有", "带有", "contains", "containing", "including", "like")
     # 食材名字里带肉 / 名称中含鸡: a part of the text said with 带 / 含 / 有 after where it is (never 带上, 含税)
     + r"|(?:(?:的)?(?:名字|名称|文字|字)?(?:里面|里头|里|中)(?:带有|含有|包含|带|含|有))(?![上着出回过来去税量些多几哪什没空重])"),
    ("eq", _alt("==", "=", "等于", "是", "为", "equals", "equal to", "is", "of")),
]
MAX_COMPARISONS = 32
QUOTES = r"[\s'\"“”‘’「」『』]*"  # a quoted column name ('成交量'小于10000) ends at its closing quote
STATS = {"平均": "mean", "平均值": "mean", "平均数": "mean", "平均水平": "mean", "均值": "mean", "average": "mean", "the average": "mean",
         "mean": "mean", "the mean": "mean"}
STAT_REF = lazy(r"(?:" + lx.OVERALL + r")?(?P<stat>the average|the mean|平均水平|平均值|平均数|平均|均值|average|mean)(?![a-z_])", re.I | re.A)
QUESTION_VALUE = lazy(r"(?:什么|啥|哪|谁|多少|几|怎样|如何|否|吗|(?:what|which|how|who|whom|whose)(?![a-z_]))", re.I | re.A)
ANY_OP = lazy(r"\s*(?:" + "|".join(p for _, p in INFIX[:-1]) + ")", re.I | re.A)
INFIX_RE = [(op, lazy(pat, re.I | re.A)) for op, pat in INFIX]
ARTICLES = {"the", "a", "an", "all", "any", "some", "this", "that", "these", "those", "its", "their", "each", "every"}
WEAK = {"是", "为", "is", "of", "not", "over", "under", "like", "without", "above", "below"}
POSTFIX = [
    ("ge", _alt("及以上", "或以上", "以上", "或更高", "或更多", "or more", "or above", "and above", "and up", "or higher", "or greater",
                "and higher", "or over", "or better", "+")),
    ("le", _alt("及以下", "或以下", "以下", "或更低", "或更少", "or less", "or below", "and below", "and under", "or lower", "or fewer",
                "and lower", "or under", "or worse")),
]
DATE_AFTER = _alt("以后", "之后", "以来", "起", "开始", "后", "since", "from", "onwards", "or later")
DATE_BEFORE = _alt("以前", "之前", "前", "before", "until", "earlier")
EMPTY = [
    ("not_empty", _alt("不为空", "不是空", "非空", "不为空白", "有值", "已填", "填了", "不空", "is not empty", "not empty", "not blank", "is not blank", "is not null", "not null", "non-empty", "non empty", "is filled", "has a value", "present")),
    ("empty", _alt("为空", "是空的", "是空", "空着", "没填", "未填", "没有填", "缺失", "空白", "为空白", "空的", "is empty", "is blank", "is missing", "is null", "are empty", "are blank", "empty", "blank", "missing")),
    ("empty", r"(?<![清放腾掏落架])空(?![\u4e00-\u9fff])"),  # 不要渠道空 (空渠道 said the other way round): the column's blanks (清空 clears)
]
_DATE_TEXT = r"(?:19|20)\d{2}\s*(?:年|-|/|\.)?\s*(?:(?:1[0-2]|0?[1-9])\s*(?:月|-|/|\.)?\s*(?:(?:3[01]|[12]\d|0?[1-9])\s*(?:日|号)?)?)?"
# 9月以后（含9月） / 3月1日之前(不含): the bound's own note on whether the day or month said is in, read with it
INCLUDED_NOTE = r"(?:\s*[（(]\s*(?:含|包含|包括)[^（()）]{0,12}[)）])?"
DATE_WORD_FORMS = (
    lazy(r"(?P<d>" + _DATE_TEXT + r")\s*(?:(?:当天|当日)?\s*(?:及|或|以及)\s*)?(?P<w>" + DATE_AFTER + "|" + DATE_BEFORE + ")" + INCLUDED_NOTE, re.I | re.A),
    lazy(r"(?<![a-z_])(?P<w>on or after|on or before|no earlier than|no later than|not before|not after|"
         r"after|since|from|later than|before|until|earlier than|prior to)\s+"
               r"(?P<d>(?:19|20)\d{2}(?:[-/.]\d{1,2}(?:[-/.]\d{1,2})?)?)(?!\d)", re.I | re.A),
)
YEAR_ALONE = lazy(
    r"(?P<y>(?:19|20)\d{2})\s*年\s*(?:(?P<m>1[0-2]|0?[1-9])\s*月份?)?(?!\s*(?:以后|之后|以前|之前|后|前|起|开始|以来|到|至|和|与|-|\d|第|Q|q|上半|下半))"
    r"|(?<![a-z_])(?:in|during|for|only|only in)\s+(?P<y2>(?:19|20)\d{2})(?![\d-])(?!\s*(?:to|through|until)(?![a-z_]))"
    r"|(?<![\w.-])(?P<y3>(?:19|20)\d{2})\s+only(?![a-z_])",
    re.I | re.A,
)
BEFORE_WORDS = {"以前", "之前", "前", "before", "until", "earlier", "earlier than", "prior to"}
UP_TO_WORDS = {"on or before", "no later than", "not after"}  # the day said is kept: before the day after it
STRICT_AFTER = {"after", "later than"}
DATE_RE = lazy(r"(?P<y>(?:19|20)\d{2})\s*(?:年|-|/|\.)?\s*(?:(?P<m>1[0-2]|0?[1-9])\s*(?:月|-|/|\.)?\s*(?:(?P<d>3[01]|[12]\d|0?[1-9])\s*(?:日|号)?)?)?(?!\d)")
QUARTER_RE = lazy(r"(?:(?P<y>(?:19|20)\d{2})\s*年?\s*)?(?:(?<![a-z_])Q|第(?=\s*[1-4一二三四]\s*季)|(?<![\d一二三四五六七八九十第个])(?=[1-4一二三四]\s*季度))\s*(?P<q>[1-4一二三四])(?![\da-z_])\s*(?:季度)?"
                  r"(?:\s*(?:of\s+)?(?P<y2>(?:19|20)\d{2})(?![\d年]))?", re.I | re.A)  # 第一党派 is no quarter
RELATIVE_RE = lazy(r"今年|本年|去年|本月|这个月|上个月|上月|上个季度|上一季度|上季度|本季度|这个季度|this year|last year|this month|last month|last quarter|this quarter",
                   re.I | re.A)
HALF_RE = lazy(r"(?:(?P<y>(?:19|20)\d{2})\s*年?\s*)?(?P<h>上半年|下半年|first half|second half|(?<![a-z0-9_])H1(?![a-z0-9_])|(?<![a-z0-9_])H2(?![a-z0-9_]))"
               r"(?:\s*(?:of\s+)?(?P<y2>(?:19|20)\d{2})(?![\d年]))?", re.I | re.A)
RIGHT_STRIP = lazy(r"(?:的.*|人$|店$|行$|记录$|数据$|订单$|的行$)")


def _article(value: str, col: str | None, sheet: SheetInfo) -> bool:
    """"the score of the …": an English article is not a value, unless the column holds it (等级是A)."""
    if value.strip() == "A":
        return False  # 等级是A或B: a capital A written as a value is the value
    v = value.strip().casefold()
    return v in ARTICLES and not any(str(x).casefold() == v for x in sheet.values.get(col or "", ()))


def _period(m_y: str | None, m_m: str | None, m_d: str | None) -> tuple[date, date]:
    y = int(m_y or date.today().year)
    if m_d:
        d = date(y, int(m_m or 1), int(m_d))
        return d, date.fromordinal(d.toordinal() + 1)
    if m_m:
        mo = int(m_m)
        return date(y, mo, 1), (date(y + (mo == 12), mo % 12 + 1, 1))
    return date(y, 1, 1), date(y + 1, 1, 1)


def _iso(d: date) -> dict[str, str]:
    return {"date": d.isoformat()}


def _cjk_number_ok(m: re.Match[str], text: str) -> bool:
    """A number written in Chinese characters, not a word that starts with one (一下, 三角)."""
    num = m.group("num")
    if not CJK.match(num[0]):
        return False
    nxt = text[m.end() : m.end() + 1]
    return len(num) >= 2 or bool(m.group("unit")) or not nxt or not CJK.match(nxt) or nxt in "的元块个人名以左次岁分"


VALUE_JOIN = lazy(r"也不是|也不等于|又不是|也非|并且|而且|但是|同时|或者|以及|且|但|或|" + lx.SEQUENCE_WORDS)
SEQUENCE_START = lazy(r"(?:" + lx.SEQUENCE_WORDS + r"|(?:then|and|next|after that|afterwards)(?![a-z_]))", re.I | re.A)


def _date_form(m: re.Match[str], date_col: bool) -> bool:
    """Whether digits read as a date: a written date form (2024-05-01, 2024年5月, 2024/5) always; bare digits
    (19058, 2023.5) only against a date column, for a number compared with a numeric column is a number."""
    written = m.group(0)
    if re.search(r"[年月日号/]|-", written):
        return bool(m.group("m") or "年" in written or "-" in written)
    return date_col and bool(m.group("m"))


CLOCK_RE = lazy(r"(?:[01]?\d|2[0-3])[:：][0-5]\d(?:[:：][0-5]\d)?(?![\d:：])")


def _value_at(text: str, i: int, sheet: SheetInfo, hits: list[ColumnHit], date_col: bool = False) -> tuple[Any, int] | None:
    """The value that starts at text[i]: a column, a date, a number, a quoted string or a word."""
    while i < len(text) and text[i] == " ":
        i += 1
    for h in hits:
        if h.start == i:
            return {"column": h.column}, h.end
    m = STAT_REF.match(text, i + 1 if text[i : i + 1] == "了" else i)
    if m:  # 高于平均 / above the average 金额: compared with a figure of a column, computed on the data
        after = next((h for h in hits if h.column in sheet.numeric and re.fullmatch(r"\s*(?:的|of)?\s*", text[m.end() : h.start] if h.start >= m.end() else "x")), None)
        return {"stat": STATS[m.group("stat").casefold()], "column": after.column if after else None}, (after.end if after else m.end())
    m = DATE_RE.match(text, i)
    if m and _date_form(m, date_col) and not re.match(r"\d", text[m.end() : m.end() + 1]):
        start, _ = _period(m.group("y"), m.group("m"), m.group("d"))
        return _iso(start), m.end()
    m = CLOCK_RE.match(text, i)
    if m:  # 20:30 is a time of day, compared as one
        return m.group(0).replace("：", ":"), m.end()
    m = NUMBER_RE.match(text, i)
    if m and m.group(0).strip() and text[i : i + 1].isdigit():  # 成绩段为19-21: a value the data holds, written with digits, is that value
        held = next((v for v, _ in sheet.value_pairs if len(v) > len(m.group(0).strip()) and v[:1].isdigit() and text.startswith(v, i)
                     and not re.match(r"[\w.]", text[i + len(v) : i + len(v) + 1], re.A)), None)
        if held is not None:
            return held, i + len(held)
    if m and m.group(0).strip() and (m.group("num")[0].isdigit() or m.group("num")[0] == "-" or _cjk_number_ok(m, text)):
        v = _number(m)
        if v is not None:
            return tidy(v), m.end()
    m = re.match(r"[\"'“‘「](.+?)[\"'”’」]", text[i:])
    if m:
        return m.group(1), i + m.end()
    joined = _held_at(text, i, sheet)  # (创可贴（中盒） is read as 创可贴(中盒): the value as the text holds it, half-width)
    if joined is not None:  # 上海-武汉 / New York: a value the data holds, written with a hyphen or a space, whole
        return joined, i + len(joined)
    m = re.match(r"[A-Za-z0-9_.@\-]+(?: [A-Z][A-Za-z0-9]*)*|[\u4e00-\u9fffA-Za-z0-9_]+", text[i:])
    if m:
        word = m.group(0)
        if ". " in word and not any(v == word for v, _ in sheet.value_pairs):
            word = word.split(". ", 1)[0]  # is Y. How many …: a sentence ends at its full stop, the next one is no part of the value
        if CJK.match(word):
            word = VALUE_JOIN.split(word, maxsplit=1)[0] or word  # a value ends at a joining word (男且月薪高于平均 -> 男)
            listed = BLANK_AFTER.search(word)
            if listed is not None and listed.start() > 0 and not sheet.holds(word):
                word = word[: listed.start()]  # 线上和空的: the value, then its column's blanks listed with it
            word = _strip_tail(word, sheet)
        elif word.endswith(".") and word.rstrip(".") and not any(v == word for v, _ in sheet.value_pairs):
            word = word.rstrip(".")  # Branch not North. Total …: the sentence's full stop, never a part of the value
        return word, i + len(word)
    return None


def _left_column(text: str, end: int, hits: list[ColumnHit], sheet: SheetInfo) -> tuple[str | None, str, str, tuple[str, ...], int] | None:
    """The column written just before position `end`: (column, raw, how, closest, start)."""
    for h in hits:
        gap = text[h.end : end]
        if h.end <= end and re.fullmatch(QUOTES + r"\s*(?:列|的|字段|column)?\s*(?:里面|里的|中的|里|中|的)?\s*(?:is|are|是|为)?\s*", gap, re.I | re.A):
            return h.column, text[h.start : h.end], h.how, (), h.start
    before = text[:end]
    before = re.sub(r"(?:\s+(?:is|are|was|were|be|of)|是|为)?\s*$", "", before, flags=re.I | re.A)  # a rating of 4 or higher
    m = re.search(r"([\u4e00-\u9fff]{1,8}|[A-Za-z_][A-Za-z0-9_]*(?: [A-Za-z_][A-Za-z0-9_]*)?)$", before)
    if not m:
        return None
    raw = m.group(1)
    start = m.start(1)
    if CJK.match(raw):
        parts = re.split(r"筛选出?|筛出|筛|过滤|找出|挑出|选出|只看|只?保留|留下|里面?|中的|当中|的|把|将|所有|要|且|并且|和|或者|或|以及", raw)
        raw = parts[-1]
        start = m.end(1) - len(raw)
    else:
        words = raw.split(" ")
        if len(words) > 1 and words[0].casefold() in ("where", "with", "and", "or", "if", "when", "filter", "rows", "only", "the", "a", "an", "for", "whose", "their", "its"):
            raw = words[-1]
            start = m.end(1) - len(raw)
        if raw.casefold() in ("where", "with", "and", "or", "if", "when", "filter", "rows", "only", "the", "it", "that", "which", "is", "are"):
            return None
    if not raw:
        return None
    col, how, closest = resolve_column(raw, sheet)
    return col, raw, how, tuple(closest), start


@dataclass
class _Scan:
    """One condition parse in progress: the text, the sheet, the spans read so far and the conditions found."""

    text: str
    sheet: SheetInfo
    hits: list[ColumnHit]
    out: CondParse
    used: list[tuple[int, int]]
    shield: list[tuple[int, int]] = field(default_factory=list)  # spans a rule may not read (a column named 2019年 while reading periods)
    any_blank: tuple[int, int, str] | None = None  # rows with a blank in any column: its span and how its conditions join

    def free(self, a: int, b: int) -> bool:
        return not any(s < b and a < e for s, e in self.used + self.shield)

    def add(self, c: Cond, a: int, b: int) -> None:
        c = _in_column_unit(c, self.text[a : b + 6], self.sheet)
        self.out.conds.append(c)
        self.used.append((a, b))
        self.out.spans.append((a, b))

    def add_left(self, left: tuple[str | None, str, str, tuple[str, ...], int], op: str, value: Any, value2: Any, end: int) -> None:
        """A condition on the column written before the operator: from that column's start to `end`."""
        col, raw, how, closest, s = left
        sheet = self.sheet
        if col is not None and how != "exact" and op in ("gt", "ge", "lt", "le", "between", "not_between") and isinstance(value, (int, float)) \
                and not isinstance(value, bool) and col not in sheet.numeric and col not in sheet.dates:
            # deals between 50k and 80k, over Deal ID (text) and Amount: a figure compared is the one money column, never an id
            from modes import lexicon as lx

            money = [c for c in sheet.columns if c in sheet.numeric and lx.concept_of(c) in ("amount", "cost", "spend")]
            col, how, closest = (money[0], "synonym", ()) if len(money) == 1 else (None, "unknown", tuple(c for c in sheet.columns if c in sheet.numeric)[:3])
        self.add(Cond(col, op, value, value2, raw, how, closest), s, end)

    def add_period(self, m: re.Match[str], op: str, lo: date, hi: date | None) -> None:
        """A condition on the date column the period belongs to; `hi` is the first day after the period."""
        dated = [c for c in self.sheet.columns if c in self.sheet.dates]
        col = _date_column(self.text, m, self.hits, dated, self.sheet)
        value2 = _iso(date.fromordinal(hi.toordinal() - 1)) if hi is not None else None
        self.add(Cond(col[0], op, _iso(lo), value2, col[1], col[2], () if col[0] else tuple(dated)), m.start(), m.end())


# a length of time said in one unit, compared with a column that holds another (两个小时 / 2 hours against 候诊时长(分钟))
TIME_SAID = lazy(r"(?:\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)\s*(?:个)?\s*(?P<u>小时|钟头|分钟|天|周|hours?|hrs?|minutes?|mins?|days?|weeks?)(?![a-z_])", re.I)
TIME_UNITS = {"小时": 60, "钟头": 60, "hour": 60, "hours": 60, "hr": 60, "hrs": 60, "分钟": 1, "minute": 1, "minutes": 1, "min": 1, "mins": 1,
              "天": 1440, "day": 1440, "days": 1440, "周": 10080, "week": 10080, "weeks": 10080, "工时": 60}
COLUMN_TIME_UNIT = lazy(r"分钟|小时|工时|(?<![a-z])(?:minutes?|mins?|hours?|hrs?|days?)(?![a-z])|天数|(?<=\()天(?=\))", re.I)


def _in_column_unit(c: Cond, said: str, sheet: SheetInfo) -> Cond:
    """候诊超过两个小时, over 候诊时长(分钟): the bound in the column's own unit (120), said back as such."""
    if c.column is None or c.column not in sheet.numeric or c.op not in ("gt", "ge", "lt", "le", "between", "not_between", "eq", "ne") \
            or not isinstance(c.value, (int, float)) or isinstance(c.value, bool):
        return c
    t, cu = TIME_SAID.search(said), COLUMN_TIME_UNIT.search(c.column)
    if t is None or cu is None:
        return c
    said_u, col_u = TIME_UNITS.get(t.group("u").casefold()), TIME_UNITS.get(cu.group(0).casefold().replace("天数", "天"))
    if said_u is None or col_u is None or said_u == col_u:
        return c
    k = said_u / col_u
    v2 = tidy(c.value2 * k) if isinstance(c.value2, (int, float)) and not isinstance(c.value2, bool) else c.value2
    return replace(c, value=tidy(c.value * k), value2=v2)


# a unit a figure of a range may carry (1到2小时之间 / between 2 and 4 hours): the column's unit, or converted to it
RANGE_UNIT = r"(?:\s*(?:个)?(?:元|块钱?|小时|钟头|分钟|天|公斤|千克|公里|件|次|岁|颗星|星|(?<![a-z])(?:hours?|hrs?|h|minutes?|mins?|days?|kg|km|usd|dollars?)(?![a-z])))?"
RANGE_RE = lazy(r"(?:介于|在)?\s*(?P<a>[\d.,万千kK\-/年月]+)" + RANGE_UNIT + r"\s*(?:到|至|和|与|-|~)\s*(?P<b>[\d.,万千kK\-/年月]+)" + RANGE_UNIT + r"\s*之间"
                r"|介于\s*(?P<e>[\d.,万千kK]+)" + RANGE_UNIT + r"\s*(?:到|至|和|与|-|~)\s*(?P<f>[\d.,万千kK]+)" + RANGE_UNIT + r"(?:\s*之间)?"
                r"|between\s+(?P<c>\S+?)" + RANGE_UNIT + r"\s+and\s+(?P<d>\S+)", re.I | re.A)


def _cond_between(sc: _Scan) -> None:
    """在/介于 A 到/和 B 之间, between A and B."""
    text = sc.text
    for m in RANGE_RE.finditer(text) if re.search(r"之间|介于|between", text, re.I) else ():  # the word first: the pattern is cubic on 1-2-3-…
        a_raw, b_raw = next((m.group(x), m.group(y)) for x, y in (("a", "b"), ("e", "f"), ("c", "d")) if m.group(x))
        left = _left_column(text, m.start(), sc.hits, sc.sheet)
        on_dates = bool(left and left[0] in sc.sheet.dates)
        if a_raw and b_raw and all(re.fullmatch(r"(?:1[0-2]|0?[1-9])\s*月", x.strip()) for x in (a_raw, b_raw)):
            continue  # 在3月到5月之间: a month range, a period read by the month-range rule, never the numbers 3 and 5
        va, vb = _value_at(a_raw, 0, sc.sheet, [], on_dates), _value_at(b_raw, 0, sc.sheet, [], on_dates)
        if va is None or vb is None or not all(isinstance(v[0], (int, float, dict)) for v in (va, vb)):
            continue  # "between salary and hire_date" names columns, not a range
        if left and sc.free(m.start(), m.end()):
            sc.add_left(left, "between", va[0], vb[0], m.end())


NOT_BUT = lazy(r"不是\s*(?P<a>[^\s，,。是]{1,12}?)\s*[，,]?\s*(?:而|应该)?是\s*(?P<b>[^\s，,。的]{1,12})"
              r"|(?<![a-z_])not\s+(?P<a2>[^\s,]+)\s*,?\s*but\s+(?P<b2>[^\s,.]+)"
              r"|^\s*(?:no\s*[,，]?\s*)?not\s+(?P<a3>[^\s,，]+)\s*[,，]\s*(?P<b3>[^\s,.，。]+)\s*[.。]?\s*$"
              r"|^\s*(?P<b4>[^\s,，]+)\s*[,，]\s*not\s+(?P<a4>[^\s,.，。]+)\s*[.。]?\s*$", re.I | re.A)


def _cond_not_but(sc: _Scan) -> None:
    """不是华东，是华南 / not 华东 but 华南: two values of one column, the second one replaces the first."""
    for m in NOT_BUT.finditer(sc.text):
        a, b = next((m.group(f"a{k}"), m.group(f"b{k}")) for k in ("", "2", "3", "4") if m.group(f"a{k}"))
        col = next((c for c, vs in sc.sheet.values.items() if _canonical(a, vs) in vs and _canonical(b, vs) in vs), None)
        if col is not None and sc.free(m.start(), m.end()):
            sc.add(Cond(col, "eq", _canonical(b, sc.sheet.values[col]), raw=col), m.start(), m.end())


def _words_after_columns(sc: _Scan, table: list[tuple[str, str]] | tuple[tuple[str, str], ...], before: str) -> Iterator[
        tuple[str, re.Match[str], tuple[str | None, str, str, tuple[str, ...], int] | None]]:
    """Each word of an (op, pattern) table not yet read, with the column written just before it (or None)."""
    for op, pat in table:
        for m in re.finditer(before + r"(?:(?=[a-z])(?<![a-z_])|(?![a-z]))(?:" + pat + r")(?![a-z_])", sc.text, re.I | re.A):  # (present is no part of represent)
            if sc.free(m.start(), m.end()):
                yield op, m, _left_column(sc.text, m.start(), sc.hits, sc.sheet)


BLANK_BEFORE_ZH = lazy(r"(?:是空的|为空的|空白的|空着的|没填的|未填的|缺失的|空的|(?:没有?|未|漏)(?:填|写|登记|录入?)(?:写)?(?:的)?)\s*")  # 没填缴费方式 / 漏填电话
BLANK_WORD_BEFORE = lazy(r"(?<![a-z_])(?P<w>blank|empty|missing)\s+(?P<c>[a-z][a-z0-9]{2,})(?![a-z0-9_])", re.I)


# blank channel rows excluded / empty emails dropped: the blanks of the column, left out, said after it
BLANKS_EXCLUDED_AFTER = lazy(r"\s*(?:rows?|ones|values|entries|records|cells)?\s*(?:(?:are|is|should be|to be)\s+)?"
                             r"(?:excluded|left out|removed|dropped|taken out|ignored|skipped|not counted)(?![a-z_])", re.I | re.A)
# skip blank ones / leave out the blanks: blanks said with no column of their own, left out
BLANKS_LEFT_OUT = lazy(r"(?<![a-z_])(?:skip(?:ping)?|drop(?:ping)?|exclud(?:e|ing)|leav(?:e|ing) out|ignor(?:e|ing)|omit(?:ting)?|without|remove|no)"
                       r"\s+(?:the\s+|any\s+)?(?:blanks|empties|(?:blank|empty|missing)\s+(?:ones|rows|values|entries|cells))(?![a-z_])", re.I | re.A)


def _cond_blanks(sc: _Scan) -> None:
    """地址不为空, 电话为空, email is empty; empty email, no phone."""
    text = sc.text
    for m in BLANK_WORD_BEFORE.finditer(text):  # drop the blank payment ones: the column whose first word is said
        if any(h.start <= m.start("c") < h.end for h in sc.hits) or not sc.free(m.start(), m.end()):
            continue
        col, how, _ = resolve_column(m.group("c"), sc.sheet, closest=False)
        if col is None or how not in ("partial", "exact") or col in sc.sheet.numeric:
            continue  # (exact: a column another rule read too, by level … excluding blank level)
        ex = lx.EXCLUDE_BEFORE.search(re.sub(r"(?:\s+the|\s+all)?\s*$", "", text[: m.start()], flags=re.I)) or DELETE_BEFORE.search(text[: m.start()])
        after = BLANKS_EXCLUDED_AFTER.match(text, m.end()) if ex is None else None  # blank channel rows excluded: said after
        if ex is not None:  # drop / leave out the blank payment ones: the rows that have one
            sc.add(Cond(col, "not_empty", raw=col, how="excluded"), ex.start(), m.end())
        elif after is not None:
            sc.add(Cond(col, "not_empty", raw=col, how="excluded"), m.start(), after.end())
        else:
            sc.add(Cond(col, "empty", raw=col), m.start(), m.end())
    left_out = [m.span() for m in BLANKS_LEFT_OUT.finditer(text)]
    for op, m, left in _words_after_columns(sc, EMPTY, r"\s*"):
        if left and left[0] is None and any(a <= m.start() < b for a, b in left_out):
            continue  # skip blank ones: no column said (skip is none), read below
        if any(h.start == m.end() + len(text[m.end():]) - len(text[m.end():].lstrip()) for h in sc.hits) and re.match(r"[a-z]", m.group(0).strip(), re.I):
            continue  # excluding blank Species: the word before a column, read below
        if left and (left[0] or op == "not_empty" or "为空" in m.group(0) or "empty" in m.group(0) or "blank" in m.group(0)):
            sc.add_left(left, op, None, None, m.end())
    for m in re.finditer(r"(?<![a-z_])(?P<w>empty|blank|missing|no|without(?: an?)?|non-empty|nonempty|non-blank|filled)\s+", text, re.I | re.A):
        h = next((h for h in sc.hits if h.start == m.end()), None)
        if h is None or not sc.free(m.start(), h.end):
            continue
        op = "not_empty" if m.group("w").casefold() in ("non-empty", "nonempty", "non-blank", "filled") else "empty"
        yes = _flag_yes(sc.sheet, h.column)
        if yes is not None and re.match(r"no|without", m.group("w"), re.I):  # visits without a complaint, over Complaint (Y/N): not 'yes'
            sc.add(Cond(h.column, "ne", yes, raw=h.column, how="exact"), m.start(), h.end)
            continue
        ex = lx.EXCLUDE_BEFORE.search(re.sub(r"(?:\s+the|\s+all)?\s*$", "", text[: m.start()], flags=re.I))
        if ex is not None and op == "empty":  # leave out the blank Species / excluding empty emails: the rows that have one
            sc.add(Cond(h.column, "not_empty", raw=h.column, how="excluded"), ex.start(), h.end)
            continue
        if op == "empty" and (after := BLANKS_EXCLUDED_AFTER.match(text, h.end)) is not None:  # blank channel rows excluded
            sc.add(Cond(h.column, "not_empty", raw=h.column, how="excluded"), m.start(), after.end())
            continue
        sc.add(Cond(h.column, op, raw=h.column), m.start(), h.end)
    for m in BLANK_BEFORE_ZH.finditer(text):  # 空的渠道不算 / 去掉空白的付款方式: the column's blanks, said before it
        h = next((h for h in sc.hits if h.start == m.end()), None)
        if h is None or not sc.free(m.start(), h.end) or re.search(r"(?:几|多少)\s*[个条]?\s*$", text[: m.start()]):
            continue  # (有几个空的电话: how many blanks a column has, a question about it, never its rows kept)
        after = EXCLUDED_AFTER.match(text[h.end :])
        ex = lx.EXCLUDE_BEFORE.search(text[: m.start()])
        if after is not None or ex is not None:
            sc.add(Cond(h.column, "not_empty", raw=h.column, how="excluded"), ex.start() if ex is not None else m.start(), h.end + (after.end() if after is not None else 0))
        else:
            sc.add(Cond(h.column, "empty", raw=h.column), m.start(), h.end)


NUMERIC_WORD = lazy(
    r"(?P<w>不是|不为|不全是|并非|为非|是非|非|是|为)\s*(?:纯|一个)?\s*(?:数字|数值)(?:型|类型)?(?![\u4e00-\u9fff]*?(?:列|字段))(?!\s*[\d零一二两三四五六七八九十])"
    r"|(?<![a-z_])(?P<we>is not|isn't|are not|aren't|is|are|non-?|not)\s*(?:a\s+|an\s+)?(?:numeric|numerical|numbers?)(?![a-z_])(?!\s+columns?)(?!\s*\d)",
    re.I | re.A,
)
NUMERIC_TAIL = lazy(r"\s*(?:的)?(?:值|内容|取值|数据|级别|等级|values?|entries|cells?)?\s*(?:的行|的记录|的数据|的)?\s*$", re.I | re.A)
NUMERIC_LEAD = lazy(r"(?:列|字段)?\s*(?:里面|里的|中的|里|中)?\s*(?:的)?\s*(?:值|内容|取值|数据|values?)?\s*$", re.I | re.A)
NUMERIC_HOLDS = lazy(r"(?:包含|含有|带有|有|含|(?<![a-z_])(?:with|having|has|have|containing))\s*$", re.I | re.A)


def _cond_numeric(sc: _Scan) -> None:
    """Grade 不是数字 / 非数字的 Grade / 包含非数字级别的行 / Grade is not a number / non-numeric Grade: a filled cell that
    does (not) read as a number. With no column beside the words, the only column the request names is the one meant,
    said before it runs (how = "named_once"); with none or several, nothing is read and the words stay unexplained."""
    text = sc.text
    for m in NUMERIC_WORD.finditer(text):
        if not sc.free(m.start(), m.end()):
            continue
        w = (m.group("w") or m.group("we") or "").strip().casefold()
        neg = w in ("不是", "不为", "不全是", "并非", "为非", "是非", "非", "is not", "isn't", "are not", "aren't", "non", "non-", "not")
        op = "not_numeric" if neg else "numeric"
        lead = NUMERIC_LEAD.search(text[: m.start()])
        holds = NUMERIC_HOLDS.search(text[: m.start()])
        left = None if holds else _left_column(text, lead.start() if lead else m.start(), sc.hits, sc.sheet)
        if left and left[0] and sc.free(left[4], m.end()):
            sc.add_left(left, op, None, None, m.end())
            continue
        after = next((h for h in sc.hits if 0 <= h.start - m.end() <= 1), None)  # non-numeric Grade, 非数字的 Grade
        if after and sc.free(m.start(), after.end):
            sc.add(Cond(after.column, op, raw=after.column, how=after.how), m.start(), after.end)
            continue
        named = list(dict.fromkeys(h.column for h in sc.hits))
        if len(named) == 1 and (holds or NUMERIC_TAIL.match(text, m.end())) and neg:
            start = holds.start() if holds else m.start()
            sc.add(Cond(named[0], op, raw=named[0], how="named_once"), start, m.end())


def _cond_same_columns(sc: _Scan) -> None:
    """第一党派 和 第二党派 相同 / A 与 B 不一样 / A and B are the same / A differs from B: two columns compared row by row."""
    text = sc.text
    for a, b in zip(sc.hits, sc.hits[1:], strict=False):
        if a.column == b.column or not SAME_PAIR_JOIN.fullmatch(text[a.end : b.start]):
            continue
        m = SAME_WORD.match(text, b.end)
        if m is None or not sc.free(a.start, m.end()):
            continue
        same = m.group("diff") is None
        sc.add(Cond(a.column, "eq" if same else "ne", {"column": b.column}, raw=a.column, how=a.how), a.start, m.end())
    for a, b in zip(sc.hits, sc.hits[1:], strict=False):  # A is the same as B / A differs from B
        m = SAME_AS.fullmatch(text[a.end : b.start])
        if a.column != b.column and m and sc.free(a.start, b.end):
            same = m.group("diff") is None
            sc.add(Cond(a.column, "eq" if same else "ne", {"column": b.column}, raw=a.column, how=a.how), a.start, b.end)


SAME_PAIR_JOIN = lazy(r"[\s'\"“”‘’「」]*(?:列|字段)?[\s'\"“”‘’「」]*(?:和|与|跟|同|及|(?<![a-z_])and(?![a-z_]))[\s'\"“”‘’「」]*", re.I | re.A)
SAME_WORD = lazy(
    r"[\s'\"“”‘’「」]*(?:列|字段|columns?)?(?:的值|的内容|values?)?\s*(?:都|均|全)?\s*(?:是|为|are|were|is)?\s*(?:属于)?\s*"
    r"(?:(?P<same>相同|一样|相等|一致|同一[\u4e00-\u9fff]{0,4}|the same|equal|identical|match)|(?P<diff>不同|不一样|不相等|不一致|different|not the same|not equal|differ))",
    re.I | re.A,
)
SAME_AS = lazy(
    r"[\s'\"“”‘’「」]*(?:列|column)?\s*(?:(?P<same>和|与|跟)?\s*(?:is|are)?\s*(?:the same as|equals?|equal to|matches)(?:\s+the)?|(?P<diff>differs? from|is different from|(?:does not|doesn't) (?:equal|match)))[\s'\"“”‘’「」]*",
    re.I | re.A,
)


# the sign of a number said in words: 负数 is < 0, 正数 is > 0, 非负 is >= 0 (the longer forms first: 不是负数 before 负数)
SIGN = (
    ("ge", _alt("非负数", "非负", "不是负数", "不为负", "不是负的", "non-negative", "nonnegative", "not negative")),
    ("lt", _alt("是负数", "为负数", "负数", "负值", "是负的", "为负", "negative", "below zero", "less than zero")),
    ("gt", _alt("是正数", "为正数", "正数", "正值", "是正的", "为正", "positive", "above zero", "greater than zero")),
)


def _cond_sign(sc: _Scan) -> None:
    """数量是负数, 金额为负, 利润非负, qty is negative, negative qty: the column against zero."""
    for op, m, left in _words_after_columns(sc, SIGN, r"(?<![a-z_])"):
        if left and left[0] in sc.sheet.numeric:
            sc.add_left(left, op, 0, None, m.end())
            continue
        h = next((h for h in sc.hits if 0 <= h.start - m.end() <= 1 and h.column in sc.sheet.numeric), None)  # negative qty
        if h is not None and sc.free(m.start(), h.end):
            sc.add(Cond(h.column, op, 0, raw=sc.text[h.start : h.end], how=h.how), m.start(), h.end)


def _cond_has_column(sc: _Scan) -> None:
    """没有X / 有X的 where X is a column (of a yes/no column: X is not yes / X is yes)."""
    text = sc.text
    for h in sc.hits:
        pre = text[max(0, h.start - 2) : h.start]
        yes = _flag_yes(sc.sheet, h.column)
        if pre.endswith("没有") or pre.endswith("没") or pre.endswith("无"):
            a = h.start - (2 if pre.endswith("没有") else 1)
            if sc.free(a, h.end):
                sc.add(Cond(h.column, "ne", yes, raw=h.column) if yes else Cond(h.column, "empty", raw=h.column), a, h.end)
        elif pre.endswith("有") and text[h.end : h.end + 1] == "的" and sc.free(h.start - 1, h.end):
            sc.add(Cond(h.column, "eq", yes, raw=h.column) if yes else Cond(h.column, "not_empty", raw=h.column), h.start - 1, h.end + 1)


COUNT_UNIT_CUT = lazy(r"(?<![a-z_])(?:top|bottom|first|last)\s*$|(?:前|后)\s*$", re.I)
COUNT_UNIT_CMP = (("gt", lazy(r"(?<![a-z_])(?:more than|over|above|greater than)\s*$", re.I)),
                  ("ge", lazy(r"(?<![a-z_])(?:at least|no fewer than|no less than)\s*$", re.I)),
                  ("lt", lazy(r"(?<![a-z_])(?:less than|fewer than|under|below)\s*$", re.I)),
                  ("le", lazy(r"(?<![a-z_])(?:at most|no more than)\s*$", re.I)))


def _cond_count_of_unit(sc: _Scan) -> None:
    """hotels with 5 stars / 4-star hotels / rooms with 2 beds: a small whole number said before the name of a column
    of a few whole numbers is that column's value."""
    low = sc.text.casefold()
    for c in sc.sheet.numeric:
        lo, hi = sc.sheet.ranges.get(c, (0.0, 0.0))
        if not c.isascii() or not float(lo).is_integer() or not float(hi).is_integer() or hi - lo > 20:
            continue
        name = c.casefold()
        forms = "|".join(re.escape(f) for f in dict.fromkeys((name, name[:-1] if name.endswith("s") and len(name) > 3 else name)))
        for m in re.finditer(r"(?<![\w.])(\d{1,2})\s*-?\s*(?:" + forms + r")(?![a-z_])", low):
            n, before = int(m.group(1)), low[max(0, m.start() - 16) : m.start()]
            if COUNT_UNIT_CUT.search(before):
                continue  # top 3 ratings: a cut, read by its own rule
            cmp = next(((op, w) for op, rx in COUNT_UNIT_CMP if (w := rx.search(before))), None)  # more than 3 stars
            a = m.start() - (len(cmp[1].group(0)) if cmp else 0)
            if lo <= n <= hi and sc.free(a, m.end()):
                sc.add(Cond(c, cmp[0] if cmp else "eq", n, raw=c, how="exact"), a, m.end())


YES_NO = (frozenset({"是", "有", "y", "yes", "true", "1", "已"}), frozenset({"否", "无", "n", "no", "false", "0", "未"}))
FLAG_END = lazy(r"\s*的(?:订单|记录|行|数据|人|客户|单子)?\s*(?:[，,。;；)）\]]|$|(?=且|并且|而且|同时)|(?=(?:有|是|共|一共|总共)?\s*(?:多少|几|单数|行数|条数|件数|次数|人数|个数)))|\s*(?:[)）\]]|$)"
               # refunded orders / no-shows, in English: the flag said with a noun for the rows, or alone, up to the clause's end
               r"|(?:\s+(?:orders?|rows?|records?|visits?|appointments?|bookings?|ones?|entries|items|customers|tickets|sales|cases|claims|[a-z]{3,}s))?(?:\s+only)?"
               r"\s*(?:[,.;)?]|\s[-–—](?=\s)|$|(?=\s+(?:and|or|but|then|from|in|on|by|per|for|with|to|into|as|at|over|under|above|below|after|before|during|since|between|where|that|which|who)(?![a-z_])))", re.I)
# (paid jobs only / unpaid invoices: any plural noun for the rows)
FLAG_NOUN_EN = lazy(r"\s+(?:orders?|rows?|records?|visits?|appointments?|bookings?|entries|items|customers|tickets|sales|cases|claims|ones?|[a-z]{3,}s|only)(?![a-z_])"
                    r"|\s{3,}(?=(?:by|per|for|in|from|to|into|as|and|with|at|over|under|above|below|where)(?![a-z_])|[,;.]|$)", re.I)  # (or the table's own name, set aside as the file's)


FLAG_PREDICATE = lazy(r"(?<![a-z_])(?:were|was|are|is|got|been|being|with\s+an?|with|had\s+an?|has\s+an?|have\s+an?|having\s+an?|who|that|which)\s+$", re.I)  # (visits with a complaint)


FLAG_NOT_COUNTED = lazy(r"(?:\s+(?:orders?|rows?|records?|ones?|items|entries))?\s*(?:do(?:es)?\s*n[o']t\s+count|are\s+(?:not\s+counted|excluded|left\s+out)|excluded)(?![a-z_])", re.I)


def _flag_yes(sheet: SheetInfo, col: str) -> str | None:
    """The 'yes' value of a column that holds only a yes and a no (退货: 是/否), else None."""
    vals = sheet.values.get(col) or frozenset()
    if len(vals) != 2:
        return None
    yes = [v for v in vals if v.strip().casefold() in YES_NO[0]]
    no = [v for v in vals if v.strip().casefold() in YES_NO[1]]
    return yes[0] if len(yes) == 1 and len(no) == 1 else None


def flag_yes(sheet: SheetInfo, col: str) -> str | None:
    """The 'yes' of a yes-no text column (是否延误: 是/否, Refunded: Y/N), else None; a numeric 0/1 column adds up as it is."""
    return None if col in sheet.numeric else _flag_yes(sheet, col)


def flag_noun(col: str) -> str:
    """The word a yes-no column is said by: 延误 of 是否延误, late of is_late; the name itself otherwise."""
    m = FLAG_COLUMN.match(col)
    if m:
        return m.group("noun").replace("_", " ").strip()
    bare = FLAG_MARK.sub("", col).strip()  # Cancelled (Y/N) / Late? : the word before the yes-no mark
    return bare if len(bare) >= 2 else col


FLAG_MARK = lazy(r"\s*(?:[(（\[]\s*(?:y\s*/\s*n|yes\s*/\s*no|是\s*/\s*否|t\s*/\s*f)\s*[)）\]]|\?|？)\s*$", re.I)


def flag_stem(noun: str) -> str:
    """An English yes-no word's stem, so its other forms say it too: cancelled → cancel (cancellation rate), referred →
    refer (referral rate), returned → return; a Chinese word or a short word is itself."""
    w = noun.casefold()
    if not re.fullmatch(r"[a-z]{5,}", w) or not w.endswith("ed"):
        return w
    w = w[:-2]
    return w[:-1] if len(w) > 3 and w[-1] == w[-2] else w


def flag_words(sheet: SheetInfo) -> dict[str, str]:
    """The word each yes-no column of the sheet is said by (casefolded), and that column."""
    return {flag_noun(c).casefold(): c for c in sheet.columns if flag_yes(sheet, c) is not None}


BARE_NOT = lazy(r"\s*(?:(?<![a-z_])(?:not|never|isn't|aren't|wasn't|weren't|un)|没有?|未|不是|非)\s*", re.I)
ROWS_SAID = lazy(r"(?:\s*(?<![a-z_])(?:anything|everything|anyone|rows?|records?|entries|ones?|those|the|that|which|who|are|is|were|was|all|any)(?![a-z_]))*\s*$|(?:的|那些|行|记录)+\s*$", re.I)


FLAG_VALUE_AFTER = lazy(r"\s+(?P<v>[A-Za-z]{1,3}|是|否|有|无)(?![\w\u4e00-\u9fff])", re.I)  # damage_reported Y / Paid No


DELETE_BEFORE = lazy(r"(?<![a-z_])(?:drop|remove|delete|exclude|skip|lose|get rid of)(?:\s+(?:the|all|any))?\s*$", re.I)


ZH_NOT = r"(?:不是|并非|没有|不|没|未|非|无)"


def _cond_flag_negated(sc: _Scan) -> None:
    """验收不合格 / 不合格的 / 不是验收合格的, over 验收合格 (是/否): the column's own words negated, not 'yes' (read before
    any comparison takes 不是 as an operator and the column's name as a value)."""
    for col in sc.sheet.columns:
        yes = _flag_yes(sc.sheet, col)
        if yes is None or not re.fullmatch(r"[\u4e00-\u9fff]{2,8}", col) or col.startswith("是否") or re.match(ZH_NOT, col):
            continue  # (是否结清: read by the flag rules of 是否 columns; 未结清 / 不合格 are themselves the negated words)
        inside = [re.escape(col[:i]) + ZH_NOT + re.escape(col[i:]) for i in range(1, len(col))]  # 验收不合格
        tails = [ZH_NOT + re.escape(col[-k:]) for k in range(len(col), 1, -1)]  # 不合格 / 不验收合格
        for m in re.finditer("|".join(inside + tails), sc.text):
            if sc.free(m.start(), m.end()):
                sc.add(Cond(col, "ne", yes, raw=col, how="exact"), m.start(), m.end())


# how many no-shows / count the complaints / list all the refunds: the flag's noun in the plural, counted or listed
FLAG_COUNTED_BEFORE = lazy(r"(?<![a-z_])(?:how many|number of|count(?:\s+of)?|list|show(?:\s+me)?|total)(?:\s+(?:the|all(?:\s+the)?))?\s+$"
                           r"|(?<![a-z_])(?:did|do|does|were|are|for|among|only)\s+(?:the\s+|all\s+(?:the\s+)?)?$", re.I | re.A)  # (how much did the members use)


def _cond_flag_column(sc: _Scan) -> None:
    """退货的订单 / （不包括退货的）/ 不含退货: a yes/no column named as a condition is 'yes' (an exclusion: not 'yes')."""
    for col in sc.sheet.columns:  # unpaid invoices / non-billable hours, over Paid (Y/N): not 'yes'
        yes = _flag_yes(sc.sheet, col)
        word = re.sub(r"\s*\(.*\)\s*$", "", col).strip().casefold()
        if yes is None or not re.fullmatch(r"[a-z]{3,}", word):
            continue
        for m in re.finditer(rf"(?<![a-z_])(?:between\s+)?(?:the\s+)?{re.escape(word)}[a-z]*\s+(?:and|vs\.?|versus|or|against)\s+(?:the\s+)?(?:un|non-?){re.escape(word)}(?![a-z_])",
                             sc.text, re.I):
            sc.shield.append(m.span())  # between callback and non-callback jobs: the flag's two sides compared, no rows left out
        for m in re.finditer(rf"(?<![a-z_])(?:un|non-?){re.escape(word)}s?(?![a-z_])", sc.text, re.I):  # (non-members)
            if sc.free(m.start(), m.end()):
                sc.add(Cond(col, "ne", yes, raw=col, how="excluded"), m.start(), m.end())
    for h in sc.hits:
        yes = _flag_yes(sc.sheet, h.column)
        if yes is None or not sc.free(h.start, h.end):
            continue
        bare = FLAG_VALUE_AFTER.match(sc.text, h.end)
        held = {v.casefold(): v for v in sc.sheet.values.get(h.column, ())}
        if bare is not None and bare.group("v").casefold() in held and sc.free(h.start, bare.end()):
            # with damage_reported Y / 退货标记 是: the flag column and one of its own values, said side by side
            excluded = lx.EXCLUDE_BEFORE.search(sc.text[: h.start].rstrip() + " ")
            v = held[bare.group("v").casefold()]
            sc.add(Cond(h.column, "ne" if excluded else "eq", v, raw=h.column, how="excluded" if excluded else "exact"),
                   excluded.start() if excluded else h.start, bare.end())
            continue
        excluded = lx.EXCLUDE_BEFORE.search(re.sub(r"(?<![a-z_])(?:the|any|all)\s*$", "", sc.text[: h.start], flags=re.I).rstrip() + " ")  # excluding the returned ones
        excluded = excluded or NEG_PERFECT.search(sc.text[: h.start])  # which of those haven't been paid
        outer = None
        if excluded is not None and BARE_NOT.fullmatch(excluded.group(0)):  # leaving out anything not approved: not, left out, is approved
            outer = lx.EXCLUDE_BEFORE.search(ROWS_SAID.sub("", sc.text[: excluded.start()]).rstrip() + " ")
            outer = outer if outer is not None and not BARE_NOT.fullmatch(outer.group(0)) else None
        if outer is not None:
            end = FLAG_END.match(sc.text, h.end)
            sc.add(Cond(h.column, "eq", yes, raw=h.column, how="exact"), outer.start(), end.end() if end is not None else h.end)
            continue
        said = sc.text[h.start : h.end]
        if excluded is None and re.search(r"[a-z]s$", said, re.I) and not said.casefold().endswith(h.column.casefold()[-2:]) \
                and FLAG_COUNTED_BEFORE.search(sc.text, 0, h.start):
            sc.add(Cond(h.column, "eq", yes, raw=h.column, how="exact"), h.start, h.end)  # how many no-shows / list the complaints: the yes rows
            continue
        end = FLAG_END.match(sc.text, h.end)
        after = FLAG_NOT_COUNTED.match(sc.text, end.end()) if end is not None else FLAG_NOT_COUNTED.match(sc.text, h.end)
        if after is not None and not excluded:  # returned orders do not count / 退货的不算: said after, an exclusion
            sc.add(Cond(h.column, "ne", yes, raw=h.column, how="excluded"), h.start, after.end())
            continue
        said_of = FLAG_PREDICATE.search(sc.text[max(0, h.start - 12) : h.start])  # orders that were Resolved On Time
        if end is None or (not excluded and not said_of and not sc.text[h.end :].lstrip().startswith("的") and not FLAG_NOUN_EN.match(sc.text, h.end)):
            continue  # refunded orders by branch: the flag said before the rows it keeps
        a = excluded.start() if excluded else h.start
        if re.search(r"按|根据|(?<![a-z_])by\s*$", sc.text[max(0, a - 3) : a], re.I | re.A):
            continue  # 按退货分组: a key, not a condition
        sc.add(Cond(h.column, "ne" if excluded else "eq", yes, raw=h.column, how="excluded" if excluded else "exact"), a, end.end())


# excluding concessions and refunds: the second of a list of things left out, up to three words after the exclusion
EXCLUDED_LIST_BEFORE = lazy(r"(?<![a-z_])(?:" + lx.EXCLUDE.pattern + r")\s+(?:(?!(?:by|per|for|in|on|from|to|with)\s)[\w'-]+\s+){0,2}"
                            r"(?!(?:by|per|for|in|on|from|to|with)\s)[\w'-]+\s*(?:,\s*|\s)(?:and|or|nor)?\s*$", re.I)


def _cond_flag_plural(sc: _Scan) -> None:
    """leave out refunds / excluding cancellations / only returns, over Refunded (Y/N): the flag's noun in the plural
    after an exclusion is 'not yes', after 'only' (or before it) is 'yes'; said alone it is no condition."""
    for col in sc.sheet.columns:
        yes = _flag_yes(sc.sheet, col)
        stem = flag_stem(flag_noun(col))
        if yes is None or stem == flag_noun(col).casefold() or not re.fullmatch(r"[a-z]{3,}", stem):
            continue
        for m in re.finditer(rf"(?<![a-z_])(?:the\s+|any\s+|all\s+)?{re.escape(stem)}s(?![a-z_])(?:\s+only)?", sc.text, re.I):
            if not sc.free(m.start(), m.end()):
                continue
            before = sc.text[: m.start()].rstrip() + " "
            excluded = lx.EXCLUDE_BEFORE.search(before)
            listed = EXCLUDED_LIST_BEFORE.search(before) if excluded is None else None  # excluding concessions and refunds
            only = re.search(r"(?<![a-z_])only\s*$", before, re.I)
            if listed is not None:
                sc.add(Cond(col, "ne", yes, raw=col, how="excluded"), m.start(), m.end())
            elif excluded is not None and not BARE_NOT.fullmatch(excluded.group(0)):
                sc.add(Cond(col, "ne", yes, raw=col, how="excluded"), excluded.start(), m.end())
            elif excluded is None and (only is not None or m.group(0).casefold().endswith("only")):
                sc.add(Cond(col, "eq", yes, raw=col, how="exact"), only.start() if only is not None else m.start(), m.end())


def _shield_year_columns(sc: _Scan) -> None:
    """While periods are read, a column named 2019年 is a column, never a period."""
    sc.shield.extend((h.start, h.end) for h in sc.hits if re.search(r"\d", h.column))


PERIOD_RANGE = lazy(
    r"(?P<pre>(?:从|自|由|在|介于|(?<![a-z_])(?:from|between))\s*)?(?P<a>" + _DATE_TEXT + r")(?!\d)\s*"
    r"(?P<j>到|至|~|～|—|–|-|(?<![a-z_])(?:to|through|until|and)(?![a-z_]))\s*(?P<b>" + _DATE_TEXT + r")(?!\d)(?:\s*(?:之间|期间|年间|间|为止|止))?",
    re.I | re.A,
)


def _cond_period_range(sc: _Scan) -> None:
    """从2018年到2021年, 2019年至2020年, from 2019 to 2020, between 2018 and 2021: one period, both ends included.
    Bare years are a period only where a date column holds them and no numeric column is compared."""
    for m in PERIOD_RANGE.finditer(sc.text):
        a, b = DATE_RE.fullmatch(m.group("a").strip()), DATE_RE.fullmatch(m.group("b").strip())
        pre = (m.group("pre") or "").strip().casefold()
        if a is None or b is None or not sc.free(m.start(), m.end()) or (m.group("j").casefold() == "and" and pre != "between"):
            continue
        if any(h.start < m.end() and m.start() < h.end and re.search(r"\d", h.column) for h in sc.hits):
            continue  # 2018年到2021年 over columns named so: a range of columns, read by the wide-table rules
        written = _date_form(a, False) or _date_form(b, False)
        bare = "" if written else _bare_years(sc, m, int(a.group("y")), int(b.group("y")), pre) if pre else "no"
        if bare == "no":
            continue
        lo, _ = _period(a.group("y"), a.group("m"), a.group("d"))
        _, hi = _period(b.group("y"), b.group("m"), b.group("d"))
        if hi > lo:
            sc.add_period(m, "between", lo, hi)
            if bare:  # total 销售额 from 2019 to 2020: years, most likely, but said before it runs
                sc.out.conds[-1] = replace(sc.out.conds[-1], how=bare)


def _bare_years(sc: _Scan, m: re.Match[str], y1: int, y2: int, pre: str) -> str:
    """from 2019 to 2020: "" for years of a date column; "bare_years" when a numeric column stands before them (金额从2019到
    2020 may be amounts); "no" when no date column holds those years, or a numeric column is placed between them (金额在
    2018到2020之间: amounts, read by the range rule)."""
    spans = [sc.sheet.years[c] for c in sc.sheet.dates if c in sc.sheet.years]
    if not spans or not any(lo <= max(y1, y2) and min(y1, y2) <= hi for lo, hi in spans):
        return "no"
    left = _left_column(sc.text, m.start(), sc.hits, sc.sheet)
    if not (left and left[0] in sc.sheet.numeric and left[0] not in sc.sheet.dates):
        return ""
    return "no" if pre in ("在", "介于", "between") else "bare_years"


MONTHS_EN = {m: i + 1 for i, ms in enumerate(("jan january", "feb february", "mar march", "apr april", "may", "jun june", "jul july",
                                             "aug august", "sep sept september", "oct october", "nov november", "dec december"))
             for m in ms.split()}
_MONTH_EN = r"(?:" + "|".join(sorted(MONTHS_EN, key=len, reverse=True)) + r")"
MONTH_RANGE = lazy(
    r"(?<![\d年/.-])(?:从|自|由|在|介于)?\s*(?:(?P<y>(?:19|20)\d{2})\s*年\s*)?(?P<a>1[0-2]|0?[1-9])\s*月份?\s*"
    r"(?P<j>到|至|~|～|—|–|-|(?:和|与)(?=\s*(?:1[0-2]|0?[1-9])\s*月份?\s*之间))\s*(?P<b>1[0-2]|0?[1-9])\s*月(?:份)?(?!\s*\d|\s*[日号])"
    r"(?:\s*(?:之间|期间|间|为止|底|末))?"
    r"|(?<![a-z_])(?:from|between)\s+(?P<ae>" + _MONTH_EN + r")\s+(?:to|through|until|and)\s+(?P<be>" + _MONTH_EN + r")(?![a-z_])(?!\s*\d)"
    # April to June / April through June, said with no "from": a range of months (April and June stays two months)
    r"|(?<![a-z_])(?P<ae2>" + _MONTH_EN + r")\s*(?:to|through|until|thru|-|–)\s*(?P<be2>" + _MONTH_EN + r")(?![a-z_])(?!\s*\d)",
    re.I | re.A,
)


CN_MONTH = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10, "十一": 11, "十二": 12}
MONTH_ONE = lazy(
    r"(?<![\d年/.\-月一二三四五六七八九十])(?P<a>1[0-2]|0?[1-9]|十[一二]|[一二三四五六七八九十])\s*月份?(?![\d日号]|\s*(?:\d|到|至|~|～|-|—|–|和|与|初|中|底|末))"
    r"|(?<![a-z_])(?<!instead )(?<!rather )(?:in|during|for|of|about|only|just)\s+(?P<ae>" + _MONTH_EN + r")(?![a-z_])(?!\s*\d)"  # (what about February? / instead of March: no)
    # except June / leaving out March: the month excluded (the exclusion is read by the scope of negation)
    r"|(?<![a-z_])(?:except(?: for)?|excluding|besides|other than|apart from|aside from|leaving out|leave out|not counting|outside(?: of)?)\s+(?P<ax>" + _MONTH_EN + r")(?![a-z_])(?!\s*\d)"
    # since March / before May / after June: a side of the month (since and before: its first day; after: its end)
    r"|(?<![a-z_])(?P<side>since|before|after)\s+(?P<as>" + _MONTH_EN + r")(?![a-z_])(?!\s*\d)",
    re.I | re.A,
)


MONTH_YEAR_EN = lazy(r"(?<![a-z_])(?P<ae>" + _MONTH_EN + r")\s*(?:of\s+)?,?\s*(?P<y>(?:19|20)\d{2})(?![\d-])", re.I | re.A)


def _cond_month_year_en(sc: _Scan) -> None:
    """March 2024 / Mar 2024 / March of 2024: that month of that year."""
    for m in MONTH_YEAR_EN.finditer(sc.text):
        if sc.free(m.start(), m.end()):
            lo, hi = _period(m.group("y"), str(MONTHS_EN[m.group("ae").casefold()]), None)
            sc.add_period(m, "between", lo, hi)


MONTH_SIDE = lazy(r"\s*(?:份)?\s*(?:(?P<after>(?:及|或|以及)?(?:以后|之后)|以来|起|开始|往后|(?<![a-z_])(?:onwards|and later|or later)(?![a-z_]))|(?P<before>以前|之前))"
                  + INCLUDED_NOTE, re.I)


def _cond_month_one(sc: _Scan) -> None:
    """5月份 / 五月 / in May, with no year: that month of the date column's year when its data holds one year (said before
    it runs: how = "year_from_data"); over several years the year is asked (how = "month_no_year")."""
    for m in MONTH_ONE.finditer(sc.text):
        if not sc.free(m.start(), m.end()):
            continue
        raw = m.group("a")
        a = (int(raw) if raw.isdigit() else CN_MONTH[raw]) if raw else MONTHS_EN[(m.group("ae") or m.group("ax") or m.group("as")).casefold()]
        at = m.start("ax") if m.group("ax") else m.start()  # (except June: the exclusion stays outside, read by the scope of negation)
        col = _date_column(sc.text, m, sc.hits, [c for c in sc.sheet.columns if c in sc.sheet.dates], sc.sheet)
        span = sc.sheet.years.get(col[0] or "")
        if col[0] is None or span is None:
            continue
        said = sorted(set(re.findall(r"(?<!\d)((?:19|20)\d{2})\s*年", sc.text)))
        if m.group("as"):
            if span[0] != span[1] or m.group("side").casefold() == "after" and a == 12:
                continue  # since March over several years: left unread, so it is asked about
            later = m.group("side").casefold() != "before"
            lo, _ = _period(str(span[0]), str(a + (m.group("side").casefold() == "after")), None)
            sc.add(Cond(col[0], "ge" if later else "lt", _iso(lo), None, col[1], "year_from_data"), m.start(), m.end())
            continue
        side = MONTH_SIDE.match(sc.text, m.end())
        before = re.search(r"(?:从|自|(?<![a-z_])(?:since|from))\s*$", sc.text[:at], re.I)
        year = said[0] if span[0] != span[1] and len(said) == 1 else str(span[0]) if span[0] == span[1] else None
        if year is not None and (side is not None or before is not None and re.match(r"\s*(?:开始|起|以来|on(?:wards)?)", sc.text[m.end() :], re.I)):
            # 6月以后 / 6月之前 / since June: from the month's first day on, or before it (never that month alone)
            lo, _ = _period(year, str(a), None)
            later = side is None or side.group("after") is not None
            end = side.end() if side is not None else re.match(r"\s*(?:开始|起|以来|on(?:wards)?)", sc.text[m.end() :], re.I).end() + m.end()  # type: ignore[union-attr]
            how = "year_from_data" if span[0] == span[1] and not said else col[2]
            sc.add(Cond(col[0], "ge" if later else "lt", _iso(lo), None, col[1], how), before.start() if before is not None else at, end)
            continue
        if span[0] != span[1] and len(said) == 1:  # 2024年每个月…，12月的不算: the year the request says
            lo, hi = _period(said[0], str(a), None)
            sc.add(Cond(col[0], "between", _iso(lo), _iso(date.fromordinal(hi.toordinal() - 1)), col[1], col[2]), at, m.end())
            continue
        if span[0] != span[1]:
            sc.add(Cond(col[0], "between", None, None, sc.text[at : m.end()].strip(), "month_no_year", (str(span[0]), str(span[1]))), at, m.end())
            continue
        lo, hi = _period(str(span[0]), str(a), None)
        sc.add(Cond(col[0], "between", _iso(lo), _iso(date.fromordinal(hi.toordinal() - 1)), col[1], "year_from_data"), at, m.end())


def _cond_month_range(sc: _Scan) -> None:
    """从8月到9月 / from August to September, with no year: the year of the date column when its data holds one year
    (said before it runs: how = "year_from_data"); over several years the year is asked (how = "month_no_year")."""
    for m in MONTH_RANGE.finditer(sc.text):
        if not sc.free(m.start(), m.end()):
            continue
        a = int(m.group("a")) if m.group("a") else MONTHS_EN[(m.group("ae") or m.group("ae2")).casefold()]
        b = int(m.group("b")) if m.group("b") else MONTHS_EN[(m.group("be") or m.group("be2")).casefold()]
        if a > b:
            continue  # 11月到2月 runs over a year's end: left unread, so it is asked about
        col = _date_column(sc.text, m, sc.hits, [c for c in sc.sheet.columns if c in sc.sheet.dates], sc.sheet)
        span = sc.sheet.years.get(col[0] or "")
        if m.group("y"):  # 2021年8月到9月: the year said once holds for both months
            sc.add_period(m, "between", _period(m.group("y"), str(a), None)[0], _period(m.group("y"), str(b), None)[1])
            continue
        if col[0] is None or span is None:
            continue
        if span[0] != span[1]:
            said = re.sub(r"^(?:从|自|由|在|介于)\s*", "", m.group(0).strip())
            sc.add(Cond(col[0], "between", None, None, said, "month_no_year", (str(span[0]), str(span[1]))), m.start(), m.end())
            continue
        lo, _ = _period(str(span[0]), str(a), None)
        _, hi = _period(str(span[0]), str(b), None)
        sc.add(Cond(col[0], "between", _iso(lo), _iso(date.fromordinal(hi.toordinal() - 1)), col[1], "year_from_data"), m.start(), m.end())


FISCAL_RE = lazy(r"(?P<y>(?:19|20)\d{2})\s*(?:财年|财政年度|会计年度)|(?:(?<![a-z_])FY|财年|fiscal year)\s*(?P<y2>(?:19|20)\d{2})(?!\d)", re.I | re.A)
FISCAL_COLUMN = lazy(r"fiscal|(?<![a-z_])fy(?![a-z_])|财年|财政年度|会计年度", re.I | re.A)


def _cond_fiscal_year(sc: _Scan) -> None:
    """2023财年 / FY2023 / fiscal year 2023 on the column named for fiscal years (Fiscal Year = 2023, or its value FY2023);
    with no such column, nothing is read and the period is asked about, for a fiscal year is not a calendar year."""
    cols = [c for c in sc.sheet.columns if FISCAL_COLUMN.search(c)]
    for m in FISCAL_RE.finditer(sc.text) if len(cols) == 1 else ():
        if not sc.free(m.start(), m.end()):
            continue
        y, col = int(m.group("y") or m.group("y2")), cols[0]
        lo, hi = sc.sheet.ranges.get(col, (0.0, 0.0))
        if col in sc.sheet.numeric and 1900 <= lo <= hi <= 2100:
            sc.add(Cond(col, "eq", y, raw=col, how="fiscal"), m.start(), m.end())
            continue
        named = [v for v in sc.sheet.values.get(col, ()) if re.fullmatch(r"(?:FY|财年)?\s*" + str(y) + r"(?:财年|年度)?", v.strip(), re.I)]
        if len(named) == 1:
            sc.add(Cond(col, "eq", named[0], raw=col, how="fiscal"), m.start(), m.end())


YEAR_COLUMN = lazy(r"^(?:年份?|年度|(?:the\s+)?years?|yr)$|年份|(?<![a-z_])year(?![a-z_])", re.I | re.A)
YEAR_SPAN = lazy(
    r"(?P<pre>从|自|由|在|介于|(?<![a-z_])(?:from|between)\s+)?(?P<a>(?:19|20)\d{2})\s*年?\s*(?:到|至|~|～|—|–|-|(?<![a-z_])(?:to|through|until|and)(?![a-z_]))\s*"
    r"(?P<b>(?:19|20)\d{2})(?!\s*[-/.]\s*\d|\d)\s*年?(?!\s*\d|\s*[月季])(?:\s*(?:之间|期间|年间|间|为止))?",
    re.I | re.A,
)


def _cond_year_column(sc: _Scan) -> None:
    """2015年至2020年 / from 2015 to 2020 on a column of years (年份, Year: numbers 1900-2100) in a table with no date
    column: both ends included. A table whose columns are named for years (2015年) is left to the wide-table rules."""
    if sc.sheet.dates:
        return
    cols = [c for c in sc.sheet.columns if YEAR_COLUMN.search(c) and c in sc.sheet.numeric
            and 1900 <= sc.sheet.ranges.get(c, (0.0, 0.0))[0] <= sc.sheet.ranges.get(c, (0.0, 0.0))[1] <= 2100]
    for m in YEAR_SPAN.finditer(sc.text) if len(cols) == 1 else ():
        a, b = int(m.group("a")), int(m.group("b"))
        if a >= b or not sc.free(m.start(), m.end()) or any(h.start < m.end() and m.start() < h.end for h in sc.hits if h.column != cols[0]):
            continue
        left = _left_column(sc.text, m.start(), sc.hits, sc.sheet)
        amounts = bool(left and left[0] and left[0] != cols[0] and left[0] in sc.sheet.numeric)
        if amounts and (m.group("pre") or "").strip().casefold() in ("在", "介于", "between"):
            continue  # 金额在2000到2020之间: amounts of the column before, read by the range rule
        # total 产量 from 2015 to 2020: years most likely, said before it runs
        sc.add(Cond(cols[0], "between", a, b, cols[0], "bare_years" if amounts else "year_column"), m.start(), m.end())


def reading_said(c: Cond) -> tuple[str, str, str] | None:
    """A reading of a condition that is likely but chosen by wenqing, said before it runs: (factor, zh, en)."""
    if c.how == "named_once":
        return ("slot", f"“{OP_ZH[c.op]}”按 {c.column} 列理解（请求里只提到这一列）", f"'{OP_EN[c.op]}' read on {c.column}, the only column named")
    # (a month said with no year, over a date column whose data holds one year, is that year's month: no other reading
    # exists, and the dates the "about to" line shows say it — as 上半年 / H1 are read)
    return None


DEFINED_AS = lazy(r"\s*(?:的意思)?\s*(?:是指|指的是|就是|是|指)|\s+(?:i\s+)?(?:meant|means|is|was)(?![a-z_])", re.I)
EXPLICIT_PERIOD = lazy(r"(?:19|20)\d{2}\s*(?:年|[-/.]\s*\d)|(?<![a-z_])(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:19|20)\d{2}", re.I)


def _cond_relative_period(sc: _Scan) -> None:
    """今年, 上个月, last year."""
    lo: date
    hi: date
    for m in RELATIVE_RE.finditer(sc.text):
        if not sc.free(m.start(), m.end()):
            continue
        if DEFINED_AS.match(sc.text, m.end()) and EXPLICIT_PERIOD.search(sc.text, m.end()):
            sc.shield.append(m.span())  # 我说的上个月是…2024年6月 / by last month I meant May 2024: the period said, never today's
            continue
        w = m.group(0).casefold()
        today = date.today()
        if w in ("今年", "本年", "this year"):
            lo, hi = date(today.year, 1, 1), date(today.year + 1, 1, 1)
        elif w in ("去年", "last year"):
            lo, hi = date(today.year - 1, 1, 1), date(today.year, 1, 1)
        elif w in ("本季度", "这个季度", "this quarter", "上个季度", "上一季度", "上季度", "last quarter"):
            first = date(today.year, (today.month - 1) // 3 * 3 + 1, 1)  # this quarter's first day; the one before it when said last
            lo = first if "上" not in w and "last" not in w else date(first.year - (first.month == 1), (first.month - 4) % 12 + 1, 1)
            hi = date(lo.year + (lo.month == 10), (lo.month + 2) % 12 + 1, 1)
        elif w in ("本月", "这个月", "this month"):
            lo = date(today.year, today.month, 1)
            hi = date(today.year + (today.month == 12), today.month % 12 + 1, 1)
        else:  # last month
            hi = date(today.year, today.month, 1)
            lo = date(hi.year - (hi.month == 1), (hi.month - 2) % 12 + 1, 1)
        sc.add_period(m, "between", lo, hi)


TENURE_RE = lazy(
    r"(?P<v>入职|工作|加入|入司|在职|工龄|司龄|注册|开户|签约|成立|开业)(?:时间|日期)?\s*(?:已经?)?\s*(?P<w>满了?|已满|超过|超出|达到|不少于|至少|不满|不到|未满|少于|不足)?\s*"
    r"(?P<n>\d{1,2}|[一二两三四五六七八九十]+)\s*(?:周)?年(?P<w2>以上|及以上|或以上|多|以下|以内|之内)?(?!\d|份|度|月)"
    r"|(?<![a-z_])(?P<ev>hired|joined|signed up|registered|started)\s+(?P<we>more than|over|at least|less than|under|within the last|in the last)\s+"
    r"(?P<ne>\d{1,2})\s+years?(?:\s+ago)?"
    r"|(?<![a-z_])(?P<we2>at least|more than|over|less than|under)\s+(?P<ne2>\d{1,2})\s+years?\s+(?:of\s+)?(?:service|tenure|with the company)",
    re.I | re.A,
)


def _years_before(today: date, n: int) -> date:
    return today.replace(year=today.year - n) if not (today.month == 2 and today.day == 29) else date(today.year - n, 2, 28)


def _cond_tenure(sc: _Scan) -> None:
    """入职满5年 / 工龄不到3年 / hired more than 5 years ago: the date column against today minus N years."""
    dates = [c for c in sc.sheet.columns if c in sc.sheet.dates]
    for m in TENURE_RE.finditer(sc.text) if dates else ():
        if not sc.free(m.start(), m.end()):
            continue
        n = parse_number(m.group("n") or m.group("ne") or m.group("ne2") or "")
        if not n:
            continue
        word = (m.group("w") or m.group("w2") or m.group("we") or m.group("we2") or "满").casefold()
        short = word in ("不满", "不到", "未满", "少于", "不足", "以下", "以内", "之内", "less than", "under", "within the last", "in the last")
        inside = next((h for h in sc.hits if h.start < m.end() and m.start() < h.end and h.column in dates), None)
        col = (inside.column, inside.column, inside.how) if inside else _date_column(sc.text, m, sc.hits, dates, sc.sheet)
        cut = _iso(_years_before(date.today(), int(n)))
        sc.add(Cond(col[0], "gt" if short else "le", cut, None, col[1], col[2]), m.start(), m.end())


def _cond_quarter_half(sc: _Scan) -> None:
    """Q3, 第三季度, 下半年, first half."""
    for m in list(QUARTER_RE.finditer(sc.text)) + list(HALF_RE.finditer(sc.text)):
        if not sc.free(m.start(), m.end()):
            continue
        col = _date_column(sc.text, m, sc.hits, [c for c in sc.sheet.columns if c in sc.sheet.dates], sc.sheet)
        span = sc.sheet.years.get(col[0] or "")
        said_y = m.group("y") or m.group("y2")  # 2023 Q3 / Q3 2023 / the first half of 2024
        if not said_y and col[0] and span and span[0] != span[1]:  # 第三季度 over data of several years: which year
            sc.add(Cond(col[0], "between", None, None, m.group(0).strip(), "month_no_year", (str(span[0]), str(span[1]))), m.start(), m.end())
            continue
        if span is None and col[0] is None and not said_y:  # no date column said (several): the first one's year, when it holds one
            first = next((c for c in sc.sheet.columns if c in sc.sheet.dates), None)
            one = sc.sheet.years.get(first or "")
            span = one if one is not None and one[0] == one[1] else None
        y = int(said_y or (span or (0, date.today().year))[1])
        if "q" in m.groupdict() and m.groupdict().get("q"):
            q = "一二三四".find(m.group("q")) + 1 if m.group("q") in "一二三四" else int(m.group("q"))
            lo, hi = date(y, 3 * q - 2, 1), date(y + (q == 4), (3 * q) % 12 + 1, 1)
        else:
            first_half = m.group("h").casefold() in ("上半年", "first half", "h1")
            lo, hi = (date(y, 1, 1), date(y, 7, 1)) if first_half else (date(y, 7, 1), date(y + 1, 1, 1))
        sc.add_period(m, "between", lo, hi)  # over one year of data, that year: the plan's dates show it


def _cond_date_words(sc: _Scan) -> None:
    """2022年以后入职, after 2023-06-01, 2023年以前."""
    for rx_ in DATE_WORD_FORMS:
        for m in rx_.finditer(sc.text):
            dm = DATE_RE.match(m.group("d"))
            if not sc.free(m.start(), m.end()) or not dm or _number_on_numeric(sc, m, dm):
                continue
            lo, hi = _period(dm.group("y"), dm.group("m"), dm.group("d"))
            w = m.group("w").casefold()
            if w in BEFORE_WORDS:
                sc.add_period(m, "lt", lo, None)
            elif w in UP_TO_WORDS:
                sc.add_period(m, "lt", hi, None)
            else:
                sc.add_period(m, "ge", hi if w in STRICT_AFTER else lo, None)


_EN_DATE_WORD = (r"on or after|on or before|no earlier than|no later than|not before|not after|after|since|from|later than|before|until|"
                 r"earlier than|prior to")
_DAY_EN = r"(?P<d{i}>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?"
MONTH_DAY_WORD = lazy(
    r"(?<![\d年/\-.])(?P<m>1[0-2]|0?[1-9])\s*月\s*(?P<d>3[01]|[12]\d|0?[1-9])\s*[日号]?\s*(?:(?:当天|当日)?\s*(?:及|或|以及|和)\s*)?"
    r"(?P<w>" + DATE_AFTER + "|" + DATE_BEFORE + ")"
    r"|(?<![a-z_])(?P<we>" + _EN_DATE_WORD + r")\s+(?:(?P<me>" + _MONTH_EN + r")\.?\s+" + _DAY_EN.format(i=2)
    + r"|" + _DAY_EN.format(i=3) + r"\s+(?:of\s+)?(?P<me3>" + _MONTH_EN + r"))(?![a-z_\d])(?!,?\s*(?:19|20)\d{2})(?!\s*(?:to|through|till|until|and|[-–~])(?![a-z_]))",
    re.I | re.A)


_DAY_ZH = r"(?:3[01]|[12]\d|0?[1-9])"
MONTH_DAY_RANGE = lazy(
    r"(?<![\d年/\-.])(?:从|自|由|在|介于)?\s*(?P<m1>1[0-2]|0?[1-9])\s*月\s*(?P<d1>" + _DAY_ZH + r")\s*[日号]?\s*(?:到|至|~|～|—|–|-)\s*"
    r"(?:(?P<m2>1[0-2]|0?[1-9])\s*月\s*)?(?P<d2>" + _DAY_ZH + r")\s*[日号](?:\s*(?:之间|期间|为止))?"
    r"|(?<![a-z_])(?:from|between)\s+(?P<e1>" + _MONTH_EN + r")\.?\s+(?P<f1>" + _DAY_ZH + r")(?:st|nd|rd|th)?\s+(?:to|through|till|until|and|-|–)\s+"
    r"(?:(?P<e2>" + _MONTH_EN + r")\.?\s+)?(?P<f2>" + _DAY_ZH + r")(?:st|nd|rd|th)?(?![a-z_\d])(?!,?\s*(?:19|20)\d{2})",
    re.I | re.A)


OP_BEFORE = lazy(r"(?:" + "|".join(p for _, p in INFIX[:-1]) + r"|以后|之后|以前|之前|起|自|从)\s*$", re.I | re.A)
DAY_ALONE = lazy(r"(?<![\d\-/.])(?:(?P<y>(?:19|20)\d{2})\s*年\s*)?(?P<m>1[0-2]|0?[1-9])\s*月\s*(?P<d>3[01]|[12]\d|0?[1-9])\s*(?:日|号)(?!\d)"
                 r"|(?<![\d\-/.])(?P<y2>(?:19|20)\d{2})-(?P<m2>1[0-2]|0?[1-9])-(?P<d2>3[01]|[12]\d|0?[1-9])(?![\d\-])")


@cache
def _weekdays() -> tuple[dict[str, list[int]], re.Pattern[str]]:
    """The words of days of the week (words.toml [weekdays]): word -> days (Monday = 0), and one pattern of them all."""
    from modes.tagging.segment import words_toml

    w = words_toml()["weekdays"]
    table: dict[str, list[int]] = {}
    for i, key in enumerate(("mon", "tue", "wed", "thu", "fri", "sat", "sun")):
        for word in w[key]:
            table[word.casefold()] = [i]
    for word in w["weekend"]:
        table[word.casefold()] = [5, 6]
    for word in w["workday"]:
        table[word.casefold()] = [0, 1, 2, 3, 4]
    alts = "|".join(re.escape(x) for x in sorted(table, key=len, reverse=True))
    return table, re.compile(r"(?<![a-z_])(?:" + alts + r")(?![a-z_])", re.I)


def weekday_names(days: Any, lang: str) -> str:
    """周六、周日 / Saturday, Sunday: the days a condition keeps, said."""
    zh, en = ("周一", "周二", "周三", "周四", "周五", "周六", "周日"), ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
    names = zh if lang == "zh" else en
    return ("、" if lang == "zh" else ", ").join(names[int(d)] for d in (days if isinstance(days, list) else [days]) if 0 <= int(d) < 7)


WEEKDAY_JOIN = lazy(r"\s*(?:、|,|，|和|或者?|及|与|跟|and|or|&|/)\s*", re.I)
WEEKDAY_TO = lazy(r"\s*(?:到|至|~|-|–|through|thru|to)\s*", re.I)
WEEKDAY_EVERY = lazy(r"(?<![a-z_])(?:every|each)\s+$", re.I)


def _cond_weekday(sc: _Scan) -> None:
    """周末的订单 / 周一到周五 / on Saturdays or Sundays / weekends only: rows whose date falls on those days of the week."""
    if not sc.sheet.dates:
        return
    table, rx = _weekdays()
    found = [m for m in rx.finditer(sc.text) if sc.free(m.start(), m.end()) and not any(h.start < m.end() and m.start() < h.end for h in sc.hits)]
    if found:  # 周末班 / Sunday Roast: a value of the table that holds a day's word is that value
        values = [(a, b) for hits in find_values(sc.text, sc.sheet, []).values() for _v, a, b in hits]
        found = [m for m in found if not any(a < m.end() and m.start() < b for a, b in values)]
    i = 0
    while i < len(found):
        m = found[i]
        if WEEKDAY_EVERY.search(sc.text[: m.start()]):
            i += 1
            continue  # (comes from the portal every Friday: when something happens, no rows chosen)
        days, end, j = list(table[m.group(0).casefold()]), m.end(), i + 1
        while j < len(found):  # 周六、周日 / Saturday or Sunday / 周一到周五: one condition over the days listed or between
            gap = sc.text[end : found[j].start()]
            nxt = table[found[j].group(0).casefold()]
            if WEEKDAY_TO.fullmatch(gap) and len(days) == 1 and len(nxt) == 1:
                days = list(range(days[0], nxt[0] + 1)) if days[0] <= nxt[0] else [*range(days[0], 7), *range(0, nxt[0] + 1)]
            elif WEEKDAY_JOIN.fullmatch(gap):
                days += [d for d in nxt if d not in days]
            else:
                break
            end, j = found[j].end(), j + 1
        dated = [c for c in sc.sheet.columns if c in sc.sheet.dates]
        col = _date_column(sc.text, m, sc.hits, dated, sc.sheet)
        sc.add(Cond(col[0], "weekday_in", sorted(days), None, col[1], col[2], () if col[0] else tuple(dated)), m.start(), end)
        i = j


def _cond_day_alone(sc: _Scan) -> None:
    """2025年1月16号那次考试 / 2025-01-16的数学成绩 / 1月16号的 (the data in one year): the rows of that day of the date
    column, said with no word comparing it (a day said with 以后 / 之前 is read by the rules before)."""
    if not any(c in sc.sheet.dates for c in sc.sheet.columns):
        return
    for m in DAY_ALONE.finditer(sc.text):
        said_of = re.search(r"(?:是|为|等于|=|==|不是|不等于)\s*$", sc.text[: m.start()])
        compared = OP_BEFORE.search(sc.text[: m.start()])
        if not sc.free(m.start(), m.end()) or ANY_OP.match(sc.text, m.end()) or re.match(r"\s*(?:到|至|~|～|—|-)", sc.text[m.end() :]) \
                or compared is not None and not said_of \
                or said_of is not None and any(h.column in sc.sheet.dates and 0 <= said_of.start() - h.end <= 1 for h in sc.hits):
            continue  # (考试日期是2025年1月16号 / 不早于2024-10-16: the comparison reads it)
        year = m.group("y") or m.group("y2") or _one_year(sc, m)
        if year is None:
            continue
        lo, hi = _period(year, m.group("m") or m.group("m2"), m.group("d") or m.group("d2"))
        sc.add_period(m, "between", lo, hi)


def _one_year(sc: _Scan, m: re.Match[str]) -> str | None:
    """The one year the date column of a day said without its year holds; None when the words are read already or the
    column spans several years (the day is left unread, and said)."""
    if not sc.free(m.start(), m.end()):
        return None
    col = _date_column(sc.text, m, sc.hits, [c for c in sc.sheet.columns if c in sc.sheet.dates], sc.sheet)[0]
    years = sc.sheet.years.get(col or "")
    return str(years[0]) if years and years[0] == years[1] else None


def _cond_month_day_range(sc: _Scan) -> None:
    """10月1号到10月15号 / 10月1日至15日 / from March 5 to April 30: days with no year, both ends kept, in the one year the
    date column holds (else left unread, and said)."""
    for m in MONTH_DAY_RANGE.finditer(sc.text):
        year = _one_year(sc, m)
        if year is None:
            continue
        m1 = int(m.group("m1")) if m.group("m1") else MONTHS_EN[m.group("e1").casefold()]
        m2 = int(m.group("m2")) if m.group("m2") else MONTHS_EN[m.group("e2").casefold()] if m.group("e2") else m1
        lo, _ = _period(year, str(m1), m.group("d1") or m.group("f1"))
        _, hi = _period(year, str(m2), m.group("d2") or m.group("f2"))
        if hi > lo:
            sc.add_period(m, "between", lo, hi)


def _cond_month_day_words(sc: _Scan) -> None:
    """9月15号之后, 10月16号及以后, 3月1日以前, since March 5, before 12th of May: a day with no year, in the one year the
    date column holds (else left unread, and said)."""
    for m in MONTH_DAY_WORD.finditer(sc.text):
        year = _one_year(sc, m)
        if year is None:
            continue
        month = m.group("m") or str(MONTHS_EN[(m.group("me") or m.group("me3")).casefold()])
        lo, hi = _period(year, month, m.group("d") or m.group("d2") or m.group("d3"))
        w = re.sub(r"\s+", " ", (m.group("w") or m.group("we")).casefold())
        if w in UP_TO_WORDS:
            sc.add_period(m, "lt", hi, None)
        elif w in BEFORE_WORDS:
            sc.add_period(m, "lt", lo, None)
        else:
            sc.add_period(m, "ge", hi if w in STRICT_AFTER else lo, None)


def _number_on_numeric(sc: _Scan, m: re.Match[str], dm: re.Match[str]) -> bool:
    """金额从19058起: bare digits after a numeric column are a number, not the period 1905-08."""
    if _date_form(dm, False) or not dm.group("m"):
        return False
    head = re.sub(r"(?:从|在|自|由|(?<![a-z_])(?:from|since|after|before|until))\s*$", "", sc.text[: m.start()].rstrip(), flags=re.I | re.A).rstrip()
    left = _left_column(sc.text, len(head), sc.hits, sc.sheet) if head else None
    return bool(left and left[0] in sc.sheet.numeric and left[0] not in sc.sheet.dates)


# years listed (2023年和2024年 / 2023、2024年 / in 2023 and 2024): one period from the first to the last when they follow
# each other (a row is never in two years, so never "2023 and also 2024"); years with a gap are left to the year rules
YEAR_LIST = lazy(r"(?:(?<![a-z_])(?:in|for|during)\s+)?(?:19|20)\d{2}\s*年?(?:\s*(?:[、,，/]|和|与|及|跟|以及|或者?|还是|(?<![a-z_])(?:and|or)(?![a-z_]))\s*"
                 r"(?:(?:in|for|during)\s+)?(?:19|20)\d{2}(?!\d)\s*年?)+(?!\s*(?:以后|之后|以前|之前|后|前|起|开始|以来|到|至|-|\d|月))", re.I | re.A)


def _cond_year_list(sc: _Scan) -> None:
    for m in YEAR_LIST.finditer(sc.text):
        years = sorted({int(y) for y in re.findall(r"(?:19|20)\d{2}", m.group(0))})
        if len(years) < 2 or years != list(range(years[0], years[-1] + 1)) or not sc.free(m.start(), m.end()):
            continue
        sc.add_period(m, "between", date(years[0], 1, 1), date(years[-1] + 1, 1, 1))
        sc.out.years_listed = True


def _cond_year_alone(sc: _Scan) -> None:
    """2021年的, 2024年3月, in 2023."""
    for m in YEAR_ALONE.finditer(sc.text):
        if not sc.free(m.start(), m.end()):
            continue
        lo, hi = _period(m.group("y") or m.group("y2") or m.group("y3"), m.group("m"), None)
        sc.add_period(m, "between", lo, hi)


def _unshield(sc: _Scan) -> None:
    sc.shield.clear()


# a unit written between a figure and its bound (50 kg or more, 3 天以上): the column holds the figure, not the unit
POSTFIX_UNIT = (r"(?P<unit>(?:kg|kgs|公斤|千克|克|吨|tons?|km|公里|平方米|平米|㎡|米|元|块|件|个|次|天|小时|分钟|分|星|岁|单|台|户|辆|套|人|"
                r"hours?|hrs?|days?|minutes?|mins?|usd|rmb|dollars?|points?|stars?|"
                r"pcs|units?|items?)(?![a-z_]))?")

# a unit that says which kind of column holds the figure (4星及以上, 4 stars or more: the rating)
UNIT_CONCEPT = {"星": "rating", "颗星": "rating", "star": "rating", "stars": "rating"}


def _cond_postfix(sc: _Scan) -> None:
    """评分4.5以上, 3万以下, 100 or more."""
    text = sc.text
    for op, pat in POSTFIX:
        # a number is tried from its first digit only (the lookbehinds): from every digit the search is quadratic
        for m in re.finditer(r"(?P<v>(?<!\d)(?<!\d,)-?\d[\d,]*+(?:\.\d+)?\s*(?:万|千|k|K|%)?|(?<![一二两三四五六七八九十百千万])[一二两三四五六七八九十百千万]++)\s*"
                             + POSTFIX_UNIT + r"\s*(?:" + pat + r")", text, re.I | re.A):
            if not sc.free(m.start(), m.end()):
                continue
            said = re.sub(r"\s+", "", m.group(0)).casefold()
            if any(said == v.casefold() for c, vs in sc.sheet.values.items() if c not in sc.sheet.numeric for v in vs):
                continue  # 50+ of an age_group column (18-24, 50+): that value, read by the rules of values
            left = _left_column(text, m.start(), sc.hits, sc.sheet)
            unit = (m.group("unit") or "").casefold()
            by_unit = [c for c in sc.sheet.numeric if unit and len(unit) >= 2 and re.search(r"(?<![a-z_])" + re.escape(unit) + r"(?![a-z_])", c.casefold())]
            if (left is None or left[0] is None) and len(by_unit) == 1:  # shipments of 50 kg or more: the one column in kg
                left = (by_unit[0], unit, "unit", (), m.start())
            rated = [c for c in sc.sheet.numeric if UNIT_CONCEPT.get(unit) in (lx.concept_of_name(c), "rating" if "星" in c else None)]
            if len(rated) == 1 and (left is None or left[0] not in sc.sheet.numeric):  # 订单 4星及以上: stars are the one rating column's
                left = (rated[0], m.group("unit"), "unit", (), m.start())
            v = _value_at(m.group("v"), 0, sc.sheet, [], bool(left and left[0] in sc.sheet.dates))
            if v is None or left is None:
                continue
            if left[0] and left[0] not in sc.sheet.numeric and isinstance(v[0], (int, float)) and flag_yes(sc.sheet, left[0]) is not None:
                continue  # uninsured visits over 200: a yes-no column is never compared with a number (its own word is read as a flag)
            sc.add_left(left, op, _percent(v[0], m.group("v"), left[0], sc.sheet), None, m.end())


@cache
def _scales() -> tuple[tuple[dict[str, int], ...], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The ordered scales of words.toml [ordered_values] (form -> rank), the bound words after a value and those before
    it, and any bound word at all (whether the rule has anything to read)."""
    from modes.tagging.segment import word_alternation, words_toml

    w = words_toml()["ordered_values"]
    bounds = [x for k in ("up_after", "down_after", "up_before_strict", "up_before", "down_before_strict", "down_before") for x in w[k]]
    said = re.compile(r"(?<![a-z_])(?:" + word_alternation(bounds) + r")(?![a-z_])", re.I)
    scales = tuple({f.casefold(): r for r, forms in enumerate(s) for f in forms.split("|")} for s in w["scales"])
    after = re.compile(r"\s*(?:(?P<up>" + word_alternation(w["up_after"]) + r")|(?P<down>" + word_alternation(w["down_after"]) + r"))(?![a-z_])", re.I)
    before = re.compile(r"(?:(?P<upx>" + word_alternation(w["up_before_strict"]) + r")|(?P<up>" + word_alternation(w["up_before"])
                        + r")|(?P<downx>" + word_alternation(w["down_before_strict"]) + r")|(?P<down>" + word_alternation(w["down_before"])
                        + r"))\s*(?:是|为|(?:is|be|are)\s+)?(?:the\s+)?$", re.I)
    return scales, after, before, said


def value_ranks(sheet: SheetInfo, col: str) -> dict[str, int] | None:
    """Each value of a text column and its rank, when every value is a form of one ordered scale (two ranks or more)."""
    vals = sheet.values.get(col) or frozenset()
    if len(vals) < 2 or col in sheet.numeric or col in sheet.dates:
        return None
    for scale in _scales()[0]:
        ranks = {v: scale[v.strip().casefold()] for v in vals if v.strip().casefold() in scale}
        if len(ranks) == len(vals) and len(set(ranks.values())) >= 2:
            return ranks
    return None


def _cond_ordered_bound(sc: _Scan) -> None:
    """金卡以上 / 至少银卡 / Gold or above / above Silver, over a column whose values are the ranks of one scale (a member
    tier, a size, a level): the values from that rank up (or down), listed; 以上 / 以下 keep the rank said, 高于 / above do not."""
    text = sc.text
    _, after, before, said = _scales()
    if not said.search(text):
        return
    ranked = {c: rk for c in sc.sheet.columns if (rk := value_ranks(sc.sheet, c))}
    if not ranked:
        return
    found = find_values(text, sc.sheet, sc.used)
    for col, ranks in ranked.items():
        for v, s, e in found.get(col, ()):
            a = after.match(text, e)
            b = before.search(text[max(0, s - 16) : s]) if a is None else None
            if (a is None and b is None) or not sc.free(s, e):
                continue
            m = a or b
            assert m is not None
            up = bool(m.group("up") or (b is not None and m.group("upx")))
            strict = b is not None and bool(m.group("upx") or m.group("downx"))
            r = ranks[v]
            side = {x: (ranks[x] - r) if up else (r - ranks[x]) for x in ranks}  # how far past the rank said, on the side said
            keep = [x for x in sorted(ranks, key=lambda x: (ranks[x], x)) if side[x] > 0 or (side[x] == 0 and not strict)]
            if not keep:
                continue  # above the highest rank: nothing is that, and the bound stays unread (named back)
            start, end = (s, a.end()) if a is not None else (s - len(text[max(0, s - 16) : s]) + m.start(), e)
            sc.add(Cond(col, "in" if len(keep) > 1 else "eq", keep if len(keep) > 1 else keep[0], raw=col, how="exact"), start, end)


def _cond_text_shapes(sc: _Scan) -> None:
    """以X开头, starts with X."""
    for m in re.finditer(r"(?P<zn>不)?(?:以|是|为)\s*[\"“]?(?P<v>[^\s\"”,，的]+?)[\"”]?\s*(?P<k>开头|结尾)"
                         r"|(?<![a-z_])(?P<neg>(?:does\s*n[o']t|do\s*n[o']t|did\s*n[o']t|doesnt|dont|not|never)\s+)?(?P<k2>starts? with|ends? with|begins? with|start with|end with|begin with)\s+[\"']?(?P<v2>[^\s\"',]+)"
                         r"|(?P<zs>不)?姓(?![名氏])\s*(?P<v3>[\u4e00-\u9fff]{1,2}?)(?=的|[，,。；;\s]|$)",  # 采购员姓王的: a person's name starting with the surname
                         sc.text, re.I | re.A):
        if not sc.free(m.start(), m.end()):
            continue
        op = "startswith" if (m.group("k") == "开头" or m.group("v3") or (m.group("k2") or "").casefold().startswith(("start", "begin"))) else "endswith"
        op = "not_" + op if m.group("neg") or m.group("zn") or m.group("zs") else op  # customers that don't start with Mr / 不以A开头
        before = re.sub(r"\s+(?:that|which|who|whose(?:\s+names?)?|where)\s*$", "", sc.text[: m.start()], flags=re.I)  # (customers that …)
        left = _left_column(sc.text, len(before), sc.hits, sc.sheet)
        if left:
            sc.add_left(left, op, m.group("v") or m.group("v2") or m.group("v3"), None, m.end())


def _infix_words(text: str) -> list[tuple[str, re.Match[str]]]:
    """The comparison words of the text, earliest and longest first; a request has a few, junk may repeat 大于 hundreds of times."""
    found_ops: list[tuple[int, int, str, re.Match[str]]] = []
    for op, rx_ in INFIX_RE:
        for m in rx_.finditer(text):
            found_ops.append((m.start(), -(m.end() - m.start()), op, m))
    found_ops.sort(key=lambda t: (t[0], t[1]))
    return [(op, m) for _, _, op, m in found_ops[:MAX_COMPARISONS]]


def _glued(text: str, m: re.Match[str]) -> bool:
    """An English comparison word inside a longer word (over in 'overall')."""
    return bool(re.match(r"[a-z]", m.group(0), re.I | re.A) and ((m.start() > 0 and re.match(r"[a-z]", text[m.start() - 1], re.I | re.A))
                                                            or (m.end() < len(text) and re.match(r"[a-z]", text[m.end()], re.I | re.A))))


def _strip_tail(word: str, sheet: SheetInfo | None) -> str:
    """A word without a trailing 的…/人/店/行 that only describes it (上海的店 -> 上海), unless the data holds the
    whole word as a value (静安店)."""
    if sheet is not None and sheet.holds(word):
        return word
    return RIGHT_STRIP.sub("", word) or word


OR_WORD = lazy(r"\s*,?\s*(?:或者|或是|或|(?<![a-z_])or(?![a-z_]))\s*$", re.I | re.A)
NUMBER_LISTED = lazy(r"\s*(?P<j>,?\s*(?:or|或者|或|、|/|,|，|nor))\s*(?P<n>\d+(?:\.\d+)?)(?![\d.%])(?!\s*(?:[-–~到至]|to\s|万|千|k\b|%|个月|月|年|日|号))", re.I)
LIST_JOIN = lazy(r"以及|或者|或是|和|与|及|跟|、|/|或")
BLANK_AFTER = lazy(r"(?:和|与|及|跟)(?:为|是)?(?:空白?|空值|空着|没填)的?$")
BLANK_ITEM = lazy(r"(?:为|是)?(?:空白?|空值|空着|没填)的?")
# words that join whole conditions as well as values: they continue a list of values only with a value the data holds
BOTH_WAYS = lazy(r"\s*,?\s*(?:以及|和|与|及|跟|、|(?<![a-z_])and(?![a-z_]))\s*$", re.I | re.A)


def _held_at(text: str, i: int, sheet: SheetInfo) -> str | None:
    """The longest value the data holds that has marks in it (a bracket, a hyphen, a space) and starts at text[i], as
    written or as the text is read (half-width)."""
    return max((v for v, _ in sheet.value_pairs if re.search(r"[-/ ()（）]", v) and (text.startswith(v, i) or text.startswith(normalize(v), i))
                and not re.match(r"[A-Za-z0-9_]", text[i + len(v) : i + len(v) + 1])), key=len, default=None)


def _value_list(text: str, op: str, value: str, end: int, sheet: SheetInfo | None = None) -> tuple[str, Any, int]:
    """上海或北京 / neither A nor B / 不是王芳、李强: one value becomes a list when more are joined to it."""
    more = []
    while True:
        joiner = (r"也不是|也不等于|又不是|也非|(?<![a-z_])nor(?![a-z_])|、|和|与|及|(?<![a-z_])and(?![a-z_])|或者|或是|或|(?<![a-z_])or(?![a-z_])" if op == "ne"
                  else r"或者|或是|或|、|/|,|(?<![a-z_])or(?![a-z_])")
        jm = re.match(r"\s*(?P<j>,?\s*(?:" + joiner + r"))\s*", text[end:], re.I | re.A)
        held = _held_at(text, end + jm.end(), sheet) if jm is not None and sheet is not None else None
        if jm is not None and held is not None:  # 创可贴（中盒）、维生素C片（小盒）: a value the data holds, with its marks, whole
            more.append(held)
            end += jm.end() + len(held)
            continue
        mm = re.match(r"\s*(?P<j>,?\s*(?:" + joiner + r"))\s*(?P<q>[\"'“‘「])?(?P<w>[A-Za-z0-9_\u4e00-\u9fff]+)(?(q)[\"'”’」])", text[end:], re.I | re.A)
        if not mm:
            break
        if SEQUENCE_START.match(mm.group("w")):
            break  # 华北或华南，再按城市…: a value list ends at a sequencing word
        if BLANK_ITEM.fullmatch(mm.group("w")):
            break  # 线上或者为空的: the column's blanks, read as such (never a value named 为空)
        word = VALUE_JOIN.split(mm.group("w"), maxsplit=1)[0] if CJK.match(mm.group("w")) else mm.group("w")
        cut = not mm.group("q") and len(word) < len(mm.group("w"))  # 支付宝或现金: the word ends at its joiner, the list goes on
        word = _strip_tail(word, sheet)
        if op == "ne" and BOTH_WAYS.match(mm.group("j")) and (sheet is None or not sheet.holds(word)):
            break  # 不是上海和金额大于100: "and" joins another condition unless a value of the data follows
        if op == "ne" and OR_WORD.match(mm.group("j")) and (sheet is None or not sheet.holds(word)):
            break  # not Cancelled or over 100: "or" joins another condition; not Biology or History: both values left out
        if sheet is not None and not sheet.holds(word):
            if "," in mm.group("j"):
                break  # 静安店，去掉退货的: after a comma, only a value the data holds continues the list
            if any(word.casefold().startswith(cl) for _, cl in sheet.folded):
                break  # 门店 is 静安店 or 金额 > 2900: a column's name starts another condition
        if not word or len(word) > max(4, len(value) * 2) or QUESTION_VALUE.fullmatch(word):
            break
        more.append(word)
        end += mm.start("w") + len(VALUE_JOIN.split(mm.group("w"), maxsplit=1)[0]) if cut else mm.end()
    if more:
        return ("in" if op == "eq" else "not_in"), [value] + more, end
    return op, value, end


SAME_COLUMN_JOIN = lazy(r"\s*[,，]?\s*(?:并且|而且|同时|且|但|又|(?<![a-z_])(?:and|but)(?![a-z_]))?\s*", re.I | re.A)


def _joined_to_last(sc: _Scan, at: int) -> bool:
    """The comparison word follows the last condition with only a joining word between (…5000并且小于12000)."""
    if not sc.out.conds:
        return False
    end = max(e for _, e in sc.out.spans)
    return end <= at and bool(SAME_COLUMN_JOIN.fullmatch(sc.text[end:at]))


def _same_column(sc: _Scan, at: int) -> tuple[str | None, str, str, tuple[str, ...], int] | None:
    """金额大于等于5000并且小于等于12000 / at least 5 and at most 9: a second comparison with no column of its own
    is on the column of the comparison just before it."""
    if not _joined_to_last(sc, at):
        return None
    last = sc.out.conds[-1]
    if last.column is None or last.op not in ("gt", "ge", "lt", "le"):
        return None
    return last.column, last.raw, last.how, (), at


EXCLUSION_TAIL = lazy(r"\s*(?:以外|之外|除外)\s*$")


UNIT_FIGURE = lazy(r"\s*(?P<n>-?\d[\d,]*(?:\.\d+)?)\s*")


def _unit_column_after(sc: _Scan, at: int) -> tuple[float | int, ColumnHit] | None:
    """(the figure, the numeric column named right after it) of "over 60 minutes" / "超过 40 kWh"."""
    m = UNIT_FIGURE.match(sc.text, at)
    if m is None:
        return None
    hit = next((h for h in sc.hits if h.start == m.end() and h.column in sc.sheet.numeric), None)
    num = parse_number(m.group("n"))
    return (num, hit) if hit is not None and num is not None else None


def _infix_one(sc: _Scan, op: str, m: re.Match[str]) -> None:
    """One comparison: the column before the word, the value after it."""
    text, sheet = sc.text, sc.sheet
    word = m.group(0)
    if word.casefold() in WEAK and ANY_OP.match(text, m.end()):
        return  # "is at least": the stronger word that follows decides
    left = _left_column(text, m.start(), sc.hits, sheet)
    measured = _unit_column_after(sc, m.end()) if op in ("gt", "ge", "lt", "le") else None
    if measured is not None and (left is None or left[0] is None or left[0] not in sheet.numeric or left[0] == measured[1].column):
        bound, said = measured  # sessions over 60 minutes / over 40 kWh: the column the figure is measured in, named after it
        sc.add(Cond(said.column, op, bound, None, text[said.start : said.end], said.how), m.start(), said.end)
        return
    if left is None or (left[0] is None and not left[1]) or _joined_to_last(sc, m.start()):
        left = _same_column(sc, m.start()) or left
    if left is None:
        return
    if left[0] is None and left[1] and not sc.free(left[4], left[4] + len(left[1])):
        return  # 3月份不是微信付款的: 月份 is the month's own word, read; the value is read with its own column
    val = _value_at(text, m.end(), sheet, sc.hits, left[0] in sheet.dates)
    if val is None:
        return
    if op in ("gt", "ge", "lt", "le") and left[0] and left[0] not in sheet.numeric and isinstance(val[0], (int, float)) \
            and flag_yes(sheet, left[0]) is not None:
        return  # uninsured visits over 200: a yes-no column is never compared with a number (its own word is read as a flag)
    col, raw, how, closest, s = left
    if word.casefold() in WEAK and col is None:
        return
    if word.casefold() in WEAK and col in sheet.numeric and isinstance(val[0], str) and col not in sheet.dates:
        return  # 销售额 of ONLINE orders: a word is never compared with a column of numbers
    if word.casefold() in WEAK and col in sheet.dates and isinstance(val[0], str) and not re.search(r"\d", val[0]) \
            and val[0] not in sheet.values.get(col, ()):
        return  # Week Commencing is in October 2024: the period is read by the date rules, never "= in October"
    if col is None and (raw in ("筛选", "筛", "过滤") or (CJK.match(raw) and len(raw) > 6)):
        return
    value, end = val
    if isinstance(value, str) and col and (nm := re.fullmatch(r"\s*(\d[\d,]*(?:\.\d+)?)\s+([A-Za-z]+)\s*", value)) \
            and nm.group(2).casefold().rstrip("s") in col.casefold():
        value = parse_number(nm.group(1))  # Dock Count more than 20 docks: the figure, said with the column's own noun
    if isinstance(value, dict) and value.get("column") == col and "stat" not in value:
        return  # 营业额就是金额…: a column said equal to itself compares nothing
    if isinstance(value, dict) and "stat" not in value and value.get("column") and flag_yes(sheet, value["column"]) is not None \
            and (col is None or flag_yes(sheet, col) is None):
        return  # qty 5 or more, not refunded: a yes/no column after "not" is that flag negated, never compared with another column
    if word.casefold() == "of" and isinstance(value, dict) and "column" in value \
            and "stat" not in value:
        return  # sum of Net per month of Invoice Date: a weak word between two columns compares neither
    if isinstance(value, dict) and "stat" in value:
        if col is None or (value["column"] or col) not in sheet.numeric:
            return
        value = {"stat": value["stat"], "column": value["column"] or col}
    if isinstance(value, str) and op in ("eq", "ne"):
        nxt = next((h.start for h in sc.hits if m.end() < h.start < end and h.column != col), None)
        if nxt is not None and (cut := re.search(r"(?:并且|而且|且|以及|同时|并)\s*$", text[m.end() : nxt])) is not None:
            # 工作表不等于北门且缴费方式等于现金: the value ends where the next condition begins
            end = m.end() + cut.start()
            value = text[m.end() : end].strip()
        tail = EXCLUSION_TAIL.search(value)
        if tail is not None and tail.start() > 0:  # 收费员是刘洋以外的: the exclusion closes the condition, never part of its value
            end -= len(value) - tail.start()
            value = value[: tail.start()].strip()
    value = _percent(value, text[m.end() : end], col, sheet)
    known = isinstance(value, str) and value in sheet.values.get(col or "", ())  # 是否退货为否: 否 is a value of the column
    if isinstance(value, str) and not known and (not value.strip() or QUESTION_VALUE.match(value) or _article(value, col, sheet)
                                                 or value.strip().casefold() in PLACE_WORDS):
        return  # the category is in the Codes sheet: where a column is, not a value it holds
    if op in ("gt", "lt", "ge", "le") and isinstance(value, (str, list)) and not (col and col in sheet.dates) and not (
            isinstance(value, str) and col and CLOCK_RE.fullmatch(value)):  # 上班打卡晚于9:00: clock times compare
        return
    if col is None and isinstance(value, (int, float)) and raw and (held := _value_column(raw.strip(), sheet)) is not None \
            and (figure := _figure_by_unit(text, end, sheet)) is not None:
        # 数学低于90分: 数学 is a subject (a value of 科目), 分 the unit of 分数: the subject's rows, compared on their 分数
        sc.add(Cond(held, "eq", raw.strip(), None, held, "exact"), s, s + len(raw.strip()))
        col, raw, how, s = figure[0], figure[0], "partial", s + len(raw.strip())
        end = figure[1]
    if col is None and isinstance(value, (int, float)):
        nums = [c for c in closest if c in sheet.numeric] + [c for c in sheet.columns if c in sheet.numeric and c not in closest]
        closest = tuple(nums[:3]) or closest
    if isinstance(value, str) and op in ("eq", "ne") and col and sheet.values.get(col) and not sheet.holds(value):
        parts = [x for x in LIST_JOIN.split(value) if x]  # 不是顺丰和德邦: two values of the column, said as one run of words
        if len(parts) >= 2 and all(sheet.holds(x) for x in parts):
            op, value = ("in" if op == "eq" else "not_in"), parts
    if isinstance(value, (int, float)) and not isinstance(value, bool) and op in ("eq", "ne") and col in sheet.numeric:
        # Crew Size is 2 or 3 / 人数是2或3: numbers of the column listed, any of them (never the first alone)
        figures: list[Any] = [value]
        end = end - len(text[:end]) + len(text[:end].rstrip(" ,，"))  # (2, 3 or 4: the comma is the list's)
        while (nm := NUMBER_LISTED.match(text, end)) is not None:  # (not 2 or 3: neither, as with values)
            figures.append(tidy(float(nm.group("n"))))
            end = nm.end()
        if len(figures) > 1:
            op, value = ("in" if op == "eq" else "not_in"), figures
    if isinstance(value, str) and op in ("eq", "ne"):
        op, value, end = _value_list(text, op, value, end, sheet)
    elif isinstance(value, str) and op in ("contains", "not_contains"):  # 包含 环比增长 或 同比增长: any of the words
        listed, words, end = _value_list(text, "eq", value, end, sheet)
        value = words if listed == "in" else value
    if col and sheet.values.get(col):
        if isinstance(value, str) and op in ("eq", "ne"):
            value = _canonical(value, sheet.values[col])
        elif isinstance(value, list):
            value = [_canonical(v, sheet.values[col]) for v in value]
    sc.add(Cond(col, op, value, None, raw, how, closest), s, end)


def _value_column(word: str, sheet: SheetInfo) -> str | None:
    """The one text column holding this word as a value (数学 of 科目), else None."""
    cols = [c for c, vs in sheet.values.items() if word in vs and c not in sheet.numeric]
    return cols[0] if len(cols) == 1 else None


def _figure_by_unit(text: str, end: int, sheet: SheetInfo) -> tuple[str, int] | None:
    """90分 / 3件: the numeric column a number's unit begins the name of (分 of 分数), or the only numeric column; where the
    unit ends."""
    unit = re.match(r"\s*([\u4e00-\u9fff])", text[end:])
    nums = [c for c in sheet.columns if c in sheet.numeric]
    named = [c for c in nums if unit and c.startswith(unit.group(1))]
    return (named[0], end + (unit.end() if unit else 0)) if len(named) == 1 else None  # (no unit said: which column is asked)


def _cond_infix(sc: _Scan) -> None:
    """Infix comparisons: 金额大于1000, 城市是上海, salary at least 5000; each word read once."""
    op_spans: list[tuple[int, int]] = []
    for op, m in _infix_words(sc.text):
        if not sc.free(m.start(), m.end()) or any(s < m.end() and m.start() < e for s, e in op_spans) or _glued(sc.text, m):
            continue
        if op == "ne" and VERBED_AHEAD.match(sc.text, m.end()):
            continue  # employees not managed by Ortiz: the negation is of the verb, read with the value after it
        if ONE_OF_AHEAD.match(sc.text, m.end()):
            continue  # operator is one of A, B, C: the list is read with its column by the values rule, never "= one"
        if op in ("eq", "ne") and (pa := PERIOD_PLACE_AHEAD.match(sc.text, m.end())) is not None and not sc.free(pa.end(), pa.end() + 1):
            continue  # Pickup Date is in H1 2024: the period is read already (never Pickup Date = "in H1")
        if op in ("eq", "ne") and (nx := FLAG_WORD_AHEAD.match(sc.text, m.end())) is not None \
                and any(c.startswith("是否") and len(c) > 3 and nx.group(1).startswith(c[2:]) for c in sc.sheet.columns):
            continue  # 数量大于等于3且不是医保的, over 是否医保: the flag said negated, read by the flag rules (never 数量 ≠ 医保)
        if op == "ne" and (pm := PLACE_AHEAD.match(sc.text, m.end())) is not None and find_values(sc.text[pm.end() :], sc.sheet, []):
            continue  # hotels not in London: a value of the table after "in", read with its own column (city), not hotel ≠ "in London"
        op_spans.append(m.span())
        _infix_one(sc, op, m)


PERIOD_PLACE_AHEAD = lazy(r"\s*(?:in|during|within|from|on|for)?\s*(?:the\s+)?", re.I)
FLAG_WORD_AHEAD = lazy(r"\s*([\u4e00-\u9fff]{2,8})")
PLACE_AHEAD = lazy(r"\s*(?:in|at|from|within)\s+(?:the\s+)?", re.I | re.A)
VERBED_AHEAD = lazy(r"\s*[a-z]+ed\s+(?:by|to|from|in|at|for|with)(?![a-z_])", re.I | re.A)


# a value said after a negated "is": 状态不是已完成的, tasks that aren't Done, which are not yet Closed
NEG_COPULA = lazy(r"(?:不是|并非|不为|(?<![a-z_])(?:isn't|aren't|wasn't|weren't|isnt|arent|(?:is|are|was|were) not|not yet|never)(?: yet)?(?:\s+(?:marked|set|flagged|labell?ed|tagged)(?:\s+(?:as|to))?)?|(?<![a-z_])not\s+(?:marked|set|flagged|labell?ed|tagged)(?:\s+(?:as|to))?)\s*$", re.I | re.A)


# the words a value's column goes by, written between a negation and the value (not from customer C999)
NAME_WORDS = lazy(r"[a-z]+", re.I | re.A)
TRAILING_FILLER = lazy(r"(?:\s*(?:the|a|an|in|from|at|of|on|within|with|for|by)(?![a-z_]))*\s*$", re.I | re.A)


def _before_value(b: str, col: str) -> str:
    """The words before a value, without a word naming its column just before it (customer for customer_id)."""
    words = {w.casefold() for w in NAME_WORDS.findall(col) if len(w) >= 3}
    concept = lx.concept_of(col)
    if concept:
        words |= {w for w in lx.CONCEPTS.get(concept, ()) if " " not in w}
    low = b.rstrip().casefold()
    if col.casefold() in low and low.endswith(col.casefold()):  # excluding Promo Code FREERIDE: the column's whole name
        return b.rstrip()[: len(low) - len(col)]
    m = re.search(r"([A-Za-z]+)\s*$", b)
    if m is not None and (m.group(1).casefold() in words or m.group(1).casefold().rstrip("s") in words):
        return b[: m.start()]
    return b


def _negated_before(b: str) -> re.Match[str] | None:
    """An exclusion or a negated verb just before a value (除了 / excluding / not in / aren't in the / not managed by)."""
    return (lx.EXCLUDE_BEFORE.search(b) or NEG_COPULA.search(b) or EXCLUDED_BEFORE.search(b)
            or NEG_COPULA.search(TRAILING_FILLER.sub("", b)) or NOT_VERBED.search(b))


# a negated participle with its preposition (not managed by / not assigned to / not shipped from)
NOT_VERBED = lazy(r"(?<![a-z_])(?:(?:not|never)\s+[a-z]+ed\s+(?:by|to|from|in|at|for|with)"
                  r"|(?:not|never)\s+(?:done|made|run|sold|built|kept|held|paid|seen|given|taken|handled|fixed|shipped|served)"
                  r"(?:\s+(?:by|to|from|in|at|for|with|on))?"
                  r"|(?:don't|doesn't|didn't|do not|does not|did not|dont|doesnt|never)\s+[a-z]+(?:\s+(?:in|at|from|for|with|on|as|to|into|under|within|out of|via|through)){0,2})"
                  r"(?:\s+(?:the|a|an))?\s*$", re.I | re.A)  # not managed by / who don't work (in) Remote / never ship from


def _cond_values_alone(sc: _Scan) -> None:
    """Values alone: 朝阳区的, Sales 部门的人, 上海和北京的订单 (除了上海: not that value)."""
    text = sc.text
    found = find_values(text, sc.sheet, sc.used)
    for col in sorted(found, key=lambda c: min(s for _, s, _ in found[c])):  # in the order written, whatever the set order
        # member inside the column's own name Member Type is no value said
        vals = sorted((v for v in found[col] if not any(h.start <= v[1] and v[2] <= h.end for h in sc.hits)), key=lambda t: t[1])
        if _flag_yes(sc.sheet, col) is not None:  # 值是人次: 是 (and 否, 有, 无) alone is a word of the sentence, never 是否复诊's yes
            vals = [v for v in vals if len(v[0]) > 1]
        if not vals:
            continue
        # patterns anchored at the value: only the words just before it are read (a long text is not scanned from each position)
        words = [(lo, m) for _, s, _ in vals if (m := _negated_before(_before_value(text[(lo := max(0, s - 60)) : s], col)))]
        neg = bool(words)
        first, last = min(s for _, s, _ in vals), max(e for _, _, e in vals)
        first = min([first] + [lo + m.start() for lo, m in words])  # the exclusion word (outside, 除了) is read with the value
        said_not = NEG_COPULA.search(text[:first])
        first = said_not.start() if said_not else first  # not marked as Done: the negation is read with the value
        names = _listed_between(text, vals, sc.sheet.values.get(col) or frozenset())
        how = "excluded" if neg else "exact"  # the exclusion word is read here, once
        if len(names) == 1:
            sc.add(Cond(col, "ne" if neg else "eq", names[0], raw=col, how=how), first, last)
        else:
            sc.add(Cond(col, "not_in" if neg else "in", names, raw=col, how=how), first, last)


VALUE_LIST_SEP = lazy(r"\s*(?:[,，、/]\s*(?:(?:or|and)\s+)?|(?<![a-z_])(?:or|and)(?![a-z_])|和|或者?|及|以及)\s*", re.I)


def _listed_between(text: str, vals: list[tuple[str, int, int]], known: frozenset[str]) -> list[str]:
    """Route in X10, 12, X20: the values found, and each other item of the same list that is a value of the column
    however it looks (12 is a route, never a number to compare) — in the order written."""
    names = list(dict.fromkeys(v for v, _, _ in vals))
    if len(vals) < 2:
        return names
    a, b = min(s for _, s, _ in vals), max(e for _, _, e in vals)
    items = [x.strip() for x in VALUE_LIST_SEP.split(text[a:b])]
    by_fold = {v.casefold(): v for v in known}
    listed = [by_fold.get(x.casefold()) for x in items]
    if any(v is None for v in listed) or not set(names) <= set(listed):
        return names  # the words between are no list of this column's values
    return list(dict.fromkeys(v for v in listed if v is not None))


KEY_CODE = lazy(r"\s*(?:[:：=＝]|是|为|号为|号是)?\s*(?P<code>(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9_-]{2,})(?![A-Za-z0-9_.])")


def _cond_key_code(sc: _Scan) -> None:
    """就诊号V000123 / 订单号 SO-1023 / OrderID ORD-0012: a code written right after a column that names each row is
    that row's key (the code need not be among the values the catalog sampled)."""
    for h in sc.hits:
        m = KEY_CODE.match(sc.text, h.end)
        if m is None or not sc.free(h.start, m.end()) or h.column in sc.sheet.numeric or h.column in sc.sheet.dates:
            continue
        known = sc.sheet.values.get(h.column)
        if known is not None and m.group("code") not in known:
            continue  # the column's values are all known, and this code is not one of them: left to the value rules
        if not re.search(r"(?:id|号|编号|编码|代码|no|number|code|key)$", h.column.strip(), re.I):
            continue
        ex = lx.EXCLUDE_BEFORE.search(sc.text[: h.start])  # excluding Promo Code FREERIDE: every code but that one
        if ex is not None:
            sc.add(Cond(h.column, "ne", m.group("code"), raw=h.column, how="excluded"), ex.start(), m.end())
            continue
        sc.add(Cond(h.column, "eq", m.group("code"), raw=h.column, how="exact"), h.start, m.end())


# a column that numbers places or things, never a measure (Unit, Room, Apt, Store No, Floor, Bay)
NUMBERED_NAME = lazy(r"(?<![a-z])(?:unit|room|apt|apartment|suite|flat|store|shop|branch|floor|lot|bay|dock|gate|desk|table|seat|lane|line|route|"
                     r"bus|zone|site|station|building|block|class|grade|level|ward|bed|no|num|number|id|code|#)(?![a-z])", re.I)
NUMBER_AFTER = lazy(r"\s+#?\s*(?P<n>\d{1,9})(?![\d.,%])(?!\s*(?:%|percent|rows?|records?|times|or\b|and up|\+|-|to\b|through|及|以上|以下))", re.I)


def _cond_numbered_key(sc: _Scan) -> None:
    """show the work orders for unit 904 / Room 12: a number written right after a column that numbers places or things
    (within its range, or among its known values) is that one, never a preview of the table with the number dropped."""
    for h in sc.hits:
        if not NUMBERED_NAME.search(h.column) or h.column in sc.sheet.dates:
            continue
        m = NUMBER_AFTER.match(sc.text, h.end)
        if m is None or not sc.free(h.start, m.end()):
            continue
        v = int(m.group("n"))
        lo, hi = sc.sheet.ranges.get(h.column, (v, v))
        known = sc.sheet.values.get(h.column)
        if not lo <= v <= hi or h.column not in sc.sheet.numeric and known is not None and not {str(v), f"{v}.0"} & set(known):
            continue
        ex = lx.EXCLUDE_BEFORE.search(sc.text[: h.start])
        if ex is not None:  # except unit 904: every other one
            sc.add(Cond(h.column, "ne", v, raw=h.column, how="excluded"), ex.start(), m.end())
            continue
        sc.add(Cond(h.column, "eq", v, raw=h.column, how="exact"), h.start, m.end())


YES_NO_PAIRS = (("是", "否"), ("yes", "no"), ("y", "n"), ("true", "false"), ("有", "无"), ("已", "未"))
FLAG_COLUMN = lazy(r"^(?:是否|是不是|有没有|有无|(?:is|has|was)[_ ])(?P<noun>.{2,12})$", re.I)
NOT_BEFORE = lazy(r"(?:没有|没|未|无|不是|不属于|不|非|(?<![a-z_])(?:not|no|non|never)[\s\-]*)$", re.I | re.A)
ASKED_EITHER = lazy(r"(?:有没有|有无|是不是|是否)\s*(?:有|是)?\s*$")


NEG_PERFECT = lazy(r"(?<![a-z_])(?:haven'?t|hasn'?t|hadn'?t|have not|has not|had not|weren'?t|wasn'?t|were not|was not|never|not yet)\s+(?:been\s+|yet\s+been\s+|got\s+)?$", re.I)
UN_BEFORE = lazy(r"(?<![a-z])(?:un|non-?)$", re.I)


def _cond_flags(sc: _Scan) -> None:
    """退货的订单 / 没有退货的 / not returned, over a yes-no column 是否退货 (is_returned): the column's yes or no value;
    去掉退货的 / 不要退货的: not that value."""
    for col in sc.sheet.columns:
        m = FLAG_COLUMN.match(col)
        vals = {v.casefold(): v for v in sc.sheet.values.get(col, ())}
        pair = next(((vals.get(y, y), vals.get(n, n)) for y, n in YES_NO_PAIRS if vals and set(vals) <= {y, n}), None) if m else None
        if m is None or pair is None:
            continue
        noun = m.group("noun").replace("_", " ").casefold()
        for w in re.finditer(re.escape(noun), sc.text.casefold()):
            a, b = w.span()
            if not sc.free(a, b) or any(h.start <= a < h.end for h in sc.hits):
                continue  # the column's own name (是否退货为否) is read by the comparison rules
            if sc.text[b : b + 1] == "值":
                continue  # 运费的异常值 over 是否异常: outliers, read by their own rule
            asked = ASKED_EITHER.search(sc.text[:a])  # 有没有异常的单子 / 是不是退货的: whether there are any, never "not"
            neg = None if asked else NOT_BEFORE.search(sc.text[:a]) or UN_BEFORE.search(sc.text[:a])  # not paid / unpaid
            start = neg.start() if neg else a
            excl = lx.EXCLUDE_BEFORE.search(sc.text[:start])
            value = pair[1] if neg else pair[0]
            sc.add(Cond(col, "ne" if excl else "eq", value, raw=col, how="excluded" if excl else "exact"), excl.start() if excl else start, b)


CN_DIGITS = "零一二三四五六七八九十"
BRACKETED_NUMBER = lazy(r"[(（](\d{1,2})[)）]")


def _unbracketed(value: str) -> str:
    """高一(1)班 as 高一1班."""
    return BRACKETED_NUMBER.sub(r"\1", value)


def _numbered_forms(value: str, prefix: str) -> list[str]:
    """高一(1)班 said as 高一1班, 高一一班, 1班 or 一班 (the part after what every value of its column starts with)."""
    m = re.search(r"[(（]?(\d{1,2})[)）]?", value)
    if m is None or not 0 < int(m.group(1)) <= 10:
        return []
    bare = value[: m.start()] + m.group(1) + value[m.end() :]
    cn = value[: m.start()] + CN_DIGITS[int(m.group(1))] + value[m.end() :]
    forms = [bare, cn]
    if prefix and bare.startswith(prefix) and len(bare) - len(prefix) >= 2:
        forms += [bare[len(prefix) :], cn[len(prefix) :]]
    return [f for f in dict.fromkeys(forms) if f != value and len(f) >= 2]


def _cond_numbered_values(sc: _Scan) -> None:
    """高一一班 / 1班 for the class 高一(1)班: a numbered value written with its number as a word or without brackets is
    that value (unique in its column), never a word dropped."""
    for col, values in sc.sheet.values.items():
        if col in sc.sheet.numeric or len(values) > 60 or not any(BRACKETED_NUMBER.search(v) for v in values):
            continue
        bare = [_unbracketed(v) for v in values]
        prefix = os.path.commonprefix(bare)  # 高一 of 高一1班 …
        forms: dict[str, list[str]] = {}
        for v in values:
            for f in _numbered_forms(v, prefix):
                forms.setdefault(f, []).append(v)
        for f in sorted(forms, key=len, reverse=True):
            if len(forms[f]) != 1:
                continue
            for m in re.finditer(re.escape(f), sc.text):
                if sc.free(m.start(), m.end()) and not re.match(r"[\d一二三四五六七八九十]", sc.text[m.end() : m.end() + 1]):
                    excl = lx.EXCLUDE_BEFORE.search(sc.text[: m.start()])
                    sc.add(Cond(col, "ne" if excl else "eq", forms[f][0], raw=col, how="excluded" if excl else "exact"),
                           excl.start() if excl else m.start(), m.end())
        suffix = os.path.commonprefix([v[::-1] for v in bare])[::-1]  # 班 of 高一1班 …
        if suffix and not re.search(r"[\d)）]", suffix):  # 高一四班, where the classes are 1 to 3: asked about, never dropped
            for m in re.finditer(r"(?:" + re.escape(prefix) + r")?\s*[(（]?(?:[一二三四五六七八九十]|\d{1,2})[)）]?" + re.escape(suffix), sc.text):
                if sc.free(m.start(), m.end()) and m.group(0).strip() not in values:
                    sc.add(Cond(col, "eq", m.group(0).strip(), None, col, "absent_value", tuple(sorted(values)[:8])), m.start(), m.end())


GLUED_EXCLUSION_AFTER = lazy(r"\s*的?\s*(?:也|都)?\s*(?:不算|不要|不计|不含|除外|不包括|去掉|排除|剔除)")


def _excluded_part(sc: _Scan, tok: str, a: int, b: int) -> bool:
    """除了中山路店 / 不算退货的: an exclusion glued to a part of one value (仁和堂中山路店), or to the done half of a
    已…/未… pair (已退货): that value excluded, never a value of that spelling asked about."""
    lead = re.match(r"(?:" + lx.EXCLUDE.pattern + r")(?:掉|了)?", tok)
    tail = GLUED_EXCLUSION_AFTER.match(sc.text, b)  # 退货的不算 / 医保的也不要: the exclusion said after
    trail = re.search(r"的?(?:也|都)?(?:不算|不要|不计|不含|除外|不包括|去掉|排除|剔除)$", tok) if not lead and not tail else None
    rest = tok[lead.end():] if lead else tok if tail else tok[: trail.start()] if trail else ""  # 武汉线不算: said after, in one run
    if len(rest) < 2 or rest in sc.sheet.columns:
        return False
    for col, values in sc.sheet.values.items():
        # 不算武汉线: the part of a value, with the first words of its own column's name (线 of 线路) after it
        heads = [rest] + [rest[:-k] for k in (1, 2) if len(rest) - k >= 2 and col.startswith(rest[-k:])]
        for part in heads:
            hits = [v for v in values if part in v]
            done = f"已{part}" if {f"已{part}", f"未{part}"} <= set(values) else None
            value = done or (hits[0] if len(hits) == 1 else None)
            if value is not None:
                sc.add(Cond(col, "ne", value, None, col, "excluded"), a, b)
                return True
    return False


def _absent_value(sc: _Scan, tok: str, a: int, b: int) -> None:
    if not sc.free(a, b) or not 2 <= len(tok) <= 8 or re.match(r"[按把将给对在从以用被每各该这那哪几一全所]|有?多少", tok) \
            or re.search(r"[二两三四五六七八九十几多]+个", tok) \
            or (re.match(r"[个家位名条种款件份]", tok) and re.search(r"\d\s*$", sc.text[:a])):  # 三个店 / 前10个药: how many, no value
        return
    if _excluded_part(sc, tok, a, b):
        return
    if len(tok) > 6:
        return
    if any(h.start <= a < h.end for h in sc.hits):
        return  # the word starts with a column's name: a column, not a value
    for col, values in sc.sheet.values.items():
        suffix = _value_suffix(values)
        if suffix and tok.endswith(suffix) and tok not in values and tok != col and not any(tok in v or v in tok for v in values):
            sc.add(Cond(col, "eq", tok, None, col, "absent_value", tuple(sorted(values)[:8])), a, b)
            return


def _cond_absent_values(sc: _Scan) -> None:
    """Words shaped like a column's values but absent from the data (华中仓, 丰台区): asked about, never dropped."""
    hits = sc.hits
    bounds = {h.start for h in hits if len(h.column) > 1} | {h.end for h in hits if len(h.column) > 1}
    for m in re.finditer(r"[\u4e00-\u9fff]+", sc.text):
        for tok_m in re.finditer(r"[^和与及或的里在把将从是为、]+", m.group(0)):
            a0, b0 = m.start() + tok_m.start(), m.start() + tok_m.end()
            edges = [a0] + sorted(x for x in bounds if a0 < x < b0) + [b0]  # words end where a column's name begins (顺义区|评分)
            for a, b in zip(edges, edges[1:], strict=False):
                _absent_value(sc, sc.text[a:b], a, b)


EXAMPLE_CUE = lazy(r"例如|比如|譬如|诸如|像是|(?<![a-z_])(?:e\.g\.|for example|for instance|such as)", re.I)


def _cond_example_of_kind(sc: _Scan) -> None:
    """'Grade' has invalid values, e.g. 'NS' … delete the non-numeric ones: a value given as an example of the kind
    another condition on that column names (not a number) is that condition's example, not a condition of its own."""
    kinds = {c.column: c.op for c in sc.out.conds if c.op in ("numeric", "not_numeric")}
    if not kinds:
        return
    shown = [sc.text[m.end() : m.end() + 24] for m in EXAMPLE_CUE.finditer(sc.text)]
    keep = []
    for c, span in zip(sc.out.conds, sc.out.spans, strict=True):
        example = c.column in kinds and c.op in ("eq", "ne") and isinstance(c.value, str) and any(c.value in w for w in shown)
        if example and kinds[c.column] == "not_numeric" and parse_number(c.value) is None:
            continue  # the span stays read: the example is accounted for
        keep.append((c, span))
    sc.out.conds, sc.out.spans = [c for c, _ in keep], [sp for _, sp in keep]


OR_WORD = lazy(r"或者|或是|(?<![a-z_])or(?![a-z_])|或(?!以)", re.I | re.A)


def _cond_logic(sc: _Scan) -> None:
    """或 / or between the conditions joins them with or (a list of values is already one condition)."""
    out = sc.out
    if OR_WORD.search(sc.text) and len(out.conds) > 1:
        spans = sorted(out.spans)
        # only an or in the gap between two conditions joins them; 或 inside a value list (Sales 或 Marketing) does not
        gaps = [sc.text[e0:s1] for (_, e0), (s1, _) in zip(spans, spans[1:], strict=False)]
        if any(OR_WORD.search(g) for g in gaps) and not all(c.op == "in" for c in out.conds):
            out.logic = "or"
            # 门店是A或金额大于X，是否退货为否: an or between two conditions and an and before another; one filter
            # joins them all one way, so the reading is said before it runs
            out.mixed = len(gaps) > 1 and not all(OR_WORD.search(g) for g in gaps)


# the condition rules, in the order they run: a span one rule read is not read by a later one
# An exclusion's scope is the one condition it is written against: before it with a few words between (excluding
# those in York, not in the North region, 除了是销售部的) or after it (销售部以外的女员工, 月薪为0的不算, 华东除外)
EXCLUSION_FILLER = (r"(?:\s*(?:the|those|that|these|ones?|rows?|records?|items?|in|from|of|at|within|with|where|which|who|were|was|are|is|"
                    r"have been|has been|got|marked|是|在|为|属于)(?![a-z_]))*"
                    r"(?:\s*[a-z]{3,}s\s+(?:with|where|whose|that|which|in|from|on|at)(?:\s+(?:the|a|an))?)?\s*$")  # leave out rentals with …
# the words that close an exclusion said after its value (顺丰以外 / 退货的不算)
EXCLUDED_AFTER_WORDS = (r"(?:以外|之外|除外|不算|不计|不计入|不包括|不要了?|不用|不看|去掉|排除|剔除"
                        # Cash excluded / blank payments left out: the English said after, as a participle
                        r"|(?<![a-z_])(?:(?:are|is|should be|to be)\s+)?(?:excluded|left out|removed|dropped|taken out|ignored|set aside|not counted)(?![a-z_]))")
EXCLUDED_BEFORE = lazy(r"(?:" + lx.EXCLUDE.pattern + r"|(?<![a-z_])(?:outside(?: of)?|not (?:in|from|at|on|via|through|under|using|over|within|inside)|other than))" + EXCLUSION_FILLER,
                       re.I | re.A)
# after the condition: 的, a few words naming the rows (的订单, 级客户, 分公司), then the exclusion
EXCLUDED_AFTER = lazy(r"^\s*的?(?:\s*[(（][^()（）]{1,40}[)）])?[\u4e00-\u9fff]{0,4}?\s*" + EXCLUDED_AFTER_WORDS,
                      re.I | re.A)

# a condition in brackets right after the words it spells out (the refunded rows (Refunded = Y) / 退款的（是否退款=是）):
# an exclusion said before those words covers it; "not" and 非 are part of the words themselves (not refunded (Refunded = N))
PAREN_OPEN = lazy(r"[(（]\s*$")
PAREN_CLOSE = lazy(r"\s*[)）]")
EXCLUDED_NAMED = lazy(r"(?<![a-z_])(?!(?:not|but not)\s)(?:" + lx.EXCLUDE.pattern + r")(?<!非)\s*(?:掉|了)?\s*"
                      r"(?:(?:[a-z'-]+\s+){0,4}[a-z'-]+|[\u4e00-\u9fff]{1,8}?的?[\u4e00-\u9fff]{0,4})\s*$", re.I | re.A)

NOT_DONE_SINCE = lazy(r"(?<![a-z_])(?:haven't|hasn't|havent|hasnt|have not|has not|had not|hadn't|weren't|wasn't|not|never)\s+(?:been\s+)?[a-z]+\s*$", re.I | re.A)
DATE_COLUMN_LINK = lazy(r"\s*(?:in|on|during|of|from|is|was|=|在|是|为)?\s*", re.I | re.A)
NEGATE = {"eq": "ne", "ne": "eq", "gt": "le", "ge": "lt", "lt": "ge", "le": "gt", "in": "not_in", "not_in": "in",
          "contains": "not_contains", "not_contains": "contains", "empty": "not_empty", "not_empty": "empty",
          "between": "not_between", "not_between": "between", "numeric": "blank_or_not_numeric", "not_numeric": "blank_or_numeric",
          "startswith": "not_startswith", "not_startswith": "startswith", "endswith": "not_endswith", "not_endswith": "endswith",
          "blank_or_numeric": "not_numeric", "blank_or_not_numeric": "numeric", "weekday_in": "weekday_not_in", "weekday_not_in": "weekday_in"}


def negate(c: Cond) -> Cond:
    """The condition for the rows to keep when the user asks to delete the rows that meet c."""
    if c.op in NEGATE:
        return Cond(c.column, NEGATE[c.op], c.value, c.value2, c.raw, c.how, c.closest)
    return c


NOT_JUST_BEFORE = lazy(r"(?:(?<![a-z_])not\s+(?:just|only)|不只是?|不光是?|不仅仅?是?|而不只是?)\s*(?:the\s+)?$", re.I)


WHOLE_YEAR = lazy(r"全年|整年|一整年|(?<![a-z_])(?:the\s+)?(?:whole|full|entire)\s+year(?![a-z_])|(?<![a-z_])all\s+year(?:\s+round)?(?![a-z_])", re.I)


def _cond_released(sc: _Scan) -> None:
    """不只是停车费 / not just Online: the value said is no longer the only one kept — a condition released, never added;
    全年 / the whole year: no period of the date column kept."""
    for i, (c, (a, _b)) in enumerate(zip(sc.out.conds, sc.out.spans, strict=True)):
        if c.op == "eq" and c.how != "excluded" and (m := NOT_JUST_BEFORE.search(sc.text[:a])) is not None:
            sc.out.conds[i] = replace(c, how="released")
            sc.out.spans[i] = (m.start(), sc.out.spans[i][1])
    dated = [c for c in sc.sheet.columns if c in sc.sheet.dates]
    for m in WHOLE_YEAR.finditer(sc.text):
        if len(dated) == 1 and sc.free(m.start(), m.end()) and not any(x <= m.start() < y for x, y in sc.out.spans):
            sc.add(Cond(dated[0], "between", None, None, m.group(0), "released"), m.start(), m.end())


LISTED_BEFORE = lazy(r"\s*(?:[,，、]\s*)?(?:(?:and|or)(?![a-z_])|和|或者?|及|以及|与|、)\s*(?:the\s+|any\s+)?", re.I)


def _cond_scope_of_negation(sc: _Scan) -> None:
    """Each condition written inside an exclusion's scope is negated once; the other conditions stay as they are."""
    said_after: list[int] = []
    for i, (c, (a, b)) in enumerate(zip(sc.out.conds, sc.out.spans, strict=True)):
        dated = isinstance(c.value, dict) and "date" in c.value  # (a date whose column is found later: its negation is read now)
        if c.how in ("excluded", "month_no_year") or (c.column is None and not dated):
            continue  # (a month whose year is asked stays asked: its exclusion is read once the year is said)
        head = a
        for h in sc.hits:  # leave out rentals with Rental Date in June: the period's own column, said just before it, is in its scope
            if h.column == c.column and 0 <= a - h.end <= 12 and DATE_COLUMN_LINK.fullmatch(sc.text[h.end : a]):
                head = h.start
        before = EXCLUDED_BEFORE.search(sc.text[:head])
        opened = PAREN_OPEN.search(sc.text[:head])
        if before is None and opened is not None:  # leave out the refunded rows (Refunded = Y): the brackets say what is left out
            before = EXCLUDED_NAMED.search(sc.text[: opened.start()])
        if before is None and c.op in ("ge", "gt") and re.match(r"since(?![a-z_])", sc.text[a:], re.I):
            before = NOT_DONE_SINCE.search(sc.text[:head])  # haven't been serviced since 1 March: the last time was before it
        after = EXCLUDED_AFTER.match(sc.text[b:])
        closed = PAREN_CLOSE.match(sc.text[b:]) if opened is not None else None
        if after is None and closed is not None and EXCLUDED_AFTER.match(sc.text[b + closed.end() :]):
            after = re.match(r"\s*[)）]" + EXCLUDED_AFTER.pattern.lstrip("^"), sc.text[b:])  # 退款的（是否退款=是）不算
        if before is None and after is None:
            continue
        if before is not None and any(x <= before.start() < y and not (opened is not None and d.how == "excluded" and d.column == c.column)
                                      for j, (d, (x, y)) in enumerate(zip(sc.out.conds, sc.out.spans, strict=True)) if j != i):
            continue  # the word belongs to a condition already read (不包含X)
        sc.out.conds[i] = replace(negate(c), how="excluded")
        sc.out.spans[i] = (before.start() if before is not None else a, b + (after.end() if after is not None else 0))
        if before is None:
            said_after.append(i)
    order = sorted(range(len(sc.out.conds)), key=lambda k: sc.out.spans[k])
    for k in range(len(order) - 1, 0, -1):  # blank payments and Cash excluded: the conditions listed before it are left out too
        cur, prev = order[k], order[k - 1]
        if cur not in said_after or sc.out.conds[prev].how == "excluded" or sc.out.conds[prev].op not in ("eq", "in", "empty"):
            continue
        if not LISTED_BEFORE.fullmatch(sc.text[sc.out.spans[prev][1] : sc.out.spans[cur][0]]):
            continue
        sc.out.conds[prev] = replace(negate(sc.out.conds[prev]), how="excluded")
        said_after.append(prev)
    same = [i for i, (c, (a, b)) in enumerate(zip(sc.out.conds, sc.out.spans, strict=True))
            if any(j != i and (d.column, d.op, d.value, d.value2) == (c.column, c.op, c.value, c.value2) and x <= a and b <= y and (x, y) != (a, b)
                   for j, (d, (x, y)) in enumerate(zip(sc.out.conds, sc.out.spans, strict=True)))]
    for i in reversed(same):  # 去掉退款的（是否退款=是）: the words and the brackets that spell them out are one condition
        del sc.out.conds[i], sc.out.spans[i]


EXCLUDED_LIST_JOIN = lazy(r"\s*的?\s*(?:[,，、]\s*)?(?:(?:and|or|nor)(?![a-z_])|和|或者?|及|以及|与)?\s*(?:the\s+|any\s+)?", re.I)


EXCLUDED_AFTER_END = lazy(EXCLUDED_AFTER_WORDS + r"\s*$")  # 顺丰以外的: its scope ends there
KEPT_ONLY_AFTER = lazy(r"\s*(?:only|alone)(?![a-z_])|\s*的?\s*(?:就行|就好|而已)", re.I)
KEPT_ONLY_BEFORE = lazy(r"(?:(?<![a-z_])(?:only|just)|只要|只看|只留|只算|仅|只)\s*(?:the\s+)?$", re.I)


def _cond_exclusion_list(sc: _Scan) -> None:
    """excluding refunds and concessions / without cash or card: a value said right after an excluded one, joined by
    and / or, is left out too (neither is kept), and the joining word is the exclusion's, never an or between two kept sets."""
    order = sorted(range(len(sc.out.conds)), key=lambda k: sc.out.spans[k])
    for prev, cur in zip(order, order[1:], strict=False):
        p, c = sc.out.conds[prev], sc.out.conds[cur]
        gap = sc.text[sc.out.spans[prev][1] : sc.out.spans[cur][0]]
        blank = c.op == "empty"  # excluding cash and blank payment_method: a blank is said with its column, and left out too
        if p.how != "excluded" or p.op not in ("ne", "not_in", "not_empty") or c.how == "excluded" or c.op not in ("eq", "in", "empty") \
                or EXCLUDED_AFTER_END.search(sc.text[slice(*sc.out.spans[prev])]) \
                or not gap.strip() or not EXCLUDED_LIST_JOIN.fullmatch(gap) \
                or not blank and any(h.column == c.column and sc.out.spans[cur][0] <= h.start < sc.out.spans[cur][1] for h in sc.hits):
            continue  # (excluding Cash, and Route X10: a condition said with its column starts a condition of its own)
        if KEPT_ONLY_AFTER.match(sc.text, sc.out.spans[cur][1]) or KEPT_ONLY_BEFORE.search(sc.text[: sc.out.spans[cur][0]]):
            continue  # except Downtown, Online only / 除了东区，只要线上的: the value kept alone starts a condition of its own
        if blank and BLANK_PREDICATE.search(sc.text[slice(*sc.out.spans[cur])]):
            continue  # not Compact and extras are blank: a clause with its own verb, never the exclusion's list
        sc.out.conds[cur] = replace(negate(c), how="excluded")
        sc.out.spans[cur] = (sc.out.spans[prev][1], sc.out.spans[cur][1])


BLANK_PREDICATE = lazy(r"(?<![a-z_])(?:is|are|was|were|be|being)\s+(?:left\s+)?(?:blank|empty|missing|null)(?![a-z_])|(?:为空|是空|空着|没填|未填)", re.I)


# Cash和空的不算 / excluding Cash and blanks: a blank said right after a value, with no column of its own
BLANK_LISTED = lazy(r"\s*(?:和|或者?|、|及|以及|与|跟|[,，]\s*(?:and|or)?|(?<![a-z_])(?:and|or)(?![a-z_]))\s*(?:the\s+)?"
                    r"(?:空的|为空的|空白的|空着的|没填的|空值|(?:blanks|empty ones|blank ones|empties|missing ones)(?![a-z_]))", re.I)


def _cond_blanks_left_out(sc: _Scan) -> None:
    """list each MemberID once, skip blank ones / visits by Package, excluding blanks: blanks said with no column are
    those of the one column the request names and sets no condition on — a key's blank group left out (with none, or
    several, they are left unread and asked about)."""
    named = {h.column for h in sc.hits if h.column not in sc.sheet.numeric} - {c.column for c in sc.out.conds}
    for m in BLANKS_LEFT_OUT.finditer(sc.text):
        if len(named) == 1 and sc.free(m.start(), m.end()):
            col = next(iter(named))
            sc.add(Cond(col, "not_empty", raw=col, how="excluded"), m.start(), m.end())


# rows with a blank in any column / 有空值的行: a blank in one column or another; rows with no blanks at all: none in any
ANY_BLANK = lazy(r"(?P<no>(?<![a-z_])(?:no|without(?: any)?|free of)\s+)?(?<![a-z_])(?:an?\s+|any\s+)?(?:blank|empty|missing|null)(?:s|\s+(?:cells?|values?|fields?))?"
                 r"\s+(?:in\s+(?:any|some|at least one)\s+(?:of\s+the\s+)?(?:columns?|fields?)|anywhere)(?![a-z_])"
                 r"|(?P<no2>(?<![a-z_])(?:no|without)\s+)?(?<![a-z_])any\s+(?:blank|empty|missing|null)(?:s|\s+(?:cells?|values?|fields?))?(?![a-z_])(?!\s+(?:in|for|of)\s)"
                 r"|(?P<zno>没有|不含|无)?(?:任意一列|任一列|任何一列|某一列|哪一列)(?:有|是|为)?空(?:值|白)?|(?P<zno2>没有|不含|无)?(?:有|含|存在|带)?(?:空值|空白|缺失值?)(?=的?(?:行|记录|数据|条目|单子|订单))", re.I | re.A)


def _cond_any_blank(sc: _Scan) -> None:
    """rows with a blank in any column: each column blank, joined with or; with no blanks at all: every column filled."""
    m = ANY_BLANK.search(sc.text)
    if m is None or not sc.sheet.columns or any(h.start < m.end() and m.start() < h.end for h in sc.hits):
        return  # (a blank in one named column is that column's)
    none = bool(m.group("no") or m.group("no2") or m.group("zno") or m.group("zno2"))
    for c in sc.sheet.columns:
        sc.add(Cond(c, "not_empty" if none else "empty", raw=c, how="exact"), m.start(), m.end())
    sc.any_blank = (m.start(), m.end(), "and" if none else "or")


def _cond_any_blank_join(sc: _Scan) -> None:
    """The blanks in any column joined with or; with another condition too, the two ways of joining mix (said before it
    runs, as every or with an and is)."""
    if sc.any_blank is None or sc.any_blank[2] != "or":
        return
    sc.out.logic = "or"
    sc.out.mixed = any(sp != sc.any_blank[:2] for sp in sc.out.spans)


def _cond_blank_listed(sc: _Scan) -> None:
    """A blank listed right after a value (Cash和空的不算 / excluding Cash and blanks) is that value's column blank: kept
    or left out with it (the scope of an exclusion said after both reads it; one said before, already read, covers it)."""
    for c, (_a, b) in list(zip(sc.out.conds, sc.out.spans, strict=True)):
        if c.column is None or c.op not in ("eq", "in", "ne", "not_in"):
            continue
        m = BLANK_LISTED.match(sc.text, b)
        if m is None or not sc.free(m.start(), m.end()):
            continue
        before = c.op in ("ne", "not_in") and c.how == "excluded"
        if not before and EXCLUDED_AFTER.match(sc.text[m.end() :]) is None:
            if c.op in ("eq", "in"):  # 是Cash或者空的: either one kept (the reader joins the two with or)
                sc.add(Cond(c.column, "empty", raw=c.column, how="either"), m.start(), m.end())
            continue
        sc.add(Cond(c.column, "not_empty" if before else "empty", raw=c.column, how="excluded" if before else "exact"), m.start(), m.end())


COND_RULES = (
    _cond_any_blank, _cond_year_column, _cond_period_range, _cond_not_but, _cond_between, _cond_count_of_unit, _cond_sign, _cond_blanks, _cond_numeric, _cond_same_columns,
    _cond_has_column, _shield_year_columns, _cond_month_range, _cond_fiscal_year, _cond_relative_period, _cond_tenure, _cond_quarter_half,
    _cond_weekday, _cond_date_words, _cond_month_day_range, _cond_month_day_words, _cond_day_alone, _cond_month_year_en, _cond_month_one, _cond_year_list, _cond_year_alone, _unshield,
    _cond_ordered_bound, _cond_flag_negated, _cond_postfix, _cond_text_shapes, _cond_infix, _cond_key_code, _cond_numbered_key, _cond_flag_plural, _cond_flag_column, _cond_flags, _cond_numbered_values, _cond_values_alone, _cond_absent_values,
    _cond_example_of_kind, _cond_blank_listed, _cond_blanks_left_out, _cond_released, _cond_scope_of_negation, _cond_exclusion_list, _cond_logic,
    _cond_any_blank_join,
)


ONE_OF = lazy(r"(?:(?<![a-z_])(?:is|are|was|were|in)\s+|是|为|属于)\s*(?P<w>(?<![a-z_])(?:one of|any of|among|either)(?:\s+the)?(?![a-z_])|以下(?:之一|任意一个|其中一个)[:：]?)",
              re.I | re.A)


PLACE_WORDS = frozenset({"in", "on", "at", "from", "inside", "within", "under", "into"})
ONE_OF_AHEAD = lazy(r"\s*(?:(?:one of|any of|among|either)(?![a-z_])|以下(?:之一|任意一个|其中一个))", re.I | re.A)


# 1 March 2024 / March 1, 2024 / 1st of Mar 2024: one day, written as the ISO date it is (in place, padded to its length)
DAY_DATE_EN = lazy(r"(?<![\w-])(?:(?P<d1>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m1>" + _MONTH_EN + r")\.?,?\s+(?P<y1>(?:19|20)\d{2})"
                   r"|(?P<m2>" + _MONTH_EN + r")\.?\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y2>(?:19|20)\d{2}))(?![\w-])", re.I | re.A)


def _iso_days(text: str) -> str:
    def iso(m: re.Match[str]) -> str:
        y, mon, d = m.group("y1") or m.group("y2"), m.group("m1") or m.group("m2"), m.group("d1") or m.group("d2")
        try:
            day = date(int(y), MONTHS_EN[mon.casefold()], int(d))
        except (ValueError, KeyError):
            return m.group(0)
        return day.isoformat().ljust(len(m.group(0)))
    return DAY_DATE_EN.sub(iso, text) if re.search(r"\d", text) else text


def parse_conditions(text: str, sheet: SheetInfo, hits: list[ColumnHit], blocked: list[tuple[int, int]] | None = None) -> CondParse:
    """All conditions in text, against one sheet's columns."""
    text = _iso_days(text)
    # operator is one of A, B, C / 是以下之一: the list's own words; the values after them are read as a list
    blocked = list(blocked or []) + [m.span("w") for m in ONE_OF.finditer(text)]
    # 整体满意度(1-5分): the figures inside a column's own name are its name, never a value compared with
    blocked += [(h.start + d.start(), h.end) for h in hits if h.how == "exact" and (d := re.search(r"\d", text[h.start : h.end])) is not None]
    sc = _Scan(text, sheet, hits, CondParse(), blocked)
    for rule in COND_RULES:
        rule(sc)
    sc.out.conds = [_year_number(c, sheet) for c in _one_list(sc.out.conds, sheet)]
    _besides_closed(sc)
    return sc.out


YEAR_NAME = lazy(r"年份|年度|年$|(?<![a-z])(?:year|yr)s?(?![a-z])", re.I)


def _year_number(c: Cond, sheet: SheetInfo) -> Cond:
    """2020年以前入住的, over 入住年份 holding 2012 … 2024 as numbers: the period's bound is the year's number (入住年份 <
    2020), never a date compared with a number."""
    lo, hi = sheet.ranges.get(c.column or "", (0.0, 0.0))
    if not c.column or c.column not in sheet.numeric or not YEAR_NAME.search(c.column) or not (1900 <= lo and hi <= 2100):
        return c
    def year(v: Any) -> int | None:
        d = v.get("date") if isinstance(v, dict) else None
        return int(d[:4]) if isinstance(d, str) and re.fullmatch(r"\d{4}-(?:01-01|12-31)", d) else None
    y, y2 = year(c.value), year(c.value2) if c.value2 is not None else None
    if y is None or (c.value2 is not None and y2 is None):
        return c
    return replace(c, value=y, value2=y2)


BESIDES_CLOSE = lazy(r"\s*(?P<gap>[\u4e00-\u9fff]{0,3}?)\s*(?:的)?\s*(?:以外|之外)")


def _besides_closed(sc: _Scan) -> None:
    """除了个人客户以外: the closing 以外 / 之外 of an exclusion said with 除了 is the exclusion's, with a word of its
    column's name (客户 of 客户类型) or a noun for the rows between."""
    if len(sc.out.conds) != len(sc.out.spans):
        return
    for i, (c, (a, b)) in enumerate(zip(sc.out.conds, sc.out.spans, strict=True)):
        m = BESIDES_CLOSE.match(sc.text, b)
        if m is None or c.op not in ("ne", "not_in") or not re.search(r"除(?:了|去|开)?\s*$|^\s*除", sc.text[max(0, a - 3) : a + 2]):
            continue
        gap = m.group("gap")
        if gap and not (c.column and gap in c.column) and gap not in ("的", "这些", "那些", "这个", "那个", "客户", "订单", "记录", "人"):
            continue
        sc.out.spans[i] = (a, m.end())


INCLUDED_TAIL = re.compile(r"(?:都算|都要|都行|也算|都包括|都可以|都计入|都统计|也要)$")


def _one_list(conds: list[Cond], sheet: SheetInfo) -> list[Cond]:
    """A value list read with its closing words (贷款或者分期都算: 分期 is the value, 都算 says both count), and a value
    said again beside the list that holds it (贷款的比例…贷款或者分期都算): one condition, the list."""
    out: list[Cond] = []
    for c in conds:
        if c.op == "in" and c.column and isinstance(c.value, list):
            known = sheet.values.get(c.column, frozenset())
            vals = [INCLUDED_TAIL.sub("", v) if isinstance(v, str) and v not in known and INCLUDED_TAIL.sub("", v) in known else v for v in c.value]
            c = replace(c, value=vals)
        out.append(c)
    lists = [c for c in out if c.op == "in" and isinstance(c.value, list)]
    return [c for c in out if not (c.op == "eq" and any(lc.column == c.column and c.value in lc.value for lc in lists))]


def _percent(value: Any, written: str, col: str | None, sheet: SheetInfo) -> Any:
    """30% is 0.3 for a column of fractions, 30 for a column that stores percent points."""
    if isinstance(value, (int, float)) and "%" in written and col and col in sheet.ranges and sheet.ranges[col][1] > 1.5:
        return tidy(round(value * 100, 6))
    return value


def _value_suffix(values: frozenset[str]) -> str | None:
    """The last character most of a column's values share (区, 仓, 部), if they share one."""
    cjk = [v for v in values if v and CJK.match(v[-1])]
    if len(cjk) < 2:
        return None
    last = max({v[-1] for v in cjk}, key=lambda ch: sum(v.endswith(ch) for v in cjk))
    return last if sum(v.endswith(last) for v in cjk) >= 0.6 * len(values) else None


def _canonical(value: str, values: frozenset[str]) -> str:
    """The column's own spelling of a value written in another case; a value written as the data has it stays
    itself (B never becomes a stray b); of several spellings, the first in sorted order, never a set's order."""
    if value in values:
        return value
    return next((v for v in sorted(values) if v.casefold() == value.casefold()), value)


DATE_TO_PERIOD = lazy(r"\s*(?:was|were|is|are)?\s*(?:on|in|during|at|over|between|from|before|after)?\s*(?:a|an|the)?\s*", re.I)


def _date_column(text: str, m: re.Match[str], hits: list[ColumnHit], date_cols: list[str], sheet: SheetInfo) -> tuple[str | None, str, str]:
    """The date column a period refers to: named just before or after it, else the only date column."""
    for h in hits:
        near = 0 <= m.start() - h.end <= 3 or 0 <= h.start - m.end() <= 3 or (h.end <= m.start() and DATE_TO_PERIOD.fullmatch(text, h.end, m.start()) is not None)
        if near and (h.column in sheet.dates or not sheet.dates and h.how != "translated"):
            return h.column, h.column, h.how  # (opened on a weekend / Closed during March: the date column, then its period)
    after = re.match(r"\s*(?:的)?([\u4e00-\u9fff]{1,4}?)(?:的|[\u4e00-\u9fff]*$|[^\u4e00-\u9fff])", text[m.end() :])
    if after:  # 2025年签订的 -> 签订日期
        col, how, _ = resolve_column(after.group(1), sheet)
        if col and (col in sheet.dates or not sheet.dates):
            return col, after.group(1), how
    before = re.search(r"([\u4e00-\u9fff]{2,4}?)\s*(?:在|是|于)?\s*$", text[: m.start()])
    if before and not sheet.dates:  # 入职2018年以前, over 入职年份: the word of the column of years said before the period
        col, how, _ = resolve_column(before.group(1), sheet, closest=False)
        if col and col in sheet.numeric and YEAR_NAME.search(col):
            return col, before.group(1), how
    if len(date_cols) == 1:
        return date_cols[0], date_cols[0], "default"
    named = list(dict.fromkeys(h.column for h in hits if h.column in sheet.dates and h.how in ("exact", "synonym") and h.end - h.start >= len(h.column) - 1))
    if len(named) == 1:  # …on a weekend? use Received Date: the one date column the request names, wherever it says it
        return named[0], named[0], "exact"
    verbed = date_of_verb(text, date_cols)
    if verbed is not None:  # orders placed on a weekend / received in March, over Order Date and Received Date: the verb's date
        return verbed, verbed, "synonym"
    return None, ("日期" if CJK.search(text) else "date"), "unknown"


DATE_NAME_TAIL = lazy(r"(?:[_\s-]*(?:at|on|date|time|day|dt))$|(?:日期|时间|日)$", re.I)


def date_of_verb(text: str, date_cols: list[str]) -> str | None:
    """The one date column whose event a verb of the text names: its own word inflected (received, ordered, shipped →
    Received Date, Order Date, Ship Date), a verb said of it in words.toml (placed → Order Date), or in Chinese the
    name's own head (报修 of 报修时间)."""
    low = text.casefold()
    found = []
    for c in date_cols:
        stem = DATE_NAME_TAIL.sub("", c.casefold()).strip(" _-")
        words = [w for w in re.split(r"[\s_-]+", stem) if len(w) >= 3 and w.isascii() and w not in ("last", "first", "next", "date", "time")]
        said = any(re.search(rf"(?<![a-z0-9_])(?:{re.escape(w)}|{re.escape(w.rstrip('e'))}(?:e?d|ing|e))(?![a-z0-9_])", low) for w in words)
        said = said or any(re.search(rf"(?<![a-z0-9_]){re.escape(v)}(?![a-z0-9_])", low) for v in verbs_of_date(words))
        said = said or len(stem) >= 2 and all(CJK.match(ch) for ch in stem) and stem in low  # 周末报修的, over 报修时间 / 完成时间
        if said:
            found.append(c)
    return found[0] if len(found) == 1 else None


def verbs_of_date(words: list[str]) -> list[str]:
    """The verbs words.toml [date_verbs] says of a date column whose name holds these words (order → placed)."""
    from modes.tagging.segment import words_toml

    return [v for v, nouns in words_toml()["date_verbs"].items() if any(w in nouns for w in words)]

