"""Several statistics of one column said as one list (总和、平均值、最大值 / sum, mean and max), column names that hold a
statistic word (Work Mode, 平均分, Max Speed) and month ranges said with 之间: every run is recomputed with pandas on data
generated here; nothing of the request is dropped."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engine.session import Session, TurnResult
from tools.workspace import Workspace


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    r = tmp_path_factory.mktemp("liststats")
    rng = np.random.default_rng(7)
    n = 60
    fee = rng.integers(0, 40, n) * 100
    pd.DataFrame({
        "编号": [f"X{i:03d}" for i in range(n)],
        "车间": rng.choice(["一车间", "二车间", "三车间"], n),
        "维修费用": [f"{v:,.2f}" if i % 3 == 0 else str(v) for i, v in enumerate(fee)],  # partly text numbers with commas
        "温度": rng.normal(60, 15, n).round(1),
        "巡检日期": pd.to_datetime("2025-01-01") + pd.to_timedelta(rng.integers(0, 365, n), unit="D"),
    }).to_csv(r / "inspect.csv", index=False)
    pd.DataFrame({
        "Employee": [f"E{i}" for i in range(n)],
        "Work Mode": rng.choice(["Remote", "Onsite", "Hybrid"], n),
        "Monthly Salary": rng.integers(8000, 40000, n),
        "平均分": rng.integers(50, 100, n),
        "Max Speed": rng.integers(80, 200, n),
        "班级": rng.choice(["A班", "B班"], n),
    }).to_csv(r / "staff.csv", index=False)
    return r


def _fee(root: Path) -> pd.DataFrame:
    df = pd.read_csv(root / "inspect.csv")
    return df.assign(维修费用=pd.to_numeric(df["维修费用"].str.replace(",", ""), errors="raise"))


def _ran(s: Session, text: str) -> TurnResult:
    tr = s.turn(text)
    if tr.run is None and tr.decision.next in ("restate_confirm", "plan_confirm"):
        tr = s.turn("继续")
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.next, tr.decision.reply, tr.run and tr.run.answer)
    return tr


def _table(root: Path, tr: TurnResult) -> pd.DataFrame:
    assert tr.run is not None
    paths = [f["path"] for f in tr.run.files if f["path"].endswith(".csv")]
    assert paths, tr.run.answer
    return pd.read_csv(root / paths[0])


def _values(table: pd.DataFrame, column: str) -> dict[str, float]:
    """statistic name → value of one result row, whatever the labels (合计/sum, 平均/mean, 最大/max, 最小/min)."""
    names = {"sum": ("合计", "sum"), "mean": ("平均", "mean"), "max": ("最大", "max"), "min": ("最小", "min")}
    row = table.iloc[0]
    out = {}
    for stat, labels in names.items():
        cols = [c for c in table.columns if c.startswith(column) and c[len(column) :].strip("_ ") in labels]
        if cols:
            out[stat] = float(row[cols[0]])
    return out


@pytest.mark.parametrize(("text", "stats"), [
    ("inspect.csv 维修费用的总和、平均值、最大值", ["sum", "mean", "max"]),
    ("inspect.csv 维修费用的最大最小和平均", ["max", "min", "mean"]),
    ("inspect.csv 维修费用的平均值和最大值是多少", ["mean", "max"]),
    ("in inspect.csv the sum, mean and max of 维修费用", ["sum", "mean", "max"]),
    ("inspect.csv 温度的最高、最低和平均", ["max", "min", "mean"]),
])
def test_every_statistic_of_a_listed_set_is_computed(root: Path, text: str, stats: list[str]) -> None:
    col = "温度" if "温度" in text else "维修费用"
    df = _fee(root)
    tr = _ran(Session(Workspace.at(root)), text)
    if any(f["path"].endswith(".csv") for f in tr.run.files):
        got = _values(_table(root, tr), col)
    else:  # a question is answered in words: 维修费用_平均：2141.67；维修费用_最大：3900
        said = {k: float(v.replace(",", "")) for k, v in re.findall(col + r"_(\w+)[：:]\s*([\d,.]+)", tr.run.answer or "")}
        got = _values(pd.DataFrame([said]).add_prefix(col + "_"), col)
    assert sorted(got) == sorted(stats), got
    for stat in stats:
        assert got[stat] == pytest.approx(getattr(df[col], stat)(), abs=0.01), stat


@pytest.mark.parametrize("text", ["inspect.csv 按车间统计维修费用的总和、平均值、最大值", "inspect.csv sum, mean and max of 维修费用 by 车间"])
def test_a_listed_set_per_group(root: Path, text: str) -> None:
    df = _fee(root)
    got = _table(root, _ran(Session(Workspace.at(root)), text)).set_index("车间")
    want = df.groupby("车间")["维修费用"].agg(["sum", "mean", "max"])
    assert sorted(got.index) == sorted(want.index)
    for stat in ("sum", "mean", "max"):
        cols = [c for c in got.columns if c.startswith("维修费用") and c.split("_")[-1] in ({"sum": "合计", "mean": "平均", "max": "最大"}[stat], stat)]
        assert cols, got.columns
        for key in want.index:
            assert float(got.loc[key, cols[0]]) == pytest.approx(want.loc[key, stat], abs=0.01)


@pytest.mark.parametrize(("text", "key", "value"), [
    ("In staff.csv, average Monthly Salary by Work Mode", "Work Mode", "Monthly Salary"),
    ("staff.csv 按 Work Mode 统计 Monthly Salary 的平均值", "Work Mode", "Monthly Salary"),
    ("staff.csv 各班级的平均分的平均值", "班级", "平均分"),
    ("staff.csv average Max Speed per 班级", "班级", "Max Speed"),
])
def test_a_statistic_word_inside_a_column_name_is_the_column(root: Path, text: str, key: str, value: str) -> None:
    df = pd.read_csv(root / "staff.csv")
    tr = _ran(Session(Workspace.at(root)), text)
    got = _table(root, tr).set_index(key)
    want = df.groupby(key)[value].mean()
    cols = [c for c in got.columns if c.startswith(value) and c != key]
    assert cols, got.columns
    assert "众数" not in (tr.run.answer or "") and "mode" not in (tr.run.answer or "").replace(key, "")
    for k in want.index:
        assert float(got.loc[k, cols[0]]) == pytest.approx(want[k], abs=0.01)


@pytest.mark.parametrize("text", ["staff.csv Work Mode 为 Remote 的 Monthly Salary 比 Onsite 的平均高多少",
                                  "staff.csv rows where Work Mode is not Remote"])
def test_a_column_named_mode_is_not_the_mode_in_filters_and_comparisons(root: Path, text: str) -> None:
    df = pd.read_csv(root / "staff.csv")
    tr = _ran(Session(Workspace.at(root)), text)
    if "rows" in text:
        assert len(_table(root, tr)) == int((df["Work Mode"] != "Remote").sum())
    else:
        diff = df.loc[df["Work Mode"] == "Remote", "Monthly Salary"].mean() - df.loc[df["Work Mode"] == "Onsite", "Monthly Salary"].mean()
        assert f"{abs(diff):,.2f}" in (tr.run.answer or ""), tr.run.answer


def test_the_mode_of_a_mode_column_is_still_the_mode(root: Path) -> None:
    df = pd.read_csv(root / "staff.csv")
    tr = _ran(Session(Workspace.at(root)), "staff.csv Work Mode 的众数")
    shown = (tr.run.answer or "") + (_table(root, tr).to_string() if any(f["path"].endswith(".csv") for f in tr.run.files) else "")
    assert "众数" in shown and df["Work Mode"].mode().iloc[0] in shown, shown


@pytest.mark.parametrize(("text", "lo", "hi"), [
    ("inspect.csv 巡检日期在3月到5月之间的有多少", "2025-03-01", "2025-05-31"),
    ("inspect.csv 巡检日期介于4月和6月之间的行", "2025-04-01", "2025-06-30"),
    ("inspect.csv 巡检日期在2月至3月之间的维修费用合计", "2025-02-01", "2025-03-31"),
])
def test_a_month_range_with_zhijian_on_a_date_column_is_a_period(root: Path, text: str, lo: str, hi: str) -> None:
    from modes.replies import goal_summary

    tr = Session(Workspace.at(root)).turn(text)
    # the year is taken from the data (its one year) and said by the "about to" line before it runs
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    assert lo in goal_summary(tr.decision.request, "zh")
    df = _fee(root)
    d = pd.to_datetime(df["巡检日期"])
    part = df[(d >= lo) & (d <= hi)]
    answer = tr.run.answer or ""
    if "合计" in text:
        assert f"{part['维修费用'].sum():,.0f}" in answer or str(int(part["维修费用"].sum())) in _table(root, tr).to_string()
    else:
        assert str(len(part)) in answer, answer


def test_numbers_between_stay_numbers(root: Path) -> None:
    df = _fee(root)
    tr = _ran(Session(Workspace.at(root)), "inspect.csv 温度在50到70之间的行")
    assert len(_table(root, tr)) == int(df["温度"].between(50, 70).sum())


@pytest.mark.parametrize(("text", "stats"), [
    ("inspect.csv 请计算平均温度，并给出温度的方差", ["mean", "var"]),
    ("inspect.csv 平均温度以及标准差", ["mean", "std"]),
    ("inspect.csv 算一下温度的平均值，还有温度的中位数", ["mean", "median"]),
])
def test_a_plain_aggregate_said_on_the_column_apart_from_the_statistics_is_kept(root: Path, text: str, stats: list[str]) -> None:
    from tools.fmt import num

    df = _fee(root)
    answer = _ran(Session(Workspace.at(root)), text).run.answer or ""
    for stat in stats:
        assert num(float(getattr(df["温度"], stat)()), "zh") in answer, (stat, answer)
