"""A session: understanding, planning and running one turn at a time, with the audit record."""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.audit import Audit, AuditUnavailable
from engine.catalog import CatalogCache, named_outputs, result_info, small_talk
from modes import lexicon as lx
from modes import results
from modes.catalog import Catalog, FileInfo
from modes.decision import Decision, Pending, SessionState
from modes.query import query_of
from modes.replies import CONFIRM_EN, HELD, NAMED
from tools.errors import UserError
from tools.io import TableCache
from tools.workspace import Workspace
from tools.write import kept_bytes, safe_stem, save_state

if TYPE_CHECKING:  # the model layer (openai, pydantic) is imported only when a model is configured; understanding,
    # planning and running a turn when the first turn comes, so the prompt is ready before them
    from engine.assist import Assistant
    from engine.executor import RunResult
    from engine.model import CallLog, ModelConfig
    from engine.plan import Plan


@dataclass
class TurnResult:
    turn: int
    utterance: str
    decision: Decision
    plan: Plan | None
    run: RunResult | None = None
    trace_id: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


# steps whose result is the table before them with more columns or fewer rows (the focus moves on to it); a summary
# is a new table, and the rows it was made from stay in focus for a drill-down
KEEPS_THE_TABLE = frozenset({"add_column", "formula", "if_column", "bin", "sort", "filter", "top_n", "head", "dedupe", "clean", "rename",
                             "replace", "fill_method", "letter_case", "text_values", "round_numbers"})


class Session:
    """One user's conversation with a workspace. The REPL and `chat --script` drive it."""

    def __init__(self, ws: Workspace, dry_run: bool = False, clock: Callable[[], float] = time.time,
                 audit: Audit | None = None, cache: CatalogCache | None = None, model: ModelConfig | None = None,
                 model_sleep: Callable[[float], None] | None = None) -> None:
        self.ws = ws
        self.dry_run = dry_run
        self.clock = clock
        self.state = SessionState()
        from modes.tagging.segment import reset_data_words

        reset_data_words()  # the words of a workspace read earlier in this process are no words of this one
        self.cache = cache or CatalogCache()
        self.startup_notices: list[str] = []
        self.audit = audit if audit is not None else (Audit.in_memory() if dry_run else self._open_audit(ws))
        self.last_run_id: str | None = None
        self.last_files: list[str] = []
        self.last_identities: list[tuple[int, int, str] | None] = []
        self.undo_kept: list[str] = []
        self.last_executed: tuple[Plan, Decision] | None = None
        self.chain: list[tuple[Plan, Decision]] = []  # the runs that each went on from the result before: a recipe saves them all
        self.tables = TableCache()
        self.on_step: Callable[[int, int, str], None] | None = None
        import threading

        self.cancel = threading.Event()  # set by interrupt(): the running request stops at its next step boundary
        self.lang = "zh"  # the language the session speaks: the user's, from their last request (or /lang)
        self.lang_fixed: str | None = None
        self._trace: str | None = None
        self.assistant: Assistant | None = None
        self.model_plans: dict[tuple[str, str | None], Plan | None] = {}
        self.model_shown: set[tuple[str, str | None]] = set()  # model steps the user has seen restated
        self._result_info: dict[str, tuple[tuple[int, float], FileInfo]] = {}
        self.results: dict[str, str | None] = {}  # trace id -> the table that run produced (outputs/ or .wenqing/results/)
        self._moved: tuple[str, str] | None = None  # an intermediate table this turn moved out of outputs/: (from, to)
        self._unasked: tuple[str, str, Any, Any] | None = None  # the last run's table written to outputs/ unasked: (trace id, path, identity, table)
        self._warming: Any = None  # the thread loading what the first turn needs, while the user types
        if model is not None and model.configured:
            from engine.assist import Assistant

            self.assistant = Assistant.create(model, on_call=self._model_event, sleep=model_sleep)
        self.owner = _owner_folder()  # this session's folder under .wenqing/results/: pruned by this session alone
        if not dry_run:
            ws.remove_stray_temporaries()
            _sweep_orphans(ws.root / HELD)

    def _open_audit(self, ws: Workspace) -> Audit:
        """The workspace's record; when it truly cannot be opened the session says so and keeps a record in memory."""
        try:
            return Audit.open(ws)
        except AuditUnavailable as e:
            self.startup_notices.append(e.zh)
            return Audit.in_memory()

    def _model_event(self, c: CallLog) -> None:
        if self._trace:
            self.audit.event(self._trace, f"model:{c.purpose}", f"call -> {'ok' if c.ok else 'error'}", "模型输出按 schema 和工作区校验",
                             True, None if c.ok else (c.error or "").split(":")[0], {"purpose": c.purpose, "attempt": c.attempt},
                             {"tokens_in": c.tokens_in, "tokens_out": c.tokens_out, "error": c.error}, c.ms, model_called=True)

    def catalog(self, utterance: str = "") -> Catalog:
        """The workspace's files, and the results a request may read: the last result, the result the request
        waiting (or just run) works on, and the files of outputs/ the utterance names."""
        if small_talk(self.state.pending, utterance):
            return Catalog(())
        cat = self.cache.build(self.ws)
        earlier = [p.request.file for p in (self.state.pending, self.state.last) if p is not None]
        wanted = [self.state.last_result, *earlier, *named_outputs(self.ws, cat, utterance)]
        infos = [i for rel in dict.fromkeys(w for w in wanted if w and results.is_result(w)) if (i := self._result_file(rel)) is not None]
        return replace(cat, results=tuple(infos)) if infos else cat

    def _result_file(self, rel: str) -> FileInfo | None:
        """What is known of a result file, sampled once per version of the file."""
        p = self.ws.root / rel
        if not p.is_file():
            return None
        key = (p.stat().st_size, p.stat().st_mtime)
        known = self._result_info.get(rel)
        if known is None or known[0] != key:
            known = self._result_info[rel] = (key, result_info(p, rel))
        return known[1]

    def _model_plan(self, utterance: str, d: Decision, plan: Plan, catalog: Catalog, budget: Any) -> tuple[Decision, Plan]:
        """Explore steps from the model, once per request. Steps a model proposed run only after the user has
        seen them restated and confirmed; when they fail their checks twice, the built-in steps are offered."""
        assert self.assistant is not None
        key = (d.request.text, d.request.file)
        if key in self.model_plans:
            planned = self.model_plans[key]
            if planned is None:
                return d, plan
            if d.rule == "confirm_pending" and key in self.model_shown:
                return d, planned
            return self._restate_model_steps(d, planned), planned
        planned, errors = self.assistant.plan(d, plan, catalog, budget)
        self.model_plans[key] = planned
        if planned is not None:
            return self._restate_model_steps(d, planned), planned
        if d.next != "execute":
            return d, plan
        why = "；".join(errors[:3]) or "模型没有回答"
        reply = (f"我没能规划出通过校验的步骤（{why}）。可以按内置步骤执行：{plan.goalSummary}。取消请回复'取消'；确认请回复'继续'" if d.lang == "zh"
                 else f"I could not plan steps that pass the checks ({why}). I can run the built-in steps instead: {plan.goalSummary}. {CONFIRM_EN}")
        d = replace(d, next="restate_confirm", reply=reply, rule="model_plan_rejected")
        self.state = self.state.evolve(pending=Pending((utterance,), "confirm", d.request, d.mode, d.tier))
        return d, plan

    def _restate_model_steps(self, d: Decision, planned: Plan) -> Decision:
        """Show the steps a model proposed, exactly as they would run, and wait for the user's word."""
        from engine.assist import steps_text

        steps = steps_text(planned, d.lang)
        reply = (f"模型为“{planned.goalSummary}”规划了以下步骤：{steps}。不对请直接纠正，取消请回复'取消'；确认请回复'继续'" if d.lang == "zh"
                 else f"The model planned these steps for '{planned.goalSummary}': {steps}. {CONFIRM_EN}")
        self.model_shown.add((d.request.text, d.request.file))
        self.state = self.state.evolve(pending=Pending((d.request.text,), "confirm", d.request, d.mode, d.tier))
        return replace(d, gate="act", next="restate_confirm", reply=reply, rule="model_plan_restated")

    def _review(self, d: Decision, plan: Plan, run: RunResult, catalog: Catalog, budget: Any, trace_id: str,
                notices: list[str]) -> tuple[RunResult, Plan]:
        """The model's final review. RETRY on a plan the model made goes back to the planner once; the revised
        steps are restated and run only when the user confirms them."""
        assert self.assistant is not None
        review = self.assistant.review(run.answer or "", [s.facts for s in run.steps], budget)
        if review is None or review.status == "PASS":
            return run, plan
        key = (d.request.text, d.request.file)
        if review.status == "RETRY" and self.model_plans.get(key) is not None:
            feedback = review.missing_requirements + review.unsupported_claims + ([review.next_action] if review.next_action else [])
            replanned, _ = self.assistant.plan(d, plan, catalog, budget, feedback=feedback)
            if replanned is not None:
                self.model_plans[key] = replanned
                notices.append(("复核要求重做：" if d.lang == "zh" else "The review asked for another way: ") + self._restate_model_steps(d, replanned).reply)
                return run, plan
        said = review.next_action or ("；" if d.lang == "zh" else "; ").join(review.missing_requirements + review.unsupported_claims)
        notices.append(f"复核意见：{said}" if d.lang == "zh" else f"The review says: {said}")
        return run, plan

    def forget(self) -> None:
        self.state = SessionState()
        self.chain = []

    def remember_written(self, files: list[dict[str, Any]]) -> None:
        """The files a run wrote, each with what it is now: /undo removes only these, and only while unchanged."""
        self.last_files = [f["path"] for f in files]
        self.last_identities = [_identity(self.ws.root / f) for f in self.last_files]

    def undo(self) -> list[str]:
        """Remove the files the last run wrote: only files recorded as written by wenqing, only in outputs/, and
        only while each is still the very file written (same inode, size and content) — never whatever now has
        its name. The others are listed in `undo_kept`."""
        removed: list[str] = []
        self.undo_kept = []
        for rel, ident in zip(self.last_files, self.last_identities, strict=True):
            p = self.ws.root / rel
            if not (rel.startswith("outputs/") and self.ws.inside(p)) or p.is_symlink() or not p.is_file():
                continue
            if ident is None or _identity(p) != ident:
                self.undo_kept.append(rel)
                continue
            p.unlink()
            removed.append(rel)
        self.last_files, self.last_identities = [], []
        return removed

    def warm_up(self, background: bool = True) -> None:
        """Load what a request needs (understanding, planning, running, pandas; DuckDB when a CSV here is read out of
        core) before the first one comes: in the REPL, in a thread while the user types. A turn waits for it to end
        first, so no import runs in two threads at once; it changes nothing the turn computes."""
        if self._warming is not None:
            return
        if not background:
            _load_request_modules(self.ws)
            self._warming = False
            return
        import threading

        self._warming = threading.Thread(target=_load_request_modules, args=(self.ws, PROMPT_FIRST_S), name="wenqing-warm-up",
                                         daemon=True)
        self._warming.start()

    def _warmed(self) -> None:
        if self._warming:
            self._warming.join()

    def interrupt(self) -> None:
        """Ctrl-C while a request runs: it stops at the next step boundary and a running DuckDB query stops at once;
        what its finished steps wrote is removed, and the session stays."""
        import sys

        self.cancel.set()
        outofcore = sys.modules.get("tools.outofcore")
        if outofcore is not None:
            outofcore.interrupt_queries()

    def turn(self, utterance: str) -> TurnResult:
        """One turn, in the session's language: a line of no language keeps it, /lang fixes it."""
        from modes.text import FIXED_LANG, SESSION_LANG

        tokens = SESSION_LANG.set(self.lang), FIXED_LANG.set(self.lang_fixed)
        try:
            return self._turn(utterance)
        finally:
            SESSION_LANG.reset(tokens[0])
            FIXED_LANG.reset(tokens[1])

    def _turn(self, utterance: str) -> TurnResult:
        self._warmed()
        from engine.executor import execute
        from engine.intake import clean, decide_checked
        from engine.plan import decision_json, jsonable, plan_for
        from modes.dialogue import say_unknown

        utterance = clean(utterance)
        read, no_result = self._refer_to_numbered(self._refer_to_named(utterance))
        catalog = self.catalog(read)
        started = time.perf_counter()
        before = self.state
        if no_result is not None:
            decision, self.state = say_unknown(self.state, utterance, no_result, "no_such_result")
        else:
            decision, self.state = decide_checked(self.state, read, catalog)
        trace_id = uuid.uuid4().hex[:12]
        self._trace = trace_id
        self.audit.start_run(trace_id, self.state.turn, utterance, {}, self.clock())
        budget = None
        notices: list[str] = self.startup_notices
        self.startup_notices = []
        if before.pending is not None and decision.next == "execute" and decision.rule != "confirm_pending":
            notices.append("之前那个请求已放下，这次执行的是新的请求。" if decision.lang == "zh" else "The earlier request was set aside; this runs the new one.")
        if self.assistant is not None:
            budget = self.assistant.budget()
            if decision.rule not in ("too_long", "no_such_result"):  # a line that was not read is not sent anywhere either
                decision, self.state = self.assistant.improve(before, utterance, decision, self.state, catalog, budget)
        self.audit.event(trace_id, "gate", f"{_stage(before)} -> {decision.gate}", "澄清闸门：理解是否足以行动",
                         True, None, {"utterance": utterance[:200]}, {"gate": decision.gate, "next": decision.next,
                         "missing": list(decision.missing), "rule": decision.rule}, (time.perf_counter() - started) * 1000)
        self.audit.event(trace_id, "mode", f"{decision.gate} -> {decision.mode}/{decision.tier}", "按顺序匹配模式表",
                         True, None, {}, {"mode_reason": decision.mode_reason, "confidence": decision.confidence}, 0)
        plan = plan_for(decision, catalog)
        self.cache.save(self.ws)
        if self.assistant is not None and budget is not None and plan is not None and decision.mode == "explore" \
                and decision.request.given is None:  # a query the model read is planned from the query, then and after 继续
            decision, plan = self._model_plan(utterance, decision, plan, catalog, budget)
        n = self.state.turn
        tr = TurnResult(n, utterance, decision, plan)
        tr.trace_id = trace_id
        ev = {"event": "decision", "turn": n, "gate": decision.gate, "next": decision.next, "mode": decision.mode,
              "tier": decision.tier, "confidence": round(decision.confidence, 2), "slots": jsonable(decision.slots),
              "missing": list(decision.missing), "plan": plan.to_dict() if plan else None, "mode_reason": decision.mode_reason,
              "rule": decision.rule, "reply": decision.reply}
        query = query_of(decision.request) if decision.gate == "act" else None
        ev["query"] = query.to_json() if query is not None else None
        tr.events.append(ev)
        self.audit.set_decision(trace_id, decision_json(decision, plan))
        if decision.next == "execute" and plan is not None and not self.dry_run:
            # the headers of the user's own files, kept when an English run puts wenqing's words in English (a result's
            # headers, 行数 and 金额_合计 of an earlier Chinese run, are its words); a Chinese run renames nothing
            own = ({c for f in catalog.files if f.loaded and not results.is_result(f.path) for sh in f.sheets for c in sh.columns}
                   if decision.lang == "en" else set())
            run = execute(plan, decision, self.ws, self.audit, trace_id, cache=self.tables, on_step=self.on_step,
                          cancel=self.cancel, own=own)
            if self.assistant is not None and budget is not None and run.status == "answered" and run.answer:
                run, plan = self._review(decision, plan, run, catalog, budget, trace_id, notices)
            tr.run, tr.plan = run, plan
            for s in run.steps:
                tr.events.append({"event": "step", "turn": n, "step": s.step, "tool": s.tool, "status": s.status, "facts": s.facts})
            for f in run.files:
                tr.events.append({"event": "file_written", "turn": n, **f})
            tr.events.append({"event": "run", "turn": n, "trace_id": trace_id, "status": run.status, "answer": run.answer,
                              "fallback_reason": run.fallback_reason})
            self.audit.finish_run(trace_id, run.status, run.answer, run.fallback_reason, self.clock(), plan.to_dict(), run.files)
            self.remember_written(run.files)
            if run.status == "answered":
                self.last_executed = (plan, decision)
                went_on = bool(self.chain) and decision.request.file is not None and decision.request.file == self.state.last_result
                if went_on:
                    self._retire_step(decision, run)
                self.chain = [*self.chain, (plan, decision)] if went_on else [(plan, decision)]
                self._keep_result(plan, decision, run, trace_id)
            if run.current_file:
                self.state = self.state.evolve(current_file=results.in_focus(replace(decision.request, file=run.current_file), self.state.current_file))
            if self._moved is not None:
                self.state, self._moved = _moved_in(self.state, *self._moved), None
            last = self.state.last_result
            if run.status == "answered" and last and results.is_result(self.state.current_file or "") and last != self.state.current_file \
                    and results.is_result(last) and set(decision.request.kinds()) <= KEEPS_THE_TABLE:
                # 再加一列… on a summary, then 导出成excel: the table in focus is the newest result of the chain, never the one before it
                self.state = self.state.evolve(current_file=last)
        else:
            status = "cancelled" if decision.next == "cancel" else "waiting" if decision.next in ("restate_confirm", "plan_confirm", "ask_slots", "ask_intent") else "answered"
            tr.events.append({"event": "run", "turn": n, "trace_id": trace_id, "status": status if status != "waiting" else "answered",
                              "answer": decision.reply or None, "fallback_reason": None, "waiting_for": decision.next if status == "waiting" else None})
            self.audit.finish_run(trace_id, status, decision.reply, None, self.clock(), plan.to_dict() if plan else None, [])
        if self.assistant is not None and budget is not None:
            notices = list(dict.fromkeys(self.assistant.notices + notices))
            self.assistant.notices.clear()
            self.audit.event(trace_id, "model:budget", "request -> done", f"每次请求最多 {budget.tokens} token、10 次模型尝试", True, None,
                             {}, {"tokens_used": budget.used_tokens, "attempts": budget.attempts}, 0, model_called=budget.attempts > 0)
        notices += [zh if decision.lang == "zh" else en for zh, en in self.audit.notices]  # the record went to memory
        self.audit.notices.clear()
        tr.notices = notices
        self.lang = self.lang_fixed or decision.lang
        self.last_run_id = trace_id
        self._trace = None
        self.cancel.clear()  # a Ctrl-C that came after the last step boundary does not cancel the next request
        return tr


    def _keep_result(self, plan: Plan, d: Decision, run: RunResult, trace_id: str) -> None:
        """The table a run produced is the input of the next "在这个结果里…" / "then …". A table it wrote to outputs/
        is read from there; a table only shown (monthly totals, quantiles, a summary answered in text) is kept as
        wenqing's own file under .wenqing/results/ so that a follow-up reads exactly what was shown."""
        tables = [f["path"] for f in run.files if f["path"].lower().endswith((".csv", ".xlsx")) and f.get("columns")]
        held = self._hold(plan, d, run.table, trace_id) if not tables else None
        self.results[trace_id] = tables[0] if tables and run.table is not None else held
        lost = self.results[trace_id] is None and run.table is not None and bool(set(d.request.kinds()) & {"filter", "top_n", "head", "dedupe", "having"})
        self.state = self.state.evolve(last_result=self.results[trace_id], rows_not_kept=lost)
        unasked = tables and run.table is not None and "export" not in d.request.kinds() and tables[0].startswith("outputs/")
        self._unasked = (trace_id, tables[0], _identity(self.ws.root / tables[0]), run.table) if unasked else None

    def _hold(self, plan: Plan, d: Decision, table: Any, trace_id: str) -> str | None:
        if all(s.toolHint == "profile_dataset" for s in plan.steps):
            return None  # a preview of a file is that file: nothing new to keep
        word = "result" if d.lang == "en" else "结果"
        stem = re.sub(r"_(?:结果|result)_[0-9a-f]{6}$", "", Path(d.request.file or word).stem)  # a result of a result keeps the source's name
        return self._keep_copy(table, stem, word, trace_id)

    def _keep_copy(self, table: Any, stem: str, word: str, trace_id: str) -> str | None:
        """Keep a table as wenqing's own Parquet file in .wenqing/results/ (its path), or None when it cannot be kept."""
        from tools.outofcore import is_big

        if is_big(table) and len(table) <= HOLD_ROWS_MAX:
            table = table.to_pandas()  # rows a big file's step kept (金额大于2000的): small enough to hold, and the next turn's "these"
        if not _is_frame(table) or table.empty or len(table) > HOLD_ROWS_MAX or len(table.columns) == 0:
            return None
        data, ext = kept_bytes(table)
        name = f"{safe_stem(stem)}_{word}_{trace_id[:6]}.{ext}"
        try:
            saved = save_state(self.ws, f"{RESULTS_DIR}/{self.owner}", name, data)
        except (UserError, OSError):
            return None  # a workspace that cannot hold it: the follow-up asks which file, as before
        _prune(saved.parent, keep=HOLD_KEEP, current=saved.name)
        return f"{HELD}{self.owner}/{name}"

    def _retire_step(self, d: Decision, run: RunResult) -> None:
        """A request said in steps (先筛选… / 然后汇总… / 再排序…, a turn each, or 把它导出成xlsx) makes the table the run
        before wrote to outputs/ unasked a step on the way: once this run has written its own table, the earlier one
        leaves outputs/ and is kept as wenqing's own copy (/show, /history and 第N个结果 still find it). A follow-up
        question about a result (在这个结果里… / their average) leaves it where the user saw it saved; so does a file
        the user asked for, or one changed since it was written."""
        prev, self._unasked = self._unasked, None
        from tools.outofcore import is_big

        if prev is not None and is_big(run.table) and len(run.table) <= HOLD_ROWS_MAX:
            run.table = run.table.to_pandas()  # read now, while the file it reads is still there
        if prev is None or not any(str(f["path"]).startswith("outputs/") for f in run.files) or not _is_frame(run.table):
            return  # (a table too big to hold still reads the file it came from: that file stays)
        if d.request.file_how in ("named", "fuzzy"):
            return  # a file of outputs/ named by its name is a file the user works with
        saved_again = bool(d.request.ops) and all(o.kind in ("export", "profile") for o in d.request.ops)  # 把它导出成xlsx: the same table
        if not saved_again and not lx.NEXT_STEP_LEAD.search(d.request.text or ""):
            return  # 在这个结果里加一列 / their average: a question about a result the user has seen saved; it stays
        tid, path, ident, table = prev
        p = self.ws.root / path
        if d.request.file != path or p.is_symlink() or not p.is_file() or _identity(p) != ident:
            return
        word = "result" if d.lang == "en" else "结果"
        held = self._keep_copy(table, Path(path).stem, word, tid)
        if held is None:
            return  # too big to keep a copy of: the file stays
        p.unlink(missing_ok=True)
        self.results[tid] = held
        self._moved = (path, held)
        run.notes.append(f"上一步的中间结果 {path} 已移出 outputs/，仍可用 /show 2 查看。" if d.lang == "zh" else
                         f"The intermediate table {path} of the step before left outputs/; /show 2 still shows it.")

    def history(self, limit: int = 10) -> list[dict[str, Any]]:
        """The runs that executed steps in this workspace, newest first: what /history lists and numbers from 1."""
        out: list[dict[str, Any]] = []
        for r in self.audit.runs(limit * 8):
            if r["status"] in ("waiting", "cancelled", "running"):
                continue
            run = self.audit.run(r["trace_id"])
            if run is None or not any(str(e["node"]).startswith("step:") for e in run["events"]):
                continue
            out.append(run)
            if len(out) == limit:
                break
        return out

    def statements(self, which: str = "") -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        """What /sql shows: the last run that ran steps (or the run `which` names) and, step by step, the SQL DuckDB ran
        for it (an empty list for a step that ran in memory)."""
        run = self.audit.run(which) if which else next(iter(self.history(1)), None)
        if run is None:
            return None, []
        steps = []
        for e in run["events"]:
            node = str(e.get("node") or "")
            if not node.startswith("step:") or "done" not in str(e.get("state_transition") or ""):
                continue
            try:
                inputs = json.loads(e.get("inputs") or "{}")
            except json.JSONDecodeError:
                inputs = {}
            sql = inputs.get("sql") if isinstance(inputs, dict) else None
            steps.append({"step": node.split(":", 1)[1], "tool": inputs.get("tool") if isinstance(inputs, dict) else None,
                          "sql": [q for q in sql if isinstance(q, str)] if isinstance(sql, list) else []})
        return run, steps

    def numbered_result(self, n: int) -> tuple[str | None, int]:
        """The table produced by /history's request number n (a file it wrote, else the result it showed), and how many there are."""
        runs = self.history()
        if not 1 <= n <= len(runs):
            return None, len(runs)
        run = runs[n - 1]
        tid = str(run["trace_id"])
        if tid in self.results:
            return self.results[tid], len(runs)
        files = json.loads(run.get("files") or "[]") if isinstance(run.get("files"), str) else (run.get("files") or [])
        written = [f["path"] for f in files if isinstance(f, dict) and str(f.get("path", "")).lower().endswith((".csv", ".xlsx"))]
        if written and (self.ws.root / written[0]).is_file():
            return written[0], len(runs)
        folder = self.ws.root / HELD
        mine = folder / self.owner
        held = sorted(p for w in ("结果", "result") for d in (mine, folder) for ext in KEPT for p in d.glob(f"*_{w}_{tid[:6]}{ext}")) if folder.is_dir() else []
        return (f"{HELD}{held[0].relative_to(folder).as_posix()}" if held else None), len(runs)

    def named_results(self) -> dict[str, str]:
        """The results the user named (/name), name → wenqing's copy of the table; kept across sessions."""
        d = self.ws.root / NAMED
        try:
            if d.is_symlink() or not d.is_dir():
                return {}
            return {p.stem: f"{NAMED}{p.name}" for p in sorted(d.iterdir(), key=lambda p: p.suffix != ".csv")  # Parquet wins
                    if p.suffix in KEPT and p.is_file() and not p.is_symlink() and p.stat().st_nlink == 1}  # a link is never read
        except OSError:
            return {}

    def result_path(self, which: str) -> str:
        """The table `which` means: a /history number ("" is 1, the latest) or a name given with /name. A number
        /history does not list, or a name nobody gave, is said, never another table."""
        zh = self.lang == "zh"
        which = which.strip()
        named = self.named_results()
        if which in named:
            return named[which]
        if which and not which.isdigit():
            known = "、".join(sorted(named)) if zh else ", ".join(sorted(named))
            raise UserError(f"没有名为“{which}”的结果。" + (f"已命名的结果：{known}。" if named else "还没有命名过结果（/name N 名字）。"),
                            f"No result is named '{which}'. " + (f"Named results: {known}." if named else "No result has been named yet (/name N name)."))
        n = int(which or 1)
        path, count = self.numbered_result(n)
        if path is None:
            raise UserError("还没有运行过的请求，也就没有结果。" if not count else f"没有第 {n} 个结果（/history 里有 {count} 个）。",
                            "Nothing has run yet, so there is no result." if not count else f"There is no result {n} (/history lists {count}).")
        if not (self.ws.root / path).is_file():
            raise UserError(f"第 {n} 个结果的文件已经不在了（{path}）。", f"The file of result {n} is gone ({path}).")
        return path

    def file_label(self, path: str) -> str:
        from modes.replies import file_label

        return file_label(path, self.lang)

    def result_table(self, which: str) -> tuple[str, Any]:
        """(path, the whole table) of a result, read as any file of the workspace is."""
        from tools.io import read_table

        path = self.result_path(which)
        return path, read_table(self.ws.root / path).df

    def name_result(self, which: str, name: str) -> str:
        """Keep result `which` under `name` (in .wenqing/named/, never pruned): a request that says the name works on
        it. A name the rules would read as something else (a file, a column, a value, an operation) is refused."""
        from engine.intake import decide_checked

        name = name.strip()
        if not NAME_OK.fullmatch(name):
            raise UserError("名字用 1–30 个汉字、字母、数字或下划线，不含空格和标点。",
                            "A name is 1–30 letters, digits, Chinese characters or underscores, without spaces or punctuation.")
        catalog = self.catalog()
        taken = {f.stem for f in catalog.files} | {f.name for f in catalog.files}
        for f in catalog.tables:
            for s in f.sheets:
                taken |= {s.name or "", *map(str, s.columns)}
                for vals in s.values.values():
                    taken |= set(map(str, vals))
        if name in taken:
            raise UserError(f"“{name}”已经是工作区里的文件、工作表、列或值的名字，请换一个。",
                            f"'{name}' already names a file, sheet, column or value of the workspace; choose another.")
        read, _ = decide_checked(SessionState(), name, catalog)
        if read.request.ops:
            raise UserError(f"“{name}”里有问清会当作操作来读的词（{read.request.ops[0].kind}），请求里说到它时会被误读；请换一个名字，例如“{name[:2]}表”。",
                            f"'{name}' holds words wenqing reads as an operation ({read.request.ops[0].kind}), so a request saying it would be misread; "
                            "choose another, such as 'table1'.")
        path, table = self.result_table(which)
        data, ext = kept_bytes(table)
        folder = NAMED.rstrip("/").rsplit("/", 1)[-1]
        save_state(self.ws, folder, f"{name}.{ext}", data)
        stale = self.ws.root / NAMED / f"{name}.{'csv' if ext == 'parquet' else 'parquet'}"  # a name given again: one copy
        if stale.is_file() and not stale.is_symlink():
            stale.unlink(missing_ok=True)
        return path

    def _refer_to_named(self, utterance: str) -> str:
        """A request that says the name of a named result works on that result (its name reads as "this result")."""
        named = self.named_results()
        for name in sorted(named, key=len, reverse=True):
            at = utterance.find(name)
            if at < 0 or (name.isascii() and re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", utterance) is None):
                continue
            from modes.text import language

            self.state = self.state.evolve(last_result=named[name])
            return utterance[:at] + ("这个结果" if language(utterance) == "zh" else "this result") + utterance[at + len(name):]
        return utterance

    def _refer_to_numbered(self, utterance: str) -> tuple[str, str | None]:
        """在第2个结果里… / in result 2 …: that result, by its /history number, is the one the request works on. The
        words that name it read as "this result"; a number /history does not list is said, never another table."""
        m = NUMBERED_RESULT.search(utterance)
        if m is None:
            return utterance, None
        n = int(next(g for g in m.groups() if g))
        path, count = self.numbered_result(n)
        from modes.text import language

        zh = language(utterance) == "zh"
        if path is None:
            if not count:
                return utterance, "还没有运行过的请求，也就没有结果可用。" if zh else "Nothing has run yet, so there is no result to use."
            return utterance, (f"没有第 {n} 个结果（/history 里有 {count} 个），这次什么都没有执行。" if zh
                               else f"There is no result {n} (/history lists {count}); nothing was run.")
        self.state = self.state.evolve(last_result=path)
        return utterance[: m.start()] + ("这个结果" if zh else "this result") + utterance[m.end() :], None


NUMBERED_RESULT = re.compile(r"第\s*(\d+)\s*(?:个|条|号)?\s*结果|结果\s*#?\s*(\d+)|(?<![a-z])result\s*#?\s*(\d+)|#(\d+)\s*(?:的|号)?结果", re.I)
HOLD_ROWS_MAX = 200_000  # a bigger table shown only in the terminal is not copied; its follow-up asks for a file
RESULTS_DIR = HELD.rstrip("/").rsplit("/", 1)[-1]
KEPT = (".parquet", ".csv")  # wenqing's own copies of results: Parquet, or CSV for a table Parquet cannot hold


NAME_OK = re.compile(r"[\w\u4e00-\u9fff]{1,30}")
HOLD_KEEP = 50  # held results kept per workspace; /history lists the last 10


def _moved_in(state: SessionState, old: str, new: str) -> SessionState:
    """The session's state with an intermediate table's old path (outputs/…) replaced by where it is kept now: a
    correction of the step that read it, or of the step that made it, reads it there."""

    def moved(p: Any) -> Any:
        if p is None:
            return None
        r = p.request
        if r.file != old and old not in r.files:
            return p
        return replace(p, request=replace(r, file=new if r.file == old else r.file, files=tuple(new if f == old else f for f in r.files)))

    return state.evolve(current_file=new if state.current_file == old else state.current_file,
                        last_result=new if state.last_result == old else state.last_result,
                        pending=moved(state.pending), last=moved(state.last))


def _owner_folder() -> str:
    """This session's folder name: its process (pid and start time, so a reused pid is not taken for it) and its own id."""
    from engine.audit import process_token

    token = (process_token(os.getpid()) or str(os.getpid())).replace(":", "-")
    return f"{token}-{uuid.uuid4().hex[:8]}"


def _owner_gone(folder: str) -> bool:
    """Whether the process a session folder belongs to has ended (a pid now running another program counts as ended)."""
    from engine.audit import process_token

    parts = folder.split("-")
    if len(parts) < 2 or not parts[0].isdigit():
        return False  # not a session's folder: left alone
    token = process_token(int(parts[0]))
    return token is None or token.replace(":", "-") != "-".join(parts[:-1])


def _prune(folder: Path, keep: int, current: str = "") -> None:
    """Only the newest `keep` held results of this session's folder stay, its current one always (plain files;
    links are never followed)."""
    try:
        held = sorted((p for p in folder.iterdir() if p.suffix in KEPT and p.is_file() and not p.is_symlink()),
                      key=lambda p: p.stat().st_mtime, reverse=True)
        for p in held[keep:]:
            if p.name != current:
                p.unlink(missing_ok=True)
    except OSError:
        pass


def _sweep_orphans(results: Path) -> None:
    """Remove the folders of sessions whose process is gone; another live session's results are never touched."""
    try:
        if results.is_symlink() or not results.is_dir():
            return
        for d in results.iterdir():
            if d.is_dir() and not d.is_symlink() and _owner_gone(d.name):
                for p in d.iterdir():
                    if p.is_file() or p.is_symlink():
                        p.unlink(missing_ok=True)  # a link itself goes, never what it points to
                d.rmdir()
    except OSError:
        pass


def _is_frame(x: Any) -> bool:
    return type(x).__name__ == "DataFrame" and hasattr(x, "to_csv")


PROMPT_FIRST_S = 0.05  # the background warm-up starts once the prompt has been drawn


def _identity(p: Path) -> tuple[int, int, str] | None:
    """What a written file is: its inode, its size and a hash of its bytes (the first and last 4 MiB of a big one)."""
    import hashlib

    try:
        st = p.stat()
        h = hashlib.sha256()
        with p.open("rb") as f:
            h.update(f.read(4 << 20))
            if st.st_size > 8 << 20:
                f.seek(-(4 << 20), 2)
                h.update(f.read())
        return st.st_ino, st.st_size, h.hexdigest()
    except OSError:
        return None


def _load_request_modules(ws: Workspace, after: float = 0.0) -> None:
    """Import the modules a request runs (warm_up): every import here is of a package's top, as the turn's own are.
    A failure here is left for the turn's own import to meet and report."""
    if after:
        time.sleep(after)
    try:
        _import_request_modules(ws)
    except Exception:  # noqa: BLE001, S110  (nothing is lost: the turn imports what it needs itself)
        pass


def _import_request_modules(ws: Workspace) -> None:
    import pandas  # noqa: F401
    import pyarrow.csv  # noqa: F401  (the CSV writer)
    import xlsxwriter  # noqa: F401  (reports and workbooks)

    import engine.executor  # noqa: F401
    import engine.intake  # noqa: F401
    import engine.plan  # noqa: F401
    import modes.dialogue  # noqa: F401
    import modes.opspecs  # noqa: F401
    from tools import outofcore, registry

    registry.get_tool("profile_dataset")  # every tool module, registered
    from modes.tagging import segment

    segment.available()  # the segmenter's dictionary (seconds to load): requests that leave words unread read them by it

    try:
        big = any(outofcore.wanted(ws.root / rel) for rel in ws.files())
    except OSError:
        big = False
    if big:
        outofcore.prepare(ws)


def _stage(state: SessionState) -> str:
    if state.pending is None:
        return "idle"
    return "pending_clarify" if state.pending.stage == "clarify" else "pending_confirm"


