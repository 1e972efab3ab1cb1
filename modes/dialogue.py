"""The dialogue as an ordered table: (stage, classifier, handler) rows; the first row whose stage fits, whose
classifier holds and whose handler answers wins. The last row decides the turn as a new request.

Stages: `any`; `pending` (something waits: a question or a confirmation); `confirm` and `clarify` (what
waits); `idle` (nothing waits). Reading the table is reading how a turn is taken.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from modes import evidence, joins, opspec, replies, results
from modes import lexicon as lx
from modes.catalog import Catalog, FileInfo
from modes.decision import Decision, Op, Pending, Request, SessionState, chained
from modes.gate import (
    ADDITIVE,
    FILE_SWAP,
    HOLD,
    WEAK_KINDS,
    _chat,
    _decision,
    _gate,
    _sheet_named,
    _sheet_valued,
    _slot_answer,
    _table_names,
    chat_kind,
    is_cancel,
    is_confirm,
    month_words,
    request_sheet,
    understand,
    with_column_of,
)
from modes.lazyre import lazy
from modes.opspecs.stack import SHEET_COLUMN
from modes.resolve import find_columns, find_files, find_values, resolve_column, sheet_stems
from modes.tagging.sheet_nouns import as_sheets
from modes.text import CJK, FIXED_LANG, language, normalize, tidy

if TYPE_CHECKING:
    from modes.tagging.amend import Amendment

Outcome = tuple[Decision, SessionState]
BARE_FILE = re.compile(r"\s*(?:(?:用|是|就是|in|use|it's|it is|the file)\s*)?\S+\.(?:csv|xlsx|xlsm|xls|tsv|ods)\s*(?:那个|这个|吧|please)?\s*[。.!！]?\s*", re.I)
NAMELESS_KINDS = {"profile", "compare", "filter"}  # what a bare 看看 / 比较 / 不是… reads as when it names nothing
FEEDBACK = re.compile(r"算|错|漏|结果|对不上|不对|少了|多了|(?<![a-z_])(?:wrong|mistake|missed|missing|result)(?![a-z_])", re.I | re.A)
QUOTED = re.compile(r"(?:(?<![A-Za-z])'|[\"“”‘’「」])[^'\"“”‘’「」]{1,40}(?:'(?![A-Za-z])|[\"“”‘’「」])")  # (weren't / wasn't: no quote)
EXPLICIT_FILE = ("named", "fuzzy", "description")


@dataclass(frozen=True)
class Turn:
    """One utterance in its context; what is read from it is read once, when a row first asks."""

    utterance: str
    text: str
    lang: str
    state: SessionState
    catalog: Catalog
    pending: Pending | None
    refining: bool = False  # the turn may refine the request that just ran (a follow-up word, no file named)
    amends: bool = False  # the turn opens as a change to the restated request that waits (对，但是… / yes but … / only …)

    @cached_property
    def fresh(self) -> Request:
        return understand([self.utterance], self.catalog, self.state)

    @cached_property
    def chat(self) -> str | None:
        return chat_kind(self.text, self.catalog)

    @cached_property
    def new_kinds(self) -> set[str]:
        kinds = set(self.fresh.kinds()) - WEAK_KINDS
        if "stack" in kinds and self.pending is not None and "stack" in self.pending.request.kinds():
            kinds.discard("stack")  # the same sheets stacked again, as the request before: context, not a new part
        if "stack" in kinds and self.pending is not None and self.fresh.file_how == "current" and self.pending.request.sheet \
                and "stack" not in self.pending.request.kinds():
            kinds.discard("stack")  # 签收天数=…, to a question about 华东, after sheets were stacked: the stack was the last run's
        if "top_n" in kinds and "top_per_group" in self.old_kinds and "top_n" not in self.old_kinds \
                and not (self.fresh.op("top_n") or Op("top_n")).args.get("by"):
            kinds = kinds - {"top_n"} | {"top_per_group"}  # 改成前3个 after 每个部门前2个: the cut within each group changes
        return kinds

    @cached_property
    def old_kinds(self) -> set[str]:
        return set(self.pending.request.kinds()) if self.pending else set()

    @cached_property
    def other_file(self) -> bool:
        f = self.fresh
        return (bool(f.ops) and f.file_how in (*EXPLICIT_FILE, "type") and self.pending is not None
                and self.pending.request.file not in (None, f.file) and not lx.CORRECTION.search(self.text))

    @cached_property
    def answer(self) -> list[str] | None:
        p = self.pending
        f = self.fresh
        if p is not None and p.stage == "clarify" and "ratio" in p.request.missing and (f.op("add_column") is not None or f.op("proportion") is not None) \
                and (g := p.request.op("group")) is not None and g.args.get("rate_word") and f.file_how not in EXPLICIT_FILE:
            # 不良数除以抽检数 / the share where Status is Closed, to "不良率 要怎么算？": the definition said beside the rate, in the
            # words of the request (its groups kept)
            word = g.args["rate_word"]
            said = f"{word}就是{self.utterance}" if p.request.lang == "zh" else f"{word} i.e. {self.utterance}"
            return [*p.turns[:-1], f"{p.turns[-1]}{'，' if p.request.lang == 'zh' else ', '}{said}"]
        if p is not None and p.stage == "clarify" and "second_table" in p.request.missing and f.file_how in EXPLICIT_FILE \
                and f.file not in (None, p.request.file) and all(o.kind == "profile" for o in f.ops):
            # hotels.csv, to "join with which file?": the file the join asked for, joined to the request that asked
            said = f.file.rsplit("/", 1)[-1]
            return [*p.turns[:-1], f"{p.turns[-1]}{'，和 ' if p.request.lang == 'zh' else ' with '}{said}"]
        if p is not None and p.stage == "clarify" and f.file_how == "named" and f.file not in (None, p.request.file) \
                and all(o.kind == "profile" for o in f.ops) and BARE_FILE.fullmatch(self.text) and not p.request.files:
            # revenue_2024.xlsx, to a question about a sheet the file in use does not have: that file, for the same request
            return [f"{f.file.rsplit('/', 1)[-1]} {p.turns[0]}", *p.turns[1:]]
        if p is not None and p.stage == "clarify" and "file" in p.request.missing and f.file_how in EXPLICIT_FILE and f.file \
                and BARE_FILE.fullmatch(self.text):
            # 库存.xlsx, to "which file? / 工作区里没有 X，最接近的文件：…": the file the question asked for, for the same request
            name, missing = f.file.rsplit("/", 1)[-1], p.request.missing_file_name
            turns = [t.replace(missing, name) for t in p.turns] if missing else list(p.turns)
            return turns if missing and turns != list(p.turns) else [f"{name} {turns[0]}", *turns[1:]]
        if p is not None and p.stage == "clarify" and "file" in p.request.missing and f.file_how == "named" and f.file \
                and not p.request.missing_file_name and not f.missing and set(f.kinds()) <= {"stack", "profile"} and (f.sheet or f.op("stack")):
            # 订单.xlsx，三个sheet合起来 / orders.xlsx, sheet North, to "which file?": the file and its sheets, for the same request
            return [f"{self.utterance}{'，' if p.request.lang == 'zh' else ', '}{p.turns[0]}", *p.turns[1:]]
        if p is None or p.stage != "clarify" or (f.file_how in EXPLICIT_FILE and f.file not in (p.request.file, *p.request.files)):
            return None  # naming another file is a new request, not an answer
        return _slot_answer(p, self.text, self.catalog)

    @cached_property
    def names_data(self) -> bool:
        """The turn points at the workspace: a file or the last result by name, a work noun, a deictic, a column by its exact name."""
        f, text = self.fresh, self.text
        if f.file_how in ("named", "result") or f.missing_file_name or f.full or f.plan_only or f.overwrite:
            return True
        if any(p.search(text) for p in (lx.WORK_NOUN, lx.DEICTIC, lx.RESULT_REF, lx.THEN_START, lx.EXPORT_LIST)):
            return True
        return self.column_named

    @cached_property
    def column_named(self) -> bool:
        return any(h.how == "exact" for s in self.catalog.sheets_mentioned(self.text) for h in find_columns(self.text, s))

    @cached_property
    def names_values(self) -> bool:
        return any(find_values(self.text, s, []) for f in self.catalog.tables_touching(self.text) for s in f.sheets)

    @cached_property
    def talk(self) -> str | None:
        """The kind of talk that is not a request on the workspace, or None."""
        if lx.UNDO_ASKED.search(self.text) and not self.fresh.missing_file_name:
            return "undo"  # 怎么把刚才生成的文件删掉: a question about what wenqing wrote, never a filter of a table
        if not self.new_kinds and not self.fresh.missing_file_name and not self.column_named:  # 怎么撤销 / 你叫问清吗: about wenqing
            if lx.ABOUT_UNDO.search(self.text):
                return "undo"
            if lx.ABOUT_NAME.search(self.text):
                return "name"
        if lx.DELIVER.search(self.text) and not self.new_kinds - {"export"}:
            return "deliver"  # 把花名册发邮件给王经理: cannot be done; said, with the export that can
        if self.names_data:
            return None
        text = self.text
        if self.other_service:
            return "service"
        if lx.CONVERSATION.search(text):
            return "conversation"
        if lx.PERSONA.search(text) and not FEEDBACK.search(text):  # 你是不是算错了 is about a result, not about wenqing
            return "persona"
        outside = bool(evidence.unexplained(text, []))  # words no rule of wenqing reads: about something else
        if lx.KNOWLEDGE.search(text) and outside and not (self.names_values and self.new_kinds):
            # 迟到次数最多的5个人是谁: a value of the workspace and a ranking asked of it is a question about the data
            return "knowledge"
        if lx.STATEMENT.search(text) and outside and not self.names_values:
            return "other"
        return None

    @cached_property
    def other_service(self) -> bool:
        """天气 / 火车票 / 打开mail: what another app does, when the workspace has no such file, sheet or column."""
        m = lx.OPEN_APP.search(self.text) or lx.OTHER_SERVICE.search(self.text)
        if m is None or set(self.fresh.kinds()) - NAMELESS_KINDS or QUOTED.search(self.text):  # 删除比分为'1-0'的比赛记录: work on data
            return False
        word = (m.groupdict().get("app") or m.group(0)).casefold()
        held = any(v.casefold() == word for f in self.catalog.tables for sh in f.sheets for vs in sh.values.values() for v in vs)  # 不是微信: a payment method
        stem = re.sub(r"(?<=[a-z]{3})s$", "", word)  # the flights workbook, of flight_ops.xlsx: the word of its name
        return not held and not any(stem in n for n in self.catalog.known_names) and not any(stem in f.path.casefold() for f in self.catalog.files)

    @cached_property
    def rewritten(self) -> list[str] | None:
        """不是按科室，是按医生 / drop the channel condition / (after 不对) 按朝向: the waiting request's words with the
        correction applied (modes.tagging.corrections); None when the turn is no correction or names no part it can place."""
        p = self.pending
        if p is None or self.swapped_to:
            return None
        from modes.tagging import corrections

        asked_what = self.state.asked[0] == replies.what_to_change(p.request, p.request.lang)
        if not (asked_what or lx.CORRECTION.search(self.text) or corrections.marked(self.text)
                or corrections.dropped_value(self.text, p.request) is not None):
            return None
        return corrections.rewrite(p.turns, self.text, p.request, self.catalog)

    @cached_property
    def swapped_to(self) -> str:
        swap = FILE_SWAP.search(self.text)
        said = (swap.group("new") or swap.group("new2") or swap.group("new3") or swap.group("new4") or swap.group("new5") or "") if swap else ""
        tables = [f.path for f in self.catalog.tables]
        if swap is not None and swap.group("new5") and find_files(normalize(swap.group("old5")), self.catalog, None, tables).how not in EXPLICIT_FILE:
            return ""  # 不是北京，上海的: no file rejected, so no file swapped
        return said if said and find_files(normalize(said), self.catalog, None, tables).how in EXPLICIT_FILE else ""


# ---------------------------------------------------------------- handlers


def say_unknown(state: SessionState, utterance: str, reply: str, rule: str) -> Outcome:
    """A turn answered with what cannot be done (没有第 9 个结果): nothing is run and nothing waits."""
    req = Request(intent="unknown", text=utterance, lang=language(utterance))
    return _decision("unknown", "ask_intent", req, reply, rule), state.evolve(turn=state.turn + 1, pending=None)


def on_empty(t: Turn) -> Outcome:
    req = Request(intent="unknown", text=t.utterance, lang=t.lang)
    return _decision("unknown", "ask_intent", req, replies.ask_intent(t.lang), "empty"), t.state


def on_cancel(t: Turn) -> Outcome:
    req = Request(intent="chat", text=t.utterance, lang=t.lang, chat_kind="cancel")
    reply = replies.cancelled(t.lang) if t.pending else ("现在没有需要取消的操作。" if t.lang == "zh" else "There is nothing to cancel.")
    return _decision("chat", "cancel", req, reply, "cancel_word"), t.state.evolve(pending=None)


def on_confirm(t: Turn) -> Outcome:
    p = t.pending
    assert p is not None
    req = p.request
    d = _decision("act", "execute", req, "", "confirm_pending", mode_override=(p.mode, p.tier))
    focus = req.file or t.state.current_file
    return d, t.state.evolve(pending=None, current_file=focus, current_sheet=results.sheet_in_focus(req, t.state, focus),
                              last=chained(t.state, replace(p, stage="done")))


def data_words_unexplained(t: Turn) -> list[str]:
    """The words a pending reading left without a place that name the data: a word holding a value of the table in play
    (女员工 over 性别 女, 退货 over 状态 退货). Those never run without; words no rule read that name no data (function
    words, phrasing) are restated and may be confirmed."""
    p = t.pending
    if p is None or not p.request.unexplained or not p.request.file:
        return []
    f = t.catalog.get(p.request.file)
    sheet = (f.sheet(p.request.sheet) or f.sheets[0]) if f is not None and f.sheets else None
    if sheet is None:
        return []
    values = {v.casefold() for vs in sheet.values.values() for v in vs if v.strip()}
    said = " ".join(p.turns)
    named = [w for w in p.request.unexplained if any(_holds(w.casefold(), v) for v in values if len(v) >= 2 or not v.isascii())
             or (sheet.dates and PERIOD_WORD.search(w) and not any(REPLACED_BEFORE.search(said, 0, m.start()) for m in re.finditer(re.escape(w), said)))]
    # 2023年 left out beside a date column: a period of the data (never one said as what is replaced: instead of January)
    return named + [w for w in conditions_unexplained(p) if w not in named]


def _holds(word: str, value: str) -> bool:
    """A word holding a value: 女员工 holds 女; an English word holds a value as a whole word or its plural (opened is
    no "open", the status)."""
    if value.isascii() and word.isascii():
        return word in (value, value + "s", value + "es") or re.search(rf"(?<![a-z0-9]){re.escape(value)}(?![a-z0-9])", word) is not None
    return value in word


# a period said as a word (2023年, 2024, 3月, Q1, 一季度, 上半年): over a table with dates, a part of the data
PERIOD_WORD = lazy(r"(?<!\d)(?:19|20)\d{2}(?!\d)|\d{1,2}\s*月|(?<![a-z_])(?:q[1-4]|h[12])(?![a-z0-9])|[一二三四1-4]\s*季度|[上下]半年"
                   r"|(?<![a-z_])(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
                   r"|weekends?|weekdays?|yesterday|today|last (?:week|month|year|quarter))(?![a-z_])", re.I | re.A)


REPLACED_BEFORE = lazy(r"(?:instead of|rather than|not|而不是|不是|不要)\s*$", re.I)


def conditions_unexplained(p: Pending) -> list[str]:
    """Words left without a place that are what an exclusion excludes (退租的不算 / 除了退货 / excluding refunds / not the
    trial accounts): a condition whose column was not found, which the rest must never run without. The exclusion is
    read the way the condition rules read it, in the words around the word."""
    from modes.conditions import EXCLUDED_AFTER, EXCLUDED_BEFORE

    text = p.turns[-1] if p.turns else ""
    out = []
    for w in p.request.unexplained:
        at = text.find(w)
        if at < 0:
            continue
        after = text[at + len(w) : at + len(w) + 30]
        if EXCLUDED_BEFORE.search(text[max(0, at - 60) : at]) or EXCLUDED_AFTER.match(after) or LEFT_OUT_AFTER_EN.match(after):
            out.append(w)
    return out


# an English exclusion written after what it excludes (the escalated ones excluded / trial accounts left out)
LEFT_OUT_AFTER_EN = lazy(r"(?:\s+(?:ones|rows|items|records))?\s+(?:excluded|left out|not counted)(?![a-z_])", re.I | re.A)


def on_confirm_unexplained(t: Turn) -> Outcome:


    """Ask what the words not understood should do; the request waits, as restated, for a correction or 取消."""
    p = t.pending
    assert p is not None
    req = p.request
    reply = replies.ask_unexplained(req, data_words_unexplained(t), req.lang)
    d = _decision("clarify", "ask_slots", req, reply, "confirm_with_words_unexplained", ["unexplained"])
    return d, t.state


def _reduced_by_a_gap(t: Turn) -> bool:
    """Whether what waits is a reduced reading of a part wenqing cannot do (a per-condition formula read as one formula
    for every row): confirming it would run something else than asked."""
    return t.pending is not None and any(g.zh == evidence.CASE_FORMULA[1] for g in t.pending.request.gaps)


def on_confirm_gap(t: Turn) -> Outcome:
    """继续, to a restatement that said a part cannot be done: the rest is never run in its place; it waits, as restated."""
    p = t.pending
    assert p is not None
    d = _decision("clarify", "ask_slots", p.request, replies.refuse_reduced(p.request, p.request.lang), "confirm_with_gap", ["unexplained"])
    return d, t.state


def ask_again(t: Turn, rule: str) -> Outcome:
    assert t.pending is not None
    req = t.pending.request
    missing = list(req.missing)
    return _decision("clarify", "ask_slots", req, replies.ask_slots(req, missing, req.lang, _table_names(t.catalog, req)), rule, missing), t.state


def rejects_only(t: Turn) -> bool:
    """no / that's wrong / 不对, and nothing else, about what waits or just ran."""
    return t.pending is not None and lx.REJECTION.fullmatch(t.text) is not None


def on_rejected(t: Turn) -> Outcome:
    """What was restated (or run) is wrong, and the turn does not say how: asked what to change, with the reading
    said once more in short; the request waits for the correction (or 取消). Repeating the same restatement is a loop."""
    assert t.pending is not None
    req = t.pending.request
    reply = replies.what_to_change(req, req.lang)
    stage = t.pending if t.pending.stage == "confirm" else replace(t.pending, stage="confirm")
    return _decision("clarify", "ask_slots", req, reply, "rejected_without_correction", ["correction"]), t.state.evolve(pending=stage)


def on_confirm_nothing(t: Turn) -> Outcome:
    req = Request(intent="unknown", text=t.utterance, lang=t.lang)
    reply = replies.ask_intent(t.lang, nothing_pending=True)
    return _decision("unknown", "ask_intent", req, reply, "confirm_nothing_pending"), t.state.evolve(pending=None)


def on_chat(t: Turn) -> Outcome:
    assert t.chat is not None
    return _chat(t.chat, t.utterance, t.lang, t.state)


def on_slot_answer(t: Turn) -> Outcome:
    """用 城市 这一列: the answer to our own question fills that slot, never starts a new action."""
    if not t.answer:
        return ask_again(t, "slot_answer_unread")
    assert t.pending is not None
    keep = [t.pending.request.file] if t.pending.request.file else None  # the answer names a column, never another file
    merged = replace(understand(t.answer, t.catalog, t.state, keep), lang=t.pending.request.lang)
    return _gate(_filled_by_answer(t, merged), t.state, t.answer, multi_turn=True, catalog=t.catalog, prior=t.pending)


def _the_one_offer(t: Turn) -> str | None:
    """The one column a question about an unknown name offered (没有“多少钱”这一列，最接近的是：卡内余额), which a yes (对 / yes)
    takes."""
    p = t.pending
    if p is None or not p.request.missing or p.request.missing[0] != "column":
        return None
    cands = list(dict.fromkeys(c for o in p.request.ops for u in o.args.get("unresolved") or [] if u.get("slot") == "column" for c in u.get("closest") or []))
    return cands[0] if len(cands) == 1 else None


def _as_offer_typed(t: Turn) -> Turn:
    """The turn as if the one column offered had been typed back."""
    said = _the_one_offer(t)
    assert said is not None
    return Turn(said, said, t.lang, t.state, t.catalog, t.pending, t.refining)


def _filled_by_answer(t: Turn, merged: Request) -> Request:
    """Plan, typed alone to "Group by which column?": when the request read again with the answer still lacks the
    slot asked about (the words joined another operation's clause), the column fills the operation that asked — an
    offered column typed back is always taken, never asked for again."""
    p = t.pending
    assert p is not None
    slot = p.request.missing[0] if p.request.missing else None
    f = t.catalog.get(p.request.file) if p.request.file else None
    if slot is None or f is None or not f.sheets or (slot not in merged.missing and merged.ops):
        return merged
    sheet = request_sheet(p.request, f)
    body = t.text.strip(" 。.!！'\"“”")
    hits = [h for h in find_columns(body, sheet) if h.how in ("exact", "synonym")]
    rest = re.sub(r"[\s,，、和与及]+|(?<![a-z_])(?:and|by|per)(?![a-z_])|按|用", "", "".join(" " if any(h.start <= i < h.end for h in hits) else ch
                                                                        for i, ch in enumerate(body)), flags=re.I)
    if not hits or rest:
        return merged
    cols = list(dict.fromkeys(h.column for h in hits))
    offered = dict(p.request.offers).get(slot)
    if offered is not None and any(c not in offered for c in cols):
        return merged  # a column the question did not offer (text to a ranking): what fits is said, never filled
    if not merged.ops and len(cols) == 1:  # 卡内余额, to "no column 多少钱; closest: 卡内余额": the statistic of the request, of it
        g = next((o for o in p.request.ops if o.kind == "group" and not o.args.get("keys") and len(o.args.get("unresolved") or []) == 1), None)
        u = (g.args.get("unresolved") or [{}])[0] if g is not None else {}
        if g is not None and u.get("slot") == slot == "column" and u.get("agg") and cols[0] in (u.get("closest") or []) \
                and (cols[0] in sheet.numeric or u["agg"] not in ("sum", "mean")):
            args = {k: v for k, v in g.args.items() if k != "unresolved"}
            filled_ops = tuple(Op("group", {**args, "measures": [*(args.get("measures") or []), {"column": cols[0], "agg": u["agg"]}]}, g.after)
                               if o is g else o for o in p.request.ops)
            return replace(p.request, ops=filled_ops, missing=tuple(m for m in p.request.missing if m != slot))
    ops, filled = list(merged.ops), False
    for i, o in enumerate(ops):  # Order Date, to "no column 'date'; closest: Order Date, …": the condition's column is that one
        unres = [u for u in o.args.get("unresolved") or [] if u.get("slot") == slot == "column"]
        conds = o.args.get("conditions") or []
        if o.kind == "filter" and len(unres) == 1 and len(cols) == 1 and not filled \
                and any(c.column is None and c.raw == unres[0].get("raw") for c in conds):
            ops[i] = with_column_of(o, {unres[0].get("raw")}, cols[0])
            filled = True
    for i, o in enumerate(ops):
        spec = opspec.get(o.kind)
        sl = next((x for x in spec.slots if x.missing_name == slot and not o.args.get(x.name)), None) if spec else None
        fits = {"numeric": sheet.numeric, "date": sheet.dates, "ordered": sheet.numeric | sheet.dates}.get(sl.takes) if sl else None
        if sl is not None and not filled and (fits is None or all(c in fits for c in cols)):
            ops[i] = Op(o.kind, {**o.args, sl.name: cols if sl.kind in ("columns", "keys") else cols[0]}, o.after)
            filled = True
    if not filled:
        return merged
    still = [o for o in ops if (spec := opspec.get(o.kind)) and any(x.missing_name == slot and not o.args.get(x.name) and x.required for x in spec.slots)]
    still += [o for o in ops if any(u.get("slot") == slot for u in o.args.get("unresolved") or [])]
    return replace(merged, ops=tuple(ops), missing=tuple(m for m in merged.missing if m != slot or still))


def corrected_sheet(t: Turn) -> str | None:
    """不对，是下半年 / no, the Q2 sheet: a correction that names another sheet of the request's workbook and nothing
    else — the sheet is what it changes; the rest of the request stays."""
    p = t.pending
    if p is None or not p.request.file or t.other_file \
            or not (lx.CORRECTION.search(t.text) or SHEET_FOLLOW_UP.search(t.text) or SHEET_FOLLOW_UP.search(SHEET_CHANGE.sub("", t.text))):
        return None  # (滨江店呢，只算没取消的: the follow-up said before the change)
    f = t.catalog.get(p.request.file)
    if f is None or len(f.sheets) < 2:
        return None
    low = SHEET_CHANGE.sub("", t.text).casefold()  # 浦东店也这样，不过金额用中位数: the change after 不过 is read on its own
    every = lx.ALL_SHEETS.search(low)
    if every is not None and p.request.sheet and not p.request.op("stack") and len({tuple(s.columns) for s in f.sheets}) == 1:
        rest = re.sub(r"(?<![a-z_])(?:the|same|for|do|it|again|now|ok|okay|what|how|about|thing|three|two|four|of|please|together|combined|at once|too|as well|across|on|in)(?![a-z_])|也|这样|一样|同样|照样|来一个|算一下|呢|吧|合在一起|合起来|一起|[\s,，。.!！?？]",
                      "", low[: every.start()] + low[every.end() :])
        return ALL_SHEETS_MARK if not rest else None  # the same for all sheets / 所有工作表也这样: every sheet, stacked
    named = [s.name for s in f.sheets if s.name and s.name != p.request.sheet and _sheet_named(s.name, low)]
    if not named and STAY_ON_ONE.search(t.text):  # 不对，只看东城分馆，不要合并: the sheet said inside 只看…, one sheet alone
        low = t.text.casefold()
        named = [s.name for s in f.sheets if s.name and _sheet_named(s.name, low) and (s.name != p.request.sheet or p.request.op("stack"))]
    stems = sheet_stems(f)
    if not named:  # 那朝阳的呢, of 海淀校区 / 朝阳校区: the sheet said without the end all the sheets' names share
        named = [n for n, st in stems.items() if n != p.request.sheet and st in low]
    if not named or len(named) > 1 and (p.request.op("stack") or not p.request.sheet or len({tuple(s.columns) for s in f.sheets}) != 1):
        return None
    if any(_sheet_valued(t.text, m.start(), m.end()) for n in named for m in re.finditer(re.escape(n), t.text, re.I)):
        return None  # Autumn表不算 / leave out the Autumn sheet: that sheet left out, never the sheet the request moves to
    months = month_words(named[0]) if len(named) == 1 else []  # August for the Aug sheet: the whole word is its name
    said = re.sub(r"(?<![a-z])(?:" + "|".join(months) + r")(?![a-z])", " ", low) if months else low
    for n in named:
        said = said.replace(n.casefold(), " ").replace(stems.get(n, n.casefold()), " ")
    if len(named) > 1:  # 城西和城南也一样算一下: the same request on each of those sheets
        said = re.sub(r"和|与|及|跟|、|(?<![a-z_])(?:and|both)(?![a-z_])", " ", said)
    rest = lx.CORRECTION.sub(" ", said)
    if p.request.op("stack") is not None:  # 只看东城分馆，不要合并 / only the Harbor sheet, not stacked: that sheet alone
        rest = STAY_ON_ONE.sub(" ", rest)
    rest = re.sub(r"(?:那?张|个)?(?:工作表|表|sheet|tab)|也|照着?|照样|按|像|这样|这么|刚才那样|上面那样|一样|同样|换成|换到|换|改成|改看|算一下|看一下|做一下|做一个|做个|来一个|画一个|画个|画|看看|瞧瞧|算算|一下|算|做|弄|的|用|是|这|那|不|呢|吗|吧|[\s,，。.!！?？]"
                  r"|(?<![a-z_])(?:no|the|use|it|is|should|be|what|how|about|and|for|in|on|of|now|do|same|thing|again|show|run|please|sheet|ok|okay|one|request|analysis|with|at|from|column|columns|col|table)(?![a-z_])|列|一列", "", rest)
    earlier = re.sub(r"\s+", "", " ".join(p.turns).casefold())
    return SHEETS_SEP.join(named) if not rest or rest in earlier else None  # 二季度的总金额呢: words of the request it follows are no change


STAY_ON_ONE = lazy(r"只看|只要|只算|只用|(?:不要|不用|别|不)(?:再)?(?:合并|合在一起|合起来|拼起来|一起算)了?|分开|单独"
                   r"|(?<![a-z_])(?:only|just|alone|don'?t (?:stack|combine|merge)(?: them| the sheets)?|not (?:stacked|combined|merged)|no stacking)(?![a-z_])", re.I)
ALL_SHEETS_MARK = "*"  # corrected_sheet's answer for every sheet of the workbook, stacked
SHEETS_SEP = "|"  # between the sheets of corrected_sheet's answer when it names several (each one a group of its own)
# 浦东店也这样弄，不过金额用中位数 / same for Ridge, but with the median: the change asked beside the sheet
SHEET_CHANGE = lazy(r"(?:(?:[，,;；]\s*)?(?:不过|但是|只是|但|(?<![a-z_])but(?![a-z_]))\s*"
                    # 滨江店呢，只算没取消的 / what about Harbour, only the Online ones: rows narrowed, said after the sheet
                    r"|[，,;；]\s*(?=只要|只看|只算|只留|仅|不要|不算|去掉|排除|(?:only|just|leave out|excluding|without)(?![a-z_])))(?P<c>\S.*)$", re.I)
# 二季度呢 / 三季度的呢 / what about Q2?: the request just run, asked again of another sheet
SHEET_FOLLOW_UP = lazy(r"呢\s*[?？]?\s*$|^\s*那|也(?:照|按|像)?(?:这样|一样|同样|这么|刚才那样|上面那样)|也(?:看看|看一下|瞧瞧|来一下|来一个|算算|算一下)\s*[。.!！吧]?\s*$|照(?:着|样|这样|刚才)|同样|一样的?|^\s*(?:换成|换到|换|改成|改看)|(?<![a-z_])(?:what|how) about(?![a-z_])"
                       r"|^\s*and\s+(?:for|in|on|at)?\s*|^\s*(?:ok(?:ay)?\s*,?\s*)?now(?![a-z_])"
                       r"|^\s*(?:now\s+)?(?:do|show|run it (?:for|on)|(?:the\s+)?same(?:\s+(?:thing|again|one|request|analysis))?\s+(?:for|on|in|with))(?![a-z_])", re.I)


def on_sheet_correction(t: Turn) -> Outcome:
    """The request said again on the sheet the correction names, restated before it runs."""
    p = t.pending
    assert p is not None
    turns, merged = _on_sheet(t)
    return _gate(merged, t.state, turns, multi_turn=True, catalog=t.catalog, prior=p)


def the_chain(last: Pending) -> tuple[Pending, tuple[Op, ...]]:
    """The request a chain of follow-ups started from (按车型汇总 → 按合计排序: the summary), and the steps run on its
    result after it, in order, each run on the result of the steps before."""
    steps: tuple[Op, ...] = ()
    p = last
    while p.source is not None:
        steps = tuple(replace(o, after=True) if i == 0 else o for i, o in enumerate(p.request.ops)) + steps
        p = p.source
    return p, steps


def recuts_the_chain(t: Turn) -> bool:
    """change it to top 3 / 改成前3个, after the top 5 had names brought onto them: a new cut of the request the chain
    started from (its pending is that request), never a cut of the last step's table."""
    p, cut = t.pending, t.fresh.op("top_n")
    left = [w for w in t.fresh.unexplained if not lx.CORRECTION.search(w) and w.casefold() not in CUT_SWAP_WORDS]
    old = p.request.op("top_n") if p is not None else None
    if cut is None or old is None or set(t.fresh.kinds()) - {"top_n", "stack"} or left or t.fresh.file_how != "result" or not cut.args.get("by"):
        return False
    same_way = not cut.args.get("direction_said") or bool(cut.args.get("ascending")) == bool(old.args.get("ascending"))
    return same_way and 0 < int(cut.args.get("n") or 0) <= int(old.args.get("n") or 0)


CUT_SWAP_WORDS = frozenset({"change", "make", "switch", "instead", "改成", "改为", "换成", "变成"})


def on_chain_recut(t: Turn) -> Outcome:
    """The fewer first rows of the same ranking are the first rows of what the chain shows (its later steps add columns,
    never rows): that cut, on the last result, restated; more rows than the chain kept are asked for anew."""
    p, cut = t.pending, t.fresh.op("top_n")
    assert p is not None and cut is not None
    old = p.request.op("top_n")
    assert old is not None
    return _gate(t.fresh, t.state, [t.utterance], multi_turn=True, catalog=t.catalog, prior=None)


def on_chain_on_sheet(t: Turn, steps: tuple[Op, ...]) -> Outcome:
    """same for 2023, after a summary of 2024 and a sort of its result: the request the chain started from, on the sheet
    named, and every step run on its result after it; restated whole before it runs."""
    p = t.pending
    assert p is not None
    turns, merged = _on_sheet(t)
    req = replace(merged, ops=(*merged.ops, *steps))
    return _gate(req, t.state, [*turns, t.utterance], multi_turn=True, catalog=t.catalog, prior=p)


def _on_sheet(t: Turn) -> tuple[list[str], Request]:
    """The pending request's words said again on the sheet the turn names, and what they are understood as."""
    p = t.pending
    assert p is not None
    sheet = corrected_sheet(t)
    old = p.request.sheet
    said = [re.sub(re.escape(old) + r"\s*(?:这|那)?\s*(?:张|个)?\s*(?:工作表|表|sheet)?", " ", u, flags=re.I) if old else u for u in p.turns]  # (q1 for Q1)
    every = ("across all sheets" if p.request.lang == "en" else "所有工作表合在一起") if sheet == ALL_SHEETS_MARK else None
    if sheet is not None and SHEETS_SEP in sheet:  # 城西和城南也一样算一下: those sheets together, each its own groups
        names = sheet.split(SHEETS_SEP)
        every = f"sheets {' and '.join(names)}, each" if p.request.lang == "en" else f"{'和'.join(names)}分别"
    own = f"{sheet} sheet" if p.request.lang == "en" else f"{sheet}表"  # (in the request's own language)
    alone = STAY_ON_ONE.search(t.text) is not None and every is None
    if alone:  # 不对，只看东城分馆，不要合并: the sheets stacked before are no longer said; that sheet alone
        said = [lx.ALL_SHEETS.sub(" ", as_sheets(u, t.catalog, p.request.file)) for u in said]
    turns = [*said, every or own]  # the sheet it was on is no longer said (上半年 would read as a period of the new one)
    change = SHEET_CHANGE.search(t.text)
    if change is not None and not (alone and not STAY_ON_ONE.sub("", change.group("c").replace(sheet or "", "")).strip(" ，,。.!！")):
        turns.append(change.group("c"))  # 不过金额用中位数: the change, said after the sheet, corrects the request said again
    return turns, replace(understand(turns, t.catalog, t.state, [p.request.file] if p.request.file else None), lang=p.request.lang)


def on_rewritten(t: Turn) -> Outcome:
    """The request said again with the correction applied to its words, restated before it runs (what the correction
    took back is no part of the words, so it is never named as not understood)."""
    p = t.pending
    assert p is not None and t.rewritten is not None
    return _said_anew(_last_statistic_only(t, list(t.rewritten)), t.state, t.catalog, p)


def _said_anew(turns: list[str], state: SessionState, catalog: Catalog, prior: Pending) -> Outcome:
    """The request's turns said again with a change applied to their words, read on its file, in its language, and
    restated before it runs."""
    merged = replace(understand(turns, catalog, state, [prior.request.file] if prior.request.file else None), lang=prior.request.lang)
    return _gate(merged, state, turns, multi_turn=True, catalog=catalog, prior=prior)


def _last_statistic_only(t: Turn, turns: list[str]) -> list[str]:
    """最大值呢 after 改成中位数呢 / the maximum, not the median after median instead: the statistic said last replaces
    an earlier swap's (each turn that said a statistic alone, but the first, is left out)."""
    p = t.pending
    # (还有最小值 after 再加上最大值: a statistic said as one more is kept, never a swap)
    alone = [i > 0 and not lx.ADDITIVE.search(normalize(u)) and _statistic_alone(Turn(u, normalize(u), t.lang, t.state, t.catalog, p))
             for i, u in enumerate(turns)]
    if len(turns) < 3 or not alone[-1]:
        return turns
    return [u for i, u in enumerate(turns) if i == len(turns) - 1 or not alone[i]]


def on_replacement(t: Turn) -> Outcome:
    """The new turn says everything itself: it replaces what was pending, restated before it runs. Said to our own
    question and naming no file (签收天数=签收日期-发货日期, to "新列怎么算？" about 华东), it is read with the request that
    asked: its file and sheet, never the table of the last run."""
    p = t.pending
    if p is not None and p.stage == "clarify" and t.fresh.file_how == "current" and p.request.file and p.request.sheet \
            and (t.fresh.sheet != p.request.sheet or t.fresh.op("stack") is not None and p.request.op("stack") is None):
        turns = _with_turn(p.turns, t.utterance)
        merged = understand(turns, t.catalog, t.state, [p.request.file])
        return _gate(merged, t.state, turns, multi_turn=True, catalog=t.catalog, prior=p)
    return _gate(t.fresh, t.state, [t.utterance], multi_turn=True, catalog=t.catalog, prior=None)


SET_ASIDE_NOTE = {True: "（之前那个请求已放下。）", False: "(The earlier request was set aside.) "}


def dropped_note(t: Turn, out: Outcome) -> Outcome:
    """A new request while another waited: the new one wins, and the reply says the old one was set aside."""
    d, state = out
    if t.state.pending is None or d.next in ("execute", "cancel") or d.gate == "chat":
        return out
    return replace(d, reply=SET_ASIDE_NOTE[t.lang == "zh"] + d.reply), state


def on_file_swap(t: Turn) -> Outcome:
    """不是上海，是北京: the file is what changes."""
    assert t.pending is not None
    turns = list(t.pending.turns) + [t.swapped_to]
    merged = understand(turns, t.catalog, t.state, [f.path for f in t.catalog.tables])
    return _gate(merged, t.state, turns, multi_turn=True, catalog=t.catalog, prior=t.pending)


def _with_turn(turns: tuple[str, ...], utterance: str) -> list[str]:
    """The pending request's turns with this one; a turn said word for word before adds nothing to what is understood,
    so the same request said N times is read once, not N times (a turn's work stays the same however long it goes on)."""
    return list(turns) if utterance in turns else [*turns, utterance]


def on_more_of_the_same(t: Turn) -> Outcome:
    """A turn that adds to or corrects what is pending: the turns are understood together."""
    p = t.pending
    assert p is not None
    restrict = list(p.request.candidates) if p.request.file_how == "ambiguous" else None
    turns = _last_statistic_only(t, _with_turn(p.turns, t.utterance))
    merged = understand(turns, t.catalog, t.state, restrict)
    return _gate(merged, t.state, turns, multi_turn=True, catalog=t.catalog, prior=p)


# 先把业主.csv按房号去重再对一次 / dedupe owners.csv on Unit, then join again: the join just run, its second table first
# deduplicated on its key
# (再做一遍上面这个 / 重新来一遍 / then do that again, said of the join just run, is the same)
REDO_JOIN = re.compile(r"再(?:对|关联|合并|匹配|连接|join)(?:一次|一下|一遍|上|起来)?|重新(?:对|关联|合并|匹配|连接)"
                       r"|(?:再|重新)(?:做|来|跑|弄|算)(?:一遍|一次|一下)|重做"
                       r"|(?<![a-z_])(?:(?:join|match|merge)(?:\s+(?:it|them|that))?\s+again|re-?join|redo the join"
                       r"|(?:re-?do|re-?run|(?:do|run)\s+(?:it|that|this|the\s+(?:last|previous)\s+(?:one|step|request))\s+again)(?:\s+(?:it|that|this))?)(?![a-z_])", re.I)


def redoes_the_join(t: Turn) -> bool:
    last = t.state.last
    if last is None or t.state.pending is not None or not REDO_JOIN.search(t.text):
        return False
    j, d = last.request.op("join"), t.fresh.op("dedupe")
    if j is None or d is None or len(last.request.files) < 2 or last.request.files[1] not in (t.fresh.file, *t.fresh.files):
        return False
    key = j.args.get("other_on") or j.args.get("on")
    return d.args.get("subset") in (None, [], [key])


def on_join_redone(t: Turn) -> Outcome:
    last = t.state.last
    assert last is not None
    ops = tuple(replace(o, args={**o.args, "once": True}) if o.kind == "join" else o for o in last.request.ops)
    turns = [*last.turns, t.utterance]
    return _gate(replace(last.request, ops=ops), t.state, turns, multi_turn=True, catalog=t.catalog, prior=replace(last, stage="confirm"))


# 先把师傅.csv按师傅去重，再做一遍上面这个 / dedupe drivers.csv first, then run that again: the step said first, then the
# request just run on its result (never the step alone with the redo dropped)
PREPARES = frozenset({"dedupe", "filter", "clean"})


def prepares_then_redoes(t: Turn) -> bool:
    last = t.state.last
    if last is None or t.state.pending is not None or not REDO_JOIN.search(t.text) or last.request.op("join") is not None:
        return False
    kinds = set(t.fresh.kinds())
    return bool(kinds) and kinds <= PREPARES and t.fresh.file == last.request.file and t.fresh.sheet == last.request.sheet \
        and not t.fresh.missing and bool(set(last.request.kinds()) - PREPARES)


def on_prepared_redo(t: Turn) -> Outcome:
    last = t.state.last
    assert last is not None
    rest = tuple(replace(o, after=True) if i == 0 else o for i, o in enumerate(last.request.ops))
    req = replace(last.request, ops=(*t.fresh.ops, *rest), text=t.utterance)
    return _gate(req, t.state, [*last.turns, t.utterance], multi_turn=True, catalog=t.catalog, prior=replace(last, stage="confirm"))


# without the blank row / 去掉空白那行 / 空的那组不要, of a summary by one key: its rows whose key is blank are left out
# before it is summarised (the rest of the request stays, restated)
BLANK_GROUP_WORDS = (
    r"^\s*(?:(?:去掉|不要|删掉|删除|排除|剔除|除去|拿掉)(?:掉)?\s*(?:那个|那一?行|那一?组|这一?行|这一?组)?\s*(?:空白|空的|空值|为空的?|没填的?|空)\s*(?:的)?\s*(?:那一?行|那一?组|那个|行|组|值)?"
    r"|(?:那个|那一?行|那一?组)?\s*(?:空白|空的|空值|为空的?|没填的?)\s*(?:的)?\s*(?:那一?行|那一?组|那个|行|组)?\s*(?:不要|去掉|删掉|不算|拿掉)(?:了)?"
    r"|(?:and\s+|but\s+|now\s+)?(?:without|drop|remove|exclude|excluding|leave out|lose|minus|skip|get rid of|no)\s+(?:the\s+)?(?:blank|empty|missing|unknown)"
    r"(?:\s+(?:rows?|ones?|groups?|lines?|values?|entr(?:y|ies)|(?!and\b|then\b)[a-z][a-z_]{2,}(?:\s+(?:rows?|ones?|groups?))?))?)")  # (the blank vehicle: the key said)
BLANK_GROUP_DROPPED = re.compile(BLANK_GROUP_WORDS + r"\s*(?:please|pls|too)?\s*[。.!！]?\s*$", re.I)
# drop the blank one and sort it biggest first / 去掉空白那行，再按金额排: the blank group dropped, then more said of the summary
BLANK_GROUP_THEN = re.compile(BLANK_GROUP_WORDS + r"(?=\s*(?:[,，;；]|and\b|then\b|然后|再|并且?))", re.I)


def drops_the_blank_group(t: Turn) -> bool:
    base = t.pending if t.pending is not None else t.state.last
    if base is None or not BLANK_GROUP_DROPPED.search(t.text):
        return False
    return _blank_key(base.request) is not None


def _blank_key(req: Request) -> str | None:
    """The one key of the request's summary (a sheet column added by stacking aside)."""
    g, pr, sh = req.op("group"), req.op("proportion"), req.op("share")
    said = (g.args.get("keys") if g is not None else None) or (pr.args.get("by") if pr is not None else None) or (sh.args.get("keys") if sh is not None else None)
    keys = [k for k in (said or []) if k not in ("sheet", "工作表")]  # (a rate per key, a share per key: their key too)
    f = req.op("filter")
    if len(keys) != 1 or (f is not None and f.args.get("logic", "and") != "and"):
        return None
    return keys[0]


def on_blank_group_dropped(t: Turn) -> Outcome:
    from modes.conditions import Cond

    base = t.pending if t.pending is not None else t.state.last
    assert base is not None
    req = base.request
    key = _blank_key(req)
    assert key is not None
    cond = Cond(key, "not_empty", None, None, key, "exact")
    f = req.op("filter")
    if f is not None:
        ops = tuple(replace(o, args={**o.args, "conditions": [*o.args.get("conditions", []), cond]}) if o is f else o for o in req.ops)
    else:
        ops = (Op("filter", {"conditions": [cond], "logic": "and"}), *req.ops)
    turns = [*base.turns, t.utterance]
    return _gate(replace(req, ops=ops, text=t.utterance), t.state, turns, multi_turn=True, catalog=t.catalog,
                 prior=replace(base, stage="confirm") if t.pending is None else base)


# 各占多少比例 / 收费员空着的不要，算一下每人占比 / each one's share, right after a total per key: each key's share of
# that total (a condition on the key said with it drops those groups), never a share of rows meeting a condition
SHARE_SAID = re.compile(r"占比|比例|比重|份额|百分比|(?<![a-z_])(?:share|shares|percentage|proportion)(?![a-z_])", re.I)
EACH_ONES = re.compile(r"各|每人|每个人|每一个|每个|每家|分别|(?<![a-z_])(?:each|every|per)(?![a-z_])", re.I)


ROWS_SHARED = re.compile(r"行数|单数|次数|笔数|人数|条数|订单数|(?<![a-z_])(?:count|rows|number of)(?![a-z_])", re.I)  # a share of the rows, said


def shares_the_last_summary(t: Turn) -> bool:
    last = t.state.last
    if last is None or t.state.pending is not None or t.other_file or t.fresh.file_how in ("named", "fuzzy", "missing", "outside"):
        return False
    g = last.request.op("group")
    if g is None or not g.args.get("keys") or not g.args.get("measures"):
        return False  # (a count per key is a figure too: its rows are shared)
    kinds = set(t.fresh.kinds()) - ({"stack"} if last.request.op("stack") is not None else set())  # (the same sheets, stacked again)
    sh, pr = t.fresh.op("share"), t.fresh.op("proportion")
    if kinds == {"share"} and sh is not None and not sh.args.get("keys"):
        return True  # 各占多少比例
    if kinds == {"share"} and sh is not None and list(sh.args.get("keys") or []) == list(g.args["keys"]) and not sh.args.get("column") \
            and not sh.args.get("count") and not ROWS_SHARED.search(t.text):
        return True  # 各平台占比多少, right after each 平台's total 实付金额: the share of that figure, never of the rows
    keys = set(g.args["keys"])
    return kinds == {"proportion"} and pr is not None and bool(EACH_ONES.search(t.text)) \
        and all(c.column in keys and c.op in ("not_empty", "ne", "not_in") for c in pr.args.get("conditions") or [])


# 按重量算呢 / 换成重量 / 用重量算 / 那重量呢 / what about Litres? / use Litres instead / same but for Litres: the figure of
# the request before, of another column (its keys, rows and steps kept)
FIGURE_SWAP = re.compile(
    r"^\s*(?:(?:and|ok|okay|now)\s+)?(?:what|how) about\s+(?:the\s+)?(?P<e1>.+?)\s*(?:instead)?\s*\??\s*$"
    r"|^\s*(?:use|using|by|with|do it (?:by|with|for))\s+(?:the\s+)?(?P<e2>.+?)\s+instead\s*[.!]?\s*$"
    r"|^\s*(?:the\s+)?same(?:\s+thing)?(?:\s+but)?\s+(?:for|with|using|by|on)\s+(?:the\s+)?(?P<e3>.+?)(?:\s+instead)?\s*[.!?]?\s*$"
    r"|^\s*(?:那|那么|那就)?\s*(?P<zp>换成|改成|改为|换为|用|按)?\s*(?:按|用)?\s*(?P<c>[^，,。；;？?！!\s][^，,。；;？?！!]{0,30}?)\s*(?:的)?\s*"
    r"(?P<zs>来算|算|计算|统计|来看|看|汇总)?\s*(?:一下|一遍)?\s*(?P<zq>呢|吧)?\s*[?？。.!！]*\s*$", re.I)
FIGURE_ARGS = {"share": ("column",), "proportion": ("column",), "stats": ("columns",), "bucket": ("value", "values"), "pivot": ("value",),
               "growth": ("value",), "running_total": ("column",), "rolling": ("column",), "chart": ("y",)}


def _figure_columns(req: Request) -> list[str]:
    """The columns a request's figures are of (a total's, a share's, a statistic's), in order, once each."""
    out: list[str] = []
    for o in req.ops:
        said = [m.get("column") for m in o.args.get("measures") or [] if isinstance(m, dict)] if o.kind == "group" else []
        for a in FIGURE_ARGS.get(o.kind, ()):
            v = o.args.get(a)
            said += v if isinstance(v, list) else [v]
        out += [c for c in said if isinstance(c, str) and c and c not in out]
    return out


def _swapped_column(t: Turn) -> tuple[str, str] | None:
    """(the figure's column before, the one said now) when the turn names only another numeric column of the same table."""
    m = FIGURE_SWAP.match(t.text)
    p = t.pending
    if m is None or p is None or not p.request.file or t.fresh.file_how in EXPLICIT_FILE:
        return None
    word = next((m.group(g) for g in ("c", "e1", "e2", "e3") if m.group(g)), "")
    if m.group("c") and not (m.group("zp") or m.group("zs") or m.group("zq")):
        return None  # 金额 alone: an answer or a word, not a change of the figure
    f = t.catalog.get(p.request.file)
    if f is None or not f.sheets or not word.strip():
        return None
    sheet = next((sh for sh in f.sheets if sh.name == p.request.sheet), f.sheets[0])
    said = re.sub(r"的$", "", word.strip())
    col, how, _ = resolve_column(said, sheet, closest=False)
    figures = _figure_columns(p.request)
    if col is None and COUNT_SWAP.fullmatch(said) and len(figures) == 1 and all(o.kind in COUNT_SWAPPABLE for o in p.request.ops):
        return figures[0], ROWS_SWAP  # 那套数呢 / what about the count?, after a total per month: the rows of each, counted
    if col is not None and how == "partial" and said.casefold() not in col.casefold():
        return None  # 按金额排序: more words than a column's name (a sort said of it), never that column alone
    if col is None or how not in ("exact", "synonym", "partial", "translated") or len(figures) != 1 or col == figures[0] \
            or col not in sheet.numeric or col in sheet.dates:
        return None
    g = p.request.op("group")
    if g is not None and col in (g.args.get("keys") or []):
        return None
    return figures[0], col


# the rows counted, said as the figure a follow-up asks for instead (那套数呢 / 单数呢 / what about the count?)
COUNT_SWAP = re.compile(r"(?:[\u4e00-\u9fff]{0,2}?(?:" + lx.COUNT_NOUNS + r"|条数|行数|记录数|订单数)|(?:the\s+)?(?:count|row count|number of (?:rows|records|[a-z]+s)|rows))", re.I)
COUNT_SWAPPABLE = frozenset({"group", "growth", "chart", "sort", "top_n", "filter", "stack", "head"})
ROWS_SWAP = "\0rows"  # (no column is so named: the row count)


def _count_swapped(o: Op, old: str, lang: str) -> Op:
    """An operation of the request with its figure (old) replaced by the rows counted."""
    from tools.ops import ROWS

    a = dict(o.args)
    if o.kind == "group":
        ms = [m for m in a.get("measures") or [] if not (isinstance(m, dict) and m.get("column") == old)]
        a["measures"] = ms if any(m.get("agg") == "count" and not m.get("column") for m in ms) else [*ms, {"agg": "count"}]
    elif o.kind == "growth" and a.get("value") == old:
        a.update(value=None, count=True)
    elif o.kind == "chart" and old in (a.get("y") or []):
        a.update(y=["行数"], agg="count")
    elif o.kind in ("sort", "top_n"):
        a = {k: _swap_figure(v, old, ROWS[lang]) if k == "by" else v for k, v in a.items()}
    return replace(o, args=a)


def _swap_figure(v: Any, old: str, new: str) -> Any:
    if isinstance(v, str):
        return new if v == old else new + v[len(old):] if v.startswith(old + "_") else v
    if isinstance(v, list):
        return [_swap_figure(x, old, new) for x in v]
    if isinstance(v, dict):
        return {k: _swap_figure(x, old, new) if k in ("column", "by") else x for k, x in v.items()}
    if hasattr(v, "column") and hasattr(v, "op"):  # a having condition on the figure (金额_合计 > 1000)
        return replace(v, column=_swap_figure(v.column, old, new))
    return v


def on_figure_swapped(t: Turn) -> Outcome:
    p = t.pending
    swap = _swapped_column(t)
    assert p is not None and swap is not None
    old, new = swap
    if new == ROWS_SWAP:
        ops = tuple(_count_swapped(o, old, p.request.lang) for o in p.request.ops)
        req = replace(p.request, ops=ops, text=t.utterance)
        return _gate(req, t.state, [*p.turns, t.utterance], multi_turn=True, catalog=t.catalog, prior=replace(p, stage="confirm"))
    keys = {"group": ("measures",), "top_n": ("by",), "sort": ("by",), "having": ("conditions", "measure"), **FIGURE_ARGS}
    ops = tuple(replace(o, args={k: _swap_figure(v, old, new) if k in keys.get(o.kind, ()) else v for k, v in o.args.items()}) for o in p.request.ops)
    req = replace(p.request, ops=ops, text=t.utterance)
    return _gate(req, t.state, [*p.turns, t.utterance], multi_turn=True, catalog=t.catalog, prior=replace(p, stage="confirm"))


# what share of all transactions is that per sheet / 占全部记录的比例, right after a count of the rows a condition keeps per
# key: each key's rate (those rows over all of its rows), never each key's part of that count
OF_ALL_ROWS = re.compile(r"(?<![a-z_])(?:share|percent(?:age)?|proportion|fraction|rate|%)\s+of\s+(?:all|the total|total)(?![a-z_])|(?<![a-z_])out of all(?![a-z_])"
                         r"|占(?:全部|所有|总)(?:的)?(?:行数?|记录数?|单数?|笔数?|条数?|数量)?(?:的)?(?:比例|占比|百分比|多少)"
                         r"|在(?:全部|所有)[^，,。]{0,6}(?:里|中)(?:的)?(?:占比|比例)", re.I)


# who is that driver? name and plan / 他们叫什么名字，在哪个村: right after a ranking of ids, the columns another table
# holds for those ids, brought onto the result (never a question about the world)
WHO_IS = re.compile(r"^\s*(?:and\s+|so\s+)?(?:who|what)(?:\s+(?:is|are|was|were)|'s|'re)\s+(?:that|this|those|these|they|it|he|she)(?:\s+[a-z]+)?\s*[?？]?"
                    r"|^\s*(?:那)?(?:他|她|它|他们|她们|这个人|那个人|这几个人|这些人|这位|那位)(?:分别)?(?:是谁|叫什么名字|叫什么|的名字是什么)\s*[?？，,]?", re.I)


def _brought_in(said: str, state: SessionState, catalog: Catalog) -> tuple[str, list[str]] | None:
    """(the one other table, the columns said) when every column a bring-in names (带上医生姓名, after a total per
    医生工号) is of one table other than the result and its source, never of either of them; None otherwise (a figure of
    the source is added by its own rule)."""
    last, result = state.last, catalog.get(state.last_result) if state.last_result else None
    if last is None or result is None or not result.sheets or lx.EXPORT.search(said):
        return None
    src = catalog.get(last.request.file or "")
    own = [result.sheets[0], *((src.sheet(last.request.sheet or "") or src.sheets[0],) if src is not None and src.sheets else ())]
    keys = {c for c in result.sheets[0].columns if c not in result.sheets[0].numeric}
    found: list[tuple[FileInfo, list[str]]] = []
    theirs: list[tuple[int, int]] = []  # the spans their exact names cover
    for f in catalog.tables:
        if not f.is_table or not f.sheets or results.is_result(f.path) or f.path in (state.last_result, last.request.file) \
                or not keys & set(f.sheets[0].columns):
            continue
        hits = [h for h in find_columns(said, f.sheets[0]) if h.how in ("exact", "synonym") and h.column not in keys]
        if hits:
            found.append((f, [h.column for h in hits]))
            theirs += [(h.start, h.end) for h in hits if h.how == "exact"]
    # (会员类型 of 读者.csv, whole: never 类型 read as the result's 分类)
    if any(h.how in ("exact", "synonym") and not any(a <= h.start and h.end <= b for a, b in theirs) for sh in own for h in find_columns(said, sh)):
        return None
    if len(found) != 1:
        return None
    f, cols = found[0]
    return f.name, list(dict.fromkeys(cols))


# a line (bar) for each sheet, said of a chart: 每个店一条线 (每个工作表 once the sheet noun is read) / one line per sheet
LINE_PER_SHEET = lazy(r"[，,]?\s*(?:每个?|各个?)\s*工作表\s*(?:各)?\s*(?:一|1)\s*(?:条|根|个)\s*(?:线|折线|柱子?|系列)"
                            r"|[,，]?\s*(?:with\s+)?(?:one|a)\s+(?:line|series|bar)\s+(?:per|for each|for every)\s+sheet(?![a-z_])", re.I)
CHART_SAID = lazy(r"图|(?<![a-z_])(?:chart|plot|graph)(?![a-z_])", re.I)


def _who_is_asked(text: str, m: re.Match[str], state: SessionState, catalog: Catalog) -> tuple[str, list[str]] | None:
    """(the table that says who, the columns asked of it) for the ids a result just shown holds; None when no one table
    holds them, or nothing of it is asked."""
    from modes.joins import NAME_COLUMN, NAME_WORD

    last = state.last
    result = catalog.get(state.last_result) if state.last_result else None
    if last is None or result is None or not result.sheets:
        return None
    keys = [c for c in result.sheets[0].columns if c not in result.sheets[0].numeric]
    tables = [f for f in catalog.tables if f.path not in (state.last_result, last.request.file) and f.sheets and f.is_table
              and any(k in f.sheets[0].columns for k in keys) and not results.is_result(f.path)]
    if len(tables) != 1:
        return None
    f, rest = tables[0], text[m.end() :]
    sh = f.sheets[0]
    cols = [h.column for h in find_columns(rest, sh) if h.how in ("exact", "synonym", "translated") and h.column not in keys]
    names = [c for c in sh.columns if NAME_COLUMN.search(c) and c not in keys]
    if (NAME_WORD.search(rest) or not rest.strip(" ?？,，.。")) and len(names) == 1 and names[0] not in cols:
        cols.insert(0, names[0])  # who is that driver (name and plan): the one name column, first
    return (f.name, list(dict.fromkeys(cols))) if cols else None


def heats_the_pivot(t: Turn) -> bool:
    """make it a heat map / 做成热力图, right after a pivot: the pivot's rows, columns and figure, coloured by value."""
    last, c = t.state.last, t.fresh.op("chart")
    if last is None or t.state.pending is not None or c is None or c.args.get("kind") != "heatmap" or set(t.fresh.kinds()) - {"chart", "stack"}:
        return False
    p = last.request.op("pivot")
    return p is not None and bool(p.args.get("rows")) and bool(p.args.get("columns")) and not p.args.get("period") and not c.args.get("keys")


def on_pivot_heated(t: Turn) -> Outcome:
    last = t.state.last
    assert last is not None
    def heat(o: Op) -> Op:
        a = o.args
        y = [a["value"]] if a.get("value") else ["行数"]
        return Op("chart", {"kind": "heatmap", "keys": [a["rows"][0], a["columns"]], "y": y, "agg": a.get("agg") or "sum"}, o.after)
    req = replace(last.request, ops=tuple(heat(o) if o.kind == "pivot" else o for o in last.request.ops), text=t.utterance)
    return _gate(req, t.state, [*last.turns, t.utterance], multi_turn=True, catalog=t.catalog, prior=replace(last, stage="confirm"))


def rates_the_count(t: Turn) -> bool:
    last = t.state.last
    if last is None or t.state.pending is not None or not OF_ALL_ROWS.search(t.text) or t.fresh.file_how in EXPLICIT_FILE:
        return False
    f, g = last.request.op("filter"), last.request.op("group")
    return f is not None and g is not None and bool(g.args.get("keys")) and bool(g.args.get("measures")) \
        and all(not m.get("column") for m in g.args["measures"]) and set(last.request.kinds()) <= {"stack", "filter", "group", "sort", "top_n"} \
        and all(c.column for c in f.args.get("conditions") or [])


def on_count_rated(t: Turn) -> Outcome:
    last = t.state.last
    assert last is not None
    f, g = last.request.op("filter"), last.request.op("group")
    assert f is not None and g is not None
    ops: list[Op] = []
    for o in last.request.ops:
        if o.kind == "group":
            ops.append(Op("proportion", {"conditions": list(f.args.get("conditions") or []), "logic": f.args.get("logic", "and"), "by": list(g.args["keys"])}, o.after))
        elif o.kind not in ("filter", "sort", "top_n"):
            ops.append(o)
    req = replace(last.request, ops=tuple(ops), text=t.utterance)
    return _gate(req, t.state, [*last.turns, t.utterance], multi_turn=True, catalog=t.catalog, prior=replace(last, stage="confirm"))


def on_last_summary_shared(t: Turn) -> Outcome:
    from modes.conditions import Cond

    last = t.state.last
    assert last is not None
    g = last.request.op("group")
    assert g is not None
    col = next((m["column"] for m in g.args["measures"] if m.get("column")), None)  # None: a count per key, its rows shared
    pr = t.fresh.op("proportion")
    dropped: list[Cond] = list(pr.args.get("conditions") or []) if pr is not None else []
    ops: list[Op] = []
    f = last.request.op("filter")
    if dropped and f is None:
        ops.append(Op("filter", {"conditions": dropped, "logic": "and"}))
    for o in last.request.ops:
        if o.kind == "filter" and dropped:
            ops.append(replace(o, args={**o.args, "conditions": [*o.args.get("conditions", []), *dropped]}))
        elif o.kind == "group":
            ops.append(Op("share", {"keys": list(g.args["keys"]), **({"column": col} if col else {})}, o.after))
        elif o.kind not in ("sort", "top_n", "export"):
            ops.append(o)
    req = replace(last.request, ops=tuple(ops), text=t.utterance)
    return _gate(req, t.state, [*last.turns, t.utterance], multi_turn=True, catalog=t.catalog, prior=replace(last, stage="confirm"))


# show me those rows / list them / which ones are they / 把这些单子列出来 / 是哪些 / 明细呢: right after a figure, the rows
# it was made from, listed — never a profile of the figure's own table
ROWS_ASKED = lx.ROWS_ASKED  # show me those rows / 列出来: the rows behind a figure (lexicon)
ROWS_KEPT_KINDS = lx.ROWS_KEPT_KINDS


# 把这6单的明细导出成Excel / export those rows to Excel: the rows behind the figure just given, written out
# (these alone, after a total per key, is that summary: only the rows' own words — a count of them, 单子, rows — say the rows)
ROWS_EXPORTED = re.compile(r"(?:这|那)(?:\d+|[一二两三四五六七八九十]+|几)\s*(?:个|条|笔|单|行|位|张)\s*(?:单子|订单|记录|数据|行)?\s*的?\s*(?:明细|数据|记录|单子)?"
                           r"|(?:这|那)些\s*(?:单子|订单|记录|明细|行)"
                           r"|(?<![a-z_])(?:those|these|the)(?:\s+\d+)?\s+(?:rows|records|orders|entries|bookings|rentals|sales|details)(?![a-z_])", re.I)


def _exports_the_rows(t: Turn) -> bool:
    return ROWS_EXPORTED.search(t.text) is not None and lx.EXPORT.search(t.text) is not None and t.fresh.file_how not in EXPLICIT_FILE \
        and set(t.fresh.kinds()) <= {"export", "profile"}


def lists_the_counted_rows(t: Turn) -> bool:
    """A turn that only asks for the rows (or to write them out), right after a figure made from rows (a count, a total per key)."""
    last = t.state.last
    if last is None or t.state.pending is not None or not (ROWS_ASKED.search(t.text) or _exports_the_rows(t)) or not last.request.file:
        return False
    kinds = set(last.request.kinds())
    return bool(kinds & ({"group", "bucket", "share", "proportion"} | FIGURE_KINDS))


def on_counted_rows_listed(t: Turn) -> Outcome:
    last = t.state.last
    assert last is not None
    ops = tuple(o for o in last.request.ops if o.kind in ROWS_KEPT_KINDS)  # the rows before any figure was made of them
    export = t.fresh.op("export") if _exports_the_rows(t) else None
    ops = (*ops, export) if export is not None else ops  # 把这6单的明细导出成Excel: those rows, written in the format said
    # how many bookings per show, then show me those rows: every row of the table, previewed
    req = replace(last.request, ops=ops or (Op("profile", {"head": None, "columns": []}),), text=t.utterance)
    # nothing new is read: the request just run, its figure left off, runs as it is said in its "about to" line
    return _gate(req, t.state, [*last.turns, t.utterance], multi_turn=False, catalog=t.catalog, prior=None)


@functools.cache
def _show_all_words() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(the words that ask for every group of a ranking, the fillers that may stand beside them), from words.toml."""
    from modes.tagging.segment import word_alternation, words_toml

    w = words_toml()["show_all"]
    said = re.compile(rf"{word_alternation(w['zh'])}|(?<![a-z_])(?:{word_alternation(w['en'])})(?![a-z_])", re.I)
    return said, _fillers("show_all")


@functools.cache
def _fillers(section: str) -> re.Pattern[str]:
    """The words a words.toml section lets stand beside its own (filler_zh / filler_en), and punctuation."""
    from modes.tagging.segment import word_alternation, words_toml

    w = words_toml()[section]
    return re.compile(rf"{word_alternation(w['filler_zh'])}|(?<![a-z_])(?:{word_alternation(w['filler_en'])})(?![a-z_])|[\s,，。.!！?？;；:：'’]+", re.I)


def _ranking_cut(last: Pending | None) -> Op | None:
    """The cut to the first N of a ranking of the request just run (none per group, none of both ends, none of a share)."""
    cut = last.request.op("top_n") if last is not None else None
    if cut is None or cut.args.get("within") or cut.args.get("both") or cut.args.get("percent"):
        return None
    return cut


def unlimits_the_ranking(state: SessionState, text: str) -> bool:
    """A turn that only asks for every group of the ranking just cut to its first N (show all of them, not just the
    top one / 全部列出来，不只是第一)."""
    if state.pending is not None or _ranking_cut(state.last) is None:
        return False
    said, filler = _show_all_words()
    if said.search(text) is None:
        return False
    return not filler.sub("", said.sub("", text)).strip()


def on_ranking_unlimited(t: Turn) -> Outcome:
    """The request just run, every row of its ranking in the same order (the cut to N becomes the order it ranked by)."""
    last = t.state.last
    cut = _ranking_cut(last)
    assert last is not None and cut is not None
    args: dict[str, Any] = {"ascending": bool(cut.args.get("ascending"))}
    if cut.args.get("by"):
        args["by"] = [cut.args["by"]]
    if cut.args.get("as_text"):
        args["as_text"] = True
    ops = tuple(Op("sort", args, o.after) if o is cut else o for o in last.request.ops)
    req = replace(last.request, ops=ops, text=t.utterance)
    return _gate(req, t.state, [*last.turns, t.utterance], multi_turn=False, catalog=t.catalog, prior=None)


def rounds_what_ran(state: SessionState, text: str) -> bool:
    """保留整数 / 保留两位小数 / round to 2 decimals, said alone right after a request ran: its numbers rounded."""
    from modes.ops import _round_said

    if state.pending is not None or state.last is None or not state.last.request.file or not state.last.request.ops:
        return False
    said = _round_said(text)
    if said is None or said[2] is not None:
        return False  # (round Fee to 1 decimal, a column said: a request of its own)
    a, b = said[1]
    return not _fillers("round_result").sub("", text[:a] + " " + text[b:]).strip()


def on_round_what_ran(t: Turn) -> Outcome:
    """The request just run, its numbers rounded as said (a rounding said before is replaced), before anything it writes."""
    from modes.ops import _round_said

    last = t.state.last
    said = _round_said(t.text)
    assert last is not None and said is not None
    ops = [o for o in last.request.ops if o.kind != "round_numbers"]
    at = next((i for i, o in enumerate(ops) if o.kind in ("export", "chart")), len(ops))
    ops.insert(at, Op("round_numbers", {"digits": said[0]}))
    req = replace(last.request, ops=tuple(ops), text=t.utterance)
    return _gate(req, t.state, [*last.turns, t.utterance], multi_turn=False, catalog=t.catalog, prior=None)


# no condition / none, I don't want a filter / 不用筛选了, to "What is the condition?": the filter is dropped, the rest stays
DECLINE_FILTER = re.compile(r"^\s*(?:no\s+(?:condition|filter)s?|(?:no|none|nope|nah)(?:\s*[,.]?\s*(?:i\s+)?(?:don'?t|do not)\s+(?:want|need)\s+(?:a|any)\s+(?:filter|condition)s?)?"
                            r"|without\s+(?:a|any)\s+(?:condition|filter)s?|(?:i\s+)?(?:don'?t|do not)\s+(?:want|need)\s+(?:a|any)\s+(?:filter|condition)s?"
                            r"|all\s+(?:the\s+)?rows|every\s+row)(?![a-z_])\s*[,.;:]?"
                            r"|^\s*(?:不用|不要|不需要|无需|别)(?:再)?(?:筛选|筛|过滤|加条件)了?\s*[，,。]?|^\s*(?:没有|不加|不要)条件\s*[，,。]?|^\s*(?:全部|所有行|所有的)都要\s*[，,。]?", re.I)


def declines_the_filter(t: Turn) -> bool:
    p = t.pending
    return p is not None and "condition" in p.request.missing and bool(p.request.file) and DECLINE_FILTER.search(t.text) is not None


def on_filter_declined(t: Turn) -> Outcome:
    """The filter asked about is declined: what else was asked runs (restated) on the same table; with nothing else,
    what to do with that table is asked."""
    p = t.pending
    assert p is not None
    m = DECLINE_FILTER.search(t.text)
    assert m is not None
    rest = (t.text[: m.start()] + t.text[m.end() :]).strip(" ,，。.;；")
    where = " ".join(x for x in (p.request.file, p.request.sheet) if x)
    if rest:  # no condition, just total Hours: that, on the same table
        req = replace(understand([f"{where} {rest}"], t.catalog, t.state, [p.request.file] if p.request.file else None), lang=p.request.lang)
        return _gate(req, t.state, [rest], multi_turn=True, catalog=t.catalog, prior=None)
    others = tuple(o for o in p.request.ops if o.kind != "filter")
    if others:
        req = replace(p.request, ops=others, missing=tuple(x for x in p.request.missing if x != "condition"))
        return _gate(req, t.state, list(p.turns), multi_turn=True, catalog=t.catalog, prior=None)
    said = ("好的，不筛选。" if t.lang == "zh" else "OK, no filter. ") + replies.ask_intent(t.lang, p.request.file)
    d = _decision("unknown", "ask_intent", replace(p.request, intent="unknown", ops=()), said, "filter_declined")
    return d, t.state.evolve(pending=None, current_file=p.request.file)


@functools.cache
def _drop_step_words() -> tuple[re.Pattern[str], dict[str, re.Pattern[str]]]:
    from modes.tagging.segment import words_toml

    w = words_toml()["drop_step"]
    alt = lambda xs: "|".join(re.escape(x) for x in sorted(xs, key=len, reverse=True))  # noqa: E731
    lead = re.compile(rf"(?:{alt(w['lead_zh'])})|(?<![a-z_])(?:{alt(w['lead_en'])})(?![a-z_])\s*(?:the\s+)?", re.I)
    kinds = {k: re.compile(rf"\s*(?:做|算|加|画|那个|这个|这一步|了)?\s*(?:{alt(v)})(?:\s+step)?(?:这一步|那一步|了)?", re.I) for k, v in w["kinds"].items()}
    return lead, kinds


# what may be left beside the step said not to be done: the rest of the request confirmed (只关联就行 / just the join)
DROP_REST = re.compile(r"[\s,，。.!！;；]|只|就行|就好|就可以|即可|就|了|吧|(?<![a-z_])(?:just|only|the|join|please|ok|okay|keep|rest|thanks|totals?|table|figures|numbers|rows|summary)(?![a-z_])|关联|合并|对上|汇总|合计|表", re.I)


def _steps_dropped(t: Turn) -> tuple[set[str], str] | None:
    """(the kinds of step said not to be done that the waiting request has, the words left) or None."""
    p = t.pending
    if p is None or p.stage != "confirm":
        return None
    lead, kinds = _drop_step_words()
    have = {o.kind for o in p.request.ops}
    dropped: set[str] = set()
    left = t.text
    for m in lead.finditer(t.text):
        for kind, rx in kinds.items():
            k = rx.match(t.text, m.end())
            if k is not None and kind in have:
                dropped.add(kind)
                left = left[: m.start()] + " " * (k.end() - m.start()) + left[k.end() :]
                break
    return (dropped, left) if dropped else None


# drop the Opened condition / remove the August filter / 去掉金额的条件: the conditions of what waits that the words name,
# taken out of it (the rest stays)
DROP_CONDITION = re.compile(r"(?<![a-z_])(?:drop|remove|lose|take off|take out|get rid of|forget|ignore|skip|clear)\s+(?:the\s+|that\s+)?"
                            r"(?P<w>[\w'’ -]{1,30}?)\s+(?:condition|conditions|filter|filters|restriction|limit|cut-?off)(?![a-z_])"
                            r"|(?:去掉|不要|删掉|取消|拿掉|别加)\s*(?P<z>[^，,。；;\s]{1,12}?)\s*(?:的)?\s*(?:这个|那个)?(?:条件|筛选|过滤|限制)", re.I)


def _conditions_dropped(t: Turn) -> tuple[Op, list[Any]] | None:
    """(the filter of what waits, the conditions the words name) for a turn that says to drop them."""
    p = t.pending
    m = DROP_CONDITION.search(t.text)
    f = p.request.op("filter") if p is not None else None
    if m is None or f is None or (p is not None and p.stage != "confirm"):
        return None
    said = (m.group("w") or m.group("z") or "").strip().casefold()
    named = [c for c in f.args.get("conditions") or [] if _names_condition(said, c)]
    return (f, named) if named else None


def _names_condition(said: str, c: Any) -> bool:
    """Whether words name a condition: its column, its words, a value of it, or the month of a date it compares with."""
    from modes.conditions import MONTHS_EN

    if not said:
        return False
    names = [str(x).casefold() for x in (c.column, c.raw) if x]
    if any(n == said or n in said or (len(said) >= 3 and said in n) for n in names):
        return True
    values = [*(c.value if isinstance(c.value, list) else [c.value]), c.value2]
    texts = [str(v.get("date", "")) if isinstance(v, dict) else str(v) for v in values if v is not None]
    if any(v and (v.casefold() == said or len(v) >= 2 and v.casefold() in said) for v in texts):
        return True
    months = {n for w, n in MONTHS_EN.items() if re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", said)}
    months |= {int(x) for x in re.findall(r"(\d{1,2})\s*月", said)}
    return bool(months) and any(re.match(rf"\d{{4}}-{n:02d}-", v) for v in texts for n in months)


def drops_a_condition(t: Turn) -> bool:
    return _conditions_dropped(t) is not None and not t.other_file


def on_condition_dropped(t: Turn) -> Outcome:
    """drop the Opened condition / 去掉8月的条件, while a request waits (or right after it ran): that request without
    those conditions, restated (its other conditions, groups and cuts stay)."""
    p = t.pending
    found = _conditions_dropped(t)
    assert p is not None and found is not None
    f, named = found
    left = [c for c in f.args.get("conditions") or [] if c not in named]
    ops = tuple((Op("filter", {**o.args, "conditions": left}, o.after) if left else None) if o is f else o for o in p.request.ops)
    kept = tuple(o for o in ops if o is not None)
    if not kept:
        said_file = p.request.file
        d = _decision("unknown", "ask_intent", replace(p.request, intent="unknown", ops=()), replies.ask_intent(t.lang, said_file), "conditions_dropped")
        return d, t.state.evolve(pending=None, current_file=said_file or t.state.current_file)
    return _gate(replace(p.request, ops=kept), t.state, [*p.turns, t.utterance], multi_turn=True, catalog=t.catalog, prior=p)


def drops_a_step(t: Turn) -> bool:
    said = _steps_dropped(t)
    if said is None:
        return False
    left = said[1]
    f = t.pending.request.op("filter") if "filter" in said[0] and t.pending is not None else None
    if f is not None:  # 不要筛选渠道为空: the condition said with the filter dropped is that filter's
        words = [str(x) for c in f.args.get("conditions") or [] for x in (c.column, c.raw, *(c.value if isinstance(c.value, list) else [c.value])) if x]
        for w in sorted(words, key=len, reverse=True):
            left = left.replace(w, " " * len(w))
        left = CONDITION_WORDS.sub(lambda m: " " * len(m.group(0)), left)
    return not DROP_REST.sub("", lx.CORRECTION.sub("", left)).strip()


CONDITION_WORDS = re.compile(r"为空|是空的?|不为空|空的?|等于|不等于|是|为|的|(?<![a-z_])(?:is|are|blank|empty|equals?|=)(?![a-z_])", re.I)


# 不对，就只去重，别的都不要 / no, just the dedupe, nothing else: what the last turn asked, none of what it was added to
NOTHING_ELSE = lazy(r"(?:别的|其他的?|其它的?|其余的?|剩下的)(?:步骤|操作|条件)?都?(?:不要|不用|去掉|别要|别加|不需要)(?:了)?|(?<![a-z_])(?:nothing else|none of the rest|drop (?:all )?the rest|forget the rest)(?![a-z_])", re.I)


def keeps_only_the_last(t: Turn) -> bool:
    """A correction that keeps only what its last turn asked for, of a request several turns made."""
    p = t.pending
    return p is not None and len(p.turns) > 1 and NOTHING_ELSE.search(t.text) is not None and not t.other_file


def on_only_the_last(t: Turn) -> Outcome:
    """不对，就只去重，别的都不要, after 11月工单号重复的只留一条 was read together with the request before it: that turn
    alone, on the request's file, restated before it runs."""
    p = t.pending
    assert p is not None
    turns = [p.turns[-1]]
    merged = understand(turns, t.catalog, t.state, [p.request.file] if p.request.file else None)
    return _gate(merged, t.state, turns, multi_turn=True, catalog=t.catalog, prior=None)


def on_step_dropped(t: Turn) -> Outcome:
    """不要再删重复行了，只关联就行 / no chart, just the table: the waiting request without that step, restated."""
    p = t.pending
    said = _steps_dropped(t)
    assert p is not None and said is not None
    # 不要占比了, of shares per key: the summary per key stays (each key's total), never nothing
    kept = tuple(Op("group", {"keys": list(o.args["keys"]), "measures": [{"column": o.args["column"], "agg": "sum"}] if o.args.get("column") else [{"agg": "count"}]}, o.after)
                 if o.kind == "share" and "share" in said[0] and o.args.get("keys") and not any(x.kind == "group" for x in p.request.ops) else o
                 for o in p.request.ops if o.kind not in said[0] or (o.kind == "share" and o.args.get("keys")))
    kept = tuple(o for o in kept if o.kind not in said[0])
    if not kept:  # nothing left to do: asked, never run nor cancelled unasked
        said_file = p.request.file
        d = _decision("unknown", "ask_intent", replace(p.request, intent="unknown", ops=()), replies.ask_intent(t.lang, said_file), "steps_dropped")
        return d, t.state.evolve(pending=None, current_file=said_file or t.state.current_file)
    return _gate(replace(p.request, ops=kept), t.state, [*p.turns, t.utterance], multi_turn=True, catalog=t.catalog, prior=p)


def on_added_part(t: Turn) -> Outcome:
    """A part added to a request that waits (最后还要算库存数量的合计): the turns understood together, and the words the
    waiting request did not understand still named, never dropped by the addition."""
    p = t.pending
    assert p is not None
    turns = _with_turn(p.turns, t.utterance)
    merged = understand(turns, t.catalog, t.state, None)
    earlier = [w for w in p.request.unexplained if w not in merged.unexplained]
    if earlier:
        said = evidence.weighed("words_unread", "没理解：" + "、".join(earlier), "not understood: " + ", ".join(earlier))
        merged = replace(merged, unexplained=(*earlier, *merged.unexplained), evidence=(*merged.evidence, said))
    return _gate(merged, t.state, turns, multi_turn=True, catalog=t.catalog, prior=p)


def on_export_list(t: Turn) -> Outcome:
    wants_file = bool(lx.EXPORT.search(t.text))
    ops = (Op("list_files", {}),) + ((Op("export", {"format": "csv"}),) if wants_file else ())
    req = replace(t.fresh, intent="export_list", ops=ops, missing=(), file=None, evidence=())
    return _decision("act", "execute", req, "", "export_list"), t.state.evolve(pending=None)


def on_talk(t: Turn) -> Outcome:
    """Talk that is not about the workspace: a reply, and nothing pending is touched."""
    assert t.talk is not None
    return _chat(t.talk, t.utterance, t.lang, t.state)


def on_names_nothing(t: Turn) -> Outcome:
    """看看 / 比较 with nothing of the workspace named: ask what to do, never which file to preview. Words no rule
    reads (周末比较想去爬山) make it talk about something else: a reply."""
    if t.fresh.unexplained or evidence.unexplained(t.text, []):
        return _chat("other", t.utterance, t.lang, t.state)
    req = replace(t.fresh, intent="unknown")
    d = _decision("unknown", "ask_intent", req, replies.ask_intent(t.lang), "names_nothing")
    return d, t.state.evolve(pending=None)


def on_request(t: Turn) -> Outcome:
    """A request of its own. Said while another waits for confirmation, it sets that one aside and is restated before
    it runs (never run at once in place of what waited: 交车日期要按月汇总 read alone is not the pivot it corrected)."""
    replacing = t.state.pending is not None and t.state.pending.stage == "confirm"
    return dropped_note(t, _gate(t.fresh, t.state, [t.utterance], multi_turn=replacing, catalog=t.catalog, prior=None))


# ---------------------------------------------------------------- classifiers


HOLD_FILLER = re.compile(r"[\s,，。.!！~、]|这个|那个|吧|了|先|啊|呀|哈|(?<![a-z_])(?:for now|it|that|this|please|ok|okay)(?![a-z_])", re.I | re.A)


def holds(t: Turn) -> bool:
    """取消 / 算了, 等一下，先别转, 先放着 / leave it for now, 不用了，谢谢: a hold or cancel that asks for nothing new."""
    if is_cancel(t.text) or (HOLD.match(t.text) and not t.new_kinds - {"export"}):
        return True
    if lx.SET_ASIDE.search(t.text) and not HOLD_FILLER.sub("", lx.SET_ASIDE.sub(" ", t.text)):
        return True  # 这个先放一放吧
    no_thanks = lx.THANKS.sub(" ", t.text).strip(" ,，。.!！~")
    return no_thanks != t.text.strip(" ,，。.!！~") and (no_thanks.casefold() == "no" or bool(no_thanks) and is_cancel(no_thanks))


def bare_greeting(t: Turn) -> bool:
    """你好 / hello alone: answered before any file is looked into."""
    return bool(lx.GREETING.match(t.text.strip())) and find_files(t.text, t.catalog).how == "none"


def only_chat(t: Turn) -> bool:
    if t.pending is not None and t.pending.stage == "clarify" and t.column_named and len(t.text.strip()) <= 20:
        return False  # 加班费, typed to "按哪一列排序？": a column answering the question, never talk about overtime
    return bool(t.chat) and not t.new_kinds and t.fresh.file_how in ("none", "current", "current_missing")


def explains_unread(t: Turn) -> bool:
    """就是报修日期最早的5个 / price_usd not 0, while a restatement that names words it did not understand waits: the
    turn says what those words meant, in parts the waiting request lacks, so it joins that request (restated again)."""
    p = t.pending
    if p is None or p.stage != "confirm" or not p.request.unexplained or t.other_file or t.chat is not None:
        return False
    if t.fresh.file_how in EXPLICIT_FILE and t.fresh.file != p.request.file or t.fresh.missing or t.fresh.unexplained:
        return False
    return bool(t.new_kinds) and not (t.new_kinds & t.old_kinds) and t.new_kinds <= REFINING_KINDS | {"top_n", "filter", "sort"}


# a turn that opens with the next part of what waits (and then pivot it / and clean it first / 然后画个图)
NEXT_PART = lazy(r"^\s*(?:and(?:\s+then)?|then|plus|然后|接着|之后|再然后)(?![a-z_])", re.I | re.A)


def adds_a_part(t: Turn) -> bool:
    """最后还要算库存数量的合计 / also the total of qty, while a restated request waits: a part of a kind it lacks, said as
    an addition, naming no other file."""
    p = t.pending
    if p is None or p.stage != "confirm" or t.other_file or t.chat is not None or not (ADDITIVE.search(t.text) or NEXT_PART.search(t.text)):
        return False
    if t.fresh.file_how in EXPLICIT_FILE and t.fresh.file != p.request.file or t.fresh.missing:
        return False
    return bool(t.new_kinds) and not (t.new_kinds & t.old_kinds)


ADDS_LEAD = lazy(r"^\s*(?:还要|还得|再|也要|另外|顺便|同时|然后再|(?:and\s+)?also|plus|then also)(?![a-z_])", re.I)


def adds_to_what_ran(t: Turn) -> bool:
    """还要取金额最高的那一个门店 / also the top 3, after a request that ran: a part added to it (its conditions and groups
    stay), restated before it runs; never a new question over the whole table."""
    p = t.pending
    if p is None or t.state.pending is not None or t.state.last is None or t.other_file or t.chat is not None or not ADDS_LEAD.search(t.text):
        return False
    if t.fresh.file_how in EXPLICIT_FILE and t.fresh.file != p.request.file or not p.request.file:
        return False
    return bool(t.new_kinds - t.old_kinds) and t.new_kinds <= {"top_n", "sort", "group", "stats", "count", "chart", "export"}


AMEND_KINDS = frozenset({"filter", "sort", "select", "top_n", "head", "dedupe", "having", "stats", "export"})


def amends_what_waits(t: Turn) -> bool:
    """对，但是只要前5个 / yes but only the top 3 / 只看前3个 / ok, average not sum, while a restated request waits: a
    cut, an order, a condition or a statistic changed in it (its file, sheet and other parts stay), restated again;
    never a new request that sets it aside."""
    p = t.pending
    if not t.amends or p is None or p.stage != "confirm" or t.other_file or t.chat is not None or not t.new_kinds:
        return False
    if t.fresh.file_how in EXPLICIT_FILE and t.fresh.file != p.request.file:
        return False
    if t.state.pending is None and "export" in t.new_kinds:
        return False  # 好的，下载一下, right after a result: that result saved, nothing of it changed
    # 用平均值 / 改成按月 / but per Vet and Specialty: the summary's statistic or its keys, while a summary waits
    regroups = t.fresh.op("group") is not None and bool(t.old_kinds & {"group", "stats"})
    return t.new_kinds <= AMEND_KINDS | ({"group"} if regroups else set())


def answers_file_and_key(t: Turn) -> bool:
    """门诊挂号2024，三个表合起来，按缴费方式, to "which file? group by which column?": the file, its sheets and the key
    answer the questions of what waits (its share per key kept), never a new request of a plain summary."""
    p = t.pending
    if p is None or "file" not in p.request.missing or t.fresh.file_how not in EXPLICIT_FILE or not t.fresh.file:
        return False
    slots = set(p.request.missing) - {"file"}
    return bool(slots) and slots <= {"group_by", "sort_by", "column", "columns", "x", "y"} and bool(t.new_kinds) \
        and t.new_kinds <= {"group", "stack", "sort"} and not lx.CORRECTION.search(t.text)


CHART_OF_IT = lazy(r"(?<![a-z_])(?:of|for|from|with)\s+(?:that|this|it|them|those)(?![a-z_])|(?:把)?(?:这个|那个|它|这些)(?:画|做成|做个|生成)|画(?:成|个)?(?:图|柱状图|折线图|饼图)", re.I)


def charts_what_waits(t: Turn) -> bool:
    """make a bar chart of that / 把这个画成柱状图, while a summary waits to be confirmed: the chart of that summary (its key
    along the axis, its figure drawn), never a chart of the whole table asked about from scratch."""
    p, c = t.pending, t.fresh.op("chart")
    if p is None or c is None or t.new_kinds != {"chart"} or t.other_file or (c.args.get("x") and c.args.get("y")):
        return False
    g = p.request.op("group")
    return g is not None and bool(g.args.get("keys")) and bool(g.args.get("measures")) and CHART_OF_IT.search(t.text) is not None


def complete_new_request(t: Turn) -> bool:
    """A turn that says a whole request of the same kinds itself; a correction (不对，是华北) changes what waits instead."""
    return (bool(t.new_kinds) and not t.fresh.missing and not t.other_file and not (t.new_kinds - t.old_kinds)
            and not ADDITIVE.search(t.text) and not lx.CORRECTION.search(t.text))


def corrects_by_adding(t: Turn) -> bool:
    """no, group by country / 不对，要按部门分 after a request that kept rows: the correction adds the grouping (or an
    order) to what it corrects, whose conditions stay; restated before it runs."""
    p = t.pending
    if p is None or not lx.CORRECTION.search(t.text) or t.other_file or (t.fresh.file_how in EXPLICIT_FILE and t.fresh.file != p.request.file):
        return False
    return bool(t.new_kinds) and t.new_kinds <= {"group", "sort", "top_n", "stats", "count"} and "filter" in t.old_kinds \
        and "filter" not in t.new_kinds


def corrects_the_chart(t: Turn) -> bool:
    """no, per month of start_time / 不对，按区域 after a chart: the chart's categories change; restated before it runs."""
    p = t.pending
    if p is None or not lx.CORRECTION.search(t.text) or t.other_file or t.fresh.file_how in EXPLICIT_FILE:
        return False
    return "chart" in t.old_kinds and bool(t.new_kinds) and t.new_kinds <= {"bucket", "group"}


def corrects_the_rows(t: Turn) -> bool:
    """不对，只数住校是"是"的 / no, only tickets on the Pro plan, after a summary, a ranking or a count: the correction says
    which rows, and the summary it corrects stays (its grouping, its top N); restated before it runs."""
    p = t.pending
    if p is None or not lx.CORRECTION.search(t.text) or t.other_file or t.fresh.missing \
            or (t.fresh.file_how in EXPLICIT_FILE and t.fresh.file != p.request.file):  # only App orders: orders names its own file
        return False
    return "filter" in t.new_kinds and t.new_kinds <= {"filter", "count"} and bool(t.old_kinds - {"filter", "profile"})


def refers_to_pending(t: Turn) -> bool:
    """他们的平均工资呢 / what is their average, while the rows they point at wait to be confirmed: the reference is to
    those rows, so the turn adds to what waits instead of setting it aside for the whole table."""
    p = t.pending
    if p is None or p.stage != "confirm" or t.other_file or not t.new_kinds or t.fresh.file_how in EXPLICIT_FILE:
        return False
    rows = {o.kind for o in p.request.ops} & {"filter", "top_n", "head", "dedupe"}
    return bool(rows) and lx.RESULT_REF.search(t.text) is not None and not lx.CORRECTION.search(t.text)


REFINING_KINDS = {"filter", "sort", "select", "top_n", "head", "dedupe", "having"}


def ungroups_the_sheets(t: Turn) -> bool:
    """分组里去掉工作表 / not by depot / drop sheet from the grouping, while a request over the stacked sheets waits: the
    same request with the sheets no key (never a filter of its result)."""
    return t.pending is not None and ungroups_sheets_of(t.text, t.pending) and t.fresh.file_how not in EXPLICIT_FILE


def widens_to_all_sheets(t: Turn) -> bool:
    """all sheets, not just Northgate / same for all depots / 三个校区都算一下, while (or right after) a request on one
    sheet of a workbook split into sheets: the same request over every sheet stacked, never a request of its own."""
    p = t.pending
    if p is None or p.request.op("stack") is not None or not p.request.file or not p.request.sheet or t.other_file:
        return False
    f = t.catalog.get(p.request.file)
    if f is None or len(f.sheets) < 2 or len({tuple(sh.columns) for sh in f.sheets}) != 1:
        return False
    from modes.tagging.sheet_nouns import as_sheets, says_every_sheet

    said = as_sheets(t.text, t.catalog, p.request.file).casefold()
    every = lx.ALL_SHEETS.search(said) is not None or says_every_sheet(t.text, t.catalog, p.request.file)
    return every and t.new_kinds <= {"stack", "profile"}


def ungroups_sheets_of(text: str, p: Pending) -> bool:
    """The turn says the sheets are no key of a request over the stacked sheets (after it ran: a correction of it)."""
    return p.request.op("stack") is not None and lx.NOT_BY_SHEET.search(text) is not None


def _an_edit_of_its_own(utterance: str, text: str, state: SessionState, catalog: Catalog) -> bool:
    """东校区记录编号是R0030的那条，是否通过改成是, after a dedupe ran: 改成 sets a cell's value — a whole edit of its own,
    fully read, that corrects nothing of what ran."""
    if not EDIT_VERB.search(text) or CORRECTION_LEAD.search(text):
        return False
    f = Turn(utterance, text, language(utterance), state.evolve(last=None), catalog, None).fresh
    edit = f.op("replace")
    return edit is not None and not f.missing and not f.unexplained and edit.args.get("conditions") is not None


CORRECTION_LEAD = re.compile(r"^\s*(?:不对|不是|错了|搞错了?|弄错了?|(?:no|wrong|actually|oops)(?![a-z_]))", re.I)
EDIT_VERB = re.compile(r"改成|改为|换成|换为|(?<![a-z_])(?:set|change)\s+\S+(?:\s+\S+)?\s+to(?![a-z_])", re.I)
NEW_QUESTION = re.compile(r"^\s*(?:不对|不是)?\s*[，,]?\s*(?:这是|这是个|是)?(?:一个)?(?:新的?问题|新请求|新的需求|另一个问题|换个问题|另外一个问题)\s*[:：，,。]?\s*(?:不要筛选[，,]?|别带上之前的[，,]?)?"
                          r"|^\s*(?:(?:no|ok)\s*[,.]?\s*)?(?:(?:this is\s+)?a\s+)?(?:new|different|separate)\s+(?:question|request)\s*[:,.-]?\s*", re.I)
NOT_ALONE = re.compile(r"^\s*(?:and\s+|but\s+|now\s+)?(?:not|excluding|except|without|minus)\s+[A-Za-z0-9_\-]+(?:\s*(?:,|or|and|nor)\s*[A-Za-z0-9_\-]+)*\s*[.!]?\s*$", re.I)


def refines(t: Turn) -> bool:
    """A turn right after a run that only adds or swaps a part of it (a condition, an exclusion, an order, the columns
    kept, a cut), said with a follow-up word (那…呢, 只看, 也去掉, now, what about) and naming no file."""
    last = t.pending
    if last is None or t.chat is not None or t.other_file:
        return False
    if _stacked_sheet_left_out(t):
        return True  # same but leave out the Autumn sheet, after every sheet stacked: those rows left out of the same request
    if not t.new_kinds:
        return _value_of_the_joined(t, last.request)  # now excluding Co9, after a join and a total per company: its rows
    cut_again = t.fresh.file_how == "result" and t.new_kinds <= {"top_n"} and "top_n" in t.old_kinds  # 那最高的3个呢, after the 3 lowest
    if t.fresh.file_how in ("named", "fuzzy", "result", "missing", "outside") and not (t.fresh.file_how == "fuzzy" and t.fresh.file == last.request.file) \
            and not cut_again:
        return False  # a file named (even the same one) starts a request of its own (by payment method, after payments.csv: a word of its name)
    f, rated = t.fresh.op("filter"), t.fresh.op("group")
    sorted_by_rate = rated is not None and bool(rated.args.get("rate_word")) and not rated.args.get("keys")  # (sort by the rate: the rates')
    if f is not None and t.new_kinds <= {"filter", "sort", "top_n", *(("group",) if sorted_by_rate else ())} and (key := _blank_key(last.request)) is not None \
            and bool(f.args.get("conditions")) and all((c.column or c.raw) == key and c.op == "not_empty" for c in f.args["conditions"]):
        return True  # leave out the blank vehicle and sort by the rate, after a rate per vehicle: the same rates, that group gone
    if t.new_kinds == {"group"} and "join" in t.old_kinds and t.fresh.file_how in ("none", "description", "inferred") and _key_of_the_joined(t, last.request):
        return True  # same by contract type, after a join and a total by team: the same join and figure, by that key
    if t.fresh.file_how == "description" and t.fresh.file != last.request.file:
        return False  # words that describe another file
    if _other_sheet_said(t) and not SHEET_FOLLOW_UP.search(t.text) and not lx.CORRECTION.search(t.text):
        return False  # 11月工单号重复的只留一条, after a request on 10月: a request of its own on that sheet (那11月的呢 follows one)
    if t.new_kinds == {"group"} and "filter" in t.old_kinds and t.old_kinds <= {"filter", "stack"} and not t.fresh.unexplained \
            and t.fresh.file_how in ("none", "current") and not _sheet_said_in(t) \
            and (g := t.fresh.op("group")) is not None and g.args.get("keys") and not t.fresh.op("filter"):
        return True  # how many per station, right after the March rows were listed: those rows, per station
    if lx.BREAK_DOWN.search(t.text) and t.new_kinds <= {"group", "stats"} and t.old_kinds & (FIGURE_KINDS | {"filter", "group"}):
        return True  # break that down by plan, after how many signed up in 2023: the same rows, per plan
    if t.new_kinds in ({"group"}, {"bucket"}) and _keys_alone(t) and t.old_kinds & (FIGURE_KINDS | SHARE_KINDS | {"group", "bucket"}) and _holds_more(last.request):
        return True  # by payment method / 按门店, after a total: the same figure, per key (a bare summary is simply regrouped)
    listed = any(o.kind == "dedupe" and o.args.get("show") for o in last.request.ops)  # (the duplicates listed: rows kept too)
    if t.new_kinds and t.new_kinds <= {"sort", "top_n"} and ("filter" in t.old_kinds or listed) and t.old_kinds <= {"filter", "export", "select", "stack", "sort", "dedupe"} \
            and t.fresh.file_how in ("none", "current") and not t.fresh.unexplained and not _sheet_said_in(t) and not t.fresh.op("filter") \
            and not results.is_result(last.request.file or ""):  # (rows kept from a result: the latest result is what is ordered)
        return True  # 按金额从大到小排一下再导出, after the rows not delivered were exported: those rows, in that order
    if t.new_kinds <= {"sort", "top_n"} and _orders_the_summary(t, last.request):
        return True  # 按金额从高到低排一下, right after a total per 商品: the summary in that order, never the source's rows
    if t.new_kinds & {"share"} and t.new_kinds <= {"sort", "share"} and _shares_the_summary(t, last.request):
        return True  # 按金额排一下，再算下每个类别占的比例, after a total per 类别: the same rows, each key's share
    if VALUE_ASKED_THEN.search(t.text) and t.new_kinds - t.old_kinds <= {"group"} and t.new_kinds <= REFINING_KINDS | t.old_kinds | {"group"} \
            and t.old_kinds & (FIGURE_KINDS | {"group", "filter"}):
        return True  # 全职的呢，按站点分一下, after a count of 众包: the same figure for 全职, per 站点
    if ALSO_FOR.search(t.text) and t.new_kinds <= REFINING_KINDS | t.old_kinds:
        return True  # 饿了么的也导一份 / same for Cash too, after a run: the same request for the value said
    if t.new_kinds == {"filter"} and (ROWS_NARROWED.search(t.text) or EXCLUSION_REDONE.search(t.text)) and t.old_kinds - {"filter", "profile"}:
        return True  # 只算没取消的 / 等级空的不要，重新画 / leave out the refunds, after a figure: the same figure over those rows
    if t.new_kinds == {"filter", "count"} and EXCLUDED_IF.search(t.text) and "filter" in t.old_kinds and t.old_kinds & {"group", "count"}:
        return True  # 不含Amy的话一共几单, after the weekend perms per stylist: those rows, Amy left out, counted
    bare = t.fresh.op("group")
    if t.new_kinds == {"filter", "group"} and ROWS_NARROWED.search(t.text) and "group" in t.old_kinds and bare is not None \
            and not bare.args.get("keys") and not bare.args.get("measures") and bare.args.get("aggs"):
        return True  # 只算逾期了的，最小值是多少, after a column's max and min: those rows, that statistic of the same column
    if WHICH_OF_THEM.search(t.text) and t.new_kinds <= {"proportion"} and t.new_kinds and not t.fresh.unexplained \
            and (g := last.request.op("group")) is not None and g.args.get("keys"):
        return True  # which one has the highest no-show rate?, after totals per sheet: that rate of each of the same groups
    if _figure_of_the_same_keys(t, last.request):
        return True  # 那涉及车辆数加起来呢, after a count per month: the same periods (or groups), that figure
    if t.old_kinds & (FIGURE_KINDS | SHARE_KINDS) and t.new_kinds & ROW_KINDS and not t.new_kinds & FIGURE_KINDS:
        return False  # the top 5 rows …, after a median (or each store's share): rows of their own, never a cut of one figure
    return bool(lx.FOLLOW_UP.search(t.text)) and t.new_kinds <= REFINING_KINDS | t.old_kinds


def _read_on_the_result(t: Turn) -> Turn | None:
    """A turn right after a result, naming no file, that cannot be read without one (a slot asked, a column not found)
    but reads in full on the result just shown: that reading (as if 在这个结果里 were said)."""
    st = t.state
    if st.pending is not None or st.last is None or not st.last_result or t.chat is not None or lx.RESULT_REF.search(t.text) \
            or t.fresh.file_how != "none" or not (t.fresh.missing or any(o.args.get("unresolved") for o in t.fresh.ops)):
        return None
    lead = "在这个结果里，" if CJK.search(t.text) else "in that result, "
    again = Turn(lead + t.utterance, lead + t.text, t.lang, st, t.catalog, None)
    r = again.fresh
    if r.file_how != "result" or r.missing or r.unexplained or any(o.args.get("unresolved") for o in r.ops) or not r.ops:
        return None
    return again


def _key_of_the_joined(t: Turn, r: Request) -> bool:
    """A key said alone that is a column of the table a join brought in (ContractType of drivers.csv), not found where
    the turn was read alone."""
    g = t.fresh.op("group")
    if g is None or len(r.files) < 2 or t.fresh.file not in (None, r.files[1]) or g.args.get("measures"):
        return False
    other = t.catalog.get(r.files[1])
    if other is None or not other.sheets:
        return False
    if g.args.get("keys"):  # same by plan: a key the joined table holds, found there
        return set(g.args["keys"]) <= set(other.sheets[0].columns)
    cols = {h.column for h in find_columns(t.text, other.sheets[0]) if h.column not in other.sheets[0].numeric}
    return bool(g.args.get("unresolved")) and len(cols) == 1


WHICH_OF_THEM = re.compile(r"^\s*(?:and\s+|so\s+)?(?:which|what)\s+(?:one|of them|of these|of those|sheet|location|group)(?![a-z_])|^\s*(?:那)?(?:哪个|哪一个|哪家|哪个组)", re.I)


def _value_of_the_joined(t: Turn, r: Request) -> bool:
    """A follow-up that says a value only the table the request joined holds (now excluding Co9 / 只看高级的)."""
    if r.op("join") is None or len(r.files) < 2 or not lx.FOLLOW_UP.search(t.text) or t.fresh.unexplained and not t.fresh.file_how:
        return False
    from modes.resolve import find_values

    other = t.catalog.get(r.files[1])
    return other is not None and other.is_table and bool(other.sheets) and bool(find_values(t.text, other.sheets[0], []))


def _figure_of_the_same_keys(t: Turn, r: Request) -> bool:
    """A follow-up (那…呢 / what about …) that says only a figure of a column, after a summary per key or per period."""
    g, old_g, old_b = t.fresh.op("group"), r.op("group"), r.op("bucket")
    if g is None or g.args.get("keys") or not g.args.get("measures") or t.fresh.unexplained or not lx.FOLLOW_UP.search(t.text):
        return False
    if [o.kind for o in t.fresh.ops if o.kind != "stack"] != ["group"]:
        return False
    return old_b is not None and len(g.args["measures"]) == 1 or old_g is not None and bool(old_g.args.get("keys"))


def _stacked_sheet_left_out(t: Turn) -> bool:
    """A sheet of the stacked request just run, said as what is left out (leave out the Autumn sheet / 不要三月表)."""
    p = t.pending
    stack = p.request.op("stack") if p is not None else None
    if stack is None:
        return False
    return any(_sheet_valued(t.text, m.start(), m.end()) for name in stack.args.get("sheets") or []
               for m in re.finditer(re.escape(name), t.text, re.I))


def _other_sheet_said(t: Turn) -> bool:
    """The turn names, by its own name, a sheet of the request's workbook other than the one the request read."""
    p = t.pending
    if p is None or not p.request.file:
        return False
    f = t.catalog.get(p.request.file)
    if f is None or len(f.sheets) < 2 or not p.request.sheet or p.request.op("stack") is not None:
        return False
    low = t.text.casefold()
    return any(s.name and s.name != p.request.sheet and _sheet_named(s.name, low) for s in f.sheets)


def _orders_the_summary(t: Turn, r: Request) -> bool:
    """A sort (or a cut) by a column the summary just made holds — one of its figures' columns or its keys — with no
    condition and no file of its own said."""
    g = r.op("group")
    if g is None or not g.args.get("keys") or not set(r.kinds()) <= {"filter", "group", "sort", "top_n", "stack"}:
        return False
    held = set(g.args["keys"]) | {m["column"] for m in g.args.get("measures") or [] if m.get("column")}
    by = [c for o in t.fresh.ops if o.kind in ("sort", "top_n") for c in ([o.args.get("by")] if isinstance(o.args.get("by"), str) else o.args.get("by") or [])]
    return bool(by) and set(by) <= held and not t.fresh.unexplained


def _shares_the_summary(t: Turn, r: Request) -> bool:
    """Shares by the summary's own keys, of its one summed column, with no condition or file of their own."""
    g, sh = r.op("group"), t.fresh.op("share")
    if g is None or sh is None or not g.args.get("keys") or t.fresh.unexplained or t.fresh.op("filter"):
        return False
    return list(sh.args.get("keys") or []) == list(g.args["keys"]) and sh.args.get("column") in {m.get("column") for m in g.args.get("measures") or []}


def _keys_alone(t: Turn) -> bool:
    """A turn that only names keys (按门店 / by payment method / 那按城市呢): a group with keys and nothing else said."""
    g, b = t.fresh.op("group"), t.fresh.op("bucket")
    n = len([o for o in t.fresh.ops if o.kind != "stack"])  # (the sheets stacked again, as the request before them was)
    if b is not None and n == 1 and not b.args.get("value") and not b.args.get("by") and not t.fresh.unexplained:
        return True  # 按季度分别列一下 / by month: the periods of a date column are the keys
    return (g is not None and bool(g.args.get("keys")) and not g.args.get("measures") and n == 1
            and not t.fresh.unexplained)


def _holds_more(r: Request) -> bool:
    """A request with more than its keys to carry over: a condition, a figure, a count."""
    g = r.op("group")
    return bool(r.op("filter") or r.op("count") or r.op("stats") or r.op("bucket") or r.op("proportion") or (g is not None and g.args.get("measures")))


PERIOD_FIGURES = frozenset({"growth", "rolling", "running_total"})


def extends_periods(t: Turn) -> bool:
    """add the month-over-month growth / 再算一下环比 / and a 3-month rolling average, right after a summary per period:
    the same request, with that figure of its periods (never a new request that asks which file)."""
    g = t.fresh.op("growth")
    own = g is not None and isinstance(g.args.get("value"), str) and g.args["value"].casefold() in t.text.casefold() and not ADDITIVE.search(t.text)
    # 7月8月9月分别…, 再算环比 (每个月结算金额一共多少，环比涨了多少 names its own figure: a request of its own)
    periodic = t.old_kinds & (PERIOD_FIGURES | {"bucket"}) or ("stack" in t.old_kinds and t.new_kinds == {"growth"} and not own)
    unit_only = t.new_kinds == {"bucket"} and bool(t.old_kinds & PERIOD_FIGURES)  # 改成按月, after 环比 by quarter: its periods
    one_sheet = "stack" in t.old_kinds and bool(t.fresh.sheet) and "stack" not in t.new_kinds and _sheet_said_in(t)  # 北门每个月…环比, after all sheets
    return (bool(t.new_kinds) and (t.new_kinds <= PERIOD_FIGURES or unit_only) and bool(periodic) and not one_sheet
            and t.fresh.file_how not in (*EXPLICIT_FILE, "type") and t.chat is None)


def _sheet_said_in(t: Turn) -> bool:
    """Whether the turn says the name of the sheet its reading chose (北门每个月…): a sheet of its own, never all of them."""
    return bool(t.fresh.sheet) and _sheet_named(str(t.fresh.sheet), t.text.casefold())


FIGURE_KINDS = frozenset({"stats", "count"})  # a request that answers with one figure
ROW_KINDS = frozenset({"top_n", "sort", "head", "select"})  # a request that answers with rows
SHARE_KINDS = frozenset({"proportion", "share"})  # a request that answers with shares of the rows


def swaps_statistic(t: Turn) -> bool:
    """换成中位数 / use the median instead, while a summary waits or just ran: a correction of its statistic."""
    p = t.pending
    if p is not None and _statistic_alone(t) and "group" in t.new_kinds and t.old_kinds & {"group", "stats"} and not t.other_file:
        return True  # 最大值呢, after a total per 导购 (use the mean instead, after a median per age group): that aggregate
    return (p is not None and (bool(lx.CORRECTION.search(t.text)) or _statistic_alone(t)) and t.new_kinds <= {"stats", "group"} and "stats" in t.new_kinds
            and bool(t.old_kinds & {"group", "stats", "pivot"}) and not t.other_file)


def _statistic_alone(t: Turn) -> bool:
    """中位数呢 / 用中位数再算一遍 / median?: one statistic said with no column, key or file of its own."""
    st, g = t.fresh.op("stats"), t.fresh.op("group")
    if t.fresh.file_how in EXPLICIT_FILE or t.fresh.unexplained:
        return False
    if t.new_kinds == {"group"} and g is not None:  # 最大值呢 / the max?: a plain aggregate said alone
        return not g.args.get("keys") and not g.args.get("measures") and not g.args.get("unresolved") and len(g.args.get("aggs") or []) == 1
    return (t.new_kinds == {"stats"} and st is not None and not st.args.get("columns") and not st.args.get("by")
            and len(st.args.get("stats") or []) == 1)


# leave out 50+ / only the Online ones / 不要退货的 / 团购的不算, while a summary waits: rows left out of it (or the only rows)
ROWS_NARROWED = lazy(r"^\s*(?:(?:and|but|ok|okay)\s+)?(?:(?:still|also)\s+)?(?:leave out|leaving out|exclude|excluding|without|except(?: for)?|drop|not|no|only|just|but not"
                     r"|去掉|不要|不算|排除|剔除|除了|除去|只要|只看|只算|只留|仅|只)(?![a-z_])"
                     r"|(?:的)?\s*(?:不算|不要|去掉|排除掉?|剔除|除外|不计)了?\s*[。.!！]?\s*$", re.I)


# 不含Amy的话 / 除了Amy以外的话 / without Amy, how many: a value left out of the rows just counted, as a supposition
EXCLUDED_IF = lazy(r"^\s*(?:那|那么)?\s*(?:不含|不包括|不算|去掉|除了|除去|排除)[^，,。；;]{1,16}?(?:以外|之外)?的话|^\s*(?:and\s+)?(?:without|excluding|leaving out|not counting)\s+[^,]{1,30}?,?\s*(?:how many|what)", re.I)


# 全职的呢，按站点分一下 / what about Cash, by station: another value asked first, then what else changes
VALUE_ASKED_THEN = lazy(r"^\s*那?\s*[^，,。；;]{1,16}?的?\s*呢\s*[，,]\s*\S|^\s*(?:and\s+)?what about\s+[^,]{1,30},\s*\S", re.I)
# 饿了么的也导一份 / 浦东店的也来一个 / Cash ones too: the request just run, for another value
ALSO_FOR = lazy(r"的?\s*也(?:导|做|算|来|出|弄|要|拉|看|发)(?:出来?)?(?:一份|一下|一个|个|一遍)?\s*(?:吧|呢)?\s*[。.!！]?\s*$"
                r"|(?<![a-z_])(?:ones?|rows|orders)?\s*too\s*[.!]?\s*$|^\s*(?:(?:and|so|ok|okay|now|then)\s*,?\s+)?(?:the\s+)?same\s+(?:thing\s+)?for\s", re.I)


def narrows_what_waits(t: Turn) -> bool:
    """leave out 50+ / 团购的不算, while a restated summary (a ranking, a chart …) waits: the rows it is made of narrowed,
    the rest of it kept and restated again — never a bare filter that sets it aside."""
    p = t.pending
    if p is None or p.stage != "confirm" or t.state.pending is None or t.other_file or t.chat is not None or t.fresh.missing:
        return False
    if t.fresh.file_how in EXPLICIT_FILE and t.fresh.file != p.request.file or not ROWS_NARROWED.search(t.text):
        return False
    return t.new_kinds == {"filter"} and bool(t.old_kinds - {"filter", "profile"})


def orders_what_waits(t: Turn) -> bool:
    """按单数从多到少排 / sort it by count, while a restated summary waits: the summary in that order (or its first N),
    restated again — never a bare sort of the source's rows that sets it aside."""
    p = t.pending
    if p is None or p.stage != "confirm" or t.state.pending is None or t.other_file or t.chat is not None or t.fresh.missing:
        return False
    if t.fresh.file_how in EXPLICIT_FILE and t.fresh.file != p.request.file:
        return False
    g = p.request.op("group")
    if g is not None and bool(g.args.get("keys")) and bool(t.new_kinds) and t.new_kinds <= {"sort", "top_n"}:
        return True
    b = p.request.op("bucket")  # 哪个月最多, while the months' totals wait: those months ranked by their figure
    return b is not None and bool(b.args.get("value")) and t.new_kinds == {"bucket", "top_n"} and (nb := t.fresh.op("bucket")) is not None \
        and nb.args.get("unit") == b.args.get("unit") and not nb.args.get("value")


def more_of_the_same(t: Turn) -> bool:
    p = t.pending
    return p is not None and not (t.new_kinds - t.old_kinds) and not t.other_file and not (t.fresh.full and not p.request.full) \
        and not lists_rows_anew(t)


# show bookings with … / list the orders where … / 列出…的订单: the rows themselves asked for, from the start of the turn
LIST_ROWS_START = re.compile(r"^\s*(?:please\s+)?(?:show|list|display|find|give|pull(?:\s+up)?)(?:\s+me)?(?:\s+(?:all|the|every|any))*\s+"
                             r"(?:[a-z][\w-]*\s+){0,2}?(?:[a-z][\w-]*s\s+(?:with|where|that|which|who|whose|over|above|under|below|from)"
                             r"|(?:orders?|rows?|records?|entries|transactions?|visits?|bookings?|tickets?|jobs?|loans?|sessions?))(?![a-z_])"
                             r"|^\s*(?:请)?(?:列出|显示|找出|调出|给我看)(?:一下)?(?:所有|全部)?.{0,24}?的(?:订单|单子|记录|明细|行)", re.I)


def lists_rows_anew(t: Turn) -> bool:
    """show bookings with party size above 6 …, while a ranking of servers waits: the rows themselves asked for by a
    whole filter of its own, a new request, never conditions added to the summary that waits."""
    p = t.pending
    return p is not None and t.new_kinds == {"filter"} and bool(t.old_kinds & {"group", "top_n", "stats", "chart", "pivot"}) \
        and LIST_ROWS_START.search(t.text) is not None


def corrects_with_a_new_column(t: Turn) -> bool:
    """no, I meant a new column Gap = Last Service Date - Purchase Date, after a summary it misread: the correction is a
    whole request of its own (a column computed, nothing missing), which replaces the misreading, never joins it."""
    p = t.pending
    return (p is not None and bool(lx.CORRECTION.search(t.text)) and bool(t.new_kinds) and t.new_kinds <= {"formula", "add_column"}
            and not t.old_kinds & {"formula", "add_column"} and not t.fresh.missing and not t.fresh.unexplained and not t.other_file)


WHOLE_ANALYSES = frozenset({"growth", "pivot", "share", "rolling", "running_total"})


def corrects_with_a_whole_request(t: Turn) -> bool:
    """no, year over year growth of net amount for each Colour, sheets 2024 and 2025, after a comparison it did not mean:
    a correction that says a whole analysis of its own, fully understood on the same file, replaces what it corrects."""
    f = t.fresh
    figures = [o.args.get("value") or o.args.get("column") for o in f.ops if o.kind in WHOLE_ANALYSES]
    own = any(isinstance(c, str) and c.casefold() in t.text.casefold() for c in figures)  # (its figure said in its own words)
    return corrects_with_new_kind(t) and bool(t.new_kinds & WHOLE_ANALYSES) and not (t.new_kinds & t.old_kinds) and own \
        and not f.missing and not f.unexplained and not f.gaps and f.file == (t.pending.request.file if t.pending else None)


def corrects_with_new_kind(t: Turn) -> bool:
    """不对，是按性价比排 after a summary: a correction, whatever new kind of work it names, is read with the request it
    corrects (its file stays; a column it names that is not there is asked about), never as a request about no file."""
    p = t.pending
    if p is None or not lx.CORRECTION.search(t.text) or t.other_file or t.fresh.files or not p.request.file:
        return False
    if t.fresh.file_how == "description" and t.fresh.file != p.request.file:  # 不对，按门店…: 门店 is its column, not stores.csv
        f = t.catalog.get(p.request.file)
        return f is not None and any(find_columns(t.text, sh) for sh in f.sheets[:1])
    return t.fresh.file_how not in EXPLICIT_FILE or (t.fresh.file_how == "description" and t.fresh.file == p.request.file)  # (its own file described)


def splits_the_chart(t: Turn) -> bool:
    """按城市分系列 / split by Mode / add Carrier as the series, while a bar or line chart waits: one series per value
    of a column of its table, read on that table (Mode is its column there, never the statistic)."""
    p = t.pending
    if p is None or not p.request.file or t.other_file:
        return False
    chart = p.request.op("chart")
    if chart is None or chart.args.get("kind") not in ("bar", "line"):
        return False
    from modes.tagging.series import series_key

    f = t.catalog.get(p.request.file)
    sheet = f.sheet(p.request.sheet) if f is not None and p.request.sheet else f.sheets[0] if f is not None and f.sheets else None
    if sheet is None or t.fresh.file_how in EXPLICIT_FILE and t.fresh.file != p.request.file:
        return False
    return series_key(t.text, [h for h in find_columns(t.text, sheet) if h.column not in sheet.dates])[0] is not None


def flips_the_layout(t: Turn) -> bool:
    """反过来 / 行和列对调 / the other way round, after a pivot or a chart with one series per value: the same figure with
    its rows and columns swapped (never a transpose of the whole table in its place)."""
    p = t.pending
    if p is None or t.other_file:
        return False
    from modes.gate import _flipped
    from modes.tagging.series import flipped

    return flipped(t.text) is not None and _flipped({o.kind: o for o in p.request.ops}) is not None


def relays_the_pivot(t: Turn) -> bool:
    """rows Mode, columns Carrier / 行放品类，列放城市, naming no figure, while a pivot of a figure waits: the same pivot
    laid out again (its figure stays), never a new pivot of row counts."""
    p = t.pending
    if p is None or t.other_file or t.new_kinds != {"pivot"}:
        return False
    old, new = p.request.op("pivot"), t.fresh.op("pivot")
    return old is not None and new is not None and bool(old.args.get("value")) and bool(new.args.get("value_unsaid"))


def about_wenqing(t: Turn) -> bool:
    explicit = t.fresh.file_how in EXPLICIT_FILE or bool(t.fresh.missing_file_name)
    if t.chat == "greeting" and t.fresh.file_how == "description":
        explicit = False  # 你好，我是物业公司的小王: a word of a file's name in who is speaking names no file
    strong = set(t.fresh.kinds()) - WEAK_KINDS
    return bool(t.chat) and not explicit and (t.chat in ("about", "howto", "join_kinds", "safety", "privacy", "formats") or not strong)


DEGREE_BIJIAO = re.compile(r"比较(?=[有想喜爱好多少大小高低贵便快慢远近难容累忙])")  # 比较有名: "rather", not "compare"


def names_nothing(t: Turn) -> bool:
    """Talk read as 看看 / 比较 / 不是… that names no file, column or value: words no rule reads, a condition with no
    column (你不是本人吗), or 比较 meaning "rather". A bare 筛选一下 is a clear intent and is asked about as usual."""
    f = t.fresh
    if f.file_how != "none" or not f.ops or t.names_data or t.names_values or set(f.kinds()) - NAMELESS_KINDS:
        return False
    if any(o.args.get("unresolved") for o in f.ops):
        return False
    conds = [c for o in f.ops if o.kind == "filter" for c in o.args.get("conditions") or []]
    if any(getattr(c, "column", None) for c in conds):
        return False
    return bool(f.unexplained or evidence.unexplained(t.text, [])) or bool(conds) or bool(DEGREE_BIJIAO.search(t.text))


def lists_files(t: Turn) -> bool:
    return bool(lx.EXPORT_LIST.search(t.text)) and not (set(t.fresh.kinds()) - WEAK_KINDS) and not t.fresh.file


@dataclass(frozen=True)
class Row:
    stage: str  # any | pending | confirm | clarify | idle
    when: Callable[[Turn], bool]
    then: Callable[[Turn], Outcome]


DIALOGUE: tuple[Row, ...] = (
    Row("any", lambda t: not t.text, on_empty),
    Row("idle", bare_greeting, lambda t: _chat("greeting", t.utterance, t.lang, t.state)),
    Row("any", holds, on_cancel),
    Row("pending", drops_a_condition, on_condition_dropped),
    Row("pending", lambda t: t.refining, on_more_of_the_same),
    Row("confirm", lambda t: is_confirm(t.text) and _reduced_by_a_gap(t), on_confirm_gap),
    Row("confirm", lambda t: is_confirm(t.text) and bool(data_words_unexplained(t)), on_confirm_unexplained),
    Row("confirm", lambda t: is_confirm(t.text), on_confirm),
    Row("clarify", lambda t: is_confirm(t.text) and _the_one_offer(t) is not None, lambda t: on_slot_answer(_as_offer_typed(t))),
    Row("clarify", lambda t: is_confirm(t.text), lambda t: ask_again(t, "confirm_while_clarifying")),
    Row("any", lambda t: is_confirm(t.text), on_confirm_nothing),
    Row("pending", rejects_only, on_rejected),
    Row("pending", lambda t: t.rewritten is not None, on_rewritten),
    Row("pending", drops_a_step, on_step_dropped),
    Row("pending", keeps_only_the_last, on_only_the_last),
    Row("pending", only_chat, on_chat),
    Row("pending", lambda t: corrected_sheet(t) is not None, on_sheet_correction),
    Row("clarify", declines_the_filter, on_filter_declined),
    Row("clarify", answers_file_and_key, on_more_of_the_same),
    Row("clarify", lambda t: t.answer is not None, on_slot_answer),
    Row("any", lambda t: t.talk is not None, on_talk),
    Row("idle", redoes_the_join, on_join_redone),
    Row("idle", prepares_then_redoes, on_prepared_redo),
    Row("pending", ungroups_the_sheets, on_more_of_the_same),
    Row("pending", widens_to_all_sheets, on_more_of_the_same),
    Row("pending", refers_to_pending, on_more_of_the_same),
    Row("pending", charts_what_waits, on_more_of_the_same),
    Row("pending", splits_the_chart, on_more_of_the_same),
    Row("pending", flips_the_layout, on_more_of_the_same),
    Row("pending", relays_the_pivot, on_more_of_the_same),
    Row("pending", corrects_by_adding, on_more_of_the_same),
    Row("pending", corrects_the_rows, on_more_of_the_same),
    Row("pending", corrects_the_chart, on_more_of_the_same),
    Row("pending", extends_periods, on_more_of_the_same),
    Row("pending", adds_a_part, on_added_part),
    Row("pending", adds_to_what_ran, on_more_of_the_same),
    Row("pending", explains_unread, on_more_of_the_same),
    Row("pending", narrows_what_waits, on_more_of_the_same),
    Row("pending", orders_what_waits, on_more_of_the_same),
    Row("pending", complete_new_request, on_replacement),
    Row("pending", lambda t: bool(t.swapped_to), on_file_swap),
    Row("pending", swaps_statistic, on_more_of_the_same),
    Row("pending", more_of_the_same, on_more_of_the_same),
    Row("any", about_wenqing, on_chat),
    Row("any", lists_files, on_export_list),
    Row("pending", corrects_with_a_new_column, on_replacement),
    Row("pending", corrects_with_a_whole_request, on_replacement),
    Row("pending", corrects_with_new_kind, on_more_of_the_same),
    Row("idle", names_nothing, on_names_nothing),
    Row("any", lambda t: True, on_request),
)


def _fits(stage: str, p: Pending | None) -> bool:
    if stage == "any":
        return True
    if stage == "pending":
        return p is not None
    if stage == "idle":
        return p is None
    return p is not None and p.stage == stage


def decide(state: SessionState, utterance: str, catalog: Catalog) -> Outcome:
    """One turn of understanding: the decision and the session state after it (the dialogue table decides)."""
    state = state.evolve(turn=state.turn + 1)
    text = normalize(utterance)
    said = utterance
    change = _change_said(state, text)
    if change is not None and state.pending is None and change.confirmed:
        utterance, text = change.change, normalize(change.change)  # yes, but name the file x.xlsx, after a run: the yes confirms nothing
    if state.last is not None and (rd := RESULT_DESCRIBED.search(text)) is not None:
        # 在刚才重复姓名的结果里按姓名排序: the result is said by what it was, never those words read as a request again
        text = text[: rd.start()] + "在这个结果里" + text[rd.end() :]
        utterance = normalize(utterance)
        utterance = RESULT_DESCRIBED.sub("在这个结果里", utterance, count=1)
    if (nq := NEW_QUESTION.match(text)) is not None and text[nq.end():].strip():
        # 不对，这是新的问题，…东校区按月汇总费用 / new question: …: a request of its own, nothing of the one before carried
        text = utterance = text[nq.end():].strip()
        state = state.evolve(pending=None, last=None)
    base = state.pending or state.last
    if base is not None and (head := BLANK_GROUP_THEN.match(text)) is not None and (key := _blank_key(base.request)) is not None:
        # drop the blank one and sort it biggest first: the blank group as a condition on its key, the rest as said
        said_not_blank = f"{key}不为空" if CJK.search(text) else f"{key} is not empty"
        text = utterance = said_not_blank + text[head.end():]
    p = state.pending
    if base is not None and (p is None or p.stage == "confirm"):
        from modes.tagging.corrections import bound_said_again

        rebound = bound_said_again(text, base.turns)
        if rebound is not None:  # lower it to 300 / same but over 300, after chargers over 400: that request, with that bound
            prior = p or replace(base, stage="confirm")
            return never_twice(Turn(utterance, text, language(utterance), state, catalog, prior), *_said_anew(rebound, state, catalog, prior))
    refining = of_groups = share_all = False
    own_edit = p is None and state.last is not None and _an_edit_of_its_own(utterance, text, state, catalog)
    if p is None and state.last is not None and not is_cancel(text) and not own_edit:
        from modes.tagging import corrections

        if (EXCLUSION_REDONE.search(text) or NOT_ALONE.match(text)) and not lx.CORRECTION.search(text) \
                and refines(Turn(utterance, text, language(utterance), state, catalog, replace(state.last, stage="confirm"), True)):
            # 不要退货的，再算一次 / not CR03, after crews over 300k: those rows left out of what just ran
            p, refining = replace(state.last, stage="confirm"), True
        elif SHARE_OF_ALL.search(text) and _counted_under_conditions(state.last):
            # and what share of all weddings is that?, after weekend weddings counted: those rows over all the weddings
            text = SHARE_OF_ALL_REF.sub(lambda m: " " * len(m.group(0)), text)
            utterance = re.sub(r"\s{2,}", " ", SHARE_OF_ALL_REF.sub(" ", utterance)).strip()
            p, refining, share_all = replace(state.last, stage="confirm"), True, True
        elif lx.CORRECTION.search(text) or lx.REJECTION.fullmatch(text) \
                or corrections.marked(text) or ungroups_sheets_of(text, state.last) or corrections.dropped_value(text, state.last.request) is not None:
            p = replace(state.last, stage="confirm")  # 不对，是北京: a correction to what just ran, restated before it runs again
        elif lx.ADDITIVE.search(text) and not lx.ADD_COLUMN.search(text) and (g := state.last.request.op("group")) is not None \
                and (g.args.get("keys") or g.args.get("measures")):  # (再加一列收缴率 is a column of the result, never a figure of its summary)
            p = replace(state.last, stage="confirm")  # 再加一个平均每单金额 after a summary: the summary gains it, restated
            if lx.RESULT_REF.search(text) and state.last.request.file and not results.is_result(state.last.request.file):
                # 他们叫什么名字？把会员姓名也带上: "they" are the groups, of the table the summary was made from
                text = lx.RESULT_REF.sub(lambda m: " " * len(m.group(0)), text)
                utterance = re.sub(r"\s{2,}", " ", lx.RESULT_REF.sub(" ", utterance)).strip()
        elif not lx.RESULT_REF.search(text) and not lx.THEN_START.search(text):
            p, refining = replace(state.last, stage="confirm"), True  # 那深圳的呢 / 只看华南区的呢: maybe a refinement of it
        elif lx.RESULT_REF.search(text) and _of_the_groups(state, text, catalog):  # and their average nights?: the same groups, that figure
            text = lx.RESULT_REF.sub(lambda m: " " * len(m.group(0)), text)
            utterance = re.sub(r"\s{2,}", " ", lx.RESULT_REF.sub(" ", utterance)).strip()
            p, refining, of_groups = replace(state.last, stage="confirm"), True, True
    lang = language(utterance)
    if p is not None and p.stage == "clarify" and p.request.lang != lang and not CJK.search(text) and len(text) <= 40 \
            and FIXED_LANG.get() is None and not CANCEL_EN.fullmatch(text):  # (cancel, in English: said back in English)
        lang = p.request.lang  # agent, typed to a Chinese question: a name from the table is no change of language
    if BLANK_GROUP_DROPPED.search(text):  # without the blank row: read before "without …" is read as an exclusion of a value
        blank = Turn(utterance, text, lang, state, catalog, state.pending)
        if drops_the_blank_group(blank):
            return never_twice(blank, *on_blank_group_dropped(blank))
    if rounds_what_ran(state, text):  # 保留整数, right after a summary: that summary, its numbers rounded
        rounded = Turn(utterance, text, lang, state, catalog, None)
        return never_twice(rounded, *on_round_what_ran(rounded))
    if unlimits_the_ranking(state, text):  # show all of them, not just the top one: the ranking just cut, every group of it
        unlimited = Turn(utterance, text, lang, state, catalog, None)
        return never_twice(unlimited, *on_ranking_unlimited(unlimited))
    if state.pending is None and state.last is not None and (ROWS_ASKED.search(text) or ROWS_EXPORTED.search(text) and lx.EXPORT.search(text)):
        # show me those rows / 把这6单的明细导出成Excel, right after a count
        listed = Turn(utterance, text, lang, state, catalog, None)
        if lists_the_counted_rows(listed):
            return never_twice(listed, *on_counted_rows_listed(listed))
    if base is not None and (state.pending is None or state.pending.stage == "confirm") and FIGURE_SWAP.match(text):
        swapped = Turn(utterance, text, language(utterance), state, catalog, replace(base, stage="confirm"))
        if _swapped_column(swapped) is not None:  # 按重量算呢, after each sheet's share of 金额: the same shares, of 重量
            return never_twice(swapped, *on_figure_swapped(swapped))
    if state.pending is None and state.last is not None and (who := WHO_IS.search(text)) is not None \
            and (asked := _who_is_asked(text, who, state, catalog)) is not None:
        table, cols = asked  # who is that driver? name and plan: those columns of the table that says who, brought onto the result
        utterance = text = (f"add {', '.join(cols)} from {table}" if not CJK.search(text) else f"把{table}里的{'、'.join(cols)}带过来")
    elif state.pending is None and state.last is not None and (bring := joins.brought_in_said(text)) is not None \
            and (named := _brought_in(bring, state, catalog)) is not None:
        table, cols = named  # 带上医生姓名, after a total per 医生工号: the columns of the one table that holds them, brought onto
        # what was just shown (never the whole table it was made from: add customer names to that, after the copper rows)
        j = state.last.request.op("join")
        key = j.args.get("on") if j is not None and any(f.rsplit("/", 1)[-1] == table for f in state.last.request.files[1:]) else None
        on = (f" on {key}" if not CJK.search(text) else f"按{key}") if isinstance(key, str) and key else ""  # (the key of the join just made)
        utterance = text = (f"add {', '.join(cols)} from {table} to that{on}" if not CJK.search(text) else f"{on}把{table}里的{'、'.join(cols)}带到这个结果里")
    if state.pending is None and state.last is not None and (pv := state.last.request.op("pivot")) is not None \
            and state.last.request.op("stack") is not None and pv.args.get("columns") in SHEET_COLUMN.values() \
            and CHART_SAID.search(text) and (line := LINE_PER_SHEET.search(rest := as_sheets(text, catalog, state.current_file))) is not None:
        # 画个折线图，每个店一条线, right after a pivot with a column per sheet: that pivot drawn, a line per column
        text = ("把这个结果" if CJK.search(text) else "chart that result, ") + (rest[: line.start()] + rest[line.end() :]).strip(" ，,")
        utterance = text
    if state.pending is None and state.last is not None and state.last.request.op("pivot") is not None:
        heated = Turn(utterance, text, language(utterance), state, catalog, None)
        if heats_the_pivot(heated):  # make it a heat map, after a pivot: that pivot, coloured
            return never_twice(heated, *on_pivot_heated(heated))
    if state.pending is None and state.last is not None and OF_ALL_ROWS.search(text):
        rated = Turn(utterance, text, language(utterance), state, catalog, None)
        if rates_the_count(rated):  # what share of all transactions is that per sheet, after flagged rows counted per sheet
            return never_twice(rated, *on_count_rated(rated))
    if state.pending is None and state.last is not None and SHARE_SAID.search(text):  # 各占多少比例, right after a total per key
        shared = Turn(utterance, text, lang, state, catalog, None)
        if shares_the_last_summary(shared):
            return never_twice(shared, *on_last_summary_shared(shared))
    amended = _amending_turn(state, said, change, catalog) if change is not None else None
    if amended is not None:  # (average not sum: a correction of the reading, applied to its words)
        return never_twice(amended, *(on_rewritten(amended) if amended.rewritten is not None else on_more_of_the_same(amended)))
    t = Turn(utterance, text, lang, state, catalog, p, refining)
    if p is not None and refining and change is not None and change.confirmed and state.pending is None and t.new_kinds and t.chat is None:
        return never_twice(t, *on_more_of_the_same(t))  # 可以，不过要按车牌加起来 after a run: a change to what ran, restated whole
    if p is not None and p.stage == "confirm" and not refining and t.rewritten is None and not lx.CORRECTION.search(text) \
            and (ASKED_AGAIN.search(text) or EXCLUSION_REDONE.search(text)):
        again = Turn(utterance, text, lang, state, catalog, p, True)
        if refines(again):  # 那6月呢 / 医保的不算，再做一次, while a request waits: that request, in June (never June alone)
            t = again
    if p is not None and p.waits_for == "period" and t.answer is None:  # not the date column asked for: a request of its own
        p = None
        t = Turn(utterance, text, t.lang, state, catalog, None)
    if p is not None and state.pending is None and p.source is not None and p.request.op("top_n") is None:
        root, chain_steps = the_chain(p)  # change it to top 3, after the top 5 had names brought onto them: the chain, cut anew
        recut = Turn(utterance, text, lang, state, catalog, replace(root, stage="confirm"))
        if chain_steps and recuts_the_chain(recut) and chain_steps[0].kind in ("join", "select", "rename", "sort"):
            return never_twice(recut, *on_chain_recut(recut))
    if p is not None and refining and state.pending is None and p.source is not None and results.is_result(p.request.file or ""):
        root, steps = the_chain(p)  # same for 2023, after a summary of 2024 and a step on its result: the whole chain there
        chain = Turn(utterance, text, lang, state, catalog, replace(root, stage="confirm"), True)
        if steps and corrected_sheet(chain) is not None:
            return never_twice(chain, *on_chain_on_sheet(chain, steps))
    if refining and not of_groups and not share_all and not refines(t) and not extends_periods(t) and not splits_the_chart(t) and not flips_the_layout(t) \
            and not swaps_statistic(t) and not widens_to_all_sheets(t) and not drops_a_condition(t) \
            and not (adds_to_what_ran(t) and t.old_kinds - {"profile", "export"}):  # 再按导购分组数一下, after a filter: the next step
        keep = corrected_sheet(t) is not None  # 二季度呢: the same request on another sheet of its workbook
        p = p if keep else None
        t = Turn(utterance, text, t.lang, state, catalog, p)
        if p is None and (on_result := _read_on_the_result(t)) is not None:
            # 花艺师空的不算，按平均从高到低, right after a summary: words only the result table reads, restated on it
            return never_twice(on_result, *_gate(on_result.fresh, state, [on_result.utterance], multi_turn=True, catalog=catalog, prior=None))
    if t.refining and p is not None and corrected_sheet(t) is not None:
        t = Turn(utterance, text, t.lang, state, catalog, p)  # what about Q2? / 二季度呢: the same request on that sheet, never both
    for row in DIALOGUE:
        if _fits(row.stage, p) and row.when(t):
            return never_twice(t, *row.then(t))
    raise AssertionError("the last row always answers")  # pragma: no cover


# 不要退货的 / 不要退货的，再算一次 / 退货的排除掉再取: rows left out of what just ran, it done again — never a correction
# that takes the request back to those rows alone
REDO_VERB = r"(?:算|统计|汇总|计算|取|看|排|做|画|出|跑|生成)(?:一下|一遍|一次|下|一张|一个)?(?:图|饼图|表)?"
EXCLUSION_REDONE = re.compile(r"^\s*(?:不要|不算|去掉|排除|剔除|除掉)[^，,。；;]{1,20}?的\s*(?:[，,]?\s*(?:再|重新)\s*" + REDO_VERB + r")?\s*[。.!！]?\s*$"
                             r"|^\s*[^，,。；;]{1,16}?的\s*(?:不算|不要|去掉|排除掉?|剔除|除掉|拿掉)了?\s*[，,]?\s*(?:再|重新)\s*" + REDO_VERB + r"\s*[。.!！]?\s*$")
ASKED_AGAIN = re.compile(r"^\s*那.{1,20}呢\s*[?？]?\s*$|^\s*(?:what|how) about\b", re.I)  # 那6月呢 / what about June?


# 在刚才重复姓名的结果里 / 在上一步筛出来的结果中: the result just shown, said by what it holds
RESULT_DESCRIBED = lazy(r"在?(?:刚才|刚刚|上一步|上面|前面|之前|上次)(?:那个|这个)?[^，,。；;]{1,16}?的(?:那个)?结果(?:里面?|中|上|里头)")


def _change_said(state: SessionState, text: str) -> Amendment | None:
    """The change a turn opens with (对，但是… / yes but … / only …), read once, when there is something for it to change:
    a restatement that waits, or a run just made."""
    waiting = state.pending is not None and state.pending.stage == "confirm"
    if not waiting and (state.pending is not None or state.last is None or is_cancel(text)):
        return None
    from modes.tagging.amend import amendment

    return amendment(text)


def _amending_turn(state: SessionState, utterance: str, change: Amendment, catalog: Catalog) -> Turn | None:
    """对，但是只要前5个 / yes but only the top 3 / 只看前3个 while a restatement waits, or 对，不过用平均值 right after a
    run: the turn as the change it makes to that request (the "yes" confirms nothing by itself), or None when it is no
    such change."""
    waiting = state.pending is not None and state.pending.stage == "confirm"
    if not (waiting or change.confirmed):
        return None
    said = change.change if change.confirmed else utterance
    p = state.pending if waiting else (replace(state.last, stage="confirm") if state.last is not None else None)
    t = Turn(said, normalize(change.change), language(said), state, catalog, p, amends=True)
    return t if t.rewritten is not None or amends_what_waits(t) else None


# what share of all weddings is that? / 这占全部婚礼的百分之几: the rows just counted, as a share of a larger set
SHARE_OF_ALL = lazy(r"(?<![a-z_])(?:share|percent(?:age)?|proportion|fraction)\s+of\s+(?:all|every|the whole|the total)(?![a-z_])[^?.!]{0,40}?"
                    r"(?<![a-z_])(?:is|are|was|were)\s+(?:that|this|those|these|it|they)(?![a-z_])"
                    r"|占\s*(?:全部|所有|总共的?|全体)[\u4e00-\u9fff]{0,8}?(?:的)?\s*(?:多少|百分之几|比例|比重|几成|占比)", re.I)
SHARE_OF_ALL_REF = lazy(r"(?<![a-z_])(?:is|are|was|were)\s+(?:that|this|those|these|it|they)(?![a-z_])|^\s*(?:那|那么)?\s*(?:这|这些|他们|它们)(?=\s*占)", re.I)


def _counted_under_conditions(last: Pending | None) -> bool:
    """The last run counted rows under two conditions or more (weekend weddings): a share of all of them can be asked."""
    if last is None or last.request.op("count") is None or (f := last.request.op("filter")) is None:
        return False
    return len(f.args.get("conditions") or []) >= 2 and (f.args.get("logic") or "and") == "and"


CANCEL_EN = lazy(r"\s*(?:cancel|stop|never\s*mind|forget\s+it|abort)\s*[.!]?\s*", re.I)


def _of_the_groups(state: SessionState, text: str, catalog: Catalog) -> bool:
    """and their average nights? / 他们的平均年龄呢, after a summary: a column the summary does not hold but its table
    does is asked of the same groups (the summary's request again, with that figure), never of the summary's figures."""
    last = state.last
    if last is None or not state.last_result or not last.request.file or not any(o.kind == "group" and o.args.get("keys") for o in last.request.ops):
        return False
    from modes.resolve import find_columns

    result, source = catalog.get(state.last_result), catalog.get(last.request.file)
    if result is None or source is None or not result.sheets or not source.sheets:
        return False
    sheet = (source.sheet(last.request.sheet) if last.request.sheet else None) or source.sheets[0]
    if any(h.how in ("exact", "synonym") for h in find_columns(text, result.sheets[0])):
        return False  # 按数量_合计降序排序: a column the summary holds, named: the summary itself is worked on
    held = {c.casefold() for s in result.sheets for c in s.columns}
    if re.search(r"\d", text):  # 只看平均total_amount超过160的: a condition on the figure total_amount_平均 holds
        held |= {c.rpartition("_")[0] for c in held if "_" in c}
    named = [h.column for h in find_columns(text, sheet) if h.how in ("exact", "synonym")]
    from modes.conditions import flag_words

    low = text.casefold()
    named += [c for w, c in flag_words(sheet).items() if c not in named and w in low]  # 他们的延误次数
    return bool(named) and all(c.casefold() not in held for c in named)


ASKING = ("ask_slots", "ask_intent")
INTENT_CHOICES = {"zh": ["筛选", "排序", "分组汇总", "去重", "导出", "全面分析"], "en": ["filter", "sort", "group and summarise", "dedupe", "export", "full analysis"]}


def never_twice(t: Turn, d: Decision, state: SessionState) -> Outcome:
    """A question asked again word for word after the user answered is a loop. The first answer that fits nothing is
    told what could not be matched and offered the choices; after a second, the question is not asked a third time:
    the reply offers to cancel or to say the request again another way (the request still waits for either)."""
    said_before = t.state.asked[0] in ("", "already") and t.state.asked[1] == d.reply
    if d.next in ("restate_confirm", "plan_confirm") and t.pending is not None and said_before and not is_confirm(t.text):
        if d.request.unexplained or d.request.gaps or t.state.asked[0] == "already":
            # 不是加起来，是四季度减一季度的差 after that restatement: a part could not be placed — said, never restated again
            return replace(d, reply=replies.not_applied(t.utterance, d.request, t.lang), rule="correction_not_applied"), state
        # 只分析订单那个sheet就行, when the reading already does just that: said so, with the reading (once)
        return replace(d, reply=replies.already(t.lang) + d.reply, rule="correction_already_read"), state.evolve(asked=("already", d.reply))
    if d.next in ("restate_confirm", "plan_confirm"):
        return d, state.evolve(asked=("", d.reply), failed_answers=0)
    if d.next not in ASKING:
        return d, state.evolve(asked=("", ""), failed_answers=0)
    question, shown = t.state.asked
    asked = d.reply.removeprefix(SET_ASIDE_NOTE[True]).removeprefix(SET_ASIDE_NOTE[False])
    if asked != question:
        return d, state.evolve(asked=(asked, d.reply), failed_answers=0)
    if t.pending is not None and state.pending is not None and state.pending.turns != t.pending.turns and t.answer is None \
            and set(state.pending.request.kinds()) > set(t.pending.request.kinds()):
        # median instead, while "which column is Zone?" waits: the turn joined the request, whose question is still open
        return replace(d, reply=replies.noted_still_asked(t.lang) + asked), state.evolve(asked=(question, d.reply), failed_answers=0)
    fails = t.state.failed_answers + 1
    if t.pending is not None and state.pending is not None and state.pending.turns != t.pending.turns:
        state = state.evolve(pending=t.pending)  # an answer that fitted nothing is not kept in the request (门店, to 按哪一列排名？)
    if fails >= GIVE_UP_AFTER:
        reply = replies.still_not_matched(t.utterance, t.lang)
        if reply == shown:
            reply = replies.still_not_matched(t.utterance, t.lang, again=True)
        return replace(d, reply=reply, rule="answer_fits_nothing_twice"), state.evolve(asked=(question, reply), failed_answers=fails)
    req = d.request
    slot = next(iter(d.missing or req.missing), "intent" if d.next == "ask_intent" else "column")
    choices = _choices(t, req, slot)
    named = t.utterance.strip(" 。.!！'\"“”").casefold()
    col = next((c for c in req.closest if c.casefold() == named), None)
    unfit = (col, replies.slot_fits(req, slot)) if col is not None and col not in choices and replies.slot_fits(req, slot) else None
    reply = replies.not_matched(t.utterance, slot, choices, t.lang, unfit=unfit)
    if reply == shown:
        reply = replies.not_matched(t.utterance, slot, choices, t.lang, again=True, unfit=unfit)
    return replace(d, reply=reply), state.evolve(asked=(question, reply), failed_answers=fails)


GIVE_UP_AFTER = 2  # failed answers to one question before wenqing stops asking it and offers a way out


def _choices(t: Turn, req: Request, slot: str) -> list[str]:
    """What the user can pick from for one slot: files, the file's columns, or the kinds of work."""
    if slot in ("file", "second_table") or (slot != "intent" and not req.file):  # a question about a table offers tables
        return [c for c in (list(req.candidates) or _table_names(t.catalog, req)) if c != req.file]
    if slot == "intent":
        return INTENT_CHOICES["zh" if t.lang == "zh" else "en"]
    fi = t.catalog.get(req.file) if req.file else None
    sheet = request_sheet(req, fi) if fi and fi.sheets else None
    if sheet is None:
        return list(req.closest)
    if slot == "condition":  # 区域是华东, 数量大于5: conditions written with this file's own columns and values
        text = next((f"{c}{'是' if t.lang == 'zh' else ' is '}{sorted(vs)[0]}" for c, vs in sheet.values.items() if vs), None)
        num = next((c for c in sheet.columns if c in sheet.numeric and c in sheet.ranges), None)
        said = [x for x in (text, f"{num}{'大于' if t.lang == 'zh' else ' > '}{tidy(round(sheet.ranges[num][1] / 2))}" if num else None) if x]
        return said or list(sheet.columns)
    if slot == "value":  # 有那些药, to "供应商 has no such value; which one?": that column's values, never the columns
        col = next((c.column for o in req.ops for c in o.args.get("conditions") or [] if getattr(c, "how", "") == "absent_value" and c.column), None)
        if col is not None and sheet.values.get(col):
            return sorted(sheet.values[col])
    return list(req.offered(slot)) if any(m == slot for m, _ in req.offers) else list(sheet.columns)

