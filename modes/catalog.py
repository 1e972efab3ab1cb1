"""What understanding knows about the workspace: files, sheets, columns and a few of their values."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property

CJK_UNDERSCORE = re.compile(r"(?<=[\u4e00-\u9fff])_(?=[\u4e00-\u9fff])")
SUMMARY_NAME = re.compile(r"([\u4e00-\u9fff]{1,12})_(合计|平均|最大|最小|计数)")  # the names a summary gives its measures
# 销售额(元), 汇兑收益(万元/年度), 占比（%）; 运费_元, 驾龄_年, 时效_小时, weight_kg, price_usd: a unit after the name
UNIT_TAIL = re.compile(r"\s*[(（][^()（）]{1,12}[)）]\s*$|[_\-](?:元|万元|千元|亿元|美元|块|%|％|公斤|千克|克|吨|米|厘米|毫米|公里|平米|平方米|平方|㎡|亩|升|毫升|度"
                       r"|小时|分钟|秒|天|年|月|周|个|件|人|次|户|台|辆|kg|g|lb|lbs|km|m|cm|mm|mi|m2|sqm|sqft|l|ml|kwh|min|mins|hrs|hours|days|yrs|years"
                       r"|usd|rmb|cny|eur|gbp|pct|percent)\s*$")
AMOUNT_HEAD = re.compile(r"([\u4e00-\u9fff]{2,6})金额")  # 应收金额, 实收金额: named by what the amount is of
ZH_TAG = re.compile(r"[(（]\s*(?:中文|简体|繁体|中|chinese|zh|cn)\s*[)）]\s*$", re.I)
SPREADSHEET = (".xlsx", ".xlsm", ".xls", ".ods", ".csv", ".tsv", ".parquet")  # .parquet: a result wenqing kept


# 成交金额 said 成交额, 采购数量 said 采购量: a Chinese name's usual short form
ZH_SHORT_OF = {"金额": "额", "数量": "量"}
ZH_SHORT = re.compile(r"(?<=[\u4e00-\u9fff]{2})(?:金额|数量)$")


# words of many columns' names, that say no one column alone (Payment Type: type; Session ID: id)



@cache
def _name_words_common() -> frozenset[str]:
    """Words that never name a column by themselves (words.toml [name_words]): words every table has, and the words a
    request is said with (show, list, count), read by their own rules."""
    from modes.tagging.segment import words_toml

    w = words_toml()["name_words"]
    return frozenset(w["common"]) | frozenset(w["request"])


# the first word of values that name a state (Closed Won / Closed Lost, Resolved Fixed): a participle or a status word,
# never a word such as New of New York / New Jersey
STATUS_WORD = re.compile(r"[a-z]{2,}ed|open|pending|paid|unpaid|active|inactive|done|overdue")


@dataclass(frozen=True)
class SheetInfo:
    name: str | None
    columns: tuple[str, ...]
    values: dict[str, frozenset[str]] = field(default_factory=dict)  # low-cardinality text values
    numeric: frozenset[str] = frozenset()
    dates: frozenset[str] = frozenset()
    rows: int = 0
    years: dict[str, tuple[int, int]] = field(default_factory=dict)  # date column -> (first year, last year)
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)  # numeric column -> (min, max)

    def holds(self, value: str) -> bool:
        """Whether some column's known values include this one, as written."""
        return any(value in vs for vs in self.values.values())

    def variants(self, column: str, value: str) -> list[str]:
        """The column's other known values that differ from this one only in letter case (Active / active)."""
        folded = value.strip().casefold()
        return sorted(v for v in self.values.get(column, ()) if v != value and v.strip().casefold() == folded)

    @cached_property
    def word_values(self) -> frozenset[str]:
        """The known values that are one word of letters (Friendly, Gold): what a word in another language may mean
        instead of a column; built once per sheet."""
        return frozenset(v for vs in self.values.values() for v in vs if v.isascii() and v.isalpha())

    @cached_property
    def value_suffixes(self) -> dict[str, tuple[str, int]]:
        """(the ending every value shares, the shortest value's length) for each text column of two values or more
        (徐汇店 / 静安店 / 浦东店: 店); built once per sheet."""
        import os

        return {c: (os.path.commonprefix([v[::-1] for v in vs])[::-1], min(len(v) for v in vs))
                for c, vs in self.values.items() if c not in self.numeric and len(vs) >= 2}

    @cached_property
    def value_pairs(self) -> list[tuple[str, str]]:
        """(value, column) for every known value, longest value first, then by value and the columns' order (never
        the order of a set, which changes with the hash seed); built once per sheet, read on every turn."""
        order = {c: i for i, c in enumerate(self.columns)}
        return sorted(((v, c) for c, vs in self.values.items() for v in vs), key=lambda p: (-len(p[0]), p[0], order.get(p[1], len(order))))

    @cached_property
    def nameable_values(self) -> tuple[tuple[str, str, str], ...]:
        """(value, column, casefolded value) for the values prose can name (two characters or more, not a number,
        not a filler word such as "the"), longest first; built once per sheet."""
        from modes.lexicon import FILLER_EN

        folded = [(v, c, v.casefold().strip()) for v, c in self.value_pairs]
        # no_show said as no-show or no show, in-house as in house: the same value, its joiners written otherwise
        variants = [(v, c, w) for v, c, vl in folded if re.search(r"[a-z][_\-][a-z]", vl)
                    for w in dict.fromkeys((vl.replace("_", "-"), vl.replace("_", " ").replace("-", " "))) if w != vl]
        if variants:
            folded = sorted(folded + variants, key=lambda t: -len(t[2]))
        return tuple((v, c, vl) for v, c, vl in folded if len(vl) >= 2 and not vl.isdigit() and vl not in FILLER_EN)

    @cached_property
    def one_letter_values(self) -> tuple[tuple[str, str], ...]:
        """(value, column) for columns whose few values are each one Chinese character (性别: 男 / 女): prose names them
        only with a noun after them (女员工, 男的); built once per sheet, in a fixed order."""
        out = []
        for c in self.columns:
            vs = self.values.get(c)
            if vs and len(vs) <= 4 and all(len(x.strip()) == 1 and "\u4e00" <= x.strip() <= "\u9fff" for x in vs):
                out += [(v, c) for v in sorted(vs)]
        return tuple(out)

    @cached_property
    def value_families(self) -> dict[str, tuple[str, tuple[str, ...]]]:
        """first word (casefolded) -> (column, its values) for the words that begin two values or more of one text column
        and are no value themselves (Closed Won / Closed Lost: closed); a word two columns share is left out."""
        fam: dict[str, dict[str, list[str]]] = {}
        for c in self.columns:
            if c in self.numeric or c in self.dates:
                continue
            for v in self.values.get(c, ()):
                parts = v.split()
                if len(parts) >= 2 and parts[0].isalpha() and len(parts[0]) >= 4 and STATUS_WORD.fullmatch(parts[0].casefold()):
                    fam.setdefault(parts[0].casefold(), {}).setdefault(c, []).append(v)
        own = {v.strip().casefold() for vs in self.values.values() for v in vs}
        return {w: (c, tuple(sorted(vs))) for w, cols in fam.items() if len(cols) == 1 for c, vs in cols.items() if len(vs) >= 2 and w not in own}

    @cached_property
    def not_yet_values(self) -> tuple[tuple[str, str], ...]:
        """(value, column) for values that say a thing is not yet done (未结算, 未发货): prose says them with other words
        (还没结算, 尚未发货); built once per sheet, in a fixed order."""
        return tuple((v, c) for c in self.columns for v in sorted(self.values.get(c, ())) if len(v) >= 3 and v.startswith("未")
                     and "\u4e00" <= v[1] <= "\u9fff")

    @cached_property
    def cased_values(self) -> tuple[tuple[str, str], ...]:
        """(value, column) for values that are also common English words but are written with a capital in the data
        (Done, Open, All): prose names them only when it writes them the same way."""
        from modes.lexicon import FILLER_EN

        return tuple((v, c) for v, c in self.value_pairs if v.strip().casefold() in FILLER_EN and v.strip() != v.strip().casefold())

    @cached_property
    def short_names(self) -> tuple[tuple[str, str], ...]:
        """(column, the short form its Chinese name is said in: 成交金额 → 成交额, 采购数量 → 采购量), for the names that
        have one and no column of that name; built once per sheet."""
        out = []
        for c, cl in self.folded:
            if len(cl) >= 4 and (m := ZH_SHORT.search(cl)) is not None:
                short = cl[: m.start()] + ZH_SHORT_OF[m.group(0)]
                if short not in self.names.exact:
                    out.append((c, short))
        return tuple(out)

    @cached_property
    def long_names(self) -> tuple[tuple[str, str], ...]:
        """(column, its name with each abbreviation written out: Qty Ordered → quantity ordered, Dept → department), for
        English names that hold one (words.toml [abbreviations]) and no column of the long name; built once per sheet."""
        from modes.tagging.segment import words_toml

        full = words_toml()["abbreviations"]
        out = []
        for c, cl in self.folded:
            if not cl.isascii():
                continue
            words = re.split(r"([\s_\-]+)", cl)
            long = "".join(full.get(w, w) for w in words)
            if long != cl and long not in self.names.exact:
                out.append((c, long.replace("_", " ")))
        return tuple(out)

    @cached_property
    def folded(self) -> tuple[tuple[str, str], ...]:
        """(column, its casefolded name) for every named column, and its name without a unit in brackets
        (汇兑收益 for 汇兑收益(万元/年度)) where no other column has that name; built once per sheet."""
        full = [(c, c.casefold()) for c in self.columns if c.casefold()]
        names = {f for _, f in full}
        bare = [(c, b) for c, f in full if (b := UNIT_TAIL.sub("", f).strip()) != f and len(b) >= 2 and b not in names]
        by_bare: dict[str, list[str]] = {}
        for c, b in bare:
            by_bare.setdefault(b, []).append(c)
        # 区域(中文) and 区域(英文) both say 区域: the one tagged Chinese, when exactly one is
        pick = {b: cs[0] if len(cs) == 1 else next(iter(zh), None) if len(zh := [c for c in cs if ZH_TAG.search(c)]) == 1 else None
                for b, cs in by_bare.items()}
        # 应收金额 said 应收: an amount's name without 金额, where no other column's name holds those words
        heads = [(c, h) for c, f in full if (m := AMOUNT_HEAD.fullmatch(f)) and (h := m.group(1)) not in names
                 and not any(h in g for g in names if g != f)]
        bare += heads
        pick.update({h: c for c, h in heads})
        # 业主评分 said 评分, 回访满意度 said 满意度: a Chinese name's last word, where no other column's name holds it
        tails = [(c, t) for c, t in self.head_words if t not in pick]
        bare += tails
        pick.update({t: c for c, t in tails})
        # 金额_合计, a summary's own column, also as written without its underscore (金额合计)
        joined = [(c, j) for c, f in full if "_" in f and (j := CJK_UNDERSCORE.sub("", f)) != f and j not in names]
        # and as said in the other order (平均费用 for 费用_平均)
        joined += [(c, r) for c, f in full if (m := SUMMARY_NAME.fullmatch(f)) and (r := m.group(2) + m.group(1)) not in names]
        return tuple(full + [(c, b) for c, b in bare if pick[b] == c] + joined)

    @cached_property
    def head_words(self) -> tuple[tuple[str, str], ...]:
        """(column, its last word) for the columns said by their last word (业主评分 said 评分)."""
        full = [(c, c.casefold()) for c in self.columns if c.casefold()]
        return tuple(_head_words(full, {f for _, f in full}))

    @cached_property
    def head_names(self) -> frozenset[str]:
        """The last words of head_words, for a lookup."""
        return frozenset(t for _, t in self.head_words)

    @cached_property
    def names(self) -> ColumnNames:
        """The sheet's column names indexed for resolving a written name; built once per sheet."""
        return ColumnNames.of(self.columns)

    @cached_property
    def name_words(self) -> tuple[tuple[str, str], ...]:
        """(word, column) for a word of an English name of several words (kWh of Energy kWh, vehicle of Vehicle Type)
        that no other column's name holds, that is no cell value and no word every table has (id, date, type): the
        column said by that word alone; built once per sheet."""
        words: dict[str, set[str]] = {}
        for c in self.columns:
            parts = [w.casefold() for w in re.findall(r"[A-Za-z][a-z]+|[A-Z]+(?![a-z])|[A-Za-z]+", c)] if c.isascii() else []
            if len(parts) < 2 or parts[-1] in ("id", "no", "num", "number", "code", "key"):
                continue  # (Driver ID: "drivers" are the rows' own word, read by the rules of ids)
            for w in parts:
                words.setdefault(w, set()).add(c)
        values = {v.casefold() for vs in self.values.values() for v in vs}
        whole = {c.casefold() for c in self.columns} | set(re.findall(r"[a-z]+", (self.name or "").casefold()))  # (fuel of fuel_log: the table's word)
        return tuple((w, next(iter(cs))) for w, cs in words.items()
                     if len(cs) == 1 and len(w) >= 3 and w not in _name_words_common() and w not in values and w not in whole)

    @cached_property
    def name_word_pattern(self) -> re.Pattern[str] | None:
        """Every word of name_words in one pattern, built once per sheet (find_columns reads it on every request): a
        word on its own (its plural too), never before a statistic (the freight sum) or a relative word (the race that
        had), never after an article (the fuel receipts)."""
        if not self.name_words:
            return None
        words = "|".join(re.escape(w) for w, _ in sorted(self.name_words, key=lambda x: -len(x[0])))
        return re.compile(rf"(?<![a-z0-9_])(?<!\bthe )(?<!\ba )(?<!\ban )(?P<w>{words})s?(?![a-z0-9_])"
                          r"(?!\s+(?:sum|total|mean|average|avg|median|that|which|who|whose|where)(?![a-z_]))")

    @cached_property
    def synonym_words(self) -> tuple[tuple[str, str], ...]:
        """(lexicon word, column) for every concept that exactly one column of this sheet carries, in lexicon order."""
        from modes import lexicon as lx

        by_concept: dict[str, list[str]] = {}
        for c in self.columns:
            concept = lx.concept_of_name(c)
            if concept:
                by_concept.setdefault(concept, []).append(c)
        return tuple((w, cols[0]) for w, concept in lx.synonyms().items()
                     if (cols := by_concept.get(concept)) is not None and len(cols) == 1)


def _head_words(full: list[tuple[str, str]], names: set[str]) -> list[tuple[str, str]]:
    """(column, its last two or three characters) for a Chinese name of four characters or more (a unit in brackets
    left out), where the tail is no other column's name or part of one and not a word about the request (方式, 情况)."""
    from modes.tagging.segment import words_toml

    stop = set(words_toml()["function"]["request"]) | set(words_toml()["column_heads"]["never"])
    out = []
    for c, f in full:
        bare = UNIT_TAIL.sub("", f).strip()
        if not CJK_NAME.fullmatch(bare) or bare.startswith(("是否", "有无", "是不是", "有没有")):
            continue  # 是否外包: 外包 says which rows (外包司机), never the yes/no column itself
        for n in (2, 3):
            tail = bare[-n:]
            if len(bare) >= n + 2 and tail not in names and tail not in stop and not any(tail in g for g in names if g != f):
                out.append((c, tail))
    return out


CJK_NAME = re.compile(r"[\u4e00-\u9fff]{4,10}")


@dataclass(frozen=True)
class ColumnNames:
    """A sheet's column names, prepared once for resolve.resolve_column: by exact (casefolded, _ as space) name,
    by plain meaning, and each name with its casefolded form and letters."""

    exact: dict[str, str]  # casefolded name (or with _ as space) -> the first column so named
    by_concept: dict[str, tuple[str, ...]]  # lexicon concept -> the columns that carry it
    folded: tuple[tuple[str, str, frozenset[str]], ...]  # (column, casefolded, its letters), in column order
    longest: int

    @classmethod
    def of(cls, columns: tuple[str, ...]) -> ColumnNames:
        from modes import lexicon as lx

        exact: dict[str, str] = {}
        by_concept: dict[str, list[str]] = {}
        for c in columns:
            cf = c.casefold()
            exact.setdefault(cf, c)
            exact.setdefault(cf.replace("_", " "), c)
            for concept in dict.fromkeys((lx.concept_of(c), lx.concept_of(c.replace("_", " ")), lx.concept_of_name(c))):
                if concept:
                    by_concept.setdefault(concept, []).append(c)
        folded = tuple((c, c.casefold(), frozenset(c.casefold())) for c in columns)
        return cls(exact, {k: tuple(v) for k, v in by_concept.items()}, folded, max((len(c) for c in columns), default=0))


class FileInfo:
    """A workspace file. Its sheets may be read lazily: `load` is called on first use of `sheets` or `error`,
    so a turn that never looks inside the file never reads it."""

    def __init__(self, path: str, sheets: tuple[SheetInfo, ...] = (), error: str | None = None,
                 load: Callable[[], tuple[tuple[SheetInfo, ...], str | None]] | None = None) -> None:
        self.path = path
        self._sheets = sheets
        self._error = error
        self._load = load

    def _ensure(self) -> None:
        if self._load is not None:
            load, self._load = self._load, None
            self._sheets, self._error = load()

    @property
    def loaded(self) -> bool:
        return self._load is None

    @property
    def sheets(self) -> tuple[SheetInfo, ...]:
        self._ensure()
        return self._sheets

    @property
    def error(self) -> str | None:
        self._ensure()
        return self._error

    def __repr__(self) -> str:
        return f"FileInfo({self.path!r}{'' if self.loaded else ', <not read yet>'})"

    @property
    def is_table(self) -> bool:
        return self.path.lower().endswith(SPREADSHEET)

    @property
    def kind(self) -> str:
        ext = self.path.rsplit(".", 1)[-1].lower() if "." in self.path else ""
        return {"xlsm": "xlsx", "tsv": "csv", "parquet": "csv"}.get(ext, ext)

    @cached_property
    def stem(self) -> str:
        name = self.path.rsplit("/", 1)[-1]
        return name.rsplit(".", 1)[0] if "." in name else name

    @cached_property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    def sheet(self, name: str | None) -> SheetInfo | None:
        for s in self.sheets:
            if s.name == name:
                return s
        return None


@dataclass(frozen=True)
class Catalog:
    files: tuple[FileInfo, ...] = ()
    results: tuple[FileInfo, ...] = ()  # results a request may read (the last one, outputs/ files named): found by name, never candidates

    @cached_property
    def _by_path(self) -> dict[str, FileInfo]:
        return {f.path: f for f in self.files + self.results}

    def get(self, path: str | None) -> FileInfo | None:
        return self._by_path.get(path) if path is not None else None

    @cached_property
    def tables(self) -> tuple[FileInfo, ...]:
        return tuple(f for f in self.files if f.is_table)

    @cached_property
    def name_needles(self) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
        """(path, ((casefolded path, "named"), (name, "named"), (stem, "stem"))) for every file, longest name first:
        what the text is searched for when it names a file; built once per catalog."""
        out = []
        for f in sorted(self.files + self.results, key=lambda f: -len(f.name)):
            needles = ((f.path.casefold(), "named"), (f.name.casefold(), "named"), (f.stem.casefold(), "stem"))
            out.append((f.path, tuple((n, how) for n, how in needles if len(n) >= 2)))
        return tuple(out)

    @cached_property
    def derived(self) -> dict[str, object]:
        """Indexes that other modules build from this catalog once and read on every turn, by the builder's name."""
        return {}

    @cached_property
    def _needle_heads(self) -> dict[str, tuple[int, ...]]:
        """The first two characters of each needle -> the positions in name_needles of the files with such a needle."""
        heads: dict[str, dict[int, None]] = {}
        for i, (_, needles) in enumerate(self.name_needles):
            for n, _how in needles:
                heads.setdefault(n[:2], {})[i] = None
        return {k: tuple(v) for k, v in heads.items()}

    def needles_in(self, low: str) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
        """The rows of name_needles with a needle whose first two characters the casefolded text holds, in order."""
        heads = self._needle_heads
        rows: set[int] = set()
        for i in range(len(low) - 1):
            rows.update(heads.get(low[i : i + 2], ()))
        return [self.name_needles[i] for i in sorted(rows)]

    @cached_property
    def known_names(self) -> set[str]:
        """Every casefolded column and sheet name in the workspace (reads every file's sheets, once)."""
        return {c.casefold() for f in self.files for s in f.sheets for c in s.columns} | {
            (s.name or "").casefold() for f in self.files for s in f.sheets}

    @cached_property
    def _word_index(self) -> dict[str, list[SheetInfo]]:
        """Casefolded column names and the lexicon words that stand for a column -> the sheets that have them.
        Built once per catalog; reads every table file's sheets."""
        index: dict[str, list[SheetInfo]] = {}
        for f in self.tables:
            for s in f.sheets:
                for w in dict.fromkeys([cl for _, cl in s.folded] + [w for w, _ in s.synonym_words]):
                    index.setdefault(w, []).append(s)
        return index

    @cached_property
    def _gram_index(self) -> dict[str, list[FileInfo]]:
        """Each character gram of a column name or a known value -> the files with it."""
        index: dict[str, list[FileInfo]] = {}
        for f in self.tables:
            grams: set[str] = set()
            for s in f.sheets:
                for c in s.columns:
                    grams |= _grams(c)
                for vs in s.values.values():
                    for v in vs:
                        grams |= _grams(v)
            for g in grams or {""}:  # a file whose names have no letters at all is always a candidate
                index.setdefault(g, []).append(f)
        return index

    @cached_property
    def _meaning_index(self) -> dict[str, list[FileInfo]]:
        """Each lexicon word (casefolded) for the meaning of a column -> the files with such a column. A word
        stands for a column only when written whole (lexicon.concept_of is a lookup), so it is searched whole."""
        from modes import lexicon as lx

        words_of: dict[str, list[str]] = {}
        for w, concept in lx.synonyms().items():
            words_of.setdefault(concept, []).append(w.casefold())
        index: dict[str, list[FileInfo]] = {}
        for f in self.tables:
            meanings = {lx.concept_of(c) or lx.concept_of(c.replace("_", " ")) for s in f.sheets for c in s.columns}
            for w in dict.fromkeys(w for m in meanings if m for w in words_of.get(m, ())):
                index.setdefault(w, []).append(f)
        return index

    def tables_touching(self, text: str) -> list[FileInfo]:
        """The table files that share a character gram (a CJK character, two ASCII letters) with the text, or whose
        columns' meaning the text writes as a word: a superset of the files in which the text can name a column, by
        name, meaning, part or small typo, or a value."""
        found: dict[str, FileInfo] = {}
        index = self._gram_index
        for g in _grams(text) | {""}:
            for f in index.get(g, ()):
                found.setdefault(f.path, f)
        low = text.casefold()
        for w, files in self._meaning_index.items():
            if w in low:
                for f in files:
                    found.setdefault(f.path, f)
        return [f for f in self.tables if f.path in found]

    @cached_property
    def _word_files(self) -> list[tuple[tuple[str, ...], set[str]]]:
        """(the space-free pieces of a casefolded column name or of a lexicon word that stands for a column, the
        paths of the table files that have it). Built once per catalog; reads every table file's sheets."""
        return [(tuple(w.split(" ")), {p for s in sheets if (p := self._path_of_sheet.get(id(s)))})
                for w, sheets in self._word_index.items()]

    @cached_property
    def _path_of_sheet(self) -> dict[int, str]:
        return {id(s): f.path for f in self.tables for s in f.sheets}

    def naming_columns(self, files: list[FileInfo], texts: list[str]) -> list[FileInfo]:
        """Those of the files in a sheet of which resolve.find_columns can find a column in one of the texts, even
        with parts of a text turned to spaces first (every space-free piece of the name is in the text): a request
        names no column of any other file, so parsing it against them finds nothing."""
        lows = [t.casefold() for t in texts]
        found: set[str] = set()
        for pieces, paths in self._word_files:
            if not paths <= found and any(all(piece in low for piece in pieces) for low in lows):
                found |= paths
        return [f for f in files if f.path in found]

    def sheets_mentioned(self, text: str) -> list[SheetInfo]:
        """The sheets one of whose column names (or a word for one) occurs in the text, one for each list of columns
        (resolve.find_columns reads only a sheet's columns): the only sheets in which it can find anything."""
        low = text.casefold()
        found: dict[tuple[str, ...], SheetInfo] = {}
        for w, sheets in self._word_index.items():
            if w in low:
                for s in sheets:
                    found.setdefault(s.columns, s)
        return list(found.values())


def _grams(text: str) -> set[str]:
    """Non-ASCII characters one by one; ASCII letters and digits in pairs (a lone one by itself)."""
    low = text.casefold()
    out = {ch for ch in low if not ch.isascii() and ch.isalnum()}
    for run in re.findall(r"[a-z0-9]+", low):
        out |= {run[i : i + 2] for i in range(len(run) - 1)} if len(run) > 1 else {run}
    return out
