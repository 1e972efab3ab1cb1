"""The tool of the convert-text-to-values operation."""

from __future__ import annotations

import pandas as pd

from tools.errors import ToolArgError
from tools.ops import _blank_mask, _need_columns, _sample
from tools.registry import ToolResult, tool
from tools.values import as_dates, as_numbers, recording

KINDS = ("number", "date")


@tool
def convert_text_values(table: pd.DataFrame, columns: list[str], kind: str) -> ToolResult:
    """Rewrite text cells that read as numbers (1,234.50 / ¥1,234 / 12.5万) or dates (2025年3月4日 / 2025/3/4) as numbers or
    ISO dates; a cell that does not read is kept as written and counted."""
    if kind not in KINDS:
        raise ToolArgError(f"不认识的转换：{kind}（可用 number / date）。", f"Unknown conversion {kind!r} (number or date).")
    if not columns:
        raise ToolArgError("没有指定要转换的列。", "No column to convert.")
    _need_columns(table, columns)
    out = table.copy()
    converted, unread, examples = 0, 0, []
    for c in columns:
        s = table[c]
        with recording():  # this step's answer says what converted and what did not
            read = as_numbers(s) if kind == "number" else as_dates(s)
        filled = ~_blank_mask(s)
        bad = filled & read.isna()
        shown = read.map(lambda v: v.strftime("%Y-%m-%d") if isinstance(v, pd.Timestamp) and v == v.normalize() else v) if kind == "date" else read
        out[c] = shown.astype(object).where(~bad, s)
        converted += int((filled & read.notna()).sum())
        unread += int(bad.sum())
        examples += [str(v) for v in s[bad].head(3)]
    facts = {"columns": list(columns), "kind": kind, "converted": converted, "unread": unread,
             "examples": list(dict.fromkeys(examples))[:3], "rows": len(out)}
    return ToolResult(out, facts, {"sample": _sample(out)})
