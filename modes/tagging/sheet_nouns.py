"""The noun that names what each sheet of a split workbook is (校区, 店, clinic, site), said with a quantifier: 三个校区 /
各门店 / across all clinics / per site. Read as the sheets themselves — all of them stacked, or each one a group — and
written back as the words the sheet rules read (所有工作表 / 每个工作表 / all sheets / per sheet). The nouns come from the
workspace (words.toml [sheet_nouns] holds only the quantifiers)."""

from __future__ import annotations

import re
from functools import cache, lru_cache, partial

from modes.catalog import Catalog, FileInfo
from modes.resolve import DISTINCT_SHEET, NAMED_FILE, resolve_column, shared_ending
from modes.tagging.segment import words_toml

TIME_WORDS = frozenset({"月", "年", "季", "季度", "周", "日", "天", "半年", "月份", "年度", "期"})


def _alt(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@cache
def _quantifiers() -> tuple[str, str, str, str]:
    w = words_toml()["sheet_nouns"]
    return _alt(w["all_zh"]), _alt(w["each_zh"]), _alt(w["all_en"]), _alt(w["each_en"])


@cache
def _counted_each() -> tuple[str, str]:
    w = words_toml()["sheet_nouns"]
    return _alt(w["counted_zh"]), _alt(w["counted_then_each_zh"])


def _split(f: FileInfo) -> bool:
    return f.is_table and len(f.sheets) > 1 and len({tuple(s.columns) for s in f.sheets}) == 1 and bool(f.sheets[0].columns)


def _suffixes(names: list[str]) -> list[str]:
    """The ends all the sheets' names share, as whole CJK words (海淀校区 / 朝阳校区 → 校区, 区); never a whole name."""
    common = shared_ending(names)
    if not common:
        return []
    shortest = min(len(n) for n in names)
    return [common[-k:] for k in range(1, len(common) + 1) if k < shortest]


def _most_suffixes(names: list[str]) -> list[str]:
    """The Chinese ending most of the sheets' names share when not all do (东院 / 南院 beside 本部: 院), each name longer
    than it: the noun of the whole (全院 / 三个院); none when fewer than two names, or only half of them, share one."""
    if len(names) < 3 or not all(n and CJK_NAME.fullmatch(n) for n in names):
        return []
    out = []
    for k in (1, 2):
        ends = {n[-k:] for n in names if len(n) > k}
        best = max(ends, key=lambda e: sum(n.endswith(e) for n in names), default=None)
        if best is not None and sum(n.endswith(best) and len(n) > k for n in names) * 2 > len(names):
            out.append(best)
    return out


CJK_NAME = re.compile(r"[\u4e00-\u9fff]{2,8}")


def _heads(noun: str, column: str) -> bool:
    """Whether a column's name is the noun or ends with it (所属门店 of 店; 店员 is a person), or holds it as an English word."""
    if noun.isascii():
        return re.search(r"(?<![a-z])" + re.escape(noun) + r"(?![a-z])", column) is not None
    return column == noun or column.endswith(noun)


def nouns(catalog: Catalog, read_all: bool = True, named: frozenset[str] = frozenset()) -> dict[str, tuple[str, str | None]]:
    """noun (casefolded) -> (the workbook whose sheets it names, the other table the noun is a column of, if any): the
    end the sheets' names share and its everyday words (店 → 门店), and a column of another table whose values are the
    sheets' names, with its own noun (所属小区 → 小区, Home Branch → branch). A noun that would name the sheets of two
    workbooks, or is a word of the workbook's own columns, names none. With read_all False only the tables already read,
    and the workbooks `named`, are looked into (a request that names its file reads no other)."""
    out: dict[str, tuple[str, str | None]] = {}
    seen: set[str] = set()
    books = [f for f in catalog.tables if f.kind != "csv" and (read_all or f.loaded or f.name.casefold() in named) and _split(f)]
    if not books:
        return out  # no workbook split into sheets: no other table is read for its values
    tables = [f for f in catalog.tables if read_all or f.loaded]
    compounds, belongs = words_toml()["sheet_nouns"]["compounds_zh"], words_toml()["sheet_nouns"]["belongs_zh"]
    for wb in books:
        names = [s.name for s in wb.sheets if s.name]
        own = [c.casefold() for c in wb.sheets[0].columns]
        # (7月 / 8月, 一季度 / 二季度: periods, read by the period rules — 按月 is never 每个工作表)
        periods = any(DISTINCT_SHEET.search(n) for n in names)
        found: list[tuple[str, str | None]] = [] if periods else [(n, None) for n in (_suffixes(names) or _most_suffixes(names)) if n not in TIME_WORDS]
        found += [(w, None) for n, _ in list(found) for w in compounds.get(n, ()) if not any(w in x for x in names)]  # 门店 of 东湖店
        wanted = {n.casefold() for n in names}
        for other in tables:
            if other.path == wb.path:
                continue
            for sh in other.sheets:
                for col, vals in sh.values.items():
                    if wanted <= {v.casefold() for v in vals}:
                        found.append((col.casefold(), other.path))
                        lead = next((b for b in belongs if col.startswith(b) and len(col) > len(b) + 1), None)
                        if lead is not None:  # 所属小区 of 业主.csv: its rows' 小区 too
                            found.append((col[len(lead):].casefold(), other.path))
                        last = re.fullmatch(r"[A-Za-z]+[\s_]+(?:[A-Za-z]+[\s_]+)*([A-Za-z]{4,})", col)
                        if last is not None:  # Home Branch of fleet.csv: its rows' branch too
                            found.append((last.group(1).casefold(), other.path))
        for noun, source in found:
            if any(_heads(noun, c) for c in own):
                continue  # 门店 is a column of the workbook: a key of its own (店员 is no 店)
            if noun in seen:
                out.pop(noun, None)
                continue
            seen.add(noun)
            out[noun] = (wb.path, source)
    return out


@lru_cache(maxsize=4)
def _every_noun(catalog: Catalog) -> dict[str, tuple[str, str | None]]:
    """nouns() over every table, once per catalog (a catalog is built again when a file changes)."""
    return nouns(catalog)


COUNT_EN = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
COUNT_ZH = {"两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8}
# 三个城市每个月 / 这三家各自的 / 两个店的: the sheets counted by a noun no table names, each one a group when a key or 各自 follows
COUNTED_ZH = re.compile(r"(?:这|这些|那)?(?P<n>[两三四五六七八]|[2-8])\s*(?:个|家|所|间)(?P<w>[\u4e00-\u9fff]{1,3}?)(?P<de>的)?"
                        r"(?=(?P<each>每|各|分别)|一共|总共|合计|加起来|合起来|合在一起|加在一起|放(?:在)?一起|一起|合并|汇总|所有|全部|里|内|中|都|的|[，,。；;\s]|$)")
COUNTED_EN = re.compile(r"(?<![a-z_])(?:across\s+)?(?:all|the|both)\s+(?P<n>two|three|four|five|six|seven|eight|[2-8])\s+(?P<w>[a-z]{3,}?)s(?![a-z_])", re.I)


# 他们三个人 / 这三单 / 三次: people or rows counted, never the places the sheets are
COUNTED_NOT_PLACES = frozenset({"人", "位", "名", "单", "笔", "次", "条", "行", "种", "类", "项", "件", "户", "张", "份", "个人"})
GROWTH_SAID = re.compile(r"环比|同比|增长|增幅|涨幅|变化|趋势|走势|(?<![a-z_])(?:growth|trend|change)(?![a-z_])", re.I)


def _counted_sheets(text: str, catalog: Catalog, current: str | None = None) -> str:
    """across all three stations, beside the one workbook split into three sheets: a plural said with the number of its
    sheets, naming no column or file, is its sheets (stacked); per clinic, with that workbook said: each sheet. The words
    of the workspace are gathered only when a phrase asks about one."""
    books = [f for f in catalog.tables if f.kind != "csv" and _split(f)]  # (read only when such words are said)
    if len(books) != 1:
        return text
    wb = books[0]

    @cache
    def known() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:  # (column words, file stems, loaded values)
        return (frozenset(w for f in catalog.tables for sh in f.sheets for c in sh.columns for w in re.findall(r"[a-z]+", c.casefold())),
                frozenset(f.stem.casefold() for f in catalog.files),
                frozenset(v.casefold() for f in catalog.tables if f.loaded for sh in f.sheets for vs in sh.values.values() for v in vs))

    def named_elsewhere(w: str) -> bool:
        words, stems, values = known()
        parts = {x for st in stems for x in re.split(r"[_\-\s]+", st)}  # visits of wash_visits: the rows' own noun
        return w in words or w + "s" in stems or w in stems or w in parts or w + "s" in parts or w in TIME_EN or w in values or w + "s" in values

    def sheets(m: re.Match[str]) -> str:
        n = COUNT_EN.get(m.group("n").casefold()) or (int(m.group("n")) if m.group("n").isdigit() else 0)
        w = m.group("w").casefold()
        words, stems, _ = known()
        if n != len(wb.sheets) or w in words or w + "s" in stems or w in stems or w in ("sheet", "tab"):
            return m.group(0)
        return "across all sheets"
    text = COUNTED_EN.sub(sheets, text)

    def sheets_zh(m: re.Match[str]) -> str:  # 三个城市每个月的金额, over one workbook of three sheets: a noun no table names
        n = COUNT_ZH.get(m.group("n")) or (int(m.group("n")) if m.group("n").isdigit() else 0)
        w = m.group("w").casefold()
        own = next((x for x in sorted(_suffixes([sh.name for sh in wb.sheets if sh.name]), key=len, reverse=True) if w.startswith(x) and w != x), None)
        if own is not None and n == len(wb.sheets):  # 三个园周末的…: the sheets' own noun, then words of the request (周末)
            return "所有工作表" + m.group(0)[m.start("w") - m.start() + len(own) :]
        words, stems, _ = known_zh()
        periods = w in TIME_WORDS and all(w in (sh.name or "") for sh in wb.sheets)  # 三个月, over sheets 7月 / 8月 / 9月: those sheets
        if n != len(wb.sheets) or any(w in c for c in words) or any(w in st for st in stems) or (w in TIME_WORDS and not periods) \
                or w in ("工作表", "表", "sheet", "文件") or w in COUNTED_NOT_PLACES:
            return m.group(0)
        # (三个月每个月…环比, over month sheets: the months are the periods the growth runs across, never a group each;
        # 三个季度分别算一下, a figure of each: each sheet a group)
        each = m.group("each") and (not periods or m.group("each") == "分别" and not GROWTH_SAID.search(text))
        return ("每个工作表" if each else "所有工作表") + (m.group("de") or "")

    @cache
    def known_zh() -> tuple[frozenset[str], frozenset[str], None]:
        return (frozenset(c.casefold() for f in catalog.tables for sh in f.sheets for c in sh.columns),
                frozenset(f.stem.casefold() for f in catalog.files), None)
    text = COUNTED_ZH.sub(sheets_zh, text)

    def every(m: re.Match[str]) -> str:  # top 3 roles across all clients: a plural no table names, over a workbook split into sheets
        if any(named_elsewhere(w) for w in (m.group("w").casefold(), m.group("w").casefold() + "e")):  # roles: role (never rol)
            return m.group(0)
        return "across all sheets"
    text = ACROSS_EVERY.sub(every, text)

    # per clinic, only with the workbook itself said or in focus (or no file in focus), no other file named (by startdate is a word of its own columns), its
    # sheets no periods (per clinic is no month) and none of them named (by zone is then a column of that sheet, asked for)
    low = text.casefold()
    if (wb.stem.casefold() not in low and current not in (wb.path, None)) or any(f"{n.group(1)}.{n.group(2)}".casefold() != wb.name.casefold() for n in NAMED_FILE.finditer(text)) \
            or any(DISTINCT_SHEET.search(sh.name or "") for sh in wb.sheets) \
            or any(re.search(r"(?<![a-z0-9_])" + re.escape(sh.name.casefold()) + r"(?![a-z0-9_])", low) for sh in wb.sheets if sh.name):
        return text

    def each(m: re.Match[str]) -> str:  # number of visits per clinic / one column per clinic: a noun no table names, each sheet
        w = m.group("w").casefold()
        for x in (w, w[:-1] if w.endswith("s") else w):
            if named_elsewhere(x) or x in NOT_A_PLACE:
                return m.group(0)
            if any(resolve_column(x, sh, closest=False)[0] is not None for f in catalog.tables for sh in f.sheets):
                return m.group(0)  # (by startdate: start_date, a column however written)
        return m.group("q") + " sheet"
    return EACH_UNNAMED.sub(each, text)


# per clinic / by clinic / for each clinic / one column per clinic: the unit each sheet is, when nothing else is so named
EACH_UNNAMED = re.compile(r"(?P<q>(?<![a-z_])(?:per|each|by|for each|for every|in each))\s+(?P<w>[a-z]{3,})(?![a-z_-])", re.I)
NOT_A_PLACE = frozenset({"visit", "order", "booking", "sale", "transaction", "session", "ticket", "record", "row", "entry", "trip", "ride", "job",
                         "fill", "wash", "purchase", "shipment", "claim", "case", "call", "payment", "delivery", "rental", "stay", "lesson",
                         "the", "all", "each", "every", "one", "default", "itself", "hand", "far", "now", "then", "name", "value", "type",
                         "kind", "group", "category", "size", "count", "number", "amount", "total", "average", "percent", "percentage",
                         "share", "rank", "date", "person", "people", "head", "unit", "item", "items", "line", "lines"})
ACROSS_EVERY = re.compile(r"(?:(?P<pre>(?<![a-z_])(?:across|over|for|in)\s+)|(?<=[,;，；?？])\s*)(?:all|every|all the|all of the|all our|all my)\s+(?P<w>[a-z]{3,}?)(?:e?s)(?![a-z_])"
                          r"(?(pre)|(?=\s*(?:[,;.，；]|$)))", re.I)  # (, all depots, / …? all regions: a clause of its own)
TIME_EN = frozenset({"month", "week", "weekday", "weekend", "year", "day", "quarter", "period", "hour", "time", "row", "record", "entrie", "entry", "sheet", "tab", "file", "table", "column"})


# 哪个店收费最多 / 哪个工作表… / which sheet had the most: the sheets asked among, each one a group
WHICH_SHEET_ZH = re.compile(r"(?:哪个|哪一个|哪家|哪一家)\s*(?P<w>工作表|[\u4e00-\u9fff]{1,2}?)(?=的|[\u4e00-\u9fff]|$)")
WHICH_SHEET_EN = re.compile(r"(?<![a-z_])which\s+(?P<w>sheet|tab)(?![a-z_])", re.I)


def _which_sheet(text: str, catalog: Catalog) -> str:
    """哪个店收费金额最多, beside the one workbook split into sheets whose names end in 店 (or 哪个工作表 / which sheet),
    with none of its sheets named: every sheet, stacked, asked among (所有工作表 said before it)."""
    m = WHICH_SHEET_ZH.search(text) or WHICH_SHEET_EN.search(text)
    if m is None:
        return text
    books = [f for f in catalog.tables if f.kind != "csv" and _split(f)]
    if len(books) != 1:
        return text
    names = [sh.name for sh in books[0].sheets if sh.name]
    low = text.casefold()
    if any(n.casefold() in low for n in names):
        return text  # (a sheet named: read by the sheet rules)
    w = m.group("w")
    if w.casefold() not in ("工作表", "sheet", "tab") and (w not in _suffixes(names) or w in TIME_WORDS):
        return text  # (哪个月, over month sheets: read by the period rules)
    word = text[m.start("w") : m.end("w") + 1].casefold()
    if len(word) > len(w) and word[-1] not in "的，,。？? " and any(word in c.casefold() for f in catalog.tables for sh in f.sheets[:1] for c in sh.columns):
        return text  # 哪个店员…: a column's word that starts with the noun (店员), never the sheets
    all_zh, _, all_en, _ = _quantifiers()
    if re.search(rf"{all_zh}|(?<![a-z_])(?:{all_en})(?![a-z_])", text[: m.start()], re.I):
        return text  # 三个店哪个店… / across all sites, which site: the sheets already said, all of them
    return ("across all sheets, " if m.re is WHICH_SHEET_EN else "所有工作表") + text


def as_sheets(text: str, catalog: Catalog, current: str | None = None) -> str:
    """The text with a quantified sheet noun written as the sheet words (三个校区 → 所有工作表, per clinic → per sheet).
    With another table in focus that has a column holding the noun (所属网点 of 快递员.csv), the noun is that column's."""
    text = _which_sheet(text, catalog) if "哪" in text or "which" in text.casefold() else text
    if not QUANTIFIED.search(text):
        return text
    text = SHEET_AND_KEY.sub(r"\g<q>工作表、", text) if "工作表" in text else text
    text = re.sub(r"(?<![a-z_])(each|every|per|all(?: the)?|across all|both)\s+(?!(?:sheet|tab)s?(?![a-z_]))[a-z]{3,}\s+(sheets?|tabs?)(?![a-z_])", r"\1 \2", text,
                  flags=re.I)  # each depot sheet: each sheet (the word says what the sheets are)
    text = _counted_sheets(text, catalog, current) if COUNTED_EN.search(text) or ACROSS_EVERY.search(text) or EACH_UNNAMED.search(text) \
        or COUNTED_ZH.search(text) else text
    files = frozenset(f"{n.group(1)}.{n.group(2)}".casefold() for n in NAMED_FILE.finditer(text))
    table = _every_noun(catalog) if not files else nouns(catalog, read_all=False, named=files)  # (the workbook named is read)
    if not table:
        return text
    all_zh, each_zh, all_en, each_en = _quantifiers()
    text, kept = _shield(text, catalog, list(table))
    low = text.casefold()
    for noun, (wb, source) in sorted(table.items(), key=lambda x: -len(x[0])):
        if noun not in low:
            continue
        if source is not None and not _about_the_workbook(low, catalog, wb, source, noun):
            if current == wb and says_every_sheet(text, catalog, wb):
                text = re.sub(_every_of(noun), "across all sheets" if noun.isascii() else "所有工作表", text, flags=re.I)
            continue  # count vets per clinic: the other table's own column (same for all depots, the workbook in use: its sheets)
        said_wb = (f := catalog.get(wb)) is not None and f.stem.casefold() in low  # (停车缴费.xlsx … 两个出入口: the workbook named)
        focus = catalog.get(current) if current and current != wb and not said_wb else None
        if focus is not None and focus.is_table and any(noun in c.casefold() for sh in focus.sheets[:1] for c in sh.columns) \
                and not any((sh.name or "").casefold() in low for f in catalog.tables if f.path == wb for sh in f.sheets) \
                and not _about_the_workbook(low, catalog, wb, focus.path, noun):
            # 每个网点各自的平均星级, with 快递员.csv in focus: its 所属网点, never the sheets of 运单.xlsx (三个城市每个月的金额,
            # with 金额 a column of the workbook only: its sheets)
            continue
        n = re.escape(noun)
        if noun.isascii():
            plural = rf"{n}(?:e?s)?"
            text = re.sub(rf"(?<![a-z_])(?:{all_en})\s+{plural}(?![a-z_])", "across all sheets", text, flags=re.I)
            text = re.sub(rf"(?<![a-z_])(?:{each_en})\s+{plural}(?![a-z_])", "per sheet", text, flags=re.I)
        else:
            # 月份一行，三个店各一列: the sheets given a layout's role are the column naming each row's sheet
            text = re.sub(rf"(?:{all_zh}|{each_zh})\s*(?:的)?\s*{n}(?=\s*(?:做|为|作为|当|放)?\s*(?:各|每)?\s*(?:一|每)?\s*(?:列|行)(?!数))", "工作表", text)
            counted, then_each = _counted_each()
            text = re.sub(rf"(?:{counted})\s*(?:的)?\s*{n}(?=\s*(?:的)?\s*(?:{then_each}))", "每个工作表", text)
            ends = [sh.name for f in catalog.tables if f.path == wb for sh in f.sheets if sh.name]
            text = re.sub(rf"(?:{all_zh})\s*(?:的)?\s*{n}", partial(_all_sheets, len(ends)), text)
            # (两个分馆, of 东城分馆 / 西湖分馆: 分馆 is the end of their names, never 分 + 馆 said of each sheet)
            text = re.sub(rf"(?:{each_zh})\s*{n}", partial(_each_sheet, tuple(ends)), text)
            text = re.sub(rf"(?<=[行列])(\s*(?:是|为|用|放|按)\s*){n}", r"\1工作表", text)  # 行是小区，列是费用类型: the sheets down the side
    return SHEET_AND_KEY.sub(r"\g<q>工作表、", _unshield(text, kept))


def _all_sheets(count: int, m: re.Match[str]) -> str:
    """所有工作表 for a word of all of them and the sheets' noun (三个馆, of three sheets), unless the number said is not the
    number of sheets (这两个馆, of three: the two just shown)."""
    said = re.match(r"这?(?P<n>[两三四五六七八]|[2-8])", m.group(0))
    if said is not None:
        g = said.group("n")
        if (int(g) if g.isdigit() else COUNT_ZH[g]) != count:
            return m.group(0)
    return "所有工作表"


def _each_sheet(ends: tuple[str, ...], m: re.Match[str]) -> str:
    """每个工作表 for a quantifier and the sheets' noun (各馆; 按小区: 按工作表, a key that others may follow), unless the two
    are the end of a sheet's name (分馆)."""
    if any(e.endswith(m.group(0)) for e in ends):
        return m.group(0)
    return "按工作表" if m.group(0).startswith("按") else "每个工作表"


SHIELD = "\x00{}\x01"


def _shield(text: str, catalog: Catalog, found: list[str]) -> tuple[str, list[str]]:
    """The names of sheets and columns that hold a sheet noun with more around it (东城分馆 of 馆, 馆员), set aside before
    the noun is rewritten: a quantifier beside them (分 / 各个) is theirs, never the sheets'."""
    names = {n for f in catalog.tables for sh in f.sheets for n in (sh.name or "", *sh.columns)}
    held = sorted({n for n in names if any(w in n.casefold() and len(n) > len(w) for w in found) and n in text}, key=len, reverse=True)
    if not held:
        return text, []
    kept: list[str] = []

    def put(m: re.Match[str]) -> str:
        kept.append(m.group(0))
        return SHIELD.format(len(kept) - 1)
    return re.sub("|".join(re.escape(n) for n in held), put, text), kept


def _unshield(text: str, kept: list[str]) -> str:
    return re.sub("\x00(\\d+)\x01", lambda m: kept[int(m.group(1))], text) if kept else text


# 按工作表和服务项目: the sheets and a key listed, as the list the key rules read (按工作表、服务项目)
SHEET_AND_KEY = re.compile(r"(?P<q>按)\s*工作表\s*(?:和|与|跟|及|以及)\s*(?=[\u4e00-\u9fffA-Za-z])(?![\u4e00-\u9fff]{0,6}?(?:月份|月|季度|年度|年|周))")  # (a period: read as such)
QUANTIFIED = re.compile(r"[行列]\s*(?:是|为|用|放|按)|所有|全部|几个|[两三四五六七八九]个|几家|[两三四五]家|整个|全|每|各|按|分|(?<![a-z_])(?:all|both|across|every|per|by|each|the (?:two|three|four))(?![a-z_])", re.I)


TABLES_COUNTED = re.compile(r"(?P<n>[两三四五六七八]|[2-8])\s*(?:个|张)\s*(?:工作表|表|sheet)")
ID_TAIL = re.compile(r"(?:编号|单号|号|id|no\.?)$", re.I)


def _about_the_workbook(low: str, catalog: Catalog, wb: str, source: str, noun: str) -> bool:
    """Whether a request that says a noun another table has as a column is about the workbook: it names the workbook, one
    of its sheets, or a column the workbook has and that table has not."""
    w, s = catalog.get(wb), catalog.get(source)
    if w is None or s is None:
        return False
    if w.stem.casefold() in low or any(sh.name and sh.name.casefold() in low for sh in w.sheets):
        return True
    words = [x for x in re.split(r"[\s_\-\d]+", w.stem.casefold()) if len(x) >= 3]
    if words and noun.rstrip("s") not in {x.rstrip("s") for x in words} and re.search(r"(?<![a-z])" + r"[\s_\-]+".join(re.escape(x.rstrip("s")) + "s?" for x in words) + r"(?![a-z])", low):
        return True  # share of work orders per building, of work_orders_2024.xlsx: its name said in words
    theirs = {c.casefold() for sh in s.sheets for c in sh.columns}
    if any(c.casefold() in low and c.casefold() not in theirs and c.casefold() != noun for c in w.sheets[0].columns):
        return True
    said = TABLES_COUNTED.search(low)
    if said is not None and (int(g) if (g := said.group("n")).isdigit() else COUNT_ZH[g]) == len(w.sheets):
        return True  # 每个小区各有多少工单？三个表一起看: the workbook's sheets, counted
    if any((m := ID_TAIL.search(c)) is not None and len(head := c[: m.start()].casefold()) >= 2 and head in low
           and not any(head in x for x in theirs) for c in w.sheets[0].columns):
        return True  # 工单 of 工单号: what the workbook's rows are, said
    # 三个城市各自的平均配送时长: a column of the workbook said by its head (配送时长(分钟)), one that table has not
    from modes.resolve import find_columns

    if any(h.column.casefold() not in theirs and noun not in h.column.casefold() and len(h.column) > len(noun)
           and CJK_HEAD.match(h.column) for h in find_columns(low, w.sheets[0])):
        return True
    # emergencies per building: a value only the workbook's rows hold (Priority)
    from modes.resolve import find_values

    return any(c.casefold() not in theirs for c in find_values(low, w.sheets[0], []))


CJK_HEAD = re.compile(r"[\u4e00-\u9fff]{2,}")


def says_every_sheet(text: str, catalog: Catalog, workbook: str) -> bool:
    """same for all depots / 三个校区都算一下, while a request on one sheet of `workbook` waits: a noun that names its sheets
    (however else the workspace uses it), said with a word of all of them."""
    low = text.casefold()
    for noun, (wb, _) in _every_noun(catalog).items():
        if wb != workbook or noun not in low:
            continue
        if re.search(_every_of(noun), low, re.I):
            return True
    return False


def _every_of(noun: str) -> str:
    """The pattern of a sheet noun said with a word of all of them (all depots / 三个校区)."""
    all_zh, _, all_en, _ = _quantifiers()
    n = re.escape(noun)
    return rf"(?<![a-z_])(?:{all_en})\s+{n}(?:e?s)?(?![a-z_])" if noun.isascii() else rf"(?:{all_zh})\s*(?:的)?\s*{n}"
