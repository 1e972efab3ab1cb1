"""In a one-file workspace that file is the file; the last result is a table the next request reads."""

from __future__ import annotations

import re

import pandas as pd
import pytest

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
    assert (root / made).read_bytes() == before
    got = pd.read_csv(root / tr.run.files[0]["path"])
    assert list(got["points_合计"]) == sorted(df.groupby("team")["points"].sum(), reverse=True)
