"""A session: understanding, planning and running one turn at a time, with the audit record."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.audit import Audit
from engine.catalog import CatalogCache
from engine.executor import RunResult, execute
from engine.plan import Plan, plan_for
from modes.catalog import Catalog
from modes.decision import Decision, SessionState
from modes.gate import decide
from tools.io import TableCache
from tools.workspace import Workspace


@dataclass
class TurnResult:
    turn: int
    utterance: str
    decision: Decision
    plan: Plan | None
    run: RunResult | None = None
    trace_id: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)


def decision_json(d: Decision, plan: Plan | None, item_id: str | None = None) -> dict[str, Any]:
    """The decision line of SPEC §3."""
    out: dict[str, Any] = {}
    if item_id is not None:
        out["id"] = item_id
    out.update(
        gate=d.gate, next=d.next, mode=d.mode, tier=d.tier, confidence=round(d.confidence, 2),
        slots=_jsonable(d.slots), missing=list(d.missing), reply=d.reply, plan=plan.to_dict() if plan else None,
        mode_reason=d.mode_reason, rule=d.rule, lowered_by=list(d.lowered_by),
    )
    if d.request.candidates and d.gate == "clarify":
        out["candidates"] = list(d.request.candidates)
    return out


def _jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if hasattr(v, "to_tool"):
        return v.to_tool()
    return v


class Session:
    """One user's conversation with a workspace. The REPL and `chat --script` drive it."""

    def __init__(self, ws: Workspace, dry_run: bool = False, clock: Callable[[], float] = time.time,
                 audit: Audit | None = None, cache: CatalogCache | None = None) -> None:
        self.ws = ws
        self.dry_run = dry_run
        self.clock = clock
        self.state = SessionState()
        self.cache = cache or CatalogCache()
        self.audit = audit if audit is not None else (Audit.in_memory() if dry_run else Audit.open(ws))
        self.last_run_id: str | None = None
        self.last_files: list[str] = []
        self.last_executed: tuple[Plan, Decision] | None = None
        self.tables = TableCache()
        self.on_step: Callable[[int, int, str], None] | None = None
        if not dry_run:
            ws.remove_stray_temporaries()

    def catalog(self) -> Catalog:
        return self.cache.build(self.ws)

    def forget(self) -> None:
        self.state = SessionState()

    def undo(self) -> list[str]:
        """Remove the files the last run wrote (only files recorded as written by wenqing, only in outputs/)."""
        removed: list[str] = []
        for rel in self.last_files:
            p = self.ws.root / rel
            if rel.startswith("outputs/") and p.is_file() and self.ws.inside(p):
                p.unlink()
                removed.append(rel)
        self.last_files = []
        return removed

    def turn(self, utterance: str) -> TurnResult:
        catalog = self.catalog()
        started = time.perf_counter()
        before = self.state
        decision, self.state = decide(self.state, utterance, catalog)
        plan = plan_for(decision, catalog)
        n = self.state.turn
        tr = TurnResult(n, utterance, decision, plan)
        trace_id = uuid.uuid4().hex[:12]
        tr.trace_id = trace_id
        ev = {"event": "decision", "turn": n, "gate": decision.gate, "next": decision.next, "mode": decision.mode,
              "tier": decision.tier, "confidence": round(decision.confidence, 2), "slots": _jsonable(decision.slots),
              "missing": list(decision.missing), "plan": plan.to_dict() if plan else None, "mode_reason": decision.mode_reason,
              "rule": decision.rule, "reply": decision.reply}
        tr.events.append(ev)
        self.audit.start_run(trace_id, n, utterance, decision_json(decision, plan), self.clock())
        self.audit.event(trace_id, "gate", f"{_stage(before)} -> {decision.gate}", "澄清闸门：理解是否足以行动",
                         True, None, {"utterance": utterance[:200]}, {"gate": decision.gate, "next": decision.next,
                         "missing": list(decision.missing), "rule": decision.rule}, (time.perf_counter() - started) * 1000)
        self.audit.event(trace_id, "mode", f"{decision.gate} -> {decision.mode}/{decision.tier}", "按顺序匹配模式表",
                         True, None, {}, {"mode_reason": decision.mode_reason, "confidence": decision.confidence}, 0)
        if decision.next == "execute" and plan is not None and not self.dry_run:
            run = execute(plan, decision, self.ws, self.audit, trace_id, cache=self.tables, on_step=self.on_step)
            tr.run = run
            for s in run.steps:
                tr.events.append({"event": "step", "turn": n, "step": s.step, "tool": s.tool, "status": s.status, "facts": s.facts})
            for f in run.files:
                tr.events.append({"event": "file_written", "turn": n, **f})
            tr.events.append({"event": "run", "turn": n, "trace_id": trace_id, "status": run.status, "answer": run.answer,
                              "fallback_reason": run.fallback_reason})
            self.audit.finish_run(trace_id, run.status, run.answer, run.fallback_reason, self.clock(), plan.to_dict(), run.files)
            self.last_files = [f["path"] for f in run.files]
            if run.status == "answered":
                self.last_executed = (plan, decision)
            if run.current_file:
                self.state = self.state.evolve(current_file=run.current_file)
        else:
            status = "cancelled" if decision.next == "cancel" else "waiting" if decision.next in ("restate_confirm", "plan_confirm", "ask_slots", "ask_intent") else "answered"
            tr.events.append({"event": "run", "turn": n, "trace_id": trace_id, "status": status if status != "waiting" else "answered",
                              "answer": decision.reply or None, "fallback_reason": None, "waiting_for": decision.next if status == "waiting" else None})
            self.audit.finish_run(trace_id, status, decision.reply, None, self.clock(), plan.to_dict() if plan else None, [])
        self.last_run_id = trace_id
        return tr


def _stage(state: SessionState) -> str:
    if state.pending is None:
        return "idle"
    return "pending_clarify" if state.pending.stage == "clarify" else "pending_confirm"

