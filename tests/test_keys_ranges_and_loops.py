"""Six kinds of language a new user wrote that were restated, dropped or misread, run for real through a session:
a ranking of a key that repeats across rows, conditions in brackets and yes/no columns, "in each X", ranges of
years over a date column or over year-named columns, cell values that look like chat, and a question asked twice.

Every result is recomputed here with pandas on data generated in the test.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import header
from test_letter_case import talk as confirmed

from engine.session import Session, TurnResult
from tools.workspace import Workspace

WAITS = ("restate_confirm", "plan_confirm", "ask_slots", "ask_intent")


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("keys")
    rng = np.random.default_rng(11)
    n = 90
    people = ["张伟", "李娜", "王芳", "刘洋", "陈静"]
    pd.DataFrame({
        "订单号": [f"T{i:03d}" for i in range(n)],
        "日期": pd.date_range("2018-01-10", periods=n, freq="29D").strftime("%Y-%m-%d"),
        "区域": rng.choice(["华东", "华南", "华北"], n),
        "销售员": rng.choice(people, n),
        "渠道": rng.choice(["ONLINE", "OFFLINE"], n),
        "退货": rng.choice(["是", "否"], n, p=[0.2, 0.8]),
        "数量": rng.integers(1, 20, n),
        "销售额": rng.integers(500, 30000, n),
    }).to_csv(root / "orders.csv", index=False)
    pd.DataFrame({
        "salesperson": rng.choice(["Ann", "Bob", "Cid", "Dee"], 40),
        "region": rng.choice(["North", "South"], 40),
        "revenue": rng.integers(100, 9000, 40),
    }).to_csv(root / "deals.csv", index=False)
    pd.DataFrame({"省份": ["江苏", "浙江", "广东", "四川"], **{f"{y}年": rng.integers(100, 900, 4) for y in range(2016, 2024)}}).to_csv(
        root / "output.csv", index=False)
    return root


def orders(root: Path) -> pd.DataFrame:
    return pd.read_csv(root / "orders.csv")


def run(root: Path, turns: list[str]) -> TurnResult:
    tr = confirmed(root, *turns)
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.next, tr.decision.reply)
    return tr


def table(root: Path, tr: TurnResult) -> pd.DataFrame:
    assert tr.run is not None
    files = [f["path"] for f in tr.run.files if f["path"].endswith(".csv")]
    if files:
        return pd.read_csv(root / files[0])
    assert tr.run.table is not None, tr.run.answer
    return tr.run.table.reset_index(drop=True)


def figure_column(got: pd.DataFrame, measure: str) -> str:
    return next(c for c in got.columns if c.startswith(measure))


# ---------------------------------------------------------------- 1. a ranking of a key that repeats is a ranking of its total


RANKED_KEYS = [
    ("orders.csv 销售额排名前三的销售员是谁", "销售员", "销售额", "sum", 3, False),
    ("orders.csv 销售额最高的三个销售员", "销售员", "销售额", "sum", 3, False),
    ("orders.csv 总销售额前2的区域", "区域", "销售额", "sum", 2, False),
    ("orders.csv 平均销售额最低的2个区域", "区域", "销售额", "mean", 2, True),
    ("orders.csv 数量前两名的销售员", "销售员", "数量", "sum", 2, False),
    ("who are the top 3 salesperson by revenue in deals.csv", "salesperson", "revenue", "sum", 3, False),
    ("deals.csv top 2 salesperson by revenue", "salesperson", "revenue", "sum", 2, False),
]


@pytest.mark.parametrize("utterance,key,measure,agg,n,low", RANKED_KEYS)
def test_a_ranking_of_a_repeating_key_ranks_its_total(ws, utterance, key, measure, agg, n, low):
    df = pd.read_csv(ws / ("deals.csv" if "deals" in utterance else "orders.csv"))
    want = df.groupby(key)[measure].agg(agg).sort_values(ascending=low).head(n)
    tr = run(ws, [utterance])
    got = table(ws, tr)
    assert list(got[key]) == list(want.index), (got, want)
    assert list(got[figure_column(got, measure)]) == pytest.approx(list(want.values))
    answer = tr.run.answer or ""
    assert str(want.index[0]) in answer and (key in answer), answer  # says it ranked per key


def test_a_ranking_of_unique_rows_stays_a_row_ranking(ws):
    df = orders(ws)
    tr = run(ws, ["orders.csv 销售额前5的订单号"])
    got = table(ws, tr)
    assert sorted(got["订单号"]) == sorted(df.nlargest(5, "销售额")["订单号"])


# ---------------------------------------------------------------- 2. brackets and yes/no columns hold conditions


def _flags(df: pd.DataFrame, regions: list[str], qty: int | None, returned: bool | None) -> pd.DataFrame:
    keep = df["区域"].isin(regions) if regions else pd.Series(True, index=df.index)
    if qty is not None:
        keep &= df["数量"] >= qty
    if returned is not None:
        keep &= (df["退货"] == "是") if returned else (df["退货"] != "是")
    return df[keep]


BRACKETS = [
    ("orders.csv 区域是华东或华南（不包括退货的），数量不少于5", ["华东", "华南"], 5, False),
    ("orders.csv 区域是华北(不含退货)，数量至少8", ["华北"], 8, False),
    ("orders.csv 区域是华南[不算退货的]，数量不少于3", ["华南"], 3, False),
    ("orders.csv 区域是华东，不包括退货的，数量不少于10", ["华东"], 10, False),
    ("orders.csv 筛选退货的订单", [], None, True),
    ("orders.csv 没有退货的订单", [], None, False),
    ("orders.csv 筛选区域是华北（数量不少于10）的订单", ["华北"], 10, None),
]


@pytest.mark.parametrize("utterance,regions,qty,returned", BRACKETS)
def test_a_condition_in_brackets_or_on_a_yes_no_column_is_kept(ws, utterance, regions, qty, returned):
    want = _flags(orders(ws), regions, qty, returned)
    got = table(ws, run(ws, [utterance]))
    assert sorted(got["订单号"]) == sorted(want["订单号"])


def test_grouping_by_a_yes_no_column_is_a_key_not_a_condition(ws):
    df = orders(ws)
    got = table(ws, run(ws, ["orders.csv 按退货分组汇总销售额"]))
    assert dict(zip(got["退货"], got[figure_column(got, "销售额")], strict=True)) == df.groupby("退货")["销售额"].sum().to_dict()


# ---------------------------------------------------------------- 4. in each X / for each X / per X / 每个X里


PER_GROUP = [
    ("orders.csv total 销售额 in each 区域", "区域", "销售额", "sum"),
    ("orders.csv sum of 数量 in every 销售员", "销售员", "数量", "sum"),
    ("orders.csv average 销售额 for each 渠道", "渠道", "销售额", "mean"),
    ("orders.csv the highest 销售额 in each 区域", "区域", "销售额", "max"),
    ("orders.csv 每个区域里销售额的合计", "区域", "销售额", "sum"),
    ("orders.csv 每个区域最高的销售额", "区域", "销售额", "max"),
    ("orders.csv 每个销售员里最低的数量", "销售员", "数量", "min"),
    ("deals.csv lowest revenue per region", "region", "revenue", "min"),
]


@pytest.mark.parametrize("utterance,key,measure,agg", PER_GROUP)
def test_in_each_x_is_per_group(ws, utterance, key, measure, agg):
    df = pd.read_csv(ws / ("deals.csv" if "deals" in utterance else "orders.csv"))
    got = table(ws, run(ws, [utterance]))
    want = df.groupby(key)[measure].agg(agg)
    assert dict(zip(got[key], got[figure_column(got, measure)], strict=True)) == pytest.approx(want.to_dict())


@pytest.mark.parametrize("utterance", ["orders.csv in each 区域, the top 2 orders by 销售额", "orders.csv the top 2 orders by 销售额 within each 区域",
                                       "orders.csv 每个区域里销售额最高的2笔订单"])
def test_the_top_rows_in_each_group_are_rows_of_each_group(ws, utterance):
    df = orders(ws)
    want = df.sort_values("销售额", ascending=False).groupby("区域").head(2)
    got = table(ws, run(ws, [utterance]))
    assert sorted(got["订单号"]) == sorted(want["订单号"])


def test_how_many_in_each_group_counts_rows(ws):
    df = orders(ws)
    got = table(ws, run(ws, ["orders.csv how many orders in each 区域"]))
    count = next(c for c in got.columns if c not in ("区域",))
    assert dict(zip(got["区域"], got[count], strict=True)) == df.groupby("区域").size().to_dict()


# ---------------------------------------------------------------- 5. a range of years is a range, both ends included


DATE_RANGES = [
    ("orders.csv 从2019年到2020年的销售额合计", 2019, 2020),
    ("orders.csv 2018年至2019年的销售额合计", 2018, 2019),
    ("orders.csv 日期在2019年到2021年之间的销售额合计", 2019, 2021),
    ("orders.csv total 销售额 from 2019 to 2020", 2019, 2020),
    ("orders.csv total 销售额 between 2018年 and 2020年", 2018, 2020),
    ("orders.csv 2019年3月到2019年8月的销售额合计", (2019, 3), (2019, 8)),
]


@pytest.mark.parametrize("utterance,first,last", DATE_RANGES)
def test_a_range_of_periods_over_a_date_column(ws, utterance, first, last):
    df = orders(ws)
    d = pd.to_datetime(df["日期"])
    if isinstance(first, tuple):
        ym = d.dt.year * 100 + d.dt.month
        keep = (ym >= first[0] * 100 + first[1]) & (ym <= last[0] * 100 + last[1])
    else:
        keep = (d.dt.year >= first) & (d.dt.year <= last)
    want = int(df.loc[keep, "销售额"].sum())
    got = table(ws, run(ws, [utterance]))
    assert len(got) == 1 and got[figure_column(got, "销售额")].iloc[0] == want, (got, want)


def test_bare_years_after_a_numeric_column_are_said_not_guessed(ws):
    s = Session(Workspace.at(ws))
    tr = s.turn("orders.csv 销售额在2018到2020之间的订单")
    assert tr.run is None and tr.decision.next == "restate_confirm", tr.decision.reply
    assert "不是年份" in tr.decision.reply


YEAR_COLUMNS = [
    ("output.csv 各省份2018年到2021年的合计", 2018, 2021, "合计", "sum"),
    ("output.csv 从2017年至2020年每个省份的总和", 2017, 2020, "合计", "sum"),
    ("output.csv 2019年至2022年的平均值", 2019, 2022, "平均", "mean"),
    ("output.csv total between 2018年 and 2021年", 2018, 2021, "合计", "sum"),
    ("output.csv average of each 省份 from 2016年 to 2019年", 2016, 2019, "平均", "mean"),
]


@pytest.mark.parametrize("utterance,first,last,column,agg", YEAR_COLUMNS)
def test_a_range_of_year_named_columns(ws, utterance, first, last, column, agg):
    df = pd.read_csv(ws / "output.csv").set_index("省份")
    want = df[[f"{y}年" for y in range(first, last + 1)]].agg(agg, axis=1)
    tr = run(ws, [utterance])
    got = table(ws, tr)
    assert dict(zip(got["省份"], got[header(tr, column)], strict=True)) == pytest.approx(want.to_dict(), abs=1e-3)


# ---------------------------------------------------------------- 6. words of the data are data, never chat


ONE_FILE_VALUES = [
    ("渠道是ONLINE的订单", lambda df: df[df["渠道"] == "ONLINE"]),
    ("filter online", lambda df: df[df["渠道"] == "ONLINE"]),
    ("show me the ONLINE orders", lambda df: df[df["渠道"] == "ONLINE"]),
    ("ONLINE的订单里区域是华东的", lambda df: df[(df["渠道"] == "ONLINE") & (df["区域"] == "华东")]),
    ("rows where 渠道 is offline", lambda df: df[df["渠道"] == "OFFLINE"]),
]


@pytest.fixture(scope="module")
def one_file(tmp_path_factory: pytest.TempPathFactory, ws: Path) -> Path:
    root = tmp_path_factory.mktemp("onefile")
    (root / "orders.csv").write_bytes((ws / "orders.csv").read_bytes())
    return root


@pytest.mark.parametrize("utterance,keep", ONE_FILE_VALUES)
def test_a_cell_value_that_looks_like_chat_is_data(one_file, utterance, keep):
    want = keep(orders(one_file))
    tr = run(one_file, [utterance])
    assert sorted(table(one_file, tr)["订单号"]) == sorted(want["订单号"])


@pytest.mark.parametrize("utterance,agg", [("ONLINE的销售额合计是多少", "sum"), ("ONLINE的平均销售额是多少", "mean"), ("华东的销售额合计是多少", "sum")])
def test_a_total_of_a_value_is_a_total_never_a_list_of_rows(one_file, utterance, agg):
    df = orders(one_file)
    col, val = ("渠道", "ONLINE") if "ONLINE" in utterance else ("区域", "华东")
    want = df.loc[df[col] == val, "销售额"].agg(agg)
    tr = run(one_file, [utterance])
    said = tr.run.answer or ""
    assert any(f in said for f in (f"{want:,.2f}".rstrip("0").rstrip("."), f"{round(want, 2)}", f"{int(want)}" if float(want).is_integer() else "§")), (want, said)


@pytest.mark.parametrize("utterance,kind", [("你能联网吗", "privacy"), ("are you online", None), ("is my data uploaded anywhere?", "privacy"),
                                            ("你是谁", "about")])
def test_questions_about_wenqing_stay_chat_beside_such_data(one_file, utterance, kind):
    tr = Session(Workspace.at(one_file)).turn(utterance)
    assert tr.run is None and tr.decision.gate == "chat", tr.decision.reply
    if kind:
        assert tr.decision.rule == f"chat:{kind}"


# ---------------------------------------------------------------- 3. the same question is never asked twice in a row


LOOPS = [
    ["orders.csv 按那个分组", "用名称这一列", "就是名称", "名称啊"],
    ["orders.csv 排个序", "按那个排", "按那个排"],
    ["筛选一下 orders.csv", "筛选一下", "筛选一下"],
    ["sort orders.csv", "that one", "that one"],
    ["帮我弄一下", "弄一下", "弄一下", "弄一下"],
    ["orders.csv 只保留几列", "那几列", "就那几列"],
]


@pytest.mark.parametrize("turns", LOOPS)
def test_a_question_is_never_asked_twice_in_a_row(ws, turns):
    s = Session(Workspace.at(ws))
    replies = [s.turn(t).decision for t in turns]
    asked = [d.reply for d in replies if d.next in WAITS]
    assert len(asked) == len(turns), [d.next for d in replies]  # nothing ran
    for a, b in zip(asked, asked[1:], strict=False):
        assert a != b, a
    later = replies[-1].reply
    assert ("对上" in later or "could not match" in later) and turns[-1][:4] in later, later  # what it could not match


def test_the_second_time_offers_the_file_s_columns(ws):
    s = Session(Workspace.at(ws))
    s.turn("orders.csv 按那个分组")
    d = s.turn("用名称这一列").decision
    assert all(c in d.reply for c in ("区域", "销售员", "渠道")), d.reply
    done = s.turn("销售员")
    assert done.decision.next == "restate_confirm" and "销售员" in done.decision.reply


@pytest.mark.parametrize("turns,way_out", [
    (["orders.csv 按那个分组", "用名称这一列", "就是名称"], ("取消", "换个说法")),
    (["sort orders.csv", "that one", "the other one"], ("'cancel'", "other words")),
])
def test_after_two_answers_that_fit_nothing_it_offers_a_way_out_not_the_question(ws, turns, way_out):
    s = Session(Workspace.at(ws))
    first, failed_once, failed_twice = (s.turn(t).decision for t in turns)
    assert first.next == "ask_slots"
    assert "销售员" in failed_once.reply or "region" in failed_once.reply or "区域" in failed_once.reply, failed_once.reply  # the answers that would fit
    assert failed_twice.next == "ask_slots" and all(w in failed_twice.reply for w in way_out), failed_twice.reply
    assert "销售员" not in failed_twice.reply and first.reply not in failed_twice.reply  # not asked a third time
    assert turns[-1] in failed_twice.reply
    assert s.turn("取消" if way_out[0] == "取消" else "cancel").decision.next == "cancel"  # the way out works


def test_a_fitting_answer_after_the_way_out_still_fills_the_slot(ws):
    s = Session(Workspace.at(ws))
    for t in ("orders.csv 按那个分组", "用名称这一列", "就是名称"):
        s.turn(t)
    done = s.turn("销售员")
    assert done.decision.next == "restate_confirm" and "销售员" in done.decision.reply, done.decision.reply


def test_a_condition_asked_again_offers_conditions_of_this_file(ws):
    s = Session(Workspace.at(ws))
    s.turn("筛选一下 orders.csv")
    d = s.turn("筛选一下").decision
    assert "区域是" in d.reply and "大于" in d.reply, d.reply


# ---------------------------------------------------------------- the dialogue: corrections, holds, new requests, answers


CORRECTIONS = [
    (["orders.csv 区域是华东或华南（不包括退货的），数量不少于5", "不对，是华北"], lambda df: _flags(df, ["华北"], 5, False)),
    (["orders.csv 筛选区域是华东且数量大于3", "不对，数量应该是大于8"], lambda df: df[(df["区域"] == "华东") & (df["数量"] > 8)]),
    (["orders.csv 筛选区域是华东的", "条件改成数量大于10"], lambda df: df[df["数量"] > 10]),
    (["filter orders.csv where 区域 is 华南 and 数量 is at least 5", "no, I meant 华北"], lambda df: _flags(df, ["华北"], 5, None)),
    (["orders.csv 筛选渠道是ONLINE且区域是华东的", "不是华东，是华南"], lambda df: df[(df["渠道"] == "ONLINE") & (df["区域"] == "华南")]),
]


@pytest.mark.parametrize("turns,keep", CORRECTIONS)
def test_a_correction_changes_only_what_it_names(ws, turns, keep):
    s = Session(Workspace.at(ws))
    s.turn(turns[0])
    tr = s.turn(turns[1])
    assert tr.run is None and tr.decision.next == "restate_confirm", tr.decision.reply  # restated before it runs again
    done = s.turn("继续")
    assert done.run is not None and done.run.status == "answered", done.decision.reply
    assert sorted(table(ws, done)["订单号"]) == sorted(keep(orders(ws))["订单号"])


@pytest.mark.parametrize("utterance,keep", [
    ("orders.csv total 销售额 where 区域 is 华东", lambda df: df[df["区域"] == "华东"]),
    ("orders.csv total 销售额 in 2019", lambda df: df[pd.to_datetime(df["日期"]).dt.year == 2019]),
    ("orders.csv average 销售额 where 渠道 is ONLINE", lambda df: df[df["渠道"] == "ONLINE"]),
])
def test_a_condition_written_after_the_total_is_applied_before_it(ws, utterance, keep):
    want = keep(orders(ws))["销售额"].agg("mean" if "average" in utterance else "sum")
    got = table(ws, run(ws, [utterance]))
    assert got[figure_column(got, "销售额")].iloc[0] == pytest.approx(want)


def test_hold_then_a_new_request_while_one_waits(ws):
    s = Session(Workspace.at(ws))
    assert s.turn("orders.csv 销售额从2019到2020的订单").decision.next == "restate_confirm"
    held = s.turn("这个先放一放吧").decision
    assert held.next == "cancel" and s.turn("继续").decision.next == "ask_intent"  # nothing waits any more
    s.turn("orders.csv 找异常值")
    tr = s.turn("算了，帮我把 orders.csv 按区域汇总销售额")
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    got = table(ws, tr)
    assert dict(zip(got["区域"], got[figure_column(got, "销售额")], strict=True)) == orders(ws).groupby("区域")["销售额"].sum().to_dict()


@pytest.mark.parametrize("turns", [
    ["orders.csv 按那个排序", "cancel that, group orders.csv by 区域 and sum 销售额"],
    ["orders.csv 找异常值", "取消，帮我把 orders.csv 按区域汇总销售额"],
    ["orders.csv 只保留几列", "取消这个，orders.csv 按区域汇总销售额"],
])
def test_a_cancel_followed_by_a_new_request_decides_the_new_one(ws, turns):
    s = Session(Workspace.at(ws))
    s.turn(turns[0])
    tr = s.turn(turns[1])
    assert tr.decision.gate == "act" and tr.run is not None and tr.run.status == "answered", tr.decision.reply
    got = table(ws, tr)
    assert dict(zip(got["区域"], got[figure_column(got, "销售额")], strict=True)) == orders(ws).groupby("区域")["销售额"].sum().to_dict()


@pytest.mark.parametrize("utterance,word", [("orders.csv 按那个分组", "那个"), ("orders.csv 按这个字段排序", "这个字段"), ("group orders.csv by that column", "Group by which column")])
def test_a_placeholder_for_a_column_is_asked_with_every_column(ws, utterance, word):
    d = Session(Workspace.at(ws)).turn(utterance).decision
    assert d.next == "ask_slots" and word in d.reply, d.reply
    assert all(c in d.reply for c in orders(ws).columns), d.reply  # never "the closest to 那个"
