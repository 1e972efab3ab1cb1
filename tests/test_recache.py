"""Compiled patterns kept across processes: the matcher built from stored codes is the one re.compile builds."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from modes import lazyre, recache

ROOT = Path(__file__).resolve().parent.parent

PATTERNS = [
    (r"(?P<城市>[\u4e00-\u9fff]{2,4})(?:市)?\s*(?P<n>\d+(?:\.\d+)?)", 0),
    (r"汇总|合计|总计|\bsum\b|\btotals?\b", re.I | re.A),
    (r"^(?:[\t\r]|[\t\n\r\x0b\x0c \u3000]*[=+\-@＝＋－＠])", 0),
    (r"(a)(b)?(?P<c>c)\1", re.M | re.S),
]
TEXTS = ["上海市 12.5 与 北京 3", "按城市汇总 SUM totals total", "=1+2", " +x", "abca\nabc", "", "acca"]


def _same(a: re.Pattern[str], b: re.Pattern[str]) -> None:
    assert (a.pattern, a.flags, a.groups, dict(a.groupindex)) == (b.pattern, b.flags, b.groups, dict(b.groupindex))
    for t in TEXTS:
        assert [m.groupdict() | {"_": m.span()} for m in a.finditer(t)] == [m.groupdict() | {"_": m.span()} for m in b.finditer(t)]
        assert a.sub("#", t) == b.sub("#", t)


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    monkeypatch.setenv(recache.ENV, str(tmp_path / "cache"))
    monkeypatch.setenv(recache.OFF_ENV, "1")
    monkeypatch.setattr(recache, "_stored", None)
    monkeypatch.setattr(recache, "_new", {})
    return tmp_path / "cache"


def test_patterns_from_the_file_match_as_re_compile_does(fresh, monkeypatch):
    for p, f in PATTERNS:
        _same(recache.compile(p, f), re.compile(p, f))
    assert recache.save() and recache.cache_file().is_file()
    monkeypatch.setattr(recache, "_stored", None)  # as a later process: everything comes from the file
    monkeypatch.setattr(recache, "_codes", lambda *a: pytest.fail("compiled again"))
    for p, f in PATTERNS:
        _same(recache.compile(p, f), re.compile(p, f))
    assert set(recache._load()) == {(p, int(f)) for p, f in PATTERNS}


def test_a_damaged_or_foreign_file_means_ordinary_compilation(fresh, monkeypatch):
    fresh.mkdir(parents=True)
    recache.cache_file().write_bytes(b"not marshal data \x00\x01")
    p, f = PATTERNS[0]
    _same(recache.compile(p, f), re.compile(p, f))
    # an entry the engine refuses (codes for another pattern) is compiled again, not trusted
    monkeypatch.setattr(recache, "_stored", {(p, f): (p, f, [1, 2, 3], 0, {}, ())})
    _same(recache.compile(p, f), re.compile(p, f))
    assert recache.save()
    assert recache._read(recache.cache_file())[(p, f)][2] != [1, 2, 3]


def test_an_unwritable_cache_leaves_the_patterns_working(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv(recache.ENV, str(blocker / "cache"))
    monkeypatch.setattr(recache, "_stored", None)
    monkeypatch.setattr(recache, "_new", {})
    p, f = PATTERNS[1]
    _same(recache.compile(p, f), re.compile(p, f))
    assert recache.save() is False


def test_lazy_patterns_compile_through_the_cache(fresh):
    pat = lazyre.lazy(r"导出\s*(?P<fmt>csv|xlsx)", re.I)
    assert pat.search("按城市汇总，导出 CSV").group("fmt") == "CSV"
    assert (r"导出\s*(?P<fmt>csv|xlsx)", int(re.I)) in recache._new


def test_a_second_process_reads_what_the_first_wrote(tmp_path):
    code = ("import sys; from modes import recache, gate; import re\n"
            "ok = gate.FORMULA_GIVEN.search('新列 公式为 a*b') is not None\n"
            "print(ok, len(recache._load()))")
    env = {"WENQING_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    first = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    second = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert first.stdout.split() == ["True", "0"], first.stderr[-2000:]
    assert second.stdout.split()[0] == "True" and int(second.stdout.split()[1]) >= 1, second.stderr[-2000:]
