"""The tool of the letter-case operation."""

from __future__ import annotations

import re
from collections.abc import Callable

import pandas as pd

from tools.errors import ToolArgError
from tools.ops import _need_columns, _sample
from tools.registry import ToolResult, tool

CASES = {"upper": str.upper, "lower": str.lower, "title": str.title}
WORD = re.compile(r"[^\W\d_]+")


def _title(s: pd.Series, kept: list[str]) -> Callable[[str], str]:
    """Title case that keeps acronyms: a word of 2-4 letters written all in capitals somewhere in the column (HR, IT)
    stays in capitals wherever it appears (hr -> HR), never HR -> Hr."""
    acronyms = {w for v in s.dropna() if isinstance(v, str) for w in WORD.findall(v) if 2 <= len(w) <= 4 and w.isascii() and w.isupper()}
    kept.extend(acronyms)

    def change(v: str) -> str:
        return WORD.sub(lambda m: m.group().upper() if m.group().upper() in acronyms else m.group().capitalize(), v)

    return change


@tool
def change_case(table: pd.DataFrame, columns: list[str], case: str) -> ToolResult:
    """Change the letter case of text columns (upper, lower or title); other cells and columns are kept as they are."""
    if case not in CASES:
        raise ToolArgError(f"不认识的大小写方式：{case}（可用 upper / lower / title）。", f"Unknown case {case!r} (upper, lower or title).")
    if not columns:
        raise ToolArgError("没有指定要改大小写的列。", "No column to change the letter case of.")
    _need_columns(table, columns)
    numeric = [c for c in columns if pd.api.types.is_numeric_dtype(table[c]) or pd.api.types.is_datetime64_any_dtype(table[c])]
    if numeric:
        raise ToolArgError(f"“{'、'.join(numeric)}”不是文本列，没有大小写可改。", f"{', '.join(numeric)} is not a text column; it has no letter case.")
    out = table.copy()
    changed = 0
    kept: list[str] = []
    for c in columns:
        change = CASES[case] if case != "title" else _title(out[c], kept)
        new = out[c].map(lambda v, change=change: change(v) if isinstance(v, str) else v)
        changed += int((new != out[c]).where(out[c].notna(), False).sum())
        out[c] = new
    facts = {"columns": list(columns), "case": case, "changed": changed, "rows": len(out), "acronyms": sorted(set(kept))}
    return ToolResult(out, facts, {"sample": _sample(out)})
