"""The model's schema is the typed query: generated from the registry, and every query the rules make reads back
through it unchanged (so a model can say everything the engine does)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.catalog import CatalogCache
from engine.intake import decide_checked
from modes import opspec
from modes.decision import SessionState
from modes.query import STAGES, query_of
from modes.schema import (
    NOT_A_STEP,
    View,
    described,
    internal_keys,
    op_params,
    operations_text,
    read_answer,
    schema,
    step_kinds,
)
from tools.workspace import Workspace

EVAL = Path(__file__).resolve().parents[2] / "shared" / "eval"
HELDOUT = Path(__file__).resolve().parents[1] / "benchmarks" / "heldout"


def test_every_registered_operation_is_in_the_schema() -> None:
    """Adding an operation without its arguments in params.toml fails here."""
    names = {s.name for s in opspec.all_ops()}
    assert names <= described(), f"no arguments listed in modes/opspecs/params.toml for: {sorted(names - described())}"
    assert described() <= names, f"params.toml lists operations that do not exist: {sorted(described() - names)}"
    in_steps = {k for st in STAGES for k in step_kinds(st)}
    assert names == in_steps | set(NOT_A_STEP)
    text = json.dumps(schema(View({"t.csv": {"": ("a", "b")}})), ensure_ascii=False)
    for k in in_steps | {"join", "append", "stack"}:
        assert f'"const": "{k}"' in text, k
        assert f"/ {k}:" in operations_text(), k


def _strip(d: object, kind: str | None = None) -> object:
    """A query's JSON without the keys the rules add while reading (doubts, questions)."""
    if isinstance(d, dict):
        if "op" in d and "args" in d and isinstance(d["args"], dict):
            k = d["op"]
            return {"op": k, "args": {a: _strip(v) for a, v in d["args"].items() if a not in internal_keys(k)}}
        return {a: _strip(v) for a, v in d.items()}
    if isinstance(d, list):
        return [_strip(x) for x in d]
    return d


def _corpus(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()] if path.is_file() else []


@pytest.mark.parametrize("name,items,ws", [
    ("dev", _corpus(EVAL / "decisions_dev.jsonl"), EVAL / "workspace"),
    ("heldout", _corpus(HELDOUT / "decisions.jsonl"), HELDOUT / "workspace"),
])
def test_every_query_the_rules_make_reads_back_through_the_schema(name: str, items: list[dict], ws: Path) -> None:
    if not items or not ws.is_dir():
        pytest.skip(f"no {name} set beside this checkout")
    catalog = CatalogCache().build(Workspace.at(ws))
    view = View.of(catalog)
    seen = 0
    for item in items:
        state = SessionState()
        for h in item.get("history", []):
            _, state = decide_checked(state, h, catalog)
        d, _ = decide_checked(state, item["utterance"], catalog)
        q = query_of(d.request) if d.gate == "act" else None
        if q is None or any(p.source.kind == "result" for p in q.chain()):
            continue
        lang = d.lang
        want = _strip(q.to_json())
        got = read_answer({"intent": "work", "query": json.loads(json.dumps(want, ensure_ascii=False))}, view, lang)
        assert not got.errors and not got.unknown, (item["id"], got.errors, got.unknown, want)
        assert _strip(got.query.to_json()) == want, item["id"]
        seen += 1
    assert seen > 20


def test_names_outside_the_workspace_are_unknown_and_shapes_outside_the_schema_are_errors() -> None:
    view = View({"staff.csv": {"": ("城市", "月薪", "姓名")}}, numeric=frozenset({"月薪"}))
    a = read_answer({"intent": "work", "query": {"source": {"kind": "file", "file": "staff.csv"},
                                                  "where": {"column": "口碑", "op": "ge", "value": 4}}}, view)
    assert [(u.what, u.name) for u in a.unknown] == [("column", "口碑")] and a.query is None
    a = read_answer({"intent": "work", "query": {"source": {"kind": "file", "file": "gz.csv"}}}, view)
    assert [(u.what, u.name) for u in a.unknown] == [("file", "gz.csv")]
    a = read_answer({"intent": "work", "query": {"source": {"kind": "file", "file": "staff.csv"},
                                                  "analysis": [{"op": "magic", "args": {}}],
                                                  "order": [{"op": "group", "args": {"keys": ["城市"]}}]}}, view)
    assert any("unknown operation magic" in e for e in a.errors) and any("group belongs in the group stage" in e for e in a.errors)
    a = read_answer({"intent": "work", "query": {"source": {"kind": "file", "file": "staff.csv"},
                                                  "limit": [{"op": "top_n", "args": {"by": "月薪", "n": "five", "colour": 1}}]}}, view)
    assert any("whole number" in e for e in a.errors) and any("no argument(s) colour" in e for e in a.errors)


def test_a_having_names_the_measure_by_its_column_and_aggregate() -> None:
    view = View({"staff.csv": {"": ("城市", "月薪")}}, numeric=frozenset({"月薪"}))
    a = read_answer({"intent": "work", "query": {
        "source": {"kind": "file", "file": "staff.csv"},
        "group": [{"op": "group", "args": {"keys": ["城市"], "measures": [{"column": "月薪", "agg": "mean"}]}}],
        "having": {"column": "月薪", "agg": "mean", "op": "gt", "value": 10000}}}, view)
    assert not a.errors and a.query.having.column == "月薪_平均"
    a = read_answer({"intent": "work", "query": {
        "source": {"kind": "file", "file": "staff.csv"},
        "group": [{"op": "group", "args": {"keys": ["城市"], "measures": [{"column": "月薪", "agg": "mean"}]}}],
        "having": {"column": "月薪_mean", "op": "gt", "value": 10000}}}, view, "en")
    assert not a.errors and not a.unknown and a.query.having.column == "月薪_mean"  # the measure's own name, in English
    a = read_answer({"intent": "work", "query": {
        "source": {"kind": "file", "file": "staff.csv"},
        "having": {"column": "月薪", "agg": "mean", "op": "gt", "value": 10000}}}, view)
    assert a.query is None and [u.name for u in a.unknown] == ["月薪_平均"]  # no summary, no measure to compare


TEXTISH = ("keys", "by", "x", "group", "label_column", "key_column", "subset", "within", "rows", "on")


def _synthetic(name: str, p: dict) -> object:
    t = p["type"]
    doc = p.get("doc", "")
    one = "日期" if "date" in doc else "城市" if name in TEXTISH else "金额"
    many = [one, "数量", "单价"][: max(1, int(p.get("min", 1)))] if one == "金额" else [one]
    return {"column": one, "columns": many, "number": 5, "integer": 3, "numbers": [2024], "bool": True, "text": "1",
            "texts": ["上海"], "sheets": ["S1", "S2"], "enum": p.get("values", [None])[0], "enum_list": p.get("values", [None])[:1],
            "conditions": [{"column": "金额", "op": "gt", "value": 1}], "measures": [{"column": "金额", "agg": "sum"}],
            "mapping": {"城市": "城市名"}}[t]


def test_every_operation_that_reads_back_is_planned_without_an_internal_error(tmp_path: Path) -> None:
    """An answer that fits the schema never breaks the plan: for each operation, with only its required arguments
    and with all of them, the answer is read back, decided, and planned — or asked about — never a crash."""
    import pandas as pd

    from engine.plan import plan_for
    from modes.intent import decide_answer

    pd.DataFrame({"城市": ["上海", "北京", "上海"], "金额": [1.0, 2.0, 3.0], "数量": [1, 2, 3], "单价": [1.0, 1.0, 1.0],
                  "日期": ["2024-01-01", "2024-02-01", "2024-03-01"]}).to_csv(tmp_path / "t.csv", index=False)
    pd.DataFrame({"城市": ["上海"], "人口": [1]}).to_csv(tmp_path / "u.csv", index=False)
    catalog = CatalogCache().build(Workspace.at(tmp_path))
    view = View.of(catalog)
    broken = []
    for stage in [*STAGES, "source"]:
        kinds = step_kinds(stage) if stage != "source" else ["join", "append"]
        for kind in kinds:
            ps = op_params(kind)
            for which in ("required", "all"):
                args = {k: _synthetic(k, p) for k, p in ps.items() if which == "all" or p.get("required")}
                src = {"kind": "file", "file": "t.csv"}
                q: dict = {"source": src}
                if stage == "source":
                    q["source"] = {**src, "files": ["t.csv", "u.csv"], "steps": [{"op": kind, "args": args}]}
                elif kind == "compare":
                    q = {"source": {**src, "files": ["t.csv", "u.csv"]}, "analysis": [{"op": kind, "args": args}]}
                else:
                    q[stage] = [{"op": kind, "args": args}]
                a = read_answer({"intent": "work", "query": q}, view)
                if a.query is None:
                    continue  # said back to the model or asked: no plan is built
                try:
                    d, _ = decide_answer(SessionState(), "做一下", a, catalog, "zh")
                    if d.gate == "act":
                        plan_for(d, catalog)
                except Exception as e:  # noqa: BLE001  (any exception here is a crash a user would see)
                    broken.append(f"{kind} ({which}: {args}): {type(e).__name__}: {e}")
    assert not broken, "\n".join(broken)
