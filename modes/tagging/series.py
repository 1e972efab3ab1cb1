"""A chart's series key: the column whose values each get a line or a bar of their own.

按城市分系列 / 每个城市一条线 / 维修类型分成多条线 / one line per carrier / split by carrier / carrier as the series: a column
span with a marker word right after it or right before it (the words are data: words.toml, [chart_series]). Only a chart
reads it; the key then never becomes the chart's categories or a condition.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from modes.tagging.segment import words_toml


def _longest_first(words: Iterable[str]) -> tuple[str, ...]:
    """The words once each, longest first, in the order written among words of one length."""
    return tuple(sorted(dict.fromkeys(w.casefold() for w in words), key=len, reverse=True))


@cache
def _words() -> dict[str, tuple[str, ...]]:
    """The marker words of each place (after / before / lead), both languages in one list, longest first."""
    d = words_toml()["chart_series"]
    return {place: _longest_first((*d[f"{place}_zh"], *d[f"{place}_en"])) for place in ("after", "before", "lead")}


@cache
def _flip_words() -> tuple[str, ...]:
    data = words_toml()["layout_flip"]
    return _longest_first((*data["zh"], *data["en"]))


def _latin(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch == "_")


def _ends_with(low: str, end: int, words: tuple[str, ...]) -> int | None:
    """Where a marker word ending at `end` (spaces before `end` skipped) starts, or None."""
    i = end
    while i > 0 and low[i - 1] in " \t":
        i -= 1
    for w in words:
        s = i - len(w)
        if s >= 0 and low[s:i] == w and not (s > 0 and _latin(w[0]) and _latin(low[s - 1])):
            return s
    return None


def _starts_with(low: str, start: int, words: tuple[str, ...]) -> int | None:
    """Where a marker word starting at `start` (spaces after `start` skipped) ends, or None."""
    i = start
    while i < len(low) and low[i] in " \t":
        i += 1
    for w in words:
        e = i + len(w)
        if low[i:e] == w and not (e < len(low) and _latin(w[-1]) and _latin(low[e])):
            return e
    return None


def series_key(text: str, hits: list[Any]) -> tuple[str | None, list[tuple[int, int]]]:
    """The column said as the chart's series (one per value) and the spans its words occupy; (None, []) when none is."""
    low = text.casefold()
    w = _words()
    if not any(x in low for x in (*w["after"], *w["before"])):
        return None, []  # no series word at all: most requests
    for h in hits:
        end = _starts_with(low, h.end, w["after"])
        start = _ends_with(low, h.start, w["before"])
        if end is None and start is None:
            continue
        s = start if start is not None else h.start
        lead = _ends_with(low, s, w["lead"])
        return h.column, [(lead if lead is not None else s, end if end is not None else h.end)]
    return None, []


def flipped(text: str) -> tuple[int, int] | None:
    """The span of words that turn a layout the other way round (反过来 / 行和列对调 / the other way round), or None."""
    low = text.casefold()
    for w in _flip_words():
        i = low.find(w)
        if i >= 0 and not (_latin(w[0]) and i > 0 and _latin(low[i - 1])) and not (_latin(w[-1]) and i + len(w) < len(low) and _latin(low[i + len(w)])):
            return i, i + len(w)
    return None
