"""An English conversation over an English workspace is English throughout: every answer, table header, label, number,
file name, written workbook and slash command's output (the user's own data aside, and here it is English too)."""

from __future__ import annotations

import re
from io import StringIO

import numpy as np
import openpyxl
import pandas as pd
import pytest
from conftest import say
from rich.console import Console

from engine.session import Session
from repl.commands import Context
from repl.render import Renderer
from tools.workspace import Workspace

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")

# twenty-odd kinds of request, then the commands that show what they did
WALK = [
    "hi",
    "show me sales.csv",
    "filter sales.csv where region is not North",
    "total revenue by region in sales.csv",
    "average salary by dept in staff.xlsx",
    "top 5 orders by revenue in sales.csv",
    "sort staff.xlsx by age descending",
    "how many orders per product in sales.csv",
    "count distinct customers in sales.csv",
    "pivot sales.csv with region as rows, product as columns, sum of revenue",
    "remove duplicates from sales.csv",
    "chart revenue by region in sales.csv",
    "describe staff.xlsx",
    "which dept has the highest average salary in staff.xlsx?",
    "export the last result to xlsx",
    "rows of staff.xlsx where salary is between 4000 and 6000",
    "revenue by weekday in sales.csv",
    "quarterly revenue in sales.csv",
    "share of revenue by region in sales.csv",
    "running total of revenue by order_date in sales.csv",
    "month over month growth of revenue in sales.csv",
    "what is the median price in sales.csv?",
    "how many orders have revenue above 5000 in sales.csv?",
    "thanks",
    "/help",
    "/history",
    "/files",
    "/trace",
    "/show 1",
    "/name 1 weekly",
    "/show weekly",
    "/undo",
    "/nonsense",
]


@pytest.fixture
def english(tmp_path) -> Workspace:
    rng = np.random.default_rng(3)
    n = 120
    sales = pd.DataFrame({
        "order_id": range(1001, 1001 + n), "region": rng.choice(["North", "South", "East", "West"], n),
        "product": rng.choice(["Laptop", "Phone", "Tablet"], n), "channel": rng.choice(["Online", "Store"], n),
        "units": rng.integers(1, 20, n), "price": rng.choice([199.0, 499.5, 899.0], n),
        "order_date": pd.date_range("2024-01-01", periods=n, freq="D").strftime("%Y-%m-%d"),
        "customer": rng.choice(["Acme", "Globex", "Initech", "Hooli"], n)})
    sales["revenue"] = sales.units * sales.price
    sales.to_csv(tmp_path / "sales.csv", index=False)
    staff = pd.DataFrame({"name": [f"Emp{i}" for i in range(30)], "dept": rng.choice(["Sales", "IT", "HR"], 30),
                          "salary": rng.integers(3000, 9000, 30), "age": rng.integers(22, 60, 30)})
    staff.to_excel(tmp_path / "staff.xlsx", index=False)
    return Workspace.at(tmp_path)


def test_an_english_session_says_nothing_in_chinese(english):
    buf = StringIO()
    ctx = Context(Session(english), Renderer(Console(file=buf, width=140, no_color=True)), pager=lambda c, draw: draw())
    leaks = []
    for line in WALK:
        out = say(ctx, buf, line)
        assert out.strip(), line
        leaks += [(line, row.strip()) for row in out.splitlines() if CJK.search(row)]
    assert not leaks, leaks[:10]
    written = [p for p in english.root.rglob("*") if p.is_file() and p.parent != english.root and p.suffix in (".csv", ".xlsx")]
    assert len([p for p in written if p.parent.name == "outputs"]) >= 10
    assert not [p.name for p in written if CJK.search(p.name)]
    for p in written:
        if p.suffix == ".csv":
            assert not CJK.search(p.read_text(encoding="utf-8-sig")), p.name
            continue
        for sheet in openpyxl.load_workbook(p).worksheets:
            assert not CJK.search(sheet.title), (p.name, sheet.title)
            cells = [v for row in sheet.iter_rows(values_only=True) for v in row if isinstance(v, str) and CJK.search(v)]
            assert not cells, (p.name, sheet.title, cells[:3])


@pytest.mark.parametrize("line,lang", [
    ("in 销售台账.xlsx, total 销售额 by 城市 for the 下半年 sheet", "en"),
    ("sum of 金额 by 城市 in 订单表", "en"),
    ("monthly totals of 销售额 in 销售台账.xlsx", "en"),
    ("按城市汇总 revenue", "zh"),
    ("show me 我的订单", "zh"),
    ("下半年每个月的销售额 total", "zh"),
])
def test_english_around_the_datas_chinese_names_is_english(line, lang):
    from modes.text import language

    assert language(line) == lang


def test_the_plan_card_and_the_trace_say_their_steps_in_english(english):
    buf = StringIO()
    ctx = Context(Session(english), Renderer(Console(file=buf, width=160, no_color=True)), pager=lambda c, draw: draw())
    card = say(ctx, buf, "full analysis of sales.csv")
    assert "Plan" in card and "columns read" in card and "file written" in card, card
    ran = say(ctx, buf, "go")
    trace = say(ctx, buf, "/trace")
    assert "doneWhen: columns read" in trace and "doneWhen: statistics done" in trace, trace
    leaks = [row.strip() for out in (card, ran, trace) for row in out.splitlines() if CJK.search(row)]
    assert not leaks, leaks[:10]


def test_every_done_text_of_a_plan_step_has_its_english():
    """Each doneWhen written in the code (筛选完成, 导出成功 …) is listed in tools/english.toml: the plan card and /trace
    never fall back to the tool's name, nor show the Chinese."""
    from pathlib import Path

    from tools.localise import _data, done_en

    root = Path(__file__).resolve().parents[1]
    step = re.compile(r"(?:StepSpec|add|Step)\(\s*(?:f?\"[^\"]*\"|[a-z_.]+(?:\[[^\]]*\])?)\s*(?:if [^,]*)?,\s*\"\w+\",\s*\"([^\"]+)\"")
    said = {m.group(1) for folder in ("modes", "engine", "tools") for p in (root / folder).rglob("*.py")
            for m in step.finditer(p.read_text(encoding="utf-8"))}
    assert len(said) > 30
    missing = sorted(t for t in said if t not in _data()["done"])
    assert not missing, missing
    assert all(not CJK.search(done_en(t)) for t in said)


def test_a_table_read_out_of_core_gets_wenqings_headers_in_english(tmp_path):
    """A result kept on disk (DuckDB reads it) is renamed in the query that reads it, as a table in memory is: its
    rows are the same, the user's own headers are kept."""
    from engine.executor import _names_en, _table_en
    from tools.outofcore import open_csv

    df = pd.DataFrame({"城市": ["北京", "上海", "广州"], "金额_合计": [10.5, 20.0, 7.25], "行数": [3, 4, 1]})
    df.to_csv(tmp_path / "big.csv", index=False)
    big = open_csv(Workspace.at(tmp_path), tmp_path / "big.csv")
    assert big is not None
    assert _names_en(big, {"城市"}) == {"金额_合计": "金额_sum", "行数": "rows"}
    out = _table_en(big, {"城市"})
    assert out.columns == ["城市", "金额_sum", "rows"] and len(out) == 3
    got = out.head(10)
    assert got.columns.tolist() == ["城市", "金额_sum", "rows"]
    assert got["金额_sum"].tolist() == df["金额_合计"].tolist() and got["rows"].tolist() == df["行数"].tolist()
