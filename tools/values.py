"""How cells written as text read as numbers, dates and times ("1,234.50", "¥1,234", "12.5万", "2025年3月4日",
"2025/3/4", "18:30"), and what a step read that way.

Tools compare and compute through `as_numbers`, `as_dates` and `as_times`; the table itself keeps the text as written
(a filter's output shows "591,323.86", not 591323.86). Each conversion of text, and each value left unread in a column
that otherwise reads, is recorded while a step runs (`reading_notes`), so the answer can say "合同金额 按数字读取" and
name the rows that did not convert instead of dropping them silently.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

# a number as people write it in a cell: sign or accounting brackets, currency, thousands separators, a unit
NUMBER_TEXT = (r"^\s*(?P<neg>[-−－(（])?\s*(?:[¥￥$€£]|RMB|CNY|USD)?\s*(?P<neg2>[-−－])?\s*"
               r"(?P<num>\d{1,3}(?:[,，]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)\s*(?P<unit>亿|万|千)?\s*(?:元|块|RMB|CNY|平方米|平米|平|㎡|盒|箱|瓶|袋|支|件|台|公斤|斤|吨|kg|小时|分钟|分|星|天|杯|次|公里|km|hrs?|mins?)?\s*(?P<pct>[%％])?\s*[)）]?\s*$")
UNITS = {"亿": 1e8, "万": 1e4, "千": 1e3}
# dates as written in Chinese or with slashes and dots; what pandas reads directly (ISO) needs no rewriting
CJK_DATE = r"^\s*(\d{4})\s*[年./]\s*(\d{1,2})\s*[月./]\s*(\d{1,2})\s*[日号]?"
TIME_TEXT = r"^\s*([01]?\d|2[0-3])\s*[:：]\s*([0-5]\d)(?:\s*[:：]\s*([0-5]\d))?\s*$"
DECORATION = r"[,，¥￥$€£万亿千元()（）%％]|平|㎡|盒|箱|瓶|袋|支|件|台|斤|吨|kg|小时|分钟|分|星|天|杯|次|公里|km|hrs?|mins?"  # what marks a number written as text: separators, currency, units, brackets
CODE = r"^0\d"  # digits with a leading zero: a code
ID_NAME = re.compile(r"(?i)(?:^|_|\b)(?:id|no|code|phone|tel|mobile|zip|postcode|sku|number)(?:$|_|\b)|编号|号码|代码|工号|学号|单号|电话|手机|邮编|身份证")
# a column whose name says it holds a figure (score, amount, 金额, 成绩…): its digits typed as text are numbers
MEASURE_NAME = re.compile(r"(?i)score|amount|price|cost|total|sales|revenue|qty|quantity|minutes|hours|age|salary|金额|成绩|分数|得分|数量|价格|单价|费用|销售额|收入|工资|薪|时长|年龄")
# a figure said to be rough (约30, 大概200, ~15, approx. 40): no exact number, a mark left out and said like 待定
APPROX = re.compile(r"^(?:约|大约|大概|估计|预计|~|～|≈|about|approx\.?|around|c\.)\s*\d")
MOSTLY = 0.8  # a column reads as numbers / dates when this share of its filled cells does
SAMPLE = 2000  # what a column's kind is judged on


@dataclass
class Reading:
    """What one column read as: how many text cells converted, and the filled cells that did not."""

    column: str
    kind: str  # "number" | "date" | "time"
    converted: int = 0
    unread: int = 0
    examples: list[str] = field(default_factory=list)


_READINGS: ContextVar[dict[tuple[str, str], Reading] | None] = ContextVar("wenqing_readings", default=None)


@contextmanager
def recording() -> Iterator[dict[tuple[str, str], Reading]]:
    """Collect the readings of text made inside this block (one step of a plan)."""
    found: dict[tuple[str, str], Reading] = {}
    token = _READINGS.set(found)
    try:
        yield found
    finally:
        _READINGS.reset(token)


MEMO_ROWS = 50_000  # a column at least this long is read once per session while its values stay the same
_MEMO: dict[tuple[Any, ...], tuple[Any, list[Reading]]] = {}
_MEMO_KEEP = 8


def remembered(kind: str, s: pd.Series, read: Callable[[], pd.Series]) -> pd.Series:
    """`read()` (a column read as dates, numbers…) worked out once for a long column: the same values in the same order
    read the same way, so a later request over the same table reuses the reading (and says what it noted again)."""
    import pandas as pd

    if len(s) < MEMO_ROWS:
        return read()
    key = (kind, str(s.name), len(s), str(s.dtype), int(pd.util.hash_pandas_object(s, index=False).sum()))
    hit = _MEMO.get(key)
    if hit is None:
        with recording() as found:
            out = read()
        hit = (out.to_numpy(copy=True), [replace(r, examples=list(r.examples)) for r in found.values()])
        if len(_MEMO) >= _MEMO_KEEP:
            _MEMO.pop(next(iter(_MEMO)))
        _MEMO[key] = hit
    outer = _READINGS.get()
    for r in hit[1]:
        if outer is not None:
            mine = outer.setdefault((r.column, r.kind), Reading(r.column, r.kind))
            mine.converted = max(mine.converted, r.converted)
            if r.unread >= mine.unread:
                mine.unread, mine.examples = r.unread, list(r.examples)
    return pd.Series(hit[0].copy(), index=s.index, name=s.name)


def _record(s: pd.Series, kind: str, converted: int, unread: pd.Series) -> None:
    found = _READINGS.get()
    if found is None or s.name is None or (not converted and not len(unread)):
        return
    r = found.setdefault((str(s.name), kind), Reading(str(s.name), kind))
    r.converted = max(r.converted, converted)
    if len(unread) >= r.unread:
        r.unread = len(unread)
        r.examples = list(dict.fromkeys(str(v).strip() for v in unread))[:3]


def _filled_text(s: pd.Series) -> pd.Series:
    t = s.astype("string").str.strip()
    return t[t.notna() & (t != "")]


def as_numbers(s: pd.Series) -> pd.Series:
    """A column as numbers (float where text was read): plain numbers as pandas reads them, and text such as
    "1,234.50", "¥1,234", "(300)", "12.5万" converted. Anything else is missing (and recorded when the column reads)."""
    import pandas as pd

    if pd.api.types.is_bool_dtype(s):
        return pd.to_numeric(s, errors="coerce")
    if pd.api.types.is_numeric_dtype(s):
        return s
    plain = pd.to_numeric(s, errors="coerce")
    text = _filled_text(s)
    rest = text[plain.reindex(text.index).isna()]
    if not len(rest):
        return plain
    parts = rest.str.extract(NUMBER_TEXT)
    ok = parts["num"].notna()
    if ok.any():
        value = pd.to_numeric(parts.loc[ok, "num"].str.replace(r"[,，]", "", regex=True), errors="coerce").astype(float)
        value = value * parts.loc[ok, "unit"].map(UNITS).fillna(1.0).astype(float)
        value = value.where(parts.loc[ok, "neg"].isna() & parts.loc[ok, "neg2"].isna(), -value)
        pct = parts.loc[ok, "pct"].notna()
        if pct.any():  # 25% among 72, 100, 53: points as the column counts them; among 0.72, 0.5: a fraction
            others = plain.dropna()
            if len(others) and (others.abs() <= 1).mean() >= MOSTLY:
                value = value.where(~pct, value / 100)
        plain = plain.astype(float)
        plain.loc[value.index] = value
    unread = rest[~ok]
    if len(text) and (len(text) - len(unread)) / len(text) >= MOSTLY:
        _record(s, "number", int(ok.sum()), unread)
    return plain


def reads_as_numbers(s: pd.Series) -> bool:
    """Text most of whose filled cells read as numbers, at least one of them written as text (1,234 / 12万 / ¥5)."""
    import pandas as pd

    if pd.api.types.is_numeric_dtype(s) or pd.api.types.is_datetime64_any_dtype(s):
        return False
    text = _filled_text(s.head(SAMPLE))
    if not len(text):
        return False
    parts = text.str.extract(NUMBER_TEXT)
    ok = parts["num"].notna()
    decorated = ok & (text.str.contains(DECORATION, regex=True) | parts["neg"].notna())
    if ok.mean() < MOSTLY or _codes(text[ok]):
        return False
    # Summer's scores typed as text cells (72, 88.5): figures, unless the column names an identifier (student_id, 工号, phone)
    plain = bool(ok.all()) and not ID_NAME.search(str(s.name or "")) and text[ok].str.contains(r"\.", regex=True).any()
    head = s.head(SAMPLE).dropna()
    typed = head.map(lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)).mean() if len(head) else 0.0
    if ok.all() and typed >= MOSTLY and not ID_NAME.search(str(s.name or "")):
        return True  # 销量(杯) of numbers with one typed as text ("731"): a number column, that cell read as its number
    return bool(decorated.any() or marked(list(text[~ok]), int(ok.sum())) or plain or (ok.all() and MEASURE_NAME.search(str(s.name or ""))))


def marked(words: list[str], numbers: int) -> bool:
    """Numbers with a few words standing in for a missing one (缺考, 请假, N/A, absent, -): the column is a number column
    whose marked cells are left out and said. A label of the table's own total row (合计, 平均) is no such mark."""
    from modes.lexicon import TOTAL_WORDS

    marks = {w.strip().casefold() for w in words}
    plain = {w for w in marks if not APPROX.match(w)}  # 约120, 约350…: rough figures, each its own text, are one kind of mark
    return (numbers >= 5 and 0 < len(words) <= max(1, numbers // 5) and len(plain) <= 3
            and all(len(w) <= 12 and (not any(ch.isdigit() for ch in w) or APPROX.match(w)) and w not in TOTAL_WORDS for w in marks))


def _codes(text: pd.Series) -> bool:
    """Digits with leading zeros (00123) are codes, not numbers."""
    return bool(text.str.match(CODE).any())


def cells_read_typed(cells: list[str | None]) -> bool:
    """reads_as_numbers or reads_as_dates for cells read without pandas (None for a missing cell): the same tests on
    the same first cells."""
    import re

    head = [w for v in cells[:SAMPLE] if v is not None and (w := v.strip())]
    if not head:
        return False
    if sum(bool(re.match(CJK_DATE, v)) for v in head) / len(head) >= MOSTLY:
        return True
    ok = [(v, m) for v in head if (m := re.match(NUMBER_TEXT, v)) is not None]
    decorated = any(re.search(DECORATION, v) or m.group("neg") for v, m in ok)
    rest = [v for v in head if re.match(NUMBER_TEXT, v) is None]
    return (len(ok) / len(head) >= MOSTLY and (decorated or marked(rest, len(ok)))
            and not any(re.match(CODE, v) for v, _ in ok))


def as_dates(s: Any) -> Any:
    """A column as dates, unreadable values as NaT: ISO text as pandas reads it, and 2025年3月4日, 2025/3/4, 2025.3.4.
    pandas' format-guessing warnings stay out of the terminal."""
    import warnings

    import pandas as pd

    if pd.api.types.is_datetime64_any_dtype(s):
        return s
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = pd.to_datetime(s, errors="coerce")
        if not isinstance(s, pd.Series) or pd.api.types.is_numeric_dtype(s):
            return d
        text = _filled_text(s)
        rest = text[d.reindex(text.index).isna()]
        if not len(rest):
            return d
        parts = rest.str.extract(CJK_DATE + r"(?:\s+(\d{1,2}[:：]\d{2}(?:[:：]\d{2})?))?\s*$")
        ok = parts[0].notna()
        if ok.any():
            iso = parts[0] + "-" + parts[1].str.zfill(2) + "-" + parts[2].str.zfill(2) + (" " + parts[3].str.replace("：", ":")).fillna("")
            d = d.astype("datetime64[ns]") if d.dtype == object else d
            d.loc[iso[ok].index] = pd.to_datetime(iso[ok], errors="coerce", format="mixed")
        unread = rest[~ok | d.reindex(rest.index).isna()]
        if len(text) and (len(text) - len(unread)) / len(text) >= MOSTLY:
            _record(s, "date", int(ok.sum()), unread)
        return d


def reads_as_dates(s: pd.Series) -> bool:
    """Text most of whose filled cells are dates written the Chinese or slash way (2025年3月4日, 2025/03/04)."""
    text = _filled_text(s.head(SAMPLE))
    return bool(len(text)) and float(text.str.match(CJK_DATE).mean()) >= MOSTLY


def as_times(s: pd.Series) -> pd.Series | None:
    """A column of clock times written as text (08:49, 18:30:05) as durations since midnight; None when most filled
    cells are not times."""
    import pandas as pd

    if pd.api.types.is_numeric_dtype(s) or pd.api.types.is_datetime64_any_dtype(s):
        return None
    text = _filled_text(s)
    if not len(text):
        return None
    parts = text.str.extract(TIME_TEXT)
    ok = parts[0].notna()
    if float(ok.mean()) < MOSTLY:
        return None
    secs = parts[0].astype(float) * 3600 + parts[1].astype(float) * 60 + parts[2].fillna("0").astype(float)
    out = pd.Series(pd.NaT, index=s.index, dtype="timedelta64[ns]")
    out.loc[secs[ok].index] = pd.to_timedelta(secs[ok], unit="s")
    _record(s, "time", int(ok.sum()), text[~ok])
    return out


def reads_as_times(s: pd.Series) -> bool:
    """Text most of whose filled cells are clock times (08:49)."""
    import pandas as pd

    if pd.api.types.is_numeric_dtype(s) or pd.api.types.is_datetime64_any_dtype(s):
        return False
    text = _filled_text(s.head(SAMPLE))
    return bool(len(text)) and float(text.str.match(TIME_TEXT).mean()) >= MOSTLY


def clock(v: Any) -> Any:
    """A duration since midnight written back as a clock time (20:49, 20:49:30); missing stays missing."""
    import pandas as pd

    if v is None or pd.isna(v):
        return None
    total = int(pd.Timedelta(v).total_seconds())
    h, rest = divmod(total, 3600)
    m, sec = divmod(rest, 60)
    return f"{h:02d}:{m:02d}" + (f":{sec:02d}" if sec else "")


KIND_ZH = {"number": "数字", "date": "日期", "time": "时间"}
KIND_EN = {"number": "numbers", "date": "dates", "time": "clock times"}


def reading_notes(found: dict[tuple[str, str], Reading], lang: str) -> list[str]:
    """One sentence per column read from text, and per column whose cells did not all read."""
    out = []
    for r in found.values():
        if not r.converted and not r.unread:
            continue
        shown = "、".join(f"“{e}”" for e in r.examples) if lang == "zh" else ", ".join(f"'{e}'" for e in r.examples)
        if lang == "zh":
            said = f"{r.column} 按{KIND_ZH[r.kind]}读取（原文是文本）" if r.converted else f"{r.column} 按{KIND_ZH[r.kind]}读取"
            if r.unread:
                said += f"；有 {r.unread} 行不是{KIND_ZH[r.kind]}（{shown}），没有参与计算或比较"
        else:
            said = f"{r.column} read as {KIND_EN[r.kind]}" + (" (written as text)" if r.converted else "")
            if r.unread:
                said += f"; {r.unread} rows are not {KIND_EN[r.kind]} ({shown}) and were left out"
        out.append(said)
    return out
