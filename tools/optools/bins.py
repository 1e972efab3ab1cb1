"""The tool of the bins operation: the rows of a numeric column counted per range (by a width, or by given edges)."""

from __future__ import annotations

import math

import pandas as pd

from tools.errors import ToolArgError
from tools.ops import _need_columns, _sample
from tools.registry import ToolResult, tool
from tools.values import as_numbers

MAX_BINS = 200


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


@tool
def bin_counts(table: pd.DataFrame, column: str, width: float | None = None, edges: list[float] | None = None,
               open_top: bool = False) -> ToolResult:
    """Count the rows per range of a numeric column: ranges of `width` from the lowest value, or between the given
    `edges` (each range holds its lower edge, not its upper one; `open_top`: the last edge starts a range with no end).
    Rows outside every range, and blanks, are counted apart."""
    _need_columns(table, [column])
    numbers = as_numbers(table[column])
    known = numbers.dropna()
    if width is not None:
        if width <= 0:
            raise ToolArgError("分段的宽度要大于 0。", "The width of a bin must be above 0.")
        if known.empty:
            raise ToolArgError(f"{column} 里没有数字，无法分段。", f"{column} holds no numbers to bin.")
        lo, hi = math.floor(known.min() / width) * width, math.floor(known.max() / width) * width + width
        if (hi - lo) / width > MAX_BINS:
            raise ToolArgError(f"按 {_num(width)} 分段会有 {int((hi - lo) / width)} 段，太多了；请用更大的宽度。",
                               f"A width of {_num(width)} makes {int((hi - lo) / width)} bins, too many; use a wider one.")
        cuts = [lo + i * width for i in range(int(round((hi - lo) / width)) + 1)]
        open_top = False
    elif edges:
        cuts = sorted(set(float(e) for e in edges))
        if len(cuts) < (1 if open_top else 2):
            raise ToolArgError("分段至少要有一个区间。", "Bins need at least one range.")
    else:
        raise ToolArgError("分段需要宽度或区间。", "Bins need a width or edges.")
    bounds = cuts + ([math.inf] if open_top else [])
    labels = [f"{_num(a)}-{_num(b)}" if b != math.inf else f"{_num(a)}+" for a, b in zip(bounds, bounds[1:], strict=False)]
    binned = pd.cut(numbers, bounds, right=False, labels=labels)
    counts = binned.value_counts(sort=False).reindex(labels, fill_value=0)
    out = pd.DataFrame({f"{column}_分段": labels, "行数": [int(counts[k]) for k in labels]})
    facts = {"column": column, "bins": len(labels), "rows_in": len(table), "rows_out": len(out), "binned": int(counts.sum()),
             "out_of_range": int(numbers.notna().sum() - counts.sum()), "blank_rows": int(numbers.isna().sum()),
             "width": width, "edges": cuts, "open_top": open_top}
    return ToolResult(out, facts, {"sample": _sample(out)})
