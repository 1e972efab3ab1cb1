"""Value edits on a copy of the table (the plan saves the copy as a new file; the source is never touched)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from tools.errors import ToolArgError
from tools.fmt import rnd
from tools.ops import _blank_mask, _cond_mask, _need_columns, _sample
from tools.registry import ToolResult, tool
from tools.values import as_numbers

FILL_METHODS = ("mean", "median", "mode", "previous", "next", "zero")


def where(table: pd.DataFrame, conditions: list[dict[str, Any]] | None, logic: str) -> pd.Series:
    """Rows meeting the conditions joined by and/or (every row when there is none)."""
    if not conditions:
        return pd.Series(True, index=table.index)
    masks = [_cond_mask(table, c) for c in conditions]
    mask = masks[0]
    for m in masks[1:]:
        mask = (mask | m) if logic == "or" else (mask & m)
    return mask


def _typed(s: pd.Series, value: Any) -> Any:
    """A new value as a number when the column holds numbers and the value reads as one."""
    if pd.api.types.is_numeric_dtype(s) and isinstance(value, str):
        try:
            f = float(value.replace(",", ""))
            return int(f) if f.is_integer() and pd.api.types.is_integer_dtype(s) else f
        except ValueError:
            return value
    return value


def _assign(s: pd.Series, mask: pd.Series, value: Any) -> pd.Series:
    value = _typed(s, value)
    keep_type = (pd.api.types.is_numeric_dtype(s) and isinstance(value, (int, float)) and not isinstance(value, bool))
    out = s.copy() if keep_type else s.astype(object)
    if keep_type and isinstance(value, float) and pd.api.types.is_integer_dtype(out):
        out = out.astype(float)
    out[mask] = value
    return out


@tool
def replace_values(table: pd.DataFrame, column: str, value: Any, conditions: list[dict[str, Any]] | None = None,
                   old: Any = None, logic: str = "and") -> ToolResult:
    """Set a column to a new value where the conditions hold (or where it equals `old`); other rows are unchanged."""
    _need_columns(table, [column])
    mask = where(table, conditions, logic)
    if old is not None:
        mask = mask & _cond_mask(table, {"column": column, "op": "eq", "value": old})
    if conditions is None and old is None:
        raise ToolArgError("要改哪些行？请给出条件（例如“城市是上海的”）或要替换的原值。",
                           "Which rows? Give a condition or the old value to replace.")
    changed = int(mask.sum())
    if not changed:
        _nothing_matched(table, column, old, conditions)
    out = table.copy()
    out[column] = _assign(table[column], mask, value)
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "changed": changed, "column": column, "value": rnd(value)},
                      {"sample": _sample(out[mask] if changed else out)})


def _nothing_matched(table: pd.DataFrame, column: str, old: Any, conditions: list[dict[str, Any]] | None) -> None:
    """An edit that would change no row is refused, naming the closest values the column does hold."""
    import difflib

    wanted = [(column, old)] if old is not None else [(c["column"], c.get("value")) for c in conditions or [] if c.get("op") == "eq"]
    zh, en = [], []
    for col, v in wanted:
        if col not in table.columns or v is None:
            continue
        held = table[col].dropna().astype(str).str.strip().unique()[:2000].tolist()
        close = difflib.get_close_matches(str(v), held, n=3, cutoff=0.3)
        zh.append(f"列“{col}”里没有“{v}”" + (f"（最接近：{'、'.join(close)}）" if close else ""))
        en.append(f"'{v}' is not in column '{col}'" + (f" (closest: {', '.join(close)})" if close else ""))
    raise ToolArgError(("；".join(zh) or "没有任何行满足条件") + "，所以一行也没有改，也没有保存新文件。",
                       ("; ".join(en) or "No row matches the condition") + ", so nothing was changed and no file was written.")


@tool
def map_values(table: pd.DataFrame, column: str, mapping: dict[str, Any]) -> ToolResult:
    """Replace values of a column by a mapping (old -> new); values not in the mapping stay as they are."""
    _need_columns(table, [column])
    if not mapping:
        raise ToolArgError("没有给出要替换的值。", "No values to map.")
    text = table[column].astype("string").str.strip()
    keys = {str(k).strip(): v for k, v in mapping.items()}
    hit = text.isin(list(keys)).fillna(False).astype(bool)
    absent = [k for k in keys if not (text == k).any()]
    out = table.copy()
    new = table[column].astype(object).copy()
    new[hit] = text[hit].map(keys)
    out[column] = new
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in new.dropna()):
        out[column] = pd.to_numeric(new)
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "changed": int(hit.sum()), "column": column, "absent": absent},
                      {"sample": _sample(out[hit] if hit.any() else out)})


@tool
def fill_blanks(table: pd.DataFrame, columns: list[str], value: Any = None, method: str | None = None) -> ToolResult:
    """Fill blank cells of columns with a value or by a method (mean, median, mode, previous, next, zero)."""
    _need_columns(table, columns)
    if (value is None) == (method is None):
        raise ToolArgError("请给出填充的值，或填充方式（平均值、中位数、众数、上一行、下一行、0）之一。",
                           "Give either a fill value or a method (mean, median, mode, previous, next, zero).")
    if method is not None and method not in FILL_METHODS:
        raise ToolArgError(f"不支持的填充方式：{method}。", f"Unsupported fill method: {method}.")
    out = table.copy()
    filled: dict[str, int] = {}
    used: dict[str, Any] = {}
    for c in columns:
        blank = _blank_mask(table[c])
        if method in ("previous", "next"):
            s = table[c].mask(blank)
            new = s.ffill() if method == "previous" else s.bfill()
            filled[c] = int((blank & new.notna()).sum())
            out[c] = new
            continue
        if method in ("mean", "median"):
            x = as_numbers(table[c])
            if x.notna().sum() == 0:
                raise ToolArgError(f"列“{c}”里没有数字，无法用{'平均值' if method == 'mean' else '中位数'}填充。",
                                   f"Column '{c}' holds no numbers to take the {method} of.")
            fill: Any = rnd(getattr(x, method)())
        elif method == "mode":
            m = table[c].mask(blank).dropna().mode()
            fill = rnd(m.iloc[0]) if len(m) else None
        elif method == "zero":
            fill = 0
        else:
            fill = value
        used[c] = fill
        out[c] = _assign(table[c], blank, fill) if fill is not None else table[c]
        filled[c] = int(blank.sum()) if fill is not None else 0
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "filled": sum(filled.values()), "per_column": filled,
                            "fill_values": used, "method": method}, {"sample": _sample(out)})


@tool
def delete_rows(table: pd.DataFrame, conditions: list[dict[str, Any]], logic: str = "and") -> ToolResult:
    """Remove the rows where the conditions hold; every other row is kept in its order."""
    if not conditions:
        raise ToolArgError("要删除哪些行？请给出条件。", "Delete which rows? Give a condition.")
    mask = where(table, conditions, logic)
    out = table[~mask].reset_index(drop=True)
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "removed": int(mask.sum())}, {"sample": _sample(table[mask])})
