"""Errors a user can cause: each carries a message in Chinese and in English."""

from __future__ import annotations


class UserError(Exception):
    """An error with a message for the user; the session goes on after it."""

    code = "user_error"

    def __init__(self, zh: str, en: str | None = None, **facts: object) -> None:
        super().__init__(zh)
        self.zh = zh
        self.en = en or zh
        self.facts = facts

    def message(self, lang: str = "zh") -> str:
        return self.en if lang == "en" else self.zh


class OutsideWorkspace(UserError):
    code = "outside_workspace"


class FileMissing(UserError):
    code = "file_missing"


class ParseFailed(UserError):
    code = "parse_failed"


class ColumnMissing(UserError):
    code = "column_absent"


class ToolArgError(UserError):
    code = "bad_argument"


class WriteFailed(UserError):
    code = "write_failed"
