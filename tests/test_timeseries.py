"""Date buckets, growth, CAGR and running totals, recomputed with pandas."""

import numpy as np
import pandas as pd
import pytest

from tools import registry
from tools.errors import ToolArgError

RNG = np.random.default_rng(3)
N = 900
DATES = pd.Timestamp("2022-01-01") + pd.to_timedelta(RNG.integers(0, 3 * 365, N), unit="D")
DF = pd.DataFrame({"日期": DATES, "门店": RNG.choice(["一店", "二店"], N), "金额": RNG.uniform(10, 1000, N).round(2)})
TEXT_DATES = DF.assign(日期=DF["日期"].dt.strftime("%Y年%m月%d日"))


def call(name, table=DF, **kw):
    return registry.call(name, {"table": table.copy(), **kw})


@pytest.mark.parametrize("unit,key", [("year", lambda d: d.dt.year.astype(str)), ("quarter", lambda d: d.dt.to_period("Q").astype(str).str.replace("Q", "Q")),
                                      ("month", lambda d: d.dt.strftime("%Y-%m"))])
def test_bucket_sums(unit, key):
    r = call("bucket_dates", column="日期", unit=unit, value="金额")
    want = DF.groupby(key(DF["日期"]))["金额"].sum()
    got = r.data.set_index(r.data.columns[0])["金额_合计"]
    assert got.to_dict() == pytest.approx(want.to_dict())
    assert r.data["行数"].sum() == N and r.facts["years"] == [2022, 2023, 2024]


def test_bucket_weekday_and_week_and_text_dates():
    r = call("bucket_dates", table=TEXT_DATES, column="日期", unit="weekday")
    want = DF["日期"].dt.day_of_week.value_counts().sort_index()
    assert r.data["行数"].tolist() == want.tolist() and r.data["星期"].iloc[0] == "周一"
    w = call("bucket_dates", column="日期", unit="week", value="金额", agg="mean")
    iso = DF["日期"].dt.isocalendar()
    want_w = DF.groupby(iso["year"].astype(str) + "-W" + iso["week"].map("{:02d}".format))["金额"].mean()
    assert w.data.set_index("周")["金额_平均"].to_dict() == pytest.approx(want_w.to_dict())


def test_month_over_month_and_year_over_year():
    r = call("period_growth", column="日期", value="金额", unit="month", kind="pop")
    m = DF.groupby(DF["日期"].dt.to_period("M"))["金额"].sum()
    want = (m / m.shift(1) - 1) * 100
    assert r.data["环比增长(%)"].tolist()[1:] == pytest.approx(want.round(2).tolist()[1:], abs=0.01)
    y = call("period_growth", column="日期", value="金额", unit="month", kind="yoy")
    want_y = (m / m.shift(12) - 1) * 100
    assert y.data["同比增长(%)"].tolist()[12:] == pytest.approx(want_y.round(2).tolist()[12:], abs=0.01)
    assert y.facts["last"]["period"] == str(m.index[-1])


def test_cagr_and_refusal_on_one_year():
    r = call("cagr", column="日期", value="金额")
    y = DF.groupby(DF["日期"].dt.year)["金额"].sum()
    assert r.facts["cagr_pct"] == pytest.approx(((y.iloc[-1] / y.iloc[0]) ** (1 / 2) - 1) * 100, abs=0.01)
    years = pd.DataFrame({"年份": [2018, 2019, 2020, 2021], "产值": [100, 110, 121, 133.1]})
    assert call("cagr", table=years, column="年份", value="产值").facts["cagr_pct"] == pytest.approx(10.0)
    with pytest.raises(ToolArgError):
        call("cagr", table=years.head(1), column="年份", value="产值")


def test_running_total_and_first_last():
    r = call("running_total", column="金额", order_by="日期", by=["门店"])
    want = DF.sort_values("日期", kind="stable").groupby("门店")["金额"].cumsum()
    assert r.data["金额_累计"].tolist() == pytest.approx(want.round(4).tolist())
    last = call("first_last_per_group", by=["门店"], order_by="日期", which="last")
    assert last.data.set_index("门店")["日期"].to_dict() == DF.groupby("门店")["日期"].max().to_dict()


def test_no_dates_refused():
    with pytest.raises(ToolArgError) as e:
        call("bucket_dates", column="门店", unit="month")
    assert "日期" in e.value.zh
