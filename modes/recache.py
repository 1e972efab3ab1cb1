"""Compiled regular expressions kept across processes.

Python compiles a pattern in two stages: its own parser and compiler turn the text into a list of codes (slow for
the long word lists and CJK character classes understanding uses), then `_sre.compile` builds the matcher from
those codes (fast). The codes depend only on the pattern, its flags and the interpreter, so they are kept in one
file in the user's cache directory (WENQING_CACHE_DIR, else $XDG_CACHE_HOME/wenqing, else ~/.cache/wenqing), named
by the interpreter's version and its regular-expression engine's version. A later process builds each matcher from
the stored codes; a pattern not stored yet is compiled the ordinary way and written at exit. A missing, corrupt or
foreign file, or a stored entry the engine refuses, means ordinary compilation: the matcher is the same either way.
"""

from __future__ import annotations

import atexit
import marshal
import os
import re
import sys
import threading
from pathlib import Path
from typing import Any

FORMAT = 1  # the layout of an entry; a change makes every older file stale
MAX_ENTRIES = 5000  # patterns built from text met at run time are kept too, up to this many
ENV = "WENQING_CACHE_DIR"
OFF_ENV = "WENQING_REGEX_CACHE"  # "0": compile every pattern the ordinary way, keep nothing

Entry = tuple[str, int, list[int], int, dict[str, int], tuple[Any, ...]]

_lock = threading.Lock()
_stored: dict[tuple[str, int], Entry] | None = None
_new: dict[tuple[str, int], Entry] = {}


def cache_dir() -> Path:
    """Where derived files are kept: never a workspace, always the user's cache (or the override)."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    return Path(os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")) / "wenqing"


def cache_file() -> Path:
    import _sre

    impl = sys.implementation
    version = ".".join(map(str, sys.version_info[:3]))
    return cache_dir() / f"regex-{impl.name}-{version}-sre{_sre.MAGIC}-{_sre.CODESIZE}-v{FORMAT}.marshal"


def enabled() -> bool:
    return os.environ.get(OFF_ENV, "1") != "0" and sys.implementation.name == "cpython"


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:  # noqa: A001  (the name re uses)
    """`re.compile(pattern, flags)`, built from stored codes when this pattern was compiled before."""
    if not enabled() or flags & re.DEBUG:
        return re.compile(pattern, flags)
    key = (pattern, int(flags))
    entry = _load().get(key) or _new.get(key)
    if entry is not None:
        try:
            import _sre

            built: re.Pattern[str] = _sre.compile(*entry)
            if built.pattern == pattern:
                return built
        except Exception:  # noqa: BLE001  (a refused entry: compile it the ordinary way)
            pass
    entry = _codes(pattern, int(flags))
    if entry is None:
        return re.compile(pattern, flags)
    with _lock:
        if not _new:
            atexit.register(save)
        _new[key] = entry
    import _sre

    compiled: re.Pattern[str] = _sre.compile(*entry)
    return compiled


def _codes(pattern: str, flags: int) -> Entry | None:
    """The arguments `_sre.compile` takes for this pattern, as re._compiler.compile computes them."""
    try:
        from re import _compiler, _parser  # type: ignore[attr-defined]

        p = _parser.parse(pattern, flags)
        code = [int(c) for c in _compiler._code(p, flags)]
        groupindex = dict(p.state.groupdict)
        indexgroup: list[Any] = [None] * p.state.groups
        for k, i in groupindex.items():
            indexgroup[i] = k
        return (pattern, int(flags | p.state.flags), code, p.state.groups - 1, groupindex, tuple(indexgroup))
    except Exception:  # noqa: BLE001  (an interpreter whose internals differ: ordinary compilation)
        return None


def _load() -> dict[tuple[str, int], Entry]:
    global _stored
    if _stored is None:
        with _lock:
            if _stored is None:
                _stored = _read(cache_file())
    return _stored


def _read(path: Path) -> dict[tuple[str, int], Entry]:
    from tools.write import load_file

    try:  # through the one path for wenqing's own files: a link or a hard link at the name is not read
        data = marshal.loads(load_file(path))
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if _valid(k, v)}


def _valid(k: Any, v: Any) -> bool:
    """An entry shaped as `_codes` makes it; anything else in the file is dropped."""
    return (isinstance(k, tuple) and len(k) == 2 and isinstance(k[0], str) and type(k[1]) is int
            and isinstance(v, tuple) and len(v) == 6 and v[0] == k[0] and type(v[1]) is int
            and isinstance(v[2], list) and all(type(c) is int for c in v[2]) and type(v[3]) is int
            and isinstance(v[4], dict) and isinstance(v[5], tuple))


def save() -> bool:
    """Write the patterns compiled in this process to the cache file, with those already there (another process may
    have added some meanwhile). A directory that cannot be written is left alone."""
    with _lock:
        if not _new:
            return False
        new = dict(_new)
        _new.clear()
    target = cache_file()
    merged = _read(target)
    for k, v in new.items():
        if len(merged) >= MAX_ENTRIES:
            break
        merged[k] = v
    from tools.errors import UserError
    from tools.write import save_file

    try:  # a temporary file made exclusively in the cache folder, never through a link
        save_file(target, marshal.dumps(merged))
    except (OSError, ValueError, UserError):
        return False
    global _stored
    _stored = merged
    return True
