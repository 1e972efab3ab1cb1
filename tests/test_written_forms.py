"""Names as people write them: a value the data holds whole (静安店) is never cut to a shorter word, a list after a
comma goes on only with values the data holds, and a summary's own column (金额_合计) is found when written
without its underscore (金额合计). Results are recomputed with pandas on data generated here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_letter_case import talk as confirmed

from engine.session import Session, TurnResult
from tools.workspace import Workspace


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("forms")
    rng = np.random.default_rng(3)
    n = 120
    pd.DataFrame({
        "单号": [f"P{i:04d}" for i in range(n)],
        "门店": rng.choice(["静安店", "徐汇店", "浦东店"], n),
        "店员": rng.choice(["周一", "吴二", "郑三"], n),
        "金额": rng.integers(50, 3000, n),
        "是否退货": rng.choice(["是", "否"], n, p=[0.2, 0.8]),
    }).to_csv(root / "流水.csv", index=False)
    return root


def data(root: Path) -> pd.DataFrame:
    return pd.read_csv(root / "流水.csv")


def last_table(root: Path, tr: TurnResult) -> pd.DataFrame:
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.next, tr.decision.reply)
    path = next(f["path"] for f in tr.run.files if f["path"].endswith(".csv"))
    return pd.read_csv(root / path)


@pytest.mark.parametrize("text,want", [
    ("筛选流水.csv 门店是静安店，去掉退货的", lambda d: d[(d["门店"] == "静安店") & (d["是否退货"] != "是")]),
    ("流水.csv 里门店为徐汇店，金额大于1000", lambda d: d[(d["门店"] == "徐汇店") & (d["金额"] > 1000)]),
    ("筛选流水.csv 门店是浦东店或静安店的", lambda d: d[d["门店"].isin(["浦东店", "静安店"])]),
    ("filter 流水.csv where 门店 is 静安店, 金额 at least 2000", lambda d: d[(d["门店"] == "静安店") & (d["金额"] >= 2000)]),
])
def test_a_value_the_data_holds_whole_is_kept_whole(root, text, want):
    got = last_table(root, confirmed(root, text))
    assert sorted(got["单号"]) == sorted(want(data(root))["单号"])


@pytest.mark.parametrize("follow,want", [
    ("在这个结果里筛选金额合计大于60000的行", lambda g: sorted(g[g > 60000].index)),
    ("在这个结果里只保留金额合计不到59000的", lambda g: sorted(g[g < 59000].index)),
    ("then keep the rows where 金额合计 is over 58500", lambda g: sorted(g[g > 58500].index)),
])
def test_a_summary_column_written_without_its_underscore_is_that_column(root, follow, want):
    got = last_table(root, confirmed(root, "流水.csv 按店员汇总金额", follow))
    totals = data(root).groupby("店员")["金额"].sum()
    assert sorted(got["店员"]) == want(totals)


@pytest.mark.parametrize("text", [
    "筛选流水.csv 门店是静安店或金额大于2900，是否退货为否",
    "流水.csv 里店员是周一或者金额不到100，并且门店是徐汇店",
    "filter 流水.csv where 门店 is 浦东店 or 金额 is over 2500, and 是否退货 is 否",
])
def test_or_and_and_together_are_said_before_anything_runs(root, text):
    tr = Session(Workspace.at(root)).turn(text)
    assert tr.run is None and tr.decision.next == "restate_confirm", tr.decision.reply
    assert "两步" in tr.decision.reply or "two steps" in tr.decision.reply


@pytest.mark.parametrize("text", ["筛选流水.csv 门店是静安店或金额大于2900", "filter 流水.csv where 门店 is 静安店 or 金额 > 2900"])
def test_or_alone_joins_every_condition(root, text):
    d = data(root)
    assert sorted(last_table(root, confirmed(root, text))["单号"]) == sorted(d[(d["门店"] == "静安店") | (d["金额"] > 2900)]["单号"])


@pytest.mark.parametrize("follow,want", [
    ("在这个结果里只保留平均金额超过1400的", lambda g: sorted(g[g > 1400].index)),
    ("在这个结果里筛选平均金额不到1500的行", lambda g: sorted(g[g < 1500].index)),
])
def test_a_summary_column_said_in_the_other_order_is_that_column(root, follow, want):
    tr = confirmed(root, "流水.csv 按店员汇总平均金额", follow)
    means = data(root).groupby("店员")["金额"].mean()
    assert sorted(last_table(root, tr)["店员"]) == want(means)


@pytest.mark.parametrize("then", ["导出", "导出成xlsx", "把它导出", "export it as csv", "再导出一份excel"])
def test_an_export_that_names_nothing_else_exports_what_was_just_made(root, then):
    s = Session(Workspace.at(root))
    s.turn("筛选流水.csv 门店是徐汇店")
    s.turn("导出成xlsx")  # a result workbook with its 说明 sheet: its words (导出) are never values
    tr = s.turn(then)
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.next, tr.decision.reply)
    path = root / next(f["path"] for f in tr.run.files)
    got = pd.read_csv(path) if path.suffix == ".csv" else pd.read_excel(path, engine="openpyxl")
    d = data(root)
    assert sorted(got["单号"]) == sorted(d[d["门店"] == "徐汇店"]["单号"])


@pytest.mark.parametrize("text", [
    "流水.csv 门店是静安店或徐汇店（低于500的）",
    "流水.csv 店员是周一，不到300",
    "filter 流水.csv where 门店 is 浦东店, below 200",
])
def test_a_comparison_with_no_column_beside_other_conditions_is_asked_about(root, text):
    tr = Session(Workspace.at(root)).turn(text)
    assert tr.run is None and tr.decision.next in ("ask_slots", "restate_confirm"), (tr.decision.next, tr.decision.reply)
    assert "金额" in tr.decision.reply  # the numeric column it may mean is offered


@pytest.mark.parametrize("text", ["营收.csv 1月到6月每列的合计", "营收.csv 1月到6月各月的合计", "营收.csv total of each month from 1月 to 6月"])
def test_a_total_per_column_of_a_wide_table_is_never_a_total_per_row(tmp_path, text):
    df = pd.DataFrame({"门店": ["甲店", "乙店", "丙店"], **{f"{m}月": [m * 10, m * 20, m * 30] for m in range(1, 7)}})
    df.to_csv(tmp_path / "营收.csv", index=False)
    tr = confirmed(tmp_path, text)
    if tr.run is None:
        assert tr.decision.next in ("ask_slots", "ask_intent", "restate_confirm", "plan_confirm")
        return
    answer = tr.run.answer or ""
    assert all(str(v) in answer.replace(",", "") for v in df[[f"{m}月" for m in range(1, 7)]].sum()), answer
