"""A correction applied to the words of what it corrects (modes.tagging.corrections): 不是X，是Y / not X, Y / Y, not X
swap a key, a measure's column, a value or a sheet; 去掉X这个条件 / drop the X filter take one condition out; a part
said alone after 不对 takes the place of the part of its kind. The rest of the request stays, the restatement says the
whole corrected request, nothing the correction took back is named as not understood, and every result is recomputed
with pandas."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame

from engine.session import Session
from modes.tagging.corrections import Change, changes
from tools.workspace import Workspace

ORDERS = pd.DataFrame({
    "订单号": [f"B{i:03d}" for i in range(1, 13)],
    "门店": ["东店", "西店", "东店", "南店", "西店", "东店", "南店", "西店", "东店", "南店", "西店", "东店"],
    "品类": ["面包", "蛋糕", "面包", "饮品", "面包", "蛋糕", "饮品", "蛋糕", "饮品", "面包", "饮品", "蛋糕"],
    "数量": [3, 5, 2, 8, 4, 1, 6, 2, 7, 5, 3, 4],
    "金额": [36.0, 140.0, 24.0, 96.0, 48.0, 28.0, 72.0, 56.0, 84.0, 60.0, 36.0, 112.0],
})
EN = pd.DataFrame({
    "order_id": [f"E{i}" for i in range(1, 11)],
    "store": ["East", "West", "East", "North", "West", "East", "North", "West", "East", "North"],
    "channel": ["App", "Walk-in", "App", "App", "Walk-in", "Walk-in", "App", "App", "Walk-in", "App"],
    "category": ["Bread", "Cake", "Bread", "Drink", "Cake", "Bread", "Drink", "Cake", "Drink", "Bread"],
    "qty": [3, 5, 2, 8, 4, 1, 6, 2, 7, 5],
    "amount": [12.0, 40.0, 8.0, 24.0, 32.0, 4.0, 18.0, 16.0, 21.0, 20.0],
})
MONTHS = {"一月": ORDERS.iloc[:6], "二月": ORDERS.iloc[6:]}


@pytest.fixture(params=["pandas", "duckdb"])
def ws(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    ORDERS.to_excel(tmp_path / "烘焙订单.xlsx", index=False)
    EN.to_csv(tmp_path / "bakery_orders.csv", index=False)
    with pd.ExcelWriter(tmp_path / "月度销售.xlsx") as w:
        for name, df in MONTHS.items():
            df.to_excel(w, sheet_name=name, index=False)
    return Workspace.at(tmp_path)


def _pairs(tr) -> dict:
    f = result_frame(tr)
    return dict(zip(f.iloc[:, 0], f.iloc[:, 1], strict=True))


def _corrected(s: Session, first: str, correction: str):
    s.turn(first)
    tr = s.turn(correction)
    assert tr.decision.next == "restate_confirm", tr.decision.reply
    assert "没用上" not in tr.decision.reply and "没理解" not in tr.decision.reply and "not used" not in tr.decision.reply \
        and "not understood" not in tr.decision.reply, tr.decision.reply
    return tr


@pytest.mark.parametrize("correction", ["不对，不是按门店，是按品类", "不对，是按品类分，不是按门店", "我说的是按品类", "按品类而不是门店"])
def test_a_key_said_instead_replaces_the_key_and_keeps_the_measure(ws, correction):
    s = Session(ws)
    tr = _corrected(s, "烘焙订单.xlsx 按门店统计金额的平均值", correction)
    assert "品类" in tr.decision.reply and "门店" not in tr.decision.reply, tr.decision.reply
    tr = answered(s, "继续")
    assert _pairs(tr) == pytest.approx(ORDERS.groupby("品类")["金额"].mean().to_dict())


def test_english_y_not_x_and_i_meant_replace_the_key(ws):
    s = Session(ws)
    tr = _corrected(s, "bakery_orders.csv average amount by store", "no, by category not store")
    assert "category" in tr.decision.reply and "store" not in tr.decision.reply.replace("bakery_orders", ""), tr.decision.reply
    assert _pairs(answered(s, "go")) == pytest.approx(EN.groupby("category")["amount"].mean().to_dict())
    s = Session(ws)
    _corrected(s, "bakery_orders.csv count orders by store", "I meant channel")
    assert _pairs(answered(s, "go")) == EN.groupby("channel").size().to_dict()


def test_a_measure_column_said_instead_replaces_the_column_and_keeps_the_keys(ws):
    s = Session(ws)
    tr = _corrected(s, "烘焙订单.xlsx 按门店统计金额合计", "不是金额，是数量")
    assert "数量" in tr.decision.reply and "金额" not in tr.decision.reply, tr.decision.reply
    assert _pairs(answered(s, "继续")) == ORDERS.groupby("门店")["数量"].sum().to_dict()
    s = Session(ws)
    _corrected(s, "bakery_orders.csv total amount by store", "not amount, qty")
    assert _pairs(answered(s, "go")) == EN.groupby("store")["qty"].sum().to_dict()


def test_a_value_swapped_after_the_filter_ran_is_restated_then_runs_on_the_new_value(ws):
    s = Session(ws)
    answered(s, "烘焙订单.xlsx 筛选门店是东店的")
    tr = _corrected(s, "", "不是东店，是西店") if False else s.turn("不是东店，是西店")
    assert tr.decision.next == "restate_confirm" and "西店" in tr.decision.reply and "东店" not in tr.decision.reply, tr.decision.reply
    tr = answered(s, "继续")
    assert sorted(result_frame(tr)["订单号"]) == sorted(ORDERS[ORDERS["门店"] == "西店"]["订单号"])


def test_a_value_swapped_keeps_the_other_condition(ws):
    s = Session(ws)
    answered(s, "bakery_orders.csv keep rows where channel is App and store is East")
    tr = s.turn("no, not East, North")
    assert tr.decision.next == "restate_confirm" and "North" in tr.decision.reply and "East" not in tr.decision.reply, tr.decision.reply
    got = result_frame(answered(s, "go"))
    assert sorted(got["order_id"]) == sorted(EN[(EN["channel"] == "App") & (EN["store"] == "North")]["order_id"])


@pytest.mark.parametrize("first,drop,keep", [
    ("烘焙订单.xlsx 筛选品类是面包并且数量大于3的", "去掉数量这个条件", lambda d: d[d["品类"] == "面包"]),
    ("烘焙订单.xlsx 筛选数量大于3并且金额大于3的", "金额那个条件不要了", lambda d: d[d["数量"] > 3]),
    ("烘焙订单.xlsx 筛选门店是东店并且品类是蛋糕的", "把门店这个条件去掉", lambda d: d[d["品类"] == "蛋糕"]),
])
def test_a_dropped_condition_is_taken_out_and_the_others_stay(ws, first, drop, keep):
    s = Session(ws)
    answered(s, first)
    tr = s.turn(drop)
    assert tr.decision.next == "restate_confirm", tr.decision.reply
    got = result_frame(answered(s, "继续"))
    assert sorted(got["订单号"]) == sorted(keep(ORDERS)["订单号"])


@pytest.mark.parametrize("drop", ["drop the channel condition", "forget the channel filter", "remove the channel part"])
def test_english_drop_the_condition(ws, drop):
    s = Session(ws)
    answered(s, "bakery_orders.csv keep rows where store is East and channel is App")
    tr = s.turn(drop)
    assert tr.decision.next == "restate_confirm" and "App" not in tr.decision.reply, tr.decision.reply
    got = result_frame(answered(s, "go"))
    assert sorted(got["order_id"]) == sorted(EN[EN["store"] == "East"]["order_id"])


def test_a_key_said_after_a_bare_rejection_keeps_the_measure(ws):
    s = Session(ws)
    s.turn("烘焙订单.xlsx 按门店算金额平均值")
    s.turn("不对")
    tr = s.turn("按品类")
    assert "金额" in tr.decision.reply and "品类" in tr.decision.reply, tr.decision.reply
    assert _pairs(answered(s, "继续")) == pytest.approx(ORDERS.groupby("品类")["金额"].mean().to_dict())


def test_a_sheet_taken_back_for_another(ws):
    s = Session(ws)
    s.turn("月度销售.xlsx 二月 按门店算金额合计")
    tr = s.turn("不对，要一月的，不是二月")
    assert "一月" in tr.decision.reply and "二月" not in tr.decision.reply, tr.decision.reply
    assert _pairs(answered(s, "继续")) == pytest.approx(MONTHS["一月"].groupby("门店")["金额"].sum().to_dict())


def test_a_correction_it_cannot_place_is_never_answered_with_the_same_reply(ws):
    s = Session(ws)
    before = s.turn("烘焙订单.xlsx 按门店算金额平均值").decision.reply
    tr = s.turn("不对，是按性价比排")
    assert tr.decision.next != "execute" and tr.decision.reply != before


def test_a_number_in_a_file_name_is_not_the_number_taken_back(ws, tmp_path):
    ORDERS.to_excel(tmp_path / "订单_3.xlsx", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "订单_3.xlsx 筛选数量大于3的")
    tr = s.turn("不是3，是5")
    assert "订单_3.xlsx" in tr.decision.reply and "5" in tr.decision.reply, tr.decision.reply
    got = result_frame(answered(s, "继续"))
    assert sorted(got["订单号"]) == sorted(ORDERS[ORDERS["数量"] > 5]["订单号"])


@pytest.mark.parametrize("text,want", [
    ("不对，不是按门店，是按品类", [Change("门店", "品类", keyed=True)]),
    ("no, by category not store", [Change("store", "category", keyed=True)]),
    ("不是金额，是数量", [Change("金额", "数量")]),
    ("去掉数量这个条件", [Change("数量", None, drop=True)]),
    ("drop the channel filter", [Change("channel", None, drop=True)]),
    ("金额那个条件不要了", [Change("金额", None, drop=True)]),
    ("I meant channel", [Change(None, "channel")]),
    ("把金额改成数量", [Change("金额", "数量")]),
    ("change amount to qty", [Change("amount", "qty")]),
    ("谢谢", [Change(None, "谢谢")]),  # a clause with no marker is a part put alone; rewrite places it only as a key or column
])
def test_the_parts_of_a_correction(text, want):
    assert changes(text) == want


@pytest.mark.parametrize("first,more,want", [
    ("烘焙订单.xlsx 按门店算金额平均值", "还要加上数量的合计", [("金额", "mean"), ("数量", "sum")]),
    ("bakery_orders.csv average amount by store", "also the total qty", [("amount", "mean"), ("qty", "sum")]),
])
def test_a_measure_said_as_an_addition_joins_the_summary_that_waits(ws, first, more, want):
    s = Session(ws)
    s.turn(first)
    tr = s.turn(more)
    g = tr.decision.request.op("group")
    assert g is not None and [(m["column"], m["agg"]) for m in g.args["measures"]] == want, tr.decision.request.ops
    f = result_frame(answered(s, "继续" if tr.decision.lang == "zh" else "go"))
    data, key = (ORDERS, "门店") if tr.decision.lang == "zh" else (EN, "store")
    for col, agg in want:
        exp = data.groupby(key)[col].agg(agg)
        got = f.set_index(f.columns[0])[next(c for c in f.columns if c.startswith(col))]
        assert got.to_dict() == pytest.approx(exp.to_dict())


def test_a_key_said_with_zai_joins_the_keys_that_wait(ws):
    s = Session(ws)
    s.turn("烘焙订单.xlsx 按门店算金额平均值")
    tr = s.turn("再按品类分一下")
    assert tr.decision.request.op("group").args["keys"] == ["门店", "品类"], tr.decision.request.ops
    f = result_frame(answered(s, "继续"))
    exp = ORDERS.groupby(["门店", "品类"])["金额"].mean()
    assert {(a, b): v for a, b, v in f.iloc[:, :3].itertuples(index=False)} == pytest.approx(exp.to_dict())


STORES = pd.DataFrame({"store": ["East", "West", "North"], "city": ["Shanghai", "Hangzhou", "Nanjing"]})


@pytest.mark.parametrize("join", ["join that with stores.csv on store", "merge the last result with stores.csv on store", "把这个结果和stores.csv按store合并"])
def test_the_last_result_named_as_one_side_of_a_join_is_joined_to_the_file_named(ws, tmp_path, join):
    STORES.to_csv(tmp_path / "stores.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "bakery_orders.csv count orders by store")
    tr = answered(s, join)
    want = EN.groupby("store").size().rename("n").reset_index().merge(STORES, on="store", how="left")
    got = result_frame(tr)
    assert sorted(zip(got["store"], got["city"], got.iloc[:, 1], strict=True)) == sorted(zip(want["store"], want["city"], want["n"], strict=True))


def test_an_english_word_holding_a_condition_word_is_named_whole(ws):
    from modes.gate import understand

    s = Session(ws)
    for text, word in [("join bakery_orders.csv and another table", "another"), ("bakery_orders.csv sum of amount, notably", "notably")]:
        r = understand([text], s.catalog(), s.state)
        assert not any(w != word and w in word for w in r.unexplained), r.unexplained  # another → her, notably → ably


@pytest.mark.parametrize("first,correction,key,col", [
    ("烘焙订单.xlsx 按门店统计订单数", "不是行数，是金额合计", "门店", "金额"),
    ("bakery_orders.csv how many orders per store", "not the count, the total amount", "store", "amount"),
])
def test_a_part_of_the_reading_taken_back_is_replaced_and_the_keys_stay(ws, first, correction, key, col):
    s = Session(ws)
    answered(s, first)
    tr = _corrected(s, "", correction) if False else s.turn(correction)
    assert tr.decision.next == "restate_confirm", tr.decision.reply
    data = ORDERS if key == "门店" else EN
    assert _pairs(answered(s, "继续" if key == "门店" else "go")) == pytest.approx(data.groupby(key)[col].sum().to_dict())


def test_a_correction_naming_a_column_that_is_not_there_keeps_the_file_and_asks_about_the_column(ws):
    s = Session(ws)
    answered(s, "烘焙订单.xlsx 按门店算金额平均值")
    d = s.turn("不对，是按性价比排").decision
    assert d.next == "ask_slots" and "性价比" in d.reply and "烘焙订单.xlsx" in d.reply, d.reply


def test_a_correction_that_changes_nothing_is_said_plainly_never_restated_again(ws):
    s = Session(ws)
    answered(s, "烘焙订单.xlsx 按门店算金额平均值，门店不是南店")
    before = s.turn("不对，按门店算金额平均值")
    assert before.decision.next == "restate_confirm" and "烘焙订单.xlsx" in before.decision.reply, before.decision.reply
    again = s.turn("不对，按门店算金额平均值")  # what waits already reads so: said, never the same words again
    assert again.decision.rule == "correction_already_read" and again.decision.reply != before.decision.reply
    assert "已经是这样" in again.decision.reply
    third = s.turn("不对，按门店算金额平均值，要好看")  # a part that cannot be placed: said plainly
    assert third.decision.reply not in (before.decision.reply, again.decision.reply), third.decision.reply
    got = _pairs(answered(s, "继续"))  # what waits is unchanged, and still runs on 继续
    assert got == pytest.approx(ORDERS[ORDERS["门店"] != "南店"].groupby("门店")["金额"].mean().to_dict())


def test_a_word_describing_another_file_never_replaces_the_file_named_earlier(ws, tmp_path):
    STORES.to_csv(tmp_path / "stores.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    answered(s, "烘焙订单.xlsx 按门店算金额平均值，门店不是南店")
    d = s.turn("不对，按门店算金额合计").decision
    assert d.next == "restate_confirm" and "烘焙订单.xlsx" in d.reply and "stores.csv" not in d.reply, d.reply


def test_and_then_a_part_while_a_request_waits_adds_it_to_what_waits(ws):
    s = Session(ws)
    s.turn("bakery_orders.csv keep rows where channel is App, no wait let me check")
    tr = s.turn("and then pivot it with store as rows, category as columns, sum of amount")
    assert tr.decision.next == "restate_confirm" and tr.decision.request.kinds() == ["filter", "pivot"], tr.decision.request.ops
    got = result_frame(answered(s, "go"))
    want = EN[EN["channel"] == "App"].pivot_table(index="store", columns="category", values="amount", aggfunc="sum")
    for store, row in want.iterrows():
        line = got[got.iloc[:, 0] == store].iloc[0]
        for cat, v in row.dropna().items():
            assert float(line[cat]) == pytest.approx(v)


@pytest.mark.parametrize("text,key,figure,desc,n", [
    ("烘焙订单.xlsx 各门店多少单，多的排前面", "门店", None, True, None),
    ("烘焙订单.xlsx 按品类汇总数量，按数量合计降序取前2", "品类", "数量", True, 2),
    ("烘焙订单.xlsx 按门店把金额求和，排个名", "门店", "金额", True, None),
    ("烘焙订单.xlsx 按门店汇总金额，少的排在前面", "门店", "金额", False, None),
])
def test_an_order_said_of_a_summary_orders_its_groups_by_its_figure(ws, text, key, figure, desc, n):
    tr = answered(Session(ws), text)
    f = result_frame(tr)
    assert list(f.columns[:1]) == [key] and key not in list(f.columns[1:]) and (figure is None or f"{figure}_合计" in f.columns), list(f.columns)
    want = (ORDERS.groupby(key).size() if figure is None else ORDERS.groupby(key)[figure].sum()).sort_values(ascending=not desc, kind="stable")
    if n:
        want = want.head(n)
    assert list(f.iloc[:, 1]) == list(want.values) and list(f.iloc[:, 0]) == list(want.index)


def test_an_operation_word_changed_to_a_key_changes_the_key_not_the_words(ws):
    s = Session(ws)
    s.turn("先出个方案：烘焙订单.xlsx 按门店汇总金额")
    d = s.turn("汇总改成按品类").decision
    assert d.next == "plan_confirm" and "按 品类 分组" in d.reply and "金额 合计" in d.reply, d.reply


def test_an_order_said_before_the_summary_it_orders_runs_after_it(ws):
    s = Session(ws)
    s.turn("烘焙订单.xlsx 按门店拆开看，金额从高到低排")
    tr = s.turn("不对，是按门店分组汇总金额，然后按金额降序")
    assert tr.decision.next == "restate_confirm" and tr.decision.reply.index("分组") < tr.decision.reply.index("降序"), tr.decision.reply
    f = result_frame(answered(s, "继续"))
    want = ORDERS.groupby("门店")["金额"].sum().sort_values(ascending=False)
    assert list(f.iloc[:, 0]) == list(want.index) and list(f.iloc[:, 1]) == list(want.values)


@pytest.mark.parametrize("first,value", [("烘焙订单.xlsx 按门店和品类数一下订单", None), ("烘焙订单.xlsx 按门店和品类汇总金额", "金额")])
def test_a_pivot_said_instead_of_a_summary_lays_out_its_figure_never_pivots_its_result(ws, first, value):
    s = Session(ws)
    answered(s, first)
    tr = s.turn("换成透视表吧，门店做列，品类做行")
    assert tr.decision.request.kinds() == ["pivot"], tr.decision.request.ops
    f = result_frame(answered(s, "继续")).set_index("品类")
    want = ORDERS.pivot_table(index="品类", columns="门店", values=value or "订单号", aggfunc="sum" if value else "count")
    for cat, row in want.iterrows():
        for store, v in row.dropna().items():
            assert float(f.loc[cat, store]) == pytest.approx(v)


def test_gaiyong_a_statistic_after_a_summary_swaps_its_statistic(ws):
    s = Session(ws)
    answered(s, "烘焙订单.xlsx 按门店算金额合计")
    tr = s.turn("改用中位数")
    assert tr.decision.next == "restate_confirm" and "中位数" in tr.decision.reply and "门店" in tr.decision.reply, tr.decision.reply
    assert _pairs(answered(s, "继续")) == pytest.approx(ORDERS.groupby("门店")["金额"].median().to_dict())


def test_an_order_said_by_this_after_a_summary_is_asked_of_that_result(ws):
    s = Session(ws)
    answered(s, "烘焙订单.xlsx 按门店算金额合计")
    d = s.turn("按这个从高到低排一下").decision
    assert d.request.file and d.request.file.startswith("outputs/") and ("金额_合计" in d.reply or d.next != "ask_slots"), d.reply
