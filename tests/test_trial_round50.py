"""Found by the round-50 trials (flower shops in Chinese, EV charging in English), each recomputed with pandas on data
of its own: a follow-up said with 的呢 alone or "and on …"; an exclusion redone while a follow-up waits; a column of
another table brought onto a summary by its name alone; a join said after a summary whose columns its own verb carries;
姓名 never a surname; which sheet (哪个区 / which sheet) ranks every sheet; by sheet with no file named; an order said
after rows were kept and exported; 不为空的按… as a condition; an order said by a statistic's word; a cut of a summary of
one figure; words only the result just shown reads; a key pair said with 对 or =; a figure per unit of another column
(revenue per kWh); a figure followed by a word of a column (over 40 kWh); a column said by one of its words; a flag's
plural after did and non-…; the latest row per key in English; the one bound said again (lower it to N); a pivot with
the sheet noun as columns; a formula right after a join; 各 of the groups with the sheets together; minutes is no
minimum; people counted by the column of their ids; by another key too; how many and how much in one question."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame
from test_trial_round40 import _workspace
from test_trial_round46 import _said

from engine.session import Session
from tools.workspace import Workspace

GARAGES = ["北区", "南区"]


def _garage(k: int) -> pd.DataFrame:
    n = 48
    return pd.DataFrame({
        "单号": [f"W{k}{i:03d}" for i in range(n)],
        "日期": pd.to_datetime([f"2025-03-{(i * 3 + k) % 28 + 1:02d}" for i in range(n)]),
        "技师工号": [f"T{(i * 5 + k) % 6 + 1:02d}" if i % 11 != 4 else None for i in range(n)],
        "项目": [["保养", "换胎", "钣金", "喷漆"][(i + k) % 4] for i in range(n)],
        "付款方式": [["现金", "刷卡", "保险"][(i * 7 + k) % 3] for i in range(n)],
        "金额": [300 + ((i * 37 + k * 11) % 25) * 40 for i in range(n)],
        "工时": [1 + (i * 3 + k) % 6 for i in range(n)],
    })


SHEETS = {name: _garage(k) for k, name in enumerate(GARAGES)}
TECHS = pd.DataFrame({"技师工号": [f"T{i:02d}" for i in range(1, 9)], "技师姓名": ["周亮", "吴芳", "郑凯", "孙悦", "钱进", "冯涛", "陈晨", "褚明"],
                      "级别": ["高级", "中级", "初级", "高级", "中级", "初级", "中级", "高级"]})


@pytest.fixture(params=["pandas", "duckdb"])
def garages(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "维修单.xlsx", SHEETS, {"技师.csv": TECHS})


def _sums(f: pd.DataFrame, key: str, figure: str) -> dict:
    return {("" if pd.isna(k) or str(k) in ("（空白）", "(blank)") else str(k)): float(v) for k, v in zip(f[key], f[figure], strict=True)}


def _want(df: pd.DataFrame, key: str, figure: str) -> dict:
    return {("" if pd.isna(k) else str(k)): float(v) for k, v in df.groupby(key, dropna=False)[figure].sum().items()}


# ---- a follow-up said with 的呢 alone, or "and on …" ------------------------------------------------------------------

def test_a_follow_up_said_with_de_ne_alone_narrows_what_ran(garages):
    s = Session(garages)
    answered(s, "北区按项目算金额合计")
    tr = s.turn("工作日的呢")
    assert tr.decision.gate == "act", tr.decision.reply  # never small talk
    if tr.run is None:
        tr = s.turn("继续")
    df = SHEETS["北区"]
    want = _want(df[df["日期"].dt.day_of_week < 5], "项目", "金额")
    assert _sums(result_frame(tr), "项目", "金额_合计") == want


def test_and_on_weekdays_after_a_summary_narrows_it(tmp_path, monkeypatch):
    from test_trial_round48 import SHEETS as DEPOT_SHEETS

    ws = _workspace(tmp_path, monkeypatch, "pandas", "parcels.xlsx", DEPOT_SHEETS)
    s = Session(ws)
    answered(s, "total fee_paid by Service for Kingsway")
    tr = s.turn("and on weekdays?")
    assert tr.decision.gate == "act", tr.decision.reply
    if tr.run is None:
        tr = s.turn("go")
    df = DEPOT_SHEETS["Kingsway"]
    want = _want(df[df["Shipped"].dt.day_of_week < 5], "Service", "fee_paid")
    assert _sums(result_frame(tr), "Service", "fee_paid_sum") == want


def test_an_exclusion_redone_while_a_follow_up_waits_keeps_the_whole_request(garages):
    s = Session(garages)
    answered(s, "北区按项目算金额合计")
    first = s.turn("工作日的呢")
    assert first.run is None  # (restated: it waits)
    tr = s.turn("保险的不算，再做一次")
    said = _said(tr)
    assert "项目" in said and "保险" in said and "周一" in said, said  # the summary, the weekdays and the exclusion
    if tr.run is None:
        tr = s.turn("继续")
    df = SHEETS["北区"]
    rows = df[(df["日期"].dt.day_of_week < 5) & (df["付款方式"] != "保险")]
    assert _sums(result_frame(tr), "项目", "金额_合计") == _want(rows, "项目", "金额")


# ---- a column of another table brought onto a summary ---------------------------------------------------------------

@pytest.mark.parametrize("said", ["带上技师姓名", "把技师姓名也带上", "加上技师姓名和级别"])
def test_a_column_of_another_table_named_alone_is_brought_onto_the_summary(garages, said):
    s = Session(garages)
    answered(s, "南区按技师工号汇总金额")
    tr = answered(s, said)
    f = result_frame(tr)
    names = dict(zip(TECHS["技师工号"], TECHS["技师姓名"], strict=True))
    assert "技师姓名" in f.columns, list(f.columns)
    for k, name in zip(f["技师工号"], f["技师姓名"], strict=True):
        if isinstance(k, str) and k in names:
            assert name == names[k]
    assert ("级别" in f.columns) == ("级别" in said)
    assert len(f) == SHEETS["南区"]["技师工号"].nunique(dropna=False)  # the summary's groups, one row each


def test_a_column_of_the_source_is_not_looked_up_elsewhere(garages):
    s = Session(garages)
    answered(s, "南区按技师工号汇总金额")
    tr = s.turn("带上工时")
    assert "技师.csv" not in _said(tr)  # 工时 is the workbook's own column: never a lookup in another table


# ---- a join said after a summary, its columns carried by their own verb ---------------------------------------------

@pytest.mark.parametrize("said", ["北区按技师工号汇总金额，再关联技师.csv，带上技师姓名",
                                  "北区按技师工号汇总金额，关联技师.csv带上技师姓名",
                                  "北区按技师工号汇总金额，再关联技师.csv，把技师姓名带过来"])
def test_a_summary_then_a_join_that_brings_a_name_keeps_the_summary(garages, said):
    tr = answered(Session(garages), said)
    f = result_frame(tr)
    assert "金额_合计" in f.columns and "技师姓名" in f.columns, list(f.columns)  # never the join alone
    df = SHEETS["北区"]
    assert _sums(f, "技师工号", "金额_合计") == _want(df, "技师工号", "金额")


def test_a_join_with_its_verb_after_a_comma_leaves_no_word_unread(garages):
    s = Session(garages)
    first = s.turn("北区关联技师.csv，带上技师姓名")
    assert "没理解" not in first.decision.reply, first.decision.reply
    tr = first if first.run is not None else s.turn("继续")
    f = result_frame(tr)
    assert len(f) == len(SHEETS["北区"]) and "技师姓名" in f.columns and "级别" not in f.columns, list(f.columns)


# ---- 姓名 is never a surname -------------------------------------------------------------------------------------------

def test_xingming_is_a_column_word_never_a_surname(garages):
    tr = Session(garages).turn("北区关联技师.csv，带上技师姓名")
    said = _said(tr)
    assert "开头" not in said and "starts" not in said, said


# ---- which sheet: 哪个区 / 哪个工作表 / which sheet, with no sheet named ---------------------------------------------------

def _sheet_totals(sheets: dict, figure: str) -> dict:
    return {name: float(df[figure].sum()) for name, df in sheets.items()}


@pytest.mark.parametrize("said", ["哪个区金额最多", "哪个工作表的金额合计最高", "哪个区的金额合计最高"])
def test_which_sheet_noun_ranks_every_sheet(garages, said):
    s = Session(garages)
    tr = answered(s, said)
    f = result_frame(tr)
    totals = _sheet_totals(SHEETS, "金额")
    best = max(totals, key=totals.__getitem__)
    assert len(f) == 1 and str(f.iloc[0]["工作表"]) == best, f
    assert float(f.iloc[0]["金额_合计"]) == totals[best]


def test_which_sheet_in_english_ranks_every_sheet(tmp_path, monkeypatch):
    from test_trial_round48 import SHEETS as DEPOT_SHEETS

    ws = _workspace(tmp_path, monkeypatch, "pandas", "parcels.xlsx", DEPOT_SHEETS)
    f = result_frame(answered(Session(ws), "which sheet had the most fee_paid"))
    totals = _sheet_totals(DEPOT_SHEETS, "fee_paid")
    best = max(totals, key=totals.__getitem__)
    assert len(f) == 1 and str(f.iloc[0]["sheet"]) == best, f


def test_a_sheet_named_keeps_its_own_reading(garages):
    tr = answered(Session(garages), "北区哪个项目金额最多")
    f = result_frame(tr)
    df = SHEETS["北区"]
    totals = df.groupby("项目")["金额"].sum()
    assert list(f["项目"]) == [totals.idxmax()]  # within 北区, never every sheet


def test_by_sheet_with_no_file_named_is_every_sheet(garages):
    s = Session(garages)
    tr = s.turn("按工作表汇总一下金额")
    assert tr.decision.missing != ("sheet",), tr.decision.reply  # never "which sheet?"
    f = result_frame(answered(s, "按工作表汇总一下金额"))
    assert _sums(f, "工作表", "金额_合计") == _sheet_totals(SHEETS, "金额")


# ---- an order said after rows were kept and exported ------------------------------------------------------------------

def test_an_order_after_a_filtered_export_orders_those_rows(garages):
    s = Session(garages)
    first = answered(s, "把南区付款方式不是保险的单子导出成excel")
    assert first.run.files and first.run.files[0]["path"].endswith(".xlsx")
    tr = s.turn("按金额从大到小排一下再导出")
    assert "保险" in _said(tr), _said(tr)  # the rows kept stay kept
    if tr.run is None:
        tr = s.turn("继续")
    df = SHEETS["南区"]
    want = df[df["付款方式"] != "保险"].sort_values("金额", ascending=False, kind="stable")
    f = result_frame(tr)
    assert len(f) == len(want) and list(f["金额"]) == list(want["金额"])
    assert tr.run.files and tr.run.files[0]["path"].endswith(".xlsx")  # the format said before


# ---- 不为空的按…: a condition, never blanks filled with the words after it ---------------------------------------------

def test_not_blank_then_by_is_a_condition_and_a_count_per_key(garages):
    tr = answered(Session(garages), "北区技师工号不为空的按技师工号数一下单数，从多到少")
    assert "填" not in _said(tr), _said(tr)
    f = result_frame(tr)
    df = SHEETS["北区"]
    want = df[df["技师工号"].notna()]["技师工号"].value_counts()
    rows = next(c for c in f.columns if c in ("行数", "rows"))
    assert list(f[rows]) == sorted(want.tolist(), reverse=True) and set(f["技师工号"]) == set(want.index)


# ---- an order said by a statistic's word, after a summary of two figures of one column ---------------------------------

@pytest.mark.parametrize(("said", "by"), [("每个区的金额合计和平均值，按合计从高到低", "金额_合计"),
                                          ("北区按项目汇总金额的合计和平均值，按平均从高到低排", "金额_平均")])
def test_an_order_by_a_statistic_word_is_that_figure(garages, said, by):
    f = result_frame(answered(Session(garages), said))
    assert list(f[by]) == sorted(f[by], reverse=True), f
    assert len(f) in (2, 4)


# ---- a cut asked of a summary that has one figure -------------------------------------------------------------------------

def test_top_n_on_a_summary_of_one_figure_is_by_that_figure(garages):
    s = Session(garages)
    answered(s, "南区按项目数一下单数")
    f = result_frame(answered(s, "从高到低排，只要前2"))
    counts = SHEETS["南区"]["项目"].value_counts()
    rows = next(c for c in f.columns if c in ("行数", "rows"))
    assert list(f[rows]) == sorted(counts.tolist(), reverse=True)[:2]


# ---- words only the result table reads, right after it was shown ---------------------------------------------------------

def test_words_only_the_result_reads_are_restated_on_it(garages):
    s = Session(garages)
    answered(s, "南区按技师工号算金额平均值")
    tr = s.turn("技师工号空的不算，按平均从高到低")
    assert tr.decision.next == "restate_confirm" and "outputs/" in _said(tr), _said(tr)  # the result is the table said
    f = result_frame(s.turn("继续"))
    df = SHEETS["南区"]
    want = df[df["技师工号"].notna()].groupby("技师工号")["金额"].mean().sort_values(ascending=False)
    assert list(f["技师工号"]) == list(want.index)


# ---- a key pair said with 对 or =, in a join of the result just shown --------------------------------------------------

MASTERS = TECHS.rename(columns={"技师工号": "工号", "技师姓名": "姓名"})


@pytest.fixture(params=["pandas", "duckdb"])
def garages_masters(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "维修单.xlsx", SHEETS, {"师傅.csv": MASTERS})


@pytest.mark.parametrize("said", ["把上一步结果跟师傅.csv关联，技师工号对工号，带上姓名和级别",
                                  "再关联师傅.csv，技师工号=工号，带上姓名和级别"])
def test_a_key_pair_said_joins_the_result_just_shown(garages_masters, said):
    s = Session(garages_masters)
    answered(s, "北区按技师工号数一下有几单")
    f = result_frame(answered(s, said))
    counts = SHEETS["北区"]["技师工号"].value_counts(dropna=False)
    assert len(f) == len(counts) and {"姓名", "级别"} <= set(f.columns) and "入职年份" not in f.columns, list(f.columns)
    names = dict(zip(MASTERS["工号"], MASTERS["姓名"], strict=True))
    for k, name in zip(f["技师工号"], f["姓名"], strict=True):
        if isinstance(k, str):
            assert name == names[k]


def test_a_formula_with_equals_is_still_no_lookup(garages_masters):
    tr = Session(garages_masters).turn("北区加一列 单价=金额/工时")
    assert "师傅.csv" not in _said(tr), _said(tr)


# ---- English names of several words, said by one of their words; a figure's unit naming its column ---------------------

def _pumps(k: int) -> pd.DataFrame:
    n = 40
    return pd.DataFrame({
        "Ticket ID": [f"F{k}{i:03d}" for i in range(n)],
        "Day": pd.to_datetime([f"2025-05-{(i * 3 + k) % 28 + 1:02d}" for i in range(n)]),
        "Customer ID": [f"C{(i * 7 + k) % 9:02d}" for i in range(n)],
        "Fuel Grade": [["Regular", "Premium", "Diesel"][(i + k) % 3] for i in range(n)],
        "Volume Litres": [round(12 + ((i * 13 + k * 5) % 50) * 0.9, 1) for i in range(n)],
        "Amount": [round(20 + ((i * 17 + k * 3) % 60) * 1.35, 2) for i in range(n)],
        "Wait Minutes": [1 + (i * 5 + k) % 16 for i in range(n)],
        "Member": ["Y" if (i + 2 * k) % 3 == 0 else "N" for i in range(n)],
    })


PUMPS = {"North": _pumps(0), "South": _pumps(1)}


@pytest.fixture(params=["pandas", "duckdb"])
def pumps(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "fuel_log.xlsx", PUMPS)


def test_a_figure_per_unit_of_another_column_is_their_ratio_per_key(pumps):
    f = result_frame(answered(Session(pumps), "North: average amount per litre by fuel grade"))
    df = PUMPS["North"]
    g = df.groupby("Fuel Grade")[["Amount", "Volume Litres"]].sum()
    want = (g["Amount"] / g["Volume Litres"]).round(4).to_dict()
    ratio = next(c for c in f.columns if "/" in c)
    assert {k: round(float(v), 4) for k, v in zip(f["Fuel Grade"], f[ratio], strict=True)} == pytest.approx(want, abs=1e-3)
    assert len(f) == 3  # one row per grade, never one per litre figure


@pytest.mark.parametrize(("said", "col", "bound"), [("North tickets over 40 litres", "Volume Litres", 40),
                                                     ("South tickets longer than 10 minutes", "Wait Minutes", 10)])
def test_a_figure_followed_by_a_word_of_a_column_compares_that_column(pumps, said, col, bound):
    f = result_frame(answered(Session(pumps), said))
    df = PUMPS["North" if said.startswith("North") else "South"]
    assert sorted(f["Ticket ID"]) == sorted(df[df[col] > bound]["Ticket ID"])


def test_a_column_said_by_one_of_its_words_is_that_column(pumps):
    tr = Session(pumps).turn("is there a correlation between amount and litres on North?")
    assert "Volume Litres" in _said(tr) and "Amount" in _said(tr), _said(tr)


def test_the_flags_plural_after_did_and_its_negation(pumps):
    s = Session(pumps)
    tr = answered(s, "South: how much Amount did the members spend")
    df = PUMPS["South"]
    f = result_frame(tr)
    assert float(f.iloc[0, 0]) == pytest.approx(df[df["Member"] == "Y"]["Amount"].sum())
    tr = answered(s, "what about non-members")
    assert float(result_frame(tr).iloc[0, 0]) == pytest.approx(df[df["Member"] != "Y"]["Amount"].sum())


@pytest.mark.parametrize("said", ["North: most recent ticket per customer", "North: one row per customer, keep their latest ticket"])
def test_the_latest_row_per_key_said_in_english(pumps, said):
    f = result_frame(answered(Session(pumps), said))
    df = PUMPS["North"]
    want = df.sort_values("Day", kind="stable").groupby("Customer ID").tail(1)
    assert sorted(f["Ticket ID"]) == sorted(want["Ticket ID"])


# ---- the one bound said again: lower it to N / same but over N / 门槛降到N --------------------------------------------------

@pytest.mark.parametrize(("then", "bound"), [("lower it to 235", 235), ("same but over 255", 255), ("raise the threshold to 300", 300)])
def test_the_bound_said_again_keeps_the_request(pumps, then, bound):
    s = Session(pumps)
    answered(s, "North: customers whose total Amount is more than 280")
    f = result_frame(answered(s, then))
    totals = PUMPS["North"].groupby("Customer ID")["Amount"].sum()
    assert sorted(f["Customer ID"]) == sorted(totals[totals > bound].index)


def test_the_bound_said_again_in_chinese(garages):
    s = Session(garages)
    answered(s, "北区金额超过1000的单子")
    f = result_frame(answered(s, "门槛降到800"))
    df = SHEETS["北区"]
    assert sorted(f["单号"]) == sorted(df[df["金额"] > 800]["单号"])


# ---- a pivot with the sheets as columns, no file named; then a line per sheet -----------------------------------------

def test_a_pivot_with_the_sheet_noun_as_columns_stacks_every_sheet(garages):
    s = Session(garages)
    tr = answered(s, "做个透视表，行是项目，列是区，值是金额合计")
    f = result_frame(tr)
    assert {"北区", "南区"} <= set(f.columns), list(f.columns)
    for name, df in SHEETS.items():
        want = df.groupby("项目")["金额"].sum()
        got = {str(k): float(v) for k, v in zip(f["项目"], f[name], strict=True) if str(k) in want.index}
        assert got == {k: float(v) for k, v in want.items()}
    chart = s.turn("画个柱状图，每个区一根柱子")
    assert chart.decision.next != "ask_slots", chart.decision.reply  # the pivot just made is what is drawn


# ---- a column computed right after a join, named with a word of the joined table ----------------------------------------

def test_a_formula_after_a_join_is_on_the_joined_rows(tmp_path, monkeypatch):
    prices = pd.DataFrame({"项目": ["保养", "换胎", "钣金", "喷漆"], "工时单价": [120, 80, 150, 200], "类别": ["常规", "常规", "事故", "事故"]})
    ws = _workspace(tmp_path, monkeypatch, "pandas", "维修单.xlsx", SHEETS, {"工时单价表.csv": prices})
    s = Session(ws)
    answered(s, "北区关联工时单价表.csv，按项目匹配")
    tr = answered(s, "加一列单价 = 工时 * 工时单价")
    f = result_frame(tr)
    df = SHEETS["北区"].merge(prices, on="项目", how="left")
    assert len(f) == len(df) and "单价" in f.columns, list(f.columns)
    assert [float(x) for x in f["单价"]] == [float(x) for x in df["工时"] * df["工时单价"]]


# ---- 各 of the groups said, with the sheets said together ------------------------------------------------------------------

def test_each_of_the_groups_with_the_sheets_together_has_no_sheet_key(garages):
    tr = answered(Session(garages), "每个项目各有几单，两个区一起算")
    f = result_frame(tr)
    assert "工作表" not in f.columns, list(f.columns)
    want = pd.concat(SHEETS.values())["项目"].value_counts()
    assert {str(k): int(v) for k, v in zip(f["项目"], f["行数"], strict=True)} == {k: int(v) for k, v in want.items()}


# ---- a statistic's short word inside a column's name; people counted by the column of their ids ---------------------------

def test_minutes_is_no_minimum(pumps):
    tr = answered(Session(pumps), "median wait minutes by fuel grade on North")
    f = result_frame(tr)
    df = PUMPS["North"]
    want = df.groupby("Fuel Grade")["Wait Minutes"].median()
    assert "min" not in " ".join(str(c) for c in f.columns if c != "Wait Minutes").casefold().replace("minutes", ""), list(f.columns)
    figure = next(c for c in f.columns if c not in ("Fuel Grade", "rows"))
    assert {str(k): float(v) for k, v in zip(f["Fuel Grade"], f[figure], strict=True)} == {k: float(v) for k, v in want.items()}


def test_how_many_people_per_key_counts_their_ids(garages):
    f = result_frame(answered(Session(garages), "北区每个项目有几个技师做过"))
    want = SHEETS["北区"].groupby("项目")["技师工号"].nunique()
    figure = next(c for c in f.columns if c not in ("项目", "行数"))
    assert {str(k): int(v) for k, v in zip(f["项目"], f[figure], strict=True)} == {k: int(v) for k, v in want.items()}


def test_how_many_people_counts_their_ids(garages):
    f = result_frame(answered(Session(garages), "北区有几个技师接过单"))
    assert int(f.iloc[0, 0]) == SHEETS["北区"]["技师工号"].nunique()


def test_by_another_key_too_adds_that_key(pumps):
    s = Session(pumps)
    answered(s, "total Amount by Fuel Grade on North")
    f = result_frame(answered(s, "split by member too"))
    want = PUMPS["North"].groupby(["Fuel Grade", "Member"])["Amount"].sum()
    assert len(f) == len(want) and {"Fuel Grade", "Member"} <= set(f.columns), list(f.columns)


def test_an_order_by_a_column_summed_and_averaged_is_by_its_total(garages):
    f = result_frame(answered(Session(garages), "北区按项目算金额的合计和平均值，按金额从高到低排"))
    assert list(f["金额_合计"]) == sorted(f["金额_合计"], reverse=True) and len(f) == 4


# ---- how many and how much, in one question -----------------------------------------------------------------------------

@pytest.mark.parametrize("said", ["南区有多少单，金额多少", "how many tickets on South and how much Amount"])
def test_a_count_and_a_total_asked_together_are_both_answered(garages, pumps, said):
    if said.startswith("how"):
        f, df, money = result_frame(answered(Session(pumps), said)), PUMPS["South"], "Amount"
    else:
        f, df, money = result_frame(answered(Session(garages), said)), SHEETS["南区"], "金额"
    rows = next(c for c in f.columns if c in ("行数", "rows"))
    total = next(c for c in f.columns if c.startswith(money))
    assert int(f.iloc[0][rows]) == len(df) and float(f.iloc[0][total]) == pytest.approx(float(df[money].sum()))


# ---- found by the round-51 English trial: a column brought onto the rows just kept, never onto their whole table ----------

@pytest.mark.parametrize(("first", "then"), [("把北区付款方式是现金的单子导出成excel", "带上技师姓名"),
                                             ("北区付款方式是现金的单子", "add 技师姓名 to that")])
def test_a_column_brought_onto_rows_just_kept_stays_on_those_rows(garages, first, then):
    s = Session(garages)
    answered(s, first)
    f = result_frame(answered(s, then))
    df = SHEETS["北区"]
    assert len(f) == int((df["付款方式"] == "现金").sum()) and "技师姓名" in f.columns, (len(f), list(f.columns))
