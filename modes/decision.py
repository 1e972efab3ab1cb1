"""Decisions and session state as data."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

GATES = ("chat", "unknown", "clarify", "act")
NEXTS = ("reply", "ask_intent", "ask_slots", "restate_confirm", "plan_confirm", "execute", "cancel")
RESTATE_BELOW = 0.55
BASE_CONFIDENCE = 0.9  # a request whose every part was read by a rule, with nothing defaulted


@dataclass(frozen=True)
class Evidence:
    """One thing that bears on how sure the reading is: a factor, its weight (negative lowers), and why."""

    factor: str  # file | column | value | words | model | slot
    weight: float
    reason: str
    en: str = ""
    key: str = ""  # the row of modes/evidence_weights.py the weight was read from


@dataclass(frozen=True)
class Op:
    """One operation of a request, with resolved, typed arguments."""

    kind: str  # profile | filter | sort | group | dedupe | clean | select | add_column | top_n | export | compare | outliers | correlate | join | full_analysis | list_files | answer
    args: dict[str, Any] = field(default_factory=dict)
    after: bool = False  # the words place it after the operation before it (然后, 再, then): it runs on that result


@dataclass(frozen=True)
class Request:
    """What the user asked for, resolved against the workspace."""

    intent: str  # chat | unknown | work | export_list
    ops: tuple[Op, ...] = ()
    file: str | None = None
    files: tuple[str, ...] = ()
    sheet: str | None = None
    file_how: str = "none"
    candidates: tuple[str, ...] = ()
    missing_file_name: str | None = None
    missing: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    closest: tuple[str, ...] = ()
    offers: tuple[tuple[str, tuple[str, ...]], ...] = ()  # missing slot -> the columns that can fill it, when not every column can
    plan_only: bool = False
    overwrite: bool = False
    full: bool = False
    target_format: str | None = None
    header_row: int | None = None
    evidence: tuple[Evidence, ...] = ()
    unexplained: tuple[str, ...] = ()  # content words of the request that no rule read
    gaps: tuple[Any, ...] = ()  # modes.evidence.Gap: things asked for that no operation does
    chat_kind: str | None = None
    text: str = ""
    lang: str = "zh"
    given: Any = None  # (ops, Query): a query read from outside (a model's answer), kept while the ops are these

    @property
    def confidence(self) -> float:
        return round(min(1.0, max(0.0, BASE_CONFIDENCE + sum(e.weight for e in self.evidence))), 2)

    @property
    def lowered_by(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(e.reason for e in self.evidence if e.weight < 0 and e.reason))

    def offered(self, slot: str) -> tuple[str, ...]:
        """The columns a question about this slot lists: those that fit it."""
        return next((cols for m, cols in self.offers if m == slot), self.closest)

    def kinds(self) -> list[str]:
        return [o.kind for o in self.ops]

    def op(self, kind: str) -> Op | None:
        for o in self.ops:
            if o.kind == kind:
                return o
        return None


@dataclass(frozen=True)
class Pending:
    """A request waiting for slots (stage clarify) or for confirmation (stage confirm)."""

    turns: tuple[str, ...]
    stage: str
    request: Request
    mode: str
    tier: str
    waits_for: str = ""  # "period": only an answer to the question about a period's date column continues it
    source: Pending | None = None  # the request whose result this one ran on (a chain: 按车型汇总 → 按合计排序 → same for 2023)


def chained(state: SessionState, p: Pending) -> Pending:
    """A request about to run, with the request whose result it reads (the one that ran last) kept as its source."""
    last = state.last
    if last is not None and state.last_result and p.request.file == state.last_result and last.request.file != p.request.file:
        return replace(p, source=last)
    return p


@dataclass(frozen=True)
class SessionState:
    """Everything a session remembers between turns; /forget replaces it with a fresh one."""

    current_file: str | None = None
    current_sheet: str | None = None
    pending: Pending | None = None
    last: Pending | None = None  # the request that ran last, for corrections that come after it ran
    last_result: str | None = None  # the table the last run wrote to outputs/: the input of "在这个结果里…", "then …"
    rows_not_kept: bool = False  # the last run kept rows (a filter, a cut) of which no copy could be held
    turn: int = 0
    asked: tuple[str, str] = ("", "")  # the question the last turn asked, and the words shown: never asked again word for word
    failed_answers: int = 0  # answers in a row that fitted nothing the question asked for

    def evolve(self, **kw: Any) -> SessionState:
        return replace(self, **kw)


@dataclass(frozen=True)
class Decision:
    gate: str
    next: str
    mode: str
    tier: str
    confidence: float
    request: Request
    reply: str
    mode_reason: str
    plan_style_reason: str
    rule: str
    missing: tuple[str, ...] = ()
    lowered_by: tuple[str, ...] = ()
    lang: str = "zh"

    @property
    def slots(self) -> dict[str, Any]:
        r = self.request
        slots: dict[str, Any] = {"file": r.file}
        if len(r.files) > 1:
            slots["files"] = list(r.files)
        if r.sheet:
            slots["sheet"] = r.sheet
        for o in r.ops:
            if o.kind == "filter":
                slots["conditions"] = o.args.get("conditions")
                slots["logic"] = o.args.get("logic", "and")
            elif o.kind == "sort":
                slots["sort_by"] = o.args.get("by")
                slots["ascending"] = o.args.get("ascending")
            elif o.kind == "group":
                slots["group_by"] = o.args.get("keys")
                slots["measures"] = o.args.get("measures")
            elif o.kind == "select":
                slots["columns"] = o.args.get("columns")
            elif o.kind == "export":
                slots["output"] = o.args.get("format")
        if r.target_format and "output" not in slots:
            slots["output"] = r.target_format
        return slots
