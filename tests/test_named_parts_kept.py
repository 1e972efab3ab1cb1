"""What the request names is kept, or asked about: a quoted name, an example, a period, a gloss in brackets, a
formula said in words, the column an edit changes. Run for real on tables made here; figures recomputed with
pandas / scipy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from test_analyst_requests import talk, written
from test_never_silently_wrong import WAITS

from engine.session import Session
from tools.workspace import Workspace

RNG = np.random.default_rng(11)
N = 60
QUOTES_DF = pd.DataFrame({
    "指标": ["苹果_进口量", "苹果_出口量", "苹果_库存量", "梨_进口量", "梨_出口量", "梨_库存量"],
    "本月": [1.2, 3.4, 8.1, -0.5, 2.2, 6.3],
})
STOCKS = pd.DataFrame({"name": [f"S{i}" for i in range(N)], "price": RNG.normal(50, 10, N).round(2),
                       "diff": RNG.standard_t(2, N).round(3), "volume": RNG.integers(100, 10000, N)})
GRANTS = pd.DataFrame({"Fiscal Year": [2021, 2022, 2023] * 8, "Region": ["North", "South", "East", "West"] * 6,
                       "Children": RNG.integers(10, 500, 24), "Federal": RNG.integers(5, 400, 24)})
TOWNS = pd.DataFrame({"指标": ["乡镇数", "乡数", "镇数"], "2016年": [40000, 12000, 20000], "2017年": [39800, 11500, 20300],
                      "2018年": [39500, 11000, 20500], "2019年": [39000, 10200, 21000], "2020年": [38700, 9800, 21300]})
VERBS = pd.DataFrame({"Person": ["I", "you", "he", "we"], "Present": ["ho", "hai", "ha", "abbiamo"], "Imperfect": ["avevo", "avevi", "aveva", "avevamo"]})
GRADES = pd.DataFrame({"Code": range(1, 13), "Grade": ["13", "NS", "14", "M1", "NS", "18", "66", "n/a", "13", "X", "22", "NS"]})
SPARSE = pd.DataFrame({"Season": ["2001"] * 3 + ["2002"] * 4 + ["2003"] * 5 + ["2004"] * 4,
                       "Team": ["A", "B", "C", "A", "B", "D", "E", "A", "C", "D", "E", "F", "B", "C", "F", "G"]})


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    r = tmp_path_factory.mktemp("kept")
    for name, df in (("prices", QUOTES_DF), ("stocks", STOCKS), ("grants", GRANTS), ("towns", TOWNS), ("verbs", VERBS),
                     ("grades", GRADES), ("seasons", SPARSE)):
        (r / name).mkdir()
        df.to_csv(r / name / f"{name}.csv", index=False)
    return r


def first(root: Path, folder: str, text: str):  # type: ignore[no-untyped-def]
    return Session(Workspace.at(root / folder)).turn(text)


def assert_asked_never_ran(tr, *names: str) -> None:  # type: ignore[no-untyped-def]
    assert tr.run is None, tr.run and tr.run.answer
    assert tr.decision.next in WAITS and tr.decision.next not in ("restate_confirm", "plan_confirm"), (tr.decision.next, tr.decision.reply)
    for n in names:
        assert n in tr.decision.reply, tr.decision.reply


@pytest.mark.parametrize("text, name", [
    ("筛选'指标'包含'库存量'的行，只看'梨子'", "梨子"),
])
def test_a_quoted_name_the_reading_leaves_out_is_asked_about(root, text, name):
    assert_asked_never_ran(first(root, "prices", text), name)


@pytest.mark.parametrize("text, words", [
    ("删除'指标'里含有'进口量'或者'出口量'的行", ("进口量", "出口量")),
    ("把所有“指标”中带有“出口量”或“库存量”的数据行去掉", ("出口量", "库存量")),
    ("delete the rows whose 指标 contains '进口量' or '库存量'", ("进口量", "库存量")),
])
def test_quoted_words_joined_by_or_are_all_kept(root, text, words):
    got = written(root / "prices", talk(root / "prices", text))
    hit = QUOTES_DF["指标"].str.contains(words[0]) | QUOTES_DF["指标"].str.contains(words[1])
    assert got["指标"].tolist() == QUOTES_DF.loc[~hit, "指标"].tolist()


@pytest.mark.parametrize("text, value", [
    ("Grade列里有一些无效的级别，例如'NS'，请删除这些行", "NS"),
    ("我们发现Grade有不合规的值，比如 NS，需要把这些记录删掉", "NS"),
    ("remove the rows with invalid Grade values such as 'NS'", "NS"),
])
def test_an_example_value_is_not_the_whole_condition(root, text, value):
    assert_asked_never_ran(first(root, "grades", text), value)


def test_a_value_named_outright_still_runs(root):
    got = written(root / "grades", talk(root / "grades", "删除 Grade 等于 NS 的行"))
    assert got["Code"].tolist() == GRADES.loc[GRADES["Grade"] != "NS", "Code"].tolist()


@pytest.mark.parametrize("text, period", [
    ("在2022年度里，各个 Region 的 Federal 合计是多少", None),
])
def test_a_period_the_reading_drops_is_asked_about(root, text, period):
    assert_asked_never_ran(first(root, "grants", text), *([period] if period else []))


@pytest.mark.parametrize("text", ["2023财年中，按Region计算Children的总数", "for FY2023, total Children by Region"])
def test_a_fiscal_year_reads_the_fiscal_year_column(root, text):
    got = written(root / "grants", talk(root / "grants", text))
    want = GRANTS[GRANTS["Fiscal Year"] == 2023].groupby("Region")["Children"].sum()
    col = next(c for c in got.columns if "Children" in c)
    assert dict(zip(got["Region"], got[col], strict=True)) == want.to_dict()


def test_without_a_period_the_same_request_runs(root):
    got = written(root / "grants", talk(root / "grants", "按Region计算Children的总数"))
    want = GRANTS.groupby("Region")["Children"].sum()
    col = next(c for c in got.columns if c.startswith("Children"))
    assert dict(zip(got["Region"], got[col], strict=True)) == want.to_dict()


@pytest.mark.parametrize("text", [
    "计算价格差（diff）的标准差，并检验价格差是否服从正态分布",
    "价格变动（'diff'）的标准差是多少？再做一个正态性检验",
    "请算一下股价差(diff)的标准差，然后检验它的正态性",
])
def test_a_word_glossed_by_a_column_in_brackets_is_that_column(root, text):
    tr = talk(root / "stocks", text)
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.next, tr.decision.reply, tr.run and tr.run.answer)
    ans = tr.run.answer
    assert f"{STOCKS['diff'].std():,.2f}" in ans, ans
    assert "price" not in ans, ans
    w = stats.shapiro(STOCKS["diff"])
    assert f"W = {w.statistic:.4f}" in ans, ans


@pytest.mark.parametrize("text, expr", [
    ("新增一列'年均增加数'，该列为2020年数据相对于2016年数据的增长数除以4年", lambda d: (d["2020年"] - d["2016年"]) / 4),
    ("请新增一列名为'四年变化'的数据，为2020年相对于2016年的增长量", lambda d: d["2020年"] - d["2016年"]),
    ("为每个指标新增一列，名为'平均增长率'，计算公式为：((2019年 - 2017年) / 2017年) / 2 * 100", lambda d: (d["2019年"] - d["2017年"]) / d["2017年"] / 2 * 100),
    ("新增一列'增幅'，为2018年数据相较于2016年数据的增长率", lambda d: (d["2018年"] - d["2016年"]) / d["2016年"]),
])
def test_a_new_column_said_as_a_change_between_two_year_columns(root, text, expr):
    got = written(root / "towns", talk(root / "towns", text))
    new = [c for c in got.columns if c not in TOWNS.columns]
    assert len(new) == 1 and len(got) == len(TOWNS), got.columns.tolist()
    assert got[new[0]].round(6).tolist() == expr(TOWNS).round(6).tolist()


@pytest.mark.parametrize("text", [
    "将所有Present为'ha'的记录的过去完成式修改为'avevo'",
    "把现在时是 ha 的那些记录的未完成形式改为 avevo",
])
def test_an_edit_whose_column_is_not_found_asks_which_column(root, text):
    tr = first(root, "verbs", text)
    assert tr.run is None and tr.decision.next == "ask_slots", (tr.decision.next, tr.decision.reply)
    assert "哪一列" in tr.decision.reply and "Imperfect" in tr.decision.reply


def test_the_same_edit_with_the_column_named_runs(root):
    got = written(root / "verbs", talk(root / "verbs", "将所有Present为'ha'的记录的Imperfect修改为'avevo'"))
    want = VERBS.copy()
    want.loc[want["Present"] == "ha", "Imperfect"] = "avevo"
    assert got["Imperfect"].tolist() == want["Imperfect"].tolist()


@pytest.mark.parametrize("text", ["对Season和Team做卡方检验，看是否有关联", "chi-square test of Season and Team"])
def test_a_chi_square_over_sparse_cells_is_given_with_its_caution(root, text):
    tr = talk(root / "seasons", text)
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.reply, tr.run and tr.run.answer)
    res = stats.chi2_contingency(pd.crosstab(SPARSE["Season"], SPARSE["Team"]))
    ans = tr.run.answer
    assert f"{res.statistic:.4f}".rstrip("0") in ans, ans
    assert ("期望频数小于 5" in ans) or ("expect fewer than 5" in ans), ans


DOCTORS = pd.DataFrame({"Name": [f"D{i}" for i in range(40)], "Designated Doctor Address": RNG.choice([True, False], 40),
                        "State Code": RNG.choice(["TX", "OK", "NM"], 40), "城市": RNG.choice(["上海", "北京"], 40)})


@pytest.fixture(scope="module")
def doctors(tmp_path_factory: pytest.TempPathFactory) -> Path:
    r = tmp_path_factory.mktemp("glossed")
    DOCTORS.to_csv(r / "doctors.csv", index=False)
    return r


@pytest.mark.parametrize("text", [
    "查询所有'Designated Doctor Address'（指定医生地址）为True的记录，并且'State Code'（州/省代码）为'TX'",
    "筛选 Designated Doctor Address（指定地址）是 True 且 State Code（州代码）等于 TX 的行",
])
def test_a_chinese_gloss_after_a_column_name_is_part_of_the_name(doctors, text):
    got = written(doctors, talk(doctors, text))
    want = DOCTORS[DOCTORS["Designated Doctor Address"] & (DOCTORS["State Code"] == "TX")]
    assert got["Name"].tolist() == want["Name"].tolist()


def test_a_value_in_brackets_after_a_column_is_still_a_value(doctors):
    tr = talk(doctors, "筛选城市（上海）的行")
    if tr.run is not None:
        assert written(doctors, tr)["Name"].tolist() == DOCTORS.loc[DOCTORS["城市"] == "上海", "Name"].tolist()
    else:
        assert tr.decision.next in WAITS


@pytest.mark.parametrize("text", ["画柱状图展示每年的平均名次", "draw a bar chart of the average placing per year"])
def test_a_chart_per_year_never_averages_the_year_itself(tmp_path, text):
    pd.DataFrame({"Year": [2008, 2009, 2010, 2011], "Finish position": ["65th", "62nd", "59th", "56th"]}).to_csv(tmp_path / "club.csv", index=False)
    tr = Session(Workspace.at(tmp_path)).turn(text)
    assert tr.run is None and tr.decision.next in WAITS, (tr.decision.next, tr.run and tr.run.answer)
    assert "Year（平均）" not in tr.decision.reply and "mean of Year" not in tr.decision.reply
