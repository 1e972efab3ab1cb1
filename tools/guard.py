"""Hard limits checked before any parser sees a file, so that one odd file costs a clear message, never the
session: what a workbook's archive holds (per-entry size and ratio, checked against the bytes themselves),
where its cells claim to be (a cell at XFD1048576 or ZZZZ1 would make a dense reader allocate gigabytes),
how long a CSV field is, and how long reading one file may take."""

from __future__ import annotations

import io
import re
import time
import zipfile
from functools import lru_cache
from pathlib import Path

from tools.errors import ParseFailed

MAX_ENTRY_BYTES = 512 * 1024**2  # one part of a workbook, uncompressed
MAX_TOTAL_BYTES = 2 * 1024**3
MAX_ENTRY_RATIO = 100  # uncompressed / compressed, for parts above RATIO_FROM_BYTES
RATIO_FROM_BYTES = 8 * 1024**2
MAX_ROWS = 1_048_576  # the xlsx format's own limits
MAX_COLS = 16_384
MAX_CELLS = 25_000_000  # rows x columns a reader would lay out densely
MAX_READ_COLS = 2048  # wider sheets take minutes column by column
SPARSE_FROM_CELLS = 2_000_000  # a sheet this big must hold at least 1 cell in SPARSE_RATIO that it spans
SPARSE_RATIO = 50
MAX_FIELD_CHARS = 131_072
SECONDS_PER_FILE = 8.0  # plus SECONDS_PER_MB for each megabyte: big files may take their time, small ones may not
SECONDS_PER_MB = 2.0
CHUNK = 1024**2

_COLUMNS = re.compile(rb' r="([A-Z]{1,8})')  # cell references: <c r="AB12"
_ROWS = re.compile(rb' r="[A-Z]{0,8}0*([1-9][0-9]{0,11})"')  # rows of cells and of <row r="12">
_SHEET_PART = re.compile(r"^xl/(?:worksheets|chartsheets|dialogsheets|macrosheets)/[^/]+\.xml$", re.I)


class TooSlow(ParseFailed):
    code = "too_slow"


class Deadline:
    """A time budget for reading one file, checked between steps of the work."""

    def __init__(self, name: str, seconds: float = SECONDS_PER_FILE) -> None:
        self.name = name
        self.seconds = seconds
        self.until = time.monotonic() + seconds

    @classmethod
    def for_file(cls, path: Path) -> Deadline:
        try:
            mb = path.stat().st_size / 1024**2
        except OSError:
            mb = 0.0
        return cls(path.name, round(SECONDS_PER_FILE + SECONDS_PER_MB * mb, 1))

    def check(self) -> None:
        if time.monotonic() > self.until:
            raise TooSlow(
                f"{self.name}：读取超过 {self.seconds:g} 秒，已停止（文件过大或结构异常）。",
                f"{self.name}: reading took more than {self.seconds:g} s and was stopped (too big or oddly built).",
            )


def _refuse(name: str, zh: str, en: str) -> ParseFailed:
    return ParseFailed(f"{name}：{zh}", f"{name}: {en}")


def column_number(letters: bytes) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ch - 64
    return n


def _larger(a: bytes, b: bytes) -> bytes:
    return b if (len(b), b) > (len(a), a) else a


def check_workbook(path: Path) -> None:
    """Refuse a zip workbook whose parts or cell positions exceed the limits (ParseFailed, with the reason)."""
    st = path.stat()
    verdict = _workbook_verdict(str(path), st.st_size, st.st_mtime_ns)
    if verdict is not None:
        raise _refuse(path.name, *verdict)


@lru_cache(maxsize=64)
def _workbook_verdict(path: str, size: int, mtime_ns: int) -> tuple[str, str] | None:
    """(zh, en) reason to refuse, or None. Cached per file version: reading a workbook asks more than once."""
    try:
        with zipfile.ZipFile(path) as z:
            infos = [i for i in z.infolist() if not i.is_dir()]
            declared = _declared(infos)
            if declared:
                return declared
            for info in infos:
                name = info.filename
                if _SHEET_PART.match(name):
                    verdict = _scan_sheet(z, info)
                elif name == "content.xml" and path.lower().endswith((".ods", ".fods")):
                    verdict = _scan_ods(z, info)
                elif name.lower().endswith("sharedstrings.xml"):
                    verdict = _shared_strings(z, info) or _read_through(z, info)
                elif name.lower().endswith((".xml", ".rels", ".vml")):
                    verdict = _read_through(z, info)
                else:
                    continue  # images and other parts no reader of ours opens
                if verdict:
                    return verdict
    except Exception as e:  # noqa: BLE001  (zlib, zipfile and OS errors of every kind: all mean a broken archive)
        return "文件已损坏，无法打开。", f"the file is corrupt and cannot be opened ({type(e).__name__})."
    return None


def _declared(infos: list[zipfile.ZipInfo]) -> tuple[str, str] | None:
    total = sum(i.file_size for i in infos)
    if total > MAX_TOTAL_BYTES:
        return "解压后体积异常巨大（疑似压缩炸弹），已拒绝读取。", "it would expand to an abnormal size (a zip bomb?); refused."
    for i in infos:
        ratio = i.file_size / max(1, i.compress_size)
        if i.file_size > MAX_ENTRY_BYTES or (i.file_size > RATIO_FROM_BYTES and ratio > MAX_ENTRY_RATIO):
            return (f"其中的 {i.filename} 解压后有 {i.file_size / 1024**2:.0f} MB（压缩比 {ratio:.0f}），疑似压缩炸弹，已拒绝读取。",
                    f"its part {i.filename} expands to {i.file_size / 1024**2:.0f} MB (ratio {ratio:.0f}), a zip bomb?; refused.")
    return None


def _too_big(info: zipfile.ZipInfo, seen: int) -> tuple[str, str]:
    return (f"其中的 {info.filename} 实际内容超过了声明的大小（{seen / 1024**2:.0f} MB 以上），已拒绝读取。",
            f"its part {info.filename} holds more than it declares ({seen / 1024**2:.0f} MB+); refused.")


def _read_through(z: zipfile.ZipFile, info: zipfile.ZipInfo) -> tuple[str, str] | None:
    """Inflate a part to check that it holds what its header says (zipfile checks the CRC at the end)."""
    seen = 0
    with z.open(info) as f:
        while chunk := f.read(CHUNK):
            seen += len(chunk)
            if seen > MAX_ENTRY_BYTES:
                return _too_big(info, seen)
    return None


_SST = re.compile(rb"<(?:\w+:)?sst\b[^>]*>")
_UNIQUE = re.compile(rb'\buniqueCount="(\d{1,20})"')  # count is how often strings are used: any size is fine
MIN_STRING_BYTES = 12  # <si><t/></si>: the least one entry of the shared-strings table takes


def _shared_strings(z: zipfile.ZipFile, info: zipfile.ZipInfo) -> tuple[str, str] | None:
    """A shared-strings table that claims more entries than its bytes can hold: readers allocate for the claim."""
    with z.open(info) as f:
        head = f.read(4096)
    m = _SST.search(head)
    claims = [int(c) for c in _UNIQUE.findall(m.group(0))] if m else []
    most = max(claims, default=0)
    if most > max(1000, 2 * info.file_size // MIN_STRING_BYTES):
        return (f"其中的共享字符串表声称有 {most:,} 项，但内容只有 {info.file_size:,} 字节：文件结构异常，已拒绝读取。",
                f"its shared-strings table claims {most:,} entries in {info.file_size:,} bytes: oddly built; refused.")
    return None


_ODS_ROW = re.compile(rb"<table:table-row\b([^>]*)>(.*?)</table:table-row>", re.S)
_ODS_CELL = re.compile(rb"<table:(?:covered-)?table-cell\b([^>]*?)(/?)>")
_ODS_ROWS_REP = re.compile(rb'number-rows-repeated="(\d{1,12})"')
_ODS_COLS_REP = re.compile(rb'number-columns-repeated="(\d{1,12})"')


def _scan_ods(z: zipfile.ZipFile, info: zipfile.ZipInfo) -> tuple[str, str] | None:
    """The cells an .ods would lay out once its repeated rows and cells are expanded: only cells that hold a value
    count (a sheet's trailing empty rows, repeated a million times, are how spreadsheets save and cost nothing)."""
    if info.file_size > MAX_ENTRY_BYTES:
        return _too_big(info, info.file_size)
    data = z.read(info)
    filled = written = 0
    for row in _ODS_ROW.finditer(data):
        rm = _ODS_ROWS_REP.search(row.group(1))
        rows = int(rm.group(1)) if rm else 1
        width = 0
        for cell in _ODS_CELL.finditer(row.group(2)):
            if b"value-type" in cell.group(1) or (not cell.group(2) and b"formula" in cell.group(1)):
                cm = _ODS_COLS_REP.search(cell.group(1))
                width += int(cm.group(1)) if cm else 1
                written += 1
        filled += rows * width
        if filled > MAX_CELLS:
            return (f"重复的行和单元格展开后超过 {MAX_CELLS // 1_000_000} 百万个有值的单元格（文件结构异常），已拒绝读取。",
                    f"its repeated rows and cells would expand to over {MAX_CELLS // 1_000_000} million filled cells; refused.")
    if filled > ODS_REPEAT_FROM and filled > ODS_REPEAT_RATIO * max(written, 1):
        return (f"文件里只写了 {written} 个有值的单元格，重复展开后却有 {filled:,} 个（文件结构异常），已拒绝读取。",
                f"it writes {written} filled cells that repeat into {filled:,}; refused.")
    return None


ODS_REPEAT_FROM = 1_000_000  # filled cells past which repetition must be plausible
ODS_REPEAT_RATIO = 50  # a real sheet repeats a few identical cells, never one row a million times


def _scan_sheet(z: zipfile.ZipFile, info: zipfile.ZipInfo) -> tuple[str, str] | None:
    """The furthest column and row any cell or row of a sheet part claims, read as a stream."""
    seen = cells = 0
    max_col, max_row = b"A", b"1"
    carry = b""
    with z.open(info) as f:
        while True:
            chunk = f.read(CHUNK)
            seen += len(chunk)
            if seen > MAX_ENTRY_BYTES:
                return _too_big(info, seen)
            data = carry + chunk
            cut = data.rfind(b"<") if chunk else len(data)
            data, carry = data[:cut], data[cut:]
            if len(carry) > 65536:  # no tag is that long: scan it rather than carry it
                data, carry = data + carry, b""
            cells += data.count(b"<c ") + data.count(b"<c>")
            for letters in set(_COLUMNS.findall(data)):
                max_col = _larger(max_col, letters)
            digits = _ROWS.findall(data)
            if digits:
                longest = len(max(digits, key=len))
                max_row = _larger(max_row, max(d for d in digits if len(d) == longest))
            if not chunk:
                break
    cols_n, rows_n = column_number(max_col), int(max_row)
    zh, en = f"单元格最远到 {max_col.decode()} 列、第 {rows_n} 行", f"cells reach column {max_col.decode()} and row {rows_n}"
    if cols_n > MAX_COLS or rows_n > MAX_ROWS:
        return (f"{zh}，超出了 Excel 的上限（XFD 列、第 1048576 行），文件结构异常，已拒绝读取。",
                f"{en}, beyond Excel's limits (column XFD, row 1048576); refused.")
    if cols_n > MAX_READ_COLS:
        return (f"{zh}，共 {cols_n} 列，超过了能读取的上限 {MAX_READ_COLS} 列（常见原因：远处有一个误输入的单元格），已拒绝读取。",
                f"{en}: {cols_n} columns, over the {MAX_READ_COLS} that can be read (often a stray cell far to the right); refused.")
    if cols_n * rows_n > SPARSE_FROM_CELLS and cols_n * rows_n > SPARSE_RATIO * max(cells, 1):
        return (f"{zh}，但只有约 {cells} 个单元格：整张表几乎是空的（常见原因：远处有一个误输入的单元格），展开会占用大量内存，已拒绝读取。",
                f"{en}, yet it holds about {cells} cells: the sheet is nearly empty (often a stray cell far away) and would take a lot of memory; refused.")
    if cols_n * rows_n > MAX_CELLS:
        return (f"{zh}，整张表会展开成 {rows_n} 行 × {cols_n} 列（超过 {MAX_CELLS // 1_000_000} 百万个单元格），已拒绝读取。",
                f"{en}: the sheet would span {rows_n} rows x {cols_n} columns (over {MAX_CELLS // 1_000_000} million cells); refused.")
    return None


def check_text(name: str, text: str, delimiter: str) -> None:
    """Refuse a CSV with a field longer than any sane cell (a parser's limit, and a wall of text in every answer)."""
    first = text[: text.find("\n") if "\n" in text else len(text)]
    if first.count(delimiter) >= MAX_READ_COLS:
        raise _refuse(name, f"表头有 {first.count(delimiter) + 1} 列，超过了能读取的上限 {MAX_READ_COLS} 列，已拒绝读取。",
                      f"the header has {first.count(delimiter) + 1} columns, over the {MAX_READ_COLS} that can be read; refused.")
    if len(text) <= MAX_FIELD_CHARS or max(map(len, io.StringIO(text)), default=0) <= MAX_FIELD_CHARS:
        return
    for line in io.StringIO(text):
        if len(line) > MAX_FIELD_CHARS:
            longest = max(map(len, line.split(delimiter)))
            if longest > MAX_FIELD_CHARS:
                raise _refuse(name, f"有一个单元格长达 {longest} 个字符（上限 {MAX_FIELD_CHARS}），文件结构异常，已拒绝读取。",
                              f"a field is {longest} characters long (limit {MAX_FIELD_CHARS}); refused.")
