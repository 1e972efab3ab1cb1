"""Found by the round-20 work, each recomputed with pandas: an export said with a lead word or a particle right after a
result exports that result; a day with no year joined to its "and after" word; the rows a table holds, counted per key."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame

from engine.session import Session
from tools.workspace import Workspace

SHOP = pd.DataFrame({
    "下单日期": pd.to_datetime(["2025-10-01", "2025-10-15", "2025-10-16", "2025-10-20", "2025-10-31", "2025-10-05"]),
    "门店": ["东店", "西店", "东店", "西店", "东店", "西店"],
    "金额": [10.0, 20.0, 30.0, 40.0, 50.0, 60.0],
})
CASES = pd.DataFrame({
    "Opened": pd.to_datetime(["2025-03-01", "2025-03-04", "2025-03-05", "2025-04-02", "2025-05-12", "2025-06-30"]),
    "Team": ["Red", "Blue", "Red", "Blue", "Red", "Red"],
    "Status": ["Closed", "Open", "Closed", "Closed", "Open", "Closed"],
    "Cost": [100.0, 200.0, 300.0, 400.0, 500.0, 600.0],
})


@pytest.fixture(params=["pandas", "duckdb"])
def ws(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    SHOP.to_excel(tmp_path / "流水.xlsx", index=False)
    CASES.to_csv(tmp_path / "tickets.csv", index=False)
    return Workspace.at(tmp_path)


def _two_sheets(tmp_path, split: int) -> dict[str, pd.DataFrame]:
    """流水.xlsx with SHOP's first rows in 9-10月 and the rest in 11-12月."""
    books = {"9-10月": SHOP.iloc[:split], "11-12月": SHOP.iloc[split:]}
    with pd.ExcelWriter(tmp_path / "流水.xlsx") as w:
        for name, df in books.items():
            df.to_excel(w, sheet_name=name, index=False)
    return books


@pytest.mark.parametrize("said", ["那导出成excel吧", "存成xlsx", "保存一下", "好的，下载一下", "ok, save it as xlsx please"])
def test_an_export_right_after_a_result_exports_that_result(ws, said):
    s = Session(ws)
    answered(s, "流水.xlsx 按门店汇总金额")
    tr = answered(s, said)
    assert tr.decision.request.file.startswith("outputs/")  # the summary just shown, never the whole source
    f = result_frame(tr).set_index("门店")
    want = SHOP.groupby("门店")["金额"].sum()
    assert f.loc[want.index].iloc[:, 0].tolist() == pytest.approx(want.tolist())
    assert any(x["path"].endswith(".xlsx") for x in tr.run.files)


@pytest.mark.parametrize("said,keep", [
    ("10月16号及以后的金额合计", SHOP["下单日期"] >= "2025-10-16"),
    ("10月16日当天及以后的金额合计", SHOP["下单日期"] >= "2025-10-16"),
    ("10月16以后的金额合计", SHOP["下单日期"] >= "2025-10-16"),
    ("10月16号之前的金额合计", SHOP["下单日期"] < "2025-10-16"),
])
def test_a_day_without_a_year_in_the_year_the_data_holds(ws, said, keep):
    tr = answered(Session(ws), "流水.xlsx " + said)
    assert result_frame(tr).iloc[0, 0] == pytest.approx(SHOP[keep]["金额"].sum())


@pytest.mark.parametrize("said,keep", [
    ("total Cost since March 5", CASES["Opened"] >= "2025-03-05"),
    ("total Cost after March 4", CASES["Opened"] > "2025-03-04"),
    ("total Cost before 12th of May", CASES["Opened"] < "2025-05-12"),
    ("total Cost on or before May 12", CASES["Opened"] <= "2025-05-12"),
])
def test_an_english_day_without_a_year(ws, said, keep):
    tr = answered(Session(ws), "tickets.csv " + said)
    assert result_frame(tr).iloc[0, 0] == pytest.approx(CASES[keep]["Cost"].sum())


@pytest.mark.parametrize("said", ["tickets.csv total Cost from March 5 to April 2", "tickets.csv total Cost between Mar 5 and Apr 2nd"])
def test_a_day_range_keeps_both_ends(ws, said):
    tr = answered(Session(ws), said)
    keep = (CASES["Opened"] >= "2025-03-05") & (CASES["Opened"] <= "2025-04-02")
    assert result_frame(tr).iloc[0, 0] == pytest.approx(CASES[keep]["Cost"].sum())


@pytest.mark.parametrize("said", ["流水.xlsx 10月15号到10月20号的金额合计", "流水.xlsx 10月15日至20日的金额合计"])
def test_a_chinese_day_range_keeps_both_ends(ws, said):
    tr = answered(Session(ws), said)
    keep = (SHOP["下单日期"] >= "2025-10-15") & (SHOP["下单日期"] <= "2025-10-20")
    assert result_frame(tr).iloc[0, 0] == pytest.approx(SHOP[keep]["金额"].sum())


@pytest.mark.parametrize("said,keys,rows", [
    ("closed tickets by team", ["Team"], CASES["Status"] == "Closed"),
    ("open tickets by team and status", ["Team", "Status"], CASES["Status"] == "Open"),
])
def test_the_rows_of_a_table_counted_per_key(ws, said, keys, rows):
    tr = answered(Session(ws), "tickets.csv " + said)
    f = result_frame(tr)
    want = CASES[rows].groupby(keys).size()
    got = f.set_index(keys).iloc[:, 0]
    assert got.loc[want.index].tolist() == want.tolist()


STAFF = pd.DataFrame({"门店": ["东店"] * 5 + ["西店"] * 5, "销售员": ["甲", "乙", "丙", "丁", "甲", "戊", "己", "庚", "戊", "辛"],
                      "金额": [10.0, 50.0, 30.0, 5.0, 45.0, 8.0, 70.0, 20.0, 15.0, 1.0]})


@pytest.mark.parametrize("said,agg", [("金额合计最高的3个销售员", "sum"), ("总金额最高的3个销售员", "sum"), ("平均金额最高的3个销售员", "mean")])
def test_the_statistic_of_a_ranking_ranks_the_key(tmp_path, said, agg):
    STAFF.to_csv(tmp_path / "业绩.csv", index=False)
    f = result_frame(answered(Session(Workspace.at(tmp_path)), "业绩.csv " + said))
    want = STAFF.groupby("销售员")["金额"].agg(agg).nlargest(3)
    assert f["销售员"].tolist() == want.index.tolist()
    assert f.iloc[:, 1].tolist() == pytest.approx(want.tolist())


@pytest.mark.parametrize("said", ["每个门店金额合计最高的2个销售员", "每个门店总金额最高的2个销售员"])
def test_the_statistic_of_a_ranking_within_each_group(tmp_path, said):
    STAFF.to_csv(tmp_path / "业绩.csv", index=False)
    f = result_frame(answered(Session(Workspace.at(tmp_path)), "业绩.csv " + said))
    totals = STAFF.groupby(["门店", "销售员"])["金额"].sum().reset_index()
    want = totals.sort_values("金额", ascending=False).groupby("门店").head(2)
    assert sorted(zip(f["门店"], f["销售员"], strict=True)) == sorted(zip(want["门店"], want["销售员"], strict=True))


def test_the_first_n_of_the_order_said_after_a_summary(tmp_path):
    STAFF.to_csv(tmp_path / "业绩.csv", index=False)
    f = result_frame(answered(Session(Workspace.at(tmp_path)), "业绩.csv 按销售员算金额合计和单数，按单数从多到少，取前2个"))
    want = STAFF.groupby("销售员")["金额"].agg(["sum", "size"]).sort_values("size", ascending=False, kind="stable")
    assert set(f["销售员"]) <= set(want[want["size"] >= want["size"].iloc[1]].index)  # the two with the most rows
    assert sorted(f.iloc[:, -1].tolist()) == sorted(want["size"].head(2).tolist())


@pytest.mark.parametrize("said,n", [("哪个销售员的单最多？给我前3名", 3), ("哪个销售员金额最高，列出前2个", 2)])
def test_a_which_question_then_the_first_n(tmp_path, said, n):
    STAFF.to_csv(tmp_path / "业绩.csv", index=False)
    f = result_frame(answered(Session(Workspace.at(tmp_path)), "业绩.csv " + said))
    assert len(f) == n
    fig = STAFF.groupby("销售员")["金额"].sum() if "金额" in said else STAFF.groupby("销售员").size()
    got = f["金额_合计"] if "金额" in said else f.iloc[:, -1]
    assert sorted(got.tolist()) == pytest.approx(sorted(fig.nlargest(n).tolist()))


@pytest.mark.parametrize("more", ["他们各自的金额合计也给我加上", "他们的金额合计也加上", "金额总额也加上"])
def test_a_figure_of_theirs_joins_the_summary(tmp_path, more):
    STAFF.to_csv(tmp_path / "业绩.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "业绩.csv 每个门店多少单")
    f = result_frame(answered(s, more)).set_index("门店")
    want = STAFF.groupby("门店")["金额"].agg(["sum", "size"])
    assert f.loc[want.index, "金额_合计"].tolist() == pytest.approx(want["sum"].tolist())
    assert f.loc[want.index, "行数"].tolist() == want["size"].tolist()


MONTHS = {m: pd.DataFrame({"Branch": ["North", "South", "North", "East"], "Units": [1, 2, 3, 4],
                           "Revenue": [100.0 * (i + 1), 50.0, 30.0, 20.0]}) for i, m in enumerate(["Jan", "Feb", "Mar"])}


@pytest.fixture
def en(tmp_path) -> Workspace:
    with pd.ExcelWriter(tmp_path / "sales.xlsx") as w:
        for name, df in MONTHS.items():
            df.to_excel(w, sheet_name=name, index=False)
    return Workspace.at(tmp_path)


@pytest.mark.parametrize("ok", ["continue", "carry on", "looks good"])
def test_continue_confirms_a_restatement(en, ok):
    s = Session(en)
    answered(s, "sales.xlsx Jan: total Revenue by Branch")
    assert s.turn("same for Feb").decision.next == "restate_confirm"
    tr = s.turn(ok)
    assert tr.run is not None and tr.run.status == "answered"


@pytest.mark.parametrize("more", ["same for Feb", "now Feb", "the same analysis for Feb"])
def test_the_same_request_on_another_month_sheet(en, more):
    s = Session(en)
    answered(s, "sales.xlsx Jan: total Revenue by Branch")
    f = result_frame(answered(s, more)).set_index("Branch")
    want = MONTHS["Feb"].groupby("Branch")["Revenue"].sum()
    assert f.loc[want.index].iloc[:, 0].tolist() == pytest.approx(want.tolist())


@pytest.mark.parametrize("more", ["11-12月也这样算一下", "换成11-12月", "11-12月也一样"])
def test_the_same_request_on_another_sheet_said_in_chinese(tmp_path, more):
    books = _two_sheets(tmp_path, 3)
    s = Session(Workspace.at(tmp_path))
    answered(s, "流水.xlsx 9-10月 按门店汇总金额")
    f = result_frame(answered(s, more)).set_index("门店")
    want = books["11-12月"].groupby("门店")["金额"].sum()
    assert f.loc[want.index].iloc[:, 0].tolist() == pytest.approx(want.tolist())


def test_a_sentence_full_stop_is_no_part_of_a_value(en):
    f = result_frame(answered(Session(en), "sales.xlsx Jan: Branch not North. Total Revenue per Branch."))
    assert sorted(f["Branch"]) == ["East", "South"]


def test_a_name_before_an_equals_sign_is_a_new_column_never_a_file(en):
    s = Session(en)
    s.turn("sales.xlsx Jan: Net Rev = Revenue * (1 - Units/100)")
    tr = s.turn("no: sheet Feb. Net_Rev = Revenue * (1 - Units/100)")
    assert "file" not in tr.decision.missing and tr.decision.request.file == "sales.xlsx"
    tr = answered(s, "go") if tr.run is None else tr
    f = result_frame(tr)
    want = MONTHS["Feb"]["Revenue"] * (1 - MONTHS["Feb"]["Units"] / 100)
    assert f["Net_Rev"].tolist() == pytest.approx(want.tolist())


@pytest.mark.parametrize("said,name", [
    ("sales.xlsx Feb: new column Net Rev = Revenue * (1 - Units/100), then total Net Rev by Branch", "Net Rev"),
    ("sales.xlsx Feb: Net Rev = Revenue * (1 - Units/100), then total Net Rev by Branch", "Net Rev"),
])
def test_a_formula_column_of_several_words_then_a_summary_of_it(en, said, name):
    f = result_frame(answered(Session(en), said)).set_index("Branch")
    d = MONTHS["Feb"].assign(n=MONTHS["Feb"]["Revenue"] * (1 - MONTHS["Feb"]["Units"] / 100))
    want = d.groupby("Branch")["n"].sum()
    assert f.loc[want.index].iloc[:, 0].tolist() == pytest.approx(want.tolist())


def test_a_chinese_formula_column_then_a_summary_of_it(tmp_path):
    SHOP.assign(数量=[1, 2, 3, 4, 5, 6]).to_csv(tmp_path / "流水.csv", index=False)
    f = result_frame(answered(Session(Workspace.at(tmp_path)), "流水.csv 新增一列净额=金额*(1-数量/100)，再按门店汇总净额")).set_index("门店")
    d = SHOP.assign(数量=[1, 2, 3, 4, 5, 6])
    want = (d["金额"] * (1 - d["数量"] / 100)).groupby(d["门店"]).sum()
    assert f.loc[want.index].iloc[:, 0].tolist() == pytest.approx(want.tolist())


@pytest.mark.parametrize("said,first,second", [
    ("业绩.csv 按门店算平均金额，以及每个销售员的单数", "门店", "每个销售员的单数"),
    ("业绩.csv 每个门店的金额合计，以及金额最高的3个销售员", "门店", "金额最高的3个销售员"),
])
def test_two_summaries_over_different_keys_are_never_one(tmp_path, said, first, second):
    STAFF.to_csv(tmp_path / "业绩.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    tr = s.turn(said)
    assert tr.run is None and tr.decision.next == "restate_confirm"
    assert second in tr.decision.reply  # the second is named, to be asked next
    g = tr.decision.request.op("group")
    assert g.args["keys"] == [first]
    f = result_frame(answered(s, "继续")).set_index(first)
    agg = "mean" if "平均" in said else "sum"
    want = STAFF.groupby(first)["金额"].agg(agg)
    assert f.loc[want.index].iloc[:, 0].tolist() == pytest.approx(want.tolist())


def test_an_english_pair_of_summaries(en):
    tr = Session(en).turn("sales.xlsx Jan: average Revenue by Branch, and count of rows per Units")
    assert tr.run is None and tr.decision.request.op("group").args["keys"] == ["Branch"]
    assert "count of rows per Units" in tr.decision.reply


def test_a_compared_column_chooses_rows_and_is_no_statistic(tmp_path):
    d = STAFF.assign(数量=[1, 6, 7, 2, 9, 5, 8, 3, 6, 1])
    d.to_csv(tmp_path / "业绩.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "业绩.csv 西店以外、数量5以上的，按销售员算金额的中位数")
    st = tr.decision.request.op("stats")
    assert st.args["columns"] == ["金额"]
    rows = d[(d["门店"] != "西店") & (d["数量"] >= 5)]
    want = rows.groupby("销售员")["金额"].median()
    for k, v in want.items():
        assert f"{k}：中位数 {v:g}" in tr.run.answer


def test_a_column_named_with_by_is_no_key(tmp_path):
    d = pd.DataFrame({"Paid By": ["Card", None, "Cash", None, "Card"], "Discount": [0, 10, 0, 10, 5], "Fee": [1.0, 2.0, 3.0, 4.0, 5.0]})
    d.to_csv(tmp_path / "pay.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "pay.csv total Fee by Discount")
    f = result_frame(answered(s, "pay.csv rows where Paid By is empty"))
    assert len(f) == 2 and f["Fee"].tolist() == [2.0, 4.0]


@pytest.mark.parametrize("more", ["11-12月也照这样做一个", "11-12月也这么算"])
def test_a_pivot_asked_again_on_another_sheet(tmp_path, more):
    books = {"9-10月": SHOP.iloc[:3], "11-12月": SHOP.iloc[3:]}
    with pd.ExcelWriter(tmp_path / "流水.xlsx") as w:
        for name, df in books.items():
            df.assign(方式=["微信", "现金", "微信"]).to_excel(w, sheet_name=name, index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "流水.xlsx 9-10月 做个透视表，行是门店，列是方式，值是金额合计")
    tr = answered(s, more)
    assert tr.decision.request.sheet == "11-12月" and tr.decision.request.op("pivot") is not None


@pytest.mark.parametrize("engine", ["pandas", "duckdb"])
def test_a_join_says_when_the_other_side_repeats_a_key(tmp_path, monkeypatch, engine):
    monkeypatch.setenv("WENQING_ENGINE", engine)
    pd.DataFrame({"课程": ["A", "B", "C", "A"], "学费": [1, 2, 3, 4]}).to_csv(tmp_path / "报名.csv", index=False)
    pd.DataFrame({"课程": ["A", "B", "B", "C"], "类别": ["x", "y", "y", "z"]}).to_csv(tmp_path / "课程.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "把报名.csv和课程.csv按课程合并，报名为左表")
    assert len(result_frame(tr)) == 5
    assert "B ×2" in tr.run.answer and "去重" in tr.run.answer


@pytest.mark.parametrize("said,value", [("流水.xlsx 按门店和月份汇总金额合计", "金额"), ("流水.xlsx 每个门店和月份的单数", None)])
def test_a_period_listed_among_the_keys(ws, said, value):
    f = result_frame(answered(Session(ws), said))
    month = SHOP["下单日期"].dt.strftime("%Y-%m")
    want = SHOP.groupby(["门店", month])["金额"].sum() if value else SHOP.groupby(["门店", month]).size()
    got = f.set_index(["门店", "月份"])["金额_合计" if value else "行数"]
    assert got.loc[want.index].tolist() == pytest.approx(want.tolist())


@pytest.mark.parametrize("said", ["流水.xlsx 门店有多少个不同的", "流水.xlsx 门店有几种？", "流水.xlsx 一共有几个门店"])
def test_the_number_of_different_values_of_a_column(ws, said):
    f = result_frame(answered(Session(ws), said))
    assert f.iloc[0, 0] == SHOP["门店"].nunique()


def test_a_blank_key_is_said_as_blank(tmp_path):
    pd.DataFrame({"方式": ["微信", None, "现金", "微信", None], "金额": [1, 2, 3, 4, 5]}).to_csv(tmp_path / "付款.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "付款.csv 方式都有哪几种？")
    assert "nan" not in tr.run.answer and "None" not in tr.run.answer and "（空白）（2）" in tr.run.answer


def test_an_offered_column_fills_the_key_said_after_by(en):
    s = Session(en)
    first = s.turn("sales.xlsx Jan: zone totals of Revenue by zone")  # the word asked about is said twice
    assert first.decision.next == "ask_slots"
    tr = s.turn("Branch")
    assert tr.decision.next in ("restate_confirm", "execute") and tr.decision.request.op("group").args["keys"] == ["Branch"]


@pytest.mark.parametrize("said", ["流水.xlsx 哪门店金额最高", "流水.xlsx 哪家门店金额最高"])
def test_which_with_a_measure_word_for_the_kind(ws, said):
    f = result_frame(answered(Session(ws), said))
    want = SHOP.groupby("门店")["金额"].sum()
    assert f["门店"].iloc[0] == want.idxmax()


@pytest.mark.parametrize("said,subset", [("流水.xlsx 有没有重复的记录？完全一样的那种，去掉", None), ("流水.xlsx 门店和金额一样的只留一行", ["门店", "金额"]),
                                         ("流水.xlsx 门店相同的只保留一条", ["门店"])])
def test_rows_alike_keep_one(tmp_path, said, subset):
    d = pd.concat([SHOP, SHOP.iloc[:2]], ignore_index=True)
    d.to_excel(tmp_path / "流水.xlsx", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), said)
    assert tr.decision.request.op("filter") is None
    assert len(result_frame(tr)) == len(d.drop_duplicates(subset=subset))


def test_a_summary_figure_named_by_its_column_word(ws):
    s = Session(ws)
    answered(s, "流水.xlsx 按门店汇总金额")
    tr = answered(s, "在这个结果里，每个门店占总金额的百分比是多少")
    want = SHOP.groupby("门店")["金额"].sum()
    for k, v in (want / want.sum() * 100).items():
        assert f"{k} {round(v, 2):g}%" in tr.run.answer


def test_their_statistic_after_a_count_per_key_joins_the_same_groups(tmp_path):
    STAFF.to_csv(tmp_path / "业绩.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "业绩.csv 按门店数一下单数")
    f = result_frame(answered(s, "他们的平均金额呢？用中位数吧")).set_index("门店")
    want = STAFF.groupby("门店")["金额"].agg(["median", "size"])
    assert f.loc[want.index, "金额_中位数"].tolist() == pytest.approx(want["median"].tolist())
    assert f.loc[want.index, "行数"].tolist() == want["size"].tolist()


DAYS = pd.DataFrame({"日期": pd.to_datetime(["2025-03-01", "2025-03-01", "2025-03-02", "2025-03-03", "2025-03-03", "2025-03-03", "2025-04-01"]),
                     "金额": [10.0, 20.0, 50.0, 1.0, 2.0, 3.0, 7.0]})


@pytest.fixture
def days(tmp_path) -> Workspace:
    DAYS.to_csv(tmp_path / "流水.csv", index=False)
    return Workspace.at(tmp_path)


@pytest.mark.parametrize("said,agg,low", [("哪天的单最多", "size", False), ("哪天金额最高", "sum", False), ("哪个月金额最高", "msum", False),
                                          ("哪天金额最低", "sum", True)])
def test_the_period_with_the_most(days, said, agg, low):
    f = result_frame(answered(Session(days), "流水.csv " + said))
    by = DAYS["日期"].dt.strftime("%Y-%m" if agg == "msum" else "%Y-%m-%d")
    fig = DAYS.groupby(by).size() if agg == "size" else DAYS.groupby(by)["金额"].sum()
    want = fig.idxmin() if low else fig.idxmax()
    assert f.iloc[0, 0] == want and len(f) == 1


@pytest.mark.parametrize("said", ["流水.csv 按天汇总金额，取最高的2天", "流水.csv 哪天金额最高？给我前2名"])
def test_the_first_periods_of_a_summary_per_day(days, said):
    f = result_frame(answered(Session(days), said))
    want = DAYS.groupby(DAYS["日期"].dt.strftime("%Y-%m-%d"))["金额"].sum().nlargest(2)
    assert f.iloc[:, 0].tolist() == want.index.tolist()


def test_a_ranking_says_the_rows_tied_with_the_last_one(days):
    tr = answered(Session(days), "流水.csv 哪天的单最多")
    assert "并列" not in tr.run.answer  # 03-03 alone has three rows
    pd.DataFrame({"店": ["a", "b", "c", "d"], "金额": [5.0, 9.0, 9.0, 9.0]}).to_csv(days.root / "店.csv", index=False)
    tr = answered(Session(days), "店.csv 金额最高的1个店")
    assert "另有 2 行与最后一名并列" in tr.run.answer


def test_growth_over_the_month_before_said_in_words(days):
    tr = answered(Session(days), "流水.csv 按月算一下金额总额，再看看每个月比上个月涨了多少")
    f = result_frame(tr)
    m = DAYS.groupby(DAYS["日期"].dt.strftime("%Y-%m"))["金额"].sum()
    assert f.iloc[-1, -1] == pytest.approx(round((m.iloc[-1] - m.iloc[-2]) / m.iloc[-2] * 100, 2))


@pytest.mark.parametrize("said,lang", [("业绩.csv 按组别算金额合计，组别在销售员信息那个表里", "zh"), ("业绩.csv total 金额 by 组别", "en")])
def test_a_column_of_another_table_is_looked_up_through_the_shared_key(tmp_path, said, lang):
    STAFF.to_csv(tmp_path / "业绩.csv", index=False)
    info = pd.DataFrame({"销售员": ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛"], "组别": ["A", "A", "B", "B", "C", "C", "A", "B"]})
    info.to_csv(tmp_path / "销售员信息.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    tr = s.turn(said)
    assert tr.run is None and tr.decision.next == "restate_confirm" and tr.decision.request.op("join") is not None
    f = result_frame(answered(s, "继续" if lang == "zh" else "go")).set_index("组别")
    want = STAFF.merge(info, on="销售员", how="left").groupby("组别")["金额"].sum()
    assert f.loc[want.index].iloc[:, 0].tolist() == pytest.approx(want.tolist())


VISITS = pd.DataFrame({"Clinic": ["A", "A", "B", "B", "B", "C"], "No Show": ["Yes", "No", "No", "Yes", "No", "No"],
                       "Refunded": ["No", "No", "Yes", "No", "Yes", "No"], "Fee": [10.0, 20.0, 30.0, 40.0, 50.0, 60.0]})


@pytest.mark.parametrize("said,keep", [
    ("count visits per Clinic, excluding no-shows", VISITS["No Show"] != "Yes"),
    ("total Fee by Clinic, excluding refunded visits", VISITS["Refunded"] != "Yes"),
    ("refunded visits by Clinic", VISITS["Refunded"] == "Yes"),
])
def test_a_yes_no_column_said_as_a_noun_or_an_adjective(tmp_path, said, keep):
    VISITS.to_csv(tmp_path / "visits.csv", index=False)
    f = result_frame(answered(Session(Workspace.at(tmp_path)), "visits.csv " + said)).set_index("Clinic")
    rows = VISITS[keep]
    want = rows.groupby("Clinic")["Fee"].sum() if "Fee" in said else rows.groupby("Clinic").size()
    got = f.loc[want.index, "Fee_sum" if "Fee" in said else f.columns[-1]]
    assert got.tolist() == pytest.approx(want.tolist())


def test_a_condition_said_missing_joins_the_others(tmp_path):
    d = STAFF.assign(数量=[1, 6, 7, 2, 9, 5, 8, 3, 6, 1])
    d.to_csv(tmp_path / "业绩.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "业绩.csv 西店以外的，按销售员算金额的中位数")
    tr = s.turn("不对，数量5以上这个条件你没加上")
    conds = {(c.column, c.op) for c in tr.decision.request.op("filter").args["conditions"]}
    assert conds == {("门店", "ne"), ("数量", "ge")}
    assert "没理解" not in tr.decision.reply


def test_a_request_said_again_in_full_keeps_the_sheet_in_use(tmp_path):
    books = _two_sheets(tmp_path, 3)
    s = Session(Workspace.at(tmp_path))
    answered(s, "流水.xlsx 11-12月 东店以外的金额合计")
    tr = answered(s, "门店不是西店，并且金额不低于10。只算金额的中位数")
    assert tr.decision.request.sheet == "11-12月"
    rows = books["11-12月"]
    want = rows[(rows["门店"] != "西店") & (rows["金额"] >= 10)]["金额"].median()
    assert f"中位数 {want:g}" in tr.run.answer


def test_what_the_registry_does_is_never_said_to_be_out_of_reach():
    from modes import evidence

    said = [g.zh for g in evidence.gaps("金额的中位数、标准差、占比、透视表、累计，画个图")]
    assert said == []
    assert [g.zh for g in evidence.gaps("预测下个月的销量")] == ["预测"]


def test_a_column_brought_over_with_every_row_kept_is_a_left_join(tmp_path):
    STAFF.to_csv(tmp_path / "业绩.csv", index=False)
    pd.DataFrame({"销售员": ["甲", "乙"], "组别": ["A", "B"]}).to_csv(tmp_path / "名单.csv", index=False)
    tr = Session(Workspace.at(tmp_path)).turn("业绩.csv 以业绩为主，每条记录都保留，把名单.csv的组别带过来")
    j = tr.decision.request.op("join")
    assert j is not None and tr.decision.request.op("select") is None and j.args.get("how", "left") == "left"


def test_a_question_about_days_after_an_export_asks_the_sheet_in_use(tmp_path):
    books = _two_sheets(tmp_path, 3)
    s = Session(Workspace.at(tmp_path))
    answered(s, "流水.xlsx 11-12月 按门店汇总金额")
    answered(s, "那导出成excel吧")
    tr = answered(s, "哪天金额最高")
    assert tr.decision.request.file == "流水.xlsx" and tr.decision.request.sheet == "11-12月"
    rows = books["11-12月"]
    assert str(rows.loc[rows["金额"].idxmax(), "下单日期"].date()) in tr.run.answer


@pytest.mark.parametrize("said,col,value", [("付款.csv 方式空着的就当现金算", "方式", "现金"), ("付款.csv 金额为空的按0处理", "金额", 0),
                                           ("付款.csv treat blanks in 方式 as 现金", "方式", "现金")])
def test_a_blank_counted_as_a_value_is_filled_never_filtered(tmp_path, said, col, value):
    d = pd.DataFrame({"单号": ["A1", "A2", "A3", "A4"], "方式": ["微信", None, "现金", None], "金额": [1.0, None, 3.0, 4.0]})
    d.to_csv(tmp_path / "付款.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), said)
    f = result_frame(tr)
    assert len(f) == len(d) and tr.decision.request.op("filter") is None
    assert f[col].tolist() == d[col].fillna(value).tolist()


@pytest.mark.parametrize("said", ["流水.xlsx 对比9-10月和11-12月两个表", "compare 流水.xlsx 9-10月 with 流水.xlsx 11-12月"])
def test_two_sheets_compared_are_the_two_named(tmp_path, said):
    _two_sheets(tmp_path, 2)
    tr = answered(Session(Workspace.at(tmp_path)), said)
    assert "当前表 2 行，对比表 4 行" in tr.run.answer or "2 vs 4 rows" in tr.run.answer  # each sheet, never one sheet twice


def test_an_english_compare_table_has_no_chinese_labels(tmp_path):
    with pd.ExcelWriter(tmp_path / "fees.xlsx") as w:
        MONTHS["Jan"].to_excel(w, sheet_name="Jan", index=False)
        MONTHS["Feb"].to_excel(w, sheet_name="Feb", index=False)
    from tools.localise import value_en

    tr = answered(Session(Workspace.at(tmp_path)), "compare fees.xlsx Jan with fees.xlsx Feb")
    assert "4 vs 4 rows" in tr.run.answer
    assert [value_en(v) for v in ("行数", "Revenue 平均", "Units 最大")] == ["rows", "Revenue mean", "Units max"]


@pytest.mark.parametrize("said", ["pets.csv count of visits by Species, excluding blank Species", "pets.csv visits by Species, leave out the blank Species"])
def test_blank_said_before_a_column_and_left_out(tmp_path, said):
    d = pd.DataFrame({"Species": ["Dog", None, "Cat", "Dog", None], "Fee": [1, 2, 3, 4, 5]})
    d.to_csv(tmp_path / "pets.csv", index=False)
    f = result_frame(answered(Session(Workspace.at(tmp_path)), said)).set_index("Species")
    want = d.dropna(subset=["Species"]).groupby("Species").size()
    assert f.loc[want.index].iloc[:, -1].tolist() == want.tolist() and len(f) == len(want)


@pytest.mark.parametrize("said,name", [("sales.xlsx Jan: total Revenue by Branch, save as branch_totals.xlsx", "branch_totals.xlsx"),
                                       ("sales.xlsx Jan: total Revenue by Branch, 保存为 分店汇总.csv", "分店汇总.csv")])
def test_the_file_is_written_under_the_name_given_and_never_over_one(en, said, name):
    s = Session(en)
    tr = answered(s, said)
    assert [f["path"] for f in tr.run.files] == [f"outputs/{name}"]
    again = answered(s, said)  # the same name again: a new file beside it, the first kept
    stem, ext = name.rsplit(".", 1)
    assert [f["path"] for f in again.run.files] == [f"outputs/{stem}_2.{ext}"]
    got = pd.read_excel(en.root / "outputs" / name) if ext == "xlsx" else pd.read_csv(en.root / "outputs" / name)
    want = MONTHS["Jan"].groupby("Branch")["Revenue"].sum()
    assert got.set_index("Branch").loc[want.index].iloc[:, 0].tolist() == pytest.approx(want.tolist())


@pytest.mark.parametrize("tail", ["分别是啥", "都是什么", ""])
def test_the_first_things_of_each_group_by_their_total_asked_with_a_question_tail(tmp_path, tail):
    d = pd.DataFrame({"门店": ["东", "东", "东", "东", "西", "西", "西"], "商品名称": ["苹果", "苹果", "梨", "桃", "梨", "梨", "桃"],
                      "金额": [10.0, 10.0, 15.0, 12.0, 5.0, 6.0, 20.0]})
    d.to_csv(tmp_path / "销售.csv", index=False)
    f = result_frame(answered(Session(Workspace.at(tmp_path)), f"销售.csv 每个门店金额最高的前2个商品{tail}"))
    totals = d.groupby(["门店", "商品名称"])["金额"].sum().reset_index()
    want = totals.sort_values("金额", ascending=False).groupby("门店").head(2)
    assert sorted(zip(f["门店"], f["商品名称"], strict=True)) == sorted(zip(want["门店"], want["商品名称"], strict=True))


def test_sheets_stacked_then_joined_with_another_file_on_keys_named_differently(tmp_path):
    with pd.ExcelWriter(tmp_path / "visits.xlsx") as w:
        VISITS.iloc[:3].assign(Doctor=["X", "Y", "X"]).to_excel(w, sheet_name="Oct", index=False)
        VISITS.iloc[3:].assign(Doctor=["Y", "Z", "X"]).to_excel(w, sheet_name="Nov", index=False)
    vets = pd.DataFrame({"Vet Name": ["X", "Y", "Z"], "Level": ["Senior", "Junior", "Senior"]})
    vets.to_csv(tmp_path / "vets.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "stack all sheets of visits.xlsx and join with vets.csv on Doctor = Vet Name, then total Fee by Level")
    assert tr.decision.request.op("compare") is None
    rows = pd.concat([pd.read_excel(tmp_path / "visits.xlsx", sheet_name=s) for s in ("Oct", "Nov")]).merge(vets, left_on="Doctor", right_on="Vet Name", how="left")
    want = rows.groupby("Level")["Fee"].sum()
    f = result_frame(tr).set_index("Level")
    assert f.loc[want.index, "Fee_sum"].tolist() == pytest.approx(want.tolist())


def test_excluding_a_column_named_in_words_then_its_value(tmp_path):
    d = pd.DataFrame({"Rental ID": ["R1", "R2", "R3", "R4"], "Promo Code": ["FREERIDE", "SPRING10", None, "FREERIDE"], "Price": [1.0, 2.0, 3.0, 4.0]})
    d.to_csv(tmp_path / "rentals.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "rentals.csv total Price and average Price, excluding Promo Code FREERIDE")
    rows = d[d["Promo Code"] != "FREERIDE"]
    f = result_frame(tr)
    assert f["Price_sum"].iloc[0] == pytest.approx(rows["Price"].sum()) and f["Price_mean"].iloc[0] == pytest.approx(rows["Price"].mean())


def test_the_same_conditions_on_another_sheet_with_a_new_grouping(tmp_path):
    books = _two_sheets(tmp_path, 3)
    s = Session(Workspace.at(tmp_path))
    answered(s, "流水.xlsx 9-10月，金额大于15的，每个门店各有几笔")
    tr = answered(s, "11-12月也是这个条件，每个门店各有几笔")
    assert tr.decision.request.sheet == "11-12月"
    rows = books["11-12月"]
    want = rows[rows["金额"] > 15].groupby("门店").size()
    f = result_frame(tr).set_index("门店")
    assert f.loc[want.index].iloc[:, -1].tolist() == want.tolist()


def test_a_later_turn_naming_another_sheet_takes_the_earlier_ones_place(tmp_path):
    _two_sheets(tmp_path, 3)
    s = Session(Workspace.at(tmp_path))
    answered(s, "流水.xlsx 9-10月，金额大于15的，每个门店各有几笔")
    tr = s.turn("11-12月每个门店各有几笔")
    assert tr.decision.request.sheet == "11-12月" and tr.decision.request.op("stack") is None


RIDES = pd.DataFrame({"Member Type": ["member", "casual", None, "member", "casual"], "Bike Type": ["classic", "electric", "classic", "electric", "classic"],
                      "Price": [1.0, 2.0, 3.0, 4.0, 5.0]})


@pytest.mark.parametrize("said,keep", [
    ("Member Type other than casual: total Price", RIDES["Member Type"] != "casual"),
    ("total Price, excl. Member Type casual", RIDES["Member Type"] != "casual"),
    ("total Price excl. blank Member Type", RIDES["Member Type"].notna()),
])
def test_a_value_inside_a_column_name_is_no_value_and_excl_excludes(tmp_path, said, keep):
    RIDES.to_csv(tmp_path / "rides.csv", index=False)
    f = result_frame(answered(Session(Workspace.at(tmp_path)), "rides.csv " + said))
    assert f["Price_sum"].iloc[0] == pytest.approx(RIDES[keep]["Price"].sum())


def test_per_month_on_a_named_quarter_sheet_stays_on_that_sheet(tmp_path):
    with pd.ExcelWriter(tmp_path / "rentals.xlsx") as w:
        for q, m in (("Q1", 1), ("Q2", 4)):
            pd.DataFrame({"Start Time": pd.to_datetime([f"2024-{m:02d}-03", f"2024-{m + 1:02d}-04", f"2024-{m + 2:02d}-05"]),
                          "Price": [1.0 * m, 2.0 * m, 3.0 * m]}).to_excel(w, sheet_name=q, index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "rentals.xlsx Q2: total Price per month")
    assert tr.decision.request.op("stack") is None and tr.decision.request.sheet == "Q2"
    assert result_frame(tr)["Price_合计" if "Price_合计" in result_frame(tr) else "Price_sum"].tolist() == [4.0, 8.0, 12.0]


def test_the_top_one_added_after_a_filtered_summary_keeps_its_filter(tmp_path):
    d = pd.DataFrame({"门店": ["东", "东", "西", "西", "南"], "品类": ["咖啡", "茶", "咖啡", "咖啡", "茶"], "金额": [5.0, 100.0, 3.0, 4.0, 50.0]})
    d.to_csv(tmp_path / "流水.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "流水.csv 品类是咖啡的，按门店汇总金额")
    tr = answered(s, "还要取金额最高的那一个门店")
    want = d[d["品类"] == "咖啡"].groupby("门店")["金额"].sum()
    assert f"{want.idxmax()}：{want.max():g}" in tr.run.answer


def test_the_figure_of_each_period_corrected(days):
    s = Session(days)
    answered(s, "流水.csv 按周汇总单数")
    f = result_frame(answered(s, "按周汇总的是金额，不是行数"))
    assert f.filter(like="金额").iloc[:, 0].sum() == pytest.approx(DAYS["金额"].sum()) and len(f) == DAYS["日期"].dt.to_period("W-SUN").nunique()


def test_the_best_sellers_measured_by_a_figure_named_after_them(tmp_path):
    d = pd.DataFrame({"商品名称": ["苹果", "梨", "苹果", "桃", "梨", "桃"], "数量": [1, 5, 2, 9, 1, 1], "金额": [9.0, 1.0, 9.0, 2.0, 1.0, 2.0]})
    d.to_csv(tmp_path / "销售.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "销售.csv 卖的最好的前2个商品，按数量算")
    want = d.groupby("商品名称")["数量"].sum().nlargest(2)
    assert result_frame(tr)["商品名称"].tolist() == want.index.tolist()


def test_an_offered_column_answers_which_column_ranks_the_first_rows(tmp_path):
    d = pd.DataFrame({"商品名称": ["苹果", "梨", "桃"], "金额": [9.0, 1.0, 5.0]})
    d.to_csv(tmp_path / "销售.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    assert s.turn("销售.csv 取前2个").decision.next == "ask_slots"
    f = result_frame(answered(s, "金额"))
    assert f["商品名称"].tolist() == ["苹果", "桃"]


def test_two_values_of_one_column_each_counted(tmp_path):
    d = pd.DataFrame({"药品名称": ["a", "b", "c", "d", "e", "a"], "是否处方药": ["是", "否", "是", "否", "否", "是"], "进价": [1, 2, 3, 4, 5, 1]})
    d.to_csv(tmp_path / "药品目录.csv", index=False)
    f = result_frame(answered(Session(Workspace.at(tmp_path)), "药品目录.csv 处方药和非处方药各有几种药")).set_index("是否处方药")
    want = d.groupby("是否处方药")["药品名称"].nunique()
    assert f.loc[want.index].iloc[:, 0].tolist() == want.tolist()
    f = result_frame(answered(Session(Workspace.at(tmp_path)), "药品目录.csv 处方药和非处方药的平均进价分别是多少")).set_index("是否处方药")
    assert f.loc[["是", "否"]].iloc[:, 0].tolist() == pytest.approx(d.groupby("是否处方药")["进价"].mean().loc[["是", "否"]].tolist())


def test_day_over_day_growth_runs_per_day_as_restated(days):
    tr = answered(Session(days), "流水.csv 按天算金额的环比增长率")
    f = result_frame(tr)
    per_day = DAYS.groupby(DAYS["日期"].dt.normalize())["金额"].sum()
    full = per_day.reindex(pd.date_range(per_day.index.min(), per_day.index.max(), freq="D"))
    assert len(f) == len(full)  # one row per day from the first to the last, never per month


@pytest.mark.parametrize("said", ["运单.csv 按线路算平均油费，不算武汉线", "运单.csv 按线路算平均油费，武汉线不算"])
def test_a_value_part_said_with_its_column_word_is_excluded(tmp_path, said):
    d = pd.DataFrame({"线路": ["上海-武汉", "上海-南京", "上海-武汉", "上海-杭州"], "油费": [100.0, 200.0, 300.0, 400.0]})
    d.to_csv(tmp_path / "运单.csv", index=False)
    f = result_frame(answered(Session(Workspace.at(tmp_path)), said))
    assert sorted(f["线路"]) == ["上海-南京", "上海-杭州"]


@pytest.mark.parametrize("said,keep", [("运单.csv 线路不是上海-武汉的，按线路算平均油费", ["上海-南京", "上海-杭州"]),
                                       ("运单.csv 线路是上海-南京的，按线路算平均油费", ["上海-南京"])])
def test_a_value_with_a_hyphen_is_a_value_never_a_file(tmp_path, said, keep):
    d = pd.DataFrame({"线路": ["上海-武汉", "上海-南京", "上海-武汉", "上海-杭州"], "油费": [100.0, 200.0, 300.0, 400.0]})
    d.to_csv(tmp_path / "运单.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), said)
    assert sorted(result_frame(tr)["线路"]) == keep
