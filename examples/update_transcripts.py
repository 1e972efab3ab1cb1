"""Re-record the golden transcripts after an intended change: python examples/update_transcripts.py

Each transcript's user turns (lines starting with "> ") are replayed in a fresh copy of the example files.
Read the diff before committing: the transcripts are tests.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    for t in sorted((HERE / "transcripts").glob("*.txt")):
        turns = [line[2:] for line in t.read_text(encoding="utf-8").splitlines() if line.startswith("> ")]
        with tempfile.TemporaryDirectory() as d:
            ws = Path(d) / "ws"
            ws.mkdir()
            for p in HERE.iterdir():
                if p.suffix in (".xlsx", ".csv"):
                    shutil.copy(p, ws / p.name)
            script = ws / "turns.txt"
            script.write_text("\n".join(turns) + "\n", encoding="utf-8")
            out = subprocess.run([sys.executable, "-m", "repl.cli", "chat", "--workspace", str(ws), "--script", str(script)],
                                 capture_output=True, text=True, encoding="utf-8", check=True, cwd=HERE.parent)
            t.write_text(out.stdout, encoding="utf-8")
            print("updated", t.name)


if __name__ == "__main__":
    main()
