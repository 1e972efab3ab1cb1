"""Found by the round-23 work, each recomputed with pandas: a yes-no column said by its word (延误 of 是否延误) as a
figure — counted where it says yes, its rate, the groups ranked by it — and the rows a share is of kept apart from
what the share counts."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame, write_workbook

from engine.session import Session
from tools.workspace import Workspace

TRIPS = pd.DataFrame({
    "司机": ["甲", "乙", "甲", "丙", "乙", "甲", "丙", "乙", "甲", "丙", "乙", "甲"],
    "线路": ["东线", "西线", "西线", "东线", "东线", "东线", "西线", "西线", "东线", "东线", "西线", "西线"],
    "客户类型": ["企业", "个人", "企业", "平台", "企业", "个人", "企业", "平台", "企业", "个人", "企业", "平台"],
    "运费": [100.0, 200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0, 900.0, 1000.0, 1100.0, 1200.0],
    "是否延误": ["是", "否", "是", "否", "是", "是", "否", "否", "是", "否", "是", "否"],
})
LATE = TRIPS["是否延误"] == "是"


@pytest.fixture(params=["pandas", "duckdb"])
def ws(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    TRIPS.to_csv(tmp_path / "发车.csv", index=False)
    return Workspace.at(tmp_path)


def _workbook(folder, name: str, sheets: dict[str, pd.DataFrame]) -> Workspace:
    """A workbook of these sheets in the folder, as the workspace."""
    write_workbook(folder, name, sheets)
    return Workspace.at(folder)


@pytest.mark.parametrize("said", ["哪个司机延误最多", "延误最多的司机", "延误次数最多的司机", "哪1个司机延误最多"])
def test_the_group_with_the_most_yes_rows(ws, said):
    tr = answered(Session(ws), "发车.csv " + said)
    want = LATE.groupby(TRIPS["司机"]).sum()
    f = result_frame(tr)
    assert len(f) == 1 and f.iloc[0]["司机"] == want.idxmax()
    assert str(int(want.max())) in tr.run.answer and "nan" not in tr.run.answer  # the count of yes rows, never a sum of 是/否


@pytest.mark.parametrize("said", ["延误最多的2个司机", "哪2个司机延误最多", "延误次数最多的2个司机"])
def test_the_first_groups_by_their_yes_rows(ws, said):
    tr = answered(Session(ws), "发车.csv " + said)
    want = LATE.groupby(TRIPS["司机"]).sum().sort_values(ascending=False)
    assert list(result_frame(tr)["司机"]) == list(want.index[:2])


def test_the_first_groups_by_their_rows(ws):
    tr = answered(Session(ws), "发车.csv 单子最多的2个司机")
    want = TRIPS.groupby("司机").size().sort_values(ascending=False, kind="stable")
    f = result_frame(tr)
    assert sorted(f["司机"]) == sorted(want.index[:2])


def test_a_column_named_after_a_superlative_is_ranked_by_its_total(ws):
    tr = answered(Session(ws), "发车.csv 运费最高的线路")
    want = TRIPS.groupby("线路")["运费"].sum()
    f = result_frame(tr)
    assert len(f) == 1 and f.iloc[0]["线路"] == want.idxmax()


def test_a_rate_said_by_the_flag_word(ws):
    tr = answered(Session(ws), "发车.csv 延误率是多少")
    assert tr.decision.request.kinds() == ["proportion"]
    assert f"{LATE.sum()} 行" in tr.run.answer and f"{len(TRIPS)} 行" in tr.run.answer


def test_a_rate_per_group(ws):
    tr = answered(Session(ws), "发车.csv 各线路的延误率")
    for line, g in TRIPS.groupby("线路"):
        assert f"{line} {(g['是否延误'] == '是').sum()}/{len(g)}" in tr.run.answer


@pytest.mark.parametrize("said,rows", [
    ("企业客户的延误率", TRIPS["客户类型"] == "企业"),
    ("不算个人客户，延误的占比是多少", TRIPS["客户类型"] != "个人"),
    ("企业客户里延误的比例", TRIPS["客户类型"] == "企业"),
])
def test_the_rows_a_share_is_of_are_filtered_first(ws, said, rows):
    tr = answered(Session(ws), "发车.csv " + said)
    base = TRIPS[rows]
    matched = int((base["是否延误"] == "是").sum())
    assert f"{matched} 行" in tr.run.answer and f"{len(base)} 行" in tr.run.answer  # of those rows, never of all 12


def test_a_share_of_one_condition_alone_stays_that_condition(ws):
    tr = answered(Session(ws), "发车.csv 不是个人客户的占比")
    n = int((TRIPS["客户类型"] != "个人").sum())
    assert f"{n} 行" in tr.run.answer and f"{len(TRIPS)} 行" in tr.run.answer


def test_their_yes_count_after_a_count_per_group(ws):
    s = Session(ws)
    answered(s, "发车.csv 每个线路有多少单")
    tr = answered(s, "他们的延误次数呢")
    f = result_frame(tr).set_index("线路")
    want = LATE.groupby(TRIPS["线路"]).sum()
    assert "延误_行数" in f.columns
    assert f.loc[want.index, "延误_行数"].tolist() == want.tolist()
    assert f.loc[want.index, "行数"].tolist() == TRIPS.groupby("线路").size().loc[want.index].tolist()  # every row still counted


def test_their_rate_after_a_total_per_group(ws):
    s = Session(ws)
    answered(s, "发车.csv 每个司机的运费合计")
    tr = answered(s, "他们的延误率呢")
    for who, g in TRIPS.groupby("司机"):
        assert f"{who} {(g['是否延误'] == '是').sum()}/{len(g)}" in tr.run.answer


DAYS = pd.DataFrame({
    "日期": pd.to_datetime(["2026-01-05", "2026-01-06", "2026-01-20", "2026-02-02", "2026-02-03", "2026-02-04", "2026-02-10", "2026-03-09"]),
    "金额": [10.0, 20.0, 300.0, 40.0, 50.0, 60.0, 1.0, 5.0],
})


@pytest.fixture
def days(tmp_path, monkeypatch) -> Workspace:
    DAYS.to_csv(tmp_path / "流水.csv", index=False)
    return Workspace.at(tmp_path)


@pytest.mark.parametrize("said,want", [
    ("按月汇总金额，看哪个月最高", ("2026-01", 330)),
    ("按月汇总金额，哪个月最低", ("2026-03", 5)),
    ("按月统计单数，哪个月最多", ("2026-02", 4)),
])
def test_the_period_asked_after_a_summary_per_period(days, said, want):
    tr = answered(Session(days), "流水.csv " + said)
    f = result_frame(tr)
    assert len(f) == 1 and str(f.iloc[0, 0]).startswith(want[0])
    assert f"{want[1]}" in tr.run.answer  # the figure it was ranked by is said, the row count too


def test_the_week_asked_after_a_summary_per_week(days):
    tr = answered(Session(days), "流水.csv 按周汇总金额，看哪周最高")
    weekly = DAYS.groupby(DAYS["日期"].dt.to_period("W"))["金额"].sum()
    assert f"{int(weekly.max())}" in tr.run.answer and len(result_frame(tr)) == 1


STORES = {
    "东店": pd.DataFrame({"销售日期": pd.to_datetime(["2025-01-03", "2025-01-20", "2025-02-11", "2025-02-12", "2025-03-01"]),
                        "品类": ["饮品", "零食", "饮品", "酒水", "零食"], "导购": ["甲", "乙", "甲", "乙", "甲"],
                        "数量": [1, 2, 3, 4, 5], "金额": [10.0, 20.0, 30.0, 40.0, 100.0], "折扣": [1.0, 0.8, 0.5, 1.0, 0.5]}),
    "西店": pd.DataFrame({"销售日期": pd.to_datetime(["2025-01-05", "2025-02-07", "2025-02-08", "2025-03-09"]),
                        "品类": ["饮品", "饮品", "零食", "酒水"], "导购": ["丙", "丙", "丁", "丁"],
                        "数量": [2, 2, 6, 1], "金额": [15.0, 25.0, 35.0, 45.0], "折扣": [1.0, 0.5, 0.5, 1.0]}),
}


@pytest.fixture
def stores(tmp_path, monkeypatch) -> Workspace:
    return _workbook(tmp_path, "门店.xlsx", STORES)


def _stacked() -> pd.DataFrame:
    return pd.concat([df.assign(工作表=name) for name, df in STORES.items()])


@pytest.mark.parametrize("said", ["三个店合在一起，按工作表和销售月份汇总金额", "两个店合在一起，按工作表和销售日期的月份汇总金额"])
def test_a_month_of_the_date_column_named_by_its_first_word_is_a_key(stores, said):
    tr = answered(Session(stores), "门店.xlsx " + said)
    d = _stacked()
    want = d.groupby(["工作表", d["销售日期"].dt.strftime("%Y-%m")])["金额"].sum()
    f = result_frame(tr)
    assert len(f) == len(want)  # one row per sheet and month, never one per day
    got = {(r.iloc[0], str(r.iloc[1])[:7]): r["金额_合计"] for _, r in f.iterrows()}
    assert got == pytest.approx(want.to_dict())


@pytest.mark.parametrize("said", ["东店 按月和导购汇总金额", "东店 按销售月份和导购汇总金额"])
def test_the_columns_listed_after_a_period_are_keys_too(stores, said):
    tr = answered(Session(stores), "门店.xlsx " + said)
    d = STORES["东店"]
    want = d.groupby([d["销售日期"].dt.strftime("%Y-%m"), "导购"])["金额"].sum()
    assert len(result_frame(tr)) == len(want) and "导购" in result_frame(tr).columns


def test_a_named_formula_after_jia_ge_adds_that_column(stores):
    s = Session(stores)
    answered(s, "门店.xlsx 东店加一列原价，就是金额除以折扣")
    tr = answered(s, "在这个结果里再加个优惠金额=原价-金额，然后按导购汇总优惠金额")
    d = STORES["东店"]
    want = (d["金额"] / d["折扣"] - d["金额"]).groupby(d["导购"]).sum()
    f = result_frame(tr).set_index("导购")
    assert f.loc[want.index, "优惠金额_合计"].tolist() == pytest.approx(want.tolist())


def test_a_statistic_said_for_one_column_of_a_summary_swaps_only_that_one(stores):
    s = Session(stores)
    answered(s, "门店.xlsx 东店除了酒水，按品类汇总金额和数量")
    tr = answered(s, "金额用中位数")
    d = STORES["东店"][STORES["东店"]["品类"] != "酒水"]
    f = result_frame(tr).set_index("品类")
    assert f["金额_中位数"].to_dict() == pytest.approx(d.groupby("品类")["金额"].median().to_dict())
    assert f["数量_合计"].to_dict() == d.groupby("品类")["数量"].sum().to_dict() and "金额_合计" not in f.columns


def test_the_same_on_another_sheet_with_a_change(stores):
    s = Session(stores)
    answered(s, "门店.xlsx 东店除了酒水，按品类汇总金额和数量")
    tr = answered(s, "西店也这样弄，不过金额用中位数")
    d = STORES["西店"][STORES["西店"]["品类"] != "酒水"]
    f = result_frame(tr).set_index("品类")
    assert f["金额_中位数"].to_dict() == pytest.approx(d.groupby("品类")["金额"].median().to_dict())
    assert f["数量_合计"].to_dict() == d.groupby("品类")["数量"].sum().to_dict()


def test_the_same_chart_on_another_sheet(stores):
    s = Session(stores)
    answered(s, "门店.xlsx 东店每个月销售额画个折线图")
    tr = answered(s, "西店也画一个一样的")
    assert tr.decision.request.sheet == "西店" and "chart" in tr.decision.request.kinds()
    d = STORES["西店"]
    want = d.groupby(d["销售日期"].dt.strftime("%Y-%m"))["金额"].sum()
    assert result_frame(tr).iloc[:, -1].tolist() == pytest.approx(want.tolist())


SHOPS = {
    "东区店": pd.DataFrame({"会员编号": ["V1", "V2", "V1", "V3"], "会员姓名": ["甲", "乙", "甲", "丙"], "品类": ["饮品", "酒水", "零食", "饮品"],
                          "金额": [100.0, 200.0, 300.0, 400.0], "数量": [1, 2, 3, 4], "是否新客": ["是", "否", "否", "是"]}),
    "西区店": pd.DataFrame({"会员编号": ["V4", "V4", "V5"], "会员姓名": ["丁", "丁", "戊"], "品类": ["零食", "饮品", "酒水"],
                          "金额": [50.0, 60.0, 70.0], "数量": [5, 6, 7], "是否新客": ["否", "否", "是"]}),
}


@pytest.fixture
def shops(tmp_path, monkeypatch) -> Workspace:
    return _workbook(tmp_path, "销售.xlsx", SHOPS)


@pytest.mark.parametrize("said", ["每个店的金额合计", "两个店合在一起，按门店看金额合计"])
def test_each_shop_over_sheets_named_as_shops_is_each_sheet(shops, said):
    tr = answered(Session(shops), "销售.xlsx " + said)
    f = result_frame(tr).set_index("工作表")
    assert f["金额_合计"].to_dict() == {k: v["金额"].sum() for k, v in SHOPS.items()}


def test_a_rate_per_shop_over_sheets(shops):
    tr = answered(Session(shops), "销售.xlsx 每个店的新客占比多少")
    for name, df in SHOPS.items():
        assert f"{name} {(df['是否新客'] == '是').sum()}/{len(df)}" in tr.run.answer


def test_the_sheet_column_offered_over_stacked_sheets_is_taken(shops):
    s = Session(shops)
    d = s.turn("销售.xlsx 合在一起，按分部看金额合计").decision
    assert d.next == "ask_slots"
    tr = answered(s, "工作表")
    f = result_frame(tr).set_index("工作表")
    assert f["金额_合计"].to_dict() == {k: v["金额"].sum() for k, v in SHOPS.items()}


def test_a_statistic_word_before_a_comparison_names_the_summary_figure(shops):
    s = Session(shops)
    answered(s, "销售.xlsx 东区店 按品类算金额平均")
    tr = answered(s, "在这个结果里 平均超过150的有哪几个")
    d = SHOPS["东区店"]
    means = d.groupby("品类")["金额"].mean()
    assert sorted(result_frame(tr)["品类"]) == sorted(means[means > 150].index)


@pytest.mark.parametrize("said", ["东区店 各个品类平均每单多少钱", "东区店 各品类平均每笔花多少"])
def test_money_said_as_how_much_each_paid_is_the_money_column(shops, said):
    tr = answered(Session(shops), "销售.xlsx " + said)
    d = SHOPS["东区店"]
    assert result_frame(tr).set_index("品类")["金额_平均"].to_dict() == pytest.approx(d.groupby("品类")["金额"].mean().to_dict())


def test_a_bare_how_much_with_several_figures_is_asked(shops):
    d = Session(shops).turn("销售.xlsx 东区店 各品类平均多少").decision
    assert d.next in ("ask_slots", "restate_confirm") and d.next != "execute"


def test_how_many_different_members_counts_their_numbers(shops):
    tr = answered(Session(shops), "销售.xlsx 东区店一共有多少个不同的会员来买过？酒水不算")
    d = SHOPS["东区店"]
    want = d[d["品类"] != "酒水"]["会员编号"].nunique()
    assert result_frame(tr).iloc[0, 0] == want and f"：{want}" in tr.run.answer


def test_besides_closed_after_a_word_of_the_column_is_the_exclusions(ws):
    tr = Session(ws).turn("发车.csv 除了个人客户以外，运费合计")
    assert tr.run is not None and "以外" not in (tr.decision.reply or "")
    assert result_frame(tr).iloc[0, 0] == pytest.approx(TRIPS[TRIPS["客户类型"] != "个人"]["运费"].sum())


def test_a_name_brought_along_after_a_total_per_number_is_a_key(shops):
    s = Session(shops)
    answered(s, "销售.xlsx 东区店 按会员编号分组 金额求和 取前2名")
    tr = answered(s, "他们叫什么名字？把会员姓名也带上")
    d = SHOPS["东区店"]
    want = d.groupby(["会员编号", "会员姓名"])["金额"].sum().sort_values(ascending=False).head(2)
    f = result_frame(tr)
    assert list(zip(f["会员编号"], f["会员姓名"], strict=True)) == list(want.index)
    assert f["金额_合计"].tolist() == want.tolist()


def test_by_month_not_by_day_corrects_a_summary_keyed_by_the_date(stores):
    s = Session(stores)
    answered(s, "门店.xlsx 东店 按导购和销售日期汇总金额")
    tr = answered(s, "不对，是按月份，不是按天")
    d = STORES["东店"]
    want = d.groupby(["导购", d["销售日期"].dt.strftime("%Y-%m")])["金额"].sum()
    assert len(result_frame(tr)) == len(want) and result_frame(tr)["金额_合计"].sum() == pytest.approx(d["金额"].sum())


def test_a_summary_said_in_a_correction_replaces_the_count(stores):
    s = Session(stores)
    s.turn("门店.xlsx 东店 品类是零食的，统计行数")
    tr = answered(s, "不是统计行数，是按导购分组把数量加起来")
    d = STORES["东店"][STORES["东店"]["品类"] == "零食"]
    assert "count" not in tr.decision.request.kinds()
    assert result_frame(tr).set_index("导购")["数量_合计"].to_dict() == d.groupby("导购")["数量"].sum().to_dict()


@pytest.mark.parametrize("said,stacked", [
    ("两个sheet合在一起，做透视表：行是销售日期按月，列是工作表，值是金额合计", True),
    ("东店 做透视表：行是销售日期按月，列是导购，值是金额合计", False),
])
def test_a_pivot_whose_rows_are_the_months_of_the_date(stores, said, stacked):
    tr = answered(Session(stores), "门店.xlsx " + said)
    d = _stacked() if stacked else STORES["东店"]
    across = "工作表" if stacked else "导购"
    want = d.pivot_table(index=d["销售日期"].dt.strftime("%Y-%m"), columns=across, values="金额", aggfunc="sum")
    f = result_frame(tr).set_index("销售日期")
    for month in want.index:
        for c in want.columns:
            if pd.notna(want.loc[month, c]):
                assert f.loc[month, c] == pytest.approx(want.loc[month, c])


def test_a_share_of_a_figure_per_key_with_blanks_left_out(tmp_path):
    df = pd.DataFrame({"付款方式": ["微信", "现金", None, "微信", None, "现金"], "金额": [10.0, 20.0, 30.0, 40.0, 50.0, 60.0]})
    df.to_csv(tmp_path / "流水.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "流水.csv 各种付款方式的金额占比是多少，付款方式空的不算")
    kept = df.dropna()
    share = kept.groupby("付款方式")["金额"].sum() / kept["金额"].sum() * 100
    assert tr.decision.request.kinds() in (["share", "filter"], ["filter", "share"])
    for k, v in share.items():
        assert f"{k} {v:.2f}%" in tr.run.answer  # of the rows with a payment method: 38.46% and 61.54%, never of all 210


def test_a_value_that_is_also_an_apps_name_is_a_value(stores, tmp_path):
    df = pd.DataFrame({"付款方式": ["微信", "现金", "微信", "支付宝"], "金额": [10.0, 20.0, 30.0, 40.0]})
    df.to_csv(tmp_path / "收款.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "收款.csv 按付款方式分组，金额求和")
    d = s.turn("还要加个条件：不是微信").decision
    assert d.gate != "chat" and any(c.value == "微信" for o in d.request.ops for c in o.args.get("conditions", []))


def test_a_pie_of_a_share_table_draws_its_figure_per_key(stores):
    s = Session(stores)
    answered(s, "门店.xlsx 东店各个品类的金额占比是多少")
    tr = answered(s, "把这个画成饼图")
    d = STORES["东店"]
    chart = tr.decision.request.op("chart")
    assert chart.args["x"] == "品类" and chart.args["y"] == ["金额_合计"]
    f = result_frame(tr).set_index("品类")
    assert f.iloc[:, 0].to_dict() == pytest.approx(d.groupby("品类")["金额"].sum().to_dict())


def test_removing_the_duplicates_just_listed_dedupes_their_table(tmp_path):
    df = pd.DataFrame({"单号": ["A1", "A2", "A3", "A2", "A4", "A5", "A5"], "金额": [1, 2, 3, 2, 4, 5, 5]})
    df.to_csv(tmp_path / "流水.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "流水.csv 有没有重复的记录？有几条")
    tr = answered(s, "把这些重复的去掉，只留一条")
    assert tr.decision.request.file == "流水.csv"
    assert len(result_frame(tr)) == len(df.drop_duplicates())


@pytest.mark.parametrize("said", ["东区店花钱最多的前2个会员是谁", "东区店消费最多的2个会员"])
def test_members_ranked_by_what_they_spent(shops, said):
    tr = answered(Session(shops), "销售.xlsx " + said)
    d = SHOPS["东区店"]
    want = d.groupby("会员编号")["金额"].sum().sort_values(ascending=False).head(2)
    f = result_frame(tr)
    assert list(f["会员编号"]) == list(want.index) and f["金额_合计"].tolist() == want.tolist()


WORK = {
    "North": pd.DataFrame({"WO Number": ["W1", "W2", "W3", "W4", "W5", "W6"], "Unit": ["U1", "U1", "U2", "U1", "U3", "U2"],
                           "Category": ["HVAC", "Plumbing", "General", "General", "HVAC", "General"],
                           "Technician": ["Ann", "Bo", "Ann", "Ann", "Bo", "Cy"], "Parts Cost": [10.0, 20.0, 30.0, 40.0, 50.0, 60.0],
                           "Tenant Charged (Y/N)": ["Y", "N", "Y", "Y", "N", "Y"], "Resolved On Time": ["Yes", "No", "Yes", "Yes", "Yes", "No"]}),
    "South": pd.DataFrame({"WO Number": ["W7", "W8", "W9"], "Unit": ["U4", "U4", "U5"], "Category": ["HVAC", "General", "General"],
                           "Technician": ["Cy", "Cy", "Bo"], "Parts Cost": [5.0, 6.0, 7.0],
                           "Tenant Charged (Y/N)": ["N", "Y", "Y"], "Resolved On Time": ["No", "No", "Yes"]}),
}


@pytest.fixture
def work(tmp_path) -> Workspace:
    return _workbook(tmp_path, "work_orders.xlsx", WORK)


@pytest.mark.parametrize("said", ["North: number of work orders and total Parts Cost per Unit, top 2 Units by number of work orders",
                                  "North: count and total Parts Cost per Unit, top 2 Units by count"])
def test_units_ranked_by_how_many_rows_they_have(work, said):
    tr = answered(Session(work), "work_orders.xlsx " + said)
    d = WORK["North"]
    f = result_frame(tr)
    assert list(f["Unit"]) == ["U1", "U2"] and f["rows"].tolist() == [3, 2]
    assert f["Parts Cost_sum"].tolist() == d.groupby("Unit")["Parts Cost"].sum().loc[["U1", "U2"]].tolist()


def test_a_value_ends_at_the_sentences_full_stop_and_the_count_is_said(work):
    tr = answered(Session(work), "work_orders.xlsx North orders, not HVAC, where Tenant Charged (Y/N) is Y. How many, and total Parts Cost?")
    d = WORK["North"]
    kept = d[(d["Category"] != "HVAC") & (d["Tenant Charged (Y/N)"] == "Y")]
    assert f"rows: {len(kept)}" in tr.run.answer and f"Parts Cost_sum: {int(kept['Parts Cost'].sum())}" in tr.run.answer
    assert "：" not in tr.run.answer  # an English answer in English punctuation


def test_a_share_per_sheet_over_stacked_sheets(work):
    tr = answered(Session(work), "work_orders.xlsx all sheets stacked: share of Resolved On Time per sheet")
    for name, d in WORK.items():
        assert f"{name} {(d['Resolved On Time'] == 'Yes').sum()}/{len(d)}" in tr.run.answer


def test_which_keys_have_more_than_n_on_a_count_per_key(work):
    s = Session(work)
    answered(s, "work_orders.xlsx North: count per Technician")
    tr = answered(s, "in that result, which technicians have more than 1? sort them high to low")
    counts = WORK["North"].groupby("Technician").size()
    want = counts[counts > 1].sort_values(ascending=False)
    f = result_frame(tr)
    assert list(f["Technician"]) == list(want.index) and f["rows"].tolist() == want.tolist()


def test_a_period_of_one_of_two_date_columns_named_as_a_key(tmp_path):
    df = pd.DataFrame({"Opened": pd.to_datetime(["2024-01-05", "2024-01-20", "2024-02-03", "2024-02-10"]),
                       "Closed": pd.to_datetime(["2024-02-01", "2024-03-01", "2024-02-05", "2024-04-01"]),
                       "Technician": ["Ann", "Bo", "Ann", "Ann"], "Parts Cost": [1.0, 2.0, 3.0, 4.0]})
    df.to_csv(tmp_path / "jobs.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    tr = answered(s, "jobs.csv total Parts Cost by Technician and Opened month")
    want = df.groupby(["Technician", df["Opened"].dt.strftime("%Y-%m")])["Parts Cost"].sum()
    assert len(result_frame(tr)) == len(want)  # of Opened, never of Closed
    tr = answered(s, "jobs.csv monthly total Parts Cost by Opened month, with month-over-month growth")
    assert tr.decision.request.kinds() == ["growth"]
    m = df.groupby(df["Opened"].dt.strftime("%Y-%m"))["Parts Cost"].sum()
    assert f"{m.pct_change().iloc[-1] * 100:.2f}%" in tr.run.answer


def test_an_english_named_formula_after_add_on_the_result(work):
    s = Session(work)
    answered(s, "work_orders.xlsx North: add a column Labor Cost = Parts Cost * 2")
    d = s.turn("work_orders.xlsx North: add a column Labor Cost = Parts Cost * 2").decision
    assert "not used" not in (d.reply or "")  # Labor Cost is the new column's name, no mention of Parts Cost
    tr = answered(s, "now add Total Cost = Labor Cost + Parts Cost to that")
    f = result_frame(tr)
    assert f["Total Cost"].tolist() == pytest.approx((WORK["North"]["Parts Cost"] * 3).tolist())


def test_each_building_answered_with_the_sheet_column_offered(work):
    s = Session(work)
    tr = s.turn("work_orders.xlsx for each building, what percent of work orders were Resolved On Time?")
    if tr.run is None:  # (a noun no table names, for each of a workbook's sheets, is now read as the sheets at once)
        s.turn("all sheets")
        tr = answered(s, "sheet")
    for name, d in WORK.items():
        assert f"{name} {(d['Resolved On Time'] == 'Yes').sum()}/{len(d)}" in tr.run.answer


def test_how_many_were_a_flag_said_as_a_predicate(work):
    tr = answered(Session(work), "work_orders.xlsx North: how many orders were Resolved On Time?")
    assert f"{(WORK['North']['Resolved On Time'] == 'Yes').sum()} rows match" in tr.run.answer


def test_a_figure_per_key_and_which_key_is_highest_keeps_every_key(tmp_path):
    df = pd.DataFrame({"Technician": ["A", "B", "C", "D"], "Team": ["HVAC", "General", "HVAC", "Electrical"], "Hourly Rate": [40.0, 35.0, 45.0, 50.0]})
    df.to_csv(tmp_path / "techs.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "average Hourly Rate per Team in techs.csv, and which Team is highest")
    want = df.groupby("Team")["Hourly Rate"].mean().sort_values(ascending=False)
    f = result_frame(tr)
    assert list(f["Team"]) == list(want.index)  # every team, never only the first
    assert tr.run.answer.endswith(f"the highest is {want.index[0]}.")


def _technicians(folder) -> pd.DataFrame:
    """technicians.csv (each technician's team and hourly rate) written into the folder."""
    techs = pd.DataFrame({"Technician": ["Ann", "Bo", "Cy"], "Team": ["HVAC", "General", "HVAC"], "Hourly Rate": [40.0, 35.0, 45.0]})
    techs.to_csv(folder / "technicians.csv", index=False)
    return techs


def test_columns_brought_into_the_last_result_from_another_file(work, tmp_path):
    techs = _technicians(tmp_path)
    s = Session(Workspace.at(tmp_path))
    answered(s, "work_orders.xlsx North: remove duplicate rows")
    tr = answered(s, "bring in Team and Hourly Rate from technicians.csv into that, matching on Technician")
    f = result_frame(tr)
    assert tr.decision.request.file.startswith("outputs/") and len(f) == len(WORK["North"])  # every row of the result kept
    want = WORK["North"].merge(techs, on="Technician", how="left")
    assert f["Hourly Rate"].tolist() == pytest.approx(want["Hourly Rate"].tolist())


def test_a_pivots_roles_said_with_equals(work):
    tr = answered(Session(work), "work_orders.xlsx pivot North: rows Category, columns Technician, values = sum of Parts Cost")
    p = tr.decision.request.op("pivot")
    assert p.args["rows"] == ["Category"] and p.args["columns"] == "Technician" and p.args.get("value") == "Parts Cost"
    assert not tr.decision.request.op("filter")


def test_the_same_summary_again_on_the_deduplicated_rows(tmp_path):
    df = pd.DataFrame({"单号": ["A1", "A2", "A3", "A2", "A4", "A5", "A5"], "门店": ["东", "西", "东", "西", "西", "东", "东"], "金额": [1, 2, 3, 2, 4, 5, 5]})
    df.to_csv(tmp_path / "流水.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "流水.csv 按门店汇总金额")
    tr = answered(s, "那用去重后的数据再算一遍")
    want = df.drop_duplicates().groupby("门店")["金额"].sum()
    assert result_frame(tr).set_index("门店")["金额_合计"].to_dict() == want.to_dict()


def test_a_sheet_of_the_workbook_in_use_named_after_a_result_is_that_sheet(stores):
    s = Session(stores)
    answered(s, "门店.xlsx 两个店合在一起，每月总金额")
    tr = answered(s, "算了，那就东店做个透视表吧，行是品类，列是导购，看金额合计")
    assert tr.decision.request.file == "门店.xlsx" and tr.decision.request.sheet == "东店"
    d = STORES["东店"]
    assert result_frame(tr).set_index("品类").loc["饮品", "甲"] == d[(d["品类"] == "饮品") & (d["导购"] == "甲")]["金额"].sum()


def test_rows_asked_after_a_share_per_sheet_are_a_request_of_their_own(shops):
    s = Session(shops)
    answered(s, "销售.xlsx 每个店的新客占比多少")
    tr = answered(s, "东区店单笔金额最大的2笔，只要会员姓名、品类、金额这几列")
    assert tr.decision.request.kinds() == ["top_n", "select"] and tr.decision.request.sheet == "东区店"
    assert result_frame(tr)["金额"].tolist() == sorted(SHOPS["东区店"]["金额"], reverse=True)[:2]


def test_a_keys_attributes_from_another_table_are_brought_beside_its_figure(stores, tmp_path):
    pd.DataFrame({"导购": ["甲", "乙"], "级别": ["高级", "初级"], "提成比例": [0.05, 0.02]}).to_csv(tmp_path / "导购信息.csv", index=False)
    tr = answered(Session(stores), "门店.xlsx 东店的饮品，每个导购卖了多少件，再把导购信息.csv里的级别和提成比例对上去")
    d = STORES["东店"][STORES["东店"]["品类"] == "饮品"]
    f = result_frame(tr).set_index("导购")
    assert f["数量_合计"].to_dict() == d.groupby("导购")["数量"].sum().to_dict()
    assert f.loc["甲", "级别"] == "高级" and f.loc["甲", "提成比例"] == pytest.approx(0.05)  # shown as it is, never summed


def test_how_many_pieces_each_sold_is_the_quantity(stores):
    tr = answered(Session(stores), "门店.xlsx 东店 每个导购卖了多少件")
    d = STORES["东店"]
    assert result_frame(tr).set_index("导购")["数量_合计"].to_dict() == d.groupby("导购")["数量"].sum().to_dict()


@pytest.mark.parametrize("said", ["no, only work_orders.xlsx sheet North, no join", "不对，只用work_orders.xlsx的North，不用关联"])
def test_no_join_said_asks_for_no_join(work, said):
    s = Session(work)
    s.turn("work_orders.xlsx North orders: how many per Technician?")
    d = s.turn(said).decision
    assert "join" not in d.request.kinds() and d.next != "ask_slots"


def test_row_count_and_a_total_per_key_top_n_by_the_count(work):
    tr = answered(Session(work), "work_orders.xlsx North: row count and Parts Cost sum per Unit, top 2 by row count")
    assert list(result_frame(tr)["Unit"]) == ["U1", "U2"]


def test_their_attributes_added_from_another_file_join_the_last_result(work, tmp_path):
    techs = _technicians(tmp_path)
    s = Session(Workspace.at(tmp_path))
    answered(s, "work_orders.xlsx North: total Parts Cost per Technician, top 2")
    tr = answered(s, "add their Team and Hourly Rate from technicians.csv")
    f = result_frame(tr)
    top = WORK["North"].groupby("Technician")["Parts Cost"].sum().sort_values(ascending=False).head(2)
    assert list(f["Technician"]) == list(top.index)
    assert f["Hourly Rate"].tolist() == techs.set_index("Technician").loc[top.index, "Hourly Rate"].tolist()


def test_the_result_matched_to_another_table_by_dui_shang(stores, tmp_path):
    pd.DataFrame({"导购": ["甲", "乙"], "级别": ["高级", "初级"], "提成比例": [0.05, 0.02]}).to_csv(tmp_path / "导购信息.csv", index=False)
    s = Session(stores)
    answered(s, "门店.xlsx 东店 按导购汇总数量")
    tr = answered(s, "把这个结果跟导购信息.csv按导购对上，加上级别和提成比例")
    f = result_frame(tr).set_index("导购")
    assert f.loc["甲", "级别"] == "高级" and f.loc["乙", "提成比例"] == pytest.approx(0.02)
    assert f["数量_合计"].to_dict() == STORES["东店"].groupby("导购")["数量"].sum().to_dict()


def test_compared_with_last_month_is_no_join(stores):
    d = Session(stores).turn("门店.xlsx 东店 每个月金额合计对上个月涨了多少").decision
    assert "join" not in d.request.kinds()


SALES = pd.DataFrame({"Order Date": pd.to_datetime(["2024-04-02", "2024-04-20", "2024-05-03", "2024-05-09", "2024-06-11", "2024-06-30"]),
                      "Category": ["Office", "Home", "Office", "Office", "Home", "Office"], "Product": ["Lamp", "Desk", "Lamp", "Pen", "Desk", "Pen"],
                      "Qty": [1, 2, 3, 4, 5, 6]})


@pytest.fixture
def quarter(tmp_path) -> Workspace:
    q3 = SALES.assign(Qty=SALES["Qty"] * 10, **{"Order Date": SALES["Order Date"] + pd.DateOffset(months=3)})
    return _workbook(tmp_path, "orders.xlsx", {"Q2": SALES, "Q3": q3})


@pytest.mark.parametrize("said,rows", [("q2: one row per category and one column per month, count of orders", "Category"),
                                       ("q2: one row per month and one column per category, total Qty", "Order Date"),
                                       ("pivot of q2: Category as rows, month of Order Date as columns, count of orders", "Category")])
def test_rows_and_columns_laid_out_per_key_and_per_month(quarter, said, rows):
    tr = answered(Session(quarter), "orders.xlsx " + said)
    p = tr.decision.request.op("pivot")
    assert p is not None and p.args["rows"] == [rows] and p.args.get("period") == "month"
    assert not tr.decision.request.op("dedupe")


def test_quarter_on_quarter_growth_over_the_quarters_stacked(quarter):
    tr = answered(Session(quarter), "orders.xlsx total qty per quarter for all orders and the quarter on quarter growth")
    g = tr.decision.request.op("growth")
    assert g is not None and g.args["unit"] == "quarter"
    both = pd.concat([SALES, SALES.assign(Qty=SALES["Qty"] * 10, **{"Order Date": SALES["Order Date"] + pd.DateOffset(months=3)})])
    q = both.groupby(both["Order Date"].dt.to_period("Q"))["Qty"].sum()
    assert len(result_frame(tr)) == len(q)


def test_a_share_of_the_units_is_of_the_quantity(quarter):
    tr = answered(Session(quarter), "orders.xlsx what share of q2 units does each product have?")
    assert tr.decision.request.op("share").args.get("column") == "Qty"
    share = SALES.groupby("Product")["Qty"].sum() / SALES["Qty"].sum() * 100
    assert f"Lamp {share['Lamp']:.2f}%" in tr.run.answer


def test_units_said_over_a_column_named_unit_is_that_column(tmp_path):
    pd.DataFrame({"Unit": ["U1", "U2", "U1"], "Qty": [1, 2, 3]}).to_csv(tmp_path / "t.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "t.csv count per Unit, top 1 Units by count")
    assert list(result_frame(tr)["Unit"]) == ["U1"]


def test_a_formula_clause_ends_where_the_next_verb_begins_and_the_same_for_another_quarter(quarter):
    s = Session(quarter)
    tr = answered(s, "orders.xlsx q2: add column Revenue = Qty * 2, keep rows where Category is Office, then sum Revenue by Product")
    want = SALES[SALES["Category"] == "Office"].assign(R=lambda d: d["Qty"] * 2).groupby("Product")["R"].sum()
    assert result_frame(tr).set_index("Product")["Revenue_sum"].to_dict() == want.to_dict()
    d = s.turn("same for q3").decision
    assert d.request.sheet == "Q3" and not d.request.op("stack")
    assert [c.value for c in d.request.op("filter").args["conditions"]] == ["Office"]  # never Q2's own dates


GRADES = pd.DataFrame({"是否缺考": ["否", "是", "否", "否", "否", "否"], "班级": ["高一(1)班", "高一(2)班", "高一(3)班", "高一(1)班", "高一(2)班", "高一(1)班"],
                       "科目": ["数学", "数学", "数学", "数学", "语文", "语文"], "分数": [100, 90, 80, 70, 60, 50]})


@pytest.fixture
def grades(tmp_path) -> Workspace:
    return _workbook(tmp_path, "成绩.xlsx", {"高一": GRADES, "高二": GRADES.assign(班级=GRADES["班级"].str.replace("高一", "高二"))})


@pytest.mark.parametrize("said,cls", [("高一一班数学平均分多少", "高一(1)班"), ("高一 2班的数学平均分", "高一(2)班"),
                                      ("高一(2)班数学平均分多少", "高一(2)班"), ("高一表，筛选班级为高一(1)班并且科目为数学，算分数平均", "高一(1)班")])
def test_a_numbered_class_said_any_way_is_that_class(grades, said, cls):
    tr = answered(Session(grades), "成绩.xlsx " + said)
    want = GRADES[(GRADES["班级"] == cls) & (GRADES["科目"] == "数学")]["分数"].mean()
    assert result_frame(tr).iloc[0, 0] == pytest.approx(want)


def test_a_class_that_does_not_exist_is_asked_never_dropped(grades):
    d = Session(grades).turn("成绩.xlsx 高一四班数学平均分多少").decision
    assert d.next != "execute"


def test_a_share_per_key_after_a_count_per_key_is_of_their_rows(tmp_path):
    df = pd.DataFrame({"线路": ["甲", "甲", "乙", "丙", "丙", "丙"], "运费": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]})
    df.to_csv(tmp_path / "发车.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "发车.csv 按线路分组，算运费合计和行数")
    tr = answered(s, "只要行数，再加上每个线路行数占总数的百分比")
    assert "甲 33.33%" in tr.run.answer and "丙 50%" in tr.run.answer  # of the 6 rows, never 1 of 3 summary rows each


def test_a_grade_sheet_and_its_column_name_the_workbook_over_a_file_named_like_its_rows(grades, tmp_path):
    pd.DataFrame({"学号": ["S1"], "入学年份": [2022]}).to_csv(tmp_path / "学生信息.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    d = s.turn("高二 数学 分数最高的2个学生").decision
    assert d.request.file == "成绩.xlsx" and d.request.sheet == "高二"


def test_a_rejection_naming_the_file_keeps_the_request(grades, tmp_path):
    pd.DataFrame({"学号": ["S1"], "入学年份": [2022]}).to_csv(tmp_path / "学生信息.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    s.turn("学生信息.csv 数学 分数最高的2个")
    tr = answered(s, "不对，是成绩.xlsx的高二表，按分数排")
    assert tr.decision.request.file == "成绩.xlsx" and tr.decision.request.sheet == "高二"
    assert result_frame(tr)["分数"].tolist() == [100, 90]  # 数学 kept, the first 2 by 分数, never the whole sheet sorted


def test_a_value_before_a_comparison_with_a_unit_is_a_condition_and_its_figure(grades):
    tr = answered(Session(grades), "成绩.xlsx 高一数学低于95分的名单，按班级排一下")
    want = GRADES[(GRADES["科目"] == "数学") & (GRADES["分数"] < 95)].sort_values("班级")
    assert result_frame(tr)["分数"].tolist() == want["分数"].tolist()


def test_the_other_sheet_also_looked_at_repeats_the_request_there(grades):
    s = Session(grades)
    answered(s, "成绩.xlsx 高二 科目是数学的行，各班级占多少比例")
    tr = answered(s, "高一的也看看")
    assert tr.decision.request.sheet == "高一" and tr.decision.request.op("share") is not None


EXAMS = GRADES.assign(考试日期=pd.to_datetime(["2025-01-16", "2024-12-10", "2025-01-16", "2025-01-16", "2024-12-10", "2025-01-16"]))


@pytest.mark.parametrize("said", ["2025年1月16日的数学成绩，分数前2名", "2025-01-16的数学分数前2名", "考试日期是2025年1月16号的数学分数前2名"])
def test_a_day_said_alone_is_that_day_and_the_top_is_by_the_figure_said(tmp_path, said):
    EXAMS.to_csv(tmp_path / "考试.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "考试.csv " + said)
    want = EXAMS[(EXAMS["考试日期"] == "2025-01-16") & (EXAMS["科目"] == "数学")].nlargest(2, "分数")
    f = result_frame(tr)
    assert f["分数"].tolist() == want["分数"].tolist() and not tr.decision.request.op("count")


def test_a_formula_per_condition_is_said_to_be_out_of_reach_never_run_silently(grades):
    d = Session(grades).turn("成绩.xlsx 高一 如果科目是语文、数学或英语，折算分=分数*2/3，否则折算分=分数").decision
    assert d.next != "execute" and "按条件分别用不同公式算的列" in d.reply


@pytest.mark.parametrize("said,keep", [("returned orders do not count", "N"), ("excluding the returned ones", "N"), ("for the returned ones", "Y")])
def test_a_yes_no_column_said_in_english_as_rows(tmp_path, said, keep):
    df = pd.DataFrame({"Category": ["A", "A", "B", "B"], "Qty": [1, 2, 3, 4], "Returned (Y/N)": ["Y", "N", "N", "Y"]})
    df.to_csv(tmp_path / "orders.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "orders.csv total Qty by Category, " + said)
    want = df[df["Returned (Y/N)"] == keep].groupby("Category")["Qty"].sum()
    assert result_frame(tr).set_index("Category")["Qty_sum"].to_dict() == want.to_dict()


def test_a_chart_of_one_figure_named_on_a_table_of_classes(grades):
    s = Session(grades)
    answered(s, "成绩.xlsx 高一 做透视表：行是班级，列是科目，值是分数平均")
    tr = answered(s, "把这个画成柱状图，看看三个班数学谁高")
    c = tr.decision.request.op("chart")
    assert c.args["x"] == "班级" and c.args["y"] == ["数学"]


def test_not_compared_with_another_table_is_no_comparison(grades):
    d = Session(grades).turn("成绩.xlsx 高二 不用和别的表比，就高二自己，按班级算分数平均").decision
    assert not d.request.op("compare") and not d.request.op("join") and d.next != "ask_slots"


def test_another_month_asked_after_one_replaces_it(quarter):
    s = Session(quarter)
    answered(s, "orders.xlsx q2: total Qty by Category in May 2024")
    tr = answered(s, "and for june?")
    june = SALES[SALES["Order Date"].dt.month == 6]
    assert result_frame(tr).set_index("Category")["Qty_sum"].to_dict() == june.groupby("Category")["Qty"].sum().to_dict()


def test_the_same_request_redone_with_another_file_instead(tmp_path):
    pd.DataFrame({"Segment": ["A", "A", "B"]}).to_csv(tmp_path / "customers.csv", index=False)
    pd.DataFrame({"Segment": ["A", "B", "B", "B"]}).to_csv(tmp_path / "customers_v2.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "customers.csv count per Segment")
    tr = answered(s, "ok redo that with customers_v2.csv instead")
    assert tr.decision.request.file == "customers_v2.csv"
    assert result_frame(tr).set_index("Segment")["rows"].to_dict() == {"A": 1, "B": 3}


def test_the_duplicate_rows_by_a_key_are_shown_never_removed(tmp_path):
    df = pd.DataFrame({"Invoice No": ["I1", "I2", "I2", "I3", "I4", "I4"], "Bags": [1, 2, 3, 4, 5, 6]})
    df.to_csv(tmp_path / "east.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "east.csv show the duplicate rows by Invoice No")
    assert sorted(result_frame(tr)["Invoice No"]) == ["I2", "I2", "I4", "I4"]


def test_each_values_share_within_each_sheet(quarter):
    tr = answered(Session(quarter), "orders.xlsx for each sheet of orders.xlsx, share of rows by Category")
    office = (SALES["Category"] == "Office").mean() * 100
    assert f"Q2, Office {office:.2f}%" in tr.run.answer and f"Q3, Office {office:.2f}%" in tr.run.answer


def test_each_keys_share_of_the_total_on_a_summary_is_of_its_figure(quarter):
    s = Session(quarter)
    answered(s, "orders.xlsx q2: total Qty by Product")
    tr = answered(s, "sort it biggest first and show each product's share of the total")
    share = SALES.groupby("Product")["Qty"].sum() / SALES["Qty"].sum() * 100
    assert f"Pen {share['Pen']:.2f}%" in tr.run.answer


def test_growth_versus_the_previous_month_is_no_comparison_of_tables(quarter):
    tr = answered(Session(quarter), "orders.xlsx q2: monthly total of Qty with growth vs previous month")
    g = tr.decision.request.op("growth")
    assert g is not None and g.args["unit"] == "month" and not tr.decision.request.op("compare")


def test_a_pivot_of_visits_reads_no_yes_of_a_flag_column(grades):
    tr = answered(Session(grades), "成绩.xlsx 高一 做透视表，行是班级，列是科目，值是人次")
    assert not tr.decision.request.op("filter")  # 值是人次: 是 is the sentence's word, never a yes of a yes-no column
    assert tr.decision.request.op("pivot").args["agg"] == "count"


def test_each_keys_share_of_the_sheets_total_said_as_what_percent(stores):
    tr = answered(Session(stores), "门店.xlsx 东店每个导购的金额占东店总金额的百分之几")
    d = STORES["东店"]
    share = d.groupby("导购")["金额"].sum() / d["金额"].sum() * 100
    assert f"甲 {share['甲']:g}%" in tr.run.answer  # 70%


def test_dont_filter_asks_for_no_filter(quarter):
    tr = answered(Session(quarter), "orders.xlsx no, don't filter. per sheet the percentage of rows where Category is Office")
    assert not tr.decision.request.op("filter") and tr.decision.request.op("proportion").args["by"] == ["sheet"]
