"""The dialogue table: each kind of turn, in each stage, taken by its own row."""

from __future__ import annotations

import pytest

from modes.decision import SessionState
from modes.dialogue import DIALOGUE, decide


def test_the_last_row_takes_any_turn():
    assert DIALOGUE[-1].stage == "any" and DIALOGUE[-1].when(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("turns,nxt,rule", [
    (["sales 排个序", "取消"], "cancel", "cancel_word"),
    (["继续"], "ask_intent", "confirm_nothing_pending"),
    (["帮我弄一下 sample_data.xlsx", "好的"], "ask_intent", "confirm_nothing_pending"),
    (["筛选一下 POI 数据", "继续"], "ask_slots", "confirm_while_clarifying"),
    (["按城市汇总 sample_data.xlsx 订单表的金额", "等一下"], "cancel", "cancel_word"),
    (["库存明细.csv 按那个分组", "你是谁"], "reply", "chat:about"),
    (["库存明细.csv 排个序", "按单价"], "restate_confirm", "completed_over_turns"),
    (["库存明细.csv 排个序", "用 单价 这一列"], "restate_confirm", "completed_over_turns"),
])
def test_each_kind_of_turn_has_its_row(catalog, turns, nxt, rule):
    state = SessionState()
    d = None
    for t in turns:
        d, state = decide(state, t, catalog)
    assert d is not None and (d.next, d.rule) == (nxt, rule), d.reply


@pytest.mark.parametrize("turns", [
    ["预览 销售报表.xlsx", "把库存明细.csv按库存数量排序后直接覆盖原文件"],
    ["库存明细.csv 按那个排序", "算了，库存明细.csv 按仓库分组汇总库存数量，先出方案"],
])
def test_a_new_request_while_one_waits_says_the_old_one_was_set_aside(catalog, turns):
    state = SessionState()
    d = None
    for t in turns:
        d, state = decide(state, t, catalog)
    assert d is not None and d.next in ("plan_confirm", "restate_confirm") and d.reply.startswith("（之前那个请求已放下。）"), d.reply


# ---------------------------------------------------------------- each behaviour, run through a session on generated data


@pytest.fixture()
def ws(tmp_path):
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(5)
    n = 40
    for city in ("上海", "北京"):
        pd.DataFrame({"名称": [f"{city}店{i}" for i in range(n)], "区": rng.choice(["东区", "西区", "南区"], n),
                      "评分": rng.integers(1, 6, n), "人均消费": rng.integers(20, 300, n)}).to_csv(tmp_path / f"{city}_poi.csv", index=False)
    return tmp_path


def _session(root):
    from engine.session import Session
    from tools.workspace import Workspace

    return Session(Workspace.at(root))


def _table(root, tr):
    import pandas as pd

    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    return pd.read_csv(root / tr.run.files[0]["path"])


def _src(root, name):
    import pandas as pd

    return pd.read_csv(root / name)


PLAN = "把上海_poi.csv按评分排序后直接覆盖原文件"  # always a plan card: something waits for confirmation


@pytest.mark.parametrize("word", ["继续", "好的", "可以", "行", "没问题，执行吧", "对，就这样", "好，跑吧", "确认", "ok", "yes", "go",
                                  "OK go ahead", "sure, run it", "let's do it", "yes please", "sounds good"])
def test_confirm_variants_run_what_waits(ws, word):
    s = _session(ws)
    assert s.turn(PLAN).decision.next == "plan_confirm"
    tr = s.turn(word)
    assert (tr.decision.next, tr.decision.rule) == ("execute", "confirm_pending"), tr.decision.reply
    got = _table(ws, tr)
    assert list(got["评分"]) == sorted(_src(ws, "上海_poi.csv")["评分"])


@pytest.mark.parametrize("word", ["取消", "算了", "不用了", "cancel", "never mind", "不用了，谢谢", "no thanks", "先放着", "这个先放一放吧", "leave it for now",
                                  "等一下", "hold on", "forget it"])
def test_cancel_and_hold_run_nothing_and_drop_what_waits(ws, word):
    s = _session(ws)
    s.turn(PLAN)
    tr = s.turn(word)
    assert tr.run is None and tr.decision.next == "cancel", tr.decision.reply
    after = s.turn("继续")  # nothing waits any more
    assert after.run is None and after.decision.next == "ask_intent", after.decision.reply
    assert not (ws / "outputs").exists() or not any((ws / "outputs").iterdir())


@pytest.mark.parametrize("first,fix,keep", [
    ("上海_poi.csv 排个序", "不是上海，是北京", "北京_poi.csv"),
    ("上海_poi.csv 排个序", "换成北京的", "北京_poi.csv"),
    ("sort 上海_poi.csv", "not shanghai, beijing", "北京_poi.csv"),
])
def test_a_file_swap_keeps_the_request_and_changes_the_file(ws, first, fix, keep):
    s = _session(ws)
    s.turn(first)
    tr = s.turn(fix)
    assert tr.run is None and tr.decision.request.file == keep, tr.decision.reply
    tr = s.turn("评分")  # the question still asked is answered: the slot is filled, on the swapped file
    assert tr.decision.next == "restate_confirm" and tr.decision.request.file == keep, tr.decision.reply
    got = _table(ws, s.turn("继续"))
    assert list(got["评分"]) == sorted(_src(ws, keep)["评分"])


@pytest.mark.parametrize("fix,op,value", [("不对，是评分大于3", "gt", 3), ("条件改成评分小于3", "lt", 3), ("应该是评分不低于4", "ge", 4),
                                          ("I meant 评分 > 2", "gt", 2)])
def test_a_correction_replaces_the_condition_and_is_restated(ws, fix, op, value):
    s = _session(ws)
    first = s.turn("筛选 上海_poi.csv 里评分大于4的行")
    first = first if first.run else s.turn("继续")
    tr = s.turn(fix)
    assert tr.run is None and tr.decision.next == "restate_confirm", tr.decision.reply
    cond = tr.decision.request.ops[0].args["conditions"]
    assert [(c.column, c.op, c.value) for c in cond] == [("评分", op, value)]
    got = _table(ws, s.turn("继续"))
    df = _src(ws, "上海_poi.csv")
    want = {"gt": df["评分"] > value, "lt": df["评分"] < value, "ge": df["评分"] >= value}[op]
    assert list(got["名称"]) == list(df[want]["名称"])


@pytest.mark.parametrize("aside", ["算了这个先放着，帮我把 北京_poi.csv 按人均消费排序", "先放一放，北京_poi.csv 按人均消费排序",
                                   "never mind, sort 北京_poi.csv by 人均消费", "leave that for now and sort 北京_poi.csv by 人均消费",
                                   "不管了，北京_poi.csv 按人均消费排个序"])
def test_setting_aside_decides_the_new_request(ws, aside):
    s = _session(ws)
    assert s.turn("上海_poi.csv 排个序").decision.next == "ask_slots"
    tr = s.turn(aside)
    if tr.run is None:
        assert tr.decision.next == "restate_confirm", tr.decision.reply
        tr = s.turn("继续")
    got = _table(ws, tr)
    assert list(got["人均消费"]) == sorted(_src(ws, "北京_poi.csv")["人均消费"])


@pytest.mark.parametrize("answer,column", [("评分", "评分"), ("就按评分吧", "评分"), ("用 人均消费 这一列", "人均消费"), ("按人均消费", "人均消费")])
def test_an_answer_to_its_own_question_fills_the_slot(ws, answer, column):
    s = _session(ws)
    s.turn("上海_poi.csv 排个序")
    tr = s.turn(answer)
    assert tr.run is None and tr.decision.next == "restate_confirm", tr.decision.reply
    assert tr.decision.request.kinds() == ["sort"] and tr.decision.request.file == "上海_poi.csv"
    got = _table(ws, s.turn("继续"))
    assert list(got[column]) == sorted(_src(ws, "上海_poi.csv")[column])


@pytest.mark.parametrize("new", ["北京_poi.csv 按人均消费从高到低排", "sort 北京_poi.csv by 人均消费 descending"])
def test_a_new_request_while_one_waits_wins_and_says_so(ws, new):
    s = _session(ws)
    assert s.turn("上海_poi.csv 按那个分组").decision.next == "ask_slots"
    tr = s.turn(new)
    if tr.run is None:
        assert tr.decision.reply.startswith(("（之前那个请求已放下。）", "(The earlier request was set aside.)")), tr.decision.reply
        tr = s.turn("继续")
    else:
        assert any("放下" in n or "set aside" in n for n in tr.notices), tr.notices
    got = _table(ws, tr)
    assert list(got["人均消费"]) == sorted(_src(ws, "北京_poi.csv")["人均消费"], reverse=True)
    assert s.turn("继续").decision.next == "ask_intent"  # the old request is gone
