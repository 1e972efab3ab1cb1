"""Formula columns: arithmetic over columns through a whitelist; nothing a user types is run as code."""

import numpy as np
import pandas as pd
import pytest

from tools import registry
from tools.errors import ColumnMissing
from tools.formula import FormulaRefused

RNG = np.random.default_rng(9)
DF = pd.DataFrame({"销售额": RNG.uniform(100, 1000, 50).round(2), "成本": RNG.uniform(50, 500, 50).round(2),
                   "面积(平方公里)": RNG.uniform(1, 10, 50).round(2), "2015年": RNG.integers(1, 9, 50), "A": 1.0, "B": 2.0, "C": 6.0})
DF.loc[3, "销售额"] = 0


def call(expression, name="新列", table=DF):
    return registry.call("formula_column", {"table": table.copy(), "name": name, "expression": expression})


def test_margin_with_parentheses_and_percent():
    r = call("(销售额 - 成本) ÷ 销售额 × 100", "毛利率")
    want = (DF["销售额"] - DF["成本"]) / DF["销售额"].replace(0, np.nan) * 100
    assert r.data["毛利率"].tolist() == pytest.approx(want.round(6).tolist(), nan_ok=True)
    assert r.facts["div_by_zero"] == 1 and r.facts["blank_results"] == 1
    t = call("销售额 * 13%", "税额")
    assert t.data["税额"].tolist() == pytest.approx((DF["销售额"] * 0.13).round(6).tolist())


def test_odd_names_and_brackets():
    r = call("(A + B + C) / 3")
    assert r.data["新列"].tolist() == pytest.approx([3.0] * 50)
    d = call("[2015年] / 面积(平方公里)", "密度")
    assert d.data["密度"].tolist() == pytest.approx((DF["2015年"] / DF["面积(平方公里)"]).round(6).tolist())
    w = call("销售额 减去 成本 乘以 2")
    assert w.data["新列"].tolist() == pytest.approx((DF["销售额"] - DF["成本"] * 2).round(6).tolist())


@pytest.mark.parametrize("text", ["__import__('os').system('echo hi')", "销售额.__class__", "open('x')", "销售额 ** 2",
                                  "(lambda: 1)()", "销售额 if 成本 else 1", "销售额 % 3", "{'a': 销售额}", "globals()", "_c0_.real"])
def test_code_is_refused_clearly(text):
    with pytest.raises(FormulaRefused) as e:
        call(text)
    assert e.value.zh.startswith("公式无法使用") and "只能有列名" in e.value.zh


def test_unknown_column_and_constant_division_by_zero():
    with pytest.raises(ColumnMissing) as e:
        call("销量 / 成本")
    assert "销量" in e.value.zh
    with pytest.raises(FormulaRefused) as z:
        call("销售额 / 0")
    assert "除以 0" in z.value.zh
    with pytest.raises(FormulaRefused):
        call("1 + 2")
