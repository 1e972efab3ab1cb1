"""The tool of the rolling average operation: a measure totalled per day, week or month along a date column, and the
average of the last N periods at each period."""

from __future__ import annotations

import pandas as pd

from tools.errors import ToolArgError
from tools.fmt import rnd
from tools.ops import _need_columns, _sample
from tools.registry import ToolResult, tool
from tools.stats import numeric
from tools.timeseries import dates

FREQ = {"day": "D", "week": "W-SUN", "month": "M"}
HEADER = {"day": "日期", "week": "周", "month": "月份"}
MAX_WINDOW = 366


def _label(p: pd.Period, unit: str) -> str:
    if unit == "day":
        return p.strftime("%Y-%m-%d")
    if unit == "month":
        return f"{p.year}-{p.month:02d}"
    return f"{p.start_time:%Y-%m-%d}~{p.end_time:%Y-%m-%d}"


@tool
def rolling_average(table: pd.DataFrame, column: str, window: int, unit: str = "day", value: str | None = None,
                    by: list[str] | None = None) -> ToolResult:
    """The rolling average of a measure over the last `window` days, weeks or months along the date column `column`:
    the measure is totalled per period (with no measure, the rows are counted), every period from the first to the
    last is kept (one with no rows totals 0), and each period gets the mean of the last `window` periods; the first
    `window` - 1 periods have no full window and are left blank. With `by`, each group has its own rolling average
    over the same periods."""
    if unit not in FREQ:
        raise ToolArgError(f"移动平均只能按天、周或月计算，不支持 {unit}。", f"A rolling average is per day, week or month, not {unit}.")
    if not 1 <= int(window) <= MAX_WINDOW:
        raise ToolArgError(f"移动平均的期数要在 1 到 {MAX_WINDOW} 之间。", f"The window must be between 1 and {MAX_WINDOW} periods.")
    window, by = int(window), list(by or [])
    _need_columns(table, [column] + by + ([value] if value else []))
    d = dates(table, column)
    keep = d.notna()
    bad = int((~keep & table[column].notna()).sum())
    if not keep.any():
        raise ToolArgError(f"列“{column}”里没有能识别的日期。", f"Column '{column}' holds no recognisable dates.")
    v = numeric(table, value)[keep] if value else pd.Series(1, index=table.index)[keep]
    per = d[keep].dt.to_period(FREQ[unit])
    full = pd.period_range(per.min(), per.max())
    name, measure = HEADER[unit], (f"{value}_合计" if value else "行数")
    groups = [((), v)] if not by else list(v.groupby([table.loc[keep, b].fillna("（空白）") for b in by], sort=True))
    parts, empty = [], 0
    for key, vals in groups:
        s = vals.groupby(per[vals.index], sort=True).sum(min_count=0)
        empty += int(len(full) - len(s))
        s = s.reindex(full, fill_value=0).astype(float)
        part = pd.DataFrame({name: [_label(p, unit) for p in full], measure: s.round(4).values,
                             "移动平均": s.rolling(window, min_periods=window).mean().round(4).values})
        for b, k in zip(by, key if isinstance(key, tuple) else (key,), strict=False):
            part.insert(by.index(b), b, k)
        parts.append(part)
    out = pd.concat(parts, ignore_index=True)
    facts = {"rows_in": len(table), "rows_out": len(out), "column": column, "value": value, "unit": unit, "window": window,
             "periods": len(full), "groups": len(groups) if by else 0, "empty_periods": empty, "unreadable_dates": bad,
             "blank_values": int(v.isna().sum()) if value else 0}
    done = out.dropna(subset=["移动平均"])
    if len(done) and not by:
        facts["last"] = {"period": done.iloc[-1][name], "average": rnd(done.iloc[-1]["移动平均"])}
    return ToolResult(out, facts, {"sample": _sample(out, 24)})
