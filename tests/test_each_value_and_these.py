"""Two values of one column asked 分别/respectively: one figure each; a gap between two values whose names hold the
column's name (一车间 of 车间); 这些/these after a filter: the aggregate runs on that result; 一共花了多少钱: the total
of the money column over the rows kept."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from engine.session import Session
from tools.workspace import Workspace


@pytest.fixture
def ws(tmp_path):
    rng = np.random.default_rng(7)
    n = 60
    df = pd.DataFrame({
        "编号": [f"R{i:03d}" for i in range(n)],
        "部门": rng.choice(["技术部", "市场部", "财务部"], n),
        "车间": rng.choice(["一车间", "二车间", "三车间"], n),
        "类型": rng.choice(["差旅", "餐饮", "办公"], n),
        "金额": rng.integers(100, 5000, n).astype(float),
        "温度": rng.normal(60, 10, n).round(1),
    })
    df.to_csv(tmp_path / "费用.csv", index=False)
    return tmp_path, df


def _run(s, u):
    tr = s.turn(u)
    if tr.run is None and tr.decision.next == "restate_confirm":
        tr = s.turn("继续")
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    return tr


def _says(text, value):
    """Whether the answer states the value (to the cent)."""
    return any(abs(float(x.replace(",", "")) - value) < 0.006 for x in re.findall(r"-?\d[\d,]*\.?\d*", text))


@pytest.mark.parametrize("utterance", ["费用 技术部和市场部的金额合计分别是多少", "技术部、市场部 各自的金额合计",
                                       "total 金额 of 技术部 and 市场部 respectively", "技术部和市场部金额总和各是多少"])
def test_two_values_respectively_give_one_total_each(ws, utterance):
    root, df = ws
    tr = _run(Session(Workspace.at(root)), utterance)
    got = pd.read_csv(root / tr.run.files[-1]["path"])
    col = next(c for c in got.columns if c.startswith("金额"))
    want = df[df["部门"].isin(["技术部", "市场部"])].groupby("部门")["金额"].sum()
    assert dict(zip(got["部门"], got[col], strict=True)) == pytest.approx(want.to_dict())


@pytest.mark.parametrize("utterance", ["一车间和二车间的记录数分别是多少", "一车间和二车间各有多少条记录"])
def test_two_values_respectively_give_one_count_each(ws, utterance):
    root, df = ws
    tr = _run(Session(Workspace.at(root)), utterance)
    got = pd.read_csv(root / tr.run.files[-1]["path"])
    want = df[df["车间"].isin(["一车间", "二车间"])].groupby("车间").size()
    assert dict(zip(got["车间"], got.iloc[:, -1], strict=True)) == want.to_dict()


def test_without_respectively_the_pooled_total_stays(ws):
    root, df = ws
    tr = _run(Session(Workspace.at(root)), "技术部和市场部的金额合计")
    got = pd.read_csv(root / tr.run.files[-1]["path"])
    assert len(got) == 1 and "部门" not in got.columns
    assert got.filter(like="金额").iloc[0, 0] == pytest.approx(df[df["部门"].isin(["技术部", "市场部"])]["金额"].sum())


@pytest.mark.parametrize("utterance", ["一车间的平均温度比二车间高多少", "一车间的温度平均值比二车间高多少"])
def test_gap_between_values_that_hold_the_column_name(ws, utterance):
    root, df = ws
    tr = _run(Session(Workspace.at(root)), utterance)
    m = df.groupby("车间")["温度"].mean()
    gap = round(abs(m["一车间"] - m["二车间"]), 2)
    assert _says(tr.run.answer, round(m["一车间"], 2)) and _says(tr.run.answer, round(m["二车间"], 2))
    assert _says(tr.run.answer, gap)
    assert ("高" if m["一车间"] > m["二车间"] else "低") in tr.run.answer


@pytest.mark.parametrize("follow_up", ["这些的金额合计是多少", "这几条一共多少钱", "what is the total 金额 of these rows"])
def test_these_after_a_filter_is_that_result(ws, follow_up):
    root, df = ws
    s = Session(Workspace.at(root))
    _run(s, "金额大于2000且部门不是财务部的有多少条")
    tr = _run(s, follow_up)
    kept = df[(df["金额"] > 2000) & (df["部门"] != "财务部")]
    assert _says(tr.run.answer, kept["金额"].sum())
    assert not _says(tr.run.answer, df["金额"].sum())


@pytest.mark.parametrize("utterance", ["市场部的差旅一共花了多少钱", "市场部差旅总共花了多少", "市场部的差旅加起来花了多少钱"])
def test_how_much_money_in_all_is_the_total_of_the_money_column(ws, utterance):
    root, df = ws
    tr = _run(Session(Workspace.at(root)), utterance)
    want = df[(df["部门"] == "市场部") & (df["类型"] == "差旅")]["金额"].sum()
    assert _says(tr.run.answer, want)


def test_how_much_money_with_two_money_columns_is_asked(tmp_path):
    pd.DataFrame({"部门": ["甲", "乙"], "金额": [1.0, 2.0], "运费": [3.0, 4.0]}).to_csv(tmp_path / "t.csv", index=False)
    tr = Session(Workspace.at(tmp_path)).turn("甲一共花了多少钱")
    assert tr.run is None and tr.decision.next in ("ask_slots", "restate_confirm")


def test_these_after_rows_that_were_not_kept_is_asked_never_the_whole_file(ws, monkeypatch):
    import engine.session as es

    monkeypatch.setattr(es, "HOLD_ROWS_MAX", 2)  # the rows a count kept are too many to hold a copy of
    root, df = ws
    s = Session(Workspace.at(root))
    _run(s, "金额大于2000且部门不是财务部的有多少条")
    tr = s.turn("这些的金额合计是多少")
    assert tr.run is None and tr.decision.next == "ask_slots", tr.decision.reply
    assert "没有保留" in tr.decision.reply


def test_these_after_a_filter_of_a_big_file_is_that_result(ws, monkeypatch):
    monkeypatch.setenv("WENQING_ENGINE", "duckdb")  # every CSV read out of core, as a big one is
    root, df = ws
    s = Session(Workspace.at(root))
    _run(s, "金额大于2000且部门不是财务部的有多少条")
    tr = _run(s, "这些的金额合计是多少")
    assert _says(tr.run.answer, df[(df["金额"] > 2000) & (df["部门"] != "财务部")]["金额"].sum())
