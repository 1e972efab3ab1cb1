"""Spans of a request that add nothing to its query: a trailing clause saying whom or what the result is for, and the
noun a filter's rows are called by. Read as spans over the text (clauses, then words); the words are data (words.toml)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from modes.lazyre import lazy
from modes.tagging.segment import words_toml

CLAUSE_END = lazy(r"[，,。；;！!？?]|\s[—–-]+\s|[—–]{1,2}|：|:\s")
LATIN = lazy(r"[A-Za-z][A-Za-z'’_-]*")
DIGIT = lazy(r"\d|[一二两三四五六七八九十百千万]+\s*(?:个|条|行|名|天|月|年|家|位)")


@dataclass(frozen=True)
class AsideWords:
    markers_zh: tuple[str, ...]
    markers_en: tuple[str, ...]
    take_zh: frozenset[str]
    nouns_en: frozenset[str]


@cache
def aside_words() -> AsideWords:
    d = words_toml()
    a, r = d["aside"], d["rows"]
    return AsideWords(tuple(a["markers_zh"]), tuple(a["markers_en"]), frozenset(r["take_zh"]), frozenset(r["nouns_en"]))


def clauses(text: str) -> list[tuple[int, int]]:
    """The clauses of a text, as spans between the marks that end them."""
    out, at = [], 0
    for m in CLAUSE_END.finditer(text):
        if m.start() > at:
            out.append((at, m.start()))
        at = m.end()
    if at < len(text):
        out.append((at, len(text)))
    return [(a, b) for a, b in out if text[a:b].strip()]


def _overlaps(a: int, b: int, spans: Iterable[tuple[int, int]]) -> bool:
    return any(x < b and a < y for x, y in spans)


def _has_data(piece: str, data: frozenset[str] | None) -> bool:
    low = piece.casefold()
    return data is not None and any(len(w) >= 2 and w.casefold() in low for w in data if w)


def _marked(piece: str) -> bool:
    w = aside_words()
    low = piece.strip().casefold()
    if any(m in piece for m in w.markers_zh):
        return True
    return any(re.match(re.escape(m) + r"(?![a-z_])", low) for m in w.markers_en)


@cache
def _period_event() -> re.Pattern[str]:
    d = words_toml()["period_event"]

    def alt(words: list[str]) -> str:
        return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))

    en = (rf"(?<![a-z_])(?:{alt(d['adjectives_en'])})[\s-]+(?:(?:{alt(d['between_en'])})\s+)?(?:{alt(d['nouns_en'])})(?![a-z_])")
    return re.compile(rf"{en}|(?:{alt(d['period_zh'])})\s*(?:{alt(d['nouns_zh'])})", re.I)


def period_events(text: str) -> list[tuple[int, int]]:
    """A period word naming an occasion (weekly review, monthly report, 每周例会): what the result is for, not a bucket."""
    return [m.span() for m in _period_event().finditer(text)]


NOT_THE_ROWS = re.compile(r"\s*(?:而)?(?:不是|不要|不用|不需要|别)(?:列|给我|看)?(?:明细|每一行|每行|清单)(?:了|啦)?\s*[。.!！]?\s*"
                         r"|\s*(?:and\s+)?not\s+(?:the\s+)?(?:rows|detail|details|every row|each row|a list)\s*[.!]?\s*", re.I)


def purpose_clauses(text: str, consumed: list[tuple[int, int]], operative: re.Pattern[str], data: frozenset[str] | None) -> list[tuple[int, int]]:
    """Trailing clauses (never the first) and a trailing English "for …" phrase that say what the result is for: no span
    a rule read, no data word, no figure, no operation word, and a marker of purpose."""
    out: list[tuple[int, int]] = []
    parts = clauses(text)
    plain = text  # the period of an occasion (weekly review) is no operation word
    for x, y in period_events(text):
        plain = plain[:x] + " " * (y - x) + plain[y:]
    for a, b in parts[1:]:
        piece = text[a:b]
        if NOT_THE_ROWS.fullmatch(piece) and not _overlaps(a, b, consumed):
            out.append((a, b))  # …的合计金额，不是明细: the rows themselves are not what is wanted (the figure is)
            continue
        if not _marked(piece) or _overlaps(a, b, consumed) or DIGIT.search(piece) or operative.search(plain[a:b]) or _has_data(piece, data):
            continue
        out.append((a, b))
    if parts:  # … as csv for the accountant: a "for" phrase closing the first clause
        a, b = parts[0]
        m = re.search(r"(?<![A-Za-z])for\s+(?:the|my|our|a|an|his|her|their|[A-Za-z]+['’]s)\s+[A-Za-z'’ -]{2,40}$", text[a:b], re.I)
        if m is not None:
            s, e = a + m.start(), b
            piece = text[s:e]
            named = [t for t in LATIN.findall(piece) if t[:1].isupper() and not re.search(r"['’]s$", t)]  # the North region
            if not (named or _overlaps(s, e, consumed) or operative.search(plain[s + 3 : e]) or _has_data(piece, data)):
                out.append((s, e))
    return out


# a column that numbers the rows by what they are (Deal ID, order_no, Ticket #): its first word names the rows
ID_HEAD = re.compile(r"(?P<w>[A-Za-z]{3,}|[A-Z]{2})[\s_\-]*(?:id|no\.?|number|num|#|code|ref)", re.I)  # (PO Number: POs)


def row_nouns_en(text: str, consumed: list[tuple[int, int]], data: frozenset[str] | None) -> list[tuple[int, int]]:
    """English words that name the rows: the lexicon's (everyone, folks…), and a plural noun right after a span a rule
    read (Diesel refuels, completed trainings) that closes the phrase."""
    w = aside_words()
    out: list[tuple[int, int]] = []
    ends = sorted({b for _, b in consumed})
    folded: set[str] | None = None
    heads = {m.group("w").casefold() for d in data or () if (m := ID_HEAD.fullmatch(d)) is not None}
    for m in LATIN.finditer(text):
        word = m.group(0).casefold()
        plural = len(word) >= 4 and word.endswith("s") and not word.endswith("ss")
        if heads and (word in heads or (plural or len(word) == 3 and word.endswith("s")) and (word[:-1] in heads or word.endswith("es") and word[:-2] in heads)):
            out.append(m.span())  # how many deals …, over a Deal ID column: what each row is
            continue
        if word not in w.nouns_en and not plural:
            continue
        if data:
            folded = folded if folded is not None else {d.casefold() for d in data}
            if word in folded:
                continue
        if word in w.nouns_en:
            out.append(m.span())
            continue
        if plural and any(text[e : m.start()].strip() == "" for e in ends if e <= m.start()):
            after = text[m.end():]
            if re.match(r"\s*(?:$|[,.;:!?，。；]|(?:in|from|of|with|that|who|which|where|for|only|please)(?![a-z_]))", after, re.I):
                out.append(m.span())
    return out
