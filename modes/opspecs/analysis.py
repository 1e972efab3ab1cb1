"""Analysis operations: statistics, shares, time buckets and growth, pivots, wide tables, formulas, edits, tests, charts.

Each is an OpSpec (see modes/opspec.py): how a request for it is read, restated, planned and answered.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from modes import opspec
from modes.lazyre import LazyPattern as Lazy
from modes.lazyre import lazy
from modes.lexicon import HIGH_END, LOW_END, NEXT_STEP, ROUNDED_TO, rounded_digits
from modes.opspec import Found, OpSpec, PlanContext, Slot, StepSpec, operation
from modes.opspec import said_in as _zh
from modes.resolve import resolve_column
from modes.tagging.series import series_key
from tools.fmt import num, pct, unit_of
from tools.localise import value_en
from tools.series import detect_series


def _sep(lang: str) -> str:
    return "、" if lang == "zh" else ", "


def _lazy(pattern: str, flags: int = 0) -> Lazy:
    return Lazy(pattern, flags)


def _rx(*words: str) -> Lazy:
    alts = sorted(words, key=len, reverse=True)
    return Lazy("|".join(r"(?<![a-z_])" + re.escape(w) + r"(?![a-z_])" if w.isascii() else re.escape(w) for w in alts), re.I)


MEAN_WORDS = _lazy(r"平均|均值|average|mean", re.I)
# the statistic of a pivot's cells said as a word of its own (summed liters / averaged Fee / 金额求和)
CELL_AGG_SAID = _lazy(r"(?<![a-z_])(?:summed|summing|totall?ed|averaged|averaging|added up)(?![a-z_])|求和|加总", re.I)
COUNT_WORDS = _lazy(r"次数|个数|计数|多少个|多少笔|多少条|多少行|多少套|几套|单数|订单数|行数|条数|笔数|套数|台数|辆数|(?<![a-z_])(?:count|number of)(?![a-z_])", re.I)


def _label(label: str, lang: str) -> str:
    """A group's label as the answer says it: its key values, a blank key as （空白） / (blank)."""
    return label if lang == "zh" else str(value_en(label)).replace("（空白）", "(blank)")


def _free(spans: list[tuple[int, int]], a: int, b: int) -> bool:
    return not any(s < b and a < e for s, e in spans)


def _by_keys(text: str, hits: list[Any], sheet: Any, taken: list[tuple[int, int]]) -> tuple[list[str], list[tuple[int, int]]]:
    """Grouping columns written as 按X / 各X / 每个X / by X / per X, with the spans they occupy."""
    from modes.ops import BY_WORD, _col_after

    keys: list[str] = []
    spans: list[tuple[int, int]] = []
    each = [e for e in EACH_ALONE.finditer(text) if any(h.start == e.end() and not re.match(r"['’]s(?![a-z])", text[h.end : h.end + 3]) for h in hits)]
    counted = COUNT_WORDS.search(text) is not None  # 按单价统计行数: rows are counted, so a column of numbers said as the key is one
    for b in [*BY_WORD.finditer(text), *each]:  # (each plan's members who cancelled: a share within each plan, asked, never of the rows)
        if not _free(taken, b.start(), b.end()) or any(s <= b.start() < e for s, e in spans):
            continue
        col, raw, how, _, end = _col_after(text, b.end(), hits, sheet)
        if col and (col not in sheet.numeric or counted and col not in sheet.dates) and how in ("exact", "synonym", "partial"):
            if DEDUPE_AFTER.match(text, end):
                continue  # 按小票号去重，然后…每个类别的中位数: the key of the duplicates, never a key of the statistic
            keys.append(col)
            spans.append((b.start(), end))
    return list(dict.fromkeys(keys)), spans


EQUALS_AFTER = _lazy(r"\s*(?:=|==|is|are|equals|是|为|等于)\s*\S", re.I)
EACH_ALONE = _lazy(r"(?<![a-z_])(?<!for )(?<!in )each\s+(?=[A-Za-z])", re.I)  # what share … comes from each Member Type: a column right after "each"
DEDUPE_AFTER = _lazy(r"\s*(?:来|进行|做)?\s*(?:去重|去掉重复|删除重复|删掉重复|删重复|(?:remove|drop)\s+(?:the\s+)?duplicates|dedupe)", re.I)


def _keys_listed(text: str, hits: list[Any], sheet: Any, keys: list[str], spans: list[tuple[int, int]]) -> tuple[list[str], list[tuple[int, int]]]:
    """by Carrier and Mode / 按区域和门店: the columns listed after each key said with 按 / by are keys too."""
    from modes.ops import _joined_after

    more_keys, more_spans = list(keys), list(spans)
    for a, b in spans:
        last = next((h for h in hits if a <= h.start and h.end == b), None)
        for h in _joined_after(last, hits, text) if last is not None else []:
            if h.column not in sheet.numeric and h.column not in more_keys:
                more_keys.append(h.column)
                more_spans.append((b, h.end))
    return more_keys, more_spans


def _cols(hits: list[Any], sheet: Any, taken: list[tuple[int, int]], numeric: bool | None = None) -> list[Any]:
    out = []
    for h in hits:
        if not _free(taken, h.start, h.end):
            continue
        if numeric is True and (h.column not in sheet.numeric or h.column in sheet.dates):  # (a date is never a figure summed)
            continue
        if numeric is False and (h.column in sheet.numeric or h.column in sheet.dates):
            continue
        out.append(h)
    return out


def _categories(sheet: Any, col: str) -> bool:
    """A column whose values are categories: text, or whole years (赛季 2005…2012); never dates or measurements."""
    if col in sheet.dates:
        return False
    if col not in sheet.numeric:
        return True
    lo, hi = sheet.ranges.get(col, (0.0, 0.0))
    return 1900 <= lo <= hi <= 2100 and float(lo).is_integer() and float(hi).is_integer()


def numberish(sheet: Any, col: str) -> bool:
    """A numeric column, or one whose values are numbers but for a stray placeholder ('.', '–', 'n/a'): tools read it as
    numbers (blank where a value is not one)."""
    if col in sheet.numeric:
        return True
    vals = sheet.values.get(col)
    if not vals:
        return False
    ok = sum(1 for v in vals if re.fullmatch(r"-?\d[\d,]*(?:\.\d+)?", v.strip()))
    return ok >= 3 and ok >= 0.8 * len(vals)


def timeish(sheet: Any, col: str) -> bool:
    """A text column whose values are times or gaps written as text (1:28:37.554, +5.462): tools read them as seconds."""
    from tools.durations import reads_as_times

    return col not in sheet.numeric and bool(sheet.values.get(col)) and reads_as_times(sheet.values[col])


QUOTED = _lazy(r"(?<![A-Za-z])'[^']{1,40}'(?![A-Za-z])|‘[^’]{1,40}’|“[^”]{1,40}”|\"[^\"]{1,40}\"|「[^」]{1,40}」")


CONTAINED = _lazy(r"(?:包含|含有|带有|(?<![a-z_])contains?|containing)\s*(?P<v>[^\s的，,。；;？?'\"“”‘’]{1,30}(?:\s*(?:或者|或是|或|、|/|(?<![a-z_])or(?![a-z_]))\s*[^\s的，,。；;？?'\"“”‘’]{1,30})*)", re.I)


def unquoted(rx: Lazy, text: str) -> re.Match[str] | None:
    """The first match of rx outside quoted values ('环比增长' in 删除包含'环比增长'的行 is a value, not a request)."""
    inside = [q.span() for q in QUOTED.finditer(text) if re.search(r"(?:包含|含有|含|有|等于|为|是|叫|名为|或者|或|和|、|,|，)\s*$", text[max(0, q.start() - 4) : q.start()])]
    inside += [c.span("v") for c in CONTAINED.finditer(text)]  # 指标包含环比增长或同比增长的行: the words are values
    # 不要折线图 / no chart: an operation said not to be done is never asked for
    return next((m for m in rx.finditer(text) if _free(inside, m.start(), m.end()) and not _negated_op().search(text[max(0, m.start() - 16) : m.start()])), None)


@functools.cache
def _negated_op() -> re.Pattern[str]:
    """A negation just before an operation's word (不要折线图 / no chart): the words of words.toml [drop_step]."""
    from modes.tagging.segment import declined_lead

    return re.compile(declined_lead() + r"(?:\s+(?:need|want|make|draw|do|add))?(?:\s+(?:a|an|the|any))?\s*(?:画|做|出|要|加)?\s*(?:个|一个|成)?\s*$", re.I)


def _series_of(sheet: Any) -> Any:
    return detect_series(list(sheet.columns)) if sheet is not None else None


def _agg(text: str) -> str:
    return "mean" if MEAN_WORDS.search(text) else "count" if COUNT_WORDS.search(text) else "sum"


AGG_ZH = {"sum": "合计", "mean": "平均", "count": "计数", "median": "中位数", "min": "最小值", "max": "最大值"}
AGG_EN = {"sum": "total", "mean": "mean", "count": "count", "median": "median", "min": "minimum", "max": "maximum"}
# a statistic of each period other than a total or a mean (每个月的金额中位数 / the monthly median Total / 每月最高的一单)
PERIOD_STAT = _lazy(r"(?P<median>中位数|中值|(?<![a-z_])median(?![a-z_]))|(?P<max>最大值|最高值|(?<![a-z_])max(?:imum)?(?![a-z_]))"
                    r"|(?P<min>最小值|最低值|(?<![a-z_])min(?:imum)?(?![a-z_]))", re.I)


# ---------------------------------------------------------------- charts no tool draws

# chart kinds no tool draws: said plainly, with the kinds that can be drawn (never another chart in their place)
UNSUPPORTED_CHARTS = (("雷达图", "雷达图"),
                      ("radar chart", "radar chart"), ("箱线图", "箱线图"), ("箱形图", "箱线图"), ("box plot", "box plot"), ("boxplot", "box plot"),
                      ("直方图", "直方图"), ("histogram", "histogram"), ("词云", "词云"), ("word cloud", "word cloud"), ("桑基图", "桑基图"),
                      ("气泡图", "气泡图"), ("bubble chart", "bubble chart"), ("地图", "地图"))
UNSUPPORTED_RX = _rx(*(w for w, _ in UNSUPPORTED_CHARTS))


@operation
class UnsupportedChart(OpSpec):
    """雷达图 / box plot: said plainly, with the charts that can be drawn; the whole request describes that chart, so no
    other operation is read from it (registered first: it owns the text)."""

    name = "chart_unsupported"
    family = "explore"
    label = {"zh": "画图", "en": "chart"}
    words = {"zh": ("雷达图",), "en": ("radar chart",)}
    slots = (Slot("kind", "text", "暂不支持画这种图（雷达图、箱线图、直方图等都还不能画）。能画的是柱状图、折线图、饼图、散点图和热力图（带色阶的表），"
                  "例如按类别汇总后画柱状图。要改画其中哪一种？请说明横轴和数值各用哪一列。",
                  "This kind of chart is not supported (radar charts, box plots, histograms cannot be drawn yet). "
                  "Bar, line, pie, scatter charts and heat maps (a table with a colour scale) can, e.g. a bar chart of a total per category. Which one, with which columns?", gap="chart_kind"),)

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        m = unquoted(UNSUPPORTED_RX, text)
        if m is None:
            return None
        kind = next(name for w, name in UNSUPPORTED_CHARTS if w == m.group(0).casefold())
        return Found(m.start(), self.name, {"unsupported": kind}, ((0, len(text)),))

    def gaps(self, args: dict[str, Any]) -> list[str]:
        return ["chart_kind"]

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        return _zh(lang, f"画{args['unsupported']}（暂不支持）", f"a {args['unsupported']} (not supported)")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return []  # never planned: its gap is always open


# ---------------------------------------------------------------- descriptive statistics

STAT_WORDS: tuple[tuple[str, str], ...] = (
    ("四分位距", "iqr"), ("四分位差", "iqr"), ("iqr", "iqr"), ("interquartile range", "iqr"),
    ("中位数", "median"), ("中值", "median"), ("median", "median"),
    ("众数", "mode"), ("mode", "mode"), ("most common", "mode"), ("most frequent", "mode"), ("most frequently", "mode"), ("most often", "mode"),
    ("标准差", "std"), ("standard deviation", "std"), ("std", "std"),
    ("方差", "var"), ("variance", "var"),
    ("变异系数", "cv"), ("离散系数", "cv"), ("coefficient of variation", "cv"),
    ("全距", "range"),  # 极差 is the word tests/test_opspec.py registers for its own demonstration operation
    ("上四分位数", "q3"), ("下四分位数", "q1"), ("四分位数", "quartiles"), ("quartiles", "quartiles"), ("quartile", "quartiles"),
    ("不同值个数", "nunique"), ("去重计数", "nunique"), ("distinct count", "nunique"),
    ("基本统计量", "describe"), ("基本统计", "describe"), ("基础统计", "describe"), ("basic statistics", "describe"), ("basic stats", "describe"),
    ("描述性统计", "describe"), ("描述统计", "describe"), ("统计描述", "describe"), ("descriptive statistics", "describe"),
    ("summary statistics", "describe"),
)
PCT_LISTED = _lazy(r"(?:第\s*)?\d{1,2}\s*(?:th|st|nd|rd|%)?(?:\s*(?:,|，|、|和|及|与|以及|and|&|or)\s*(?:the\s+)?(?:第\s*)?\d{1,2}\s*(?:th|st|nd|rd|%)?)*"
                   r"\s*(?:,|，|、|和|及|与|以及|and|&|or)\s*(?:the\s+)?$", re.I)
AGG_LISTED_OF = (("mean", r"平均值|平均数|平均|均值|(?<![a-z_])(?:mean|average)(?![a-z_])"), ("max", r"最大值|最高值|最大|最高|(?<![a-z_])max(?:imum)?(?![a-z_])"),
                 ("min", r"最小值|最低值|最小|最低|(?<![a-z_])min(?:imum)?(?![a-z_])"), ("sum", r"总和|合计|总计|(?<![a-z_])(?:sum|total)(?![a-z_])"),
                 ("count", r"计数|个数|(?<![a-z_])count(?![a-z_])"))  # (minutes is no min, totals of no total word)
AGG_LISTED = _lazy("|".join(w for _, w in AGG_LISTED_OF), re.I)
LIST_SEP = _lazy(r"\s*(?:[?？。;；]\s*)?(?:,|，|、|和|及|与|以及|还有|and|&)?\s*(?:the\s+)?", re.I)


def _listed_with(text: str, found: list[re.Match[str]], hits: list[Any] = ()) -> list[re.Match[str]]:  # type: ignore[assignment]
    """Statistics written in one list with the statistic words found: the numbers listed before a percentile word
    (25th, 75th and 90th percentiles) and the plain aggregates beside a statistic word (众数和最大值)."""
    more: list[re.Match[str]] = []
    for m in found:
        if m.re is PERCENTILE.compiled:
            lead = PCT_LISTED.search(text, 0, m.start())
            if lead is not None and lead.end() == m.start() and re.search(r"\d", lead.group(0)):
                more.append(lead)
    edges = [(m.start(), m.end()) for m in found]
    for a in AGG_LISTED.finditer(text):
        if not _free(edges, a.start(), a.end()):
            continue
        joined = any(text[y : a.start()].strip() and LIST_SEP.fullmatch(text[y : a.start()]) for _, y in edges if y <= a.start())
        if not joined and any(h.start == a.start() and h.end == a.end() and h.column.casefold() == a.group(0).casefold() for h in hits):
            continue  # median Total: the column called Total, never a sum listed with the median (median and total of Qty: both)
        if any(LIST_SEP.fullmatch(text[y : a.start()]) for _, y in edges if y <= a.start()) or \
           any(LIST_SEP.fullmatch(text[a.end() : x]) for x, _ in edges if a.end() <= x):
            more.append(a)
            edges.append(a.span())
    return more


PAIR_GLUE = _lazy(r"\s*(?:的)?\s*|\s+(?:of\s+(?:the\s+)?)?", re.I)
SUMMARY_AGGS = ("sum", "mean", "median", "min", "max")


def _listed_key(word: str) -> str | None:
    """The statistic a plain aggregate word says (合计 → sum, 平均值 → mean), or None."""
    return next((k for k, w in AGG_LISTED_OF if re.fullmatch(w, word, re.I)), None)


def _listed_said(m: re.Match[str]) -> str:
    """The statistic of a match of AGG_LISTED (always one of its words)."""
    key = _listed_key(m.group(0))
    assert key is not None
    return key


def _stat_per_column(text: str, said: list[re.Match[str]], cols: list[Any]) -> list[tuple[str, str]] | None:
    """(column, statistic) when each statistic word is said right on one column and the columns differ (挂号费合计和候诊时长
    中位数 / total Parts Cost and median Labor Hours); None when any word is said of no column, or of several."""
    if len({h.column for h in cols}) < 2 or len(said) < 2:
        return None
    pairs: list[tuple[str, str]] = []
    for m in said:
        key = STAT_OF.get(m.group(0).casefold()) or _listed_key(m.group(0))
        near = [h for h in cols if (h.end <= m.start() and PAIR_GLUE.fullmatch(text[h.end : m.start()]))
                or (m.end() <= h.start and PAIR_GLUE.fullmatch(text[m.end() : h.start]))]
        if key not in SUMMARY_AGGS or len(near) != 1:
            return None
        pairs.append((near[0].column, key))
    if len({c for c, _ in pairs}) != len(pairs) or {c for c, _ in pairs} != {h.column for h in cols} or len({k for _, k in pairs}) < 2:
        return None
    return sorted(pairs, key=lambda p: next(h.start for h in cols if h.column == p[0]))


def _aggs_on_columns(text: str, cols: list[Any], hits: list[Any], used: list[tuple[int, int]]) -> list[tuple[re.Match[str], str]]:
    """Plain aggregates said right on a column the statistics are of (平均圈数 / 圈数的平均值), away from the statistic
    words: each is asked for too, never dropped."""
    out = []
    names = [(h.start, h.end) for h in hits]
    for a in AGG_LISTED.finditer(text):
        if not _free(used, *a.span()) or not _free(names, *a.span()):
            continue
        if any(re.fullmatch(r"\s*(?:的)?\s*", text[a.end() : h.start]) or re.fullmatch(r"\s*的\s*", text[h.end : a.start()]) for h in cols
               if a.end() <= h.start or h.end <= a.start()):
            out.append((a, _listed_said(a)))
    return out


# how often the mode occurs, said beside the mode (众数以及它出现的次数 / the mode and how many times it occurs)
MODE_FREQ = _lazy(r"(?:出现|重复)(?:的|了)?(?:次数|频次|频数|几次|多少次)|频次|频数"
                  r"|(?<![a-z_])(?:how (?:many times|often)|frequency|occurrences?|times it (?:occurs|appears))(?![a-z_])", re.I)
CMP_STAT_WORD = _lazy(r"(?:高于|低于|超过|大于|小于|不低于|不高于|above|below)\s*[^\s，,。;；]{0,10}?(?:中位数|中值|median)", re.I)
STAT_RX = _rx(*(w for w, _ in STAT_WORDS))
STAT_OF = {w.casefold(): s for w, s in STAT_WORDS}
PERCENTILE = _lazy(r"(?:第\s*)?(\d{1,2})\s*(?:%\s*)?(?:百分位数?|分位数?|分位点)|(\d{1,2})(?:th|st|nd|rd)\s+percentile|(?<![a-z_])p(\d{2})(?![\d])", re.I)
# the percentile word first, then the list: 分位数，25%、50%、75%、90% / percentiles 10, 50 and 90
PCT_AFTER = _lazy(r"(?:百分位数?|分位数|分位点|percentiles?)\s*(?:[:：,，(（]|是|为|分别是|分别为|取|at|of)?\s*"
                  r"(?P<list>\d{1,2}\s*(?:%|th|st|nd|rd)?(?:\s*(?:,|，|、|和|及|与|以及|and|&)\s*\d{1,2}\s*(?:%|th|st|nd|rd)?)+)", re.I)
STAT_ZH = {"median": "中位数", "mode": "众数", "std": "标准差", "var": "方差", "cv": "变异系数", "range": "极差", "iqr": "四分位距",
           "q1": "下四分位数", "q3": "上四分位数", "nunique": "不同值个数", "count": "数量", "mean": "平均", "min": "最小", "max": "最大",
           "mode_count": "众数出现次数", "sum": "合计"}
STAT_EN = {"median": "median", "mode": "mode", "std": "standard deviation", "var": "variance", "cv": "coefficient of variation",
           "range": "range", "iqr": "IQR", "q1": "lower quartile", "q3": "upper quartile", "nunique": "distinct values", "count": "count",
           "mean": "mean", "min": "min", "max": "max", "mode_count": "times the mode occurs", "sum": "sum"}


PER_YEAR = _lazy(r"每一?年度?|各年度?|逐年|年度|(?<![a-z_])(?:each|every|per|by) year(?![a-z_])|yearly|annual", re.I)
YEAR_WORD = _lazy(r"(?<![\d.])((?:19|20)\d\d)\s*年?(?!\s*\d{1,2}\s*月)(?![\d.%])")


def _in_name(m: re.Match[str], hits: list[Any], text: str | None = None) -> bool:
    """Mode in Work Mode, 平均 in 平均分, Max in Max Speed: a word inside a longer column name is the column, not the
    statistic; so is a word that is a column's whole name (a column called variance), unless it is said of another
    column (variance of budget)."""
    if any(h.start <= m.start() and m.end() <= h.end and h.end - h.start > m.end() - m.start() for h in hits):
        return True
    whole = any(h.start == m.start() and h.end == m.end() and h.how == "exact" for h in hits)
    return whole and text is not None and not re.match(r"\s*(?:of|for|的)\s*\S", text[m.end() :], re.I)


def _stat_said(s: str, v: Any, lang: str, unit: str = "") -> str:
    """One statistic as said: 中位数 9,584元; a mode where no value repeats is said to be none."""
    if s == "mode" and v is None:
        return _zh(lang, "众数 无（没有重复出现的值）", "mode none (no value repeats)")
    return f"{_stat_name(s, lang)} {num(v, lang)}{'' if s in ('cv', 'var', 'nunique', 'mode', 'mode_count') else unit}"


def _stat_name(s: str, lang: str) -> str:
    if s.startswith("p") and s[1:].replace(".", "").isdigit():
        return f"第{s[1:]}百分位数" if lang == "zh" else f"{s[1:]}th percentile"
    return (STAT_ZH if lang == "zh" else STAT_EN).get(s, s)


@operation
class Stats(OpSpec):
    name = "stats"
    family = "explore"
    label = {"zh": "描述统计", "en": "statistics"}
    words = {"zh": tuple(w for w, _ in STAT_WORDS if not w.isascii()), "en": tuple(w for w, _ in STAT_WORDS if w.isascii())}
    slots = (Slot("columns", "columns", "要统计哪一列？", "Statistics of which column?", gap="stat_columns", fits="numeric"),)
    answers_question = True
    main_slot = "columns"

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        found = [m for m in STAT_RX.finditer(text) if not text.startswith("分析", m.end()) and not _in_name(m, hits, text)]  # 方差分析 is a test
        found += [m for m in PERCENTILE.finditer(text) if not _in_name(m, hits, text)]
        found += [m for m in PCT_AFTER.finditer(text) if _free([x.span() for x in found], *m.span())]
        if not found or FILL_METHOD.search(text) or CMP_STAT_WORD.search(text):
            return None  # 用中位数填充空值 fills blanks; 低于中位数的订单 compares with it
        stats: list[str] = []
        freq = MODE_FREQ.search(text) if any(m.re is STAT_RX.compiled and STAT_OF[m.group(0).casefold()] == "mode" for m in found) else None
        if freq is not None and _free([m.span() for m in found], *freq.span()):  # 众数以及出现的次数: how often the mode occurs too
            found.append(freq)
        found += _listed_with(text, found, hits)
        used = [m.span() for m in found]
        for m in sorted(found, key=lambda m: m.start()):
            if m.re is PCT_LISTED.compiled:  # 25th, 75th and 90th percentiles: each number listed before the word
                stats += [f"p{x}" for x in re.findall(r"\d{1,2}", m.group(0))]
                continue
            if m.re is PCT_AFTER.compiled:
                stats += [f"p{x}" for x in re.findall(r"\d{1,2}", m.group("list"))]
                continue
            if m.re is AGG_LISTED.compiled:  # 众数和最大值: a plain aggregate listed with a statistic
                stats.append(_listed_said(m))
                continue
            if m.re is PERCENTILE.compiled:
                stats.append(f"p{next(g for g in m.groups() if g)}")
                continue
            if m.re is MODE_FREQ.compiled:
                stats.append("mode_count")
                continue
            s = STAT_OF[m.group(0).casefold()]
            stats += {"quartiles": ["q1", "median", "q3"], "describe": []}.get(s, [s])
        series = _series_of(sheet)
        if series is not None and (stats or not any(h.column not in series.columns for h in hits)):
            label, rows, row_spans = wide_rows(text, sheet)
            first, last, range_spans = period_range(text, hits, series)
            stats = (["mean"] if MEAN_WORDS.search(text) else []) + stats  # 平均值、方差和中位数 across the years
            if series.kind == "month" and series.periods[0] >= 12 * 1000 and (PER_YEAR.search(text) or YEAR_WORD.search(text)):
                # 2022年与2023年…每一年度的方差: each year's months of a monthly table
                years = sorted({int(y.group(1)) for y in YEAR_WORD.finditer(text)})
                spans = used + row_spans + [x.span() for rx in (PER_YEAR, YEAR_WORD, COMPARE_WORDS, PEAK_RX) for x in rx.finditer(text)]
                args_y = {"what": "stats", "stats": list(dict.fromkeys(stats)) or ["mean", "median", "std"], "rows": rows, "per_year": True,
                          "years": years, "series": [series.columns[0], series.columns[-1]], "first": None, "last": None}
                return Found(min(m.start() for m in found), "wide", args_y, tuple(spans + [(h.start, h.end) for h in hits]))
            apart = list(dict.fromkeys(h.column for h in _named_periods(text, hits, series)))
            if first is None and len(apart) >= 2:  # 比较2010年和2020年的平均值、中位数: each named period down the rows
                spans = used + row_spans + [(h.start, h.end) for h in hits] + [x.span() for x in COMPARE_WORDS.finditer(text)]
                spans += [x.span() for x in MEAN_WORDS.finditer(text)] + [(h.start, h.end) for h in _named_periods(text, hits, series)]
                args_c = {"columns": apart, "stats": list(dict.fromkeys(stats)), **({"label": label} if label else {})}
                return Found(min(m.start() for m in found), self.name, args_c, tuple(spans))
            args_w: dict[str, Any] = {"what": "stats", "stats": list(dict.fromkeys(stats)) or ["mean", "median", "std"], "rows": rows,
                                      "series": [first or series.columns[0], last or series.columns[-1]], "first": first, "last": last}
            return Found(min(m.start() for m in found), "wide", args_w, tuple(used + row_spans + range_spans + [(h.start, h.end) for h in hits]))
        text_ok = set(stats) <= {"mode", "mode_count", "nunique"}
        cols = [h for h in hits if _free(used, h.start, h.end) and (text_ok or h.column in sheet.numeric or timeish(sheet, h.column))]
        by, by_spans = _by_keys(text, hits, sheet, used)
        by, by_spans = _keys_listed(text, hits, sheet, by, by_spans)
        cols = [h for h in cols if h.column not in by and _free(by_spans, h.start, h.end)]
        kept = [h for h in cols if not COMPARED_AFTER.match(text, h.end)]
        if kept and len(kept) < len(cols):  # 数量5以上的，按销售员算金额的中位数: 数量 chooses the rows, its statistic is not asked
            cols = kept
        said = _aggs_on_columns(text, cols, hits, used)  # 平均圈数…圈数的方差: the plain aggregate said on the column too
        if said:
            at = min(m.start() for m in found)
            stats = [k for a, k in said if a.start() < at] + stats + [k for a, k in said if a.start() > at]
            used += [a.span() for a, _ in said]
        paired = _stat_per_column(text, found + [a for a, _ in said], cols)
        if paired is not None:  # 挂号费合计和候诊时长中位数: each column its own statistic, one summary (never every statistic of each)
            at = min(m.start() for m in found)
            return Found(at, "group", {"keys": by, "measures": [{"column": c, "agg": k} for c, k in paired], "question": True},
                         tuple(used + [(h.start, h.end) for h in cols] + by_spans))
        args: dict[str, Any] = {"columns": list(dict.fromkeys(h.column for h in cols)), "stats": list(dict.fromkeys(stats))}
        if by:
            args["by"] = by
            period = _period_in_keys(text, sheet, by_spans)
            if period is not None and len(args["columns"]) == 1 and len(args["stats"]) == 1 and args["stats"][0] in BUCKET_AGGS:
                # 按导购和月份分组，算金额中位数 / median Total by Clerk and month: that statistic of each key's periods
                bucket = {"unit": period[0], "column": sorted(sheet.dates)[0], "agg": args["stats"][0], "by": by, "value": args["columns"][0]}
                return Found(min(m.start() for m in found), "bucket", bucket, tuple(used + [(h.start, h.end) for h in cols] + by_spans + [period[1]]))
        return Found(min(m.start() for m in found), self.name, args, tuple(used + [(h.start, h.end) for h in cols] + by_spans))

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        stats = args.get("stats") or []
        what = _sep(lang).join(_stat_name(s, lang) for s in stats) or _zh(lang, "数量、平均、标准差、最小、四分位数、最大", "count, mean, std, min, quartiles, max")
        cols = _sep(lang).join(args.get("columns") or [])
        by = _sep(lang).join(args.get("by") or [])
        if lang == "zh":
            return f"{'按 ' + by + ' 分组，' if by else ''}计算 {cols} 的{what}"
        return f"compute the {what} of {cols}{' per ' + by if by else ''}"

    def stem_label(self, args: dict[str, Any]) -> str:
        return "统计"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        a = {"columns": args["columns"], **({"stats": args["stats"]} if args.get("stats") else {}), **({"by": args["by"]} if args.get("by") else {})}
        return [StepSpec("计算统计量", "column_stats", "统计量已算出", a)]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "column_stats":
            return None
        stats = facts["stats"]
        if facts.get("by"):
            parts = [f"{_label(g['label'], lang)}{'：' if lang == 'zh' else ': '}" + ("，" if lang == "zh" else ", ").join(_stat_said(s, v, lang) for s, v in g["values"].items()) for g in facts["group_values"]]
            more = _zh(lang, "……", " …") if facts["groups"] * len(facts["columns"]) > len(facts["group_values"]) else ""
            return _zh(lang, f"按 {'、'.join(facts['by'])} 分 {facts['groups']} 组（共 {facts['rows_in']} 行）：{'；'.join(parts)}{more}。",
                       f"Per {', '.join(facts['by'])} ({facts['groups']} groups, {facts['rows_in']} rows): {'; '.join(parts)}{more}.")
        out = []
        for c, vals in facts["values"].items():
            if c in facts.get("times", {}):
                out.append(_times_said(c, vals, stats, facts["n"][c], facts["times"][c], lang))
                continue
            u = unit_of(c)  # 销售额(元): figures carry the column's unit, ratios and counts do not
            shown = ("，" if lang == "zh" else ", ").join(_stat_said(s, vals[s], lang, u) for s in stats if s != "count")
            out.append(_zh(lang, f"{c}：{shown}（基于 {facts['n'][c]:,} 个非空值）", f"{c}: {shown} (from {facts['n'][c]:,} values)"))
        own = _zh(lang, f"表中自带的合计行（{facts['skipped_totals']} 行）不是一行数据，没有算进去。",
                  f" The table's own total row ({facts['skipped_totals']}) is not a row of the data and was left out.") if facts.get("skipped_totals") else ""
        return ("；" if lang == "zh" else "; ").join(out) + ("。" if lang == "zh" else ".") + own


BUCKET_AGGS = frozenset({"median", "min", "max", "mean", "sum"})
PERIOD_IN_KEYS = _lazy(r"\s*(?:和|、|与|及|跟|,|(?<![a-z_])(?:and|&)(?![a-z_]))\s*(?:每个?|各个?|(?:the\s+)?)"
                       r"(?P<w>月份|月|季度|年份|年度|年|周|星期|(?<![a-z_])(?:months?|quarters?|years?|weeks?)(?![a-z_]))", re.I)


def _period_in_keys(text: str, sheet: Any, by_spans: list[tuple[int, int]]) -> tuple[str, tuple[int, int]] | None:
    """A period of the one date column listed among the keys (按导购和月份 / by Clerk and month): its unit and span."""
    from modes.ops import PERIOD_KEY

    if len(sheet.dates) != 1 or not by_spans:
        return None
    m = PERIOD_IN_KEYS.match(text, max(b for _, b in by_spans))
    if m is None:
        return None
    unit = PERIOD_KEY.get(m.group("w").casefold().rstrip("s") if m.group("w").isascii() else m.group("w"))
    return (unit, m.span()) if unit else None


def _times_said(c: str, vals: dict[str, Any], stats: list[str], n: int, how: dict[str, Any], lang: str) -> str:
    """Statistics of a column of times: seconds (with the clock form), and the values that were not times."""
    def one(s: str) -> str:
        v = vals[s]
        if v is None or s in ("count", "nunique", "mode_count", "cv"):
            return _stat_said(s, v, lang)
        if s == "var":
            return f"{_stat_name(s, lang)} {num(v, lang)}{_zh(lang, ' 平方秒', ' s²')}"
        shown = how["clock"].get(s)
        return f"{_stat_name(s, lang)} {num(v, lang)}{_zh(lang, ' 秒', ' s')}" + (_zh(lang, f"（{shown}）", f" ({shown})") if shown else "")

    shown = _zh(lang, "，", ", ").join(one(s) for s in stats if s != "count")
    gaps = _zh(lang, "以“+”开头的是与第一名的差距，已加上第一名的时间；", "values starting with '+' are gaps to the leader and were added to the leader's time; ") if how["gaps_added"] else ""
    left = ""
    if how["n_left_out"]:
        eg = _sep(lang).join(how["left_out"][:4])
        left = _zh(lang, f"{how['n_left_out']} 个值不是时间，未计入（如 {eg}）", f"{how['n_left_out']} values are not times and were left out (e.g. {eg})")
    return _zh(lang, f"{c}（按秒计算）：{shown}（基于 {n:,} 个能读成时间的值；{gaps}{left}）".replace("；）", "）"),
               f"{c} (in seconds): {shown} (from {n:,} values read as times; {gaps}{left})".replace("; )", ")"))


# ---------------------------------------------------------------- shares and proportions

WITHIN_RX = _lazy(r"(?:在|于)?(?:组内|分组内|各组内|组里|内部|本组|该组|所在组|所在的?(?=[\u4e00-\u9fff]{1,6}(?:的|中|里))|该(?=[\u4e00-\u9fff]{1,6}的?(?:比例|占比|比重|份额|总)))"
                  r"|(?<![a-z_])within\s+(?:each|its|their|the|every)(?:\s+group)?(?![a-z_])|of\s+(?:its|their)\s+(?:group|own)", re.I)
EACH_SHARE = _lazy(r"各占|各自占|分别占|各自的占比|(?<![a-z_])(?:each (?:one|of them)(?:'s)? (?:share|percentage)|their (?:own )?shares?)(?![a-z_])", re.I)
RATE_DEFINED = _lazy(r"((?<![a-z])[a-z][a-z\-]{1,20} rate|[\u4e00-\u9fff]{1,6}率)\s*(就是|即|指的是|i\.e\.|means|is)\s*", re.I)  # the rate a definition names
SHARE_RX = _rx("占比", "比重", "份额", "所占比例", "占总", "占全部", "占多少比例", "占多大比例", "占百分之几", "百分之几", "的比例", "比例是多少", "百分比",
               "share of", "proportion", "percentage", "what share", "what percent", "share where", "share that", "share which")
# refunded share per Agent / % refunded by clinic: the share word after what is counted, before the key
SHARE_RX = Lazy(SHARE_RX.pattern + r"|占多少(?=\s*(?:呢|啊|呀)?\s*(?:[?？。，,！!;；]|$))"  # 材料费为0的单子占多少: what share, said at the clause's end
                + r"|(?<![a-z_])share(?=\s+(?:per|by|for each|in each|across|of each)(?![a-z_]))|(?:^|(?<=[\s:,]))%\s*(?=[a-z])", re.I)


# the groups of a rate put in its order: 从高到低 / 按退货率降序排 / highest rate first / sorted by the rate
RATE_ORDER_BY = _lazy(r"(?:按|(?<![a-z_])(?:sort(?:ed)?|order(?:ed)?|rank(?:ed)?)\s+(?:it\s+|them\s+)?by\s+(?:the\s+)?)\s*(?:[\u4e00-\u9fff]{0,4}率|比例|占比|rate|proportion|share|percentage)"
                      r"\s*(?:的)?\s*(?=从|由|降|升|倒|排|(?:highest|lowest|descending|ascending|$|[,，.。;；]))", re.I)
RATE_ORDER_VERB = _lazy(r"\s*(?:排序|排列|排一下|排个序|排)", re.I)


AS_PERCENT = _lazy(r"(?<![a-z_])(?:as|in)\s+(?:a\s+)?(?:percent(?:age)?s?|%)(?![a-z_])|(?:用|以|按)百分比(?:表示|显示|来看|的形式)?", re.I)


WHICH_EXTREME = _lazy(r"(?:which|what)\s+(?:one|of them|of these|sheet|group)\s+(?:has|had|have|is|shows?)\s+the\s+(?:(?P<high>highest|largest|biggest|most)|(?P<low>lowest|smallest|least))"
                      r"|(?:哪个|哪一个|哪家)\s*(?:的)?[^，,。]{0,8}?(?:(?P<zh>最高|最大|最多)|(?P<zl>最低|最小|最少))", re.I)


def _proportion_order(text: str) -> tuple[str, list[tuple[int, int]]] | None:
    """desc or asc, with the spans of the words that said it, when a rate's groups are said to be ordered."""
    desc, asc = CHART_DESC.search(text), CHART_ASC.search(text)
    by = RATE_ORDER_BY.search(text)
    said = desc or asc
    if said is None and by is None:
        return None
    spans = [x.span() for x in (said, by) if x is not None]
    verb = RATE_ORDER_VERB.match(text, max(e for _, e in spans))
    spans += [verb.span()] if verb is not None else []
    return ("asc" if asc is not None and desc is None else "desc"), spans


def _money_said(text: str, sheet: Any) -> tuple[str, tuple[int, int]] | None:
    """收了多少钱 / 花了多少 / how much did … make, with no column named: the one money column, and the words that said it."""
    from modes.ops import MONEY_Q, SOLD_FOR, _money_column

    m = SOLD_FOR.search(text) or MONEY_Q.search(text)
    col = _money_column(sheet) if m is not None else None
    return (col, m.span()) if col is not None and m is not None else None


@operation
class Share(OpSpec):
    name = "share"
    family = "explore"
    label = {"zh": "占比", "en": "share"}
    words = {"zh": ("占比", "比重", "份额", "比例", "百分比"), "en": ("share of", "proportion", "percentage")}
    slots = (Slot("keys", "columns", "按哪一列算占比？（例如各区域的销售额占比）", "Shares per which column? (e.g. each region's share of sales)",
                  gap="group_by"),)
    answers_question = True
    main_slot = "keys"

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        found = self._read(text, hits, sheet)
        shown = [x.span() for x in AS_PERCENT.finditer(text)]
        if found is not None and shown:  # …, as percent / 用百分比表示: how shares are shown already
            found = Found(found.start, found.kind, found.args, (*found.spans, *shown))
        if found is None or found.kind != "proportion":
            return found
        if found.args.get("by") and (o := _proportion_order(text)) is not None:  # 按类别算退货率，从高到低: the groups by their rate
            found = Found(found.start, found.kind, {**found.args, "order": o[0]}, (*found.spans, *o[1]))
        elif not found.args.get("by") and (w := WHICH_EXTREME.search(text)) is not None:
            # which one has the highest no-show rate? (of groups a summary before made): the groups by their rate, that end first
            found = Found(found.start, found.kind, {**found.args, "order": "asc" if w.group("low") or w.group("zl") else "desc"}, (*found.spans, w.span()))
        # churn rate by Plan, churn rate i.e. the share where…: the rate the definition names is this proportion's name
        named = [x.span() for d in RATE_DEFINED.finditer(text, 0, found.start) for x in re.finditer(re.escape(d.group(1)), text)]
        named += [d.span(2) for d in RATE_DEFINED.finditer(text, 0, found.start)]
        return Found(found.start, found.kind, found.args, (*found.spans, *named)) if named else found

    def _read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        m = unquoted(SHARE_RX, text)
        if m is None and sheet is not None:
            return _flag_rate(text, hits, sheet) or _value_rate(text, hits, sheet)
        if m is None or unquoted(GROWTH_RX, text) or PIE_RX.search(text):  # 各郡面积占比的饼图: the pie shows the shares
            return None
        from modes.ops import _blank, _id_like

        used = [x.span() for x in SHARE_RX.finditer(text)]
        ratio = _column_ratio(text, hits, sheet, m)
        if ratio is not None:
            return ratio
        pair = _value_pair(text, sheet, m)
        if pair is not None:
            return pair
        keys, by_spans = _by_keys(text, hits, sheet, used)
        if keys and sheet is not None and all(k in sheet.dates and re.search(r"按\s*" + re.escape(k) + r"\s*(?:来)?算", text) for k in keys):
            used, keys, by_spans = used + by_spans, [], []  # 周末报修的占多少比例，按报修时间算: the date the period is of, never a key
        within = _within_groups(text, hits, sheet, used, keys, by_spans, m.start())
        if within is not None:
            return within
        if not keys:  # 销售额大于2000的订单占多少比例: the proportion of rows meeting a condition
            from modes.conditions import parse_conditions

            cp = parse_conditions(_blank(text, used), sheet, [h for h in hits if _free(used, h.start, h.end)])
            # 把空的那行去掉，再算他们各占总数量的百分比: each one's share of a figure, never the share of rows a condition keeps
            if cp.conds and all(c.column for c in cp.conds) and not EACH_SHARE.search(text):
                conds, spans = _counted_part(text, cp, m.start(), m.end())  # 企业客户里延误的比例: 企业 the rows, 延误 what is counted
                lead = _lead(text, min(a for a, _ in spans)) if spans else []
                return Found(m.start(), "proportion", {"conditions": conds, "logic": cp.logic}, tuple(used + spans + lead))
            # 区域的销售额占比: a text column named before the share word
            keys = [h.column for h in _cols(hits, sheet, used, numeric=False) if h.end <= m.start() and not _id_like(h.column, sheet)][:1]
            by_spans += [(h.start, h.end) for h in hits if h.column in keys]
        values = _cols(hits, sheet, used + by_spans, numeric=True)
        args: dict[str, Any] = {"keys": keys}
        inner = [m for m in WITHIN_RX.finditer(text) if _free(used, m.start(), m.end())]
        if inner and len(keys) < 2:  # 组内占比 with one grouping column: the parent group is unknown, so the words stay unread
            others = [h.column for h in _cols(hits, sheet, used + by_spans, numeric=False) if not _id_like(h.column, sheet)]
            both = list(dict.fromkeys(keys + others))
            keys = both if keys and len(both) == 2 else keys  # the grouping column named with 按/每个 is the parent
        if inner and len(keys) == 2:  # 按区域分组，各类别在组内的占比: each (区域, 类别) total over its 区域 total
            said = next((h.column for x in inner if re.match(r"within|in each|in every", x.group(0), re.I)
                         for h in hits if h.column in keys and 0 <= h.start - x.end() <= 2), None)  # (区域内部各类别: the parent said before)
            parent = said or keys[0]  # by Role within each Worker: the key said after "within each" is the parent
            args = {"keys": [k for k in keys if k != parent], "within": [parent]}
            used += [m.span() for m in inner]
            by_spans += [(h.start, h.end) for h in hits if h.column in keys]
        if values and not COUNT_WORDS.search(text):
            args["column"] = values[0].column
            used.append((values[0].start, values[0].end))
        elif not values and sheet is not None and (sold := _money_said(text, sheet)) is not None and sold[0] not in args["keys"]:
            args["column"] = sold[0]  # 每种支付方式收了多少钱，占比多少: the shares of that money, never of the rows
            used.append(sold[1])
        own = next((c for c in ("行数", "rows") if c in sheet.numeric and c not in args["keys"]), None)
        figure = [c for c in sheet.columns if c in sheet.numeric and c not in ("行数", "rows") and c not in args["keys"]]
        if "column" not in args and own is not None and len(figure) == 1 and not COUNT_WORDS.search(text):
            args["column"] = figure[0]  # each product's share of the total, on a total per product: of that total, never of its rows
        elif "column" not in args and own is not None:
            args["column"] = own  # each store's share of all orders, on a count per store: its 行数 column, never 1 per row
        return Found(m.start(), self.name, args, tuple(used + by_spans))

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        keys = _sep(lang).join(args.get("keys") or [])
        what = args.get("column") or _zh(lang, "行数", "row count")
        if args.get("among"):
            vals = _zh(lang, "与", " and ").join(args["among"])
            return _zh(lang, f"只比较 {keys} 为 {vals} 的行，计算两者的 {what} 各占多少", f"{keys} {vals} only: each one's share of their total {what}")
        if args.get("within"):
            parent = _sep(lang).join(args["within"])
            return _zh(lang, f"在每个 {parent} 内，计算各 {keys} 的 {what} 占该 {parent} 的比例", f"within each {parent}, each {keys}'s share of that {parent}'s {what}")
        return _zh(lang, f"计算各 {keys} 的 {what} 占总体的比例（含累计占比）", f"each {keys}'s share of total {what} (with cumulative share)")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        a = {"keys": args["keys"], **{k: args[k] for k in ("column", "among", "within") if args.get(k)}}
        if not a.get("column") and "汇总" in ctx.labels:  # each class's share of the rows, after a count per class: of its 行数,
            from tools.ops import ROWS  # never of the summary's own rows (one each)

            a["column"] = ROWS["en" if getattr(ctx.request, "lang", "zh") == "en" else "zh"]
        return [StepSpec("计算占比", "share_of_total", "占比已算出", a)]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "share_of_total":
            return None
        counted = "" if facts["column"] else _zh(lang, "（{} 行）", " ({} rows)")  # shares of the row count: each count said too
        parts = [f"{_label(s['label'], lang)} {pct(s['pct'] / 100)}"
                 f"{counted.format(num(s['value'], lang)) if counted else ''}" for s in facts["shares"]]
        what = facts["column"] or _zh(lang, "行数", "rows")
        more = "……" if facts["groups"] > len(parts) else ""
        if facts.get("skipped_totals"):
            said = "、".join(f"“{x}”" for x in facts["skipped_totals"])
            more += _zh(lang, f"（表中自带的合计行 {said} 未计入）", f" (the table's own total row {', '.join(facts['skipped_totals'])} left out)")
        if facts.get("within"):
            parent = "、".join(facts["within"])
            return _zh(lang, f"每个 {parent} 内，各 {'、'.join(facts['keys'])} 占该 {parent} {what} 的比例：{'，'.join(parts)}{more}。",
                       f"Within each {parent}, each {', '.join(facts['keys'])}'s share of its {what}: {', '.join(parts)}{more}.")
        return _zh(lang, f"各 {'、'.join(facts['keys'])} 占 {what} 总计 {num(facts['total'], lang)} 的比例：{'，'.join(parts)}{more}（共 {facts['rows_in']:,} 行）。",
                   f"Share of total {what} ({num(facts['total'], lang)}): {', '.join(parts)}{more} ({facts['rows_in']:,} rows).")


COUNTED_GAP = _lazy(r"\s*(?:的)?\s*(?:所)?\s*(?:占)?\s*")


def _counted_part(text: str, cp: Any, at: int, end: int) -> tuple[list[Any], list[tuple[int, int]]]:
    """Of several conditions around a share word (at..end), the one said right before it is what is counted (延误的占比),
    or those said after it when others came first (membership Annual: share of age_group 50+); the others say which rows
    it is a share of (不算个人客户，… / 企业客户里… / year_level 2 or less: …) and are left to the filter, which runs first."""
    conds, spans = list(cp.conds), list(cp.spans)
    if len(conds) < 2 or len(conds) != len(spans) or cp.logic != "and":
        return conds, spans
    near = [i for i, (_, b) in enumerate(spans) if b <= at and COUNTED_GAP.fullmatch(text[b:at])]
    if len(near) == 1:
        return [conds[near[0]]], [spans[near[0]]]
    after = sorted((i for i, (a, _) in enumerate(spans) if a >= end), key=lambda i: spans[i][0])
    before = [i for i, (_, b) in enumerate(spans) if b <= at]
    if len(after) + len(before) != len(conds) or not after or SHARE_OF_COND.fullmatch(text[end : spans[after[0]][0]]) is None:
        return conds, spans
    # share of age_group 50+ among Annual members / what share of Annual members are 50+: the rows said by among, or before are
    scope = [j for k, j in enumerate(after) if k and SCOPE_AMONG.fullmatch(text[spans[after[k - 1]][1] : spans[j][0]])]
    if len(after) == 2 and SCOPE_ARE.fullmatch(text[spans[after[0]][1] : spans[after[1]][0]]):
        scope = [after[0]]
    counted = [i for i in after if i not in scope]
    if counted and (before or scope):
        return [conds[i] for i in counted], [spans[i] for i in counted]
    return conds, spans


SCOPE_AMONG = _lazy(r"\s*(?:among|amongst|within|out of|for)\s+(?:the\s+|all\s+)?(?:(?:rows?|ones|those)\s+(?:with|where)\s+)?", re.I)
SCOPE_ARE = _lazy(r"\s*(?:[a-z]+\s+){0,2}(?:are|were|have|had)(?:\s+(?:in|aged|age))?\s+", re.I)


FLAG_RATE_AFTER = _lazy(r"\s*(?:率|比率|比例|(?<![a-z_])(?:rate|ratio|percentage)(?![a-z_]))", re.I)


def _flag_rate(text: str, hits: list[Any], sheet: Any) -> Found | None:
    """延误率 / 各线路的退货率 / no-show rate by clinic, said of a yes-no column by its word: the share of rows that say yes
    (per group when keys are said); other conditions choose the rows it is a share of and are read by the filter."""
    from modes.conditions import Cond, flag_noun, flag_stem, flag_words, flag_yes

    low = text.casefold()
    for noun, col in flag_words(sheet).items():
        yes = flag_yes(sheet, col)
        stem = flag_stem(noun)  # cancellation rate of Cancelled (Y/N)
        said = re.escape(noun) if stem == noun else rf"(?<![a-z]){re.escape(stem)}[a-z]*"
        words = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", flag_noun(col)).casefold().replace("_", " ").replace("-", " ").split()  # (no_show: no-show)
        if len(words) > 1 and stem == noun:  # auto renew rate, of AutoRenew: its words, apart or together
            said = r"[\s_-]?".join(re.escape(x) for x in words)
        for w in re.finditer(said, low) if noun else ():
            r = FLAG_RATE_AFTER.match(text, w.end())
            if r is None:
                continue
            keys, by_spans = _by_keys(text, hits, sheet, [(w.start(), r.end())])
            keys = [k for k in keys if k != col]
            args: dict[str, Any] = {"conditions": [Cond(col, "eq", yes, raw=col, how="exact")], "logic": "and", **({"by": keys} if keys else {})}
            return Found(w.start(), "proportion", args, ((w.start(), r.end()), *by_spans))
    return None


VALUE_RATE_AFTER = _lazy(r"\s*(?:率|比率|(?<![a-z_])rate(?![a-z_]))", re.I)


def _value_rate(text: str, hits: list[Any], sheet: Any) -> Found | None:
    """复诊率 / 专家号率 / the Online rate, said of a value of a text column right before 率 or rate: the share of rows
    holding that value (per group when keys are said)."""
    if not VALUE_RATE_AFTER.search(text):
        return None  # (most requests say no rate: the table's values are never looked for in them)
    from modes.conditions import Cond
    from modes.resolve import find_values

    for col, vals in find_values(text, sheet, [(h.start, h.end) for h in hits]).items():
        for v, s, e in vals:
            r = VALUE_RATE_AFTER.match(text, e)
            if r is None or col in sheet.numeric or len([x for x in vals if x[1] == s]) > 1:
                continue
            keys, by_spans = _by_keys(text, hits, sheet, [(s, r.end())])
            keys = [k for k in keys if k != col]
            args: dict[str, Any] = {"conditions": [Cond(col, "eq", v, raw=col, how="exact")], "logic": "and", **({"by": keys} if keys else {})}
            return Found(s, "proportion", args, ((s, r.end()), *by_spans))
    return None


WHICH_ROW = _lazy(r"哪(?:一)?(?:个|家|位|些|种|类|条|行)?|(?:各|每)(?:一)?(?:个|家|位)|(?<![a-z_])which(?![a-z_])", re.I)  # 哪家 / 各家: the rows themselves
ID_NAME = _lazy(r"(?:^|[_\s])(?:id|uuid|guid|key)$|^(?:id|uuid)[_\s]|编号$|编码$|序号$|代码$", re.I)  # names a row, never says which one it is
RATIO_GAP = _lazy(r"\s*(?:的)?\s*(?:占|占到|占了|相对于)\s*(?:其|它的|它们的|他们的|该行的|自身的?|各自的?)?\s*(?:的)?\s*"
                  r"|\s*(?:as an?|as the)\s+(?:share|percentage|proportion|fraction|percent)\s+of\s+(?:its|their|the)?\s*", re.I)


def _column_ratio(text: str, hits: list[Any], sheet: Any, m: re.Match[str]) -> Found | None:
    """汇兑收益占其营业收入的比重 / A as a share of B: one column over another, row by row; 最高/最低 picks the row."""
    from modes.ops import _id_like

    nums = [h for h in hits if h.column in sheet.numeric]
    for a, b in zip(nums, nums[1:], strict=False):
        if a.column == b.column or not RATIO_GAP.fullmatch(text[a.end : b.start]):
            continue
        if not (b.end <= m.start() <= b.end + 4 or a.start <= m.start() < b.start):
            continue  # the share word belongs to this pair: right after it (…的比重) or inside it (as a share of)
        hi, lo = HIGH_END.search(text), LOW_END.search(text)
        which = "both" if hi and lo else "max" if hi else "min" if lo else None
        texts = [c for c in sheet.columns if c not in sheet.numeric and c not in sheet.dates and not _id_like(c, sheet) and not ID_NAME.search(c)]
        named = [h.column for h in hits if h.column in texts]
        label = (named or texts or [None])[0]
        spans = [m.span(), (a.start, b.end)] + [x.span() for rx in (HIGH_END, LOW_END, WHICH_ROW) for x in rx.finditer(text)]
        spans += [(h.start, h.end) for h in hits if h.column == label]
        args = {"numerator": a.column, "denominator": b.column, **({"label": label} if label else {}), **({"which": which} if which else {})}
        return Found(m.start(), "column_ratio", args, tuple(spans))
    return None


PAIR_JOIN = _lazy(r"\s*(?:与|和|跟|及|对|比|:|：|/|(?<![a-z_])(?:and|to|vs\.?)(?![a-z_]))\s*", re.I)


def _value_pair(text: str, sheet: Any, m: re.Match[str]) -> Found | None:
    """男与女的比例 / the ratio of 男 to 女: two values of one column named together before the share word: each value's share."""
    found = []
    for col, vals in sheet.values.items():
        for v in vals:
            if not v.isdigit():
                found += [(x.start(), x.end(), col, v) for x in re.finditer(re.escape(v), text) if m.start() - 12 < x.end() <= m.start() or m.end() <= x.start() < m.end() + 16]
    found.sort()
    for a, b in zip(found, found[1:], strict=False):
        if a[2] != b[2] or a[3] == b[3] or not PAIR_JOIN.fullmatch(text[a[1] : b[0]]):
            continue
        before = b[1] <= m.start() and re.fullmatch(r"\s*(?:之间)?\s*的?\s*", text[b[1] : m.start()])
        after = a[0] >= m.end() and re.fullmatch(r"\s*(?:of|between)?\s*", text[m.end() : a[0]], re.I)
        if before or after:  # 研发与销售的比例 among three departments: the two compared with each other, not with all rows
            among = {} if set(sheet.values.get(a[2], ())) == {a[3], b[3]} else {"among": [a[3], b[3]]}
            return Found(m.start(), "share", {"keys": [a[2]], **among}, (m.span(), (a[0], b[1])))
    return None


SHARE_OF_COND = _lazy(r"\s*(?:of\s+)?(?:the\s+)?(?:[a-z_]+\s+)?(?:where|with|that are|that were|which are)?\s*", re.I)
EN_EACH = _lazy(r"^\s*(?:per|for each|for every|within each|in each|within every)(?![a-z_])", re.I)  # …, per department: within each


def _within_groups(text: str, hits: list[Any], sheet: Any, used: list[tuple[int, int]], keys: list[str],
                   by_spans: list[tuple[int, int]], at: int) -> Found | None:
    """按部门分组，女性所占比例 / the share of women in each department: a condition's proportion within each group.

    Only when the grouping is written before the condition; a condition written first and closed by 中/里
    (女性中各部门的占比) picks the rows whose split by group is asked, and stays a filter and a share."""
    if not keys or not by_spans:
        return None
    if any(h.column in sheet.numeric and h.end <= at and re.fullmatch(r"\s*(?:的)?\s*", text[h.end : at]) for h in hits):
        return None  # 各付款方式的金额占比，付款方式空的不算: a share of 金额, the condition a filter of its rows
    from modes.conditions import parse_conditions
    from modes.ops import _blank

    rest = [h for h in hits if _free(used + by_spans, h.start, h.end) and h.column not in keys]
    cp = parse_conditions(_blank(text, used + by_spans), sheet, rest)
    if not cp.conds or not all(c.column for c in cp.conds) or not cp.spans:
        return None
    first_cond, by_at = min(a for a, _ in cp.spans), min(a for a, _ in by_spans)
    share_end = max((b for a, b in used if a == at), default=at)
    of_cond = first_cond >= share_end and SHARE_OF_COND.fullmatch(text[share_end:first_cond]) is not None  # share of X = v by K: a rate per group
    # 是否续费是'是'的占比，按卡种分: the share of the condition said right before the share word, the groups after it
    cond_share = by_at > at and re.fullmatch(r"\s*['\"“”‘’]?\s*(?:的)?\s*(?:所)?\s*", text[max(b for _, b in cp.spans) : at]) is not None
    if first_cond < by_at and not EN_EACH.search(text[by_at : by_at + 16]) and not of_cond and not cond_share:
        return None  # 女性中各部门的占比: among those rows, each group's share (a filter, then shares)
    conds, spans = _counted_part(text, cp, at, share_end)  # year_level 2 or less: share of scholarship Yes within each faculty
    first_cond = min(a for a, _ in spans)
    return Found(at, "proportion", {"conditions": conds, "logic": cp.logic, "by": keys}, tuple(used + by_spans + spans + _lead(text, first_cond)))


ROWS_WHERE = _lazy(r"(?:rows?|records?|entries|ones|items|people|employees)?\s*(?:where|whose|with|having|that have|that has|which have)\s*$", re.I)


def _lead(text: str, at: int) -> list[tuple[int, int]]:
    """'rows where' / 'whose' right before a condition: part of the condition, not a filter request of its own."""
    m = ROWS_WHERE.search(text[:at])
    return [m.span()] if m else []


SHARE_LIMIT = _lazy(r"(?P<d>超过了?|超出了?|高于|大于|多于|不低于|不少于|低于|小于|少于|不到|不足|不超过|(?<![a-z_])(?:more than|over|above|greater than|at least|less than|below|under|at most)(?![a-z_]))\s*"
                    r"(?:其|它的|它们的|他们的|自身的?|各自的?|its|their|the)?\s*(?P<b>[^\s，,。；;？?、的]{1,24}?|[A-Za-z_][\w ]{0,30}?)\s*的\s*(?P<n>\d+(?:\.\d+)?)\s*(?:%|％)"
                    r"|(?P<d2>more than|over|above|greater than|at least|less than|below|under|at most)\s+(?P<n2>\d+(?:\.\d+)?)\s*(?:%|percent)\s+of\s+"
                    r"(?:its|their|the)?\s*(?P<b2>[\w\u4e00-\u9fff()（）/]+)", re.I)
LIMIT_OP = (("不低于|不少于|at least", "ge"), ("不超过|at most", "le"), ("低于|小于|少于|不到|不足|less than|below|under", "lt"))


def _resolve_measure(raw: str, sheet: Any) -> str | None:
    """A numeric column from a name as written; 总资产 also names 资产总计 (总 before the noun or 总计 after it)."""
    from modes.resolve import resolve_column

    for form in dict.fromkeys([raw, raw[1:] if raw.startswith("总") and len(raw) > 2 else raw]):
        col, how, _ = resolve_column(form, sheet, numeric=True, closest=False)
        if col and col in sheet.numeric and how in ("exact", "synonym", "partial"):
            return col
    return None


@operation
class ShareLimit(OpSpec):
    name = "share_limit"
    family = "transform"
    label = {"zh": "按两列之比筛选", "en": "filter by one column's share of another"}
    words = {"zh": ("%",), "en": ("%", "percent")}
    saves_result = True

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        """存款总额超过了其总资产的50% / deposits above 50% of their total assets: A compared with a share of B, row by row."""
        from modes.ops import _id_like

        for m in SHARE_LIMIT.finditer(text):
            before = [h for h in hits if h.end <= m.start() and not text[h.end : m.start()].strip(" 是都已经的") and h.column in sheet.numeric]
            raw_b = (m.group("b") or m.group("b2") or "").strip()
            b = _resolve_measure(raw_b, sheet)
            if not before or b is None or b == before[-1].column:
                continue
            d = (m.group("d") or m.group("d2") or "").casefold()
            op = next((o for words, o in LIMIT_OP if re.fullmatch(words, d, re.I)), "gt")
            texts = [c for c in sheet.columns if c not in sheet.numeric and c not in sheet.dates and not _id_like(c, sheet) and not ID_NAME.search(c)]
            named = [h.column for h in hits if h.column in texts]
            label = (named or texts or [None])[0]
            spans = [(before[-1].start, m.end())] + [x.span() for x in WHICH_ROW.finditer(text)] + [(h.start, h.end) for h in hits if h.column == label]
            args = {"numerator": before[-1].column, "denominator": b, "op": op, "percent": float(m.group("n") or m.group("n2")),
                    **({"label": label} if label else {})}
            return Found(before[-1].start, self.name, args, tuple(spans))
        return None

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        word = {"gt": ("超过", "above"), "ge": ("不低于", "at least"), "lt": ("低于", "below"), "le": ("不超过", "at most")}[args["op"]]
        return _zh(lang, f"筛选 {args['numerator']} {word[0]} 本行 {args['denominator']} 的 {num(args['percent'])}% 的行",
                   f"rows whose {args['numerator']} is {word[1]} {num(args['percent'], lang)}% of their own {args['denominator']}")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "筛选"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        a = {k: args[k] for k in ("numerator", "denominator", "op", "percent", "label") if args.get(k) is not None}
        return [StepSpec("按两列之比筛选", "rows_by_share_of_column", "筛选完成", a)]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "rows_by_share_of_column":
            return None
        names = _sep(lang).join(facts["names"]) + ("……" if facts["rows_out"] > len(facts["names"]) else "")
        return _zh(lang, f"{facts['rows_in']} 行中有 {facts['rows_out']} 行符合" + (f"：{names}。" if names else "。"),
                   f"{facts['rows_out']} of {facts['rows_in']} rows qualify" + (f": {names}." if names else "."))


@operation
class AcrossColumns(OpSpec):
    name = "across_columns"
    family = "explore"
    label = {"zh": "各列比较", "en": "compare columns"}
    words = {"zh": ("哪类", "哪一类", "哪种", "哪个"), "en": ("which",)}
    answers_question = True

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        """哪类商家数量最少，哪类最多 on a one-row table whose columns are the categories: compare the columns."""
        if sheet is None or sheet.rows != 1 or len(sheet.numeric) < 2:
            return None
        which = WHICH_ROW.search(text)
        ends = [x.span() for rx in (HIGH_END, LOW_END) for x in rx.finditer(text)]
        if which is None or not ends:
            return None
        named = list(dict.fromkeys(h.column for h in hits if h.column in sheet.numeric))
        cols = named if len(named) >= 2 else [c for c in sheet.columns if c in sheet.numeric]
        spans = [which.span(), *ends, *[x.span() for x in WHICH_ROW.finditer(text)], *[(h.start, h.end) for h in hits]]
        return Found(which.start(), self.name, {"columns": cols}, tuple(spans))

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        return _zh(lang, f"比较这一行的 {'、'.join(args['columns'])}，找出最高和最低的一列",
                   f"compare {', '.join(args['columns'])} in the table's one row: the highest and the lowest")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("比较各列", "extremes_across_columns", "已比较", {"columns": args["columns"]})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "extremes_across_columns":
            return None
        return _zh(lang, f"最高的是 {'、'.join(facts['highest'])}（{num(facts['max'])}），最低的是 {'、'.join(facts['lowest'])}（{num(facts['min'])}）。",
                   f"Highest: {', '.join(facts['highest'])} ({num(facts['max'], lang)}); lowest: {', '.join(facts['lowest'])} ({num(facts['min'], lang)}).")


@operation
class ColumnRatio(OpSpec):
    name = "column_ratio"
    family = "explore"
    label = {"zh": "两列之比", "en": "ratio of two columns"}
    words = {}  # read by Share: 汇兑收益占营业收入的比重
    saves_result = True

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        a, b = args["numerator"], args["denominator"]
        pick = {"max": _zh(lang, "，找出最高的", ", and find the highest"), "min": _zh(lang, "，找出最低的", ", and find the lowest"),
                "both": _zh(lang, "，找出最高和最低的", ", and find the highest and the lowest")}.get(args.get("which") or "", "")
        return _zh(lang, f"逐行计算 {a} 占 {b} 的比重（{a} ÷ {b} × 100%）{pick}", f"row by row, {a} as a share of {b} ({a} ÷ {b} × 100%){pick}")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "占比"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        a = {k: args[k] for k in ("numerator", "denominator", "label", "which") if args.get(k)}
        return [StepSpec("计算两列之比", "column_ratio", "比重已算出", a)]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "column_ratio":
            return None
        a, b = facts["numerator"], facts["denominator"]
        skip = _zh(lang, f"{facts['no_ratio']} 行因 {b} 为 0 或空未计算。", f" {facts['no_ratio']} rows have no {b} and no ratio.") if facts["no_ratio"] else ""

        def said(rows: list[dict[str, Any]]) -> str:
            return _sep(lang).join(f"{r['label']}（{r['pct']}%）" if lang == "zh" else f"{r['label']} ({r['pct']}%)" for r in rows)

        w = facts.get("which")
        if w and facts.get("highest"):
            hi = _zh(lang, f"{a} 占 {b} 比重最高的是 {said(facts['highest'])}", f"Highest {a} as a share of {b}: {said(facts['highest'])}")
            lo = _zh(lang, f"最低的是 {said(facts['lowest'])}", f"lowest: {said(facts['lowest'])}")
            body = {"max": hi, "min": _zh(lang, f"{a} 占 {b} 比重{lo}", f"Lowest {a} as a share of {b}: {said(facts['lowest'])}"),
                    "both": f"{hi}{_zh(lang, '，', '; ')}{lo}"}[w]
            return _zh(lang, f"{body}（共 {facts['counted']} 行有比值）。{skip}", f"{body} ({facts['counted']} rows with a ratio).{skip}")
        more = "……" if facts["counted"] > len(facts["first"]) else ""
        return _zh(lang, f"{a} 占 {b} 的比重（从高到低）：{said(facts['first'])}{more}。{skip}",
                   f"{a} as a share of {b}, highest first: {said(facts['first'])}{more}.{skip}")


DISTRIBUTION = _lazy(r"(?P<by>不同|各个|各类|各|每个|每一个)\s*(?P<col>[^\s，,。；;的]{1,24}?)\s*(?:之间|当中|中|里|上|间)?\s*的?\s*(?:分布情况|分布)"
                     r"|(?<![a-z_])(?:distribution|distributed|spread)\s+(?:across|by|over|among|between)\s+(?:the\s+)?(?:different\s+)?(?P<col2>[\w\u4e00-\u9fff()（）]+)", re.I)


@operation
class Distribution(OpSpec):
    name = "distribution"
    family = "explore"
    label = {"zh": "分布", "en": "distribution"}
    words = {"zh": ("分布",), "en": ("distribution", "distributed")}

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        """这些学校在不同区域中的分布情况 / their distribution across regions: how many rows fall in each value of a column,
        with each value's share (read as a share of the row count)."""
        for m in DISTRIBUTION.finditer(text):
            a, b = m.span("col") if m.group("col") else m.span("col2")
            inside = [h for h in hits if a <= h.start and h.end <= b + 1 and h.column not in sheet.numeric]
            if inside and not text[a : inside[0].start].strip() and (len(inside) == 1 or inside[1].column == inside[0].column):
                return Found(m.start(), "share", {"keys": [inside[0].column]}, (m.span(), (inside[0].start, inside[0].end)))
        return None

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return Share().to_steps(args, ctx)  # a distribution is each value's count and share of the rows


@operation
class Proportion(OpSpec):
    name = "proportion"
    family = "explore"
    label = {"zh": "满足条件的比例", "en": "proportion of rows"}
    words = {}  # read by Share: a share word with a condition and no grouping column
    slots = (Slot("conditions", "conditions", "满足什么条件的行？", "Rows meeting which condition?", gap="condition"),)
    answers_question = True

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        conds = _zh(lang, " 且 ", " and ").join(c.describe(lang) for c in args.get("conditions") or [])
        by = _sep(lang).join(args.get("by") or [])
        if by:
            order = {"desc": _zh(lang, "，按比例从高到低排", ", highest first"), "asc": _zh(lang, "，按比例从低到高排", ", lowest first")}.get(args.get("order") or "", "")
            return _zh(lang, f"按 {by} 分组，计算每组内 {conds} 的行占该组行数的比例{order}", f"within each {by}, the proportion of its rows where {conds}{order}")
        return _zh(lang, f"计算 {conds} 的行占全部行的比例", f"the proportion of rows where {conds}")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        conds = [c.to_tool() if hasattr(c, "to_tool") else c for c in args["conditions"]]
        a = {"conditions": conds, "logic": args.get("logic", "and"), **({"by": args["by"]} if args.get("by") else {}),
             **({"order": args["order"]} if args.get("order") and args.get("by") else {})}
        return [StepSpec("计算比例", "proportion_where", "比例已算出", a)]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "proportion_where":
            return None
        if facts.get("by"):
            parts = [_zh(lang, f"{g['label']} {g['matched']:,}/{g['total']:,}（{g['pct']}%）", f"{_label(g['label'], lang)} {g['matched']:,}/{g['total']:,} ({g['pct']}%)")
                     for g in facts["group_pcts"]]
            more = _zh(lang, "……", " …") if facts["groups"] > len(parts) else ""
            return _zh(lang, f"按 {'、'.join(facts['by'])} 分组，每组内满足条件的行占该组的比例：{'，'.join(parts)}{more}（共 {facts['total']:,} 行）。",
                       f"Within each {', '.join(facts['by'])}, the share of its rows meeting the condition: {', '.join(parts)}{more} ({facts['total']:,} rows).")
        return _zh(lang, f"满足条件的有 {facts['matched']:,} 行，占全部 {facts['total']:,} 行的 {facts['pct']}%。",
                   f"{facts['matched']:,} of {facts['total']:,} rows meet the condition: {facts['pct']}%.")


# ---------------------------------------------------------------- time

# a period's word and the header of the column of periods, per unit (the tool names the column the same way)
UNIT_ZH = {"year": "年", "quarter": "季度", "month": "月", "week": "周", "weekday": "星期", "day": "天"}
PERIOD_HEADER = {"year": "年份", "quarter": "季度", "month": "月份", "week": "周", "weekday": "星期", "day": "日期"}
UNIT_WORDS = (("季度", "quarter"), ("季", "quarter"), ("月", "month"), ("年", "year"), ("星期", "weekday"), ("周几", "weekday"), ("周", "week"),
              ("天", "day"), ("日", "day"))
BUCKET_RX = _lazy(
    r"(?:按|每|分|逐|各)(?:个)?(?P<zh>季度|月份?|年度?|星期|周几|周)(?:份)?|(?:按|分|逐)(?P<zh4>天|日(?!期|常|均|志|程))"
    r"|每(?:一)?(?P<zh5>天|日)(?=\s*的|\s*(?:都|各)?\s*(?:有|卖|收|赚|进|出|多少|几|汇总|统计|合计|金额|销量|销售|数量|订单|单数))"
    r"|(?P<zh2>月度|年度|季度)(?:汇总|统计|销售|趋势)"
    r"|(?<![a-z_])(?P<en>monthly|yearly|annually|quarterly|weekly|daily|by (?:month|year|quarter|week|weekday|day of (?:the )?week|day|date)|(?:per|each|for each|every) (?:weekday|day of (?:the )?week)|per (?:month|year|quarter|week|day)|(?:each|for each|for every|in each|in every) (?:month|year|quarter|week))(?![a-z_])"
    # 按入职年份, by hire year: a period word after a date column's name buckets that column (read() checks the name)
    r"|(?:按|每|分|各)\s*(?P<col>[\u4e00-\u9fffA-Za-z_][\u4e00-\u9fffA-Za-z0-9_ ]{0,11}?)\s*的?\s*(?P<zh3>年份|月份|季度|年度)"
    r"|(?<![a-z_])(?:by|per)\s+(?P<col2>[a-z_][a-z0-9_ ]{0,19}?)[\s_]+(?P<en2>year|month|quarter)(?![a-z_])",
    re.I,
)


def _bucket_search(text: str, pos: int = 0) -> re.Match[str] | None:
    """The first period word from pos that buckets time: never the period of an occasion (for my weekly review)."""
    from modes.tagging.asides import period_events

    events = period_events(text) if re.search(r"ly(?![a-z_])|每|度", text, re.I) else []
    m = BUCKET_RX.search(text, pos)
    while m is not None and any(a < m.end() and m.start() < b for a, b in events):
        m = BUCKET_RX.search(text, m.end())
    return m


MONTHLY_WORD = _lazy(r"(?P<zh>月|季度|年|周)(?=度?(?:环比|同比|增长))")  # 月环比, 季度同比
EN_UNIT = {"month": "month", "year": "year", "annual": "year", "quarter": "quarter", "week": "week", "weekday": "weekday", "day of": "weekday", "daily": "day",
           "day": "day", "date": "day"}
CHART_RX = _rx("柱状图", "条形图", "柱形图", "折线图", "趋势图", "走势图", "饼图", "饼状图", "散点图", "热力图", "热图", "heatmap", "heat map", "画图", "作图", "画个图", "画一个图", "做个图", "图表",
               "bar chart", "line chart", "pie chart", "scatter plot", "scatter chart", "chart", "plot", "graph")


def _bucket_match(text: str, hits: list[Any], sheet: Any) -> tuple[re.Match[str] | None, str | None]:
    """The period word and, for 按入职年份 / by hire year, the date column named before it."""
    m = _bucket_search(text)
    while m is not None:
        g = "col" if m.group("col") else "col2" if m.group("col2") else None
        if g is None:
            if any(h.start < m.end() and m.start() < h.end for h in hits):
                return None, None  # 按年份 where 年份 is a column: a grouping, not a period
            return m, None
        a, b = m.span(g)
        col, _, _ = resolve_column(m.group(g).strip(), sheet)
        over = [h for h in hits if h.start < m.end() and m.start() < h.end]
        if col in sheet.dates and all(h.column == col and h.start < b and a < h.end for h in over):
            return m, col
        m = _bucket_search(text, m.start("zh3" if g == "col" else "en2"))  # 按部门年度汇总: no date column named; the period word alone
    return None, None


def _unit_of(m: re.Match[str]) -> str:
    g = m.groupdict()
    w = (g.get("zh") or g.get("zh2") or g.get("zh3") or g.get("zh4") or g.get("zh5") or "").rstrip("份度")
    if w:
        return next(u for z, u in UNIT_WORDS if w.startswith(z))
    en = (g.get("en") or g.get("en2") or "").casefold()
    if "day of" in en or "weekday" in en:
        return "weekday"
    return next(u for k, u in EN_UNIT.items() if k in en)


def _date_column(hits: list[Any], sheet: Any, text: str = "") -> str | None:
    named = [h.column for h in hits if h.column in sheet.dates]
    if named:
        return named[0]
    if len(sheet.dates) > 1 and text:  # how many POs did Dallas place each month: the date of the event the verb says
        from modes.conditions import date_of_verb

        return date_of_verb(text, [c for c in sheet.columns if c in sheet.dates])
    return sorted(sheet.dates)[0] if len(sheet.dates) == 1 else None


PERIOD_LABEL = {"month": _lazy(r"^\s*\d{4}\s*[-/.年]\s*\d{1,2}\s*月?\s*$"), "quarter": _lazy(r"^\s*\d{4}\s*[-/ ]?\s*(?:q[1-4]|[1-4]季度|第[一二三四]季度)\s*$", re.I),
                "year": _lazy(r"^\s*\d{4}\s*年?\s*$")}


def _labels(sheet: Any, col: str, rx: Any) -> bool:
    """Whether a text column's values are periods written as text (2024-01, 2024Q1, 2024年)."""
    vs = sheet.values.get(col) or ()
    return bool(vs) and col not in sheet.numeric and sum(bool(rx.match(v)) for v in vs) >= 0.8 * len(vs)


def _period_labels(sheet: Any, unit: str) -> str | None:
    """The one text column whose values are the periods themselves (2024-01, 2024Q1), in a table with no date column."""
    rx = PERIOD_LABEL.get(unit)
    if rx is None or sheet.dates:
        return None
    found = [c for c in sheet.values if _labels(sheet, c, rx)]
    if unit == "year" and not found:  # growth year to year, of a total per sheet 2023 / 2024 read back: whole years as numbers
        from tools.ops import ROWS

        found = [c for c, (lo, hi) in sheet.ranges.items() if 1900 <= lo and hi <= 2100 and lo == int(lo) and hi == int(hi)
                 and not SUMMARY_FIGURE.search(c) and c not in ROWS.values()]
    return found[0] if len(found) == 1 else None


KEY_JOIN = _lazy(r"\s*(?:和|、|与|及|以及|跟|,|(?<![a-z_])(?:and|&)(?![a-z_]))\s*", re.I)


def _keys_after_period(text: str, hits: list[Any], sheet: Any, end: int, keys: list[str],
                       spans: list[tuple[int, int]]) -> tuple[list[str], list[tuple[int, int]]]:
    """按月和导购 / 按销售月份、门店汇总 / by month and region: the columns listed right after the period are keys too."""
    keys, spans = list(keys), list(spans)
    for h in sorted(hits, key=lambda x: x.start):
        if h.start < end:
            continue
        if not KEY_JOIN.fullmatch(text[end : h.start]) or h.column in sheet.numeric or h.column in sheet.dates:
            break
        if h.column not in keys:
            keys.append(h.column)
        spans.append((end, h.end))
        end = h.end
    return keys, spans


@operation
class Bucket(OpSpec):
    name = "bucket"
    family = "explore"
    label = {"zh": "按时间汇总", "en": "summarise by period"}
    words = {"zh": ("按月", "按年", "按季度", "按周", "按星期", "每月", "每年", "按天", "每天"), "en": ("monthly", "by month", "by year", "quarterly", "weekly", "daily")}
    slots = (Slot("column", "column", "按哪一个日期列分期？", "Which date column?", gap="date_column", fits="date"),
             Slot("value", "column", "每期汇总哪一列的数值？", "Which column should each period total?", numeric=True, required=False, gap="period_value"))
    answers_question = True

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        found = self._read(text, hits, sheet)
        if found is not None and found.kind == self.name and not found.args.get("value") and found.args.get("agg") != "count" \
                and (money := _money_asked(text, sheet)) is not None:  # 每个月卖了多少钱: the money column, never the rows counted
            return Found(found.start, found.kind, {**found.args, "value": money}, (*found.spans, *[m.span() for m in INCOME_SAID.finditer(text)]))
        if found is not None and found.kind == self.name and not found.args.get("value") and found.args.get("agg") != "count":
            said = _measure_word(text, sheet)
            if said:  # monthly revenue, where no column is the revenue: which column is asked, never the rows counted
                return Found(found.start, found.kind, {**found.args, "measure_said": said}, found.spans)
        return found

    def gaps(self, args: dict[str, Any]) -> list[str]:
        return super().gaps(args) + (["period_value"] if args.get("measure_said") and not args.get("value") else [])

    def answer_word(self, slot: str, text: str) -> str | None:
        if slot == "period_value" and CHART_COUNT.fullmatch(text.strip()):  # 行数 / count: the rows of each period
            return "行数" if re.search(r"[\u4e00-\u9fff]", text) else "count"
        return None

    def question(self, slot: str, lang: str) -> str | None:
        if slot == "period_value":
            return _zh(lang, "每期汇总哪一列的数值？（也可以回答“行数”，即每期的行数）", "Which column should each period total? (or “count”, the rows per period)")
        return super().question(slot, lang)

    def _read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        m, named = _bucket_match(text, hits, sheet)
        if m is None or CHART_RX.search(text) or GROWTH_RX.search(text) or _series_of(sheet) is not None:
            return None
        if _period_layout(text, hits) is not None or (PIVOT_RX.search(text) and not THEN_WORD.search(text)):
            return None  # one row per category and one column per month / 每个月…做成宽表: a layout of rows and columns, the pivot's
        used = [m.span()]
        values = _cols(hits, sheet, used, numeric=True)
        keys, by_spans = _by_keys(text, hits, sheet, used)
        keys, by_spans = _keys_after_period(text, hits, sheet, m.end(), keys, by_spans)
        args: dict[str, Any] = {"unit": _unit_of(m), "column": named or _date_column(hits, sheet, text), "agg": _agg(text)}
        stat = next((x for x in PERIOD_STAT.finditer(text) if not any(h.start <= x.start() < h.end for h in hits)), None)
        if stat is not None and values:  # 按导购、月份分组，算金额中位数: that statistic of each period (never a stats step that drops the periods)
            args["agg"] = stat.lastgroup
            used.append(stat.span())
        label = _period_labels(sheet, args["unit"]) if not args["column"] else None
        if label is not None:  # 按月汇总销售额 over a column of months written as text (2024-01): its values are the periods
            measure = {"column": values[0].column, "agg": args["agg"]} if values and args["agg"] != "count" else {"agg": "count"}
            used += [(h.start, h.end) for h in hits if values and h.column == values[0].column]
            return Found(m.start(), "group", {"keys": [*keys, label], "measures": [measure]}, tuple(used + by_spans))
        if values and args["agg"] != "count":
            args["value"] = values[0].column
            used.append((values[0].start, values[0].end))
            more = []  # 物业费和停车费各是多少 / Gross and Net per month: the columns listed with it, each totalled the same way
            for a, b in zip(values, values[1:], strict=False):
                if not VALUE_LIST_GAP.fullmatch(text[a.end : b.start]) or b.column == args["value"]:
                    break
                more.append(b.column)
                used.append((b.start, b.end))
            if more:
                args["values"] = list(dict.fromkeys(more))
        keys = [k for k in keys if k != args["column"]]  # 按日期每月汇总: the date column is bucketed, never also a key
        if keys:
            args["by"] = keys
        used += [(h.start, h.end) for h in hits if h.column == args["column"]]
        return Found(m.start(), self.name, args, tuple(used + by_spans))

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        unit = UNIT_ZH[args["unit"]]
        every = [args["value"], *(args.get("values") or [])] if args.get("value") else []
        what = f"{'、'.join(every)} {AGG_ZH[args['agg']]}" if every else "行数"
        by = f"{'、'.join(args['by'])}、" if args.get("by") else ""
        if lang == "zh":
            return f"按 {by}{args.get('column') or '日期'} 的{unit}汇总 {what}"
        by_en = f" for each {', '.join(args['by'])}" if args.get("by") else ""
        what_en = f"{AGG_EN[args['agg']]} of {' and '.join(every)}" if every else "number of rows"  # (rows are counted, never totalled)
        return f"{what_en} per {args['unit']} of {args.get('column') or 'the date'}{by_en}"

    def stem_label(self, args: dict[str, Any]) -> str:
        return "按" + UNIT_ZH[args["unit"]]

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        a = {"column": args["column"], "unit": args["unit"], "agg": args.get("agg", "sum"), **({"value": args["value"]} if args.get("value") else {}),
             **({"by": args["by"]} if args.get("by") else {}), **({"values": list(args["values"])} if args.get("value") and args.get("values") else {})}
        label = {"sum": "合计", "mean": "平均", "count": "计数", "median": "中位数", "min": "最小", "max": "最大"}.get(a["agg"], a["agg"])
        ctx.last_measure = f"{args['value']}_{label}" if args.get("value") and a["agg"] != "count" else "行数"  # the figure of each period
        return [StepSpec("按时间分期汇总", "bucket_dates", "分期汇总完成", a)]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "bucket_dates":
            return None
        unit = UNIT_ZH[facts["unit"]]
        bad = _zh(lang, f"另有 {facts['unreadable_dates']} 行日期无法识别，未计入。", f" {facts['unreadable_dates']} rows with unreadable dates were left out.") if facts["unreadable_dates"] else ""
        return _zh(lang, f"按{unit}汇总：{facts['periods']} 期（{facts['first']} 至 {facts['last']}），基于 {facts['counted']:,} 行。{bad}",
                   f"Per {facts['unit']}: {facts['periods']} periods ({value_en(facts['first'])} to {value_en(facts['last'])}) from {facts['counted']:,} rows.{bad}")


VALUE_LIST_GAP = _lazy(r"\s*(?:的)?\s*(?:合计|总和|总额|总计|(?<![a-z_])(?:sum|total)(?![a-z_]))?\s*(?:和|与|及|跟|以及|、|，|,|(?<![a-z_])(?:and|plus)(?![a-z_])|&)\s*", re.I)


SUMMARY_FIGURE = _lazy(r"_(?:合计|平均|中位数|最大|最小|sum|mean|median|max|min|total)$", re.I)  # a figure a summary made


def _money_words(text: str) -> list[re.Match[str]]:
    from modes.ops import MONEY_SAID

    return list(MONEY_SAID.finditer(text))


def _money_asked(text: str, sheet: Any) -> str | None:
    """卖了多少钱 / 花了多少 / how much was spent: the table's one money column, when the text asks how much money."""
    from modes.ops import MONEY_SAID, _money_column

    return _money_column(sheet) if MONEY_SAID.search(text) or INCOME_SAID.search(text) else None


# 停车费收入 / the takings / income per month: the money the rows brought in, said as a noun of money
INCOME_SAID = _lazy(r"收入|进账|收款|营收|销售额|营业额|销售金额|成交额|花费|开销|(?<![a-z_])(?:income|takings|revenue|money|spend|spending|spent|outlay|expenditure)(?![a-z_])", re.I)


def _measure_word(text: str, sheet: Any) -> str | None:
    """A word of the lexicon for a figure (revenue, 营收, 工资) that the text says and no column of the sheet carries."""
    from modes import lexicon as lx

    carried = {lx.concept_of_name(c) for c in sheet.columns}
    for word, concept in lx.synonyms().items():  # the concepts of figures (revenue, 营收, salary, price …)
        if concept in lx.HEAD_CONCEPTS and concept not in carried and len(word) >= 2:
            at = re.search(r"(?<![a-z_])" + re.escape(word) + r"(?![a-z_])" if word.isascii() else re.escape(word), text, re.I)
            if at is not None:
                return word
    return None


GROWTH_RX = _rx("增长或减少的百分比", "增减的百分比", "增减百分比", "增长百分比", "变化百分比", "变动百分比", "增减率", "percentage change", "percent change",
                "环比", "同比", "增长率", "增速", "涨幅", "增幅", "增长幅度", "增长最快", "增长最慢", "增长最多", "增长最少", "增长得最快", "增长得最多", "增长了多少", "年均增长率", "复合增长率", "年均增速", "年均复合增长率",
                "growth rate", "growth", "year over year", "year-over-year", "month over month", "month-over-month", "month-on-month",
                "quarter over quarter", "quarter-over-quarter", "week over week", "week-over-week", "yoy", "mom", "cagr", "compound annual")
# 每个月比上个月涨了多少 / 较上月增长 / 跟上季度比: the growth over the period before, said in words (its unit said with it)
PRIOR_PERIOD = _lazy(r"(?:比|较|相比于?|对比|跟|和|与)\s*(?:上个?|前一个?|上一个?)\s*(?P<pu>月|季度|周|星期|年)(?:份|度)?\s*(?:相比|比|来说)?\s*的?\s*"
                     r"(?:涨|增长|增加|上涨|多|少|降|下降|减少|变化|变动|增减)了?\s*(?:多少|几成|百分之几|百分比|幅度)?")
# quarter on quarter / week-over-week: a growth whose own words name its period
GROWTH_OVER = _lazy(r"(?<![a-z_])(?P<u>quarter|month|week|year|day)[\s-]+(?:over|on|to)[\s-]+(?P=u)(?![a-z_])"
                    r"|(?<![a-z_])(?:vs\.?|versus|against|compared (?:with|to)|over)\s+(?:the\s+)?(?:previous|prior|last)\s+(?P<u2>quarter|month|week|year|day)(?![a-z_])", re.I)
# 6月比5月涨了百分之几: one month against the month before it, said by name (its growth over that month)
MONTH_PAIR = _lazy(r"(?P<ma>1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])\s*月份?[^，,。比]{0,8}?比\s*(?P<mb>1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])\s*月份?\s*(?:的)?\s*"
                   r"(?:涨|增长|增加|上涨|多|少|降|下降|减少|变化|变动|增减)了?\s*(?:多少|百分之几|几成|百分比|幅度)?")
GROWTH_RX = Lazy(GROWTH_RX.pattern + "|" + PRIOR_PERIOD.pattern + "|" + GROWTH_OVER.pattern + "|" + MONTH_PAIR.pattern, re.I)
CAGR_RX = _rx("年均增长率", "复合增长率", "年均增速", "年均复合增长率", "平均每年增长", "cagr", "compound annual", "average annual growth")
YOY_RX = _rx("同比", "year over year", "year-over-year", "yoy", "去年同期")


def _month_no(said: str) -> int:
    from modes.conditions import CN_MONTH

    return int(said) if said.isdigit() else CN_MONTH.get(said, 0)


GROWTH_AUX = _lazy(r"增长了?多少|增长|增加了?多少|上涨|下降了?多少|变化|(?:用|以|按)?百分比(?:表示|显示)?|(?<![a-z_])(?:in|as(?: an?)?)\s+(?:percent(?:age)?s?|%)(?![a-z_])", re.I)


@operation
class Growth(OpSpec):
    name = "growth"
    family = "explore"
    label = {"zh": "增长率", "en": "growth"}
    words = {"zh": ("环比", "同比", "增长率", "年均增长率"), "en": ("growth", "cagr", "yoy")}
    slots = (Slot("value", "column", "要算哪一列的增长率？", "Growth of which column?", numeric=True),
             Slot("column", "column", "按哪一个日期列计算增长？", "Growth along which date column?", gap="date_column", fits="date"))
    answers_question = True

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        m = unquoted(GROWTH_RX, text)
        if m is None:
            return None
        series = _series_of(sheet)
        cagr = bool(CAGR_RX.search(text))
        if series is not None:
            return _wide_found(text, hits, sheet, m, "cagr" if cagr else "growth")
        by, by_spans = _by_keys(text, hits, sheet, [])
        by = [k for k in by if k not in sheet.dates]  # (by check_in: its dates, the periods)
        labelled = next(((k, u) for k in by for u, rx in PERIOD_LABEL.items() if _labels(sheet, k, rx)), None)
        if labelled is not None:  # 每个计费月份的…环比: a column of months written as text is the periods, never a group
            by = [k for k in by if k != labelled[0]]
        used = [x.span() for x in GROWTH_RX.finditer(text) if not MONTH_PAIR.fullmatch(x.group(0))] + [x.span() for x in GROWTH_AUX.finditer(text)] \
            + (by_spans if by else [])
        unit_m = _bucket_search(text) or MONTHLY_WORD.search(text)
        unit = _unit_of(unit_m) if unit_m else None
        prior = PRIOR_PERIOD.search(text)
        pair = MONTH_PAIR.search(text)
        if pair is not None and _month_no(pair.group("ma")) - _month_no(pair.group("mb")) == 1:
            unit = "month"  # 6月比5月涨了百分之几: the monthly growth, June's over May (the months are the growth's, no condition)
            used += [pair.span("ma"), (pair.start("mb"), pair.end())]  # (6月的金额: the figure between is still read)
        elif pair is not None:
            return None  # 6月比3月: two months apart, no growth over the month before
        if unit is None and prior is not None:  # 比上个月涨了多少: per month
            unit = {"月": "month", "季度": "quarter", "周": "week", "星期": "week", "年": "year"}[prior.group("pu")]
        over = GROWTH_OVER.search(text)
        if over is not None:  # quarter on quarter growth / growth vs previous month: the period the growth itself names
            unit = (over.group("u") or over.group("u2")).casefold()
            used.append(over.span())
        if unit_m:
            used.append(unit_m.span())
        values = _cols(hits, sheet, used, numeric=True)
        kind = "cagr" if cagr else "yoy" if YOY_RX.search(text) else "pop"
        args: dict[str, Any] = {"kind": kind, "column": _date_column(hits, sheet), "value": values[0].column if values else None,
                                "unit": unit or ("year" if kind == "cagr" else "month")}
        if args["value"] is None and kind != "cagr" and COUNT_WORDS.search(text):  # 订单数的环比 / growth in the number of bookings
            args["count"] = True
        if args["value"] is None and not args.get("count"):  # 每个月收了多少钱，顺便算下环比: the money column
            from modes.ops import MONEY_Q, SOLD_FOR, _money_column

            args["value"] = _money_column(sheet) if MONEY_Q.search(text) or SOLD_FOR.search(text) else None
        figure = [c for c in sheet.columns if c in sheet.numeric and SUMMARY_FIGURE.search(c)]
        if args["value"] is None and not args.get("count") and len(figure) == 1:
            args["value"] = figure[0]  # and the growth of that?, of a summary per month: its one figure (Total_sum)
        if by and kind != "cagr":
            args["by"] = by  # 每个门店的月环比 / monthly growth per product: each group's own periods
        if labelled is not None:
            args["column"], args["unit"] = labelled[0], unit or labelled[1]
        if args["column"] is None:  # a column of months written as text (2024-01): its values are the periods (a quarter's too)
            args["column"] = _period_labels(sheet, args["unit"]) or (_period_labels(sheet, "month") if args["unit"] in ("quarter", "year") else None)
        used += [(h.start, h.end) for h in hits if h.column in (args["column"], args["value"])]
        return Found(m.start(), self.name, args, tuple(used))

    def gaps(self, args: dict[str, Any]) -> list[str]:
        return (["value"] if not args.get("value") and not args.get("count") else []) + (["date_column"] if not args.get("column") else [])

    def answer_word(self, slot: str, text: str) -> str | None:
        if slot == "value" and CHART_COUNT.fullmatch(text.strip()):  # 行数 / count, to "Growth of which column?": the rows of each period
            return "行数" if re.search(r"[\u4e00-\u9fff]", text) else "count"
        return None

    def answer_join(self, slot: str, words: str, args: dict[str, Any], lang: str = "zh") -> str:
        # rate, to "Growth of which column?": its own clause, never read into the words before it ("growth rate")
        return f"，{words}" if lang == "zh" else f", {words}"

    def question(self, slot: str, lang: str) -> str | None:
        if slot == "date_column":
            return _zh(lang, "按哪一个日期列计算增长？", "Growth along which date column?")
        if slot == "value":
            return _zh(lang, "要算哪一列的增长率？（也可以回答“行数”，即每期的行数）", "Growth of which column? (or “count”, the number of rows per period)")
        return super().question(slot, lang)

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        unit = {"year": "年", "quarter": "季度", "month": "月", "week": "周", "day": "天"}.get(args["unit"], args["unit"])
        what = {"pop": f"按{unit}的环比增长率", "yoy": f"按{unit}的同比增长率", "cagr": "年均增长率（复合）"}[args["kind"]]
        counted = args.get("count") and not args.get("value")
        by = args.get("by") or []
        if lang == "zh":
            each = f"每个 {'、'.join(by)} 分别" if by else ""
            return f"{each}计算 行数 {what}（按 {args.get('column')}，各期行数比较）" if counted else f"{each}计算 {args.get('value')} {what}（按 {args.get('column')}，各期合计后比较）"
        of = "the row count" if counted else f"{args.get('value')} (each period's total)"  # as the Chinese says: 各期合计后比较
        each_en = f", for each {', '.join(by)} on its own" if by else ""
        return f"{ {'pop': 'period-over-period', 'yoy': 'year-over-year', 'cagr': 'compound annual'}[args['kind']]} growth of {of} per {args['unit']}{each_en}"

    def stem_label(self, args: dict[str, Any]) -> str:
        return {"pop": "环比", "yoy": "同比", "cagr": "年均增长率"}[args["kind"]]

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        if args["kind"] == "cagr":
            return [StepSpec("计算年均增长率", "cagr", "年均增长率已算出", {"column": args["column"], "value": args["value"]})]
        unit = args["unit"] if args["unit"] in ("year", "quarter", "month", "week", "day") else "month"
        return [StepSpec("计算增长率", "period_growth", "增长率已算出", {"column": args["column"], "value": args["value"], "unit": unit, "kind": args["kind"],
                                                                    **({"by": list(args["by"])} if args.get("by") else {})})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool == "cagr":
            return _zh(lang, f"{facts['value']} 从 {facts['first_year']} 年的 {num(facts['first'], lang)} 到 {facts['last_year']} 年的 {num(facts['last'], lang)}，"
                             f"{facts['years']} 年间年均增长率为 {facts['cagr_pct']}%（基于 {facts['rows_in']:,} 行）。",
                       f"{facts['value']} went from {num(facts['first'], lang)} in {facts['first_year']} to {num(facts['last'], lang)} in {facts['last_year']}: "
                       f"a compound annual growth rate of {facts['cagr_pct']}% ({facts['rows_in']:,} rows).")
        if tool != "period_growth":
            return None
        word = _zh(lang, "环比" if facts["kind"] == "pop" else "同比", "period-over-period" if facts["kind"] == "pop" else "year-over-year")
        if facts.get("by"):  # each group's own periods
            return _zh(lang, f"按 {'、'.join(facts['by'])} 分 {facts['groups']} 组，各自算出{word}增长率（共 {facts['periods']} 期，{facts['rows_out']} 行）。",
                       f"{word} growth for each of {facts['groups']} groups of {', '.join(facts['by'])} ({facts['periods']} periods, {facts['rows_out']} rows).")
        last = facts.get("last")
        tail = ""
        if facts.get("missing_periods"):
            tail = _zh(lang, f"其中 {facts['missing_periods']} 期没有数据。", f" {facts['missing_periods']} periods have no data.")
        if not last:
            return _zh(lang, f"已算出 {facts['periods']} 期的{word}增长率。{tail}", f"{word} growth over {facts['periods']} periods.{tail}")
        what = facts["value"] or _zh(lang, "行数", "the row count")
        return _zh(lang, f"共 {facts['periods']} 期；最近一期 {last['period']} 的 {what} 为 {num(last['value'], lang)}，{word}增长 {last['growth_pct']}%。{tail}",
                   f"{facts['periods']} periods; in {last['period']} {what} was {num(last['value'], lang)}, {word} growth {last['growth_pct']}%.{tail}")


# ---------------------------------------------------------------- wide tables

PEAK_RX = _rx("哪一年", "哪年", "哪个年份", "哪个月", "哪一个月", "哪月", "哪个季度", "which year", "which month", "which quarter")
ROWSUM_RX = _rx("历年合计", "各年合计", "每行合计", "每行的合计", "历年总和", "全年合计", "每行平均", "历年平均", "各年平均", "年平均",
                "row total", "row totals", "across years", "across the years", "across months")
LONG_RX = _rx("转成长表", "转为长表", "宽表转长表", "长表", "一维表", "逆透视", "unpivot", "long format", "long form", "melt")


ROW_WORDS = _lazy(r"(?:哪个|哪一个|哪些|每个|各个|各|所有)(?:行业|指标|地区|省份|城市|项目|类别|部门|品类|产品)")  # the rows of a wide table
PERIOD_WORDS = _lazy(r"本月|上月|当月|上个月|本年|上年|去年|当年|本期|上期|同期|年度变化|逐年|历年|每年|各年|年份|月份")
UNIT_SUFFIX = _lazy(r"\s*[(（][^()（）]{1,8}[)）]\s*$")


def wide_rows(text: str, sheet: Any) -> tuple[str | None, list[str], list[tuple[int, int]]]:
    """A wide table's name column, the rows the text names (地区生产总值 names 地区生产总值(亿元)) and where."""
    series = _series_of(sheet)
    label_col = next((c for c in sheet.columns if series is not None and c not in series.columns and c not in sheet.numeric), None)
    rows: list[str] = []
    spans: list[tuple[int, int]] = []
    found: list[tuple[str, tuple[int, int], int, int]] = []  # value, span, literal characters, length
    for v in sorted(sheet.values.get(label_col, ()), key=len, reverse=True) if label_col else []:
        for form in dict.fromkeys((v, UNIT_SUFFIX.sub("", v))):
            if len(form) < 2:
                continue
            # characters of the name may have been blanked where they also name the file (民用 in 民用运输船舶拥有量.csv)
            # every start is tried: a run of blanks (a file name taken out) must not hide the written name after it
            pat = "".join(f"(?:{re.escape(ch)}| )" for ch in form)
            best = max(((sum(ch != " " for ch in g.group(1)), g.start(1)) for g in re.finditer(f"(?=({pat}))", text)), default=(0, 0))
            if best[0] >= 2:
                found.append((v, (best[1], best[1] + len(form)), best[0], len(form)))
                break
    for v, span, lit, n in found:
        # a partly blanked name counts when half of it is written, or when no other row fits that place
        alone = sum(1 for _, sp, _, _ in found if sp[0] < span[1] and span[0] < sp[1]) == 1
        if (lit * 2 >= n or (lit >= 3 and alone)) and _free(spans, *span):
            rows.append(v)
            spans.append(span)
    if not rows and label_col:  # 从美国、英国引进的… names 从美国引进电视节目版权总数 and 从英国引进电视节目版权总数
        for v, at in _rows_by_core(text, sorted(sheet.values.get(label_col, ()))):
            rows.append(v)
            spans.append(at)
    return label_col, rows, spans


def _affixes(names: list[str], suffix: bool) -> list[str]:
    """The prefixes (or suffixes) most of the names share, longest first, and the empty one."""
    out = [""]
    for size in range(1, max((len(x) for x in names), default=0)):
        ends: dict[str, int] = {}
        for x in names:
            if len(x) > size:
                e = x[-size:] if suffix else x[:size]
                ends[e] = ends.get(e, 0) + 1
        e, k = max(ends.items(), key=lambda p: p[1], default=("", 0))
        if k * 2 < len(names) or k < 3:
            break
        out.append(e)
    return out[::-1]


def _rows_by_core(text: str, names: list[str]) -> list[tuple[str, tuple[int, int]]]:
    """Rows named by the part that tells them apart (美国 for 从美国引进电视节目版权总数, when most rows read 从…引进电视节目版权总数):
    the longest shared prefix and suffix that leave two or more rows named in the text."""
    for pre in _affixes(names, False)[:4]:
        for suf in _affixes(names, True)[:4]:
            if not pre and not suf:
                continue
            cores: dict[str, str] = {}
            for x in names:
                core = x[len(pre) if x.startswith(pre) else 0 : len(x) - len(suf) if suf and x.endswith(suf) else len(x)]
                if len(core) >= 2 and core != x:
                    cores[core] = "" if core in cores else x  # a core two rows share names neither
            out: list[tuple[str, tuple[int, int]]] = []
            for core, x in sorted(cores.items(), key=lambda p: -len(p[0])):
                at = text.find(core)
                if x and at >= 0 and _free([sp for _, sp in out], at, at + len(core)):
                    out.append((x, (at, at + len(core))))
            if len(out) >= 2:
                return sorted(out, key=lambda p: p[1][0])
    return []


RANGE_JOIN = _lazy(r"\s*(?:年)?\s*(?:至|到|~|～|-|—|–|through|to)\s*")


BARE_YEAR = _lazy(r"(?<![\d.])((?:19|20|21)\d\d)(?![\d.%])")
BETWEEN = _lazy(r"(?:between|介于|在)\s*$", re.I)


@dataclass(frozen=True)
class _Named:
    start: int
    end: int
    column: str


def period_range(text: str, hits: list[Any], series: Any) -> tuple[str | None, str | None, list[tuple[int, int]]]:
    """2010年至2018年 / 从2018年到2021年 / from 2016 to 2020 / between 2016 and 2020: the first and last period
    columns named, in the table's order. A bare year names its column (2016 → 2016年) in a table of years."""
    named = _named_periods(text, hits, series)
    for a, b in zip(named, named[1:], strict=False):
        gap = text[a.end : b.start]
        if RANGE_JOIN.fullmatch(gap) or (re.fullmatch(r"\s*(?:and|与|和)\s*", gap, re.I) and BETWEEN.search(text[: a.start])):
            i, j = series.columns.index(a.column), series.columns.index(b.column)
            lo, hi = (a.column, b.column) if i <= j else (b.column, a.column)
            tail = re.match(r"(?:年)?(?:期间|之间|间|年间)", text[b.end :])
            return lo, hi, [(a.start, b.end + (tail.end() if tail else 0))]
    return None, None, []


RATE_NAME = _lazy(r"增长率|增速|增幅|涨幅|变化率|growth(?: rate)?|change rate", re.I)
ONE_CHANGE = _rx("增长或减少的百分比", "增减的百分比", "增减百分比", "增长百分比", "变化百分比", "变动百分比", "增减率", "percentage change", "percent change")
COMPARE_WORDS = _lazy(r"对比情况|对比|比较|相比|相较|较之|(?<![a-z_])(?:compared?|comparison|versus|vs\.?)(?![a-z_])", re.I)
RATE_LIMIT = _lazy(r"(?:增长率|增速|增幅|涨幅|增长|变化率|growth(?: rate)?|change)[^,，。;；%]{0,30}?(?P<d>超过|大于|高于|多于|不低于|低于|小于|少于|不到|above|over|more than|greater than|exceeds?|exceeding|below|under|less than)\s*"
                   r"(?P<n>-?\d+(?:\.\d+)?)\s*(?:%|％|个百分点|percent)?", re.I)


def _named_periods(text: str, hits: list[Any], series: Any) -> list[Any]:
    """The period columns the text names, in the order written: hits, and bare years (2016 → 2016年) in a table of years."""
    named: list[Any] = [h for h in hits if h.column in series.columns]
    if series.kind == "year":
        col_of = dict(zip(series.periods, series.columns, strict=True))
        for y in BARE_YEAR.finditer(text):
            col = col_of.get(int(y.group(1)))
            if col and not any(h.start < y.end() and y.start() < h.end for h in named):
                named.append(_Named(y.start(), y.end(), col))
    return sorted(named, key=lambda h: h.start)


def _wide_change(text: str, hits: list[Any], sheet: Any, m: re.Match[str], rows: list[str], spans: list[tuple[int, int]]) -> Found | None:
    """'2005年'和'2010年'的对比，增长的百分比 / growth from 2021 to 2022 above 10%: the change between two periods named apart."""
    series = _series_of(sheet)
    named = _named_periods(text, hits, series)
    cols = sorted(dict.fromkeys(h.column for h in named), key=series.columns.index)
    if len(cols) != 2:
        return None
    label = wide_rows(text, sheet)[0]
    args: dict[str, Any] = {"first": cols[0], "last": cols[1], "rows": rows, **({"label": label} if label else {})}
    lim = RATE_LIMIT.search(text)
    if lim:
        low = re.match(r"低于|小于|少于|不到|below|under|less", lim.group("d"), re.I)
        args["below" if low else "above"] = float(lim.group("n"))
        spans = spans + [lim.span()]
    spans = spans + [(h.start, h.end) for h in named] + [x.span() for x in COMPARE_WORDS.finditer(text)]
    spans += [f.span() for f in FORMULA.finditer(text) if RATE_NAME.fullmatch((f.group("name") or f.group("name2") or "").strip())]
    spans += _change_ranking(text, args)
    return Found(m.start(), "wide_change", args, tuple([m.span(), *spans, *[(h.start, h.end) for h in hits]]))


CHANGE_RANK = _lazy(r"(?:增长|增速|涨幅|增幅|变化|增加|下降|减少|growth|grew|growing|rose|fell|change)?\s*(?:得|的)?\s*"
                    r"(?P<d>最快|最多|最大|最高|最猛|最慢|最少|最小|最低|(?<![a-z_])(?:fastest|most|highest|largest|biggest|slowest|least|lowest|smallest)(?![a-z_]))"
                    r"|排名|排行|从高到低|从低到高|从大到小|从小到大|(?<![a-z_])(?:ranked|ranking|rank)(?![a-z_])", re.I)


CHANGE_TOP = _lazy(r"(?:最快|最慢|最多|最少|最大|最小|最高|最低)的?\s*(\d+|[一二两三四五六七八九十]+)\s*(?:个|名|位|家|行)"
                   r"|(?<![\w.])(\d+)\s+(?:fastest|slowest)", re.I)


def _change_ranking(text: str, args: dict[str, Any]) -> list[tuple[int, int]]:
    """增长最快的前3个省 / 增长最慢的2个省 / 按增长率排名: the rows ordered by their rate, the first N kept."""
    from modes.lexicon import TOP_N
    from modes.text import parse_number

    rank = CHANGE_RANK.search(text)
    top = TOP_N.search(text) or CHANGE_TOP.search(text)
    if rank is None and top is None:
        return []
    if top is not None:
        n = parse_number(next(g for g in top.groups() if g))
        args["top"] = int(n) if n else None
    args["ranked"] = True
    args["lowest"] = bool(re.search(r"最慢|最少|最小|最低|倒数|从低到高|从小到大|slowest|least|lowest|smallest|bottom", text, re.I))
    return [x.span() for x in (rank, top) if x is not None]


RELATION_WORDS = _lazy(r"相关性|相关系数|相关程度|相关|(?<![a-z_])(?:correlation|correlated|correlate)(?![a-z_])", re.I)
BETWEEN_ROWS = _lazy(r"(?:各|每个|所有)?[\u4e00-\u9fff]{0,4}?之间|(?<![a-z_])(?:across|over) (?:the )?rows(?![a-z_])", re.I)


def _wide_pair(text: str, hits: list[Any], sheet: Any, rel: re.Match[str]) -> Found | None:
    """Two period columns named apart with a word for correlation: the correlation of those two columns over the rows."""
    named = _named_periods(text, hits, _series_of(sheet))
    cols = list(dict.fromkeys(h.column for h in named))
    if len(cols) != 2 or any(h.column not in cols and h.column in sheet.numeric for h in hits):
        return None
    label, _, row_spans = wide_rows(text, sheet)
    spans = [rel.span(), *row_spans, *[(h.start, h.end) for h in named], *[(h.start, h.end) for h in hits if h.column == label]]
    spans += [x.span() for rx in (ROW_WORDS, BETWEEN_ROWS, COMPARE_WORDS) for x in rx.finditer(text)]
    return Found(rel.start(), "correlate", {"columns": cols, **({"label": label} if label else {})}, tuple(spans))


def _wide_found(text: str, hits: list[Any], sheet: Any, m: re.Match[str], what: str) -> Found:
    series = _series_of(sheet)
    label, rows, spans = wide_rows(text, sheet)
    first, last, range_spans = period_range(text, hits, series)
    adjacent = first is not None and last is not None and series.columns.index(last) - series.columns.index(first) == 1
    ranked = adjacent and bool(CHANGE_RANK.search(text))  # 2022年到2023年增长最慢的2个省: one change, ranked
    if what == "growth" and (first is None or ONE_CHANGE.search(text) or RATE_LIMIT.search(text) or ranked):
        change = _wide_change(text, hits, sheet, m, rows, spans + (range_spans if ranked else [])
                              + [x.span() for rx in (HOW, PERIOD_WORDS, GROWTH_RX, GROWTH_AUX, ROW_WORDS) for x in rx.finditer(text)])
        if change is not None:
            return change
    for r in rows:  # 招生数 again after 普通高等学校招生数: the same row, said shorter
        for k in range(len(r) - 2, 2, -1):
            spans += [x.span() for x in re.finditer(re.escape(r[-k:]), text) if _free(spans, *x.span())]
    spans += range_spans + [x.span() for rx in (HOW, PERIOD_WORDS, GROWTH_RX, GROWTH_AUX, ROW_WORDS) for x in rx.finditer(text)]
    args = {"what": what, "rows": rows, "series": [first or series.columns[0], last or series.columns[-1]], "first": first, "last": last,
            **({"label": label} if label else {})}  # 各省份…: the name column is the rows, used
    return Found(m.start(), "wide", args, tuple([m.span(), *spans, *[(h.start, h.end) for h in hits]]))


@operation
class Wide(OpSpec):
    name = "wide"
    family = "explore"
    label = {"zh": "宽表分析", "en": "wide table"}
    words = {"zh": ("哪一年", "历年合计", "长表"), "en": ("which year", "row totals", "long format")}
    answers_question = True

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        if _series_of(sheet) is None or _formula_said(text) or _said_formula(text, hits) is not None:
            return None  # 新增一列'年均增长率'，计算公式为…: the user's own formula, not a rate of ours
        rel = RELATION_WORDS.search(text)
        if rel:  # 分析2011年与2010年各行业的相关性: two period columns, correlated over the rows
            return _wide_pair(text, hits, sheet, rel)
        cmp = COMPARE_WORDS.search(text)
        other = (STAT_RX, GROWTH_RX, SHARE_RX, CHART_RX, TEST_RX, MEAN_WORDS, PEAK_RX, ROWSUM_RX, LONG_RX, CAGR_RX)
        mean = MEAN_WORDS.search(text)
        if cmp and mean and not any(rx.search(text) for rx in other if rx is not MEAN_WORDS):  # 比较2016年和2020年的平均值: each year down the rows
            series = _series_of(sheet)
            named = _named_periods(text, hits, series)
            apart = list(dict.fromkeys(h.column for h in named))
            if len(apart) >= 2 and period_range(text, hits, series)[0] is None:
                label, _, row_spans = wide_rows(text, sheet)
                spans = [cmp.span(), mean.span(), *row_spans, *[(h.start, h.end) for h in named], *[(h.start, h.end) for h in hits]]
                return Found(cmp.start(), "stats", {"columns": apart, "stats": ["mean"], **({"label": label} if label else {})}, tuple(spans))
        if cmp and not any(rx.search(text) for rx in other):  # 对比2016年和2020年: each row's change between the two
            _, rows, spans = wide_rows(text, sheet)
            change = _wide_change(text, hits, sheet, cmp, rows, spans + [x.span() for x in ROW_WORDS.finditer(text)])
            if change is not None:
                return change
        per_column = PER_COLUMN.search(text)  # 每列的合计: one figure per column, which a row summary is not
        for rx, what in ((LONG_RX, "long"), (CAGR_RX, "cagr"), (PEAK_RX, "peak"), (ROWSUM_RX, "summary")):
            m = rx.search(text)
            if m and not (what == "summary" and per_column):
                return _wide_found(text, hits, sheet, m, what)
        m = re.search(r"最高|最低|最大|最小|最多|最少|合计|总和|平均|highest|lowest|total|average", text, re.I)
        series = _series_of(sheet)
        if m and not per_column and period_range(text, hits, series)[0] is not None and not any(rx.search(text) for rx in other if rx is not MEAN_WORDS):
            # 2018年到2021年的合计: each row over that range of columns
            return _wide_found(text, hits, sheet, m, "summary")
        if any(h.column in series.columns for h in hits):
            return None  # 2020年的合计: one year's column, read by the other rules
        if m and re.search(r"年|月|季度|year|month|quarter", text, re.I):
            return _wide_found(text, hits, sheet, m, "summary")
        return None

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        rows = _sep(lang).join(args.get("rows") or []) or _zh(lang, "每一行", "every row")
        span = "—".join(args.get("series") or [x for x in (args.get("first"), args.get("last")) if x]) or _zh(lang, "各期", "all periods")
        what = {"long": _zh(lang, "把年份/月份列转成长表（名称 | 期 | 数值）", "turn the period columns into a long table"),
                "cagr": _zh(lang, f"计算 {rows} 在 {span} 间的年均增长率", f"the compound annual growth of {rows} over {span}"),
                "peak": _zh(lang, f"找出 {rows} 在 {span} 中最高和最低的一期", f"the highest and lowest period of {rows} over {span}"),
                "growth": _zh(lang, f"计算 {rows} 每一期相对上一期的增长率（{span}）", f"period-on-period growth of {rows} over {span}"),
                "trend": _zh(lang, f"对 {rows} 在 {span} 的数值按期拟合线性趋势（斜率、r²、p）", f"a linear trend of {rows} over {span} (slope, r², p)"),
                "summary": _zh(lang, f"计算 {rows} 在 {span} 的合计、平均、最高/最低期和年均增长率", f"totals, means, peaks and growth of {rows} over {span}"),
                "stats": _zh(lang, f"按年份分组，计算 {rows} 在{'、'.join(f'{y}年' for y in args.get('years') or []) or '每一年'}各月数值的{'、'.join(_stat_name(x, lang) for x in args.get('stats') or [])}",
                             f"the {', '.join(_stat_name(x, lang) for x in args.get('stats') or [])} of {rows} over the months of {', '.join(map(str, args.get('years') or [])) or 'each year'}")
                if args.get("per_year") else _zh(lang, f"计算 {rows} 在 {span} 各期数值的{'、'.join(_stat_name(x, lang) for x in args.get('stats') or [])}",
                             f"the {', '.join(_stat_name(x, lang) for x in args.get('stats') or [])} of {rows} across {span}")}
        return what[args["what"]]

    def stem_label(self, args: dict[str, Any]) -> str:
        return {"long": "长表", "growth": "增长率"}.get(args["what"], "宽表汇总")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        if args["what"] == "long":
            return [StepSpec("宽表转长表", "wide_to_long", "已转成长表", {})]
        rng = {k: args[k] for k in ("first", "last") if args.get(k)}
        if args["what"] == "trend":
            return [StepSpec("拟合各行的线性趋势", "wide_trend", "趋势已拟合", {**rng, **({"rows": args["rows"]} if args.get("rows") else {})})]
        if args["what"] == "growth":
            return [StepSpec("计算逐期增长率", "wide_growth", "增长率已算出", rng)]
        if args["what"] == "stats" and args.get("per_year"):
            a = {"stats": args["stats"], **({"rows": args["rows"]} if args.get("rows") else {}), **({"years": args["years"]} if args.get("years") else {})}
            return [StepSpec("按年份计算各月统计量", "wide_stats_per_year", "统计量已算出", a)]
        if args["what"] == "stats":
            a = {"stats": args["stats"], **({"rows": args["rows"]} if args.get("rows") else {}),
                 **{k: args[k] for k in ("first", "last") if args.get(k)}}
            return [StepSpec("计算各期统计量", "wide_stats", "统计量已算出", a)]
        focus = {"cagr": "cagr", "peak": "peak"}.get(args["what"], "all")
        return [StepSpec("按行汇总各期", "wide_summary", "汇总完成", {"focus": focus, **rng, **({"rows": args["rows"]} if args.get("rows") else {})})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool == "wide_to_long":
            return _zh(lang, f"已转成长表：{facts['rows_in']} 行 × {facts['periods']} 期 → {facts['rows_out']:,} 行。",
                       f"Long form: {facts['rows_in']} rows × {facts['periods']} periods → {facts['rows_out']:,} rows.")
        if tool == "wide_growth":
            return _zh(lang, f"已算出 {facts['rows_out']} 行在 {facts['series'][1]}—{facts['series'][-1]} 各期相对上一期的增长率。",
                       f"Growth over the previous period for {facts['rows_out']} rows, {facts['series'][1]} to {facts['series'][-1]}.")
        if tool == "wide_trend":
            unit = {"year": "年", "month": "月", "quarter": "季度"}.get(facts["kind"], "期")
            said = [_zh(lang, f"{t['name']} 平均每{unit}{'增加' if t['slope'] >= 0 else '减少'} {num(abs(t['slope']), lang)}（回归系数 {t['slope']}，截距 {t['intercept']}，r² = {t['r2']}，p {t['p_text']}，{t['n']} 期）",
                        f"{t['name']}: slope {t['slope']} per {facts['kind']}, intercept {t['intercept']}, r² = {t['r2']}, p {t['p_text']} ({t['n']} periods)")
                    for t in facts["trends"]]
            return _zh(lang, f"{facts['first']}—{facts['last']} 线性趋势：{'；'.join(said)}。", f"Linear trend {facts['first']} to {facts['last']}: {'; '.join(said)}.")
        if tool == "wide_stats_per_year":
            said = [f"{v['name']} {v['year']}{'：' if lang == 'zh' else ': '}" + ("，" if lang == "zh" else ", ").join(_stat_said(x, v[x], lang) for x in facts["stats"])
                    + _zh(lang, f"（{v['n']} 个月）", f" ({v['n']} months)") for v in facts["values"]]
            largest = ""
            first = [v for v in facts["values"] if v["name"] == facts["values"][0]["name"]] if facts["values"] else []
            st = facts["stats"][0] if facts["stats"] else None
            if st and len(first) > 1 and all(isinstance(v[st], (int, float)) for v in first):
                best = max(first, key=lambda v: v[st])
                largest = _zh(lang, f"{first[0]['name']} 的{_stat_name(st, lang)}最大的是 {best['year']}。", f" Largest {_stat_name(st, lang)}: {best['year']}.")
            return _zh(lang, f"{'；'.join(said)}。{largest}", f"{'; '.join(said)}.{largest}")
        if tool == "wide_stats":
            said = [f"{v['name']}{'：' if lang == 'zh' else ': '}" + ("，" if lang == "zh" else ", ").join(_stat_said(x, v[x], lang) for x in facts["stats"])
                    + _zh(lang, f"（{v['n']} 期）", f" ({v['n']} periods)") for v in facts["values"]]
            return _zh(lang, f"{facts['first']}—{facts['last']}：{'；'.join(said)}。", f"{facts['first']} to {facts['last']}: {'; '.join(said)}.")
        if tool != "wide_summary":
            return None
        lab = facts.get("label_column")
        span = f"{facts['series'][0]}—{facts['series'][-1]}"
        if facts.get("focus") in ("peak", "cagr"):
            said = []
            for r in facts["rows"][:8]:
                name = str(r.get(lab)) if lab else ""
                if facts["focus"] == "peak":
                    said.append(_zh(lang, f"{name} 最高的是 {r['最高期']}（{num(r['最高值'], lang)}），最低的是 {r['最低期']}（{num(r['最低值'], lang)}）",
                                    f"{name}: highest in {r['最高期']} ({num(r['最高值'], lang)}), lowest in {r['最低期']} ({num(r['最低值'], lang)})"))
                else:
                    rate = r.get("年均增长率(%)")
                    said.append(_zh(lang, f"{name} 从 {num(facts['first'].get(name), lang)} 到 {num(facts['last'].get(name), lang)}，年均增长率 {rate if rate is not None else '无法计算（首期不是正数）'}{'%' if rate is not None else ''}",
                                    f"{name}: {num(facts['first'].get(name), lang)} to {num(facts['last'].get(name), lang)}, CAGR {rate}%"))
            best = ""
            top = facts.get("fastest")
            if facts["focus"] == "cagr" and top and facts["rows_out"] > 1:
                best = _zh(lang, f"年均增长率最高的是 {top['name']}（{top['cagr_pct']}%）。", f" Fastest: {top['name']} ({top['cagr_pct']}%).")
            more = _zh(lang, f"……（共 {facts['rows_out']} 行，见结果表）", f" … ({facts['rows_out']} rows)") if facts["rows_out"] > len(said) else ""
            return _zh(lang, f"{span}：{'；'.join(said)}{more}。{best}", f"{span}: {'; '.join(said)}{more}.{best}")
        out = []
        for r in facts["rows"][:6]:
            name = r.get(lab) if lab else ""
            cagr = r.get("年均增长率(%)")
            piece = _zh(lang, f"{name}：合计 {num(r['合计'], lang)}，平均 {num(r['平均'], lang)}，最高 {r['最高期']}（{num(r['最高值'], lang)}），最低 {r['最低期']}（{num(r['最低值'], lang)}）",
                        f"{name}: total {num(r['合计'], lang)}, mean {num(r['平均'], lang)}, highest {r['最高期']} ({num(r['最高值'], lang)}), lowest {r['最低期']} ({num(r['最低值'], lang)})")
            if cagr is not None:
                piece += _zh(lang, f"，年均增长率 {cagr}%", f", CAGR {cagr}%")
            out.append(piece)
        more = _zh(lang, f"……（共 {facts['rows_out']} 行）", f" … ({facts['rows_out']} rows)") if facts["rows_out"] > 6 else ""
        blanks = _zh(lang, f"有 {facts['blank_cells']} 个空格未计入。", f" {facts['blank_cells']} blank cells were skipped.") if facts["blank_cells"] else ""
        return _zh(lang, f"{span}：{'；'.join(out)}{more}。{blanks}", f"{span}: {'; '.join(out)}{more}.{blanks}")


def _rate_order(args: dict[str, Any], lang: str, unit: str) -> str:
    """, ordered by rate highest first, the first 3 rows: the order of a change's rows, and how many are kept."""
    order = _zh(lang, "从低到高" if args.get("lowest") else "从高到低", "lowest first" if args.get("lowest") else "highest first")
    return _zh(lang, f"，按增长率{order}排列" + (f"，取前 {args['top']} {unit}" if args.get("top") else ""),
               f", ordered by rate {order}" + (f", the first {args['top']}{unit}" if args.get("top") else ""))


@operation
class WideChange(OpSpec):
    name = "wide_change"
    family = "explore"
    label = {"zh": "两期对比", "en": "change between two periods"}
    words = {}  # read by Growth: two periods named apart in a wide table
    saves_result = True

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        rows = _sep(lang).join(args.get("rows") or []) or _zh(lang, "每一行", "every row")
        a, b = args["first"], args["last"]
        lim = ""
        if args.get("above") is not None:
            lim = _zh(lang, f"，只留增长率高于 {num(args['above'])}% 的行", f", keeping rows whose rate is above {num(args['above'], lang)}%")
        elif args.get("below") is not None:
            lim = _zh(lang, f"，只留增长率低于 {num(args['below'])}% 的行", f", keeping rows whose rate is below {num(args['below'], lang)}%")
        if args.get("ranked"):
            lim += _rate_order(args, lang, _zh(lang, "行", " rows"))
        return _zh(lang, f"对比 {rows} 在 {a} 和 {b} 的数值，计算变化和增长率（后期−前期）/前期×100{lim}",
                   f"compare {rows} between {a} and {b}: the change and its rate (later − earlier) / earlier × 100{lim}")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "两期对比"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        a = {"first": args["first"], "last": args["last"], **({"rows": args["rows"]} if args.get("rows") else {}),
             **{k: args[k] for k in ("above", "below", "top") if args.get(k) is not None},
             **{k: True for k in ("ranked", "lowest") if args.get(k)}}
        return [StepSpec("计算两期变化", "wide_change", "变化已算出", a)]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "wide_change":
            return None
        a, b = facts["first"], facts["last"]
        said = [_zh(lang, f"{r['name']}：{a} {num(r['first'])} → {b} {num(r['last'])}，{'增长' if (r['change'] or 0) >= 0 else '减少'} {num(abs(r['change'] or 0))}"
                          + (f"（{'+' if r['pct'] >= 0 else ''}{r['pct']}%）" if r["pct"] is not None else "（前期为 0 或空，无法算增长率）"),
                    f"{r['name']}: {a} {num(r['first'], lang)} → {b} {num(r['last'], lang)}, change {num(r['change'], lang)}"
                    + (f" ({'+' if r['pct'] >= 0 else ''}{r['pct']}%)" if r["pct"] is not None else " (no base to compute a rate)"))
                for r in facts["rows"]]
        lim = ""
        if facts.get("above") is not None or facts.get("below") is not None:
            word = _zh(lang, "高于" if facts.get("above") is not None else "低于", "above" if facts.get("above") is not None else "below")
            limit = facts["above"] if facts.get("above") is not None else facts["below"]
            lim = _zh(lang, f"增长率{word} {num(limit)}% 的有 {facts['rows_out']} 行（共 {facts['rows_in']} 行）。",
                      f"{facts['rows_out']} of {facts['rows_in']} rows have a rate {word} {num(limit, lang)}%. ")
        if facts.get("top"):
            word = _zh(lang, "最低" if facts.get("lowest") else "最高", "lowest" if facts.get("lowest") else "highest")
            lim += _zh(lang, f"增长率{word}的 {facts['rows_out']} 行（共 {facts['rows_in']} 行）：",
                       f"The {facts['rows_out']} rows with the {word} rate (of {facts['rows_in']}): " if facts["rows_out"] != 1
                       else f"The row with the {word} rate (of {facts['rows_in']}): ")
        more = _zh(lang, "……", " …") if facts["rows_out"] > len(said) else ""
        body = _zh(lang, "；".join(said), "; ".join(said))
        return lim + (body + more + _zh(lang, "。", ".") if said else "")


@operation
class GroupChange(OpSpec):
    """Summer vs Spring: total paid per show and the growth / 2025年和2024年比，每种酒增长了多少: each key's figure in two
    groups of the rows (two sheets stacked, or two values of a column) side by side, with the change and its rate."""

    name = "group_change"
    family = "explore"
    label = {"zh": "两组对比", "en": "change between two groups"}
    words = {}  # made by the gate from two sheets compared and a growth said of them
    saves_result = True

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        keys = args.get("keys") or []
        agg = args.get("agg") or "sum"
        of = (_zh(lang, "行数", "the row count") if agg == "count"
              else _zh(lang, f"{args.get('value')} {AGG_ZH.get(agg, agg)}", f"{args.get('value')} ({agg})"))
        each = _zh(lang, f"每个 {'、'.join(keys)} ", f" per {', '.join(keys)}") if keys else ""
        a, b = args["first"], args["last"]
        lim = _rate_order(args, lang, _zh(lang, "个", "")) if args.get("ranked") or args.get("top") else ""
        return _zh(lang, f"{each}对比 {args['by']} 为 {a} 和 {b} 时的 {of}，计算变化和增长率（{b}−{a}）/{a}×100{lim}",
                   f"compare {of}{each} between {args['by']} {a} and {b}: the change and its rate ({b} − {a}) / {a} × 100{lim}")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "两组对比"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        a = {k: args[k] for k in ("by", "first", "last", "keys", "value", "agg", "top") if args.get(k) not in (None, [], "")}
        a.update({k: True for k in ("ranked", "lowest") if args.get(k)})
        a.update({"lang": "en"} if getattr(ctx.request, "lang", "zh") == "en" else {})
        return [StepSpec("计算两组变化", "group_change", "变化已算出", a)]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "group_change":
            return None
        change = opspec.get("wide_change")
        return change.answer("wide_change", facts, lang) if change is not None else None


# ---------------------------------------------------------------- pivots and reshaping

PERIOD_UNIT = (("quarter", r"季度|季|quarters?|quarterly"), ("month", r"月份|月度|月|months?|monthly"), ("year", r"年度|年份|年|years?|yearly|annual"))
PIVOT_PERIOD = _lazy(r"(?<![\d一二三四五六七八九十上下本去今前第])(?:季度|月份|月度|年度|年份)|(?<=按)[季月年](?![\d])|(?<=[每各])(?:季|月|年)(?![\d])|(?<=每个)(?:季|月|年)(?![\d])"
                     r"|(?<![a-z_])(?:quarters?|quarterly|months?|monthly|years?|yearly|annual)(?![a-z_])", re.I)
THEN_WORD = _lazy(r"然后|再|之后|接着|(?<![a-z_])then(?![a-z_])", re.I)
PIVOT_RX = _lazy(_rx("透视表", "数据透视", "交叉表", "列联表", "二维表", "pivot table", "pivot", "crosstab", "cross tab", "cross-tab").pattern
                 # 做成宽表 / as a wide table: one column per value of a key (never 宽表转长表, which goes the other way)
                 + r"|(?:做|弄|出|来|搞)(?:个|一个|一下)?透视(?!表)|透视(?:一下|下)"  # 做个透视 / 透视一下: a pivot said with its verb
                 + r"|(?<!长表转)(?:做成|弄成|转成|变成|整理成|排成|出个|来个|要|成)?宽表(?!转|分析)|(?<![a-z_])(?:as a |in )?wide (?:table|format|layout)(?![a-z_])", re.I)
TRANSPOSE_RX = _lazy(r"转置|行列互换|行列转换|行列对调|行列调换|行和列(?:互换|对调|调换|换一下|换过来|反过来)|把行和列换|(?<![a-z_])(?:transpose|"
                     r"(?:swap|flip|switch) (?:the )?rows and columns)(?![a-z_])", re.I)


# the layout of a table said by the roles of two columns: X (做|为|作为)? (一)?行 … Y … (一)?列, 行是X…列是Y, X as rows … Y as columns
ROLE_AFTER = {"row": _lazy(r"\s*(?:做|为|作为|当|放|在)?\s*(?:各|每)?\s*(?:一|每)?\s*行(?!数)|\s+(?:as|in|on)\s+(?:the\s+)?rows?(?![a-z_])"
                          r"|\s+(?:is\s+|are\s+|goes\s+|go\s+)?(?:down|along)\s+the\s+(?:side|left)(?![a-z_])", re.I),
              "col": _lazy(r"\s*(?:做|为|作为|当|放|在)?\s*(?:各|每)?\s*(?:一|每)?\s*列|\s+(?:as|in|on|across)\s+(?:the\s+)?columns?(?![a-z_])"
                          r"|\s+(?:is\s+|are\s+|goes\s+|go\s+)?across(?:\s+the\s+top)?(?:\s+as\s+columns)?(?![a-z_])", re.I)}
# (add a column Net / 加一列利润: a new column's name, never the columns' role — a role is said with its verb, or in the plural)
ROLE_BEFORE = {"row": _lazy(r"(?:(?<!一)行|(?<![a-z_])rows?)\s*(?:是|为|用|放|:|：|=|are|is|by|per|for each|for every)?\s*$", re.I),
               "col": _lazy(r"(?:(?<![一新加])列|(?<![a-z_])columns)\s*(?:是|为|用|放|:|：|=|are|is|by|per|for each|for every)?\s*$"
                            r"|(?:列|(?<![a-z_])column)\s*(?:是|为|用|放|:|：|=|are|is|by|per|for each|for every)\s*$", re.I)}
# month of Order Date as columns: the date column named between the period and its role
OF_DATE = _lazy(r"\s+of\s+(?:the\s+)?[A-Za-z][\w ]{0,30}?(?=\s+(?:as|in|on|across)(?![a-z_]))", re.I)


def _role_after(role: str, text: str, at: int) -> re.Match[str] | None:
    """The role word after a period (months as columns), with the date column said between (month of Order Date as columns)."""
    m = ROLE_AFTER[role].match(text, at)
    if m is None and (of := OF_DATE.match(text, at)) is not None:
        m = ROLE_AFTER[role].match(text, of.end())
    return m


ROW_WORD = _lazy(r"(?<![A-Za-z_])([A-Za-z_]{3,})\s+(?:as|in|on)\s+(?:the\s+)?rows?(?![a-z_])|([\u4e00-\u9fff]{2,6}?)\s*(?:做|为|作为|当)?\s*(?:一|每)?\s*行(?!数)", re.I)


def _row_word(text: str, sheet: Any) -> str | None:
    """The column a word given the rows' role names (vehicles as rows, 车辆一行), when it names one (a plural, a part)."""
    m = ROW_WORD.search(text)
    if m is None:
        return None
    col, how, _ = resolve_column(m.group(1) or m.group(2), sheet, closest=False)
    return col if col is not None and how in ("exact", "synonym", "partial") and col not in sheet.numeric else None


def _period_layout(text: str, hits: list[Any]) -> tuple[int, list[tuple[int, int]]] | None:
    """(start, spans) when a column and a period word are given the roles of rows and columns (客户一行、月份一列)."""
    spans = [(h.start, h.end) for h in hits]

    def role_of(x: re.Match[str]) -> str | None:
        before = text[max(0, x.start() - 24) : x.start()]  # one column per month: the role said before the period
        return "col" if _role_after("col", text, x.end()) or ROLE_BEFORE["col"].search(before) else \
            "row" if _role_after("row", text, x.end()) or ROLE_BEFORE["row"].search(before) else None
    # 每个月成交几套，顾问做行，月份做列: the period given a role (the first one said may be the summary's own)
    periods = [x for x in PIVOT_PERIOD.finditer(text) if _free(spans, x.start(), x.end())]
    pm = next((x for x in periods if role_of(x) is not None), periods[0] if periods else None)
    if pm is None:
        return None
    role = role_of(pm)
    other = {"col": "row", "row": "col"}.get(role or "")
    key = next((h for h in hits if other and (ROLE_AFTER[other].match(text, h.end) or ROLE_BEFORE[other].search(text[max(0, h.start - 24) : h.start]))), None)
    if key is None or role is None:
        return None  # (one row per category and one column per month: each role said before its word)
    ends = [ROLE_AFTER[role].match(text, pm.end()), ROLE_AFTER[other].match(text, key.end)]  # type: ignore[index]
    leads = [_role_lead(text, role, pm.start()), _role_lead(text, other or role, key.start)]  # one row per …: the role's own words
    return min(key.start, pm.start()), [(key.start, ends[1].end() if ends[1] else key.end), (pm.start(), ends[0].end() if ends[0] else pm.end()),
                                        *[x for x in leads if x is not None]]


def _role_lead(text: str, role: str, at: int) -> tuple[int, int] | None:
    """Where 'one row per' / 'columns by' said right before a word ends at it."""
    m = re.search(r"(?:(?:one|a)\s+)?" + ROLE_BEFORE[role].pattern, text[max(0, at - 24) : at], re.I)
    return (max(0, at - 24) + m.start(), at) if m is not None else None


def _layout(text: str, hits: list[Any]) -> tuple[str, str, tuple[int, int]] | None:
    """(the rows' column, the columns' column, the span said) when the words give two columns the roles of a table's
    rows and columns; None unless both roles are said, each of a different column."""
    found: dict[str, Any] = {}
    for h in hits:
        for role in ("row", "col"):
            after = ROLE_AFTER[role].match(text, h.end)
            before = ROLE_BEFORE[role].search(text[max(0, h.start - 12) : h.start])
            if (after or before) and role not in found:
                start = h.start - (len(before.group(0)) if before and not after else 0)  # 行放小区: the role word is read too
                found[role] = (h, after.end() if after else h.end, start)
                break
    if len(found) < 2 or found["row"][0].column == found["col"][0].column:
        return None
    lo = min(found["row"][2], found["col"][2])
    return found["row"][0].column, found["col"][0].column, (lo, max(found["row"][1], found["col"][1]))


ROLE_NAMED = _lazy(r"(?P<a>[\u4e00-\u9fffA-Za-z_]{1,12}?)\s*(?:做|作为|当|为)\s*列(?![名表])|(?<![a-z_])列\s*(?:是|为|用|按)\s*(?P<b>[\u4e00-\u9fffA-Za-z_]{1,12})"
                   r"|(?P<c>[A-Za-z_]+)\s+(?:as|for)\s+(?:the\s+)?columns(?![a-z_])|(?<![a-z_])columns?\s+(?:by|=|are|is)\s+(?P<d>[A-Za-z_]+)", re.I)


def _role_not_found(text: str, hits: list[Any], sheet: Any) -> dict[str, Any] | None:
    """The word a pivot's columns are said to be (品类做列, columns by segment) when it names no column of the table."""
    for m in ROLE_NAMED.finditer(text):
        g = next(x for x in ("a", "b", "c", "d") if m.group(x))
        raw = re.sub(r"^(?:用|按|以|把)", "", m.group(g))
        if any(h.start <= m.start(g) < h.end or m.start(g) <= h.start < m.end(g) for h in hits) or len(raw) < 2 \
                or any(re.fullmatch(w, raw, re.I) for _, w in PERIOD_UNIT) or re.fullmatch(r"(?:month|quarter|year|week|day)s?|月份?|季度|年份?|周|日期", raw, re.I):
            continue  # months as columns: a period, read by the pivot's own period rule
        col, _, closest = resolve_column(raw, sheet)
        if col is None:
            return {"slot": "column", "raw": raw, "closest": list(closest)}
    return None


@operation
class Pivot(OpSpec):
    name = "pivot"
    family = "explore"
    label = {"zh": "透视表", "en": "pivot table"}
    words = {"zh": ("透视表", "交叉表"), "en": ("pivot", "crosstab")}
    slots = (Slot("rows", "columns", "透视表的行按哪一列？列按哪一列？", "Pivot rows by which column, and columns by which?", gap="group_by"),)
    saves_result = True

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        m = PIVOT_RX.search(text)
        roles = _layout(text, hits)  # 城市一行、性别一列 / 行是城市，列是性别 / region as rows, month as columns
        by_period = _period_layout(text, hits) if m is None and roles is None else None
        if m is not None:
            start, used = m.start(), [m.span(), *([roles[2]] if roles is not None else [])]
        elif roles is not None:
            start, used = roles[2][0], [roles[2], *[(h.start, h.end) for h in hits if h.column in roles[:2]]]
        elif by_period is not None:  # 按客户一行、月份一列: the date column by month across, the key down
            start, used = by_period[0], [by_period[1][1], by_period[1][0], *by_period[1][2:]]  # the period's words first: no column's name
        else:
            return None
        keys, by_spans = _by_keys(text, hits, sheet, used)
        from modes.ops import _id_like

        # (count bookings per event type as a pivot: bookings is what each row is, never Booking Ref across the top)
        cats = [h.column for h in _cols(hits, sheet, used, numeric=False) if h.how in ("exact", "synonym") or not _id_like(h.column, sheet)]
        laid = [h.column for h in hits if by_period is not None and h.start == by_period[1][0][0]] if m is None and roles is None else []
        keys = list(dict.fromkeys(([roles[0], roles[1]] if roles else []) + keys + cats + laid))  # (the column given a role beside the period)
        values = [h for h in _cols(hits, sheet, used + by_spans, numeric=True)]
        agg = _agg(text)
        args: dict[str, Any] = {"rows": keys[:1], "columns": keys[1] if len(keys) > 1 else None, "agg": agg if values else "count"}
        if not values and agg != "count":
            args["value_unsaid"] = True  # rows Mode, columns Carrier, correcting a pivot of Charge: the figure stays Charge
        if len(keys) < 2 and (role_missing := _role_not_found(text, hits, sheet)) is not None:
            args["unresolved"] = [role_missing]  # 品类做列 where the table has no 品类: asked, never a pivot without its columns
        periods = [x for x in PIVOT_PERIOD.finditer(text) if _free([(h.start, h.end) for h in hits], x.start(), x.end())]
        # (每个月成交几套，顾问做行，月份做列: the period given a role, when another is said first)
        pm = next((x for x in periods if _role_after("col", text, x.end()) or _role_after("row", text, x.end())), periods[0] if periods else None)
        if pm is not None:  # 行为季度，列为区域: the date column bucketed by the period named
            named = [h.column for h in hits if h.column in sheet.dates]
            when = list(dict.fromkeys(named)) or sorted(sheet.dates)
            keys = [k for k in keys if k not in when]  # 行是销售日期按月，列是导购: the date column is the period's, never a key too
            if len(when) != 1 or len(keys) > 1:
                return None  # no single date column to bucket: the pivot is restated as not done, never run without the period
            across = bool(re.search(r"列|columns?|across", text[max(0, pm.start() - 8) : pm.start()], re.I)) or bool(_role_after("col", text, pm.end())) \
                or bool(ROLE_BEFORE["col"].search(text[max(0, pm.start() - 24) : pm.start()]))  # one column per month
            across = across or any(h.column == when[0] and h.end <= pm.start() and ROLE_BEFORE["col"].search(text[max(0, h.start - 24) : h.start])
                                   for h in hits)  # columns Order Date by month: the date column given the columns' role, its period said after
            if across and not keys and (said := _row_word(text, sheet)) is not None:
                keys = [said]  # vehicles as rows, months as columns: the column a plural or a part of its name names
            args["rows"], args["columns"] = ((keys[:1], when[0]) if across else ([when[0]], keys[0] if keys else None))
            args["period"] = next(u for u, w in PERIOD_UNIT if re.fullmatch(w, pm.group(0), re.I))
            args["dated"] = when[0]
            lead = re.search(r"(?:(?<![a-z_])by\s+(?:the\s+)?|按|每个?|各)$", text[: pm.start()], re.I)
            tail = re.match(r"\s*(?:and|和|与|及)(?=\s*\S)", text[pm.end() :], re.I)  # by quarter and 区域: both are the pivot's
            used.append((lead.start() if lead else pm.start(), pm.end() + (tail.end() if tail else 0)))
            role = _role_after("col" if across else "row", text, pm.end())  # months down the side: the role's words are read
            used += [role.span()] if role is not None else []
        if values and agg != "count":
            args["value"] = values[0].column
        figure = [c for c in sheet.columns if c in sheet.numeric and c not in keys and SUMMARY_FIGURE.search(c)]
        if not values and not args.get("period") and len(figure) == 1 and all(c in sheet.columns for c in keys[:2]):
            # 行是月份，列是工作表, of a summary with one figure (金额_合计): each cell is that figure, never a count of its rows
            args.update({"value": figure[0], "agg": "sum"})
            args.pop("value_unsaid", None)
        if args.get("value"):  # summed liters / 金额求和 / averaged Fee: the cells' statistic said as a word, read
            used += [x.span() for x in CELL_AGG_SAID.finditer(text) if _free([(h.start, h.end) for h in hits], *x.span())]
        laid_out = {*args.get("rows", []), args.get("columns"), args.get("value"), args.get("dated")}
        # (… values sum of Total, only Cancelled = N: a column compared with a value is a condition, read by the filter rule)
        # (…, species not blank: a column given a role and said again with a blank test is that condition's)
        own = [(h.start, h.end) for h in hits if (h.column in laid_out and not BLANK_AFTER.match(text, h.end))
               or not (COMPARED_AFTER.match(text, h.end) or EQUALS_AFTER.match(text, h.end) or BLANK_AFTER.match(text, h.end))]
        return Found(start, self.name, args, tuple(used + by_spans + own))

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        rows = "、".join(args.get("rows") or [])
        cols = args.get("columns")
        if args.get("period"):  # the date column shown with its period: 日期（按季度）
            zh, en = {"quarter": ("季度", "quarter"), "month": ("月", "month"), "year": ("年", "year")}[args["period"]]
            dated = args.get("dated") or ""
            said = f"{dated}（按{zh}）" if lang == "zh" else f"{dated} (by {en})"
            rows, cols = (said if rows == dated else rows), (said if cols == dated else cols)
        what = f"{args['value']} 的{AGG_ZH.get(args['agg'], args['agg'])}" if args.get("value") else "行数"
        if lang == "zh":
            return f"做透视表：行 {rows}" + (f"，列 {cols}" if cols else "") + f"，值为 {what}，带合计"
        return f"pivot: rows {rows}" + (f", columns {cols}" if cols else "") + f", {args.get('value') or 'row count'} ({args['agg']}), with totals"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        a = {"rows": args["rows"], "columns": args.get("columns"), "agg": args.get("agg", "sum"), **{k: args[k] for k in ("value", "period", "dated") if args.get(k)}}
        return [StepSpec("生成透视表", "pivot_table", "透视表完成", a)]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "pivot_table":
            return None
        return _zh(lang, f"透视表：{facts['row_groups']} 行" + (f" × {facts['col_groups']} 列" if facts.get("columns") else "") + f"，总计 {num(facts['grand_total'], lang)}（基于 {facts['rows_in']:,} 行）。",
                   f"Pivot: {facts['row_groups']} rows" + (f" × {facts['col_groups']} columns" if facts.get("columns") else "") + f", grand total {num(facts['grand_total'], lang)} ({facts['rows_in']:,} rows).")


@operation
class Transpose(OpSpec):
    name = "transpose"
    family = "transform"
    label = {"zh": "转置", "en": "transpose"}
    words = {"zh": ("转置", "行列互换"), "en": ("transpose",)}
    saves_result = True

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        m = TRANSPOSE_RX.search(text)
        return Found(m.start(), self.name, {}, (m.span(),)) if m else None

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        return _zh(lang, "行列互换（第一列的值成为新列名），另存为新文件", "swap rows and columns into a new file")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("转置", "transpose_table", "转置完成", {})]


# ---------------------------------------------------------------- formula columns

_NOT_NAME = r"(?:new|column|col|add|a|an|then|and|the|compute|create|calculate|called|named|with|where|so|let|set|make|ok|now|please)(?![A-Za-z0-9_])"
FORMULA = _lazy(r"(?:新增|增加|添加|加|算|计算|求|生成|做)?\s*(?:一列|一个|列|个)?\s*[\"“「]?(?P<name>[A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff()（）%]*)[\"”」]?\s*(?:[=＝]|等于)\s*(?P<expr>(?:(?!\s*(?:然后|再按|再把|并且按|并按))[^,;，；。])+)"
                     r"|(?:add|compute|create)\s+(?:a\s+)?(?:new\s+)?(?:column\s+)?(?:called\s+|named\s+)?"
                     r"(?P<name2>[\w\u4e00-\u9fff]+(?:[ \-][\w()%/]+){0,5}?(?=\s*=)|[\w\u4e00-\u9fff]+)\s*(?:=|as)\s*(?P<expr2>(?:(?!\s+(?:and\s+)?(?:then\s+)?(?:sort|rank|order|group|filter|keep|show|export|save|chart|plot)(?![a-z_]))[^,;])+)"
                     # Net Rev = Revenue * 0.9: an English name of a few words right before the = (never the words of the request)
                     r"|(?<![\w])(?P<name3>(?!" + _NOT_NAME + r")[A-Za-z][A-Za-z0-9_%()]*(?:[ \-](?!" + _NOT_NAME + r")[A-Za-z][A-Za-z0-9_%()]*){1,3})"
                     r"\s*=(?!=)\s*(?P<expr3>[^,;]+)", re.I)
# what follows a column compared with a number: a condition on it, never a column whose statistic is asked
BLANK_AFTER = _lazy(r"\s*(?:is\s+|are\s+|为|是)?\s*(?:not\s+|non-?|不)?\s*(?:blank|empty|missing|null|空白?|为空|空的)(?![a-z_])", re.I)
COMPARED_AFTER = _lazy(r"\s*(?:在|是|为|要|的)?\s*(?:[<>=≥≤]|大于|小于|高于|低于|超过|不足|不到|少于|多于|等于|不低于|不少于|不高于|不超过|至少|至多|\d"
                       r"|(?:is\s+|are\s+|of\s+)?(?:over|under|above|below|more than|less than|greater than|at least|at most|\d)(?![a-z_]))", re.I)
OPERATORS = _lazy(r"[+\-*/×÷−＋－%]|乘以|除以|加上|减去")


DATE_LITERAL = _lazy(r"(?<![\d])(?:19|20)\d{2}[-/.]\d{1,2}[-/.]\d{1,2}(?![\d])")
CONDITION_TAIL = _lazy(r"(?<![a-z_])(?:and|or)(?![a-z_])|[=<>]|^\s*(?:19|20)\d{2}[-/.]\d{1,2}[-/.]\d{1,2}\s*$|^\s*[A-Za-z\u4e00-\u9fff]+\s*$", re.I)
NEW_COLUMN = _lazy(r"(?:新增|增加|添加|加上|加)(?:一|1)?列(?:数据)?[，,\s]*(?:名为|叫做?|为|是|，|,)?\s*(?:该列(?:为|是))?\s*['‘“\"「](?P<name>[^'’”\"」]{1,40})['’”\"」]")
HOW = _lazy(r"(?:计算(?:方法|方式|公式)|公式)\s*(?:为|是)?\s*[:：]?\s*(?P<expr>[^。；;]+)")
WORDED_ARITH = _lazy(r"(?P<cols>.{2,80}?)\s*(?:三者|两者|二者|四者|几列|各列|两列)?\s*(?:(?P<add>之和|的和|的总和|相加|加总|合计)|(?P<sub>之差|的差|相减)"
                     r"|(?P<mul>之积|的积|的乘积|相乘)|(?P<div>之比|的比值|相除))")
WORDED_OP = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
FILLER = _lazy(r"(?<=[\w\u4e00-\u9fff)）\]])(?:的)?(?:数据|数值|的值)")


RELATIVE_CHANGE = _lazy(r"^\s*(?:的)?(?:数据|数值|的值)?\s*(?:相对于|相较于|相比于|相比|较)\s*$")
CHANGE_KIND = _lazy(r"^\s*(?:的)?(?:数据|数值|的值)?\s*(?:的)?(?P<kind>增长数|增加数|增长量|增加量|增量|变化量|变化数|差值|差额|增长率|增幅|变化率)"
                    r"(?:\s*(?:再)?除以\s*(?P<n>\d+(?:\.\d+)?)\s*(?:年|期|个月)?)?")


def _relative_change(rest: str, hits: list[Any], offset: int) -> str | None:
    """2018年数据相对于2010年数据的增长数除以8年 -> ([2018年] - [2010年]) / 8; …的增长率 -> ([A] - [B]) / [B]."""
    for a, b in zip(hits, hits[1:], strict=False):
        if a.column == b.column or not RELATIVE_CHANGE.match(rest[a.end - offset : b.start - offset]):
            continue
        k = CHANGE_KIND.match(rest[b.end - offset :])
        if k is None:
            return None
        diff = f"([{a.column}] - [{b.column}])"
        rate = k.group("kind") in ("增长率", "增幅", "变化率")
        expr = f"{diff} / [{b.column}]" if rate else diff
        return (f"({expr})" if rate else expr) + f" / {k.group('n')}" if k.group("n") else expr
    return None


def _formula_said(text: str) -> bool:
    """A new column whose arithmetic the request writes out (新增一列'X'，计算公式为：(A - B) / B)."""
    nm = NEW_COLUMN.search(text)
    how = HOW.search(text[nm.end():]) if nm else None
    return how is not None and len(OPERATORS.findall(how.group("expr"))) >= 1 and not PERIOD_WORDS.search(how.group("expr"))


def _said_formula(text: str, hits: list[Any]) -> Found | None:
    """新增一列'总经济活动'，为农业、工业和服务业三者之和 / 计算方法为2011年数据减去2010年数据."""
    nm = NEW_COLUMN.search(text)
    if nm is None:
        return None
    rest = text[nm.end():]
    how = HOW.search(rest)
    expr = None
    if how:
        if PERIOD_WORDS.search(how.group("expr")):
            return None  # 本月数据 - 上月数据: a growth rate across periods, not a formula over columns
        expr = FILLER.sub("", re.split(r"[,，。；;]", how.group("expr"))[0]).strip()
    elif (rel := _relative_change(rest, [h for h in hits if h.start >= nm.end()], nm.end())) is not None:
        expr = rel
    else:  # 为农业、工业和服务业三者之和 / 由'A'与'B'相除得到: the columns in the order written, one operator
        said = WORDED_ARITH.search(rest)
        cols = list(dict.fromkeys(h.column for h in hits if said and nm.end() + said.start() <= h.start < nm.end() + said.end("cols")))
        kind = next((k for k in WORDED_OP if said and said.group(k)), "")
        if len(cols) >= 2 and (kind in ("add", "mul") or len(cols) == 2):
            expr = f" {WORDED_OP[kind]} ".join(f"[{c}]" for c in cols)
    if not expr or not OPERATORS.search(expr):
        return None
    name = nm.group("name").strip()
    if "  " in name:  # part of the name was read as the file's name: name the column by its formula instead
        name = re.sub(r"\s+", "", expr)
    # the columns the formula names, and 为每个指标: the rows it runs over (every row, by their label)
    uses = [h.column for h in hits if h.start >= nm.end() or re.search(r"(?:每个|每一个|各个|各|每)\s*$", text[: h.start])]
    args = {"name": name, "expression": expr, "uses": [c for c in dict.fromkeys(uses) if c != name]}  # never the new column itself
    return Found(nm.start(), "formula", args, (*_goal_said(text, nm.start(), hits), (nm.start(), len(text))))


GOAL = _lazy(r"^\s*(?:根据现有数据[，,]?\s*)?(?:我们|我)?(?:需要|想要|想|要)?(?:计算|算出|求出|得到|知道)[^，,。；;]{1,30}[，,]\s*(?:请|麻烦)?$")


def _goal_said(text: str, at: int, hits: list[Any]) -> list[tuple[int, int]]:
    """我们需要计算每个许可证对应的建筑成本，请添加一列…: the clause before a new column that says in words what it
    will hold (no column named in it) is that column's description, not a grouping or a filter."""
    begin = max(text.rfind(c, 0, at) for c in "。；;!?！？") + 1
    said = GOAL.match(text[begin:at])
    if said is None or any(begin <= h.start < at for h in hits):
        return []
    return [(begin, at)]


@operation
class Formula(OpSpec):
    name = "formula"
    family = "transform"
    label = {"zh": "公式列", "en": "formula column"}
    words = {"zh": ("公式",), "en": ("formula",)}
    slots = (Slot("expression", "text", "新列按什么公式算？例如 毛利率 = (销售额 - 成本) / 销售额", "What is the formula? e.g. margin = (revenue - cost) / revenue"),)
    saves_result = True
    precedence = 1  # a formula written out holds rate and growth words (年均增长率 = …) that are its own, not an operation's

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        said = _said_formula(text, hits)
        if said is not None:
            return said
        m = FORMULA.search(text)
        if m is None:
            return None
        g = "" if m.group("name") else "2" if m.group("name2") else "3"
        name, expr = m.group("name" + g), m.group("expr" + g)
        if RATE_NAME.fullmatch(name.strip()) and RATE_LIMIT.search(text) and _series_of(sheet) is not None:
            return None  # 增长率超过10%的记录，增长率=(2022年-2021年)/2021年*100: the rate's definition, read with its limit
        rd = ROUNDED_TO.search(expr)  # …, rounded to 2 dp / 保留两位小数: how the new column is rounded, never a part of its formula
        expr = ROUNDED_TO.sub("", expr).strip(" ,，")
        ops = OPERATORS.findall(DATE_LITERAL.sub(" ", expr))  # (a date's dashes are no subtraction)
        if name.strip() in sheet.columns and CONDITION_TAIL.search(expr):
            return None  # Week Ending = 2024-06-30 and Approved = Y: conditions on existing columns, never a column redefined
        if not ops or not any(m.start("expr" + g) <= h.start for h in hits):
            return None
        if len(ops) < 2 and "(" not in expr and "（" not in expr and "%" not in expr:
            return None  # two operands: the add_column operation reads it
        name = re.sub(r"^(?:新增|增加|添加|加|算|计算|求|生成|做)?(?:一列|一个|列|个)?", "", name) or "计算列"
        nxt = NEXT_STEP.search(text, m.start("expr" + g))  # …, then total Net Rev by Agent: the next step is read by its own rules
        end = nxt.start() if nxt else len(text)
        if m.end() < end and not text[m.end() : end].strip(" ,，"):
            end = m.end()
        elif re.match(r"\s+(?:and\s+)?(?:then\s+)?(?:sort|rank|order)(?![a-z_])", text[m.end() :], re.I):
            end = m.end()  # … * 100 and sort by it: the order is its own step, read by the sort rule
        digits = {"digits": rounded_digits(rd)} if rd is not None else {}
        return Found(m.start(), self.name, {"name": name, "expression": expr, **digits}, ((m.start(), end),))

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        rounded = _zh(lang, f"，保留 {args['digits']} 位小数", f", rounded to {args['digits']} decimals") if args.get("digits") is not None else ""
        return _zh(lang, f"新增列 {args.get('name')} = {args.get('expression')}{rounded}（只用列名、数字和四则运算；除数为 0 的行留空并告知）",
                   f"add column {args.get('name')} = {args.get('expression')}{rounded} (arithmetic only; rows dividing by zero stay blank and are counted)")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "加列"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("按公式新增列", "formula_column", "新列已计算", {"name": args["name"], "expression": args["expression"],
                                                                    **({"digits": args["digits"]} if args.get("digits") is not None else {})})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "formula_column":
            return None
        zero = _zh(lang, f"有 {facts['div_by_zero']} 行除数为 0，结果留空。", f" {facts['div_by_zero']} rows divide by zero and were left blank.") if facts["div_by_zero"] else ""
        blank = facts["blank_results"] - facts["div_by_zero"]
        other = _zh(lang, f"另有 {blank} 行因参与计算的值为空或不是数字而留空。", f" {blank} rows have blank or non-numeric inputs.") if blank > 0 else ""
        unit = facts.get("date_unit")  # dates in the formula: each one read as a point in time, the result in this unit
        said = _zh(lang, f"，日期按相差的{ {'hours': '小时', 'minutes': '分钟'}.get(unit, '天')}数计", f"; dates counted in {unit}") if unit else ""
        said += _zh(lang, f"，保留 {facts['digits']} 位小数", f"; rounded to {facts['digits']} decimals") if facts.get("digits") is not None else ""
        return _zh(lang, f"已新增列 {facts['added']}（{facts['rows_out']:,} 行，平均 {num(facts['mean'], lang)}{said}）。{zero}{other}",
                   f"Added column {facts['added']} ({facts['rows_out']:,} rows, mean {num(facts['mean'], lang)}{said}).{zero}{other}")


# ---------------------------------------------------------------- value edits

REPLACE_VERB = _lazy(r"(?:全部|都|统一|一律)?\s*(?:替换为|替换成|改成|改为|换成|修改为|更正为|更新为|设为|设置为)")
REPLACE_EN = _lazy(r"(?<![a-z_])replace\s+[\"']?(?P<old>[^\"']+?)[\"']?\s+with\s+[\"']?(?P<new>[^\"',]+?)[\"']?\s+in\s+(?:the\s+)?(?:column\s+)?(?P<col>[\w\u4e00-\u9fff]+)", re.I)
SET_EN = _lazy(r"(?<![a-z_])(?:set|change|update)\s+(?:the\s+)?(?:column\s+)?[\"']?(?P<col>[^\"']+?)[\"']?\s+to\s+[\"']?(?P<new>-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[^\s\"',]+)[\"']?\s+"
               r"(?:(?:for|in|on)\s+(?:all\s+|the\s+)?(?:rows|records|entries)\s+)?(?:where|whose|with|if|for|on)\s+(?:the\s+)?(?:(?:row|sale|record|order|entry|line)\s+)?(?P<cond>.+?)\s*[.?!]?$", re.I)
NEW_NUMBER = _lazy(r"\s*[\"“「']?(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?)(?![\d,])")  # 600,000: one number, never 600
NO_OLD = frozenset({"数据", "数值", "值", "内容", "数字", "取值"})  # 2021年数据改为600: the column's cells, not an old value
QUOTES = " \"'“”「」‘’"
VALUE_TAIL = _lazy(r"的(?:所有|全部)?(?:记录|行|数据|条目|单子|人)?$")
FILL_METHOD = _lazy(
    r"(?:用|以|按)(?P<m>平均值|均值|平均数|中位数|众数|上一行|前一行|前值|上一个值|下一行|后一行|0|零)\s*(?:来|去)?(?:填充|填补|补全|补齐|填上|填|补)"
    r"|(?:空值|空白|缺失值|缺失)\s*(?:用|以)(?P<m2>平均值|均值|中位数|众数|上一行|前值|下一行|0)\s*(?:填充|填补|补|填)"
    r"|fill\s+(?:the\s+)?(?:blanks?|missing values|empty cells|gaps)(?:\s+in\s+(?P<c3>[\w\u4e00-\u9fff]+))?\s+with\s+(?:the\s+)?(?P<m3>mean|median|mode|previous value|next value|zero|average)",
    re.I,
)
FILL_VALUE = _lazy(  # 空部门填成未知 / 部门为空的补为待定 / fill blanks in Dept with Unknown: blanks of named columns get a given value
    r"(?P<blank>空值|空白|缺失值|缺失|空)[^，,。；;]{0,12}?(?:都|全部|统一|一律)?\s*(?:填成|填为|填上|填写为|填充为|填充成|补成|补为|补上)\s*[\"“「']?(?P<v>[^\s\"”」'，,。；;]{1,20})"
    r"|fill\s+(?:in\s+)?(?:the\s+|all\s+)?(?:blanks?|missing values|empty cells|empty values|gaps)\s+(?:in|of)\s+(?:the\s+)?(?:column\s+)?[\"']?(?P<c2>[^\"']+?)[\"']?"
    r"(?:\s+column)?\s+with\s+[\"']?(?P<v2>[^\s\"',.]+)"
    # fill the blank Sessions with 0 / set the empty Channel cells to Unknown: the column said between the blank word and "with"
    r"|(?:fill|set)\s+(?:in\s+)?(?:the\s+|all\s+)?(?:blank|empty|missing)\s+(?P<c4>[^,;.]+?)(?:\s+(?:cells|values|ones|entries))?(?:\s+(?:in|of)\s+[^,;]*?)?\s+(?:with|to)\s+[\"']?(?P<v4>[^\s\"',.]+)",
    re.I,
)
METHOD_OF = {"平均值": "mean", "均值": "mean", "平均数": "mean", "average": "mean", "mean": "mean", "中位数": "median", "median": "median", "众数": "mode",
             "mode": "mode", "上一行": "previous", "前一行": "previous", "前值": "previous", "上一个值": "previous", "previous value": "previous",
             "下一行": "next", "后一行": "next", "next value": "next", "0": "zero", "零": "zero", "zero": "zero"}
METHOD_ZH = {"mean": "平均值", "median": "中位数", "mode": "众数", "previous": "上一行的值", "next": "下一行的值", "zero": "0"}
SOURCE_KEPT = {"zh": "结果另存为新文件，原文件不改动", "en": "the result goes to a new file; the source is not changed"}


@operation
class Replace(OpSpec):
    name = "replace"
    family = "transform"
    label = {"zh": "替换值", "en": "replace values"}
    words = {"zh": ("替换为", "改成"), "en": ("replace",)}
    saves_result = True

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        from modes.resolve import resolve_column

        en = REPLACE_EN.search(text)
        if en:
            col = resolve_column(en.group("col"), sheet)[0]
            if col is None:
                return None
            return Found(en.start(), self.name, {"column": col, "old": en.group("old").strip(QUOTES), "value": _typed(en.group("new").strip(QUOTES))}, (en.span(),))
        se = SET_EN.search(text)
        if se:  # set 2021 to 600,000 where Indicator is Heating capacity
            col = resolve_column(se.group("col"), sheet)[0]
            conds = _where(text, se.start("cond"), se.end("cond"), col, hits, sheet) if col else []
            if col is None:
                return None
            blank = re.fullmatch(r"(?:the\s+)?(?:it|" + re.escape(se.group("col")) + r")\s+(?:is|are)\s+(?:blank|empty|missing|null)", se.group("cond").strip(), re.I)
            if blank is not None:  # change Sessions to 0 where Sessions is blank: its blanks filled
                new = se.group("new")
                how = {"method": METHOD_OF[new.casefold()]} if new.casefold() in METHOD_OF else {"value": _typed(new)}
                return Found(se.start(), "fill_method", {"columns": [col], **how}, (se.span(),))
            if not conds:  # change Amount to 49 for S1324, the rows not read: asked which rows, never run on others
                return Found(se.start(), self.name, {"column": col, "value": _typed(se.group("new")), "where_unread": se.group("cond")}, (se.span(),))
            return Found(se.start(), self.name, {"column": col, "value": _typed(se.group("new")), "conditions": conds}, (se.span(),))
        m = REPLACE_VERB.search(text)
        if m is None or re.search(r"条件|列名|名字|名称|表头|格式|xlsx|csv", text, re.I) or re.search(r"大于|小于|高于|低于|不等于|以上|以下", text[m.end():]):
            return None  # 条件改成… / 改成评分大于4: a correction; 列名改成…: a rename; 改成xlsx: an export
        big = NEW_NUMBER.match(text[m.end():])
        nm = big or re.match(r"\s*[\"“「']?([^\s\"”」',，。；;]{1,30})", text[m.end():])
        if nm is None:
            return None
        new = _typed(nm.group(1))
        lead = re.search(r"(?:把|将)\s*", text[: m.start()])
        begin = lead.end() if lead else 0
        before = [h for h in hits if begin <= h.start and h.end <= m.start()]
        if not before:  # 把 sh 改成 上海: the column that holds the old value
            old = text[begin : m.start()].strip(QUOTES + "的")
            holders = [c for c, vs in sheet.values.items() if old in vs]
            target = EDIT_TARGET.search(old)
            if len(holders) != 1 and lead and target:  # 将现在时为haju的记录的过去时修改为aveva: the column to change was not found
                unread = {"column": None, "target_unread": target.group("t"), "value": new}
                return Found(m.start(), self.name, unread, ((begin, m.end() + nm.end()),))
            if len(holders) != 1:
                return None
            return Found(m.start(), self.name, {"column": holders[0], "old": old, "value": new}, ((begin, m.end() + nm.end()),))
        col = before[-1].column
        if re.fullmatch(r"\s*[,，;；。]\s*", text[before[-1].end : m.start()]):
            return None  # 值不要金额，改成数工单有几单: a clause ends between the column and the verb; the column is no value replaced
        old = re.sub(r"^(?:列)?(?:里面|里的|中的|里|中)?的?(?:值)?(?:为|是|等于)?", "", text[before[-1].end : m.start()].strip(QUOTES)).strip(QUOTES)
        old = "" if old.lstrip("的") in NO_OLD else old
        bare = VALUE_TAIL.sub("", old)
        if bare and bare != old and old not in sheet.values.get(col, ()):
            old = bare  # 支付方式为现金的改成…: the particle (的记录/的行) is not part of the value
        args: dict[str, Any] = {"column": col, "value": new}
        target = EDIT_TARGET.search(old) if old and old not in sheet.values.get(col, ()) else None
        if target:  # 将Present为ha的记录的过去完成式修改为X: a condition on Present, then a column that was not found
            return Found(m.start(), self.name, {"column": None, "target_unread": target.group("t"), "value": new}, ((begin, m.end() + nm.end()),))
        if old:
            args["old"] = old
        else:  # 把华东的成本改成0 / 将系统类型为未知的记录的草皮类型改为填充: the words before the column are a condition
            if lead and not text[begin : before[-1].start].strip(QUOTES + "的，, "):
                begin = 0  # 绩效评分小于60，把部门改为待定: the condition comes before 把
            end = before[-1].start if begin or not lead else len(text[: lead.start()].rstrip(QUOTES + "，,；; "))
            conds = _where(text, begin, end, before[-1].column, hits, sheet)
            if not conds:  # an edit whose rows were not understood: asked about, never run as something else
                args["where_unread"] = text[begin : before[-1].start].strip(QUOTES + "的，,") or None
                if args["where_unread"] is None:
                    return None  # 把城市改成北京: every row, or a correction — not an edit this rule reads
            else:
                args["conditions"] = conds
        return Found(m.start(), self.name, args, ((begin, m.end() + nm.end()),))

    def gaps(self, args: dict[str, Any]) -> list[str]:
        if args.get("target_unread"):
            return ["edit_column"]
        return ["condition"] if args.get("where_unread") else []

    def question(self, slot: str, lang: str) -> str | None:
        if slot == "edit_column":
            return _zh(lang, "要改哪一列？没找到您说的那一列，请用表里的列名说，例如“把 城市 为 上海 的行的 区域 改为 华东”。",
                       "Which column should change? I could not find the one you named; use a column name of the table, e.g. “set Region to East where City is Shanghai”.")
        if slot != "condition":
            return None
        return _zh(lang, "要改哪些行？没读懂这部分条件，请换个说法，例如“系统类型为未知的行的草皮类型改成填充”。",
                   "Which rows should change? I could not read that condition; try e.g. “set Turf_Type to Infill where System_Type is Unknown”.")

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        if args.get("target_unread"):
            return _zh(lang, f"把（没找到的列：{args['target_unread']}）改为“{args['value']}”", f"set (column not found: {args['target_unread']}) to “{args['value']}”")
        if args.get("where_unread"):
            return _zh(lang, f"把（没读懂的条件：{args['where_unread']}）的行的 {args['column']} 改为“{args['value']}”",
                       f"set {args['column']} to “{args['value']}” where (not understood: {args['where_unread']})")
        if args.get("conditions"):
            where = (" 且 " if lang == "zh" else " and ").join(c.describe(lang) for c in args["conditions"])
            return _zh(lang, f"把 {where} 的行的 {args['column']} 改为“{args['value']}”（{SOURCE_KEPT['zh']}）",
                       f"set {args['column']} to “{args['value']}” where {where} ({SOURCE_KEPT['en']})")
        return _zh(lang, f"把 {args['column']} 中的“{args['old']}”替换为“{args['value']}”（{SOURCE_KEPT['zh']}）",
                   f"replace “{args['old']}” with “{args['value']}” in {args['column']} ({SOURCE_KEPT['en']})")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        where = {"conditions": [c.to_tool() for c in args["conditions"]]} if args.get("conditions") else {"old": args["old"]}
        return [StepSpec("替换值", "replace_values", "替换完成", {"column": args["column"], "value": args["value"], **where})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "replace_values":
            return None
        return _zh(lang, f"已把 {facts['changed']:,} 行的 {facts['column']} 改为 {facts['value']}（共 {facts['rows_in']:,} 行，原文件未改动）。",
                   f"Set {facts['column']} to {facts['value']} in {facts['changed']:,} of {facts['rows_in']:,} rows (the source file is unchanged).")


EDIT_TARGET = _lazy(r"的(?:记录|行|数据|条目)?的?(?P<t>[^的\s'\"“”‘’]{2,20})$")
WHERE_FILLER = lazy(r"^(?:中的|里的|里面|中|里)?(?:所有|全部|凡是|凡|那些)?|(?:的(?:所有)?[\u4e00-\u9fff]{0,4}?的?|中的|里的|这些行的)?$")


def _where(text: str, begin: int, end: int, changed: str, hits: list[Any], sheet: Any) -> list[Any]:
    """The condition written before the column an edit changes: a value of another column (华东), or a comparison
    the condition grammar reads whole (系统类型为未知, 'Present' 是 'haju'). Anything left unread means no condition."""
    from modes.conditions import Cond, parse_conditions

    span = text[begin:end]
    lead = len(span) - len(span.lstrip(QUOTES + "，,"))
    body = WHERE_FILLER.sub("", span.strip(QUOTES + "，,")).strip(QUOTES)
    if not body:
        return []
    holders = [c for c, vs in sheet.values.items() if body in vs and c != changed]
    if len(holders) == 1:
        return [Cond(holders[0], "eq", body, None, body, "exact")]
    start = begin + lead + span.strip(QUOTES + "，,").find(body)
    inner = [h for h in hits if start <= h.start and h.end <= start + len(body) and h.column != changed]
    if not inner:
        return []
    from dataclasses import replace as _shift

    local = [_shift(h, start=h.start - start, end=h.end - start) for h in inner]
    parsed = parse_conditions(body, sheet, local)
    if not parsed.conds or parsed.unresolved or parsed.logic != "and":
        return []
    for c in parsed.conds:  # a text value must be one the column holds (未知或人工 is two values, not one)
        known = sheet.values.get(c.column)
        if c.op in ("eq", "ne") and isinstance(c.value, str) and known and c.value not in known:
            return []
    named = {c.column for c in parsed.conds}
    rest = list(body)
    for a, b in parsed.spans + [(h.start, h.end) for h in local if h.column in named]:
        rest[a:b] = [" "] * (b - a)
    if re.sub(r"[\s" + re.escape(QUOTES) + r"的且并和为是等于]+", "", "".join(rest)):
        return []  # part of the condition was not read: better no edit than a different one
    return list(parsed.conds)


def _typed(v: str) -> Any:
    try:
        f = float(v.replace(",", ""))
        return int(f) if f.is_integer() else f
    except ValueError:
        return v


@operation
class FillBlanks(OpSpec):
    name = "fill_method"
    family = "transform"
    label = {"zh": "填充空值", "en": "fill blanks"}
    words = {"zh": ("填充",), "en": ("fill blanks",)}
    slots = (Slot("columns", "columns", "要填充哪一列的空值？", "Fill blanks in which column?", gap="fill_columns"),)
    saves_result = True
    main_slot = "columns"

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        m = FILL_METHOD.search(text)
        if m is None:
            return self._with_value(text, hits, sheet)
        method = METHOD_OF[(m.group("m") or m.group("m2") or m.group("m3")).casefold()]
        cols = [h.column for h in hits if h.end <= m.start() + 2 or (m.group("c3") and h.column == m.group("c3"))]
        if method in ("mean", "median"):
            cols = [c for c in cols if c in sheet.numeric]
        return Found(m.start(), self.name, {"columns": list(dict.fromkeys(cols)), "method": method}, ((0, m.end()),))

    def _with_value(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        from modes.resolve import resolve_column

        m = FILL_VALUE.search(text)
        if m is None:
            return None
        if m.group("v2") or m.group("v4"):
            col = resolve_column((m.group("c2") or m.group("c4")).strip(), sheet)[0]
            cols, value = ([col] if col else []), m.group("v2") or m.group("v4")
        else:  # the columns named in the same clause, before the verb: 空部门 / 部门为空的
            clause = max(text.rfind(p, 0, m.start("blank")) for p in "，,。；;") + 1
            cols = [h.column for h in hits if clause <= h.start and h.end <= m.start("v")]
            value = m.group("v")
        if value.casefold() in METHOD_OF:  # fill the blank Sessions with 0 / with the median: that method, on the column said
            if not (m.group("v2") or m.group("v4")):
                return None
            return Found(m.start(), self.name, {"columns": list(dict.fromkeys(cols)), "method": METHOD_OF[value.casefold()]}, (m.span(),))
        return Found(m.start(), self.name, {"columns": list(dict.fromkeys(cols)), "value": _typed(value)}, (m.span(),))

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        cols = _sep(lang).join(args.get("columns") or [])
        if "value" in args:
            return _zh(lang, f"把 {cols} 的空值填为“{args['value']}”（{SOURCE_KEPT['zh']}）", f"fill blanks in {cols} with “{args['value']}” ({SOURCE_KEPT['en']})")
        how = "0" if args["method"] == "zero" else f"the {args['method']}"
        return _zh(lang, f"用{METHOD_ZH[args['method']]}填充 {cols} 的空值（{SOURCE_KEPT['zh']}）", f"fill blanks in {cols} with {how} ({SOURCE_KEPT['en']})")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        how = {"value": args["value"]} if "value" in args else {"method": args["method"]}
        return [StepSpec("填充空值", "fill_blanks", "填充完成", {"columns": args["columns"], **how})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "fill_blanks":
            return None
        fill = "填" if lang == "zh" else "with"
        used = _sep(lang).join(f"{c} {fill} {num(v, lang)}" for c, v in facts["fill_values"].items()) if facts["fill_values"] else ""
        return _zh(lang, f"已填充 {facts['filled']:,} 个空值{('（' + used + '）') if used else ''}，原文件未改动。",
                   f"Filled {facts['filled']:,} blanks{(' (' + used + ')') if used else ''}; the source file is unchanged.")


# ---------------------------------------------------------------- statistical tests

TEST_RX = _rx("t检验", "t 检验", "t-test", "t test", "显著差异", "差异显著", "差异是否显著", "有没有显著", "是否显著", "显著性", "方差分析", "anova",
              "卡方检验", "卡方", "独立性检验", "chi-square", "chi square", "正态分布", "正态性", "正态检验", "服从正态", "shapiro", "normality",
              "normally distributed", "significant difference", "significantly different", "statistically significant", "significant",
              "线性趋势", "趋势线", "线性回归", "回归分析", "斜率", "linear trend", "regression", "slope", "p值", "p-value", "p value",
              "spearman", "pearson", "显著相关", "相关性检验", "显著吗", "是否显著", "显著", "differ", "differs", "有没有差别", "有没有差异",
              "差别明显", "差异明显")


TEST_AUX = _lazy(r"相关性|相关系数|相关|correlation|correlated|(?<![a-z_])(?:tests?|association|associated|significant(?:ly)?|significance|differences?|differs?|across)(?![a-z_])|正态分布|分布|不同的|不同|是否独立|相互独立|独立吗|独立性|独立|有关联吗|有关联|关联|显著吗|显著|差异|区别|差别|有没有|是否|检验一下|检验|做个|做一下|服从", re.I)


# the groups of a difference test said in words: 按X列将数据分为两组、分别计算两组的平均值 / split the rows into two groups by X
TEST_GROUPS = _lazy(r"(?:将|把)?(?:数据|样本|记录)?\s*(?:分为|分成|划分为|划分成|拆分为|拆成)\s*(?:两|二|几|多|若干|[三四五六七八九十\d]+)?\s*个?\s*组"
                    r"|(?:这|那)?(?:两|二|各|每|不同)(?:个)?组(?:之间|中|里|间|的)?|单因素|基于|根据|依据|按照|按|分别(?:计算|算出|求出?)?|判断|验证|来验证|列"
                    r"|(?<![a-z_])(?:one[- ]way|split (?:the )?(?:rows|data|records)?\s*into (?:two|2|several|three|\d+) groups|(?:two|both|each|the) groups?"
                    r"|by|separately|respectively|compute|calculate|run|perform|column)(?![a-z_])", re.I)


# people said by sex (men / women / 男性 / 女的), over a column holding only such values (M / F, Male / Female, 男 / 女)
SEX_WORDS = _lazy(r"(?<![a-z_])(?:men|women|man|woman|males?|females?|boys|girls)(?![a-z_])|男性|女性|男的|女的|男士|女士|男生|女生|男女", re.I)
SEX_VALUES = frozenset({"m", "f", "male", "female", "男", "女", "man", "woman", "men", "women"})


def _sex_column(sheet: Any) -> str | None:
    cols = [c for c, vs in sheet.values.items() if len(vs) == 2 and {v.strip().casefold() for v in vs} <= SEX_VALUES]
    return cols[0] if len(cols) == 1 else None


@operation
class StatTest(OpSpec):
    name = "stat_test"
    family = "explore"
    label = {"zh": "统计检验", "en": "statistical test"}
    words = {"zh": ("t检验", "方差分析", "卡方检验", "正态性", "显著差异", "线性趋势"), "en": ("t-test", "anova", "chi-square", "normality", "regression", "one-way", "two-sample")}
    slots = (Slot("columns", "columns", "要检验哪几列？（例如 销售额 和 区域）", "Test which columns? (e.g. revenue and region)", gap="test_columns"),)
    answers_question = True
    main_slot = "columns"

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        m = unquoted(TEST_RX, text)
        if m is None:
            return None
        low = text.casefold()
        used = [x.span() for rx in (TEST_RX, TEST_AUX) for x in rx.finditer(text)]
        nums = [h.column for h in hits if numberish(sheet, h.column) or h.column in sheet.dates]
        cats = [h.column for h in hits if not numberish(sheet, h.column) and h.column not in sheet.dates]
        named = {c: sorted((v for v in vs if v and v in text), key=text.find) for c, vs in sheet.values.items()}  # in the order written
        pair = [c for c, vs in named.items() if len(vs) >= 2]
        if pair and not cats:  # 新客和老客的销售额: the values name the groups and their column
            cats = pair[:1]
        sexed = _sex_column(sheet) if not cats and SEX_WORDS.search(text) else None
        if sexed is not None:  # do men and women differ in age, over gender = M / F: the column the words name
            cats = [sexed]
            used += [x.span() for x in SEX_WORDS.finditer(text)]
        levels = named.get(cats[0], [])[:2] if cats else []
        if len(levels) == 2:  # 新客和老客: the two values name the groups compared (one value alone is a condition's)
            used += [x.span() for v in levels for x in re.finditer(re.escape(v), text)]
        series = _series_of(sheet)
        between = _between_rows(text, hits, sheet, series, low) if series is not None else None
        if between is not None:  # 比较A行业与B行业2012年至2019年…T检验: the rows' values over the periods are the samples
            return Found(m.start(), self.name, between[0], tuple(used + between[1] + [(h.start, h.end) for h in hits]))
        if series is not None and re.search(r"趋势|回归|斜率|trend|regression|slope", low):
            f = _wide_found(text, hits, sheet, m, "trend")
            return Found(f.start, f.kind, f.args, tuple(list(f.spans) + used))
        if re.search(r"卡方|chi|独立|associat|independen", low):
            test, cols = "chi", list(dict.fromkeys(h.column for h in hits if _categories(sheet, h.column)))[:2]
        elif re.search(r"正态|shapiro|normal", low):
            test, cols = "normal", nums[:1]
        elif re.search(r"趋势|回归|斜率|trend|regression|slope", low):
            test, cols = "trend", list(dict.fromkeys(nums))[:2]
        elif re.search(r"相关|spearman|pearson|correlat", low):
            test, cols = "spearman" if "spearman" in low or "等级" in low else "pearson", list(dict.fromkeys(nums))[:2]
        else:
            test, cols = "difference", nums[:1] + cats[:1]
            used += [x.span() for rx in (TEST_GROUPS, MEAN_WORDS) for x in rx.finditer(text)]  # the test reports each group's mean
        args: dict[str, Any] = {"test": test, "columns": cols}
        if levels and test == "difference" and len(levels) == 2:
            args["levels"] = levels
        need = {"chi": 2, "normal": 1, "trend": 2, "pearson": 2, "spearman": 2, "difference": 2}[test]
        if len(cols) < need:
            args["columns"] = []  # ask, naming what the test needs
        from modes.conditions import parse_conditions
        from modes.ops import _blank

        # 车间不是仓库的，各车间月工资有没有显著差别: the words of a condition are the condition's, left for the filter
        cp = parse_conditions(_blank(text, used), sheet, hits)
        said = [sp for c, sp in zip(cp.conds, cp.spans, strict=True) if c.column]
        kept = [(h.start, h.end) for h in hits if not any(a <= h.start < b for a, b in said)]
        return Found(m.start(), self.name, args, tuple(used + kept))

    def gaps(self, args: dict[str, Any]) -> list[str]:
        need = {"chi": 2, "normal": 1, "trend": 2, "pearson": 2, "spearman": 2, "difference": 2}.get(args.get("test") or "", 1)
        if not args.get("wide") and len(args.get("columns") or []) < need:
            return ["test_columns"]
        return super().gaps(args)

    def question(self, slot: str, lang: str) -> str | None:
        return _zh(lang, "要检验哪几列？差异检验需要一个数值列和一个分组列（例如 销售额 和 区域）；卡方检验需要两个分类列；正态性检验需要一个数值列。",
                   "Which columns? A difference test needs a numeric and a grouping column; chi-square two categorical columns; normality one numeric column.")

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        c = args.get("columns") or []
        t = args["test"]
        if args.get("periods"):
            return _zh(lang, f"检验 {args['first']}–{args['last']} 各期之间 {args['label_column']} 各行数值的平均值是否有显著差异（每期一组，两期用 Welch t 检验，多期用方差分析；并给出每期合计）",
                       f"test whether the values differ between the periods {args['first']}–{args['last']} (one group per period over every row; with each period's total)")
        if args.get("wide"):
            rows, span = "、".join(args.get("rows") or []), f"{args.get('first') or ''}–{args.get('last') or ''}".strip("–") or _zh(lang, "各期", "all periods")
            if t == "chi":
                return _zh(lang, f"卡方检验：{rows} 在 {span} 各期的数值分布是否不同（每行一组，每期一格）",
                           f"chi-square test: do {rows} spread differently over {span} (one row each, one cell per period)")
            return _zh(lang, f"检验 {rows} 在 {span} 各期数值的平均值是否有显著差异（每期一个值；两行用 Welch t 检验，多行用方差分析）",
                       f"test whether the mean of {rows} over {span} differs (one value per period; Welch t-test for two rows, ANOVA for more)")
        if t == "difference":
            lv = f"（{'、'.join(args['levels'])} 两组）" if args.get("levels") else ""
            return _zh(lang, f"检验不同 {c[1] if len(c) > 1 else '?'}{lv} 的 {c[0] if c else '?'} 平均值是否有显著差异（两组用 Welch t 检验，多组用方差分析）",
                       f"test whether mean {c[0] if c else '?'} differs across {c[1] if len(c) > 1 else '?'} (Welch t-test for two groups, ANOVA for more)")
        names = {"chi": ("卡方独立性检验", "chi-square test of independence"), "normal": ("Shapiro–Wilk 正态性检验", "Shapiro–Wilk normality test"),
                 "trend": ("线性趋势（最小二乘）", "linear trend (least squares)"), "pearson": ("Pearson 相关检验", "Pearson correlation test"),
                 "spearman": ("Spearman 等级相关检验", "Spearman correlation test")}[t]
        return _zh(lang, f"{names[0]}：{'、'.join(c)}", f"{names[1]}: {', '.join(c)}")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        steps = self._test_steps(args, ctx)
        ops = list(ctx.request.ops)
        before = ops[: next((i for i, o in enumerate(ops) if o.kind == self.name), 0)]
        if before and all(o.kind == "stats" for o in before) and ctx.request.file:  # 算标准差，再做正态性检验: the test reads the table, not the figures
            again = StepSpec("重新读取数据", "profile_dataset", "获取列信息", {"path": ctx.request.file, "sheet": ctx.request.sheet})
            return [again, *steps]
        return steps

    def _test_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        c, t = args["columns"], args["test"]
        if args.get("wide"):
            return _between_rows_steps(args, ctx)
        if t == "chi":
            return [StepSpec("卡方检验", "chi_square_test", "检验完成", {"a": c[0], "b": c[1]})]
        if t == "normal":
            return [StepSpec("正态性检验", "normality_test", "检验完成", {"column": c[0]})]
        if t == "trend":
            dates = [x for x in c if ctx.sheet is not None and x in ctx.sheet.dates]
            x = dates[0] if dates else c[1]
            y = next(v for v in c if v != x)
            return [StepSpec("拟合线性趋势", "linear_trend", "趋势已拟合", {"x": x, "y": y})]
        if t in ("pearson", "spearman"):
            return [StepSpec("相关性检验", "correlation_test", "检验完成", {"a": c[0], "b": c[1], "method": t})]
        return [StepSpec("差异检验", "group_difference_test", "检验完成", {"column": c[0], "group": c[1], **({"levels": args["levels"]} if args.get("levels") else {})})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool not in ("welch_t_test", "anova_test", "group_difference_test", "chi_square_test", "normality_test", "correlation_test", "linear_trend"):
            return None
        return test_sentence(facts, lang)


def _between_rows(text: str, hits: list[Any], sheet: Any, series: Any, low: str) -> tuple[dict[str, Any], list[tuple[int, int]]] | None:
    """Two or more rows of a wide table compared by a test (t-test / ANOVA / chi-square), over the periods named."""
    if re.search(r"相关|correlat|正态|normal|回归|斜率|regression|slope", low):
        return None
    label, rows, row_spans = wide_rows(text, sheet)
    if label and len(rows) < 2:  # 美国和英国的引进节目数: the total row's name is written whole, the rows by their own part
        named = _rows_by_core(text, sorted(sheet.values.get(label, ())))
        rows, row_spans = [x for x, _ in named], [sp for _, sp in named] + row_spans
    first, last, range_spans = period_range(text, hits, series)
    test = "chi" if re.search(r"卡方|chi", low) else "difference"
    if label and not rows and first and test == "difference":  # 2019年至2023年期间…这几年间是否存在显著差异: each period is a group of all rows
        return {"test": test, "wide": True, "periods": True, "rows": [], "label_column": label, "first": first, "last": last,
                "columns": [label]}, range_spans
    if not label or len(rows) < 2:
        return None
    args = {"test": test, "wide": True, "rows": rows, "label_column": label, "first": first, "last": last, "columns": [label]}
    compared = [m.span() for m in re.finditer(r"比较|对比|相比|比一下|compare|versus|\bvs\b", text, re.I)]  # the rows are what is compared
    return args, row_spans + range_spans + compared


def _between_rows_steps(args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
    """The rows, their periods as one long table (row, period, value), then the test over it."""
    lab, rows = args.get("label_column"), args.get("rows") or []
    cols = list(_series_of(ctx.sheet).columns)
    if args.get("first") and args.get("last"):
        cols = cols[cols.index(args["first"]) : cols.index(args["last"]) + 1]
    steps = [StepSpec("选出要比较的行", "filter_rows", "筛选完成", {"conditions": [{"column": lab, "op": "in", "value": rows}]})] if rows else []
    steps += [StepSpec("保留名称和各期", "select_columns", "列已选出", {"columns": [lab, *cols]}),
              StepSpec("各期转成行", "unpivot", "已转成长表", {"id_columns": [lab], "var_name": "期", "value_name": "数值"})]
    if args.get("periods"):
        return steps + [StepSpec("各期之间的差异检验", "group_difference_test", "检验完成", {"column": "数值", "group": "期", "levels": cols})]
    if args["test"] == "chi":
        return steps + [StepSpec("卡方检验", "chi_square_test", "检验完成", {"a": lab, "b": "期", "weight": "数值"})]
    return steps + [StepSpec("差异检验", "group_difference_test", "检验完成", {"column": "数值", "group": lab, "levels": rows})]


TEST_EN = {"Welch t 检验": "Welch t-test", "单因素方差分析": "One-way ANOVA", "卡方独立性检验": "Chi-square test of independence",
           "Shapiro–Wilk 正态性检验": "Shapiro–Wilk normality test", "Pearson 相关": "Pearson correlation",
           "Spearman 等级相关": "Spearman rank correlation", "线性趋势（最小二乘）": "Linear trend (least squares)"}


def test_sentence(f: dict[str, Any], lang: str) -> str:
    """The test, statistic, p, groups and sizes, and one plain sentence of reading; the table's own total row, left out, said."""
    said = _test_sentence(f, lang)
    if not f.get("skipped_totals"):
        return said
    return said + (f"表中自带的合计行（{f['skipped_totals']} 行）不是数据，没有参与检验。" if lang == "zh"
                   else f" The table's own total row ({f['skipped_totals']}) is not data and was left out of the test.")


def _test_sentence(f: dict[str, Any], lang: str) -> str:
    sig = f["significant"]
    if lang != "zh":
        f = {**f, "test": TEST_EN.get(f["test"], f["test"])}
    p = f"p {f['p_text']}"
    stat = f"{f['statistic_name']} = {f['statistic']}"
    zh = lang == "zh"
    if "means" in f:
        tot = f.get("totals") if f.get("group") == "期" else None  # groups that are periods of a wide table: their totals too
        groups = "，".join(f"{k}（n={f['sizes'][k]}，平均 {num(v, lang)}{f'，合计 {num(tot[k], lang)}' if tot else ''}）" for k, v in f["means"].items()) if zh else \
            ", ".join(f"{k} (n={f['sizes'][k]}, mean {num(v, lang)}{f', total {num(tot[k], lang)}' if tot else ''})" for k, v in f["means"].items())
        reading = (f"各组 {f['column']} 的平均值差异在统计上显著（p < 0.05）。" if sig else f"没有足够证据说明各组 {f['column']} 的平均值不同（p ≥ 0.05）。") if zh else \
            (f"The mean {f['column']} differs significantly between the groups (p < 0.05)." if sig else f"No evidence that mean {f['column']} differs (p ≥ 0.05).")
        return f"{f['test']}：{groups}；{stat}，{p}。{reading}" if zh else f"{f['test']}: {groups}; {stat}, {p}. {reading}"
    if "dof" in f:
        reading = (f"{f['a']} 与 {f['b']} 有显著关联（p < 0.05）。" if sig else f"没有足够证据说明 {f['a']} 与 {f['b']} 有关联（p ≥ 0.05）。") if zh else \
            (f"{f['a']} and {f['b']} are significantly associated." if sig else f"No evidence that {f['a']} and {f['b']} are associated.")
        n = (f"合计 {num(f['n'], lang)}" if zh else f"total {num(f['n'], lang)}") if f.get("weight") else (f"{f['n']:,} 行" if zh else f"{f['n']:,} rows")
        caveat = ""
        if f.get("low_expected_cells") and f.get("low_expected_share", 0) > 0.2:  # Cochran's rule: the approximation is rough
            share = f"{f['low_expected_share']:.0%}"
            caveat = (f"注意：{f['low_expected_cells']} 个格子（{share}）的期望频数小于 5，卡方近似不可靠，这个结论只能作参考；"
                      "合并稀少的类别或增加样本后再检验更可靠。") if zh else \
                (f" Caution: {f['low_expected_cells']} cells ({share}) expect fewer than 5, so the chi-square approximation is rough; "
                 "take the result as indicative only, or merge rare categories first.")
        return (f"{f['test']}（{f['a']} × {f['b']}，{n}，自由度 {f['dof']}）：{stat}，{p}。{reading}{caveat}" if zh
                else f"Chi-square test ({f['a']} × {f['b']}, {n}, dof {f['dof']}): {stat}, {p}. {reading}{caveat}")
    if "strength" in f:
        reading = (f"相关性在统计上显著（{f['strength']}{'正' if f['r'] > 0 else '负'}相关）。" if sig else "相关性不显著。") if zh else \
            ("The correlation is significant." if sig else "The correlation is not significant.")
        return f"{f['test']}：{f['a']} 与 {f['b']}（n={f['n']:,}）r = {f['r']}，{p}。{reading}" if zh else f"{f['test']}: {f['a']} vs {f['b']} (n={f['n']:,}) r = {f['r']}, {p}. {reading}"
    if "slope" in f:
        per = f"每{f['x_unit']}" if f.get("x_unit") else f"{f['x']} 每增加 1，"
        reading = (f"{per}{f['y']} 平均{'增加' if f['slope'] > 0 else '减少'} {num(abs(f['slope']), lang)}，趋势显著。" if sig else "趋势不显著。") if zh else \
            (f"{f['y']} changes by {f['slope']} per unit of {f['x']}; the trend is significant." if sig else "The trend is not significant.")
        return (f"{f['test']}：{f['y']} = {f['slope']} × {f['x']} + {f['intercept']}，r² = {f['r2']}，{p}（n={f['n']:,}）。{reading}" if zh
                else f"Linear trend: {f['y']} = {f['slope']} × {f['x']} + {f['intercept']}, r² = {f['r2']}, {p} (n={f['n']:,}). {reading}")
    reading = ("数据明显偏离正态分布（p < 0.05）。" if sig else "没有证据表明数据偏离正态分布（p ≥ 0.05）。") if zh else \
        ("The data depart from a normal distribution." if sig else "No evidence of departure from normality.")
    sampled = "（随机抽取 5,000 个值检验）" if f.get("sampled") and zh else ""
    return f"{f['test']}：{f['column']}（n={f['n']:,}）{stat}，{p}{sampled}。{reading}" if zh else f"{f['test']}: {f['column']} (n={f['n']:,}) {stat}, {p}. {reading}"


# ---------------------------------------------------------------- charts

CHART_AUX = _lazy(r"(?<![a-z_])(?:draw|make|create|produce|build)(?![a-z_])|制作|绘制|画出|生成|展示|显示|一张|一幅|一个|变化趋势|走势|趋势|分布情况|分布|可视化|(?<![a-z_-])(?:visuali[sz]e|showing|show)(?![a-z_-])", re.I)
CHART_KIND = (("热力", "heatmap"), ("热图", "heatmap"), ("heatmap", "heatmap"), ("heat map", "heatmap"), ("散点", "scatter"),
              ("scatter", "scatter"), ("饼", "pie"), ("pie", "pie"), ("折线", "line"), ("趋势图", "line"), ("走势图", "line"), ("line", "line"),
              ("柱", "bar"), ("条形", "bar"), ("bar", "bar"))
# the roles written out: 以X为横轴 / Y为纵轴 / 颜色代表Z, X on the x axis, colour by Z
AXIS_AFTER = {"x": _lazy(r"\s*(?:为|作为|做|当|是)\s*(?:横轴|横坐标|x\s*轴)|\s+(?:on|along) the (?:x[- ]axis|horizontal axis)", re.I),
              "y": _lazy(r"\s*(?:为|作为|做|当|是)\s*(?:纵轴|纵坐标|y\s*轴)|\s+(?:on|along) the (?:y[- ]axis|vertical axis)", re.I)}
AXIS_BEFORE = {"x": _lazy(r"(?:横轴|横坐标|x\s*轴|x[- ]axis)\s*(?:为|是|用|:|：|is|=)?\s*$", re.I),
               "y": _lazy(r"(?:纵轴|纵坐标|y\s*轴|y[- ]axis)\s*(?:为|是|用|:|：|is|=)?\s*$", re.I),
               "colour": _lazy(r"(?:(?:颜色|色彩|色块)(?:的?深浅|的?深度)?\s*(?:代表|表示|对应|为|是|反映)|colou?r(?:ed)? (?:by|shows?|represents?))"
                              r"\s*(?:的|各自的|the)?\s*(?:平均|总|合计|average|mean|total)?\s*$", re.I)}
AXIS_WORDS = _lazy(r"以|横轴|横坐标|纵轴|纵坐标|[xy]\s*轴|[xy][- ]axis|(?:horizontal|vertical) axis|颜色(?:的?深浅|的?深度)?\s*(?:代表|表示|对应|反映)|"
                   r"colou?r(?:ed)? (?:by|shows?|represents?)", re.I)


def _axes(text: str, hits: list[Any]) -> dict[str, str]:
    """The columns given a role in words: {"x": …, "y": …, "colour": …}."""
    out: dict[str, str] = {}
    for h in hits:
        for role in ("x", "y"):
            if AXIS_AFTER[role].match(text, h.end):
                out.setdefault(role, h.column)
        for role, rx in AXIS_BEFORE.items():
            if rx.search(text[max(0, h.start - 16) : h.start]):
                out.setdefault(role, h.column)
    return out


PIE_SHARE = _lazy(SHARE_RX.pattern + r"|比例|(?<![a-z_])(?:shares?|proportions?|percentages?)(?![a-z_])", re.I)
PIE_RX = _lazy(r"饼图|饼状图|(?<![a-z_])pie(?![a-z_])", re.I)
CHART_NAMES = {"bar": ("柱状图", "bar chart"), "line": ("折线图", "line chart"), "pie": ("饼图", "pie chart"), "scatter": ("散点图", "scatter plot"),
               "heatmap": ("热力图", "heat map")}
# a count of rows: 人次 / 人数 / 次数 / number of … (a column of that name is a column, found first)
PIE_SHARE = _lazy(r"占比|比例|比重|百分比|份额|(?<![a-z_])(?:share|proportion|percentage|split|breakdown)s?(?![a-z_])", re.I)
CHART_COUNT = _lazy(r"人数|人次|次数|个数|数量|件数|单数|单量|订单量|票量|(?:借阅|访问|浏览|点击|来电|来访|入园|客流|预约|下单|接单|派单|报修|投诉|咨询)量|笔数|条数|记录数|行数|频数|频次|计数|多少单|几单|多少(?:人|次|个|条|笔|家|件)|"
                    r"(?<![a-z_])(?:count|counts|headcount|number of|how many|rows)(?![a-z_])"
                    # a chart of tickets by country: a plural that names no column, counted per key
                    # (the table's own noun, blanked as the file's word, leaves only the spaces it held)
                    r"|(?<=\bof)\s+(?:the\s+|all\s+)?(?:(?:[a-z]+\s+)?(?:orders|bookings|tickets|rows|records|entries|transactions|visits|sessions|jobs|trips"
                    r"|rides|calls|cases|claims|loans|rentals|deliveries|shipments|appointments|incidents|requests|events)\s+)?(?=(?:by|per|across|for each|in each)\s)", re.I)
COUNT_RX = _lazy(CHART_COUNT.pattern + r"|分布|密度|distribution|density", re.I)
CHART_DESC = _lazy(r"降序|倒序|从高到低|从大到小|由高到低|由大到小|从多到少|由多到少|(?<![a-z_])(?:descending|largest first|highest first)(?![a-z_])", re.I)
CHART_ASC = _lazy(r"升序|从低到高|从小到大|由低到高|由小到大|从少到多|由少到多|(?<![a-z_])(?:ascending|smallest first|lowest first)(?![a-z_])", re.I)
CHART_SORT = _lazy(r"(?:进行|来)?(?:排序|排列|排好)|(?<![a-z_])(?:sorted|sort(?:ed)? (?:it|them|the bars)|in order|ordered)(?![a-z_])", re.I)
CHART_TOP = _lazy(r"(?:(?:最多|最高|最大|最好)的)?(?:前|(?<![a-z_])top\s*)(?P<n>\d+|[一二两三四五六七八九十]+)\s*(?:名|个|位|项|大)?", re.I)
CHART_MARK = _lazy(r"标注出?|标出|标记出?|标明|突出显示|突出|高亮|(?<![a-z_])(?:highlight(?:ing)?|mark(?:ing)?|label(?:ling)?)(?![a-z_])", re.I)


def _clause(text: str, at: int) -> tuple[int, int]:
    """The clause (between commas and stops) holding position `at`."""
    lo = max((text.rfind(c, 0, at) for c in ",，;；。"), default=-1) + 1
    his = [i for i in (text.find(c, at) for c in ",，;；。") if i >= 0]
    return lo, min(his) if his else len(text)


MEASURE_SAID = _lazy(r"纵轴|纵坐标|y\s*轴|(?<![a-z_])y[- ]axis|颜色|colou?r", re.I)


# 渠道空的不算 / 渠道为空的去掉 / region is blank: the words after a column that make it a condition on the rows
CONDITION_AFTER = re.compile(r"\s*(?:是|为|等于|不是|不为|不等于|空|没填|有值|非空|>|<|=|!=|is\b|isn't\b|is not\b|not\b|equals?\b|blank|empty|missing)", re.I)


def _said_again_as_condition(text: str, h: Any) -> bool:
    """Whether a column's name, said again after the chart's own words, opens a condition on the rows."""
    return CONDITION_AFTER.match(text, h.end) is not None


def _chart_measures(text: str, m: re.Match[str], named: list[Any], hits: list[Any]) -> tuple[list[str], list[tuple[int, int]]]:
    """What a chart draws, in the order written: the numeric columns named and the row count (人数 / 次数 / number of),
    read first in the clause that says what the values are (纵轴用…, 颜色代表…), then in the chart's own clause (画个饼图看
    人数分布), then in the whole request; with the spans of the count words read."""
    cols = [(h.start, h.end) for h in hits]
    counts = [c for c in CHART_COUNT.finditer(text) if _free(cols, *c.span())]
    clauses = [_clause(text, x.start()) for x in MEASURE_SAID.finditer(text)] + [_clause(text, m.start()), (0, len(text))]
    for lo, hi in clauses:
        found = sorted([(h.start, h.column) for h in named if lo <= h.start < hi] + [(c.start(), "行数") for c in counts if lo <= c.start() < hi])
        if found:
            return list(dict.fromkeys(c for _, c in found)), [c.span() for c in counts if lo <= c.start() < hi]
    weak = [c.span() for c in COUNT_RX.finditer(text) if _free(cols, *c.span())]  # 各地区的地震分布 / 记录密度: rows per category
    return (["行数"], weak) if weak else ([], [])


SUMMED_VERB = _lazy(r"(?:汇总|合计|统计|加总|求和)(?:一下)?")


def _summed_part(text: str, hits: list[Any], sheet: Any) -> tuple[str, tuple[int, int]] | None:
    """(column, span) of a word right after 汇总 / 合计 that is a part of one numeric column's name only."""
    from modes.resolve import resolve_column

    for v in SUMMED_VERB.finditer(text):
        m = re.match(r"[\u4e00-\u9fff]{2,6}?(?=并|再|然后|，|,|。|画|做|$|\s)", text[v.end():])
        if m is None or any(h.start <= v.end() < h.end for h in hits):
            continue
        col, how, _ = resolve_column(m.group(0), sheet, True, closest=False)
        if col is not None and how == "partial" and col in sheet.numeric:
            return col, (v.end(), v.end() + m.end())
    return None


def _compared(text: str, h: Any) -> bool:
    """A column written before a comparison (满意度超过0.7): a condition's column, never what a chart draws."""
    from modes.conditions import ANY_OP

    i = h.end + (1 if text[h.end : h.end + 1] == "的" else 0)
    return bool(ANY_OP.match(text, i)) and not re.match(r"\s*(?:是|为|is|of)(?![a-z_])", text[i:], re.I)


SORT_BY_BEFORE = _lazy(r"(?:按照|按|根据|依照|(?<![a-z_])(?:sort(?:ed)?|order(?:ed)?|rank(?:ed)?) by(?: the)?)\s*$", re.I)


def _chart_order(text: str, hits: list[Any], kind: str | None) -> tuple[dict[str, Any], list[tuple[int, int]], Any]:
    """How the chart's categories are ordered and marked: 降序排列 (by the measure), 按年份排序 (by the column named),
    标注前5 (the five largest coloured: bars and slices only), 前5 (only the five largest). Returns the args, the
    spans read and the hit of the column named to sort by (None when none is)."""
    args: dict[str, Any] = {}
    spans: list[tuple[int, int]] = []
    by = next((h for h in hits if SORT_BY_BEFORE.search(text[max(0, h.start - 12) : h.start])
               and (CHART_SORT.match(text, h.end) or re.match(r"\s*(?:进行|来)?\s*(?:升序|降序)?\s*(?:排序|排列)|\s*$|\s*[,，]", text[h.end :]))
               and (CHART_SORT.match(text, h.end) or re.match(r"\s*(?:进行|来)?\s*(?:升序|降序)?\s*(?:排序|排列)", text[h.end :])
                    or re.search(r"(?:sort(?:ed)?|order(?:ed)?|rank(?:ed)?) by(?: the)?\s*$", text[: h.start], re.I))), None)
    for rx in (CHART_DESC, CHART_ASC, CHART_SORT):
        spans += [x.span() for x in rx.finditer(text)]
    desc, asc = CHART_DESC.search(text), CHART_ASC.search(text)
    if by is not None:
        args.update(sort="column", sort_column=by.column, ascending=not desc)
        spans.append((by.start, by.end))
    elif desc or asc or CHART_SORT.search(text):
        args.update(sort="measure", ascending=bool(asc and not desc))
    top = CHART_TOP.search(text)
    mark = CHART_MARK.search(text)
    timed = bool(top and re.match(r"\s*(?:年|个?月|季度?|天|周|(?<![a-z_])(?:years?|months?|quarters?|days?|weeks?))", text[top.end() :], re.I))
    if top and (kind in ("scatter", "heatmap", "line") or timed):  # 前2年 may be the first two years: asked about, never guessed or dropped
        args["cannot_mark"] = True
        spans += [top.span()] + ([mark.span()] if mark else [])
    elif top:
        from modes.text import parse_number

        args.update(top=int(parse_number(top.group("n")) or 0) or None, mark=bool(mark))
        spans += [top.span()] + ([mark.span()] if mark else [])
        args.setdefault("sort", "measure")
        args.setdefault("ascending", False)
    return args, spans, by


PER_COLUMN = _lazy(r"每列|各列|每一列|每个月|每月|各月|每一年|每年|各年|(?<![a-z_])(?:each|every|per) (?:column|month|year)(?![a-z_])", re.I)
YEAR_NAMED = _lazy(r"^(?:year|years|yr|年份|年度|年)$", re.I)


def _year_column(sheet: Any, hits: list[Any]) -> str | None:
    """每年 on a table with a column of whole years and no date column: that column is the year."""
    if sheet.dates:
        return None
    named = [h.column for h in hits if h.column in sheet.numeric and _categories(sheet, h.column)]
    years = named or [c for c in sheet.columns if YEAR_NAMED.search(c) or c in sheet.numeric and _categories(sheet, c)]
    return years[0] if len(years) == 1 or named else None


OF_WORD = _lazy(r"(?:的|of the|of)\s*(?P<w>[\u4e00-\u9fff]{2,8}|[A-Za-z][A-Za-z ]{1,20}?)(?=占比|比例|分布|情况|的|[，,。？?；;]|$|\s)", re.I)
CJK_RUN = _lazy(r"[\u4e00-\u9fff]")
WORD_TAIL = _lazy(r"(?:占比|比例|分布|情况|总和|总数|合计|平均|数量|总量)+$")


def _said_column(raw: str, sheet: Any, numeric: bool) -> str | None:
    """A column a word names in the sheet's own or the other language (面积 -> Area (Square km)); the gate restates
    every translation, so a word read this way never runs silently."""
    for k in range(min(len(raw), 8), 0 if CJK_RUN.match(raw) else 1, -1):
        col, how, _ = resolve_column(raw[:k], sheet)
        if col and how in ("exact", "synonym", "partial", "translated") and (col in sheet.numeric) == numeric:
            return col
    return None


def _said_key(text: str, sheet: Any) -> tuple[str | None, tuple[int, int]]:
    """各个郡 / 各国 / by county: the key written after a BY word, read across languages when no name matched."""
    from modes.ops import BY_WORD

    for b in BY_WORD.finditer(text):
        w = re.match(r"\s*(?:个|一个)?(?P<w>[\u4e00-\u9fff]{1,4}?|[A-Za-z]+)(?=的|中|在|[，,。？?\s]|$)", text[b.end() :])
        if w:
            col = _said_column(WORD_TAIL.sub("", w.group("w")) or w.group("w"), sheet, numeric=False)
            if col:
                return col, (b.start(), b.end() + w.end())
    return None, (0, 0)


def _said_measure(text: str, sheet: Any) -> tuple[str | None, tuple[int, int]]:
    """的面积占比 / 获得的金牌数: the numeric column a word after 的 (or of) names, read across languages."""
    for m in OF_WORD.finditer(text):
        raw = WORD_TAIL.sub("", m.group("w").strip())
        col = _said_column(raw, sheet, numeric=True) if len(raw) >= 2 else None
        if col:
            return col, m.span("w")
    return None, (0, 0)


@operation
class Chart(OpSpec):
    """柱状图 / 折线图 / 饼图 / 散点图 / 热力图: the measure named (a row count for 人次 / 人数 / number of), per the key
    named, after the request's filters; sorted, cut to the top N or with the top N marked when asked."""

    name = "chart"
    family = "explore"
    label = {"zh": "图表", "en": "chart"}
    words = {"zh": ("柱状图", "折线图", "饼图", "散点图", "热力图", "图表"), "en": ("chart", "plot", "heatmap")}
    slots = (Slot("y", "columns", "图上画哪一列的数值？（也可以回答“行数”，即每类的行数）",
                  "Which numeric column should the chart show? (or “count”, the number of rows per category)", numeric=True),
             Slot("x", "column", "横轴（分类）用哪一列？例如按区域画柱状图。", "Which column goes on the x axis (categories)?", required=False),
             Slot("date_column", "column", "按哪一个日期列分期？", "Which date column are the periods of?", required=False, gap="chart_date", fits="date"),
             Slot("keys", "columns", "热力图的横轴和纵轴要用两个分类列（例如地区、类别），颜色代表汇总的数值。横轴和纵轴各用哪一列？",
                  "A heat map needs two category columns for its axes (e.g. region, category); the colour shows the measure. Which two columns?",
                  required=False, gap="axes"))
    main_slot = "y"

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        m = unquoted(CHART_RX, text)
        if m is None:
            return None
        low = text.casefold()
        used = [x.span() for rx in (CHART_RX, CHART_AUX) for x in rx.finditer(text)]
        named = sorted({k: low.find(w) for w, k in reversed(CHART_KIND) if w in low}.items(), key=lambda kv: kv[1])
        kind = named[0][0] if named else None
        series = _series_of(sheet)
        split, split_spans = series_key(text, hits) if series is None else (None, [])
        used += split_spans  # 每个城市一条线 / split by carrier: one series per value, never the categories
        keys, by_spans = _by_keys(text, hits, sheet, used)
        order, order_spans, sort_hit = _chart_order(text, hits, kind)
        used += order_spans
        free = [h for h in hits if _free(by_spans + split_spans, h.start, h.end) and not _compared(text, h) and h is not sort_hit]
        args: dict[str, Any] = {"kind": kind or ("line" if _bucket_search(text) or series is not None else "bar"), "agg": _agg(text), **order}
        if split:
            args["split"] = split
        if len(named) > 1:  # 柱状图和饼图: each kind named is drawn from the same figures
            args["also"] = [k for k, _ in named[1:]]
        if "pie" in [args["kind"], *args.get("also", [])]:  # a pie's slices are the shares: 占比 / share is what it shows
            used += [x.span() for x in PIE_SHARE.finditer(text)]
        axes = _axes(text, free)
        if series is not None:
            used += self._wide(text, hits, sheet, series, kind, args)
        elif args["kind"] == "heatmap" and (axes or AXIS_WORDS.search(text) and re.search(r"轴|axis|颜色|colou?r", text, re.I)):
            used += self._by_axes(text, sheet, axes, [h.column for h in free], args)
        else:
            used += self._measure(text, m, free, sheet, keys, axes, args, hits)
            used += [a.span() for a in AXIS_WORDS.finditer(text)]  # 纵轴用 / 以…为横轴: the chart's own words
        if args.get("sort") == "column":  # 按年份排序 / sorted by region: the categories, or the value drawn; nothing else
            col = args.pop("sort_column")
            measures = [c for c in args.get("y") or []]
            if col == args.get("x") or args.get("unit") and YEAR_NAMED.search(col) or col in (args.get("keys") or []):
                args["sort"] = "key"
            elif measures == [col]:
                args["sort"] = "measure"
            else:
                args.pop("sort")
                args.pop("ascending", None)
                used = [u for u in used if u != (sort_hit.start, sort_hit.end)]
        if series is None and not args.get("y") and args["kind"] in ("bar", "line", "pie") and (money := _money_asked(text, sheet)) is not None:
            args["y"] = [money]  # 各个类别卖了多少钱，画个柱状图: the money column is what is drawn
            used += [x.span() for x in _money_words(text)]
        if series is None and not args.get("y") and args["kind"] in ("bar", "line", "pie") and (part := _summed_part(text, hits, sheet)) is not None:
            args["y"] = [part[0]]  # 按区域汇总回款并画图, over 回款金额 / 回款日期: the part of a name said after the verb, that holds numbers
            used.append(part[1])
        if series is None and not args.get("y") and not args.get("x") and args["kind"] in ("bar", "line", "pie") and not hits:
            from modes.ops import _summary_figure

            figure = _summary_figure(sheet)  # 做成饼图, of a total per 房型 read back: its one key along, its one figure drawn
            cats = [c for c in sheet.columns if c not in sheet.numeric and c not in sheet.dates]
            if figure is not None and len(cats) == 1:
                args.update(x=cats[0], y=[figure])
        if series is None and not args.get("x") and args["kind"] in ("bar", "line", "pie") and not args.get("unit"):
            cats = [c for c in sheet.columns if c not in sheet.numeric and c not in sheet.dates]
            if len(cats) == 1 and sheet.rows and len(sheet.values.get(cats[0], ())) == sheet.rows:
                args.update(x=cats[0])  # a line chart of that, over a growth table: its one label column along x (one row each)
        drawn = {c for c in (args.get("x"), *(args.get("y") or []), *(args.get("keys") or [])) if c}
        if series is not None:
            drawn = {h.column for h in hits}
        firsts = {c: min(h.start for h in hits if h.column == c) for c in drawn if any(h.column == c for h in hits)}
        # 各渠道的金额画饼图，渠道空的不算: the column drawn, said again, is left to the words after it (a condition)
        spans = used + by_spans + [(h.start, h.end) for h in hits if h.column in drawn
                                   and (series is not None or h in free and (h.start == firsts[h.column] or not _said_again_as_condition(text, h)))]
        return Found(m.start(), self.name, args, tuple(spans))

    def _wide(self, text: str, hits: list[Any], sheet: Any, series: Any, kind: str | None, args: dict[str, Any]) -> list[tuple[int, int]]:
        """A wide table (one column per period): the rows named along x, or the periods along x."""
        label_col, rows, row_spans = wide_rows(text, sheet)
        first, last, range_spans = period_range(text, hits, series)
        named = list(dict.fromkeys(h.column for h in hits if h.column in series.columns and _free(range_spans, h.start, h.end)))
        if named and not rows and not first and label_col:  # 对比2010年和2020年所有行业: the rows along x, one series per period named
            args.update(kind=kind or "bar", x=label_col, y=named, columns=True)
            return [x.span() for x in re.finditer(r"对比|比较|相比|compare|versus|\bvs\b", text, re.I)]
        args.update(wide=True, rows=rows[:5], label_column=label_col, y=["数值"], first=first, last=last)
        return row_spans + range_spans

    def _by_axes(self, text: str, sheet: Any, axes: dict[str, str], named: list[str], args: dict[str, Any]) -> list[tuple[int, int]]:
        """以X为横轴，Y为纵轴，颜色代表Z: each role filled by the column written for it, or left open to ask; a heat
        map's two axes are categories (a category named without a role, as an answer, fills a free axis) and its colour the measure."""
        x, y, colour = axes.get("x"), axes.get("y"), axes.get("colour")
        cats = [c for c in dict.fromkeys((x, y, *named)) if c and c not in sheet.numeric and c not in sheet.dates][:2]
        args.update(x=cats[0] if len(cats) == 2 else None, keys=cats if len(cats) == 2 else None,
                    y=[colour] if colour and colour in sheet.numeric else [], agg="mean" if MEAN_WORDS.search(text) else "sum")
        if not args["y"] and not colour and COUNT_RX.search(text):
            args.update(y=["行数"], agg="count")
        return [a.span() for a in AXIS_WORDS.finditer(text)]

    def _measure(self, text: str, m: re.Match[str], free: list[Any], sheet: Any, keys: list[str], axes: dict[str, str],
                 args: dict[str, Any], hits: list[Any]) -> list[tuple[int, int]]:
        """What is drawn against what: the key(s), the measure named (or the row count), for each kind; the spans of
        the words read for them."""
        spans: list[tuple[int, int]] = []
        nums = [h.column for h in free if h.column in sheet.numeric and h.column not in keys]
        cats = [h.column for h in free if h.column not in sheet.numeric and h.column not in sheet.dates and h.column not in keys]
        if args["kind"] == "scatter":
            named = list(dict.fromkeys(nums))
            args.update(x=named[0] if named else None, y=named[1:2])
            return spans
        unit_m = _bucket_search(text)
        if unit_m and any(h.start < unit_m.end() and unit_m.start() < h.end for h in hits):  # 按年龄: a column, not a period
            unit_m = None
        year = _year_column(sheet, free) if unit_m and _unit_of(unit_m) == "year" else None
        if unit_m and not year and not sheet.dates and any(c not in sheet.numeric for c in sheet.columns) \
                and any(SUMMARY_FIGURE.search(c) for c in sheet.columns):
            unit_m = None  # the monthly totals drawn, on a summary whose rows are its periods (or groups): its own rows, no dates to split
        if unit_m and not year:
            dated = _date_column(free, sheet, text)
            y = list(dict.fromkeys(c for c in nums if c != dated and c not in sheet.dates and not YEAR_NAMED.search(c)))  # 每年的平均名次: never the mean of Year; Gross and Net: one line each
            if not y and (args.get("agg") == "count" or COUNT_RX.search(text) or CHART_COUNT.search(text)):
                y = ["行数"]  # weekly ticket counts as a chart / 每月的单数画折线图: the rows of each period
                args["agg"] = "count"
            args.update(unit=_unit_of(unit_m), date_column=dated, y=y)
            spans.append(unit_m.span())  # per month: the chart's periods, never a key of a summary beside it
            if dated is None and len(sheet.dates) > 1:
                args["date_column"] = ""  # weekly, over a table with two date columns: which one is asked, never picked
            args.setdefault("sort", None)
            return spans
        if year:  # 每年的平均名次 over a Year column of whole years: the years are the categories
            keys, nums = [year], [c for c in nums if c != year]
        groups = list(dict.fromkeys(keys + cats)) or [c for c in dict.fromkeys(nums) if _categories(sheet, c)][:1]
        if not groups:  # 各个郡 / 各国: a key named in the other language
            key, span = _said_key(text, sheet)
            groups, spans = ([key], spans + [span]) if key else (groups, spans)
        if not groups and args["kind"] == "pie":  # 普通号和专家号的比例画个饼图: two values or more of one column said, its slices
            from modes.resolve import find_values

            said = {c: v for c, v in find_values(text, sheet, []).items() if c not in sheet.numeric and len({x[0] for x in v}) >= 2}
            groups = list(said)[:1] if len(said) == 1 else groups
        if axes.get("x"):  # 以科室为横轴: the axis named first
            groups = [axes["x"]] + [g for g in groups if g != axes["x"]]
        y, counted = _chart_measures(text, m, [h for h in free if h.column in nums and h.column not in groups], free)
        spans += counted
        if not y or y == ["行数"] and not counted:  # 各郡的面积占比 / 获得的金牌数: a measure named in the other language
            col, span = _said_measure(text, sheet)
            y, spans = ([col], spans + [span]) if col and col not in groups else (y, spans)
        if not y and args["kind"] == "pie" and PIE_SHARE.search(text):
            y = ["行数"]  # 号别的比例画个饼图 / a pie of the share of each channel: each slice's rows
        if len(y) > 1 and args["kind"] in ("pie", "heatmap"):
            y = []  # 各城市的人数和平均月薪，画饼图: a pie shows one figure, which one is asked, never picked
        elif len(y) > 2:
            y = y[:2]
        if y == ["行数"]:
            args["agg"] = "count"
        elif args["agg"] == "count":  # the count words were read as the row count: the columns are added up or averaged
            args["agg"] = "mean" if MEAN_WORDS.search(text) else "sum"
        args.update(x=groups[0] if groups else None, y=y)
        if args["kind"] == "heatmap" and len(groups) > 1:
            args["keys"] = groups[:2]
        return spans

    def gaps(self, args: dict[str, Any]) -> list[str]:
        if args.get("wide"):
            return []
        out = [] if args.get("y") else ["y"]
        if args.get("also") and not {args["kind"], *args["also"]} <= {"bar", "line", "pie"} or args.get("also") and len(args.get("y") or []) > 1:
            out.append("chart_kind")  # 散点图和柱状图 / two figures on a bar and a pie: which chart is asked
        if args["kind"] == "heatmap" and not args.get("keys") and not args.get("x"):
            out.append("axes")
        elif not args.get("unit") and not args.get("x"):
            out.append("x")
        elif args.get("unit") and args.get("date_column") == "":
            out.append("chart_date")  # weekly, over a table with two date columns: which one the weeks are of
        if args.get("top") is None and "top" in args:
            out.append("top")
        if args.get("cannot_mark"):
            out.append("mark")
        if args.get("split") and (args["kind"] not in ("bar", "line") or args.get("also") or len(args.get("y") or []) > 1
                                  or args.get("top") or args.get("sort") == "measure"):
            out.append("split")  # one series per value: one figure on a bar or line chart, never sorted or cut by a figure
        return out

    def question(self, slot: str, lang: str) -> str | None:
        if slot == "top":
            return _zh(lang, "要标出前几名？", "How many of the largest should be marked?")
        if slot == "chart_kind":
            return _zh(lang, "这几种图没法用同一份数据一起画（散点图、热力图要单独画，两个数值也只能画在柱状图或折线图上）。先画哪一种？",
                       "These charts cannot be drawn from the same figures together (scatter plots and heat maps stand alone; two figures fit a bar or line chart). Which one first?")
        if slot == "split":
            return _zh(lang, "按一列分系列（每个值一条线或一组柱子）只能画一个数值的柱状图或折线图，也不能再按数值排序或只取前几名。"
                       "要画哪一个数值，柱状图还是折线图？",
                       "One series per value of a column fits a bar or line chart of one figure, not sorted or cut by that figure. "
                       "Which figure, as a bar or a line chart?")
        if slot == "mark":
            return _zh(lang, "“前几名”在这里没法照做：折线图、散点图和热力图不能标出或只画前几名，按时间的“前几年/前几个月”也可能是指最早的几期。"
                       "要改成柱状图标出数值最大的几项，还是改成筛选某段时间？",
                       "The top few cannot be done here: line, scatter charts and heat maps cannot mark or keep only the top few, and "
                       "“the first years/months” may mean the earliest periods. A bar chart marking the largest, or a filter on a period?")
        return super().question(slot, lang)

    def answer_word(self, slot: str, text: str) -> str | None:
        if slot == "y" and CHART_COUNT.fullmatch(text.strip()):  # 行数 / 人数 / count: the rows of each category
            return "行数"
        return None

    def answer_join(self, slot: str, words: str, args: dict[str, Any], lang: str = "zh") -> str:
        if lang == "en":  # an English request stays English: the clause is read in its words (and says nothing in Chinese)
            return f", y axis {words}" if slot == "y" else f", x axis {words}" if slot == "x" else f" {words}"
        if slot == "y":  # the clause that says what the values are is read before any other
            return f"，颜色代表 {words}" if args.get("kind") == "heatmap" else f"，纵轴用 {words}"
        return f"，横轴用 {words}" if slot == "x" else f" {words}"

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        kind = CHART_NAMES[args["kind"]]
        if args.get("also"):  # 柱状图和饼图
            kind = ("和".join(CHART_NAMES[k][0] for k in [args["kind"], *args["also"]]), " and ".join(CHART_NAMES[k][1] for k in [args["kind"], *args["also"]]))
        if args.get("wide"):
            rows = "、".join(args.get("rows") or []) or "各行"
            return _zh(lang, f"画 {rows} 各期数值的{kind[0]}，写入 outputs/ 下的新 xlsx（Excel 原生图表）", f"a {kind[1]} of {rows} across the periods, as a new xlsx in outputs/")
        y = _sep(lang).join("row count" if c == "行数" and lang == "en" else c for c in args.get("y") or [])
        if args.get("columns"):
            return _zh(lang, f"画各 {args.get('x')} 的 {y} 的{kind[0]}（每列一组柱子），写入 outputs/ 下的新 xlsx（Excel 原生图表）",
                       f"a {kind[1]} of {y} for each {args.get('x')} (one series per column), as a new xlsx in outputs/")
        if args["kind"] == "scatter":
            return _zh(lang, f"画 {args.get('x')} 与 {y} 的散点图，写入 outputs/ 下的新 xlsx", f"a scatter plot of {args.get('x')} vs {y}, as a new xlsx in outputs/")
        by = f"每{UNIT_ZH[args['unit']]}" if args.get("unit") else f"各 {args.get('x')}"
        if args.get("unit") and args.get("date_column"):  # the periods are of the date column said (or answered): said
            by = f" {args['date_column']} 的{by}"
        agg = AGG_ZH.get(args.get("agg", "sum"), "合计")
        if args["kind"] == "heatmap":
            keys = " × ".join(args.get("keys") or [args.get("x") or ""])
            return _zh(lang, f"按 {keys} 汇总 {y}（{agg}），写成带色阶的表（热力图；Excel 没有原生热力图，颜色越深数值越大），写入 outputs/ 下的新 xlsx",
                       f"{y} ({AGG_EN.get(args.get('agg', 'sum'), 'total')}) by {keys} as a table with a colour scale (a heat map; Excel has no native one), "
                       f"as a new xlsx in outputs/")
        split = args.get("split")
        each = (_zh(lang, f"，每个 {split} 一条线", f", one line per {split}") if args["kind"] == "line"
                else _zh(lang, f"，每个 {split} 一组柱子", f", one bar series per {split}")) if split else ""
        return _zh(lang, f"按{by}汇总 {y}（{agg}）{each}{self._order_phrase(args, lang)}，画{kind[0]}，写入 outputs/ 下的新 xlsx（Excel 原生图表）",
                   f"a {kind[1]} of {y} ({AGG_EN.get(args.get('agg', 'sum'), 'total')}) per {args.get('unit') or args.get('x')}"
                   f"{' of ' + args['date_column'] if args.get('unit') and args.get('date_column') else ''}"
                   f"{each}{self._order_phrase(args, lang)}, as a new xlsx in outputs/")

    def _order_phrase(self, args: dict[str, Any], lang: str) -> str:
        sort, asc = args.get("sort"), args.get("ascending")
        by = (args.get("x") or "") if sort == "key" else "数值"
        out = _zh(lang, f"，按{by}{'升序' if asc else '降序'}排列", f", sorted by {'the categories' if sort == 'key' else 'value'} "
                  f"{'ascending' if asc else 'descending'}") if sort else ""
        if args.get("top"):
            n = args["top"]
            out += _zh(lang, f"，标出最大的 {n} 项" if args.get("mark") else f"，只画最大的 {n} 项",
                       f", the {n} largest marked" if args.get("mark") else f", only the {n} largest")
        return out

    def stem_label(self, args: dict[str, Any]) -> str:
        return "热力图" if args["kind"] == "heatmap" else CHART_NAMES[args["kind"]][0]

    def _steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        from modes.naming import output_stem

        stem = output_stem(ctx.request, self.stem_label(args))
        if args.get("wide"):
            return self._wide_steps(args, ctx, stem)
        kind, y = args["kind"], args["y"]
        if args.get("columns"):  # the columns as they are, one series each, the rows along x
            return [StepSpec("保留要画的列", "select_columns", "列已选出", {"columns": [args["x"], *y]}),
                    StepSpec("写入图表", "write_chart", "图表已生成", {"kind": kind, "x": args["x"], "y": y, "stem": stem})]
        if kind == "scatter":
            return [StepSpec("写入散点图", "write_chart", "图表已生成", {"kind": kind, "x": args["x"], "y": y, "stem": stem})]
        agg = args.get("agg", "sum")
        counting = agg == "count" and y == ["行数"]
        own = next((c for c in ("行数", "rows") if ctx.sheet is not None and c in ctx.sheet.columns and c in ctx.sheet.numeric), None)
        if counting and own and ctx.last_measure is None:  # a summary's own row counts, drawn: its 行数 column summed, never its rows counted
            agg, y, counting = "sum", [own], False
        en = getattr(ctx.request, "lang", "zh") == "en"  # result columns and titles in the request's language
        if kind == "heatmap" and args.get("keys"):  # two keys: a pivot, each cell coloured by its value
            a = {"rows": args["keys"][:1], "columns": args["keys"][1], "agg": "count" if counting else agg, "totals": False,
                 **({} if counting else {"value": y[0]})}
            k1, k2 = args["keys"][:2]
            what = "rows" if counting and en else y[0]
            title = f"{what} ({AGG_EN[agg]}, {k1} × {k2})" if en else f"{y[0]}（{AGG_ZH[agg]}，{k1} × {k2}）"
            return [StepSpec("生成透视表", "pivot_table", "透视表完成", a),
                    StepSpec("写入色阶表", "write_chart", "图表已生成", {"kind": kind, "x": k1, "y": ["*"], "stem": stem, "title": title})]
        if args.get("split"):
            return self._split_steps(args, stem, agg, y, counting, en)
        label = AGG_ZH[agg]
        if args.get("unit"):
            x = PERIOD_HEADER[args["unit"]]
            measure = ["行数"] if counting else [f"{c}_{label}" for c in y]  # the row count of each period is the bucket's own 行数
            steps = [StepSpec("按时间分期汇总", "bucket_dates", "分期汇总完成", {"column": args["date_column"], "unit": args["unit"],
                                                                           "value": None if counting else y[0], "agg": agg,
                                                                           **({"values": y[1:]} if len(y) > 1 and not counting else {})})]
        else:
            x = args["x"]
            names = {"rows": "rows", "agg": {"sum": "sum", "mean": "mean", "count": "count"}[agg]} if en else {"rows": "行数", "agg": label}
            from tools.ops import measure_name

            measure = [names["rows"] if c == "行数" and counting else measure_name(c, agg, "en" if en else "zh") for c in y]  # the row count comes with every summary
            from modes.results import is_result

            ordered = {"keep_order": True} if is_result(getattr(ctx.request, "file", None) or "") else {}  # a result's rows keep their order
            steps = [StepSpec("按类别计数" if counting else "按类别汇总", "group_summarize", "汇总完成",
                              {"keys": [x], "measures": [{"column": c, "agg": agg} for c in y if c != "行数" or not counting],
                               **({"lang": "en"} if en else {}), **ordered})]
        if args.get("sort"):
            by = [x] if args["sort"] == "key" else measure[:1]
            steps.append(StepSpec("排序", "sort_rows", "排序完成", {"by": by, "ascending": bool(args.get("ascending"))}))
        if args.get("top") and not args.get("mark"):
            steps.append(StepSpec("取前几名", "top_n", "筛选完成", {"by": measure[0], "n": args["top"], "ascending": False}))
        mark = {"mark_top": args["top"]} if args.get("top") and args.get("mark") and kind in ("bar", "pie") else {}
        mark.update({"title": f"{', '.join(measure)} by {x}"} if en else {})
        steps.append(StepSpec("写入图表", "write_chart", "图表已生成", {"kind": kind, "x": x, "y": measure, "stem": stem, **mark}))
        for other in args.get("also") or []:  # the same figures drawn again as each further kind named, each in its own file
            stem2 = output_stem(ctx.request, CHART_NAMES[other][0])
            more = mark if other in ("bar", "pie") else {k: v for k, v in mark.items() if k == "title"}
            steps.append(StepSpec(f"写入{CHART_NAMES[other][0]}", "write_chart", "图表已生成", {"kind": other, "x": x, "y": measure, "stem": stem2, **more}))
        return steps

    def _split_steps(self, args: dict[str, Any], stem: str, agg: str, y: list[str], counting: bool, en: bool) -> list[StepSpec]:
        """One series per value of the split column: a pivot of the figure, the periods (or the categories) as its rows and
        the split column's values as its columns, drawn one line (or one bar series) per column."""
        x, split = (args["date_column"] if args.get("unit") else args["x"]), args["split"]
        what = ("row count" if en else "行数") if counting else y[0]
        how = AGG_EN[agg] if en else AGG_ZH[agg]
        pivot = {"rows": [x], "columns": split, "agg": "count" if counting else agg, "totals": False,
                 **({} if counting else {"value": y[0]}), **({"period": args["unit"], "dated": x} if args.get("unit") else {}), **({"lang": "en"} if en else {})}
        steps = [StepSpec("按分系列列透视", "pivot_table", "透视表完成", pivot)]
        if args.get("sort") == "key":
            steps.append(StepSpec("排序", "sort_rows", "排序完成", {"by": [x], "ascending": bool(args.get("ascending"))}))
        title = f"{what} ({how}) by {x}, one series per {split}" if en else f"{what}（{how}，按 {x}，每个 {split} 一个系列）"
        steps.append(StepSpec("写入图表", "write_chart", "图表已生成", {"kind": args["kind"], "x": x, "y": ["*"], "stem": stem, "title": title}))
        return steps

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        """The chart's steps; when more operations follow, they read the rows the chart was drawn from, never its summary."""
        steps = self._steps(args, ctx)
        r = ctx.request
        i = next((k for k, o in enumerate(r.ops) if o.args is args), None) if r is not None else None
        if r is None or i is None or i == len(r.ops) - 1:
            return steps
        steps.append(StepSpec("回到原表", "profile_dataset", "获取列信息", {"path": r.file, "sheet": r.sheet}))
        for o in r.ops[:i]:
            if o.kind == "filter":  # the rows chosen before the chart stay chosen
                steps += opspec.get("filter").to_steps(o.args, ctx)  # type: ignore[union-attr]
        return steps

    def _wide_steps(self, args: dict[str, Any], ctx: PlanContext, stem: str) -> list[StepSpec]:
        """One line (or bar group) per row of the table, the periods along the x axis."""
        steps: list[StepSpec] = []
        lab = args.get("label_column")
        series = _series_of(ctx.sheet)
        rows = args.get("rows") or []
        if lab and rows:
            steps.append(StepSpec("选出要画的行", "filter_rows", "筛选完成", {"conditions": [{"column": lab, "op": "in", "value": rows}]}))
        if lab and series is not None:
            cols = list(series.columns)
            if args.get("first") and args.get("last"):
                cols = cols[cols.index(args["first"]) : cols.index(args["last"]) + 1]
            steps.append(StepSpec("保留名称和各期", "select_columns", "列已选出", {"columns": [lab, *cols]}))
            steps.append(StepSpec("行列互换", "transpose_table", "转置完成", {"header_column": lab}))
        title = ("、".join(rows) if rows else "各行") + ("历年变化" if series is not None and series.kind == "year" else "各期变化")
        steps.append(StepSpec("写入图表", "write_chart", "图表已生成", {"kind": args["kind"], "x": lab, "y": ["*"], "stem": stem, "title": title}))
        return steps

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "write_chart":
            return None
        bars = "".join("\n  " + line for line in facts.get("preview") or [])
        marked = "、".join(str(v) for v in facts.get("marked") or [])
        if facts["kind"] == "heatmap":
            return _zh(lang, f"已生成热力图“{facts['title']}”：Excel 没有原生热力图，写成了带色阶的表（{facts['rows']} 行，颜色越深数值越大）。\n",
                       f"Made a heat map “{facts['title']}”: Excel has no native heat map, so it is a table with a colour scale "
                       f"({facts['rows']} rows, darker = larger).\n")
        note = _zh(lang, f"已用另一种颜色标出：{marked}。", f" Marked in another colour: {marked}.") if marked else ""
        n = facts.get("series") or 1
        each = _zh(lang, f" × {n} 个系列", f" × {n} series") if n > 1 and facts["kind"] != "scatter" else ""
        return _zh(lang, f"已生成{facts['kind_zh']}“{facts['title']}”（Excel 原生图表，{facts['rows']} 个数据点{each}，在 Excel 或 WPS 中打开即可看到）。{note}{bars}\n",
                   f"Made a {facts['kind']} chart “{facts['title']}” (a native Excel chart, {facts['rows']} data points{each}).{note}{bars}\n")


# ---------------------------------------------------------------- lookups

LOOKUP = _lazy(r"(?P<key>[^\s,，的]{1,20})\s*的\s*(?P<col>[^\s,，的？?]{1,20}?)\s*(?:是什么|是多少|是啥|为多少|是哪|是哪个|是哪里)"
                    r"|what(?:'s| is| was) the (?P<col2>[\w\u4e00-\u9fff ]+?) of (?P<key2>[\w\u4e00-\u9fff]+)", re.I)


@operation
class Lookup(OpSpec):
    name = "lookup"
    family = "explore"
    label = {"zh": "查值", "en": "look up"}
    words = {"zh": ("是什么",), "en": ("what is the",)}
    answers_question = True

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        m = LOOKUP.search(text)
        if m is None:
            return None
        key, col_raw = (m.group("key"), m.group("col")) if m.group("key") else (m.group("key2"), m.group("col2"))
        from modes.resolve import resolve_column

        if re.search(r"合计|总和|总计|总额|平均|均值|一共|总共|最高|最低|最大|最小|(?<![a-z_])(?:total|sum|average|mean)(?![a-z_])", col_raw + text[m.end() - 4 : m.end()], re.I):
            return None  # 华东的销售额合计是多少: a total over the rows, not one row's value
        col = resolve_column(col_raw.strip(), sheet)[0]
        holders = [c for c, vs in sheet.values.items() if key in vs]
        if col is None or len(holders) != 1 or holders[0] == col:
            return None  # not a row's name and a column: other rules read it
        return Found(m.start(), self.name, {"key_column": holders[0], "key": key, "columns": [col]}, (m.span(),))

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        return _zh(lang, f"查 {args['key_column']} 为 {args['key']} 的行的 {'、'.join(args['columns'])}", f"look up {', '.join(args['columns'])} where {args['key_column']} is {args['key']}")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("查值", "lookup_value", "已找到", {"key_column": args["key_column"], "key": args["key"], "columns": args["columns"]})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "lookup_value":
            return None
        vals = "；".join(f"{c} 是 {'、'.join(str(num(v, lang)) for v in vs)}" for c, vs in facts["values"].items())
        rows = _zh(lang, f"（{facts['rows_out']} 行匹配）", f" ({facts['rows_out']} matching rows)") if facts["rows_out"] > 1 else ""
        return _zh(lang, f"{facts['key_column']} 为 {facts['key']} 的行：{vals}{rows}。", f"For {facts['key_column']} = {facts['key']}: {vals}{rows}.")


# ---------------------------------------------------------------- running totals, ranks, top n within groups

RUNNING_RX = _rx("累计值", "累计和", "累计求和", "累加值", "累加", "滚动累计", "逐月累计", "逐日累计", "running total", "cumulative total",
                 "cumulative sum")
RANK_RX = _rx("组内排名", "加一列排名", "加上排名", "排名列", "名次列", "加名次", "rank within", "add a rank", "rank column")
PER_GROUP_TOP = _lazy(
    r"(?:(?:每个|各个|各|每一个)\s*(?P<key>[^\s,，的]{1,12}?)\s*(?:里|内|中|之中|里面)\s*(?:的)?|组内|每组|每一组)[^,，。]{0,20}?"
    r"(?:最高|最大|最多|最低|最小|最少)?\s*(?:的)?\s*(?:前|top\s*)(?P<n>\d+|[一二三四五六七八九十])"
    r"|(?<![a-z_])top\s*(?P<n2>\d+)\s+(?:(?P<what>\w+)\s+)?(?P<byc>(?:by|on)\s+[^,，.;]{1,30}?\s+)?(?:in|within|per|for)\s+(?:each\s+|every\s+)?(?P<key2>[\w\u4e00-\u9fff]+)",
    re.I,
)
# the rows at the top of each group, asked for by what they are (行 / 记录 / 人 / 是谁 / person / row), never a figure:
# 每个科目取成绩最高的1行, 每个部门薪资最高的人是谁, each department's highest-paid person
ROWS_AT_TOP = _lazy(
    r"(?P<d>最高|最大|最多|最低|最小|最少|最贵|最便宜|最早|最晚|排名第一|排第一|第一名|第一)\s*(?P<mw>(?:(?![的那前是])[\u4e00-\u9fff]){1,3}?)?\s*的?\s*(?:那|前)?\s*(?P<n>\d+|[一二两三四五六七八九十])?\s*(?:个|位|名|条|笔)?\s*"
    r"(?P<noun>行|条记录|记录|个人|人(?![数次均])|员工|职员|人员|学生|同学|老师|是谁|是哪(?:一|几)?(?:个|位|些|条|行)|(?<=\d)名|(?<=[一二两三四五六七八九十])名)"
    r"|(?:(?<![\w.])(?P<n2>\d+|two|three|four|five|six|seven|eight|nine|ten)\s+)?(?P<d2>highest|largest|biggest|top|lowest|smallest|bottom)(?:[- ](?P<adj>paid|scoring|earning|rated|priced|selling|grossing))?"
    r"\s+(?P<noun2>rows?|records?|entr(?:y|ies)|persons?|people|employees?|staff|students?|workers?|ones?)(?![a-z_])"
    r"|(?<![a-z_])(?:(?P<n3>\d+|two|three|four|five)\s+)?(?:rows?|records?|entr(?:y|ies)|persons?|people|employees?|students?|ones?)\s+(?:with|having)\s+(?:the\s+)?(?P<d3>highest|largest|biggest|top|lowest|smallest)(?![a-z_])",
    re.I,
)
GROUP_EACH = _lazy(r"每一?(?:个|门|位|名|家|类|种|所|项|款|支|间|组)|各个|各(?!自|位)|组内"
                   r"|(?<![a-z_])(?:(?:in|within|for|of)\s+)?(?:each|every|per)(?![a-z_])", re.I)
ADJ_MEASURE = {"paid": "salary", "earning": "salary", "scoring": "score", "rated": "rating", "priced": "price", "selling": "sales", "grossing": "revenue"}
EN_N = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
ZH_N = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}


@operation
class RunningTotal(OpSpec):
    name = "running_total"
    label = {"zh": "累计值", "en": "running total"}
    words = {"zh": ("累计值", "累加"), "en": ("running total", "cumulative sum")}
    slots = (Slot("column", "column", "要累计哪一列？", "Running total of which column?", numeric=True, gap="running_column"),)
    saves_result = True

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        m = unquoted(RUNNING_RX, text)
        if m is None:
            return None
        nums = _cols(hits, sheet, [m.span()], numeric=True)
        keys, by_spans = _by_keys(text, hits, sheet, [m.span()])
        keys = [k for k in keys if k not in sheet.dates]  # 按日期累计: the order, not a grouping
        args: dict[str, Any] = {"column": nums[0].column if nums else None, "order_by": _date_column(hits, sheet)}
        if keys:
            args["by"] = keys
        return Found(m.start(), self.name, args, tuple([m.span(), *by_spans, *[(h.start, h.end) for h in hits]]))

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        if args.get("over_periods"):
            return _zh(lang, "按期间先后新增每期数值的累计值列", "a running total of each period's figure, periods in order")
        order = _zh(lang, f"按 {args['order_by']} 的先后", f"in order of {args['order_by']}") if args.get("order_by") else _zh(lang, "按表中顺序", "in table order")
        by = _zh(lang, f"，每个 {'、'.join(args['by'])} 分别累计", f", restarting per {', '.join(args['by'])}") if args.get("by") else ""
        return _zh(lang, f"{order}新增 {args.get('column')} 的累计值列{by}（{SOURCE_KEPT['zh']}）", f"add a running total of {args.get('column')} {order}{by}")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        if args.get("over_periods") and ctx.last_measure:  # running total by month: of each month's figure, months in order
            return [StepSpec("计算累计值", "running_total", "累计值已算出", {"column": ctx.last_measure})]
        a = {"column": args["column"], **({"order_by": args["order_by"]} if args.get("order_by") else {}), **({"by": args["by"]} if args.get("by") else {})}
        return [StepSpec("计算累计值", "running_total", "累计值已算出", a)]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "running_total":
            return None
        blanks = _zh(lang, f"（{facts['blanks_as_zero']} 个空值按 0 计）", f" ({facts['blanks_as_zero']} blanks counted as 0)") if facts["blanks_as_zero"] else ""
        return _zh(lang, f"已新增列 {facts['added']}，最后一行累计为 {num(facts['final'], lang)}{blanks}。",
                   f"Added {facts['added']}; the last running total is {num(facts['final'], lang)}{blanks}.")


@operation
class Rank(OpSpec):
    name = "rank"
    label = {"zh": "排名列", "en": "rank column"}
    words = {"zh": ("组内排名", "排名列"), "en": ("rank within",)}
    slots = (Slot("column", "column", "按哪一列的大小排名？", "Rank by which column?", numeric=True, gap="rank_column"),)
    saves_result = True

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        m = unquoted(RANK_RX, text)
        if m is None:
            return None
        keys, by_spans = _by_keys(text, hits, sheet, [m.span()])
        nums = _cols(hits, sheet, [m.span(), *by_spans], numeric=True)
        args: dict[str, Any] = {"column": nums[0].column if nums else None, "ascending": bool(re.search(r"从小到大|从低到高|升序|ascending", text, re.I)),
                                "method": "dense" if re.search(r"密集|不跳|dense", text, re.I) else "min"}
        if keys:
            args["by"] = keys
        return Found(m.start(), self.name, args, tuple([m.span(), *by_spans, *[(h.start, h.end) for h in hits]]))

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        by = _zh(lang, f"在每个 {'、'.join(args['by'])} 内", f"within each {', '.join(args['by'])}") if args.get("by") else ""
        order = _zh(lang, "小的排第 1" if args.get("ascending") else "大的排第 1", "smallest first" if args.get("ascending") else "largest first")
        return _zh(lang, f"{by}按 {args.get('column')} 新增排名列（{order}，并列同名次）", f"add a rank of {args.get('column')} {by} ({order}, ties share a rank)")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        a = {"column": args["column"], "ascending": bool(args.get("ascending")), "method": args.get("method", "min"), **({"by": args["by"]} if args.get("by") else {})}
        return [StepSpec("计算排名", "rank_rows", "排名已算出", a)]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "rank_rows":
            return None
        return _zh(lang, f"已新增列 {facts['added']}（{facts['rows_out']:,} 行）。", f"Added {facts['added']} ({facts['rows_out']:,} rows).")


# a ranking of people, not of rows (前10个人 / 最高的3位 / the 5 people / top 10 employees)
PEOPLE_RANKED = lazy(r"(?:个|位|名)\s*(?:人|员工|同事|职员)|\d\s*人|(?<![a-z_])(?:people|persons|employees|staff|workers|reps|agents|colleagues)(?![a-z_])",
                     re.I | re.A)
PERSON_NAME = lazy(r"(?:人|员|者|姓名|名字)$|(?<![a-z_])(?:name|employee|staff|person|agent|rep|owner|assignee|salesperson)(?![a-z_])", re.I | re.A)


def person_column(sheet: Any) -> str | None:
    """The one column naming people whose names repeat across rows (申请人, 销售员, employee); None when none or several."""
    cols = [c for c in sheet.columns if PERSON_NAME.search(c) and c not in sheet.numeric and c not in sheet.dates
            and (vals := sheet.values.get(c)) and sheet.rows > len(vals)]
    return cols[0] if len(cols) == 1 else None


@operation
class TopPerGroup(OpSpec):
    name = "top_per_group"
    family = "explore"
    label = {"zh": "组内前几名", "en": "top n per group"}
    words = {"zh": ("组内前", "每组前"), "en": ("top in each",)}
    slots = (Slot("column", "column", "按哪一列取前几名？", "Top by which column?", numeric=True, gap="top_column"),)
    saves_result = True

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        from modes.resolve import resolve_column

        m = PER_GROUP_TOP.search(text)
        if m is None:
            return self._rows_at_top(text, hits, sheet)
        raw_key = m.group("key") or m.group("key2")
        key = resolve_column(raw_key, sheet)[0] if raw_key else None
        what = resolve_column(m.group("what"), sheet, closest=False)[0] if m.group("what") and m.group("byc") else None
        if what is not None and what not in sheet.numeric and sheet.rows > len(sheet.values.get(what) or ()):
            return None  # top 2 products by amount in each store: each product's total, ranked in each store (never its rows)
        n_raw = m.group("n") or m.group("n2")
        n = int(n_raw) if n_raw.isdigit() else ZH_N.get(n_raw, 0)
        if not n or (raw_key and key is None):
            return None
        nums = [h.column for h in hits if h.column in sheet.numeric and h.column != key]
        low = bool(re.search(r"最低|最小|最少|lowest|smallest|bottom", m.group(0), re.I))
        args: dict[str, Any] = {"by": [key] if key else [], "column": nums[0] if nums else None, "n": n, "ascending": low}
        return Found(m.start(), self.name, args, (m.span(), *[(h.start, h.end) for h in hits]))

    def _rows_at_top(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        """每个科目成绩最高的1行 / 每个部门薪资最高的人 / each department's highest-paid person: rows, not a figure."""
        m = ROWS_AT_TOP.search(text)
        if m is None:
            return None
        each = [e for e in GROUP_EACH.finditer(text) if e.end() <= m.start() or e.start() >= m.end()]
        if not each:
            return self._top_rows(text, m, hits, sheet)
        keys = [h for e in each for h in hits if 0 <= h.start - e.end() <= 2 and h.column not in sheet.numeric]
        keys += [h for h in hits if h.column not in sheet.numeric and re.match(r"\s*(?:'s|’s)?\s", text[h.end :]) and any(0 <= h.start - e.end() <= 1 for e in each)]
        keys += [h for h in hits if re.match(r"\s*(?:内|里|中|之中)", text[h.end :]) and h.column not in sheet.numeric and any(0 <= h.start - e.end() <= 2 for e in each)]
        key = keys[0].column if keys else None
        adj = (m.group("adj") or "").casefold()
        nums = [h for h in hits if h.column in sheet.numeric and h.column != key]
        before = [h for h in nums if h.end <= m.start()]
        after = [h for h in nums if h.start >= m.end()]
        column = before[-1].column if before else after[0].column if after else None
        if column is None and m.group("mw"):  # 最高分是谁: the measure said inside the superlative
            column = resolve_column(m.group("mw"), sheet, numeric=True)[0]
        if column is None and adj:
            column = resolve_column(ADJ_MEASURE[adj], sheet, numeric=True)[0]
        n, low = self._n_low(m)
        args: dict[str, Any] = {"by": [key] if key else [], "column": column, "n": n, "ascending": low}
        spans = [m.span(), *[e.span() for e in each], *[(h.start, h.end) for h in hits]]
        return Found(min(m.start(), each[0].start()), self.name, args, tuple(spans))

    @staticmethod
    def _n_low(m: re.Match[str]) -> tuple[int, bool]:
        n_raw = m.group("n") or m.group("n2") or m.group("n3") or ""
        plural = re.fullmatch(r"people|persons|employees|rows|records|entries|students|workers|ones", (m.group("noun2") or "").casefold())
        n = int(n_raw) if n_raw.isdigit() else ZH_N.get(n_raw, EN_N.get(n_raw.casefold(), 10 if plural else 1))  # the top paid people: as top N
        low = bool(re.match(r"最(?:低|小|少|便宜|早)|lowest|smallest|bottom", m.group("d") or m.group("d2") or m.group("d3") or "", re.I))
        return max(n, 1), low

    def _top_rows(self, text: str, m: re.Match[str], hits: list[Any], sheet: Any) -> Found | None:
        """薪资最高的员工是谁 / 分数最高的1行 / the 3 rows with the lowest Cost, with no group: the top rows of the table."""
        nums = [h for h in hits if h.column in sheet.numeric]
        before = [h for h in nums if h.end <= m.start() and not text[h.end : m.start()].strip(" 的")]
        after = [h for h in nums if h.start >= m.end() and not text[m.end() : h.start].strip()]
        col = before[-1] if before else after[0] if after else None
        adj = (m.group("adj") or "").casefold()
        by = col.column if col is not None else resolve_column(ADJ_MEASURE[adj], sheet, numeric=True)[0] if adj else None
        if by is None:
            return None
        n, low = self._n_low(m)
        spans = (m.span(), (col.start, col.end)) if col is not None else (m.span(),)
        who: dict[str, Any] = {"question": True} if re.search(r"谁|哪|(?<![a-z_])(?:who|which)(?![a-z_])", text, re.I) else {}  # answered with the row
        person = person_column(sheet) if n > 1 and PEOPLE_RANKED.search(text, max(0, m.start() - 2), m.end() + 6) else None
        if person is not None:  # 最高的3个人 where one person has many rows: the rows are ranked, and that is said first
            who["doubts"] = [("slot", f"按行取 {by} 最高的 {n} 行，同一个 {person} 可能出现多次；要按每人合计排名，请说“按 {person} 汇总 {by} 取前 {n}”",
                              f"the {n} rows with the highest {by}; one {person} may appear more than once — for each one's total, "
                              f"say 'total {by} by {person}, top {n}'")]
        return Found(min(m.start(), col.start) if col is not None else m.start(), "top_n", {"n": n, "by": by, "ascending": low, **who}, spans)

    def gaps(self, args: dict[str, Any]) -> list[str]:
        return (["group_by"] if not args.get("by") else []) + (["top_column"] if not args.get("column") else [])

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        word = _zh(lang, "最低" if args.get("ascending") else "最高", "lowest" if args.get("ascending") else "highest")
        return _zh(lang, f"在每个 {'、'.join(args.get('by') or [])} 内取 {args.get('column')} {word}的 {args['n']} 行",
                   f"the {'row' if args['n'] == 1 else str(args['n']) + ' rows'} with the {word} {args.get('column')} within each {', '.join(args.get('by') or [])}")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("每组取前几名", "top_n_per_group", "已取出", {"by": args["by"], "column": args["column"], "n": args["n"], "ascending": bool(args.get("ascending"))})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "top_n_per_group":
            return None
        own = _zh(lang, f"表中自带的合计行（{facts['skipped_totals']} 行）不是一行数据，没有算进去。",
                  f" The table's own total row ({facts['skipped_totals']}) is not a row of the data and was left out.") if facts.get("skipped_totals") else ""
        return _zh(lang, f"{facts['groups']} 组，每组取 {facts['n']} 行，共 {facts['rows_out']:,} 行（来自 {facts['rows_in']:,} 行）。",
                   f"{facts['groups']} groups, {facts['n']} rows each: {facts['rows_out']:,} rows (of {facts['rows_in']:,}).") + own


# ---------------------------------------------------------------- above / below the average of one's own group

GROUP_AVG = _lazy(
    r"(?P<d>高于|低于|超过|大于|小于|不低于|不高于)\s*(?:其|所在|本|各自|同一?|自己)\s*(?P<key>[^\s,，的]{1,12}?)\s*(?:的|内|里)?\s*(?:的)?\s*(?P<agg>平均值|平均数|平均|均值|中位数)"
    r"|(?P<d2>above|below)\s+(?:the\s+)?(?P<agg2>average|mean|median)\s+(?:of|for|in)\s+(?:its|their)\s+(?P<key2>[\w\u4e00-\u9fff]+)",
    re.I,
)


OVERALL_MEDIAN = _lazy(r"(?P<d>高于|低于|超过|大于|小于|不低于|不高于)\s*(?:整体|全体|总体|全部)?\s*(?:的)?\s*(?P<agg>中位数|中值)"
                       r"|(?P<d2>above|below)\s+(?:the\s+)?(?P<agg2>median)", re.I)


@operation
class AboveGroupAverage(OpSpec):
    name = "above_group_average"
    family = "explore"
    label = {"zh": "与组内平均比较", "en": "compare with the group average"}
    words = {"zh": ("所在",), "en": ("its own",)}
    slots = (Slot("column", "column", "比较哪一列的数值？", "Compare which numeric column?", numeric=True, gap="compare_column"),)
    saves_result = True

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        from modes.resolve import resolve_column

        m = GROUP_AVG.search(text) or OVERALL_MEDIAN.search(text)
        if m is None:
            return None
        raw = m.groupdict().get("key") or m.groupdict().get("key2")
        key = resolve_column(raw, sheet)[0] if raw else None
        if raw and (key is None or key in sheet.numeric):
            return None
        nums = [h.column for h in hits if h.column in sheet.numeric and h.end <= m.start() + 1] or [h.column for h in hits if h.column in sheet.numeric]
        d = (m.group("d") or m.group("d2") or "").casefold()
        direction = {"高于": "above", "超过": "above", "大于": "above", "above": "above", "低于": "below", "小于": "below", "below": "below",
                     "不低于": "at_least", "不高于": "at_most"}[d]
        agg = "median" if "中位" in m.group(0) or "median" in m.group(0).casefold() else "mean"
        args = {"column": nums[-1] if nums else None, "by": [key] if key else [], "direction": direction, "agg": agg}
        return Found(m.start(), self.name, args, (m.span(), *[(h.start, h.end) for h in hits]))

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        word = {"above": "高于", "below": "低于", "at_least": "不低于", "at_most": "不高于"}[args["direction"]]
        agg = "平均值" if args["agg"] == "mean" else "中位数"
        if not args["by"]:
            return _zh(lang, f"找出 {args.get('column')} {word}整体{agg}的行", f"rows whose {args.get('column')} is {args['direction'].replace('_', ' ')} the overall {args['agg']}")
        return _zh(lang, f"找出 {args.get('column')} {word}所在 {'、'.join(args['by'])} {agg}的行",
                   f"rows whose {args.get('column')} is {args['direction'].replace('_', ' ')} the {args['agg']} of their {', '.join(args['by'])}")

    def stem_label(self, args: dict[str, Any]) -> str:
        side = "高于" if args["direction"] in ("above", "at_least") else "低于"
        return f"{side}{'组内' if args['by'] else ''}{'平均' if args['agg'] == 'mean' else '中位数'}"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("与组内平均比较", "compare_to_aggregate", "比较完成",
                         {"column": args["column"], "direction": args["direction"], "agg": args["agg"], "by": args["by"]})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "compare_to_aggregate":
            return None
        word = _zh(lang, {"above": "高于", "below": "低于", "at_least": "不低于", "at_most": "不高于"}[facts["direction"]], facts["direction"].replace("_", " "))
        if not facts["by"]:
            return _zh(lang, f"{facts['column']} 的{'平均值' if facts['agg'] == 'mean' else '中位数'}是 {num(facts['reference'], lang)}，{word}它的有 {facts['rows_out']:,} 行（共 {facts['rows_in']:,} 行）。",
                       f"The {facts['agg']} of {facts['column']} is {num(facts['reference'], lang)}; {facts['rows_out']:,} of {facts['rows_in']:,} rows are {word} it.")
        return _zh(lang, f"{facts['column']} {word}所在 {'、'.join(facts['by'])} {'平均值' if facts['agg'] == 'mean' else '中位数'}的有 {facts['rows_out']:,} 行（共 {facts['rows_in']:,} 行）。",
                   f"{facts['rows_out']:,} of {facts['rows_in']:,} rows have {facts['column']} {word} their {', '.join(facts['by'])}'s {facts['agg']}.")


# ---------------------------------------------------------------- one value of a column against another on a measure

GAP_CUE = _lazy(r"(?:比|较)[^,，。;；?？!！]{0,30}?(?:高|多|低|少|大|小|贵|便宜|长|短|快|慢|强|差)(?:出|了)?\s*(?:多少|几|百分之几)"
                r"|(?:相差|差距|差值|差额|差了)(?:是|有|为)?\s*(?:多少|多大|几)|(?<![极误偏方])差(?:多少|几)|是[^,，。;；?？!！]{1,30}?的(?:几|多少)倍"
                r"|(?<![a-z_])(?:how much (?:higher|more|lower|less|greater|larger|bigger|smaller)|by how much|how many (?:more|fewer)|how many times"
                r"|(?:difference|gap) (?:in|of|between))(?![a-z_])", re.I)
GAP_LINK = _lazy(r"(?<![a-z_])(?:than|and|between|versus|vs\.?|compared (?:with|to)|of|is|was|are|were|does|did|the|has|have|where|whose|for|in|among"
                 r"|higher|larger|bigger|greater|more|lower|smaller|less|fewer|as)(?![a-z_])|比|与|和|跟|同|的|相比|之间", re.I)
GAP_SUM = _lazy(r"总|合计|总和|一共|总计|(?<![a-z_])(?:total|sum)(?![a-z_])", re.I)
GAP_MEDIAN = _lazy(r"中位数|中值|(?<![a-z_])median(?![a-z_])", re.I)
PERIOD_WORD = _lazy(r"去年|今年|上月|本月|上季度|同期|环比|同比|(?<![a-z_])(?:last|this|previous) (?:year|month|quarter)(?![a-z_])", re.I)


def _inside_own_value(text: str, hit: Any, sheet: Any) -> bool:
    """车间 inside 一车间: a column's name written as part of one of its own values is that value, not the column."""
    low = text.casefold()
    for _v, col, vl in sheet.nameable_values:
        if col == hit.column and len(vl) > hit.end - hit.start:
            if any(m.start() <= hit.start and hit.end <= m.end() for m in re.finditer(re.escape(vl), low)):
                return True
    return False


def _named_values(text: str, sheet: Any, taken: list[tuple[int, int]]) -> dict[str, list[tuple[str, tuple[int, int]]]]:
    """The data's own values written in the text, per column, in the order written (longest value first where two overlap)."""
    low = text.casefold()
    spans = list(taken)
    out: dict[str, list[tuple[str, tuple[int, int]]]] = {}
    for v, col, vl in sheet.nameable_values:
        if col in sheet.numeric:
            continue
        for m in re.finditer(re.escape(vl), low):
            a, b = m.span()
            if vl.isascii() and (re.match(r"[a-z0-9]", low[b : b + 1]) or (a and re.match(r"[a-z0-9]", low[a - 1]))):
                continue
            if _free(spans, a, b):
                out.setdefault(col, []).append((v, (a, b)))
                spans.append((a, b))
    for v, col in sheet.value_pairs:  # 男生 / 女性 / 为男的: a one-character value said as a word of its own
        if len(v) == 1 and "\u4e00" <= v <= "\u9fff" and col not in sheet.numeric and len(sheet.values.get(col, ())) <= 4:
            for m in re.finditer(rf"(?<=[为是]){re.escape(v)}|{re.escape(v)}(?=[生性士子孩方队组人员的])", text):
                if _free(spans, *m.span()):
                    out.setdefault(col, []).append((v, m.span()))
                    spans.append(m.span())
    return {c: sorted(vs, key=lambda x: x[1][0]) for c, vs in out.items()}


@operation
class ValueGap(OpSpec):
    """北京的得分比上海高多少 / how much higher is the score of A than B: each value's figure and their difference,
    never one figure pooled over both."""

    name = "value_gap"
    family = "explore"
    label = {"zh": "两个值之差", "en": "difference between two values"}
    words = {"zh": ("高多少", "相差多少"), "en": ("how much higher",)}
    slots = (Slot("levels", "text", "要比较哪两个值？（例如 城市 列的 北京 和 上海）", "Compare which two values? (e.g. Beijing and Shanghai of the city column)", gap="gap_values"),
             Slot("column", "column", "比较哪一列的数值？", "Compare which numeric column?", numeric=True, gap="gap_column"))
    answers_question = True
    main_slot = "column"

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        cue = unquoted(GAP_CUE, text)
        if cue is None or sheet is None:
            return None
        named = _named_values(text, sheet, [(h.start, h.end) for h in hits if not _inside_own_value(text, h, sheet)])
        pairs = [(c, vs) for c, vs in named.items() if len({v for v, _ in vs}) >= 2]
        nums = [h for h in hits if h.column in sheet.numeric and all(_free([sp], h.start, h.end) for vs in named.values() for _, sp in vs)]
        if not pairs and (len({h.column for h in nums}) >= 2 or PERIOD_WORD.search(text) or sheet.dates or not cue.group(0).startswith(("比", "较"))):
            return None  # 男性人数比女性人数多多少 compares columns; 比去年高多少 compares periods: other readings
        args: dict[str, Any] = {}
        spans = [cue.span()]
        if pairs:
            col, vs = min(pairs, key=lambda p: abs(p[1][0][1][0] - cue.start()))
            levels = list(dict.fromkeys(v for v, _ in vs))[:2]
            args.update(group=col, levels=levels)
            spans += [sp for v, sp in vs if v in levels] + [(h.start, h.end) for h in hits if h.column == col]  # 性别为男…女的: the column too
            spans += [x.span() for _, sp in vs for x in re.finditer(r"(?:为|是|等于|(?<![a-z_])(?:is|=)(?![a-z_]))\s*$", text[: sp[0]])]
        measures = list(dict.fromkeys(h.column for h in nums if h.column != args.get("group")))
        if len(measures) == 1:
            args["column"] = measures[0]
            spans += [(h.start, h.end) for h in nums]
        agg_m = MEAN_WORDS.search(text) or GAP_MEDIAN.search(text) or GAP_SUM.search(text)
        args["agg"] = "mean" if agg_m is None or MEAN_WORDS.search(text) else "median" if GAP_MEDIAN.search(text) else "sum"
        if agg_m is not None:
            spans.append(agg_m.span())
        elif args.get("group") and sheet.rows > len(sheet.values.get(args["group"], ())):  # several rows per value: which figure is not said
            args["doubts"] = [("slot", f"{args['group']} 的每个值有多行：按各自的平均值比较", f"{args['group']} has several rows per value: their means are compared")]
        elif args.get("group"):
            args["one_row"] = True  # one row per value: the figures are the values themselves
        times = [m.span() for m in re.finditer(r"几倍|多少倍|(?<![a-z_])times(?![a-z_])", text, re.I)]
        if times:  # 是上海的几倍 / how many times as high: the ratio is said too
            args["times"] = True
            spans += times
        spans += [m.span() for m in GAP_LINK.finditer(text)]
        return Found(cue.start(), self.name, args, tuple(spans))

    def gaps(self, args: dict[str, Any]) -> list[str]:
        return (["gap_values"] if not args.get("levels") else []) + (["gap_column"] if not args.get("column") else [])

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        a, b = (args.get("levels") or ["?", "?"])[:2]
        agg = {"mean": ("平均", "mean"), "sum": ("合计", "total"), "median": ("中位数", "median")}[args.get("agg", "mean")]
        col = args.get("column") or "?"
        how = ("", "") if args.get("one_row") else (f"（{agg[0]}）", f"{agg[1]} ")
        times = _zh(lang, f"及 {a} 是 {b} 的几倍", f" and the ratio {a} ÷ {b}") if args.get("times") else ""
        return _zh(lang, f"分别计算 {args.get('group', '?')} 为 {a} 和 {b} 的 {col}{how[0]}，再算两者之差（{a} − {b}）{times}",
                   f"the {how[1]}{col} of {a} and of {b} ({args.get('group', '?')}), and their difference ({a} − {b}){times}")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "差值"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("分别计算两个值并求差", "value_gap", "差值已算出",
                         {"column": args["column"], "group": args["group"], "levels": args["levels"], "agg": args.get("agg", "mean"),
                          **({"times": True} if args.get("times") else {})})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "value_gap":
            return None
        a, b, d, col = facts["a"], facts["b"], facts["diff"], facts["column"]
        agg = {"mean": ("平均", "mean"), "sum": ("合计", "total"), "median": ("中位数", "median"), "max": ("最大", "max"), "min": ("最小", "min")}[facts["agg"]]
        one = facts["rows_a"] == 1 and facts["rows_b"] == 1
        how = "" if one else _zh(lang, f"（{agg[0]}，{a} {facts['rows_a']} 行、{b} {facts['rows_b']} 行）", f" ({agg[1]}; {facts['rows_a']} and {facts['rows_b']} rows)")
        figs = _zh(lang, f"{a} 的 {col} 为 {num(facts['value_a'], lang)}，{b} 为 {num(facts['value_b'], lang)}{how}",
                   f"{col} of {a}: {num(facts['value_a'], lang)}; of {b}: {num(facts['value_b'], lang)}{how}")
        if d is None:
            return figs + _zh(lang, "；其中一个没有数值，无法求差。", "; one of them has no figure, so no difference.")
        rel = "" if facts["gap_pct"] is None else _zh(lang, f"（{facts['gap_pct']}%）", f" ({facts['gap_pct']}%)")
        if d == 0:
            gap = _zh(lang, "两者相同", "they are equal")
        else:
            gap = _zh(lang, f"{a} 比 {b} {'高' if d > 0 else '低'} {num(facts['gap'], lang)}{rel}", f"{a} is {num(facts['gap'], lang)}{rel} {'higher' if d > 0 else 'lower'} than {b}")
        if facts.get("times") and facts.get("ratio") is not None:
            gap += _zh(lang, f"，{a} 是 {b} 的 {num(facts['ratio'], lang)} 倍", f"; {a} is {num(facts['ratio'], lang)} times {b}")
        return _zh(lang, f"{figs}；{gap}。", f"{figs}; {gap}.")


# ---------------------------------------------------------------- where two columns' shares of their sum differ most

PAIR_GAP_ZH = _lazy(r"\s*(?:的|之间的?)?\s*(?:比例|比率|占比|比重|构成)\s*(?:的)?\s*(?:差异|差距|差别|差值|相差|差)\s*(?:是)?\s*(?P<d>最大|最小|最高|最低|最悬殊|最明显)")
PAIR_GAP_EN = _lazy(r"(?P<d>largest|biggest|greatest|widest|smallest|least)\s+(?:difference|gap)\s+between\s+(?:the\s+)?(?:shares?|proportions?|percentages?|ratios?)"
                    r"\s+of\s+$", re.I)


@operation
class ShareGap(OpSpec):
    """哪种类别中男性和女性的比例差异最大 / which category has the largest gap between the shares of A and B: each row's
    A and B as shares of A + B, and the row(s) where they differ most."""

    name = "share_gap"
    family = "explore"
    label = {"zh": "两列占比之差", "en": "gap between two columns' shares"}
    words = {"zh": ("比例差异最大",), "en": ("largest difference between the shares",)}
    answers_question = True
    precedence = 1  # its 比例 is the two columns' shares, not a share of a total

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        from modes.ops import JOINED, _id_like

        nums = [h for h in hits if h.column in sheet.numeric]
        for a, b in zip(nums, nums[1:], strict=False):
            if a.column == b.column or not JOINED.fullmatch(text[a.end : b.start]):
                continue
            zh = PAIR_GAP_ZH.match(text, b.end)
            en = PAIR_GAP_EN.search(text, 0, a.start)
            if zh is None and (en is None or en.end() != a.start):
                continue
            cue = zh or en
            assert cue is not None
            low = re.match(r"最小|最低|smallest|least", cue.group("d"), re.I) is not None
            texts = [c for c in sheet.columns if c not in sheet.numeric and c not in sheet.dates and not _id_like(c, sheet) and not ID_NAME.search(c)]
            named = [h for h in hits if h.column in texts]
            label = (named[0].column if named else texts[0]) if (named or texts) else None
            spans = [cue.span(), (a.start, b.end), *[(h.start, h.end) for h in named], *[x.span() for x in WHICH_ROW.finditer(text)]]
            spans += [x.span() for x in re.finditer(r"(?<![a-z_])(?:which|has|have|the|in|of)(?![a-z_])|中|里|在", text, re.I)]
            args = {"a": a.column, "b": b.column, "label": label, "which": "min" if low else "max"}
            return Found(min(cue.start(), a.start), self.name, args, tuple(spans))
        return None

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        a, b, lab = args["a"], args["b"], args.get("label") or _zh(lang, "行", "row")
        end = _zh(lang, "最大" if args["which"] == "max" else "最小", "most" if args["which"] == "max" else "least")
        return _zh(lang, f"逐行计算 {a} 和 {b} 各占两者之和的比例（{a} ÷ ({a} + {b})），找出两者相差{end}的 {lab}",
                   f"row by row, {a} and {b} as shares of their sum ({a} ÷ ({a} + {b})), and the {lab} where they differ {end}")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "占比差异"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        a = {k: args[k] for k in ("a", "b", "label", "which") if args.get(k)}
        return [StepSpec("计算两列占比之差", "share_gap", "占比差已算出", a)]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "share_gap" or not facts["extreme"]:
            return None if tool != "share_gap" else _zh(lang, f"没有一行的 {facts['a']} 与 {facts['b']} 之和大于 0，无法计算占比。",
                                                          f"No row has a positive {facts['a']} + {facts['b']}; no shares.")
        a, b = facts["a"], facts["b"]

        def said(r: dict[str, Any]) -> str:
            return _zh(lang, f"{r['label']}（{a} {num(r['a'])}，{b} {num(r['b'])}；分别占 {r['share_a']}% 和 {r['share_b']}%，相差 {r['gap']} 个百分点）",
                       f"{r['label']} ({a} {num(r['a'], lang)}, {b} {num(r['b'], lang)}: {r['share_a']}% vs {r['share_b']}%, {r['gap']} points apart)")

        end = _zh(lang, "最大" if facts["which"] == "max" else "最小", "largest" if facts["which"] == "max" else "smallest")
        rows = facts["extreme"]
        ties = _zh(lang, f"（共 {facts['tied']} 行并列，列出前 {len(rows)} 行）", f" ({facts['tied']} rows tie; the first {len(rows)} shown)") if facts["tied"] > len(rows) else ""
        skip = _zh(lang, f"{facts['no_share']} 行两者之和为 0 或空，未计算。", f" {facts['no_share']} rows with no {a} + {b} were left out.") if facts["no_share"] else ""
        summed = _zh(lang, f"（每个 {facts['label']} 的多行先相加）", f" (each {facts['label']}'s rows added up first)") if facts.get("summed") else ""
        return _zh(lang, f"{a} 与 {b} 占比相差{end}的是{summed}：{'；'.join(said(r) for r in rows)}{ties}。{skip}",
                   f"The {end} gap between the shares of {a} and {b}{summed}: {'; '.join(said(r) for r in rows)}{ties}.{skip}")


# ---------------------------------------------------------------- two or more columns as shares of their sum

COLUMN_SHARES_ZH = _lazy(r"\s*(?:的|之间的?|两者的?)?\s*(?:比例|占比|比重|构成)\s*(?:各|分别)?\s*(?:是|为|占)?\s*(?:多少|几何)?(?!\s*(?:的)?\s*(?:差|相差))")
COLUMN_SHARES_EN = _lazy(r"(?<![a-z_])(?:shares?|proportions?|percentages?|split)\s+(?:of|between)\s+(?:the\s+)?$", re.I)


@operation
class ColumnShares(OpSpec):
    """达到19至21分的候选人中男性与女性的比例各是多少 / the shares of A and B: each column's total as a share of the
    columns' combined total (over the rows a condition keeps), and their ratio."""

    name = "column_shares"
    family = "explore"
    label = {"zh": "几列各占的比例", "en": "shares of columns"}
    words = {"zh": ("比例各是多少",), "en": ("shares of",)}
    answers_question = True
    precedence = 1  # its 比例 is the named columns' shares of their sum, not a share of a total per group

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        from modes.ops import JOINED

        nums = [h for h in hits if h.column in sheet.numeric]
        for i, a in enumerate(nums):
            chain = [a]
            for b in nums[i + 1 :]:
                if b.column in {c.column for c in chain} or not JOINED.fullmatch(text[chain[-1].end : b.start]):
                    break
                chain.append(b)
            if len(chain) < 2:
                continue
            zh = COLUMN_SHARES_ZH.match(text, chain[-1].end)
            en = COLUMN_SHARES_EN.search(text, 0, a.start)
            cue = zh if zh is not None and zh.group(0).strip() else en if en is not None and en.end() == a.start else None
            if cue is None or _by_keys(text, hits, sheet, [])[0] or re.search(r"每|各(?!是|占|为)|(?<![a-z_])(?:by|per|each)(?![a-z_])", text[: a.start]):
                continue  # 各区域销售额和利润的占比: shares per group, another reading
            spans = [cue.span(), (a.start, chain[-1].end), *[m.span() for m in re.finditer(r"(?<![a-z_])(?:what|are|is|the|and)(?![a-z_])|各是|分别", text, re.I)]]
            return Found(min(cue.start(), a.start), self.name, {"columns": [h.column for h in chain]}, tuple(spans))
        return None

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        cols = args["columns"]
        return _zh(lang, f"分别合计 {'、'.join(cols)}，计算各占它们总和的比例（以及 {cols[0]} 与 {cols[1]} 之比）",
                   f"the totals of {', '.join(cols)}, each as a share of their sum (and the ratio {cols[0]} : {cols[1]})")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "各列占比"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("计算各列占比", "column_shares", "占比已算出", {"columns": args["columns"]})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "column_shares":
            return None
        parts = [_zh(lang, f"{s['column']} 合计 {num(s['total'], lang)}，占 {pct(s['pct'] / 100)}", f"{s['column']} {num(s['total'], lang)} ({pct(s['pct'] / 100)})")
                 for s in facts["shares"]]
        cols = facts["columns"]
        ratio = _zh(lang, f"；{cols[0]} : {cols[1]} = {num(facts['ratio'], lang)} : 1", f"; {cols[0]} : {cols[1]} = {num(facts['ratio'], lang)} : 1") if facts.get("ratio") is not None else ""
        return _zh(lang, f"共 {facts['rows_in']:,} 行：{'；'.join(parts)}{ratio}。", f"Over {facts['rows_in']:,} rows: {'; '.join(parts)}{ratio}.")
