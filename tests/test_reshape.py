"""Pivots, unpivot, transpose and wide tables (one column per year or month), recomputed with pandas."""

import numpy as np
import pandas as pd
import pytest

from tools import registry
from tools.errors import ToolArgError
from tools.reshape import detect_series

RNG = np.random.default_rng(5)
N = 300
SALES = pd.DataFrame({"区域": RNG.choice(["华东", "华北", "华南"], N), "产品": RNG.choice(["A", "B"], N),
                      "销售额": RNG.uniform(100, 900, N).round(2)})
YEARS = [f"{y}年" for y in range(2015, 2022)]
WIDE = pd.DataFrame({"指标": ["地区生产总值(亿元)", "常住人口(万人)", "财政收入(亿元)"],
                     **{y: RNG.uniform(100, 1000, 3).round(1) for y in YEARS}})
MONTHS = pd.DataFrame({"商品": ["苹果", "香蕉"], **{f"{m}月": RNG.integers(10, 99, 2) for m in range(1, 13)}})


def call(name, table, **kw):
    return registry.call(name, {"table": table.copy(), **kw})


def test_pivot_with_totals():
    r = call("pivot_table", SALES, rows=["区域"], columns="产品", value="销售额", agg="sum")
    want = pd.pivot_table(SALES, index="区域", columns="产品", values="销售额", aggfunc="sum")
    got = r.data.set_index("区域")
    for reg in want.index:
        for p in want.columns:
            assert got.loc[reg, p] == pytest.approx(want.loc[reg, p], abs=1e-4)
        assert got.loc[reg, "合计"] == pytest.approx(want.loc[reg].sum(), abs=1e-3)
    assert got.loc["合计", "合计"] == pytest.approx(SALES["销售额"].sum(), abs=1e-3)
    assert r.facts["grand_total"] == pytest.approx(SALES["销售额"].sum(), abs=1e-3)


def test_crosstab_counts():
    r = call("pivot_table", SALES, rows=["区域"], columns="产品")
    want = pd.crosstab(SALES["区域"], SALES["产品"], margins=True, margins_name="合计")
    got = r.data.set_index("区域")
    assert got.loc[want.index, list(want.columns)].astype(int).values.tolist() == want.values.tolist()


def test_unpivot_and_transpose():
    m = call("unpivot", WIDE, id_columns=["指标"], var_name="年份", value_name="值")
    assert len(m.data) == 3 * len(YEARS)
    assert m.data.set_index(["指标", "年份"]).loc[("常住人口(万人)", "2016年"), "值"] == WIDE.loc[1, "2016年"]
    t = call("transpose_table", WIDE)
    assert list(t.data.columns) == ["指标", *WIDE["指标"]]
    assert t.data.set_index("指标").loc["2018年", "财政收入(亿元)"] == WIDE.loc[2, "2018年"]


def test_series_recognised():
    s = detect_series(list(WIDE.columns))
    assert s.kind == "year" and s.columns == tuple(YEARS)
    assert detect_series(list(MONTHS.columns)).kind == "month"
    assert detect_series(["Region", "Jan", "Feb", "Mar", "Apr"]).periods == (1, 2, 3, 4)
    assert detect_series(["区域", "产品", "销售额"]) is None


def test_wide_summary_totals_peak_and_cagr():
    r = call("wide_summary", WIDE)
    v = WIDE[YEARS]
    got = r.data.set_index("指标")
    for i, name in enumerate(WIDE["指标"]):
        row = v.iloc[i]
        assert got.loc[name, "合计"] == pytest.approx(row.sum(), abs=1e-3)
        assert got.loc[name, "平均"] == pytest.approx(row.mean(), abs=1e-3)
        assert got.loc[name, "最高期"] == row.idxmax() and got.loc[name, "最低期"] == row.idxmin()
        assert got.loc[name, "年均增长率(%)"] == pytest.approx(((row.iloc[-1] / row.iloc[0]) ** (1 / 6) - 1) * 100, abs=0.01)
    one = call("wide_summary", WIDE, rows=["常住人口(万人)"])
    assert one.facts["rows_out"] == 1
    with pytest.raises(ToolArgError):
        call("wide_summary", SALES)


def test_wide_growth_and_long_form():
    g = call("wide_growth", MONTHS)
    v = MONTHS[[f"{m}月" for m in range(1, 13)]].astype(float)
    want = ((v - v.shift(1, axis=1)) / v.shift(1, axis=1) * 100).round(2)
    assert g.data["2月增长(%)"].tolist() == pytest.approx(want["2月"].tolist())
    long = call("wide_to_long", MONTHS)
    assert len(long.data) == 24 and list(long.data.columns) == ["商品", "月份", "数值"]
    assert long.data[long.data["商品"] == "苹果"]["月份"].tolist() == [f"{m}月" for m in range(1, 13)]
    assert long.data.groupby("商品")["数值"].sum().to_dict() == v.sum(axis=1).set_axis(MONTHS["商品"]).to_dict()


def test_statistics_office_month_and_quarter_columns():
    cols = ["指标", "2024年3月", "2024年2月", "2024年1月", "2023年12月"]
    s = detect_series(cols)
    assert s.kind == "month" and s.columns == ("2023年12月", "2024年1月", "2024年2月", "2024年3月")
    assert detect_series(["指标", "2023年第4季度", "2023年第3季度", "2023Q2"]).kind == "quarter"
    t = pd.DataFrame({"指标": ["价格"], "2024年2月": [12.0], "2024年1月": [10.0], "2023年12月": [8.0]})
    g = call("wide_growth", t)
    assert g.data["2024年2月增长(%)"].tolist() == [20.0] and g.data["2024年1月增长(%)"].tolist() == [25.0]


def test_wide_statistics_across_a_period_range():
    r = call("wide_stats", WIDE, stats=["mean", "median", "var"], rows=["常住人口(万人)"], first="2016年", last="2019年")
    v = WIDE.set_index("指标").loc["常住人口(万人)", ["2016年", "2017年", "2018年", "2019年"]].astype(float)
    got = r.facts["values"][0]
    assert got["n"] == 4 and got["mean"] == pytest.approx(v.mean(), abs=1e-4)
    assert got["median"] == pytest.approx(v.median(), abs=1e-4) and got["var"] == pytest.approx(v.var(), abs=1e-3)
    g = call("wide_growth", WIDE, first="2018年", last="2020年")
    assert list(g.data.columns) == ["指标", "2019年增长(%)", "2020年增长(%)"]
    with pytest.raises(ToolArgError):
        call("wide_stats", WIDE, stats=["mean"], first="2030年")


def test_wide_trend_matches_scipy():
    from scipy import stats

    r = call("wide_trend", WIDE, rows=["财政收入(亿元)"], first="2016年", last="2020年")
    v = WIDE.set_index("指标").loc["财政收入(亿元)", [f"{y}年" for y in range(2016, 2021)]].astype(float)
    lr = stats.linregress(range(2016, 2021), v)
    t = r.facts["trends"][0]
    assert t["slope"] == pytest.approx(lr.slope, abs=1e-4) and t["r2"] == pytest.approx(lr.rvalue ** 2, abs=1e-4) and t["n"] == 5
