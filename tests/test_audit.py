"""The audit record: runs and events in SQLite, with a migration table; /undo removes only what wenqing wrote."""

import sqlite3

from engine.audit import MIGRATIONS


def test_runs_and_events_are_recorded(session, ws_dir):
    session.turn("筛选一下 POI 数据")
    session.turn("筛选 上海_poi.xlsx，地址不为空")
    tr = session.turn("继续")
    db = sqlite3.connect(ws_dir / ".wenqing" / "runs.sqlite")
    assert db.execute("SELECT max(version) FROM schema_migrations").fetchone()[0] == len(MIGRATIONS)
    rows = db.execute("SELECT utterance, status FROM runs ORDER BY started").fetchall()
    assert [r[0] for r in rows] == ["筛选一下 POI 数据", "筛选 上海_poi.xlsx，地址不为空", "继续"]
    run = session.audit.run(tr.trace_id)
    nodes = [(e["node"], e["state_transition"]) for e in run["events"]]
    assert nodes[0] == ("gate", "pending_confirm -> act") and ("step:2", "running -> done") in nodes
    assert all(e["constraint_evaluated"] == 1 and e["model_called"] == 0 for e in run["events"])
    assert "上海火锅" not in str(run["events"])  # cell values are summarised, not copied


def test_undo_removes_only_the_last_outputs(session, ws_dir):
    session.turn("北京_poi.xlsx按评分从高到低排序")
    out = ws_dir / "outputs" / "北京_poi_排序.csv"
    assert out.exists()
    assert session.undo() == ["outputs/北京_poi_排序.csv"] and not out.exists()
    assert (ws_dir / "北京_poi.xlsx").exists() and session.undo() == []
