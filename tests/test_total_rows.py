"""A table's own total row (合计 / Total, as its last row) is never a group, never one of the top rows and never
the highest: a pivot with margins, or a sheet that ends in 合计, answers about its real rows, and says so."""

from __future__ import annotations

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
