"""The insufficient_context fallback, white-box: three cases with good evidence, three boundary cases, three
follow-ups. Each asserts the state transition and that the constraint was evaluated (18 checks)."""

import pytest

from engine.session import Session


def last_run_events(session: Session, tr):
    return session.audit.run(tr.trace_id)["events"]


def check(session, tr, status, reason):
    """Check 1: the run's state and reason. Check 2: the evidence constraint was evaluated, no model called."""
    assert (tr.run.status, tr.run.fallback_reason) == (status, reason)
    if status == "answered":
        assert tr.run.answer is not None
    else:
        assert tr.run.answer is None
    events = last_run_events(session, tr)
    evaluated = [e for e in events if e["node"].startswith(("step:", "run", "review"))]
    assert evaluated and all(e["constraint_evaluated"] == 1 for e in evaluated)
    assert all(e["model_called"] == 0 for e in events)
    final = events[-1]
    if status != "answered":
        assert final["state_transition"] == f"running -> {status}" and final["fallback_reason"] == reason
    else:
        assert (final["node"], final["state_transition"]) == ("review", "done -> answered")
        assert events[-2]["state_transition"] == "running -> done"


GOOD = [
    "sample_data里哪个城市金额最高？",
    "上海_poi.xlsx 里评分4.5以上的店",
    "库存明细 有多少行",
]


@pytest.mark.parametrize("utterance", GOOD)
def test_good_evidence_answers(session, utterance):
    tr = session.turn(utterance)
    assert tr.decision.next == "execute"
    check(session, tr, "answered", None)


def test_boundary_zero_rows(session, ws_dir):
    tr = session.turn("上海_poi.xlsx 里评分大于 9 的店导出来")
    check(session, tr, "insufficient_context", "no_rows_match")
    assert not (ws_dir / "outputs").exists()


def test_boundary_broken_schema(session, ws_dir):
    d = session.turn("把库存明细.csv按库存数量排序后直接覆盖原文件").decision
    assert d.next == "plan_confirm"
    # between the plan card and the confirmation the file changes: the column the plan needs is gone
    (ws_dir / "库存明细.csv").write_text("商品编号,仓库\n001,华东仓\n", encoding="utf-8")
    tr = session.turn("继续")
    check(session, tr, "insufficient_context", "column_absent")
    assert "库存数量" in tr.run.notes[0] and not (ws_dir / "outputs").exists()


def test_boundary_period_outside_the_data(session):
    tr = session.turn("sample_data 订单表 2023年Q3 的订单")
    check(session, tr, "insufficient_context", "period_absent")


def test_follow_up_user_supplies_the_missing_file(session):
    d = session.turn("分析一下 销售报表.xlsx").decision
    assert d.gate == "clarify" and "file" in d.missing
    tr = session.turn("哦，是 sample_data")
    assert tr.decision.next == "restate_confirm"
    tr = session.turn("继续")
    check(session, tr, "answered", None)


def test_follow_up_rephrase_after_a_refusal(session):
    tr = session.turn("上海_poi.xlsx 里评分大于 9 的店")
    check(session, tr, "insufficient_context", "no_rows_match")
    tr = session.turn("上海_poi.xlsx 里评分大于 4 的店")
    check(session, tr, "answered", None)


def test_follow_up_ask_again_after_the_context_is_fixed(session, ws_dir):
    (ws_dir / "新数据.csv").write_bytes(b"\x00\x01\x02")
    tr = session.turn("预览 新数据.csv")
    check(session, tr, "insufficient_context", "parse_failed")
    (ws_dir / "新数据.csv").write_text("城市,金额\n上海,10\n", encoding="utf-8")
    tr = session.turn("预览 新数据.csv")
    check(session, tr, "answered", None)
    assert len(tr.run.table) == 1
