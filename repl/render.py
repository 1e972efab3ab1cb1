"""Rendering decisions, plan cards, results and traces with rich. Only repl/ prints."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from engine.session import TurnResult

PREVIEW_ROWS = 10


class Renderer:
    def __init__(self, console: Console) -> None:
        self.c = console

    @classmethod
    def plain(cls, width: int = 100) -> Renderer:
        return cls(Console(file=sys.stdout, width=width, no_color=True, highlight=False, emoji=False, soft_wrap=True))

    # -- a whole turn ------------------------------------------------------------------------
    def turn(self, tr: TurnResult) -> None:
        for n in tr.notices:
            self.c.print(Text(n, style="dim yellow"))
        d = tr.decision
        zh = d.lang == "zh"
        if d.next == "plan_confirm" and tr.plan is not None:
            self.plan_card(tr)
            self.c.print(d.reply)
            return
        if d.next == "execute" and tr.plan is not None:
            if d.tier == "soft":
                self.c.print(Text(("准备：" if zh else "About to: ") + tr.plan.goalSummary + ("……" if zh else "…"), style="cyan"))
            elif d.tier == "hard":
                self.c.print(Text(("按方案执行：" if zh else "Running the plan: ") + tr.plan.goalSummary, style="cyan"))
            if tr.run is not None:
                self.result(tr)
            return
        style = {"reply": "", "cancel": "yellow", "ask_intent": "yellow", "ask_slots": "yellow", "restate_confirm": "magenta"}.get(d.next, "")
        self.c.print(Text(d.reply, style=style))

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
            t.add_row(str(s.step), s.action, s.toolHint, s.doneWhen)
        head = Text.assemble(("目标：" if zh else "Goal: ", "bold"), p.goalSummary, "\n",
                             ("为什么先出方案：" if zh else "Why a plan first: ", "bold"), p.modeReason, "；" if zh else "; ", p.planStyleReason, "\n")
        from rich.console import Group

        self.c.print(Panel(Group(head, t), title="方案卡" if zh else "Plan", border_style="blue", expand=False))

    def result(self, tr: TurnResult) -> None:
        r = tr.run
        assert r is not None
        zh = tr.decision.lang == "zh"
        for title, df in r.reports:
            self.dataframe(df, title, limit=30)
        if r.table is not None and r.status == "answered" and not (r.reports and tr.plan is not None and tr.plan.steps[-1].toolHint in ("describe_columns", "correlate_columns", "compare_tables")):
            self.dataframe(r.table, self._title(tr))
        if r.profile and tr.plan is not None and all(s.toolHint == "profile_dataset" for s in tr.plan.steps):
            self.columns(r.profile, zh)
        if r.answer:
            self.c.print(Text(r.answer, style="green"))
        for n in r.notes:
            self.c.print(Text(n, style="yellow" if r.status == "answered" else "red"))
        if r.status != "answered":
            label = {"insufficient_context": "证据不足" if zh else "insufficient context", "escalated": "已停止" if zh else "stopped",
                     "failed": "失败" if zh else "failed"}.get(r.status, r.status)
            self.c.print(Text(f"[{label}: {r.fallback_reason}]", style="red"))

    def _title(self, tr: TurnResult) -> str:
        r = tr.run
        assert r is not None
        n = len(r.table)
        zh = tr.decision.lang == "zh"
        shown = min(n, PREVIEW_ROWS if not tr.decision.request.op("profile") else (tr.decision.request.op("profile").args.get("head") or PREVIEW_ROWS))  # type: ignore[union-attr]
        return f"结果预览（共 {n} 行，显示 {shown} 行）" if zh else f"Preview ({n} rows, showing {shown})"

    def dataframe(self, df: Any, title: str, limit: int = PREVIEW_ROWS) -> None:
        if "共" in title and "显示" in title:
            try:
                limit = int(title.split("显示 ")[1].split(" ")[0])
            except (IndexError, ValueError):
                pass
        self.c.print(Text(title, style="bold"))
        t = Table(show_lines=False, header_style="bold")
        cols = [str(c) for c in df.columns][:12]
        for c in cols:
            t.add_column(c, overflow="fold", max_width=24)
        for row in df.head(limit).itertuples(index=False, name=None):
            t.add_row(*[_cell(v) for v in row[: len(cols)]])
        self.c.print(t)

    def columns(self, prof: dict[str, Any], zh: bool) -> None:
        t = Table(title="列信息" if zh else "Columns", header_style="bold")
        t.add_column("列" if zh else "column")
        t.add_column("类型" if zh else "type")
        t.add_column("空值" if zh else "blanks", justify="right")
        for c in prof.get("column_info", []):
            t.add_row(c["name"], c["type"], str(c["blanks"]))
        self.c.print(t)

    def trace(self, run: dict[str, Any]) -> None:
        if run.get("chain"):
            t = Table(title="这次请求的前几轮", header_style="bold")
            for h in ("轮", "输入", "闸门", "下一步", "缺少"):
                t.add_column(h, overflow="fold")
            for c in run["chain"]:
                t.add_row(str(c["turn"]), c["utterance"], c["gate"] or "", c["next"] or "", "、".join(c.get("missing") or []))
            self.c.print(t)
        self.c.print(Text(f"运行 {run['trace_id']} · 第 {run['turn']} 轮 · 状态 {run['status']}", style="bold"))
        self.c.print(f"输入：{run['utterance']}")
        if run.get("fallback_reason"):
            self.c.print(f"fallback_reason：{run['fallback_reason']}")
        t = Table(header_style="bold")
        for h in ("#", "节点", "状态转换", "约束", "已检查", "fallback", "模型", "输出摘要", "ms"):
            t.add_column(h, overflow="fold")
        for e in run.get("events", []):
            t.add_row(str(e["seq"]), e["node"], e["state_transition"], e["constraint"] or "", "✓" if e["constraint_evaluated"] else "",
                      e["fallback_reason"] or "", "是" if e["model_called"] else "否", _brief(e.get("outputs")), f"{e['duration_ms']:.1f}")
        self.c.print(t)
        if run.get("answer"):
            self.c.print(f"回答：{run['answer']}")

    def history(self, runs: list[dict[str, Any]]) -> None:
        t = Table(title="最近的运行", header_style="bold")
        for h in ("ID", "轮", "输入", "状态"):
            t.add_column(h, overflow="fold")
        for r in runs:
            t.add_row(r["trace_id"], str(r["turn"]), r["utterance"][:40], r["status"])
        self.c.print(t)


BRIEF_KEYS = ("gate", "next", "rule", "missing", "mode_reason", "rows", "rows_in", "rows_out", "path", "message", "revised",
              "tokens_in", "tokens_out", "error", "tokens_used", "attempts", "unsupported")


def _brief(raw: Any) -> str:
    """A one-line summary of an event's outputs."""
    try:
        data = json.loads(raw) if isinstance(raw, str) else (raw or {})
    except ValueError:
        return str(raw)[:60]
    if not isinstance(data, dict):
        return str(data)[:60]
    parts = [f"{k}={data[k]}" for k in BRIEF_KEYS if k in data and data[k] not in (None, [], "")]
    return ", ".join(parts)[:90]


def _cell(v: Any) -> str:
    if v is None:
        return ""
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
