"""Analysis requests end to end (decide → restate/plan → executor → answer), in Chinese and English, on data
generated here; every figure is recomputed independently with pandas or scipy."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from openpyxl import load_workbook
from scipy import stats

from engine.session import Session
from tools.fmt import num
from tools.workspace import Workspace

RNG = np.random.default_rng(21)
N = 480
SALES = pd.DataFrame({
    "订单号": [f"D{i:05d}" for i in range(N)],
    "日期": pd.Timestamp("2023-01-01") + pd.to_timedelta(RNG.integers(0, 730, N), unit="D"),
    "区域": RNG.choice(["东区", "西区", "南区", "北区"], N),
    "渠道": RNG.choice(["线上", "门店"], N),
    "销售额": RNG.gamma(2.0, 600.0, N).round(2),
    "成本": RNG.gamma(2.0, 350.0, N).round(2),
    "件数": RNG.integers(1, 40, N),
})
SALES.loc[[5, 17, 33], "成本"] = np.nan
YEARS = [f"{y}年" for y in range(2016, 2023)]
WIDE = pd.DataFrame({"指标": ["工业增加值(亿元)", "年末人口(万人)", "旅游收入(亿元)"],
                     **{y: RNG.uniform(200, 900, 3).round(1) for y in YEARS}})


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    SALES.to_excel(tmp_path / "门店销售.xlsx", index=False)
    WIDE.to_excel(tmp_path / "年鉴.xlsx", index=False)
    return Workspace.at(tmp_path)


def run(ws: Workspace, text: str):
    s = Session(ws)
    tr = s.turn(text)
    if tr.run is None and tr.decision.next in ("restate_confirm", "plan_confirm"):
        tr = s.turn("继续")
    assert tr.run is not None, tr.decision.reply
    assert tr.run.status == "answered", tr.run.notes
    assert not [n for n in tr.run.notes if "找不到对应" in n], tr.run.notes
    return tr


@pytest.mark.parametrize("text", ["门店销售.xlsx 销售额的中位数和方差是多少", "what is the median and variance of 销售额 in 门店销售.xlsx"])
def test_median_and_variance(ws, text):
    tr = run(ws, text)
    assert tr.decision.request.kinds() == ["stats"]
    lang = "en" if text.startswith("what") else "zh"
    assert num(round(SALES["销售额"].median(), 4), lang) in tr.run.answer
    assert num(round(SALES["销售额"].var(), 4), lang) in tr.run.answer
    assert f"{N:,}" in tr.run.answer and not tr.run.files


def test_statistics_per_group(ws):
    tr = run(ws, "门店销售.xlsx 按区域算成本的标准差")
    want = SALES.groupby("区域")["成本"].std()
    for region, v in want.items():
        assert f"{region}：标准差 {num(round(v, 4))}" in tr.run.answer


def test_share_of_total_and_proportion(ws):
    tr = run(ws, "门店销售.xlsx 各区域销售额占比")
    total = SALES.groupby("区域")["销售额"].sum()
    for region, v in total.items():
        assert f"{region} {round(v / total.sum() * 100, 2):g}%" in tr.run.answer
    tr = run(ws, "门店销售.xlsx 件数大于20的订单占多少比例")
    hit = int((SALES["件数"] > 20).sum())
    assert f"{hit:,} 行，占全部 {N:,} 行的 {round(hit / N * 100, 2):g}%" in tr.run.answer


def test_month_buckets_and_growth(ws):
    tr = run(ws, "门店销售.xlsx 按月汇总销售额")
    monthly = SALES.groupby(SALES["日期"].dt.strftime("%Y-%m"))["销售额"].sum()
    got = tr.run.table.set_index("月份")["销售额_合计"]
    assert got.to_dict() == pytest.approx(monthly.to_dict())
    tr = run(ws, "门店销售.xlsx 销售额的季度同比增长率")
    q = SALES.groupby(SALES["日期"].dt.to_period("Q"))["销售额"].sum()
    yoy = round((q.iloc[-1] / q.iloc[-5] - 1) * 100, 2)
    assert f"同比增长 {yoy:g}%" in tr.run.answer and str(q.index[-1]) in tr.run.answer


def test_wide_table_peak_and_cagr(ws):
    tr = run(ws, "年鉴.xlsx 哪一年旅游收入最高")
    row = WIDE.set_index("指标").loc["旅游收入(亿元)", YEARS]
    assert f"最高的是 {row.idxmax()}（{num(row.max())}）" in tr.run.answer
    tr = run(ws, "年鉴.xlsx: CAGR of 年末人口")
    r = WIDE.set_index("指标").loc["年末人口(万人)", YEARS]
    assert f"CAGR {round(((r.iloc[-1] / r.iloc[0]) ** (1 / 6) - 1) * 100, 2):g}%" in tr.run.answer


def test_wide_table_chart_has_one_series_per_row(ws):
    tr = run(ws, "年鉴.xlsx 画各指标的折线图")
    path = ws.root / tr.run.files[0]["path"]
    sh = load_workbook(path).worksheets[0]
    chart = sh._charts[0]
    assert type(chart).__name__ == "LineChart" and len(chart.series) == 3
    assert [sh.cell(i, 1).value for i in range(2, 2 + len(YEARS))] == YEARS
    assert sh.cell(2, 2).value == WIDE.loc[0, YEARS[0]]


def test_bar_chart_per_region(ws):
    tr = run(ws, "门店销售.xlsx 按区域画销售额柱状图")
    sh = load_workbook(ws.root / tr.run.files[0]["path"]).worksheets[0]
    chart = sh._charts[0]
    assert type(chart).__name__ == "BarChart" and chart.series[0].val.numRef.f == "'数据'!$B$2:$B$5"
    got = {sh.cell(i, 1).value: sh.cell(i, 2).value for i in range(2, 6)}
    assert got == pytest.approx(SALES.groupby("区域")["销售额"].sum().round(4).to_dict())
    info = {r[0]: r[1] for r in load_workbook(ws.root / tr.run.files[0]["path"])["说明"].iter_rows(min_row=2, values_only=True)}
    assert info["源文件"] == "门店销售.xlsx" and "write_chart" in info["步骤 3"], info  # the 说明 sheet other results carry


def test_formula_column_and_refusal(ws):
    tr = run(ws, "门店销售.xlsx 新增一列 毛利率 = (销售额 - 成本) / 销售额 * 100")
    out = pd.read_csv(ws.root / tr.run.files[0]["path"])
    want = (SALES["销售额"] - SALES["成本"]) / SALES["销售额"] * 100
    assert out["毛利率"].tolist() == pytest.approx(want.round(6).tolist(), nan_ok=True)
    assert "3 行因参与计算的值为空" in tr.run.answer
    s = Session(ws)
    tr = s.turn("门店销售.xlsx 新增一列 x = (销售额 + 1) * __import__('os').getpid()")
    if tr.run is None:
        tr = s.turn("继续")
    assert tr.run is not None and tr.run.status != "answered" and not tr.run.files
    assert any("公式无法使用" in n for n in tr.run.notes)


def test_edits_go_to_a_new_file(ws):
    before = (ws.root / "门店销售.xlsx").read_bytes()
    tr = run(ws, "门店销售.xlsx 把东区的成本改成0")
    out = pd.read_csv(ws.root / tr.run.files[0]["path"])
    assert (out.loc[out["区域"] == "东区", "成本"] == 0).all()
    assert out.loc[out["区域"] != "东区", "成本"].tolist() == pytest.approx(SALES.loc[SALES["区域"] != "东区", "成本"].tolist(), nan_ok=True)
    tr = run(ws, "门店销售.xlsx 成本的空值用平均值填充")
    out = pd.read_csv(ws.root / tr.run.files[0]["path"])
    assert out["成本"].isna().sum() == 0 and out.loc[5, "成本"] == pytest.approx(SALES["成本"].mean(), abs=1e-3)
    assert (ws.root / "门店销售.xlsx").read_bytes() == before


def test_difference_tests(ws):
    tr = run(ws, "门店销售.xlsx 线上和门店的销售额差异显著吗")
    a, b = SALES.loc[SALES["渠道"] == "线上", "销售额"], SALES.loc[SALES["渠道"] == "门店", "销售额"]
    t = stats.ttest_ind(a, b, equal_var=False)  # the groups in the order written
    assert "Welch t 检验" in tr.run.answer and f"t = {round(t.statistic, 4)}" in tr.run.answer
    assert f"n={len(a)}" in tr.run.answer and f"n={len(b)}" in tr.run.answer
    tr = run(ws, "门店销售.xlsx 不同区域的件数有没有显著差异")
    f = stats.f_oneway(*[SALES.loc[SALES["区域"] == r, "件数"] for r in sorted(SALES["区域"].unique())])
    assert "方差分析" in tr.run.answer and f"F = {round(f.statistic, 4)}" in tr.run.answer


def test_chi_square_and_normality_in_english(ws):
    tr = run(ws, "门店销售.xlsx chi-square test of 区域 and 渠道")
    chi = stats.chi2_contingency(pd.crosstab(SALES["区域"], SALES["渠道"]))
    assert f"χ² = {round(chi.statistic, 4)}" in tr.run.answer and "Chi-square" in tr.run.answer
    tr = run(ws, "is 件数 normally distributed in 门店销售.xlsx")
    w = stats.shapiro(SALES["件数"])
    assert f"W = {round(w.statistic, 4)}" in tr.run.answer


def test_pivot_with_totals(ws):
    tr = run(ws, "门店销售.xlsx 做个透视表，行是区域，列是渠道，值是销售额合计")
    out = pd.read_csv(ws.root / tr.run.files[0]["path"]).set_index("区域")
    want = pd.pivot_table(SALES, index="区域", columns="渠道", values="销售额", aggfunc="sum")
    assert out.loc[want.index, "线上"].tolist() == pytest.approx(want["线上"].tolist())
    assert out.loc["合计", "合计"] == pytest.approx(SALES["销售额"].sum())


def test_quoted_values_are_not_requests_and_said_formulas_are(ws):
    from modes.opspecs.analysis import GROWTH_RX, unquoted

    assert unquoted(GROWTH_RX, "删除所有'指标'中包含'环比增长'的行") is None
    assert unquoted(GROWTH_RX, "新增一列'环比增长率'") is not None
    tr = run(ws, "门店销售.xlsx 新增一列'毛利'，计算方法为销售额数据减去成本数据")
    out = pd.read_csv(ws.root / tr.run.files[0]["path"])
    assert out["毛利"].tolist() == pytest.approx((SALES["销售额"] - SALES["成本"]).round(6).tolist(), nan_ok=True)


def test_standard_deviation_and_an_english_plot(ws):
    tr = run(ws, "门店销售.xlsx 件数的标准差")
    assert num(round(SALES["件数"].std(), 4)) in tr.run.answer
    tr = run(ws, "plot 销售额 by 渠道 for 门店销售.xlsx")
    sh = load_workbook(ws.root / tr.run.files[0]["path"]).worksheets[0]
    got = {sh.cell(i, 1).value: sh.cell(i, 2).value for i in range(2, 4)}
    assert got == pytest.approx(SALES.groupby("渠道")["销售额"].sum().round(4).to_dict())


def test_growth_per_group_is_each_groups_own_growth(ws):
    from conftest import answered, result_frame

    tr = answered(Session(ws), "门店销售.xlsx 按区域汇总销售额的同比增长")
    assert "做不了" not in tr.decision.reply
    f = result_frame(tr)
    per = SALES.groupby(["区域", SALES["日期"].dt.to_period("M")])["销售额"].sum()
    for region in ("东区", "西区"):
        s = per.loc[region]
        s = s.reindex(pd.period_range(s.index.min(), s.index.max(), freq="M"))
        want = ((s - s.shift(12)) / s.shift(12).abs() * 100).round(2).dropna()
        got = f[f["区域"] == region].set_index("期间")["同比增长(%)"].dropna()
        assert {str(k): v for k, v in want.items()} == pytest.approx(got.to_dict())


def test_wide_table_statistics_over_named_years(ws):
    tr = run(ws, "年鉴.xlsx 2017年到2020年工业增加值的平均值和方差")
    v = WIDE.set_index("指标").loc["工业增加值(亿元)", ["2017年", "2018年", "2019年", "2020年"]].astype(float)
    assert f"平均 {num(round(v.mean(), 4))}" in tr.run.answer and f"方差 {num(round(v.var(), 4))}" in tr.run.answer
    assert "（4 期）" in tr.run.answer


def test_wide_table_trend_and_fastest_growth(ws):
    from scipy import stats as st

    tr = run(ws, "年鉴.xlsx 用线性回归看2017年至2021年间旅游收入的趋势")
    v = WIDE.set_index("指标").loc["旅游收入(亿元)", [f"{y}年" for y in range(2017, 2022)]].astype(float)
    assert f"回归系数 {round(st.linregress(range(2017, 2022), v).slope, 4)}" in tr.run.answer
    tr = run(ws, "年鉴.xlsx 哪个指标增长最快？算各指标2016年到2022年的年均增长率")
    rates = {n: ((r.iloc[-1] / r.iloc[0]) ** (1 / 6) - 1) * 100 for n, r in WIDE.set_index("指标")[YEARS].iterrows()}
    best = max(rates, key=rates.get)
    assert f"年均增长率最高的是 {best}（{round(rates[best], 2):g}%）" in tr.run.answer


def test_lookup_and_units(tmp_path):
    people = pd.DataFrame({"姓名": ["张三", "李四", "王五", "赵六"], "部门": ["销售部", "技术部", "销售部", "财务部"],
                           "月薪(元)": [8200, 15300, 9100, 11000]})
    people.to_csv(tmp_path / "员工.csv", index=False)
    ws = Workspace.at(tmp_path)
    tr = run(ws, "员工.csv 李四的部门是什么")
    assert tr.decision.request.kinds() == ["lookup"] and "部门 是 技术部" in tr.run.answer
    tr = run(ws, "员工.csv 月薪(元)的中位数")
    assert f"中位数 {num(people['月薪(元)'].median())}元" in tr.run.answer


def test_running_total_rank_and_top_per_group(ws):
    tr = run(ws, "门店销售.xlsx 按日期算销售额的累计值")
    out = pd.read_csv(ws.root / tr.run.files[0]["path"])
    want = SALES.sort_values("日期", kind="stable")["销售额"].cumsum()
    assert out["销售额_累计"].tolist() == pytest.approx(want.round(4).tolist())
    assert num(round(SALES["销售额"].sum(), 4)) in tr.run.answer
    tr = run(ws, "门店销售.xlsx 每个区域里件数最多的前2个订单")
    out = pd.read_csv(ws.root / tr.run.files[0]["path"])
    want = SALES.sort_values("件数", ascending=False, kind="stable").groupby("区域").head(2)
    assert sorted(out["订单号"]) == sorted(want["订单号"])
    tr = run(ws, "门店销售.xlsx 按区域加一列销售额的组内排名")
    out = pd.read_csv(ws.root / tr.run.files[0]["path"])
    assert out["销售额_组内排名"].tolist() == SALES.groupby("区域")["销售额"].rank(method="min", ascending=False).astype(int).tolist()


def test_above_the_average_of_ones_own_group(ws):
    tr = run(ws, "门店销售.xlsx 找出销售额高于所在区域平均值的订单")
    out = pd.read_csv(ws.root / tr.run.files[0]["path"])
    mean = SALES.groupby("区域")["销售额"].transform("mean")
    assert sorted(out["订单号"]) == sorted(SALES.loc[SALES["销售额"] > mean, "订单号"])
    assert f"{len(out):,} 行" in tr.run.answer
    tr = run(ws, "门店销售.xlsx 件数低于中位数的订单")
    out = pd.read_csv(ws.root / tr.run.files[0]["path"])
    assert len(out) == int((SALES["件数"] < SALES["件数"].median()).sum())
    assert f"中位数是 {num(SALES['件数'].median())}" in tr.run.answer


@pytest.mark.parametrize("text, where", [
    ("门店销售.xlsx 将所有区域为东区的记录的渠道修改为门店", lambda d: d["区域"] == "东区"),
    ("门店销售.xlsx 把区域是西区的行的渠道改成门店", lambda d: d["区域"] == "西区"),
    ("门店销售.xlsx 把'区域'为'南区'的记录，'渠道'设置为'门店'", lambda d: d["区域"] == "南区"),
    ("门店销售.xlsx 把销售额大于2000的行的渠道改成门店", lambda d: d["销售额"] > 2000),
    ("门店销售.xlsx 将件数小于5的渠道改为门店", lambda d: d["件数"] < 5),
    ("门店销售.xlsx 把区域为东区并且件数小于5的渠道改为门店", lambda d: (d["区域"] == "东区") & (d["件数"] < 5)),
    ("门店销售.xlsx 把区域是东区或者西区的渠道改为门店", lambda d: d["区域"].isin(["东区", "西区"])),
    ("门店销售.xlsx 件数小于5，把渠道改为门店", lambda d: d["件数"] < 5),
    ("门店销售.xlsx 把件数不到5的订单的渠道改成门店", lambda d: d["件数"] < 5),
    ("门店销售.xlsx 把区域是东区或西区的行的渠道改成门店", lambda d: d["区域"].isin(["东区", "西区"])),
])
def test_an_edit_where_a_condition_holds_changes_exactly_those_rows(ws, text, where):
    tr = run(ws, text)
    assert [s.tool for s in tr.run.steps if s.tool == "filter_rows"] == []  # never run as a filter
    out = pd.read_csv(ws.root / tr.run.files[0]["path"])
    want = SALES["渠道"].where(~where(SALES), "门店")
    assert len(out) == len(SALES) and out["渠道"].tolist() == want.tolist()


@pytest.mark.parametrize("text", ["门店销售.xlsx 把区域像东区的行的渠道改成门店"])
def test_an_edit_whose_condition_is_not_read_whole_is_asked_about(ws, text):
    tr = Session(ws).turn(text)
    assert tr.run is None and tr.decision.next == "ask_slots" and "condition" in tr.decision.missing


@pytest.mark.parametrize("text", ["门店销售.xlsx 东区的销售额和件数合计", "门店销售.xlsx 东区销售额、件数的合计是多少",
                                  "门店销售.xlsx 东区的成本与销售额与件数合计"])
def test_every_column_of_a_listed_sum_is_summed(ws, text):
    tr = run(ws, text)
    east = SALES[SALES["区域"] == "东区"]
    if tr.run.files:
        out = pd.read_csv(ws.root / tr.run.files[0]["path"])
        got = {c.split("_")[0]: out[c].iloc[0] for c in out.columns}
    else:  # a question is answered in words: 销售额_合计：155908.82；件数_合计：2482。
        got = {k.split("_")[0]: float(v.replace(",", "")) for k, v in re.findall(r"([^\s；;]+?)_合计：([\d,.]+)", tr.run.answer)}
    for col in ("销售额", "件数") + (("成本",) if "成本" in text else ()):
        assert got[col] == pytest.approx(east[col].sum(), abs=0.01), col


@pytest.mark.parametrize("text, unused", [
    ("门店销售.xlsx 件数不低于20但销售额低于中位数的订单有几个", "件数"),
    ("门店销售.xlsx 分区域计算销售额按年的同比增长", "区域"),
    ("门店销售.xlsx 每个区域里销售额最高的渠道是哪个", "渠道"),
])
def test_a_named_column_no_step_uses_is_said_never_dropped(ws, text, unused):
    d = Session(ws).turn(text).decision
    said = d.next == "restate_confirm" and "没用上" in d.reply  # restated, naming the column left out
    asked = d.next == "ask_slots" and "最接近的是" in d.reply  # or the comparison it belongs to is asked about
    assert (said or asked) and unused in d.reply, d.reply
