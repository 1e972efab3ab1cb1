"""A query from outside (the optional model's answer, read by `modes.schema`) decided like any request.

The model never gets more power than the rules: its answer is a typed query whose every file, sheet and column was
checked against the workspace; a name that does not exist becomes a question, never a guess; an act decision
always restates before running (its confidence is below the restatement line), and what is restated is the query
that runs. Where the rules read the same words differently, the restatement says what differs.
"""

from __future__ import annotations

from dataclasses import replace

from modes.catalog import Catalog
from modes.decision import BASE_CONFIDENCE, Decision, Evidence, Pending, Request, SessionState
from modes.gate import _decision, _gate, _op_gaps
from modes.query import Query, ops_in_order, phrases, query_of
from modes.replies import CHAT
from modes.schema import Answer

MODEL_CONFIDENCE = 0.5  # below the 0.55 line: what a model understood is always restated first
WHAT_ZH = {"file": "文件", "sheet": "工作表", "column": "列", "name": "文件或列"}


def decide_answer(state: SessionState, utterance: str, answer: Answer, catalog: Catalog, lang: str,
                  rules: Decision | None = None, chat_reply: str | None = None) -> tuple[Decision, SessionState] | None:
    """A decision from a checked answer, or None when the answer adds nothing to the rules' decision."""
    if answer.intent == "chat":
        req = Request(intent="chat", text=utterance, lang=lang, chat_kind="model")
        reply = chat_reply or CHAT["other"][1 if lang == "en" else 0]
        return _decision("chat", "reply", req, reply, "model:chat"), state
    if answer.intent == "unsupported" and answer.unsupported:
        req = Request(intent="unknown", text=utterance, lang=lang)
        said = (f"这个我还做不到：{answer.unsupported}。您可以换一种做法，或者告诉我想先看哪部分数据。" if lang == "zh"
                else f"I cannot do that yet: {answer.unsupported}. You could ask for it another way, or say which part of the data to look at first.")
        return _decision("unknown", "ask_intent", req, said, "model:unsupported"), state
    if answer.unknown or (answer.words and answer.intent in ("work", "unclear")):
        return _ask_names(state, utterance, answer, catalog, lang, rules)
    if answer.intent != "work":
        return None
    q = answer.query
    if q is None:
        return None
    req = replace(request_of(q, utterance, lang, state), plan_only=answer.plan_only, overwrite=answer.overwrite)
    fi = catalog.get(req.file) if req.file else None
    missing, problems, _ = _op_gaps(list(req.ops), fi, lang, len(req.files), list(q.chain()[0].source.steps[0].args.get("sheets") or [])
                                    if q.chain()[0].source.steps else [])
    if missing:  # a slot the model left empty is asked, as for any request
        req = replace(req, missing=tuple(missing), problems=tuple(problems))
    d, after = _gate(req, state, [utterance], multi_turn=False, catalog=catalog, prior=None)
    d = replace(d, rule=f"model:{d.rule}")
    if answer.unsupported and d.gate == "act":  # the part no operation does is said, never dropped silently
        d = replace(d, reply=_noted(d.reply, f"（这部分我做不到，不会执行：{answer.unsupported}。）" if lang == "zh"
                                    else f"(This part I cannot do and will not run: {answer.unsupported}.) "))
    if d.gate == "act" and d.next == "restate_confirm" and rules is not None:
        other = query_of(rules.request) if rules.gate == "act" else None
        if other is not None and other.to_json() != q.to_json():
            d = replace(d, reply=_noted(d.reply, differs(q, other, lang)))
    return d, after


def request_of(q: Query, utterance: str, lang: str, state: SessionState) -> Request:
    """The request that runs exactly this query."""
    inner = q.chain()[0].source
    ops = tuple(ops_in_order(q))
    return Request(
        intent="work", ops=ops, file=inner.file, files=inner.files, sheet=inner.sheet,
        file_how="model", evidence=(Evidence("model", MODEL_CONFIDENCE - BASE_CONFIDENCE, "由模型解析，执行前需要确认", "read by the model; confirmed before it runs"),),
        text=utterance, lang=lang, given=(ops, q), full=any(o.kind == "full_analysis" for o in ops),
    )


def _noted(reply: str, note: str) -> str:
    """A note said inside a restatement, before the line that asks to confirm."""
    from modes.replies import CONFIRM_EN

    for tail in ("不对请直接纠正", CONFIRM_EN):
        i = reply.find(tail)
        if note and i > 0:
            return reply[:i] + note + reply[i:]
    return reply + note


def differs(model: Query, rules: Query, lang: str) -> str:
    """What the model's reading says that the rules' does not, and the other way round."""
    a, b = phrases(model, lang), phrases(rules, lang)
    only_rules = [p for p in b if p not in a]
    if not only_rules:
        return ""
    sep = "；" if lang == "zh" else "; "
    return (f"（按字面规则的理解不同：{sep.join(only_rules)}。）" if lang == "zh"
            else f"(Read word by word it would instead be: {sep.join(only_rules)}.) ")


def _ask_names(state: SessionState, utterance: str, answer: Answer, catalog: Catalog, lang: str,
               rules: Decision | None) -> tuple[Decision, SessionState]:
    from modes.resolve import closest_columns
    from modes.schema import Unknown

    parts = []
    missing: list[str] = []
    named = rules.request.file if rules is not None and rules.request.file_how in ("named", "fuzzy", "description", "current", "only") else None
    file_of = answer.file or named
    fi = catalog.get(file_of) if file_of else None
    tables = [fi] if fi is not None else list(catalog.tables)
    columns = list(dict.fromkeys(c for f in tables for s in f.sheets for c in s.columns))
    said = [u for u in answer.unknown] + [Unknown("name", w, tuple(c for c in closest_columns(w.casefold(), columns) if c != w))
                                          for w in answer.words if not any(u.name == w for u in answer.unknown)]
    for u in said:
        near = ("、" if lang == "zh" else ", ").join(u.closest)
        if lang == "zh":
            parts.append(f"工作区里没有{WHAT_ZH[u.what]}“{u.name}”" + (f"，最接近的是：{near}" if near else ""))
        else:
            parts.append(f"there is no {u.what} '{u.name}' in the workspace" + (f"; closest: {near}" if near else ""))
        missing.append("column" if u.what == "name" else u.what)
    ask = ("。".join(parts) + "。您指的是哪一个？") if lang == "zh" else ("; ".join(parts) + ". Which one do you mean?")
    if lang == "en":
        ask = ask[0].upper() + ask[1:]
    file = next((u.name for u in said if u.what == "file"), None)
    req = Request(intent="work", text=utterance, lang=lang, missing=tuple(dict.fromkeys(missing)), problems=(ask,),
                  missing_file_name=file, file_how="missing" if file else "model", file=None if file else file_of,
                  candidates=tuple(next((u.closest for u in answer.unknown if u.what == "file"), ())),
                  evidence=(Evidence("model", MODEL_CONFIDENCE - BASE_CONFIDENCE, "由模型解析", "read by the model"),))
    d = _decision("clarify", "ask_slots", req, ask, "model:unknown_name", list(dict.fromkeys(missing)))
    # the answer to this question is read with the request it answers (by the model again: see engine.assist.consult)
    return d, state.evolve(pending=Pending(turns=(utterance,), stage="clarify", request=req, mode=d.mode, tier=d.tier))
