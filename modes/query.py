"""The typed query: one frozen, JSON-serialisable object between understanding and doing.

A request is read into operations; `from_request` places each one in a stage of the query and the query runs in
its own logical order, as SQL does, never in the order of the words:

    source → clean → derive → where → distinct → group → having → window → order → limit → project → reshape
           → analysis → output

A row condition said after a top-N, a summary or a chart still filters the rows first; a condition on an
aggregate (总金额超过1万的城市) is a having. Word order decides only where the words say so (先…再…, 然后, then):
the operation said after such a word runs on the result of what came before, as a query over a query
(`Source(kind="query")`). The restatement, the plan's steps and the decision's JSON are all rendered from this
object (`engine.plan`, `modes.replies`), so what is restated is exactly what runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from modes.conditions import (
    Cond as Pred,  # a column against a value, another column, a figure, a period or a list
)
from modes.decision import Op, Request
from modes.naming import export_format

QUERY_VERSION = 2  # 2: a step is {"op", "args"} (an argument may itself be called op)

STAGES = ("clean", "derive", "where", "distinct", "group", "having", "window", "order", "limit", "project", "reshape",
          "analysis", "output")
ROW_STAGES = frozenset({"clean", "derive", "where", "distinct"})  # what works on the rows one by one, before any summary

# the stage of each operation; an operation not listed is a terminal analysis over the rows it is given
STAGE_OF = {
    "clean": "clean", "fill_method": "clean", "replace": "clean", "text_values": "clean", "letter_case": "clean",
    "add_column": "derive", "formula": "derive",
    "filter": "where", "having": "having",
    "dedupe": "distinct",
    "group": "group", "count": "group",
    "rank": "window", "running_total": "window", "top_per_group": "window",
    "sort": "order",
    "top_n": "limit", "head": "limit",
    "select": "project", "rename": "project",
    "pivot": "reshape", "transpose": "reshape",
    "export": "output",
}
SOURCE_OPS = ("join", "append", "stack")  # operations that make the table the rest of the query reads
AGG_WORDS = {"sum": ("总", "合计", "总和", "total", "sum of", "sum"), "mean": ("平均", "均值", "average", "mean")}

Logic = Literal["and", "or"]


@dataclass(frozen=True)
class Junction:
    logic: Logic
    items: tuple[Cond, ...]


@dataclass(frozen=True)
class Not:
    item: Cond


Cond = Pred | Junction | Not


@dataclass(frozen=True)
class Step:
    """An operation of the registry with its typed arguments (its OpSpec says what they are)."""

    kind: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Source:
    kind: Literal["file", "result", "query", "none"]
    file: str | None = None
    sheet: str | None = None
    files: tuple[str, ...] = ()  # every file a request over several reads (join, append, compare)
    query: Query | None = None  # kind == "query": the result of this query, as said (先…再…, then)
    steps: tuple[Step, ...] = ()  # join / append: how the table is made from the files


@dataclass(frozen=True)
class Query:
    source: Source
    clean: tuple[Step, ...] = ()
    derive: tuple[Step, ...] = ()
    where: Cond | None = None
    where_args: dict[str, Any] = field(default_factory=dict)  # how the condition was read (doubts, delete, unresolved)
    distinct: tuple[Step, ...] = ()
    group: tuple[Step, ...] = ()
    having: Cond | None = None
    window: tuple[Step, ...] = ()
    order: tuple[Step, ...] = ()
    limit: tuple[Step, ...] = ()
    project: tuple[Step, ...] = ()
    reshape: tuple[Step, ...] = ()
    analysis: tuple[Step, ...] = ()
    output: tuple[Step, ...] = ()
    version: int = QUERY_VERSION

    def chain(self) -> list[Query]:
        """The queries from the innermost (the one that reads the file) to this one."""
        inner = self.source.query.chain() if self.source.kind == "query" and self.source.query is not None else []
        return [*inner, self]

    def to_json(self) -> dict[str, Any]:
        return _json(self)


# ---- from a request ---------------------------------------------------------------------------------------------

def _tree(conds: list[Any], logic: str) -> Cond | None:
    preds: list[Cond] = list(conds)
    if not preds:
        return None
    if len(preds) == 1:
        return preds[0]
    return Junction("or" if logic == "or" else "and", tuple(preds))


def _is_having(op: Op, group: Op | None) -> bool:
    """A condition that names an aggregate of a column the summary measures (总金额超过1万, average salary above 8000)."""
    if op.kind == "having":
        return True
    if op.kind != "filter" or group is None:
        return False
    measured = {m.get("column"): m.get("agg") for m in group.args.get("measures") or [] if m.get("column")}
    for c in op.args.get("conditions") or []:
        agg = measured.get(c.column)
        raw = (c.raw or "").casefold()
        if agg in AGG_WORDS and any(w in raw for w in AGG_WORDS[agg]) and c.column and c.column.casefold() != raw:
            return True
    return False


def placed(ops: list[Op]) -> list[tuple[str, Op]]:
    """Each operation with its stage, in the order they run: row operations before any summary or cut, unless the
    words placed them after it (then / 再 / 然后)."""
    group = next((o for o in ops if o.kind in ("group",)), None)
    staged = [("having" if _is_having(o, group) else STAGE_OF.get(o.kind, "analysis"), o) for o in ops]
    front = sorted((s for s in staged if s[0] in ROW_STAGES and not s[1].after), key=lambda s: STAGES.index(s[0]))
    said_later = _in_stage_order([s for s in staged if not (s[0] in ROW_STAGES and not s[1].after)])
    # the columns kept (只保留姓名和月薪两列) are kept last: an order or a cut said after them orders the same rows
    kept = [s for s in said_later if s[1].kind == "select" and not s[1].after]
    if kept and all(st in ("order", "limit", "project", "output") for st, _ in said_later):
        said_later = [s for s in said_later if s not in kept and s[0] != "output"] + kept + [s for s in said_later if s[0] == "output"]
    # a row operation whose words put it after another runs where it was said
    return front + said_later


def _in_stage_order(staged: list[tuple[str, Op]]) -> list[tuple[str, Op]]:
    """The operations said after the rows ones, in the query's own order (a summary before its order and its cut,
    按门店汇总销售额 after 销售额从高到低排 included), except where the words place one after another (then / 再 /
    然后): each such operation starts a part of its own, run on the result of the part before."""
    parts: list[list[tuple[str, Op]]] = [[]]
    for s in staged:
        barrier = s[0] in ("analysis", "output")  # a report, a test or the export stays where it was said
        if (s[1].after or barrier) and parts[-1]:
            parts.append([])
        parts[-1].append(s)
        if barrier:
            parts.append([])
    return [s for part in parts for s in sorted(part, key=lambda s: STAGES.index(s[0]))]


def query_of(r: Request) -> Query | None:
    """The typed query a request asks for, or None for chat and the file list; built once per request (the plan, the
    restatement, the decision's JSON and the events all read it). A query read from outside (a model's answer) is
    the request's while its operations are the ones read with it."""
    if r.given is not None and r.given[0] == r.ops:
        return cast(Query, r.given[1])
    if "_query" not in r.__dict__:
        r.__dict__["_query"] = from_request(r)  # a frozen request: its query is kept beside its fields, as a cache
    return cast("Query | None", r.__dict__["_query"])


def from_request(r: Request) -> Query | None:
    """The query a request asks for (None for chat, questions and the file list)."""
    ops = [o for o in r.ops if o.kind != "list_files"]
    if not ops or any(o.kind == "list_files" for o in r.ops):
        return None
    src_steps = tuple(Step(o.kind, o.args) for o in ops if o.kind in SOURCE_OPS)
    rest = [o for o in ops if o.kind not in SOURCE_OPS]
    source = Source("result" if (r.file or "").startswith(("outputs/", ".wenqing/")) else "file" if r.file else "none",
                    r.file, r.sheet, tuple(r.files), None, src_steps)
    parts: dict[str, list[Any]] = {s: [] for s in STAGES}
    q_args: dict[str, Any] = {}
    level = -1
    queries: list[Query] = []
    for stage, op in placed(rest):
        i = STAGES.index(stage)
        # a stage already passed (a second condition after the summary, a cut before a sort) starts a query over
        # the result of the one so far; so does an operation the words place after the one before
        taken = bool(parts[stage]) and stage in ("where", "having")
        if i < level or taken or (op.after and any(parts.values())):
            queries.append(_make(source if not queries else Source("query", query=queries[-1]), parts, q_args))
            parts, q_args, level = {s: [] for s in STAGES}, {}, -1
        level = max(level, i)
        if stage in ("where", "having"):
            parts[stage].append(_tree(list(op.args.get("conditions") or []), op.args.get("logic", "and")))
            if stage == "where":
                q_args.update({k: v for k, v in op.args.items() if k not in ("conditions", "logic")})
        elif op.kind == "export" and not op.args.get("format"):  # the format that is written is the one said back
            parts[stage].append(Step(op.kind, {**op.args, "format": export_format(r)}))
        else:
            parts[stage].append(Step(op.kind, op.args))  # the same arguments: an operation's steps may look itself up
    queries.append(_make(source if not queries else Source("query", query=queries[-1]), parts, q_args))
    return queries[-1]


def _make(source: Source, parts: dict[str, list[Any]], where_args: dict[str, Any]) -> Query:
    where = next(iter(parts["where"]), None)
    having = next(iter(parts["having"]), None)
    def steps(stage: str) -> tuple[Step, ...]:
        return tuple(parts[stage])

    return Query(source, clean=steps("clean"), derive=steps("derive"), where=where, where_args=dict(where_args),
                 distinct=steps("distinct"), group=steps("group"), having=having, window=steps("window"), order=steps("order"),
                 limit=steps("limit"), project=steps("project"), reshape=steps("reshape"), analysis=steps("analysis"),
                 output=steps("output"))


# ---- back to operations, in the order they run --------------------------------------------------------------------

def cond_tool(c: Cond) -> dict[str, Any]:
    """A condition as the filter tools take it: a predicate, or {"and"|"or": [...]} / {"not": …}."""
    if isinstance(c, Pred):
        return c.to_tool()
    if isinstance(c, TreeCond):  # a tree the reader made, inside the query's own
        return cond_tool(c.tree)
    if isinstance(c, Not):
        return {"not": cond_tool(c.item)}
    return {c.logic: [cond_tool(i) for i in c.items]}


def _reader_conds(c: Cond) -> tuple[list[Any], str]:
    """A flat condition as the reader's conditions and logic; a nested one as one tree condition."""
    if isinstance(c, Pred):
        return [c], "and"
    if isinstance(c, Junction) and all(isinstance(i, Pred) for i in c.items):
        return list(c.items), c.logic
    return [TreeCond(c)], "and"


@dataclass(frozen=True)
class TreeCond:
    """A nested condition (NOT, and/or mixed) handed to the filter tool whole."""

    tree: Cond
    column: str | None = "*"
    how: str = "tree"
    raw: str = ""
    op: str = "tree"  # (read like a predicate where conditions are looked over: no comparison, value or closest of its own)
    value: Any = None
    value2: Any = None
    closest: tuple[str, ...] = ()

    def to_tool(self) -> dict[str, Any]:
        return cond_tool(self.tree)

    def describe(self, lang: str = "zh") -> str:
        return describe_cond(self.tree, lang)


def ops_in_order(q: Query) -> list[Op]:
    """The operations of the query, chain by chain and stage by stage: what the plan runs."""
    out: list[Op] = []
    for part in q.chain():
        out += [Op(s.kind, s.args) for s in part.source.steps]
        for stage in STAGES:
            if stage in ("where", "having"):
                c = part.where if stage == "where" else part.having
                if c is not None:
                    conds, logic = _reader_conds(c)
                    out.append(Op("filter", {**(part.where_args if stage == "where" else {}), "conditions": conds, "logic": logic}))
                continue
            out += [Op(s.kind, s.args) for s in getattr(part, stage)]
    return out


# ---- said back -----------------------------------------------------------------------------------------------------

def describe_cond(c: Cond, lang: str) -> str:
    if isinstance(c, Pred):
        return c.describe(lang)
    if isinstance(c, TreeCond):
        return f"（{describe_cond(c.tree, lang)}）" if lang == "zh" else f"({describe_cond(c.tree, lang)})"
    if isinstance(c, Not):
        inner = describe_cond(c.item, lang)
        return f"不满足（{inner}）" if lang == "zh" else f"not ({inner})"
    joiner = (" 或 " if c.logic == "or" else " 且 ") if lang == "zh" else (" or " if c.logic == "or" else " and ")
    return joiner.join(f"（{describe_cond(i, lang)}）" if isinstance(i, Junction) else describe_cond(i, lang) for i in c.items)


def phrases(q: Query, lang: str) -> list[str]:
    """Every part of the query, said in the order it runs; a query over a query says the first one first."""
    from modes import opspec

    def said(s: Step) -> str:
        spec = opspec.get(s.kind)
        return spec.phrase(s.args, lang) if spec else s.kind

    out: list[str] = []
    for n, part in enumerate(q.chain()):
        mine: list[str] = [said(s) for s in part.source.steps]
        for stage in STAGES:
            if stage == "where" and part.where is not None:
                conds, logic = _reader_conds(part.where)
                mine.append(said(Step("filter", {**part.where_args, "conditions": conds, "logic": logic})))
            elif stage == "having" and part.having is not None:
                text = describe_cond(part.having, lang)
                mine.append(f"汇总后只保留 {text} 的组" if lang == "zh" else f"then keep the groups where {text}")
            elif stage not in ("where", "having"):
                mine += [said(s) for s in getattr(part, stage)]
        mine = [m for m in mine if m]
        if n and mine and not _reports_only(q.chain()[n - 1]):  # after a report (全面分析) the table is the same one
            mine[0] = (f"然后在这个结果上{mine[0]}" if lang == "zh" else f"then, on that result, {mine[0]}")
        out += mine
    return out


REPORTS = frozenset({"full_analysis", "profile"})  # operations that report on the table and leave it as it is


def _reports_only(q: Query) -> bool:
    parts = [getattr(q, s) for s in STAGES if s not in ("where", "having")]
    return q.where is None and q.having is None and all(st.kind in REPORTS for p in parts for st in p) and bool(q.analysis)


def walk(c: Cond | None) -> Iterator[Pred]:
    if c is None:
        return
    if isinstance(c, Pred):
        yield c
    elif isinstance(c, Not):
        yield from walk(c.item)
    else:
        for i in c.items:
            yield from walk(i)


# ---- JSON ------------------------------------------------------------------------------------------------------------

def _plain(v: Any) -> Any:
    if isinstance(v, Pred):
        return {"column": v.column, "op": v.op, **({"value": _value(v.value)} if v.value is not None else {}),
                **({"value2": _value(v.value2)} if v.value2 is not None else {})}
    if isinstance(v, Junction):
        return {v.logic: [_plain(i) for i in v.items]}
    if isinstance(v, Not):
        return {"not": _plain(v.item)}
    if isinstance(v, TreeCond):
        return _plain(v.tree)
    if isinstance(v, Step):
        return {"op": v.kind, "args": {k: _plain(x) for k, x in v.args.items() if x not in (None, [], {}, ())}}
    if isinstance(v, Source):
        d: dict[str, Any] = {"kind": v.kind}
        if v.kind == "query" and v.query is not None:
            d["query"] = _json(v.query)
        else:
            d.update({k: x for k, x in (("file", v.file), ("sheet", v.sheet)) if x})
            if len(v.files) > 1:
                d["files"] = list(v.files)
            if v.steps:
                d["steps"] = [_plain(s) for s in v.steps]
        return d
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if hasattr(v, "isoformat"):
        return v.isoformat()
    return str(v)


def _value(v: Any) -> Any:
    """A condition's value as the schema writes it: a day as its ISO text."""
    if isinstance(v, dict) and set(v) == {"date"}:
        return v["date"]
    return _plain(v)


def _json(q: Query) -> dict[str, Any]:
    d: dict[str, Any] = {"version": q.version, "source": _plain(q.source)}
    for stage in STAGES:
        if stage in ("where", "having"):
            c = q.where if stage == "where" else q.having
            if c is not None:
                d[stage] = _plain(c)
        elif getattr(q, stage):
            d[stage] = [_plain(s) for s in getattr(q, stage)]
    return d
