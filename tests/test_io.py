"""Loading and writing: bad inputs get typed errors with clear messages; sources are never changed."""

import hashlib
import os
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from engine.session import Session
from tools.errors import OutsideWorkspace, ParseFailed, WriteFailed
from tools.io import read_table
from tools.workspace import Workspace
from tools.write import unique_output, write_csv_file, write_xlsx_file


def digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    "name,content,message",
    [
        ("empty.csv", b"", "文件是空的"),
        ("blank.csv", b"\n\n  \n", "没有任何内容"),
        ("fake.xlsx", b"\x00\x01\x02 not a workbook \x00" * 20, "已损坏"),
        ("truncated.xlsx", b"PK\x03\x04" + b"\x00" * 40, "已损坏"),
        ("secret.xlsx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 512, "密码保护"),
        ("photo.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "不是表格文件"),
    ],
)
def test_bad_files_raise_parse_failed(tmp_path, name, content, message):
    p = tmp_path / name
    p.write_bytes(content)
    before = digest(p)
    with pytest.raises(ParseFailed) as e:
        read_table(p)
    assert message in e.value.zh and e.value.en
    assert digest(p) == before


def test_directory_and_header_only(tmp_path):
    (tmp_path / "folder.xlsx").mkdir()
    with pytest.raises(ParseFailed, match="文件夹"):
        read_table(tmp_path / "folder.xlsx")
    (tmp_path / "head.csv").write_text("a,b,c\n", encoding="utf-8")
    t = read_table(tmp_path / "head.csv")
    assert list(t.df.columns) == ["a", "b", "c"] and len(t.df) == 0


def test_csv_renamed_xlsx_is_read_as_text(tmp_path):
    p = tmp_path / "renamed.xlsx"
    p.write_text("城市,金额\n上海,10\n北京,20\n", encoding="utf-8")
    t = read_table(p)
    assert list(t.df["城市"]) == ["上海", "北京"]


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-8", "gb18030", "gbk"])
def test_csv_encodings(tmp_path, encoding):
    p = tmp_path / "data.csv"
    p.write_bytes("名称;城市;金额\n咖啡店;上海;12\n面馆;北京;30\n".encode(encoding))
    t = read_table(p)
    assert list(t.df.columns) == ["名称", "城市", "金额"] and t.delimiter == ";"
    assert t.df["城市"].tolist() == ["上海", "北京"]
    assert t.encoding == ("gb18030" if encoding in ("gbk", "gb18030") else encoding)


def test_leading_zeros_stay_text_and_ragged_lines_are_counted(tmp_path):
    p = tmp_path / "ids.csv"
    p.write_text("编号,名称\n00123,甲\n00456,乙\n007,丙,多余\n", encoding="utf-8")
    t = read_table(p)
    assert t.df["编号"].tolist()[:2] == ["00123", "00456"]
    assert (t.skipped, t.skipped_lines) == (1, [4])


def test_a_quote_that_never_closes_is_an_error_with_its_line_never_a_short_table(tmp_path):
    rows = "".join(f"c{i},{i}\n" for i in range(40))
    (tmp_path / "broken.csv").write_text("city,amount\nLyon,5\n" + 'Nice,"Paris,10\n' + rows, encoding="utf-8")
    with pytest.raises(ParseFailed) as e:
        read_table(tmp_path / "broken.csv")
    assert "第 3 行" in e.value.zh and "line 3" in e.value.en
    s = Session(Workspace.at(tmp_path))
    for request in ("筛选 broken.csv amount大于1", "按city汇总broken.csv的amount"):
        tr = s.turn(request)
        assert (tr.run.status, tr.run.fallback_reason) == ("insufficient_context", "parse_failed"), request
        assert any("第 3 行" in n and "引号" in n for n in tr.run.notes)
    assert not (tmp_path / "outputs").exists() or not any((tmp_path / "outputs").iterdir())


def test_rows_left_out_by_the_reader_are_said_in_every_answer_that_read_them(tmp_path):
    (tmp_path / "ragged.csv").write_text("city,amount\nLyon,5\nRome,3,9\nOslo,4\nBern,7,1,2\nNice,2\n", encoding="utf-8")
    s = Session(Workspace.at(tmp_path))
    tr = s.turn("筛选 ragged.csv amount大于1")
    assert tr.run.status == "answered" and tr.run.steps[1].facts["rows_in"] == 3
    assert any("跳过了 2 行" in n and "第 3、5 行" in n for n in tr.run.notes)
    tr = s.turn("filter ragged.csv where amount > 3")
    assert any("skipped 2 rows" in n and "lines 3, 5" in n for n in tr.run.notes)


def test_title_row_above_header(tmp_path):
    p = tmp_path / "report.xlsx"
    df = pd.DataFrame([["2024 年销售报表", None, None], ["城市", "产品", "金额"], ["上海", "键盘", 10], ["北京", "鼠标", 20]])
    df.to_excel(p, header=False, index=False, engine="openpyxl")
    t = read_table(p)
    assert list(t.df.columns) == ["城市", "产品", "金额"] and len(t.df) == 2
    assert any("表头" in n for n in t.notes)


def test_zip_bomb_refused_before_parsing(tmp_path):
    p = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<x/>")
        z.writestr("xl/worksheets/sheet1.xml", b"\x00" * (60 * 1024 * 1024))
    with pytest.raises(ParseFailed, match="压缩炸弹"):
        read_table(p)


def test_paths_outside_the_workspace_are_refused(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (tmp_path / "ws-sibling").mkdir()
    (tmp_path / "ws-sibling" / "x.csv").write_text("a\n1\n")
    (tmp_path / "outside.csv").write_text("a\n1\n")
    os.symlink(tmp_path / "outside.csv", root / "link.csv")
    ws = Workspace.at(root)
    for bad in ("../outside.csv", str(tmp_path / "outside.csv"), "../ws-sibling/x.csv", "link.csv"):
        with pytest.raises(OutsideWorkspace):
            ws.resolve(bad)
    assert "link.csv" not in ws.files()


def test_writes_never_overwrite_and_make_formulas_inert(tmp_path):
    ws = Workspace.at(tmp_path)
    df = pd.DataFrame({"名称": ["=HYPERLINK(\"http://x\")", "+1", "正常", "@SUM(A1)"], "金额": [-5, 2, 3, 4]})
    w1 = write_csv_file(ws, df, "结果")
    p1, p2 = w1.path, write_csv_file(ws, df, "结果").path
    assert p1.name == "结果.csv" and p2.name == "结果_2.csv" and w1.protected == 3
    text = p1.read_text(encoding="utf-8-sig")
    assert "'=HYPERLINK" in text and "'+1" in text and '\n"正常",3' in text and "-5" in text
    assert p1.read_bytes().startswith(b"\xef\xbb\xbf")
    wx = write_xlsx_file(ws, df, "结果")
    x = wx.path
    assert wx.protected == 3
    from openpyxl import load_workbook

    sh = load_workbook(x).active
    assert sh["A2"].data_type == "s" and sh["A2"].value.startswith("=HYPERLINK") and sh["B2"].value == -5


def test_lock_file_means_a_new_name(tmp_path):
    ws = Workspace.at(tmp_path)
    (tmp_path / "outputs").mkdir()
    (tmp_path / "outputs" / "~$结果.xlsx").write_text("lock")
    assert unique_output(ws, "结果", "xlsx").name == "结果_2.xlsx"


def test_too_many_rows_for_xlsx(tmp_path, monkeypatch):
    ws = Workspace.at(tmp_path)

    class Big(pd.DataFrame):
        def __len__(self):
            return 2_000_000

    with pytest.raises(WriteFailed, match="CSV"):
        write_xlsx_file(ws, Big({"a": [1]}), "big")


def test_stray_temporaries_removed_at_start(tmp_path):
    (tmp_path / "outputs").mkdir()
    stray = tmp_path / "outputs" / ".wq-tmp-123-x.csv"
    stray.write_text("partial")
    Session(Workspace.at(tmp_path))
    assert not stray.exists()


def test_session_goes_on_after_bad_files(session, ws_dir):
    (ws_dir / "broken.xlsx").write_bytes(b"PK\x03\x04garbage")
    before = digest(ws_dir / "broken.xlsx")
    tr = session.turn("预览 broken.xlsx")
    assert tr.run.status == "insufficient_context" and tr.run.fallback_reason == "parse_failed"
    assert any("损坏" in n for n in tr.run.notes)
    assert digest(ws_dir / "broken.xlsx") == before
    tr = session.turn("预览 上海_poi.xlsx")
    assert tr.run.status == "answered"
    d = session.turn("分析 ../secret.xlsx").decision
    assert d.gate == "clarify"


def test_formulas_without_cached_values_are_counted_and_block_aggregation(session, ws_dir):
    from openpyxl import Workbook

    wb = Workbook()
    sh = wb.active
    sh.append(["城市", "金额", "含税"])
    for i, city in enumerate(["上海", "北京", "上海"], start=2):
        sh.append([city, 100 * i, f"=B{i}*1.13"])
    wb.save(ws_dir / "公式表.xlsx")  # openpyxl stores formulas without cached values
    before = digest(ws_dir / "公式表.xlsx")
    t = read_table(ws_dir / "公式表.xlsx")
    assert t.uncached_formulas == 3
    tr = session.turn("公式表.xlsx 按城市汇总含税")
    assert tr.decision.next in ("execute", "restate_confirm")
    if tr.decision.next == "restate_confirm":
        tr = session.turn("继续")
    assert (tr.run.status, tr.run.fallback_reason) == ("insufficient_context", "formulas_uncached")
    assert "3 个公式单元格" in tr.run.notes[0]
    tr = session.turn("预览 公式表.xlsx")
    assert tr.run.status == "answered" and "3 个公式单元格" in tr.run.answer
    assert digest(ws_dir / "公式表.xlsx") == before


BAD_FILES = [
    ("空文件.csv", b"", "空的"),
    ("只有表头.csv", b"a,b\n", None),
    ("改名的.xlsx", "城市,金额\n上海,1\n".encode(), None),
    ("坏的.xlsx", b"PK\x03\x04" + b"\x01" * 64, "损坏"),
    ("加密.xlsx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600, "受密码保护"),
    ("不齐.csv", b"a,b\n1,2\n3,4,5\n6,7\n", None),
    ("图片.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, None),
]


@pytest.mark.parametrize("name,content,message", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_inputs_in_a_session_leave_the_source_untouched(session, ws_dir, name, content, message):
    p = ws_dir / name
    p.write_bytes(content)
    before = digest(p)
    tr = session.turn(f"预览 {name}")
    text = " ".join(tr.run.notes + [tr.run.answer or ""]) if tr.run else tr.decision.reply
    if message:
        assert message in text
    assert digest(p) == before
    tr = session.turn("预览 上海_poi.xlsx")  # the session goes on
    if tr.decision.next == "restate_confirm":  # the file was supplied after a question: restated first
        tr = session.turn("继续")
    assert tr.run.status == "answered"


def test_fast_path_reads_the_same_table(monkeypatch):
    from conftest import EXAMPLES

    import tools.io as tio

    exact = read_table(EXAMPLES / "sample_data.xlsx", "订单").df
    monkeypatch.setattr(tio, "FAST_FROM_BYTES", 0)
    fast = read_table(EXAMPLES / "sample_data.xlsx", "订单").df
    assert list(fast.columns) == list(exact.columns) and len(fast) == len(exact)
    for c in exact.columns:
        assert [str(v)[:10] for v in fast[c]] == [str(v)[:10] for v in exact[c]], c
    assert str(fast["数量"].dtype) == "int64"


def test_fast_path_falls_back_for_title_rows(tmp_path, monkeypatch):
    import tools.io as tio

    monkeypatch.setattr(tio, "FAST_FROM_BYTES", 0)
    p = tmp_path / "report.xlsx"
    pd.DataFrame([["2024 年报表", None, None], ["城市", "产品", "金额"], ["上海", "键盘", 10]]).to_excel(p, header=False, index=False)
    t = read_table(p)
    assert list(t.df.columns) == ["城市", "产品", "金额"] and t.df["金额"].tolist() == [10]


def test_the_user_can_say_where_the_header_is(session, ws_dir):
    rows = [["2024 年报表", None, None], ["城市", "产品", "金额"], ["地区", "品类", "数值"], ["上海", "键盘", 10], ["北京", "鼠标", 20]]
    pd.DataFrame(rows).to_excel(ws_dir / "月报.xlsx", header=False, index=False)
    tr = session.turn("预览 月报.xlsx")
    assert "表头在第 2 行" in tr.run.answer and "第 4 行也像表头" not in tr.run.answer
    assert "第 3 行也像表头" in tr.run.answer
    tr = session.turn("表头在第3行")
    assert tr.run.status == "answered" and list(tr.run.table.columns) == ["地区", "品类", "数值"]
    assert tr.run.table["数值"].tolist() == [10, 20] and "按您说的，表头在第 3 行" in tr.run.answer


def test_outputs_folder_that_cannot_be_created(session, monkeypatch):
    from pathlib import Path

    real = Path.mkdir

    def refuse(self, *a, **k):
        if self.name == "outputs":
            raise PermissionError("read-only")
        return real(self, *a, **k)

    monkeypatch.setattr(Path, "mkdir", refuse)
    tr = session.turn("北京_poi.xlsx按评分从高到低排序")
    assert tr.run.status == "failed" and "写权限" in tr.run.notes[0]


def test_leading_zeros_in_workbooks_stay_text(tmp_path):
    pd.DataFrame({"工号": ["00123", "04560"], "数量": [1, 2]}).to_excel(tmp_path / "ids.xlsx", index=False)
    df = read_table(tmp_path / "ids.xlsx").df
    assert df["工号"].tolist() == ["00123", "04560"] and str(df["数量"].dtype) == "int64"
