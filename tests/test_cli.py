"""The command line: decide (one and batch), chat, trace, --version, --help."""

import json
import subprocess
import sys

from conftest import ROOT


def wq(*args, input=None, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "repl.cli", *args], capture_output=True, text=True, encoding="utf-8",
                          input=input, cwd=cwd, timeout=120)


def test_version_and_help():
    assert wq("--version").stdout.startswith("wenqing ")
    out = wq("--help").stdout
    assert "decide" in out and "chat" in out and "trace" in out


def test_decide_one(ws_dir):
    out = wq("decide", "--workspace", str(ws_dir), "北京_poi.xlsx按评分从高到低排序")
    d = json.loads(out.stdout)
    assert (d["gate"], d["next"], d["mode"], d["tier"]) == ("act", "execute", "transform", "soft")
    assert d["slots"]["file"] == "北京_poi.xlsx" and d["plan"]["steps"][1]["toolHint"] == "sort_rows"
    # nothing runs and nothing is recorded; only the catalog's samples are kept for the next process
    assert not (ws_dir / "outputs").exists()
    assert [p.name for p in (ws_dir / ".wenqing").iterdir()] == ["catalog.json"]
    cached = json.loads((ws_dir / ".wenqing" / "catalog.json").read_text(encoding="utf-8"))["files"]
    assert "北京_poi.xlsx" in cached and not any(name.startswith("outputs/") for name in cached)


def test_decide_batch_one_line_per_item_with_history(ws_dir, tmp_path):
    items = [
        {"id": "a", "history": [], "utterance": "你好"},
        {"id": "b", "history": ["帮我弄一下", "筛选一下 POI 数据"], "utterance": "筛选 上海_poi.xlsx，地址不为空"},
        {"id": "c", "history": ["帮我弄一下", "筛选一下 POI 数据", "筛选 上海_poi.xlsx，地址不为空"], "utterance": "继续"},
    ]
    batch = tmp_path / "in.jsonl"
    batch.write_text("\n".join(json.dumps(i, ensure_ascii=False) for i in items) + "\n", encoding="utf-8")
    out = wq("decide", "--workspace", str(ws_dir), "--batch", str(batch))
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert [x["id"] for x in lines] == ["a", "b", "c"]
    assert [x["next"] for x in lines] == ["reply", "restate_confirm", "execute"]
    for x in lines:
        assert {"gate", "next", "mode", "tier", "confidence", "slots", "missing", "reply", "plan"} <= set(x)
    assert lines[2]["plan"]["mode"] == "transform" and not (ws_dir / "outputs").exists()


def test_chat_from_stdin_and_trace(ws_dir):
    out = wq("--workspace", str(ws_dir), input="预览 上海_poi.xlsx\n")
    assert "上海_poi.xlsx共 60 行、6 列" in out.stdout
    t = json.loads(wq("trace", "--workspace", str(ws_dir), "--json").stdout)
    assert t["status"] == "answered" and [e["node"] for e in t["events"]][:3] == ["gate", "mode", "step:1"]
    assert "step:1" in wq("trace", "--workspace", str(ws_dir)).stdout


def test_missing_workspace_and_script(tmp_path):
    assert wq("decide", "--workspace", str(tmp_path / "nope"), "你好").returncode == 2
    assert wq("chat", "--workspace", str(tmp_path), "--script", str(tmp_path / "none.txt")).returncode == 2


def test_every_decision_uses_the_contract_values(catalog):
    from conftest import run_turns

    from modes.decision import GATES, NEXTS
    from modes.table import MODES

    modes = {r.mode for r in MODES}
    for turns in (["你好"], ["帮我弄一下"], ["筛选一下 POI 数据"], ["筛选 上海_poi.xlsx，地址不为空"], ["全面分析 sample_data"],
                  ["全面分析 sample_data", "取消"], ["把csv转成xlsx"], ["把csv转成xlsx", "继续"], ["导出文件清单"]):
        d = run_turns(catalog, turns)
        assert d.gate in GATES and d.next in NEXTS and d.mode in modes and d.tier in ("none", "silent", "soft", "hard")
        assert 0 <= d.confidence <= 1
