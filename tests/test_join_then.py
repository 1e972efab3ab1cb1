"""A join said with what to do next (然后 / 再 / then): the join reads its own clause — its key is the one it says,
never the grouping column after it — and the rest runs on the joined table; nothing after the join is dropped."""

from __future__ import annotations

import pandas as pd
import pytest

from engine.session import Session
from tools.workspace import Workspace

ORDERS = pd.DataFrame({"order_id": [1, 2, 3, 4, 5], "customer": ["A", "B", "A", "C", "B"], "amount": [10.0, 20.0, 30.0, 40.0, 50.0]})
CUSTOMERS = pd.DataFrame({"customer": ["A", "B", "C"], "segment": ["Retail", "SMB", "Retail"]})


@pytest.fixture
def ws(tmp_path) -> Workspace:
    ORDERS.to_csv(tmp_path / "orders.csv", index=False)
    CUSTOMERS.to_csv(tmp_path / "customers.csv", index=False)
    return Workspace.at(tmp_path)


@pytest.mark.parametrize("text", [
    "join orders.csv with customers.csv on customer, then total amount by segment",
    "把 orders.csv 和 customers.csv 按 customer 关联，再按 segment 汇总 amount",
    "orders.csv 和 customers.csv 按 customer 关联，然后按 segment 统计 amount 合计",
])
def test_what_follows_the_join_runs_on_the_joined_table(ws, text):
    s = Session(ws)
    tr = s.turn(text)
    if tr.run is None and tr.decision.next in ("restate_confirm", "plan_confirm"):
        tr = s.turn("继续")
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    assert [o.kind for o in tr.decision.request.ops] == ["join", "group"]
    assert tr.decision.request.op("join").args["on"] == "customer"
    want = ORDERS.merge(CUSTOMERS, on="customer").groupby("segment")["amount"].sum().to_dict()
    t = tr.run.table
    measure = next(c for c in t.columns if c.startswith("amount_"))
    assert dict(zip(t["segment"], t[measure], strict=True)) == want
