"""Time: bucket a date column by year / quarter / month / week / weekday, growth (环比 / 同比), CAGR, running totals."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from tools.errors import ToolArgError
from tools.fmt import rnd
from tools.io import as_dates
from tools.ops import _need_columns, _sample
from tools.registry import ToolResult, tool
from tools.stats import numeric
from tools.values import remembered

UNITS = {"year": "年", "quarter": "季度", "month": "月", "week": "周", "weekday": "星期", "day": "天"}
WEEKDAYS = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"]
FREQ = {"year": "Y", "quarter": "Q", "month": "M", "week": "W-SUN", "day": "D"}
LAG = {"year": 1, "quarter": 4, "month": 12, "week": 52, "day": 365}
AGGS = ("sum", "mean", "count", "min", "max", "median")


def dates(table: pd.DataFrame, column: str) -> pd.Series:
    """A column as dates; whole numbers between 1900 and 2200 are years. Refuses a column with no dates."""
    s = table[column]
    if pd.api.types.is_datetime64_any_dtype(s):
        return s
    head = s.dropna().head(1000)
    numbers_said = s.dtype.kind in "iuf" or pd.to_numeric(head, errors="coerce").notna().any()
    n = pd.to_numeric(s, errors="coerce") if numbers_said else pd.Series(np.nan, index=s.index)  # text dates are not read as numbers
    if n.notna().any() and n.dropna().between(1900, 2200).all() and (n.dropna() % 1 == 0).all():
        return pd.to_datetime(n.astype("Int64").astype("string") + "-01-01", errors="coerce")
    d = remembered("timeseries.dates", s, lambda: as_dates(s.astype("string").str.strip().str.replace(r"[年月]", "-", regex=True)
                                                               .str.replace("日", "", regex=False)))
    if d.notna().sum() == 0:
        raise ToolArgError(f"列“{column}”里没有能识别的日期。", f"Column '{column}' holds no recognisable dates.")
    return d


def _label(p: pd.Period, unit: str) -> str:
    if unit == "year":
        return str(p.year)
    if unit == "quarter":
        return f"{p.year}Q{p.quarter}"
    if unit == "month":
        return f"{p.year}-{p.month:02d}"
    if unit == "day":
        return f"{p.year}-{p.month:02d}-{p.day:02d}"
    iso = p.start_time.isocalendar()
    return f"{iso.year}-W{iso.week:02d}"


def _series(table: pd.DataFrame, column: str, value: str | None, unit: str, agg: str) -> tuple[pd.Series, int, pd.Series]:
    """Values per period (every period between the first and the last), unreadable dates, and the dates."""
    d = dates(table, column)
    bad = int((d.isna() & table[column].notna()).sum())
    v = numeric(table, value) if value else pd.Series(1, index=table.index)
    keep = d.notna()
    per = d[keep].dt.to_period(FREQ[unit])
    g = v[keep].groupby(per, sort=True)
    s = g.size() if agg == "count" or not value else g.agg(agg)
    full = pd.period_range(s.index.min(), s.index.max(), freq=s.index.freq) if len(s) else s.index
    return s.reindex(full), bad, d


@tool
def bucket_dates(table: pd.DataFrame, column: str, unit: str = "month", value: str | None = None, agg: str = "sum",
                 by: list[str] | None = None, values: list[str] | None = None) -> ToolResult:
    """Group rows by the year, quarter, month, week, weekday or day of a date column: row count and a measure per period."""
    if unit not in UNITS:
        raise ToolArgError(f"不支持的时间单位：{unit}（可选 年、季度、月、周、星期）。", f"Unsupported unit: {unit}.")
    if agg not in AGGS:
        raise ToolArgError(f"不支持的汇总方式：{agg}。", f"Unsupported aggregation: {agg}.")
    by = list(by or [])
    more = [c for c in (values or []) if c and c != value]  # further measures, the same statistic (Gross and Net per month)
    _need_columns(table, [column] + by + ([value] if value else []) + more)
    d = dates(table, column)
    bad = int((d.isna() & table[column].notna()).sum())
    keep = d.notna()
    if len(table) and not keep.any():
        raise ToolArgError(f"“{column}”列里没有能读成日期的值，无法按时间分期。", f"'{column}' holds no dates, so it cannot be split into periods.")
    name = {"year": "年份", "quarter": "季度", "month": "月份", "week": "周", "weekday": "星期", "day": "日期"}[unit]
    # group on cheap keys (weekday numbers, periods) and word them on the few groups that result
    key = d[keep].dt.day_of_week if unit == "weekday" else d[keep].dt.to_period(FREQ[unit])
    frame = pd.DataFrame({name: key}, index=d[keep].index)
    for b in by:
        frame[b] = table.loc[keep, b]
    keys = by + [name]
    parts: dict[str, pd.Series] = {"行数": frame.groupby(keys, sort=True, observed=True).size()}
    label = {"sum": "合计", "mean": "平均", "count": "计数", "min": "最小", "max": "最大", "median": "中位数"}[agg]
    for c in ([value] if value else []) + (more if value else []):
        v = numeric(table, c)[keep]
        parts[f"{c}_{label}"] = v.groupby([frame[k] for k in keys], sort=True, observed=True).agg(agg)
    out = pd.DataFrame(parts).reset_index()
    out[name] = [WEEKDAYS[int(k)] if unit == "weekday" else _label(k, unit) for k in out[name]]
    out = out[[*keys, *[c for c in out.columns if c not in keys]]]
    years = sorted({int(y) for y in d[keep].dt.year.unique()})
    facts = {"rows_in": len(table), "rows_out": len(out), "periods": int(out[name].nunique()), "unit": unit, "column": column,
             "value": value, "agg": agg, "unreadable_dates": bad, "years": years, "counted": int(keep.sum()),
             "first": str(out[name].iloc[0]) if len(out) else None, "last": str(out[name].iloc[-1]) if len(out) else None}
    return ToolResult(out, facts, {"sample": _sample(out, 24)})


@tool
def period_growth(table: pd.DataFrame, column: str, value: str | None, unit: str = "month", kind: str = "pop", agg: str = "sum",
                  by: list[str] | None = None) -> ToolResult:
    """Period-over-period growth (环比) or year-over-year growth (同比) of a measure per year / quarter / month / week;
    with no measure, of the number of rows in each period; with `by`, within each group (each its own periods)."""
    if unit not in FREQ:
        raise ToolArgError(f"增长率只能按年、季度、月或周计算，不支持 {unit}。", f"Growth is per year, quarter, month or week, not {unit}.")
    if kind not in ("pop", "yoy"):
        raise ToolArgError(f"不支持的增长方式：{kind}。", f"Unsupported growth kind: {kind}.")
    by = list(by or [])
    _need_columns(table, [column] + by + ([value] if value else []))
    if by:
        return _growth_per_group(table, column, value, unit, kind, agg, by)
    s, bad, _ = _series(table, column, value, unit, agg if value else "count")
    lag = 1 if kind == "pop" else LAG[unit]
    prev = s.shift(lag)
    growth = ((s - prev) / prev.abs()).where(prev.ne(0))
    name = "环比增长(%)" if kind == "pop" else "同比增长(%)"
    vname = f"{value}_{'合计' if agg == 'sum' else agg}" if value else "行数"
    out = pd.DataFrame({"期间": [_label(p, unit) for p in s.index], vname: s.round(4).values,
                        "上期" if kind == "pop" else "去年同期": prev.round(4).values, name: (growth * 100).round(2).values})
    last = out.dropna(subset=[name]).tail(1)
    missing = int(s.isna().sum())
    facts = {"rows_in": len(table), "rows_out": len(out), "unit": unit, "kind": kind, "value": value, "periods": len(out),
             "missing_periods": missing, "unreadable_dates": bad, "zero_base": int((prev == 0).sum())}
    if len(last):
        facts["last"] = {"period": last.iloc[0]["期间"], "value": rnd(last.iloc[0][vname]), "growth_pct": rnd(last.iloc[0][name], 2)}
    if len(out) <= lag:
        raise ToolArgError(f"数据只覆盖 {len(out)} 个{UNITS[unit]}，不够计算{'环比' if kind == 'pop' else '同比'}。",
                           f"The data covers only {len(out)} {unit}(s): not enough for this growth rate.")
    return ToolResult(out, facts, {"sample": _sample(out, 24)})


def _growth_per_group(table: pd.DataFrame, column: str, value: str | None, unit: str, kind: str, agg: str, by: list[str]) -> ToolResult:
    """period_growth within each group of `by`: each group's periods from its own first to its own last, its growth
    over its own previous period; the groups one under another."""
    lag = 1 if kind == "pop" else LAG[unit]
    name = "环比增长(%)" if kind == "pop" else "同比增长(%)"
    vname = f"{value}_{'合计' if agg == 'sum' else agg}" if value else "行数"
    parts, bad = [], 0
    for key, part in table.groupby(by, sort=True, dropna=False):
        s, b, _ = _series(part, column, value, unit, agg if value else "count")
        bad += b
        prev = s.shift(lag)
        growth = ((s - prev) / prev.abs()).where(prev.ne(0))
        keys = key if isinstance(key, tuple) else (key,)
        parts.append(pd.DataFrame({**{k: [v] * len(s) for k, v in zip(by, keys, strict=True)}, "期间": [_label(p, unit) for p in s.index],
                                   vname: s.round(4).values, "上期" if kind == "pop" else "去年同期": prev.round(4).values, name: (growth * 100).round(2).values}))
    out = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=[*by, "期间", vname, name])
    if out[name].notna().sum() == 0:
        raise ToolArgError(f"每组的数据都不超过 {lag} 个{UNITS[unit]}，不够计算{'环比' if kind == 'pop' else '同比'}。",
                           f"No group covers more than {lag} {unit}(s): not enough for this growth rate.")
    facts = {"rows_in": len(table), "rows_out": len(out), "unit": unit, "kind": kind, "value": value, "periods": int(out["期间"].nunique()),
             "groups": len(parts), "by": by, "missing_periods": int(out[vname].isna().sum()), "unreadable_dates": bad, "zero_base": 0}
    return ToolResult(out, facts, {"sample": _sample(out, 24)})


def cagr_of(first: float, last: float, years: int) -> float | None:
    if years <= 0 or first <= 0 or last < 0:
        return None
    return float((last / first) ** (1 / years) - 1)


@tool
def cagr(table: pd.DataFrame, column: str, value: str, agg: str = "sum") -> ToolResult:
    """Compound annual growth rate (年均增长率) of a measure's yearly totals from the first to the last year."""
    _need_columns(table, [column, value])
    s, bad, _ = _series(table, column, value, "year", agg)
    s = s.dropna()
    if len(s) < 2:
        raise ToolArgError("数据只覆盖一个年份，无法计算年均增长率。", "The data covers one year only; no CAGR.")
    y0, y1 = s.index[0].year, s.index[-1].year
    rate = cagr_of(float(s.iloc[0]), float(s.iloc[-1]), y1 - y0)
    if rate is None:
        raise ToolArgError(f"{y0} 年的值为 {rnd(s.iloc[0])}（不是正数），年均增长率没有意义。",
                           f"The {y0} value is {rnd(s.iloc[0])} (not positive); a CAGR is undefined.")
    out = pd.DataFrame({"年份": [str(p.year) for p in s.index], f"{value}_合计" if agg == "sum" else value: s.round(4).values})
    facts = {"rows_in": len(table), "rows_out": len(out), "value": value, "first_year": y0, "last_year": y1, "first": rnd(s.iloc[0]),
             "last": rnd(s.iloc[-1]), "years": y1 - y0, "cagr_pct": rnd(rate * 100, 2), "unreadable_dates": bad}
    return ToolResult(out, facts, {"sample": _sample(out, 24)})


@tool
def running_total(table: pd.DataFrame, column: str, order_by: str | None = None, by: list[str] | None = None) -> ToolResult:
    """Add a running (cumulative) total of a column, in the order of a date or other column, optionally restarting per group."""
    by = list(by or [])
    _need_columns(table, [column] + by + ([order_by] if order_by else []))
    x = numeric(table, column)
    out = table.copy()
    if order_by:
        key: Any = dates(table, order_by) if not pd.api.types.is_numeric_dtype(table[order_by]) else table[order_by]
        out = out.assign(_k=key).sort_values("_k", kind="stable").drop(columns="_k")
        x = x.loc[out.index]
    name = f"{column}_累计"
    out[name] = (x.fillna(0).groupby([out[b] for b in by], dropna=False).cumsum() if by else x.fillna(0).cumsum()).round(4)
    out = out.reset_index(drop=True)
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "added": name, "final": rnd(out[name].iloc[-1]) if len(out) else 0,
                            "blanks_as_zero": int(x.isna().sum())}, {"sample": _sample(out)})


@tool
def first_last_per_group(table: pd.DataFrame, by: list[str], order_by: str, which: str = "last") -> ToolResult:
    """The first or last row of each group in the order of a date (or other) column."""
    if which not in ("first", "last"):
        raise ToolArgError(f"只能取 first 或 last，不支持 {which}。", f"Use first or last, not {which}.")
    _need_columns(table, by + [order_by])
    key = table[order_by] if pd.api.types.is_numeric_dtype(table[order_by]) else dates(table, order_by)
    ordered = table.assign(_k=key).dropna(subset=["_k"]).sort_values("_k", kind="stable")
    g = ordered.groupby(by, dropna=False, sort=True)
    out = (g.head(1) if which == "first" else g.tail(1)).drop(columns="_k").reset_index(drop=True)
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "groups": len(out), "which": which}, {"sample": _sample(out)})
