"""Found by the round-30 work, each recomputed with pandas: "that" said alone points at the rows just shown (how many is
that per clerk / sort that by Total); a column called Total is a column after "by"; "paid by card" is a value, never a key;
a statistic per key and period keeps the period; a sheet's own name beside another file names the other table of a join or
a comparison; the sheets compared or said one by one ("each sheet, each month") stay a key of what is computed."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame, write_workbook

from engine.session import Session
from tools.workspace import Workspace

TILL = pd.DataFrame({"Sale Date": pd.to_datetime(["2024-01-05", "2024-01-20", "2024-02-03", "2024-02-11", "2024-02-25", "2024-03-02", "2024-03-09", "2024-01-30"]),
                     "Clerk": ["Al", "Bea", "Al", "Cy", "Bea", "Al", "Cy", "Al"],
                     "Payment": ["Card", "Cash", "Card", "Card", "Card", "Cash", "Voucher", "Card"],
                     "Qty": [1, 3, 2, 5, 1, 4, 2, 6], "Total": [4.0, 12.0, 9.0, 20.0, 3.0, 15.0, 7.5, 30.0]})
PIER = TILL
PLAZA = TILL.iloc[:3].assign(Total=[1.0, 2.0, 3.0])


@pytest.fixture(params=["pandas", "duckdb"])
def tills(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "tills.xlsx", {"Pier": PIER, "Plaza": PLAZA})
    pd.DataFrame({"Clerk": ["Al", "Bea"], "Shift": ["AM", "PM"]}).to_csv(tmp_path / "staff.csv", index=False)
    return Workspace.at(tmp_path)


CARD = PIER[PIER["Payment"] == "Card"]


@pytest.mark.parametrize("follow_up", ["how many is that per Clerk?", "split that by Clerk"])
def test_that_said_alone_is_the_rows_just_shown(tills, follow_up):
    s = Session(tills)
    answered(s, "show Pier rows where Payment is Card")
    f = result_frame(answered(s, follow_up)).set_index("Clerk")
    assert f[f.columns[-1]].sort_index().to_dict() == CARD.groupby("Clerk").size().sort_index().to_dict()


@pytest.mark.parametrize("follow_up", ["sort that by Total", "sort those by Total"])
def test_a_column_called_total_after_by_is_the_column(tills, follow_up):
    s = Session(tills)
    answered(s, "show Pier rows where Payment is Card")
    f = result_frame(answered(s, follow_up))
    assert f["Total"].tolist() == CARD.sort_values("Total")["Total"].tolist()


def test_paid_by_a_value_is_a_condition_never_a_key(tills):
    tr = answered(Session(tills), "how many Pier sales were paid by card")
    assert not tr.decision.request.op("group")
    assert str(len(CARD)) in tr.run.answer


def test_a_median_per_clerk_and_month_keeps_the_month(tills):
    tr = answered(Session(tills), "Pier median Total by Clerk and month")
    want = PIER.assign(m=PIER["Sale Date"].dt.to_period("M").astype(str)).groupby(["Clerk", "m"])["Total"].median()
    f = result_frame(tr)
    assert len(f) == len(want) and sorted(f["Total_median"].round(6)) == sorted(want.round(6))


SHOPS = {
    "东区店": pd.DataFrame({"销售日期": pd.to_datetime(["2024-03-02", "2024-03-15", "2024-04-01", "2024-03-20", "2024-05-05", "2024-04-28"]),
                          "商品名称": ["大米", "面粉", "大米", "牛奶", "牛奶", "白糖"], "导购": ["小周", "小吴", "小周", "小郑", "小吴", "小周"],
                          "金额": [70.0, 99.0, 35.0, 118.8, 29.7, 79.2]}),
    "西区店": pd.DataFrame({"销售日期": pd.to_datetime(["2024-03-03", "2024-04-09", "2024-04-10"]), "商品名称": ["大米", "大米", "牛奶"],
                          "导购": ["小冯", "小冯", "小郑"], "金额": [35.0, 99.0, 57.0]}),
    "南区店": pd.DataFrame({"销售日期": pd.to_datetime(["2024-03-09", "2024-05-01"]), "商品名称": ["白糖", "面粉"],
                          "导购": ["小陈", "小陈"], "金额": [12.0, 40.0]}),
}
GOODS = pd.DataFrame({"商品名称": ["大米", "面粉", "牛奶", "白糖"], "供应商": ["甲", "乙", "丁", "丙"], "进价": [25, 12, 6, 11]})
ALL = pd.concat([df.assign(工作表=name) for name, df in SHOPS.items()], ignore_index=True)


@pytest.fixture(params=["pandas", "duckdb"])
def shops(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "门店销售.xlsx", SHOPS)
    GOODS.to_csv(tmp_path / "商品.csv", index=False)
    return Workspace.at(tmp_path)


@pytest.mark.parametrize("said", ["门店销售 东区店按导购和月份分组，算金额的中位数", "门店销售 东区店按导购、月份两个分组，算金额中位数"])
def test_a_median_per_key_and_month_keeps_the_month(shops, said):
    tr = answered(Session(shops), said)
    east = SHOPS["东区店"].assign(月份=SHOPS["东区店"]["销售日期"].dt.to_period("M").astype(str))
    want = east.groupby(["导购", "月份"])["金额"].median()
    f = result_frame(tr).set_index(["导购", "月份"])["金额_中位数"]
    assert f.sort_index().round(6).tolist() == want.sort_index().round(6).tolist()


@pytest.mark.parametrize("said", ["西区店和商品表按商品名称关联", "把西区店和商品.csv按商品名称合并一下"])
def test_a_sheets_own_name_beside_another_file_is_the_other_table(shops, said):
    f = result_frame(answered(Session(shops), said))
    assert len(f) == len(SHOPS["西区店"]) and f["供应商"].tolist() == SHOPS["西区店"].merge(GOODS, on="商品名称")["供应商"].tolist()


def test_a_sheet_compared_second_is_the_sheet_said(shops):
    tr = answered(Session(shops), "商品.csv和南区店对比一下商品名称")
    assert tr.decision.request.op("compare").args.get("other_sheet") == "南区店"
    assert "2 行" in tr.run.answer


def test_each_sheet_and_each_month_are_both_keys(shops):
    tr = answered(Session(shops), "门店销售.xlsx每个工作表每个月的金额")
    want = ALL.assign(月份=ALL["销售日期"].dt.to_period("M").astype(str)).groupby(["工作表", "月份"])["金额"].sum()
    f = result_frame(tr)
    assert len(f) == len(want) and sorted(f["金额_合计"].round(6)) == sorted(want.round(6))


@pytest.mark.parametrize("said", ["画个折线图，各店每个月的金额", "画个图对比三个店每个月的金额"])
def test_a_chart_of_each_sheet_per_month_has_a_line_per_sheet(shops, said):
    tr = answered(Session(shops), said)
    assert tr.decision.request.op("chart").args.get("split") == "工作表"


def test_the_figure_of_every_sheet_compared_is_per_sheet(shops):
    tr = answered(Session(shops), "对比一下三个店的金额合计")
    f = result_frame(tr).set_index("工作表")["金额_合计"]
    assert f.sort_index().round(6).to_dict() == ALL.groupby("工作表")["金额"].sum().sort_index().round(6).to_dict()


def test_two_sheets_compared_leave_no_word_not_understood(shops):
    tr = Session(shops).turn("对比一下东区店和西区店")
    assert "没理解" not in tr.decision.reply


def test_a_sheets_own_name_said_whole_names_its_workbook_without_asking_back(shops):
    tr = Session(shops).turn("西区店按导购汇总金额")
    assert tr.run is not None, tr.decision.reply
    f = result_frame(tr).set_index("导购")["金额_合计"]
    assert f.sort_index().to_dict() == SHOPS["西区店"].groupby("导购")["金额"].sum().sort_index().to_dict()


def test_a_sheet_name_another_table_holds_as_a_value_is_said_back(tmp_path):
    write_workbook(tmp_path, "tills.xlsx", {"Pier": PIER, "Plaza": PLAZA})
    pd.DataFrame({"Site": ["Pier", "Plaza"], "Manager": ["Ann", "Bo"]}).to_csv(tmp_path / "sites.csv", index=False)
    tr = Session(Workspace.at(tmp_path)).turn("Plaza rows where Payment is Card")
    assert tr.run is None and tr.decision.next == "restate_confirm"


@pytest.mark.parametrize("said, names", [("which Clerk has the fewest rows at Pier?", "Bea and Cy"), ("tills Pier 哪个Clerk的行数最少", "Bea、Cy")])
def test_keys_level_at_the_top_are_all_named(tills, said, names):
    counts = PIER.groupby("Clerk").size()
    assert sorted(counts[counts == counts.min()].index) == ["Bea", "Cy"]  # the data: two clerks level
    tr = answered(Session(tills), said)
    assert names in tr.run.answer and "not listed" not in tr.run.answer and "没有列出" not in tr.run.answer


@pytest.mark.parametrize("swap, agg", [("中位数呢", "median"), ("用中位数再算一遍", "median"), ("换成中位数", "median"), ("最大值呢", "max")])
def test_a_statistic_said_alone_after_a_summary_changes_its_statistic(shops, swap, agg):
    s = Session(shops)
    answered(s, "东区店里，小吴的不算，每个导购的金额平均是多少")
    tr = s.turn(swap)
    assert tr.run is None and tr.decision.next == "restate_confirm", tr.decision.reply
    assert "东区店" in tr.decision.reply and "小吴" in tr.decision.reply
    f = result_frame(answered(s, "继续")).set_index("导购")
    east = SHOPS["东区店"]
    want = east[east["导购"] != "小吴"].groupby("导购")["金额"].agg(agg)
    col = next(c for c in f.columns if c.startswith("金额_"))
    assert f[col].sort_index().round(6).to_dict() == want.sort_index().round(6).to_dict()


def test_huizong_with_an_average_said_is_the_average_alone(shops):
    f = result_frame(answered(Session(shops), "门店销售 东区店按导购汇总金额的平均值"))
    assert [c for c in f.columns if c.startswith("金额_")] == ["金额_平均"]
    want = SHOPS["东区店"].groupby("导购")["金额"].mean()
    assert f.set_index("导购")["金额_平均"].sort_index().round(6).to_dict() == want.sort_index().round(6).to_dict()


# 销售明细 of a pharmacy: drug names with full-width brackets; 药品目录 says which drugs need a prescription
DRUGS = ["创可贴（中盒）", "维生素C片（小盒）", "二甲双胍片（体验装）", "阿莫西林胶囊"]
KINDS = {"创可贴（中盒）": "外用药", "维生素C片（小盒）": "维生素保健", "二甲双胍片（体验装）": "慢病用药", "阿莫西林胶囊": "抗生素"}
ZONE = pd.DataFrame({"销售日期": pd.to_datetime([f"2024-0{1 + i % 6}-{10 + i}" for i in range(12)]),
                     "小票号": ["T1", "T2", "T2", "T3", "T4", "T5", "T6", "T6", "T7", "T8", "T9", "T10"],
                     "药品名称": [DRUGS[i % 4] for i in range(12)],
                     "数量": [1, 2, 2, 3, 1, 4, 2, 2, 5, 1, 3, 2],
                     "单价": [9.9, 15.0, 15.0, 22.5, 35.0, 9.9, 15.0, 15.0, 22.5, 35.0, 9.9, 15.0],
                     "医保支付": ["是", "否", "否", "是", "是", "是", "否", "否", "是", "否", "是", "是"],
                     "营业员": ["张敏", "李强", "李强", "王芳", "张敏", "李强", "王芳", "王芳", "张敏", "李强", "王芳", "张敏"]})
ZONE["类别"] = ZONE["药品名称"].map(KINDS)
ZONE["金额"] = ZONE["数量"] * ZONE["单价"]
CATALOG = pd.DataFrame({"药品名称": DRUGS, "生产厂家": ["甲厂", "乙厂", "丙厂", "丁厂"], "是否处方药": ["否", "否", "是", "是"]})


@pytest.fixture(params=["pandas", "duckdb"])
def pharmacy(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "销售明细.xlsx", {"城南店": ZONE.iloc[:6], "开发区店": ZONE})
    CATALOG.to_csv(tmp_path / "药品目录.csv", index=False)
    return Workspace.at(tmp_path)


def test_a_word_inside_a_named_files_name_is_no_join(pharmacy):
    s = Session(pharmacy)
    joined = answered(s, "把销售明细的开发区店和药品目录.csv按药品名称关联起来")
    name = joined.run.files[0]["path"]
    assert "关联" in name
    tr = answered(s, f"{name} 按药品名称汇总金额")
    assert tr.decision.request.op("compare") is None
    f = result_frame(tr).set_index("药品名称")["金额_合计"]
    assert f.sort_index().round(6).to_dict() == ZONE.groupby("药品名称")["金额"].sum().sort_index().round(6).to_dict()


def test_a_noun_counted_that_another_table_names_is_said_back(pharmacy):
    tr = Session(pharmacy).turn("开发区店哪个营业员卖的处方药最多？")
    assert tr.run is None and "处方药" in tr.decision.reply


@pytest.mark.parametrize("said", ["开发区店只要医保支付的，按营业员数一下有几笔，从多到少排", "开发区店医保支付的，按营业员数一下笔数，从多到少"])
def test_counted_by_a_key_then_ordered_is_a_count_per_key_in_order(pharmacy, said):
    f = result_frame(answered(Session(pharmacy), said))
    want = ZONE[ZONE["医保支付"] == "是"].groupby("营业员").size().sort_values(ascending=False)
    assert list(f[f.columns[-1]]) == list(want) and set(f["营业员"]) == set(want.index)


def test_yes_but_by_the_count_orders_the_counts(pharmacy):
    s = Session(pharmacy)
    answered(s, "开发区店医保支付的，每个营业员各有几笔，按营业员排，大概看看")
    tr = s.turn("对，但是按笔数从多到少排，不是按名字")
    assert tr.decision.next == "restate_confirm", tr.decision.reply
    f = result_frame(answered(s, "继续"))
    want = ZONE[ZONE["医保支付"] == "是"].groupby("营业员").size().sort_values(ascending=False)
    assert list(f[f.columns[-1]]) == list(want)


def test_an_order_and_shares_after_a_filtered_summary_keep_its_filter(pharmacy):
    s = Session(pharmacy)
    answered(s, "开发区店除了抗生素以外，每个类别卖了多少钱")
    tr = answered(s, "按金额从高到低排一下，再算下每个类别占的比例")
    kept = ZONE[ZONE["类别"] != "抗生素"].groupby("类别")["金额"].sum()
    f = result_frame(tr)
    assert set(f["类别"]) == set(kept.index)
    assert "抗生素" not in tr.run.answer


def test_a_common_word_is_no_typo_of_a_column(pharmacy):
    tr = Session(pharmacy).turn("城南店的数据是2024年的，金额一共多少")
    assert all(c.column != "数量" for o in tr.decision.request.ops if o.kind == "filter" for c in o.args["conditions"])


def test_the_key_of_the_duplicates_is_no_key_of_the_statistic(pharmacy):
    tr = answered(Session(pharmacy), "开发区店按小票号去重，然后看看每个类别单价的中位数")
    once = ZONE.drop_duplicates(subset=["小票号"])
    want = once.groupby("类别")["单价"].median()
    f = result_frame(tr).set_index("类别")
    assert f[f.columns[-1]].sort_index().round(6).to_dict() == want.sort_index().round(6).to_dict()


def test_values_with_full_width_brackets_are_read_whole(pharmacy):
    tr = answered(Session(pharmacy), "开发区店里药品名称是 创可贴（中盒）、维生素C片（小盒）、二甲双胍片（体验装） 的，按药品名称汇总金额")
    want = ZONE[ZONE["药品名称"].isin(DRUGS[:3])].groupby("药品名称")["金额"].sum()
    f = result_frame(tr).set_index("药品名称")["金额_合计"]
    assert f.sort_index().round(6).to_dict() == want.sort_index().round(6).to_dict()


# rentals.xlsx, one sheet per station, beside bikes.csv: the word "bikes" is the rows' noun there, not the file
RIDES = pd.DataFrame({"Rental Date": pd.to_datetime(["2024-05-03", "2024-06-10", "2024-06-21", "2024-04-02", "2024-06-30", "2024-05-19", "2024-04-02"]),
                      "Rental ID": ["R1", "R2", "R3", "R4", "R5", "R6", "R4"], "Bike ID": ["B1", "B2", "B1", "B3", "B2", "B1", "B3"],
                      "Bike Type": ["Classic", "E-Bike", "Classic", "Cargo", "E-Bike", "Classic", "Cargo"],
                      "Duration Min": [30, 45, 20, 60, 15, 25, 60], "Fee": [5.0, 9.0, 4.0, 12.0, 3.0, 5.0, 12.0], "Payment": ["Card", "App", "Card", "Cash", "App", "Card", "Cash"],
                      "Discount": [0.0, 1.0, 0.0, 2.0, 0.0, 1.0, 2.0]})  # (a column whose name holds "count")


@pytest.fixture(params=["pandas", "duckdb"])
def rentals(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "rentals.xlsx", {"Dockyard": RIDES, "Museum": RIDES.iloc[:4]})
    pd.DataFrame({"Bike ID": ["B1", "B2", "B3", "B4"], "Bike Type": ["Classic", "E-Bike", "Cargo", "E-Bike"],
                  "Purchase Cost": [300.0, 900.0, 700.0, 950.0]}).to_csv(tmp_path / "bikes.csv", index=False)
    return Workspace.at(tmp_path)


def test_count_typed_back_to_a_charts_question_is_the_row_count(rentals):
    s = Session(rentals)
    tr = s.turn("Dockyard rentals per month, bar chart")
    assert tr.decision.next == "ask_slots" and "count" in tr.decision.reply
    tr = s.turn("count")
    assert "Discount" not in tr.decision.reply
    f = result_frame(answered(s, "go"))
    want = RIDES.groupby(RIDES["Rental Date"].dt.to_period("M")).size()
    assert sorted(f[f.columns[-1]].tolist()) == sorted(want.tolist())


@pytest.mark.parametrize("said", ["Dockyard: total Fee per Bike ID", "Dockyard total Fee per Bike Type, except e-bikes"])
def test_a_files_stem_inside_a_column_or_a_value_said_is_no_file(rentals, said):
    tr = answered(Session(rentals), said)
    assert tr.decision.request.file == "rentals.xlsx" and tr.decision.request.op("compare") is None


def test_a_stem_inside_the_name_of_the_file_written_is_no_file_to_read(rentals):
    s = Session(rentals)
    answered(s, "Dockyard: total Fee per Bike Type")
    tr = answered(s, "export that as an Excel file called weekly_top_bikes.xlsx")
    assert [f["path"] for f in tr.run.files] == ["outputs/weekly_top_bikes.xlsx"]


@pytest.mark.parametrize("said", ["Dockyard rentals except June: total Fee per Payment", "Dockyard: leave out rentals with Rental Date in June 2024, total Fee per Payment"])
def test_a_month_excluded_is_left_out(rentals, said):
    f = result_frame(answered(Session(rentals), said)).set_index("Payment")["Fee_sum"]
    kept = RIDES[RIDES["Rental Date"].dt.month != 6]
    assert f.sort_index().to_dict() == kept.groupby("Payment")["Fee"].sum().sort_index().to_dict()


def test_a_sheet_named_with_them_is_that_sheet_never_the_result_shown(rentals):
    s = Session(rentals)
    answered(s, "Museum: total Fee per Payment")
    tr = answered(s, "are there duplicate rentals in Dockyard? remove them")
    assert tr.decision.request.file == "rentals.xlsx" and tr.decision.request.sheet == "Dockyard"
    assert len(RIDES.drop_duplicates()) == len(RIDES) - 1 and len(result_frame(tr)) == len(RIDES) - 1


def test_how_much_money_per_month_is_the_money_column(pharmacy):
    tr = answered(Session(pharmacy), "开发区店不算抗生素，每个月卖了多少钱")
    kept = ZONE[ZONE["类别"] != "抗生素"]
    want = kept.groupby(kept["销售日期"].dt.to_period("M").astype(str))["金额"].sum()
    f = result_frame(tr)
    assert "金额_合计" in f.columns and sorted(f["金额_合计"].round(6)) == sorted(want.round(6))


def test_a_chart_of_how_much_was_sold_draws_the_money_column(pharmacy):
    tr = answered(Session(pharmacy), "画个柱状图，看看开发区店各个类别卖了多少钱")
    assert tr.decision.request.op("chart").args.get("y") == ["金额"]


@pytest.mark.parametrize("said", ["开发区店哪个营业员卖的钱最多", "开发区店花钱最多的前2个营业员，各花了多少"])
def test_the_most_money_is_the_money_summed(pharmacy, said):
    tr = answered(Session(pharmacy), said)
    want = ZONE.groupby("营业员")["金额"].sum().sort_values(ascending=False)
    assert want.index[0] in tr.run.answer
    assert tr.decision.request.op("group").args["measures"] == [{"column": "金额", "agg": "sum"}]


def test_only_a_sheet_said_chooses_the_sheet_never_an_empty_filter(pharmacy):
    tr = answered(Session(pharmacy), "只看城南店的每月金额环比")
    assert tr.decision.request.sheet == "城南店" and tr.decision.request.op("filter") is None


@pytest.mark.parametrize("again", ["the same for all sheets", "same for all three sheets"])
def test_the_same_for_all_sheets_stacks_them(rentals, again):
    s = Session(rentals)
    answered(s, "Museum: total Fee per Payment")
    f = result_frame(answered(s, again)).set_index("Payment")["Fee_sum"]
    both = pd.concat([RIDES, RIDES.iloc[:4]])
    assert f.sort_index().to_dict() == both.groupby("Payment")["Fee"].sum().sort_index().to_dict()


def test_the_same_filter_for_another_sheet_is_on_that_sheet_alone(rentals):
    s = Session(rentals)
    answered(s, "Museum rentals with Fee over 4 and Payment not Cash")
    tr = answered(s, "now the same filter for the Dockyard sheet")
    assert tr.decision.request.sheet == "Dockyard" and tr.decision.request.op("stack") is None
    assert len(result_frame(tr)) == len(RIDES[(RIDES["Fee"] > 4) & (RIDES["Payment"] != "Cash")])


@pytest.mark.parametrize("export, path", [("export the pivot result as weekly.xlsx", "outputs/weekly.xlsx"), ("export the last result to weekly.xlsx", "outputs/weekly.xlsx"),
                                          ("save that table as weekly.csv", "outputs/weekly.csv")])
def test_the_result_named_by_what_it_is_is_exported_under_the_name_said(rentals, export, path):
    s = Session(rentals)
    answered(s, "Museum: total Fee per Payment")
    tr = answered(s, export)
    assert [f["path"] for f in tr.run.files] == [path] and tr.decision.request.op("pivot") is None


@pytest.mark.parametrize("layout", ["把这个做成一个表，月份一行，三个店各一列", "把这个做成一个表，行是月份，列是工作表"])
def test_a_layout_of_a_summary_per_sheet_and_month_lays_out_its_figure(shops, layout):
    s = Session(shops)
    answered(s, "每个店每个月的金额分别是多少")
    tr = answered(s, layout)
    p = tr.decision.request.op("pivot")
    assert p is not None and p.args.get("columns") == "工作表" and p.args.get("value") == "金额_合计"
    f = result_frame(tr)
    want = ALL.assign(月份=ALL["销售日期"].dt.to_period("M").astype(str)).groupby(["月份", "工作表"])["金额"].sum()
    east = f[f["月份"] != "合计"].set_index("月份")["东区店"].dropna()  # (the pivot carries its own total row)
    assert east.round(6).to_dict() == want.xs("东区店", level="工作表").round(6).to_dict()


def test_i_meant_a_new_column_replaces_the_misreading(rentals):
    s = Session(rentals)
    s.turn("for each bike in bikes.csv, how many days from Purchase Cost to nothing")
    tr = s.turn("no, I meant a new column Cost K = Purchase Cost / 1000")
    assert tr.decision.next == "restate_confirm" and "group" not in tr.decision.reply.casefold(), tr.decision.reply
    f = result_frame(answered(s, "go"))
    assert f["Cost K"].round(6).tolist() == [0.3, 0.9, 0.7, 0.95]


def test_a_column_added_from_a_join_keeps_the_tables_own_columns(pharmacy):
    s = Session(pharmacy)
    answered(s, "开发区店按药品名称汇总数量，取前3名")
    tr = answered(s, "把这个结果跟药品目录.csv按药品名称对上，加上是否处方药那一列")
    f = result_frame(tr)
    assert {"药品名称", "是否处方药"} <= set(f.columns) and len(f) == 3
    want = ZONE.groupby("药品名称")["数量"].sum().nlargest(3).index
    assert sorted(f["药品名称"]) == sorted(want) and f.set_index("药品名称")["是否处方药"].to_dict() == CATALOG.set_index("药品名称").loc[list(f["药品名称"]), "是否处方药"].to_dict()


@pytest.mark.parametrize("join", ["用城南店跟这个结果按药品名称关联", "然后用城南店跟这个去重后的目录关联"])
def test_a_sheet_joined_with_the_last_result_is_the_base_of_the_join(pharmacy, join):
    s = Session(pharmacy)
    answered(s, "药品目录.csv 按药品名称去重")
    tr = answered(s, join)
    assert tr.decision.request.file == "销售明细.xlsx" and tr.decision.request.sheet == "城南店"
    f = result_frame(tr)
    assert len(f) == 6 and "生产厂家" in f.columns and "删除" not in tr.run.answer


@pytest.mark.parametrize("said, op, day", [("bikes.csv: Purchase Cost rows with Last Service Date before March 1, 2024", "lt", "2024-03-01"),
                                           ("bikes.csv rows with Last Service Date since 1 March 2024", "ge", "2024-03-01"),
                                           ("which bikes in bikes.csv haven't been serviced since 1 March 2024", "lt", "2024-03-01")])
def test_a_day_written_in_words_is_that_day(tmp_path, said, op, day):
    pd.DataFrame({"Bike ID": ["B1", "B2", "B3", "B4"], "Last Service Date": pd.to_datetime(["2024-02-10", "2024-03-01", "2024-03-20", "2024-01-05"]),
                  "Purchase Cost": [1.0, 2.0, 3.0, 4.0]}).to_csv(tmp_path / "bikes.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), said)
    c = tr.decision.request.op("filter").args["conditions"][0]
    assert (c.column, c.op, c.value) == ("Last Service Date", op, {"date": day})
    assert len(result_frame(tr)) == (2 if op == "lt" else 2)


def test_a_plural_said_with_the_number_of_the_sheets_is_the_sheets(rentals):
    tr = answered(Session(rentals), "total Fee per Payment across the two stations")
    both = pd.concat([RIDES, RIDES.iloc[:4]])
    f = result_frame(tr).set_index("Payment")["Fee_sum"]
    assert f.sort_index().to_dict() == both.groupby("Payment")["Fee"].sum().sort_index().to_dict()


@pytest.mark.parametrize("said, key", [("开发区店每个营业员的金额月环比", "营业员"), ("销售明细三个表合在一起，按工作表分组，算金额的月环比增长率", "工作表")])
def test_growth_per_group_is_each_groups_own(pharmacy, said, key):
    tr = answered(Session(pharmacy), said)
    data = ZONE if key == "营业员" else pd.concat([ZONE.iloc[:6].assign(工作表="城南店"), ZONE.assign(工作表="开发区店")])
    per = data.groupby([key, data["销售日期"].dt.to_period("M")])["金额"].sum()
    per = per.groupby(level=0).apply(lambda s: s.droplevel(0).reindex(pd.period_range(s.index.get_level_values(1).min(), s.index.get_level_values(1).max(), freq="M")))
    want = (per.groupby(level=0).pct_change() * 100).round(2)
    f = result_frame(tr)
    got = f.set_index([key, "期间"])["环比增长(%)"]
    assert len(got) == len(want)
    for (k, p), v in want.items():
        g = got.loc[(k, str(p))]
        assert (pd.isna(v) and pd.isna(g)) or round(float(g), 2) == v


def test_top_n_with_an_adjective_after_it_ranks_by_that_kind_of_figure(rentals):
    f = result_frame(answered(Session(rentals), "top 3 longest rides at Dockyard"))
    assert f["Duration Min"].tolist() == RIDES["Duration Min"].nlargest(3).tolist()


def test_each_before_a_column_is_the_key_of_the_shares(rentals):
    tr = answered(Session(rentals), "at Dockyard, what share of total Fee comes from each Payment")
    assert tr.decision.request.op("share").args.get("keys") == ["Payment"]
    f = result_frame(tr).set_index("Payment")
    pct = next(c for c in f.columns if "%" in c or "占比" in c or "share" in c.casefold())
    want = (RIDES.groupby("Payment")["Fee"].sum() / RIDES["Fee"].sum() * 100).round(2)
    assert f[pct].round(2).sort_index().to_dict() == want.sort_index().to_dict()


def test_a_pivots_figure_swapped_while_it_waits_is_the_pivots(rentals):
    s = Session(rentals)
    s.turn("pivot Dockyard rentals, rows Bike Type, columns Payment, count, roughly")
    tr = s.turn("ok but average Duration Min instead of count")
    assert tr.decision.next == "restate_confirm" and tr.decision.request.op("group") is None, tr.decision.reply
    f = result_frame(answered(s, "go"))
    want = RIDES.pivot_table(index="Bike Type", columns="Payment", values="Duration Min", aggfunc="mean")
    got = f[f["Bike Type"].isin(want.index)].set_index("Bike Type")
    for bt in want.index:
        for pay in want.columns:
            if pd.notna(want.loc[bt, pay]):
                assert round(float(got.loc[bt, pay]), 4) == round(float(want.loc[bt, pay]), 4)


def test_rows_whose_key_never_appears_in_another_files_sheet_are_the_unmatched(rentals):
    tr = answered(Session(rentals), "rows of bikes.csv whose Bike ID does not appear in the Museum sheet")
    f = result_frame(tr)
    museum = RIDES.iloc[:4]
    assert sorted(f["Bike ID"]) == sorted(set(["B1", "B2", "B3", "B4"]) - set(museum["Bike ID"]))


def test_one_month_against_the_month_before_is_its_growth(pharmacy):
    tr = answered(Session(pharmacy), "开发区店6月的金额比5月涨了百分之几")
    m = ZONE.groupby(ZONE["销售日期"].dt.to_period("M"))["金额"].sum()
    want = round((m[pd.Period("2024-06")] - m[pd.Period("2024-05")]) / m[pd.Period("2024-05")] * 100, 2)
    f = result_frame(tr).set_index("期间")
    assert round(float(f.loc["2024-06", "环比增长(%)"]), 2) == want


def test_a_column_computed_on_a_join_then_sorted_by_it(rentals):
    s = Session(rentals)
    answered(s, "Dockyard: total Fee per Bike ID")
    answered(s, "join that with bikes.csv on Bike ID")
    tr = answered(s, "add payback % = Fee_sum / Purchase Cost * 100 and sort by it, highest first")
    f = result_frame(tr)
    per = RIDES.groupby("Bike ID")["Fee"].sum()
    cost = pd.Series({"B1": 300.0, "B2": 900.0, "B3": 700.0})
    want = (per / cost * 100).sort_values(ascending=False)
    assert f["Bike ID"].tolist() == list(want.index) and f["payback %"].round(6).tolist() == want.round(6).tolist()


def test_a_condition_said_with_a_pivot_is_kept(tmp_path):
    hotel = pd.DataFrame({"Room Type": ["Std", "Dlx", "Std", "Dlx", "Std"], "Channel": ["Direct", "Direct", "Phone", "Phone", "Direct"],
                          "Total": [100.0, 250.0, 90.0, 300.0, 120.0], "Cancelled (Y/N)": ["N", "Y", "N", "N", "Y"]})
    write_workbook(tmp_path, "hotels.xlsx", {"Harbour": hotel, "Airport": hotel.iloc[:2]})
    tr = answered(Session(Workspace.at(tmp_path)), "Harbour pivot table, rows Room Type, columns Channel, values sum of Total, only Cancelled = N")
    assert tr.decision.request.op("filter") is not None
    kept = hotel[hotel["Cancelled (Y/N)"] == "N"]
    assert f"grand total {kept['Total'].sum():.0f} ({len(kept)} rows)" in tr.run.answer


def test_matched_up_with_another_table_and_its_columns_added_is_a_join(pharmacy):
    tr = answered(Session(pharmacy), "把城南店跟药品目录对一下，加上生产厂家")
    assert tr.decision.request.op("join") is not None and tr.decision.request.op("compare") is None
    f = result_frame(tr)
    want = ZONE.iloc[:6].merge(CATALOG, on="药品名称", how="left")
    assert len(f) == 6 and f["生产厂家"].tolist() == want["生产厂家"].tolist()


def test_per_booking_by_a_key_is_an_average_per_key_never_per_booking_ref(tmp_path):
    kinds = ["Leisure", "Business", "Group", "Leisure", "Business", "Leisure", "Group", "Business"]  # (a reference per row, too many to be values)
    guests = pd.DataFrame({"Booking Ref": [f"AP{i:03d}" for i in range(120)], "Guest Type": kinds * 15, "Nights": [1 + i % 9 for i in range(120)]})
    guests.to_csv(tmp_path / "airport.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "airport.csv average Nights per booking by Guest Type, excluding Group")
    assert tr.decision.request.op("group").args["keys"] == ["Guest Type"]
    kept = guests[guests["Guest Type"] != "Group"]
    f = result_frame(tr).set_index("Guest Type")["Nights_mean"]
    assert f.sort_index().to_dict() == kept.groupby("Guest Type")["Nights"].mean().sort_index().to_dict()


def test_the_result_named_by_its_own_words_is_exported_as_it_is(rentals):
    s = Session(rentals)
    first = answered(s, "Dockyard: total Fee per Payment, excluding Cash")
    tr = answered(s, "export the Dockyard card and app result as csv")
    back = pd.read_csv(rentals.root / tr.run.files[0]["path"]).set_index("Payment")["Fee_sum"]
    kept = RIDES[RIDES["Payment"] != "Cash"]
    assert back.sort_index().to_dict() == kept.groupby("Payment")["Fee"].sum().sort_index().to_dict()
    assert tr.decision.request.op("group") is None and first.run.files


def test_the_growth_of_a_summary_per_month_is_of_its_figure(rentals):
    s = Session(rentals)
    answered(s, "monthly Fee totals for Dockyard")
    tr = answered(s, "and the month-on-month growth of that?")
    assert tr.decision.request.op("growth").args.get("value") == "Fee_sum"


def test_the_same_dedupe_said_with_a_split_verb(pharmacy):
    s = Session(pharmacy)
    answered(s, "开发区店有没有重复的单子？有的话帮我去掉")
    tr = answered(s, "城南店也一样去一下重")
    assert tr.decision.request.sheet == "城南店" and tr.decision.request.op("dedupe") is not None


def test_a_share_asked_of_a_summary_is_per_its_keys(rentals):
    s = Session(rentals)
    answered(s, "how many Dockyard rentals per Payment")
    tr = s.turn("what's that as a share of the total Fee?")
    assert tr.decision.next != "ask_slots", tr.decision.reply
    assert tr.decision.request.op("share").args.get("keys") == ["Payment"]


# 运单.xlsx, one sheet per 网点; 快递员.csv says which 网点 each courier belongs to (所属网点)
WAYBILLS = pd.DataFrame({"运单号": [f"Y{i}" for i in range(10)], "收件城市": ["上海", "广州", "深圳", "成都", "上海", "深圳", "深圳", "成都", "广州", "武汉"],
                         "快递员": ["冯静", "冯静", "冯静", "周波艳", "周波艳", "周波艳", "李强", "冯静", "李强", "周波艳"],
                         "是否签收": ["是", "是", "是", "否", "否", "否", "是", "否", "否", "是"], "运费": [10.0, 12.0, 8.0, 20.0, 15.0, 9.0, 30.0, 11.0, 7.0, 5.0]})
COURIERS = pd.DataFrame({"快递员": ["冯静", "周波艳", "李强"], "所属网点": ["朝阳网点", "朝阳网点", "海淀网点"], "星级": [5, 4, 3]})


@pytest.fixture(params=["pandas", "duckdb"])
def depot(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "运单.xlsx", {"朝阳网点": WAYBILLS, "海淀网点": WAYBILLS.iloc[:4]})
    COURIERS.to_csv(tmp_path / "快递员.csv", index=False)
    return Workspace.at(tmp_path)


def test_the_rows_counted_said_with_a_condition_keep_it(depot):
    tr = answered(Session(depot), "运单.xlsx 朝阳网点哪个快递员没签收的单子最多")
    unsigned = WAYBILLS[WAYBILLS["是否签收"] == "否"].groupby("快递员").size()
    assert unsigned.idxmax() in tr.run.answer and str(unsigned.max()) in tr.run.answer


def test_how_many_orders_on_a_summary_is_its_counts_added_up(depot):
    s = Session(depot)
    answered(s, "运单.xlsx 朝阳网点每个收件城市多少单")
    tr = answered(s, "在这个结果里，上海和广州以外的城市一共多少单")
    assert str(int((~WAYBILLS["收件城市"].isin(["上海", "广州"])).sum())) in tr.run.answer


def test_rather_expensive_is_no_comparison(depot):
    tr = Session(depot).turn("运单.xlsx 海淀网点哪些单子比较贵")
    assert tr.decision.request.op("compare") is None and "比较/关联" not in tr.decision.reply


def test_the_noun_of_the_sheets_is_the_column_of_the_table_in_focus(depot):
    s = Session(depot)
    answered(s, "快递员.csv 每个所属网点有几个快递员")
    tr = answered(s, "每个网点各自的平均星级")
    assert tr.decision.request.file == "快递员.csv"
    f = result_frame(tr).set_index("所属网点")
    col = next(c for c in f.columns if c.startswith("星级"))
    assert f[col].sort_index().to_dict() == COURIERS.groupby("所属网点")["星级"].mean().sort_index().to_dict()


def test_how_many_and_a_total_then_another_month_while_it_waits(depot):
    dated = WAYBILLS.assign(寄件日期=pd.to_datetime(["2024-05-02", "2024-05-09", "2024-06-01", "2024-06-03", "2024-05-20", "2024-06-11", "2024-06-15", "2024-05-30", "2024-06-21", "2024-06-28"]),
                           付款方式=["月结", "到付", "月结", "月结", "月结", "寄付", "月结", "月结", "到付", "月结"])
    write_workbook(depot.root, "运单.xlsx", {"朝阳网点": dated, "海淀网点": dated.iloc[:4]})
    s = Session(Workspace.at(depot.root))
    tr = s.turn("运单.xlsx 朝阳网点5月份月结的单子有多少，运费合计多少，大概看看")
    tr = s.turn("那6月呢")
    assert tr.decision.next == "restate_confirm" and "月结" in tr.decision.reply, tr.decision.reply
    f = result_frame(answered(s, "继续"))
    june = dated[(dated["寄件日期"].dt.month == 6) & (dated["付款方式"] == "月结")]
    assert f.iloc[0].tolist()[-2:] == [len(june), june["运费"].sum()] or sorted(f.iloc[0].tolist()) == sorted([len(june), june["运费"].sum()])
