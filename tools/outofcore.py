"""Files too big for memory: the same tools, run by DuckDB over the file on disk, results streamed to disk.

A CSV at or above BIG_BYTES (or every CSV when WENQING_ENGINE=duckdb; never when WENQING_ENGINE=pandas) is opened
as a BigTable: a DuckDB query over the file, typed the way pandas would type it. filter / sort / top-N / group /
dedupe / join / select / describe / export run as SQL streaming over the file; any other tool gets the table loaded
into pandas. GB18030 and GBK files are transcoded once, streaming, into <workspace>/.wenqing/cache/ and read there.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import re
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tools.errors import ParseFailed, ToolArgError, UserError
from tools.io import NA_STRINGS, _check_container, csv_sample, csv_shape, read_table
from tools.registry import ToolResult
from tools.values import TIME_TEXT
from tools.workspace import Workspace

if TYPE_CHECKING:
    import pandas as pd

ENGINE_ENV = "WENQING_ENGINE"
BIG_BYTES = int(os.environ.get("WENQING_BIG_BYTES", 100 * 1024**2))
CSV_SUFFIXES = (".csv", ".tsv", ".txt")
MEMORY_LIMIT = "1GB"  # DuckDB's own budget; past it, work spills to disk
MAX_IN_MEMORY_CELLS = 200_000_000  # a tool without SQL form loads the table into pandas only below this
SAMPLE_ROWS = 2000  # the rows a column's type is first taken from
PLAIN_TYPES = {"int": "BIGINT", "float": "DOUBLE", "text": "VARCHAR"}
STAT_SQL = {"mean": "avg", "median": "median", "min": "min", "max": "max"}  # pandas skips missing values, as these do
AGG_ZH = {"count": "计数", "sum": "合计", "mean": "平均", "median": "中位数", "min": "最小", "max": "最大", "distinct": "不同值数"}
ROW = "__wq_row"


# the statements DuckDB ran for the step running now (what /sql shows), when the executor collects them
_STATEMENTS: ContextVar[list[str] | None] = ContextVar("wenqing_sql_statements", default=None)


@contextmanager
def statements() -> Iterator[list[str]]:
    """Collect the SQL that produces a step's table inside this block (row counts taken for the answer are left out)."""
    found: list[str] = []
    token = _STATEMENTS.set(found)
    try:
        yield found
    finally:
        _STATEMENTS.reset(token)


LOADED = "--loaded\n"  # marks a statement whose rows were read into memory for a step that runs there


def _ran(sql: str) -> None:
    found = _STATEMENTS.get()
    if found is not None and sql not in found:
        found.append(sql)


# set while a profile runs whose next step takes the counts in its own pass over the file (see counted_by_next_step)
_DEFER: ContextVar[bool] = ContextVar("wenqing_counts_deferred", default=False)


class Retype(Exception):
    """A pass over a table whose types were taken from its first rows failed: the request runs again with the whole
    file checked first (wider types, or the exact pandas reading), as an undeferred profile does."""


@contextmanager
def counted_by_next_step() -> Iterator[None]:
    """Within this block a profile of a big CSV does not read the whole file: the next step's own pass over it counts
    rows and blanks and checks every column's type (group_summarize, describe_columns), so a request reads it once."""
    token = _DEFER.set(True)
    try:
        yield
    finally:
        _DEFER.reset(token)


def wanted(path: Path) -> bool:
    """Whether this file is read out of core."""
    mode = os.environ.get(ENGINE_ENV, "").lower()
    if mode == "pandas" or path.suffix.lower() not in CSV_SUFFIXES:
        return False
    try:
        return mode == "duckdb" or path.stat().st_size >= BIG_BYTES
    except OSError:
        return False


def q(name: str) -> str:
    return '"' + str(name).replace('"', '""') + '"'


def lit(v: Any) -> str:
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, (int, float)):
        return repr(float(v)) if isinstance(v, float) else str(v)
    return "'" + str(v).replace("'", "''") + "'"


class BigTable:
    """A table that stays on disk: a DuckDB query plus what pandas would call its columns and dtypes."""

    def __init__(self, con: Any, sql: str, types: dict[str, str], name: str, encoding: str | None = None,
                 delimiter: str | None = None) -> None:
        self.con, self.sql, self.types, self.name = con, sql, types, name
        self.encoding, self.delimiter = encoding, delimiter
        self._rows: int | None = None
        self.blanks: list[int] = []
        self._df: pd.DataFrame | None = None
        self.pending = False  # types from the first rows only: a step's pass must check every column (settle)
        self.facts: dict[str, Any] | None = None  # the profile whose counts that pass completes
        self.root: BigTable = self  # the table read from the file, which every derived table comes from
        self.total_words: bool | None = None  # (on a root) whether a total word may stand in its first or last rows
        self.source: Path | None = None  # (on a root) the file it reads

    def run(self, sql: str, said: bool = True) -> Any:
        """Run a query over this table. On a table still pending, a failure (a value beyond the first rows that does not
        fit its column's type, a ragged row) raises Retype. `said`: the statement makes a step's table (/sql shows it)."""
        import duckdb

        if said:
            _ran(sql)
        try:
            out = self.con.execute(sql)
        except duckdb.Error as e:
            if self.pending:
                raise Retype(str(e)) from e
            raise
        return out

    def settle(self, rows: int, blanks: list[int] | None = None) -> None:
        """Counts taken by a step's own pass, given to the deferred profile. With every column's blanks, the pass read
        every column: the table is checked. Without, it read only the columns its result depends on (DuckDB checks
        the types of those as it reads them), which is all a plan whose next step uses only that result needs."""
        self._rows = rows
        if self.facts is not None:
            self.facts["rows"] = rows
        if blanks is not None:
            self.blanks, self.pending = blanks, False
            if self.facts is not None:
                for info, b in zip(self.facts["column_info"], blanks, strict=True):
                    info["blanks"] = b

    @property
    def columns(self) -> list[str]:
        return list(self.types)

    def derive(self, sql: str, types: dict[str, str] | None = None) -> BigTable:
        if self.pending:  # nothing is built on a table whose types a pass has not checked
            raise Retype("derived from an unchecked table")
        out = BigTable(self.con, sql, dict(self.types) if types is None else types, self.name, self.encoding, self.delimiter)
        out.root = self.root
        return out

    def renamed(self, names: dict[str, str]) -> BigTable:
        """The same rows with some columns renamed (wenqing's own headers put in the session's language); what is
        known of the table (rows, blanks, whether its types are still to be checked) carries over."""
        cols = ", ".join(f"{q(c)} AS {q(names.get(c, c))}" if c in names else q(c) for c in self.types)
        out = BigTable(self.con, f"SELECT {cols} FROM ({self.sql})", {names.get(c, c): t for c, t in self.types.items()}, self.name,
                       self.encoding, self.delimiter)
        out._rows, out.blanks, out.pending, out.facts = self._rows, list(self.blanks), self.pending, self.facts
        return out

    def __len__(self) -> int:
        if self._rows is None:
            self._rows = int(self.run(f"SELECT count(*) FROM ({self.sql})", said=False).fetchone()[0])
        return self._rows

    def head(self, n: int = 5) -> pd.DataFrame:
        return self.fetch(f"SELECT * FROM ({self.sql}) LIMIT {max(0, int(n))}", said=False)  # a preview of the rows

    def fetch(self, sql: str, said: bool = True) -> pd.DataFrame:
        """Run a query whose result is small, as pandas would have typed it."""
        df = self.run(sql, said).df()
        for c in df.columns:
            if str(df[c].dtype) == "object" and self.types.get(c) == "VARCHAR":
                continue
            if self.types.get(c) == "BIGINT" and df[c].isna().any():
                df[c] = df[c].astype("float64")
        return df

    def to_pandas(self) -> pd.DataFrame:
        """The whole table in memory (kept: a step and its checks share one copy)."""
        if self._df is not None:
            return self._df
        if len(self) * max(1, len(self.types)) > MAX_IN_MEMORY_CELLS:
            raise UserError(f"{self.name} 太大（{len(self):,} 行），这一步只能在内存中完成，无法执行。请先筛选或汇总后再做。",
                            f"{self.name} is too big ({len(self):,} rows) for this step, which needs it in memory. Filter or group it first.")
        _ran(LOADED + self.sql)
        self._df = self.fetch(self.sql, said=False)
        return self._df


_DATABASES: dict[tuple[str, str], Any] = {}
KEPT_DATABASES = 2
_DATABASES_LOCK = threading.Lock()
_OPEN: weakref.WeakSet[Any] = weakref.WeakSet()  # the connections in use, so that a cancelled request can stop its query


def interrupt_queries() -> None:
    """Stop whatever query is running on any connection (Ctrl-C on a request): the query raises, the step ends."""
    for con in list(_OPEN):
        try:
            con.interrupt()
        except Exception:  # a connection already closed has nothing to stop
            pass


def _connect(spill: Path) -> Any:
    """A DuckDB connection that keeps below MEMORY_LIMIT, spilling to the workspace's cache folder. The database behind
    it is made once per process and folder (making one costs more than the work on a small file); each connection
    has its own registered tables, gone with it."""
    import duckdb

    memory = os.environ.get("WENQING_DUCKDB_MEMORY", MEMORY_LIMIT)
    with _DATABASES_LOCK:
        db = _DATABASES.get((str(spill), memory))
        if db is None:
            db = duckdb.connect()
            db.execute("SET preserve_insertion_order = true")
            db.execute(f"SET memory_limit = {lit(memory)}")
            db.execute(f"SET temp_directory = {lit(str(spill))}")
            while len(_DATABASES) >= KEPT_DATABASES:  # an older workspace's: it ends when its last table is let go
                _DATABASES.pop(next(iter(_DATABASES)))
            _DATABASES[(str(spill), memory)] = db
    con = db.cursor()
    con.execute("SET enable_progress_bar = false")
    _OPEN.add(con)
    return con


def _spill(ws: Workspace) -> Path:
    """The folder DuckDB spills to, .wenqing/cache/spill/: created and checked on the one path for wenqing's own files,
    so that no link on the way sends a spilled byte out of the workspace (refused with a UserError)."""
    from tools.write import own_folder

    fd, real = own_folder(ws, "cache/spill")
    os.close(fd)
    return real


def prepare(ws: Workspace) -> None:
    """Make the workspace's database before a request needs it (the session's warm-up, in the background)."""
    try:
        _connect(_spill(ws))
    except UserError:
        pass


def _cache_name(path: Path) -> str:
    """A cache file's name for a source file: its stem, a hash of its path, then size and mtime."""
    stem = re.sub(r"[^0-9A-Za-z一-鿿_-]", "_", path.stem) + "-" + hashlib.sha1(str(path).encode()).hexdigest()[:8]
    st = path.stat()
    return f"{stem}-{st.st_size}-{st.st_mtime_ns}"


def transcoded(ws: Workspace, path: Path, encoding: str) -> Path:
    """A UTF-8 copy of a GB18030/GBK file in <workspace>/.wenqing/cache/, made once in one streaming pass and kept
    while the source is unchanged (copies of earlier versions are removed). Written through the one path for
    wenqing's own files: a link in the cache folder is never followed, read or written through."""
    from tools.write import LinkRefused, check_name, own_folder, replace_in

    fd, folder = own_folder(ws, "cache")  # refused when .wenqing/ or its cache/ links anywhere
    try:
        name = _cache_name(path)
        target = f"{name}.utf8.csv"
        try:
            check_name(fd, target)
            os.stat(target, dir_fd=fd, follow_symlinks=False)
            return folder / target
        except FileNotFoundError:
            pass
        except LinkRefused:
            os.unlink(target, dir_fd=fd)  # the link itself goes, never what it points to
        stale = name.rsplit("-", 2)[0] + "-"
        for old in os.listdir(fd):
            if old.startswith(stale) and old.endswith(".utf8.csv"):
                with contextlib.suppress(OSError):
                    os.unlink(old, dir_fd=fd)

        def fill(f: Any) -> None:
            with path.open("r", encoding=encoding, newline="") as src:
                while chunk := src.read(8 * 1024**2):
                    f.write(chunk.encode("utf-8"))

        try:
            replace_in(fd, target, fill)
        except UnicodeDecodeError as e:
            raise ParseFailed(f"{path.name}：无法识别文件编码，请另存为 UTF-8 再试。", f"{path.name}: unknown text encoding.") from e
        return folder / target
    finally:
        os.close(fd)


def _duck_type(dtype: Any) -> str:
    s = str(dtype)
    if s.startswith("int") or s.startswith("uint"):
        return "BIGINT"
    if s.startswith("float"):
        return "DOUBLE"
    if s == "bool":
        return "BOOLEAN"
    return "VARCHAR"


def open_csv(ws: Workspace, path: Path, con: Any = None, defer: bool = False) -> BigTable | None:
    """The CSV as a BigTable, or None when the file needs the exact pandas reading: title rows above the header, or
    ragged rows, which pandas skips and counts. Opening scans the file once (row and blank counts, kept for the
    profile); a value that does not fit the type pandas would give its column widens that type there, never in a
    later step. With `defer`, nothing past the first rows is read: the table is pending, and the next step's own
    pass takes the counts and checks the types (a failure there runs the request again, undeferred)."""
    try:
        spill = _spill(ws)
    except UserError:
        return None  # a link on the way out of the workspace: nothing is cached or spilled there; pandas reads the file
    shape = csv_shape(path)
    plain = csv_sample(path, SAMPLE_ROWS)  # the first rows typed as pandas types them, read without pandas when simply written
    if plain is not None:
        types = {c: PLAIN_TYPES[k] for c, k in zip(plain.columns, plain.kinds, strict=True)}
    else:
        head = read_table(path, nrows=SAMPLE_ROWS, sample=True)
        if any(n.startswith("表头在") for n in head.notes):
            return None
        types = {str(c): _duck_type(head.df[c].dtype) for c in head.df.columns}
    con = con or _connect(spill)
    source = path if shape.encoding in ("utf-8", "utf-8-sig") else transcoded(ws, path, shape.encoding)
    for attempt in ("as sampled", "exact integers", "numbers as decimals", "all text"):
        if attempt == "numbers as decimals":
            types = {c: "DOUBLE" if t == "BIGINT" else t for c, t in types.items()}
        elif attempt == "all text":
            types = dict.fromkeys(types, "VARCHAR")
        # DuckDB's own integer reading rounds 12.5 to 13, where pandas makes the column decimal: integers are read as
        # decimals and cast here, and a value with a fraction stops the pass. Past 2^53 a decimal is not exact: such a
        # column is read again as text and cast exactly; a fraction or a word then moves on to decimals, then text.
        read = {c: ("DOUBLE" if attempt == "as sampled" else "VARCHAR") if t == "BIGINT" else t for c, t in types.items()}
        cols = ", ".join(_as_integer(c, read[c]) if t == "BIGINT" else q(c) for c, t in types.items())
        sql = (f"SELECT {cols} FROM read_csv({lit(str(source))}, header = true, delim = {lit(shape.delimiter)}, quote = '\"', "
               f"columns = {{{', '.join(f'{lit(c)}: {lit(t)}' for c, t in read.items())}}}, auto_detect = false, "
               f"nullstr = [{', '.join(lit(s) for s in NA_STRINGS)}], null_padding = true, parallel = true)")
        t = BigTable(con, sql, types, path.name, shape.encoding, shape.delimiter)
        t.source = path
        if defer:
            t.pending = True
            return t
        try:
            counts = con.execute(f"SELECT {', '.join(counts_sql(t))} FROM ({sql})").fetchone()
        except Exception as e:  # noqa: BLE001  (duckdb's conversion errors: try wider types; ragged rows: pandas)
            if "Expected Number of Columns" in str(e) or "quote" in str(e).lower():
                return None  # no wider type reads it: pandas reads it and says what it left out
            continue
        t.settle(int(counts[0]), [int(b) for b in counts[1:]])
        return t
    return None


def _as_integer(c: str, read: str) -> str:
    """A column pandas would read as integers, from what DuckDB read (decimals or text); anything else stops the pass."""
    stop = f"error({lit(f'{c}: not an integer')})"
    if read == "DOUBLE":
        return (f"CASE WHEN {q(c)} IS NULL THEN NULL WHEN {q(c)} = trunc({q(c)}) AND abs({q(c)}) < 9007199254740992 "
                f"THEN CAST({q(c)} AS BIGINT) ELSE {stop} END AS {q(c)}")
    return f"CASE WHEN contains({q(c)}, '.') THEN {stop} ELSE CAST({q(c)} AS BIGINT) END AS {q(c)}"


def counts_sql(t: BigTable) -> list[str]:
    """The aggregates a profile needs, in order: rows, then each column's blanks (as BIGINT)."""
    return ["count(*)"] + [f"CAST({_blank_count(t, c)} AS BIGINT)" for c in t.columns]


# ---------------------------------------------------------------- the tools in SQL


def _text(c: str) -> str:
    return f"CAST({q(c)} AS VARCHAR)"


# text that is nothing but what Python's str.isspace() calls whitespace, which pandas' str.strip() removes
ONLY_SPACES = "[\\t\\n\\x{0b}\\f\\r\\x{1c}-\\x{1f}\\x{85}\\p{Z}]*"
SPACE_STARTS = (133, 160, 5760, *range(8192, 8203), 8232, 8233, 8239, 8287, 12288)  # whitespace above U+0020


def _spaces_only(c: str) -> str:
    """Empty or whitespace-only text; the regular expression runs only on text whose first character may be a space
    (letters, digits and CJK text leave at the range test, before the list of space characters is read)."""
    first = f"ascii({q(c)})"
    return (f"(({first} <= 32 OR ({first} BETWEEN {min(SPACE_STARTS)} AND {max(SPACE_STARTS)} "
            f"AND {first} IN ({', '.join(map(str, SPACE_STARTS))}))) AND regexp_full_match({q(c)}, {lit(ONLY_SPACES)}))")


def _blank(t: BigTable, c: str) -> str:
    """Missing, or (text) nothing but whitespace."""
    return f"({q(c)} IS NULL OR {_blank_text(c)})" if t.types.get(c) == "VARCHAR" else f"({q(c)} IS NULL)"


def _blank_text(c: str) -> str:
    """Text that holds nothing: whitespace only, or the label a blank group has in a table wenqing wrote."""
    from tools.ops import BLANK_LABELS

    labels = ", ".join("'" + x.replace("'", "''") + "'" for x in BLANK_LABELS)
    return f"({_spaces_only(c)} OR trim({q(c)}) IN ({labels}))"


def _blank_count(t: BigTable, c: str) -> str:
    """How many cells of a column _blank holds for, as one aggregate."""
    missing = f"count(*) - count({q(c)})"
    return f"{missing} + COALESCE(sum(CASE WHEN {_blank_text(c)} THEN 1 ELSE 0 END), 0)" if t.types.get(c) == "VARCHAR" else missing


def _num(t: BigTable, c: str) -> str:
    """A column as numbers. Text is read the pandas way (tools.values: 1,234.50, ¥1,234, 12.5万 and the cells that do
    not read are named), so a text column sends the step to pandas."""
    if t.types.get(c) not in ("BIGINT", "DOUBLE", "BOOLEAN"):
        raise NoSql
    return f"TRY_CAST({q(c)} AS DOUBLE)"


class NoSql(Exception):
    """This call has no SQL form that is sure to match pandas: run the pandas tool."""


def _need(t: BigTable, cols: list[str]) -> None:
    missing = [c for c in cols if c not in t.types]
    if missing:
        from tools.ops import _need_columns

        _need_columns(t.head(0), cols)


NUMERIC_OPS = ("numeric", "not_numeric", "blank_or_numeric", "blank_or_not_numeric")


def _cond(t: BigTable, cond: dict[str, Any]) -> str:
    if "not" in cond:
        return f"NOT ({_cond(t, cond['not'])})"
    for logic in ("and", "or"):
        if logic in cond and "op" not in cond:
            return "(" + f" {logic.upper()} ".join(f"({_cond(t, c)})" for c in cond[logic]) + ")" if cond[logic] else "TRUE"
    col, op, v = str(cond.get("column")), cond.get("op"), cond.get("value")
    _need(t, [col])
    if op == "empty":
        return _blank(t, col)
    if op == "not_empty":
        return f"NOT {_blank(t, col)}"
    if isinstance(v, dict) and v.get("stat") in STAT_SQL:  # a column against a figure of a column, as pandas computes it
        _need(t, [v["column"]])
        return _compare(op, _num(t, col), f"(SELECT {STAT_SQL[v['stat']]}({_num(t, v['column'])}) FROM ({t.sql}))")
    if isinstance(v, dict) and "column" in v:
        _need(t, [v["column"]])
        if op in ("eq", "ne") and "VARCHAR" in (t.types.get(col), t.types.get(v["column"])):
            raise NoSql  # text against text, compared the pandas way
        return _compare(op, _num(t, col), _num(t, v["column"]))
    if op in NUMERIC_OPS or isinstance(v, list) and op in ("contains", "not_contains") or op in ("weekday_in", "weekday_not_in"):
        raise NoSql  # (the day of the week of dates read the pandas way)
    if isinstance(v, dict) or isinstance(cond.get("value2"), dict) or hasattr(v, "year"):
        raise NoSql  # dates are parsed the pandas way
    if op in ("in", "not_in"):
        vals = [str(x).strip() for x in (v if isinstance(v, list) else [v])]
        m = f"COALESCE(trim({_text(col)}) IN ({', '.join(lit(x) for x in vals)}), FALSE)"
        return m if op == "in" else f"NOT {m}"
    if op in ("contains", "not_contains", "startswith", "endswith", "not_startswith", "not_endswith"):
        fn = {"startswith": "starts_with", "endswith": "ends_with", "not_startswith": "starts_with", "not_endswith": "ends_with"}.get(op, "contains")
        if fn == "contains":  # whatever the letter case, as tools.ops.where
            m = f"COALESCE(contains(lower({_text(col)}), lower({lit(str(v))})), FALSE)"
        else:
            m = f"COALESCE({fn}({_text(col)}, {lit(str(v))}), FALSE)"
        return f"NOT {m}" if op in ("not_contains", "not_startswith", "not_endswith") else m
    if op in ("between", "not_between"):
        lo, hi = v, cond.get("value2")
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (lo, hi)):
            raise NoSql
        inside = f"COALESCE({_num(t, col)} >= {lit(lo)} AND {_num(t, col)} <= {lit(hi)}, FALSE)"
        return inside if op == "between" else f"NOT {inside}"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return _compare(op, _num(t, col), lit(v))
    if op in ("gt", "ge", "lt", "le") and re.fullmatch(TIME_TEXT, str(v)):
        raise NoSql  # clock times (9:05 before 20:00) are compared the pandas way
    if op in ("eq", "ne"):  # the value as written when the column has it, else the same value in another case
        exact = f"trim({_text(col)}) = {lit(str(v).strip())}"
        folded = f"lower(trim({_text(col)})) = {lit(str(v).strip().casefold())}"
        m = f"COALESCE(CASE WHEN EXISTS (SELECT 1 FROM ({t.sql}) WHERE {exact}) THEN {exact} ELSE {folded} END, FALSE)"
        return m if op == "eq" else f"NOT {m}"
    return _compare(op, f"trim({_text(col)})", lit(str(v).strip()))


def _compare(op: Any, left: str, right: str) -> str:
    sym = {"eq": "=", "ne": "<>", "gt": ">", "ge": ">=", "lt": "<", "le": "<="}.get(str(op))
    if sym is None:
        raise ToolArgError(f"不支持的筛选条件：{op}。", f"Unsupported condition: {op}.")
    return f"COALESCE({left} {sym} {right}, FALSE)"


def _numbered(t: BigTable, sql: str | None = None) -> str:
    return f"SELECT *, row_number() OVER () AS {ROW} FROM ({t.sql if sql is None else sql})"


def _kinds(t: BigTable) -> tuple[list[str], list[str]]:
    """The columns tools.stats.total_rows reads: text (anything not a number or a truth value) and numbers."""
    return ([c for c, k in t.types.items() if k not in ("BIGINT", "DOUBLE", "BOOLEAN")],
            [c for c, k in t.types.items() if k in ("BIGINT", "DOUBLE")])


def _may_hold_totals(t: BigTable) -> bool:
    """Whether a cell of the file's first or last lines reads as a total word: without one, the file has no total row
    of its own (an own total is the first or the last row holding numbers). Read from the file's two ends, never by a
    pass over it: the step's own pass stays the only one."""
    root = t.root
    if root.total_words is None:
        root.total_words = bool(_kinds(root)[0]) and (root.source is None or _ends_hold_total_word(root))
    return root.total_words


END_BYTES = 64 * 1024


def _ends_hold_total_word(t: BigTable) -> bool:
    from tools.stats import TOTAL_WORDS

    assert t.source is not None
    try:
        with t.source.open("rb") as f:
            head = f.read(END_BYTES)
            f.seek(max(0, f.seek(0, os.SEEK_END) - END_BYTES))
            tail = f.read(END_BYTES)
    except OSError:
        return True  # unread: the exact check decides
    sep = t.delimiter or ","
    for chunk in (head, tail):
        lines = chunk.decode(t.encoding or "utf-8", errors="ignore").splitlines()
        for line in lines[1:] if chunk is head else lines[-6:]:
            if any(cell.strip().strip('"').strip().casefold() in TOTAL_WORDS for cell in line.split(sep)):
                return True
    return False


def own_total_rows(t: BigTable) -> list[int]:
    """The row numbers (from 1, in file order) of the table's own total rows: the rule of tools.stats.total_rows (a text
    cell 总计 / 合计 / Total … in the first or last row holding numbers, of at least three)."""
    if not _may_hold_totals(t):
        return []
    from tools.stats import TOTAL_WORDS

    text, nums = _kinds(t)
    if not text:
        return []
    # figures written as text ($1,250.00, ~200) hold numbers too: a total row below them is a total all the same
    worded = [f"regexp_matches(CAST({q(c)} AS VARCHAR), '^\\s*[-(（$¥￥€£~≈约]?\\s*\\d')" for c in text]
    has = " OR ".join([f"{q(c)} IS NOT NULL" for c in nums] + worded)
    numbered = f"SELECT *, row_number() OVER () AS {ROW}, ({has}) AS __wq_has FROM ({t.sql})"
    lo, hi, held, rows = t.run(f"SELECT min({ROW}) FILTER (WHERE __wq_has), max({ROW}) FILTER (WHERE __wq_has), "
                               f"count(*) FILTER (WHERE __wq_has), count(*) FROM ({numbered})", said=False).fetchone()
    if rows < 3 or held < 3:
        return []
    ends = t.run(f"SELECT {ROW}, {', '.join(q(c) for c in text)} FROM ({numbered}) WHERE {ROW} IN ({int(lo)}, {int(hi)})",
                 said=False).fetchall()
    return [int(r[0]) for r in ends if any(str(v).strip().casefold() in TOTAL_WORDS for v in r[1:] if v is not None)]


def without_own_totals(t: BigTable) -> tuple[str, int]:
    """The table's SQL without its own total rows, and how many were left out, so that an aggregate never counts
    everything twice, whichever engine reads the file."""
    skip = own_total_rows(t)
    if not skip:
        return t.sql, 0
    return f"SELECT * EXCLUDE ({ROW}) FROM ({_numbered(t)}) WHERE {ROW} NOT IN ({', '.join(map(str, skip))})", len(skip)


def _sample(df: pd.DataFrame, n: int = 5) -> list[dict[str, Any]]:
    from tools.ops import _sample as sample

    return sample(df, n)


def filter_rows(table: BigTable, conditions: list[dict[str, Any]], logic: str = "and") -> ToolResult:
    if not conditions:
        raise ToolArgError("缺少筛选条件。", "No filter condition given.")
    where = f" {'OR' if logic == 'or' else 'AND'} ".join(f"({_cond(table, c)})" for c in conditions)
    src, totals = without_own_totals(table)  # the table's own 合计 row is no row of the data, whatever it holds
    out = table.derive(f"SELECT * FROM ({src}) WHERE {where}")
    skipped = 0
    if totals:  # how many of the left-out total rows the conditions would have kept
        skipped = int(table.run(f"SELECT count(*) FROM ({table.sql}) WHERE {where}", said=False).fetchone()[0]) - len(out)
    facts = {"rows_in": len(table), "rows_out": len(out), **({"skipped_totals": skipped} if skipped else {})}
    return ToolResult(out, facts, {"sample": _sample(out.head())})


def _order(table: BigTable, by: list[str], ascending: bool, as_text: bool, descending: list[str] | None = None) -> str:
    if not as_text and any(table.types.get(c) == "VARCHAR" for c in by):
        from tools.values import reads_as_numbers

        head = table.head(2000)
        if any(table.types.get(c) == "VARCHAR" and reads_as_numbers(head[c]) for c in by):
            raise NoSql  # amounts written as text are ordered by value, the pandas way
    keys = [(f"COALESCE({_text(c)}, '')" if as_text else q(c), ascending and c not in (descending or [])) for c in by]
    return ", ".join(f"{k} {'ASC' if up else 'DESC'} NULLS LAST" for k, up in keys) + f", {ROW}"


def sort_rows(table: BigTable, by: list[str], ascending: bool = True, as_text: bool = False, descending: list[str] | None = None) -> ToolResult:
    _need(table, by)
    totals = own_total_rows(table)  # the table's own 合计 row stays last, wherever its figures would sort it
    last = f"({ROW} IN ({', '.join(map(str, totals))})) ASC, " if totals else ""
    out = table.derive(f"SELECT * EXCLUDE ({ROW}) FROM ({_numbered(table)}) ORDER BY {last}{_order(table, by, ascending, as_text, descending)}")
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "by": by, "ascending": ascending, "as_text": as_text,
                            **({"descending": list(descending)} if descending else {}),
                            **({"totals_kept_last": len(totals)} if totals else {})}, {"sample": _sample(out.head())})


def top_n(table: BigTable, by: str, n: int = 10, ascending: bool = False, as_text: bool = False, within: list[str] | None = None,
          percent: float | None = None) -> ToolResult:
    within = list(within or [])
    _need(table, [by] + within)
    src, skipped = without_own_totals(table)  # the table's own 合计 row is never one of the top rows
    share: dict[str, Any] = {"percent": percent} if percent is not None else {}
    if within:  # the first n rows of each group (or that share of each group's rows holding a value), shown group by group
        part = ", ".join(q(c) for c in within)
        limit = f"ceil(__wq_c * {float(percent)!r} / 100)" if percent is not None else str(int(n))
        out = table.fetch(f"SELECT * EXCLUDE ({ROW}, __wq_k, __wq_c) FROM (SELECT *, row_number() OVER (PARTITION BY {part} ORDER BY {_order(table, [by], ascending, as_text)}) "
                          f"AS __wq_k, count({q(by)}) OVER (PARTITION BY {part}) AS __wq_c FROM ({_numbered(table, src)})) WHERE __wq_k <= {limit} ORDER BY {part}, __wq_k")
        return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "within": within, "skipped_totals": skipped, **share}, {"sample": _sample(out, n)})
    from tools.ops import ROWS

    keys = [c for c in table.columns if c != by and table.types.get(c) not in ("BIGINT", "DOUBLE")]
    blank_groups = 0
    if keys and any(c in table.columns for c in ROWS.values()):  # a summary: a group with no key is no contender
        blank = " AND ".join(f"({q(c)} IS NULL OR trim(CAST({q(c)} AS VARCHAR)) = '')" for c in keys)
        blank_groups = int(table.run(f"SELECT count(*) FROM ({src}) WHERE {blank}", said=False).fetchone()[0])
        src = f"SELECT * FROM ({src}) WHERE NOT ({blank})" if blank_groups else src
    if percent is not None:  # the top 10%: that share of the rows holding a value, rounded up
        held = int(table.run(f"SELECT count({q(by)}) FROM ({src})", said=False).fetchone()[0])
        n = int(math.ceil(held * float(percent) / 100))
        share["n"] = n
    out = table.fetch(f"SELECT * EXCLUDE ({ROW}) FROM ({_numbered(table, src)}) ORDER BY {_order(table, [by], ascending, as_text)} LIMIT {int(n)}")
    tied = 0
    if len(out) and n > 0 and not as_text and table.types.get(by) in ("BIGINT", "DOUBLE") and out[by].notna().iloc[-1]:
        last = float(out[by].iloc[-1])  # rows level with the last one kept, left out
        tied = int(table.run(f"SELECT count(*) FROM ({src}) WHERE {q(by)} = {last!r}", said=False).fetchone()[0]) - int((out[by] == last).sum())
    level = {}
    keys = [c for c in out.columns if c != by and table.types.get(c) not in ("BIGINT", "DOUBLE")]
    if tied and keys:  # who is level with the last one kept: each tied row named by its keys (Bea, Cy)
        rows = table.run(f"SELECT {', '.join(q(c) for c in keys)} FROM ({_numbered(table, src)}) WHERE {q(by)} = {last!r} ORDER BY {ROW} LIMIT 10", said=False).fetchall()
        level = {"tied_labels": [" / ".join(str(v) for v in row) for row in rows]}
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "skipped_totals": skipped, "blank_groups": blank_groups, "tied_left_out": tied,
                            **({"tie_value": last} if tied else {}), **level, **share}, {"sample": _sample(out, n)})


def head_rows(table: BigTable, n: int = 10) -> ToolResult:
    out = table.head(n)
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out)}, {"sample": _sample(out, n)})


def select_columns(table: BigTable, columns: list[str]) -> ToolResult:
    _need(table, columns)
    out = table.derive(f"SELECT {', '.join(q(c) for c in columns)} FROM ({table.sql})", {c: table.types[c] for c in columns})
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "columns": columns}, {"sample": _sample(out.head())})


def _figure_sql(table: BigTable, c: str) -> str:
    """A column as numbers in SQL: itself when typed so, else its text read as numbers."""
    return q(c) if table.types.get(c) in ("BIGINT", "DOUBLE") else _num(table, c)


def _measure(table: BigTable, m: dict[str, str]) -> str:
    c, agg = m["column"], m["agg"]
    if agg == "count":
        return f"count({q(c)})"
    if agg == "distinct":
        return f"count(DISTINCT {q(c)})"
    x = _figure_sql(table, c)
    if agg == "sum":
        return f"CAST(COALESCE(sum({x}), 0) AS BIGINT)" if table.types.get(c) == "BIGINT" else f"COALESCE(sum({x}), 0.0)"
    return f"{'avg' if agg == 'mean' else agg}({x})"


def _measure_where(table: BigTable, m: dict[str, Any], cond: str) -> str:
    """A figure over the rows meeting `cond` (SQL): their count, or the aggregate of a column over them."""
    agg = m.get("agg", "count")
    if not m.get("column") or agg == "count":
        return f"count(*) FILTER (WHERE {cond})"
    c = m["column"]
    if agg == "distinct":
        return f"count(DISTINCT {q(c)}) FILTER (WHERE {cond})"
    return f"{'avg' if agg == 'mean' else agg}({_figure_sql(table, c)}) FILTER (WHERE {cond})"


def group_summarize(table: BigTable, keys: list[str], measures: list[dict[str, Any]] | None = None, lang: str = "zh",
                    versus_overall: bool = False, keep_order: bool = False) -> ToolResult:
    import pandas as pd

    if keep_order:
        raise NoSql  # the groups in the order they first appear: the in-memory way

    from tools.ops import ROWS, measure_name

    rows = ROWS.get(lang, ROWS["zh"])
    filtered = [m for m in measures or [] if m.get("where")]  # 未处理的有几条: a figure over the rows that meet conditions
    measures = [m for m in measures or [] if m.get("column") and not m.get("where")]
    _need(table, keys + [m["column"] for m in measures + filtered if m.get("column")] + [c["column"] for m in filtered for c in m["where"]])
    for m in measures:
        if m.get("agg") not in AGG_ZH:
            raise ToolArgError(f"不支持的汇总方式：{m.get('agg')}。", f"Unsupported aggregation: {m.get('agg')}.")
    cols = [f"{_measure(table, m)} AS {q(measure_name(m['column'], m['agg'], lang))}" for m in measures] + [f"count(*) AS {q(rows)}"]
    if filtered:
        from tools.ops import where_name

        for m in filtered:
            cond = " AND ".join(f"({_cond(table, c)})" for c in m["where"])
            cols.append(f"{_measure_where(table, m, cond)} AS {q(where_name(m, lang))}")
    src, skipped = without_own_totals(table)  # the table's own 总计 row: not added in again, and never a group of its own
    if not keys:
        from tools.ops import _round

        row = table.fetch(f"SELECT {', '.join(cols)} FROM ({src})").iloc[0].to_dict()
        out = pd.DataFrame([{k: (int(v) if k == rows else _round(v)) for k, v in row.items()}])
    else:
        ks = ", ".join(q(k) for k in keys)
        from tools.ops import in_numeral_order

        out = in_numeral_order(table.fetch(f"SELECT {ks}, {', '.join(cols)} FROM ({src}) GROUP BY {ks} ORDER BY "
                                           + ", ".join(f"{q(k)} ASC NULLS LAST" for k in keys)), keys)
    if table.pending:  # this pass read the columns the result depends on, and counted the rows
        table.settle(int(out[rows].sum()) + skipped)
    extra: dict[str, Any] = {}
    if versus_overall and keys and measures:
        from tools.ops import versus_overall_columns

        means = [m for m in measures if m["agg"] == "mean"]
        row = table.fetch(f"SELECT {', '.join(_measure(table, m) for m in means)} FROM ({src})").iloc[0].tolist() if means else []
        extra = versus_overall_columns(out, keys, measures, {m["column"]: float(v) for m, v in zip(means, row, strict=True)}, lang)
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "groups": len(out), "skipped_totals": skipped, **extra}, {"sample": _sample(out, 20)})


def deduplicate(table: BigTable, subset: list[str] | None = None, keep: str = "first", by: str | None = None) -> ToolResult:
    if keep not in ("first", "last"):
        from tools.errors import ToolArgError

        raise ToolArgError(f"不支持的保留方式：{keep}。", f"Unsupported keep: {keep}.")
    if subset:
        _need(table, subset)
    if by is not None:
        _need(table, [by])
        if table.types.get(by) == "VARCHAR":
            raise NoSql  # a value written as text (an amount, a date) is ordered by what it says, the pandas way
    part = ", ".join(q(c) for c in (subset or table.columns))
    down = "DESC" if keep == "last" else "ASC"
    order = (f"{q(by)} {down} NULLS LAST, {ROW} {down}" if by is not None else f"{ROW} {down}")
    out = table.derive(f"SELECT * EXCLUDE ({ROW}, __wq_k) FROM (SELECT *, row_number() OVER (PARTITION BY {part} ORDER BY {order}) AS __wq_k "
                       f"FROM ({_numbered(table)})) WHERE __wq_k = 1 ORDER BY {ROW}")
    facts = {"rows_in": len(table), "rows_out": len(out), "removed": len(table) - len(out), "keep": keep, **({"by": by} if by else {})}
    return ToolResult(out, facts, {"sample": _sample(out.head())})


def join_tables(ws: Workspace, table: BigTable, other_path: str, on: str, other_sheet: str | None = None, cache: Any = None,
                other_on: str | None = None, how: str = "left", columns: list[str] | None = None, once: bool = False) -> ToolResult:
    from tools.errors import ToolArgError
    from tools.io import load

    if how not in JOIN_SQL:
        raise ToolArgError(f"不支持的关联方式：{how}（可用 left、inner、full、anti）。", f"Unsupported join: {how} (left, inner, full or anti).")

    full = ws.resolve(other_path)
    other = open_csv(ws, full, table.con) if wanted(full) and other_sheet is None else None
    if other is None:
        other_df = load(full, other_sheet, cache).df
        view = f"__wq_other_{id(other_df)}"
        table.con.register(view, other_df)
        other = BigTable(table.con, f"SELECT * FROM {view}", {str(c): _duck_type(other_df[c].dtype) for c in other_df.columns}, full.name)
    rk = other_on or on
    _need(table, [on])
    _need(other, [rk, *(columns or [])])
    other_rows = int(table.run(f"SELECT count(*) FROM ({other.sql})", said=False).fetchone()[0])
    same_repeats = once_dropped = 0
    if once:  # each key of the other table once, its first row in the table's order (as pandas' drop_duplicates keeps it)
        cols = list(other.types)
        other = BigTable(table.con, f"SELECT {', '.join(q(c) for c in cols)} FROM (SELECT *, row_number() OVER (PARTITION BY {q(rk)} "
                         f"ORDER BY __wq_o) AS __wq_k FROM (SELECT *, row_number() OVER () AS __wq_o FROM ({other.sql}))) WHERE __wq_k = 1 "
                         f"ORDER BY __wq_o", dict(other.types), other.name)
        once_dropped = other_rows - int(table.run(f"SELECT count(*) FROM ({other.sql})", said=False).fetchone()[0])
    if columns:  # a lookup: the key and the columns asked for; a repeat with the same values is one match, not two
        kept = list(dict.fromkeys([rk, *columns]))
        # the first of each set of equal rows, in the other table's order (as pandas' drop_duplicates keeps it)
        other = BigTable(table.con, f"SELECT {', '.join(q(c) for c in kept)} FROM (SELECT *, row_number() OVER (PARTITION BY "
                         f"{', '.join(q(c) for c in kept)} ORDER BY __wq_o) AS __wq_k FROM (SELECT *, row_number() OVER () AS __wq_o "
                         f"FROM ({other.sql}))) WHERE __wq_k = 1 ORDER BY __wq_o", {c: other.types[c] for c in kept}, other.name)
        same_repeats = other_rows - int(table.run(f"SELECT count(*) FROM ({other.sql})", said=False).fetchone()[0])
    as_text = (table.types[on] == "VARCHAR") != (other.types[rk] == "VARCHAR")
    lkey, rkey = (_key_text(f"l.{q(on)}"), _key_text(f"r.{q(rk)}")) if as_text else (f"l.{q(on)}", f"r.{q(rk)}")
    other_types, other_sql = other.types, other.sql
    right = {c: t for c, t in other_types.items() if c not in (on, rk)}
    names = {c: (f"{c}_2" if c in table.types else c) for c in right}
    # a row only the other side has keeps its key; keys of two kinds (学号 as numbers and as text) are matched as text
    key = f"coalesce({lkey}, {rkey}) AS {q(on)}" if how == "full" or as_text else f"l.{q(on)}"
    sel = ", ".join([key if c == on else f"l.{q(c)}" for c in table.columns] + [f"r.{q(c)} AS {q(names[c])}" for c in right])
    sql = (f"SELECT {sel} FROM ({_numbered(table)}) l {JOIN_SQL[how]} (SELECT *, row_number() OVER () AS {ROW} FROM ({other_sql})) r "
           f"ON {lkey} = {rkey} ORDER BY l.{ROW} NULLS LAST, r.{ROW}")
    types = {**table.types, **({on: "VARCHAR"} if as_text else {})}
    if how == "anti":  # the first table's rows whose key the second never has: its own columns only
        sql = (f"SELECT * EXCLUDE ({ROW}) FROM ({_numbered(table)}) l WHERE NOT EXISTS (SELECT 1 FROM ({other_sql}) r WHERE {rkey} = {lkey}) "
               f"ORDER BY l.{ROW}")
        out = table.derive(sql, dict(table.types))
    else:
        out = table.derive(sql, {**types, **{names[c]: t for c, t in right.items()}})
    unmatched_left = int(table.run(f"SELECT count(*) FROM ({table.sql}) l WHERE NOT EXISTS (SELECT 1 FROM ({other_sql}) r WHERE {rkey} = {lkey})",
                                   said=False).fetchone()[0])
    unmatched_right = table.run(f"SELECT count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM ({table.sql}) l WHERE {lkey} = {rkey})) "
                                f"FROM ({other_sql}) r", said=False).fetchone()[0]
    repeated = table.run(f"SELECT {rkey} AS k, count(*) AS n FROM ({other_sql}) r WHERE {rkey} IS NOT NULL "
                         f"AND EXISTS (SELECT 1 FROM ({table.sql}) l WHERE {lkey} = {rkey}) GROUP BY 1 HAVING count(*) > 1 ORDER BY 2 DESC, 1",
                         said=False).fetchall()  # a key the other side has twice: its rows double
    return ToolResult(out, {"rows_in": len(table), "rows_out": len(out), "on": on, "other_on": rk, "how": how, "other": other_sheet or Path(other_path).name, "other_rows": int(other_rows),
                            "unmatched_left": unmatched_left, "unmatched_right": int(unmatched_right), "keys_as_text": as_text,
                            "repeated_keys": len(repeated), "repeated_sample": [[str(k), int(n)] for k, n in repeated[:3]],
                            "columns": list(columns or []), "same_repeats": same_repeats, "once_dropped": once_dropped}, {"sample": _sample(out.head())})


def _key_text(col: str) -> str:
    """A join key as text, as tools.ops.key_text writes it: 20240327.0 and ' 20240327' both read 20240327."""
    return f"regexp_replace(trim(CAST({col} AS VARCHAR)), '\\.0+$', '')"


JOIN_SQL = {"left": "LEFT JOIN", "inner": "INNER JOIN", "full": "FULL OUTER JOIN", "anti": "ANTI"}  # (anti is written as NOT EXISTS)


def _as_str(t: BigTable, c: str) -> str:
    """A column's values as pandas' astype(str) writes them."""
    if t.types.get(c) == "BOOLEAN":
        return f"CASE WHEN {q(c)} THEN 'True' WHEN NOT {q(c)} THEN 'False' END"
    return _text(c)


def _most_common(table: BigTable, cols: list[str]) -> dict[str, tuple[int, list[tuple[str, int]], int]]:
    """Each column's number of distinct values, its three most common ones, ties in order of first appearance (as
    pandas' value_counts), and its blanks (the missing and whitespace-only groups), in one pass; a tie that decides
    the order costs a pass over the tied values' rows."""
    if not cols:
        return {}
    alias = {c: f"__wq_c{i}" for i, c in enumerate(cols)}
    inner = ", ".join(f"{_as_str(table, c)} AS {alias[c]}" for c in cols)
    sets = ", ".join(f"({alias[c]})" for c in cols)
    grouping = f"GROUPING({', '.join(alias.values())})"
    n = len(cols)
    masks = [(2 ** n - 1) ^ (1 << (n - 1 - i)) for i in range(n)]  # in column i's set, every other column is aggregated away
    blank = " ".join(f"WHEN {grouping} = {m} THEN ({q(alias[c])} IS NULL"
                     + (f" OR {_spaces_only(alias[c])})" if table.types.get(c) == "VARCHAR" else ")") for c, m in zip(cols, masks, strict=True))
    got = table.run(
        f"SELECT {grouping} AS g, {', '.join(alias.values())}, "
        f"sum(CASE {blank} ELSE FALSE END::INT * count(*)) OVER (PARTITION BY {grouping}) AS blanks, "
        f"{' + '.join(f'count({a}) OVER (PARTITION BY {grouping})' for a in alias.values())} AS distinct_values, count(*) AS k "
        f"FROM (SELECT {inner} FROM ({table.sql})) "
        f"GROUP BY GROUPING SETS ({sets}) QUALIFY rank() OVER (PARTITION BY {grouping} ORDER BY count(*) DESC) <= 3").fetchall()
    out: dict[str, tuple[int, list[tuple[str, int]], int]] = {}
    for i, c in enumerate(cols):
        mine = [r for r in got if r[0] == masks[i]]
        distinct, blanks = (int(mine[0][-2]), int(mine[0][-3])) if mine else (0, 0)
        pairs = [(r[1 + i], int(r[-1])) for r in mine if r[1 + i] is not None]
        pairs.sort(key=lambda p: -p[1])
        counts = [k for _, k in pairs]
        if len(set(counts)) < len(counts):  # equal counts: order them by where each value first appears
            vals = ", ".join(lit(v) for v, _ in pairs)
            first = dict(table.run(
                f"SELECT v, min({ROW}) FROM (SELECT {_as_str(table, c)} AS v, {ROW} FROM ({_numbered(table)})) WHERE v IN ({vals}) GROUP BY v").fetchall())
            pairs.sort(key=lambda p: (-p[1], first[p[0]]))
        out[c] = (distinct, pairs[:3], blanks)
    return out


def describe_columns(table: BigTable) -> ToolResult:
    """One pass over the number columns for their counts and figures, one over the text columns for their blanks,
    distinct and most common values: each column is read once."""
    import pandas as pd

    from tools.ops import _round

    texts = [c for c in table.columns if table.types[c] not in ("BIGINT", "DOUBLE")]
    nums = [c for c in table.columns if c not in texts]
    parts = [f"{_blank_count(table, c)}, avg({q(c)}), min({q(c)}), max({q(c)})" for c in nums]
    got = list(table.run(f"SELECT {', '.join(['count(*)', *parts])} FROM ({table.sql})").fetchone())
    n = int(got.pop(0))
    figures = {c: got[4 * i: 4 * i + 4] for i, c in enumerate(nums)}
    common = _most_common(table, texts)
    blanks = {c: int(figures[c][0]) if c in figures else common[c][2] for c in table.columns}
    if table.pending:  # the passes a deferred profile left to this step read every column
        table.settle(n, [blanks[c] for c in table.columns])
    rows = []
    for c in table.columns:
        t = table.types[c]
        row: dict[str, Any] = {"列": c, "类型": _type_name(t), "非空": n - blanks[c], "空值": blanks[c]}
        if c in texts:
            distinct, top, _ = common[c]
            row.update(不同值=distinct, 最常见="、".join(f"{v}({k})" for v, k in top))
        else:
            _, mean, lo, hi = figures[c]
            cast = int if t == "BIGINT" else float
            row.update(均值=_round(float(mean)) if mean is not None else None, 最小=cast(lo) if lo is not None else None,
                       最大=cast(hi) if hi is not None else None)
        rows.append(row)
    df = pd.DataFrame(rows)
    return ToolResult(df, {"rows": n, "columns": len(table.columns)}, {"sample": _sample(df, 50)})


def _type_name(t: str) -> str:
    return {"BIGINT": "整数", "DOUBLE": "小数", "BOOLEAN": "布尔"}.get(t, "日期" if t.startswith(("DATE", "TIMESTAMP")) else "文本")


def profile_dataset(ws: Workspace, path: str, sheet: str | None = None, head: int = 5, cache: Any = None,
                    header_row: int | None = None) -> ToolResult | None:
    full = ws.resolve(path)
    t = open_csv(ws, full, defer=_DEFER.get())
    if t is None:
        return None
    blanks: list[int | None] = list(t.blanks) if not t.pending else [None] * len(t.columns)  # pending: the next step counts
    facts = {
        "path": path, "sheet": None, "sheets": [], "rows": None if t.pending else len(t), "n_columns": len(t.columns), "columns": t.columns,
        "column_info": [{"name": c, "type": _type_name(t.types[c]), "blanks": b} for c, b in zip(t.columns, blanks, strict=True)],
        "encoding": t.encoding, "uncached_formulas": 0, "delimiter": t.delimiter, "notes": [],
    }
    t.facts = facts
    return ToolResult(t, facts, {"sample": _sample(t.head(head), head), "engine": "duckdb"})


def write_csv(ws: Workspace, table: BigTable, stem: str) -> ToolResult:
    """Stream the query's rows in Arrow batches through the CSV writer's own formula guard into a new file in
    outputs/ (UTF-8 with BOM, published atomically); memory stays at one batch."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    from tools.ops import _safety
    from tools.write import Written, _guard_arrow, inert, publish

    protected = 0
    names: list[str] = []
    for c in table.columns:
        name, hit = inert(c)
        protected += hit
        names.append(name)

    def fill(f: Any) -> None:
        nonlocal protected
        f.write(b"\xef\xbb\xbf")
        writer = None
        _ran(table.sql)
        for batch in table.con.sql(table.sql).to_arrow_reader(65_536):
            arrays = []
            for arr in batch.columns:
                if pa.types.is_string_view(arr.type) or pa.types.is_large_string(arr.type):
                    arr = arr.cast(pa.string())
                if pa.types.is_string(arr.type):
                    arr, n = _guard_arrow(arr)
                    protected += n
                arrays.append(arr)
            rb = pa.RecordBatch.from_arrays(arrays, names=names)
            if writer is None:
                writer = pacsv.CSVWriter(f, rb.schema, write_options=pacsv.WriteOptions(include_header=True, batch_size=16_384))
            writer.write_batch(rb)
        if writer is None:  # no rows: the header alone
            f.write((",".join(f'"{n}"' for n in names) + "\n").encode("utf-8"))
        else:
            writer.close()

    path = publish(ws, stem, "csv", fill)
    w = Written(path, len(table), protected)
    rel = ws.rel(path)
    return ToolResult(table, {"path": rel, "rows": len(table), "columns": table.columns, **_safety(w)}, {}, [rel])


SQL_TOOLS = {f.__name__: f for f in (filter_rows, sort_rows, top_n, head_rows, select_columns, group_summarize, deduplicate,
                                     join_tables, describe_columns, write_csv)}


def route(name: str, args: dict[str, Any]) -> ToolResult | None:
    """Run a tool out of core when its input lives on disk; None: run the pandas tool (with the table loaded)."""
    if name == "profile_dataset":
        if args.get("header_row") is None and args.get("sheet") is None:
            try:
                full = args["ws"].resolve(args["path"])
            except UserError:
                return None
            if wanted(full):
                _check_container(full)
                return profile_dataset(**args)
        return None
    table = args.get("table")
    if not isinstance(table, BigTable):
        return None
    fn = SQL_TOOLS.get(name)
    if fn is not None:
        try:
            res: ToolResult = fn(**args)
            return res
        except NoSql:
            pass
    args["table"] = table.to_pandas()
    return None


def is_big(table: Any) -> bool:
    return isinstance(table, BigTable)


def in_memory(table: Any) -> Any:
    """A table as pandas, for checks that compare a step's input and output."""
    return table.to_pandas() if isinstance(table, BigTable) else table
