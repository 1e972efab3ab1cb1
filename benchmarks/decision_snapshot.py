"""Record every decision on a large corpus, and read the differences between two recordings.

    python benchmarks/decision_snapshot.py record OUT.jsonl      # dev set, external dev sets, held-out set
    python benchmarks/decision_snapshot.py diff OLD.jsonl NEW.jsonl

A rebuild of understanding moves behind this: record before a change, record after, read every difference
(gate, next, mode, tier, file, reply, plan steps, query). Corpora that are not present are skipped.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT.parent / "shared" / "eval"
KEYS = ("gate", "next", "mode", "tier", "file", "reply", "steps", "query")


def corpora() -> list[tuple[str, Path, list[dict]]]:
    """(name, workspace, items) for every corpus at hand."""
    out: list[tuple[str, Path, list[dict]]] = []

    def load(p: Path) -> list[dict]:
        return [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]

    if (EVAL / "decisions_dev.jsonl").is_file():
        out.append(("dev", EVAL / "workspace", load(EVAL / "decisions_dev.jsonl")))
    for name, d in (("tuning", ROOT / "benchmarks" / "tuning"), ("heldout", ROOT / "benchmarks" / "heldout"),
                    ("heldout2", ROOT / "benchmarks" / "heldout" / "round2")):
        if (d / "decisions.jsonl").is_file():
            out.append((name, d / "workspace", load(d / "decisions.jsonl")))
    for name in ("smp", "triage", "tablegpt"):
        d = EVAL / "external_dev" / name
        if not (d / "labels.jsonl").is_file():
            continue
        groups: dict[str, list[dict]] = defaultdict(list)
        for it in load(d / "labels.jsonl"):
            groups[it["ws"]].append(it)
        out += [(f"{name}/{ws}", d / ws, items) for ws, items in groups.items()]
    return out


def _row(corpus: str, p: dict) -> dict:
    plan = p.get("plan") or {}
    return {"corpus": corpus, "id": p.get("id"), "gate": p.get("gate"), "next": p.get("next"), "mode": p.get("mode"),
            "tier": p.get("tier"), "file": (p.get("slots") or {}).get("file"), "reply": p.get("reply"),
            "steps": [s.get("toolHint") for s in plan.get("steps") or []], "query": p.get("query")}


def record(out: Path, wenqing: str) -> int:
    rows = []
    for corpus, ws, items in corpora():
        lines = "".join(json.dumps({k: it.get(k, []) for k in ("id", "history", "utterance")}, ensure_ascii=False) + "\n"
                        for it in items)
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", encoding="utf-8", delete=False) as f:
            f.write(lines)
        p = subprocess.run([wenqing, "decide", "--workspace", str(ws), "--batch", f.name], capture_output=True, text=True,
                           timeout=900)
        Path(f.name).unlink()
        for line in p.stdout.splitlines():
            try:
                rows.append(_row(corpus, json.loads(line)))
            except json.JSONDecodeError:
                continue
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} decisions recorded in {out}")
    return 0


def diff(old: Path, new: Path, keys: tuple[str, ...] = KEYS) -> int:
    def load(p: Path) -> dict[tuple[str, str], dict]:
        return {(r["corpus"], r["id"]): r for r in map(json.loads, p.read_text(encoding="utf-8").splitlines())}

    a, b = load(old), load(new)
    changed: dict[str, int] = defaultdict(int)
    for k in sorted(set(a) | set(b)):
        ra, rb = a.get(k), b.get(k)
        if ra is None or rb is None:
            print(f"{k}: only in {'new' if ra is None else 'old'}")
            continue
        for key in keys:
            if ra.get(key) != rb.get(key):
                changed[key] += 1
                print(f"{k[0]} {k[1]} {key}:\n  - {ra.get(key)}\n  + {rb.get(key)}")
    print("changed:", dict(changed) or "nothing", f"of {len(a)} decisions")
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    wq = str(ROOT / ".venv" / "bin" / "wenqing")
    if len(args) == 2 and args[0] == "record":
        sys.exit(record(Path(args[1]), wq))
    if len(args) >= 3 and args[0] == "diff":
        sys.exit(diff(Path(args[1]), Path(args[2]), tuple(args[3].split(",")) if len(args) > 3 else KEYS))
    print(__doc__)
    sys.exit(2)
