"""Golden transcripts: the user turns of each examples/transcripts/*.txt replayed through `wenqing chat --script`."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

TRANSCRIPTS = sorted((ROOT / "examples" / "transcripts").glob("*.txt"))


def replay(ws_dir: Path, transcript: Path, events: Path | None = None) -> str:
    turns = [line[2:] for line in transcript.read_text(encoding="utf-8").splitlines() if line.startswith("> ")]
    script = ws_dir / "turns.txt"
    script.write_text("\n".join(turns) + "\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "repl.cli", "chat", "--workspace", str(ws_dir), "--script", str(script)]
    if events:
        cmd += ["--events", str(events)]
    out = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8", cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.parametrize("transcript", TRANSCRIPTS, ids=[t.stem for t in TRANSCRIPTS])
def test_transcript_replays_exactly(ws_dir, transcript):
    (ws_dir / "turns.txt").unlink(missing_ok=True)
    got = replay(ws_dir, transcript)
    assert got == transcript.read_text(encoding="utf-8")


def test_events_of_the_clarification_dialogue(ws_dir):
    events = ws_dir / "events.jsonl"
    replay(ws_dir, ROOT / "examples" / "transcripts" / "clarification.txt", events)
    rows = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    decisions = [r for r in rows if r["event"] == "decision"]
    assert [d["next"] for d in decisions] == ["ask_intent", "ask_slots", "restate_confirm", "execute", "ask_intent"]
    steps = [r for r in rows if r["event"] == "step"]
    assert [s["tool"] for s in steps] == ["profile_dataset", "filter_rows", "write_csv"]
    assert steps[1]["facts"] == {"rows_in": 60, "rows_out": 45}
    written = [r for r in rows if r["event"] == "file_written"]
    assert written[0]["path"] == "outputs/上海_poi_筛选.csv" and written[0]["rows"] == 45
    runs = [r for r in rows if r["event"] == "run"]
    assert runs[3]["status"] == "answered" and runs[3]["trace_id"] and runs[3]["fallback_reason"] is None
    assert {"gate", "mode", "tier", "slots", "plan"} <= set(decisions[3])
