"""A structured intent (from the optional model) checked against the workspace, then decided like any request.

The model never gets more power than the rules: every file, sheet and column it names is resolved here; a name
that does not exist becomes a clarify question, and an act decision always restates before running."""

from __future__ import annotations

from typing import Any

from modes import opspec
from modes.catalog import Catalog
from modes.conditions import Cond
from modes.decision import BASE_CONFIDENCE, Decision, Evidence, Op, Request, SessionState
from modes.gate import _decision, _gate, _op_gaps
from modes.replies import CHAT
from modes.resolve import closest_columns, find_files

GOALS = opspec.proposable()
COND_OPS = {"eq", "ne", "gt", "ge", "lt", "le", "between", "contains", "not_contains", "in", "not_in", "empty",
            "not_empty", "startswith", "endswith"}
MODEL_CONFIDENCE = 0.5  # below the 0.55 line: what a model understood is always restated first


def decide_intent(state: SessionState, utterance: str, intent: dict[str, Any], catalog: Catalog, lang: str,
                  chat_reply: str | None = None) -> tuple[Decision, SessionState] | None:
    """A decision from a validated intent, or None when the intent adds nothing to the rules' decision."""
    kind = intent.get("intent")
    if kind == "chat":
        req = Request(intent="chat", text=utterance, lang=lang, chat_kind="model")
        reply = chat_reply or CHAT["other"][1 if lang == "en" else 0]
        return _decision("chat", "reply", req, reply, "model:chat"), state
    if kind != "work":
        return None
    goals = [g for g in intent.get("goal") or [] if g in GOALS]
    if not goals:
        return None
    req = request_from_intent(intent, goals, catalog, state, utterance, lang)
    return _gate(req, state, [utterance], multi_turn=False, catalog=catalog, prior=None)


def request_from_intent(intent: dict[str, Any], goals: list[str], catalog: Catalog, state: SessionState,
                        utterance: str, lang: str) -> Request:
    problems: list[str] = []
    missing: list[str] = []
    file: str | None = None
    candidates: tuple[str, ...] = ()
    missing_name = None
    named = intent.get("file")
    if named:
        ref = find_files(str(named), catalog, state.current_file)
        if ref.how in ("named", "current") and ref.path and catalog.get(ref.path) and catalog.get(ref.path).is_table:  # type: ignore[union-attr]
            file = ref.path
        else:  # a file the model named that is not in the workspace: ask, never guess
            missing_name = str(named)
            candidates = tuple(ref.candidates or [f.path for f in catalog.tables][:6])
    elif state.current_file:
        file = state.current_file
    fi = catalog.get(file) if file else None
    sheet_name = intent.get("sheet")
    sheet = None
    if fi is not None:
        sheet = fi.sheet(sheet_name) if sheet_name else None
        if sheet_name and sheet is None:
            problems.append(f"{fi.name} 里没有名为“{sheet_name}”的工作表。" if lang == "zh" else f"{fi.name} has no sheet '{sheet_name}'.")
            missing.append("sheet")
        sheet = sheet or (fi.sheets[0] if fi.sheets else None)
    columns = list(sheet.columns) if sheet else []

    def col(name: Any) -> str | None:
        if not isinstance(name, str) or not name:
            return None
        if name in columns:
            return name
        if fi is not None:
            near = "、".join(closest_columns(name.casefold(), columns)) if lang == "zh" else ", ".join(closest_columns(name.casefold(), columns))
            msg = (f"{fi.name} 里没有“{name}”这一列，最接近的是：{near}。您指的是哪一列？" if lang == "zh"
                   else f"{fi.name} has no column '{name}'; closest: {near}. Which column do you mean?")
            if msg not in problems:
                problems.append(msg)
            if "column" not in missing:
                missing.append("column")
        return None

    ops: list[Op] = []
    for g in goals:
        if g == "filter":
            conds = []
            for c in intent.get("conditions") or []:
                if c.get("op") not in COND_OPS:
                    continue
                value = c.get("value")
                if isinstance(value, dict) and "column" in value:
                    value = {"column": col(value["column"]) or value["column"]}
                conds.append(Cond(col(c.get("column")), c["op"], value, c.get("value2"), str(c.get("column") or ""), "model"))
            ops.append(Op("filter", {"conditions": [x for x in conds if x.column], "logic": intent.get("logic") or "and"}))
        elif g == "sort":
            ops.append(Op("sort", {"by": [x for x in (col(b) for b in intent.get("sort_by") or []) if x], "ascending": bool(intent.get("ascending", True))}))
        elif g == "group":
            ms = []
            for m in intent.get("measures") or []:
                if m.get("agg") == "count" and not m.get("column"):
                    ms.append({"agg": "count"})
                elif m.get("agg") in ("sum", "mean", "min", "max", "count") and col(m.get("column")):
                    ms.append({"column": m["column"], "agg": m["agg"]})
            ops.append(Op("group", {"keys": [x for x in (col(k) for k in intent.get("group_by") or []) if x], "measures": ms}))
        elif g == "select":
            ops.append(Op("select", {"columns": [x for x in (col(k) for k in intent.get("columns") or []) if x]}))
        elif g == "export":
            ops.append(Op("export", {"format": intent.get("output") if intent.get("output") in ("csv", "xlsx") else None}))
        elif g == "outliers":
            cols = [x for x in (col(k) for k in intent.get("columns") or []) if x]
            ops.append(Op("outliers", {"column": cols[0] if cols else None}))
        elif g == "correlate":
            ops.append(Op("correlate", {"columns": [x for x in (col(k) for k in intent.get("columns") or []) if x][:2]}))
        elif g == "top_n":
            by = [x for x in (col(b) for b in intent.get("sort_by") or []) if x]
            ops.append(Op("top_n", {"n": int(intent.get("n") or 10), "by": by[0] if by else None, "ascending": bool(intent.get("ascending", False))}))
        else:  # any other operation: its column slots from the columns the model named, in order
            spec = opspec.get(g)
            named_cols = [x for x in (col(k) for k in intent.get("columns") or []) if x]
            args: dict[str, Any] = {}
            for s in spec.slots if spec else ():
                if s.kind == "column" and named_cols:
                    args[s.name] = named_cols.pop(0)
                elif s.kind == "columns" and named_cols:
                    args[s.name], named_cols = named_cols, []
            ops.append(Op(g, args))
    files: tuple[str, ...] = ()
    others = [f for f in (intent.get("files") or []) if isinstance(f, str)]
    if others and file:
        resolved = [file] + [p for p in (find_files(o, catalog).path for o in others) if p and p != file]
        files = tuple(dict.fromkeys(resolved))
    if file is None and "file" not in missing:
        missing.insert(0, "file")
    if fi is not None:
        m2, p2, _ = _op_gaps(ops, fi, lang, len(files), [])
        missing += [m for m in m2 if m not in missing]
        problems += [p for p in p2 if p not in problems]
    return Request(
        intent="work", ops=tuple([o for o in ops if o.kind != "export"] + [o for o in ops if o.kind == "export"]),
        file=file, files=files if len(files) > 1 else (), sheet=sheet.name if (sheet and fi and len(fi.sheets) > 1) else None,
        file_how="model" if file else ("missing" if missing_name else "none"), candidates=candidates,
        missing_file_name=missing_name, missing=tuple(missing), problems=tuple(problems), closest=tuple(columns),
        full="full_analysis" in goals, evidence=(Evidence("model", MODEL_CONFIDENCE - BASE_CONFIDENCE, "由模型解析，执行前需要确认"),),
        text=utterance, lang=lang,
    )
