"""Rendering decisions, plan cards, results and traces with rich. Only repl/ prints."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from engine.session import TurnResult
from modes.lexicon import CONFIRM_WORDS
from tools.localise import action_en, done_en, reasons_en

PREVIEW_ROWS = 10
COMPACT_BELOW = 100  # terminal columns under which tables drop their borders and narrow their cells
CELL_CAP = (16, 24)  # widest a cell may be: compact, wide
MIN_CELL = 10  # a column narrower than its values is cut no further than this (a whole date still fits)

# C0/C1 controls, DEL, bidi overrides and lone surrogates never reach the terminal as they are.
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def safe(text: Any, one_line: bool = False) -> str:
    """Text from cells, files or users made safe for a terminal: controls shown as �; line breaks kept,
    or shown as spaces when `one_line` (a table cell, a note that must not wrap)."""
    s = str(text)
    if "\r" in s:
        s = s.replace("\r\n", "\n").replace("\r", "\n")
    if one_line and ("\n" in s or "\t" in s):
        s = s.replace("\n", " ").replace("\t", " ")
    return _UNSAFE.sub("\ufffd", s)


class Renderer:
    def __init__(self, console: Console) -> None:
        self.c = console

    def say(self, text: Any, style: str = "", one_line: bool = False) -> None:
        """Print one message; what it carries is never read as markup or control sequences."""
        if one_line:
            self.c.print(Text(safe(text, one_line=True), style=style, no_wrap=True, overflow="ellipsis"))
        else:
            self.c.print(Text(safe(text), style=style))

    @classmethod
    def plain(cls, width: int = 100) -> Renderer:
        return cls(Console(file=sys.stdout, width=width, no_color=True, highlight=False, emoji=False, soft_wrap=True))

    # -- a whole turn ------------------------------------------------------------------------
    def turn(self, tr: TurnResult) -> None:
        for n in tr.notices:
            self.say(n, "dim yellow")
        d = tr.decision
        zh = d.lang == "zh"
        if d.next == "plan_confirm" and tr.plan is not None:
            self.plan_card(tr)
            self.say(d.reply)
            return
        if d.next == "execute" and tr.plan is not None:
            if d.tier == "soft":
                self.say(("准备：" if zh else "About to: ") + tr.plan.goalSummary + ("……" if zh else "…"), "cyan")
            elif d.tier == "hard":
                self.say(("按方案执行：" if zh else "Running the plan: ") + tr.plan.goalSummary, "cyan")
            if tr.run is not None:
                self.result(tr)
            return
        style = {"reply": "", "cancel": "yellow", "ask_intent": "yellow", "ask_slots": "yellow", "restate_confirm": "magenta"}.get(d.next, "")
        self.say(d.reply, style)

    def plan_card(self, tr: TurnResult) -> None:
        p = tr.plan
        assert p is not None
        zh = tr.decision.lang == "zh"
        t = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        t.add_column("#" if not zh else "步骤", justify="right")
        t.add_column("action" if not zh else "动作")
        t.add_column("tool" if not zh else "工具")
        t.add_column("done when" if not zh else "完成标准")
        for s in p.steps:
            t.add_row(str(s.step), T(s.action if zh else action_en(s.toolHint)), T(s.toolHint), T(s.doneWhen if zh else done_en(s.doneWhen, s.toolHint)))
        why = f"{p.modeReason}；{p.planStyleReason}" if zh else reasons_en(f"{p.modeReason}；{p.planStyleReason}")
        head = Text.assemble(("目标：" if zh else "Goal: ", "bold"), safe(p.goalSummary), "\n",
                             ("为什么先出方案：" if zh else "Why a plan first: ", "bold"), safe(why), "\n")
        from rich.console import Group

        self.c.print(Panel(Group(head, t), title="方案卡" if zh else "Plan", border_style="blue", expand=False), soft_wrap=False)  # (wrapped inside the card)

    def result(self, tr: TurnResult) -> None:
        r = tr.run
        assert r is not None
        zh = tr.decision.lang == "zh"
        for title, df in r.reports:
            self.dataframe(df, title, limit=30)
        if r.table is not None and r.status == "answered" and not (r.reports and tr.plan is not None and tr.plan.steps[-1].toolHint in ("describe_columns", "correlate_columns", "compare_tables")):
            self.dataframe(r.table, *self._title(tr))
        if r.profile and tr.plan is not None and all(s.toolHint == "profile_dataset" for s in tr.plan.steps):
            self.columns(r.profile, zh)
        if r.answer:
            self.say(r.answer, "green")
        for n in r.notes:
            self.say(n, "yellow" if r.status == "answered" else "red")
        if r.status not in ("answered", "cancelled"):  # a cancelled run's note already says so
            label = {"insufficient_context": "证据不足" if zh else "insufficient context", "escalated": "已停止" if zh else "stopped",
                     "failed": "未完成" if zh else "not done"}.get(r.status, r.status)
            why = REASON_WORDS.get(r.fallback_reason or "", ("", ""))[0 if zh else 1]
            self.say(f"（{label}：{why}）" if zh and why else f"（{label}）" if zh else f"({label}: {why})" if why else f"({label})", "red")

    def _title(self, tr: TurnResult) -> tuple[str, int]:
        """The preview's title and how many rows it shows (the first N a preview asked for, or the usual few)."""
        r = tr.run
        assert r is not None
        n = len(r.table)
        zh = tr.decision.lang == "zh"
        shown = min(n, PREVIEW_ROWS if not tr.decision.request.op("profile") else (tr.decision.request.op("profile").args.get("head") or PREVIEW_ROWS))  # type: ignore[union-attr]
        return (f"结果预览（共 {n} 行，显示 {shown} 行）" if zh else f"Preview ({n} row{'' if n == 1 else 's'}, showing {shown})"), shown

    def dataframe(self, df: Any, title: str, limit: int = PREVIEW_ROWS) -> None:
        self.say(title, "bold")
        table, hidden = fit_table(df, limit, self.c.width)
        self.c.print(table)
        if hidden and any("\u4e00" <= ch <= "\u9fff" for ch in title):
            self.say(f"… 还有 {len(hidden)} 列未显示：{'、'.join(hidden[:8])}{'……' if len(hidden) > 8 else ''}", "dim", one_line=True)
        elif hidden:  # an English session's preview says it in English
            self.say(f"… {len(hidden)} more column{'' if len(hidden) == 1 else 's'} not shown: {', '.join(hidden[:8])}{' …' if len(hidden) > 8 else ''}",
                     "dim", one_line=True)

    def columns(self, prof: dict[str, Any], zh: bool) -> None:
        t = Table(title="列信息" if zh else "Columns", header_style="bold")
        t.add_column("列" if zh else "column")
        t.add_column("类型" if zh else "type")
        t.add_column("空值" if zh else "blanks", justify="right")
        for c in prof.get("column_info", []):
            t.add_row(T(c["name"]), T(c["type"] if zh else TYPE_EN.get(c["type"], c["type"])), str(c["blanks"]))
        self.c.print(t)

    def trace(self, run: dict[str, Any], zh: bool = True) -> None:
        """The audit record of a run: every turn of its request, then the run's events (in the session's language:
        in English, the checks are named in English and wenqing's own Chinese notes are left out of the summaries)."""
        turns = [*run.get("chain", []), {"turn": run["turn"], "utterance": run["utterance"], **_decided(run.get("decision"))}]
        if len(turns) > 1:
            t = Table(title="这次请求的每一轮" if zh else "Every turn of this request", header_style="bold")
            for h in ("轮", "输入", "闸门", "下一步", "缺少") if zh else ("turn", "input", "gate", "next", "missing"):
                t.add_column(h, overflow="fold")
            for c in turns:
                t.add_row(str(c["turn"]), T(c["utterance"]), c.get("gate") or "", c.get("next") or "", T(("、" if zh else ", ").join(c.get("missing") or [])))
            self.c.print(t)
        self.say(f"运行 {run['trace_id']} · 第 {run['turn']} 轮 · 状态 {run['status']}" if zh else
                 f"Run {run['trace_id']} · turn {run['turn']} · status {run['status']}", "bold")
        self.say(f"输入：{run['utterance']}" if zh else f"Input: {run['utterance']}")
        if run.get("fallback_reason"):
            self.say(f"fallback_reason：{run['fallback_reason']}" if zh else f"fallback_reason: {run['fallback_reason']}")
        t = Table(header_style="bold")
        for h in ("#", "节点", "状态转换", "约束", "已检查", "fallback", "模型", "输出摘要", "ms") if zh else \
                ("#", "node", "transition", "constraint", "checked", "fallback", "model", "outputs", "ms"):
            t.add_column(h, overflow="fold")
        for e in run.get("events", []):
            model = ("是" if e["model_called"] else "否") if zh else ("yes" if e["model_called"] else "no")
            t.add_row(str(e["seq"]), T(e["node"]), T(e["state_transition"]), T((e["constraint"] or "") if zh else _constraint_en(e)),
                      "✓" if e["constraint_evaluated"] else "", T(e["fallback_reason"] or ""), model, T(_brief(e.get("outputs"), zh)),
                      f"{e['duration_ms']:.1f}")
        self.c.print(t)
        if run.get("answer"):
            self.say(f"回答：{run['answer']}" if zh else f"Answer: {run['answer']}")

    def history(self, items: list[HistoryItem], zh: bool = True) -> None:
        """Requests, newest first, each with its result; # is the number /open takes."""
        if not items:
            self.say("还没有运行过的请求。" if zh else "No request has run yet.")
            return
        compact = self.c.width < COMPACT_BELOW
        t = Table(title="最近的请求" if zh else "Latest requests", header_style="bold", box=box.SIMPLE_HEAD if compact else box.HEAVY_HEAD,
                  show_edge=not compact)
        t.add_column("#", justify="right", no_wrap=True)
        t.add_column("请求" if zh else "request", overflow="fold")
        t.add_column("结果" if zh else "result", overflow="fold")
        t.add_column("ID", no_wrap=True)
        for i, h in enumerate(items, 1):
            t.add_row(str(i), T(h.request), T(h.outcome), h.trace_id[:8])
        self.c.print(t)


@dataclass(frozen=True)
class HistoryItem:
    """One request as /history shows it: the words that asked for it and what came of it."""

    trace_id: str
    request: str
    outcome: str
    files: tuple[str, ...]


CONFIRM_ONLY = frozenset(CONFIRM_WORDS)


def history_item(run: dict[str, Any], zh: bool = True, gone: Callable[[str], bool] | None = None) -> HistoryItem:
    """A run from the audit as a request and its result (rows in → out, files written; a file no longer there, such
    as an intermediate table moved out of outputs/ once the next step ran, is said to be gone)."""
    words = [c["utterance"] for c in run.get("chain", []) if c.get("next") != "ask_intent"] + [run["utterance"]]
    asked = [w for w in words if w.strip().casefold().rstrip("。.!！") not in CONFIRM_ONLY]
    plan = _loads(run.get("plan"))
    request = " → ".join(dict.fromkeys(asked)) or (plan or {}).get("goalSummary") or run["utterance"]
    files = tuple(f["path"] for f in (_loads(run.get("files")) or []) if isinstance(f, dict) and f.get("path"))
    rows_in = rows_out = None
    for e in run.get("events", []):
        if not str(e.get("node", "")).startswith("step:"):
            continue
        out = _loads(e.get("outputs")) or {}
        if rows_in is None or ("sheets" in out and "rows_in" in out):  # sheets stacked: the rows of all of them, never the first's
            rows_in = out.get("rows_in", out.get("rows"))
        if "rows_out" in out:
            rows_out = out["rows_out"]
    parts = []
    if rows_in is not None and zh:
        parts.append(f"{rows_in} 行 → {rows_out} 行" if rows_out is not None else f"{rows_in} 行")
    elif rows_in is not None:
        parts.append(f"{rows_in} → {rows_out} rows" if rows_out is not None else f"{rows_in} rows")
    for f in files:
        if gone is not None and gone(f):
            parts.append(f"{f} 已不在 outputs/（中间结果可用 /show 查看）" if zh else f"{f} is no longer in outputs/ (an intermediate table: /show shows it)")
        else:
            parts.append(f"已保存 {f}" if zh else f"saved {f}")
    status = run.get("status") or ""
    if not files and run.get("answer") and status == "answered":
        parts.append(clip(safe(run["answer"], one_line=True), 60))
    said = STATUS_ZH.get(status, status) if zh else status.replace("_", " ")
    if status != "answered":
        reason = run.get("fallback_reason")
        parts.append(said + ((f"（{reason}）" if zh else f" ({reason})") if reason else ""))
    return HistoryItem(run["trace_id"], request, ("；" if zh else "; ").join(parts) or said, files)


# the reason a run stopped, in words (the code itself stays in the audit record and the events)
REASON_WORDS = {
    "bad_argument": ("这一步不适用于这份数据", "a step does not fit this data"),
    "column_absent": ("用到的列不在表里", "a column it needs is not in the table"),
    "file_missing": ("文件不存在", "the file does not exist"),
    "parse_failed": ("文件读不了", "the file cannot be read"),
    "outside_workspace": ("路径在工作区之外", "the path is outside the workspace"),
    "write_failed": ("结果没能写入", "the result could not be written"),
    "no_rows_match": ("没有满足条件的行", "no rows match"),
    "period_absent": ("数据里没有这个时间段", "the period is not in the data"),
    "dates_unreadable": ("日期读不出来", "the dates cannot be read"),
    "formulas_uncached": ("公式没有缓存的结果", "the formulas have no cached values"),
}

TYPE_EN = {"布尔": "boolean", "整数": "integer", "小数": "decimal", "日期": "date", "文本": "text"}  # a profile's column types
STATUS_ZH = {"answered": "完成", "insufficient_context": "证据不足", "escalated": "已停止", "failed": "失败",
             "cancelled": "已取消", "waiting": "等待确认", "running": "未完成"}


def _loads(raw: Any) -> Any:
    if not isinstance(raw, str):
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        return None


def _decided(raw: Any) -> dict[str, Any]:
    d = _loads(raw) or {}
    return {"gate": d.get("gate"), "next": d.get("next"), "missing": d.get("missing")}


def T(text: Any, style: str = "") -> Text:
    """A table cell that is shown as it is (no markup, no control sequences)."""
    return Text(safe(text, one_line=True), style=style)


BRIEF_KEYS = ("gate", "next", "rule", "missing", "mode_reason", "rows", "rows_in", "rows_out", "path", "message", "revised",
              "tokens_in", "tokens_out", "error", "tokens_used", "attempts", "unsupported")


CJK_CHAR = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


# the checks the audit names, in English (the record itself keeps the Chinese text it was written with)
CONSTRAINTS_EN = {
    "澄清闸门：理解是否足以行动": "clarification gate: is the understanding enough to act",
    "按顺序匹配模式表": "modes tried in order",
    "下一步需要的列都存在": "the columns the next step needs exist",
    "工具对这些数据可用": "the tool fits this data",
    "工具执行成功": "the tool ran",
    "文本写的数字、日期按值读取，读不出的行要说明": "numbers and dates written as text are read as values; cells that do not read are said",
    "模型输出按 schema 和工作区校验": "model output checked against the schema and the workspace",
    "每列的类型对整个文件成立": "each column's type holds over the whole file",
    "没有引入空值或改变列类型": "no blanks introduced, no column type changed",
    "答案里的每个数字都能在工具结果中找到": "every figure in the answer is in the tools' results",
    "证据足以回答": "the evidence answers the request",
}


def _constraint_en(e: dict[str, Any]) -> str:
    c = str(e.get("constraint") or "")
    if c in CONSTRAINTS_EN:
        return CONSTRAINTS_EN[c]
    if not CJK_CHAR.search(c):
        return c
    try:
        tool = (json.loads(e["inputs"]) if isinstance(e.get("inputs"), str) else e.get("inputs") or {}).get("tool")
    except (ValueError, AttributeError):
        tool = None
    if c.startswith("doneWhen") or tool:
        return f"doneWhen: {done_en(c, tool)}"
    if "token" in c:
        return "model budget per request"
    return "checked"


def _brief(raw: Any, zh: bool = True) -> str:
    """A one-line summary of an event's outputs (in English, wenqing's Chinese notes are left out)."""
    try:
        data = json.loads(raw) if isinstance(raw, str) else (raw or {})
    except ValueError:
        return str(raw)[:60]
    if not isinstance(data, dict):
        return str(data)[:60]
    parts = [f"{k}={data[k]}" for k in BRIEF_KEYS if k in data and data[k] not in (None, [], "") and (zh or not CJK_CHAR.search(str(data[k])))]
    return ", ".join(parts)[:90]


def _cell(v: Any) -> str:
    if v is None or type(v).__name__ in ("NaTType", "NAType"):
        return ""  # a blank date or a missing value shows blank, never NaT / <NA>
    if isinstance(v, float):
        if v != v:
            return ""
        if v.is_integer():
            return str(int(v))
        return f"{v:.4g}" if abs(v) < 100 else f"{v:.2f}".rstrip("0").rstrip(".")
    if hasattr(v, "strftime"):
        try:
            return v.strftime("%Y-%m-%d") if (v.hour, v.minute, v.second) == (0, 0, 0) else v.strftime("%Y-%m-%d %H:%M")
        except (ValueError, AttributeError):
            return str(v)
    return str(v)


def fit_table(df: Any, limit: int, width: int) -> tuple[Table, list[str]]:
    """A preview that fits `width` terminal cells: the columns that fit, cells cut with … by display width.

    Returns the table and the names of the columns left out. No value is ever wrapped onto a second line.
    """
    rows = [[_cell(v) for v in row] for row in df.head(limit).itertuples(index=False, name=None)]
    return fit_rows([str(c) for c in df.columns], rows, width)


def fit_rows(columns: list[str], cells: list[list[str]], width: int) -> tuple[Table, list[str]]:
    """`fit_table` for rows of text."""
    compact = width < COMPACT_BELOW
    cap = CELL_CAP[0] if compact else CELL_CAP[1]
    names = [safe(c, one_line=True) for c in columns]
    rows = [[safe(v, one_line=True) for v in row] for row in cells]
    full = [max(1, cell_len(n), *(cell_len(r[i]) for r in rows)) for i, n in enumerate(names)]
    natural = [min(cap, w) for w in full]
    least = [min(w, MIN_CELL) for w in natural]

    def overhead(k: int) -> int:
        return 3 * (k - 1) if compact else 3 * k + 1

    keep = 0
    while keep < len(names) and sum(least[: keep + 1]) + overhead(keep + 1) <= width:
        keep += 1
    keep = max(keep, 1)
    widths = least[:keep]
    room = width - overhead(keep) - sum(widths)
    for want in (natural, full):  # spare cells, one at a time: first up to the cap, then to whole values
        while room > 0:
            grew = False
            for i in range(keep):
                if room > 0 and widths[i] < want[i]:
                    widths[i] += 1
                    room -= 1
                    grew = True
            if not grew:
                break
    widths = [max(1, min(w, width - overhead(keep))) for w in widths]
    if compact:
        t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="bold")
    else:
        t = Table(header_style="bold")
    for i in range(keep):
        t.add_column(Text(clip(names[i], widths[i]), no_wrap=True, overflow="ellipsis"), width=widths[i], no_wrap=True, overflow="ellipsis")
    for r in rows:
        t.add_row(*[Text(clip(v, widths[i]), no_wrap=True, overflow="ellipsis") for i, v in enumerate(r[:keep])])
    return t, names[keep:]


def clip(text: str, width: int) -> str:
    """`text` cut to `width` terminal cells with a closing …, never half a wide character."""
    if cell_len(text) <= width:
        return text
    out, used = [], 0
    for ch in text:
        w = cell_len(ch)
        if used + w > width - 1:
            break
        out.append(ch)
        used += w
    return "".join(out) + "…"

