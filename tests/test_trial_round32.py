"""Found by the round-32 work, each recomputed with pandas: how much was sold (卖得最多 / sold the most / best-selling) is
the units, else the money, per thing ranked; a figure's total said before its ranking (金额合计最高的商品) ranks the things;
a column named Total said before another column is that column's total; distinct counts said with a classifier or a
number of; the same request asked of another sheet with "and at …"."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame, write_workbook

from engine.session import Session
from tools.workspace import Workspace

TILL = pd.DataFrame({"Sale Date": pd.to_datetime(["2024-01-05", "2024-01-20", "2024-02-03", "2024-02-11", "2024-02-25", "2024-03-02", "2024-03-09", "2024-01-30", "2024-03-12"]),
                     "Item": ["Bagel", "Pie", "Bagel", "Scone", "Pie", "Bagel", "Scone", "Pie", "Pie"],
                     "Clerk": ["Al", "Bea", "Al", "Cy", "Bea", "Al", "Cy", "Al", "Cy"],
                     "Qty": [1, 3, 2, 9, 1, 4, 2, 1, 1], "Total": [40.0, 12.0, 9.0, 20.0, 3.0, 15.0, 7.5, 30.0, 4.0]})
PLAZA = TILL.iloc[:4].assign(Qty=[5, 1, 1, 2])


@pytest.fixture(params=["pandas", "duckdb"])
def tills(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "tills.xlsx", {"Pier": TILL, "Plaza": PLAZA})
    pd.DataFrame({"Item": ["Bagel", "Pie", "Scone"], "Cost": [1.0, 2.5, 1.5]}).to_csv(tmp_path / "items.csv", index=False)
    return Workspace.at(tmp_path)


SHOP = pd.DataFrame({"销售日期": pd.to_datetime(["2024-03-02", "2024-03-15", "2024-04-01", "2024-03-20", "2024-05-05", "2024-04-28", "2024-05-09"]),
                     "商品名称": ["大米", "面粉", "大米", "牛奶", "牛奶", "白糖", "面粉"], "导购": ["小周", "小吴", "小周", "小郑", "小吴", "小周", "小郑"],
                     "数量": [1, 2, 1, 9, 1, 2, 2], "金额": [170.0, 24.0, 35.0, 54.0, 6.0, 22.0, 24.0]})


@pytest.fixture(params=["pandas", "duckdb"])
def shop(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "门店销售.xlsx", {"东区店": SHOP, "西区店": SHOP.iloc[:3]})
    return Workspace.at(tmp_path)


def _top(series: pd.Series, low: bool = False) -> str:
    s = series.sort_values(ascending=low)
    assert s.iloc[0] != s.iloc[1]  # the data: one answer, no tie
    return str(s.index[0])


@pytest.mark.parametrize("said", ["门店销售 东区店 哪个商品卖得最多", "门店销售 东区店 卖得最多的商品是哪个", "门店销售 东区店 最畅销的商品是哪个"])
def test_the_thing_sold_most_is_ranked_by_its_units(shop, said):
    units, money = SHOP.groupby("商品名称")["数量"].sum(), SHOP.groupby("商品名称")["金额"].sum()
    assert _top(units) != _top(money)  # the data tells the two readings apart
    tr = answered(Session(shop), said)
    assert _top(units) in tr.run.answer and _top(money) not in tr.run.answer


def test_who_sells_best_is_ranked_by_money(shop):
    money = SHOP.groupby("导购")["金额"].sum()
    tr = answered(Session(shop), "门店销售 东区店 哪个导购卖得最好")
    assert _top(money) in tr.run.answer


@pytest.mark.parametrize("said", ["which Item sold the most at Pier", "the best-selling Item at Pier"])
def test_which_item_sold_the_most_is_ranked_by_units(tills, said):
    units, money = TILL.groupby("Item")["Qty"].sum(), TILL.groupby("Item")["Total"].sum()
    assert _top(units) != _top(money)
    tr = answered(Session(tills), said)
    assert _top(units) in tr.run.answer and _top(money) not in tr.run.answer


def test_top_n_best_sellers_are_the_first_n_by_units(tills):
    want = TILL.groupby("Item")["Qty"].sum().sort_values(ascending=False).head(2)
    f = result_frame(answered(Session(tills), "top 2 best-selling items at Pier"))
    assert f.set_index("Item")["Qty_sum"].to_dict() == want.to_dict()


def test_how_much_each_clerk_sold_is_the_money_column_called_total(tills):
    f = result_frame(answered(Session(tills), "Pier: how much did each Clerk sell"))
    assert f.set_index("Clerk")["Total_sum"].sort_index().to_dict() == TILL.groupby("Clerk")["Total"].sum().sort_index().to_dict()
    assert "Qty_sum" not in f.columns


@pytest.mark.parametrize("said, low", [("门店销售 东区店 金额合计最高的商品是哪个", False), ("门店销售 东区店 平均金额最低的导购是谁", True)])
def test_a_figure_said_before_its_ranking_ranks_the_things(shop, said, low):
    key, agg = ("商品名称", "sum") if not low else ("导购", "mean")
    figures = SHOP.groupby(key)["金额"].agg(agg)
    tr = answered(Session(shop), said)
    assert tr.decision.request.op("group").args["keys"] == [key]
    assert _top(figures, low) in tr.run.answer


def test_a_figure_and_its_max_said_as_a_list_stay_a_list(shop):
    tr = answered(Session(shop), "门店销售 东区店 金额的合计、最高和平均")
    assert {m["agg"] for m in tr.decision.request.op("group").args["measures"]} == {"sum", "max", "mean"}


@pytest.mark.parametrize("said, want", [("Pier total Qty per Clerk", {"Qty_sum"}),
                                        ("Pier average Total and total Qty per Clerk", {"Total_mean", "Qty_sum"})])
def test_total_before_another_column_is_its_total_beside_a_column_called_total(tills, said, want):
    tr = answered(Session(tills), said)
    f = result_frame(tr).set_index("Clerk")
    assert {c for c in f.columns if c.startswith(("Total_", "Qty_"))} == want
    assert f["Qty_sum"].sort_index().to_dict() == TILL.groupby("Clerk")["Qty"].sum().sort_index().to_dict()
    assert "not used" not in tr.decision.reply


@pytest.mark.parametrize("said", ["Pier: number of unique Items per Clerk", "Pier: how many different items did each clerk sell"])
def test_a_count_of_distinct_values_per_key(tills, said):
    tr = answered(Session(tills), said)
    f = result_frame(tr).set_index("Clerk")
    assert f["Item_distinct"].sort_index().to_dict() == TILL.groupby("Clerk")["Item"].nunique().sort_index().to_dict()


def test_a_count_of_distinct_values_said_with_a_classifier(shop):
    f = result_frame(answered(Session(shop), "门店销售 东区店每个导购卖了几种不同的商品")).set_index("导购")
    col = next(c for c in f.columns if c.startswith("商品名称_"))
    assert f[col].sort_index().to_dict() == SHOP.groupby("导购")["商品名称"].nunique().sort_index().to_dict()


@pytest.mark.parametrize("again", ["and at Plaza?", "and from Plaza"])
def test_and_at_another_sheet_is_the_same_request_there(tills, again):
    s = Session(tills)
    answered(s, "Pier: total Qty per Clerk")
    tr = s.turn(again)
    assert tr.decision.next == "restate_confirm" and "Plaza" in tr.decision.reply, tr.decision.reply
    f = result_frame(answered(s, "go")).set_index("Clerk")
    assert f["Qty_sum"].sort_index().to_dict() == PLAZA.groupby("Clerk")["Qty"].sum().sort_index().to_dict()


def test_a_share_of_total_qty_beside_a_column_called_total_is_qtys_share(tills):
    tr = answered(Session(tills), "Pier: percentage of total Qty per Clerk")
    assert tr.decision.request.op("share").args["column"] == "Qty"
    f = result_frame(tr).set_index("Clerk")
    want = TILL.groupby("Clerk")["Qty"].sum() / TILL["Qty"].sum() * 100
    col = next(c for c in f.columns if "share" in c.casefold() or "%" in c)
    assert f[col].sort_index().round(1).tolist() == want.sort_index().round(1).tolist()


@pytest.mark.parametrize("said", ["门店销售 东区店导购不重复的个数", "门店销售 东区店导购去重后有几个", "门店销售 东区店导购有几个不重复的"])
def test_the_number_of_different_values_said_after_the_column(shop, said):
    tr = answered(Session(shop), said)
    assert not tr.decision.request.op("dedupe")
    assert f"{SHOP['导购'].nunique()}" in tr.run.answer


def test_a_column_said_before_the_dedupe_word_is_its_key(shop):
    f = result_frame(answered(Session(shop), "门店销售 东区店商品名称去重"))
    assert len(f) == SHOP["商品名称"].nunique() and len(SHOP.drop_duplicates()) != len(f)


PARK = pd.DataFrame({"缴费日期": pd.to_datetime(["2024-01-03", "2024-01-17", "2024-02-05", "2024-02-21", "2024-03-02", "2024-03-18", "2024-04-09", "2024-04-27"]),
                     "车牌": ["沪A1", "沪B2", "沪A1", "苏E8", "沪B2", "沪A1", "苏E8", "沪B2"],
                     "收费类型": ["月租", "临停", "月租", "充电", "临停", "月租", "罚款", "临停"],
                     "金额": [300.0, 25.0, 300.0, 60.0, 40.0, 320.0, 200.0, 15.0],
                     "缴费方式": ["微信", "现金", "支付宝", "微信", "微信", "现金", "银行卡", "微信"],
                     "是否逾期": ["是", "是", "否", "是", "是", "否", "是", "是"],
                     "收费员": ["刘洋", "陈静", "刘洋", "赵磊", "陈静", "赵磊", "刘洋", "赵磊"]})


@pytest.fixture(params=["pandas", "duckdb"])
def parking(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "停车缴费.xlsx", {"北门": PARK, "南门": PARK.iloc[:4]})
    return Workspace.at(tmp_path)


LATE = PARK[(PARK["是否逾期"] == "是") & (PARK["缴费方式"] != "现金")]


@pytest.mark.parametrize("said", ["停车缴费 北门 一共收了多少钱？按收费员分一下", "停车缴费 北门 一共多少钱，按收费员分开看"])
def test_a_total_split_by_a_key_is_the_total_per_key(parking, said):
    tr = answered(Session(parking), said)
    assert "没理解" not in tr.decision.reply and "没用上" not in tr.decision.reply
    f = result_frame(tr).set_index("收费员")
    assert f["金额_合计"].sort_index().to_dict() == PARK.groupby("收费员")["金额"].sum().sort_index().to_dict()


def test_a_second_statistic_swap_replaces_the_first(parking):
    s = Session(parking)
    answered(s, "停车缴费.xlsx 北门里逾期的记录，现金交的不算")
    answered(s, "他们一共欠了多少钱？按收费员分一下")
    s.turn("改成中位数呢")
    answered(s, "继续")
    tr = s.turn("最大值呢")
    assert tr.decision.next == "restate_confirm" and "最大" in tr.decision.reply and "中位数" not in tr.decision.reply, tr.decision.reply
    f = result_frame(answered(s, "继续")).set_index("收费员")
    col = next(c for c in f.columns if c.startswith("金额_"))
    assert f[col].sort_index().to_dict() == LATE.groupby("收费员")["金额"].max().sort_index().to_dict()


def test_the_money_said_per_month_is_the_growths_figure(parking):
    tr = answered(Session(parking), "停车缴费 北门每个月收了多少钱，顺便算下环比")
    assert tr.decision.request.op("growth").args["value"] == "金额"


@pytest.mark.parametrize("said", ["tills.xlsx all sheets: make a pivot: months down the side, one column per sheet, sum of Qty",
                                  "tills.xlsx all sheets: pivot with months as rows and sheets as columns, sum of Qty"])
def test_a_pivot_with_one_column_per_sheet(tills, said):
    tr = answered(Session(tills), said)
    assert tr.decision.request.op("pivot").args["columns"] == "sheet" and "not understood" not in tr.decision.reply
    both = pd.concat([TILL.assign(sheet="Pier"), PLAZA.assign(sheet="Plaza")])
    want = both.assign(m=both["Sale Date"].dt.to_period("M").astype(str)).pivot_table(index="m", columns="sheet", values="Qty", aggfunc="sum")
    f = result_frame(tr)
    assert f["Pier"].head(len(want)).tolist() == want["Pier"].tolist()


NET = TILL.assign(Net=TILL["Total"] - TILL["Qty"])


def test_total_it_after_a_column_made_is_that_columns_total_per_sheet(tills):
    tr = answered(Session(tills), "tills.xlsx all sheets: add a column Net = Total - Qty, then total it for each sheet")
    both = pd.concat([NET.assign(sheet="Pier"), PLAZA.assign(Net=PLAZA["Total"] - PLAZA["Qty"], sheet="Plaza")])
    f = result_frame(tr).set_index("sheet")
    assert f["Net_sum"].sort_index().round(6).to_dict() == both.groupby("sheet")["Net"].sum().sort_index().round(6).to_dict()


@pytest.mark.parametrize("said, agg", [("Pier: add a column Net = Total - Qty, then summarise by Clerk", "sum"),
                                       ("Pier: add a column Net = Total - Qty, then average by Clerk", "mean")])
def test_a_summary_after_a_column_made_is_of_that_column(tills, said, agg):
    f = result_frame(answered(Session(tills), said)).set_index("Clerk")
    col = f"Net_{agg}"
    assert [c for c in f.columns if c.startswith(("Net_", "Total_", "Qty_"))] == [col]
    assert f[col].sort_index().round(6).to_dict() == NET.groupby("Clerk")["Net"].agg(agg).sort_index().round(6).to_dict()


def test_a_new_columns_name_is_no_pivot_layout(tills):
    tr = answered(Session(tills), "Pier: add a column Net = Total - Qty, then count rows by Clerk")
    assert not tr.decision.request.op("pivot") and tr.decision.request.op("add_column")
    f = result_frame(tr).set_index("Clerk")
    assert f[f.columns[-1]].sort_index().to_dict() == TILL.groupby("Clerk").size().sort_index().to_dict()


def test_it_said_before_the_chinese_sum_word_is_the_column_made(shop):
    tr = answered(Session(shop), "门店销售 东区店 加一列 毛利 = 金额 - 数量，再按导购把它加起来")
    f = result_frame(tr).set_index("导购")
    want = SHOP.assign(毛利=SHOP["金额"] - SHOP["数量"]).groupby("导购")["毛利"].sum()
    assert f["毛利_合计"].sort_index().round(6).to_dict() == want.sort_index().round(6).to_dict()


def test_where_before_a_columns_definition_chooses_no_rows(tills):
    tr = answered(Session(tills), "sum of Net for each sheet of tills.xlsx, where Net = Total - Qty")
    assert not tr.decision.request.op("filter")
    f = result_frame(tr).set_index("sheet")
    assert f.loc["Pier", "Net_sum"] == pytest.approx(NET["Net"].sum())


def test_the_column_total_said_after_a_column_is_its_total(tills):
    tr = answered(Session(tills), "Pier: the Qty total per Clerk, nothing else")
    f = result_frame(tr).set_index("Clerk")
    assert [c for c in f.columns if c.startswith(("Qty_", "Total_"))] == ["Qty_sum"] and "not understood" not in tr.decision.reply


@pytest.mark.parametrize("said", ["可以，不过要按车牌把金额加起来再排前2", "好的，但是按车牌把金额加起来再排前2"])
def test_a_change_after_a_run_keeps_what_ran_and_sums_per_key(parking, said):
    s = Session(parking)
    answered(s, "停车缴费.xlsx 北门交临停的和月租的里面，金额最高的前3个是谁")
    tr = s.turn(said)
    kept = PARK[PARK["收费类型"].isin(["临停", "月租"])]
    want = kept.groupby("车牌")["金额"].sum().sort_values(ascending=False).head(2)
    if tr.run is None:
        assert "临停" in tr.decision.reply, tr.decision.reply
        tr = answered(s, "继续")
    f = result_frame(tr)
    assert f.set_index("车牌")["金额_合计"].to_dict() == want.to_dict()


def test_a_file_named_whole_that_is_not_there_reads_no_file_its_words_name(parking):
    pd.DataFrame({"车牌": ["沪A1", "沪B2"], "车主": ["王一", "李二"]}).to_csv(parking.root / "车主.csv", index=False)
    for said in ["停车缴费_南门_x.csv 只留车主是王一的", "停车缴费_南门_x.csv 只留金额大于5的"]:
        tr = Session(Workspace.at(parking.root)).turn(said)
        assert tr.run is None and "停车缴费_南门_x.csv" in tr.decision.reply, tr.decision.reply


def test_a_column_said_before_has_duplicates_is_the_dedupe_key(tmp_path):
    df = PARK.assign(单据号=["D1", "D2", "D2", "D3", "D4", "D4", "D5", "D6"])
    write_workbook(tmp_path, "停车缴费.xlsx", {"北门": df, "南门": df.iloc[:3]})
    tr = answered(Session(Workspace.at(tmp_path)), "停车缴费.xlsx 北门里单据号有重复的吗，有的话帮我去重")
    assert tr.decision.request.op("dedupe").args.get("subset") == ["单据号"]
    assert len(result_frame(tr)) == df["单据号"].nunique()


@pytest.mark.parametrize("said, rows", [("停车缴费.xlsx 做个透视表，行是工作表，列是收费类型，值是金额合计", "工作表")])
def test_the_sheets_given_a_pivots_role_are_every_sheet_stacked(parking, said, rows):
    tr = answered(Session(parking), said)
    assert tr.decision.request.op("stack") and tr.decision.request.op("pivot").args["rows"] == [rows]
    both = pd.concat([PARK.assign(工作表="北门"), PARK.iloc[:4].assign(工作表="南门")])
    want = both.pivot_table(index="工作表", columns="收费类型", values="金额", aggfunc="sum")
    f = result_frame(tr).set_index("工作表")
    assert f.loc["南门", "月租"] == want.loc["南门", "月租"]


def test_one_row_per_sheet_in_english(tills):
    tr = answered(Session(tills), "tills.xlsx pivot: one row per sheet, Clerk as columns, sum of Qty")
    p = tr.decision.request.op("pivot").args
    assert p["rows"] == ["sheet"] and p["columns"] == "Clerk"


def test_a_sheet_noun_in_a_pivots_role_is_the_sheets(parking):
    pd.DataFrame({"出入口": ["北门", "南门"], "岗亭电话": ["1", "2"]}).to_csv(parking.root / "岗亭.csv", index=False)
    s = Session(Workspace.at(parking.root))
    answered(s, "岗亭.csv 看一下")
    tr = answered(s, "停车缴费.xlsx 做个透视表，两个出入口合起来，行是出入口，列是收费类型，值是金额合计")
    assert tr.decision.request.op("pivot").args["rows"] == ["工作表"]


BOTH_GATES = pd.concat([PARK.assign(工作表="北门"), PARK.iloc[:4].assign(工作表="南门")])


@pytest.mark.parametrize("said", ["停车缴费.xlsx合在一起，工作表是北门以外的，缴费方式为现金，按工作表统计笔数",
                                  "停车缴费.xlsx合在一起，筛选工作表不等于北门且缴费方式等于现金，按工作表统计行数",
                                  "停车缴费.xlsx 除了北门，另外的工作表合起来用现金交的各有多少笔"])
def test_a_sheet_excluded_by_its_name_over_stacked_sheets(parking, said):
    kept = BOTH_GATES[(BOTH_GATES["工作表"] != "北门") & (BOTH_GATES["缴费方式"] == "现金")]
    assert len(kept) > 0
    f = result_frame(answered(Session(parking), said)).set_index("工作表")
    assert f[f.columns[-1]].to_dict() == kept.groupby("工作表").size().to_dict()


@pytest.mark.parametrize("said, want", [("停车缴费.xlsx 北门 收费员是刘洋以外的，缴费方式为现金", lambda d: d[(d["收费员"] != "刘洋") & (d["缴费方式"] == "现金")]),
                                        ("停车缴费.xlsx 北门 收费员不等于刘洋且缴费方式等于现金", lambda d: d[(d["收费员"] != "刘洋") & (d["缴费方式"] == "现金")])])
def test_a_value_closed_by_an_exclusion_word_is_excluded(parking, said, want):
    f = result_frame(answered(Session(parking), said))
    assert sorted(f["金额"].tolist()) == sorted(want(PARK)["金额"].tolist())


def test_equalities_on_existing_columns_are_conditions_never_a_formula(tills):
    tr = answered(Session(tills), "tills.xlsx Pier: Sale Date = 2024-01-05 and Clerk = Al, then sum Qty per Item")
    assert not tr.decision.request.op("formula") and not tr.decision.request.op("add_column")
    kept = TILL[(TILL["Sale Date"] == "2024-01-05") & (TILL["Clerk"] == "Al")]
    f = result_frame(tr).set_index("Item")
    assert f["Qty_sum"].to_dict() == kept.groupby("Item")["Qty"].sum().to_dict()


@pytest.mark.parametrize("said", ["Pier: average Qty per sale by Clerk, not counting Card payments", "Pier: average Qty per transaction by Clerk, excluding Card"])
def test_per_a_row_noun_is_one_figure_per_row_never_a_key(tmp_path, said):
    df = TILL.assign(Payment=["Card", "Cash", "Card", "Cash", "Cash", "Card", "Cash", "Cash", "Card"])
    write_workbook(tmp_path, "tills.xlsx", {"Pier": df, "Plaza": df.iloc[:3]})
    tr = answered(Session(Workspace.at(tmp_path)), said)
    assert tr.decision.request.op("group").args["keys"] == ["Clerk"]
    f = result_frame(tr).set_index("Clerk")
    assert f["Qty_mean"].sort_index().round(6).to_dict() == df[df["Payment"] != "Card"].groupby("Clerk")["Qty"].mean().sort_index().round(6).to_dict()


FEES = PARK.assign(收费类型=["停车费", "充电费", "停车费", "罚款", "停车费", "充电费", "罚款", "停车费"])


@pytest.mark.parametrize("said", ["北门停车费一共多少", "2024年北门停车费一共多少", "北门2024年停车费一共收了多少钱"])
def test_a_value_close_to_the_files_name_is_the_value(tmp_path, said):
    write_workbook(tmp_path, "停车收费.xlsx", {"北门": FEES, "南门": FEES.iloc[:3]})
    tr = answered(Session(Workspace.at(tmp_path)), said)
    conds = tr.decision.request.op("filter").args["conditions"]
    assert any(c.column == "收费类型" and c.value == "停车费" for c in conds)
    want = FEES[FEES["收费类型"] == "停车费"]["金额"].sum()
    assert f"{want:,.0f}" in tr.run.answer or f"{want:.0f}" in tr.run.answer, tr.run.answer


def test_a_stem_said_with_the_word_file_is_that_file(tmp_path):
    write_workbook(tmp_path, "停车收费.xlsx", {"北门": FEES, "南门": FEES.iloc[:3]})
    pd.DataFrame({"收费员": ["刘洋", "陈静", "赵磊"], "工号": ["A1", "A2", "A3"], "电话": [None, "139", None]}).to_csv(tmp_path / "收费员.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "停车收费.xlsx 北门 按收费员汇总金额")
    tr = answered(s, "收费员那个文件一共多少行，有几个空的电话")
    assert tr.decision.request.file == "收费员.csv" and "3 行" in tr.run.answer


OWNERS = pd.DataFrame({"车牌": ["沪A1", "沪B2", "沪A1", "苏E8"], "车主": ["王一", "李二", "王一", "张三"], "电话": ["1", "2", "1b", "3"]})


@pytest.mark.parametrize("again", ["那就先把车主.csv按车牌去重再对一次", "先把车主.csv去重，再关联一次"])
def test_the_join_redone_after_its_second_table_is_deduplicated(parking, again):
    OWNERS.to_csv(parking.root / "车主.csv", index=False)
    s = Session(Workspace.at(parking.root))
    first = answered(s, "把停车缴费.xlsx北门和车主.csv按车牌关联")
    assert len(result_frame(first)) == len(PARK.merge(OWNERS, on="车牌", how="left"))  # the data: a doubled plate
    tr = s.turn(again)
    assert tr.run is None and "去重" in tr.decision.reply and "关联" in tr.decision.reply, tr.decision.reply
    tr = answered(s, "继续")
    want = PARK.merge(OWNERS.drop_duplicates("车牌"), on="车牌", how="left")
    f = result_frame(tr)
    assert len(f) == len(PARK) and f["电话"].astype(str).tolist() == want["电话"].astype(str).tolist()
    assert "去掉了 1 行" in tr.run.answer


def test_a_correction_naming_its_own_file_by_a_value_keeps_what_it_corrects(tmp_path):
    write_workbook(tmp_path, "停车收费.xlsx", {"北门": FEES, "南门": FEES.iloc[:3]})
    s = Session(Workspace.at(tmp_path))
    answered(s, "2024年北门的筛选一下")
    tr = s.turn("不对，我要的是停车费的合计金额，不是明细")
    assert tr.decision.next == "restate_confirm" and "北门" in tr.decision.reply and "没理解" not in tr.decision.reply, tr.decision.reply
    tr = answered(s, "继续")
    assert f"{FEES[FEES['收费类型'] == '停车费']['金额'].sum():,.0f}" in tr.run.answer


SHIFTS = pd.DataFrame({"Timesheet ID": [f"T{i}" for i in range(8)], "Worker": ["Ann Lee", "Bo Chan", "Cy Moss", "Ann Lee", "Di Park", "Bo Chan", "Cy Moss", "Di Park"],
                       "Role": ["Forklift Driver", "Kitchen Porter", "Team Leader", "Forklift Driver", "Kitchen Porter", "Team Leader", "Kitchen Porter", "Forklift Driver"],
                       "Hours": [30.0, 25.0, 40.0, 12.0, 33.0, 21.0, 18.0, 27.0]})
WORKERS = pd.DataFrame({"Worker": ["Ann Lee", "Bo Chan", "Cy Moss", "Di Park"], "Branch": ["Leeds", "Bristol", "Leeds", "Bristol"]})


@pytest.fixture(params=["pandas", "duckdb"])
def staffing(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "timesheets.xlsx", {"Acme": SHIFTS, "Birch": SHIFTS.iloc[:4]})
    WORKERS.to_csv(tmp_path / "workers.csv", index=False)
    return Workspace.at(tmp_path)


BY_BRANCH = SHIFTS.merge(WORKERS, on="Worker").groupby("Branch")["Hours"].sum()


@pytest.mark.parametrize("said", ["join the Acme sheet of timesheets.xlsx with workers.csv on Worker, then total Hours by Branch",
                                  "timesheets.xlsx sheet Acme: sum of Hours by Branch (look up Branch in workers.csv)"])
def test_a_summary_by_a_column_of_the_joined_table(staffing, said):
    tr = answered(Session(staffing), said)
    assert not tr.decision.request.op("filter")
    f = result_frame(tr).set_index("Branch")
    assert f["Hours_sum"].sort_index().to_dict() == BY_BRANCH.sort_index().to_dict()


def test_in_that_said_first_is_the_result_just_shown(staffing):
    s = Session(staffing)
    answered(s, "timesheets.xlsx Acme rows where Hours > 20")
    tr = answered(s, "in that, just the Kitchen Porter rows - total Hours")
    kept = SHIFTS[(SHIFTS["Hours"] > 20) & (SHIFTS["Role"] == "Kitchen Porter")]
    assert f"{kept['Hours'].sum():g}" in tr.run.answer and str(len(kept)) in tr.run.answer, tr.run.answer


@pytest.mark.parametrize("answer, figure", [("no condition, just total Hours", True), ("none, I don't want a filter", False)])
def test_a_filter_declined_drops_the_filter_and_keeps_the_table(staffing, answer, figure):
    s = Session(staffing)
    assert s.turn("filter the Birch sheet of timesheets.xlsx").decision.next == "ask_slots"
    tr = s.turn(answer)
    assert "condition" not in tr.decision.reply.replace("What is the condition", ""), tr.decision.reply
    if figure:
        tr = answered(s, "go")
        assert f"{SHIFTS.iloc[:4]['Hours'].sum():g}" in tr.run.answer
    else:
        assert tr.run is None and tr.decision.next == "ask_intent" and "timesheets.xlsx" in tr.decision.reply


@pytest.mark.parametrize("said, value", [("timesheets.xlsx Acme, Role is forklift, total Hours", "Forklift Driver"),
                                         ("timesheets.xlsx Acme, Role is Kitchen Portr, total Hours", "Kitchen Porter")])
def test_a_value_said_as_a_word_or_a_typo_of_one_value_is_that_value_said_back(staffing, said, value):
    s = Session(staffing)
    tr = s.turn(said)
    assert tr.run is None and value in tr.decision.reply, tr.decision.reply
    tr = answered(s, "go")
    assert f"{SHIFTS[SHIFTS['Role'] == value]['Hours'].sum():g}" in tr.run.answer


def test_keep_one_of_each_is_the_dedupe_never_a_column_choice(tmp_path):
    df = pd.concat([SHIFTS, SHIFTS.iloc[[1, 4]]], ignore_index=True)
    write_workbook(tmp_path, "timesheets.xlsx", {"Acme": df, "Birch": df.iloc[:4]})
    tr = answered(Session(Workspace.at(tmp_path)), "remove duplicate Timesheet IDs from the Acme sheet of timesheets.xlsx (keep one of each), then total Hours")
    assert not tr.decision.request.op("select")
    assert f"{df.drop_duplicates('Timesheet ID')['Hours'].sum():g}" in tr.run.answer, tr.run.answer


def test_a_step_said_not_to_be_done_leaves_the_rest_waiting(parking):
    OWNERS.to_csv(parking.root / "车主.csv", index=False)
    s = Session(Workspace.at(parking.root))
    first = s.turn("把停车缴费.xlsx北门和车主.csv按车牌关联，再去重，顺便弄一下苟且")
    assert first.decision.next == "restate_confirm" and first.decision.request.op("dedupe")
    tr = s.turn("不要再删重复行了，只关联就行")
    assert tr.decision.next == "restate_confirm" and not tr.decision.request.op("dedupe") and tr.decision.request.op("join"), tr.decision.reply
    f = result_frame(answered(s, "继续"))
    assert len(f) == len(PARK.merge(OWNERS, on="车牌", how="left"))


def test_shares_said_not_to_be_done_leave_the_summary(parking):
    s = Session(parking)
    s.turn("停车缴费.xlsx 北门 按收费类型汇总金额，再算每类的占比，再随便说点啥")
    tr = s.turn("不要占比了")
    assert tr.decision.next == "restate_confirm" and not tr.decision.request.op("share"), tr.decision.reply
    f = result_frame(answered(s, "继续")).set_index("收费类型")
    assert f["金额_合计"].sort_index().to_dict() == PARK.groupby("收费类型")["金额"].sum().sort_index().to_dict()


def test_a_total_by_a_key_sorted_is_per_key_in_order(tills):
    tr = answered(Session(tills), "Pier: total Qty by Clerk sorted high to low")
    f = result_frame(tr)
    want = TILL.groupby("Clerk")["Qty"].sum().sort_values(ascending=False)
    assert f["Clerk"].tolist() == want.index.tolist() and f["Qty_sum"].tolist() == want.tolist()


def test_the_result_named_by_the_join_that_made_it_is_filtered_never_joined_again(parking):
    OWNERS.to_csv(parking.root / "车主.csv", index=False)
    s = Session(Workspace.at(parking.root))
    joined = result_frame(answered(s, "把停车缴费.xlsx北门和车主.csv按车牌关联"))
    tr = answered(s, "在合并后的结果里，只留车主是王一的")
    assert not tr.decision.request.op("join")
    assert len(result_frame(tr)) == int((joined["车主"] == "王一").sum())


def test_across_all_of_a_plural_no_table_names_is_every_sheet(staffing):
    tr = answered(Session(staffing), "timesheets.xlsx top 2 roles by Hours across all clients")
    assert tr.decision.request.op("stack")
    both = pd.concat([SHIFTS, SHIFTS.iloc[:4]])
    want = both.groupby("Role")["Hours"].sum().sort_values(ascending=False).head(2)
    f = result_frame(tr).set_index("Role")
    assert f[f.columns[0]].to_dict() == want.to_dict()


def test_across_all_of_a_columns_plural_stays_that_column(staffing):
    tr = Session(staffing).turn("timesheets.xlsx Acme total Hours across all roles")
    assert not tr.decision.request.op("stack")


@pytest.mark.parametrize("said", ["另一个文件有多少行", "how many rows in the other file?"])
def test_the_other_file_is_the_one_table_besides_the_one_in_use(staffing, said):
    s = Session(staffing)
    answered(s, "timesheets.xlsx Birch: total Hours by Role")
    tr = answered(s, said)
    assert tr.decision.request.file == "workers.csv" and str(len(WORKERS)) in tr.run.answer


@pytest.mark.parametrize("again", ["do the same Pay column for Birch", "do the same for Birch"])
def test_the_same_column_for_another_sheet(staffing, again):
    s = Session(staffing)
    answered(s, "On the Acme sheet of timesheets.xlsx, add a column Pay = Hours * 20")
    tr = s.turn(again)
    assert tr.decision.next == "restate_confirm" and "Birch" in tr.decision.reply, tr.decision.reply
    f = result_frame(answered(s, "go"))
    assert f["Pay"].tolist() == (SHIFTS.iloc[:4]["Hours"] * 20).tolist()


@pytest.mark.parametrize("said, keep", [("timesheets.xlsx Acme total Hours, leaving out anything not approved", "Y"),
                                        ("timesheets.xlsx Acme total Hours excluding rows not approved", "Y"),
                                        ("timesheets.xlsx Acme total Hours excluding approved rows", "N")])
def test_an_exclusion_of_what_is_not_approved_keeps_the_approved(tmp_path, said, keep):
    df = SHIFTS.assign(**{"Approved (Y/N)": ["Y", "N", "Y", "Y", "N", "Y", "N", "Y"]})
    write_workbook(tmp_path, "timesheets.xlsx", {"Acme": df, "Birch": df.iloc[:4]})
    tr = answered(Session(Workspace.at(tmp_path)), said)
    want = df[df["Approved (Y/N)"] == keep]["Hours"].sum()
    assert f"{want:g}" in tr.run.answer, tr.run.answer


@pytest.mark.parametrize("said", ["停车缴费 北门 收钱最多的收费员是谁", "停车缴费 北门 收的钱最多的1个收费员"])
def test_who_took_the_most_money_is_ranked_by_the_money_column(parking, said):
    money = PARK.groupby("收费员")["金额"].sum()
    tr = answered(Session(parking), said)
    assert _top(money) in tr.run.answer and f"{money.max():g}" in tr.run.answer, tr.run.answer


def test_a_growth_of_one_sheet_after_all_sheets_is_that_sheets_own(parking):
    s = Session(parking)
    answered(s, "停车缴费.xlsx 两个门合在一起，按收费类型汇总金额，再算每类占比")
    tr = answered(s, "北门每个月收了多少钱，顺便算下环比")
    assert not tr.decision.request.op("stack") and not tr.decision.request.op("share") and tr.decision.request.sheet == "北门"
    monthly = PARK.groupby(PARK["缴费日期"].dt.to_period("M"))["金额"].sum()
    assert f"{(monthly.iloc[-1] / monthly.iloc[-2] - 1) * 100:.2f}%" in tr.run.answer, tr.run.answer


@pytest.mark.parametrize("ask", ["draw that as a line chart", "chart the pivot, a line per sheet"])
def test_a_chart_of_a_pivot_draws_a_line_per_column(tills, ask):
    s = Session(tills)
    answered(s, "tills.xlsx all sheets: pivot with months as rows and sheets as columns, sum of Qty")
    tr = s.turn(ask)
    if tr.run is None:
        tr = answered(s, "go")
    chart = tr.decision.request.op("chart").args
    assert chart["y"] == ["Pier", "Plaza"] and chart["x"] == "Sale Date"
    assert tr.run.files and tr.run.files[0]["path"].endswith(".xlsx")


def test_a_share_within_the_key_said_after_within(staffing):
    tr = answered(Session(staffing), "timesheets.xlsx Acme: percentage of Hours by Role within each Worker")
    share = tr.decision.request.op("share").args
    assert share["within"] == ["Worker"] and share["keys"] == ["Role"]
    f = result_frame(tr)
    per = SHIFTS.groupby(["Worker", "Role"])["Hours"].sum()
    want = per / per.groupby(level=0).transform("sum") * 100
    col = next(c for c in f.columns if "share" in c.casefold() or "%" in c)
    assert sorted(f[col].tolist()) == pytest.approx(sorted(want.tolist()), abs=0.06)


def test_same_but_a_condition_is_what_ran_with_it(staffing):
    s = Session(staffing)
    answered(s, "total Hours per Worker for Acme in timesheets.xlsx, biggest first")
    tr = s.turn("same but only Forklift Driver ones")
    assert tr.decision.request.op("group") and tr.decision.request.op("filter"), tr.decision.reply
    f = result_frame(tr if tr.run is not None else answered(s, "go"))
    want = SHIFTS[SHIFTS["Role"] == "Forklift Driver"].groupby("Worker")["Hours"].sum().sort_values(ascending=False)
    assert f["Hours_sum"].tolist() == want.tolist()


def test_do_it_for_all_sheets_together_stacks_them(staffing):
    s = Session(staffing)
    answered(s, "total Hours per Worker for Acme in timesheets.xlsx, biggest first")
    tr = s.turn("now do it for all sheets together")
    assert tr.decision.request.op("stack") and tr.decision.request.op("group"), tr.decision.reply


def test_in_there_is_the_file_in_use(staffing):
    s = Session(staffing)
    answered(s, "open workers.csv - how many workers per Branch?")
    tr = answered(s, "are there any duplicate rows in there?")
    assert tr.decision.request.file == "workers.csv"


def test_columns_brought_into_the_table_named_by_its_stem_over_every_sheet(staffing):
    tr = answered(Session(staffing), "bring the Branch from workers.csv into all the timesheets, all sheets")
    f = result_frame(tr)
    assert len(f) == len(SHIFTS) + 4 and f["Branch"].notna().all()


def test_a_formula_per_condition_is_said_undoable_and_never_run_reduced(parking):
    s = Session(parking)
    tr = s.turn("停车缴费.xlsx 北门新增一列 提成：如果 收费类型 是 月租 就等于 金额*0.2，不是的话等于0")
    assert tr.run is None and "做不了" in tr.decision.reply, tr.decision.reply
    tr = s.turn("继续")
    assert tr.run is None and "不能只做其余部分" in tr.decision.reply
    assert not (parking.root / "outputs").exists() or not list((parking.root / "outputs").iterdir())


def test_the_duplicates_listed_removed_then_a_total_is_of_the_table(tmp_path):
    df = pd.DataFrame({"单号": ["A1", "A2", "A3", "A2", "A4", "A5", "A5"], "门店": ["东", "西", "东", "西", "西", "东", "东"], "金额": [1, 2, 3, 2, 4, 5, 5]})
    df.to_csv(tmp_path / "流水.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "流水.csv 有没有重复的记录")
    tr = answered(s, "把这些重复的去掉，然后重新算一下总金额")
    assert f"{df.drop_duplicates()['金额'].sum()}" in tr.run.answer and tr.decision.request.file == "流水.csv", tr.run.answer


def test_an_export_said_with_a_homophone_for_the_manager(tmp_path):
    pd.DataFrame({"门店": ["东", "西", "东"], "金额": [1, 2, 3]}).to_csv(tmp_path / "流水.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "流水.csv 按门店汇总金额")
    tr = answered(s, "把这个结果倒出来给店长，要excel格式的")
    assert tr.run.files and tr.run.files[0]["path"].endswith(".xlsx")


def test_a_month_said_before_a_negated_value_is_the_month(parking):
    tr = answered(Session(parking), "停车缴费.xlsx 北门3月份不是微信付款的月租记录给我看看")
    conds = tr.decision.request.op("filter").args["conditions"]
    assert all(c.column for c in conds) and "没理解" not in tr.decision.reply
    march = PARK[(PARK["缴费日期"].dt.month == 3) & (PARK["缴费方式"] != "微信") & (PARK["收费类型"] == "月租")]
    assert len(result_frame(tr)) == len(march)


def test_a_trend_chart_of_every_sheet_draws_a_line_per_sheet(parking):
    s = Session(parking)
    answered(s, "停车缴费.xlsx 北门 金额合计")
    tr = answered(s, "画个图看看两个门每个月的金额走势")
    assert tr.decision.request.op("chart").args.get("split") == "工作表"
    tr2 = Session(parking).turn("停车缴费.xlsx 两个门合在一起画个每月金额折线图")
    assert not tr2.decision.request.op("chart").args.get("split")


@pytest.mark.parametrize("said, key, agg, low", [("median Hours per Role in timesheets.xlsx Acme except Forklift Driver, sorted descending", "Role", "median", False),
                                                 ("average Hours per Role in timesheets.xlsx Acme, longest first", "Role", "mean", False),
                                                 ("max Hours per Worker in timesheets.xlsx Acme, sorted ascending", "Worker", "max", True)])
def test_a_statistic_per_key_said_with_an_order_is_in_that_order(staffing, said, key, agg, low):
    tr = answered(Session(staffing), said)
    kept = SHIFTS[SHIFTS["Role"] != "Forklift Driver"] if "except" in said else SHIFTS
    want = kept.groupby(key)["Hours"].agg(agg).sort_values(ascending=low)
    assert want.index.tolist() != sorted(want.index)  # the data: the order asked is no alphabetical order
    f = result_frame(tr)
    assert f[key].tolist() == want.index.tolist()


JOBS = pd.DataFrame({"Job No": ["J1", "J2", "J3", "J4", "J5"], "Customer": ["Ali", "Bo", "Ali", "Cy", "Bo"],
                     "Invoice Total": [100.0, 50.0, 30.0, 70.0, 20.0], "Paid (Y/N)": ["N", "Y", "N", "N", "N"]})


@pytest.mark.parametrize("said, paid", [("jobs.csv unpaid Invoice Total per Customer", "N"), ("jobs.csv paid jobs only, Invoice Total per Customer", "Y")])
def test_paid_and_unpaid_over_a_yes_no_column(tmp_path, said, paid):
    JOBS.to_csv(tmp_path / "jobs.csv", index=False)
    f = result_frame(answered(Session(Workspace.at(tmp_path)), said)).set_index("Customer")
    want = JOBS[JOBS["Paid (Y/N)"] == paid].groupby("Customer")["Invoice Total"].sum()
    assert f["Invoice Total_sum"].sort_index().to_dict() == want.sort_index().to_dict()


@pytest.mark.parametrize("said", ["jobs.csv which jobs haven't been paid?", "jobs.csv which ones have not been paid", "jobs.csv jobs that were never paid"])
def test_a_negated_perfect_of_a_flag_is_its_no(tmp_path, said):
    JOBS.to_csv(tmp_path / "jobs.csv", index=False)
    f = result_frame(answered(Session(Workspace.at(tmp_path)), said))
    assert sorted(f["Job No"]) == sorted(JOBS[JOBS["Paid (Y/N)"] == "N"]["Job No"])


@pytest.mark.parametrize("said, keep", [("jobs.csv keep customers that don't start with A", lambda c: not c.startswith("A")),
                                        ("jobs.csv keep rows where Customer does not start with A", lambda c: not c.startswith("A")),
                                        ("jobs.csv keep rows except those where Customer starts with A", lambda c: not c.startswith("A")),
                                        ("jobs.csv 只要Customer不以A开头的", lambda c: not c.startswith("A")),
                                        ("jobs.csv rows where Customer starts with A", lambda c: c.startswith("A"))])
def test_a_negated_start_is_the_rows_that_do_not_start_so(tmp_path, monkeypatch, said, keep):
    JOBS.to_csv(tmp_path / "jobs.csv", index=False)
    for engine in ("pandas", "duckdb"):
        monkeypatch.setenv("WENQING_ENGINE", engine)
        f = result_frame(answered(Session(Workspace.at(tmp_path)), said))
        assert sorted(f["Job No"]) == sorted(JOBS[JOBS["Customer"].map(keep)]["Job No"]) and len(f.columns) == len(JOBS.columns)


def test_a_column_as_a_percentage_of_another_per_key_divides_the_totals(tills):
    f = result_frame(answered(Session(tills), "tills.xlsx Pier: Qty as a percentage of Total, per Clerk")).set_index("Clerk")
    g = TILL.groupby("Clerk")[["Qty", "Total"]].sum()
    assert len(f) == len(g) and not any("\u4e00" <= ch <= "\u9fff" for c in f.columns for ch in c)
    assert f["Qty % of Total"].sort_index().round(6).tolist() == (g["Qty"] / g["Total"] * 100).sort_index().round(6).tolist()


def test_how_many_and_how_much_are_both_answered(parking):
    tr = answered(Session(parking), "停车缴费.xlsx 北门月租的有几条，一共收了多少钱")
    kept = PARK[PARK["收费类型"] == "月租"]
    assert f"{kept['金额'].sum():g}" in tr.run.answer.replace(",", "") and f"行数：{len(kept)}" in tr.run.answer, tr.run.answer


MEMBERS = pd.DataFrame({"会员卡号": ["C1", "C2", "C3", "C1", "C4"], "会员姓名": ["王一", "李二", "张三", "王一", "赵四"],
                        "性别": ["男", "女", "男", "男", "女"], "等级": ["金", "银", "金", "金", "铜"]})


def test_a_count_after_a_dedupe_keeps_the_rows_counted_before(tmp_path):
    MEMBERS.to_csv(tmp_path / "会员.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "会员.csv 等级是金的有多少人")
    tr = answered(s, "按会员卡号去重以后是多少人")
    want = MEMBERS[MEMBERS["等级"] == "金"].drop_duplicates("会员卡号")
    assert f"共有 {len(want)} 行" in tr.run.answer, tr.run.answer
    alone = answered(Session(Workspace.at(tmp_path)), "会员.csv 按会员卡号去重以后是多少人")
    assert f"共有 {MEMBERS['会员卡号'].nunique()} 行" in alone.run.answer


def test_the_n_rows_just_shown_named_by_their_number(tmp_path):
    MEMBERS.to_csv(tmp_path / "会员.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "会员.csv 等级是金的")
    tr = answered(s, "刚才那3个人里面按会员卡号去重")
    assert len(result_frame(tr)) == MEMBERS[MEMBERS["等级"] == "金"]["会员卡号"].nunique()


def test_which_month_did_the_least_business_is_the_money_per_month(parking):
    tr = answered(Session(parking), "停车缴费.xlsx 两个门合起来看，哪个月生意最差")
    both = pd.concat([PARK, PARK.iloc[:4]])
    monthly = both.groupby(both["缴费日期"].dt.to_period("M").astype(str))["金额"].sum()
    assert monthly.idxmin() in tr.run.answer and f"{monthly.min():g}" in tr.run.answer.replace(",", ""), tr.run.answer
