"""The typed query as a schema: what a model (or any outside reader) fills, and how its answer is read back.

Everything here is generated from the query's types (`modes.query`) and the operation registry (`modes.opspec`,
with every operation's arguments in `modes/opspecs/params.toml`): adding an operation adds it to the schema, the
prompt and the parser, and a test fails when an operation has no arguments listed. File, sheet and column names
are enums filled from the catalog of the files in play at call time.

`read_answer` turns a model's JSON into a `Query` checked against the workspace:
  - `errors`: the answer does not fit the schema (an unknown operation, an argument it does not take, a wrong type,
    an operation in the wrong stage) — sent back to the model once, with these exact sentences;
  - `unknown`: names that are not in the workspace (a file, a sheet, a column) — asked of the user, never guessed.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from modes import opspec
from modes.conditions import NO_VALUE, OP_EN
from modes.conditions import Cond as Pred
from modes.query import SOURCE_OPS, STAGE_OF, STAGES, Junction, Not, Query, Source, Step

PARAMS_FILE = Path(__file__).parent / "opspecs" / "params.toml"
PARAM_TYPES = ("column", "columns", "number", "integer", "text", "texts", "numbers", "bool", "enum", "enum_list",
               "conditions", "measures", "mapping", "sheets")
CMP_OPS = tuple(OP_EN)
MEASURE_AGGS = ("count", "sum", "mean", "median", "min", "max", "distinct")
STATS = ("mean", "median", "min", "max")  # a column compared with a figure of a column
# where an operation lives in the query when it is not a step of a stage
NOT_A_STEP = {"filter": "where", "having": "having", "join": "source", "append": "source", "stack": "source",
              "list_files": "intent", "chart_unsupported": "intent"}
INTENTS = ("work", "chat", "list_files", "unsupported", "unclear")
MAX_ENUM = 400  # a workspace with more names than this lists them in the prompt only


@cache
def _params() -> dict[str, dict[str, Any]]:
    return tomllib.loads(PARAMS_FILE.read_text(encoding="utf-8"))


def op_doc(kind: str) -> str:
    return str(_params().get(kind, {}).get("doc", ""))


def op_params(kind: str) -> dict[str, dict[str, Any]]:
    """The arguments an operation takes: name -> {type, doc, required, values, default, min}."""
    return {k: v for k, v in _params().get(kind, {}).items() if isinstance(v, dict)}


def one_of(kind: str) -> list[str]:
    return list(_params().get(kind, {}).get("one_of", ()))


def internal_keys(kind: str) -> frozenset[str]:
    return frozenset(_params().get(kind, {}).get("internal", ()))


def described() -> frozenset[str]:
    """The operations params.toml describes."""
    return frozenset(_params())


def stage_of(kind: str) -> str:
    return NOT_A_STEP.get(kind) or STAGE_OF.get(kind, "analysis")


def step_kinds(stage: str) -> list[str]:
    """The operations a stage's steps may name, in registry order."""
    return [s.name for s in opspec.all_ops() if s.name not in NOT_A_STEP and STAGE_OF.get(s.name, "analysis") == stage]


# ---- the view of the workspace a call may name ---------------------------------------------------------------

@dataclass(frozen=True)
class View:
    """The files in play: path -> sheet name ('' for a one-sheet file) -> columns, numeric columns, dates."""

    files: dict[str, dict[str, tuple[str, ...]]]
    numeric: frozenset[str] = frozenset()
    dates: frozenset[str] = frozenset()
    previous: str | None = None  # the table the last request wrote (outputs/…), readable as source kind "result"

    @classmethod
    def of(cls, catalog: Any, files: list[str] | None = None, previous: str | None = None) -> View:
        chosen = [f for f in catalog.tables if files is None or f.path in files]
        out: dict[str, dict[str, tuple[str, ...]]] = {}
        num: set[str] = set()
        dts: set[str] = set()
        for f in chosen:
            out[f.path] = {(s.name or ""): tuple(s.columns) for s in f.sheets}
            for s in f.sheets:
                num |= set(s.numeric)
                dts |= set(s.dates)
        return cls(out, frozenset(num), frozenset(dts), previous)

    def columns(self, file: str | None = None, sheet: str | None = None) -> list[str]:
        files = [file] if file in self.files else list(self.files)
        out: dict[str, None] = {}
        for f in files:
            sheets = self.files[f]
            for name, cols in sheets.items():
                if sheet is None or name == sheet or len(sheets) == 1:
                    out.update(dict.fromkeys(cols))
        return list(out)

    def sheets(self) -> list[str]:
        return sorted({s for f in self.files.values() for s in f if s})


# ---- the JSON Schema ------------------------------------------------------------------------------------------

def _type_schema(p: dict[str, Any], col: dict[str, Any]) -> dict[str, Any]:
    t = p.get("type")
    doc = {"description": p["doc"]} if p.get("doc") else {}
    if t == "column":
        return {**col, **doc}
    if t == "columns":
        return {"type": "array", "items": col, **({"minItems": p["min"]} if p.get("min") else {}), **doc}
    if t in ("number", "integer"):
        return {"type": t, **doc}
    if t == "numbers":
        return {"type": "array", "items": {"type": "number"}, **doc}
    if t == "bool":
        return {"type": "boolean", **doc}
    if t == "text":
        return {"type": ["string", "number"], **doc}
    if t in ("texts", "sheets"):
        return {"type": "array", "items": {"type": "string"}, **({"minItems": p["min"]} if p.get("min") else {}), **doc}
    if t == "enum":
        return {"enum": list(p["values"]), **doc}
    if t == "enum_list":
        return {"type": "array", "items": {"type": "string"}, **doc}
    if t == "conditions":
        return {"type": "array", "items": {"$ref": "#/$defs/predicate"}, **doc}
    if t == "measures":
        return {"type": "array", "items": {"$ref": "#/$defs/measure"}, **doc}
    if t == "mapping":
        return {"type": "object", "additionalProperties": {"type": "string"}, **doc}
    raise ValueError(f"unknown parameter type {t!r}")


def _step_schema(kind: str, col: dict[str, Any]) -> dict[str, Any]:
    ps = op_params(kind)
    args = {"type": "object", "properties": {k: _type_schema(p, col) for k, p in ps.items()},
            "required": [k for k, p in ps.items() if p.get("required")], "additionalProperties": False}
    return {"type": "object", "description": op_doc(kind), "properties": {"op": {"const": kind}, "args": args},
            "required": ["op", "args"], "additionalProperties": False}


def schema(view: View) -> dict[str, Any]:
    """The JSON Schema of a model's answer, with the names of this workspace."""
    cols = view.columns()
    col: dict[str, Any] = {"type": "string", "description": "a column of the table the step reads (or one this query made)"}
    if len(cols) <= MAX_ENUM:
        col = {"anyOf": [{"enum": cols}, {"type": "string", "description": "a column this query made earlier (a formula's name, a measure such as 金额_合计)"}]}
    files = list(view.files) + ([view.previous] if view.previous else [])
    value: dict[str, Any] = {"anyOf": [
        {"type": ["string", "number", "boolean"]},
        {"type": "array", "items": {"type": ["string", "number"]}},
        {"type": "object", "properties": {"column": col}, "required": ["column"], "additionalProperties": False},
        {"type": "object", "properties": {"stat": {"enum": list(STATS)}, "column": col}, "required": ["stat", "column"], "additionalProperties": False},
    ]}
    defs: dict[str, Any] = {
        "predicate": {"type": "object", "properties": {
            "column": col, "op": {"enum": list(CMP_OPS)}, "value": value, "value2": value,
            "agg": {"enum": list(MEASURE_AGGS), "description": "having only: the measure of the summary this compares"}},
            "required": ["column", "op"], "additionalProperties": False},
        "condition": {"anyOf": [
            {"$ref": "#/$defs/predicate"},
            {"type": "object", "properties": {"and": {"type": "array", "items": {"$ref": "#/$defs/condition"}}}, "required": ["and"], "additionalProperties": False},
            {"type": "object", "properties": {"or": {"type": "array", "items": {"$ref": "#/$defs/condition"}}}, "required": ["or"], "additionalProperties": False},
            {"type": "object", "properties": {"not": {"$ref": "#/$defs/condition"}}, "required": ["not"], "additionalProperties": False},
        ]},
        "measure": {"type": "object", "properties": {"column": col, "agg": {"enum": list(MEASURE_AGGS)},
                                                     "where": {"type": "array", "items": {"$ref": "#/$defs/predicate"},
                                                               "description": "only the rows meeting these conditions (how many of them are Open: agg count)"},
                                                     "label": {"type": "string", "description": "with where: the name of that part of the rows (Open)"}},
                    "required": ["agg"], "additionalProperties": False},
        "source": {"type": "object", "properties": {
            "kind": {"enum": ["file", "result", "query"], "description": "file: a file of the workspace; result: the table the last request made; query: the result of an inner query (what was said first)"},
            "file": {"enum": files} if files else {"type": "string"},
            "sheet": {"enum": view.sheets()} if view.sheets() else {"type": "string"},
            "files": {"type": "array", "items": {"enum": files} if files else {"type": "string"}, "description": "every file read, for join / append / compare"},
            "steps": {"type": "array", "items": {"anyOf": [_step_schema(k, col) for k in SOURCE_OPS]}},
            "query": {"$ref": "#/$defs/query"}},
            "required": ["kind"], "additionalProperties": False},
    }
    q_props: dict[str, Any] = {"source": {"$ref": "#/$defs/source"}}
    for stage in STAGES:
        if stage in ("where", "having"):
            q_props[stage] = {"$ref": "#/$defs/condition"}
            continue
        kinds = step_kinds(stage)
        if kinds:
            q_props[stage] = {"type": "array", "items": {"anyOf": [_step_schema(k, col) for k in kinds]}}
    defs["query"] = {"type": "object", "properties": q_props, "required": ["source"], "additionalProperties": False}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "wenqing_answer",
        "type": "object",
        "properties": {
            "intent": {"enum": list(INTENTS)},
            "query": {"$ref": "#/$defs/query"},
            "unknown": {"type": "array", "items": {"type": "string"},
                        "description": "the user's words that name something not in the workspace (a file, a column), copied as written"},
            "unsupported": {"type": "string", "description": "intent unsupported: what was asked that no operation does"},
            "question": {"type": "boolean", "description": "the user asks a question (which one, how many, what is the total): the answer states the figures and rows in text, and no file is saved unless asked"},
            "plan_only": {"type": "boolean", "description": "the user wants to see the plan first, nothing run yet"},
            "overwrite": {"type": "boolean", "description": "the user asks to write the result back into the source file"},
        },
        "required": ["intent"],
        "additionalProperties": False,
        "$defs": defs,
    }


def _arg_text(n: str, p: dict[str, Any]) -> str:
    kind = p["type"] + (": " + "|".join(map(str, p["values"])) if p.get("values") else "")
    extra = [x for x in (("required" if p.get("required") else ""), (f"at least {p['min']}" if p.get("min") else ""),
                         (f"default {p['default']}" if "default" in p else "")) if x]
    return f"{n} ({', '.join([kind, *extra])}): {p.get('doc', '')}"


def operations_text() -> str:
    """Every operation with its stage and arguments, as the prompt lists them (generated from the registry)."""
    lines = []
    for stage in [*STAGES, "source.steps"]:
        for k in step_kinds(stage) if stage != "source.steps" else list(SOURCE_OPS):
            ps = op_params(k)
            args = "; ".join(_arg_text(n, p) for n, p in ps.items())
            either = f" Needs one of: {', '.join(one_of(k))}." if one_of(k) else ""
            lines.append(f"- {stage} / {k}: {op_doc(k)}" + (f" Args: {args}." if args else " No args.") + either)
    return "\n".join(lines)


# ---- reading an answer back -----------------------------------------------------------------------------------

@dataclass
class Unknown:
    what: str  # file | sheet | column
    name: str
    closest: tuple[str, ...] = ()


@dataclass
class Answer:
    intent: str
    query: Query | None = None
    errors: list[str] = field(default_factory=list)
    unknown: list[Unknown] = field(default_factory=list)
    unsupported: str = ""
    words: tuple[str, ...] = ()  # the user's words the model said name nothing in the workspace
    file: str | None = None  # the file the answer reads, when it named one of the workspace (kept when a column is unknown)
    plan_only: bool = False  # show the plan first
    overwrite: bool = False  # write back into the source file (confirmed like any overwrite)


def read_answer(obj: Any, view: View, lang: str = "zh") -> Answer:
    """A model's JSON answer as a checked query (see the module's docstring)."""
    if not isinstance(obj, dict):
        return Answer("unclear", errors=["the answer must be one JSON object"])
    intent = obj.get("intent")
    extra = sorted(set(obj) - {"intent", "query", "unknown", "unsupported", "plan_only", "overwrite", "question"})
    r = Answer(intent if intent in INTENTS else "unclear")
    if intent not in INTENTS:
        r.errors.append(f"intent must be one of {', '.join(INTENTS)}")
    if extra:
        r.errors.append(f"unknown key(s) at the top level: {', '.join(extra)}")
    r.words = tuple(str(w) for w in obj.get("unknown") or [] if isinstance(w, (str, int, float)))
    r.unsupported = str(obj.get("unsupported") or "")
    r.plan_only, r.overwrite = obj.get("plan_only") is True, obj.get("overwrite") is True
    if r.intent != "work":
        return r
    q = obj.get("query")
    if not isinstance(q, dict):
        r.errors.append("intent work needs a query")
        return r
    reader = _Reader(view, lang, r)
    reader.question = obj.get("question") is True
    r.query = reader.query(q, "query")
    if r.errors or r.unknown:  # never a query with a part left out
        r.query = None
    return r


QUESTION_KINDS = ("group", "top_n", "count")  # the operations whose answer is worded as the figures when asked as a question


class _Reader:
    def __init__(self, view: View, lang: str, out: Answer) -> None:
        self.view, self.lang, self.out = view, lang, out
        self.question = False

    def err(self, text: str) -> None:
        if text not in self.out.errors:
            self.out.errors.append(text)

    def unknown(self, what: str, name: str, pool: list[str]) -> None:
        from modes.resolve import closest_columns

        if not any(u.what == what and u.name == name for u in self.out.unknown):
            self.out.unknown.append(Unknown(what, name, tuple(closest_columns(name.casefold(), pool)) if pool else ()))

    # -- the query and its source
    def query(self, q: dict[str, Any], where: str) -> Query | None:
        bad = sorted(set(q) - {"source", *STAGES, "version"})
        if bad:
            self.err(f"{where}: unknown key(s) {', '.join(bad)}; a query has source, {', '.join(STAGES)}")
        src, cols = self.source(q.get("source"), where)
        if src is None:
            return None
        self.cols = cols
        parts: dict[str, Any] = {}
        for stage in STAGES:
            if stage in ("where", "having"):
                if q.get(stage) is not None:
                    parts[stage] = self.condition(q[stage], f"{where}.{stage}", having=stage == "having")
                continue
            raw = q.get(stage) or []
            if not isinstance(raw, list):
                self.err(f"{where}.{stage} must be a list of steps")
                continue
            steps = []
            for i, s in enumerate(raw, 1):
                st = self.step(s, f"{where}.{stage}[{i}]", stage)
                if st is not None:
                    steps.append(st)
                    self.after_step(st)
            parts[stage] = tuple(steps)
            if stage == "group" and steps:
                self.cols = self.group_columns(steps)
        return Query(src, **parts)

    def source(self, s: Any, where: str) -> tuple[Source | None, list[str]]:
        if not isinstance(s, dict):
            self.err(f"{where}.source must be an object with kind")
            return None, []
        kind = s.get("kind")
        if kind == "query":
            inner = s.get("query")
            if not isinstance(inner, dict):
                self.err(f"{where}.source: kind query needs the inner query")
                return None, []
            iq = self.query(inner, f"{where}.source.query")
            if iq is None:
                return None, []
            return Source("query", query=iq), list(self.cols)
        if kind == "result":
            if not self.view.previous:
                self.err(f"{where}.source: there is no earlier result to read; name a file")
                return None, []
            return Source("result", self.view.previous), self.view.columns()
        if kind != "file":
            self.err(f"{where}.source.kind must be file, result or query")
            return None, []
        file = s.get("file")
        if not isinstance(file, str) or not file:
            self.err(f"{where}.source: kind file needs a file")
            return None, []
        path = self.file(file)
        if path is None:
            return None, []
        self.out.file = self.out.file or path
        sheet = s.get("sheet")
        sheets = self.view.files[path]
        if sheet is not None and (not isinstance(sheet, str) or sheet not in sheets):
            self.unknown("sheet", str(sheet), [x for x in sheets if x])
            return None, []
        files = [path]
        for f in s.get("files") or []:
            p = self.file(str(f))
            if p is not None and p not in files:
                files.append(p)
        cols = self.view.columns(path, sheet if isinstance(sheet, str) else (next(iter(sheets)) if sheets else None))
        for f in files[1:]:
            cols += [c for c in self.view.columns(f) if c not in cols]
        self.cols = cols
        steps = []
        for i, st in enumerate(s.get("steps") or [], 1):
            step = self.step(st, f"{where}.source.steps[{i}]", "source")
            if step is not None:
                steps.append(step)
                if step.kind == "stack":
                    cols = ["工作表" if self.lang == "zh" else "sheet", *cols]
        return Source("file", path, sheet if isinstance(sheet, str) and len(sheets) > 1 else None,
                      tuple(files) if len(files) > 1 else (), None, tuple(steps)), cols

    def file(self, name: str) -> str | None:
        if name in self.view.files or name == self.view.previous:
            return name
        by_name = [p for p in self.view.files if Path(p).name == name or Path(p).stem == name]
        if len(by_name) == 1:
            return by_name[0]
        self.unknown("file", name, list(self.view.files))
        return None

    # -- columns as the stages change them
    def column(self, name: Any, where: str) -> str | None:
        if not isinstance(name, str) or not name:
            self.err(f"{where}: a column name (text) is needed")
            return None
        if name in self.cols:
            return name
        self.unknown("column", name, self.cols)
        return None

    def after_step(self, st: Step) -> None:
        made = st.args.get("name") if st.kind in ("add_column", "formula") else None
        if isinstance(made, str) and made not in self.cols:
            self.cols.append(made)
        if st.kind == "rename":
            self.cols = [st.args.get("mapping", {}).get(c, c) for c in self.cols]
        if st.kind == "rank":
            self.cols.append("排名" if self.lang == "zh" else "rank")
        if st.kind == "running_total" and isinstance(st.args.get("column"), str):
            self.cols.append(f"{st.args['column']}_累计" if self.lang == "zh" else f"{st.args['column']}_running_total")

    def group_columns(self, steps: list[Step]) -> list[str]:
        from tools.ops import ROWS, measure_name

        out: list[str] = []
        for st in steps:
            out += list(st.args.get("keys") or [])
            for m in st.args.get("measures") or [{"agg": "count"}]:
                out.append(measure_name(m["column"], m["agg"], self.lang) if m.get("column") else ROWS.get(self.lang, ROWS["zh"]))
                if m.get("column"):
                    out.append(m["column"])  # 再按金额降序 after a sum of 金额: the measure, by its column's name
        return list(dict.fromkeys(out))

    # -- conditions
    def condition(self, c: Any, where: str, having: bool = False) -> Any:
        if isinstance(c, dict) and len(c) == 1 and next(iter(c)) in ("and", "or"):
            logic = next(iter(c))
            items = c[logic]
            if not isinstance(items, list) or not items:
                self.err(f"{where}.{logic} must be a non-empty list of conditions")
                return None
            parts = [self.condition(i, f"{where}.{logic}[{n}]", having) for n, i in enumerate(items, 1)]
            parts = [p for p in parts if p is not None]
            return parts[0] if len(parts) == 1 else Junction(logic, tuple(parts)) if parts else None
        if isinstance(c, dict) and set(c) == {"not"}:
            inner = self.condition(c["not"], f"{where}.not", having)
            return Not(inner) if inner is not None else None
        return self.predicate(c, where, having)

    def predicate(self, c: Any, where: str, having: bool = False) -> Pred | None:
        if not isinstance(c, dict):
            self.err(f"{where}: a condition is an object: {{column, op, value}}, or {{and|or: [...]}}, or {{not: …}}")
            return None
        bad = sorted(set(c) - {"column", "op", "value", "value2", "agg"})
        if bad:
            self.err(f"{where}: a condition has no key(s) {', '.join(bad)}")
        op = c.get("op")
        if op not in CMP_OPS:
            self.err(f"{where}: op must be one of {', '.join(CMP_OPS)}")
            return None
        name = c.get("column")
        if having and c.get("agg") and isinstance(name, str):
            from tools.ops import ROWS, measure_name

            if c["agg"] not in MEASURE_AGGS:
                self.err(f"{where}: agg must be one of {', '.join(MEASURE_AGGS)}")
                return None
            name = ROWS.get(self.lang, ROWS["zh"]) if c["agg"] == "count" and name not in self.cols else measure_name(name, c["agg"], self.lang)
        col = self.column(name, where)
        if col is None:
            return None
        value, value2 = c.get("value"), c.get("value2")
        if op not in NO_VALUE and value is None:
            self.err(f"{where}: op {op} needs a value")
            return None
        if op in ("between", "not_between") and value2 is None:
            self.err(f"{where}: op {op} needs value2")
            return None
        value, value2 = self.value(value, where), self.value(value2, where)
        if op in ("in", "not_in", "weekday_in", "weekday_not_in") and not isinstance(value, list):
            value = [value]
        if op in ("weekday_in", "weekday_not_in") and not all(isinstance(x, int) and 0 <= x <= 6 for x in value):
            self.err(f"{where}: op {op} takes days of the week, 0 (Monday) to 6 (Sunday)")
            return None
        if col in self.view.dates and isinstance(value, str) and _iso_day(value):
            value = {"date": value}
        if col in self.view.dates and isinstance(value2, str) and _iso_day(value2):
            value2 = {"date": value2}
        return Pred(col, op, None if op in NO_VALUE else value, value2 if op in ("between", "not_between") else None, raw=col)

    def value(self, v: Any, where: str) -> Any:
        if isinstance(v, dict):
            bad = sorted(set(v) - {"column", "stat"})
            if bad or "column" not in v or ("stat" in v and v["stat"] not in STATS):
                self.err(f"{where}: a value object is {{column}} (another column) or {{stat: mean|median|min|max, column}}")
                return None
            col = self.column(v["column"], where)
            return None if col is None else ({"stat": v["stat"], "column": col} if "stat" in v else {"column": col})
        return v

    # -- steps and their arguments
    def step(self, s: Any, where: str, stage: str) -> Step | None:
        if not isinstance(s, dict) or not isinstance(s.get("op"), str):
            self.err(f"{where}: a step is {{op, args}}")
            return None
        kind = s["op"]
        spec = opspec.get(kind)
        if spec is None or kind not in described():
            self.err(f"{where}: unknown operation {kind}")
            return None
        home = "source" if kind in SOURCE_OPS else stage_of(kind)
        if home != stage:
            place = {"where": "the where condition", "having": "the having condition", "intent": f"intent {kind}"}.get(home, f"the {home} stage")
            self.err(f"{where}: {kind} belongs in {place}, not in {stage}")
            return None
        bad = sorted(set(s) - {"op", "args"})
        if bad:
            self.err(f"{where}: put {', '.join(bad)} inside args")
        raw = s.get("args") or {}
        if not isinstance(raw, dict):
            self.err(f"{where}.args must be an object")
            return None
        ps = op_params(kind)
        extra = sorted(set(raw) - set(ps))
        if extra:
            self.err(f"{where}: {kind} has no argument(s) {', '.join(extra)}; it takes {', '.join(ps) or 'none'}")
        need = [k for k, p in ps.items() if p.get("required") and raw.get(k) in (None, "", [])]
        if need:
            self.err(f"{where}: {kind} needs {', '.join(need)}")
            return None
        either = one_of(kind)
        if either and all(raw.get(k) in (None, "", [], False) for k in either):
            self.err(f"{where}: {kind} needs one of {', '.join(either)}")
            return None
        short = [k for k, p in ps.items() if p.get("min") and isinstance(raw.get(k), list) and len(raw[k]) < p["min"]]
        if short:
            self.err(f"{where}: {kind} needs at least {ps[short[0]]['min']} in {short[0]}")
            return None
        args: dict[str, Any] = {}
        for k, p in ps.items():
            if k in raw and raw[k] is not None:
                v = self.arg(raw[k], p, f"{where}.args.{k}")
                if v is not _BAD:
                    args[k] = v
        if kind == "formula" and isinstance(args.get("expression"), str):  # [列名] inside the formula: columns too
            import re

            for name in re.findall(r"\[([^\[\]]+)\]", args["expression"]):
                if self.column(name, f"{where}.args.expression") is None:
                    return None
        if args.get("wide") is True:  # a step over period columns needs a table whose columns are periods
            from tools.series import detect_series

            if detect_series(list(self.cols)) is None:
                self.err(f"{where}: wide is only for a table whose columns are periods (2019年, 2020年 …); this one has none")
                return None
        if self.question and kind in QUESTION_KINDS:
            args["question"] = True
        return Step(kind, _defaults(kind, args))

    def arg(self, v: Any, p: dict[str, Any], where: str) -> Any:
        t = p["type"]
        also = p.get("also") or ()
        if t == "column":
            return v if v in also else self.column(v, where) or _BAD
        if t == "columns":
            vs = v if isinstance(v, list) else [v]
            got = [x if x in also else self.column(x, where) for x in vs]
            return [g for g in got if g] if all(got) else _BAD
        if t == "integer":
            if isinstance(v, bool) or not isinstance(v, (int, float)) or int(v) != v:
                self.err(f"{where}: a whole number is needed")
                return _BAD
            return int(v)
        if t == "number":
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                self.err(f"{where}: a number is needed")
                return _BAD
            return v
        if t == "numbers":
            if not isinstance(v, list) or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v):
                self.err(f"{where}: a list of numbers is needed")
                return _BAD
            return [int(x) if float(x).is_integer() else x for x in v]
        if t == "bool":
            if not isinstance(v, bool):
                self.err(f"{where}: true or false is needed")
                return _BAD
            return v
        if t == "text":
            if isinstance(v, dict) and set(v) == {"column"}:  # add_column's right operand: another column
                c = self.column(v["column"], where)
                return {"column": c} if c else _BAD
            if not isinstance(v, (str, int, float)) or isinstance(v, bool):
                self.err(f"{where}: text is needed")
                return _BAD
            return v
        if t in ("texts", "sheets"):
            vs = v if isinstance(v, list) else [v]
            if not all(isinstance(x, (str, int, float)) and not isinstance(x, bool) for x in vs):
                self.err(f"{where}: a list of texts is needed")
                return _BAD
            return [str(x) for x in vs]
        if t == "enum":
            if v not in p["values"]:
                self.err(f"{where}: one of {', '.join(map(str, p['values']))}")
                return _BAD
            return v
        if t == "enum_list":
            vs = v if isinstance(v, list) else [v]
            ok = [x for x in vs if isinstance(x, str) and (x in p["values"] or _percentile(x))]
            if len(ok) != len(vs):
                self.err(f"{where}: each one of {', '.join(map(str, p['values']))} (or p90 / p95 …)")
                return _BAD
            return ok
        if t == "conditions":
            vs = v if isinstance(v, list) else [v]
            preds = [self.predicate(x, f"{where}[{i}]") for i, x in enumerate(vs, 1)]
            return [x for x in preds if x is not None] if all(preds) else _BAD
        if t == "measures":
            vs = v if isinstance(v, list) else [v]
            out = []
            for i, m in enumerate(vs, 1):
                if not isinstance(m, dict) or m.get("agg") not in MEASURE_AGGS or set(m) - {"column", "agg", "where", "label"}:
                    self.err(f"{where}[{i}]: a measure is {{column, agg}} (with where: [conditions] for part of the rows) with agg one of "
                             f"{', '.join(MEASURE_AGGS)}")
                    return _BAD
                part: dict[str, Any] = {}
                if m.get("where"):
                    conds = m["where"] if isinstance(m["where"], list) else [m["where"]]
                    preds = [self.predicate(x, f"{where}[{i}].where") for x in conds]
                    if not all(preds):
                        return _BAD
                    part = {"where": preds, **({"label": str(m["label"])} if m.get("label") else {})}
                if m.get("column") is None:
                    if m["agg"] != "count":
                        self.err(f"{where}[{i}]: agg {m['agg']} needs a column")
                        return _BAD
                    out.append({"agg": "count", **part})
                    continue
                c = self.column(m["column"], f"{where}[{i}]")
                if c is None:
                    return _BAD
                out.append({"column": c, "agg": m["agg"], **part})
            return out
        if t == "mapping":
            if not isinstance(v, dict) or not all(isinstance(x, str) and x for x in v.values()):
                self.err(f"{where}: an object from old column name to new name")
                return _BAD
            renamed = {self.column(k, where): x for k, x in v.items()}
            return _BAD if None in renamed else renamed
        raise ValueError(t)


_BAD = object()


def _defaults(kind: str, args: dict[str, Any]) -> dict[str, Any]:
    """What the rules would have filled by default where the model left it out (the operation's own defaults)."""
    for k, p in op_params(kind).items():
        if k not in args and "default" in p:
            args[k] = p["default"]
    if kind in ("sort", "top_n") and "ascending" not in args:
        args["ascending"] = kind == "sort"
    return args


def _iso_day(s: str) -> bool:
    from datetime import date

    try:
        date.fromisoformat(s[:10])
        return True
    except ValueError:
        return False


def _percentile(s: str) -> bool:
    return len(s) >= 2 and s[0] == "p" and s[1:].isdigit() and 0 < int(s[1:]) < 100


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
