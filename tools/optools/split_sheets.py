"""The tool of the split-into-sheets operation: one xlsx, a sheet for each value of a column."""

from __future__ import annotations

import pandas as pd

from tools.errors import ToolArgError
from tools.ops import _need_columns
from tools.registry import ToolResult, tool
from tools.workspace import Workspace
from tools.write import About, write_xlsx_sheets

MAX_SHEETS = 60  # a workbook of more sheets than this is no longer read sheet by sheet


@tool
def split_to_sheets(ws: Workspace, table: pd.DataFrame, by: str, stem: str, about: About | None = None) -> ToolResult:
    """Write the rows to a new xlsx in outputs/, one sheet for each value of a column (in the order the values first
    appear; blank values on a sheet of their own), every row on exactly one sheet."""
    _need_columns(table, [by])
    key = table[by].astype("string").str.strip()
    blank = key.isna() | (key == "")
    values = list(dict.fromkeys(key[~blank].tolist()))
    if not values:
        raise ToolArgError(f"“{by}”这一列全是空的，没法按它拆分。", f"Column {by} is blank in every row; there is nothing to split by.")
    if len(values) + int(blank.any()) > MAX_SHEETS:
        raise ToolArgError(f"“{by}”有 {len(values)} 个不同的值，拆成这么多个工作表就不好看了（最多 {MAX_SHEETS} 个）；可以先筛选，或换一列拆分。",
                           f"{by} has {len(values)} different values, too many sheets (at most {MAX_SHEETS}); filter first, or split by another column.")
    parts = [(str(v), table[(key == v).fillna(False)]) for v in values]
    if blank.any():
        parts.append(("(空)" if not by.isascii() else "(blank)", table[blank]))
    w = write_xlsx_sheets(ws, parts, stem, about)
    rel = ws.rel(w.path)
    counts = {name: len(df) for name, df in parts}
    return ToolResult(table, {"path": rel, "rows": len(table), "by": by, "sheets": list(counts), "sheet_count": len(counts), "counts": counts,
                              "blank_rows": int(blank.sum())}, {}, [rel])
