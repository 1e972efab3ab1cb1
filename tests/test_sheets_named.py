"""The sheet a request names is the sheet that runs, however the file was found; a workbook whose sheets are one
table split (the same columns on each) is asked about — which sheet, or all of them — instead of silently using
the first, and either answer is taken."""

from __future__ import annotations

import pandas as pd
import pytest

from engine.session import Session
from tools.workspace import Workspace

Q1 = pd.DataFrame({"日期": pd.to_datetime(["2025-01-05", "2025-02-10", "2025-03-03", "2025-03-20"]),
                   "区域": ["东区", "西区", "东区", "南区"], "金额": [100, 200, 300, 400]})
Q2 = pd.DataFrame({"日期": pd.to_datetime(["2025-04-02", "2025-05-11", "2025-06-30"]),
                   "区域": ["西区", "西区", "东区"], "金额": [50, 70, 90]})


@pytest.fixture
def ws(tmp_path) -> Workspace:
    with pd.ExcelWriter(tmp_path / "门店流水.xlsx") as w:
        Q1.to_excel(w, sheet_name="一季度", index=False)
        Q2.to_excel(w, sheet_name="二季度", index=False)
    with pd.ExcelWriter(tmp_path / "人事.xlsx") as w:
        pd.DataFrame({"姓名": ["甲", "乙"], "部门": ["A", "B"]}).to_excel(w, sheet_name="名单", index=False)
        pd.DataFrame({"部门": ["A", "B"], "预算": [10, 20]}).to_excel(w, sheet_name="预算", index=False)
    return Workspace.at(tmp_path)


def _sums(tr) -> dict:
    t = tr.run.table
    return dict(zip(t["区域"], t["金额_合计"], strict=True))


def _done(s: Session, tr):
    if tr.run is None and tr.decision.next in ("restate_confirm", "plan_confirm"):
        tr = s.turn("继续")
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    return tr


def test_a_sheet_named_runs_even_when_the_file_was_not(ws):
    s = Session(ws)
    tr = _done(s, s.turn("用二季度那张表，按区域汇总金额"))
    assert tr.decision.request.sheet == "二季度"
    assert _sums(tr) == Q2.groupby("区域")["金额"].sum().to_dict()


def test_a_split_workbook_asks_which_sheet_and_takes_the_answer(ws):
    s = Session(ws)
    d = s.turn("门店流水 按区域汇总金额").decision
    assert d.next == "ask_slots" and "sheet" in d.missing and "一季度" in d.reply and "二季度" in d.reply
    assert "的 一季度 表" not in d.reply  # no sheet is said as chosen while asking which
    tr = _done(s, s.turn("二季度"))
    assert _sums(tr) == Q2.groupby("区域")["金额"].sum().to_dict()


def test_all_sheets_is_an_answer_too(ws):
    s = Session(ws)
    assert s.turn("门店流水 按区域汇总金额").decision.next == "ask_slots"
    tr = _done(s, s.turn("合在一起"))
    assert _sums(tr) == pd.concat([Q1, Q2]).groupby("区域")["金额"].sum().to_dict()


def test_sheets_of_different_columns_are_told_apart_by_the_columns(ws):
    d = Session(ws).turn("人事.xlsx 按部门汇总预算").decision
    assert d.next == "execute" and d.request.sheet == "预算"


@pytest.mark.parametrize("first,correction", [("门店流水 一季度表 按区域汇总金额", "不对，是二季度"),
                                              ("用一季度那张表，按区域汇总金额", "不对，应该是二季度那张表")])
def test_a_correction_naming_another_sheet_keeps_the_rest_of_the_request(ws, first, correction):
    s = Session(ws)
    assert _sums(_done(s, s.turn(first))) == Q1.groupby("区域")["金额"].sum().to_dict()
    d = s.turn(correction).decision
    assert d.next == "restate_confirm" and "二季度" in d.reply and "分组" in d.reply, d.reply
    tr = _done(s, s.turn("继续"))
    assert tr.decision.request.sheet == "二季度" and _sums(tr) == Q2.groupby("区域")["金额"].sum().to_dict()
