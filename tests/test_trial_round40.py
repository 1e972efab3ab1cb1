"""Found by the round-39 and round-40 work, each recomputed with pandas: a sheet left out of every sheet stacked (leave out
the Autumn sheet / Autumn表不算呢), a yes-no column counted is its rows, the rows behind a count (show me those rows / 把这些
单子列出来), a weekday grouping over every sheet, a pivot's date column given the columns' role, one more statistic said
with "too", the sheets counted with 放一起, households ranked by what they paid (交钱最多的前5户), two columns of
categories related by their test, a sheet said by the shorter end its name shares (那西湖的呢)."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame, write_workbook
from test_trial_round38 import DATED, FEES, OWNERS, SEASONS

from engine.session import Session
from tools.workspace import Workspace

ALL = pd.concat([df.assign(sheet=name) for name, df in SEASONS.items()], ignore_index=True)


@pytest.fixture(params=["pandas", "duckdb"])
def seasons(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "bookings.xlsx", SEASONS)
    return Workspace.at(tmp_path)


def _totals_without_autumn() -> pd.Series:
    return ALL[ALL["sheet"] != "Autumn"].groupby("Show")["Total Paid"].sum()


def _check_totals(f: pd.DataFrame) -> None:
    want = _totals_without_autumn()
    got = f.set_index("Show").iloc[:, 0]
    assert sorted(got.index) == sorted(want.index)
    for k in want.index:
        assert got[k] == want[k], (k, got[k], want[k])


@pytest.mark.parametrize("said", ["total paid per show for all sheets, leave out the Autumn sheet",
                                  "total paid per show for all sheets without the Autumn sheet",
                                  "所有工作表按Show汇总Total Paid，Autumn表不算"])
def test_a_sheet_left_out_of_every_sheet(seasons, said):
    tr = answered(Session(seasons), said)
    _check_totals(result_frame(tr))


def test_the_same_request_with_a_sheet_left_out(seasons):
    s = Session(seasons)
    answered(s, "total paid per show for all sheets")
    tr = s.turn("same but leave out the Autumn sheet")
    assert "≠ Autumn" in tr.decision.reply, tr.decision.reply
    _check_totals(result_frame(s.turn("go")))


def test_a_sheet_left_out_in_chinese_after_every_sheet_ran(seasons):
    s = Session(seasons)
    answered(s, "所有工作表合起来按Show汇总Total Paid")
    tr = s.turn("Autumn表不算呢")
    assert "不等于 Autumn" in tr.decision.reply, tr.decision.reply
    _check_totals(result_frame(s.turn("继续")))


def test_a_yes_no_column_counted_is_the_rows_it_keeps(seasons):
    tr = answered(Session(seasons), "how many refunded bookings per sheet")
    assert "distinct" not in tr.plan.goalSummary, tr.plan.goalSummary
    f = result_frame(tr).set_index("sheet")
    want = ALL[ALL["Refunded"] == "Y"].groupby("sheet").size()
    for k in want.index:
        assert f.loc[k].iloc[0] == want[k]


@pytest.mark.parametrize("said", ["show me those rows", "list them", "which ones are they", "把这些单子列出来"])
def test_the_rows_behind_a_count(seasons, said):
    s = Session(seasons)
    answered(s, "how many refunded bookings per sheet")
    tr = s.turn(said)
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    f = result_frame(tr)
    assert sorted(f["Booking Ref"]) == sorted(ALL.loc[ALL["Refunded"] == "Y", "Booking Ref"])


def test_rows_asked_for_after_a_count_of_one_sheet(seasons):
    s = Session(seasons)
    answered(s, "Summer: how many refunded bookings per show")
    f = result_frame(s.turn("list them"))
    su = SEASONS["Summer"]
    assert sorted(f["Booking Ref"]) == sorted(su.loc[su["Refunded"] == "Y", "Booking Ref"])


def test_one_more_statistic_said_with_too(seasons):
    s = Session(seasons)
    answered(s, "Summer: average Total Paid per Show")
    tr = s.turn("add the max too")
    assert "max" in tr.decision.reply and "mean" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("go")).set_index("Show")
    su = SEASONS["Summer"].groupby("Show")["Total Paid"]
    assert list(f.filter(like="max").iloc[:, 0].sort_index()) == list(su.max().sort_index())


ALL_DATED = pd.concat([df.assign(sheet=name) for name, df in DATED.items()], ignore_index=True)


@pytest.fixture(params=["pandas", "duckdb"])
def seasons_dated(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "bookings.xlsx", DATED)
    return Workspace.at(tmp_path)


@pytest.mark.parametrize("said", ["count bookings by weekday across all sheets", "count bookings per weekday for all sheets"])
def test_a_weekday_grouping_over_every_sheet(seasons_dated, said):
    tr = answered(Session(seasons_dated), said)
    f = result_frame(tr)
    assert len(f) == ALL_DATED["Booking Date"].dt.day_of_week.nunique()
    assert f.select_dtypes("number").iloc[:, -1].sum() == len(ALL_DATED)


def test_a_pivot_whose_columns_are_the_date_by_month(seasons_dated):
    tr = Session(seasons_dated).turn("Summer pivot: rows Show, columns Booking Date by month, values Total Paid")
    if tr.run is None:
        tr = Session(seasons_dated).turn("go")
    f = result_frame(tr)
    assert f.columns[0] == "Show", list(f.columns)
    su = DATED["Summer"]
    got = f[f["Show"] != "Total"].set_index("Show")
    for show, total in su.groupby("Show")["Total Paid"].sum().items():
        assert got.loc[show].iloc[0] == total


FEES3 = {**FEES, "南湖苑": FEES["西湖苑"].assign(单据号=lambda d: "N" + d["单据号"], 金额=lambda d: d["金额"] + 1)}


@pytest.fixture(params=["pandas", "duckdb"])
def fees3(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "收费.xlsx", FEES3)
    OWNERS.to_csv(tmp_path / "住户.csv", index=False)
    return Workspace.at(tmp_path)


def test_the_sheets_counted_put_together(fees3):
    s = Session(fees3)
    answered(s, "东湖苑按费用类型汇总金额")
    tr = s.turn("三个小区放一起算呢")
    assert "3 个工作表" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续")).set_index("费用类型")
    want = pd.concat(FEES3.values()).groupby("费用类型")["金额"].sum()
    for k in want.index:
        assert f.loc[k].iloc[0] == want[k]


@pytest.mark.parametrize("said", ["东湖苑交钱最多的前3户", "东湖苑缴费最多的前3个房号"])
def test_households_ranked_by_what_they_paid(fees3, said):
    f = result_frame(answered(Session(fees3), said))
    want = FEES3["东湖苑"].groupby("房号")["金额"].sum().sort_values(ascending=False).head(3)
    assert list(f["房号"]) == list(want.index)
    assert list(f.iloc[:, 1]) == list(want)


@pytest.mark.parametrize("said", ["东湖苑费用类型和收费员有没有关系，做个卡方检验", "东湖苑费用类型和收费员有没有关系"])
def test_two_columns_of_categories_related_by_their_test(fees3, said):
    tr = Session(fees3).turn(said)
    tools = [st.toolHint for st in tr.plan.steps]
    assert "correlation" not in " ".join(tools) and any("test" in x or "chi" in x for x in tools), tools


def test_a_sheet_said_by_the_shorter_end_its_name_shares(fees3):
    s = Session(fees3)
    answered(s, "东湖苑按费用类型汇总金额")
    tr = s.turn("那西湖的呢")
    assert "西湖苑" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续")).set_index("费用类型")
    want = FEES3["西湖苑"].groupby("费用类型")["金额"].sum()
    for k in want.index:
        assert f.loc[k].iloc[0] == want[k]
