"""How requests compose (round 9): a chart or a sort of "that" result, a join with the rest of the request after a comma
or before it, and how the join keeps rows said anywhere in the request. Each result recomputed with pandas."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame

from engine.session import Session
from tools.workspace import Workspace

STAFF = pd.DataFrame({"工号": [f"E{i:03d}" for i in range(1, 13)], "学历": ["本科", "硕士", "本科", "博士", "硕士", "本科", "大专", "本科", "硕士", "本科", "博士", "大专"]})
PAY = pd.DataFrame({"工号": [f"E{i:03d}" for i in range(1, 11)] + ["E099"], "实发": [9000, 12000, 8500, 15000, 11800, 9100, 7000, 8800, 12500, 9300, 6000]})
ORDERS = pd.DataFrame({"order_id": range(1, 9), "customer_id": ["C1", "C2", "C1", "C3", "C9", "C2", "C3", "C1"],
                       "category": ["Home", "Toys", "Home", "Garden", "Toys", "Home", "Garden", "Toys"],
                       "order_total": [20.0, 35.5, 12.0, 80.0, 15.0, 42.0, 18.0, 9.5]})
CUSTOMERS = pd.DataFrame({"customer_id": ["C1", "C2", "C3", "C4"], "segment": ["new", "regular", "regular", "vip"]})


@pytest.fixture(params=["pandas", "duckdb"])
def ws(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    STAFF.to_csv(tmp_path / "员工档案.csv", index=False)
    with pd.ExcelWriter(tmp_path / "工资表.xlsx") as w:
        PAY.to_excel(w, sheet_name="3月", index=False)
        PAY.assign(实发=PAY["实发"] + 100).to_excel(w, sheet_name="2月", index=False)
    ORDERS.to_csv(tmp_path / "orders.csv", index=False)
    CUSTOMERS.to_csv(tmp_path / "customers.csv", index=False)
    return Workspace.at(tmp_path)


@pytest.mark.parametrize("first,then,kind", [
    ("total order_total by category in orders.csv", "make a chart of that", "bar"),
    ("orders.csv 按 category 汇总 order_total", "把这个画成饼图", "pie"),
    ("orders.csv 按 category 汇总 order_total", "把刚才的结果画成柱状图", "bar"),
    ("sum of order_total per category in orders.csv", "graph this as a pie", "pie"),
])
def test_a_chart_of_that_summary_draws_its_figure_per_category(ws, first, then, kind):
    s = Session(ws)
    answered(s, first)
    tr = answered(s, then)
    chart = tr.decision.request.op("chart")
    assert chart is not None and chart.args["kind"] == kind, tr.decision.request.ops
    got = result_frame(tr)
    want = ORDERS.groupby("category")["order_total"].sum()
    assert dict(zip(got.iloc[:, 0], got.iloc[:, 1], strict=True)) == pytest.approx(want.to_dict())


def test_that_pivot_sorted_is_a_sort_of_the_pivot_never_a_second_pivot(ws):
    s = Session(ws)
    answered(s, "orders.csv 做透视表，行是 category，列是 customer_id，值是 order_total 合计")
    tr = answered(s, "这个透视表按 C1 降序排")
    assert [o.kind for o in tr.decision.request.ops] == ["sort"], tr.decision.request.ops
    want = ORDERS.pivot_table(index="category", columns="customer_id", values="order_total", aggfunc="sum").fillna(0)
    # the pivot's own 合计 row stays last, though its figure is the largest
    assert result_frame(tr)["category"].tolist() == [*want.sort_values("C1", ascending=False).index.tolist(), "合计"]


@pytest.mark.parametrize("text", [
    "工资表.xlsx 的3月表和 员工档案.csv 按 工号 关联，按学历算平均实发",
    "工资表.xlsx 的3月表，按学历算平均实发，和 员工档案.csv 按 工号 关联",
])
def test_a_join_and_the_rest_of_the_request_after_or_before_a_comma_both_run(ws, text):
    tr = answered(Session(ws), text)
    assert [o.kind for o in tr.decision.request.ops] == ["join", "group"], tr.decision.request.ops
    assert tr.decision.request.op("join").args["on"] == "工号"
    joined = PAY.merge(STAFF, on="工号", how="left")
    want = joined.groupby("学历", dropna=False)["实发"].mean()
    got = result_frame(tr)
    got_map = {("" if pd.isna(k) or k in ("（空白）", "(blank)") else k): v for k, v in zip(got.iloc[:, 0], got.iloc[:, 1], strict=True)}
    assert got_map == pytest.approx({("" if pd.isna(k) else k): v for k, v in want.items()})


@pytest.mark.parametrize("text", [
    "orders.csv 和 customers.csv 按 customer_id 关联，只保留两边都有的",
    "join orders.csv and customers.csv on customer_id, keep only rows in both",
])
def test_how_the_join_keeps_rows_is_the_joins_wherever_it_is_said(ws, text):
    tr = answered(Session(ws), text)
    assert [o.kind for o in tr.decision.request.ops] == ["join"] and tr.decision.request.op("join").args.get("how") == "inner"
    assert len(result_frame(tr)) == len(ORDERS.merge(CUSTOMERS, on="customer_id", how="inner"))


WAYBILLS = pd.DataFrame({"运单号": [f"YD{i:04d}" for i in range(40)], "下单日期": pd.date_range("2024-07-01", periods=40, freq="D").strftime("%Y-%m-%d"),
                         "网点": ["朝阳", "海淀", "浦东", "天河"] * 10, "异常类型": ["延误", "破损", "延误", "丢件", "态度差"] * 8,
                         "件数": [1 + i % 4 for i in range(40)], "运费_元": [10.0 + i for i in range(40)]})
BOOKINGS = pd.DataFrame({"booking_id": range(1, 61), "hotel_id": [f"H{i % 7}" for i in range(60)],
                         "check_in": pd.date_range("2024-01-05", periods=60, freq="5D").strftime("%Y-%m-%d"),
                         "status": ["completed", "cancelled", "completed", "no_show"] * 15, "total_amount": [float(50 + 7 * i % 300) for i in range(60)]})


@pytest.fixture(params=["pandas", "duckdb"])
def ws2(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    july = WAYBILLS.astype({"运费_元": object})
    july.loc[3, "运费_元"], july.loc[9, "运费_元"] = "待定", "约30"  # a mark and a rough figure: no numbers, left out
    total = {c: None for c in july.columns} | {"运单号": "合计", "件数": int(WAYBILLS["件数"].sum()), "运费_元": float(WAYBILLS["运费_元"].sum())}
    with pd.ExcelWriter(tmp_path / "运单.xlsx") as w:
        pd.concat([july, pd.DataFrame([total])], ignore_index=True).to_excel(w, sheet_name="7月", index=False)
        WAYBILLS.assign(运费_元=WAYBILLS["运费_元"] * 2).to_excel(w, sheet_name="8月", index=False)
    BOOKINGS.to_csv(tmp_path / "bookings.csv", index=False)
    pd.DataFrame({"visit_date": pd.date_range("2024-01-01", periods=90, freq="D").strftime("%Y-%m-%d"), "fee_paid": range(90)}).to_csv(tmp_path / "visits.csv", index=False)
    return Workspace.at(tmp_path)


def _july_fees() -> pd.Series:
    return WAYBILLS["运费_元"].drop(index=[3, 9])


def test_a_column_named_with_its_unit_is_named_without_it_and_rough_figures_are_left_out(ws2):
    s = Session(ws2)
    tr = answered(s, "运单.xlsx 7月表 运费 的合计")  # 运费 names 运费_元; 约30 and 待定 are no numbers; the 合计 row is no row of data
    assert tr.decision.request.op("group").args["measures"] == [{"column": "运费_元", "agg": "sum"}]
    assert result_frame(tr).iloc[0, 0] == pytest.approx(_july_fees().sum())
    tr = answered(s, "8月的运费总共是多少")  # the other sheet, named in a follow-up: that sheet, never a month to ask about
    assert result_frame(tr).iloc[0, 0] == pytest.approx(WAYBILLS["运费_元"].sum() * 2)


def test_how_many_rows_says_the_tables_own_total_row_apart(ws2):
    tr = answered(Session(ws2), "运单.xlsx 7月一共有多少单？")
    assert "共 41 行、6 列" in tr.run.answer and "数据共 40 行" in tr.run.answer, tr.run.answer


@pytest.mark.parametrize("text,want", [
    ("运单.xlsx 7月表按异常类型统计条数", WAYBILLS["异常类型"].value_counts().to_dict()),
])
def test_a_column_named_with_an_operations_word_is_that_column(ws2, text, want):
    tr = answered(Session(ws2), text)
    assert [o.kind for o in tr.decision.request.ops] == ["group"], tr.decision.request.ops
    got = result_frame(tr)
    assert dict(zip(got.iloc[:, 0], got.iloc[:, 1], strict=True)) == want
    tr = answered(Session(ws2), "运单.xlsx 7月表里，异常类型不是延误的有多少条")
    assert "outliers" not in [o.kind for o in tr.decision.request.ops]
    assert str(int((WAYBILLS["异常类型"] != "延误").sum())) in tr.run.answer, tr.run.answer


def test_a_figure_by_a_key_then_top_n_ranks_the_keys_by_their_total(ws2):
    tr = answered(Session(ws2), "total_amount by hotel_id in bookings.csv excluding cancelled, top 5")
    kept = BOOKINGS[BOOKINGS["status"] != "cancelled"]
    want = kept.groupby("hotel_id")["total_amount"].sum().nlargest(5)
    got = result_frame(tr)
    assert got["hotel_id"].tolist() == want.index.tolist() and got.iloc[:, 1].tolist() == pytest.approx(want.tolist())


def test_a_figure_said_by_its_meaning_is_the_column_carrying_it_or_asked(ws2):
    tr = answered(Session(ws2), "monthly revenue in bookings.csv, completed only")  # revenue: the one amount column
    want = BOOKINGS[BOOKINGS["status"] == "completed"].assign(m=lambda x: x["check_in"].str[:7]).groupby("m")["total_amount"].sum()
    got = result_frame(tr)
    assert got.iloc[:, -1].tolist() == pytest.approx(want.tolist())
    s = Session(ws2)
    d = s.turn("monthly revenue in visits.csv").decision  # no column carries revenue: which one is asked, never the rows counted
    assert d.missing == ("period_value",) and "fee_paid" in d.reply, d.reply
    tr = answered(s, "fee_paid")
    assert result_frame(tr).iloc[:, -1].tolist() == pytest.approx([sum(range(31)), sum(range(31, 60)), sum(range(60, 90))])


def test_a_running_total_by_month_adds_up_the_monthly_totals(ws2):
    tr = answered(Session(ws2), "running total of total_amount by month of check_in for completed bookings in bookings.csv")
    done = BOOKINGS[BOOKINGS["status"] == "completed"]
    want = done.groupby(done["check_in"].str[:7])["total_amount"].sum().cumsum()
    assert result_frame(tr).iloc[:, -1].tolist() == pytest.approx(want.tolist())
    assert not any("\u4e00" <= ch <= "\u9fff" for c in result_frame(tr).columns for ch in str(c)) or tr.decision.lang == "zh"


def test_their_figure_after_a_summary_is_the_same_groups_with_that_figure(ws2):
    s = Session(ws2)
    answered(s, "in bookings.csv, average total_amount by hotel_id for completed bookings")
    tr = s.turn("and their average booking_id?")
    assert tr.run is None and tr.decision.next == "restate_confirm", tr.decision.reply  # a new figure of the same groups: said first
    tr = answered(s, "go")
    want = BOOKINGS[BOOKINGS["status"] == "completed"].groupby("hotel_id")["booking_id"].mean()
    got = result_frame(tr)
    assert dict(zip(got["hotel_id"], got.iloc[:, 1], strict=True)) == pytest.approx(want.to_dict())


def test_a_condition_on_a_summarys_own_figure_asks_for_no_second_average(ws2):
    s = Session(ws2)
    answered(s, "bookings.csv 按 hotel_id 算平均 total_amount")
    tr = answered(s, "在这个结果里，只看平均total_amount超过160的")
    assert [o.kind for o in tr.decision.request.ops] == ["filter"], tr.decision.request.ops
    want = BOOKINGS.groupby("hotel_id")["total_amount"].mean()
    assert sorted(result_frame(tr)["hotel_id"]) == sorted(want[want > 160].index)


def test_an_identifier_that_starts_like_a_half_year_is_a_value(ws2):
    frame = BOOKINGS.assign(hotel_id=BOOKINGS["hotel_id"].str.replace("H", "H1"))  # H10, H11 …: start like H1, the first half
    frame.to_csv(ws2.root / "bookings.csv", index=False)
    tr = answered(Session(ws2), "in bookings.csv keep rows where hotel_id = H13")
    conds = tr.decision.request.op("filter").args["conditions"]
    assert [(c.column, c.op, c.value) for c in conds] == [("hotel_id", "eq", "H13")]
    assert len(result_frame(tr)) == int((frame["hotel_id"] == "H13").sum()) > 0


@pytest.mark.parametrize("text", ["运单.xlsx 7月8月的件数合计分别是多少", "运单.xlsx 7月、8月两个月的件数合计分别是多少"])
def test_sheets_named_together_are_stacked_and_each_said_apart(ws2, text):
    tr = answered(Session(ws2), text)
    assert tr.decision.request.op("stack").args["sheets"] == ["7月", "8月"]
    got = result_frame(tr)
    assert dict(zip(got.iloc[:, 0], got.iloc[:, 1], strict=True)) == {"7月": WAYBILLS["件数"].sum(), "8月": WAYBILLS["件数"].sum()}


def test_combining_all_sheets_is_the_request_and_a_column_called_sheet_is_a_column(ws2, tmp_path):
    tr = answered(Session(ws2), "combine all the sheets of 运单.xlsx")
    assert [o.kind for o in tr.decision.request.ops] == ["stack"] and len(result_frame(tr)) == 80
    stacked = pd.DataFrame({"sheet": ["Q1", "Q1", "Q2"], "score": [7.0, 9.0, 6.0]})
    stacked.to_csv(ws2.root / "scores.csv", index=False)
    tr = answered(Session(ws2), "average score by sheet in scores.csv")
    got = result_frame(tr)
    assert dict(zip(got["sheet"], got.iloc[:, 1], strict=True)) == {"Q1": 8.0, "Q2": 6.0}


def test_a_full_analysis_leaves_the_total_row_out_and_reads_numbers_written_as_text(ws2):
    from tools.ops import describe_columns

    july = pd.read_excel(ws2.root / "运单.xlsx", sheet_name="7月")
    got = describe_columns(july).data.set_index("列")
    assert got.loc["件数", "最大"] == WAYBILLS["件数"].max() and got.loc["件数", "均值"] == pytest.approx(round(WAYBILLS["件数"].mean(), 2), abs=0.01)
    assert got.loc["运费_元", "均值"] == pytest.approx(round(_july_fees().mean(), 2), abs=0.01) and "待定" in got.loc["运费_元", "最常见"]


HOTELS = pd.DataFrame({"hotel_id": [f"H{i}" for i in range(12)], "city": ["London", "Paris", "Rome", "Oslo"] * 3, "stars": [3, 4, 5, 5, 4, 3, 5, 4, 5, 3, 4, 5]})


@pytest.fixture
def hotels(ws2) -> Workspace:
    HOTELS.to_excel(ws2.root / "hotels.xlsx", index=False)
    BOOKINGS.assign(status=BOOKINGS["status"]).to_csv(ws2.root / "bookings.csv", index=False)
    return ws2


@pytest.mark.parametrize("text,want", [
    ("show me the hotels with 5 stars except those in London and Paris in hotels.xlsx", (HOTELS["stars"] == 5) & ~HOTELS["city"].isin(["London", "Paris"])),
    ("in hotels.xlsx, 4-star hotels", HOTELS["stars"] == 4),
    ("hotels.xlsx hotels with more than 3 stars", HOTELS["stars"] > 3),
    ("hotels.xlsx hotels with at least 4 stars", HOTELS["stars"] >= 4),
])
def test_a_number_said_before_a_columns_name_is_its_value(hotels, text, want):
    tr = answered(Session(hotels), text)
    assert sorted(result_frame(tr)["hotel_id"]) == sorted(HOTELS.loc[want, "hotel_id"])


def test_a_value_written_with_a_hyphen_for_its_underscore_is_that_value(hotels):
    tr = answered(Session(hotels), "bar chart of total_amount by hotel_id in bookings.csv, excluding cancelled and no-show")
    kept = BOOKINGS[~BOOKINGS["status"].isin(["cancelled", "no_show"])]
    got = result_frame(tr)
    assert dict(zip(got.iloc[:, 0], got.iloc[:, 1], strict=True)) == pytest.approx(kept.groupby("hotel_id")["total_amount"].sum().to_dict())


@pytest.mark.parametrize("then,figure", [("add the month-over-month growth in percent", "growth"), ("and a 3-month rolling average too", "rolling"),
                                         ("再算一下环比", "growth")])
def test_a_figure_of_the_periods_after_a_summary_per_period_extends_it(hotels, then, figure):
    s = Session(hotels)
    answered(s, "sum of total_amount per month of check_in in bookings.csv, status completed only")
    tr = answered(s, then)
    kinds = [o.kind for o in tr.decision.request.ops]
    assert kinds == ["filter", figure], kinds
    done = BOOKINGS[BOOKINGS["status"] == "completed"]
    monthly = done.groupby(done["check_in"].str[:7])["total_amount"].sum()
    got = result_frame(tr)
    if figure == "growth":
        want = (monthly.pct_change() * 100).round(2)
        assert got.iloc[:, -1].tolist() == pytest.approx(want.tolist(), nan_ok=True)
    else:
        assert got.iloc[:, -1].round(4).tolist() == pytest.approx(monthly.rolling(3).mean().round(4).tolist(), nan_ok=True)


def test_asking_what_tables_there_are_lists_them(hotels):
    tr = Session(hotels).turn("what tables do I have here?")
    assert tr.run is not None and tr.run.status == "answered" and "hotels.xlsx" in result_frame(tr).iloc[:, 0].tolist()


@pytest.mark.parametrize("text", ["in bookings.csv average total_amount by hotel_id, only hotel ids with an average below 160",
                                  "bookings.csv 按 hotel_id 算平均 total_amount，只要平均值低于160的"])
def test_a_statistic_compared_without_its_column_is_a_condition_on_the_groups_figure(hotels, text):
    tr = answered(Session(hotels), text)
    assert tr.decision.request.op("having") is not None, tr.decision.request.ops
    means = BOOKINGS.groupby("hotel_id")["total_amount"].mean()
    assert sorted(result_frame(tr)["hotel_id"]) == sorted(means[means < 160].index)


def test_all_sheets_typed_back_in_english_keeps_the_request_english(ws2):
    with pd.ExcelWriter(ws2.root / "reviews.xlsx") as w:
        for q in ("Q1", "Q2"):
            pd.DataFrame({"review_id": [1, 2, 3], "score": [7.0, 8.0, 9.0] if q == "Q1" else [5.0, 6.0, 7.0]}).to_excel(w, sheet_name=q, index=False)
    s = Session(ws2)
    assert s.turn("what's the average review score in reviews.xlsx?").decision.missing == ("sheet",)
    tr = answered(s, "all sheets")
    assert not any("\u4e00" <= ch <= "\u9fff" for t in s.state.last.turns for ch in t), s.state.last.turns
    assert result_frame(tr).iloc[0, 0] == pytest.approx(7.0)


def test_growth_by_its_date_column_in_percent_is_the_growth(hotels):
    tr = answered(Session(hotels), "bookings.csv month-over-month growth of total_amount by check_in in percent")
    assert [o.kind for o in tr.decision.request.ops] == ["growth"], tr.decision.request.ops
    monthly = BOOKINGS.groupby(BOOKINGS["check_in"].str[:7])["total_amount"].sum()
    assert result_frame(tr).iloc[:, -1].tolist() == pytest.approx((monthly.pct_change() * 100).round(2).tolist(), nan_ok=True)


def test_a_statistic_of_a_phrase_is_of_the_column_the_phrase_ends_in(hotels):
    pd.DataFrame({"review_id": [11, 12, 13, 14], "score": [7.0, 8.0, 9.0, 6.0]}).to_csv(hotels.root / "reviews.csv", index=False)
    tr = answered(Session(hotels), "what's the average review score in reviews.csv?")
    assert tr.decision.request.op("group").args["measures"] == [{"column": "score", "agg": "mean"}]
    assert result_frame(tr).iloc[0, 0] == pytest.approx(7.5)


def test_a_date_column_typed_back_to_the_period_question_places_the_period(ws2):
    days = pd.date_range("2024-06-01", periods=90, freq="D")
    pd.DataFrame({"运单号": range(90), "下单日期": days.strftime("%Y-%m-%d"), "签收日期": (days + pd.Timedelta(days=3)).strftime("%Y-%m-%d"),
                  "运费": range(90)}).to_csv(ws2.root / "运单明细.csv", index=False)
    s = Session(ws2)
    d = s.turn("运单明细.csv 7月的运费合计").decision  # two date columns: which one 7月 is of is asked, and they are listed
    assert d.next == "ask_slots" and "下单日期" in d.reply and "签收日期" in d.reply, d.reply
    tr = answered(s, "签收日期")
    signed = days + pd.Timedelta(days=3)
    assert result_frame(tr).iloc[0, 0] == sum(i for i, x in enumerate(signed) if x.month == 7)
    s.turn("运单明细.csv 7月的运费合计")
    tr = s.turn("运单明细.csv 一共多少行")  # not an answer: a request of its own
    assert tr.run is not None and "共 90 行" in tr.run.answer, tr.decision.reply


def test_rows_asked_after_a_single_figure_are_a_request_of_their_own(hotels):
    s = Session(hotels)
    answered(s, "bookings.csv 里 status 是 completed 的 total_amount 中位数")
    tr = answered(s, "total_amount最高的前5条，cancelled的不算")
    assert [o.kind for o in tr.decision.request.ops if o.kind != "filter"] == ["top_n"], tr.decision.request.ops
    want = BOOKINGS[BOOKINGS["status"] != "cancelled"].nlargest(5, "total_amount", keep="first")
    assert result_frame(tr)["booking_id"].tolist() == want["booking_id"].tolist()


def test_the_groups_a_test_compares_are_never_a_filter_on_one_of_them(ws2):
    staff = pd.DataFrame({"工号": range(40), "是否外包": ["是", "否"] * 20, "月底薪_元": [5000 + 37 * i for i in range(40)]})
    staff.to_csv(ws2.root / "司机.csv", index=False)
    s = Session(ws2)
    s.turn("司机.csv 外包司机和自有司机的月底薪有没有显著差别？做个t检验")
    tr = answered(s, "月底薪_元 和 是否外包")
    assert [o.kind for o in tr.decision.request.ops] == ["stat_test"], tr.decision.request.ops
    from scipy import stats

    t = stats.ttest_ind(staff.loc[staff["是否外包"] == "是", "月底薪_元"], staff.loc[staff["是否外包"] == "否", "月底薪_元"], equal_var=False)
    assert f"{abs(t.statistic):.4f}" in tr.run.answer, tr.run.answer


DISHES = pd.DataFrame({"订单号": range(30), "菜品": ["水煮鱼", "小笼包", "水煮鱼"] * 10, "数量": [1, 2, 3] * 10, "实收": [88.0, 25.0, 150.0] * 10})


def test_portions_sold_add_up_the_quantity_never_count_the_lines(ws2):
    DISHES.to_csv(ws2.root / "菜品.csv", index=False)
    tr = answered(Session(ws2), "菜品.csv 水煮鱼一共卖了多少份？")
    assert "40" in tr.run.answer, tr.run.answer  # 数量 of 水煮鱼: 1 + 3 per three lines, ten times
    tr = answered(Session(ws2), "菜品.csv 水煮鱼有多少单")
    assert "20" in tr.run.answer, tr.run.answer


def test_i_meant_is_no_mean_and_a_name_typed_back_never_lands_inside_a_file_name(hotels):
    tr = answered(Session(hotels), "no, I meant hotel ids whose average total_amount is above 160 in bookings.csv")
    means = BOOKINGS.groupby("hotel_id")["total_amount"].mean()
    assert sorted(result_frame(tr)["hotel_id"]) == sorted(means[means > 160].index)
    from modes.gate import _said_at

    at = _said_at("t", "accounts.csv has no column t")
    assert at is not None and at.start() == len("accounts.csv has no column ")


def test_an_answer_to_an_operations_question_joins_the_turn_that_asked_for_it(hotels):
    with pd.ExcelWriter(hotels.root / "invoices.xlsx") as w:
        for q, months in (("H1", range(1, 7)), ("H2", range(7, 13))):
            pd.DataFrame({"invoice_id": list(months), "issued_on": [f"2024-{m:02d}-15" for m in months],
                          "amount_usd": [100.0 * m for m in months]}).to_excel(w, sheet_name=q, index=False)
    s = Session(hotels)
    s.turn("add a 3-month rolling average of invoices.xlsx")
    assert s.turn("all sheets").decision.missing == ("value",)
    tr = answered(s, "amount_usd")
    want = pd.Series([100.0 * m for m in range(1, 13)]).rolling(3).mean().round(4)
    assert result_frame(tr).iloc[:, -1].round(4).tolist() == pytest.approx(want.tolist(), nan_ok=True)
    tr = answered(s, "改成按周")  # a unit changed: the same request over weeks
    assert tr.decision.request.op("rolling").args["unit"] == "week", tr.decision.request.ops


def test_a_correction_to_the_period_keeps_the_sheets_the_figure_and_the_growth(ws2):
    s = Session(ws2)
    answered(s, "把运单.xlsx 7月8月合在一起，按周算件数合计和环比")
    tr = answered(s, "改成按月")
    g = tr.decision.request.op("growth")
    assert tr.decision.request.op("stack") is not None and g is not None and g.args["unit"] == "month" and g.args["value"] == "件数"


def test_their_other_statistic_of_a_summarised_column_is_of_the_same_groups(hotels):
    s = Session(hotels)
    answered(s, "average total_amount by hotel_id in bookings.csv")
    tr = answered(s, "their total total_amount")
    got = result_frame(tr)
    assert dict(zip(got["hotel_id"], got.iloc[:, 1], strict=True)) == pytest.approx(BOOKINGS.groupby("hotel_id")["total_amount"].sum().to_dict())


ACCOUNTS = pd.DataFrame({"account_id": [f"A{i}" for i in range(24)], "plan": ["Starter", "Growth", "Business"] * 8,
                         "signup_date": [f"{2022 + i % 3}-0{1 + i % 9}-10" for i in range(24)], "seats": [5 + i for i in range(24)]})


@pytest.fixture
def saas(ws2) -> Workspace:
    ACCOUNTS.to_csv(ws2.root / "accounts.csv", index=False)
    with pd.ExcelWriter(ws2.root / "invoices.xlsx") as w:
        for q in ("Q1", "Q2"):
            pd.DataFrame({"invoice_id": [1, 2, 3], "account_id": ["A1", "A2", "A3"], "amount_usd": [10.0, 20.0, 30.0]}).to_excel(w, sheet_name=q, index=False)
    return ws2


def test_break_that_down_keeps_the_rows_the_figure_was_of(saas):
    s = Session(saas)
    answered(s, "how many accounts signed up in 2023 in accounts.csv")
    tr = answered(s, "break that down by plan")
    got = result_frame(tr)
    want = ACCOUNTS[ACCOUNTS["signup_date"].str.startswith("2023")].groupby("plan").size()
    assert dict(zip(got["plan"], got.iloc[:, 1], strict=True)) == want.to_dict()


def test_a_pivot_whose_columns_name_no_column_asks(saas):
    d = Session(saas).turn("accounts.csv 做个交叉表：plan做行，region做列，值是seats合计").decision
    assert d.next == "ask_slots" and "region" in d.reply, d.reply


def test_a_join_with_a_workbook_of_several_sheets_says_it_uses_the_first(saas):
    d = Session(saas).turn("join accounts.csv with invoices.xlsx on account_id").decision
    assert d.next == "restate_confirm" and "Q1" in d.reply, d.reply


def test_a_change_that_cannot_be_placed_in_what_ran_is_said_before_it_runs(saas):
    s = Session(saas)
    answered(s, "pivot accounts.csv with plan as rows and signup_date as columns, count of accounts")
    d = s.turn("use total seats instead of the count").decision
    assert d.next == "restate_confirm", d.reply


def test_two_sheets_typed_back_to_the_sheet_question_are_stacked(ws2):
    s = Session(ws2)
    assert s.turn("运单.xlsx 各网点的件数合计").decision.missing == ("sheet",)
    tr = answered(s, "7月和8月")
    assert tr.decision.request.op("stack").args["sheets"] == ["7月", "8月"]
    got = result_frame(tr)
    want = WAYBILLS.groupby("网点")["件数"].sum() * 2
    assert dict(zip(got["网点"], got.iloc[:, 1], strict=True)) == want.to_dict()


def test_adding_up_a_column_is_its_sum(ws2):
    tr = answered(Session(ws2), "运单.xlsx 8月表 把件数加起来")
    assert tr.decision.request.op("group").args["measures"] == [{"column": "件数", "agg": "sum"}]
    assert result_frame(tr).iloc[0, 0] == WAYBILLS["件数"].sum()


def test_growth_after_each_sheets_total_is_their_growth_over_the_months(ws2):
    s = Session(ws2)
    answered(s, "运单.xlsx 7月8月的件数合计分别是多少")
    tr = answered(s, "再算一下环比")
    g = tr.decision.request.op("growth")
    assert g is not None and g.args["value"] == "件数" and tr.decision.request.op("stack") is not None, tr.decision.request.ops


def test_groups_with_more_than_n_rows_of_any_noun_and_never_a_column_by_its_first_letters(ws2):
    leads = pd.DataFrame({"lead_id": range(30), "created_at": ["2024-01-05"] * 30, "country": ["US"] * 14 + ["UK"] * 9 + ["DE"] * 7})
    leads.to_csv(ws2.root / "leads.csv", index=False)
    tr = answered(Session(ws2), "countries with more than 8 leads in leads.csv")
    assert sorted(result_frame(tr)["country"]) == ["UK", "US"]
    d = Session(ws2).turn("regions with more than 8 leads in leads.csv").decision
    assert d.next == "ask_slots" and "created_at" not in str(d.request.ops), d.request.ops


def test_a_sheet_said_not_to_use_is_not_stacked_with_the_one_to_use(ws2):
    s = Session(ws2)
    assert s.turn("运单.xlsx 各网点的件数合计").decision.missing == ("sheet",)
    tr = answered(s, "不是7月，用8月的")
    assert tr.decision.request.op("stack") is None and tr.decision.request.sheet == "8月", tr.decision.request
