"""Text normalisation, numbers in Chinese and English, and the user's language."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from contextvars import ContextVar

from modes.lazyre import lazy

CJK = re.compile(r"[\u4e00-\u9fff]")
_ZH_GRAMMAR = lazy(r"[我你的了吗呢把帮请按给是在都要就这那个吧啊呀哦么里下]")
# English words that hold a sentence together: two of them around Chinese names make the sentence English
_EN_GLUE = frozenset({"in", "on", "of", "for", "by", "the", "an", "and", "or", "with", "where", "from", "to", "per", "each",
                      "what", "which", "how", "is", "are", "me", "show", "whose", "than", "as", "into", "only", "all"})
_PUNCT = str.maketrans({"。": ",", "；": ";", "！": "!", "？": "?", "“": '"', "”": '"', "‘": "'", "’": "'", "【": "[", "】": "]", "《": "", "》": ""})


def normalize(text: str) -> str:
    """Full-width to half-width, Chinese sentence punctuation to ASCII, spaces collapsed."""
    t = unicodedata.normalize("NFKC", text).translate(_PUNCT)
    return re.sub(r"\s+", " ", t).strip()


def fold(text: str) -> str:
    return normalize(text).casefold()


# The session's language: the one it has spoken so far (a line of no language, such as "3" or a formula, keeps it),
# and the one /lang fixed (every line is answered in it). Set by the session around each turn.
SESSION_LANG: ContextVar[str | None] = ContextVar("session_lang", default=None)
FIXED_LANG: ContextVar[str | None] = ContextVar("fixed_lang", default=None)
_FORMULA = re.compile(r"=?\b[A-Z][A-Z0-9.]*\([^()]*\)|\$?\b[A-Z]{1,3}\$?\d+\b(?::\$?[A-Z]{1,3}\$?\d+)?|\b[A-Z]{1,3}:[A-Z]{1,3}\b")


def language(text: str) -> str:
    """'en' when the user writes English (a few Chinese column names do not change that), else 'zh'. A line with
    no words of either (a number, a date, a spreadsheet formula or cell reference) is in the session's language."""
    fixed = FIXED_LANG.get()
    if fixed is not None:
        return fixed
    t = re.sub(r"[\w\u4e00-\u9fff.-]+\.(xlsx|xlsm|xls|csv|ods|tsv|txt)", " ", text)
    t = re.sub(r"[\w\u4e00-\u9fff]*_[\w\u4e00-\u9fff]*", " ", t)
    t = _FORMULA.sub(" ", t)
    cjk = len(CJK.findall(t))
    latin = len(re.findall(r"[A-Za-z]", t))
    if cjk == 0:
        return "en" if latin else SESSION_LANG.get() or "zh"
    first = re.search(r"[A-Za-z\u4e00-\u9fff]", t)
    words = re.findall(r"[A-Za-z]{2,}", t)
    runs = re.findall(r"[\u4e00-\u9fff]+", t)
    if (first and not CJK.match(first.group(0)) and len(words) >= 3 and len(words) >= len(runs) and max(map(len, runs)) <= 8
            and sum(w.casefold() in _EN_GLUE for w in words) >= 2):
        return "en"  # in 销售台账.xlsx, total 销售额 by 城市 for the 下半年 sheet: English around the data's own names
    if _ZH_GRAMMAR.search(t):
        return "zh"
    if first and CJK.match(first.group(0)):
        return "zh"  # 分析 ../data/x: a Chinese verb leads
    return "en" if len(re.findall(r"[A-Za-z]{2,}", t)) >= 2 else "zh"


_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}
NUMBER_RE = lazy(
    r"(?P<num>-?\d[\d,]*(?:\.\d+)?|[零〇一二两三四五六七八九十百千万亿]+(?:点[零〇一二三四五六七八九]+)?)"
    r"\s*(?P<unit>万|亿|千|百|k\b|K\b|w\b|W\b|%|％)?"
)


def chinese_int(s: str) -> int | None:
    """三万五千 -> 35000; 十二 -> 12; 两千 -> 2000."""
    if not s or any(ch not in _DIGITS and ch not in _UNITS for ch in s):
        return None
    total, section, digit = 0, 0, 0
    for ch in s:
        if ch in _DIGITS:
            digit = _DIGITS[ch]
        else:
            unit = _UNITS[ch]
            if unit >= 10_000:
                section = (section + digit) * unit
                total += section
                section = 0
            else:
                section += (digit or 1) * unit
            digit = 0
    return total + section + digit


EN_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                   "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20}


def parse_number(text: str) -> float | None:
    """A number written as 30000, 3万, 1.5万, 三万, 两千, 10k, 1,234, 30% or a small English number word (three)."""
    if (word := EN_NUMBER_WORDS.get(text.strip().casefold())) is not None:
        return float(word)
    m = NUMBER_RE.fullmatch(text.strip())
    if not m:
        return None
    return _number(m)


def _number(m: re.Match[str]) -> float | None:
    raw, unit = m.group("num"), m.group("unit")
    if raw[0].isdigit() or raw[0] == "-":
        try:
            val = float(raw.replace(",", ""))
        except ValueError:
            return None
    elif "点" in raw:
        whole, frac = raw.split("点", 1)
        iv = chinese_int(whole) if whole else 0
        if iv is None:
            return None
        val = float(f"{iv}.{''.join(str(_DIGITS[c]) for c in frac)}")
    else:
        iv = chinese_int(raw)
        if iv is None:
            return None
        val = float(iv)
    mult = {"万": 1e4, "w": 1e4, "W": 1e4, "亿": 1e8, "千": 1e3, "k": 1e3, "K": 1e3, "百": 100, "%": 0.01, "％": 0.01}.get(unit or "", 1)
    return val * mult


def tidy(v: float) -> int | float:
    return int(v) if float(v).is_integer() else v


def edit_distance(a: str, b: str, limit: int = 3) -> int:
    """Edit distance where swapping two neighbours counts as one edit (emial -> email)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[-1][-1]


def blank(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """The text with the given spans turned to spaces, so positions stay where they were."""
    chars = list(text)
    for s, e in spans:
        for i in range(max(0, s), min(len(chars), e)):
            chars[i] = " "
    return "".join(chars)
