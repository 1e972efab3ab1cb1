"""Requests about rows or shares within each group, several statistics at once, pivots over a period and the
largest rows by a column: each gives the result recomputed here with pandas, or restates naming what it did not
understand. Never the grand-total reading, one statistic of several, or a preview."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_analyst_requests import talk

from engine.session import Session, TurnResult
from tools.workspace import Workspace

WAITS = ("restate_confirm", "plan_confirm", "ask_slots", "ask_intent")


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("within")
    rng = np.random.default_rng(11)
    n = 60
    pd.DataFrame({
        "订单号": [f"S{i:03d}" for i in range(n)],
        "区域": rng.choice(["华东", "华北", "华南"], n),
        "类别": rng.choice(["家具", "文具", "电器"], n),
        "日期": pd.date_range("2023-01-05", periods=n, freq="11D").strftime("%Y-%m-%d"),
        "单价": rng.choice([5, 8, 12, 20], n),
        "销售额": rng.permutation(np.arange(1000, 1000 + 37 * n, 37)),
    }).to_csv(root / "orders.csv", index=False)
    return root


def orders(root: Path) -> pd.DataFrame:
    return pd.read_csv(root / "orders.csv")


def table_of(root: Path, tr: TurnResult) -> pd.DataFrame:
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.reply, tr.run and tr.run.answer)
    tables = [f["path"] for f in tr.run.files if f["path"].endswith(".csv")]
    if not tables:  # an answer without a saved file: the table it was computed from
        assert tr.run.table is not None, tr.run.answer
        return tr.run.table
    return pd.read_csv(root / tables[0])


def restated(root: Path, text: str) -> str:
    tr = Session(Workspace.at(root)).turn(text)
    assert tr.run is None, f"ran: {tr.run and tr.run.answer}"
    assert tr.decision.next in WAITS, (tr.decision.next, tr.decision.reply)
    return tr.decision.reply


# ---------------------------------------------------------------- shares within each group

WITHIN_SHARE = [
    "orders.csv 按区域分组，计算各类别销售额在组内的占比",
    "orders.csv 每个区域内部各类别销售额占该区域的比例",
    "orders.csv 按区域分组，各类别销售额占所在区域的比重",
]


@pytest.mark.parametrize("utterance", WITHIN_SHARE)
def test_a_share_within_each_group_is_over_the_group_total(ws, utterance):
    df = orders(ws)
    sums = df.groupby(["区域", "类别"])["销售额"].sum()
    expected = (sums / sums.groupby(level="区域").transform("sum") * 100).round(2)
    got = table_of(ws, talk(ws, utterance))
    share = got.set_index(["区域", "类别"])["占比(%)"]
    assert share.sort_index().to_dict() == pytest.approx(expected.sort_index().to_dict(), abs=0.01)
    assert got.groupby("区域")["占比(%)"].sum().round(0).eq(100).all()


def test_a_share_within_an_unnamed_group_is_restated(ws):
    reply = restated(ws, "orders.csv 各类别销售额在组内的占比")
    assert "组内" in reply


def test_a_share_of_the_whole_still_uses_the_grand_total(ws):
    df = orders(ws)
    sums = df.groupby("类别")["销售额"].sum()
    got = table_of(ws, talk(ws, "orders.csv 各类别销售额的占比"))
    assert dict(zip(got["类别"], got["占比(%)"], strict=True)) == pytest.approx((sums / sums.sum() * 100).round(2).to_dict(), abs=0.01)


# ---------------------------------------------------------------- the first rows within each group

TOP_WITHIN = [
    ("orders.csv 每个区域销售额最高的2笔订单", 2, False),
    ("orders.csv 各区域里销售额最低的前3笔订单", 3, True),
    ("orders.csv top 2 orders by 销售额 for each 区域", 2, False),
]


@pytest.mark.parametrize(("utterance", "n", "low"), TOP_WITHIN)
def test_the_top_rows_within_each_group_are_rows_not_groups(ws, utterance, n, low):
    df = orders(ws)
    expected = df.sort_values("销售额", ascending=low, kind="stable").groupby("区域").head(n)
    got = table_of(ws, talk(ws, utterance))
    assert sorted(got["订单号"]) == sorted(expected["订单号"])
    assert got.groupby("区域").size().eq(n).all()


def test_the_top_groups_by_a_total_stay_groups(ws):
    df = orders(ws)
    totals = df.groupby("区域")["销售额"].sum().nlargest(2)
    got = table_of(ws, talk(ws, "orders.csv 每个区域销售额合计，取前2名"))
    assert sorted(got["区域"]) == sorted(totals.index)


def test_each_written_with_in_is_per_group_never_the_whole_table(ws):
    df = orders(ws)
    got = table_of(ws, talk(ws, "orders.csv top 2 orders by 销售额 in each 区域"))
    assert sorted(got["订单号"]) == sorted(df.sort_values("销售额", ascending=False).groupby("区域").head(2)["订单号"])


def test_the_n_largest_rows_by_a_column_named_in_chinese(ws):
    df = orders(ws)
    got = table_of(ws, talk(ws, "orders.csv show the 5 largest orders by 销售额"))
    assert list(got["订单号"]) == list(df.nlargest(5, "销售额")["订单号"])
    got = table_of(ws, talk(ws, "orders.csv the 3 smallest orders by 销售额"))
    assert list(got["订单号"]) == list(df.nsmallest(3, "销售额")["订单号"])


# ---------------------------------------------------------------- every statistic listed


def test_every_percentile_listed_is_answered(ws):
    s = orders(ws)["销售额"]
    for text in ("orders.csv 25th, 75th and 90th percentiles of 销售额", "orders.csv 销售额的第25、75和90百分位数"):
        tr = talk(ws, text)
        assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
        for q in (0.25, 0.75, 0.9):
            assert f"{s.quantile(q):,.2f}".rstrip("0").rstrip(".") in tr.run.answer, (q, tr.run.answer)


@pytest.mark.parametrize("utterance", ["orders.csv 各区域 单价 的众数和最大值", "orders.csv mode and maximum of 单价 by 区域"])
def test_a_plain_aggregate_listed_with_a_statistic_is_answered(ws, utterance):
    df = orders(ws)
    tr = talk(ws, utterance)
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    answer = tr.run.answer
    for region, grp in df.groupby("区域"):
        part = answer[answer.index(str(region)):]
        assert str(grp["单价"].max()) in part[:40] and str(grp["单价"].mode().iloc[0]) in part[:40], (region, answer)
    assert ("最大" in answer) or ("max" in answer)


# ---------------------------------------------------------------- a pivot over a period

PIVOT_PERIOD = [
    ("orders.csv 透视表：行为季度，列为区域，值为销售额合计", "Q", "rows"),
    ("orders.csv pivot table of 销售额 by quarter and 区域", "Q", "rows"),
    ("orders.csv 透视表：行为区域，列为月份，值为销售额合计", "M", "columns"),
    ("orders.csv 按年和区域做透视表，值为销售额合计", "Y", "rows"),
]


@pytest.mark.parametrize(("utterance", "freq", "where"), PIVOT_PERIOD)
def test_a_pivot_over_a_period_buckets_the_dates(ws, utterance, freq, where):
    df = orders(ws)
    per = pd.to_datetime(df["日期"]).dt.to_period(freq)
    df["p"] = per.map(lambda p: {"Q": f"{p.year}Q{p.quarter}", "M": f"{p.year}-{p.month:02d}", "Y": str(p.year)}[freq])
    index, columns = ("p", "区域") if where == "rows" else ("区域", "p")
    expected = df.pivot_table(index=index, columns=columns, values="销售额", aggfunc="sum", fill_value=0)
    got = table_of(ws, talk(ws, utterance))
    first = got.columns[0]
    got = got[got[first].astype(str) != "合计"].set_index(first)
    got = got[[c for c in got.columns if c != "合计"]]
    got.index = got.index.astype(str)
    for r in expected.index:
        for c in expected.columns:
            assert got.loc[str(r), str(c)] == expected.loc[r, c], (r, c)


@pytest.mark.parametrize("low", [False, True])
def test_top_rows_within_groups_agree_on_both_engines(tmp_path, low):
    from tools import ops, outofcore

    rng = np.random.default_rng(5)
    df = pd.DataFrame({"id": range(50), "g": rng.choice(["a", "b", "c"], 50), "v": rng.permutation(50)})
    df.to_csv(tmp_path / "t.csv", index=False)
    expected = sorted(df.sort_values("v", ascending=low).groupby("g").head(2)["id"])
    assert sorted(ops.top_n(df, "v", 2, ascending=low, within=["g"]).data["id"]) == expected
    big = outofcore.open_csv(Workspace.at(tmp_path), tmp_path / "t.csv")
    assert big is not None
    assert sorted(outofcore.top_n(big, "v", 2, ascending=low, within=["g"]).data["id"]) == expected
