"""A result table in the session's language: the headers and labels wenqing wrote, in English for an English
session (the words are data, in english.toml); the user's own headers and values are never changed."""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

_CJK = re.compile(r"[\u3400-\u9fff]")


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    return tomllib.loads((Path(__file__).parent / "english.toml").read_text(encoding="utf-8"))


def _words() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    data = _data()
    return dict(data["headers"]), dict(data["values"]), dict(data["suffixes"])


def done_en(text: str, tool: str | None = None) -> str:
    """When a plan step is done (筛选完成 → rows filtered); a text not listed is said with its tool."""
    said = _data()["done"].get(text.removeprefix("doneWhen: ").strip())
    if said:
        return said
    return f"{tool.replace('_', ' ')} done" if tool else ("step done" if _CJK.search(text) else text)


def reasons_en(text: str) -> str:
    """Why a mode and a tier were chosen, in English; the parts are joined with "；" or "; " when there are several."""
    reasons = _data()["reasons"]
    parts = [p.strip() for p in re.split(r"[；;]", text) if p.strip()]
    return "; ".join(reasons.get(p, p if not _CJK.search(p) else "chosen by the mode table") for p in parts)


def action_en(tool: str) -> str:
    """A plan step's action in English: its tool, in words (the action itself is written in Chinese)."""
    return tool.replace("_", " ")


def header_en(name: str) -> str:
    """金额_合计 → 金额_total, 星期 → weekday; a header with no listed word is kept."""
    headers, _, suffixes = _words()
    if name in headers:
        return headers[name]
    head, sep, word = name.rpartition("_")
    if sep and (word in suffixes or word in headers):
        return f"{header_en(head)}_{suffixes.get(word) or headers[word]}"  # 金额_合计_累计: every word wenqing added
    return name


def value_en(v: Any) -> Any:
    """A label wenqing wrote into a cell (周一, 合计), in English; a list it wrote (Laptop(45)、Phone(40)) with English
    separators; anything else as it is."""
    if not isinstance(v, str):
        return v
    said = _words()[1].get(v)
    if said:
        return said
    head, sep, word = v.rpartition(" ")  # Fee 平均: a column's figure wenqing named, its statistic in English
    if sep and word in _words()[2]:
        return f"{head} {_words()[2][word]}"
    return v.replace("、", ", ")


def english_names(columns: Any, own: set[str]) -> dict[str, str]:
    """wenqing's own headers among `columns` and their English names; the user's headers (`own`) are never renamed."""
    names = {c: header_en(c) for c in columns if isinstance(c, str) and c not in own and _CJK.search(c)}
    return {c: e for c, e in names.items() if e != c}


def table_en(df: pd.DataFrame, own: set[str]) -> pd.DataFrame:
    """The table with wenqing's headers and labels in English; `own` are the headers of the user's data, kept."""
    if df is None or not hasattr(df, "columns"):
        return df
    names = english_names(df.columns, own)
    pivot = _total_row(df)  # a pivot's margins: the total row it adds is labelled in the session's language
    if not names and not pivot:
        return df
    out = df.rename(columns=names)
    for c in names.values():
        if out[c].dtype.kind not in "biufcmM":  # a label column wenqing made: its labels too
            out[c] = out[c].map(value_en).astype(out[c].dtype if out[c].dtype.kind == "O" else object)
    if pivot:
        first = out.columns[0]
        out[first] = out[first].astype(object)
        out.iloc[-1, 0] = value_en(out.iloc[-1, 0])
    return out


def _total_row(df: pd.DataFrame) -> bool:
    """A last row whose first cell says 合计 (or 总计)."""
    return len(df) > 0 and len(df.columns) > 0 and isinstance(df.iloc[-1, 0], str) and df.iloc[-1, 0] in ("合计", "总计")
