"""Every choice a question offers, typed back alone, is taken: the questions wenqing asks over a set of requests, and
what happens when each offered file, sheet or column is the whole answer.

usage: python benchmarks/answer_back.py --workspace DIR --batch ITEMS [--per-question 3] [--out CASES.jsonl]
ITEMS: a decision set (.jsonl with "utterance" and optional "history") or a text file of one request per line.
Each request runs in a fresh dry-run session (nothing is written); for each question with a list of choices, up to
--per-question of them are typed back, each in its own session. An answer is
  taken      the request went on (restated, planned or run, or a different question asked next)
  rejected   the reply says the choice could not be matched or cannot be used
  same       the question the choice was offered for is asked again
The workspace is copied first, so the sessions never touch it.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.session import Session  # noqa: E402
from tools.workspace import Workspace  # noqa: E402

# the words that introduce a list of choices in wenqing's questions (zh and en)
LIST_MARK = re.compile(r"(最接近的是：|最接近的文件：|现有列：|工作区里有：|可选：|有多个文件符合：|请从这些文件里选：|的日期列有：|可以直接回复其中一个：|"
                       r"closest: |Columns: |Options: |Reply with one of: |Pick one of: |Several files fit: |The workspace has: |"
                       r"date columns of \S+ are: )")
REJECTED = re.compile(r"没有我能对上|这里用不上|还是没能|could not match|cannot be used here|still could not", re.I)
ASKING = ("ask_slots", "ask_intent")


def choices(reply: str) -> list[str]:
    """The choices a question lists, in order."""
    out: list[str] = []
    for m in LIST_MARK.finditer(reply):
        rest = reply[m.end():]
        if not m.group(1).isascii():
            items = re.split(r"[。？，\n（）]", rest)[0].split("、")
        else:
            items = re.split(r"\?|\n|\. (?=[A-Z(])|\.$", rest)[0].split(", ")
        for it in items:
            it = it.strip().strip("“”'\"")
            it = it[:-1] if it.endswith(".") else it
            if it and len(it) <= 40:
                out.append(it)
    return list(dict.fromkeys(out))


def asked_for(reply: str, choice: str) -> str:
    """The words of the question a choice was offered under: the clause before its list, with the list's marker."""
    for m in LIST_MARK.finditer(reply):
        if choice in choices(reply[m.start():]):
            before = re.split(r"[。？?]|\. ", reply[: m.start()])[-1].strip()
            said = f"{before} {m.group(1)}".strip()
            return said if len(said) >= 6 else ""
    return ""


def _session(ws: Path, history: Iterable[str]) -> Session:
    s = Session(Workspace.at(ws), dry_run=True)
    for h in history:
        s.turn(h)
    return s


def classify(question: str, choice: str, reply: str, next_step: str) -> str:
    if next_step not in ASKING:
        return "taken"
    if REJECTED.search(reply):
        return "rejected"
    head = asked_for(question, choice)
    if reply.strip() == question.strip() or (head and head in reply):
        return "same"
    return "taken"


def run(ws: Path, items: list[dict[str, Any]], per_question: int = 3) -> tuple[dict[str, int], list[dict[str, Any]]]:
    counts = {"requests": 0, "questions": 0, "with_choices": 0, "typed_back": 0, "taken": 0, "rejected": 0, "same": 0}
    cases: list[dict[str, Any]] = []
    for it in items:
        counts["requests"] += 1
        history = it.get("history", [])
        first = _session(ws, history).turn(it["utterance"]).decision
        if first.next not in ASKING:
            continue
        counts["questions"] += 1
        offered = choices(first.reply)
        counts["with_choices"] += bool(offered)
        for choice in offered[:per_question]:
            s = _session(ws, history)
            s.turn(it["utterance"])
            d = s.turn(choice).decision
            kind = classify(first.reply, choice, d.reply, d.next)
            counts["typed_back"] += 1
            counts[kind] += 1
            if kind != "taken":
                cases.append({"kind": kind, "history": history, "utterance": it["utterance"], "question": first.reply,
                              "answer": choice, "reply": d.reply})
    return counts, cases


def read_items(path: Path) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return [{"utterance": line.strip()} for line in text.splitlines() if line.strip() and not line.startswith("/")]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workspace", type=Path, required=True)
    ap.add_argument("--batch", type=Path, required=True)
    ap.add_argument("--per-question", type=int, default=3)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        shutil.copytree(a.workspace, ws, ignore=shutil.ignore_patterns("outputs", ".wenqing"))
        t = time.perf_counter()
        counts, cases = run(ws, read_items(a.batch), a.per_question)
    took = time.perf_counter() - t
    if a.out:
        a.out.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8")
    rate = counts["taken"] / counts["typed_back"] if counts["typed_back"] else 1.0
    print(json.dumps(counts), f"taken {rate:.3f}", f"({took:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
