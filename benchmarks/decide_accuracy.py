"""Understanding accuracy on a labeled decision set, with the project's scorer when it is available.

usage: python benchmarks/decide_accuracy.py [--labels DEV.jsonl] [--workspace DIR] [--fails]
Defaults to ../shared/eval (labels, workspace and score_decisions.py) when it exists.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.batch import decide_batch  # noqa: E402
from tools.workspace import Workspace  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    shared = ROOT.parent / "shared" / "eval"
    ap = argparse.ArgumentParser()
    ap.add_argument("--labels", type=Path, default=shared / "decisions_dev.jsonl")
    ap.add_argument("--workspace", type=Path, default=shared / "workspace")
    ap.add_argument("--fails", action="store_true", help="list the items that differ from their labels")
    a = ap.parse_args(argv)
    if not a.labels.is_file() or not a.workspace.is_dir():
        print(f"no labeled set at {a.labels}; nothing to score")
        return 0
    t = time.perf_counter()
    lines = list(decide_batch(Workspace.at(a.workspace), a.labels.read_text(encoding="utf-8").splitlines()))
    secs = time.perf_counter() - t
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
    print(f"{len(lines)} decisions in {secs:.2f} s (catalog included)")
    scorer = a.labels.parent / "score_decisions.py"
    if scorer.is_file():
        cmd = [sys.executable, str(scorer), str(a.labels), f.name] + (["--fails"] if a.fails else [])
        print(subprocess.run(cmd, capture_output=True, text=True, check=False).stdout, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
