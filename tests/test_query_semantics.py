"""How requests compose, run for real through a session and recomputed with pandas.

Six kinds of composition (negation scope, the order of operations, references to a result, sheets, corrections,
operation swaps), in Chinese and English, on data made here. A case marked RUN must run (directly or after 继续)
and give the pandas result; the others may also ask or restate instead, but never give a different result. Every
restatement that runs is checked to name each part of the query it runs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engine.session import Session, TurnResult
from modes.query import query_of, walk
from modes.replies import goal_summary
from tools.workspace import Workspace

WAITS = ("restate_confirm", "plan_confirm", "ask_slots", "ask_intent")
RUN = True
Check = Callable[[pd.DataFrame, TurnResult, Path], None]


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    r = tmp_path_factory.mktemp("compose")
    rng = np.random.default_rng(11)
    n = 72
    pd.DataFrame({
        "姓名": [f"职员{i:02d}" for i in range(n)],
        "部门": rng.choice(["销售部", "财务部", "技术部"], n),
        "城市": rng.choice(["成都", "重庆", "西安"], n),
        "学历": rng.choice(["本科", "硕士", "大专"], n),
        "月薪": np.where(rng.random(n) < 0.15, 0, rng.integers(4000, 20000, n)),
        "入职日期": pd.date_range("2020-01-01", periods=n, freq="13D").strftime("%Y-%m-%d"),
    }).to_csv(r / "staff.csv", index=False)
    m = 48
    pd.DataFrame({
        "store": [f"S{i:02d}" for i in range(m)],
        "city": rng.choice(["Leeds", "York", "Bath"], m),
        "region": rng.choice(["North", "South", "East"], m),
        "channel": rng.choice(["Online", "Retail"], m),
        "area": rng.integers(50, 400, m),
        "sales": rng.integers(1000, 9000, m),
    }).to_csv(r / "stores.csv", index=False)
    k = 60
    pd.DataFrame({
        "customer": rng.choice(["Ann", "Bob", "Cai", "Dee", "Eve"], k),
        "phone": rng.integers(13000000000, 13999999999, k),
        "product": rng.choice(["tea", "mug", "pot"], k),
        "price": rng.integers(5, 80, k),
    }).to_csv(r / "visits.csv", index=False)
    with pd.ExcelWriter(r / "销售.xlsx") as w:
        for sheet, months in (("上半年", range(1, 7)), ("下半年", range(7, 13))):
            pd.DataFrame({"月份": [f"{x}月" for x in months for _ in range(3)], "产品": ["甲", "乙", "丙"] * len(months),
                          "销售额": rng.integers(100, 900, len(months) * 3)}).to_excel(w, sheet_name=sheet, index=False)
    with pd.ExcelWriter(r / "regions.xlsx") as w:
        for sheet in ("North", "South"):
            pd.DataFrame({"store": [f"{sheet[0]}{i}" for i in range(12)], "city": rng.choice(["Leeds", "York"], 12),
                          "channel": rng.choice(["Online", "Retail"], 12),
                          "sales": rng.integers(1000, 9000, 12)}).to_excel(w, sheet_name=sheet, index=False)
    return r


def staff(r: Path) -> pd.DataFrame:
    return pd.read_csv(r / "staff.csv")


def stores(r: Path) -> pd.DataFrame:
    return pd.read_csv(r / "stores.csv")


def visits(r: Path) -> pd.DataFrame:
    return pd.read_csv(r / "visits.csv")


def sheet(r: Path, name: str, book: str = "销售.xlsx") -> pd.DataFrame:
    return pd.read_excel(r / book, sheet_name=name, engine="openpyxl")


# ---- checks: each recomputes the answer with pandas --------------------------------------------------------------

def rows(expect: Callable[[Path], pd.DataFrame], key: str) -> Check:
    """The result holds exactly the expected rows (by key), in any order."""
    def check(out: pd.DataFrame, tr: TurnResult, r: Path) -> None:
        want = sorted(map(str, expect(r)[key]))
        assert sorted(map(str, out[key])) == want, (query_of(tr.decision.request), len(out), len(want))
    return check


def ranked(expect: Callable[[Path], pd.DataFrame], key: str) -> Check:
    """The result holds the expected rows (by key) in the expected order."""
    def check(out: pd.DataFrame, tr: TurnResult, r: Path) -> None:
        assert list(map(str, out[key])) == list(map(str, expect(r)[key])), query_of(tr.decision.request)
    return check


def groups(expect: Callable[[Path], pd.Series], col: str | None = None) -> Check:
    """The result maps each group to the expected figure (the column named, else the one figure beside the keys)."""
    def check(out: pd.DataFrame, tr: TurnResult, r: Path) -> None:
        want = expect(r)
        keys = list(want.index.names)
        figures = [c for c in out.columns if c not in keys]
        c = col if col is not None else next(c for c in figures if c not in ("行数", "rows") or len(figures) == 1)
        got = out.set_index(keys)[c] if keys != [None] else out[c]
        assert {str(k): round(float(v), 4) for k, v in got.items()} == {str(k): round(float(v), 4) for k, v in want.items()}, (
            query_of(tr.decision.request), c)
    return check


def counts(expect: Callable[[Path], pd.Series]) -> Check:
    """Rows counted per group: the count column (行数 / rows / 计数) holds the expected counts."""
    def check(out: pd.DataFrame, tr: TurnResult, r: Path) -> None:
        want = expect(r)
        keys = list(want.index.names)
        c = next(c for c in out.columns if c in ("行数", "rows", "计数", "count", "人数", "次数"))
        got = out.set_index(keys)[c]
        assert {str(k): int(v) for k, v in got.items()} == {str(k): int(v) for k, v in want.items()}, query_of(tr.decision.request)
    return check


def figure(expect: Callable[[Path], float]) -> Check:
    """A question answered with one figure: the answer, or the result's one figure, is the expected number."""
    def check(out: pd.DataFrame, tr: TurnResult, r: Path) -> None:
        want = expect(r)
        shown = (tr.run.answer or "").replace(",", "")
        nums = [float(x) for x in __import__("re").findall(r"-?\d+(?:\.\d+)?", shown)]
        table = [float(v) for v in out.select_dtypes("number").to_numpy().ravel()] if not out.empty else []
        assert any(abs(x - want) < 0.01 for x in nums + table), (shown, want, query_of(tr.decision.request))
    return check


def columns(expect: list[str]) -> Check:
    def check(out: pd.DataFrame, tr: TurnResult, r: Path) -> None:
        assert list(out.columns) == expect, query_of(tr.decision.request)
    return check


# ---- running a case -----------------------------------------------------------------------------------------------

def talk(r: Path, turns: list[str], confirm: bool, between: bool = False) -> TurnResult:
    """The turns in one session; with `between`, a turn restated before the last one is confirmed first (the next
    turn refers to its result), else the next turn answers it (a correction)."""
    s = Session(Workspace.at(r))
    tr = None
    for i, t in enumerate(turns):
        tr = s.turn(t)
        if between and i < len(turns) - 1 and tr.run is None and tr.decision.next in ("restate_confirm", "plan_confirm"):
            tr = s.turn("继续")
    assert tr is not None
    if confirm and tr.run is None and tr.decision.next in ("restate_confirm", "plan_confirm"):
        restated = tr.decision.request
        tr = s.turn("继续")
        if tr.run is not None:
            names_every_part(restated, tr)
    elif tr.run is not None:
        names_every_part(tr.decision.request, tr)
    return tr


def names_every_part(req: object, tr: TurnResult) -> None:
    """What was said back names every column and value of the query's conditions, its keys and its cuts."""
    said = goal_summary(req, req.lang)  # type: ignore[attr-defined]
    q = query_of(req)  # type: ignore[arg-type]
    if q is None:
        return
    assert tr.plan is not None and tr.plan.goalSummary == said
    for part in q.chain():
        for p in [*walk(part.where), *walk(part.having)]:
            assert str(p.column) in said, (p, said)
            if isinstance(p.value, (str, int)) and not isinstance(p.value, bool):
                assert str(p.value) in said, (p, said)
        for s in part.group:
            for k in s.args.get("keys") or []:
                assert k in said, (k, said)
        for s in part.limit:
            if s.args.get("n") and s.args.get("n") != 1:
                assert str(s.args["n"]) in said, (s, said)
    if q.source.sheet:
        assert q.source.sheet in said, said


def result(r: Path, tr: TurnResult) -> pd.DataFrame:
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.reply, tr.run and tr.run.notes)
    tables = [f["path"] for f in tr.run.files if f["path"].endswith((".csv", ".xlsx"))]
    if not tables:
        return tr.run.table if isinstance(tr.run.table, pd.DataFrame) else pd.DataFrame()
    p = r / tables[0]
    return pd.read_csv(p) if p.suffix == ".csv" else pd.read_excel(p, engine="openpyxl")


def verdict(r: Path, turns: list[str], check: Check, must_run: bool, between: bool = False) -> str:
    tr = talk(r, turns, confirm=True, between=between)
    if tr.run is None:
        assert not must_run, f"did not run: {tr.decision.next} {tr.decision.reply}"
        assert tr.decision.next in WAITS, (tr.decision.next, tr.decision.reply)
        return "asked"
    if not must_run and tr.run.status != "answered":
        return "stopped"
    check(result(r, tr), tr, r)
    return "ran"


Case = tuple[list[str], Check, bool]


def cases(*items: Case) -> list[object]:
    return [pytest.param(t, c, m, id=" | ".join(t)[:60]) for t, c, m in items]


# ---- 1. negation scope: an exclusion negates the condition it is written against, and only that one ------------

NEGATION = cases(
    (["staff.csv 销售部以外的员工"], rows(lambda r: staff(r)[staff(r)["部门"] != "销售部"], "姓名"), RUN),
    (["staff.csv 除了成都，其他城市的员工"], rows(lambda r: staff(r)[staff(r)["城市"] != "成都"], "姓名"), RUN),
    (["staff.csv 月薪为0的不算，按部门算平均月薪"], groups(lambda r: staff(r)[staff(r)["月薪"] != 0].groupby("部门")["月薪"].mean()), RUN),
    (["staff.csv 筛选学历不是本科的"], rows(lambda r: staff(r)[staff(r)["学历"] != "本科"], "姓名"), RUN),
    (["staff.csv 删除城市为重庆的行"], rows(lambda r: staff(r)[staff(r)["城市"] != "重庆"], "姓名"), RUN),
    (["staff.csv 不要财务部的，按城市统计人数"], counts(lambda r: staff(r)[staff(r)["部门"] != "财务部"].groupby("城市").size()), False),
    (["staff.csv 剔除月薪为0的，月薪最高的3个人"], ranked(lambda r: staff(r)[staff(r)["月薪"] != 0].nlargest(3, "月薪"), "姓名"), RUN),
    (["staff.csv 硕士以外的员工里，月薪大于10000的"],
     rows(lambda r: staff(r)[(staff(r)["学历"] != "硕士") & (staff(r)["月薪"] > 10000)], "姓名"), RUN),
    (["stores.csv rows not in the North region"], rows(lambda r: stores(r)[stores(r)["region"] != "North"], "store"), RUN),
    (["stores.csv everything except the Online channel"], rows(lambda r: stores(r)[stores(r)["channel"] != "Online"], "store"), False),
    (["stores.csv top 5 stores by sales, excluding those in York"],
     ranked(lambda r: stores(r)[stores(r)["city"] != "York"].nlargest(5, "sales"), "store"), RUN),
    (["stores.csv stores outside Bath with sales over 5000"],
     rows(lambda r: stores(r)[(stores(r)["city"] != "Bath") & (stores(r)["sales"] > 5000)], "store"), RUN),
    (["stores.csv remove the rows where channel is Retail"], rows(lambda r: stores(r)[stores(r)["channel"] != "Retail"], "store"), RUN),
    (["stores.csv average sales per city, excluding the South region"],
     groups(lambda r: stores(r)[stores(r)["region"] != "South"].groupby("city")["sales"].mean()), RUN),
    (["stores.csv stores whose region is not East"], rows(lambda r: stores(r)[stores(r)["region"] != "East"], "store"), RUN),
    (["stores.csv the stores other than York ones"], rows(lambda r: stores(r)[stores(r)["city"] != "York"], "store"), False),
    (["staff.csv 月薪为0的职员不算，按部门算平均月薪"], groups(lambda r: staff(r)[staff(r)["月薪"] != 0].groupby("部门")["月薪"].mean()), RUN),
    (["staff.csv 硕士学历不算，各城市人数"], counts(lambda r: staff(r)[staff(r)["学历"] != "硕士"].groupby("城市").size()), RUN),
)


@pytest.mark.parametrize(("turns", "check", "must_run"), NEGATION)
def test_negation_scope(root: Path, turns: list[str], check: Check, must_run: bool) -> None:
    verdict(root, turns, check, must_run)


# ---- 2. order: rows are chosen before they are summarised, cut or drawn, whatever the order of the words ----------

ORDER = cases(
    (["staff.csv 按学历算平均月薪，月薪不等于0"], groups(lambda r: staff(r)[staff(r)["月薪"] != 0].groupby("学历")["月薪"].mean()), RUN),
    (["staff.csv 月薪最高的5个人，姓名里不含职员1"],
     ranked(lambda r: staff(r)[~staff(r)["姓名"].str.contains("职员1")].nlargest(5, "月薪"), "姓名"), RUN),
    (["stores.csv number of stores per city with area above 200"], counts(lambda r: stores(r)[stores(r)["area"] > 200].groupby("city").size()), RUN),
    (["stores.csv top 3 stores by sales, only the Online ones"],
     ranked(lambda r: stores(r)[stores(r)["channel"] == "Online"].nlargest(3, "sales"), "store"), False),
    (["staff.csv 按部门汇总月薪，只看成都的"], groups(lambda r: staff(r)[staff(r)["城市"] == "成都"].groupby("部门")["月薪"].sum()), RUN),
    (["stores.csv sort by sales descending, keep only the North region"],
     ranked(lambda r: stores(r)[stores(r)["region"] == "North"].sort_values("sales", ascending=False, kind="stable"), "store"), RUN),
    (["stores.csv mean area per channel, sales at least 3000"],
     groups(lambda r: stores(r)[stores(r)["sales"] >= 3000].groupby("channel")["area"].mean()), RUN),
    (["staff.csv 按城市统计人数，学历为硕士的"], counts(lambda r: staff(r)[staff(r)["学历"] == "硕士"].groupby("城市").size()), RUN),
    (["stores.csv the 5 largest stores by area, where sales is over 4000"],
     ranked(lambda r: stores(r)[stores(r)["sales"] > 4000].nlargest(5, "area"), "store"), RUN),
    (["staff.csv 按部门算平均月薪，然后按平均月薪降序排序"],
     ranked(lambda r: staff(r).groupby("部门", as_index=False)["月薪"].mean().sort_values("月薪", ascending=False), "部门"), False),
    (["staff.csv 先筛选城市为西安，再按学历统计人数"], counts(lambda r: staff(r)[staff(r)["城市"] == "西安"].groupby("学历").size()), RUN),
    (["stores.csv average sales per city, for stores with area under 300"],
     groups(lambda r: stores(r)[stores(r)["area"] < 300].groupby("city")["sales"].mean()), RUN),
    (["staff.csv 只保留姓名和月薪两列，月薪大于15000的"],
     rows(lambda r: staff(r)[staff(r)["月薪"] > 15000], "姓名"), RUN),
    (["staff.csv 月薪最低的3个人，不算月薪为0的"],
     ranked(lambda r: staff(r)[staff(r)["月薪"] != 0].nsmallest(3, "月薪"), "姓名"), RUN),
    (["stores.csv total sales per region, Retail only"], groups(lambda r: stores(r)[stores(r)["channel"] == "Retail"].groupby("region")["sales"].sum()), RUN),
    (["staff.csv 按部门算月薪总和，城市是重庆的"], groups(lambda r: staff(r)[staff(r)["城市"] == "重庆"].groupby("部门")["月薪"].sum()), RUN),
    (["staff.csv 月薪前10的员工里，成都的有哪些"], rows(lambda r: staff(r).nlargest(10, "月薪").query("城市 == '成都'"), "姓名"), RUN),
    (["stores.csv among the top 10 stores by sales, the Online ones"],
     rows(lambda r: stores(r).nlargest(10, "sales").query("channel == 'Online'"), "store"), False),
)


@pytest.mark.parametrize(("turns", "check", "must_run"), ORDER)
def test_order_of_operations(root: Path, turns: list[str], check: Check, must_run: bool) -> None:
    verdict(root, turns, check, must_run)


# ---- 3. references: 他们 / these / their / 在这个结果里 go on from the last result --------------------------------

def chengdu(r: Path) -> pd.DataFrame:
    return staff(r)[staff(r)["城市"] == "成都"]


REFERENCES = cases(
    (["staff.csv 成都的员工有哪些", "他们的平均月薪呢"], figure(lambda r: chengdu(r)["月薪"].mean()), RUN),
    (["stores.csv stores in Leeds", "what is their average sales"], figure(lambda r: stores(r)[stores(r)["city"] == "Leeds"]["sales"].mean()), RUN),
    (["staff.csv 筛选城市是成都", "他们里面月薪最高的3个"], ranked(lambda r: chengdu(r).nlargest(3, "月薪"), "姓名"), RUN),
    (["staff.csv 筛选部门为技术部", "在这个结果里按城市统计人数"], counts(lambda r: staff(r)[staff(r)["部门"] == "技术部"].groupby("城市").size()), RUN),
    (["stores.csv stores with sales over 6000", "then sort them by area"],
     ranked(lambda r: stores(r)[stores(r)["sales"] > 6000].sort_values("area", kind="stable"), "store"), RUN),
    (["staff.csv 学历为硕士的员工", "这些人按部门算平均月薪"], groups(lambda r: staff(r)[staff(r)["学历"] == "硕士"].groupby("部门")["月薪"].mean()), RUN),
    (["staff.csv 筛选月薪大于10000的", "把结果按月薪降序排列"],
     ranked(lambda r: staff(r)[staff(r)["月薪"] > 10000].sort_values("月薪", ascending=False, kind="stable"), "姓名"), RUN),
    (["stores.csv Online stores", "their total sales by city"], groups(lambda r: stores(r)[stores(r)["channel"] == "Online"].groupby("city")["sales"].sum()), RUN),
    (["staff.csv 财务部的员工", "他们中月薪最低的3个人"], ranked(lambda r: staff(r)[staff(r)["部门"] == "财务部"].nsmallest(3, "月薪"), "姓名"), RUN),
    (["stores.csv stores with area above 250", "among these, average sales per channel"],
     groups(lambda r: stores(r)[stores(r)["area"] > 250].groupby("channel")["sales"].mean()), RUN),
    (["staff.csv 入职日期在2022年以后的员工", "他们的平均月薪"],
     figure(lambda r: staff(r)[pd.to_datetime(staff(r)["入职日期"]) >= "2022-01-01"]["月薪"].mean()), False),
    (["stores.csv stores in Bath", "then keep only the store and sales columns"], columns(["store", "sales"]), RUN),
    (["staff.csv 西安的员工", "在刚才的结果里，学历为本科的"], rows(lambda r: staff(r)[(staff(r)["城市"] == "西安") & (staff(r)["学历"] == "本科")], "姓名"), RUN),
    (["stores.csv stores in the South region", "sort these by sales descending"],
     ranked(lambda r: stores(r)[stores(r)["region"] == "South"].sort_values("sales", ascending=False, kind="stable"), "store"), RUN),
    (["staff.csv 重庆的员工", "她们按学历统计人数"], counts(lambda r: staff(r)[staff(r)["城市"] == "重庆"].groupby("学历").size()), RUN),
    (["stores.csv average sales per region", "use the median instead"], groups(lambda r: stores(r).groupby("region")["sales"].median()), False),
)


@pytest.mark.parametrize(("turns", "check", "must_run"), REFERENCES)
def test_references_to_a_result(root: Path, turns: list[str], check: Check, must_run: bool) -> None:
    verdict(root, turns, check, must_run, between=True)


# ---- 4. sheets: a sheet named is the sheet read; a whole workbook is never silently one sheet ---------------------

def h2(r: Path) -> pd.DataFrame:
    return sheet(r, "下半年")


SHEETS = cases(
    (["销售.xlsx 下半年 各产品销售额合计"], groups(lambda r: h2(r).groupby("产品")["销售额"].sum()), RUN),
    (["销售.xlsx 的下半年表，按产品汇总销售额"], groups(lambda r: h2(r).groupby("产品")["销售额"].sum()), RUN),
    (["销售.xlsx 下半年表里销售额最高的3行"], ranked(lambda r: h2(r).nlargest(3, "销售额"), "销售额"), RUN),
    (["销售.xlsx 上半年表 产品为乙的销售额合计"], figure(lambda r: sheet(r, "上半年").query("产品 == '乙'")["销售额"].sum()), False),
    (["在 销售.xlsx 的下半年工作表里筛选产品为甲"], rows(lambda r: h2(r)[h2(r)["产品"] == "甲"], "月份"), RUN),
    (["regions.xlsx sheet South: total sales per city"], groups(lambda r: sheet(r, "South", "regions.xlsx").groupby("city")["sales"].sum()), RUN),
    (["regions.xlsx in the North sheet, stores with sales over 5000"],
     rows(lambda r: sheet(r, "North", "regions.xlsx").query("sales > 5000"), "store"), RUN),
    (["regions.xlsx North sheet top 3 stores by sales"], ranked(lambda r: sheet(r, "North", "regions.xlsx").nlargest(3, "sales"), "store"), RUN),
    (["销售.xlsx 把上半年和下半年合在一起，按产品汇总销售额"],
     groups(lambda r: pd.concat([sheet(r, "上半年"), h2(r)]).groupby("产品")["销售额"].sum()), RUN),
    (["regions.xlsx stack all sheets, then average sales per city"],
     groups(lambda r: pd.concat([sheet(r, "North", "regions.xlsx"), sheet(r, "South", "regions.xlsx")]).groupby("city")["sales"].mean()), RUN),
    (["regions.xlsx average sales per city across all sheets"],
     groups(lambda r: pd.concat([sheet(r, "North", "regions.xlsx"), sheet(r, "South", "regions.xlsx")]).groupby("city")["sales"].mean()), RUN),
    (["下半年表里各产品的销售额合计"], groups(lambda r: h2(r).groupby("产品")["销售额"].sum()), False),
    (["regions.xlsx South: number of Online stores per city"],
     counts(lambda r: sheet(r, "South", "regions.xlsx").query("channel == 'Online'").groupby("city").size()), RUN),
    (["销售.xlsx 下半年表的平均销售额"], figure(lambda r: h2(r)["销售额"].mean()), False),
    (["销售.xlsx 上半年表 按月份汇总销售额"], groups(lambda r: sheet(r, "上半年").groupby("月份")["销售额"].sum()), RUN),
    (["regions.xlsx the South sheet, sorted by sales descending"],
     ranked(lambda r: sheet(r, "South", "regions.xlsx").sort_values("sales", ascending=False, kind="stable"), "store"), RUN),
    (["销售.xlsx 下半年表 产品为丙的有几行"], figure(lambda r: float((h2(r)["产品"] == "丙").sum())), RUN),
    (["regions.xlsx South sheet: how many stores are Online"],
     figure(lambda r: float((sheet(r, "South", "regions.xlsx")["channel"] == "Online").sum())), RUN),
)


@pytest.mark.parametrize(("turns", "check", "must_run"), SHEETS)
def test_sheets(root: Path, turns: list[str], check: Check, must_run: bool) -> None:
    verdict(root, turns, check, must_run)


# ---- 5. corrections: the part named is replaced, the rest is kept ------------------------------------------------

CORRECTIONS = cases(
    (["staff.csv 筛选城市为成都", "不对，是重庆"], rows(lambda r: staff(r)[staff(r)["城市"] == "重庆"], "姓名"), RUN),
    (["stores.csv stores in Leeds", "no, York"], rows(lambda r: stores(r)[stores(r)["city"] == "York"], "store"), False),
    (["staff.csv 按部门算平均月薪", "改成按城市"], groups(lambda r: staff(r).groupby("城市")["月薪"].mean()), False),
    (["stores.csv average sales per region", "actually per channel"], groups(lambda r: stores(r).groupby("channel")["sales"].mean()), False),
    (["staff.csv 月薪大于10000的", "条件改成月薪大于15000"], rows(lambda r: staff(r)[staff(r)["月薪"] > 15000], "姓名"), RUN),
    (["stores.csv stores with sales over 5000", "make it over 7000"], rows(lambda r: stores(r)[stores(r)["sales"] > 7000], "store"), False),
    (["staff.csv 按部门统计平均月薪", "换成中位数"], groups(lambda r: staff(r).groupby("部门")["月薪"].median()), False),
    (["stores.csv total sales per city", "use the mean instead"], groups(lambda r: stores(r).groupby("city")["sales"].mean()), False),
    (["staff.csv 月薪最高的5个人", "改成前3个"], ranked(lambda r: staff(r).nlargest(3, "月薪"), "姓名"), False),
    (["stores.csv top 5 stores by sales", "top 3 instead"], ranked(lambda r: stores(r).nlargest(3, "sales"), "store"), False),
    (["staff.csv 筛选部门为财务部", "不是财务部，是技术部"], rows(lambda r: staff(r)[staff(r)["部门"] == "技术部"], "姓名"), RUN),
    (["stores.csv Online stores in Leeds", "not Leeds, Bath"],
     rows(lambda r: stores(r)[(stores(r)["channel"] == "Online") & (stores(r)["city"] == "Bath")], "store"), False),
    (["staff.csv 成都的硕士", "不对，是西安"], rows(lambda r: staff(r)[(staff(r)["城市"] == "西安") & (staff(r)["学历"] == "硕士")], "姓名"), RUN),
    (["销售.xlsx 上半年表 按产品汇总销售额", "不对，是下半年"], groups(lambda r: h2(r).groupby("产品")["销售额"].sum()), False),
    (["stores.csv sort by sales", "descending"], ranked(lambda r: stores(r).sort_values("sales", ascending=False, kind="stable"), "store"), False),
)


@pytest.mark.parametrize(("turns", "check", "must_run"), CORRECTIONS)
def test_corrections(root: Path, turns: list[str], check: Check, must_run: bool) -> None:
    verdict(root, turns, check, must_run)


# ---- 6. operation swaps: what was asked, never a different operation that happens to exist -----------------------

SWAPS = cases(
    (["staff.csv 把月薪列改名为工资"], columns(["姓名", "部门", "城市", "学历", "工资", "入职日期"]), RUN),
    (["stores.csv rename the column area to size"], columns(["store", "city", "region", "channel", "size", "sales"]), RUN),
    (["visits.csv count visits per customer"], counts(lambda r: visits(r).groupby("customer").size()), False),
    (["visits.csv 每个客户来了几次"], counts(lambda r: visits(r).groupby("customer").size()), False),
    (["stores.csv keep one row per region and channel"],
     rows(lambda r: stores(r).drop_duplicates(["region", "channel"]), "store"), False),
    (["staff.csv 每个部门保留一行"], rows(lambda r: staff(r).drop_duplicates(["部门"]), "姓名"), False),
    (["visits.csv number of rows per product"], counts(lambda r: visits(r).groupby("product").size()), False),
    (["staff.csv 每个城市有多少人"], counts(lambda r: staff(r).groupby("城市").size()), RUN),
    (["stores.csv how many stores per channel"], counts(lambda r: stores(r).groupby("channel").size()), RUN),
    (["visits.csv 每个客户的记录数"], counts(lambda r: visits(r).groupby("customer").size()), False),
    (["staff.csv 各部门人数"], counts(lambda r: staff(r).groupby("部门").size()), RUN),
    (["visits.csv remove duplicate customers, keep the first row of each"], rows(lambda r: visits(r).drop_duplicates(["customer"]), "phone"), False),
    (["visits.csv 按客户去重"], rows(lambda r: visits(r).drop_duplicates(["customer"]), "phone"), RUN),
    (["stores.csv change the column name sales to revenue"], columns(["store", "city", "region", "channel", "area", "revenue"]), False),
    (["staff.csv 把城市这一列的名字改成所在城市"], columns(["姓名", "部门", "所在城市", "学历", "月薪", "入职日期"]), False),
)


@pytest.mark.parametrize(("turns", "check", "must_run"), SWAPS)
def test_operation_swaps(root: Path, turns: list[str], check: Check, must_run: bool) -> None:
    verdict(root, turns, check, must_run)


# ---- 7. refinements: a follow-up word after a run adds or swaps a part of the query that ran, restated first --------

REFINEMENTS = cases(
    (["staff.csv 按城市算平均月薪", "那成都的呢"], groups(lambda r: chengdu(r).groupby("城市")["月薪"].mean()), RUN),
    (["staff.csv 月薪最高的5个人，不含成都的", "那把重庆的也去掉呢"],
     ranked(lambda r: staff(r)[~staff(r)["城市"].isin(["成都", "重庆"])].nlargest(5, "月薪"), "姓名"), RUN),
    (["staff.csv 按部门算平均月薪", "月薪为0的不算"], groups(lambda r: staff(r)[staff(r)["月薪"] != 0].groupby("部门")["月薪"].mean()), RUN),
    (["staff.csv 按学历统计人数", "还要去掉销售部和财务部"],
     counts(lambda r: staff(r)[~staff(r)["部门"].isin(["销售部", "财务部"])].groupby("学历").size()), RUN),
    (["stores.csv top 5 stores by sales", "now only for the Online channel"],
     ranked(lambda r: stores(r)[stores(r)["channel"] == "Online"].nlargest(5, "sales"), "store"), RUN),
    (["stores.csv count stores per region", "excluding those in York"],
     counts(lambda r: stores(r)[stores(r)["city"] != "York"].groupby("region").size()), RUN),
    (["staff.csv 筛选城市为成都", "只要姓名和月薪两列"], rows(lambda r: chengdu(r), "姓名"), RUN),
    (["staff.csv 筛选城市为成都", "去掉财务部的"], rows(lambda r: chengdu(r)[chengdu(r)["部门"] != "财务部"], "姓名"), RUN),
)


@pytest.mark.parametrize(("turns", "check", "must_run"), REFINEMENTS)
def test_refinements_of_what_just_ran(root: Path, turns: list[str], check: Check, must_run: bool) -> None:
    verdict(root, turns, check, must_run, between=True)


# ---- 8. count distinct and comparisons with no column -------------------------------------------------------------

OTHERS = cases(
    (["visits.csv number of distinct products per customer"], groups(lambda r: visits(r).groupby("customer")["product"].nunique(), "product_distinct"), RUN),
    (["visits.csv how many unique customers are there"], figure(lambda r: float(visits(r)["customer"].nunique())), RUN),
    (["staff.csv 每个城市有多少种学历"], groups(lambda r: staff(r).groupby("城市")["学历"].nunique(), "学历_不同值数"), RUN),
    (["stores.csv average sales per region, only stores over 5000"],
     groups(lambda r: stores(r)[stores(r)["sales"] > 5000].groupby("region")["sales"].mean()), False),
)


@pytest.mark.parametrize(("turns", "check", "must_run"), OTHERS)
def test_distinct_counts_and_bare_comparisons(root: Path, turns: list[str], check: Check, must_run: bool) -> None:
    verdict(root, turns, check, must_run)


def test_count_distinct_reads_the_same_out_of_core(tmp_path: Path) -> None:
    import duckdb

    from tools.outofcore import BigTable
    from tools.outofcore import group_summarize as big_group
    from tools.registry import call

    df = pd.DataFrame({"k": ["a", "a", "b", "b", "b"], "v": ["x", "y", "x", "x", None]})
    df.to_csv(tmp_path / "t.csv", index=False)
    t = BigTable(duckdb.connect(), f"SELECT * FROM read_csv_auto('{tmp_path / 't.csv'}')", {"k": "VARCHAR", "v": "VARCHAR"}, "t.csv")
    m = [{"column": "v", "agg": "distinct"}]
    small = call("group_summarize", {"table": df, "keys": ["k"], "measures": m}).data
    big = big_group(t, ["k"], m).data
    assert small["v_不同值数"].tolist() == big["v_不同值数"].tolist() == [2, 1]
