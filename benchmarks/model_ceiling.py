"""How far does wenqing get when the model reads every request right — and what does it do when the model is wrong?

Two sets: the tablegpt development half of `external_e2e.py` (real requests, each carried out end to end and judged
against pandas), and the development decision set (each decision compared with its label). The model is a cassette
(`engine.cassette`) written from an answer file: one JSON answer of the query schema per item (`--answers`).

    python benchmarks/model_ceiling.py items --set tablegpt > items.jsonl     # what an answer writer needs to see
    python benchmarks/model_ceiling.py prompts --set tablegpt --ids … > p.jsonl  # the exact messages of each call
    python benchmarks/model_ceiling.py check ANSWERS --set tablegpt            # answers read back through the schema
    python benchmarks/model_ceiling.py run --set both [--answers FILE] [--noisy] [--json OUT]

run reports, per set:
  - carried out correctly (tablegpt) / decisions equal to the label on every field (dev);
  - results that differ from their restatement: the query said at the request's turn is not the query that ran,
    or the steps that ran are not the steps planned (must be 0);
  - with --noisy, 20 % of the answers are corrupted (another existing column, another operation, an invented file or
    column, a dropped condition; seeded): every invented name must be asked about, never run.

The oracle answers (`benchmarks/model_ceiling/oracle_*.jsonl`) were written by hand from each item's request and
tables; the capable-model answers (`capable_*.jsonl`) by a language model that saw only the prompt of each call.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

EVAL = ROOT.parent / "shared" / "eval"
TABLEGPT = EVAL / "external_dev" / "tablegpt"
HERE = ROOT / "benchmarks" / "model_ceiling"
FIELDS = ("gate", "next", "mode", "tier", "file")
NOISE = 0.2
SEED = 7


# ---- the items ----------------------------------------------------------------------------------------------------

def tablegpt_items() -> list[dict[str, Any]]:
    import external_e2e as e2e

    if not (TABLEGPT / "labels.jsonl").is_file():
        return []
    labels = [json.loads(x) for x in (TABLEGPT / "labels.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    return [{**x, "set": "tablegpt", "ws": str(TABLEGPT / x["ws"])} for x in e2e.select(labels, None, None)]


def dev_items() -> list[dict[str, Any]]:
    p = EVAL / "decisions_dev.jsonl"
    if not p.is_file():
        return []
    return [{**json.loads(x), "set": "dev", "ws": str(EVAL / "workspace")} for x in p.read_text(encoding="utf-8").splitlines() if x.strip()]


def items_of(which: str) -> list[dict[str, Any]]:
    return (tablegpt_items() if which in ("tablegpt", "both") else []) + (dev_items() if which in ("dev", "both") else [])


def _catalog(ws: str) -> Any:
    from engine.catalog import CatalogCache
    from tools.workspace import Workspace

    return CatalogCache().build(Workspace.at(Path(ws)))


def describe_item(it: dict[str, Any]) -> dict[str, Any]:
    """What a person writing the right answer needs: the words, the tables, and what counts as right."""
    from engine.model import workspace_summary

    out = {"id": it["id"], "set": it["set"], "history": it.get("history", []), "utterance": it["utterance"],
           "workspace": workspace_summary(_catalog(it["ws"]), True)}
    if it["set"] == "tablegpt":
        import external_e2e as e2e

        kind, fn = e2e.ITEMS[it["id"]]
        out["expected"] = [kind] + [e2e.describe(e) for e in fn(e2e.load_table(Path(it["ws"])))]
    else:
        out["expected"] = {"label": it.get("expect"), "note": it.get("note", "")}
    return out


# ---- answers → cassettes ----------------------------------------------------------------------------------------

def load_answers(path: Path) -> dict[str, list[dict[str, Any]]]:
    """id -> entries {request, answer}; `request` defaults to the item's utterance (a history turn may have its own)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        e = json.loads(line)
        if "id" not in e or "answer" not in e:
            raise SystemExit(f"{path.name}, line {n}: an entry is {{id, answer}} (and optionally request)")
        out.setdefault(e["id"], []).append(e)
    return out


RECORDED: list[dict[str, Any]] = []  # --cassette: recorded calls, matched by their keys


def cassette_for(it: dict[str, Any], entries: list[dict[str, Any]], out: Path) -> Path:
    lines = [e for e in RECORDED if e.get("id") in (None, it["id"])]
    for e in entries:
        ans = e["answer"]
        content = ans if isinstance(ans, str) else json.dumps(ans, ensure_ascii=False)
        lines.append({"match": {"purpose": "query", "request": e.get("request") or it["utterance"]}, "answer": {"content": content}})
    pass_review = json.dumps({"status": "PASS", "missing_requirements": [], "unsupported_claims": [], "next_action": ""})
    lines.append({"match": {"purpose": "review", "request": "*"}, "answer": {"content": pass_review}})
    out.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n", encoding="utf-8")
    return out


# ---- noise ----------------------------------------------------------------------------------------------------------

INVENTED_COLUMN = "季度奖金系数"
INVENTED_FILE = "去年备份_final.xlsx"


def _columns_in(q: Any) -> list[str]:
    found: list[str] = []

    def walk(x: Any, key: str = "") -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("column", "by", "keys", "columns", "x", "y", "value", "rows", "subset") and isinstance(v, str) and key != "source":
                    found.append(v)
                elif k in ("keys", "columns", "by", "y", "subset") and isinstance(v, list):
                    found.extend(c for c in v if isinstance(c, str))
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)

    walk(q)
    return found


KINDS = ("other_column", "other_operation", "invented_column", "dropped_condition", "invented_file")


def corrupt(answer: dict[str, Any], columns: list[str], rng: random.Random, turn: int = 0) -> tuple[dict[str, Any], str]:
    """One corruption of a work answer: (answer, how)."""
    a = copy.deepcopy(answer)
    q = a.get("query") or {}
    text = json.dumps(q, ensure_ascii=False)
    used = [c for c in _columns_in(q) if c in columns]
    kinds = ["invented_column", "invented_file"]
    if used and len(columns) > 1:
        kinds.append("other_column")
    if "where" in q:
        kinds.append("dropped_condition")
    if '"agg": "' in text or '"ascending"' in text:
        kinds.append("other_operation")
    order = KINDS[turn % len(KINDS):] + KINDS[:turn % len(KINDS)]  # each kind in turn, where it applies
    how = next(k for k in order if k in kinds)
    if how in ("invented_column", "other_column"):
        old = rng.choice(used) if used else None
        new = INVENTED_COLUMN if how == "invented_column" else rng.choice([c for c in columns if c != old])
        if old is None:  # nothing names a column: an invented condition
            q["where"] = {"column": INVENTED_COLUMN, "op": "gt", "value": 0} if "where" not in q else {"and": [q["where"], {"column": INVENTED_COLUMN, "op": "gt", "value": 0}]}
        else:
            q = json.loads(text.replace(json.dumps(old, ensure_ascii=False), json.dumps(new, ensure_ascii=False)))
    elif how == "invented_file":
        src = q.get("source") or {}
        while src.get("kind") == "query":
            src = src.get("query", {}).get("source") or {}
        src["file"] = INVENTED_FILE
        src.pop("sheet", None)
    elif how == "dropped_condition":
        w = q["where"]
        if isinstance(w, dict) and any(k in w for k in ("and", "or")):
            k = "and" if "and" in w else "or"
            w[k] = w[k][1:]
            if len(w[k]) == 1:
                q["where"] = w[k][0]
        else:
            del q["where"]
    else:
        swap = {'"agg": "sum"': '"agg": "mean"', '"agg": "mean"': '"agg": "sum"', '"agg": "count"': '"agg": "sum"',
                '"ascending": true': '"ascending": false', '"ascending": false': '"ascending": true'}
        for old, new in swap.items():
            if old in text:
                text = text.replace(old, new, 1)
                break
        q = json.loads(text)
    a["query"] = q
    return a, how


def noisy(answers: dict[str, list[dict[str, Any]]], items: list[dict[str, Any]]) -> tuple[dict[str, list[dict[str, Any]]], dict[str, str]]:
    """A fifth of the work answers the model is asked for (chosen with a fixed seed), each corrupted one way."""
    rng = random.Random(SEED)
    by_id = {it["id"]: it for it in items}

    def main_of(i: str) -> dict[str, Any] | None:
        it = by_id.get(i)
        return next((e for e in answers[i] if it and (not e.get("request") or e["request"] == it["utterance"])), None)

    # the answers the model is asked for: the requests the rules do not read alone
    eligible = sorted(i for i in answers if (m := main_of(i)) is not None and isinstance(m["answer"], dict)
                      and m["answer"].get("intent") == "work" and consulted(by_id[i]))
    chosen = set(rng.sample(eligible, round(NOISE * len(eligible)))) if eligible else set()
    out: dict[str, list[dict[str, Any]]] = {}
    how: dict[str, str] = {}
    for i, entries in sorted(answers.items()):
        if i not in chosen:
            out[i] = entries
            continue
        main = main_of(i)
        cat = _catalog(by_id[i]["ws"])
        cols = list(dict.fromkeys(c for f in cat.tables for s in f.sheets for c in s.columns))
        bad, h = corrupt(main["answer"], cols, rng, len(how))
        out[i] = [e if e is not main else {**e, "answer": bad} for e in entries]
        how[i] = h
    return out, how


# ---- running --------------------------------------------------------------------------------------------------------

def run_tablegpt(items: list[dict[str, Any]], answers: dict[str, list[dict[str, Any]]], tmp: Path, jobs: int) -> list[dict[str, Any]]:
    from concurrent.futures import ThreadPoolExecutor  # each item runs in its own wenqing process already

    wenqing = str(ROOT / ".venv" / "bin" / "wenqing")
    tasks = []
    for it in items:
        tape = cassette_for(it, answers.get(it["id"], []), tmp / f"{it['id']}.jsonl")
        tasks.append((wenqing, it, str(tape)))
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        return list(ex.map(_one_tablegpt, tasks))


def _one_tablegpt(task: tuple[str, dict[str, Any], str]) -> dict[str, Any]:
    import external_e2e as e2e

    wenqing, it, tape = task
    env = {k: v for k, v in os.environ.items() if k not in ("WENQING_MODEL_CASSETTE_MODE", "OPENAI_API_KEY", "WENQING_MODEL", "OPENAI_BASE_URL")}
    env["WENQING_MODEL_CASSETTE"] = tape
    label = {k: v for k, v in it.items() if k not in ("set",)}
    label["ws"] = Path(it["ws"]).name
    return e2e.run_item(wenqing, label, TABLEGPT, env=env)


def run_dev(items: list[dict[str, Any]], answers: dict[str, list[dict[str, Any]]], tmp: Path) -> list[dict[str, Any]]:
    from engine.assist import Assistant
    from engine.cassette import _SERVERS
    from engine.config import ModelConfig
    from engine.intake import decide_checked
    from engine.plan import decision_json, plan_for
    from modes.decision import SessionState

    cat = _catalog(items[0]["ws"]) if items else None
    out = []
    for it in items:
        tape = cassette_for(it, answers.get(it["id"], []), tmp / f"{it['id']}.jsonl")
        helper = Assistant.create(ModelConfig(cassette=str(tape)), sleep=lambda s: None)
        state = SessionState()
        d = None
        for u in [*it.get("history", []), it["utterance"]]:
            before = state
            d, state = decide_checked(state, u, cat)
            d, state = helper.improve(before, u, d, state, cat, helper.budget())
        plan = plan_for(d, cat)
        got = decision_json(d, plan, it["id"])
        slots = got.get("slots") or {}
        have = {"gate": d.gate, "next": d.next, "mode": d.mode, "tier": d.tier, "file": slots.get("file")}
        want = it.get("expect") or {}
        wrong = [f for f in FIELDS if f in want and have[f] not in (want[f] if isinstance(want[f], list) else [want[f]])]
        out.append({"id": it["id"], "outcome": "correct" if not wrong else "wrong", "wrong": wrong, "have": have, "want": want,
                    "rule": d.rule, "reply": d.reply, "said": {"query_said": got.get("query"), "next": d.next, "gate": d.gate, "reply": d.reply}})
        for srv in list(_SERVERS.values()):
            srv.stop()
        _SERVERS.clear()
    return out


def differs(r: dict[str, Any]) -> bool:
    """A result that differs from its restatement: another query ran, or other steps than planned."""
    s = r.get("said") or {}
    if not s.get("ran"):
        return False
    if s.get("next") == "restate_confirm" and s.get("query_said") != s.get("query_ran"):
        return True
    return bool(s.get("planned")) and [t for t in s["steps"]] != [t for t in s["planned"]][: len(s["steps"])]


def consulted(it: dict[str, Any]) -> bool:
    """Whether the model is asked at the item's request (the rules' own decision there is not a confident act)."""
    from engine.assist import consult
    from engine.intake import decide_checked
    from modes.decision import SessionState

    cat = _catalog(it["ws"])
    state = SessionState()
    d = None
    for u in [*it.get("history", []), it["utterance"]]:
        d, state = decide_checked(state, u, cat)
    return d is not None and consult(d)


def asked_about(r: dict[str, Any], how: str) -> bool:
    s = r.get("said") or {}
    name = INVENTED_COLUMN if how == "invented_column" else INVENTED_FILE
    return s.get("gate") == "clarify" and name in (s.get("reply") or "") and not s.get("ran")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("items", "prompts", "check", "run"):
        p = sub.add_parser(name)
        p.add_argument("--set", default="both", choices=("tablegpt", "dev", "both"))
        p.add_argument("--ids", help="comma-separated item ids")
        if name == "check":
            p.add_argument("answers", type=Path)
        if name == "run":
            p.add_argument("--answers", type=Path, action="append",
                           help="answer files (default: benchmarks/model_ceiling/oracle_*.jsonl)")
            p.add_argument("--noisy", action="store_true")
            p.add_argument("--cassette", type=Path, help="recorded answers (matched by key), e.g. benchmarks/model_ceiling/capable_tablegpt.jsonl")
            p.add_argument("--jobs", type=int, default=2)
            p.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    items = items_of(a.set)
    if a.ids:
        want = {x.strip() for x in a.ids.split(",")}
        items = [it for it in items if it["id"] in want]
    if not items:
        print("no items (the sets live in ../shared/eval)")
        return 0
    if a.cmd == "items":
        for it in items:
            print(json.dumps(describe_item(it), ensure_ascii=False))
        return 0
    if a.cmd == "prompts":
        for it in items:
            print(json.dumps({"id": it["id"], "calls": prompts_of(it)}, ensure_ascii=False))
        return 0
    if a.cmd == "check":
        return check(a.answers, items)
    if a.cassette:
        RECORDED[:] = [json.loads(x) for x in a.cassette.read_text(encoding="utf-8").splitlines() if x.strip()]
        ids = {e.get("id") for e in RECORDED}
        items = [it for it in items if it["id"] in ids]
    files = a.answers or ([] if a.cassette else sorted(HERE.glob("oracle_*.jsonl")))
    answers: dict[str, list[dict[str, Any]]] = {}
    for f in files:
        for k, v in load_answers(f).items():
            answers.setdefault(k, []).extend(v)
    how: dict[str, str] = {}
    if a.noisy:
        answers, how = noisy(answers, items)
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="wq-ceiling-") as tmp:
        tg = [it for it in items if it["set"] == "tablegpt"]
        dv = [it for it in items if it["set"] == "dev"]
        if tg:
            results += [{**r, "set": "tablegpt"} for r in run_tablegpt(tg, answers, Path(tmp), a.jobs)]
        if dv:
            results += [{**r, "set": "dev"} for r in run_dev(dv, answers, Path(tmp))]
    by_id = {it["id"]: it for it in items}
    for r in results:
        r["noise"] = how.get(r["id"])
        if r["noise"]:
            r["consulted"] = consulted(by_id[r["id"]])
    print(report(results, answered=set(answers), noisy=a.noisy))
    if a.json:
        a.json.write_text(json.dumps(results, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    return 0


def report(results: list[dict[str, Any]], answered: set[str], noisy: bool) -> str:
    lines = []
    for name in ("tablegpt", "dev"):
        rs = [r for r in results if r["set"] == name]
        if not rs:
            continue
        c = Counter(r["outcome"] for r in rs)
        n = len(rs) - c["skipped"]
        lines.append(f"{name}: {c['correct']}/{n} correct ({c['correct'] / max(n, 1):.1%}); " + ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if k != "correct")
                     + f"; answers given for {sum(1 for r in rs if r['id'] in answered)}")
        off = [r["id"] for r in rs if differs(r)]
        lines.append(f"  results that differ from their restatement: {len(off)}" + (f" ({', '.join(off)})" if off else ""))
        if noisy:
            hit = [r for r in rs if r.get("noise")]
            unread = [r for r in hit if not r.get("consulted")]
            hit = [r for r in hit if r.get("consulted")]
            inv = [r for r in hit if r["noise"] in ("invented_column", "invented_file")]
            asked = [r for r in inv if asked_about(r, r["noise"])]
            lines.append(f"  corrupted answers read: {len(hit)} ({', '.join(f'{k} {v}' for k, v in sorted(Counter(r['noise'] for r in hit).items()))}); "
                         f"{len(unread)} more never asked for (the rules read those requests alone); "
                         f"invented names asked {len(asked)}/{len(inv)}"
                         + (f" — not asked: {', '.join(r['id'] for r in inv if r not in asked)}" if len(asked) < len(inv) else ""))
            ran_wrong = [r["id"] for r in hit if r["noise"] not in ("invented_column", "invented_file") and r["outcome"] == "wrong"]
            lines.append(f"  corrupted but valid answers that ran as restated and came out wrong: {len(ran_wrong)}")
        bad = [r for r in rs if r["outcome"] not in ("correct", "skipped")]
        for r in bad:
            lines.append(f"    {r['id']:<8} {r['outcome']:<8} {str(r.get('reason') or r.get('wrong'))[:150]}" + (f"  [noise: {r['noise']}]" if r.get("noise") else ""))
    return "\n".join(lines)


def check(path: Path, items: list[dict[str, Any]]) -> int:
    from modes.schema import View, read_answer

    answers = load_answers(path)
    bad = 0
    for it in items:
        for e in answers.get(it["id"], []):
            view = View.of(_catalog(it["ws"]))
            lang = "en" if it["utterance"].isascii() else "zh"
            r = read_answer(e["answer"], view, lang)
            if r.errors or r.unknown:
                bad += 1
                print(it["id"], r.errors, [(u.what, u.name) for u in r.unknown])
    missing = [it["id"] for it in items if it["id"] not in answers]
    print(f"{sum(len(v) for v in answers.values())} answers; {bad} do not read back; no answer for {len(missing)} items" + (f": {', '.join(missing)}" if missing else ""))
    return 1 if bad else 0


def prompts_of(it: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages of every query call the item's conversation makes (its workspace copied; the model answers
    nothing, so each turn goes on as the rules decide)."""
    from engine.cassette import _SERVERS, replay_server
    from engine.config import ModelConfig
    from engine.session import Session
    from tools.workspace import Workspace

    calls: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="wq-prompts-") as tmp:
        ws = Path(tmp) / "ws"
        shutil.copytree(it["ws"], ws)
        tape = Path(tmp) / "empty.jsonl"
        tape.write_text("", encoding="utf-8")
        srv = replay_server(tape)
        seen: list[dict[str, Any]] = []
        find = srv.cassette.find

        def spy(purpose: str, messages: list[dict[str, Any]]) -> Any:
            if purpose == "query":
                seen.append({"messages": messages})
            return find(purpose, messages)

        srv.cassette.find = spy  # type: ignore[method-assign]
        s = Session(Workspace.at(ws), model=ModelConfig(cassette=str(tape)), model_sleep=lambda x: None)
        for u in [*it.get("history", []), it["utterance"]]:
            n = len(seen)
            s.turn(u)
            for c in seen[n:n + 1]:  # the first attempt of each turn (a retry repeats it)
                calls.append({"request": u, "messages": c["messages"]})
        srv.stop()
        _SERVERS.clear()
    return calls


if __name__ == "__main__":
    raise SystemExit(main())
