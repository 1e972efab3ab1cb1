"""Found by the round-26 work, each recomputed with pandas: columns of another table brought onto the table in use
(把 B 的 X 加进来 / add X from B / join B), the receiving table first whatever order the files are said in, only the
columns asked for, and a key the other table repeats with the same values matched once."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame

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
    with pd.ExcelWriter(tmp_path / "运单.xlsx") as w:
        for sheet, df in WAYBILLS.items():
            df.to_excel(w, sheet_name=sheet, index=False)
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
    with pd.ExcelWriter(tmp_path / "运单.xlsx") as w:
        WAYBILLS["华南"].to_excel(w, sheet_name="华南", index=False)
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
