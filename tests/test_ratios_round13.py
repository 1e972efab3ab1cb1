"""A ratio said as one figure per group: the ratio of the two columns' totals (never the mean of each row's ratio),
whether said as A除以B / A divided by B / A per B, named (客单价，就是金额除以数量), or asked about when only its word is
said (不良率 with no column of that name: how is it computed?) and then answered. Each result recomputed with pandas."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame

from engine.session import Session
from tools.workspace import Workspace

QC = pd.DataFrame({
    "批次号": [f"Q{i:02d}" for i in range(12)],
    "车间": ["一车间", "二车间", "一车间", "三车间", "二车间", "一车间", "三车间", "二车间", "一车间", "三车间", "二车间", "一车间"],
    "产品型号": ["A1", "B2", "A1", "C3", "B2", "C3", "A1", "C3", "B2", "B2", "A1", "C3"],
    "抽检数": [100, 120, 80, 150, 90, 110, 130, 70, 60, 140, 100, 95],
    "不良数": [3, 6, 1, 9, 2, 4, 5, 3, 1, 8, 2, 6],
})
CLASSES = pd.DataFrame({"class_id": [f"C{i}" for i in range(9)], "class_type": ["Yoga", "Spin", "HIIT"] * 3,
                        "booked": [20, 25, 18, 22, 24, 16, 19, 26, 21], "attended": [15, 20, 12, 18, 23, 10, 14, 19, 17]})


@pytest.fixture(params=["pandas", "duckdb"])
def ws(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    QC.to_excel(tmp_path / "质检记录.xlsx", index=False)
    CLASSES.to_csv(tmp_path / "classes.csv", index=False)
    return Workspace.at(tmp_path)


def _ratio(df: pd.DataFrame, key: str, num: str, den: str) -> dict:
    g = df.groupby(key)[[num, den]].sum()
    return (g[num] / g[den]).to_dict()


def _col(tr, name: str) -> dict:
    f = result_frame(tr)
    return dict(zip(f.iloc[:, 0], f[name], strict=True))


@pytest.mark.parametrize("text,name", [
    ("质检记录.xlsx 各车间的不良率，就是不良数除以抽检数", "不良率"),
    ("质检记录.xlsx 按车间算不良数除以抽检数", "不良数/抽检数"),
])
def test_a_ratio_per_group_is_the_ratio_of_the_totals(ws, text, name):
    tr = answered(Session(ws), text)
    assert _col(tr, name) == pytest.approx(_ratio(QC, "车间", "不良数", "抽检数"), abs=1e-4)
    assert _col(tr, name) != pytest.approx(QC.assign(r=QC["不良数"] / QC["抽检数"]).groupby("车间")["r"].mean().to_dict(), abs=1e-4)


@pytest.mark.parametrize("text", ["classes.csv attended divided by booked per class_type", "classes.csv attended per booked by class_type"])
def test_english_ratio_per_group(ws, text):
    tr = answered(Session(ws), text)
    assert _col(tr, "attended/booked") == pytest.approx(_ratio(CLASSES, "class_type", "attended", "booked"), abs=1e-4)


def test_the_groups_are_ranked_by_the_ratio(ws):
    tr = answered(Session(ws), "质检记录.xlsx 各产品型号的不良率，就是不良数除以抽检数，从高到低，前2个")
    want = pd.Series(_ratio(QC, "产品型号", "不良数", "抽检数")).sort_values(ascending=False).head(2)
    f = result_frame(tr)
    assert list(f.iloc[:, 0]) == list(want.index) and list(f["不良率"]) == pytest.approx(list(want), abs=1e-4)


@pytest.mark.parametrize("first,answer,key,name,lang", [
    ("质检记录.xlsx 各产品型号的不良率", "不良数除以抽检数", "产品型号", "不良率", "zh"),
    ("classes.csv attendance rate by class_type", "attended divided by booked", "class_type", "attendance rate", "en"),
])
def test_a_rate_said_as_a_word_is_asked_how_it_is_computed_then_runs_as_answered(ws, first, answer, key, name, lang):
    s = Session(ws)
    d = s.turn(first).decision
    assert d.next == "ask_slots" and "ratio" in d.missing and name in d.reply, d.reply
    tr = answered(s, answer)
    data, num, den = (QC, "不良数", "抽检数") if lang == "zh" else (CLASSES, "attended", "booked")
    assert _col(tr, name) == pytest.approx(_ratio(data, key, num, den), abs=1e-4)


def test_a_rate_word_is_never_read_as_the_column_it_shares_words_with(ws):
    d = Session(ws).turn("质检记录.xlsx 各产品型号的不良率，从高到低，前3个").decision
    assert d.next == "ask_slots" and "不良率" in d.reply, d.reply


def test_a_file_typed_back_to_which_file_is_taken_even_when_the_request_is_not_understood_on_it(ws, tmp_path):
    QC.to_csv(tmp_path / "qc_copy.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    d = s.turn("which 5 batches wobbled the most? 抽检数").decision
    if d.next != "ask_slots" or "file" not in d.missing:
        pytest.skip("read without a file question")
    d2 = s.turn("qc_copy.csv").decision
    assert d2.reply != d.reply and "qc_copy.csv" in d2.reply, d2.reply


def test_a_ratio_with_no_key_and_a_ranking_is_each_rows_own(ws):
    tr = answered(Session(ws), "质检记录.xlsx 不良数除以抽检数最高的3个批次")
    f = result_frame(tr)
    want = QC.assign(r=QC["不良数"] / QC["抽检数"]).nlargest(3, "r")
    assert sorted(f["批次号"]) == sorted(want["批次号"]), f


def test_a_ratio_with_no_key_and_no_ranking_is_the_ratio_of_the_totals(ws):
    tr = answered(Session(ws), "质检记录.xlsx 不良数除以抽检数是多少")
    f = result_frame(tr)
    assert float(f["不良数/抽检数"].iloc[0]) == pytest.approx(QC["不良数"].sum() / QC["抽检数"].sum(), abs=1e-4)
