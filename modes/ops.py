"""Reading the operations of one turn against one sheet's columns."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import islice
from typing import Any

from modes import lexicon as lx
from modes import opspec
from modes.catalog import SheetInfo
from modes.conditions import (
    BLANKS_LEFT_OUT,
    INFIX,
    Cond,
    CondParse,
    flag_noun,
    flag_words,
    flag_yes,
    negate,
    parse_conditions,
    reading_said,
)
from modes.decision import Op
from modes.lazyre import lazy
from modes.resolve import UNITS_DONE, ColumnHit, find_columns, find_values, resolve_column
from modes.text import CJK, blank, edit_distance, language, parse_number, tidy

DESC = lazy(lx.DESC_PAIR + r"|降序|倒序|逆序|desc\b|descending|(?:highest|largest|biggest|most|top|best|newest|latest|most recent|longest|heaviest|priciest|busiest)" + lx.THEN_FIRST + r"|high to low|(?:highest|largest|biggest|most|slowest|longest) to (?:lowest|smallest|least|fewest|fastest|shortest)|newest first|latest first|most recent first|最高的?在前|大的在前|新的在前|最新的?在前|最近的?在前|晚的在前|(?:最)?(?:多|高|大)的?(?:排在|排|在)前(?:面|头|边)?|排个名|排一下名|排名|排行|名次|(?<![a-z_])ranking(?![a-z_])|top", re.I | re.A)
AGG_WORDS: list[tuple[str, re.Pattern[str]]] = [
    ("mean", lazy(r"平均值|平均数|平均|均值|(?<![a-z_])(?:average|mean|avg)(?![a-z_])", re.I | re.A)),  # never "meant"
    ("sum", lazy(r"求和|总和|合计|总计|总额|加总|加起来|加在一起|加一下|\bsum\b|\btotals?\b|\badd(?:ed)? up\b", re.I | re.A)),
    ("max", lazy(r"最大值|最高值|最大|\bmax(?:imum)?\b", re.I | re.A)),
    ("min", lazy(r"最小值|最低值|最小|\bmin(?:imum)?\b", re.I | re.A)),
    # how many different values: 有多少种产品, 不重复的客户数, distinct / unique customers (its column named after it)
    # 有多少个不同的客户 / 几个不同的城市: a count of different values said with 不同
    ("distinct", lazy(r"(?:多少|几)\s*[个种类样]?\s*不同的?|多少种|几种|不重复的?|(?<![a-z_])(?:distinct|unique|different)(?![a-z_])", re.I | re.A)),
    ("count", lazy(r"人数|个数|计数|数目|次数|多少次|几次|数一下|数一数|数数|清点|多少个|多少人|多少家|多少条|多少笔|多少单|多少行|多少户|多少位|多少名|多少次|多少项|多少套|多少台|多少辆|(?<!哪)几套|(?<!哪)几台|(?<!哪)几辆|套数|台数|辆数|(?<!哪)几个|(?<!哪)几家|(?<!哪)几人|(?<!哪)几笔|(?<!哪)几单|(?<!哪)几条|(?<!哪)几行|(?<!哪)几户|(?<!哪)几位|(?<!哪)几名|\bcount\b|\bnumber of\b|\bhow many\b|行数|(?:条|笔|单|订单|记录)数量?|店数|家数|单量|票数|件次|人次|单次", re.I | re.A)),
]
_AGG_ONE = (r"(?:平均值|平均数|平均|均值|求和|总和|合计|总计|总额|最大值|最高值|最小值|最低值|(?:最大|最高|最小|最低)(?!的?[\u4e00-\u9fff]*?是(?:哪|谁|什么))"
            r"|(?<![a-z_])(?:average|mean|avg|sum|total|max(?:imum)?|min(?:imum)?)(?![a-z_]))")
# 总和、平均值、最大值 / sum, mean and max / 最大最小和平均: several statistics of one column, said as one list
AGG_LIST = lazy(_AGG_ONE + r"(?:\s*(?:、|,|，|/|和|及|与|以及|还有|(?<![a-z_])and(?![a-z_])|&)?\s*(?:the\s+)?" + _AGG_ONE + r")+", re.I | re.A)
AGG_OF_WORD = [("mean", lazy(r"平均|均值|(?<![a-z_])(?:average|mean|avg)(?![a-z_])", re.I)), ("sum", lazy(r"求和|总和|合计|总计|总额|(?<![a-z_])(?:sum|total)(?![a-z_])", re.I)),
               ("max", lazy(r"最大|最高|max", re.I)), ("min", lazy(r"最小|最低|min", re.I))]
EXTREME_WORDS: list[tuple[str, re.Pattern[str]]] = [
    ("max", lazy(r"最高的?|最大的?|(?<![a-z_])(?:the )?(?:highest|largest|biggest)(?![a-z_])", re.I | re.A)),
    ("min", lazy(r"最低的?|最小的?|(?<![a-z_])(?:the )?(?:lowest|smallest)(?![a-z_])", re.I | re.A)),
]
ASC = lazy(lx.ASC_PAIR + r"|升序|正序|(?<![a-z_])asc(?:ending)?(?![a-z_])|(?:lowest|smallest|least|fewest|oldest|earliest|shortest|lightest|cheapest)" + lx.THEN_FIRST + r"|oldest first|low to high|(?:lowest|smallest|least|fewest|fastest|shortest) to (?:highest|largest|biggest|most|slowest|longest)|(?:最)?(?:低|小|少|早|旧)的?(?:排在|排|在)前(?:面|头|边)?|倒数", re.I | re.A)
RANK_WORD = lazy(r"排名|排行|名次|ranking", re.I)
SORT_VERB = lazy(lx.DESC_PAIR + "|" + lx.ASC_PAIR + r"|排|sort|order|rank|升序|降序|倒序|desc|asc", re.I | re.A)
GROUP_VERB = lazy(r"分组|汇总|统计|求和|总和|合计|平均|均值|算|计算|数一下|数一数|数数|计数|清点|有几|(?:有)?多少(?:笔|单|条|个|次|人)|group|summar|sum|total|average|mean(?!t)|count|per|小计|breakdown|break\w*\s+(?:\S+\s+){0,4}?down", re.I | re.A)
DEDUPE_VERB = lx.DEDUPE
MAX_KEYS = 16
BY_WORD = lazy(r"按照|按|根据|依据|依照|不同(?=[\u4e00-\u9fffA-Za-z][^，,。；;]{0,10}?的\s*(?:平均|合计|总|最高|最低|最大|最小|中位|占比|比例))|(?<![a-z_])(?:group(?:ed)? by|sort(?:ed)? by|order(?:ed)? by|rank(?:ed)? by|for each|for every|in each|in every|within each|within every|of each|of every|(?:each|every)(?=\s+[a-z][a-z ]{0,20}?'s(?![a-z_]))|(?:does|do|did|has|have)\s+(?:each|every)|(?<!side )(?<!one )(?<!step )by(?! side| one| step)|per)(?![a-z_])|每个|每一个|每一?(?:门|位|名|家|类|种|所|项|款|支|间)(?=\s*(?!占|所占)[\u4e00-\u9fffA-Za-z])|各个|各项(?!目)(?=[\u4e00-\u9fffA-Za-z])|各种(?!类)(?=[\u4e00-\u9fffA-Za-z])|各(?!自|有|是|为|占|多少|几)(?=\s?[\u4e00-\u9fffA-Za-z])"
               r"|(?:其他|其余|其它|剩下的|其他的)(?=[\u4e00-\u9fff][^,;]{0,16}(?:分别|各自|各(?=[\u4e00-\u9fff])))", re.I | re.A)  # 不包括X，其他产品类别的…分别: per category
KEY_STOP = lazy(r"把|将|分组|汇总|统计|求和|排序|排列|排|从高|从低|从大|从小|升序|降序|倒序|算|计算|的|来|进行|做|group|sum|sort|,|;|\s|去重|关联|合并|对比|比较")
FILL = lazy(
    r"(?:的)?(?:空值|空白|空格子|缺失值|缺失|空的|空着的|空单元格)(?:都|全部|统一)?(?:填成|填为|填充为|填充成|填上|补成|补为|改成|替换成|替换为|设为|写成|填|补)\s*[\"“'「]?(?P<v>[^\"”'」,;]+?)[\"”'」]?(?=$|[,;。]|\s)"
    r"|\bfill (?:the )?(?:blanks?|empty (?:cells|values)|missing (?:values|cells)|nulls?)(?: in (?P<c>[\w\u4e00-\u9fff][\w\u4e00-\u9fff ()%-]{0,30}?))? with [\"']?(?P<v2>[^\"',;]+)"
    # 优惠金额空着的就当0算 / 为空的按0处理 / 空值当成0: a blank counted as a value is that value filled in, never a filter of the blanks
    r"|(?<![不非没])(?<![不非没][为是])(?:的)?(?:空值|空白|缺失值|空着的|空的|为空的|是空的|没填的|不填的)(?:就|都|一律|统一)?(?:当作|当成|当做|当|按|算作|算成|视为|看作|作为)\s*[\"“'「]?"
    r"(?P<v3>[^\s\"”'」,;，。算处计来]+?)[\"”'」]?\s*(?:来)?(?:算|处理|计算|看待|对待)?(?=$|[,;，。]|\s)"
    r"|\btreat (?:the )?(?:blanks?|empty (?:cells|values)|missing (?:values|cells)|nulls?)(?: in (?P<c2>[\w\u4e00-\u9fff][\w\u4e00-\u9fff ()%-]{0,30}?))? as [\"']?(?P<v4>[^\"',;\s]+)",
    re.I | re.A,
)
DROP_COLS = lazy(
    r"(?:删掉|删除|去掉|去除|不要|移除|\bremove\b|\bdrop\b|\bdelete\b)\s*+(?:the\s*+)?(?P<a>[^,;]{1,40}?)\s*+(?:这|那)?(?:几|两|一|三)?\s*+(?:列|columns?|字段)(?!\s*(?:中|里|内|当中|之中))"
    r"|(?P<b>[^,;]{1,40}?)\s*+(?:这|那)?(?:几|两|一|三)?\s*+(?:列|columns?|字段)\s*+(?:都)?(?:删掉|删除|去掉|不要了?|移除|\bremove\b|\bdrop\b)(?!\s*(?:里的|中的|的)?\s*(?:空格|空白|空值|重复|首尾|多余))",
    re.I | re.A,
)
DROP_VERB = lazy(r"删掉|删除|去掉|去除|不要|移除|\bremove\b|\bdrop\b|\bdelete\b", re.I | re.A)
BROUGHT_IN = lazy(r"加上|加入|带上|带出|带过来|补上|添上|添加|附上|(?<![a-z_])(?:add|bring|include)(?![a-z_])", re.I | re.A)
N_COLS = lazy(r"(?:[一二两三四五六七八九十]|\d+)\s*(?:列|个字段|columns)", re.I | re.A)
WHICH_TOP = lazy(
    r"哪(?P<wn>\d+|[两三四五六七八九十]+)?(?:个|些|一个|家|位|种|类|门|项|款|件|所|台|辆|只|条|本|部|首|间|(?=天|周|年|月份))\s*(?P<x>[A-Za-z_\u4e00-\u9fff]{1,10}?)\s*(?:的)?\s*(?P<y>[A-Za-z_\u4e00-\u9fff]{0,10}?)\s*(?P<d>最高|最多|最大|最好|最低|最少|最小|最差|最忙|最繁忙|最热门|最火|最受欢迎|最活跃|最冷清|最闲)"
    r"|(?:which\s+(?:(?P<wn2>\d+)\s+)?|(?:the\s+)?(?:top\s+)?(?P<wn3>\d+)\s+(?=[a-z_]+\s+with\s))(?P<x2>[\w\u4e00-\u9fff]+)\s+(?:(?P<sv>sold|sells?|made|earned|brought in)|has|had|have|got|with|gets|is|was|are|were|ranks?"
    r"|did|does|do|handled|handles|completed|completes|closed|took|takes|ran|runs|logged|booked|received|processed|served|delivered)\s+(?:the\s+)?(?P<d2>highest|most|largest|biggest|lowest|least|smallest|fewest|busiest|quietest|best|worst)"
    r"(?:\s+(?:(?:in|by|for|on)\s+)?(?:(?:average|mean|total|avg|sum of|number of)\s+)?(?P<y2>[\w\u4e00-\u9fff]+))?",
    re.I | re.A,
)
# (busy is said of how many rows a key has: the most rows, or the fewest)
BUSY_WORDS = {"最忙": "最多", "最繁忙": "最多", "最热门": "最多", "最火": "最多", "最受欢迎": "最多", "最活跃": "最多", "最冷清": "最少", "最闲": "最少",
              "busiest": "most", "quietest": "fewest"}
WHO_TOP = lazy(r"(?P<d>最(?:高|大|多|低|小|少|早|晚|好|差))的?(?:是|为)?(?:谁|哪(?:个|位|家|一个|一家|条|笔|本|部|首|件|款|辆|台|所|间)|什么)"
               # 他们里面谁最多 / 合计最多的那个: the one said with who, or as "that one"
               r"|谁\s*(?P<d3>最(?:高|大|多|低|小|少))|(?P<d4>最(?:高|大|多|低|小|少))的那(?:个|位|家|一个|一位|一家)"
               r"|who (?:has|had|got|earns?|scored?) the (?P<d2>highest|most|largest|lowest|least|smallest)", re.I | re.A)
# the duplicates removed, said beside a question about them (有没有重复的，帮我去个重 / any duplicates? drop them)
DEDUPE_DROP = lazy(r"去重|去个重|去下重|去一下重|去一去重|去掉|删|剔除|清掉|(?<![a-z_])(?:remove|drop|delete|dedupe|de-?duplicate|get rid of)(?![a-z_])", re.I | re.A)
SHOW_DUPES = lazy(r"找出|找到|列出|查出|查一下|看看|有没有|有哪些|哪些|是否有|(?<![a-z_])(?:find|show|list|which|any|are there)(?![a-z_])", re.I | re.A)
RENAME = lazy(
    r"(?:把|将)?\s*\S{0,20}?(?:列|字段)?\s*(?:改名为|改名成|重命名为|改叫|更名为|的列名改成|列名改为|(?:的)?(?:列名|名称|名字)(?:更改|修改|改)[为成])\s*[\"“「']?(?P<new>[\w\u4e00-\u9fff]+)"
    r"|(?<![a-z_])rename\s+(?:the\s+)?(?:column\s+)?\S+\s+(?:column\s+)?to\s+[\"']?(?P<new2>[\w\u4e00-\u9fff]+)",
    re.I | re.A,
)
RENAME_VERB = lazy(r"改名|重命名|改叫|更名|列名改|(?:列名|名称|名字)(?:更改|修改|改)[为成]?|rename", re.I | re.A)
EXPORT_FORMAT = lazy(r"(?:成|为|(?<![a-z_])as|(?<![a-z_])to|(?<![a-z_])into|导出|转)\s*(?P<f>csv|tsv|xlsx|xls|excel)(?![a-z_])", re.I | re.A)
CMP_STAT = lazy(r"(?:(?<=高于)|(?<=低于)|(?<=大于)|(?<=小于)|(?<=超过)|(?<=不到)|(?<=于了)|(?<=过了))\s*(?:" + lx.OVERALL + r")?(?:平均水平|平均值|平均数|平均|均值)"
                      r"|(?:(?<=above)|(?<=below)|(?<=than)|(?<=under)|(?<=over))\s+(?:" + lx.OVERALL + r")?(?:the\s+)?(?:average|mean)", re.I | re.A)
BARE_OPS = {"大于": "gt", "超过": "gt", "高于": "gt", ">": "gt", "小于": "lt", "低于": "lt", "不到": "lt", "<": "lt",
            "不低于": "ge", "至少": "ge", ">=": "ge", "≥": "ge", "不超过": "le", "不高于": "le", "<=": "le", "≤": "le", "等于": "eq", "=": "eq",
            "over": "gt", "above": "gt", "more than": "gt", "greater than": "gt", "below": "lt", "under": "lt", "less than": "lt",
            "at least": "ge", "at most": "le"}
BARE_CMP = lazy(r"(?P<op>不低于|不超过|不高于|大于|超过|高于|小于|低于|不到|至少|等于|>=|<=|≥|≤|>|<|=|(?<![a-z_])(?:over|above|more than|greater than|below|under|less than|at least|at most)(?= ))"
               r"\s*(?P<v>-?\d[\d,.]*\s*(?:万|千|k)?|[一二两三四五六七八九十百千万点]+)")
COUNT_NOUN = lazy(r"人|人数|的人|员工|个数|数量最?|记录|条|单|笔|次|家|店|门店|订单数?|rows?|records?|people|employees|entries|orders|stores|customers|items", re.I | re.A)
VALUES_Q = lazy(r"有哪些|都有什么|有什么|有哪几[个种类]|分别是|都有哪些|distinct|unique values|which values", re.I | re.A)
# measure words that count rows (多少单 / 几次 / 多少户): a count, never an amount; goods' units (件, 台) may be a quantity
ROW_CLASSIFIERS = lx.ROW_CLASSIFIERS
VALUE_Q = lazy(r"(?:一共|总共|合计|总计|共|加起来)?(?:是)?多少(?!" + ROW_CLASSIFIERS + r"|种)|几何|how much|what(?:'s| is| was) the (?:total|sum|average|mean|max|min|maximum|minimum|highest|lowest|largest|smallest|biggest)", re.I | re.A)
COUNT_Q = lazy(r"有多少|多少(?:" + ROW_CLASSIFIERS + r")|(?<!哪)几(?:" + ROW_CLASSIFIERS + r")|[\u4e00-\u9fff]{1,3}?数(?![据量值字学额])|\bhow many\b|\bnumber of\b|\bcount of\b", re.I | re.A)
ARITH_ANY = lazy(r"(?P<a>[A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff]*)\s*(?P<op>[+*/×÷]|乘以|除以|加上|减去|(?<=\s)-(?=\s))\s*(?P<b>[\w\u4e00-\u9fff.]+)")
ARITH = lazy(r"\s*(?P<a>[^\s=+\-*/×÷,]+?)\s*(?P<op>[+\-*/×÷xX]|乘以|除以|加上|减去|乘|除|减|加|(?<=\s)(?:times|plus|minus|divided by)(?=\s))\s*(?P<b>[^\s,;]+)")


@dataclass
class TurnOps:
    """The operations found in one turn, in the order written, and what could not be resolved."""

    ops: list[Op] = field(default_factory=list)
    hits: int = 0
    unresolved: int = 0
    correction: bool = False
    whole_condition: bool = False  # 条件改成… / change the condition to…: the correction replaces every condition
    typos: list[str] = field(default_factory=list)
    bare: list[tuple[str, Any]] = field(default_factory=list)  # a comparison with no column: 大于4.5
    bare_alone: bool = False  # only the ones over 11 / 只看超过5的: a comparison said alone, of no rows named (orders over 100)
    consumed: list[tuple[int, int]] = field(default_factory=list)  # the spans the rules read
    year: int | None = None  # no, I meant 2023: a year said alone in a correction (the period it corrects changes year)
    bare_keys: list[str] = field(default_factory=list)  # no, by line instead: keys said with no verb, in a correction
    adds: bool = False  # 还要加上… / also …: the turn's parts join the request's, never replace them
    include_too: bool = False  # 退货的也算进去: a value joins the values of that column's condition
    asked_again: bool = False  # 金额是空的呢 / what about blank Emails?: the same request asked of another part
    said: str = ""  # the turn's words as read (file names set aside)
    included: frozenset[str] = frozenset()  # the values said in the clause of the include word (上海的呢，白金也算上: 白金 only)
    split: str | None = None  # 按城市分系列 / split by carrier, said alone: the chart that waits draws one series per value
    flip: bool = False  # 反过来 / the other way round: the layout that waits, its rows and columns swapped
    flag_said: bool = False  # 延误次数: a yes-no column said by its word, not to correct or narrow the rows (只数…)
    brought: list[str] = field(default_factory=list)  # 把会员姓名也带上: text columns to show beside what ran (keys of its summary)

    def kinds(self) -> list[str]:
        return [o.kind for o in self.ops]


def _unres(raw: str, closest: list[str] | tuple[str, ...], slot: str = "column") -> dict[str, Any]:
    return {"slot": slot, "raw": raw, "closest": list(closest)}


_blank = blank


def _col_after(text: str, i: int, hits: list[ColumnHit], sheet: SheetInfo, stop: re.Pattern[str] = KEY_STOP,
               numeric: bool = False) -> tuple[str | None, str, str, list[str], int]:
    """The column written right after position i: (column, raw, how, closest, end); with `numeric`, a part of several
    names is the one that holds numbers (汇总回款 over 回款金额 / 回款日期 / 回款方式: 回款金额)."""
    j = i
    starts = {h.start for h in hits}
    while j < len(text) and text[j] in " 的:'\"“‘「『" and j not in starts:  # (a column whose name the statistic words blanked; 按“险种”列)
        j += 1
    filler = re.match(r"(?:of|the|for|all|in|on)\s+(?:the\s+)?", text[j:], re.I | re.A)
    if filler:  # sum of salary, by the city
        j += filler.end()
    total = re.match(r"(?:total|overall)\s+", text[j:], re.I | re.A)
    if total and any(h.start == j + total.end() for h in hits):  # top 5 products by total revenue: the column after it
        j += total.end()
    for h in hits:
        if h.start == j:
            return h.column, text[h.start : h.end], h.how, [], h.end
    m = re.match(r"[\u4e00-\u9fff]+[A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*", text[j:])
    if not m:
        return None, "", "none", [], j
    raw = m.group(0)
    if CJK.match(raw):
        cut = stop.search(raw)
        raw = raw[: cut.start()] if cut else raw
        inner = [h.start for h in hits if j < h.start < j + len(raw)]
        if inner:  # 班语文: another column's name starts inside, so the word ends before it
            raw = raw[: inner[0] - j]
    if not raw or raw.casefold() in ("the", "it", "a", "this", "一下", "下", "个", "them", "that", "its", "column", "columns"):
        return None, "", "none", [], j
    col, how, closest = resolve_column(raw, sheet, numeric)
    if col is None and CJK.match(raw) and len(raw) > 2:
        longest = max((len(c) for c in sheet.columns), default=0) + 8  # no name is longer: a bounded search
        for k in range(min(len(raw) - 1, longest), 0, -1):  # the longest leading part that names a column
            c2, h2, _ = resolve_column(raw[:k], sheet, closest=False)
            if c2 is not None and h2 in ("exact", "synonym", "partial") and not (h2 == "partial" and _noun_goes_on(raw, k)):
                return c2, raw[:k], h2, [], j + k
    return col, raw, how, closest, j + len(raw)


def _noun_goes_on(raw: str, k: int) -> bool:
    """维修等级 read from its first part 维修 (a part of 维修工), or 小区 from 小 (of 耗时小时): a part of a name cut inside
    a word, or followed by a content word of the same noun, is a different word, never that column (分多少 / 村有多少户:
    分数 / 所在村, then words of the question)."""
    from modes.tagging import segment

    toks = segment.tokens(raw)
    if toks is None:
        return k < 2
    nxt = next((t for t in toks if t.start == k), None)
    if nxt is None:
        return True  # (the segmenter reads the part and what follows as one word: 小区)
    if nxt.word in PERIOD_KEY or nxt.word in ("日期", "时间"):
        return False  # 销售月份, over 销售日期: the date column's month
    return nxt.pos[:1] in ("n", "b") or nxt.pos == "vn"  # a noun, or a word that only qualifies one (等级)


JOINED = lazy(r"\s*(?:和|与|及|以及|、|,|，|and|&)\s*", re.I | re.A)


LISTED_ZH = lazy(r"\s*(?:和|与|跟|及|以及|、|,|，|还有)\s*")
LISTED_ZH_TIGHT = lazy(r"\s*(?:和|与|及|、)\s*")  # (no comma: 平均工时，配件费保留整数 lists nothing)


def _list_ending_at(last: ColumnHit, hits: list[ColumnHit], text: str, joiner: re.Pattern[str] = LISTED_ZH,
                    fits: Callable[[ColumnHit], bool] = lambda h: True) -> list[ColumnHit]:
    """送修日期和车牌号 / 单价、数量: the columns of the list said that ends with `last`, in the order written."""
    chain = [last]
    for h in reversed([h for h in hits if h.end <= last.start]):
        if not joiner.fullmatch(text[h.end : chain[0].start]) or not fits(h):
            break
        chain.insert(0, h)
    return chain


def _joined_before(last: ColumnHit, hits: list[ColumnHit], text: str) -> list[ColumnHit]:
    """The columns listed before `last` with 和 / 、 / and between them, in the order written."""
    chain: list[ColumnHit] = []
    cur = last
    while prev := next((h for h in hits if h.end <= cur.start and JOINED.fullmatch(text[h.end : cur.start])), None):
        chain.insert(0, prev)
        cur = prev
    return chain


def _joined_after(first: ColumnHit, hits: list[ColumnHit], text: str) -> list[ColumnHit]:
    """The columns listed after `first` with 和 / 、 / and between them, in the order written."""
    chain: list[ColumnHit] = []
    cur = first
    while nxt := next((h for h in hits if h.start >= cur.end and JOINED.fullmatch(text[cur.end : h.start])), None):
        chain.append(nxt)
        cur = nxt
    return chain


# rows counted per key: count rows per Member ID / how many visits per customer / 每个会员编号有几条 — the id repeats, so it groups
ROWS_COUNTED = lazy(r"(?<![a-z_])(?:count(?:s|ing)?(?: (?:the )?(?:rows|records|visits|entries|check-?ins|orders|times))?|how many|number of (?:rows|records|visits|entries|times))(?![a-z_])"
                    r"|几条|几次|几行|多少条|多少次|多少行|行数|次数|计数", re.I)


def _id_like(col: str, sheet: SheetInfo) -> bool:
    """A column that names each row (order_id, 订单号): not something to group by."""
    low = col.casefold()
    return (low.endswith(("id", "号", "编号", "编码", "no", "number", "code", "ref", "reference")) or lx.concept_of(col) in ("id", "order")) and col not in sheet.values


ROW_ID_TAIL = lazy(r"(?:编号|号)$")
ROW_ID_TAIL_EN = lazy(r"([A-Za-z]+)[\s_-]*(?:id|no|number|ref|reference|code|#)", re.I)


def row_noun(sheet: SheetInfo) -> str | None:
    """What each row is, said by the head of the first column when that column numbers the rows: 工单 of 工单号,
    rental of Rental ID (casefolded); the column naming each stacked row's sheet is set aside."""
    first = next((c for c in sheet.columns if c not in ("工作表", "sheet")), "")
    if not _id_like(first, sheet):
        return None
    zh = ROW_ID_TAIL.search(first)
    if zh is not None and len(head := first[: zh.start()]) >= 2 and all(CJK.match(ch) for ch in head):
        return head
    en = ROW_ID_TAIL_EN.fullmatch(first)
    return en.group(1).casefold() if en is not None else None


def _rows_counted_by_noun(t: _Turn, text: str) -> re.Match[str] | None:
    """多少工单 / 几个预约 / 工单数, over a table whose first column numbers its rows (工单号, 预约号): the rows counted,
    said by what each row is."""
    head = row_noun(t.sheet)
    if head is None or not CJK.match(head) or head not in text:
        return None
    h = re.escape(head)
    return re.search(rf"(?:多少|几)\s*(?:个|张|份|条|笔)?\s*{h}(?!号|编号)|{h}(?:总数|数量|数|量)(?![据值])", text)


def _row_noun_en(sheet: SheetInfo) -> str | None:
    """rental of Rental ID / booking of Booking Ref: the rows' noun, when it is English."""
    noun = row_noun(sheet)
    return noun if noun is not None and noun.isascii() else None


def _split_key(raw: str, sheet: SheetInfo) -> tuple[str, str]:
    """哪个城市金额 / 哪个班英语平均分: the longest prefix that names a column is the key, the rest the measure."""
    for kinds in (("exact", "synonym"), ("partial",)):
        for i in range(min(len(raw), max((len(c) for c in sheet.columns), default=0) + 8), 0, -1):
            if resolve_column(raw[:i], sheet, closest=False)[1] in kinds:
                return raw[:i], re.sub(r"^的", "", raw[i:])
    return raw[:2], re.sub(r"^的", "", raw[2:])


@dataclass
class _Turn:
    """One turn's parse in progress: the text, the sheet, what the rules found and the spans they read."""

    text: str
    sheet: SheetInfo
    flags: dict[str, Any]
    out: TurnOps
    hits: list[ColumnHit] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    found: list[tuple[int, Op]] = field(default_factory=list)
    worded: list[opspec.Found] = field(default_factory=list)
    explore: bool = False  # an operation read by its own words, or an exploration: the summary rules stand aside
    header_said: bool = False
    sort_keys: list[str] = field(default_factory=list)
    group_keys: list[str] = field(default_factory=list)
    dedupe_keys: list[str] = field(default_factory=list)
    having: list[tuple[tuple[int, int], dict[str, str]]] = field(default_factory=list)  # (span, measure) of each having
    key_spans: list[tuple[int, int]] = field(default_factory=list)
    sorting: bool = False
    grouping: bool = False
    versus_overall: bool = False
    compare_groups: bool = False
    compare_end: int = -1  # where the word that compares the groups ends (按是否异常比一下运费: the figure follows it)
    ratio: tuple[str, str, str] | None = None  # (numerator, denominator, name) of a ratio of two columns' totals
    rows_by: bool = False  # closed tickets by team: the rows named, counted per key
    period_key: str | None = None  # 按门店和月份: a period of the date column listed among the keys
    period_col: str | None = None  # the date column whose periods those are, when named (by Technician and Opened month)
    period_alone: bool = False  # 按缴费日期的月份汇总: that period is the only key
    rank_by: str | None = None  # 卖的最好的前10个，按数量算: the figure a ranking is measured by
    measure_by: str | None = None  # 一共多少钱，按实收金额算: the column a total is of
    rate_word: str | None = None  # 不良率 / attendance rate said as the figure, with no column of that name and no definition
    compared: list[tuple[int, int]] = field(default_factory=list)  # comparisons a rule read as conditions of its own
    formula_spans: list[tuple[int, int]] = field(default_factory=list)  # a new column's name and definition: no statistic asked
    gtext: str = ""
    cp: CondParse = field(default_factory=CondParse)
    rounded: int | None = None  # 保留两位小数 / rounded to 2 dp, said of a new column
    rewritten: list[tuple[int, int]] = field(default_factory=list)  # phrases written anew in the text read (the number of … as count)
    round_digits: int | None = None  # 保留整数 / round to 2 decimals, said of the numbers of the result
    round_span: tuple[int, int] | None = None
    round_obj: tuple[int, int] | None = None  # round liters to …: the words of the columns rounded
    rate_made: tuple[str, str] | None = None  # (提成, 实收金额) of 提成按实收的15%算: the new column, of that column

    def add(self, at: int, op: Op) -> None:
        self.found.append((at, op))

    def unresolved(self, n: int = 1) -> None:
        self.out.unresolved += n

    def has(self, *kinds: str) -> bool:
        return any(o.kind in kinds for _, o in self.found)

    def free(self, i: int) -> bool:
        return not any(s <= i < e for s, e in self.spans)


# a summary's figure said by its statistic alone, before a comparison: 平均超过250的 over 金额_平均
FIGURE_BY_STAT = lazy(r"(?P<w>平均值?|均值|合计|总和|总计|中位数|最大值?|最小值?|(?<![a-z_])(?:average|mean|total|sum|median)(?![a-z_]))\s*(?:的)?\s*"
                      r"(?=(?:" + "|".join(pat for _, pat in INFIX[:-1]) + r")\s*-?\d)", re.I | re.A)
# sort them by total, biggest first / 按合计从高到低: the summary's one figure of that statistic, said by it as an order
FIGURE_SORTED = lazy(r"(?:(?<![a-z_])by|按|按照)\s*(?:the\s+|its\s+|their\s+)?(?P<w>平均值?|均值|合计|总和|总计|中位数|(?<![a-z_])(?:average|mean|total|sum|median)(?![a-z_]))"
                     r"(?=\s*(?:[,，.。;；]|$|(?:desc|asc|descending|ascending|biggest|largest|smallest|highest|lowest|first|from|high|low)(?![a-z_])|从|由|降序|升序|倒序|排))",
                     re.I | re.A)
SUFFIX_OTHER_LANG = {"合计": "sum", "sum": "合计", "平均": "mean", "mean": "平均", "中位数": "median", "median": "中位数", "最大": "max", "最小": "min"}
STAT_SUFFIX = {"平均": "平均", "平均值": "平均", "均值": "平均", "合计": "合计", "总和": "合计", "总计": "合计", "中位数": "中位数", "最大": "最大",
               "最大值": "最大", "最小": "最小", "最小值": "最小", "average": "mean", "mean": "mean", "total": "sum", "sum": "sum", "median": "median"}


def _figure_words(t: _Turn) -> list[tuple[int, int]]:
    """Where a statistic's word names a summary's figure (平均 of 金额_平均, read by _summary_figure_hits): no statistic asked."""
    return [(h.start, h.end) for h in t.hits if (w := STAT_SUFFIX.get(t.text[h.start : h.end].casefold())) and h.column.casefold().endswith("_" + w)]


def figures_named(word: str, columns: Iterable[str]) -> list[str]:
    """The columns of a summary that a statistic's word names (合计 / total: 金额_合计, fare_sum), in either language."""
    suffix = STAT_SUFFIX.get(word.casefold(), "")
    ends = tuple("_" + x for x in (suffix, SUFFIX_OTHER_LANG.get(suffix, "")) if x)
    return [c for c in columns if ends and c.casefold().endswith(ends)]


def _summary_figure_hits(t: _Turn, hits: list[ColumnHit]) -> list[ColumnHit]:
    """平均超过250的有哪几个 on a summary whose one figure of that statistic is 金额_平均: the word names that column (a
    condition on the figure, never an average asked of a column not said)."""
    out = list(hits)
    for m in [*FIGURE_BY_STAT.finditer(t.text), *FIGURE_SORTED.finditer(t.text)]:
        if any(h.start < m.end("w") and m.start("w") < h.end for h in hits):
            continue
        cols = figures_named(m.group("w"), [c for c in t.sheet.columns if c in t.sheet.numeric])
        if len(cols) == 1:
            out.append(ColumnHit(m.start("w"), m.end("w"), cols[0], "partial"))
    return sorted(out, key=lambda h: h.start)


COUNT_PHRASE = lazy(r"(?<![a-z_])(?:the\s+)?(?:number|count|#)\s+of\s+(?:the\s+)?(?:(?!(?:unique|distinct|different)\s)[a-z]+\s+){0,2}?(?:bookings?|orders?|records?|rows?|tickets?|visits?"
                    r"|transactions?|entries|entry|cases?|claims?|items?|appointments?|jobs?|calls?|requests?|incidents?)(?![a-z_])"
                    r"|(?<![a-z_])(?:the\s+)?(?:number|count)\s+of\s+(?:the\s+)?(?:[a-z]+)?(?=\s{3,}|\s*$)", re.I | re.A)  # (the table's own name set aside)


def _counts_said(text: str, sheet: SheetInfo, read: list[tuple[int, int]] | None = None) -> str:
    """number of work orders / count of tickets: how many rows, read as the word count (its nouns no column, value or
    condition: "WO Number of work" is never a comparison); a column of that very name stays that column, and a phrase
    whose first noun names a text column (number of customers: Customer) stays words, the column's values counted."""
    names = {c.casefold() for c in sheet.columns}

    def said(m: re.Match[str]) -> str:
        if m.group(0).casefold() in names:
            return m.group(0)
        noun = re.match(r"(?:the\s+)?(?:number|count|#)\s+of\s+(?:the\s+)?([a-z]+)", m.group(0), re.I)
        col = resolve_column(noun.group(1), sheet, closest=False)[0] if noun else None
        if col is not None and col not in sheet.numeric and col not in sheet.dates:
            return m.group(0)
        if read is not None:
            read.append(m.span())  # (the whole phrase is read, though only "count" stands in its place)
        return "count".ljust(len(m.group(0)))

    def rows(m: re.Match[str]) -> str:  # 工单数, beside a column 工单号 that numbers the rows: how many rows
        said = m.group("s")
        for k in range(1, len(said) + 1):  # (换成工单数: the stem is the shortest end of the word that names the column)
            stem = said[-k:]
            ids = [c for c in sheet.columns if c in (stem + "号", stem + "编号", stem + "单号", stem + "ID", stem + "id")]
            if ids and not any(c in sheet.numeric for c in ids) and (stem + "数").casefold() not in names:
                head = m.group(0)[: -len(stem) - 1]
                if head.endswith("按") and COUNTED_BY.match(m.string, m.end()):  # 改成按订单数算: the figure counted, no key
                    head = head[:-1] + " "
                return head + "行数".ljust(len(stem) + 1)
        return m.group(0)

    text = ID_COUNT_ZH.sub(rows, text) if "数" in text else text
    return COUNT_PHRASE.sub(said, text)


ID_COUNT_ZH = lazy(r"(?P<s>[\u4e00-\u9fff]{1,4})数(?![据值量字额])")
PER_ROW_NOUN = lazy(r"\s+(?:the\s+)?([a-z]+?)(?:es|s)?(?=\s+(?:by|per|for|in|at|on|across|over|,)(?![a-z_])|\s*[,.;?]|\s*$)", re.I | re.A)
COUNTED_BY = lazy(r"\s*(?:来|去)?(?:算|计算|统计|计)(?!划)")


def _flag_versus(text: str, sheet: SheetInfo, spans: list[tuple[int, int]]) -> str:
    """paid vs not paid / 退货的和没退货的比一下, over a yes-no column: its two values side by side — the column is the
    key (by Paid), never a second table to compare with. Written as that key where its words fit in the same place."""
    if not VERSUS_WORD.search(text):
        return text
    for word, col in flag_words(sheet).items():
        w = re.escape(word)
        pat = (rf"(?<![a-z_])(?:{NOT_FLAG_EN})?{w}(?:\s+ones)?\s+(?:vs\.?|versus|against|compared (?:to|with))\s+(?:{NOT_FLAG_EN})?{w}(?![a-z_])"
               if word.isascii() else rf"(?:没有?|未|不)?{w}的?(?:和|跟|与|对比|比)(?:没有?|未|不)?{w}的?")
        for m in re.finditer(pat, text, re.I):
            if len(re.findall(NOT_FLAG_EN if word.isascii() else "没有?|未|不", m.group(0), re.I)) != 1:
                continue  # paid vs not paid: one side said with its negation, the other without
            said = (f"by {col}" if word.isascii() else f"按{col}")
            if len(said) <= len(m.group(0)):
                text = text[: m.start()] + said.ljust(len(m.group(0))) + text[m.end() :]
                spans.append((m.start() + len(said), m.end()))  # (the words after the key, read with it)
    return text


VERSUS_WORD = lazy(r"(?<![a-z_])(?:vs\.?|versus|against|compared (?:to|with))(?![a-z_])|(?:和|跟|与)(?:没有?|未|不)|对比|比", re.I)
NOT_FLAG_EN = r"not\s+|non-?|un"
NO_JOIN = lazy(r"(?<![a-z_])(?:no|without(?: any)?|don'?t|do not|not)\s+(?:a\s+)?(?:join|joins|joining|merge|merging|lookup|filter|filtering|filters)(?![a-z_])"
               r"|(?:不要|不用|不需要|无需|别|不)(?:再)?(?:关联|合并|匹配|连接|筛选|过滤)(?:了)?"
               r"|(?:不要|不用|不需要|无需|别)(?:和|跟|与)(?:别的|其他|另外的?|别)?(?:表|文件|sheet)?(?:比|比较|对比)", re.I | re.A)  # 不用和别的表比
PIVOT_WORD = lazy(r"透视|交叉表|(?<![a-z_])(?:pivot|crosstab|cross-tab)(?![a-z_])", re.I | re.A)
LAYOUT_ROLE_EQ = lazy(r"(?<![a-z_])(?:rows?|columns?|values?)\s*(?P<eq>[=:：])|(?:行|列|值)\s*(?P<eq2>[=:：])", re.I | re.A)
SAME_AGAIN = lazy(r"^\s*(?:and\s+|now\s+)?(?:the\s+)?same\s+(?:thing\s+|again\s+)?(?=(?:for|on|with|in|over|across|but)(?![a-z_]))|^\s*(?:同样的?|一样的?)(?=\s*[，,]?\s*(?:换|对|看|算|把|用))", re.I)
PIVOT_CELLS = lazy(r"(?<![a-z_])cells?(?![a-z_])|单元格|格子", re.I)
TAIL_REF = lazy(r"\s+(?:to|on|in|into|for)\s+(?:that|this|it|them|the\s+(?:result|table|summary))(?:\s+(?:result|table|one|summary))?\s*[.!?]?\s*$", re.I | re.A)


def _prepare(t: _Turn) -> None:
    """Words that set how the turn runs, not what it does, are read first and blanked; then the columns."""
    spans = t.spans
    for m in lx.PLAN_ONLY.finditer(t.text):
        spans.append(m.span())
    for m in lx.OVERWRITE.finditer(t.text):
        spans.append(m.span())
    for m in lx.HEADER_ROW.finditer(t.text):
        spans.append(m.span())
        t.header_said = True
    for m in EXPORT_FORMAT.finditer(t.text) if lx.EXPORT.search(t.text) else ():  # 导出成 csv: the format, never a value to filter on
        spans.append(m.span("f"))
    spans += [m.span() for m in TAIL_REF.finditer(t.text)] if "=" in t.text else []  # … = A + B to that: which table, no operand
    spans += [m.span() for m in NO_JOIN.finditer(t.text)]  # no join / don't filter / 不用关联: an operation said not to be done is none
    spans += [m.span() for m in FOR_A_REPORT.finditer(t.text)]  # for the monthly fleet report / 周报用: whom it is for, no period
    spans += [m.span() for m in SAME_AGAIN.finditer(t.text)]  # same for all depots / 同样的，换华南: what it repeats is the request before
    spans += [m.span() for m in FIGURE_PRONOUN.finditer(t.text)]  # 那个数大于1的: the figure just made, compared (never a column 那个数)
    rd = lx.ROUNDED_TO.search(t.text) if lx.ADD_COLUMN.search(t.text) or "=" in t.text else None
    if rd is not None:  # 加一列…，保留两位小数 / …, rounded to 2 dp: how the new column is rounded (never columns kept)
        t.rounded = lx.rounded_digits(rd)
        spans.append(rd.span())
    elif (rn := _round_said(t.text)) is not None:  # …，保留整数 / round to 2 decimals: the numbers of the result rounded
        t.round_digits, t.round_span, t.round_obj = rn
        a, b = rn[1]
        spans += [(a, rn[2][0]), (rn[2][1], b)] if rn[2] is not None else [rn[1]]  # (round liters to …: liters stays a column)
    if PIVOT_WORD.search(t.text):  # values = sum of X: a role; the pivot cells should be the median: what the values are
        spans += [m.span("eq" if m.group("eq") else "eq2") for m in LAYOUT_ROLE_EQ.finditer(t.text)] + [m.span() for m in PIVOT_CELLS.finditer(t.text)]
    spans += [m.span() for m in BLANK_OWN_GROUP.finditer(t.text)]  # 渠道是空的那些也单独列一行: the blanks a group of their own, no filter
    spans += [m.span(1) for m in EACH_TAKES.finditer(t.text)]  # 每个季度各取…最长的3单: 各 of the verb (each takes), never a key said
    if not find_values(t.text, t.sheet, []):  # 按渠道分，渠道是空的也算 (no value said, so no condition the blanks join): no filter
        spans += [m.span() for m in BLANK_TOO.finditer(t.text)]
    t.text = _flag_versus(_counts_said(_blank(t.text, spans), t.sheet, t.rewritten), t.sheet, spans)
    t.text = _blank_before_column(t.text, t.sheet)
    t.text = _ranked_participle(t.text, t.sheet, t.rewritten)
    found = find_columns(t.text, t.sheet)
    found = [h for h in found if not statistic_of_next(t.text, h, found, t.sheet)]  # total Qty per Clerk, beside a column called Total: Qty's total
    t.hits = _summary_figure_hits(t, found)
    t.hits = sorted(t.hits + _ranked_noun_hits(t) + _money_verb_hits(t), key=lambda h: h.start)
    rows_noun = _row_noun_en(t.sheet)
    if rows_noun is not None:  # how many rentals per branch, over Rental ID and Rental Days: the rows, never a column of days
        t.hits = [h for h in t.hits if not (h.how == "partial" and t.text[h.start : h.end].casefold() in (rows_noun, rows_noun + "s"))]
    for m in VALUE_NOT.finditer(t.text):  # 值不要金额，改成数有几单: the value said not to be the figure is read, never a condition
        h = next((h for h in t.hits if h.start == m.end()), None)
        if h is not None:
            t.spans.append((m.start(), h.end))
            t.hits = [x for x in t.hits if x is not h]
    t.out.typos += [t.text[h.start : h.end] for h in t.hits if h.how == "typo"]  # price_per_litre: read as price_per_liter, said so
    t.out.hits = len(t.hits)


VALUE_NOT = lazy(r"(?:值|数值)\s*(?:不要|不用|别用|不是|别)\s*(?:用)?\s*")
BLANK_OWN_GROUP = lazy(r"(?:[\u4e00-\u9fffA-Za-z_]{1,10}?\s*(?:是|为)?)?空(?:白|值)?的?(?:那些|那几条|那几行|那部分|的行)?\s*也?\s*(?:单独|另外|分开)?\s*"
                      r"(?:列|算|放|作为|当|显示)(?:成|为)?\s*(?:一行|一组|一类)"

                      r"|(?<![a-z_])(?:keep|show|list|with)?\s*(?:the\s+)?(?:blank|empty|missing)s?(?:\s+ones)?\s+(?:as|in)\s+(?:their|its|a)\s+(?:own|separate)\s+(?:row|group)(?![a-z_])", re.I)


EACH_TAKES = lazy(r"(各)(?:自)?\s*(?:取|选|挑|拿|找|留|保留|列)(?!出来?的)")
BLANK_TOO = lazy(r"(?:[\u4e00-\u9fffA-Za-z_]{1,10}?\s*(?:是|为))?空(?:白|值)?的?(?:那些|那几条|那几行|那部分)?\s*也\s*(?:算|要|算上|算进去|保留|留着|统计)(?:进去|在内)?")


REPORT_ZH = r"(?:每周的?|每月的?|每季度的?|每年的?|月度|季度|年度)?(?:月报|周报|季报|年报|日报|月度报告|月度汇报|周会|月会|例会|季度汇报|年终汇报)"
# for the monthly fleet report / 月报要用: the document the result goes into, whose period is no bucket of the request
FOR_A_REPORT = lazy(r"(?<![a-z_])for\s+(?:the|our|my|a|this|next)\s+(?:monthly|weekly|quarterly|annual|yearly|daily|end[- ]of[- ](?:month|year))\s+"
                    r"(?:[a-z]+\s+){0,2}?(?:report|rep|meeting|review|deck|update|newsletter|summary|call|stand-?up|briefing|board pack)s?(?![a-z_])"
                    # 给月报用 / 每周例会要用 / 做周报: a report said with the verb that puts the result in it (never 每个月报案)
                    r"|(?:(?:给|做|写|用于|用在|放到|放进|放在|交)\s*" + REPORT_ZH + r"(?:用|里|上|要用)?|" + REPORT_ZH + r"(?:要用|用|里用|上用))(?![\u4e00-\u9fff])", re.I)


# the three lowest-scoring / top-rated / highest-priced: a superlative joined to a participle whose noun names a column
RANKED_PARTICIPLE = lazy(r"(?<![a-z_])(?:highest|lowest|top|best|worst|bottom|most|least)[- ](?P<p>scoring|scored|rated|priced|earning|grossing)(?![a-z_])", re.I)
PARTICIPLE_NOUN = {"scoring": ("score", "scores"), "scored": ("score", "scores"), "rated": ("rating", "rate"), "priced": ("price",),
                   "earning": ("earnings", "revenue"), "grossing": ("gross", "revenue")}  # (highest-paid / best-selling: read by their own rules)


def _ranked_participle(text: str, sheet: SheetInfo, rewritten: list[tuple[int, int]]) -> str:
    """lowest-scoring over a column score: the superlative said of that column (lowest score), the participle written as
    the noun in its place (the same length), its span kept as read."""
    for m in RANKED_PARTICIPLE.finditer(text):
        word = m.group("p").casefold()
        noun = next((n for n in PARTICIPLE_NOUN.get(word, ()) if resolve_column(n, sheet, closest=False)[1] in ("exact", "synonym")), None)
        if noun is None or len(noun) + 1 > len(word) + 1:
            continue
        a = m.start("p") - 1
        text = text[:a] + (" " + noun).ljust(len(word) + 1) + text[m.end("p"):]
        rewritten.append((a, m.end("p")))
    return text


def _blank_before_column(text: str, sheet: SheetInfo) -> str:
    """不要空渠道: blank said before a column's name after an exclusion, written after it (渠道空), where the conditions read it."""
    if "空" not in text:
        return text
    for c in sorted((c for c in sheet.columns if len(c) >= 2 and CJK.match(c)), key=len, reverse=True):  # (有几个空的电话 asks, never this)
        text = re.sub("(?<=不要|去掉|排除|剔除|不含|除了|不算)空(白)?(的)?" + re.escape(c), _after_column(c), text)
    return text


def _after_column(c: str) -> Callable[[re.Match[str]], str]:
    def swap(m: re.Match[str]) -> str:
        return c + "空" + (m.group(1) or "") + (m.group(2) or "")
    return swap


# 平均每单赔多少 / 平均每笔卖了多少钱: the average of what each row paid or took, said by the verb of money (a total
# said so is the money question's: 一共花了多少钱)
MONEY_VERB_ASKED = lazy(r"(?:平均)\s*(?P<v>(?:每(?:一)?(?:单|笔|次|张|个订单)\s*)?(?:赔|卖|花|收|挣|赚|付|交|缴)(?:了|掉|付)?\s*(?:多少|几)(?:钱)?)")


def _money_verb_hits(t: _Turn) -> list[ColumnHit]:
    """The table's one money column, said by its verb (赔多少 over 赔付金额) where no numeric column is named."""
    m = MONEY_VERB_ASKED.search(t.text)
    if m is None or any(h.column in t.sheet.numeric for h in t.hits) or (col := _money_column(t.sheet)) is None:
        return []
    return [ColumnHit(m.start("v"), m.end(), col, "partial")]


def _ranked_noun_hits(t: _Turn) -> list[ColumnHit]:
    """top 3 riders by total fare, beside a rider_id column: the noun of the things ranked by a total names the one
    column of text it is the head of, whose values repeat (each rider's rows totalled) — that column, said."""
    said = RANKED_NOUN.search(t.text)
    if said is None or not said.group("w") or not TOTAL_RANK.search(t.text) or any(h.start <= said.start("w") < h.end for h in t.hits):
        return []
    col, how, _ = resolve_column(said.group("w"), t.sheet, closest=False)
    vals = t.sheet.values.get(col) if col is not None else None
    if col is None or how != "partial" or col in t.sheet.numeric or col in t.sheet.dates or not vals or t.sheet.rows <= len(vals):
        return []
    end = said.end("w") + (1 if t.text[said.end("w") : said.end("w") + 1].casefold() == "s" else 0)
    return [ColumnHit(said.start("w"), end, col, "partial")]


def _rule_versus_overall(t: _Turn) -> None:
    """各部门平均月薪…高于公司平均的 / how does each compare to the overall average: in a grouping, each group's
    figure beside the whole table's; the words are read here, never as a comparison of files or a filter."""
    if not (BY_WORD.search(t.text) and lx.GROUP.search(t.text)):
        return
    spans = [m.span() for m in lx.VERSUS_OVERALL.finditer(t.text) if m.group(0).strip()]
    if spans:  # 与整体平均比较 / compare each … with the overall average: the comparison word is read here too
        spans += [m.span() for m in lx.EXPLORE_COMPARE.finditer(t.text)]
        t.versus_overall = True
        t.spans.extend(spans)
        t.text = _blank(t.text, spans)


def _rule_worded(t: _Turn) -> None:
    """Operations asked for by their own words (registered OpSpecs with a lexicon): they own those words."""
    t.worded = opspec.read_worded(t.text, t.hits, t.sheet)
    if lx.DEDUPE.search(t.text) or lx.ONE_ROW_EACH.search(t.text):  # dedupe, keep the one with the highest Amount: which duplicate stays
        kept = [x.span() for x in _keep_which().finditer(t.text)]
        t.worded = [w for w in t.worded if not (w.kind == "top_n" and any(a <= w.start < b for a, b in kept))]
    for w in t.worded:
        totalled = _totalled_per_group(t, w) if w.kind == "top_per_group" else None
        if totalled is not None:  # top 3 donors in each region by total amount: each donor's total, ranked in each region
            t.add(w.start, totalled[0])
            t.add(w.start + 1, totalled[1])
        else:
            t.add(w.start, Op(w.kind, w.args))
        t.spans.extend(w.spans)
    t.text = _blank(t.text, [s for w in t.worded for s in w.spans])  # words an operation read are not read again


def _totalled_per_group(t: _Turn, w: opspec.Found) -> tuple[Op, Op] | None:
    """top 3 donors in each region by total amount / 每个区域总金额最高的3个客户: the thing ranked (a text column whose
    values repeat, named in the request) is totalled within each group first, then ranked there — never single rows."""
    a = w.args
    if not a.get("by") or not a.get("column") or not TOTAL_RANK.search(t.text):
        return None
    sheet = t.sheet
    cols = {h.column for h in t.hits}
    said = RANKED_NOUN.search(t.text)  # top 3 donors / 最高的3个客户: the word for what is ranked, a part of a column's name
    if said is not None:
        col, how, _ = resolve_column(said.group("w") or said.group("w2"), sheet, closest=False)
        cols |= {col} if col is not None and how in ("exact", "partial", "synonym") else set()
    named = {c for c in cols if c not in sheet.numeric and c not in sheet.dates and c not in a["by"]
             and (vals := sheet.values.get(c)) and sheet.rows > len(vals)}
    if len(named) != 1:
        return None
    thing = next(iter(named))
    return (Op("group", {"keys": [*a["by"], thing], "measures": [{"column": a["column"], "agg": "sum"}]}),
            Op("top_n", {"n": a["n"], "by": None, "ascending": bool(a.get("ascending")), "within": list(a["by"])}))


RANKED_NOUN = lazy(r"(?<![a-z_])(?:top|bottom|highest|lowest|biggest|largest)\s+(?:\d+|one|two|three|four|five|ten)\s+(?P<w>[a-z_]+?)s?(?![a-z_])"
                   r"|(?:最高|最低|最多|最大)的?\s*(?:\d+|[一二两三四五六七八九十]+)\s*(?:个|位|家|名)\s*(?P<w2>[\u4e00-\u9fff]{1,6})", re.I | re.A)
TOTAL_RANK = lazy(r"(?<![a-z_])(?:total|sum of|combined|summed)(?![a-z_])|总(?:金额|额|数|量|销售额|和)|合计", re.I | re.A)


def _all_outside_names(rx: Any, t: _Turn) -> list[re.Match[str]]:
    """The matches of an operation's word that are not part of a longer column name the text says (异常 in 按异常类型
    统计, 对比 in 对比组, Join in Join Date): a column named with the word is that column, never the operation."""
    return [m for m in rx.finditer(t.text)
            if not any(h.start <= m.start() and m.end() <= h.end and h.end - h.start > m.end() - m.start() for h in t.hits)]


def _outside_names(rx: Any, t: _Turn) -> re.Match[str] | None:
    """The first of _all_outside_names."""
    return next(iter(_all_outside_names(rx, t)), None)


def _compares_groups(t: _Turn) -> bool:
    """按部门比较月薪 / 比较各部门的平均月薪 / compare average revenue by segment: one table's groups compared
    with each other, when no second table is named."""
    if t.flags.get("two_tables") or not lx.GROUP.search(t.text) and not re.search(r"比较|对比|比一下|比一比|比比|compare", t.text, re.I):
        return False
    return any(_col_after(t.text, b.end(), t.hits, t.sheet)[0] for b in BY_WORD.finditer(t.text))


def _rule_compare(t: _Turn) -> None:
    m = _outside_names(lx.EXPLORE_COMPARE, t)
    if m is not None and t.has("stat_test") and not t.flags.get("two_tables"):
        t.spans.append(m.span())  # 按来源渠道比较看房次数的差异，做方差分析: the comparison is the test's, of one table
        return
    if m is not None and lx.columns_related(t.text) and any(h.end <= m.start() for h in t.hits) and any(h.start >= m.end() for h in t.hits):
        t.spans.append(m.span())  # Flagged vs FuelType, are they related?: two columns of one table, related by a test
        return
    if m and (_compares_groups(t) or t.flags.get("sheets_compared")):  # (三个店的金额合计对比: the sheets are the groups)
        t.compare_groups = True
        t.compare_end = m.end()
        t.spans.append(m.span())  # the groups are summarised side by side; the word is read
        t.text = _blank(t.text, [m.span()])
        return
    if m is None and t.flags.get("two_tables") and _all_outside_names(lx.EXPLORE_JOIN, t):
        return  # 跟药品目录对一下，加上生产厂家: two tables joined, never also compared
    if m is not None and t.flags.get("two_tables") and lx.GROUP.search(t.text, 0, m.start()) \
            and any(_col_after(t.text, b.end(), t.hits, t.sheet)[0] for b in BY_WORD.finditer(t.text, 0, m.start())):
        t.spans.append(m.span())  # 各品种的平均单价，和品种指导价对比一下: the summary is read; set beside the other table later
        return
    if m or t.flags.get("two_tables"):
        t.add(m.start() if m else 0, Op("compare", {"columns": [h.column for h in t.hits]}))
        t.spans.append(m.span() if m else (0, 0))


ROWS_NOUN = lazy(r"\s*(?:的)?\s*(?:记录|数据|行|单子|单据|订单|条目|(?<![a-z_])(?:records?|rows?|entries|orders?)(?![a-z_]))", re.I | re.A)


OUTLIER_VALUES = lazy(r"\s*(?:值|点|数据点|的值|的数值|(?<![a-z_])(?:values?|points?)(?![a-z_]))", re.I | re.A)


def _rule_outliers(t: _Turn) -> None:
    m = _outside_names(lx.EXPLORE_OUTLIER, t)
    if not m:
        return
    if m.group(0).casefold() in flag_words(t.sheet) and not OUTLIER_VALUES.match(t.text, m.end()):
        return  # 异常的不算 over 是否异常 (是/否): the rows that column says, never outliers (异常值 still asks for outliers)
    if ROWS_NOUN.match(t.text, m.end()) and re.search(r"的\s*$", t.text[: m.start()]):  # 数量是负数的异常记录: the condition says
        before = parse_conditions(t.text[: m.start()], t.sheet, [h for h in t.hits if h.end <= m.start()])  # what is abnormal
        if before.conds and all(c.column for c in before.conds) and max(b for _, b in before.spans) >= len(t.text[: m.start()].rstrip()) - 1:
            t.spans.append(m.span())
            return
    nums = [h.column for h in t.hits if h.column in t.sheet.numeric] or [h.column for h in t.hits]
    args: dict[str, Any] = {"column": nums[0] if nums else None}
    if not nums:
        raw = re.search(r"([\u4e00-\u9fff]{2,6}|[A-Za-z_]\w+)\s*(?:的)?\s*(?:明显)?(?:异常|离群)|outliers? in ([\w\u4e00-\u9fff]+)", t.text, re.I | re.A)
        if raw and (raw.group(1) or raw.group(2)):
            r = raw.group(1) or raw.group(2)
            col, how, closest = resolve_column(r, t.sheet)
            if col:
                args["column"] = col
            elif r.casefold() not in ("有没有", "有无", "any", "there", "找出"):
                args["unresolved"] = [_unres(r, closest)]
                t.unresolved()
    t.add(m.start(), Op("outliers", args))


def _rule_correlate(t: _Turn) -> None:
    m = _outside_names(lx.EXPLORE_RELATION, t)
    if m and not lx.EXPLORE_JOIN.search(t.text):
        if t.has("stat_test"):
            return  # 有没有关系，做个卡方检验: the test named is how the relation is answered
        measured = [h.column for h in t.hits if h.column in t.sheet.numeric or h.column in t.sheet.dates]
        cols = list(dict.fromkeys(measured if len(set(measured)) >= 2 else [h.column for h in t.hits]))
        if len(cols) >= 2 and not measured:  # 费用类型和收费员有没有关系: two columns of categories, related by the test of their counts
            t.add(m.start(), Op("stat_test", {"test": "chi", "columns": cols[:2]}))
            return
        t.add(m.start(), Op("correlate", {"columns": cols[:2]}))


KEY_CLAUSE = re.compile(r"[，,]\s*(?:(?:(?:matching|matched|keyed|linked)\s+)?(?:on|using|by)\s|按照?|通过|用)", re.I)
JOIN_CLAUSE_END = re.compile(r"[，,；;。、]|(?:然后|接着|之后|再)|(?<![a-z_])(?:then|and then)(?![a-z_])", re.I)


JOIN_ONLY = lazy(r"关联起来|关联|匹配|vlookup|带过来|拿过来|带进来|查过来|对上去|对过来|补上去|匹配上|对应?上|join|joined with|look ?up|bring over|bring in|pull in|add", re.I)


EACH_OF_ROWS = lazy(r"(?:for|in|of|within)\s+(?:each|every)|per|each|every|每个|每一个|各个|各", re.I)


def _rule_join(t: _Turn) -> None:
    words = _all_outside_names(lx.EXPLORE_JOIN, t)  # Join Date is a column, never a join
    named = [r.span() for r in lx.RESULT_REF.finditer(t.text)]  # 刚才关联出来的那个结果: the result named by the join that made it
    words = [w for w in words if not any(a <= w.start() < b for a, b in named)]
    m = words[0] if words else None
    if m is None and t.flags.get("two_tables") and (am := lx.JOIN_ANTI.search(t.text)) is not None:
        m = am  # drivers whose name does not appear in deliveries.xlsx: the first table's rows with no match in the second
        t.found = [(i, o) for i, o in t.found if o.kind != "compare"]
        t.spans.append(am.span())
    if m and t.flags.get("stacked"):  # the sheets of a split table are stacked, never joined; another file named may be
        m = next((x for x in words if JOIN_ONLY.fullmatch(x.group(0))), None) if t.flags.get("two_tables") else None
    if not m:
        return
    on = None
    # the key is said in a join's own clause (按客户ID关联 / join on id); a 按 of a later clause (合并、去重、按销售员汇总) groups.
    # Every join word's clause is read: the key may be said in a later one (…, join on agent: an answer joined to the request)
    for jm in words:
        lo = max((x.end() for x in JOIN_CLAUSE_END.finditer(t.text, 0, jm.start())), default=0)
        hi = next((x.start() for x in JOIN_CLAUSE_END.finditer(t.text, jm.end())), len(t.text))
        if KEY_CLAUSE.match(t.text, hi):  # join a with b, using priority / 合并两个表，通过客户ID: the key's own clause goes with it
            hi = next((x.start() for x in JOIN_CLAUSE_END.finditer(t.text, hi + 1)), len(t.text))
        for b in list(BY_WORD.finditer(t.text)) + list(re.finditer(r"(?<![a-z_])(?:(?:matching|matched|keyed|linked)\s+)?(?:on|using)\s+|(?:通过|用)\s*", t.text, re.I | re.A)):
            if not lo <= b.start() < hi or EACH_OF_ROWS.fullmatch(b.group(0).strip()):
                continue  # (so I can see the company for each ticket: the rows the result shows, never the key)
            col, _raw, _how, _closest, end = _col_after(t.text, b.end(), t.hits, t.sheet)
            if col:
                on = col
                t.spans.append((b.start(), end))  # the key's words are the join's
    if on is None and m is not None and lx.JOIN_ANTI.match(t.text, m.start()):  # whose Bike ID does not appear in …: that column is the key
        said = [h for h in t.hits if h.end <= m.start() and re.fullmatch(r"\s*(?:value\s+|values\s+)?", t.text[h.end : m.start()], re.I)]
        if said:
            on = said[-1].column
            t.spans.append((said[-1].start, said[-1].end))
    how = next((kind for kind, rxp in lx.JOIN_HOW if rxp.search(t.text)), None)  # 内连接 / full join: the kind of join said
    t.add(m.start(), Op("join", {"on": on, **({"how": how} if how else {})}))


def _settle_explore(t: _Turn) -> None:
    # a formula column owns only its own clause: what follows it (…, then total Net Rev by Agent) is read by the rules
    t.explore = bool(t.found) and not (all(o.kind == "formula" for _, o in t.found) and (lx.NEXT_STEP.search(t.text) or AND_ORDER.search(t.text)))


RANK_ALL = lazy(r"(?:列|排|做|给)?个?排名|排个名|排一下名|排行榜?|全部排一下|都排一下|(?<![a-z_])(?:rank (?:them|all)|full ranking|ranking of all)(?![a-z_])", re.I | re.A)
KIND_NAME = lazy(r"类别|类型|种类|分类|品类|类目|类$")


def _kind_column(said: str, word: str, sheet: SheetInfo) -> tuple[str, str, list[str]] | None:
    """哪类报修最多: asked by kind, the one column of kinds whose name holds the word (报修类别), or the only column of kinds."""
    if not re.match(r"哪\s*(?:一)?\s*(?:类|种)", said) or not word:
        return None
    kinds = [c for c in sheet.columns if c not in sheet.numeric and c not in sheet.dates and KIND_NAME.search(c)]
    named = [c for c in kinds if word in c]
    pick = named if named else kinds if not any(word in c for c in sheet.columns) else []
    return (pick[0], "partial", []) if len(pick) == 1 else None


def _which_top_words(t: _Turn, m: re.Match[str]) -> tuple[str, str]:
    """The key and measure words of 哪个城市金额最高 / which city has the highest amount."""
    text, hits = t.text, t.hits
    xr, yr = (m.group("x"), m.group("y")) if m.group("x") else (m.group("x2"), m.group("y2") or "")
    inside = [h for h in hits if m.group("x") and m.start("x") <= h.start < m.start("d")]
    if inside and inside[0].start == m.start("x"):
        xr = inside[0].column
        later = inside[1:]
        yr = later[0].column if later else re.sub(r"^的", "", text[inside[0].end : m.start("d")].strip())
    elif inside:  # 哪个班英语平均分: the key is the word before the first column named
        xr, yr = re.sub(r"的$", "", text[m.start("x") : inside[0].start].strip()), inside[0].column
    elif m.group("x"):
        xr, yr = _split_key(m.group("x") + m.group("y"), t.sheet)
    return xr, yr


def _unnamed_measure(sheet: SheetInfo, key: str | None, word: str) -> tuple[str | None, list[dict[str, Any]]]:
    """The measure of 哪个月最高 when none is named: the one numeric column, else a question naming the candidates."""
    nums = [c for c in sheet.columns if c in sheet.numeric and c != key]
    if len(nums) == 1:
        return nums[0], []
    figure = _summary_figure(sheet, key)  # a summary's one measure beside its row count (金额_合计, 行数): that measure
    if figure is not None:
        return figure, []
    return None, [_unres(word, nums, slot="measure")] if nums else []


def _periods_only(t: _Turn) -> bool:
    """Whether the operations read so far are only a summary per period (按月汇总金额): an order or a top-N ranks its periods."""
    return bool(t.found) and all(o.kind == "bucket" for _, o in t.found)


PERIOD_X = {"月": "month", "个月": "month", "月份": "month", "天": "day", "日": "day", "一天": "day", "周": "week", "星期": "weekday", "季度": "quarter",
            "年": "year", "年份": "year", "month": "month", "day": "day", "date": "day", "week": "week", "weekday": "weekday", "quarter": "quarter", "year": "year"}


def _period_ranked(t: _Turn, m: re.Match[str], xr: str, yr: str, d: str) -> bool:
    """哪个月金额最高 / 哪天的单最多 / which day had the most visits: the periods of the one date column, summed and ranked."""
    unit = PERIOD_X.get(xr.strip().casefold())
    dated = [c for c in t.sheet.columns if c in t.sheet.dates]
    if unit is None or len(dated) != 1:
        return False
    y = yr.strip()
    mcol, how, _ = resolve_column(y, t.sheet, numeric=True) if y and not COUNT_NOUN.fullmatch(y) else (None, "none", [])
    mcol = None if mcol in t.sheet.dates else mcol  # the most sales, over SaleDate: the rows counted, never dates summed
    if mcol is None and y and MONEY_NOUN.fullmatch(re.sub(r"^的|的$", "", y)):
        mcol = _money_column(t.sheet)  # 哪个月生意最差 / which month made the least money: the money column's total
    counted = not y or COUNT_NOUN.fullmatch(y) is not None or (mcol is None and re.match(r"最多|最少|most|fewest|least", d, re.I | re.A) is not None)
    if mcol is None and not counted:
        return False
    agg = "mean" if re.search(r"平均|(?<![a-z_])(?:average|mean)(?![a-z_])", t.text, re.I | re.A) else "sum"
    args: dict[str, Any] = {"unit": unit, "column": dated[0], "agg": "count" if counted or mcol is None else agg}
    if mcol is not None and not counted:
        args["value"] = mcol
    low = bool(lx.LOW_END.match(d))
    more = lx.TOP_N.search(t.text, m.end())
    n = int(parse_number(next(g for g in more.groups() if g)) or 1) if more is not None and any(more.groups()) else 1
    inner = re.search(r"哪\s*(\d+|[两三四五六七八九十]+)\s*(?:个|家|位)?|(?<![a-z_])which\s+(\d+|two|three|four|five|six|seven|eight|nine|ten)(?![a-z_])", m.group(0), re.I)
    if inner is not None:  # 哪3天卖得最多 / which 3 days: that many periods
        said = inner.group(1) or inner.group(2)
        n = int(parse_number(said) or 0) or {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}.get(said.casefold(), 1)
    t.add(m.start(), Op("bucket", args))
    t.add(m.start() + 1, Op("top_n", {"n": n, "by": None, "ascending": low, "question": True, "direction_said": True}))
    t.spans += [m.span(), *([more.span()] if more is not None else [])]
    t.explore = True
    return True


def _period_of_summary_ranked(t: _Turn, m: re.Match[str]) -> None:
    """按周汇总运费，看哪周最高 / 按月统计单数，哪个月最多: the periods of the summary said, ranked, and the first given."""
    said_x = m.group("x") if m.group("x") else m.group("x2")
    unit = PERIOD_X.get(re.sub(r"的$", "", (said_x or "").strip()).casefold())
    if unit is None and m.group(0).startswith(("哪天", "哪周", "哪年")):
        unit = PERIOD_X.get(m.group(0)[1])
    buckets = [o for _, o in t.found if o.kind == "bucket"]
    y = (m.group("y") or "").strip() if m.group("x") else ""
    if unit is None or len(buckets) != 1 or buckets[0].args.get("unit") != unit or (y and not COUNT_NOUN.fullmatch(y)
                                                                                    and resolve_column(y, t.sheet)[0] != buckets[0].args.get("value")):
        return
    d = m.group("d") or m.group("d2") or ""
    low = bool(lx.LOW_END.match(d))
    n = int(parse_number(m.group("wn")) or 1) if m.group("wn") else 1
    t.add(m.start() + 1, Op("top_n", {"n": n, "by": None, "ascending": low, "question": True, "direction_said": True}))
    t.spans.append(m.span())


PER_KEY_SAID = lazy(r"(?:(?<![a-z_])(?:per|by|for each|for every|in each)\s+(?:the\s+)?|每个|各个?|按)(?P<k>[A-Za-z_][\w ]{0,20}?|[\u4e00-\u9fff]{1,6}?)(?=\s*(?:[,，;；]|的|$|\s+(?:and|in|from|of)(?![a-z_])))", re.I | re.A)


# the verb of selling said alone as what is most (卖得最多 / 销量… is a column): how much was sold
SOLD_ONLY = lazy(r"(?:卖|销|售|销售|卖出去?)(?:得|的|了|出去?)?|(?<![a-z_])(?:sold|sells?|selling)(?![a-z_])", re.I | re.A)


def _sold_column(sheet: SheetInfo, most: bool) -> str | None:
    """What "sold the most" adds up: the units sold (sold the most / 卖得最多), else the money; the money first when
    the best is asked (卖得最好)."""
    by_concept = {lx.concept_of(c): c for c in sheet.columns if c in sheet.numeric}
    named = [c for c in sheet.columns if c in sheet.numeric and MONEY_NAME.fullmatch(c)]
    qty, money = _quantity_column(sheet), by_concept.get("amount") or (named[0] if len(named) == 1 else None)  # (never a cost)
    return (qty or money) if most else (money or qty)


# the best-selling items / top 3 best sellers / 最畅销的5个商品 / 卖得最好的商品: what is ranked, by how much of it was sold
BEST_SELLING = lazy(r"(?:(?:top|first)\s+(?P<n>\d+)\s+)?(?:the\s+)?(?:best|top|most)[- ]?sell(?:ing|ers?)\s+(?P<k>[a-z_][\w ]{0,20}?)(?=\s*$|\s*[,.;?!]|\s+(?:in|on|at|from|of|for|this|last|and)(?![a-z_]))"
                    r"|(?:最畅销|卖得最好|卖的最好)的?\s*(?P<zn>\d+|[一二两三四五六七八九十]+)?\s*(?:个|款|种|位|名|家)?\s*(?P<zk>[\u4e00-\u9fff]{1,6}?)\s*(?=$|[，,。？?]|是|有|分别)", re.I | re.A)


def _rule_best_selling(t: _Turn) -> None:
    """最畅销的5个商品 / the best-selling item: each one's units sold (else its money) added up, the first N of that ranking."""
    m = BEST_SELLING.search(t.text)
    if m is None or t.explore or t.found:
        return
    word = m.group("k") or m.group("zk")
    col, how, _ = resolve_column(word.strip(), t.sheet, closest=False)
    vals = t.sheet.values.get(col) if col else None
    sold = _sold_column(t.sheet, most="卖" not in m.group(0))  # best-selling / 畅销: the units; 卖得最好: the money
    if col is None or col in t.sheet.numeric or col in t.sheet.dates or not vals or t.sheet.rows <= len(vals) or sold is None:
        return  # (the best-selling order: a row ranked, left to the row rules)
    n_raw = m.group("n") or m.group("zn")
    plural = bool(m.group("k")) and word.strip().casefold().endswith("s") and not col.casefold().endswith("s")
    t.add(m.start(), Op("group", {"keys": [col], "measures": [{"column": sold, "agg": "sum"}], "question": True}))
    if n_raw or not plural:
        t.add(m.start() + 1, Op("top_n", {"n": int(parse_number(n_raw) or 1) if n_raw else 1, "by": None, "ascending": False, "question": True}))
    else:
        t.add(m.start() + 1, Op("sort", {"by": [], "ascending": False, "direction_said": True}))
    t.spans.append(m.span())
    t.explore = True


# 借书最多的前10位读者 / 借阅次数最多的前5本书: the key said after the cut, ranked by how many rows each has
MOST_COUNTED = lazy(r"(?P<v>[\u4e00-\u9fff]{1,6}?)最多的\s*(?:那)?\s*前?\s*(?P<n>\d+|[一二两三四五六七八九十]+)\s*(?:个|位|名|本|家|件|款|种|辆|台)\s*(?P<k>[\u4e00-\u9fff]{1,6}?)(?=[，,。；;？?\s]|是|有|$)")


MONEY_OR_GOODS = lazy(r"钱|额|收入|营收|利润|卖|销|花|付|缴|赚|挣|件|金")


def _rule_most_counted(t: _Turn) -> None:
    """借书最多的前10位读者 / 借阅次数最多的前5本书: the rows of each value of the key said (读者 → 读者证号) counted,
    the first N by that count; never when the words before 最多 name a figure of the table (金额最多的前5个门店)."""
    m = MOST_COUNTED.search(t.text)
    if m is None or t.explore or t.found or any(h.column in t.sheet.numeric and m.start("v") <= h.start < m.end("v") for h in t.hits) \
            or MONEY_OR_GOODS.search(m.group("v")) or any(b.start() < m.start() for b in BY_WORD.finditer(t.text)):
        return  # (收的钱最多的1个收费员: the money each took; 每个城市…最多的2个客户: the first N within each group, by their own rules)
    col, how, _ = resolve_column(m.group("k"), t.sheet, closest=False)
    vals = t.sheet.values.get(col) if col else None
    if col is None or how not in ("exact", "synonym", "partial") or col in t.sheet.numeric or col in t.sheet.dates \
            or vals and t.sheet.rows <= len(vals):
        return  # (a key whose every value is one row: no ranking of counts; ids too many to sample are ranked)
    t.add(m.start(), Op("group", {"keys": [col], "measures": [{"agg": "count"}], "question": True}))
    t.add(m.start() + 1, Op("top_n", {"n": int(parse_number(m.group("n")) or 1), "by": None, "ascending": False, "question": True}))
    t.spans.append(m.span())
    t.explore = True


PER_ROW_FIGURES = frozenset({"rating", "price", "age"})  # figures of one row each, never added up across rows


def _rule_which_top(t: _Turn) -> None:
    """Questions about the data: 哪个城市金额最高？ which city has the highest amount?"""
    m = WHICH_TOP.search(t.text)
    if m and t.explore and _periods_only(t):
        _period_of_summary_ranked(t, m)
    if not m or t.explore:
        return
    text, hits, sheet = t.text, t.hits, t.sheet
    d = m.group("d") or m.group("d2") or ""
    d = BUSY_WORDS.get(d.casefold(), d)  # which route is busiest / 哪个网点最忙: the most rows
    said_x, said_y = (m.group("x"), m.group("y") or "") if m.group("x") else (m.group("x2"), m.group("y2") or "")
    if _period_ranked(t, m, re.sub(r"的$", "", said_x.strip()), re.sub(r"^的", "", said_y.strip()), d):
        return
    xr, yr = _which_top_words(t, m)
    if m.group("y2") and (done := UNITS_DONE.match(text.casefold(), m.start("y2"))) is not None:
        yr = text[done.start() : done.end()]  # the most units ordered: the quantity of that event, never Unit Cost
    kcol, _, kclose = _kind_column(m.group(0), xr, sheet) or resolve_column(xr, sheet)
    if m.group("wn3") and (kcol is None or kcol in sheet.numeric):
        return  # the 10 jobs with the highest value: rows ranked (the cut's rule), never groups of a key named jobs
    inside_y = [h for h in hits if m.group("x") and h.column != kcol and m.start("x") <= h.start < m.start("d") and h.column in sheet.numeric]
    if inside_y:
        yr = inside_y[0].column
    said_y = yr
    mcol: str | None = None
    sold = bool(m.group("sv")) or bool(yr and SOLD_ONLY.fullmatch(yr.strip()))  # 哪个商品卖得最多 / which item sold the most
    if sold and (not yr or re.fullmatch(r"(?:at|in|on|from|of|for|during|this|last|to|among)", yr.strip(), re.I) or resolve_column(yr, sheet, closest=False)[0] is None):
        mcol = _sold_column(sheet, most=re.match(r"最多|最少|most|fewest|least", d, re.I | re.A) is not None)
        yr = "" if mcol else yr
    counted = bool(yr and COUNT_NOUN.fullmatch(yr.strip()) and yr.strip() not in sheet.numeric)  # 哪个部门人最多: count the rows
    noun = None
    if yr and MONEY_NOUN.search(yr) and resolve_column(yr, sheet)[0] is None and (money := _money_column(sheet)) is not None:
        yr = money  # 哪个营业员卖的钱最多: the money column summed, never the rows counted
    if yr and re.match(r"最多|最少|most|fewest|least", d, re.I | re.A) and resolve_column(yr, sheet)[0] is None:
        counted = True  # 哪个仓库商品最多: the most rows
        noun = re.sub(r"^[\u4e00-\u9fff]{0,3}的", "", yr.strip()).strip() or None  # (卖的处方药: 处方药)
        noun = None if noun is None or COUNT_NOUN.fullmatch(noun) else noun  # (卖的处方药最多: the gate asks whether the word is data elsewhere)
    yr = "" if counted else yr
    mcol, _, mclose = resolve_column(yr, sheet, numeric=True) if yr else (mcol if sold else None, "none", [])
    if mcol is not None and mcol not in sheet.numeric and (mcol in sheet.dates or re.match(r"最多|最少|most|fewest|least", d, re.I | re.A)
                                                           and flag_yes(sheet, mcol) is None):  # (延误最多: the yes rows, counted by their own rule)
        mcol = None  # which clerk has the fewest sales, beside a Sale Date column (哪个车型工单号最多): never summed; the rows are counted
        counted = counted or re.match(r"最多|最少|most|fewest|least", d, re.I | re.A) is not None
        yr = "" if counted else yr
    text_figure: list[dict[str, Any]] = []
    if mcol is not None and mcol not in sheet.numeric and flag_yes(sheet, mcol) is None:  # 哪个车型工单号最高: no highest total of text
        text_figure = [_unres(mcol, [c for c in sheet.columns if c in sheet.numeric][:3], "measure")]
        mcol, yr = None, ""
    if mcol is None and re.search(r"卖|销|sold|sell|sales|revenue|赚", yr + d + text[m.end() : m.end() + 4], re.I | re.A):
        # "sells best": the amount column, else the quantity column
        by_concept = {lx.concept_of(c): c for c in sheet.columns if c in sheet.numeric}
        mcol = by_concept.get("amount") or by_concept.get("quantity")
        yr = "" if mcol else yr
    agg = "mean" if re.search(r"平均|(?<![a-z_])(?:average|mean)(?![a-z_])", text, re.I | re.A) else "sum"
    if mcol is not None and lx.concept_of(mcol) in PER_ROW_FIGURES and not re.search(r"总|合计|(?<![a-z_])(?:total|sum)(?![a-z_])", text, re.I | re.A):
        agg = "mean"  # which channel gets the best scores / 哪个科室评分最高: a score or a price is compared on average, never added up
    unnamed: list[dict[str, Any]] = []
    if mcol is None and not yr and not counted and not re.match(r"最多|最少|most|fewest|least", d, re.I | re.A):
        mcol, unnamed = _unnamed_measure(sheet, kcol, d)  # 哪个月最高: highest by what? never a count nobody asked for
    fig = _figure_of_each_row(sheet) if kcol and not mcol and not yr and sheet.rows and len(sheet.values.get(kcol, ())) == sheet.rows else None
    if fig is not None and fig != kcol:
        # which month was the busiest, on a count per month: each month is one row already, ranked by its figure (never
        # the rows counted again, one each)
        n = int(parse_number(m.group("wn") or m.group("wn2") or m.group("wn3") or "1") or 1)
        t.add(m.start(), Op("top_n", {"n": n, "by": fig, "ascending": bool(lx.LOW_END.match(d)), "question": True}))
        t.spans.append(m.span())
        t.explore = True
        return
    args: dict[str, Any] = {"keys": [kcol] if kcol else [], "measures": [{"column": mcol, "agg": agg}] if mcol else [{"agg": "count"}], "question": True}
    if noun and counted and not mcol:
        args["counted_noun"] = noun
    unres = ([_unres(xr, kclose)] if not kcol else []) + ([_unres(yr, mclose)] if yr and not mcol else []) + unnamed + text_figure
    if unres:
        args["unresolved"] = unres
        t.unresolved(len(unres))
    t.add(m.start(), Op("group", args))
    low = bool(lx.LOW_END.match(d))
    both = {"both": True} if lx.asks_both_ends(text) else {}  # 哪个最多，哪个最少: both ends are answered
    ranked = RANK_ALL.search(text, m.end())
    per = next((x for x in PER_KEY_SAID.finditer(text) if x.end() <= m.start() and kcol and resolve_column(x.group("k"), sheet, closest=False)[0] == kcol), None)
    if ranked is None and per is not None and not both:  # average Hourly Rate per Team, and which Team is highest: every team, highest first
        ranked = per
    if ranked is not None:  # 哪类报修最多，列个排名: every group, in that order (the first is the answer)
        t.add(m.start() + 1, Op("sort", {"by": [], "ascending": low, "direction_said": True}))
        t.spans.append(ranked.span())
    else:
        more = lx.TOP_N.search(text, m.end())  # 哪个销售员单最多？给我前3名: the first three of that ranking
        n = int(parse_number(next(g for g in more.groups() if g)) or 1) if more is not None and any(more.groups()) else 1
        if m.group("wn") or m.group("wn2") or m.group("wn3"):  # 哪3个司机延误最多 / which 5 crews did the most jobs: the first three (five)
            n = int(parse_number(m.group("wn") or m.group("wn2") or m.group("wn3")) or 1)
        t.add(m.start() + 1, Op("top_n", {"n": n, "by": None, "ascending": low, "question": True, **both}))
        if more is not None:
            t.spans.append(more.span())
    at = text.find(said_y, m.start()) if counted and said_y and find_values(said_y, sheet, []) else -1
    said_mod = re.match(r"([\u4e00-\u9fff]{2,6}?)的", said_y.strip()) if counted and said_y else None  # 没签收的单子
    if at < 0 and said_mod is not None and not re.fullmatch(r"[卖买做开送办跑接]", said_mod.group(1)[-1:]) and said_mod.group(1) not in ("卖的", "买的"):
        at, said_y = text.find(said_mod.group(1), m.start()), said_mod.group(1)  # 没签收的单子最多: the rows counted are chosen by it
    if at >= 0:  # which agent has the most Urgent tickets: Urgent chooses the rows counted, read by the filter rule
        t.spans += [(m.start(), at), (at + len(said_y), m.end())]
    else:
        t.spans.append(m.span())
    t.explore = True  # nothing else to read in this turn


def _rule_rename(t: _Turn) -> None:
    """Rename a column: 把工资改名为月薪, rename 工资 to salary."""
    m = RENAME.search(t.text) if RENAME_VERB.search(t.text) else None  # the verb first: the full pattern is slow on long text
    if not m or t.explore:
        return
    new_at = m.start("new") if m.group("new") else m.start("new2")
    old_hit = next((h for h in t.hits if h.end > m.start() and h.end <= new_at), None)  # 'Community Board'列: a name with a space
    new_name = (m.group("new") or m.group("new2") or "").strip().strip("\"'“”「」")
    if old_hit and new_name and new_name != old_hit.column:
        t.add(m.start(), Op("rename", {"mapping": {old_hit.column: new_name}}))
        t.spans += [m.span()] + [r.span() for r in RENAME_VERB.finditer(t.text)]  # 请问如何进行列名修改: the request said again


def _rule_drop_columns(t: _Turn) -> None:
    """Drop columns: 把电话列删掉."""
    m = DROP_COLS.search(t.text) if DROP_VERB.search(t.text) else None  # the verb first: the full pattern backtracks on long text
    if not m or t.explore:
        return
    lo, hi = (m.start("a"), m.end("a")) if m.group("a") else (m.start("b"), m.end("b"))
    drop = [h.column for h in t.hits if lo - 1 <= h.start and h.end <= hi + 1]
    if drop:
        keep = [c for c in t.sheet.columns if c not in drop]
        t.add(m.start(), Op("select", {"columns": keep, "dropped": drop}))
        t.spans.append(m.span())


ARITH_OPS = {"×": "*", "x": "*", "X": "*", "乘以": "*", "乘": "*", "÷": "/", "除以": "/", "除": "/", "加上": "+", "减去": "-", "减": "-", "加": "+"}


OPERATOR = lazy(r"\s*(?P<op>[+\-*/×÷]|乘以|除以|加上|减去|乘(?!客)|除(?!了|去|开)|加(?!一列|列|上一列)|减|(?<![a-z_])(?:minus|plus|times|divided by)(?![a-z_]))\s*", re.I | re.A)
ARITH_WORDS = {"minus": "-", "plus": "+", "times": "*", "divided by": "/"}


def _operands_named(t: _Turn, at: int, args: dict[str, Any]) -> bool:
    """column op column (or number) written right at `at`, the columns as the turn's column mentions: whether read."""
    first = next((h for h in t.hits if h.start == at or h.start > at and not t.text[at : h.start].strip(" [\"“'")), None)
    if first is None or (om := OPERATOR.match(t.text, first.end + (1 if t.text[first.end : first.end + 1] in "]\"”'" else 0))) is None:
        return False
    b0 = om.end() + (1 if t.text[om.end() : om.end() + 1] in "[\"“'" else 0)
    second = next((h for h in t.hits if h.start == b0), None)
    word = om.group("op").casefold()
    op = ARITH_WORDS.get(word) or ARITH_OPS.get(word, word)
    if second is not None:
        args.update(left=first.column, op=op, right={"column": second.column})
        return True
    num = re.match(r"\d[\d,]*(?:\.\d+)?", t.text[b0:])
    if num is not None and (v := parse_number(num.group(0))) is not None:
        args.update(left=first.column, op=op, right=tidy(v))
        return True
    return False


FORMULA_GLUE = lazy(r"\s*(?:再|然后|之后|接着)?\s*")


def _formula_in_words(t: _Turn, at: int) -> str | None:
    """标准单价乘以课时数再减去应收金额 / Amount times 1.2 minus Fee, written from `at`: the whole formula over the
    columns said ([标准单价] * [课时数] - [应收金额]), when it has two operators or more (one is read as left op right)."""
    out: list[str] = []
    i, ops, end = at, 0, len(t.text)
    while i < end:
        g = FORMULA_GLUE.match(t.text, i)
        i = g.end() if g else i
        if i >= end or t.text[i] in "，,。；;":
            break
        hit = next((h for h in t.hits if h.start == i), None)
        num = re.match(r"\d[\d,]*(?:\.\d+)?%?", t.text[i:])
        om = OPERATOR.match(t.text, i)
        if hit is not None:
            out.append(f"[{hit.column}]")
            i = hit.end
        elif num is not None:
            out.append(num.group(0).replace(",", ""))
            i += num.end()
        elif om is not None and om.end() > i:
            word = om.group("op").casefold()
            out.append(ARITH_WORDS.get(word) or ARITH_OPS.get(word, word))
            ops += 1
            i = om.end()
        elif t.text[i] in "()（）":
            out.append("(" if t.text[i] in "(（" else ")")
            i += 1
        else:
            return None  # a word that is no column, number or operator: never a formula guessed around it
    return " ".join(out) if ops >= 2 and out and out[-1] not in ARITH_OPS.values() else None


def _expression_after(t: _Turn, rest: str, args: dict[str, Any]) -> None:
    """=金额×1.13 written after the new column's name: left, op and right, or what could not be resolved."""
    expr_m = re.search(r"(?:=|等于|为|是|:|：|(?:^|[，,]\s*)(?:用|拿|由)|(?<![a-z_])(?:equal to|equals|which is|that is|defined as|calculated as|computed as)(?![a-z_]))\s*(.+)$", rest, re.I)  # 加一列签收天数，用签收日期减发货日期
    if expr_m and (whole := _formula_in_words(t, len(t.text) - len(rest) + expr_m.start(1))) is not None:
        args["formula"] = whole  # 等于标准单价乘以课时数再减去应收金额: every operator of it, in the order written
        return
    if expr_m and _operands_named(t, len(t.text) - len(rest) + expr_m.start(1), args):
        return  # Delivery Date - Pickup Date: names with spaces, read as the columns they name
    am = ARITH.match(expr_m.group(1)) if expr_m else None
    if not am:
        return
    op = ARITH_WORDS.get(am.group("op")) or ARITH_OPS.get(am.group("op"), am.group("op"))
    left, _, lclose = resolve_column(am.group("a"), t.sheet)
    bnum = parse_number(am.group("b"))
    right: Any = tidy(bnum) if bnum is not None else None
    rclose: list[str] = []
    if right is None:
        rcol, _, rclose = resolve_column(am.group("b"), t.sheet)
        right = {"column": rcol} if rcol else None
    args.update(left=left, op=op, right=right)
    anum = parse_number(am.group("a")) if left is None else None
    if anum is not None and isinstance(right, dict):  # 店龄 = 2024 - 开业年份: a number first is a formula's operand
        args.update(left=None, right=None, formula=f"{tidy(anum)} {op} [{right['column']}]")
        return
    if left is None:
        args["unresolved"] = [_unres(am.group("a"), lclose)]
        t.unresolved()
    elif right is None:
        args["unresolved"] = [_unres(am.group("b"), rclose)]
        t.unresolved()


def _expression_anywhere(t: _Turn, m: re.Match[str], args: dict[str, Any]) -> None:
    """A column times a number (or a column) written anywhere in the turn (Follow-up Date minus Visit Date, in brackets)."""
    for h in (h for h in t.hits if h.start >= m.end()):
        if _operands_named(t, h.start, args):
            return
    for am in ARITH_ANY.finditer(t.text):
        a_col, _, _ = resolve_column(am.group("a"), t.sheet)
        b_num = parse_number(am.group("b"))
        b_col = None if b_num is not None else resolve_column(am.group("b"), t.sheet)[0]
        if a_col and (b_num is not None or b_col):
            args.update(left=a_col, op=ARITH_OPS.get(am.group("op"), am.group("op")), right=tidy(b_num) if b_num is not None else {"column": b_col})
            if not args.get("name") or args["name"] in (am.group("a"), am.group("b")):
                after = re.match(r"\s*(?:叫做?|名为|名叫|called|named)?\s*[\"“「]?([\w\u4e00-\u9fff]+)", t.text[m.end() :])
                args["name"] = after.group(1) if after else None
            break


# 实收金额，就是学费加餐费…: a new column's name and the words that define it, said before the words that add it
DEFINED_BEFORE = lazy(r"(?:(?:算一下|算|计算|求|新的?)\s*)?(?P<name>(?!算|计算|求)[\u4e00-\u9fffA-Za-z_]{2,12}?)\s*[，,]?\s*(?:就是|即|等于|[=＝])\s*")
NOT_A_NAME = lazy(r"(?:to|for|in|on|of|into|that|which|showing|with|where|from|the|a|an|and)", re.I)
CALLED = lazy(r"(?<![a-z_])(?:called|named)\s+[\"“']?([A-Za-z\u4e00-\u9fff][\w\u4e00-\u9fff%]*)", re.I)


# 单价打九折 / 金额按八五折 / 打7.5折: a price at a discount, the column times the fraction the 折 names
DISCOUNT = lazy(r"(?:打|按|打个|按照)\s*(?P<n>[一二三四五六七八九]{1,2}|\d(?:\.\d|\d)?)\s*折(?![扣旧叠线算合])")


def discount_rate(said: str) -> float | None:
    """九 → 0.9, 八五 → 0.85, 7.5 → 0.75, 95 → 0.95: the fraction a 折 names (None for anything else)."""
    digits = "".join(str("零一二三四五六七八九".index(c)) if c in "零一二三四五六七八九" else c for c in said).replace(".", "")
    return float("0." + digits) if digits.isdigit() and digits[0] != "0" else None


def _discounted(t: _Turn, args: dict[str, Any], start: int) -> bool:
    """单价打九折: the column said before the discount (numeric, in the same clause) times its fraction, into args."""
    d = DISCOUNT.search(t.text, start)
    if d is None:
        return False
    lo = max((x.end() for x in CLAUSE_END.finditer(t.text, 0, d.start())), default=0)
    before = [h for h in t.hits if lo <= h.start and h.end <= d.start() and h.column in t.sheet.numeric]
    rate = discount_rate(d.group("n"))
    if not before or rate is None:
        return False
    col = before[-1].column
    args.update(left=col, op="*", right=rate)
    name = re.split(r"[，,；;\s]", str(args.get("name") or ""))[0]  # 加一列折后价，单价打九折: the name before the clause of the discount
    args["name"] = name if name and d.group(0) not in name and name not in t.sheet.columns else f"折后{col}"
    t.spans.append((before[-1].start, d.end()))
    return True


# 提成按实收的15%算 / 按实收金额的3%计提成: a figure that is a share of a column, computed per row (never 按 a key)
RATE_OF = lazy(r"(?:按|按照)\s*(?P<col>[\u4e00-\u9fffA-Za-z_ ]{1,12}?)\s*的\s*(?P<n>\d+(?:\.\d+)?)\s*[%％]\s*(?:来)?(?:算|计算|计|提|核算)?")
NAMED_BEFORE = lazy(r"(?P<w>(?:(?!的)[\u4e00-\u9fff]){2,6}?)\s*[，,]?\s*$")


def _rate_of(t: _Turn, r: re.Match[str]) -> None:
    """The column said in 按X的N%算 times N%, a new column named by the word said just before (提成), else X的N%."""
    col, how, _ = resolve_column(r.group("col").strip(), t.sheet, True, closest=False)
    if col is None or col not in t.sheet.numeric or how not in ("exact", "synonym", "partial"):
        return
    before = NAMED_BEFORE.search(t.text, 0, r.start())
    named = resolve_column(before.group("w"), t.sheet, closest=False)[0] if before is not None else None
    # (提成, no column of the table — or the new column itself, once a later reading knows its name)
    name = before.group("w") if before is not None and named in (None, before.group("w")) else None
    name = name or f"{col}的{r.group('n')}%"
    t.add(r.start(), Op("add_column", {"name": name, "left": col, "op": "*", "right": tidy(float(r.group("n")) / 100)}))
    t.rate_made = (name, col)
    t.spans.append(r.span())
    t.text = _blank(t.text, [r.span()])  # (按 of 按实收的15%算 is no key, no figure "by" a column: read here only)
    if before is not None and name == before.group("w"):
        t.spans.append(before.span("w"))


def _rule_add_column(t: _Turn) -> None:
    """Add a computed column: 加一列含税金额，=金额×1.13."""
    m = lx.ADD_COLUMN.search(t.text)
    if m is None and not t.has("formula"):  # 把单价打九折: the discounted price, a new column beside the old one
        made: dict[str, Any] = {}
        d = DISCOUNT.search(t.text)
        if d is not None and _discounted(t, made, 0):
            t.add(d.start(), Op("add_column", made))
        elif (r := RATE_OF.search(t.text)) is not None:
            _rate_of(t, r)
        return
    if not m or t.explore and not t.has("join") or t.has("formula"):  # a formula written out is that new column  # 合并后算执行率 = 实际/预算: a column computed on the joined table
        return
    rest = t.text[m.end() :]
    if not rest.strip(" ,，。.;；!！") and (defined := DEFINED_BEFORE.search(t.text, 0, m.start())) is not None \
            and (whole := _formula_in_words(t, defined.end())) is not None:
        # 算一下实收金额，就是学费加餐费减去减免金额，加一列: the column defined before the words that add it
        t.add(defined.start(), Op("formula", {"name": defined.group("name"), "expression": whole}))
        t.spans.append((defined.start(), len(t.text)))
        t.formula_spans.append(t.spans[-1])
        return
    nm = SPACED_NAME.match(rest) or re.match(r"\s*(?:叫做?|名为|名叫|called|named)?\s*[\"“「]?([^\s,，、；;=:：\"”」]+?)[\"”」]?\s*(?:[,，:：]|=|等于|为|是|$|\s)", rest)
    name = nm.group(1) if nm else None
    if name and NOT_A_NAME.fullmatch(name):
        name = None  # add a column to the Riverside visits …: "to" is no name
    said = m.group("named")  # add an ARR column …: its name before the word column
    if said is not None:
        name = None if said.casefold() in {c.casefold() for c in t.sheet.columns} else said
    nxt = NEXT_STEP.search(t.text, m.end())
    called = CALLED.search(t.text, m.end(), nxt.start() if nxt else len(t.text))
    if called is not None:  # add a column to orders called arr, MRR times 12: the name said anywhere in the clause
        name = called.group(1)
    if name:  # add a Margin column = …: the name, never its article or the word column
        name = re.sub(r"\s+(?:column|col|field)$", "", re.sub(r"^(?:an?|the|new)\s+", "", name, flags=re.I), flags=re.I).strip() or name
    args: dict[str, Any] = {"name": name}
    _expression_after(t, rest, args)
    if args.get("formula"):
        t.add(m.start(), Op("formula", {"name": args["name"] or "计算列", "expression": args["formula"]}))
        nxt = NEXT_STEP.search(t.text, m.end())
        t.spans.append((m.start(), nxt.start() if nxt else len(t.text)))
        t.formula_spans.append(t.spans[-1])
        return
    if not args.get("left") and not args.get("unresolved"):
        # 加一列每小时收费，收费金额除以椅位时长再乘60: a formula of several operators said after the name, from its first column
        whole = next((f for h in t.hits if h.start >= m.end() and (f := _formula_in_words(t, h.start)) is not None), None)
        if whole is not None:
            args["formula"] = whole
            t.add(m.start(), Op("formula", {"name": args["name"] or "计算列", "expression": whole}))
            nxt = NEXT_STEP.search(t.text, m.end())
            t.spans.append((m.start(), nxt.start() if nxt else len(t.text)))
            t.formula_spans.append(t.spans[-1])
            return
    if not args.get("left") and not _discounted(t, args, m.end()):
        _expression_anywhere(t, m, args)
    if not args.get("name") and args.get("left"):
        right = args.get("right")
        said = right["column"] if isinstance(right, dict) and right.get("column") else right
        args["name"] = f"{args['left']} {args.get('op')} {said}" if language(t.text) == "en" and said is not None else f"{args['left']}_计算"
    t.add(m.start(), Op("add_column", args))
    nxt = min((x for x in (NEXT_STEP.search(t.text, m.end()), FORMULA_CLAUSE_END.search(t.text, m.end())) if x is not None),
              key=lambda x: x.start(), default=None)  # 新增一列金额=数量*单价，再按客户汇总金额: the next step is read by its own rules
    t.spans.append((m.start(), nxt.start() if nxt else len(t.text)))
    t.formula_spans.append(t.spans[-1])  # add Total Cost = …: "Total" names the column, it asks for no sum


def _round_said(text: str) -> tuple[int, tuple[int, int], tuple[int, int] | None] | None:
    """(decimals, span, the span of the columns said inside it or None) of words that round the result's numbers
    (保留整数 / 保留两位小数 / round to 2 decimals / round liters to whole numbers)."""
    from modes.opspecs.round_numbers import ROUND_RX, digits_of

    m = ROUND_RX.search(text)
    return (digits_of(m), m.span(), m.span("obj") if m.group("obj") else None) if m is not None else None


ROUND_OF_BEFORE = lazy(r"\s*(?:的|列|这一?列|都|全部|数值|数字)?\s*(?:都|全部)?\s*$")


def _rule_round_numbers(t: _Turn) -> None:
    """The rounding said (read and blanked by _prepare), a step of its own after the rest of the request: of the
    columns said with it (round liters to … / 总费用保留一位小数), else of every number of the result."""
    if t.round_digits is None:
        return
    cols: list[str] = []
    if t.round_obj is not None:
        a, b = t.round_obj
        cols = [h.column for h in t.hits if a <= h.start and h.end <= b and h.column in t.sheet.numeric]
    elif t.round_span is not None:
        a = t.round_span[0]
        near = [h for h in t.hits if h.end <= a and ROUND_OF_BEFORE.fullmatch(t.text[h.end : a]) and h.column in t.sheet.numeric]
        # 单价和数量保留两位小数: the list said
        chain = _list_ending_at(near[-1], t.hits, t.text, LISTED_ZH_TIGHT, lambda h: h.column in t.sheet.numeric) if near else []
        cols = [h.column for h in chain]
        if near:
            t.spans.append((near[-1].start, near[-1].end))
    t.add(len(t.text), Op("round_numbers", {"digits": t.round_digits, **({"columns": list(dict.fromkeys(cols))} if cols else {})}))


def _rule_rounding(t: _Turn) -> None:
    """Fare ex VAT = Fare / 1.2, rounded to 2 dp / 保留两位小数: the decimals the new column is rounded to (read first, by
    _prepare, so that 保留 is never read as columns kept), never dropped."""
    made = next((o for _, o in reversed(t.found) if o.kind in ("add_column", "formula")), None)
    if t.rounded is not None and made is not None:
        made.args["digits"] = t.rounded


# …= Qty * Unit Price, keep rows where …: a clause that starts with a verb of its own is the next step, never the formula's
FORMULA_CLAUSE_END = lazy(r"(?:[，,；;]|\s+and(?:\s+then)?(?=\s))\s*(?=(?:keep|filter|only|sum|total|group|sort|count|show|list|rank|take|give|chart|plot|export|save|remove|exclude|drop|where"
                          r"|筛选|只看|只要|只留|按|去掉|排除|剔除|汇总|统计|排序)(?![a-z_]))", re.I | re.A)
# an English name of several words, up to the = that defines it (add a column Transit Days = Delivery Date - Pickup Date)
SPACED_NAME = lazy(r"\s*(?:called|named)?\s*[\"“']?([A-Za-z][A-Za-z0-9_%()/\- ]{0,40}?)[\"”']?\s*(?==)", re.A)
NEXT_STEP = lx.NEXT_STEP


def _rule_fill_or_clean(t: _Turn) -> None:
    """Fill blanks: 电话列的空值填成“暂无”; else a general clean-up."""
    m = FILL.search(t.text)
    if m:
        col = None
        if m.group("c") or m.group("c2"):
            col, _, _ = resolve_column(m.group("c") or m.group("c2"), t.sheet)
        else:
            earlier = [h for h in t.hits if h.end <= m.start() + 2]
            col = earlier[-1].column if earlier else None
        value = (m.group("v") or m.group("v2") or m.group("v3") or m.group("v4") or "").strip()
        num = parse_number(value)
        fill_value: Any = tidy(num) if num is not None else value
        t.add(m.start(), Op("clean", {"fill": {col: fill_value} if col else {"*": fill_value}}))
        t.spans.append((max(0, m.start() - 8), m.end()))
    elif (cm := lx.CLEAN.search(t.text)) and not t.explore:
        t.add(cm.start(), Op("clean", {}))


DEDUPE_ON = lazy(r"(?<![a-z_])(?:based on|on|using)\s+", re.I | re.A)


SAME_KEEP_ONE = lazy(r"\s*(?:都)?\s*(?:一样|相同|重复)的?\s*(?:记录|行)?\s*(?:只)?(?:保留|留下|留|取)\s*(?:第)?(?:一|1)\s*(?:行|条|笔|个)")


# which duplicate stays: 保留最新的一条 / 留下单日期最早的 / 保留金额最大的 / keep the latest / keeping the last one /
# keep the one with the highest Amount (latest and earliest are of a date; largest and smallest of a number; last and
# first of the rows' own order unless a column is said)
@cache
def _keep_words() -> dict[str, frozenset[str]]:
    from modes.tagging.segment import words_toml

    w = words_toml()["dedupe_keep"]
    return {"last": frozenset([*w["last_zh"], *w["last_en"]]), "dated": frozenset(w["dated"]), "rows": frozenset(w["rows"]),
            "zh": frozenset([*w["last_zh"], *w["first_zh"]]), "en": frozenset([*w["last_en"], *w["first_en"]])}


@cache
def _keep_which() -> re.Pattern[str]:
    """The words that say which duplicate stays (lexicon: words.toml [dedupe_keep])."""
    from modes.tagging.segment import word_alternation as alt

    kw = _keep_words()
    return re.compile(r"(?:只)?(?:保留|留下|留|取|要)\s*(?P<zc>[^，,。；;\s]{0,12}?)\s*(?P<zw>" + alt(kw["zh"]) + r")(?:的)?\s*(?:那|一|1)?\s*(?:条|行|笔|个|次|单|张)?"
                      r"|(?<![a-z_])keep(?:ing)?\s+(?:only\s+|just\s+)?(?:the\s+)?(?:one\s+|row\s+|record\s+|entry\s+)?(?:with\s+the\s+)?"
                      r"(?P<ew>" + alt(kw["en"]) + r")(?![a-z_])"
                      r"(?:\s+(?:one|row|record|entry|occurrence|copy|version)s?(?![a-z_]))?(?:\s+(?:by|on|of)\s+)?", re.I)


def _column_between(t: _Turn, a: int, b: int) -> bool:
    """Only a column's name between two places (the most recent Install Date for each crew: the date column said)."""
    return any(a <= h.start and h.end <= b and not _blank(t.text[a:b], [(h.start - a, h.end - a)]).strip() for h in t.hits)


def _kept_one_each(text: str) -> list[re.Match[str]]:
    """Which duplicate stays said of each key, right after it (每个会员只保留最近的一次, keep the latest per rider): one row per
    key, the one the words say — only the row words (一次 / 一条 / the latest one), never a figure (保留金额最大的 alone)."""
    return [m for m in _keep_which().finditer(text) if (m.group("zw") or m.group("ew") or "").casefold() in _keep_words()["dated"] | _keep_words()["rows"]
            and (re.search(r"(?:一|1)\s*(?:次|条|行|笔|单|张|个)|(?<![a-z_])(?:one|row|record|entry)(?![a-z_])", m.group(0), re.I)
                 or re.match(r"\s*(?:[a-z]+\s+)?(?:per|for each|of each|for every|in each)(?![a-z_])", text[m.end():], re.I))]


def _dedupe_keep(t: _Turn, args: dict[str, Any]) -> None:
    """Which duplicate stays, when the words say (_keep_which): the last instead of the first, or the row with the
    latest date / largest value of a column (the column said, or the table's one date column for latest / earliest).
    Words that name no such column are left unread, so the reading is restated, never run with the first row kept."""
    m = next((x for x in _keep_which().finditer(t.text) if t.free(x.start())), None)
    if m is None:
        return
    word = (m.group("zw") or m.group("ew") or "").casefold()
    inside = [h for h in t.hits if m.start() <= h.start and (h.end <= m.end() or h.start - m.end() <= 2) and t.free(h.start)]
    kw = _keep_words()
    dated = word in kw["dated"]
    col = next((h.column for h in inside if (h.column in t.sheet.dates) == dated and (dated or h.column in t.sheet.numeric)), None)
    if col is None and dated and len(t.sheet.dates) == 1:
        col = next(iter(t.sheet.dates))  # keep the latest: the table's one date column
    if col is None and word not in kw["rows"]:
        return  # 保留金额最大的 with no such column said: unread, restated
    args["keep"] = "last" if word in kw["last"] else "first"
    if col is not None:
        args["by"] = col
    end = max([m.end(), *(h.end for h in inside if h.column == col)])
    t.spans.append((m.start(), end))


# 每个采购员最近一次下的订单 / 每位会员最后一笔消费 / each rider's latest rental: of each key's rows, the latest (earliest) one
LATEST_EACH = lazy(r"(?P<by>每个|每一个|每位|每名|各个|各)\s*(?P<k>[\u4e00-\u9fffA-Za-z_]{1,12}?)\s*(?:的)?\s*(?P<w>最近|最新|最后|最晚|最早|第一)\s*(?:的)?\s*"
                   r"(?:一次|一笔|一条|一单|一个|那次|那条|那笔|那单|那一次|那一笔|那一条)\s*(?:[\u4e00-\u9fff]{0,2}?的)?\s*(?:订单|记录|单子|数据|明细|行|那行)?"
                   r"|(?<![a-z_])(?:each|every)\s+(?P<ek>[a-z_][\w ]{0,20}?)['’]s\s+(?P<ew>latest|most recent|newest|last|earliest|first)(?:\s+[a-z]+)?(?![a-z_])"
                   # latest session for each Driver ID / most recent row per driver
                   r"|(?<![a-z_])(?P<ew2>latest|most recent|newest|last|earliest|first)\s+(?:[a-z]+\s+)?(?:per|for each|for every|of each|for every)\s+"
                   r"(?P<ek2>[a-z_][\w ]{0,20}?)(?=\s*(?:[,.;]|$))"
                   # one row per driver, keep their most recent session
                   r"|(?<![a-z_])one\s+(?:row|record|line)\s+(?:per|for each|for every|of each)\s+(?P<ek3>[a-z_][\w ]{0,20}?)\s*[,;]?\s*(?:and\s+)?"
                   r"(?:keep(?:ing)?|with|taking|take)\s+(?:their|its|his|her|the)?\s*(?P<ew3>latest|most recent|newest|last|earliest|first)(?:\s+[a-z]+)?(?![a-z_])", re.I)


def _rule_latest_each(t: _Turn) -> None:
    """每个采购员最近一次下的订单 / each driver's latest session: one row per key, the one with the latest (earliest) date,
    never a summary of each key's rows."""
    m = LATEST_EACH.search(t.text)
    if m is None or t.found or not t.sheet.dates:
        return
    raw = (m.group("k") or m.group("ek") or m.group("ek2") or m.group("ek3") or "").strip()
    col, how, _ = resolve_column(raw, t.sheet, closest=False)
    if col is None or how not in ("exact", "synonym", "partial", "translated") or col in t.sheet.numeric or col in t.sheet.dates:
        return
    named = [h.column for h in t.hits if h.column in t.sheet.dates]
    dated = named[0] if named else (sorted(t.sheet.dates)[0] if len(t.sheet.dates) == 1 else None)
    if dated is None:
        return
    first = (m.group("w") or m.group("ew") or m.group("ew2") or m.group("ew3") or "").casefold() in ("最早", "第一", "earliest", "first")
    t.add(m.start(), Op("dedupe", {"subset": [col], "keep": "first" if first else "last", "by": dated}))
    t.spans.append(m.span())


EACH_SAID = lazy(r"每|各|(?<![a-z_])(?:per|each|every)(?![a-z_])", re.I)


# rows with the same Member ID and Genre / 车牌号和维修类别相同的有哪些: the rows alike in those columns, every copy listed
SAME_EN = lazy(r"(?<![a-z_])(?:have|having|has|share|sharing|with)\s+(?:the\s+)?(?:same|identical|matching)\s+", re.I)
SAME_ZH = lazy(r"\s*(?:都|均|全都)?\s*(?:一样|相同|一致)的?\s*(?:行|记录|数据|单子)?")


def _rule_same_listed(t: _Turn) -> bool:
    """Rows that share the values of the columns said (a question that lists them: which / find / 有哪些): the duplicates on
    those columns, shown. Never a dedupe that drops rows (that is said with 只留一行 / keep one)."""
    if SHOW_DUPES.search(t.text) is None or t.found:
        return False
    en = SAME_EN.search(t.text)
    if en is not None:
        if not any(h.start == en.end() for h in t.hits):
            return False  # compare with the same month last year: no column said after "same"
        period = (t.period_key, t.period_col)
        keys, end, _how = _key_list(t, en.end())
        cols = [c for c, _r, closest in keys if c and not closest]
        if len(cols) != len(keys) or not cols or (t.period_key, t.period_col) != period:
            t.period_key, t.period_col = period  # (a period among the keys is no column the rows share)
            return False
        t.add(en.start(), Op("dedupe", {"subset": list(dict.fromkeys(cols)), "show": True}))
        t.spans.append((en.start(), end))
        return True
    for z in SAME_ZH.finditer(t.text):
        if not z.group(0).strip():
            continue
        before = [h for h in t.hits if t.free(h.start) and h.end <= z.start()]
        if not before or t.text[before[-1].end : z.start()].strip(" 的"):
            continue
        chain = _list_ending_at(before[-1], before, t.text)
        t.add(chain[0].start, Op("dedupe", {"subset": list(dict.fromkeys(h.column for h in chain)), "show": True}))
        t.spans.append((chain[0].start, z.end()))
        return True
    return False


def _rule_dedupe(t: _Turn) -> None:
    m = lx.DEDUPE.search(t.text)
    one = lx.ONE_ROW_EACH.search(t.text)
    same = next((x for x in SAME_KEEP_ONE.finditer(t.text) if any(h.end == x.start() or t.text[h.end : x.start()].isspace() for h in t.hits)), None)
    if same is not None:  # 门店和品类一样的只留一行: rows alike in those columns, one kept (the columns said just before)
        lo = max((x.end() for x in CLAUSE_END.finditer(t.text, 0, same.start())), default=0)
        alike = list(dict.fromkeys(h.column for h in t.hits if lo <= h.start and h.end <= same.start() and t.free(h.start)))
        if alike:
            kept: dict[str, Any] = {"subset": alike}
            _dedupe_keep(t, kept)
            t.add(same.start(), Op("dedupe", kept))
            t.spans += [(min(h.start for h in t.hits if h.column in alike and h.start >= lo), same.end())]
            return
    if not m and not one and _rule_same_listed(t):
        return
    if not m and not one and BY_WORD.search(t.text):  # 每个会员只保留最近的一次订单 / keep the latest rental per rider
        one = next(iter(_kept_one_each(t.text)), None)
    if one is not None and one.group(0).lstrip("只").startswith("取") and lx.SORT.search(t.text) and not EACH_SAID.search(t.text) \
            and not t.has("top_n"):
        # 按行数从多到少排，取第一个: the first of that order (no key said with each), never one row per key kept
        t.add(one.start(), Op("top_n", {"n": 1, "by": None, "ascending": False}))
        t.spans.append(one.span())
        one = None
    if not m and one and BY_WORD.search(t.text):  # 每个部门保留一行 / keep one row per region: the keys say which rows
        each: dict[str, Any] = {}
        _dedupe_keep(t, each)
        t.add(one.start(), Op("dedupe", each))
        by = BY_WORD.search(t.text, one.start(), one.end())
        t.spans.append((one.start(), by.start() if by else one.end()))  # per / for each stays for the keys' rule
        return
    if not m:
        return
    text = t.text
    near = [h.column for h in t.hits if 0 <= h.start - m.end() <= 3 and re.fullmatch(r"\s*(?:的|of|in|on)?\s*", text[m.end() : h.start], re.I | re.A)]
    if not near and CJK.match(m.group(0)):  # 商品名称去重: the column said right before the word is the key
        near = [h.column for h in t.hits if t.free(h.start) and h.end <= m.start()
                and re.fullmatch(r"\s*(?:的|列|这一?列)?\s*(?:都|均|同时|全都|全)?\s*(?:有没有|是否有|有无|有)?\s*", text[h.end : m.start()])][-1:]  # (单据号有重复的吗)
        if near:  # 送修日期和车牌号都重复的: every column of the list that ends right before the word, all of them the key
            before = [h for h in t.hits if t.free(h.start) and h.end <= m.start()]
            near = list(dict.fromkeys(h.column for h in _list_ending_at(before[-1], before, text)))
    on = DEDUPE_ON.search(text, m.end()) if not near else None
    if on is not None:  # dedupe orders.csv on customer and product: the keys said after on / using
        keys, j, _how = _key_list(t, on.end())
        near = [c for c, _r, _cl in keys if c]
        if near:
            t.spans.append((on.start(), j))
    args: dict[str, Any] = {"subset": near} if near else {}
    if SHOW_DUPES.search(text) and not DEDUPE_DROP.search(text):
        args["show"] = True  # 找出重复的订单: list them, do not drop them
    else:
        _dedupe_keep(t, args)
    t.add(m.start(), Op("dedupe", args))
    t.spans.append(m.span())
    verb = re.search(r"(?:删掉|删除|去掉|去除|remove|drop|delete)\s*$", text[: m.start()], re.I | re.A)
    if verb:
        t.spans.append(verb.span())


KeyList = list[tuple[str | None, str, list[str]]]


def _key_list(t: _Turn, start: int) -> tuple[KeyList, int, str]:
    """The columns named after 按 / by, joined by 和 / 、 / and: (keys, end, how the first was resolved)."""
    col, raw, how, closest, end = _col_after(t.text, start, t.hits, t.sheet)
    if not raw:
        return [], end, how
    keys: KeyList = [(col, raw, closest)]
    j = end
    first = _date_period(t, col, raw, end) if col is not None and col in t.sheet.dates and PERIOD_AFTER.match(t.text, end) else None
    if first is not None:  # 按缴费日期的月份汇总: the months of that date column, never each day a key
        t.period_key, t.period_col = first[0], col
        keys, j = [], first[1]
        mm = re.match(r"\s*(?:和|、|与|及|以及|跟|,|and|&)\s*", t.text[j:], re.I | re.A)
        nxt = _col_after(t.text, j + mm.end(), t.hits, t.sheet) if mm else None
        if nxt is None or nxt[0] is None:
            t.period_alone = True
            return [], j, "period"
        keys, j = [(nxt[0], nxt[1], nxt[3])], nxt[4]
    while True:
        mm = re.match(r"\s*(?:和|、|与|及|以及|跟|,|and|&)\s*", t.text[j:], re.I | re.A)
        if not mm or lx.EXCLUDE.match(t.text, j + mm.end()):
            break  # by warehouse, excluding Toys: the list of keys has ended
        if AGG_AHEAD.match(t.text, j + mm.end()):
            break  # group by member_id, sum of amount: a figure of the summary, never a second key
        c2, r2, _, cl2, e2 = _col_after(t.text, j + mm.end(), t.hits, t.sheet)
        unit = PERIOD_KEY.get((r2 or "").strip().casefold()) if not c2 and len(t.sheet.dates) == 1 else None
        dated = _date_period(t, c2, r2, e2) if c2 and unit is None else None
        if dated is not None:  # 按导购和销售月份: the date column named by its first word, with a period after it
            unit, e2 = dated
            t.period_col = c2
        if unit is not None:  # 按门店和月份汇总: the month of the one date column is a key too
            t.period_key = unit
            j = e2
            continue
        if not c2 or COMPARED_NEXT.match(t.text, e2):
            break  # per channel, sales at least 3000: a column compared with a value starts a condition, not a key
        from modes.conditions import FLAG_NOT_COUNTED

        if FLAG_NOT_COUNTED.match(t.text, e2) or KEY_THEN_ONLY.match(t.text, e2):
            break  # by Category, returned orders do not count / by Route, refunded only: a condition, never a second key
        eq = EQUALS_NEXT.match(t.text, e2)
        if eq is not None and any(t.text[eq.end():].casefold().startswith(v.casefold()) for v in t.sheet.values.get(c2, ())):
            break  # by Appt Type, Status is Completed: a column said equal to one of its values starts a condition
        keys.append((c2, r2, cl2))
        j = e2
    return keys, j, how


KEY_THEN_ONLY = lazy(r"\s*(?:ones\s+|rows\s+|tickets\s+|orders\s+)?only(?![a-z_])|\s*的?(?:才算|就行|即可)", re.I)
PERIOD_AFTER = lazy(r"\s*(?:的)?\s*(月份|月|季度|年份|年度|年|周|星期)(?![\u4e00-\u9fff]*(?:列|字段))|\s+(month|quarter|year|week)s?(?![a-z_])", re.I)


def _date_period(t: _Turn, col: str | None, raw: str, end: int) -> tuple[str, int] | None:
    """销售月份 / 下单日期的月份, with one date column: that column's periods (the unit, and where the words end), when
    the period word is not part of the column's own name."""
    if col is None or col not in t.sheet.dates:
        return None
    m = PERIOD_AFTER.match(t.text, end)
    word = (m.group(1) or m.group(2)).casefold() if m is not None else ""
    if m is not None and word not in col.casefold():  # 销售月份 / by Opened month
        return PERIOD_KEY[word], m.end()
    tail = next((w for w in sorted(PERIOD_KEY, key=len, reverse=True) if CJK.search(w) and (raw or "").endswith(w)), None)
    if tail is not None and tail not in col and len(raw) > len(tail):
        return PERIOD_KEY[tail], end
    return None


PERIOD_LEAD = lazy(r"(?:月份?|季度|年度?|周|星期|天|日)(?![\u4e00-\u9fff]*(?:列|字段))")
# a period named as a key in a list of keys (按门店和月份 / by store and month): the date column's periods
PERIOD_KEY = {"月份": "month", "月": "month", "每月": "month", "季度": "quarter", "年份": "year", "年度": "year", "年": "year", "周": "week",
              "星期": "weekday", "month": "month", "months": "month", "quarter": "quarter", "year": "year", "week": "week", "weekday": "weekday"}
EQUALS_NEXT = lazy(r"\s*(?:is|=|==|equals|是|为|等于)\s*", re.I | re.A)
AGG_THEN_SORT = lazy(r"\s*的?\s*(?:合计|总和|总数|总计|总量|平均值?|均值|加总|之和)\s*(?:的)?\s*(?:" + lx.DESC_PAIR + "|" + lx.ASC_PAIR
                     + r"|降序|升序|倒序|排序|排名|排个?序|排|大的在前|多的在前|高的在前)", re.A)


SPLIT_BY = lazy(r"\s*(?:来|去)?(?:拆开|拆分|分开|细分|分一下|分下|拆一下|拆下|分别|分个类|区分)")


def _key_role(t: _Turn, b: re.Match[str], j: int) -> str | None:
    """What the keys after one 按 / by are for: sort, group, dedupe, none; None when another rule reads them."""
    text = t.text
    clause = re.split(r"[,;]", text[j:], maxsplit=1)[0]
    word = b.group(0).casefold()
    before = text[max(0, b.start() - 30) : b.start()]
    if t.has("dedupe") and (any(o.start() <= b.start() <= o.end() or 0 <= o.start() - j <= 3
                                for o in (*lx.ONE_ROW_EACH.finditer(text), *_kept_one_each(text)))
                            or any(0 <= b.start() - o.end() <= 12 and re.fullmatch(r"\s*(?:[a-z]+\s*)?", text[o.end() : b.start()], re.I)
                                   or _column_between(t, o.end(), b.start())
                                   for o in _kept_one_each(text))):  # (keep the latest rental per rider: the key after the row's noun)
        return "dedupe"  # one row per region / 每个部门保留一行 / 每个会员只保留最近的一次: these keys choose the rows kept
    if word == "by" and t.has("dedupe") and lx.DEDUPE.search(before) and not lx.GROUP.search(before):
        return "dedupe"  # remove duplicates from orders.csv by customer and product: the keys of the duplicates
    if word.startswith("每") or word in ("各个", "各项", "各种", "各", "per", "for each", "for every", "in each", "in every", "within each", "within every", "其他", "其余", "其它", "剩下的", "其他的") or word.startswith("group") \
            or re.fullmatch(r"(?:does|do|did|has|have)\s+(?:each|every)", word):  # how many titles does each dept have
        return "group"
    if word.startswith(("sort", "order", "rank")):
        return "sort"
    if word in ("按", "按照") and (split := SPLIT_BY.match(clause)) is not None:
        t.spans.append((j + split.start(), j + split.end()))
        return "group"  # 一共多少钱？按收费员分一下 / 按门店拆开看: the figure per key
    if DEDUPE_VERB.search(clause[:8]):
        return "dedupe"
    if word in ("按", "按照") and lx.TOP_N.search(text) and re.match(r"\s*(?:来)?(?:算|计算|衡量|看|排)", clause) \
            and all(c is not None and c in t.sheet.numeric for c, _, _ in _key_list(t, b.end())[0]):
        return "rank"  # 卖的最好的前10个药品，按数量算: what the ranking is measured by, never a grouping by a figure
    if word in ("按", "按照") and re.match(r"\s*(?:来)?(?:算|计算)(?!.{0,3}(?:比例|占比|排名))", clause) and TOTAL_ASKED_ZH.search(text) \
            and (keys := _key_list(t, b.end())[0]) and all(c is not None and c in t.sheet.numeric and c not in t.sheet.dates
                                                        and not _id_like(c, t.sheet) for c, _, _ in keys):
        return "measure"  # 他们一共退了多少钱，按实收金额算: the column the total is of, never a grouping by each amount
    if AGG_THEN_SORT.match(clause):
        return "sort"  # 按数量合计降序 / 按金额的总和从高到低: the order of a summary's figure, never a key
    summed = next((m for agg, rx in AGG_WORDS[:2] for m in [rx.search(clause)] if m is not None), None)
    ordered = SORT_VERB.search(clause)
    if word in ("按", "按照") and summed is not None and ordered is not None and summed.start() < ordered.start() and summed.start() > 0:
        return "group"  # 按车牌把金额加起来再排前5: each key's total, then ranked
    if word == "by" and re.match(r"\s*(?:sorted|ordered|ranked|highest|largest|biggest|lowest|smallest|descending|ascending|high to low|low to high)(?![a-z_])", clause, re.I) \
            and re.search(r"(?<![a-z_])(?:total|sum|average|mean|median|count|number of|how many)(?![a-z_])", text[max(0, b.start() - 40) : b.start()], re.I):
        return "group"  # total Qty by Clerk sorted high to low: each clerk's total, in that order
    if SORT_VERB.search(clause[:10]) and not GROUP_VERB.search(clause[:6]):
        return "sort"
    if GROUP_VERB.search(clause):
        return "group"
    if word == "by" and re.search(r"(?<![a-z_])(?:sort|order|rank)(?:ed|ing)?(?![a-z_])", before, re.I | re.A):
        return "sort"  # sort the table by …, never "the top 5 orders by amount"
    if word == "by" and re.search(r"group|summar|total|sum|count|average|number of|how many",
                                  _blank(text, [(h.start, h.end) for h in t.hits])[max(0, b.start() - 60) : b.start()], re.I | re.A):
        return "group"  # (Net Amount_sum - Credit Limit … top 5 by Over: a column's name asks for no summary)
    if word == "by" and not t.sorting and any(h.column in t.sheet.numeric and 0 <= b.start() - h.end <= 2 for h in t.hits):
        return "group"  # revenue by region
    noun = ROW_NOUN_BEFORE.search(text, 0, b.start()) if word == "by" and not t.sorting else None
    if noun is not None and (noun.group("n") or "").casefold().rstrip("s") in (ROW_NOUNS_EN - {"sale"}) | ({""} if t.flags.get("rows_named") else set()) \
            and not lx.TOP_N.search(text):
        t.rows_by = True
        return "group"  # closed tickets by team / orders by store: the rows, counted per key
    if word == "by" and lx.TOP_N.search(text) and _col_after(text, b.end(), t.hits, t.sheet)[0] in t.sheet.numeric:
        return None  # top 5 products by total revenue: the figure the top-N ranks by, read by its own rule
    if t.sorting:
        return "sort"
    if t.grouping:
        return "group"
    if lx.EXPLORE_JOIN.search(clause) or t.explore:
        return None
    if lx.TOP_N.search(text):
        return None  # top 3 employees by salary: the top-N reads its own ranking column, whatever ran before
    if "sort" in t.flags.get("pending_kinds", []):
        return "sort"  # "by salary please" after "sort employees.csv"
    if "group" in t.flags.get("pending_kinds", []):
        return "group"
    if _keys_alone_at(text, b, j) and not {"sort", "dedupe"} & set(t.flags.get("pending_kinds", [])) \
            and _col_after(text, b.end(), t.hits, t.sheet)[0] is not None:
        return "group"  # 按门店拆开看 / 那按城市呢 / by payment method: keys said alone are the groups of the figure
    return "sort" if word in ("按", "按照", "by") and SORT_VERB.search(text[j:]) else "none"


# a turn that is keys and nothing else: (那 / 再 / now / and / what about) 按 X (拆开看 / 分一下 / 看看 / 呢)
KEYS_ALONE_HEAD = lazy(r"\s*(?:(?:那|那就|再|就|改成|换成|然后)\s*|(?:and|now|then|what about|how about|ok|okay|and now)[\s,]*)*", re.I | re.A)
KEYS_ALONE_TAIL = lazy(r"\s*(?:(?:来|去)?(?:拆开|拆分|分开|细分|分组|分|拆|分别)?\s*(?:看|看看|瞧瞧|算|统计|汇总|列一下|展示)?\s*(?:一下|下)?\s*(?:呢|吧|啊)?"
                       r"|(?:instead|please|too|as well|then)?)\s*[?？。.!！]?\s*", re.I | re.A)


def _keys_alone_at(text: str, b: re.Match[str], j: int) -> bool:
    """The keys after this 按 / by (ending at j) are all the turn says."""
    return KEYS_ALONE_HEAD.fullmatch(text[: b.start()]) is not None and KEYS_ALONE_TAIL.fullmatch(text[j:]) is not None


PLACEHOLDER = lazy(r"(?:那个|这个|那|这|某个|某|哪个)(?:列|字段)?|(?:it|that|this|that one|this one|that column|the thing)", re.I | re.A)


# who did something (managed by Ortiz, placed by C012, sold by Ann): the agent of a verb, never a key to group by
AGENT_BY = lazy(r"(?<![a-z_])(?!(?:grouped|sorted|ordered|ranked|summari[sz]ed|split|partitioned|aggregated|totall?ed|counted|averaged|"
                r"bucketed|segmented|categori[sz]ed|organi[sz]ed|arranged|listed|broken down|filtered|compared)\s)"
                r"(?:[a-z]{3,}ed|paid|sold|made|bought|sent|done|taken|given|held|kept|brought|written|driven|chosen|won|lost|told|led)\s+$", re.I | re.A)


SUPERLATIVE_FIRST = lazy(r"(?P<s>highest|lowest|largest|smallest|biggest|most recent|most|least|best|worst|top|newest|latest|oldest|earliest)(?P<w>.*?)\s+first", re.I | re.A)  # on lx.SORT's match
TIME_SUPERLATIVE = frozenset({"newest", "latest", "oldest", "earliest", "most recent"})  # their column is a date
AGG_WORD_ALONE = lazy(r"sum|total|mean|average|avg|count|合计|总和|总额|平均|平均值|均值", re.I | re.A)
PER_BEFORE = lazy(r"每个?|各个?|(?<![a-z_])(?:per|by|each|for every)(?![a-z_])", re.I | re.A)
# a total asked for in Chinese (一共 / 总共 / 合计 / 加起来 / 多少钱): a column said with 按…算 is what is totalled
TOTAL_ASKED_ZH = lazy(r"一共|总共|合计|总计|总额|加起来|加在一起|多少钱|共计|总和|平均|均值")
# the row count of a summary, said as what is counted: 单数, 次数, 人数, count, number of orders
COUNTED_BY = lazy(r"\s*(?:来)?(?:算|计算|统计)")
COUNT_KEY = lazy(r"(?:[\u4e00-\u9fff]{0,2}(?:" + lx.COUNT_NOUNS + r")|行数|(?:the )?(?:count|number(?: of \w+)?|rows?))", re.I | re.A)


MEASURE_NAMED = lazy(r"\s*([A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff]*?)_(?:sum|mean|avg|average|total|count|max|min|median|合计|平均|最大|最小|计数|中位数)(?![\w])", re.I)


def _column_named_alone(t: _Turn, keys: list[tuple[str | None, str, list[str]]], j: int) -> bool:
    """The key after by is a column's whole name (a column called Total), and no column follows it: that column."""
    c, raw = keys[0][0], keys[0][1].strip()
    figure = any(h.column == c and h.how == "partial" and t.text[h.start : h.end].casefold() == raw.casefold()
                 and any(m.start("w") == h.start for m in FIGURE_SORTED.finditer(t.text)) for h in t.hits)  # sort by total, of a summary: its figure
    return len(keys) == 1 and c is not None and (raw.casefold() == c.casefold() or figure) \
        and not any(h.start >= j and not t.text[j : h.start].strip() for h in t.hits)


@cache
def _not_by_words() -> tuple[tuple[str, ...], tuple[str, ...]]:
    from modes.tagging.segment import words_toml

    w = words_toml()["by_word"]
    return tuple(w["not_by_zh"]), tuple(w["by_again_zh"])


def _not_by(text: str, at: int) -> bool:
    """没按时自提 / 按期还款: a 按 that begins a word of its own (words.toml [by_word]), never "by"."""
    not_by, by_again = _not_by_words()
    return text.startswith(not_by, at) and not text.startswith(by_again, at)


def _read_keys_at(t: _Turn, b: re.Match[str]) -> None:
    """The keys after one 按 / by, put where their role says."""
    dated = next((h for h in t.hits if h.column in t.sheet.dates and not t.text[b.end() : h.start].strip()), None)
    period = _date_period(t, dated.column, t.text[dated.start : dated.end], dated.end) if dated is not None and not t.free(dated.start) else None
    if period is not None:  # by Opened month, its date column read by the growth or period rule: that period, no key
        t.spans.append((b.start(), period[1]))
        return
    named = MEASURE_NAMED.match(t.text, b.end())
    if named and named.group(1) in t.sheet.numeric and (t.grouping or t.group_keys):
        t.spans.append((b.start(), named.end()))  # top 5 by amount_sum: the summary's own figure, never a key named amount
        return
    if MONEY_SAID.match(t.text, b.end()) and not any(h.start == b.end() for h in t.hits):
        return  # 各花了多少 / 每单多少钱: how much money each spent, never a key named 花了多少
    per = b.group(0).casefold() in ("per", "for each", "for every")
    noun = PER_ROW_NOUN.match(t.text, b.end()) if per else None
    blanked = re.match(r"\s{3,}(?=(?:by|per)\s)", t.text[b.end() :], re.I) if per else None  # (per visits, the file's own word, set aside)
    if blanked is not None or noun is not None and noun.group(1).casefold() in ROW_NOUNS_EN | {"fill", "wash", "session", "stay", "rental", "ride", "trip", "job"} \
            and not any(h.start == noun.start(1) and h.how in ("exact", "synonym") for h in t.hits):
        t.key_spans.append((b.start(), b.end() + blanked.end() if blanked is not None else noun.end()))  # type: ignore[union-attr]
        return  # average cars per visit by vehicle: one figure per row (the rows' noun), the key is the one said after "by"
    keys, j, how = _key_list(t, b.end())
    if len(keys) == 1 and b.group(0).casefold() in ("per", "for each", "for every") and how not in ("exact", "synonym") \
            and keys[0][1].strip().casefold().removesuffix("s") in ROW_NOUNS_EN | {"timesheet", "receipt", "ticket", "rental", "ride", "stay"}:
        t.key_spans.append((b.start(), j))
        return  # average Qty per sale by Clerk: one figure per row, never a key named like Sale Date
    if len(keys) > 1 and keys[-1][0] is None and keys[-2][0] is not None and AGG_WORD_ALONE.fullmatch(keys[-1][1].strip()):
        keys = keys[:-1]  # sorted by the freight sum: the statistic of the figure named, never a second key
    if not keys:
        if how == "period":
            t.key_spans.append((b.start(), j))
            t.grouping = True
        return
    counted = COUNT_KEY.match(t.text, b.end() + len(t.text[b.end():]) - len(t.text[b.end():].lstrip()))
    if len(keys) == 1 and how not in ("exact", "synonym", "translated") and counted is not None and counted.end() >= j and t.sorting \
            and lx.TOP_N.search(t.text, 0, b.start()) is None and not t.group_keys:
        from tools.ops import ROWS

        t.sort_keys.append(ROWS["en" if language(t.text) == "en" else "zh"])  # 按单数从多到少排: the rows each group has, never 订单号
        t.spans.append((b.start(), counted.end()))
        return
    if len(keys) == 1 and keys[0][0] is None and COUNT_KEY.fullmatch(keys[0][1].strip()) and (verb := COUNTED_BY.match(t.text, j)) is not None \
            and b.group(0) in ("按", "按照") and not t.sorting:
        t.spans.append((b.start(), verb.end()))  # 按单数算，…占比: the rows are what is counted (the figure's own words say so), no key
        return
    if len(keys) == 1 and keys[0][0] is None and COUNT_KEY.fullmatch(keys[0][1].strip()) and lx.TOP_N.search(t.text, 0, b.start()) is not None:
        from tools.ops import ROWS

        t.rank_by = ROWS["en" if language(t.text) == "en" else "zh"]  # top 3 Units by count: the groups ranked by their rows
        t.spans.append((b.start(), j))
        return
    if b.group(0).casefold() == "by" and AGG_AHEAD.match(t.text, b.end()) and not _column_named_alone(t, keys, j):
        return  # top 10 donors by total amount: a ranking by a figure, never a key named "total" (sort by Total: the column)
    if len(keys) == 1 and keys[0][0] is None and t.sheet.dates and PERIOD_LEAD.match(keys[0][1].strip()):
        return  # 每个月比上个月涨了多少 / 每天: a period of the date column, read by the period and growth rules
    if NOT_BY.search(t.text, max(0, b.start() - 12), b.start()):
        t.spans.append((b.start(), j))  # 按门店汇总，不是按类别 / by line, not by shift: the key said not to use is no key
        return
    if b.group(0).casefold() == "by" and all(c is None for c, _, _ in keys) and AGENT_BY.search(t.text, max(0, b.start() - 20), b.start()):
        return  # employees not managed by Ortiz: no column, but who manages (a value, read by the condition rules)
    if how == "typo":
        t.out.typos.append(keys[0][1])
    role = _key_role(t, b, j)
    if role is None or role == "none":
        if t.out.correction and all(c is not None for c, _, _ in keys):
            t.out.bare_keys += [c for c, _, _ in keys if c]  # no, by line instead: the keys of what it corrects (unless a
        return  # step of this turn takes them: make it top 2, by rate)
    word = b.group(0).casefold()
    if role == "group" and (word.startswith("每") or word in ("per", "for each", "for every", "in each", "in every")) and all(c and _id_like(c, t.sheet) for c, _, _ in keys) \
            and not ROWS_COUNTED.search(t.text):
        t.key_spans.append((b.start(), j))
        return  # average revenue per order: one value per row, so an overall average (rows counted per id: the id repeats, a key)
    said = COUNT_KEY.match(t.text, len(t.text) - len(t.text[b.end():].lstrip())) if role == "sort" else None
    ordered = said is not None and SORT_VERB.match(t.text[said.end():].lstrip()) is not None and all(c is None for c, _, _ in keys)  # 按笔数从多到少排
    if said and (t.group_keys or PER_BEFORE.search(t.text, 0, b.start()) or ordered) and not any(c and c.casefold() == said.group(0).casefold() for c, _, _ in keys):
        from tools.ops import ROWS

        # 每个小区有多少单，按单数从多到少排 / count by store, sort by count: the count the summary makes
        keys = [(ROWS["en" if language(t.text) == "en" else "zh"], said.group(0), [])]
        j = max(j, said.end())
    for c, r, cl in keys:
        if c is None:
            if role == "dedupe":
                continue
            placeholder = PLACEHOLDER.fullmatch(r.strip())  # 按那个分组: which column is not said at all
            t.add(b.start(), Op(role, {"unresolved": [_unres(r, list(t.sheet.columns), "placeholder") if placeholder else _unres(r, cl)]}))
            t.unresolved()
        elif role == "sort":
            t.sort_keys.append(c)
        elif role == "rank":
            t.rank_by = c
        elif role == "measure":
            t.measure_by = c
        elif role == "group":
            t.group_keys.append(c)
        elif role == "dedupe":
            t.dedupe_keys.append(c)
    alone = role == "group" and _keys_alone_at(t.text, b, j)
    if role in ("rank", "measure"):  # 按数量算: its verb is the ranking's (or the total's), never a word of a summary
        verb = re.match(r"\s*(?:来)?(?:算|计算|衡量|看|排)", t.text[j:])
        j += verb.end() if verb else 0
        t.gtext = _blank(t.gtext, [(b.start(), j)])
        t.grouping = (bool(lx.GROUP.search(t.gtext)) or t.compare_groups or t.ratio is not None or t.rate_word is not None) and not t.explore
    t.key_spans.append((b.start(), len(t.text) if alone else j))  # 按门店拆开看: the words after the keys are the keys' own


EACH_COUNTED_AFTER = lazy(r"\s*(?:的)?\s*(?:各自|各|分别)\s*(?:有|是)?\s*(?=(?:多少|几)\s*(?:" + ROW_CLASSIFIERS + r"|辆|件|种))")


def _keys_before_each(t: _Turn) -> None:
    """车型各有多少条 / 单价分别有几条: the column said before 各 / 分别 and a count of rows is the key each value is
    counted by (a column of few numbers, such as a unit price, too), never the whole table's row count."""
    for h in t.hits:
        m = EACH_COUNTED_AFTER.match(t.text, h.end)
        if m is None or not t.free(h.start) or h.column in t.sheet.dates or _id_like(h.column, t.sheet):
            continue
        if any(len(v) > h.end - h.start and t.text[max(0, h.end - len(v)) : h.end] == v for vs in t.sheet.values.values() for v in vs if isinstance(v, str)):
            continue  # 一车间和二车间各有多少条: the end of a value (二车间), never the column 车间
        t.group_keys.append(h.column)
        t.key_spans.append((h.start, m.end()))
        t.grouping = True
        return
    bare = re.search(r"(?<![\u4e00-\u9fff])各(?=\s*(?:多少|几)\s*(?:" + ROW_CLASSIFIERS + r"|辆|件|种))", t.text)
    if bare is not None and t.free(bare.start()) and not t.found:  # 东校区各多少条: counted by which column is not said
        t.add(bare.start(), Op("group", {"unresolved": [_unres("各", list(t.sheet.columns), "placeholder")]}))
        t.unresolved()


COMPUTE_BEFORE = lazy(r"(?:算|计算|求|统计|看看|看一下)(?:一下|一遍|下)?\s*(?:的)?\s*$")
STAT_OF_NEXT = lazy(r"\s*(?:of\s+(?:the\s+)?|的\s*)?")


def statistic_of_next(text: str, h: ColumnHit, hits: list[ColumnHit], sheet: SheetInfo) -> bool:
    """A column named like a statistic (Total, 合计) said right before another numeric column: the statistic of that
    column (total Qty / 合计数量), never the column of its name."""
    if h.column not in sheet.numeric or not any(rx.fullmatch(text[h.start : h.end]) for _, rx in AGG_OF_WORD):
        return False
    if re.match(r"\s+(?:it|them)(?![a-z_])", text[h.end :], re.I):
        return True  # then total it: the statistic of what "it" is
    if any(x.end <= h.start and re.fullmatch(r"\s+|'s\s+", text[x.end : h.start]) and x.column != h.column and x.column in sheet.numeric
           for x in hits) and re.fullmatch(r"[a-z]+", text[h.start : h.end]):
        return True  # the Qty total per Clerk: Qty's total (a column said in lower case after another, never a second column)
    nxt = next((x for x in hits if x.start >= h.end and STAT_OF_NEXT.fullmatch(text[h.end : x.start])), None)
    return nxt is not None and nxt.column != h.column and nxt.column in sheet.numeric


def _made_columns(t: _Turn) -> list[str]:
    """The names of the columns this turn makes (add Net = … / 加一列利润 = …), in the order said."""
    return [str(o.args["name"]) for _, o in t.found if o.kind in ("formula", "add_column") and o.args.get("name")]


def _rule_keys(t: _Turn) -> None:
    """按X… / by X: sort keys, group keys, dedupe keys."""
    text = t.text
    t.sorting = bool(lx.SORT.search(text))
    # 高于平均 compares, it does not summarise; a column named 金额_合计 (or Average of Base Salary, said 平均基本工资)
    # names a column, not a summary
    t.gtext = _blank(text, [m.span() for m in CMP_STAT.finditer(text)] + [(h.start, h.end) for h in t.hits if lx.GROUP.search(h.column) and h.how in ("exact", "translated") and lx.GROUP.search(text[h.start : h.end])]
                     + _figure_words(t) + t.formula_spans
                     + [(h.start, h.end) for h in t.hits if h.how == "partial" and any(m.start("w") == h.start for m in FIGURE_SORTED.finditer(text))]
                     # (most recent session per driver: the words of one row kept per key group nothing)
                     + (list(t.spans) if any(x.kind == "dedupe" and x.args.get("by") for _, x in t.found) else []))
    t.grouping = (bool(lx.GROUP.search(t.gtext)) or t.compare_groups or t.ratio is not None or t.rate_word is not None) and not t.explore
    if not t.grouping and not t.explore and any(h.column in t.sheet.numeric and h.start > 0 and text[h.start - 1] == "总" and t.free(h.start)
                                                and COMPUTE_BEFORE.search(text, max(0, h.start - 8), h.start - 1) for h in t.hits):
        t.grouping = True  # 然后重新算一下总金额: the column's total, asked with a verb of computing
    for b in islice(BY_WORD.finditer(text), MAX_KEYS):  # a request names a few keys; junk may repeat 按 hundreds of times
        if b.group(0) == "各" and any(e == b.start() for _, e in t.key_spans):
            continue  # 每家门店各卖过几种菜: 各 says each of the groups just named does it, never a second key
        if t.free(b.start()) and not any(h.start <= b.start() < h.end for h in t.hits) and not _not_by(text, b.start()):  # Paid By is empty: a column's own word
            _read_keys_at(t, b)
    if not t.group_keys and not t.explore:
        _keys_before_each(t)
    if t.dedupe_keys:
        subset = list(dict.fromkeys(t.dedupe_keys))
        t.found = [(i, Op("dedupe", {**o.args, "subset": subset}) if o.kind == "dedupe" else o) for i, o in t.found]  # (show the duplicates by …: still shown)
    t.spans += t.key_spans


def _rule_sort(t: _Turn) -> None:
    sm = lx.SORT.search(t.text)
    if not (t.sort_keys or (sm and (not t.explore or _periods_only(t)))):
        return
    if not t.sort_keys and sm and RANK_WORD.fullmatch(sm.group(0)) and lx.TOP_N.search(t.text):
        return  # 销售额排名前三的销售员: the ranking is the top-N's, never a sort with no column
    for om in lx.SORT.finditer(t.text):  # largest freight first / by rep, then newest Join Date first: the figure inside the order's words
        inner = SUPERLATIVE_FIRST.fullmatch(om.group(0))
        if inner is None or not inner.group("w").strip() or (t.sort_keys and inner.group("s").casefold() not in TIME_SUPERLATIVE):
            continue
        kinds = t.sheet.dates if inner.group("s").casefold() in TIME_SUPERLATIVE else t.sheet.numeric  # newest Join Date first
        named = [h.column for h in t.hits if om.start() <= h.start and h.end <= om.end() and h.column in kinds]
        col, how, _ = resolve_column(inner.group("w").strip(), t.sheet) if not named else (named[0], "exact", [])
        if col is not None and col in kinds and how in ("exact", "synonym", "partial") and col not in t.sort_keys:
            t.sort_keys.append(col)
            t.spans.append(om.span())
    if not t.sort_keys:
        for h in t.hits:
            tail = t.text[h.end : h.end + 8]
            if re.match(r"\s*(?:列)?\s*(?:" + lx.DESC_PAIR + "|" + lx.ASC_PAIR + r"|降序|升序|倒序|desc|asc|descending|ascending)", tail, re.I | re.A):
                t.sort_keys.append(h.column)
                t.spans.append((h.start, h.end))
    if not t.sort_keys and (it := BY_IT.search(t.text)) is not None:
        made = _made_columns(t)
        if made:  # add payback = … and sort by it: the column just made
            t.sort_keys.append(made[-1])
            t.spans.append(it.span())
    direction = {"direction_said": True} if (DESC.search(t.text) or ASC.search(t.text)) else {}
    if not t.sort_keys and not any(h.column in t.sheet.numeric for h in t.hits) and not t.found and (figure := _summary_figure(t.sheet)) is not None \
            and (direction or BY_IT.search(t.text)):  # (从高到低排，只要前3个渠道: the summary's key said, its figure not)
        t.sort_keys.append(figure)  # 从高到低排一下 / sort it descending, of a total per Member read back: its one figure
        t.spans += [m.span() for m in (BY_IT.search(t.text),) if m is not None]
    at = sm.start() if sm else t.key_spans[0][0] if t.key_spans else 0
    ascending = bool(ASC.search(t.text)) or not DESC.search(t.text)  # 从低到高排名: the written direction wins over 排名's own
    own = _key_directions(t)
    if own is not None:  # by rep A to Z, then newest join date first: each key in its own direction
        t.add(at, Op("sort", {"by": t.sort_keys, "ascending": True, "descending": [c for c in t.sort_keys if own.get(c)], **direction}))
        return
    t.add(at, Op("sort", {"by": t.sort_keys, "ascending": ascending, **direction}))


AND_ORDER = lazy(r"\s(?:and\s+)?(?:then\s+)?(?:sort|rank|order)(?:ed)?\s+(?:it\s+|them\s+)?by(?![a-z_])|[，,]?\s*(?:并且|并|再)?按(?:它|这个|这列|新列)(?:来)?(?:排|从|由|降|升|倒)", re.I | re.A)
BY_IT = lazy(r"(?<![a-z_])by (?:it|that|this|the new (?:column|one))(?![a-z_])|按(?:它|这个|这列|这一列|新列)(?:来)?(?=\s*(?:排|从|由|降|升|倒))", re.I | re.A)
SORT_CLAUSE = lazy(r"[，,；;]|然后|再|(?<![a-z_])then(?![a-z_])", re.I)


def _key_directions(t: _Turn) -> dict[str, bool] | None:
    """Each sort key's own direction (True: largest or newest first) when the keys are said in clauses of their own
    and the directions differ (by Sales Rep, then by Join Date descending: the rep A to Z); None when one direction
    is every key's (by region and amount descending, 按金额排序，从高到低)."""
    keys = t.sort_keys
    if len(keys) < 2:
        return None
    cuts = [m.end() for m in SORT_CLAUSE.finditer(t.text)]
    def clause(i: int) -> int:
        return sum(1 for c in cuts if c <= i)
    at_key = {c: next((h.start for h in t.hits if h.column == c), None) for c in keys}
    said = [(m.start(), True) for m in DESC.finditer(t.text)] + [(m.start(), False) for m in ASC.finditer(t.text)]
    if not said or any(a is None for a in at_key.values()):
        return None  # a key not said by its name (read from a superlative's words): its clause is not known
    where = {c: clause(a) for c, a in at_key.items() if a is not None}
    dirs: dict[str, bool] = {}
    for at, desc in said:
        mine = [c for c in keys if where[c] == clause(at)]
        if not mine:
            return None  # a direction in a clause of its own is every key's
        for c in mine:
            dirs[c] = desc
    if len(dirs) == len(keys) and len(set(dirs.values())) < 2:
        return None
    return dirs


ASKED_NEXT = lazy(r"\s*(?:是)?多少(?:钱)?\s*[,，、]?\s*(?:和|与|及|以及|还有)?\s*")  # 应收多少(，)实收多少: a list of figures asked
LIST_JOIN = lazy(r"\s*(?:和|与|及|跟|以及|还有|、|，|,|and|&|plus)\s*", re.I | re.A)


NAMES_AFTER_COUNT = lazy(r"\s*(?:of\s+)?(?:(?:the|our|my)\s+)?(?:(?:different|distinct|unique|individual)\s+)?(?:不同的?|不一样的?)?\s*", re.I | re.A)


def _of_names(t: _Turn, h: ColumnHit) -> bool:
    """A hit of a column that holds names (neither figures nor dates, nor a yes and a no): what a count of it counts is
    its values (how many refunded bookings over Refunded Y/N: the rows the flag keeps, never its two values)."""
    from modes.conditions import flag_yes

    return h.column not in t.sheet.numeric and h.column not in t.sheet.dates and flag_yes(t.sheet, h.column) is None


def _names_after_count(t: _Turn, end: int) -> str | None:
    """The column of names a count word is said right before (多少个客户, number of customers), no key of the summary:
    what is counted is its different values; an orders table holds one customer on many rows."""
    at = NAMES_AFTER_COUNT.match(t.text, end)
    start = at.end() if at else end
    h = next((h for h in t.hits if h.start == start and h.how != "typo"), None)
    vehicle = re.search(r"(?:辆|台|部|架|艘)\s*$", t.text[:start]) is not None  # 多少辆车: a one-character noun after its measure word
    least = "1" if vehicle else "2"
    if h is None and (w := re.match(r"[\u4e00-\u9fff]{" + least + r",4}?(?=做|接|处理|负责|服务|接待|来|去|买|下单|用|办|签|参加|报名|上课|$|[，,。？?呢吗])",
                                    t.text[start:])):
        # 几个技师做过, over 技师工号: the one column of ids that starts with the word, repeated over the rows (a person's)
        lead = [c for c in t.sheet.columns if c.startswith(w.group(0)) and c in t.sheet.values and c not in t.group_keys]
        h = ColumnHit(start, start + len(w.group(0)), lead[0], "partial") if len(lead) == 1 and t.free(start) else None
        if h is not None:
            t.spans.append((h.start, h.end))
            return h.column
    if h is None or not _of_names(t, h) or h.column in t.group_keys:
        return None
    if ROW_ID.search(h.column) and not re.search(r"different|distinct|unique|不同|不一样", t.text[end:start], re.I):
        return None  # 数一下订单 over 订单号: the rows, each one order (repeated rows are said by the answer)
    return h.column


# the column that numbers the rows themselves (订单号, 运单号, Order ID, Job No): counted, it is the rows
ROW_ID = lazy(r"(?:号|编号|编码|单号|(?<![a-z])(?:id|no\.?|number|#))$", re.I)


NAMES_NUMBER = lazy(r"的?(?:个数|数量|人数|数目)|数(?![据量值字学额])")


def _names_counted_by_key(t: _Turn) -> str | None:
    """按商品统计客户数 / 每个商品有多少客户: a column of names, no key, counted with no count word of its own."""
    for b in DISTINCT_WORD_AFTER.finditer(t.text):  # 每个项目有几个技师做过: 技师 heads 技师工号, the one column that starts with it
        lead = [c for c in t.sheet.columns if c.startswith(b.group("w")) and c not in t.sheet.numeric and c not in t.sheet.dates and c not in t.group_keys]
        if len(lead) == 1 and not any(h.start <= b.start("w") < h.end for h in t.hits) and t.free(b.start("w")):
            t.spans += [b.span()]
            return lead[0]
    for h in t.hits:
        if not _of_names(t, h) or h.column in t.group_keys or h.how == "typo" or ROW_ID.search(h.column):
            continue
        said = NAMES_NUMBER.match(t.text, h.end) or DISTINCT_BEFORE.search(t.text, max(0, h.start - 24), h.start)
        if said is not None:
            t.spans += [said.span(), (h.start, h.end)]
            return h.column
    return None


# 平均每笔 / 平均每单 / 平均每次: the figure of each row, averaged (a measure word of the rows, never a column)
PER_ROW_AFTER = lazy(r"\s*(?:的)?\s*每(?:一)?(?:单|笔|次|张|条|趟|回|个订单|份)")


def _measure_at(t: _Turn, blanked: str, am: re.Match[str], agg: str, measures: list[dict[str, str]], unres: list[dict[str, Any]]) -> None:
    """The column one aggregate word (合计 / average) applies to: after it, before it, or 的-joined before it."""
    per = PER_ROW_AFTER.match(blanked, am.end())
    if per is not None and ASKED_TAIL.fullmatch(blanked[per.end() :].strip()):
        blanked = blanked[: am.end()] + " " * (per.end() - am.end()) + blanked[per.end() :]  # 那平均每笔呢: each row's, no column said
        t.spans.append(per.span())
    col, raw, how, closest, end = _col_after(blanked, am.end(), t.hits, t.sheet, numeric=agg in ("sum", "mean", "max", "min"))
    if how not in ("exact", "synonym"):  # average review score: the column the phrase ends in, never review_id for "review"
        head = next((h for h in t.hits if h.start >= am.end() and h.column in t.sheet.numeric and h.how in ("exact", "synonym")
                     and re.fullmatch(r"\s*(?:[A-Za-z]+\s+){0,2}|\s*[\u4e00-\u9fff]{1,4}", blanked[am.end() : h.start])
                     and not LIST_JOIN.fullmatch(blanked[am.end() : h.start])), None)  # 应收金额合计和实收金额合计: the next item
        if head is not None:
            col, raw, how, closest, end = head.column, blanked[head.start : head.end], head.how, [], head.end
    pre = [h for h in t.hits if (0 <= am.start() - h.end <= 2 or IN_BEFORE_TOTAL.fullmatch(blanked, h.end, am.start())) and h.column not in t.group_keys]
    if col is not None and how not in ("exact", "synonym") and pre:
        col = None  # 含税金额合计是多少: the column named before, never 是多少 read as part of 是否退货
    if col is None:
        if pre:
            col = pre[-1].column
            for h in _joined_before(pre[-1], t.hits, blanked):  # 销售额和件数合计: every column of the list
                if h.column not in t.group_keys:
                    measures.append({"column": h.column, "agg": agg})
        else:
            back = re.search(r"([\u4e00-\u9fff]{1,6})的\s*$", blanked[: am.start()])
            if back:
                raw = re.sub(r"^.*(?:里|中|内|在|把|的|算一下|计算|求)", "", back.group(1)) or back.group(1)
                col, how, closest = resolve_column(raw, t.sheet)
            elif (tight := NOUN_BEFORE_AGG.search(blanked, 0, am.start())) is not None and ASKED_TAIL.fullmatch(raw.strip()) and agg in ("sum", "mean", "max", "min") \
                    and not t.hits and not t.found:
                # 押金总额 / 押金这一列加起来, where no column is 押金: the word said is the column asked for, never every column
                if _a_noun(tight.group("w")):
                    col, how, closest = resolve_column(tight.group("w"), t.sheet)
                    raw = tight.group("w") if col is None else raw
    if col is None and raw and MONEY_SAID.fullmatch(raw.strip()):
        col = _money_column(t.sheet)  # 平均每单多少钱 / 平均每笔花多少: the table's one money column
    if col is None and ASKED_TAIL.fullmatch(raw.strip()) and not t.hits and agg == "sum" and (fig := _summary_figure(t.sheet)) is not None:
        col = fig  # 这两个馆加起来一共多少, on a total per sheet: that total's figure, over the groups shown
    made = _made_columns(t)
    if col is None and made and (IT_AFTER.match(blanked, am.end()) or IT_BEFORE.search(blanked, 0, am.start())):
        measures.append({"column": made[-1], "agg": agg})  # add a column Net = …, then total it for each sheet: the column made
        return
    if col is not None and col not in t.sheet.numeric and (size := ROW_SIZE.match(blanked, am.end())) is not None \
            and len(money := _money_columns(t.sheet)) == 1:
        col = money[0]  # the average deal size / order value, over Deal ID and Amount: each row's money
        t.spans.append(size.span())
    if col and agg in ("mean", "sum") and (col in t.group_keys or col not in t.sheet.numeric):
        return  # 各部门…公司平均的部门: a key or a text column is never averaged or added up
    if col and col not in t.sheet.numeric and flag_yes(t.sheet, col) is not None:
        return  # 只算逾期了的，最小值是多少: a yes-no column is the rows' condition, never a statistic's figure
    if col:
        measures.append({"column": col, "agg": agg})
        first = next((h for h in t.hits if h.column == col and am.end() <= h.start and h.end == end), None)
        for h in _joined_after(first, t.hits, blanked) if first is not None else []:  # 汇总数量和金额: every column of the list
            if h.column not in t.group_keys and h.column in t.sheet.numeric and {"column": h.column, "agg": agg} not in measures:
                measures.append({"column": h.column, "agg": agg})
    elif raw and raw.casefold() not in ("it", "一下", "up", "them", "all", "所有", "一", "instead", "then", "too", "also", "again", "please") \
            and not lx.TOP_N.match(raw.strip()) and not raw.strip().startswith("前") and not PARTICLES.fullmatch(raw.strip()) \
            and not lx.SORT.match(raw.strip()) and not (ASKED_TAIL.fullmatch(raw.strip()) and TOTAL_TOO.search(t.text)):
        # the mean instead: a word after the statistic names no column (合计最大的前5个 / sum descending: the cut or the order,
        # and 几单，总额多少: the money's total, are read by their own rules)
        unres.append({**_unres(raw, closest), "agg": agg})  # (the statistic kept for the column an answer names)


ROW_SIZE = lazy(r"\s*(?:the\s+)?(?:[a-z]+\s+)?(?:size|value|worth)s?(?![a-z_])", re.I | re.A)  # deal size / order value: a row's money

# spend in total / the fees in sum: the column just said is the one the statistic after "in" is of
IN_BEFORE_TOTAL = lazy(r"\s+in\s+", re.I | re.A)
def _a_noun(word: str) -> bool:
    """Whether the segmenter reads a word as nouns only (押金, 会员积分), never a verb said before a statistic (改成 /
    再加上); False without a segmenter."""
    from modes.tagging.segment import tokens

    toks = tokens(word)
    return bool(toks) and all(t.pos.startswith("n") for t in toks or [])


ASKED_TAIL = lazy(r"(?:一共|总共|总计|共)?(?:是|为|有)?(?:多少|几|啥|什么)?[呢吗？?。]*")  # (押金总额是多少: nothing named after the statistic)
# 押金总额 / 押金这一列加起来: a noun said right before a statistic (a column's name, or a column not there)
NOUN_BEFORE_AGG = lazy(r"(?:(?<=的)|(?<![\u4e00-\u9fff]))(?:就是|只要|把|将|算|求)?(?P<w>(?!一共|总共|所有|全部|整体|总体|全体|每|的|这|那|其|它|他|她)[\u4e00-\u9fff]{2,4}?)\s*(?:这一?列|一列|列)?\s*(?:的)?\s*$")
# the column just made, said as "it" beside a statistic (total it / 把它加起来)
IT_AFTER = lazy(r"\s*(?:up\s+)?(?:it|that|this|that column|this column|the new column)(?![a-z_])", re.I | re.A)
IT_BEFORE = lazy(r"(?:把|将)?\s*(?:它|它们|这一?列|新列|那一?列)\s*(?:都|全部)?\s*$")
SUM_SAID = lazy(r"合计|总和|总额|总计|加起来|加总|求和|之和|一共|总共|(?<![a-z_])(?:sum|total|totals|summed)(?![a-z_])", re.I | re.A)
PARTICLES = lazy(r"[呢吧吗啊呀嘛么了？?]+")  # 最大值呢: a sentence's particle, never a column


COUNT_ASKED = lazy(r"多少(?:单|笔|条|个|次|行|人|套|台|辆)|几(?:单|笔|条|个|次|行|人|套|台|辆)|(?<![a-z_])how many(?![a-z_])"
                   r"|(?:单子?|笔|条|订单|记录)\s*(?:一共|总共)?\s*有多少(?!钱|元|块)", re.I | re.A)  # 月结的单子有多少，运费合计多少


def _measures_beside(t: _Turn) -> list[dict[str, str]]:
    """汇总金额 / sum 数量 / 各产品的销售额: a numeric column named beside the verb or right after the key."""
    text = t.text
    measures: list[dict[str, str]] = []
    figures = _figure_words(t)  # 平均超过250: a summary's figure compared, never summed
    for h in t.hits:  # (add Net = Total - Qty, then summarise: the formula's columns are no figure of the summary)
        if h.column in t.sheet.numeric and h.column not in t.group_keys and not any(s <= h.start < e for s, e in t.key_spans + figures + t.formula_spans):
            gm = lx.GROUP.search(text[max(0, h.start - 6) : h.end + 6])
            after_key = any(0 <= h.start - e <= 2 and re.fullmatch(r"\s*的?\s*", text[e : h.start]) for _, e in t.key_spans)
            after_key = after_key or any(0 <= s0 - h.end <= 2 for s0, _ in t.key_spans)  # revenue by region
            after_key = after_key and not COMPARED_NEXT.match(text, h.end)  # per city earn more than 5000: compared, not added up
            verb = lx.GROUP.search(text)
            after_verb = verb is not None and h.start >= verb.end() and not re.match(r"\s*(?:[<>=≥≤]|大于|小于|超过|低于|不低于|不超过|以上|以下)", text[h.end :]) \
                and not COMPARED_NEXT.match(text, h.end)  # count rows where amount is at least 250: compared, not added up
            # 按是否异常比一下运费: the column said right after the verb that compares the groups
            after_compare = t.compare_groups and 0 <= h.start - t.compare_end <= 4 and re.fullmatch(r"\s*(?:一下)?\s*的?\s*", text[t.compare_end : h.start])
            if gm or after_key or after_verb or after_compare:
                measures.append({"column": h.column, "agg": "sum"})
                # 各类别的期末库存和库存金额: the columns listed with it are summed with it
                measures += [{"column": x.column, "agg": "sum"} for x in _joined_after(h, t.hits, text)
                             if x.column in t.sheet.numeric and x.column not in t.group_keys and not COMPARED_NEXT.match(text, x.end)]
                cur = h  # 应收多少实收多少: each column asked "how much" in turn
                while (asked := ASKED_NEXT.match(text, cur.end)) is not None \
                        and (nxt := next((x for x in t.hits if x.start == asked.end()), None)) is not None \
                        and ASKED_NEXT.match(text, nxt.end) and nxt.column in t.sheet.numeric and nxt.column not in t.group_keys:
                    measures.append({"column": nxt.column, "agg": "sum"})
                    cur = nxt
    verb = lx.GROUP.search(text) if not measures and CJK.search(text) else None
    if verb is not None and t.free(verb.end()):  # 按区域汇总回款, over 回款金额 / 回款日期 / 回款方式: the part that names a number
        col, raw, how, _, end = _col_after(text, verb.end(), t.hits, t.sheet, numeric=True)
        if col is not None and how == "partial" and col in t.sheet.numeric and col not in t.group_keys and not COMPARED_NEXT.match(text, end):
            measures.append({"column": col, "agg": "sum"})
            t.spans.append((end - len(raw), end))
    return [m for i, m in enumerate(measures) if m not in measures[:i]]


def _listed_aggs(t: _Turn, blanked: str, measures: list[dict[str, str]], unres: list[dict[str, Any]]) -> str:
    """维修费用的总和、平均值、最大值 / sum, mean and max of fee: every statistic of the list, of the one column it is said
    of; the list is blanked so that no word of it is read again alone."""
    for lm in list(AGG_LIST.finditer(blanked)):
        words = re.findall(_AGG_ONE, lm.group(0), re.I | re.A)
        aggs = list(dict.fromkeys(next(a for a, rx in AGG_OF_WORD if rx.match(w)) for w in words))
        if len(aggs) < 2 or any(lm.start() < h.start < lm.end() for h in t.hits):
            continue  # (average Total and total Qty: a column said between the statistics, each of its own)
        before = len(measures)
        _measure_at(t, blanked, lm, aggs[0], measures, unres)
        cols = list(dict.fromkeys(m["column"] for m in measures[before:]))
        measures += [{"column": c, "agg": a} for a in aggs[1:] for c in cols]
        blanked = blanked[: lm.start()] + " " * (lm.end() - lm.start()) + blanked[lm.end() :]
    return blanked


# list each MemberID once / show every customer name with no repeats: the column's distinct values
LIST_EACH_BEFORE = lazy(r"(?<![a-z_])(?:list|show|give|display|see)(?:\s+(?:me|us))?\s+(?:each|every|all(?:\s+the)?|the)\s+$", re.I | re.A)
ONCE_AFTER = lazy(r"\s*(?:(?:values?|names?|ids?)\s+)?(?:just\s+|only\s+)?(?:once|(?:without|with no|no)\s+(?:duplicates|repeats|dupes|repetitions?))(?![a-z_])", re.I | re.A)
# the distinct values asked to be shown, not counted: list the unique countries / 列出不重复的城市
LIST_DISTINCT = lazy(r"(?:(?<![a-z_])(?:list|show|display|give|what are|which are|see)(?:\s+(?:me|us))?(?:\s+(?:all|every))?(?:\s+(?:the|of the))?|列出|显示|看看)\s*(?:所有的?|全部的?)?\s*$", re.I | re.A)


# a ratio of two columns said as one figure (金额除以数量 / amount divided by qty / amount per qty, both figures)
PER_UNIT = lazy(r"\s+(?:per|divided by)\s+(?:each\s+)?(?P<w>[A-Za-z][A-Za-z_\-]{1,30})(?![A-Za-z_\-])", re.I | re.A)
RATIO_BETWEEN = lazy(r"\s*(?:的?(?:合计|总和|总额|之和|总计)\s*)?(?:除以|÷|/|(?<![a-z_])(?:divided by|over|per)(?![a-z_]))\s*", re.I | re.A)  # 实收金额合计除以…
# its name and the words that define it (客单价，就是… / conversion rate, i.e. …)
RATIO_DEFINES = lazy(r"\s*[，,:：]?\s*(?:就是|即|也就是说?|等于|指的是|定义为|算法是|=|(?<![a-z_])(?:i\.e\.?|meaning|which is|defined as|calculated as|computed as|=)(?![a-z_]))\s*$", re.I | re.A)
# a figure said as a rate (不良率 / attendance rate) with nothing that says what it divides
RATE_WORD = lazy(r"[\u4e00-\u9fff]{1,5}?(?:率|占比)|(?<![a-z_\-])[a-z][a-z\-]*(?:[ _][a-z\-]+)?[ _](?:rate|ratio)(?![a-z_])", re.I | re.A)
RATIO_NAME = lazy(r"((?<=[的各每])?[^\s的各每，,。:：]{0,12}?(?:率|比率|比例|占比|单价|均价|比)|(?<![a-z_])[a-z_]+(?:\s[a-z_]+)?\s(?:rate|ratio|share|percentage|price|cost|value))\s*$", re.I | re.A)


def _rule_ratio(t: _Turn) -> None:
    """各车间的不良率，就是不良数除以抽检数 / amount per qty by store: one figure per group that is the ratio of two
    columns' totals (never the average of each row's ratio). Read before the keys, so its words are no key; the
    summary (the two totals, then a column of their ratio on it) is made by the group rule, with the keys said."""
    if t.explore:
        return
    nums = [h for h in t.hits if h.column in t.sheet.numeric and t.free(h.start)]
    rows_noun = _row_noun_en(t.sheet)  # (per rental, over Rental ID and Rental Days: per row)
    pairs = [(a, b) for a, b in zip(nums, nums[1:], strict=False) if a.column != b.column and RATIO_BETWEEN.fullmatch(t.text[a.end : b.start])
             and not (b.how != "exact" and rows_noun is not None and t.text[b.start : b.end].casefold().rstrip("s") == rows_noun)]
    for a in nums if not pairs else ():  # revenue per kWh / revenue per minute: the unit a column is measured in, said alone
        m = PER_UNIT.match(t.text, a.end)
        col = resolve_column(m.group("w"), t.sheet, closest=False)[0] if m else None
        if m is not None and _row_noun_en(t.sheet) == m.group("w").casefold().rstrip("s"):
            break  # average Total Charged per rental, over rows numbered by Rental ID: per row, never per Rental Days
        if m is not None and col is not None and col != a.column and col in t.sheet.numeric:
            pairs.append((a, ColumnHit(m.start("w"), m.end("w"), col, "partial")))
            break
    for a, b in pairs:
        before = t.text[: a.start]
        defines = RATIO_DEFINES.search(before)
        named = RATIO_NAME.search(before[: defines.start()]) if defines else None
        name = named.group(1).strip() if named else f"{a.column}/{b.column}"
        said = before.rstrip(" ，,:：")
        rate = next(((s0, e0) for s0, e0 in _rate_words(said) if e0 == len(said) and e0 - s0 >= 2), None) if not named and said != before else None
        if rate is not None:  # 按小区算收缴率，实收金额合计除以应收金额合计: the rate said right before is the ratio's name
            name = t.text[rate[0] : rate[1]]
            t.spans += [(x.start(), x.end()) for x in re.finditer(re.escape(name), t.text)]
        t.ratio = (a.column, b.column, name)
        t.spans.append((a.start, b.end))
        if named:  # 各型号的不良率，…，不良率就是不良数除以抽检数: every mention of the name is that ratio
            t.spans += [(x.start(), x.end()) for x in re.finditer(re.escape(name), t.text)]
        if defines:
            t.spans.append((defines.start(), defines.end()))
        if named:
            t.spans.append((named.start(1), named.end(1)))
        return
    for a0, b0 in _rate_words(t.text):
        word = t.text[a0:b0]
        covered = any(h.start < b0 and a0 < h.end for h in t.hits)  # 视频位速率 → Video bit rate / average rate: a column said
        if t.free(a0) and not covered and len(word) >= 2 and word.casefold() not in lx.WORDS_NOT_RATES and t.hits:  # (市盈率 alone: no data named)
            t.rate_word = word  # asked how it is computed (two columns divided), never read as the column it shares words with
            t.spans.append((a0, b0))
            return


def _rate_words(text: str) -> list[tuple[int, int]]:
    """Where a rate is said as one word: English by the pattern, Chinese as the segmenter's word ending in 率 / 占比
    (with the word before it when 率 stands alone: 不良 + 率), so 各产品型号的不良率 gives 不良率."""
    out = []
    for m in RATE_WORD.finditer(text):
        if not CJK.search(m.group(0)):
            lead = re.match(r"(?:the|a|an|our|my|their|its|overall|average|avg)\s+", m.group(0), re.I)
            out.append((m.start() + (lead.end() if lead else 0), m.end()))  # the auto-renew rate: the rate's own words
    if "率" not in text and "占比" not in text:
        return out
    from modes.tagging import segment

    toks = segment.tokens(text)
    if toks is None:
        return out + [m.span() for m in RATE_WORD.finditer(text) if CJK.search(m.group(0))]
    for i, tk in enumerate(toks):
        if tk.word.endswith(("率", "占比")):
            prev = toks[i - 1] if i else None
            # 不良 + 率, and 续 + 费率 (a one-character head cut off a rate word): the word before is the rate's own
            joins = prev is not None and CJK.search(prev.word) is not None and prev.word not in "的各每按和与及、" and prev.end == tk.start \
                and (tk.word in ("率", "占比") or len(prev.word) == 1 and len(tk.word) == 2)
            out.append((prev.start if joins and prev is not None else tk.start, tk.end))
    return out


def _ratio_summary(t: _Turn) -> None:
    """The summary of a ratio read by _rule_ratio: the totals of both columns per key (or over every row), and the ratio
    as a column of that summary."""
    assert t.ratio is not None
    num, den, name = t.ratio
    total = "合计" if language(t.text) == "zh" else "sum"
    keys = [k for k in dict.fromkeys(t.group_keys) if k not in (num, den, name)]  # by class_type, attendance rate i.e. …
    if not keys and (lx.TOP_N.search(t.text) or lx.SORT.search(t.text)):
        # the top 3 campaigns by revenue/spend: each row's own ratio, a column of the rows, ranked
        t.add(0, Op("add_column", {"name": name, "left": num, "op": "/", "right": {"column": den}}))
        for i, (w, o) in enumerate(t.found):
            if o.kind in ("sort", "top_n"):
                t.found[i] = (w, Op(o.kind, {**o.args, "by": [name] if o.kind == "sort" else name}, o.after))
        return
    g: dict[str, Any] = {"keys": keys, "measures": [{"column": num, "agg": "sum"}, {"column": den, "agg": "sum"}]}
    if not keys:
        g["overall"] = True
    gm = lx.GROUP.search(t.gtext)
    at = gm.start() if gm else (t.key_spans[0][0] if t.key_spans else 0)
    t.add(at, Op("group", g))
    for i, (w, o) in enumerate(t.found):  # 从高到低 / top 2: the groups ranked by the ratio
        by = o.args.get("by")
        if o.kind in ("sort", "top_n") and (not by or by in (num, den, [num], [den])):
            t.found[i] = (w, Op(o.kind, {**o.args, "by": [name] if o.kind == "sort" else name}, after=True))
    t.add(at + 1, Op("add_column", {"name": name, "left": f"{num}_{total}", "op": "/", "right": {"column": f"{den}_{total}"}}, after=True))


def _rule_group(t: _Turn) -> None:
    """Group and summarise (各产品的销售额: "per" words alone ask for a grouping)."""
    if t.ratio is not None:
        _ratio_summary(t)
        return
    if t.rate_word is not None:
        t.grouping = True
    for h in t.hits:  # list each MemberID once / every customer name with no repeats: that column's distinct values
        head, once = LIST_EACH_BEFORE.search(t.gtext, 0, h.start), ONCE_AFTER.match(t.gtext, h.end)
        if head is not None and once is not None and h.column not in t.sheet.numeric and t.free(h.start) and not t.group_keys and not t.explore:
            t.add(head.start(), Op("group", {"keys": [h.column], "measures": [{"agg": "count"}], "question": True}))
            t.spans += [head.span(), once.span()]  # (the column stays free: a condition may name its blanks)
            return
    distinct = next((am for agg, rxp in AGG_WORDS if agg == "distinct" for am in rxp.finditer(t.gtext)
                     if _col_after(t.gtext, am.end(), t.hits, t.sheet)[0] is not None), None)
    if not (t.grouping or t.group_keys or distinct) or t.explore:
        return  # how many unique customers: a figure over the rows, summarised like a group
    listed = LIST_DISTINCT.search(t.gtext, max(0, distinct.start() - 40), distinct.start()) if distinct is not None and not t.group_keys else None
    if listed is not None and distinct is not None and listed.end() == distinct.start() and not COUNT_Q.search(t.text):
        col = _col_after(t.gtext, distinct.end(), t.hits, t.sheet)[0]
        t.add(listed.start(), Op("group", {"keys": [col], "measures": [{"agg": "count"}], "question": True}))  # list the unique countries: the values
        t.spans.append((listed.start(), distinct.end()))
        return
    if not t.group_keys and t.dedupe_keys and (lx.ONE_ROW_EACH.search(t.text) or _kept_one_each(t.text)):
        return  # one row per region: the keys choose rows, nothing is summarised
    measures: list[dict[str, str]] = []
    unres: list[dict[str, Any]] = []
    blanked = _blank(t.gtext, t.key_spans + [sp for sp, _ in t.having] + _figure_words(t))  # a having's statistic is read by its rule
    bare: list[str] = []  # 按季度求平均: a statistic said with no column
    blanked = _listed_aggs(t, blanked, measures, unres)
    measures += [m for _, m in t.having if m not in measures]  # the figure a having keeps groups by is computed
    totalled = [h for h in t.hits  # 每个项目的总工时 / 总金额 / 汇总金额: the column's total
                if h.column in t.sheet.numeric and h.start > 0 and t.text[h.start - 1] == "总" and not h.column.startswith("总") and t.free(h.start)]
    totalled += [h for h in t.hits  # 各个馆员收的逾期罚款总共多少: the column's total, asked after its name
                 if h.column in t.sheet.numeric and h not in totalled and h.column not in t.group_keys and t.free(h.start) and TOTAL_AFTER.match(t.text, h.end)
                 and not COUNT_ASKED.search(t.text)]
    for h in totalled:  # 汇总数量和金额: every column of the list said after it
        for x in [h, *_joined_after(h, t.hits, t.text)]:
            if x.column in t.sheet.numeric and x.column not in t.group_keys and {"column": x.column, "agg": "sum"} not in measures:
                measures.append({"column": x.column, "agg": "sum"})
    for agg, rxp in AGG_WORDS:
        for am in islice(rxp.finditer(blanked), MAX_KEYS):
            if agg == "count":
                named = _names_after_count(t, am.end()) or next(  # 每个商品有多少个客户 / number of customers per item / 客户人数
                    (h.column for h in t.hits if h.end == am.start() and _of_names(t, h) and h.column not in t.group_keys and h.how != "typo"
                     and not ROW_ID.search(h.column)), None)
                measures.append({"column": named, "agg": "distinct"} if named else {"agg": "count"})
            elif agg == "distinct":
                _measure_at(t, blanked, am, agg, measures, [])  # a word with no column after it (different from) says nothing
            else:
                before = len(measures) + len(unres)
                _measure_at(t, blanked, am, agg, measures, unres)
                bare += [agg] if len(measures) + len(unres) == before else []
    if t.group_keys and not any(m.get("agg") == "count" for m in measures) and _rows_counted_by_noun(t, blanked) is not None:
        measures.append({"agg": "count"})  # 每个维修工各有多少工单, over rows numbered by 工单号: the rows of each
    if not measures and t.group_keys and (named := _names_counted_by_key(t)) is not None:
        measures.append({"column": named, "agg": "distinct"})  # 每个商品有多少客户 / 按商品统计客户数: the different customers of each
    if t.measure_by is not None and not any(m.get("column") == t.measure_by for m in measures):
        # 按实收金额算: that column's figure, in place of one guessed from the words (多少钱: a money column); a count stays
        measures = [m for m in measures if "column" not in m] + [{"column": t.measure_by, "agg": bare[0] if bare else "sum"}]
        bare = []
    if not any("column" in m for m in measures):  # 每个区域最高的销售额 / the highest amount in each region: the largest value
        for agg, rxp in EXTREME_WORDS:
            for am in islice(rxp.finditer(blanked), MAX_KEYS):
                _measure_at(t, blanked, am, agg, measures, [])
    if not any("column" in m for m in measures):  # groups compared with no statistic said: their means (sheets compared: each one's total)
        measures += [dict(m, agg="sum" if t.flags.get("sheets_compared") else "mean") if t.compare_groups else m for m in _measures_beside(t)]
    if not any("column" in m for m in measures) and t.group_keys:  # 每个导购卖了多少件 / 卖了多少钱: the goods sold, or the money
        money = SOLD_FOR.search(t.text) or (MONEY_Q.search(t.text) and (SUM_Q.search(t.text) or EACH_Q.search(t.text)))  # (一共多少钱，按收费员分开看 / 各多少钱)
        sold = _quantity_column(t.sheet) if GOODS_Q.search(t.text) else _money_column(t.sheet) if money else None
        if sold is not None and sold not in t.group_keys:
            measures.append({"column": sold, "agg": "sum"})
    if t.rate_made is not None and t.group_keys:  # 各个发型师的提成，按实收的15%算: the commission of each, never 实收 itself
        name, of = t.rate_made
        measures = [m for m in measures if m.get("column") != of] + [{"column": name, "agg": bare[0] if bare else "sum"}]
    made = _made_columns(t)
    if not any("column" in m for m in measures) and made and t.group_keys and not any(m["agg"] == "count" for m in measures):
        measures.append({"column": made[-1], "agg": bare[0] if bare else "sum"})  # add Net = …, then summarise by Clerk: Net
        bare = []
    if bare and t.group_keys and not any("column" in m for m in measures):  # the statistic said, over each numeric column but the keys
        measures += [{"column": c, "agg": agg} for agg in dict.fromkeys(bare) for c in t.sheet.columns
                     if c in t.sheet.numeric and c not in t.group_keys]
    has_measure = [m for m in measures if "column" in m]
    if not measures and t.rows_by:
        measures = [{"agg": "count"}]
    if not has_measure and any(m["agg"] == "count" for m in measures):
        measures = [{"agg": "count"}]
    elif not t.group_keys and any(m["agg"] == "count" for m in measures) and COUNT_ASKED.search(t.text) \
            and not all(m["agg"] == "distinct" for m in has_measure):  # (多少个不同的客户: the distinct count is the count)
        measures = [{"agg": "count"}, *has_measure]  # How many, and total Parts Cost?: the count is asked too, and said
    else:
        measures = has_measure
    measures = [m for i, m in enumerate(measures) if m not in measures[:i]]  # total sales … whose total sales: one measure
    if not SUM_SAID.search(t.text):  # 按导购汇总金额的平均值: 汇总 is the verb, the average is the figure (never a total beside it)
        other = {m.get("column") for m in measures if m.get("column") and m["agg"] not in ("sum", "count")}
        measures = [m for m in measures if not (m["agg"] == "sum" and m.get("column") in other)]
    first: dict[str, int] = {}
    for h in t.hits:
        first.setdefault(h.column, h.start)
    measures.sort(key=lambda m: first.get(m.get("column", ""), len(t.text)))  # in the order written (sum of Freight …, average Weight …)
    args: dict[str, Any] = {"keys": list(dict.fromkeys(t.group_keys)), "measures": measures}
    if bare and not measures:
        args["aggs"] = list(dict.fromkeys(bare))  # the mean instead: the statistic said, for a correction to apply
    if t.versus_overall and args["keys"]:
        args["versus_overall"] = True
    if t.rate_word is not None:
        args["rate_word"] = t.rate_word
    if not args["keys"] and measures and all(m["agg"] == "distinct" for m in measures) and COUNT_Q.search(t.text):
        args["question"] = True  # 有几个不同的导购: the number is the answer
    if not args["keys"] and len(measures) > 1 and {"agg": "count"} in measures:
        args["question"] = True  # How many, and total Parts Cost?: the figures are the answer
    if unres:
        args["unresolved"] = unres
        t.unresolved(len(unres))
    gm = lx.GROUP.search(t.gtext)
    at = gm.start() if gm else (t.key_spans[0][0] if t.key_spans else 0)
    aggs = {m["agg"] for m in measures}
    if t.period_key is not None and len(aggs) == 1 and not unres and (args["keys"] or t.period_alone):
        agg = next(iter(aggs))  # 按门店和月份汇总金额: each store's figure per month of the date column
        cols = [m["column"] for m in measures if m.get("column")]
        t.add(at, Op("bucket", {"unit": t.period_key, "column": t.period_col or sorted(t.sheet.dates)[0], "agg": agg, **({"by": args["keys"]} if args["keys"] else {}),
                                **({"value": cols[0], "values": cols[1:]} if cols and agg != "count" else {})}))
        t.spans.append((gm.start(), gm.end()) if gm else (0, 0))
        return
    t.add(at, Op("group", args))
    t.spans.append((gm.start(), gm.end()) if gm else (0, 0))


ROWS_NOT_COLUMNS = re.compile(r"大于|小于|高于|低于|超过|不到|不足|少于|多于|等于|不为空|为空|非空|[<>=≥≤]|的行|的记录|"
                              r"(?:是|为|属于)[^,，。;；]{1,20}?的|"  # 只保留绩效是A或B的: which rows
                              r"(?<![a-z_])(?:rows?|records?|where|whose|who|(?:more|less|fewer|greater|higher|lower) than|at (?:least|most)|over|under|above|below)(?![a-z_])", re.I | re.A)


HAVING_AGG = {"mean": r"平均值|平均数|平均|均值|(?<![a-z_])(?:average|mean|avg)(?![a-z_])",
              "sum": r"总和|合计|总计|总额|总|(?<![a-z_])(?:total|sum of(?: the)?|sum)(?![a-z_])"}
CMP_WORDS = "|".join(f"(?P<{op}>{p})" for op, p in INFIX[:-1] if op in ("ge", "le", "gt", "lt"))  # one named group per comparison
HAVING_CMP = lazy(r"\s*(?:的)?\s*(?:is\s+|are\s+)?(?P<op>" + CMP_WORDS + r")\s*(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<unit>万|千|k)?(?:\s*(?:块钱|块|元|分钟|小时|天|单|次|个|件|人|辆))?", re.I | re.A)
# the groups a condition on an aggregate keeps: 的部门 / 的城市 after it, or "cities whose …" before it
HAVING_KEY_AFTER = lazy(r"\s*(?:的|之)\s*(?P<k>[\u4e00-\u9fffA-Za-z_]{1,12})")
HAVING_KEY_BEFORE = lazy(r"(?P<k>[A-Za-z_]+?)(?:es|s)?\s+(?:whose|with|where|that have|having|(?:that|which)\s+(?:are|is|were|was|have|had)"
                         r"|are|is|were|have|has|had)(?:\s+(?:an?|the))?\s*$", re.I)
HAVING_KEY_BEFORE_ZH = lazy(r"(?:哪些|哪几个|哪个|哪一些|各个?|每个|每一个)\s*(?P<k>[\u4e00-\u9fffA-Za-z_]{1,8}?)\s*的?\s*$")
# the comparison said before the figure it compares (states above 500k in total revenue, 超过50万的总销售额)
HAVING_CMP_FIRST = lazy(r"(?P<op>" + CMP_WORDS + r")\s*(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<unit>万|千|k)?\s*(?:的|in|of|on|for|by)?\s*(?:the\s+|its\s+|their\s+)?"
                        r"(?P<agg>" + "|".join(f"(?P<{a}>{w})" for a, w in HAVING_AGG.items()) + r")\s*(?:的)?\s*$", re.I | re.A)


def _bound(m: re.Match[str]) -> float:
    """The number a comparison is against, with its unit (20万, 500k)."""
    return float(m.group("n").replace(",", "")) * {"万": 1e4, "千": 1e3, "k": 1e3}.get((m.group("unit") or "").casefold(), 1)


def _column_at_start(word: str, sheet: SheetInfo) -> str | None:
    """The column the longest start of a word names (客户有哪些 -> 客户名称, hotel有哪些 -> hotel), two characters at least.
    A word in letters names a column whole or as its singular, never by its first letters (regions is no created_at)."""
    m = re.match(r"[A-Za-z_]+", word)
    if m is not None:
        w = m.group(0)
        forms = dict.fromkeys((w, re.sub(r"ies$", "y", w), re.sub(r"([sxz]|ch|sh)es$", r"\1", w), re.sub(r"s$", "", w),
                               *(w[:n] for n in range(len(w) - 1, max(3, len(w) - 3), -1))))  # countri(es): a stem of the name
        return next((c for f in forms if len(f) >= 2 and (c := resolve_column(f, sheet, closest=False)[0]) is not None), None)
    return next((c for n in range(len(word), 1, -1) if (c := resolve_column(word[:n], sheet, closest=False)[0]) is not None), None)


def _having_at(t: _Turn, h: ColumnHit) -> tuple[str, int, int, str, float] | None:
    """(agg, start, end, op, value) for 平均月薪大于10000 / 月薪总和超过20万 / total sales over 70000 at this column."""
    for agg, words in HAVING_AGG.items():
        # 平均每单实付金额超过50的骑手: the figure of each row, averaged per group (每单 / 每笔 between the statistic and its column)
        before = re.search(r"(?:" + words + r")\s*(?:的)?\s*(?:每(?:一)?(?:单|笔|次|张|个订单)\s*(?:的)?\s*)?$", t.text[: h.start], re.I | re.A)
        after = re.match(r"\s*(?:的)?\s*(?:" + words + r")", t.text[h.end :], re.I | re.A)
        if not (before or after):
            continue
        end = h.end + (after.end() if after else 0)
        m = HAVING_CMP.match(t.text, end)
        if m is None:
            continue
        op = next(k for k in ("ge", "le", "gt", "lt") if m.group(k))
        value = _bound(m)
        return agg, before.start() if before else h.start, m.end(), op, tidy(value)
    m = HAVING_CMP_FIRST.search(t.text[: h.start])
    if m is not None:  # above 500k in total revenue: the comparison first, then the figure it is about
        op = next(k for k in ("ge", "le", "gt", "lt") if m.group(k))
        agg = next(a for a in HAVING_AGG if m.group(a))
        value = _bound(m)
        return agg, m.start(), h.end, op, tidy(value)
    return None


def _having_of_key(t: _Turn, h: ColumnHit) -> tuple[str, int, int, str, float] | None:
    """按服务类型看金额合计，金额超过3万的服务类型 / total amount per vet, vets with amount over 100: a column compared with
    a number and said of the groups (的服务类型 after it, vets with before it), its statistic said with the same column
    elsewhere in the request: a condition on that statistic of each group."""
    m = HAVING_CMP.match(t.text, h.end)
    if m is None or not t.group_keys:
        return None
    after = HAVING_KEY_AFTER.match(t.text, m.end())
    before = HAVING_KEY_BEFORE.search(t.text[: h.start]) or HAVING_KEY_BEFORE_ZH.search(t.text[: h.start])
    said = (after is not None and _column_at_start(after.group("k"), t.sheet) in t.group_keys) \
        or (before is not None and resolve_column(re.sub(r"ies$", "y", before.group("k")), t.sheet, closest=False)[0] in t.group_keys)
    if not said:
        return None
    aggs = {agg for x in t.hits if x.column == h.column and x is not h for agg, words in HAVING_AGG.items()
            if re.search(r"(?:" + words + r")\s*(?:的)?\s*$", t.text[: x.start], re.I | re.A) or re.match(r"\s*(?:的)?\s*(?:" + words + r")", t.text[x.end :], re.I | re.A)}
    if len(aggs) != 1:
        return None
    op = next(k for k in ("ge", "le", "gt", "lt") if m.group(k))
    return aggs.pop(), h.start, m.end(), op, tidy(_bound(m))


# a condition on the group's figure said without its column: cities with an average below 7 / 只要平均值低于3.4的
BARE_HAVING = lazy(r"(?:(?<![a-z_])(?:an?|the|its|their)\s+)?(?P<agg>" + "|".join(f"(?P<{a}>{w})" for a, w in HAVING_AGG.items()) + r")(?![a-z_])"
                   r"(?:\s*(?:值|数))?", re.I | re.A)


def _rule_bare_having(t: _Turn) -> None:
    """按城市算平均评分，只要平均值低于7的 / average score by city, only cities with an average below 7: the statistic
    said with no column of its own, compared with a number, is a condition on the one figure the request summarises."""
    if t.having or not (t.group_keys or t.grouping):
        return
    for m in BARE_HAVING.finditer(t.text):
        c = HAVING_CMP.match(t.text, m.end())
        if c is None or not t.free(m.start()) or any(h.start <= m.start() < h.end or m.end() <= h.start <= m.end() + 2 for h in t.hits):
            continue
        agg = next(a for a in HAVING_AGG if m.group(a))
        figures = [h for h in t.hits if h.column in t.sheet.numeric and h.column not in t.group_keys and t.free(h.start)
                   and not (m.start() <= h.start < c.end())]
        if len({h.column for h in figures}) != 1:
            return  # no figure, or several: which one the condition is on is not said
        from tools.ops import measure_name

        col = figures[0].column
        op = next(k for k in ("ge", "le", "gt", "lt") if c.group(k))
        lang = "en" if language(t.text) == "en" else "zh"
        cond = Cond(measure_name(col, agg, lang), op, tidy(_bound(c)), raw=t.text[m.start() : c.end()], how="aggregate")
        t.grouping = True
        t.add(c.end(), Op("having", {"conditions": [cond], "measure": {"column": col, "agg": agg}}))
        t.spans.append((m.start(), c.end()))
        t.having.append(((m.start(), c.end()), {"column": col, "agg": agg}))
        return


# a condition on how many rows each group has: hotels with more than 400 bookings, 订单数大于20的客户, 单数超过20的始发地
COUNT_HAVING_EN = lazy(r"(?P<k>[A-Za-z_]+?)(?:es|s)?\s+(?:with|having|that have|which have|who have|have|has|whose (?:number of|count of) \w+ is)\s+"
                       r"(?:" + CMP_WORDS + r")\s*(?P<n>\d[\d,]*)\s*(?P<noun>[A-Za-z]+)?", re.I | re.A)
COUNT_HAVING_ZH = lazy(r"(?:[\u4e00-\u9fff]{0,4}?(?:单数|订单数|次数|笔数|人数|行数|记录数|单量|件次|数量?))\s*(?:" + CMP_WORDS + r")\s*(?P<n>\d[\d,]*)\s*(?:单|次|笔|人|条|个)?"
                       r"\s*的\s*(?P<k>[\u4e00-\u9fffA-Za-z_]{1,8})", re.I | re.A)
# only groups where the count is over 200 / 计数大于200的组: the groups already named, by their row count
GROUP_WORDS = frozenset({"组", "分组", "组别"})
COUNT_HAVING_GROUPS = lazy(r"(?:groups?|ones?)?\s*(?:where|whose|with|having)\s+(?:the\s+|their\s+)?(?:count|row count|rows|number of (?:rows|records|\w+))"
                           r"\s+(?:is\s+|are\s+)?(?:" + CMP_WORDS + r")\s*(?P<n>\d[\d,]*)"
                           r"|(?:计数|行数|个数|数量|次数)\s*(?:" + CMP_WORDS.replace("?P<", "?P<z") + r")\s*(?P<zn>\d[\d,]*)\s*的(?:组|分组)", re.I | re.A)
# students who booked more than once / customers that ordered at least 3 times: each key's rows counted, said as how often
COUNT_TIMES_EN = lazy(r"(?P<k>[A-Za-z_]+?)(?:es|s)?\s+(?:(?:who|that|which)\s+)?(?:have\s+|has\s+|had\s+)?[a-z]+\s+(?:" + CMP_WORDS
                      + r")\s*(?P<n>once|twice|thrice|\d+\s*times)(?![a-z_])", re.I | re.A)
TIMES = {"once": "1", "twice": "2", "thrice": "3"}
# only where rows > 1, said alone after a count per key: the groups of that summary kept by their count
ROWS_LEFT_ALONE = lazy(r"\s*(?:(?:and|but|now)\s+)?(?:only|just|keep(?: only)?)\s+(?:the\s+)?(?:ones?\s+|groups?\s+)?(?:where|whose|with|having)\s", re.I | re.A)
# the plural noun right before a "by", or the blanked name of a table whose rows are such nouns (closed tickets by team)
ROW_NOUN_BEFORE = lazy(r"(?:(?<![a-z_])(?P<n>[a-z]+s)|(?:^|[a-z])\s{3,})\s+$", re.I | re.A)
ROW_NOUNS_EN = frozenset(("booking", "order", "record", "row", "ticket", "visit", "sale", "transaction", "entry", "entrie", "case", "claim",
                "shipment", "trip", "admission", "review", "call", "complaint", "employee", "customer", "item", "invoice"))


AMOUNT_UNITS = frozenset({"usd", "dollars", "dollar", "euros", "euro", "eur", "gbp", "pounds", "yuan", "rmb", "cny", "k", "m", "percent", "pct",
                          "points", "point", "hours", "hour", "days", "day", "minutes", "km", "kg", "units", "unit"})


def _rows_noun(noun: str, sheet: SheetInfo) -> bool:
    """bookings / leads / tickets in "hotels with more than 400 bookings": what the rows are, counted; never a figure
    (5000 revenue, 200 usd) or a numeric column's name."""
    word = noun.casefold()
    if word.rstrip("s") in ROW_NOUNS_EN or word in ("in", "on", "at", "from", "of", "for", "per", "by", "and", "or", "the"):
        return True  # … more than 200 in leads.csv: the rows of the table named (its name read as the file)
    col = resolve_column(word, sheet, closest=False)[0] or resolve_column(re.sub(r"s$", "", word), sheet, closest=False)[0]
    concept = lx.concept_of(word) or lx.concept_of(re.sub(r"s$", "", word))
    return (word not in AMOUNT_UNITS and concept not in lx.HEAD_CONCEPTS and (col is None or col not in sheet.numeric)
            and len(word) >= 3 and word.isalpha())


# 超过35单的门店 / 哪些门店的工单超过35单: a bound counted in rows (a classifier after the number), never a figure
COUNT_UNIT_ZH = lazy(r"(?:" + CMP_WORDS + r")\s*(?P<n>\d[\d,]*)\s*(?:单|次|笔|人|条|个|件|家|位|名|张|台|辆|户|份)"
                     r"(?!月|小时|钟|工作日|星期|礼拜|季度|百分点|点|元|块)", re.I | re.A)


def _unit_count_key(t: _Turn, m: re.Match[str]) -> str | None:
    """The groups a bound in rows keeps: the one key already named, the column after 的, or the one named before it."""
    if any(h.column in t.sheet.numeric and 0 <= m.start() - h.end <= 2 for h in t.hits):
        return None  # 数量超过35个的订单: a figure's bound, a condition on rows
    if len(t.group_keys) == 1:
        return t.group_keys[0]
    after = HAVING_KEY_AFTER.match(t.text, m.end())
    if after is not None:
        word = after.group("k")
        col = resolve_column(word, t.sheet, closest=False)[0] or _column_at_start(word, t.sheet)
        if col is not None:
            return col if col not in t.sheet.numeric else None
    lo = max((x.end() for x in CLAUSE_END.finditer(t.text, 0, m.start())), default=0)
    before = [h.column for h in t.hits if lo <= h.start and h.end <= m.start() and h.column not in t.sheet.numeric and t.free(h.start)]
    return before[-1] if len(set(before)) == 1 else None


def _rule_count_having(t: _Turn) -> None:
    """hotels with more than 400 bookings / 订单数大于20的客户: each key's rows counted, the groups over the bound kept."""
    if t.having or t.has("having"):
        return
    m = COUNT_HAVING_EN.search(t.text)
    if m is not None and m.group("noun") and not _rows_noun(m.group("noun"), t.sheet):
        m = None  # regions with more than 5000 revenue: a figure of a column, read by the having rule
    if m is None:
        m = COUNT_HAVING_ZH.search(t.text)
        m = None if m is not None and m.group("k") in GROUP_WORDS else m  # 只保留行数大于1的组: the groups, no column named 组
    if m is None:
        m = COUNT_TIMES_EN.search(t.text)
    if m is None and (u := COUNT_UNIT_ZH.search(t.text)) is not None and (key := _unit_count_key(t, u)) is not None:
        if key not in t.group_keys:
            t.group_keys.append(key)
            t.add(u.start(), Op("group", {"keys": [key], "measures": [{"agg": "count"}]}))
        _keep_counted(t, u, next(k for k in ("ge", "le", "gt", "lt") if u.group(k)), u.group("n"))
        return
    if m is None:
        g = COUNT_HAVING_GROUPS.search(t.text)
        if g is not None and len(t.group_keys) <= 1 and (t.group_keys or ROWS_LEFT_ALONE.match(t.text)):  # only groups where the count is over 200: the groups already named
            zh = g.group("zn") is not None
            _keep_counted(t, g, next(k for k in ("ge", "le", "gt", "lt") if g.group(("z" if zh else "") + k)), g.group("zn" if zh else "n"))
        return
    word = m.group("k")
    col = resolve_column(word, t.sheet, closest=False)[0] or resolve_column(re.sub(r"ies$", "y", word), t.sheet, closest=False)[0]
    if col is None:  # 的客户有哪些 / 的hotel有哪些: the longest start that names a column
        col = _column_at_start(word, t.sheet)
    if col is None or col in t.sheet.numeric:
        return
    op = next(k for k in ("ge", "le", "gt", "lt") if m.group(k))
    bound = TIMES.get(m.group("n").casefold(), re.sub(r"\s*times$", "", m.group("n"), flags=re.I))
    counted = next((c for c in t.sheet.columns if c in t.sheet.numeric and c.casefold() in ("行数", "rows", "count", "计数")), None)
    if counted is not None and len(t.sheet.values.get(col, ())) == t.sheet.rows > 0:
        # which technicians have more than 5, on a count per technician: its rows kept by their count, never counted again
        t.add(m.start(), Op("filter", {"conditions": [Cond(counted, op, tidy(float(bound.replace(",", ""))), raw=m.group(0), how="exact")],
                                       "logic": "and", "delete": False}))
        t.spans.append(m.span())
        t.compared.append(m.span())  # (the comparison is read: never a bare one asked about)
        return
    if col not in t.group_keys:
        t.group_keys.append(col)
    t.add(m.start(), Op("group", {"keys": [col], "measures": [{"agg": "count"}]}))
    _keep_counted(t, m, op, bound)


def _keep_counted(t: _Turn, m: re.Match[str], op: str, bound: str) -> None:
    """The having that keeps the groups whose row count meets the bound (the summary's row-count column)."""
    from tools.ops import ROWS

    t.grouping = True
    cond = Cond(ROWS["en" if language(t.text) == "en" else "zh"], op, tidy(float(bound.replace(",", ""))), raw=m.group(0), how="aggregate")
    t.add(m.end(), Op("having", {"conditions": [cond], "measure": {"agg": "count"}}))
    t.spans.append(m.span())
    t.having.append((m.span(), {"agg": "count"}))


def _rule_having(t: _Turn) -> None:
    """A condition on an aggregate of each group (平均月薪大于10000的城市, cities whose total sales is over 70000) is kept
    for the summary: a having, never a condition on the rows."""
    from tools.ops import measure_name

    for h in t.hits:
        if h.column not in t.sheet.numeric or not t.free(h.start):
            continue
        found = _having_at(t, h)
        keyed_only = found is None
        found = found or _having_of_key(t, h)
        if found is None:
            continue
        agg, a, b, op, value = found
        key = HAVING_KEY_AFTER.match(t.text, b)
        col = None
        if key is not None:  # 的部门有哪些: the longest start of the words after 的 that names a column
            col = _column_at_start(key.group("k"), t.sheet)
        if col is None and (zh := HAVING_KEY_BEFORE_ZH.search(t.text[:a])) is not None:  # 哪些部门的平均月薪大于12000
            col = resolve_column(zh.group("k"), t.sheet, closest=False)[0]
            if col is not None:
                t.spans.append(zh.span())
        if col is None:
            back = HAVING_KEY_BEFORE.search(t.text[:a])
            word = re.sub(r"ies$", "y", back.group(0).split()[0]) if back else ""
            col = resolve_column(word, t.sheet, closest=False)[0] or resolve_column(back.group("k"), t.sheet, closest=False)[0] if back else None
            prev = re.search(r"([A-Za-z]+)\s+$", t.text[: back.start()]) if back is not None and col is None else None
            if prev is not None and back is not None:  # hotel ids whose …: a name of two words (hotel_id)
                col = resolve_column(f"{prev.group(1)} {back.group('k')}", t.sheet, closest=False)[0]
                back = re.search(re.escape(prev.group(0)) + re.escape(back.group(0)) + "$", t.text[:a]) if col is not None else back
            if col is not None and back is not None:
                t.spans.append((back.start(), back.end()))
        if col is None and not t.group_keys:
            continue  # no groups named: a figure over the rows, left to the question rules
        if keyed_only and col not in t.group_keys:
            continue  # (金额超过1000的服务类型, after 按服务类型看金额合计: the groups said before, and their figure)
        if col is not None and col not in t.group_keys:
            t.group_keys.append(col)
        t.grouping = True
        lang = "en" if language(t.text) == "en" else "zh"
        cond = Cond(measure_name(h.column, agg, lang), op, value, raw=t.text[a:b], how="aggregate")
        t.add(b, Op("having", {"conditions": [cond], "measure": {"column": h.column, "agg": agg}}))
        t.spans.append((a, b + (key.end() - b if key and col else 0)))
        t.having.append(((a, b), {"column": h.column, "agg": agg}))


# which plans brought in more than 5000 / 哪些套餐卖了超过5000 / 收了不到1万的门店: the groups kept by the money they took, said
# as a verb of money with no column named (the table's one money column, totalled per group)
@cache
def _money_having() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The groups kept by the money they took (lexicon: words.toml [money_having]), in English and in Chinese."""
    from modes.tagging.segment import word_alternation as alt
    from modes.tagging.segment import words_toml

    w = words_toml()["money_having"]
    en, zh = f"(?:{alt(w['verbs_en'])})", f"(?:{alt(w['verbs_zh'])})"
    return (re.compile(r"(?P<k>[A-Za-z_]+?)(?:es|s)?\s+(?:(?:that|which|who)\s+)?(?:have\s+|has\s+|had\s+)?" + en
                       + r"\s+(?:a\s+total\s+of\s+|in\s+total\s+)?(?:" + CMP_WORDS + r")\s*\$?\s*(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<unit>k)?(?![\d.])", re.I | re.A),
            re.compile(r"(?:哪些|哪几个|哪个)\s*(?P<k>[\u4e00-\u9fffA-Za-z_]{1,8}?)\s*(?:一共|总共|合计)?\s*" + zh
                       + r"\s*(?:" + CMP_WORDS + r")\s*(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<unit>万|千)?\s*(?:元|块)?"
                       r"|" + zh + r"\s*(?:" + CMP_WORDS.replace("(?P<", "(?P<z") + r")\s*(?P<zn>\d[\d,]*(?:\.\d+)?)\s*(?P<zunit>万|千)?\s*(?:元|块)?\s*的\s*(?P<zk>[\u4e00-\u9fffA-Za-z_]{1,8})",
                       re.I | re.A))


def _rule_money_having(t: _Turn) -> None:
    """A group kept by the money it took, said as a verb (which plans brought in more than 5000, 卖了超过5000的套餐): the
    table's one money column totalled per group, and a condition on that total — never a condition on each row."""
    if t.having:
        return
    money = _money_column(t.sheet)
    m = next((x for rx in _money_having() for x in rx.finditer(t.text) if t.free(x.start())), None)
    if m is None or money is None or any(h.column in t.sheet.numeric and m.start() <= h.start < m.end() for h in t.hits):
        return  # (sessions that sold more than 5 of Amount: a column named is read by the rules of columns)
    z = "z" if m.groupdict().get("zk") else ""  # (卖了超过5000的套餐: the groups said after the figure)
    key = _column_at_start(m.group(z + "k"), t.sheet)
    if key is None or key in t.sheet.numeric:
        return
    from tools.ops import measure_name

    op = next(k for k in ("ge", "le", "gt", "lt") if m.group(z + k))
    value = float(m.group(z + "n").replace(",", "")) * {"万": 1e4, "千": 1e3, "k": 1e3}.get((m.group(z + "unit") or "").casefold(), 1)
    lang = "en" if language(t.text) == "en" else "zh"
    cond = Cond(measure_name(money, "sum", lang), op, tidy(value), raw=m.group(0), how="aggregate")
    if key not in t.group_keys:
        t.group_keys.append(key)
    t.grouping = True
    t.add(m.end(), Op("having", {"conditions": [cond], "measure": {"column": money, "agg": "sum"}}))
    t.spans.append(m.span())
    t.having.append((m.span(), {"column": money, "agg": "sum"}))


ALL_ROWS_KEPT = lazy(r"(?:每|所有|全部)(?:一)?(?:条|行|笔)?(?:记录|行|数据|报名|订单)?(?:都|全都|全部)?(?:要)?保留|保留(?:所有|全部|每一?)(?:条|行)?(?:的)?(?:记录|行|数据)"
                     r"|(?<![a-z_])keep (?:all|every) (?:the )?(?:rows?|records?)(?![a-z_])", re.I | re.A)


def _rule_select(t: _Turn) -> None:
    """Keep some columns: 只要姓名和电话; the columns named before 两列. Each keep-word is tried in turn (keep rows where
    …; keep columns A, B: the second says the columns)."""
    every = ALL_ROWS_KEPT.search(t.text)
    if every is not None:  # 每条记录都保留 / keep every row: which rows stay (all of them), never which columns
        t.spans.append(every.span())
    ms = [m for m in islice(lx.SELECT.finditer(t.text), 4) if every is None or not (every.start() <= m.start() < every.end())]
    if not ms:
        _select_at(t, None)
        return
    found = len(t.found)
    for m in ms:  # the first as always; when it says which rows, a later one may say the columns
        _select_at(t, m)
        if len(t.found) > found or t.has("select"):
            return


def _select_at(t: _Turn, m: re.Match[str] | None) -> None:
    if m and t.has("dedupe") and (lx.ONE_ROW_EACH.match(t.text, m.start()) or not t.free(m.start())):
        return  # 保留一行 of each key / 保留最新的一条: which rows, read by the dedupe rule
    if not m and not t.found:
        nc = N_COLS.search(t.text)
        if nc and (t.text[max(0, nc.start() - 1) : nc.start()] in ("这", "那", "该") or BROUGHT_IN.search(t.text, 0, nc.start())):
            nc = None  # 加上是否处方药那一列: the column brought in, never the only one kept
        if nc and any(h.end <= nc.start() for h in t.hits):
            m = re.match(r"", t.text)  # the columns named before "两列" are the selection
    rest = t.text[m.end() :] if m else ""
    if m and ROWS_NOT_COLUMNS.search(rest) and not re.search(r"列|字段|columns?", rest, re.I):
        return  # 只保留金额大于100的行 / keep only rows where …: which rows, left to the filter rule
    if m and KEPT_CUT.match(rest):
        return  # keep top 1 / 只保留前3个: which rows, read by the top-N rule
    if m and KEPT_EXTREME.match(rest):
        return  # 每个门店只留实付金额最高的那一单 / keep the latest booking: the row with the extreme, read by the top-N rule
    if m and not t.explore and not t.has("select"):
        # the columns kept are those of the clause that says so (只保留姓名和月薪两列，月薪大于15000的: the rest is a filter)
        end = len(t.text)
        for stop in CLAUSE_END.finditer(t.text, m.end()):  # a comma inside a list of columns (company, country and …) goes on
            nxt = re.match(r"[\s，,]*(?:and\s+|和|及|以及)?", t.text[stop.end() :], re.I)
            at = stop.end() + (nxt.end() if nxt else 0)
            listed = next((h for h in t.hits if h.start == at), None)
            said_columns = re.search(r"(?:列|字段|columns?)\s*$", t.text[m.end() : stop.start()], re.I)
            if listed is None or said_columns or COMPARED_NEXT.match(t.text, listed.end):
                end = stop.start()
                break
        clause = t.text[m.end() : end]
        if find_values(clause, t.sheet, []) and not re.search(r"列|字段|columns?", clause, re.I):
            return  # keep only the North region: a value of a column, so which rows, left to the filter rule
        named = [h for h in t.hits if m.start() - 1 <= h.start < end and t.free(h.start)]
        if named and all(COMPARED_NEXT.match(t.text, h.end) or DATED_NEXT.match(t.text, h.end) or RELATIVE_NEXT.match(t.text, h.end) for h in named):
            return  # keep tickets with opened_at on or after 2025-08-01 / keep customers that don't start with Mr: which rows
        if named and all(flag_yes(t.sheet, h.column) is not None and FLAG_ROWS_NEXT.match(t.text, h.end) for h in named):
            return  # keep only the won ones / the won deals: the rows the flag says yes to, read by the filter rule
        cols = _through(named, t)
        t.add(m.start(), Op("select", {"columns": list(dict.fromkeys(cols))}))
        t.spans.append((m.start(), end))


CLAUSE_END = lazy(r"[，,；;。]")
FLAG_ROWS_NEXT = lazy(r"\s*(?!columns?(?![a-z_]))(?:ones?|[a-z]{3,}s)(?![a-z_])|\s*的\s*(?!列|字段)[\u4e00-\u9fff]", re.I | re.A)  # won ones / won deals: rows
KEPT_CUT = lazy(r"\s*(?:only\s+|just\s+)?(?:the\s+)?(?:top|bottom|first|last|highest|lowest)\s+(?:\d+|one|two|three|five|ten)(?![a-z_])|\s*(?:前|后|最高的|最低的)\s*(?:\d+|[一二两三四五六七八九十]+)\s*(?:个|名|行|条|位|家)?", re.I | re.A)
KEPT_EXTREME = lazy(r"\s*(?:[一1]|\d+)\s*(?:单|行|条|笔)(?![数])|[^，,；;。]{0,16}?(?:最(?:高|大|低|小|多|少|新|晚|早|贵|便宜|近)|(?<![a-z_])(?:highest|lowest|largest|smallest|latest|earliest|newest|oldest|biggest))"
                    r"\s*(?:的)?\s*(?:那|这)?\s*(?:[一1])?\s*(?:单|行|条|笔|次|件|张|个|位|名|(?:row|one|record|booking|order|entry)(?![a-z_]))", re.I)
RELATIVE_NEXT = lazy(r"\s+(?:that|which|who|whose|where)(?![a-z_])", re.I | re.A)  # customers that …: the rows said by a clause about them
AGG_AHEAD = lazy(r"\s*(?:the\s+)?(?:total|sum|summed|average|avg|mean|median|overall|combined)(?![a-z_])", re.I | re.A)
NOT_BY = lazy(r"(?:不是|而不是|并非|不要|(?<![分特区类级性个])别|不再|(?<![a-z_])(?:not|rather than|instead of|and not))\s*$", re.I | re.A)
HIGH_WORD = lazy(r"最(?:高|大|多|晚|新)|(?<![a-z_])(?:highest|largest|biggest|most|latest|newest)(?![a-z_])", re.I | re.A)
DATED_NEXT = lazy(r"\s*(?:is\s+|are\s+|was\s+|的)?(?:on or after|on or before|no later than|no earlier than|not before|not after|after|before|since|"
                  r"until|later than|earlier than|prior to|between|from)\s+(?:19|20)\d{2}", re.I | re.A)
COMPARED_NEXT = lazy(r"\s*(?:is\s+|are\s+|的)?(?:" + "|".join(p for _, p in INFIX[:-1]) + r"|[<>=≥≤]|[\d])", re.I | re.A)
COLUMN_RANGE = lazy(r"\s*(?:…+|\.{2,}|～|~|—+|-|到|至|(?<![a-z_])(?:to|through|thru)(?![a-z_]))\s*(?:的)?\s*$", re.I | re.A)


def _through(hits: list[ColumnHit], t: _Turn) -> list[str]:
    """1月…6月 / 1月到6月 / Jan to Jun between two named columns: every column from one to the other, in the table's order."""
    order = {c: i for i, c in enumerate(t.sheet.columns)}
    cols: list[str] = []
    for a, b in zip([None, *hits], hits, strict=False):
        if a is not None and COLUMN_RANGE.match(t.text[a.end : b.start]) and order[a.column] < order[b.column]:
            cols += list(t.sheet.columns[order[a.column] + 1 : order[b.column]])
        cols.append(b.column)
    return cols


def _superlative_column(said: str, sheet: SheetInfo) -> tuple[str, bool] | None:
    """(the column, smallest first) an adjective of the cut ranks by (10 heaviest → Weight (kg)); None unless exactly one
    numeric column's name holds one of its words (words.toml [superlative])."""
    from modes.tagging.segment import words_toml

    table = words_toml()["superlative"]
    low = said.casefold()
    word = next((w for w in table if w not in ("low", "dated") and w in low), None)
    if word is None:
        return None
    kept = sheet.dates if word in table.get("dated", ()) else sheet.numeric  # the newest: a date; the heaviest: a figure
    if word in table.get("dated", ()):  # the 3 earliest closed deals: the date whose first word the verb said begins (Close Date)
        said_words = re.findall(r"[a-z]{3,}", low)
        verbed = [c for c in sheet.columns if c in kept and (head := re.split(r"[\s_]+", c.casefold())[0]) and len(head) >= 4
                  and any(w.startswith(head) for w in said_words)]
        if len(verbed) == 1:
            return verbed[0], word in table["low"]
    for x in table[word]:
        cols = [c for c in sheet.columns if c in kept and x in c.casefold()]
        if len(cols) == 1:
            return cols[0], word in table["low"]
    only = [c for c in sheet.columns if c in kept] if word in table.get("dated", ()) else []
    return (only[0], word in table["low"]) if len(only) == 1 else None


SUPERLATIVE_NEXT = lazy(r"\s*(?:the\s+)?(?:most\s+)?[a-z]*", re.I | re.A)  # the adjective said right after the cut (top 5 longest …)
ROW_NOUNS = frozenset({"rows", "row", "lines", "records", "entries", "行", "条", "行数据"})


def _rows_of_the_cut(t: _Turn, m: re.Match[str], h: ColumnHit) -> bool:
    """top 3 rows / 前3行 on a summary with a column named rows (行数): the rows the cut keeps, never the column it ranks by."""
    return t.text[h.start : h.end].casefold() in ROW_NOUNS and re.fullmatch(r"[\s\d]*", t.text[m.end() : h.start]) is not None \
        and h.start >= m.start()


def _rule_top_n(t: _Turn) -> None:
    """最高的是谁 (the top row by the column named before) and 前N / top N."""
    text, hits, sheet = t.text, t.hits, t.sheet
    who = WHO_TOP.search(text)
    if who and not t.explore and not t.has("group", "top_n"):
        ranked = [h.column for h in hits if h.end <= who.start() + 1 and (h.column in sheet.numeric or h.column in sheet.dates)]
        if not ranked and not hits and (figure := _summary_figure(sheet)) is not None:
            ranked = [figure]  # 他们里面谁最多, on a summary: its one figure
        if ranked:
            said = who.group("d") or who.group("d2") or who.group("d3") or who.group("d4") or ""
            low = bool(re.match(r"最(?:低|小|少|早|旧|差)|(?:lowest|smallest|least|earliest)", said, re.I | re.A))
            t.add(who.start(), Op("top_n", {"n": 1, "by": ranked[-1], "ascending": low, "question": True}))
            t.spans.append(who.span())
    share = lx.TOP_PERCENT.search(text)
    m = share or lx.TOP_N.search(text) or _superlative_key(t)
    if m is not None and t.has("dedupe") and not t.free(m.start()):
        m = None  # 去重，保留最新的一条: which duplicate stays, read by the dedupe rule
    if m and (not t.explore or _periods_only(t)):  # 按月汇总金额，取最高的一个月: the periods' figures ranked
        n_raw = next((g for g in m.groups() if g), "1")
        n = parse_number(n_raw)
        by = [t.rank_by] if t.rank_by else [h.column for h in hits if (h.column in sheet.numeric or h.column in sheet.dates) and t.free(h.start)
                                             and not _rows_of_the_cut(t, m, h)]
        near = [h.column for h in hits if h.column in sheet.numeric and t.free(h.start) and 0 <= m.start() - h.end <= 3]
        by = near[-1:] + [c for c in by if c not in near[-1:]] if not t.rank_by and near else by  # 考试日期是…的数学分数前5名: by 分数
        low_first = bool(re.search(r"最(?:低|小|少|早|旧|老|短|便宜)|(?<![a-z_])(?:lowest|smallest|earliest|oldest|bottom)(?![a-z_])", text, re.I | re.A))
        if not low_first and ASC.search(text) and not HIGH_WORD.search(text):
            low_first = True  # sorted ascending, top 3: the first three of the order said, the lowest
        by_col = by[0] if by else (t.sort_keys[0] if t.sort_keys else None)
        if by_col is None and (spent := MONEY_RANK.search(text, max((x.end() for x in CLAUSE_END.finditer(text, 0, m.start())), default=0), m.start())):
            by_col = _money_column(sheet)  # 花钱最多的前10个会员: ranked by the money column
            t.spans.append(spent.span()) if by_col else None
        if by_col is None and not t.has("group") and (figure := _summary_figure(sheet)) is not None:
            by_col = figure  # 只要前3个, on a total per 品种 read back: its one figure ranks them
        after = SUPERLATIVE_NEXT.match(text, m.end())
        ranked_by = _superlative_column(m.group(0) + (after.group(0) if after else ""), sheet)  # (top 5 longest rides)
        if ranked_by is not None:  # the 10 heaviest shipments: by the weight column, whatever else is named
            by_col, low_first = ranked_by
        summaries = [o for _, o in t.found if o.kind == "group" and o.args.get("keys") and o.args.get("measures")]
        if by_col is not None and summaries and by_col not in {x.get("column") for o in summaries for x in o.args["measures"]} \
                and by_col != t.rank_by and not any(h.column == by_col and 0 <= h.start - m.end() <= 12 for h in hits):
            by_col = None  # count rows by country, completed_on not blank, top 5: the top groups by the summary's figure
        if t.sort_keys and not _in_clause_of(t, m, [h for h in hits if h.column in by]):
            by_col = t.sort_keys[0]  # 算金额合计和单数，按单数从多到少，取前3个: the first 3 of the order said, never by 金额
        top: dict[str, Any] = {"n": int(n or 10), "by": by_col, "ascending": low_first,
                               **({"direction_said": True} if low_first or HIGH_WORD.search(text) or DESC.search(text) else {}),
                               **({"percent": tidy(n)} if share is not None and n else {})}  # the top 10%: a share of the rows
        bare = [k for k, (_, o) in enumerate(t.found) if o.kind == "group" and not o.args.get("keys") and not o.args.get("unresolved")]
        key = _ranked_key(t, m) if t.rank_by in ("行数", "rows") and (bare or not t.has("group")) else None
        if key is not None:  # top 5 crews by number of jobs / 按单数排前5的司机: each one's rows counted, then ranked
            t.found = [f for k, f in enumerate(t.found) if k not in bare]
            t.add(m.start(), Op("group", {"keys": [key.column], "measures": [{"agg": "count"}], "question": True}))
            t.add(m.start() + 1, Op("top_n", {**top, "by": None, "question": True}))
            t.spans += [m.span(), (key.start, key.end)]
            return
        if t.rank_by in ("行数", "rows") and t.has("group"):  # count per Unit, top 3 Units by count: the groups, by their rows
            t.add(m.start() + 2, Op("top_n", {**top, "by": t.rank_by}))
            t.spans.append(m.span())
            return
        if t.ratio is not None:  # amount per qty by store, top 2: the groups with the highest ratio (each row's, with no key)
            t.add(m.start() + 2, Op("top_n", {**top, "by": t.ratio[2]}, after=bool(t.group_keys)))
            t.spans.append(m.span())
            return
        keyless = [o for _, o in t.found if o.kind == "group" and not o.args.get("keys") and not o.args.get("unresolved")
                   and {x.get("column") for x in o.args.get("measures", [])} == {by_col}]  # 平均销售额前2的区域, 金额合计最高的3个
        key = _ranked_key(t, m) if by_col in sheet.numeric and (not t.has("group") or keyless) else None
        if key is not None:  # 销售额前三的销售员: a salesperson sells on many rows, so each one's total is ranked
            agg = next((x["agg"] for x in keyless[0].args["measures"] if x.get("agg") in ("sum", "mean", "median")), "sum") if keyless else "sum"
            t.found = [(i, o) for i, o in t.found if not any(o is g for g in keyless)]
            t.add(m.start(), Op("group", {"keys": [key.column], "measures": [{"column": by_col, "agg": agg}], "question": True}))
            t.add(m.start() + 1, Op("top_n", {**top, "by": None, "question": True}))
            t.spans += [m.span(), (key.start, key.end)]
            return
        if (by_col in sheet.numeric or by_col is None) and _ranked_within(t, m, top, by_col):
            return
        sold = _sold_before(t, m) if by_col is None and not t.has("group") else None
        key = _ranked_key(t, m) if sold is not None else None
        if sold is not None and key is not None:  # 卖得最多的商品是哪个 / 卖得最好的3个导购: each one's units (or money) sold, ranked
            t.add(m.start(), Op("group", {"keys": [key.column], "measures": [{"column": sold[2], "agg": "sum"}], "question": True}))
            t.add(m.start() + 1, Op("top_n", {**top, "by": None, "question": True}))
            t.spans += [m.span(), (key.start, key.end), sold[:2]]
            return
        counted = _counted_before(t, m) if by_col is None and not t.has("group") else None
        key = _ranked_key(t, m) if counted is not None else None
        if counted is not None and key is not None:  # 单子最多的3个司机 / 延误最多的3个司机: each one's rows (those the flag keeps) counted, then ranked
            t.add(m.start(), Op("group", {"keys": [key.column], "measures": [{"agg": "count"}], "question": True}))
            t.add(m.start() + 1, Op("top_n", {**top, "by": None, "question": True}))
            t.spans += [m.span(), (key.start, key.end), counted]
            return
        per = _top_per_summary_key(t, m)
        t.add(m.start(), Op("top_n", {**top, "by": None, "within": per} if per else {**top, **_top_within(t, by_col)}))
        t.spans.append(m.span())


def _sold_before(t: _Turn, m: re.Match[str]) -> tuple[int, int, str] | None:
    """卖得最多的… said with only the verb of selling before the cut: where that verb is, and what it adds up."""
    start = max((x.end() for x in CLAUSE_END.finditer(t.text, 0, m.start())), default=0)
    said = re.search(r"\S*$", t.text[start : m.start()])
    if said is None or not said.group(0) or not SOLD_ONLY.fullmatch(said.group(0)):
        return None
    col = _sold_column(t.sheet, most=re.search(r"最(?:多|少)|(?<![a-z_])(?:most|fewest|least)(?![a-z_])", m.group(0), re.I | re.A) is not None)
    return (start + said.start(), start + said.end(), col) if col else None


COUNTED_WORD = lazy(r"(?:单子|单数|订单数?|次数|笔数|条数|记录数?|行数|人数|套数|台数|辆数|单|次)\s*的?\s*$")


def _counted_before(t: _Turn, m: re.Match[str]) -> tuple[int, int] | None:
    """最多的3个 said after a count (单子 / 次数) or after the word of a yes-no column (延误, counted where it says yes),
    with no figure of a column named in that clause: a ranking by how many rows each has."""
    if not re.search(r"最(?:多|少)|(?<![a-z_])(?:most|fewest)(?![a-z_])", m.group(0), re.I | re.A):
        return None
    start = max((x.end() for x in CLAUSE_END.finditer(t.text, 0, m.start())), default=0)
    said = t.text[start : m.start()]
    if any(start <= h.start < m.start() and h.column in t.sheet.numeric for h in t.hits):
        return None
    flagged = next((f for w in flag_words(t.sheet) if w and (f := re.search(re.escape(w) + r"\s*(?:的)?\s*((?:次数|单数)?\s*的?)\s*$", said, re.I))), None)
    if flagged is not None:  # the flag's word is its condition's (read by the filter rule); the count word after it is this ranking's
        return start + flagged.start(1), start + flagged.end(1)
    counted = COUNTED_WORD.search(said)
    return (start + counted.start(), start + counted.end()) if counted else None


SUPERLATIVE_KEY = lazy(r"最(?:高|大|多|低|小|少)的(?!是|为|那|\s*\d)")


def _superlative_key(t: _Turn) -> re.Match[str] | None:
    """运费最高的司机 / 单子最多的客户, nothing else asked: the first one of that ranking (a top 1), when the word after
    names a column whose values repeat (what is ranked) — never a row of a column of unique names, which the row rules read."""
    if t.explore or any(o.kind != "group" or o.args.get("keys") or len(o.args.get("measures") or []) != 1 for _, o in t.found):
        return None  # (金额合计最高的商品: the total said first is what ranks them)
    for m in SUPERLATIVE_KEY.finditer(t.text):
        w = RANKED_WORD.match(t.text, m.end())
        hit = next((h for h in t.hits if h.start == m.end()), None)
        col = hit.column if hit is not None else resolve_column(w.group(1), t.sheet, closest=False)[0] if w is not None else None
        vals = t.sheet.values.get(col) if col else None
        if col and col not in t.sheet.numeric and col not in t.sheet.dates and vals and t.sheet.rows > len(vals):
            return m
    return None


MONEY_RANK = lazy(r"(?:花钱|花费|花了?钱?|消费(?:金额)?|付款|付了?钱?|充值|充了?钱?|(?:交|缴)(?:了|的)?(?:钱|费)|缴纳|(?:收|赚|挣|卖)(?:了|的|到)?钱)\s*(?:最多|最高|最少|最低)?\s*(?:的)?\s*$")


def _in_clause_of(t: _Turn, m: re.Match[str], hits: list[ColumnHit]) -> bool:
    """Whether one of the columns is said in the same clause as a top-N (no comma or semicolon between them)."""
    def clause(i: int) -> int:
        return len(re.findall(r"[,，;；。]", t.text[:i]))

    return any(clause(h.start) == clause(m.start()) for h in hits)


RANKED_TAIL = lazy(r"\s*(?:分别|各自|都)?\s*(?:是|为|有)?\s*(?:谁|啥|什么|哪些|哪几[个位家种]|是哪些|是谁|(?:的)?名单|$|[，,。？?])|\s*(?:and|with|by|who)(?![a-z_])|\s*$", re.I | re.A)


RANKED_WORD = lazy(r"\s*(?:的|个|位|名|家|种|款)?\s*([\u4e00-\u9fff]{2,6}?|[A-Za-z]{3,}?)(?:(?<=[A-Za-z])(?:es|s))?(?=$|[，,。？?的是有]|分别|各自|都|\s)")
IS_VALUE_NEXT = lazy(r"\s*(?:是|为|等于|不是|不为|属于|=)")


# 前5户 / the top 5 households: a household counted, each one the column that numbers the homes (房号, Unit No)
HOUSEHOLD_UNIT = lazy(r"户\s*$|(?<![a-z_])households?(?![a-z_])", re.I)
HOUSEHOLD_COLUMN = lazy(r"房号|户号|房间号|门牌|(?<![a-z_])(?:household|flat|apartment|unit)(?:\s*(?:no\.?|number|#|id))?(?![a-z_])", re.I)


def _ranked_key(t: _Turn, m: re.Match[str]) -> ColumnHit | None:
    """The one text column a ranking names as what is ranked (前三的销售员 / top 3 salespeople), when its values repeat
    across rows; a column of unique names (订单号) is a ranking of rows and is left to the row ranking."""
    from modes.conditions import ANY_OP

    sheet = t.sheet
    named = [h for h in t.hits if t.free(h.start) and h.column not in sheet.numeric and h.column not in sheet.dates
             and not ANY_OP.match(t.text, h.end) and not re.match(r"\s*(?:里|中|内|in|within)(?![a-z_])", t.text[h.end :], re.I | re.A)]
    after = [h for h in named if h.start >= m.end() and re.fullmatch(r"\s*(?:的|个|位|名|家)?\s*", t.text[m.end() : h.start])]
    clause = max((x.end() for x in CLAUSE_END.finditer(t.text, 0, m.start())), default=0)
    # 状态是迟到的，按姓名统计次数，取前5个: a column of an earlier clause, or one given a value, is no thing ranked
    around = after or [h for h in named if clause <= h.start and h.end <= m.start() and not IS_VALUE_NEXT.match(t.text, h.end)]
    if not around and (w := RANKED_WORD.match(t.text, m.end())) is not None and t.free(w.start(1)):
        col, how, _ = resolve_column(w.group(1), sheet, closest=False)  # 未收金额最多的3个客户: 客户 is a part of 客户名称
        ids = [c for c in sheet.columns if c.startswith(w.group(1)) and ID_COLUMN.search(c) and c not in sheet.numeric] if col is None else []
        if len(ids) == 1:  # 前10个会员, over 会员编号 and 会员姓名: each one is its number
            col, how = ids[0], "partial"
        if col is not None and how in ("partial", "synonym") and col not in sheet.numeric and col not in sheet.dates:
            around = [ColumnHit(w.start(1), w.end(1), col, how)]
    if not around and HOUSEHOLD_UNIT.search(m.group(0)):  # 交钱最多的前5户: each household, the column that numbers them
        homes = [c for c in sheet.columns if HOUSEHOLD_COLUMN.search(c) and c not in sheet.numeric and c not in sheet.dates]
        around = [ColumnHit(m.end() - 1, m.end(), homes[0], "synonym")] if len(homes) == 1 else []
    if len(around) != 1:
        return None
    key = around[0]
    vals = sheet.values.get(key.column)
    if _summary_figure(sheet) is not None:
        return None  # 只要前3个渠道, of a total per 渠道 read back: its rows are the groups already (a blank one among them)
    return key if vals and sheet.rows > len(vals) else None


def _ranked_within(t: _Turn, m: re.Match[str], top: dict[str, Any], by: str | None) -> bool:
    """各门店金额最高的前2个产品 / top 2 products by amount in each store: what is ranked (a text column whose values
    repeat) is totalled within each group first, then its first N are taken in each group — never the single rows."""
    groups = [o for _, o in t.found if o.kind == "group" and o.args.get("keys") and not o.args.get("question") and not o.args.get("unresolved")]
    said = RANK_BY_TOTAL.sub(" ", _blank(t.text, _ranking_statistic(t, m)))  # top 3 donors in each region by total amount:
    # "total" is how they are ranked, as in 每个门店金额合计最高的3个销售员
    if len(groups) != 1 or TOTAL_ASKED.search(said):
        return False
    g = groups[0]
    key = _ranked_key(t, m)
    if key is None or key.column in g.args["keys"]:
        return False
    asked = [x for x in g.args.get("measures", []) if x.get("column")]
    if by is None:  # 每个城市订单数最多的2个客户: the rows of each are counted, then ranked
        if asked or not next((am for a, rx in AGG_WORDS if a == "count" for am in rx.finditer(t.text, 0, m.start())), None):
            return False
        measure = {"agg": "count"}
    else:
        if asked and {x["column"] for x in asked} != {by}:
            return False
        agg = asked[0].get("agg") if asked and asked[0].get("agg") in ("sum", "mean") else "sum"  # 最高 ranks; it is no maximum
        measure = {"column": by, "agg": agg}
    t.found = [(i, o) for i, o in t.found if o is not g]
    t.add(m.start(), Op("group", {"keys": [*g.args["keys"], key.column], "measures": [measure]}))
    t.add(m.start() + 1, Op("top_n", {**top, "by": None, "within": list(g.args["keys"])}))
    t.spans += [m.span(), (key.start, key.end)]
    return True


RANK_STAT_AFTER = lazy(r"\s*的?\s*(?:合计|总和|总额|总计|平均值|平均数|平均|均值)\s*的?\s*$")
RANK_STAT_BEFORE = lazy(r"(?:总|合计|平均|(?<![a-z_])(?:total|average|mean)\s+)$", re.I | re.A)


def _ranking_statistic(t: _Turn, m: re.Match[str]) -> list[tuple[int, int]]:
    """金额合计最高的3个 / 总金额最高的 / 平均金额前三的: the statistic said on the figure a ranking ranks by — how the ranked
    are totalled, never a summary asked beside the ranking."""
    before = [h for h in t.hits if h.end <= m.start() and h.column in t.sheet.numeric]
    if not before:
        return []
    h = max(before, key=lambda x: x.end)
    gap = t.text[h.end : m.start()]
    if not re.fullmatch(r"[\s的合计总和额平均值数均]*", gap):
        return []
    spans = [(h.end + a.start(), h.end + a.end()) for a in [RANK_STAT_AFTER.search(gap)] if a]
    b = RANK_STAT_BEFORE.search(t.text, max(0, h.start - 8), h.start)
    return spans + ([b.span()] if b else [])


RANK_BY_TOTAL = lazy(r"(?<![a-z_])by\s+(?:the\s+)?(?:total|sum of|combined)(?![a-z_])", re.I | re.A)
TOTAL_ASKED = lazy(r"合计|总和|总额|总计|求和|汇总|加总|加起来|加在一起|平均|均值|总(?:销售|金额|数|量)|(?<![a-z_])(?:totals?|sum|average|mean|avg|add(?:ed)? up)(?![a-z_])"
                   r"|(?:卖|收|赚|挣|花|交|缴|付)了?\s*多少钱?|多少钱|(?<![a-z_])how much(?![a-z_])", re.I | re.A)  # 各品类卖了多少钱，取前3: the top groups


PER_KEY = lazy(r"\s*(?:的)?\s*(?:(?<![a-z_])(?:per|for each|for every|in each|in every|within each|of each|by)(?![a-z_])|每个|每一个|各个|各)\s*", re.I | re.A)


def _top_per_summary_key(t: _Turn, m: re.Match[str]) -> list[str] | None:
    """sum revenue by region and product, the 3 biggest products per region: the summary's rows ranked within each
    value of one of its keys, never the top rows overall."""
    groups = [o for _, o in t.found if o.kind == "group" and len(o.args.get("keys") or []) >= 2 and not o.args.get("unresolved")]
    if len(groups) != 1:
        return None
    after = re.search(r"[^,，;；。]{0,30}", t.text[m.end() :])
    tail = m.end() + (after.end() if after else 0)
    for h in t.hits:
        if m.end() <= h.start <= tail and h.column in groups[0].args["keys"]:
            w = PER_KEY.search(t.text, m.end(), h.start)
            if w is not None and w.end() == h.start:
                return [h.column]
    # 按收货地区和品名汇总金额，每个地区取金额最高的2个品名: the key said (or a part of it) just before, in the same clause
    start = max((x.end() for x in CLAUSE_END.finditer(t.text, 0, m.start())), default=0)
    before = re.search(r"(?:每个|每一个|各个|各|(?<![a-z_])(?:per|for each|in each|within each)(?![a-z_]))\s*(?P<k>[\u4e00-\u9fffA-Za-z_]{1,12}?)\s*(?:里|内|中|,|，)?\s*(?:取|选|挑|找)?",
                       t.text[start : m.start()], re.I)
    if before is not None:
        col = resolve_column(before.group("k"), t.sheet, closest=False)[0]
        if col is not None and col in groups[0].args["keys"]:
            return [col]
    return None


TOP_COUNTS_KEY = lazy(r"(?:前|top\s*)\s*(?:\d+|[一二两三四五六七八九十]+)\s*(?:个|名|位|家|条)?\s*(?P<k>[\w\u4e00-\u9fff][\w\u4e00-\u9fff ]{0,11}?)(?=$|[，,。；;？?的]|\s+(?:by|with|in)\b)", re.I)


def _top_within(t: _Turn, by: str | None) -> dict[str, Any]:
    """每个部门 bonus 最高的前3名 / top 2 orders in each region: the first N rows of each group, not the top groups.

    A grouping with no total or average asked is where the ranking happens; the grouping step is dropped."""
    groups = [o for _, o in t.found if o.kind == "group" and o.args.get("keys") and not o.args.get("question") and not o.args.get("unresolved")]
    if len(groups) != 1 or TOTAL_ASKED.search(t.text):
        return {}
    g = groups[0]
    measure = by or next((x["column"] for x in g.args.get("measures", []) if x.get("column")), None)
    if measure is None or _summary_phrase(t, measure, g.args["keys"]):
        return {}
    counted = TOP_COUNTS_KEY.search(t.text)  # 按房号…最多的前5个房号: the five are of the key itself, so groups are ranked
    if counted is not None and any(k.casefold() == counted.group("k").strip().casefold() for k in g.args["keys"]):
        return {}
    t.found = [(i, o) for i, o in t.found if o is not g]
    return {"by": measure, "within": list(g.args["keys"])}


SUMMARY_BY = lazy(r"\s*(?:(?<![a-z_])(?:by|per)(?![a-z_])|按)\s*", re.I | re.A)


def _summary_phrase(t: _Turn, measure: str, keys: list[str]) -> bool:
    """total_amount by hotel_id …, top 5 / 运费_元按网点，前5: a figure said by a key is that figure summed per key (the
    top N are then the top keys), never the top rows within each key, which is said with each / per / 每个."""
    for h in t.hits:
        if h.column != measure:
            continue
        b = SUMMARY_BY.match(t.text, h.end)
        if b is not None and b.group(0).strip() and any(k.start == b.end() and k.column in keys for k in t.hits):
            return True
    return False


CLEANING_OBJECT = lazy(r"\s*(?:掉)?(?:里的|中的|的)?\s*(?:首尾|前后|两端|多余的?)?\s*(?:空格|空白|多余|重复|换行)")


COUNTING_WORD = lazy(r"\s*(?:count|list|show|total|number of|how many)\s*", re.I | re.A)
BLANK_SAID_BEFORE = lazy(r"(?<![a-z_])(?:blank|empty|missing)\s+$", re.I | re.A)
DATE_SAID_AFTER = lazy(r"\s*(?:在|从|是|为|介于)?\s*(?:(?:19|20)\d{2}\s*(?:年|-|/)|\d{1,2}\s*月)")


NAME_WORD = lazy(r"names?|名字|名称|姓名|名", re.I)


def _name_of_the_rows(t: _Turn, c: Cond) -> Cond:
    """suppliers with a name containing Ltd / 供应商名字里有科技的: "name" is the column the thing said before it is (a
    text column of names), never a column to ask for."""
    if not c.raw or not NAME_WORD.fullmatch(c.raw.strip()):
        return c
    at = t.text.casefold().find(c.raw.casefold())
    named = [h for h in t.hits if h.end <= at and h.column not in t.sheet.numeric and h.column not in t.sheet.dates
             and not ROW_ID.search(h.column)] if at >= 0 else []
    return replace(c, column=named[-1].column, how="synonym", closest=()) if named else c


def _rule_filter(t: _Turn) -> None:
    """Filter and delete rows: the conditions in what no other rule read."""
    # 发货日期3月到5月的，按月算: the date column a summary per period reads is also the column of the period said after it
    dated = [(h.start, h.end) for h in t.hits if h.column in t.sheet.dates and not t.free(h.start) and DATE_SAID_AFTER.match(t.text, h.end)
             and h.end - h.start == len(h.column)]
    # by level …, excluding blank level: a column another rule read, said again right after a word of blanks, is theirs
    dated += [(h.start, h.end) for h in t.hits if not t.free(h.start) and h.end - h.start == len(h.column)
              and BLANK_SAID_BEFORE.search(t.text, 0, h.start) and not any(a <= h.start < b for a, b in t.key_spans)]
    # count the returns, over Return (Y/N): the counting word stays for the flag's plural after it (its yes rows)
    flags = [h for h in t.hits if t.free(h.start) and h.column in t.sheet.values and len(t.sheet.values[h.column]) <= 3]
    dated += [sp for sp in t.spans if COUNTING_WORD.fullmatch(t.text[sp[0] : sp[1]])
              and any(re.fullmatch(r"\s*(?:the\s+|all\s+(?:the\s+)?)?", t.text[sp[1] : h.start], re.I) for h in flags)]
    cond_text = _blank(t.text, [sp for sp in t.spans if sp not in dated])
    for h in t.hits:
        if (h.start, h.end) in dated:  # (its name, blanked by the summary's rule, given back to the condition)
            cond_text = cond_text[: h.start] + h.column + cond_text[h.end :]
    cp = t.cp = parse_conditions(cond_text, t.sheet, [h for h in t.hits if t.free(h.start) or (h.start, h.end) in dated])
    related = {c for _, o in t.found if o.kind == "correlate" for c in o.args.get("columns") or []}
    if related:  # does seat count have anything to do with churn: the yes-no column is one side of the relation, no rows kept
        cp.conds = [c for c in cp.conds if not (c.column is not None and c.column in related and c.op == "eq" and c.how == "exact" and flag_yes(t.sheet, c.column) == c.value)]
    keys = list(dict.fromkeys(t.group_keys))
    left_out = BLANKS_LEFT_OUT.search(cond_text) if len(keys) == 1 and keys[0] not in t.sheet.numeric else None
    if left_out is not None and not any(a < left_out.end() and left_out.start() < b for a, b in cp.spans) and not any(c.column == keys[0] for c in cp.conds):
        # visits by Package, excluding blanks: the key's blank group left out (its rows, before the summary)
        cp.conds.append(Cond(keys[0], "not_empty", raw=keys[0], how="excluded"))
        cp.spans.append(left_out.span())
    fm = lx.FILTER.search(cond_text)
    if fm and not cp.conds and fm.group(0) in ("只看", "只显示") and re.search(r"sheet|工作表|表|页", cond_text[fm.end() : fm.end() + 20], re.I | re.A):
        fm = None  # 只看订单那个sheet: which sheet, not which rows
    # 去掉空格 / 删除重复行 is cleaning, not deleting rows; a later 删掉 may still delete (…、金额为空的删掉)
    dm = next((d for d in lx.DELETE_ROWS.finditer(cond_text) if not CLEANING_OBJECT.match(cond_text, d.end())), None)
    if not (cp.conds or fm or dm):
        return
    dd = next((i for i, o in t.found if o.kind == "dedupe"), None)
    if dm and not cp.conds and not fm and dd is not None and (dd < dm.start() or 0 <= dd - dm.end() <= 16 and not any(dm.end() <= h.start < dd for h in t.hits)):
        t.spans.append(dm.span())
        return  # 有没有重复的？完全一样的那种，去掉: what is removed is the duplicates, no rows chosen by a condition
    if not cp.conds and not dm and fm and any(0 <= a - fm.end() <= 3 for (a, _), _m in t.having):
        t.spans.append(fm.span())
        return  # 只看平均月薪低于11000的: the words choose groups, read by the having rule
    if not cp.conds and not dm and fm and any(0 <= a - fm.end() <= 3 for a, _ in t.formula_spans):
        t.spans.append(fm.span())
        return  # …, where Net = Total - Qty: the word introduces the column's definition, no rows are chosen
    conds = list(cp.conds)
    logic = cp.logic
    if logic == "or":  # 线上的或者渠道为空的: the or between two conditions is read by their logic
        ends = sorted(cp.spans)
        t.spans += [(e0 + m.start(), e0 + m.end()) for (_, e0), (s1, _) in zip(ends, ends[1:], strict=False)
                    for m in OR_BETWEEN.finditer(cond_text[e0:s1])]
    keeps = fm is not None and not re.fullmatch(r"where|rows with|rows where|find rows|with", fm.group(0), re.I | re.A)
    if dm and conds and keeps and dm.start() > fm.start():  # type: ignore[union-attr]
        # 筛出A且B，剔除C: the exclusion word negates only the conditions written after it
        conds = [negate(c) if c.how != "excluded" and s >= dm.start() else c for c, (s, _) in zip(conds, cp.spans, strict=True)]
    elif dm and conds and not keeps:
        conds = [c if c.how == "excluded" else negate(c) for c in conds]
        logic = "or" if logic == "and" and len(conds) > 1 else "and"
    conds = [_name_of_the_rows(t, c) if c.column is None else c for c in conds]
    unres_c = [c for c in conds if c.column is None]
    held = [_held_value(c, t.sheet) for c in conds]  # Role is forklift: the one value of Role it is a word of (Forklift Driver), said
    conds = [replace(c, value=h) if h is not None else c for c, h in zip(conds, held, strict=True)]
    args: dict[str, Any] = {"conditions": conds, "logic": logic, "delete": bool(dm)}
    doubts = [d for c in conds if (d := _years_or_amounts(c, t.sheet) or reading_said(c) or _excludes_nothing(c, t.sheet))]
    if logic == "and" and (t.out.include_too or any(c.how == "either" for c in conds)):
        args["conditions"] = _blank_too(conds)
    doubts += [("slot", f"{c.column} 列里没有“{c0.value}”，按“{c.value}”理解", f"{c.column} never holds '{c0.value}': read as '{c.value}'")
               for c0, c, h in zip(cp.conds, conds, held, strict=False) if h is not None]
    if logic == "and" and _disjoint_periods(conds):
        doubts.append(("slot", "同一日期列的两个时间段不会同时满足：按“且”连接会没有任何行；若要两段都算，请说“A到B”或分两步",
                       "two periods of the same date column never hold together: joined with 'and' no row is kept; for both, say 'from A to B' or ask twice"))
    if cp.mixed and logic == "or":
        doubts.append(("slot", "“或”和“且”同时出现：这里所有条件都按“或”连接；若要（A 或 B）且 C，请分两步说",
                       "'or' and 'and' are both used: every condition is joined with 'or' here; for (A or B) and C, say it in two steps"))
    if doubts:
        args["doubts"] = doubts
    if unres_c:
        args["unresolved"] = [_unres(c.raw, c.closest) for c in unres_c]
        t.unresolved(len(unres_c))
    starts = [s for s, _ in cp.spans] + ([fm.start()] if fm else []) + ([dm.start()] if dm else [])
    t.add(min(starts), Op("filter", args))
    t.out.hits += len([c for c in cp.conds if c.how != "default"])


OR_BETWEEN = lazy(r"或者|或是|或(?!以)|(?<![a-z_])or(?![a-z_])", re.I | re.A)


def _blank_too(conds: list[Any]) -> list[Any]:
    """渠道是线上的，渠道为空的也算进去 / 线上或者为空的 / online or blank: a value of a column and that column's blanks, one
    said as included too or listed with it, are either one (a row can never be both), never both at once."""
    from modes.query import Junction, TreeCond

    out = list(conds)
    for empty in [c for c in conds if c.op == "empty" and c.column]:
        kept = next((c for c in out if c is not empty and c.column == empty.column and c.op in ("eq", "in")), None)
        if kept is not None and empty in out:
            out[out.index(kept)] = TreeCond(Junction("or", (kept, empty)))
            out.remove(empty)
    return out


def _held_value(c: Cond, sheet: SheetInfo) -> str | None:
    """A value said that the column never holds (forklift, Forklift Drivr) but that is a word of, or a small typo of,
    exactly one value it holds: that value. Only where the catalog read the whole sheet, so its values are all known."""
    if c.op not in ("eq", "ne") or not isinstance(c.value, str) or not c.column or c.column not in sheet.values or sheet.rows >= WHOLE_SAMPLE:
        return None
    said = c.value.strip().casefold()
    vals = [v for v in sheet.values[c.column] if isinstance(v, str)]
    if len(said) < 3 or any(v.strip().casefold() == said for v in vals):
        return None
    words = [v for v in vals if said in re.findall(r"[a-z0-9]+|[\u4e00-\u9fff]+", v.casefold()) or (CJK.match(said) and said in v)]
    near = words or [v for v in vals if len(said) >= 5 and edit_distance(said, v.strip().casefold(), 2) <= 2]
    return near[0] if len(near) == 1 else None


WHOLE_SAMPLE = 2000  # a sheet read whole by the catalog: its columns' value lists are every value it holds


def _excludes_nothing(c: Cond, sheet: SheetInfo) -> tuple[str, str, str] | None:
    """An exclusion of a value the column never holds (承运商不是京东 where no row is 京东) would keep every row while
    seeming to have filtered: said before it runs. Only where the catalog read the whole sheet, so its values are all known."""
    if c.op not in ("ne", "not_in") or not c.column or c.column not in sheet.values or sheet.rows >= WHOLE_SAMPLE:
        return None
    held = {v.casefold() for v in sheet.values[c.column]}
    vals = c.value if isinstance(c.value, list) else [c.value]
    absent = [str(v) for v in vals if isinstance(v, str) and v.strip().casefold() not in held]
    if not absent:
        return None
    zh, en = "、".join(absent), ", ".join(absent)
    return ("slot", f"{c.column} 列里没有“{zh}”，排除它不会去掉任何行", f"{c.column} never holds '{en}', so excluding it removes no row")


def _disjoint_periods(conds: list[Cond]) -> bool:
    """Two periods on one date column that share no day (in 2022 and in 2024): and-ed, they keep nothing."""
    spans = [(c.column, str(c.value.get("date")), str(c.value2.get("date"))) for c in conds
             if c.op == "between" and isinstance(c.value, dict) and isinstance(c.value2, dict)]
    return any(a[0] == b[0] and (a[2] < b[1] or b[2] < a[1]) for i, a in enumerate(spans) for b in spans[i + 1 :])


def _years_or_amounts(c: Cond, sheet: SheetInfo) -> tuple[str, str, str] | None:
    """销售额 between 2018 and 2020 where a date column holds those years: amounts or a period? Said, never guessed."""
    if c.how == "bare_years":
        lo, hi = (str(v.get("date", ""))[:4] if isinstance(v, dict) else str(v) for v in (c.value, c.value2))
        return ("slot", f"{lo}–{hi} 按 {c.column} 的年份理解，不是数值", f"{lo}–{hi} read as years of {c.column}, not as amounts")
    if c.op != "between" or c.column in sheet.dates or not all(isinstance(v, int) and 1900 <= v <= 2100 for v in (c.value, c.value2)):
        return None
    if not any(lo <= c.value2 and c.value <= hi for d, (lo, hi) in sheet.years.items() if d in sheet.dates):
        return None
    return ("slot", f"{c.value}–{c.value2} 按 {c.column} 的数值理解，不是年份", f"{c.value}–{c.value2} read as values of {c.column}, not as years")


def _names_counted(t: _Turn) -> ColumnHit | None:
    """The column of names a how-many counts (一共多少客户 / how many customers, 客户 a column of text): its different
    values are the answer, read by _rule_distinct_named, never the table's rows."""
    return next((h for h in t.hits if _of_names(t, h) and not ROW_ID.search(h.column)
                 and DISTINCT_BEFORE.search(t.text, max(0, h.start - 24), h.start)), None)


def _rule_row_count(t: _Turn) -> None:
    """A bare count with no key is a count of the filtered rows, or of the table's rows."""
    group = next((o for _, o in t.found if o.kind == "group"), None)
    if group is None or group.args.get("keys") or group.args.get("measures") != [{"agg": "count"}] or group.args.get("unresolved"):
        return
    t.found = [(i, o) for i, o in t.found if o.kind != "group"]
    if _names_counted(t) is not None:
        return  # number of customers: the different customers
    if t.has("filter"):
        t.add(len(t.text) - 1, Op("count", {"question": True}))
    else:
        t.add(0, Op("profile", {"head": None, "columns": [], "question": "rows"}))


def _rule_values_question(t: _Turn) -> None:
    """城市都有哪些: the distinct values of the column named before (评分为空的是哪些师傅 / 只要师傅这一列的不重复值: of the
    column named after 哪些, or before its distinct values, over the rows the conditions keep)."""
    vq = VALUES_Q.search(t.text)
    if vq and not t.found:
        named = [h for h in t.hits if h.end <= vq.start() and re.fullmatch(r"\s*(?:列|字段)?\s*(?:里|中)?\s*(?:都|一共|总共)?\s*", t.text[h.end : vq.start()])]
        if named:
            t.add(named[-1].start, Op("group", {"keys": [named[-1].column], "measures": [{"agg": "count"}], "question": True}))
            return
    if not all(o.kind in ("filter", "dedupe", "select") for _, o in t.found) or any(o.kind == "dedupe" and o.args.get("subset") for _, o in t.found):
        return
    texts = [h for h in t.hits if h.column not in t.sheet.numeric or _id_like(h.column, t.sheet)]
    which = [h for h in texts if (WHICH_VALUES.search(t.text[max(0, h.start - 8) : h.start])
                                  or WHICH_VALUES_EN.search(t.text[max(0, h.start - 24) : h.start]) and re.search(r"[a-z]s$", t.text[h.start : h.end], re.I))
             and t.free(h.start)]
    listed = [h for h in texts if DISTINCT_VALUES.match(t.text, h.end) or DISTINCT_VALUES_BEFORE.search(t.text, max(0, h.start - 40), h.start)]
    if not which and not listed:
        return
    col = (which or listed)[0]
    t.found = [(i, o) for i, o in t.found if o.kind not in ("dedupe", "select")]  # (去重列出来: the values, each once)
    t.add(col.start, Op("group", {"keys": [col.column], "measures": [{"agg": "count"}], "question": True}))
    t.spans.append((col.start, col.end))
    t.spans += [m.span() for m in DISTINCT_SAID.finditer(t.text)]


# 是哪些师傅 / 有哪些老师工号: the values of the column said right after
WHICH_VALUES = lazy(r"(?:是|有|都是|都有)\s*哪些\s*$")
# the distinct values of Category / unique values in the Status column: that column's values, each once
DISTINCT_VALUES_BEFORE = lazy(r"(?<![a-z_])(?:distinct|unique|different)\s+(?:values|entries|categories|names)\s+(?:of|in|for)\s+(?:the\s+)?(?:column\s+)?$", re.I)
# which agents handled those / what products were they for: a plural column said after which / what, its values
WHICH_VALUES_EN = lazy(r"(?:^|[,;:.?!]\s*|(?<![a-z_])(?:and|so|then)\s+)(?:which|what)\s+(?:different\s+|distinct\s+|other\s+)?$", re.I)
# 师傅这一列的不重复值 / 老师工号去重列出来: the column's distinct values
DISTINCT_VALUES = lazy(r"\s*(?:这一?列|列)?\s*(?:的|里的|中的)?\s*(?:不重复的?值|不重复的取值|唯一值|去重后?的值|去重(?:后)?(?:列|列出来|列一下|显示|看看))")
DISTINCT_SAID = lazy(r"不重复的?值|不重复的取值|唯一值|去重(?:后)?(?:的值)?(?:列出来|列一下|显示|看看)?|只要|只保留|这一?列")


def _question_agg(t: _Turn, col: str, between: str) -> str:
    """The statistic a question about one column's value asks for (最高 / 平均 / 一共 / what suits the column)."""
    if re.search(r"最高|最大|最多|max|highest|largest", between, re.I | re.A):
        return "max"
    if re.search(r"最低|最小|最少|min|lowest|smallest", between, re.I | re.A):
        return "min"
    if re.search(r"平均|均值|(?<![a-z_])(?:average|mean)(?![a-z_])", t.gtext, re.I | re.A):
        return "mean"
    if re.search(r"一共|总共|合计|总计|总和|总额|total|sum", t.text, re.I | re.A):
        return "sum"
    return "mean" if lx.concept_of(col) in ("price", "rating", "age", "spend", "salary") else "sum"


# 一共收了多少学费 / 分别交了多少餐费: how much of a column, said before its name
HOW_MUCH_BEFORE = lazy(r"(?:一共|总共|合计|总计|共)?\s*(?:收|花|交|付|缴|赚|卖|用|发|退|欠|补|挣)?(?:了|掉)?\s*多少\s*(?:的)?\s*$")


def _totals_named_after(t: _Turn) -> list[str]:
    """The numeric columns said right after 多少 (收了多少学费和餐费), in the order written."""
    first = next((h for h in t.hits if h.column in t.sheet.numeric and t.free(h.start)
                  and HOW_MUCH_BEFORE.search(t.text, max(0, h.start - 12), h.start)), None)
    if first is None:
        return []
    return list(dict.fromkeys([first.column, *(h.column for h in _joined_after(first, t.hits, t.text) if h.column in t.sheet.numeric)]))


def _rule_value_question(t: _Turn) -> None:
    """销售额一共多少 / what is the total amount: one value, answered."""
    named = _totals_named_after(t) if not t.worded and "多少" in t.text else []
    if named:
        g = next((k for k, (_, o) in enumerate(t.found) if o.kind == "group" and not o.args.get("measures") and not o.args.get("unresolved")), None)
        if g is not None:  # 每个园分别收了多少学费和餐费: each key's totals of the columns said
            i, o = t.found[g]
            t.found[g] = (i, Op("group", {**o.args, "measures": [{"column": c, "agg": "sum"} for c in named], "question": True}))
            return
        if not t.has("group", "count", "top_n", "stats"):  # 一共收了多少学费: that column's total
            t.add(t.text.find("多少"), Op("group", {"keys": [], "measures": [{"column": c, "agg": "sum"} for c in named], "question": True}))
            return
    vm = VALUE_Q.search(t.text)
    counting = bool(COUNT_Q.search(t.text)) and t.has("filter")
    if vm and not t.worded and not counting and not t.has("group", "count", "top_n"):
        asked = [h for h in t.hits if (h.end <= vm.start() or re.match(r"what", vm.group(0), re.I)) and h.column in t.sheet.numeric]
        if asked:
            col = asked[-1].column
            between = t.text[asked[-1].start : vm.end()] if asked[-1].end <= vm.start() else vm.group(0)
            t.add(vm.start(), Op("group", {"keys": [], "measures": [{"column": col, "agg": _question_agg(t, col, between)}], "question": True}))
    elif vm:  # 平均评分是多少: a summary asked as a question is answered, not exported
        t.found = [(i, Op("group", {**o.args, "question": True}) if o.kind == "group" and not o.args.get("keys") else o) for i, o in t.found]


# a column's total asked right after its name (金额加起来多少 / 实收金额一共是多少 / 合计多少)
TOTAL_AFTER = lazy(r"\s*(?:的)?\s*(?:一共|总共|加起来|加在一起|合计|总计|总和|总额|共计)\s*(?:是|有|为)?\s*(?:多少|几)"
                   r"|\s*(?:是)?多少(?!\s*(?:条|行|个|单|笔|次|人|位|家|种|以上|以下|之间|的))")  # (金额多少, beside how many: the total)
# how much revenue (how many sessions and how much revenue): a column's total asked before its name
TOTAL_BEFORE = lazy(r"(?<![a-z_])how much(?:\s+(?:total|in total|of))?\s*$", re.I)


def _rule_count_and_total(t: _Turn) -> None:
    """3月份的一共几条，实收金额加起来多少 / 几单，金额一共多少: how many rows and a column's total, both asked and both
    answered over the rows the conditions keep (never the count alone, nor the total alone)."""
    if not COUNT_ASKED.search(t.text) or t.worded:
        return
    ops = [o for _, o in t.found]
    if any(o.kind not in ("filter", "count", "group") for o in ops) or any(o.kind == "group" and (o.args.get("keys") or o.args.get("unresolved")) for o in ops):
        return
    totals = list(dict.fromkeys(h.column for h in t.hits if h.column in t.sheet.numeric and t.free(h.start)
                                and (TOTAL_AFTER.match(t.text, h.end) or TOTAL_BEFORE.search(t.text, 0, h.start))))
    mq = next((x for x in MONEY_Q.finditer(t.text) if t.free(x.start())), None)
    both = TOTAL_TOO.search(t.text)  # how many and what's the total / 几单，总额多少: the count and the money's total, listed together
    mq = mq if mq is not None and FIGURE_LISTED.search(t.text, 0, mq.start()) is not None else both
    if not totals and mq is not None and len(money := _money_columns(t.sheet)) == 1 \
            and not any(h.column in t.sheet.numeric for h in t.hits if t.free(h.start)):
        totals = money  # 5月份收了多少单，多少钱: how many, and the money column's total, both asked in one list
        t.spans.append(mq.span())
    if not totals:
        return
    at = min(i for i, o in t.found if o.kind in ("count", "group")) if any(o.kind in ("count", "group") for o in ops) else len(t.text) - 1
    t.found = [(i, o) for i, o in t.found if o.kind not in ("count", "group")]
    t.add(at, Op("group", {"keys": [], "measures": [{"agg": "count"}, *({"column": c, "agg": "sum"} for c in totals)], "question": True}))


# only orders over 100 / 超过100的单子: a comparison of the rows, never of a summary's figure
ROWS_NAMED = lazy(r"(?<![a-z_])(?:orders?|rows?|records?|entries|entry|transactions?|visits?|lines?|sales|bookings?|tickets?|jobs?)(?![a-z_])"
                 r"|单子?|笔|记录|明细|行(?!数)", re.I | re.A)


FIGURE_PRONOUN = lazy(r"(?:这个|那个)(?:数字?|值)(?=\s*(?:大于|小于|超过|高于|低于|不低于|不超过|不少于|至少|等于|>|<|=))")
# keep customers where that is more than 1 / 那个数大于1的: the figure just made, said by a pronoun
FIGURE_REF = lazy(r"(?<![a-z_])(?:that|it|this)\s+(?:is|was|'s)(?![a-z_])|(?<![a-z_])(?:that|the|this)\s+(?:number|count|figure|total|value)(?![a-z_])"
                  r"|(?:这个|那个)(?:数|数字|值)", re.I | re.A)
ONLY_THOSE = lazy(r"(?<![a-z_])(?:only|just|keep|those|ones|them)(?![a-z_])|只看|只要|只留|保留|(?:的|的呢|呢)\s*[?？]?\s*$", re.I | re.A)


def _summary_figure(sheet: SheetInfo, key: str | None = None) -> str | None:
    """The one figure of a summary read back (Spend_sum beside its rows column, a key set aside): what a comparison or an
    order said alone is on."""
    from tools.ops import ROWS

    nums = [c for c in sheet.columns if c in sheet.numeric and c != key]
    figures = [c for c in nums if c not in ROWS.values()]
    return figures[0] if len(figures) == 1 and len(nums) == 2 else None


def _figure_of_each_row(sheet: SheetInfo) -> str | None:
    """The figure a summary gives each of its rows: its one figure, or its count of rows when that is all it holds."""
    from tools.ops import ROWS

    nums = [c for c in sheet.columns if c in sheet.numeric]
    return _summary_figure(sheet) or (nums[0] if len(nums) == 1 and nums[0] in ROWS.values() else None)


MONEY_SIZE = lazy(r"\d\s*(?:k|K|万|千)(?![a-zA-Z])|[$¥￥£€]\s*\d")


def _rule_bare_comparison(t: _Turn) -> None:
    """大于4.5 with no column: kept for the caller to ask about, also beside conditions that did find their columns
    (数学或物理（低于60分）: 科目 is read, 低于60 has no column and is never dropped)."""
    read = (t.cp.spans if t.has("filter") and t.cp is not None else []) + [sp for sp, _ in t.having] + t.compared
    for bm in BARE_CMP.finditer(t.text):
        if any(a < bm.end() and bm.start() < b for a, b in read):
            continue
        num = parse_number(bm.group("v"))
        if num is not None:
            t.out.bare.append((BARE_OPS[bm.group("op")], tidy(num)))
            kept = [(i, o) for i, o in t.found if not (o.kind == "select" and not o.args.get("columns"))]  # keep those above 11: no columns kept
            said_of = not t.hits or FIGURE_REF.search(t.text) is not None and all(h.column not in t.sheet.numeric for h in t.hits)
            alone = said_of and all(o.kind == "filter" for _, o in kept) and ROWS_NAMED.search(t.text) is None
            if alone and (kept or ONLY_THOSE.search(t.text)):
                t.out.bare_alone, t.found = True, kept
            f = next((o for _, o in t.found if o.kind == "filter"), None)
            if f is None and not any(a < bm.end() and bm.start() < b for a, b in t.spans) and (t.found or t.out.bare_alone):
                # average revenue per region, only orders over 100: a comparison is never dropped; which column is asked
                f = Op("filter", {"conditions": [], "logic": "and"})
                t.add(bm.start(), f)
            if t.out.bare_alone:  # (read: the figure it is on is the summary's, or the column is asked)
                t.spans += [bm.span(), *(m.span() for m in ONLY_THOSE.finditer(t.text))]
            figure = _summary_figure(t.sheet) if t.out.bare_alone else None
            if f is not None and figure is not None:  # only those over 20, of a total per Buyer: its one figure (Spend_sum)
                f.args["conditions"] = [*f.args["conditions"], Cond(figure, BARE_OPS[bm.group("op")], tidy(num), None, bm.group(0), "exact")]
            elif f is not None and MONEY_SIZE.search(bm.group(0)) and len(money := _money_columns(t.sheet)) == 1:
                # opportunities over 100k / 5万以上的单子: a figure in thousands or 万 is the one money column's
                f.args["conditions"] = [*f.args["conditions"], Cond(money[0], BARE_OPS[bm.group("op")], tidy(num), None, bm.group(0), "synonym")]
                t.spans.append(bm.span())
            elif f is not None:  # the filter asks which column the comparison is on
                nums = tuple(c for c in t.sheet.columns if c in t.sheet.numeric)[:3]
                f.args["conditions"] = [*f.args["conditions"], Cond(None, BARE_OPS[bm.group("op")], tidy(num), None, bm.group(0), "bare", nums)]
                f.args["unresolved"] = [*f.args.get("unresolved", []), _unres(bm.group(0), nums)]
                if not t.out.bare_alone:  # (said alone, it may be of the summary before: no table is judged by it; asked if not)
                    t.unresolved(1)
        break


STAT_AGGS = ("median", "mean", "sum", "min", "max")


def _rule_stat_having(t: _Turn) -> None:
    """按班级算实缴金额中位数，只要中位数大于4000的班级 / 各客户金额的中位数，然后筛出大于25的: a comparison with no column, said
    after a statistic per key, keeps the keys by that figure (a summary and a having), never asks for a column."""
    stats = [(k, o) for k, (_, o) in enumerate(t.found) if o.kind == "stats"]
    bare = [(k, o) for k, (_, o) in enumerate(t.found) if o.kind == "filter" and o.args.get("conditions")
            and all(c.column is None and c.how == "bare" for c in o.args["conditions"])]
    if len(stats) != 1 or len(bare) != 1 or len(bare[0][1].args["conditions"]) != 1:
        return
    k, st = stats[0]
    cols, aggs, by = st.args.get("columns") or [], st.args.get("stats") or [], st.args.get("by") or []
    if len(cols) != 1 or len(aggs) != 1 or aggs[0] not in STAT_AGGS or not by:
        return
    from tools.ops import measure_name

    c = bare[0][1].args["conditions"][0]
    lang = "en" if language(t.text) == "en" else "zh"
    measure = {"column": cols[0], "agg": aggs[0]}
    t.found[k] = (t.found[k][0], Op("group", {"keys": list(by), "measures": [measure]}))
    t.found = [x for j, x in enumerate(t.found) if j != bare[0][0]]
    t.add(len(t.text), Op("having", {"conditions": [Cond(measure_name(cols[0], aggs[0], lang), c.op, c.value, raw=c.raw, how="aggregate")],
                                     "measure": measure}))
    t.unresolved(-len(bare[0][1].args.get("unresolved") or []))
    at = t.text.find(c.raw) if c.raw else -1
    if at >= 0:  # (the comparison, and the verb that keeps by it, are read)
        lead = re.search(r"(?:筛出|筛选出|挑出|选出|找出|留下)\s*$", t.text[:at])
        t.spans.append((lead.start() if lead else at, at + len(c.raw)))


# how many units of goods (买了几台 / 卖了多少件 / how many units): the quantity column added up, never a count of rows
def _rule_goods_question(t: _Turn) -> None:
    gm = GOODS_Q.search(t.text)
    if gm is None or t.worded:
        return
    qty = [c for c in t.sheet.columns if c in t.sheet.numeric and lx.concept_of(c) == "quantity"]
    if len(qty) != 1:
        return  # no column of quantities, or several: the question is asked
    for k, (i, o) in enumerate(t.found):  # 其他产品各卖了多少台: the units are the figure of each group, not a column to ask for
        unres = o.args.get("unresolved") or []
        if o.kind == "group" and unres and all(GOODS_Q.search(u.get("raw", "")) for u in unres):
            args = {key: v for key, v in o.args.items() if key != "unresolved"}
            t.found[k] = (i, Op("group", {**args, "measures": [{"column": qty[0], "agg": "sum"}]}, o.after))
            t.unresolved(-len(unres))
            t.spans.append(gm.span())
            return
    if t.has("group", "count", "top_n"):
        return
    t.add(gm.start(), Op("group", {"keys": [], "measures": [{"column": qty[0], "agg": "sum"}], "question": True}))
    t.spans.append(gm.span())


# how many sessions were sold / number of tickets per plan, over a numeric column named by what it counts: its total
COUNTED_FIGURE_Q = lazy(r"(?<![a-z_])(?:how many|(?:the\s+)?(?:total\s+)?number of)\s+(?:the\s+)?$", re.I)
NOT_A_COUNT = lazy(r"\s*(?:(?:is|are|was|were)\s+)?(?:[<>=]|over|under|above|below|more than|less than|at least|at most|between|greater|fewer|higher|lower)(?![a-z_])"
                   r"|\s+(?:with|where|whose|having|that|which)(?![a-z_])", re.I)


def _rule_counted_figure(t: _Turn) -> None:
    for h in t.hits:
        if h.column not in t.sheet.numeric or h.column in t.sheet.dates or ROW_ID.search(h.column) or h.how not in ("exact", "synonym", "partial") \
                or not COUNTED_FIGURE_Q.search(t.text, max(0, h.start - 24), h.start) or NOT_A_COUNT.match(t.text, h.end) or not t.free(h.start):
            continue
        q = COUNTED_FIGURE_Q.search(t.text, max(0, h.start - 24), h.start)
        assert q is not None
        sums = [{"column": h.column, "agg": "sum"}]
        for k, (i, o) in enumerate(t.found):  # number of sessions per Plan: each plan's total, never its rows
            if o.kind == "group" and o.args.get("keys") and all(not m.get("column") or m.get("column") == h.column for m in o.args.get("measures") or []):
                t.found[k] = (i, Op("group", {**o.args, "measures": sums}, o.after))
                t.spans += [q.span(), (h.start, h.end)]
                return
        if t.found and not all(o.kind == "profile" for _, o in t.found):
            return
        t.found = [(i, o) for i, o in t.found if o.kind != "profile"]
        t.add(q.start(), Op("group", {"keys": [], "measures": sums, "question": True}))
        t.spans += [q.span(), (h.start, h.end)]
        return


TOTAL_ROWS_Q = lazy(r"(?:一共|总共|共|总计|合计|(?<![哪])有)\s*(?:有)?\s*(?:多少|几)\s*(?:单|条|行|笔|项|张|票|套|台|辆)(?:记录|数据|订单)?"
                    # 修了多少单 / 接了几单 / 来了几次: a verb's rows counted, each one a row
                    r"|(?<=[\u4e00-\u9fff])(?<!花)(?<!赚)(?<!卖)(?:了|过)\s*(?:多少|几)\s*(?:单|笔|趟|次|回)(?![\u4e00-\u9fff])"
                    # 一共多少个 / 有多少会员 / how many members do we have: the rows, when what is counted is what the rows are
                    r"|^\s*(?:那|这里|这个表|表里)?\s*(?:一共|总共)?\s*有?\s*多少\s*(?:个|位|名|户|人|条|笔|单)?\s*(?:会员|客户|员工|学生|用户|患者|人|记录|数据)?\s*(?:呀|啊|呢)?\s*[?？]?\s*$"
                    r"|^\s*(?:so\s+)?how many(?:\s+(?:members|customers|employees|people|staff|students|users|patients|donors|records|entries|rows|items|of them))?"
                    r"(?:\s+(?:are there|do we have|do i have|have we got|are in|in total|total|there are|we have|exist))?(?:\s+(?:in|of|from))?\s*\??\s*$", re.I | re.A)


# how many portions / pieces were sold (卖了多少份, 销量多少件): the goods counted, never the order lines
GOODS_Q = lazy(r"(?:卖|售|销|订|点|买|出|送|做|用|消耗|领)了?\s*(?:出)?\s*(?:一共|总共|共)?\s*(?:多少|几)\s*(?:份|件|杯|瓶|盒|箱|台|包|袋|斤|公斤|千克|吨|碗|盘|支|只|双|套|桶)"
               r"|(?<![a-z_])how many (?:units|pieces|portions|items|servings|cups|boxes|packs)(?![a-z_])", re.I | re.A)


def _quantity_column(sheet: SheetInfo) -> str | None:
    """The one column of a table that holds how many were sold (数量, 件数, qty, quantity)."""
    cols = [c for c in sheet.columns if c in sheet.numeric and (lx.concept_of_name(c) == "quantity" or lx.concept_of(c) == "quantity")]
    return cols[0] if len(cols) == 1 else None


def _rule_count_question(t: _Turn) -> None:
    """How many rows meet a condition: 有多少客户在上海？ (一共多少单, with none: the table's rows)."""
    goods = GOODS_Q.search(t.text)
    qty = _quantity_column(t.sheet) if goods is not None else None
    if goods is not None and qty is not None and not t.has("group", "count", "top_n"):
        t.add(goods.start(), Op("group", {"keys": [], "measures": [{"column": qty, "agg": "sum"}], "question": True}))
        t.spans.append(goods.span())  # 水煮鱼一共卖了多少份: the portions sold, 数量 added up
        return
    counted = next((q for q in COUNT_Q.finditer(t.text) if not any(h.start < q.end() and q.start() < h.end for h in t.hits)), None)  # (分数 is a column)
    # 去重以后是多少人 / 去完还剩多少行 / how many are left after: the rows the dedupe leaves (有几条重复的: the duplicates, said by it)
    rows_left = t.has("dedupe") and re.search(r"(?:以后|之后|后|去完|完了?)\s*(?:是|有|还剩|剩下?|还有)?\s*(?:多少|几)\s*(?:人|条|行|笔|单|位|名)|还剩|剩下|(?<![a-z_])(?:how many (?:rows|records|people) (?:are )?left|how many are left)",
                                              t.text, re.I | re.A)
    if counted is not None and (t.has("filter") or rows_left) and not t.has("group", "count", "bucket", "pivot"):  # (each month: the bucket counts)
        t.add(len(t.text) - 1, Op("count", {"question": True}))  # (按会员卡号去重以后是多少人: the rows left, counted)
    elif not t.found and (rm := TOTAL_ROWS_Q.search(t.text) or _rows_counted_by_noun(t, t.text)) is not None and _names_counted(t) is None:
        other = _people_of_other_rows(t, rm.group(0))
        if other is not None:  # 一共多少会员, over orders (订单号 first, 会员号 repeated): the different members, never the orders
            t.add(0, Op("group", {"keys": [], "measures": [{"column": other, "agg": "distinct"}], "question": True}))
        else:
            t.add(0, Op("profile", {"head": None, "columns": [], "question": "rows"}))
        t.spans.append(rm.span())


PEOPLE_EN = {"会员": "member", "客户": "customer", "员工": "employee", "学生": "student", "用户": "user", "患者": "patient"}
PEOPLE_NOUN = lazy(r"会员|客户|员工|学生|用户|患者|(?<![a-z_])(?P<en>member|customer|employee|student|user|patient|donor)s?(?![a-z_])", re.I | re.A)


def _people_of_other_rows(t: _Turn, said: str) -> str | None:
    """How many members, said over a table whose rows are something else (orders numbered by 订单号, 会员号 a column
    beside it): the one column of ids the noun starts, when another column numbers the rows; None when the rows are
    the people themselves (会员号 the table's first column)."""
    noun = PEOPLE_NOUN.search(said)
    if noun is None:
        return None
    stems = {(noun.group("en") or noun.group(0)).casefold(), PEOPLE_EN.get(noun.group(0), noun.group(0)).casefold()}
    cols = t.sheet.columns
    lead = [c for c in cols if c.casefold().replace("_", " ").startswith(tuple(stems)) and c not in t.sheet.numeric and c not in t.sheet.dates]
    ids = [c for c in lead if ID_COLUMN.search(c)]
    lead = ids if len(lead) > 1 and len(ids) == 1 else lead
    if len(lead) != 1 or not cols or cols[0] == lead[0]:
        return None
    return lead[0] if any(ROW_ID.search(c) for c in cols if c != lead[0] and c not in t.sheet.dates) else None


EACH_VALUE = lazy(r"分别|各自|各是|各为|各有|各(?=多少|几)|(?<![a-z_])(?:respectively|each|separately)(?![a-z_])", re.I | re.A)


def _split_values(f: Op) -> str | None:
    """The column whose two or more values a filter keeps (A和B / A或B / A, B): the one each figure is asked of."""
    conds = [c for c in f.args.get("conditions", []) if c.column]
    multi = [c.column for c in conds if c.op == "in" and isinstance(c.value, list) and len(c.value) >= 2]
    if len(multi) == 1:
        return multi[0]
    eqs = [c.column for c in conds if c.op == "eq"]
    if not multi and f.args.get("logic") == "or" and len(eqs) >= 2 and len(set(eqs)) == 1:
        return eqs[0]
    return None


EACH_HOW_MANY = lazy(r"(?:各|分别|各自)(?:是|有)?\s*(?:多少|几)(?:个|人|条|笔|单|次|位|名)?(?!\s*(?:钱|元|块))", re.I)


COUNT_TAIL = r"(?:有|是)?\s*(?:多少|几)\s*(?:个|人|位|名|条|笔|单|次|家|户)?\s*(?:呢|啊)?"
PARALLEL_COUNTS = lazy(COUNT_TAIL + r"\s*[，,、]\s*[^，,。；;]{1,12}?" + COUNT_TAIL + r"\s*[?？。]?\s*$")


def _rule_each_value(t: _Turn) -> None:
    """技术部和市场部金额合计分别是多少 / A and B's totals, respectively: one figure per value (the filter to those values,
    grouped by their column), never one figure pooled over both."""
    em = EACH_VALUE.search(t.text)
    f = next((o for _, o in t.found if o.kind == "filter" and not o.args.get("delete")), None)
    pm = PARALLEL_COUNTS.search(t.text) if em is None and f is not None else None
    if pm is not None and f is not None and (col := _split_values(f)) is not None and all(o.kind in ("filter", "count", "profile") for _, o in t.found):
        # 女生有多少，男生有多少 / 银卡几个，金卡几个: each value asked in its own clause, each counted
        t.found = [(i, o) for i, o in t.found if o.kind == "filter"]
        t.add(pm.start(), Op("group", {"keys": [col], "measures": [{"agg": "count"}], "question": True}))
        t.spans.append(pm.span())
        return
    if em is None or f is None or any(w.kind not in ("stats", "pivot") for w in t.worded):
        return  # (a statistic read by its own words is asked of each value too)
    if t.cp.years_listed:  # 2023年和2024年分别的金额合计: one figure per year
        _each_year(t, f, em)
        return
    col = _split_values(f)
    left = [c.column for c in f.args.get("conditions", []) if c.column and c.op in ("ne", "not_in")]
    if col is None and len(set(left)) == 1 and all(o.kind in ("filter", "count") for _, o in t.found) and EACH_HOW_MANY.match(t.text, em.start()):
        col = left[0]  # 除了微信、支付宝以外的缴费方式，各有几笔: each of the other values, counted
    if col is None:
        return
    if all(o.kind == "filter" for _, o in t.found) and EACH_HOW_MANY.match(t.text, em.start()):
        # 男孩女孩各多少 / A and B, how many each: each value's rows counted, never the rows of both kept as they are
        t.add(em.start(), Op("group", {"keys": [col], "measures": [{"agg": "count"}], "question": True}))
        t.spans.append(em.span())
        return
    for k, (i, o) in enumerate(t.found):
        if o.kind == "group" and not o.args.get("keys"):
            t.found[k] = (i, Op("group", {**{a: v for a, v in o.args.items() if a != "question"}, "keys": [col]}))
        elif o.kind == "count":
            t.found[k] = (i, Op("group", {"keys": [col], "measures": [{"agg": "count"}]}))
        elif o.kind == "stats" and not o.args.get("by"):  # 男的女的年龄中位数各是多少: the statistic of each value
            t.found[k] = (i, Op("stats", {**o.args, "by": [col]}))
        elif o.kind == "group" and col not in o.args["keys"] and not o.args.get("measures") and not o.args.get("unresolved"):
            # 各科室初诊和复诊分别多少: each key's rows of each value, counted
            t.found[k] = (i, Op("group", {**o.args, "keys": [*o.args["keys"], col], "measures": [{"agg": "count"}]}))
        elif o.kind == "pivot" and not o.args.get("columns") and o.args.get("rows") and col not in o.args["rows"]:
            t.found[k] = (i, Op("pivot", {**o.args, "columns": col}))  # …分别多少，做个透视表: the values across the top
        else:
            continue
        t.spans.append(em.span())
        return


def _each_year(t: _Turn, f: Op, em: re.Match[str]) -> None:
    dated = next((c.column for c in f.args.get("conditions", []) if c.column in t.sheet.dates and c.op == "between"), None)
    for k, (i, o) in enumerate(t.found):
        if dated is None or o.kind not in ("group", "count") or (o.kind == "group" and o.args.get("keys")):
            continue
        m = next((x for x in o.args.get("measures") or [] if x.get("column")), None)
        args = {"unit": "year", "column": dated, "agg": m["agg"] if m else "count", **({"value": m["column"]} if m else {})}
        t.found[k] = (i, Op("bucket", args))
        t.spans.append(em.span())
        return


FEE_TOTAL = lazy(r"(?<=[费款金钱租税])\s*(?:的)?\s*(?:一共|总共|合计|总计|加起来)\s*(?:是|有|收了|交了|收|交)?\s*多少(?!\s*(?:条|笔|个|次|单|行|人|户|家|件|种|类))")
MONEY_Q = lazy(r"多少钱|花(?:了|掉|费)?(?:多少|几)|(?<![a-z_])(?:how much (?:money|did|was|were|is|are)|spent|spend|cost)(?![a-z_])", re.I | re.A)
SUM_Q = lazy(r"一共|总共|合计|总计|共计|加起来|总额|花(?:了|掉|费)|(?<![a-z_])(?:total|in all|altogether|spent|spend)(?![a-z_])", re.I | re.A)
EACH_Q = lazy(r"各(?:自|是)?|分别(?:是)?|(?<![a-z_])each(?![a-z_])", re.I | re.A)  # 按支付方式各多少钱: each key's money, totalled
SOLD_FOR = lazy(r"(?:卖|赚|收|挣|销售|回款|进账)了?多少钱|(?<![a-z_])how much (?:money )?did .{1,40}? (?:sell|make|earn|bring in)(?![a-z_])", re.I | re.A)
MONEY_NAME = lazy(r"(?:(?:line|order|sale|invoice|grand)\s+)?total|revenue|sales", re.I | re.A)  # a column named Total holds the money
MONEY_COL = lazy(r"金额|费用|费|钱|花费|支出|成本|价款|营业额|销售额|营收|(?<![a-z_])(?:amount|cost|spend|spending|expense|fee|payment)s?(?![a-z_])", re.I | re.A)


# money said as how much was paid (每单多少钱 / 每笔花多少 / 消费多少), after a statistic: the money column's figure
MONEY_NOUN = lazy(r"钱|花费|生意|营收|收入|(?<![a-z_])(?:money|business|revenue)(?![a-z_])", re.I | re.A)  # the word for money, said as what is most
MONEY_SAID = lazy(r"(?:每(?:一)?(?:单|笔|次|人|个人|位|张))?\s*(?:的)?\s*(?:(?:花|消费|付|收|卖)(?:了|掉|费)?\s*多少(?:钱)?|多少钱)"
                  r"|每(?:一)?(?:单|笔|次|人|个人|位|张)\s*(?:的)?\s*多少")


def _money_columns(sheet: SheetInfo) -> list[str]:
    """The numeric columns holding money (金额 / 费用 / amount)."""
    return [c for c in sheet.columns if c in sheet.numeric and (lx.concept_of(c) == "amount" or MONEY_COL.search(c) or MONEY_NAME.fullmatch(c))]


def _money_column(sheet: SheetInfo) -> str | None:
    """The one numeric column holding money, else None."""
    money = _money_columns(sheet)
    return money[0] if len(money) == 1 else None


def _rule_money_question(t: _Turn) -> None:
    """市场部的差旅一共花了多少钱 / how much was spent on travel: the total of the table's money column over the rows
    the conditions keep; with several money columns, which one is asked back."""
    mq = next((x for x in MONEY_Q.finditer(t.text) if t.free(x.start())), None)  # (Total Cost = …: a new column's name, read)
    mq = mq or FEE_TOTAL.search(t.text)  # 阳光花园物业费一共多少: a fee said, its total asked
    if mq is None or not (SUM_Q.search(t.text) or SOLD_FOR.search(t.text)) or t.worded or t.has("group", "count", "top_n"):
        return
    if any(h.column in t.sheet.numeric for h in t.hits if t.free(h.start)):
        return  # a numeric column is named: the value question reads it
    money = _money_columns(t.sheet)
    if len(money) == 1:
        counted = [{"agg": "count"}] if COUNT_ASKED.search(t.text) else []  # 退款的有几条，一共退了多少钱: both asked, both said
        t.add(mq.start(), Op("group", {"keys": [], "measures": [*counted, {"column": money[0], "agg": "sum"}], "question": True}))
    else:  # none or several: never a row listing in place of the total asked for
        t.add(mq.start(), Op("group", {"keys": [], "measures": [], "question": True,
                                       "unresolved": [{**_unres(mq.group(0), tuple(money) or tuple(c for c in t.sheet.columns if c in t.sheet.numeric)[:3]),
                                                       "agg": "sum"}]}))
        t.unresolved(1)
    t.spans.append(mq.span())


TOTAL_TOO = lazy(r"(?:多少|几)\s*(?:" + ROW_CLASSIFIERS + r")?\s*(?:[，,、]|和|还有|以及)\s*(?P<t>总额|总金额|金额合计|合计|一共多少钱)\s*(?:是)?\s*多少"
                 r"|(?<![a-z_])how many\b.{0,30}?\b(?:and|,)\s+(?:what(?:'s| is| was)\s+)?(?:the\s+)?(?P<t2>total)(?:\s+(?:amount|value))?\s*[?.]?\s*$", re.I)
FIGURE_LISTED = lazy(r"(?:多少|几)\s*(?:" + ROW_CLASSIFIERS + r")\s*(?:[，,、]|和|还有|以及|加上)\s*(?:一共|总共)?\s*(?:花了|收了|卖了|付了)?\s*$")
HOW_MUCH = lazy(r"(?<![a-z_])how much(?: (?:total|in total))?\s+(?:the\s+|of the\s+)?", re.I | re.A)


def _rule_how_much(t: _Turn) -> None:
    """how much revenue (…, excluding North): the total of the numeric column named right after "how much", over the rows
    the conditions keep; never the rows listed in place of the figure asked for."""
    m = HOW_MUCH.search(t.text)
    if m is None or t.worded or t.has("group", "count", "top_n"):
        return
    hit = next((h for h in t.hits if h.start == m.end() and h.column in t.sheet.numeric and t.free(h.start)), None)
    if hit is None:
        return
    t.add(m.start(), Op("group", {"keys": [], "measures": [{"column": hit.column, "agg": "sum"}], "question": True}))
    t.spans += [m.span(), (hit.start, hit.end)]


DISTINCT_AFTER = lazy(r"\s*(?:一共|总共|共)?\s*(?:有)?\s*(?:多少|几)\s*(?:个|种|类|位|名|家|款|门|样)\s*(?:不同的?|不一样的?|不重复的?)?\s*(?:值|的)?\s*(?:呢|啊|吗|呀)?\s*(?:[?？。!！]|$)")
# 导购不重复的个数 / 商品名称去重后有几个: the number of different values said after the column (never rows deduplicated)
DISTINCT_COUNTED = lazy(r"\s*(?:的)?\s*(?:不重复的?|不同的?|不一样的?|去重(?:以?后|之后)?的?|去掉重复(?:以?后|之后)?的?)\s*(?:值的?)?\s*"
                        r"(?:个数|数量|数目|总数|有(?:多少|几)\s*(?:个|种|类|位|名|家)?|是多少|(?:一共)?(?:多少|几)\s*(?:个|种|类|位|名|家))"
                        r"\s*(?:呢|啊|吗|呀)?\s*(?:[?？。!！]|$)")
DISTINCT_BEFORE = lazy(r"(?:一共|总共|共)?\s*有\s*(?:多少\s*(?:个|种|类|位|名|家|款|门)?|几\s*(?:个|种|类|位|名|家|款|门))\s*(?:不同的?|不一样的?|不重复的?)?\s*$"
                       # 一共多少客户 / 多少个客户 / how many customers / the number of drivers: a column of names counted is its
                       # different values (an orders table holds a customer on many rows; its rows are no count of customers)
                       r"|(?:一共|总共|共|总计)\s*(?:有|是)?\s*(?:多少|几)\s*(?:个|位|名|家)?\s*(?:不同的?)?\s*$|(?<![有几])多少\s*(?:个|位|名|家)\s*$"
                       # 一共修了多少辆车: vehicles counted, each one a different value of the column that names them
                       r"|(?<=[\u4e00-\u9fff])(?:了|过)\s*(?:多少|几)\s*(?:辆|台|部|架|艘)\s*$"
                       r"|(?<![a-z_])(?:how many|(?:the\s+)?number of|count of|count(?:\s+up)?)(?:\s+(?:different|distinct|unique|individual))?"
                       r"(?:\s+of)?(?:\s+(?:the|our|my))?\s+$", re.I | re.A)


DISTINCT_WORD_AFTER = lazy(r"(?:有\s*(?:多少|几)\s*(?:种|类|款|个|位|名|辆|台|家|户|部|架|艘)|(?<=[\u4e00-\u9fff])(?:了|过)\s*(?:多少|几)\s*(?:辆|台|部|架|艘))\s*(?:不同的?)?\s*(?P<w>[\u4e00-\u9fff]{1,4}?)"
                          r"(?=$|[，,。？?呢吗啊]|\s|(?:来|去)?(?:买|消费|下单|光顾|参加|报名|上课|用|办|签|来|去|接|做|处理|负责|服务|接待|值|修|送|卖|跑|出)(?:过|了)?)")


ID_COLUMN = lazy(r"(?:编号|编码|代码|卡号|工号|学号|号码|ID|Id|id|No\.?)$|(?<![a-z])id(?![a-z])", re.I)


def _rule_distinct_named(t: _Turn) -> None:
    """销售员有多少个不同的 / 缴费方式有几种 / 一共有几个销售员: the number of different values of a column of names,
    never a preview of the table."""
    if t.explore or t.has("group", "top_n", "stats", "sort", "select"):
        return
    hits = list(t.hits)
    for b in DISTINCT_WORD_AFTER.finditer(t.text):  # 各有几种药: 药 is a part of 药品名称
        col, how, _ = resolve_column(b.group("w"), t.sheet, closest=False)
        lead = [c for c in t.sheet.columns if c.startswith(b.group("w")) and c not in t.sheet.numeric and c not in t.sheet.dates]
        ids = [c for c in lead if ID_COLUMN.search(c)]
        if col is None and len(lead) > 1 and len(ids) == 1:  # 多少个不同的会员, over 会员编号 and 会员姓名: each one is its number
            lead = ids
        if col is None and len(lead) == 1:  # 几种药: the one column of names that starts with the word
            col, how = lead[0], "partial"
        if col is not None and how in ("partial", "synonym") and not any(h.start <= b.start("w") < h.end for h in hits):
            hits.append(ColumnHit(b.start("w"), b.end("w"), col, how))
    for h in hits:
        if not _of_names(t, h) or not t.free(h.start):  # (how many refunded: a yes-no column said is the rows it keeps)
            continue
        after = DISTINCT_AFTER.match(t.text, h.end) or DISTINCT_COUNTED.match(t.text, h.end)
        before = DISTINCT_BEFORE.search(t.text, max(0, h.start - 16), h.start)
        if after is None and before is None:
            continue
        t.found = [(i, o) for i, o in t.found if o.kind not in ("count", "dedupe")  # 一共有多少个不同的会员: the different ones, never the rows
                   and not (o.kind == "profile" and o.args.get("question") == "rows")]
        t.add(h.start, Op("group", {"keys": [], "measures": [{"column": h.column, "agg": "distinct"}], "question": True}))
        t.spans += [x.span() for x in (after, before) if x is not None] + [(h.start, h.end)]
        return


def _rule_head(t: _Turn) -> None:
    """导出前 20 行: the first rows, when something else is done with them."""
    hm = lx.HEAD_N.search(t.text)
    kept = hm is not None and hm.group(3) is not None and not t.hits  # then keep only the first 20: the rows, nothing else said
    if hm and (t.found or _export_word(t) or kept) and not t.has("top_n", "head"):
        g = next((x for x in hm.groups() if x), None)
        if g:
            t.add(hm.start(), Op("head", {"n": int(parse_number(g) or 10)}))
            t.spans.append(hm.span())


def _export_word(t: _Turn) -> re.Match[str] | None:
    """The first word asking to write the result that is not a part of a column's name (库存为0: 库存 is the column, 存为
    is no "save as")."""
    return next((m for m in lx.EXPORT.finditer(t.text) if not any(h.start < m.end() and m.start() < h.end for h in t.hits)), None)


# save as all_clean.xlsx / 保存为 门店汇总.xlsx: the name the user gives the file written (in outputs/, never over a file)
OUT_NAME = lazy(lx.SAVE_AS + r"\s*"
                r"[\"'“「]?(?P<n>[^\s\"'”」/\\,，;；:：*?<>|]{1,60}?)\.(?P<e>xlsx|csv)(?![a-z0-9_])", re.I)


def _rule_export(t: _Turn) -> None:
    em = _export_word(t)
    fmt = t.flags.get("target_format")
    named = OUT_NAME.search(t.text)
    if named is not None:
        t.spans.append(named.span())  # the name given is read once, over the whole request (gate._u_output_name)
    if (em or fmt) and not t.flags.get("export_list"):
        t.add(em.start() if em else len(t.text), Op("export", {"format": fmt}))


# the rows themselves counted, said in so many words (how many rows / records, 有多少行 / 几条记录): never a count of people or
# things, which may hide a condition or a distinct count (how many customers are in Japan / 有多少个不同的读者)
ROWS_ASKED = lazy(r"(?<![a-z_])how many (?:rows|records|entries|lines)(?![a-z_])|(?<![a-z_])(?:number|count) of (?:rows|records|entries)(?![a-z_])"
                  r"|(?:多少|几)\s*(?:行|条记录|条数据)|行数|记录数|(?<![简])单数(?![月周日号行])|订单数|笔数|条数"
                  r"|(?:一共|总共|总计|共)\s*\w{0,2}?(?:多少|几)\s*(?:次|回|本)(?!数)", re.I)  # 三个馆一共借了多少次: each row one time


# how many tickets are there in Q2 / how many bookings do we have: a plural no column names, the rows counted
HOW_MANY_OF_ROWS = lazy(r"(?<![a-z_])how many\s+(?:[a-z]+\s+){0,1}?[a-z]{3,}s\s+(?:are|were|is|do|did|does|have|has|in|on|at|there|we|came|got)(?![a-z_])"
                        r"|(?<![a-z_])how many\s+[a-z]{3,}s\s*[?.]?\s*$", re.I)


def _rule_profile(t: _Turn) -> None:
    """Describe / preview (表头在第3行: read it again with that header)."""
    if not t.found and t.header_said:
        t.add(0, Op("profile", {"head": None, "columns": []}))
    if t.found:
        return
    pm = lx.PROFILE.search(t.text) or lx.HEAD_N.search(t.text) or COUNT_Q.search(t.text)
    head = lx.HEAD_N.search(t.text)
    if pm or t.flags.get("bare_file"):
        n = None
        if head:
            g = next((x for x in head.groups() if x), None)
            n = int(parse_number(g) or 5) if g else 5
        rows = pm is not None and not head and not t.hits and (ROWS_ASKED.search(t.text) is not None or HOW_MANY_OF_ROWS.search(t.text) is not None)  # how many rows are there / 有多少行
        t.add(pm.start() if pm else 0, Op("profile", {"head": n, "columns": [h.column for h in t.hits], **({"question": "rows"} if rows else {})}))


# the rules of one turn, in the order they run: a later rule sees what the earlier ones read
TOTAL_NAMED_ASKED = lazy(r"^\s*(?:and|so|then)?\s*(?:what(?:'s| is| was| were| are)\s+)?(?:the\s+)?(?P<c>\x00+)\s*(?:of\s+(?:those|them|these|that|all of them)|for\s+(?:those|them|these|that))?\s*[?？]\s*$"
                        r"|^\s*(?:那|那么)?\s*(?:这些|他们|它们)?\s*(?:的)?\s*(?P<z>\x00+)\s*(?:呢|是多少|一共多少|合计多少)\s*[?？]?\s*$", re.I)


def _rule_total_named_asked(t: _Turn) -> None:
    """and the invoice total of those? / 这些的总金额呢: a column that holds a total, asked alone of the rows in play,
    is its sum (the name says the statistic)."""
    if t.found or len(t.hits) != 1:
        return
    h = t.hits[0]
    if h.column not in t.sheet.numeric or not (MONEY_NAME.search(h.column) or re.search(r"合计|总额|总金额|总价|总计|(?<![a-z])(?:total|sum|amount)(?![a-z])", h.column, re.I)):
        return
    m = TOTAL_NAMED_ASKED.match(t.text[: h.start] + "\x00" * (h.end - h.start) + t.text[h.end :])
    if m is None:
        return
    t.add(h.start, Op("group", {"keys": [], "measures": [{"column": h.column, "agg": "sum"}], "question": True}))
    t.spans.append((0, len(t.text)))


TURN_RULES = (
    _prepare, _rule_versus_overall, _rule_worded, _rule_compare, _rule_outliers, _rule_correlate, _rule_join, _settle_explore,
    _rule_which_top, _rule_best_selling, _rule_most_counted, _rule_rename, _rule_drop_columns, _rule_add_column, _rule_rounding, _rule_fill_or_clean, _rule_latest_each, _rule_dedupe,
    _rule_ratio, _rule_keys, _rule_having, _rule_money_having, _rule_count_having, _rule_bare_having, _rule_sort, _rule_group, _rule_select, _rule_top_n, _rule_filter, _rule_row_count,
    _rule_values_question, _rule_money_question, _rule_how_much, _rule_value_question, _rule_count_and_total, _rule_bare_comparison, _rule_stat_having, _rule_goods_question, _rule_counted_figure, _rule_count_question, _rule_each_value, _rule_distinct_named, _rule_head,
    _rule_total_named_asked, _rule_round_numbers, _rule_export, _rule_profile,
)


ASKED_AGAIN_Q = lazy(r"呢\s*[?？]?\s*$|^\s*(?:and\s+)?(?:what|how) about(?![a-z_])", re.I | re.A)
AXES_NAMED = lazy(r"行和列|行与列|行列|(?<![a-z_])(?:rows?|columns?|cols?|axes|axis)(?![a-z_])", re.I | re.A)  # what a flip turns
WHOLE_CONDITION = lazy(r"条件|筛选|(?<![a-z_])(?:condition|filter)", re.I | re.A)


YEAR_ALONE = lazy(r"(?<![\d\-/.])((?:19|20)\d{2})(?![\d\-/.年])")


def parse_turn(text: str, sheet: SheetInfo, flags: dict[str, Any]) -> TurnOps:
    """Operations of one turn (file and sheet names already blanked out)."""
    t = _Turn(text, sheet, flags, TurnOps(correction=bool(lx.CORRECTION.search(text)), whole_condition=bool(WHOLE_CONDITION.search(text)),
                                          adds=bool(lx.ADDITIVE.search(text)), include_too=bool(lx.INCLUDE_TOO.search(text)),
                                          asked_again=bool(ASKED_AGAIN_Q.search(text)), said=text))
    for rule in TURN_RULES:
        rule(t)
    _part_counted(t)
    _flag_counted(t)
    out = t.out
    out.brought = _brought(t)
    inc = lx.INCLUDE_TOO.search(text) if out.include_too else None
    if inc is not None:  # 上海的呢，白金也算上: only the values of the include word's own clause join their column's values
        lo = max((m.end() for m in CLAUSE_END.finditer(text, 0, inc.start())), default=0)
        hi = next((m.start() for m in CLAUSE_END.finditer(text, inc.end())), len(text))
        out.included = frozenset(str(v) for _, o in t.found if o.kind == "filter" for c in o.args.get("conditions") or []
                                 for v in (c.value if isinstance(c.value, (list, tuple)) else [c.value]) if str(v) in text[lo:hi])
    low = text.casefold()
    out.flag_said = not out.correction and not ONLY_SAID.search(text) and any(w in low for w in flag_words(sheet))
    out.consumed = t.spans + [(h.start, h.end) for h in t.hits] + list(t.cp.spans) + [c for c in t.rewritten if any(a < c[1] and c[0] < b for a, b in [*t.spans, *((h.start, h.end) for h in t.hits)])] + ([m.span() for m in lx.ADDITIVE.finditer(text)] if out.adds else []) \
        + ([m.span() for m in lx.INCLUDE_TOO.finditer(text)] if out.include_too else [])
    if not t.has("chart"):  # 城市分成多条线 / add Carrier as the series: a chart's series, for the chart the request holds
        from modes.tagging.series import flipped, series_key

        out.split, split_spans = series_key(text, [h for h in t.hits if h.column not in sheet.dates])
        out.consumed += split_spans
        flip = flipped(text)
        if flip is not None:
            out.flip = True
            out.consumed += [flip, *(m.span() for m in AXES_NAMED.finditer(text))]
    ym = YEAR_ALONE.search(text) if out.correction and not t.has("filter") else None
    if ym is not None:
        out.year = int(ym.group(1))
        out.consumed.append(ym.span())
    # the words' order, with what a sequence word places after the operation before it; the query (modes.query) runs
    # the rows' operations before any summary, cut or chart, whatever that order
    found = _said_after(sorted(t.found, key=lambda f: f[0]), t.text)
    exports = [o for _, o in found if o.kind == "export"]
    out.ops = [o for _, o in found if o.kind != "export"] + exports[:1]
    for o in out.ops:
        for c in o.args.get("conditions", []):
            if c.how == "typo":
                out.typos.append(c.raw)
    return out


PART_CLAUSE_END = lazy(r"[，,；;。]|(?<![a-z_])(?:and|but)(?![a-z_])", re.I | re.A)
AMONG_THEM = lazy(r"其中|(?<![a-z_])(?:of which|of them|of those|among them)(?![a-z_])", re.I | re.A)
PART_COUNT = lazy(r"(?<!哪)几(?:" + ROW_CLASSIFIERS + r")|有几|多少(?:" + ROW_CLASSIFIERS + r")?|占几|的?(?:行数|单数|条数|件数|个数)|(?<![a-z_])(?:how many|count of|number of)(?![a-z_])", re.I | re.A)


def _part_counted(t: _Turn) -> None:
    """每种投诉类型有多少条，未处理的有几条 / tickets per type, and how many of them are open: a count per group of all
    its rows, and in a clause of its own a count of those meeting a condition: the condition is that count's (a figure
    of the summary), never a filter of the rows every figure is over."""
    groups = [(at, o) for at, o in t.found if o.kind == "group" and o.args.get("keys")]
    filters = [(at, o) for at, o in t.found if o.kind == "filter" and (o.args.get("logic") or "and") == "and" and o.args.get("conditions")]
    if len(groups) != 1 or len(filters) != 1 or not t.key_spans:
        return
    (_, g), (fat, f) = groups[0], filters[0]
    ms = list(g.args.get("measures") or [])
    bounds = [0, *(m.end() for m in PART_CLAUSE_END.finditer(t.text)), len(t.text) + 1]
    clause = lambda i: next(k for k in range(len(bounds) - 1) if bounds[k] <= i < bounds[k + 1])  # noqa: E731
    fc, kc = clause(fat), clause(t.key_spans[0][0])
    f_text = t.text[bounds[fc] : bounds[fc + 1]]
    among = AMONG_THEM.search(t.text, max(0, fat - 12), fat + 2)  # 其中待处理的有几单 / of which … : a part of each group
    if not (among or fc != kc and kc < fc) or not PART_COUNT.search(f_text):
        return
    if not among and not all(m.get("agg") == "count" and not m.get("column") for m in ms):
        return  # in its own clause, beside a count of each group only: the groups' own figure is their count of rows
    part = {"agg": "count", "where": list(f.args["conditions"])}
    kept = [m for m in ms if m.get("column")] or [{"agg": "count"}]
    t.found = [(at, Op("group", {**g.args, "measures": [*kept, part]}, g.after)) if o is g else (at, o) for at, o in t.found if o is not f]


ONLY_SAID = lazy(r"只|仅|光|(?<![a-z_])only(?![a-z_])", re.I | re.A)  # 只数延误的: the rows narrowed, never a figure added


BRING_AFTER = lazy(r"\s*(?:这一?列|那一?列|列)?\s*(?:也|都|一起|一并)?\s*(?:给我)?\s*(?:带上|带出来|带过来|加上|加进来|显示出来|显示上|列出来|放上|放进来)"
                   r"|\s+(?:too|as well|alongside)(?![a-z_])", re.I | re.A)


def _brought(t: _Turn) -> list[str]:
    """把会员姓名也带上 / 导购也显示出来 / show member name too, with nothing else asked: the text columns to show
    beside what ran; a summary takes them as keys (a name beside its number)."""
    if t.found:
        return []
    out = []
    for h in t.hits:
        if h.column in t.sheet.numeric or h.column in t.sheet.dates or h.how not in ("exact", "synonym"):
            continue
        if BRING_AFTER.match(t.text, h.end):
            out.append(h.column)
    return list(dict.fromkeys(out))


def _flag_counted(t: _Turn) -> None:
    """哪个司机延误最多 / which tech had the most callbacks: a total of a yes-no column is how many of its rows say yes
    (a filtered count named by the column's word), never a sum of the words 是 and 否."""
    for i, (at, o) in enumerate(t.found):
        if o.kind != "group":
            continue
        ms = list(o.args.get("measures") or [])
        new = [{"agg": "count", "where": [Cond(m["column"], "eq", yes, raw=m["column"], how="exact")], "label": flag_noun(m["column"])}
               if m.get("column") and not m.get("where") and m.get("agg") == "sum" and (yes := flag_yes(t.sheet, m["column"])) is not None else m
               for m in ms]
        if new != ms:
            t.found[i] = (at, Op("group", {**o.args, "measures": new}, o.after))


def _said_after(found: list[tuple[int, Op]], text: str) -> list[tuple[int, Op]]:
    """An operation written after a sequence word (然后, 再, then) that follows the operation before it in the words is
    marked to run on that result (modes.query keeps it there)."""
    out: list[tuple[int, Op]] = []
    for i, (at, o) in enumerate(found):
        prev = found[i - 1][0] if i else None
        cuts = [a for a, c in found[:i] if c.kind in ("top_n", "head")]
        cut = cuts[-1] if cuts else None  # the last cut said before, whatever was said between
        within = cut is not None and cut < at and (WITHIN_CUT.search(text, cut, at) is not None  # 金额前10的订单里，华丰的…
                                                   or AMONG_BEFORE.search(text[max(0, cut - 14) : cut]) is not None)  # among the top 10
        if prev is not None and prev < at and o.kind != "export" and (LATER_STEP.search(text, prev, at) or within):
            o = Op(o.kind, o.args, after=True)
        out.append((at, o))
    return out


# the rows of a cut said as where the rest is looked for: 前10的订单里 / among the top 5, …
AMONG_BEFORE = lazy(r"(?<![a-z_])(?:among|of|within|from)\s+(?:the\s+)?$|在\s*$", re.I | re.A)
WITHIN_CUT = lazy(r"(?:里|中|之中|当中|其中|里面)\s*[，,]|(?<![a-z_])(?:among|of these|of those|of them)(?![a-z_])", re.I | re.A)


LATER_STEP = lazy(lx.SEQUENCE_WORDS + r"|(?<![a-z_])(?:then|after that|afterwards)(?![a-z_])", re.I | re.A)


