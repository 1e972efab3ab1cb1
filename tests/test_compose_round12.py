"""How requests compose (round 12): a join whose key is said in its own clause before the rest of the request, and a
join with no key said over two tables that share exactly one column. Each result recomputed with pandas."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame

from engine.session import Session
from tools.workspace import Workspace

VISITS = pd.DataFrame({"回访编号": [f"V{i}" for i in range(1, 9)], "工单号": ["W1", "W2", "W3", "W4", "W5", "W6", "W7", "W9"],
                       "门店": ["东店", "西店", "东店", "南店", "西店", "东店", "南店", "北店"],
                       "满意度评分": [4.0, 3.5, None, 5.0, 2.5, 4.5, 3.0, 4.0]})
TICKETS = pd.DataFrame({"工单号": [f"W{i}" for i in range(1, 9)], "维修类型": ["保养", "钣喷", "保养", "机修", "钣喷", "机修", "保养", "机修"],
                        "工时费_元": [300, 1800, 280, 900, 1750, 950, 310, 880]})
STORES = pd.DataFrame({"门店": ["东店", "西店", "南店", "北店"], "城市": ["上海", "杭州", "上海", "南京"], "开业年份": [2012, 2018, 2014, 2020]})


@pytest.fixture(params=["pandas", "duckdb"])
def ws(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    VISITS.to_excel(tmp_path / "客户回访.xlsx", index=False)
    TICKETS.to_csv(tmp_path / "维修工单.csv", index=False)
    STORES.to_excel(tmp_path / "门店信息.xlsx", index=False)
    return Workspace.at(tmp_path)


@pytest.mark.parametrize("text", [
    "客户回访.xlsx 关联 维修工单.csv，按工单号关联，满意度评分不为空，按维修类型求满意度评分平均",
    "客户回访.xlsx和维修工单.csv按工单号关联，按维修类型求满意度评分平均",
])
def test_a_join_key_said_in_its_own_clause_stays_the_joins_and_the_rest_runs_on_the_joined_table(ws, text):
    tr = answered(Session(ws), text)
    r = tr.decision.request
    assert r.op("join").args["on"] == "工单号", r.ops
    assert "没理解" not in tr.decision.reply
    want = VISITS.merge(TICKETS, on="工单号", how="left").dropna(subset=["满意度评分"]).groupby("维修类型")["满意度评分"].mean()
    got = result_frame(tr).dropna(subset=[result_frame(tr).columns[0]])  # the visit matched to no ticket is a group of its own
    assert dict(zip(got.iloc[:, 0], got.iloc[:, 1], strict=True)) == pytest.approx(want.to_dict())


def test_two_tables_sharing_one_column_are_joined_on_it_and_the_answer_says_so(ws):
    tr = answered(Session(ws), "客户回访.xlsx 关联 门店信息.xlsx，开业年份小于2015，按门店求满意度评分平均")
    join = tr.decision.request.op("join")
    assert join is not None and join.args["on"] == "门店", tr.decision.request.ops
    m = VISITS.merge(STORES, on="门店", how="left")
    want = m[m["开业年份"] < 2015].groupby("门店")["满意度评分"].mean()
    got = result_frame(tr)
    assert dict(zip(got.iloc[:, 0], got.iloc[:, 1], strict=True)) == pytest.approx(want.to_dict())
    assert "两张表共有的列只有它" in tr.plan.goalSummary, tr.plan.goalSummary  # what the brief notice before the run says


def test_tables_sharing_several_columns_still_ask_which_key(ws, tmp_path):
    TICKETS.assign(门店="东店").to_csv(tmp_path / "维修工单.csv", index=False)
    tr = Session(Workspace.at(tmp_path)).turn("客户回访.xlsx 关联 维修工单.csv，按维修类型求满意度评分平均")
    assert "join_key" in tr.decision.request.missing


@pytest.mark.parametrize("text", ["门店信息.xlsx 新增列 店龄 = 2024 - 开业年份", "门店信息.xlsx 加一列 店龄，等于 2024减开业年份",
                                  "in 门店信息.xlsx add a column 店龄 = 2024 - 开业年份"])
def test_a_number_minus_a_column_is_a_computed_column_never_a_column_named_by_the_number(ws, text):
    tr = answered(Session(ws), text)
    got = result_frame(tr)
    assert got["店龄"].tolist() == (2024 - STORES["开业年份"]).tolist()


@pytest.mark.parametrize("text", ["维修工单.csv 里哪些维修类型的工单超过2单", "维修工单.csv 按维修类型计数，只保留超过2单的",
                                  "维修工单.csv 超过2单的维修类型有哪些", "维修工单.csv 工时费_元不低于300的工单，按维修类型计数，只保留多于2单的维修类型"])
def test_a_bound_counted_in_rows_keeps_the_groups_with_that_many_rows(ws, text):
    tr = answered(Session(ws), text)
    rows = TICKETS[TICKETS["工时费_元"] >= 300] if "不低于" in text else TICKETS
    counts = rows.groupby("维修类型").size()
    got = result_frame(tr)
    assert sorted(got.iloc[:, 0]) == sorted(counts[counts > 2].index), got


def test_a_figure_followed_by_a_classifier_stays_a_condition_on_rows(ws):
    tr = answered(Session(ws), "维修工单.csv 里工时费_元超过900个的工单")
    assert [o.kind for o in tr.decision.request.ops] == ["filter"], tr.decision.request.ops
    assert len(result_frame(tr)) == int((TICKETS["工时费_元"] > 900).sum())


BILLS = pd.DataFrame({"单号": range(1, 9), "结算状态": ["已结算", "未结算", "挂账", "未结算", "已结算", "挂账", "未结算", "已结算"],
                      "发货": ["已发货", "未发货", "未发货", "已发货", "已发货", "未发货", "已发货", "已发货"]})


@pytest.mark.parametrize("text,want", [
    ("账单.csv 有多少单还没结算？", {"未结算"}),
    ("账单.csv 有多少单还没结算？挂账的也算上", {"未结算", "挂账"}),
    ("账单.csv 尚未结算的有几单", {"未结算"}),
])
def test_a_value_said_as_not_yet_done_is_the_tables_not_yet_value(tmp_path, text, want):
    BILLS.to_csv(tmp_path / "账单.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), text)
    assert str(int(BILLS["结算状态"].isin(want).sum())) in tr.run.answer, tr.run.answer


@pytest.mark.parametrize("then", ["把这个表转置", "行和列换一下", "transpose this table"])
def test_a_transpose_right_after_a_summary_turns_the_summary_never_the_source_file(ws, then):
    s = Session(ws)
    answered(s, "维修工单.csv 按维修类型汇总工时费_元")
    tr = answered(s, then)
    got = result_frame(tr)
    want = TICKETS.groupby("维修类型")["工时费_元"].sum()
    assert got.shape[0] <= 3, got  # the summary's rows are now its columns
    for k, v in want.items():
        assert float(got[k].iloc[0]) == pytest.approx(v), got


def test_a_transpose_right_after_a_pivot_puts_its_rows_across(ws):
    s = Session(ws)
    answered(s, "维修工单.csv 做透视表，行是维修类型，列是工单号，值是工时费_元合计")
    got = result_frame(answered(s, "把这个表转置"))
    want = TICKETS.pivot_table(index="维修类型", columns="工单号", values="工时费_元", aggfunc="sum")
    assert {"保养", "钣喷", "机修"} <= {str(c) for c in got.columns}, got
    assert len(got) >= len(TICKETS), got  # one row per ticket (and the pivot's own total)
    w1 = got[got.iloc[:, 0].astype(str) == "W1"]
    assert float(w1["保养"].iloc[0]) == pytest.approx(want.loc["保养", "W1"])


def test_a_mode_with_ties_lists_every_tied_value_or_says_how_many_more(tmp_path):
    sales = pd.DataFrame({"顾问": ["李"] * 8 + ["王"] * 14, "车型": list("ABCDABCD") + list("ABCDEFG") * 2})
    sales.to_csv(tmp_path / "销售.csv", index=False)
    got = result_frame(answered(Session(Workspace.at(tmp_path)), "销售.csv 按顾问求车型的众数"))
    cell = {r.iloc[0]: str(r.iloc[-1]) for _, r in got.iterrows()}
    assert set(cell["李"].split("、")) == {"A", "B", "C", "D"}, got  # four tied: all four, none cut
    assert cell["王"].endswith("…(+2)") and len(cell["王"].split("…")[0].split("、")) == 5, got  # seven tied: five and how many more


ROSTER = pd.DataFrame({"姓名": list("甲乙丙丁戊己庚辛壬癸"), "性别": ["女", "男", "女", "男", "女", "男", "女", "男", "女", "男"],
                       "岗位": ["厨师", "厨师", "厨师", "厨师", "服务员", "服务员", "厨师", "收银", "服务员", "厨师"],
                       "时薪_元": [30, 34, 32, 40, 22, 21, 31, 25, 23, 38]})


@pytest.mark.parametrize("text", ["花名册.csv 里女性厨师的平均时薪和男性厨师比，哪个高", "花名册.csv 里男女厨师的平均时薪差多少",
                                  "花名册.csv 里女厨师和男厨师的平均时薪哪个高"])
def test_two_values_compared_on_one_figure_give_the_figure_per_value(tmp_path, text):
    ROSTER.to_csv(tmp_path / "花名册.csv", index=False)
    got = result_frame(answered(Session(Workspace.at(tmp_path)), text))
    want = ROSTER[ROSTER["岗位"] == "厨师"].groupby("性别")["时薪_元"].mean()
    assert dict(zip(got["性别"], got.iloc[:, 1], strict=True)) == pytest.approx(want.to_dict()), got


PAYMENTS = pd.DataFrame({"payment_id": range(1, 11), "method": ["card", "paypal", "card", "card", "paypal", "bank", "card", "bank", "paypal", "card"],
                         "amount_usd": [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0],
                         "refunded": ["no", "no", "yes", "no", "yes", "no", "no", "no", "no", "yes"]})


@pytest.mark.parametrize("first,then", [
    ("payments.csv total amount_usd excluding refunded = yes", "by payment method"),
    ("payments.csv total amount_usd excluding refunded = yes", "break it down by method"),
    ("payments.csv 里 refunded 不是 yes 的 amount_usd 合计", "按method拆开看"),
    ("payments.csv 里 refunded 不是 yes 的 amount_usd 合计", "那按 method 呢"),
])
def test_keys_said_alone_after_a_total_give_the_same_total_per_key(tmp_path, first, then):
    PAYMENTS.to_csv(tmp_path / "payments.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, first)
    got = result_frame(answered(s, then))
    want = PAYMENTS[PAYMENTS["refunded"] != "yes"].groupby("method")["amount_usd"].sum()
    assert dict(zip(got["method"], got.iloc[:, 1], strict=True)) == pytest.approx(want.to_dict()), got


def test_a_number_column_with_several_rough_figures_is_summed_and_the_rough_cells_are_said(tmp_path):
    fees = [float(100 + 7 * i) for i in range(60)]
    cells: list[object] = [str(int(v)) for v in fees]
    for i, rough in zip((3, 17, 25, 40, 48, 55), ("约120", "约350", "约80", "大约90", "约400", "约60"), strict=True):
        cells[i] = rough
    cells[10] = None
    pd.DataFrame({"小区": ["东"] * 30 + ["西"] * 30, "维修费_元": cells, "面积_平米": [80 + i for i in range(60)]}).to_csv(tmp_path / "报修.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "报修.csv 维修费_元加起来是多少")
    nums = pd.to_numeric(pd.Series(cells), errors="coerce")
    assert f"{nums.sum():,.0f}".replace(",", "") in tr.run.answer.replace(",", ""), tr.run.answer
    assert any("6 行" in n and "约120" in n for n in tr.run.notes), tr.run.notes  # the six rough cells left out, and said


def test_a_column_with_an_area_unit_is_named_by_its_head_word(tmp_path):
    pd.DataFrame({"小区": ["东", "西", "东"], "面积_平米": [80.0, 100.0, 90.0]}).to_csv(tmp_path / "住户.csv", index=False)
    tr = Session(Workspace.at(tmp_path)).turn("住户.csv 各小区平均面积多少")
    assert tr.run is not None and dict(zip(*[result_frame(tr).iloc[:, i] for i in (0, 1)], strict=True)) == {"东": 85.0, "西": 100.0}


FEES = pd.DataFrame({"小区": ["东苑", "西苑", "东苑", "南苑", "西苑", "东苑"], "应收金额": [100.0, 200.0, 150.0, 300.0, 250.0, 120.0],
                     "实收金额": [90.0, 150.0, 150.0, 240.0, 250.0, 60.0]})


def test_an_amount_named_without_its_word_and_a_column_added_next_works_on_the_summary(tmp_path):
    FEES.to_csv(tmp_path / "物业费.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    first = answered(s, "物业费.csv 按小区算应收和实收的合计")
    assert [m["column"] for m in first.decision.request.op("group").args["measures"]] == ["应收金额", "实收金额"]
    tr = answered(s, "再加一列收缴率，等于实收除以应收")
    got = result_frame(tr)
    sums = FEES.groupby("小区")[["应收金额", "实收金额"]].sum()
    want = (sums["实收金额"] / sums["应收金额"]).to_dict()
    assert len(got) == len(want) and dict(zip(got["小区"], got["收缴率"], strict=True)) == pytest.approx(want, abs=1e-4), got


def test_a_statistical_test_leaves_the_tables_own_total_row_out_and_says_so(tmp_path):
    from scipy import stats

    scores = [60 + (i * 37) % 41 for i in range(40)]
    frame = pd.DataFrame({"student_id": [f"S{i}" for i in range(40)] + ["Total"], "score": scores + [sum(scores)]})
    frame.to_excel(tmp_path / "quiz.xlsx", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "are the scores in quiz.xlsx normally distributed?")
    want = stats.shapiro(scores)
    assert f"{want.statistic:.4f}"[:5] in tr.run.answer and "total row" in tr.run.answer, tr.run.answer


def _terms(tmp_path):
    terms = {n: pd.DataFrame({"course_id": ["C1", "C2", "C3", "C1", "C2", "C3"], "score": [v + k for k in (0, 10, 20, 5, 15, 25)]})
             for n, v in (("Spring", 50), ("Summer", 60), ("Fall", 70))}
    with pd.ExcelWriter(tmp_path / "quiz.xlsx") as w:
        for n, t in terms.items():
            t.to_excel(w, sheet_name=n, index=False)
    return terms


def test_two_sheets_named_with_the_workbook_in_focus_are_stacked(tmp_path):
    terms = _terms(tmp_path)
    s = Session(Workspace.at(tmp_path))
    answered(s, "quiz.xlsx 的 Summer 表有多少行")
    got = result_frame(answered(s, "sheets Spring and Fall only, average score per course_id"))
    want = pd.concat([terms["Spring"], terms["Fall"]]).groupby("course_id")["score"].mean()
    assert dict(zip(got["course_id"], got.iloc[:, 1], strict=False)) == pytest.approx(want.to_dict()), got


def test_an_answer_to_which_sheet_that_says_the_whole_request_keeps_all_of_it(tmp_path):
    terms = _terms(tmp_path)
    s = Session(Workspace.at(tmp_path))
    assert "sheet" in s.turn("quiz.xlsx average score").decision.request.missing
    got = result_frame(answered(s, "no: sheets Spring and Fall only, average score per course_id"))
    want = pd.concat([terms["Spring"], terms["Fall"]]).groupby("course_id")["score"].mean()
    assert dict(zip(got["course_id"], got.iloc[:, 1], strict=False)) == pytest.approx(want.to_dict()), got


@pytest.mark.parametrize("then", ["就用刚才那个结果，横轴维修类型，画行数的柱状图", "把这个结果画成柱状图"])
def test_a_chart_of_a_count_summary_draws_its_counts_never_ones(ws, then):
    s = Session(ws)
    answered(s, "维修工单.csv 按维修类型计数")
    tr = answered(s, then)
    got = result_frame(tr)
    want = TICKETS.groupby("维修类型").size()
    assert dict(zip(got.iloc[:, 0], got.iloc[:, 1], strict=True)) == want.to_dict(), got  # the figure drawn


COURSES = pd.DataFrame({"course_id": [f"C{i}" for i in range(8)], "level": ["Beginner", "Beginner", "Advanced", "Advanced", "Beginner", "Intermediate", "Advanced", "Intermediate"],
                        "price_usd": [0, 120, 90, 0, 80, 60, 110, 0]})


def test_an_answer_to_what_was_not_understood_joins_the_waiting_request(tmp_path):
    COURSES.to_csv(tmp_path / "courses.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    first = s.turn("average price per level in courses.csv, excluding freebie courses")
    assert first.decision.next == "restate_confirm" and first.decision.request.unexplained, first.decision.reply
    tr = answered(s, "price_usd not 0")
    got = result_frame(tr)
    want = COURSES[COURSES["price_usd"] != 0].groupby("level")["price_usd"].mean()
    assert dict(zip(got["level"], got.iloc[:, 1], strict=True)) == pytest.approx(want.to_dict()), got


def test_a_cut_said_again_after_a_restatement_that_did_not_read_it_keeps_the_condition(ws):
    s = Session(ws)
    first = s.turn("维修工单.csv 保养和机修的单子，拖得最久的3个")
    if first.decision.next != "restate_confirm" or not first.decision.request.unexplained:
        pytest.skip("read whole the first time")
    got = result_frame(answered(s, "就是工时费_元最高的3个"))
    want = TICKETS[TICKETS["维修类型"].isin(["保养", "机修"])].nlargest(3, "工时费_元")
    assert sorted(got["工单号"]) == sorted(want["工单号"]), got


@pytest.mark.parametrize("then", ["now average price_usd per level on that", "在这个基础上按level算price_usd平均"])
def test_on_that_and_on_this_basis_work_on_the_last_result(tmp_path, then):
    COURSES.to_csv(tmp_path / "courses.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "courses.csv where price_usd is not 0")
    got = result_frame(answered(s, then))
    want = COURSES[COURSES["price_usd"] != 0].groupby("level")["price_usd"].mean()
    assert dict(zip(got["level"], got.iloc[:, 1], strict=True)) == pytest.approx(want.to_dict()), got


ENROLL = pd.DataFrame({"enrollment_id": range(1, 21), "country": ["US", "IN", "IN", "UK", "DE", "IN", "UK", "US", "BR", "DE", "IN", "UK", "BR", "CA", "US", "DE", "IN", "FR", "UK", "IN"],
                       "completed_on": ["2024-01-05", None, "2024-02-01", "2024-02-03", None, "2024-03-01", "2024-03-05", "2024-03-09", "2024-04-01", "2024-04-02",
                                        "2024-04-05", None, "2024-05-01", "2024-05-02", "2024-05-03", "2024-06-01", "2024-06-02", "2024-06-03", "2024-06-04", None]})


@pytest.mark.parametrize("text", ["enrollments.csv: count rows by country excluding US, completed_on not blank, top 3",
                                  "enrollments.csv where completed_on is not blank and country is not US, count rows by country, top 3",
                                  "enrollments.csv completed_on 不为空且 country 不是 US，按country计数，取前3"])
def test_top_n_after_a_count_by_key_ranks_the_keys_never_rows_by_a_date_of_a_condition(tmp_path, text):
    ENROLL.to_csv(tmp_path / "enrollments.csv", index=False)
    got = result_frame(answered(Session(Workspace.at(tmp_path)), text))
    rows = ENROLL[ENROLL["completed_on"].notna() & (ENROLL["country"] != "US")]
    want = rows.groupby("country").size().sort_values(ascending=False)
    assert len(got) == 3 and list(got.iloc[:, -1]) == list(want.iloc[:3]), got
    assert got.iloc[0, 0] == want.index[0]


@pytest.mark.parametrize("then,n,largest", [("那最高的2个呢", 2, True), ("那前3个呢", 3, False), ("what about the top 2", 2, True)])
def test_another_cut_after_a_cut_asks_the_same_summary_never_the_cut_rows(ws, then, n, largest):
    s = Session(ws)
    answered(s, "维修工单.csv 按维修类型算工时费_元合计，取最小的2个")
    got = result_frame(answered(s, then))
    sums = TICKETS.groupby("维修类型")["工时费_元"].sum()
    want = sums.nlargest(n) if largest else sums.nsmallest(n)
    assert list(got.iloc[:, 0]) == list(want.index), got


@pytest.mark.parametrize("text", ["维修工单.csv 每种维修类型有多少单，按单数从多到少排", "维修工单.csv count by 维修类型, sort by count descending"])
def test_a_sort_by_the_count_word_after_a_count_sorts_by_the_count(ws, text):
    got = result_frame(answered(Session(ws), text))
    want = TICKETS.groupby("维修类型").size().sort_values(ascending=False, kind="stable")
    assert list(got.iloc[:, -1]) == list(want.values), got


def test_a_files_stem_that_is_a_column_of_the_other_file_named_is_that_column(tmp_path):
    TICKETS.assign(小区=["东苑", "西苑", "东苑", "南苑", "西苑", "东苑", "南苑", "西苑"]).to_csv(tmp_path / "报修工单.csv", index=False)
    pd.DataFrame({"小区": ["东苑", "西苑", "南苑"], "区域": ["东", "西", "南"]}).to_csv(tmp_path / "小区.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "报修工单里不是保养的，每个小区有多少单")
    assert tr.decision.request.files in ((), ("报修工单.csv",)) and tr.decision.request.file == "报修工单.csv", tr.decision.request
    got = result_frame(tr)
    t = TICKETS.assign(小区=["东苑", "西苑", "东苑", "南苑", "西苑", "东苑", "南苑", "西苑"])
    want = t[t["维修类型"] != "保养"].groupby("小区").size()
    assert dict(zip(got["小区"], got.iloc[:, -1], strict=True)) == want.to_dict()


@pytest.mark.parametrize("then", ["画个柱状图", "make a bar chart", "画个折线图"])
def test_a_chart_asked_with_nothing_named_right_after_a_summary_draws_the_summary(ws, then):
    s = Session(ws)
    answered(s, "维修工单.csv 按维修类型算工时费_元合计")
    got = result_frame(answered(s, then))
    want = TICKETS.groupby("维修类型")["工时费_元"].sum()
    assert dict(zip(got.iloc[:, 0], got.iloc[:, 1], strict=True)) == want.to_dict(), got


@pytest.mark.parametrize("text", ["你好，我是维修部的小王，今天要弄几个表", "hi, I'm the new analyst here, will be working on some sheets today"])
def test_a_greeting_that_says_who_is_speaking_is_answered_as_chat(ws, text):
    tr = Session(ws).turn(text)
    assert tr.decision.gate == "chat" and tr.run is None, tr.decision.reply


def test_a_request_that_starts_with_i_am_is_still_a_request(ws):
    tr = Session(ws).turn("I'm looking for the total 工时费_元 in 维修工单.csv")
    assert tr.decision.gate == "act", tr.decision.reply


def test_figures_typed_as_text_cells_are_numbers_and_ids_typed_as_text_stay_text(tmp_path):
    from openpyxl import Workbook

    wb = Workbook()
    ws_ = wb.active
    ws_.title = "Summer"
    ws_.append(["student_id", "course_id", "score"])
    scores = [72, 88.5, 91, 64, 70.5, 83, 77, 95, 58, 81]
    for i, v in enumerate(scores):
        ws_.append([str(1001 + i), f"C{i % 3}", str(v)])  # every cell typed as text, as some exports write them
    wb.save(tmp_path / "quiz.xlsx")
    got = result_frame(answered(Session(Workspace.at(tmp_path)), "average score in quiz.xlsx"))
    assert float(got.iloc[0, 0]) == pytest.approx(sum(scores) / len(scores)), got
    sheet = Session(Workspace.at(tmp_path)).catalog("x").get("quiz.xlsx").sheets[0]
    assert "score" in sheet.numeric and "student_id" not in sheet.numeric


def test_a_percentage_among_plain_figures_is_read_on_the_columns_scale(tmp_path):
    cells = ["72", "100", "53", "25%", "85", "40%", "36", "90", "12", "60", "77", "81"]
    pd.DataFrame({"country": ["US", "IN"] * 6, "progress_pct": cells}).to_csv(tmp_path / "enrollments.csv", index=False)
    got = result_frame(answered(Session(Workspace.at(tmp_path)), "median progress_pct by country in enrollments.csv"))
    nums = pd.Series([float(c.rstrip("%")) for c in cells])
    want = nums.groupby(pd.Series(["US", "IN"] * 6)).median()
    assert dict(zip(got["country"], got.iloc[:, -1] if got.columns[-1] != "rows" else got.iloc[:, 1], strict=True)) == pytest.approx(want.to_dict()), got


@pytest.mark.parametrize("first,answer", [("维修工单.csv 汇总一下", "不分组，就要一个总数"), ("summarise 维修工单.csv", "no grouping, overall")])
def test_no_grouping_answered_to_which_key_gives_one_row_over_every_row(ws, first, answer):
    s = Session(ws)
    assert "group_by" in s.turn(first).decision.request.missing
    got = result_frame(answered(s, answer))
    assert len(got) == 1 and float(got.iloc[0, 0]) == float(TICKETS["工时费_元"].sum()), got


SALES = pd.DataFrame({"门店": ["仁和堂中山路店", "仁和堂南山店", "仁和堂天河店", "仁和堂中山路店", "仁和堂南山店", "仁和堂天河店", "仁和堂岳麓店", "仁和堂岳麓店"],
                      "支付方式": ["医保", "微信", "医保", "现金", "微信", "支付宝", "医保", "微信"],
                      "退货状态": ["未退货", "已退货", "未退货", "未退货", "未退货", "已退货", "未退货", "未退货"],
                      "金额": [100.0, 250.0, 80.0, 60.0, 300.0, 45.0, 120.0, 90.0]})


@pytest.mark.parametrize("text", ["销售.csv 把已退货的去掉，支付方式是医保的也去掉，再算金额合计", "销售.csv 不算退货的，也不要医保支付的，金额合计",
                                  "销售.csv 退货的不算，医保的也不算，金额合计是多少"])
def test_two_exclusions_said_one_after_the_other_both_hold(tmp_path, text):
    SALES.to_csv(tmp_path / "销售.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), text)
    want = SALES[(SALES["退货状态"] != "已退货") & (SALES["支付方式"] != "医保")]["金额"].sum()
    assert float(result_frame(tr).iloc[0, 0]) == want, tr.decision.request.ops


def test_an_exclusion_glued_to_part_of_a_value_excludes_that_value(tmp_path):
    SALES.to_csv(tmp_path / "销售.csv", index=False)
    got = result_frame(answered(Session(Workspace.at(tmp_path)), "销售.csv 除了中山路店，金额最多的2个门店"))
    want = SALES[SALES["门店"] != "仁和堂中山路店"].groupby("门店")["金额"].sum().nlargest(2)
    assert list(got["门店"]) == list(want.index), got


def test_an_export_after_a_column_added_to_a_summary_exports_the_table_with_that_column(tmp_path):
    FEES.to_csv(tmp_path / "物业费.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "物业费.csv 按小区算应收和实收的合计")
    answered(s, "再加一列收缴率，等于实收除以应收")
    tr = answered(s, "导出成excel给我")
    xlsx = [f["path"] for f in tr.run.files if f["path"].endswith(".xlsx")]
    assert xlsx and "收缴率" in pd.read_excel(tmp_path / xlsx[0]).columns, xlsx


BOOKINGS = pd.DataFrame({"instructor": ["Tom", "Ann", "Jake", "Ann", "Jake", "Maya", "Jake", "Ann", "Maya", "Tom", "Jake", "Maya"],
                         "class_type": ["Yoga", "Yoga", "Spin", "Spin", "Spin", "Yoga", "Yoga", "Yoga", "Spin", "Spin", "Spin", "Yoga"]})


def test_and_plus_a_value_after_a_summary_swaps_that_value_and_keeps_the_rest(tmp_path):
    BOOKINGS.to_csv(tmp_path / "class_bookings.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "number of bookings per instructor in class_bookings.csv, excluding Tom, top 2")
    answered(s, "what about only yoga classes")
    got = result_frame(answered(s, "and spin"))
    want = BOOKINGS[(BOOKINGS["instructor"] != "Tom") & (BOOKINGS["class_type"] == "Spin")].groupby("instructor").size().nlargest(2)
    assert list(got["instructor"]) == list(want.index) and list(got.iloc[:, -1]) == list(want.values), got


@pytest.mark.parametrize("text", ["share of attended = yes by class_type in class_bookings.csv",
                                  "percentage of bookings where attended is yes by class_type in class_bookings.csv"])
def test_the_share_of_a_condition_by_a_key_is_its_rate_within_each_key(tmp_path, text):
    b = BOOKINGS.assign(attended=["yes", "no", "yes", "yes", "no", "yes", "yes", "no", "yes", "yes", "no", "yes"])
    b.to_csv(tmp_path / "class_bookings.csv", index=False)
    got = result_frame(answered(Session(Workspace.at(tmp_path)), text))
    want = b.assign(y=b["attended"] == "yes").groupby("class_type")["y"].mean()
    rate = [c for c in got.columns if got[c].dtype.kind == "f"][0]
    vals = dict(zip(got["class_type"], got[rate], strict=True))
    scale = 100 if max(vals.values()) > 1 else 1
    assert {k: v / scale for k, v in vals.items()} == pytest.approx(want.to_dict(), abs=1e-3), got


def test_top_n_by_the_summarys_own_measure_name_ranks_the_groups(tmp_path):
    pay = PAYMENTS.assign(member_id=["M1", "M2", "M1", "M3", "M2", "M4", "M3", "M1", "M4", "M2"])
    pay.to_csv(tmp_path / "payments.csv", index=False)
    got = result_frame(answered(Session(Workspace.at(tmp_path)),
                                "in payments.csv group by member_id, sum of amount_usd, where refunded is not yes, then top 2 by amount_usd_sum"))
    want = pay[pay["refunded"] != "yes"].groupby("member_id")["amount_usd"].sum().nlargest(2)
    assert list(got["member_id"]) == list(want.index) and list(got.iloc[:, 1]) == list(want.values), got


def test_a_request_after_stacked_sheets_stacks_them_again_never_the_first_alone(tmp_path):
    dates = pd.date_range("2024-01-01", "2024-12-31", freq="9D")
    sales = pd.DataFrame({"日期": dates, "金额": [float(10 + i % 7) for i in range(len(dates))]})
    with pd.ExcelWriter(tmp_path / "销售.xlsx") as w:
        sales[sales["日期"].dt.month <= 6].to_excel(w, sheet_name="上半年", index=False)
        sales[sales["日期"].dt.month > 6].to_excel(w, sheet_name="下半年", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "销售.xlsx 上半年和下半年合在一起，按月汇总金额")
    got = result_frame(answered(s, "画个折线图看看每月金额"))
    assert len(got) == 12, got
    assert float(got[[c for c in got.columns if "金额" in str(c)][0]].sum()) == pytest.approx(float(sales["金额"].sum())), got


def test_a_files_stem_that_ends_a_column_name_of_the_file_in_play_is_no_second_file(tmp_path):
    pd.DataFrame({"会员号": range(6), "等级": ["金卡", "银卡", "金卡", "金卡", "普通", "金卡"], "所属门店": ["东店", "西店", "东店", "南店", "东店", "南店"]}).to_excel(tmp_path / "会员.xlsx", index=False)
    pd.DataFrame({"门店": ["东店", "西店", "南店"], "城市": ["上海", "杭州", "南京"]}).to_csv(tmp_path / "门店.csv", index=False)
    tr = Session(Workspace.at(tmp_path)).turn("会员.xlsx 金卡会员按所属门店计数，门店多的在前")
    assert tr.decision.request.file == "会员.xlsx" and "compare" not in tr.decision.request.kinds(), tr.decision.request.ops


def test_a_part_added_while_a_request_waits_joins_it_and_its_unread_words_are_still_named(tmp_path):
    stock = pd.DataFrame({"类别": ["处方药", "非处方药", "保健品", "非处方药", "处方药", "保健品"], "库存数量": [10, 20, 30, 40, 50, 60]})
    stock.to_csv(tmp_path / "库存.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    first = s.turn("库存.csv 类别是非处方药或保健品的，约68这种当68")
    assert first.decision.next == "restate_confirm"
    tr = s.turn("最后还要算库存数量的合计")
    assert "没理解" in tr.decision.reply and "约68" in tr.decision.reply, tr.decision.reply
    assert {o.kind for o in tr.decision.request.ops} == {"filter", "group"}, tr.decision.request.ops
    done = s.turn("继续")
    assert float(result_frame(done).iloc[0, 0]) == 150.0


@pytest.mark.parametrize("text", ["how many members are there in members.csv", "members.csv有多少会员", "members.csv一共多少个"])
def test_how_many_of_what_the_rows_are_is_the_row_count(tmp_path, text):
    pd.DataFrame({"member_id": range(37), "club": ["A", "B", "C"] * 12 + ["A"]}).to_csv(tmp_path / "members.csv", index=False)
    tr = Session(Workspace.at(tmp_path)).turn(text)
    assert tr.run is not None and "37" in tr.run.answer, (tr.decision.reply, tr.run and tr.run.answer)


@pytest.mark.parametrize("text", ["do men and women differ in age in members.csv", "members.csv: does age differ by gender", "members.csv里男女的年龄有没有差别"])
def test_men_and_women_differ_is_a_difference_test_over_the_sex_column(tmp_path, text):
    from scipy import stats

    ages = [23, 35, 41, 52, 29, 33, 47, 38, 26, 44, 31, 58, 36, 40, 27, 49]
    sex = ["M", "F"] * 8
    pd.DataFrame({"member_id": range(16), "gender": sex, "age": ages}).to_csv(tmp_path / "members.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), text)
    a = [x for x, g in zip(ages, sex, strict=True) if g == "M"]
    b = [x for x, g in zip(ages, sex, strict=True) if g == "F"]
    want = stats.ttest_ind(a, b, equal_var=False)
    assert f"{abs(want.statistic):.4f}"[:5] in tr.run.answer, tr.run.answer


def test_figures_written_with_their_unit_are_numbers(tmp_path):
    cells = ["60", "260", "约120", "85平", "278", "150", "90", None, "210", "175", "132", "99"]
    region = ["华东", "华南", "华东", "华南", "华北", "华东", "华南", "华北", "华东", "华北", "华南", "华东"]
    pd.DataFrame({"门店": [f"店{i}" for i in range(12)], "区域": region, "面积_平米": cells}).to_csv(tmp_path / "门店.csv", index=False)
    got = result_frame(answered(Session(Workspace.at(tmp_path)), "门店.csv 按区域求面积_平米平均"))
    nums = pd.Series([float(c.rstrip("平")) if c and not c.startswith("约") else None for c in cells])
    want = nums.groupby(pd.Series(region)).mean()
    assert dict(zip(got["区域"], got.iloc[:, 1], strict=True)) == pytest.approx(want.to_dict()), got


@pytest.mark.parametrize("engine", ["pandas", "duckdb"])
def test_a_total_row_below_figures_written_as_text_is_left_out(tmp_path, monkeypatch, engine):
    monkeypatch.setenv("WENQING_ENGINE", engine)
    amounts = ["$1,250.00", "200", "~150", "75.5", "$300.00", "90", "410", "$60.00", "125", "88"]
    nums = pd.Series([1250.0, 200, None, 75.5, 300.0, 90, 410, 60.0, 125, 88])
    rows = pd.DataFrame({"donation_id": [f"G{i}" for i in range(10)] + ["Total"], "channel": ["web", "mail"] * 5 + [None],
                         "amount": amounts + [f"{nums.sum():.2f}"]})
    rows.to_csv(tmp_path / "donations.csv", index=False)
    got = result_frame(answered(Session(Workspace.at(tmp_path)), "sum of amount by channel in donations.csv"))
    want = nums.groupby(pd.Series(["web", "mail"] * 5)).sum()
    assert dict(zip(got["channel"], got.iloc[:, 1], strict=True)) == pytest.approx(want.to_dict()), got


@pytest.mark.parametrize("engine", ["pandas", "duckdb"])
def test_a_group_with_no_readable_figure_has_a_blank_total_never_zero(tmp_path, monkeypatch, engine):
    monkeypatch.setenv("WENQING_ENGINE", engine)
    pd.DataFrame({"donor_id": ["D1", "D1", "D2", "D3", "D3", "D4", "D5", "D6", "D7", "D8"],
                  "amount": ["100", "50", "~37", "20", "5", "300", "60", "70", "80", "90"]}).to_csv(tmp_path / "g.csv", index=False)
    got = result_frame(answered(Session(Workspace.at(tmp_path)), "total amount by donor_id in g.csv"))
    d2 = got[got["donor_id"] == "D2"].iloc[0, 1]
    assert pd.isna(d2), got  # D2's only gift is rough: no total is known


QC = pd.DataFrame({"检验日期": pd.to_datetime(["2024-01-05", "2024-01-20", "2024-02-03", "2024-02-10", "2024-03-01", "2024-03-15", "2024-01-07", "2024-02-17"]),
                   "车间": ["一车间", "二车间", "三车间", "一车间", "二车间", "三车间", "三车间", "一车间"],
                   "产品型号": ["A", "B", "A", "B", "A", "B", "A", "A"], "结论": ["合格", "不合格", "待复检", "不合格", "合格", "不合格", "不合格", "待复检"],
                   "不良数": [1, 5, 3, 7, 0, 4, 6, 2]})


def test_keys_said_alone_after_a_total_per_month_keep_the_months(tmp_path):
    QC.to_csv(tmp_path / "质检.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "质检.csv 按月统计不良数合计")
    got = result_frame(answered(s, "按车间拆开看"))
    want = QC.groupby([QC["检验日期"].dt.to_period("M").astype(str), "车间"])["不良数"].sum()
    assert len(got) == len(want) and float(got[[c for c in got.columns if "不良数" in str(c)][0]].sum()) == float(want.sum()), got


def test_an_exclusion_said_alone_after_a_summary_refines_it(tmp_path):
    QC.to_csv(tmp_path / "质检.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "质检.csv 结论不是合格的，按产品型号计数")
    got = result_frame(answered(s, "把三车间的去掉再看"))
    rows = QC[(QC["结论"] != "合格") & (QC["车间"] != "三车间")]
    assert dict(zip(got["产品型号"], got.iloc[:, -1], strict=True)) == rows.groupby("产品型号").size().to_dict(), got


@pytest.mark.parametrize("text", ["员工.csv 车间不是仓库的，各车间月工资有没有显著差别", "员工.csv 仓库以外的，各车间月工资有没有显著差别"])
def test_a_condition_said_with_a_test_keeps_its_rows_out_of_the_test(tmp_path, text):
    from scipy import stats

    shop = ["一车间", "二车间", "仓库", "三车间"] * 6
    pay = [5200 + (i * 137) % 900 + (300 if s == "仓库" else 0) for i, s in enumerate(shop)]
    pd.DataFrame({"工号": range(24), "车间": shop, "月工资": pay}).to_csv(tmp_path / "员工.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), text)
    groups = [[p for p, s in zip(pay, shop, strict=True) if s == g] for g in ("一车间", "二车间", "三车间")]
    want = stats.f_oneway(*groups)
    assert f"{want.statistic:.4f}"[:5] in tr.run.answer, tr.run.answer


@pytest.mark.parametrize("engine", ["pandas", "duckdb"])
def test_a_blank_key_is_no_contender_in_a_ranking_of_groups(tmp_path, monkeypatch, engine):
    monkeypatch.setenv("WENQING_ENGINE", engine)
    states = ["CA"] * 6 + ["FL"] * 3 + ["OR"] * 4 + ["MA"] * 5 + [None] * 2 + ["TX"] * 7
    pd.DataFrame({"donor_id": range(len(states)), "state": states}).to_csv(tmp_path / "donors.csv", index=False)
    tr = answered(Session(Workspace.at(tmp_path)), "count of donors per state in donors.csv, excluding CA, bottom 3")
    got = result_frame(tr)
    assert list(got["state"]) == ["FL", "OR", "MA"], got
    assert "blank key" in tr.run.answer, tr.run.answer
