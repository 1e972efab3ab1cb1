"""Parsers in a box: a workbook is parsed in a worker process with a memory cap and a deadline, so a parser that
aborts, a file that claims billions of cells or a parse that never ends costs one clear message, never the session
(or `decide` on a request that does not even name the file)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from benchmarks.fuzz import write_ods
from engine.session import Session
from tools import sandbox
from tools.errors import ParseFailed
from tools.io import read_table
from tools.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent


def test_a_parser_that_aborts_its_process_is_a_clear_failure_and_the_next_parse_works():
    with pytest.raises(ParseFailed) as e:
        sandbox.call("x.xlsx", os.abort, (), 10, sandbox.memory_for(0))
    assert "x.xlsx" in e.value.zh and "内存" in e.value.zh and e.value.en
    assert sandbox.call("x.xlsx", sorted, ([3, 1, 2],), 10, sandbox.memory_for(0)) == [1, 2, 3]


def test_a_parse_over_the_memory_cap_stops_there():
    with pytest.raises(ParseFailed) as e:
        sandbox.call("big.xlsx", bytearray, (3 * 1024**3,), 20, 256 * 1024**2)
    assert "内存超过上限" in e.value.zh and "256 MB" in e.value.zh
    assert sandbox.call("big.xlsx", len, ("abc",), 10, sandbox.memory_for(0)) == 3


def test_a_parse_past_its_deadline_is_killed():
    t = time.monotonic()
    with pytest.raises(ParseFailed) as e:
        sandbox.call("slow.xlsx", time.sleep, (60,), sandbox.MIN_SECONDS, sandbox.memory_for(0))
    assert time.monotonic() - t < sandbox.MIN_SECONDS + 5
    assert "超过" in e.value.zh and "秒" in e.value.zh
    assert sandbox.call("slow.xlsx", abs, (-2,), 10, sandbox.memory_for(0)) == 2


def test_ctrl_c_typed_in_the_terminal_does_not_kill_a_read_under_way():
    """The terminal sends Ctrl-C to every process of its group, the worker too: the read finishes (the session
    cancels at its next step boundary), never a false "needed more memory than the limit"."""
    import signal
    import threading

    assert sandbox.call("warm.xlsx", abs, (-1,), 10, sandbox.memory_for(0)) == 1  # the worker is up, its handlers set
    pid = sandbox._worker.proc.pid
    got: list[object] = []
    t = threading.Thread(target=lambda: got.append(sandbox.call("slow.xlsx", time.sleep, (1.0,), 20, sandbox.memory_for(0))))
    t.start()
    time.sleep(0.3)
    os.kill(pid, signal.SIGINT)
    t.join(timeout=20)
    assert got == [None] and sandbox._worker.proc.pid == pid and sandbox._worker.alive()


def _with_part(src: Path, dst: Path, part: str, edit) -> None:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for it in zin.infolist():
            data = zin.read(it.filename)
            zout.writestr(it, edit(data) if it.filename == part else data)


CELL = '<table:table-cell office:value-type="string"><text:p>{}</text:p></table:table-cell>'


@pytest.fixture
def bombs(tmp_path) -> Workspace:
    pd.DataFrame({"城市": ["上海", "北京"], "金额": [1, 2]}).to_excel(tmp_path / "ok.xlsx", index=False)
    _with_part(tmp_path / "ok.xlsx", tmp_path / "strings.xlsx", "xl/sharedStrings.xml",
               lambda b: re.sub(rb'uniqueCount="\d+"', b'uniqueCount="4294967295"', b))
    write_ods(tmp_path / "cells.ods", [["a"]], '<table:table-row table:number-rows-repeated="1048576">'
              '<table:table-cell table:number-columns-repeated="16384" office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>')
    write_ods(tmp_path / "fine.ods", [["名称", "数量"]], "<table:table-row>" + CELL.format("甲") +
              '<table:table-cell office:value-type="float" office:value="3"><text:p>3</text:p></table:table-cell></table:table-row>')
    pd.DataFrame({"c": [1, 2, 3]}).to_csv(tmp_path / "fine.csv", index=False)
    return Workspace.at(tmp_path)


def test_bombs_are_refused_with_their_reason_and_good_files_still_read(bombs):
    for name, said in (("strings.xlsx", "共享字符串表声称有 4,294,967,295 项"), ("cells.ods", "单元格")):
        with pytest.raises(ParseFailed) as e:
            read_table(bombs.root / name)
        assert said in e.value.zh and e.value.en, e.value.zh
    assert read_table(bombs.root / "fine.ods").df["数量"].tolist() == [3]
    assert read_table(bombs.root / "ok.xlsx").df["金额"].tolist() == [1, 2]


def test_a_workspace_with_bombs_answers_every_turn(bombs):
    s = Session(bombs)
    assert s.turn("你好").decision.gate == "chat"
    tr = s.turn("筛选 fine.csv c大于1")
    assert tr.run is not None and tr.run.status == "answered" and tr.run.steps[1].facts["rows_out"] == 2
    for name in ("strings.xlsx", "cells.ods"):
        tr = s.turn(f"预览 {name}")
        assert tr.run is not None and (tr.run.status, tr.run.fallback_reason) == ("insufficient_context", "parse_failed")
    assert s.turn("预览 fine.ods").run.status == "answered"


def test_decide_survives_a_bomb_it_is_not_asked_about(bombs):
    out = subprocess.run([sys.executable, "-m", "repl.cli", "decide", "--workspace", str(bombs.root), "筛选 c大于1"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout)["gate"] in ("act", "clarify")


def test_an_ods_row_repeated_a_million_times_is_refused_before_parsing_and_trailing_empty_rows_are_not(tmp_path):
    """A 2 KB .ods whose one filled row repeats 1,000,000 times took 11 s and 1 GB to be refused by the parser: the
    guard now counts filled cells after repetition; a sheet's trailing empty rows, repeated, still read."""
    row = "<table:table-row>" + CELL.format("甲") + CELL.format("乙") + "</table:table-row>"
    write_ods(tmp_path / "rep.ods", [["a", "b"]], '<table:table-row table:number-rows-repeated="1000000">' + CELL.format("x") + CELL.format("y")
              + "</table:table-row>")
    write_ods(tmp_path / "tail.ods", [["a", "b"]], row + '<table:table-row table:number-rows-repeated="1048570">'
              '<table:table-cell table:number-columns-repeated="1024"/></table:table-row>')
    with pytest.raises(ParseFailed) as e:
        read_table(tmp_path / "rep.ods")
    assert "重复展开" in e.value.zh and e.value.en
    assert read_table(tmp_path / "tail.ods").df["a"].tolist()[:1] == ["甲"]
