"""The operation registry: one home per operation, and a new operation needs only its OpSpec, its tool and tests."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from engine.plan import build_plan
from engine.session import Session
from modes import opspec
from modes.decision import SessionState
from modes.dialogue import decide
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
    from modes.schema import operations_text

    assert "/ value_range_demo:" in operations_text()  # the model's prompt lists it
    d, _ = decide(SessionState(), "what is the value range of 数量 in sales.csv", Session(ws).catalog())
    plan = build_plan(d, Session(ws).catalog())
    assert [st.toolHint for st in plan.steps] == ["profile_dataset", "column_value_range"]
    assert plan.steps[1].args == {"column": "数量"}


@pytest.fixture
def spread_by():
    """A worded operation with keys: the built-in summary rules stand aside while it is in a request."""
    registry.names()

    @tool
    def spread_per_group(table: pd.DataFrame, keys: list[str], column: str) -> ToolResult:
        """Largest minus smallest value of a column per group."""
        out = table.groupby(keys)[column].agg(lambda s: s.max() - s.min()).reset_index(name=f"{column}_极差")
        return ToolResult(out, {"rows_in": len(table), "rows_out": len(out)})

    @operation
    class SpreadBy(OpSpec):
        name = "spread_by_demo"
        family = "transform"
        label = {"zh": "分组极差", "en": "range per group"}
        words = {"zh": ("极差",), "en": ("range",)}
        slots = (Slot("keys", "keys", "按哪一列分组？", "Per which column?"),
                 Slot("column", "column", "哪一列的极差？", "Range of which column?", numeric=True))
        saves_result = True

        def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
            return [StepSpec("分组算极差", "spread_per_group", "完成", {"keys": args["keys"], "column": args["column"]})]

    yield SpreadBy
    opspec.unregister("spread_by_demo")
    registry.TOOLS.pop("spread_per_group", None)


def test_a_worded_operation_with_keys_is_one_operation(tmp_path, spread_by):
    ws, df = _workspace(tmp_path)
    s = Session(ws)
    tr = s.turn("sales.csv 按城市算金额的极差")
    assert tr.decision.request.kinds() == ["spread_by_demo"]
    assert tr.decision.request.ops[0].args == {"keys": ["城市"], "column": "金额"}
    if tr.run is None:
        tr = s.turn("继续")
    got = pd.read_csv(tmp_path / tr.run.files[0]["path"])  # type: ignore[union-attr]
    want = df.groupby("城市")["金额"].agg(lambda x: x.max() - x.min()).to_dict()
    assert dict(zip(got["城市"], got["金额_极差"], strict=True)) == want


def test_every_module_of_the_operation_packages_registers_itself():
    import pkgutil

    import modes.opspecs
    import tools.optools

    specs = {type(s).__module__ for s in opspec.all_ops()}
    tools_ = {t.func.__module__ for t in registry.TOOLS.values()} if registry.names() else set()
    for m in pkgutil.iter_modules(modes.opspecs.__path__):
        assert f"modes.opspecs.{m.name}" in specs, m.name
    for m in pkgutil.iter_modules(tools.optools.__path__):
        assert f"tools.optools.{m.name}" in tools_, m.name


@pytest.fixture
def overlapping():
    @operation
    class Plain(OpSpec):
        name = "plain_word_demo"
        label = {"zh": "整表", "en": "whole"}
        words = {"zh": ("全距表",)}

    @operation
    class Specific(OpSpec):
        name = "specific_word_demo"
        label = {"zh": "全距", "en": "range"}
        words = {"zh": ("全距",)}
        precedence = 1

    yield
    opspec.unregister("plain_word_demo")
    opspec.unregister("specific_word_demo")


def test_where_words_overlap_the_operation_of_higher_precedence_reads_them(overlapping):
    kinds = [f.kind for f in opspec.read_worded("看一下全距表", [], None)]
    assert "specific_word_demo" in kinds and "plain_word_demo" not in kinds


@pytest.fixture
def named_gap(value_range):
    @operation
    class FullRange(OpSpec):
        name = "full_range_demo"
        family = "explore"
        label = {"zh": "摆幅", "en": "swing"}
        words = {"zh": ("摆幅",), "en": ("swing",)}
        slots = (Slot("column", "column", "要算哪一列的摆幅？", "Swing of which column?", numeric=True, gap="range_of"),)
        answers_question = True

        def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
            return [StepSpec("计算摆幅", "column_value_range", "摆幅已算出", {"column": args["column"]})]

    yield FullRange
    opspec.unregister("full_range_demo")


@pytest.mark.parametrize("answer", ["数量", "用 数量 这一列"])
def test_an_answer_to_an_operations_own_question_fills_its_slot(tmp_path, named_gap, answer):
    ws, df = _workspace(tmp_path)
    s = Session(ws)
    tr = s.turn("算一下 sales.csv 的摆幅")
    assert tr.decision.next == "ask_slots" and "range_of" in tr.decision.missing and "要算哪一列的摆幅" in tr.decision.reply
    tr = s.turn(answer)
    if tr.run is None and tr.decision.next in ("restate_confirm", "plan_confirm"):
        tr = s.turn("继续")
    assert tr.decision.request.op("full_range_demo").args["column"] == "数量"  # type: ignore[union-attr]
    assert tr.run is not None and tr.run.status == "answered"
    facts = next(o.facts for o in tr.run.steps if o.tool == "column_value_range")
    assert facts["column"] == "数量" and facts["range"] == df["数量"].max() - df["数量"].min()


@pytest.fixture
def every_nth():
    """A new operation with a number slot, defined only here."""
    registry.names()

    @tool
    def every_nth_row(table: pd.DataFrame, step: int) -> ToolResult:
        """Every step-th row."""
        out = table.iloc[:: int(step)]
        return ToolResult(data=out, facts={"step": step, "rows_in": len(table), "rows_out": len(out)})

    @operation
    class EveryNth(OpSpec):
        name = "every_nth_demo"
        family = "transform"
        label = {"zh": "隔行抽取", "en": "every nth row"}
        words = {"zh": ("隔行抽取",), "en": ("every nth row",)}
        slots = (Slot("step", "number", "每隔几行取一行？", "Every how many rows?"),)
        saves_result = True

        def answer_word(self, slot: str, text: str) -> str | None:
            return text.strip() if slot == "step" and text.strip().isdigit() else None

        def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
            return [StepSpec("隔行抽取", "every_nth_row", "已抽取", {"step": int(args["step"])})]

    yield EveryNth
    opspec.unregister("every_nth_demo")
    registry.TOOLS.pop("every_nth_row", None)


def test_a_number_slot_is_asked_without_a_list_of_columns_and_a_number_typed_back_fills_it(every_nth, tmp_path):
    pd.DataFrame({"城市": list("甲乙丙丁戊己"), "金额": [1, 2, 3, 4, 5, 6]}).to_csv(tmp_path / "t.csv", index=False)
    s = Session(Workspace.at(tmp_path))
    tr = s.turn("t.csv 隔行抽取")
    assert tr.decision.missing == ("step",) and "每隔几行" in tr.decision.reply and "现有列" not in tr.decision.reply, tr.decision.reply
    tr = s.turn("2")
    if tr.run is None:
        tr = s.turn("继续")
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    from tools.outofcore import in_memory

    assert in_memory(tr.run.table)["金额"].tolist() == [1, 3, 5]
