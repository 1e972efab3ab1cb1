"""The tool of the rounding operation."""

from __future__ import annotations

import numpy as np
import pandas as pd

from tools.errors import ToolArgError
from tools.registry import ToolResult, tool


def _named(table: pd.DataFrame, columns: list[str]) -> list[str]:
    """The table's columns the names say: each name, or the figures a summary made of it (配件费 → 配件费_合计)."""
    out: list[str] = []
    for name in columns:
        if name in table.columns:
            out.append(name)
            continue
        made = [str(c) for c in table.columns if str(c).startswith(f"{name}_")]
        if not made:
            raise ToolArgError(f"表里没有“{name}”这一列，没法四舍五入。", f"The table has no column {name} to round.")
        out += made
    return out


@tool
def round_numbers(table: pd.DataFrame, digits: int = 0, columns: list[str] | None = None) -> ToolResult:
    """Round the number columns named (every number column holding decimals, when none is named) to `digits` decimals,
    half away from zero as people round by hand (2.5 -> 3); rounded to whole numbers, a column becomes whole numbers
    (blanks stay blank). Other columns are kept."""
    if not isinstance(digits, int) or not 0 <= digits <= 10:
        raise ToolArgError(f"保留的小数位数要在 0 到 10 之间，收到的是 {digits}。", f"The decimals must be between 0 and 10, not {digits}.")
    out = table.copy()
    changed: list[str] = []
    chosen = set(_named(out, columns)) if columns else None
    for c in out.columns:
        s = out[c]
        if chosen is not None and str(c) not in chosen:
            continue
        if not pd.api.types.is_float_dtype(s):
            continue
        values = s.to_numpy(dtype="float64", na_value=np.nan)
        scale = 10.0 ** digits
        rounded = np.sign(values) * np.floor(np.abs(values) * scale + 0.5 + 1e-9) / scale
        if digits > 0 and np.array_equal(values, rounded, equal_nan=True):
            continue  # already no more decimals than asked
        out[c] = pd.array(rounded, dtype="Int64") if digits == 0 else rounded
        changed.append(str(c))
    return ToolResult(out, {"columns": changed, "digits": digits, "rows": len(out)}, {}, [])
