"""A chart with one series per value of a column (按城市分系列 / 每个城市一条线 / one line per carrier / split by carrier):
said with the chart or after it, drawn from a pivot recomputed here with pandas; other readings of the same words stay."""

from __future__ import annotations

import openpyxl
import pandas as pd
import pytest
from conftest import answered, result_frame

from engine.session import Session
from modes.resolve import ColumnHit
from modes.tagging.series import series_key
from tools.workspace import Workspace

DAYS = pd.to_datetime("2024-01-01") + pd.to_timedelta([0, 3, 9, 15, 33, 40, 47, 61, 64, 70, 91, 95, 100, 120, 125, 150], unit="D")
SALES = pd.DataFrame({
    "下单日期": DAYS,
    "城市": ["北京", "上海", "广州", "北京", "上海", "北京", "广州", "上海", "北京", "广州", "上海", "北京", "广州", "上海", "北京", "广州"],
    "品类": ["手机", "电脑", "手机", "配件", "手机", "电脑", "配件", "手机", "电脑", "手机", "配件", "手机", "电脑", "电脑", "配件", "手机"],
    "成交价": [1200, 5300, 990, 80, 1500, 6100, 120, 1100, 5800, 1050, 95, 1300, 6000, 5500, 70, 1000],
})
SHIP = pd.DataFrame({
    "Ship Date": DAYS,
    "Carrier": ["DHL", "UPS", "FedEx", "DHL", "UPS", "DHL", "FedEx", "UPS", "DHL", "FedEx", "UPS", "DHL", "FedEx", "UPS", "DHL", "FedEx"],
    "Mode": ["Air", "Sea", "Air", "Sea", "Air", "Air", "Sea", "Sea", "Air", "Air", "Sea", "Air", "Sea", "Air", "Sea", "Air"],
    "Charge": [120.0, 530.5, 99.0, 80.0, 150.0, 610.0, 120.0, 110.0, 580.0, 105.0, 95.0, 130.0, 600.0, 550.0, 70.0, 100.0],
})


@pytest.fixture(params=["pandas", "duckdb"])
def ws(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    SALES.to_excel(tmp_path / "销售.xlsx", index=False)
    SHIP.to_csv(tmp_path / "shipments.csv", index=False)
    return Workspace.at(tmp_path)


def _same_cells(f: pd.DataFrame, want: pd.DataFrame) -> None:
    """Each column of the pandas pivot, row by row of it, in the result."""
    for c in want.columns:
        assert f.loc[want.index, c].tolist() == pytest.approx(want[c].tolist())


def _chart_series(ws: Workspace, tr) -> int:
    path = next(x["path"] for x in tr.run.files if x["path"].endswith(".xlsx"))
    charts = [c for s in openpyxl.load_workbook(ws.root / path).worksheets for c in s._charts]
    assert len(charts) == 1
    return len(charts[0].series)


@pytest.mark.parametrize("text,col,words", [
    ("画每月成交价的折线图，按城市分系列", "城市", "按城市分系列"),
    ("每个城市一条线", "城市", "每个城市一条线"),
    ("维修类型分成多条线", "维修类型", "维修类型分成多条线"),
    ("系列用 城市", "城市", "系列用 城市"),
    ("monthly Charge, one line per Carrier", "Carrier", "one line per Carrier"),
    ("split by Mode", "Mode", "split by Mode"),
    ("add Carrier as the series", "Carrier", "Carrier as the series"),
])
def test_the_series_key_is_a_column_beside_its_words(text, col, words):
    start = text.index(col)
    got, spans = series_key(text, [ColumnHit(start, start + len(col), col, "exact")])
    assert got == col
    assert text[spans[0][0] : spans[0][1]] == words


@pytest.mark.parametrize("text", ["按城市汇总成交价", "Carrier by total Charge", "城市一条条看", "one line of text per Carrier name"])
def test_no_series_without_its_words(text):
    col = "城市" if "城市" in text else "Carrier"
    start = text.index(col)
    assert series_key(text, [ColumnHit(start, start + len(col), col, "exact")]) == (None, [])


def test_one_line_per_city_per_month(ws):
    tr = answered(Session(ws), "销售.xlsx 画每月成交价合计的折线图，每个城市一条线")
    want = SALES.pivot_table(index=SALES["下单日期"].dt.to_period("M").astype(str), columns="城市", values="成交价", aggfunc="sum", fill_value=0)
    f = result_frame(tr).set_index("下单日期")
    assert list(f.index) == list(want.index)
    for c in want.columns:
        assert list(f[c]) == pytest.approx(list(want[c]))
    assert _chart_series(ws, tr) == 3
    assert "3 个系列" in tr.run.answer


def test_one_bar_series_per_category(ws):
    tr = answered(Session(ws), "销售.xlsx 各城市成交价的柱状图，按品类分系列")
    want = SALES.pivot_table(index="城市", columns="品类", values="成交价", aggfunc="sum", fill_value=0)
    f = result_frame(tr).set_index("城市")
    assert sorted(f.index) == sorted(want.index)
    _same_cells(f, want)
    assert _chart_series(ws, tr) == 3


def test_weekdays_in_order_and_in_english(ws):
    tr = answered(Session(ws), "shipments.csv chart the number of shipments by weekday of Ship Date, split by Carrier")
    f = result_frame(tr)
    days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    seen = [d for d in days if d in set(SHIP["Ship Date"].dt.day_of_week.map(lambda i: days[i]))]
    assert list(f.iloc[:, 0]) == seen
    want = SHIP.assign(d=SHIP["Ship Date"].dt.day_of_week.map(lambda i: days[i])).pivot_table(index="d", columns="Carrier", values="Charge",
                                                                                               aggfunc="count", fill_value=0)
    for c in want.columns:
        assert f.set_index(f.columns[0]).loc[seen, c].tolist() == want.loc[seen, c].tolist()


@pytest.mark.parametrize("first,more", [
    ("line chart of monthly Charge", "split by Mode"),
    ("line chart of monthly Charge", "add Mode as the series"),
    ("画每月成交价的折线图", "不对，横轴还是月份，城市分成多条线"),
])
def test_a_series_said_after_a_waiting_chart_joins_it(ws, first, more):
    s = Session(ws)
    assert s.turn(first).decision.next == "restate_confirm"  # no file named: restated, and waits
    tr = s.turn(more)
    assert tr.decision.next == "restate_confirm", tr.decision.reply
    chart = tr.decision.request.op("chart")
    assert chart is not None and chart.args.get("split") in ("Mode", "城市")
    assert [o.kind for o in tr.decision.request.ops] == ["chart"]  # never a statistic, a grouping or a dedupe beside it


@pytest.mark.parametrize("first,more,col", [
    ("shipments.csv line chart of monthly Charge", "now one line per Carrier", "Carrier"),
    ("销售.xlsx 画每月成交价的折线图", "画成每个城市一条线", "城市"),
])
def test_a_series_said_after_a_chart_ran_is_restated_then_drawn(ws, first, more, col):
    s = Session(ws)
    answered(s, first)
    tr = s.turn(more)
    assert tr.decision.next == "restate_confirm", tr.decision.reply
    assert [o.kind for o in tr.decision.request.ops] == ["chart"] and tr.decision.request.op("chart").args["split"] == col
    tr = answered(s, "继续" if tr.decision.lang == "zh" else "go")
    assert _chart_series(ws, tr) == 3


def test_a_pie_split_by_a_column_is_asked(ws):
    tr = Session(ws).turn("shipments.csv pie chart of Charge by Carrier, split by Mode")
    assert tr.run is None and tr.decision.next == "ask_slots"
    assert "bar or line" in tr.decision.reply


def test_one_line_per_value_without_a_chart_keeps_its_reading(ws):
    tr = Session(ws).turn("shipments.csv keep one line per Carrier")
    assert tr.decision.request.op("chart") is None
    assert tr.decision.request.op("dedupe") is not None


@pytest.mark.parametrize("first,more", [
    ("pivot of Charge with Carrier as rows and Mode as columns", "no, the other way round"),
    ("pivot of Charge with Carrier as rows and Mode as columns", "rows Mode, columns Carrier"),
    ("pivot of Charge with Carrier as rows and Mode as columns", "swap rows and columns"),
])
def test_a_pivot_laid_out_again_keeps_its_figure(ws, first, more):
    s = Session(ws)
    assert s.turn(first).decision.next == "restate_confirm"
    tr = s.turn(more)
    assert tr.decision.next == "restate_confirm", tr.decision.reply
    assert [o.kind for o in tr.decision.request.ops] == ["pivot"]
    tr = answered(s, "go")
    f = result_frame(tr).set_index("Mode")
    want = SHIP.pivot_table(index="Mode", columns="Carrier", values="Charge", aggfunc="sum")
    _same_cells(f, want)


def test_a_pivot_that_ran_turned_the_other_way_round(ws):
    s = Session(ws)
    answered(s, "销售.xlsx 做个透视表，城市做行，品类做列，成交价求和")
    tr = s.turn("反过来，行和列对调")
    assert tr.decision.next == "restate_confirm", tr.decision.reply
    assert [o.kind for o in tr.decision.request.ops] == ["pivot"]  # never a transpose of the whole table
    f = result_frame(answered(s, "继续")).set_index("品类")
    want = SALES.pivot_table(index="品类", columns="城市", values="成交价", aggfunc="sum")
    _same_cells(f, want)


def test_a_chart_with_a_series_turned_the_other_way_round(ws):
    s = Session(ws)
    answered(s, "销售.xlsx 各城市成交价的柱状图，按品类分系列")
    tr = s.turn("反过来")
    assert tr.decision.next == "restate_confirm", tr.decision.reply
    chart = tr.decision.request.op("chart")
    assert chart is not None and (chart.args["x"], chart.args["split"]) == ("品类", "城市")
