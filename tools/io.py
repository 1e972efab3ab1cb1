"""Loading tables fast and safely (writing lives in tools/write.py)."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tools import guard
from tools.errors import ParseFailed

if TYPE_CHECKING:
    import pandas as pd

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGIC = b"PK\x03\x04"
ENCODINGS = ("utf-8-sig", "utf-8", "gb18030")
MAX_UNCOMPRESSED = 2 * 1024**3
MAX_RATIO = 200


@dataclass
class LoadedTable:
    """A table read from a workspace file, with how it was read."""

    df: pd.DataFrame
    path: str
    sheet: str | None = None
    encoding: str | None = None
    delimiter: str | None = None
    notes: list[str] = field(default_factory=list)
    skipped: int = 0  # rows with more fields than the header, left out (said in every answer that reads the table)
    skipped_lines: list[int] = field(default_factory=list)  # where they start in the file, when known

    @property
    def uncached_formulas(self) -> int:
        for n in self.notes:
            m = re.match(r"有 (\d+) 个公式单元格没有缓存", n)
            if m:
                return int(m.group(1))
        return 0


class TableCache:
    """Tables already loaded in this session; a file is re-read only when its size or mtime changes."""

    def __init__(self, limit: int = 8) -> None:
        self.limit = limit
        self.entries: dict[tuple[str, str | None, int | None], tuple[tuple[int, int], LoadedTable]] = {}
        self.hits = 0
        # what was worked out once from a loaded table (a profile's counts), kept while that version of the file is
        self.derived: dict[tuple[str, str | None, int | None, str], tuple[tuple[int, int], Any]] = {}

    def get(self, path: Path, sheet: str | None, header_row: int | None = None) -> LoadedTable:
        key, stamp = (str(path), sheet, header_row), _stamp(path)
        hit = self.entries.get(key)
        if hit and hit[0] == stamp:
            self.hits += 1
            return _copy(hit[1])
        t = read_table(path, sheet, header_row=header_row)
        if len(self.entries) >= self.limit:
            self.entries.pop(next(iter(self.entries)))
        self.entries[key] = (stamp, t)
        return _copy(t)


    def remember(self, path: Path, sheet: str | None, header_row: int | None, what: str, make: Callable[[], Any]) -> Any:
        """`make()` for this version of the file, worked out once: a later call while the file is unchanged reuses it."""
        key, stamp = (str(path), sheet, header_row, what), _stamp(path)
        hit = self.derived.get(key)
        if hit and hit[0] == stamp:
            return hit[1]
        value = make()
        if len(self.derived) >= 4 * self.limit:
            self.derived.pop(next(iter(self.derived)))
        self.derived[key] = (stamp, value)
        return value


def _stamp(path: Path) -> tuple[int, int]:
    """The version of a file, as the cache tells versions apart: its size and modification time."""
    st = path.stat()
    return st.st_size, st.st_mtime_ns


def _copy(t: LoadedTable) -> LoadedTable:
    return replace(t, df=t.df.copy(), notes=list(t.notes), skipped_lines=list(t.skipped_lines))


def load(path: Path, sheet: str | None, cache: TableCache | None, header_row: int | None = None) -> LoadedTable:
    return cache.get(path, sheet, header_row) if cache is not None else read_table(path, sheet, header_row=header_row)


def _fail(name: str, zh: str, en: str) -> ParseFailed:
    return ParseFailed(f"{name}：{zh}", f"{name}: {en}")


def _check_container(path: Path) -> str:
    """Classify a file by its first bytes; refuse what cannot be a readable spreadsheet."""
    name = path.name
    if path.is_dir():
        raise _fail(name, "这是一个文件夹，不是表格文件。", "this is a folder, not a spreadsheet.")
    size = path.stat().st_size
    if size == 0:
        raise _fail(name, "文件是空的（0 字节）。", "the file is empty (0 bytes).")
    with path.open("rb") as f:
        head = f.read(8)
    ext = path.suffix.lower()
    if head == OLE_MAGIC and ext in (".xlsx", ".xlsm"):
        raise _fail(
            name,
            "文件受密码保护（加密的 Excel），请先在 Excel 里取消密码再试。",
            "the workbook is password-protected; remove the password in Excel and try again.",
        )
    if ext in (".xlsx", ".xlsm", ".ods", ".xls") and head != OLE_MAGIC and not head.startswith(ZIP_MAGIC) and _is_html(path):
        raise _fail(name, "这其实是一个网页（HTML）文件，只是扩展名是表格的，里面的表格没有读取。请在 Excel 中打开它，另存为 .xlsx 后再试。",
                    "this is a web page (HTML) saved with a spreadsheet's extension; its tables were not read. Open it in Excel "
                    "and save it as .xlsx, then try again.")
    if ext in (".xlsx", ".xlsm", ".ods"):
        if not head.startswith(ZIP_MAGIC):
            if _looks_like_text(path):
                return "csv"
            raise _fail(name, "文件已损坏或不是 Excel 格式。", "the file is corrupt or not an Excel workbook.")
        guard.check_workbook(path)  # first: it reads the archive with every zip error caught
        _check_zip(path)
        return "excel"
    if ext == ".xls":
        if head != OLE_MAGIC:
            if _looks_like_text(path):
                return "csv"
            raise _fail(name, "文件已损坏或不是 xls 格式。", "the file is corrupt or not an .xls workbook.")
        return "excel"
    if ext in (".csv", ".tsv", ".txt"):
        return "csv"
    if ext == ".parquet" and head.startswith(b"PAR1"):
        return "parquet"  # a result wenqing kept for itself (.wenqing/results/, .wenqing/named/)
    raise _fail(name, "不是表格文件（支持 xlsx、xls、csv）。", "not a spreadsheet (xlsx, xls and csv are supported).")


_HTML = re.compile(rb"^(?:\xef\xbb\xbf|\xff\xfe|\xfe\xff)?\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body|table|meta)[\s>]",
                   re.I | re.S)


def _is_html(path: Path) -> bool:
    """Whether a file starts as a web page does (what "save as Excel" of many web systems writes)."""
    with path.open("rb") as f:
        head = f.read(4096)
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        head = head.decode("utf-16", "ignore").encode("utf-8")
    return bool(_HTML.match(head))


def _looks_like_text(path: Path) -> bool:
    with path.open("rb") as f:
        chunk = f.read(4096)
    if b"\x00" in chunk:
        return False
    for enc in ENCODINGS:
        try:
            chunk.decode(enc)
            return True
        except UnicodeDecodeError as e:
            if e.start > len(chunk) - 4:  # a character cut at the chunk's end
                return True
    return False


def _check_zip(path: Path) -> None:
    """Refuse zip bombs and broken archives before any parser sees them."""
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
    except (zipfile.BadZipFile, OSError) as e:
        raise _fail(path.name, "文件已损坏，无法打开。", "the file is corrupt and cannot be opened.") from e
    total = sum(i.file_size for i in infos)
    packed = max(1, sum(i.compress_size for i in infos))
    if total > MAX_UNCOMPRESSED or (total > 50 * 1024**2 and total / packed > MAX_RATIO):
        raise _fail(
            path.name,
            "解压后体积异常巨大（疑似压缩炸弹），已拒绝读取。",
            "it would expand to an abnormal size (a zip bomb?); refused.",
        )


_CELL = re.compile(rb"<c\b[^>]*?(?:/>|>(.*?)</c>)", re.S)


def uncached_formulas(path: Path, sheet: str | None) -> int:
    """Formula cells that carry no cached value (the workbook was written by a program, never saved by Excel)."""
    if path.suffix.lower() not in (".xlsx", ".xlsm"):
        return 0
    from defusedxml import ElementTree

    ns = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
          "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships"}
    try:
        with zipfile.ZipFile(path) as z:
            book = ElementTree.fromstring(z.read("xl/workbook.xml"))
            rels = ElementTree.fromstring(z.read("xl/_rels/workbook.xml.rels"))
            targets = {r.get("Id"): r.get("Target") for r in rels}
            sheets = book.findall("m:sheets/m:sheet", ns)
            chosen = next((s for s in sheets if s.get("name") == sheet), sheets[0] if sheets else None)
            if chosen is None:
                return 0
            target = targets.get(chosen.get(f"{{{ns['r']}}}id"), "")
            name = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
            data = z.read(name)
    except (KeyError, zipfile.BadZipFile, OSError, ValueError, ElementTree.ParseError):
        return 0
    if b"<f" not in data:
        return 0
    n = 0
    for m in _CELL.finditer(data):
        body = m.group(1) or b""
        if b"<f" in body and (b"<v>" not in body or b"<v></v>" in body or b"<v/>" in body):
            n += 1
    return n


def sheet_names(path: Path) -> list[str]:
    """Sheet names of a workbook; a CSV (or a Parquet result) has none."""
    if _check_container(path) in ("csv", "parquet"):
        return []
    try:
        return _boxed(path, _sheet_names_in, str(path))
    except ParseFailed:
        raise
    except Exception as e:  # calamine raises its own error types
        raise _parser_failed(path.name, e, "无法读取工作表列表", "cannot list its sheets") from e


def _parser_failed(name: str, e: Exception, zh: str, en: str) -> ParseFailed:
    """A parser's own error in words: a workbook claiming more cells than any reader lays out, or its kind."""
    m = re.search(r"Cell limit exceeded \((\d+) cells requested", str(e))
    if m:
        n = int(m.group(1))
        return _fail(name, f"工作表声称有 {n:,} 个单元格，远超能读取的上限（文件结构异常），已拒绝读取。",
                     f"a sheet claims {n:,} cells, far beyond what can be read (the file is oddly built); refused.")
    return _fail(name, f"{zh}（{type(e).__name__}）。", f"{en} ({type(e).__name__}).")


def _sheet_names_in(path: str) -> list[str]:
    from python_calamine import CalamineWorkbook

    return list(CalamineWorkbook.from_path(path).sheet_names)


def _boxed(path: Path, fn: Any, *args: Any) -> Any:
    """fn(*args) where a workbook's parse cannot take the session down: in the parse box (tools/sandbox.py), under a
    memory cap that grows with the workbook's uncompressed size and killed at its reading deadline."""
    from tools import sandbox

    return sandbox.call(path.name, fn, args, guard.Deadline.for_file(path).seconds, sandbox.memory_for(_unpacked_size(*_version(path))))


@lru_cache(maxsize=64)
def _unpacked_size(name: str, size: int, mtime_ns: int) -> int:
    """A workbook's size once inflated (an .xls: its own size); a read asks more than once, per file version."""
    try:
        with zipfile.ZipFile(name) as z:
            return max(size, sum(i.file_size for i in z.infolist()))
    except (zipfile.BadZipFile, OSError, ValueError):
        return size


FAST_FROM_BYTES = 3 * 1024**2


def _read_workbook(path: Path, sheet: str, nrows: int | None) -> pd.DataFrame:
    """A sheet of a workbook, parsed in the box."""
    return _boxed(path, _read_workbook_in, str(path), sheet, nrows)


def _read_workbook_in(name: str, sheet: str, nrows: int | None) -> pd.DataFrame:
    """Big workbooks through fastexcel (Arrow, several times faster); small ones, and anything fastexcel cannot
    read exactly, through pandas with the calamine engine. Runs in the box: a sheet too wide is refused there."""
    path = Path(name)
    width = 0
    if path.suffix.lower() in (".ods", ".xls"):  # formats the archive scan cannot see into: the width, before pandas
        from python_calamine import CalamineWorkbook

        width = CalamineWorkbook.from_path(name).get_sheet_by_name(sheet).width
    df = _parsed_sheet(path, sheet, nrows) if width <= guard.MAX_READ_COLS else None
    if df is None or len(df.columns) > guard.MAX_READ_COLS:
        width = max(width, 0 if df is None else len(df.columns))
        raise _fail(path.name, f"工作表“{sheet}”有 {width} 列，超过了能读取的上限 {guard.MAX_READ_COLS} 列"
                    "（常见原因：一个单元格被重复到了整行），已拒绝读取。",
                    f"sheet '{sheet}' has {width} columns, over the {guard.MAX_READ_COLS} that can be read "
                    "(often one cell repeated across a whole row); refused.")
    return df


def _parsed_sheet(path: Path, sheet: str, nrows: int | None) -> pd.DataFrame:
    import pandas as pd

    if path.stat().st_size >= FAST_FROM_BYTES:
        try:
            import fastexcel

            df = fastexcel.read_excel(str(path)).load_sheet(sheet, n_rows=nrows).to_pandas()
            if not any(str(c).startswith("__UNNAMED__") for c in df.columns):  # title rows: read exactly below
                for c in df.columns:
                    s = df[c]
                    if pd.api.types.is_float_dtype(s) and s.notna().all() and len(s) and bool((s % 1 == 0).all()):
                        df[c] = s.astype("int64")
                return df
        except Exception:  # noqa: BLE001  (any failure here means: read it the exact way)
            pass
    # dtype=object keeps text as written (00123 stays 00123); numbers and dates are then typed from the cells
    return pd.read_excel(path, sheet_name=sheet, engine="calamine", nrows=nrows, dtype=object).infer_objects()


HEAD_BYTES = 1024**2  # what encoding, delimiter and id-like columns are judged on; also the catalog's sample


@dataclass
class CsvShape:
    """How a CSV is written, judged on its first bytes."""

    encoding: str
    delimiter: str
    text_columns: dict[str, type]
    head: bytes
    complete: bool  # the head is the whole file
    text: str = ""  # the head decoded (a character cut at its end left out)


def _decode_head(raw: bytes, complete: bool) -> tuple[str, str] | None:
    """The head decoded, and the encoding that decodes it; a character cut at the end is not an error."""
    if raw.startswith(b"\xef\xbb\xbf"):
        candidates: tuple[str, ...] = ENCODINGS
    else:
        candidates = ENCODINGS[1:]
    for enc in candidates:
        try:
            return raw.decode(enc), enc
        except UnicodeDecodeError as e:
            if not complete and e.start >= len(raw) - 4:
                try:
                    return raw[: e.start].decode(enc), enc
                except UnicodeDecodeError:
                    continue
    return None


def _version(path: Path) -> tuple[str, int, int]:
    st = path.stat()
    return str(path), st.st_size, st.st_mtime_ns


def csv_shape(path: Path, head_bytes: int = HEAD_BYTES) -> CsvShape:
    """Detect encoding, delimiter and text-kept columns on the first bytes. Raises ParseFailed for binary or
    empty content and for text in no known encoding. A request asks several times: the answer is kept for the
    file's version (path, size, mtime)."""
    return _csv_shape(*_version(path), head_bytes)


@lru_cache(maxsize=4)
def _csv_shape(name: str, size: int, mtime_ns: int, head_bytes: int) -> CsvShape:
    path = Path(name)
    with path.open("rb") as f:
        raw = f.read(head_bytes)
    complete = len(raw) >= size
    if b"\x00" in raw[:65536]:
        raise _fail(path.name, "内容是二进制数据，不是文本表格（CSV）。", "the content is binary, not a text table (CSV).")
    decoded = _decode_head(raw, complete)
    if decoded is None:
        raise _unknown_encoding(path)
    text, enc = decoded
    if not text.strip() and (complete or not path.read_bytes().strip()):
        raise _fail(path.name, "文件没有任何内容。", "the file has no content.")
    delim = "\t" if path.suffix.lower() == ".tsv" else _sniff_delimiter(text)
    guard.check_text(path.name, text, delim)
    try:
        return CsvShape(enc, delim, _id_like_columns(text, delim), raw, complete, text)
    except csv.Error as e:
        raise _fail(path.name, "CSV 格式无法解析。", "the CSV cannot be parsed.") from e


def _unknown_encoding(path: Path) -> ParseFailed:
    return _fail(
        path.name,
        "无法识别文件编码（试过 UTF-8、GB18030），请另存为 UTF-8 再试。",
        "unknown text encoding (tried UTF-8 and GB18030); save it as UTF-8 and retry.",
    )


def _read_csv(path: Path, nrows: int | None, sample: bool = False) -> LoadedTable:
    """Read a CSV by path (the parser streams the file itself); `sample` reads only the first HEAD_BYTES."""
    import pandas as pd

    shape = csv_shape(path)
    source: Any = path
    if sample and not shape.complete:
        cut = shape.head.rfind(b"\n")
        source = io.BytesIO(shape.head[: cut + 1] if cut > 0 else shape.head)
    bad: list[list[str]] = []

    def keep_count(line: list[str]) -> None:
        bad.append(line)  # counted, then skipped

    def parse(enc: str) -> pd.DataFrame:
        if isinstance(source, io.BytesIO):
            source.seek(0)
        common: dict[str, Any] = {"sep": shape.delimiter, "nrows": nrows, "dtype": shape.text_columns or None,
                                  "encoding": enc}
        try:  # the fast C parser first; ragged rows send us to the counting parser below
            return pd.read_csv(source, on_bad_lines="error", engine="c", **common)
        except pd.errors.ParserError as e:
            if "EOF inside string" in str(e) and not isinstance(source, io.BytesIO):
                # the python parser would end the table at that quote without a word: the rest of the file is lost
                raise _unclosed_quote(path, enc, shape.delimiter, str(e)) from e
            bad.clear()
            if isinstance(source, io.BytesIO):
                source.seek(0)
            return pd.read_csv(source, engine="python", on_bad_lines=keep_count, **common)

    enc = shape.encoding
    try:
        try:
            df = parse(enc)
        except UnicodeDecodeError:
            if enc == "gb18030":
                raise
            enc = "gb18030"  # UTF-8 at the head, something else further down
            df = parse(enc)
    except UnicodeDecodeError as e:
        raise _unknown_encoding(path) from e
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError, csv.Error) as e:
        raise _fail(path.name, "CSV 格式无法解析。", "the CSV cannot be parsed.") from e
    lines: list[int] = []
    if bad and not isinstance(source, io.BytesIO):
        scan = _scan_records(path, enc, shape.delimiter, len(df.columns), nrows)
        if scan.unclosed is not None:  # a quote that never closes after a ragged row: the table would end there
            raise _unclosed_error(path, scan.unclosed)
        lines = scan.long if len(scan.long) == len(bad) else []
    return LoadedTable(df, path.name, None, enc, shape.delimiter, [], len(bad), lines)


@dataclass
class _Scan:
    long: list[int]  # first lines of records with more fields than the header
    unclosed: int | None  # first line of a record whose quote never closes


def _scan_records(path: Path, enc: str, delim: str, fields: int, nrows: int | None = None) -> _Scan:
    """Walk the file's records as the csv module reads them, to say where the rows a parser left out start."""
    long: list[int] = []
    line, records = 0, 0
    with path.open(encoding=enc, errors="replace", newline="") as f:
        reader = csv.reader(f, delimiter=delim, strict=True)
        try:
            next(reader, None)  # the header
            line = reader.line_num
            for rec in reader:
                if rec:
                    records += 1
                    if len(rec) > fields:
                        long.append(line + 1)
                line = reader.line_num
                if nrows is not None and records >= nrows + len(long):
                    break
        except csv.Error as e:
            if "unexpected end of data" in str(e) or "field larger" in str(e):
                return _Scan(long, line + 1)
            return _Scan([], None)  # quoting the csv module reads otherwise than pandas: no line numbers
    return _Scan(long, None)


def _unclosed_quote(path: Path, enc: str, delim: str, message: str) -> ParseFailed:
    scan = _scan_records(path, enc, delim, 1 << 30)
    if scan.unclosed is None:  # pandas counts records from 0 after the header
        m = re.search(r"starting at row (\d+)", message)
        return _unclosed_error(path, int(m.group(1)) + 2 if m else None)
    return _unclosed_error(path, scan.unclosed)


def _unclosed_error(path: Path, line: int | None) -> ParseFailed:
    at_zh, at_en = (f"第 {line} 行", f"line {line}") if line else ("某一行", "a line")
    return _fail(
        path.name,
        f"{at_zh}有一个没有闭合的引号（\"），从那里到文件末尾都会被读成一个单元格，所以没有读取这个文件，以免少算后面的行。"
        "请在该行补上或删去这个引号后再试。",
        f"{at_en} has a quote (\") that never closes: everything from there to the end of the file would read as one cell, "
        "so the file was not read (rather than silently losing the rows after it). Close or remove that quote and retry.",
    )


# what pandas.read_csv reads as missing by default (pandas._libs.parsers.STR_NA_VALUES)
NA_STRINGS = ["", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A",
              "NA", "NULL", "NaN", "None", "n/a", "nan", "null"]
_NA = frozenset(NA_STRINGS)
_INT = re.compile(r"[+-]?[0-9]{1,18}")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+)")  # digits counted apart: at most 15, so every reading rounds alike
_FIELD_LIMIT = 100_000


@dataclass
class PlainSample:
    """A CSV's first rows as pandas.read_csv would type them, read without pandas: each column's kind ("int",
    "float" or "text") and its values (None where pandas reads a missing value)."""

    columns: list[str]
    kinds: list[str]
    values: list[list[Any]]

    @property
    def rows(self) -> int:
        return len(self.values[0]) if self.values else 0


def csv_sample(path: Path, nrows: int) -> PlainSample | None:
    """The first `nrows` rows of a CSV typed as `read_table(path, nrows=nrows, sample=True)` types them, for files
    simply written: a header of distinct names, every row as long as the header, numbers written plainly. Anything
    else (title rows, ragged or blank rows, booleans, padded or exponent numbers, values pandas may read otherwise)
    gives None: read it with pandas. Raises ParseFailed as read_table does. Kept for the file's version, as
    csv_shape; the sample is shared, not to be changed."""
    return _csv_sample(*_version(path), nrows)


@lru_cache(maxsize=4)
def _csv_sample(name: str, size: int, mtime_ns: int, nrows: int) -> PlainSample | None:
    path = Path(name)
    shape = csv_shape(path)
    text = shape.text
    if not shape.complete:  # whole lines only, as the pandas sample reads (a newline byte is a newline in UTF-8 and GB18030)
        cut = text.rfind("\n")
        if cut <= 0:
            return None
        text = text[: cut + 1]
    try:
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=shape.delimiter, strict=True)
        header = next(reader, None)
        if not header or len(header) < 2:
            return None
        width = len(header)
        names = [h.strip() for h in header]
        if any(not n or n.startswith("Unnamed:") or len(n) > _FIELD_LIMIT for n in names) or len(set(names)) < width or len(set(header)) < width:
            return None
        rows: list[list[str]] = []
        ended = False
        for row in reader:
            if not row:
                ended = True  # a blank line: fine only as the last
                continue
            if ended or len(row) != width:
                return None
            rows.append(row)
            if len(rows) >= nrows:
                break
    except csv.Error:
        return None
    if not rows:
        return None
    kinds: list[str] = []
    values: list[list[Any]] = []
    for j, name in enumerate(header):
        col = [r[j] for r in rows]
        if name in shape.text_columns:
            kinds.append("text")
            values.append([None if v in _NA else v for v in col])
            continue
        typed = _plain_numbers(col)
        if typed is None:
            return None
        kinds.append(typed[0])
        values.append(typed[1])
    return PlainSample(names, kinds, values)


def _plain_numbers(col: list[str]) -> tuple[str, list[Any]] | None:
    """A column's kind and values as pandas' parser gives them; None when a value could be read more than one way.
    Each distinct value is read once."""
    kind = "int"
    read: dict[str, Any] = {}
    distinct = [v for v in dict.fromkeys(col) if v not in _NA]
    for v in distinct:
        if _INT.fullmatch(v):
            read[v] = int(v)
        elif _DECIMAL.fullmatch(v) and len(v) - 1 - (v[0] in "+-") <= 15:  # at most 15 digits
            read[v] = float(v)
            kind = "float"
        else:
            kind = "text"
            break
    if kind == "text":  # pandas keeps such a column as the text written, unless every value might be a number to it
        if any(v.strip().lower() in ("true", "false") for v in distinct) or all(_could_be_number(v) for v in distinct):
            return None
        return "text", [None if v in _NA else v for v in col]
    missing = any(v in _NA for v in col)
    if kind == "int" and not missing:
        return "int", [read[v] for v in col]
    return "float", [None if v in _NA else float(read[v]) for v in col]


def _could_be_number(v: str) -> bool:
    """Whether pandas' parser might read this text as a number (padded, signed oddly, with an exponent, inf...)."""
    try:
        float(v.replace("_", "x"))
    except ValueError:
        return False
    return True


def _first_lines(text: str, n: int) -> list[str]:
    """text.splitlines()[:n] without splitting all of a long text: the lines up to its (n+1)th newline are enough."""
    end = 0
    for _ in range(n + 1):
        end = text.find("\n", end) + 1
        if end == 0:
            return text.splitlines()[:n]
    return text[:end].splitlines()[:n]


def _sniff_delimiter(text: str) -> str:
    sample = "\n".join(_first_lines(text, 50))
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        return ","


def _id_like_columns(text: str, delimiter: str) -> dict[str, type]:
    """Columns whose values carry leading zeros (00123) stay text."""
    reader = csv.reader(io.StringIO("\n".join(_first_lines(text, 200))), delimiter=delimiter)
    rows = list(reader)
    if not rows:
        return {}
    header, body = rows[0], rows[1:]
    keep: dict[str, type] = {}
    for i, name in enumerate(header):
        vals = [r[i] for r in body if i < len(r) and r[i]]
        if any(len(v) > 1 and v.startswith("0") and v.isdigit() for v in vals):
            keep[name] = str
    return keep


def read_table(path: Path, sheet: str | None = None, nrows: int | None = None, header_row: int | None = None,
               sample: bool = False) -> LoadedTable:
    """Read one table (header_row: the user's word for where the header is, 1-based). `sample` reads only the
    start of the file (a CSV's first HEAD_BYTES, a workbook's first `nrows` rows, no formula count). Raises
    ParseFailed with a clear message for anything unreadable."""
    if header_row is not None:
        t = read_table(path, sheet, nrows)
        raw = _raw_rows(path, t)
        if not 1 <= header_row <= len(raw):
            raise ParseFailed(f"{path.name} 只有 {len(raw)} 行，没有第 {header_row} 行。", f"{path.name} has only {len(raw)} rows.")
        body = raw.iloc[header_row:].copy()
        body.columns = [str(v) if v == v and v is not None else f"列{j + 1}" for j, v in enumerate(raw.iloc[header_row - 1])]
        t.df = body.reset_index(drop=True).infer_objects()
        t.notes = [n for n in t.notes if not n.startswith("表头在")] + [f"按您说的，表头在第 {header_row} 行"]
        t.df = _fix_header(t, detect=False)
        return t

    kind = _check_container(path)
    notes: list[str] = []
    if kind == "parquet":  # wenqing's own copy of a result: read back with its types, as it was written
        import pandas as pd

        try:
            df = pd.read_parquet(path)
        except Exception as e:  # noqa: BLE001  (pyarrow raises its own error types)
            raise _parser_failed(path.name, e, "文件已损坏或无法解析", "corrupt or unreadable") from e
        return LoadedTable(df.head(nrows) if nrows is not None else df, path.name)
    if kind == "csv":
        table = _read_csv(path, nrows, sample)
    else:
        try:
            names = sheet_names(path)
            if not names:
                raise _fail(path.name, "工作簿里没有工作表。", "the workbook has no sheets.")
            use = sheet if sheet is not None else names[0]
            if use not in names:
                raise ParseFailed(
                    f"{path.name} 里没有名为“{use}”的工作表，现有：{'、'.join(names)}。",
                    f"{path.name} has no sheet named '{use}'; it has: {', '.join(names)}.",
                )
            df = _read_workbook(path, use, nrows)
            formulas = 0 if sample else uncached_formulas(path, use)
            if formulas:
                notes.append(f"有 {formulas} 个公式单元格没有缓存的计算结果")
        except ParseFailed:
            raise
        except Exception as e:  # calamine and zip errors of every kind
            raise _parser_failed(path.name, e, "文件已损坏或无法解析", "corrupt or unreadable") from e
        if len(df.columns) == 0:
            raise ParseFailed(f"{path.name} 的工作表“{use}”是空的，没有任何数据。", f"Sheet '{use}' of {path.name} is empty.")
        table = LoadedTable(df, path.name, use, None, None, notes)
    table.df = _fix_header(table)
    return table


def _raw_rows(path: Path, t: LoadedTable) -> pd.DataFrame:
    """Every row as read, the header included, for a header the user placed."""
    import pandas as pd

    if t.sheet is None:
        return pd.read_csv(path, sep=t.delimiter or ",", header=None, dtype=str, on_bad_lines="skip", engine="python",
                           encoding=t.encoding)
    return _boxed(path, _raw_sheet_in, str(path), t.sheet)


def _raw_sheet_in(name: str, sheet: str) -> pd.DataFrame:
    import pandas as pd

    return pd.read_excel(name, sheet_name=sheet, engine="calamine", header=None)


def _fix_header(t: LoadedTable, detect: bool = True) -> pd.DataFrame:
    """Find the real header when title rows sit above it, and make column names unique and readable."""
    df = t.df
    cols = [str(c) for c in df.columns]
    unnamed = sum(c.startswith("Unnamed:") for c in cols)
    if detect and cols and unnamed >= max(1, len(cols) // 2) and len(df) > 1:
        for i in range(min(20, len(df))):
            row = df.iloc[i]
            filled = row.notna().sum()
            if filled >= max(2, int(len(cols) * 0.6)) and all(isinstance(v, str) for v in row.dropna()):
                new = df.iloc[i + 1 :].copy()
                new.columns = [str(v) if v == v else f"列{j + 1}" for j, v in enumerate(row)]
                nxt = df.iloc[i + 1] if i + 1 < len(df) else None
                unsure = nxt is not None and nxt.notna().sum() >= filled and all(isinstance(v, str) for v in nxt.dropna())
                t.notes.append(f"表头在第 {i + 2} 行（上方是标题行）" + (f"；第 {i + 3} 行也像表头，如果不对请告诉我“表头在第几行”" if unsure else ""))
                df = new.reset_index(drop=True)
                df = df.infer_objects()
                break
    seen: dict[str, int] = {}
    out: list[str] = []
    for j, c in enumerate(str(c) for c in df.columns):
        name = c.strip()
        if not name or name.startswith("Unnamed:"):
            name = f"列{j + 1}"
        if name in seen:
            seen[name] += 1
            t.notes.append(f"重复的列名“{name}”改为“{name}_{seen[name]}”")
            name = f"{name}_{seen[name]}"
        else:
            seen[name] = 1
        out.append(name)
    df.columns = out
    return df


def as_dates(s: Any) -> Any:
    """A column as dates, unreadable values as NaT (see tools.values: 2025年3月4日 and 2025/3/4 read too)."""
    from tools.values import as_dates as read_dates

    return read_dates(s)
