"""Analyst readings end to end, in Chinese and English, on data generated here and recomputed with pandas:
a share within each group, both ends of a ranking, and growth over a named range of years."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import header

from engine.session import Session
from tools.fmt import num
from tools.workspace import Workspace

RNG = np.random.default_rng(77)
N = 300
STAFF = pd.DataFrame({
    "工号": [f"E{i:04d}" for i in range(N)],
    "部门": RNG.choice(["销售", "研发", "行政", "财务"], N, p=[0.4, 0.3, 0.2, 0.1]),
    "性别": RNG.choice(["男", "女"], N),
    "月薪": RNG.uniform(5000, 30000, N).round(0),
    "工龄": RNG.integers(0, 30, N),
})
YEARS = [f"{y}年" for y in range(2014, 2023)]
WIDE = pd.DataFrame({"指标": ["货物出口额(亿元)", "常住人口(万人)", "粮食产量(万吨)"],
                     **{y: RNG.uniform(100, 900, 3).round(2) for y in YEARS}})


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    STAFF.to_csv(tmp_path / "员工名册.csv", index=False)
    WIDE.to_csv(tmp_path / "统计公报.csv", index=False)
    return Workspace.at(tmp_path)


def run(ws: Workspace, text: str):
    s = Session(ws)
    tr = s.turn(text)
    if tr.run is None and tr.decision.next in ("restate_confirm", "plan_confirm"):
        tr = s.turn("继续")
    assert tr.run is not None, tr.decision.reply
    assert tr.run.status == "answered", tr.run.notes
    return tr


@pytest.mark.parametrize("text, cond", [
    ("员工名册.csv 按部门分组，计算 性别=女 的行所占比例", STAFF["性别"] == "女"),
    ("员工名册.csv 各部门中性别为女的员工占比是多少", STAFF["性别"] == "女"),
    ("员工名册.csv 每个部门里月薪超过20000的人占多大比例", STAFF["月薪"] > 20000),
    ("员工名册.csv: per 部门, what proportion of rows have 月薪 above 20000?", STAFF["月薪"] > 20000),
    ("员工名册.csv: for each 部门, the share of employees whose 性别 is 女", STAFF["性别"] == "女"),
    ("员工名册.csv: proportion of rows where 月薪 is above 20000, for each 部门", STAFF["月薪"] > 20000),
    ("员工名册.csv: the share of rows whose 性别 is 女, per 部门", STAFF["性别"] == "女"),
])
def test_a_conditions_share_within_each_group_is_over_that_groups_rows(ws, text, cond):
    tr = run(ws, text)
    assert tr.decision.request.kinds() == ["proportion"]
    want = cond.groupby(STAFF["部门"]).mean() * 100
    hits = cond.groupby(STAFF["部门"]).sum()
    sizes = STAFF.groupby("部门").size()
    for dept, p in want.items():
        shown = f"{dept} {int(hits[dept])}/{int(sizes[dept])}"
        assert shown in tr.run.answer and f"{round(p, 2):g}%" in tr.run.answer, (dept, tr.run.answer)
    # never the share of all matching rows that falls in each department
    across = cond[cond].groupby(STAFF["部门"]).size() / cond.sum() * 100
    assert not any(f"{dept} {round(p, 2):g}%" in tr.run.answer for dept, p in across.items() if abs(p - want[dept]) > 0.01)


def test_a_condition_written_before_the_groups_picks_the_rows_whose_split_is_asked(ws):
    tr = run(ws, "员工名册.csv 性别为女的员工中各部门的占比")
    women = STAFF[STAFF["性别"] == "女"]
    share = women.groupby("部门").size() / len(women) * 100
    for dept, p in share.items():
        assert f"{dept} {round(p, 2):g}%" in tr.run.answer


@pytest.mark.parametrize("text, agg", [
    ("员工名册.csv 哪个部门人数最少，哪个最多？", "size"),
    ("员工名册.csv 计算各部门的平均月薪，并指出哪个部门月薪最高，哪个部门最低", "mean"),
    ("员工名册.csv: which 部门 has the highest average 月薪 and which has the lowest?", "mean"),
    ("员工名册.csv which 部门 has the most rows, and which the fewest", "size"),
])
def test_both_ends_of_a_ranking_are_answered(ws, text, agg):
    tr = run(ws, text)
    lang = "zh" if not text.startswith("员工名册.csv:") and "which" not in text else "en"
    g = STAFF.groupby("部门").size() if agg == "size" else STAFF.groupby("部门")["月薪"].mean()
    hi, lo = g.idxmax(), g.idxmin()
    a = tr.run.answer
    assert hi in a and lo in a, a
    assert num(round(g.max(), 4), lang) in a and num(round(g.min(), 4), lang) in a, a
    assert a.index(hi) < a.index(lo)


def test_extremes_list_every_tied_row():
    from tools.stats import extremes

    t = pd.DataFrame({"场地": ["A", "B", "C", "D"], "观众": [10, 30, 30, 5]})
    r = extremes(t, "观众")
    assert r.facts["highest"] == ["B", "C"] and r.facts["lowest"] == ["D"]
    assert r.facts["max"] == 30 and r.facts["min"] == 5 and len(r.data) == 3


@pytest.mark.parametrize("text", [
    "统计公报.csv 计算货物出口额2016年至2020年的年均增长率",
    "统计公报.csv 货物出口额从2016到2020的年均增长率是多少",
    "in 统计公报.csv, what is the CAGR of 货物出口额 from 2016 to 2020?",
    "统计公报.csv: compound annual growth rate of 货物出口额 between 2016 and 2020",
])
def test_cagr_over_a_named_range_uses_that_range(ws, text):
    tr = run(ws, text)
    row = WIDE.iloc[0]
    want = ((row["2020年"] / row["2016年"]) ** (1 / 4) - 1) * 100
    whole = ((row["2022年"] / row["2014年"]) ** (1 / 8) - 1) * 100
    assert f"{round(want, 2):g}%" in tr.run.answer, tr.run.answer
    assert f"{round(whole, 2):g}%" not in tr.run.answer


def _saved(tr, ws: Workspace) -> pd.DataFrame:
    assert tr.run.files, tr.run.answer
    return pd.read_csv(ws.root / tr.run.files[0]["path"], encoding="utf-8-sig")


@pytest.mark.parametrize("text, a, b", [
    ("统计公报.csv 请提供'2016年'和'2020年'两个时间点的对比情况，并计算增长或减少的百分比", "2016年", "2020年"),
    ("统计公报.csv 2021年与2018年相比，各指标的增减百分比", "2018年", "2021年"),
    ("in 统计公报.csv, the percentage change from 2015 to 2019", "2015年", "2019年"),
])
def test_change_between_two_named_years(ws, text, a, b):
    tr = run(ws, text)
    out = _saved(tr, ws)
    want = (WIDE[b] - WIDE[a]) / WIDE[a] * 100
    assert list(out["指标"]) == list(WIDE["指标"])
    assert np.allclose(out[header(tr, "增长率(%)")], want.round(2), atol=0.006)
    assert np.allclose(out[header(tr, "变化")], (WIDE[b] - WIDE[a]).round(4))
    assert f"{round(want.iloc[0], 2):g}%" in tr.run.answer


@pytest.mark.parametrize("text, limit, above", [
    ("统计公报.csv 查询2020年与2019年相比增长率超过10%的指标", 10.0, True),
    ("统计公报.csv 2022年度与2021年度增长率低于-5%的记录，增长率=(2022年度数据-2021年度数据)/2021年度数据*100", -5.0, False),
    ("统计公报.csv: rows whose growth from 2019 to 2020 is above 10%", 10.0, True),
])
def test_rows_whose_growth_between_two_years_passes_a_limit(ws, text, limit, above):
    tr = run(ws, text)
    late = "2020年" if "2020" in text else "2022年"
    early = "2019年" if late == "2020年" else "2021年"
    rate = (WIDE[late] - WIDE[early]) / WIDE[early] * 100
    keep = WIDE[rate > limit] if above else WIDE[rate < limit]
    out = _saved(tr, ws) if len(keep) else None
    if out is not None:
        assert sorted(out["指标"]) == sorted(keep["指标"])
    assert f"{len(keep)} 行" in tr.run.answer or f"{len(keep)} of" in tr.run.answer


@pytest.mark.parametrize("text", [
    "统计公报.csv 请计算并比较2015年和2021年的平均值、中位数以及众数",
    "统计公报.csv: compare the mean and median of 2015 and 2021",
])
def test_statistics_of_named_year_columns_are_down_the_rows(ws, text):
    tr = run(ws, text)
    lang = "en" if ":" in text else "zh"
    assert tr.decision.request.kinds() == ["stats"]
    for y in ("2015年", "2021年"):
        assert f"{y}" in tr.run.answer
        assert num(round(WIDE[y].mean(), 4), lang) in tr.run.answer
        assert num(round(WIDE[y].median(), 4), lang) in tr.run.answer
    if lang == "zh":  # three different values: no mode, said so rather than listing every value
        assert "众数 无" in tr.run.answer


def test_a_mode_where_nothing_repeats_is_none():
    from tools.stats import column_stats

    t = pd.DataFrame({"x": [3.0, 1.0, 2.0], "y": [1, 1, 2]})
    r = column_stats(t, ["x", "y"], ["mode"])
    assert r.facts["values"]["x"]["mode"] is None
    assert r.facts["values"]["y"]["mode"] == str(t["y"].mode().iloc[0])


BANKS = pd.DataFrame({
    "id": [f"{i:08x}-aa" for i in range(12)],
    "归属机构": [f"银行{chr(0x41 + i)}" for i in range(12)],
    "营业收入(万元/年度)": RNG.uniform(1e5, 9e5, 12).round(1),
    "汇兑收益(万元/年度)": RNG.uniform(-2e3, 2e4, 12).round(1),
})
BANKS.loc[4, "营业收入(万元/年度)"] = 0.0


@pytest.mark.parametrize("text, which", [
    ("银行.csv 哪一家的汇兑收益占其营业收入比重最高？", "max"),
    ("银行.csv 汇兑收益占营业收入的比例最低的是哪家", "min"),
    ("银行.csv: which bank has the highest 汇兑收益 as a share of its 营业收入?", "max"),
    ("银行.csv 各家银行汇兑收益占营业收入的比重，哪家最高，哪家最低", "both"),
])
def test_one_column_as_a_share_of_another_row_by_row(tmp_path, text, which):
    BANKS.to_csv(tmp_path / "银行.csv", index=False)
    ws = Workspace.at(tmp_path)
    tr = run(ws, text)
    assert tr.decision.request.kinds() == ["column_ratio"]
    r = (BANKS["汇兑收益(万元/年度)"] / BANKS["营业收入(万元/年度)"]).where(BANKS["营业收入(万元/年度)"] != 0) * 100
    top, bottom = BANKS.loc[r.idxmax(), "归属机构"], BANKS.loc[r.idxmin(), "归属机构"]
    a = tr.run.answer
    if which in ("max", "both"):
        assert f"{top}（{round(r.max(), 2):g}%）" in a or f"{top} ({round(r.max(), 2):g}%)" in a, a
    if which in ("min", "both"):
        assert f"{bottom}（{round(r.min(), 2):g}%）" in a, a
    assert "id" not in a and "1 行因" in a or "1 rows have no" in a
    out = _saved(tr, ws)
    assert np.allclose(out.set_index("归属机构").iloc[:, -1].reindex(BANKS["归属机构"]).to_numpy(), r.round(4).to_numpy(), equal_nan=True)


@pytest.mark.parametrize("text", [
    "统计公报.csv 分析2016年与2015年各指标的相关性",
    "统计公报.csv: how correlated are 2019 and 2022 across the rows?",
])
def test_correlation_of_two_named_year_columns_over_the_rows(ws, text):
    tr = run(ws, text)
    a, b = ("2016年", "2015年") if "2016" in text else ("2019年", "2022年")
    assert tr.decision.request.kinds() == ["correlate"]
    r = WIDE[a].corr(WIDE[b])
    assert f"{round(r, 4)}" in tr.run.answer or f"{round(r, 3)}" in tr.run.answer, tr.run.answer


def test_a_column_named_without_its_unit_is_that_column(tmp_path):
    BANKS.to_csv(tmp_path / "银行.csv", index=False)
    tr = run(Workspace.at(tmp_path), "银行.csv 营业收入的中位数是多少")
    assert num(round(BANKS["营业收入(万元/年度)"].median(), 4)) in tr.run.answer


@pytest.mark.parametrize("text", [
    "店.csv 哪类门店的数量最少，而哪类最多？",
    "店.csv: which kind of store is the most numerous and which the least?",
])
def test_a_one_row_table_compares_its_columns(tmp_path, text):
    t = pd.DataFrame({"零售门店": [5427], "批发门店": [1099], "加盟门店": [263], "直营门店": [1433]})
    t.to_csv(tmp_path / "店.csv", index=False)
    tr = run(Workspace.at(tmp_path), text)
    row = t.iloc[0]
    lang = "en" if text.startswith("店.csv:") else "zh"
    assert row.idxmax() in tr.run.answer and row.idxmin() in tr.run.answer
    assert num(int(row.max()), lang) in tr.run.answer and num(int(row.min()), lang) in tr.run.answer
    assert tr.run.answer.index(row.idxmax()) < tr.run.answer.index(row.idxmin())


@pytest.mark.parametrize("text, cond", [
    ("员工名册.csv 筛选出月薪大于20000的员工，并指出这些员工在不同部门中的分布情况", STAFF["月薪"] > 20000),
    ("员工名册.csv 性别为女的员工在各部门的分布", STAFF["性别"] == "女"),
    ("员工名册.csv: rows where 月薪 is above 20000, and their distribution across 部门", STAFF["月薪"] > 20000),
])
def test_a_distribution_over_groups_counts_each_group(ws, text, cond):
    tr = run(ws, text)
    assert tr.decision.request.kinds()[-1] == "share"
    out = _saved(tr, ws)
    want = STAFF[cond].groupby("部门").size()
    got = out.set_index("部门")[header(tr, "行数")]
    assert got.to_dict() == want.to_dict()
    assert np.allclose(out.set_index("部门")[header(tr, "占比(%)")].reindex(want.index), (want / want.sum() * 100).round(2))


MONTHS = [f"{y}年{m}月" for y in (2023, 2022, 2021) for m in range(12, 0, -1)]
MONTHLY = pd.DataFrame({"指标": ["出口交货值_当期值", "出口交货值_累计值"], **{c: RNG.uniform(10, 30, 2).round(1) for c in MONTHS}})
MONTHLY.loc[0, "2022年1月"] = np.nan


@pytest.mark.parametrize("text, years, stat", [
    ("月度.csv 对比2022年与2023年的数据，哪一年的出口交货值波动更大？请计算每一年度的方差", [2022, 2023], "var"),
    ("月度.csv 各年度出口交货值_当期值的标准差", [2021, 2022, 2023], "std"),
    ("月度.csv: the variance of each year's months in 2021 and 2023", [2021, 2023], "var"),
])
def test_statistics_of_each_years_months(tmp_path, text, years, stat):
    MONTHLY.to_csv(tmp_path / "月度.csv", index=False)
    tr = run(Workspace.at(tmp_path), text)
    lang = "en" if ":" in text else "zh"
    row = MONTHLY.iloc[0]
    for y in years:
        v = row[[c for c in MONTHS if c.startswith(f"{y}年")]].astype(float).dropna()
        assert num(round(getattr(v, stat)(), 4), lang) in tr.run.answer, (y, tr.run.answer)
    if lang == "zh" and stat == "var":
        best = max(years, key=lambda y: row[[c for c in MONTHS if c.startswith(f"{y}年")]].astype(float).var())
        assert f"方差最大的是 {best}年" in tr.run.answer


@pytest.mark.parametrize("text", [
    "在COVID-19数据中，People_Tested的中位数是多少",
    "COVID-19数据里年龄0-17岁的People_Tested的中位数",
    "通过Service_Name筛选以后，People_Tested的中位数是多少",
])
def test_words_glued_to_chinese_are_not_missing_files(tmp_path, text):
    t = pd.DataFrame({"Service_Name": ["a", "b", "c", "d"], "People_Tested": [5, 9, 2, 7]})
    t.to_csv(tmp_path / "COVID-19_Daily_Testing_-_By_Person.csv", index=False)
    d = Session(Workspace.at(tmp_path)).turn(text).decision
    assert "工作区里没有" not in (d.reply or ""), d.reply
    assert d.request.file == "COVID-19_Daily_Testing_-_By_Person.csv"


DISEASES = pd.DataFrame({"编码": ["A", "B", "C", "D", None], "疾病类别": ["甲类", "乙类", "丙类", "丁类", "总计"],
                         "人次": [120.0, 80.0, 55.0, 45.0, 300.0]})


@pytest.mark.parametrize("text", ["病.csv 请列出所有疾病类别的人次总和", "病.csv: what is the total of 人次?"])
def test_a_tables_own_total_row_is_not_added_in_again(tmp_path, text):
    DISEASES.to_csv(tmp_path / "病.csv", index=False)
    ws = Workspace.at(tmp_path)
    tr = run(ws, text)
    body = DISEASES[DISEASES["疾病类别"] != "总计"]["人次"].sum()
    said = tr.run.answer + "".join(_saved(tr, ws).to_csv(index=False) for _ in [0] if tr.run.files)
    assert f"{int(body)}" in said.replace(",", "") and f"{int(body * 2)}" not in said.replace(",", "")


def test_shares_leave_out_the_tables_own_total_row(tmp_path):
    DISEASES.to_csv(tmp_path / "病.csv", index=False)
    tr = run(Workspace.at(tmp_path), "病.csv 各疾病类别的人次占比")
    body = DISEASES[DISEASES["疾病类别"] != "总计"].set_index("疾病类别")["人次"]
    for k, v in body.items():
        assert f"{k} {round(v / body.sum() * 100, 2):g}%" in tr.run.answer
    assert "，总计 " not in tr.run.answer and "：总计 " not in tr.run.answer and "合计行 “总计” 未计入" in tr.run.answer


def test_a_total_word_in_the_middle_of_a_table_is_an_ordinary_row():
    from tools.stats import total_rows

    t = pd.DataFrame({"项目": ["甲", "合计", "乙", "丙"], "值": [1.0, 2.0, 3.0, 4.0]})
    assert not total_rows(t).any()
    t2 = pd.DataFrame({"项目": ["Total", "甲", "乙", "丙"], "值": [10.0, 2.0, 3.0, 5.0]})
    assert list(total_rows(t2)) == [True, False, False, False]


LEDGER = pd.DataFrame({
    "归属机构": [f"机构{i}" for i in range(10)],
    "资产总计(万元/年度)": RNG.uniform(1e5, 9e5, 10).round(1),
    "存款总额(万元/年度)": RNG.uniform(1e4, 8e5, 10).round(1),
})


@pytest.mark.parametrize("text, op, pct", [
    ("账.csv 哪些机构的存款总额超过了其总资产的50%？", "gt", 50),
    ("账.csv 存款总额低于资产总计的40%的机构有哪些", "lt", 40),
    ("账.csv: which rows have 存款总额 more than 60% of their 资产总计?", "gt", 60),
])
def test_rows_whose_column_passes_a_share_of_another(tmp_path, text, op, pct):
    LEDGER.to_csv(tmp_path / "账.csv", index=False)
    ws = Workspace.at(tmp_path)
    tr = run(ws, text)
    a, b = LEDGER["存款总额(万元/年度)"], LEDGER["资产总计(万元/年度)"] * pct / 100
    keep = LEDGER[a > b] if op == "gt" else LEDGER[a < b]
    out = _saved(tr, ws)
    assert sorted(out["归属机构"]) == sorted(keep["归属机构"])
    for name in LEDGER["归属机构"]:
        assert (name in tr.run.answer) == (name in set(keep["归属机构"]))


@pytest.mark.parametrize("text", ["员工名册.csv 男与女的比例是多少", "员工名册.csv: what is the proportion of 男 and 女?", "员工名册.csv 性别中男和女的占比"])
def test_two_values_of_a_column_named_together_give_each_ones_share(ws, text):
    tr = run(ws, text)
    share = STAFF["性别"].value_counts(normalize=True) * 100
    for v, p in share.items():
        assert f"{v} {round(p, 2):g}%" in tr.run.answer, tr.run.answer


@pytest.mark.parametrize("text", ["员工名册.csv 研发与销售的比例是多少", "员工名册.csv: the proportion of 研发 and 销售"])
def test_two_of_several_values_are_compared_with_each_other(ws, text):
    tr = run(ws, text)
    two = STAFF[STAFF["部门"].isin(["研发", "销售"])]["部门"].value_counts(normalize=True) * 100
    for v, p in two.items():
        assert f"{v} {round(p, 2):g}%" in tr.run.answer, tr.run.answer
    assert "行政" not in tr.run.answer and "财务" not in tr.run.answer


@pytest.mark.parametrize("text", ["统计公报.csv 比较2016年和2020年", "统计公报.csv: compare 2016 and 2020 for each 指标"])
def test_comparing_two_named_years_gives_each_rows_change(ws, text):
    tr = run(ws, text)
    out = _saved(tr, ws)
    want = (WIDE["2020年"] - WIDE["2016年"]) / WIDE["2016年"] * 100
    assert np.allclose(out[header(tr, "增长率(%)")], want.round(2), atol=0.006)


@pytest.mark.parametrize("text", ["统计公报.csv 比较2016年和2020年的平均值", "统计公报.csv: compare the average of 2016 and 2020"])
def test_comparing_the_mean_of_two_named_years(ws, text):
    tr = run(ws, text)
    lang = "en" if ":" in text else "zh"
    for y in ("2016年", "2020年"):
        assert num(round(WIDE[y].mean(), 4), lang) in tr.run.answer
