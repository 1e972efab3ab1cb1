"""The ordered mode table: the first row whose predicate holds wins; the fallback is the last row."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from modes import opspec
from modes.decision import Request


def _family(r: Request, family: str) -> bool:
    """Whether the request has an operation of this family (the family is the OpSpec's)."""
    return any(s is not None and s.family == family for s in map(opspec.get, r.kinds()))


@dataclass(frozen=True)
class Row:
    mode: str
    when: Callable[[str, Request], bool]
    tier: str
    reason: str
    tier_reason: str


def _n_ops(r: Request) -> int:
    return len(r.ops)


MODES: tuple[Row, ...] = (
    Row("chat", lambda g, r: g == "chat", "none", "闲聊或关于问清本身的问题", "无需工具"),
    Row("clarify", lambda g, r: g in ("unknown", "clarify"), "none", "意图或关键信息不明确", "先问清楚再动手"),
    Row("plan_review", lambda g, r: r.plan_only, "hard", "用户要求先出方案", "只出方案，等待确认"),
    Row("plan_review", lambda g, r: r.full, "hard", "全面分析属于范围大的工作", "范围大，先出方案卡"),
    Row("plan_review", lambda g, r: r.overwrite, "hard", "请求会改动或覆盖已有文件", "涉及改写原文件，结果另存为新文件，先确认"),
    Row("plan_review", lambda g, r: _n_ops(r) >= 4, "hard", "一次包含四个或更多操作", "步骤多，先出方案卡"),
    Row("export_list", lambda g, r: r.intent == "export_list", "silent", "导出/列出工作区文件清单", "只读操作，直接执行"),
    Row("profile", lambda g, r: r.kinds() == ["profile"], "silent", "预览/描述数据，没有其他操作", "只读操作，直接执行"),
    Row("export_data", lambda g, r: r.kinds() == ["export"], "soft", "原样转换或导出表格", "涉及导出，先简短告知"),
    Row("transform", lambda g, r: _family(r, "transform") and not _family(r, "explore"), "soft", "匹配数据配方", "涉及改动数据或导出，先简短告知"),
    Row("explore", lambda g, r: _family(r, "explore"), "soft", "没有现成配方，由规划器组合工具", "多步探索，先简短告知"),
    Row("chat", lambda g, r: True, "none", "未匹配任何工作模式", "无需工具"),
)


def select_mode(gate: str, request: Request) -> Row:
    for row in MODES:
        if row.when(gate, request):
            return row
    return MODES[-1]
