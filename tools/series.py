"""Recognising the columns of a wide table that form one series of years, months or quarters (no pandas needed)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

YEAR = re.compile(r"^\s*((?:19|20|21)\d\d)\s*(?:年(?:度|末|底|初)?)?\s*$")
MONTH = re.compile(r"^\s*(1[0-2]|0?[1-9])\s*月(?:份)?\s*$")
MONTH_EN = {m: i + 1 for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}
QUARTER = re.compile(r"^\s*(?:第?([一二三四1-4])季度|Q([1-4]))\s*$", re.I)
YEAR_MONTH = re.compile(r"^\s*((?:19|20|21)\d\d)\s*[年\-/.]\s*(1[0-2]|0?[1-9])\s*月?(?:份)?\s*$")
YEAR_QUARTER = re.compile(r"^\s*((?:19|20|21)\d\d)\s*年?\s*(?:第)?\s*([一二三四1-4])\s*季度\s*$|^\s*((?:19|20|21)\d\d)\s*Q([1-4])\s*$", re.I)
ZH_Q = {"一": 1, "二": 2, "三": 3, "四": 4}


@dataclass(frozen=True)
class Series:
    """The columns of a wide table that form one series, in order, and the kind of period they name."""

    columns: tuple[str, ...]
    periods: tuple[int, ...]
    kind: str  # year | month | quarter

    def label(self, i: int) -> str:
        return self.columns[i]


def detect_series(columns: list[Any]) -> Series | None:
    """Year, month or quarter columns (2015年 … / 1月 … 12月 / Jan … Dec / Q1 … Q4) that form one series; at least 3."""
    found: dict[str, list[tuple[int, str]]] = {"year": [], "month": [], "quarter": []}
    for c in columns:
        t = str(c)
        if m := YEAR_MONTH.match(t):  # 2024年3月: a month of a given year
            found["month"].append((int(m.group(1)) * 12 + int(m.group(2)) - 1, t))
        elif m := YEAR_QUARTER.match(t):
            q = m.group(2) or m.group(4)
            found["quarter"].append((int(m.group(1) or m.group(3)) * 4 + (ZH_Q.get(q) or int(q)) - 1, t))
        elif m := YEAR.match(t):
            found["year"].append((int(m.group(1)), t))
        elif m := MONTH.match(t):
            found["month"].append((int(m.group(1)), t))
        elif t.strip()[:3].casefold() in MONTH_EN and len(t.strip()) <= 9 and t.strip().isalpha():
            found["month"].append((MONTH_EN[t.strip()[:3].casefold()], t))
        elif m := QUARTER.match(t):
            q = m.group(1) or m.group(2)
            found["quarter"].append((ZH_Q.get(q) or int(q), t))
    kind, items = max(found.items(), key=lambda kv: len(kv[1]))
    if len(items) < 3 or len({p for p, _ in items}) < len(items):
        return None
    items.sort()
    return Series(tuple(c for _, c in items), tuple(p for p, _ in items), kind)
