"""Column names across languages: a Chinese word for an English column and an English word for a Chinese one,
read through the CC-CEDICT glosses, always restated before use, recomputed here with pandas."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import confirmed_reading, written_table

from engine.session import Session
from modes import crosslang
from tools.fmt import num
from tools.workspace import Workspace

RNG = np.random.default_rng(91)
N = 80
GAMES = pd.DataFrame({
    "Team": RNG.choice(["Lions", "Hawks", "Bears"], N),
    "Venue": RNG.choice(["体育场", "City Oval", "Bay Ground"], N),
    "Attendance": RNG.integers(1000, 50000, N),
    "Year": RNG.choice([2019, 2020, 2021], N),
})
STAFF = pd.DataFrame({
    "姓名": [f"员工{i}" for i in range(N)],
    "部门": RNG.choice(["销售", "研发", "行政"], N),
    "奖金": RNG.integers(500, 9000, N),
    "工龄": RNG.integers(0, 30, N),
})


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    GAMES.to_csv(tmp_path / "matches.csv", index=False)
    STAFF.to_csv(tmp_path / "员工.csv", index=False)
    return Workspace.at(tmp_path)


@pytest.mark.parametrize("text, agg", [
    ("matches.csv 每个场地的Attendance总和", "sum"),
    ("matches.csv 按比赛场地统计平均Attendance", "mean"),
])
def test_a_chinese_word_reaches_an_english_column_after_confirmation(ws, text, agg):
    tr = confirmed_reading(ws, text, "场地 → Venue")
    df = written_table(ws, tr).set_index("Venue")
    got = df[next(c for c in df.columns if c.startswith("Attendance"))]
    want = GAMES.groupby("Venue")["Attendance"].agg(agg)
    assert len(got) == len(want)
    for venue, v in want.items():
        assert got[venue] == pytest.approx(v), venue


@pytest.mark.parametrize("text, agg", [
    ("员工.csv total bonus per 部门", "sum"),
    ("员工.csv average bonus for each 部门", "mean"),
])
def test_an_english_word_reaches_a_chinese_column_after_confirmation(ws, text, agg):
    tr = confirmed_reading(ws, text, "bonus → 奖金")
    assert "not understood" not in (Session(ws).turn(text).decision.reply or "")
    df = written_table(ws, tr).set_index("部门")
    got = df[next(c for c in df.columns if c.startswith("奖金"))]
    want = STAFF.groupby("部门")["奖金"].agg(agg)
    for dept, v in want.items():
        assert got[dept] == pytest.approx(v), dept


def test_a_single_figure_over_a_translated_column(ws):
    tr = confirmed_reading(ws, "员工.csv what is the average seniority", "seniority → 工龄")
    assert num(round(STAFF["工龄"].mean(), 2)) in tr.run.answer


def test_a_chinese_value_in_the_data_is_a_value_not_a_column(ws):
    tr = Session(ws).turn("matches.csv 体育场的平均Attendance是多少")
    assert "→" not in (tr.decision.reply or "")
    assert tr.run is not None and tr.run.status == "answered"
    rows = GAMES[GAMES["Venue"] == "体育场"]["Attendance"]
    assert f"{len(rows)} 行匹配" in tr.run.answer or any(f in tr.run.answer for f in (num(round(rows.mean(), 2)), str(round(rows.mean(), 2))))


@pytest.mark.parametrize("text", ["matches.csv 按天气统计Attendance", "员工.csv average bonus by weather"])
def test_a_word_with_no_good_gloss_is_asked_about(ws, text):
    tr = Session(ws).turn(text)
    assert tr.run is None
    assert tr.decision.next == "ask_slots", tr.decision.reply


def test_ties_and_weak_matches_are_not_translated():
    assert crosslang.translate("球队", ("Home team", "Away team"))[0] is None  # two teams: asked
    assert crosslang.translate("发行量", ("Year", "Issue Price"))[0] is None  # issue is not issue price
    assert crosslang.translate("工资", ("Number of Employees", "Year"))[0] is None  # sharing 工 is not a meaning
    assert crosslang.translate("雇员数量", ("Number of Employees", "Year"))[0] == "Number of Employees"
    assert crosslang.translate("场地", ("Venue", "Crowd", "Date"))[0] == "Venue"
    assert crosslang.translate("region", ("姓名", "区域", "月薪"))[0] == "区域"


def test_the_dictionary_is_only_consulted_across_scripts():
    assert not crosslang.applies("场地", ("月薪", "区域"))
    assert not crosslang.applies("venue", ("Venue", "Crowd"))
    assert crosslang.applies("场地", ("Venue", "Crowd"))
    assert crosslang.applies("bonus", ("奖金", "部门"))
    assert not crosslang.applies("sum", ("金额", "城市"))  # an operation word is not a column of the other language


def test_a_name_part_typo_or_value_in_the_same_language_wins_over_a_translation():
    from modes.catalog import SheetInfo
    from modes.resolve import resolve_column

    mixed = SheetInfo("S", ("Bonus Paid", "奖金", "城市"), values={"城市": frozenset({"场地"})})
    assert resolve_column("bonus", mixed)[:2] == ("Bonus Paid", "partial")
    assert resolve_column("bonus paod", mixed)[1] != "translated"  # half of it is no word of 奖金
    assert resolve_column("场地", SheetInfo("S", ("Venue", "City"), values={"City": frozenset({"场地"})}))[1] != "translated"
    assert resolve_column("场地", SheetInfo("S", ("Venue", "City")))[:2] == ("Venue", "translated")
