"""Build what understanding knows about the workspace from the files themselves, cached by size and mtime."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from modes.catalog import Catalog, FileInfo, SheetInfo
from tools.errors import UserError
from tools.workspace import Workspace
from tools.write import load_state, save_state

if TYPE_CHECKING:  # reading files is imported when a file is first sampled, not by every decision
    from tools.guard import Deadline
    from tools.io import PlainSample

SAMPLE_ROWS = 2000
ISO_DATE = re.compile(r"^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}/\d{1,2}/\d{4}(?!\d))")  # 2020-08-13, 08/13/2020


def sheet_info(df, name: str | None, deadline: Deadline | None = None) -> SheetInfo:  # type: ignore[no-untyped-def]
    import pandas as pd

    from tools.io import as_dates
    from tools.values import as_numbers, reads_as_dates, reads_as_numbers

    values: dict[str, frozenset[str]] = {}
    numeric, dates = set(), set()
    n = len(df)
    for c in df.columns:
        if deadline is not None:
            deadline.check()
        s = df[c]
        col = str(c)
        if pd.api.types.is_bool_dtype(s):
            continue
        if pd.api.types.is_numeric_dtype(s):
            numeric.add(col)
            continue
        if pd.api.types.is_datetime64_any_dtype(s):
            dates.add(col)
            continue
        vals = s.dropna().astype(str).str.strip()
        vals = vals[vals != ""]
        if len(vals) and (vals.head(50).map(lambda v: bool(ISO_DATE.match(v))).mean() > 0.8 or reads_as_dates(s)):
            dates.add(col)
            continue
        if reads_as_numbers(s):  # amounts written as text (591,323.86 / ¥1,234 / 12.5万): the tools read them as numbers
            numeric.add(col)
        uniq = vals.unique()
        names_rows = c == df.columns[0] and all(pd.api.types.is_numeric_dtype(df[o]) for o in df.columns[1:]) and len(df.columns) > 2
        if 0 < len(uniq) <= (200 if names_rows else max(20, int(n * 0.5))) and len(uniq) <= 200:  # a wide table's row names: all kept
            values[col] = frozenset(str(u) for u in uniq if len(str(u)) <= 40)
    years: dict[str, tuple[int, int]] = {}
    for col in dates:
        d = as_dates(df[col]).dropna()
        if len(d):
            years[col] = (int(d.min().year), int(d.max().year))
    ranges: dict[str, tuple[float, float]] = {}
    for col in numeric:
        s = as_numbers(df[col]).dropna()
        if len(s):
            ranges[col] = (float(s.min()), float(s.max()))
    return SheetInfo(name, tuple(str(c) for c in df.columns), values, frozenset(numeric), frozenset(dates), n, years, ranges)


def plain_sheet_info(t: PlainSample, deadline: Deadline | None = None) -> SheetInfo | None:
    """sheet_info for a CSV sample read without pandas (tools.io.csv_sample), the same facts computed the same way;
    None when a date column holds what only pandas' date reading can say."""
    from tools.values import cells_read_typed

    values: dict[str, frozenset[str]] = {}
    numeric, dates = set(), set()
    years: dict[str, tuple[int, int]] = {}
    ranges: dict[str, tuple[float, float]] = {}
    n = t.rows
    wide = len(t.columns) > 2 and all(k != "text" for k in t.kinds[1:])  # a wide table's row names: all kept
    for j, (col, kind, vals) in enumerate(zip(t.columns, t.kinds, t.values, strict=True)):
        if deadline is not None:
            deadline.check()
        if kind != "text":
            numeric.add(col)
            got = [v for v in vals if v is not None]
            if got:
                ranges[col] = (float(min(got)), float(max(got)))
            continue
        written = [w for v in vals if v is not None and (w := v.strip())]
        if cells_read_typed(vals):
            return None  # amounts or dates written as text: sheet_info's reading of them (tools.values) decides
        head = written[:50]
        if head and sum(bool(ISO_DATE.match(v)) for v in head) / len(head) > 0.8:
            dates.add(col)
            span = _iso_years([v for v in vals if v is not None])
            if span is None:
                return None
            years[col] = span
            continue
        uniq = list(dict.fromkeys(written))
        if 0 < len(uniq) <= (200 if j == 0 and wide else max(20, int(n * 0.5))) and len(uniq) <= 200:
            values[col] = frozenset(u for u in uniq if len(u) <= 40)
    return SheetInfo(None, tuple(t.columns), values, frozenset(numeric), frozenset(dates), n, years, ranges)


ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _iso_years(written: list[str]) -> tuple[int, int] | None:
    """The first and last year of dates all written YYYY-MM-DD (valid, within pandas' range); None otherwise."""
    import datetime

    years = []
    for v in set(written):
        if not ISO_DAY.fullmatch(v):
            return None
        try:
            d = datetime.date(int(v[:4]), int(v[5:7]), int(v[8:]))
        except ValueError:
            return None
        if not 1678 <= d.year <= 2261:
            return None
        years.append(d.year)
    return (min(years), max(years)) if years else None


CACHE_FILE = "catalog.json"
CACHE_VERSION = 13  # 2: a wide table's row names are all kept; 3: 08/13/2020 is a date; 4: amounts and dates written as text are typed; 5: numbers with a few marks (缺考) are numbers; 6: a rough figure (约30) is such a mark; 7: any number of rough figures (约120, 约350…) are such marks; 8: figures typed as text cells (72, 88.5) in a column named for a figure are numbers; 9: percentages (25%) are numbers; 10: a figure with its unit (85平, 12盒) is a number; 11: numbers with a few cells typed as numeric text are numbers; 12: figures with a unit of time or count (8小时, 3杯) too; 13: scores with their unit (5分, 4星)


@dataclass
class CatalogCache:
    """What is known about each file, re-read only when its size or mtime changes. A file is sampled the first
    time a turn looks inside it; samples are kept in <workspace>/.wenqing/catalog.json across processes."""

    entries: dict[str, tuple[tuple[int, int], FileInfo]] = field(default_factory=dict)
    persist: bool = True
    _stored: dict[str, Any] | None = None
    _dirty: bool = False
    _last: tuple[Path, list[tuple[str, tuple[int, int]]], Catalog] | None = None

    def build(self, ws: Workspace) -> Catalog:
        """The catalog of the workspace's files now: the one built last when no file was added, removed or changed,
        so what it indexed on an earlier turn is not indexed again."""
        infos = []
        seen: list[tuple[str, tuple[int, int]]] = []
        for rel in ws.files():
            p = ws.root / rel
            try:
                st = p.stat()
            except OSError:
                continue
            key = (st.st_size, st.st_mtime_ns)
            seen.append((rel, key))
            hit = self.entries.get(rel)
            if hit and hit[0] == key:
                infos.append(hit[1])
                continue
            info = FileInfo(rel, load=partial(self._load, ws, rel, key)) if FileInfo(rel).is_table else FileInfo(rel)
            self.entries[rel] = (key, info)
            infos.append(info)
        if self._last is not None and self._last[0] == ws.root and self._last[1] == seen:
            return self._last[2]
        catalog = Catalog(tuple(infos))
        self._last = (ws.root, seen, catalog)
        return catalog

    def _load(self, ws: Workspace, rel: str, key: tuple[int, int]) -> tuple[tuple[SheetInfo, ...], str | None]:
        stored = self._read_store(ws)
        rec = stored.get(rel)
        if isinstance(rec, dict) and rec.get("key") == list(key):
            try:
                error = rec.get("error")
                if error is not None and not isinstance(error, str):
                    raise TypeError("error")
                return tuple(_sheet_from_json(x) for x in rec["sheets"]), error
            except (KeyError, TypeError, ValueError, OverflowError, AttributeError):
                stored.pop(rel, None)  # a damaged entry is dropped and the file sampled again
        info = file_info(ws.root / rel, rel)
        stored[rel] = {"key": list(key), "sheets": [_sheet_to_json(x) for x in info.sheets], "error": info.error}
        self._dirty = True
        return info.sheets, info.error

    def _read_store(self, ws: Workspace) -> dict[str, Any]:
        if self._stored is None:
            self._stored = {}
            if self.persist:
                try:  # never through a link: a linked or hard-linked cache is not read
                    data = json.loads(load_state(ws, "", CACHE_FILE).decode("utf-8"))
                    if isinstance(data, dict) and data.get("version") == CACHE_VERSION and isinstance(data.get("files"), dict):
                        self._stored = data["files"]
                except (OSError, ValueError, UserError, RecursionError):
                    pass
        return self._stored

    def save(self, ws: Workspace) -> None:
        """Write the samples taken since the last save; a workspace that cannot be written to is left alone."""
        if not (self.persist and self._dirty and self._stored is not None):
            return
        self._dirty = False
        files = {rel: rec for rel, rec in self._stored.items() if rel in self.entries}
        try:  # the one write path for wenqing's own files: no link on the way or at a temporary name is followed
            save_state(ws, "", CACHE_FILE, json.dumps({"version": CACHE_VERSION, "files": files}, ensure_ascii=False).encode("utf-8"))
        except (OSError, UserError, ValueError):
            pass  # a workspace that cannot hold the cache samples its files again next time


def _sheet_to_json(s: SheetInfo) -> dict[str, Any]:
    return {"name": s.name, "columns": list(s.columns), "values": {c: sorted(v) for c, v in s.values.items()},
            "numeric": sorted(s.numeric), "dates": sorted(s.dates), "rows": s.rows,
            "years": {c: list(v) for c, v in s.years.items()}, "ranges": {c: list(v) for c, v in s.ranges.items()}}


def _sheet_from_json(d: dict[str, Any]) -> SheetInfo:
    """A stored sheet, every field checked for its type (a damaged entry raises, and is dropped)."""
    import math

    def texts(v: Any) -> frozenset[str]:
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise TypeError("a list of text")
        return frozenset(v)

    def pair(v: Any, kind: type) -> tuple[Any, Any]:
        if not isinstance(v, list) or len(v) != 2 or not all(isinstance(x, int | float) and math.isfinite(x) for x in v):
            raise ValueError("a pair of finite numbers")
        return kind(v[0]), kind(v[1])

    if not isinstance(d, dict) or not (d["name"] is None or isinstance(d["name"], str)) or type(d["rows"]) is not int:
        raise TypeError("a sheet")
    for k in ("values", "years", "ranges"):
        if not isinstance(d[k], dict):
            raise TypeError(k)
    texts(d["columns"])
    return SheetInfo(
        d["name"], tuple(d["columns"]), {str(c): texts(v) for c, v in d["values"].items()},
        texts(d["numeric"]), texts(d["dates"]), d["rows"],
        {str(c): pair(v, int) for c, v in d["years"].items()}, {str(c): pair(v, float) for c, v in d["ranges"].items()},
    )


def file_info(p: Path, rel: str) -> FileInfo:
    """Sample a file now: its sheets' columns, kinds and a few values from the first rows."""
    from tools.guard import Deadline
    from tools.io import csv_sample, read_table, sheet_names

    probe = FileInfo(rel)
    if not probe.is_table:
        return probe
    deadline = Deadline.for_file(p)
    try:
        names: list[str | None] = list(sheet_names(p)) or [None]
        if names == [None] and not p.suffix.lower() == ".parquet":  # a CSV simply written is sampled without pandas
            plain = csv_sample(p, SAMPLE_ROWS)
            info = plain_sheet_info(plain, deadline) if plain is not None else None
            if info is not None:
                return FileInfo(rel, (info,))
        sheets = []
        for name in names:
            deadline.check()
            t = read_table(p, name, nrows=SAMPLE_ROWS, sample=True)
            sheets.append(sheet_info(t.df, name, deadline))
        return FileInfo(rel, tuple(sheets))
    except UserError as e:
        return FileInfo(rel, (), e.zh)
    except Exception as e:  # noqa: BLE001  (one odd file is marked unreadable; the session goes on)
        return FileInfo(rel, (), f"{p.name}：读取时出错（{type(e).__name__}），已跳过这个文件。")


def result_info(p: Path, rel: str) -> FileInfo:
    """A result file wenqing wrote, without the 说明 sheet it added to a workbook: that sheet describes the table, and
    its words (导出, 筛选) are never values a request means."""
    from tools.write import INFO_SHEETS

    info = file_info(p, rel)

    def load() -> tuple[tuple[Any, ...], str | None]:
        return tuple(s for s in info.sheets if s.name not in INFO_SHEETS) or info.sheets, info.error

    return FileInfo(info.path, load=load)


def named_outputs(ws: Workspace, catalog: Catalog, text: str) -> list[str]:
    """The files of outputs/ the text names (by the outputs/ path, or by a name no source file has)."""
    from modes.results import outputs_named

    return outputs_named(text, ws.output_files(), {f.name.casefold() for f in catalog.files}) if "." in text else []


def small_talk(pending: object, text: str) -> bool:
    """A greeting said alone with nothing pending is answered without looking at the workspace: however many files
    it holds, the tree is not walked."""
    from modes import lexicon as lx

    return pending is None and bool(lx.GREETING.match(text.strip()))


def with_results(catalog: Catalog, ws: Workspace, text: str, earlier: list[str | None]) -> Catalog:
    """The catalog with the results a request may read: those the text names and those earlier turns worked on."""
    from dataclasses import replace

    from modes.results import is_result

    wanted = [w for w in dict.fromkeys([*earlier, *named_outputs(ws, catalog, text)]) if w and is_result(w)]
    infos = [result_info(ws.root / rel, rel) for rel in wanted if (ws.root / rel).is_file()]
    return replace(catalog, results=tuple(infos)) if infos else catalog

