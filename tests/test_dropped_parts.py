"""Parts of a request that used to be dropped or misread: order words, a second bound on the same column, a
deletion written after its condition, a comparison with the whole table's average, the measure a chart is
named for, and talk that is not a request. Run for real on files generated here; every figure is recomputed
with pandas. A phrasing gives exactly that result (directly or after 继续), or it is a test failure."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from openpyxl import load_workbook
from test_analyst_requests import talk, written

from engine.batch import decide_one
from engine.session import TurnResult
from tools.workspace import Workspace

RNG = np.random.default_rng(2024)
N = 90
STAFF = pd.DataFrame({
    "工号": [f"E{i:03d}" for i in range(N)],
    "部门": RNG.choice(["研发部", "客服部", "采购部", "法务部"], N),
    "城市": RNG.choice(["成都", "武汉", "西安"], N).astype(object),
    "月薪": RNG.integers(6000, 40000, N).astype(float),
    "入职日期": pd.date_range("2012-01-05", periods=N, freq="45D").strftime("%Y-%m-%d"),
})
STAFF.loc[[3, 17], "城市"] = None
STAFF.loc[[8], "月薪"] = None
ORDERS = pd.DataFrame({
    "单号": [f"S{i:04d}" for i in range(N)],
    "片区": RNG.choice(["一区", "二区", "三区", "四区"], N),
    "品类": RNG.choice(["台灯", "插座", "风扇", "水壶"], N),
    "销售额": np.round(RNG.uniform(100, 20000, N), 2),
})
ORDERS.loc[[5, 40, 77], "销售额"] = None
ORDERS = pd.concat([ORDERS, ORDERS.iloc[[10, 11]]], ignore_index=True)  # two duplicated rows
SHOPS = pd.DataFrame({
    "Shop": [f"P{i:02d}" for i in range(40)],
    "Region": RNG.choice(["Coast", "Inland", "Hills", "Plains"], 40),
    "Tier": RNG.choice(["Gold", "Silver", "Bronze"], 40),
    "Sales": RNG.integers(1000, 90000, 40),
})


@pytest.fixture
def root(tmp_path: Path) -> Path:
    STAFF.to_excel(tmp_path / "职员表.xlsx", index=False)
    ORDERS.to_csv(tmp_path / "订单流水.csv", index=False)
    SHOPS.to_csv(tmp_path / "shops.csv", index=False)
    return tmp_path


def shown_rows(root: Path, tr: TurnResult) -> int:
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.next, tr.decision.reply)
    return len(tr.run.table) if tr.run.table is not None else len(written(root, tr))


# ---------------------------------------------------------------- order words on a summary


@pytest.mark.parametrize(("text", "key", "measure", "agg", "ascending"), [
    ("订单流水里按片区汇总销售额，高的在前", "片区", "销售额", "sum", False),
    ("订单流水 各品类销售额合计排名", "品类", "销售额", "sum", False),
    ("订单流水 各品类平均销售额从低到高排名", "品类", "销售额", "mean", True),
    ("订单流水 各片区平均销售额，少的排在前", "片区", "销售额", "mean", True),
    ("total Sales by Region in shops.csv, highest first", "Region", "Sales", "sum", False),
    ("shops.csv average Sales per Tier, lowest first", "Tier", "Sales", "mean", True),
    ("shops.csv: total Sales for each Region, high to low", "Region", "Sales", "sum", False),
])
def test_a_summary_follows_the_order_words(root, text, key, measure, agg, ascending):
    src = ORDERS if key in ORDERS.columns else SHOPS
    expect = getattr(src.groupby(key)[measure], agg)().sort_values(ascending=ascending)
    got = written(root, talk(root, text))
    value_col = next(c for c in got.columns if c.startswith(measure + "_"))
    assert got[key].tolist() == expect.index.tolist()
    assert np.allclose(got[value_col].to_numpy(float), expect.to_numpy(float), atol=0.01)


def test_a_key_is_never_averaged_as_a_measure(root):
    got = written(root, talk(root, "职员表 各部门平均月薪排名，并标出高于公司平均的部门"))
    assert "部门_平均" not in got.columns
    expect = STAFF.groupby("部门")["月薪"].mean().sort_values(ascending=False)
    assert got["部门"].tolist() == expect.index.tolist()


# ---------------------------------------------------------------- conditions


@pytest.mark.parametrize(("text", "mask"), [
    ("订单流水里销售额大于等于5000.5并且小于等于12000，品类不等于台灯，品类不等于插座",
     lambda d: (d["销售额"] >= 5000.5) & (d["销售额"] <= 12000) & ~d["品类"].isin(["台灯", "插座"])),
    ("订单流水 销售额大于3000且小于9000的订单",
     lambda d: (d["销售额"] > 3000) & (d["销售额"] < 9000)),
    ("订单流水 销售额超过2000，但不超过8000",
     lambda d: (d["销售额"] > 2000) & (d["销售额"] <= 8000)),
    ("订单流水里销售额在 5,000.50 到 12,000 之间，且品类不是台灯也不是插座的订单有多少",
     lambda d: d["销售额"].between(5000.5, 12000) & ~d["品类"].isin(["台灯", "插座"])),
    ("shops.csv rows where Sales at least 20000 and at most 60000",
     lambda d: (d["Sales"] >= 20000) & (d["Sales"] <= 60000)),
    ("shops.csv Sales greater than 15000 and less than 50000",
     lambda d: (d["Sales"] > 15000) & (d["Sales"] < 50000)),
])
def test_every_bound_on_a_column_is_kept(root, text, mask):
    src = SHOPS if "shops" in text else ORDERS
    assert shown_rows(root, talk(root, text)) == int(mask(src).sum())


@pytest.mark.parametrize("text", [
    "订单流水 删除销售额为空的行",
    "订单流水：把销售额为空的行去掉",
    "订单流水里销售额为空的删掉",
    "订单流水 remove rows where 销售额 is empty",
])
def test_blank_rows_named_for_deletion_are_deleted(root, text):
    got = written(root, talk(root, text))
    assert len(got) == int(ORDERS["销售额"].notna().sum())
    assert got["销售额"].notna().all()


def test_a_cleaning_list_keeps_its_deletion(root):
    tr = talk(root, "先清洗一下订单流水：去掉首尾空格、删除重复行、销售额为空的删掉")
    got = written(root, tr)
    expect = ORDERS.drop_duplicates()
    expect = expect[expect["销售额"].notna()]
    assert len(got) == len(expect)
    assert "没理解" not in tr.decision.reply


# ---------------------------------------------------------------- the whole table's average


@pytest.mark.parametrize("text", [
    "职员表 月薪高于全公司平均水平的员工有哪些",
    "职员表里月薪高于公司平均的人",
    "职员表 月薪超过整体均值的员工",
])
def test_above_the_company_average_is_a_filter_on_the_mean(root, text):
    mean = STAFF["月薪"].mean()
    assert shown_rows(root, talk(root, text)) == int((STAFF["月薪"] > mean).sum())


def test_below_the_overall_average_in_english(root):
    mean = SHOPS["Sales"].mean()
    assert shown_rows(root, talk(root, "shops.csv shops whose Sales are below the overall average")) == int((SHOPS["Sales"] < mean).sum())


@pytest.mark.parametrize(("text", "key", "measure", "src"), [
    ("职员表 各部门平均月薪，并标出高于公司平均的部门", "部门", "月薪", STAFF),
    ("职员表 各城市的平均月薪，以及高于整体均值多少", "城市", "月薪", STAFF),
    ("订单流水 各片区平均销售额与总体平均比较", "片区", "销售额", ORDERS),
    ("shops.csv: what's the average Sales per Region, and how does each compare to the overall average?", "Region", "Sales", SHOPS),
    ("shops.csv average Sales per Tier compared with the overall mean", "Tier", "Sales", SHOPS),
])
def test_each_group_is_set_beside_the_overall_average(root, text, key, measure, src):
    got = written(root, talk(root, text))
    means = src.groupby(key)[measure].mean()
    overall = src[measure].mean()
    diff_col = next(c for c in got.columns if c.endswith(("与整体平均之差", "vs_overall_mean")))
    flag_col = next(c for c in got.columns if c.endswith(("高于整体平均", "above_overall_mean")))
    got = got.dropna(subset=[key]).set_index(key)
    assert np.allclose(got.loc[means.index, diff_col].to_numpy(float), (means - overall).round(2).to_numpy(float), atol=0.011)
    above = {k for k, v in means.items() if v > overall}
    assert {k for k, v in got[flag_col].items() if v in ("是", "yes")} == above


# ---------------------------------------------------------------- charts


@pytest.mark.parametrize("text", [
    "职员表 每个城市的员工人数和平均月薪，画个饼图看人数分布",
    "职员表 各城市平均月薪和人数，再画饼图看各城市人数",
])
def test_a_chart_shows_the_measure_named_for_it_and_blanks_by_name(root, text):
    tr = talk(root, text)
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    path = next(root / f["path"] for f in tr.run.files if f["path"].endswith(".xlsx"))
    sheet = load_workbook(path)["数据"]
    rows = {r[0]: r[1] for r in sheet.iter_rows(min_row=2, values_only=True)}
    expect = STAFF.groupby("城市", dropna=False).size()
    assert rows == {("（空白）" if pd.isna(k) else k): int(v) for k, v in expect.items()}


def test_a_chart_named_for_an_average_shows_the_average(root):
    tr = talk(root, "职员表 每个城市的人数和平均月薪，画个柱状图看平均月薪")
    path = next(root / f["path"] for f in tr.run.files if f["path"].endswith(".xlsx"))  # type: ignore[union-attr]
    rows = {r[0]: r[1] for r in load_workbook(path)["数据"].iter_rows(min_row=2, values_only=True)}
    expect = STAFF.groupby("城市")["月薪"].mean()
    assert all(abs(rows[k] - v) < 0.01 for k, v in expect.items())


# ---------------------------------------------------------------- talk


@pytest.mark.parametrize(("text", "kind_word"), [
    ("今天好累，表格太多了", "辛苦"),
    ("好累啊", "辛苦"),
    ("bye", "Bye"),
    ("再见", "再见"),
    ("ok, goodbye", "Bye"),
    ("帮我把职员表发邮件给王经理", "不能发邮件"),
    ("把订单流水打印出来", "不能发邮件"),
    ("email the shops file to my boss", "cannot send email"),
])
def test_talk_gets_a_reply_of_its_kind_and_runs_nothing(root, text, kind_word):
    d = decide_one(Workspace.at(root), text)
    assert d["gate"] == "chat" and d["next"] == "reply"
    assert kind_word in d["reply"]
    assert not (root / "outputs").exists()


# ---------------------------------------------------------------- a ranking of a change between two periods


GDP = pd.DataFrame({"地区": ["甲", "乙", "丙", "丁", "戊", "己"],
                    "2021年": RNG.integers(1000, 9000, 6).astype(float),
                    "2022年": RNG.integers(1000, 9000, 6).astype(float),
                    "2023年": RNG.integers(1000, 9000, 6).astype(float)})


@pytest.fixture
def wide(tmp_path: Path) -> Path:
    GDP.to_excel(tmp_path / "地区产值.xlsx", index=False)
    return tmp_path


@pytest.mark.parametrize(("text", "first", "last", "n", "lowest"), [
    ("地区产值 2023年比2022年增长最快的前3个地区", "2022年", "2023年", 3, False),
    ("地区产值 2022年到2023年增长最慢的2个地区", "2022年", "2023年", 2, True),
    ("地区产值 2021年和2022年对比，按增长率排名", "2021年", "2022年", None, False),
    ("地区产值 2022年比2021年增长最多的前2个", "2021年", "2022年", 2, False),
])
def test_a_change_between_two_periods_is_ranked_and_cut(wide, text, first, last, n, lowest):
    rate = ((GDP[last] - GDP[first]) / GDP[first].abs() * 100).round(2)
    order = GDP.assign(r=rate).sort_values("r", ascending=lowest)
    expect = order["地区"].tolist()[: n or len(GDP)]
    got = written(wide, talk(wide, text))
    assert got["地区"].tolist() == expect
    assert np.allclose(got["增长率(%)"].to_numpy(float), order["r"].to_numpy(float)[: len(expect)])


# ---------------------------------------------------------------- statistics asked for, never a bare preview


@pytest.mark.parametrize(("text", "qs"), [
    ("职员表的月薪分位数，25%、50%、75%、90%", (25, 50, 75, 90)),
    ("职员表 月薪的百分位数：10、50、90", (10, 50, 90)),
    ("shops.csv Sales percentiles 20, 40 and 80", (20, 40, 80)),
])
def test_percentiles_listed_after_the_word_are_each_answered(root, text, qs):
    tr = talk(root, text)
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    col = SHOPS["Sales"] if "shops" in text else STAFF["月薪"]
    from tools.fmt import num

    for q in qs:
        assert num(float(col.quantile(q / 100)), "en" if "shops" in text else "zh") in tr.run.answer


def _years_ago(n: int) -> pd.Timestamp:
    from datetime import date

    t = date.today()
    return pd.Timestamp(t.replace(year=t.year - n) if (t.month, t.day) != (2, 29) else date(t.year - n, 2, 28))


@pytest.mark.parametrize(("text", "n", "longer"), [
    ("职员表 入职满5年的员工有多少人", 5, True),
    ("职员表 工龄超过8年的员工有几个", 8, True),
    ("职员表 入职不到6年的员工有多少", 6, False),
    ("职员表 employees hired more than 7 years ago", 7, True),
    ("职员表 staff with at least 10 years of service", 10, True),
])
def test_a_tenure_is_a_date_threshold_from_today(root, text, n, longer):
    hired = pd.to_datetime(STAFF["入职日期"])
    cut = _years_ago(n)
    expect = int((hired <= cut).sum()) if longer else int((hired > cut).sum())
    tr = talk(root, text)
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    if tr.run.table is not None and "有" in text:
        assert f"{expect}" in tr.run.answer
    else:
        assert shown_rows(root, tr) == expect


@pytest.mark.parametrize("text", [
    "职员表 来了满5年的员工有多少人",
    "职员表 月薪处在中位数附近的员工有多少人",
    "职员表 跳槽3次以上的人有哪些",
])
def test_a_question_with_figures_no_rule_read_is_restated_never_a_bare_preview(root, text):
    s = __import__("engine.session", fromlist=["Session"]).Session(Workspace.at(root))
    tr = s.turn(text)
    assert tr.run is None
    assert tr.decision.next in ("restate_confirm", "ask_slots", "ask_intent")
    # the words not read are named: as not understood, or as the column asked for (跳槽3次以上: no column 跳槽)
    assert "没理解" in tr.decision.reply or ("没有“" in tr.decision.reply and "这一列" in tr.decision.reply)


def test_a_test_between_values_reads_the_file_that_holds_them(root):
    d = decide_one(Workspace.at(root), "做个t检验：研发部和采购部的月薪有没有显著差异")
    assert d["slots"]["file"] == "职员表.xlsx"


@pytest.mark.parametrize("second", [
    "订单流水里销售额在 2,000 到 9,000.5 之间，且品类不是台灯也不是插座的订单有多少",
    "订单流水 片区不是一区也不是二区的订单",
])
def test_a_negation_chain_after_a_run_is_a_new_request_not_a_correction(root, second):
    s = __import__("engine.session", fromlist=["Session"]).Session(Workspace.at(root))
    first = s.turn("订单流水里销售额大于等于5000并且小于等于12000，品类不等于风扇")
    assert first.run is not None and first.run.status == "answered"
    tr = s.turn(second)
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    if "片区" in second:
        expect = int((~ORDERS["片区"].isin(["一区", "二区"])).sum())
    else:
        expect = int((ORDERS["销售额"].between(2000, 9000.5) & ~ORDERS["品类"].isin(["台灯", "插座"])).sum())
    assert shown_rows(root, tr) == expect


def test_the_overall_comparison_is_the_same_on_the_out_of_core_engine(root, monkeypatch):
    monkeypatch.setenv("WENQING_ENGINE", "duckdb")  # every CSV through DuckDB
    tr = talk(root, "订单流水 各品类平均销售额，并标出高于整体平均的品类")
    assert tr.run is not None and tr.run.steps[0].evidence.get("engine") == "duckdb"
    got = written(root, tr).set_index("品类")
    means, overall = ORDERS.groupby("品类")["销售额"].mean(), ORDERS["销售额"].mean()
    assert np.allclose(got.loc[means.index, "销售额_平均_与整体平均之差"].to_numpy(float), (means - overall).round(2).to_numpy(float), atol=0.011)
    assert set(got.index[got["销售额_平均_高于整体平均"] == "是"]) == set(means.index[means > overall])


@pytest.mark.parametrize(("text", "keep"), [
    ("职员表.xlsx，按部门分组比较月薪，只比研发部和采购部", ["研发部", "采购部"]),
    ("职员表 比较各部门的平均月薪", None),
    ("职员表 按部门比较月薪", None),
])
def test_groups_of_one_table_compared_are_their_means_side_by_side(root, text, keep):
    got = written(root, talk(root, text)).set_index("部门")
    means = STAFF.groupby("部门")["月薪"].mean()
    means = means[means.index.isin(keep)] if keep else means
    assert sorted(got.index) == sorted(means.index)
    assert np.allclose(got.loc[means.index, "月薪_平均"].to_numpy(float), means.to_numpy(float), atol=0.01)


def test_groups_compared_in_english(root):
    got = written(root, talk(root, "shops.csv compare average Sales by Tier")).set_index("Tier")
    means = SHOPS.groupby("Tier")["Sales"].mean()
    assert np.allclose(got.loc[means.index, "Sales_mean"].to_numpy(float), means.to_numpy(float), atol=0.01)
