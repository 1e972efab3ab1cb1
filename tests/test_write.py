"""Outputs that open well: CSV in UTF-8 with BOM that reads back as written; xlsx with a bold frozen header, widths
fitted to CJK display width, number formats, and a 说明 sheet; top-N equal to a full stable sort."""

from __future__ import annotations

import unicodedata
from datetime import datetime

import numpy as np
import pandas as pd
import pytest
from openpyxl import load_workbook

from engine.session import Session
from tools.ops import top_n
from tools.workspace import Workspace
from tools.write import About, _number_format, write_csv_file, write_xlsx_file


def sample() -> pd.DataFrame:
    return pd.DataFrame({
        "名称": ["上海浦东新区世纪大道店", "北京店", None],
        "code": ["A1", "B22", "C333"],
        "金额": [1234567, 89, -5],
        "占比": [0.125, 0.5, 0.375],
        "单价": [12.5, 3.25, 100.0],
        "日期": pd.to_datetime(["2024-01-31", "2024-02-29", "2024-12-01"]),
        "时间": pd.to_datetime(["2024-01-31 08:30:00", "2024-02-29 23:59:59", None]),
        "年份": [2023, 2024, 2025],
        "有效": [True, False, True],
    })


def display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def test_csv_reads_back_as_written(tmp_path):
    df = sample()
    w = write_csv_file(Workspace.at(tmp_path), df, "结果")
    raw = w.path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and w.rows == 3 and w.protected == 0
    text = raw.decode("utf-8-sig")
    assert ",2024-01-31," in text and ",2024-01-31 08:30:00," in text and ',"True"\n' in text
    back = pd.read_csv(w.path, encoding="utf-8-sig", parse_dates=["日期", "时间"])
    assert back["名称"].tolist()[:2] == df["名称"].tolist()[:2] and pd.isna(back["名称"][2])
    assert back["金额"].tolist() == df["金额"].tolist() and back["占比"].tolist() == df["占比"].tolist()
    assert (back["日期"] == df["日期"]).all() and back["有效"].tolist() == df["有效"].tolist()


def test_xlsx_opens_with_a_frozen_bold_header_fitted_widths_and_number_formats(tmp_path):
    df = sample()
    about = About("筛选 上海_poi.xlsx 中评分大于 4 的行", "筛选 上海_poi.xlsx，评分大于4", "上海_poi.xlsx", "门店",
                  ("预览数据（profile_dataset）", "筛选行（filter_rows）"))
    w = write_xlsx_file(Workspace.at(tmp_path), df, "结果", "门店", about)
    wb = load_workbook(w.path)
    assert wb.sheetnames == ["门店", "说明"]
    sh = wb["门店"]
    assert sh.freeze_panes == "A2"
    assert [c.value for c in sh[1]] == list(df.columns) and all(c.font.b for c in sh[1])
    widths = {sh.cell(1, j + 1).value: sh.column_dimensions[sh.cell(1, j + 1).column_letter].width for j in range(len(df.columns))}
    longest = display_width("上海浦东新区世纪大道店")  # 22: CJK counted double
    assert longest <= widths["名称"] <= longest + 4 and widths["code"] < 10
    formats = {sh.cell(1, j + 1).value: sh.cell(2, j + 1).number_format for j in range(len(df.columns))}
    assert formats["金额"] == "#,##0" and formats["占比"] == "0.00%" and formats["单价"] == "#,##0.00"
    assert formats["日期"] == "yyyy-mm-dd" and formats["时间"] == "yyyy-mm-dd hh:mm:ss" and formats["年份"] == "0"
    assert sh["F2"].is_date and sh["F2"].value == datetime(2024, 1, 31) and sh["G3"].value == datetime(2024, 2, 29, 23, 59, 59)
    assert sh["C2"].value == 1234567 and sh["D3"].value == 0.5 and sh["I3"].value is False and sh["A4"].value is None
    info = {r[0]: r[1] for r in wb["说明"].iter_rows(min_row=2, values_only=True)}
    assert info["请求"] == about.goal and info["最近一句话"] == about.said and info["源文件"] == "上海_poi.xlsx"
    assert info["工作表"] == "门店" and info["步骤 1"] == about.steps[0] and info["步骤 2"] == about.steps[1]
    assert info["结果"] == "门店：3 行 × 9 列"


def test_an_exported_xlsx_describes_its_request_source_and_steps(ws_dir):
    tr = Session(Workspace.at(ws_dir)).turn("筛选 上海_poi.xlsx，评分大于4，导出为xlsx")
    assert tr.run.status == "answered"
    (path,) = [f["path"] for f in tr.run.files]
    wb = load_workbook(ws_dir / path)
    assert wb.sheetnames[-1] == "说明" and wb.worksheets[0].freeze_panes == "A2"
    info = {r[0]: r[1] for r in wb["说明"].iter_rows(min_row=2, values_only=True)}
    assert info["源文件"] == "上海_poi.xlsx" and info["请求"] == tr.plan.goalSummary
    assert [info[f"步骤 {s.step}"] for s in tr.plan.steps] == [f"{s.action}（{s.toolHint}）" for s in tr.plan.steps]
    expected = pd.read_excel(ws_dir / "上海_poi.xlsx", engine="openpyxl")
    expected = expected[expected["评分"] > 4].reset_index(drop=True)
    assert info["结果"].endswith(f"{len(expected)} 行 × {len(expected.columns)} 列")
    back = pd.read_excel(ws_dir / path, sheet_name=0, engine="openpyxl")
    assert back["名称"].tolist() == expected["名称"].tolist()


def test_large_integers_stay_exact_in_xlsx(tmp_path):
    ids = [110101199003071234, 310101198512120011]
    w = write_xlsx_file(Workspace.at(tmp_path), pd.DataFrame({"身份证号": ids}), "ids")
    assert [c.value for c in load_workbook(w.path).active["A"][1:]] == [str(i) for i in ids]


def test_top_n_by_partial_selection_equals_a_stable_sort():
    rng = np.random.default_rng(3)
    for _ in range(100):
        rows, n = int(rng.integers(1, 80)), int(rng.integers(1, 20))
        df = pd.DataFrame({"v": rng.integers(0, 6, rows).astype(float), "k": np.arange(rows)})
        df.loc[rng.random(rows) < 0.2, "v"] = np.nan
        for asc in (False, True):
            expected = df.sort_values("v", ascending=asc, kind="stable").head(n).reset_index(drop=True)
            assert top_n(df, "v", n, asc).data.equals(expected)


def test_write_bench_runs_small(tmp_path, capsys):
    from benchmarks.write_bench import main

    figures = main(["--csv-rows", "2000", "--xlsx-rows", "300", "--repeat", "1", "--dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert "ratio wenqing / XlsxWriter alone" in out and figures["xlsx_wenqing"] > 0
    assert "same rows: True" in out


@pytest.mark.parametrize(("name", "values", "expected"), [
    ("增长率", [0.5, -0.1], "0.00%"), ("click_rate", [0.1], "0.00%"), ("占比", [1.0, 0.25], "0.00%"),
    ("增长率", [1.5, 0.2], "#,##0.0"),  # not all fractions: a plain number
    ("corporate", [0.5], "#,##0.0"), ("user_id", [12345], "0"), ("年份", [2024], "0"), ("paid", [12345], "#,##0"),
    ("casino", [1234], "#,##0"), ("单价", [1.25, 3.5], "#,##0.00"), ("经度", [121.473701], "#,##0.000000"),
])
def test_number_formats_follow_the_column(name, values, expected):
    assert _number_format(name, pd.Series(values)) == expected


def test_iso_dates_held_as_text_become_dates_in_xlsx(tmp_path):
    df = pd.DataFrame({"日期": ["2024-03-01", None, "2024-12-31"], "时间": ["2024-03-01 08:30", "2024-03-02 09:00:05", None],
                       "不是日期": ["2024-02-30", "2024-01-01", None]})
    sh = load_workbook(write_xlsx_file(Workspace.at(tmp_path), df, "d").path).active
    assert [c.value for c in sh["A"][1:]] == [datetime(2024, 3, 1), None, datetime(2024, 12, 31)]
    assert sh["A2"].number_format == "yyyy-mm-dd" and sh["B3"].value == datetime(2024, 3, 2, 9, 0, 5)
    assert sh["C2"].value == "2024-02-30" and sh["C3"].value == "2024-01-01"  # one impossible date: the column stays text
