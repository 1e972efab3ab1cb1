"""The workspace catalog: sampled lazily, kept in .wenqing/ by size and mtime, indexed by column."""

from __future__ import annotations

import json
import os

import pandas as pd
import pytest

import engine.catalog as ec
from engine.catalog import CatalogCache
from modes.decision import SessionState
from modes.dialogue import decide
from tools.io import HEAD_BYTES, read_table
from tools.workspace import Workspace


@pytest.fixture()
def many(tmp_path):
    for i in range(30):
        pd.DataFrame({"编号": [f"A{i}{j}" for j in range(5)], "地区": ["华东", "华南", "华北", "华东", "西南"],
                      "金额": [1, 2, 3, 4, i]}).to_csv(tmp_path / f"区域_{i:02d}.csv", index=False)
    pd.DataFrame({"员工": ["张三", "李四"], "部门": ["销售部", "财务部"], "工资": [100, 200]}).to_excel(tmp_path / "花名册.xlsx", index=False)
    return tmp_path


def test_small_talk_reads_no_file(many):
    catalog = CatalogCache().build(Workspace.at(many))
    d, _ = decide(SessionState(), "你好", catalog)
    assert d.rule == "chat:greeting"
    assert not any(f.loaded for f in catalog.tables)
    d, _ = decide(SessionState(), "花名册.xlsx 按部门汇总工资", catalog)
    assert d.request.file == "花名册.xlsx"
    assert [f.path for f in catalog.tables if f.loaded] == ["花名册.xlsx"]


def test_samples_are_kept_by_size_and_mtime(many, monkeypatch):
    ws = Workspace.at(many)
    cache = CatalogCache()
    catalog = cache.build(ws)
    cols = {f.path: f.sheets[0].columns for f in catalog.tables}
    cache.save(ws)
    stored = json.loads((many / ".wenqing" / "catalog.json").read_text(encoding="utf-8"))["files"]
    assert set(stored) == set(cols)

    def no_reading(*a, **k):
        raise AssertionError("a file was read although its sample is stored")

    monkeypatch.setattr(ec, "file_info", no_reading)
    again = CatalogCache().build(ws)
    assert {f.path: f.sheets[0].columns for f in again.tables} == cols
    assert again.get("区域_00.csv").sheets[0].values["地区"] == frozenset({"华东", "华南", "华北", "西南"})
    monkeypatch.undo()
    p = many / "区域_00.csv"
    pd.DataFrame({"新列": [1, 2]}).to_csv(p, index=False)
    os.utime(p, ns=(p.stat().st_atime_ns, p.stat().st_mtime_ns + 5_000_000_000))
    assert CatalogCache().build(ws).get("区域_00.csv").sheets[0].columns == ("新列",)


def test_a_broken_cache_file_is_ignored(many):
    (many / ".wenqing").mkdir()
    (many / ".wenqing" / "catalog.json").write_text("{not json", encoding="utf-8")
    catalog = CatalogCache().build(Workspace.at(many))
    assert catalog.get("花名册.xlsx").sheets[0].columns == ("员工", "部门", "工资")


def test_column_index_narrows_the_files_to_parse(many):
    catalog = CatalogCache().build(Workspace.at(many))
    touched = {f.path for f in catalog.tables_touching("把地址为空的行删掉")}  # 地址 is one edit from 地区
    assert touched == {f"区域_{i:02d}.csv" for i in range(30)}
    assert [f.path for f in catalog.tables_touching("按部门算平均工资")] == ["花名册.xlsx"]
    assert catalog.tables_touching("谢谢") == []
    assert [s.columns for s in catalog.sheets_mentioned("工资最高的人")] == [("员工", "部门", "工资")]


def test_a_big_csv_is_sampled_from_its_head_and_read_whole_on_demand(tmp_path):
    n = 120_000
    df = pd.DataFrame({"id": range(n), "城市": ["上海", "北京", "广州"] * (n // 3), "金额": [i % 97 for i in range(n)]})
    p = tmp_path / "大表.csv"
    df.to_csv(p, index=False)
    assert p.stat().st_size > HEAD_BYTES
    info = ec.file_info(p, "大表.csv")
    s = info.sheets[0]
    assert s.columns == ("id", "城市", "金额") and s.values["城市"] == frozenset({"上海", "北京", "广州"})
    assert s.rows == ec.SAMPLE_ROWS and {"id", "金额"} <= s.numeric
    full = read_table(p).df
    assert len(full) == n and int(full["金额"].sum()) == int(df["金额"].sum())


def test_gb18030_text_after_a_utf8_looking_head(tmp_path):
    """The head is plain ASCII; Chinese in GB18030 appears only past the bytes the encoding was judged on."""
    rows = [f"{i},north,{i % 10}" for i in range(HEAD_BYTES // 12)] + [f"{10**7 + i},华东,{i}" for i in range(50)]
    p = tmp_path / "late.csv"
    p.write_bytes(("id,region,qty\n" + "\n".join(rows) + "\n").encode("gb18030"))
    t = read_table(p)
    assert t.encoding == "gb18030" and len(t.df) == len(rows)
    assert (t.df["region"] == "华东").sum() == 50
