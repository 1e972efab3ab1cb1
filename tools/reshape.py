"""Reshaping: pivot / crosstab with totals, unpivot, transpose, and wide tables (指标 | 2015年 | 2016年 …, 1月 … 12月)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from tools.errors import ToolArgError
from tools.fmt import rnd
from tools.ops import BLANK_LABELS, _need_columns, _sample
from tools.registry import ToolResult, tool
from tools.series import Series, detect_series
from tools.stats import PCT, _label, _one, numeric, stat_label
from tools.timeseries import cagr_of
from tools.values import as_numbers

AGGS = {"sum": "合计", "mean": "平均", "count": "计数", "min": "最小", "max": "最大", "median": "中位数"}
TOTAL = "合计"


def _series_or_refuse(table: pd.DataFrame) -> Series:
    s = detect_series(list(table.columns))
    if s is None:
        raise ToolArgError("这张表没有按年份或月份排成一列一期的列（例如 2015年、2016年… 或 1月…12月）。",
                           "This table has no columns forming a series of years or months (2015, 2016 … or Jan … Dec).")
    return s


def label_column(table: pd.DataFrame, series: Series) -> str | None:
    """The first text column outside the series: the row's name (指标, 地区, 商品)."""
    for c in table.columns:
        if str(c) not in series.columns and not pd.api.types.is_numeric_dtype(table[c]):
            return str(c)
    return None


def _wide_values(table: pd.DataFrame, s: Series) -> pd.DataFrame:
    return pd.DataFrame({c: as_numbers(table[c]) for c in s.columns}, index=table.index)


def _named_rows(table: pd.DataFrame, lab: str | None, rows: list[str] | None) -> pd.DataFrame:
    """The rows of a wide table whose name is one of `rows` (all rows when none are named)."""
    if not rows or not lab:
        return table
    data = table[table[lab].astype(str).str.strip().isin([str(r).strip() for r in rows])]
    if data.empty:
        raise ToolArgError(f"“{lab}”列里没有 {'、'.join(rows)}。", f"'{lab}' has no {', '.join(rows)}.")
    return data


@tool
def pivot_table(table: pd.DataFrame, rows: list[str], columns: str | None = None, value: str | None = None, agg: str = "sum",
                totals: bool = True, period: str | None = None, dated: str | None = None, lang: str = "zh") -> ToolResult:
    """Pivot / crosstab: rows × columns with an aggregate of a value (or a row count), with 合计 row and column;
    with `period` (year / quarter / month / week / weekday), the date column `dated` (else the first row column) is bucketed by it (2023Q1)."""
    if agg not in AGGS:
        raise ToolArgError(f"不支持的汇总方式：{agg}。", f"Unsupported aggregation: {agg}.")
    if not rows:
        raise ToolArgError("透视表的行要按哪一列？", "Pivot rows by which column?")
    _need_columns(table, rows + ([columns] if columns else []) + ([value] if value else []))
    from tools.stats import total_rows

    own = total_rows(table)  # the table's own 合计 row is not added in again, nor a row or a column of the pivot
    skipped = int(own.sum())
    table = table[~own] if skipped else table
    data = table.copy()
    if period:
        from tools.timeseries import FREQ, _label, dates

        if period not in ("year", "quarter", "month", "week", "weekday"):
            raise ToolArgError(f"不支持的时间段：{period}。", f"Unsupported period: {period}.")
        dated = dated or rows[0]
        if dated not in rows + [columns]:
            raise ToolArgError(f"“{dated}”不在透视表的行或列里。", f"'{dated}' is neither a row nor a column of the pivot.")
        if period == "weekday":  # Monday first, whatever the order of the rows
            from tools.localise import value_en
            from tools.timeseries import WEEKDAYS

            names = [value_en(d) for d in WEEKDAYS] if lang == "en" else WEEKDAYS
            dow = dates(table, dated).dt.day_of_week
            data[dated] = pd.Categorical([names[int(d)] if d == d else None for d in dow], categories=names, ordered=True)
        else:
            codes, uniques = pd.factorize(dates(table, dated).dt.to_period(FREQ[period]))  # each period labelled once
            labels = np.array([_label(p, period) for p in uniques] + [None], dtype=object)
            data[dated] = labels[codes]
    if value:
        data[value] = numeric(table, value)
    how = agg if value else "count"
    val = value or "_n"
    if not value:
        data[val] = 1
    pv = pd.pivot_table(data, index=rows, columns=columns, values=val, aggfunc=how if value else "sum", margins=totals,
                        margins_name=TOTAL, dropna=False, observed=True, fill_value=0 if how in ("sum", "count") or not value else None)
    if not isinstance(pv, pd.DataFrame):
        pv = pv.to_frame()
    if columns is None:
        pv.columns = [f"{value}_{AGGS[agg]}" if value else "行数"]
    blank = BLANK_LABELS[0 if lang == "zh" else 1]  # a blank of the column key heads its own column, never as "nan"
    pv.columns = [blank if c is None or (isinstance(c, float) and c != c) else str(c) for c in pv.columns]
    out = _numerals_in_order(pv.reset_index(), rows, totals, bool(columns), blank)
    for c in out.columns[len(rows):]:
        if pd.api.types.is_float_dtype(out[c]):
            out[c] = out[c].round(4)
    grand = out.iloc[-1, -1] if totals and len(out) else None
    facts = {"rows_in": len(table), "rows_out": len(out), "rows": rows, "columns": columns, "value": value, "agg": how,
             "row_groups": len(out) - (1 if totals else 0), "col_groups": len(out.columns) - len(rows) - (1 if totals and columns else 0),
             "grand_total": rnd(grand), **({"skipped_totals": skipped} if skipped else {})}
    return ToolResult(out, facts, {"sample": _sample(out, 20)})


def _numerals_in_order(out: pd.DataFrame, rows: list[str], totals: bool, across: bool, blank: str) -> pd.DataFrame:
    """一级 / 二级 / 三级 down the side and across in the numerals' order (never 一, 三, 二); the totals and the blank stay last."""
    from tools.ops import CN_NUMERAL, _cn_number, in_numeral_order

    body, tail = (out.iloc[:-1], out.iloc[-1:]) if totals and len(out) > 1 else (out, out.iloc[:0])
    out = pd.concat([in_numeral_order(body, rows), tail], ignore_index=True)
    if not across:
        return out
    cells = [c for c in out.columns[len(rows):] if c not in (TOTAL, blank)]
    if not any(isinstance(c, str) and CN_NUMERAL.search(c) for c in cells):
        return out
    ordered = sorted(cells, key=lambda c: CN_NUMERAL.sub(lambda m: f"{_cn_number(m.group(0)):06d}", str(c)))
    return out[[*out.columns[: len(rows)], *ordered, *[c for c in out.columns[len(rows):] if c in (blank, TOTAL)]]]


@tool
def unpivot(table: pd.DataFrame, id_columns: list[str], value_columns: list[str] | None = None, var_name: str = "项目",
            value_name: str = "数值") -> ToolResult:
    """Turn columns into rows (melt): one row per id and former column name."""
    _need_columns(table, id_columns + list(value_columns or []))
    vals = list(value_columns or [c for c in table.columns if c not in id_columns])
    if not vals:
        raise ToolArgError("没有要转成行的列。", "No columns left to turn into rows.")
    out = table.melt(id_vars=id_columns, value_vars=vals, var_name=var_name, value_name=value_name)
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "melted": len(vals)}, {"sample": _sample(out)})


@tool
def transpose_table(table: pd.DataFrame, header_column: str | None = None) -> ToolResult:
    """Swap rows and columns; the values of header_column (default the first column) become the new column names."""
    if len(table) > 5000:
        raise ToolArgError(f"表有 {len(table)} 行，转置后会有 {len(table)} 列，不适合转置。", f"{len(table)} rows would become columns; not transposed.")
    header = header_column or str(table.columns[0])
    _need_columns(table, [header])
    names = table[header].astype(str)
    body = table.drop(columns=[header])
    out = body.T
    out.columns = pd.Index(names.tolist())
    out = out.reset_index().rename(columns={"index": header})
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "columns_out": len(out.columns)}, {"sample": _sample(out)})


@tool
def wide_summary(table: pd.DataFrame, rows: list[str] | None = None, focus: str = "all", first: str | None = None,
                 last: str | None = None) -> ToolResult:
    """For a wide table (one column per year or month): each row's total, mean, highest and lowest period, first-to-last change and CAGR."""
    s = _narrow(_series_or_refuse(table), first, last)
    lab = label_column(table, s)
    data = table
    if rows:
        if lab is None:
            raise ToolArgError("这张表没有行名列，无法按名称选行。", "The table has no name column to pick rows by.")
        keep = data[lab].astype(str).str.strip().isin([str(r).strip() for r in rows])
        missing = [r for r in rows if not (data[lab].astype(str).str.strip() == str(r).strip()).any()]
        if missing:
            raise ToolArgError(f"“{lab}”列里没有 {'、'.join(missing)}。", f"'{lab}' has no {', '.join(missing)}.")
        data = data[keep]
    v = _wide_values(data, s)
    v0, v1 = v[s.columns[0]], v[s.columns[-1]]
    n_years = s.periods[-1] - s.periods[0]
    out = pd.DataFrame(index=data.index)
    if lab:
        out[lab] = data[lab]
    out["合计"] = v.sum(axis=1, min_count=1).round(4)
    out["平均"] = v.mean(axis=1).round(4)
    any_value = v.notna().any(axis=1)
    out["最高期"] = v.fillna(float("-inf")).idxmax(axis=1).where(any_value)
    out["最高值"] = v.max(axis=1).round(4)
    out["最低期"] = v.fillna(float("inf")).idxmin(axis=1).where(any_value)
    out["最低值"] = v.min(axis=1).round(4)
    out[f"{s.columns[0]}→{s.columns[-1]}变化(%)"] = ((v1 - v0) / v0.abs() * 100).where(v0.ne(0)).round(2)
    if s.kind == "year" and n_years > 0:
        out["年均增长率(%)"] = [None if (r := cagr_of(a, b, n_years)) is None else round(r * 100, 2)
                              for a, b in zip(v0.fillna(-1), v1.fillna(-1), strict=True)]
    out = out.reset_index(drop=True)
    rows_facts = out.head(20).to_dict("records")
    fastest = None
    if "年均增长率(%)" in out.columns and out["年均增长率(%)"].notna().any():
        top = out.loc[pd.to_numeric(out["年均增长率(%)"]).idxmax()]
        fastest = {"name": str(top[lab]) if lab else str(top.name), "cagr_pct": rnd(top["年均增长率(%)"])}
    facts = {"rows_in": len(table), "rows_out": len(out), "series": list(s.columns), "kind": s.kind, "label_column": lab,
             "periods": len(s.columns), "blank_cells": int(v.isna().sum().sum()), "focus": focus,
             "first": {str(k): rnd(x) for k, x in zip(out[lab] if lab else out.index, v0.head(20), strict=False)},
             "last": {str(k): rnd(x) for k, x in zip(out[lab] if lab else out.index, v1.head(20), strict=False)},
             "rows": [{k: rnd(x) for k, x in r.items()} for r in rows_facts], "fastest": fastest}
    return ToolResult(out, facts, {"sample": _sample(out, 20)})


@tool
def wide_growth(table: pd.DataFrame, first: str | None = None, last: str | None = None) -> ToolResult:
    """For a wide table: the growth (%) of every period over the one before, per row (optionally from first to last)."""
    s = _narrow(_series_or_refuse(table), first, last)
    lab = label_column(table, s)
    v = _wide_values(table, s)
    prev = v.shift(1, axis=1)
    g = ((v - prev) / prev.abs() * 100).where(prev.ne(0)).round(2)
    g = g[list(s.columns[1:])]
    g.columns = [f"{c}增长(%)" for c in s.columns[1:]]
    out = pd.concat([table[[lab]] if lab else pd.DataFrame(index=table.index), g], axis=1).reset_index(drop=True)
    facts = {"rows_in": len(table), "rows_out": len(out), "series": list(s.columns), "kind": s.kind, "label_column": lab,
             "zero_base": int((prev == 0).sum().sum())}
    return ToolResult(out, facts, {"sample": _sample(out, 20)})


@tool
def wide_change(table: pd.DataFrame, first: str, last: str, rows: list[str] | None = None, above: float | None = None,
                below: float | None = None, top: int | None = None, lowest: bool = False, ranked: bool = False) -> ToolResult:
    """For a wide table: each row's change from one named period to another, and its rate (%) = (later − earlier) / earlier × 100;
    with `above` / `below`, only the rows whose rate is above / below that many percent; `ranked` orders the rows by the
    rate (highest first, or lowest first with `lowest`) and `top` keeps the first that many."""
    s = _series_or_refuse(table)
    for bound in (first, last):
        if bound not in s.columns:
            raise ToolArgError(f"没有“{bound}”这一期，现有：{s.columns[0]}—{s.columns[-1]}。", f"No period {bound}; the table covers {s.columns[0]} to {s.columns[-1]}.")
    early, late = sorted((first, last), key=s.columns.index)
    if early == late:
        raise ToolArgError("比较需要两个不同的时期。", "A change needs two different periods.")
    lab = label_column(table, s)
    data = _named_rows(table, lab, rows)
    a, b = numeric(data, early), numeric(data, late)
    rate = ((b - a) / a.abs() * 100).where(a.ne(0) & a.notna() & b.notna())
    out = pd.DataFrame({**({lab: data[lab]} if lab else {}), early: a, late: b, "变化": (b - a).round(4), "增长率(%)": rate.round(2)})
    if above is not None:
        out = out[rate > above]
    if below is not None:
        out = out[rate < below]
    if ranked or top:
        out = out.sort_values("增长率(%)", ascending=lowest, na_position="last", kind="stable")
        out = out.head(top) if top else out
    out = out.reset_index(drop=True)
    said = [{"name": str(r[lab]) if lab else str(i + 1), "first": rnd(r[early]), "last": rnd(r[late]), "change": rnd(r["变化"]),
             "pct": rnd(r["增长率(%)"], 2)} for i, r in enumerate(out.head(8).to_dict("records"))]
    facts = {"rows_in": len(data), "rows_out": len(out), "first": early, "last": late, "label_column": lab, "above": above, "below": below,
             "no_base": int(rate.isna().sum()), "rows": said,
             **({"top": top, "lowest": lowest} if top else {"ranked": True, "lowest": lowest} if ranked else {})}
    return ToolResult(out, facts, {"sample": _sample(out, 20)})


@tool
def group_change(table: pd.DataFrame, by: str, first: str, last: str, keys: list[str] | None = None, value: str | None = None,
                 agg: str = "sum", top: int | None = None, lowest: bool = False, ranked: bool = False, lang: str = "zh") -> ToolResult:
    """Each key's figure in two groups of the rows (two sheets stacked, two values of a column) side by side, with the change
    and its rate (%) = (last − first) / first × 100; `ranked` orders the keys by the rate (highest first, or lowest first
    with `lowest`) and `top` keeps the first that many. With no keys, one row: the two groups' figures."""
    if agg not in AGGS or (agg != "count" and value is None):
        raise ToolArgError(f"不支持的汇总方式：{agg}。", f"Unsupported aggregation: {agg}.")
    keys = [k for k in keys or [] if k != by]
    _need_columns(table, [by, *keys, *([value] if value else [])])
    labels = table[by].astype(str).str.strip()
    missing = [g for g in (first, last) if not (labels == str(g)).any()]
    if missing:
        raise ToolArgError(f"“{by}”里没有 {'、'.join(missing)}。", f"'{by}' has no {', '.join(missing)}.")
    if str(first) == str(last):
        raise ToolArgError("比较需要两个不同的组。", "A change needs two different groups.")
    keep = labels.isin([str(first), str(last)]).to_numpy()
    data = table[keep].reset_index(drop=True).assign(**{by: labels[keep].to_numpy()})
    figure = (data.groupby([*keys, by], dropna=False).size() if agg == "count" or value is None
              else numeric(data, value).groupby([data[k] for k in [*keys, by]], dropna=False).agg(agg))
    wide = figure.unstack(by) if keys else figure.to_frame().T.reset_index(drop=True)
    a = wide.get(str(first), pd.Series(np.nan, index=wide.index)).astype(float)
    b = wide.get(str(last), pd.Series(np.nan, index=wide.index)).astype(float)
    if agg in ("sum", "count"):
        a, b = a.fillna(0.0), b.fillna(0.0)  # a key with no rows in one group: nothing there, its total is 0
    rate = ((b - a) / a.abs() * 100).where(a.ne(0) & a.notna() & b.notna())
    out = pd.DataFrame({str(first): a.round(4), str(last): b.round(4), "变化": (b - a).round(4), "增长率(%)": rate.round(2)}, index=wide.index)
    out = out.reset_index() if keys else out
    if ranked or top:
        out = out.sort_values("增长率(%)", ascending=lowest, na_position="last", kind="stable")
        out = out.head(top) if top else out
    out = out.reset_index(drop=True)
    lab = keys[0] if keys else None
    blank = "（空白）" if lang == "zh" else "(blank)"
    said = [{"name": _label(r, keys).replace("（空白）", blank) if keys else f"{first} → {last}", "first": rnd(r[str(first)]), "last": rnd(r[str(last)]),
             "change": rnd(r["变化"]), "pct": rnd(r["增长率(%)"], 2)} for r in out.head(8).to_dict("records")]
    facts = {"rows_in": len(wide), "rows_out": len(out), "data_rows": len(data), "first": str(first), "last": str(last), "by": by, "label_column": lab,
             "no_base": int(out["增长率(%)"].isna().sum()), "rows": said, "above": None, "below": None,
             **({"top": top, "lowest": lowest} if top else {"ranked": True, "lowest": lowest} if ranked else {})}
    return ToolResult(out, facts, {"sample": _sample(out, 20)})


@tool
def wide_to_long(table: pd.DataFrame) -> ToolResult:
    """A wide table in long form (name | period | value), ready for charts and grouping."""
    s = _series_or_refuse(table)
    ids = [str(c) for c in table.columns if str(c) not in s.columns]
    period = {"year": "年份", "month": "月份", "quarter": "季度"}[s.kind]
    out = table.melt(id_vars=ids, value_vars=list(s.columns), var_name=period, value_name="数值")
    out[period] = pd.Categorical(out[period], categories=list(s.columns), ordered=True)
    out = out.sort_values(ids + [period], kind="stable").reset_index(drop=True)
    out[period] = out[period].astype(str)
    out["数值"] = as_numbers(out["数值"])
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "series": list(s.columns), "periods": len(s.columns), "kind": s.kind},
                      {"sample": _sample(out)})


def _period_columns(s: Series, first: str | None, last: str | None) -> list[str]:
    cols = list(s.columns)
    for bound in (first, last):
        if bound is not None and bound not in cols:
            raise ToolArgError(f"没有“{bound}”这一期，现有：{cols[0]}—{cols[-1]}。", f"No period {bound}; the table covers {cols[0]} to {cols[-1]}.")
    i = cols.index(first) if first else 0
    j = cols.index(last) if last else len(cols) - 1
    return cols[min(i, j) : max(i, j) + 1]


def _narrow(s: Series, first: str | None, last: str | None) -> Series:
    if first is None and last is None:
        return s
    cols = _period_columns(s, first, last)
    return Series(tuple(cols), tuple(p for c, p in zip(s.columns, s.periods, strict=True) if c in cols), s.kind)


@tool
def wide_stats(table: pd.DataFrame, stats: list[str], rows: list[str] | None = None, first: str | None = None,
               last: str | None = None) -> ToolResult:
    """For a wide table: statistics (mean, median, variance, std …) of each row across its periods, optionally from first to last."""
    s = _series_or_refuse(table)
    lab = label_column(table, s)
    cols = _period_columns(s, first, last)
    data = _named_rows(table, lab, rows)
    v = _wide_values(data, Series(tuple(cols), tuple(range(len(cols))), s.kind))
    out_rows = []
    for idx in v.index:
        series_values = v.loc[idx]
        row: dict[str, object] = {str(lab): data.loc[idx, lab]} if lab else {}
        row["期数"] = int(series_values.notna().sum())
        for st in stats:
            row[stat_label(st)] = _one(series_values, st)
        out_rows.append(row)
    out = pd.DataFrame(out_rows)
    facts = {"rows_in": len(table), "rows_out": len(out), "label_column": lab, "stats": stats, "first": cols[0], "last": cols[-1],
             "periods": len(cols), "values": [{"name": str(r.get(str(lab), "")), "n": r["期数"], **{st: r[stat_label(st)] for st in stats}} for r in out_rows[:8]]}
    return ToolResult(out, facts, {"sample": _sample(out, 20)})


def _row_stat(block: pd.DataFrame, st: str) -> pd.Series:
    """One statistic of every row of a block of numeric columns (ddof 1, blanks skipped), rounded as tables show it."""
    n = block.notna().sum(axis=1)
    m = PCT.match(st)
    if st in ("mean", "median", "std", "var", "min", "max", "sum"):
        r = getattr(block, st)(axis=1)
    elif st == "count":
        return n
    elif st == "range":
        r = block.max(axis=1) - block.min(axis=1)
    elif st in ("q1", "q3") or m:
        r = block.quantile({"q1": 0.25, "q3": 0.75}.get(st) or float(m.group(1)) / 100 if m else {"q1": 0.25, "q3": 0.75}[st], axis=1)
    elif st == "iqr":
        r = block.quantile(0.75, axis=1) - block.quantile(0.25, axis=1)
    elif st == "cv":
        mean = block.mean(axis=1)
        r = (block.std(axis=1) / mean).where(mean.ne(0) & (n >= 2))
    else:  # mode, nunique: row by row
        return block.apply(lambda row: _one(row, st), axis=1)
    return r.where(n > 0).round(4)


@tool
def wide_stats_per_year(table: pd.DataFrame, stats: list[str], rows: list[str] | None = None, years: list[int] | None = None) -> ToolResult:
    """For a wide table of months (2023年1月 … 2024年3月): statistics (variance, mean …) of each row over each year's months,
    optionally for some years only."""
    s = _series_or_refuse(table)
    if s.kind != "month" or s.periods[0] < 12 * 1000:
        raise ToolArgError("这张表的列不是“某年某月”，无法按年份分组计算。", "The columns are not months of given years; they cannot be grouped by year.")
    lab = label_column(table, s)
    data = _named_rows(table, lab, rows)
    by_year: dict[int, list[str]] = {}
    for c, p in zip(s.columns, s.periods, strict=True):
        by_year.setdefault(p // 12, []).append(c)
    want = sorted(set(years)) if years else sorted(by_year)
    missing = [y for y in want if y not in by_year]
    if missing:
        raise ToolArgError(f"表里没有 {'、'.join(f'{y}年' for y in missing)} 的月份列（有 {min(by_year)}—{max(by_year)} 年）。",
                           f"No months of {', '.join(map(str, missing))} (the table covers {min(by_year)} to {max(by_year)}).")
    parts = []
    for y in want:  # one block of months per year, every row at once
        block = pd.DataFrame({c: as_numbers(data[c]) for c in by_year[y]}, index=data.index)
        part = pd.DataFrame({**({str(lab): data[lab]} if lab else {}), "年份": f"{y}年", "月数": block.notna().sum(axis=1)}, index=data.index)
        for st in stats:
            part[stat_label(st)] = _row_stat(block, st)
        parts.append(part.assign(_row=range(len(part))))
    out = pd.concat(parts).sort_values("_row", kind="stable").drop(columns="_row").reset_index(drop=True)
    out_rows = out.head(12).to_dict("records")
    values = [{"name": str(r.get(str(lab), "")), "year": r["年份"], "n": int(r["月数"]), **{st: rnd(r[stat_label(st)]) for st in stats}} for r in out_rows]
    facts = {"rows_in": len(table), "rows_out": len(out), "label_column": lab, "stats": stats, "years": [f"{y}年" for y in want], "values": values}
    return ToolResult(out, facts, {"sample": _sample(out, 20)})


@tool
def wide_trend(table: pd.DataFrame, rows: list[str] | None = None, first: str | None = None, last: str | None = None) -> ToolResult:
    """For a wide table of years: the least-squares trend of each row across its years (slope per year, r², p)."""
    from scipy import stats

    from tools.stattests import p_text

    s = _narrow(_series_or_refuse(table), first, last)
    lab = label_column(table, s)
    data = _named_rows(table, lab, rows)
    v = _wide_values(data, s)
    out_rows = []
    for idx in v.index:
        y = v.loc[idx]
        keep = y.notna()
        x = pd.Series(s.periods, index=list(s.columns))[keep]
        if keep.sum() < 3:
            raise ToolArgError(f"{data.loc[idx, lab] if lab else idx} 只有 {int(keep.sum())} 期数值，无法拟合趋势（至少 3 期）。",
                               "Fewer than 3 values: no trend can be fitted.")
        res = stats.linregress(x.astype(float), y[keep].astype(float))
        out_rows.append({str(lab): data.loc[idx, lab]} if lab else {})
        out_rows[-1].update({"斜率(每期)": rnd(res.slope), "截距": rnd(res.intercept), "r²": rnd(res.rvalue ** 2), "p": rnd(res.pvalue), "期数": int(keep.sum())})
    out = pd.DataFrame(out_rows)
    facts = {"rows_in": len(table), "rows_out": len(out), "label_column": lab, "first": s.columns[0], "last": s.columns[-1], "kind": s.kind,
             "trends": [{"name": str(r.get(str(lab), "")), "slope": r["斜率(每期)"], "intercept": r["截距"], "r2": r["r²"], "p": r["p"], "p_text": p_text(float(r["p"])), "n": r["期数"]}
                        for r in out_rows[:8]]}
    return ToolResult(out, facts, {"sample": _sample(out, 20)})
