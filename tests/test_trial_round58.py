"""Found by the round-58 probes and trials, each recomputed with pandas on data of its own: values that have an order
of their own (a member tier, a priority, a level) bounded by a rank (金卡以上 / 至少银卡 / Gold or above / above Low) are
the values from that rank up or down, listed in what ran; a bound past the last rank is named back, never dropped."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from conftest import answered, result_frame
from test_trial_round40 import _workspace

from engine.session import Session
from tools.workspace import Workspace

TIERS = ["普通", "银卡", "金卡", "钻石"]
PRIORITY = ["Low", "Medium", "High", "Critical"]


def _members() -> pd.DataFrame:
    n = 48
    return pd.DataFrame({
        "卡号": [f"K{i:04d}" for i in range(n)],
        "等级": [TIERS[(i * 5 + i // 7) % 4] for i in range(n)],
        "年消费": [round(300 + ((i * 37) % 41) * 88.5, 1) for i in range(n)],
        "门店": [["南山店", "福田店", "宝安店"][(i * 2) % 3] for i in range(n)],
    })


def _tickets() -> pd.DataFrame:
    n = 40
    return pd.DataFrame({
        "Ticket": [f"T-{i:03d}" for i in range(n)],
        "Priority": [PRIORITY[(i * 3 + i // 5) % 4] for i in range(n)],
        "Hours Open": [round(1 + ((i * 13) % 29) * 1.7, 1) for i in range(n)],
        "Team": [["Billing", "Network", "Accounts"][i % 3] for i in range(n)],
    })


@pytest.fixture(params=["pandas", "duckdb"])
def gym(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "门店.xlsx", {"汇总": _members().head(5)},
                      {"会员.csv": _members(), "tickets.csv": _tickets()})


def _count(tr) -> int:
    """The number of rows a count answered (满足条件的共有 N 行 / N rows match)."""
    return int(re.search(r"\d+", tr.run.answer or "").group(0))


@pytest.mark.parametrize("said,kept", [
    ("会员.csv 金卡以上的会员有几个", ["金卡", "钻石"]),
    ("会员.csv里银卡及以上的有多少人", ["银卡", "金卡", "钻石"]),
    ("会员.csv 至少是银卡的会员有几个", ["银卡", "金卡", "钻石"]),
    ("会员.csv 等级高于银卡的有几个", ["金卡", "钻石"]),
    ("会员.csv 银卡以下的会员有几个", ["普通", "银卡"]),
])
def test_a_tier_bounded_by_a_rank_keeps_the_ranks_on_that_side(gym, said, kept):
    df = _members()
    tr = answered(Session(gym), said)
    assert _count(tr) == int(df["等级"].isin(kept).sum())
    assert all(k in tr.plan.goalSummary for k in kept), tr.plan.goalSummary  # the ranks kept are said, not only the one named


@pytest.mark.parametrize("said,kept", [
    ("tickets.csv how many tickets are High or above", ["High", "Critical"]),
    ("tickets.csv how many tickets have priority above Low", ["Medium", "High", "Critical"]),
    ("tickets.csv count the tickets that are Medium or lower", ["Low", "Medium"]),
    ("tickets.csv how many tickets are at least Medium priority", ["Medium", "High", "Critical"]),
])
def test_a_priority_bounded_by_a_rank_in_english(gym, said, kept):
    tr = answered(Session(gym), said)
    assert _count(tr) == int(_tickets()["Priority"].isin(kept).sum())


def test_a_bounded_tier_in_a_summary_filters_before_the_average(gym):
    df = _members()
    tr = answered(Session(gym), "会员.csv 金卡以上的会员按门店算平均年消费")
    out = result_frame(tr).set_index("门店")["年消费_平均"]
    want = df[df["等级"].isin(["金卡", "钻石"])].groupby("门店")["年消费"].mean()
    assert out.round(2).to_dict() == want.round(2).to_dict()


def test_a_bound_past_the_last_rank_is_named_back(gym):
    tr = Session(gym).turn("会员.csv 高于钻石的会员有几个")
    assert tr.run is None
    assert "高于" in (tr.decision.reply or "")


def test_values_of_no_known_order_are_not_ranked(gym):
    """门店 has no order: 南山店以上 is a bound no rule reads, named back, never a set of stores."""
    tr = Session(gym).turn("会员.csv 南山店以上的会员有几个")
    assert tr.run is None
    assert "以上" in (tr.decision.reply or "")


SHOPS = ["东湖店", "光谷店", "汉口店"]


def _shop(k: int) -> pd.DataFrame:
    n = 30
    return pd.DataFrame({
        "单号": [f"D{k}{i:03d}" for i in range(n)],
        "到店时间": pd.to_datetime("2025-02-01") + pd.to_timedelta([(i * 7 + k) % 120 for i in range(n)], unit="D"),
        "项目": [["洗护", "造型", "驱虫", "修甲"][(i * 3 + k) % 4] for i in range(n)],
        "技师": [["阿梅", "小周", "老陈"][(i + k) % 3] for i in range(n)],
        "实收": [round(60 + ((i * 17 + k * 5) % 23) * 13.5, 1) for i in range(n)],
        "会员价": [["是", "否", "否"][(i * 2 + k) % 3] for i in range(n)],
    })


STACKED = pd.concat([_shop(k).assign(工作表=name) for k, name in enumerate(SHOPS)], ignore_index=True)


@pytest.fixture(params=["pandas", "duckdb"])
def shops(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "到店记录.xlsx", {n: _shop(k) for k, n in enumerate(SHOPS)},
                      {"技师.csv": pd.DataFrame({"技师": ["阿梅", "小周", "老陈"], "工龄": [3, 5, 9]})})


@pytest.mark.parametrize("said", ["到店记录.xlsx 各门店各项目的实收合计", "到店记录.xlsx 每个店每个项目的实收合计",
                                  "到店记录.xlsx 按门店和项目汇总实收", "到店记录.xlsx 按工作表和项目汇总实收"])
def test_the_sheets_noun_and_a_key_are_two_keys(shops, said):
    """门店 of sheets named 东湖店 / 光谷店 (the everyday word of their 店), and a column: both keys; never 到店时间, the
    column whose name holds 店, and never the sheets alone with the key dropped."""
    tr = answered(Session(shops), said)
    out = result_frame(tr).set_index(["工作表", "项目"])["实收_合计"]
    want = STACKED.groupby(["工作表", "项目"])["实收"].sum()
    assert out.round(2).sort_index().to_dict() == want.round(2).sort_index().to_dict()


def test_a_pivot_with_the_sheets_noun_as_its_columns(shops):
    tr = answered(Session(shops), "到店记录.xlsx 做个透视表，行是项目，列是门店，值是实收合计")
    out = result_frame(tr).set_index("项目").drop(index="合计", errors="ignore")  # (the pivot's total row)
    want = STACKED.pivot_table(index="项目", columns="工作表", values="实收", aggfunc="sum")
    for shop in SHOPS:
        assert out[shop].round(2).to_dict() == want[shop].round(2).to_dict()


@pytest.mark.parametrize("said", ["到店记录.xlsx 东湖店 每个技师的单数，以及其中会员价的单数", "到店记录.xlsx 东湖店 每个技师做了多少单，其中会员价的有几单"])
def test_a_count_per_key_and_of_a_flag_among_them(shops, said):
    df = _shop(0)
    tr = answered(Session(shops), said)
    out = result_frame(tr).set_index("技师")
    assert out.iloc[:, 0].to_dict() == df.groupby("技师").size().to_dict()
    assert out.iloc[:, 1].to_dict() == df[df["会员价"] == "是"].groupby("技师").size().reindex(out.index, fill_value=0).to_dict()


def test_a_flag_then_its_count_per_key_filters_the_rows(shops):
    df = _shop(0)
    tr = answered(Session(shops), "到店记录.xlsx 东湖店 每个技师会员价的单数")
    out = result_frame(tr).set_index("技师").iloc[:, -1]
    assert out.to_dict() == df[df["会员价"] == "是"].groupby("技师").size().to_dict()


AREAS = ["东苑", "西苑", "南苑"]
ROOMS = [f"{b}-{f}0{u}" for b in ("A", "B") for f in range(1, 5) for u in (1, 2)]


def _tasks(k: int) -> pd.DataFrame:
    n = 40
    return pd.DataFrame({
        "任务号": [f"T{k}{i:03d}" for i in range(n)],
        "上报时间": pd.to_datetime("2024-01-05") + pd.to_timedelta([(i * 9 + k * 4) % 350 for i in range(n)], unit="D"),
        "完成时间": pd.to_datetime("2024-01-05") + pd.to_timedelta([(i * 9 + k * 4) % 350 + 1 + i % 3 for i in range(n)], unit="D"),
        "房号": [ROOMS[(i * 5 + k) % len(ROOMS)] for i in range(n)],
        "类型": [["水电", "门窗", "电梯", "墙面"][(i + k) % 4] for i in range(n)],
        "维修工": [["老李", "小孙", "大刘"][(i * 2 + k) % 3] for i in range(n)],
        "耗时小时": [round(0.5 + ((i * 7 + k) % 13) * 0.5, 1) for i in range(n)],
        "材料费": [0 if (i + k) % 5 == 0 else 20 + ((i * 11 + k) % 17) * 9 for i in range(n)],
    })


def _payments() -> pd.DataFrame:
    n = 60
    return pd.DataFrame({
        "流水号": [f"P{i:04d}" for i in range(n)],
        "房号": [ROOMS[i % len(ROOMS)] for i in range(n)],
        "缴费日期": pd.to_datetime("2024-01-03") + pd.to_timedelta([(i * 23) % 360 for i in range(n)], unit="D"),
        "金额": [round(150 + ((i * 29) % 31) * 17.3, 2) for i in range(n)],
        "支付方式": [["微信", "支付宝", "现金"][(i * 2 + i // 4) % 3] for i in range(n)],
    })


RESIDENTS = pd.DataFrame({"房号": ROOMS, "住户": [f"住户{i}" for i in range(len(ROOMS))],
                          "所属片区": [AREAS[i % 3] for i in range(len(ROOMS))], "欠费月数": [(i * 3) % 4 for i in range(len(ROOMS))]})
TASKS = pd.concat([_tasks(k).assign(工作表=a) for k, a in enumerate(AREAS)], ignore_index=True)


@pytest.fixture(params=["pandas", "duckdb"])
def estate(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "维护记录.xlsx", {a: _tasks(k) for k, a in enumerate(AREAS)},
                      {"住户.csv": RESIDENTS, "缴费.csv": _payments()})


def test_the_noun_of_a_column_whose_values_are_the_sheets(estate):
    """所属片区 of 住户.csv holds the sheets' names: 每个片区 over the workbook's rows is each sheet, never 耗时小时 (a
    column that shares no word with it), and 多少任务 counts the rows numbered by 任务号."""
    tr = answered(Session(estate), "每个片区各有多少任务？三个表一起看")
    out = result_frame(tr).set_index("工作表").iloc[:, -1]
    assert out.to_dict() == TASKS.groupby("工作表").size().to_dict()


def test_a_pivot_by_that_noun_and_a_column(estate):
    tr = answered(Session(estate), "按片区和类型做个透视表，值是任务数")
    out = result_frame(tr).set_index("工作表").drop(index="合计", errors="ignore")
    want = TASKS.pivot_table(index="工作表", columns="类型", values="任务号", aggfunc="count")
    for kind in want.columns:
        assert out[kind].to_dict() == want[kind].to_dict()


def test_a_key_said_as_a_longer_word_than_a_column_is_asked(estate):
    """维修等级: 维修 begins 维修工, but 等级 goes on the noun: no such column, asked — never 维修工 silently."""
    tr = Session(estate).turn("维护记录.xlsx 东苑按维修等级统计一下任务数")
    assert tr.run is None
    assert "维修等级" in (tr.decision.reply or "")


def test_each_row_counted_by_the_noun_of_its_number(estate):
    tr = answered(Session(estate), "维护记录.xlsx 东苑每个维修工各有多少任务")
    out = result_frame(tr).set_index("维修工").iloc[:, -1]
    assert out.to_dict() == _tasks(0).groupby("维修工").size().to_dict()


def test_the_shares_of_the_money_asked(estate):
    df = _payments()
    tr = answered(Session(estate), "缴费.csv里每种支付方式收了多少钱，占比多少")
    out = result_frame(tr).set_index("支付方式")
    share = [c for c in out.columns if "占比" in c][0]
    want = df.groupby("支付方式")["金额"].sum() / df["金额"].sum() * 100
    assert out[share].round(1).to_dict() == want.round(1).to_dict()


@pytest.mark.parametrize("said", ["缴费.csv 9月以后（含9月）缴的费，按月统计金额",
                                  "缴费.csv，缴费日期在2024-09-01及以后的，按缴费日期的月份汇总金额"])
def test_from_a_month_on_then_per_month(estate, said):
    df = _payments()
    tr = answered(Session(estate), said)
    out = result_frame(tr)
    late = df[df["缴费日期"] >= "2024-09-01"]
    want = late.groupby(late["缴费日期"].dt.month)["金额"].sum()
    assert len(out) == len(want) > 1
    assert round(float(out.iloc[:, -1].sum()), 2) == round(float(late["金额"].sum()), 2)


def test_what_share_said_at_the_end_of_the_clause(estate):
    df = _tasks(1)
    tr = answered(Session(estate), "维护记录.xlsx 西苑材料费为0的任务占多少")
    want = round((df["材料费"] == 0).mean() * 100, 1)
    assert f"{want}%" in (tr.run.answer or "").replace(" ", ""), tr.run.answer


def test_the_result_joined_then_its_households_counted(estate):
    s = Session(estate)
    answered(s, "维护记录.xlsx 东苑按房号统计任务数，取最多的前5个")
    tr = answered(s, "这个结果按房号关联住户.csv")
    assert len(result_frame(tr)) == 5
    top = _tasks(0).groupby("房号").size().sort_values(ascending=False, kind="stable").head(5).reset_index().merge(RESIDENTS, on="房号")
    tr = answered(s, "这个结果里欠费月数大于0的有几户")
    assert _count(tr) == int((top["欠费月数"] > 0).sum())


@pytest.mark.parametrize("said", ["维护记录.xlsx 东苑周末上报的任务占多少比例？按上报时间算", "维护记录.xlsx 东苑周末上报的任务占多少比例"])
def test_a_period_of_the_date_column_its_verb_names(estate, said):
    """周末上报的, over 上报时间 and 完成时间: the date column whose name the verb begins; 按上报时间算 says which date,
    never a key of the share."""
    df = _tasks(0)
    tr = answered(Session(estate), said)
    want = round((df["上报时间"].dt.day_of_week >= 5).mean() * 100, 1)
    assert f"{want}%" in (tr.run.answer or "").replace(" ", ""), tr.run.answer


REGIONS = ["North", "Central", "Coast"]


def _bookings(k: int) -> pd.DataFrame:
    n = 36
    return pd.DataFrame({
        "Booking Ref": [f"{r[:2].upper()}-{k}{i:03d}" for i, r in zip(range(n), [REGIONS[k]] * n, strict=True)],
        "Event Date": pd.to_datetime("2024-02-01") + pd.to_timedelta([(i * 8 + k * 3) % 320 for i in range(n)], unit="D"),
        "Event Type": [["Wedding", "Corporate", "Birthday"][(i * 2 + k) % 3] for i in range(n)],
        "Menu": [["Buffet", "Three Course", "Canape", "BBQ"][(i + k * 2 + i // 3) % 4] for i in range(n)],
        "Guests": [20 + (i * 13 + k) % 90 for i in range(n)],
        "Invoice Total": [round(900 + ((i * 31 + k) % 37) * 142.5, 2) for i in range(n)],
    })


EVENTS = pd.concat([_bookings(k).assign(sheet=r) for k, r in enumerate(REGIONS)], ignore_index=True)


@pytest.fixture(params=["pandas", "duckdb"])
def catering(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "events_2024.xlsx", {r: _bookings(k) for k, r in enumerate(REGIONS)},
                      {"clients.csv": pd.DataFrame({"Client": ["Acme", "Birch"], "Sector": ["Retail", "Legal"]})})


def test_a_pivot_per_key_per_sheet_counts_the_rows_noun(catering):
    """count bookings per event type per sheet as a pivot: bookings are the rows (never Booking Ref across the top, one
    column per booking), the sheets across the top."""
    tr = answered(Session(catering), "events_2024.xlsx count bookings per event type per sheet as a pivot")
    out = result_frame(tr).set_index("Event Type").drop(index=["Total", "合计"], errors="ignore")
    want = pd.crosstab(EVENTS["Event Type"], EVENTS["sheet"])
    assert set(REGIONS) <= set(out.columns), list(out.columns)
    for r in REGIONS:
        assert out[r].to_dict() == want[r].to_dict()


def test_all_the_sheets_said_after_a_question_mark(catering):
    tr = answered(Session(catering), "events_2024.xlsx how many weddings per menu? all regions")
    out = result_frame(tr).set_index("Menu").iloc[:, -1]
    want = EVENTS[EVENTS["Event Type"] == "Wedding"].groupby("Menu").size()
    assert out.to_dict() == want.to_dict()


def test_a_total_column_asked_alone_of_the_rows_just_shown(catering):
    s = Session(catering)
    answered(s, "events_2024.xlsx Central rows with Event Date in the first half of 2024")
    tr = answered(s, "and the invoice total of those?")
    df = _bookings(1)
    want = df[df["Event Date"] < "2024-07-01"]["Invoice Total"].sum()
    assert f"{want:g}" in (tr.run.answer or "").replace(",", ""), tr.run.answer


def test_rows_made_after_a_day_are_of_the_date_they_were_made(catering, tmp_path):
    """Bookings made after …, over Event Date and a date the row was made (Booked On): that one."""
    df = _bookings(0).assign(**{"Booked On": lambda d: d["Event Date"] - pd.to_timedelta(40, unit="D")})
    df.to_csv(catering.root / "north.csv", index=False)
    tr = answered(Session(Workspace.at(catering.root)), "north.csv how many bookings made after 1 June 2024?")
    assert _count(tr) == int((df["Booked On"] > "2024-06-01").sum())


def test_a_word_that_ends_with_a_files_name_is_no_mention_of_it(catering):
    (catering.root / "ld.py").write_text("print(1)\n", encoding="utf-8")
    s = Session(Workspace.at(catering.root))
    first = s.turn("events_2024.xlsx how many weddings were held on the North sheet?")
    assert "ld.py" not in (first.decision.reply or "")
    tr = first if first.run is not None else s.turn("go")
    assert tr.run is not None and _count(tr) == int((_bookings(0)["Event Type"] == "Wedding").sum())


def test_cancel_typed_in_english_to_a_chinese_question_is_answered_in_english(catering):
    s = Session(catering)
    first = s.turn("events_2024.xlsx 按日期统计")
    assert first.run is None and first.decision.lang == "zh"
    tr = s.turn("cancel")
    assert not re.search(r"[\u4e00-\u9fff]", tr.decision.reply or ""), tr.decision.reply


def test_a_share_of_all_of_a_larger_set_after_a_count(catering):
    """and what share of all weddings is that?, after weekend weddings counted: the weekend ones over all the weddings,
    never over the rows just counted (100%)."""
    s = Session(catering)
    answered(s, "events_2024.xlsx how many weddings were on a weekend? all three sheets")
    tr = answered(s, "and what share of all weddings is that?")
    w = EVENTS[EVENTS["Event Type"] == "Wedding"]
    want = round((w["Event Date"].dt.day_of_week >= 5).mean() * 100, 2)
    assert f"{want}%" in (tr.run.answer or ""), tr.run.answer


def test_a_flag_said_negated_after_a_comparison_is_the_flags(estate):
    """材料费大于100且不是超时的, over 是否超时: the flag negated, never 材料费 ≠ 超时 (true of every row)."""
    df = _tasks(2).assign(是否超时=lambda d: ["是" if i % 4 == 0 else "否" for i in range(len(d))])
    df.to_csv(estate.root / "南苑工单.csv", index=False)
    tr = answered(Session(Workspace.at(estate.root)), "南苑工单.csv 材料费大于100 且 不是超时 的记录")
    assert len(result_frame(tr)) == int(((df["材料费"] > 100) & (df["是否超时"] != "是")).sum())


@pytest.mark.parametrize("said", ["维护记录.xlsx 东苑最近一个月的材料费合计", "维护记录.xlsx 东苑近30天材料费一共多少"])
def test_a_recent_period_no_rule_reads_is_named_back(estate, said):
    tr = Session(estate).turn(said)
    assert tr.run is None and ("最近一个月" in tr.decision.reply or "近30天" in tr.decision.reply), tr.decision.reply


def _rentals(k: int) -> pd.DataFrame:
    n = 30
    return pd.DataFrame({
        "Rental ID": [f"R{k}{i:03d}" for i in range(n)],
        "Pickup Date": pd.to_datetime("2024-01-04") + pd.to_timedelta([(i * 11 + k * 5) % 360 for i in range(n)], unit="D"),
        "Vehicle Class": [["Economy", "Compact", "SUV", "Van"][(i + k) % 4] for i in range(n)],
        "Agent": [["Priya", "Tom", "Sam"][(i * 2 + k) % 3] for i in range(n)],
        "Rental Days": [1 + (i * 5 + k) % 9 for i in range(n)],
        "Total Charged": [round(60 + ((i * 37 + k) % 41) * 21.5, 2) for i in range(n)],
        "Extras": [None if (i + k) % 6 == 0 else ["GPS", "Child seat"][i % 2] for i in range(n)],
    })


BRANCHES = ["Airport", "Downtown", "Harbor"]
RENTALS = pd.concat([_rentals(k).assign(sheet=b) for k, b in enumerate(BRANCHES)], ignore_index=True)


@pytest.fixture(params=["pandas", "duckdb"])
def rental(tmp_path, monkeypatch, request) -> Workspace:
    fleet = pd.DataFrame({"Vehicle Plate": ["P1", "P2", "P3"], "Make": ["Kia", "VW", "Ford"], "Home Branch": BRANCHES})
    return _workspace(tmp_path, monkeypatch, request.param, "rentals_2024.xlsx", {b: _rentals(k) for k, b in enumerate(BRANCHES)},
                      {"fleet.csv": fleet})


def test_not_two_values_then_a_blank_said_with_its_own_verb(rental):
    df = _rentals(0)
    tr = answered(Session(rental), "rentals_2024.xlsx Airport rentals where the vehicle class is not Economy and not Compact and extras are blank")
    want = df[~df["Vehicle Class"].isin(["Economy", "Compact"]) & df["Extras"].isna()]
    assert sorted(result_frame(tr)["Rental ID"]) == sorted(want["Rental ID"])


def test_a_period_said_after_is_in_is_read_once(rental):
    tr = answered(Session(rental), "sum of Total Charged for all sheets of rentals_2024.xlsx where Pickup Date is in H1 2024")
    want = RENTALS[RENTALS["Pickup Date"] < "2024-07-01"]["Total Charged"].sum()
    assert f"{want:g}" in (tr.run.answer or "").replace(",", ""), tr.run.answer


def test_per_the_rows_noun_is_per_row(rental):
    """average Total Charged per rental, over Rental ID and Rental Days: each rental's mean, never Total ÷ Rental Days."""
    tr = answered(Session(rental), "rentals_2024.xlsx Airport average Total Charged per rental for each agent, highest first")
    out = result_frame(tr).set_index("Agent").iloc[:, 0]
    want = _rentals(0).groupby("Agent")["Total Charged"].mean()
    assert out.round(2).to_dict() == want.round(2).to_dict()
    assert list(out.index) == list(want.sort_values(ascending=False).index)


def test_how_many_of_the_rows_noun_per_a_noun_of_another_tables_column(rental):
    """how many rentals per branch: Home Branch of fleet.csv holds the sheets' names, so a branch is a sheet; rentals are
    the rows (never Rental Days summed)."""
    tr = answered(Session(rental), "how many rentals per branch")
    out = result_frame(tr).set_index("sheet").iloc[:, -1]
    assert out.to_dict() == RENTALS.groupby("sheet").size().to_dict()


def test_a_figure_per_unit_is_averaged_in_a_summary_of_every_column(rental, tmp_path):
    """summarise by Vehicle Class: the plan says prices and rates are averaged, and Daily Rate is (never a sum of rates)."""
    df = _rentals(2).assign(**{"Daily Rate": lambda d: (d["Total Charged"] / d["Rental Days"]).round(2)})
    df.to_csv(rental.root / "harbor.csv", index=False)
    tr = answered(Session(Workspace.at(rental.root)), "harbor.csv summarise by Vehicle Class")
    out = result_frame(tr).set_index("Vehicle Class")
    assert out["Daily Rate_mean"].round(2).to_dict() == df.groupby("Vehicle Class")["Daily Rate"].mean().round(2).to_dict()
    assert out["Total Charged_sum"].round(2).to_dict() == df.groupby("Vehicle Class")["Total Charged"].sum().round(2).to_dict()
