"""Found by the round-36 work, each recomputed with pandas: an exclusion's scope over a list of things left out
(excluding refunds and concessions / 除了异常的和顺丰的), the noun of a yes-no column in the plural (leave out refunds),
the sheets said to be no key (not by depot / 分组里去掉工作表), a statistic swapped on a pivot (make that the median
instead), a statistic swapped while a lookup join or a question waits, and busy said of a key's rows (busiest / 最忙)."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame, write_workbook

from engine.session import Session
from tools.workspace import Workspace

SHEETS = {
    "Northgate": pd.DataFrame({"Ticket No": [f"N{i}" for i in range(10)],
                               "Route": ["X10", "12", "X10", "A1", "12", "X10", "A1", "12", "X10", "A1"],
                               "Ticket Type": ["Single", "Concession", "Return", "Single", "Day Pass", "Concession", "Return", "Single", "Day Pass", "Concession"],
                               "Fare": [2.5, 1.0, 4.0, 2.5, 6.5, 1.0, 4.0, 3.0, 6.5, 1.5],
                               "Payment": ["Cash", "Card", "App", "Card", "Cash", "App", "Card", "Cash", "Card", "App"],
                               "Driver": ["Ann", "Bo", "Ann", "Cy", "Bo", "Ann", "Cy", "Bo", "Ann", "Cy"],
                               "Refunded": ["N", "Y", "N", "N", "Y", "N", "N", "Y", "N", "N"]}),
    "Airport": pd.DataFrame({"Ticket No": [f"A{i}" for i in range(6)],
                             "Route": ["X10", "X20", "X20", "12", "X10", "X20"],
                             "Ticket Type": ["Single", "Return", "Concession", "Single", "Day Pass", "Return"],
                             "Fare": [2.5, 4.0, 1.0, 3.0, 6.5, 4.5],
                             "Payment": ["Card", "Cash", "App", "Card", "Card", "Cash"],
                             "Driver": ["Di", "Di", "Cy", "Di", "Cy", "Di"],
                             "Refunded": ["N", "N", "Y", "N", "N", "Y"]}),
}
DRIVERS = pd.DataFrame({"Driver": ["Ann", "Bo", "Cy", "Di"], "Depot": ["Northgate", "Northgate", "Airport", "Airport"],
                        "Contract": ["Full-time", "Part-time", "Full-time", "Part-time"]})
WAYBILLS = pd.DataFrame({"运单号": [f"Y{i}" for i in range(8)], "承运商": ["顺丰", "德邦", "顺丰", "中通", "德邦", "顺丰", "中通", "德邦"],
                         "运费": [10, 20, 30, 40, 50, 60, 70, 80], "是否异常": ["否", "是", "否", "否", "是", "是", "否", "否"]})
REGIONS = {"华东": WAYBILLS.iloc[:5].reset_index(drop=True), "华南": WAYBILLS.iloc[5:].reset_index(drop=True)}


@pytest.fixture(params=["pandas", "duckdb"])
def depot(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "tickets.xlsx", SHEETS)
    DRIVERS.to_csv(tmp_path / "drivers.csv", index=False)
    WAYBILLS.to_csv(tmp_path / "运单.csv", index=False)
    write_workbook(tmp_path, "分区运单.xlsx", REGIONS)
    return Workspace.at(tmp_path)


def _rows(tr) -> list[str]:
    return sorted(result_frame(tr)["Ticket No"].astype(str))


NG = SHEETS["Northgate"]


@pytest.mark.parametrize(("said", "keep"), [
    ("Northgate tickets excluding refunds", NG["Refunded"] != "Y"),
    ("Northgate tickets, leave out refunds", NG["Refunded"] != "Y"),
    ("Northgate tickets excluding refunds and concessions", (NG["Refunded"] != "Y") & (NG["Ticket Type"] != "Concession")),
    ("Northgate tickets without refunds or concessions", (NG["Refunded"] != "Y") & (NG["Ticket Type"] != "Concession")),
    ("Northgate tickets excluding Cash and Concession", (NG["Payment"] != "Cash") & (NG["Ticket Type"] != "Concession")),
    ("Northgate tickets excluding Cash, and Route X10", (NG["Payment"] != "Cash") & (NG["Route"] == "X10")),
    ("Northgate: tickets other than cash on route X10, not refunded - export to Excel",
     (NG["Payment"] != "Cash") & (NG["Route"] == "X10") & (NG["Refunded"] != "Y")),
])
def test_an_exclusion_covers_each_thing_listed_after_it(depot, said, keep):
    assert _rows(answered(Session(depot), said)) == sorted(NG.loc[keep, "Ticket No"])


@pytest.mark.parametrize("said", ["Northgate: total Fare by Route, refunds only", "Northgate: total Fare by Route, refunded only",
                                  "Northgate: only refunds, total Fare by Route"])
def test_a_flag_said_only_after_the_keys_is_a_condition_never_a_second_key(depot, said):
    f = result_frame(answered(Session(depot), said))
    want = NG[NG["Refunded"] == "Y"].groupby("Route")["Fare"].sum().to_dict()
    assert list(f.columns[:2]) == ["Route", "Fare_sum"] and f.set_index("Route")["Fare_sum"].to_dict() == want


def test_an_exclusion_list_in_chinese(depot):
    f = result_frame(answered(Session(depot), "运单.csv 除了异常的和顺丰的，有哪些"))
    keep = (WAYBILLS["是否异常"] != "是") & (WAYBILLS["承运商"] != "顺丰")
    assert sorted(f["运单号"]) == sorted(WAYBILLS.loc[keep, "运单号"])


def test_a_value_excluded_with_a_closing_word_leaves_the_next_one_kept(depot):
    tr = Session(depot).turn("运单.csv 顺丰以外的和异常的")
    f = tr.decision.request.op("filter")
    assert f is not None
    ops = {(c.column, c.op) for c in f.args["conditions"]}
    assert ("承运商", "ne") in ops and ("是否异常", "eq") in ops


def test_amending_a_restatement_with_a_plural_flag_keeps_the_rest(depot):
    s = Session(depot)
    s.turn("Northgate: tickets paid other than cash on route X10 - export to Excel")
    tr = s.turn("yes but leave out refunds too")
    assert "Refunded ≠ Y" in tr.decision.reply and "Payment ≠ Cash" in tr.decision.reply and "Route = X10" in tr.decision.reply
    tr = s.turn("go")
    keep = (NG["Payment"] != "Cash") & (NG["Route"] == "X10") & (NG["Refunded"] != "Y")
    assert _rows(tr) == sorted(NG.loc[keep, "Ticket No"]) and tr.run.files[0]["path"].endswith(".xlsx")


def _stacked_route_totals() -> dict:
    both = pd.concat(SHEETS.values())
    return both.groupby("Route")["Fare"].sum().nlargest(3).to_dict()


@pytest.mark.parametrize("correction", ["no, group by route only, not by sheet", "drop sheet from the grouping, just Route", "not by sheet"])
def test_the_sheets_said_to_be_no_key_leave_the_grouping(depot, correction):
    s = Session(depot)
    first = answered(s, "tickets.xlsx all sheets: total Fare per sheet and Route, top 3")
    assert list(result_frame(first).columns[:2]) == ["sheet", "Route"]
    tr = s.turn(correction)
    assert tr.run is None and "group by Route," in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("go"))
    assert "sheet" not in f.columns and f.set_index("Route")["Fare_sum"].to_dict() == pytest.approx(_stacked_route_totals())


def test_the_sheets_no_key_in_chinese(depot):
    s = Session(depot)
    answered(s, "分区运单.xlsx 所有工作表，按工作表和承运商汇总运费")
    tr = s.turn("分组里去掉工作表，只按承运商")
    assert tr.run is None and "没用上" not in tr.decision.reply and "按 承运商 分组" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续"))
    assert "工作表" not in f.columns and f.set_index("承运商")["运费_合计"].to_dict() == WAYBILLS.groupby("承运商")["运费"].sum().to_dict()


def test_per_sheet_and_a_column_are_two_keys(depot):
    f = result_frame(answered(Session(depot), "tickets.xlsx all sheets: total Fare per sheet and Route"))
    both = pd.concat([d.assign(sheet=n) for n, d in SHEETS.items()])
    want = both.groupby(["sheet", "Route"])["Fare"].sum()
    assert f.set_index(["sheet", "Route"])["Fare_sum"].to_dict() == pytest.approx(want.to_dict())


@pytest.mark.parametrize("swap", ["make that the median instead", "the pivot cells should be median of Fare, not sum"])
def test_a_statistic_swapped_on_a_pivot_is_its_cells(depot, swap):
    s = Session(depot)
    answered(s, "pivot for Northgate: rows Route, columns Ticket Type, sum of Fare")
    tr = s.turn(swap)
    assert tr.run is None and "Fare (median)" in tr.decision.reply and "not understood" not in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("go")).set_index("Route")
    want = NG.pivot_table(index="Route", columns="Ticket Type", values="Fare", aggfunc="median")
    for r in want.index:
        for c in want.columns:
            if pd.notna(want.loc[r, c]):
                assert f.loc[r, c] == pytest.approx(want.loc[r, c])


def test_a_pivot_statistic_swapped_in_chinese(depot):
    s = Session(depot)
    answered(s, "分区运单.xlsx 华东，透视表，行是承运商，值是运费合计")
    tr = s.turn("改成平均值")
    assert tr.run is None and "运费 的平均" in tr.decision.reply, tr.decision.reply


def test_a_statistic_swapped_keeps_the_lookup_join(depot):
    s = Session(depot)
    first = s.turn("Northgate: average Fare by Contract, not refunded")
    assert "join" in first.decision.reply
    tr = s.turn("median instead")
    assert tr.run is None and "join" in tr.decision.reply and "Fare median" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("go"))
    kept = NG[NG["Refunded"] != "Y"].merge(DRIVERS, on="Driver")
    assert f.set_index("Contract")["Fare_median"].to_dict() == kept.groupby("Contract")["Fare"].median().to_dict()


def test_a_statistic_swapped_while_a_key_is_asked_is_noted_never_a_second_question(depot):
    s = Session(depot)
    first = s.turn("Northgate: average Fare by Zone, not refunded")
    assert first.decision.next == "ask_slots"
    tr = s.turn("median instead")
    assert tr.decision.reply.startswith("(Noted.)") and "Statistics of which column" not in tr.decision.reply, tr.decision.reply
    tr = s.turn("Route")
    assert "Fare median" in tr.decision.reply and "Refunded ≠ Y" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("go"))
    assert f.set_index("Route")["Fare_median"].to_dict() == NG[NG["Refunded"] != "Y"].groupby("Route")["Fare"].median().to_dict()


@pytest.mark.parametrize(("said", "key"), [("which route is busiest in Northgate", "Route"), ("which driver was the busiest in Northgate", "Driver")])
def test_busiest_is_the_key_with_the_most_rows(depot, said, key):
    f = result_frame(answered(Session(depot), said))
    counts = NG.groupby(key).size()
    assert list(f[key]) == [counts.idxmax()] and int(f.iloc[0, 1]) == counts.max()


def test_busiest_in_chinese(depot):
    f = result_frame(answered(Session(depot), "运单.csv 哪个承运商最忙"))
    counts = WAYBILLS.groupby("承运商").size()
    assert counts.max() == 3 and (counts == 3).sum() == 2  # (德邦 and 顺丰 tie: both kept or the tie said)
    assert set(f["承运商"]) <= set(counts[counts == 3].index)


def test_a_list_of_values_keeps_an_item_that_looks_like_a_number(depot):
    tr = Session(depot).turn("Northgate: keep rows where Route in X10, 12, A1")
    assert "Route in X10, 12, A1" in tr.decision.reply, tr.decision.reply
    tr = answered(Session(depot), "Northgate: keep rows where Route in X10, 12, A1")
    assert _rows(tr) == sorted(NG.loc[NG["Route"].isin(["X10", "12", "A1"]), "Ticket No"])


@pytest.mark.parametrize("widen", ["yes but all sheets, not just Northgate", "same for all sheets", "same for all depots"])
def test_a_request_on_one_sheet_widened_to_every_sheet(depot, widen):
    s = Session(depot)
    answered(s, "Northgate: total Fare by Route")
    tr = s.turn(widen)
    assert tr.run is None and "stack the sheets" in tr.decision.reply and "not understood" not in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("go"))
    want = pd.concat(SHEETS.values()).groupby("Route")["Fare"].sum().to_dict()
    assert f.set_index("Route")["Fare_sum"].to_dict() == pytest.approx(want)


def test_every_sheet_said_beside_the_one_in_chinese(depot):
    s = Session(depot)
    answered(s, "分区运单.xlsx 华东 按承运商汇总运费")
    tr = s.turn("所有工作表，不只是华东")
    assert tr.run is None and "上下合并" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续"))
    assert f.set_index("承运商")["运费_合计"].to_dict() == WAYBILLS.groupby("承运商")["运费"].sum().to_dict()


MONTHS = {m: pd.DataFrame({"进厂日期": pd.to_datetime([f"2024-{n:02d}-{d:02d}" for d in days]),
                           "工单号": [f"W{n}{k:02d}" for k in range(len(days))],
                           "车型": models, "维修类型": kinds, "服务顾问": advisers, "结算金额": amounts})
          for m, n, days, models, kinds, advisers, amounts in [
              ("9月", 9, [2, 5, 9, 14, 20, 26], ["凯美瑞", "卡罗拉", "卡罗拉", "汉兰达", "卡罗拉", "凯美瑞"], ["保养", "钣喷", "保修", "保养", "钣喷", "保修"],
               ["陈静", "刘洋", "陈静", None, "王磊", "刘洋"], [1200.0, 3400.0, 0.0, 800.0, 2600.0, 0.0]),
              ("10月", 10, [3, 8, 15, 22, 29], ["汉兰达", "汉兰达", "凯美瑞", "卡罗拉", "汉兰达"], ["钣喷", "保养", "保养", "保修", "钣喷"],
               ["王磊", "陈静", "刘洋", "王磊", None], [4100.0, 900.0, 1500.0, 0.0, 2200.0]),
              ("11月", 11, [1, 1, 7, 12, 18, 25, 30], ["卡罗拉", "卡罗拉", "凯美瑞", "汉兰达", "凯美瑞", "卡罗拉", "汉兰达"],
               ["保养", "保养", "钣喷", "保修", "保养", "钣喷", "保养"], ["陈静", "陈静", "刘洋", "王磊", "陈静", "刘洋", None],
               [700.0, 700.0, 3900.0, 0.0, 1100.0, 2800.0, 650.0])]}
MONTHS["11月"].loc[1, "工单号"] = MONTHS["11月"].loc[0, "工单号"]  # one work order entered twice


@pytest.fixture(params=["pandas", "duckdb"])
def garage(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "维修工单.xlsx", MONTHS)
    return Workspace.at(tmp_path)


def test_a_growth_over_month_sheets_runs_across_the_months(garage):
    f = result_frame(answered(Session(garage), "维修工单三个月每个月的结算金额合计，再算环比"))
    both = pd.concat(MONTHS.values())
    totals = both.groupby(both["进厂日期"].dt.to_period("M"))["结算金额"].sum()
    assert list(f["结算金额_合计"]) == list(totals)
    assert f["环比增长(%)"].iloc[1:].round(2).tolist() == (totals.pct_change().iloc[1:] * 100).round(2).tolist()


def test_a_column_whose_name_holds_a_word_of_computing_is_sorted_never_summarised(garage):
    tr = Session(garage).turn("维修工单.xlsx 11月表按结算金额降序排序")
    assert tr.run is not None and tr.decision.next == "execute", tr.decision.reply
    f = result_frame(tr)
    assert list(f["结算金额"]) == sorted(MONTHS["11月"]["结算金额"], reverse=True) and len(f) == len(MONTHS["11月"])


def test_a_count_word_beside_an_id_column_counts_the_rows(garage):
    f = result_frame(answered(Session(garage), "维修工单.xlsx 9月哪个车型的工单数最多"))
    counts = MONTHS["9月"].groupby("车型").size()
    assert list(f["车型"]) == [counts.idxmax()] and f["行数"].iloc[0] == counts.max()


def test_a_text_column_is_never_summed_for_a_highest(garage):
    tr = Session(garage).turn("维修工单.xlsx 9月哪个车型工单号最高")
    assert tr.run is None and tr.decision.next == "ask_slots" and "结算金额" in tr.decision.reply, tr.decision.reply


def test_a_blank_group_labelled_in_a_written_table_is_blank_when_read_again(tmp_path, monkeypatch):
    for engine in ("pandas", "duckdb"):
        monkeypatch.setenv("WENQING_ENGINE", engine)
        pd.DataFrame({"服务顾问": ["陈静", "（空白）", "刘洋"], "行数": [5, 2, 3]}).to_csv(tmp_path / "图表数据.csv", index=False)
        f = result_frame(answered(Session(Workspace.at(tmp_path)), "图表数据.csv 服务顾问不为空的"))
        assert sorted(f["服务顾问"]) == ["刘洋", "陈静"]


def test_a_new_request_on_another_sheet_is_never_added_to_the_last(garage):
    s = Session(garage)
    answered(s, "维修工单.xlsx 10月除了保修的，按车型算结算金额合计，从高到低排")
    tr = answered(s, "11月工单号重复的只留一条")
    f = result_frame(tr)
    assert len(f) == len(MONTHS["11月"].drop_duplicates()) and "结算金额_合计" not in f.columns


def test_nothing_else_keeps_only_what_the_last_turn_asked(garage):
    s = Session(garage)
    answered(s, "维修工单.xlsx 9月按车型算结算金额合计")
    tr = s.turn("只看保养的")
    assert tr.run is None and "车型" in tr.decision.reply, tr.decision.reply  # (the refinement, read with what it refines)
    tr = s.turn("不对，别的都不要")
    assert tr.run is None and "车型" not in tr.decision.reply and "保养" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续"))
    assert sorted(f["工单号"]) == sorted(MONTHS["9月"].loc[MONTHS["9月"]["维修类型"] == "保养", "工单号"])


@pytest.mark.parametrize("swap", ["算了，换成工单数", "算了，换成计数"])
def test_a_pivot_swapped_to_a_count(garage, swap):
    s = Session(garage)
    answered(s, "维修工单.xlsx 11月的做个透视表，服务顾问一行一个，维修类型当列，看结算金额合计")
    tr = s.turn(swap)
    assert tr.run is None and "值为 行数" in tr.decision.reply, tr.decision.reply  # how many rows in each cell (round 44)
    f = result_frame(s.turn("继续")).set_index("服务顾问")
    want = MONTHS["11月"].pivot_table(index="服务顾问", columns="维修类型", values="结算金额", aggfunc="count")
    for r in want.index:
        for c in want.columns:
            if pd.notna(want.loc[r, c]):
                assert f.loc[r, c] == want.loc[r, c]


def test_a_count_word_of_an_id_column_per_key(garage):
    f = result_frame(answered(Session(garage), "维修工单.xlsx 11月每个顾问的工单数"))
    got = {(None if pd.isna(k) else k): v for k, v in f.set_index("服务顾问")["行数"].to_dict().items()}
    assert got == {(None if pd.isna(k) else k): v for k, v in MONTHS["11月"].groupby("服务顾问", dropna=False).size().to_dict().items()}


YEARS = {y: pd.DataFrame({"Invoice Date": pd.to_datetime([f"{y}-{m:02d}-10" for m in (1, 2, 3, 4, 5, 6, 7, 8)]),
                          "Invoice No": [f"INV-{y}{k}" for k in range(8)],
                          "Customer": ["Red Lion", "Blue Bell", "Red Lion", "Green Man", "Blue Bell", "Red Lion", "Green Man", "Blue Bell"],
                          "Colour": colours, "Net Amount": amounts,
                          "Sales Rep": ["Sarah Kent", "Tom Price", "Sarah Kent", "Emma Lee", "Tom Price", "Emma Lee", "Sarah Kent", "Tom Price"],
                          "Paid": ["Yes", "No", "Yes", "No", "Yes", "No", "No", "Yes"]})
         for y, colours, amounts in [
             ("2023", ["Red", "White", "Rosé", "Red", "White", "Sparkling", "Rosé", "Red"], [100.0, 200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0]),
             ("2024", ["White", "Red", "Red", "Rosé", "Sparkling", "White", "Red", "Rosé"], [150.0, 250.0, 350.0, 450.0, 550.0, 650.0, 750.0, 850.0]),
             ("2025", ["Rosé", "Rosé", "White", "Red", "Red", "Sparkling", "White", "Red"], [120.0, 220.0, 320.0, 420.0, 520.0, 620.0, 720.0, 820.0])]}


@pytest.fixture(params=["pandas", "duckdb"])
def wines(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "invoices.xlsx", YEARS)
    pd.DataFrame({"Customer": ["Red Lion", "Blue Bell", "Green Man"], "Net Amount_sum": [900.0, 700.0, 650.0],
                  "Credit Limit": [500.0, 800.0, 300.0]}).to_csv(tmp_path / "limits.csv", index=False)
    return Workspace.at(tmp_path)


def test_two_year_sheets_compared_by_a_key_are_each_ones_totals(wines):
    f = result_frame(answered(Session(wines), "compare 2025 vs 2024 net amount by colour"))
    got = f.set_index(["sheet", "Colour"])["Net Amount_sum"].to_dict()
    want = {(y, c): v for y in ("2024", "2025") for c, v in YEARS[y].groupby("Colour")["Net Amount"].sum().items()}
    assert got == want


def test_her_total_is_of_the_rows_just_kept(wines):
    s = Session(wines)
    answered(s, "2024 invoices where Sales Rep is Sarah Kent")
    f = result_frame(answered(s, "split her total by colour"))
    y = YEARS["2024"]
    assert f.set_index("Colour")["Net Amount_sum"].to_dict() == y[y["Sales Rep"] == "Sarah Kent"].groupby("Colour")["Net Amount"].sum().to_dict()


@pytest.mark.parametrize("swap", [["max instead"], ["no, the maximum, not the median"], ["go", "max instead"]])
def test_the_maximum_said_after_a_median_replaces_it(wines, swap):
    s = Session(wines)
    answered(s, "2025 sheet: average Net Amount per Sales Rep, Paid is No")
    s.turn("median instead")
    for said in swap:
        tr = s.turn(said)
    assert tr.run is None and "Net Amount max" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("go"))
    y = YEARS["2025"]
    assert f.set_index("Sales Rep")["Net Amount_max"].to_dict() == y[y["Paid"] == "No"].groupby("Sales Rep")["Net Amount"].max().to_dict()


def test_a_value_typed_without_its_accent(wines):
    f = result_frame(answered(Session(wines), "2025 invoices, Colour rose"))
    assert sorted(f["Invoice No"]) == sorted(YEARS["2025"].loc[YEARS["2025"]["Colour"] == "Rosé", "Invoice No"])


def test_a_new_column_then_the_top_rows_by_it(wines):
    f = result_frame(answered(Session(wines), "limits.csv add a column Over = Net Amount_sum - Credit Limit and show the top 2 by Over"))
    assert list(f["Customer"]) == ["Red Lion", "Green Man"] and list(f["Over"]) == [400.0, 350.0]


@pytest.mark.parametrize("said", ["2025 sheet: net amount paid vs not paid", "paid vs not paid share of net amount in 2025 sheet"])
def test_a_flag_against_its_negation_is_that_column_as_a_key(wines, said):
    tr = answered(Session(wines), said)
    f = result_frame(tr)
    y = YEARS["2025"]
    assert "Compare or join" not in (tr.decision.reply or "")
    assert f.set_index("Paid")["Net Amount_sum"].to_dict() == y.groupby("Paid")["Net Amount"].sum().to_dict()


def test_a_flag_against_its_negation_in_chinese(depot):
    f = result_frame(answered(Session(depot), "运单.csv 异常的和没异常的比一下运费"))
    col = next(c for c in f.columns if c.startswith("运费"))
    assert set(f["是否异常"]) == {"是", "否"} and f.set_index("是否异常")[col].to_dict() == WAYBILLS.groupby("是否异常")["运费"].mean().to_dict()


@pytest.mark.parametrize("said", ["维修工单.xlsx 9月15号以后的钣喷单，结算金额一共多少", "维修工单.xlsx 9月表 进厂日期在9月15号以后的钣喷单，结算金额一共多少"])
def test_a_date_whose_month_names_a_sheet_is_still_a_date(garage, said):
    tr = answered(Session(garage), said)
    m = MONTHS["9月"]
    want = m[(m["进厂日期"] >= "2024-09-15") & (m["维修类型"] == "钣喷")]["结算金额"].sum()
    assert result_frame(tr)["结算金额_合计"].iloc[0] == want and "没用上" not in (tr.decision.reply or "")


@pytest.mark.parametrize("said", ["用合并那张表，按服务顾问数下工单数", "在合并的表里按服务顾问数一下工单数"])
def test_the_merged_table_named_is_the_result_just_made(garage, said):
    s = Session(garage)
    answered(s, "合并维修工单的9月、10月、11月三个sheet")
    tr = answered(s, said)
    both = pd.concat(MONTHS.values())
    got = {(None if pd.isna(k) else k): v for k, v in result_frame(tr).set_index("服务顾问")["行数"].to_dict().items()}
    assert got == {(None if pd.isna(k) else k): v for k, v in both.groupby("服务顾问", dropna=False).size().to_dict().items()}


@pytest.mark.parametrize("said", ["他们里面谁最多", "刚那个结果里结算金额合计最多的那个"])
def test_who_is_highest_among_the_groups_just_made(garage, said):
    s = Session(garage)
    answered(s, "维修工单.xlsx 9月按服务顾问算下结算金额合计，不算保修的")
    f = result_frame(answered(s, said))
    m = MONTHS["9月"]
    totals = m[m["维修类型"] != "保修"].groupby("服务顾问")["结算金额"].sum()
    assert list(f["服务顾问"]) == [totals.idxmax()] and f["结算金额_合计"].iloc[0] == totals.max()


@pytest.fixture(params=["pandas", "duckdb"])
def garage_customers(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    sheets = {k: v.assign(车牌号=[f"浙A{i % 4:03d}" for i in range(len(v))]) for k, v in MONTHS.items()}
    write_workbook(tmp_path, "维修工单.xlsx", sheets)
    pd.DataFrame({"车牌号": [f"浙A{i:03d}" for i in range(6)], "会员等级": ["普通", "银卡", "金卡", "普通", "银卡", "金卡"]}).to_csv(tmp_path / "客户.csv", index=False)
    return Workspace.at(tmp_path)


def test_the_result_just_made_joined_by_its_own_words_keeps_its_rows(garage_customers):
    s = Session(garage_customers)
    answered(s, "维修工单.xlsx 11月结算金额最高的前3单")
    f = result_frame(answered(s, "把刚那个结果跟客户.csv按车牌号对一下，带出会员等级"))
    assert len(f) == 3 and "会员等级" in f.columns and sorted(f["结算金额"]) == sorted(MONTHS["11月"]["结算金额"].nlargest(3))


def test_a_column_of_another_table_looked_up_for_the_result(garage_customers):
    s = Session(garage_customers)
    answered(s, "维修工单.xlsx 11月结算金额最高的前3单")
    tr = s.turn("在这个结果里按会员等级算平均结算金额")
    assert tr.run is None and "客户.csv" in tr.decision.reply and "车牌号" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续"))
    top = MONTHS["11月"].assign(车牌号=[f"浙A{i % 4:03d}" for i in range(len(MONTHS["11月"]))]).nlargest(3, "结算金额")
    grades = pd.DataFrame({"车牌号": [f"浙A{i:03d}" for i in range(6)], "会员等级": ["普通", "银卡", "金卡", "普通", "银卡", "金卡"]})
    want = top.merge(grades, on="车牌号", how="left").groupby("会员等级")["结算金额"].mean().to_dict()
    assert f.set_index("会员等级")["结算金额_平均"].to_dict() == want


def test_a_run_that_stops_part_way_shows_its_table_in_the_session_language(tmp_path):
    from engine.audit import Audit
    from engine.executor import execute
    from engine.plan import Plan, Step
    from modes.decision import Decision, Request

    write_workbook(tmp_path, "invoices.xlsx", YEARS)
    steps = [("profile_dataset", {"path": "invoices.xlsx", "sheet": "2024"}),
             ("group_summarize", {"keys": ["Colour"], "measures": [{"column": "Net Amount", "agg": "sum"}]}),
             ("sort_rows", {"by": ["No Such Column"]})]
    plan = Plan("transform", "test", "soft", "test", [Step(i + 1, t, t, "done", a) for i, (t, a) in enumerate(steps)], "goal")
    d = Decision("act", "execute", "transform", "soft", 0.9, Request(intent="work", file="invoices.xlsx", lang="en"), "", "t", "t", "t", lang="en")
    audit = Audit.in_memory()
    audit.start_run("t1", 1, "x", {}, 0)
    r = execute(plan, d, Workspace.at(tmp_path), audit, "t1")
    assert r.status != "answered" and list(result_frame(type("T", (), {"run": r})())) == ["Colour", "Net Amount_sum", "rows"]


def test_a_correction_that_says_a_whole_analysis_replaces_the_reading(wines):
    s = Session(wines)
    s.turn("which wine grew the most in net amount, 2025 vs 2024")
    tr = s.turn("no, year over year growth of net amount for each Colour, sheets 2024 and 2025")
    assert tr.run is None and "year-over-year growth of Net Amount" in tr.decision.reply and "compare" not in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("go"))
    both = pd.concat([YEARS["2024"], YEARS["2025"]])
    totals = both.groupby(["Colour", both["Invoice Date"].dt.year])["Net Amount"].sum()
    red = totals.loc["Red"]
    assert f[(f["Colour"] == "Red")]["yoy_change(%)"].dropna().round(2).tolist() == [round((red[2025] / red[2024] - 1) * 100, 2)]


def test_last_quarter_outside_the_data_stops_never_totals_every_row(garage):
    tr = Session(garage).turn("维修工单.xlsx 上个季度保养的结算金额一共多少")
    assert tr.run is not None and (tr.run.status, tr.run.fallback_reason) == ("insufficient_context", "period_absent"), tr.run.answer


def test_last_quarter_is_the_quarter_before_todays(tmp_path, monkeypatch):
    from datetime import date

    monkeypatch.setenv("WENQING_ENGINE", "pandas")
    today = date.today()
    first = date(today.year, (today.month - 1) // 3 * 3 + 1, 1)
    last_q = date(first.year - (first.month == 1), (first.month - 4) % 12 + 1, 15)
    days = pd.to_datetime([last_q, first, date(last_q.year - 1, last_q.month, 15)])
    pd.DataFrame({"下单日期": days, "金额": [10.0, 20.0, 40.0]}).to_csv(tmp_path / "订单.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "订单.csv 上个季度的金额一共多少")
    assert result_frame(tr)["金额_合计"].iloc[0] == 10.0
