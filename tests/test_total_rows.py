"""A table's own total row (合计 / Total, as its last row) is never a group, never one of the top rows and never
the highest: a pivot with margins, or a sheet that ends in 合计, answers about its real rows, and says so."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import answered

from engine.session import Session
from tools.workspace import Workspace

BODY = pd.DataFrame({"区域": ["东区", "西区", "南区", "北区"], "金额": [120, 340, 90, 260], "件数": [3, 8, 2, 6]})
WITH_TOTAL = pd.concat([BODY, pd.DataFrame([{"区域": "合计", "金额": 810, "件数": 19}])], ignore_index=True)


@pytest.fixture
def ws(tmp_path) -> Workspace:
    WITH_TOTAL.to_excel(tmp_path / "区域报表.xlsx", index=False)
    return Workspace.at(tmp_path)


def test_the_highest_is_never_the_total_row(ws):
    tr = answered(Session(ws), "区域报表.xlsx 里金额最高的是哪个区域")
    assert "西区" in tr.run.answer and "810" not in tr.run.answer, tr.run.answer


def test_top_rows_leave_the_total_row_out_and_say_so(ws):
    tr = answered(Session(ws), "区域报表.xlsx 按金额取前2名")
    assert tr.run.table["区域"].tolist() == ["西区", "北区"]
    assert any("合计行" in p for p in [tr.run.answer or "", *tr.run.notes]), tr.run.answer


def test_grouping_never_makes_the_total_row_a_group(ws):
    tr = answered(Session(ws), "区域报表.xlsx 按区域汇总金额")
    got = dict(zip(tr.run.table["区域"], tr.run.table["金额_合计"], strict=True))
    assert got == BODY.set_index("区域")["金额"].to_dict()


def test_a_named_pivot_ranks_its_real_rows(tmp_path):
    pd.DataFrame({"region": ["N", "S", "N", "E", "S"], "product": ["a", "b", "b", "a", "a"],
                  "amount": [5.0, 7.0, 1.0, 2.0, 9.0]}).to_csv(tmp_path / "orders.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "pivot orders.csv with region as rows, product as columns, sum of amount")
    s.name_result("1", "piv")
    tr = answered(s, "in piv, which region has the highest Total?")
    assert "S has the highest" in tr.run.answer and "Total has the highest" not in tr.run.answer, tr.run.answer


@pytest.mark.parametrize("engine", ["pandas", "duckdb"])
@pytest.mark.parametrize("where", ["last", "first"])
def test_both_engines_leave_a_csvs_own_total_row_out(tmp_path, monkeypatch, engine, where):
    """A CSV read by DuckDB (a big file, or every file with WENQING_ENGINE=duckdb) answers as pandas does."""
    monkeypatch.setenv("WENQING_ENGINE", engine)
    total = WITH_TOTAL.iloc[[-1]]
    (pd.concat([total, BODY]) if where == "first" else WITH_TOTAL).to_csv(tmp_path / "区域.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    tr = answered(s, "区域.csv 按区域汇总金额")
    got = dict(zip(tr.run.table["区域"], tr.run.table["金额_合计"], strict=True))
    assert got == BODY.set_index("区域")["金额"].to_dict()
    assert "合计行" in tr.run.answer, tr.run.answer
    tr = answered(s, "区域.csv 按金额取前2名")
    assert tr.run.table["区域"].tolist() == ["西区", "北区"], tr.run.table


@pytest.mark.parametrize("engine", ["pandas", "duckdb"])
def test_a_total_word_inside_the_table_is_an_ordinary_row(tmp_path, monkeypatch, engine):
    monkeypatch.setenv("WENQING_ENGINE", engine)
    t = pd.DataFrame({"项目": ["甲", "合计", "乙", "丙"], "金额": [1, 5, 2, 3]})
    t.to_csv(tmp_path / "项目.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "项目.csv 按项目汇总金额")
    assert dict(zip(tr.run.table["项目"], tr.run.table["金额_合计"], strict=True)) == {"甲": 1, "合计": 5, "乙": 2, "丙": 3}


def test_the_total_rows_label_said_in_a_request_is_no_value_to_filter_on(tmp_path):
    rng = np.random.default_rng(4)
    d = pd.DataFrame({"门店": rng.choice(["一店", "二店"], 60), "日期": pd.date_range("2024-01-01", periods=60, freq="D").strftime("%Y-%m-%d"),
                      "客流": rng.integers(100, 900, 60)})
    pd.concat([d, pd.DataFrame([{"门店": "合计", "日期": None, "客流": d["客流"].sum()}])]).to_csv(tmp_path / "日报.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "日报.csv 每个月的客流合计")
    assert tr.run.table["客流_合计"].tolist() == d.groupby(d["日期"].str[:7])["客流"].sum().tolist()
