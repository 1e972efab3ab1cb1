"""Found by the round-54 probes and trials, each recomputed with pandas on data of its own: a new column named before
the word column (add an ARR column equal to MRR times 12) or anywhere in its clause (called arr), and a price at a
discount (单价打九折 / 打个八五折) as the column times the fraction the 折 names, in a new column beside the old one; the top
10% / 前百分之五 as a share of the rows holding a value (rounded up), never ten rows; which group has the best (highest)
score compared on the average score, never the scores added up; how many members, over a table of orders, the
different members."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame
from test_trial_round40 import _workspace

from engine.session import Session
from tools.workspace import Workspace


def _subs(k: int) -> pd.DataFrame:
    n = 30
    return pd.DataFrame({
        "Account": [f"A{k}{i:02d}" for i in range(n)],
        "Plan": [["Basic", "Pro", "Team"][(i + k) % 3] for i in range(n)],
        "MRR": [50 + ((i * 7 + k) % 13) * 25 for i in range(n)],
        "Seats": [1 + (i * 5 + k) % 9 for i in range(n)],
    })


def _shop(k: int) -> pd.DataFrame:
    n = 24
    return pd.DataFrame({
        "货号": [f"G{k}{i:02d}" for i in range(n)],
        "品类": [["饮料", "零食", "日用"][(i * 2 + k) % 3] for i in range(n)],
        "标价": [3.5 + ((i * 11 + k) % 17) * 1.5 for i in range(n)],
        "库存": [5 + (i * 3 + k) % 40 for i in range(n)],
    })


@pytest.fixture(params=["pandas", "duckdb"])
def subs(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "subs.xlsx", {"Q1": _subs(0)})


@pytest.fixture(params=["pandas", "duckdb"])
def shop(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "货架.xlsx", {"一号店": _shop(0)})


# ---- a new column named before the word column, or called … in its clause -------------------------------------------

@pytest.mark.parametrize("said", ["add an ARR column to subs.xlsx equal to MRR times 12",
                                  "in subs.xlsx add an ARR column equal to MRR times 12",
                                  "add a column to subs.xlsx called ARR, MRR times 12",
                                  "add a new column called ARR to subs.xlsx which is MRR * 12"])
def test_a_new_column_is_named_as_said_and_computed(subs, said):
    f = result_frame(answered(Session(subs), said))
    assert "ARR" in f.columns, list(f.columns)
    assert list(f["ARR"]) == pytest.approx(list(_subs(0)["MRR"] * 12))


def test_an_existing_column_said_before_column_is_no_new_name(subs):
    tr = Session(subs).turn("add a Plan column to subs.xlsx equal to MRR times 2")
    assert tr.run is None or result_frame(tr)["Plan"].tolist() == _subs(0)["Plan"].tolist()


# ---- a price at a discount -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("said", "name", "rate"), [("把货架.xlsx的标价打九折", "折后标价", 0.9),
                                                    ("货架.xlsx 标价都打个八五折", "折后标价", 0.85),
                                                    ("货架.xlsx加一列会员价，标价打7.5折", "会员价", 0.75)])
def test_a_discount_is_the_column_times_its_fraction_in_a_new_column(shop, said, name, rate):
    tr = answered(Session(shop), said)
    f = result_frame(tr)
    assert list(f[name]) == pytest.approx(list(_shop(0)["标价"] * rate))
    assert list(f["标价"]) == pytest.approx(list(_shop(0)["标价"]))  # the old column stays as it was


def test_a_discount_with_no_column_before_it_is_not_guessed(shop):
    tr = Session(shop).turn("货架.xlsx 全部打九折")
    assert tr.run is None or "折后" not in " ".join(result_frame(tr).columns)


# ---- the top N percent -----------------------------------------------------------------------------------------------

def _top_share(df: pd.DataFrame, by: str, p: float, low: bool = False) -> pd.DataFrame:
    import math

    n = math.ceil(df[by].notna().sum() * p / 100)
    return df.sort_values(by, ascending=low, kind="stable").head(n)


@pytest.mark.parametrize(("said", "p", "low"), [("subs.xlsx top 10% of accounts by MRR", 10, False),
                                                ("subs.xlsx the lowest 20 percent of accounts by MRR", 20, True)])
def test_the_top_percent_is_a_share_of_the_rows(subs, said, p, low):
    tr = answered(Session(subs), said)
    want = _top_share(_subs(0), "MRR", p, low)
    f = result_frame(tr)
    assert len(f) == len(want) and sorted(f["MRR"]) == sorted(want["MRR"])


@pytest.mark.parametrize(("said", "p"), [("货架.xlsx 标价最高的前10%的商品", 10), ("货架.xlsx 标价排名前百分之二十的商品", 20)])
def test_the_top_percent_in_chinese(shop, said, p):
    tr = answered(Session(shop), said)
    want = _top_share(_shop(0), "标价", p)
    assert sorted(result_frame(tr)["标价"]) == pytest.approx(sorted(want["标价"]))


def test_the_top_percent_within_each_group(shop):
    import math

    tr = answered(Session(shop), "货架.xlsx 每个品类标价前30%的商品")
    df = _shop(0)
    want = sum(math.ceil(len(g) * 0.3) for _, g in df.groupby("品类"))
    f = result_frame(tr)
    assert len(f) == want
    for cat, g in f.groupby("品类"):
        top = df[df["品类"] == cat]["标价"].sort_values(ascending=False).head(len(g))
        assert sorted(g["标价"]) == pytest.approx(sorted(top))


# ---- which group has the best score: compared on the average -------------------------------------------------------

def _visits() -> pd.DataFrame:
    n = 45
    return pd.DataFrame({
        "Visit ID": [f"V{i:03d}" for i in range(n)],
        "Member ID": [f"M{(i * 7) % 12:02d}" for i in range(n)],
        "Channel": [["Web", "Phone", "Store", "Store", "Store"][i % 5] for i in range(n)],
        "Score": [[5, 4, 2, 3, 1][(i * 3) % 5] for i in range(n)],
        "Spend": [20 + (i * 11) % 70 for i in range(n)],
    })


@pytest.fixture(params=["pandas", "duckdb"])
def visits(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "visits.xlsx", {"Sheet1": _visits()})


@pytest.mark.parametrize(("said", "low"), [("visits.xlsx which channel gets the best scores", False),
                                           ("visits.xlsx which Channel has the worst Score", True),
                                           ("visits.xlsx 哪个Channel的Score最高", False)])
def test_the_best_score_is_compared_on_average(visits, said, low):
    tr = answered(Session(visits), said)
    means = _visits().groupby("Channel")["Score"].mean()
    want = means.idxmin() if low else means.idxmax()
    assert str(result_frame(tr).iloc[0]["Channel"]) == want
    assert want in tr.run.answer


def test_a_total_score_said_is_added_up(visits):
    tr = answered(Session(visits), "visits.xlsx which Channel has the highest total Score")
    assert str(result_frame(tr).iloc[0]["Channel"]) == _visits().groupby("Channel")["Score"].sum().idxmax()


# ---- how many members, over orders ------------------------------------------------------------------------------------

@pytest.mark.parametrize("said", ["visits.xlsx how many members do we have", "visits.xlsx 一共多少会员"])
def test_how_many_people_over_other_rows_counts_the_different_ones(visits, said):
    tr = answered(Session(visits), said)
    assert str(_visits()["Member ID"].nunique()) in tr.run.answer
    assert str(len(_visits())) not in tr.run.answer


def test_how_many_people_over_a_table_of_them_counts_its_rows(tmp_path, monkeypatch):
    people = pd.DataFrame({"Member ID": [f"M{i:02d}" for i in range(17)], "Tier": ["Gold", "Silver"] * 8 + ["Gold"]})
    ws = _workspace(tmp_path, monkeypatch, "pandas", "members.xlsx", {"Sheet1": people})
    tr = answered(Session(ws), "members.xlsx how many members do we have")
    assert "17" in tr.run.answer


# ---- the round-54 trials: data of their own ------------------------------------------------------------------------

def _tickets(k: int) -> pd.DataFrame:
    n = 40
    status = ["Resolved Fixed", "Resolved Duplicate", "Open", "Pending", "Resolved Fixed"]
    agents = [["Ana Ruiz", "Ben Ode"], ["Cai Wen", "Dora Fay"]][k]
    return pd.DataFrame({
        "Ticket ID": [f"T-{k}{i:03d}" for i in range(n)],
        "Opened Date": pd.to_datetime([f"2026-0{1 + (i % 6)}-{(i * 3 + k) % 27 + 1:02d}" for i in range(n)]),
        "Resolved Date": pd.to_datetime([f"2026-0{2 + (i % 6)}-{(i * 5 + k) % 27 + 1:02d}" for i in range(n)]),
        "Status": [status[(i + k) % 5] for i in range(n)],
        "Agent": [agents[(i * 3) % 2] for i in range(n)],
        "Cost": [1000 * (5 + (i * 7 + k) % 90) for i in range(n)],
        "Escalated": ["Yes" if (i + 2 * k) % 4 == 0 else "No" for i in range(n)],
    })


DESK = {"North": _tickets(0), "South": _tickets(1)}
DESK_ALL = pd.concat([df.assign(sheet=name) for name, df in DESK.items()], ignore_index=True)


@pytest.fixture(params=["pandas", "duckdb"])
def desk(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "desk.xlsx", DESK)


def _vet(k: int) -> pd.DataFrame:
    n = 36
    return pd.DataFrame({
        "单号": [f"V{k}{i:03d}" for i in range(n)],
        "宠物编号": [f"P{(i * 5 + k) % 17:03d}" for i in range(n)],
        "科目": [["内科", "外科", "皮肤科"][(i + k) % 3] for i in range(n)],
        "就诊类型": [["初次", "复查", "初次", "复查", "初次"][(i * 2 + k) % 5] for i in range(n)],
        "费用": [80 + ((i * 13 + k) % 9) * 20 for i in range(n)],
    })


VET = {"城北": _vet(0), "城南": _vet(1)}


@pytest.fixture(params=["pandas", "duckdb"])
def vet(tmp_path, monkeypatch, request) -> Workspace:
    owners = pd.DataFrame({"宠物编号": [f"P{i:03d}" for i in range(17)], "品种": [["猫", "狗"][i % 2] for i in range(17)]})
    return _workspace(tmp_path, monkeypatch, request.param, "门诊.xlsx", VET, {"宠物.csv": owners})


def test_groups_kept_by_their_row_count_said_as_groups(vet):
    tr = answered(Session(vet), "城北按宠物编号分组计算行数，只保留行数大于2的组")
    counts = _vet(0).groupby("宠物编号").size()
    f = result_frame(tr)
    assert sorted(f["宠物编号"]) == sorted(counts[counts > 2].index)


def test_the_rows_named_by_their_id_column_are_no_unread_word(desk):
    tr = Session(desk).turn("how many tickets are in each Status in North?")
    assert tr.decision.next == "execute", tr.decision.reply
    f = result_frame(tr).set_index("Status").iloc[:, 0]
    assert f.to_dict() == _tickets(0)["Status"].value_counts().to_dict()


@pytest.mark.parametrize(("said", "keep"), [("how many resolved tickets in North", True),
                                            ("North tickets that are not resolved yet", False)])
def test_a_word_that_begins_several_values_is_all_of_them(desk, said, keep):
    tr = answered(Session(desk), said)
    df = _tickets(0)
    hit = df["Status"].str.startswith("Resolved")
    want = int(hit.sum()) if keep else int((~hit).sum())
    got = len(result_frame(tr)) if "how many" not in said else int(next(x for x in tr.run.answer.replace(",", " ").split() if x.isdigit()))
    assert got == want, tr.run.answer


def test_a_verb_that_begins_the_values_is_no_date_column(desk):
    tr = answered(Session(desk), "how many tickets did Ana Ruiz resolve in North?")
    df = _tickets(0)
    want = int(((df["Agent"] == "Ana Ruiz") & df["Status"].str.startswith("Resolved")).sum())
    assert f"{want} rows" in tr.run.answer or f"{want} " in tr.run.answer, tr.run.answer


def test_a_money_range_over_an_id_of_text_is_the_money_column(desk):
    tr = answered(Session(desk), "tickets between 20k and 50k in South, how many and what's the total")
    df = _tickets(1)
    kept = df[df["Cost"].between(20000, 50000)]
    f = result_frame(tr)
    assert int(f.iloc[0]["Cost_sum"]) == int(kept["Cost"].sum())
    assert int(f.iloc[0]["rows"]) == len(kept)


def test_how_many_and_the_total_in_chinese(vet):
    tr = answered(Session(vet), "城南 外科的有几单，总额多少")
    df = _vet(1)
    kept = df[df["科目"] == "外科"]
    f = result_frame(tr)
    assert int(f.iloc[0]["费用_合计"]) == int(kept["费用"].sum()) and int(f.iloc[0]["行数"]) == len(kept)


def test_a_rate_named_by_a_value(vet):
    tr = answered(Session(vet), "城南的复查率是多少")
    df = _vet(1)
    share = (df["就诊类型"] == "复查").mean() * 100
    assert f"{share:.2f}%" in tr.run.answer or f"{share:.1f}%" in tr.run.answer, tr.run.answer


@pytest.mark.parametrize("pivot", [False, True])
def test_two_values_each_said_per_key_split_by_their_column(vet, pivot):
    said = "城北各科目初次和复查分别多少" + ("，做个透视表" if pivot else "")
    f = result_frame(answered(Session(vet), said))
    want = pd.crosstab(_vet(0)["科目"], _vet(0)["就诊类型"])
    if pivot:
        f = f[f["科目"] != "合计"].set_index("科目")
        for cat in want.index:
            assert int(f.loc[cat, "初次"]) == want.loc[cat, "初次"] and int(f.loc[cat, "复查"]) == want.loc[cat, "复查"]
    else:
        got = f.set_index(["科目", "就诊类型"]).iloc[:, 0]
        for (cat, kind), n in want.stack().items():
            assert int(got[(cat, kind)]) == n


def test_keep_only_the_yes_ones_of_a_flag_is_rows(desk):
    tr = answered(Session(desk), "North: keep only the escalated ones and sort by Cost, largest first")
    df = _tickets(0)
    want = df[df["Escalated"] == "Yes"].sort_values("Cost", ascending=False)
    f = result_frame(tr)
    assert len(f) == len(want) and list(f["Cost"]) == list(want["Cost"])


def test_this_merged_table_joined_is_the_result(vet):
    s = Session(vet)
    answered(s, "门诊.xlsx的两个工作表合并")
    tr = answered(s, "把这个合并表和宠物.csv按宠物编号关联，再按品种统计行数")
    both = pd.concat(VET.values(), ignore_index=True)
    owners = pd.DataFrame({"宠物编号": [f"P{i:03d}" for i in range(17)], "品种": [["猫", "狗"][i % 2] for i in range(17)]})
    want = both.merge(owners, on="宠物编号").groupby("品种").size()
    got = result_frame(tr).set_index("品种").iloc[:, 0]
    assert {k: int(v) for k, v in got.items()} == want.to_dict()


def test_a_value_of_another_sheet_counts_over_sheets_stacked(desk):
    tr = answered(Session(desk), "across all sheets of desk.xlsx, total Cost for Ana Ruiz and Dora Fay")
    want = DESK_ALL[DESK_ALL["Agent"].isin(["Ana Ruiz", "Dora Fay"])]["Cost"].sum()
    assert int(result_frame(tr).iloc[0]["Cost_sum"]) == int(want)


@pytest.mark.parametrize("said", ["do you send my data anywhere?", "is my data private?"])
def test_privacy_questions_are_answered(desk, said):
    tr = Session(desk).turn(said)
    assert tr.run is None and "offline" in tr.decision.reply


def test_a_request_given_up_after_a_comma_is_cancelled(desk):
    s = Session(desk)
    s.turn("North margin by agent")
    tr = s.turn("oh we don't track margin, forget it")
    assert tr.run is None and "cancel" in tr.decision.reply.casefold()


@pytest.mark.parametrize("said", ["怎么把刚才生成的文件删掉？", "我是问怎么撤销上一步", "how do I delete the files you made"])
def test_how_to_take_back_a_result_names_undo(vet, said):
    tr = Session(vet).turn(said)
    assert tr.run is None and "/undo" in tr.decision.reply


@pytest.mark.parametrize(("said", "col", "low"), [("the 5 newest tickets in North", "Opened Date", False),
                                                  ("the 5 most recently opened tickets in North", "Opened Date", False),
                                                  ("the 3 earliest resolved tickets in North", "Resolved Date", True)])
def test_the_newest_rows_are_ranked_by_the_date_the_words_name(desk, said, col, low):
    tr = answered(Session(desk), said)
    df = _tickets(0)
    if "resolved" in said:
        df = df[df["Status"].str.startswith("Resolved")]
    n = int(said.split()[1])
    want = df.sort_values(col, ascending=low, kind="stable").head(n)[col]
    assert sorted(pd.to_datetime(result_frame(tr)[col])) == sorted(want)


@pytest.mark.parametrize("said", ["what's the average ticket size in North", "compare the average ticket value of North and South"])
def test_a_rows_size_is_its_money(desk, said):
    tr = answered(Session(desk), said)
    f = result_frame(tr)
    if "compare" in said:
        got = f.set_index("sheet").iloc[:, 0].to_dict()
        assert got == pytest.approx({k: DESK[k]["Cost"].mean() for k in DESK})
    else:
        assert float(f.iloc[0, 0]) == pytest.approx(_tickets(0)["Cost"].mean())


def test_rows_also_included_on_the_same_column_are_either_condition(tmp_path, monkeypatch):
    df = _tickets(0).assign(Discount=[0.0 if i % 3 == 0 else (None if i % 5 == 0 else 10.0) for i in range(40)])
    ws = _workspace(tmp_path, monkeypatch, "pandas", "desk.xlsx", {"North": df})
    s = Session(ws)
    answered(s, "North rows where Discount = 0")
    tr = answered(s, "also include the rows where Discount is blank")
    assert len(result_frame(tr)) == int(((df["Discount"] == 0) | df["Discount"].isna()).sum())


@pytest.mark.parametrize(("said", "bound"), [("门诊.xlsx 等候超过两个小时的有多少", 120), ("门诊.xlsx 等候时长超过1.5小时的有几单", 90)])
def test_a_time_said_in_hours_over_a_column_in_minutes(tmp_path, monkeypatch, said, bound):
    df = _vet(0).assign(**{"等候时长(分钟)": [15 + (i * 37) % 200 for i in range(36)]})
    ws = _workspace(tmp_path, monkeypatch, "pandas", "门诊.xlsx", {"城北": df})
    tr = answered(Session(ws), said)
    assert f"{int((df['等候时长(分钟)'] > bound).sum())}" in tr.run.answer, tr.run.answer


def test_a_request_right_after_a_join_works_on_the_joined_table(tmp_path, monkeypatch):
    agents = pd.DataFrame({"Agent": ["Ana Ruiz", "Ben Ode"], "Team": ["Red", "Blue"]})
    ws = _workspace(tmp_path, monkeypatch, "pandas", "desk.xlsx", DESK, {"agents.csv": agents})
    s = Session(ws)
    answered(s, "join desk.xlsx sheet North with agents.csv on Agent")
    tr = answered(s, "keep only the escalated ones and sort by Cost, largest first")
    want = _tickets(0).merge(agents, on="Agent", how="left")
    want = want[want["Escalated"] == "Yes"].sort_values("Cost", ascending=False)
    f = result_frame(tr)
    assert "Team" in f.columns and list(f["Cost"]) == list(want["Cost"])


def test_a_bound_in_thousands_with_no_column_is_the_money_column(desk):
    tr = answered(Session(desk), "North opportunities over 50k that weren't escalated, sorted by Cost")
    df = _tickets(0)
    want = df[(df["Cost"] > 50000) & (df["Escalated"] != "Yes")]
    assert sorted(result_frame(tr)["Cost"]) == sorted(want["Cost"])


def test_a_column_said_with_an_article_before_its_bound(tmp_path, monkeypatch):
    df = _tickets(0).assign(**{"Discount Pct": [(i * 7) % 30 for i in range(40)]})
    ws = _workspace(tmp_path, monkeypatch, "pandas", "desk.xlsx", {"North": df})
    tr = answered(Session(ws), "North tickets with a discount of at least 15")
    assert len(result_frame(tr)) == int((df["Discount Pct"] >= 15).sum())


# ---- charts of shares, answers that fill what waits, the whole of a workbook named by most of its sheets -------------

CAMPUS = {"本部": _vet(0), "东院": _vet(1), "西院": _vet(2)}
CAMPUS_ALL = pd.concat([df.assign(工作表=name) for name, df in CAMPUS.items()], ignore_index=True)


@pytest.fixture(params=["pandas", "duckdb"])
def campus(tmp_path, monkeypatch, request) -> Workspace:
    return _workspace(tmp_path, monkeypatch, request.param, "门诊.xlsx", CAMPUS)


def _pie_counts(tr) -> dict[str, int]:
    f = result_frame(tr)
    return {str(k): int(v) for k, v in f.set_index(f.columns[0]).iloc[:, 0].items() if str(k) not in ("合计", "总计")}


@pytest.mark.parametrize("said", ["东院初次和复查的比例画个饼图", "东院就诊类型的占比画个饼图"])
def test_a_pie_of_shares_counts_each_slice(campus, said):
    tr = answered(Session(campus), said)
    assert _pie_counts(tr) == _vet(1)["就诊类型"].value_counts().to_dict()


def test_a_count_and_a_key_answer_the_charts_questions(campus):
    s = Session(campus)
    s.turn("东院画个饼图")
    tr = answered(s, "行数，按就诊类型分类")
    assert tr.decision.request.op("chart") is not None
    assert _pie_counts(tr) == _vet(1)["就诊类型"].value_counts().to_dict()


def test_the_file_and_the_key_answer_what_waits(tmp_path, monkeypatch):
    owners = pd.DataFrame({"宠物编号": ["P000"], "品种": ["猫"]})
    s = Session(_workspace(tmp_path, monkeypatch, "pandas", "门诊.xlsx", CAMPUS, {"宠物.csv": owners}))
    first = s.turn("各个类别的占比是多少，用百分比")
    assert first.run is None and first.decision.next == "ask_slots"
    tr = answered(s, "门诊.xlsx，三个表合起来，按科目")
    assert tr.decision.request.op("share") is not None
    shares = CAMPUS_ALL["科目"].value_counts(normalize=True) * 100
    text = tr.run.answer + " ".join(str(x) for x in result_frame(tr).to_numpy().ravel())
    assert f"{shares.iloc[0]:.1f}" in text or f"{shares.iloc[0]:.2f}" in text


@pytest.mark.parametrize("said", ["全院一共多少条记录", "三个院一共多少条记录"])
def test_the_whole_named_by_the_end_most_sheets_share(campus, said):
    tr = answered(Session(campus), said)
    assert str(len(CAMPUS_ALL)) in tr.run.answer


def test_two_of_three_by_that_end_is_not_every_sheet(campus):
    tr = Session(campus).turn("两个院一共多少条记录")
    assert tr.run is None or str(len(CAMPUS_ALL)) not in (tr.run.answer or "")


def test_a_common_word_that_begins_two_places_is_no_value(tmp_path, monkeypatch):
    df = pd.DataFrame({"Order ID": [f"O{i}" for i in range(12)], "City": ["New York", "New Jersey", "Boston"] * 4, "Amount": range(12)})
    ws = _workspace(tmp_path, monkeypatch, "pandas", "orders.xlsx", {"Sheet1": df})
    tr = answered(Session(ws), "orders.xlsx add a new column Double = Amount * 2")
    f = result_frame(tr)
    assert len(f) == 12 and list(f["Double"]) == [a * 2 for a in range(12)]


def test_into_one_csv_is_the_format_written_never_the_csv_files_read(tmp_path, monkeypatch):
    agents = pd.DataFrame({"Agent": ["Ana Ruiz"], "Team": ["Red"]})
    ws = _workspace(tmp_path, monkeypatch, "pandas", "desk.xlsx", DESK, {"agents.csv": agents, "teams.csv": agents})
    tr = answered(Session(ws), "export both sheets combined into one csv")
    assert tr.decision.request.file == "desk.xlsx"
    assert len(result_frame(tr)) == len(DESK_ALL)


def test_a_blank_date_and_a_missing_value_show_blank_in_a_preview():
    from repl.render import _cell

    assert _cell(pd.NaT) == "" and _cell(pd.NA) == "" and _cell(pd.Timestamp("2026-03-04")) == "2026-03-04"


def test_a_chart_of_a_summary_keeps_the_figures_name(vet):
    s = Session(vet)
    answered(s, "城北按科目统计费用合计")
    tr = answered(s, "用这个结果画个柱状图，看各科目费用")
    f = result_frame(tr)
    assert "费用_合计" in f.columns and not any(c.endswith("_合计_合计") for c in f.columns), list(f.columns)
    want = _vet(0).groupby("科目")["费用"].sum()
    assert {k: int(v) for k, v in f.set_index("科目")["费用_合计"].items()} == want.to_dict()


def test_a_columns_word_inside_a_value_is_no_column_left_out(tmp_path, monkeypatch):
    df = _tickets(0).assign(Fixed=["Yes" if i % 2 else "No" for i in range(40)])
    ws = _workspace(tmp_path, monkeypatch, "pandas", "desk.xlsx", {"North": df})
    tr = Session(ws).turn("how many Ana Ruiz tickets are Resolved Fixed?")
    assert tr.decision.next == "execute", tr.decision.reply
    assert str(int(((df["Agent"] == "Ana Ruiz") & (df["Status"] == "Resolved Fixed")).sum())) in tr.run.answer


# ---- round 55, first findings --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("said", "cols"), [("城北一共收了多少费用", ["费用"]), ("城北收了多少费用", ["费用"])])
def test_how_much_of_a_column_said_before_its_name(vet, said, cols):
    tr = answered(Session(vet), said)
    assert f"{int(_vet(0)['费用'].sum())}" in tr.run.answer.replace(",", ""), tr.run.answer


def test_each_sheets_totals_of_the_columns_said_after_how_much(tmp_path, monkeypatch):
    books = {n: _vet(k).assign(药费=[10 * ((i + k) % 5) for i in range(36)]) for k, n in enumerate(["阳光园", "彩虹园", "星星园"])}
    ws = _workspace(tmp_path, monkeypatch, "pandas", "缴费.xlsx", books)
    tr = answered(Session(ws), "缴费.xlsx 每个园分别收了多少费用和药费")
    f = result_frame(tr).set_index("工作表")
    for name, df in books.items():
        assert int(f.loc[name, "费用_合计"]) == int(df["费用"].sum()) and int(f.loc[name, "药费_合计"]) == int(df["药费"].sum())


@pytest.mark.parametrize("said", ["城北哪些记录没填就诊类型", "城北漏填就诊类型的单子"])
def test_a_column_not_filled_in_said_before_it(tmp_path, monkeypatch, said):
    df = _vet(0).assign(就诊类型=[None if i % 7 == 0 else "初次" for i in range(36)])
    ws = _workspace(tmp_path, monkeypatch, "pandas", "门诊.xlsx", {"城北": df})
    tr = answered(Session(ws), said)
    assert len(result_frame(tr)) == int(df["就诊类型"].isna().sum())


def test_a_word_inside_a_files_name_names_that_file(tmp_path, monkeypatch):
    ws = _workspace(tmp_path, monkeypatch, "pandas", "宠物医院缴费2026.xlsx", {"城北": _vet(0)},
                    {"宠物.csv": pd.DataFrame({"宠物编号": ["P000"], "品种": ["猫"]})})
    tr = Session(ws).turn("看一下缴费那个表")
    assert tr.decision.request.file == "宠物医院缴费2026.xlsx", tr.decision.reply


# ---- round 55: a numbered place, each month, per <sheet noun> beside another table, statistics per column ------------

def _orders(k: int) -> pd.DataFrame:
    n = 48
    return pd.DataFrame({
        "WO": [f"W{k}{i:03d}" for i in range(n)],
        "Opened On": pd.to_datetime([f"2026-{1 + (i * 5 + k) % 12:02d}-{1 + (i * 3) % 27:02d}" for i in range(n)]),
        "Closed On": pd.to_datetime([f"2026-{1 + (i * 7 + k) % 12:02d}-{2 + (i * 5) % 26:02d}" for i in range(n)]),
        "Unit": [100 + (i * 7 + k) % 9 for i in range(n)],
        "Priority": [["Low", "High", "Emergency", "Low"][(i + k) % 4] for i in range(n)],
        "Labor Hours": [0.5 + ((i * 3 + k) % 8) * 0.5 for i in range(n)],
        "Parts Cost": [10 + (i * 13 + k) % 90 for i in range(n)],
    })


TOWERS = {"Harbor": _orders(0), "Elm": _orders(1)}
TOWERS_ALL = pd.concat([df.assign(sheet=n) for n, df in TOWERS.items()], ignore_index=True)


@pytest.fixture(params=["pandas", "duckdb"])
def towers(tmp_path, monkeypatch, request) -> Workspace:
    units = pd.DataFrame({"Building": ["Harbor", "Elm"] * 3, "Unit": [100, 101, 102, 103, 104, 105], "Rent": [1000, 1100, 1200, 1300, 1400, 1500]})
    return _workspace(tmp_path, monkeypatch, request.param, "orders_2026.xlsx", TOWERS, {"units.csv": units})


def test_a_number_after_a_column_that_numbers_places_is_that_one(towers):
    tr = answered(Session(towers), "show Harbor work orders for unit 104")
    assert sorted(result_frame(tr)["WO"]) == sorted(_orders(0)[_orders(0)["Unit"] == 104]["WO"])


@pytest.mark.parametrize("said", ["Harbor: how many work orders were opened each month?", "how many orders were opened each month, all sheets?"])
def test_each_month_counts_the_rows_of_the_date_the_verb_names(towers, said):
    tr = answered(Session(towers), said)
    df = _orders(0) if said.startswith("Harbor") else TOWERS_ALL
    want = df.groupby(df["Opened On"].dt.month).size()
    f = result_frame(tr)
    assert len(f) == len(want) and sorted(int(x) for x in f.iloc[:, -1]) == sorted(int(x) for x in want)


def test_a_share_per_sheet_noun_another_tables_column_holds(towers):
    tr = answered(Session(towers), "what share of work orders are emergencies, per building?")
    for name, df in TOWERS.items():
        said = f"{(df['Priority'] == 'Emergency').mean() * 100:.2f}".rstrip("0").rstrip(".")
        assert f"{name} " in tr.run.answer and said in tr.run.answer, tr.run.answer


def test_each_column_its_own_statistic(towers):
    tr = answered(Session(towers), "Harbor: total Parts Cost and median Labor Hours per Priority")
    f = result_frame(tr).set_index("Priority")
    df = _orders(0)
    for key, g in df.groupby("Priority"):
        assert float(f.loc[key, "Parts Cost_sum"]) == pytest.approx(g["Parts Cost"].sum())
        assert float(f.loc[key, "Labor Hours_median"]) == pytest.approx(g["Labor Hours"].median())


def test_each_column_its_own_statistic_in_chinese(tmp_path, monkeypatch):
    df = _vet(0).assign(药费=[5 * ((i * 7) % 11) for i in range(36)])
    ws = _workspace(tmp_path, monkeypatch, "pandas", "门诊.xlsx", {"城北": df})
    tr = answered(Session(ws), "门诊.xlsx 按科目统计费用合计和药费中位数")
    f = result_frame(tr).set_index("科目")
    for key, g in df.groupby("科目"):
        assert float(f.loc[key, "费用_合计"]) == pytest.approx(g["费用"].sum())
        assert float(f.loc[key, "药费_中位数"]) == pytest.approx(g["药费"].median())


@pytest.mark.parametrize("swap", ["use the median instead of the average", "use the median instead of the mean"])
def test_a_statistic_swapped_for_the_one_named_keeps_the_others(towers, swap):
    s = Session(towers)
    answered(s, "Harbor: total Parts Cost per Priority")
    answered(s, "and the average Labor Hours per Priority as well")
    tr = answered(s, swap)
    df = _orders(0)
    f = result_frame(tr)
    figures = [c for c in f.columns if c != "Priority"]
    assert any("Parts Cost" in c and "sum" in c for c in figures), figures
    assert any("Labor Hours" in c and "median" in c for c in figures) or "median" in (tr.run.answer or ""), (figures, tr.run.answer)
    assert not any("Parts Cost" in c and "median" in c for c in figures)
    totals = df.groupby("Priority")["Parts Cost"].sum()
    assert sorted(float(x) for x in f[next(c for c in figures if "Parts Cost" in c)]) == pytest.approx(sorted(float(x) for x in totals))


def test_a_tables_word_before_its_column_brings_that_column(tmp_path, monkeypatch):
    pets = pd.DataFrame({"宠物编号": [f"P{i:03d}" for i in range(17)], "姓名": [f"宠{i}" for i in range(17)]})
    books = {"城北": _vet(0), "城南": _vet(1)}
    ws = _workspace(tmp_path, monkeypatch, "pandas", "门诊缴费.xlsx", books, {"宠物.csv": pets})
    tr = answered(Session(ws), "带上宠物姓名，把城北复查的记录列出来")
    f = result_frame(tr)
    want = _vet(0)[_vet(0)["就诊类型"] == "复查"].merge(pets, on="宠物编号", how="left")
    assert len(f) == len(want) and "姓名" in f.columns
    assert sorted(f["姓名"].astype(str)) == sorted(want["姓名"].astype(str))


def test_whole_numbers_in_a_column_with_blanks_are_written_whole():
    from tools.write import csv_bytes

    out = csv_bytes(pd.DataFrame({"家长电话": [18106538337.0, None, 13479851099.0], "学费": [1680.5, 2800.0, None]})).decode("utf-8-sig")
    assert "18106538337" in out and "e+" not in out and "1680.5" in out


@pytest.mark.parametrize("chart", ["make a bar chart of that", "draw a chart of it"])
def test_a_chart_of_the_summary_that_waits(towers, chart):
    s = Session(towers)
    first = s.turn("Harbor: total Parts Cost by Priority")
    assert first.run is None or first.decision.next == "execute"
    tr = answered(s, chart)
    assert tr.decision.request.op("chart") is not None
    f = result_frame(tr).set_index("Priority")
    want = _orders(0).groupby("Priority")["Parts Cost"].sum()
    assert {k: float(v) for k, v in f.iloc[:, 0].items()} == pytest.approx(want.to_dict())



@pytest.mark.parametrize(("then", "by_rows"), [("哪个月最多", False), ("哪个月笔数最多", True)])
def test_which_month_is_most_after_the_months_totals(tmp_path, monkeypatch, then, by_rows):
    months = [3] * 8 + [7] * 5 + [1 + i % 12 for i in range(23) if 1 + i % 12 not in (3, 7)][:23]
    months += [1] * (36 - len(months))
    fees = [10] * 8 + [500] * 5 + [40] * (36 - 13)  # 3月 has the most rows, 7月 the largest total
    df = _vet(0).assign(日期=pd.to_datetime([f"2026-{m:02d}-{1 + i % 27:02d}" for i, m in enumerate(months)]), 费用=fees)
    s = Session(_workspace(tmp_path, monkeypatch, "pandas", "门诊.xlsx", {"城北": df}))
    s.turn("城北每个月收的费用是多少")
    tr = answered(s, then)
    month = df.groupby(df["日期"].dt.month)
    want = (month.size() if by_rows else month["费用"].sum()).idxmax()
    assert want == (3 if by_rows else 7)
    assert str(result_frame(tr).iloc[0, 0]).endswith(f"-{want:02d}"), (result_frame(tr), want)


def test_i_mean_is_a_correction_never_an_introduction(vet):
    s = Session(vet)
    s.turn("城北每个科目的费用合计")
    tr = s.turn("我是说费用最高的科目")
    assert "我是问清" not in tr.decision.reply and tr.decision.next != "reply"


@pytest.mark.parametrize("said", ["没有就算了", "哦没有这列啊，那算了", "那就算了"])
def test_a_cancel_said_after_that_or_then_cancels(vet, said):
    s = Session(vet)
    first = s.turn("城北按家长职业统计人数")
    assert first.run is None
    tr = s.turn(said)
    assert tr.run is None and tr.decision.next == "cancel", tr.decision.reply


def test_two_values_how_many_each_counts_each(vet):
    tr = answered(Session(vet), "城北 初次和复查各多少")
    f = result_frame(tr).set_index("就诊类型").iloc[:, 0]
    assert {k: int(v) for k, v in f.items()} == _vet(0)["就诊类型"].value_counts().to_dict()


@pytest.mark.parametrize("said", ["城北 算一下实收，就是费用加药费减去减免，加一列", "城北 加一列实收，就是费用加药费减去减免"])
def test_a_column_defined_in_words_before_or_after_the_words_that_add_it(tmp_path, monkeypatch, said):
    df = _vet(0).assign(药费=[5 * (i % 7) for i in range(36)], 减免=[10 * (i % 3) for i in range(36)])
    ws = _workspace(tmp_path, monkeypatch, "pandas", "门诊.xlsx", {"城北": df})
    f = result_frame(answered(Session(ws), said))
    assert "实收" in f.columns
    assert list(f["实收"]) == pytest.approx(list(df["费用"] + df["药费"] - df["减免"]))


# ---- split the rows into sheets -----------------------------------------------------------------------------------

@pytest.mark.parametrize("said", ["把城北的数据按科目拆成几个sheet导出", "城北一个科目一个工作表"])
def test_rows_split_into_sheets_by_a_column(vet, said):
    tr = answered(Session(vet), said)
    assert tr.decision.request.op("split_sheets") is not None
    path = next(f["path"] for f in tr.run.files if f["path"].endswith(".xlsx"))
    book = pd.read_excel(vet.root / path, sheet_name=None)
    want = _vet(0)["科目"].value_counts().to_dict()
    got = {k: len(v) for k, v in book.items() if k in want}
    assert got == want
    for name, df in book.items():
        if name in want:
            assert set(df["科目"]) == {name}


def test_rows_split_into_sheets_in_english(desk):
    tr = answered(Session(desk), "split the North sheet into separate sheets by Status")
    path = next(f["path"] for f in tr.run.files if f["path"].endswith(".xlsx"))
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in path), path
    book = pd.read_excel(desk.root / path, sheet_name=None)
    assert {k: len(v) for k, v in book.items() if k in set(_tickets(0)["Status"])} == _tickets(0)["Status"].value_counts().to_dict()


def test_the_other_values_each_counted(vet):
    tr = answered(Session(vet), "城北除了内科以外的科目，各有几笔")
    df = _vet(0)
    want = df[df["科目"] != "内科"]["科目"].value_counts().to_dict()
    assert {k: int(v) for k, v in result_frame(tr).set_index("科目").iloc[:, 0].items()} == want


def test_a_files_name_inside_one_of_its_values_is_that_value(tmp_path, monkeypatch):
    staff = pd.DataFrame({"姓名": ["甲", "乙", "丙", "丁"], "职务": ["主班老师", "配班老师", "主班老师", "财务"]})
    ws = _workspace(tmp_path, monkeypatch, "pandas", "缴费.xlsx", {"城北": _vet(0)}, {"老师.csv": staff})
    tr = answered(Session(ws), "老师.csv 职务是“主班老师”的有几个")
    assert "2" in tr.run.answer and tr.decision.request.file == "老师.csv"


def test_a_tables_word_before_its_column_brings_it_with_a_file_in_use(tmp_path, monkeypatch):
    pets = pd.DataFrame({"宠物编号": [f"P{i:03d}" for i in range(17)], "姓名": [f"宠{i}" for i in range(17)]})
    ws = _workspace(tmp_path, monkeypatch, "pandas", "门诊缴费.xlsx", {"城北": _vet(0), "城南": _vet(1)}, {"宠物.csv": pets})
    s = Session(ws)
    answered(s, "城北的复查率是多少")
    tr = answered(s, "带上宠物姓名，把城北复查的记录列出来")
    want = _vet(0)[_vet(0)["就诊类型"] == "复查"].merge(pets, on="宠物编号", how="left")
    f = result_frame(tr)
    assert "姓名" in f.columns and sorted(f["姓名"].astype(str)) == sorted(want["姓名"].astype(str))
