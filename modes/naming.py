"""The names of what a request writes: a result file's stem (the source, its sheet, what was done, in the request's
language) and the format of an export that names none."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from modes import opspec


def export_format(r: Any) -> str:
    """The format of an export that names none: the one the words named (导出 d.csv, 转成 excel), else a CSV turned
    into xlsx when exporting is all that is asked, else CSV."""
    if r.target_format:
        return r.target_format
    only_export = [o.kind for o in r.ops if o.kind != "profile"] == ["export"]
    return "xlsx" if only_export and r.file and r.file.lower().endswith((".csv", ".tsv")) else "csv"



HELD_MARK = re.compile(r"_(?:结果|result)_[0-9a-f]{6}$")


def output_stem(r: Any, label: str | list[str]) -> str:
    """The name of a result file: the source's name, its sheet, and what was done (in the request's language)."""
    base = (r.file or "result").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    base = HELD_MARK.sub("", base) or base  # a kept result's own mark (_result_f57014) is no part of what the user sees
    if r.sheet and not any(o.kind == "stack" for o in getattr(r, "ops", ())):  # stacked sheets: the workbook's name
        base += f"_{r.sheet}"
    labels = [label] if isinstance(label, str) else list(label)
    if getattr(r, "lang", "zh") == "en":
        return "_".join([base, *dict.fromkeys(stem_word_en(w) for w in labels if w)])
    return f"{base}_{''.join(labels)}"


@lru_cache(maxsize=1)
def _stem_words() -> dict[str, str]:
    import tomllib

    return dict(tomllib.loads((Path(__file__).parent / "output_names.toml").read_text(encoding="utf-8"))["en"])


def stem_word_en(word: str) -> str:
    """The English word for a word of an output file's name (output_names.toml, then the operation's English label)."""
    if (m := re.fullmatch(r"前(\d+)(行?)", word)) is not None:
        return f"{'first' if m.group(2) else 'top'}{m.group(1)}"
    if (en := _stem_words().get(word)) is not None:
        return en
    for spec in opspec.all_ops():
        if spec.label.get("zh") == word and spec.label.get("en"):
            return re.sub(r"[^0-9A-Za-z]+", "_", spec.label["en"]).strip("_")
    return word if not re.search(r"[\u3400-\u9fff]", word) else "result"
