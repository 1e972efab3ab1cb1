"""The tools themselves, on small frames."""

import pandas as pd
import pytest

from tools import registry
from tools.errors import ColumnMissing, ToolArgError

DF = pd.DataFrame({"城市": ["上海", "北京", "上海", None], "金额": [10, 20, 30, 40], "备注": [" a ", "", None, "b"]})


def call(tool, **kw):
    return registry.call(tool, {"table": DF.copy(), **kw})


def test_group_counts_and_sums():
    r = call("group_summarize", keys=["城市"], measures=[{"agg": "count"}, {"column": "金额", "agg": "sum"}])
    got = {row["城市"] if row["城市"] == row["城市"] else None: (row["金额_合计"], row["行数"]) for row in r.data.to_dict("records")}
    assert got == {"上海": (40, 2), "北京": (20, 1), None: (40, 1)}
    total = call("group_summarize", keys=[], measures=[{"column": "金额", "agg": "mean"}])
    assert total.data.iloc[0]["金额_平均"] == 25


@pytest.mark.parametrize(
    "cond,rows",
    [({"column": "金额", "op": "between", "value": 15, "value2": 35}, 2), ({"column": "城市", "op": "in", "value": ["北京"]}, 1),
     ({"column": "备注", "op": "empty"}, 2), ({"column": "备注", "op": "not_empty"}, 2), ({"column": "城市", "op": "ne", "value": "上海"}, 2),
     ({"column": "金额", "op": "gt", "value": {"column": "金额"}}, 0), ({"column": "城市", "op": "contains", "value": "海"}, 2)],
)
def test_filter_ops(cond, rows):
    assert call("filter_rows", conditions=[cond]).facts["rows_out"] == rows


def test_or_logic_and_errors():
    r = call("filter_rows", conditions=[{"column": "金额", "op": "lt", "value": 15}, {"column": "金额", "op": "gt", "value": 35}], logic="or")
    assert r.facts["rows_out"] == 2
    with pytest.raises(ColumnMissing) as e:
        call("filter_rows", conditions=[{"column": "价格", "op": "gt", "value": 1}])
    assert "价格" in e.value.zh
    with pytest.raises(ToolArgError):
        call("filter_rows", conditions=[{"column": "金额", "op": "like", "value": 1}])


def test_clean_add_column_dedupe_sort_select():
    c = call("clean", fill={"城市": "未知"})
    assert c.facts["trimmed"] == 1 and c.data["城市"].tolist()[-1] == "未知"
    a = call("add_column", name="含税", left="金额", op="*", right=1.13)
    assert a.data["含税"].tolist()[0] == pytest.approx(11.3)
    d = registry.call("deduplicate", {"table": pd.concat([DF, DF])})
    assert d.facts["removed"] == 4
    s = call("sort_rows", by=["金额"], ascending=False)
    assert s.data["金额"].tolist() == [40, 30, 20, 10]
    assert list(call("select_columns", columns=["金额", "城市"]).data.columns) == ["金额", "城市"]
    t = call("top_n", by="金额", n=2)
    assert t.data["金额"].tolist() == [40, 30]
