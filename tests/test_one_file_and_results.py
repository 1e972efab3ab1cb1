"""In a one-file workspace that file is the file; the last result is a table the next request reads."""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest
from conftest import answered

from engine.session import Session
from tools.workspace import Workspace


@pytest.fixture
def one_file(tmp_path):
    df = pd.DataFrame({"team": ["a", "b", "a", "c", "b", "a"], "points": [3, 5, 7, 1, 2, 4], "year": [2001, 2001, 2002, 2002, 2003, 2003]})
    df.to_csv(tmp_path / "scores.csv", index=False)
    return tmp_path, df


@pytest.mark.parametrize("utterance", ["按 team 汇总 points", "group by team and sum points", "把 points 按 team 加总一下",
                                       "sum of points for each team", "每个 team 的 points 合计"])
def test_a_one_file_workspace_needs_no_file_name(one_file, utterance):
    root, df = one_file
    s = Session(Workspace.at(root))
    tr = s.turn(utterance)
    if tr.run is None:
        assert tr.decision.next == "restate_confirm", tr.decision.reply
        tr = s.turn("继续")
    assert tr.run is not None and tr.run.status == "answered"
    got = pd.read_csv(root / tr.run.files[0]["path"])
    col = next(c for c in got.columns if c.startswith("points"))
    assert dict(zip(got["team"], got[col], strict=True)) == df.groupby("team")["points"].sum().to_dict()


@pytest.mark.parametrize("utterance", ["count the records for each team", "how many rows for each team", "每个 team 有多少行"])
def test_for_each_counts_per_group_never_the_total(one_file, utterance):
    root, df = one_file
    s = Session(Workspace.at(root))
    tr = s.turn(utterance)
    if tr.run is None:
        assert tr.decision.next in ("restate_confirm", "ask_slots"), tr.decision.reply
        return
    got = pd.read_csv(root / tr.run.files[0]["path"]) if tr.run.files else None
    rows = "行数" if re.search(r"[\u4e00-\u9fff]", utterance) else "rows"  # named in the request's language
    assert got is not None and dict(zip(got["team"], got[rows], strict=True)) == df.groupby("team").size().to_dict(), tr.run.answer


@pytest.mark.parametrize("utterance", ["what is the 2002 value of a?", "name the number of wins for 2001", "who won in 2003?"])
def test_a_question_read_only_as_a_preview_is_restated(one_file, utterance):
    root, _ = one_file
    tr = Session(Workspace.at(root)).turn(utterance)
    assert tr.run is None and tr.decision.next in ("restate_confirm", "ask_slots", "ask_intent", "reply"), tr.decision.reply


def test_results_are_read_and_never_written_over(one_file):
    root, df = one_file
    s = Session(Workspace.at(root))
    first = s.turn("按 team 汇总 points")
    first = first if first.run else s.turn("继续")
    made = first.run.files[0]["path"]
    before = (root / made).read_bytes()
    tr = s.turn("在这个结果里按 points_合计 降序排")
    tr = tr if tr.run else s.turn("继续")
    assert tr.run is not None and tr.run.files[0]["path"] != made
    # a question about a result the user saw saved (在这个结果里…) leaves that file where it is, unchanged
    assert (root / made).read_bytes() == before
    assert sorted(p.name for p in (root / "outputs").iterdir()) == sorted([made.split("/")[-1], tr.run.files[0]["path"].split("/")[-1]])
    kept = s.result_table("2")[1]
    pd.testing.assert_frame_equal(kept, pd.read_csv(io.BytesIO(before), encoding="utf-8-sig"), check_dtype=False)
    got = pd.read_csv(root / tr.run.files[0]["path"])
    assert list(got["points_合计"]) == sorted(df.groupby("team")["points"].sum(), reverse=True)


# ---------------------------------------------------------------- results shown but not saved are inputs too


@pytest.fixture
def two_files(tmp_path):
    import numpy as np

    rng = np.random.default_rng(11)
    n = 90
    df = pd.DataFrame({"订单号": [f"D{i:03d}" for i in range(n)], "城市": rng.choice(["上海", "北京", "广州"], n),
                       "日期": pd.date_range("2024-01-03", periods=n, freq="4D").strftime("%Y-%m-%d"),
                       "金额": rng.integers(100, 5000, n), "数量": rng.integers(1, 20, n)})
    df.to_csv(tmp_path / "sales.csv", index=False)
    pd.DataFrame({"城市": ["上海", "北京"], "人口": [2487, 2189]}).to_csv(tmp_path / "cities.csv", index=False)
    return tmp_path, df


def _run(s: Session, utterance: str):
    return answered(s, utterance)


def _written(root, tr) -> pd.DataFrame:
    p = root / tr.run.files[0]["path"]
    return pd.read_csv(p) if p.suffix == ".csv" else pd.read_excel(p, engine="openpyxl")


def _monthly(df: pd.DataFrame) -> pd.Series:
    return df.groupby(pd.to_datetime(df["日期"]).dt.strftime("%Y-%m"))["金额"].sum()


@pytest.mark.parametrize("follow_up", ["在这个结果里只看金额_合计大于{x}的", "刚才的结果里筛选金额_合计大于{x}的", "then filter rows where 金额_合计 > {x}",
                                       "在结果里只保留金额_合计大于{x}的月份"])
def test_a_result_only_shown_is_the_input_of_the_follow_up(two_files, follow_up):
    root, df = two_files
    s = Session(Workspace.at(root))
    first = _run(s, "sales.csv 按月汇总金额")
    assert not first.run.files  # shown, not saved: still the next request's input
    monthly = _monthly(df)
    x = int(round(monthly.median(), -3))  # a round figure: 19058 would also read as a month (1905-08)
    tr = s.turn(follow_up.format(x=x))
    assert tr.decision.request.file and tr.decision.request.file != "sales.csv", tr.decision.reply
    if tr.run is None:  # asked or restated, never run on the source file
        assert tr.decision.next in ("restate_confirm", "ask_slots"), tr.decision.reply
        tr = s.turn("继续")
        if tr.run is None:
            return
    got = _written(root, tr)
    want = monthly[monthly > x]
    assert dict(zip(got["月份"], got["金额_合计"], strict=True)) == want.to_dict()
    assert (root / "sales.csv").read_bytes() == df.to_csv(index=False).encode() or pd.read_csv(root / "sales.csv").equals(df)


@pytest.mark.parametrize("export", ["把它导出", "把刚才的结果导出成xlsx", "then export it as csv", "export the result"])
def test_exporting_a_shown_result_writes_that_result(two_files, export):
    root, df = two_files
    s = Session(Workspace.at(root))
    _run(s, "sales.csv 按城市汇总金额的占比")
    tr = _run(s, export)
    got = _written(root, tr)
    assert len(got) == df["城市"].nunique(), got  # the three shares, never the 90 source rows
    share = next(c for c in got.columns if "占比" in c or "share" in c.casefold())
    want = df.groupby("城市")["金额"].sum() / df["金额"].sum()
    for city, v in zip(got["城市"], got[share], strict=True):
        val = float(str(v).rstrip("%"))
        assert abs((val / 100 if val > 1 else val) - want[city]) < 1e-3  # shares may be shown in percent


def test_quantiles_shown_then_exported(two_files):
    root, df = two_files
    s = Session(Workspace.at(root))
    first = _run(s, "sales.csv 金额的四分位数")
    assert not first.run.files
    tr = _run(s, "把刚才的结果导出成xlsx")
    got = _written(root, tr)
    nums = sorted(float(v) for v in got.select_dtypes("number").to_numpy().ravel())
    for q in (0.25, 0.5, 0.75):
        assert any(abs(v - df["金额"].quantile(q)) < 1e-6 for v in nums), (q, got)


def test_a_result_by_its_history_number(two_files):
    root, df = two_files
    s = Session(Workspace.at(root))
    _run(s, "sales.csv 按城市汇总金额")  # /history #2 once the next one ran
    _run(s, "sales.csv 按月汇总金额")  # /history #1
    by_city = df.groupby("城市")["金额"].sum()
    x = int(round(by_city.min(), -3))
    tr = _run(s, f"在第2个结果里只看金额_合计大于{x}的")
    got = _written(root, tr)
    assert dict(zip(got["城市"], got["金额_合计"], strict=True)) == by_city[by_city > x].to_dict()
    monthly = _monthly(df)
    y = int(round(monthly.median(), -3))
    tr = _run(s, f"在第2个结果里只看金额_合计大于{y}的")  # now #2 is the monthly totals
    got = _written(root, tr)
    assert dict(zip(got["月份"], got["金额_合计"], strict=True)) == monthly[monthly > y].to_dict()


@pytest.mark.parametrize("utterance", ["在第9个结果里按城市排序", "result 7: sort by 城市"])
def test_a_history_number_that_does_not_exist_runs_nothing(two_files, utterance):
    root, _ = two_files
    s = Session(Workspace.at(root))
    _run(s, "sales.csv 按月汇总金额")
    tr = s.turn(utterance)
    assert tr.run is None and tr.decision.next == "ask_intent", tr.decision.reply
    assert "9" in tr.decision.reply or "7" in tr.decision.reply
    assert not (root / "outputs").exists() or not any((root / "outputs").iterdir())


def test_a_held_result_is_wenqings_own_file_and_the_source_is_untouched(two_files):
    root, df = two_files
    before = (root / "sales.csv").read_bytes()
    s = Session(Workspace.at(root))
    _run(s, "sales.csv 按月汇总金额")
    held = s.state.last_result
    assert held and held.startswith(".wenqing/results/")
    assert pd.read_parquet(root / held)["金额_合计"].tolist() == _monthly(df).tolist()
    tr = s.turn("在这个结果里只看金额_合计大于0的")
    assert "显示过的结果" in (tr.decision.reply + (tr.plan.goalSummary if tr.plan else ""))  # never the internal name
    assert ".wenqing" not in (tr.decision.reply + (tr.plan.goalSummary if tr.plan else ""))
    assert (root / "sales.csv").read_bytes() == before


def test_a_chat_script_follows_up_on_a_shown_result(two_files):
    """The same through `wenqing chat --script`: the follow-up's events name the held result, and its file holds
    exactly the monthly totals pandas computes above the threshold."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root, df = two_files
    monthly = _monthly(df)
    x = int(round(monthly.median(), -3))
    script = root / "turns.txt"
    script.write_text(f"sales.csv 按月汇总金额\n刚才的结果里筛选金额_合计大于{x}的\n把它导出成xlsx\n", encoding="utf-8")
    events = root / "events.jsonl"
    subprocess.run([sys.executable, "-m", "repl.cli", "chat", "--workspace", str(root), "--script", str(script), "--events", str(events)],
                   check=True, capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1], timeout=120)
    evs = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    decided = [e for e in evs if e["event"] == "decision"]
    assert [d["next"] for d in decided] == ["execute", "execute", "execute"], [d["reply"] for d in decided]
    assert decided[1]["slots"]["file"].startswith(".wenqing/results/") and decided[2]["slots"]["file"].startswith("outputs/")
    written = [e["path"] for e in evs if e["event"] == "file_written"]
    # the filtered table was a step on the way to the export asked for: only the export stays in outputs/
    assert not (root / written[0]).exists() and sorted((root / "outputs").iterdir()) == [root / written[1]]
    exported = pd.read_excel(root / written[1], engine="openpyxl")
    assert dict(zip(exported["月份"], exported["金额_合计"], strict=True)) == monthly[monthly > x].to_dict()
