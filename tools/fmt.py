"""How figures are shown to a user: thousands separators, 万 / 亿 in Chinese, ratios as percentages."""

from __future__ import annotations

import math
from typing import Any


def plain(v: Any) -> Any:
    """A numpy or pandas scalar as a plain Python value; NaN as None."""
    if v is None:
        return None
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):
        try:
            v = v.item()
        except (ValueError, AttributeError):
            pass
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def rnd(v: Any, digits: int = 4) -> Any:
    """A figure rounded for facts and tables (integers stay integers)."""
    v = plain(v)
    if isinstance(v, float):
        if math.isinf(v):
            return None
        r = round(v, digits)
        return int(r) if r.is_integer() and abs(r) < 1e15 else r
    return v


def num(v: Any, lang: str = "zh", digits: int = 2) -> str:
    """1234567.8 -> '123.46万' (zh) or '1,234,567.8' (en); small figures keep up to `digits` decimals."""
    v = plain(v)
    if v is None:
        return "—" if lang == "zh" else "n/a"
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        return str(v)
    a = abs(v)
    if lang == "zh" and a >= 1e8:
        return f"{_trim(v / 1e8, 2)}亿"
    if lang == "zh" and a >= 1e5:
        return f"{_trim(v / 1e4, 2)}万"
    if isinstance(v, int) or float(v).is_integer():
        return f"{int(v):,}"
    return f"{_trim(v, digits if a >= 1 else max(digits, 4), sep=True)}"


def pct(ratio: Any, digits: int = 2) -> str:
    """0.2345 -> '23.45%'."""
    ratio = plain(ratio)
    if ratio is None:
        return "—"
    return f"{_trim(ratio * 100, digits)}%"


def _trim(v: float, digits: int, sep: bool = False) -> str:
    s = f"{v:,.{digits}f}" if sep else f"{v:.{digits}f}"
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def unit_of(column: str) -> str:
    """The unit written in a column's name: 销售额(元) -> 元, 面积（平方公里） -> 平方公里."""
    for open_, close in (("(", ")"), ("（", "）"), ("[", "]")):
        if column.endswith(close) and open_ in column:
            inner = column[column.rindex(open_) + 1 : -1].strip()
            if 0 < len(inner) <= 6:
                return inner
    return ""
