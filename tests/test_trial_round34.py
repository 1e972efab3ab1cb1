"""Found by the round-34 work, each recomputed with pandas: a column of names counted (一共多少客户 / how many customers /
number of customers per item / 按商品统计客户数) is its different values, never the table's rows; an orders table holds
one customer on many rows."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame

from engine.session import Session
from tools.workspace import Workspace

ORDERS = pd.DataFrame({"单号": ["D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8"],
                       "顾客": ["老王", "小李", "老王", "阿芳", "小李", "老王", "阿芳", "老王"],
                       "品类": ["水果", "水果", "蔬菜", "水果", "蔬菜", "蔬菜", "蔬菜", "水果"],
                       "金额": [12.0, 30.0, 8.0, 45.0, 5.0, 19.0, 22.0, 3.0]})
ORDERS_EN = ORDERS.rename(columns={"单号": "Ref", "顾客": "Buyer", "品类": "Aisle", "金额": "Spend"}).assign(
    Aisle=ORDERS["品类"].map({"水果": "fruit", "蔬菜": "veg"}))


@pytest.fixture(params=["pandas", "duckdb"])
def orders(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    ORDERS.to_csv(tmp_path / "流水账.csv", index=False)
    ORDERS_EN.to_csv(tmp_path / "ledger.csv", index=False)
    return Workspace.at(tmp_path)


def _figure(tr) -> str:
    return tr.run.answer.replace(",", "")


@pytest.mark.parametrize("said", ["流水账 一共多少顾客", "流水账 有多少顾客", "流水账 多少个顾客", "流水账 一共有几个顾客"])
def test_how_many_of_a_column_of_names_is_its_different_values(orders, said):
    want, rows = ORDERS["顾客"].nunique(), len(ORDERS)
    assert want != rows
    tr = answered(Session(orders), said)
    assert f"{want}" in _figure(tr) and f"{rows}" not in _figure(tr)


@pytest.mark.parametrize("said", ["ledger: how many buyers", "ledger: number of buyers", "ledger: how many buyers do we have"])
def test_how_many_of_a_column_of_names_in_english_is_its_different_values(orders, said):
    want, rows = ORDERS_EN["Buyer"].nunique(), len(ORDERS_EN)
    tr = answered(Session(orders), said)
    assert f"{want}" in _figure(tr) and f"{rows}" not in _figure(tr)


def test_count_the_names_summarises_them_beside_the_rows(orders):
    tr = answered(Session(orders), "ledger: count the buyers")
    assert f"Buyer_distinct {ORDERS_EN['Buyer'].nunique()}" in tr.run.answer and f"rows {len(ORDERS_EN)}" in tr.run.answer


@pytest.mark.parametrize("said", ["流水账 每个品类有多少顾客", "流水账 按品类统计顾客数", "流水账 各品类的顾客人数", "流水账 每个品类有多少个顾客"])
def test_names_counted_per_key_are_the_different_names_of_each(orders, said):
    want = ORDERS.groupby("品类")["顾客"].nunique().to_dict()
    assert want != ORDERS.groupby("品类").size().to_dict()
    f = result_frame(answered(Session(orders), said))
    col = next(c for c in f.columns if c.startswith("顾客"))
    assert f.set_index("品类")[col].to_dict() == want


@pytest.mark.parametrize("said", ["ledger: number of buyers per Aisle", "ledger: the number of buyers for each aisle", "ledger: how many buyers per aisle"])
def test_names_counted_per_key_in_english(orders, said):
    want = ORDERS_EN.groupby("Aisle")["Buyer"].nunique().to_dict()
    f = result_frame(answered(Session(orders), said))
    col = next(c for c in f.columns if c.startswith("Buyer"))
    assert f.set_index("Aisle")[col].to_dict() == want


@pytest.mark.parametrize(("said", "lang"), [("流水账 有几个顾客金额超过10", "zh"), ("ledger: how many buyers have Spend over 10", "en")])
def test_names_counted_among_the_rows_kept(orders, said, lang):
    want = ORDERS.loc[ORDERS["金额"] > 10, "顾客"].nunique()
    rows = int((ORDERS["金额"] > 10).sum())
    assert want != rows
    tr = answered(Session(orders), said)
    assert f"{want}" in _figure(tr) and f"{rows}" not in _figure(tr)


@pytest.mark.parametrize("said", ["流水账 一共多少条记录", "流水账 一共多少行", "ledger: how many rows", "ledger: number of rows"])
def test_rows_asked_stay_the_rows(orders, said):
    tr = answered(Session(orders), said)
    assert f"{len(ORDERS)}" in _figure(tr)


def _groups_kept(tr, key: str) -> dict:
    f = result_frame(tr)
    return f.set_index(key).iloc[:, 0].to_dict()


@pytest.mark.parametrize("then", ["只看超过40的", "超过40的呢", "只要大于40的"])
def test_a_comparison_said_alone_after_a_summary_keeps_its_groups_by_the_figure(orders, then):
    s = Session(orders)
    answered(s, "流水账 每个顾客的金额合计")
    total = ORDERS.groupby("顾客")["金额"].sum()
    want = total[total > 40].to_dict()
    assert 0 < len(want) < len(total) and (ORDERS["金额"] > 40).sum() == 1
    tr = answered(s, then)
    assert _groups_kept(tr, "顾客") == want


@pytest.mark.parametrize("then", ["only the ones over 40", "just those above 40", "only those over 40"])
def test_a_comparison_said_alone_after_a_summary_in_english(orders, then):
    s = Session(orders)
    answered(s, "ledger: total Spend per Buyer")
    total = ORDERS_EN.groupby("Buyer")["Spend"].sum()
    tr = answered(s, then)
    assert _groups_kept(tr, "Buyer") == total[total > 40].to_dict()


def test_a_comparison_said_alone_after_a_count_per_key_keeps_the_groups_by_their_rows(orders):
    s = Session(orders)
    answered(s, "流水账 每个顾客有几笔")
    n = ORDERS.groupby("顾客").size()
    tr = answered(s, "超过2的呢")
    assert _groups_kept(tr, "顾客") == n[n > 2].to_dict()


def test_a_comparison_of_rows_named_after_a_summary_is_no_condition_on_its_figure(orders):
    s = Session(orders)
    answered(s, "ledger: total Spend per Buyer")
    tr = s.turn("only orders over 20")
    assert "Spend_sum > 20" not in (tr.decision.reply or "")


@pytest.mark.parametrize(("said", "lang"), [("流水账 一共多少行", "zh"), ("流水账 金额大于10的有多少条", "zh"), ("ledger: how many rows", "en")])
def test_rows_counted_say_the_rows_that_repeat_another(tmp_path, said, lang):
    doubled = pd.concat([ORDERS, ORDERS.iloc[[1]]], ignore_index=True)
    doubled.to_csv(tmp_path / "流水账.csv", index=False)
    doubled.rename(columns={"单号": "Ref", "顾客": "Buyer", "品类": "Aisle", "金额": "Spend"}).to_csv(tmp_path / "ledger.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), said)
    assert ("重复行" if lang == "zh" else "duplicate rows") in tr.run.answer
    tr = answered(Session(Workspace.at(tmp_path)), "流水账 品类是蔬菜的有多少条")
    assert "重复" not in tr.run.answer  # (the one repeated row is fruit: the rows counted hold no repeat)


@pytest.mark.parametrize("said", ["按品类统计订单数", "每个品类的订单数", "订单.csv 按品类统计订单量"])
def test_the_files_name_said_as_what_is_counted_is_the_count(tmp_path, said):
    ORDERS.to_csv(tmp_path / "订单.csv", index=False)
    f = result_frame(answered(Session(Workspace.at(tmp_path)), said))
    assert f.set_index("品类")["行数"].to_dict() == ORDERS.groupby("品类").size().to_dict()
    assert "金额_合计" not in f.columns


@pytest.mark.parametrize(("first", "then", "key", "figure"), [
    ("流水账 每个顾客的金额合计", "从高到低排一下", "顾客", "金额_合计"),
    ("流水账 每个顾客的金额合计", "按它从高到低排", "顾客", "金额_合计"),
    ("ledger: total Spend per Buyer", "sort it descending", "Buyer", "Spend_sum"),
    ("ledger: total Spend per Buyer", "highest first", "Buyer", "Spend_sum")])
def test_an_order_said_alone_after_a_summary_is_by_its_one_figure(orders, first, then, key, figure):
    s = Session(orders)
    answered(s, first)
    f = result_frame(answered(s, then))
    assert list(f[figure]) == sorted(f[figure], reverse=True)
    frame = ORDERS if figure.startswith("金额") else ORDERS_EN
    total = frame.groupby(key)[frame.columns[3]].sum().sort_values(ascending=False)
    assert list(f[key]) == list(total.index)


WAYBILLS = pd.DataFrame({"运单号": ["W1", "W2", "W3", "W4", "W5", "W6", "W7"], "承运商": ["顺丰", "德邦", "顺丰", "中通", "德邦", "顺丰", "中通"],
                         "运费": [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0], "是否异常": ["否", "是", "否", "否", "是", "否", "是"]})


@pytest.fixture(params=["pandas", "duckdb"])
def waybills(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    from conftest import write_workbook

    write_workbook(tmp_path, "运单.xlsx", {"华东": WAYBILLS, "华南": WAYBILLS.iloc[2:]})
    return Workspace.at(tmp_path)


@pytest.mark.parametrize(("said", "flagged"), [("运单 华东 异常的单子", True), ("运单 华东 有没有异常的单子", True), ("运单 华东 没异常的单子", False),
                                               ("运单 华东 不是异常的有哪些", False), ("运单 华东 异常的不算，都有哪些", False)])
def test_a_word_of_a_yes_no_column_is_that_column_never_outliers(waybills, said, flagged):
    f = result_frame(answered(Session(waybills), said))
    assert sorted(f["运单号"]) == sorted(WAYBILLS.loc[(WAYBILLS["是否异常"] == "是") == flagged, "运单号"])


def test_a_word_of_a_yes_no_column_then_a_summary(waybills):
    f = result_frame(answered(Session(waybills), "运单 华东 异常的不算，按承运商算运费合计"))
    want = WAYBILLS[WAYBILLS["是否异常"] != "是"].groupby("承运商")["运费"].sum().to_dict()
    assert f.set_index("承运商")["运费_合计"].to_dict() == want


def test_outlier_values_asked_beside_a_yes_no_column_of_that_word_are_outliers(waybills):
    tr = Session(waybills).turn("运单 华东 找出运费的异常值")
    assert [o.kind for o in tr.decision.request.ops] == ["outliers"]


@pytest.mark.parametrize("then", ["同样的，换华南那个sheet", "换华南看看", "换华南"])
def test_the_same_request_swapped_to_another_sheet(waybills, then):
    s = Session(waybills)
    answered(s, "运单.xlsx 华东表 按承运商算运费合计")
    f = result_frame(answered(s, then))
    assert f.set_index("承运商")["运费_合计"].to_dict() == WAYBILLS.iloc[2:].groupby("承运商")["运费"].sum().to_dict()


DELIVERIES = pd.DataFrame({"运单号": ["Y1", "Y2", "Y3", "Y4", "Y5"],
                           "发货日期": pd.to_datetime(["2024-03-01", "2024-03-05", "2024-04-02", "2024-04-10", "2024-05-20"]),
                           "签收日期": pd.to_datetime(["2024-03-03", "2024-03-09", "2024-04-03", "2024-04-16", "2024-05-22"]), "运费": [10.0, 20.0, 30.0, 40.0, 50.0]})


@pytest.fixture(params=["pandas", "duckdb"])
def deliveries(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    from conftest import write_workbook

    write_workbook(tmp_path, "运单.xlsx", {"华东": DELIVERIES, "华南": DELIVERIES.iloc[1:]})
    return Workspace.at(tmp_path)


@pytest.mark.parametrize("said", ["运单 华东表加一列签收天数，用签收日期减发货日期", "运单 华东 加一列签收天数，用签收日期减去发货日期"])
def test_a_new_column_said_with_use_a_minus_b_is_that_formula(deliveries, said):
    tr = Session(deliveries).turn(said)
    assert tr.decision.missing == () and tr.decision.request.kinds() == ["add_column"], tr.decision.reply
    f = result_frame(answered(Session(deliveries), said))
    assert list(f["签收天数"]) == [float(d) for d in (DELIVERIES["签收日期"] - DELIVERIES["发货日期"]).dt.days]


def test_a_formula_answering_our_question_about_one_sheet_runs_on_that_sheet_after_sheets_were_stacked(deliveries):
    s = Session(deliveries)
    answered(s, "运单.xlsx 两个表合在一起，按工作表算平均运费")
    s.turn("华东表加一列签收天数")
    f = result_frame(answered(s, "签收天数=签收日期-发货日期"))
    assert len(f) == len(DELIVERIES) and "工作表" not in f.columns


@pytest.mark.parametrize("turns", [["运单.xlsx 华东表发货日期3月到4月的，按月算运费合计"], ["运单.xlsx 华东表发货日期在3月到4月之间，按月算运费合计"],
                                   ["运单.xlsx 华东表3月到4月的，每个月运费合计多少", "发货日期"]])
def test_a_period_of_the_date_column_a_summary_per_month_reads(deliveries, turns):
    s = Session(deliveries)
    for said in turns[:-1]:
        s.turn(said)
    f = result_frame(answered(s, turns[-1]))
    kept = DELIVERIES[DELIVERIES["发货日期"].dt.month.between(3, 4)]
    assert len(kept) < len(DELIVERIES) and float(f.iloc[:, -1].sum()) == kept["运费"].sum() and len(f) == 2


VISITS = pd.DataFrame({"Visit ID": ["V1", "V2", "V3", "V4"], "Visit Date": pd.to_datetime(["2024-03-01", "2024-03-05", "2024-04-02", "2024-04-10"]),
                       "Follow-up Date": pd.to_datetime(["2024-03-28", None, "2024-04-12", "2024-05-01"]), "Fee": [10.0, 20.0, 30.0, 40.0]})


@pytest.mark.parametrize(("said", "scale"), [("visits.xlsx Riverside: add a column Days to Follow-up = Follow-up Date - Visit Date", 1.0),
                                             ("visits.xlsx Riverside: add a column Gap Hours = (Follow-up Date - Visit Date) * 1", 24.0)])
def test_a_formula_over_dates_counts_the_time_between_them(tmp_path, said, scale):
    from conftest import write_workbook

    write_workbook(tmp_path, "visits.xlsx", {"Riverside": VISITS})
    tr = answered(Session(Workspace.at(tmp_path)), said)
    f = result_frame(tr)
    want = (VISITS["Follow-up Date"] - VISITS["Visit Date"]).dt.days * scale
    got = f.iloc[:, -1]
    assert got.isna().tolist() == want.isna().tolist() and got.dropna().tolist() == want.dropna().tolist()
    assert ("days" if scale == 1.0 else "hours") in tr.run.answer


@pytest.mark.parametrize(("first", "then", "key", "figure"), [("total Spend per Buyer", "only the ones over 40", "Buyer", "Spend_sum"),
                                                              ("每个顾客的金额合计", "只看超过40的", "顾客", "金额_合计")])
def test_a_comparison_alone_after_a_summary_of_the_table_in_use_stays_on_that_table(orders, first, then, key, figure):
    s = Session(orders)
    answered(s, "ledger: how many rows" if key == "Buyer" else "流水账 一共多少行")  # the table in use, named once
    answered(s, first)
    f = result_frame(answered(s, then))
    frame, value = (ORDERS_EN, "Spend") if key == "Buyer" else (ORDERS, "金额")
    total = frame.groupby(key)[value].sum()
    col = figure if figure in f.columns else next(c for c in f.columns if c.startswith(figure))  # (金额合计 said: the summary's own name)
    assert f.set_index(key)[col].to_dict() == total[total > 40].to_dict()


def test_a_file_saved_under_a_name_given_after_its_path_gets_that_name(orders):
    s = Session(orders)
    tr = answered(s, "ledger: total Spend per Buyer")
    path = tr.run.files[0]["path"]
    tr = answered(s, f"save {path} as buyer_totals.xlsx")
    assert [f["path"] for f in tr.run.files] == ["outputs/buyer_totals.xlsx"]
    assert pd.read_excel(orders.root / "outputs/buyer_totals.xlsx", engine="openpyxl").set_index("Buyer")["Spend_sum"].to_dict() == ORDERS_EN.groupby("Buyer")["Spend"].sum().to_dict()


@pytest.mark.parametrize(("said", "want"), [
    ("Add a column to the Riverside visits showing the days until the follow-up (Follow-up Date minus Visit Date)",
     lambda d: (d["Follow-up Date"] - d["Visit Date"]).dt.days),
    ("Add a column to the Riverside visits showing the fee doubled (Fee times 2)", lambda d: d["Fee"] * 2)])
def test_a_new_column_said_in_brackets_with_an_operator_word(tmp_path, said, want):
    from conftest import write_workbook

    write_workbook(tmp_path, "visits.xlsx", {"Riverside": VISITS})
    f = result_frame(answered(Session(Workspace.at(tmp_path)), said))
    added = f.iloc[:, -1]
    assert added.name not in ("to", "column") and added.fillna(-1).tolist() == want(VISITS).fillna(-1).astype(float).tolist()


@pytest.mark.parametrize("then", ["把刚才这个导出成excel，我要发给经理", "把刚才这个导出成excel", "把这个导出成excel，发给经理看"])
def test_the_result_just_made_exported_for_someone_is_that_result(tmp_path, then):
    ORDERS.to_csv(tmp_path / "流水账.csv", index=False)
    pd.DataFrame({"顾客": ["老王", "小李"], "客户经理": ["周", "吴"]}).to_csv(tmp_path / "顾客.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "流水账 每个品类的金额合计")
    tr = answered(s, then)
    got = pd.read_excel(tmp_path / tr.run.files[0]["path"], engine="openpyxl")
    assert got.set_index("品类")["金额_合计"].to_dict() == ORDERS.groupby("品类")["金额"].sum().to_dict()


def test_a_relative_period_with_no_row_of_the_data_stops_with_that_reason(deliveries):
    tr = Session(deliveries).turn("运单.xlsx 华南 发货日期是上个月的运费合计")
    assert tr.run is not None and (tr.run.status, tr.run.fallback_reason) == ("insufficient_context", "period_absent")


def test_a_relative_period_said_to_mean_a_month_of_the_data_is_that_month(deliveries):
    s = Session(deliveries)
    s.turn("运单.xlsx 华东 发货日期是上个月的运费合计")
    f = result_frame(answered(s, "不对，我说的上个月是表里最近的那个月，2024年4月"))
    want = DELIVERIES.loc[DELIVERIES["发货日期"].dt.month == 4, "运费"].sum()
    assert float(f.iloc[0, 0]) == want


@pytest.mark.parametrize(("first", "then", "key"), [("流水账 每个顾客有几笔", "只保留那个数大于2的", "顾客"),
                                                    ("流水账 每个顾客有几笔", "只保留大于2的", "顾客"),
                                                    ("ledger: number of rows for each Buyer", "yes but only keep buyers where that is more than 2", "Buyer")])
def test_the_figure_just_made_said_by_a_pronoun_keeps_its_groups(orders, first, then, key):
    s = Session(orders)
    answered(s, first)
    f = result_frame(answered(s, then))
    n = (ORDERS if key == "顾客" else ORDERS_EN).groupby(key).size()
    assert sorted(f[key]) == sorted(n[n > 2].index) and 0 < (n > 2).sum() < len(n)


@pytest.mark.parametrize("then", ["and if we drop the duplicate rows first?", "what if you remove the duplicates first"])
def test_what_if_a_step_first_is_the_request_again_with_that_step_before(tmp_path, then):
    doubled = pd.concat([ORDERS_EN, ORDERS_EN.iloc[[0, 0, 3]]], ignore_index=True)
    doubled.to_csv(tmp_path / "ledger.csv", index=False)
    pd.DataFrame({"Buyer": ["Ann"], "City": ["Leeds"]}).to_csv(tmp_path / "buyers.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "ledger.csv total Spend per Buyer")
    f = result_frame(answered(s, then))
    want = doubled.drop_duplicates().groupby("Buyer")["Spend"].sum()
    assert want.to_dict() != doubled.groupby("Buyer")["Spend"].sum().to_dict()
    assert f.set_index("Buyer")["Spend_sum"].to_dict() == want.to_dict()


@pytest.mark.parametrize(("said", "word"), [("流水账 每个品类有几笔", "重复行"), ("ledger: total Spend per Aisle", "duplicate rows")])
def test_a_summary_over_rows_that_repeat_another_says_so(tmp_path, said, word):
    doubled = pd.concat([ORDERS, ORDERS.iloc[[1]]], ignore_index=True)
    doubled.to_csv(tmp_path / "流水账.csv", index=False)
    doubled.rename(columns={"单号": "Ref", "顾客": "Buyer", "品类": "Aisle", "金额": "Spend"}).to_csv(tmp_path / "ledger.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), said)
    assert any(word in n for n in tr.run.data_notes), tr.run.data_notes
    ORDERS.to_csv(tmp_path / "流水账.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "流水账 每个品类有几笔")
    assert not any("重复" in n for n in tr.run.data_notes)  # (no repeated row: nothing said)


RIVER = pd.DataFrame({"Visit ID": ["V1", "V2", "V3", "V4", "V5"], "Vet": ["Dr. A", "Dr. B", "Dr. A", "Dr. B", "Dr. B"], "Fee": [10.0, 20.0, 30.0, 40.0, 50.0]})
HILL = pd.DataFrame({"Visit ID": ["W1", "W2"], "Vet": ["Dr. A", "Dr. A"], "Fee": [5.0, 6.0]})


@pytest.fixture(params=["pandas", "duckdb"])
def clinics(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    from conftest import write_workbook

    write_workbook(tmp_path, "visits.xlsx", {"Riverside": RIVER, "Hilltop": HILL})
    pd.DataFrame({"Owner": ["x"], "City": ["y"]}).to_csv(tmp_path / "owners.csv", index=False)
    return Workspace.at(tmp_path)


@pytest.mark.parametrize("said", ["visits.xlsx 每个工作表有多少行", "visits.xlsx count of visits per sheet", "visits.xlsx how many visits in each sheet",
                                  "visits.xlsx number of visits per clinic"])
def test_rows_counted_per_sheet_are_each_sheets_rows(clinics, said):
    tr = answered(Session(clinics), said)
    f = result_frame(tr)
    label = "工作表" if "工作表" in said else "sheet"
    counted = next(c for c in f.columns if c != label)
    assert f.set_index(label)[counted].to_dict() == {"Riverside": len(RIVER), "Hilltop": len(HILL)}


@pytest.mark.parametrize("said", ["visits.xlsx total Fee by sheet", "visits.xlsx total Fee by clinic", "visits.xlsx total Fee for each clinic"])
def test_a_figure_by_sheet_or_by_a_noun_no_table_names_is_per_sheet(clinics, said):
    f = result_frame(answered(Session(clinics), said))
    assert f.set_index("sheet")["Fee_sum"].to_dict() == {"Riverside": RIVER["Fee"].sum(), "Hilltop": HILL["Fee"].sum()}


def test_by_a_word_of_another_files_column_is_never_the_sheets(clinics):
    (clinics.root / "subs.csv").write_text("customer,start_date\nA,2024-01-02\nB,2024-03-01\n", encoding="utf-8")
    tr = answered(Session(Workspace.at(clinics.root)), "Sort subs.csv by startdate, newest first")
    assert list(result_frame(tr)["customer"]) == ["B", "A"]


def test_a_chart_of_the_number_of_orders_per_month_counts_the_rows(deliveries):
    s = Session(deliveries)
    tr = s.turn("运单.xlsx 华东每个月的单量画个折线图")
    assert "哪一列的数值" not in tr.decision.reply, tr.decision.reply  # the count is said: only the date column is asked
    tr = answered(s, "发货日期")
    assert tr.run.files and "行数" in tr.run.answer + str(tr.decision.reply)


TICKETS = pd.DataFrame({"Ticket No": ["T1", "T2", "T3", "T4", "T5"], "Route": ["X10", "12", "X10", "X20", "12"], "Fare": [2.5, 3.0, 6.5, 4.0, 5.0],
                        "Refunded (Y/N)": ["N", "Y", "N", "Y", "N"]})


@pytest.fixture(params=["pandas", "duckdb"])
def tickets(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    from conftest import write_workbook

    write_workbook(tmp_path, "tickets.xlsx", {"Northgate": TICKETS, "Airport": TICKETS.iloc[1:]})
    pd.DataFrame({"学号": ["S1", "S2", "S3", "S4", "S5"], "性别": ["男", "女", "男", "女", "男"], "年龄": [20, 30, 44, 50, 61]}).to_csv(tmp_path / "学员.csv", index=False)
    return Workspace.at(tmp_path)


@pytest.mark.parametrize("said", ["export Airport refunded tickets to an Excel file for the weekly report", "tickets.xlsx Airport: export the refunded tickets as csv"])
def test_rows_named_by_a_yes_no_word_before_an_export_are_kept(tickets, said):
    tr = answered(Session(tickets), said)
    got = pd.read_excel(tickets.root / tr.run.files[0]["path"], engine="openpyxl") if tr.run.files[0]["path"].endswith("xlsx") \
        else pd.read_csv(tickets.root / tr.run.files[0]["path"])
    assert sorted(got["Ticket No"]) == sorted(TICKETS.iloc[1:].query("`Refunded (Y/N)` == 'Y'")["Ticket No"])


@pytest.mark.parametrize(("said", "col", "digits", "want"), [
    ("tickets.xlsx Northgate: add a column Fare ex VAT = Fare / 1.2, rounded to 2 dp", "Fare ex VAT", 2, TICKETS["Fare"] / 1.2),
    ("tickets.xlsx Northgate: add a column Net = (Fare - 1) / 1.2, rounded to 1 decimal place", "Net", 1, (TICKETS["Fare"] - 1) / 1.2),
    ("学员.csv 加一列月龄=年龄*12/7，保留两位小数", "月龄", 2, None), ("学员.csv 加一列半龄=年龄/3，保留1位小数", "半龄", 1, None)])
def test_a_new_column_is_rounded_as_said(tickets, said, col, digits, want):
    tr = answered(Session(tickets), said)
    f = result_frame(tr)
    if want is None:
        ages = pd.Series([20, 30, 44, 50, 61], dtype=float)
        want = ages * 12 / 7 if col == "月龄" else ages / 3
    assert f[col].tolist() == pytest.approx(want.round(digits).tolist())
    assert str(digits) in tr.run.answer


@pytest.mark.parametrize("said", ["学员表，男的女的年龄中位数各是多少", "学员.csv 男的和女的年龄中位数分别是多少"])
def test_a_statistic_of_each_value_said_is_one_per_value(tickets, said):
    tr = answered(Session(tickets), said)
    f = result_frame(tr)
    ages = pd.DataFrame({"性别": ["男", "女", "男", "女", "男"], "年龄": [20, 30, 44, 50, 61]})
    want = ages.groupby("性别")["年龄"].median().to_dict()
    assert want["男"] != want["女"]
    assert f.set_index("性别")["中位数"].to_dict() == want


def test_rows_counted_after_a_dedupe_then_a_filter_are_the_filters(orders):
    doubled = pd.concat([ORDERS, ORDERS.iloc[[3]]], ignore_index=True)
    doubled.to_csv(orders.root / "流水账.csv", index=False)
    tr = answered(Session(Workspace.at(orders.root)), "流水账 先去重，再筛选金额大于20的，数一下有几行")
    want = int((doubled.drop_duplicates()["金额"] > 20).sum())
    assert f"共有 {want} 行" in tr.run.answer, tr.run.answer


@pytest.mark.parametrize("said", ["流水账 各顾客金额的中位数，然后筛出大于15的", "流水账 按顾客算金额中位数，只要中位数大于15的顾客",
                                  "ledger: median Spend by Buyer, only those above 15"])
def test_a_comparison_after_a_statistic_per_key_keeps_the_keys_by_it(orders, said):
    f = result_frame(answered(Session(orders), said))
    key, col = ("Buyer", "Spend") if said.startswith("ledger") else ("顾客", "金额")
    med = (ORDERS_EN if key == "Buyer" else ORDERS).groupby(key)[col].median()
    assert 0 < (med > 15).sum() < len(med)
    assert sorted(f[key]) == sorted(med[med > 15].index)
