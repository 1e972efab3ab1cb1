"""Found by the round-45 and round-46 work, each recomputed with pandas: a column then 各有多少条 (each value counted, a
column of few numbers too), the rows' share after a count per key, an earlier turn's word that named another file by its
stem read again as the column it was, a value and its column's blanks as either one, the or between two conditions
read, ranking verbs and the N things with the most …, a Latin near-miss of a file's stem only as a whole word, the figure
of the request before swapped for another column (按重量算呢 / what about kWh?), a chart redone without some rows, a wide
table, a blank test asked of another column or dropped, the first N of a summary said alone, each sheet's share, a
flagged count turned into each sheet's rate, the rows just listed counted per key, and people counted that are no sheets."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame, said_in
from test_trial_round40 import _workspace

from engine.session import Session
from tools.workspace import Workspace

GARDENS = ["一号园", "二号园", "三号园"]


def _garden(k: int) -> pd.DataFrame:
    n = 24
    df = pd.DataFrame({
        "单号": [f"C{k}{i:03d}" for i in range(n)],
        "日期": pd.to_datetime([f"2024-{(i % 6) + 3:02d}-{(i * 3 + k) % 27 + 1:02d}" for i in range(n)]),
        "茶农编号": [f"N{(i * 5 + k) % 7:02d}" for i in range(n)],
        "品类": [["绿茶", "红茶", "白茶", None][(i + k) % 4] if i % 9 else "绿茶" for i in range(n)],
        "等级": [["特级", "一级", "二级"][(i * 2 + k) % 3] if i != 5 else None for i in range(n)],
        "采摘员": [["李梅", "王芳", "赵敏"][(i + 2 * k) % 3] if i % 11 != 4 else None for i in range(n)],
        "斤数": [10 + (i * 7 + k * 3) % 23 for i in range(n)],
        "单价": [[120.0, 150.0, 180.0][(i + k) % 3] for i in range(n)],
        "是否结清": [["是", "否"][(i * 3 + k) % 2] if i != 7 else None for i in range(n)],
    })
    df["金额"] = (df["斤数"] * df["单价"]).astype(float)
    df.loc[13, "金额"] = None
    df = pd.concat([df, df.iloc[[2]]], ignore_index=True)  # one row entered twice
    return df


SHEETS = {name: _garden(k) for k, name in enumerate(GARDENS)}
FARMERS = pd.DataFrame({"茶农编号": [f"N{i:02d}" for i in range(8)], "姓名": ["张一", "张二", "张三", "张四", "张五", "张六", "张七", "张八"],
                        "所在村": ["上村", "下村", "上村", "中村", "下村", "中村", "上村", "下村"]})
ALL = pd.concat([df.assign(工作表=name) for name, df in SHEETS.items()], ignore_index=True)


@pytest.fixture(params=["pandas", "duckdb"])
def tea(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "采茶记录.xlsx", SHEETS, {"茶农.csv": FARMERS})


SITES = ["Riverside", "Uptown", "Mill"]


def _site(k: int) -> pd.DataFrame:
    n = 30
    return pd.DataFrame({
        "SessionID": [f"S{k}{i:03d}" for i in range(n)],
        "Date": pd.to_datetime([f"2024-{(i % 4) + 2:02d}-{(i * 2 + k) % 27 + 1:02d}" for i in range(n)]),
        "DriverID": [f"D{(i * 3 + k) % 8:02d}" for i in range(n)],
        "Charger": [["C1", "C2", "C3", "C4"][(i + k) % 4] for i in range(n)],
        "PlugType": [["CCS", "Type2", "CHAdeMO"][(i * 2 + k) % 3] for i in range(n)],
        "kWh": [12.0 + (i * 5 + k) % 31 for i in range(n)],
        "Cost": [round(4.0 + ((i * 13 + k * 7) % 40) * 0.75, 2) for i in range(n)],
        "Disputed": ["Y" if (i * i + k) % 4 == 0 or i % 7 == k else "N" for i in range(n)],
    })


SESSIONS = {name: _site(k) for k, name in enumerate(SITES)}
DRIVERS = pd.DataFrame({"DriverID": [f"D{i:02d}" for i in range(8)], "DriverName": [f"Name {i}" for i in range(8)],
                        "Plan": ["Basic", "Plus", "Basic", "Plus", "Basic", "Basic", "Plus", "Basic"]})
EV_ALL = pd.concat([df.assign(sheet=name) for name, df in SESSIONS.items()], ignore_index=True)


@pytest.fixture(params=["pandas", "duckdb"])
def ev(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "sessions.xlsx", SESSIONS, {"drivers.csv": DRIVERS})


def _said(tr) -> str:
    """What a turn said it would do: its plan's goal, else its reply."""
    return tr.plan.goalSummary if tr.plan else tr.decision.reply


def _counts(f: pd.DataFrame, key: str) -> dict:
    rows = next(c for c in f.columns if c in ("行数", "rows"))
    return {("" if pd.isna(k) else str(k)): int(v) for k, v in zip(f[key], f[rows], strict=True)}


def _want_counts(df: pd.DataFrame, key: str) -> dict:
    return {("" if pd.isna(k) else str(k)): int(v) for k, v in df[key].value_counts(dropna=False).items()}


def _keyed(f: pd.DataFrame, key: str) -> dict:
    return {("" if pd.isna(k) or str(k) in ("（空白）", "(blank)") else str(k)).removesuffix(".0"): v for k, v in zip(f[key], f.iloc[:, -1], strict=True)}


# ---- a column then 各有多少条: each of its values counted --------------------------------------------------------------

@pytest.mark.parametrize("said", ["一号园 单价各有多少条", "一号园 单价分别有多少条", "一号园 单价各多少条"])
def test_a_column_then_each_count_counts_its_values(tea, said):
    tr = answered(Session(tea), said)
    f = result_frame(tr)
    got = {str(k).removesuffix(".0"): v for k, v in _counts(f, "单价").items()}
    assert got == {str(k).removesuffix(".0"): v for k, v in _want_counts(SHEETS["一号园"], "单价").items()}


def test_each_count_with_no_column_asks_which_and_takes_the_answer(tea):
    s = Session(tea)
    tr = s.turn("一号园各多少条")
    assert tr.run is None and tr.decision.next == "ask_slots", tr.decision.reply
    assert "哪一列" in tr.decision.reply and "“”" not in tr.decision.reply
    tr = answered(s, "等级")
    assert _counts(result_frame(tr), "等级") == _want_counts(SHEETS["一号园"], "等级")


def test_each_value_of_a_numeric_column_gets_its_share_of_the_rows(tea):
    f = result_frame(answered(Session(tea), "一号园各单价的条数占比"))
    df = SHEETS["一号园"]
    want = (df["单价"].value_counts() / len(df) * 100).round(2)
    got = {float(k): round(float(v), 2) for k, v in zip(f["单价"], f[[c for c in f.columns if "占比" in c or "share" in c.casefold()][0]], strict=True)}
    assert got == {float(k): float(v) for k, v in want.items()}


def test_a_share_after_a_count_per_key_is_of_those_rows(tea):
    s = Session(tea)
    answered(s, "一号园按等级分组计数")
    f = result_frame(answered(s, "再算个占比"))
    df = SHEETS["一号园"]
    share = [c for c in f.columns if "占比" in c and "累计" not in c][0]
    want = (df["等级"].value_counts(dropna=False) / len(df) * 100).round(2)
    got = {("" if pd.isna(k) or k == "（空白）" else k): round(float(v), 2) for k, v in zip(f["等级"], f[share], strict=True)}
    assert got == {("" if pd.isna(k) else k): float(v) for k, v in want.items()}


# ---- an earlier turn's word that named another file by its stem -------------------------------------------------------

def test_a_file_stem_read_as_a_column_stays_that_column_on_another_sheet(tea):
    s = Session(tea)
    answered(s, "一号园平均斤数超过20的茶农有哪些")
    tr = s.turn("二号园的呢")
    assert "茶农.csv" not in (tr.decision.reply or "") and "关联" not in (tr.decision.reply or "")
    f = result_frame(tr if tr.run is not None else answered(s, "继续"))
    means = SHEETS["二号园"].groupby("茶农编号")["斤数"].mean()
    assert sorted(f["茶农编号"]) == sorted(means[means > 20].index)


# ---- a value and its column's blanks are either one ------------------------------------------------------------------

def _green_or_blank(df: pd.DataFrame) -> pd.DataFrame:
    return df[(df["品类"] == "绿茶") | df["品类"].isna()]


@pytest.mark.parametrize("said", ["二号园品类是绿茶的，品类为空的也算进去，按等级统计单数",
                                  "二号园品类是绿茶或者为空的，按等级统计单数",
                                  "二号园品类是绿茶的或者品类为空的，按等级统计单数"])
def test_a_value_and_the_blanks_of_its_column_are_either(tea, said):
    tr = answered(Session(tea), said)
    assert "没理解" not in " ".join(said_in(tr))
    assert _counts(result_frame(tr), "等级") == _want_counts(_green_or_blank(SHEETS["二号园"]), "等级")


def test_a_value_listed_with_blanks_and_another_condition(tea):
    f = result_frame(answered(Session(tea), "二号园品类是绿茶和空的，等级是特级"))
    df = _green_or_blank(SHEETS["二号园"])
    assert sorted(f["单号"]) == sorted(df[df["等级"] == "特级"]["单号"])


def test_a_count_with_repeated_rows_flags_no_figure_of_its_own(tea):
    tr = answered(Session(tea), "二号园等级是二级的一共多少单")
    texts = " ".join(said_in(tr))
    assert "找不到对应" not in texts and "重复" in texts
    assert str(int((SHEETS["二号园"]["等级"] == "二级").sum())) in tr.run.answer


# ---- ranking verbs and the N things with the most ---------------------------------------------------------------------

def _top_counts(df: pd.DataFrame, key: str, n: int) -> list[int]:
    return sorted(df[key].value_counts().tolist(), reverse=True)[:n]


@pytest.mark.parametrize(("said", "n"), [("which charger did the most sessions in Uptown", 1), ("which 3 drivers had the most sessions in Uptown", 3),
                                          ("top 3 drivers by number of sessions in Uptown", 3), ("top 2 Charger by count in Uptown", 2),
                                          ("the 3 drivers with the most sessions in Uptown", 3)])
def test_the_things_that_did_the_most_are_ranked_by_their_rows(ev, said, n):
    f = result_frame(answered(Session(ev), said))
    key = "Charger" if "charger" in said.casefold() else "DriverID"
    assert key in f.columns and len(f) == n
    assert sorted(_counts(f, key).values(), reverse=True) == _top_counts(SESSIONS["Uptown"], key, n)


@pytest.mark.parametrize(("said", "asc"), [("show the 5 sessions with the highest Cost in Mill", False), ("the 3 sessions with the lowest kWh in Mill", True)])
def test_the_n_rows_with_the_highest_value(ev, said, asc):
    f = result_frame(answered(Session(ev), said))
    col = "Cost" if "Cost" in said else "kWh"
    n = 5 if "5" in said else 3
    want = SESSIONS["Mill"][col].sort_values(ascending=asc).head(n).tolist()
    assert sorted(f[col].tolist()) == sorted(want)


# ---- a near-miss of a file's stem is a whole word ---------------------------------------------------------------------

@pytest.mark.parametrize("said", ["total Cost per PlugType at Riverside", "are there duplicate sessions in Riverside?"])
def test_a_sheet_name_holding_a_near_miss_of_a_stem_is_no_file(ev, said):
    tr = Session(ev).turn(said)
    assert "drivers.csv" not in (tr.decision.reply or "") and (tr.plan is None or "drivers.csv" not in tr.plan.goalSummary)


def test_the_head_of_an_id_column_ranked_is_no_file(ev):
    s = Session(ev)
    answered(s, "how many sessions in Riverside")
    tr = s.turn("which driver spent the most overall?")
    assert not any(w in (tr.decision.reply or "") for w in ("drivers.csv has no", "summarise drivers.csv", "On drivers.csv")), tr.decision.reply


def test_a_camel_case_column_said_in_words(ev):
    f = result_frame(answered(Session(ev), "total cost per plug type in Mill"))
    want = SESSIONS["Mill"].groupby("PlugType")["Cost"].sum().round(2).to_dict()
    assert {k: round(float(v), 2) for k, v in zip(f["PlugType"], f["Cost_sum"], strict=True)} == want


# ---- the figure of the request before, of another column --------------------------------------------------------------

def _sheet_shares(col: str) -> dict:
    tot = ALL.groupby("工作表")[col].sum()
    return (tot / tot.sum() * 100).round(2).to_dict()


@pytest.mark.parametrize("said", ["按斤数算呢", "换成斤数", "用斤数算", "那斤数呢"])
def test_a_column_said_alone_after_a_figure_swaps_what_it_is_of(tea, said):
    s = Session(tea)
    answered(s, "三个园一起算，每个园金额总共多少")
    answered(s, "各园占比多少")
    f = result_frame(answered(s, said))
    share = [c for c in f.columns if "占比" in c and "累计" not in c][0]
    assert {k: round(float(v), 2) for k, v in zip(f["工作表"], f[share], strict=True)} == _sheet_shares("斤数")


@pytest.mark.parametrize("said", ["what about kWh?", "use kWh instead", "same but for kWh"])
def test_another_column_said_in_english_swaps_the_figure(ev, said):
    s = Session(ev)
    answered(s, "total Cost per Charger in Uptown")
    f = result_frame(answered(s, said))
    want = SESSIONS["Uptown"].groupby("Charger")["kWh"].sum().to_dict()
    assert {k: float(v) for k, v in zip(f["Charger"], f["kWh_sum"], strict=True)} == want


def test_a_value_said_after_a_figure_is_no_swap(ev):
    s = Session(ev)
    answered(s, "total Cost per Charger in Uptown")
    tr = s.turn("what about Mill?")
    assert "Mill" in _said(tr) and "kWh" not in _said(tr)


# ---- a chart redone without some rows; a wide table -------------------------------------------------------------------

def test_rows_left_out_then_redrawn_keeps_the_chart(tea):
    s = Session(tea)
    answered(s, "一号园各等级金额占比，画个饼图")
    tr = answered(s, "等级空的不要，重新画")
    assert any(st.tool == "chart_xlsx" or "chart" in st.tool for st in tr.run.steps), [st.tool for st in tr.run.steps]
    f = result_frame(tr)
    df = SHEETS["一号园"]
    want = df[df["等级"].notna()].groupby("等级")["金额"].sum().round(2).to_dict()
    assert {k: round(float(v), 2) for k, v in zip(f["等级"], f.iloc[:, 1], strict=True)} == want


@pytest.mark.parametrize("said", ["一号园每个月结清和没结清的金额，做成宽表", "一号园按月和是否结清汇总金额，宽表"])
def test_a_wide_table_is_a_pivot(tea, said):
    tr = answered(Session(tea), said)
    assert any(st.tool == "pivot_table" for st in tr.run.steps)
    f = result_frame(tr)
    df = SHEETS["一号园"].assign(月=SHEETS["一号园"]["日期"].dt.strftime("%Y-%m"), 结清=SHEETS["一号园"]["是否结清"].fillna("（空白）"))
    want = df.pivot_table(index="月", columns="结清", values="金额", aggfunc="sum")
    got = f.set_index(f.columns[0])
    for m in want.index:
        for c in want.columns:
            if pd.notna(want.loc[m, c]):
                assert round(float(got.loc[m, c]), 2) == round(float(want.loc[m, c]), 2)


# ---- a blank test asked of another column, or dropped ----------------------------------------------------------------

def test_a_blank_test_asked_again_of_another_column_replaces_it(tea):
    s = Session(tea)
    answered(s, "二号园采摘员为空的有几条")
    tr = answered(s, "金额是空的呢")
    assert str(int(SHEETS["二号园"]["金额"].isna().sum())) in tr.run.answer
    assert "采摘员" not in (tr.plan.goalSummary if tr.plan else "")


def test_a_blank_condition_said_to_be_dropped_leaves(tea):
    s = Session(tea)
    tr = s.turn("二号园采摘员为空或者金额为空的明细")
    answered(s, "二号园采摘员为空并且金额为空的明细") if tr.run is None else None
    tr = answered(s, "去掉采摘员为空这个条件")
    f = result_frame(tr)
    assert sorted(f["单号"]) == sorted(SHEETS["二号园"][SHEETS["二号园"]["金额"].isna()]["单号"])


# ---- the first N of a summary; each sheet's share; a count per sheet turned into rates --------------------------------

def test_the_first_n_said_alone_after_a_summary_rank_by_its_figure(tea):
    s = Session(tea)
    answered(s, "二号园各品类斤数合计，按斤数从高到低")
    tr = s.turn("只要前2个")
    assert tr.decision.next != "ask_slots", tr.decision.reply
    f = result_frame(tr if tr.run is not None else answered(s, "继续"))
    want = SHEETS["二号园"].groupby("品类")["斤数"].sum().sort_values(ascending=False).head(2)
    assert list(f.iloc[:, 1]) == list(want.values)


@pytest.mark.parametrize("said", ["三个园合并，各园斤数占比", "各园斤数占比"])
def test_each_sheets_share_said_by_the_sheets_noun(tea, said):
    f = result_frame(answered(Session(tea), said))
    share = [c for c in f.columns if "占比" in c and "累计" not in c][0]
    assert {k: round(float(v), 2) for k, v in zip(f["工作表"], f[share], strict=True)} == _sheet_shares("斤数")


def test_a_flagged_count_per_sheet_then_its_share_of_all_rows_is_each_sheets_rate(ev):
    s = Session(ev)
    answered(s, "count of Disputed = Y for each sheet, all three sheets")
    tr = answered(s, "what share of all sessions is that per sheet")
    for df in SESSIONS.values():
        n, d = int((df["Disputed"] == "Y").sum()), len(df)
        assert f"{n}/{d}" in tr.run.answer, tr.run.answer


def test_the_rows_just_listed_counted_per_key(ev):
    s = Session(ev)
    answered(s, "Uptown sessions in March")
    f = result_frame(answered(s, "how many per charger"))
    df = SESSIONS["Uptown"]
    assert _counts(f, "Charger") == _want_counts(df[df["Date"].dt.month == 3], "Charger")


# ---- people counted are no sheets; rows by their classifier; sheets as keys after a count ------------------------------

def test_three_people_are_not_the_three_sheets(tea):
    s = Session(tea)
    answered(s, "二号园每个采摘员的平均斤数")
    tr = s.turn("他们三个人里谁的结清比例最高")
    said = _said(tr)
    assert "二号园" in said and "合并" not in said, said


def test_the_top_n_said_with_a_classifier_of_slips(tea):
    f = result_frame(answered(Session(tea), "一号园金额最高的5张单"))
    assert sorted(f["单号"]) == sorted(SHEETS["一号园"].nlargest(5, "金额")["单号"])


def test_split_by_the_sheets_noun_after_a_count_of_all_sheets(tea):
    s = Session(tea)
    answered(s, "三个园周末的单子有多少")
    f = result_frame(answered(s, "按园分一下"))
    wk = ALL[ALL["日期"].dt.dayofweek >= 5]
    assert _counts(f, "工作表") == _want_counts(wk, "工作表")


def test_counted_by_rows_said_before_a_rate(tea):
    tr = answered(Session(tea), "按单数算，二号园每个采摘员是否结清为是的单子占比")
    f = result_frame(tr)
    df = SHEETS["二号园"]
    want = df.groupby("采摘员")["是否结清"].apply(lambda x: round(float((x == "是").mean() * 100), 2)).to_dict()
    got = {k: round(float(v), 2) for k, v in zip(f["采摘员"], f.iloc[:, -1], strict=True) if pd.notna(k) and k != "（空白）"}
    assert got == want


# ---- English: a flag before a place, related columns, a sheet's own word ----------------------------------------------

@pytest.mark.parametrize("said", ["list the disputed sessions at Uptown", "disputed sessions at Uptown"])
def test_a_flag_said_before_at_a_sheet(ev, said):
    f = result_frame(answered(Session(ev), said))
    assert sorted(f["SessionID"]) == sorted(SESSIONS["Uptown"][SESSIONS["Uptown"]["Disputed"] == "Y"]["SessionID"])


@pytest.mark.parametrize("said", ["is Disputed related to PlugType, all sheets", "disputed vs plug type - are they related? all sheets"])
def test_two_columns_said_related_are_tested(ev, said):
    from scipy.stats import chi2_contingency

    tr = answered(Session(ev), said)
    assert any(st.tool == "chi_square" or "chi" in st.tool for st in tr.run.steps), [st.tool for st in tr.run.steps]
    p = chi2_contingency(pd.crosstab(EV_ALL["Disputed"], EV_ALL["PlugType"]))[1]
    assert f"p = {p:.3f}" in tr.run.answer and f"{len(EV_ALL)} rows" in tr.run.answer, tr.run.answer


def test_each_sheet_said_with_its_own_word(ev):
    f = result_frame(answered(Session(ev), "how many disputed sessions in each site sheet"))
    assert _counts(f, "sheet") == _want_counts(EV_ALL[EV_ALL["Disputed"] == "Y"], "sheet")


def test_all_the_sheets_said_as_a_clause(ev):
    f = result_frame(answered(Session(ev), "average kWh by PlugType, all sites, ignoring CHAdeMO"))
    df = EV_ALL[EV_ALL["PlugType"] != "CHAdeMO"]
    want = df.groupby("PlugType")["kWh"].mean().round(2).to_dict()
    assert {k: round(float(v), 2) for k, v in zip(f["PlugType"], f.iloc[:, 1], strict=True)} == want


# ---- two figures listed; money said as spend; a growth said after a figure per month; a chain cut anew ------------------

def test_how_many_and_how_much_listed_are_both_answered(tea):
    tr = answered(Session(tea), "二号园5月份收了多少单，多少钱")
    df = SHEETS["二号园"]
    may = df[df["日期"].dt.month == 5]
    assert str(len(may)) in tr.run.answer or len(result_frame(tr)) == 1
    f = result_frame(tr)
    assert int(f[[c for c in f.columns if c in ("行数", "rows")][0]].iloc[0]) == len(may)
    assert round(float(f["金额_合计"].iloc[0]), 2) == round(float(may["金额"].sum()), 2)


def test_spend_per_month_then_its_growth(ev):
    s = Session(ev)
    f = result_frame(answered(s, "monthly spend at Mill"))
    per = SESSIONS["Mill"].groupby(SESSIONS["Mill"]["Date"].dt.strftime("%Y-%m"))["Cost"].sum().round(2)
    assert [round(float(v), 2) for v in f[[c for c in f.columns if c.startswith("Cost")][0]]] == per.tolist()
    tr = s.turn("show month on month growth")
    said = _said(tr)
    assert "growth" in said and "look up" not in said, said
    f = result_frame(tr if tr.run is not None else answered(s, "go"))
    want = (per.pct_change() * 100).round(2).dropna().tolist()
    got = [round(float(v), 2) for v in f.iloc[:, -1] if pd.notna(v)]
    assert got == want


def test_a_smaller_cut_after_names_were_brought_onto_a_ranking(ev):
    s = Session(ev)
    answered(s, "top 4 drivers by kWh at Uptown")
    answered(s, "add their names from drivers.csv")
    f = result_frame(answered(s, "change it to top 2"))
    top = SESSIONS["Uptown"].groupby("DriverID")["kWh"].sum().sort_values(ascending=False).head(2)
    assert list(f["DriverID"]) == list(top.index) and "DriverName" in f.columns


# ---- households counted; the head of an id column said with 按; a summary set beside a reference table ---------------

def test_households_counted_per_key(tea):
    f = result_frame(answered(Session(tea), "茶农.csv 各村有多少户"))
    assert _counts(f, "所在村") == _want_counts(FARMERS, "所在村")
    assert [c for c in f.columns if c not in ("所在村", "行数")] == []


def test_the_head_of_an_id_column_said_with_by_is_that_column(tea):
    s = Session(tea)
    answered(s, "一号园金额合计多少")
    tr = s.turn("按茶农汇总金额，取前3")
    assert "茶农.csv" not in _said(tr)
    f = result_frame(tr if tr.run is not None else answered(s, "继续"))
    want = SHEETS["一号园"].groupby("茶农编号")["金额"].sum().sort_values(ascending=False).head(3)
    assert list(f["茶农编号"]) == list(want.index)


PRICES = pd.DataFrame({"品类": ["绿茶", "红茶", "白茶"], "指导价": [150.0, 140.0, 170.0]})


def test_a_summary_set_beside_a_reference_table(tmp_path, monkeypatch):
    ws = _workspace(tmp_path, monkeypatch, "pandas", "采茶记录.xlsx", SHEETS, {"茶农.csv": FARMERS, "指导价.csv": PRICES})
    f = result_frame(answered(Session(ws), "二号园各品类的平均单价，和指导价.csv对比一下"))
    want = SHEETS["二号园"].groupby("品类")["单价"].mean().round(3).to_dict()
    assert {k: round(float(v), 3) for k, v in zip(f["品类"], f["单价_平均"], strict=True) if pd.notna(k)} == want
    assert {k: v for k, v in zip(f["品类"], f["指导价"], strict=True) if pd.notna(k)} == dict(zip(PRICES["品类"], PRICES["指导价"], strict=True))


# ---- a key of the joined table said alone; a heat map of the pivot just made ------------------------------------------

def test_a_key_of_the_joined_table_said_alone_regroups_the_join(ev):
    s = Session(ev)
    answered(s, "join all sheets of sessions.xlsx with drivers.csv, then total Cost by DriverName")
    f = result_frame(answered(s, "same by plan"))
    want = EV_ALL.merge(DRIVERS, on="DriverID", how="left").groupby("Plan")["Cost"].sum().round(2).to_dict()
    assert {k: round(float(v), 2) for k, v in zip(f["Plan"], f["Cost_sum"], strict=True)} == want


def test_a_heat_map_of_the_pivot_just_made(ev):
    s = Session(ev)
    answered(s, "pivot the Mill sheet with rows Charger, columns PlugType, values sum of kWh")
    tr = answered(s, "make it a heat map")
    assert any(st.tool == "write_chart" for st in tr.run.steps)
    f = result_frame(tr).set_index("Charger")
    want = SESSIONS["Mill"].pivot_table(index="Charger", columns="PlugType", values="kWh", aggfunc="sum")
    for ch in want.index:
        for pt in want.columns:
            if pd.notna(want.loc[ch, pt]):
                assert float(f.loc[ch, pt]) == float(want.loc[ch, pt])


# ---- who the ids of a ranking are; columns listed with commas ---------------------------------------------------------

@pytest.mark.parametrize("said", ["who is that driver? name and plan", "add DriverName, Plan from drivers.csv"])
def test_who_the_ranked_ids_are_comes_from_the_table_that_says(ev, said):
    s = Session(ev)
    answered(s, "top 1 driver by total Cost at Mill")
    f = result_frame(answered(s, said))
    top = SESSIONS["Mill"].groupby("DriverID")["Cost"].sum().idxmax()
    row = DRIVERS.set_index("DriverID").loc[top]
    assert list(f["DriverID"]) == [top] and f["DriverName"].iloc[0] == row["DriverName"] and f["Plan"].iloc[0] == row["Plan"]


def test_who_they_are_in_chinese(tea):
    s = Session(tea)
    answered(s, "一号园金额最高的3个茶农")
    f = result_frame(answered(s, "他们叫什么名字"))
    names = FARMERS.set_index("茶农编号")["姓名"]
    assert all(f["姓名"].iloc[i] == names[k] for i, k in enumerate(f["茶农编号"]))


# ---- the latest row of each key; a flag's two sides compared ---------------------------------------------------------

def test_the_row_with_the_latest_date_for_each_key(ev):
    f = result_frame(answered(Session(ev), "Mill sheet: keep the row with the most recent Date for each charger"))
    df = SESSIONS["Mill"]
    want = df.sort_values("Date").groupby("Charger").tail(1)
    assert sorted(f["SessionID"]) == sorted(want["SessionID"])


def test_a_flag_and_its_negation_compared_leave_no_rows_out(ev):
    tr = Session(ev).turn("is there a significant difference in kWh between disputed and non-disputed sessions in Uptown")
    said = _said(tr)
    assert "Disputed" in said and "keep rows" not in said and "≠" not in said, said


# ---- keys named with Chinese numerals in the numerals' order ---------------------------------------------------------

def test_groups_and_pivot_columns_named_with_numerals_in_their_order(tea):
    s = Session(tea)
    f = result_frame(answered(s, "三个园每个园的金额合计"))
    assert list(f["工作表"]) == ["一号园", "二号园", "三号园"]
    f = result_frame(answered(s, "一号园做个透视表，行是品类，列是等级，值是金额合计"))
    graded = [c for c in f.columns if c in ("一级", "二级", "特级")]
    assert graded == ["一级", "二级", "特级"]


def test_a_test_of_difference_over_the_sheets_put_together(tea):
    from scipy.stats import f_oneway

    tr = answered(Session(tea), "三个园合在一起，不同等级的单价有没有显著差异")
    groups = [g["单价"].to_numpy() for _, g in ALL.dropna(subset=["等级"]).groupby("等级")]
    p = f_oneway(*groups).pvalue
    assert f"p = {p:.3f}" in tr.run.answer or f"p={p:.3f}" in tr.run.answer.replace(" ", ""), tr.run.answer


# ---- each key's latest row said without a verb of keeping; a flag's own words negated --------------------------------

@pytest.mark.parametrize("said", ["一号园每个采摘员最近一次的记录", "一号园每个采摘员最后一笔"])
def test_each_keys_latest_row(tea, said):
    f = result_frame(answered(Session(tea), said))
    df = SHEETS["一号园"].dropna(subset=["采摘员"])
    want = df.sort_values("日期", kind="stable").groupby("采摘员").tail(1)
    got = f.dropna(subset=["采摘员"])
    assert sorted(got["单号"]) == sorted(want["单号"])


CHECKS = pd.DataFrame({"订单号": [f"A{i:02d}" for i in range(20)], "金额": [1000.0 * (i % 9) for i in range(20)],
                       "验收合格": ["是" if i % 3 else "否" for i in range(20)], "供应商": ["甲", "乙"] * 10})


@pytest.mark.parametrize("said", ["采购单.csv 金额大于5000并且验收不合格的订单", "采购单.csv 不合格的订单，金额大于5000", "采购单.csv 金额大于5000，不是验收合格的"])
def test_a_flag_columns_own_words_negated(tmp_path, monkeypatch, said):
    monkeypatch.setenv("WENQING_ENGINE", "pandas")
    CHECKS.to_csv(tmp_path / "采购单.csv", index=False)
    f = result_frame(answered(Session(Workspace.at(tmp_path)), said))
    want = CHECKS[(CHECKS["金额"] > 5000) & (CHECKS["验收合格"] != "是")]
    assert sorted(f["订单号"]) == sorted(want["订单号"])


# ---- a month with after / before; a request of its own on a sheet after the sheets were put together ------------------

@pytest.mark.parametrize(("said", "later"), [("二号园6月以后的单子", True), ("二号园从6月开始的单子", True), ("二号园6月之前的单子", False)])
def test_a_month_said_with_after_or_before_is_a_bound(tea, said, later):
    f = result_frame(answered(Session(tea), said))
    df = SHEETS["二号园"]
    want = df[df["日期"] >= "2024-06-01"] if later else df[df["日期"] < "2024-06-01"]
    assert sorted(f["单号"]) == sorted(want["单号"])


def test_a_request_naming_its_sheet_after_all_sheets_is_its_own(tea):
    s = Session(tea)
    answered(s, "三个园里金额是空的单子有哪些")
    tr = s.turn("二号园每个采摘员的单数和斤数合计")
    said = _said(tr)
    assert "二号园" in said and "合并" not in said and "为空" not in said, said


# ---- a figure per row's noun then by a key; a flag said with with / without -----------------------------------------

WASHES = pd.DataFrame({"VisitID": [f"V{i:03d}" for i in range(24)], "Vehicle": ["Van", "Car", "Truck"] * 8,
                       "Cars": [1 + i % 3 for i in range(24)], "Complaint": ["Y" if i % 5 == 0 else "N" for i in range(24)]})


def _washes(tmp_path, monkeypatch) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", "pandas")
    WASHES.to_csv(tmp_path / "washes.csv", index=False)
    return Workspace.at(tmp_path)


def test_a_figure_per_row_then_by_a_key(tmp_path, monkeypatch):
    f = result_frame(answered(Session(_washes(tmp_path, monkeypatch)), "washes.csv: average Cars per visit by Vehicle, excluding Van"))
    want = WASHES[WASHES["Vehicle"] != "Van"].groupby("Vehicle")["Cars"].mean().round(2).to_dict()
    assert {k: round(float(v), 2) for k, v in zip(f["Vehicle"], f.iloc[:, 1], strict=True)} == want


@pytest.mark.parametrize(("said", "yes"), [("washes.csv visits with a complaint", True), ("washes.csv visits without a complaint", False),
                                           ("washes.csv visits with no complaint", False)])
def test_a_flag_said_with_or_without(tmp_path, monkeypatch, said, yes):
    f = result_frame(answered(Session(_washes(tmp_path, monkeypatch)), said))
    want = WASHES[(WASHES["Complaint"] == "Y") == yes]
    assert sorted(f["VisitID"]) == sorted(want["VisitID"])


def test_same_for_another_sheet_after_a_chain_of_changes(ev):
    s = Session(ev)
    answered(s, "average kWh per session by Charger at Mill")
    answered(s, "use the median instead")
    f = result_frame(answered(s, "same for Uptown"))
    want = SESSIONS["Uptown"].groupby("Charger")["kWh"].median().to_dict()
    assert {k: float(v) for k, v in zip(f["Charger"], f.iloc[:, 1], strict=True)} == want


def test_the_blank_key_left_out_of_rates_then_sorted_by_them(ev):
    s = Session(ev)
    answered(s, "Mill: within each Charger, the proportion of rows where Disputed = Y")
    f = result_frame(answered(s, "leave out the blank charger and sort by the rate"))
    rate = f.columns[-1]
    df = SESSIONS["Mill"]
    want = df.groupby("Charger")["Disputed"].apply(lambda x: round(float((x == "Y").mean() * 100), 2)).sort_values(ascending=False)
    assert [round(float(v), 2) for v in f[rate]] == list(want.values)


def test_a_sort_said_by_another_column_after_a_figure_is_no_swap(tea):
    s = Session(tea)
    answered(s, "一号园按品类汇总斤数")
    tr = s.turn("按金额排序")
    said = _said(tr)
    assert "排序" in said and "计算 金额" not in said, said


def test_a_flag_column_named_with_a_negation_is_its_own_yes(tmp_path, monkeypatch):
    monkeypatch.setenv("WENQING_ENGINE", "pandas")
    df = pd.DataFrame({"订单号": [f"A{i:02d}" for i in range(20)], "金额": [1000.0 * (i % 9) for i in range(20)],
                       "不合格": ["是" if i % 3 == 0 else "否" for i in range(20)]})
    df.to_csv(tmp_path / "采购单.csv", index=False)
    f = result_frame(answered(Session(Workspace.at(tmp_path)), "采购单.csv 不合格的订单"))
    assert sorted(f["订单号"]) == sorted(df[df["不合格"] == "是"]["订单号"])


@pytest.mark.parametrize(("said", "yes"), [("采购单.csv 验收合格的订单有几条", True), ("采购单.csv 验收不合格的订单有几条", False)])
def test_a_flag_then_a_count_of_its_rows(tmp_path, monkeypatch, said, yes):
    monkeypatch.setenv("WENQING_ENGINE", "pandas")
    CHECKS.to_csv(tmp_path / "采购单.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), said)
    assert f"{int(((CHECKS['验收合格'] == '是') == yes).sum())} 行" in tr.run.answer, tr.run.answer
