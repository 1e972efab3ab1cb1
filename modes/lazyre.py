"""Regular expressions compiled on first use: importing understanding does not pay for every table of words."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any, cast


class LazyPattern:
    """Stands in for `re.compile(pattern, flags)`: the same methods, compiled the first time one is called.
    `pattern` and `flags` are readable without compiling (other patterns are built from them)."""

    __slots__ = ("pattern", "flags", "_re")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._re: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._re is None:
            from modes import recache

            self._re = recache.compile(self.pattern, self.flags)
        return self._re

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self.compiled.findall(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count)

    def subn(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> tuple[str, int]:
        return self.compiled.subn(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled.split(string, maxsplit)

    @property
    def groups(self) -> int:
        return self.compiled.groups

    @property
    def groupindex(self) -> Any:
        return self.compiled.groupindex

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # copy and pickle probe for hooks before the slots are set
            raise AttributeError(name)
        return getattr(self.compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r}, {self.flags!r})"


def lazy(pattern: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """`re.compile` deferred until the pattern is first used. Typed as the pattern it stands for: it answers the
    same methods (anything else is passed to the compiled pattern); only `re.sub(p, ...)`-style calls, which
    want a real pattern object, are not supported."""
    return cast("re.Pattern[str]", LazyPattern(pattern, int(flags)))
