"""Every choice a question offers, typed back alone, is taken: a question lists only what can fill it (a ranking
takes numbers or dates, statistics numbers, a period a table with a date column), an answer fills the question it
belongs to when several are asked at once, the joined answer is read as it was meant ("rate" after "growth" is a
column, not "growth rate"), an English request stays English, and a column name one letter off is read and said.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from benchmarks.answer_back import choices, classify, run
from engine.session import Session
from tools.workspace import Workspace

CJK = re.compile(r"[\u4e00-\u9fff]")
ASKING = ("ask_slots", "ask_intent")


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("answer_back")
    rng = np.random.default_rng(5)
    n = 60
    pd.DataFrame({
        "订单号": [f"D{i:03d}" for i in range(n)],
        "门店": rng.choice(["南京路店", "徐家汇店", "五角场店"], n),
        "日期": pd.date_range("2024-01-03", periods=n, freq="5D").strftime("%Y-%m-%d"),
        "份数": rng.integers(1, 9, n),
        "金额": rng.integers(20, 500, n),
    }).to_csv(root / "订单.csv", index=False)
    with pd.ExcelWriter(root / "成绩.xlsx") as w:
        for sheet in ("期中", "期末"):
            pd.DataFrame({"学号": [f"S{i:02d}" for i in range(20)], "姓名": [f"学生{i}" for i in range(20)],
                          "班级": rng.choice(["一班", "二班"], 20), "数学": rng.integers(40, 100, 20)}).to_excel(w, sheet_name=sheet, index=False)
    pd.DataFrame({"hotel": ["Harbour", "Parkside", "City Lights", "Riverside"], "city": ["Leeds", "York", "Leeds", "Bath"],
                  "rooms": [120, 80, 200, 60]}).to_csv(root / "properties.csv", index=False)
    m = 80
    pd.DataFrame({
        "booking_id": [f"B{i:04d}" for i in range(m)],
        "hotel": rng.choice(["Harbour", "Parkside", "City Lights"], m),
        "check_in": pd.date_range("2024-01-02", periods=m, freq="4D").strftime("%Y-%m-%d"),
        "nights": rng.integers(1, 6, m),
        "price_per_night": rng.integers(60, 300, m),
    }).to_csv(root / "bookings.csv", index=False)
    return root


def talk(ws: Path, *turns: str) -> list:
    s = Session(Workspace.at(ws), dry_run=True)
    return [s.turn(t).decision for t in turns]


def test_a_ranking_question_offers_only_columns_it_can_rank_by(ws: Path) -> None:
    q = talk(ws, "订单.csv 的 top 5 给我")[0]
    assert q.next == "ask_slots"
    assert choices(q.reply) == ["日期", "份数", "金额"]  # never 订单号 or 门店: text cannot be ranked
    for c in choices(q.reply):
        d = talk(ws, "订单.csv 的 top 5 给我", c)[1]
        assert d.next not in ASKING, (c, d.reply)
        assert c in d.reply  # restated with the column typed back
    _, said, then = talk(ws, "订单.csv 的 top 5 给我", "订单号", "金额")
    assert "不是数值或日期列" in said.reply and "金额" in said.reply and "没有我能对上" not in said.reply
    assert then.next == "restate_confirm" and "金额" in then.reply and "订单号" not in then.reply  # the unfit answer is not kept


def test_statistics_offer_numeric_columns_and_each_is_taken(ws: Path) -> None:
    q = talk(ws, "Standard deviation for bookings.csv")[0]
    assert q.next == "ask_slots"
    assert choices(q.reply) == ["nights", "price_per_night"]
    for c in choices(q.reply):
        d = talk(ws, "Standard deviation for bookings.csv", c)[1]
        assert d.next not in ASKING and c in d.reply, (c, d.reply)


def test_a_column_answers_the_column_question_asked_after_the_sheet_question(ws: Path) -> None:
    first, second, third = talk(ws, "成绩.xlsx 排个序", "数学", "期末")
    assert "期中" in first.reply and "按哪一列排序" in first.reply
    assert second.next == "ask_slots" and "期末" in second.reply and "按哪一列排序" not in second.reply  # only the sheet is still asked
    assert third.next not in ASKING and "期末" in third.reply and "数学" in third.reply


def test_a_growth_column_typed_back_is_the_column_not_growth_rate(ws: Path) -> None:
    q, d = talk(ws, "month over month growth in bookings.csv", "nights")
    assert q.next == "ask_slots" and "nights" in choices(q.reply) and "booking_id" not in choices(q.reply)
    assert d.next not in ASKING and "growth of nights" in d.reply, d.reply


def test_an_english_chart_answer_stays_english(ws: Path) -> None:
    q, d = talk(ws, "make a bar chart by hotel in bookings.csv", "nights")
    assert q.next == "ask_slots" and choices(q.reply)[:2] == ["nights", "price_per_night"]
    assert d.next not in ASKING and "nights" in d.reply
    assert not CJK.search(q.reply + d.reply), d.reply


def test_a_period_over_a_table_without_dates_offers_no_other_column(ws: Path) -> None:
    d = talk(ws, "properties.csv rows for March 2024")[0]
    assert d.next == "ask_slots" and "no date column" in d.reply
    assert not choices(d.reply)  # hotel, city, rooms are not dates: none is offered
    q = talk(ws, "只看上半年的")[0]  # which file? only the tables with a date column can take a half-year
    assert q.next == "ask_slots" and "properties.csv" not in q.reply and "订单.csv" in q.reply and "bookings.csv" in q.reply


def test_a_column_name_one_letter_off_is_read_and_said(ws: Path) -> None:
    d = talk(ws, "average price_per_nigth in bookings.csv")[0]
    assert d.next == "restate_confirm", d.reply
    assert "price_per_night" in d.reply and "price_per_nigth" in d.reply  # read as the column, and said so
    assert "group" not in d.reply.casefold()  # "per" inside the name is no grouping


def test_every_offered_choice_typed_back_is_taken(ws: Path) -> None:
    requests = ["订单.csv 的 top 5 给我", "成绩.xlsx 排个序", "算一下 订单.csv 的平均数", "month over month growth in bookings.csv",
                "make a bar chart by hotel in bookings.csv", "帮我把订单.csv排个序", "按哪个门店汇总？订单.csv", "sort bookings.csv",
                "筛选一下", "Standard deviation for bookings.csv", "只看上半年的"]
    counts, cases = run(ws, [{"utterance": u} for u in requests], per_question=4)
    assert counts["typed_back"] >= 25
    assert counts["taken"] == counts["typed_back"], cases


def test_the_classifier_tells_a_repeated_question_from_progress() -> None:
    q = "OK, sort bookings.csv. Sort by which column? Columns: nights, price_per_night"
    assert classify(q, "nights", q, "ask_slots") == "same"
    assert classify(q, "nights", "I could not match a column in “nights”.", "ask_slots") == "rejected"
    assert classify(q, "nights", "OK, sort bookings.csv. Which sheet?", "ask_slots") == "taken"
    assert classify(q, "nights", "Here is what I understood: …", "restate_confirm") == "taken"


def test_growth_of_the_row_count_is_offered_and_runs(ws: Path) -> None:
    from test_letter_case import talk as confirmed

    q = talk(ws, "订单.csv 按月算环比增长率")[0]
    assert q.next == "ask_slots" and "行数" in q.reply
    tr = confirmed(ws, "订单.csv 按月算环比增长率", "行数")
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    got = tr.run.table
    d = pd.read_csv(ws / "订单.csv", parse_dates=["日期"])
    want = d.groupby(d["日期"].dt.to_period("M")).size()
    assert list(got["行数"]) == list(want.values)
    growth = (want - want.shift(1)) / want.shift(1) * 100
    assert got["环比增长(%)"].iloc[1:].round(2).tolist() == growth.iloc[1:].round(2).tolist()
    en = confirmed(ws, "number of bookings in bookings.csv, month over month growth")  # said in English, counted the same way
    assert en.run is not None and en.run.status == "answered", en.decision.reply
    b = pd.read_csv(ws / "bookings.csv", parse_dates=["check_in"])
    assert en.run.table.iloc[:, 1].tolist() == b.groupby(b["check_in"].dt.to_period("M")).size().tolist()


def test_a_period_is_of_the_date_column_the_request_names(ws: Path) -> None:
    d = talk(ws, "monthly number of bookings for 2024 based on check_in in bookings.csv")[0]
    assert d.next in ("restate_confirm", "execute"), d.reply
    q = d.request.ops if d.request else ()
    conds = [c for o in q for c in o.args.get("conditions", [])]
    assert conds and all(c.column == "check_in" for c in conds)


def test_a_count_over_periods_as_a_chart_asks_which_date_and_takes_count(ws: Path, tmp_path: Path) -> None:
    import shutil

    from test_letter_case import talk as confirmed

    root = tmp_path / "two_dates"
    shutil.copytree(ws, root)
    b = pd.read_csv(root / "bookings.csv")
    b["check_out"] = (pd.to_datetime(b["check_in"]) + pd.to_timedelta(b["nights"], unit="D")).dt.strftime("%Y-%m-%d")
    b.to_csv(root / "bookings.csv", index=False)
    q = talk(root, "weekly line chart for bookings.csv")[0]
    assert q.next == "ask_slots" and "count" in q.reply
    d = talk(root, "weekly line chart for bookings.csv", "count")[1]
    assert d.next == "ask_slots" and choices(d.reply) == ["check_in", "check_out"], d.reply  # which date the weeks are of
    tr = confirmed(root, "weekly line chart for bookings.csv", "count", "check_in")
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.reply, tr.run and tr.run.answer)
    want = pd.to_datetime(b["check_in"]).dt.to_period("W").value_counts().sort_index()
    assert tr.run.table.iloc[:, 1].tolist() == want.tolist()


def test_the_language_before_the_first_request_follows_the_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from repl.loop import start_language

    for v in ("WENQING_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(v, raising=False)
    en, zh = tmp_path / "en", tmp_path / "zh"
    en.mkdir()
    zh.mkdir()
    pd.DataFrame({"a": [1]}).to_csv(en / "tickets.csv", index=False)
    pd.DataFrame({"a": [1]}).to_csv(zh / "销售.csv", index=False)
    assert start_language(Workspace.at(en)) == "en" and start_language(Workspace.at(zh)) == "zh"
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert start_language(Workspace.at(en)) == "zh"  # a Chinese desktop speaks Chinese
    monkeypatch.setenv("WENQING_LANG", "en")
    assert start_language(Workspace.at(zh)) == "en"  # said outright


def test_an_english_answer_completes_the_request_in_english(ws: Path) -> None:
    s = Session(Workspace.at(ws), dry_run=True)
    s.turn("sort bookings.csv")
    d = s.turn("nights").decision
    assert d.next not in ASKING and "nights" in d.reply
    assert s.state.pending is not None and not any(CJK.search(t) for t in s.state.pending.turns), s.state.pending.turns
    s = Session(Workspace.at(ws), dry_run=True)
    s.turn("bookings.csv keep some columns")
    s.turn("hotel and nights")
    assert s.state.pending is not None and not any(CJK.search(t) for t in s.state.pending.turns), s.state.pending.turns


def test_a_join_key_said_in_its_own_clause_is_the_key(ws: Path) -> None:
    for said in ("join bookings.csv with properties.csv, using hotel", "合并 bookings.csv 和 properties.csv，通过hotel"):
        d = talk(ws, said)[0]
        ops = d.request.ops if d.request else ()
        assert d.next not in ASKING and any(o.kind == "join" and o.args.get("on") == "hotel" for o in ops), (said, d.reply)


def test_a_bare_no_asks_what_to_change_and_the_next_turn_changes_it(ws: Path) -> None:
    for no, then, lang in (("no, that's wrong", "by hotel instead", "en"), ("不对", "改成按 hotel", "zh")):
        s = Session(Workspace.at(ws), dry_run=True)
        first = s.turn("bookings.csv average price_per_night, maybe by check_in" if lang == "en" else "bookings.csv 按 check_in 算 price_per_night 平均，大概").decision
        d = s.turn(no).decision
        assert d.next == "ask_slots" and d.reply != first.reply, d.reply  # never the same restatement again
        assert ("what should change" in d.reply) if lang == "en" else ("哪里不对" in d.reply)
        e = s.turn(then).decision
        q = e.request.ops if e.request else ()
        assert any(o.kind == "group" and o.args.get("keys") == ["hotel"] for o in q), e.reply


def test_a_date_column_named_after_a_verb_is_the_column_of_that_verb(ws: Path) -> None:
    d = talk(ws, "bookings checked after 2024-06-30")[0]  # check_in: 'checked' is no verb of it, so nothing is assumed
    conds = [c for o in (d.request.ops if d.request else ()) for c in o.args.get("conditions", [])]
    assert all(c.column in (None, "check_in") for c in conds)
    import shutil

    root = ws.parent / "verbs"
    if not root.exists():
        root.mkdir()
        b = pd.read_csv(ws / "bookings.csv").rename(columns={"check_in": "booked_at"})
        b["cancelled_at"] = (pd.to_datetime(b["booked_at"]) + pd.Timedelta(days=3)).dt.strftime("%Y-%m-%d")  # two date columns
        b.to_csv(root / "bookings.csv", index=False)
        shutil.copy(ws / "properties.csv", root / "properties.csv")
    e = talk(root, "bookings booked after 2024-06-30")[0]
    conds = [c for o in (e.request.ops if e.request else ()) for c in o.args.get("conditions", [])]
    assert conds and all(c.column == "booked_at" for c in conds), e.reply


@pytest.mark.parametrize("request_", ["join bookings.csv with properties.csv, then count bookings by city",
                                      "把 bookings.csv 和 properties.csv 关联一下，然后按city数一下"])
def test_a_join_key_typed_back_keeps_both_files_and_the_rest(ws: Path, tmp_path: Path, request_: str) -> None:
    import shutil

    shutil.copy(ws / "bookings.csv", tmp_path / "bookings.csv")  # two columns in common (hotel, nights): the key is asked
    pd.read_csv(ws / "properties.csv").assign(nights=1).to_csv(tmp_path / "properties.csv", index=False)
    s = Session(Workspace.at(tmp_path), dry_run=True)
    q = s.turn(request_).decision
    assert q.next == "ask_slots" and "hotel" in choices(q.reply), q.reply
    d = s.turn("hotel").decision
    assert d.next == "restate_confirm", d.reply  # never the file question again
    ops = d.request.ops if d.request else ()
    assert any(o.kind == "join" and o.args.get("on") == "hotel" for o in ops) and any(o.kind == "group" for o in ops)
    assert (CJK.search(d.reply) is None) == request_.startswith("join")  # a column typed back keeps the session's language


def test_every_choice_offered_over_the_tuning_set_is_taken(tmp_path: Path) -> None:
    """The tuning set's questions (its workspace copied first): each offered choice, typed back alone, is taken."""
    import shutil

    from benchmarks.answer_back import read_items

    root = Path(__file__).resolve().parent.parent / "benchmarks" / "tuning"
    ws = tmp_path / "ws"
    shutil.copytree(root / "workspace", ws)
    counts, cases = run(ws, read_items(root / "decisions.jsonl"), per_question=3)
    assert counts["typed_back"] >= 90  # (a floor of coverage: fewer questions asked over the set is the aim, not fewer choices taken)
    assert counts["taken"] == counts["typed_back"], cases[:3]


def test_a_file_typed_to_which_file_fills_the_request_and_a_date_is_no_file_name(ws: Path) -> None:
    s = Session(Workspace.at(ws), dry_run=True)
    s.turn("筛选一下订单.csv")
    d = s.turn("日期小于2024-03-05").decision  # a date with dashes: a condition, never a missing file's name
    assert d.next == "restate_confirm" and "2024-03-05" in d.reply and "工作区里没有" not in d.reply, d.reply
    s = Session(Workspace.at(ws), dry_run=True)
    q = s.turn("销售台账2023.xlsx 里金额大于100的").decision
    assert q.next == "ask_slots" and "订单.csv" in choices(q.reply), q.reply
    e = s.turn("订单.csv").decision
    assert e.next in ("restate_confirm", "execute") and "订单.csv" in (e.request.file or ""), e.reply


def test_a_column_typed_to_an_operations_own_question_joins_that_operation(ws: Path) -> None:
    s = Session(Workspace.at(ws), dry_run=True)
    s.turn("做个透视表，再画成柱状图")
    q = s.turn("订单.csv").decision
    assert "按哪一列分组" in q.reply and "。图上画哪一列" in q.reply, q.reply  # two questions, each its own sentence
    d = s.turn("门店").decision
    assert "按哪一列分组" not in d.reply and "没有我能对上" not in d.reply, d.reply  # the grouping is answered
    assert d.next == "ask_slots" and "图上画哪一列" in d.reply  # only the chart's own question is left


def test_a_column_whose_name_sounds_like_talk_is_an_answer(tmp_path: Path) -> None:
    pd.DataFrame({"姓名": ["甲", "乙", "丙"], "加班费": [300, 120, 560], "辛苦费": [10, 20, 30]}).to_csv(tmp_path / "工资.csv", index=False)
    for column in ("加班费", "辛苦费"):
        s = Session(Workspace.at(tmp_path), dry_run=True)
        q = s.turn("工资.csv 排个序").decision
        assert column in choices(q.reply)
        d = s.turn(column).decision
        assert d.next == "restate_confirm" and f"按 {column}" in d.reply, d.reply  # never small talk about overtime
