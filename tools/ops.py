"""The whitelisted spreadsheet tools. Each is a typed function returning a ToolResult; none prints."""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from tools.errors import ColumnMissing, ToolArgError
from tools.io import TableCache, as_dates, load, sheet_names
from tools.registry import ToolResult, tool
from tools.values import (
    TIME_TEXT,
    as_numbers,
    as_times,
    clock,
    reads_as_dates,
    reads_as_numbers,
    reads_as_times,
)
from tools.workspace import Workspace, decodable, shown
from tools.write import About, Written, write_csv_file, write_xlsx_file, write_xlsx_sheets

AGGS = {"count", "sum", "mean", "median", "min", "max", "distinct"}
AGG_ZH = {"count": "计数", "sum": "合计", "mean": "平均", "median": "中位数", "min": "最小", "max": "最大", "distinct": "不同值数"}
AGG_NAMES = {"zh": AGG_ZH, "en": {"count": "count", "sum": "sum", "mean": "mean", "median": "median", "min": "min", "max": "max", "distinct": "distinct"}}
ROWS = {"zh": "行数", "en": "rows"}  # the row-count column of a summary, in the request's language


def measure_name(column: str, agg: str, lang: str = "zh") -> str:
    """The summary column for a measure in the request's language: 金额_合计, salary_mean (a total of totals, 金额_合计
    summed again per group, keeps its name: never 金额_合计_合计)."""
    label = AGG_NAMES.get(lang, AGG_ZH)[agg]
    return column if agg in ("sum", "max", "min") and column.endswith(f"_{label}") else f"{column}_{label}"


def where_name(m: dict[str, Any], lang: str = "zh") -> str:
    """The summary column of a figure over the rows meeting conditions: 未处理_行数, Open_rows, 金额_合计_退货."""
    label = m.get("label") or "_".join(_said_value(c, v) for c in m["where"] for v in (c["value"] if isinstance(c.get("value"), list) else [c.get("value")])
                                       if v is not None) or "_".join(c["column"] for c in m["where"])
    if m.get("column") and m.get("agg", "count") != "count":
        return f"{measure_name(m['column'], m['agg'], lang)}_{label}"
    return f"{label}_{ROWS.get(lang, ROWS['zh'])}"


# a yes-no column's name (是否延误, is_late): the same shape the reader knows (modes.conditions.FLAG_COLUMN); tools never import modes
FLAG_NAME = re.compile(r"^(?:是否|是不是|有没有|有无|(?:is|has|was)[_ ])(?P<noun>.{2,12})$", re.I)


def _said_value(c: dict[str, Any], v: Any) -> str:
    """A condition's value as a column's name: 是否延误 = 是 is 延误 (是 alone names nothing), is_late = yes is late."""
    m = FLAG_NAME.match(str(c.get("column") or ""))
    if m and c.get("op") == "eq" and str(v).strip().casefold() in ("是", "有", "y", "yes", "true", "1"):
        return m.group("noun").replace("_", " ").strip()
    return str(v)


def _figure(table: pd.DataFrame, m: dict[str, Any], by: list[pd.Series] | None, keep_order: bool = False) -> Any:
    """One measure of a summary: over the whole table (by None) or per group (by the key columns' values); with
    `where`, over the rows meeting it (a count of those rows when no column is summarised)."""
    mask = _where_mask(table, m["where"]) if m.get("where") else None
    if mask is not None and (not m.get("column") or m.get("agg", "count") == "count"):
        return int(mask.sum()) if by is None else mask.astype(int).groupby(by, dropna=False, sort=not keep_order).sum()
    raw = table[m["column"]] if mask is None else table[m["column"]].where(mask)
    agg = m["agg"]
    if by is None:
        if agg == "distinct":  # how many different values, blanks aside
            return int(raw.nunique())
        values, shown = _measured(raw, agg)
        return (shown or _round)(getattr(values, agg)())
    col, shown = _measured(raw, agg) if agg not in ("count", "distinct") else (raw, None)
    grouped = col.groupby(by, dropna=False, sort=not keep_order)
    # a group none of whose values could be read has no total: blank, never 0 (which would rank it last)
    figures = grouped.sum(min_count=1) if agg == "sum" else grouped.agg("nunique" if agg == "distinct" else agg)
    return figures.map(shown) if shown else figures


def _where_mask(table: pd.DataFrame, conditions: list[dict[str, Any]]) -> pd.Series:
    """The rows meeting every condition."""
    mask = pd.Series(True, index=table.index)
    for c in conditions:
        mask &= _cond_mask(table, c)
    return mask
OPS = {
    "eq", "ne", "gt", "ge", "lt", "le", "between", "contains", "not_contains",
    "in", "not_in", "empty", "not_empty", "startswith", "endswith", "not_startswith", "not_endswith", "numeric", "not_numeric", "not_between",
    "blank_or_numeric", "blank_or_not_numeric", "weekday_in", "weekday_not_in",
}


def _need_columns(df: pd.DataFrame, cols: list[str]) -> None:
    missing = [c for c in cols if c not in df.columns]
    if missing:
        names = [str(c) for c in df.columns]
        close = {m: difflib.get_close_matches(m, names, n=3, cutoff=0.3) for m in missing}
        hint = "；".join(f"“{m}”最接近：{'、'.join(v) or '无'}" for m, v in close.items())
        raise ColumnMissing(
            f"表里没有列 {'、'.join(missing)}（{hint}）。现有列：{'、'.join(names)}",
            f"No column {', '.join(missing)} in the table. Columns: {', '.join(names)}",
            missing=missing,
            closest=close,
        )


def _sample(df: pd.DataFrame, n: int = 5) -> list[dict[str, Any]]:
    return [{str(k): _plain(v) for k, v in row.items()} for row in df.head(n).to_dict("records")]


def _plain(v: Any) -> Any:
    if v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NaT:
        return None
    if isinstance(v, pd.Timestamp):
        return v.strftime("%Y-%m-%d") if v == v.normalize() else v.isoformat(sep=" ")
    if hasattr(v, "item"):
        return v.item()
    return v


# how a blank group is labelled in a table wenqing writes (a chart's categories): a blank again when that table is read
BLANK_LABELS = ("（空白）", "(blank)")


def _blank_mask(s: pd.Series) -> pd.Series:
    mask = s.isna()
    if s.dtype == object or pd.api.types.is_string_dtype(s):
        text = s.astype("string").str.strip()
        mask = mask | (text.eq("") | text.isin(BLANK_LABELS)).fillna(False).astype(bool)
    return mask.astype(bool)


def _dtype_name(s: pd.Series) -> str:
    if pd.api.types.is_bool_dtype(s):
        return "布尔"
    if pd.api.types.is_integer_dtype(s):
        return "整数"
    if pd.api.types.is_float_dtype(s):
        return "小数"
    if pd.api.types.is_datetime64_any_dtype(s):
        return "日期"
    return "文本"


# ---------------------------------------------------------------- reading and describing


@tool
def profile_dataset(ws: Workspace, path: str, sheet: str | None = None, head: int = 5, cache: TableCache | None = None,
                    header_row: int | None = None) -> ToolResult:
    """Load a table and describe it: shape, columns, types, blanks, sample rows, every sheet."""
    full = ws.resolve(path)
    t = load(full, sheet, cache, header_row)
    df = t.df
    sheets = sheet_names(full)

    def counted() -> tuple[list[dict[str, Any]], list[str]]:
        return ([{"name": str(c), "type": _dtype_name(df[c]), "blanks": int(_blank_mask(df[c]).sum())} for c in df.columns],
                written_as_text(df))

    # a file profiled again in this session, unchanged, is not counted again (every request previews its file first)
    columns, as_text = cache.remember(full, sheet, header_row, "profile", counted) if cache is not None else counted()
    columns = [dict(c) for c in columns]
    facts = {
        "path": path,
        "sheet": t.sheet,
        "sheets": sheets,
        "rows": len(df),
        "n_columns": len(df.columns),
        "columns": [str(c) for c in df.columns],
        "column_info": columns,
        "encoding": t.encoding,
        "uncached_formulas": t.uncached_formulas,
        "delimiter": t.delimiter,
        "notes": t.notes + list(as_text),
        "skipped": t.skipped,
        "skipped_lines": t.skipped_lines,
    }
    from tools.stats import total_rows

    own = int(total_rows(df).sum())  # the table's own 合计 row: said, so "how many rows" is answered with the data's
    if own:
        facts["total_rows"] = own
    return ToolResult(df, facts, {"sample": _sample(df, head)})


def written_as_text(df: pd.DataFrame) -> list[str]:
    """Columns whose cells are text that reads as numbers, dates or clock times: said when a table is previewed."""
    kinds = {"数字": reads_as_numbers, "日期": reads_as_dates, "时间": reads_as_times}
    said = []
    for kind, reads in kinds.items():
        cols = [str(c) for c in df.columns if df[c].dtype == object or pd.api.types.is_string_dtype(df[c]) if reads(df[c])]
        if cols:
            said.append(f"{'、'.join(cols)} 是写成文本的{kind}，计算和比较时按{kind}读取")
    return said


@tool
def list_files(ws: Workspace) -> ToolResult:
    """List the files in the workspace with their type, size and sheets."""
    rows = []
    for rel in ws.files(undecodable=True):  # a name that is not UTF-8 is listed as it can be shown, and never read
        p = ws.root / rel
        try:
            sheets = ("、".join(sheet_names(p)) if decodable(rel) and rel.lower().endswith((".xlsx", ".xlsm", ".xls", ".ods"))
                      else "" if decodable(rel) else "（文件名不是 UTF-8，无法按名字读取）")
            size = round(p.stat().st_size / 1024, 1)
        except Exception:  # an unreadable workbook is still listed
            sheets, size = "（无法读取）", None
        rows.append({"文件": shown(rel), "类型": shown(p.suffix).lstrip(".").lower(), "大小KB": size, "工作表": sheets})
    df = pd.DataFrame(rows, columns=["文件", "类型", "大小KB", "工作表"])
    return ToolResult(df, {"files": len(df)}, {"sample": _sample(df, 50)})


@tool
def export_list(ws: Workspace, table: pd.DataFrame, stem: str = "文件清单") -> ToolResult:
    """Write the workspace file list to a CSV in outputs/."""
    w = write_csv_file(ws, table, stem)
    rel = ws.rel(w.path)
    return ToolResult(table, {"path": rel, "rows": len(table), **_safety(w)}, {}, [rel])


@tool
def describe_columns(table: pd.DataFrame) -> ToolResult:
    """Per-column statistics: numbers (count, mean, min, max), text (distinct values, most common). The table's own
    total row is no row of the data; numbers written as text (with a few marks such as 待定 / TBD) are numbers, their
    marks named."""
    from tools.stats import total_rows
    from tools.values import as_numbers, reads_as_numbers

    own = total_rows(table)
    skipped = int(own.sum())
    table = table[~own] if skipped else table
    rows = []
    for c in table.columns:
        s = table[c]
        row: dict[str, Any] = {"列": str(c), "类型": _dtype_name(s), "非空": int((~_blank_mask(s)).sum()), "空值": int(_blank_mask(s).sum())}
        if pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s):
            row.update(均值=_round(s.mean()), 最小=_plain(s.min()), 最大=_plain(s.max()))
        elif reads_as_numbers(s):
            n = as_numbers(s)
            marks = s[n.isna() & ~_blank_mask(s)].astype(str).value_counts()
            row["类型"] = "小数"  # numbers written as text: read as numbers, as every step reads them
            row.update(均值=_round(n.mean()), 最小=_plain(n.min()), 最大=_plain(n.max()),
                       最常见="、".join(f"{k}({v})" for k, v in marks.head(3).items()) if len(marks) else "")
        else:
            vc = s.dropna().astype(str).value_counts()
            row.update(不同值=int(vc.size), 最常见="、".join(f"{k}({v})" for k, v in vc.head(3).items()))
        rows.append(row)
    df = pd.DataFrame(rows)
    return ToolResult(df, {"rows": len(table), "columns": len(table.columns), **({"skipped_totals": skipped} if skipped else {})},
                      {"sample": _sample(df, 50)})


def _round(v: Any) -> Any:
    v = _plain(v)
    return round(v, 2) if isinstance(v, float) else v


# ---------------------------------------------------------------- transforming


def _all_numbers(s: pd.Series) -> bool:
    """Whether every filled cell of a column is a number (a column compared with another as numbers)."""
    filled = s[~_blank_mask(s)]
    return bool(pd.to_numeric(filled, errors="coerce").notna().all())


def _coerce_value(s: pd.Series, v: Any) -> tuple[pd.Series, Any]:
    """Compare like with like: dates as dates, numbers as numbers, text as text."""
    if isinstance(v, dict) and "date" in v:
        return as_dates(s), pd.Timestamp(v["date"])
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return as_numbers(s), v
    if isinstance(v, (date, datetime)):
        return as_dates(s), pd.Timestamp(v)
    if isinstance(v, str) and re.fullmatch(TIME_TEXT, v) and reads_as_times(s):  # 下班打卡晚于20:00: clock times
        times, at = as_times(s), as_times(pd.Series([v]))
        if times is not None and at is not None:
            return times, at.iloc[0]
    return s.astype("string").str.strip(), str(v).strip()


def _whole_day(v: Any) -> bool:
    """A date written without a time of day (2025-04-30): as a bound it covers the whole day, 14:27 included."""
    return isinstance(v, dict) and bool(re.fullmatch(r"\s*\d{4}-\d{1,2}-\d{1,2}\s*", str(v.get("date", ""))))


def _cond_mask(df: pd.DataFrame, cond: dict[str, Any]) -> pd.Series:
    """The rows meeting one condition: a comparison, or a tree of them ({"and"|"or": [...]}, {"not": …})."""
    if "not" in cond:
        return ~_cond_mask(df, cond["not"])
    for logic in ("and", "or"):
        if logic in cond and "op" not in cond:
            masks = [_cond_mask(df, c) for c in cond[logic]] or [pd.Series(True, index=df.index)]
            out = masks[0]
            for m in masks[1:]:
                out = (out & m) if logic == "and" else (out | m)
            return out
    col, op = cond.get("column"), cond.get("op")
    if op not in OPS:
        raise ToolArgError(f"不支持的筛选条件：{op}。", f"Unsupported condition: {op}.")
    _need_columns(df, [str(col)])
    s = df[col]
    v = cond.get("value")
    if op == "empty":
        return _blank_mask(s)
    if op == "not_empty":
        return ~_blank_mask(s)
    if op in ("weekday_in", "weekday_not_in"):  # 周末 / on weekdays: the day of the week of a date column (Monday = 0)
        days = {int(x) for x in (v if isinstance(v, list) else [v]) if x is not None}
        inside = as_dates(s).dt.day_of_week.isin(days).fillna(False).astype(bool)
        return inside if op == "weekday_in" else ~inside
    if op in ("numeric", "not_numeric", "blank_or_numeric", "blank_or_not_numeric"):
        # a filled cell that reads as a number (27,479 too); blanks are neither, and the blank_or_ forms (what a
        # deletion keeps) are the exact complements
        filled = ~_blank_mask(s)
        number = pd.to_numeric(s.astype("string").str.strip().str.replace(",", "", regex=False), errors="coerce").notna()
        numeric = (filled & number).fillna(False).astype(bool)
        other = (filled & ~number).fillna(False).astype(bool)
        return {"numeric": numeric, "not_numeric": other, "blank_or_numeric": ~other, "blank_or_not_numeric": ~numeric}[op]
    if isinstance(v, dict) and v.get("stat") in ("mean", "median", "min", "max"):  # a column against a figure of a column
        _need_columns(df, [v["column"]])
        left, right = as_numbers(s), getattr(as_numbers(df[v["column"]]), v["stat"])()
    elif isinstance(v, dict) and "column" in v:  # column-to-column comparison
        _need_columns(df, [v["column"]])
        other = df[v["column"]]
        if op in ("eq", "ne") and not (_all_numbers(s) and _all_numbers(other)):  # Party = Party 2: the same text
            a, b = s.astype("string").str.strip(), other.astype("string").str.strip()
            same = (a == b).fillna(False).astype(bool)
            return same if op == "eq" else (~same & (a.notna() | b.notna())).astype(bool)
        left, right = as_numbers(s), as_numbers(other)
    elif op in ("in", "not_in"):
        vals = [str(x).strip() for x in (v if isinstance(v, list) else [v])]
        m = s.astype("string").str.strip().isin(vals).fillna(False).astype(bool)
        return m if op == "in" else ~m
    elif op in ("contains", "not_contains", "startswith", "endswith", "not_startswith", "not_endswith"):
        text = s.astype("string")
        if op in ("startswith", "not_startswith"):
            m = text.str.startswith(str(v))
        elif op in ("endswith", "not_endswith"):
            m = text.str.endswith(str(v))
        else:  # a list of words: any of them (环比增长 或 同比增长)
            words = v if isinstance(v, list) else [v]
            # a word is looked for whatever its letter case (contains damage finds "Damaged"): as the SQL does
            m = pd.concat([text.str.contains(str(w), regex=False, case=False) for w in words], axis=1).any(axis=1)
        m = m.fillna(False).astype(bool)
        return ~m if op in ("not_contains", "not_startswith", "not_endswith") else m
    elif op in ("between", "not_between"):  # not_between: the rows a deletion of a range keeps (blanks among them)
        left, lo = _coerce_value(s, v)
        _, hi = _coerce_value(s, cond.get("value2"))
        upper = (left < hi + pd.Timedelta(days=1)) if _whole_day(cond.get("value2")) else (left <= hi)
        inside = ((left >= lo) & upper).fillna(False).astype(bool)
        return inside if op == "between" else ~inside
    else:
        left, right = _coerce_value(s, v)
        if _whole_day(v) and op in ("eq", "ne", "gt", "le"):  # a day on a column with times is the whole day
            end = right + pd.Timedelta(days=1)
            res = {"eq": (left >= right) & (left < end), "ne": ~((left >= right) & (left < end)), "gt": left >= end, "le": left < end}[op]
            return pd.Series(res, index=df.index).fillna(False).astype(bool)
    if op in ("eq", "ne") and isinstance(right, str):
        exact = (left == right).fillna(False).astype(bool)
        # B where the column has both B and a stray b: the value as written; another case only when it is the only one
        m = exact if exact.any() else (left.str.casefold() == right.casefold()).fillna(False).astype(bool)
        return m if op == "eq" else ~m
    res = {"eq": left == right, "ne": left != right, "gt": left > right, "ge": left >= right, "lt": left < right, "le": left <= right}[op]
    return pd.Series(res, index=df.index).fillna(False).astype(bool)


@tool
def filter_rows(table: pd.DataFrame, conditions: list[dict[str, Any]], logic: str = "and") -> ToolResult:
    """Keep the rows that meet the conditions (=, ≠, >, ≥, <, ≤, between, contains, in, empty, …), joined by and/or."""
    if not conditions:
        raise ToolArgError("缺少筛选条件。", "No filter condition given.")
    masks = [_cond_mask(table, c) for c in conditions]
    mask = masks[0]
    for m in masks[1:]:
        mask = (mask | m) if logic == "or" else (mask & m)
    from tools.stats import total_rows

    own = mask & total_rows(table)  # the table's own 合计 row (单价 blank, 出库 > 入库 in total) is no row of the data
    out = table[mask & ~own].reset_index(drop=True)
    facts = {"rows_in": len(table), "rows_out": len(out), **({"skipped_totals": int(own.sum())} if own.any() else {})}
    return ToolResult(out, facts, {"sample": _sample(out)})


@tool
def rename_columns(table: pd.DataFrame, mapping: dict[str, str]) -> ToolResult:
    """Rename columns (old name -> new name); the data is unchanged."""
    _need_columns(table, list(mapping))
    clash = [n for o, n in mapping.items() if n in table.columns and n != o]
    if clash:
        raise ToolArgError(f"已经有名为 {'、'.join(clash)} 的列了。", f"There is already a column named {', '.join(clash)}.")
    out = table.rename(columns=mapping)
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "renamed": mapping}, {"sample": _sample(out)})


@tool
def select_columns(table: pd.DataFrame, columns: list[str]) -> ToolResult:
    """Keep only the named columns, in the order given."""
    _need_columns(table, columns)
    out = table[columns].copy()
    shown = min(len(out), 10)  # the first values, for a question that asked for them
    values = {c: [_plain(v) for v in out[c].head(shown)] for c in dict.fromkeys(columns)}
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "columns": columns, "values": values, "shown": shown}, {"sample": _sample(out)})


def _as_text(s: pd.Series) -> pd.Series:
    return s.map(lambda v: "" if v is None or (isinstance(v, float) and v != v) else str(v))


def _amounts_as_numbers(s: pd.Series) -> pd.Series:
    """Order amounts written as text (591,323.86 / 12万) by their value; any other column as it is."""
    return as_numbers(s) if reads_as_numbers(s) else s


@tool
def sort_rows(table: pd.DataFrame, by: list[str], ascending: bool = True, as_text: bool = False, descending: list[str] | None = None) -> ToolResult:
    """Sort rows by one or more columns (as_text orders mixed values as text); the columns in `descending` go largest
    (newest) first whatever `ascending` says of the others (by rep A to Z, then newest join date first)."""
    _need_columns(table, by)
    from tools.stats import total_rows

    key = _as_text if as_text else _amounts_as_numbers
    own = total_rows(table)  # the table's own 合计 row stays last, wherever its figures would sort it
    order = [False if c in (descending or []) else ascending for c in by] if descending else ascending
    out = table[~own].sort_values(by=by, ascending=order, kind="stable", na_position="last", key=key)
    out = pd.concat([out, table[own]]).reset_index(drop=True) if own.any() else out.reset_index(drop=True)
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "by": by, "ascending": ascending, "as_text": as_text,
                            **({"descending": list(descending)} if descending else {}),
                            **({"totals_kept_last": int(own.sum())} if own.any() else {})}, {"sample": _sample(out)})


@tool
def top_n(table: pd.DataFrame, by: str, n: int = 10, ascending: bool = False, as_text: bool = False,
          within: list[str] | None = None, percent: float | None = None) -> ToolResult:
    """The first n rows by a column (largest first unless ascending); with `within`, the first n rows of each group;
    with `percent`, the first that share of the rows holding a value (rounded up, so never none of them)."""
    within = list(within or [])
    _need_columns(table, [by] + within)
    from tools.stats import total_rows

    own_total = total_rows(table)  # the table's own 合计 row is never one of the top rows
    skipped, rows_in, table = int(own_total.sum()), len(table), table[~own_total]
    keys = [c for c in table.columns if c != by and not pd.api.types.is_numeric_dtype(table[c])]
    blank_key = pd.Series(False, index=table.index)
    if not within and keys and any(c in table.columns for c in ROWS.values()):  # a summary: a group with no key is no contender
        blank_key = table[keys].isna().all(axis=1) | table[keys].astype("string").apply(lambda c: c.str.strip() == "").all(axis=1).fillna(False)
    blank_groups, table = int(blank_key.sum()), table[~blank_key]
    s = table[by]
    share = {"percent": percent} if percent is not None else {}
    if within:  # sort, then the first n rows of each group, shown group by group
        ranked = table.sort_values(by=by, ascending=ascending, kind="stable", na_position="last", key=_as_text if as_text else _amounts_as_numbers)
        if percent is not None:  # the top 10% of each group: that share of the group's rows holding a value
            held = ranked.groupby(within, sort=False, dropna=False)[by].transform("count")
            out = ranked[ranked.groupby(within, sort=False, dropna=False).cumcount() < (held * float(percent) / 100).apply(math.ceil)]
        else:
            out = ranked.groupby(within, sort=True, dropna=False).head(max(0, int(n)))
        out = out.sort_values(within, kind="stable").reset_index(drop=True)
        facts = {"rows_in": rows_in, "rows_out": len(out), "within": within, "groups": int(out[within].drop_duplicates().shape[0]),
                 "skipped_totals": skipped, **share}
        return ToolResult(out, facts, {"sample": _sample(out, n)})
    if percent is not None:  # the top 10%: that share of the rows holding a value, rounded up
        n = int(math.ceil(int(s.notna().sum()) * float(percent) / 100))
        share["n"] = n
    if not as_text and n > 0 and pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s) and s.notna().sum() >= n:
        # a partial selection, in the same order as a stable full sort (ties keep their order)
        out = (table.nsmallest if ascending else table.nlargest)(n, by, keep="first").reset_index(drop=True)
    else:
        out = table.sort_values(by=by, ascending=ascending, kind="stable", key=_as_text if as_text else _amounts_as_numbers).head(n).reset_index(drop=True)
    tied = 0
    if len(out) and n > 0 and not as_text and pd.api.types.is_numeric_dtype(s):  # rows level with the last one kept, left out
        last = out[by].iloc[-1]
        tied = int((s == last).sum() - (out[by] == last).sum()) if pd.notna(last) else 0
    level = {}
    if tied and keys:  # who is level with the last one kept: each tied row named by its keys (Bea, Cy)
        level = {"tied_labels": [" / ".join(str(v) for v in row) for row in table.loc[s == out[by].iloc[-1], keys].head(10).itertuples(index=False)]}
    return ToolResult(out, {"rows_in": rows_in, "rows_out": len(out), "skipped_totals": skipped, "blank_groups": blank_groups, **share,
                            "tied_left_out": tied, **({"tie_value": float(out[by].iloc[-1])} if tied else {}), **level}, {"sample": _sample(out, n)})


@tool
def head_rows(table: pd.DataFrame, n: int = 10) -> ToolResult:
    """The first n rows, in the table's own order."""
    out = table.head(max(0, int(n))).reset_index(drop=True)
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out)}, {"sample": _sample(out, n)})


VERSUS = {"zh": ("与整体平均之差", "高于整体平均", "与各组平均之差", "高于各组平均", "是", "否"),
          "en": ("vs_overall_mean", "above_overall_mean", "vs_mean_of_groups", "above_mean_of_groups", "yes", "no")}


def versus_overall_columns(out: pd.DataFrame, keys: list[str], measures: list[dict[str, str]], overall: dict[str, float], lang: str) -> dict[str, Any]:
    """Each group's figure beside the whole table's: a mean against the mean of all rows, any other figure against
    the mean of the groups' figures. Adds a difference and a yes/no column per measure; returns the facts."""
    words = VERSUS.get(lang, VERSUS["zh"])
    facts: list[dict[str, Any]] = []
    for m in measures:
        name = measure_name(m["column"], m["agg"], lang)
        values = pd.to_numeric(out[name], errors="coerce")
        rows_mean = m["agg"] == "mean" and m["column"] in overall
        ref = overall[m["column"]] if rows_mean else float(values.mean())
        diff_word, above_word = (words[0], words[1]) if rows_mean else (words[2], words[3])
        out[f"{name}_{diff_word}"] = (values - ref).round(2)
        out[f"{name}_{above_word}"] = [words[4] if v > ref else words[5] for v in values]
        label = out[keys].map(lambda v: ("（空白）" if lang == "zh" else "(blank)") if pd.isna(v) else str(v)).agg("、".join, axis=1)
        facts.append({"measure": name, "reference": _round(ref), "rows_mean": rows_mean,
                      "above": [label[i] for i in range(len(out)) if values.iloc[i] > ref]})
    return {"versus_overall": facts}


def _measured(s: pd.Series, agg: str) -> tuple[pd.Series, Callable[[Any], Any] | None]:
    """What a measure aggregates (numbers, text such as 1,234.50 read as numbers), and for clock times written as text
    (08:49) under min / max / mean, how a figure is shown as a time again."""
    n = as_numbers(s)
    if agg in ("min", "max", "mean", "median") and n.notna().sum() == 0:
        times = as_times(s)
        if times is not None:
            return times, clock
    return n, None


CN_NUMERAL = re.compile(r"[一二两三四五六七八九十]+")
CN_DIGIT = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def _cn_number(word: str) -> int:
    """一 → 1, 十一 → 11, 二十三 → 23 (the numerals a grade, a quarter or a canteen is named with)."""
    if "十" not in word:
        return int("".join(str(CN_DIGIT[c]) for c in word))
    tens, _, ones = word.partition("十")
    return (CN_DIGIT.get(tens, 1) if tens else 1) * 10 + (CN_DIGIT.get(ones, 0) if ones else 0)


def in_numeral_order(out: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Groups whose keys are named with Chinese numerals (一级 / 二级 / 三级, 一号园 / 二号园) in the numerals' order, never
    in the characters' (一, 三, 二); other keys keep the order they have. Blank keys stay last."""
    said = [k for k in keys if k in out.columns and out[k].map(lambda v: isinstance(v, str) and CN_NUMERAL.search(v) is not None).any()]
    if not said or len(out) < 2:
        return out

    def natural(col: pd.Series) -> pd.Series:
        if col.name not in said:
            return col
        return col.map(lambda v: CN_NUMERAL.sub(lambda m: f"{_cn_number(m.group(0)):06d}", v) if isinstance(v, str) else v)
    return out.sort_values(keys, key=natural, kind="stable", na_position="last").reset_index(drop=True)


@tool
def group_summarize(table: pd.DataFrame, keys: list[str], measures: list[dict[str, Any]] | None = None, lang: str = "zh",
                    versus_overall: bool = False, keep_order: bool = False) -> ToolResult:
    """Group by one or more keys and summarise measures (count, sum, mean, min, max, distinct); no measure counts rows.
    Result columns are named in the request's language (lang: zh or en). versus_overall adds, per measure, each
    group's difference from the overall figure and whether it is above it. keep_order keeps the groups in the order
    they first appear (a chart of a table already ordered), instead of sorting them by key."""
    rows = ROWS.get(lang, ROWS["zh"])
    filtered = [m for m in measures or [] if m.get("where")]  # 未处理的有几条: a figure over the rows that meet conditions
    measures = [m for m in measures or [] if m.get("column") and not m.get("where")]  # a bare count is the row count, always included
    _need_columns(table, keys + [m["column"] for m in measures + filtered if m.get("column")] + [c["column"] for m in filtered for c in m["where"]])
    for m in measures:
        if m.get("agg") not in AGGS:
            raise ToolArgError(f"不支持的汇总方式：{m.get('agg')}。", f"Unsupported aggregation: {m.get('agg')}.")
    from tools.stats import total_rows

    own_total = total_rows(table)  # the table's own 总计 row: not added in again, and never a group of its own
    skipped, table = int(own_total.sum()), table[~own_total]
    by = [table[k] for k in keys]
    name = lambda m: where_name(m, lang) if m.get("where") else measure_name(m["column"], m["agg"], lang)  # noqa: E731
    if not keys:
        row = {name(m): _figure(table, m, None, keep_order) for m in measures}
        row[rows] = len(table)
        row.update({name(m): _figure(table, m, None, keep_order) for m in filtered})
        out = pd.DataFrame([row])
    else:
        parts = {name(m): _figure(table, m, by, keep_order) for m in measures}
        parts[rows] = table.groupby(keys, dropna=False, sort=not keep_order).size()
        parts.update({name(m): _figure(table, m, by, keep_order) for m in filtered})
        out = pd.DataFrame(parts).reset_index()
        out = out if keep_order else in_numeral_order(out, keys)
    extra: dict[str, Any] = {}
    if versus_overall and keys and measures:
        overall = {m["column"]: float(as_numbers(table[m["column"]]).mean()) for m in measures if m["agg"] == "mean"}
        extra = versus_overall_columns(out, keys, measures, overall, lang)
    return ToolResult(out, {"rows_in": len(table) + skipped, "rows_out": len(out), "groups": len(out), "skipped_totals": skipped, **extra},
                      {"sample": _sample(out, 20)})


@tool
def deduplicate(table: pd.DataFrame, subset: list[str] | None = None, keep: str = "first", by: str | None = None) -> ToolResult:
    """Drop duplicate rows (whole rows, or rows equal on the given columns). Of each set of duplicates the first row is
    kept, or the last; with `by`, the row with the smallest (keep first) or the largest (keep last: the latest date)
    value of that column, blanks never chosen over a value. The rows kept stay in the table's order."""
    if keep not in ("first", "last"):
        raise ToolArgError(f"不支持的保留方式：{keep}。", f"Unsupported keep: {keep}.")
    if subset:
        _need_columns(table, subset)
    if by is None:
        out = table.drop_duplicates(subset=subset or None, keep=keep).reset_index(drop=True)  # type: ignore[call-overload]
    else:
        _need_columns(table, [by])
        rows = table.reset_index(drop=True)
        order = _ordering(rows[by]).sort_values(kind="stable", na_position="first" if keep == "last" else "last").index
        kept = rows.loc[order].drop_duplicates(subset=subset or None, keep=keep).index  # type: ignore[call-overload]
        out = rows.loc[sorted(kept)].reset_index(drop=True)
    facts = {"rows_in": len(table), "rows_out": len(out), "removed": len(table) - len(out), "keep": keep, **({"by": by} if by else {})}
    return ToolResult(out, facts, {"sample": _sample(out)})


def _ordering(s: pd.Series) -> pd.Series:
    """A column as the values it is ordered by: amounts written as text by their value, dates written as text as dates."""
    if reads_as_numbers(s) or pd.api.types.is_numeric_dtype(s) or pd.api.types.is_datetime64_any_dtype(s):
        return _amounts_as_numbers(s)
    dates = as_dates(s)
    return dates if dates.notna().sum() >= max(1, int(0.8 * s.notna().sum())) else s.astype("string")


@tool
def find_duplicates(table: pd.DataFrame, subset: list[str] | None = None) -> ToolResult:
    """The rows that occur more than once (whole rows, or equal on the given columns), all copies listed."""
    if subset:
        _need_columns(table, subset)
    out = table[table.duplicated(subset=subset or None, keep=False)].reset_index(drop=True)
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out)}, {"sample": _sample(out, 20)})


@tool
def clean(table: pd.DataFrame, trim: bool = True, drop_empty_rows: bool = True, fill: dict[str, Any] | None = None) -> ToolResult:
    """Trim spaces in text, drop rows that are entirely empty, fill blanks in given columns."""
    out = table.copy()
    trimmed = filled = 0
    if trim:
        for c in out.columns:
            s = out[c]
            if s.dtype == object or pd.api.types.is_string_dtype(s):
                stripped = s.map(lambda v: v.strip() if isinstance(v, str) else v)
                trimmed += int((stripped.astype("string") != s.astype("string")).fillna(False).sum())
                out[c] = stripped
    before = len(out)
    if drop_empty_rows:
        blank = pd.concat([_blank_mask(out[c]) for c in out.columns], axis=1).all(axis=1) if len(out.columns) else pd.Series([], dtype=bool)
        out = out[~blank]
    dropped = before - len(out)
    for col, value in (fill or {}).items():
        _need_columns(out, [col])
        mask = _blank_mask(out[col])
        filled += int(mask.sum())
        out[col] = out[col].astype(object).where(~mask, value)
    out = out.reset_index(drop=True)
    facts = {"rows_in": len(table), "rows_out": len(out), "trimmed": trimmed, "dropped_empty": dropped, "filled": filled}
    return ToolResult(out, facts, {"sample": _sample(out)})


@tool
def add_column(table: pd.DataFrame, name: str, left: str, op: str, right: Any, digits: int | None = None) -> ToolResult:
    """Add a column computed from a column and another column or a number (+ - * /), rounded to `digits` decimals when given."""
    check_digits(digits)
    if op not in ("+", "-", "*", "/"):
        raise ToolArgError(f"不支持的运算：{op}。", f"Unsupported operator: {op}.")
    _need_columns(table, [left] + ([right["column"]] if isinstance(right, dict) else []))
    if op == "-" and isinstance(right, dict) and (span := _date_span(table[left], table[right["column"]], name)) is not None:
        out = table.copy()  # closed_at - opened_at: the time between two dates, in the unit the new column's name says
        out[name] = span[0].round(int(digits)) if digits is not None else span[0]
        return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "added": name, "date_unit": span[1]}, {"sample": _sample(out)})
    a = as_numbers(table[left])
    b = as_numbers(table[right["column"]]) if isinstance(right, dict) else float(right)
    out = table.copy()
    val = {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[op]
    places = int(digits) if digits is not None else 4
    out[name] = val.round(places) if hasattr(val, "round") else round(val, places)
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "added": name, **({"digits": int(digits)} if digits is not None else {})},
                      {"sample": _sample(out)})


DATE_UNITS = (("hours", r"hours?|hrs?|小时|时长", 3600.0), ("minutes", r"minutes?|mins?|分钟", 60.0), ("days", r"", 86400.0))


def _date_span(a: pd.Series, b: pd.Series, name: str) -> tuple[pd.Series, str] | None:
    """Two columns of dates (neither one of numbers): a - b as a length of time, in hours or minutes when the new
    column's name says so, else days; None when they are not both dates."""
    if pd.api.types.is_numeric_dtype(a) or pd.api.types.is_numeric_dtype(b):
        return None
    da, db = as_dates(a), as_dates(b)
    if da.notna().sum() < max(1, a.notna().sum() * 0.8) or db.notna().sum() < max(1, b.notna().sum() * 0.8):
        return None
    unit, secs = date_unit(name)
    return ((da - db).dt.total_seconds() / secs).round(4), unit


def date_unit(name: str) -> tuple[str, float]:
    """The unit a new column of times is in: hours or minutes when its name says so, else days (and its seconds)."""
    return next((u, s) for u, words, s in DATE_UNITS if not words or re.search(rf"(?<![a-z])(?:{words})", name, re.I))


def check_digits(digits: int | None) -> None:
    """The decimals a new column is rounded to, when given: 0 to 10."""
    if digits is not None and not 0 <= int(digits) <= 10:
        raise ToolArgError(f"保留的小数位数不合理：{digits}。", f"Unreasonable number of decimals: {digits}.")


# ---------------------------------------------------------------- exploring


@tool
def find_outliers(table: pd.DataFrame, column: str) -> ToolResult:
    """Rows whose value lies outside 1.5 × IQR of a numeric column."""
    _need_columns(table, [column])
    s = as_numbers(table[column])
    if s.notna().sum() < 4:
        raise ToolArgError(f"列“{column}”的数值太少，无法判断异常值。", f"Too few numbers in '{column}' to find outliers.")
    q1, q3 = s.quantile(0.25), s.quantile(0.75)
    lo, hi = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
    out = table[(s < lo) | (s > hi)].reset_index(drop=True)
    facts = {"rows_in": len(table), "rows_out": len(out), "low": _round(lo), "high": _round(hi), "column": column}
    return ToolResult(out, facts, {"sample": _sample(out, 20)})


FLAG_YES = frozenset({"yes", "y", "true", "t", "是", "有", "已"})
FLAG_NO = frozenset({"no", "n", "false", "f", "否", "无", "未"})


@tool
def correlate_columns(table: pd.DataFrame, a: str, b: str) -> ToolResult:
    """Pearson correlation between two columns (dates count as days; a yes/no column counts yes as 1 and no as 0, which
    makes r the point-biserial correlation)."""
    _need_columns(table, [a, b])

    def num(s: pd.Series) -> pd.Series:
        if not pd.api.types.is_numeric_dtype(s):
            held = s.dropna().astype(str).str.strip().str.casefold()
            if len(held) and set(held) <= FLAG_YES | FLAG_NO and set(held) & FLAG_YES and set(held) & FLAG_NO:
                return s.astype("string").str.strip().str.casefold().map(lambda v: 1.0 if v in FLAG_YES else 0.0 if v in FLAG_NO else float("nan"))
        n = as_numbers(s)
        if n.notna().sum() < len(s) / 2:
            d = as_dates(s)
            if d.notna().sum() >= len(s) / 2:
                return (d - d.min()).dt.days.astype(float)
        return n

    x, y = num(table[a]), num(table[b])
    both = x.notna() & y.notna()
    if both.sum() < 3:
        raise ToolArgError("可比较的数值太少，无法计算相关性。", "Too few paired numbers to correlate.")
    r = float(x[both].corr(y[both]))
    out = pd.DataFrame([{"列A": a, "列B": b, "相关系数": round(r, 3), "样本数": int(both.sum())}])
    return ToolResult(out, {"r": round(r, 3), "n": int(both.sum()), "rows_in": len(table), "rows_out": 1}, {"sample": _sample(out)})


@tool
def compare_tables(ws: Workspace, table: pd.DataFrame, other_path: str, other_sheet: str | None = None, columns: list[str] | None = None,
                   cache: TableCache | None = None) -> ToolResult:
    """Compare two tables: rows, shared columns, and count/mean/min/max of shared numeric columns."""
    other = load(ws.resolve(other_path), other_sheet, cache).df
    shared = [c for c in table.columns if c in other.columns]
    if columns:
        _need_columns(table, columns)
        _need_columns(other, columns)
    numeric = [c for c in (columns or shared) if pd.api.types.is_numeric_dtype(table[c]) and pd.api.types.is_numeric_dtype(other[c])]
    rows = [{"指标": "行数", "当前表": len(table), "对比表": len(other)}]
    for c in numeric:
        a, b = pd.to_numeric(table[c], errors="coerce"), pd.to_numeric(other[c], errors="coerce")
        rows.append({"指标": f"{c} 平均", "当前表": _round(a.mean()), "对比表": _round(b.mean())})
        rows.append({"指标": f"{c} 最小", "当前表": _round(a.min()), "对比表": _round(b.min())})
        rows.append({"指标": f"{c} 最大", "当前表": _round(a.max()), "对比表": _round(b.max())})
    out = pd.DataFrame(rows)
    facts = {"rows_in": len(table), "rows_out": len(out), "other_rows": len(other), "shared_columns": [str(c) for c in shared]}
    return ToolResult(out, facts, {"sample": _sample(out, 50)})


@tool
def append_tables(ws: Workspace, table: pd.DataFrame, other_path: str, other_sheet: str | None = None, cache: TableCache | None = None) -> ToolResult:
    """Stack another table with the same columns under this one."""
    other = load(ws.resolve(other_path), other_sheet, cache).df
    missing = [c for c in table.columns if c not in other.columns]
    if missing:
        raise ColumnMissing(f"两张表的列不一致，缺少：{'、'.join(map(str, missing))}。", f"The tables' columns differ: {missing}.")
    out = pd.concat([table, other[list(table.columns)]], ignore_index=True)
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "other_rows": len(other)}, {"sample": _sample(out)})


@tool
def stack_sheets(ws: Workspace, path: str, sheets: list[str], label: str = "工作表", cache: TableCache | None = None) -> ToolResult:
    """The sheets of one workbook that share their columns, stacked into one table, with a column naming each row's sheet."""
    if len(sheets) < 2:
        raise ToolArgError("要合并的工作表至少两个。", "Name at least two sheets to stack.")
    from tools.stats import total_rows

    parts: list[pd.DataFrame] = []
    skipped = 0
    for name in sheets:
        df = load(ws.resolve(path), name, cache).df
        if parts and list(df.columns) != list(parts[0].columns[1:]):
            raise ColumnMissing(f"工作表 {name} 的列和 {sheets[0]} 不一致，不能上下合并。", f"Sheet {name} has other columns than {sheets[0]}.")
        own = total_rows(df)  # each sheet's own 合计 row: stacked, it would sit among the data as one more row
        skipped += int(own.sum())
        df = df[~own]
        parts.append(pd.concat([pd.Series([name] * len(df), name=label, index=df.index), df], axis=1))
    out = pd.concat(parts, ignore_index=True)
    return ToolResult(out, {"rows_in": sum(len(p) for p in parts) + skipped, "rows_out": len(out), "sheets": list(sheets), "skipped_totals": skipped},
                      {"sample": _sample(out)})


@tool
def join_tables(ws: Workspace, table: pd.DataFrame, other_path: str, on: str, other_sheet: str | None = None, cache: TableCache | None = None,
                other_on: str | None = None, how: str = "left", columns: list[str] | None = None, once: bool = False) -> ToolResult:
    """Join another table (or another sheet) on a key column: `how` is left (every row of this table), inner (only
    rows matched on both sides), full (every row of both) or anti (only this table's rows with no match there); `other_on` names the other table's key when it is called
    differently (客户ID ↔ Customer ID); the joined table keeps this table's key only. `columns` brings only those
    columns of the other table (a lookup): a key it repeats with the same values is matched once. `once` keeps only the
    first row of each key of the other table (deduplicated on its key before the join). The facts count the rows of each
    side that found no match."""
    if how not in JOIN_HOW:
        raise ToolArgError(f"不支持的关联方式：{how}（可用 left、inner、full、anti）。", f"Unsupported join: {how} (left, inner, full or anti).")
    other = load(ws.resolve(other_path), other_sheet, cache).df
    rk = other_on or on
    _need_columns(table, [on])
    _need_columns(other, [rk, *(columns or [])])
    other_rows, same_repeats = len(other), 0
    if once:  # 先把车主.csv按车牌去重再对: each key of the other table once, its first row
        other = other.drop_duplicates(subset=[rk], keep="first")
    once_dropped = other_rows - len(other)
    if columns:  # a lookup: the key and the columns asked for; a repeat with the same values is one match, not two
        other = other[list(dict.fromkeys([rk, *columns]))]
        before = len(other)
        other = other.drop_duplicates()
        same_repeats = before - len(other)
    if rk != on:
        other = other.drop(columns=[on], errors="ignore").rename(columns={rk: on})
    as_text = pd.api.types.is_numeric_dtype(table[on]) != pd.api.types.is_numeric_dtype(other[on])
    if as_text:  # 学号 written as numbers in one table and as text in the other: matched by what they say
        table, other = table.assign(**{on: key_text(table[on])}), other.assign(**{on: key_text(other[on])})
    unmatched_left = int((~table[on].isin(other[on])).sum())
    unmatched_right = int((~other[on].isin(table[on])).sum())
    if how == "anti":  # the first table's rows whose key the second never has: its own columns only
        out = table[~table[on].isin(other[on].dropna())].reset_index(drop=True)
    else:
        out = table.merge(other, on=on, how=JOIN_HOW[how], suffixes=("", "_2"))
    counts = other[on].value_counts(dropna=True)
    repeated = counts[(counts > 1) & counts.index.isin(table[on].dropna())]  # a key the other side has twice: its rows double
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "on": on, "other_on": rk, "how": how, "other": other_sheet or Path(other_path).name, "other_rows": other_rows,
                            "unmatched_left": unmatched_left, "unmatched_right": unmatched_right, "keys_as_text": as_text,
                            "repeated_keys": int(len(repeated)), "repeated_sample": [[str(k), int(n)] for k, n in repeated.head(3).items()],
                            "columns": list(columns or []), "same_repeats": same_repeats, "once_dropped": once_dropped},
                      {"sample": _sample(out)})


def key_text(s: pd.Series) -> pd.Series:
    """A join key's values as text: 20240327.0 and " 20240327" both read 20240327; blanks stay blank."""
    def one(v: Any) -> Any:
        if v is None or (isinstance(v, float) and pd.isna(v)):
            return None
        if isinstance(v, float) and v.is_integer():
            return str(int(v))
        return str(v).strip()
    return s.map(one).astype(object)


JOIN_HOW = {"left": "left", "inner": "inner", "full": "outer", "anti": "anti"}  # the join kinds, as pandas names them (anti: rows with no match)


# ---------------------------------------------------------------- writing


def _safety(w: Written) -> dict[str, int]:
    """What was done to cells to make the file safe to open, for the answer to report."""
    return {"inert_cells": w.protected, "cleaned_cells": w.cleaned, "truncated_cells": w.truncated}


@tool
def write_csv(ws: Workspace, table: pd.DataFrame, stem: str) -> ToolResult:
    """Write the table as CSV (UTF-8 with BOM) to a new file in outputs/."""
    w = write_csv_file(ws, table, stem)
    rel = ws.rel(w.path)
    return ToolResult(table, {"path": rel, "rows": len(table), "columns": [str(c) for c in table.columns], **_safety(w)}, {}, [rel])


@tool
def write_report(ws: Workspace, reports: list[tuple[str, pd.DataFrame]], stem: str, about: About | None = None) -> ToolResult:
    """Write the statistics gathered so far to one xlsx, a sheet per report."""
    if not reports:
        raise ToolArgError("还没有可保存的统计结果。", "There are no statistics to save yet.")
    w = write_xlsx_sheets(ws, [(title, df) for title, df in reports], stem, about)
    rel = ws.rel(w.path)
    return ToolResult(None, {"path": rel, "rows": w.rows, "sheets": [t for t, _ in reports], **_safety(w)}, {}, [rel])


@tool
def write_xlsx(ws: Workspace, table: pd.DataFrame, stem: str, sheet: str = "Sheet1", about: About | None = None) -> ToolResult:
    """Write the table as xlsx to a new file in outputs/ (with a 说明 sheet describing the request)."""
    w = write_xlsx_file(ws, table, stem, sheet, about)
    rel = ws.rel(w.path)
    return ToolResult(table, {"path": rel, "rows": len(table), "columns": [str(c) for c in table.columns], **_safety(w)}, {}, [rel])
