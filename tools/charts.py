"""Charts: an xlsx in outputs/ holding the data and a native Excel chart, plus a small text preview."""

from __future__ import annotations

import io
from typing import IO, Any

import pandas as pd

from tools.errors import ToolArgError
from tools.fmt import num, rnd
from tools.ops import _need_columns, _sample
from tools.registry import ToolResult, tool
from tools.values import as_numbers
from tools.workspace import Workspace
from tools.write import INFO_SHEET, About, about_rows, inert, publish

KINDS = {"bar": "柱状图", "line": "折线图", "pie": "饼图", "scatter": "散点图"}
MAX_CATEGORIES = 200
MAX_POINTS = 100_000
BAR_WIDTH = 30


def preview(labels: list[Any], values: list[Any], lang: str = "zh", limit: int = 12) -> list[str]:
    """A few lines of text bars: label, bar, value."""
    vals = [float(v) if v is not None and v == v else 0.0 for v in values[:limit]]
    top = max((abs(v) for v in vals), default=0) or 1
    width = max((len(str(x)) for x in labels[:limit]), default=0)
    lines = [f"{str(lab):<{width}} {'█' * max(0, round(abs(v) / top * BAR_WIDTH))} {num(v, lang)}" for lab, v in zip(labels, vals, strict=False)]
    if len(values) > limit:
        lines.append(f"……（共 {len(values)} 项）" if lang == "zh" else f"… ({len(values)} items)")
    return lines


@tool
def write_chart(ws: Workspace, table: pd.DataFrame, kind: str, x: str, y: list[str], stem: str, title: str | None = None,
                about: About | None = None) -> ToolResult:
    """Write the data and a native bar / line / pie / scatter chart to a new xlsx in outputs/."""
    from openpyxl import Workbook
    from openpyxl.chart import BarChart, LineChart, PieChart, Reference, ScatterChart
    from openpyxl.chart import Series as ChartSeries

    if kind not in KINDS:
        raise ToolArgError(f"不支持的图表类型：{kind}（可选 柱状图、折线图、饼图、散点图）。", f"Unsupported chart type: {kind}.")
    if y == ["*"]:  # every column but the categories (a transposed wide table: one series per row)
        y = [str(c) for c in table.columns if str(c) != x]
    if not y:
        raise ToolArgError("图上要画哪一列的数值？", "Which numeric column should the chart show?")
    _need_columns(table, [x] + y)
    if kind == "pie" and len(y) > 1:
        raise ToolArgError("饼图只能画一列数值。", "A pie chart shows one numeric column.")
    if kind == "scatter" and len(table) > MAX_POINTS or kind != "scatter" and len(table) > MAX_CATEGORIES:
        limit = MAX_POINTS if kind == "scatter" else MAX_CATEGORIES
        raise ToolArgError(f"有 {len(table)} 个{'点' if kind == 'scatter' else '类别'}，超过 {limit} 个，图会看不清；请先分组汇总或筛选。",
                           f"{len(table)} {'points' if kind == 'scatter' else 'categories'} exceed {limit}; group or filter first.")
    data = table[[x] + y].copy()
    if data[x].isna().any():  # a blank category is a slice or bar of its own, named as blank, never "nan"
        data[x] = data[x].astype(object).where(data[x].notna(), "（空白）")
    for c in y:
        data[c] = as_numbers(data[c])
        if data[c].notna().sum() == 0:
            raise ToolArgError(f"列“{c}”里没有数字，无法作图。", f"Column '{c}' holds no numbers to chart.")
    if kind == "pie" and (data[y[0]] < 0).any():
        raise ToolArgError(f"“{y[0]}”里有负数，饼图画不了；可以改用柱状图。", f"'{y[0]}' has negative values; use a bar chart.")
    title = title or f"{'、'.join(y)}（按 {x}）"
    wb = Workbook()
    sh = wb.active
    sh.title = "数据"
    sh.append([str(x)] + [str(c) for c in y])
    for row in data.itertuples(index=False, name=None):
        label = row[0].to_pydatetime() if isinstance(row[0], pd.Timestamp) else row[0]
        label = inert(label)[0] if isinstance(label, str) else rnd(label)
        sh.append([label] + [rnd(v) for v in row[1:]])
    n = len(data)
    cats = Reference(sh, min_col=1, min_row=2, max_row=n + 1)
    chart: Any
    if kind == "scatter":
        chart = ScatterChart()
        chart.style = 13
        for j in range(len(y)):
            vals = Reference(sh, min_col=2 + j, min_row=1, max_row=n + 1)
            s = ChartSeries(vals, cats, title_from_data=True)
            s.marker.symbol = "circle"
            s.graphicalProperties.line.noFill = True
            chart.series.append(s)
        chart.x_axis.title = str(x)
        chart.y_axis.title = str(y[0])
    else:
        chart = {"bar": BarChart, "line": LineChart, "pie": PieChart}[kind]()
        chart.add_data(Reference(sh, min_col=2, max_col=1 + len(y), min_row=1, max_row=n + 1), titles_from_data=True)
        chart.set_categories(cats)
        if kind != "pie":
            chart.x_axis.title = str(x)
            chart.y_axis.title = "、".join(y)
    chart.title = title
    chart.width, chart.height = 18, 10
    sh.add_chart(chart, f"{chr(ord('A') + len(y) + 2)}2")
    if about is not None:  # the 说明 sheet every result workbook carries: what was asked, from which file, by which steps
        info = wb.create_sheet(INFO_SHEET)
        info.append(["项目" if about.lang != "en" else "Item", "内容" if about.lang != "en" else "Details"])
        for k, v in about_rows(about, [(str(sh.title), data)], {"protected": 0, "cleaned": 0, "truncated": 0}):
            info.append([k, inert(v)[0]])
        info.column_dimensions["A"].width, info.column_dimensions["B"].width = 14, 80
    buf = io.BytesIO()
    wb.save(buf)
    def fill(f: IO[bytes]) -> None:
        f.write(buf.getvalue())

    target = publish(ws, stem, "xlsx", fill)
    rel = ws.rel(target)
    lines = preview(data[x].tolist(), data[y[0]].tolist()) if kind != "scatter" else []
    facts = {"path": rel, "rows": n, "kind": kind, "kind_zh": KINDS[kind], "title": title, "x": x, "y": y, "columns": [x] + y,
             "data_range": f"数据!$B$2:${chr(ord('A') + len(y))}${n + 1}", "preview": lines}
    return ToolResult(data, facts, {"sample": _sample(data, 20), "preview": lines}, [rel])
