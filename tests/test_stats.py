"""Descriptive statistics, shares, proportions, comparisons, ranks and lookups, recomputed with pandas."""

import numpy as np
import pandas as pd
import pytest

from tools import registry
from tools.errors import ToolArgError
from tools.fmt import num, pct, unit_of

RNG = np.random.default_rng(7)
N = 400
SALES = pd.DataFrame({
    "区域": RNG.choice(["华东", "华北", "华南", "西部"], N),
    "产品": RNG.choice(["A", "B", "C"], N),
    "销售额": RNG.gamma(2.0, 500.0, N).round(2),
    "数量": RNG.integers(1, 50, N),
})
SALES.loc[RNG.choice(N, 20, replace=False), "销售额"] = np.nan


def call(name, table=SALES, **kw):
    return registry.call(name, {"table": table.copy(), **kw})


def test_overall_statistics_match_pandas():
    r = call("column_stats", columns=["销售额"], stats=["median", "std", "var", "q1", "q3", "iqr", "range", "nunique", "cv", "p90", "mode"])
    s = SALES["销售额"].dropna()
    v = r.facts["values"]["销售额"]
    assert v["median"] == pytest.approx(s.median(), abs=1e-4)
    assert v["std"] == pytest.approx(s.std(), abs=1e-4)
    assert v["var"] == pytest.approx(s.var(), abs=1e-3)
    assert v["iqr"] == pytest.approx(s.quantile(0.75) - s.quantile(0.25), abs=1e-4)
    assert v["range"] == pytest.approx(s.max() - s.min(), abs=1e-4)
    assert v["nunique"] == s.nunique()
    assert v["cv"] == pytest.approx(s.std() / s.mean(), abs=1e-4)
    assert v["p90"] == pytest.approx(s.quantile(0.9), abs=1e-4)
    assert r.facts["n"]["销售额"] == len(s)
    assert r.data.loc[0, "中位数"] == v["median"]


def test_mode_of_text_and_numbers():
    t = pd.DataFrame({"城市": ["上海", "北京", "上海", None], "分": [1, 2, 2, 3]})
    r = call("column_stats", table=t, columns=["城市", "分"], stats=["mode", "nunique", "count"])
    assert r.facts["values"]["城市"] == {"mode": "上海", "nunique": 2, "count": 3}
    assert r.facts["values"]["分"]["mode"] == "2"


def test_describe_several_columns_by_default():
    r = call("column_stats", columns=["销售额", "数量"])
    assert list(r.data["列"]) == ["销售额", "数量"]
    assert r.data.set_index("列").loc["数量", "平均"] == pytest.approx(SALES["数量"].mean(), abs=1e-4)
    assert r.data.set_index("列").loc["销售额", "上四分位数"] == pytest.approx(SALES["销售额"].quantile(0.75), abs=1e-4)


def test_statistics_per_group():
    r = call("column_stats", columns=["销售额"], stats=["median", "std"], by=["区域"])
    want = SALES.groupby("区域")["销售额"].agg(["median", "std"])
    got = r.data.set_index("区域")
    for region in want.index:
        assert got.loc[region, "中位数"] == pytest.approx(want.loc[region, "median"], abs=1e-4)
        assert got.loc[region, "标准差"] == pytest.approx(want.loc[region, "std"], abs=1e-4)
        assert got.loc[region, "行数"] == (SALES["区域"] == region).sum()
    assert r.facts["groups"] == 4


def test_bad_statistic_and_text_column_are_refused():
    with pytest.raises(ToolArgError):
        call("column_stats", columns=["销售额"], stats=["kurtosis"])
    with pytest.raises(ToolArgError) as e:
        call("column_stats", columns=["区域"], stats=["median"])
    assert "没有数字" in e.value.zh


def test_share_of_total_and_cumulative():
    r = call("share_of_total", keys=["区域"], column="销售额")
    want = SALES.groupby("区域")["销售额"].sum().sort_values(ascending=False)
    share = want / want.sum() * 100
    assert list(r.data["区域"]) == list(want.index)
    assert r.data["占比(%)"].tolist() == pytest.approx(share.round(2).tolist(), abs=0.01)
    assert r.data["累计占比(%)"].iloc[-1] == pytest.approx(100.0)
    assert r.facts["top"]["label"] == want.index[0]
    assert r.facts["total"] == pytest.approx(SALES["销售额"].sum(), abs=1e-2)


def test_share_of_rows_and_within_group():
    rows = call("share_of_total", keys=["产品"])
    assert rows.data.set_index("产品")["占比(%)"].to_dict() == pytest.approx(
        (SALES["产品"].value_counts(normalize=True) * 100).round(2).to_dict(), abs=0.01)
    r = call("share_of_total", keys=["产品"], column="销售额", within=["区域"])
    t = SALES.groupby(["区域", "产品"])["销售额"].sum()
    within = (t / t.groupby(level=0).transform("sum") * 100).round(2)
    got = r.data.set_index(["区域", "产品"])["占比(%)"]
    for k, v in within.items():
        assert got[k] == pytest.approx(v, abs=0.01)
    assert r.data.groupby("区域")["占比(%)"].sum().tolist() == pytest.approx([100.0] * 4, abs=0.05)


def test_proportion_where():
    r = call("proportion_where", conditions=[{"column": "销售额", "op": "gt", "value": 1000}])
    hit = int((SALES["销售额"] > 1000).sum())
    assert r.facts["matched"] == hit and r.facts["total"] == N
    assert r.facts["pct"] == pytest.approx(round(hit / N * 100, 2))
    with pytest.raises(ToolArgError):
        call("proportion_where", conditions=[])


def test_above_mean_overall_and_within_group():
    r = call("compare_to_aggregate", column="销售额", direction="above", agg="mean")
    assert r.facts["rows_out"] == int((SALES["销售额"] > SALES["销售额"].mean()).sum())
    assert r.facts["reference"] == pytest.approx(SALES["销售额"].mean(), abs=1e-4)
    g = call("compare_to_aggregate", column="销售额", direction="below", agg="median", by=["区域"])
    med = SALES.groupby("区域")["销售额"].transform("median")
    assert g.facts["rows_out"] == int((SALES["销售额"] < med).sum())


def test_top_n_per_group_and_rank():
    r = call("top_n_per_group", by=["区域"], column="销售额", n=2)
    want = SALES.dropna(subset=["销售额"]).sort_values("销售额", ascending=False).groupby("区域").head(2)
    assert sorted(r.data["销售额"].tolist()) == sorted(want["销售额"].tolist())
    assert r.data.groupby("区域").size().max() == 2
    k = call("rank_rows", column="数量", by=["区域"], method="dense")
    want_rank = SALES.groupby("区域")["数量"].rank(method="dense", ascending=False)
    assert k.data["数量_组内排名"].astype(float).tolist() == want_rank.tolist()
    m = call("rank_rows", column="数量")
    assert m.data["数量_排名"].astype(float).tolist() == SALES["数量"].rank(method="min", ascending=False).tolist()


def test_lookup_names_the_rows():
    t = pd.DataFrame({"姓名": ["张三", "李四", "王五"], "部门": ["销售", "技术", "销售"], "工资": [8000, 12000, 9000]})
    r = call("lookup_value", table=t, key_column="姓名", key="李四", columns=["工资"])
    assert r.facts["values"] == {"工资": [12000]} and r.facts["rows_out"] == 1
    with pytest.raises(ToolArgError) as e:
        call("lookup_value", table=t, key_column="姓名", key="李斯", columns=["工资"])
    assert "李四" in e.value.zh


def test_number_display():
    assert num(1234567.891, "zh") == "123.46万"
    assert num(1234567.891, "en") == "1,234,567.89"
    assert num(3.2e9, "zh") == "32亿"
    assert num(12345, "zh") == "12,345"
    assert pct(0.23456) == "23.46%"
    assert unit_of("销售额(元)") == "元" and unit_of("面积（平方公里）") == "平方公里" and unit_of("销售额") == ""
