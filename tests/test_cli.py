"""The command line: decide (one and batch), chat, trace, --version, --help."""

import json
import shlex
import subprocess
import sys
from pathlib import Path

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


WENQING = str(Path(sys.executable).with_name("wenqing"))


def test_piped_script_and_events_from_stdin(ws_dir, tmp_path):
    import pandas as pd

    events = tmp_path / "events.jsonl"
    cmd = (f"printf '筛选一下 POI 数据\\n上海_poi.xlsx\\n地址不为空\\n继续\\n/history\\n' | {shlex.quote(WENQING)} chat "
           f"--workspace {shlex.quote(str(ws_dir))} --script - --events {shlex.quote(str(events))}")
    out = subprocess.run(cmd, shell=True, capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert out.returncode == 0, out.stderr
    src = pd.read_excel(ws_dir / "上海_poi.xlsx", engine="calamine")
    kept = int(src["地址"].notna().sum())
    rows = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    assert [r["next"] for r in rows if r["event"] == "decision"] == ["ask_slots", "ask_slots", "restate_confirm", "execute"]
    written = [r for r in rows if r["event"] == "file_written"]
    assert [(w["path"], w["rows"]) for w in written] == [("outputs/上海_poi_筛选.csv", kept)]
    assert len(pd.read_csv(ws_dir / written[0]["path"], encoding="utf-8-sig")) == kept
    assert f"{len(src)} 行 → {kept} 行" in out.stdout and "> /history" in out.stdout


def test_dash_and_dev_stdin_for_script_and_batch(ws_dir):
    assert "上海_poi.xlsx共 60 行" in wq("chat", "--workspace", str(ws_dir), "--script", "/dev/stdin", input="预览 上海_poi.xlsx\n").stdout
    items = "\n".join(json.dumps({"id": i, "history": [], "utterance": u})
                      for i, u in (("a", "你好"), ("b", "坏\ud800字"), ("c", "帮我弄一下"))) + "\n"
    for src in ("-", "/dev/stdin"):
        out = wq("decide", "--workspace", str(ws_dir), "--batch", src, input=items)
        assert out.returncode == 0, out.stderr
        assert [json.loads(x)["id"] for x in out.stdout.splitlines()] == ["a", "b", "c"]  # a lone surrogate ends nothing


def test_exit_codes(ws_dir, tmp_path, monkeypatch):
    assert wq("chat", "--workspace", str(ws_dir), "--script", str(tmp_path / "none.txt")).returncode == 2
    assert wq("chat", "--workspace", str(ws_dir), "--no-such-option").returncode == 2
    assert wq("decide", "--workspace", str(ws_dir), "--batch", str(tmp_path)).returncode == 2
    assert wq("chat", "--workspace", str(ws_dir), "--script", "-", input="你好\n").returncode == 0

    from engine.session import Session
    from repl.render import Renderer
    from repl.script import run_lines
    from tools.workspace import Workspace

    def boom(self, line):
        raise RuntimeError("bug")

    monkeypatch.setattr(Session, "turn", boom)
    assert run_lines(Workspace.at(ws_dir), ["你好"], None, render=Renderer.plain()) == 1


def test_version_is_fast_and_light():
    code = "import sys; sys.argv = ['wenqing', '--version']; import repl; repl.main(); print(sorted({'pandas', 'typer', 'rich'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.stdout.splitlines() == [f"wenqing {__import__('repl').__version__}", "[]"]
    assert subprocess.run([WENQING, "-V"], capture_output=True, text=True, timeout=60).stdout.startswith("wenqing ")


def test_no_color_is_honoured(ws_dir, monkeypatch):
    from io import StringIO

    from rich.console import Console

    from repl.render import Renderer

    monkeypatch.setenv("NO_COLOR", "1")
    buf = StringIO()
    Renderer(Console(file=buf, force_terminal=True, width=100)).say("筛选完成", "green")
    assert "筛选完成" in buf.getvalue() and "\x1b[3" not in buf.getvalue()
    monkeypatch.delenv("NO_COLOR")
    buf = StringIO()
    Renderer(Console(file=buf, force_terminal=True, width=100)).say("筛选完成", "green")
    assert "\x1b[32m" in buf.getvalue()  # the same line is green when colour is allowed


def test_trace_json_is_parsed_and_stable(ws_dir):
    wq("chat", "--workspace", str(ws_dir), "--script", "-", input="预览 上海_poi.xlsx\n")
    t = json.loads(wq("trace", "--workspace", str(ws_dir), "--json").stdout)
    assert list(t)[:3] == ["trace_id", "turn", "utterance"] and t["decision"]["next"] == "execute"
    assert t["plan"]["steps"][0]["toolHint"] == "profile_dataset" and t["events"][2]["outputs"]["rows"] == 60


def test_a_bug_on_the_plain_command_line_is_one_short_line_and_logged(ws_dir, monkeypatch, capsys):
    import engine.batch
    from repl.fast import run_plain

    def boom(*args, **kwargs):
        raise RuntimeError("bug in decide")

    monkeypatch.setattr(engine.batch, "decide_one", boom)
    assert run_plain(["decide", "--workspace", str(ws_dir), "北京_poi.xlsx按评分排序"]) == 1
    err = capsys.readouterr().err
    assert err == "出错了（内部错误 RuntimeError），命令没有完成。详情记录在 .wenqing/errors.log。\n"
    assert run_plain(["decide", "-w", str(ws_dir), "sort the poi file by rating"]) == 1
    assert capsys.readouterr().err == ("Something went wrong (internal error RuntimeError); the command did not finish. "
                                       "Details are in .wenqing/errors.log.\n")
    log = (ws_dir / ".wenqing" / "errors.log").read_text(encoding="utf-8")
    assert log.count("RuntimeError: bug in decide") == 2 and "Traceback" in log
    # a workspace that does not exist is said as before, and nothing is logged anywhere
    assert run_plain(["decide", "--workspace", str(ws_dir / "nope"), "你好"]) == 2
    assert "工作区不存在" in capsys.readouterr().err
