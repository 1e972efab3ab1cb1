"""Chart requests end to end: the measure named (a row count for 人次 / 人数 / number of), per the key named, after the
request's filters, sorted / cut / marked as asked; a heat map is a pivot with a colour scale. Each workbook written is
opened with openpyxl: the chart's type, the cells its series refer to, and the data against pandas."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from openpyxl import load_workbook
from test_letter_case import talk  # the turns, then 继续 when the last one is restated

from engine.session import Session, TurnResult
from tools.workspace import Workspace

RNG = np.random.default_rng(11)
N = 240
VISITS = pd.DataFrame({
    "科室": RNG.choice(["内科", "外科", "儿科", "眼科", "口腔科"], N),
    "城市": RNG.choice(["北京", "上海", "广州"], N),
    "年份": RNG.choice([2020, 2021, 2022, 2023], N),
    "费用": RNG.uniform(50, 900, N).round(2),
    "年龄": RNG.integers(1, 90, N),
    "满意度": RNG.uniform(0.3, 1, N).round(3),
})
WAITS = ("ask_slots", "restate_confirm", "ask_intent")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    VISITS.to_csv(tmp_path / "就诊记录.csv", index=False)
    return tmp_path


def sheet_of(root: Path, tr: TurnResult) -> Any:
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    path = next(f["path"] for f in tr.run.files if f["path"].endswith(".xlsx"))
    return load_workbook(root / path).worksheets[0]


def pairs(sh: Any) -> dict[Any, Any]:
    return {r[0]: r[1] for r in sh.iter_rows(min_row=2, values_only=True)}


def refs(chart: Any) -> list[str]:
    return [s.yVal.numRef.f if type(chart).__name__ == "ScatterChart" else s.val.numRef.f for s in chart.series]


@pytest.mark.parametrize("text,cls", [
    ("画一个各科室就诊人次的柱状图", "BarChart"),
    ("就诊记录 各科室的人数画个饼图", "PieChart"),
    ("就诊记录 按科室统计就诊次数，画折线图", "LineChart"),
    ("就诊记录 bar chart of the number of visits per 科室", "BarChart"),
])
def test_a_count_word_draws_the_rows_per_key(root, text, cls):
    sh = sheet_of(root, talk(root, text))
    chart = sh._charts[0]
    assert type(chart).__name__ == cls
    expect = VISITS["科室"].value_counts()
    assert pairs(sh) == expect.to_dict() and sh.cell(1, 2).value == "行数"
    assert refs(chart) == [f"'数据'!$B$2:$B${len(expect) + 1}"]


@pytest.mark.parametrize("text", ["就诊记录 画饼图展示各城市费用的占比", "就诊记录 pie chart of each 城市's share of 费用"])
def test_a_pie_of_shares_draws_the_measure_with_percent_labels(root, text):
    tr = talk(root, text)
    sh = sheet_of(root, tr)
    chart = sh._charts[0]
    assert type(chart).__name__ == "PieChart" and chart.dataLabels.showPercent
    expect = VISITS.groupby("城市")["费用"].sum()
    got = pairs(sh)
    assert set(got) == set(expect.index) and all(abs(got[k] - v) < 0.01 for k, v in expect.items())
    assert len(tr.run.files) == 1  # type: ignore[union-attr]  (the shares are the pie's, never a count over the pie's table)


@pytest.mark.parametrize("text", [
    "就诊记录 满意度超过0.7的记录，画费用与年龄的散点图",
    "就诊记录 画费用和年龄的散点图，只看满意度高于0.7的",
    "就诊记录 scatter plot of 费用 and 年龄 where 满意度 > 0.7",
])
def test_a_scatter_after_a_filter_draws_the_two_columns_named_over_the_rows_kept(root, text):
    sh = sheet_of(root, talk(root, text))
    chart = sh._charts[0]
    kept = VISITS[VISITS["满意度"] > 0.7]
    assert type(chart).__name__ == "ScatterChart"
    assert chart.series[0].xVal.numRef.f == f"'数据'!$A$2:$A${len(kept) + 1}"
    assert refs(chart) == [f"'数据'!$B$2:$B${len(kept) + 1}"]
    rows = list(sh.iter_rows(min_row=1, values_only=True))
    assert rows[0] == ("费用", "年龄")
    assert [r[0] for r in rows[1:]] == kept["费用"].tolist() and [r[1] for r in rows[1:]] == kept["年龄"].tolist()


@pytest.mark.parametrize("text,n", [
    ("就诊记录 按科室的平均费用画柱状图，降序排列，标出前3", 3),
    ("就诊记录 bar chart of the average 费用 by 科室, sorted descending, highlight the top 2", 2),
])
def test_a_sorted_bar_chart_marks_the_largest(root, text, n):
    sh = sheet_of(root, talk(root, text))
    chart = sh._charts[0]
    expect = VISITS.groupby("科室")["费用"].mean().sort_values(ascending=False)
    rows = list(sh.iter_rows(min_row=2, values_only=True))
    assert [r[0] for r in rows] == expect.index.tolist()
    assert np.allclose([r[1] for r in rows], expect.to_numpy(), atol=0.01)
    assert sorted(p.idx for p in chart.series[0].dPt) == list(range(n))  # sorted, so the largest are the first bars


def test_top_n_without_marking_draws_only_those(root):
    sh = sheet_of(root, talk(root, "就诊记录 各科室平均费用前2名的柱状图"))
    expect = VISITS.groupby("科室")["费用"].mean().nlargest(2)
    got = pairs(sh)
    assert list(got) == expect.index.tolist() and np.allclose(list(got.values()), expect.to_numpy(), atol=0.01)


@pytest.mark.parametrize("text", ["就诊记录 每年内科的平均费用柱状图", "就诊记录 bar chart of the average 费用 per year, only 内科"])
def test_an_average_per_year_for_one_value(root, text):
    sh = sheet_of(root, talk(root, text))
    assert type(sh._charts[0]).__name__ == "BarChart"
    expect = VISITS[VISITS["科室"] == "内科"].groupby("年份")["费用"].mean()
    got = pairs(sh)
    assert list(got) == expect.index.tolist() and np.allclose(list(got.values()), expect.to_numpy(), atol=0.01)


@pytest.mark.parametrize("text", [
    "就诊记录 画个热力图，科室和城市的平均费用",
    "就诊记录 制作一张热力图，以科室为横轴，城市为纵轴，颜色代表平均费用",
    "就诊记录 heatmap of the average 费用 by 科室 and 城市",
])
def test_a_heat_map_is_a_pivot_with_a_colour_scale(root, text):
    tr = talk(root, text)
    sh = sheet_of(root, tr)
    assert not sh._charts  # no native heat map: the table itself carries the colours
    rules = [r for cf in sh.conditional_formatting for r in cf.rules]
    assert len(rules) == 1 and rules[0].type == "colorScale"
    expect = VISITS.pivot_table(index="科室", columns="城市", values="费用", aggfunc="mean")
    header = [c.value for c in sh[1]]
    assert header[0] == "科室" and set(header[1:]) == set(expect.columns)
    assert str(next(iter(sh.conditional_formatting)).sqref) == f"B2:{chr(ord('A') + len(expect.columns))}{len(expect) + 1}"
    for r in sh.iter_rows(min_row=2, values_only=True):
        for col, v in zip(header[1:], r[1:], strict=True):
            assert abs(v - expect.loc[r[0], col]) < 0.01
    assert "色阶" in tr.run.answer  # type: ignore[union-attr]


@pytest.mark.parametrize("answer,expect", [("行数", "count"), ("费用", "sum"), ("count", "count")])
def test_an_answer_to_the_charts_own_question_fills_it(root, answer, expect):
    first = Session(Workspace.at(root)).turn("就诊记录 画各城市的饼图")
    assert first.run is None and first.decision.missing == ("y",)
    sh = sheet_of(root, talk(root, "就诊记录 画各城市的饼图", answer))
    truth = VISITS["城市"].value_counts() if expect == "count" else VISITS.groupby("城市")["费用"].sum()
    got = pairs(sh)
    assert set(got) == set(truth.index) and all(abs(got[k] - v) < 0.01 for k, v in truth.items())


@pytest.mark.parametrize("text", [
    "就诊记录 制作一张热力图，以科室为横轴，年龄为纵轴，颜色深度代表满意度",  # a measurement is no axis of a heat map
    "就诊记录 画各城市的饼图",  # no measure named: asked, never a column picked
    "就诊记录 draw a bar chart per 科室",
])
def test_a_chart_missing_a_part_asks_never_draws_something_else(root, text):
    tr = Session(Workspace.at(root)).turn(text)
    assert tr.run is None and tr.decision.next in WAITS, tr.run and tr.run.answer
    assert not (root / "outputs").exists()


MEDALS = pd.DataFrame({"Nation": [f"N{i:02d}" for i in range(12)], "Gold": RNG.integers(0, 9, 12), "Silver": RNG.integers(0, 9, 12)})


@pytest.mark.parametrize("text,n", [
    ("请根据各国获得的金牌数，绘制一个降序排列的柱状图，并标注出金牌数最多的前3个国家。", 3),
    ("bar chart of the Gold medals per Nation, sorted descending, highlight the top 4", 4),
])
def test_a_key_and_measure_named_in_the_other_language_are_restated_then_drawn(tmp_path, text, n):
    MEDALS.to_csv(tmp_path / "medals.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    first = s.turn(text)
    assert first.run is None or text.isascii()  # a translated name is restated before anything runs
    tr = first if first.run is not None else s.turn("继续")
    sh = sheet_of(tmp_path, tr)
    expect = MEDALS.groupby("Nation")["Gold"].sum().sort_values(ascending=False, kind="stable")
    rows = list(sh.iter_rows(min_row=2, values_only=True))
    assert [r[1] for r in rows] == expect.tolist() and set(r[0] for r in rows) == set(expect.index)
    marked = sorted(p.idx for p in sh._charts[0].series[0].dPt)
    assert marked == list(range(n))


@pytest.mark.parametrize("text", ["就诊记录 能否通过热力图展示各个城市的就诊次数？", "就诊记录 heatmap of the number of visits per 城市"])
def test_a_heat_map_of_one_key_colours_the_counts(root, text):
    sh = sheet_of(root, talk(root, text))
    assert not sh._charts and [r.type for cf in sh.conditional_formatting for r in cf.rules] == ["colorScale"]
    assert pairs(sh) == VISITS["城市"].value_counts().to_dict()


@pytest.mark.parametrize("text,key", [
    ("就诊记录 各科室平均年龄的条形图，按科室排序", "科室"),
    ("就诊记录 bar chart of the average 年龄 per 城市, sorted by 城市", "城市"),
    ("就诊记录 每年平均年龄的柱状图，按照年份进行排序", "年份"),
])
def test_sorted_by_the_key_named_keeps_the_categories_in_order(root, text, key):
    sh = sheet_of(root, talk(root, text))
    expect = VISITS.groupby(key)["年龄"].mean().sort_index()
    got = pairs(sh)
    assert list(got) == expect.index.tolist() and np.allclose(list(got.values()), expect.to_numpy(), atol=0.01)


@pytest.mark.parametrize("text", [
    "就诊记录 画出费用与年龄的散点图并标出前5",
    "就诊记录 每年平均费用的折线图，标出最高的前2年",
    "就诊记录 每年平均费用的柱状图，只画前2年",  # the first two years, or the two largest: asked
    "就诊记录 scatter plot of 费用 and 年龄, highlight the top 3",
])
def test_a_top_n_a_chart_cannot_show_is_asked_never_dropped(root, text):
    tr = Session(Workspace.at(root)).turn(text)
    assert tr.run is None and tr.decision.missing == ("mark",), (tr.decision.missing, tr.decision.reply)


def test_a_sort_by_a_column_the_chart_does_not_show_is_restated_and_a_column_is_never_a_period(root):
    tr = Session(Workspace.at(root)).turn("就诊记录 各城市平均费用的柱状图，按年龄排序")
    assert tr.run is None and tr.decision.next == "restate_confirm" and "年龄" in tr.decision.reply
    assert "城市" in tr.decision.reply and "年份" not in tr.decision.reply


def test_a_filter_said_to_come_after_the_chart_runs_after_it(root):
    tr = talk(root, "就诊记录 画各城市人数的柱状图，然后筛选出内科的记录导出")
    assert tr.run is not None and tr.run.status == "answered"
    sh = sheet_of(root, tr)
    assert pairs(sh) == VISITS["城市"].value_counts().to_dict()  # every row drawn
    csv = next(f["path"] for f in tr.run.files if f["path"].endswith(".csv"))
    assert len(pd.read_csv(root / csv)) == int((VISITS["科室"] == "内科").sum())


@pytest.mark.parametrize("text", ["就诊记录 各城市费用的柱状图和饼图", "就诊记录 a bar chart and a pie chart of 费用 per 城市"])
def test_two_kinds_named_are_both_drawn_from_the_same_figures(root, text):
    tr = talk(root, text)
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    kinds = {}
    for f in tr.run.files:
        sh = load_workbook(root / f["path"]).worksheets[0]
        kinds[type(sh._charts[0]).__name__] = pairs(sh)
    expect = VISITS.groupby("城市")["费用"].sum()
    assert set(kinds) == {"BarChart", "PieChart"}
    for got in kinds.values():
        assert set(got) == set(expect.index) and all(abs(got[k] - v) < 0.01 for k, v in expect.items())


def test_two_kinds_that_cannot_share_figures_are_asked_about(root):
    tr = Session(Workspace.at(root)).turn("就诊记录 费用和年龄的散点图和柱状图")
    assert tr.run is None and "chart_kind" in tr.decision.missing


def test_an_english_request_gets_english_columns_and_titles(tmp_path):
    sales = pd.DataFrame({"region": RNG.choice(["North", "South", "East"], 90), "revenue": RNG.uniform(10, 500, 90).round(2)})
    sales.to_csv(tmp_path / "sales.csv", index=False)
    sh = sheet_of(tmp_path, talk(tmp_path, "pie chart of the number of rows per region"))
    assert [c.value for c in sh[1]] == ["region", "rows"] and pairs(sh) == sales["region"].value_counts().to_dict()
    title = sh._charts[0].title.tx.rich.p[0].r[0].t
    assert title == "rows by region"
