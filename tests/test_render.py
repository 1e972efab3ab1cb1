"""Rendering: text made safe for a terminal, cells clipped by display width, a run read as a request."""

import json
from io import StringIO

import pandas as pd
import pytest
from rich.cells import cell_len
from rich.console import Console

from repl.render import Renderer, clip, history_item, safe


@pytest.mark.parametrize("raw, one_line, expected", [
    ("a\x1b[31mb", False, "a\ufffd[31mb"),
    ("\x9b2J\x07", False, "\ufffd2J\ufffd"),
    ("ab\u202ecd", False, "ab\ufffdcd"),
    ("x\ud800y", False, "x\ufffdy"),
    ("第一行\r\n第二行\r第三行", False, "第一行\n第二行\n第三行"),
    ("第一行\n第二行\t!", True, "第一行 第二行 !"),
])
def test_safe(raw, one_line, expected):
    assert safe(raw, one_line) == expected


@pytest.mark.parametrize("text, width, expected", [
    ("上海某某国际贸易", 7, "上海某…"),   # never half a wide character
    ("上海某某国际贸易", 8, "上海某…"),
    ("abcdef", 4, "abc…"),
    ("短", 4, "短"),
])
def test_clip_by_display_width(text, width, expected):
    assert clip(text, width) == expected and cell_len(clip(text, width)) <= width


def test_markup_and_escapes_in_cells_and_messages_are_shown_as_text():
    buf = StringIO()
    r = Renderer(Console(file=buf, width=100, force_terminal=True, no_color=True))
    r.say("[bold red]不是标记[/bold red]\x1b]0;title\x07")
    r.dataframe(pd.DataFrame({"[b]列[/b]": ["[link=http://x]点[/link]", "\x1b[2J"]}), "预览")
    out = buf.getvalue()
    assert "[bold red]不是标记[/bold red]" in out and "[b]列[/b]" in out and "[link=http://x]点[/link]" in out
    assert "\x1b]0;" not in out and "\x1b[2J" not in out and "\x07" not in out


def test_a_run_reads_as_its_request_and_result():
    run = {
        "trace_id": "abc123456789", "utterance": "继续", "status": "answered", "answer": "筛选完成",
        "chain": [{"utterance": "帮我弄一下", "next": "ask_intent"}, {"utterance": "筛选一下 POI 数据", "next": "ask_slots"},
                  {"utterance": "地址不为空", "next": "restate_confirm"}],
        "files": json.dumps([{"path": "outputs/上海_poi_筛选.csv", "rows": 45}]),
        "events": [{"node": "gate", "outputs": "{}"}, {"node": "step:1", "outputs": json.dumps({"rows": 60})},
                   {"node": "step:2", "outputs": json.dumps({"rows_in": 60, "rows_out": 45})}],
    }
    h = history_item(run)
    assert h.request == "筛选一下 POI 数据 → 地址不为空"
    assert h.outcome == "60 行 → 45 行；已保存 outputs/上海_poi_筛选.csv" and h.files == ("outputs/上海_poi_筛选.csv",)
    failed = history_item({**run, "status": "insufficient_context", "fallback_reason": "no_rows", "files": "[]"})
    assert failed.outcome == "60 行 → 45 行；证据不足（no_rows）" and failed.files == ()
