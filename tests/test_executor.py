"""The executor: doneWhen checked in code, insufficient_context as a state, reflection within limits."""

from dataclasses import replace

import pytest

from engine.audit import Audit
from engine.executor import MAX_PER_STEP, execute
from engine.plan import Plan, Step, build_plan
from modes.decision import Decision, Request
from tools import registry
from tools.registry import ToolResult


def decision(file="上海_poi.xlsx", ops=(), lang="zh"):
    req = Request(intent="work", ops=tuple(ops), file=file, lang=lang)
    return Decision("act", "execute", "transform", "soft", 0.9, req, "", "test", "test", "test", lang=lang)


def plan_of(steps):
    return Plan("transform", "test", "soft", "test", [Step(i + 1, s[0], s[0], s[1], s[2]) for i, s in enumerate(steps)], "goal")


def run(ws, steps, d=None):
    audit = Audit.in_memory()
    audit.start_run("t1", 1, "x", {}, 0)
    return execute(plan_of(steps), d or decision(), ws, audit, "t1"), audit


def test_no_rows_match_is_insufficient_context_and_nothing_is_written(ws, ws_dir):
    r, audit = run(ws, [
        ("profile_dataset", "获取列信息", {"path": "上海_poi.xlsx"}),
        ("filter_rows", "筛选完成", {"conditions": [{"column": "评分", "op": "gt", "value": 99}]}),
        ("write_csv", "导出成功", {"stem": "x"}),
    ])
    assert (r.status, r.answer, r.fallback_reason) == ("insufficient_context", None, "no_rows_match")
    assert not (ws_dir / "outputs").exists() or not list((ws_dir / "outputs").iterdir())
    ev = audit.run("t1")["events"]
    assert ev[-1]["fallback_reason"] == "no_rows_match" and ev[-1]["constraint_evaluated"] == 1
    assert all(e["model_called"] == 0 for e in ev)


def test_period_absent(ws):
    r, _ = run(ws, [
        ("profile_dataset", "获取列信息", {"path": "sample_data.xlsx", "sheet": "订单"}),
        ("filter_rows", "筛选完成", {"conditions": [{"column": "日期", "op": "between", "value": {"date": "2023-07-01"}, "value2": {"date": "2023-09-30"}}]}),
    ], decision("sample_data.xlsx"))
    assert (r.status, r.fallback_reason) == ("insufficient_context", "period_absent")


def test_broken_schema_is_column_absent_not_a_swap(ws):
    r, _ = run(ws, [
        ("profile_dataset", "获取列信息", {"path": "上海_poi.xlsx"}),
        ("sort_rows", "排序完成", {"by": ["星级"]}),
    ])
    assert (r.status, r.fallback_reason, r.answer) == ("insufficient_context", "column_absent", None)
    assert "星级" in r.notes[0]


def test_parse_failed(ws, ws_dir):
    (ws_dir / "bad.xlsx").write_bytes(b"PK\x03\x04 broken")
    r, _ = run(ws, [("profile_dataset", "获取列信息", {"path": "bad.xlsx"})], decision("bad.xlsx"))
    assert (r.status, r.fallback_reason) == ("insufficient_context", "parse_failed")


def test_good_evidence_answers(ws):
    r, _ = run(ws, [
        ("profile_dataset", "获取列信息", {"path": "sample_data.xlsx", "sheet": "订单"}),
        ("group_summarize", "汇总完成", {"keys": ["城市"], "measures": [{"column": "金额", "agg": "sum"}]}),
        ("sort_rows", "排序完成", {"by": ["金额"], "ascending": False}),
    ], decision("sample_data.xlsx"))
    assert r.status == "answered" and r.fallback_reason is None
    # reparam: the sort named the source column; our own group step renamed it to 金额_合计
    assert r.reflections == 1 and "金额_合计" in r.tried[0]
    assert list(r.table["金额_合计"]) == sorted(r.table["金额_合计"], reverse=True)


def test_reflection_limit_per_step(ws, monkeypatch):
    calls = {"n": 0}

    def flaky(table):
        """Always returns a result whose facts contradict its data."""
        calls["n"] += 1
        return ToolResult(table, {"rows_out": -calls["n"]})

    monkeypatch.setitem(registry.TOOLS, "flaky", registry.Tool("flaky", "test", flaky, ("table",), ("table",)))
    r, _ = run(ws, [("profile_dataset", "获取列信息", {"path": "上海_poi.xlsx"}), ("flaky", "完成", {})])
    assert r.status == "escalated" and r.fallback_reason == "reflection_limit"
    assert calls["n"] == MAX_PER_STEP and "我已经尝试了" in r.notes[0]


def test_repeated_state_stops_at_once(ws, monkeypatch):
    calls = {"n": 0}

    def stuck(table):
        """Always the same wrong result."""
        calls["n"] += 1
        return ToolResult(table, {"rows_out": -1})

    monkeypatch.setitem(registry.TOOLS, "stuck", registry.Tool("stuck", "test", stuck, ("table",), ("table",)))
    r, _ = run(ws, [("profile_dataset", "获取列信息", {"path": "上海_poi.xlsx"}), ("stuck", "完成", {})])
    assert r.status == "escalated" and r.fallback_reason == "repeated_state" and calls["n"] == 2


def test_missing_argument_is_an_error_never_a_guess(ws):
    from tools.errors import ToolArgError

    with pytest.raises(ToolArgError) as e:
        registry.call("sort_rows", {"table": None})
    assert "缺少参数" in str(e.value)
    with pytest.raises(ToolArgError):
        registry.call("no_such_tool", {})


def test_plan_object_has_exactly_the_spec_keys(catalog):
    from conftest import run_turns

    d = run_turns(catalog, ["筛选 上海_poi.xlsx，地址不为空"])
    p = build_plan(d, catalog).to_dict()
    assert set(p) == {"mode", "modeReason", "planStyle", "planStyleReason", "steps", "goalSummary"}
    assert [s["toolHint"] for s in p["steps"]] == ["profile_dataset", "filter_rows", "write_csv"]
    assert all(set(s) == {"step", "action", "toolHint", "doneWhen"} for s in p["steps"])
    assert all(s["toolHint"] in registry.names() for s in p["steps"])
    assert replace(d, next="x").request is d.request


def test_answers_carry_only_numbers_found_in_tool_outputs(session):
    from engine.executor import unsupported_numbers

    tr = session.turn("sample_data里哪个城市金额最高？")
    assert "杭州" in tr.run.answer and "547766" in tr.run.answer
    assert unsupported_numbers(tr.run.answer, tr.run) == []
    assert unsupported_numbers("杭州最高：999999。", tr.run) == ["999999"]
    review = session.audit.run(tr.trace_id)["events"][-1]
    assert review["node"] == "review" and review["constraint_evaluated"] == 1


def test_blanks_introduced_by_a_step_are_reported(ws, ws_dir):
    import pandas as pd

    pd.DataFrame({"商品": ["甲", "乙", "丙"], "数量": [1, "缺货", 3], "单价": [2, 3, 4]}).to_csv(ws_dir / "进货.csv", index=False)
    r, audit = run(ws, [
        ("profile_dataset", "获取列信息", {"path": "进货.csv"}),
        ("add_column", "新列已计算", {"name": "金额", "left": "数量", "op": "*", "right": {"column": "单价"}}),
    ], decision("进货.csv"))
    assert r.status == "answered"
    assert any("新列“金额”有 1 个空值" in n for n in r.notes)
    assert any(e["node"] == "check:2" for e in audit.run("t1")["events"])


def test_mixed_values_reflect_then_succeed(ws, ws_dir):
    import pandas as pd

    pd.DataFrame({"编号": [3, "A7", 1, "B2"], "名称": list("甲乙丙丁")}).to_excel(ws_dir / "混合.xlsx", index=False)
    r, audit = run(ws, [("profile_dataset", "获取列信息", {"path": "混合.xlsx"}), ("sort_rows", "排序完成", {"by": ["编号"]})], decision("混合.xlsx"))
    assert r.status == "answered" and r.reflections == 1 and r.table["编号"].astype(str).tolist() == ["1", "3", "A7", "B2"]
    ev = [e for e in audit.run("t1")["events"] if e["node"] == "reflect:2"]
    assert ev and ev[0]["state_transition"] == "failed -> reparam"


def test_a_step_that_cannot_be_revised_escalates_with_what_was_tried(ws, monkeypatch):
    calls = {"n": 0}

    def brittle(table):
        """Always fails on the data."""
        calls["n"] += 1
        raise TypeError("unsupported")

    monkeypatch.setitem(registry.TOOLS, "brittle", registry.Tool("brittle", "test", brittle, ("table",), ("table",)))
    r, _ = run(ws, [("profile_dataset", "获取列信息", {"path": "上海_poi.xlsx"}), ("brittle", "完成", {})])
    assert (r.status, r.fallback_reason, calls["n"]) == ("escalated", "reflection_limit", 1)
    assert "我已经尝试了1种路径" in r.notes[0] and "建议您" in r.notes[0]


@pytest.mark.parametrize(
    "utterance,answer",
    [("库存明细 单价最高是多少", "单价_最大：5200。"), ("上海_poi.xlsx 的区有哪些", "区 共有 5 个不同的值："),
     ("上海_poi 的平均评分是多少", "评分_平均：")],
)
def test_questions_are_answered_with_their_figures(session, utterance, answer):
    from engine.executor import unsupported_numbers

    tr = session.turn(utterance)
    assert tr.run.status == "answered" and answer in tr.run.answer and not tr.run.files
    assert unsupported_numbers(tr.run.answer, tr.run) == []


def test_shown_figures_are_checked_against_tool_values():
    from engine.executor import RunResult, StepOutcome, unsupported_numbers

    r = RunResult("answered", None, steps=[StepOutcome(1, "share_of_total", "success", {"total": 12345678.9, "pct": 23.46, "ratio": 0.0512})])
    assert unsupported_numbers("合计 1234.57万，占 23.46%，另 5.12%，即 12,345,678.9", r) == []
    assert unsupported_numbers("合计 1300万，占 24%", r) == ["1300万", "24%"]


def test_a_decrease_said_without_its_sign_is_found_in_the_tool_outputs():
    from engine.executor import RunResult, StepOutcome, unsupported_numbers

    run = RunResult(status="answered", answer=None, steps=[StepOutcome(step=1, tool="compare_years", status="done", facts={"change": -4.8, "rate": -0.0312})])
    assert unsupported_numbers("比上一年减少 4.8（下降 3.12%）。", run) == []
    assert unsupported_numbers("比上一年减少 5.8。", run) == ["5.8"]
