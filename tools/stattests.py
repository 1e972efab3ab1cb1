"""Statistical tests (scipy, imported when a test runs): each names its test, statistic, p, groups and sizes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from tools.errors import ToolArgError
from tools.fmt import rnd
from tools.ops import _need_columns, _sample
from tools.registry import ToolResult, tool
from tools.stats import numeric

MIN_PER_GROUP = 3
ALPHA = 0.05


TEST_NAMES_EN = {"t 检验": "A t-test", "方差分析": "ANOVA", "正态性检验": "A normality test", "相关性检验": "A correlation test",
                 "线性趋势": "A linear trend"}  # the test's name in an English answer


def _too_small(what: str, sizes: dict[str, int], need: int = MIN_PER_GROUP) -> None:
    small = {k: v for k, v in sizes.items() if v < need}
    if small:
        listed = "、".join(f"{k}（{v} 个）" for k, v in small.items())
        raise ToolArgError(
            f"{what}需要每组至少 {need} 个数值，{listed}太少，检验没有意义，所以没有计算。",
            f"{TEST_NAMES_EN.get(what, what)} needs at least {need} values per group; too few in {', '.join(f'{k} ({v})' for k, v in small.items())}, so nothing was computed.",
            sizes=sizes,
        )


def _groups(table: pd.DataFrame, column: str, group: str, levels: list[Any] | None) -> dict[str, pd.Series]:
    _need_columns(table, [column, group])
    x = numeric(table, column)
    codes, uniques = pd.factorize(table[group])  # word the few distinct values, not every row
    words = [str(u).strip() for u in uniques]
    names = [str(v).strip() for v in levels] if levels else sorted(set(words))
    missing = [n for n in names if n not in words]
    if missing:
        raise ToolArgError(f"列“{group}”里没有 {'、'.join(missing)}。", f"Column '{group}' has no {', '.join(missing)}.")
    return {n: x[np.isin(codes, [i for i, w in enumerate(words) if w == n])].dropna() for n in names}


def _data_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The table without its own total row (合计 / Total): a total is no observation of the data."""
    from tools.stats import total_rows

    own = total_rows(table)
    return table[~own] if own.any() else table


def _result(test: str, stat_name: str, stat: float, p: float, sizes: dict[str, int], extra: dict[str, Any], rows: list[dict[str, Any]],
            n_in: int, skipped: int = 0) -> ToolResult:
    out = pd.DataFrame(rows)
    facts = {"test": test, "statistic_name": stat_name, "statistic": rnd(stat, 4), "p": rnd(p, 4), "p_text": p_text(p),
             "significant": bool(p < ALPHA), "alpha": ALPHA, "sizes": sizes, "rows_in": n_in, "rows_out": len(out),
             **({"skipped_totals": skipped} if skipped else {}), **extra}
    return ToolResult(out, facts, {"sample": _sample(out, 20)})


def p_text(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"= {p:.3f}"


@tool
def welch_t_test(table: pd.DataFrame, column: str, group: str, levels: list[str] | None = None) -> ToolResult:
    """Welch two-sample t-test: does the mean of a column differ between two groups?"""
    from scipy import stats

    n_in, table = len(table), _data_rows(table)
    g = _groups(table, column, group, levels)
    if len(g) != 2:
        raise ToolArgError(f"t 检验只比较两组，列“{group}”有 {len(g)} 组（{'、'.join(g)}）；请指明哪两组，或改用方差分析。",
                           f"A t-test compares two groups; '{group}' has {len(g)}. Name two, or use ANOVA.", groups=list(g))
    sizes = {k: len(v) for k, v in g.items()}
    _too_small("t 检验", sizes)
    a, b = g.values()
    res = stats.ttest_ind(a, b, equal_var=False)
    rows = [{"组": k, "样本数": len(v), "平均": rnd(v.mean()), "标准差": rnd(v.std())} for k, v in g.items()]
    means = {k: rnd(v.mean()) for k, v in g.items()}
    return _result("Welch t 检验", "t", float(res.statistic), float(res.pvalue), sizes,
                   {"column": column, "group": group, "means": means, "totals": {k: rnd(v.sum()) for k, v in g.items()}, "df": rnd(float(res.df), 2)},
                   rows, n_in, n_in - len(table))


@tool
def group_difference_test(table: pd.DataFrame, column: str, group: str, levels: list[str] | None = None) -> ToolResult:
    """Do the means of a column differ between groups? Welch t-test for two groups, one-way ANOVA for more."""
    names = levels or sorted({str(v).strip() for v in table[group].dropna().unique()}) if group in table.columns else []
    if len(names) == 2:
        return welch_t_test(table, column, group, names)
    if levels:
        table = table[table[group].astype("string").str.strip().isin([str(v).strip() for v in levels]).fillna(False).astype(bool)]
    return anova_test(table, column, group)


@tool
def anova_test(table: pd.DataFrame, column: str, group: str) -> ToolResult:
    """One-way ANOVA: do the means of a column differ across the groups of another column?"""
    from scipy import stats

    n_in, table = len(table), _data_rows(table)
    g = _groups(table, column, group, None)
    if len(g) < 2:
        raise ToolArgError(f"列“{group}”只有 {len(g)} 组，方差分析至少需要两组。", f"'{group}' has {len(g)} group(s); ANOVA needs two or more.")
    sizes = {k: len(v) for k, v in g.items()}
    _too_small("方差分析", sizes)
    res = stats.f_oneway(*g.values())
    rows = [{"组": k, "样本数": len(v), "平均": rnd(v.mean()), "标准差": rnd(v.std())} for k, v in g.items()]
    return _result("单因素方差分析", "F", float(res.statistic), float(res.pvalue), sizes,
                   {"column": column, "group": group, "means": {k: rnd(v.mean()) for k, v in g.items()}, "totals": {k: rnd(v.sum()) for k, v in g.items()}},
                   rows, n_in, n_in - len(table))


@tool
def chi_square_test(table: pd.DataFrame, a: str, b: str, weight: str | None = None) -> ToolResult:
    """Chi-square test of independence between two categorical columns (the crosstab is the result); with `weight`, each
    row counts that many times (a table of counts: row, period, count)."""
    from scipy import stats

    _need_columns(table, [a, b] + ([weight] if weight else []))
    n_in, table = len(table), _data_rows(table)
    both = table[[a, b]].dropna()
    if weight:
        w = numeric(table, weight).loc[both.index]
        if (w.dropna() < 0).any():
            raise ToolArgError(f"“{weight}”里有负数，不是计数，不能做卡方检验。", f"'{weight}' has negative values; it is not a count.")
        ct = pd.crosstab(both[a].astype(str), both[b].astype(str), values=w, aggfunc="sum").fillna(0)
    else:
        ct = pd.crosstab(both[a].astype(str), both[b].astype(str))
    if ct.shape[0] < 2 or ct.shape[1] < 2:
        raise ToolArgError(f"“{a}”和“{b}”至少各需要两个不同的值才能做卡方检验。", f"'{a}' and '{b}' each need two or more values.")
    res = stats.chi2_contingency(ct)
    expected = res.expected_freq
    low = int((expected < 5).sum())
    rows = ct.reset_index().rename(columns={a: f"{a} \\ {b}"})
    out = pd.DataFrame(rows)
    facts = {"test": "卡方独立性检验", "statistic_name": "χ²", "statistic": rnd(float(res.statistic), 4), "p": rnd(float(res.pvalue), 4),
             "p_text": p_text(float(res.pvalue)), "significant": bool(res.pvalue < ALPHA), "alpha": ALPHA, "dof": int(res.dof), "a": a, "b": b,
             "n": rnd(float(ct.to_numpy().sum())) if weight else len(both), "sizes": {"rows": len(both)}, "low_expected_cells": low,
             "rows_in": n_in, "rows_out": len(out), "weight": weight, **({"skipped_totals": n_in - len(table)} if n_in > len(table) else {})}
    facts["low_expected_share"] = rnd(low / expected.size, 4)
    if (float(ct.to_numpy().sum()) if weight else len(both)) < 10:
        raise ToolArgError(
            f"样本太少：{len(both)} 行里有 {low} 个格子的期望频数小于 5，卡方检验不可靠，所以没有给出结论。",
            f"Too few rows: {low} cells of the {a} × {b} table expect fewer than 5, so the chi-square test is unreliable.",
            n=len(both), low_expected_cells=low,
        )
    return ToolResult(out, facts, {"sample": _sample(out, 20)})


@tool
def normality_test(table: pd.DataFrame, column: str) -> ToolResult:
    """Shapiro–Wilk test: could the values of a column come from a normal distribution?"""
    from scipy import stats

    _need_columns(table, [column])
    n_in, table = len(table), _data_rows(table)
    x = numeric(table, column).dropna()
    _too_small("正态性检验", {column: len(x)}, need=8)
    sample = x.sample(5000, random_state=0) if len(x) > 5000 else x
    res = stats.shapiro(sample)
    rows = [{"列": column, "样本数": len(sample), "W": rnd(float(res.statistic)), "p": rnd(float(res.pvalue))}]
    return _result("Shapiro–Wilk 正态性检验", "W", float(res.statistic), float(res.pvalue), {column: len(sample)},
                   {"column": column, "sampled": len(sample) < len(x), "n": len(sample)}, rows, n_in, n_in - len(table))


@tool
def correlation_test(table: pd.DataFrame, a: str, b: str, method: str = "pearson") -> ToolResult:
    """Pearson or Spearman correlation of two columns with its p-value."""
    from scipy import stats

    if method not in ("pearson", "spearman"):
        raise ToolArgError(f"不支持的相关方法：{method}。", f"Unsupported correlation method: {method}.")
    _need_columns(table, [a, b])
    n_in, table = len(table), _data_rows(table)
    x, y = numeric(table, a), numeric(table, b)
    both = x.notna() & y.notna()
    _too_small("相关性检验", {f"{a}/{b}": int(both.sum())})
    res = (stats.pearsonr if method == "pearson" else stats.spearmanr)(x[both], y[both])
    r, p = float(res.statistic), float(res.pvalue)
    name = "Pearson 相关" if method == "pearson" else "Spearman 等级相关"
    rows = [{"列A": a, "列B": b, "方法": name, "r": rnd(r), "p": rnd(p), "样本数": int(both.sum())}]
    strength = "几乎无关" if abs(r) < 0.2 else "弱" if abs(r) < 0.4 else "中等" if abs(r) < 0.7 else "强"
    return _result(name, "r", r, p, {"n": int(both.sum())}, {"a": a, "b": b, "r": rnd(r), "n": int(both.sum()), "method": method,
                                                            "strength": strength}, rows, n_in, n_in - len(table))


@tool
def linear_trend(table: pd.DataFrame, x: str, y: str) -> ToolResult:
    """Least-squares line y = slope·x + intercept with r², p and n (dates on x count in days)."""
    from scipy import stats

    _need_columns(table, [x, y])
    n_in, table = len(table), _data_rows(table)
    xs = table[x]
    unit = ""
    if pd.api.types.is_datetime64_any_dtype(xs):
        xv = (xs - xs.min()).dt.days.astype(float)
        unit = "天"
    else:
        xv = numeric(table, x)
    yv = numeric(table, y)
    both = xv.notna() & yv.notna()
    _too_small("线性趋势", {f"{x}/{y}": int(both.sum())})
    if xv[both].nunique() < 2:
        raise ToolArgError(f"“{x}”只有一个取值，无法拟合趋势。", f"'{x}' has a single value; no trend can be fitted.")
    res = stats.linregress(xv[both], yv[both])
    r2 = float(res.rvalue) ** 2
    rows = [{"斜率": rnd(res.slope), "截距": rnd(res.intercept), "r²": rnd(r2), "p": rnd(float(res.pvalue)), "样本数": int(both.sum())}]
    return _result("线性趋势（最小二乘）", "slope", float(res.slope), float(res.pvalue), {"n": int(both.sum())},
                   {"x": x, "y": y, "slope": rnd(res.slope), "intercept": rnd(res.intercept), "r2": rnd(r2), "n": int(both.sum()),
                    "x_unit": unit}, rows, n_in, n_in - len(table))
