"""Rolling averages (移动平均 / rolling N-day average): a measure totalled per period along a date column, a period with
no rows totalling 0, each period the mean of the last N; per group when said; asked when the window is not said.
Every figure recomputed with pandas, on both engines."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import answered, result_frame

from engine.session import Session
from tools.workspace import Workspace

RNG = np.random.default_rng(11)
DAYS = pd.to_datetime("2025-01-01") + pd.to_timedelta(RNG.choice(np.r_[0:40, 45:70], 300), unit="D")  # days 40-44 have no rows
SALES = pd.DataFrame({"sale_id": range(1, 301), "sold_on": DAYS.strftime("%Y-%m-%d"), "branch": RNG.choice(["Leeds", "York"], 300),
                      "revenue": RNG.integers(5, 90, 300).astype(float)})
SALES.loc[7, "revenue"] = np.nan
DATES = pd.to_datetime(SALES["sold_on"])


@pytest.fixture(params=["pandas", "duckdb"])
def ws(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    SALES.to_csv(tmp_path / "sales.csv", index=False)
    return Workspace.at(tmp_path)


def _last(tr) -> list[float]:
    """The rolling average column of the result (the last one, whatever the session's language calls it)."""
    return result_frame(tr).iloc[:, -1].round(4).tolist()


def _want(frame: pd.DataFrame, window: int, freq: str, value: str | None) -> pd.Series:
    d = pd.to_datetime(frame["sold_on"]).dt.to_period(freq)
    per = (frame[value] if value else pd.Series(1, index=frame.index)).groupby(d).sum()
    full = per.reindex(pd.period_range(DATES.min().to_period(freq), DATES.max().to_period(freq), freq=freq) if frame is SALES
                       else pd.period_range(d.min(), d.max(), freq=freq), fill_value=0).astype(float)
    return full.rolling(window).mean()


@pytest.mark.parametrize("text,window,freq,value", [
    ("sales.csv 里 revenue 的7日移动平均", 7, "D", "revenue"),
    ("rolling 7-day average of revenue in sales.csv", 7, "D", "revenue"),
    ("sales.csv 每天 revenue 合计的近5天滚动平均", 5, "D", "revenue"),
    ("sales.csv 订单数的7日移动平均", 7, "D", None),
    ("3-week moving average of revenue in sales.csv", 3, "W-SUN", "revenue"),
    ("7-day rolling average of the number of sales in sales.csv", 7, "D", None),
])
def test_a_rolling_average_totals_each_period_then_averages_the_last_n(ws, text, window, freq, value):
    tr = answered(Session(ws), text)
    assert [o.kind for o in tr.decision.request.ops] == ["rolling"], tr.decision.request.ops
    got, want = _last(tr), _want(SALES, window, freq, value)
    assert got == pytest.approx(want.round(4).tolist(), nan_ok=True)
    assert all(np.isnan(x) for x in got[: window - 1])  # no full window: blank, never a shorter average


def test_rows_are_chosen_before_the_rolling_average_and_groups_roll_apart(ws):
    tr = answered(Session(ws), "sales.csv 里 branch 不是 York 的 revenue 的7日移动平均")
    assert _last(tr) == pytest.approx(_want(SALES[SALES["branch"] != "York"], 7, "D", "revenue").round(4).tolist(), nan_ok=True)
    got = result_frame(answered(Session(ws), "sales.csv 按 branch 算 revenue 的7日移动平均"))
    assert sorted(got["branch"].unique()) == ["Leeds", "York"]
    span = pd.period_range(DATES.min().to_period("D"), DATES.max().to_period("D"), freq="D")
    for branch, part in got.groupby("branch"):
        mine = SALES[SALES["branch"] == branch]
        full = mine["revenue"].groupby(pd.to_datetime(mine["sold_on"]).dt.to_period("D")).sum().reindex(span, fill_value=0)
        assert part.iloc[:, -1].round(4).tolist() == pytest.approx(full.rolling(7).mean().round(4).tolist(), nan_ok=True)


def test_the_window_is_asked_when_not_said_and_the_answer_completes_the_request(ws):
    s = Session(ws)
    tr = s.turn("sales.csv revenue 的移动平均")
    assert tr.run is None and tr.decision.missing == ("window",), tr.decision.reply
    assert "几天" in tr.decision.reply and "现有列" not in tr.decision.reply  # a number's question lists no columns
    assert _last(answered(s, "7天")) == pytest.approx(_want(SALES, 7, "D", "revenue").round(4).tolist(), nan_ok=True)
    s = Session(ws)
    assert s.turn("moving average of revenue in sales.csv").decision.missing == ("window",)
    tr = answered(s, "14 days")
    assert _last(tr) == pytest.approx(_want(SALES, 14, "D", "revenue").round(4).tolist(), nan_ok=True)


def test_the_restatement_says_the_window_the_empty_periods_and_the_blank_start_and_the_answer_the_last_average(ws):
    from modes import opspec

    spec = opspec.get("rolling")
    assert spec is not None
    args = {"column": "sold_on", "value": "revenue", "window": 7, "unit": "day", "by": ["branch"]}
    for said, words in ((spec.phrase(args, "zh"), ("branch", "sold_on", "revenue", "7日", "按 0 计", "前 6 期", "留空")),
                        (spec.phrase(args, "en"), ("branch", "sold_on", "revenue", "7-day", "count as 0", "first 6", "blank"))):
        assert all(w in said for w in words), said
    tr = answered(Session(ws), "rolling 7-day average of revenue in sales.csv")
    want = _want(SALES, 7, "D", "revenue")
    assert f"{want.iloc[-1]:,.2f}".rstrip("0").rstrip(".") in tr.run.answer and str(want.index[-1]) in tr.run.answer, tr.run.answer
    empty = len(pd.date_range(DATES.min(), DATES.max())) - DATES.nunique()
    assert empty >= 5 and f"{empty} days had no rows" in tr.run.answer, tr.run.answer
