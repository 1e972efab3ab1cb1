"""The gloss index kept on disk: a saved index answers as the tables it was built from; a corrupt, truncated or
stale file is built again; a folder that cannot be written leaves the index in memory; nothing is left half-written."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from modes import glossindex
from modes.glossindex import GlossIndex, Tables

TABLES: Tables = (
    {"场地": frozenset({"site", "place", "venue"}), "会场": frozenset({"venue"}), "的": frozenset(), "场": frozenset({"place"})},
    {"venue": frozenset({"会场"})},
)


class Builder:
    """Counts its builds, so a test can tell a file hit from a rebuild."""

    def __init__(self, tables: Tables = TABLES) -> None:
        self.tables, self.calls = tables, 0

    def __call__(self) -> Tables:
        self.calls += 1
        return self.tables


def never() -> Tables:
    raise AssertionError("a good cache file is read, never built again")


def answers(ix: GlossIndex) -> tuple[dict, dict]:
    return ({h: ix.glosses(h) for h in [*TABLES[0], "没有"]}, {w: ix.heads(w) for w in [*TABLES[1], "nothing"]})


EXPECTED = ({**TABLES[0], "没有": None}, {**TABLES[1], "nothing": frozenset()})


@pytest.fixture
def cache(tmp_path: Path, monkeypatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv(glossindex.ENV, str(d))
    return d


def test_a_file_hit_answers_as_the_fresh_build(cache):
    b = Builder()
    first = GlossIndex("t", "k1", b)
    assert answers(first) == EXPECTED and first.origin == "built+saved" and b.calls == 1
    assert first.path.parent == cache and first.path.is_file()
    again = GlossIndex("t", "k1", never)
    assert answers(again) == EXPECTED and again.origin == "file"
    assert [p.name for p in cache.iterdir()] == [first.path.name]  # no temporary file left behind


def test_an_empty_gloss_is_still_a_headword(cache):
    GlossIndex("t", "k1", Builder()).glosses("的")
    ix = GlossIndex("t", "k1", never)
    assert ix.glosses("的") == frozenset() and ix.glosses("没有") is None


@pytest.mark.parametrize("damage", [
    lambda p: p.write_bytes(b"not a database at all " * 100),
    lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]),
    lambda p: p.write_bytes(b""),
])
def test_a_corrupt_file_is_built_again(cache, damage):
    path = GlossIndex("t", "k1", Builder()).path
    GlossIndex("t", "k1", Builder()).glosses("场地")
    damage(path)
    b = Builder()
    ix = GlossIndex("t", "k1", b)
    assert answers(ix) == EXPECTED and b.calls == 1 and ix.origin == "built+saved"
    assert answers(GlossIndex("t", "k1", never)) == EXPECTED  # and written again whole


def test_a_file_damaged_while_open_is_built_again(cache):
    GlossIndex("t", "k1", Builder()).glosses("场地")
    b = Builder()
    ix = GlossIndex("t", "k1", b)
    assert ix.glosses("场地") == TABLES[0]["场地"] and ix.origin == "file"
    with open(ix.path, "r+b") as f:
        f.truncate(0)
    assert ix.glosses("会场") == TABLES[0]["会场"] and ix.heads("venue") == frozenset({"会场"})
    assert b.calls == 1


def test_a_stale_file_is_built_again(cache):
    old = Builder(({"场地": frozenset({"old"})}, {}))
    stale = GlossIndex("t", "k1", old)
    stale.glosses("场地")
    # the file a newer dictionary or format asks for holds an older key: built again, never read
    new = GlossIndex("t", "k2", Builder())
    stale.path.replace(new.path)
    assert answers(new) == EXPECTED and new.origin == "built+saved"
    with sqlite3.connect(new.path) as con:
        assert con.execute("SELECT value FROM meta").fetchone()[0] == new.key


def test_the_key_names_the_file():
    assert GlossIndex("t", "k1", never).path != GlossIndex("t", "k2", never).path


def test_an_unwritable_cache_folder_keeps_the_index_in_memory(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv(glossindex.ENV, str(blocker / "cache"))  # a folder under a file can never be made
    b = Builder()
    ix = GlossIndex("t", "k1", b)
    assert answers(ix) == EXPECTED and ix.origin == "built" and b.calls == 1
    assert answers(ix) == EXPECTED and b.calls == 1  # built once for the process
    assert blocker.read_text() == "x"


def test_a_failed_write_leaves_no_temporary_file(tmp_path, monkeypatch):
    d = tmp_path / "c"
    d.mkdir()

    def full(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(glossindex.os, "replace", full)
    assert not glossindex.save(d / "t.sqlite", "k", TABLES)
    assert list(d.iterdir()) == []


def test_the_cache_folder_is_the_users_never_the_workspace(monkeypatch, tmp_path):
    monkeypatch.delenv(glossindex.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert glossindex.cache_dir() == tmp_path / "xdg" / "wenqing"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert glossindex.cache_dir() == tmp_path / "home" / ".cache" / "wenqing"
    monkeypatch.setenv(glossindex.ENV, str(tmp_path / "override"))
    assert glossindex.cache_dir() == tmp_path / "override"


def test_many_words_are_asked_in_a_few_queries_and_answered_alike(cache):
    GlossIndex("t", "k1", Builder()).glosses("场地")
    ix = GlossIndex("t", "k1", never)
    ix.glosses("场地")
    asked: list[str] = []
    ix._con.set_trace_callback(asked.append)
    heads = [*TABLES[0], *(f"词{i}" for i in range(1200))]
    ix.preload(heads=heads, words=["venue", "nothing"])
    assert len(asked) == 4  # 1,204 headwords in chunks of 500, and one query for the gloss words
    assert [ix.glosses(h) for h in heads] == [TABLES[0].get(h) for h in heads]
    assert ix.heads("venue") == frozenset({"会场"}) and ix.heads("nothing") == frozenset()
    assert len(asked) == 4  # every answer came from what was fetched
