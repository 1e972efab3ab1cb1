"""Value edits work on a copy; recomputed with pandas."""

import numpy as np
import pandas as pd
import pytest

from tools import registry
from tools.errors import ToolArgError

RNG = np.random.default_rng(2)
DF = pd.DataFrame({"城市": RNG.choice(["上海", "北京", "sh"], 60), "金额": RNG.uniform(0, 100, 60).round(1), "等级": RNG.choice(["A", "B", None], 60)})
DF.loc[[2, 5, 9], "金额"] = np.nan


def call(name, **kw):
    src = DF.copy()
    r = registry.call(name, {"table": src, **kw})
    pd.testing.assert_frame_equal(src, DF)  # the input is never changed in place
    return r


def test_replace_where_condition():
    r = call("replace_values", column="金额", value=0, conditions=[{"column": "城市", "op": "eq", "value": "北京"}])
    want = DF["金额"].where(DF["城市"] != "北京", 0)
    assert r.data["金额"].tolist() == pytest.approx(want.tolist(), nan_ok=True)
    assert r.facts["changed"] == (DF["城市"] == "北京").sum()
    o = call("replace_values", column="城市", value="上海", old="sh")
    assert (o.data["城市"] == "上海").sum() == DF["城市"].isin(["上海", "sh"]).sum()
    with pytest.raises(ToolArgError):
        call("replace_values", column="城市", value="x")


def test_map_fill_delete():
    m = call("map_values", column="等级", mapping={"A": "优", "B": "良"})
    assert m.data["等级"].tolist() == DF["等级"].map({"A": "优", "B": "良"}).tolist()
    f = call("fill_blanks", columns=["金额"], method="median")
    assert f.data["金额"].tolist() == pytest.approx(DF["金额"].fillna(DF["金额"].median()).round(4).tolist())
    assert f.facts["filled"] == 3
    v = call("fill_blanks", columns=["等级"], value="未知")
    assert (v.data["等级"] == "未知").sum() == DF["等级"].isna().sum()
    p = call("fill_blanks", columns=["金额"], method="previous")
    assert p.data["金额"].tolist() == pytest.approx(DF["金额"].ffill().tolist(), nan_ok=True)
    d = call("delete_rows", conditions=[{"column": "金额", "op": "lt", "value": 50}])
    assert d.facts["removed"] == (DF["金额"] < 50).sum() and len(d.data) == (~(DF["金额"] < 50)).sum()
