"""The keys of a join: the column of each table the rows are matched on.

Two tables often call their key differently (客户ID ↔ Customer ID). A key pair the user states is used as stated
("销售订单的客户ID对应customers的Customer ID", "orders.客户ID = customers.Customer ID"); a key the first table has
and the second does not is asked about, naming the second table's columns, before anything runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from modes.catalog import Catalog, FileInfo, SheetInfo
from modes.resolve import ColumnHit, find_columns
from modes.tagging.segment import word_alternation, words_toml

# what may stand between the two keys of a stated pair (the file names are blanked out of the text already)
PAIR_GAP = re.compile(r"[\s.。的:：]*(?:对应于?|对上|对|匹配|等于|==|=|↔|<->|->|(?:corresponds |maps )?to|matches|equals)[\s.。的:：]*", re.I | re.A)
AND_GAP = re.compile(r"[\s.。的:：]*(?:跟|和|与|and)[\s.。的:：]*", re.I | re.A)  # 客户ID和Customer ID对应
PAIR_AFTER = re.compile(r"\s*(?:是)?(?:对应|匹配|对上|相等|一致|相同|match|correspond)", re.I | re.A)
KEY_WORDS = re.compile(r"关联|合并|连接|匹配|对应|join|merge|match", re.I | re.A)


def _exact(hits: list[ColumnHit]) -> list[ColumnHit]:
    return [h for h in hits if h.how in ("exact", "synonym")]


LEAD = re.compile(r"(?:(?<![a-z_])(?:where|when|on|using|by|with)|按照?|以|用|其中|通过)\s*$", re.I | re.A)


def pair_span(text: str, a: SheetInfo, b: SheetInfo) -> tuple[str, str, int, int] | None:
    """(key of a, key of b, start, end): a stated key pair and the words that state it (with a leading where / 按)."""
    if not KEY_WORDS.search(text):
        return None
    ha, hb = _exact(find_columns(text, a)), _exact(find_columns(text, b))
    for x in ha:
        for y in hb:
            first, second = (x, y) if x.end <= y.start else (y, x)
            if x.column == y.column or first.end > second.start:
                continue
            gap = text[first.end : second.start]
            after = PAIR_AFTER.match(text, second.end)
            if PAIR_GAP.fullmatch(gap) or AND_GAP.fullmatch(gap) and after:
                lead = LEAD.search(text[: first.start])
                return x.column, y.column, lead.start() if lead else first.start, after.end() if after else second.end
    return None


def stated_pair(text: str, a: SheetInfo, b: SheetInfo) -> tuple[str, str] | None:
    """A column of the first table and one of the second, written as matching each other."""
    p = pair_span(text, a, b)
    return (p[0], p[1]) if p else None


KEY_SAID = re.compile(r"(?:(?<![a-z_])(?:by|on|using|via|matched on|matching on|keyed on)\s+(?:the\s+)?|按照?\s*|通过\s*|根据\s*|用\s*)", re.I)
CLAUSE_END = re.compile(r"[，,；;。]|然后|接着|之后|(?<![a-z_])(?:then|and then)(?![a-z_])", re.I)


@dataclass(frozen=True)
class Lookup:
    """Columns of another table brought onto each row of this one (VLOOKUP): the table receiving them, the table they
    come from, the columns, and the spans of the words that said it (the verb, the columns, the little words)."""

    base: str
    source: str
    columns: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]
    verb: tuple[int, int] = (0, 0)
    later: bool = False  # the verb's clause follows another (…卖了多少件，再把 B 的 X 对上去): it works on what came before
    key: str | None = None  # by Technician / 按工号: the key said in the lookup's clause
    sheet: str | None = None  # 阳光园的…, of a workbook found by that sheet's name: the sheet that receives the columns


@cache
def _joined_before() -> re.Pattern[str]:
    w, alt = words_toml()["lookup"], word_alternation
    return re.compile(rf"(?:{alt(w['join_zh'])}|(?<![a-z_])(?:{alt(w['join_en'])}))\s*(?:上|the\s+)?$", re.I)


WITH_BEFORE = re.compile(r"(?:跟|和|与|同)\s*$")


@cache
def _join_word_after() -> re.Pattern[str]:
    return re.compile(rf"\s*(?:{word_alternation(words_toml()['lookup']['join_zh'])})")


def _joined_after(text: str, a: int, b: int) -> re.Match[str] | None:
    """The table said between 跟 / 和 and a join word of words.toml [lookup] (跟花艺师.csv关联): the match of the word
    before it, as the join's."""
    if _join_word_after().match(text, b) is None:
        return None
    return WITH_BEFORE.search(text, 0, a)


# 花艺师=工号, in its own clause beside a join word: the two keys of a join, never a formula
KEY_PAIR_EQ = re.compile(r"(?:^|(?<=[，,；;\s]))[^\s=＝，,；;+\-*/()（）]+\s*[=＝]\s*[^\s=＝，,；;+\-*/()（）]+\s*(?=[，,；;。]|$)")


def _only_key_pairs(text: str) -> bool:
    """Every = of the text states a pair of keys in a clause of its own, and the text says a join."""
    return KEY_WORDS.search(text) is not None and len(KEY_PAIR_EQ.findall(text)) == text.count("=") + text.count("＝")


@cache
def _bring_in() -> re.Pattern[str]:
    w, alt = words_toml()["lookup"], word_alternation
    lead = r"^\s*(?:再|也|并|顺便|另外)?\s*"
    return re.compile(rf"{lead}(?:{alt(w['verbs_zh'])})(?P<a>[^，,。；;]{{1,30}}?)\s*(?:也|一起)?\s*[。.!！]?\s*$"
                      rf"|{lead}把(?P<b>[^，,。；;]{{1,30}}?)\s*(?:也|一起)?\s*(?:{alt(w['verbs_zh'])})\s*[。.!！]?\s*$"
                      rf"|^\s*(?:and\s+|also\s+|now\s+)?(?:{alt(w['verbs_en'])})\s+(?:the\s+|their\s+)?(?P<c>[^,.;]{{1,40}}?)\s*(?:too|as well)?\s*[.!]?\s*$",
                      re.I)


def brought_in_said(text: str) -> str | None:
    """带上医生姓名 / 把医生姓名也带过来 / also bring in the charger model: the words of the columns a turn brings in
    with a carrying verb alone (words.toml [lookup]), naming no table; None for any other turn."""
    m = _bring_in().match(text)
    return next((g for g in m.groups() if g is not None), None) if m is not None else None


@cache
def _lookup_words() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    w = words_toml()["lookup"]
    alt = word_alternation
    verb = re.compile(rf"{alt(w['verbs_zh'])}|(?<![a-z_])(?:{alt(w['verbs_en'])})(?![a-z_])", re.I)
    before = re.compile(rf"(?:{alt(w['from_zh'])}|(?<![a-z_])(?:{alt(w['from_en'])}))\s*(?:the\s+)?$", re.I)
    after = re.compile(rf"\s*(?:{alt(w['of_zh'])}|['’]s(?![a-z]))", re.I)
    into = re.compile(rf"(?:{alt(w['into_zh'])}|(?<![a-z_])(?:{alt(w['into_en'])}))\s*(?:the\s+)?$", re.I)
    return verb, before, after, into


def _mentions(text: str, catalog: Catalog, paths: list[str]) -> list[tuple[str, int, int]]:
    """Where each file of `paths` is named in the text (by its name, else by its stem)."""
    low, out = text.casefold(), []
    for p in paths:
        f = catalog.get(p)
        if f is None:
            continue
        for name in (f.name, f.name.rsplit(".", 1)[0]):
            at = low.find(name.casefold())
            if at >= 0:
                out.append((p, at, at + len(name)))
                break
    return sorted(out, key=lambda m: m[1])


KEY_BEFORE = re.compile(r"(?:(?<![a-z_])(?:by|per|for each)\s+(?:the\s+)?|按照?|每个|各个?)$", re.I)


# a person's or a thing's name said as the word name (their names / 名字 / 姓名): the table's one name column
NAME_WORD = re.compile(r"(?<![a-z_])names?(?![a-z_])|名字|姓名|名称", re.I)
NAME_COLUMN = re.compile(r"(?<![A-Za-z])(?:name|NAME|Name)(?![a-z])|(?<=[a-z])Name(?![a-z])|名字|姓名|名称|名$")  # (TrainerName: its last word)


def _column_at(text: str, at: int, f: FileInfo | None) -> bool:
    """Whether one of the table's columns is said right at `at` (幼儿 | 姓名)."""
    if f is None or not f.is_table or not f.sheets:
        return False
    return any(h.start == at and h.how in ("exact", "synonym") for h in find_columns(text, f.sheets[0]))


def _workbooks_by_sheet(text: str, catalog: Catalog, source: str) -> list[tuple[str, str]]:
    """The workbooks (other than the source) one of whose sheets the text names by a name no other workbook has."""
    from modes.resolve import _distinct_sheet

    low = text.casefold()
    return [(f.path, sh.name) for f in catalog.tables if f.path != source and len(f.sheets) > 1
            for sh in f.sheets if sh.name and _distinct_sheet(sh.name, low) and sh.name.casefold() in low]


def lookup(text: str, catalog: Catalog, paths: list[str], current: str | None, current_sheet: str | None) -> Lookup | None:
    """把 plans.csv 的 Tier 加到 memberships 里 / add Tier and Setup Fee from plans.csv: the table named after "from"
    (or before 的 / 's) gives columns it has and the receiving table lacks; the receiving table is the other one named,
    or the one in use. None unless a carrying verb, the giving table and at least one such column are all said."""
    verb_rx, before, after, into = _lookup_words()
    verbs = list(verb_rx.finditer(text))
    if not verbs or ("=" in text or "＝" in text) and not _only_key_pairs(text):  # a formula written out computes a column; it brings none over
        return None
    found = _mentions(text, catalog, paths)
    source = None
    for p, a, b in found:
        pre = before.search(text[:a])
        of = after.match(text, b)
        if pre is not None or (of is not None and any(v.start() >= of.end() for v in verbs)):
            source = (p, pre.start() if pre else a, of.end() if of and pre is None else b)
            break
        if any(v.end() <= a and not text[v.end() : a].strip() for v in verbs) and _column_at(text, b, catalog.get(p)):
            source = (p, a, b)  # 带上幼儿姓名: the table's name said right before one of its columns, after the carrying verb
            break
    for p, a, b in found if source is None else ():
        joined = _joined_before().search(text[:a]) or _joined_after(text, a, b)
        if joined is not None and any(v.start() >= b and (CLAUSE_END.search(text, b, v.start()) or re.search(r"(?<![a-z_])and\s", text[b : v.start()], re.I)
                                                          or not text[b : v.start()].strip())  # 关联医生.csv带上医生姓名
                                      for v in verbs):
            source = (p, joined.start(), b)  # 关联会员表，带出会员等级和城市: the table joined gives the columns said after
            break
    if source is None:
        return None
    others = [(p, a, b) for p, a, b in found if p != source[0]]
    if len(others) > 1:
        return None
    by_sheet_said = False
    if others:
        base, a, _b = others[0]
        pre = into.search(text[:a])
        base_span = (pre.start() if pre else a, a)
    elif current and current != source[0]:
        base, base_span = current, (0, 0)
    elif len(by_sheet := _workbooks_by_sheet(text, catalog, source[0])) == 1:
        (base, current_sheet), base_span = by_sheet[0], (0, 0)  # 西湖店的订单关联会员.csv，带出…: the workbook its sheet names
        current, by_sheet_said = base, True
    else:
        return None
    src, dst = catalog.get(source[0]), catalog.get(base)
    if src is None or dst is None or not src.is_table or not dst.is_table or not src.sheets or not dst.sheets:
        return None
    sheet = dst.sheet(current_sheet) if base == current and current_sheet else None
    own = {c.casefold() for c in (sheet or dst.sheets[0]).columns}
    hits = [h for h in find_columns(text, src.sheets[0]) if h.how in ("exact", "synonym")
            and not any(a <= h.start < b for _p, a, b in found)]
    named = [c for c in src.sheets[0].columns if NAME_COLUMN.search(c) and c.casefold() not in own]
    if len(named) == 1:  # add their names and seniority from vets.csv: the one name column of the table they come from
        hits += [ColumnHit(m.start(), m.end(), named[0], "synonym") for m in NAME_WORD.finditer(text)
                 if not any(h.start < m.end() and m.start() < h.end for h in hits) and not any(a <= m.start() < b for _p, a, b in found)]
        hits.sort(key=lambda h: h.start)
    verb = next((v for v in verbs if not any(h.start <= v.start() < h.end for h in hits)), None)
    if verb is None:
        return None
    # the columns are the verb's clause's (add Team from plans.csv, then total Fee by Team: the second Team is a key)
    lo = max((m.end() for m in CLAUSE_END.finditer(text, 0, verb.start())), default=0)
    starts = {h.start for h in hits}
    listed = re.compile(r"[,，、]\s*(?:and\s+|和|及)?\s*", re.I)  # add DriverName, Plan from …: a comma in a list of columns ends no clause
    hi = next((m.start() for m in CLAUSE_END.finditer(text, verb.end()) if not ((x := listed.match(text, m.start())) and x.end() in starts)), len(text))
    brought = [h for h in hits if h.column.casefold() not in own and lo <= h.start < hi]
    keyed = [h for h in brought if KEY_BEFORE.search(text, max(0, h.start - 12), h.start)]
    if keyed and len(keyed) < len(brought):  # sum of Hours by Branch (look up Branch in …): the key said, a column of the summary's
        brought = [h for h in brought if h not in keyed]
    if not brought:
        return None
    verbs_said = [v.span() for v in verbs if lo <= v.start() < hi and not any(h.start <= v.start() < h.end for h in hits)]  # look up … and add …
    spans = [(source[1], source[2]), base_span, *verbs_said, *[(h.start, h.end) for h in brought]]
    key = None
    for m in KEY_SAID.finditer(text, lo, hi):  # add Team from techs.csv by Technician: the key both tables have, said with it
        col = next((h.column for h in hits if h.start == m.end() and h.column.casefold() in own), None)
        if col is not None:
            key = col
            spans.append((m.start(), next(h.end for h in hits if h.start == m.end())))
            break
    # what the earlier clauses say besides the tables and the sheet: a step the columns come after
    head = "".join(" " if any(a <= k < b for _p, a, b in found) or source[1] <= k < source[2] else ch for k, ch in enumerate(text[:lo]))
    for sh in dst.sheets:
        head = head.replace(sh.name or "\0", " ")
    later = len(re.sub(r"[\s，,；;。:：]|的|表|里|中|工作表|再|然后|把|将|(?<![a-z])(?:sheet|the|of|in|then|and)(?![a-z])", "", head, flags=re.I)) >= 2
    return Lookup(base, source[0], tuple(dict.fromkeys(h.column for h in brought)), tuple(s for s in spans if s[1] > s[0]), verb.span(), later, key,
                  current_sheet if base == current and by_sheet_said else None)
