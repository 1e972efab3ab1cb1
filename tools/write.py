"""Writing outputs: only inside the workspace's outputs/, atomically, never over an existing file, with every
cell that a spreadsheet program would run as a formula made inert."""

from __future__ import annotations

import contextlib
import errno
import itertools
import math
import os
import re
import secrets
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from tools.errors import WriteFailed
from tools.workspace import OUTPUTS, STATE_DIR, TMP_PREFIX, Workspace

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

try:
    import fcntl
except ImportError:  # no advisory locks here: the sweep then goes by the owner's process id alone
    fcntl = None  # type: ignore[assignment]

XLSX_MAX_ROWS = 1_048_576
XLSX_MAX_CHARS = 32_767
INFO_SHEET = "说明"
INFO_SHEET_EN = "About"  # the same sheet in an English session
INFO_SHEETS = frozenset({INFO_SHEET, INFO_SHEET_EN})

# A cell is a formula to a spreadsheet program when, after any leading blanks, it starts with one of = + - @
# (or their full-width forms); a leading tab or carriage return alone is enough for some programs. The same
# pattern serves Python's re and RE2 (Arrow's compute functions).
# Blanks include the invisible ones a program drops before reading a formula: no-break and narrow spaces, zero-width
# characters and the byte-order mark.
_BLANKS = "\t\n\r\x0b\x0c \u00a0\u1680\u2000-\u200d\u2028\u2029\u202f\u205f\u2060\u3000\ufeff"
_TRIGGER = f"^(?:[\t\r]|[{_BLANKS}]*[=+\\-@\uff1d\uff0b\uff0d\uff20])"
_TRIGGER_RE = re.compile(_TRIGGER)
_FIRST = ("\t\n\r\x0b\x0c \u00a0\u1680" + "".join(map(chr, range(0x2000, 0x200e))) + "\u2028\u2029\u202f\u205f\u2060\u3000\ufeff"
          "=+-@\uff1d\uff0b\uff0d\uff20")  # every character the pattern can start with
# characters an xlsx (XML 1.0) cannot hold: C0 controls other than tab, LF and CR; U+FFFE/U+FFFF; lone surrogates
_ILLEGAL_XML = "[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]"
_ILLEGAL = _ILLEGAL_XML[:-1] + "\ud800-\udfff]"
_ILLEGAL_RE = re.compile(_ILLEGAL)
_NAME_BAD = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]')
_SHEET_BAD = re.compile(r"[\\/*?:\[\]\x00-\x1f]")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_attempts = itertools.count(1)


@dataclass(frozen=True)
class Written:
    """A file written to outputs/, and what was done to its cells to make it safe to open."""

    path: Path
    rows: int
    protected: int = 0  # headers, sheet names and cells that would have run as formulas
    cleaned: int = 0  # cells from which characters an xlsx cannot hold were removed
    truncated: int = 0  # cells cut to the xlsx limit of 32,767 characters


@dataclass(frozen=True)
class About:
    """What a workbook's 说明 sheet tells: the request, its source and its steps."""

    goal: str = ""  # the request as understood, over all its turns
    said: str = ""  # the user's latest words for it
    source: str | None = None
    sheet: str | None = None
    steps: tuple[str, ...] = ()
    lang: str = "zh"


# ---------------------------------------------------------------- formula guard


def inert(value: Any) -> tuple[Any, bool]:
    """A string cell that a spreadsheet would run as a formula, made inert by a leading apostrophe."""
    if isinstance(value, str) and is_formula_like(value):
        return "'" + value, True
    return value, False


def is_formula_like(text: str) -> bool:
    return bool(_TRIGGER_RE.match(text))


def _guard_arrow(arr: pa.Array | pa.ChunkedArray) -> tuple[Any, int]:
    """The formula guard over a whole Arrow string column at once; the pattern runs only where the first
    character could start a formula."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    maybe = pc.is_in(pc.utf8_slice_codeunits(arr, 0, 1), value_set=pa.array(list(_FIRST)))
    at = pc.indices_nonzero(maybe)
    if len(at) == 0:
        return arr, 0
    at = pc.filter(at, pc.match_substring_regex(pc.take(arr, at), _TRIGGER))
    if len(at) == 0:
        return arr, 0
    hit = np.zeros(len(arr), dtype=bool)
    hit[at.to_numpy()] = True
    quoted = pc.binary_join_element_wise(pa.scalar("'", arr.type), arr, pa.scalar("", arr.type))
    return pc.if_else(pa.array(hit), quoted, arr), len(at)


def _count_formula_like(s: pd.Series) -> int:
    """How many cells of a text column are formula-like (vectorised)."""
    return int(s.str.match(_TRIGGER, na=False).sum())


# ---------------------------------------------------------------- safe, atomic publication


def safe_stem(stem: str) -> str:
    """A file name stem that stays one plain, visible name in outputs/ (at most 120 bytes)."""
    name = _NAME_BAD.sub("_", _ILLEGAL_RE.sub("_", stem)).strip().lstrip(".~$ ") or "output"
    while len(name.encode("utf-8")) > 120:
        name = name[:-1]
    return name


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def _candidates(stem: str, ext: str) -> Iterator[str]:
    safe = safe_stem(stem)
    yield f"{safe}.{ext}"
    for n in range(2, 100_000):
        yield f"{safe}_{n}.{ext}"


def _taken(dir_fd: int, name: str) -> bool:
    for n in (name, f"~${name}"):  # ~$name: Excel has a file of that name open
        try:
            os.stat(n, dir_fd=dir_fd, follow_symlinks=False)
            return True
        except FileNotFoundError:
            continue
    return False


def unique_output(ws: Workspace, stem: str, ext: str) -> Path:
    """The first name in outputs/ that is free now (a suffix is added when the name is taken)."""
    fd, real = ws.open_dir(OUTPUTS)
    try:
        return real / next(n for n in _candidates(stem, ext) if not _taken(fd, n))
    finally:
        os.close(fd)


def _create_temp(dir_fd: int, ext: str) -> tuple[str, int]:
    """A new temporary file, created exclusively without following links, locked while this process writes it."""
    for _ in range(100):
        name = f"{TMP_PREFIX}{os.getpid()}-{next(_attempts)}-{secrets.token_hex(4)}.{ext}"
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o666, dir_fd=dir_fd)
        except FileExistsError:
            continue
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)  # tells another session's start-up sweep that this file is in use
        if os.fstat(fd).st_nlink == 0:  # swept away in the instant between creating and locking it
            os.close(fd)
            continue
        return name, fd
    raise WriteFailed("无法创建临时文件，结果没有保存。", "Cannot create a temporary file; nothing was saved.")


def _link_new(dir_fd: int, tmp: str, name: str, fd: int) -> bool:
    """Give the written file its final name unless that name exists; never replaces and never follows a link."""
    try:
        os.link(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
    except FileExistsError:
        return False
    except OSError:  # a file system without hard links: rename, after checking the name is still free
        if _taken(dir_fd, name):
            return False
        os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        return True
    mine, there = os.fstat(fd), os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    if (mine.st_dev, mine.st_ino) != (there.st_dev, there.st_ino):  # the temporary name was swapped meanwhile
        os.unlink(name, dir_fd=dir_fd)
        raise WriteFailed("导出过程中临时文件被替换，已放弃这次写入。", "The temporary file was replaced during the export; nothing was saved.")
    return True


def publish(ws: Workspace, stem: str, ext: str, fill: Callable[[IO[bytes]], None]) -> Path:
    """Write a new file in outputs/: `fill` writes a private temporary file, which then gets the first free name.

    An interrupted write leaves no partial file under a real name, and a name taken meanwhile by another
    session moves this file to the next free name rather than losing it."""
    dir_fd, real = ws.open_dir(OUTPUTS)
    try:
        tmp, fd = _create_temp(dir_fd, ext)
        f = os.fdopen(fd, "wb")
        try:
            fill(f)
            f.flush()
            os.fsync(f.fileno())
            for name in _candidates(stem, ext):
                if not _taken(dir_fd, name) and _link_new(dir_fd, tmp, name, f.fileno()):
                    break
            else:
                raise WriteFailed(f"outputs/ 里 {stem} 开头的文件太多，没有保存。", f"Too many files named {stem} in outputs/.")
            os.fsync(dir_fd)
            return real / name
        except PermissionError as e:
            raise WriteFailed(
                f"无法写入 outputs/{stem}（文件可能在 Excel 中打开，或没有写权限）。",
                f"Cannot write outputs/{stem} (open in Excel, or no write permission?).",
            ) from e
        except OSError as e:
            zh, en = _why(e)
            raise WriteFailed(f"写入 outputs/{stem} 失败（{zh}），没有留下不完整的文件。",
                              f"Writing outputs/{stem} failed ({en}); no partial file was left.") from e
        finally:
            with contextlib.suppress(OSError):  # after a link, the file lives on under its final name
                os.unlink(tmp, dir_fd=dir_fd)
            f.close()  # releases the lock only after the temporary name is gone
    finally:
        os.close(dir_fd)


# ---------------------------------------------------------------- wenqing's own files: one path for all of them


class LinkRefused(OSError):
    """A name of wenqing's own files that is a link (symbolic, or a hard link to a file elsewhere): never followed."""


def _enter(fd: int, parts: tuple[str, ...]) -> int:
    """Descend from the open folder `fd` through `parts` (each created if absent), never following a link; `fd` is
    closed and the last folder's descriptor returned."""
    try:
        for part in parts:
            try:
                os.mkdir(part, dir_fd=fd)
            except FileExistsError:
                pass
            sub = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=fd)
            os.close(fd)
            fd = sub
    except BaseException:
        os.close(fd)
        raise
    return fd


def own_folder(ws: Workspace, folder: str = "") -> tuple[int, Path]:
    """An open descriptor of .wenqing/<folder> and its real path: refused when any folder on the way is a link."""
    parts = tuple(p for p in folder.split("/") if p)
    state_fd, real = ws.open_dir(STATE_DIR)
    try:
        fd = _enter(state_fd, parts)
    except OSError as e:
        shown = "/".join((STATE_DIR, *parts))
        raise WriteFailed(f"无法写入 {shown}/（{type(e).__name__}）。", f"Cannot write {shown}/ ({type(e).__name__}).") from e
    return fd, real.joinpath(*parts)


def folder_fd(path: Path) -> int:
    """An open descriptor of wenqing's own folder outside any workspace (the user's cache): its parents are made as
    usual, the folder itself is never a link."""
    path = Path(os.path.realpath(path.parent)) / path.name
    path.parent.mkdir(parents=True, exist_ok=True)
    return _enter(os.open(path.parent, os.O_RDONLY | _DIRECTORY | _CLOEXEC), (path.name,))


def check_plain(st: os.stat_result, name: str) -> None:
    """Refuse anything but a regular file that has no other name (a hard link could be a file outside, or a source)."""
    import stat

    if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
        raise LinkRefused(f"{name} is a link or not a plain file")


def check_name(dir_fd: int, name: str) -> None:
    """A name of wenqing's own files that is absent or a plain file; a link there is refused."""
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return
    check_plain(st, name)


def read_in(dir_fd: int, name: str, limit: int = 256 << 20) -> bytes:
    """The bytes of wenqing's own file `name` in an open folder; a link, a hard link or something else is refused."""
    try:
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | os.O_NONBLOCK, dir_fd=dir_fd)
    except OSError as e:
        if e.errno == errno.ELOOP:  # a symbolic link at the name
            raise LinkRefused(f"{name} is a link") from e
        raise
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        check_plain(st, name)
        if st.st_size > limit:
            raise OSError(errno.EFBIG, f"{name} is larger than {limit} bytes")
        return f.read(limit + 1)[:limit]


def replace_in(dir_fd: int, name: str, fill: Callable[[IO[bytes]], object]) -> None:
    """Replace wenqing's own file `name` in an open folder: `fill` writes a temporary file created there exclusively
    without following links, which then takes the name. A link at the name is replaced, its target never written;
    a failure leaves neither a partial file nor the temporary one."""
    tmp, fd = _create_temp(dir_fd, "part")
    try:
        with os.fdopen(fd, "wb") as f:
            fill(f)
            f.flush()
            os.fsync(f.fileno())
            check_plain(os.fstat(f.fileno()), tmp)  # nobody gave the temporary file another name meanwhile
            os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=dir_fd)
        raise


# why a write failed, said in the user's language
_WHY = {errno.ENOSPC: ("磁盘空间不足", "the disk is full"), errno.EDQUOT: ("磁盘配额已用完", "the disk quota is used up"),
        errno.EROFS: ("磁盘是只读的", "the disk is read-only"), errno.EIO: ("磁盘读写出错", "a disk input/output error"),
        errno.EFBIG: ("文件太大", "the file is too large")}


def _why(e: OSError) -> tuple[str, str]:
    return _WHY.get(e.errno or 0, (f"系统错误 {e.errno or type(e).__name__}", e.strerror or type(e).__name__))


def save_state(ws: Workspace, folder: str, name: str, data: bytes) -> Path:
    """Replace wenqing's own file .wenqing/<folder>/<name> atomically; neither the folders nor the file are
    followed when they are links (a link at the name is replaced, its target never written)."""
    sub, real = own_folder(ws, folder)
    try:
        replace_in(sub, name, lambda f: f.write(data))
    finally:
        os.close(sub)
    return real / name


def load_state(ws: Workspace, folder: str, name: str, limit: int = 256 << 20) -> bytes:
    """The bytes of wenqing's own file .wenqing/<folder>/<name>; raises OSError when it is absent, a link, a hard
    link or too big."""
    sub, _ = own_folder(ws, folder)
    try:
        return read_in(sub, name, limit)
    finally:
        os.close(sub)


def save_file(path: Path, data: bytes) -> None:
    """Replace wenqing's own file outside any workspace (the user's cache) the same way."""
    fd = folder_fd(path.parent)
    try:
        replace_in(fd, path.name, lambda f: f.write(data))
    finally:
        os.close(fd)


def load_file(path: Path, limit: int = 256 << 20) -> bytes:
    """The bytes of wenqing's own file outside any workspace; OSError when absent, a link or a hard link (its
    folder a link included)."""
    folder = Path(os.path.realpath(path.parent.parent)) / path.parent.name
    top = os.open(folder.parent, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    try:
        fd = os.open(folder.name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=top)
    finally:
        os.close(top)
    try:
        return read_in(fd, path.name, limit)
    finally:
        os.close(fd)


def append_state(ws: Workspace, name: str, text: str) -> Path:
    """Append to wenqing's own file .wenqing/<name>, never through a link or into a file with another name."""
    state_fd, real = ws.open_dir(STATE_DIR)
    try:
        fd = os.open(name, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW | _CLOEXEC, 0o666, dir_fd=state_fd)
    finally:
        os.close(state_fd)
    with os.fdopen(fd, "a", encoding="utf-8") as f:
        check_plain(os.fstat(fd), name)
        f.write(text)
    return real / name


# ---------------------------------------------------------------- CSV


def write_csv_file(ws: Workspace, df: pd.DataFrame, stem: str) -> Written:
    """CSV in UTF-8 with BOM (so Excel shows Chinese), every text value quoted, formula-like cells made inert."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    protected = 0
    names: list[str] = []
    arrays: list[Any] = []
    for i, col in enumerate(df.columns):
        name, hit = inert(_text(str(col)))
        protected += hit
        arr = _arrow_column(df.iloc[:, i])
        if pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type):
            arr, n = _guard_arrow(arr)
            protected += n
        names.append(name)
        arrays.append(arr)
    table = pa.Table.from_arrays(arrays, names=names) if arrays else pa.table({})

    def fill(f: IO[bytes]) -> None:
        f.write(b"\xef\xbb\xbf")
        if names:
            pacsv.write_csv(table, f, pacsv.WriteOptions(include_header=True, batch_size=16_384))

    return Written(publish(ws, stem, "csv", fill), len(df), protected)


def csv_bytes(df: pd.DataFrame) -> bytes:
    """A table as UTF-8 CSV with a BOM, written by Arrow (a table wenqing keeps for itself; its own reader reads it)."""
    import io

    import pyarrow as pa
    import pyarrow.csv as pacsv

    if len(df.columns) == 0:
        return b"\xef\xbb\xbf"
    table = pa.Table.from_arrays([_arrow_column(df.iloc[:, i]) for i in range(len(df.columns))],
                                 names=[_text(str(c)) or "" for c in df.columns])
    out = io.BytesIO()
    out.write(b"\xef\xbb\xbf")
    pacsv.write_csv(table, out, pacsv.WriteOptions(include_header=True, batch_size=16_384))
    return out.getvalue()


def kept_bytes(df: pd.DataFrame) -> tuple[bytes, str]:
    """A table wenqing keeps for itself (.wenqing/results/, .wenqing/named/): Parquet, compact and read back with its
    types (numbers, dates, text); a table Parquet cannot hold (duplicate headers, a column of mixed kinds) as CSV.
    Returns (the bytes, the extension)."""
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    names = [str(c) for c in df.columns]
    if len(set(names)) == len(names) and names:
        try:
            table = pa.Table.from_pandas(df.set_axis(names, axis=1), preserve_index=False)
            out = io.BytesIO()
            pq.write_table(table, out, compression="snappy")
            return out.getvalue(), "parquet"
        except (pa.ArrowException, TypeError, ValueError):
            pass
    return csv_bytes(df), "csv"


def _arrow_column(s: pd.Series) -> Any:
    """One column as Arrow, as a spreadsheet user reads it: dates without midnight times, True/False, text as is."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(s.dtype, pd.DatetimeTZDtype):
        s = s.dt.tz_localize(None)
    if pd.api.types.is_datetime64_any_dtype(s):
        valid = s.dropna()
        if (valid == valid.dt.normalize()).all():
            return pc.cast(pa.array(s, from_pandas=True), pa.date32())
        whole = (valid.dt.microsecond == 0).all() and (valid.dt.nanosecond == 0).all()
        return pa.array(s, from_pandas=True).cast(pa.timestamp("s" if whole else "us"), safe=False)
    if pd.api.types.is_bool_dtype(s):
        arr = pa.array(s, type=pa.bool_(), from_pandas=True)
        return pc.if_else(arr, "True", "False")
    try:
        arr = pa.array(s, from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OverflowError, UnicodeEncodeError):
        arr = None  # mixed kinds, or text with lone surrogates: written cell by cell below
    if arr is not None and pa.types.is_dictionary(arr.type):  # categories: write their values
        arr = arr.dictionary_decode()
    if arr is not None and pa.types.is_floating(arr.type) and pc.any(pc.is_inf(arr)).as_py():
        arr = pc.cast(arr, pa.string())  # -inf is text to a spreadsheet, and text starting with - is guarded
    elif arr is not None and pa.types.is_floating(arr.type) and arr.null_count < len(arr) \
            and pc.all(pc.equal(pc.floor(arr), arr)).as_py() and (pc.max(pc.abs(arr)).as_py() or 0) < 2**53:
        arr = pc.cast(arr, pa.int64())  # 18106538337.0 (a column with blanks): written whole, never as 1.8106538337e+10
    if arr is not None and (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)
                            or pa.types.is_integer(arr.type) or pa.types.is_floating(arr.type)):
        return arr
    return pa.array([_text(v) for v in s.tolist()], type=pa.large_string())


def _text(v: Any) -> str | None:
    """A cell of a mixed column as text, the way pandas would have written it."""
    import pandas as pd

    if v is None or v is pd.NaT or (isinstance(v, float) and v != v):
        return None
    if isinstance(v, str):
        return v.encode("utf-8", "replace").decode("utf-8") if _has_surrogate(v) else v
    if isinstance(v, datetime):
        return v.strftime("%Y-%m-%d") if (v.hour, v.minute, v.second, v.microsecond) == (0, 0, 0, 0) else v.isoformat(sep=" ")
    if isinstance(v, date):
        return v.isoformat()
    return str(v)


# ---------------------------------------------------------------- xlsx


def write_xlsx_file(ws: Workspace, df: pd.DataFrame, stem: str, sheet: str = "Sheet1", about: About | None = None) -> Written:
    """An xlsx whose cells hold values, never formulas, with a readable header, widths and number formats."""
    return write_xlsx_sheets(ws, [(sheet, df)], stem, about)


def write_xlsx_sheets(ws: Workspace, sheets: list[tuple[str, pd.DataFrame]], stem: str, about: About | None = None) -> Written:
    """One xlsx with a sheet per table (and a 说明 sheet when `about` is given)."""
    for _, df in sheets:
        if len(df) + 1 > XLSX_MAX_ROWS:
            raise WriteFailed(
                f"共有 {len(df)} 行，超过 xlsx 单表上限 1,048,576 行，请改为导出 CSV。",
                f"{len(df)} rows exceed the xlsx sheet limit of 1,048,576; export CSV instead.",
            )
    counts = {"protected": 0, "cleaned": 0, "truncated": 0}

    def fill(f: IO[bytes]) -> None:
        import xlsxwriter

        wb = xlsxwriter.Workbook(f, {"constant_memory": True, "strings_to_formulas": False, "strings_to_urls": False})
        styles = _Styles(wb)
        used: set[str] = set()
        for title, df in sheets:
            name, hit = _sheet_name(title, used)
            counts["protected"] += hit
            for k, v in _fill_sheet(wb.add_worksheet(name), df, styles).items():
                counts[k] += v
        if about is not None:
            info, _ = _sheet_name(INFO_SHEET_EN if about.lang == "en" else INFO_SHEET, used)
            _fill_about(wb.add_worksheet(info), about, sheets, counts, styles)
        wb.close()

    path = publish(ws, stem, "xlsx", fill)
    return Written(path, sum(len(df) for _, df in sheets), counts["protected"], counts["cleaned"], counts["truncated"])


def _sheet_name(title: str, used: set[str]) -> tuple[str, bool]:
    """A legal, unique sheet name; one that starts like a formula gets a leading underscore."""
    name = _ILLEGAL_RE.sub("", _SHEET_BAD.sub("_", str(title))).strip("'") or "Sheet1"
    hit = is_formula_like(name)
    if hit:
        name = "_" + name
    name = name[:31]
    n = 2
    while name.casefold() in used:
        suffix = f"_{n}"
        name = name[: 31 - len(suffix)] + suffix
        n += 1
    used.add(name.casefold())
    return name, hit


class _Styles:
    """Formats are created once per workbook."""

    def __init__(self, wb: Any) -> None:
        self.wb = wb
        self.cache: dict[str, Any] = {}
        self.header = wb.add_format({"bold": True, "bg_color": "#DDEBF7", "bottom": 1, "text_wrap": False,
                                     "valign": "vcenter"})

    def num(self, pattern: str | None) -> Any:
        if pattern is None:
            return None
        if pattern not in self.cache:
            self.cache[pattern] = self.wb.add_format({"num_format": pattern})
        return self.cache[pattern]


# a column of fractions whose name says it is a share is shown as a percentage (English words as whole words)
PERCENT_WORDS = re.compile(r"率|占比|比例|百分比|%|％|(?<![a-z])(?:pct|percent|percentage|ratio|share|rate)(?![a-z])")
# whole numbers read as codes, not quantities: no thousands separator
PLAIN_INT_WORDS = re.compile(r"编号|编码|代码|工号|号码|电话|手机|邮编|年份|年度|号$|年$|(?<![a-z])(?:id|code|year|phone|zip|no)$")


@dataclass
class _Column:
    values: list[Any]
    write: str  # number | string | boolean | mixed
    fmt: str | None = None
    width: float = 8.0


def _display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _text_width(s: pd.Series) -> int:
    """Display width of the widest cells of a text column (CJK counted double), from its longest values."""
    lengths = s.str.len()
    if lengths.notna().sum() == 0:
        return 0
    longest = s[lengths.nlargest(20).index]
    return max((_display_width(str(v)) for v in longest if isinstance(v, str)), default=0)


def _decimals(values: pd.Series) -> int:
    sample = values.dropna()
    sample = sample.iloc[:: max(1, len(sample) // 2000)]
    for k in range(7):
        if ((sample * 10**k).round(6) % 1 == 0).all():
            return k
    return 6


def _number_format(name: str, s: pd.Series) -> str:
    import pandas as pd

    low = name.casefold()
    valid = s.dropna()
    if pd.api.types.is_integer_dtype(s) or (len(valid) and bool((valid % 1 == 0).all())):
        return "0" if PLAIN_INT_WORDS.search(low) else "#,##0"
    if PERCENT_WORDS.search(low) and len(valid) and bool((valid.abs() <= 1).all()):
        return "0.00%"
    k = _decimals(valid)
    return "#,##0" + ("." + "0" * k if k else "")


def _prepare(df: pd.DataFrame) -> tuple[list[str], list[_Column], dict[str, int]]:
    """Each column as plain Python values with how to write them; text made safe and counted on the way."""
    import numpy as np
    import pandas as pd

    counts = {"protected": 0, "cleaned": 0, "truncated": 0}
    headers: list[str] = []
    cols: list[_Column] = []
    for i, col in enumerate(df.columns):
        header = _clean_text(str(col), counts)
        counts["protected"] += is_formula_like(header)
        headers.append(header)
        s = df.iloc[:, i]
        if isinstance(s.dtype, pd.DatetimeTZDtype):
            s = s.dt.tz_localize(None)
        if s.dtype == object:
            s = _typed_object(s)
        s = _iso_dates(s)
        head_w = _display_width(header)
        if pd.api.types.is_bool_dtype(s):
            cols.append(_Column(_nullable(s), "boolean", None, max(head_w, 5)))
        elif pd.api.types.is_datetime64_any_dtype(s):
            valid = s.dropna()
            in_range = valid.empty or (valid.min() >= pd.Timestamp("1900-03-01") and valid.max() <= pd.Timestamp("9999-12-31"))
            if not in_range:
                cols.append(_Column(_nullable(s.map(_text)), "string", None, max(head_w, 19)))
                continue
            dated = bool((valid == valid.dt.normalize()).all())
            serial = (s - pd.Timestamp("1899-12-30")) / pd.Timedelta(days=1)
            fmt = "yyyy-mm-dd" if dated else "yyyy-mm-dd hh:mm:ss"
            cols.append(_Column(_nullable(serial), "number", fmt, max(head_w, len(fmt))))
        elif pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_complex_dtype(s):
            valid = s.dropna()
            if pd.api.types.is_integer_dtype(s) and len(valid) and valid.abs().max() > 2**53:  # an ID Excel would round
                cols.append(_Column(_nullable(s.astype("string")), "string", None, max(head_w, 20)))
                continue
            infinite = pd.api.types.is_float_dtype(s) and bool(np.isinf(valid).any())
            valid = valid[~np.isinf(valid)] if infinite else valid
            fmt = _number_format(header, s.where(~s.isin([np.inf, -np.inf])) if infinite else s)
            biggest = valid.abs().max() if len(valid) else 0
            digits = len(f"{biggest:,.0f}") + (1 if (valid < 0).any() else 0) + (3 if "." in fmt else 0)
            cols.append(_Column(_nullable(s), "mixed" if infinite else "number", fmt, max(head_w, digits)))
        else:
            if not pd.api.types.is_string_dtype(s) or (s.dtype == object and not _all_text(s)):
                cols.append(_mixed(s, counts, head_w))
                continue
            text, n_clean = _remove_illegal(s)
            counts["cleaned"] += n_clean
            long = text.str.len() > XLSX_MAX_CHARS
            if long.any():
                counts["truncated"] += int(long.sum())
                text = text.where(~long, text.str.slice(0, XLSX_MAX_CHARS))
            counts["protected"] += _count_formula_like(text)
            cols.append(_Column(_nullable(text), "string", None, max(head_w, _text_width(text))))
    return headers, cols, counts


def _all_text(s: pd.Series) -> bool:
    return bool(s.dropna().map(type).eq(str).all())


def _typed_object(s: pd.Series) -> pd.Series:
    """An object column holding only dates, or only numbers, as a typed column."""
    import pandas as pd

    valid = s.dropna()
    if valid.empty:
        return s
    kinds = set(valid.map(type))
    if kinds <= {datetime, date, pd.Timestamp}:
        try:
            return pd.to_datetime(s)
        except (ValueError, TypeError, OverflowError):
            return s
    if kinds <= {int, float} or kinds <= {bool}:
        return s.infer_objects()
    return s


_ISO_DATE = r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?"


def _iso_dates(s: pd.Series) -> pd.Series:
    """A text column holding only ISO dates (2024-03-01, 2024-03-01 08:30) as dates, so that Excel sees dates."""
    import pandas as pd

    if not pd.api.types.is_string_dtype(s) or (s.dtype == object and not _all_text(s)):
        return s
    valid = s.dropna()
    if valid.empty or not re.fullmatch(_ISO_DATE, str(valid.iloc[0])) or not bool(valid.str.fullmatch(_ISO_DATE).all()):
        return s
    dates = pd.to_datetime(s, format="ISO8601", errors="coerce")
    return dates if dates.notna().sum() == len(valid) else s  # 2024-02-30 stays text


def _remove_illegal(s: pd.Series) -> tuple[pd.Series, int]:
    """A text column without the characters an xlsx cannot hold, and how many cells had some."""
    pattern = _ILLEGAL if s.dtype == object else _ILLEGAL_XML  # Arrow-backed text cannot hold lone surrogates
    bad = s.str.contains(pattern, regex=True, na=False).astype(bool)
    n = int(bad.sum())
    if n:
        s = s.where(~bad, s.str.replace(pattern, "", regex=True))
    return s.astype("string"), n


def _clean_text(v: str, counts: dict[str, int]) -> str:
    if _ILLEGAL_RE.search(v):
        counts["cleaned"] += 1
        v = _ILLEGAL_RE.sub("", v)
    if len(v) > XLSX_MAX_CHARS:
        counts["truncated"] += 1
        v = v[:XLSX_MAX_CHARS]
    return v


def _mixed(s: pd.Series, counts: dict[str, int], head_w: int) -> _Column:
    """A column of several kinds of values, each written as what it is."""
    import pandas as pd

    values: list[Any] = []
    widest = head_w
    for v in s.tolist():
        if v is None or (isinstance(v, float) and v != v) or v is pd.NaT:
            values.append(None)
            continue
        if isinstance(v, bool) or isinstance(v, int | float) and not isinstance(v, bool):
            values.append(v)
            widest = max(widest, len(str(v)))
            continue
        if hasattr(v, "item") and not isinstance(v, str | datetime | date):
            values.append(v.item())
            continue
        t = v if isinstance(v, str) else _text(v) or ""
        t = _clean_text(t, counts)
        counts["protected"] += is_formula_like(t)
        widest = max(widest, _display_width(t[:200]))
        values.append(t)
    return _Column(values, "mixed", None, widest)


def _nullable(s: pd.Series) -> list[Any]:
    """Plain Python values with every kind of missing value as None."""
    return s.astype(object).where(s.notna(), None).tolist()


def _fill_sheet(sh: Any, df: pd.DataFrame, styles: _Styles) -> dict[str, int]:
    """Rows in order (constant memory): a bold frozen header, fitted widths, number formats, values never formulas."""
    headers, cols, counts = _prepare(df)
    for j, c in enumerate(cols):
        sh.set_column(j, j, min(max(c.width, 4) + 2, 60), styles.num(c.fmt))
    sh.freeze_panes(1, 0)
    for j, h in enumerate(headers):
        sh.write_string(0, j, h, styles.header)
    if cols and len(df):
        sh.autofilter(0, 0, len(df), len(cols) - 1)
    writers = []
    for c in cols:
        fmt = styles.num(c.fmt)
        if c.write == "number":
            writers.append((sh.write_number, fmt))
        elif c.write == "string":
            writers.append((sh.write_string, None))
        elif c.write == "boolean":
            writers.append((sh.write_boolean, None))
        else:
            writers.append((_mixed_writer(sh), fmt))
    for r, row in enumerate(zip(*(c.values for c in cols), strict=True), start=1):
        for j, v in enumerate(row):
            if v is not None:
                w, fmt = writers[j]
                w(r, j, v, fmt)
    return counts


def _mixed_writer(sh: Any) -> Callable[[int, int, Any, Any], Any]:
    def write(r: int, j: int, v: Any, fmt: Any) -> Any:
        if isinstance(v, bool):
            return sh.write_boolean(r, j, v)
        if isinstance(v, int | float):
            if isinstance(v, int) and abs(v) > 2**53 or v in (math.inf, -math.inf):  # Excel would round, or show an error
                return sh.write_string(r, j, str(v))
            return sh.write_number(r, j, v, fmt)
        return sh.write_string(r, j, str(v))

    return write


def about_rows(about: About, sheets: list[tuple[str, pd.DataFrame]], counts: dict[str, int]) -> list[tuple[str, str]]:
    """The lines of a 说明 sheet: what was asked, from which file, by which steps, and what the file holds."""
    zh = about.lang != "en"
    rows: list[tuple[str, str]] = [
        ("请求" if zh else "Request", about.goal),
        ("最近一句话" if zh else "Last words", about.said),
        ("源文件" if zh else "Source file", about.source or ("（无）" if zh else "(none)")),
    ]
    if about.sheet:
        rows.append(("工作表" if zh else "Sheet", about.sheet))
    for i, step in enumerate(about.steps, start=1):
        rows.append((f"步骤 {i}" if zh else f"Step {i}", step))
    for title, df in sheets:
        rows.append(("结果" if zh else "Result", f"{title}：{len(df)} 行 × {len(df.columns)} 列" if zh
                     else f"{title}: {len(df)} rows × {len(df.columns)} columns"))
    facts = {"inert_cells": counts["protected"], "cleaned_cells": counts["cleaned"], "truncated_cells": counts["truncated"]}
    rows += [("安全处理" if zh else "Made safe", note) for note in safety_notes(facts, about.lang)]
    rows.append(("生成时间" if zh else "Written at", datetime.now().strftime("%Y-%m-%d %H:%M:%S")))
    return [(k, _ILLEGAL_RE.sub("", v)[:XLSX_MAX_CHARS]) for k, v in rows]


def _fill_about(sh: Any, about: About, sheets: list[tuple[str, pd.DataFrame]], counts: dict[str, int], styles: _Styles) -> None:
    """The 说明 sheet of a workbook written with XlsxWriter."""
    zh = about.lang != "en"
    rows = about_rows(about, sheets, counts)
    sh.set_column(0, 0, 14)
    sh.set_column(1, 1, min(100, max(20, max(_display_width(v) for _, v in rows) + 2)))
    sh.freeze_panes(1, 0)
    sh.write_string(0, 0, "项目" if zh else "Item", styles.header)
    sh.write_string(0, 1, "内容" if zh else "Details", styles.header)
    for r, (k, v) in enumerate(rows, start=1):
        sh.write_string(r, 0, k)
        sh.write_string(r, 1, v)


SAFETY_FACTS = ("inert_cells", "cleaned_cells", "truncated_cells")


def safety_notes(facts: dict[str, Any], lang: str) -> list[str]:
    """What was done to cells of a written file so that it is safe to open."""
    zh = lang == "zh"
    notes = []
    if facts.get("inert_cells"):
        n = facts["inert_cells"]
        notes.append(f"有 {n} 个以 = + - @ 开头的单元格（表头、工作表名也算在内）已作为纯文本保存，不会被当成公式执行。" if zh
                     else f"{n} cell(s) starting with = + - @ (headers and sheet names count too) were saved as plain text, "
                     "so they cannot run as formulas.")
    if facts.get("cleaned_cells"):
        n = facts["cleaned_cells"]
        notes.append(f"有 {n} 个单元格含有 xlsx 无法保存的控制字符，已删除这些字符。" if zh
                     else f"{n} cell(s) held control characters an xlsx cannot store; those characters were removed.")
    if facts.get("truncated_cells"):
        n = facts["truncated_cells"]
        notes.append(f"有 {n} 个单元格超过 xlsx 的 32,767 字符上限，已截断。" if zh
                     else f"{n} cell(s) exceeded the xlsx limit of 32,767 characters and were cut.")
    return notes
