"""Are real analysis requests written by others carried out correctly, end to end?

Runs answerable items of the tablegpt development set (../shared/eval/external_dev/tablegpt) through
`wenqing chat` for real, each on a copy of its workspace, confirms a restatement or plan card once
("继续"), and judges the result against an expected answer computed here, independently, with pandas /
scipy from the item's own table: figures in the run's answer, tables written to outputs/, or a native
chart in an xlsx. Each item ends as one of

    correct   the result is right (within rounding)
    wrong     something ran and answered, but the result is not what was asked (silently wrong); on these
              answerable items a "no rows match / period absent" (insufficient_context) is a false claim and
              counts here too
    asked     a question or restatement, nothing carried out
    refused   told the user plainly that it cannot do this, without running anything
    error     the process failed, crashed or timed out
    skipped   the expected result needs a library that is not installed (scipy); left out of the figures

Where a request can fairly be read in more than one way, each reading is listed and any one of them counts.

usage: python benchmarks/external_e2e.py [WENQING] [--ids tg-010,tg-280] [--limit N] [--jobs 2] [--json OUT]
       python benchmarks/external_e2e.py --show | --selfcheck
WENQING defaults to .venv/bin/wenqing. --show prints the expected results; --selfcheck checks that a perfect
result is judged correct and the untouched table is not; neither runs wenqing.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SET = ROOT.parent / "shared" / "eval" / "external_dev" / "tablegpt"
CONFIRM = "继续"
TIMEOUT_S = 120
OUTCOMES = ("correct", "wrong", "asked", "refused", "error", "skipped")
MAX_RESULT_ROWS = 30
UNSUPPORTED_CUES = ("不支持", "暂不支持", "还不能", "无法", "做不到", "not supported", "cannot")


# --------------------------------------------------------------------------- expectations


@dataclass
class Num:
    """A figure the answer must state; `pct` = a fraction that may be shown as a percentage.

    A stated figure matches when it is the value rounded to the digits shown (12.35, 1.23万), or within
    `rel` of it, or within `abs` (e.g. "p < 0.001" for a tiny p-value)."""

    value: float
    rel: float = 0.001
    abs: float = 0.0
    pct: bool = False


@dataclass
class Answer:
    """The run's answer text states every number, and one name of each group; none of `forbid`.

    With `in_files`, the cells of result files count as stated too (a total written to a one-row file), when
    the file has at most MAX_RESULT_ROWS rows and a column the source does not have: copies of source rows
    would otherwise let any figure of the table pass."""

    numbers: list[Num] = field(default_factory=list)
    names: list[list[str]] = field(default_factory=list)
    forbid: list[str] = field(default_factory=list)
    note: str = ""
    in_files: bool = False  # a figure written to a small result file in outputs/ counts too


@dataclass
class Table:
    """A file written to outputs/ holds exactly these rows (any order unless `sorted_by`).

    `cols` are compared (default: all expected columns); a column listed in `loose` may have any name in the
    output (matched by its values); `gone` are column names that must no longer be there (a rename)."""

    frame: Any
    cols: list[str] | None = None
    loose: list[str] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)
    sorted_by: tuple[str, bool] | None = None  # (column, descending)
    rel: float = 1e-3
    abs: float = 0.006
    note: str = ""


@dataclass
class Chart:
    """An xlsx in outputs/ holds a native chart of `kind` and cells with all `values`."""

    kind: str
    values: list[float]
    note: str = ""


@dataclass
class All:
    """Every part holds (a chart and the figures the request asks to point out)."""

    parts: list[Answer | Table | Chart]
    note: str = ""


Expect = Answer | Table | Chart | All
ITEMS: dict[str, tuple[str, Callable[[Any], list[Expect]]]] = {}


def item(item_id: str, kind: str):
    def reg(fn: Callable[[Any], list[Expect]]):
        ITEMS[item_id] = (kind, fn)
        return fn

    return reg


def _num(s):
    import pandas as pd

    return pd.to_numeric(s.astype(str).str.replace(",", "").str.replace("$", "").str.strip(), errors="coerce")


def _years(t, first: int, last: int) -> list[str]:
    return [f"{y}年" for y in range(first, last + 1)]


def _row(t, name: str):
    return t[t["指标"] == name].iloc[0]


# ---- edits, filters, deletions (judged on the table written to outputs/)


@item("tg-010", "rename column")
def _tg010(t):
    return [Table(t.rename(columns={"Community Board": "Community_Board_Number"}),
                  cols=["Address", "Community_Board_Number"], gone=["Community Board"])]


@item("tg-018", "delete rows by number")
def _tg018(t):
    return [Table(t[t["成交量"] >= 10000], cols=["代码", "成交量"])]


@item("tg-034", "update where")
def _tg034(t):
    u = t.copy()
    u.loc[u["System_Type"] == "Unknown", "Turf_Type"] = "Infill"
    return [Table(u, cols=["OBJECTID", "System_Type", "Turf_Type"])]


@item("tg-050", "delete non-numeric")
def _tg050(t):
    import pandas as pd

    return [Table(t[pd.to_numeric(t["Grade"], errors="coerce").notna()], cols=["Title Code", "Grade"])]


@item("tg-054", "delete contains")
def _tg054(t):
    return [Table(t[~t["指标"].str.contains("煤炭开采和洗选业")], cols=["指标", "2011年"])]


@item("tg-074", "delete rows by number")
def _tg074(t):
    return [Table(t[t["revision"] >= 25000000], cols=["pid", "revision"])]


@item("tg-078", "sum column, thousands separators")
def _tg078(t):
    u = t.copy()
    parts = [_num(t[c]) for c in ("Agriculture", "Industry", "Services")]
    u["总经济活动"] = parts[0] + parts[1] + parts[2]  # '–' (no figure) stays blank
    return [Table(u, cols=["Year", "总经济活动"], loose=["总经济活动"])]


@item("tg-124", "difference column (wide years)")
def _tg124(t):
    u = t.copy()
    u["增长额"] = t["2011年"] - t["2010年"]
    return [Table(u, cols=["指标", "增长额"], loose=["增长额"])]


@item("tg-128", "rename column")
def _tg128(t):
    return [Table(t.rename(columns={"INFLUENZA_SEASON": "FLU_SEASON"}), cols=["RECORD_ID", "FLU_SEASON"],
                  gone=["INFLUENZA_SEASON"])]


@item("tg-136", "filter on growth formula")
def _tg136(t):
    g = (t["2022年"] - t["2021年"]) / t["2021年"] * 100
    return [Table(t[g > 10], cols=["指标"])]


@item("tg-140", "column equals column")
def _tg140(t):
    norm = t["1st Party"].str.replace(" Party", "") == t["2nd Party"].str.replace(" Party", "")
    same = t["1st Party"] == t["2nd Party"]
    real = ~t["1st Party"].str.contains("abolished")
    note = "'Liberal' and 'Liberal Party' may count as one party; the 'constituency abolished' row may be left out"
    return [Table(t[f], cols=["Election"], note=note) for f in (same, norm, norm & real, same & real)]


@item("tg-144", "delete rows equal zero")
def _tg144(t):
    return [Table(t[t["Poles"] > 0], cols=["Year", "Poles"])]


@item("tg-146", "delete contains either")
def _tg146(t):
    return [Table(t[~t["指标"].str.contains("环比增长|同比增长")], cols=["指标"])]


@item("tg-152", "update one cell (wide)")
def _tg152(t):
    u = t.copy()
    u.loc[u["指标"] == "热水供热能力", "2021年"] = 600000
    return [Table(u, cols=["指标", "2021年", "2022年"])]


@item("tg-156", "filter, select, sort")
def _tg156(t):
    r = t[t["Artist"] == "Susanna Blunt"]
    return [Table(r, cols=["Mintage", "Issue Price"])]


@item("tg-160", "filter two conditions (bool)")
def _tg160(t):
    r = t[(t["Designated Doctor Address"].astype(str) == "True") & (t["State Code"] == "TX")]
    return [Table(r, cols=["License", "Address Line 1", "State Code"])]


@item("tg-168", "ratio column")
def _tg168(t):
    u = t.copy()
    u["Construction Cost"] = t["Declared Valuation"] / t["Building Area"]
    blank = u.assign(**{"Construction Cost": t["Declared Valuation"] / t["Building Area"].mask(t["Building Area"] == 0)})
    return [Table(f, cols=["Permit Number", "Construction Cost"], loose=["Construction Cost"], rel=5e-3,
                  note="an area of 0: infinity, or blank and said (as Excel's #DIV/0!)") for f in (u, blank)]


@item("tg-174", "filter on ratio of columns")
def _tg174(t):
    rental = t["Housing_Tenure"] == "Rental"
    by_aff = t[rental & (t["MFI_50"] / t["Affordable_Units"] > 0.6)]
    by_total = t[rental & (t["MFI_50"] / t["Total_Units"] > 0.6)]
    literal = t[rental & (t["MFI_50"] > 60)]
    note = "MFI_50 as a share of affordable units, of all units, or read literally as a number over 60"
    return [Table(f, cols=["Project_Name", "MFI_50"], note=note) for f in (by_aff, by_total, literal)]


@item("tg-182", "update where")
def _tg182(t):
    u = t.copy()
    u.loc[u["Present"] == "haju", "Imperfect"] = "aveva"
    return [Table(u, cols=["Present", "Imperfect"])]


@item("tg-214", "formula column, rounding")
def _tg214(t):
    u = t.copy()
    u["年均增长率（%）"] = (((t["2010年"] - t["2008年"]) / t["2008年"]) / 2 * 100).round(2)
    return [Table(u, cols=["指标", "年均增长率（%）"], loose=["年均增长率（%）"])]


@item("tg-224", "delete on two conditions")
def _tg224(t):
    # 比分 is the Score column (the score when the goal was scored); no friendly ended 1–0 (Result)
    return [Table(t[~((t["Competition"] == "Friendly") & (t["Score"] == "1–0"))], cols=["Goal"])]


@item("tg-228", "average change column (wide)")
def _tg228(t):
    u = t.copy()
    u["年均增长数"] = (t["2018年"] - t["2010年"]) / 8
    v = float(u.loc[u["指标"] == "乡镇数", "年均增长数"].iloc[0])
    return [Table(u, cols=["指标", "年均增长数"], loose=["年均增长数"]), Answer([Num(v)])]


@item("tg-260", "delete contains symbol")
def _tg260(t):
    return [Table(t[~t["Team"].str.contains("@")], cols=["Game", "Team"])]


@item("tg-268", "filter, select, sort")
def _tg268(t):
    r = t[t["Position Class Code"] == 206513].sort_values("Number of Employees", ascending=False)
    return [Table(r, cols=["Number of Employees", "Average of Base Salary"], sorted_by=("Number of Employees", True)),
            Answer([Num(float(n)) for n in r["Number of Employees"]] + [Num(float(x)) for x in _num(r["Average of Base Salary"])])]


@item("tg-276", "filter and select")
def _tg276(t):
    return [Table(t[t["College"] == "North Carolina"], cols=["Player", "Height", "Hometown"])]


@item("tg-278", "rename column")
def _tg278(t):
    return [Table(t.rename(columns={"Position": "Role"}), cols=["Player", "Role"], gone=["Position"])]


@item("tg-280", "delete rows equal")
def _tg280(t):
    return [Table(t[t["Record"] != "14–50"], cols=["Game", "Record"])]


@item("tg-058", "filter contains + count by group")
def _tg058(t):
    r = t[t["学校名称(中文)"].str.contains("明爱")]
    c = r.groupby("区域(中文)").size().reset_index(name="n")
    return [Table(c, cols=["区域(中文)", "n"], loose=["n"]),
            Answer([Num(float(n)) for n in c["n"]], [[x] for x in c["区域(中文)"]])]


@item("tg-038", "column vs column times number")
def _tg038(t):
    ok = t["存款总额(万元/年度)"] > 0.5 * t["资产总计(万元/年度)"]
    return [Table(t[ok], cols=["归属机构"]),
            Answer(names=[[b] for b in t.loc[ok, "归属机构"]], forbid=list(t.loc[~ok, "归属机构"]))]


# ---- questions answered with figures


@item("tg-008", "max in a period")
def _tg008(t):
    import pandas as pd

    d = pd.to_datetime(t["Date"], format="%m/%d/%Y")
    r = t[(d >= "2020-08-01") & (d <= "2020-09-30")]
    best = r.loc[r["People Tested - Age 0-17"].idxmax()]
    day = pd.Timestamp(pd.to_datetime(best["Date"], format="%m/%d/%Y"))
    forms = [best["Date"], day.strftime("%Y-%m-%d"), f"{day.month}月{day.day}日", day.strftime("%Y/%m/%d")]
    return [Answer([Num(float(best["People Tested - Age 0-17"]))], [forms])]


@item("tg-014", "linear regression (wide)")
def _tg014(t):
    import numpy as np

    row = _row(t, "普通高等学校招生数")
    years = list(range(2013, 2024))
    y = np.array([row[f"{x}年"] for x in years], dtype=float)
    slope, intercept = np.polyfit(years, y, 1)
    return [Answer([Num(slope, rel=0.002)], note=f"slope {slope:.3f}/year, intercept {intercept:.1f}")]


@item("tg-040", "group means + t-test")
def _tg040(t):
    from scipy import stats

    g = {k: v["Total Emissions (MT CO2e)"].astype(float) for k, v in t.groupby(t["Clean Air Rule "].str.strip())}
    means = [Num(g["YES"].mean()), Num(g["NO"].mean())]
    welch = stats.ttest_ind(g["YES"], g["NO"], equal_var=False).pvalue
    student = stats.ttest_ind(g["YES"], g["NO"]).pvalue
    return [Answer(means + [Num(p, rel=0.02, abs=0.0011)], note=n) for p, n in ((welch, "Welch"), (student, "Student"))]


@item("tg-082", "change between two year columns")
def _tg082(t):
    row = t.iloc[0]
    a, b = float(row["2005年"]), float(row["2010年"])
    u = t.copy()
    u["change"] = (t["2010年"] - t["2005年"]) / t["2005年"]
    u100 = u.assign(change=u["change"] * 100)
    return [Answer([Num(a), Num(b), Num(b / a - 1, pct=True)], note="the total row"),
            Table(u, cols=["指标", "change"], loose=["change"]), Table(u100, cols=["指标", "change"], loose=["change"])]


@item("tg-090", "count by group, max")
def _tg090(t):
    c = t.groupby("Vehicle").size().sort_values(ascending=False)
    top = c[c == c.iloc[0]]
    return [Answer([Num(float(c.iloc[0]))], [[v] for v in top.index])]


@item("tg-094", "min and max across columns")
def _tg094(t):
    row = t.iloc[0].astype(float)
    return [Answer([Num(row.min()), Num(row.max())], [[row.idxmin()], [row.idxmax()]])]


@item("tg-114", "mean, median of two year columns")
def _tg114(t):
    out = []
    for rows, note in ((t, "over all rows"), (t.iloc[1:], "over the rows below the total")):
        nums = []
        for y in ("2010年", "2020年"):
            s = rows[y].astype(float).dropna()
            nums += [Num(s.mean()), Num(s.median())]
        out.append(Answer(nums, note=note + "; mode: no value repeats, any honest answer", in_files=True))
    return out


@item("tg-116", "t-test between two groups")
def _tg116(t):
    import pandas as pd
    from scipy import stats

    life = pd.to_numeric(t["bee longevity in bioassay (days)"], errors="coerce")
    a = life[t["Level of Sociality"] == "SOLITARY"].dropna()
    b = life[t["Level of Sociality"] == "SOCIAL"].dropna()
    out = []
    for eq, n in ((False, "Welch"), (True, "Student")):
        r = stats.ttest_ind(a, b, equal_var=eq)
        out.append(Answer([Num(abs(float(r.statistic)), rel=0.01), Num(float(r.pvalue), rel=0.02, abs=0.0011)], note=n))
    return out


@item("tg-132", "CAGR across year columns, max")
def _tg132(t):
    r = t.iloc[1:]
    r = r[(r["2014年"] > 0) & (r["2019年"] > 0)]
    cagr = (r["2019年"] / r["2014年"]) ** (1 / 5) - 1
    i = cagr.idxmax()
    name = t.loc[i, "指标"]
    return [Answer([Num(float(cagr[i]), pct=True)], [[name, name.split("私营")[0]]])]


@item("tg-138", "counts and shares")
def _tg138(t):
    c = t["Contribution"].value_counts()
    nums = [Num(float(n)) for n in c] + [Num(float(n) / len(t), pct=True) for n in c]
    tab = c.rename_axis("Contribution").reset_index(name="n")
    tab["share"] = tab["n"] / len(t)
    in100 = tab.assign(share=tab["share"] * 100)
    return [Answer(nums, [[v] for v in c.index])] + [
        Table(f, cols=["Contribution", "n", "share"], loose=["n", "share"], note="share as a fraction, a % or per 100")
        for f in (tab, in100)]


@item("tg-212", "mean by group, max and min")
def _tg212(t):
    m = _num(t["Crowd"]).groupby(t["Venue"]).mean()
    return [Answer([Num(m.max()), Num(m.min())], [[m.idxmax()], [m.idxmin()]])]


@item("tg-222", "mean, variance, median (wide row)")
def _tg222(t):
    s = _row(t, "执业(助理)医师数")[_years(t, 2010, 2023)].astype(float).dropna()
    base = [Num(s.mean()), Num(s.median())]
    return [Answer(base + [Num(s.var(ddof=d))], note=f"ddof={d}", in_files=True) for d in (1, 0)]


@item("tg-232", "max of counts written with percentages")
def _tg232(t):
    body = t[t["答复"] != "总数"]
    male = body["男性人数 (百分率)"].str.extract(r"^([\d ]+)")[0].str.replace(" ", "").astype(int)
    return [Answer([Num(float(male.max()))], [[body.loc[male.idxmax(), "答复"]]])]


@item("tg-246", "total (table has a total row)")
def _tg246(t):
    body = t[t["疾病类别"].notna() & (t["疾病类别"] != "总计")]
    return [Answer([Num(float(body["住院病人出院及死亡人次"].sum()))], note="the 总计 row must not be added in", in_files=True)]


@item("tg-250", "variance of monthly values per year")
def _tg250(t):
    row = t.iloc[0]
    out = []
    for d in (1, 0):
        v = [row[[c for c in t.columns if c.startswith(f"{y}年")]].astype(float).dropna().var(ddof=d) for y in (2022, 2023)]
        out.append(Answer([Num(v[0]), Num(v[1])], note=f"当期值, ddof={d}", in_files=True))
    return out


@item("tg-264", "ratio of two columns, max")
def _tg264(t):
    ratio = t["汇兑收益(万元/年度)"] / t["营业收入(万元/年度)"]
    i = ratio.idxmax()
    return [Answer([Num(float(ratio[i]), pct=True)], [[t.loc[i, "归属机构"]]])]


@item("tg-288", "above mean and equal zero")
def _tg288(t):
    hum, rain = t["湿度 "], t["降水量 "]
    r = t[(hum > hum.mean()) & (rain == 0)]
    ids = sorted({str(x).strip() for x in r["设备ID "]})
    others = sorted({str(x).strip() for x in t["设备ID "]} - set(ids))
    return [Table(r, cols=["设备ID "]), Answer(names=[[i] for i in ids], forbid=others)]


@item("tg-290", "sum by group in one year")
def _tg290(t):
    r = t[t["Fiscal Year"] == 2023]
    g = r.groupby("Region")[["Children Receiving Adoption Subsidy", "Federally Funded (Title IV-E)", "State Paid"]].sum()
    g = g.reset_index()
    return [Table(g, cols=["Region", "Children Receiving Adoption Subsidy", "Federally Funded (Title IV-E)"],
                  loose=["Children Receiving Adoption Subsidy", "Federally Funded (Title IV-E)"])]


@item("tg-130", "correlation of two year columns")
def _tg130(t):
    body = t.iloc[1:]
    return [Answer([Num(float(f["2011年"].corr(f["2010年"], method=m)), abs=0.002)], note=f"{m}, total row {k}")
            for f, k in ((t, "in"), (body, "out")) for m in ("pearson", "spearman")]


@item("tg-096", "std + a normality test")
def _tg096(t):
    from scipy import stats

    d = t["diff"].astype(float).dropna()
    tests = [stats.shapiro(d).pvalue, stats.normaltest(d).pvalue, stats.jarque_bera(d).pvalue]
    return [Answer([Num(d.std(ddof=dd)), Num(float(p), rel=0.05, abs=0.0011)]) for dd in (1, 0) for p in tests]


@item("tg-242", "chi-square test of independence")
def _tg242(t):
    import pandas as pd
    from scipy import stats

    r = stats.chi2_contingency(pd.crosstab(t["Season"], t["Team"]))
    return [Answer([Num(float(r.statistic), rel=0.01), Num(float(r.pvalue), rel=0.02, abs=0.0011)])]


@item("tg-272", "chi-square over two wide rows")
def _tg272(t):
    from scipy import stats

    ys = _years(t, 2010, 2018)
    obs = [_row(t, n)[ys].astype(float).to_numpy() for n in ("从美国引进电视节目版权总数", "从英国引进电视节目版权总数")]
    r = stats.chi2_contingency(obs)
    return [Answer([Num(float(r.statistic), rel=0.01), Num(float(r.pvalue), rel=0.02, abs=0.0011)])]


@item("tg-052", "yearly totals + ANOVA across year columns")
def _tg052(t):
    from scipy import stats

    ys = _years(t, 2019, 2023)
    totals = [Num(float(t[y].sum())) for y in ys]
    f = stats.f_oneway(*[t[y].dropna().astype(float) for y in ys])
    return [Answer(totals + [Num(float(f.statistic), rel=0.01), Num(float(f.pvalue), rel=0.02, abs=0.0011)],
                   note="each year a group of the school types (blank rows left out)")]


@item("tg-296", "t-test between two wide rows")
def _tg296(t):
    from scipy import stats

    ys = _years(t, 2012, 2019)
    a = _row(t, "煤炭开采和洗选业私营工业企业应付账款")[ys].astype(float)
    b = _row(t, "石油和天然气开采业私营工业企业应付账款")[ys].astype(float)
    ga, gb = a.pct_change().dropna(), b.pct_change().dropna()
    ps = [stats.ttest_ind(a, b, equal_var=False).pvalue, stats.ttest_ind(a, b).pvalue, stats.ttest_rel(a, b).pvalue,
          stats.ttest_ind(ga, gb, equal_var=False).pvalue, stats.ttest_ind(ga, gb).pvalue]
    return [Answer([Num(float(p), rel=0.02, abs=0.0011)], note="on values or on yearly growth") for p in ps]


@item("tg-172", "shares of two columns in one row")
def _tg172(t):
    cols = [str(c) for c in t.columns]
    row = t[(t["Description"].astype(str).str.replace("–", "-").str.contains("19 - 21")) & (t["Type"] == "Number")].iloc[0]
    pct_row = t[(t["Description"].astype(str).str.replace("–", "-").str.contains("19 - 21")) & (t["Type"] == "Percentage")].iloc[0]
    out = []
    for male in (c for c in cols if c.endswith("- Male")):
        female = male[: -len("Male")] + "Female"
        m, f = float(row[male]), float(row[female])
        out.append(Answer([Num(m / (m + f), pct=True, abs=0.0006), Num(f / (m + f), pct=True, abs=0.0006)],
                          note=f"each sex's share of the candidates in 19-21 ({male[-60:]})"))
        pm, pf = (float(str(pct_row[c]).rstrip("%")) / 100 for c in (male, female))
        out.append(Answer([Num(pm, pct=True), Num(pf, pct=True)], note="the share of all male / all female candidates (the table's own %)"))
    return out


@item("tg-270", "mean, variance, std of finishing times")
def _tg270(t):
    import pandas as pd

    def secs(s: str) -> float:
        parts = [float(x) for x in s.split(":")]
        return sum(v * 60 ** i for i, v in enumerate(reversed(parts)))

    txt = t["Time/Retired"].astype(str).str.strip()
    win = secs(txt.iloc[0])
    gaps = txt.str.extract(r"^\+(\d+(?::\d+)?\.\d+)$")[0]
    total = pd.Series([win] + [win + secs(g) for g in gaps.dropna()])
    out = []
    for scale, unit in ((1, "seconds"), (60, "minutes")):
        x = total / scale
        for dd in (1, 0):
            out.append(Answer([Num(x.mean(), rel=0.0005), Num(x.var(ddof=dd), rel=0.005), Num(x.std(ddof=dd), rel=0.005)],
                              note=f"finishers on the lead lap, in {unit}, ddof={dd}"))
    return out


# ---- charts (an xlsx with a native chart holding the plotted values)


@item("tg-142", "line chart of a wide row")
def _tg142(t):
    return [Chart("line", list(_row(t, "民用机动运输船数")[_years(t, 2004, 2022)].astype(float)))]


@item("tg-236", "pie chart of counts")
def _tg236(t):
    return [Chart("pie", [float(n) for n in t["Epicenter"].value_counts()])]


@item("tg-048", "bar chart of two year columns")
def _tg048(t):
    return [Chart("bar", list(t["2010年"].astype(float)) + list(t["2020年"].astype(float)))]


@item("tg-176", "bar chart sorted")
def _tg176(t):
    body = t[t["Nation"] != "Total"].sort_values("Gold", ascending=False)
    return [Chart("bar", [float(x) for x in body["Gold"]])]


@item("tg-238", "line chart of several wide rows")
def _tg238(t):
    return [Chart("line", [float(x) for x in t[_years(t, 2018, 2021)].to_numpy().ravel()])]


@item("tg-248", "append a row holding a mean")
def _tg248(t):
    import pandas as pd

    col = "2006-2010 estimate of obesity"
    mean = t.loc[t["stname"] == "Pennsylvania", col].mean()
    return [Table(pd.concat([t, pd.DataFrame({"stname": ["Pennsylvania"], col: [mean]})], ignore_index=True), cols=[col])]


@item("tg-284", "bar chart of numbers inside text")
def _tg284(t):
    pos = t.sort_values("Year")["Finish position"].str.extract(r"(\d+)")[0].astype(float)
    return [Chart("bar", list(pos))]


@item("tg-262", "line chart + the highest year")
def _tg262(t):
    row = _row(t, "住户部门非金融交易资金运用劳动者报酬")
    ys = _years(t, 2012, 2021)
    vals = row[ys].astype(float)
    top = vals.idxmax()
    return [All([Chart("line", list(vals)), Answer([Num(float(vals[top]))], [[top, top.rstrip("年")]])],
                note="the last ten years in the table: 2012-2021")]


# --------------------------------------------------------------------------- judging


def numbers_in(text: str) -> list[float]:
    """Every number a reader sees in `text`: thousands separators, %, 万 and 亿, exponents, a sign."""
    return [v for v, _half in stated_numbers(text)]


def stated_numbers(text: str) -> list[tuple[float, float]]:
    """(value, half a unit of the last digit shown) for every number in `text`."""
    out: list[tuple[float, float]] = []
    for m in re.finditer(r"([-−]?)(\d[\d,]*)(\.\d+)?([eE][-+]?\d+)?\s*(%|万|亿)?", text):
        whole, frac, exp, unit = m.group(2).replace(",", ""), m.group(3) or "", m.group(4) or "", m.group(5)
        try:
            x = float(whole + frac + exp)
        except ValueError:
            continue
        half = 0.5 * 10.0 ** (-(len(frac) - 1 if frac else 0)) * (10.0 ** int(exp[1:]) if exp else 1.0)
        scale = {"万": 1e4, "亿": 1e8}.get(unit or "", 1.0)
        vals = [(x * scale, half * scale)] + ([(x / 100, half / 100)] if unit == "%" else [])
        for v, h in vals:
            out.append((v, h))
            if m.group(1):
                out.append((-v, h))
    return out


def _close(a: float, b: float, rel: float, abs_: float) -> bool:
    if math.isinf(a) or math.isinf(b) or math.isnan(a) or math.isnan(b):
        return False
    return abs(a - b) <= max(rel * abs(b), abs_)


def match_answer(exp: Answer, text: str) -> str | None:
    """None when `text` satisfies `exp`, else the reason it does not."""
    found = stated_numbers(text)
    low = _squeeze(text)
    for n in exp.numbers:
        targets = [n.value, n.value * 100] if n.pct else [n.value]
        if not any(_close(c, v, n.rel, max(n.abs, h * 1.000001)) for c, h in found for v in targets):
            return f"no {n.value:.6g} in the answer"
    for group in exp.names:
        if not any(_squeeze(str(g)) in low for g in group):
            return f"'{group[0]}' not named"
    for f in exp.forbid:
        if _squeeze(str(f)) in low:
            return f"names '{f}', which does not qualify"
    return None


def _squeeze(text: str) -> str:
    return " ".join(text.lower().split())


def _cell(v: Any) -> Any:
    if v is None:
        return None
    if isinstance(v, bool) or type(v).__name__ == "bool_":
        return str(bool(v))
    if isinstance(v, (int, float)) or type(v).__module__ == "numpy":
        x = float(v)
        return None if math.isnan(x) else x
    s = str(v).strip()
    if len(s) > 1 and s[0] == "'" and s[1] in "=+-@":
        s = s[1:]
    if s == "" or s.lower() in ("nan", "none", "null"):
        return None
    if s in ("True", "False", "TRUE", "FALSE"):
        return s.capitalize()
    if re.fullmatch(r"-?\d+(\.\d+)?%", s):
        return float(s[:-1]) / 100
    try:
        return float(s.replace(",", "").replace("$", "")) if re.fullmatch(r"[-+$\d.,eE]+|[-+]?inf", s) else s
    except ValueError:
        return s


def _same(a: Any, b: Any, rel: float, abs_: float) -> bool:
    if isinstance(b, float) and not math.isfinite(b):
        return a is None or (isinstance(a, float) and not math.isfinite(a)) or isinstance(a, str)
    if isinstance(a, float) and isinstance(b, float):
        return _close(a, b, rel, abs_)
    return a == b


def _sort_key(row: tuple) -> tuple:
    return tuple("" if v is None else (f"{v:.3g}" if isinstance(v, float) else v) for v in row)


def match_table(exp: Table, out) -> str | None:
    """None when the DataFrame `out` holds the expected rows, else the reason it does not."""
    out = out.rename(columns=lambda c: str(c).strip())
    have = list(out.columns)
    for g in exp.gone:
        if g.strip() in have:
            return f"column '{g}' is still there"
    cols = exp.cols or [str(c) for c in exp.frame.columns]
    if len(out) != len(exp.frame):
        return f"{len(out)} rows, expected {len(exp.frame)}"
    exp_cols = {c: [_cell(v) for v in exp.frame[c]] for c in cols}
    got_cols: dict[str, list] = {}
    lowered = {c.lower(): c for c in have}
    for c in cols:
        name = c.strip() if c.strip() in have else lowered.get(c.strip().lower())
        if name is not None:
            got_cols[c] = [_cell(v) for v in out[name]]
    # a computed column under another name: the unused output column whose values fit
    for c in cols:
        if c in got_cols or c not in exp.loose:
            continue
        want = sorted(exp_cols[c], key=lambda v: _sort_key((v,)))
        for name in have:
            vals = [_cell(v) for v in out[name]]
            got = sorted(vals, key=lambda v: _sort_key((v,)))
            if all(_same(a, b, exp.rel, exp.abs) for a, b in zip(got, want, strict=True)):
                got_cols[c] = vals
                break
    missing = [c for c in cols if c not in got_cols]
    if missing:
        return f"no column {missing[0]!r}"
    got_rows = list(zip(*(got_cols[c] for c in cols), strict=True))
    exp_rows = list(zip(*(exp_cols[c] for c in cols), strict=True))
    if exp.sorted_by:
        col, desc = exp.sorted_by
        seq = [v for v in got_cols[col] if isinstance(v, float)]
        if seq != sorted(seq, reverse=desc):
            return f"not sorted by {col}"
    got_rows.sort(key=_sort_key)
    exp_rows.sort(key=_sort_key)
    for got_row, exp_row in zip(got_rows, exp_rows, strict=True):
        if not all(_same(a, b, exp.rel, exp.abs) for a, b in zip(got_row, exp_row, strict=True)):
            return f"row {exp_row!r} differs: got {got_row!r}"
    return None


CHART_KINDS = {"BarChart": "bar", "BarChart3D": "bar", "LineChart": "line", "LineChart3D": "line",
               "PieChart": "pie", "PieChart3D": "pie", "DoughnutChart": "pie", "ScatterChart": "scatter"}


def match_chart(exp: Chart, path: Path) -> str | None:
    from openpyxl import load_workbook

    wb = load_workbook(path)
    kinds = [CHART_KINDS.get(type(ch).__name__, type(ch).__name__) for ws in wb.worksheets for ch in ws._charts]
    if not kinds:
        return f"{path.name}: no chart"
    if exp.kind not in kinds:
        return f"{path.name}: a {'/'.join(kinds)} chart, expected {exp.kind}"
    wb = load_workbook(path, data_only=True)
    cells = [float(v) for ws in wb.worksheets for r in ws.iter_rows(values_only=True) for v in r
             if isinstance(v, (int, float)) and not isinstance(v, bool)]
    for v in exp.values:
        if not any(_close(c, v, 1e-3, 0.006) for c in cells):
            return f"{path.name}: value {v:.6g} not in the chart data"
    return None


def read_output(path: Path) -> list:
    import pandas as pd

    if path.suffix.lower() == ".csv":
        return [pd.read_csv(path, encoding="utf-8-sig")]
    if path.suffix.lower() in (".xlsx", ".xls"):
        return list(pd.read_excel(path, sheet_name=None).values())
    return []


@dataclass
class Run:
    """What one scripted conversation did, read from its events."""

    rc: int
    stderr: str
    events: list[dict]
    outputs: list[Path]
    ut: int  # the turn number of the request itself
    source_cols: frozenset[str] = frozenset()

    def turn(self, kind: str, n: int) -> dict:
        return next((e for e in self.events if e.get("event") == kind and e.get("turn") == n), {})

    def judged_turns(self) -> list[int]:
        first = self.turn("decision", self.ut).get("next")
        return [self.ut, self.ut + 1] if first in ("restate_confirm", "plan_confirm") else [self.ut]


def judge(expects: list[Expect], run: Run) -> tuple[str, str]:
    """(outcome, reason) for one item."""
    if run.rc != 0 or "Traceback" in run.stderr:
        return "error", (run.stderr.strip().splitlines() or [f"exit {run.rc}"])[-1][:160]
    turns = run.judged_turns()
    decisions = [run.turn("decision", n) for n in turns]
    runs = [run.turn("run", n) for n in turns]
    text = "\n".join(str(r.get("answer") or "") for r in runs)
    reasons: list[str] = []
    for exp in expects:
        why = _match_one(exp, text, run)
        if why is None:
            return "correct", exp.note or type(exp).__name__.lower()
        reasons.append(why)
    executed = [n for n, d in zip(turns, decisions, strict=True) if d.get("next") == "execute"]
    last = runs[-1] if runs else {}
    if executed:
        status = last.get("status")
        via = "ran at once" if executed[0] == run.ut else "ran after 继续"
        if status == "failed":
            return "error", f"run failed: {last.get('fallback_reason')}"
        tools = [e.get("tool") for e in run.events if e.get("event") == "step" and e.get("turn") in executed]
        ran = f"{via} [{','.join(t for t in tools if t)}]"
        said = f"said: {_short(str(last.get('answer') or ''), 70)}"
        if len(runs) > 1:
            said = f"understood: {_gist(str(runs[0].get('answer') or ''))}; {said}"
        if status == "insufficient_context":
            return "wrong", f"false 'no data' ({last.get('fallback_reason')}) {ran}; {said}"
        return "wrong", f"{ran}: {reasons[0]}; {said}"
    said = text.lower()
    if any(c in said for c in UNSUPPORTED_CUES):
        return "refused", _short(text)
    return "asked", f"{decisions[-1].get('next')}: {_short(text)}"


def _match_one(exp: Expect, text: str, run: Run) -> str | None:
    outputs = run.outputs
    if isinstance(exp, All):
        return next((why for part in exp.parts if (why := _match_one(part, text, run))), None)
    if isinstance(exp, Answer):
        if exp.in_files:
            small = [f for p in outputs for f in read_output(p)
                     if len(f) <= MAX_RESULT_ROWS and {str(c).strip() for c in f.columns} - run.source_cols]
            text = "\n".join([text, *(f.to_csv(index=False, sep="\t") for f in small)])  # tabs: "2169258,21" is not one number
        return match_answer(exp, text)
    if isinstance(exp, Chart):
        books = [p for p in outputs if p.suffix.lower() == ".xlsx"]
        if not books:
            return "no xlsx chart written"
        whys = [match_chart(exp, p) for p in books]
        return None if None in whys else whys[0]
    tables = [(p, f) for p in outputs for f in read_output(p)]
    if not tables:
        return "no table written"
    whys = [match_table(exp, f) for _p, f in tables]
    return None if None in whys else f"{tables[0][0].name}: {whys[0]}"


def _gist(restatement: str) -> str:
    """The understood request inside a restatement, without the file-choice note and the closing prompt."""
    core = restatement.split("我的理解是：", 1)[-1]
    return _short(re.split(r"（|不对请|确认请", core, maxsplit=1)[0].strip().rstrip("。"), 80)


def _short(text: str, n: int = 90) -> str:
    one = " ".join(text.split())
    return one if len(one) <= n else one[: n - 1] + "…"


# --------------------------------------------------------------------------- running


def load_table(ws: Path):
    import pandas as pd

    files = sorted(p for p in ws.iterdir() if p.suffix.lower() in (".csv", ".xlsx", ".xls"))
    return pd.read_csv(files[0]) if files[0].suffix.lower() == ".csv" else pd.read_excel(files[0])


def run_item(wenqing: str, label: dict, set_dir: Path, env: dict[str, str] | None = None) -> dict:
    kind, fn = ITEMS[label["id"]]
    res = {"id": label["id"], "kind": kind, "utterance": label["utterance"]}
    try:
        table = load_table(set_dir / label["ws"])
        expects = fn(table)
    except ImportError as e:
        return res | {"outcome": "skipped", "reason": f"{e.name} is not installed"}
    except Exception as e:  # an expectation that cannot be computed is a fault of this benchmark
        return res | {"outcome": "error", "reason": f"expectation: {type(e).__name__}: {e}"}
    with tempfile.TemporaryDirectory(prefix="wq-e2e-") as tmp:
        ws = Path(tmp) / "ws"
        shutil.copytree(set_dir / label["ws"], ws)
        turns = [*label.get("history", []), label["utterance"], CONFIRM]
        script, events = Path(tmp) / "turns.txt", Path(tmp) / "events.jsonl"
        script.write_text("\n".join(turns) + "\n", encoding="utf-8")
        cmd = [wenqing, "chat", "--workspace", str(ws), "--script", str(script), "--events", str(events)]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S, check=False, env=env)
            rc, err = p.returncode, p.stderr
        except subprocess.TimeoutExpired:
            rc, err = -1, f"timed out after {TIMEOUT_S} s"
        evs = []
        if events.is_file():
            for line in events.read_text(encoding="utf-8").splitlines():
                try:
                    evs.append(json.loads(line))
                except json.JSONDecodeError:
                    pass
        out_dir = ws / "outputs"
        outputs = sorted(q for q in out_dir.rglob("*") if q.is_file()) if out_dir.is_dir() else []
        run = Run(rc, err, evs, outputs, ut=len(label.get("history", [])) + 1,
                  source_cols=frozenset(str(c).strip() for c in table.columns))
        try:
            outcome, reason = judge(expects, run)
        except Exception as e:
            outcome, reason = "error", f"judging: {type(e).__name__}: {e}"
    return res | {"outcome": outcome, "reason": reason, "said": said_and_ran(run)}


def said_and_ran(run: Run) -> dict:
    """The query the request's turn restated (or ran), the query that ran, and the steps that ran vs planned."""
    first, second = run.turn("decision", run.ut), run.turn("decision", run.ut + 1)
    ran = second if first.get("next") in ("restate_confirm", "plan_confirm") and second.get("next") == "execute" else \
        first if first.get("next") == "execute" else {}
    turn = ran.get("turn")
    steps = [e.get("tool") for e in run.events if e.get("event") == "step" and e.get("turn") == turn and e.get("tool")]
    planned = [s.get("toolHint") for s in ((ran.get("plan") or {}).get("steps") or [])]
    return {"next": first.get("next"), "gate": first.get("gate"), "rule": first.get("rule"), "reply": first.get("reply") or "",
            "query_said": first.get("query"), "query_ran": ran.get("query"), "ran": bool(ran),
            "steps": steps, "planned": planned}


def _fake_outputs(exp: Expect, out_dir: Path) -> str:
    """Write what a perfect run would leave for `exp`; return the answer text it would say."""
    out_dir.mkdir(parents=True, exist_ok=True)
    if isinstance(exp, All):
        return " ".join(_fake_outputs(part, out_dir) for part in exp.parts)
    if isinstance(exp, Table):
        exp.frame.to_csv(out_dir / "result.csv", index=False)
        return "已保存。"
    if isinstance(exp, Chart):
        from openpyxl import Workbook
        from openpyxl.chart import BarChart, LineChart, PieChart, Reference, ScatterChart

        wb = Workbook()
        ws = wb.active
        for i, v in enumerate(exp.values, start=1):
            ws.cell(row=i, column=1, value=f"c{i}")
            ws.cell(row=i, column=2, value=v)
        kinds = {"bar": BarChart, "line": LineChart, "pie": PieChart, "scatter": ScatterChart}
        chart = kinds[exp.kind]()
        chart.add_data(Reference(ws, min_col=2, min_row=1, max_row=len(exp.values)))
        ws.add_chart(chart, "D2")
        wb.save(out_dir / "chart.xlsx")
        return "已保存图表。"
    parts = [f"{n.value * 100:.2f}%" if n.pct else (f"{n.value:,.2f}" if abs(n.value) >= 1 else f"{n.value:.4f}")
             for n in exp.numbers]
    return "结果：" + "，".join(parts + [str(g[0]) for g in exp.names])


def selfcheck(label: dict, set_dir: Path) -> str | None:
    """None when a perfect run would be judged correct and the untouched source table would not."""
    table = load_table(set_dir / label["ws"])
    expects = ITEMS[label["id"]][1](table)
    cols = frozenset(str(c).strip() for c in table.columns)
    with tempfile.TemporaryDirectory(prefix="wq-e2e-check-") as tmp:
        out = Path(tmp) / "perfect"
        text = _fake_outputs(expects[0], out)
        events = [{"event": "decision", "turn": 1, "next": "execute"},
                  {"event": "run", "turn": 1, "status": "answered", "answer": text}]
        got = judge(expects, Run(0, "", events, sorted(out.iterdir()), 1, cols))
        if got[0] != "correct":
            return f"a perfect run is judged {got}"
        copy = Path(tmp) / "copy"
        copy.mkdir()
        table.to_csv(copy / "copy.csv", index=False)
        events[1]["answer"] = "已保存。"
        got = judge(expects, Run(0, "", events, [copy / "copy.csv"], 1, cols))
        if got[0] == "correct":
            return "the untouched source table is judged correct"
    return None


def select(labels: list[dict], ids: str | None, limit: int | None) -> list[dict]:
    chosen = [x for x in labels if x["id"] in ITEMS]
    if ids:
        want = {i.strip() for i in ids.split(",") if i.strip()}
        chosen = [x for x in chosen if x["id"] in want]
    return chosen[:limit] if limit else chosen


def report(results: list[dict]) -> str:
    lines = [f"{'id':<7} {'kind':<34} {'outcome':<8} request / reason"]
    for r in results:
        lines.append(f"{r['id']:<7} {r['kind'][:34]:<34} {r['outcome']:<8} {_short(r['utterance'], 40)}")
        lines.append(f"{'':<51}→ {r['reason']}")
    c = Counter(r["outcome"] for r in results)
    n = len(results) - c["skipped"]
    lines.append("")
    lines.append(f"carried out correctly {c['correct']}/{n} ({c['correct'] / max(n, 1):.0%}); silently wrong {c['wrong']}; "
                 f"asked/restated {c['asked']}; refused {c['refused']}; errors {c['error']}"
                 + (f"; skipped {c['skipped']} (a library is missing)" if c["skipped"] else ""))
    nodata = sum(1 for r in results if r["outcome"] == "wrong" and r["reason"].startswith("false 'no data'"))
    if nodata:
        lines.append(f"of the silently wrong, {nodata} claimed the data could not answer")
    asked = [r["reason"] for r in results if r["outcome"] == "asked"]
    second = sum(1 for r in asked if "比较/关联" in r or "要关联哪个文件" in r)
    which_file = sum(1 for r in asked if ("哪个文件" in r or "工作区里" in r) and "比较/关联" not in r
                     and "要关联哪个文件" not in r)
    if asked:
        lines.append(f"of the questions, {which_file} asked which file (each workspace here holds one table), "
                     f"{second} asked for a second file to compare or join")
    wrong = [r["id"] for r in results if r["outcome"] == "wrong"]
    if wrong:
        lines.append("silently wrong: " + ", ".join(wrong))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("wenqing", nargs="?", default=str(ROOT / ".venv" / "bin" / "wenqing"))
    ap.add_argument("--set", type=Path, default=DEFAULT_SET, help="the tablegpt folder (labels.jsonl, ws-*/)")
    ap.add_argument("--ids", help="comma-separated item ids")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--jobs", type=int, default=2, help="parallel runs (at most 2)")
    ap.add_argument("--json", type=Path, help="also write the per-item results here")
    ap.add_argument("--show", action="store_true", help="print the expected results and run nothing")
    ap.add_argument("--selfcheck", action="store_true",
                    help="check the judge: a perfect result passes, the untouched table does not (runs nothing)")
    a = ap.parse_args(argv)
    labels_path = a.set / "labels.jsonl"
    if not labels_path.is_file():
        print(f"no tablegpt development set at {a.set}; nothing to run (it lives in ../shared/eval/external_dev)")
        return 0
    labels = [json.loads(line) for line in labels_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    chosen = select(labels, a.ids, a.limit)
    if a.show:
        for x in chosen:
            print(x["id"], ITEMS[x["id"]][0], "|", x["utterance"])
            for e in ITEMS[x["id"]][1](load_table(a.set / x["ws"])):
                print("   ", describe(e))
        return 0
    if a.selfcheck:
        bad = [(x["id"], why) for x in chosen if (why := selfcheck(x, a.set))]
        for i, why in bad:
            print(i, why)
        print(f"selfcheck: {len(chosen) - len(bad)}/{len(chosen)} items judged as they should be")
        return 1 if bad else 0
    if not Path(a.wenqing).exists() and shutil.which(a.wenqing) is None:
        print(f"wenqing executable not found: {a.wenqing}")
        return 2
    jobs = max(1, min(a.jobs, 2))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(run_item, [a.wenqing] * len(chosen), chosen, [a.set] * len(chosen)))
    print(report(results))
    if a.json:
        a.json.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


def describe(e: Expect) -> str:
    if isinstance(e, All):
        return " AND ".join(describe(p) for p in e.parts) + f" {e.note}"
    if isinstance(e, Answer):
        nums = ", ".join(f"{n.value:.6g}{'(%)' if n.pct else ''}" for n in e.numbers)
        names = " & ".join("/".join(map(str, g))[:40] for g in e.names)
        return f"answer: [{nums}] names: {names or '-'} {('forbid ' + str(len(e.forbid))) if e.forbid else ''} {e.note}"
    if isinstance(e, Chart):
        return f"chart {e.kind}: {len(e.values)} values, e.g. {[round(v, 3) for v in e.values[:4]]} {e.note}"
    cols = e.cols or list(e.frame.columns)
    head = e.frame[cols].head(3).to_dict("records")
    return f"table {len(e.frame)} rows, cols {cols}{' sorted' if e.sorted_by else ''}: {str(head)[:150]} {e.note}"


if __name__ == "__main__":
    raise SystemExit(main())
