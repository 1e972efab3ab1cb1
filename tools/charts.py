"""Charts: an xlsx in outputs/ holding the data and a native Excel chart, plus a small text preview.

A heat map has no native Excel chart: it is written as the table itself with a colour scale over its values
(a pivot of two keys, or one column per key), which is what a spreadsheet user would make."""

from __future__ import annotations

import io
from typing import IO, Any

import pandas as pd

from tools.errors import ToolArgError
from tools.fmt import num, rnd
from tools.ops import _need_columns, _plain, _sample
from tools.registry import ToolResult, tool
from tools.values import as_numbers
from tools.workspace import Workspace
from tools.write import INFO_SHEET, INFO_SHEET_EN, About, about_rows, inert, publish

KINDS = {"bar": "柱状图", "line": "折线图", "pie": "饼图", "scatter": "散点图", "heatmap": "热力图（色阶表）"}
MARK_COLOUR = "C0504D"  # the bars of the largest values, when the request asks to mark them
HEAT_COLOURS = ("F8F8F8", "F8B26A", "C0504D")  # low, middle, high
MAX_CATEGORIES = 200
MAX_POINTS = 100_000
MAX_SERIES = 30  # lines or bar series one chart can show apart
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


def _checked(table: pd.DataFrame, kind: str, x: str, y: list[str]) -> tuple[list[str], pd.DataFrame]:
    """The series and the data to draw, or a typed refusal saying why they cannot be drawn."""
    if kind not in KINDS:
        raise ToolArgError(f"不支持的图表类型：{kind}（可选 柱状图、折线图、饼图、散点图、热力图）。", f"Unsupported chart type: {kind}.")
    if y == ["*"]:  # every column but the categories (a transposed wide table or a pivot: one series per column)
        y = [str(c) for c in table.columns if str(c) != x]
    if not y:
        raise ToolArgError("图上要画哪一列的数值？", "Which numeric column should the chart show?")
    if len(y) > MAX_SERIES and kind != "heatmap":
        raise ToolArgError(f"有 {len(y)} 个系列，超过 {MAX_SERIES} 个，图会看不清；请先筛选出要比较的几项。",
                           f"{len(y)} series exceed {MAX_SERIES}; filter to the ones to compare first.")
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
    return y, data


def _native(sh: Any, kind: str, x: str, y: list[str], n: int, marked: list[int]) -> Any:
    """The native chart over the data sheet: categories in column A, one series per later column."""
    from openpyxl.chart import BarChart, LineChart, PieChart, Reference, ScatterChart
    from openpyxl.chart import Series as ChartSeries
    from openpyxl.chart.marker import DataPoint

    cats = Reference(sh, min_col=1, min_row=2, max_row=n + 1)
    chart: Any
    if kind == "scatter":
        chart = ScatterChart()
        chart.style = 13
        for j in range(len(y)):
            s = ChartSeries(Reference(sh, min_col=2 + j, min_row=1, max_row=n + 1), cats, title_from_data=True)
            s.marker.symbol = "circle"
            s.graphicalProperties.line.noFill = True
            chart.series.append(s)
        chart.x_axis.title, chart.y_axis.title = str(x), str(y[0])
        return chart
    chart = {"bar": BarChart, "line": LineChart, "pie": PieChart}[kind]()
    chart.add_data(Reference(sh, min_col=2, max_col=1 + len(y), min_row=1, max_row=n + 1), titles_from_data=True)
    chart.set_categories(cats)
    for i in marked:  # the largest values stand out in their own colour
        pt = DataPoint(idx=i)
        pt.graphicalProperties.solidFill = MARK_COLOUR
        chart.series[0].dPt.append(pt)
    if kind == "pie":  # each slice labelled with its share
        from openpyxl.chart.label import DataLabelList

        chart.dataLabels = DataLabelList()
        chart.dataLabels.showPercent = True
    else:
        chart.x_axis.title, chart.y_axis.title = str(x), "、".join(y)
    return chart


def _colour_scale(sh: Any, y: list[str], n: int) -> None:
    """A heat map in a spreadsheet: a three-colour scale over the value cells (low light, high dark)."""
    from openpyxl.formatting.rule import ColorScaleRule
    from openpyxl.utils import get_column_letter

    cells = f"B2:{get_column_letter(1 + len(y))}{n + 1}"
    sh.conditional_formatting.add(cells, ColorScaleRule(start_type="min", start_color=HEAT_COLOURS[0], mid_type="percentile", mid_value=50,
                                                        mid_color=HEAT_COLOURS[1], end_type="max", end_color=HEAT_COLOURS[2]))


@tool
def write_chart(ws: Workspace, table: pd.DataFrame, kind: str, x: str, y: list[str], stem: str, title: str | None = None,
                about: About | None = None, mark_top: int = 0) -> ToolResult:
    """Write the data and a native bar / line / pie / scatter chart to a new xlsx in outputs/; a heatmap is the table
    with a colour scale over its values. mark_top colours the bars (or slices) of the largest values."""
    from openpyxl import Workbook
    from openpyxl.utils import get_column_letter

    y, data = _checked(table, kind, x, y)
    if mark_top and kind not in ("bar", "pie"):
        raise ToolArgError("只有柱状图和饼图能标出最大的几项。", "Only bar and pie charts can mark the largest values.")
    lang = about.lang if about is not None else "zh"
    if lang == "en":
        title = title or (f"{x} and {y[0]}" if kind == "scatter" else f"{', '.join(y)} by {x}")
    title = title or (f"{x} 与 {y[0]}" if kind == "scatter" else f"{'、'.join(y)}（按 {x}）")
    title, hit = inert(title)  # openpyxl writes a string starting with = as a formula: every text goes through inert
    protected = int(hit)
    wb = Workbook()
    sh = wb.active
    sh.title = "Data" if lang == "en" else "数据"
    header = [inert(str(c)) for c in [x, *y]]  # a pivot's or heat map's headers are values of the data
    protected += sum(hit for _, hit in header)
    sh.append([h for h, _ in header])
    for row in data.itertuples(index=False, name=None):
        label = row[0].to_pydatetime() if isinstance(row[0], pd.Timestamp) else row[0]
        if isinstance(label, str):
            label, hit = inert(label)
            protected += hit
        else:
            label = rnd(label)
        sh.append([label] + [rnd(v) if v == v else None for v in row[1:]])
    n = len(data)
    marked = sorted(data[y[0]].reset_index(drop=True).nlargest(max(0, int(mark_top)), keep="first").index.tolist()) if mark_top else []
    if kind == "heatmap":
        _colour_scale(sh, y, n)
    else:
        chart = _native(sh, kind, x, y, n, marked)
        chart.title = title
        chart.width, chart.height = 18, 10
        sh.add_chart(chart, f"{get_column_letter(len(y) + 3)}2")
    if about is not None:  # the 说明 sheet every result workbook carries: what was asked, from which file, by which steps
        info = wb.create_sheet(INFO_SHEET_EN if lang == "en" else INFO_SHEET)
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
    # several series: the table itself is what is shown; one: a few text bars
    lines = [] if kind in ("scatter", "heatmap") or len(y) > 1 else preview(data[x].tolist(), data[y[0]].tolist(), lang)
    facts = {"path": rel, "rows": n, "kind": kind, "kind_zh": KINDS[kind], "title": title, "x": x, "y": y, "series": len(y), "columns": [x] + y,
             "data_range": f"{sh.title}!$B$2:${get_column_letter(1 + len(y))}${n + 1}", "preview": lines,
             "marked": [_plain(data[x].iloc[i]) for i in marked], "inert_cells": protected}
    return ToolResult(data, facts, {"sample": _sample(data, 20), "preview": lines}, [rel])
