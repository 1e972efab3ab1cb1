"""Descriptive statistics, shares and proportions, comparisons with aggregates, ranks and lookups."""

from __future__ import annotations

import re
from typing import Any

import pandas as pd

from tools.durations import clock
from tools.edits import where
from tools.errors import ToolArgError
from tools.fmt import rnd
from tools.ops import _blank_mask, _need_columns, _sample
from tools.registry import ToolResult, tool
from tools.values import as_numbers

STAT_ZH = {
    "count": "数量", "mean": "平均", "median": "中位数", "mode": "众数", "std": "标准差", "var": "方差",
    "min": "最小", "max": "最大", "range": "极差", "iqr": "四分位距", "q1": "下四分位数", "q3": "上四分位数",
    "nunique": "不同值个数", "cv": "变异系数", "sum": "合计", "mode_count": "众数出现次数",
}
DESCRIBE = ("count", "mean", "std", "min", "q1", "median", "q3", "max")
PCT = re.compile(r"^p(\d{1,2}(?:\.\d+)?)$")  # p90: the 90th percentile
CLOCK_STATS = frozenset({"mean", "median", "min", "max", "q1", "q3", "sum"})  # figures of a time column that are themselves times


def numeric(table: pd.DataFrame, column: str) -> pd.Series:
    """A column as numbers; refuses a column with no numbers at all."""
    s = as_numbers(table[column])
    if len(table) and s.notna().sum() == 0:
        raise ToolArgError(f"列“{column}”里没有数字，无法计算。", f"Column '{column}' holds no numbers.")
    return s


from modes.lexicon import TOTAL_WORDS  # noqa: E402  (the words a table's own total row is labelled with; shared with the reader)


def _label(r: Any, keys: list[str]) -> str:
    """A group's label: its key values joined with 、, a blank key as （空白） (the answer says it in its language)."""
    return "、".join("（空白）" if pd.isna(r[k]) else str(r[k]) for k in keys)


def total_rows(table: pd.DataFrame) -> pd.Series:
    """Rows that are the table's own total (a text cell 总计 / 合计 / Total …, as the first or last row holding numbers):
    an aggregate across the rows that kept them would count everything twice."""
    from tools.values import as_numbers, reads_as_numbers

    mask = pd.Series(False, index=table.index)
    text_cols = [c for c in table.columns if not pd.api.types.is_numeric_dtype(table[c])]
    nums = [c for c in table.columns if pd.api.types.is_numeric_dtype(table[c]) and not pd.api.types.is_bool_dtype(table[c])]
    if not text_cols or len(table) < 3 or not any(_says_total(table[c]) for c in text_cols):
        return mask  # no cell says 合计 / Total: no row is the table's own total (and no column need be read)
    # figures written as text ($1,250.00, ~200): a total row below them is a total all the same
    worded = [c for c in text_cols if reads_as_numbers(table[c])]
    if not (nums or worded):
        return mask
    # read unnamed: finding the total row says nothing about how a column was read (no reading note)
    held = pd.concat([table[nums].notna(), *(as_numbers(table[c].rename(None)).notna().rename(c) for c in worded)], axis=1)
    has = held.any(axis=1).to_numpy()
    where_ = has.nonzero()[0]
    if len(where_) < 3:
        return mask
    for pos in dict.fromkeys((int(where_[0]), int(where_[-1]))):  # only the two ends can be the table's own total
        if any(str(table[c].iat[pos]).strip().casefold() in TOTAL_WORDS for c in text_cols):
            mask.iat[pos] = True
    return mask


def _says_total(s: pd.Series) -> bool:
    """Whether any cell of a text column is a total word (合计, Total …), as total_rows compares it."""
    return bool(s.dropna().astype(str).str.strip().str.casefold().isin(TOTAL_WORDS).any())


def _total_label(row: pd.Series) -> str:
    """The word a total row is labelled with (合计 / Total), whichever cell holds it."""
    return next((str(v).strip() for v in row.values if isinstance(v, str) and v.strip().casefold() in TOTAL_WORDS), "合计")


def stat_label(stat: str) -> str:
    m = PCT.match(stat)
    return f"第{m.group(1)}百分位数" if m else STAT_ZH.get(stat, stat)


MODES_SHOWN = 5


def _one(s: pd.Series, stat: str) -> Any:
    """One statistic of a series (text columns: count, nunique and mode only)."""
    if stat == "nunique":
        return int(s.dropna().nunique())
    if stat == "mode":
        x = s.dropna()
        if len(x) > 1 and not x.duplicated().any():
            return None  # no value repeats: there is no mode (never every value listed as one)
        m = x.mode()
        if m.empty:
            return None
        shown = "、".join(str(rnd(v)) for v in m.head(MODES_SHOWN))  # every tied mode, up to five; how many more is said
        return shown + (f"…(+{len(m) - MODES_SHOWN})" if len(m) > MODES_SHOWN else "")
    if stat == "mode_count":  # how many times the mode occurs (every tied mode occurs as often)
        counts = s.dropna().value_counts()
        return None if counts.empty or (len(counts) > 1 and counts.iloc[0] == 1) else int(counts.iloc[0])
    if stat == "count":
        return int(s.notna().sum())
    x = as_numbers(s).dropna()
    if x.empty:
        return None
    m = PCT.match(stat)
    if m:
        return rnd(x.quantile(float(m.group(1)) / 100))
    if stat == "q1":
        return rnd(x.quantile(0.25))
    if stat == "q3":
        return rnd(x.quantile(0.75))
    if stat == "iqr":
        return rnd(x.quantile(0.75) - x.quantile(0.25))
    if stat == "range":
        return rnd(x.max() - x.min())
    if stat == "cv":
        mean = x.mean()
        return None if mean == 0 or len(x) < 2 else rnd(x.std() / mean)
    if stat in ("std", "var") and len(x) < 2:
        return None
    return rnd(getattr(x, stat)())


def _as_times(s: pd.Series) -> tuple[pd.Series, dict[str, Any]] | None:
    """A text column of times or gaps as seconds, with what was left out; None when it does not read as times."""
    from tools.durations import as_seconds, reads_as_times

    if not reads_as_times(s.dropna().astype(str).head(500).tolist()):
        return None
    secs, left, gaps = as_seconds(s.tolist())
    return pd.Series(secs, index=s.index, dtype="float64"), {"left_out": list(dict.fromkeys(left))[:6], "n_left_out": len(left), "gaps_added": gaps}


def _check_stats(stats: list[str]) -> None:
    bad = [s for s in stats if s not in STAT_ZH and not PCT.match(s)]
    if bad:
        raise ToolArgError(f"不支持的统计量：{'、'.join(bad)}。", f"Unsupported statistics: {', '.join(bad)}.")


@tool
def column_stats(table: pd.DataFrame, columns: list[str], stats: list[str] | None = None, by: list[str] | None = None) -> ToolResult:
    """Median, mode, std, variance, quantiles (p90), IQR, range, distinct count, CV … of columns, overall or per group."""
    stats = list(stats or DESCRIBE)
    _check_stats(stats)
    by = list(by or [])
    _need_columns(table, columns + by)
    own = total_rows(table)  # the table's own 合计 / 平均 row is no value of the column: a median over it would be off
    skipped = int(own.sum())
    if skipped:
        table = table[~own]
    numeric_stats = [s for s in stats if s not in ("count", "nunique", "mode", "mode_count")]
    times: dict[str, dict[str, Any]] = {}
    for c in columns:
        if numeric_stats and not pd.api.types.is_numeric_dtype(table[c]):
            read = _as_times(table[c])
            if read is None:
                numeric(table, c)
            else:  # 1:28:37.554 / +5.462: seconds; what is not a time is left out and said
                table = table.assign(**{c: read[0]})
                times[c] = read[1]
    rows: list[dict[str, Any]] = []
    values: dict[str, dict[str, Any]] = {}
    if not by:
        for c in columns:
            row = {"列": c, **{stat_label(s): _one(table[c], s) for s in stats}}
            rows.append(row)
            values[c] = {s: row[stat_label(s)] for s in stats}
    else:
        for key, part in table.groupby(by, dropna=False, sort=True):
            key = key if isinstance(key, tuple) else (key,)
            for c in columns:
                rows.append({**dict(zip(by, key, strict=True)), "列": c, "行数": len(part), **{stat_label(s): _one(part[c], s) for s in stats}})
    out = pd.DataFrame(rows)
    if len(columns) == 1:
        out = out.drop(columns=["列"])
    # the values a figure rests on: for a number statistic, the cells that read as numbers (缺考 is not one of them)
    n = {c: int(numeric(table, c).notna().sum()) if numeric_stats and c not in times and not pd.api.types.is_numeric_dtype(table[c])
         else int(table[c].notna().sum()) for c in columns}
    facts = {"rows_in": len(table), "rows_out": len(out), "columns": columns, "stats": stats, "by": by, "n": n, "times": times,
             "skipped_totals": skipped}
    for c, how in times.items():  # the clock form of each figure that is a time (not of a spread such as std or variance)
        how["clock"] = {s: clock(float(v)) for s, v in values.get(c, {}).items() if v is not None and (s in CLOCK_STATS or PCT.match(s))}
    if not by:
        facts["values"] = values
    else:
        facts["groups"] = len(out) // max(1, len(columns))
        facts["group_values"] = [{"label": _label(r, by), "column": r.get("列", columns[0]),
                                  "values": {s: r[stat_label(s)] for s in stats}} for r in rows[:8]]
    return ToolResult(out, facts, {"sample": _sample(out, 20)})


def _totals(table: pd.DataFrame, keys: list[str], column: str | None) -> pd.Series:
    if column:
        return numeric(table, column).groupby([table[k] for k in keys], dropna=False, sort=True).sum()
    return table.groupby(keys, dropna=False, sort=True).size()


@tool
def share_of_total(table: pd.DataFrame, keys: list[str], column: str | None = None, within: list[str] | None = None,
                   among: list[str] | None = None) -> ToolResult:
    """Each group's share of the total of a column (or of the row count), optionally within a parent group, with cumulative share;
    with `among`, only those values of the first key are compared (研发与销售的比例)."""
    within = list(within or [])
    if not keys:
        raise ToolArgError("要按哪一列算占比？", "Shares of which grouping column?")
    _need_columns(table, keys + within + ([column] if column else []))
    if among:
        table = table[table[keys[0]].astype("string").str.strip().isin([str(v) for v in among]).fillna(False).astype(bool)]
        if table.empty:
            raise ToolArgError(f"“{keys[0]}”里没有 {'、'.join(map(str, among))}。", f"'{keys[0]}' has none of {', '.join(map(str, among))}.")
    own_total = total_rows(table)
    # the total row's label as it is written (the key may be blank on it: the label then stands in another cell)
    skipped = [_total_label(r) for _, r in table.loc[own_total].head(3).iterrows()] if own_total.any() else []
    table = table[~own_total]
    value_name = f"{column}_合计" if column else "行数"
    s = _totals(table, within + [k for k in keys if k not in within], column).rename(value_name)
    out = s.reset_index()
    if within:
        parent = out.groupby(within, dropna=False)[value_name].transform("sum")
        out["占比(%)"] = (out[value_name] / parent * 100).round(2)
        out = out.sort_values(within + [value_name], ascending=[True] * len(within) + [False], kind="stable")
        out["累计占比(%)"] = (out.groupby(within, dropna=False)[value_name].cumsum() / parent.loc[out.index] * 100).round(2)
    else:
        total = out[value_name].sum()
        if total == 0:
            raise ToolArgError(f"{value_name} 的总和为 0，无法计算占比。", f"The total of {value_name} is 0; shares are undefined.")
        out = out.sort_values(value_name, ascending=False, kind="stable")
        out["占比(%)"] = (out[value_name] / total * 100).round(2)
        out["累计占比(%)"] = (out[value_name].cumsum() / total * 100).round(2)
    out = out.reset_index(drop=True)
    if pd.api.types.is_float_dtype(out[value_name]):
        out[value_name] = out[value_name].round(4)
    first = out.iloc[0] if len(out) else None
    facts = {
        "rows_in": len(table), "rows_out": len(out), "groups": len(out), "keys": keys, "within": within, "column": column,
        "value_name": value_name, "total": rnd(out[value_name].sum()), "skipped_totals": skipped,
        "shares": [{"label": _label(r, within + keys), "value": rnd(r[value_name]), "pct": rnd(r["占比(%)"], 2)}
                   for r in out.head(8).to_dict("records")],
        "top": None if first is None else {"label": "、".join(str(first[k]) for k in within + keys), "value": rnd(first[value_name]),
                                             "pct": rnd(first["占比(%)"], 2)},
    }
    return ToolResult(out, facts, {"sample": _sample(out, 20)})


@tool
def proportion_where(table: pd.DataFrame, conditions: list[dict[str, Any]], logic: str = "and", by: list[str] | None = None,
                     order: str | None = None) -> ToolResult:
    """The number and proportion of rows that meet the conditions (占多少比例), overall or within each group; the groups
    in the order of their proportion when one is given (desc: highest first)."""
    if order not in (None, "desc", "asc"):
        raise ToolArgError(f"不支持的顺序：{order}。", f"Unsupported order: {order}.")
    if not conditions:
        raise ToolArgError("缺少条件：要算满足什么条件的行的比例？", "Proportion of rows meeting which condition?")
    by = list(by or [])
    _need_columns(table, by)
    own = total_rows(table)  # the table's own 合计 row is not one of the rows the share is of
    table = table[~own] if own.any() else table
    mask = where(table, conditions, logic)
    hit, total = int(mask.sum()), len(table)
    if total == 0:
        raise ToolArgError("表里没有数据行。", "The table has no rows.")
    p = round(hit / total * 100, 2)
    if not by:
        out = pd.DataFrame([{"满足条件": hit, "总行数": total, "比例(%)": p}])
        return ToolResult(out, {"rows_in": total, "rows_out": 1, "matched": hit, "total": total, "pct": p}, {"sample": _sample(out)})
    # within each group: the group's matching rows over the group's own rows (not over all matching rows)
    g = mask.astype(int).groupby([table[k] for k in by], dropna=False, sort=True).agg(["sum", "size"])
    out = g.rename(columns={"sum": "满足条件", "size": "总行数"}).reset_index()
    out["比例(%)"] = (out["满足条件"] / out["总行数"] * 100).round(2)
    if order is not None:
        out = out.sort_values("比例(%)", ascending=order == "asc", kind="stable").reset_index(drop=True)
    groups = [{"label": _label(r, by), "matched": int(r["满足条件"]), "total": int(r["总行数"]), "pct": rnd(r["比例(%)"], 2)}
              for r in out.head(12).to_dict("records")]
    facts = {"rows_in": total, "rows_out": len(out), "matched": hit, "total": total, "pct": p, "by": by, "groups": len(out), "group_pcts": groups,
             **({"order": order} if order else {})}
    return ToolResult(out, facts, {"sample": _sample(out, 20)})


@tool
def extremes(table: pd.DataFrame, by: str, keys: list[str] | None = None) -> ToolResult:
    """The rows with the highest and with the lowest value of a column (every tied row), highest first."""
    keys = list(keys or [])
    _need_columns(table, [by] + keys)
    own_total = total_rows(table)  # the table's own 合计 row is the highest of all, and never the answer
    skipped, rows_in, table = int(own_total.sum()), len(table), table[~own_total]
    x = numeric(table, by)
    if x.notna().sum() == 0:
        raise ToolArgError(f"列“{by}”没有可比较的数值。", f"Column '{by}' has no values to compare.")
    hi, lo = x.max(), x.min()
    top, bottom = table[x == hi], table[x == lo]
    out = pd.concat([top.assign(位置="最高"), bottom.assign(位置="最低")], ignore_index=True)
    name = keys or [c for c in table.columns if c != by and not pd.api.types.is_numeric_dtype(table[c])][:1]

    def labels(part: pd.DataFrame) -> list[str]:
        return [_label(r, name) for r in part.head(10).to_dict("records")] if name else [str(i + 1) for i in part.index[:10]]

    facts = {"rows_in": rows_in, "rows_out": len(out), "by": by, "keys": name, "max": rnd(hi), "min": rnd(lo),
             "highest": labels(top), "lowest": labels(bottom), "counted": int(x.notna().sum()), "skipped_totals": skipped}
    return ToolResult(out, facts, {"sample": _sample(out)})


@tool
def rows_by_share_of_column(table: pd.DataFrame, numerator: str, denominator: str, op: str, percent: float, label: str | None = None) -> ToolResult:
    """Rows whose numerator is above / below a percentage of their own denominator (存款总额超过其总资产的50%): A op B × percent / 100."""
    if op not in ("gt", "ge", "lt", "le"):
        raise ToolArgError(f"不支持的比较：{op}。", f"Unsupported comparison: {op}.")
    _need_columns(table, [numerator, denominator] + ([label] if label else []))
    a, b = numeric(table, numerator), numeric(table, denominator)
    limit = b * percent / 100
    mask = {"gt": a > limit, "ge": a >= limit, "lt": a < limit, "le": a <= limit}[op].fillna(False).astype(bool)
    out = table[mask].copy()
    out[f"{numerator}占{denominator}(%)"] = (a[mask] / b[mask] * 100).where(b[mask].ne(0)).round(2)
    out = out.reset_index(drop=True)
    names = [str(v) for v in out[label].head(20)] if label else []
    facts = {"rows_in": len(table), "rows_out": len(out), "numerator": numerator, "denominator": denominator, "op": op, "percent": percent,
             "label": label, "names": names, "unknown": int((a.isna() | b.isna()).sum())}
    return ToolResult(out, facts, {"sample": _sample(out)})


@tool
def extremes_across_columns(table: pd.DataFrame, columns: list[str]) -> ToolResult:
    """A one-row table whose columns are the categories (零售商 | 批发商 | …): the column(s) with the highest and the lowest value."""
    _need_columns(table, columns)
    if len(table) != 1:
        raise ToolArgError(f"这张表有 {len(table)} 行，不是一行一类的汇总表，请说明按哪一行比较。",
                           f"The table has {len(table)} rows, not one; say which row to compare.")
    if len(columns) < 2:
        raise ToolArgError("至少要两列才能比较。", "At least two columns are needed to compare.")
    row = pd.Series({c: pd.to_numeric(table[c], errors="coerce").iloc[0] for c in columns}, dtype="float64")
    if row.notna().sum() == 0:
        raise ToolArgError("这些列里没有数字。", "These columns hold no numbers.")
    out = row.rename_axis("列").reset_index(name="数值").sort_values("数值", ascending=False, kind="stable").reset_index(drop=True)
    facts = {"rows_in": 1, "rows_out": len(out), "columns": columns, "max": rnd(row.max()), "min": rnd(row.min()),
             "highest": [str(c) for c in row.index[row == row.max()]], "lowest": [str(c) for c in row.index[row == row.min()]]}
    return ToolResult(out, facts, {"sample": _sample(out, 20)})


@tool
def column_ratio(table: pd.DataFrame, numerator: str, denominator: str, label: str | None = None, which: str | None = None) -> ToolResult:
    """Each row's numerator as a share of its denominator (A 占 B 的比重, %); with `which` = max / min / both, the row(s) where it is
    highest / lowest (every tied row). A zero or blank denominator gives no ratio and is counted."""
    if which not in (None, "max", "min", "both"):
        raise ToolArgError(f"不支持的取法：{which}。", f"Unsupported choice: {which}.")
    _need_columns(table, [numerator, denominator] + ([label] if label else []))
    a, b = numeric(table, numerator), numeric(table, denominator)
    name = f"{numerator}占{denominator}(%)"
    ratio = (a / b * 100).where(b.ne(0) & a.notna() & b.notna())
    out = table[[c for c in dict.fromkeys([label, numerator, denominator]) if c]].copy()
    out[name] = ratio.round(4)
    out = out.sort_values(name, ascending=False, kind="stable", na_position="last").reset_index(drop=True)

    def rows(mask: pd.Series) -> list[dict[str, Any]]:
        return [{"label": str(r[label]) if label else str(i + 1), "pct": rnd(r[name], 2), "numerator": rnd(r[numerator]), "denominator": rnd(r[denominator])}
                for i, r in out[mask].head(10).iterrows()]

    have = out[name].notna()
    facts: dict[str, Any] = {"rows_in": len(table), "rows_out": len(out), "numerator": numerator, "denominator": denominator, "label": label,
                             "which": which, "column": name, "no_ratio": int((~have).sum()), "counted": int(have.sum())}
    if have.any():
        facts["highest"] = rows(out[name] == out[name].max())
        facts["lowest"] = rows(out[name] == out[name].min())
    facts["first"] = rows(have)[:8]
    return ToolResult(out, facts, {"sample": _sample(out, 20)})


@tool
def compare_to_aggregate(table: pd.DataFrame, column: str, direction: str = "above", agg: str = "mean",
                         by: list[str] | None = None) -> ToolResult:
    """Rows whose value is above (or below) the mean or median of the column, overall or within their group."""
    if direction not in ("above", "below", "at_least", "at_most"):
        raise ToolArgError(f"不支持的比较方向：{direction}。", f"Unsupported direction: {direction}.")
    if agg not in ("mean", "median"):
        raise ToolArgError(f"只能和平均值或中位数比较，不支持 {agg}。", f"Only the mean or median can be compared with, not {agg}.")
    by = list(by or [])
    _need_columns(table, [column] + by)
    x = numeric(table, column)
    ref = x.groupby([table[k] for k in by], dropna=False).transform(agg) if by else pd.Series(getattr(x, agg)(), index=table.index)
    mask = {"above": x > ref, "below": x < ref, "at_least": x >= ref, "at_most": x <= ref}[direction].fillna(False).astype(bool)
    label = f"{'组内' if by else ''}{'平均' if agg == 'mean' else '中位数'}"
    out = table[mask].copy()
    out[f"{column}_{label}"] = ref[mask].round(4)
    out = out.reset_index(drop=True)
    facts = {"rows_in": len(table), "rows_out": len(out), "column": column, "direction": direction, "agg": agg, "by": by,
             "counted": int(x.notna().sum())}
    if not by:
        facts["reference"] = rnd(ref.iloc[0]) if len(ref) else None
    return ToolResult(out, facts, {"sample": _sample(out)})


@tool
def top_n_per_group(table: pd.DataFrame, by: list[str], column: str, n: int = 3, ascending: bool = False) -> ToolResult:
    """The n rows with the largest (or smallest) value of a column within each group."""
    _need_columns(table, by + [column])
    if n < 1:
        raise ToolArgError("n 必须至少为 1。", "n must be at least 1.")
    own = total_rows(table)  # the table's own 合计 row is no group of its own and no top row
    skipped = int(own.sum())
    table = table[~own] if skipped else table
    x = numeric(table, column)
    order = table.assign(_v=x).sort_values(by + ["_v"], ascending=[True] * len(by) + [ascending], kind="stable", na_position="last")
    out = order.groupby(by, dropna=False, sort=False).head(n).drop(columns="_v").reset_index(drop=True)
    groups = int(table.groupby(by, dropna=False).ngroups)
    return ToolResult(out, {"rows_in": len(table) + skipped, "rows_out": len(out), "groups": groups, "n": n, "column": column, "by": by,
                            "ascending": ascending, "skipped_totals": skipped}, {"sample": _sample(out, 20)})


@tool
def rank_rows(table: pd.DataFrame, column: str, by: list[str] | None = None, method: str = "min", ascending: bool = False,
              name: str | None = None) -> ToolResult:
    """Add a rank column (1 = largest unless ascending), overall or within each group; ties share a rank (min or dense)."""
    if method not in ("min", "dense"):
        raise ToolArgError(f"不支持的排名方式：{method}（可选 min、dense）。", f"Unsupported rank method: {method} (min or dense).")
    by = list(by or [])
    _need_columns(table, [column] + by)
    x = numeric(table, column)
    ranks = (x.groupby([table[k] for k in by], dropna=False) if by else x).rank(method=method, ascending=ascending)
    name = name or (f"{column}_组内排名" if by else f"{column}_排名")
    if name in table.columns:
        raise ToolArgError(f"已经有名为 {name} 的列了。", f"There is already a column named {name}.")
    out = table.copy()
    out[name] = ranks.astype("Int64")
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "added": name, "column": column, "by": by, "method": method},
                      {"sample": _sample(out)})


@tool
def lookup_value(table: pd.DataFrame, key_column: str, key: Any, columns: list[str] | None = None) -> ToolResult:
    """The value(s) of some columns in the row(s) whose key column equals the key ("X 的 Y 是什么")."""
    columns = list(columns or [])
    _need_columns(table, [key_column] + columns)
    s = table[key_column]
    if isinstance(key, (int, float)) and not isinstance(key, bool):
        mask = pd.to_numeric(s, errors="coerce") == key
    else:
        mask = s.astype("string").str.strip().str.casefold() == str(key).strip().casefold()
    mask = mask.fillna(False).astype(bool) & ~_blank_mask(s)
    out = table.loc[mask, [key_column] + [c for c in columns if c != key_column] if columns else list(table.columns)].reset_index(drop=True)
    if out.empty:
        near = s.dropna().astype(str).unique()[:2000].tolist()
        import difflib

        close = difflib.get_close_matches(str(key), near, n=3, cutoff=0.5)
        raise ToolArgError(f"列“{key_column}”里没有“{key}”。" + (f"最接近的有：{'、'.join(close)}。" if close else ""),
                           f"'{key}' is not in column '{key_column}'." + (f" Closest: {', '.join(close)}." if close else ""))
    values = {c: [rnd(v) if not isinstance(v, pd.Timestamp) else v.strftime("%Y-%m-%d") for v in out[c].head(10)] for c in columns}
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "key_column": key_column, "key": key, "columns": columns,
                            "values": values}, {"sample": _sample(out, 10)})


GAP_AGGS = ("mean", "sum", "median", "max", "min")


@tool
def value_gap(table: pd.DataFrame, column: str, group: str, levels: list[str], agg: str = "mean", times: bool = False) -> ToolResult:
    """How much one value of `group` is above another on `column` (A 的 X 比 B 高多少): X(A), X(B) — each the `agg` of its
    rows — the difference X(A) − X(B), the relative difference to X(B) and, with `times`, X(A) ÷ X(B). Never a figure
    pooled over both."""
    if agg not in GAP_AGGS:
        raise ToolArgError(f"不支持的取法：{agg}。", f"Unsupported aggregate: {agg}.")
    if len(levels) != 2 or levels[0] == levels[1]:
        raise ToolArgError("需要两个不同的值来比较。", "Two different values are needed to compare.")
    _need_columns(table, [column, group])
    x = numeric(table, column)
    keys = table[group].astype("string").str.strip()
    rows, figures = [], []
    for lv in levels:
        part = x[keys == str(lv).strip()]
        if part.empty:
            raise ToolArgError(f"“{group}”列里没有“{lv}”。", f"'{lv}' is not a value of {group}.")
        v = part.dropna()
        figure = float(getattr(v, agg)()) if len(v) else None
        rows.append({group: lv, column: rnd(figure), "行数": len(part)})
        figures.append(figure)
    a, b = figures
    diff = a - b if a is not None and b is not None else None
    pct_diff = rnd(diff / abs(b) * 100, 2) if diff is not None and b else None
    out = pd.DataFrame(rows + [{group: f"{levels[0]} − {levels[1]}", column: rnd(diff), "行数": None}])
    facts = {"rows_in": len(table), "rows_out": len(out), "column": column, "group": group, "agg": agg, "a": levels[0], "b": levels[1],
             "value_a": rnd(a), "value_b": rnd(b), "diff": rnd(diff), "gap": None if diff is None else rnd(abs(diff)), "pct": pct_diff,
             "gap_pct": None if pct_diff is None else abs(pct_diff), "rows_a": rows[0]["行数"], "rows_b": rows[1]["行数"], "times": times,
             "ratio": rnd(a / b) if a is not None and b else None}
    return ToolResult(out, facts, {"sample": _sample(out, 5)})


@tool
def share_gap(table: pd.DataFrame, a: str, b: str, label: str | None = None, which: str = "max") -> ToolResult:
    """Each row's `a` and `b` as shares of a + b (%), the gap between them in points, and the row(s) where the gap is largest
    (`which` = max) or smallest (min). A row whose a + b is zero or blank has no shares and is counted."""
    if which not in ("max", "min"):
        raise ToolArgError(f"不支持的取法：{which}。", f"Unsupported choice: {which}.")
    _need_columns(table, [a, b] + ([label] if label else []))
    x, y = numeric(table, a), numeric(table, b)
    summed = bool(label) and table[label].duplicated().any()
    if summed:  # a category on several rows: its rows are added up first
        table = pd.DataFrame({a: x, b: y, label: table[label]}).groupby(label, sort=False, dropna=False)[[a, b]].sum(min_count=1).reset_index()
        x, y = table[a], table[b]
    total = x + y
    ok = total.gt(0) & x.notna() & y.notna()
    out = table[[c for c in dict.fromkeys([label, a, b]) if c]].copy()
    out[f"{a}占比(%)"] = (x / total * 100).where(ok).round(4)
    out[f"{b}占比(%)"] = (y / total * 100).where(ok).round(4)
    gap = (out[f"{a}占比(%)"] - out[f"{b}占比(%)"]).abs()
    out["相差(百分点)"] = gap.round(4)
    out = out.sort_values("相差(百分点)", ascending=which == "min", kind="stable", na_position="last").reset_index(drop=True)
    have = out["相差(百分点)"].notna()
    best = out["相差(百分点)"].max() if which == "max" else out["相差(百分点)"].min()
    tied = out[have & out["相差(百分点)"].eq(best)]
    extreme = [{"label": str(r[label]) if label else str(i + 1), "a": rnd(r[a]), "b": rnd(r[b]), "share_a": rnd(r[f"{a}占比(%)"], 2),
                "share_b": rnd(r[f"{b}占比(%)"], 2), "gap": rnd(r["相差(百分点)"], 2)} for i, r in tied.head(5).iterrows()]
    facts = {"rows_in": len(table), "rows_out": len(out), "a": a, "b": b, "label": label, "which": which, "extreme": extreme,
             "tied": len(tied), "counted": int(have.sum()), "no_share": int((~have).sum()), "summed": summed}
    return ToolResult(out, facts, {"sample": _sample(out, 20)})


@tool
def column_shares(table: pd.DataFrame, columns: list[str]) -> ToolResult:
    """The total of each column and its share of the columns' combined total (男性与女性的比例), with the ratio of the first
    two; the table's own total row, if any, is left out."""
    if len(columns) < 2:
        raise ToolArgError("至少需要两列。", "At least two columns are needed.")
    _need_columns(table, columns)
    table = table[~total_rows(table)]
    totals = {c: float(numeric(table, c).sum()) for c in columns}
    whole = sum(totals.values())
    if whole == 0:
        raise ToolArgError(f"{'、'.join(columns)} 的总和为 0，无法计算比例。", f"The total of {', '.join(columns)} is 0; shares are undefined.")
    out = pd.DataFrame([{"列": c, "合计": rnd(v), "占比(%)": rnd(v / whole * 100, 2)} for c, v in totals.items()])
    a, b = totals[columns[0]], totals[columns[1]]
    facts = {"rows_in": len(table), "rows_out": len(out), "columns": columns, "whole": rnd(whole), "ratio": rnd(a / b) if b else None,
             "shares": [{"column": c, "total": rnd(v), "pct": rnd(v / whole * 100, 2)} for c, v in totals.items()]}
    return ToolResult(out, facts, {"sample": _sample(out, 10)})
