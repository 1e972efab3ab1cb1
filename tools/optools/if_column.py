"""The tool of the IF-column operation: a new column holding one label where a condition holds and another elsewhere."""

from __future__ import annotations

from typing import Any

import pandas as pd

from tools.errors import ToolArgError
from tools.ops import _need_columns, _sample
from tools.registry import ToolResult, tool
from tools.values import as_numbers

COMPARE = {"gt": "__gt__", "ge": "__ge__", "lt": "__lt__", "le": "__le__", "eq": "__eq__", "ne": "__ne__"}


@tool
def if_column(table: pd.DataFrame, name: str, column: str, op: str, value: float, then: str, otherwise: str) -> ToolResult:
    """Add column `name`: `then` on the rows where `column` `op` `value` holds (gt, ge, lt, le, eq, ne), `otherwise`
    on the others; a row whose value is blank or not a number gets neither (left blank, and counted)."""
    if op not in COMPARE:
        raise ToolArgError(f"不支持的比较：{op}。", f"Unsupported comparison: {op}.")
    _need_columns(table, [column])
    if not name.strip():
        raise ToolArgError("新列需要一个名字。", "The new column needs a name.")
    if name in table.columns:
        raise ToolArgError(f"表里已经有“{name}”这一列，请给新列换个名字。", f"The table already has a column {name}; name the new one differently.")
    numbers = as_numbers(table[column])
    known = numbers.notna()
    holds = getattr(numbers, COMPARE[op])(float(value)) & known
    out = table.copy()
    labels: pd.Series[Any] = pd.Series(pd.NA, index=table.index, dtype="object")
    labels[holds] = then
    labels[known & ~holds] = otherwise
    out[name] = labels
    facts = {"added": name, "column": column, "op": op, "value": value, "then": then, "otherwise": otherwise, "rows_out": len(out),
             "then_rows": int(holds.sum()), "otherwise_rows": int((known & ~holds).sum()), "blank_rows": int((~known).sum())}
    return ToolResult(out, facts, {"sample": _sample(out)})
