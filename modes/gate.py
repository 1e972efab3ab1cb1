"""The clarification gate: decide(state, utterance, catalog) -> (Decision, new state). Pure: nothing runs here."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from typing import Any

from modes import crosslang, evidence, joins, opspec, replies, results
from modes import lexicon as lx
from modes.catalog import Catalog, FileInfo, SheetInfo
from modes.conditions import (
    ANY_OP,
    DATE_NAME_TAIL,
    MONTHS_EN,
    Cond,
    flag_yes,
    parse_conditions,
    verbs_of_date,
)
from modes.decision import RESTATE_BELOW, Decision, Evidence, Op, Pending, Request, SessionState, chained
from modes.evidence import Gap
from modes.lazyre import lazy
from modes.ops import (
    ASC,
    CLAUSE_END,
    DESC,
    JOIN_CLAUSE_END,
    JOIN_ONLY,
    PER_KEY_SAID,
    ROW_NOUNS_EN,
    VALUE_NOT,
    TurnOps,
    _blank,
    parse_turn,
    statistic_of_next,
)
from modes.resolve import (
    DISTINCT_SHEET,
    ColumnHit,
    FileRef,
    _distinct_sheet,
    find_columns,
    find_files,
    find_sheet,
    find_values,
    name_pattern,
    resolve_column,
    sheet_stems,
    with_sheet_words,
)
from modes.table import select_mode
from modes.text import blank, language, normalize, parse_number

WEAK_KINDS = {"profile", "export"}
DOUBT = -0.45  # the weight of a reading the request itself is unsure of (a year assumed, a workbook's first sheet joined)
CJK_CHARS = lazy(r"[\u4e00-\u9fff]")
FUNCTION_WORDS = set(
    "how many rows row columns column sort it by export to as csv excel xlsx the an of show me preview and then now what about "
    "please filter where top first last desc asc descending ascending count sum total average mean dedupe duplicates remove drop "
    "save convert open view list again too also this that one file table sheet is are there any do can you".split()
)
HOLD = lazy(r"^\s*(?:等一下|等等|等会|稍等|先别|先不要|先不|别急|(?<![a-z_])(?:wait|hold on|not yet|don'?t yet)(?![a-z_]))", re.I | re.A)
FILE_SWAP = lazy(r"不是\s*(?P<old>[^,，。]{1,20}?)\s*[,，]?\s*(?:而)?是\s*(?P<new>[^,，。]{1,30})|not\s+(?P<old2>\S+)\s*,?\s*(?:but\s+)?(?P<new2>\S+)\s*$"
                 # 不对，是成绩.xlsx的高三表，按分数排: the file said after a rejection, with what else the turn says
                 r"|^\s*(?:不对|错了|搞错了|不是这个|不是)\s*[,，]?\s*(?:而)?(?:是|用|要用|换成|应该是)\s*(?P<new3>[^。]{1,80})$"
                 # 不是产品表，烘焙订单2024.xlsx的7月，按产品名: the file rejected, then the file meant and what else the turn says
                 r"|^\s*不是\s*(?P<old5>[^,，。]{1,20}?)\s*[,，]\s*(?P<new5>[^。]{1,80})$"
                 # redo that with customers_deduped.csv instead: the same request on that file
                 r"|(?<![a-z_])(?:with|using|on|from)\s+(?P<new4>[\w\-.\u4e00-\u9fff]{1,60}?\.(?:csv|xlsx|xls))\s+instead(?![a-z_])", re.I | re.A)
ADDITIVE = lx.ADDITIVE
FOLLOW_UP = lazy(r"^\s*(?:再|然后|接着|还要|还有|顺便|另外|那就|那|并且|也)|呢\s*[?]?\s*$|表头|标题行|列名|header|(?<![a-z_])(?:also|then|and now|now|next|what about|how about)(?![a-z_])", re.I | re.A)
EMPTY_SHEET = SheetInfo(None, ())


# ---------------------------------------------------------------- small talk, confirmation, cancel


ABOUT_KINDS = (
    ("safety", lazy(r"改掉|改动|覆盖|删掉|删除|原文件|overwrite|modify|change my|delete", re.I | re.A)),
    ("privacy", lazy(r"联网|上传|隐私|泄露|发到|网上|离线|online|upload|privacy|private|sent|send|internet|offline|cloud", re.I | re.A)),
    ("formats", lazy(r"格式|xlsx?|csv|wps|ods|format", re.I | re.A)),
)


FORMULA_GIVEN = lazy(r"(?:公式|formula)\s*(?:为|是|is|:|：)\s*[:：]?[^。；;?？]*?[\w\u4e00-\u9fff)）]\s*[-+*/×÷]\s*[\w\u4e00-\u9fff(（]", re.I)  # a formula written out is a request


def data_words(catalog: Catalog | None) -> Callable[[str], set[str]]:
    """The casefolded cell values and column names of the tables a text touches: words that are data, never chat."""
    def words(text: str) -> set[str]:
        if catalog is None:
            return set()
        return {w.casefold() for f in catalog.tables_touching(text) for s in f.sheets for w in (*s.columns, *(v for vs in s.values.values() for v in vs))}
    return words


# words that ask for something (帮我 / 能不能 / please / can you / I need): a sentence with one is a request, whatever it tells
ASKING = lazy(r"帮|请|麻烦|(?<![发交传拿寄递送])给我|我要|我想|想要|需要|能不能|能否|可不可以|可以吗|吗\s*[?？]?\s*$|[?？]\s*$|"
              r"(?<![a-z_])(?:please|pls|can you|could you|would you|i need|i want|i'?d like|let'?s|show me|give me)(?![a-z_])", re.I | re.A)


# a question that asks for a figure or for which rows: a preview of the table is no answer to it
ASKS_A_FIGURE = lazy(r"多少|几个|几种|几条|几次|几位|哪些|哪个|哪几|谁|是否|有没有|最高|最低|最多|最少|平均|总数|总和|合计|总计|总额|一共|"
                     r"(?<![a-z_])(?:how many|how much|which|who|what is the|what's the|what are the|whether|is there|are there|highest|lowest|average|total)(?![a-z_])",
                     re.I | re.A)


def told_not_asked(text: str) -> bool:
    """Every operation word of the text lies inside a telling of what happened to the file (是教务处导出的, gets exported
    from our billing system), and nothing asks: the sentence tells, it does not request."""
    told = [m.span() for m in lx.DESCRIBED.finditer(text)]
    if not told or ASKING.search(text):
        return False
    return evidence.operative().search(blank(text, told)) is None


# a greeting with who is speaking: 你好，我是…的小王 / hi, I'm the new analyst
INTRO = lazy(r"^\s*(?:(?:你好|您好|嗨|哈喽|hi|hello|hey)[\s,，!！.~]*)?(?:我是(?!说|问|要|指|想)|我叫|本人是|(?<![a-z_])(?:i'?m|i am|my name is|this is)\s+(?:the |a |an |new |from )?)", re.I)  # (我是说…: a correction)


# two kinds of an operation set against each other, as a question of what they are (never of the data's values)
CONCEPT_GAP = lazy(r"(?:左|右|内|外|全)连接\s*(?:和|与|跟)\s*(?:左|右|内|外|全)连接\s*(?:有)?(?:什么|啥)区别|"
                   r"(?<![a-z_])(?:what'?s|what is) the difference between an? (?:left|right|inner|outer|full|cross) join and an? (?:left|right|inner|outer|full|cross) join(?![a-z_])", re.I)


def data_named(text: str, catalog: Catalog | None) -> bool:
    """Whether the text names a file of the workspace."""
    return catalog is not None and find_files(text, catalog).how in ("named", "fuzzy")


def chat_kind(text: str, catalog: Catalog | None = None) -> str | None:
    if lx.about_me(text, data_words(catalog)):
        return next((k for k, rx in ABOUT_KINDS if rx.search(text)), "about")
    if lx.GREETING.match(text.strip()) or (len(re.sub(r"\W", "", text)) <= 8 and re.search(r"你好|您好|hello|(?<![a-z_])hi(?![a-z_])", text, re.I | re.A)):
        return "greeting"
    if INTRO.search(text) and not re.search(r"\.(?:csv|xlsx|xls|xlsm|tsv|ods)\b", text, re.I) \
            and not any(rx.search(text) for rx in (lx.FILTER, lx.GROUP, lx.SORT, lx.SELECT, lx.EXPORT, lx.TOP_N)):
        return "greeting"  # 你好，我是物业公司的小王，今天要弄几个表 / hi, I'm the new analyst here: who they are, no request yet
    if lx.HOWTO.search(text) and re.search(r"excel|wps|表格|公式|函数|vlookup|透视|pivot|formula|sheet", text, re.I) and not FORMULA_GIVEN.search(text):
        return "howto"
    if CONCEPT_GAP.search(text) and not data_named(text, catalog):
        return "join_kinds"  # 左连接和内连接有什么区别 / what's the difference between a left join and an inner join: a concept, no data
    if lx.FAREWELL.search(text):
        return "farewell"
    if lx.THANKS.search(text):
        return "thanks"
    vent = lx.VENTING.search(text)
    asks = lx.FILTER.search(text) or lx.SELECT.search(text) or lx.GROUP.search(text)
    if vent and not (asks and any(vent.group(0).casefold() in w for w in data_words(catalog)(text))):
        return "venting"  # 只看加班的 over a column 是否加班 is about the data
    return None


def _variants(word: str) -> list[str]:
    """A word and the word without its trailing particles, one at a time (算了吧 -> 算了, 算)."""
    out = [word]
    while word and word[-1] in "吧啊呀啦了哈吗嘛哦噢喔呗嗯的~!.,;? ":
        word = word[:-1]
        out.append(word)
    return out


def _only(text: str, words: tuple[str, ...]) -> bool:
    parts = [p for p in re.split(r"[,;!?。，！？、\s]+", text.casefold().strip()) if p]
    if text.casefold().strip() in words:
        return True
    return bool(parts) and all(any(v in words for v in _variants(p)) for p in parts)


def is_confirm(text: str) -> bool:
    return _only(text, lx.CONFIRM_WORDS) or _only(text.replace(" ", ""), lx.CONFIRM_WORDS)


def is_cancel(text: str) -> bool:
    parts = [p for p in re.split(r"[,;!?。，！？、\s]+", text.casefold()) if p]
    if _only(CANCEL_LEAD.sub("", text), lx.CANCEL_WORDS) and any(p not in ("no", "别", "不要") for p in parts):
        return True
    # hmm ok we don't track that. cancel / 那算了，取消吧: the last sentence alone says to cancel
    last = CANCEL_LAST.search(text)
    said = CANCEL_LEAD.sub("", last.group("c")) if last is not None else ""  # 那算了 / 没有就算了: the cancel word after 那 / 就
    return last is not None and _only(said, lx.CANCEL_WORDS) and said.casefold().strip() not in ("no", "别", "不要", "wait", "等等")


CANCEL_LEAD = lazy(r"^\s*(?:那就|那|没有就|没有的话就|不行就|就)\s*")
CANCEL_LAST = lazy(r"[.。!！;；,，]\s*(?P<c>[^.。!！;；,，]{1,20}?)\s*[.。!！]?\s*$")  # (…, forget it / …，算了)


# ---------------------------------------------------------------- understanding a request


def _split_table(f: FileInfo) -> bool:
    """A workbook whose sheets are one table split (same columns on every sheet: 一季度/二季度, North/South)."""
    return len(f.sheets) > 1 and len({tuple(s.columns) for s in f.sheets}) == 1 and bool(f.sheets[0].columns)


def month_words(name: str) -> list[str]:
    """Every English word for the month a sheet's name is (Jul: jul, july), longest first; [] for any other name."""
    n = MONTHS_EN.get(name.casefold())
    return sorted((w for w, i in MONTHS_EN.items() if i == n), key=len, reverse=True) if n else []


# per month / in each quarter: the sheets, only of a workbook whose sheets are those periods (7月, Jul, Q2); over sheets of
# years or of places it is a period of the rows' dates
EACH_PERIOD = re.compile(r"(?:in\s+)?(?:each|every|per)\s+(?P<u>quarter|month)", re.I)
PERIOD_SHEET_NAME = {"month": re.compile(r"^\s*(?:\d{4}\s*[-/年.]?\s*)?(?:1[0-2]|0?[1-9]|[一二三四五六七八九十]{1,3})\s*月份?\s*$|^\d{4}-\d{2}$", re.I),
                     "quarter": re.compile(r"(?<![a-z])q[1-4](?![0-9])|[一二三四1-4]\s*季度?|quarter", re.I)}


def every_sheet_said(text: str, fi: FileInfo | None) -> bool:
    """Whether the words say every sheet of the workbook (lexicon ALL_SHEETS); per month / each quarter only over
    sheets that are months / quarters."""
    for m in lx.ALL_SHEETS.finditer(text):
        pm = EACH_PERIOD.fullmatch(m.group(0).strip())
        if pm is None or fi is None:
            return True
        unit = pm.group("u").casefold()
        if all(s.name and (PERIOD_SHEET_NAME[unit].search(s.name) or unit == "month" and month_words(s.name)) for s in fi.sheets):
            return True
    return False


def _sheet_named(name: str, low: str) -> bool:
    """A sheet is named by its name, or by a word of the same plain meaning (orders ~ 订单), a month by its full name or
    its short one (Jul ~ July)."""
    if name.casefold() in low:
        return True
    months = month_words(name)
    if months and re.search(r"(?<![a-z])(?:" + "|".join(months) + r")(?![a-z])", low):
        return True
    concept = lx.concept_of(name)
    return bool(concept) and any(re.search(r"(?<![a-z_])" + re.escape(w) + r"s?(?![a-z_])", low) for w in _long_words(concept))


@functools.lru_cache(maxsize=1024)
def _long_words(concept: str) -> tuple[str, ...]:
    """The lexicon's words of three characters or more for a concept, in lexicon order."""
    return tuple(w for w, c in lx.synonyms().items() if c == concept and len(w) >= 3)


def _sheet_of(f: FileInfo, name: str | None) -> SheetInfo:
    s = f.sheet(name) if name else None
    return s or (f.sheets[0] if f.sheets else EMPTY_SHEET)


def _flags(norms: list[str], refs: list[FileRef]) -> dict[str, Any]:
    fmt = next((r.target_format for r in reversed(refs) if r.target_format), None)
    return {
        "plan_only": any(lx.PLAN_ONLY.search(t) for t in norms),
        "overwrite": any(lx.OVERWRITE.search(t) for t in norms) and not any(lx.NO_OVERWRITE.search(t) for t in norms),
        "full": any(lx.FULL.search(t) for t in norms),
        "target_format": fmt,
    }


def _corrected_figure(merged: dict[str, Op], ops: list[Op]) -> list[Op]:
    """不是统计行数，是按导购分组把数量加起来: a summary said in a correction replaces the count it corrects; 不对，是按月份，
    不是按天, after a summary keyed by a date column: the same summary over that column's months (the other keys kept)."""
    if "count" in merged and any(o.kind in ("group", "bucket") for o in ops):
        del merged["count"]
    g = merged.get("group")
    b = next((o for o in ops if o.kind == "bucket"), None)
    if g is None or b is None or len(ops) != 1 or b.args.get("value") or b.args.get("by"):
        return ops
    dated = [k for k in g.args.get("keys") or [] if k == b.args.get("column")]
    figures = [m for m in g.args.get("measures") or [] if m.get("column") and not m.get("where")]
    if not dated or len(figures) > 1:
        return ops
    del merged["group"]
    rest = [k for k in g.args["keys"] if k not in dated]
    args = {**b.args, **({"by": rest} if rest else {})}
    if figures:
        args.update(value=figures[0]["column"], agg=figures[0]["agg"])
    return [Op("bucket", args, b.after)]


def _asked_of_groups(merged: dict[str, Op], ops: list[Op], t: TurnOps) -> list[Op]:
    """他们的延误次数呢 / 他们的延误率呢, after a count per 线路: a count of the rows meeting a condition, or the share of
    them, asked of the groups that ran — a figure of each group (a filtered count, or the proportion per key), never a
    filter of every group's rows."""
    g = merged.get("group")
    if g is None or not g.args.get("keys") or "filter" in merged and any(o.kind == "filter" for o in ops):
        return ops
    kinds = sorted(o.kind for o in ops)
    if kinds == ["count", "filter"] and t.flag_said:
        f = next(o for o in ops if o.kind == "filter")
        conds = list(f.args.get("conditions") or [])
        if not conds or (f.args.get("logic") or "and") != "and" or f.args.get("unresolved") or not all(c.column for c in conds):
            return ops
        part = {"agg": "count", "where": conds}
        merged["group"] = Op("group", {**g.args, "measures": [*(g.args.get("measures") or [{"agg": "count"}]), part]}, g.after)
        return []
    if kinds == ["proportion"] and not ops[0].args.get("by"):
        del merged["group"]
        return [Op("proportion", {**ops[0].args, "by": list(g.args["keys"])}, ops[0].after)]
    return ops


def _bare_of_figure(merged: dict[str, Op], bare: tuple[str, Any], lang: str) -> Op | None:
    """A comparison said alone after a summary with one figure per group: a condition on that figure (a having)."""
    from modes.conditions import Cond
    from tools.ops import ROWS, measure_name

    g = merged.get("group")
    if g is None or not g.args.get("keys") or "having" in merged or "bucket" in merged or "pivot" in merged:
        return None
    figures = [m for m in g.args.get("measures") or [] if not m.get("where")]
    if len(figures) != 1 or (g.args.get("measures") or []) != figures:
        return None
    m, (op, value) = figures[0], bare
    name = measure_name(m["column"], m["agg"], lang) if m.get("column") else ROWS[lang]
    return Op("having", {"conditions": [Cond(name, op, value, raw=str(value), how="aggregate")], "measure": dict(m)}, g.after)


RATE_WORD = lazy(r"率$|比例|占比|比率|^(?:rate|ratio|proportion|share|percentage|percent|%)$", re.I)


def _orders_the_rate(order: Op) -> bool:
    """A sort with no column of the table, said by a rate's word (按比例 / by the rate) or by its direction alone."""
    un = [u for u in order.args.get("unresolved") or [] if u.get("slot") == "column"]
    return not order.args.get("by") and (not un or all(RATE_WORD.search(str(u.get("raw") or "")) for u in un))


def _rank_by_the_new_figure(merged: dict[str, Op], turns: list[TurnOps]) -> None:
    """use average fee_paid instead, after the top 5 by total hours: the summary has one figure, so the ranking (or the
    order) is by it — a column the summary no longer holds ranks nothing."""
    g = merged.get("group")
    if g is None or len(turns) < 2:
        return
    figures = [m["column"] for m in g.args.get("measures") or [] if m.get("column") and not m.get("where")]
    keys = list(g.args.get("keys") or [])
    if len(figures) != 1:
        return
    def one_of(by: Any) -> str | None:
        return by if isinstance(by, str) else by[0] if isinstance(by, list) and len(by) == 1 and isinstance(by[0], str) else None

    for kind in ("top_n", "sort"):
        o = merged.get(kind)
        one = one_of(o.args.get("by")) if o is not None else None
        if o is None or one is None or one in keys or one == figures[0] or one.startswith(figures[0] + "_"):
            continue
        # (only a ranking that was by the summary's figure before: the top rows by another column, then a total, stay)
        before = next((t for t in reversed(turns[:-1]) if any(x.kind == "group" for x in t.ops) and any(x.kind == kind for x in t.ops)), None)
        if before is None:
            continue
        old_g = next(x for x in before.ops if x.kind == "group")
        old_by = one_of(next(x for x in before.ops if x.kind == kind).args.get("by"))
        old_figures = [m["column"] for m in old_g.args.get("measures") or [] if m.get("column") and not m.get("where")]
        if old_by is None or len(old_figures) != 1 or not (old_by == old_figures[0] or old_by.startswith(old_figures[0] + "_")):
            continue
        merged[kind] = Op(kind, {**o.args, "by": figures[0] if isinstance(o.args.get("by"), str) else [figures[0]]}, o.after)


# the rows counted, said (笔数 / 几单 / 人次 / how many orders): a count asked for, never a figure ranked
ROWS_SAID = lazy(r"笔数|单数|次数|人数|人次|件数|行数|条数|多少(?:笔|单|次|人|条|件|个)|几(?:笔|单|次|人|条|件|个)|(?<![a-z_])(?:how many|number of|count)(?![a-z_])", re.I)


def merge_turns(turns: list[TurnOps], lang: str = "zh") -> list[Op]:
    """Operations over several turns: later turns fill or correct earlier ones."""
    merged: dict[str, Op] = {}
    swapped = False
    for t in turns:
        chart_before = merged.get("chart")
        old_filter = merged.get("filter")
        if t.year is not None and old_filter is not None and not any(o.kind == "filter" for o in t.ops):
            # no, I meant 2023: each whole-year period of the request moves to that year
            conds = [_in_year(c, t.year) for c in old_filter.args.get("conditions") or []]
            merged["filter"] = Op("filter", {**old_filter.args, "conditions": conds}, old_filter.after)
        if t.bare_keys and all(o.kind == "filter" for o in t.ops) and "chart" not in merged:
            _rekey(merged, t.bare_keys)
        if t.bare and t.correction and old_filter is not None and len(old_filter.args.get("conditions") or []) == 1 and not any(o.kind == "filter" for o in t.ops):
            c = old_filter.args["conditions"][0]
            op_, value = t.bare[0]
            merged["filter"] = Op("filter", {**old_filter.args, "conditions": [Cond(c.column, op_, value, None, c.raw, c.how)]})
        ops = t.ops
        old_having = merged.get("having")
        if t.bare and len(t.bare) == 1 and old_having is not None and len(old_having.args.get("conditions") or []) == 1 \
                and not any(o.kind in ("filter", "having") for o in t.ops):
            # same for Grill3 but over 100 / 不对，是超过100, after groups kept over 150: the bound of that condition changes
            c = old_having.args["conditions"][0]
            op_, value = t.bare[0]
            merged["having"] = Op("having", {**old_having.args, "conditions": [replace(c, op=op_, value=value, raw=str(value))]}, old_having.after)
        elif t.bare_alone and not t.correction and len(t.bare) == 1 and (having := _bare_of_figure(merged, t.bare[0], lang)) is not None:
            # only the ones over 11 / 只看超过5的, after a total per Member: the groups kept by the one figure they have
            merged["having"] = having
            ops = [o for o in ops if o.kind != "filter"]
        if t.flip and "pivot" not in t.kinds() and "chart" not in t.kinds() and (flipped := _flipped(merged)) is not None:
            # 反过来，行和列对调 / the other way round, after a pivot: the same figure, its rows and columns swapped
            merged[flipped.kind] = flipped
            ops = [o for o in ops if o.kind != "transpose"]
        if t.split and chart_before is not None and chart_before.args.get("kind") in ("bar", "line") and "chart" not in t.kinds():
            # 每个城市一条线 / one line per Carrier, after a chart: the chart's series, never a grouping or one row per value
            ops = [o for o in ops if not (o.kind == "group" and o.args.get("keys") == [t.split] and not o.args.get("measures")
                                          or o.kind == "dedupe" and o.args.get("subset") == [t.split])]
        ops = _asked_of_groups(merged, ops, t)
        if t.correction:
            ops = _corrected_figure(merged, ops)
        if t.brought and (g := merged.get("group")) is not None and g.args.get("keys"):
            # 把会员姓名也带上, after a total per 会员编号: the name is shown beside the number, a key of the same groups
            merged["group"] = Op("group", {**g.args, "keys": [*g.args["keys"], *[c for c in t.brought if c not in g.args["keys"]]]}, g.after)
        rated_sort = merged.get("proportion") is not None and (merged["proportion"].args.get("by") or []) != [] and lx.SORT.search(t.said) is not None \
            and any(o.kind == "group" and o.args.get("rate_word") and not o.args.get("keys") for o in ops)
        ops = [_period_on_the_same_date(merged.get("filter"), o) if o.kind == "filter" else o for o in ops]
        for op in ops:
            rated = merged.get("proportion")
            if rated is not None and rated_sort and op.kind in ("group", "sort") and not op.args.get("keys"):
                # …and sort by the rate, after a rate per key: those rates, in order (never a rate of its own to define)
                desc = not re.search(r"(?<![a-z_])(?:ascending|lowest first|smallest first)(?![a-z_])|从低到高|升序", t.said, re.I)
                merged["proportion"] = Op("proportion", {**rated.args, "order": "desc" if desc else "asc"}, rated.after)
                continue
            per_group = merged.get("top_per_group")
            if op.kind == "top_n" and per_group is not None and "top_n" not in merged and not op.args.get("by") and op.args.get("n"):
                # 改成前3个 after 每个部门月薪最高的前2个人: the number kept in each group changes, the rest stays
                said = {k: op.args[k] for k in ("n", "ascending") if op.args.get(k) is not None}
                merged["top_per_group"] = Op("top_per_group", {**per_group.args, **said}, per_group.after)
                continue
            if t.correction and op.kind == "stats" and (swapped_in := _statistic_of_columns(merged.get("group"), op)) is not None:
                merged["group"] = swapped_in  # 不对，金额用中位数, after totals per 品类: that column's figure changes, the others stay
                continue
            if (cells := _pivot_statistic(merged, op, t, ops)) is not None:
                merged["pivot"] = cells  # make that the median instead, after a pivot: its cells, never a figure beside it
                continue
            rp_old = merged.get("replace")
            if op.kind == "filter" and rp_old is not None and rp_old.args.get("where_unread") and op.args.get("conditions") \
                    and not op.args.get("unresolved"):
                # Job ID is J2045, to "which rows should change?": the condition of the edit, never a filter beside it
                edit_args = {k: v for k, v in rp_old.args.items() if k != "where_unread"}
                merged["replace"] = Op("replace", {**edit_args, "conditions": list(op.args["conditions"])}, rp_old.after)
                continue
            g_old, b_old, pr_old = merged.get("group"), merged.get("bucket"), merged.get("proportion")
            if op.kind == "count" and g_old is not None and g_old.args.get("keys") and ALL_TOGETHER.search(t.said) \
                    and all(not m.get("column") for m in g_old.args.get("measures") or []):
                del merged["group"]  # 不含Amy的话一共几单, after a count per stylist: one count of all the rows, no groups
                merged["count"] = op
                continue
            f_old = merged.get("filter")
            if op.kind == "proportion" and f_old is not None and "count" in merged and (split := _share_of_all(f_old, op)) is not None:
                merged["filter"], merged["proportion"] = split  # what share of all weddings is that?: weddings the rows, the rest the share
                del merged["count"]
                continue
            other_value = _proportion_value_swapped(pr_old, op) if op.kind == "filter" and pr_old is not None else None
            if other_value is not None:
                merged["proportion"] = other_value  # and the same for Open?, after the share of Cancelled per sheet: the share of Open
                continue
            if op.kind == "group" and pr_old is not None and g_old is None and op.args.get("keys") and not op.args.get("measures"):
                # same but per space_type / by space type instead of sheet, after a share per sheet: the share within those groups
                merged["proportion"] = Op("proportion", {**pr_old.args, "by": list(op.args["keys"])}, pr_old.after)
                continue
            if op.kind == "group" and b_old is not None and g_old is None and not op.args.get("keys") and len(op.args.get("measures") or []) == 1:
                # 那涉及车辆数加起来呢, after a count per month: the same periods, that figure of each
                m = op.args["measures"][0]
                said = {"value": m["column"], "agg": m.get("agg") or "sum"} if m.get("column") else {"value": None, "agg": "count"}
                merged["bucket"] = Op("bucket", {**b_old.args, **said}, b_old.after)
                continue
            if op.kind == "profile" and op.args.get("question") == "rows" and t.correction and g_old is not None and g_old.args.get("keys"):
                # 换成订单数 / 改成按订单数算, after a total per 平台: how many rows each group has, in place of its figures
                merged["group"] = Op("group", {**g_old.args, "measures": [{"agg": "count"}]}, g_old.after)
                continue
            st_old = merged.get("stats")
            if op.kind == "group" and op.args.get("aggs") and not op.args.get("keys") and not op.args.get("measures") and st_old is not None \
                    and "group" not in merged and st_old.args.get("columns") and all(a in STAT_NAMES for a in op.args["aggs"]):
                # use the mean instead / and the max, after a median per age group: that statistic of the same columns and groups
                stats = list(dict.fromkeys([*(st_old.args.get("stats") or []), *op.args["aggs"]])) if t.adds else list(op.args["aggs"])
                merged["stats"] = Op("stats", {**st_old.args, "stats": stats}, st_old.after)
                continue
            old = merged.get(op.kind)
            if op.kind == "stats" and not op.args.get("columns") and (t.correction or (len(ops) == 1 and len(op.args.get("stats") or []) == 1
                                                                                    and not op.args.get("by") and "group" in merged)):
                swapped = True  # 换成中位数 / use the median instead / 中位数呢: the statistic of what was summarised changes
            if op.kind == "pivot" and "group" in merged and (laid := _pivot_of_group(merged["group"], op)) is not None:
                del merged["group"]  # 换成透视表，门店做列 after a count by 门店 and 类型: the same figure laid out, never a pivot of the counts
                merged["pivot"] = laid
                continue
            released = [c for c in op.args.get("conditions") or [] if c.how == "released"] if op.kind == "filter" else []
            if released:  # 不只是停车费 / not just Online: that value is no longer a condition, and none is added
                kept = [c for c in op.args["conditions"] if c.how != "released"]
                op = Op("filter", {**op.args, "conditions": kept}, op.after)
                if old is not None:
                    rest = [c for c in old.args.get("conditions") or [] if not any(_holds_value(c, r) for r in released)]
                    old = Op("filter", {**old.args, "conditions": rest}, old.after) if rest else None
                    if old is None:
                        merged.pop("filter", None)
                    else:
                        merged["filter"] = old
                if not kept:
                    continue
            if old is None:
                merged[op.kind] = op
                continue
            if op.kind == "pivot" and op.args.get("value_unsaid") and old.args.get("value"):
                # rows Mode, columns Carrier, after a pivot of Charge: the layout changes, its figure stays
                merged["pivot"] = Op("pivot", {**{k: v for k, v in op.args.items() if k != "value_unsaid"}, "value": old.args["value"],
                                               "agg": old.args.get("agg", "sum")}, old.after)
                continue
            if op.kind == "bucket" and old.args.get("value") and not op.args.get("value") and op.args.get("agg") == "count" \
                    and not ROWS_SAID.search(t.said or "") and op.args.get("unit") == old.args.get("unit"):
                continue  # 哪个月最多, after the months' 学费 totals: those totals ranked, never the rows counted in their place
            if op.kind == "bucket" and old.args.get("value") and not op.args.get("value") and op.args.get("agg") == "count" \
                    and ROWS_SAID.search(t.said or "") and op.args.get("unit") == old.args.get("unit"):
                merged["bucket"] = Op("bucket", {k: v for k, v in {**old.args, **op.args}.items() if k not in ("value", "values")}, old.after)
                continue  # 哪个月缴费笔数最多: the rows of each month counted, in place of the totals
            if op.kind == "group" and t.adds and (added := _added_to_group(old, op)) is not None:
                merged["group"] = added  # 还要加上面积的平均值 / 再按性别分一下: the summary gains the part, keeps the rest
                continue
            if op.kind == "filter":
                new_c = op.args.get("conditions") or []
                old_c = old.args.get("conditions") or []
                if not new_c:
                    continue
                if t.correction and not t.whole_condition:  # 不对，是华北: the condition on that column changes, the others stay
                    old_c = [c for c in old_c if c.column not in {n.column for n in new_c}]
                    periods = [c for c in old_c if c.op == "between" and isinstance(c.value, dict)]
                    if len(periods) == 1 and any(n.column is None and n.op == "between" and isinstance(n.value, dict) for n in new_c):
                        old_c = [c for c in old_c if c is not periods[0]]  # 不对，是2024年4月: the one period said changes (its column as before)
                if t.include_too:  # 退货的也算进去 after 未到货或部分到货的: the value joins that column's values
                    new_c = [_with_values(n, old_c) if not t.included or _said_in_values(n, t.included) else n for n in new_c]
                # a column cannot equal two values at once: 那深圳的呢 after 广州的… swaps the value
                said_eq = {n.column for n in new_c if n.op in ("eq", "in")}
                old_c = [c for c in old_c if not (c.op in ("eq", "in") and c.column in said_eq)]
                # and for July? after August: the period of that date column changes, never both at once (nothing is in both)
                said_period = {n.column for n in new_c if n.op == "between" and n.column in {c.column for c in old_c if c.op == "between"}}
                if not t.adds and not t.include_too:
                    old_c = [c for c in old_c if not (c.op == "between" and c.column in said_period)]
                # 那工作日的呢 / what about weekdays, after the weekends: the days of that date column change, never both at once
                said_days = {n.column for n in new_c if n.op in ("weekday_in", "weekday_not_in")}
                if not t.adds:
                    old_c = [c for c in old_c if not (c.op in ("weekday_in", "weekday_not_in") and c.column in said_days)]
                # 金额是空的呢 after 收购员为空的…: a blank test asked again of another column, in place of the one before
                if t.asked_again and not t.adds and not t.include_too and all(n.op in ("empty", "not_empty") for n in new_c):
                    old_c = [c for c in old_c if c.op not in ("empty", "not_empty")]
                # 那已签收以外的呢 after 已签收的…: the other rows of that column, never both at once
                said_not = {n.column for n in new_c if n.op in ("ne", "not_in")}
                old_c = [c for c in old_c if not (c.op in ("eq", "in") and c.column in said_not)]
                # 不对，这个条件你没加上: a condition said to be missing joins the others, never replaces them
                conds = new_c if (t.correction and t.whole_condition and not t.adds) else old_c + new_c
                conds = _once(conds)  # Fee £ > 250 said again in the later turn: one condition, said once
                args = dict(op.args, conditions=conds)
                if t.include_too and len(conds) > 1 and len({c.column for c in conds}) == 1 and old.args.get("logic", "and") == "and" \
                        and len(old_c) == 1 and not any(c.how == "period" for c in conds):
                    args["logic"] = "or"  # also include the rows where it is blank, after Discount = 0: either one, never both at once
                unres = [u for u in (old.args.get("unresolved", []) if not t.correction else [])] + op.args.get("unresolved", [])
                if unres:
                    args["unresolved"] = unres
                else:
                    args.pop("unresolved", None)
                merged["filter"] = Op("filter", args)
            else:
                spec = opspec.get(op.kind)
                key = spec.main_slot if spec else None
                if op.args.get("unresolved"):
                    merged[op.kind] = Op(op.kind, op.args, op.after)
                elif t.correction or key is None or not op.args.get(key):
                    # 改成前3个 / actually per channel / 换成中位数: the part the later turn names replaces the earlier one,
                    # the parts it does not name are kept
                    said = {k: v for k, v in op.args.items() if v is not None and not (isinstance(v, (list, dict, str)) and not v)}
                    aggs = said.pop("aggs", None)
                    if op.kind == "group" and aggs and not said.get("measures"):  # use the mean instead: the same columns
                        cols = list(dict.fromkeys(m["column"] for m in old.args.get("measures") or [] if m.get("column")))
                        said["measures"] = [{"column": c, "agg": a} for c in cols for a in aggs]
                    if op.kind in ("sort", "top_n") and not op.args.get("direction_said"):
                        said.pop("ascending", None)  # 那前5个呢 after the 3 smallest: still the smallest
                    merged[op.kind] = Op(op.kind, {**old.args, **said}, old.after)
                elif op.kind == "group" and not op.args.get("measures") and old.args.get("measures"):
                    # by payment method / 按门店拆开看, after a total: the same figures, per key
                    merged["group"] = Op("group", {**old.args, **{k: v for k, v in op.args.items() if k != "measures"}}, old.after)
                elif op.kind in ("sort", "top_n") and not op.args.get("direction_said") and old.args.get("direction_said"):
                    # Repair Cost_sum, to "sort them high to low — by which column?": the order said stays
                    merged[op.kind] = Op(op.kind, {**op.args, "ascending": old.args.get("ascending"), "direction_said": True}, op.after)
                else:
                    merged[op.kind] = Op(op.kind, op.args, op.after)
        _rechart(merged, t, chart_before)
        c = merged.get("chart")
        if t.split and c is not None and c.args.get("kind") in ("bar", "line") and t.split != c.args.get("x"):
            # 按城市分系列 / split by Mode, after a chart: the same chart, one series per value of that column
            merged["chart"] = Op("chart", {**c.args, "split": t.split}, c.after)
    _swap_statistic(merged, swapped)
    _chart_of_summary(merged)
    _pivot_figure_swapped(merged, turns)
    _rank_by_the_new_figure(merged, turns)
    g, b = merged.get("group"), merged.get("bucket")
    figures = [m for m in (g.args.get("measures") or []) if m.get("column")] if g is not None else []
    if g is not None and b is not None and len(turns) > 1 and not g.args.get("keys") and len(figures) == 1 and not b.args.get("value") \
            and figures[0].get("agg") in ("sum", "mean", "min", "max", "median"):
        # 按周汇总的是金额，不是行数, after a count per week: the figure of each period changes, never a total of the periods after
        merged["bucket"] = Op("bucket", {**b.args, "value": figures[0]["column"], "agg": figures[0]["agg"]}, b.after)
        del merged["group"]
        g = None
    if g is not None and b is not None and g.args.get("keys") and not g.args.get("measures") and not b.args.get("by"):
        # 按车间拆开看, after a total per month: the same periods, per 车间 (never the months dropped for the key)
        merged["bucket"] = Op("bucket", {**b.args, "by": list(g.args["keys"])}, b.after)
        del merged["group"]
    g, st = merged.get("group"), merged.get("stats")
    if g is not None and st is not None and len(turns) > 1 and g.args.get("keys") and g.args.get("measures") \
            and st.args.get("by") in (None, [], g.args["keys"]) and st.args.get("stats") and all(x in GROUP_AGGS for x in st.args["stats"]):
        # 他们的平均金额呢？用中位数吧, after a count per 销售员: the figures join the same groups, never a second step run
        # over the summary (which has no 金额)
        more = [{"column": c, "agg": x} for c in st.args.get("columns") or [] for x in st.args["stats"]]
        merged["group"] = Op("group", {**g.args, "measures": [*g.args["measures"], *[m for m in more if m not in g.args["measures"]]]}, g.after)
        del merged["stats"]
    prop, order = merged.get("proportion"), merged.get("sort")
    if prop is not None and order is not None and len(turns) > 1 and _orders_the_rate(order):
        # 对，按比例从高到低排, to a rate per group: the groups in the order of their rate, never a column named 比例
        merged["proportion"] = Op("proportion", {**prop.args, "order": "asc" if order.args.get("ascending") else "desc"}, prop.after)
        del merged["sort"]
    top, order = merged.get("top_n"), merged.get("sort")
    if top is not None and order is not None and top.args.get("by") and order.args.get("by") == [top.args["by"]] and not order.args.get("direction_said") \
            and len(turns) > 1:
        del merged["sort"]  # 按分数排, to "sort by which column?" after 分数最高的5个: the ranking's column, never a second order
        order = None
    if top is not None and order is not None and not top.args.get("by") and order.args.get("by") and "group" not in merged and "bucket" not in merged:
        # 前3个 + 金额, to "按哪一列排序？": the first N of that order (a sort by the column, then the top N by it)
        merged["top_n"] = Op("top_n", {**top.args, "by": order.args["by"][0],
                                       "ascending": order.args.get("ascending", False) if order.args.get("direction_said") else top.args.get("ascending", False)}, top.after)
    g, sh = merged.get("group"), merged.get("share")
    if g is not None and sh is not None and g.args.get("keys") and not sh.args.get("keys") and len(turns) > 1:
        # what's that as a share of the total?, after a count per Channel: each of those groups' share
        sh = merged["share"] = Op("share", {**sh.args, "keys": list(g.args["keys"])}, sh.after)
    if g is not None and sh is not None and g.args.get("keys") and list(sh.args.get("keys") or []) == list(g.args["keys"]) \
            and not sh.args.get("column") and all(m.get("agg") == "count" and not m.get("column") and not m.get("where") for m in g.args.get("measures") or []):
        # 只要行数，再加上每个班行数占总数的百分比: each class's rows and their share, of the rows themselves (the share
        # says each count), never a share of the summary's rows (one each)
        del merged["group"]
    elif g is not None and sh is not None and g.args.get("keys") and list(sh.args.get("keys") or []) == list(g.args["keys"]) \
            and sh.args.get("column") and g.args.get("measures") == [{"column": sh.args["column"], "agg": "sum"}]:
        del merged["group"]  # 每个类别卖了多少钱 + 再算下每个类别占的比例: each key's total and its share, of the same rows
    b, st = merged.get("bucket"), merged.get("stats")
    if b is not None and st is not None and b.args.get("agg") in ("median", "min", "max") and set(st.args.get("stats") or []) <= {b.args["agg"], "sum"} \
            and set(st.args.get("columns") or []) <= {b.args.get("value")}:
        del merged["stats"]  # 每个月的金额中位数: each period's median, never a second step over the whole column
    g = merged.get("group")
    if "count" in merged and g is not None and g.args.get("keys") and not g.args.get("measures"):
        # how many … in 2023? + no, group by country: the rows counted per key
        del merged["count"]
        merged["group"] = Op("group", {**g.args, "measures": [{"agg": "count"}]}, g.after)
    ops = list(merged.values())
    if len(ops) > 1:
        ops = [o for o in ops if o.kind != "profile"]
    return [o for o in ops if o.kind != "export"] + [o for o in ops if o.kind == "export"]


GROUP_AGGS = ("sum", "mean", "median", "min", "max", "count")


def _said_in_values(n: Cond, said: frozenset[str]) -> bool:
    """Whether a condition's value (any of them) is one the include word's clause said."""
    return any(str(v) in said for v in (n.value if isinstance(n.value, (list, tuple)) else [n.value]))


def _with_values(n: Cond, old: list[Cond]) -> Cond:
    """A value said as included too, joined to the values an earlier condition on its column keeps."""
    had = next((c for c in old if c.column == n.column and c.op in ("eq", "in")), None)
    if had is None or n.op not in ("eq", "in"):
        return n
    as_list = lambda v: list(v) if isinstance(v, (list, tuple)) else [v]  # noqa: E731
    values = list(dict.fromkeys([*as_list(had.value), *as_list(n.value)]))
    return replace(n, op="in", value=values) if len(values) > 1 else n


def _once(conds: list[Cond]) -> list[Cond]:
    """Conditions with any said twice (the same column, comparison and value) kept once, in order."""
    kept: dict[tuple[Any, ...], Cond] = {}
    for c in conds:
        kept.setdefault((c.column, c.op, repr(c.value), repr(c.value2)), c)
    return list(kept.values())


def _pivot_of_group(g: Op, p: Op) -> Op | None:
    """A pivot whose rows and columns are the keys of the summary before it: the summary's figure, laid out (its value
    and statistic when the pivot names none); None when it lays out something else."""
    keys = list(g.args.get("keys") or [])
    laid = [*(p.args.get("rows") or []), *([p.args["columns"]] if p.args.get("columns") else [])]
    if not keys or set(keys) != set(laid):
        return None
    ms = [m for m in g.args.get("measures") or [] if isinstance(m, dict)]
    if p.args.get("value") or len(ms) != 1:
        return Op("pivot", p.args, p.after)
    m = ms[0]
    if m.get("agg") == "count" or not m.get("column"):
        return Op("pivot", {**p.args, "agg": "count"}, p.after)
    return Op("pivot", {**p.args, "value": m["column"], "agg": m.get("agg", "sum")}, p.after)


def _holds_value(c: Cond, released: Cond) -> bool:
    """Whether a condition keeps rows by the value a later turn says is no longer the only one (不只是停车费)."""
    if released.op == "between":  # 全年: every period of that date column
        return c.column == released.column and c.op == "between"
    if c.column != released.column or c.op not in ("eq", "in"):
        return False
    values = c.value if isinstance(c.value, list) else [c.value]
    return str(released.value) in {str(v) for v in values}


def _added_to_group(old: Op, new: Op) -> Op | None:
    """A summary's measures or keys said as an addition (also the average weight / 再按性别分一下) join the ones before;
    None when the turn adds neither."""
    old_m, new_m = list(old.args.get("measures") or []), list(new.args.get("measures") or [])
    old_k, new_k = list(old.args.get("keys") or []), list(new.args.get("keys") or [])
    if not new_m and new.args.get("aggs") and not new_k:  # and the max / 再加上最大值: that statistic of the same columns, beside
        new_m = [{"column": m["column"], "agg": a} for m in old_m if m.get("column") for a in new.args["aggs"]]
        new_m = list({(m["column"], m["agg"]): m for m in new_m}.values())
    more_m = [m for m in new_m if m not in old_m and (m.get("column") or not any(not x.get("column") for x in old_m))]
    more_k = [k for k in new_k if k not in old_k]
    if not more_m and not more_k or (new_k and not more_k and not more_m):
        return None
    if new_k and not set(old_k) <= set(new_k) and not more_k:
        return None
    args = {**old.args, "measures": old_m + more_m if new_m else old_m, "keys": old_k + more_k}
    return Op("group", args, old.after)


def _in_year(c: Cond, year: int) -> Cond:
    """A condition over one whole year (between YYYY-01-01 and YYYY-12-31), moved to another year; any other as it is."""
    a, b = c.value, c.value2
    if c.op != "between" or not (isinstance(a, dict) and isinstance(b, dict)) or "date" not in a or "date" not in b:
        return c
    lo, hi = str(a["date"]), str(b["date"])
    if lo[:4] != hi[:4] or lo[4:] != "-01-01" or hi[4:] != "-12-31":
        return c
    return replace(c, value={"date": f"{year}-01-01"}, value2={"date": f"{year}-12-31"})


def _with_join_key(text: str, key: str, lang: str) -> str:
    """agent, to "Join on which column?": the turn with the key said in its join clause (…关联 → 按 agent 关联; join a
    with b → join a with b on agent), before any later clause (然后按区域…, then count …)."""
    m = lx.EXPLORE_JOIN.search(text)
    if m is None:
        return f"{text}, join on {key}" if lang == "en" else f"{text}，按 {key} 关联"
    if lang != "en":
        return f"{text[: m.start()]}按 {key} {text[m.start():]}"
    end = next((x.start() for x in JOIN_CLAUSE_END.finditer(text, m.end())), len(text))
    return f"{text[:end].rstrip()} on {key}{text[end:]}"


def _flipped(merged: dict[str, Op]) -> Op | None:
    """The pivot (or the chart with a series) of the request, its rows and columns swapped; None when it has no such
    layout (a pivot with one row key and a column key; a chart of categories with one series per value)."""
    p, c = merged.get("pivot"), merged.get("chart")
    if p is not None and p.args.get("columns") and len(p.args.get("rows") or []) == 1:
        return Op("pivot", {**p.args, "rows": [p.args["columns"]], "columns": p.args["rows"][0]}, p.after)
    if c is not None and c.args.get("split") and c.args.get("x") and not c.args.get("unit"):
        return Op("chart", {**c.args, "x": c.args["split"], "split": c.args["x"]}, c.after)
    return None


def _rechart(merged: dict[str, Op], t: TurnOps, before: Op | None) -> None:
    """no, per month of start_time / 不对，按区域, after a chart: the chart's categories change (to periods of a date
    column, or to another key); what it draws stays. `before`: the chart as it was before this turn."""
    c = before
    if c is None or not t.correction or any(o.kind == "chart" for o in t.ops):
        return
    merged["chart"] = c
    if t.bare_keys and all(o.kind == "filter" for o in t.ops):
        merged["chart"] = Op("chart", {**{k: v for k, v in c.args.items() if k not in ("unit", "date_column")}, "x": t.bare_keys[0]}, c.after)
        return
    said = {o.kind: o for o in t.ops}
    b, g = said.get("bucket"), said.get("group")
    if b is not None and b.args.get("column"):
        merged.pop("bucket", None)
        merged["chart"] = Op("chart", {**{k: v for k, v in c.args.items() if k not in ("x", "keys")}, "unit": b.args["unit"],
                                       "date_column": b.args["column"]}, c.after)
    elif g is not None and g.args.get("keys") and not g.args.get("measures"):
        merged.pop("group", None)
        merged["chart"] = Op("chart", {**{k: v for k, v in c.args.items() if k not in ("unit", "date_column")}, "x": g.args["keys"][0]}, c.after)


def _rekey(merged: dict[str, Op], keys: list[str]) -> None:
    """no, by line instead: the keys of what the correction corrects change (a summary's grouping, a statistic's groups,
    an order), the rest stays."""
    for kind, slot in (("group", "keys"), ("stats", "by"), ("top_per_group", "by"), ("sort", "by")):
        o = merged.get(kind)
        if o is not None and (o.args.get(slot) or kind in ("group", "sort")):
            merged[kind] = Op(kind, {**o.args, slot: list(keys)}, o.after)
            return


def _statistic_of_columns(g: Op | None, st: Op) -> Op | None:
    """金额用中位数 after a summary of 金额 and 数量: the named columns' statistic replaced in that summary, the rest kept."""
    cols, stats = list(st.args.get("columns") or []), list(st.args.get("stats") or [])
    if g is None or not cols or not stats or not all(x in GROUP_AGGS for x in stats):
        return None
    ms = list(g.args.get("measures") or [])
    if not all(any(m.get("column") == c and not m.get("where") for m in ms) for c in cols):
        return None
    new: list[dict[str, Any]] = []
    for m in ms:
        for x in [{"column": m["column"], "agg": a} for a in stats] if m.get("column") in cols and not m.get("where") else [m]:
            if x not in new:
                new.append(x)
    return Op("group", {**g.args, "measures": new}, g.after)


PIVOT_AGGS = frozenset({"sum", "mean", "median", "min", "max", "count"})


def _pivot_statistic(merged: dict[str, Op], op: Op, t: TurnOps, ops: list[Op]) -> Op | None:
    """make that the median instead / the pivot cells should be the average of Fare / 透视表改成平均值, after a pivot: the
    pivot with that statistic in its cells (of the column said, or of its own value); None when the turn says more."""
    pv = merged.get("pivot")
    if pv is None or "group" in merged or op.kind not in ("stats", "group", "profile") or not (t.correction or len(ops) == 1):
        return None
    if op.kind == "profile" and op.args.get("question") == "rows" and t.correction:
        stats, cols = ["count"], []  # 算了，换成工单数 / 换成计数: how many rows in each cell
    elif op.kind == "stats":
        stats, cols = list(op.args.get("stats") or []), list(op.args.get("columns") or [])
        if op.args.get("by"):
            return None
    elif op.kind != "group":
        return None
    else:
        ms = list(op.args.get("measures") or [])
        if op.args.get("keys") or op.args.get("unresolved"):
            return None
        stats, cols = list(op.args.get("aggs") or []) or [m["agg"] for m in ms], [m["column"] for m in ms if m.get("column")]
    if len(set(stats)) != 1 or stats[0] not in PIVOT_AGGS or len(set(cols)) > 1:
        return None
    rows = op.kind == "profile"  # (换成订单数: how many rows, never how many cells of the value are filled)
    value = cols[0] if cols else None if rows else pv.args.get("value")
    return Op("pivot", {**{k: v for k, v in pv.args.items() if k != "value_unsaid"}, "value": value, "agg": stats[0]}, pv.after)


def _pivot_figure_swapped(merged: dict[str, Op], turns: list[TurnOps]) -> None:
    """ok but average Duration Min instead of count, while a pivot waits: the pivot's figure changes to that statistic of
    that column (never a figure computed beside the pivot)."""
    pv, g = merged.get("pivot"), merged.get("group")
    if pv is None or g is None or len(turns) < 2 or not turns[-1].correction or g.args.get("keys"):
        return
    figures = [m for m in g.args.get("measures") or [] if m.get("column")]
    if len(figures) != 1 or figures[0]["agg"] not in ("sum", "mean", "median", "min", "max", "count"):
        return
    merged["pivot"] = Op("pivot", {**{k: v for k, v in pv.args.items() if k != "value_unsaid"}, "value": figures[0]["column"], "agg": figures[0]["agg"]}, pv.after)
    del merged["group"]


STAT_NAMES = frozenset({"mean", "median", "max", "min", "std", "count"})  # the statistics a stats step computes by these names


def _chart_of_summary(merged: dict[str, Op]) -> None:
    """make a bar chart of that, after a total per key said in an earlier turn: the chart draws that summary (its key along
    the axis, its figures the bars), never asks for both as if nothing had been said."""
    c, g = merged.get("chart"), merged.get("group")
    if c is None or g is None or c.args.get("x") or c.args.get("y") or c.args.get("unit") or len(g.args.get("keys") or []) != 1:
        return
    ms = [m for m in g.args.get("measures") or [] if m.get("column") and not m.get("where")]
    if not ms or len({m["agg"] for m in ms}) != 1 or ms[0]["agg"] not in ("sum", "mean", "count", "min", "max") or (c.args.get("kind") == "pie" and len(ms) > 1):
        return
    merged["chart"] = Op("chart", {**c.args, "x": g.args["keys"][0], "y": [m["column"] for m in ms][:2], "agg": ms[0]["agg"]}, c.after)
    del merged["group"]


def _swap_statistic(merged: dict[str, Op], swapped: bool) -> None:
    """A correction that names only a statistic replaces the statistic of the summary before it, keeping its keys and
    columns: a figure the summary computes stays a summary, any other (median, std…) is computed per group."""
    st, g = merged.get("stats"), merged.get("group")
    if not swapped or st is None or g is None:
        return
    cols = [m["column"] for m in g.args.get("measures") or [] if m.get("column")]
    stats = list(st.args.get("stats") or [])
    if not cols or not stats:
        return
    del merged["stats"]
    if all(x in GROUP_AGGS for x in stats):
        merged["group"] = Op("group", {**g.args, "measures": [{"column": c, "agg": x} for c in cols for x in stats]}, g.after)
        return
    del merged["group"]
    merged["stats"] = Op("stats", {**st.args, "columns": cols, **({"by": list(g.args["keys"])} if g.args.get("keys") else {})}, g.after)


def _fit(turns: list[str], sheet: SheetInfo, flags: dict[str, Any]) -> tuple[list[TurnOps], int, int]:
    parsed = [parse_turn(t, sheet, flags) for t in turns]
    said = " ".join(turns).casefold()  # (a name the words never say, Revenue/Energy kWh of revenue per kWh, is read by no later step)
    added = [o.args["name"] for p in parsed for o in p.ops if o.kind in ("add_column", "formula") and o.args.get("name") and o.args["name"] not in sheet.columns
             and str(o.args["name"]).casefold() in said]
    if added and (any(o.kind not in ("add_column", "formula") for p in parsed for o in p.ops) or any(lx.NEXT_STEP.search(t) for t in turns)):
        # 新增一列金额=数量*单价，再按客户汇总金额: the steps after the new column read its name as that column
        wider = replace(sheet, columns=(*sheet.columns, *added), numeric=sheet.numeric | frozenset(added))
        parsed = [parse_turn(t, wider, flags) for t in turns]
    return parsed, sum(p.hits for p in parsed), sum(p.unresolved for p in parsed)


def _best_sheet(f: FileInfo, turns: list[str], flags: dict[str, Any]) -> tuple[SheetInfo, list[TurnOps], int, int]:
    best = None
    low = " ".join(turns).casefold()
    for s in f.sheets or (EMPTY_SHEET,):
        parsed, hits, unres = _fit(turns, s, flags)
        named = 2 if s.name and len(f.sheets) > 1 and s.name.casefold() in low else 0
        score = (hits + named - 3 * unres, -unres)
        if best is None or score > best[0]:
            best = (score, s, parsed, hits, unres)
    assert best is not None
    return best[1], best[2], best[3], best[4]


def _names_only_in(texts: list[str], last: FileInfo, cur: FileInfo) -> bool:
    """Whether the words name, by its exact name, a column of the last result that the current file does not have."""
    own = {c.casefold() for sh in cur.sheets for c in sh.columns} | {c.casefold() for c in COUNT_COLUMNS}  # a row count names no table
    theirs = {c.casefold() for c in last.sheets[0].columns}
    for t in texts:
        result_hits = [h for h in find_columns(t, last.sheets[0]) if h.how == "exact"]
        if any(h.how == "exact" and h.column.casefold() not in theirs and not any(r.start <= h.start and h.end <= r.end for r in result_hits)
               for sh in cur.sheets[:1] for h in find_columns(t, sh)):
            return False  # 按房型分别看中位数, after a median: 房型 is the current file's only, so the statistic is asked of its rows
    return any(h.how == "exact" and h.column.casefold() not in own for t in texts for h in find_columns(t, last.sheets[0]))


def _named_weight(texts: list[str], sheet: SheetInfo) -> int:
    """How much of the request a sheet's columns name: the characters its names cover, a name by meaning or in the other
    language counted half (费用类别 said whole outweighs 费用 → unit_cost and 类别 → category)."""
    return sum((h.end - h.start) * (2 if h.how in ("exact", "synonym") else 1) for t in texts for h in find_columns(t, sheet))


@dataclass
class _Reading:
    """Where a request reads from while it is being understood."""

    fi: FileInfo | None
    file: str | None
    how: str
    sheet: SheetInfo
    parsed: list[TurnOps]
    sheet_name: str | None
    candidates: list[str]


def _file_from_context(r: _Reading, texts: list[str], norms: list[str], flags: dict[str, Any], catalog: Catalog,
                       state: SessionState, ev: list[Evidence]) -> None:
    """No file was named: the current file for a follow-up, the only file, or the one file that holds what is named."""
    r.sheet, r.parsed = EMPTY_SHEET, [parse_turn(t, EMPTY_SHEET, flags) for t in texts]
    has_work = any(p.ops for p in r.parsed) or flags["full"]
    cur = catalog.get(state.current_file) if state.current_file else None
    latest = catalog.get(state.last_result) if state.last_result and cur is not None and results.is_result(cur.path) else None
    if latest is not None and cur is not None and latest.path != cur.path:
        _, _, hits_latest, unres_latest = _best_sheet(latest, texts, flags)
        if hits_latest > 0 and unres_latest == 0:
            cur = latest  # 按平均费用排序 after a result made from a result: the latest of them that has the column
    last = catalog.get(state.last_result) if state.last_result else None
    if last is not None and cur is not None and last.path != cur.path and last.sheets and cur.sheets and _names_only_in(texts, last, cur):
        cur = last  # sort by Weight (kg)_mean, after the summary: a column only the summary has names the summary
    joined = state.last is not None and state.last.request.op("join") is not None and not any(o.kind == "join" for p in r.parsed for o in p.ops)
    if joined and last is not None and cur is not None and last.path != cur.path and last.sheets and r.how == "none":
        _, p_last, _, unres_last = _best_sheet(last, texts, flags)
        if unres_last == 0 and any(p.ops for p in p_last):
            cur = last  # keep only the won ones, right after a join: the joined table, never its first table again
    chatty = any(lx.EXPORT_LIST.search(t) or lx.about_me(t, data_words(catalog)) for t in norms)
    if r.how == "none" and cur is not None and not chatty:
        # a follow-up on the current file: use it when what the request names fits it
        s_cur, p_cur, hits, unres = _best_sheet(cur, texts, flags)
        words = [w.casefold() for w in re.findall(r"[A-Za-z]{2,}", norms[-1])]
        own = {c.casefold() for s in cur.sheets for c in s.columns}
        short = (len(CJK_CHARS.findall(norms[-1])) <= 8 and len(words) <= 5  # 导出成excel, 去重, how many rows?
                 and all(w in FUNCTION_WORDS or w in own for w in words))
        names_sheet = len(cur.sheets) > 1 and any(sh.name and _sheet_named(sh.name, norms[-1].casefold()) for sh in cur.sheets)
        follow_up = bool(FOLLOW_UP.search(norms[-1]) or lx.DEICTIC.search(norms[-1]) or state.pending or short or names_sheet
                         or SAME_CONDITION.search(norms[-1]))  # 11-12月也是这个条件…: a sheet of the workbook in use, its conditions
        if any(p.ops for p in p_cur) and unres == 0 and (hits > 0 or (has_work and follow_up)):
            r.fi, r.file, r.how, r.sheet, r.parsed = cur, cur.path, "current", s_cur, p_cur
            r.sheet_name = s_cur.name if len(cur.sheets) > 1 else None
            if r.sheet_name and _split_table(cur) and any(r.sheet_name in t for t in texts):
                # 上半年欠费的有多少户 with the workbook in focus: the sheet's name names the sheet, never a period of its rows
                r.parsed = _fit([t.replace(r.sheet_name, " " * len(r.sheet_name)) for t in texts], s_cur, flags)[0]
            if state.current_sheet and state.current_sheet != s_cur.name and cur.sheet(state.current_sheet):
                p_old, h_old, u_old = _fit(texts, _sheet_of(cur, state.current_sheet), flags)
                if (h_old - 3 * u_old) >= (hits - 3 * unres) and not any(s.casefold() in " ".join(texts).casefold() for s in [s_cur.name or ""] if s):
                    r.sheet_name, r.sheet, r.parsed = state.current_sheet, _sheet_of(cur, state.current_sheet), p_old
    only = catalog.tables[0] if len(catalog.tables) == 1 else None
    if r.fi is None and only is not None and not only.error and r.how in ("none", "current_missing") and not chatty and (
            has_work or any(p.ops for p in _best_sheet(only, texts, flags)[1])):  # work read on the only file's own columns
        # a one-file workspace: that file is the file
        r.sheet, r.parsed, _, _ = _best_sheet(only, texts, flags)
        r.fi, r.file, r.how = only, only.path, "only"
        r.sheet_name = r.sheet.name if len(only.sheets) > 1 else None
        ev.append(evidence.weighed("file_only", "工作区里只有这一个表格", "the workspace holds only this table"))
    if r.fi is None and r.how in ("none", "ambiguous", "current_missing") and not chatty:
        # infer the file from the columns and values the request mentions
        # only files sharing a character with the request can have a column or value it names
        # a file none of whose columns is named cannot fit; nor can one that shares no character with the request
        pool = catalog.naming_columns([f for c in r.candidates if (f := catalog.get(c))] if r.how == "ambiguous" else list(catalog.tables), texts)
        if pool and r.how != "ambiguous":
            named = {f.path for f in pool}
            pool = [f for f in catalog.tables_touching(" ".join(texts)) if f.path in named]
        scored: list[tuple[FileInfo, SheetInfo, list[TurnOps], int]] = []
        for f in pool:
            if f.error:
                continue
            s, p, hits, unres = _best_sheet(f, texts, flags)
            if hits > 0 and unres == 0 and any(o.kind != "profile" for q in p for o in q.ops):
                scored.append((f, s, p, _named_weight(texts, s)))
        by_sheet = not scored and any(SHEET_AS_KEY.search(t) or lx.BY_SHEET.search(t) for t in texts)
        if by_sheet:
            # 按工作表分别算定金已退的比例: by sheet is a key only a workbook of sheets has, never a column to find
            bare = [lx.BY_SHEET.sub(lambda m: " " * len(m.group(0)), SHEET_AS_KEY.sub(lambda m: " " * len(m.group(0)), t)) for t in texts]
            for f in pool:
                if f.error or len(f.sheets) < 2:
                    continue
                s, p, hits, unres = _best_sheet(f, bare, flags)
                if hits > 0 and unres == 0 and any(o.kind != "profile" for q in p for o in q.ops):
                    scored.append((f, s, _fit(texts, s, flags)[0], _named_weight(texts, s)))
        most = max((h for *_, h in scored), default=0)
        fits = [(f, s, p) for f, s, p, h in scored if h == most]  # 每个小区的实收金额合计: the file that has 实收金额 too, not only 小区
        if len(fits) == 1 and r.how == "none":
            r.fi, r.sheet, r.parsed = fits[0]
            r.file, r.how = r.fi.path, "inferred"
            r.sheet_name = r.sheet.name if len(r.fi.sheets) > 1 and not by_sheet else None  # (by sheet: every one, read below)
            if r.sheet_name and r.fi.path == state.current_file and state.current_sheet and state.current_sheet != r.sheet_name \
                    and r.fi.sheet(state.current_sheet) is not None and _split_table(r.fi) \
                    and not any(_sheet_named(s.name or "", " ".join(texts).casefold()) for s in r.fi.sheets):
                # a request said again in full, naming no sheet, on the workbook in use: the sheet in use (never a guess)
                r.sheet_name, r.sheet = state.current_sheet, _sheet_of(r.fi, state.current_sheet)
                r.parsed = _fit(texts, r.sheet, flags)[0]
            if r.sheet_name and _split_table(r.fi) and any(r.sheet_name in t for t in texts):
                # 2月份按缴费方式汇总实收: the sheet's name names the sheet, never a period of its rows as well
                r.parsed = _fit([t.replace(r.sheet_name, " " * len(r.sheet_name)) for t in texts], r.sheet, flags)[0]
                for t, turn in zip(texts, r.parsed, strict=True):
                    turn.consumed += [m.span() for m in re.finditer(re.escape(r.sheet_name) + "份?", t)]
            ev.append(evidence.weighed("file_inferred", "您没有说是哪个文件，只有它含有提到的列"))
        elif len(fits) == 1 and r.how == "ambiguous":
            r.candidates = [fits[0][0].path] + [c for c in r.candidates if c != fits[0][0].path]
        elif len(fits) > 1 and r.how == "none" and has_work:
            r.how, r.candidates = "ambiguous", [f.path for f, _, _ in fits]


@dataclass
class _Understanding:
    """One request being understood: its turns, the files and sheet found, the operations read and the evidence."""

    turns: list[str]
    catalog: Catalog
    state: SessionState
    restrict: list[str] | None
    norms: list[str] = field(default_factory=list)
    lang: str = "zh"
    refs: list[FileRef] = field(default_factory=list)
    ref: FileRef = field(default_factory=FileRef)
    flags: dict[str, Any] = field(default_factory=dict)
    texts: list[str] = field(default_factory=list)
    kw: dict[str, Any] = field(default_factory=dict)
    ev: list[Evidence] = field(default_factory=list)
    file: str | None = None
    how: str = "none"
    candidates: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    fi: FileInfo | None = None
    files: tuple[str, ...] = ()
    sheet_name: str | None = None
    sheet_problem: str | None = None
    sheet_guessed: bool = False  # the sheet was chosen, not said: asked about when the sheets are one table split
    two_sheets: list[str] = field(default_factory=list)
    stacked: list[str] = field(default_factory=list)  # the sheets read as one table, stacked
    split_guess: bool = False  # no file said; the one workbook whose sheets are one table was taken for "all sheets"
    looked_up: tuple[str, str, str] | None = None  # (column, the table holding it, the key): a lookup join put first
    lookup: tuple[int, joins.Lookup] | None = None  # (the turn, what it said): columns of another table brought onto this one
    in_use_first: bool = False  # join plans.csv / 把它和…比: the table in use is the first of two, on the sheet in use
    other_sheet: str | None = None  # the sheet of the second table a join names (not in … the South sheet of orders.xlsx)
    second_summary: str = ""  # average rate by seniority, and count of vets per clinic: the second summary, left for later
    join_pair: tuple[str, str] | None = None  # the keys of a join, as the user paired them
    sheet: SheetInfo = field(default_factory=lambda: EMPTY_SHEET)
    parsed: list[TurnOps] = field(default_factory=list)
    ops: list[Op] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


EACH_SHEET_THEN_KEY = lazy(r"(?P<q>(?:in\s+)?(?:each|every|per)\s+)(?:tab|sheet)\s*(?:and|&)\s+(?=[a-z])"
                          r"|(?:每个?|各(?:个)?)\s*工作表\s*(?:和|与|跟|及|以及|、)\s*(?=[\u4e00-\u9fffA-Za-z])", re.I)


def _sheet_words_blanked(t: str, sheets: list[str]) -> str:
    """The words that said every sheet, read: blanked; per sheet and Route (每个工作表和服务项目) keeps its 'per' for the key said after it
    (the sheets are a key of their own); per month over sheets that are no months is the rows' months, kept."""
    t = EACH_SHEET_THEN_KEY.sub(lambda m: (q := m.group("q") or "按") + " " * (len(m.group(0)) - len(q)), t)  # (每个工作表和服务项目: 按 服务项目)

    def blank(m: re.Match[str]) -> str:
        period = lx.EACH_SHEET.fullmatch(m.group(0).strip())
        if period is not None and not _each_sheet_said(m.group(0), sheets):
            return m.group(0)
        head = COUNTED_SHEETS_HEAD.match(m.group(0))
        if head is not None and WORDS_IN_GAP.search(m.group(0), head.end()):  # 三个季度赔付金额全部加起来: the sheets said; the
            return " " * head.end() + m.group(0)[head.end():]  # column and its total stay to be read
        return " " * len(m.group(0))
    return lx.ALL_SHEETS.sub(blank, t)


COUNTED_SHEETS_HEAD = lazy(r"(?:[两三四五六七八九十几]|\d+)\s*(?:个|张)\s*(?:工作表|sheet|表|季度|月|半年)(?:的)?")
WORDS_IN_GAP = lazy(r"(?!(?:的|都|全部|全都|数据|记录|一起|合在|合起|加起|加在|合并|汇总))[\u4e00-\u9fff]{2}")


def _sheets_no_key(u: _Understanding) -> bool:
    """no, by route only, not by depot / 分组里去掉工作表: a turn says the sheets are no key, whatever an earlier one said."""
    return any(lx.NOT_BY_SHEET.search(n) for n in u.norms)


def _u_files(u: _Understanding) -> None:
    """The language of the request and the files its turns name."""
    state = u.state
    from modes.tagging.sheet_nouns import as_sheets

    u.turns = [as_sheets(t, u.catalog, state.current_file) for t in u.turns]  # 三个校区 / per clinic: the sheets of the workbook they name
    u.norms = [normalize(t) for t in u.turns]
    latest = u.turns[-1]
    sentence = re.search(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}", latest) or re.search(r"[我你的了吗呢把帮请按给是在都要就这那个吧啊呀哦么里下]", latest)
    u.lang = language(latest) if sentence or len(u.turns) == 1 else language(u.turns[0])
    # (这个去重后的目录 / that pivot: the last result named by what it is, never a file described by its words)
    u.refs = [find_files(_blank(t, [m.span() for m in lx.RESULT_NAMED.finditer(t)]), u.catalog, state.current_file, u.restrict) for t in u.norms]
    ref = next((r for r in reversed(u.refs) if r.how != "none"), FileRef())
    if ref is u.refs[-1] and _stem_is_a_column_here(u, ref, len(u.norms) - 1):
        # 去重的话是多少个患者, right after rows of 预约记录 (患者编号): the word is that column's, never 患者.csv said
        u.refs[-1] = ref = FileRef()
    named = next((r for r in reversed(u.refs) if r.how == "named"), None)
    if ref.how in ("description", "type") and named is not None and not set(ref.paths) & set(named.paths) \
            and _names_its_column(u, ref, named):
        ref = named  # 不对，按门店算… after 烘焙订单.xlsx …: a column of the file named (门店) that describes another file (stores.csv)
    fuller = next((r for r in u.refs if set(ref.paths) < set(r.paths) and r.how in ("named", "fuzzy")), None)
    if ref.how == "named" and fuller is not None:
        ref = fuller  # 客户编号 对应 Client Code after "订单.csv和客户.csv": a later turn naming one of them keeps both
    last = state.last_result
    unnamed = _blank(u.norms[-1], u.refs[-1].spans)  # (销售明细_关联.csv 按…汇总: a word of a file's name is no join)
    by_name = ref.how in ("named", "fuzzy") or (ref.how == "description" and ref.by_sheet)  # (城南店: a sheet by its own name)
    if by_name and last and last not in ref.paths and u.catalog.get(last) is not None \
            and (lx.EXPLORE_JOIN.search(unnamed) or lx.EXPLORE_COMPARE.search(unnamed)) and (jr := lx.JOIN_RESULT.search(u.norms[-1])):
        said_at = min([a for a, _ in ref.spans] + ([u.norms[-1].find(ref.sheet)] if ref.sheet and ref.sheet in u.norms[-1] else []), default=len(u.norms[-1]))
        first = said_at < jr.start() and jr.group(0)[:1] in "和跟与同"
        # join that with stores.csv: the last result is the other side (用城南店跟这个关联: the table said first is the base)
        ref = replace(ref, paths=[*ref.paths, last] if first else [last, *ref.paths])
    # "把它和北京_poi.xlsx比一下": the current file plus a named one
    two_way = lx.EXPLORE_COMPARE.search(unnamed) or lx.EXPLORE_JOIN.search(unnamed)
    if (ref.how in ("named", "fuzzy", "description") and state.current_file and state.current_file not in ref.paths
            and two_way and (lx.DEICTIC.search(u.norms[-1]) or _joins_one_more(u, ref))):
        ref = replace(ref, paths=[state.current_file] + ref.paths)
        u.in_use_first = True
    for i in reversed(range(len(u.norms))):  # 把 plans.csv 的 Tier 加进来: the receiving table first, the giving one second
        r = u.refs[i]
        # add their Team from techs.csv / 带到这个结果里: the last result receives the columns
        # (这些的业主姓名也带上 / their names too: the rows just shown, said as them)
        said_of_result = lx.JOIN_RESULT.search(u.norms[i]) or lx.RESULT_REF.search(u.norms[i]) or _summary_just_shown(state)
        base = state.last_result if last and u.catalog.get(last) is not None and said_of_result else state.current_file
        # (带上幼儿姓名，把阳光园…的记录列出来: a table said only by its name's word before one of its columns, found by description)
        paths = r.paths if r.how in ("named", "fuzzy") else [*r.paths, *(f.path for f in u.catalog.tables if f.path not in r.paths)]
        lk = joins.lookup(u.norms[i], u.catalog, paths, base, state.current_sheet) if paths else None
        if lk is not None:
            ref, u.lookup = FileRef(how="named", paths=[lk.base, lk.source], spans=r.spans, sheet=lk.sheet), (i, lk)
            break
    by_sheet = ref.how == "description" and ref.sheet is not None  # 三个季度: a word of the sheets' names, not one sheet
    described = u.catalog.get(ref.paths[0]) if by_sheet and ref.paths else None  # (rentals per month in 2024: a period of its rows)
    if (ref.how in ("none", "ambiguous") or by_sheet) and any(every_sheet_said(n.casefold(), described) for n in u.norms):
        # 把三个季度合在一起… with no file said: the one workbook whose sheets are one table split (never a join)
        pool = [f for f in (u.catalog.get(p) for p in ref.candidates) if f] if ref.how == "ambiguous" else \
            [f for f in (u.catalog.get(p) for p in ref.paths) if f] if by_sheet else list(u.catalog.tables)
        split = [f for f in pool if f.is_table and _split_table(f)]
        several = len(split) > 1
        if several:  # two such workbooks: the one holding the columns the request names
            split = [f for f in split if any(h.how == "exact" for h in find_columns(u.norms[-1], f.sheets[0]))]
        if len(split) == 1:
            # (三个店 / 各车队 / every sheet, where one workbook alone has sheets that are one table: that one, no guess)
            ref, u.split_guess = FileRef(how="description", paths=[split[0].path]), not by_sheet and several
    elif ref.how in ("named", "description") and len(ref.paths) == 1 and any(lx.EXPLORE_JOIN.search(n) for n in u.norms) \
            and any(every_sheet_said(n.casefold(), None) for n in u.norms):
        # 三个店的订单合起来，关联会员表: every sheet of the one workbook split into sheets, joined to the table named
        split = [f for f in u.catalog.tables if f.path not in ref.paths and _split_table(f)]
        named_one = u.catalog.get(ref.paths[0])
        if len(split) == 1 and named_one is not None and not _split_table(named_one):
            ref = replace(ref, paths=[split[0].path, *ref.paths])
    if ref.how == "none" and state.current_file and not lx.RESULT_REF.search(u.norms[-1]) and not lx.THEN_START.search(u.norms[-1]):
        cur = u.catalog.get(state.current_file)
        # (换成中位数 after 东区店里…是多少: the sheet said by the turn it corrects)
        said = next((n for t in reversed(u.norms) if (n := find_sheet(t, cur)[0])), None) if cur is not None and len(cur.sheets) > 1 else None
        # 那工作日的呢 / what about weekdays: a follow-up naming no file and no data word is asked of the file in use
        in_use = cur is not None and cur.is_table and len(u.norms) == 1 and ASKED_OF_IN_USE.search(u.norms[-1]) is not None
        if said or in_use:
            # 那就东区店做个透视表吧, after a result of that workbook: its sheet named, never the last result's table
            ref = FileRef(how="current", paths=[cur.path])  # type: ignore[union-attr]  # (the sheet is read from the words)
    if ref.how == "none":  # 湖西和湖北分别…: sheets said without the end their names share describe their workbook
        low = u.norms[-1].casefold()
        books = [f for f in u.catalog.tables if f.loaded and _split_table(f) and any(st in low for st in sheet_stems(f).values())]
        if len(books) == 1:
            ref = FileRef(how="description", paths=[books[0].path], by_sheet=True)
    u.ref = ref


def _joins_last_summary(u: _Understanding, last: FileInfo | None) -> bool:
    """他们的金额合计也加上 after a summary: a figure of the source joins what ran (their = its groups), never a column
    looked for in the result, which has only the summary's figures."""
    prev = u.state.last
    if last is None or prev is None or not lx.ADDITIVE.search(u.norms[-1]) or lx.ADD_COLUMN.search(u.norms[-1]) \
            or re.search(r"[=＝]|等于", u.norms[-1]) \
            or not any(o.kind == "group" and o.args.get("keys") for o in prev.request.ops):
        return False
    src = u.catalog.get(prev.request.file) if prev.request.file else None
    if src is None or results.is_result(src.path) or not src.sheets:
        return False
    sheet = _sheet_of(src, prev.request.sheet)
    named = [h.column for h in find_columns(u.norms[-1], sheet) if h.column in sheet.numeric]
    own = {c.casefold() for s in last.sheets for c in s.columns}
    return bool(named) and not any(c.casefold() in own for c in named)


def _names_its_column(u: _Understanding, ref: FileRef, named: FileRef) -> bool:
    """Whether the words that describe another file are a column of the file named in an earlier turn."""
    i = u.refs.index(ref)
    f = u.catalog.get(named.path) if named.path else None
    if f is None or not f.sheets or not ref.spans:
        return False
    cols = [(h.start, h.end) for sh in f.sheets for h in find_columns(u.norms[i], sh)]
    return all(any(a <= sa and sb <= b for a, b in cols) for sa, sb in ref.spans)


@functools.cache
def _declined_step_words() -> re.Pattern[str]:
    """A step said not to be done (不要折线图 / no chart / 不用排序), from words.toml [drop_step] (never a filter: 不要筛选
    渠道为空 says a condition)."""
    from modes.tagging.segment import declined_lead, words_toml
    from modes.tagging.segment import word_alternation as alt

    # (a dedupe said negated asks for one: without duplicates)
    kinds = [x for k, v in words_toml()["drop_step"]["kinds"].items() if k not in ("filter", "dedupe") for x in v]
    return re.compile(rf"{declined_lead()}\s*(?:the\s+|a\s+|any\s+)?(?:画|做|出|要|加)?(?:个|一个|成)?\s*(?:{alt(kinds)})(?![a-z_])", re.I)


def _declined(text: str) -> list[tuple[int, int]]:
    """Where a step is said not to be done: no operation of its own, and no word left unexplained."""
    return [m.span() for m in _declined_step_words().finditer(text)]


def _purpose(text: str) -> list[tuple[int, int]]:
    """为了…， / …，以便…: why the request is asked, read as context (blanked), never as what to do."""
    return [m.span() for m in lx.PURPOSE.finditer(text)]


# 按商品统计订单数 / 订单量 (订单.csv): the file's name said as what is counted stays the count word, never blanked to 数
STEM_COUNTED = lazy(r"(?:总数|个数|数量|数目|数|量)(?![据值字学额])")


# a file named by a plural names its rows (parcels.xlsx: "parcels by service" counts them) — but not these, which name figures
NOT_ROW_STEMS = frozenset({"sales", "stats", "statistics", "metrics", "totals", "results", "figures", "numbers", "prices", "costs", "kpis",
                           "analytics", "finances", "accounts", "summaries", "targets", "goals", "budgets", "rates", "scores", "hours"})


def _u_flags(u: _Understanding) -> None:
    """How the request runs (plan only, overwrite, format, header row) and the texts with file names blanked."""
    norms, refs = u.norms, u.refs
    flags = u.flags = _flags(norms, refs)
    named = next((r for r in reversed(refs) if r.how == "named"), None)
    from modes.ops import OUT_NAME

    # (存成 导购汇总.xlsx: the name of the file written holds no operation of its own)
    u.texts = [_blank(t, ([] if _set_aside(r, named) or _a_column_word_then(u, r, i) else [sp for sp in r.spans if not STEM_COUNTED.match(t, sp[1])])
                      + _purpose(t) + _declined(t) + [_name_span(m) for m in OUT_NAME.finditer(t)])
               for i, (t, r) in enumerate(zip(norms, refs, strict=True))]
    for i, t in enumerate(u.texts):
        stripped = re.sub(r"[\s,.;:!?的吧呀啊哦了]|那个|这个|文件|表格?|file|the", "", t, flags=re.I)
        if refs[i].how in ("named", "fuzzy", "description", "type") and not stripped:
            flags["bare_file"] = True
    flags["export_list"] = bool(lx.EXPORT_LIST.search(norms[-1])) and len(u.turns) == 1
    words = [w for w in re.split(r"[^a-z]+", (u.ref.path or "").rsplit("/", 1)[-1].rsplit(".", 1)[0].casefold()) if w]
    stem = words[-1] if words else ""
    # tickets.csv / wash_visits.xlsx: "closed tickets by team" / "Harbor visits by Package" counts its rows
    flags["rows_named"] = stem.endswith("s") and (stem.rstrip("s") in ROW_NOUNS_EN or len(stem) >= 5 and stem not in NOT_ROW_STEMS) \
        and any(stem in norms[-1][a:b].casefold() for a, b in refs[-1].spans)  # (the plural said, never only its sheet's name)
    earlier = u.state.pending or u.state.last
    flags["pending_kinds"] = [o.kind for o in earlier.request.ops] if earlier else []
    header = next((m for m in (lx.HEADER_ROW.search(t) for t in reversed(norms)) if m), None)
    header_row = int(parse_number(next(g for g in header.groups() if g)) or 0) or None if header else None
    u.kw = {
        "text": u.turns[-1], "lang": u.lang, "plan_only": flags["plan_only"], "overwrite": flags["overwrite"],
        "full": flags["full"], "target_format": flags["target_format"], "header_row": header_row,
    }


DISTINCT_SAID = lazy(r"不重复|不同的|(?<![a-z_])(?:distinct|unique|different)(?![a-z_])", re.I)
STEM_AS_TABLE = lazy(r"\s*(?:这个|那个|这张|那张)?(?:表格?|文件|名单|清单|sheet|table|file|csv|xlsx)", re.I)


def _stem_is_a_column_here(u: _Understanding, r: FileRef, i: int) -> bool:
    """A follow-up whose only mention of another file is its stem, said bare (no extension, no 表 / file after it), where
    that word names a column of the table in use (患者 / 患者编号): the column's word, never a switch of table."""
    cur = u.catalog.get(u.state.current_file) if u.state.current_file else None
    if r.how != "named" or not r.paths or cur is None or cur.path in r.paths or not r.spans or not cur.sheets or u.state.last is None:
        return False
    text = u.norms[i]
    if any(STEM_AS_TABLE.match(text, b) for _, b in r.spans):
        return False
    if not (lx.DEDUPE.search(text) or lx.RESULT_REF.search(text) or DISTINCT_SAID.search(text)):
        return False  # (how many members are there: the members table, unless the rows in use are what is counted)
    sheet = cur.sheet(u.state.current_sheet) if u.state.current_sheet else None
    return _stems_name_columns(text, r.spans, sheet or cur.sheets[0])


def _stems_name_columns(text: str, spans: list[tuple[int, int]], sheet: SheetInfo) -> bool:
    """Whether every mention of a file, said by its stem (never with its extension), names a column of this sheet."""
    return bool(spans) and not any("." in text[a:b] for a, b in spans) \
        and all(resolve_column(text[a:b], sheet, closest=False)[1] in ("exact", "synonym", "partial") for a, b in spans)


def _a_column_word_then(u: _Understanding, r: FileRef, i: int) -> bool:
    """东校区平均课时数超过2.5的教练有哪些, then 西校区的呢: an earlier turn's word that names another file by its stem
    (教练 / 教练.csv) but was read as a column of the file the request runs on (教练工号) stays that column's word."""
    if i == len(u.norms) - 1 or r.how != "named" or not r.paths or set(r.paths) & set(u.ref.paths) or not u.ref.paths:
        return False
    f = u.catalog.get(u.ref.paths[0])
    if f is None or not f.sheets:
        return False
    return _stems_name_columns(u.norms[i], r.spans, f.sheets[0])  # (a file said with its extension is that file, set aside or not)


def _set_aside(r: FileRef, named: FileRef | None) -> bool:
    """分数最高的5个学生 (学生 describing 学生信息.csv), then 不对，是成绩.xlsx: the words described a file a later turn set
    aside by naming another, so they stay words of the request."""
    return named is not None and r is not named and r.how == "description" and bool(r.paths) and not set(r.paths) & set(named.paths)


def _narrows_the_join(u: _Understanding, last: FileInfo) -> str:
    """A follow-up (now only …) that names a table just joined onto the last result by its plural noun, and a value the
    result holds: it narrows that result ("last"). Joined earlier in the chain the last result came from (joined, then
    summed by faculty: only international students), a value of that table narrows the chain's rows ("chain")."""
    prev, path, text = u.state.last, u.ref.path, u.norms[-1]
    if prev is None or path is None or path.rsplit("/", 1)[-1].casefold() in text.casefold() or not lx.FOLLOW_UP.search(text) \
            or not last.sheets:
        return ""
    def joined_here(p: Pending) -> bool:
        return p.request.op("join") is not None and path in p.request.files[1:]

    if joined_here(prev) and find_values(text, last.sheets[0], []):
        return "last"
    # 五星教练除外呢, after a join, a total per name and a top 3 in one request (or joined steps before): a value only the
    # joined table holds
    p: Pending | None = prev
    while p is not None and not joined_here(p):
        p = p.source
    joined = u.catalog.get(path)
    if p is None or joined is None or not joined.sheets:
        return ""
    sheet = joined.sheets[0]
    # (only spicy items, over spicy (Y/N) of the joined menu: that flag's yes rows, a condition on the chain as well)
    flagged = any(flag_yes(sheet, h.column) is not None for h in find_columns(text, sheet))
    return "chain" if find_values(text, sheet, []) or flagged else ""


ASKED_OF_IN_USE = lazy(r"^\s*那.{1,16}呢\s*[?？]?\s*$|^\s*[^\s，,。？?]{1,16}的呢\s*[?？]?\s*$"
                       r"|^\s*(?:and\s+)?(?:what|how)\s+about\s+\S.{0,30}$|^\s*and\s+(?:on|for|in|at|only|just)\s+\S.{0,30}$"
                       r"|^\s*(?:the\s+)?same\s+(?:but|for)\s+\S", re.I)


def _u_input(u: _Understanding) -> None:
    """The input: the previous result (在这个结果里 / then …), or the file named; a file that is no table is said."""
    catalog, state, norms, lang = u.catalog, u.state, u.norms, u.lang
    u.how, u.candidates = u.ref.how, list(u.ref.candidates)
    how = u.how
    last = catalog.get(state.last_result) if state.last_result else None
    then = last is not None and bool(lx.THEN_START.search(norms[-1])) and _goes_on_from(last, norms[-1], catalog.get(state.current_file))
    result_column = how == "missing" and last is not None and any(("_" in c or "-" in c) and c.casefold() in (u.ref.missing_name or "").casefold() for s in last.sheets for c in s.columns)
    if not then and last is not None and len(norms) == 1 and (how in ("none", "current", "current_missing") or result_column):
        then = _asks_of_result(last, norms[-1], catalog.get(state.current_file))  # (月薪_平均 is the result's column, not a file)
    # now only the senior vets, after vets.csv was joined on: the result's rows, never vets.csv's
    narrows = _narrows_the_join(u, last) if not then and last is not None and len(norms) == 1 and how in ("named", "fuzzy", "description") else ""
    if how == "description" and narrows != "chain":
        narrows = ""  # (a table described by its noun narrows only the chain it was joined in)
    if narrows == "chain":  # the table's noun names the rows of the chain, never the table alone
        u.texts[-1] = _blank(u.texts[-1], u.ref.spans)
        u.ref, how, narrows = FileRef(), "none", ""
        u.how = how
    result = results.scope(how, u.ref.path, norms, state, catalog, then) if not _joins_last_summary(u, last) else None
    result = last if narrows else result
    result = _rows_under_the_total(u, result) or result
    if result is None and how in ("none", "current", "current_missing") and results.lost_rows(norms[-1], state):
        # 这些的金额合计 after rows that were counted but not kept: never the whole file in their place
        u.problems.append("上一步选出的行没有保留下来（太多，没有留副本），“这些”指的结果已不在；请把条件和这一步一起说，或说明在哪个文件上做。"
                          if lang == "zh" else "The rows the step before kept were not held (too many to copy), so 'these' has "
                          "nothing to point at; say the conditions together with this step, or name the file.")
        u.candidates = [f.path for f in catalog.tables]
        u.file, u.how = None, "not_table"
    if result is not None:
        if how in ("missing", "type", "ambiguous", "description", "fuzzy"):  # what looked like a file (points_合计, 订单) is read on the result
            u.texts[-1] = _blank(norms[-1], _purpose(norms[-1]))
        u.how, u.file = "result", result.path  # 在这个结果里… / then …: the last result is the input
        u.texts[-1] = _blank(u.texts[-1], [m.span() for m in lx.RESULT_NAMED.finditer(u.texts[-1])])  # 这个透视表 names the input
        u.ev.append(evidence.weighed("file_result", "在上一步的结果上操作", "working on the previous result"))
        if result.path in u.ref.paths[1:]:  # 用城南店跟这个结果关联: the table said first is the base, the result the other side
            u.how = u.ref.how
    if u.how in ("named", "fuzzy", "description", "current", "type"):
        u.file = u.ref.path
        if u.how == "fuzzy":
            u.ev.append(evidence.weighed("file_fuzzy", "文件名和工作区里的文件差一点，按最接近的理解"))
        if u.how == "type":
            u.ev.append(evidence.weighed("file_type", "您没有说是哪个文件，工作区里只有这一个这种类型的文件"))
    fi = catalog.get(u.file) if u.file else None
    if fi is not None and not fi.is_table:
        u.problems.append(f"{fi.name} 不是表格文件。" if lang == "zh" else f"{fi.name} is not a spreadsheet.")
        u.candidates = [f.path for f in catalog.tables]
        fi, u.file, u.how = None, None, "not_table"
    u.fi = fi
    u.files = tuple(p for p in u.ref.paths if (catalog.get(p) is not None and catalog.get(p).is_table)) if fi else ()  # type: ignore[union-attr]
    if state.last_result and state.last_result in u.files:  # 跟这个去重后的目录关联: the words naming the result hold no operation
        u.texts[-1] = _blank(u.texts[-1], [m.span() for m in lx.RESULT_NAMED.finditer(u.texts[-1])])
    if fi is not None and u.how != "result":  # a word that looked like the file (Team_Name ~ teams.csv) but is one of its columns stays a column
        for i, (t, r) in enumerate(zip(norms, u.refs, strict=True)):
            if _set_aside(r, next((x for x in reversed(u.refs) if x.how == "named"), None)):
                continue  # (words of a file set aside stay words of the request)
            if r.spans and r.how not in ("named",):
                cols = [(h.start, h.end) for s in fi.sheets for h in find_columns(t, s)]
                # 客户对账单 … 的客户有哪些: the word said again after the file (or describing the file already in use)
                # names a column of it (客户名称), never the file a second time
                first = min(r.spans)[0]
                again = [sp for sp in r.spans if (sp[0] > first or r.how == "description" and r.paths == [u.state.current_file])
                         and not any(a <= sp[0] and sp[1] <= b and (a, b) != sp for a, b in r.spans)
                         and resolve_column(t[sp[0] : sp[1]], fi.sheets[0], closest=False)[1] in ("exact", "synonym", "partial")] if fi.sheets else []
                u.texts[i] = _blank(t, [sp for sp in r.spans if sp not in again and not any(a < sp[1] and sp[0] < b for a, b in cols)
                                        and not _inside_a_word(t, sp)] + _purpose(t))
            elif r.spans:  # 客户编号 holds the name of 客户.csv: a part of a longer column name is that column's
                cols = [(h.start, h.end) for s in fi.sheets for h in find_columns(t, s)]
                inside = [sp for sp in r.spans if any(a <= sp[0] and sp[1] <= b and b - a > sp[1] - sp[0] for a, b in cols)]
                if inside:
                    u.texts[i] = _blank(t, [sp for sp in r.spans if sp not in inside] + _purpose(t))


def _rows_under_the_total(u: _Understanding, result: FileInfo | None) -> FileInfo | None:
    """how many of them were no-shows / 其中逾期的有几本, right after a total of the rows kept: the words name a column the
    total has not and those rows have, so they are about the rows the total was over (that kept table), never the
    total's one row."""
    prev = u.state.last
    if result is None or result.path != u.state.last_result or prev is None or len(u.norms) != 1:
        return None
    g = prev.request.op("group")
    if g is None or g.args.get("keys") or not results.is_result(prev.request.file) or prev.request.file == result.path:
        return None
    rows = u.catalog.get(prev.request.file) if prev.request.file else None
    if rows is None or not rows.sheets or not result.sheets:
        return None
    sheet, text = rows.sheets[0], u.norms[-1]
    hits = find_columns(text, sheet)
    named = {h.column for h in hits if h.how in ("exact", "synonym")} | {c.column for c in parse_conditions(text, sheet, hits).conds if c.column}
    held = {c.casefold() for c in result.sheets[0].columns}
    return rows if named and not any(c.casefold() in held for c in named) else None


def _inside_a_word(text: str, span: tuple[int, int]) -> bool:
    """销售 of 门票销售2024.xlsx inside 销售额: a word that describes the file but is part of a longer word of the
    lexicon (a figure's name), which stays whole."""
    for w in _long_cjk_words():
        if w not in text:
            continue
        for m in re.finditer(re.escape(w), text):
            if m.start() <= span[0] and span[1] <= m.end() and m.end() - m.start() > span[1] - span[0]:
                return True
    return False


@functools.lru_cache(maxsize=1)
def _long_cjk_words() -> tuple[str, ...]:
    """The lexicon's Chinese words of three characters or more (销售额, 营业额), read once."""
    return tuple(w for w in lx.synonyms() if len(w) >= 3 and all("\u4e00" <= ch <= "\u9fff" for ch in w))


SHEET_VALUE_BEFORE = lazy(r"(?:(?:工作表|(?<![a-z_])(?:sheet|tab))\s*(?:是|为|等于|不等于|不是|不为|!=|=|is not|isn't|is)\s*|除了|除去|(?<![a-z_])(?:except(?:\s+for)?|excluding|other than|apart from)\s+(?:the\s+)?"
                          r"|(?:不算|不要|去掉|排除|刨去|不含|不包括|扣除)\s*|(?<![a-z_])(?:leave out|leaving out|without|not counting|minus|skip|drop|exclude|ignore|ignoring)\s+(?:the\s+)?)$", re.I)
SHEET_VALUE_AFTER = lazy(r"\s*(?:这个|这张|那个|那张)?(?:工作表|表|sheet|tab)?\s*(?:的)?\s*(?:以外|之外|除外|(?:不算|不要|不计|去掉)(?=\s*(?:了|呢|了呢)?\s*(?:[，,。;；?？]|$)))", re.I)  # (开发区店不算抗生素: the sheet, its rows)


def _sheet_valued(t: str, start: int, end: int) -> bool:
    """工作表是北门以外的 / 除了阳光花园 / sheet is not Pier: a sheet's name said as a value of the column that names each
    row's sheet (a condition on it once the sheets are stacked), never only the sheet read."""
    return SHEET_VALUE_BEFORE.search(t, 0, start) is not None or SHEET_VALUE_AFTER.match(t, end) is not None


SHEETS_WORD_LEFT = lazy(r"(?<![a-z_])(?<!each )(?<!every )(?<!per )(?<!by )(?<!all )(?<!both )(?<!the )(?<!its )(?<!their )(?<!two )(?<!three )(?<!four )(?<!five )(?<!six )(?:the\s+)?(?:sheets?|tabs?)(?=(?:\s|,|&|(?<![a-z])and(?![a-z]))*(?:[;.!?]|$))", re.I)
IN_A_DATE = lazy(r"\s*\d{1,2}\s*(?:号|日)")  # 9月15号, beside a sheet named 9月: a day of the date, never the sheet said again
NOT_JUST = lazy(r"(?:(?<![a-z_])not\s+(?:just|only)|不只是?|不光是?|不仅仅?是?|而不只是?)\s*(?:the\s+)?[^\s，,。；;]{1,16}?(?:\s*(?:表|sheet|tab|工作表))?(?=\s*[，,；;。.]|\s*$)", re.I)
NOT_THIS_SHEET = lazy(r"(?:不是|不要|不用|别用|除了|(?<![a-z_])(?:not|instead of|rather than)\s+(?:the\s+)?)\s*[^\s，,。；;]{1,12}?(?=\s*(?:表|sheet|工作表)?\s*[，,；;]|\s*$)", re.I)


# a time bucket said in words (per month / 环比 / 每个月): the growth is of those periods, inside the sheets
BUCKET_SAID = lazy(r"按月|每月|每个月|月度|环比|同比|按季|每季|季度|按周|每周|按天|每天|按日|按年|每年|(?<![a-z_])(?:per|by|each|every)\s+(?:month|quarter|week|day|year)"
                   r"|(?<![a-z_])(?:monthly|quarterly|weekly|daily|yearly|annual|month-over-month|mom|qoq|wow|yoy|year[- ]over[- ]year|year[- ]on[- ]year)(?![a-z_])", re.I | re.A)


CHANGE_SAID = lazy(r"增长|变化|涨了|涨幅|增加了?多少|减少了?多少|下降了?多少|差(?:了)?多少|(?<![a-z_])(?:grew|grow|growth|changes?|changed|increased?|decreased?|rose|fell|difference)(?![a-z_])", re.I | re.A)
WHICH_KEY = lazy(r"(?:哪个|哪种|哪类|哪家|哪位|哪一个|哪一种|(?<![a-z_])which)\s*$", re.I | re.A)


def _summary_changed(u: _Understanding, sheets: list[str], label: str) -> list[Op]:
    """The one summary of a request that compares two sheets and says a change: that summary's first figure per key, its
    change between the sheets; a key said with which (which show grew the most) is the key, and the rows are ranked."""
    groups = [o for o in u.ops if o.kind == "group" and o.args.get("measures")]
    if len(groups) != 1 or len(sheets) != 2:
        return u.ops
    g = groups[0]
    text = u.norms[-1]
    keys = [k for k in g.args.get("keys") or [] if k != label]
    which = [h.column for h in find_columns(text, u.sheet) if WHICH_KEY.search(text[: h.start]) and h.column not in keys]
    keys += which[:1]
    m = next((x for x in g.args["measures"] if x.get("column")), None) or g.args["measures"][0]
    args: dict[str, Any] = {"by": label, "first": sheets[0], "last": sheets[1], "keys": keys,
                            "agg": m.get("agg", "sum") if m.get("column") else "count", **({"value": m["column"]} if m.get("column") else {})}
    if lx.HIGH_END.search(text) or lx.LOW_END.search(text):
        args.update({"ranked": True, **({"lowest": True} if lx.LOW_END.search(text) and not lx.HIGH_END.search(text) else {}),
                     **({"top": 1} if which else {})})
    return [Op("group_change", args, g.after) if o is g else o for o in u.ops]


def _sheets_change(o: Op, sheets: list[str], label: str) -> Op:
    """A growth said of two sheets compared: the change of its figure between them (the sheet first in the workbook is the base)."""
    if o.kind != "growth" or o.args.get("kind") not in ("pop", "yoy") or len(sheets) != 2:
        return o
    keys = [k for k in o.args.get("by") or [] if k != label]
    value = o.args.get("value")
    args: dict[str, Any] = {"by": label, "first": sheets[0], "last": sheets[1], "keys": keys, "agg": "sum" if value else "count",
                            **({"value": value} if value else {}), **{k: o.args[k] for k in ("ranked", "lowest", "top") if o.args.get(k)}}
    return Op("group_change", args, o.after)


def _stack_in_use(u: _Understanding, fi: FileInfo) -> list[str] | None:
    """The sheets the request just run stacked, when this request is on that workbook by its columns (or as the file in
    use) and names no sheet of its own."""
    last = u.state.last
    while last is not None and last.request.file != fi.path and results.is_result(last.request.file or ""):
        last = last.source  # (只要前3个 on the stacked summary, then a request on the workbook: the chain's own sheets)
    st = last.request.op("stack") if last is not None and last.request.file == fi.path else None
    if st is None or u.how not in ("current", "description", "fuzzy") or u.ref.sheet or u.ref.by_sheet or len(fi.sheets) < 2:
        return None
    said = " ".join(u.norms).casefold()
    if any(s.name and _sheet_named(s.name, said) for s in fi.sheets) or any(st_ in said for st_ in sheet_stems(fi).values()):
        return None
    sheets = [x for x in st.args.get("sheets") or [] if fi.sheet(x) is not None]
    return sheets if len(sheets) > 1 else None


def _u_sheet(u: _Understanding) -> None:
    """The sheet named (or a sheet name that does not exist), and the sheets a comparison names."""
    fi = u.fi
    u.texts = [lx.NOT_BY_SHEET.sub(lambda m: " " * len(m.group(0)), t) for t in u.texts]  # 分组里去掉工作表: no sheet's name, no key
    # all sheets, not just Northgate / 所有工作表，不只是东区: the sheet said beside every sheet is no sheet chosen
    u.texts = [NOT_JUST.sub(lambda m: " " * len(m.group(0)), t) if lx.ALL_SHEETS.search(t.casefold()) else t for t in u.texts]
    second = u.catalog.get(u.files[1]) if len(u.files) == 2 else None  # a sheet the first table lacks may be the second's
    if fi is not None and u.ref.sheet and fi.sheet(u.ref.sheet) is not None and len(fi.sheets) > 1 and len({tuple(s.columns) for s in fi.sheets}) == 1 \
            and all(_sheet_valued(t, x.start(), x.end()) for t in u.norms for x in re.finditer(re.escape(u.ref.sheet), t)) \
            and any(u.ref.sheet in t for t in u.norms):
        u.flags["sheet_left_out"] = True  # 南城片区以外的 / except the Coast sheet: every other sheet, that one left out
        for i, n in enumerate(u.norms):  # its name, read as describing the file, is said again for the condition on the sheets
            for named in re.finditer(re.escape(u.ref.sheet), n):
                if i < len(u.texts) and len(u.texts[i]) == len(n) and not u.texts[i][named.start() : named.end()].strip():
                    u.texts[i] = u.texts[i][: named.start()] + named.group(0) + u.texts[i][named.end() :]
    elif fi is not None and u.ref.sheet and fi.sheet(u.ref.sheet) is not None:
        u.sheet_name = u.ref.sheet  # the sheet's name was what described the file; its words are gone from the text
        if len({tuple(s.columns) for s in fi.sheets}) == 1:  # 高一数学低于90分: 高一 named the sheet, 数学 is a value of it
            u.texts = [_blank(t, [with_sheet_words(t.casefold(), m.span()) for m in re.finditer(re.escape(u.ref.sheet), t)
                                  if not _inside_a_value(t, m.span(), _sheet_of(fi, u.ref.sheet)) and not _sheet_valued(t, m.start(), m.end())]) for t in u.texts]
    # before a sheet's name is blanked: 7月8月9月 names all three (and the Spring and Fall sheets, read as describing the file)
    said = " ".join(u.norms if u.how == "description" else u.texts).casefold()
    said = NOT_THIS_SHEET.sub(lambda m: " " * len(m.group(0)), said)  # 不是上学期，用下学期的: the sheet said not to use is no sheet to stack
    if fi is not None:
        for i in reversed(range(len(u.texts)) if u.sheet_name is None else ()):
            name, missing_name, span = find_sheet(u.texts[i], fi)
            if name and span is not None and _sheet_valued(u.texts[i], *span):
                # 工作表是北门以外的 / 成绩.xlsx 除了二班以外: the sheet's name is a value of the rows' sheet, never the sheet
                # chosen; sheets of one layout are stacked for it (as when the name alone described the file)
                if len({tuple(s.columns) for s in fi.sheets}) == 1:
                    u.flags["sheet_left_out"] = True
                continue
            if missing_name and not name and lx.ALL_SHEETS.search(u.texts[i].casefold()):
                break  # 所有工作表合在一起: every sheet, not one named 所有
            if name or missing_name:
                u.sheet_name = name
                if missing_name and not name and second is not None and second.sheet(missing_name) is not None:
                    u.other_sheet = second.sheet(missing_name).name  # type: ignore[union-attr]  # the South sheet of orders.xlsx, the second table
                    u.sheet_name = None
                    if span is not None:
                        u.texts[i] = _blank(u.texts[i], [span])
                elif missing_name and not name:
                    u.sheet_problem = missing_name
                    if span is not None:  # 的 汇总 表: the name of a sheet, not the word of an operation
                        u.texts[i] = _blank(u.texts[i], [span])
                elif name and span is not None and len({tuple(s.columns) for s in fi.sheets}) == 1 \
                        and not _inside_a_value(u.texts[i], span, _sheet_of(fi, name)):
                    # 下半年 naming a sheet is not also a period of its rows (每次 it is said: 东区店…占东区店总金额)
                    again = [m.span() for m in re.finditer(re.escape(u.texts[i][span[0] : span[1]]), u.texts[i])
                             if not _inside_a_value(u.texts[i], m.span(), _sheet_of(fi, name)) and not IN_A_DATE.match(u.texts[i], m.end())]
                    u.texts[i] = _blank(u.texts[i], [span, *again])
                break
        if u.sheet_name and len(u.texts) > 1 and len(fi.sheets) > 1 and len({tuple(s.columns) for s in fi.sheets}) == 1 \
                and _sheet_named(u.sheet_name, u.norms[-1].casefold()):
            # …Q2: average CSAT by channel, then a turn on Q1: the earlier turn's sheet is no period of the rows now
            for i in range(len(u.texts) - 1):
                u.texts[i] = _blank(u.texts[i], [m.span() for s in fi.sheets if s.name and s.name != u.sheet_name
                                                 for m in re.finditer(name_pattern(s.name), u.texts[i])
                                                 if not _sheet_valued(u.texts[i], *m.span()) and not _inside_a_value(u.texts[i], m.span(), s)])
        low = " ".join(u.texts).casefold()
        u.two_sheets = [s.name for s in fi.sheets if s.name and len(fi.sheets) > 1 and _sheet_named(s.name, said)]
        if not u.two_sheets:  # 城西和城南分别…, of 城东店 / 城西店 / 城南店: sheets said without the end their names share
            stems = sheet_stems(fi)
            u.two_sheets = [n for n, st in stems.items() if st in said] if len([n for n, st in stems.items() if st in said]) > 1 else []
        for n in u.two_sheets if len(u.two_sheets) > 1 and lx.EXPLORE_COMPARE.search(low) else []:
            # 对比一下东区店和西区店: each sheet's name is the sheet's, no word left (实际金额: a column's, kept)
            sh = _sheet_of(fi, n)
            u.texts = [_blank(t, [m.span() for m in re.finditer(re.escape(n), t) if not _inside_a_value(t, m.span(), sh)
                                  and not any(c.start() <= m.start() and m.end() <= c.end() for col in sh.columns if len(col) > len(n)
                                              for c in re.finditer(re.escape(col), t))]) for t in u.texts]
        if len(u.two_sheets) > 1 and len(u.texts) > 1:
            # 9-10月 … then 11-12月每个店各有几笔: a sheet named by a later turn takes the earlier one's place (never both
            # stacked), unless that turn names both or says to put them together
            latest = next((t.casefold() for t in reversed(u.norms) if any(s.name and _sheet_named(s.name, t.casefold()) for s in fi.sheets)), "")
            own = [n for n in u.two_sheets if _sheet_named(n, latest)]
            if len(own) == 1 and not lx.ALL_SHEETS.search(latest) and not lx.EXPLORE_COMPARE.search(latest):
                u.two_sheets, u.sheet_name = [], own[0]
        every_m = lx.ALL_SHEETS.search(" ".join(u.norms).casefold())
        # rentals.xlsx Q2: total per month: a sheet named, and "per month" is a period of its rows, never every sheet
        other_words = [m.group(0) for t in u.norms if (m := lx.ALL_SHEETS.search(t.casefold())) is not None]
        every = every_m is not None and not (u.sheet_name and len(u.two_sheets) < 2 and lx.EACH_SHEET.fullmatch(every_m.group(0).strip())
                                             and all(w == every_m.group(0) for w in other_words) and not _sheets_said_after(u))
        every = every or (bool(u.flags.get("sheet_left_out")) and not u.sheet_name and len(u.two_sheets) < 2)
        kept = _stack_in_use(u, fi)
        if kept is not None and not every and len(u.two_sheets) < 2:
            # 按类别算销售额, right after a request on all three sheets stacked: the sheets in use are those sheets, stacked
            # again (never the first of them alone); the restatement says so
            every = len(kept) == len(fi.sheets)
            u.two_sheets = [] if every else kept
            if not every:  # (closed in August, after Q1 and Q2 were stacked: those two sheets again, said before it runs)
                carried = "、".join(kept) if u.lang == "zh" else ", ".join(kept)
                u.ev.append(evidence.weighed("file_inferred", f"沿用上一步的工作表 {carried}（没有说用哪些工作表）",
                                             f"the sheets of the step before, {carried}, used again (no sheet was named)"))
        every = every or not u.sheet_name and not u.two_sheets and _each_sheet_kind(fi, " ".join(u.norms))
        every = every or not u.sheet_name and not u.two_sheets and lx.BY_SHEET.search(" ".join(u.norms)) is not None \
            and not _sheets_no_key(u)  # total Fee by sheet (not by sheet: no key, nor every sheet)
        # 透视表，行是工作表 / one column per sheet: the sheets given a layout's role are every sheet, stacked
        every = every or (not u.sheet_name and not u.two_sheets and any(SHEET_ROLE.search(n) for n in u.norms))
        # 收费台账.xlsx 一共有多少条记录: a count of the whole workbook, no sheet said nor in use, is of every sheet
        every = every or (not u.sheet_name and not u.two_sheets and WHOLE_COUNT.search(u.norms[-1]) is not None
                          and not (u.state.current_file == fi.path and u.state.current_sheet))
        # 三个店每个月金额的对比 / compare the total across all sites: a figure of every sheet, compared: stacked, a figure per sheet
        figure_compared = every and lx.EXPLORE_COMPARE.search(low) is not None and _figure_said(low)
        # compare 2025 vs 2024 net amount by colour: two sheets of one table named, a figure per key: that figure, per sheet
        figure_compared = figure_compared or (len(u.two_sheets) > 1 and lx.EXPLORE_COMPARE.search(low) is not None and _split_table(fi)
                                              and (_figure_said(low) or _figure_per_key(fi, low)))
        if figure_compared:
            u.flags["sheets_compared"] = True
        if _split_table(fi) and (not _compare_said(low) or figure_compared or lx.columns_related(low)) and (len(u.two_sheets) > 1 or every):
            # 上半年和下半年合在一起 / all sheets: one table split into sheets, read stacked; the names are the sheets
            every_said = every and re.search(r"所有|全部|每个|各个|整个|(?<![a-z_])(?:all|every|both)(?![a-z_])", " ".join(u.norms), re.I) is not None
            # Q1和Q2合在一起: the sheets named; 所有工作表合在一起 / all sheets: every sheet
            u.stacked = list(u.two_sheets) if len(u.two_sheets) > 1 and not every_said else [s.name for s in fi.sheets if s.name]
            stacked = "|".join(re.escape(n) for n in sorted(u.stacked, key=len, reverse=True))
            # 列是一期二期三期 / columns are Q1, Q2 and Q3: the sheets listed as a layout's role are the column naming each row's sheet
            from modes.opspecs.stack import SHEET_COLUMN

            label = SHEET_COLUMN["en" if u.lang == "en" else "zh"]
            listed = re.compile(rf"((?:行|列|rows|columns|cols)\s*(?:是|为|放|用|按|:|：|=|are|as|by)\s*)((?:(?:{stacked})(?:\s*(?:[、,，/和与]|and)\s*)?){{2,}})", re.I)

            def as_label(m: re.Match[str]) -> str:
                names = m.group(2)
                return m.group(1) + ((label + " " * len(names))[: len(names)] if len(names) >= len(label) else names)

            u.texts = [listed.sub(as_label, t) for t in u.texts]
            # 工作表是北门以外的 / 除了阳光花园 / sheet is not Pier: a sheet said as a value of the column naming each row's sheet
            # stays, for the condition on that column; every other mention of a sheet's name is read already
            u.texts = [_blank(t, [m.span() for m in re.finditer(stacked, t) if not _sheet_valued(t, m.start(), m.end())]) for t in u.texts]
            u.texts = [SHEETS_WORD_LEFT.sub(lambda m: " " * len(m.group(0)), t) for t in u.texts]  # …, sheets 2024 and 2025: read
            u.texts = [re.sub(r"(?<![a-z_])all(?= +sheets)", "   ", _sheet_words_blanked(t, list(u.stacked))) for t in u.texts]
            u.sheet_name, u.two_sheets, u.sheet_problem = u.stacked[0], [], None
            u.flags["stacked"] = True
        if len(fi.sheets) > 1:  # "订单表里…": a sheet's name is not a column mention
            names = sorted((s.name for s in fi.sheets if s.name), key=len, reverse=True)
            pat = re.compile("|".join(re.escape(n) + r"\s*(?:(?:这|那)?(?:两|2|俩|二)\s*(?:个|张)?\s*)?(?:表|sheet|工作表|页)"
                                      + r"|(?<![a-z_])(?:sheets?|tabs?|工作表)\s*[:：]?\s*" + re.escape(n) for n in names), re.I)
            u.texts = [pat.sub(lambda m: m.group(0) if u.stacked and _sheet_valued(m.string, m.start(), m.end()) else " " * len(m.group(0)), t)
                       for t in u.texts]
    if second is not None and u.other_sheet is None and len(second.sheets) > 1 and fi is not None:
        first_sheets = {(x.name or "").casefold() for x in fi.sheets}
        of_second = [x.name for x in second.sheets if x.name and x.name.casefold() not in first_sheets and any(x.name in t for t in u.texts)]
        if len(of_second) == 1:  # 没有出现在 运单.xlsx 的 华南 表里: the sheet of the second table
            u.other_sheet = of_second[0]
            u.texts = [_blank(t, [m.span() for m in re.finditer(re.escape(of_second[0]) + r"\s*(?:表|sheet|工作表)?", t)]) for t in u.texts]
    u.flags["two_tables"] = len(u.files) > 1 or len(u.two_sheets) > 1 and bool(lx.EXPLORE_COMPARE.search(" ".join(u.texts)))


SHEET_ACROSS = lazy(r"(?<![a-z_])(?:(?:one\s+|a\s+)?columns?\s+(?:per|for each|for every|by|is|are|=)\s+(?:each\s+|every\s+)?(?:sheet|tab)s?|(?:sheets?|tabs?)\s+(?:as|across)\s+(?:the\s+)?(?:columns?|top))(?![a-z_])"
                    r"|列\s*(?:是|为|按|用)\s*(?:各个?|每个?)?工作表|(?:每个?|各个?)?工作表\s*(?:各|每)?\s*(?:一|每)?\s*列", re.I)
COMBINED = lazy(r"合在一起|合起来|合并|加起来|加在一起|合计|汇总|总(?:的|体|计|额|量)|一起|整体|(?<![a-z_])(?:combined|together|in total|overall|total|all together|stack(?:ed)?|merged?)(?![a-z_])", re.I)
SHEET_DOWN = lazy(r"行\s*(?:是|为|按|用)\s*(?:各个?|每个?)?工作表|(?:每个?|各个?)?工作表\s*(?:做|为|作为|当)?\s*(?:各|每)?\s*(?:一|每)?\s*行(?!数)"
                  r"|(?<![a-z_])(?:(?:one\s+|a\s+)?rows?\s+(?:per|for each|for every|by)\s+(?:sheet|tab)s?|(?:sheets?|tabs?)\s+(?:as|down)\s+(?:the\s+)?(?:rows?|side))(?![a-z_])", re.I)
SHEET_ROLE = lazy(SHEET_ACROSS.pattern + "|" + SHEET_DOWN.pattern, re.I)
WITHIN_EACH_SHEET = lazy(r"(?<![a-z_])(?:each|every|per)\s+(?:sheet|tab)(?![a-z_])|每个?工作表|各(?:个)?工作表", re.I)
SHEET_AS_KEY = lazy(r"每个?工作表|各(?:个)?工作表|按工作表|(?<![a-z_])(?:per|each|every|by) (?:sheet|tab)(?![a-z_])", re.I)


def _figure_per_key(fi: FileInfo, low: str) -> bool:
    """net amount by colour: a numeric column of the table said, with a word of a key after it."""
    sh = fi.sheets[0] if fi.sheets else None
    if sh is None:
        return False
    said = [c for c in sh.columns if c in sh.numeric and re.search(r"(?<![a-z_])" + re.escape(c.casefold()) + r"(?![a-z_])", low)]
    return any(re.search(re.escape(c.casefold()) + r"\s*(?:的)?\s*(?:by|per|for each|按|每)", low) or
               re.search(r"(?:按|每)[^，,。]{1,8}?" + re.escape(c.casefold()), low) for c in said)


def _figure_said(low: str) -> bool:
    """A figure asked for: a summary's words (合计 / average / 汇总) or a period it is made per (每个月 / monthly)."""
    from modes.opspecs.analysis import _bucket_search

    return lx.GROUP.search(low) is not None or _bucket_search(low) is not None


WHOLE_COUNT = lazy(r"(?:一共|总共|总计|共计|总的)\s*(?:有)?\s*(?:多少|几)\s*(?:条|行|笔|个|单|户|人)?|(?<![a-z_])how many (?:rows|records|entries|lines)"
                   r"(?: (?:are there|does [^?]{1,40} have))?(?: in total| altogether| overall)?(?![a-z_])|(?<![a-z_])(?:total|overall) (?:number of )?(?:rows|records|entries)(?![a-z_])", re.I)


SHEET_PERIOD = {"month": re.compile(r"月|(?<![a-z])(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)", re.I),
                "quarter": re.compile(r"季|(?<![a-z])q[1-4](?![0-9])|quarter", re.I)}


def _each_sheet_said(text: str, sheets: list[str]) -> bool:
    """per sheet / in each quarter / 每个工作表: each sheet a group — a period word (per month, each quarter) only when the
    sheets are those periods (per month over sheets Q1 and Q2 is the months of the rows)."""
    for m in lx.EACH_SHEET.finditer(text):
        word = m.group(0).casefold()
        kind = "month" if "month" in word else "quarter" if "quarter" in word or "季度" in word else None
        if kind is None or (sheets and all(SHEET_PERIOD[kind].search(s) for s in sheets)):
            return True
    return False


def _each_sheet_kind(fi: FileInfo, text: str) -> bool:
    """每个店 / 各店 / 按店, over a workbook whose sheets are 东区店, 西区店, 南区店: the sheets, each one a group (the word
    every sheet's name ends with, after a word of each or by)."""
    from modes.resolve import values_kind

    probe = replace(EMPTY_SHEET, values={"_": frozenset(s.name for s in fi.sheets if s.name)})  # the sheets' names as one column's values
    for m in re.finditer(r"(?:每个|每一个|各个|各|按|分)\s*(?:门|分)?([\u4e00-\u9fff]{1,2})", text):
        for word in (m.group(1), m.group(1)[:1]):
            if values_kind(word, probe) is not None:
                return True
    return False


def _inside_a_value(text: str, span: tuple[int, int], sheet: SheetInfo) -> bool:
    """高一(2)班 over the sheet 高一: the sheet's name is a part of a longer value written there (a class of that grade),
    which stays to be read as the value."""
    a, b = span
    for vs in sheet.values.values():
        for v in vs:
            if len(v) > b - a and text[a : b] in v:
                at = text.find(v, max(0, a - len(v)))
                if 0 <= at <= a and b <= at + len(v):
                    return True
    return False


def _sheets_in_context(u: _Understanding) -> None:
    """The sheets of the workbook found from the context: the ones the request names (sheets Spring and Fall only), or,
    naming none, the ones the request before stacked (画个折线图看看每月金额 after 上半年和下半年合在一起…), stacked again;
    never the first sheet alone."""
    fi = u.fi
    if fi is None or not _split_table(fi):
        return
    last = u.state.last.request if u.state.last is not None else None
    held = last.op("stack") if last is not None and last.file == fi.path and u.how == "current" else None
    if _sheets_said(fi, u.texts):
        u.sheet_name = None
        _u_sheet(u)
    elif held is not None and not any(find_sheet(t, fi)[0] for t in [*u.texts, *u.norms]):  # (a sheet named, blanked from the texts)
        u.stacked = list(held.args.get("sheets") or [s.name for s in fi.sheets if s.name])
        u.sheet_name, u.flags["stacked"] = u.stacked[0], True
    else:
        return
    if u.stacked:
        u.sheet = _sheet_of(fi, u.sheet_name)
        u.parsed, _, _ = _fit(u.texts, u.sheet, u.flags)


def _sheets_said(fi: FileInfo, texts: list[str]) -> bool:
    """Two or more sheets of the workbook named (or all of them), none said not to be used."""
    said = NOT_THIS_SHEET.sub(lambda m: " " * len(m.group(0)), " ".join(texts).casefold())
    return sum(1 for s in fi.sheets if s.name and _sheet_named(s.name, said)) > 1 or lx.ALL_SHEETS.search(said) is not None


def _kept_rows(o: Op) -> Op:
    """把已退货的去掉，医保的也去掉: each exclusion read as its own (退货状态 ≠ 已退货, 支付方式 ≠ 医保) keeps the rows
    that pass all of them, never the rows that pass either one."""
    conds = o.args.get("conditions") or []
    if len(conds) < 2 or not all(c.how == "excluded" and c.op in ("ne", "not_in") for c in conds):
        return o
    return replace(o, args={**o.args, "logic": "and"})


# where a request's second summary begins: a clause break, with or without a joining word
SUMMARY_SPLIT = lazy(r"\s*(?:[,，;；]\s*(?:and\s+(?:also\s+)?|also\s+|plus\s+|以及|另外|还有|同时|再|并且)?|(?<![a-z_])and\s+(?:also\s+)?(?=(?:the\s+)?(?:count|number|total|sum|average|mean|how many)(?![a-z_])))",
                     re.I | re.A)


SAME_CONDITION = lazy(r"(?:也是|还是|用|按|沿用|照)?(?:这个|这些|同样的?|一样的|相同的?|刚才的?|上面的?)(?:筛选)?条件|条件(?:不变|一样|照旧|同上)"
                      r"|(?<![a-z_])(?:same|those|these|the previous|the earlier) (?:conditions?|filters?|criteria)(?![a-z_])", re.I)


def _u_same_condition(u: _Understanding) -> None:
    """12月也是这个条件，每个店各有几笔 / same filters, count per store: the conditions of the request before, kept for the new
    one (said before it runs), never dropped because the new turn does not repeat them."""
    prev = u.state.last
    if len(u.texts) != 1 or prev is None or u.fi is None or any(o.kind == "filter" for o in u.ops) or not u.ops \
            or not SAME_CONDITION.search(u.norms[-1]):
        return
    old = prev.request.op("filter")
    conds = list(old.args.get("conditions") or []) if old is not None else []
    if not conds or any(c.column not in u.sheet.columns for c in conds):
        return
    u.ops = [Op("filter", {k: v for k, v in old.args.items() if k != "unresolved"}), *u.ops]  # type: ignore[union-attr]
    u.ev.append(Evidence("slot", DOUBT, "沿用上一个请求的筛选条件", "the conditions of the request before are kept"))


def _u_share_not_filtered(u: _Understanding) -> None:
    """会员率，每个店会员的占比 / insured share per clinic: a filter that repeats the condition a share counts is that
    share's words said twice, never a filter first (every share would be 100%)."""
    shares = [o for o in u.ops if o.kind == "proportion"]
    if len(shares) != 1:
        return
    counted = {(c.column, c.op, str(c.value)) for c in shares[0].args.get("conditions") or []}
    out: list[Op] = []
    for o in u.ops:
        if o.kind == "filter" and o.args.get("logic", "and") == "and" and not o.after:
            kept = [c for c in o.args.get("conditions") or [] if (c.column, c.op, str(c.value)) not in counted]
            if len(kept) != len(o.args.get("conditions") or []):
                if kept:
                    out.append(Op("filter", {**o.args, "conditions": kept}, o.after))
                continue
        out.append(o)
    u.ops = out


def _u_one_column_twice(u: _Understanding) -> None:
    """处方药和非处方药各有几种药 / rows that are both Yes and No: two values of one column can never hold together, so
    "A and B" is either of them — and, said with 各 / each, one figure for each (never a filter that keeps no row)."""
    from modes.ops import EACH_VALUE

    for i, o in enumerate(u.ops):
        conds = list(o.args.get("conditions") or []) if o.kind == "filter" and o.args.get("logic") == "and" else []
        by_col: dict[str, list[Cond]] = {}
        for c in conds:  # a value the column never holds is asked about, never folded into a list
            if c.op == "eq" and c.column and c.how != "absent_value" and str(c.value) in u.sheet.values.get(c.column, frozenset()):
                by_col.setdefault(c.column, []).append(c)
        both = {col: cs for col, cs in by_col.items() if len({str(c.value) for c in cs}) > 1}
        if not both:
            continue
        col, cs = next(iter(both.items()))
        values = list(dict.fromkeys(c.value for c in cs))
        kept = [c for c in conds if c not in cs] + [Cond(col, "in", values, raw=cs[0].raw, how=cs[0].how)]
        u.ops[i] = Op("filter", {**o.args, "conditions": kept}, o.after)
        if EACH_VALUE.search(u.norms[-1]):
            u.ops = [Op("group", {**g.args, "keys": [*g.args.get("keys", []), col]}, g.after)
                     if g.kind == "group" and col not in (g.args.get("keys") or []) else g for g in u.ops]
            if not any(g.kind == "group" for g in u.ops) and any(g.kind == "count" for g in u.ops):
                u.ops = [Op("group", {"keys": [col], "measures": [{"agg": "count"}]}) if g.kind == "count" else g for g in u.ops]
        return


def _u_dedupe_listed(u: _Understanding) -> None:
    """把这些重复的去掉，只留一条, right after the duplicates were listed: the table they were found in loses its
    duplicates (the same columns compared), never the listing of the copies."""
    last = u.state.last.request if u.state.last is not None else None
    found = last.op("dedupe") if last is not None else None
    dd = next((o for o in u.ops if o.kind == "dedupe" and not o.args.get("show")), None)
    if last is None or found is None or not found.args.get("show") or dd is None or u.how not in ("result", "current") \
            or u.file != u.state.last_result or not last.file or results.is_result(last.file):
        return
    src = u.catalog.get(last.file)
    if src is None or any(o.kind not in ("dedupe", "export", "group", "stats", "count", "sort", "top_n") for o in u.ops):
        return  # (…，然后重新算一下总金额: a figure of the deduplicated table, after it)
    u.fi, u.file, u.how, u.sheet_name = src, src.path, "current", last.sheet
    u.sheet = _sheet_of(src, last.sheet)
    subset = found.args.get("subset")
    u.ops = [Op("dedupe", {**dd.args, **({"subset": subset} if subset and not dd.args.get("subset") else {})}, dd.after) if o is dd else o for o in u.ops]


def _name_span(m: re.Match[str]) -> tuple[int, int]:
    """The span of a file name said for the file written: from its lead word when that word only names it (called /
    文件名叫), else the name alone (save as / 导出成 stay the export's own words)."""
    lead = m.group(0)[: m.start("n") - m.start()].strip(" \"'“「").casefold()
    return (m.start(), m.end()) if re.fullmatch(lx.NAME_LEAD, lead) else (m.start("n"), m.end())


def _u_output_name(u: _Understanding) -> None:
    """save as branch_totals.xlsx / 保存为 门店汇总.xlsx: the export writes the file under the name given (in outputs/)."""
    from modes.ops import OUT_NAME

    named = next((m for m in (OUT_NAME.search(t) for t in reversed(u.norms)) if m), None)
    if named is None or not named.group("n").strip(". "):
        return
    args = {"format": named.group("e").casefold(), "name": named.group("n").strip(". ")}
    if not any(o.kind == "export" for o in u.ops):
        u.ops = [*u.ops, Op("export", args)]
    else:
        u.ops = [Op("export", {**o.args, **args}) if o.kind == "export" else o for o in u.ops]


def _u_lookup_join(u: _Understanding) -> None:
    """按组别算金额合计，组别在销售员信息那个表里 / total Fee by Seniority (Seniority is in vets.csv): a column this table
    lacks, held by exactly one other table that shares one key column with it, is looked up there — the join is put
    first and restated, never the column asked about as if it were this table's."""
    if u.fi is None or len(u.files) > 1 or any(o.kind in ("join", "compare") for o in u.ops):
        return
    raws = [str(x.get("raw", "")).strip() for o in u.ops for x in o.args.get("unresolved", []) if x.get("raw")]
    if not raws:
        return
    own = {c.casefold() for c in u.sheet.columns}
    for raw in raws:
        holders = [f for f in u.catalog.tables if f.path != u.fi.path and f.sheets and any(c.casefold() == raw.casefold() for c in f.sheets[0].columns)]
        if len(holders) != 1:
            continue
        other = holders[0]
        keys = [c for c in other.sheets[0].columns if c.casefold() in own and c not in other.sheets[0].numeric]
        if len(keys) != 1:
            continue
        lead = f"和 {other.name} 按 {keys[0]} 关联，再" if u.lang == "zh" else f"join {other.name} on {keys[0]}, then "
        # (median instead, after average Fare by Contract: the turn that said the column is the one the join comes before)
        i = next((k for k, t in enumerate(u.texts) if raw.casefold() in t.casefold()), None)
        if i is None:
            continue
        u.ref = replace(u.ref, paths=[u.fi.path, other.path])
        u.files = (u.fi.path, other.path)
        u.texts[i] = lead.replace(other.name, " " * len(other.name)) + u.texts[i]  # (file names are blank in the texts read)
        u.norms[i] = lead + u.norms[i]
        u.looked_up = (raw, other.name, keys[0])
        u.flags = {**u.flags, "two_tables": True}  # (over stacked sheets: the join word joins the other table, never stacks)
        _u_parse(u)
        return


def _u_two_summaries(u: _Understanding) -> None:
    """按职级算平均时薪，以及每个门店的人数 / average rate by seniority, and count of vets per clinic: two summaries over
    different keys are two requests; the first runs (restated), the second is named to be asked next — never one
    summary over both sets of keys."""
    if len(u.texts) != 1 or u.fi is None or not any(o.kind == "group" and o.args.get("keys") for o in u.ops):
        return
    text = u.texts[-1]
    for m in SUMMARY_SPLIT.finditer(text):
        if m.start() == 0 or m.end() >= len(text):
            continue
        head, tail = text[: m.start()], " " * m.end() + text[m.end() :]
        keys = []
        for part in (head, tail):
            ops = parse_turn(part, u.sheet, u.flags).ops
            g = [o for o in ops if o.kind == "group" and o.args.get("keys") and o.args.get("measures")]
            keys.append(set(g[0].args["keys"]) if len(g) == 1 else set())
        if keys[0] and keys[1] and not keys[0] & keys[1]:
            u.second_summary = u.norms[-1][m.end() :].strip(" ，,；;。.")
            u.texts[-1] = head + " " * (len(text) - m.start())
            _u_parse(u)
            return


def _stacked_view(fi: FileInfo, sheet: SheetInfo, names: list[str]) -> SheetInfo:
    """The sheet read for a request over sheets stacked: its columns, with the known values of every stacked sheet."""
    stacked = [s for s in fi.sheets if s.name in names and s is not sheet]
    values = {c: vs.union(*(s.values.get(c, frozenset()) for s in stacked)) for c, vs in sheet.values.items()}
    rows = sheet.rows + sum(s.rows for s in stacked)
    return replace(sheet, values=values, rows=rows) if any(values[c] != sheet.values[c] for c in values) else sheet


def _u_parse(u: _Understanding) -> None:
    """The operations of every turn against the chosen sheet (or the file found from the context), merged."""
    u.texts = [lx.NO_GROUPING.sub(lambda m: " " * len(m.group(0)), t) for t in u.texts]  # no grouping: no group word to read
    fi = u.fi
    if fi is not None:
        if u.sheet_name:
            u.sheet = _sheet_of(fi, u.sheet_name)
            u.parsed, _, _ = _fit(u.texts, u.sheet, u.flags)
        else:
            u.sheet, u.parsed, _, _ = _best_sheet(fi, u.texts, u.flags)
            if len(fi.sheets) > 1 and not u.sheet_problem:
                u.sheet_name = u.sheet.name
                u.sheet_guessed = not u.stacked and not _sheet_named(u.sheet.name or "", " ".join(u.texts).casefold())
        view = _stacked_view(fi, u.sheet, u.stacked) if u.stacked and len(fi.sheets) > 1 else u.sheet
        if view is not u.sheet:  # over every sheet stacked: a value any of them holds is a value (Kenji only in APAC)
            u.sheet = view
            u.parsed, _, _ = _fit(u.texts, u.sheet, u.flags)
    else:
        rd = _Reading(None, None, u.how, EMPTY_SHEET, [], u.sheet_name, u.candidates)
        _file_from_context(rd, u.texts, u.norms, u.flags, u.catalog, u.state, u.ev)
        u.fi, u.file, u.how, u.sheet, u.parsed, u.sheet_name, u.candidates = rd.fi, rd.file, rd.how, rd.sheet, rd.parsed, rd.sheet_name, rd.candidates
        # the workbook found only now, its sheets read as the request says them: 按工作表汇总成交金额 (found by its columns),
        # or 各项目占总收入的比例 after a summary of its sheets stacked and a cut of it (those sheets again, never the first)
        if rd.fi is not None and len(rd.fi.sheets) > 1 and (
                rd.how == "inferred" and not (rd.sheet_name and _sheet_named(rd.sheet_name, " ".join(u.norms).casefold()))
                and any(SHEET_AS_KEY.search(t) or lx.BY_SHEET.search(t) or SHEET_ROLE.search(t) for t in u.norms)
                or rd.how == "current" and not u.stacked and _stack_in_use(u, rd.fi) is not None):
            u.sheet_name = None
            _u_sheet(u)
            _u_parse(u)
            return
        _sheets_in_context(u)
        if rd.fi is not None and rd.how in ("only", "inferred") and len(rd.fi.sheets) > 1:
            u.sheet_guessed = not _sheet_named(rd.sheet.name or "", " ".join(u.texts).casefold()) \
                and not (rd.file == u.state.current_file and rd.sheet_name == u.state.current_sheet)
    if u.stacked:  # 行放小区，列放工作表 over the months stacked: the column naming each row's sheet is a column to read
        wider = _with_sheet_column(u.sheet, u.stacked, u.lang)
        if wider is not u.sheet:
            u.sheet = wider
            u.parsed, _, _ = _fit(u.texts, u.sheet, u.flags)
    joined = _joined_sheet(u) if any(o.kind == "join" for o in merge_turns(u.parsed)) else None
    at = len(u.texts) - 1
    after = _after_join(u.texts[-1], bool(u.stacked)) if joined is not None else None
    if joined is not None and after is None and len(u.texts) > 1:  # (median instead / now excluding Co9, after a join: the turn that joined)
        at = next((k for k in reversed(range(len(u.texts))) if _after_join(u.texts[k], bool(u.stacked)) is not None), at)
        after = _after_join(u.texts[at], bool(u.stacked))
    if joined is not None and after is not None:
        # 按 customer 关联，再按 segment 汇总 amount: the join is read on its own clause (its key is the one it says),
        # and what is done to the joined table on the rest, over the joined columns (and the turns after it)
        head, then_text = after
        u.parsed, _, _ = _fit([*u.texts[:at], head], _sheet_of(u.fi, u.sheet_name) if u.fi and not u.stacked else u.sheet, u.flags)  # (stacked: its sheet column too)
        then, _, _ = _fit([then_text, *u.texts[at + 1 :]], joined, {**u.flags, "two_tables": False})  # one table now: the joined one
        u.ops = [*merge_turns(u.parsed, u.lang), *[o for o in merge_turns(then, u.lang) if o.kind not in WHOLE_TABLE_OPS]]
        if then and u.parsed:  # the two texts are one turn's: what the join's clause read is read
            then[-1].consumed = [*u.parsed[-1].consumed, *then[-1].consumed]
        u.parsed = [*u.parsed, *then]
    else:
        if joined is not None:  # 按部门合并，算执行率 = 实际支出/预算: what follows the join reads the joined columns
            u.parsed, _, _ = _fit(u.texts, joined, u.flags)
        u.ops = merge_turns(u.parsed, u.lang)
    u.ops = _rows_listed_after(u)
    if u.how == "result":
        u.ops = _charted_result(_ranked_on_summary(_summary_word_named(u.ops), u.sheet), u.sheet)
    u.ops = [_kept_rows(o) if o.kind == "filter" and o.args.get("delete") else o for o in u.ops]
    if any(lx.NO_GROUPING.search(t) for t in u.norms):  # 不分组 / no grouping: the summary is one row over every row
        u.ops = [replace(o, args={**o.args, "keys": [], "overall": True}) if o.kind == "group" and not o.args.get("keys") else o for o in u.ops]
    u.ops = _values_compared(_groups_not_filtered(_running_over_periods(_figure_of_periods(u.ops, bool(u.stacked)))), u.norms[-1])
    _join_sheet_said(u)
    if u.stacked and not u.ops and lx.EXPLORE_JOIN.search(u.norms[-1]):
        u.ops = [Op("stack", {"sheets": list(u.stacked)})]  # stack all sheets of reviews.xlsx into one table: that is the request
    if u.stacked and not u.ops and len(u.norms) == 1 and _each_sheet_said(u.norms[-1], u.stacked) and SPLIT_ALONE.search(u.norms[-1]):
        from modes.opspecs.stack import (
            SHEET_COLUMN,  # 按站分一下 / split it per sheet, after a count: the sheets are the keys
        )

        u.ops = [Op("group", {"keys": [SHEET_COLUMN["en" if u.lang == "en" else "zh"]]})]
    if u.stacked and u.ops:
        from modes.ops import EACH_VALUE
        from modes.opspecs.stack import SHEET_COLUMN

        label = SHEET_COLUMN["en" if u.lang == "en" else "zh"]
        # (每个花束类型各有几个…，三个店一起算: 各 of the groups said, the sheets said together: no sheet key)
        together = COMBINED.search(u.norms[-1]) is not None and re.search(r"(?:每个?|各个?)[^，,。；;]{1,12}?各", u.norms[-1]) is not None
        if EACH_VALUE.search(u.norms[-1]) and not together:  # 7月、8月、9月的件数合计分别是多少: one figure per sheet, never one over all three
            # (城西店和城南店分别按品类汇总: each sheet's own groups)
            u.ops = [replace(o, args={**o.args, "keys": [label, *o.args["keys"]]}) if o.kind == "group" and o.args.get("keys") and o.args.get("measures")
                     and label not in o.args["keys"] and len(u.stacked) > 1 else o for o in u.ops]
            u.ops = [replace(o, args={**o.args, "keys": [label]}) if o.kind == "group" and not o.args.get("keys") and o.args.get("measures")
                     else Op("group", {"keys": [label], "measures": [{"agg": "count"}]}, o.after) if o.kind == "count"  # 各有多少笔: per sheet
                     else o for o in u.ops]
        if any(EACH_VALUE.search(n) for n in u.norms) and len(u.stacked) > 1:  # 三个城市的退款率分别是多少 (然后排一下): each sheet's rate
            u.ops = [replace(o, args={**o.args, "by": [label]}) if o.kind == "proportion" and not o.args.get("by") else o for o in u.ops]
        # (a growth per sheet only when the sheets are said as such: per quarter, of quarter sheets, is the growth's own period)
        each_sheet_said = u.flags.get("sheets_compared") or any(SHEET_AS_KEY.search(n) for n in u.norms)
        if any(DISTINCT_SHEET.search(n) for n in u.stacked) and not any(SHEET_AS_KEY.search(n) for n in u.norms):
            # 9月 / 10月 / 11月 stacked, 每个月…环比: the sheets are the periods themselves; a growth runs across them, never in each
            u.ops = [replace(o, args={**o.args, "by": [k for k in o.args.get("by") or [] if k != label]}) if o.kind == "growth" and o.args.get("unit")
                     and label in (o.args.get("by") or []) else o for o in u.ops]
            each_sheet_said = False
        if _sheets_no_key(u) and lx.NOT_BY_SHEET.search(u.norms[-1]) is not None:
            # no, not per sheet, after a summary per language and sheet: the sheets are no key any more (the rest stays)
            u.ops = [replace(o, args={**o.args, "keys": [k for k in o.args.get("keys") or [] if k != label]}) if o.kind == "group" and label in (o.args.get("keys") or [])
                     else replace(o, args={**o.args, "by": [k for k in o.args.get("by") or [] if k != label]}) if o.kind in ("proportion", "bucket", "stats", "growth")
                     and label in (o.args.get("by") or []) else o for o in u.ops]
        if any(_each_sheet_said(n, u.stacked) for n in u.norms) and not _sheets_no_key(u) or u.flags.get("sheets_compared"):  # Delayed in each quarter, broken down by Mode: the sheets are a key too
            u.ops = [Op("group", {"keys": [label], "measures": [{"agg": "count"}], "question": True}, o.after)
                     if o.kind == "profile" and o.args.get("question") == "rows" or o.kind == "count" else o for o in u.ops]  # 每个工作表有多少行: per sheet
            # top 3 rows by Amount per sheet: the first rows of each sheet, never of all sheets together
            u.ops = [Op("top_per_group", {"column": o.args["by"], "by": [label], "n": o.args.get("n") or 1, "ascending": bool(o.args.get("ascending"))}, o.after)
                     if o.kind == "top_n" and o.args.get("by") and not any(x.kind == "group" for x in u.ops) else o for o in u.ops]
            u.ops = [replace(o, args={**o.args, "keys": [label, *[k for k in o.args.get("keys") or [] if k != label]]})
                     if o.kind == "group" and o.args.get("measures") else
                     replace(o, args={**o.args, "by": [label, *[k for k in o.args.get("by") or [] if k != label]]})
                     if o.kind in ("proportion", "bucket", "stats") or o.kind == "growth" and o.args.get("kind") != "cagr" and each_sheet_said else
                     # 每个工作表每个月的金额, drawn: one line per sheet
                     replace(o, args={**o.args, "split": label}) if o.kind == "chart" and o.args.get("unit") and not o.args.get("split") else
                     # 各站重量公斤占比 / each sheet's share of Litres: the sheets are the shares' keys
                     replace(o, args={**o.args, "keys": [label]}) if o.kind == "share" and not o.args.get("keys") and not o.args.get("among") else
                     replace(o, args={**o.args, "within": [label]}) if o.kind == "share" and o.args.get("keys") and label not in o.args["keys"]
                     and not o.args.get("within") and not o.args.get("among") else
                     # count bookings per event type per sheet as a pivot: the sheets across the top
                     replace(o, args={**o.args, "columns": label}) if o.kind == "pivot" and not o.args.get("columns") and o.args.get("rows")
                     and label not in o.args["rows"] and not any(SHEET_DOWN.search(n) or SHEET_ACROSS.search(n) for n in u.norms) else o for o in u.ops]  # share of Resolved On Time per sheet: in each
        if len(u.stacked) > 1 and not _sheets_no_key(u) and (any(_each_sheet_said(n, u.stacked) for n in u.norms)
                                                             or lx.ALL_SHEETS.search(u.norms[-1].casefold()) and not COMBINED.search(u.norms[-1])):
            # 各车队配件费合计画个柱状图 / 三个车队的单数做个饼图 / chart the loans per branch: with no other category said,
            # the sheets said are the chart's categories
            u.ops = [replace(o, args={**o.args, "x": label}) if o.kind == "chart" and not any(o.args.get(k) for k in ("x", "unit", "keys", "wide", "columns"))
                     and not any(x.kind in ("group", "pivot") for x in u.ops) else o for o in u.ops]
        if any(WITHIN_EACH_SHEET.search(n) for n in u.norms) and not _sheets_no_key(u) \
                and any(x.kind == "group" and label in (x.args.get("keys") or []) and len(x.args.get("keys") or []) > 1 for x in u.ops):
            # revenue by location, top 2 per sheet: the groups ranked within each sheet, never the 2 highest of all sheets
            u.ops = [replace(o, args={**o.args, "within": [label]}) if o.kind == "top_n" and not o.args.get("within") else o for o in u.ops]
        unnamed = [re.sub("|".join(re.escape(x) for x in u.stacked), " ", n) for n in u.norms]  # (一季度 names a sheet, no period)
        if len(u.stacked) == 2 and not any(BUCKET_SAID.search(n) for n in unnamed):
            # Summer vs Spring: total paid per show and the growth: each show's figure on the two sheets and its change
            # (never a growth per month inside each sheet, when no period is said); the sheet first in the workbook is the base
            book = [s.name for s in fi.sheets if s.name in u.stacked] if fi is not None else list(u.stacked)
            u.ops = [_sheets_change(o, book, label) for o in u.ops]
            if u.flags.get("sheets_compared") and not any(o.kind == "group_change" for o in u.ops) and CHANGE_SAID.search(u.norms[-1]):
                # which show grew the most, Summer vs Spring / number of bookings per Agent and the change: the figure asked
                # per key, its change between the two sheets
                u.ops = _summary_changed(u, book, label)
        periods = any(DISTINCT_SHEET.search(n) for n in u.stacked)  # (上半年 / 下半年: sheets that are periods, one line)
        if lx.ALL_SHEETS.search(u.norms[-1].casefold()) and not COMBINED.search(u.norms[-1]) and not periods:
            # 画个图看看三个店每个月的营业额走势: the sheets said in this turn, a line each, unless said combined
            u.ops = [replace(o, args={**o.args, "split": label}) if o.kind == "chart" and o.args.get("unit") and not o.args.get("split") else o for o in u.ops]
        if any(SHEET_ACROSS.search(n) for n in u.norms):  # months down the side, one column per sheet: the sheets are the pivot's columns
            u.ops = [replace(o, args={**o.args, "columns": label}) if o.kind == "pivot" and not o.args.get("columns") and label not in o.args.get("rows", [])
                     else o for o in u.ops]
        elif any(SHEET_DOWN.search(n) for n in u.norms):  # one row per sheet, Payment as columns: the sheets down the side
            u.ops = [replace(o, args={**o.args, "rows": [label], "columns": o.args.get("columns") or next((r for r in o.args.get("rows", []) if r != label), None)})
                     if o.kind == "pivot" and o.args.get("rows") != [label] and not o.args.get("period") else o for o in u.ops]
        # stacking is the one way the sheets are put together; a join with another file named is done on the stacked rows
        # (its key, when not said, is the one column both tables share, found with the other joins' keys)
        joins = [o for o in u.ops if o.kind == "join" and not o.args.get("sheets")] if len(u.files) > 1 else []
        rest = [o for o in u.ops if o.kind not in ("join", "append", "compare", "stack") and (o.kind != "profile" or len(u.ops) == 1)]
        u.ops = [Op("stack", {"sheets": list(u.stacked)}), *joins[:1], *rest]
    if u.sheet_problem and not u.ops:  # 汇总 表看一下 where there is no such sheet: what was asked is to see it
        u.ops = [Op("profile", {"head": None, "columns": []})]
    if not u.ops and u.how == "description" and u.ref.by_sheet and u.sheet_name:
        u.ops = [Op("profile", {"head": None, "columns": []})]  # now only the 客户 sheet: that sheet, to look at
    cur = u.catalog.get(u.state.current_file) if u.state.current_file else None
    if not u.ops and u.file is None and u.how == "none" and cur is not None and len(cur.sheets) > 1:
        named_sheet, _, _ = find_sheet(u.texts[-1], cur)  # "now only the 客户 sheet": that sheet of the current file
        if named_sheet:
            u.fi, u.file, u.how, u.sheet_name = cur, cur.path, "current", named_sheet
            u.sheet = _sheet_of(cur, named_sheet)
            u.ops = [Op("profile", {"head": None, "columns": []})]


COUNT_COLUMNS = ("行数", "rows", "count", "计数", "次数", "人数")


def _ranked_on_summary(ops: list[Op], sheet: SheetInfo) -> list[Op]:
    """哪个销售员最多, asked of a summary with one row per 销售员: the summary's own figure is ranked, never its rows
    counted again (each group would count 1)."""
    kinds = [o.kind for o in ops]
    figures = [c for c in sheet.columns if c in sheet.numeric]
    if "sort" in kinds and "group" not in kinds and len(figures) == 1 and sheet.rows > 0:
        # sort them high to low, on a summary of one figure: by that figure
        ops = [Op("sort", {**o.args, "by": figures}, o.after) if o.kind == "sort" and not o.args.get("by") and not o.args.get("unresolved") else o for o in ops]
    if "top_n" in kinds and "group" not in kinds and len(figures) == 1 and sheet.rows > 0:
        # 从高到低排，只要前4, on a summary of one figure: the top 4 by that figure
        ops = [Op("top_n", {**o.args, "by": figures[0]}, o.after) if o.kind == "top_n" and not o.args.get("by") and not o.args.get("unresolved") else o for o in ops]
    if kinds != ["group", "top_n"] or ops[0].args.get("measures") != [{"agg": "count"}]:
        return ops
    keys = ops[0].args.get("keys") or []
    if len(keys) != 1 or len(sheet.values.get(keys[0], ())) != sheet.rows or sheet.rows == 0:
        return ops  # a key whose values repeat: its rows are counted
    figures = [c for c in sheet.columns if c in sheet.numeric and c not in keys]
    counted = [c for c in figures if c.casefold() in COUNT_COLUMNS] or (figures if len(figures) == 1 else [])
    if len(counted) != 1:
        return ops
    return [Op("top_n", {**ops[1].args, "by": counted[0]}, ops[1].after)]


SUMMARY_AGG = {"平均": "mean", "mean": "mean", "合计": "sum", "sum": "sum", "total": "sum", "最大": "max", "max": "max", "最小": "min", "min": "min"}


def _summary_word_named(ops: list[Op]) -> list[Op]:
    """只看平均底薪超过6500的大区, on a summary: 平均 is a part of the name of its column 月底薪_元_平均, which the
    condition reads; it asks for no second average of the averages."""
    used = {c.column for o in ops if o.kind == "filter" for c in o.args.get("conditions", []) if c.column}
    def named(m: dict[str, Any]) -> bool:
        col = str(m.get("column") or "")
        head, _, word = col.rpartition("_")
        return bool(head) and col in used and SUMMARY_AGG.get(word.casefold()) == m.get("agg")
    return [o for o in ops if not (o.kind == "group" and not o.args.get("keys") and o.args.get("measures")
                                   and all(named(m) for m in o.args["measures"]))]


def _join_sheet_said(u: _Understanding) -> None:
    """join accounts.csv with invoices.xlsx: a second workbook of several sheets is joined by its first sheet only; that
    is said, and the request restated, never run as if the whole workbook were joined."""
    if len(u.files) > 1 and u.fi is not None and len(u.fi.sheets) > 1 and u.sheet_guessed and any(o.kind == "join" for o in u.ops):
        # join orders.xlsx with techs.csv: the first workbook's sheet was chosen, not said — said back before it runs
        first = u.sheet_name or u.fi.sheets[0].name or ""
        u.ev.append(Evidence("slot", DOUBT, f"{u.fi.name} 有 {len(u.fi.sheets)} 个工作表，关联只用“{first}”这一个",
                             f"{u.fi.name} has {len(u.fi.sheets)} sheets; the join uses '{first}' only"))
    b = u.catalog.get(u.files[1]) if len(u.files) > 1 else None
    if b is None or len(b.sheets) < 2 or not any(o.kind == "join" for o in u.ops):
        return
    said = " ".join(u.norms).casefold()
    if any(s.name and _sheet_named(s.name, said) for s in b.sheets):
        return
    first = b.sheets[0].name or ""
    u.ev.append(Evidence("slot", DOUBT, f"{b.name} 有 {len(b.sheets)} 个工作表，关联只用它的第一个工作表“{first}”",
                         f"{b.name} has {len(b.sheets)} sheets; the join uses its first sheet, '{first}', only"))


# a comparison of the values a request names: 女性厨师和男性厨师比哪个高 / which is higher, North or South
VALUES_COMPARED = lazy(r"哪个(?:更)?(?:高|低|多|少|大|小|好|贵|便宜|快|慢)|谁(?:更)?(?:高|低|多|少)|(?:高|低|多|少)(?:了)?多少|差(?:了)?多少|相差|"
                       r"(?<![a-z_])(?:which (?:is|one is|was|has|had|one has) (?:the )?(?:higher|lower|bigger|smaller|more|less|larger|better|worse)"
                       r"|difference between)(?![a-z_])", re.I)


def _values_compared(ops: list[Op], text: str) -> list[Op]:
    """女性厨师的平均时薪和男性厨师比，哪个高: two values of one column compared on one figure are that figure per value,
    never one figure over both."""
    if not (VALUES_COMPARED.search(text) or lx.EXPLORE_COMPARE.search(text)):
        return ops
    pair = [c.column for o in ops if o.kind == "filter" and not o.args.get("delete")
            for c in o.args.get("conditions", []) if c.op == "in" and c.column and isinstance(c.value, list) and len(c.value) >= 2]
    if len(pair) != 1:
        return ops
    return [replace(o, args={**o.args, "keys": [pair[0]]}) if o.kind == "group" and not o.args.get("keys") and o.args.get("measures") else o
            for o in ops]


def _groups_not_filtered(ops: list[Op]) -> list[Op]:
    """外包司机和自有司机的月底薪有没有显著差别: the groups a test compares are the values of its grouping column, so a
    condition that keeps one value of that column (外包 → 是否外包 = 是) is the groups' name, never a filter."""
    test = next((o for o in ops if o.kind == "stat_test" and o.args.get("test") == "difference"), None)
    cols = (test.args.get("columns") or []) if test is not None else []
    if test is None or len(cols) < 2 or len(test.args.get("levels") or [None, None]) < 2:
        return ops
    out: list[Op] = []
    for o in ops:
        if o.kind == "filter" and not o.args.get("delete"):
            kept = [c for c in o.args.get("conditions", []) if not (c.column == cols[1] and c.op in ("eq", "in"))]
            if not kept:
                continue
            o = replace(o, args={**o.args, "conditions": kept})
        out.append(o)
    return out


def _figure_of_periods(ops: list[Op], stacked: bool = False) -> list[Op]:
    """月度汇总 + 环比 / monthly totals, then "add the month-over-month growth" (or a 3-month rolling average): the
    figure is of the periods the summary made — its column, date column and period — and it gives the totals too."""
    figs = [o for o in ops if o.kind in ("growth", "rolling")]
    bucket = next((o for o in ops if o.kind == "bucket"), None) or (figs[0] if len(figs) > 1 else None)
    totals = next((o for o in ops if o.kind == "group" and len(o.args.get("measures") or []) == 1
                   and (o.args["measures"][0].get("agg") == "sum") and len(o.args.get("keys") or []) <= 1), None)
    if bucket is None and figs and stacked and totals is not None and not figs[-1].args.get("value"):
        # 7月8月9月的件数合计分别是多少, 再算一下环比: the sheets' totals, their growth over the months
        last = figs[-1]
        return [o for o in ops if o is not totals and o is not last] + [Op(last.kind, {**last.args, "value": totals.args["measures"][0]["column"]}, last.after)]
    fig = figs[-1] if figs else None  # the figure asked last: after growth, "add a 3-month rolling average" is of the same periods
    if bucket is None or fig is None or fig is bucket or bucket.args.get("by") or bucket.args.get("unit") == "weekday":
        return ops
    args = dict(fig.args)
    if args.get("column") in (None, "") and bucket.args.get("column"):
        args["column"] = bucket.args["column"]
    if not args.get("value") and not args.get("count"):
        if bucket.args.get("count"):
            args["count"] = True
        elif bucket.args.get("value") and bucket.args.get("agg", "sum") == "sum":
            args["value"] = bucket.args["value"]
        elif bucket.args.get("agg") == "count" or not bucket.args.get("value"):
            args["count"] = True
    if fig.kind == "growth" and args.get("kind") != "cagr":
        args["unit"] = bucket.args.get("unit") or args.get("unit")
    if fig.kind == "rolling" and bucket.kind == "bucket" and bucket.args.get("unit") in ("day", "week", "month"):
        args["unit"] = bucket.args["unit"]  # a 3-month rolling average, then 改成按周: 3 weeks
    if fig.kind == "rolling" and not fig.args.get("window"):
        return ops
    return [o for o in ops if o is not bucket and o is not fig] + [Op(fig.kind, args, fig.after)]


def _running_over_periods(ops: list[Op]) -> list[Op]:
    """running total of amount by month / 按月累计销售额: each month's total first, then its running total over the
    months, never a running total of the rows that the monthly totals then add up again."""
    run = next((o for o in ops if o.kind == "running_total"), None)
    bucket = next((o for o in ops if o.kind == "bucket"), None)
    if run is None or bucket is None or run.args.get("by") or bucket.args.get("by") or bucket.args.get("unit") == "weekday":
        return ops
    value = run.args.get("column")
    if value and bucket.args.get("value") not in (None, value):
        return ops
    fixed = Op("bucket", {**bucket.args, "value": value or bucket.args.get("value"), "agg": bucket.args.get("agg") if not value else "sum"}, bucket.after)
    rest = [o for o in ops if o is not run and o is not bucket]
    return [*rest, fixed, Op("running_total", {"column": value, "over_periods": True}, run.after)]


DERIVED_SHARE = lazy(r"占比|累计|(?<![a-z_])(?:share|cumulative)(?![a-z_])", re.I)


def _charted_result(ops: list[Op], sheet: SheetInfo) -> list[Op]:
    """A chart of a result that names no axis (make a chart of that / 把这个画成柱状图): a summary with one category
    column and one figure (its row count aside) draws that figure per category; anything else is asked."""
    chart = next((o for o in ops if o.kind == "chart"), None)
    if chart is None or len(ops) != 1 or chart.args.get("kind") in ("scatter", "heatmap") or chart.args.get("unit") or chart.args.get("wide"):
        return ops
    cats = [c for c in sheet.columns if c not in sheet.numeric and c not in sheet.dates]
    if chart.args.get("y") and not chart.args.get("x") and len(cats) == 1 and sheet.rows > 0:
        # 把这个画成柱状图，看看三个班数学谁高, on a table of classes: 数学 per 班级, its one column of names
        return [Op("chart", {**chart.args, "x": cats[0]}, chart.after)]
    figures = [c for c in sheet.columns if c in sheet.numeric]
    measures = [c for c in figures if c.casefold() not in COUNT_COLUMNS] or figures
    own = [c for c in measures if not DERIVED_SHARE.search(c)]  # a share table: its shares are of the figure drawn
    measures = own if len(own) == 1 else measures
    if len(cats) != 1 or len(measures) != 1 or len(sheet.values.get(cats[0], ())) != sheet.rows or sheet.rows == 0:
        return ops  # a category that repeats is no summary: which figure, and how it is added up, is asked
    args = dict(chart.args)
    if not args.get("x"):
        args["x"] = cats[0]
    if not args.get("y"):
        args["y"] = [measures[0]]
        args["agg"] = "sum"  # one row per category: its figure as it is
    return [Op("chart", args, chart.after)]


def _counted_nouns_elsewhere(u: _Understanding) -> list[str]:
    """哪个营业员卖的处方药最多: a noun read as what the rows are, counted, that another table names (是否处方药 of 药品目录)
    or holds as a value: it chooses rows this table cannot tell, so it is named back, never counted as every row."""
    out = []
    for o in u.ops:
        n = (o.args.get("counted_noun") or "").casefold() if o.kind == "group" else ""
        if len(n) < 2:
            continue
        if any(n in c.casefold() or any(n == v.casefold() for v in vs) for f in u.catalog.tables if f.path != u.file
               for sh in f.sheets for c, vs in [*((c, ()) for c in sh.columns), *sh.values.items()]):
            out.append(o.args["counted_noun"])
    return out


def _u_understood(u: _Understanding) -> None:
    """Evidence of what was not understood: a preview only, words no rule read, columns no step uses, typos."""
    if u.how == "current" and len(u.turns) == 1 and results.is_result(u.file) and not lx.RESULT_REF.search(u.norms[-1]) \
            and not lx.THEN_START.search(u.norms[-1]):
        # average csat by plan, after "of those, …": no table said and the one in focus is an earlier result: said first
        u.ev.append(evidence.weighed("file_result_unsaid", "没有说在哪个表上做，按上一步的结果算", "no table was named: working on the previous result"))
    if len(u.turns) == 1 and u.state.last is not None and u.how in ("current", "result") and lx.CORRECTION.search(u.norms[-1]):
        # use total seats instead of the count, after a pivot: a change of what ran that could not be placed in it is
        # read as a request of its own, and said first
        u.ev.append(Evidence("slot", DOUBT, "像是对上一步的修改，但没能并进上一步，按新的请求理解",
                             "this reads as a change to what just ran, but it could not be merged into it: read as a new request"))
    if u.looked_up:
        col, other, key = u.looked_up
        u.ev.append(Evidence("slot", DOUBT, f"这个表没有“{col}”，它在 {other} 里：先按 {key} 把两个表关联起来再算",
                             f"this table has no '{col}'; {other} has it: the two are joined on {key} first"))
    if u.second_summary:
        said = u.second_summary
        u.ev.append(Evidence("slot", DOUBT, f"这句话里有两个分开的汇总，一次做一个：先做第一个；第二个（{said}）做完后请再说一次",
                             f"this asks for two separate summaries and one runs at a time: the first now; ask for the second ({said}) after it"))
    if u.split_guess:
        u.ev.append(evidence.weighed("file_inferred", "您没有说是哪个文件，只有它的几个工作表是同一张表、能合在一起",
                                     "no file was named; only its sheets are one table that can be stacked"))
    ops, ev, parsed = u.ops, u.ev, u.parsed
    if u.how == "only" and all(o.kind == "profile" for o in ops):  # a question in a one-file folder that only reads as a preview
        ev.append(evidence.weighed("file_preview_only", "只理解成预览这个表", "read only as a preview of the table"))
    elif ops and all(o.kind == "profile" and not o.args.get("head") and not o.args.get("question") for o in ops) and ASKS_A_FIGURE.search(u.texts[-1]) \
            and not lx.PROFILE.search(u.texts[-1]):  # how many were hired each year: a question a preview does not answer
        ev.append(evidence.weighed("file_preview_only", "只理解成预览这个表，没有回答所问的问题", "read only as a preview, which does not answer the question"))
    if u.file is not None and ops and not any(x for o in ops for x in o.args.get("unresolved", [])):  # an unresolved name is asked about anyway
        words, found_gaps = _unread(u.texts[-1], parsed[-1], u.sheet)
        words += [w for w in _unread_before_answers(u) if w not in words]
        words = [w for w in words if w.casefold() not in {t.casefold() for t, _ in crosslang.made()}]  # read across languages
        sheets = {(s.name or "").casefold() for s in u.fi.sheets} | set(sheet_stems(u.fi).values()) if u.fi is not None and len(u.fi.sheets) > 1 else set()
        words = [w for w in words if w.casefold() not in sheets]  # 8月的运费, the workbook in focus: 8月 is its sheet, chosen
        stem = PurePosixPath(u.file).stem.casefold() if u.file else ""
        words = [w for w in words if not (len(w) >= 2 and w.casefold() in stem)]  # 前5条投诉 of 投诉异常登记.xlsx: what its rows are
        joined = _join_sheets(u) if any(o.kind == "join" for o in ops) else None
        if joined is not None:  # 级别和提成比例, columns of the table joined: read by the join
            words = [w for w in words if w.casefold() not in {c.casefold() for c in joined[1].columns}]
        dated = {c.column for o in ops if o.kind == "filter" for c in o.args.get("conditions") or [] if c.column in u.sheet.dates}
        dated |= {str(v) for o in ops for k in ("column", "date_column") if (v := o.args.get(k)) and v in u.sheet.dates}  # (per month of the date placed)
        words = [w for w in words if not any(_date_verb(c, w.casefold()) for c in dated)]  # serviced: the verb of Last Service Date
        words += [n for n in _counted_nouns_elsewhere(u) if n not in words]
        if any(o.kind == "group_change" for o in ops):  # grew / the change, of two sheets compared: read by the change between them
            words = [w for w in words if not CHANGE_SAID.fullmatch(w)]
        if words:
            ev.append(evidence.weighed("words_unread", "没理解：" + "、".join(words), "not understood: " + ", ".join(words)))
            ev += [evidence.weighed("words_unread_more", "") for _ in words[1:]]  # each further word unread lowers it more
        case = evidence.case_formula_gap(u.norms[-1]) if any(o.kind in ("add_column", "formula") for o in ops) \
            and not any(o.kind == "if_column" for o in ops) else None
        if case is not None:  # 如果…折算分=分数*2/3，否则折算分=分数: never one formula run on every row, or on the rows of the condition
            found_gaps = [*found_gaps, case]
        for g in found_gaps:
            ev.append(evidence.weighed("gap_unsupported", g.say("zh"), g.say("en")))
        u.kw["unexplained"], u.kw["gaps"] = tuple(words), tuple(found_gaps)
        unused = _unused_columns(u.texts[-1], ops, u.sheet)
        if unused:  # 每个大区里销售额最高的品类: a column the request names that no step uses
            ev.append(evidence.weighed("words_unused", "没用上：" + "、".join(unused), "not used: " + ", ".join(unused)))
            u.kw["unexplained"] = tuple(words) + tuple(unused)
    for factor, zh_, en_ in (d for o in ops for d in o.args.get("doubts", ())):  # a reading the operation itself is unsure of
        ev.append(Evidence(factor, DOUBT, zh_, en_))
    variants = _value_variants(ops, u.sheet) if u.file is not None else []
    if variants:  # State 是 Active where the column also holds active: which rows are meant is asked, never guessed
        ev.append(evidence.weighed("value_variants", "；".join(_variants_said(variants, "zh")), "; ".join(_variants_said(variants, "en"))))
    if u.file is not None and any(p.typos for p in parsed):
        typos = list(dict.fromkeys(t for p in parsed for t in p.typos))
        ev.append(evidence.weighed("column_typo", "列名按最接近的理解：" + "、".join(typos), "column names read as the closest: " + ", ".join(typos)))
    if u.file is not None:  # 场地 -> Venue: a column reached through translation is restated
        pairs = crosslang.made(u.sheet.columns)
        if pairs:
            ev.append(evidence.weighed("column_translated", "列名按中英对照理解：" + "、".join(f"{w} → {c}" for w, c in pairs),
                                       "column names read across languages: " + ", ".join(f"{w} → {c}" for w, c in pairs)))


def _value_variants(ops: list[Op], sheet: SheetInfo) -> list[tuple[str, list[str], list[str], bool]]:
    """(column, values as written, other spellings, negated) for each condition whose value the column also holds in
    another letter case: 只看 active 的 where both Active and active occur."""
    out: list[tuple[str, list[str], list[str], bool]] = []
    for o in ops:
        for c in o.args.get("conditions", []):
            if getattr(c, "op", None) not in ("eq", "ne", "in", "not_in") or not c.column:
                continue
            said = [str(v) for v in (c.value if isinstance(c.value, list) else [c.value]) if isinstance(v, str)]
            others = [v for w in said for v in sheet.variants(c.column, w) if v not in said]
            if others:
                out.append((c.column, said, list(dict.fromkeys(others)), c.op in ("ne", "not_in")))
    return out


def _variants_said(variants: list[tuple[str, list[str], list[str], bool]], lang: str) -> list[str]:
    if lang == "zh":
        return [f"{col} 里除了 {'、'.join(said)}，还有只差大小写的写法 {'、'.join(others)}；现在只按所写的 {'、'.join(said)} 筛选，"
                f"要一起算请说“不对，{col} {('不是 ' + ' 也不是 '.join(said + others)) if neg else ('是 ' + ' 或 '.join(said + others))}”"
                for col, said, others, neg in variants]
    return [f"{col} also holds {', '.join(others)}, differing from {', '.join(said)} only in letter case; only {', '.join(said)} as written "
            f"would be used — to include both say \"actually, {col} is {('not ' + ' and not '.join(said + others)) if neg else ' or '.join(said + others)}\""
            for col, said, others, neg in variants]


def _u_whole_tables(u: _Understanding) -> None:
    """Operations over whole tables: a full analysis, two files compared, joined or appended, two sheets joined."""
    ops, files = u.ops, u.files
    if u.flags["full"] and not any(o.kind == "full_analysis" for o in ops):
        ops = [Op("full_analysis", {})] + [o for o in ops if o.kind != "profile"]
    if len(files) > 1 and not any(o.kind in ("compare", "join") for o in ops) and ops:
        ops = [Op("compare", {"columns": []})] + [o for o in ops if o.kind != "profile"]
    join = next((o for o in ops if o.kind == "join"), None)
    if join is not None and not join.args.get("on") and len(files) == 2:
        a, b = u.catalog.get(files[0]), u.catalog.get(files[1])
        if a and b and a.sheets and b.sheets and set(a.sheets[0].columns) == set(b.sheets[0].columns):
            ops = [Op("append", {}) if o.kind == "join" else o for o in ops if o.kind != "compare"]
    if u.two_sheets and any(o.kind in ("join", "compare") for o in ops) and len(files) < 2:
        # 对比 Oct 和 Nov / join the two sheets: the first sheet with the second, never a sheet with itself
        ops = [Op(o.kind, dict(o.args, sheets=u.two_sheets)) if o.kind in ("join", "compare") else o for o in ops]
        u.sheet_name = u.two_sheets[0]
    if any(o.kind == "join" for o in ops) and not any(lx.EXPLORE_COMPARE.search(t) for t in u.texts):
        ops = [o for o in ops if o.kind != "compare"]  # two tables joined are not also compared
    ops = _summary_against_reference(u, ops)
    u.ops = _counts_of_a_summary(u, _brought_through_join(u, [_join_keys(u, o) if o.kind == "join" else o for o in ops]))


def _summary_against_reference(u: _Understanding, ops: list[Op]) -> list[Op]:
    """北坡站各品种的平均单价，和品种指导价对比一下: a figure per key set beside another table keyed the same way — that
    table joined on the key, its columns shown beside each group's figure (never the two whole tables compared)."""
    g = next((o for o in ops if o.kind == "group" and o.args.get("keys") and o.args.get("measures")), None)
    if g is None or len(u.files) != 2 or not any(o.kind == "compare" for o in ops) or any(o.kind not in ("compare", "group", "filter", "sort") for o in ops):
        return ops
    other = u.catalog.get(u.files[1])
    if other is None or not other.sheets or not set(g.args["keys"]) <= set(other.sheets[0].columns):
        return ops
    beside = [c for c in other.sheets[0].columns if c not in g.args["keys"]]
    return [Op("join", {}), *[replace(o, args={**o.args, "keys": [*o.args["keys"], *beside]}) if o is g else o for o in ops if o.kind != "compare"]]


COUNTS_GROUPS = lazy(r"(?<!哪)几(?:个|位|人|家|名)(?!月|季|年|星期|周|天|工作表|表)|多少(?:个|位|人|家|名)|(?<![a-z_])how many(?![a-z_])", re.I)
COUNTS_ROWS = lazy(r"几行|多少行|几条记录|多少条记录|(?<![a-z_])(?:rows?|lines|records)(?![a-z_])"
                  # how many of them are International / 他们中有几个是…: the result's own rows (its groups), counted
                  r"|(?<![a-z_])how many of (?:them|those|these)(?![a-z_])|(?:他们|她们|这些|其中)\s*(?:中|里|当中|里面)?\s*有?\s*几(?:个|位|人|家)", re.I)


ENTITIES_COUNTED = lazy(r"(?:几|多少)\s*(?:户|人|位|名|家|个人|个)(?!次)|(?<![a-z_])how many (?:people|customers|members|households|clients|units|rooms)(?![a-z_])", re.I)


def _counts_of_a_summary(u: _Understanding, ops: list[Op]) -> list[Op]:
    """在这个结果里…一共多少单, on a summary with a count per group (行数): the orders are its counts added up, never its
    rows (one per city) counted."""
    from tools.ops import ROWS

    counted = [c for c in u.sheet.columns if c in ROWS.values() and c in u.sheet.numeric] if u.how == "result" else []
    if len(counted) != 1 or not any(o.kind == "count" for o in ops) or COUNTS_ROWS.search(u.norms[-1]):
        return ops  # (有几行 / how many rows: the summary's own rows)
    from modes.ops import _id_like

    if ENTITIES_COUNTED.search(u.norms[-1]) and any(_id_like(c, u.sheet) or c.casefold().endswith(("号", "编号", "id", "no")) and len(u.sheet.values.get(c, ())) == u.sheet.rows
                                                    for c in u.sheet.columns if c not in u.sheet.numeric):
        return ops  # 欠费月数大于0的有几户, on a count per 房号: each row is one household, counted
    conds = [c for o in ops if o.kind == "filter" for c in o.args.get("conditions") or []]
    if conds and all(c.column in u.sheet.numeric for c in conds) and COUNTS_GROUPS.search(u.norms[-1]):
        return ops  # 不同值个数大于1的有几个: the groups whose figure passes, counted (never their rows added up)
    total = Op("group", {"keys": [], "measures": [{"column": counted[0], "agg": "sum"}], "question": True})
    return [total if o.kind == "count" else o for o in ops]


def _brought_through_join(u: _Understanding, ops: list[Op]) -> list[Op]:
    """每个导购卖了多少件，再把导购信息表里的级别和提成比例对上去: the other table's columns named are shown beside each
    group (the key's own attributes, keys of the same groups), never added up as figures of the rows."""
    join = next((o for o in ops if o.kind == "join"), None)
    g = next((o for o in ops if o.kind == "group" and o.args.get("keys")), None)
    tables = _join_sheets(u) if join is not None and g is not None else None
    if tables is None or g is None or join is None:
        return ops
    own = {c.casefold() for c in tables[0].columns}
    said = [h.column for h in find_columns(u.texts[-1], tables[1]) if h.how in ("exact", "synonym")]
    used = {str(m.get("column")) for m in g.args.get("measures") or []}
    used |= {c.column for o in ops for c in o.args.get("conditions") or [] if getattr(c, "column", None)}  # 开业年份小于2015: a condition's
    extra = [c for c in dict.fromkeys(said) if c.casefold() not in own and c not in g.args["keys"] and c not in used and c != join.args.get("other_on")]
    if not extra:
        return ops
    return [Op("group", {**o.args, "keys": [*o.args["keys"], *extra]}, o.after) if o is g else o for o in ops]


def _join_sheets(u: _Understanding) -> tuple[SheetInfo, SheetInfo, str] | None:
    """The two tables a join works on (two files, or two sheets of one workbook) and how the second is named."""
    b = u.catalog.get(u.files[1]) if len(u.files) > 1 else None
    if u.fi is None or (b is None and len(u.two_sheets) < 2):
        return None
    if b is not None:  # (its sheets stacked: the column naming each row's sheet is a key it can be joined on)
        first = _sheet_of(u.fi, u.sheet_name)
        return (_with_sheet_column(first, u.stacked, u.lang) if u.stacked else first), _sheet_of(b, None), b.name
    return _sheet_of(u.fi, u.two_sheets[0]), _sheet_of(u.fi, u.two_sheets[1]), f"{u.fi.name} 的 {u.two_sheets[1]} 表"


JOIN_THEN = re.compile(r"(?:[,，;；]\s*|\s)(?:然后|接着|之后|再|and then|then|and (?=(?:show|give|list|compute|calculate|get|sum|count|total|"
                       r"average|find|tell|group|summari[sz]e|see)(?![a-z_])))(?=\s*\S)", re.I)  # join … and show total nights by region


# the clause after a join's comma that only names its key (, using hotel / ，通过hotel / ，按工号关联): the join's own
JOIN_KEY_LEAD = lazy(r"\s*(?:(?:using|on|by|via|matching on|matched on|keyed on)(?![a-z_])|通过|按照|按|用|根据|依据|以|基于|匹配|对应)\s*"
                           r"(?:(?!算|计算|汇总|平均|合计|统计|排序|筛选|求和|分组|画|导出|then|and)[\w.\-]){1,30}?\s*"
                           r"(?:(?:这一?列|列|字段|column)?\s*(?:来|进行)?\s*(?:关联|匹配|合并|对应|连接|join|match)(?:起来)?)?\s*[。.!！]?\s*(?:$|(?=[，,；;]))", re.I)
JOIN_HOW_LEAD = lazy(r"(?:(?:只|仅)?(?:保留|要)|(?:only )?keep(?: only)?|only)\s*$", re.I)


def _after_join(text: str, stacked: bool = False) -> tuple[str, str] | None:
    """A join and what to do with the joined table, as two texts of the same length: (the join's clause, the rest).
    The rest follows 然后 / 再 / then, or a comma after the join (按工号关联，按学历算平均实发 / join … on id, average X
    by Y), or comes first with the join said last (…按学历算平均实发，和员工档案按工号关联). How the tables are joined
    (只保留两边都有的 / inner) belongs to the join wherever it is said."""
    js = list(lx.EXPLORE_JOIN.finditer(text))
    if stacked:  # 三个季度合并，关联查勘员.csv，…: the sheets' 合并 stacks them; the join is the word that only joins
        js = [x for x in js if JOIN_ONLY.fullmatch(x.group(0))] or js
    j = js[0] if js else None
    if j is None:
        return None
    m = next((m for m in JOIN_THEN.finditer(text) if m.start() >= j.start()), None)
    first = CLAUSE_END.search(text, j.end(), m.start()) if m is not None else None
    if m is not None and first is not None and JOIN_KEY_LEAD.match(text, first.end()) is None \
            and text[first.end() : m.start()].strip(" ，,；;") and text[m.end():].strip():
        # join members.csv on member_id, keep plan = Enterprise, then sum …: the clause after the join's is done on the joined rows
        return text[: first.start()] + " " * (len(text) - first.start()), " " * first.end() + text[first.end():]
    if m is not None and text[m.end():].strip():
        return text[: m.start()] + " " * (len(text) - m.start()), " " * m.end() + text[m.end():]
    if m is not None:
        return None
    after = CLAUSE_END.search(text, j.end())
    before = [c for c in CLAUSE_END.finditer(text, 0, j.start())]
    key = JOIN_KEY_LEAD.match(text, after.end()) if after is not None else None
    if key is not None and not text[key.end():].strip(" ，,；;"):
        return None  # join A with B, using hotel / 合并A和B，通过hotel: the clause after the comma is the join's key
    if key is not None:  # A 关联 B，按工单号关联，按维修类型求平均: the key's own clause is the join's, the rest follows it
        nxt = CLAUSE_END.search(text, key.end())
        join_at, rest_at = (0, key.end()), (nxt.end() if nxt else key.end(), len(text))
    elif after is not None and text[after.end():].strip():  # the join first, the rest after a comma
        join_at, rest_at = (0, after.start()), (after.end(), len(text))
    elif before and text[: before[-1].start()].strip() and (after is None or not text[after.end():].strip()):  # the join said last
        join_at, rest_at = (before[-1].end(), len(text)), (0, before[-1].start())
    else:
        return None
    how = [(h.start() - len(lead.group(0)) if (lead := JOIN_HOW_LEAD.search(text[: h.start()])) else h.start(), h.end())
           for h in lx.JOIN_HOW_ANY.finditer(text) if rest_at[0] <= h.start() < rest_at[1]]  # 只保留两边都有的: the join's words
    keep = [join_at, *how]
    head = "".join(ch if any(a <= i < b for a, b in keep) else " " for i, ch in enumerate(text))
    rest = "".join(ch if rest_at[0] <= i < rest_at[1] and not any(a <= i < b for a, b in how) else " " for i, ch in enumerate(text))
    return (head, rest) if rest.strip() else None


def _joined_sheet(u: _Understanding) -> SheetInfo | None:
    """The columns the joined table will have: the first table's, then the second's new ones."""
    tables = _join_sheets(u)
    if tables is None:
        return None
    a, b, _ = tables
    right_key = u.join_pair[1] if u.join_pair else None
    extra = tuple(c for c in b.columns if c not in a.columns and c != right_key and (u.lookup is None or c in u.lookup[1].columns))
    return replace(a, columns=a.columns + extra, values={**b.values, **a.values}, numeric=a.numeric | b.numeric,
                   dates=a.dates | b.dates, years={**b.years, **a.years}, ranges={**b.ranges, **a.ranges})


def _joins_one_more(u: _Understanding, ref: FileRef) -> bool:
    """join plans.csv / 和 techs.csv 关联一下, with a table in use: one other table named with a word that only joins
    (never 合并, which may stack) is joined onto the table in use."""
    from modes.ops import JOIN_ONLY

    cur = u.catalog.get(u.state.current_file)
    if not (ref.how == "named" and len(ref.paths) == 1 and cur is not None and cur.is_table):
        return False
    text = u.norms[-1]
    named = [h for f in (cur, u.catalog.get(ref.paths[0])) if f is not None for sh in f.sheets[:3] for h in find_columns(text, sh)]
    return any(JOIN_ONLY.fullmatch(m.group(0)) and m.group(0).casefold() != "add"
               and not any(h.start <= m.start() and m.end() <= h.end for h in named)  # Join Date is a column, never a join
               for m in lx.EXPLORE_JOIN.finditer(text))


def _u_bring(u: _Understanding) -> None:
    """把 plans.csv 的 Tier 加进来 / join plans.csv: the table in use keeps its sheet; the words that said a lookup
    are the join's."""
    in_use = u.lookup[1].base == u.state.current_file if u.lookup else u.in_use_first
    # 去掉重复的，再按门店算销售额, right after 东城片区…: words of the workbook in use (its columns) describe it; its sheet
    # in use stays, never asked again (a sheet named, or every sheet, was read before)
    in_use = in_use or (u.how in ("description", "fuzzy") and not u.ref.by_sheet and not u.ref.sheet and not u.two_sheets and not u.stacked
                        and u.fi is not None and _split_table(u.fi) and not u.flags.get("sheet_left_out"))
    if in_use and u.sheet_name is None and u.file == u.state.current_file and u.state.current_sheet and u.fi is not None \
            and u.fi.sheet(u.state.current_sheet) is not None:
        u.sheet_name = u.state.current_sheet
    if u.lookup is None:
        return
    i, lk = u.lookup
    if lk.later:  # …每个导购卖了多少件，再把 B 的级别加进来: the columns join what came before (a summary's keys gain them)
        if not lx.EXPLORE_JOIN.search(u.texts[i]):
            word = " join " if u.lang == "en" else "对上去"
            u.texts[i] = u.texts[i][: lk.verb[0]] + word + " " * (lk.verb[1] - lk.verb[0]) + u.texts[i][lk.verb[1]:]
            u.norms[i] = u.norms[i][: lk.verb[0]] + word + u.norms[i][lk.verb[0]:]
        elif lk.verb[1] > lk.verb[0] and any(not lk.verb[0] <= m.start() < lk.verb[1] for m in lx.EXPLORE_JOIN.finditer(u.texts[i])):
            # …，再关联医生.csv，带上医生姓名 / …，把医生姓名带过来: the join is said; the verb and the little words around the
            # columns it carries go, so the columns stay in the join's own clause
            cols = [sp for sp in lk.spans[1:] if sp != lk.verb and sp[1] > sp[0] and sp[0] >= lk.spans[0][1]]
            end = max([lk.verb[1], *(b for _a, b in cols)])
            first = min([lk.verb[0], *(a for a, _b in cols)])
            lo = max([lk.spans[0][1], *(m.start() for m in joins.CLAUSE_END.finditer(u.texts[i], lk.spans[0][1], first))])
            gaps = [(k, k + 1) for k in range(lo, end) if not any(a <= k < b for a, b in cols)]
            u.texts[i] = _blank(u.texts[i], gaps)
        return
    lead = "join, " if u.lang == "en" else "关联，"
    u.texts[i] = lead + _blank(u.texts[i], list(lk.spans))
    u.norms[i] = lead + u.norms[i]


def _u_lookup_columns(u: _Understanding) -> None:
    """The join of a lookup brings only the columns asked for (a key repeated with the same values matches once); a
    sheet said of the second table is the one joined."""
    if u.other_sheet and len(u.files) == 2:
        u.ops = [Op(o.kind, {**o.args, "other_sheet": u.other_sheet}, o.after) if o.kind in ("join", "compare") else o for o in u.ops]
    if u.lookup is None or len(u.files) < 2:
        return
    cols, key = list(u.lookup[1].columns), u.lookup[1].key
    if not any(o.kind == "join" for o in u.ops):
        u.ops = [_join_keys(u, Op("join", {"on": key})), *u.ops]
    said = {"on": key, "key_shared": False} if key else {}  # by Technician: the key as said
    u.ops = [Op("join", {**o.args, **said, "columns": cols}, o.after) if o.kind == "join" else o for o in u.ops if o.kind != "compare"]


def _u_join_pair(u: _Understanding) -> None:
    """A key pair stated for a join (客户ID对应Customer ID, a.x = b.y) is the join's keys; its words are set aside,
    never read as a condition."""
    tables = _join_sheets(u) if any(lx.EXPLORE_JOIN.search(t) for t in u.texts) else None
    if tables is None:
        return
    for i in reversed(range(len(u.texts))):
        p = joins.pair_span(u.texts[i], tables[0], tables[1])
        if p is not None:
            u.join_pair = (p[0], p[1])
            u.texts[i] = _blank(u.texts[i], [(p[2], p[3])])
            return


def _join_keys(u: _Understanding, join: Op) -> Op:
    """The key of each table: the pair the user stated, or the key read, asked about when the second table has no
    such column (naming the columns it has)."""
    if u.join_pair is not None:
        return Op("join", {**join.args, "on": u.join_pair[0], "other_on": u.join_pair[1]})
    tables = _join_sheets(u)
    on = join.args.get("on")
    if tables is not None and on is None:  # no key said: the one column both tables have by the same name is the key
        second = {c.casefold(): c for c in tables[1].columns}
        shared = [c for c in tables[0].columns if c.casefold() in second]
        if len(shared) == 1:
            other = second[shared[0].casefold()]
            return Op("join", {**join.args, "on": shared[0], **({"other_on": other} if other != shared[0] else {}), "key_shared": True})
    if tables is None or on is None or on in tables[1].columns or not tables[1].columns:
        return join
    sep = "、" if u.lang == "zh" else ", "
    cols = sep.join(tables[1].columns[:12])
    u.problems.append(f"{tables[2]} 里没有“{on}”这一列，它对应哪一列？现有列：{cols}。" if u.lang == "zh" else
                      f"{tables[2]} has no column '{on}'; which of its columns matches it? Columns: {cols}.")
    u.missing.append("other_key")
    return join


def _u_sheet_words(u: _Understanding) -> None:
    """期中不是高一的, once 期中 is the sheet in use: the sheet's name is no column of a condition (a condition left
    without a column by it is dropped; the rest of what was said stays)."""
    if not u.sheet_name:
        return
    n = u.sheet_name.casefold()
    if any(re.search(r"(?:只看|只要|只留|只算|仅看|就看|看看?|only|just)\s*(?:the\s+)?" + re.escape(n), t.casefold()) for t in u.norms[-1:]) \
            and len(u.ops) > 1 and any(o.kind == "filter" and not o.args.get("conditions") and not o.args.get("delete") for o in u.ops):
        # 只看城南店的每月金额环比: "only" chooses the sheet, never a filter with no condition
        u.ops = [o for o in u.ops if not (o.kind == "filter" and not o.args.get("conditions") and not o.args.get("delete"))]
    for i, o in enumerate(u.ops):
        conds = o.args.get("conditions") if o.kind == "filter" else None
        if not conds:
            continue
        kept = [c for c in conds if not (c.column is None and c.how == "unknown" and c.raw == u.sheet_name)]
        if len(kept) != len(conds) and kept:
            u.ops[i] = replace(o, args={**o.args, "conditions": kept})


def _rows_listed_after(u: _Understanding) -> list[Op]:
    """how many bookings … in each sheet, then list them, then only the ones that were not no-shows: a turn that asked for
    the rows behind a figure keeps the rows, never the figure of the turns before it (a later turn may make one again)."""
    at = max((i for i, n in enumerate(u.norms) if i > 0 and lx.ROWS_ASKED.search(n)), default=None)
    if at is None or len(u.parsed) != len(u.norms):
        return u.ops
    later = {o.kind for p in u.parsed[at + 1 :] for o in p.ops}
    return [o for o in u.ops if o.kind in lx.ROWS_KEPT_KINDS or o.kind in later]


def _summary_just_shown(state: SessionState) -> bool:
    """The request that ran last made a summary or a ranking of its rows (top 3 crews by total value): columns brought in
    from another table right after it are brought onto what was shown (add the crew lead names from crews.csv)."""
    last = state.last
    return last is not None and bool(state.last_result) and any(o.kind in ("group", "top_n", "top_per_group") for o in last.request.ops)


def _compare_said(low: str) -> bool:
    """A word of comparing said outside the words of a test (有没有显著差异 asks a test, compares no two tables)."""
    from modes.opspecs.analysis import TEST_RX

    tests = [m.span() for m in TEST_RX.finditer(low)]
    return any(not any(a <= m.start() <= b for a, b in tests) for m in lx.EXPLORE_COMPARE.finditer(low))  # (有没有显著|差异: said on)


SPLIT_ALONE = lazy(r"分(?:一下|开)|拆(?:开|分)|(?<![a-z_])(?:split|break (?:it |that )?down)(?![a-z_])", re.I)


def _sheets_said_after(u: _Understanding) -> bool:
    """and per sheet?, after a request on the Tech Park sheet: the sheets said as a key by a later turn than the one that
    named the sheet — every sheet, each one a key (never that one sheet's rows keyed by a column called sheet)."""
    if len(u.norms) < 2 or not u.sheet_name:
        return False
    named = [i for i, n in enumerate(u.norms) if _sheet_named(u.sheet_name, n.casefold())]
    keyed = [i for i, n in enumerate(u.norms) if SHEET_KEY_SAID.search(n)]
    return bool(named) and bool(keyed) and max(keyed) > max(named)


SHEET_KEY_SAID = lazy(r"(?<![a-z_])(?:per|by|each|every|for each|in each)\s+(?:sheet|tab)s?(?![a-z_])|(?:每个|各个?|按)\s*(?:工作表|sheet)", re.I)


def _u_periods_are_sheets(u: _Understanding) -> None:
    """按季度分别列一下 / per month, over stacked sheets that are those periods (一季度 / 二季度, 7月 / 8月): each sheet is
    one period, so the periods are the sheets — the figures of the sheets, beside any other of the same summary."""
    buckets = [o for o in u.ops if o.kind == "bucket" and o.args.get("unit") in PERIOD_SHEET_NAME and not o.args.get("by")]
    if not u.stacked or len(buckets) != 1 or len(u.stacked) < 2:
        return
    b = buckets[0]
    if not all(PERIOD_SHEET_NAME[b.args["unit"]].search(n) or b.args["unit"] == "month" and month_words(n) for n in u.stacked):
        return
    from modes.opspecs.stack import SHEET_COLUMN

    label = SHEET_COLUMN["en" if u.lang == "en" else "zh"]
    value = b.args.get("value")
    # (按季度分别列一下 names no figure: the keys alone, the figure the request before them had, or every column's)
    said = [{"column": value, "agg": b.args.get("agg") or "sum"}] if value else [{"agg": "count"}] if b.args.get("agg") == "count" else []
    g = next((o for o in u.ops if o.kind == "group"), None)
    if g is not None and list(g.args.get("keys") or []) not in ([], [label]):
        return
    measures = [*(g.args.get("measures") or [] if g is not None else []), *said]
    grouped = Op("group", {**(g.args if g is not None else {}), "keys": [label], "measures": measures}, g.after if g is not None else b.after)
    u.ops = [grouped if o is (g or b) else o for o in u.ops if o is not b or g is None]


def _u_period_column(u: _Understanding) -> None:
    """monthly volume for 2025 based on opened_at: a period said without its column is of the one date column the
    request names (or its grouping uses); asked only when none or several are named."""
    dates = u.sheet.dates
    if not dates:
        return
    said = " ".join(u.norms or u.turns).casefold()
    used = {v for o in u.ops for v in o.args.values() if isinstance(v, str) and v in dates}
    named = used | {c for c in dates if c.casefold() in said or _date_verb(c, said)}
    if len(named) != 1:
        return
    col = next(iter(named))
    for i, o in enumerate(u.ops):
        if o.kind != "filter":
            continue
        conds = o.args.get("conditions") or []
        open_ = [c for c in conds if c.column is None and isinstance(c.value, dict) and "date" in c.value]
        if not open_:
            continue
        raws = {c.raw for c in open_}
        fixed = [replace(c, column=col, how="default") if c in open_ else c for c in conds]
        left = [x for x in o.args.get("unresolved", []) if x.get("raw") not in raws]
        args = {**o.args, "conditions": fixed}
        if left:
            args["unresolved"] = left
        else:
            args.pop("unresolved", None)
        u.ops[i] = replace(o, args=args)


def _date_verb(column: str, said: str) -> bool:
    """tickets opened after …, 入职在2023年以后: the word a date column is named after (opened_at, 入职日期) said alone."""
    stem = DATE_NAME_TAIL.sub("", column.casefold()).strip(" _-")
    if not stem or stem == column.casefold() or len(stem) < 2:
        return False
    if stem.isascii():
        if re.search(rf"(?<![a-z0-9_]){re.escape(stem)}(?![a-z0-9_])", said) is not None:
            return True
        # Last Service Date, said "serviced" / Purchase Date, "purchased": the verb of its own noun
        nouns = [w for w in re.split(r"[\s_-]+", stem) if len(w) >= 4 and w not in ("last", "first", "next", "latest", "date", "time")]
        if any(re.search(rf"(?<![a-z0-9_]){re.escape(w.rstrip('e'))}e?d(?![a-z0-9_])", said) for w in nouns):
            return True
        return said in verbs_of_date(re.split(r"[\s_-]+", stem))  # placed, of Order Date: a verb said of its event
    return stem in said


def _u_missing(u: _Understanding) -> None:
    """What is missing or wrong: the file, the sheet, the slots of each operation."""
    lang, fi, missing = u.lang, u.fi, u.missing
    if u.how == "outside" and not u.ops:
        u.ops = [Op("profile", {"head": None, "columns": []})]  # whatever was asked, the answer is: not that file
    if u.file is None and (u.ops or u.flags["full"]):
        missing.append("file")
        # what is missing whatever the file turns out to be
        gaps, _, _ = _op_gaps([o for o in u.ops if not o.args.get("unresolved")], None, lang, len(u.ref.paths), [])
        missing += [m for m in gaps if m in ("condition", "sort_by", "group_by", "columns", "expression") and m not in missing]
    if (u.sheet_guessed and fi is not None and _split_table(fi) and not u.stacked and not u.sheet_problem
            and any(o.kind not in WHOLE_TABLE_OPS for o in u.ops)):
        # 销售台账按城市汇总 over 上半年 / 下半年: the same columns on every sheet, so no column tells which is meant
        sep = "、" if lang == "zh" else ", "
        names = sep.join(s.name or "" for s in fi.sheets)
        u.problems.insert(0, f"{fi.name} 有 {len(fi.sheets)} 个列相同的工作表：{names}。用哪一个？也可以说“合在一起”或“分开算”。" if lang == "zh" else
                          f"{fi.name} has {len(fi.sheets)} sheets with the same columns: {names}. Which one? Or say 'all sheets' or 'each separately'.")
        missing.append("sheet")
        u.sheet_name = None  # not chosen yet: the reply does not name one
    if u.sheet_problem and fi is not None:
        have = ("、" if lang == "zh" else ", ").join(s.name for s in fi.sheets if s.name)
        books = [f.name for f in u.catalog.tables if any((sh.name or "").casefold() == u.sheet_problem.casefold() for sh in f.sheets)]
        where = (f"名为“{u.sheet_problem}”的工作表在：{'、'.join(books)}。" if lang == "zh" else f"A sheet '{u.sheet_problem}' is in: {', '.join(books)}.") if books else ""
        if have:
            u.problems.append(f"{fi.name} 里没有名为“{u.sheet_problem}”的工作表，现有：{have}。{where}" if lang == "zh" else
                              f"{fi.name} has no sheet named '{u.sheet_problem}'; it has: {have}. {where}".rstrip())
        else:  # a CSV: one table, no sheets
            u.problems.append(f"{fi.name} 只有一张表，没有名为“{u.sheet_problem}”的工作表。{where}" if lang == "zh" else
                              f"{fi.name} is a single table with no sheet named '{u.sheet_problem}'. {where}".rstrip())
        missing.append("sheet")
    if u.file is not None:
        # median instead, while a key of the summary is asked: the statistic is the summary's, its column known once the key is
        keyless = any(o.kind == "group" and o.args.get("unresolved") and not o.args.get("measures") for o in u.ops) and len(u.texts) > 1
        asked = [o for o in u.ops if not (keyless and o.kind == "stats" and not o.args.get("columns") and not o.args.get("by"))]
        m2, p2, typo = _op_gaps(asked, fi, lang, len(u.files), u.two_sheets)
        missing += [m for m in m2 if m not in missing]
        u.problems += p2
        if typo:
            u.ev.append(evidence.weighed("value_typo", "列名按最接近的理解"))
    if u.how == "description":
        u.ev.append(evidence.weighed("file_description", ""))  # named by what it holds, not by its name
        if u.ref.by_sheet and u.file != u.state.current_file and not _own_sheet_name(u):  # 用二季度那张表: only a sheet's name points at the workbook
            u.ev.append(evidence.weighed("file_inferred", "您没有说是哪个文件，只有它有这个工作表", "no file was named; only this one has that sheet"))


def _period_on_the_same_date(before: Op | None, f: Op) -> Op:
    """what about H1?, after the rows of H2 by Order Date (of several date columns): the new period is of that date
    column too, never asked for again."""
    if before is None or not f.args.get("unresolved"):
        return f
    dated = {c.column for c in before.args.get("conditions") or [] if c.column and isinstance(c.value, dict) and "date" in c.value}
    if len(dated) != 1:
        return f
    loose = {c.raw for c in f.args.get("conditions") or [] if c.column is None and isinstance(c.value, dict) and "date" in c.value}
    return with_column_of(f, loose, next(iter(dated))) if loose else f


def with_column_of(f: Op, raws: set[str | None], col: str) -> Op:
    """A filter whose conditions said with no column (raw in raws) are on `col`, their questions dropped."""
    conds = [replace(c, column=col, how="exact", closest=()) if c.column is None and c.raw in raws else c for c in f.args.get("conditions") or []]
    left = [u for u in f.args.get("unresolved") or [] if u.get("raw") not in raws]
    args = {**{k: v for k, v in f.args.items() if k != "unresolved"}, "conditions": conds, **({"unresolved": left} if left else {})}
    return Op(f.kind, args, f.after)


ALL_TOGETHER = lazy(r"一共|总共|总计|加起来|(?<![a-z_])(?:in total|altogether|overall|all together|combined)(?![a-z_])", re.I)


def _share_of_all(f: Op, prop: Op) -> tuple[Op, Op] | None:
    """After rows counted under conditions (weekend weddings), a share asked of all the rows of some of them (of all
    weddings): those conditions keep the rows, the others are the share; None when the share names no condition of them."""
    key = lambda c: (c.column, c.op, str(c.value), str(c.value2))  # noqa: E731
    said = {key(c) for c in prop.args.get("conditions") or []}
    conds = list(f.args.get("conditions") or [])
    base = [c for c in conds if key(c) in said]
    part = [c for c in conds if key(c) not in said]
    if not said or len(base) != len(said) or not part:
        return None
    return Op("filter", {**f.args, "conditions": base}, f.after), Op("proportion", {"conditions": part, "logic": "and"}, prop.after)


def _proportion_value_swapped(prop: Op, f: Op) -> Op | None:
    """A filter said after a proportion whose every condition is a value of a column the proportion counts (Status =
    Open, after the share where Status = Cancelled): the proportion of that value instead, never rows kept beside it."""
    conds = prop.args.get("conditions") or []
    new = f.args.get("conditions") or []
    if not new or f.args.get("unresolved") or not all(c.op in ("eq", "in") and c.column for c in new):
        return None
    cols = {c.column for c in conds if c.op in ("eq", "in", "ne", "not_in")}
    if not cols or not all(c.column in cols for c in new):
        return None
    kept = [c for c in conds if c.column not in {n.column for n in new}]
    return Op("proportion", {**prop.args, "conditions": [*kept, *new]}, prop.after)


def _own_sheet_name(u: _Understanding) -> bool:
    """东区店退货的有几单 / average Total at Plaza: a sheet's whole name that is a name of its own (no generic word), which
    only that workbook has and no other table holds as a cell value or a column: the file is known, not guessed."""
    name = u.ref.sheet or u.sheet_name
    low = " ".join(u.norms).casefold()
    if not name or not _distinct_sheet(name, low):
        return False
    n = name.casefold()
    owners = [f for f in u.catalog.tables if any((sh.name or "").casefold() == n for sh in f.sheets)]
    held = any(n == v.casefold() for f in u.catalog.tables if f.path != u.file for sh in f.sheets
               for v in [*sh.columns, *(x for vs in sh.values.values() for x in vs)])
    return len(owners) == 1 and not held


def _u_statistic_ordered(u: _Understanding) -> None:
    """median Labour Hours per Job Type …, sorted descending: a statistic per key said with an order is a summary in
    that order (never the order dropped)."""
    st = next((o for o in u.ops if o.kind == "stats" and o.args.get("by") and len(o.args.get("stats") or []) == 1
               and len(o.args.get("columns") or []) == 1 and o.args["stats"][0] in ("median", "mean", "max", "min", "sum")), None)
    text = u.norms[-1]
    if st is None or not lx.SORT.search(text) or not (ASC.search(text) or DESC.search(text)) or any(o.kind in ("sort", "top_n") for o in u.ops):
        return  # (the order words and their direction, as the sort rule reads them)
    low = bool(ASC.search(text)) and not DESC.search(text)
    group = Op("group", {"keys": list(st.args["by"]), "measures": [{"column": st.args["columns"][0], "agg": st.args["stats"][0]}]}, st.after)
    u.ops = [x for o in u.ops for x in ((group, Op("sort", {"by": [], "ascending": low, "direction_said": True}, True)) if o is st else (o,))]


def _figure_of(g: Op, column: str, lang: str) -> str:
    """The summary column a column measured more than once is ordered by: its total, else its first figure."""
    from tools.ops import measure_name

    aggs = [m["agg"] for m in g.args["measures"] if m.get("column") == column and not m.get("where")]
    return measure_name(column, "sum" if "sum" in aggs else aggs[0], lang)


def _u_sorted_by_statistic(u: _Understanding) -> None:
    """订单金额的合计和平均值，按合计从高到低: an order said by a statistic's word, after a summary of the same request with
    one figure of that statistic, is by that figure (never a column named 合计 looked for)."""
    g = next((o for o in u.ops if o.kind == "group" and o.args.get("measures")), None)
    if g is None:
        return
    from modes.ops import figures_named
    from tools.ops import measure_name

    made = [measure_name(m["column"], m["agg"], u.lang) for m in g.args["measures"] if m.get("column") and not m.get("where")]

    def figure(raw: str) -> str | None:  # 合计 / average: the one figure of the summary of that statistic
        hit = figures_named(raw.strip(), made)
        return hit[0] if len(hit) == 1 else None

    ops = list(u.ops)
    twice = {c for c in (m.get("column") for m in g.args["measures"] if not m.get("where")) if c
             and sum(1 for m in g.args["measures"] if m.get("column") == c and not m.get("where")) > 1}
    for i in range(ops.index(g) + 1, len(ops)):
        o = ops[i]
        by = o.args.get("by")
        if o.kind == "sort" and isinstance(by, list) and twice & set(by):
            # 合计和平均值，按订单金额从高到低排: a column summed and averaged orders by its total (said in the plan)
            ops[i] = Op("sort", {**o.args, "by": [_figure_of(g, c, u.lang) if c in twice else c for c in by]}, o.after)
    i = ops.index(g)
    while (i := i + 1) < len(ops):
        o = ops[i]
        un = o.args.get("unresolved") or [] if o.kind in ("sort", "top_n") else []
        named = [figure(str(x.get("raw", ""))) for x in un]
        if not named or not all(named):
            continue
        args = {k: v for k, v in o.args.items() if k != "unresolved"}
        j = next((k for k in range(i + 1, len(ops)) if ops[k].kind == o.kind and not ops[k].args.get("by") and not ops[k].args.get("unresolved")), None)
        if j is not None:  # (the order's direction, read as a sort of its own)
            args = {**ops[j].args, **args}
            del ops[j]
        ops[i] = Op(o.kind, {**args, "by": list(named) if o.kind == "sort" else named[0]}, o.after)
    u.ops = ops


def _u_ratio_per_key(u: _Understanding) -> None:
    """parts cost as a percentage of invoice total, per job type: each key's totals divided (never each row's ratio,
    listed under a label)."""
    cr = next((o for o in u.ops if o.kind == "column_ratio"), None)
    if cr is None or u.sheet is None or cr.args.get("which"):
        return
    key = next((c for m in PER_KEY_SAID.finditer(u.norms[-1]) if (c := resolve_column(m.group("k").strip(), u.sheet, closest=False)[0]) is not None
                and c not in u.sheet.numeric and c not in u.sheet.dates), None)
    vals = u.sheet.values.get(key) if key else None
    if key is None or not vals or u.sheet.rows <= len(vals):
        return
    from tools.ops import measure_name

    num, den = cr.args["numerator"], cr.args["denominator"]
    a, b = measure_name(num, "sum", u.lang), measure_name(den, "sum", u.lang)
    name = f"{num} % of {den}" if u.lang == "en" else f"{num}占{den}(%)"
    steps = (Op("group", {"keys": [key], "measures": [{"column": num, "agg": "sum"}, {"column": den, "agg": "sum"}]}, cr.after),
             Op("formula", {"name": name, "expression": f"{a} / {b} * 100"}, True))
    u.ops = [x for o in u.ops for x in (steps if o is cr else (o,))]


def _u_chart_of_pivot(u: _Understanding) -> None:
    """chart the pivot / draw that as a line chart, on a pivot just made: its row labels across, one line (or bar) per
    column of figures, its total column left out — never a question about which one column to draw."""
    last = u.state.last
    if u.how != "result" or last is None or last.request.op("pivot") is None or u.sheet is None:
        return
    totals = {"合计", "总计", "total", "grand total", "all"}
    figures = [c for c in u.sheet.columns[1:] if c in u.sheet.numeric and c.casefold() not in totals]
    if len(figures) < 2:
        return
    if not any(o.kind == "chart" and not o.args.get("y") for o in u.ops):
        return
    across = str(last.request.op("pivot").args.get("columns") or "").casefold()  # type: ignore[union-attr]
    u.ops = [Op("chart", {**{k: v for k, v in o.args.items() if k != "split"}, "y": figures, "x": u.sheet.columns[0]}, o.after) if o.kind == "chart" else o
             for o in u.ops  # a line per sheet, of a pivot with a column per sheet: its columns are those lines
             if not (across and o.kind == "group" and not o.args.get("keys") and [x.get("raw", "").casefold().rstrip("s") for x in o.args.get("unresolved", [])] == [across.rstrip("s")])]


# the steps of understanding one request, in the order they run
def _u_one_summary_per_keys(u: _Understanding) -> None:
    """now how many weather delays per base, after the average per base (or no, count rows … per sheet, after a distinct
    count per sheet): the latest turn's summary over the same keys takes the earlier one's place — a second summary of
    a summary by the same keys counts its own rows, one per key, and is never what was asked."""
    if len(u.norms) < 2:
        return
    groups = [o for o in u.ops if o.kind == "group" and o.args.get("keys")]
    if len(groups) != 2 or groups[0].args["keys"] != groups[1].args["keys"] or not any(o.kind == "count" for o in u.parsed[-1].ops) \
            or any(o.kind == "group" for o in u.parsed[-1].ops) or any(o.after for o in groups):
        return
    u.ops = [o for o in u.ops if o is not groups[0]]


UNDERSTAND_STEPS = (_u_files, _u_flags, _u_input, _u_sheet, _u_bring, _u_join_pair, _u_parse, _u_one_summary_per_keys, _u_dedupe_listed, _u_lookup_join, _u_two_summaries, _u_same_condition, _u_share_not_filtered, _u_one_column_twice, _u_output_name, _u_whole_tables, _u_lookup_columns, _u_sheet_words, _u_period_column, _u_chart_of_pivot, _u_statistic_ordered, _u_sorted_by_statistic, _u_ratio_per_key, _u_periods_are_sheets, _u_understood, _u_missing)


def understand(turns: list[str], catalog: Catalog, state: SessionState, restrict: list[str] | None = None) -> Request:
    """Resolve files, sheet and operations over the turns of one request (oldest first)."""
    crosslang.forget()
    u = _Understanding(turns, catalog, state, restrict)
    for step in UNDERSTAND_STEPS:
        step(u)
    ops, how = u.ops, u.how
    return Request(
        intent="work" if ops or u.flags["full"] else "none",
        ops=tuple(ops), file=u.file, files=u.files if len(u.files) > 1 else (), sheet=u.sheet_name, file_how=how,
        candidates=tuple(u.candidates), missing_file_name=None if how == "result" else u.ref.missing_name, missing=tuple(u.missing),
        problems=tuple(u.problems), closest=tuple(u.sheet.columns), offers=_offers(ops, u.missing, u.sheet), evidence=tuple(u.ev), **u.kw,
    )


def _offers(ops: list[Op], missing: list[str], sheet: SheetInfo) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """For each missing slot that not every column can fill (统计哪一列 takes a number, 按哪个日期列 a date), the
    columns that can: what its question lists, so that any column offered and typed back is taken."""
    slots = [(m, opspec.missing_slot(ops, m)) for m in missing]
    out = [(m, s.fitting(sheet)) for m, s in slots if s is not None and (s.takes or s.of_number)]
    g = next((o for o in ops if o.kind == "group"), None)
    if "sort_by" in missing and g is not None and not any(m == "sort_by" for m, _ in out):  # a summary's figures, by their columns
        from modes.opspecs.core import numeric_measures

        said = [m["column"] for m in g.args.get("measures") or [] if m.get("column")]
        figures = said or [m["column"] for m in numeric_measures(sheet, list(g.args.get("keys") or []))]
        if figures:
            out.append(("sort_by", tuple(dict.fromkeys(figures))))
    return tuple(out)


def _goes_on_from(result: FileInfo, text: str, cur: FileInfo | None) -> bool:
    """然后 / 再把 / then … goes on from the last result, unless it names a sheet of the current file or a column only
    the current file has (再把客户表里等级是A的筛出来). 金额 after a summary is its 金额_合计."""
    if cur is None:
        return True
    low = text.casefold()
    res_hits = [h for s in result.sheets for h in find_columns(text, s)]
    res_cols = [c.casefold() for s in result.sheets for c in s.columns]
    def names_sheet(name: str) -> bool:  # 预算 / 实际 as a sheet, not inside the result's column 实际金额
        return any(not any(h.start <= m.start() and m.end() <= h.end for h in res_hits) for m in re.finditer(re.escape(name), low))

    if len(cur.sheets) > 1 and any(s.name and s.name.casefold() not in res_cols and names_sheet(s.name.casefold()) for s in cur.sheets):
        return False  # a sheet of the current file, unless the result has a column of that name (预算 after a join)

    def only_current(h: Any) -> bool:
        inside = any(r.start <= h.start and h.end <= r.end for r in res_hits)
        return h.how == "exact" and not inside and not any(h.column.casefold() in c for c in res_cols)

    return not any(only_current(h) for s in cur.sheets for h in find_columns(text, s))


# what a short turn right after a result asks of it: a total, a count, a ranking, a cut, an order (数量加起来是多少 /
# 取前5行 / 哪个部门最低 / how many are in each country?)
ASKS_OF_RESULT = lazy(r"加起来|一共|总共|合计|总和|平均|最高|最低|最多|最少|最大|最小|多少|几个|几行|前\s*\d+|排个?序|排一下|从高到低|从低到高|倒序|转置|行列|行和列"
                      r"|(?<![a-z_])(?:transpose|rows and columns)(?![a-z_])|画|图表|柱状图|折线图|饼图|条形图|(?<![a-z_])(?:chart|plot|graph)(?![a-z_])"
                      r"|(?<![a-z_])(?:total|sum|average|mean|highest|lowest|most|least|how many|top \d+|first \d+|sort|order by|each)(?![a-z_])", re.I | re.A)


# words that start an analysis of its own: a grouping, a period, one figure per value
NEW_ANALYSIS = lazy(r"按|每|各|分别|季度|半年|\d{4}|\d+\s*月|(?<![a-z_])(?:by|per|each|for every|respectively|month|quarter|year|week|h[12]|q[1-4])(?![a-z_])", re.I | re.A)


PERIOD_ASKED = lazy(r"哪(?:一)?(?:天|日|周|个月|月|年|季度)|(?<![a-z_])(?:which|what) (?:day|date|week|month|year|quarter)(?![a-z_])", re.I | re.A)


def _asks_of_result(result: FileInfo, text: str, cur: FileInfo | None) -> bool:
    """A turn right after a result that names no file and no value, compares nothing, and asks a figure, a ranking, a
    cut or an order of columns the result has: it asks it of that result, never of the whole source file."""

    from modes.ops import FIGURE_SORTED, figures_named

    # 按合计从高到低, after a summary with 金额_合计: the order of its figure, no new grouping
    probe = _blank(text, [m.span() for m in FIGURE_SORTED.finditer(text)
                          if len(figures_named(m.group("w"), [c for sh in result.sheets for c in sh.columns])) == 1])
    if not ASKS_OF_RESULT.search(text) or ANY_OP.search(text) or len(text) > 24 or NEW_ANALYSIS.search(probe):
        return False  # average cost by carrier / 每个班每科的最高分 / 2023年下半年…: a new question of its own, on the source
    if PERIOD_ASKED.search(text) and not any(s.dates for s in result.sheets):
        return False  # 哪天的单最多, after a summary with no dates: a question about days, asked of the rows that have them
    if cur is not None and any(find_values(text, s, []) for s in cur.sheets):
        return False  # 北京的呢: a value of the source, read by the refinement rules
    if cur is not None and cur.sheets and any(c.column for c in parse_conditions(text, cur.sheets[0], find_columns(text, cur.sheets[0])).conds):
        return False  # 期末库存为0的有几个 / 学历没填的是谁: a question with a condition of its own is asked of the source, like any
    named = [h for s in result.sheets for h in find_columns(text, s)]
    return (bool(named) or not any(find_columns(text, s) for s in (cur.sheets if cur is not None else []))) and _goes_on_from(result, text, cur)


WHOLE_TABLE_OPS = {"profile", "export", "full_analysis", "list_files", "compare", "join", "append", "clean"}


def _unused_columns(text: str, ops: list[Op], sheet: SheetInfo) -> list[str]:
    """Columns the latest turn names that no operation of the reading uses (a part of the request dropped)."""
    if not ops or all(o.kind in WHOLE_TABLE_OPS for o in ops):
        return []
    used: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            used.add(x)
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, (list, tuple, set, frozenset)):
            for v in x:
                walk(v)
        elif hasattr(x, "__dataclass_fields__"):
            walk(vars(x))

    for o in ops:
        walk(o.args)
    exprs = [u for u in used if any(ch in u for ch in "+-*/()[]")]  # a formula's text uses the columns written in it

    def names_rows(h: Any) -> bool:  # top 3 stores, stores with sales over 5000: the plural of the column naming each row
        unique = h.column not in sheet.values or len(sheet.values[h.column]) >= max(sheet.rows, 2)
        naming = h.column not in sheet.numeric and h.column not in sheet.dates and unique
        said = text[h.start : h.end].casefold()
        plural = said in (h.column.casefold() + "s", h.column.casefold() + "es") or re.match(r"e?s(?![a-z_])", text[h.end : h.end + 3], re.I)
        asked = re.search(r"(?:(?<![a-z_])which|哪个|哪一个|哪)\s*$", text[: h.start], re.I)  # which month was the busiest: the row's name asked
        return naming and bool(plural or asked)

    named = [str(o.args["name"]) for o in ops if o.kind in ("add_column", "formula") and o.args.get("name")]
    inside = [(m.start(), m.end()) for n in named for m in re.finditer(re.escape(n), text)]  # Labor Cost, a new column's name: no mention of Parts Cost
    low = text.casefold()
    inside += [(m.start(), m.end()) for u in used if u not in sheet.columns and len(u) > 3 and u.casefold() in low
               for m in re.finditer(re.escape(u.casefold()), low)]  # Stage in Closed Won: Won is a word of the value, no column left out
    hits = find_columns(text, sheet)
    rejected = {m.end() for m in VALUE_NOT.finditer(text)}  # 值不要金额: a column said not to be used is not one left out
    return list(dict.fromkeys(h.column for h in hits
                              if h.start not in rejected
                              and not statistic_of_next(text, h, hits, sheet) and (h.how in ("exact", "translated") or h.how == "synonym" and h.column in sheet.numeric) and h.column not in used
                              and not any(h.column in e for e in exprs) and not names_rows(h)
                              and not any(a <= h.start and h.end <= b for a, b in inside)))


GLOSS = re.compile(r"(?P<gloss>[\u4e00-\u9fff]{2,12})\s*[（(]\s*(?P<inner>[^（）()]*(?:\([^()]*\)[^（）()]*)?)[）)]")


def _glossed(text: str, sheet: SheetInfo) -> list[tuple[int, int]]:
    """寿命（'bee longevity in bioassay (days)'）, 城市（Municipality）: Chinese words glossing the column named in the
    parentheses after them are explained by that column (up to the last 的/中/和 before them)."""
    out: list[tuple[int, int]] = []
    for m in GLOSS.finditer(text):
        inner = m.group("inner").strip(" '\"")
        if not any(h.start == 0 for h in find_columns(inner, sheet)):
            continue
        cut = max(m.group("gloss").rfind(w) + len(w) for w in ("的", "中", "和", "与", "在", "那些", "所有"))
        out.append((m.start("gloss") + max(cut, 0), m.end()))
    return out


NUMBER_PHRASE = lazy(r"[\u4e00-\u9fff]{1,3}(?:\d+(?:\.\d+)?\s*[%％]?|[一二两三四五六七八九十百千万]+(?=[年月天岁倍成]))(?:周年|个月|年|月|天|岁|倍|成|名|位|个|人)?"
                     r"|(?<![\w.])\d+(?:\.\d+)?\s*(?:[%％]|周年|个月|年|天|岁|倍|成|名|位|个|人)"
                     r"|(?<![a-z_])(?:top|bottom|first|last|best|worst|highest|lowest)\s+\d+(?![\d.])"
                     # crews with 2 or 3 people: figures said as a list, or with the noun of people, that no rule read
                     r"|(?<![\w.])\d+(?:\.\d+)?\s+(?:or|to|and)\s+\d+(?:\.\d+)?(?![\d.])|(?<![\w.])\d+(?:\.\d+)?\s+(?:people|persons|staff|members|workers|employees)(?![a-z])", re.I)


def _numbers_unread(text: str, taken: list[tuple[int, int]]) -> list[str]:
    """Figures of the request (with the words around them) that no rule read."""
    rest = _blank(text, taken)
    return [m.group(0).strip() for m in NUMBER_PHRASE.finditer(rest) if m.group(0).strip()]


def _data_words(sheet: SheetInfo) -> frozenset[str]:
    """The words the table in play holds: its columns and its known values."""
    return frozenset([*sheet.columns, *(v for vs in sheet.values.values() for v in vs)])


def _unread_before_answers(u: _Understanding) -> list[str]:
    """escalated in July, then the file and the sheet answered: the words the request's first turns left unread, when the
    turns after them only answered questions (short, no correction) and never said those words again — never dropped
    on the way to the restatement."""
    p = u.state.pending
    if len(u.texts) < 2 or len(u.parsed) != len(u.texts) or p is None or p.stage != "clarify":
        return []  # (export that, after a request that ran: its words were read when it ran)
    later = u.norms[1:]
    if any(len(x) > 24 or lx.CORRECTION.search(x) for x in later):
        return []
    out: list[str] = []
    for text, turn in zip(u.texts[:-1], u.parsed[:-1], strict=True):
        for w in _unread(text, turn, u.sheet)[0]:
            if w not in out and not any(w.casefold() in x.casefold() for x in later):
                out.append(w)
    return out


def _unread(text: str, turn: TurnOps, sheet: SheetInfo) -> tuple[list[str], list[Gap]]:
    """Content words of the latest turn that no rule read, and what it asks for that no operation does."""
    taken = list(turn.consumed) + _glossed(text, sheet)
    found = evidence.gaps(text, taken)
    data = _data_words(sheet)
    words = evidence.unexplained(text, taken, [g.rx for g in found] if found else (), data)
    if words:  # values the request names outside any condition (上海的…) are read too
        for spans in find_values(text, sheet, taken).values():
            taken += [(a, b) for _, a, b in spans]
        words = evidence.unexplained(text, taken, [g.rx for g in found] if found else (), data)
    if not (turn.ops and turn.ops[0].kind == "profile" and turn.ops[0].args.get("head")):
        # 来了满5年的员工有多少人 / 每个区域取前2: a figure no rule read is a part that would be dropped
        words += [w for w in _numbers_unread(text, taken) if w not in words]
    hits = find_columns(text, sheet) if re.search(r"至|到|~|—", text) else []
    for a, b in zip(hits, hits[1:], strict=False):  # 2015年至2020年: a range of columns, which no rule reads yet
        if re.fullmatch(r"\s*(?:至|到|~|-|—|to|through)\s*", text[a.end : b.start], re.I) and not any(x <= a.start and b.end <= y for x, y in taken):
            words.insert(0, text[a.start : b.end])
    return words, found


def _date_column_problem(fi: FileInfo, name: str, raw: str, lang: str) -> str:
    """A period said over a table with no date column named: which date column, offering only date columns, or, when
    the table has none, that it has none (so no other column is offered for a date)."""
    dates = list(dict.fromkeys(c for s in fi.sheets for c in s.columns if c in s.dates))
    if dates:
        return (f"按哪一个日期列算时间？{name} 的日期列有：{'、'.join(dates)}。" if lang == "zh" else
                f"Which date column should the period use? The date columns of {name} are: {', '.join(dates)}.")
    return (f"{name} 里没有日期列，按时间的条件用不上。可以换一个有日期列的文件，或去掉时间条件。" if lang == "zh" else
            f"{name} has no date column, so a period cannot be applied to it. Name a file with a date column, or leave the period out.")


def _ask_ratio(word: str, fi: FileInfo | None, lang: str) -> str:
    """How a rate said as a word is computed: two columns divided, with an example from the table's figures (the one
    sharing words with the rate first)."""
    nums = [c for s in (fi.sheets[:1] if fi else ()) for c in s.columns if c in s.numeric]
    stem = re.sub(r"(?:率|占比|[ _](?:rate|ratio))$", "", word, flags=re.I).strip().casefold()
    near = sorted(nums, key=lambda c: -len(os.path.commonprefix([c.casefold(), stem])))
    eg = f"{near[0]}除以{near[1]}" if lang == "zh" and len(near) > 1 else f"{near[0]} divided by {near[1]}" if len(near) > 1 else ""
    if lang == "zh":
        return (f"“{word}”表里没有这一列，要怎么算？请说成两列相除" + (f"，例如“{eg}”" if eg else "") + "（按合计之比算），"
                "或者说成某个条件的行数占比，例如“状态是已完成的占比”。")
    return (f"There is no column '{word}'; how is it computed? Say it as one column divided by another" + (f", e.g. '{eg}'" if eg else "")
            + " (a ratio of the totals), or as the share of rows meeting a condition, e.g. 'the share where Status is Closed'.")


def _figures_before(ops: list[Op], fi: FileInfo | None) -> int:
    """How many figures the last summary before a step makes: the measures said, or every numeric column's total when
    none is said (a row count alone is one figure)."""
    g = next((o for o in reversed(ops) if o.kind == "group"), None)
    if g is None:
        return 0
    said = [m for m in g.args.get("measures") or [] if m.get("column") or m.get("where")]
    if said or g.args.get("measures"):
        return len(said) or 1
    from modes.opspecs.core import numeric_measures

    sheet = fi.sheets[0] if fi is not None and fi.sheets else None
    return len(numeric_measures(sheet, list(g.args.get("keys") or [])))


def _op_gaps(ops: list[Op], fi: FileInfo | None, lang: str, n_files: int, two_sheets: list[str]) -> tuple[list[str], list[str], bool]:
    missing: list[str] = []
    problems: list[str] = []
    typo = False
    name = (fi.name if not results.is_result(fi.path) else replies.file_label(fi.path, lang)) if fi else ""
    kinds = [o.kind for o in ops]
    for i, o in enumerate(ops):
        a = o.args
        for u in [] if fi is not None and fi.error else a.get("unresolved", []):  # a file that cannot be read: its read says why
            near = "、".join(u["closest"]) if lang == "zh" else ", ".join(u["closest"])
            if u.get("slot") == "measure":  # 哪个月最高 with several numeric columns: which one is meant
                problems.append(f"“{u['raw']}”是按哪一列比较？{name} 里可以比较的数值列有：{near}。" if lang == "zh" else
                                f"'{u['raw']}' by which column? The numeric columns of {name} are: {near}.")
                missing += [] if "column" in missing else ["column"]
                continue
            if u.get("slot") == "placeholder":  # 按那个分组: no column was said
                if u["raw"] == "各":  # 各多少条: each of which column's values
                    problems.append(f"按哪一列的值分别计数？{name} 的列有：{near}。" if lang == "zh" else f"Count per value of which column? {name} has: {near}.")
                else:
                    problems.append(f"“{u['raw']}”指的是哪一列？{name} 的列有：{near}。" if lang == "zh" else f"Which column is '{u['raw']}'? {name} has: {near}.")
                missing += [] if "column" in missing else ["column"]
                continue
            dated = any(c.column is None and isinstance(c.value, dict) and "date" in c.value and c.raw == u["raw"] for c in a.get("conditions", []))
            if dated and fi is not None:  # a period (Q2, March 2024) where no date column was said: the date columns there are
                problems.append(_date_column_problem(fi, name, u["raw"], lang))
                missing += [] if "column" in missing else ["column"]
                continue
            if not near:  # nothing close: the columns there are
                cols = list(dict.fromkeys(c for s in fi.sheets for c in s.columns))[:12] if fi is not None else []  # (sheets of one layout: once)
                problems.append(f"{name} 里没有“{u['raw']}”这一列；现有列：{'、'.join(cols)}。您指的是哪一列？" if lang == "zh" else
                                f"{name} has no column '{u['raw']}'; its columns: {', '.join(cols)}. Which column do you mean?")
                missing += [] if "column" in missing else ["column"]
                continue
            problems.append(f"{name} 里没有“{u['raw']}”这一列，最接近的是：{near}。您指的是哪一列？" if lang == "zh" else
                            f"{name} has no column '{u['raw']}'; closest: {near}. Which column do you mean?")
            if "column" not in missing:
                missing.append("column")
        if o.kind == "filter":
            if not a.get("conditions"):
                missing.append("condition")
            raws = {u.get("raw") for u in a.get("unresolved", [])}
            for c in a.get("conditions", []):
                if c.column is None and c.how == "unknown" and c.raw not in raws and not (isinstance(c.value, dict) and "date" in c.value):
                    # a condition whose column no rule found (期中不是高一 kept from an earlier turn): asked, never run
                    near = ("、" if lang == "zh" else ", ").join(c.closest)
                    problems.append(f"“{c.raw}”是哪一列的条件？{name} 里最接近的列：{near}。" if lang == "zh" else
                                    f"Which column is the condition on '{c.raw}' about? The closest columns of {name}: {near}.")
                    missing += [] if "column" in missing else ["column"]
                if c.how == "month_no_year":  # 8月到9月 over data of several years: which year
                    problems.append(f"{name} 的 {c.column} 跨 {c.closest[0]}–{c.closest[1]} 年，“{c.raw}”是哪一年的？请带上年份，例如“{c.closest[1]}年{c.raw}”。"
                                    if lang == "zh" else f"{c.column} of {name} spans {c.closest[0]}–{c.closest[1]}; which year is '{c.raw}'? Say it with the year.")
                    missing += [] if "value" in missing else ["value"]
                if c.how == "absent_value":
                    shown = "、".join(c.closest) if lang == "zh" else ", ".join(c.closest)
                    problems.append(f"{name} 的“{c.column}”列里没有“{c.value}”，现有的值有：{shown}。您指的是哪个？" if lang == "zh" else
                                    f"Column {c.column} of {name} has no value '{c.value}'; it has: {shown}. Which one do you mean?")
                    if "value" not in missing:
                        missing.append("value")
            if any(c.how == "typo" for c in a.get("conditions", [])):
                typo = True
        elif o.kind == "sort" and not a.get("by") and not a.get("unresolved") and not ({"group", "top_n", "bucket"} & set(kinds[:i])):
            missing.append("sort_by")
        elif o.kind == "sort" and not a.get("by") and not a.get("unresolved") and _figures_before(ops[:i], fi) > 1 and "top_n" not in kinds[:i]:
            missing.append("sort_by")  # 按收费员汇总，从大到小排, with 建筑面积, 物业费 and 停车费 all totalled: by which figure is asked
        elif o.kind == "top_n" and not a.get("by") and not ({"group", "bucket"} & set(kinds[:i])) and "sort_by" not in missing:
            missing.append("sort_by")  # 前十的订单: ranked by what?
        elif o.kind == "group" and a.get("rate_word"):
            asked = any(a["rate_word"] in str(u.get("raw", "")) for x in ops for u in x.args.get("unresolved", []))
            if not asked:  # (a column question about the same word is asked already: one question about it)
                missing.append("ratio")  # 不良率 with no column of that name: how it is computed is asked, never guessed
                problems.append(_ask_ratio(a["rate_word"], fi, lang))
        elif o.kind == "group" and not a.get("keys") and not any(m.get("column") for m in a.get("measures", [])) and not a.get("unresolved") \
                and not a.get("overall"):
            missing.append("group_by")
        elif o.kind == "select" and not a.get("columns"):
            missing.append("columns")
        elif o.kind == "add_column" and not (a.get("left") and a.get("op")) and not a.get("unresolved"):
            missing.append("expression")
        elif o.kind == "outliers" and not a.get("column") and not a.get("unresolved"):
            missing.append("column")
            problems.append("要找哪一列的异常值？" if lang == "zh" else "Outliers in which column?")
        elif o.kind == "correlate" and len(a.get("columns", [])) < 2:
            missing.append("columns_pair")
        elif o.kind in ("compare", "append") and n_files < 2 and len(two_sheets) < 2:
            missing.append("second_table")
        elif o.kind == "join":
            if n_files < 2 and len(a.get("sheets", two_sheets)) < 2:
                missing.append("second_table")
            elif not a.get("on"):
                missing.append("join_key")
        elif (spec := opspec.get(o.kind)) is not None and spec.words:
            missing += [g for g in spec.gaps(a) if g not in missing]
    return missing, problems, typo


# ---------------------------------------------------------------- the gate


def _decision(gate: str, nxt: str, req: Request, reply: str, rule: str, missing: list[str] | tuple[str, ...] = (), mode_override: tuple[str, str] | None = None) -> Decision:
    row = select_mode(gate, req)
    mode, tier = mode_override or (row.mode, row.tier)
    reason = row.reason
    if mode == "transform":
        labels = "".join(opspec.label(k, "zh") for k in req.kinds() if k != "profile")
        reason = f"{row.reason}: {labels}"
    return Decision(
        gate=gate, next=nxt, mode=mode, tier=tier, confidence=req.confidence if gate == "act" else 0.9, request=req,
        reply=reply, mode_reason=reason, plan_style_reason=row.tier_reason, rule=rule, missing=tuple(missing),
        lowered_by=req.lowered_by, lang=req.lang,
    )


def _table_names(catalog: Catalog, req: Request | None = None) -> list[str]:
    """The files a "which file?" question offers: those that can serve the request (a period needs a date column)
    when some can, else every table."""
    names = [f.path for f in catalog.tables]
    if req is None or not _needs_dates(req):
        return names
    return [f.path for f in catalog.tables if any(s.dates for s in f.sheets)] or names


def _needs_dates(req: Request) -> bool:
    """A period said (上半年, Q3, March 2024) or a date slot still to fill: only a table with a date column can answer."""
    if any((s := opspec.missing_slot(req.ops, m)) is not None and s.takes == "date" for m in req.missing):
        return True
    return any(isinstance(c.value, dict) and "date" in c.value for o in req.ops for c in o.args.get("conditions", []))


def _names_no_data(req: Request, text: str, catalog: Catalog) -> bool:
    """A request with no file that names nothing of the workspace and whose content words no rule reads."""
    if req.file or req.file_how != "none" or req.missing_file_name or req.full or lx.WORK_NOUN.search(text) or lx.DEICTIC.search(text) \
            or lx.QUESTION_DATA.search(text):
        return False
    if set(req.kinds()) - {"profile", "filter", "compare", "correlate", "select", "export"}:
        return False
    for f in catalog.tables:
        for s in f.sheets:
            if find_columns(text, s) or find_values(text, s, []):
                return False
    return bool(evidence.unexplained(text, []))


def _why(req: Request, lang: str) -> str:
    """What lowered the confidence, as said in a restatement."""
    if lang == "zh":
        return ("（" + "；".join(req.lowered_by) + "。）") if req.lowered_by else ""
    said = list(dict.fromkeys(e.en for e in req.evidence if e.weight < 0 and e.en))
    return ("(" + "; ".join(said) + ".) ") if said else ""


SLOT_ANSWER = lazy(r"^\s*(?:就?用|就|是|选|要|拿|按|用的是|我说的是|指的是|(?:i mean|use|the|it'?s|by)\s)?\s*(?P<body>.+?)\s*"
                         r"(?:这一?列|那一?列|这个字段|那个字段|一列|列|字段|(?:the\s+)?column)?\s*(?:吧|就行|就好|即可|啊|呀)?\s*[。.!！]?\s*$", re.I | re.A)
SLOT_PHRASE = {"group_by": "按 {} 分组", "sort_by": "按 {} 排序", "columns": "只保留 {} 列", "column": "", "columns_pair": "{} 的相关性",
               "join_key": "按 {} 关联"}
SLOT_PHRASE_EN = {"group_by": "group by {}", "sort_by": "sort by {}", "columns": "keep columns {}", "column": "", "columns_pair": "correlation of {}",
                  "join_key": "join on {}"}


def _spec_slot(req: Request, missing: str) -> bool:
    """A missing slot that one of the request's operations asks about with its own question (a column, or a number
    such as a rolling average's window)."""
    for o in req.ops:
        spec = opspec.get(o.kind)
        if spec is not None and any(s.missing_name == missing and s.kind in ("column", "columns", "keys", "number") for s in spec.slots):
            return True
    return False


def _spec_answer(req: Request, asked: list[str], body: str) -> str | None:
    """A reply that names no column, understood by the operation that asked one of the questions (行数 for a chart's
    measure, 7天 for a rolling average's window): the words joined to the request."""
    for slot in asked:
        for o in req.ops:
            spec = opspec.get(o.kind)
            said = spec.answer_word(slot, body) if spec is not None else None
            if said:
                return _spec_join(req, slot, said)
    return None


AXIS_ONLY = lazy(r"(?:横轴|纵轴|[xy]\s*轴|横坐标|纵坐标|柱子|数值|用|为|是|做|当|画|的|on|the|as|for|along|axis|by|per|over|against|vs|versus|按|每个?|[xy](?![a-z])|[,，、;；]|and|和"
                 r"|分类|分组|归类|类别|行数|计数|(?<![a-z_])(?:count|rows|category|categories|split|grouped)(?![a-z_]))+", re.I)  # 行数，按号别分类


def _turn_of_asker(req: Request, slot: str, turns: list[str], kind: str | None = None) -> int:
    """The latest turn that says the words of the operation asking about this slot (of that kind, when given; the last
    turn when none does)."""
    words = [w.casefold() for o in req.ops if (kind is None or o.kind == kind) and (spec := opspec.get(o.kind))
             and any(s.missing_name == slot for s in spec.slots) for ws in spec.words.values() for w in ws]
    return next((i for i in range(len(turns) - 1, -1, -1) if any(w in turns[i].casefold() for w in words)), len(turns) - 1)


def _spec_join(req: Request, slot: str, words: str) -> str:
    """An answer as the asking operation joins it to the request ("，纵轴用 月薪" for a chart's measure)."""
    for o in req.ops:
        spec = opspec.get(o.kind)
        if spec is not None and any(s.missing_name == slot for s in spec.slots):
            return spec.answer_join(slot, words, o.args, req.lang)
    return f" {words}"


def request_sheet(req: Request, f: FileInfo) -> SheetInfo:
    """The sheet a request reads; over sheets stacked, with the column that names each row's sheet (工作表 / sheet), so
    that column offered in a question and typed back is taken."""
    sheet = _sheet_of(f, req.sheet)
    st = req.op("stack")
    return sheet if st is None else _with_sheet_column(sheet, list(st.args.get("sheets") or [s.name for s in f.sheets if s.name]), req.lang)


def _with_sheet_column(sheet: SheetInfo, names: list[str], lang: str) -> SheetInfo:
    """A sheet of sheets stacked, with the column that names each row's sheet, its values the sheets' names (每个店, over
    sheets 东区店 …: that column); the sheet itself when it has that column."""
    from modes.opspecs.stack import SHEET_COLUMN

    label = SHEET_COLUMN["en" if lang == "en" else "zh"]
    if label in sheet.columns:
        return sheet
    return replace(sheet, columns=(*sheet.columns, label), values={**sheet.values, label: frozenset(names)})


def _slot_answer(p: Pending, text: str, catalog: Catalog) -> list[str] | None:
    """The turns with the columns an answer names put where they were asked for; [] when it names none; None when not an answer."""
    asked = [m for m in p.request.missing if m in SLOT_PHRASE or _spec_slot(p.request, m)]
    join = p.request.op("join")
    if p.request.missing[:1] == ("other_key",) and join is not None:
        return _other_key_answer(p, join, text, catalog)
    f = catalog.get(p.request.file) if p.request.file else None
    if p.request.missing[:1] == ("sheet",) and f is not None and len(f.sheets) > 1:
        sheet_said = _sheet_answer(p, text, f)
        if sheet_said or len(p.request.missing) == 1:
            return sheet_said
        # 学号, to "用哪一个工作表？按哪一列排序？": the column answers the later question; the sheet is still asked (the
        # same for an answer to "which column do you mean?" asked after "what is the condition?")
        later = replace(p, request=replace(p.request, missing=p.request.missing[1:], sheet=p.request.sheet or f.sheets[0].name))
        return _slot_answer(later, text, catalog)
    if p.request.missing[:1] == ("group_by",) and lx.NO_GROUPING_ANSWER.search(text):
        return [*p.turns, "不分组" if p.request.lang == "zh" else "no grouping"]  # 不分组，就要一个总数: one figure over every row
    if p.request.missing[:1] == ("condition",) and f is not None and f.sheets:
        conds_said = _condition_answer(p, text, _sheet_of(f, p.request.sheet))
        if conds_said or len(p.request.missing) == 1:
            return conds_said
        return _slot_answer(replace(p, request=replace(p.request, missing=p.request.missing[1:])), text, catalog)
    if f is not None and f.sheets and (periods := [w for w in p.request.unexplained if evidence.MONTH_ALONE.fullmatch(w)]):
        # 下单日期, to "时间“7月”对应表里的哪一列？": the period is of that date column, written into the turn that said it
        sheet = _sheet_of(f, p.request.sheet)
        dated = [h.column for h in find_columns(text, sheet) if h.column in sheet.dates]
        i = next((k for k in range(len(p.turns) - 1, -1, -1) if periods[0] in p.turns[k]), None)
        if len(set(dated)) == 1 and i is not None:
            turns = list(p.turns)
            turns[i] = turns[i].replace(periods[0], f"{dated[0]} in {periods[0]}" if p.request.lang == "en" else f"{dated[0]}在{periods[0]}", 1)
            return turns
    year = re.fullmatch(r"\s*(?:in\s+)?((?:19|20)\d{2})\s*年?\s*[。.!！]?\s*", text, re.I)
    if "value" in p.request.missing and year is not None:  # 2023, to "which year is 'Q3'?": the period said with its year
        raws = [c.raw for o in p.request.ops for c in o.args.get("conditions", []) if c.how == "month_no_year" and c.raw]
        turns = list(p.turns)
        for raw in raws:
            i = next((k for k in range(len(turns) - 1, -1, -1) if raw in turns[k]), None)
            if i is not None:
                y = year.group(1)
                turns[i] = turns[i].replace(raw, f"{y}年{raw}" if CJK_CHAR.search(raw) else f"{raw} {y}", 1)
        if raws and turns != list(p.turns):
            return turns
    m = SLOT_ANSWER.match(text)
    if not asked or f is None or not f.sheets or m is None:
        return None
    sheet = request_sheet(p.request, f)
    hits = find_columns(m.group("body"), sheet)
    offered = _spec_answer(p.request, asked, m.group("body")) if not hits else None
    if offered:  # count, to "which column should the chart show? (or “count”…)": the word it offered, never Discount holding it
        asker = _turn_of_asker(p.request, asked[0], list(p.turns))
        return list(p.turns[:asker]) + [f"{p.turns[asker]}{offered}"] + list(p.turns[asker + 1 :])
    if not hits:  # 月薪, to a question offering 月薪_平均: the one column it is a part of
        word = m.group("body").strip()
        col, how, _ = resolve_column(word, sheet, closest=False)
        if col is not None and how in ("partial", "synonym"):
            at = m.group("body").find(word)
            hits = [ColumnHit(at, at + len(word), col, how)]
    rest = re.sub(r"[\s,，、和与及and&]+", "", _blank(m.group("body"), [(h.start, h.end) for h in hits]), flags=re.I)
    if rest and hits and p.request.op("chart") is not None and AXIS_ONLY.fullmatch(rest):
        # 移动平均，横轴用月份, to the chart's questions: both axes said in the chart's own words, joined to its turn
        at = _turn_of_asker(p.request, asked[0], list(p.turns))
        sep = ", " if p.request.lang == "en" else "，"
        return list(p.turns[:at]) + [f"{p.turns[at]}{sep}{m.group('body').strip()}"] + list(p.turns[at + 1 :])
    if rest:
        said = _spec_answer(p.request, asked, m.group("body"))
        if said:  # 行数, to 图上画哪一列的数值？: a word the asking operation understands joins its request
            at = _turn_of_asker(p.request, asked[0], list(p.turns))
            return list(p.turns[:at]) + [f"{p.turns[at]}{said}"] + list(p.turns[at + 1 :])
        return [] if len(text) <= 12 and re.search(r"列|字段|column", text, re.I) else None
    cols = list(dict.fromkeys(h.column for h in hits))
    turns = list(p.turns)
    raws = [u["raw"].strip() for o in p.request.ops for u in o.args.get("unresolved", []) if u["raw"].strip()]  # "more than 20 ": as said
    raw = next((r for r in raws if any(_said_at(r, t) for t in turns)), None)
    if raw is not None:  # 按那个分组 + 城市 -> 按城市分组
        i = max(i for i, t in enumerate(turns) if _said_at(raw, t))
        at = _said_at(raw, turns[i])
        assert at is not None
        turns[i] = turns[i][: at.start()] + _filled(raw, cols[0], sheet) + turns[i][at.end() :]
        return turns
    if asked[0] == "column":  # 找异常值 + 实际销量: the column joins the request that asked for it
        return turns[:-1] + [f"{turns[-1]} {cols[0]}"]
    if asked[0] not in SLOT_PHRASE:  # a slot an operation asked about in its own words: the columns join that request,
        at = _turn_of_asker(p.request, asked[0], turns)  # in the turn that asked for the operation (never "all sheets")
        return turns[:at] + [f"{turns[at]}{_spec_join(p.request, asked[0], '、'.join(cols))}"] + turns[at + 1 :]
    owner = next((o.kind for o in p.request.ops if o.kind in _askers(asked[0])), None)
    if owner is not None and owner not in PHRASE_MAKES.get(asked[0], ()):
        # 金额, to 前5个门店 按哪一列排序？ / 性别, to 男女比例 按哪一列分组？: the column is the asking operation's own (按金额
        # joined to its clause), never a sort or a grouping of its own beside it
        by = "，按" + "、".join(cols) if p.request.lang != "en" else ", by " + ", ".join(cols)
        at = _turn_of_asker(p.request, asked[0], turns, owner)
        return turns[:at] + [f"{turns[at]}{by}"] + turns[at + 1 :]  # in the turn that asked for the operation
    if asked[0] == "join_key":  # the key is written into the join's own clause, so the files it named stay its files
        return turns[:-1] + [_with_join_key(turns[-1], cols[0], p.request.lang)]
    if p.request.lang == "en":  # an English request is completed in English (what is restated and recorded stays English)
        return turns + [SLOT_PHRASE_EN[asked[0]].format(" and ".join(cols) if asked[0] in ("columns", "columns_pair") else cols[0])]
    return turns + [SLOT_PHRASE[asked[0]].format("、".join(cols) if asked[0] in ("columns", "columns_pair") else cols[0])]


# the operation each generic answer phrase makes (按 X 排序 is a sort): an answer to another operation's question is
# joined to that operation's clause instead
PHRASE_MAKES = {"group_by": ("group",), "sort_by": ("sort",), "columns": ("select",), "columns_pair": ("correlate",),
                "join_key": ("join",)}


def _askers(slot: str) -> frozenset[str]:
    """The operations that ask for this slot themselves."""
    return frozenset(s.name for s in opspec.all_ops() if any(x.missing_name == slot for x in s.slots))


CJK_CHAR = lazy(r"[\u4e00-\u9fff]")


def _condition_answer(p: Pending, text: str, sheet: SheetInfo) -> list[str] | None:
    """区域等于North, to 筛选条件是什么？: an answer that is only conditions on this file joins the request that asked for
    them (its grouping, ranking and the rest kept); anything more is a request of its own."""

    body = text.strip(" 。.!！")
    hits = find_columns(body, sheet)
    conds = parse_conditions(body, sheet, hits)
    # (Job ID is J2045: a column whose values are not all known — an id — may hold a value never seen)
    if not conds.conds or conds.unresolved or any(c.how == "absent_value" and sheet.values.get(c.column or "") for c in conds.conds):
        return None
    rest = _blank(body, list(conds.spans) + [(h.start, h.end) for h in hits])
    if re.sub(r"[\s,，、和与及且并或的]+|(?<![a-z_])(?:and|or|only|just)(?![a-z_])|只看|只要|就|呢|吧", "", rest, flags=re.I):
        return None
    return list(p.turns) + [body]


def _said_at(raw: str, turn: str) -> re.Match[str] | None:
    """Where a name asked about was said in a turn: as a word of its own when it is written in letters (the t of
    "meant", never the t inside accounts.csv)."""
    pat = r"(?<![A-Za-z0-9_])" + re.escape(raw) + r"(?![A-Za-z0-9_])" if re.fullmatch(r"[A-Za-z0-9_ .\-]+", raw) else re.escape(raw)
    found = list(re.finditer(pat, turn))
    # side by side / 按那个分组: the name asked about is the one after a key word when it is said more than once
    keyed = [m for m in found if re.search(r"(?:按|by|per)\s*$", turn[: m.start()], re.I)]
    pick = keyed or found
    return pick[-1] if pick else None


SHEET_ANSWER_WORDS = lazy(r"(?<![a-z_])(?:no|yes|the|sheets?|only|and|both|use|stacked|together|combined|of)(?![a-z_])|工作表|表|只|用|和|与|合在一起|不对|对|是|的|[，,。.:：!！\s]", re.I)


def _says_more(low: str, named: list[str]) -> bool:
    """An answer naming sheets that also says what to do with them (an operation, a column): more than a choice."""
    rest = SHEET_ANSWER_WORDS.sub(" ", re.sub("|".join(re.escape(n.casefold()) for n in named), " ", low))
    return len(re.findall(r"[a-z]{3,}|[\u4e00-\u9fff]", rest)) >= 2


EACH_SHEET_ANSWER = lazy(r"分开|分别|各算各|各自|单独|每个\S{0,4}一行|每\S{0,4}各一行|按(?:工作表|表|sheet)分|(?<![a-z_])(?:separately|each (?:sheet|one|tab)|per (?:sheet|tab)|by sheet|one row (?:per|for each) \w+|side by side)(?![a-z_])"
                         r"|^\s*(?:the\s+)?(?:sheet|tab)s?(?:\s+column)?\s*$|^\s*(?:按)?工作表\s*$", re.I)  # sheet, to "which one? / which column?": one group per sheet


def _sheet_answer(p: Pending, text: str, f: FileInfo) -> list[str] | None:
    """下半年 / 合在一起 / both, to "用哪一个工作表？": the sheet (or every sheet, stacked) joins the request that asked."""
    low = text.casefold().strip(" 。.!！")
    if EACH_SHEET_ANSWER.search(low) and not [s for s in f.sheets if s.name and _sheet_named(s.name, low)]:
        # 分开算 / 每个城市一行 / each separately: every sheet, each one a group
        return list(p.turns) + (["per sheet"] if p.request.lang == "en" else ["每个工作表分别算"])
    if lx.ALL_SHEETS.search(low) or re.fullmatch(r"(?:都要|全部|都|两个都要|全都要|all|both|all of them)", low):
        return list(p.turns) + (["all sheets"] if p.request.lang == "en" else ["所有工作表合在一起"])
    low = NOT_THIS_SHEET.sub(lambda m: " " * len(m.group(0)), low)  # 不是上学期，用下学期的: the sheet said not to use is not chosen
    named = [s.name for s in f.sheets if s.name and _sheet_named(s.name, low)]
    if len(named) == 1:
        return list(p.turns) + ([f"the {named[0]} sheet"] if p.request.lang == "en" else [f"{named[0]}表"])
    if len(named) > 1 and _says_more(low, named):  # no: sheets Spring and Fall only, average score per course_id: the answer is the request
        return [*p.turns, text]
    if len(named) > 1:  # Q1和Q2, to "用哪一个工作表？": those sheets, stacked
        return list(p.turns) + ([f"the {' and '.join(named)} sheets"] if p.request.lang == "en" else [f"{'和'.join(named)}合在一起"])
    return None


def _filled(raw: str, col: str, sheet: SheetInfo) -> str:
    """The words asked about with the column said in them: 低于60 + 成绩 -> 成绩低于60 (the comparison stays); 数学低于60,
    where 数学 is a value of another column, + 成绩 -> 数学 成绩低于60; 那个 + 城市 -> 城市."""

    if raw == "各":  # 各多少条 + 车型 -> 车型各多少条
        return f"{col}{raw}"
    if ANY_OP.match(raw) and ANY_OP.match(raw).end() > 0:  # type: ignore[union-attr]
        return f"{col}{raw}" if CJK_CHAR.match(raw[:1]) and CJK_CHAR.match(col[-1:]) else f"{col} {raw}"  # Fee £ + over 250: apart
    for v in sorted((v for vs in sheet.values.values() for v in vs if len(v) >= 2 and raw.startswith(v)), key=len, reverse=True)[:1]:
        if ANY_OP.match(raw, len(v)) and ANY_OP.match(raw, len(v)).end() > len(v):  # type: ignore[union-attr]
            return f"{v} {col}{raw[len(v):]}"
    return f"{raw} {col}" if sheet.holds(raw) else col  # 数学 asked about as a column, where it is a value: both stay


def _other_key_answer(p: Pending, join: Op, text: str, catalog: Catalog) -> list[str] | None:
    """Customer ID, to "customers.csv 里没有客户ID，它对应哪一列？": the pair joins the request that asked."""
    sheets = join.args.get("sheets") or []
    other = catalog.get(p.request.files[1] if len(p.request.files) > 1 else p.request.file)
    m = SLOT_ANSWER.match(text)
    if other is None or m is None or not join.args.get("on"):
        return None
    hits = find_columns(m.group("body"), _sheet_of(other, sheets[1] if len(sheets) > 1 else None))
    if len(hits) != 1 or _blank(m.group("body"), [(hits[0].start, hits[0].end)]).strip():
        return None
    return list(p.turns) + [f"{join.args['on']} 对应 {hits[0].column}"]


def _chat(kind: str, utterance: str, lang: str, state: SessionState) -> tuple[Decision, SessionState]:
    req = Request(intent="chat", text=utterance, lang=lang, chat_kind=kind)
    zh, en = replies.CHAT.get(kind, replies.CHAT["other"])
    return _decision("chat", "reply", req, en if lang == "en" else zh, f"chat:{kind}"), state


def _only_guesses(req: Request, multi_turn: bool) -> bool:
    """A reading with nothing firm in it: the file not named, a column or value guessed from a near-miss word,
    several content words no rule read, and no confidence left. Restating such a reading would restate a guess."""
    return (not multi_turn and req.file_how in ("none", "only", "inferred") and req.confidence <= 0.1
            and len(req.unexplained) >= 2 and any(e.key in ("column_typo", "value_typo") for e in req.evidence))


QUOTED = lazy(r"(?<![A-Za-z])'([^'\n]{1,60})'(?![A-Za-z])|\"([^\"\n]{1,60})\"|“([^”\n]{1,60})”|‘([^’\n]{1,60})’|「([^」\n]{1,60})」")  # (weren't: no quote)


def _left_out(req: Request, text: str) -> tuple[str, list[str]] | None:
    """What the request names that the reading leaves out, by kind: 删除包含'A'或'B'的行 read without B; 2023财年 dropped
    (a total over every year); 无效的值，例如'NS' read as the whole condition."""
    for kind, find in (("quoted", lambda: _quoted_missed(req, text)),
                       ("period", lambda: [w for w in req.unexplained if evidence.MONTH_ALONE.fullmatch(w) and not _in_file_name(w, req.file)
                                           and not (req.sheet and req.sheet in w)]),  # 2月份, the sheet read: the sheet is that period
                       ("example", lambda: _example_as_condition(req, text))):
        names = find()
        if names:
            return kind, names
    return None


def _quoted_missed(req: Request, text: str) -> list[str]:
    """Names the user put in quotes that the reading left unread or unused: what would run is not what was asked."""
    if not req.unexplained:
        return []
    names = [next(g for g in m.groups() if g).strip() for m in QUOTED.finditer(text)]
    low = [w.casefold() for w in req.unexplained if w.strip()]
    return [n for n in dict.fromkeys(names) if n and any(w in n.casefold() or n.casefold() in w for w in low)]


def _in_file_name(period: str, file: str | None) -> bool:
    """2021年7月10日 asked of 气象数据_2021-07-10.csv: the file is that period."""
    said = [int(x) for x in re.findall(r"\d+", period)]
    named = {int(x) for x in re.findall(r"\d+", file or "")}
    return bool(said) and len(said) >= 2 and set(said) <= named


EXAMPLE_CUE = lazy(r"例如|比如|譬如|诸如|像是|(?<![a-z_])(?:e\.g\.|for example|for instance|such as)", re.I)


def _example_as_condition(req: Request, text: str) -> list[str]:
    """Condition values the request gave only as examples (例如'NS', such as "N/A"): the rows meant are a kind the
    example stands for, so a condition on the example alone is not the request."""
    values = {str(v).casefold(): str(v) for o in req.ops for c in o.args.get("conditions", []) if isinstance(c, Cond)
              for v in (c.value if isinstance(c.value, list) else [c.value]) if isinstance(v, (str, int, float)) and str(v).strip()}
    out: list[str] = []
    for m in EXAMPLE_CUE.finditer(text):
        window = text[m.end() : m.end() + 24].casefold()
        out += [v for k, v in values.items() if k in window and v not in out]
    return out


def _gate(req: Request, state: SessionState, turns: list[str], multi_turn: bool, catalog: Catalog, prior: Pending | None) -> tuple[Decision, SessionState]:
    lang = req.lang
    text = normalize(turns[-1])
    if req.gaps and req.ops and all(o.args.get("question") or o.kind in ("profile", "count") for o in req.ops):
        # 中位数是多少: the figure asked for is one no operation gives; never offer another figure in its place
        said = ("；".join(g.say("zh") for g in req.gaps) + "。") if lang == "zh" else ("; ".join(g.say("en") for g in req.gaps) + ". ")
        named = req.file if req.file_how not in ("none", "missing") else None
        d = _decision("unknown", "ask_intent", replace(req, intent="unknown"), said + replies.ask_intent(lang, named), "capability_gap")
        return d, state.evolve(pending=None, current_file=named or state.current_file)
    if req.ops and prior is None and not req.full and told_not_asked(text):  # 这个表是教务处导出的: the file's story, not a request
        named = req.file if req.file_how in ("named", "fuzzy", "description", "current") else None
        zh_, en_ = replies.remark(named or ("这个表" if lang == "zh" else "this table"))
        return _decision("chat", "reply", replace(req, intent="chat", chat_kind="remark", ops=()), en_ if lang == "en" else zh_,
                         "chat:told_not_asked"), state.evolve(current_file=named or state.current_file)
    if not req.ops and not req.full:
        if prior is not None and multi_turn and "file" in prior.request.missing and req.file and req.file_how in ("named", "fuzzy") \
                and req.file in (prior.request.candidates or _table_names(catalog, prior.request)):
            # invoices_2024.csv, typed back to "which file?": the file is taken; what the request asks is not understood
            # on it, so that is said, about that file — never the file question again
            unread = list(req.unexplained) or _not_understood(normalize(" ".join(turns[:-1])), req.file, catalog)
            said = (f"好的，用 {req.file}。但这个要求在它上面我没理解" + (f"：{'、'.join(unread)}" if unread else "") + "。") if lang == "zh" else \
                (f"OK, {req.file}. But I did not understand the request on it" + (f": {', '.join(unread)}" if unread else "") + ". ")
            d = _decision("unknown", "ask_intent", replace(req, intent="unknown"), said + replies.ask_intent(lang, req.file), "file_taken_request_unread")
            return d, state.evolve(pending=None, current_file=req.file)
        if prior is not None and multi_turn:
            missing = list(prior.request.missing) or ["file"]
            d = _decision("clarify", "ask_slots", prior.request, replies.ask_slots(prior.request, missing, lang, _table_names(catalog, prior.request)), "no_new_slots", missing)
            return d, state
        ck = chat_kind(text, catalog)
        if ck and not lx.VAGUE.search(text):
            return _chat(ck, turns[-1], lang, state)
        named = req.file if req.file_how in ("named", "fuzzy", "description", "current") else None
        mentions_data = bool(lx.QUESTION_DATA.search(text)) or any(find_columns(text, s) for s in catalog.sheets_mentioned(text))
        if not lx.VAGUE.search(text) and not lx.WORK_NOUN.search(text) and not named and not req.missing_file_name and ck is None \
                and re.search(r"[\u4e00-\u9fff]{2,}|[a-z]{3,}", text, re.I) and not lx.DEICTIC.search(text) and not mentions_data:
            return _chat("other", turns[-1], lang, state)
        if (named or lx.DEICTIC.search(text) or lx.WORK_NOUN.search(text)) and lx.REMARK.search(text) and not lx.VAGUE.search(text) \
                and prior is None and not ASKING.search(text):
            zh_, en_ = replies.remark(named or ("这个表" if lang == "zh" else "this table"))
            req = replace(req, intent="chat", chat_kind="remark")
            return _decision("chat", "reply", req, en_ if lang == "en" else zh_, "chat:remark"), state.evolve(current_file=named)
        req = replace(req, intent="unknown")
        cannot = evidence.gaps(text)
        if cannot:  # 中位数是多少: say plainly what cannot be done, and the closest thing that can
            said = ("；".join(g.say("zh") for g in cannot) + "。") if lang == "zh" else ("; ".join(g.say("en") for g in cannot) + ". ")
            d = _decision("unknown", "ask_intent", replace(req, gaps=tuple(cannot)), said + replies.ask_intent(lang, named), "capability_gap")
            return d, state.evolve(pending=None, current_file=named or state.current_file)
        unread = _not_understood(text, named, catalog)
        said = (f"没理解：{'、'.join(unread)}。" if lang == "zh" else f"Not understood: {', '.join(unread)}. ") if unread else ""
        if req.missing_file_name and req.file_how == "missing":  # 停车缴费_南门_x.csv 只留…: the file said is not there, said first
            near = ("、" if lang == "zh" else ", ").join(req.candidates or [f.path for f in catalog.tables][:6])
            said = (f"工作区里没有 {req.missing_file_name}，最接近的文件：{near}。" if lang == "zh" else
                    f"There is no {req.missing_file_name} in the workspace; closest: {near}. ")
        d = _decision("unknown", "ask_intent", req, said + replies.ask_intent(lang, named), "no_intent")
        return d, state.evolve(pending=None, current_file=named or state.current_file)
    if _names_no_data(req, text, catalog):
        return _chat("other", turns[-1], lang, state)  # 你是不是呆萌啊: talk that names no file, column or value, with words no rule reads
    if req.missing:
        d = _decision("clarify", "ask_slots", req, replies.ask_slots(req, list(req.missing), lang, _table_names(catalog, req)), "missing_slots", req.missing)
        pend = Pending(tuple(turns), "clarify", req, "clarify", "none")
        # 二期哪些房号…, asked about: its sheet is the one in play, so a request said in its place reads that sheet
        in_play = {"current_sheet": req.sheet} if req.file and req.sheet and "sheet" not in req.missing else {}
        return d, state.evolve(pending=pend, current_file=req.file or state.current_file, **in_play)
    left = _left_out(req, turns[-1])
    if left is not None:  # a quoted name, a period or the kind an example stands for, missing from the reading: asked, never run
        kind, names = left
        fi = catalog.get(req.file) if req.file else None
        if kind == "period" and fi is not None and fi.sheets:  # the date columns the period can be of: listed, any one typed back is taken
            sheet = _sheet_of(fi, req.sheet)
            req = replace(req, offers=(*req.offers, ("period_column", tuple(c for c in sheet.columns if c in sheet.dates))))
        d = _decision("clarify", "ask_slots", req, replies.left_out(kind, req, names, lang), f"left_out:{kind}", () if kind == "quoted" else ("condition",))
        # a period: the request waits, so a date column typed back (下单日期) places the period and the request goes on
        waiting = Pending(tuple(turns), "clarify", req, "clarify", "none", waits_for="period") if kind == "period" else None
        return d, state.evolve(pending=waiting, current_file=req.file or state.current_file)
    if _only_guesses(req, multi_turn):  # "definition of indeterminism": no file named, names guessed, words unread
        said = ("没理解：" + "、".join(req.unexplained) + "。") if lang == "zh" else ("Not understood: " + ", ".join(req.unexplained) + ". ")
        d = _decision("unknown", "ask_intent", replace(req, intent="unknown"), said + replies.ask_intent(lang), "only_guesses")
        return d, state.evolve(pending=None)
    row = select_mode("act", req)
    if row.mode == "plan_review":
        nxt, rule = "plan_confirm", "plan_card"
        reply = replies.plan_prompt(req, lang)
    elif multi_turn:
        nxt, rule = "restate_confirm", "completed_over_turns"
        reply = replies.restate(req, lang, _why(req, lang) if req.unexplained or req.gaps else "")  # a correction's unread part is named
    elif req.confidence < RESTATE_BELOW:
        nxt, rule = "restate_confirm", "low_confidence"
        why = _why(req, lang)
        reply = replies.restate(req, lang, why)
    else:
        nxt, rule, reply = "execute", "enough_to_act", ""
    d = _decision("act", nxt, req, reply, rule)
    if nxt == "execute":
        focus = results.in_focus(req, state.current_file)
        return d, state.evolve(pending=None, current_file=focus, current_sheet=results.sheet_in_focus(req, state, focus),
                               last=chained(state, Pending(tuple(turns), "done", req, d.mode, d.tier)))
    pend = Pending(tuple(turns), "confirm", req, d.mode, d.tier)
    focus = results.in_focus(req, state.current_file)
    return d, state.evolve(pending=pend, current_file=focus, current_sheet=results.sheet_in_focus(req, state, focus))



def _not_understood(text: str, named: str | None, catalog: Catalog | None = None) -> list[str]:
    """The words of a request about a file that no rule read (偏度, kurtosis), whole words, the file's own name, its
    sheets' names and its columns left out (中心馆逾期罚款…: never 心馆逾期罚款)."""
    stem = (named or "").casefold()
    fi = catalog.get(named) if catalog is not None and named else None
    taken: list[tuple[int, int]] = []
    if fi is not None and fi.is_table:
        low = text.casefold()
        taken += [m.span() for sh in fi.sheets if sh.name for m in re.finditer(re.escape(sh.name.casefold()), low)]
        taken += [(h.start, h.end) for sh in fi.sheets[:1] for h in find_columns(text, sh) if h.how in ("exact", "synonym")]
    out: list[str] = []
    for w in evidence.unexplained(text, taken):
        at = text.casefold().find(w.casefold())
        if w.isascii():  # a stem the word lists cut (kurtos): the whole word as written
            w = next((m.group(0) for m in re.finditer(r"[A-Za-z]+", text) if m.start() <= at < m.end()), w)
        if w.casefold() not in stem and w not in out:
            out.append(w)
    for w in _numbers_unread(text, taken):  # 排前10%: a figure no rule read (said whole, in place of a word it holds)
        if w not in out:
            out = [x for x in out if x not in w] + [w]
    return out[:4]

