"""/sql shows the SQL DuckDB ran for the last request, and that SQL, run again on its own, gives the result shown."""

from __future__ import annotations

import re
from io import StringIO

import pandas as pd
import pytest
from conftest import say
from rich.console import Console

from engine.session import Session
from repl.commands import Context
from repl.render import Renderer
from tools.workspace import Workspace


def _ctx(ws: Workspace) -> tuple[Context, StringIO]:
    buf = StringIO()
    return Context(Session(ws), Renderer(Console(file=buf, width=10_000, no_color=True))), buf


@pytest.fixture
def ws(tmp_path) -> Workspace:
    rows = 600
    pd.DataFrame({"单号": [f"N{i:04d}" for i in range(rows)], "区域": [["华东", "华南", "华北", "西南"][i % 4] for i in range(rows)],
                  "渠道": [["线上", "门店"][i % 3 == 0] for i in range(rows)],
                  "金额": [(i * 37) % 501 for i in range(rows)]}).to_csv(tmp_path / "流水.csv", index=False)
    return Workspace.at(tmp_path)


def _statements(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("SELECT")]


def test_the_sql_shown_is_what_ran_and_gives_the_same_result(ws, monkeypatch):
    import duckdb

    monkeypatch.setenv("WENQING_ENGINE", "duckdb")
    ctx, buf = _ctx(ws)
    say(ctx, buf, "流水.csv 渠道不是线上的，按区域汇总金额")
    out = say(ctx, buf, "/sql")
    sql = _statements(out)
    assert sql, out
    last = sql[-1]
    assert re.search(r'GROUP BY "区域"', last) and "NOT" in last and '"渠道"' in last
    got = duckdb.connect().execute(last).df().set_index("区域")
    df = pd.read_csv(ws.root / "流水.csv")
    want = df[df["渠道"] != "线上"].groupby("区域")["金额"].sum()
    assert got.iloc[:, 0].astype(int).to_dict() == want.astype(int).to_dict()


def test_a_request_run_in_memory_says_it_has_no_sql(ws, monkeypatch):
    monkeypatch.setenv("WENQING_ENGINE", "pandas")
    ctx, buf = _ctx(ws)
    assert "还没有运行过的请求" in say(ctx, buf, "/sql")
    say(ctx, buf, "流水.csv 按区域汇总金额")
    out = say(ctx, buf, "/sql")
    assert "在内存中运行" in out and not _statements(out)
    assert "你好" in say(ctx, buf, "你好")  # the session goes on


def test_an_english_session_is_answered_in_english(ws, monkeypatch):
    monkeypatch.setenv("WENQING_ENGINE", "duckdb")
    ctx, buf = _ctx(ws)
    say(ctx, buf, "total 金额 by 区域 in 流水.csv")
    out = say(ctx, buf, "/sql")
    assert "The SQL DuckDB ran for" in out and _statements(out)
    assert not re.search(r"[\u4e00-\u9fff]", out.replace("流水", "").replace("区域", "").replace("金额", "")
                         .replace("单号", "").replace("渠道", "").replace("行数", "").replace("合计", "")
                         .replace("线上", "").replace("门店", ""))


def test_a_step_that_ran_in_memory_shows_the_table_it_read_and_the_request_words(ws, monkeypatch):
    monkeypatch.setenv("WENQING_ENGINE", "duckdb")
    ctx, buf = _ctx(ws)
    first = ctx.session.turn("流水.csv 按区域汇总金额")  # a request that may be restated: confirmed, and /sql still names it
    if first.run is None:
        ctx.session.turn("继续")
    out = say(ctx, buf, "/sql")
    assert "“流水.csv 按区域汇总金额”" in out and "“继续”" not in out, out
