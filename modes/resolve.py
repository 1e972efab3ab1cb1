"""Resolving names: which file, which sheet, which column a person meant."""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache, lru_cache

from modes import crosslang
from modes import lexicon as lx
from modes.catalog import Catalog, FileInfo, SheetInfo
from modes.lazyre import lazy
from modes.text import CJK, edit_distance, fold

FILE_EXT = r"(?:xlsx|xlsm|xls|csv|ods|tsv|txt|json|docx?|pdf|pptx?|md)"
NAMED_FILE = lazy(r"([\w\-.()（）\u4e00-\u9fff]+?)\.(" + FILE_EXT[3:-1] + r")\b", re.I | re.A)
GENERIC_TOKENS = {
    "data", "sample", "file", "files", "table", "sheet", "list", "test", "new", "copy", "final", "output",
    "数据", "表格", "文件", "表", "最新", "副本", "明细",
}
# words that name what to do, not which file: 统计 in 按部门统计月薪 never describes 统计年鉴摘录.xlsx by itself
VERB_TOKENS = {"统计", "汇总", "分析", "筛选", "排序", "对比", "比较", "合计", "计算", "清洗", "导出", "预览", "查询", "整理"}
LEAD_WORDS = lazy(r"^.*(?:把|将|打开|分析一下|分析|预览一下|预览|筛选|看看|看一下|对比一下|对比|和|跟|与|给|在|从|用|里|是)", re.S)
FILEISH = lazy(r"表|文件|数据|那个|那份|这个|poi|file|list|sheet|workbook|spreadsheet|data|的", re.I | re.A)
TYPE_WORDS = lazy(r"\bcsv\b|csv文件|\bexcel\b|\bxlsx\b|\bxls\b|表格|工作簿|spreadsheet|workbook", re.I | re.A)
FORMAT_LEAD = lazy(r"(?:转成|转为|转换成|转换为|转|导出成|导出为|导出|另存为|另存|存成|存为|保存为|保存成|输出为|输出成|成|为|as|to|into|in)\s*(?:一个|个|一份|一张|an?|one|a single|single)?\s*(?:big\s+|single\s+)?$", re.I | re.A)


@dataclass
class FileRef:
    """What an utterance says about files."""

    how: str = "none"  # named | stem | fuzzy | description | current | type | missing | ambiguous | none
    paths: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    missing_name: str | None = None
    spans: list[tuple[int, int]] = field(default_factory=list)
    used_tokens: list[str] = field(default_factory=list)
    target_format: str | None = None
    sheet: str | None = None  # a sheet whose name described the file (用下半年那张表): that sheet is the one meant
    by_sheet: bool = False  # the file was found by a sheet's name alone: a guess, said back before it runs

    @property
    def path(self) -> str | None:
        return self.paths[0] if self.paths else None


def _covered(spans: list[tuple[int, int]], a: int, b: int) -> bool:
    return any(s < b and a < e for s, e in spans)


STEM_SPLIT = lazy(r"[_\-\s.()（）]+")
STEM_RUN = lazy(r"[\u4e00-\u9fff]+|[a-z]+|\d+")
NAME_SUFFIX = lazy(r"(?:表格|表|数据|明细|清单|列表|信息|记录)$")


@functools.lru_cache(maxsize=8192)
@functools.lru_cache(maxsize=512)
def _stem_tokens(stem: str) -> tuple[str, ...]:
    toks: list[str] = []
    for p in STEM_SPLIT.split(stem.casefold()):
        for run in STEM_RUN.findall(p):
            cjk = "\u4e00" <= run[0] <= "\u9fff"
            if run in GENERIC_TOKENS or (not cjk and len(run) < 3) or run.isdigit():
                continue
            toks.append(run)
            core = NAME_SUFFIX.sub("", run) if cjk else run
            if core != run and len(core) >= 2:
                toks.append(core)
            if cjk and len(run) >= 4:  # 幼儿园缴费: its words (幼儿园, 缴费), never pairs of characters cut across them (园缴)
                from modes.tagging.segment import words_inside

                # (a long name describes its data: 私营工业企业主要经济指标's words are the request's words about that data)
                inside = words_inside(run) if len(run) <= 6 else None
                parts = inside if inside is not None else [run[i : i + 2] for i in range(0, len(run) - 1, 2)]
                toks += [w for w in dict.fromkeys(parts) if w not in GENERIC_TOKENS and w not in toks]
    return tuple(toks)


def stem_tokens(f: FileInfo) -> list[str]:
    return list(_stem_tokens(f.stem))


def _token_hits(token: str, low: str) -> list[tuple[int, int]]:
    if CJK.match(token):
        return [(m.start(), m.end()) for m in re.finditer(re.escape(token), low)] if token in low else []
    if token.rstrip("s") not in low:
        return []
    pat = re.escape(token.rstrip("s")) + r"s?"
    return [(m.start(), m.end()) for m in re.finditer(r"(?<![a-z])" + pat + r"(?![a-z])", low)]


@functools.lru_cache(maxsize=1024)
def _concept_words(concept: str) -> tuple[str, ...]:
    """The lexicon's words for a concept that can describe a file (two characters or more, not generic), in lexicon order."""
    return tuple(w for w, c in lx.synonyms().items() if c == concept and len(w) >= 2 and w not in GENERIC_TOKENS)


def _may_hit(token: str, low: str) -> bool:
    """Whether a stem token can match in find_files' description step (by itself, a synonym, or a 2-character piece)."""
    if _token_hits(token, low):
        return True
    if any(_token_hits(w, low) for w in _concept_words(lx.concept_of(token) or "")):
        return True
    return bool(CJK.match(token)) and len(token) >= 3 and any(token[i : i + 2] in low for i in range(len(token) - 1))


SAVED_AS = re.compile(lx.SAVE_AS + r"\s*[\"'“「]?\s*(?:outputs/)?$", re.I)
SAVED_NAME = re.compile(lx.SAVE_AS + r"\s*[\"'“「]?\s*(?:outputs/)?(?P<n>[^\s,，;；\"”」.]+\.[A-Za-z]{2,5})(?![\w.])", re.I)  # the name a file is written under
NAME_GIVEN = re.compile(r"(?:改名为|改名成|重命名为|命名为|更名为|(?:名称|名字|列名|名)(?:更改|修改|改)?[为成]|(?:更改|修改|改)(?:列名|名称)为|名为|叫做|"
                        r"(?<![a-z])(?:to|as|called|named)(?![a-z]))\s*[\'\"“‘「]?\s*(?:$|(?=[A-Za-z]))", re.I)


def _names_operation(tok: str) -> bool:
    from modes import opspec

    return any((p := opspec._pattern(s)) is not None and p.fullmatch(tok) for s in opspec.all_ops())


RANK_WORD = re.compile(r"(?:top|bottom|first|last)-\d+s?", re.I)


@functools.cache
def _operation_words() -> frozenset[str]:
    """The hyphenated words that ask for an operation (t-test, chi-square) or name a concept (e-mail)."""
    from modes import opspec

    words = [w for s in opspec.all_ops() for ws in s.words.values() for w in ws] + list(lx.synonyms())
    return frozenset(w.casefold() for w in words if "-" in w or "_" in w)


def _a_word(tok: str, catalog: Catalog) -> bool:
    """A token shaped like a file name that is a word: a column's name (a plural too), an operation's word, top-10."""
    low = tok.casefold()
    return (low in catalog.known_names or low.removesuffix("s") in catalog.known_names or low in _operation_words()
            or bool(RANK_WORD.fullmatch(tok)))


LATIN_TOKEN = re.compile(r"[A-Za-z0-9_\-.]+")


def _data_tokens(low: str, files: tuple[FileInfo, ...], names_said: bool = False) -> list[tuple[int, int]]:
    """The spans of written tokens joined by _ . - that are a column's name or a known value of one of the tables."""
    toks = [m for m in LATIN_TOKEN.finditer(low) if re.search(r"[_.\-]", m.group(0).strip(".-_"))]
    if not toks and not names_said:
        return []  # (nothing joined and no name of several words to look for: no table is read for it)
    known = {x.casefold() for f in files if f.is_table for sh in f.sheets for x in (*sh.columns, *(v for vs in sh.values.values() for v in vs))}
    # Repair Cost_sum: a name of several words holding the token (Cost_sum) is said whole, and the token is part of it
    inside = [(m.start(), m.end()) for x in known if " " in x and x in low for m in re.finditer(re.escape(x), low)
              if not re.match(r"[a-z0-9_]", low[m.end() : m.end() + 1]) and not re.match(r"[a-z0-9_]", low[m.start() - 1 : m.start()] if m.start() else "")]

    def held(tok: str) -> bool:  # e-bikes: the plural of a value E-Bike
        return tok in known or (tok.endswith("s") and tok[:-1] in known) or (tok.endswith("es") and tok[:-2] in known)

    # (total Fee per Bike ID: a name of several words said whole is that column's, never bikes.csv)
    return [m.span() for m in toks if held(m.group(0).strip(".-_").casefold()) or any(a <= m.start() and m.end() <= b for a, b in inside)] + inside


def find_files(text: str, catalog: Catalog, current: str | None = None, restrict: list[str] | None = None) -> FileRef:
    """Resolve the files an utterance names, describes or points at."""
    for m in SAVED_NAME.finditer(text):  # … called weekly_top_bikes.xlsx: the name of the file written names no file to read
        a, b = m.span("n")
        text = text[:a] + " " * (b - a) + text[b:]
    low = text.casefold()
    ref = FileRef()
    allowed = set(restrict or ())
    files = [f for f in catalog.files if f.path in allowed] if allowed else list(catalog.files)
    hits = _exact_names(low, catalog, ref)  # (position, path, how)
    # paths that leave the workspace are named back as such, never resolved
    for m in OUTSIDE_PATH.finditer(text):
        ref.spans.append(m.span())
        ref.how, ref.missing_name = "outside", m.group(0)
        return ref
    _names_with_extension(text, catalog, ref, hits)
    hits[:] = [x for x in hits if not SAVED_AS.search(text[: x[0]])]  # save as x.xlsx: the file written, never one to read
    _said_as_columns(low, catalog, ref, hits)
    for x in [x for x in hits if x[2] == "named"]:  # 不用查勘员.csv / without using stores.csv: that file is not read
        unused = NOT_USED.search(text[max(0, x[0] - 16) : x[0]])
        if unused is not None:  # (its stem said again is a word of the request: 按查勘员汇总, a column of the other table)
            for y in [y for y in hits if y[1] == x[1]]:
                hits.remove(y)
                f = catalog.get(y[1])
                if y is not x and f is not None and (y[0], y[0] + len(f.stem)) in ref.spans:
                    ref.spans.remove((y[0], y[0] + len(f.stem)))
            ref.spans.append((max(0, x[0] - 16) + unused.start(), x[0]))
    if not hits and not ref.missing_name and _missing_file_shaped(text, catalog, ref):
        return _with_format(ref, text)
    # only files with a stem a typo can be looked for in, or a word of a name the text may use, can be found in it
    near = _files_worth_reading(low, catalog, files) if not hits else []
    said = ({f.path for f in files if _sheet_said(f, low)} if not hits and ("表" in low or "sheet" in low or "tab" in low)
            else set())  # 用二季度那张表: a workbook named by its sheet
    cur = catalog.get(current) if current else None
    if hits and all(h in ("stem", "fuzzy") for _, _, h in hits):  # (per station, beside stations.csv: a near miss of its stem)
        _stems_of_the_sheets_columns(low, catalog, files, ref, hits)
    if not hits and not said and not lx.GREETING.match(low.strip()) and not (cur is not None and any(_distinct_sheet(sh.name, low) for sh in cur.sheets)):
        # 一季度按门店汇总金额 while another file is in focus: a sheet name no other workbook has points at its workbook
        alone = {f.path for f in files if f.is_table and len(f.sheets) > 1 and any(_distinct_sheet(sh.name, low) for sh in f.sheets)}
        said = alone if len(alone) == 1 else said
    near += [f for f in files if f.path in said and f not in near]
    if not hits:
        _stem_typos(low, near, ref, hits)
        if hits:  # per station in 2025, beside stations.csv: a near miss of its stem, a word of the sheet's workbook's column
            _stems_of_the_sheets_columns(low, catalog, files, ref, hits)
        if hits and len(said) == 1:  # (items at Pier: the word a near-miss of items.csv is a column of Pier's workbook)
            _data_words_not_files(low, catalog, [f for f in files if f.path in said], ref, hits)
    if not hits and len(said) == 1 and not ref.missing_name:
        wb = next(f for f in files if f.path in said)
        own = wb.path in _description_scores(low, [wb], set())  # 花名册离职那个表: its own name said too, read as a description
        if not own and _outweighed(low, wb, [f for f in files if f.path not in said]):
            # 高二 数学 分数最高的5个学生: a sheet only that workbook has, and its column named: that workbook (学生 is the rows' word)
            sheet = next((sh.name for sh in wb.sheets if _distinct_sheet(sh.name, low)), None)
            ref.how, ref.paths, ref.sheet, ref.by_sheet = "description", [wb.path], sheet, True
            return _with_format(ref, text)
    full = [catalog.get(p) for _, p, h in hits if h == "named"]
    if full:  # 订单_筛选.csv 里…订单数: 订单 is part of the name given in full, not another file
        stems = [f.stem.casefold() for f in full if f is not None]
        part = [x for x in hits if x[2] == "stem" and any((g := catalog.get(x[1])) and g.stem.casefold() in st != g.stem.casefold() for st in stems)]
        # 区域.csv 按区域汇总: the stem of the file named in full, said again, is one of its columns when it has one so named,
        # or a word of one (freight.xlsx … largest freight first: Freight Charge)
        in_play = [*full, *([cur] if current and (cur := catalog.get(current)) is not None else [])]  # (花艺师对工号: the other table's column)
        cols = {c.casefold() for f in in_play if f is not None and f.is_table for sh in f.sheets for c in sh.columns}
        words = {w for c in cols for w in re.findall(r"[a-z]{3,}|[\u4e00-\u9fff]{2,}", c)}
        # employees.csv the 5 highest paid employees: a stem that is a noun for rows, said again, names the rows
        from modes.tagging.asides import aside_words

        rows = aside_words().nouns_en
        part += [x for x in hits if x[2] == "stem" and x not in part and x[1] in {f.path for f in full if f is not None}
                 and (g := catalog.get(x[1])) is not None and (g.stem.casefold() in cols | words or g.stem.casefold() in rows
                                                               or _inside_own_value(low, x[0], g))]
        for i, path, _how in part:
            ref.spans.remove((i, i + len(catalog.get(path).stem)))  # type: ignore[union-attr]
        hits[:] = [x for x in hits if x not in part]
    _data_words_not_files(low, catalog, [f for f in full if f is not None] + ([c] if (c := catalog.get(current)) is not None and current else []), ref, hits)
    stem_hits = [x for x in hits if x[2] == "stem"]
    if len(stem_hits) > 1 and not full and not TWO_TABLES.search(text):
        # 报修工单里…每个小区有多少单: a stem that is a column of the other file said (报修工单 has 小区) is that column
        stem_files = [f for x in stem_hits if (f := catalog.get(x[1])) is not None and f.is_table]
        holders = [f for f in stem_files if any(g is not f and any(c.casefold() == g.stem.casefold() or CJK.match(g.stem) and c.endswith(g.stem)
                                                                   for sh in f.sheets for c in sh.columns) for g in stem_files)]
        if len(holders) == 1:
            _data_words_not_files(low, catalog, holders, ref, hits)
    if full and not TWO_TABLES.search(text):  # distinct customers in orders.csv: a plain word that is another file's stem is the word
        plain = [x for x in hits if x[2] == "stem" and catalog.get(x[1]) not in full and PLAIN_WORD.fullmatch(catalog.get(x[1]).stem)  # type: ignore[union-attr]
                 and not INTO_BEFORE.search(low[: x[0]])]  # (bring Grade from workers.csv into the timesheets: the table it goes into)
        for i, path, _how in plain:
            ref.spans.remove((i, i + len(catalog.get(path).stem)))  # type: ignore[union-attr]
        hits[:] = [x for x in hits if x not in plain]
    # customer_id in the orders file, channel is Booking.com: a word inside a column's name or a value is no file
    # (total Fee per Bike ID: a near-miss of bikes.csv inside a column's name of several words is looked for in every table)
    data = _data_tokens(low, tuple(catalog.tables), any(x[2] == "fuzzy" for x in hits)) if any(x[2] in ("fuzzy", "stem") for x in hits) else []
    inside = [x for x in hits if x[2] in ("fuzzy", "stem") and any(a <= x[0] < b for a, b in data)]
    if inside:
        ref.spans[:] = [sp for sp in ref.spans if not any(a <= sp[0] and sp[1] <= b for a, b in data)]
    hits[:] = [x for x in hits if x not in inside]
    if len({p for _, p, _h in hits}) == 1 and (TWO_TABLES.search(text) or lx.JOIN_ANTI.search(text)):  # (… never appear in the Dockyard sheet)
        _sheet_as_second_table(low, files, ref, hits)
    if hits and ref.missing_name and all(h == "stem" for _, _, h in hits):  # a name given whole that no file has: the words are words
        ref.spans[:] = [sp for sp in ref.spans if not any(sp[0] == i for i, _, _ in hits)]
        hits.clear()
    if hits:
        hits.sort()
        ref.paths = list(dict.fromkeys(p for _, p, _how in hits))
        ref.how = "named" if all(h[2] != "fuzzy" for h in hits) else "fuzzy"
        return _with_format(ref, text)
    if ref.missing_name:
        ref.how = "missing"
        return _with_format(ref, text)
    before = list(ref.spans)
    if _described(low, near, restrict, ref, said):
        cur = catalog.get(current) if current else None
        words = {w for sh in cur.sheets for c in sh.columns for w in _word_forms(c.casefold())} if cur is not None and cur.is_table else set()
        own_sheet = cur is not None and cur.is_table and ref.how == "description" and any(_distinct_sheet(sh.name, low) for sh in cur.sheets) \
            and _outweighed(low, cur, [f for f in files if f.path in ref.paths])  # 7月卖得最多的5个产品, 7月 of the workbook in use
        # the no-show rate / 退款率, beside space_rates.csv: a rate said of something, never a file named by that one word
        rated = ref.how == "description" and len(ref.used_tokens) == 1 and RATE_TOKEN.fullmatch(ref.used_tokens[0]) is not None \
            and any(RATED_BEFORE.search(low[: a]) and not _names_a_column_with(low, a, ref.paths, catalog) for a, _ in ref.spans)
        # by space type, beside space_rates.csv: the words of a column of the file in use (space_type), said apart
        apart = [(m.start(), m.end()) for sh in (cur.sheets if cur is not None and cur.is_table else ()) for c in sh.columns
                 if "_" in c or " " in c for m in re.finditer(re.escape(re.sub(r"[_\s]+", " ", c.casefold())), low)]
        in_column = ref.how == "description" and bool(ref.spans) and all(any(a <= x and y <= b for a, b in apart) for x, y in ref.spans if (x, y) not in before)
        # which driver spent the most, on a table with DriverID: the things ranked, never drivers.csv
        ranked = ref.how == "description" and cur is not None and bool(ref.spans) and not TWO_TABLES.search(low) \
            and all(low[a:b] in _id_heads(cur) and RANKED_BEFORE.search(low[:a]) for a, b in ref.spans if (a, b) not in before)
        if not (ref.how == "description" and ref.used_tokens and all(t.casefold() in words for t in ref.used_tokens)) and not own_sheet and not rated \
                and not in_column and not ranked:
            return _with_format(ref, text)
        ref.how, ref.paths, ref.spans, ref.used_tokens = "none", [], before, []  # per region, after stores.csv: its column

    # 另一个文件 / the other file: the one table of the workspace besides the one in use
    om = OTHER_FILE.search(text)
    if om is not None and current:
        kept = {f.path for f in catalog.results}
        others = [f.path for f in catalog.tables if f.path != current and f.path not in kept and not f.path.startswith("outputs/")]
        ref.spans.append(om.span())
        if len(others) == 1:
            ref.how, ref.paths = "description", others
            return _with_format(ref, text)
        ref.how, ref.candidates = "ambiguous", others
        return _with_format(ref, text)
    # 4. deixis: this file / it
    d = lx.DEICTIC.search(text)
    if d and not (d.group(0).casefold() == "it" and IT_IDIOM.search(low)):
        if current:
            ref.how, ref.paths = "current", [current]
            ref.spans.append(d.span())
        else:
            ref.how = "current_missing"
        return _with_format(ref, text)
    return _by_type(text, files, _with_format(ref, text))


# operators written as words: none of their words is ever a cell value (other than, more than, at least)
OPERATOR_PHRASE = lazy(r"(?<![a-z])(?:other than|rather than|more than|less than|greater than|fewer than|higher than|lower than|"
                       r"at least|at most|no more than|no less than|apart from|aside from|not counting|leaving out|or more|or less|"
                       r"or higher|or lower|or above|or below)(?![a-z])", re.I | re.A)
# words that put two tables side by side: with one of them, a second file may be named by its bare stem
TWO_TABLES = lazy(lx.EXPLORE_COMPARE.pattern + "|" + lx.EXPLORE_JOIN.pattern + r"|对比|比较|比一比|(?<![a-z])(?:vs\.?|versus|against|with)(?![a-z])", re.I | re.A)
PLAIN_WORD = lazy(r"[A-Za-z]+|[\u4e00-\u9fff]+")
OUTSIDE_PATH = lazy(r"(?:(?<=\s)|^)(?:\.\./|~/|/)[^\s,，;；]+|[A-Za-z]:\\[^\s,，;；]+")
HYPHENED_WORD = lazy(r"[a-z]{1,12}(?:-[a-z]{1,12}){1,3}")  # lower-case letters joined by hyphens: a word of English
FILE_SHAPED = lazy(r"(?<![\w.])[A-Za-z\u4e00-\u9fff][\w\-]*[_\-][\w\-]+(?![\w.])")
IT_IDIOM = lazy(r"\b(?:sum it|it up|make it|do it|by it|on it)\b")  # (sort by it: the column just named, never the file)
NEXT_ALNUM = lazy(r"[a-z0-9]")
NEXT_EXTENSION = lazy(r"\.[a-z]{2,4}(?![a-z])")


def _sheet_as_second_table(low: str, files: list[FileInfo], ref: FileRef, hits: list[tuple[int, str, str]]) -> None:
    """西区店和商品表按商品名称关联: beside one file named, a sheet's own name said whole, with words that put two tables
    side by side, names the other table: that sheet's workbook (its sheet is read from the words like any sheet said)."""
    named = {p for _, p, _h in hits}
    if any(_distinct_sheet(sh.name, low) for f in files if f.path in named for sh in f.sheets):
        return  # stack sheets Q1 and Q2 of shipments.xlsx: the sheets said are the named file's own
    wbs = [(f, sh.name) for f in files if f.is_table and f.kind != "csv" and len(f.sheets) > 1 and f.path not in named
           for sh in f.sheets if _distinct_sheet(sh.name, low)]
    if len({f.path for f, _ in wbs}) != 1:
        return
    f, sheet = wbs[0]
    at = low.find((sheet or "").casefold())
    if at < 0 or _covered(ref.spans, at, at + len(sheet or "")):
        return
    hits.append((at, f.path, "named"))


EVERY_SHEET_SAID = re.compile(r"(?:所有|全部|每个|各个)工作表|(?<![a-z_])(?:all|every|each|per)\s+(?:the\s+)?sheets?(?![a-z_])", re.I)


def _stems_of_the_sheets_columns(low: str, catalog: Catalog, files: list[FileInfo], ref: FileRef, hits: list[tuple[int, str, str]]) -> None:
    """西区店每个商品的平均售价, beside 商品.csv: a file's stem that is a word of a column of the one workbook whose sheet
    the text names (商品名称 of 门店销售.xlsx, sheet 西区店) is that column's word, never the other file."""
    for x in list(hits):  # 按商品名称汇总, beside 商品.csv: the stem inside a column's whole name said is that column's word
        f = catalog.get(x[1])
        if f is None or x[2] != "stem" or not _glued(low, x[0], x[0] + len(f.stem)):
            continue  # (花名册 按部门…: nothing said beside the stem can make a longer name; no table is read for it)
        end = x[0] + len(f.stem)
        if _column_spans(f, low, x[0], end) or any(_column_spans(g, low, x[0], end) for g in files if g.is_table and g.path != f.path):
            ref.spans.remove((x[0], end))  # (its own table is looked into first: often the only one read)
            hits.remove(x)
    if not hits:
        return
    wbs = [f for f in files if f.is_table and f.kind != "csv" and len(f.sheets) > 1 and any(_distinct_sheet(sh.name, low) for sh in f.sheets)]
    if not wbs and EVERY_SHEET_SAID.search(low):  # 三个季度合起来，哪个查勘员…: every sheet of the one workbook split into sheets
        wbs = [f for f in files if f.is_table and f.kind != "csv" and len(f.sheets) > 1 and len({tuple(sh.columns) for sh in f.sheets}) == 1]
    if len(wbs) != 1:
        return
    cols = {c.casefold() for sh in wbs[0].sheets for c in sh.columns}
    cols |= {" ".join(CAMEL_WORD.findall(c)).casefold() for sh in wbs[0].sheets for c in sh.columns}  # DriverID: driver id
    for x in list(hits):
        f = catalog.get(x[1])
        stem = f.stem.casefold() if f is not None else ""
        one = stem[:-1] if stem.endswith("s") and len(stem) > 3 else stem  # bikes, beside a Bike ID column: the rows' noun
        span = next(((a, b) for a, b in ref.spans if a == x[0]), (x[0], x[0] + len(f.stem) if f is not None else x[0]))
        if f is not None and f.path != wbs[0].path and any(stem in c or re.search(r"(?<![a-z])" + re.escape(one) + r"(?![a-z])", c) for c in cols) \
                and not re.match(r"\s*(?:那?张?表|文件|(?:file|table|sheet)(?![a-z]))", low[span[1]:]):  # (商品表: the file)
            if span in ref.spans:
                ref.spans.remove(span)
            hits.remove(x)


CAMEL_WORD = lazy(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def _column_spans(g: FileInfo, low: str, start: int, end: int) -> bool:
    """Whether a column name of the table, longer than the span's word and holding it, is said over the span."""
    word = low[start:end]
    return any(len(c) > len(word) and word in c and low.find(c, max(0, end - len(c)), min(len(low), start + len(c))) >= 0
               for sh in g.sheets[:1] for c in (k.casefold() for k in sh.columns))


def _glued(low: str, start: int, end: int) -> bool:
    """Whether the text goes on right beside a span (a longer name could hold it): a mark or the text's edge on both sides
    ends it, and so does a space beside a Chinese word."""
    def ends(i: int, inner: str) -> bool:
        return i < 0 or i >= len(low) or low[i] in ",，。；;:：!！?？、" or (low[i].isspace() and bool(CJK.match(inner)))
    return not (ends(start - 1, low[start]) and ends(end, low[end - 1]))


def _exact_names(low: str, catalog: Catalog, ref: FileRef) -> list[tuple[int, str, str]]:
    """1. exact names, with or without the extension, and the folder prefix if any (longest names first)."""
    hits: list[tuple[int, str, str]] = []
    for path, needles in catalog.needles_in(low):  # only names whose start the text holds can be found in it
        for needle, how in needles:
            start = 0
            while (i := low.find(needle, start)) >= 0:
                j = i + len(needle)
                start = j
                if _covered(ref.spans, i, j):
                    continue
                if how == "stem" and j < len(low) and NEXT_ALNUM.match(low[j]) and not CJK.match(needle[-1]):
                    continue
                if how == "stem" and i > 0 and NEXT_ALNUM.match(low[i - 1]) and not CJK.match(needle[0]):
                    continue  # weddings held on…, beside ld.py: the end of a word, never a file's name
                if how == "stem" and NEXT_EXTENSION.match(low, j):
                    continue
                ref.spans.append((i, j))
                hits.append((i, path, how))
    return hits


def _names_with_extension(text: str, catalog: Catalog, ref: FileRef, hits: list[tuple[int, str, str]]) -> None:
    """2. names with an extension that match no file: a typo, or a file that does not exist."""
    for m in NAMED_FILE.finditer(text):
        inside = [x for x in hits if m.start() <= x[0] < m.end()]
        if inside and all(h == "stem" for _, _, h in inside) and not SAVED_AS.search(text[: m.start()]):
            # 停车缴费_南门_x.csv where no such file is: a name given whole, never the files whose stems it holds
            hits[:] = [x for x in hits if x not in inside]
            ref.spans[:] = [sp for sp in ref.spans if not m.start() <= sp[0] < m.end()]
        if _covered(ref.spans, m.start(), m.end()):
            continue
        if SAVED_AS.search(text[: m.start()]):
            continue  # name the file clerk_avg.xlsx / save as …: the file written, never one to read
        raw = m.group(0)
        stem_run = m.group(1)
        near = _closest_file(stem_run, raw, catalog)
        if near is not None:
            ref.spans.append((m.start(), m.end()))
            hits.append((m.start(), near, "fuzzy"))
            continue
        name = LEAD_WORDS.sub("", stem_run) + "." + m.group(2)
        ref.spans.append((m.start(), m.end()))
        ref.missing_name = ref.missing_name or name
        ref.candidates = _close_names(name, catalog)


def _joined_names(catalog: Catalog) -> list[str]:
    """The column names joined with _ or - (金额_合计, Board_No), of the workspace and of the results a request may read."""
    names = catalog.known_names | {c.casefold() for f in catalog.results for sh in f.sheets for c in sh.columns}
    return [k for k in names if len(k) >= 3 and ("_" in k or "-" in k)]


def _a_column(word: str, catalog: Catalog) -> bool:
    """Whether a word is a column's whole name in some table of the workspace."""
    low = word.casefold()
    return any(c.casefold() == low for f in catalog.tables for sh in f.sheets for c in sh.columns)


def _holds_value(tok: str, catalog: Catalog) -> bool:
    """Whether a value some table holds is in the token (上海-武汉 in 线路不是上海-武汉的)."""
    for f in catalog.tables:
        for sh in f.sheets:
            for vals in sh.values.values():
                if any(len(v) >= 3 and ("-" in v or "_" in v) and v in tok for v in vals):
                    return True
    return False


def _missing_file_shaped(text: str, catalog: Catalog, ref: FileRef) -> bool:
    """A name shaped like a file's (sales_2023, orders-q3) that no file, sheet or column has: a missing file."""
    for m in FILE_SHAPED.finditer(text):
        tok = m.group(0)
        if HYPHENED_WORD.fullmatch(tok):
            continue  # fill-up, no-show, month-over-month: an English word, not a file's name
        if _covered(ref.spans, m.start(), m.end()) or re.fullmatch(r"[\d_\-]+", tok) or _a_word(tok, catalog):
            continue
        if any(edit_distance(tok.casefold(), f.stem.casefold(), 2) <= 2 and not differs_in_a_number(tok.casefold(), f.stem.casefold())
               for f in catalog.files):
            continue  # a typo of a real name: the fuzzy step below
        if not re.search(r"[_\-]", re.sub(r"\d+\s*[-–—~]\s*\d+", "", tok)):
            continue  # 年龄0-17岁, 2010-2018年: a range of numbers, not a file's name
        if re.search(r"(?:19|20)\d{2}[-/.]\d{1,2}(?:[-/.]\d{1,2})?(?!\d)", tok) and not re.search(r"[_\-][A-Za-z]|[A-Za-z][_\-]", tok):
            continue  # 有效期小于2027-03-05: a date in a condition, not a file's name
        runs = [r for r in re.findall(r"[a-z0-9][a-z0-9_\-]*", tok.casefold()) if re.search(r"[a-z]", r)]
        if runs != [tok.casefold()] and any(r in catalog.known_names or (len(r) >= 4 and any(r in f.stem.casefold() for f in catalog.files))
                                            for r in runs):
            continue  # 通过SERVICE_DESCRIPTION模糊匹配, 在COVID-19数据中: a column or a file's own word glued to Chinese text
        if any(p.casefold() in catalog.known_names for p in re.findall(r"[A-Za-z0-9][A-Za-z0-9_\-]*[_\-][A-Za-z0-9_\-]+", tok) if p != tok):
            continue  # 代表Board_No的大小: a column's name glued to Chinese text
        if _names_operation(tok):
            continue  # chi-square, t-test: the word of an operation, not a file
        if _holds_value(tok, catalog):
            continue  # 线路不是上海-武汉的: a value a table holds (inside the words said), never a file's name
        if any(k in tok.casefold() for k in _joined_names(catalog)):
            continue  # 按月薪_平均排序 / 取金额_合计最大的: a column's name (a summary's) glued to Chinese text
        if any(" " in k and (k.endswith(tok.casefold()) or k.startswith(tok.casefold())) and k in text.casefold()
               for k in (*catalog.known_names, *_joined_names(catalog))):
            continue  # Repair Cost_sum / After-hours Hrs: the last or first word of a name of several words, said whole
        if NAME_GIVEN.search(text[max(0, m.start() - 12) : m.start()]) or NAME_GIVEN.search(tok) or re.match(r"\s*[=＝](?!=)", text[m.end() :]):
            continue  # 列名更改为'FLU_SEASON' / rename … to new_name / Net_Rev = Revenue * 0.9: a name being given, not a file
        parts = [x for x in re.split(r"[-_]", tok) if x]
        if "-" in tok and len(parts) >= 2 and all(x.casefold() in catalog.known_names or _a_column(x, catalog) for x in parts):
            continue  # 利润=收入-成本: columns subtracted, not a file's name
        ref.spans.append(m.span())
        ref.missing_name = tok
        ref.candidates = _close_names(tok, catalog)
        ref.how = "missing"
        return True
    return False


def _stem_typos(low: str, files: list[FileInfo], ref: FileRef, hits: list[tuple[int, str, str]]) -> None:
    """3. small typos in a stem written without extension (销售明系 -> 销售明细)."""
    text_chars = Counter(low)
    text_pairs = Counter(low[i : i + 2] for i in range(len(low) - 1))
    for f in files:
        st = f.stem.casefold()
        shape = _typo_shape(st)
        if shape is None:
            continue
        tol, chars, pairs = shape
        if sum((chars & text_chars).values()) < len(st) - tol:
            continue  # each edit changes one character at most: no window of the text can be this close
        if sum((pairs & text_pairs).values()) < len(st) - 1 - 3 * tol:
            continue  # nor can it share enough neighbouring pairs (an edit breaks three at most)
        at = _typo_window(low, st, tol, ref.spans)
        if at is not None and not differs_in_a_number(low[at[0] : at[1]], st) and not _a_value_of(low[at[0] : at[1]], files):
            ref.spans.append(at)
            hits.append((at[0], f.path, "fuzzy"))


def _a_value_of(word: str, files: list[FileInfo]) -> bool:
    """Whether a word is a value or a column's name of one of the tables (物业费 of 费用类型 in 物业收费.xlsx): a word of the
    data, never a typo of a file's stem."""
    w = word.strip().casefold()
    return any(w == c.casefold() or any(w == v.casefold() for v in vs) for f in files if f.is_table for sh in f.sheets
               for c, vs in [*((c, ()) for c in sh.columns), *sh.values.items()])


@functools.lru_cache(maxsize=8192)
def _typo_shape(st: str) -> tuple[int, Counter[str], Counter[str]] | None:
    """(edits allowed, letters, neighbouring pairs) of a casefolded stem a typo is looked for in; None for a short
    stem or one of several words (those are matched by their words)."""
    if len(st) < 4 or re.search(r"[_\-\s.]", st):
        return None
    return (1 if len(st) < 8 else 2), Counter(st), Counter(st[i : i + 2] for i in range(len(st) - 1))


def _typo_window(low: str, st: str, tol: int, spans: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The first window of the text (shortest size first) within `tol` edits of the stem, outside the taken spans."""
    letters = set(st)
    for size in (len(st) - 1, len(st), len(st) + 1):
        for i in range(0, max(0, len(low) - size + 1)):
            if len(letters.difference(low[i : i + size])) > tol:
                continue  # each edit loses at most one of the stem's letters: no need to count the edits
            if _covered(spans, i, i + size):
                continue
            if st.isascii() and (i > 0 and low[i - 1].isalnum() or i + size < len(low) and low[i + size].isalnum()):
                continue  # at Riverside, beside drivers.csv: a Latin window is a whole word, never a piece of a longer one
            if edit_distance(low[i : i + size], st, tol) <= tol:
                return (i, i + size)
    return None


def _files_worth_reading(low: str, catalog: Catalog, files: list[FileInfo]) -> list[FileInfo]:
    """Those of the files the typo and description steps can find in the text: a stem written as one word, or a word
    of its name that may hit (_may_hit). Names sharing their words are judged once per word."""
    index = catalog.derived.get("stem_words")
    if not isinstance(index, tuple):
        typo_able = {f.path for f in catalog.files if _typo_shape(f.stem.casefold()) is not None}
        by_word: dict[str, set[str]] = {}
        for f in catalog.files:
            for t in stem_tokens(f):
                by_word.setdefault(t, set()).add(f.path)
        index = catalog.derived["stem_words"] = (typo_able, by_word)
    typo_able, by_word = index
    keep = set(typo_able)
    for t, paths in by_word.items():
        if not paths <= keep and _may_hit(t, low):
            keep |= paths
    return [f for f in files if f.path in keep]


INTO_BEFORE = re.compile(r"(?<![a-z_])(?:into|onto)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?$", re.I)
OTHER_FILE = re.compile(r"另(?:一|外)(?:一|那)?(?:个|张|份)(?:文件|表格|表)|(?<![a-z_])the other (?:file|table|spreadsheet|csv|workbook)(?![a-z_])", re.I)
FILE_NOUN_AFTER = re.compile(r"\s*(?:那个|这个|那张|这张|那份|这份)?\s*(?:文件|表格|csv|excel)|\s+(?:file|spreadsheet|csv)(?![a-z_])", re.I)


def _data_words_not_files(low: str, catalog: Catalog, named: list[FileInfo], ref: FileRef, hits: list[tuple[int, str, str]]) -> None:
    """staff.csv 销售部以外的 / (after stores.csv) how many per region: a file's stem written inside a longer value or
    column of the file in play (销售 in 销售部), or as one of its columns (stores, region), is that word, not the file."""
    if not named or not hits:
        return
    words = {w for f in named if f.is_table for sh in f.sheets for c in sh.columns for w in _word_forms(c.casefold())}
    # top 3 riders, on a table with rider_id: the things its rows are of, the head of its id (or name) column
    heads = {w for f in named for w in _id_heads(f)} if not TWO_TABLES.search(low) else set()  # (join with riders: the file)
    mine = {f.path for f in named}
    drop = []
    for x in hits:
        f = catalog.get(x[1])
        if x[2] not in ("stem", "fuzzy") or x[1] in mine or f is None:
            continue
        span = next(((a, b) for a, b in ref.spans if a == x[0]), (x[0], x[0] + len(f.stem)))
        if FILE_NOUN_AFTER.match(low, span[1]):
            continue  # 收费员那个文件 / the staff file: said as a file, whatever column shares its name
        tail = CJK.match(f.stem) is not None and len(f.stem) >= 2 and any(w.endswith(f.stem.casefold()) for w in words)  # 所属门店: 门店
        # top 3 riders / per station, on a table with rider_id / station_id: the things ranked or grouped, never the file
        ranked = low[span[0] : span[1]] in heads and RANKED_BEFORE.search(low[: span[0]]) is not None
        # 值换成运单数, on a table numbered by 运单号: how many rows, never 运单.xlsx
        counted = low[span[1] : span[1] + 1] == "数" and any(f.stem.casefold() + e in words for e in ("号", "编号", "单号", "id"))
        if _inside_values(low, [span], named, x[1]) or f.stem.casefold() in words or low[span[0] : span[1]] in words or tail or ranked or counted:
            drop.append((x, span))
    for x, span in drop:
        if span in ref.spans:
            ref.spans.remove(span)
        hits.remove(x)


def _names_a_column_with(low: str, at: int, paths: list[str], catalog: Catalog) -> bool:
    """list rates, beside a list_rate column of the file described: the word before and the word at `at` are that column."""
    prev = re.search(r"([a-z]+)[\s_-]+$", low[:at])
    word = re.match(r"[a-z]+", low[at:])
    if prev is None or word is None:
        return False
    said = {f"{prev.group(1)}_{w}" for w in (word.group(0), word.group(0).rstrip("s"))}
    return any(c.casefold().replace(" ", "_") in said for p in paths if (f := catalog.get(p)) is not None for sh in f.sheets for c in sh.columns)


RATE_TOKEN = re.compile(r"rates?|ratios?|shares?|percentages?|率|比例|占比", re.I)
RATED_BEFORE = re.compile(r"[a-z][a-z_-]*[\s-]$|[\u4e00-\u9fff]$", re.I)
NOT_USED = re.compile(r"(?:不用|不要用|别用|不使用|不需要用?|用不着)\s*$|(?<![a-z_])(?:not using|without using|without|don'?t use|do not use|not)\s+(?:the\s+)?$", re.I)
COLUMN_NOUN_AFTER = re.compile(r"\s*[\"'”’」]?\s*(?:这一?|那一?)?\s*(?:列|字段|栏)|[\"'”’」]?\s+(?:column|field)(?![a-z_])", re.I)


def _said_as_columns(low: str, catalog: Catalog, ref: FileRef, hits: list[tuple[int, str, str]]) -> None:
    """按“查勘员”列分组 / group by the “agent” column: a file's stem said as a column, with another table holding a column
    of that name, is that column, never the file."""
    for x in list(hits):
        f = catalog.get(x[1])
        if x[2] != "stem" or f is None:
            continue
        span = next(((a, b) for a, b in ref.spans if a == x[0]), (x[0], x[0] + len(f.stem)))
        if not COLUMN_NOUN_AFTER.match(low, span[1]):
            continue
        if any(t.path != f.path and any(c.casefold() == f.stem.casefold() for sh in t.sheets for c in sh.columns) for t in catalog.tables):
            hits.remove(x)
            if span in ref.spans:
                ref.spans.remove(span)


RANKED_BEFORE = re.compile(r"(?<![a-z_])(?:(?:top|bottom|highest|lowest|biggest|largest|which|the)\s+\d+|which|per|each|every|by|of each|for each)\s+$"
                           r"|(?:按|按照|每个|每一个|各个?|哪个|哪些|哪位|前\s*\d+\s*(?:个|名|位)?的?)\s*$")


def _id_heads(f: FileInfo) -> set[str]:
    """The things a table's rows are of, said as plain words: the head of an id or name column (rider of rider_id,
    driver of DriverID), in its forms."""
    def spaced(c: str) -> str:
        return (" ".join(CAMEL_WORD.findall(c)) if "_" not in c and " " not in c else c).casefold()
    latin = {w for sh in (f.sheets if f.is_table else ()) for c in sh.columns
             if (head := re.match(r"([a-z]{3,})[_ ](?:id|no|code|name|number)$", spaced(c))) for w in _word_forms(head.group(1))}
    return latin | {head.group(1) for sh in (f.sheets if f.is_table else ()) for c in sh.columns  # 农户 of 农户编号 / 司机 of 司机姓名
                    if (head := re.fullmatch(r"([\u4e00-\u9fff]{2,4}?)(?:编号|编码|代码|工号|号|名称|姓名|名字|ID|id)", c))}


def _word_forms(word: str) -> tuple[str, ...]:
    """A column's name and its plural: the forms a request uses for it as a plain word (store, stores)."""
    return (word, word + "s", word + "es") if word.isascii() and word.isalpha() else (word,)


def _inside_values(low: str, spans: list[tuple[int, int]], files: list[FileInfo], path: str) -> bool:
    """Every span of the description lies inside a longer cell value another table holds, written in the text."""
    occ = [(m.start(), m.end()) for f in files if f.path != path and f.is_table for sh in f.sheets
           for v in [*(x for vs in sh.values.values() for x in vs), *sh.columns]
           if len(v) >= 2 and v.casefold() in low for m in re.finditer(re.escape(v.casefold()), low)]
    return bool(spans) and all(any(a <= x and y <= b and b - a > y - x for a, b in occ) for x, y in spans)


def _described(low: str, files: list[FileInfo], restrict: list[str] | None, ref: FileRef, sheet_said: set[str]) -> bool:
    """5. descriptions that fit one file (上海的poi, 库存表, the customer list), or several when the request
    compares or joins them; several equally good ones are ambiguous."""
    scores = _description_scores(low, files, sheet_said)
    if not scores:
        return False
    top = max(s[0] for s in scores.values())
    best = [p for p, s in scores.items() if s[0] == top]
    strong = [p for p in best if len(scores[p][1]) >= 2 or restrict or FILEISH.search(_around(low, scores[p][2]))
              or any(len(t) >= (3 if CJK.match(t) else 5) for t in scores[p][1]) or _translated(scores[p][1], low)]
    if len(strong) > 1 and MULTI_FILE.search(low):
        own = [p for p in strong if set(scores[p][1]) - {t for q in strong if q != p for t in scores[q][1]}]
        if len(strong) == 2 and BOTH.search(low):
            own = list(strong)
        if len(own) >= 2:
            ref.how = "description"
            ref.paths = sorted(own, key=lambda p: min(s for s, _ in scores[p][2]))
            for p in own:
                ref.spans += scores[p][2]
            return True
    if len(strong) == 1 and _inside_values(low, scores[strong[0]][2], files, strong[0]):
        return False  # 技术部和销售部的月薪: 销售 inside 销售部, a value of another table, not a description of 销售订单
    if len(strong) == 1:
        ref.how, ref.paths = "description", strong
        ref.spans += scores[strong[0]][2]
        ref.used_tokens = scores[strong[0]][1]
        f = next(f for f in files if f.path == strong[0])
        named = [sh.name for sh in f.sheets if sh.name and len(f.sheets) > 1 and sh.name.casefold() in ref.used_tokens]
        ref.sheet = named[0] if len(named) == 1 else None
        ref.by_sheet = all(t in {n.casefold() for n in named} for t in ref.used_tokens)
        return True
    if len(strong) > 1:
        ref.how, ref.candidates = "ambiguous", sorted(strong)
        for p in strong:
            ref.spans += scores[p][2]
        return True
    return False


Score = tuple[int, list[str], list[tuple[int, int]]]


def _outweighed(low: str, wb: FileInfo, others: list[FileInfo]) -> bool:
    """Whether a workbook found by its own sheet's name is said more than any other file is described: the sheet and each
    of its columns named (高二 … 分数) against the distinct words of another file's name (学生 of 学生信息.csv); a tie keeps
    the words of the name (2月份的投诉: 投诉 of 业主投诉登记.xlsx)."""
    scores = _description_scores(low, others, set())
    theirs = {c.casefold() for f in others if f.path in scores for sh in f.sheets for c in sh.columns}
    cols = {h.column for sh in wb.sheets[:1] for h in find_columns(low, sh) if h.how == "exact" and h.column.casefold() not in theirs}  # (小区 both hold says nothing)
    mine = {w for sh in wb.sheets for c in sh.columns for w in _word_forms(c.casefold())}
    mine |= {c[:k] for sh in wb.sheets for c in sh.columns if CJK.match(c) for k in range(2, len(c))}  # 产品 of 产品名: its head
    mine |= {w for sh in wb.sheets for c in sh.columns if (head := re.match(r"([a-z]{3,})[_ ](?:id|no|code|name|number)$", c.casefold()))
             for w in _word_forms(head.group(1))}  # station of station_id: the things its rows are of
    scores = {p: sc for p, sc in scores.items() if not set(sc[1]) <= mine}  # (items at Pier: items is Pier's column Item too)
    said_elsewhere = max((len(set(sc[1])) for sc in scores.values()), default=0)
    return 1 + len(cols) > said_elsewhere and (bool(cols) or said_elsewhere == 0)  # (东区店退货的有几单: no other file said at all)


def _description_scores(low: str, files: list[FileInfo], sheet_said: set[str]) -> dict[str, Score]:
    """Each file whose name's words (or its sheets' names) the text uses, outside the column names it writes:
    (total length of the words, the words, their spans)."""
    scores: dict[str, Score] = {}
    may: dict[str, bool] = {}  # many files share their name's tokens: judge each token once
    col_spans_of: dict[str, list[tuple[int, int]]] = {}  # many files share their column names: find each once
    data: list[tuple[int, int]] | None = None  # Booking.com, In-house: a value of a table, not a word of a file's name
    for f in files:
        own = stem_tokens(f)
        said_sheet = f.path in sheet_said
        if not said_sheet and not any(may[t] if t in may else may.setdefault(t, _may_hit(t, low)) for t in own):
            continue  # without a hit of its own name nothing below can score this file: its sheets stay unread
        sheet_toks = [s.name.casefold() for s in f.sheets if s.name and len(f.sheets) > 1 and s.name.casefold() not in own]
        toks = [t for t in own if t not in VERB_TOKENS] + sheet_toks
        col_spans = [span for s in f.sheets for c, cl in s.folded if len(c) >= 2 for span in _spans_of(cl, low, col_spans_of)]
        data = _data_tokens(low, tuple(files)) if data is None else data
        col_spans += data
        matched, spans = _description_hits(low, toks, col_spans, {c for sh in f.sheets for _, c in sh.folded})
        kept = [(t, sp) for t, sp in zip(matched, spans, strict=False) if not _period_said(low, t, sp)] if len(matched) == len(spans) else None
        if kept is not None and len(kept) < len(matched):  # 按季度汇总: a period of the data, not 前三季度 of a file's name
            matched, spans = [t for t, _ in kept], [sp for _, sp in kept]
        if matched and (not all(t in sheet_toks for t in matched) or said_sheet):
            # 3月份的投诉: a sheet named as a period (3月, Q1) weighs less than a word of another file's own name (投诉)
            # (阳光花园物业费一共多少 of 物业收费.xlsx: 物业 inside 物业费, a value of its table, names the file and stays that value's word)
            values = [sp for sh in f.sheets for vs in sh.values.values() for v in vs
                      if len(v) >= 2 and CJK.match(v) and v.casefold() in low for sp in _spans_of(v.casefold(), low, col_spans_of)]
            spans = [sp for sp in spans if not any(a <= sp[0] and sp[1] <= b and b - a > sp[1] - sp[0] for a, b in values)] \
                if values and len(spans) == len(matched) else spans  # (上海 of 上海_poi.xlsx, a value whole: the file's word)
            scores[f.path] = (sum(len(t) - (1 if t in sheet_toks and PERIOD_SHEET.search(t) else 0) for t in matched), matched, spans)
    return scores


PERIOD_SHEET = re.compile(r"月|季|半年|(?<![a-z])(?:q[1-4]|h[12])(?![a-z0-9])", re.I)
PERIOD_WORD = re.compile(r"季度|季|月份|月|年度|年|半年|周|星期|quarters?|quarterly|months?|monthly|years?|yearly|weeks?|weekly")
PERIOD_USE = re.compile(r"(?:按|每个?|各个?|分|逐|by|per|each|every)\s*$")


def _period_said(low: str, tok: str, span: tuple[int, int]) -> bool:
    """A word of a file's name used in the text as a period to group by (按季度, 每月, by quarter)."""
    return bool(PERIOD_WORD.fullmatch(low[span[0] : span[1]])) and PERIOD_USE.search(low[max(0, span[0] - 6) : span[0]]) is not None


DISTINCT_SHEET = re.compile(r"\d|[一二三四上下]季度|[上下]半年|(?<![a-z])(?:q[1-4]|h[12])(?![a-z0-9])|[一二三四五六七八九十]+月"
                            r"|^[\u4e00-\u9fff]{1,2}[一二三四五六七八九十]$", re.I)  # 高二 / 初三: a grade, no ordinary word


def _general_word(word: str) -> bool:
    from modes.tagging.segment import general_word

    return general_word(word)


def _distinct_sheet(name: str | None, low: str) -> bool:
    """A sheet's name said in the text as a whole that is a name of its own: a period or a grade (一季度, 2024, Q3, 上半年,
    高二), or any name that is no generic word (东区店, 朝阳校区, Riverside — never 数据, 汇总, Sheet1, summary)."""
    n = (name or "").casefold()
    if len(n) < 2 or re.fullmatch(r"sheet\s*\d+", n):
        return False
    if not DISTINCT_SHEET.search(n) and (n in _generic_sheets() or (n.isascii() and len(n) < 4)):
        return False
    tail = r"(?![a-z0-9_])" if n[-1].isascii() and n[-1].isalnum() else ""  # (一车队3月份: a figure after a name in characters starts anew)
    # (a period's or a grade's name is no part of a longer one: 半年 of 上半年, 季度 of 三季度; any other name follows any word: 看一下万达店)
    head = r"(?<![a-z0-9_一二三四五六七八九十上下])" if DISTINCT_SHEET.search(n) or not CJK.match(n) else r"(?<![a-z0-9_])"
    return re.search(head + re.escape(n) + tail, low) is not None


@cache
def _generic_sheets() -> frozenset[str]:
    from modes.tagging.segment import words_toml

    return frozenset(w.casefold() for w in words_toml()["sheets"]["generic"])


def _sheet_said(f: FileInfo, low: str) -> bool:
    """A sheet of this workbook named as a sheet (二季度那张表, the Q2 sheet, 工作表 二季度): that names the file too."""
    if not f.is_table or len(f.sheets) < 2:
        return False
    for sh in f.sheets:
        n = (sh.name or "").casefold()
        if len(n) >= 2 and n in low and re.search(re.escape(n) + r"\s*(?:这|那)?\s*(?:一|1)?\s*(?:张|个)?\s*(?:工作表|表|sheet|tab|页)"
                                                   r"|(?:sheet|工作表|tab)\s*[:：]?\s*['\"“]?" + re.escape(n), low):
            return True
    return False


def _spans_of(word: str, low: str, memo: dict[str, list[tuple[int, int]]]) -> list[tuple[int, int]]:
    if word not in memo:
        memo[word] = [(m.start(), m.end()) for m in re.finditer(re.escape(word), low)] if word in low else []
    return memo[word]


def _description_hits(low: str, toks: list[str], col_spans: list[tuple[int, int]], cols: set[str] | frozenset[str] = frozenset()) -> tuple[list[str], list[tuple[int, int]]]:
    """The tokens of a file's name the text uses (by itself, its meaning in the other language, or a long enough
    piece of it), outside the spans where the text writes a column's name."""
    matched: list[str] = []
    spans: list[tuple[int, int]] = []
    for t in dict.fromkeys(toks):
        hs = [h for h in _token_hits(t, low) if not any(a <= h[0] and h[1] <= b for a, b in col_spans)]
        if not hs and lx.concept_of(t):  # customer ~ 客户
            for w in _concept_words(lx.concept_of(t) or ""):
                hs = [h for h in _token_hits(w, low) if not any(a <= h[0] and h[1] <= b for a, b in col_spans)]
                if hs:
                    break
        if not hs and CJK.match(t) and len(t) >= 3:  # 花名册 for 员工花名册
            masked = "".join("\0" if any(a <= i < b for a, b in col_spans) else ch for i, ch in enumerate(low))
            sm = difflib.SequenceMatcher(None, t, masked, autojunk=False).find_longest_match(0, len(t), 0, len(masked))
            piece = t[sm.a : sm.a + sm.size]
            if sm.size >= 3 or (sm.size == 2 and sm.size / len(t) >= 0.5 and piece not in GENERIC_TOKENS | VERB_TOKENS):
                hs = [(sm.b, sm.b + sm.size)]
                t = piece
        if hs:
            matched.append(t)
            # 报修工单里哪类报修最多: a word of the name that is also part of its columns' names (报修类别), said again
            # away from the name, is a word of the request
            spans += [hs[0]] + [h for h in hs[1:] if not (CJK.match(t) and any(t in c for c in cols))]
    return matched, spans


def _by_type(text: str, files: list[FileInfo], ref: FileRef) -> FileRef:
    """6. a kind of file: "the csv", "the Excel file", "表格"."""
    kinds = []
    for m in TYPE_WORDS.finditer(text):
        if FORMAT_LEAD.search(text[: m.start()]):
            continue
        if m.start() > 0 and text[m.start() - 1] == "." and any(SAVED_AS.search(text[: n.start()]) for n in NAMED_FILE.finditer(text)
                                                               if n.start() < m.start() <= n.end()):
            continue  # name the file x.xlsx: the extension of the file written, never the kind of file read
        kinds.append(m.group(0).casefold())
    if kinds:
        want = {"csv"} if any("csv" in k for k in kinds) else ({"xlsx", "xls", "ods"} if any(k in ("excel", "xlsx", "xls", "工作簿", "workbook") for k in kinds) else None)
        cands = [f.path for f in files if f.is_table and (want is None or f.kind in want) and (ref.target_format is None or f.kind != ref.target_format)]
        if len(cands) == 1:
            ref.how, ref.paths = "type", cands
        elif cands:
            ref.how, ref.candidates = "ambiguous", cands
    return ref


MULTI_FILE = lazy(r"对比|比较|比一下|比对|相比|compare|versus|\bvs\b|合并|关联|join|merge|拼|合起来|合到一起|合在一起|combine|stack", re.I | re.A)
BOTH = lazy(r"两个|两张|两份|俩|这两|both|(?:the|these|those) two|all (?:the )?(?:two|files)", re.I | re.A)


OUTPUT_NAMED = lazy(r"(?:导出|另存为|保存为|存为|存成|导成|输出为?|export(?:ed)?(?: it)?(?: to| as)?|save(?: it)?(?: as| to))\s*(?:到|成|为)?\s*"
                    r"[\w\u4e00-\u9fff\-]+\.(?P<ext>csv|xlsx|xls)\b", re.I)


def _inside_own_value(low: str, at: int, f: FileInfo) -> bool:
    """老师.csv 职务是主班老师: the file's stem said inside one of its own known values is that value's word, never the file."""
    stem = f.stem.casefold()
    for sh in f.sheets if f.is_table else ():
        for vs in sh.values.values():
            for v in vs:
                vl = v.casefold()
                if len(vl) > len(stem) and stem in vl and vl in low:
                    if any(m.start() <= at and at + len(stem) <= m.end() for m in re.finditer(re.escape(vl), low)):
                        return True
    return False


def _translated(tokens: list[str], low: str) -> bool:
    """A token reached through its meaning in the other language (customer list ~ 客户), written as a word."""
    return any(t not in low for t in tokens)


def _around(low: str, spans: list[tuple[int, int]]) -> str:
    return " ".join(low[max(0, s - 3) : e + 6] for s, e in spans)


def _with_format(ref: FileRef, text: str) -> FileRef:
    for m in OUTPUT_NAMED.finditer(text):  # 导出 d.csv / save as out.xlsx: the file to write names the format
        name = re.search(r"[\w\u4e00-\u9fff\-]+\.(?:csv|xlsx|xls)$", m.group(0), re.I)
        new = ref.missing_name is not None and name is not None and name.group(0).casefold() == ref.missing_name.casefold()
        if not new and any(a < m.end() and m.end() - len(m.group("ext")) - 1 <= b for a, b in ref.spans):
            continue  # Export 台账.xlsx as csv: the file named is the one read, not the one written
        ref.target_format = "csv" if m.group("ext").casefold() == "csv" else "xlsx"
    for m in re.finditer(r"csv|xlsx|xls|excel", text, re.I | re.A):
        if FORMAT_LEAD.search(text[: m.start()]):  # 转成 csv / as an Excel file: said last, it is what is written
            fmt = m.group(0).casefold()
            ref.target_format = "csv" if fmt == "csv" else "xlsx"
    return ref


def _closest_file(stem_run: str, raw: str, catalog: Catalog) -> str | None:
    """A name with an extension that is one small typo away from a workspace file."""
    low = raw.casefold()
    ext = low.rsplit(".", 1)[-1]
    # a window of the text as long as a name of six characters or more holds the text's extension whenever that is
    # four letters or fewer: only names with the same extension can then be one typo away
    names = _names_by_extension(catalog).get(ext, []) if "." in low and len(ext) <= 4 else [(f.path, f.name.casefold()) for f in catalog.files]
    for path, name in names:
        for k in range(len(low) - len(name) - 1, len(low) - len(name) + 2):
            if k < 0:
                continue
            cand = low[k:]
            if cand.rsplit(".", 1)[-1] != name.rsplit(".", 1)[-1]:
                continue
            if len(name) >= 6 and edit_distance(cand, name, 1) <= 1 and not differs_in_a_number(cand, name):
                return path
    return None


def differs_in_a_number(a: str, b: str) -> bool:
    """Two names that differ where a digit is (回款_Q3 / 回款_Q1, 2023 / 2024, 10月 / 11月): another file of a series,
    never a typo of this one."""
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    return any(tag != "equal" and re.search(r"\d", a[i1:i2] + b[j1:j2]) for tag, i1, i2, j1, j2 in ops)


def _names_by_extension(catalog: Catalog) -> dict[str, list[tuple[str, str]]]:
    """Extension -> (path, casefolded name) of the files whose names have six characters or more, in catalog order."""
    index = catalog.derived.get("names_by_extension")
    if isinstance(index, dict):
        return index
    by_ext: dict[str, list[tuple[str, str]]] = {}
    for f in catalog.files:
        name = f.name.casefold()
        if len(name) >= 6:
            by_ext.setdefault(name.rsplit(".", 1)[-1], []).append((f.path, name))
    catalog.derived["names_by_extension"] = by_ext
    return by_ext


StemRow = tuple[str, str, tuple[str, ...], frozenset[str]]  # path, casefolded stem, its words, its words and itself


@dataclass(frozen=True)
class _Stems:
    """A row for every table file, each letter -> (row, how often the stem has it), and every stem word."""

    rows: list[StemRow]
    by_letter: dict[str, list[tuple[int, int]]]
    words: frozenset[str]


def _table_stems(catalog: Catalog) -> _Stems:
    """The table files' stems, indexed once per catalog."""
    index = catalog.derived.get("table_stems")
    if not isinstance(index, _Stems):
        rows: list[StemRow] = []
        by_letter: dict[str, list[tuple[int, int]]] = {}
        for i, f in enumerate(catalog.tables):
            st, toks = f.stem.casefold(), tuple(stem_tokens(f))
            rows.append((f.path, st, toks, frozenset(toks + (st,))))
            for ch, n in Counter(st).items():
                by_letter.setdefault(ch, []).append((i, n))
        index = catalog.derived["table_stems"] = _Stems(rows, by_letter, frozenset(t for r in rows for t in r[2]))
    return index


def _close_names(name: str, catalog: Catalog) -> list[str]:
    low = name.casefold()
    stem = low.rsplit(".", 1)[0]
    scored = []
    words = set(re.findall(r"[a-z]{3,}|[\u4e00-\u9fff]{2,}", stem))
    stems = _table_stems(catalog)
    rows = stems.rows
    common: dict[int, int] = {}  # row -> letters in common with the stem, counted as SequenceMatcher.quick_ratio does
    for ch, n in Counter(stem).items():
        for i, m in stems.by_letter.get(ch, ()):
            common[i] = common.get(i, 0) + min(n, m)
    inside = {t for t in stems.words if t in stem}  # the stem words written in the name
    for i in sorted(common) if stem else range(len(rows)):  # a name with no letter in common shares no word either
        path, fstem, toks, named = rows[i]
        shared = words & named
        if not shared and inside.isdisjoint(toks) and 2 * common.get(i, 0) < 0.5 * (len(stem) + len(fstem)):
            continue  # the letters in common bound SequenceMatcher.ratio from above (its quick_ratio): not close enough
        r = difflib.SequenceMatcher(None, stem, fstem).ratio()
        if r >= 0.5 or shared or not inside.isdisjoint(toks):
            scored.append((-(r + len(shared)), path))
    return [p for _, p in sorted(scored)[:4]]


# ---------------------------------------------------------------- sheets and columns


def shared_ending(names: list[str]) -> str:
    """The Chinese end every name shares (海淀校区 / 朝阳校区 → 校区); "" when a name ends in no Chinese character."""
    if not names or not all(CJK_END.search(n) for n in names):
        return ""
    common = ""
    for chars in zip(*(n[::-1] for n in names), strict=False):
        if len(set(chars)) != 1 or not CJK.match(chars[0]):
            break
        common = chars[0] + common
    return common


@lru_cache(maxsize=64)
def sheet_stems(f: FileInfo) -> dict[str, str]:
    """sheet -> its name without the Chinese end every sheet's name shares (城东店 / 城西店 → 城东 / 城西), when each stem
    is two characters or more and none is a value or a column word of the table (once per file read: a catalog is made
    again when a file changes)."""
    names = [s.name for s in f.sheets if s.name]
    if len(names) < 2:
        return {}
    stems: dict[str, str] = {}
    if all(n.isascii() for n in names):  # Reno DC / Dallas DC / Newark DC → reno / dallas / newark: the words before the ones all share
        words = [n.split() for n in names]
        k = 0
        while all(len(w) > k + 1 for w in words) and len({w[-1 - k].casefold() for w in words}) == 1:
            k += 1
        if k == 0:
            return {}
        stems = {n: " ".join(w[: len(w) - k]) for n, w in zip(names, words, strict=True)}
        cols = {c.casefold() for s in f.sheets[:1] for c in s.columns}
        if any(len(st) < 3 or st.casefold() in cols for st in stems.values()) or len({st.casefold() for st in stems.values()}) < len(stems):
            return {}
        return {n: st.casefold() for n, st in stems.items()}
    for n in names:  # the longest end it shares with another sheet's name (东城分馆 / 西湖分馆 / 中心馆 → 东城 / 西湖 / 中心)
        end = max((shared_ending([n, o]) for o in names if o != n), key=len)
        while end and len(n) - len(end) < 2:
            end = end[1:]  # 东湖苑 / 西湖苑: 东湖 / 西湖, the shorter shared end, when the longer leaves a single character
        if not end:
            return {}
        stems[n] = n[: -len(end)]
    held = {v.casefold() for s in f.sheets[:1] for vs in s.values.values() for v in vs} | {c.casefold() for s in f.sheets[:1] for c in s.columns}
    if any(len(st) < 2 or any(st.casefold() in w for w in held) for st in stems.values()):
        return {}
    return {n: st.casefold() for n, st in stems.items()}


CJK_END = re.compile(r"[\u4e00-\u9fff]$")


def find_sheet(text: str, f: FileInfo) -> tuple[str | None, str | None, tuple[int, int] | None]:
    """(sheet, missing_name, span): a sheet the text names, or a sheet-like name that does not exist."""
    low = text.casefold()
    for s in sorted(f.sheets, key=lambda s: -len(s.name or "")):
        if s.name and len(f.sheets) > 1:
            for m in re.finditer(re.escape(s.name.casefold()), low):
                # 订单表, 客户 sheet, 订单里: the sheet; "VIP 客户" alone is a noun, left to the columns to decide
                if re.match(r"\s*(?:表|sheet|工作表|页|里|中|内|那个|这个|那张|这张|的数据|数据)", low[m.end() :]) or SHEET_WORD_BEFORE.search(low, 0, m.start()):
                    return s.name, None, with_sheet_words(low, m.span())
    if len(f.sheets) > 1 and len({tuple(s.columns) for s in f.sheets}) == 1:
        # one table split into sheets (一季度/二季度, North/South): a sheet's name said anywhere chooses it
        named = [(s, m) for s in sorted(f.sheets, key=lambda s: -len(s.name or "")) if s.name and len(s.name) >= 2
                 for m in re.finditer(name_pattern(s.name.casefold()), low)]
        if len({s.name for s, _ in named}) == 1:
            return named[0][0].name, None, with_sheet_words(low, named[0][1].span())
        stems = sheet_stems(f)
        by_stem = [(n, m) for n, stem in stems.items() for m in re.finditer(name_pattern(stem), low)]
        if not named and len({n for n, _ in by_stem}) == 1:  # 那朝阳的呢, of 海淀校区 / 朝阳校区: a sheet said without the end all share
            return by_stem[0][0], None, by_stem[0][1].span()
    if len(f.sheets) > 1:  # an English word for a Chinese sheet name, or the reverse
        for s in f.sheets:
            c = lx.concept_of(s.name or "")
            if not c:
                continue
            for w, wc in lx.synonyms().items():
                if wc == c and len(w) >= 3:
                    said = re.search(r"(?<![a-z])" + re.escape(w) + r"s?\s*(?:sheet|表|页)", low)
                    if said:
                        return s.name, None, said.span()
    pats = [r"(?<![a-z])(sheet\s*\d+)", r"(?:工作表|页签)\s*[\"“]?([A-Za-z0-9_\u4e00-\u9fff]{1,12})",
            r"([A-Za-z0-9_\u4e00-\u9fff]{1,12}?)\s*(?:sheet|工作表|页签)"]
    if len(f.sheets) > 1:  # 预算执行.xlsx 的 汇总 表看一下: a sheet asked for by name, in a workbook of several
        pats.append(r"^\s*(?:的|里的|中的)\s*([A-Za-z0-9_\u4e00-\u9fff]{1,8}?)\s*(?:表|页)(?=\s*(?:看一下|看看|打开|预览|显示|的内容|内容|呢)?\s*[?？。.!！]?\s*$)")
    sheet_names = [s.name.casefold() for s in f.sheets if s.name]
    if any(c.casefold() in ("sheet", "工作表", "页签", "sheet name", "sheet_name") for s in f.sheets for c in s.columns):
        return None, None, None  # average score by sheet, over a table with a column called sheet: that column
    for pat in pats:
        for m in re.finditer(pat, text, re.I | re.A):
            name = re.sub(r"^(?:the|的|of)\s*", "", m.group(1).strip(), flags=re.I | re.A)
            if any(n in name.casefold() for n in sheet_names):
                continue  # 把预算和实际两个sheet: the sheets named, with words around them
            if pat is pats[1] and SHEET_VERB.match(name):
                continue  # 按工作表分组 / 工作表分开算: what is done by sheet, never a sheet's name
            if name and name.casefold() not in ("the", "this", "that", "a", "one", "每个", "这个", "那个", "单独", "某个", "一个", "each", "every",
                                                "and", "or", "both", "two", "three", "four", "five", "six", "all", "its", "my", "our", "these", "those",
                                                "和", "与", "及", "或", "两个", "这两个", "几个",
                                                "by", "per", "for", "in", "of", "across", "from", "on", "按", "各", "分"):  # (total Fee by sheet: a key)
                return None, name, m.span(1)
    return None, None, None


def name_pattern(name: str) -> str:
    """A name as a pattern that is no part of a longer Latin word or number (North never in Northgate, Q1 never in Q12,
    9月 never in 9月15号); a Chinese name with no figure may touch one (东城分馆12月份)."""
    head = r"(?<![a-z0-9])" if re.match(r"[a-z0-9]", name) else ""
    tail = r"(?![a-z0-9])" if re.search(r"[a-z0-9]$|\d", name) else ""  # (9月 never in 9月15号)
    return head + re.escape(name) + tail


def with_sheet_words(low: str, span: tuple[int, int]) -> tuple[int, int]:
    """东城分馆 工作表 / 工作表“东城分馆”: the word that says a name is a sheet's goes with the name."""
    after = SHEET_WORD_AFTER.match(low, span[1])
    before = SHEET_WORD_BEFORE.search(low, 0, span[0])
    return (before.start() if before else span[0], after.end() if after else span[1])


SHEET_WORD_AFTER = re.compile(r"\s*[”\"'」]?\s*(?:工作表|sheet|表|页)(?![a-z])", re.I)
SHEET_WORD_BEFORE = re.compile(r"(?:工作表|sheet)\s*[“\"'「]?\s*$", re.I)
SHEET_VERB = re.compile(r"分组|分开|分别|汇总|合并|合计|合起来|合在一起|加起来|统计|计算|算|排序|筛选|各自|对比|比较")


@dataclass(frozen=True)
class ColumnHit:
    start: int
    end: int
    column: str
    how: str  # exact | synonym | partial


IDENTIFIER = re.compile(r"(?<![a-z0-9_])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![a-z0-9_])")  # words joined by "_": names, never prose


@functools.cache
def head_lead() -> frozenset[str]:
    """The characters a column's last word may follow and still stand alone (里面评分, 平均时长, 按类别)."""
    from modes.tagging.segment import words_toml

    return frozenset(words_toml()["column_heads"]["lead"])


SUMMARY_SUFFIX = re.compile(r"(.+?)_(?:合计|平均|中位数|最大|最小|sum|mean|median|max|min|total|average)", re.I)


@lru_cache(maxsize=256)
def _summary_bases(columns: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(base, column) for a summary's figures (金额_合计 → 金额), when the base names no column of its own and only one figure."""
    if not any("_" in c for c in columns):
        return ()
    names = {c.casefold() for c in columns}
    found: dict[str, list[str]] = {}
    for c in columns:
        m = SUMMARY_SUFFIX.fullmatch(c)
        if m and m.group(1).casefold() not in names and len(m.group(1)) >= 2:
            found.setdefault(m.group(1).casefold(), []).append(c)
    return tuple((b, cs[0]) for b, cs in found.items() if len(cs) == 1)


def find_columns(text: str, sheet: SheetInfo) -> list[ColumnHit]:
    """Every column the text mentions, by name or plain meaning, longest first, without overlaps."""
    low = text.casefold()
    cands: list[tuple[int, int, str, str]] = []
    heads = sheet.head_names if CJK.search(low) else frozenset()
    for c, cl in sheet.folded:
        if cl not in low:
            continue
        for m in re.finditer(re.escape(cl), low):
            if not CJK.match(cl[0]) and m.start() > 0 and re.match(r"[a-z0-9_]", low[m.start() - 1]):
                continue
            if cl in heads and m.start() > 0 and CJK.match(low[m.start() - 1]) and low[m.start() - 1] not in head_lead():
                continue  # 候诊时长 is no 加班时长: a last word said as the tail of another compound names no column
            end = m.end()
            if not CJK.match(cl[-1]) and end < len(low) and low[end] == "s" and not re.match(r"[a-z0-9_]", low[end + 1 : end + 2]):
                end += 1  # emails -> email
            elif not CJK.match(cl[-1]) and end < len(low) and re.match(r"[a-z0-9_]", low[end]):
                continue
            cands.append((m.start(), end, c, "exact"))
    for c, cl in sheet.folded:  # cities, categories, salaries, addresses, taxes: the English plural of a column's name
        plural = (cl[:-1] + "ies" if re.search(r"[^aeiou]y$", cl) else cl + "es" if re.search(r"(?:s|x|z|ch|sh)$", cl) else None) \
            if cl.isascii() and cl[-1:].isalpha() else None
        if plural and plural in low:
            cands += [(m.start(), m.end(), c, "exact") for m in re.finditer(r"(?<![a-z0-9_])" + re.escape(plural) + r"(?![a-z0-9_])", low)]
    for m in UNITS_DONE.finditer(low):  # units ordered, over Qty Ordered and Unit Cost: the quantity of that event
        verb = m.group("v")
        qty = [c for c, cl in sheet.folded if c in sheet.numeric and re.search(rf"(?<![a-z]){verb}(?![a-z])", cl)
               and re.search(r"(?<![a-z])(?:qty|quantity|units|count|pcs|pieces)(?![a-z])", cl)]
        if len(qty) == 1:
            cands.append((m.start(), m.end(), qty[0], "exact"))
    for c, cl in sheet.folded:  # seat (count), over a column seats; churn, over churned: the name's word, not inflected
        if not cl.isascii() or not re.fullmatch(r"[a-z]{3,}(?:e?s|e?d)", cl) or CJK.search(cl):
            continue
        for stem in {cl[:-1], cl[:-2]} if cl.endswith(("es", "ed")) else {cl[:-1]}:
            if len(stem) >= 4 and stem in low and not any(f == stem for _, f in sheet.folded):
                cands += [(m.start(), m.end(), c, "synonym") for m in re.finditer(r"(?<![a-z0-9_])" + re.escape(stem) + r"(?![a-z0-9_])", low)]
    for c, cl in sheet.folded:  # start_date said as "startdate" or "start date", FuelType as "fuel type": the same name, other separators
        camel = " ".join(CAMEL_WORD.findall(c)).casefold() if c.isascii() and re.search(r"[a-z][A-Z]", c) else cl
        if CJK.search(cl) or not re.search(r"[a-z][_\- ][a-z]", camel):
            continue
        spaced = re.sub(r"[_\-]+", " ", camel)
        plural_head = {re.sub(r"^([a-z]{3,}?)(?<![sy]) ", r"\1s ", spaced)}  # fee_paid said "fees paid": the plural of its first word
        for form in ({re.sub(r"[_\- ]+", "", camel), spaced, re.sub(r"[_ ]+", "-", camel), re.sub(r"[ ]+", "_", camel)} | plural_head) - {cl}:
            if len(form) >= 5 and form in low:  # room types: the plural too
                cands += [(m.start(), m.end(), c, "exact") for m in re.finditer(r"(?<![a-z0-9_])" + re.escape(form) + r"(?:e?s)?(?![a-z0-9_])", low)]
    for c, short in sheet.short_names:  # 成交金额 said 成交额, 采购数量 said 采购量: the name's usual short form
        if short in low:
            cands += [(m.start(), m.end(), c, "synonym") for m in re.finditer(re.escape(short), low)]
    for c, long in sheet.long_names:  # Qty Ordered said "quantity ordered": the name's abbreviation written out
        if long in low:
            cands += [(m.start(), m.end(), c, "synonym") for m in re.finditer(r"(?<![a-z0-9_])" + re.escape(long) + r"(?![a-z0-9_])", low)]
    for m in IDENTIFIER.finditer(low):  # price_per_litre: a name written like a column's, one letter off, is that column
        col, how, _ = resolve_column(m.group(0), sheet, closest=False)
        if col is not None and (how == "typo" or how == "synonym" and same_word(m.group(0), col.casefold())):
            cands.append((m.start(), m.end(), col, how))
    for w, col in sheet.synonym_words:
        if w not in low:
            continue
        for m in re.finditer(re.escape(w), low):
            end = m.end()
            if not CJK.match(w[-1]) and low[end : end + 1] == "s" and not re.match(r"[a-z]", low[end + 1 : end + 2]):
                end += 1  # customers -> customer
            if not CJK.match(w[0]) and ((m.start() > 0 and re.match(r"[a-z]", low[m.start() - 1])) or (end < len(low) and re.match(r"[a-z]", low[end]))):
                continue
            cands.append((m.start(), end, col, "synonym"))
    if sheet.name_word_pattern is not None and (low.isascii() or re.search(r"[a-z]{3}", low)):  # over 40 kWh / total energy: Energy kWh
        of = dict(sheet.name_words)
        fam = sheet.value_families  # did she close, over Close Date and Closed Won / Closed Lost: the values' word, no date's
        cands += [(m.start(), m.end(), of[m.group("w")], "partial") for m in sheet.name_word_pattern.finditer(low)
                  if not (fam and any(f in fam for f in (m.group("w"), m.group("w") + "d", m.group("w") + "ed")))]
    for base, col in _summary_bases(sheet.columns):  # 金额 on a summary whose one figure of it is 金额_合计: that figure
        for m in re.finditer(re.escape(base), low):
            if not CJK.match(base[0]) and ((m.start() > 0 and re.match(r"[a-z0-9_]", low[m.start() - 1])) or re.match(r"[a-z0-9_]", low[m.end() : m.end() + 1])):
                continue
            cands.append((m.start(), m.end(), col, "summary"))
    cands.sort(key=lambda t: (-(t[1] - t[0]), t[3] != "exact", t[3] == "typo", t[0]))
    chosen: list[ColumnHit] = []
    taken = bytearray(len(low) + 1)  # characters already inside a chosen hit: one lookup, not a scan of every hit
    for s, e, c, how in cands:
        if taken.find(1, s, e) != -1:
            continue
        taken[s:e] = b"\x01" * (e - s)
        chosen.append(ColumnHit(s, e, c, how))
    if sheet.name_words:  # average speed of 136 mph: the column named whole, its last word said again is a unit, no mention
        whole = {h.column for h in chosen if h.how != "partial"}
        words = dict(sheet.name_words)
        chosen = [h for h in chosen if not (h.how == "partial" and h.column in whole and words.get(low[h.start : h.end].rstrip("s")) == h.column)]
    hits = _glosses_after(_without_glosses(sorted(chosen, key=lambda h: h.start), low), low, sheet)
    meant = _by_meaning(low, sheet, [(h.start, h.end) for h in chosen + hits])
    return sorted(hits + meant, key=lambda h: h.start) if meant else hits


def _by_meaning(low: str, sheet: SheetInfo, read: list[tuple[int, int]]) -> list[ColumnHit]:
    """Chinese words naming an English column by meaning (观众人数 -> Crowd), outside the names, synonyms and glosses
    in brackets found (价格变动（diff）: 价格 is read with its gloss), where no cell value is written; each is remembered, so the request is restated with the column
    used."""
    if not CJK.search(low) or all(CJK.search(c) for c in sheet.columns):
        return []
    out: list[ColumnHit] = []
    for s, e, col, _ in crosslang.mentions(low, sheet.columns, sheet.word_values):
        if col is None or _covered(read, s, e) or sheet.holds(low[s:e]):
            continue
        crosslang.remember(low[s:e], col)
        out.append(ColumnHit(s, e, col, "translated"))
    return out


GLOSS_GAP = re.compile(r"[\u4e00-\u9fff]{0,6}\s*[（(]\s*['\"“‘]?\s*")


GLOSS_AFTER = re.compile(r"\s*['\"“”‘’]?\s*[（(]\s*(?P<g>[\u4e00-\u9fff][\u4e00-\u9fff/／ ]{0,19})\s*[）)]")


def _glosses_after(hits: list[ColumnHit], low: str, sheet: SheetInfo) -> list[ColumnHit]:
    """'State Code'（州/省代码）为'TX': a Chinese gloss in brackets right after a column's name is part of the mention,
    unless it names a value (城市（上海）) or another column."""
    out: list[ColumnHit] = []
    for i, h in enumerate(hits):
        m = GLOSS_AFTER.match(low, h.end) if h.how == "exact" else None
        nxt = hits[i + 1].start if i + 1 < len(hits) else len(low)
        if m is not None and m.end() <= nxt and not sheet.holds(m.group("g").strip()):
            h = ColumnHit(h.start, m.end(), h.column, h.how)
        out.append(h)
    return out


def _without_glosses(hits: list[ColumnHit], low: str) -> list[ColumnHit]:
    """价格差（diff）: a word by meaning glossing the column named in the brackets after it is that column, not
    another, there and wherever the same word comes again."""
    glossed: dict[str, str] = {}
    for h, nxt in zip(hits, hits[1:], strict=False):
        gap = GLOSS_GAP.fullmatch(low[h.end : nxt.start]) if h.how != "exact" and nxt.how == "exact" and nxt.column != h.column else None
        if gap is not None:
            glossed[low[h.start : nxt.start].rstrip(" （(\'\"“‘")] = nxt.column
    if not glossed:
        return hits
    out: list[ColumnHit] = []
    for i, h in enumerate(hits):
        word = next((w for w in glossed if h.how != "exact" and low.startswith(w, h.start)), None)
        if word is None:
            out.append(h)
        elif not (i + 1 < len(hits) and hits[i + 1].column == glossed[word] and GLOSS_GAP.fullmatch(low[h.end : hits[i + 1].start])):
            out.append(ColumnHit(h.start, h.start + len(word), glossed[word], "synonym"))  # the glossed word said again
    return out


TABLE_NOUNS = frozenset({"sheet", "sheets", "tab", "tabs", "table", "tables", "file", "files", "workbook", "spreadsheet", "工作表", "表格", "文件"})


def resolve_column(raw: str, sheet: SheetInfo, numeric: bool = False, closest: bool = True) -> tuple[str | None, str, list[str]]:
    """(column, how, closest): exact, by meaning, unique partial, or a small typo; else None with the closest names
    (computed only when asked for: probing many prefixes of a word needs no suggestions)."""
    r = raw.strip().strip("\"'“”「」").casefold()
    r = re.sub(r"(?:列|字段|这一?列|那一?列|column|col)$", "", r).strip()
    r = re.sub(r"^(?:the|列)\s*", "", r).strip()
    if not r:
        return None, "empty", []
    names = sheet.names
    if r in names.exact:
        return names.exact[r], "exact", []
    if r.endswith("s") and r[:-1] in names.exact:  # Units, over a column Unit: that column, before any meaning of the word
        return names.exact[r[:-1]], "exact", []
    if r.isascii() and len(r) >= 3 and r + "s" in names.exact:  # seat, over a column seats: that column said in the singular
        return names.exact[r + "s"], "exact", []
    if r.isascii() and (long := next((c for c, lg in sheet.long_names if lg == r), None)) is not None:
        return long, "synonym", []  # quantity ordered, over Qty Ordered
    if r in ("日期", "时间", "date", "the date", "time", "时间顺序", "日期顺序") and len(sheet.dates) == 1 and r not in names.exact:
        return next(iter(sheet.dates)), "synonym", []  # 按日期倒序, over 消费时间: the table's one date column
    if r in TABLE_NOUNS:  # the Acme sheet of …: the word for a sheet or a file, never a part of Timesheet ID
        return None, "none", []
    if (done := UNITS_DONE.fullmatch(r.casefold())) is not None:  # units ordered: Qty Ordered, never Unit Cost
        qty = [c for c, cl in sheet.folded if c in sheet.numeric and re.search(rf"(?<![a-z]){done.group('v')}(?![a-z])", cl)
               and re.search(r"(?<![a-z])(?:qty|quantity|units|count|pcs|pieces)(?![a-z])", cl)]
        if len(qty) == 1:
            return qty[0], "exact", []
    concept = lx.concept_of(r)
    if concept:
        hits = names.by_concept.get(concept, ())
        if len(hits) == 1:
            return hits[0], "synonym", []
    one = re.sub(r"ies$", "y", r) if r.endswith("ies") else r[:-1] if re.fullmatch(r"[a-z][a-z_ ]*[^s]s", r) else None
    if one and len(one) >= 3:  # customers, categories: the name said in the plural
        found = resolve_column(one, sheet, numeric, closest=False)
        if found[0] is not None and found[1] != "typo":
            return found
    longest = names.longest
    if len(r) > longest + 2:  # no name, part or typo can match; difflib only ever sees a span the size of a name
        return _unknown(r, sheet, r[: longest + 2], closest)
    # a part of a name (人均 -> 人均消费, 班 -> 班级), or a name inside a word barely longer than it (评分列的)
    short_ok = len(r) >= 2 or bool(CJK.match(r))
    part = [c for c, cf, _ in names.folded if (short_ok and r in cf) or (len(c) >= 2 and cf in r and len(r) <= len(c) + 2)]
    if len(part) > 1 and numeric:
        part = [c for c in part if c in sheet.numeric]
    if len(part) > 1 and r.isascii() and len(r) >= 4:  # churn, over churned and churn_date: the word itself, inflected
        inflected = [c for c, cf, _ in names.folded if c in part and re.fullmatch(re.escape(r) + r"(?:e?d|ing|e?s)", cf)]
        part = inflected if len(inflected) == 1 else part
    if not part and r.isascii() and len(r) >= 6 and r.endswith("d"):  # invoiced, over Invoice Total: the name's word, as a verb done
        for stem in (r[:-1], r[:-2]):
            verbed = [c for c, cf, _ in names.folded if re.search(r"(?<![a-z])" + re.escape(stem) + r"(?![a-z])", cf)]
            if len(verbed) == 1 and len(stem) >= 4:
                part = verbed
                break
    if len(part) == 1:
        return part[0], "partial", []
    tol = 1 if len(r) <= 6 else 2  # each edit loses at most one of a name's letters: a cheap test before counting edits
    typo = [c for c, cf, letters in names.folded if len(c) >= 2 and len(letters.difference(r)) <= tol
            and edit_distance(r, cf, tol) <= tol and not _other_head(r, cf)] if len(r) >= 2 and (CJK.match(r[0]) or len(r) >= 4) else []
    if len(typo) == 1 and not (len(r) == 2 and CJK.match(r) and _general_word(r)):  # 数据 is a word of its own, no typo of 数量
        return typo[0], "synonym" if same_word(r, typo[0].casefold()) else "typo", []
    kind = values_kind(r, sheet)
    if kind is not None:
        return kind, "partial", []
    return _unknown(r, sheet, r, closest)


UNITS_DONE = re.compile(r"(?<![a-z0-9_])(?:units?|items?|pieces?|pcs)\s+(?P<v>ordered|received|sold|shipped|returned|delivered|bought|purchased|produced|picked)(?![a-z0-9_])")


def same_word(said: str, name: str) -> bool:
    """A name written another way that is still that word, never a slip: British spelling for American
    (price_per_litre for price_per_liter). A Chinese name typed with the same sounds (评份 for 评分) is still a slip, said."""
    return said.isascii() and name.isascii() and _american(said) == _american(name)


def _american(word: str) -> str:
    from modes.tagging.segment import words_toml

    out = word.casefold()
    for british, american in words_toml()["spelling"]["endings"]:
        out = re.sub(rf"{british}(?=$|[^a-z])", american, out)
    return out


COUNT_HEADS, ID_HEADS = "数量", "号码"


def _other_head(said: str, name: str) -> bool:
    """工单数 beside 工单号: a Chinese word ends in its head; a count (数) of what a column numbers (号) is another thing,
    never a typo of it (评份 is still 评分 mistyped)."""
    return len(said) == len(name) and len(said) >= 2 and said[:-1] == name[:-1] and said[-1] in COUNT_HEADS and name[-1] in ID_HEADS


def values_kind(word: str, sheet: SheetInfo) -> str | None:
    """每个店 where one column holds 徐汇店 / 静安店 / 浦东店 (or 工作表, over sheets named so): a word every value of one
    text column ends with names that column — the kind of thing its values are."""
    if not word or len(word) > 3 or not all(CJK.match(ch) for ch in word):
        return None
    for w in dict.fromkeys([word, word[-1:] if len(word) == 2 else word]):  # 门店 / 城市: the kind said by its last character too
        found = [c for c, (ending, shortest) in sheet.value_suffixes.items() if ending.endswith(w) and shortest > len(w)]
        if len(found) == 1:
            return found[0]
    return None


def _unknown(r: str, sheet: SheetInfo, near: str, closest: bool) -> tuple[str | None, str, list[str]]:
    """No column by name, part or typo: one in the other language (场地 -> Venue, restated before it is used), or
    None with the closest names. A cell value is never read as a column."""
    if closest and crosslang.applies(r, sheet.columns) and not any(v.casefold() == r for v, _ in sheet.value_pairs):
        col, cands = crosslang.translate(r, sheet.columns)
        if col or cands:
            return col, "translated" if col else "unknown", cands
    return None, "unknown", closest_columns(near, list(sheet.columns)) if closest else []


def closest_columns(raw: str, cols: list[str], n: int = 3) -> list[str]:
    scored = sorted(((difflib.SequenceMatcher(None, raw, c.casefold()).ratio(), c) for c in cols), reverse=True)
    good = [c for s, c in scored if s > 0]
    return (good or [c for _, c in scored])[:n]


# what follows a one-character value (女, 男) when it names people: 女员工, 男的, 女性, 男同事
SEX_LETTERS = "男女"  # the one-letter values that name people before any noun (女厨师, 男女员工)
ONE_CHAR_NOUN = (r"(?=员工|职工|职员|同事|同学|学生|老师|教师|教练|客户|顾客|用户|会员|患者|病人|顾问|经理|销售|店员|医生|护士|司机|骑手|选手|主播"
                 r"|性|生|士|的|人|孩|宝宝)")
# 女员工 over 员工.csv: the noun is the file's name too, blanked as the file's; a noun was there
ONE_CHAR_NOUN_BLANKED = r"(?=\s{2,}(?:的|有几|有多少))"


@functools.cache
def _value_forms(vl: str) -> tuple[str, ...]:
    """A cell value as written, and its English plural (surgeries for Surgery, dentals for Dental); a value holding
    full-width marks (创可贴（中盒）) also as the text is read, half-width (创可贴(中盒))."""
    folded = fold(vl)
    if folded != vl and len(folded) == len(vl):
        return (vl, folded)
    if CJK.match(vl[:1]) or len(vl) < 3 or not vl[-1].isalpha():
        return (vl,)
    plural = vl[:-1] + "ies" if re.search(r"[^aeiou]y$", vl) else vl + "es" if re.search(r"(?:s|x|z|ch|sh)$", vl) else vl + "s"
    bare = _unaccented(vl)  # rose wines / cafe, for Rosé / Café: the value typed without its accents (the same length)
    return (plural, vl) if bare == vl else (plural, vl, bare + plural[len(vl):], bare)


def _unaccented(v: str) -> str:
    """A Latin value with its accents dropped (Rosé → Rose), when that keeps every letter in place; else the value."""
    import unicodedata

    bare = "".join(ch for ch in unicodedata.normalize("NFKD", v) if not unicodedata.combining(ch))
    return bare if len(bare) == len(v) else v


LATIN_WORD = lazy(r"(?<![a-z0-9_])[a-z]{3,}(?![a-z0-9_])")


def find_values(text: str, sheet: SheetInfo, taken: list[tuple[int, int]]) -> dict[str, list[tuple[str, int, int]]]:
    """Cell values the text mentions, per column: 朝阳区 -> 区, Sales -> department."""
    low = text.casefold()
    found: dict[str, list[tuple[str, int, int]]] = {}
    spans = list(taken)
    phrases = [m.span() for m in OPERATOR_PHRASE.finditer(low)]  # other than Billing: "other" is the operator's word, not the value Other
    for v, c, vl in sheet.nameable_values:
        forms = _value_forms(vl)
        if not any(f in low for f in forms) or vl in lx.TOTAL_WORDS:
            continue  # (门店日报每个月的客流合计: 合计 labels the table's own total row; it is no store to filter on)
        for m in (m for f in forms for m in re.finditer(re.escape(f), low)):
            s, e = m.span()
            if len(text) == len(low) and text[s:e] != v and text[s:e].strip() in sheet.values.get(c, ()):
                continue  # usa where the column has both USA and usa: the value as written, never the other case
            if not CJK.match(vl[0]) and ((s > 0 and re.match(r"[a-z0-9]", low[s - 1])) or (e < len(low) and re.match(r"[a-z0-9]", low[e]))):
                continue
            if _covered(spans, s, e) or _covered(phrases, s, e):
                continue
            spans.append((s, e))
            found.setdefault(c, []).append((v, s, e))
    for v, c in sheet.not_yet_values:  # 还没结算 / 没有发货 / 尚未审核: the value 未结算 / 未发货 / 未审核, said with other words
        if v[1:] not in text:
            continue
        for m in re.finditer(r"(?:还没有|还没|没有|尚未|还未|没)" + re.escape(v[1:]), text):
            if not _covered(spans, *m.span()):
                spans.append(m.span())
                found.setdefault(c, []).append((v, *m.span()))
    if sheet.value_families:  # the closed deals / not closed yet / did she close, over Closed Won and Closed Lost: every value the word begins
        for m in LATIN_WORD.finditer(low):
            w = m.group(0)
            fam = next((sheet.value_families[f] for f in (w, w + "d", w + "ed", w[:-1] if w.endswith("s") else w) if f in sheet.value_families), None)
            if fam is None or _covered(spans, *m.span()) or fam[0] in found:
                continue
            spans.append(m.span())
            found[fam[0]] = [(v, *m.span()) for v in fam[1]]
    letters = {v.strip(): (v, c) for v, c in sheet.one_letter_values}
    starts = {a for vals in found.values() for _, a, _ in vals}

    def names_people(ch: str, i: int, blanked: bool = False) -> bool:  # 女员工; 女厨师 (男 / 女 before a value of another column: 厨师)
        return re.match(ONE_CHAR_NOUN, text[i:]) is not None or ch in SEX_LETTERS and i in starts \
            or blanked and re.match(ONE_CHAR_NOUN_BLANKED, text[i:]) is not None

    for i, ch in enumerate(text):  # 女员工 / 男的 / 女性 / 男女厨师: a one-character value naming people
        if ch not in letters:
            continue
        v, c = letters[ch]
        nxt = letters.get(text[i + 1 : i + 2])
        if not (names_people(ch, i + 1, blanked=True) or ch in SEX_LETTERS and nxt is not None and nxt[1] == c and nxt[0] != v and names_people(text[i + 1], i + 2)):
            continue
        if not _covered(spans, i, i + 1):
            spans.append((i, i + 1))
            found.setdefault(c, []).append((v, i, i + 1))
    for v, c in sheet.cased_values:  # not Done: a value that is also a common word, written as the data writes it
        for m in re.finditer(r"(?<![A-Za-z0-9])" + re.escape(v.strip()) + r"(?![A-Za-z0-9])", text):
            if not _covered(spans, *m.span()) and not _covered(phrases, *m.span()):
                spans.append(m.span())
                found.setdefault(c, []).append((v, *m.span()))
    return found
