"""What understanding knows about the workspace: files, sheets, columns and a few of their values."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

SPREADSHEET = (".xlsx", ".xlsm", ".xls", ".ods", ".csv", ".tsv")


@dataclass(frozen=True)
class SheetInfo:
    name: str | None
    columns: tuple[str, ...]
    values: dict[str, frozenset[str]] = field(default_factory=dict)  # low-cardinality text values
    numeric: frozenset[str] = frozenset()
    dates: frozenset[str] = frozenset()
    rows: int = 0
    years: dict[str, tuple[int, int]] = field(default_factory=dict)  # date column -> (first year, last year)
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)  # numeric column -> (min, max)

    @cached_property
    def value_pairs(self) -> list[tuple[str, str]]:
        """(value, column) for every known value, longest value first; built once per sheet, read on every turn."""
        return sorted(((v, c) for c, vs in self.values.items() for v in vs), key=lambda p: -len(p[0]))


@dataclass(frozen=True)
class FileInfo:
    path: str
    sheets: tuple[SheetInfo, ...] = ()
    error: str | None = None

    @property
    def is_table(self) -> bool:
        return self.path.lower().endswith(SPREADSHEET)

    @property
    def kind(self) -> str:
        ext = self.path.rsplit(".", 1)[-1].lower() if "." in self.path else ""
        return {"xlsm": "xlsx", "tsv": "csv"}.get(ext, ext)

    @property
    def stem(self) -> str:
        name = self.path.rsplit("/", 1)[-1]
        return name.rsplit(".", 1)[0] if "." in name else name

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    def sheet(self, name: str | None) -> SheetInfo | None:
        for s in self.sheets:
            if s.name == name:
                return s
        return None


@dataclass(frozen=True)
class Catalog:
    files: tuple[FileInfo, ...] = ()
    results: tuple[FileInfo, ...] = ()  # files in outputs/ a request may read (the last result): never candidates

    def get(self, path: str | None) -> FileInfo | None:
        for f in self.files + self.results:
            if f.path == path:
                return f
        return None

    @property
    def tables(self) -> tuple[FileInfo, ...]:
        return tuple(f for f in self.files if f.is_table)
