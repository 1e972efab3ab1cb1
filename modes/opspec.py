"""One home per operation: the `OpSpec` registry.

Everything wenqing knows about an operation lives in its OpSpec: the words that ask for it (per
language), its slots and the question asked when one is missing, its zh/en labels, how a request for it
is restated (`phrase`), the plan steps that carry it out (`to_steps`, naming registered tools), how its
result is worded (`answer`), its mode family. Its arguments, as a model or a recipe gives them, are listed in
modes/opspecs/params.toml (the query's schema is generated from there). The mode table, the
gap questions, restatements, plan building, answers and model prompts read it from here.

Adding an operation
-------------------
1. Write its tool (a typed function registered with `@tool`).
2. Register its OpSpec::

       from modes.opspec import OpSpec, Slot, StepSpec, operation

       @operation
       class Median(OpSpec):
           name = "median"
           family = "explore"                      # transform | explore | profile | export | list
           label = {"zh": "中位数", "en": "median"}
           words = {"zh": ("中位数", "中值"), "en": ("median",)}
           slots = (Slot("column", "column", "要算哪一列的中位数？", "Median of which column?", numeric=True),)
           answers_question = True                 # the answer is a figure, no result file is saved

           def to_steps(self, args, ctx):
               return [StepSpec("计算中位数", "column_median", "中位数已算出", {"column": args["column"]})]

           def answer(self, tool, facts, lang):
               if tool == "column_median":
                   return f"{facts['column']} 的中位数是 {facts['median']}。" if lang == "zh" else f"..."
               return None

   The default `read` finds one of `words` in the request and fills the column slots from the columns
   the request names (numeric ones for `numeric=True` slots), in the order written, and a `keys` slot
   from the columns written right after 按/by/per/每个; override it for anything finer. While an
   operation read by its own words is in a request, the built-in summary, ranking and question rules
   stand aside (so 按城市算金额的中位数 is one operation, not a sum plus a median). The default `gaps` reports required slots that stayed empty; `phrase` defaults to
   the label followed by the slot values.
3. Put the OpSpec in its own module in `modes/opspecs/` and the tool in its own module in `tools/optools/`:
   both registries import every module there, so nothing else names the operation. Then write its tests.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

from modes.lazyre import lazy

FAMILIES = ("transform", "explore", "profile", "export", "list")
BY_BEFORE = lazy(r"(?:按照|按|根据|每个|每一个|各个|各|(?<![a-z_])(?:by|per|for each|for every))\s*$", re.I)


def missing_slot(ops: Iterable[Any], name: str) -> Slot | None:
    """The slot of one of these operations that a missing name (Decision.missing) stands for."""
    return next((s for o in ops if (spec := get(o.kind)) for s in spec.slots if s.missing_name == name), None)


def said_in(lang: str, zh: str, en: str) -> str:
    """The Chinese or the English wording, by the request's language."""
    return zh if lang == "zh" else en


@dataclass(frozen=True)
class Slot:
    """One argument of an operation: its key in Op.args, what fills it, and the question when it is missing."""

    name: str
    kind: str  # column | columns | keys (columns after 按/by/per) | number | text
    zh: str
    en: str
    numeric: bool = False
    required: bool = True
    gap: str = ""  # the name reported in Decision.missing (defaults to the slot's name)
    fits: str = ""  # the columns that can fill it: "" any | numeric | date | ordered (numeric or date)

    @property
    def missing_name(self) -> str:
        return self.gap or self.name

    @property
    def takes(self) -> str:
        """The kind of column the slot takes: "" any, numeric, date or ordered."""
        return self.fits or ("numeric" if self.numeric else "")

    @property
    def of_number(self) -> bool:
        """A number fills the slot (a rolling average's window): its question lists no columns."""
        return self.kind == "number"

    def fitting(self, sheet: Any) -> tuple[str, ...]:
        """The sheet's columns this slot can take, in the sheet's order: what its question offers."""
        if self.of_number:
            return ()
        kind = self.takes
        if not kind:
            return tuple(sheet.columns)
        ok = {"numeric": sheet.numeric, "date": sheet.dates, "ordered": sheet.numeric | sheet.dates}[kind]
        return tuple(c for c in sheet.columns if c in ok)


@dataclass(frozen=True)
class StepSpec:
    """A plan step an operation asks for: what it does, the registered tool, when it is done, its arguments."""

    action: str
    tool: str
    done: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass
class PlanContext:
    """What an operation's steps may depend on: the request, its sheet, and what earlier steps produced."""

    request: Any  # modes.decision.Request
    sheet: Any = None  # modes.catalog.SheetInfo | None
    sheets: tuple[Any, ...] = ()  # every sheet of the file
    last_measure: str | None = None  # the column an earlier summary produced (金额_合计)
    labels: list[str] = field(default_factory=list)  # words for the output file's name


@dataclass(frozen=True)
class Found:
    """An operation read from a request: where it starts, its arguments and the text it consumed."""

    start: int
    kind: str
    args: dict[str, Any]
    spans: tuple[tuple[int, int], ...]


class OpSpec:
    """The base of every operation. Subclass, set the class attributes, register with `@operation`."""

    name: ClassVar[str] = ""
    family: ClassVar[str] = "transform"
    label: ClassVar[dict[str, str]] = {}
    words: ClassVar[dict[str, tuple[str, ...]]] = {}
    slots: ClassVar[tuple[Slot, ...]] = ()
    answers_question: ClassVar[bool] = False  # a figure in the answer, no result file
    saves_result: ClassVar[bool] = False  # a changed table is saved to outputs/ when nothing else writes it
    main_slot: ClassVar[str | None] = None  # the slot a later turn fills or corrects
    precedence: ClassVar[int] = 0  # where two operations' words overlap, the higher reads them (a more specific word)

    # ---- reading
    def pattern(self) -> re.Pattern[str] | None:
        ws = [w for lang in ("zh", "en") for w in self.words.get(lang, ())]
        if not ws:
            return None
        alts = sorted(ws, key=len, reverse=True)
        body = "|".join(r"(?<![a-z_])" + re.escape(w) + r"(?![a-z_])" if w.isascii() else re.escape(w) for w in alts)
        return re.compile(body, re.I)

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        """The operation when one of its words is in the text; column slots filled from the named columns."""
        pat = _pattern(self)
        m = pat.search(text) if pat else None
        if m is None:
            return None
        args: dict[str, Any] = {}
        used: list[tuple[int, int]] = [m.span()]
        pool = list(hits)
        numbers = [(n.span(), float(n.group(0).replace(",", ""))) for n in re.finditer(r"-?\d[\d,]*(?:\.\d+)?", text)]
        keyed = [h for h in pool if BY_BEFORE.search(text[: h.start])]
        for s in self.slots:
            if s.kind == "keys":  # 按城市 / by city: the columns named right after a BY word
                if keyed:
                    args[s.name] = list(dict.fromkeys(h.column for h in keyed))
                    used += [(h.start, h.end) for h in keyed]
                    pool = [h for h in pool if h not in keyed]
            elif s.kind in ("column", "columns"):
                fit = [h for h in pool if not s.numeric or h.column in sheet.numeric]
                take = fit[:1] if s.kind == "column" else fit
                if take:
                    args[s.name] = take[0].column if s.kind == "column" else list(dict.fromkeys(h.column for h in take))
                    used += [(h.start, h.end) for h in take]
                    pool = [h for h in pool if h not in take]
            elif s.kind == "number" and numbers:
                span, value = numbers.pop(0)
                args[s.name] = int(value) if value.is_integer() else value
                used.append(span)
        return Found(m.start(), self.name, args, tuple(used))

    def gaps(self, args: dict[str, Any]) -> list[str]:
        """The missing-slot names of required slots left empty."""
        return [s.missing_name for s in self.slots if s.required and not args.get(s.name)]

    def answer_word(self, slot: str, text: str) -> str | None:
        """A reply to this operation's own question that names no column yet is understood (行数 for a chart's
        measure): the words that join the request, or None."""
        return None

    def answer_join(self, slot: str, words: str, args: dict[str, Any], lang: str = "zh") -> str:
        """How an answer to this operation's question joins the request's text, in the request's language (by
        default: appended)."""
        return f" {words}"

    def question(self, slot: str, lang: str) -> str | None:
        s = next((x for x in self.slots if x.missing_name == slot or x.name == slot), None)
        return None if s is None else (s.en if lang == "en" else s.zh)

    # ---- saying
    def phrase(self, args: dict[str, Any], lang: str) -> str:
        sep = "、" if lang == "zh" else ", "
        vals = [sep.join(v) if isinstance(v, list) else str(v) for s in self.slots if (v := args.get(s.name)) not in (None, "", [])]
        lab = self.label.get(lang, self.name)
        return (f"{lab}：{sep.join(vals)}" if lang == "zh" else f"{lab}: {sep.join(vals)}") if vals else lab

    def stem_label(self, args: dict[str, Any]) -> str:
        """The word for this operation in an output file's name."""
        return self.label.get("zh", self.name)

    # ---- doing
    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        raise NotImplementedError(f"{self.name}: to_steps")

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        """The sentence for one of this operation's steps, or None to leave it to the generic wording."""
        return None


OPS: dict[str, OpSpec] = {}
_PATTERNS: dict[str, re.Pattern[str] | None] = {}


def operation(cls: type[OpSpec]) -> type[OpSpec]:
    """Register an operation (class decorator); its name must be new and its family known."""
    if not cls.name or cls.name in OPS:
        raise ValueError(f"operation name missing or taken: {cls.name!r}")
    if cls.family not in FAMILIES:
        raise ValueError(f"{cls.name}: unknown family {cls.family!r}")
    OPS[cls.name] = cls()
    _PATTERNS.pop(cls.name, None)
    return cls


def unregister(name: str) -> None:
    """Remove an operation (tests that register their own)."""
    OPS.pop(name, None)
    _PATTERNS.pop(name, None)


def _pattern(s: OpSpec) -> re.Pattern[str] | None:
    if s.name not in _PATTERNS:
        _PATTERNS[s.name] = s.pattern()
    return _PATTERNS[s.name]


def get(name: str) -> OpSpec | None:
    _load()
    return OPS.get(name)


def all_ops() -> list[OpSpec]:
    """Every operation in the order they are tried: the modules the operations package reads first (in its order),
    then its other modules by name, then operations registered from elsewhere (a test's); within a module, the
    order they are written in. The order never depends on which module happened to be imported first."""
    _load()
    return list(_ordered(tuple((n, id(s)) for n, s in OPS.items())))


@cache
def _ordered(registered: tuple[tuple[str, int], ...]) -> tuple[OpSpec, ...]:
    import modes.opspecs

    names = [n for n, _ in registered]
    first = modes.opspecs.FIRST

    def rank(item: tuple[int, str]) -> tuple[int, str, int]:
        seq, name = item
        module = type(OPS[name]).__module__
        short = module.removeprefix("modes.opspecs.")
        if short in first:
            return (first.index(short), "", seq)
        return (len(first), short, seq) if short != module else (len(first) + 1, "", seq)

    return tuple(OPS[n] for _, n in sorted(enumerate(names), key=rank))


def kinds_of(family: str) -> frozenset[str]:
    return frozenset(s.name for s in all_ops() if s.family == family)


def label(kind: str, lang: str) -> str:
    s = get(kind)
    return s.label.get(lang, kind) if s else kind


def labels(lang: str) -> dict[str, str]:
    return {s.name: s.label.get(lang, s.name) for s in all_ops()}


def read_worded(text: str, hits: list[Any], sheet: Any) -> list[Found]:
    """Operations asked for by their own words (those with `words`), longest matching word first."""
    out: list[Found] = []
    taken: list[tuple[int, int]] = []
    for s in sorted(all_ops(), key=lambda s: -s.precedence):  # stable: registration order among equals
        if not s.words:
            continue
        f = s.read(text, hits, sheet)
        if f is not None and any(h.start <= f.spans[0][0] and f.spans[0][1] <= h.end and getattr(h, "how", "exact") == "exact" for h in hits):
            continue  # 移动平均 where the table has a column 移动平均 (异常 of 异常类型): the column, never the operation
        if f is not None and not any(a < f.spans[0][1] and f.spans[0][0] < b for a, b in taken):
            out.append(f)
            taken.append(f.spans[0])

    def inside_other(f: Found) -> bool:  # 透视表…by quarter: the pivot read the period word another operation starts at
        a, b = f.spans[0]
        return any(g is not f and g.kind == "pivot" and any(x < b and a < y for x, y in g.spans[1:] if not any(h.start <= x and y <= h.end for h in hits))
                   for g in out)
    return [f for f in out if not inside_other(f)]


def answer_for(tool: str, facts: dict[str, Any], lang: str, kinds: Iterable[str]) -> str | None:
    for k in kinds:
        s = get(k)
        if s is not None:
            text = s.answer(tool, facts, lang)
            if text:
                return text
    return None


def _load() -> None:
    _load_opspecs()


@cache
def _load_opspecs() -> None:
    import modes.opspecs

    found = [m.name for m in pkgutil.iter_modules(modes.opspecs.__path__)]  # one module per operation, each registers itself
    first = [n for n in modes.opspecs.FIRST if n in found]  # the built-ins first: the order operations are tried in
    for name in first + [n for n in found if n not in first]:
        importlib.import_module(f"modes.opspecs.{name}")
