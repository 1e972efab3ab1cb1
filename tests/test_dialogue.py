"""The dialogue table: each kind of turn, in each stage, taken by its own row."""

from __future__ import annotations

import pytest

from modes.decision import SessionState
from modes.dialogue import DIALOGUE, decide_turn


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
        d, state = decide_turn(state, t, catalog)
    assert d is not None and (d.next, d.rule) == (nxt, rule), d.reply
