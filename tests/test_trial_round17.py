"""Found by the round-17 trials, each recomputed with pandas: two figures listed each with its statistic; figures asked
"how much" in turn; the file that holds every column named; a column said by its last word; the column naming each
stacked sheet; a rate named before the columns it divides."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame

from engine.session import Session
from tools.workspace import Workspace

FEES = {
    "1月": pd.DataFrame({"小区": ["阳光苑", "阳光苑", "翠湖居", "翠湖居", "金桂园"], "房号": ["101", "102", "201", "202", "301"],
                        "应收金额": [300.0, 320.0, 410.0, 400.0, 280.0], "实收金额": [300.0, 0.0, 410.0, 350.0, 280.0]}),
    "2月": pd.DataFrame({"小区": ["阳光苑", "阳光苑", "翠湖居", "翠湖居", "金桂园"], "房号": ["101", "102", "201", "202", "301"],
                        "应收金额": [300.0, 320.0, 410.0, 400.0, 280.0], "实收金额": [300.0, 320.0, 0.0, 400.0, 100.0]}),
}
TICKETS = pd.DataFrame({"工单号": [f"T{i}" for i in range(8)], "小区": ["阳光苑", "翠湖居", "金桂园", "阳光苑", "翠湖居", "金桂园", "阳光苑", "翠湖居"],
                        "维修人员": ["老王", "老李", "老王", "老张", "老李", "老王", "老张", "老李"],
                        "业主评分": [5, 2, 4, 1, 3, 5, 2, 4]})
COMPLAINTS = pd.DataFrame({"编号": ["C1", "C2", "C3", "C4"], "小区": ["阳光苑", "翠湖居", "金桂园", "阳光苑"], "类型": ["噪音", "停车", "卫生", "停车"]})


@pytest.fixture(params=["pandas", "duckdb"])
def ws(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    with pd.ExcelWriter(tmp_path / "物业费台账.xlsx") as w:
        for name, df in FEES.items():
            df.to_excel(w, sheet_name=name, index=False)
    TICKETS.to_csv(tmp_path / "报修单.csv", index=False)
    COMPLAINTS.to_excel(tmp_path / "投诉.xlsx", index=False)
    return Workspace.at(tmp_path)


def _ops(tr):
    return [(o.kind, o.args) for o in tr.decision.request.ops]


@pytest.mark.parametrize("text", ["物业费台账.xlsx 的 1月 每个小区应收金额合计和实收金额合计", "物业费台账.xlsx 的 1月 每个小区应收多少实收多少"])
def test_two_figures_listed_are_both_summed(ws, text):
    f = result_frame(answered(Session(ws), text)).set_index("小区")
    want = FEES["1月"].groupby("小区")[["应收金额", "实收金额"]].sum()
    for c in want.columns:
        assert f.loc[want.index, f"{c}_合计"].tolist() == pytest.approx(want[c].tolist())


def test_the_file_holding_every_column_named_is_taken(ws):
    tr = Session(ws).turn("每个小区的实收金额合计")
    assert tr.decision.request.file == "物业费台账.xlsx"  # 小区 is in every file; 实收金额 only in one
    assert tr.decision.missing == ("sheet",)  # its months are one table split: which one is asked, never a file


def test_a_column_said_by_its_last_word(ws):
    tr = answered(Session(ws), "报修单.csv 评分2分及以下的工单")
    f = result_frame(tr)
    assert sorted(f["工单号"]) == sorted(TICKETS[TICKETS["业主评分"] <= 2]["工单号"])


def test_a_last_word_shared_by_two_columns_names_neither():
    from modes.catalog import _head_words

    full = [(c, c) for c in ("业主评分", "师傅评分", "办结情况", "回访满意度")]
    heads = dict((t, c) for c, t in _head_words(full, {f for _, f in full}))
    assert "评分" not in heads and "情况" not in heads
    assert heads.get("满意度") == "回访满意度"


def test_the_column_naming_each_stacked_sheet_is_a_pivot_column(ws):
    tr = answered(Session(ws), "物业费台账.xlsx 两个月合并，做透视表，行放小区，列放工作表，值是实收金额合计")
    stacked = pd.concat([df.assign(工作表=k) for k, df in FEES.items()])
    want = stacked.pivot_table(index="小区", columns="工作表", values="实收金额", aggfunc="sum")
    f = result_frame(tr).set_index("小区")
    for c in want.columns:
        assert f.loc[want.index, c].tolist() == pytest.approx(want[c].tolist())


def test_the_column_naming_each_stacked_sheet_is_a_key(ws):
    tr = answered(Session(ws), "物业费台账.xlsx 两个月合并，按小区和工作表分组，实收金额求和")
    stacked = pd.concat([df.assign(工作表=k) for k, df in FEES.items()])
    want = stacked.groupby(["小区", "工作表"])["实收金额"].sum()
    f = result_frame(tr).set_index(["小区", "工作表"])["实收金额_合计"]
    assert f.loc[want.index].tolist() == pytest.approx(want.tolist())


def test_a_rate_named_before_the_totals_it_divides(ws):
    tr = answered(Session(ws), "物业费台账.xlsx 的 2月 按小区算收缴率，实收金额合计除以应收金额合计")
    f = result_frame(tr).set_index("小区")
    g = FEES["2月"].groupby("小区")[["实收金额", "应收金额"]].sum()
    assert "收缴率" in f.columns
    assert f.loc[g.index, "收缴率"].tolist() == pytest.approx((g["实收金额"] / g["应收金额"]).tolist(), rel=1e-3)


PICK = pd.to_datetime(["2024-01-03", "2024-01-10", "2024-02-01", "2024-02-15", "2024-03-02", "2024-03-20"])
QUARTERS = {
    "Q1": pd.DataFrame({"Shipment ID": ["A1", "A2", "A3", "A4", "A5", "A6"], "Pickup Date": PICK,
                        "Delivery Date": PICK + pd.to_timedelta([4, 9, 2, 15, 6, 3], unit="D"),
                        "Carrier": ["DHL", "Maersk", "DHL", "UPS", "Maersk", "UPS"], "Mode": ["Air", "Ocean", "Air", "Air", "Ocean", "Air"],
                        "Weight (kg)": [120, 900, 80, 300, 750, 60], "Freight Charge (USD)": [1500.0, 2100.0, 900.0, 2600.0, 1800.0, 400.0]}),
    "Q2": pd.DataFrame({"Shipment ID": ["B1", "B2", "B3", "B4"], "Pickup Date": PICK[:4] + pd.Timedelta(days=91),
                        "Delivery Date": PICK[:4] + pd.Timedelta(days=95), "Carrier": ["UPS", "DHL", "Maersk", "DHL"],
                        "Mode": ["Air", "Air", "Ocean", "Ocean"], "Weight (kg)": [50, 400, 1000, 200], "Freight Charge (USD)": [700.0, 3000.0, 2500.0, 1200.0]}),
}


@pytest.fixture(params=["pandas", "duckdb"])
def en(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    for stem in ("shipments", "freight"):
        with pd.ExcelWriter(tmp_path / f"{stem}.xlsx") as w:
            for name, df in QUARTERS.items():
                df.to_excel(w, sheet_name=name, index=False)
    return Workspace.at(tmp_path)


def test_stacked_sheets_grouped_by_sheet_and_mode(en):
    tr = answered(Session(en), "stack sheets Q1 and Q2 of shipments.xlsx, then group by sheet and Mode with Freight Charge (USD) sum")
    stacked = pd.concat([df.assign(sheet=k) for k, df in QUARTERS.items()])
    want = stacked.groupby(["sheet", "Mode"])["Freight Charge (USD)"].sum()
    f = result_frame(tr).set_index(["sheet", "Mode"])
    assert f.loc[want.index].iloc[:, 0].tolist() == pytest.approx(want.tolist())


def test_a_new_column_of_names_with_spaces(en):
    tr = answered(Session(en), "shipments.xlsx Q1: add a column Transit Days = Delivery Date - Pickup Date")
    f = result_frame(tr)
    q = QUARTERS["Q1"]
    assert f["Transit Days"].tolist() == (q["Delivery Date"] - q["Pickup Date"]).dt.days.tolist()


def test_a_formula_named_in_several_words(en):
    tr = answered(Session(en), "shipments.xlsx Q1 add a column Cost per kg = Freight Charge (USD) / Weight (kg)")
    f = result_frame(tr)
    q = QUARTERS["Q1"]
    assert f["Cost per kg"].tolist() == pytest.approx((q["Freight Charge (USD)"] / q["Weight (kg)"]).tolist(), rel=1e-3)


@pytest.mark.parametrize("text", [
    "shipments.xlsx Q1 sum of Freight Charge (USD) and average Weight (kg) per Carrier, sorted by the freight sum descending",
    "shipments.xlsx Q1 average Weight (kg) and sum of Freight Charge (USD) per Carrier, largest freight first",
    "freight.xlsx Q1 average Weight (kg) and sum of Freight Charge (USD) per Carrier, largest freight first",
])
def test_the_figure_an_order_names_orders_the_groups(en, text):
    f = result_frame(answered(Session(en), text))
    want = QUARTERS["Q1"].groupby("Carrier")["Freight Charge (USD)"].sum().sort_values(ascending=False)
    assert f["Carrier"].tolist() == want.index.tolist()


def test_figures_keep_the_order_they_were_said_in(en):
    tr = Session(en).turn("shipments.xlsx Q1 sum of Freight Charge (USD) and average Weight (kg) per Carrier")
    g = tr.decision.request.op("group")
    assert [m["column"] for m in g.args["measures"]] == ["Freight Charge (USD)", "Weight (kg)"]


def test_a_count_of_part_of_each_group_beside_its_whole_count(ws):
    complaints = pd.DataFrame({"编号": [f"C{i}" for i in range(9)], "投诉类型": ["噪音", "停车", "噪音", "卫生", "停车", "噪音", "卫生", "停车", "停车"],
                               "办结情况": ["未处理", "已办结", "已办结", "未处理", "未处理", "未处理", "已办结", "跟进中", "未处理"]})
    complaints.to_excel(ws.root / "投诉登记.xlsx", index=False)
    s = Session(ws)
    tr = answered(s, "看投诉登记.xlsx，每种投诉类型有多少条，未处理的有几条")
    f = result_frame(tr).set_index("投诉类型")
    want = complaints.groupby("投诉类型").agg(n=("编号", "size"), open=("办结情况", lambda x: int((x == "未处理").sum())))
    assert f.loc[want.index, "行数"].tolist() == want["n"].tolist()
    assert f.loc[want.index, "未处理_行数"].tolist() == want["open"].tolist()


def test_a_count_of_part_of_each_group_in_english(en):
    tr = Session(en).turn("count shipments per Carrier in shipments.xlsx Q1, and how many of them are Ocean")
    g = tr.decision.request.op("group")
    assert tr.decision.request.op("filter") is None and g is not None
    assert [m.get("where") is not None for m in g.args["measures"]] == [False, True]
    from modes import opspec

    assert "row count where Mode" in opspec.get("group").phrase(g.args, "en")  # restated and planned as what runs
    f = result_frame(answered(Session(en), "count shipments per Carrier in shipments.xlsx Q1, and how many of them are Ocean")).set_index("Carrier")
    q = QUARTERS["Q1"]
    want = q.assign(o=q["Mode"].eq("Ocean").astype(int)).groupby("Carrier")["o"].sum()
    assert f.loc[want.index, "Ocean_rows"].tolist() == want.tolist()


def test_a_model_may_give_a_count_of_part_of_the_rows():
    from modes.schema import View, read_answer

    view = View({"报修单.csv": {"": ("小区", "业主评分")}}, numeric=frozenset({"业主评分"}))
    a = read_answer({"intent": "work", "query": {"source": {"kind": "file", "file": "报修单.csv"}, "group": [{"op": "group", "args": {
        "keys": ["小区"], "measures": [{"agg": "count"}, {"agg": "count", "where": [{"column": "业主评分", "op": "le", "value": 2}], "label": "差评"}]}}]}}, view)
    assert not a.errors and not a.unknown
    m = a.query.group[0].args["measures"][1]
    assert m["where"][0].column == "业主评分" and m["label"] == "差评"
    a = read_answer({"intent": "work", "query": {"source": {"kind": "file", "file": "报修单.csv"}, "group": [{"op": "group", "args": {
        "keys": ["小区"], "measures": [{"agg": "count", "where": [{"column": "口碑", "op": "le", "value": 2}]}]}}]}}, view)
    assert a.query is None and [u.name for u in a.unknown] == ["口碑"]


def test_a_sheet_named_as_a_month_is_that_sheet_not_a_period_as_well(ws):
    fees = {k: df.assign(缴费日期=pd.to_datetime(["2024-01-05", "2024-03-02", None, "2024-02-10", "2024-01-20"]) if k == "2月"
                         else pd.to_datetime(["2024-01-05", None, "2024-01-09", "2024-01-10", "2024-01-20"])) for k, df in FEES.items()}
    with pd.ExcelWriter(ws.root / "物业费台账.xlsx") as w:
        for name, df in fees.items():
            df.to_excel(w, sheet_name=name, index=False)
    tr = answered(Session(ws), "2月份按小区汇总实收金额")
    want = fees["2月"].groupby("小区")["实收金额"].sum()  # every row of the 2月 sheet, whenever it was paid
    f = result_frame(tr).set_index("小区")
    assert f.loc[want.index, "实收金额_合计"].tolist() == pytest.approx(want.tolist())
    assert tr.decision.request.op("filter") is None


def test_a_word_of_a_file_name_outweighs_a_sheet_named_as_a_month(ws):
    complaints = COMPLAINTS.assign(投诉日期=pd.to_datetime(["2024-01-03", "2024-02-05", "2024-02-20", "2024-03-01"]))
    complaints.to_excel(ws.root / "业主投诉登记.xlsx", index=False)
    (ws.root / "投诉.xlsx").unlink()
    tr = Session(ws).turn("2月份的投诉，按小区数一下")
    assert tr.decision.request.file == "业主投诉登记.xlsx", tr.decision.reply


def test_which_kind_has_the_most_with_a_ranking_lists_every_kind(ws):
    tickets = TICKETS.assign(报修类别=["水电", "门窗", "水电", "电梯", "水电", "门窗", "门窗", "水电"])
    tickets.to_csv(ws.root / "报修单.csv", index=False)
    f = result_frame(answered(Session(ws), "看下报修单，哪类报修最多，列个排名"))
    want = tickets["报修类别"].value_counts()
    assert f.iloc[:, 0].tolist() == want.index.tolist() and f["行数"].tolist() == want.tolist()


@pytest.mark.parametrize("more", ["不对，不要任何筛选", "所有维修人员都算", "不对，不要任何筛选，所有维修人员都算"])
def test_every_condition_dropped_at_once(ws, more):
    s = Session(ws)
    answered(s, "报修单.csv 维修人员不是老王的，按小区统计业主评分平均")
    tr = s.turn(more)
    assert tr.decision.next == "restate_confirm", tr.decision.reply
    assert tr.decision.request.op("filter") is None and tr.decision.request.op("group") is not None


def test_a_last_word_inside_another_compound_names_no_column():
    from modes.catalog import SheetInfo
    from modes.resolve import find_columns

    sheet = SheetInfo(name="汇总", columns=("部门", "加班时长(小时)"), numeric=frozenset({"加班时长(小时)"}))
    assert find_columns("按部门算平均候诊时长", sheet) == [h for h in find_columns("按部门算平均候诊时长", sheet) if h.column == "部门"]
    assert [h.column for h in find_columns("各部门的平均时长", sheet)] == ["部门", "加班时长(小时)"]


def test_combining_the_quarters_stacks_them(en):
    tr = answered(Session(en), "combine both quarters of shipments.xlsx and give me total Freight Charge (USD) and number of shipments by Carrier")
    stacked = pd.concat(QUARTERS.values())
    want = stacked.groupby("Carrier")["Freight Charge (USD)"].sum()
    f = result_frame(tr).set_index("Carrier")
    assert tr.decision.request.op("join") is None
    assert f.loc[want.index].iloc[:, 0].tolist() == pytest.approx(want.tolist())


def test_in_each_quarter_the_sheets_are_a_key(en):
    tr = answered(Session(en), "how many shipments in shipments.xlsx were Ocean in each quarter, broken down by Carrier?")
    stacked = pd.concat([df.assign(sheet=k) for k, df in QUARTERS.items()])
    want = stacked[stacked["Mode"] == "Ocean"].groupby(["sheet", "Carrier"]).size()
    f = result_frame(tr).set_index(["sheet", "Carrier"])["rows"]
    assert f.loc[want.index].tolist() == want.tolist() and len(f) == len(want)


def test_a_pivot_laid_out_down_the_side_and_across(en):
    tr = Session(en).turn("pivot shipments.xlsx Q1 so Mode is down the side and Carrier goes across, count of shipments")
    p = tr.decision.request.op("pivot")
    assert p is not None and (p.args["rows"], p.args["columns"]) == (["Mode"], "Carrier")


@pytest.mark.parametrize("text", [
    "from shipments.xlsx Q1 keep rows where Mode = Air; keep columns Shipment ID, Carrier, Freight Charge (USD)",
    "shipments.xlsx Q1 Air shipments — show shipment id, carrier and freight charge",
])
def test_the_columns_kept_after_a_condition(en, text):
    f = result_frame(answered(Session(en), text))
    q = QUARTERS["Q1"]
    assert list(f.columns) == ["Shipment ID", "Carrier", "Freight Charge (USD)"]
    assert f["Shipment ID"].tolist() == q[q["Mode"] == "Air"]["Shipment ID"].tolist()


def test_the_heaviest_rows_are_ranked_by_the_weight_column(en):
    f = result_frame(answered(Session(en), "3 heaviest Air shipments in shipments.xlsx Q1 — show shipment id, carrier and freight charge"))
    q = QUARTERS["Q1"]
    want = q[q["Mode"] == "Air"].nlargest(3, "Weight (kg)")["Shipment ID"].tolist()
    assert f["Shipment ID"].tolist() == want


def test_a_column_only_the_summary_has_sorts_the_summary(en):
    s = Session(en)
    answered(s, "average Weight (kg) per Carrier in shipments.xlsx Q1")
    tr = s.turn("sort by Weight (kg)_mean, highest first")
    assert tr.decision.request.file.startswith("outputs/"), tr.decision.reply
    f = result_frame(answered(s, "go") if tr.run is None else tr)
    want = QUARTERS["Q1"].groupby("Carrier")["Weight (kg)"].mean().sort_values(ascending=False)
    assert f["Carrier"].tolist() == want.index.tolist()


def test_a_list_of_values_joined_two_ways_keeps_every_value(ws):
    tickets = TICKETS.assign(处理状态=["已完成", "处理中", "待派单", "已完成", "处理中", "已关闭", "待派单", "已完成"])
    tickets.to_csv(ws.root / "报修单.csv", index=False)
    f = result_frame(answered(Session(ws), "报修单.csv 处理状态是处理中、待派单或已关闭的工单"))
    assert sorted(f["工单号"]) == sorted(tickets[tickets["处理状态"].isin(["处理中", "待派单", "已关闭"])]["工单号"])


@pytest.mark.parametrize("first,more,left", [
    ("报修单.csv 维修人员是老王、老李或老张的，按维修人员统计单数", "老张不要了", ["老王", "老李"]),
    ("报修单.csv 维修人员是老王或老李的，按维修人员统计单数", "take 老李 out", ["老王"]),
])
def test_one_value_taken_out_of_a_list(ws, first, more, left):
    s = Session(ws)
    answered(s, first)
    tr = s.turn(more)
    assert tr.decision.next == "restate_confirm", tr.decision.reply
    f = result_frame(answered(s, "继续" if tr.decision.lang == "zh" else "go"))
    assert sorted(f["维修人员"]) == sorted(left)


def test_the_same_for_another_value_instead(en):
    s = Session(en)
    answered(s, "how many shipments in shipments.xlsx Q1 are Air and what's their total Freight Charge (USD)?")
    tr = s.turn("and the same for Ocean instead of Air?")
    f = tr.decision.request.op("filter")
    assert f is not None and [(c.column, c.op, c.value) for c in f.args["conditions"]] == [("Mode", "eq", "Ocean")]


REPAIRS = pd.DataFrame({"工单号": [f"R{i}" for i in range(9)], "门店": ["国贸店", "望京店", "国贸店", "中关村店", "望京店", "国贸店", "中关村店", "望京店", "国贸店"],
                        "维修费用": [300, 450, 120, 800, 90, 60, 500, 210, 330], "处理状态": ["已完成", "待处理", "待处理", "已完成", "处理中", "待处理", "待处理", "已完成", "已完成"]})


@pytest.mark.parametrize("text", ["器械报修.csv：每个门店维修费用合计多少，一共多少单，其中待处理的有几单",
                                  "器械报修.csv 按门店分组，计算维修费用合计、行数、其中处理状态等于待处理的行数"])
def test_a_count_of_part_beside_a_total_of_every_row(ws, text):
    REPAIRS.to_csv(ws.root / "器械报修.csv", index=False)
    f = result_frame(answered(Session(ws), text)).set_index("门店")
    g = REPAIRS.groupby("门店")
    assert f.loc[g.size().index, "维修费用_合计"].tolist() == g["维修费用"].sum().tolist()  # every row, never only the part
    assert f.loc[g.size().index, "行数"].tolist() == g.size().tolist()
    assert f.loc[g.size().index, "待处理_行数"].tolist() == g["处理状态"].apply(lambda x: int((x == "待处理").sum())).tolist()


def test_a_figure_added_after_a_summary_ran_keeps_its_groups(ws):
    REPAIRS.to_csv(ws.root / "器械报修.csv", index=False)
    s = Session(ws)
    answered(s, "器械报修.csv 按门店统计单数")
    tr = s.turn("再把维修费用合计也加进来")
    assert tr.decision.next == "restate_confirm", tr.decision.reply
    f = result_frame(answered(s, "继续")).set_index("门店")
    want = REPAIRS.groupby("门店")["维修费用"].sum()
    assert f.loc[want.index, "维修费用_合计"].tolist() == want.tolist()


def test_the_share_of_a_condition_within_each_group(ws):
    REPAIRS.to_csv(ws.root / "器械报修.csv", index=False)
    tr = answered(Session(ws), "器械报修.csv 处理状态是待处理的占比，按门店分")
    assert tr.decision.request.op("proportion") is not None and tr.decision.request.op("filter") is None
    for store, x in REPAIRS.groupby("门店")["处理状态"]:  # each store's own rows: matched / all of that store's
        assert f"{store} {int((x == '待处理').sum())}/{len(x)}" in tr.run.answer, tr.run.answer


def test_a_chart_of_an_ordered_result_keeps_its_order(en):
    s = Session(en)
    answered(s, "shipments.xlsx Q1 total Freight Charge (USD) per Carrier, biggest first")
    tr = answered(s, "chart that as a bar chart")
    want = QUARTERS["Q1"].groupby("Carrier")["Freight Charge (USD)"].sum().sort_values(ascending=False)
    assert result_frame(tr)["Carrier"].tolist() == want.index.tolist()


@pytest.mark.parametrize("text", ["shipments.xlsx Q1 median Weight (kg) by Carrier and Mode",
                                  "shipments.xlsx Q1 group by Carrier, Mode, compute Weight (kg) median"])
def test_a_statistic_per_two_keys_keeps_both(en, text):
    tr = answered(Session(en), text)
    want = QUARTERS["Q1"].groupby(["Carrier", "Mode"])["Weight (kg)"].median()
    for (c, m), v in want.items():
        assert f"{c}, {m}: median {v:g}" in tr.run.answer, tr.run.answer


@pytest.mark.parametrize("more,sheet", [("what about Q2?", "Q2"), ("now do Q2", "Q2"), ("same thing for Q2", "Q2")])
def test_the_same_request_on_another_sheet(en, more, sheet):
    s = Session(en)
    answered(s, "shipments.xlsx Q1: total Freight Charge (USD) by Carrier")
    tr = s.turn(more)
    assert tr.decision.next == "restate_confirm" and tr.decision.request.sheet == sheet, tr.decision.reply
    assert tr.decision.request.op("group") is not None


def test_a_month_sheet_named_by_the_month_in_full():
    from modes.gate import _sheet_named

    assert _sheet_named("Aug", "what about august?") and _sheet_named("Sep", "same thing for september")
    assert _sheet_named("July", "now do jul") and not _sheet_named("July", "now do june")


def test_the_first_word_of_a_column_name_with_a_hyphen_is_no_missing_file(tmp_path):
    pd.DataFrame({"Engineer": ["A", "B"], "Shift": ["Primary", "Secondary"], "After-hours Hrs": [1.5, 2.0]}).to_csv(tmp_path / "oncall_rota_2024.csv", index=False)
    pd.DataFrame({"Asset": ["x"], "Cost": [1]}).to_csv(tmp_path / "asset_inventory.csv", index=False)
    tr = Session(Workspace.at(tmp_path)).turn("rank engineers by After-hours Hrs")
    assert "After-hours in the workspace" not in tr.decision.reply and tr.decision.request.missing_file_name is None


def test_scores_with_their_unit_and_a_name_holding_figures(tmp_path):
    survey = pd.DataFrame({"授课老师": ["王磊", "王磊", "马超", "马超", "郑芳"], "整体满意度(1-5分)": ["5", "4", "5分", "3", "4"],
                           "推荐意愿(0-10)": [9, 8, 7, 6, 10]})
    survey.to_csv(tmp_path / "家长满意度.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "家长满意度.csv 按授课老师求 整体满意度(1-5分) 的平均")
    assert tr.decision.request.op("filter") is None  # the 5分 inside the column's name is its name
    f = result_frame(tr).set_index("授课老师")
    want = {"王磊": 4.5, "马超": 4.0, "郑芳": 4.0}
    assert {k: float(f.loc[k].iloc[0]) for k in want} == want


@pytest.mark.parametrize("said,op", [("不早于", "ge"), ("不晚于", "le"), ("早于", "lt"), ("晚于", "gt")])
def test_not_earlier_than_is_on_or_after(tmp_path, said, op):
    pd.DataFrame({"报名日期": pd.to_datetime(["2024-10-01", "2024-10-16", "2024-10-20"]), "学费": [1, 2, 3]}).to_csv(tmp_path / "报名.csv", index=False)
    tr = Session(Workspace.at(tmp_path)).turn(f"报名.csv 报名日期{said}2024-10-16的")
    c = tr.decision.request.op("filter").args["conditions"][0]
    assert (c.column, c.op) == ("报名日期", op)


def test_an_order_by_the_summary_says_what_it_orders_by(en):
    tr = Session(en).turn("stack sheets Q1 and Q2 of shipments.xlsx, total Freight Charge (USD) by Carrier, biggest first")
    assert "sort by the summary's figure, descending" in tr.decision.reply or tr.run is not None
    from modes import opspec

    assert opspec.get("sort").phrase({"by": [], "ascending": False}, "zh") == "按汇总的数值降序排序"
