"""Found by the round-56 probes and trials, each recomputed with pandas on data of its own: every group of a ranking
just cut to its first (show all of them, not just the top one / 全部列出来); duplicates on two key columns said with 和
(送修日期和车牌号都重复的) and rows that share the values of columns (which rows have the same X and Y); the average
of each row said 平均每笔 after a summary; a summary's numbers rounded (保留整数 / round to 2 decimals), in the request or
right after it; a range with units (在1到2小时之间, 介于1000到2000元); a month with no year over data of one year is
that year's month, run; a sheet's name followed by a figure (一车队3月份) names its workbook; a chart over the sheets
said (各车队 / per branch) has the sheets as its categories; how many vehicles (多少辆车) are the different ones."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame
from test_trial_round40 import _workspace

from engine.session import Session
from tools.workspace import Workspace

PLATES = [f"苏B{n:05d}" for n in (12011, 30452, 55813, 70904, 88127, 91230, 41006)]


def _repairs(k: int) -> pd.DataFrame:
    n = 36
    return pd.DataFrame({
        "工单号": [f"R{k}{i:03d}" for i in range(n)],
        "进厂日期": pd.to_datetime("2023-01-03") + pd.to_timedelta([(i * 11 + k * 5) % 360 for i in range(n)], unit="D"),
        "车牌": [PLATES[(i * 3 + k) % 7] for i in range(n)],
        "项目": [["换机油", "补胎", "喷漆", "换刹车片"][(i + k) % 4] for i in range(n)],
        "修理厂": [["东风修理", "安达汽修", "老王快修"][(i * 2 + k) % 3] for i in range(n)],
        "工时": [round(0.4 + ((i * 7 + k) % 23) * 0.35, 2) for i in range(n)],
        "材料费": [round(80 + ((i * 13 + k) % 29) * 41.7, 1) for i in range(n)],
    })


def _visits(k: int) -> pd.DataFrame:
    n = 30
    return pd.DataFrame({
        "Visit ID": [f"V{k}{i:03d}" for i in range(n)],
        "Visit Date": pd.to_datetime("2023-02-01") + pd.to_timedelta([(i * 9 + k) % 300 for i in range(n)], unit="D"),
        "Patient": [f"P{(i * 5 + k) % 11:02d}" for i in range(n)],
        "Service": [["Checkup", "X-ray", "Cleaning", "Filling", "Crown"][(i * 3 + k) % 5] for i in range(n)],
        "Minutes": [15 + (i * 7 + k) % 50 for i in range(n)],
        "Fee": [round(40 + ((i * 17 + k) % 31) * 12.35, 2) for i in range(n)],
    })


REPAIRS = {"甲车间": _repairs(0), "乙车间": _repairs(1), "丙车间": _repairs(2)}
VISITS = {"Downtown": _visits(0), "Uptown": _visits(1)}


@pytest.fixture(params=["pandas", "duckdb"])
def repairs(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "修车记录.xlsx", REPAIRS,
                      {"司机.csv": pd.DataFrame({"车牌": PLATES, "司机": [f"司机{i}" for i in range(7)]})})


@pytest.fixture(params=["pandas", "duckdb"])
def visits(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "clinic.xlsx", VISITS,
                      {"patients.csv": pd.DataFrame({"Patient": [f"P{i:02d}" for i in range(11)], "Age": list(range(30, 41))})})


# ---- every group of a ranking just cut ------------------------------------------------------------------------------

@pytest.mark.parametrize("again", ["show all of them, not just the top one", "show them all", "the full ranking please"])
def test_all_the_groups_of_a_ranking_just_cut(visits, again):
    s = Session(visits)
    first = answered(s, "which service has the most visits at Downtown?")
    assert len(result_frame(first)) == 1
    tr = answered(s, again)
    f = result_frame(tr)
    want = VISITS["Downtown"]["Service"].value_counts()
    assert len(f) == len(want)
    assert list(f.iloc[:, -1] if f.shape[1] == 2 else f["rows"]) == sorted(want.tolist(), reverse=True)


def test_all_the_groups_of_a_ranking_just_cut_zh(repairs):
    s = Session(repairs)
    first = answered(s, "甲车间哪个修理厂的材料费合计最高")
    assert len(result_frame(first)) == 1
    f = result_frame(answered(s, "全部列出来"))
    want = REPAIRS["甲车间"].groupby("修理厂")["材料费"].sum().sort_values(ascending=False)
    assert list(f["修理厂"]) == list(want.index)
    assert [round(x, 1) for x in f[[c for c in f.columns if c.startswith("材料费")][0]]] == [round(x, 1) for x in want]


def test_show_all_after_no_ranking_is_not_a_ranking(repairs):
    s = Session(repairs)
    answered(s, "甲车间补胎的记录")
    tr = s.turn("全部列出来")
    assert tr.decision.rule != "ranking_unlimited"
    assert tr.run is None or "sort" not in [o.kind for o in tr.decision.request.ops] or len(result_frame(tr)) != 3


# ---- duplicates on two columns; rows that share values ----------------------------------------------------------------

@pytest.mark.parametrize(("said", "keys"), [("找出甲车间进厂日期和车牌都重复的行", ["进厂日期", "车牌"]),
                                            ("甲车间车牌和项目相同的有哪些", ["车牌", "项目"]),
                                            ("乙车间里车牌一样的记录列出来", ["车牌"])])
def test_duplicates_on_the_columns_said_are_listed(repairs, said, keys):
    sheet = "乙车间" if "乙车间" in said else "甲车间"
    f = result_frame(answered(Session(repairs), said))
    df = REPAIRS[sheet]
    assert len(f) == int(df.duplicated(keys, keep=False).sum())
    assert len(REPAIRS[sheet]) > len(f) > 0 or len(f) == len(df[df.duplicated(keys, keep=False)])


def test_rows_sharing_two_columns_are_the_duplicates_on_them(visits):
    f = result_frame(answered(Session(visits), "in Uptown which rows have the same Patient and Service"))
    assert len(f) == int(VISITS["Uptown"].duplicated(["Patient", "Service"], keep=False).sum())


def test_the_same_period_is_no_duplicate_search(visits):
    tr = Session(visits).turn("compare Downtown fees with the same month last year")
    assert all(o.kind != "dedupe" for o in tr.decision.request.ops)


# ---- 平均每笔 after a summary -----------------------------------------------------------------------------------------

def test_the_average_of_each_row_after_a_total_per_key(repairs):
    s = Session(repairs)
    answered(s, "甲车间按修理厂汇总材料费")
    tr = answered(s, "那平均每笔呢")
    f = result_frame(tr)
    want = REPAIRS["甲车间"].groupby("修理厂")["材料费"].mean()
    col = next(c for c in f.columns if c.startswith("材料费"))
    assert dict(zip(f["修理厂"], f[col].round(4), strict=True)) == {k: round(v, 4) for k, v in want.items()}


# ---- rounding -----------------------------------------------------------------------------------------------------------

def _half_up(x: float, n: int) -> float:
    from decimal import ROUND_HALF_UP, Decimal

    return float(Decimal(repr(x)).quantize(Decimal(1).scaleb(-n), rounding=ROUND_HALF_UP))


def test_a_summary_rounded_to_whole_numbers_in_the_request(repairs):
    f = result_frame(answered(Session(repairs), "甲车间按修理厂算平均材料费，保留整数"))
    want = REPAIRS["甲车间"].groupby("修理厂")["材料费"].mean()
    col = next(c for c in f.columns if c.startswith("材料费"))
    assert dict(zip(f["修理厂"], f[col].tolist(), strict=True)) == {k: int(_half_up(v, 0)) for k, v in want.items()}


@pytest.mark.parametrize(("said", "n"), [("保留一位小数", 1), ("保留两位小数", 2), ("round to whole numbers", 0)])
def test_a_summary_just_run_rounded(repairs, said, n):
    s = Session(repairs)
    answered(s, "乙车间按项目算平均工时")
    tr = answered(s, said)
    f = result_frame(tr)
    want = REPAIRS["乙车间"].groupby("项目")["工时"].mean()
    col = next(c for c in f.columns if c.startswith("工时"))
    assert len(f) == len(want)
    assert dict(zip(f["项目"], f[col].tolist(), strict=True)) == {k: _half_up(v, n) for k, v in want.items()}
    assert "项目" in f.columns  # the summary kept, only its numbers rounded


def test_round_in_english_with_decimals(visits):
    s = Session(visits)
    answered(s, "average Fee per Service at Uptown")
    f = result_frame(answered(s, "round them to 1 decimal place"))
    want = VISITS["Uptown"].groupby("Service")["Fee"].mean()
    col = next(c for c in f.columns if c.startswith("Fee"))
    assert dict(zip(f["Service"], f[col].tolist(), strict=True)) == {k: _half_up(v, 1) for k, v in want.items()}


def test_a_new_columns_rounding_stays_the_new_columns(repairs):
    tr = answered(Session(repairs), "甲车间加一列每工时材料费=材料费/工时，保留两位小数")
    assert all(o.kind != "round_numbers" for o in tr.decision.request.ops)


def test_the_round_tool_rounds_half_away_from_zero():
    from tools.registry import call

    t = pd.DataFrame({"a": [2.5, -2.5, 1.005, None], "b": ["x", "y", "z", "w"], "c": [1, 2, 3, 4]})
    r = call("round_numbers", {"table": t, "digits": 0})
    assert r.data["a"].tolist()[:3] == [3, -3, 1] and pd.isna(r.data["a"].tolist()[3])
    assert r.data["b"].tolist() == ["x", "y", "z", "w"] and r.data["c"].tolist() == [1, 2, 3, 4]
    assert r.facts["columns"] == ["a"]


# ---- ranges with units ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("said", "lo", "hi"), [("甲车间工时在1到2小时之间的有多少单", 1, 2),
                                                ("甲车间工时在1小时到2小时之间的有几单", 1, 2),
                                                ("甲车间工时在60到120分钟之间的有多少单", 1, 2),
                                                ("甲车间材料费介于500到1000元的有几单", 500, 1000)])
def test_a_range_with_units(repairs, said, lo, hi):
    tr = answered(Session(repairs), said)
    df = REPAIRS["甲车间"]
    col = "工时" if "工时" in said else "材料费"
    want = int(df[col].between(lo, hi).sum())
    assert want > 0
    assert str(want) in tr.run.answer


def test_a_range_in_weeks_over_a_column_in_days(visits):
    tr = answered(Session(visits), "Downtown visits with Minutes between 1 and 2 hours")
    assert len(result_frame(tr)) == int(VISITS["Downtown"]["Minutes"].between(60, 120).sum())


# ---- a month with no year over data of one year ---------------------------------------------------------------------

def test_a_month_with_no_year_over_one_year_of_data_runs(repairs):
    tr = Session(repairs).turn("甲车间3月份的材料费合计")
    assert tr.decision.next == "execute", tr.decision.reply
    df = REPAIRS["甲车间"]
    want = df[df["进厂日期"].dt.month == 3]["材料费"].sum()
    f = result_frame(tr)
    assert round(float(f.iloc[0][next(c for c in f.columns if c.startswith("材料费"))]), 1) == round(want, 1)


# ---- the sheets as a chart's categories -----------------------------------------------------------------------------

@pytest.mark.parametrize("said", ["各车间材料费合计画个柱状图", "三个车间的单数做个饼图"])
def test_a_chart_over_the_sheets_said(repairs, said):
    tr = answered(Session(repairs), said)
    chart = tr.decision.request.op("chart")
    assert chart is not None and chart.args.get("x") == "工作表"


def test_a_chart_per_sheet_in_english(visits):
    tr = answered(Session(visits), "chart the number of visits per clinic sheet")
    chart = tr.decision.request.op("chart")
    assert chart is not None and chart.args.get("x") == "sheet"
    assert "umber" not in tr.decision.reply


# ---- vehicles counted -------------------------------------------------------------------------------------------------

def test_how_many_vehicles_are_the_different_plates(repairs):
    s = Session(repairs)
    f = result_frame(answered(s, "甲车间每个修理厂修了多少辆车"))
    want = REPAIRS["甲车间"].groupby("修理厂")["车牌"].nunique()
    col = next(c for c in f.columns if c.startswith("车牌"))
    assert dict(zip(f["修理厂"], f[col], strict=True)) == want.to_dict()
    tr = answered(Session(repairs), "甲车间一共修了多少辆车")
    assert str(REPAIRS["甲车间"]["车牌"].nunique()) in tr.run.answer


# ---- names written another way; participles; number words; a report's period; relations ------------------------------

def _rent() -> pd.DataFrame:
    n = 24
    return pd.DataFrame({
        "楼栋": [f"{1 + i % 4}号楼" for i in range(n)],
        "支付方式": [["现金", "微信", "转账"][i % 3] for i in range(n)],
        "应缴金额": [1000 + (i * 37) % 400 for i in range(n)],
    })


def _members() -> pd.DataFrame:
    n = 40
    return pd.DataFrame({
        "member": [f"M{i:03d}" for i in range(n)],
        "classes": [1 + (i * 7) % 12 for i in range(n)],
        "fee_per_litre_unused": [0.0] * n,
        "score": [50 + (i * 13) % 50 for i in range(n)],
        "status": [["active", "paused"][i % 4 == 0] for i in range(n)],
        "renewed": [["no", "yes"][(i * 5) % 7 < 4] for i in range(n)],
        "renew_date": [None] * n,
        "joined": pd.to_datetime("2024-01-05") + pd.to_timedelta([(i * 9) % 330 for i in range(n)], unit="D"),
        "fuel_liter": [20 + (i * 3) % 17 for i in range(n)],
    })


@pytest.fixture
def clubs(tmp_path, monkeypatch) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", "pandas")
    _rent().to_csv(tmp_path / "物业费.csv", index=False)
    _members().to_csv(tmp_path / "members.csv", index=False)
    return Workspace.at(tmp_path)


@pytest.mark.parametrize("said", ["物业费.csv 按楼动算一下应缴金额总和", "物业费.csv 按楼树算一下应缴金额总和"])
def test_a_name_typed_with_other_characters_is_said_before_it_runs(clubs, said):
    tr = Session(clubs).turn(said)
    assert tr.decision.next != "execute", tr.decision.reply


def test_a_british_spelling_of_a_column_runs_as_that_column(clubs):
    tr = Session(clubs).turn("average fuel_litre in members.csv")
    assert tr.decision.next == "execute", tr.decision.reply
    assert "fuel_liter" in str(tr.decision.request.ops)


def test_three_lowest_scoring_active_members(clubs):
    tr = answered(Session(clubs), "three lowest-scoring active members in members.csv")
    df = _members()
    want = df[df["status"] == "active"].nsmallest(3, "score")
    assert sorted(result_frame(tr)["member"]) == sorted(want["member"])


@pytest.mark.parametrize("said", ["top five members by score in members.csv", "the five members with the highest score in members.csv"])
def test_a_cut_said_as_a_word(clubs, said):
    tr = answered(Session(clubs), said)
    assert sorted(result_frame(tr)["member"]) == sorted(_members().nlargest(5, "score")["member"])


def test_a_reports_period_is_no_bucket(clubs):
    tr = answered(Session(clubs), "members.csv: total classes per status, for the monthly board report")
    f = result_frame(tr)
    assert len(f) == 2 and "status" in f.columns
    assert "month" not in str(tr.decision.request.ops).casefold()


def test_a_pivot_of_summed_values_leaves_no_word_unread(clubs):
    tr = Session(clubs).turn("Pivot members.csv with status as rows, months of joined as columns and summed classes")
    assert "not understood" not in tr.decision.reply and "med" not in tr.decision.reply


def test_anything_to_do_with_a_yes_no_column_is_their_correlation(clubs):
    tr = answered(Session(clubs), "Does class count have anything to do with whether members renew, in members.csv?")
    df = _members()
    r = df["classes"].corr((df["renewed"] == "yes").astype(float))
    assert f"{r:.3f}"[:5] in tr.run.answer or f"{round(r, 3)}" in tr.run.answer
    assert all(o.kind != "filter" for o in tr.decision.request.ops)


# ---- round 56 trials: purchase orders and salon visits, on data of its own ----------------------------------------------

def _pos(k: int) -> pd.DataFrame:
    n = 48
    order = pd.to_datetime("2024-01-02") + pd.to_timedelta([(i * 7 + k * 3) % 330 for i in range(n)], unit="D")
    return pd.DataFrame({
        "PO Number": [f"PO-{k}{i:03d}" for i in range(n)],
        "Order Date": order,
        "Received Date": order + pd.to_timedelta([3 + (i % 9) for i in range(n)], unit="D"),
        "Supplier": [["Acme", "Borealis", "Cobalt", "Dunmore"][(i + k) % 4] for i in range(n)],
        "SKU": [f"SK-{(i * 5 + k) % 7}" for i in range(n)],
        "Qty Ordered": [10 + (i * 13 + k) % 90 for i in range(n)],
        "Unit Cost": [round(2.5 + ((i * 17 + k) % 40) * 1.75, 2) for i in range(n)],
        "Status": [["Open", "Received", "Cancelled", "Received"][(i * 3 + k) % 4] for i in range(n)],
    })


POS = {"Tulsa DC": _pos(0), "Fresno DC": _pos(1)}


@pytest.fixture(params=["pandas", "duckdb"])
def pos(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "po_book.xlsx", POS,
                      {"vendors.csv": pd.DataFrame({"Supplier": ["Acme", "Borealis", "Cobalt", "Dunmore"], "Country": ["US", "CA", "MX", "US"]})})


def test_a_column_offered_and_typed_back_fills_the_condition(pos):
    s = Session(pos)
    first = s.turn("were any orders logged on a weekend? check every sheet")
    assert first.decision.next == "ask_slots" and "Received Date" in first.decision.reply
    tr = s.turn("Received Date")  # the column offered, typed back: taken, never asked again
    assert tr.decision.next in ("execute", "restate_confirm"), tr.decision.reply
    tr = tr if tr.run is not None else s.turn("go")
    both = pd.concat(POS.values())
    assert len(result_frame(tr)) == int((both["Received Date"].dt.day_of_week >= 5).sum())
    tr = answered(Session(pos), "were any orders logged on a weekend? use Received Date, every sheet")
    assert len(result_frame(tr)) == int((both["Received Date"].dt.day_of_week >= 5).sum())


def test_placed_names_the_order_date(pos):
    tr = answered(Session(pos), "Tulsa DC orders placed after 2024-06-30")
    df = POS["Tulsa DC"]
    assert len(result_frame(tr)) == int((df["Order Date"] > "2024-06-30").sum())


def test_pos_is_the_rows_noun_of_po_number(pos):
    tr = Session(pos).turn("count POs per month of Order Date on the Fresno DC sheet")
    assert "POs" not in tr.decision.reply


def test_the_busiest_month_of_a_count_per_month(pos):
    s = Session(pos)
    answered(s, "count POs per month of Order Date on the Fresno DC sheet")
    tr = answered(s, "which month was the busiest?")
    per = POS["Fresno DC"]["Order Date"].dt.to_period("M").value_counts()
    f = result_frame(tr)
    assert len(f) == 1 and int(f.iloc[0][[c for c in f.columns if c != "month" and f[c].dtype.kind in "iu"][0]]) == int(per.max())


def test_units_ordered_is_the_quantity_ordered(pos):
    tr = answered(Session(pos), "which SKU had the most units ordered in Tulsa DC?")
    want = POS["Tulsa DC"].groupby("SKU")["Qty Ordered"].sum()
    assert want.idxmax() in tr.run.answer and str(int(want.max())) in tr.run.answer.replace(",", "")


def test_the_same_for_another_value_of_a_share(pos):
    s = Session(pos)
    answered(s, "what percent of POs were cancelled in each sheet of po_book.xlsx?")
    tr = answered(s, "and the same for Open?")
    p = tr.decision.request.op("proportion")
    assert p is not None and [c.value for c in p.args["conditions"]] == ["Open"]
    assert tr.decision.request.op("filter") is None


def test_show_me_all_of_them_ranked(pos):
    s = Session(pos)
    answered(s, "which supplier has the most open POs in Tulsa DC?")
    f = result_frame(answered(s, "show me all of them ranked"))
    df = POS["Tulsa DC"]
    assert len(f) == df[df["Status"] == "Open"]["Supplier"].nunique()


def _salon(k: int) -> pd.DataFrame:
    n = 40
    return pd.DataFrame({
        "流水号": [f"S{k}{i:03d}" for i in range(n)],
        "消费时间": pd.to_datetime("2024-03-01") + pd.to_timedelta([(i * 5 + k) % 200 for i in range(n)], unit="D"),
        "卡号": [f"C{(i * 7 + k) % 15:03d}" for i in range(n)],
        "项目": [["剪发", "烫发", "染发", "护理"][(i + k) % 4] for i in range(n)],
        "技师": [["阿杰", "小雅", "Tony", "丽丽"][(i * 3 + k) % 4] for i in range(n)],
        "实收金额": [60 + ((i * 37 + k) % 20) * 25 for i in range(n)],
    })


SALON = {"南湖店": _salon(0), "北苑店": _salon(1)}
CARDS = pd.DataFrame({"卡号": [f"C{i:03d}" for i in range(15)], "性别": [["女", "男", "女"][i % 3] for i in range(15)],
                      "等级": [["普通", "银卡", "金卡", "钻石"][i % 4] for i in range(15)]})


@pytest.fixture(params=["pandas", "duckdb"])
def salon(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "流水.xlsx", SALON,
                      {"会员卡.csv": CARDS, "全部流水.csv": pd.concat([d.assign(门店=k) for k, d in SALON.items()])})


def test_each_sheet_said_by_its_noun_is_no_guess_of_the_file(salon):
    tr = Session(salon).turn("两个店分别收了多少单")
    assert tr.decision.next == "execute", tr.decision.reply
    f = result_frame(tr)
    assert sorted(f.iloc[:, -1].tolist()) == sorted(len(d) for d in SALON.values())


def test_each_value_asked_in_its_own_clause_is_counted(salon):
    f = result_frame(answered(Session(salon), "会员卡.csv里女的有多少，男的有多少"))
    want = CARDS["性别"].value_counts()
    assert dict(zip(f["性别"], f.iloc[:, -1], strict=True)) == want.to_dict()


def test_a_bound_after_a_text_value_is_never_dropped(salon):
    """金卡以上 over 普通 / 银卡 / 金卡 / 钻石 (ranks of a known scale, words.toml [ordered_values]): the ranks from 金卡 up,
    said in what runs; a bound over values of no known order is named back (test_trial_round58)."""
    tr = answered(Session(salon), "会员卡.csv 金卡以上的有几个")
    assert "金卡、钻石" in tr.plan.goalSummary, tr.plan.goalSummary
    assert str(int(CARDS["等级"].isin(["金卡", "钻石"]).sum())) in (tr.run.answer or "")


def test_a_column_brought_onto_the_table_said_after_guanlian_dao(salon):
    tr = answered(Session(salon), "把会员卡.csv的等级关联到全部流水.csv上，按卡号")
    f = result_frame(tr)
    assert len(f) == sum(len(d) for d in SALON.values()) and "等级" in f.columns and "性别" not in f.columns


def test_a_share_of_a_column_per_key_is_a_new_column_summed(salon):
    f = result_frame(answered(Session(salon), "看一下南湖店各个技师的提成，按实收的15%算"))
    want = (SALON["南湖店"].groupby("技师")["实收金额"].sum() * 0.15).round(2)
    assert dict(zip(f["技师"], f["提成_合计"].round(2), strict=True)) == want.to_dict()


def test_in_the_result_described_works_on_that_result(salon):
    s = Session(salon)
    listed = answered(s, "南湖店卡号重复的有哪些")
    n = len(result_frame(listed))
    tr = answered(s, "在刚才卡号重复的结果里按消费时间排序")
    assert len(result_frame(tr)) == n
    assert all(o.kind != "dedupe" or o.args.get("show") for o in tr.decision.request.ops)


def test_an_order_after_duplicates_listed_orders_them(salon):
    s = Session(salon)
    listed = answered(s, "北苑店卡号重复的有哪些")
    tr = answered(s, "按卡号排序")
    f = result_frame(tr)
    assert len(f) == len(result_frame(listed)) and list(f["卡号"]) == sorted(f["卡号"])


def test_without_a_value_the_total_keeps_the_rows_counted_before(salon):
    s = Session(salon)
    answered(s, "南湖店烫发的单子，各技师各几单")
    tr = answered(s, "不含阿杰的话一共几单")
    df = SALON["南湖店"]
    want = int(((df["项目"] == "烫发") & (df["技师"] != "阿杰")).sum())
    assert str(want) in tr.run.answer
    assert tr.decision.request.op("group") is None


def test_a_quarter_said_without_di_is_that_quarter(salon):
    tr = answered(Session(salon), "流水.xlsx 南湖店二季度的单子")
    df = SALON["南湖店"]
    assert len(result_frame(tr)) == int((df["消费时间"].dt.quarter == 2).sum())


def test_what_about_another_half_keeps_the_date_column_and_the_datas_year(pos):
    s = Session(pos)
    answered(s, "Tulsa DC orders placed in H2 2024")
    tr = answered(s, "what about H1?")
    df = POS["Tulsa DC"]
    assert len(result_frame(tr)) == int((df["Order Date"] < "2024-07-01").sum())


def test_a_name_containing_is_the_name_of_the_things_said(pos):
    tr = answered(Session(pos), "in Tulsa DC which suppliers have a name containing 'bore' or 'balt'?")
    df = POS["Tulsa DC"]
    assert len(result_frame(tr)) == int(df["Supplier"].str.contains("bore|balt", case=False).sum())


def test_an_abbreviation_written_out_names_its_column(pos):
    tr = answered(Session(pos), "top 2 suppliers by total quantity ordered in Fresno DC")
    want = POS["Fresno DC"].groupby("Supplier")["Qty Ordered"].sum().nlargest(2)
    assert sorted(result_frame(tr)["Supplier"]) == sorted(want.index)


def test_represent_is_no_condition(pos):
    tr = Session(pos).turn("what percentage of the total does each sheet of po_book.xlsx represent?")
    assert "'re'" not in tr.decision.reply and all(o.kind != "filter" for o in tr.decision.request.ops)


def test_a_sheet_named_by_its_own_word(pos):
    tr = answered(Session(pos), "Fresno orders placed in the first half of 2024 — how many?")
    df = POS["Fresno DC"]
    assert str(int((df["Order Date"] < "2024-07-01").sum())) in tr.run.answer


def test_orders_placed_each_month_are_counted_by_order_date(pos):
    tr = Session(pos).turn("how many POs did Tulsa place each month?")
    assert tr.decision.next == "execute", tr.decision.reply
    b = tr.decision.request.op("bucket")
    assert b is not None and b.args.get("column") == "Order Date"


def test_by_date_is_the_one_date_column(salon):
    tr = answered(Session(salon), "流水.xlsx 南湖店6月以后的单子，按日期倒序排")
    f = result_frame(tr)
    df = SALON["南湖店"]
    assert len(f) == int((df["消费时间"] >= "2024-06-01").sum())
    assert list(f["消费时间"]) == sorted(f["消费时间"], reverse=True)


def test_only_the_columns_said_are_rounded(repairs):
    f = result_frame(answered(Session(repairs), "甲车间按修理厂算平均材料费和平均工时，材料费保留整数"))
    g = REPAIRS["甲车间"].groupby("修理厂")
    assert dict(zip(f["修理厂"], f["材料费_平均"], strict=True)) == {k: int(_half_up(v, 0)) for k, v in g["材料费"].mean().items()}
    assert dict(zip(f["修理厂"], f["工时_平均"].round(6), strict=True)) == {k: round(v, 6) for k, v in g["工时"].mean().items()}


def test_round_a_named_column_in_english(visits):
    f = result_frame(answered(Session(visits), "round Fee to whole numbers in the Uptown sheet of clinic.xlsx"))
    assert f["Fee"].tolist() == [int(_half_up(v, 0)) for v in VISITS["Uptown"]["Fee"]]


def test_a_bare_round_is_no_request(visits):
    tr = Session(visits).turn("round")
    assert tr.run is None
