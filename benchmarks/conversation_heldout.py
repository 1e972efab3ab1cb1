"""Score a conversation set: each item is a short conversation whose last turn answers or corrects what waits.

    python -m benchmarks.conversation_heldout benchmarks/heldout/round3/corrections.jsonl WORKSPACE

An item passes when the last turn's `next` is one of `expect.next` (and none of `expect.not_next`), its reply holds
every string of `expect.has` and none of `expect.lacks`, and — with `expect.not_same` — it differs from the reply
before it. Every item is also checked for a loop: a reply said word for word the turn before. The workspace is copied
first, so results written on 继续 never land in the set's own folder.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path


def score(items: list[dict], workspace: Path) -> dict:
    from engine.session import Session
    from tools.workspace import Workspace

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        shutil.copytree(workspace, ws, ignore=shutil.ignore_patterns(".wenqing", "outputs"))
        for item in items:
            s = Session(Workspace.at(str(ws)))
            before = ""
            for u in item["history"]:
                before = _said(s.turn(u))
            tr = s.turn(item["utterance"])
            d, said = tr.decision, _said(tr)
            e = item["expect"]
            why = []
            if "next" in e and d.next not in e["next"]:
                why.append(f"next={d.next}")
            if d.next in e.get("not_next", []):
                why.append(f"next={d.next}")
            why += [f"lacks {h!r}" for h in e.get("has", []) if h not in said]
            why += [f"has {h!r}" for h in e.get("lacks", []) if h in said]
            loop = bool(said.strip()) and said.strip() == before.strip()
            if loop and e.get("not_same"):
                why.append("same reply again")
            rows.append({"id": item["id"], "ok": not why, "loop": loop, "why": why, "reply": said[:300]})
    n = len(rows)
    return {"items": n, "passed": sum(r["ok"] for r in rows), "loops": sum(r["loop"] for r in rows), "rows": rows}


def _said(tr) -> str:
    """What the user read: the reply, or the answer of what ran with the columns of its table."""
    run = tr.run
    if run is None:
        return tr.decision.reply
    cols = " ".join(str(c) for c in getattr(run.table, "columns", []))
    return " ".join(x for x in (tr.decision.reply, run.answer or "", cols) if x)


def main(argv: list[str]) -> int:
    path, workspace = Path(argv[0]), Path(argv[1])
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    out = score(items, workspace)
    for r in out["rows"]:
        if not r["ok"] or r["loop"]:
            print(r["id"], "LOOP" if r["loop"] else "", "; ".join(r["why"]), "|", r["reply"].replace("\n", " ")[:200])
    print(f"passed {out['passed']}/{out['items']}  loops {out['loops']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
