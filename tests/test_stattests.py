"""Statistical tests against scipy computed independently."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from tools import registry
from tools.errors import ToolArgError

RNG = np.random.default_rng(11)
DF = pd.DataFrame({
    "组": np.repeat(["甲", "乙", "丙"], 40),
    "得分": np.concatenate([RNG.normal(70, 8, 40), RNG.normal(75, 12, 40), RNG.normal(72, 9, 40)]).round(1),
    "性别": RNG.choice(["男", "女"], 120),
    "偏好": RNG.choice(["茶", "咖啡", "果汁"], 120),
    "广告费": RNG.uniform(1, 100, 120).round(2),
})
DF["销量"] = (3 * DF["广告费"] + RNG.normal(0, 40, 120)).round(1)


def call(name, table=DF, **kw):
    return registry.call(name, {"table": table.copy(), **kw})


def test_welch_t():
    r = call("welch_t_test", column="得分", group="组", levels=["甲", "乙"])
    a, b = DF.loc[DF["组"] == "甲", "得分"], DF.loc[DF["组"] == "乙", "得分"]
    want = stats.ttest_ind(a, b, equal_var=False)
    assert r.facts["statistic"] == pytest.approx(want.statistic, abs=1e-4)
    assert r.facts["p"] == pytest.approx(want.pvalue, abs=1e-4)
    assert r.facts["sizes"] == {"甲": 40, "乙": 40} and r.facts["test"].startswith("Welch")
    with pytest.raises(ToolArgError) as e:  # three groups: which two?
        call("welch_t_test", column="得分", group="组")
    assert "两组" in e.value.zh


def test_anova():
    r = call("anova_test", column="得分", group="组")
    want = stats.f_oneway(*[DF.loc[DF["组"] == g, "得分"] for g in ["丙", "乙", "甲"]])
    assert r.facts["statistic"] == pytest.approx(want.statistic, abs=1e-4)
    assert r.facts["p"] == pytest.approx(want.pvalue, abs=1e-4)
    assert r.facts["sizes"] == {"丙": 40, "乙": 40, "甲": 40}


def test_chi_square():
    r = call("chi_square_test", a="性别", b="偏好")
    want = stats.chi2_contingency(pd.crosstab(DF["性别"], DF["偏好"]))
    assert r.facts["statistic"] == pytest.approx(want.statistic, abs=1e-4)
    assert r.facts["p"] == pytest.approx(want.pvalue, abs=1e-4)
    assert r.facts["dof"] == want.dof and r.facts["n"] == 120


def test_normality_and_correlations_and_trend():
    r = call("normality_test", column="得分")
    w = stats.shapiro(DF["得分"])
    assert r.facts["statistic"] == pytest.approx(w.statistic, abs=1e-4) and r.facts["p"] == pytest.approx(w.pvalue, abs=1e-4)
    p = call("correlation_test", a="广告费", b="销量")
    want = stats.pearsonr(DF["广告费"], DF["销量"])
    assert p.facts["r"] == pytest.approx(want.statistic, abs=1e-4) and p.facts["n"] == 120
    s = call("correlation_test", a="广告费", b="销量", method="spearman")
    assert s.facts["r"] == pytest.approx(stats.spearmanr(DF["广告费"], DF["销量"]).statistic, abs=1e-4)
    t = call("linear_trend", x="广告费", y="销量")
    lr = stats.linregress(DF["广告费"], DF["销量"])
    assert t.facts["slope"] == pytest.approx(lr.slope, abs=1e-4)
    assert t.facts["intercept"] == pytest.approx(lr.intercept, abs=1e-4)
    assert t.facts["r2"] == pytest.approx(lr.rvalue ** 2, abs=1e-4)


def test_too_small_groups_are_refused_with_the_reason():
    small = pd.DataFrame({"组": ["甲", "甲", "乙", "乙", "乙"], "得分": [1, 2, 3, 4, 5]})
    with pytest.raises(ToolArgError) as e:
        call("welch_t_test", table=small, column="得分", group="组")
    assert "甲（2 个）" in e.value.zh and e.value.facts["sizes"] == {"甲": 2, "乙": 3}
    with pytest.raises(ToolArgError) as e:
        call("chi_square_test", table=pd.DataFrame({"a": ["x", "y", "x", "y"], "b": ["p", "q", "q", "p"]}), a="a", b="b")
    assert "期望频数" in e.value.zh
    with pytest.raises(ToolArgError):
        call("normality_test", table=small, column="得分")


def test_group_difference_picks_welch_for_two_groups_and_anova_for_more():
    two = call("group_difference_test", column="得分", group="性别")
    want = stats.ttest_ind(DF.loc[DF["性别"] == "女", "得分"], DF.loc[DF["性别"] == "男", "得分"], equal_var=False)
    assert two.facts["test"].startswith("Welch") and two.facts["p"] == pytest.approx(want.pvalue, abs=1e-4)
    more = call("group_difference_test", column="得分", group="组")
    assert more.facts["test"] == "单因素方差分析" and len(more.facts["sizes"]) == 3
