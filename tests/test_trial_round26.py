"""Found by the round-26 work, each recomputed with pandas: columns of another table brought onto the table in use
(把 B 的 X 加进来 / add X from B / join B), the receiving table first whatever order the files are said in, only the
columns asked for, and a key the other table repeats with the same values matched once."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame, write_workbook

from engine.session import Session
from modes.replies import goal_summary
from tools.workspace import Workspace

WAYBILLS = {
    "华东": pd.DataFrame({"运单号": ["E1", "E2", "E3", "E4", "E5", "E6"], "快递员": ["张三", "李四", "张三", "王五", "赵六", "李四"],
                         "重量": [1.5, 2.0, 3.5, 0.5, 4.0, 2.5], "运费": [12.0, 15.0, 22.0, 8.0, 30.0, 18.0]}),
    "华南": pd.DataFrame({"运单号": ["S1", "S2", "S3"], "快递员": ["王五", "张三", "王五"],
                         "重量": [1.0, 2.0, 3.0], "运费": [10.0, 14.0, 20.0]}),
}
# 张三 twice with the same values (a row entered twice); 周七 has no waybill; 赵六 has no row here
COURIERS = pd.DataFrame({"快递员": ["张三", "李四", "王五", "张三", "周七"], "站点": ["浦东站", "闵行站", "浦东站", "浦东站", "徐汇站"],
                         "工龄": [3, 5, 2, 3, 1], "电话": ["T01", "T02", "T03", "T01", "T05"]})


@pytest.fixture(params=["pandas", "duckdb"])
def ws(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "运单.xlsx", WAYBILLS)
    COURIERS.to_csv(tmp_path / "快递员.csv", index=False)
    return Workspace.at(tmp_path)


def _looked_up(sheet: str, cols: list[str]) -> pd.DataFrame:
    return WAYBILLS[sheet].merge(COURIERS[["快递员", *cols]].drop_duplicates(), on="快递员", how="left")


def _same(f: pd.DataFrame, want: pd.DataFrame) -> None:
    assert list(f.columns) == list(want.columns)
    pd.testing.assert_frame_equal(f.reset_index(drop=True), want.reset_index(drop=True), check_dtype=False)


@pytest.mark.parametrize("said", ["把 快递员.csv 的 站点 和 工龄 加进来", "把快递员.csv里的站点、工龄带过来", "从 快递员.csv 把 站点 和 工龄 匹配过来"])
def test_columns_of_another_table_brought_onto_the_table_in_use(ws, said):
    s = Session(ws)
    answered(s, "运单.xlsx 的 华东 表给我看看")
    tr = answered(s, said)
    _same(result_frame(tr), _looked_up("华东", ["站点", "工龄"]))
    assert "只按一行对上" in tr.run.answer  # 张三's second row, the same in every column brought, matched once


def test_the_receiving_table_comes_first_whatever_order_they_are_said_in(ws):
    tr = answered(Session(ws), "把 快递员.csv 的 站点 加到 运单.xlsx 的 华南 表里")
    _same(result_frame(tr), _looked_up("华南", ["站点"]))


def test_added_from_another_file_in_english(ws):
    tr = answered(Session(ws), "add 站点 and 电话 from 快递员.csv to the 华南 sheet of 运单.xlsx")
    _same(result_frame(tr), _looked_up("华南", ["站点", "电话"]))


def test_a_brought_column_is_a_key_of_what_follows(ws):
    tr = answered(Session(ws), "把 快递员.csv 的 站点 加到 运单.xlsx 的 华东 表里，再按 站点 汇总 运费")
    want = _looked_up("华东", ["站点"]).groupby("站点", dropna=False)["运费"].sum()  # 赵六 has no station: a blank group
    f = result_frame(tr)
    assert sorted(zip(f["站点"].fillna(""), f["运费_合计"], strict=True)) == sorted(zip(want.index.fillna(""), want, strict=True))


def test_a_key_repeated_with_other_values_still_multiplies_and_says_so(tmp_path, monkeypatch):
    write_workbook(tmp_path, "运单.xlsx", {"华南": WAYBILLS["华南"]})
    other = pd.concat([COURIERS, pd.DataFrame({"快递员": ["王五"], "站点": ["闵行站"], "工龄": [2], "电话": ["T09"]})])
    other.to_csv(tmp_path / "快递员.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "运单.xlsx 给我看看")
    tr = answered(s, "把 快递员.csv 的 站点 加进来")
    want = WAYBILLS["华南"].merge(other[["快递员", "站点"]].drop_duplicates(), on="快递员", how="left")
    assert len(result_frame(tr)) == len(want) == 5
    assert "出现了不止一次" in tr.run.answer and "王五" in tr.run.answer


def test_join_one_more_table_onto_the_one_in_use(ws):
    s = Session(ws)
    answered(s, "运单.xlsx 的 华南 表给我看看")
    tr = answered(s, "和 快递员.csv 关联一下")
    assert tr.decision.request.file.endswith("运单.xlsx") and tr.decision.request.sheet == "华南"
    want = WAYBILLS["华南"].merge(COURIERS, on="快递员", how="left")
    assert len(result_frame(tr)) == len(want)


def test_the_sheet_is_said_beside_its_own_file(ws):
    s = Session(ws)
    answered(s, "运单.xlsx 的 华南 表给我看看")
    d = s.turn("把 快递员.csv 的 站点 加进来").decision
    assert "运单.xlsx 的 华南 表 和 快递员.csv" in goal_summary(d.request, "zh")


def test_a_word_of_no_content_names_no_column_in_another_language(tmp_path):
    pd.DataFrame({"Priority": ["High", "Low", "High"], "Resolved On Time": ["Y", "N", "Y"]}).to_csv(tmp_path / "tickets.csv", index=False)
    d = Session(Workspace.at(tmp_path)).turn("tickets.csv 按 Priority 统计一下").decision
    assert d.next == "execute" and "Resolved On Time" not in goal_summary(d.request, "zh")


MEMBERS = pd.DataFrame({
    "Join Date": pd.to_datetime(["2025-01-05", "2025-03-02", "2025-02-11", "2025-01-20", "2025-03-15", "2025-02-01"]),
    "Member ID": ["M1", "M2", "M3", "M4", "M5", "M6"], "Plan": ["Basic", "Premium", "Basic", "Premium", "Basic", "Family"],
    "Sales Rep": ["Cat", "Amy", "Amy", "Cat", "Bob", "Amy"], "Monthly Fee": [30.0, 50.0, 30.0, 50.0, 30.0, 70.0],
    "Cancelled (Y/N)": ["Y", "N", "N", "Y", "Y", "N"],
})


@pytest.fixture(params=["pandas", "duckdb"])
def members(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    MEMBERS.to_csv(tmp_path / "members.csv", index=False)
    return Workspace.at(tmp_path)


@pytest.mark.parametrize("said", ["sort members.csv by Sales Rep, then newest Join Date first",
                                  "sort members.csv by Sales Rep, then by Join Date descending",
                                  "members.csv 先按 Sales Rep 排，再按 Join Date 降序"])
def test_each_sort_key_keeps_its_own_direction(members, said):
    tr = answered(Session(members), said)
    want = MEMBERS.sort_values(["Sales Rep", "Join Date"], ascending=[True, False])
    assert list(result_frame(tr)["Member ID"]) == list(want["Member ID"])


def test_one_direction_said_after_both_keys_is_both_keys(members):
    tr = answered(Session(members), "sort members.csv by Plan and Monthly Fee descending")
    want = MEMBERS.sort_values(["Plan", "Monthly Fee"], ascending=False, kind="stable")
    assert list(result_frame(tr)["Member ID"]) == list(want["Member ID"])


def test_a_column_named_with_a_join_word_is_a_column(members):
    d = Session(members).turn("sort members.csv by Join Date descending").decision
    assert d.next == "execute" and d.request.kinds() == ["sort"]


@pytest.mark.parametrize("said", ["members.csv cancellation rate by Plan", "members.csv cancelled rate per Plan"])
def test_a_rate_said_by_another_form_of_a_yes_no_columns_word(members, said):
    tr = answered(Session(members), said)
    assert tr.decision.request.kinds() == ["proportion"]
    for plan, g in MEMBERS.groupby("Plan"):
        assert f"{plan} {(g['Cancelled (Y/N)'] == 'Y').sum()}/{len(g)}" in tr.run.answer


def test_an_offered_column_typed_back_alone_is_taken(members):
    s = Session(members)
    d = s.turn("members.csv group by Plan and show the share where Cancelled (Y/N) is Y").decision
    d = s.turn("no, I need the percentage of each plan's members who cancelled, not a filter").decision
    # each plan's members who cancelled: the rate of the Y rows within each plan, restated (once asked which column)
    assert d.next == "restate_confirm" and "proportion" in d.reply and "Plan" in d.reply and "Cancelled" in d.reply, d.reply
    s = Session(members)
    d = s.turn("members.csv: sort the rows").decision
    assert d.next == "ask_slots" and "Plan" in d.reply
    d = s.turn("Plan").decision
    assert d.next != "ask_slots" and "could not match" not in d.reply  # taken (what it reads is restated), never asked again


def test_a_column_named_with_a_join_word_after_a_result_starts_a_new_request(members):
    s = Session(members)
    answered(s, "members.csv average Monthly Fee by Plan")
    tr = answered(s, "sort members.csv by Sales Rep, then newest Join Date first")
    assert tr.decision.request.kinds() == ["sort"] and not tr.decision.request.files
    want = MEMBERS.sort_values(["Sales Rep", "Join Date"], ascending=[True, False])
    assert list(result_frame(tr)["Member ID"]) == list(want["Member ID"])


OWNERS = pd.DataFrame({"房号": [f"A{i}" for i in range(8)], "入住年份": [2012, 2015, 2019, 2020, 2021, 2023, 2018, 2024],
                       "是否出租": ["是", "否", "否", "否", "是", "否", "是", "否"]})


@pytest.mark.parametrize("said,want", [
    ("业主信息.csv 入住年份在2020年以前的有多少户", (OWNERS["入住年份"] < 2020).sum()),
    ("业主信息.csv 2020年以前入住的，出租的不算，有多少户", ((OWNERS["入住年份"] < 2020) & (OWNERS["是否出租"] != "是")).sum()),
    ("业主信息.csv 2018年到2021年入住的有多少户", OWNERS["入住年份"].between(2018, 2021).sum()),
])
def test_a_period_over_a_column_of_year_numbers_compares_the_years(tmp_path, said, want):
    OWNERS.to_csv(tmp_path / "业主信息.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    tr = s.turn(said)
    if tr.run is None:
        tr = s.turn("继续")
    assert f"共有 {want} 行" in tr.run.answer


def _fees(folder) -> dict[str, pd.DataFrame]:
    sheets = {
        "一期": pd.DataFrame({"房号": ["A1", "A2", "A1", "A3", "A2", "A1", "A4"], "建筑面积": [90.0, 120.0, 90.0, 60.0, 120.0, 90.0, 150.0],
                            "物业费": [800.0, 1200.0, 800.0, 500.0, 1300.0, 900.0, 700.0], "停车费": [300.0, 0.0, 300.0, 0.0, 450.0, 300.0, 0.0],
                            "收费员": ["甲", "乙", "甲", "丙", "乙", "丙", "丙"], "是否逾期": ["否", "是", "否", "否", "是", "否", "否"]}),
        "二期": pd.DataFrame({"房号": ["B1", "B2", "B1", "B3", "B1"], "建筑面积": [80.0, 100.0, 80.0, 70.0, 80.0],
                            "物业费": [700.0, 1000.0, 700.0, 600.0, 650.0], "停车费": [0.0, 300.0, 0.0, 0.0, 300.0],
                            "收费员": ["甲", "乙", "乙", "甲", "丙"], "是否逾期": ["否", "否", "是", "否", "否"]}),
    }
    write_workbook(folder, "收费台账.xlsx", sheets)
    return sheets


def test_the_first_keys_by_their_total_when_the_number_counts_the_key(tmp_path):
    fees = _fees(tmp_path)
    tr = answered(Session(Workspace.at(tmp_path)), "收费台账.xlsx 一期按房号把物业费加起来，列出最多的前2个房号")
    want = fees["一期"].groupby("房号")["物业费"].sum().sort_values(ascending=False).head(2)
    f = result_frame(tr)
    assert list(f["房号"]) == list(want.index) and len(f) == 2


def test_a_count_of_a_whole_workbook_counts_every_sheet(tmp_path):
    fees = _fees(tmp_path)
    tr = answered(Session(Workspace.at(tmp_path)), "收费台账.xlsx 一共有多少条记录")
    assert str(sum(len(df) for df in fees.values())) in tr.run.answer


def test_an_order_of_a_summary_of_several_figures_asks_which_figure(tmp_path):
    fees = _fees(tmp_path)
    s = Session(Workspace.at(tmp_path))
    d = s.turn("收费台账.xlsx 一期 按收费员分组汇总，从大到小排").decision
    assert d.next == "ask_slots" and "物业费" in d.reply and "收费员" not in d.reply.split("？", 1)[-1]
    s.turn("物业费")
    tr = answered(s, "继续")
    want = fees["一期"].groupby("收费员")["物业费"].sum().sort_values(ascending=False)
    assert list(result_frame(tr)["收费员"]) == list(want.index)


def test_a_request_said_instead_of_an_answer_reads_the_sheet_that_was_asked_about(tmp_path):
    fees = _fees(tmp_path)
    s = Session(Workspace.at(tmp_path))
    answered(s, "收费台账.xlsx 的 一期 表给我看看")
    assert s.turn("二期哪些房号一年里交了3次以上").decision.next == "ask_slots"
    tr = s.turn("按房号分组数一下行数，只留行数大于等于3的房号")
    if tr.run is None:
        tr = s.turn("继续")
    counts = fees["二期"].groupby("房号").size()
    assert list(result_frame(tr)["房号"]) == list(counts[counts >= 3].index)


@pytest.mark.parametrize("said", ["what's the difference between a left join and an inner join?", "左连接和内连接有什么区别？"])
def test_a_question_about_kinds_of_join_is_answered_without_tools(members, said):
    d = Session(members).turn(said).decision
    assert d.gate == "chat" and d.next == "reply"
    assert ("内连接只保留两张表都匹配上的行" if "区别" in said else "an inner join keeps only rows matched on both sides") in d.reply


def test_rows_counted_per_id_group_by_the_id(tmp_path):
    visits = pd.DataFrame({"Visit ID": range(1, 9), "Member ID": ["HB-1", "DT-2", "HB-1", "HB-3", "DT-2", "HB-1", "UP-4", "DT-2"],
                           "Minutes": [30, 45, 20, 60, 30, 25, 40, 35]})
    visits.to_csv(tmp_path / "checkins.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "in checkins.csv, count rows per Member ID, biggest first")
    f = result_frame(tr)
    want = visits.groupby("Member ID").size().sort_values(ascending=False, kind="stable")
    assert set(list(f["Member ID"])[:2]) == set(want.index[:2]) and len(f) == visits["Member ID"].nunique()


def test_the_sheets_listed_as_a_layouts_columns_are_the_sheet_column(tmp_path):
    fees = _fees(tmp_path)
    s = Session(Workspace.at(tmp_path))
    tr = s.turn("两个期合在一起，行是收费员，列是一期、二期，值是物业费合计")
    assert tr.decision.request.op("pivot") is not None and tr.decision.request.op("pivot").args.get("columns") == "工作表"
    tr = tr if tr.run is not None else s.turn("继续")
    f = result_frame(tr).set_index("收费员")
    for sheet, df in fees.items():
        for who, total in df.groupby("收费员")["物业费"].sum().items():
            assert f.loc[who, sheet] == pytest.approx(total)


@pytest.mark.parametrize("first,answer", [("members.csv churn rate by Plan", "the share where Cancelled (Y/N) is Y"),
                                          ("members.csv 各 Plan 的流失率", "Cancelled (Y/N) 是 Y 的占比")])
def test_a_rate_defined_as_a_share_keeps_its_groups(members, first, answer):
    s = Session(members)
    assert s.turn(first).decision.next == "ask_slots"
    d = s.turn(answer).decision
    assert d.request.kinds() == ["proportion"] and d.request.op("proportion").args.get("by") == ["Plan"]
    assert not d.request.unexplained  # the rate is the name of what its definition says
    tr = s.turn("go" if first.startswith("members.csv churn") else "继续")
    for plan, g in MEMBERS.groupby("Plan"):
        assert f"{plan} {(g['Cancelled (Y/N)'] == 'Y').sum()}/{len(g)}" in tr.run.answer


def test_each_said_with_a_space_before_a_latin_column_is_a_key(members):
    tr = answered(Session(members), "members.csv 各 Plan 的 Monthly Fee 合计")
    want = MEMBERS.groupby("Plan")["Monthly Fee"].sum()
    f = result_frame(tr).set_index("Plan")
    assert f.iloc[:, 0].to_dict() == want.to_dict()


def test_two_columns_listed_are_each_totalled_per_month(tmp_path, monkeypatch):
    for engine in ("pandas", "duckdb"):
        monkeypatch.setenv("WENQING_ENGINE", engine)
        rows = pd.DataFrame({"缴费日期": pd.to_datetime(["2025-01-05", "2025-01-20", "2025-02-03", "2025-03-11", "2025-03-28"]),
                             "物业费": [800.0, 950.5, 1200.0, 800.0, 700.0], "停车费": [300.0, 0.0, 450.0, 300.0, 0.0]})
        rows.to_csv(tmp_path / "缴费.csv", index=False)
        tr = answered(Session(Workspace.at(tmp_path)), "缴费.csv 每个月收的物业费和停车费各是多少")
        f = result_frame(tr)
        month = rows["缴费日期"].dt.strftime("%Y-%m")
        for col in ("物业费", "停车费"):
            got = f.set_index(f.columns[0])[f"{col}_合计"].to_dict()
            assert got == rows.groupby(month)[col].sum().to_dict(), (engine, col)


@pytest.mark.parametrize("said", ["哦不对，我说错了，是物业费不是停车费", "不对，是物业费，不是停车费"])
def test_a_correction_putting_one_column_for_another(tmp_path, said):
    fees = _fees(tmp_path)
    s = Session(Workspace.at(tmp_path))
    answered(s, "收费台账.xlsx 一期 每个收费员的停车费合计")
    d = s.turn(said).decision
    g = d.request.op("group")
    assert g is not None and [m["column"] for m in g.args["measures"]] == ["物业费"] and not d.request.op("filter")
    tr = s.turn("继续")
    want = fees["一期"].groupby("收费员")["物业费"].sum()
    assert result_frame(tr).set_index("收费员").iloc[:, 0].to_dict() == want.to_dict()


@pytest.mark.parametrize("said", ["how many rows are in members.csv", "how many records does members.csv have"])
def test_how_many_rows_is_answered_as_the_row_count(members, said):
    tr = answered(Session(members), said)
    assert tr.decision.next == "execute" and f"{len(MEMBERS)} rows" in tr.run.answer
    assert "Member ID:" not in tr.run.answer  # the count, never a row of the table as the answer


@pytest.mark.parametrize("said", ["how many members are on the Basic plan in members.csv", "members.csv 一共有多少个不同的销售"])
def test_a_count_of_things_is_never_read_as_the_row_count(members, said):
    d = Session(members).turn(said).decision
    assert not (d.next == "execute" and d.request.kinds() == ["profile"])  # a condition or a distinct count: never the rows, run


@pytest.mark.parametrize("said", ["show rows of 快递员.csv whose 快递员 does not appear in the 华南 sheet of 运单.xlsx",
                                  "快递员.csv 里哪些 快递员 没有出现在 运单.xlsx 的 华南 表里"])
def test_rows_with_no_match_in_another_table(ws, said):
    s = Session(ws)
    tr = s.turn(said)
    assert "华南" in goal_summary(tr.decision.request, tr.decision.request.lang)  # the second table's sheet is said
    tr = tr if tr.run is not None else s.turn("继续" if "里" in said else "go")
    want = COURIERS[~COURIERS["快递员"].isin(WAYBILLS["华南"]["快递员"])]
    f = result_frame(tr)
    assert list(f["快递员"]) == list(want["快递员"]) and list(f.columns) == list(COURIERS.columns)


def test_the_key_said_with_a_lookup_is_the_joins_key_never_a_grouping(ws):
    tr = answered(Session(ws), "add 站点 from 快递员.csv to the 华东 sheet of 运单.xlsx by 快递员")
    assert tr.decision.request.kinds() == ["join"]
    _same(result_frame(tr), _looked_up("华东", ["站点"]))



def test_each_ones_share_of_a_summarys_figure_after_dropping_a_row(tmp_path):
    fees = _fees(tmp_path)
    s = Session(Workspace.at(tmp_path))
    answered(s, "收费台账.xlsx 一期 每个收费员的物业费合计")
    tr = answered(s, "在这个结果里把收费员是甲的去掉，再算下他们各占总物业费的百分比")
    g = fees["一期"].groupby("收费员")["物业费"].sum()
    g = g[g.index != "甲"]
    for who, pct in (g / g.sum() * 100).round(2).items():
        assert f"{who} {pct:g}%" in tr.run.answer, tr.run.answer  # each one's share of the figure, never a share of rows
