"""Results you can come back to: /show pages through the whole table of a result, /name keeps it under a name a
request can say; every answer is in the session's language."""

from __future__ import annotations

import os
from io import StringIO

import pandas as pd
import pytest
from conftest import say
from rich.console import Console

from engine.session import Session
from repl.commands import Context
from repl.render import Renderer
from tools.workspace import Workspace


def _ctx(ws: Workspace, width: int = 120) -> tuple[Context, StringIO, list[int]]:
    buf = StringIO()
    pages: list[int] = []

    def pager(ctx: Context, draw) -> None:  # the terminal's pager, recorded: what it pages is what is printed
        pages.append(1)
        draw()

    return Context(Session(ws), Renderer(Console(file=buf, width=width, no_color=True)), pager=pager), buf, pages


@pytest.fixture
def big(tmp_path) -> Workspace:
    rows = 2500
    pd.DataFrame({"订单号": [f"D{i:05d}" for i in range(rows)], "门店": [f"店{i % 7}" for i in range(rows)],
                  "金额": [i * 3 % 997 for i in range(rows)]}).to_csv(tmp_path / "流水.csv", index=False)
    return Workspace.at(tmp_path)


def test_show_pages_through_every_row_of_a_result_not_only_the_preview(big):
    ctx, buf, pages = _ctx(big)
    say(ctx, buf, "筛选 流水.csv 金额大于 100")
    expected = pd.read_csv(big.root / "流水.csv").query("金额 > 100").reset_index(drop=True)
    out = say(ctx, buf, "/show")
    assert pages == [1]
    assert f"共 {len(expected)} 行 × 3 列，第 1–1000 行" in out
    ids = [w for w in out.split() if w.startswith("D") and w[1:].isdigit()]
    assert ids == list(expected["订单号"][:1000])
    assert f"还有 {len(expected) - 1000} 行：/show 1 1001" in out
    out = say(ctx, buf, "/show 1 1001")
    assert [w for w in out.split() if w.startswith("D") and w[1:].isdigit()] == list(expected["订单号"][1000:2000])
    assert "只有" in say(ctx, buf, f"/show 1 {len(expected) + 5}")


def test_show_of_a_result_that_does_not_exist_is_said_and_the_session_goes_on(big):
    ctx, buf, _ = _ctx(big)
    assert "还没有运行过的请求" in say(ctx, buf, "/show")
    say(ctx, buf, "流水.csv 按门店汇总金额")
    assert "没有第 4 个结果（/history 里有 1 个）" in say(ctx, buf, "/show 4")
    assert "没有名为“不存在”的结果" in say(ctx, buf, "/show 不存在")
    assert "你好" in say(ctx, buf, "你好")


def test_a_named_result_is_what_a_later_request_works_on_and_it_outlives_the_session(big):
    ctx, buf, _ = _ctx(big)
    say(ctx, buf, "流水.csv 按门店汇总金额")
    said = say(ctx, buf, "/name 1 门店表")
    assert "已把第 1 个结果命名为“门店表”" in said
    say(ctx, buf, "筛选 流水.csv 金额小于 50")  # another result comes between
    out = say(ctx, buf, "门店表里金额_合计最高的2个")
    tr = ctx.session.last_tr
    assert tr.run is not None and tr.run.status == "answered"
    assert tr.decision.request.file == ".wenqing/named/门店表.parquet" and "结果“门店表”" in out
    df = pd.read_csv(big.root / "流水.csv")
    want = df.groupby("门店")["金额"].sum().nlargest(2)
    assert list(tr.run.table["门店"]) == list(want.index) and list(tr.run.table["金额_合计"]) == list(want.values)
    again = Session(big)  # a new session knows the name
    assert again.named_results() == {"门店表": ".wenqing/named/门店表.parquet"}
    tr = again.turn("门店表 有多少行")
    assert tr.decision.request.file == ".wenqing/named/门店表.parquet"


@pytest.mark.parametrize("name, said", [
    ("流水", "已经是工作区里"),            # a file's name
    ("金额", "已经是工作区里"),            # a column
    ("店3", "已经是工作区里"),             # a value
    ("门店汇总", "当作操作来读"),          # 汇总 would be read as an operation
    ("a b", "不含空格"),
])
def test_a_name_a_request_would_misread_is_refused(big, name, said):
    ctx, buf, _ = _ctx(big)
    say(ctx, buf, "流水.csv 按门店汇总金额")
    out = say(ctx, buf, f"/name 1 {name}")
    assert said in out and ctx.session.named_results() == {}


def test_an_english_session_gets_its_commands_answered_in_english(big):
    ctx, buf, _ = _ctx(big)
    say(ctx, buf, "sum 金额 by 门店 in 流水.csv")
    out = say(ctx, buf, "/show 3") + say(ctx, buf, "/name 1 stores") + say(ctx, buf, "/show stores")
    assert "There is no result 3" in out and "now named 'stores'" in out and "the result 'stores'" in out
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in out.replace("门店", "").replace("金额", "").replace("店", "")), out


def test_a_line_of_no_language_keeps_the_session_s_and_lang_fixes_it(big):
    ctx, buf, _ = _ctx(big)
    say(ctx, buf, "sum 金额 by 门店 in 流水.csv")
    assert ctx.session.lang == "en"
    tr = ctx.session.turn("3")  # a number, a formula or a date is no language: the session's stays
    assert tr.decision.lang == "en" and ctx.session.lang == "en"
    assert ctx.session.turn("=SUM(B:B)").decision.lang == "en"
    assert "every answer is in English" in say(ctx, buf, "/lang en")
    tr = ctx.session.turn("你好")
    assert tr.decision.lang == "en" and not any("\u4e00" <= ch <= "\u9fff" for ch in tr.decision.reply), tr.decision.reply
    assert "之后都用中文" in say(ctx, buf, "/lang zh")
    assert ctx.session.turn("hello").decision.lang == "zh"
    assert "Usage" not in say(ctx, buf, "/lang") and "已固定" in say(ctx, buf, "/lang")


def test_the_terminal_pager_is_told_to_show_styles_and_the_setting_is_put_back(big, monkeypatch):
    """less shows rich's styles only with -R: without it a page is full of ESC[1m."""
    from contextlib import contextmanager

    from repl.commands import console_pager

    seen: list[str | None] = []
    console = Console(file=StringIO(), force_terminal=True, width=80)

    @contextmanager
    def pager(styles: bool = False):
        seen.append(os.environ.get("LESS"))
        yield

    monkeypatch.setattr(console, "pager", pager)
    ctx = Context(Session(big), Renderer(console))
    for before in (None, "-X", "-RX"):
        if before is None:
            monkeypatch.delenv("LESS", raising=False)
        else:
            monkeypatch.setenv("LESS", before)
        console_pager(ctx, lambda: None)
        assert os.environ.get("LESS") == before
    assert [s is not None and "R" in s for s in seen] == [True, True, True] and seen[1] == "-X -R"
