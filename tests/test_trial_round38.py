"""Found by the round-37 and round-38 work, each recomputed with pandas: a condition in brackets that spells out what an
exclusion leaves out (leave out the refunded rows (Refunded = Y)), stars as the unit of a rating, each key's money
(按支付方式各多少钱), a step then the request just run done again, "this" exported after a summary, the sheets of a
workbook counted (三个城市每个月…), two sheets compared with a growth, the blank group left out, one more statistic
(and the max), a sheet said without the end all the sheets' names share (那城西的呢)."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame, write_workbook

from engine.session import Session
from tools.workspace import Workspace

CITY = {c: pd.DataFrame({"下单日期": pd.to_datetime([f"2024-{m:02d}-{d:02d}" for m, d in dates]),
                         "订单号": [f"{c[0]}{i:02d}" for i in range(len(dates))], "服务类型": kinds, "支付方式": pays,
                         "金额": money, "评分": stars, "师傅": who, "是否退款": refunded})
        for c, dates, kinds, pays, money, stars, who, refunded in [
            ("宁波", [(7, 2), (7, 9), (8, 3), (8, 20), (9, 1), (9, 15), (9, 28)], ["保洁", "家电", "保洁", "收纳", "家电", "保洁", "收纳"],
             ["微信", "现金", "支付宝", "微信", "微信", "现金", "支付宝"], [120.0, 260.0, 180.0, 399.0, 260.0, 120.0, 520.0],
             [5, 3, None, 4, 5, 2, 4], ["刘敏", "陈芳", "刘敏", "赵静", "陈芳", "赵静", "刘敏"], ["否", "是", "否", "否", "是", "否", "否"]),
            ("温州", [(7, 5), (8, 8), (8, 18), (9, 9), (9, 21)], ["家电", "保洁", "保洁", "收纳", "家电"],
             ["现金", "微信", "微信", "支付宝", "微信"], [260.0, 120.0, 180.0, 399.0, 300.0],
             [4, 5, 1, 4, 3], ["陈芳", "赵静", "刘敏", "陈芳", "赵静"], ["否", "否", "是", "否", "否"]),
            ("绍兴", [(7, 11), (7, 30), (8, 12), (9, 3)], ["收纳", "保洁", "家电", "保洁"],
             ["微信", "支付宝", "现金", "微信"], [399.0, 120.0, 260.0, 180.0],
             [5, 4, 2, 5], ["赵静", "刘敏", "陈芳", "刘敏"], ["否", "否", "否", "是"])]}
STAFF = pd.DataFrame({"师傅": ["刘敏", "陈芳", "赵静", "刘敏"], "籍贯": ["安徽", "河南", "江西", "安徽"], "工龄": [3, 5, 2, 3]})


@pytest.fixture(params=["pandas", "duckdb"])
def homes(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "派单.xlsx", CITY)
    STAFF.to_csv(tmp_path / "师傅.csv", index=False)
    return Workspace.at(tmp_path)


NB = CITY["宁波"]
ALL = pd.concat(CITY.values(), ignore_index=True)


@pytest.mark.parametrize(("said", "keep"), [
    ("宁波的单子，去掉退款的（是否退款=是）", NB["是否退款"] != "是"),
    ("宁波的单子，退款的（是否退款=是）不算", NB["是否退款"] != "是"),
    ("宁波的单子，非退款的（是否退款=否）", NB["是否退款"] == "否"),
    ("宁波的单子，不要现金付的(支付方式=现金)，金额大于150", (NB["支付方式"] != "现金") & (NB["金额"] > 150)),
])
def test_a_condition_in_brackets_spells_out_what_is_left_out(homes, said, keep):
    f = result_frame(answered(Session(homes), said))
    assert sorted(f["订单号"]) == sorted(NB.loc[keep, "订单号"])


def test_stars_are_the_rating_beside_an_exclusion_list(homes):
    f = result_frame(answered(Session(homes), "宁波的单子，除了现金和支付宝的，4星及以上"))
    keep = ~NB["支付方式"].isin(["现金", "支付宝"]) & (NB["评分"] >= 4)
    assert sorted(f["订单号"]) == sorted(NB.loc[keep, "订单号"])


def test_each_keys_money_of_the_rows_just_kept(homes):
    s = Session(homes)
    answered(s, "宁波的单子，评分4分及以上")
    f = result_frame(answered(s, "这些单里面，按支付方式看看各多少钱"))
    want = NB[NB["评分"] >= 4].groupby("支付方式")["金额"].sum().to_dict()
    assert f.set_index("支付方式")["金额_合计"].to_dict() == want


def test_a_step_then_the_request_just_run_done_again(homes):
    s = Session(homes)
    answered(s, "师傅.csv按籍贯统计平均工龄")
    tr = s.turn("先把师傅.csv按师傅去重，再做一遍上面这个")
    assert tr.run is None and "去重" in tr.decision.reply and "平均" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续"))
    want = STAFF.drop_duplicates("师傅").groupby("籍贯")["工龄"].mean().to_dict()
    assert f.set_index("籍贯")["工龄_平均"].to_dict() == pytest.approx(want)


def test_this_exported_after_a_summary_is_the_summary(homes):
    s = Session(homes)
    answered(s, "派单.xlsx三个sheet合起来，按服务类型汇总金额")
    tr = answered(s, "这个导出成excel")
    path = tr.run.files[0]["path"]
    assert path.endswith(".xlsx")
    back = pd.read_excel(homes.root / path)
    assert len(back) == ALL["服务类型"].nunique()


def test_the_answer_to_which_file_with_its_sheets_keeps_the_request(homes):
    pd.DataFrame({"日期": pd.to_datetime(["2024-08-01"]), "金额": [10.0]}).to_csv(homes.root / "采购.csv", index=False)
    s = Session(Workspace.at(homes.root))
    tr = s.turn("每个月的金额合计，画个折线图")
    assert tr.decision.next == "ask_slots"
    tr = s.turn("派单.xlsx，三个sheet合起来")
    assert tr.run is None and "折线图" in tr.decision.reply and "3 个工作表" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续"))
    want = ALL.groupby(ALL["下单日期"].dt.to_period("M"))["金额"].sum()
    assert f.iloc[:, -1].tolist() == want.tolist()


def _said(tr) -> str:
    """What a turn says it reads: its restatement, or, when it ran at once, its "about to" line (the same words)."""
    from modes.replies import goal_summary

    return tr.decision.reply or goal_summary(tr.decision.request, tr.decision.lang)


def test_the_sheets_counted_then_each_month_is_a_line_each(homes):
    s = Session(homes)
    tr = s.turn("三个城市每个月的金额合计，画折线图")
    assert "每个 工作表 一条线" in _said(tr), _said(tr)
    tr = s.turn("三个城市的金额合计")
    assert "分组" not in _said(tr) and "3 个工作表" in _said(tr), _said(tr)


def test_a_column_only_the_workbook_has_names_its_sheets_over_the_table_in_focus(homes):
    STAFF.assign(城市=["宁波", "温州", "绍兴", "宁波"]).to_csv(homes.root / "师傅.csv", index=False)
    s = Session(Workspace.at(homes.root))
    answered(s, "师傅.csv按城市统计人数")
    tr = s.turn("三个城市每个月的金额合计，画折线图")
    assert "派单.xlsx" in _said(tr) and "每个 工作表 一条线" in _said(tr), _said(tr)


def test_a_growth_of_two_sheets_in_chinese_without_a_period(homes):
    f = result_frame(answered(Session(homes), "宁波和温州比一下，每种服务类型的金额合计和增长率"))
    a = CITY["宁波"].groupby("服务类型")["金额"].sum()
    b = CITY["温州"].groupby("服务类型")["金额"].sum()
    got = f.set_index("服务类型")
    for k in a.index.union(b.index):
        assert got.loc[k, "宁波"] == a.get(k, 0) and got.loc[k, "温州"] == b.get(k, 0)
        if a.get(k, 0):
            assert got.loc[k, "增长率(%)"] == pytest.approx(round((b.get(k, 0) - a[k]) / a[k] * 100, 2))


def test_the_blank_group_left_out_in_chinese(homes):
    s = Session(homes)
    answered(s, "宁波的单子按评分统计单数")
    tr = s.turn("去掉空白那行")
    assert tr.run is None and "评分不为空" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续"))
    assert f.set_index("评分")["行数"].to_dict() == NB.dropna(subset=["评分"]).groupby("评分").size().to_dict()


def test_one_more_statistic_joins_the_summary(homes):
    s = Session(homes)
    answered(s, "宁波的单子按服务类型算平均金额")
    answered(s, "再加上最大值")
    tr = s.turn("还有最小值")
    assert "金额 平均、金额 最大、金额 最小" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续"))
    g = NB.groupby("服务类型")["金额"]
    assert f.set_index("服务类型")["金额_最小"].to_dict() == g.min().to_dict()
    assert f.set_index("服务类型")["金额_最大"].to_dict() == g.max().to_dict()


def test_a_pivot_swapped_to_how_many_orders(homes):
    s = Session(homes)
    answered(s, "宁波的单子做个透视表，师傅一行一个，服务类型当列，看金额合计")
    tr = s.turn("不对，值不要金额，改成数有几单")
    assert "行数" in tr.decision.reply, tr.decision.reply  # how many rows in each cell (round 44)
    f = result_frame(s.turn("继续"))
    want = pd.crosstab(NB["师傅"], NB["服务类型"])
    got = f.set_index("师傅")
    assert got.loc["刘敏", "保洁"] == want.loc["刘敏", "保洁"]


SEASONS = {s: pd.DataFrame({"Booking Ref": [f"{s[:2]}{i}" for i in range(len(shows))], "Show": shows, "Agent": agents,
                            "Total Paid": paid, "Refunded": refunded})
           for s, shows, agents, paid, refunded in [
               ("Spring", ["Hamlet", "Cats", "Cats", "Oliver", "Hamlet"], ["Online", "Box Office", None, "Online", "Online"],
                [40.0, 25.0, 62.5, 80.0, 40.0], ["N", "Y", "N", "N", "Y"]),
               ("Summer", ["Cats", "Hamlet", "Oliver", "Oliver", "Cats", "Hamlet"], ["Online", None, "Box Office", "Online", "Online", "Box Office"],
                [25.0, 120.0, 80.0, 80.0, 62.5, 40.0], ["N", "N", "Y", "N", "N", "N"]),
               ("Autumn", ["Hamlet", "Cats", "Oliver"], ["Box Office", "Online", "Online"], [40.0, 25.0, 80.0], ["N", "N", "Y"])]}


@pytest.fixture(params=["pandas", "duckdb"])
def seasons(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "bookings.xlsx", SEASONS)
    return Workspace.at(tmp_path)


SU = SEASONS["Summer"]


@pytest.mark.parametrize("said", ["Summer bookings without the refunded ones (Refunded = Y)",
                                  "Summer bookings, leave out the refunded rows (Refunded = Y)"])
def test_an_exclusion_spelled_out_in_brackets(seasons, said):
    f = result_frame(answered(Session(seasons), said))
    assert sorted(f["Booking Ref"]) == sorted(SU.loc[SU["Refunded"] != "Y", "Booking Ref"])


def test_an_exclusion_spelled_out_in_brackets_while_a_restatement_waits(seasons):
    s = Session(seasons)
    s.turn("Summer bookings from Online - export to Excel")
    tr = s.turn("yes but leave out the refunded rows (Refunded = Y)")
    assert "Refunded ≠ Y" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("go"))
    assert sorted(f["Booking Ref"]) == sorted(SU.loc[(SU["Agent"] == "Online") & (SU["Refunded"] != "Y"), "Booking Ref"])


def test_not_is_part_of_the_words_the_brackets_spell_out(seasons):
    f = result_frame(answered(Session(seasons), "Summer bookings not refunded (Refunded = N)"))
    assert sorted(f["Booking Ref"]) == sorted(SU.loc[SU["Refunded"] == "N", "Booking Ref"])


def _season_totals(name: str, key: str) -> pd.Series:
    return SEASONS[name].groupby(key)["Total Paid"].sum()


def test_two_sheets_compared_with_the_growth_per_key(seasons):
    f = result_frame(answered(Session(seasons), "bookings.xlsx Summer vs Spring: total paid per show and the growth"))
    a, b = _season_totals("Spring", "Show"), _season_totals("Summer", "Show")
    got = f.set_index("Show")
    assert list(f.columns[:3]) == ["Show", "Spring", "Summer"]
    for k in a.index:
        assert got.loc[k, "Spring"] == a[k] and got.loc[k, "Summer"] == b[k]
        assert got.loc[k, f.columns[-1]] == pytest.approx(round((b[k] - a[k]) / a[k] * 100, 2))


def test_which_key_grew_the_most_between_two_sheets(seasons):
    tr = answered(Session(seasons), "which show grew the most, Summer vs Spring (Total Paid)?")
    a, b = _season_totals("Spring", "Show"), _season_totals("Summer", "Show")
    best = ((b - a) / a).idxmax()
    f = result_frame(tr)
    assert f["Show"].tolist() == [best] and "grew" not in tr.decision.reply


def test_a_growth_with_a_period_said_stays_a_growth_per_period(seasons):
    tr = Session(seasons).turn("bookings.xlsx Summer vs Spring: total paid per show, month-over-month growth")
    assert "change and its rate" not in tr.decision.reply


def test_the_blank_group_left_out(seasons):
    s = Session(seasons)
    answered(s, "bookings.xlsx Summer: number of bookings per Agent")
    tr = s.turn("without the blank row")
    assert tr.run is None and "Agent is not empty" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("go"))
    assert f.set_index("Agent").iloc[:, 0].to_dict() == SU.dropna(subset=["Agent"]).groupby("Agent").size().to_dict()


@pytest.mark.parametrize("more", ["and the max", "also the max"])
def test_one_more_statistic_said_after_a_summary(seasons, more):
    s = Session(seasons)
    answered(s, "bookings.xlsx Summer: average Total Paid per Show")
    tr = s.turn(more)
    assert "Total Paid mean, Total Paid max" in tr.decision.reply, tr.decision.reply


def test_a_statistic_said_instead_still_replaces(seasons):
    s = Session(seasons)
    answered(s, "bookings.xlsx Summer: average Total Paid per Show")
    tr = s.turn("max instead")
    assert "Total Paid max" in tr.decision.reply and "mean" not in tr.decision.reply, tr.decision.reply


def test_the_same_for_two_more_sheets_is_each_ones(seasons):
    s = Session(seasons)
    answered(s, "bookings.xlsx Spring: total Paid by Show")
    tr = s.turn("same for Summer and Autumn")
    assert "group by sheet, Show" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("go"))
    got = f.set_index(["sheet", "Show"])["Total Paid_sum"]
    assert got.loc[("Autumn", "Oliver")] == 80.0 and got.loc[("Summer", "Oliver")] == 160.0


STORES = {s: pd.DataFrame({"单号": [f"{s[1]}{i}" for i in range(4)], "品类": ["面包", "蛋糕", "面包", "饮品"], "销售额": amounts})
          for s, amounts in [("湖东店", [10.0, 20.0, 30.0, 40.0]), ("湖西店", [5.0, 15.0, 25.0, 35.0]), ("湖北店", [1.0, 2.0, 3.0, 4.0])]}


@pytest.fixture
def stores(tmp_path) -> Workspace:
    write_workbook(tmp_path, "门店流水.xlsx", STORES)
    return Workspace.at(tmp_path)


def test_a_sheet_said_without_the_end_all_sheets_share(stores):
    s = Session(stores)
    answered(s, "湖东店按品类汇总销售额")
    tr = s.turn("那湖西的呢")
    assert tr.run is None and "湖西店" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续"))
    assert f.set_index("品类")["销售额_合计"].to_dict() == STORES["湖西店"].groupby("品类")["销售额"].sum().to_dict()


def test_two_more_sheets_the_same_each_its_own(stores):
    s = Session(stores)
    answered(s, "湖东店按品类汇总销售额")
    tr = s.turn("湖西和湖北也一样算一下")
    assert "工作表、品类" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续"))
    assert f.set_index(["工作表", "品类"])["销售额_合计"].loc[("湖北店", "面包")] == 4.0


@pytest.mark.parametrize("said", ["湖西店和湖北店分别按品类汇总销售额", "湖西和湖北分别按品类汇总销售额"])
def test_two_sheets_each_by_a_key(stores, said):
    f = result_frame(answered(Session(stores), said))
    assert list(f.columns[:2]) == ["工作表", "品类"]
    assert f.set_index(["工作表", "品类"])["销售额_合计"].loc[("湖西店", "面包")] == 30.0


def test_a_store_noun_is_no_column_that_only_starts_with_it(tmp_path):
    sheets = {k: v.assign(店员=["甲", "乙", "甲", "丙"], 是否会员=["是", "否", "是", "是"]) for k, v in STORES.items()}
    write_workbook(tmp_path, "门店流水.xlsx", sheets)
    tr = Session(Workspace.at(tmp_path)).turn("每个店会员的占比")
    assert "按 工作表 分组" in _said(tr) and "是否会员 等于 是" in _said(tr), _said(tr)


def test_a_share_said_with_its_own_condition_twice_is_no_filter(tmp_path):
    sheets = {k: v.assign(店员=["甲", "乙", "甲", "丙"], 是否会员=m) for (k, v), m in
              zip(STORES.items(), [["是", "否", "是", "是"], ["否", "否", "是", "否"], ["是", "是", "是", "否"]], strict=True)}
    write_workbook(tmp_path, "门店流水.xlsx", sheets)
    s = Session(Workspace.at(tmp_path))
    tr = s.turn("会员率，每个店会员的占比")
    assert "筛选" not in _said(tr) and "是否会员 等于 是" in _said(tr), _said(tr)
    f = result_frame(s.turn("继续")) if tr.run is None else result_frame(tr)
    got = f.set_index("工作表").iloc[:, -1].to_dict()
    for name, df in sheets.items():
        assert got[name] == pytest.approx(round((df["是否会员"] == "是").mean() * 100, 2))


@pytest.mark.parametrize("said", ["bookings.xlsx Summer: refunded share per Agent", "bookings.xlsx Summer: % refunded by Agent",
                                  "bookings.xlsx Summer: refunded share per Agent - what % of bookings were refunded"])
def test_a_flag_share_per_key(seasons, said):
    f = result_frame(answered(Session(seasons), said))
    got = f.dropna(subset=["Agent"]).set_index("Agent").iloc[:, -1].to_dict()
    want = SU.dropna(subset=["Agent"]).groupby("Agent")["Refunded"].apply(lambda x: round((x == "Y").mean() * 100, 2)).to_dict()
    assert got == pytest.approx(want)


def test_person_times_is_a_count(homes):
    f = result_frame(answered(Session(homes), "宁波的单子按师傅统计人次"))
    assert f.set_index("师傅")["行数"].to_dict() == NB.groupby("师傅").size().to_dict()


VISITS = {q: pd.DataFrame({"visit_id": [f"{q}-{i}" for i in range(6)], "vet_id": vets, "invoice_amount": amounts})
          for q, vets, amounts in [("Q1", ["V1", "V2", "V3", "V1", "V2", "V4"], [100.0, 80.0, 60.0, 40.0, 20.0, 10.0]),
                                    ("Q2", ["V3", "V3", "V1", "V4", "V2", "V4"], [90.0, 70.0, 50.0, 30.0, 25.0, 5.0])]}
VETS = pd.DataFrame({"vet_id": ["V1", "V2", "V3", "V4"], "vet_name": ["Dr. Hart", "Dr. Patel", "Dr. Blake", "Dr. Rivera"],
                     "seniority": ["Senior", "Junior", "Senior", "Junior"]})


@pytest.fixture(params=["pandas", "duckdb"])
def clinic(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "visits.xlsx", VISITS)
    VETS.to_csv(tmp_path / "vets.csv", index=False)
    return Workspace.at(tmp_path)


def _top3() -> pd.Series:
    both = pd.concat(VISITS.values())
    return both.groupby("vet_id")["invoice_amount"].sum().nlargest(3)


def test_their_names_from_another_table_are_its_name_column(clinic):
    s = Session(clinic)
    answered(s, "visits.xlsx all sheets: top 3 vet_id by total invoice_amount")
    tr = answered(s, "add their names and seniority from vets.csv")
    f = result_frame(tr)
    assert {"vet_name", "seniority"} <= set(f.columns) and len(f) == 3
    assert dict(zip(f["vet_id"], f["vet_name"], strict=True)) == VETS.set_index("vet_id").loc[_top3().index, "vet_name"].to_dict()
    assert ".parquet" not in tr.run.answer and "the result shown" in tr.run.answer


def test_now_only_a_value_of_the_table_just_joined_narrows_the_result(clinic):
    s = Session(clinic)
    answered(s, "visits.xlsx all sheets: top 3 vet_id by total invoice_amount")
    answered(s, "add their names and seniority from vets.csv")
    f = result_frame(answered(s, "now only the senior vets"))
    top = _top3()
    want = [v for v in top.index if VETS.set_index("vet_id").loc[v, "seniority"] == "Senior"]
    assert sorted(f["vet_id"]) == sorted(want) and "invoice_amount_sum" in f.columns


def test_a_key_another_table_holds_over_stacked_sheets(clinic):
    s = Session(clinic)
    tr = s.turn("visits.xlsx all sheets: total invoice_amount per seniority")
    assert "vets.csv has it" in tr.decision.reply and "not understood" not in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("go"))
    both = pd.concat(VISITS.values()).merge(VETS, on="vet_id")
    assert f.set_index("seniority")["invoice_amount_sum"].to_dict() == both.groupby("seniority")["invoice_amount"].sum().to_dict()


def test_a_column_compared_and_said_of_the_groups_is_a_having(homes):
    f = result_frame(answered(Session(homes), "宁波的单子按服务类型看金额合计，金额超过300的服务类型有哪些"))
    totals = NB.groupby("服务类型")["金额"].sum()
    assert sorted(f["服务类型"]) == sorted(totals[totals > 300].index)


def test_a_column_compared_and_said_of_the_groups_in_english(clinic):
    f = result_frame(answered(Session(clinic), "visits.xlsx Q1: total invoice_amount per vet_id, vet_ids with invoice_amount over 100"))
    totals = VISITS["Q1"].groupby("vet_id")["invoice_amount"].sum()
    assert sorted(f["vet_id"]) == sorted(totals[totals > 100].index)


@pytest.mark.parametrize("said", ["宁波的单子，评分为空的是哪些师傅，去重列出来", "宁波的单子，评分为空的是哪些师傅"])
def test_which_values_of_a_column_over_the_rows_kept(homes, said):
    f = result_frame(answered(Session(homes), said))
    assert sorted(f["师傅"]) == sorted(NB.loc[NB["评分"].isna(), "师傅"].unique())


def test_a_columns_distinct_values_are_each_value_once(homes):
    f = result_frame(answered(Session(homes), "宁波的单子 只要师傅这一列的不重复值"))
    assert sorted(f["师傅"]) == sorted(NB["师傅"].unique())


def test_whole_rows_deduplicated_then_a_column_kept_stays_as_said(homes):
    tr = Session(homes).turn("宁波的单子，删除重复行，只保留师傅列")
    assert tr.decision.request.op("dedupe") is not None and tr.decision.request.op("select") is not None


def test_a_pivot_column_said_again_with_a_blank_test_is_a_condition(clinic):
    tr = Session(clinic).turn("visits.xlsx all sheets pivot: vet_id rows, sheet columns, sum of invoice_amount, vet_id not blank")
    q = tr.decision.request.op("filter")
    assert q is not None and [(c.column, c.op) for c in q.args["conditions"]] == [("vet_id", "not_empty")], tr.decision.reply


def test_per_month_over_quarter_sheets_is_the_rows_months(clinic):
    sheets = {q: v.assign(visit_date=pd.to_datetime([f"2024-{1 + 3 * i:02d}-0{k + 1}" for k in range(6)])) for i, (q, v) in enumerate(VISITS.items())}
    write_workbook(clinic.root, "visits.xlsx", sheets)
    s = Session(Workspace.at(clinic.root))
    f = result_frame(answered(s, "visits.xlsx all sheets: sum of invoice_amount per month"))
    both = pd.concat(sheets.values())
    assert f.iloc[:, -1].tolist() == both.groupby(both["visit_date"].dt.to_period("M"))["invoice_amount"].sum().tolist()
    tr = s.turn("line chart of the monthly totals")
    assert "previous result" in tr.decision.reply or tr.run is not None, tr.decision.reply


def test_periods_of_a_column_without_dates_say_so(tmp_path):
    from tools.errors import ToolArgError
    from tools.timeseries import bucket_dates

    with pytest.raises(ToolArgError):
        bucket_dates(pd.DataFrame({"sheet": ["Q1", "Q2"], "x": [1.0, 2.0]}), "sheet", "month", "x")


NBD = NB["下单日期"].dt.day_of_week


@pytest.mark.parametrize(("said", "keep"), [
    ("宁波的单子，周末的", NBD >= 5),
    ("宁波的单子，周一到周五的", NBD < 5),
    ("宁波的单子，周六和周日的", NBD >= 5),
    ("宁波的单子，周末除外", NBD < 5),
    ("宁波的单子，工作日的", NBD < 5),
])
def test_days_of_the_week_are_a_condition_on_the_date(homes, said, keep):
    f = result_frame(answered(Session(homes), said))
    assert sorted(f["订单号"]) == sorted(NB.loc[keep, "订单号"])


def test_days_of_the_week_said_back_and_summarised(homes):
    tr = answered(Session(homes), "宁波的单子，除了周末，按服务类型统计单数")
    conds = tr.decision.request.op("filter").args["conditions"]
    assert [(c.column, c.op, c.value) for c in conds] == [("下单日期", "weekday_not_in", [5, 6])]
    assert conds[0].describe("zh") == "下单日期 不在 周六、周日"
    f = result_frame(tr)
    assert f.set_index("服务类型")["行数"].to_dict() == NB[NBD < 5].groupby("服务类型").size().to_dict()


def test_days_of_the_week_in_english(seasons_dated):
    d = seasons_dated
    f = result_frame(answered(Session(d), "bookings.xlsx Summer: bookings on Saturday or Sunday"))
    su = DATED["Summer"]
    assert sorted(f["Booking Ref"]) == sorted(su.loc[su["Booking Date"].dt.day_of_week >= 5, "Booking Ref"])
    f = result_frame(answered(Session(d), "bookings.xlsx Summer: weekends only, number of bookings per Show"))
    assert f.set_index("Show").iloc[:, 0].to_dict() == su[su["Booking Date"].dt.day_of_week >= 5].groupby("Show").size().to_dict()


def test_by_weekday_stays_a_grouping(seasons_dated):
    tr = Session(seasons_dated).turn("bookings.xlsx Summer: number of bookings by weekday")
    assert tr.decision.request.op("filter") is None


def test_a_model_may_say_days_of_the_week():
    from modes.schema import View, read_answer

    view = View({"s.csv": {"": ("日期", "金额")}}, numeric=frozenset({"金额"}), dates=frozenset({"日期"}))
    a = read_answer({"intent": "work", "query": {"source": {"kind": "file", "file": "s.csv"},
                                                  "where": {"column": "日期", "op": "weekday_in", "value": [5, 6]}}}, view)
    assert a.query is not None and not a.errors
    a = read_answer({"intent": "work", "query": {"source": {"kind": "file", "file": "s.csv"},
                                                  "where": {"column": "日期", "op": "weekday_in", "value": [9]}}}, view)
    assert a.errors


DATED = {s: df.assign(**{"Booking Date": pd.to_datetime(["2024-06-01", "2024-06-03", "2024-06-08", "2024-06-09", "2024-06-12", "2024-06-15"][: len(df)])})
         for s, df in SEASONS.items()}


@pytest.fixture(params=["pandas", "duckdb"])
def seasons_dated(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "bookings.xlsx", DATED)
    return Workspace.at(tmp_path)


FEES = {s: pd.DataFrame({"缴费日期": pd.to_datetime([f"2024-{m:02d}-{d:02d}" for m, d in dates]), "单据号": [f"{s[0]}{i}" for i in range(len(dates))],
                         "房号": rooms, "费用类型": kinds, "金额": money, "收费员": who})
        for s, dates, rooms, kinds, money, who in [
            ("东湖苑", [(1, 5), (2, 9), (4, 1), (7, 3), (8, 8), (9, 20), (11, 2)], ["D1", "D2", "D3", "D1", "D9", "D2", "D3"],
             ["物业费", "停车费", "物业费", "停车费", "停车费", "物业费", "停车费"], [500.0, 300.0, 450.0, 300.0, 280.0, 520.0, 310.0],
             ["王丽", "张敏", None, "王丽", "张敏", "赵刚", "王丽"]),
            ("西湖苑", [(3, 3), (6, 6), (7, 7), (10, 10)], ["X1", "X2", "X8", "X1"], ["物业费", "停车费", "物业费", "停车费"],
             [600.0, 250.0, 610.0, 260.0], ["赵刚", None, "张敏", "王丽"])]}
OWNERS = pd.DataFrame({"房号": ["D1", "D2", "D3", "X1", "X2"], "业主姓名": ["甲", "乙", "丙", "丁", "戊"]})


@pytest.fixture(params=["pandas", "duckdb"])
def fees(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    write_workbook(tmp_path, "收费.xlsx", FEES)
    OWNERS.to_csv(tmp_path / "住户.csv", index=False)
    return Workspace.at(tmp_path)


FALL = pd.concat(FEES.values(), ignore_index=True)


def test_each_ones_share_after_a_total_per_key_drops_the_blank_key(fees):
    s = Session(fees)
    answered(s, "两个小区合起来，每个收费员收了多少钱，从高到低排")
    tr = s.turn("收费员空着的不要，算一下每人占比")
    assert tr.run is None and "收费员不为空" in tr.decision.reply and "占总体的比例" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续"))
    kept = FALL.dropna(subset=["收费员"])
    want = (kept.groupby("收费员")["金额"].sum() / kept["金额"].sum() * 100).round(2).to_dict()
    assert f.set_index("收费员")["占比(%)"].to_dict() == pytest.approx(want)


def test_each_ones_share_said_alone_after_a_total_per_key(fees):
    s = Session(fees)
    answered(s, "两个小区合起来，每个收费员收了多少钱")
    tr = s.turn("各占多少比例")
    assert tr.run is None and "收费员 的 金额 占总体的比例" in tr.decision.reply, tr.decision.reply


def test_not_just_a_value_and_the_whole_year_release_those_conditions(fees):
    s = Session(fees)
    answered(s, "东湖苑第三季度每个月的停车费收入")
    tr = s.turn("按季度汇总全年的呢，不只是停车费")
    assert tr.run is None and "停车费" not in tr.decision.reply and "介于" not in tr.decision.reply and "金额 合计" in tr.decision.reply, tr.decision.reply
    f = result_frame(s.turn("继续"))
    d = FEES["东湖苑"]
    assert f["金额_合计"].tolist() == d.groupby(d["缴费日期"].dt.to_period("Q"))["金额"].sum().tolist()


def test_income_per_month_is_the_money_column(fees):
    f = result_frame(answered(Session(fees), "东湖苑每个月的停车费收入"))
    d = FEES["东湖苑"]
    p = d[d["费用类型"] == "停车费"]
    assert f["金额_合计"].tolist() == p.groupby(p["缴费日期"].dt.to_period("M"))["金额"].sum().tolist()


def test_these_rows_get_a_column_of_another_table(fees):
    s = Session(fees)
    answered(s, "两个小区合起来，单笔金额最高的3笔，停车费除外")
    f = result_frame(answered(s, "这些的业主姓名也带上，从住户.csv匹配"))
    top = FALL[FALL["费用类型"] != "停车费"].nlargest(3, "金额")
    assert sorted(f["单据号"]) == sorted(top["单据号"]) and "业主姓名" in f.columns


@pytest.mark.parametrize("said", ["东湖苑里哪些房号在住户表里找不到", "东湖苑和住户.csv按房号对比，列出东湖苑有但住户表没有的房号"])
def test_rows_the_other_table_has_no_match_for_in_chinese(fees, said):
    f = result_frame(answered(Session(fees), said))
    d = FEES["东湖苑"]
    assert sorted(f["房号"]) == sorted(d.loc[~d["房号"].isin(OWNERS["房号"]), "房号"])


def test_a_yes_no_column_is_never_compared_with_a_number(seasons):
    tr = Session(seasons).turn("bookings.xlsx Summer: the unrefunded bookings over 50")
    f = tr.decision.request.op("filter")
    said = [(c.column, c.op) for c in (f.args["conditions"] if f is not None else [])]
    assert ("Refunded", "gt") not in said and ("Refunded", "ne") in said, tr.decision.reply
