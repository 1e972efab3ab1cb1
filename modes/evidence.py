"""What a reading explains and what it leaves out: unexplained content words and requests no tool can do.

A request is explained span by span: file and sheet names, column and value mentions, the words the
operation and condition rules read, numbers and dates, and filler (function words listed below as data).
Content words that remain are evidence that part of the request was not understood; a request with
such words is restated, naming them, never run silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from modes import lexicon as lx
from modes.decision import Evidence
from modes.evidence_weights import WEIGHTS
from modes.lazyre import lazy
from modes.lexicon import FILLER_EN
from modes.tagging import asides
from modes.text import blank as _blank

# Function words and politeness that carry no operation, per language (longest first when removed).
FILLER_ZH = (
    "帮我", "帮忙", "麻烦你", "麻烦", "请你", "请帮我", "请", "能不能", "能否", "可不可以", "可以", "能", "一下", "一下子", "给我", "给",
    "我想", "我要", "我需要", "想要", "需要", "我们", "我", "你", "您", "咱们", "把", "将", "对", "对于", "关于", "从", "在", "用", "拿",
    "的", "地", "得", "了", "吗", "呢", "吧", "啊", "呀", "哦", "嘛", "么", "哈", "和", "与", "及", "以及", "并且", "并", "然后", "接着",
    "再", "都", "也", "还", "就", "又", "里面", "里", "中", "之中", "当中", "其中", "内", "上", "所有", "全部", "全都", "每", "各", "是",
    "有", "没有", "出来", "出", "一个", "一些", "个", "些", "这个", "那个", "这些", "那些", "这", "那", "它", "他们", "哪些", "哪个",
    "什么", "多少", "几", "表格", "表", "数据", "文件", "工作表", "行", "列", "字段", "记录", "结果", "内容", "信息", "情况", "一共",
    "总共", "共", "只", "仅", "分别", "按", "要", "想", "做", "弄", "搞", "看", "看看", "查", "查看", "列出", "显示", "展示", "给出",
    "告诉", "找", "找出", "一样", "如何", "怎么", "怎样", "为", "成", "好", "下", "以", "及其", "其", "以上", "以下", "之间", "时",
    "同时", "另外", "顺便", "先", "最后", "目前", "现在", "当前", "已经", "其他", "其余", "剩下", "多", "少", "大", "小", "高", "低",
    "最", "按照", "根据", "分别是", "一列", "一行", "每个", "每一个", "名", "条", "笔", "家", "人", "位", "次", "项", "种", "类",
    "明显", "直接", "单独", "原文件", "原表", "原来的", "原来", "回", "格式", "编码", "一份", "份", "新的", "新", "帮", "下来",
    "请问", "应该", "应当", "操作", "进行", "考虑", "假设", "希望", "通过", "字符", "符号",
)
# Things people ask for, the operation that does them, and the closest thing wenqing can do when that operation is not
# in the registry (data, not code): only what the registry lacks is ever said to be out of reach (a share within a
# group not named, the position of one value in a ranking and forecasts have no operation yet).
GAPS: tuple[tuple[str, str, str, str, str, str], ...] = (
    (r"中位数|中值|(?<![a-z_])median", "中位数", "the median", "平均值、最小值、最大值", "mean, min and max", "stats"),
    (r"众数|(?<![a-z_])mode of", "众数", "the mode", "按该列分组计数", "counts per value (group and count)", "stats"),
    (r"标准差|方差|(?<![a-z_])(?:std|standard deviation|variance)(?![a-z_])", "标准差/方差", "standard deviation or variance",
     "全面分析里的逐列统计", "per-column statistics of a full analysis", "stats"),
    (r"占比|比例|比重|百分比|百分之几|份额|(?<![a-z_])(?:proportion|percentage|share of|ratio|percent of)(?![a-z_])", "占比/比例", "proportions or percentages",
     "分组求和或计数（再自己相除）", "group totals or counts", "share"),
    (r"组内|组里|内部各|占(?:该|所在|本组)|(?<![a-z_])within (?:each|its|their)(?![a-z_])", "组内占比", "shares within each group",
     "写明按哪一列分组，例如：按区域分组，各类别在组内的占比", "name the grouping column, e.g. by region, each category's share within the region", "share_within_unnamed"),
    (r"图表|柱状图|折线图|饼图|条形图|散点图|画图|画个图|作图|可视化|(?<![a-z_])(?:chart|plot|graph|visuali[sz]e|histogram)(?![a-z_])", "图表", "charts",
     "导出汇总表，用 Excel 画图", "export the summary table and chart it in Excel", "chart"),
    (r"同比|环比|增长率|增速|涨幅|变化率|(?<![a-z_])(?:growth rate|year over year|yoy|month over month|mom)(?![a-z_])", "增长率/同比环比", "growth rates",
     "加一个计算列（两列相除）", "a computed column (one column divided by another)", "growth"),
    (r"累计|累加|running total|cumulative", "累计值", "cumulative totals", "分组求和", "group totals", "running_total"),
    (r"透视表|数据透视|(?<![a-z_])pivot", "透视表", "pivot tables", "按两列分组汇总", "grouping by two columns", "pivot"),
    (r"预测|(?<![a-z_])(?:forecast|predict)", "预测", "forecasts", "看两列的相关性", "the correlation of two columns", "forecast"),
    (r"排名第|名次|(?<![a-z_])rank(?:ing)? of", "名次", "ranks", "排序或取前几名", "sorting or the top N", "rank_position"),
)
GAP_RES = tuple((lazy(p, re.I), zh, en, czh, cen, op) for p, zh, en, czh, cen, op in GAPS)
# a new column computed one way when a condition holds and another way otherwise (如果…折算分=分数*2/3，否则…): said even
# when a formula read a part of it, since running that part alone would change every row
CASE_FORMULA = (r"(?:如果|若|假如|要是).{1,60}?(?:[=＝]|等于|乘|除|加上|减去).{0,60}?(?:否则|不然|其余的?|其他的?|其它的?|不是的话)"
                r"|(?<![a-z_])if(?![a-z_]).{1,60}?(?:=|times|plus|minus|divided by|[*/+]).{0,60}?(?<![a-z_])(?:else|otherwise)(?![a-z_])",
                "按条件分别用不同公式算的列", "a column computed with a different formula per condition",
                "先筛选出要换算的行再加列，或加一个按条件填固定值的条件列", "filter the rows to convert first and add the column there, or an IF column with fixed labels")
CASE_FORMULA_RX = lazy(CASE_FORMULA[0], re.I)


def case_formula_gap(text: str) -> Gap | None:
    """The gap of a per-condition formula, when the text asks for one."""
    return Gap(CASE_FORMULA_RX, *CASE_FORMULA[1:]) if CASE_FORMULA_RX.search(text) else None
QUOTED = lazy(r"(?:(?<![A-Za-z])'|[\"“‘「『])[^'\"”’」』]{1,40}(?:'(?![A-Za-z])|[\"”’」』])")  # (weren't / wasn't: no quote)
CJK_RUN = lazy(r"[\u4e00-\u9fff]+")
CJK_CHAR = lazy(r"[\u4e00-\u9fff]")
LATIN_WORD = lazy(r"[A-Za-z][A-Za-z'_-]+")
FORMATS = lazy(r"(?<![a-z_])(?:csv|tsv|xlsx|xlsm|xls|ods|excel|wps|utf-?8|gbk|gb18030|bom)(?![a-z_])", re.I)
# the words of the rules whose own patterns are slow to scan (rename, drop columns, fill, which-is-highest)
RULE_WORDS = lazy(r"改名为|改名成|重命名为?|改叫|更名为|列名改[成为]|填成|填为|填充|补成|哪(?:个|些|一个|家|位|种|类)|谁|"
                        r"最(?:高|大|多|低|小|少|早|晚|好|差)|(?<![a-z_])(?:rename|fill|which|who|highest|lowest|most|least|largest|smallest)(?![a-z_])",
                        re.I | re.A)
PATH_PART = lazy(r"[\w.\-\u4e00-\u9fff]+[/\\]")
# a code such as S0003 or ORD-1023: letters and digits in one token, a value of some column the sample may not hold
ID_TOKEN = lazy(r"(?<![A-Za-z0-9_.])(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9_-]{2,}(?![A-Za-z0-9_.])")
NUMBER_ETC = lazy(r"\d[\d,.]*\s*(?:%|万|千|亿|k|元|块|岁|天|周|季度|个|条|行|名|人|家|笔|单|次)?", re.I)


@dataclass(frozen=True)
class Gap:
    """Something asked for that no operation does: its name and the closest thing wenqing can do."""

    rx: re.Pattern[str]
    zh: str
    en: str
    closest_zh: str
    closest_en: str

    def say(self, lang: str) -> str:
        if lang == "zh":
            return f"问清还做不了：{self.zh}（最接近的做法：{self.closest_zh}）"
        return f"wenqing cannot do {self.en} yet (closest: {self.closest_en})"


@lru_cache(maxsize=1)
def _known() -> tuple[re.Pattern[str], ...]:
    """Every word list the operation and condition rules read: matches of these are explained."""
    from modes import conditions as cd
    from modes import ops

    pats = [lx.FILTER, lx.DELETE_ROWS, lx.EXCLUDE, lx.RESULT_REF, lx.THEN_START, lx.SET_ASIDE, lx.REMARK, lx.SORT, lx.GROUP, lx.DEDUPE, lx.CLEAN, lx.SELECT, lx.ADD_COLUMN, lx.TOP_N, lx.HEAD_N,
            lx.EXPORT, lx.PROFILE, lx.EXPLORE_COMPARE, lx.EXPLORE_OUTLIER, lx.EXPLORE_RELATION, lx.EXPLORE_JOIN, lx.JOIN_HOW_ANY, lx.FULL,
            lx.PLAN_ONLY, lx.OVERWRITE, lx.NO_OVERWRITE, lx.EXPORT_LIST, lx.QUESTION_DATA, lx.DEICTIC, lx.CORRECTION,
            lx.HEADER_ROW, lx.VAGUE, lx.INCLUDE_TOO, lx.FOLLOW_UP, ops.DESC, ops.ASC, ops.BY_WORD, ops.COUNT_Q, ops.VALUE_Q, ops.VALUES_Q, RULE_WORDS,
            ops.N_COLS, ops.BARE_CMP, ops.SORT_VERB, ops.GROUP_VERB, ops.DEDUPE_DROP,
            cd.QUARTER_RE, cd.RELATIVE_RE, cd.HALF_RE, cd.DATE_RE, cd.YEAR_ALONE]
    pats += [p for _, p in ops.AGG_WORDS] + [re.compile(_edged(p.pattern), re.I | re.A) for _, p in cd.INFIX_RE]
    pats += [re.compile(_edged(p), re.I | re.A) for _, p in cd.POSTFIX + cd.EMPTY]
    pats += [FORMATS, PATH_PART, re.compile(cd.DATE_AFTER + "|" + cd.DATE_BEFORE, re.I | re.A)]
    return tuple(pats)


def _edged(alternation: str) -> str:
    """A word list whose English words match only whole (not in another, over in overall), its other words anywhere."""
    return rf"(?:(?=[a-z])(?<![a-z_])|(?![a-z]))(?:{alternation})(?:(?<=[a-z])(?![a-z_])|(?<![a-z]))"


@lru_cache(maxsize=1)
def operative() -> re.Pattern[str]:
    """The words that put something into a query (an operation, a condition, a negation, a limit): a clause holding one
    is never an aside."""
    from modes import conditions as cd
    from modes import ops
    from modes.tagging import segment

    pats = [lx.FILTER, lx.EXCLUDE, lx.DELETE_ROWS, lx.SORT, lx.GROUP, lx.DEDUPE, lx.CLEAN, lx.SELECT, lx.ADD_COLUMN, lx.TOP_N,
            lx.HEAD_N, lx.EXPORT, lx.FULL, lx.OVERWRITE, lx.PLAN_ONLY, ops.DESC, ops.ASC, RULE_WORDS]
    pats += [p for _, p in ops.AGG_WORDS] + [p for _, p in cd.INFIX_RE]
    bodies = [re.sub(r"\(\?P<\w+>", "(?:", p.pattern) for p in pats] + [re.escape(w) for w in segment.words().operative]
    return re.compile("|".join(f"(?:{b})" for b in bodies), re.I | re.A)


# a bound said in Chinese (以上 / 以下 / 超过 …): explained only when a rule read it with its figure or value
BOUND_UNREAD = lazy(r"及以上|及以下|或以上|或以下|以上|以下|超过|低于|高于|不到|不足|至少"
                    # 最近一个月 / 近30天 / the last 30 days: a recent period no rule read is a part dropped, never filler
                    r"|(?:最近|近|过去)\s*(?:[一二两三四五六七八九十半]|\d+)\s*(?:个)?\s*(?:月|天|日|周|星期|年|季度)"
                    r"|(?<![a-z_])(?:the\s+)?(?:last|past|previous)\s+(?:\d+|two|three|four|five|six|seven|ten|twelve|thirty)\s+(?:days|weeks|months|years)(?![a-z_])")


SPLIT_ZH = lazy(r"[的了和与及把将在是对从给用按都也还就吗呢吧啊呀并再又]")
FILLER_SET = frozenset(FILLER_ZH)
FILLER_BY_LENGTH = sorted(FILLER_ZH, key=len, reverse=True)


def _strip_edges(piece: str) -> str:
    """A run with filler words removed where they stand at either end (帮我算 -> 算)."""
    return _edges().sub("", piece)


@lru_cache(maxsize=1)
def _edges() -> re.Pattern[str]:
    alt = "|".join(re.escape(w) for w in FILLER_BY_LENGTH)
    return re.compile(f"^(?:{alt})+|(?:{alt})+$")


@lru_cache(maxsize=1)
def _known_union() -> re.Pattern[str]:
    """Every word list as one pattern, so most requests are scanned once."""
    bodies = [re.sub(r"\(\?P<\w+>", "(?:", p.pattern) for p in _known()]
    return re.compile("|".join(f"(?:{b})" for b in bodies), re.I | re.A)


@lru_cache(maxsize=1)
def _filler_zh() -> re.Pattern[str]:
    return re.compile("|".join(re.escape(w) for w in sorted(FILLER_ZH, key=len, reverse=True)))


# the meanings of a figure: a word of one that no rule read is named, never taken for what the rows are
MEASURE_CONCEPTS = frozenset({"amount", "cost", "discount", "margin", "price", "profit", "quantity", "rating", "salary", "spend", "tax",
                              "age", "stock", "magnitude"})


def _concept(word: str) -> bool:
    """A word of the lexicon's column meanings (商品, customers): it names what the rows or a sheet are."""
    w = word.casefold()
    c = lx.concept_of(w) or (lx.concept_of(w[:-1]) if w.endswith("s") else None)
    return bool(c) and c not in MEASURE_CONCEPTS  # 营业额 (an amount) left unread is a figure dropped, never what the rows are


MONTH_ALONE = lazy(r"(?<![\d年/\-.])(?:1[0-2]|0?[1-9]|[一二三四五六七八九十]|十[一二])\s*月份?(?!\d)"
                         r"|(?<![\d年/\-.])(?:1[0-2]|0?[1-9])\s*月\s*(?:3[01]|[12]\d|0?[1-9])\s*[日号]"
                         r"|(?<![\d\w.\-/])(?:19|20)\d{2}\s*(?:财年|财政年度|年度|(?i:fiscal year))(?![\d\-/])"
                         r"|(?<![a-zA-Z])(?i:fy|fiscal year)\s*(?:19|20)?\d{2}(?![\d\-/])"
                         r"|(?:19|20)\d{2}\s*(?:年|-|/|\.)\s*(?:1[0-2]|0?[1-9])(?:\s*(?:月|-|/|\.)\s*(?:3[01]|[12]\d|0?[1-9])\s*(?:日|号)?|\s*月份?)?")


def unexplained(text: str, consumed: Iterable[tuple[int, int]], extra: Iterable[re.Pattern[str]] = (),
                data: frozenset[str] | None = None) -> list[str]:
    """Content words of text outside the consumed spans that no word list explains. With `data` (the words of the
    table in play: its values and columns), Chinese is read as words by the segmenter: a word left out is named
    whole, a data word counts whatever its length, and function words by their class never count."""
    consumed = list(consumed)
    consumed += asides.purpose_clauses(text, consumed, operative(), data) + asides.row_nouns_en(text, consumed, data)
    periods = [m.group(0) for m in MONTH_ALONE.finditer(text) if not any(a < m.end() and m.start() < b for a, b in consumed)]
    read = _blank(text, consumed)
    rest = NUMBER_ETC.sub(lambda m: " " * len(m.group(0)), read)
    codes = list(ID_TOKEN.finditer(read))
    data_left = data is not None and any(len(w) == 1 and w in rest for w in data)  # 女的有几个: a one-character value
    bounds = [m.group(0) for m in BOUND_UNREAD.finditer(read)]  # 金卡以上: a bound no rule read is a part dropped, never a known word
    if not _content(rest) and not codes and not data_left:  # most requests: every word already read
        return periods + bounds
    spans = [m.span() for p in (_known_union(), *extra) for m in p.finditer(read) if m.end() > m.start()]
    if _content(_blank(rest, spans)) or data_left:  # one scan explains most requests; the word lists one by one read the rest
        spans += [m.span() for p in _known() for m in p.finditer(read) if m.end() > m.start()]
    codes_left = [m.group(0) for m in codes if not any(a < m.end() and m.start() < b for a, b in spans)]  # top10 is read
    left = _blank(rest, spans)
    words = _words_left(text, left, data) if data is not None else None
    return list(dict.fromkeys(periods + codes_left + bounds + (words if words is not None else _content(left))))  # 3月份 unread: a period dropped


def _words_left(text: str, left: str, data: frozenset[str]) -> list[str] | None:
    """The content words of the text that lie wholly in what no rule read (`left` is text with the read spans
    blanked): Chinese by the segmenter's words, Latin as before. None without a segmenter."""
    from modes.tagging import segment

    segment.add_data_words(data)
    toks = segment.tokens(text)
    if toks is None:
        return None
    out: list[str] = []
    after_purpose = False
    end = -1  # where the last word named ends: words right after it are one phrase with it (物流 + 时效)
    for i, t in enumerate(toks):
        if not all(CJK_CHAR.match(ch) for ch in t.word):
            continue
        whole = left[t.start : t.end] == t.word
        if t.word in segment.words().purpose:
            after_purpose = True  # 发给领导: whom the result is for, not what it holds
            continue
        only_filler = t.word not in data and not _filler_zh().sub("", t.word)  # 表里, 一下子: filler words run together
        if whole and _rows_noun(toks, i, data):
            continue  # …是承兑汇票的合同: what the rows are called
        if whole and not after_purpose and not only_filler and segment.is_content(t, data) and not _concept(t.word):
            if out and t.start == end:
                out[-1] += t.word
            else:
                out.append(t.word)
            end = t.end
        after_purpose = after_purpose and not whole
    cjk_free = CJK_RUN.sub(lambda m: " " * len(m.group(0)), left)
    return out + _content(cjk_free)


def _rows_noun(toks: list[Any], i: int, data: frozenset[str]) -> bool:
    """A noun right after 的 that closes its phrase (the clause ends, or a verb of taking the rows follows): the name of
    what the rows are (…的合同 / …的学生，其余的导出 / …为空的户筛出来), never a condition of its own."""
    from modes.tagging import segment

    t = toks[i]
    if i == 0 or toks[i - 1].word != "的" or t.word in data or t.word in segment.words().operative or t.pos.startswith("v") \
            or not segment.is_content(t, data):
        return False
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    return nxt is None or nxt.pos in ("x", "w") or not nxt.word.strip() or any(nxt.word.startswith(w) or w.startswith(nxt.word)
                                                                               for w in asides.aside_words().take_zh)


def _content(rest: str) -> list[str]:
    out: list[str] = []
    for run in CJK_RUN.findall(rest):
        for piece in SPLIT_ZH.split(run):
            left = _filler_zh().sub(" ", piece) if piece in FILLER_SET else _strip_edges(piece)
            out += [w for w in left.split() if len(w) >= 2 and not _concept(w)]  # 商品, 员工: what the rows are
    for w in LATIN_WORD.findall(rest):
        if len(w) >= 3 and not _filler_en(w.casefold()) and not _concept(w):
            out.append(w)
    return out


CONTRACTION = lazy(r"^(?P<stem>[a-z]+?)(?:n't|'s|'re|'ve|'ll|'d|'m)$|^(?P<neg>[a-z]+)n't$")
NEGATED = {"is", "are", "was", "were", "do", "does", "did", "have", "has", "had", "can", "could", "would", "should", "will", "wo", "ca"}


def _filler_en(w: str) -> bool:
    """A function word, or one written with its plural s or a contraction (what's, there're, isn't, don't)."""
    w = w.replace("’", "'")
    if w in FILLER_EN or w.rstrip("s") in FILLER_EN:
        return True
    m = CONTRACTION.match(w)
    stem = (m.group("stem") or m.group("neg")) if m else None
    return stem is not None and (stem in FILLER_EN or stem in NEGATED)


def gaps(text: str, consumed: Iterable[tuple[int, int]] = ()) -> list[Gap]:
    """Things asked for (outside the consumed spans) that no operation does."""
    rest = _blank(text, list(consumed) + [m.span() for m in QUOTED.finditer(text)])  # '同比增长' in quotes is a value
    have = _registered()
    return [Gap(rx, zh, en, czh, cen) for rx, zh, en, czh, cen, op in GAP_RES if op not in have and rx.search(rest)]


@lru_cache(maxsize=1)
def _registered() -> frozenset[str]:
    """The operations the registry holds (read once, when a gap is first looked for)."""
    from modes import opspec

    return frozenset(s.name for s in opspec.all_ops())


def weighed(key: str, reason: str, en: str = "") -> Evidence:
    """One piece of evidence, its weight read from the calibrated table; the factor is the key's first part."""
    return Evidence(key.split("_", 1)[0], WEIGHTS[key], reason, en, key)
