"""Chinese words in a request that name English headers by meaning (观众人数 -> Crowd, 视频位速率 -> Video bit rate,
Mbit/s): found anywhere in the request, grounded only when one column clearly wins, always said back before use, and
the results recomputed here with pandas. Two columns about as well named are asked about, naming both."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import confirmed_reading, written_table

from engine.session import Session
from modes import crosslang
from modes.catalog import SheetInfo
from modes.resolve import find_columns
from tools.fmt import num
from tools.workspace import Workspace

RNG = np.random.default_rng(2026)
N = 90
MATCHES = pd.DataFrame({
    "Home team": RNG.choice(["Geelong", "Fitzroy", "Carlton"], N),
    "Home team score": RNG.integers(40, 150, N),
    "Away team": RNG.choice(["Essendon", "Richmond", "Hawthorn"], N),
    "Away team score": RNG.integers(40, 150, N),
    "Venue": RNG.choice(["Kardinia Park", "Princes Park", "Glenferrie Oval"], N),
    "Crowd": RNG.integers(5000, 90000, N),
    "Round": RNG.integers(1, 19, N),
})
TOWNS = pd.DataFrame({
    "Municipality": [f"Town {i}" for i in range(N)],
    "Population (2004)": RNG.integers(2000, 200000, N),
    "Foreign population": RNG.integers(0, 900, N),
    "Area (Square km)": RNG.integers(10, 900, N),
    "Pop density": RNG.integers(5, 3000, N),
    "Type": RNG.choice(["Municipality", "Rural commune"], N),
})
VIDEO = pd.DataFrame({
    "Format name": RNG.choice(["DVCAM", "XDCAM HD", "XDCAM EX"], N),
    "Bit depth": RNG.choice([8, 10], N),
    "Video bit rate, Mbit/s": RNG.choice([25, 35, 50, 100], N),
    "Frame size": RNG.choice(["1920x1080", "1280x720"], N),
})
RACE = pd.DataFrame({
    "Driver": [f"Driver {i}" for i in range(N)],
    "Constructor": RNG.choice(["Ferrari", "McLaren", "Renault"], N),
    "Laps": RNG.integers(20, 61, N),
    "Grid": RNG.integers(1, 21, N),
})


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    MATCHES.to_csv(tmp_path / "matches.csv", index=False)
    TOWNS.to_csv(tmp_path / "towns.csv", index=False)
    VIDEO.to_csv(tmp_path / "formats.csv", index=False)
    RACE.to_csv(tmp_path / "race.csv", index=False)
    return Workspace.at(tmp_path)


@pytest.mark.parametrize("text, key, col, agg, said", [
    ("matches.csv 各场地的平均观众人数", "Venue", "Crowd", "mean", ("场地 → Venue", "观众人数 → Crowd")),
    ("matches.csv 按场地统计主队得分的总和", "Venue", "Home team score", "sum", ("主队得分 → Home team score",)),
    ("matches.csv 每个比赛场地客队的得分平均是多少", "Venue", "Away team score", "mean", ("客队的得分 → Away team score",)),
    ("race.csv 每个车队的圈数总和", "Constructor", "Laps", "sum", ("车队 → Constructor", "圈数 → Laps")),
])
def test_a_group_summary_over_columns_named_by_meaning(ws, text, key, col, agg, said):
    tr = confirmed_reading(ws, text, *said)
    df = {"matches.csv": MATCHES, "race.csv": RACE}[text.split()[0]]
    got = written_table(ws, tr).set_index(key)
    got_col = got[next(c for c in got.columns if c.startswith(col))]
    want = df.groupby(key)[col].agg(agg)
    assert len(got_col) == len(want)
    for k, v in want.items():
        assert got_col[k] == pytest.approx(v), k


@pytest.mark.parametrize("text, col, agg, said", [
    ("formats.csv 视频位速率的平均值是多少", "Video bit rate, Mbit/s", "mean", "视频位速率 → Video bit rate, Mbit/s"),
    ("towns.csv 外国人口的总和", "Foreign population", "sum", "外国人口 → Foreign population"),
    ("towns.csv 面积的中位数", "Area (Square km)", "median", "面积 → Area (Square km)"),
    ("towns.csv 人口密度的最大值是多少", "Pop density", "max", "人口密度 → Pop density"),
])
def test_a_single_figure_over_a_column_named_by_meaning(ws, text, col, agg, said):
    tr = confirmed_reading(ws, text, said)
    df = {"formats.csv": VIDEO, "towns.csv": TOWNS}[text.split()[0]]
    want = float(getattr(df[col], agg)())
    if tr.run.files:  # the figure as a one-row table
        got = written_table(ws, tr)
        assert len(got) == 1 and got.iloc[0][next(c for c in got.columns if c.startswith(col))] == pytest.approx(want)
    else:
        assert any(f in tr.run.answer for f in (num(round(want, 2)), str(round(want, 2)), str(int(want)))), tr.run.answer


def test_a_condition_on_a_column_named_by_meaning(ws):
    tr = confirmed_reading(ws, "matches.csv 观众人数超过50000的比赛有多少场", "观众人数 → Crowd")
    assert str(int((MATCHES["Crowd"] > 50000).sum())) in tr.run.answer


@pytest.mark.parametrize("columns, text, word, both", [
    (tuple(MATCHES.columns), "平均得分是多少", "得分", {"Home team score", "Away team score"}),
    (("Rank", "Position", "Team"), "按名次排序", "名次", {"Rank", "Position"}),
    (("Crowd", "Attendance", "Date"), "观众人数的平均值", "观众人数", {"Crowd", "Attendance"}),
    (("Nation", "Country", "Gold"), "国家的金牌", "国家", {"Nation", "Country"}),
])
def test_two_columns_about_as_well_named_are_not_chosen_between(columns, text, word, both):
    said = [m for m in crosslang.mentions(text, columns) if text[m[0]:m[1]] == word]
    assert said and said[0][2] is None and set(said[0][3]) == both
    assert all(h.how != "translated" or text[h.start:h.end] != word for h in find_columns(text, SheetInfo("S", columns)))
    col, cands = crosslang.translate(word, columns)
    assert col is None and set(cands) == both


@pytest.mark.parametrize("text", ["matches.csv 平均得分是多少", "matches.csv 按得分排序"])
def test_a_near_tie_asks_naming_both_columns(ws, text):
    tr = Session(ws).turn(text)
    reply = tr.decision.reply or ""
    assert tr.run is None and tr.decision.next == "ask_slots", reply
    assert "Home team score" in reply and "Away team score" in reply


@pytest.mark.parametrize("columns, text, want", [
    (("Home team", "Home team score", "Away team", "Away team score"), "主队得分", "Home team score"),
    (("Home team", "Home team score", "Away team", "Away team score"), "按主队分组", "Home team"),
    (("Population (2004)", "Foreign population"), "2004年人口数量", "Population (2004)"),
    (("Position Title", "Position Class Code", "Number of Employees"), "职位类别代码为206513的雇员数量", "Position Class Code"),
    (("Position Title", "Position Class Code", "Number of Employees"), "雇员数量降序", "Number of Employees"),
    (("Year", "Finish position", "1st day"), "平均完赛名次", "Finish position"),
    (("Crowd", "Location Attendance", "Date"), "观众人数的平均值", "Crowd"),  # Location is a further word not said
    (("EVA #", "Country", "Vehicle", "Duration"), "每个飞行器上的次数", "Vehicle"),
    (("Rank", "Nation", "Gold", "Silver", "Total"), "金牌数最多的国家", "Gold"),
    (("Year", "Artist", "Mintage", "Issue Price"), "发行价格从高到低", "Issue Price"),
    (("Driver", "Constructor", "Laps", "Time/Retired"), "车手所用的时间", "Time/Retired"),
    (("Election", "1st Member", "1st Party", "2nd Member", "2nd Party"), "第二党派是Labour的", "2nd Party"),
    (("Election", "1st Member", "1st Party", "2nd Member", "2nd Party"), "第一成员", "1st Member"),
])
def test_the_column_a_chinese_word_means(columns, text, want):
    said = {m[2] for m in crosslang.mentions(text, columns)}
    assert want in said, crosslang.mentions(text, columns)


@pytest.mark.parametrize("columns, text", [
    (("Record", "Team", "Score"), "删除所有得分为0的记录"),  # 记录: the rows, never the Record column
    (("Time", "Name"), "统计每个人出现的次数"),  # 次数: a count, never the Time column
    (("Mean", "Region"), "各地区的平均值"),  # 平均: the operation, never the Mean column
    (("Date", "Location"), "今年的数据"),
])
def test_words_of_the_request_itself_name_no_column(columns, text):
    sheet = SheetInfo("S", columns)
    taken = [text[h.start:h.end] for h in find_columns(text, sheet) if h.how == "translated"]
    assert not any(w in ("记录", "次数", "平均", "平均值", "数据") for w in taken), taken


def test_a_value_of_the_data_is_never_read_as_a_column_by_meaning():
    sheet = SheetInfo("S", ("Venue", "Medal"), values={"Medal": frozenset({"金牌"})})
    assert all(h.how != "translated" for h in find_columns("金牌的场地", sheet) if h.column == "Gold")
    assert [h.column for h in find_columns("场地", SheetInfo("S", ("Venue", "Medal"), values={"Venue": frozenset({"场地"})}))] == []


def test_a_header_is_read_as_its_words_without_units():
    assert crosslang.header_words("Video bit rate, Mbit/s")[0] == ("video", "bit", "rate")
    assert crosslang.header_words("Area (Square km)") == (("area",), frozenset({"area"}))
    assert crosslang.header_words("Time/Retired")[1] == frozenset({"time", "retir"})
    assert "employe" in crosslang.header_words("Number of Employees")[1]
    assert crosslang.header_words("面积") == ((), frozenset())


@pytest.mark.parametrize("columns, values, text", [
    (("Fiscal Year", "Region", "Amount"), frozenset(), "2023财年中各区域的合计"),  # a period, read by the conditions
    (("Population", "Town"), frozenset(), "人口密度最高的镇"),  # 人口 inside 人口密度 is not Population
    (("Competition", "Score"), frozenset({"Friendly"}), "友谊赛中比分为1-0的记录"),  # 友谊赛 is the value Friendly
])
def test_no_column_is_read_where_the_word_means_something_else(columns, values, text):
    said = crosslang.mentions(text, columns, values)
    wrong = {"2023财年中各区域的合计": "Fiscal Year", "人口密度最高的镇": "Population", "友谊赛中比分为1-0的记录": "Competition"}[text]
    assert wrong not in {m[2] for m in said}, said


def test_each_column_read_by_meaning_is_said_once_by_its_longest_word():
    crosslang.forget()
    for w, c in (("观众", "Crowd"), ("观众人数", "Crowd"), ("场地", "Venue"), ("观众人数", "Crowd")):
        crosslang.remember(w, c)
    assert crosslang.made() == [("观众人数", "Crowd"), ("场地", "Venue")]
    assert crosslang.made(("Venue", "Date")) == [("场地", "Venue")]
    crosslang.forget()


def test_ordinal_headers_compared_row_by_row(tmp_path):
    seats = pd.DataFrame({
        "Election": range(1900, 1900 + N),
        "1st Party": RNG.choice(["Liberal", "Conservative", "Labour"], N),
        "2nd Party": RNG.choice(["Liberal", "Conservative", "Labour"], N),
    })
    seats.to_csv(tmp_path / "seats.csv", index=False)
    tr = confirmed_reading(Workspace.at(tmp_path), "seats.csv 第一党派和第二党派相同的记录", "第一党派 → 1st Party")
    want = seats[seats["1st Party"] == seats["2nd Party"]]
    assert str(len(want)) in tr.run.answer


def test_a_column_read_by_meaning_that_no_step_uses_is_named_as_not_used(ws):
    reply = Session(ws).turn("matches.csv 按场地分组，计算主队得分合计，并评估观众人数的效率").decision.reply or ""
    assert "没用上：Crowd" in reply or ("没用上" in reply and "Crowd" in reply.split("没用上")[1].split("；")[0]), reply
