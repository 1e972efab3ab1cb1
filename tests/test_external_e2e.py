"""The end-to-end benchmark's judge, on results made here, and a short real run when the shared set is present."""

import json
import sys
from pathlib import Path

import pandas as pd
import pytest

from benchmarks.external_e2e import (
    DEFAULT_SET,
    Answer,
    Num,
    Run,
    Table,
    judge,
    main,
    match_answer,
    match_table,
    numbers_in,
)

WENQING = Path(sys.executable).parent / "wenqing"


def test_numbers_in_reads_separators_units_and_percentages():
    got = numbers_in("合计 1,234.5 万元，占 12.5%，p = 1.2e-05，变化 -3.25")
    for want in (12345000.0, 0.125, 12.5, 1.2e-05, -3.25):
        assert any(abs(g - want) < 1e-9 * max(1.0, abs(want)) for g in got), want


def test_match_answer_needs_every_figure_and_name():
    exp = Answer([Num(1234.567), Num(0.4321, pct=True)], [["上海"]], forbid=["北京"])
    assert match_answer(exp, "上海最高：1,234.57，占 43.21%") is None
    assert "1234.57" in (match_answer(exp, "上海最高：1,240.00，占 43.21%") or "")
    assert match_answer(exp, "广州最高：1,234.57，占 43.21%") is not None
    assert "北京" in (match_answer(exp, "上海 1,234.57 43.21%，北京其次") or "")


def test_match_table_ignores_row_order_and_finds_a_renamed_result_column():
    src = pd.DataFrame({"城市": ["上海", "北京", "广州"], "金额": [3.0, 1.0, 2.0]})
    exp = Table(src.assign(倍数=src["金额"] * 2), cols=["城市", "倍数"], loose=["倍数"])
    out = src.iloc[[2, 0, 1]].assign(金额x2=[4.0, 6.0, 2.0])
    assert match_table(exp, out) is None
    assert "rows" in (match_table(exp, out.iloc[:2]) or "")
    assert match_table(exp, out.assign(金额x2=[4.0, 6.0, 2.5])) is not None


def test_match_table_checks_a_rename_and_the_sort_order():
    src = pd.DataFrame({"Position": ["a", "b"], "n": [1, 2]})
    exp = Table(src.rename(columns={"Position": "Role"}), gone=["Position"])
    assert match_table(exp, src.rename(columns={"Position": "Role"})) is None
    assert "still there" in (match_table(exp, src.assign(Role=src["Position"])) or "")
    ordered = Table(src.sort_values("n", ascending=False), sorted_by=("n", True))
    assert match_table(ordered, src.sort_values("n", ascending=False)) is None
    assert "sorted" in (match_table(ordered, src) or "")


def _run(tmp_path, events, frames=(), rc=0, stderr=""):
    paths = []
    for i, f in enumerate(frames):
        p = tmp_path / f"out{i}.csv"
        f.to_csv(p, index=False)
        paths.append(p)
    return Run(rc, stderr, events, paths, 1, frozenset({"城市", "金额"}))


def test_judge_tells_the_outcomes_apart(tmp_path):
    src = pd.DataFrame({"城市": ["上海", "北京"], "金额": [3.0, 1.0]})
    exps = [Table(src[src["金额"] > 2])]
    restate = {"event": "decision", "turn": 1, "next": "restate_confirm"}
    run1 = {"event": "run", "turn": 1, "status": "answered", "answer": "我的理解是……确认请回复'继续'"}
    go = {"event": "decision", "turn": 2, "next": "execute"}
    done = {"event": "run", "turn": 2, "status": "answered", "answer": "筛选：2 行 → 1 行。"}
    assert judge(exps, _run(tmp_path, [restate, run1, go, done], [src[src["金额"] > 2]]))[0] == "correct"
    wrong = judge(exps, _run(tmp_path, [restate, run1, go, done], [src[src["金额"] < 2]]))
    assert wrong[0] == "wrong" and "after 继续" in wrong[1]
    nodata = {"event": "run", "turn": 2, "status": "insufficient_context", "answer": None, "fallback_reason": "no_rows_match"}
    assert judge(exps, _run(tmp_path, [restate, run1, go, nodata]))[1].startswith("false 'no data'")
    ask = [{"event": "decision", "turn": 1, "next": "ask_slots"},
           {"event": "run", "turn": 1, "status": "answered", "answer": "筛选条件是什么？"}]
    assert judge(exps, _run(tmp_path, ask))[0] == "asked"
    ask[1]["answer"] = "暂不支持画图。"
    assert judge(exps, _run(tmp_path, ask))[0] == "refused"
    assert judge(exps, _run(tmp_path, ask, rc=1, stderr="Traceback …\nValueError: x"))[0] == "error"


def test_answer_figures_in_a_result_file_count_but_copies_of_source_rows_do_not(tmp_path):
    exps = [Answer([Num(4.0)], in_files=True)]
    ran = [{"event": "decision", "turn": 1, "next": "execute"},
           {"event": "run", "turn": 1, "status": "answered", "answer": "已保存。"}]
    total = pd.DataFrame({"金额_合计": [4.0]})
    assert judge(exps, _run(tmp_path, ran, [total]))[0] == "correct"
    copy = pd.DataFrame({"城市": ["合计"], "金额": [4.0]})
    assert judge(exps, _run(tmp_path, ran, [copy]))[0] == "wrong"


def test_without_the_shared_set_it_says_so(tmp_path, capsys):
    assert main(["--set", str(tmp_path)]) == 0
    assert "nothing to run" in capsys.readouterr().out


needs_set = pytest.mark.skipif(not (DEFAULT_SET / "labels.jsonl").is_file(), reason="../shared/eval is absent")


@needs_set
def test_the_judge_passes_a_perfect_result_and_fails_the_untouched_table(capsys):
    pytest.importorskip("scipy")
    assert main(["--selfcheck"]) == 0
    assert "items judged as they should be" in capsys.readouterr().out


@needs_set
@pytest.mark.skipif(not WENQING.exists(), reason="no wenqing executable beside this python")
def test_two_real_items_run_end_to_end(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main([str(WENQING), "--ids", "tg-280,tg-054", "--json", str(out)]) == 0
    results = json.loads(out.read_text(encoding="utf-8"))
    assert sorted(r["id"] for r in results) == ["tg-054", "tg-280"]
    assert all(r["outcome"] in ("correct", "wrong", "asked", "refused", "error") and r["reason"] for r in results)
    assert "carried out correctly" in capsys.readouterr().out


def test_percent_cells_read_as_fractions():
    exp = Table(pd.DataFrame({"类别": ["甲", "乙"], "占比": [0.75, 0.25]}))
    assert match_table(exp, pd.DataFrame({"类别": ["乙", "甲"], "占比": ["25.0%", "75.0%"]})) is None
