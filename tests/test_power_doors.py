"""Doors a power user looks for, each said in a request and read into the typed query: the kind of join (and, always,
how many rows of each side found no match), count distinct, dedupe on named key columns. Results recomputed with pandas."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import answered, result_frame

from engine.session import Session
from tools.workspace import Workspace

ORDERS = pd.DataFrame({"order_id": [1, 2, 3, 4, 5, 6], "customer": ["A", "B", "A", "C", "D", "B"],
                       "product": ["x", "y", "x", "x", "y", "y"], "amount": [10.0, 20.0, 30.0, 40.0, 50.0, 60.0]})
CUSTOMERS = pd.DataFrame({"customer": ["A", "B", "C", "E"], "segment": ["Retail", "SMB", "Retail", "SMB"]})


@pytest.fixture(params=["pandas", "duckdb"])
def ws(tmp_path, monkeypatch, request) -> Workspace:
    monkeypatch.setenv("WENQING_ENGINE", request.param)
    ORDERS.to_csv(tmp_path / "orders.csv", index=False)
    CUSTOMERS.to_csv(tmp_path / "customers.csv", index=False)
    return Workspace.at(tmp_path)


def _run(ws: Workspace, text: str):
    return answered(Session(ws), text)


@pytest.mark.parametrize("text,how", [
    ("orders.csv 和 customers.csv 按 customer 关联", "left"),
    ("orders.csv 和 customers.csv 按 customer 内连接", "inner"),
    ("orders.csv 和 customers.csv 按 customer 全连接，两边都保留", "full"),
    ("join orders.csv with customers.csv on customer", "left"),
    ("inner join orders.csv with customers.csv on customer", "inner"),
    ("full outer join orders.csv and customers.csv on customer", "full"),
])
def test_a_join_of_each_kind_says_its_unmatched_rows_on_each_side(ws, text, how):
    tr = _run(ws, text)
    join = tr.decision.request.op("join")
    assert join is not None and join.args["on"] == "customer" and (join.args.get("how") or "left") == how
    want = ORDERS.merge(CUSTOMERS, on="customer", how={"full": "outer"}.get(how, how))
    got = result_frame(tr)
    assert len(got) == len(want)
    assert sorted(got["customer"]) == sorted(want["customer"])
    key = ["customer", "order_id"]
    assert (got.sort_values(key, na_position="last")["segment"].fillna("-").tolist()
            == want.sort_values(key, na_position="last")["segment"].fillna("-").tolist())
    no_match_orders = int((~ORDERS["customer"].isin(CUSTOMERS["customer"])).sum())  # D
    no_match_customers = int((~CUSTOMERS["customer"].isin(ORDERS["customer"])).sum())  # E
    answer = tr.run.answer or ""
    if tr.decision.lang == "zh":
        assert f"orders.csv {no_match_orders} 行" in answer and f"customers.csv {no_match_customers} 行" in answer, answer
        assert {"left": "左连接", "inner": "内连接", "full": "全连接"}[how] in answer
    else:
        assert f"{no_match_orders} in orders.csv" in answer and f"{no_match_customers} in customers.csv" in answer, answer
        assert {"left": "Left join", "inner": "Inner join", "full": "Full join"}[how] in answer


@pytest.mark.parametrize("text,by", [
    ("orders.csv 里有多少个不同的客户", None),
    ("orders.csv 里 customer 去重计数", None),
    ("how many distinct customers in orders.csv", None),
    ("orders.csv 每个 product 有几个不同的 customer", "product"),
    ("count distinct customer by product in orders.csv", "product"),
])
def test_count_distinct(ws, text, by):
    tr = _run(ws, text)
    got = result_frame(tr)
    measure = next(c for c in got.columns if c not in ("product", "行数", "rows"))
    if by is None:
        assert got[measure].tolist() == [ORDERS["customer"].nunique()]
    else:
        want = ORDERS.groupby("product")["customer"].nunique().to_dict()
        assert dict(zip(got["product"], got[measure], strict=True)) == want


@pytest.mark.parametrize("text", ["orders.csv 按 customer 和 product 去重", "dedupe orders.csv on customer and product",
                                  "remove duplicates from orders.csv by customer and product"])
def test_dedupe_on_named_keys_keeps_one_row_per_key_pair_not_a_sum(ws, text):
    tr = _run(ws, text)
    got = result_frame(tr)
    want = ORDERS.drop_duplicates(subset=["customer", "product"])
    assert got["order_id"].tolist() == want["order_id"].tolist()
    assert got["amount"].tolist() == want["amount"].tolist()  # the first row of each pair, as it is: never a total


@pytest.mark.parametrize("text,name,then,otherwise,holds", [
    ("orders.csv 新增一列：amount大于25为大单，否则小单", "标签", "大单", "小单", lambda a: a > 25),
    ("orders.csv 加一列 规模：amount 大于等于 40 的为大，否则为小", "规模", "大", "小", lambda a: a >= 40),
    ("add a column tier = high if amount > 25 else low in orders.csv", "tier", "high", "low", lambda a: a > 25),
    ("in orders.csv add a column size = small when amount is below 30, otherwise big", "size", "small", "big", lambda a: a < 30),
])
def test_an_if_column_labels_every_row_and_filters_none(ws, text, name, then, otherwise, holds):
    tr = _run(ws, text)
    assert [o.kind for o in tr.decision.request.ops] == ["if_column"], tr.decision.request.ops
    got = result_frame(tr)
    assert got["order_id"].tolist() == ORDERS["order_id"].tolist()  # every row kept
    want = ORDERS["amount"].map(lambda a: then if holds(a) else otherwise)
    assert got[name].tolist() == want.tolist()
    assert str((want == then).sum()) in (tr.run.answer or "")


@pytest.mark.parametrize("text,edges,labels", [
    ("orders.csv 的 amount 按20分段统计个数", [0, 20, 40, 60, 80], ["0-20", "20-40", "40-60", "60-80"]),
    ("orders.csv amount按0-25、25-45、45以上分段", [0, 25, 45, float("inf")], ["0-25", "25-45", "45+"]),
    ("bin amount in orders.csv into 0-25,25-45,45+", [0, 25, 45, float("inf")], ["0-25", "25-45", "45+"]),
    ("bin amount in orders.csv by 20", [0, 20, 40, 60, 80], ["0-20", "20-40", "40-60", "60-80"]),
])
def test_bins_by_width_or_edges_count_the_rows_of_each_range(ws, text, edges, labels):
    tr = _run(ws, text)
    assert [o.kind for o in tr.decision.request.ops] == ["bin"], tr.decision.request.ops
    got = result_frame(tr)
    want = pd.cut(ORDERS["amount"], edges, right=False, labels=labels).value_counts(sort=False)
    assert got.iloc[:, 0].tolist() == labels
    assert got.iloc[:, 1].tolist() == [int(want[k]) for k in labels]
