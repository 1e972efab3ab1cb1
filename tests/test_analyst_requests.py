"""Long analyst requests, as people write them: a purpose clause, a Chinese gloss before a column named in
parentheses, "如何…" for "do it", a new name in quotes. Run for real on a one-file workspace generated here;
every result is recomputed with pandas / scipy. A phrasing either gives exactly that result or asks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from engine.session import Session, TurnResult
from tools.fmt import num
from tools.workspace import Workspace

RNG = np.random.default_rng(31)
N = 60
LOG = pd.DataFrame({
    "Code": [f"K{i:03d}" + ("#" if i % 7 == 0 else "") for i in range(N)],
    "Channel": RNG.choice(["WEB", "SHOP"], N),
    "Region": RNG.choice(["North", "South", "East"], N),
    "revision": RNG.integers(1000, 9000, N),
    "duration (days)": RNG.integers(1, 30, N).astype(str),
    "Board_No": RNG.integers(1, 12, N),
})
LOG.loc[4, "duration (days)"] = "."  # a stray placeholder in a numeric column
SECTORS = pd.DataFrame({
    "Year": range(2001, 2011),
    "Agriculture": [f"{v:,}" for v in RNG.integers(500, 5000, 10)],  # numbers written as text with thousands separators
    "Industry": [f"{v:,}" for v in RNG.integers(1000, 90000, 10)],
    "Services": [f"{v:,}" for v in RNG.integers(1000, 90000, 10)],
    "Valuation": RNG.integers(0, 50000, 10).astype(float),
    "Area": [0.0] + list(RNG.integers(50, 900, 9).astype(float)),
})
SECTORS.loc[3, "Services"] = "–"  # no figure that year


@pytest.fixture
def root(tmp_path: Path) -> Path:
    LOG.to_csv(tmp_path / "work_log.csv", index=False)
    return tmp_path


@pytest.fixture
def sectors(tmp_path: Path) -> Path:
    SECTORS.to_csv(tmp_path / "regional_gva.csv", index=False)
    return tmp_path


def talk(root: Path, text: str) -> TurnResult:
    s = Session(Workspace.at(root))
    tr = s.turn(text)
    if tr.run is None and tr.decision.next in ("restate_confirm", "plan_confirm"):
        tr = s.turn("继续")
    return tr


def written(root: Path, tr: TurnResult) -> pd.DataFrame:
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.next, tr.decision.reply)
    paths = [f["path"] for f in tr.run.files if f["path"].endswith((".csv", ".xlsx"))]
    assert paths, tr.run.answer
    p = root / paths[0]
    return pd.read_csv(p) if p.suffix == ".csv" else pd.read_excel(p, engine="openpyxl")


@pytest.mark.parametrize("text", [
    "为了让表头更清楚，我们考虑将'Board_No'列的名称更改为'Board_Number'，请问如何进行列名修改？",
    "我们需要把 Board_No 的列名修改为 Board_Number，应该如何操作？",
    "请将Board_No列的名字改为Board_Number",
    "rename the column Board_No to Board_Number",
])
def test_a_column_renamed_to_a_new_name_that_looks_like_a_file_name(root, text):
    got = written(root, talk(root, text))
    assert "Board_No" not in got.columns
    assert got["Board_Number"].tolist() == LOG["Board_No"].tolist()
    assert pd.read_csv(root / "work_log.csv").columns.tolist() == LOG.columns.tolist()  # the source is untouched


@pytest.mark.parametrize("text", [
    "删除所有'Code'列中包含'#'字符的记录，因为这些记录是作废的编码，而我们只需要分析有效数据。",
    "请问如何删除 Code 列中含有'#'的数据行？",
    "Delete the rows where Code contains '#', so that we can see only valid codes.",
])
def test_rows_deleted_where_a_column_contains_a_symbol(root, text):
    got = written(root, talk(root, text))
    want = LOG[~LOG["Code"].str.contains("#", regex=False)]
    assert got["Code"].tolist() == want["Code"].tolist()
    assert len(got.columns) == len(LOG.columns)  # rows go, never the column


@pytest.mark.parametrize("text", [
    "请删除那些修订号较低（revision < 3000）的条目，以保证数据的时效性和相关性。",
    "请删除那些修订号较低（revision 小于 3000）的记录，以便我们只看新的版本",
])
def test_rows_deleted_by_a_comparison_on_a_glossed_column(root, text):
    got = written(root, talk(root, text))
    assert got["revision"].tolist() == LOG.loc[LOG["revision"] >= 3000, "revision"].tolist()


@pytest.mark.parametrize("text", [
    "不同渠道（'WEB' 和 'SHOP'）的处理时长（'duration (days)'）是否存在显著差异？请通过T检验进行分析。",
    "Is there a significant difference in duration (days) between WEB and SHOP? Use a t-test.",
])
def test_two_groups_by_their_values_t_test_on_a_column_with_a_placeholder(root, text):
    tr = talk(root, text)
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    d = pd.to_numeric(LOG["duration (days)"], errors="coerce")
    a, b = d[LOG["Channel"] == "WEB"].dropna(), d[LOG["Channel"] == "SHOP"].dropna()
    t = stats.ttest_ind(a, b, equal_var=False)
    assert f"t = {round(abs(float(t.statistic)), 4)}" in tr.run.answer.replace("t = -", "t = ")
    assert f"n={len(a)}" in tr.run.answer and f"n={len(b)}" in tr.run.answer


def chart_sheet(root: Path, tr: TurnResult):  # type: ignore[no-untyped-def]
    """The data sheet (with its chart) of the workbook a chart request wrote."""
    from openpyxl import load_workbook

    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    return load_workbook(root / tr.run.files[0]["path"]).worksheets[0]


def _numbers(s: pd.Series) -> pd.Series:
    return pd.to_numeric(s.str.replace(",", ""), errors="coerce")


@pytest.mark.parametrize("text", [
    "假设我们需要增加一列'总产出'，该列数据为农业、工业和服务业三者之和，请问如何计算并添加这一列？",
    "新增一列“总产出”，为Agriculture、Industry与Services的总和",
    "add a column 总产出 = Agriculture + Industry + Services",
])
def test_a_new_column_summing_columns_written_with_thousands_separators(sectors, text):
    got = written(sectors, talk(sectors, text))
    want = _numbers(SECTORS["Agriculture"]) + _numbers(SECTORS["Industry"]) + _numbers(SECTORS["Services"])
    assert got["总产出"].tolist() == pytest.approx(want.tolist(), nan_ok=True)
    assert got["总产出"].isna().sum() == 1  # the year without a figure stays blank


@pytest.mark.parametrize("text", [
    "根据现有数据，我们需要计算每个项目对应的单位造价，请添加一列数据'单位造价'，其值由'Valuation'与'Area'相除得到。",
    "请新增一列'单位造价'，为Valuation和Area两者之比",
])
def test_a_new_column_from_two_columns_said_in_words_keeps_their_order(sectors, text):
    tr = talk(sectors, text)
    got = written(sectors, tr)
    want = SECTORS["Valuation"] / SECTORS["Area"].mask(SECTORS["Area"] == 0)
    assert got["单位造价"].tolist() == pytest.approx(want.round(6).tolist(), nan_ok=True)
    assert "除数为 0" in tr.run.answer  # the row dividing by zero is said, not hidden


@pytest.mark.parametrize("text", [
    "制作一张雷达图，以Region为维度，颜色深度代表Board_No的大小，以便我们直观了解差异",
    "能否通过词云展示各个Region的记录？",
    "请画一个箱线图看看revision的分布",
    "draw a box plot of revision by Region and Channel",
])
def test_a_chart_kind_no_tool_draws_is_said_plainly_never_replaced(root, text):
    tr = talk(root, text)
    assert tr.run is None or not tr.run.files
    assert tr.decision.next == "ask_slots" and tr.decision.missing == ("chart_kind",), (tr.decision.next, tr.decision.reply)
    reply = tr.decision.reply
    assert ("暂不支持" in reply and "柱状图" in reply) if not text.startswith("draw") else ("not supported" in reply and "Bar" in reply)
    assert not (root / "outputs").exists() or not list((root / "outputs").iterdir())


IMPORTS = pd.DataFrame({"指标": ["引进节目数", "从美国引进节目数", "从英国引进节目数", "从日本引进节目数", "从法国引进节目数"],
                        **{f"{y}年": RNG.integers(40, 400, 5) for y in range(2022, 2014, -1)}})
IMPORTS.loc[0, [f"{y}年" for y in range(2015, 2023)]] = IMPORTS.iloc[1:][[f"{y}年" for y in range(2015, 2023)]].sum()


@pytest.fixture
def imports(tmp_path: Path) -> Path:
    IMPORTS.to_csv(tmp_path / "引进情况.csv", index=False)
    return tmp_path


def _row_values(name: str, first: int, last: int) -> np.ndarray:
    return IMPORTS.loc[IMPORTS["指标"] == name, [f"{y}年" for y in range(first, last + 1)]].to_numpy(dtype=float).ravel()


@pytest.mark.parametrize("text", [
    "能否进行一次卡方检验，分析从2016年到2020年，从美国、英国引进的节目数是否存在显著差异？",
    "对美国和英国在2016年至2020年的引进节目数做个卡方检验",
])
def test_chi_square_between_rows_of_a_wide_table_named_by_what_tells_them_apart(imports, text):
    tr = talk(imports, text)
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    chi = stats.chi2_contingency([_row_values("从美国引进节目数", 2016, 2020), _row_values("从英国引进节目数", 2016, 2020)])
    assert f"χ² = {round(float(chi.statistic), 4)}" in tr.run.answer and f"自由度 {chi.dof}" in tr.run.answer


@pytest.mark.parametrize("text,rows,first,last", [
    ("比较美国与日本在2015年至2022年间的引进节目数是否存在显著差异？请使用T检验", ["从美国引进节目数", "从日本引进节目数"], 2015, 2022),
    ("Is there a significant difference between 从英国引进节目数 and 从法国引进节目数 from 2017年 to 2021年? Use a t-test.",
     ["从英国引进节目数", "从法国引进节目数"], 2017, 2021),
    ("美国、英国和日本的引进节目数有没有显著差异？做方差分析", ["从美国引进节目数", "从英国引进节目数", "从日本引进节目数"], 2015, 2022),
])
def test_difference_between_rows_of_a_wide_table_over_the_periods_named(imports, text, rows, first, last):
    tr = talk(imports, text)
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    samples = [_row_values(r, first, last) for r in rows]
    if len(rows) == 2:
        t = stats.ttest_ind(*samples, equal_var=False)
        assert f"t = {round(abs(float(t.statistic)), 4)}" in tr.run.answer.replace("t = -", "t = "), tr.run.answer
    else:
        f = stats.f_oneway(*samples)
        assert f"F = {round(float(f.statistic), 4)}" in tr.run.answer, tr.run.answer
    assert all(f"n={last - first + 1}" in tr.run.answer for _ in rows)


@pytest.mark.parametrize("text", [
    "能否生成一个柱状图，对比2016年和2020年所有指标的数据，以观察这几年间各项的变化情况？",
    "make a bar chart comparing 2016年 and 2020年 for every 指标",
])
def test_a_chart_of_the_periods_named_has_the_rows_along_x_and_one_series_per_period(imports, text):
    sh = chart_sheet(imports, talk(imports, text))
    chart = sh._charts[0]
    assert type(chart).__name__ == "BarChart" and len(chart.series) == 2
    got = [[sh.cell(i, j).value for i in range(2, 2 + len(IMPORTS))] for j in (1, 2, 3)]
    assert got == [IMPORTS["指标"].tolist(), IMPORTS["2016年"].tolist(), IMPORTS["2020年"].tolist()]


@pytest.mark.parametrize("text", [
    "请制作一个饼图，显示不同Region的记录数量分布，以便我们分析哪些区域记录最多。",
    "make a pie chart of the number of rows per Region",
])
def test_a_pie_chart_of_row_counts_per_category(root, text):
    sh = chart_sheet(root, talk(root, text))
    assert type(sh._charts[0]).__name__ == "PieChart"
    got = {sh.cell(i, 1).value: sh.cell(i, 2).value for i in range(2, 2 + LOG["Region"].nunique())}
    assert got == LOG["Region"].value_counts().to_dict()


RACES = pd.DataFrame({"Year": RNG.choice([2019, 2020, 2021, 2022], 240), "Team": RNG.choice(["Alpha", "Beta", "Gamma"], 240),
                      "Wins": RNG.integers(0, 9, 240)})


@pytest.mark.parametrize("text", [
    "能否进行一次卡方检验，分析年份与Team是否存在显著的关联性？我们想了解不同年份中参与的Team分布是否有统计学上的差异。",
    "run a chi-square test of Year and Team",
])
def test_chi_square_reads_a_year_column_as_categories(tmp_path, text):
    RACES.to_csv(tmp_path / "races.csv", index=False)
    tr = talk(tmp_path, text)
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    chi = stats.chi2_contingency(pd.crosstab(RACES["Year"], RACES["Team"]))
    assert f"χ² = {round(float(chi.statistic), 4)}" in tr.run.answer, tr.run.answer


@pytest.mark.parametrize("text", [
    "我们能否通过卡方分析来检验'日期'与'涨跌幅'之间是否存在某种关联性？",
    "chi-square test of 日期 and 涨跌幅",
])
def test_chi_square_of_dates_or_measurements_is_asked_about_never_run(tmp_path, text):
    pd.DataFrame({"日期": pd.date_range("2023-01-02", periods=80, freq="7D").strftime("%Y-%m-%d"),
                  "涨跌幅": RNG.normal(0, 1.5, 80).round(3)}).to_csv(tmp_path / "指数.csv", index=False)
    tr = talk(tmp_path, text)
    assert tr.run is None and tr.decision.next == "ask_slots", (tr.decision.next, tr.decision.reply)
    assert "卡方检验需要两个分类列" in tr.decision.reply or "chi-square two categorical" in tr.decision.reply


@pytest.mark.parametrize("text,first,last", [
    ("请分别计算2016年至2020年期间每年的合计，并进行单因素方差分析，以判断这几年间是否存在显著差异？", 2016, 2020),
    ("do the values differ significantly from 2018年 to 2021年? run an ANOVA", 2018, 2021),
])
def test_periods_of_a_wide_table_as_the_groups_of_a_test(imports, text, first, last):
    tr = talk(imports, text)
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    cols = [f"{y}年" for y in range(first, last + 1)]
    groups = [IMPORTS[c].astype(float) for c in cols]
    if len(cols) == 2:
        assert f"t = {round(abs(float(stats.ttest_ind(*groups, equal_var=False).statistic)), 4)}" in tr.run.answer.replace("t = -", "t = ")
    else:
        assert f"F = {round(float(stats.f_oneway(*groups).statistic), 4)}" in tr.run.answer, tr.run.answer
    word = "合计" if text[0] > "z" else "total"
    assert all(f"{word} {num(float(g.sum()), 'zh' if word == '合计' else 'en')}" in tr.run.answer for g in groups), tr.run.answer
