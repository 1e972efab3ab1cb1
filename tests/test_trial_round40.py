"""Found by the round-39 and round-40 work, each recomputed with pandas: a sheet left out of every sheet stacked (leave out
the Autumn sheet / Autumn表不算呢), a yes-no column counted is its rows, the rows behind a count (show me those rows / 把这些
单子列出来), a weekday grouping over every sheet, a pivot's date column given the columns' role, one more statistic said
with "too", the sheets counted with 放一起, households ranked by what they paid (交钱最多的前5户), two columns of
categories related by their test, a sheet said by the shorter end its name shares (那西湖的呢)."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame, write_workbook
from test_trial_round38 import CITY, DATED, FEES, OWNERS, SEASONS, STAFF

from engine.session import Session
from tools.workspace import Workspace


def _workspace(folder, monkeypatch, engine: str, book: str, sheets: dict, tables: dict | None = None) -> Workspace:
    """A workspace of one workbook (and its csv tables), read by the engine given."""
    monkeypatch.setenv("WENQING_ENGINE", engine)
    write_workbook(folder, book, sheets)
    for name, df in (tables or {}).items():
        df.to_csv(folder / name, index=False)
    return Workspace.at(folder)


ALL = pd.concat([df.assign(sheet=name) for name, df in SEASONS.items()], ignore_index=True)


@pytest.fixture(params=["pandas", "duckdb"])
def seasons(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "bookings.xlsx", SEASONS)


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
    return _workspace(tmp_path, monkeypatch, request.param, "bookings.xlsx", DATED)


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
    return _workspace(tmp_path, monkeypatch, request.param, "收费.xlsx", FEES3, {"住户.csv": OWNERS})


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
    assert "correlate_columns" not in tools and any("test" in x or "chi" in x for x in tools), tools


def test_a_sheet_said_by_the_shorter_end_its_name_shares(fees3):
    s = Session(fees3)
    answered(s, "东湖苑按费用类型汇总金额")
    tr = s.turn("那西湖的呢")
    assert "西湖苑" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续")).set_index("费用类型")
    want = FEES3["西湖苑"].groupby("费用类型")["金额"].sum()
    for k in want.index:
        assert f.loc[k].iloc[0] == want[k]


def test_the_top_rows_of_each_sheet_stacked(seasons):
    f = result_frame(answered(Session(seasons), "bookings.xlsx all sheets: top 2 rows by Total Paid per sheet"))
    assert len(f) == 6
    for name, df in SEASONS.items():
        got = sorted(f.loc[f["sheet"] == name, "Total Paid"], reverse=True)
        assert got == sorted(df["Total Paid"], reverse=True)[:2], name


def test_the_top_rows_of_each_sheet_in_chinese(seasons):
    s = Session(seasons)
    answered(s, "bookings.xlsx 所有工作表合在一起，Total Paid前2的行")
    tr = s.turn("不对，是每个工作表分别取前2")
    assert "每个 工作表 内" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续"))
    assert len(f) == 6


@pytest.mark.parametrize("said", ["Summer: top 1 booking by Total Paid per Show", "Summer: top 1 bookings by Total Paid in each Show"])
def test_the_top_row_of_each_group_named_after_a_ranking_column(seasons, said):
    f = result_frame(answered(Session(seasons), said))
    su = SEASONS["Summer"]
    want = su.groupby("Show")["Total Paid"].max()
    got = f.groupby("Show")["Total Paid"].max()
    assert dict(got) == dict(want)


GYM = {club: pd.DataFrame({"SaleID": [f"{club[0]}{i}" for i in range(8)],
                           "Plan": ["Monthly", "Annual", "Monthly", "Day Pass", "Annual", "Monthly", "Day Pass", "Monthly"],
                           "TrainerID": ["T1", "T2", "T1", "T3", "T2", "T3", "T1", "T2"],
                           "Amount": amounts, "AutoRenew": renew, "Sessions": [4.0, 12.0, None, 1.0, 10.0, 4.0, 1.0, 8.0],
                           "SaleDate": pd.to_datetime(["2024-03-04", "2024-03-05", "2024-03-06", "2024-03-06", "2024-03-07", "2024-03-13",
                                                       "2024-03-20", "2024-03-09"])})
       for club, amounts, renew in [
           ("Downtown", [50.0, 400.0, 55.0, 12.0, 390.0, 50.0, 12.0, 60.0], ["Y", "Y", "N", "N", "Y", "Y", "N", "N"]),
           ("Harbour", [52.0, 410.0, 50.0, 15.0, 380.0, 45.0, 15.0, 58.0], ["N", "Y", "Y", "N", "N", "Y", "N", "Y"])]}
TRAINERS = pd.DataFrame({"TrainerID": ["T1", "T2", "T3", "T4"], "TrainerName": ["Ana Diaz", "Ben Cho", "Cy Oduya", "Dee Park"],
                         "Specialty": ["Spin", "HIIT", "Yoga", "Pilates"]})


@pytest.fixture(params=["pandas", "duckdb"])
def gym(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "club_sales.xlsx", GYM, {"trainers.csv": TRAINERS})


def test_their_names_are_the_name_column_written_in_one_word(gym):
    s = Session(gym)
    answered(s, "Downtown sheet: top 2 TrainerID by total Amount")
    tr = s.turn("add their names and specialty from trainers.csv")
    if tr.run is None:
        tr = s.turn("go")
    f = result_frame(tr)
    assert "TrainerName" in f.columns and "Specialty" in f.columns, list(f.columns)
    names = dict(zip(TRAINERS["TrainerID"], TRAINERS["TrainerName"], strict=True))
    assert all(names[k] == v for k, v in zip(f["TrainerID"], f["TrainerName"], strict=True))


@pytest.mark.parametrize(("said", "ascending"), [("Downtown: auto renew rate per Plan, highest first", False),
                                                  ("Downtown: proportion of sales with AutoRenew = Y by Plan, lowest first", True)])
def test_a_rate_per_group_in_the_order_said(gym, said, ascending):
    f = result_frame(answered(Session(gym), said))
    dt = GYM["Downtown"]
    want = (dt["AutoRenew"].eq("Y").groupby(dt["Plan"]).mean() * 100).round(2).sort_values(ascending=ascending, kind="stable")
    assert list(f.iloc[:, -1]) == list(want) and list(f["Plan"]) == list(want.index)


@pytest.fixture(params=["pandas", "duckdb"])
def homes(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "派单.xlsx", CITY, {"师傅.csv": STAFF})


def _city() -> dict[str, pd.DataFrame]:
    return CITY


def test_a_rate_per_group_ordered_in_chinese_and_by_a_later_turn(homes):
    nb = _city()["宁波"]
    want = (nb["是否退款"].eq("是").groupby(nb["服务类型"]).mean() * 100).round(2).sort_values(ascending=False, kind="stable")
    f = result_frame(answered(Session(homes), "宁波按服务类型算退款率，从高到低"))
    assert list(f["比例(%)"]) == list(want)
    s = Session(homes)
    s.turn("三个城市的退款率分别是多少")
    tr = s.turn("对，按比例从高到低排")
    assert "从高到低" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续"))
    assert len(f) == 3 and list(f["比例(%)"]) == sorted(f["比例(%)"], reverse=True)


def test_a_sheet_said_as_left_out_stacks_the_others(homes):
    city = _city()
    f = result_frame(answered(Session(homes), "绍兴以外的，按服务类型汇总金额")).set_index("服务类型")
    want = pd.concat([city["宁波"], city["温州"]]).groupby("服务类型")["金额"].sum()
    for k in want.index:
        assert f.loc[k].iloc[0] == want[k]


def test_columns_brought_out_from_a_table_said_with_from(homes):
    s = Session(homes)
    answered(s, "宁波每个师傅接了多少单")
    tr = s.turn("把他们的籍贯也带出来，从师傅.csv里找")
    if tr.run is None:
        tr = s.turn("继续")
    assert "籍贯" in result_frame(tr).columns


def test_rows_left_out_of_a_growth_just_run(homes):
    s = Session(homes)
    answered(s, "宁波每个月的金额")
    answered(s, "算下环比")
    tr = s.turn("不要退款的，再算一次")
    assert "环比" in tr.decision.reply and "是否退款 不等于 是" in tr.decision.reply, tr.decision.reply


def test_rows_left_out_of_a_top_n_just_run(homes):
    nb = _city()["宁波"]
    s = Session(homes)
    answered(s, "宁波金额前3的单子")
    tr = s.turn("退款的排除掉再取")
    assert "是否退款 不等于 是" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续"))
    assert sorted(f["订单号"]) == sorted(nb[nb["是否退款"] != "是"].nlargest(3, "金额")["订单号"])


SALES = {area: pd.DataFrame({"单号": [f"{area[0]}{i}" for i in range(6)], "门店": shops, "类别": ["处方药", "保健品", "处方药", "器械", "保健品", "处方药"],
                              "销售金额": money})
         for area, shops, money in [("东城片区", ["和平里店", "东直门店", "和平里店", "东直门店", "和平里店", "东直门店"], [120.0, 80.0, 60.0, 300.0, 45.0, 99.0]),
                                    ("西城片区", ["月坛店", "金融街店", "月坛店", "月坛店", "金融街店", "金融街店"], [150.0, 20.0, 70.0, 210.0, 66.0, 35.0]),
                                    ("南城片区", ["天桥店", "天桥店", "永定门店", "天桥店", "永定门店", "永定门店"], [33.0, 210.0, 18.0, 77.0, 65.0, 140.0])]}


@pytest.fixture(params=["pandas", "duckdb"])
def shops(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "门店销售2024上半年.xlsx", SALES)


def test_a_new_request_after_every_sheet_stays_on_every_sheet(shops):
    s = Session(shops)
    answered(s, "三个片区合在一起，按门店汇总销售金额")
    tr = answered(s, "按类别算销售额")
    assert "东城片区、西城片区、南城片区" in tr.plan.goalSummary, tr.plan.goalSummary
    f = result_frame(tr).set_index("类别")
    want = pd.concat(SALES.values()).groupby("类别")["销售金额"].sum()
    for k in want.index:
        assert f.loc[k].iloc[0] == want[k]


def test_a_new_request_in_the_workbooks_words_keeps_its_sheet(shops):
    s = Session(shops)
    answered(s, "东城片区按门店汇总销售金额")
    tr = s.turn("去掉重复的，再按门店算销售额")
    assert tr.run is not None and tr.decision.request.sheet == "东城片区", tr.decision.reply


@pytest.mark.parametrize("said", ["Downtown: fill the blank Sessions with 0", "Downtown: change Sessions to 0 where Sessions is blank"])
def test_blanks_filled_said_in_english(gym, said):
    tr = answered(Session(gym), said)
    assert "fill blanks in Sessions with 0" in tr.plan.goalSummary, tr.plan.goalSummary
    f = result_frame(tr)
    assert f["Sessions"].isna().sum() == 0 and f["Sessions"].sum() == GYM["Downtown"]["Sessions"].sum()


def test_a_value_changed_for_the_row_an_id_names(gym):
    f = result_frame(answered(Session(gym), "Downtown: change Amount to 49 for D3"))
    dt = GYM["Downtown"]
    assert f.loc[f["SaleID"] == "D3", "Amount"].tolist() == [49]
    assert f.loc[f["SaleID"] != "D3", "Amount"].tolist() == dt.loc[dt["SaleID"] != "D3", "Amount"].tolist()


@pytest.mark.parametrize("said", ["Downtown: how many sessions were sold", "Downtown: how many sessions in total"])
def test_how_many_of_a_counted_column_is_its_total(gym, said):
    f = result_frame(answered(Session(gym), said))
    assert f.filter(like="Sessions").iloc[0, 0] == GYM["Downtown"]["Sessions"].sum()


def test_which_weekday_has_the_most_sales_counts_rows_and_says_the_day_in_english(gym):
    tr = answered(Session(gym), "which weekday has the most sales at Downtown")
    dt = GYM["Downtown"]
    busiest = dt["SaleDate"].dt.day_name().str[:3].value_counts()
    assert "rows" in tr.run.answer and busiest.index[0] in tr.run.answer and "周" not in tr.run.answer, tr.run.answer


def test_a_statistic_said_instead_after_statistics_per_group(gym):
    s = Session(gym)
    answered(s, "Downtown: median Amount per Plan")
    tr = s.turn("use the mean instead")
    assert "mean" in tr.decision.reply and "median" not in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("go")).set_index("Plan")
    want = GYM["Downtown"].groupby("Plan")["Amount"].mean()
    for k in want.index:
        assert abs(f.loc[k].iloc[-1] - want[k]) < 1e-9


def test_a_statistic_per_key_after_it_was_given_for_the_whole_sheet(homes):
    nb = _city()["宁波"]
    s = Session(homes)
    answered(s, "宁波每单金额的平均值和中位数")
    tr = s.turn("按师傅分别算中位数")
    assert "按 师傅 分组" in tr.decision.reply and "中位数" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续")).set_index("师傅")
    want = nb.groupby("师傅")["金额"].median()
    for k in want.index:
        assert f.loc[k].iloc[-1] == want[k]


def test_shares_said_as_percent_leave_nothing_unread(gym):
    tr = Session(gym).turn("share of Amount by Plan for Downtown, as percent")
    assert "not understood" not in tr.decision.reply and "cent" not in tr.decision.reply.replace("percent", ""), tr.decision.reply


@pytest.fixture(params=["pandas", "duckdb"])
def shop_book(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "门店销售.xlsx", SALES)


def test_words_that_spell_the_workbook_in_use_keep_its_sheet(shop_book):
    s = Session(shop_book)
    answered(s, "东城片区按门店汇总销售金额")
    tr = s.turn("去掉重复的，再按门店算销售额")
    assert tr.decision.request.sheet == "东城片区" and tr.decision.next != "ask_slots", tr.decision.reply


MONTHS = dict(zip(["7月", "8月", "9月"], CITY.values(), strict=True))


@pytest.fixture(params=["pandas", "duckdb"])
def months(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "烘焙订单.xlsx", MONTHS)


@pytest.mark.parametrize("said", ["三个月所有订单按师傅统计订单数", "三个月里按师傅统计订单数"])
def test_the_months_counted_over_month_sheets_are_every_sheet(months, said):
    s = Session(months)
    answered(s, "8月按师傅统计订单数")
    f = result_frame(answered(s, said)).set_index("师傅")
    want = pd.concat(MONTHS.values()).groupby("师傅").size()
    for k in want.index:
        assert f.loc[k].iloc[-1] == want[k]


def test_which_n_periods_said_inside_which(months):
    f = result_frame(answered(Session(months), "7月哪3天卖得最多"))
    assert len(f) == 3
