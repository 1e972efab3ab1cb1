"""Exports keep column types whatever the source of the table: numbers stay numbers, dates stay dates, codes with
leading zeros stay text, in xlsx and csv alike, for every kind of result (a file's rows, a filter, a summary, a
pivot, periods, a result of a result)."""

from __future__ import annotations

import datetime as dt

import openpyxl
import pandas as pd
import pytest

from engine.session import Session
from tools.workspace import Workspace


@pytest.fixture
def typed(tmp_path) -> Workspace:
    pd.DataFrame({
        "城市": ["上海", "北京", "上海", "广州", "北京", "深圳"],
        "金额": [10.5, 3.0, 4.25, 7.0, 12.0, 8.5],
        "数量": [1, 2, 3, 4, 5, 6],
        "日期": pd.to_datetime(["2024-01-05", "2024-02-01", "2024-03-01", "2024-03-15", "2024-04-01", "2024-05-20"]),
        "编号": ["007", "008", "009", "010", "011", "012"],
    }).to_excel(tmp_path / "t.xlsx", index=False)
    return Workspace.at(tmp_path)


def _cells(path) -> dict[str, list]:
    sheet = openpyxl.load_workbook(path).worksheets[0]
    rows = list(sheet.iter_rows(values_only=True))
    return {h: [r[i] for r in rows[1:]] for i, h in enumerate(rows[0])}


def _export(s: Session, request: str, fmt: str):
    tr = s.turn(request)
    assert tr.run is not None and tr.run.status == "answered", (request, tr.decision.reply)
    tr = s.turn(f"把这个结果导出成 {fmt}")
    if tr.run is None and tr.decision.next in ("restate_confirm", "plan_confirm"):
        tr = s.turn("继续")
    assert tr.run is not None and tr.run.status == "answered", (request, tr.decision.reply, tr.run and tr.run.notes)
    written = [f["path"] for f in tr.run.files if f["path"].endswith(f".{fmt}")]
    assert written, tr.run.files
    return s.ws.root / written[-1]


ROWS = "筛选 t.xlsx 金额大于3"


@pytest.mark.parametrize("request_,numbers,dates,codes", [
    (ROWS, ["金额", "数量"], ["日期"], ["编号"]),
    ("t.xlsx 按城市汇总金额", ["金额_合计"], [], []),
    ("t.xlsx 按日期的月份汇总金额", ["金额_合计"], [], []),
    ("t.xlsx 做透视表，行是城市，列是编号，值是金额合计", ["008", "011"], [], []),
])
def test_xlsx_export_of_a_result_keeps_numbers_dates_and_codes(typed, request_, numbers, dates, codes):
    cells = _cells(_export(Session(typed), request_, "xlsx"))
    for c in numbers:
        assert all(isinstance(v, (int, float)) for v in cells[c] if v is not None), (c, cells[c])
        assert any(v is not None for v in cells[c])
    for c in dates:
        assert all(isinstance(v, dt.datetime) for v in cells[c]), (c, cells[c])
    for c in codes:
        assert all(isinstance(v, str) and v.startswith("0") for v in cells[c]), (c, cells[c])


def test_a_result_of_a_result_exports_with_its_types(typed):
    s = Session(typed)
    assert s.turn(ROWS).run.status == "answered"
    assert s.turn("在这个结果里按金额从高到低排序").run.status == "answered"
    cells = _cells(_export(s, "在这个结果里筛选数量大于1", "xlsx"))
    assert all(isinstance(v, float | int) for v in cells["金额"]) and all(isinstance(v, dt.datetime) for v in cells["日期"])
    assert cells["编号"] and all(isinstance(v, str) and v.startswith("0") for v in cells["编号"])


def test_csv_export_reads_back_with_the_same_values(typed):
    path = _export(Session(typed), ROWS, "csv")
    back = pd.read_csv(path, dtype={"编号": str}, parse_dates=["日期"], encoding="utf-8-sig")
    src = pd.read_excel(typed.root / "t.xlsx", dtype={"编号": str}, engine="openpyxl")
    want = src[src["金额"] > 3].reset_index(drop=True)
    assert back["金额"].tolist() == want["金额"].tolist() and back["数量"].tolist() == want["数量"].tolist()
    assert back["日期"].dt.strftime("%Y-%m-%d").tolist() == want["日期"].dt.strftime("%Y-%m-%d").tolist()
    assert back["编号"].tolist() == want["编号"].tolist()
