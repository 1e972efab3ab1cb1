"""Answers recorded from a capable model (benchmarks/model_ceiling/capable_tablegpt.jsonl), replayed through the
real openai client on loopback: every recorded call is still the call wenqing makes (its key matches), and the
end-to-end figure of benchmarks/model_ceiling.py does not fall below the one recorded with the answers."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TAPE = ROOT / "benchmarks" / "model_ceiling" / "capable_tablegpt.jsonl"
FIGURE = ROOT / "benchmarks" / "model_ceiling" / "capable_tablegpt.figure.json"
TABLEGPT = ROOT.parent / "shared" / "eval" / "external_dev" / "tablegpt"

pytestmark = pytest.mark.skipif(not (TABLEGPT / "labels.jsonl").is_file() or not TAPE.is_file(),
                                reason="the tablegpt set (../shared/eval) or the recorded answers are not here")


def _entries() -> list[dict]:
    return [json.loads(x) for x in TAPE.read_text(encoding="utf-8").splitlines() if x.strip()]


def _labels() -> dict[str, dict]:
    return {x["id"]: x for x in (json.loads(line) for line in (TABLEGPT / "labels.jsonl").read_text(encoding="utf-8").splitlines() if line.strip())}


def test_every_recorded_call_is_the_call_wenqing_makes_and_its_answer_is_read(tmp_path: Path) -> None:
    from engine.cassette import _SERVERS, replay_server
    from engine.config import ModelConfig
    from engine.session import Session
    from tools.workspace import Workspace

    labels = _labels()
    entries = _entries()
    assert len(entries) == 30
    for e in entries:
        ws = tmp_path / e["id"]
        shutil.copytree(TABLEGPT / labels[e["id"]]["ws"], ws)
        tape = tmp_path / f"{e['id']}.jsonl"
        tape.write_text(json.dumps(e, ensure_ascii=False) + "\n", encoding="utf-8")
        s = Session(Workspace.at(ws), model=ModelConfig(cassette=str(tape)), model_sleep=lambda x: None)
        d = s.turn(labels[e["id"]]["utterance"]).decision
        cassette = replay_server(tape).cassette
        assert cassette.hits >= 1 and not [m for m in cassette.misses if m["purpose"] == "query"], \
            f"{e['id']}: the recorded call no longer matches (the prompt or the workspace summary changed: record again)"
        assert d.rule.startswith("model:") or d.gate == "unknown", (e["id"], d.rule, d.reply[:200])
    for srv in list(_SERVERS.values()):
        srv.stop()
    _SERVERS.clear()


def test_the_recorded_answers_carry_out_as_many_requests_as_when_they_were_recorded(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import model_ceiling as mc

    want = json.loads(FIGURE.read_text(encoding="utf-8"))
    mc.RECORDED[:] = _entries()
    items = [it for it in mc.items_of("tablegpt") if it["id"] in {e["id"] for e in mc.RECORDED}]
    results = mc.run_tablegpt(items, {}, tmp_path, jobs=2)
    correct = sum(1 for r in results if r["outcome"] == "correct")
    assert correct >= want["correct"], [(r["id"], r["outcome"], r["reason"]) for r in results if r["outcome"] != "correct"]
    assert not [r["id"] for r in results if mc.differs(r)]  # what ran is what was restated
