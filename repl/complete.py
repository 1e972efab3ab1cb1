"""Completion that fits Chinese typing: the name at the cursor, whatever precedes it, no space needed.

Candidates are workspace files, sheets, the columns of the file in focus and the known values of its
columns. The text before the cursor is matched from its longest tail to its shortest: by prefix, by
pinyin initials ("bj" → 北京_poi.xlsx), by substring and by a fuzzy subsequence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.document import Document

from modes.catalog import Catalog, FileInfo, SheetInfo
from tools.workspace import Workspace

# A name ends the search backwards at whitespace or punctuation a user types between words.
_STOP = re.compile(r"[\s,，。；;:：、=<>!！?？\"'“”‘’()（）\[\]【】《》]")
MAX_TAIL = 24
MAX_SHOWN = 40


@dataclass(frozen=True)
class Candidate:
    text: str
    kind: str  # file | sheet | column | value
    meta: str


@lru_cache(maxsize=4096)
def initials(text: str) -> str:
    """Pinyin initials of the Chinese characters in `text`, other letters and digits as they are ("北京_poi" → "bj_poi")."""
    if not any("\u4e00" <= ch <= "\u9fff" for ch in text):
        return text.casefold()
    from pypinyin import Style, lazy_pinyin  # imported on the first completion that needs it

    return "".join(lazy_pinyin(text, style=Style.FIRST_LETTER, errors="default")).casefold()


def _subsequence(needle: str, hay: str) -> bool:
    it = iter(hay)
    return all(ch in it for ch in needle)


def match_rank(tail: str, cand: str) -> int | None:
    """How well `tail` starts `cand`: 0 prefix, 1 pinyin initials, 2 substring, 3 fuzzy; None when it does not."""
    t, c = tail.casefold(), cand.casefold()
    if c.startswith(t) and t != c:
        return 0
    if len(t) < 2:
        return None
    if t.isascii() and t.isalnum() and initials(cand).startswith(t):
        return 1
    if t in c and t != c:
        return 2
    if t[0] == c[0] and _subsequence(t, c):
        return 3
    return None


def tails(before: str) -> list[str]:
    """The tails of the last word before the cursor, longest first ("看看北" → 看看北, 看北, 北). Chinese has no spaces,
    so a tail may start at any Chinese character; a Latin word is never entered in the middle ("md" is "md", never
    "d", so Tab cannot turn it into "mdiscount")."""
    word = _STOP.split(before)[-1][-MAX_TAIL:]
    return [word[i:] for i in range(len(word)) if i == 0 or not (_latin(word[i - 1]) and _latin(word[i]))]


def _latin(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch in "_.-")


def _column_meta(sheet: SheetInfo, col: str) -> str:
    if col in sheet.numeric:
        lo, hi = sheet.ranges.get(col, (None, None))
        return f"数值 · {_num(lo)}–{_num(hi)}" if lo is not None else "数值"
    if col in sheet.dates:
        y = sheet.years.get(col)
        return f"日期 · {y[0]}–{y[1]}" if y and y[0] != y[1] else f"日期 · {y[0]}" if y else "日期"
    vals = sorted(sheet.values.get(col, ()))
    return f"文本 · {vals[0]}" if vals else "文本"


def _num(v: float | None) -> str:
    if v is None:
        return ""
    return f"{int(v):,}" if float(v).is_integer() else f"{v:,.2f}".rstrip("0").rstrip(".")


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return ""


class WenqingCompleter(Completer):
    """Slash commands at the start of a line; files, sheets, columns and values anywhere else."""

    def __init__(self, ws: Workspace, catalog: Callable[[], Catalog] | None = None,
                 current_file: Callable[[], str | None] | None = None) -> None:
        self.ws = ws
        self._catalog = catalog
        self._current = current_file or (lambda: None)

    def get_completions(self, document: Document, complete_event: Any) -> Iterator[Completion]:
        from repl.commands import COMMANDS

        before = document.text_before_cursor
        if before.startswith("/") and " " not in before:
            for name, cmd in COMMANDS.items():
                if name.startswith(before):
                    yield Completion(name, -len(before), display_meta=cmd.help)
            return
        found: dict[str, tuple[int, int, Candidate, int]] = {}
        cands = list(self.candidates(before))
        for order, tail in enumerate(tails(before)):
            for cand in cands:
                if cand.text in found:
                    continue
                rank = match_rank(tail, cand.text)
                if rank is not None:
                    found[cand.text] = (rank, order, cand, len(tail))
        best = sorted(found.values(), key=lambda x: (x[0], x[1], _KIND_ORDER[x[2].kind]))
        for _, _, cand, n in best[:MAX_SHOWN]:
            yield Completion(cand.text, -n, display_meta=cand.meta)

    def candidates(self, before: str) -> Iterable[Candidate]:
        catalog = None
        if self._catalog is not None:
            try:
                catalog = self._catalog()
            except Exception:  # completion never takes the prompt down; files still complete
                catalog = None
        tables = {f.path: f for f in catalog.files} if catalog else {}
        for rel in self.ws.files():
            info = tables.get(rel)
            yield Candidate(rel, "file", _file_meta(self.ws, rel, info))
        if catalog is None:
            return
        for f in catalog.tables:
            for s in f.sheets:
                if s.name:
                    yield Candidate(s.name, "sheet", f"工作表 · {f.name} · {s.rows} 行")
        focus = self.focus(before, catalog)
        if focus is None:
            return
        seen: set[str] = set()
        for s in focus.sheets:
            for col in s.columns:
                if col not in seen:
                    seen.add(col)
                    yield Candidate(col, "column", _column_meta(s, col))
        # values of a column named before the cursor first, then the others
        mentioned = [c for c in seen if c and c in before]
        for s in focus.sheets:
            for col in sorted(s.values, key=lambda c: c not in mentioned):
                for v in sorted(s.values[col]):
                    if v not in seen:
                        seen.add(v)
                        yield Candidate(v, "value", f"{col} 的值")

    def focus(self, before: str, catalog: Catalog) -> FileInfo | None:
        """The file named earlier on the line, else the session's current file, else the only table."""
        named = [f for f in catalog.tables if f.sheets and (f.name in before or (len(f.stem) >= 2 and f.stem in before))]
        if named:
            return max(named, key=lambda f: before.rfind(f.stem))
        current = catalog.get(self._current())
        if current is not None:
            return current
        tables = [f for f in catalog.tables if f.sheets]
        return tables[0] if len(tables) == 1 else None


_KIND_ORDER = {"file": 0, "column": 1, "value": 2, "sheet": 3}


def _file_meta(ws: Workspace, rel: str, info: FileInfo | None) -> str:
    try:
        size = _size((ws.root / rel).stat().st_size)
    except OSError:
        size = ""
    if info is None or not info.sheets:
        return size
    rows = sum(s.rows for s in info.sheets)
    sheets = f"{len(info.sheets)} 个工作表 · " if len(info.sheets) > 1 else ""
    return f"{sheets}{rows} 行 · {size}"
