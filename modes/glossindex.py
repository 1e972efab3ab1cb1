"""A gloss index derived once from a dictionary and kept on disk, so a process reads only the words it looks up.

The index has two tables: headword -> the content words of its glosses, and content word -> the headwords it
alone glosses. It is built by a caller-given function the first time it is needed and written atomically as an
SQLite file in the user's cache directory (WENQING_CACHE_DIR, else $XDG_CACHE_HOME/wenqing, else ~/.cache/wenqing),
named by a digest of the caller's key (the dictionary's version and the derivation's format). A later process
opens that file read-only and asks only for the words it looks up, many in one query where it can (preload). A missing, corrupt or stale file (its stored key is not
the one asked for) is rebuilt; when the directory cannot be written the index built stays in memory for the
process. Answers are the same whichever way they come.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

SCHEMA = 1  # the layout of the file below; a change makes every older file stale
ENV = "WENQING_CACHE_DIR"
Table = dict[str, frozenset[str]]
Tables = tuple[Table, Table]  # (headword -> gloss words, gloss word -> headwords)
_SELECT = ("SELECT head, words FROM forward WHERE head IN ({})", "SELECT word, heads FROM reverse WHERE word IN ({})")
_CHUNK = 500  # words asked in one query (SQLite allows 32,766 parameters; a chunk keeps each statement small)


def cache_dir() -> Path:
    """Where derived indexes are kept: never a workspace, always the user's cache (or the override)."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "wenqing"


class GlossIndex:
    """Look-ups in one derived index, from its file when there is a good one, else from the tables just built."""

    def __init__(self, name: str, key: str, build: Callable[[], Tables]) -> None:
        self.name, self.key, self._build = name, f"{SCHEMA}|{key}", build
        self.origin = ""  # how the index was reached: "file", "built+saved" or "built" (kept in memory only)
        self._con: Any = None
        self._tables: Tables | None = None
        self._memo: tuple[dict[str, frozenset[str] | None], dict[str, frozenset[str] | None]] = ({}, {})
        self._lock = threading.Lock()

    @property
    def path(self) -> Path:
        import hashlib

        return cache_dir() / f"{self.name}-{hashlib.sha256(self.key.encode()).hexdigest()[:16]}.sqlite"

    def glosses(self, head: str) -> frozenset[str] | None:
        """The content words of a headword's glosses; None when it is no headword (an empty set is one)."""
        memo = self._memo[0]
        return memo[head] if head in memo else self._get(0, head)

    def heads(self, word: str) -> frozenset[str]:
        """The headwords (two characters or more) that this content word alone glosses."""
        memo = self._memo[1]
        return (memo[word] if word in memo else self._get(1, word)) or frozenset()

    def preload(self, heads: Iterable[str] = (), words: Iterable[str] = ()) -> None:
        """Fetch many headwords and gloss words at once, so the single look-ups that follow are answered from memory."""
        for table, asked in enumerate((heads, words)):
            memo = self._memo[table]
            new = [w for w in dict.fromkeys(asked) if w not in memo]
            if new:
                with self._lock:
                    memo.update(self._fetch(table, new))

    def _get(self, table: int, word: str) -> frozenset[str] | None:
        memo = self._memo[table]
        if word not in memo:
            with self._lock:
                memo.update(self._fetch(table, [word]))
        return memo[word]

    def _fetch(self, table: int, asked: list[str]) -> dict[str, frozenset[str] | None]:
        if self._tables is None and self._con is None:
            self._open()
        if self._con is not None:
            import sqlite3

            try:
                found: dict[str, frozenset[str] | None] = dict.fromkeys(asked)
                for i in range(0, len(asked), _CHUNK):
                    chunk = asked[i:i + _CHUNK]
                    sql = _SELECT[table].format(",".join("?" * len(chunk)))
                    found.update((k, frozenset(v.split())) for k, v in self._con.execute(sql, chunk))
                return found
            except sqlite3.Error:  # damaged after it was opened: built again, answered from what is built
                self._con.close()
                self._con = None
                self._rebuild()
        assert self._tables is not None
        return {w: self._tables[table].get(w) for w in asked}

    def _open(self) -> None:
        import sqlite3

        con = None
        try:
            _plain_or_absent(self.path)  # a link or a hard link at the name is not read: the index is built again
            con = sqlite3.connect(f"{self.path.as_uri()}?mode=ro", uri=True, check_same_thread=False)
            row = con.execute("SELECT value FROM meta WHERE name = 'key'").fetchone()
            if row is not None and row[0] == self.key:
                self._con, self.origin = con, "file"
                return
        except (sqlite3.Error, OSError, ValueError):
            pass
        if con is not None:
            con.close()
        self._rebuild()

    def _rebuild(self) -> None:
        self._tables = self._build()
        self.origin = "built+saved" if save(self.path, self.key, self._tables) else "built"


def _plain_or_absent(path: Path) -> None:
    from tools.write import check_name, folder_fd

    fd = folder_fd(path.parent)
    try:
        check_name(fd, path.name)
    finally:
        os.close(fd)


def save(path: Path, key: str, tables: Tables) -> bool:
    """Write the tables to path atomically (a temporary file in the same folder, then a rename); False when the
    folder cannot be written, leaving nothing behind."""
    import sqlite3
    import tempfile

    tmp = None
    try:
        from tools.write import folder_fd

        os.close(folder_fd(path.parent))  # the folder itself is never a link
        path = Path(os.path.realpath(path.parent)) / path.name
        fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=".tmp", dir=path.parent)  # exclusive, no-follow
        os.close(fd)
        con = sqlite3.connect(tmp)
        try:
            con.execute("PRAGMA journal_mode = OFF")
            con.execute("PRAGMA synchronous = OFF")  # the rename below publishes only a complete file
            con.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
            con.execute("CREATE TABLE forward (head TEXT PRIMARY KEY, words TEXT NOT NULL) WITHOUT ROWID")
            con.execute("CREATE TABLE reverse (word TEXT PRIMARY KEY, heads TEXT NOT NULL) WITHOUT ROWID")
            # headwords and content words hold no spaces (CC-CEDICT fields are space-separated), so a set is
            # stored as its members joined by one
            con.executemany("INSERT INTO forward VALUES (?, ?)", ((h, " ".join(sorted(w))) for h, w in tables[0].items()))
            con.executemany("INSERT INTO reverse VALUES (?, ?)", ((w, " ".join(sorted(h))) for w, h in tables[1].items()))
            con.execute("INSERT INTO meta VALUES ('key', ?)", (key,))
            con.commit()
        finally:
            con.close()
        os.replace(tmp, path)
        return True
    except (OSError, sqlite3.Error):
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return False
