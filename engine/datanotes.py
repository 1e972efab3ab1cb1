"""Short notes about the data a result rests on, said with the answer: labels that differ only in spaces or letter
case and were counted apart (" 华东" beside "华东", Active beside active), repeated rows in a top-N result, and repeated
rows counted (by a row count or a summary)."""

from __future__ import annotations

from typing import Any

from tools.outofcore import is_big

KEYED = {"group_summarize": "keys", "top_n_per_group": "by", "top_n": "within", "pivot_table": "rows", "share_of_total": "keys", "column_stats": "by", "proportion_where": "by"}
RANKED = ("top_n", "top_n_per_group")
SHOWN = 3


def _is_frame(x: Any) -> bool:
    return hasattr(x, "columns") and hasattr(x, "duplicated") and hasattr(x, "iloc")


def _near_labels(column: Any) -> list[list[str]]:
    """The groups of distinct labels of a column that are one label once spaces and letter case are set aside."""
    seen: dict[str, list[str]] = {}
    for v in column.dropna().unique():
        if isinstance(v, str):
            seen.setdefault(v.strip().casefold(), []).append(v)
    return [sorted(g) for g in seen.values() if len(g) > 1]


COUNTING = ("group_summarize", "pivot_table")


def _keys(tool: str, args: dict[str, Any]) -> list[str]:
    k = args.get(KEYED.get(tool, ""), None)
    return [k] if isinstance(k, str) else [str(c) for c in (k or [])]


def step_notes(tool: str, args: dict[str, Any], before: Any, after: Any, lang: str) -> list[str]:
    """What to say about one step's data: near-duplicate labels among its group keys, repeated rows it ranked."""
    zh = lang == "zh"
    notes: list[str] = []
    if _is_frame(before):
        for key in _keys(tool, args):
            if key not in before.columns:
                continue
            near = _near_labels(before[key])
            if near:
                pairs = ("；" if zh else "; ").join(("、" if zh else ", ").join(f"“{v}”" if zh else f"'{v}'" for v in g) for g in near[:SHOWN])
                notes.append(f"注意：{key} 里有只差空格或大小写的写法（{pairs}），按原样分开算了；要合并可先清洗（去掉首尾空格、统一大小写）再算。" if zh
                             else f"Note: {key} has labels that differ only in spaces or letter case ({pairs}); they were counted apart as written. "
                                  "To merge them, clean the column first (trim spaces, one letter case).")
    if tool == "filter_rows" and _is_frame(before):
        notes += [n for c in args.get("conditions", []) if (n := _other_case(c, before, zh))]
    if tool in COUNTING and _is_frame(before):
        repeated = int(before.duplicated().sum())  # rows summarised per group, some of them exact copies of another
        if repeated:
            notes.append(f"注意：汇总的行里有 {repeated} 行与另一行完全相同（数据里的重复行），都计入了；如每条只算一次，可先去重再汇总。" if zh
                         else f"Note: {repeated} of the rows summarised {'repeats' if repeated == 1 else 'repeat'} another row exactly "
                              "(duplicate rows in the data) and each was counted in; deduplicate first to count each once.")
    if tool in RANKED and _is_frame(after) and len(after):
        repeated = int(after.duplicated().sum())
        if repeated:
            notes.append(f"注意：结果里有 {repeated} 行与另一行完全相同（数据里的重复行）；如不想重复计入，可先去重再取。" if zh
                         else f"Note: {repeated} row(s) of the result repeat another row exactly (duplicate rows in the data); "
                              "deduplicate first if they should count once.")
    return notes


def _other_case(cond: dict[str, Any], table: Any, zh: bool) -> str:
    """A condition on a text value, where other rows hold the same value in another letter case: how many, said."""
    said = cond.get("value") if cond.get("op") in ("eq", "in", "ne", "not_in") else None
    values = [v for v in (said if isinstance(said, list) else [said]) if isinstance(v, str)]
    col = cond.get("column")
    if not values or col not in table.columns or table[col].dtype.kind not in "OSU":
        return ""
    import pandas as pd

    exact = {v.strip() for v in values}
    folded = {v.casefold() for v in exact}
    kinds = pd.Series(table[col].dropna().unique()).astype(str).str.strip()  # each spelling once, then the rows of the others
    spellings = set(kinds[kinds.str.casefold().isin(folded) & ~kinds.isin(exact)])
    if not spellings:
        return ""
    cells = table[col].dropna().astype(str).str.strip()
    other = cells[cells.isin(spellings)]
    if other.empty:
        return ""
    spelled = ("、" if zh else ", ").join(sorted(set(other))[:SHOWN])
    return (f"注意：{col} 里另有 {len(other)} 行写作 {spelled}（只差大小写），没有按 {'、'.join(sorted(exact))} 算。" if zh
            else f"Note: {len(other)} more row(s) of {col} read {spelled} (only the letter case differs) and were not taken as {', '.join(sorted(exact))}.")


def repeated_rows(table: Any, zh: bool) -> list[str]:
    """Rows counted, where some repeat another row exactly: how many, said beside the count (never removed unasked)."""
    if not _is_frame(table) or is_big(table):
        return []
    n = int(table.duplicated().sum())
    if not n:
        return []
    return [f"注意：其中 {n} 行与另一行完全相同（重复行），都计入了；去重后是 {len(table) - n} 行。" if zh
            else f"Note: {n} of these rows {'is an exact copy' if n == 1 else 'are exact copies'} of another row (duplicate rows), counted; without {'it' if n == 1 else 'them'}, {len(table) - n}."]
