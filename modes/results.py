"""Results as inputs: which earlier table a request works on.

The last result (a file written to outputs/ or a table only shown, kept under .wenqing/results/) is the input
of a request that refers to it (在这个结果里 / 刚才的结果 / then …), whatever words of the request also describe the
source file (订单 in 平均订单金额 describes 销售订单.csv, yet the request is about the result). A request completed
or corrected over several turns keeps the table its first turn worked on. A file of outputs/ named by its
path or by a name only outputs/ has is that file, read as an input and never written over.
"""

from __future__ import annotations

import re

from modes import lexicon as lx
from modes.catalog import Catalog, FileInfo
from modes.decision import Request, SessionState
from modes.replies import HELD, NAMED

OUTPUTS = "outputs/"
# a file name with a spreadsheet extension, with or without the outputs/ folder before it
# (read from each extension back to the name's start: a long run of dots costs one pass, never a pass per position)
TABLE_EXT = re.compile(r"\.(?:csv|xlsx|xlsm|xls|tsv|ods)(?![a-z_])", re.I)
NAME_CHAR = re.compile(r"[\w\-.()（）\u4e00-\u9fff]")
OUTPUTS_BEFORE = re.compile(r"outputs\s*[/\\]\s*$", re.I)


def named_tables(text: str) -> list[tuple[str, bool]]:
    """(the file name, whether outputs/ is written before it) for every name with a spreadsheet extension."""
    out: list[tuple[str, bool]] = []
    floor = 0
    for m in TABLE_EXT.finditer(text):
        i = m.start()
        while i > floor and m.start() - i < 200 and NAME_CHAR.match(text, i - 1):
            i -= 1
        if i < m.start():
            out.append((text[i : m.end()], OUTPUTS_BEFORE.search(text, max(0, i - 12), i) is not None))
        floor = m.end()
    return out

# an export that names nothing else: what was just shown is what is exported
EXPORT_ALONE = re.compile(r"(?:(?:那|那就|就|好|好的|行|嗯|ok|okay|then|now|please|请|帮我|麻烦|再|也)[\s,，]*)*"
                          r"(?:把\s*(?:刚才的?|刚刚的?|上面的?)?\s*(?:这个|这|它|那个|这张表|这个表|这个结果|结果)\s*)?"
                          r"(?:导出来?|输出|另存|保存|存成|存为|存一下|存下来|转成|转为|下载|命名为|文件名叫|export|save|download|write|(?:name|call)\s+(?:it|the\s+file|the\s+output|the\s+export))\s*"
                          r"(?:it|this|that|them|the result)?\s*(?:成|为|到|as|to|into)?\s*"
                          r"(?:一下|一份|an?)?\s*(?:xlsx|csv|excel|表格)?\s*(?:格式|文件|file)?\s*"
                          # … called clerk_avg.xlsx / name the file clerk_avg.xlsx: the name it is written under
                          r"(?:[\s,，]*(?:called|named|文件名(?:叫|为|是)|名字叫|叫做?|名为)?\s*[\"'“]?[\w\-.\u4e00-\u9fff]{1,60}\.(?:xlsx|csv)[\"'”]?)?\s*"
                          r"(?:吧|哈|啊|呀|please|thanks|谢谢)?\s*[。.!！~]?", re.I)


def is_result(path: str | None) -> bool:
    """A table wenqing produced: a file of outputs/ or a result kept after it was shown."""
    return bool(path) and path.startswith((OUTPUTS, HELD, NAMED))  # type: ignore[union-attr]


def outputs_named(text: str, outputs: list[str], sources: set[str]) -> list[str]:
    """The files of outputs/ the text names: by the outputs/ path, or by a name no source file has."""
    if "." not in text:
        return []
    by_name = {p.rsplit("/", 1)[-1].casefold(): p for p in outputs}
    found = []
    for raw, in_outputs in named_tables(text):
        name = raw.casefold()
        if name in by_name and (in_outputs or name not in sources):
            found.append(by_name[name])
    return found


def scope(ref_how: str, ref_path: str | None, norms: list[str], state: SessionState, catalog: Catalog,
          goes_on: bool) -> FileInfo | None:
    """The earlier result this request works on, or None when it works on the file it names (or on none).

    - 在这个结果里… / then …: the last result, unless the request names another file by its name (a word that only
      describes a source file, or the current file, does not take it away);
    - a request completed over turns (a correction, an answer, an added condition): the result its earlier turns
      worked on, unless the latest turn names a file;
    - outputs/x.csv named: that file (it is found by name like any file: see Catalog.name_needles)."""
    said = bool(lx.RESULT_REF.search(norms[-1]))
    last = catalog.get(state.last_result) if state.last_result else None
    waits = state.pending
    if said and waits is not None and waits.stage == "confirm" and waits.request.file and not is_result(waits.request.file) \
            and any(o.kind in ("filter", "top_n", "head", "dedupe") for o in waits.request.ops):
        return None  # how many of them were on weekends, while kept rows wait to be confirmed: those rows, never the last result
    own = ref_how in ("none", "current", "current_missing", "missing", "type", "ambiguous")  # no other file named by name
    # a word that describes a file (订单) or is a near-miss of a name without its extension (算执行 ~ 预算执行) is weak
    by_stem = ref_how in ("named", "fuzzy") and ref_path is not None and ref_path.rsplit("/", 1)[-1].casefold() not in norms[-1].casefold()
    weak = ref_how == "description" or by_stem and not named_tables(norms[-1])  # 订单数 holds the stem of 订单.csv
    src = catalog.get(ref_path) if ref_path else None
    if weak and src is not None and len(src.sheets) > 1 and _sheet_of_its_own(src, norms[-1]) \
            and not (said and last is not None and _sheets_are_its_columns(src, last, norms[-1])):
        weak = False  # duplicate rentals in Dockyard? remove them: a sheet of the file named by its own name is no description
    if last is not None and (said or goes_on) and (own or said and weak or goes_on and weak and _made_from(last, ref_path, state)):
        return last
    if last is not None and weak and src is not None and _of_the_join_just_made(last, src, norms[-1], state):
        return last  # 加一列成本 = 花材枝数 * 成本单价, right after 花束成本.csv was joined on: the joined rows, never that table alone
    if last is not None and own and EXPORT_ALONE.fullmatch(lx.PURPOSE.sub("", norms[-1]).strip()):  # (…，我要发给经理)
        return last  # 导出 / 导出成xlsx / export it, right after a result: that result
    earlier = state.pending or state.last
    if len(norms) > 1 and earlier is not None and is_result(earlier.request.file) and (ref_how in ("none", "current", "current_missing") or weak):
        return catalog.get(earlier.request.file)
    return None


def _of_the_join_just_made(last: FileInfo, src: FileInfo, text: str, state: SessionState) -> bool:
    """A column computed (a formula, a column added) from columns of the result of a join just made with `src`, one of
    them a column `src` has not."""
    from modes.resolve import find_columns

    prev = state.last
    if prev is None or prev.request.op("join") is None or src.path not in prev.request.files or not last.sheets or not src.sheets:
        return False
    if not (re.search(r"[=＝]", text) or lx.ADD_COLUMN.search(text)):
        return False  # (only the rows: read by the rules of the chain)
    theirs = {h.column for h in find_columns(text, last.sheets[0]) if h.how == "exact"}
    own = {c.casefold() for c in src.sheets[0].columns}
    return bool(theirs) and any(c.casefold() not in own for c in theirs)


def _sheets_are_its_columns(f: FileInfo, last: FileInfo, text: str) -> bool:
    """in the last result, growth = ([2024] - [2023]) / [2023], after a pivot with a column per sheet: every sheet said
    is a column of that result, so the words name its columns, never the workbook's sheets."""
    from modes.resolve import _distinct_sheet

    cols = {c.casefold() for sh in last.sheets for c in sh.columns}
    said = [sh.name for sh in f.sheets if sh.name and _distinct_sheet(sh.name, text.casefold())]
    return bool(said) and all(n.casefold() in cols for n in said)


def _sheet_of_its_own(f: FileInfo, text: str) -> bool:
    from modes.resolve import _distinct_sheet

    return any(_distinct_sheet(sh.name, text.casefold()) for sh in f.sheets)


def in_focus(req: Request, current: str | None) -> str | None:
    """The file in focus after a request: the one it worked on, except that a question asked of the last result
    without pointing at it (数量加起来是多少 / 哪个区域最低) leaves the source file in focus for the next request."""
    if req.file_how == "result" and current and not is_result(current) and req.file and is_result(req.file) \
            and not lx.RESULT_REF.search(req.text or "") and not lx.THEN_START.search(req.text or ""):
        return current
    return req.file or current


def sheet_in_focus(req: Request, state: SessionState, focus: str | None) -> str | None:
    """The sheet in use after a request: its own on the file it worked on; the one in use before when the file in focus
    stays (an export of a summary leaves the workbook's sheet in use for the next question)."""
    if req.file == focus:
        return req.sheet
    return state.current_sheet if focus == state.current_file else None


def lost_rows(text: str, state: SessionState) -> bool:
    """Whether the words point at the rows of the last run (这些 / those) while no copy of them was kept."""
    return state.rows_not_kept and not state.last_result and lx.RESULT_REF.search(text) is not None


def _made_from(result: FileInfo, source: str | None, state: SessionState) -> bool:
    """Whether a source file is the one the result was made from (results are named after their source)."""
    if source is None:
        return False
    stem = source.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return source == state.current_file or result.name.startswith(stem + "_")
