"""The typed query: its stages and their order, its JSON, and that the restatement and the plan are rendered from it."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from engine.catalog import CatalogCache
from engine.intake import decide_checked
from engine.plan import decision_json, plan_for
from modes.conditions import Cond
from modes.decision import Op, Request, SessionState
from modes.query import STAGES, Junction, Not, Pred, cond_tool, from_request, ops_in_order, phrases, query_of
from modes.replies import goal_summary
from tools import registry
from tools.workspace import Workspace

DEV = Path(__file__).resolve().parents[2] / "shared" / "eval"


def req(*ops: Op, file: str = "t.csv") -> Request:
    return Request(intent="work", ops=tuple(ops), file=file, text="", lang="zh")


def flt(col: str, op: str, v: object) -> Op:
    return Op("filter", {"conditions": [Cond(col, op, v, raw=col)], "logic": "and"})


def kinds(r: Request) -> list[str]:
    q = from_request(r)
    assert q is not None
    return [o.kind for o in ops_in_order(q)]


def test_rows_are_chosen_before_a_summary_a_cut_or_a_chart_said_before_them() -> None:
    group = Op("group", {"keys": ["城市"], "measures": [{"column": "金额", "agg": "mean"}]})
    assert kinds(req(group, flt("金额", "ne", 0))) == ["filter", "group"]
    top = Op("top_n", {"n": 5, "by": "金额", "ascending": False})
    assert kinds(req(top, flt("名称", "not_contains", "X"))) == ["filter", "top_n"]
    chart = Op("chart", {"kind": "bar", "x": "城市", "y": ["金额"], "agg": "sum"})
    assert kinds(req(chart, flt("城市", "ne", "上海"))) == ["filter", "chart"]
    select = Op("select", {"columns": ["姓名"]})
    assert kinds(req(select, flt("月薪", "gt", 100))) == ["filter", "select"]


def test_words_that_say_then_keep_the_order_and_make_a_query_over_a_query() -> None:
    group = Op("group", {"keys": ["城市"], "measures": [{"column": "金额", "agg": "sum"}]})
    later = Op("filter", {"conditions": [Cond("金额", "gt", 5, raw="金额")], "logic": "and"}, after=True)
    q = from_request(req(group, later))
    assert q is not None and q.source.kind == "query" and q.where is not None
    assert [o.kind for o in ops_in_order(q)] == ["group", "filter"]
    assert "然后在这个结果上" in "，".join(phrases(q, "zh"))


def test_a_stage_said_after_a_later_one_starts_a_query_over_the_result() -> None:
    stats = Op("stats", {"columns": ["金额"], "stats": ["median"], "by": ["城市"]})
    top = Op("top_n", {"n": 3, "by": None, "ascending": False})
    q = from_request(req(stats, top))
    assert q is not None and len(q.chain()) == 2 and q.chain()[0].analysis and q.limit
    assert [o.kind for o in ops_in_order(q)] == ["stats", "top_n"]


def test_every_part_runs_in_the_canonical_order_within_a_query() -> None:
    ops = [Op("export", {"format": "xlsx"}), Op("sort", {"by": ["金额"], "ascending": False}), flt("城市", "eq", "上海"),
           Op("group", {"keys": ["城市"], "measures": [{"column": "金额", "agg": "sum"}]}), Op("clean", {})]
    q = from_request(req(*ops))
    assert q is not None
    for part in q.chain():
        used = [s for s in STAGES if (getattr(part, s) if s not in ("where", "having") else getattr(part, s) is not None)]
        assert used == sorted(used, key=STAGES.index)
    assert kinds(req(*ops))[:2] == ["clean", "filter"]


def test_the_query_is_json_and_versioned() -> None:
    q = from_request(req(flt("城市", "eq", "上海"), Op("group", {"keys": ["城市"], "measures": [{"agg": "count"}]})))
    assert q is not None
    d = json.loads(json.dumps(q.to_json(), ensure_ascii=False))
    assert d["version"] == 2 and d["source"] == {"kind": "file", "file": "t.csv"}
    assert d["where"] == {"column": "城市", "op": "eq", "value": "上海"}
    assert d["group"][0] == {"op": "group", "args": {"keys": ["城市"], "measures": [{"agg": "count"}]}}


def test_a_condition_tree_with_not_and_or_is_kept_whole_by_the_filter_tools() -> None:
    df = pd.DataFrame({"a": [1, 2, 3, 4, 5, 6], "b": ["x", "y", "x", "y", "x", "y"]})
    tree = Not(Junction("and", (Pred("a", "gt", 2), Pred("b", "eq", "x"))))
    out = registry.call("filter_rows", {"table": df, "conditions": [cond_tool(tree)]}).data
    assert out["a"].tolist() == df[~((df["a"] > 2) & (df["b"] == "x"))]["a"].tolist()
    mixed = Junction("and", (Junction("or", (Pred("a", "lt", 2), Pred("a", "gt", 5))), Pred("b", "eq", "y")))
    out = registry.call("filter_rows", {"table": df, "conditions": [cond_tool(mixed)]}).data
    assert out["a"].tolist() == df[((df["a"] < 2) | (df["a"] > 5)) & (df["b"] == "y")]["a"].tolist()


def test_a_condition_tree_reads_the_same_out_of_core(tmp_path: Path) -> None:
    from tools.outofcore import BigTable, filter_rows

    df = pd.DataFrame({"a": [1, 2, 3, 4, 5, 6], "b": ["x", "y", "x", "y", "x", "y"]})
    df.to_csv(tmp_path / "t.csv", index=False)
    import duckdb

    con = duckdb.connect()
    t = BigTable(con, f"SELECT * FROM read_csv_auto('{tmp_path / 't.csv'}')", {"a": "BIGINT", "b": "VARCHAR"}, "t.csv")
    tree = Not(Junction("or", (Pred("a", "gt", 4), Pred("b", "eq", "y"))))
    out = filter_rows(t, [cond_tool(tree)]).data
    assert sorted(out.fetch(out.sql)["a"].tolist()) == df[~((df["a"] > 4) | (df["b"] == "y"))]["a"].tolist()


def dev_items() -> list[dict]:
    p = DEV / "decisions_dev.jsonl"
    return [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line.strip()] if p.is_file() else []


@pytest.mark.skipif(not dev_items(), reason="../shared/eval is not beside this checkout")
def test_every_act_decision_of_the_dev_set_is_said_and_planned_from_its_query() -> None:
    ws = Workspace.at(DEV / "workspace")
    cache = CatalogCache()
    catalog = cache.build(ws)
    acts = 0
    for item in dev_items():
        state = SessionState()
        for h in item["history"]:
            _, state = decide_checked(state, h, catalog)
        d, _ = decide_checked(state, item["utterance"], catalog)
        plan = plan_for(d, catalog)
        out = decision_json(d, plan, item["id"])
        q = query_of(d.request)
        if d.gate != "act" or q is None:
            continue
        acts += 1
        said = goal_summary(d.request, d.lang)
        assert plan is not None and plan.goalSummary == said, item["id"]
        assert all(p in said for p in phrases(q, d.lang)), item["id"]
        if d.next == "restate_confirm" and d.rule not in ("model_plan_restated",):
            assert said in d.reply, (item["id"], d.reply)
        assert out["query"] == q.to_json()
        ran = [s.toolHint for s in plan.steps]
        for where in (p.where for p in q.chain() if p.where is not None):  # each condition the query holds is a filter step
            assert "filter_rows" in ran, item["id"]
            assert where is not None
    assert acts >= 40
