"""Build what understanding knows about the workspace from the files themselves, cached by size and mtime."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from modes.catalog import Catalog, FileInfo, SheetInfo
from tools.errors import UserError
from tools.guard import Deadline
from tools.io import read_table, sheet_names
from tools.workspace import Workspace

SAMPLE_ROWS = 2000
ISO_DATE = re.compile(r"^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}")


def sheet_info(df, name: str | None, deadline: Deadline | None = None) -> SheetInfo:  # type: ignore[no-untyped-def]
    import pandas as pd

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
        if len(vals) and vals.head(50).map(lambda v: bool(ISO_DATE.match(v))).mean() > 0.8:
            dates.add(col)
            continue
        uniq = vals.unique()
        if 0 < len(uniq) <= max(20, int(n * 0.5)) and len(uniq) <= 200:
            values[col] = frozenset(str(u) for u in uniq if len(str(u)) <= 40)
    years: dict[str, tuple[int, int]] = {}
    for col in dates:
        d = pd.to_datetime(df[col], errors="coerce").dropna()
        if len(d):
            years[col] = (int(d.min().year), int(d.max().year))
    ranges: dict[str, tuple[float, float]] = {}
    for col in numeric:
        s = pd.to_numeric(df[col], errors="coerce").dropna()
        if len(s):
            ranges[col] = (float(s.min()), float(s.max()))
    return SheetInfo(name, tuple(str(c) for c in df.columns), values, frozenset(numeric), frozenset(dates), n, years, ranges)


@dataclass
class CatalogCache:
    """Per-session cache: a file is re-read only when its size or mtime changes."""

    entries: dict[str, tuple[tuple[int, float], FileInfo]] = field(default_factory=dict)

    def build(self, ws: Workspace) -> Catalog:
        infos = []
        for rel in ws.files():
            p = ws.root / rel
            try:
                st = p.stat()
            except OSError:
                continue
            key = (st.st_size, st.st_mtime)
            hit = self.entries.get(rel)
            if hit and hit[0] == key:
                infos.append(hit[1])
                continue
            info = file_info(p, rel)
            self.entries[rel] = (key, info)
            infos.append(info)
        return Catalog(tuple(infos))


def file_info(p: Path, rel: str) -> FileInfo:
    probe = FileInfo(rel)
    if not probe.is_table:
        return probe
    deadline = Deadline.for_file(p)
    try:
        names: list[str | None] = list(sheet_names(p)) or [None]
        sheets = []
        for name in names:
            deadline.check()
            t = read_table(p, name, nrows=SAMPLE_ROWS)
            sheets.append(sheet_info(t.df, name, deadline))
        return FileInfo(rel, tuple(sheets))
    except UserError as e:
        return FileInfo(rel, (), e.zh)
    except Exception as e:  # noqa: BLE001  (one odd file is marked unreadable; the session goes on)
        return FileInfo(rel, (), f"{p.name}：读取时出错（{type(e).__name__}），已跳过这个文件。")
