"""English questions that look values up: "what is the budget for the incredibles?", "who is the captain of the
team whose kit manufacturer is nike?", "name the result for round 9", "which state has an electorate of west sydney?".

A question is read as tags over the text: a HEAD (what is / who was / which / name / list / show), the
ANSWER columns written right after it, then CONDITION clauses, each one of

    COLUMN (is|was|of|=|with|equal to) VALUE        the district arkansas 2, a visitor with bucks
    COLUMN CMP NUMBER                               a lane after 6, events under 13, a total more than 7
    COLUMN between NUMBER and NUMBER
    NUMBER COLUMN                                   1 top-10
    VALUE (is|was|as) the COLUMN                    when adam pepper is the player
    is VALUE the COLUMN                             what district is f. edward hebert the incumbent in?
    (for|of|from|in) VALUE                          the budget for the incredibles: the column holding it is
                                                    found among the data's values, else guessed and said

A value runs to the next column named, a clause word (and, with, who, that, whose, when, where) or the
end. Questions that aggregate or rank (how many, total, average, highest, most) are other rules' work:
this reader stands aside for them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from modes import lexicon as lx
from modes.conditions import Cond
from modes.opspec import Found, OpSpec, PlanContext, StepSpec, operation
from modes.opspec import said_in as _zh
from modes.text import CJK, parse_number, tidy

HEAD = re.compile(
    r"^\s*(?:(?:and|so|ok|okay|now|well|also|then)\s*,?\s+)*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+|i\s+(?:want|need)\s+to\s+know\s+)?"
    r"(?P<verb>what(?:'s|\s+(?:is|was|are|were)(?:\s+(?:all|both))?)?|who(?:'s|\s+(?:is|was|are|were))|which|name|list|show(?:\s+me)?|give(?:\s+me)?|"
    r"tell\s+me|find|get)\s+(?:(?:all|both)\s+)?(?:of\s+)?(?:(?:the|a|an)\s+)?",
    re.I,
)
AND_NEXT = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)(?:the\s+)?", re.I)
# words that make the question an aggregate or a ranking: other rules read those
AGGREGATE = re.compile(
    r"(?<![a-z_])(?<!at )(?:how many|how much|number of|count|total|sum|average|mean|median|avg|highest|lowest|most|least|fewest|largest|smallest|biggest|"
    r"maximum|minimum|max|min|top|bottom|first|last|earliest|latest|best|worst|rank|per|each|every|percentage|proportion|ratio|distinct|unique|different)(?![a-z_])",
    re.I,
)
# where a value ends: a clause word, a comma, the question mark
VALUE_END = re.compile(r"\s*(?:,|;|\?|!|\.(?=\s|$)|(?<![a-z_])(?:and|with|who|whom|that|whose|when|where|which|while|having|if)(?![a-z_])|$)", re.I)
LINK = re.compile(r"\s*(?:(?:is|was|are|were|of|equals?|equal to|being|named|called|as|with|at|=|:)\s+)?(?:(?:a|an)\s+)?", re.I)
LEAD = re.compile(r"^\s*(?:(?:and|with|who|whom|that|whose|when|where|which|while|having|if|has|had|have|is|was|were|are|for|of|in|on|at|from|a|an)\s+)+", re.I)
CMP_WORDS: tuple[tuple[str, str], ...] = (
    ("ge", r"at least|no less than|not less than|greater than or equal to|or more"),
    ("le", r"at most|no more than|not more than|less than or equal to|or less"),
    ("gt", r"more than|greater than|larger than|bigger than|higher than|over|above|after|later than|exceeding|exceeds"),
    ("lt", r"less than|fewer than|smaller than|lower than|under|below|before|earlier than"),
)
NUM = r"-?\d+(?:,\d{3})*(?:\.\d+)?"
CMP = re.compile(
    r"\s*(?:(?:is|was|are|were|of|with)\s+)?(?:(?:a|an)\s+)?(?:between\s+(?P<a1>" + NUM + r")\s+and\s+(?P<b>" + NUM + r")|"
    r"(?P<op>" + "|".join(p for _, p in CMP_WORDS) + r")\s+(?P<a>" + NUM + r"))(?![\d.])",
    re.I,
)
OP_OF = {w: op for op, pat in CMP_WORDS for w in pat.split("|")}
VALUE_BEFORE = re.compile(r"(?:^|(?<![a-z_])(?:when|where|if|and|with|is|was))\s+(?P<v>[^,;?]+?)\s+(?:is|was|are|were|as)\s+(?:the\s+)?$"
                          r"|^\s*(?:is|was)\s+(?P<v2>[^,;?]+?)\s+the\s+$"
                          r"|(?<![a-z_])(?:from|in|at|on|for|of|with)\s+(?:the|a|an)\s+(?P<v3>[a-z][\w.&'-]*(?:\s+[a-z][\w.&'-]*){0,2})\s+$", re.I)
ROW_NOUN = re.compile(r"\s*(?:with|who|whom|whose|that|which|where|having)(?![a-z_])", re.I)
CMP_BEFORE = re.compile(r"(?<![a-z_])(?P<op>" + "|".join(p for _, p in CMP_WORDS) + r")\s+(?P<a>" + NUM + r")\s+$", re.I)
NUMBER_BEFORE = re.compile(r"(?:^|\s)(?P<n>-?\d[\d,]*(?:\.\d+)?)\s+$")
NUMBER_OF = re.compile(r"(?:numbers?|values?|amount)\s+(?:(?P<of>of)|for)\s+(?:the\s+)?", re.I)
KEY_VALUE = re.compile(r"^\s*(?:for|of|from|in|on|at|about)\s+(?P<v>.+)$", re.I)
DETERMINERS = re.compile(r"^(?:all\s+)?(?:of\s+)?(?:the\s+)?", re.I)
# values whose column is plain from the value itself (English words; the column's concept is in modes/lexicon)
VALUE_KINDS = {
    "gender": frozenset({"male", "female", "men", "women", "man", "woman", "boys", "girls", "boy", "girl"}),
}
ID_LIKE = re.compile(r"(?:^|[\s_])(?:id|code|no|number|#)$", re.I)
QUESTION_WORD = re.compile(r"(?<![a-z_])(?:what|which|who|how|why|whom)(?![a-z_])", re.I)


@dataclass(frozen=True)
class Hit:
    """A column named in the text (as the shared column finder reports it, or by its English plural/singular)."""

    start: int
    end: int
    column: str


def _variants(col: str) -> set[str]:
    """The ways English names a column: as written, with spaces for underscores, singular and plural."""
    base = {col.casefold(), col.casefold().replace("_", " ")}
    out = set(base)
    for b in base:
        if not re.search(r"[a-z]$", b):
            continue
        if b.endswith("ies"):
            out.add(b[:-3] + "y")
        elif b.endswith("s") and not b.endswith("ss"):
            out.add(b[:-1])
        elif b.endswith("y"):
            out.add(b[:-1] + "ies")
        else:
            out.add(b + "s")
    return out


def column_hits(text: str, hits: list[Any], sheet: Any) -> list[Hit]:
    """The columns named in the text: the shared finder's hits plus English singular/plural and spaced forms."""
    low = text.casefold()
    extra: list[Hit] = []
    for col in sheet.columns:
        if col.isascii():
            for v in _variants(col):
                extra += [Hit(m.start(), m.end(), col) for m in re.finditer(r"(?<![a-z0-9_])" + re.escape(v) + r"(?![a-z0-9_])", low)]
    found: list[Hit] = []
    taken = bytearray(len(low) + 1)  # longest first: "team name" over the "name" inside it
    for h in sorted([Hit(h.start, h.end, h.column) for h in hits] + extra, key=lambda h: h.start - h.end):
        if taken.find(1, h.start, h.end) == -1:
            taken[h.start : h.end] = b"\x01" * (h.end - h.start)
            found.append(h)
    return sorted(found, key=lambda h: h.start)


def _value(raw: str, column: str | None, sheet: Any) -> Any:
    """A value as written: a number for a numeric column, else the text (quotes and a trailing 's off)."""
    v = raw.strip().strip("\"'“”‘’").strip()
    num = parse_number(v) if re.fullmatch(r"-?\d[\d,]*(?:\.\d+)?", v) else None
    if num is not None and (column is None or column in sheet.numeric):
        return tidy(num)
    return v


def _holder(value: str, sheet: Any, exclude: set[str]) -> list[str]:
    """The columns whose known values hold this value (any case)."""
    low = value.casefold()
    return [c for c, vs in sheet.values.items() if c not in exclude and any(str(x).casefold() == low for x in vs)]


def _cond(col: str, op: str, raw: str, value: Any, sheet: Any, doubts: list[tuple[str, str, str]]) -> Cond:
    """A condition; an equality on a column whose values are all known and lack the value is said as a doubt."""
    if op == "eq" and isinstance(value, str) and col in sheet.values and col not in _holder(value, sheet, set()):
        doubts.append(("slot", f"{col} 列里没有“{value}”", f"'{value}' is not among the values of {col}"))
    return Cond(col, op, value, None, raw, "exact")


@dataclass
class Reading:
    columns: list[str]
    conds: list[Cond]
    spans: list[tuple[int, int]]
    doubts: list[tuple[str, str, str]]
    row_nouns: list[str] = field(default_factory=list)


def _answer_columns(text: str, head_end: int, hits: list[Hit]) -> tuple[list[Hit], int]:
    """The columns written right after the head, joined by and / commas."""
    first = next((h for h in hits if h.start == head_end), None)
    if first is None:
        return [], head_end
    out = [first]
    while True:
        m = AND_NEXT.match(text, out[-1].end)
        nxt = next((h for h in hits if m and h.start == m.end()), None)
        if nxt is None:
            return out, out[-1].end
        out.append(nxt)


def _value_after(text: str, start: int, stop: int) -> tuple[str, int]:
    """The value written from start: up to the next clause word or `stop` (the next column named)."""
    m = VALUE_END.search(text, start, stop) if start < stop else None
    end = m.start() if m else stop
    raw = text[start:end].strip()
    if re.search(r"\S\s{2,}\S", raw):
        return "", start  # a name blanked out inside it: not one value
    raw = re.sub(r"\s+(?:in|at|on|for|of)$", "", raw, flags=re.I)  # "... the incumbent in?"
    return raw, start + len(text[start:end].rstrip())


def _conditions(text: str, start: int, hits: list[Hit], answer: set[str], sheet: Any) -> Reading | None:
    """The condition clauses written after the answer columns; None when part of the text reads as nothing."""
    r = Reading([], [], [], [])
    cond_hits = [h for h in hits if h.start >= start]
    pos = start
    for i, h in enumerate(cond_hits):
        nxt = cond_hits[i + 1].start if i + 1 < len(cond_hits) else len(text)
        before = text[pos : h.start]
        vb = VALUE_BEFORE.search(before)
        nb = NUMBER_BEFORE.search(before)
        cm = CMP.match(text, h.end, nxt)
        after_link = LINK.match(text, h.end, nxt)
        raw, vend = _value_after(text, after_link.end() if after_link else h.end, nxt)
        said = vb and next(g for g in ("v", "v2", "v3") if vb.group(g))
        if vb and said and not QUESTION_WORD.search(vb.group(said)) and (said != "v3" or not raw):
            v = LEAD.sub("", vb.group(said)).strip()  # adam pepper is the player / from the democratic party
            vstart = pos + vb.start(said)
            r.conds.append(_cond(h.column, "eq", v, _value(v, h.column, sheet), sheet, r.doubts))
            r.spans += [(vstart, h.end)]
            pos = h.end
            continue
        cb = CMP_BEFORE.search(before)
        if cb and not cm and not raw:  # fewer than 3 rounds
            a = parse_number(cb.group("a").replace(",", ""))
            r.conds.append(Cond(h.column, OP_OF[cb.group("op").casefold()], tidy(a or 0), None, cb.group(0).strip(), "exact"))
            r.spans.append((pos + cb.start(), h.end))
            pos = h.end
            continue
        if nb and not cm and not raw:
            n = parse_number(nb.group("n"))
            r.conds.append(Cond(h.column, "eq", tidy(n) if n is not None else nb.group("n"), None, nb.group("n"), "exact"))
            r.spans += [(pos + nb.start("n"), h.end)]
            pos = h.end
            continue
        kv = KEY_VALUE.match(raw) if raw and not (after_link and after_link.group(0).strip()) else None
        if kv and i + 1 < len(cond_hits) and not _value_after(text, cond_hits[i + 1].end, len(text))[0]:
            kv = None  # the player from the blue sharks team: the next column reads the value before it
            raw = ""
        if kv:  # the players from kenya: the column names the rows, the clause says which
            key = _key_value(text, h.end, nxt, list(answer), sheet)
            if key is None:
                return None
            r.conds += key.conds
            r.doubts += key.doubts
            r.spans += [(h.start, h.end)] + key.spans
            r.row_nouns.append(h.column)
            pos = key.spans[-1][1]
            continue
        if not raw and (h.column in answer or ROW_NOUN.match(text, h.end) or KEY_VALUE.match(text[h.end : nxt])):
            r.spans.append((h.start, h.end))  # the film with …: the column names the rows, the clause that follows says which
            r.row_nouns.append(h.column)
            pos = h.end
            continue
        if cm:
            if cm.group("b"):
                a, b = parse_number(cm.group("a1").replace(",", "")), parse_number(cm.group("b").replace(",", ""))
                r.conds.append(Cond(h.column, "between", tidy(a or 0), tidy(b or 0), cm.group(0).strip(), "exact"))
            else:
                a = parse_number(cm.group("a").replace(",", ""))
                r.conds.append(Cond(h.column, OP_OF[cm.group("op").casefold()], tidy(a or 0), None, cm.group(0).strip(), "exact"))
            r.spans.append((h.start, cm.end()))
            pos = cm.end()
            continue
        if not raw or QUESTION_WORD.search(raw) or len(raw.split()) > 6:
            return None
        r.conds.append(_cond(h.column, "eq", raw, _value(raw, h.column, sheet), sheet, r.doubts))
        r.spans.append((h.start, vend))
        pos = vend
    return r


def _key_value(text: str, start: int, stop: int, answer: list[str], sheet: Any) -> Reading | None:
    """"the budget for the incredibles": a value with no column; the column holding it, found or guessed."""
    m = KEY_VALUE.match(text[start:stop])
    if m is None:
        return None
    raw, vend = _value_after(text, start + m.start("v"), stop)
    seg = text[start + m.start("v") : stop]
    blanked = re.search(r"\S?\s{2,}(?=\S|$)", seg)
    if not raw and blanked and blanked.start() > 0:  # all the female students(.csv): the value before the file's name
        raw = DETERMINERS.sub("", seg[: blanked.start() + 1]).strip()
        vend = start + m.start("v") + blanked.start() + 1
    elif not raw and blanked:  # the players.csv-named rows from kenya: the rows were named by the file, read what follows
        return _key_value(text, start + m.start("v") + blanked.end(), stop, answer, sheet)
    if not raw or QUESTION_WORD.search(raw) or len(raw.split()) > 6 or re.search(r"'s\b", raw):
        return None
    holders = _holder(raw, sheet, set(answer)) or _holder(re.sub(r"^the\s+", "", raw, flags=re.I), sheet, set(answer))
    if len(holders) > 1:
        return None
    r = Reading([], [], [(start, vend)], [])
    if holders:
        col = holders[0]
        v = raw if _holder(raw, sheet, set(answer)) else re.sub(r"^the\s+", "", raw, flags=re.I)
        r.conds.append(Cond(col, "eq", _value(v, col, sheet), None, raw, "exact"))
        return r
    texts = [c for c in sheet.columns if c not in answer and c not in sheet.numeric and c not in sheet.dates and not ID_LIKE.search(c)]
    if not texts:
        return None
    kind = next((k for k, words in VALUE_KINDS.items() if raw.casefold() in words), None)
    texts = [c for c in texts if lx.concept_of(c) == kind] or texts  # female: the gender column
    col = texts[0]  # else a name column, usually the first: said, never silent
    r.conds.append(Cond(col, "eq", _value(raw, col, sheet), None, raw, "exact"))
    if col in sheet.values:  # every value of the column is known, and this is not one of them
        r.doubts.append(("column", f"没有哪一列含有“{raw}”，按 {col} 列理解", f"no column holds '{raw}'; read as {col}"))
    else:
        r.doubts.append(("column", f"“{raw}”按 {col} 列的值理解", f"'{raw}' read as a value of {col}"))
    return r


def read_question(text: str, hits: list[Any], sheet: Any) -> Reading | None:
    """An English look-up question: the answer columns and the conditions on the rows, or None."""
    if CJK.search(text) or not sheet.columns:
        return None
    head = HEAD.match(text)
    if head is None:
        return None
    all_hits = column_hits(text, hits, sheet)
    start = head.end()
    number = NUMBER_OF.match(text, start)  # the number for other / the number of top-25s
    if number:
        start = number.end()
    answer, end = _answer_columns(text, start, all_hits)
    if not answer:
        return None
    covered = [(h.start, h.end) for h in all_hits] + [(head.start(), start)]
    if any(not any(a <= m.start() < b for a, b in covered) for m in AGGREGATE.finditer(text)):
        return None  # how many / the highest / the total …: an aggregate, read by other rules
    cols = list(dict.fromkeys(h.column for h in answer))
    rest = [h for h in all_hits if h.start >= end]
    if rest:
        r = _conditions(text, end, rest, set(cols), sheet)
    else:
        r = _key_value(text, end, len(text), cols, sheet)
    if r is None or not r.conds:
        return None
    r.columns = cols
    r.spans += [(head.start(), start)] + [(h.start, h.end) for h in answer]
    if number and number.group("of"):  # "the number of X" may ask for a count: say how it was read
        r.doubts.append(("slot", f"“{text[number.start():end].strip()}”按 {'、'.join(cols)} 列的值理解，不是计数",
                         f"'{text[number.start():end].strip()}' read as the values of {', '.join(cols)}, not a count"))
    return r


@operation
class LookupRows(OpSpec):
    """The values of some columns in the rows that meet conditions: an English look-up question."""

    name = "lookup_rows"
    label = {"zh": "查找", "en": "look up"}
    words = {"en": ("what", "who", "which", "name", "list", "show", "give", "tell me", "find", "get")}
    answers_question = True
    main_slot = "conditions"

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        r = read_question(text, hits, sheet)
        if r is None:
            return None
        from modes.opspecs.analysis import GROWTH_RX

        said = [x.span() for x in GROWTH_RX.finditer(text)]
        if any(a < y and x < b for a, b in r.spans for x, y in said):
            return None  # show month on month growth: the words of a growth, never a row whose month is "growth"
        args: dict[str, Any] = {"columns": r.columns, "conditions": r.conds, "logic": "and"}
        if r.doubts:
            args["doubts"] = r.doubts
        if r.row_nouns:
            args["rows_named_by"] = r.row_nouns
        start = min(s for s, _ in r.spans)
        return Found(start, self.name, args, tuple(sorted(r.spans)))

    def gaps(self, args: dict[str, Any]) -> list[str]:
        return [] if args.get("conditions") and args.get("columns") else ["condition"]

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        conds = _zh(lang, " 且 ", " and ").join(c.describe(lang) for c in args.get("conditions") or [])
        cols = _zh(lang, "、", ", ").join(args.get("columns") or [])
        return _zh(lang, f"查 {conds} 的行的 {cols}", f"look up {cols} where {conds}")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        conds = [c.to_tool() for c in args["conditions"]]
        return [StepSpec("筛选行", "filter_rows", "筛选完成", {"conditions": conds, "logic": args.get("logic", "and")}),
                StepSpec("选择列", "select_columns", "列已选出", {"columns": args["columns"]})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "select_columns" or "values" not in facts:
            return None
        vals = _zh(lang, "；", "; ").join(f"{c}: {', '.join(map(str, vs))}" for c, vs in facts["values"].items())
        more = _zh(lang, f"（共 {facts['rows_out']} 行，只列出前 {facts['shown']} 行）", f" ({facts['rows_out']} rows, first {facts['shown']} shown)") \
            if facts["rows_out"] > facts["shown"] else ""
        return _zh(lang, f"{vals}{more}。", f"{vals}{more}.")
