"""Times written as text ("1:28:37.554", "+5.462", "+1:03.569", "12.3 secs") read as seconds (no pandas needed).

A race result lists the winner's time and, below it, each other finisher's gap to the winner ("+5.462"): a gap is
read as the reference time plus the gap when the column holds exactly one full time. Anything else ("+1 Lap",
"Gearbox", "DNF") is not a time and is left out, and said to be left out."""

from __future__ import annotations

import re
from collections.abc import Iterable

# h:mm:ss(.s), m:ss(.s) or seconds; minutes and seconds after a colon have two digits (4:2:0 is a ratio, not a time)
CLOCK = re.compile(r"^(?P<gap>\+)?\s*(?:(?:(?P<h>\d+):(?=\d{2}:))?(?P<m>\d{1,2}):(?=\d{2}(?:\.\d+)?(?:\s|$|[a-z秒]))|)"
                   r"(?P<s>\d+(?:\.\d+)?)\s*(?P<unit>s|sec|secs|seconds?|秒)?$", re.I)


def parse_time(text: str) -> tuple[bool, float, bool] | None:
    """(is a gap, seconds, written as a time) for a cell that reads as a time or a gap; None otherwise."""
    m = CLOCK.match(text.strip())
    if m is None:
        return None
    secs = float(m.group("s")) + 60 * int(m.group("m") or 0) + 3600 * int(m.group("h") or 0)
    timed = bool(m.group("m") is not None or m.group("unit") or m.group("gap"))
    return bool(m.group("gap")), secs, timed


def reads_as_times(values: Iterable[str]) -> bool:
    """A text column whose values are mostly times or gaps (at least one written as a clock time or with a unit)."""
    vals = [v for v in values if v and v.strip()]
    parsed = [p for p in (parse_time(v) for v in vals) if p is not None]
    return bool(vals) and any(p[2] for p in parsed) and len(parsed) >= 0.5 * len(vals)


def as_seconds(values: list[object]) -> tuple[list[float | None], list[str], bool]:
    """Each value in seconds (None where it is not a time), the values left out, and whether gaps were added to the
    one full time. Gaps with no single full time to add them to are left out."""
    parsed = [parse_time(str(v)) if v is not None and str(v).strip() and str(v) != "nan" else None for v in values]
    full = [p[1] for p in parsed if p is not None and not p[0]]
    has_gaps = any(p is not None and p[0] for p in parsed)
    ref = full[0] if has_gaps and len(full) == 1 else None
    out: list[float | None] = []
    left: list[str] = []
    for v, p in zip(values, parsed, strict=True):
        if p is None or (p[0] and ref is None):
            out.append(None)
            if v is not None and str(v).strip() and str(v) != "nan":
                left.append(str(v).strip())
        else:
            out.append(p[1] + ref if p[0] and ref is not None else p[1])
    return out, left, ref is not None


def clock(seconds: float) -> str:
    """Seconds as h:mm:ss.sss (or m:ss.sss under an hour)."""
    sign = "-" if seconds < 0 else ""
    s = abs(seconds)
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    body = f"{int(h)}:{int(m):02d}:{sec:06.3f}" if h >= 1 else f"{int(m)}:{sec:06.3f}"
    return sign + body
