"""The operation registry: one home per operation, and a new operation needs only its OpSpec, its tool and tests."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from engine.plan import build_plan
from engine.session import Session
from modes import opspec
from modes.decision import SessionState
from modes.gate import decide
from modes.opspec import OpSpec, PlanContext, Slot, StepSpec, operation
from modes.table import select_mode
from tools import registry
from tools.registry import ToolResult, tool
from tools.workspace import Workspace


def test_every_built_in_operation_has_labels_a_family_and_steps_from_registered_tools():
    names = set(registry.names())
    for spec in opspec.all_ops():
        assert spec.label.get("zh") and spec.label.get("en"), spec.name
        assert spec.family in opspec.FAMILIES
        for s in spec.slots:
            assert s.zh and s.en
    steps = opspec.get("sort").to_steps({"by": ["金额"], "ascending": False}, PlanContext(None))  # type: ignore[union-attr]
    assert [(s.tool, s.args) for s in steps] == [("sort_rows", {"by": ["金额"], "ascending": False})]
    assert all(s.tool in names for s in steps)


def test_mode_families_come_from_the_registry():
    assert "filter" in opspec.kinds_of("transform") and "outliers" in opspec.kinds_of("explore")
    assert opspec.label("dedupe", "zh") == "去重" and opspec.label("dedupe", "en") == "dedupe"


def test_a_name_is_registered_once():
    with pytest.raises(ValueError):
        @operation
        class AgainFilter(OpSpec):
            name = "filter"


@pytest.fixture
def value_range():
    """A new operation defined only here: its OpSpec and its tool."""
    registry.names()  # the built-in tools first

    @tool
    def column_value_range(table: pd.DataFrame, column: str) -> ToolResult:
        """Largest minus smallest value of a numeric column."""
        s = pd.to_numeric(table[column], errors="coerce")
        spread = float(s.max() - s.min())
        return ToolResult(data=table, facts={"column": column, "range": spread, "rows_in": len(table), "rows_out": len(table)})

    @operation
    class ValueRange(OpSpec):
        name = "value_range_demo"
        family = "explore"
        label = {"zh": "极差", "en": "range"}
        words = {"zh": ("极差",), "en": ("value range",)}
        slots = (Slot("column", "column", "要算哪一列的极差？", "Range of which column?", numeric=True),)
        answers_question = True

        def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
            return [StepSpec("计算极差", "column_value_range", "极差已算出", {"column": args["column"]})]

        def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
            if tool != "column_value_range":
                return None
            v = facts["range"]
            v = int(v) if float(v).is_integer() else v
            return f"{facts['column']} 的极差是 {v}。" if lang == "zh" else f"The range of {facts['column']} is {v}."

    yield ValueRange
    opspec.unregister("value_range_demo")
    registry.TOOLS.pop("column_value_range", None)


def _workspace(tmp_path) -> tuple[Workspace, pd.DataFrame]:
    df = pd.DataFrame({"城市": ["上海", "北京", "上海", "广州", "北京"], "金额": [120, 45, 300, 80, 210], "数量": [1, 2, 3, 4, 5]})
    df.to_csv(tmp_path / "sales.csv", index=False)
    return Workspace.at(tmp_path), df


def test_a_new_operation_is_read_restated_planned_run_and_answered(tmp_path, value_range):
    ws, df = _workspace(tmp_path)
    s = Session(ws)
    tr = s.turn("sales.csv 金额的极差是多少")
    d = tr.decision
    assert d.request.kinds() == ["value_range_demo"]
    assert select_mode("act", d.request).mode == "explore"
    if d.next != "execute":
        assert "极差" in d.reply
        tr = s.turn("继续")
    assert tr.run is not None and tr.run.status == "answered"
    expected = int(df["金额"].max() - df["金额"].min())
    assert f"金额 的极差是 {expected}" in (tr.run.answer or "")
    assert not tr.run.files  # a figure, no result file


def test_a_new_operation_asks_its_own_question_for_a_missing_slot(tmp_path, value_range):
    ws, _ = _workspace(tmp_path)
    d, _ = decide(SessionState(), "算一下 sales.csv 的极差", Session(ws).catalog())
    assert d.next == "ask_slots" and "column" in d.missing
    assert "要算哪一列的极差" in d.reply


def test_a_new_operation_reaches_the_model_goals_and_the_plan(tmp_path, value_range):
    ws, _ = _workspace(tmp_path)
    assert "value_range_demo" in opspec.proposable()
    d, _ = decide(SessionState(), "what is the value range of 数量 in sales.csv", Session(ws).catalog())
    plan = build_plan(d, Session(ws).catalog())
    assert [st.toolHint for st in plan.steps] == ["profile_dataset", "column_value_range"]
    assert plan.steps[1].args == {"column": "数量"}
