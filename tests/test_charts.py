"""A chart request writes an xlsx whose native chart openpyxl loads back: type, series ranges, title."""

import numpy as np
import pandas as pd
import pytest
from openpyxl import load_workbook

from tools import registry
from tools.errors import ToolArgError

RNG = np.random.default_rng(4)
T = pd.DataFrame({"区域": ["华东", "华北", "华南", "西部"], "销售额": RNG.uniform(100, 900, 4).round(2), "利润": RNG.uniform(1, 90, 4).round(2)})


def chart(ws, kind, **kw):
    return registry.call("write_chart", {"ws": ws, "table": T, "kind": kind, "x": "区域", "y": ["销售额"], "stem": "图表", **kw})


def _read(ws, rel):
    wb = load_workbook(ws.root / rel)
    sh = wb["数据"]
    return sh, sh._charts


@pytest.mark.parametrize("kind,cls", [("bar", "BarChart"), ("line", "LineChart"), ("pie", "PieChart"), ("scatter", "ScatterChart")])
def test_chart_round_trip(ws, kind, cls):
    r = chart(ws, kind, title="各区域销售额")
    sh, charts = _read(ws, r.facts["path"])
    assert r.facts["path"].startswith("outputs/") and len(charts) == 1
    c = charts[0]
    assert type(c).__name__ == cls
    assert "".join(run.t for p in c.title.tx.rich.p for run in (p.r or [])) == "各区域销售额"
    refs = [s.val.numRef.f if kind != "scatter" else s.yVal.numRef.f for s in c.series]
    assert refs == ["'数据'!$B$2:$B$5"]
    assert [sh.cell(i, 2).value for i in range(2, 6)] == T["销售额"].tolist()
    assert [sh.cell(i, 1).value for i in range(2, 6)] == T["区域"].tolist()
    if kind != "scatter":
        assert r.evidence["preview"][0].startswith("华东")


def test_two_series_and_refusals(ws):
    r = chart(ws, "bar", y=["销售额", "利润"])
    _, charts = _read(ws, r.facts["path"])
    assert len(charts[0].series) == 2
    with pytest.raises(ToolArgError):
        chart(ws, "pie", y=["销售额", "利润"])
    with pytest.raises(ToolArgError):
        chart(ws, "radar")
    big = pd.DataFrame({"区域": [str(i) for i in range(500)], "销售额": range(500)})
    with pytest.raises(ToolArgError) as e:
        registry.call("write_chart", {"ws": ws, "table": big, "kind": "bar", "x": "区域", "y": ["销售额"], "stem": "x"})
    assert "分组汇总" in e.value.zh
