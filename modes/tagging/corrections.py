"""A correction of what waits (or just ran), applied to the words of the request it corrects.

不是X，是Y / not X, Y / Y, not X / Y而不是X / X改成Y / change X to Y swap X for Y where the request said X; a part put
alone (我说的是按装修 / I meant origin_city / 不对 → 按朝向) takes the place of the part of the same kind (a key for a
key, a measure for a measure); 去掉X这个条件 / drop the X condition removes the condition that names X. The request is
then understood again from its corrected words, so the restatement says the whole request with the change, and what
the correction took back is never named as "not understood".

The words are data (words.toml, [correction]); this module reads clauses and spans, never sentences.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache

from modes import lexicon
from modes.catalog import Catalog, FileInfo, SheetInfo
from modes.decision import Op, Request
from modes.tagging.segment import words_toml
from modes.text import CJK

CLAUSE_SPLIT = re.compile(r"\s*(?:[，,;；。!！?？]|\s[—–-]{1,2}\s|——|\.(?=\s|$)|\s+but\s+)\s*", re.I)
WORD_EDGE = r"(?<![A-Za-z0-9_])"
WORD_END = r"(?![A-Za-z0-9_])"


@dataclass(frozen=True)
class Change:
    """One part of a correction: `old` taken back (None: the part of the same kind as `new`), `new` put instead
    (None: `old` dropped); `keyed`: said with 按 / by, so a key."""

    old: str | None
    new: str | None
    keyed: bool = False
    drop: bool = False
    defines: bool = False  # 成交额就是成交价加起来 / by revenue I mean Gross: a word of the request said in other words
    said: str = field(default="", compare=False)  # the clause, kept with the request when no part of it can be placed


def _alt(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))


@dataclass(frozen=True)
class _Lexicon:
    opening: re.Pattern[str]
    negated_lead: re.Pattern[str]
    negated_inside: re.Pattern[str]
    contrast: re.Pattern[str]
    defines: re.Pattern[str]
    put_lead: re.Pattern[str]
    swap: tuple[re.Pattern[str], ...]
    drop: tuple[re.Pattern[str], ...]
    head: re.Pattern[str]
    tail: re.Pattern[str]
    keyed: re.Pattern[str]
    dangling: tuple[re.Pattern[str], ...]


@cache
def _lexicon() -> _Lexicon:
    w = words_toml()["correction"]
    en = lambda key: rf"{WORD_EDGE}(?:{_alt(w[key])}){WORD_END}"  # noqa: E731
    opening = re.compile(rf"^\s*(?:(?:{_alt(w['opening_zh'])})|(?:{en('opening_en')}))\s*[，,.。!！~]*\s*", re.I)
    negated_lead = re.compile(rf"^(?:{_alt(w['negated_zh'])}|{en('negated_en')})\s*", re.I)
    negated_inside = re.compile(rf"\s*(?:而不是|并不是|不是|{en('negated_en')})\s*", re.I)
    contrast = re.compile(r"而不是|并不是|rather than|instead of", re.I)
    defines = re.compile(rf"^(?P<old>[^，,]{{1,20}}?)\s*(?:{_alt(w['defines_zh'])}|{en('defines_en')})\s*(?P<new>.+)$", re.I)
    put_lead = re.compile(rf"^(?:{_alt(w['put_zh'])}|{en('put_en')})\s*", re.I)
    swap = (re.compile(rf"^(?:把|将)?\s*(?P<old>.+?)\s*(?:{_alt(w['swap_zh'])})\s*(?P<new>.+)$"),
            *(re.compile(rf"^{WORD_EDGE}{a}\s+(?:the\s+)?(?P<old>.+?)\s+{b}\s+(?P<new>.+)$", re.I) for a, b in w["swap_en"]))
    nouns_zh, nouns_en = _alt(w["drop_nouns_zh"]), _alt(w["drop_nouns_en"])
    drop = (
        re.compile(rf"^(?P<old>{_alt(w['drop_all_zh'])})(?:了|啦|吧)?$"),  # 不要任何筛选: every condition
        re.compile(rf"^(?:please\s+)?(?:(?:{_alt(w['drop_all_head_en'])})\s*,?\s+)?(?P<old>{_alt(w['drop_all_en'])})"
                   rf"(?:\s+(?:{_alt(w['drop_all_tail_en'])}))?(?:\s+please)?$", re.I),
        re.compile(rf"^(?:{_alt(w['drop_verbs_zh'])})\s*(?:掉)?\s*(?P<old>.+?)\s*(?:这个|那个|这条|那条|的)?\s*(?:{nouns_zh})$"),
        re.compile(rf"^(?:把|将)?\s*(?P<old>.+?)\s*(?:这个|那个|这条|那条|的)?\s*(?:{nouns_zh})\s*(?:也)?\s*(?:{_alt(w['drop_after_zh'])})$"),
        re.compile(rf"^(?:please\s+)?(?:{_alt(w['drop_verbs_en'])})\s+(?:the\s+|that\s+)?(?P<old>.+?)\s+(?:{nouns_en})$", re.I),
        re.compile(rf"^(?:{_alt(w['drop_filter_en'])})\s+(?:the\s+)?(?P<old>.+?)(?:\s+(?:{nouns_en}))?$", re.I),
        re.compile(rf"^no\s+(?:more\s+)?(?P<old>.+?)\s+(?:{nouns_en})$", re.I),
        re.compile(rf"^(?:{_alt(w['drop_filter_zh'])})\s*(?P<old>.+?)\s*(?:来)?(?:筛选?|过滤)?(?:了|啦)?$"),
        re.compile(rf"^(?:所有|全部|任何|各种|每种)(?:的)?\s*(?P<old>.+?)\s*(?:{_alt(w['all_count_zh'])})(?:了|吧)?$"),  # 所有缴费方式都算
        re.compile(r"^(?:please\s+)?(?:take|leave|cut|drop|filter)\s+(?:the\s+)?(?P<old>.+?)\s+out(?:\s+of it)?$", re.I),  # take Open out
        re.compile(rf"^(?:all|every|any)\s+(?:the\s+)?(?P<old>.+?)\s+(?:{_alt(w['all_count_en'])})$", re.I),
    )
    head = re.compile(rf"^(?:{_alt(w['trim_head_zh'])}|{en('trim_head_en')})\s*", re.I)
    tail = re.compile(rf"\s*(?:{_alt(w['trim_tail_zh'])}|{en('trim_tail_en')})$", re.I)
    keyed = re.compile(rf"^(?:按照|按|{WORD_EDGE}(?:by|per|group by|grouped by|broken down by){WORD_END})", re.I)
    joins_zh, joins_en = _alt(w["joins_zh"]), en("joins_en")
    dangling = (
        re.compile(rf"(?:{joins_zh})\s*(?=的|[，,。]|$)"),
        re.compile(rf"(?<=[选出留看是])\s*(?:{joins_zh})"),
        re.compile(rf"\s+{joins_en}\s*(?=[,.]|$)", re.I),
        re.compile(rf"{WORD_EDGE}(?P<w>where|with|when|if)\s+{joins_en}(?=\s)", re.I),
        re.compile(rf"(?:{joins_zh}|\s{joins_en})\s*(?:{joins_zh}|{joins_en}\s)"),
        re.compile(rf"(?:{_alt(w['verbs_zh'])})\s*(?:的)?\s*(?=[，,。]|$)"),
        re.compile(rf"{WORD_EDGE}(?:{_alt(w['verbs_en'])})\s*(?=[,.]|$)", re.I),
        re.compile(r"^\s*[，,]\s*|\s+(?=[，,])"),
    )
    return _Lexicon(opening, negated_lead, negated_inside, contrast, defines, put_lead, swap, drop, head, tail, keyed, dangling)


NOT_JUST = re.compile(r"\s*(?:just|only|merely|simply)(?![a-z_])", re.I)


def _trim(part: str) -> str:
    lx = _lexicon()
    before = None
    part = part.strip(" '\"“”‘’?？.。!！")
    while part and part != before:
        before = part
        part = lx.head.sub("", part).strip()
        part = lx.tail.sub("", part).strip()
    return part


def changes(text: str) -> list[Change]:
    """The parts a correction takes back, puts instead or drops, clause by clause; [] when it says none."""
    return list(_changes(text))


@cache
def _changes(text: str) -> tuple[Change, ...]:
    """changes(), read once per text (a turn is asked about by decide, by the dialogue row and by the rewrite)."""
    lx = _lexicon()
    whole = next((m for p in lx.drop if (m := p.match(text.strip(" 。.!！"))) and "," not in text and "，" not in text), None)
    if whole is not None and _trim(whole.group("old")):  # no clinic condition: the whole turn drops one part
        return (Change(_trim(whole.group("old")), None, drop=True),)
    body = text
    for _ in range(3):  # no wait, … / 哦不对，我说错了，…
        body = lx.opening.sub("", body, count=1)
    clauses = [c for c in CLAUSE_SPLIT.split(body) if c and c.strip()]
    olds: list[str] = []
    news: list[tuple[str, bool, str]] = []
    out: list[Change] = []
    for c in clauses:
        c = c.strip()
        d = next((m for p in lx.drop if (m := p.match(c))), None)
        if d is not None:
            old = _trim(d.group("old"))
            if old:
                out.append(Change(old, None, drop=True))
            continue
        neg = lx.negated_lead.match(c)
        if neg is not None and NOT_JUST.match(c, neg.end()):
            continue  # all sheets, not just Northgate: nothing taken back, the part before is more, never instead
        if neg is not None:
            old = _trim(c[neg.end():])
            if old:
                olds.append(old)
            continue
        dm = lx.defines.match(c)
        if dm is not None and _trim(dm.group("old")) and _trim(dm.group("new")):
            out.append(Change(_trim(dm.group("old")), _trim(dm.group("new")), defines=True, said=c))
            continue
        s = next((m for p in lx.swap if (m := p.match(c))), None)
        if s is not None:
            old, new = _trim(s.group("old")), _trim(s.group("new"))
            if old and new:
                out.append(Change(old, new, keyed=bool(lx.keyed.match(s.group("new").strip()))))
                continue
        inside = lx.negated_inside.search(c)
        put_first = lx.put_lead.match(c)  # 是物业费不是停车费: what is put said first, then what it is not
        readings = inside is not None and {_trim(c[: inside.start()]).casefold(), _trim(c[inside.end():]).casefold()} <= _reading_words()
        if inside is not None and inside.start() > 0 and (lx.contrast.fullmatch(inside.group(0).strip()) or _keyed(c[: inside.start()])
                                                          or (put_first is not None and put_first.end() < inside.start()) or readings):
            # (average not sum / 平均不是合计: a statistic put in place of the one read, both named as such)
            # 按户型而不是行政区 / by service_level not carrier (never 片区不是一区: a condition, said with its column)
            new_raw, old = c[: inside.start()], _trim(c[inside.end():])
            new = _trim(lx.put_lead.sub("", new_raw.strip()))
            if old and new:
                out.append(Change(old, new, keyed=_keyed(new_raw)))
                continue
        put = lx.put_lead.match(c)
        raw = c[put.end():] if put is not None else c
        new = _trim(raw)
        if new:
            news.append((new, _keyed(raw), c))
    for i, (new, keyed, said) in enumerate(news):
        out.append(Change(olds[i] if i < len(olds) else None, new, keyed, said=said))
    out += [Change(o, None) for o in olds[len(news):]]
    for i in range(len(out) - 1):  # 不用按门店，按品类: the key dropped is the one the next part replaces
        a, b = out[i], out[i + 1]
        if a.drop and b.old is None and b.new and b.keyed:
            out[i : i + 2] = [Change(a.old, b.new, keyed=True)]
            break
    return tuple(out)


def marked(text: str) -> bool:
    """Whether the turn takes a part back (不是… / not … / Y而不是X / X改成Y) or drops one (去掉X这个条件 / drop the X filter)."""
    lx = _lexicon()
    body = lx.opening.sub("", text, count=1).strip()
    return bool(lx.negated_lead.match(body)) or any(c.drop or (c.old and c.new) for c in changes(text))


def _keyed(raw: str) -> bool:
    lx = _lexicon()
    return bool(lx.keyed.match(lx.put_lead.sub("", raw.strip()).strip()))


def _corrects(turn: str) -> bool:
    return bool(lexicon.CORRECTION.search(turn)) or marked(turn)


def _find(word: str, text: str, masks: Sequence[str]) -> list[tuple[int, int]]:
    """Where a word stands in the text, outside file names (a number in 成绩_2024.xlsx is not the 2024 said)."""
    blocked = [(m.start(), m.end()) for name in masks if name for m in re.finditer(re.escape(name), text, re.I)]
    pat = re.escape(word) if CJK.search(word) else WORD_EDGE + re.escape(word) + WORD_END
    return [(m.start(), m.end()) for m in re.finditer(pat, text, re.I)
            if not any(a <= m.start() < b for a, b in blocked)]


def _masks(catalog: Catalog) -> list[str]:
    names = []
    for f in catalog.tables:
        stem = f.path.rsplit("/", 1)[-1]
        names += [f.path, stem]
    return sorted(set(names), key=len, reverse=True)


def _keys(request: Request) -> list[str]:
    out: list[str] = []
    for o in request.ops:
        for slot in ("keys", "by"):
            v = o.args.get(slot)
            if isinstance(v, (list, tuple)):
                out += [k for k in v if isinstance(k, str)]
        if o.kind == "chart" and isinstance(o.args.get("x"), str):
            out.append(o.args["x"])
    return list(dict.fromkeys(out))


def _measures(request: Request) -> list[str]:
    out: list[str] = []
    for o in request.ops:
        for m in o.args.get("measures") or []:
            if isinstance(m, dict) and m.get("column"):
                out.append(m["column"])
        if o.kind in ("stats", "sort", "top_n", "top_per_group"):
            cols = o.args.get("columns") or ([o.args["by"]] if isinstance(o.args.get("by"), str) else [])
            out += [c for c in cols if isinstance(c, str)]
    return list(dict.fromkeys(out))


def _is_data(word: str, f: FileInfo | None, sheet: SheetInfo | None) -> bool:
    """Whether a word names data: a column, a value of one, a number, a sheet of the file (never 汇总 or 条件)."""
    low = word.casefold()
    if re.fullmatch(r"[\d.,%]+", word) or _column(word, sheet) is not None:
        return True
    if sheet is not None and any(low == v.casefold() for vs in sheet.values.values() for v in vs):
        return True
    return f is not None and any(s.name and s.name.casefold() == low for s in f.sheets)


def _column(word: str, sheet: SheetInfo | None) -> str | None:
    return sheet.names.exact.get(word.casefold()) if sheet is not None else None


def _said_in(name: str, turns: list[str], masks: Sequence[str]) -> bool:
    return any(_find(name, t, masks) for t in turns)


def _swap(turns: list[str], old: str, new: str, masks: Sequence[str]) -> list[str] | None:
    """`old` replaced by `new` in the latest turn that says it; None when no turn does."""
    for i in range(len(turns) - 1, -1, -1):
        spans = _find(old, turns[i], masks)
        if spans and any(_corrects(t) for t in turns[i + 1 :]):
            return None  # a later turn already corrected what these words said (no, per month of …): not this turn's to change
        if spans:
            t = turns[i]
            for a, b in reversed(spans):
                t = t[:a] + new + t[b:]
            return [*turns[:i], t, *turns[i + 1 :]]
    return None


def _drop(turns: list[str], word: str, request: Request, masks: Sequence[str]) -> list[str] | None:
    """The condition that names `word` (its column or its value) taken out of the words that said it; every condition
    for a word that says all of them (不要任何筛选 / no filters)."""
    low = word.casefold()
    conds = [c for o in request.ops if o.kind == "filter" for c in o.args.get("conditions") or []]
    if low in _all_words() and conds:
        out: list[str] | None = list(turns)
        for c in conds:
            out = _drop(out, str(c.column), replace(request, ops=tuple(o for o in request.ops if o.kind != "filter")
                                                    + (Op("filter", {"conditions": [c]}),)), masks) if out is not None else None
        return out
    listed = [c for c in conds if isinstance(c.value, (list, tuple)) and low in {str(v).casefold() for v in c.value}]
    if listed:  # take Open out, after Open or Disputed: that value leaves the list, the others stay
        return _drop_value(turns, word, masks)
    hit = [c for c in conds if low in (str(c.column).casefold(), str(c.value).casefold(), str(c.raw).casefold())]
    if not hit:  # drop the Insured? = Yes condition: the condition whose column (and value) the words say
        hit = [c for c in conds if str(c.column).casefold() in low and (not isinstance(c.value, str) or c.value.casefold() in low
                                                                      or not any(str(d.column).casefold() in low for d in conds if d is not c))]
    if len(hit) != 1:
        return None
    c = hit[0]
    v = c.value
    value = None if isinstance(v, bool) or not isinstance(v, (str, int, float)) else (f"{v:g}" if isinstance(v, float) else str(v))
    for i in range(len(turns) - 1, -1, -1):
        span = _cond_span(turns[i], c.column, value, masks)
        if span is None:
            continue
        a, b = span
        t = turns[i][:a] + turns[i][b:]
        for p in _lexicon().dangling:
            t = p.sub(lambda m: m.groupdict().get("w") or "", t)
        t = re.sub(r"\s{2,}", " ", t).strip()
        return [*turns[:i], t, *turns[i + 1 :]]
    return None


def _drop_value(turns: list[str], word: str, masks: Sequence[str]) -> list[str] | None:
    """One value of a list taken out of the words that listed it, with the joiner beside it."""
    joiner = r"(?:\s*(?:、|，|,|和|或者|或|及|以及)\s*|\s+(?:or|and|nor)\s+)"
    for i in range(len(turns) - 1, -1, -1):
        spans = _find(word, turns[i], masks)
        if not spans:
            continue
        a, b = spans[0]
        t = turns[i]
        after = re.match(joiner, t[b:], re.I)
        before = re.search(joiner + r"$", t[:a], re.I)
        if after is not None:
            t = t[:a] + t[b + after.end() :]
        elif before is not None:
            t = t[: before.start()] + t[b:]
        else:
            return None  # the value said alone: not a list to take it from
        return [*turns[:i], re.sub(r"\s{2,}", " ", t).strip(), *turns[i + 1 :]]
    return None


@cache
def _all_words() -> frozenset[str]:
    w = words_toml()["correction"]
    return frozenset(x.casefold() for x in (*w["drop_all_zh"], *w["drop_all_en"]))


@cache
def _reading_words() -> frozenset[str]:
    return frozenset(w.casefold() for w in words_toml()["correction"]["reading"])


def _as_correction(part: str) -> str:
    """A part put instead of a part of the reading, said as a correction turn (the request's words keep the rest)."""
    return f"改成{part}" if CJK.search(part) else f"{part} instead"


BLANK_SAID = re.compile(r"\s*(?:列)?\s*(?:的)?\s*(?:不为空白?|为空白?|不是空的?|是空的?|空着|没填|未填|非空|有值|不空|空(?![\u4e00-\u9fff])"
                       r"|(?:is|are)\s+(?:not\s+)?(?:empty|blank|missing|null)|(?:not\s+)?(?:empty|blank|missing))", re.I)


def _cond_span(text: str, column: str, value: str | None, masks: Sequence[str]) -> tuple[int, int] | None:
    """Where one condition is said: its column and the nearest value after it (数学大于90并且英语大于90: the 90 after 英语),
    or its value alone (只看复诊的); None when the words do not say it in one place."""
    cols = _find(column, text, masks)
    vals = _find(value, text, masks) if value else []
    if cols and not value:  # 收购员为空 / Email is blank: a blank test is its column and the words after it
        tail = BLANK_SAID.match(text, cols[0][1])
        return (cols[0][0], tail.end()) if tail else None
    if cols:
        after = [v for v in vals if v[0] >= cols[0][1]]
        if not after or after[0][1] - cols[0][0] > 40:
            return None
        return cols[0][0], after[0][1]
    return vals[0] if len(vals) == 1 else None


@cache
def _value_dropped() -> tuple[re.Pattern[str], ...]:
    w = words_toml()["correction"]
    return (re.compile(rf"^(?:把|将)?\s*(?P<old>[^，,。\s]{{1,20}}?)\s*(?:也|就)?\s*(?:{'|'.join(w['value_drop_zh'])})(?:吧|了)?$"),
            re.compile(rf"^(?:{'|'.join(w['value_drop_en'])})\s+(?P<old>.+?)(?:\s+(?:please|anymore|then|either))?$", re.I))


def dropped_value(text: str, request: Request) -> str | None:
    """现金不要了 / drop Cash, after a request whose condition lists 现金 among its values: the value taken out."""
    said = text.strip(" 。.!！?？")
    m = next((x for p in _value_dropped() if (x := p.match(said))), None)
    if m is None:
        return None
    word = m.group("old").strip().casefold()
    listed = {str(v).casefold() for o in request.ops if o.kind == "filter" for c in o.args.get("conditions") or []
              if isinstance(c.value, (list, tuple)) for v in c.value}
    return m.group("old").strip() if word in listed else None


STAT_FAMILIES = ({"average", "mean", "avg", "平均", "平均值", "均值"}, {"sum", "total", "合计", "总和", "总额"}, {"max", "maximum", "最大值"},
                 {"min", "minimum", "最小值"}, {"median", "中位数"})
STAT_WORDS = frozenset(w for f in STAT_FAMILIES for w in f)


def _stat_said(old: str, turns: list[str], masks: Sequence[str]) -> str | None:
    """The word of the request that says the statistic taken back (the mean, where the request said average)."""
    family = next((f for f in STAT_FAMILIES if old.casefold() in f), None)
    if family is None:
        return None
    return next((w for w in [old, *sorted(family - {old.casefold()})] if _said_in(w, turns, masks)), None)


def rewrite(turns: Sequence[str], text: str, request: Request, catalog: Catalog) -> list[str] | None:
    """The request's turns with the correction applied; None when the correction says no part this reading can place
    (the turn is then read as before: added to the request's turns)."""
    value = dropped_value(text, request)
    if value is not None:  # 现金不要了: that value leaves its list
        out = _drop_value(list(turns), value, _masks(catalog))
        return out if out is not None and out != list(turns) else None
    found = changes(text)
    if not found:
        return None
    masks = _masks(catalog)
    f = catalog.get(request.file) if request.file else None
    sheet = (f.sheet(request.sheet) if f is not None and request.sheet else None) or (f.sheets[0] if f is not None and f.sheets else None)
    out = list(turns)
    kept: list[str] = []
    for ch in found:
        step: list[str] | None = None
        if ch.defines and ch.old and ch.new:  # 成交额就是成交价加起来: a word the request did not read, said again in others
            step = _swap(out, ch.old, ch.new, masks)  # the user's own word, wherever the request's words say it
            if step is None:
                return None
        elif ch.drop and ch.old:
            step = _drop(out, ch.old, request, masks)
        elif ch.old and ch.new and _is_data(ch.old, f, sheet):
            step = _swap(out, ch.old, ch.new, masks)
        elif ch.old and ch.new and ch.new.casefold() in STAT_WORDS and (said := _stat_said(ch.old, out, masks)) is not None:
            step = _swap(out, said, ch.new, masks)  # the median instead of the average (or the mean): where the request said it, never every figure
        elif ch.old and ch.new and ch.old.casefold() in _reading_words():
            step = [*out, _as_correction(ch.new)]  # 不是行数，是实际产量合计: the reading's count, never the user's word
        elif ch.old and ch.new:  # 汇总改成按费用类别: a word of the operation, so the part put instead takes the place of its kind
            step = _in_place_of(out, Change(None, ch.new, ch.keyed), request, sheet, masks)
        elif ch.new and not ch.old:
            step = _in_place_of(out, ch, request, sheet, masks)
        if step is None and ch.drop and out != list(turns):
            continue  # 不要任何筛选，所有缴费方式都算: the condition the second part drops went with the first
        if step is None and ch.said and not ch.old and not ch.keyed and out != list(turns):
            kept.append(ch.said)  # 别的列不要, beside a part placed: read with the request (and named if no rule reads it)
            continue
        if step is None:
            return None
        out = step
    if out == list(turns):
        return None
    return out + (["，".join(kept) if any(CJK.search(k) for k in kept) else ", ".join(kept)] if kept else [])


@cache
def _bound_rx() -> re.Pattern[str]:
    from modes.conditions import INFIX

    ops = "|".join(p for op, p in INFIX if op in ("ge", "le", "gt", "lt"))
    return re.compile(rf"(?:{ops})\s*-?\d[\d,]*(?:\.\d+)?\s*(?:万|千|k|K|%)?", re.I)


def _bound_swapped(turns: list[str], new: str) -> list[str] | None:
    """A comparison with a number said alone (超过8万 / over 500) in place of the one comparison the request's words said."""
    rx = _bound_rx()
    if not rx.fullmatch(new.strip()):
        return None
    found = [(i, m) for i, t in enumerate(turns) for m in rx.finditer(t)]
    if len(found) != 1:
        return None
    i, m = found[0]
    return [*turns[:i], turns[i][: m.start()] + new.strip() + turns[i][m.end() :], *turns[i + 1 :]]


# lower it to 300 / raise the threshold to 500 / 门槛降到300 / 改到300: the one bound's figure said again, its comparison kept
BOUND_FIGURE_AGAIN = re.compile(r"^\s*(?:(?:ok|okay|now|and|then)\s*,?\s*)?(?:lower|raise|drop|bump|change|set|move|put|make)\s+"
                                r"(?:it|that|this|the\s+(?:threshold|limit|bound|cutoff|cut-off|bar|minimum|maximum))\s+(?:down\s+|up\s+)?to\s+"
                                r"(?P<en>-?\d[\d,]*(?:\.\d+)?\s*(?:k|%)?)\s*[.!]?\s*$"
                                r"|^\s*(?:那|把)?(?:门槛|阈值|标准|条件|界限)?\s*(?:降到|降低到|降为|提高到|提到|升到|调到|调成|调为|改到|改成|改为|换成)\s*"
                                r"(?P<zh>-?\d[\d,]*(?:\.\d+)?\s*(?:万|千|%)?)\s*(?:吧|呢)?\s*[。!！]?\s*$", re.I)
# same but over 300 / 一样，但是超过300 / 同样的，超过300的: the request again, with another bound said in full
SAME_BUT = re.compile(r"^\s*(?:(?:the\s+)?same(?:\s+thing)?(?:\s+again)?\s*,?\s*but|一样的?\s*[，,]?\s*(?:但是|不过|只是)?|同样的?\s*[，,]?\s*(?:但是|不过)?)\s*", re.I)


def bound_said_again(text: str, turns: Sequence[str]) -> list[str] | None:
    """The turns of a request with its one numeric bound changed by a turn that says only the new figure (lower it to
    300) or the whole bound after "same but" (same but over 300); None for any other turn, or a request of no bound or
    of two."""
    m = BOUND_FIGURE_AGAIN.match(text)
    if m is not None:
        rx = _bound_rx()
        found = [bm for t in turns for bm in rx.finditer(t)]
        if len(found) != 1:
            return None
        figure = re.search(r"-?\d[\d,]*(?:\.\d+)?\s*(?:万|千|k|K|%)?\s*$", found[0].group(0))
        assert figure is not None
        return _bound_swapped(list(turns), found[0].group(0)[: figure.start()] + (m.group("en") or m.group("zh")))
    same = SAME_BUT.match(text)
    return _bound_swapped(list(turns), text[same.end() :].strip(" 的。.!！")) if same is not None and text[same.end() :].strip() else None


def _in_place_of(turns: list[str], ch: Change, request: Request, sheet: SheetInfo | None, masks: Sequence[str]) -> list[str] | None:
    """A part said alone takes the place of the part of its kind: a key for the key (said with 按 / by, or a column that
    is no figure), a figure's column for the one measured; only when the request has exactly one such part and its
    words say it."""
    assert ch.new is not None
    bound = _bound_swapped(turns, ch.new)
    if bound is not None:  # 改成超过8万 / make it over 500, after 合计超过5万的: the one bound said, said again
        return bound
    col = _column(ch.new, sheet)
    keys, measures = _keys(request), _measures(request)
    if col is not None and (col in keys or col in measures):
        return None
    if col is None:
        return None  # per month of opened_at: not a column by itself, read by the rules as before
    if ch.keyed or (sheet is not None and col not in sheet.numeric):
        if len(keys) == 1 and _said_in(keys[0], turns, masks):
            return _swap(turns, keys[0], ch.new, masks)
        return None
    if len(measures) == 1 and _said_in(measures[0], turns, masks):
        return _swap(turns, measures[0], ch.new, masks)
    return None
