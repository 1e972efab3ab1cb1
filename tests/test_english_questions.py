"""English look-up questions over a generated table: each answer is recomputed with pandas; an uncertain
reading is restated, never run as something else."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engine.session import Session, TurnResult
from modes.catalog import SheetInfo
from modes.opspecs.english import column_hits, read_question
from modes.resolve import find_columns
from tools.workspace import Workspace

NAMES = ["Ana Silva", "Ben Okoro", "Carla Diaz", "Dan Wu", "Eva Berg", "Femi Ade", "Gus Lee", "Hana Mori", "Ivo Petrov", "Jon Kent",
         "Kim Park", "Luis Rey"]


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    r = tmp_path_factory.mktemp("enq")
    rng = np.random.default_rng(11)
    n = len(NAMES)
    pd.DataFrame({
        "player": NAMES,
        "country": rng.choice(["Kenya", "Brazil", "Japan", "Norway"], n),
        "team_name": rng.choice(["Red Owls", "Blue Sharks", "Green Foxes"], n),
        "score": rng.integers(55, 90, n),
        "rounds": rng.integers(1, 6, n),
        "position": rng.choice(["guard", "forward", "center"], n),
    }).to_csv(r / "roster.csv", index=False)
    return r


def table(root: Path) -> pd.DataFrame:
    return pd.read_csv(root / "roster.csv")


def ask(root: Path, text: str) -> TurnResult:
    return Session(Workspace.at(root)).turn(text)


def values_in(answer: str, col: str, expected: list[object]) -> None:
    """The answer names the column and every expected value, in the order of the table."""
    assert f"{col}: " in answer, answer
    said = answer.split(f"{col}: ", 1)[1]
    for v in expected:
        assert str(v) in said, (v, answer)


def _where(f: Callable[[pd.DataFrame], pd.Series], col: str) -> Callable[[pd.DataFrame], list[object]]:
    return lambda df: df.loc[f(df), col].tolist()


# (question, answer column, the expected values computed with pandas)
RUNS = [
    ("what is the score of Ana Silva?", "score", _where(lambda d: d.player == "Ana Silva", "score")),
    ("what was the country for ben okoro?", "country", _where(lambda d: d.player == "Ben Okoro", "country")),
    ("name the team name for Carla Diaz", "team_name", _where(lambda d: d.player == "Carla Diaz", "team_name")),
    ("who is the player with a score of {score0}?", "player", lambda d: d.loc[d.score == d.score[0], "player"].tolist()),
    ("what are the scores of the players from Kenya?", "score", _where(lambda d: d.country == "Kenya", "score")),
    ("list the players whose position is guard and whose score is at least 70", "player",
     _where(lambda d: (d.position == "guard") & (d.score >= 70), "player")),
    ("what is the position of the player whose score is between 60 and 75?", "position",
     _where(lambda d: d.score.between(60, 75), "position")),
    ("which players have fewer than 3 rounds?", "player", _where(lambda d: d.rounds < 3, "player")),
    ("show the player and country with a score more than 80", "player", _where(lambda d: d.score > 80, "player")),
    ("what's the position for Dan Wu?", "position", _where(lambda d: d.player == "Dan Wu", "position")),
    ("what is the rounds when Eva Berg is the player?", "rounds", _where(lambda d: d.player == "Eva Berg", "rounds")),
    ("give me the country of the player from the Blue Sharks team name", "country", _where(lambda d: d.team_name == "Blue Sharks", "country")),
]


@pytest.mark.parametrize("question,col,expect", RUNS, ids=[q for q, _, _ in RUNS])
def test_a_lookup_question_answers_exactly_what_pandas_finds(root: Path, question: str, col: str, expect: Callable[[pd.DataFrame], list[object]]) -> None:
    df = table(root)
    question = question.format(score0=df.score[0])
    s = Session(Workspace.at(root))
    tr = s.turn(question)
    if tr.run is None and tr.decision.next == "restate_confirm":
        assert "look up" in tr.decision.reply, tr.decision.reply
        tr = s.turn("go")
    assert tr.run is not None, (tr.decision.next, tr.decision.reply)
    expected = expect(df)
    if not expected:
        assert tr.run.status == "insufficient_context"
        return
    assert tr.run.status == "answered", tr.run.answer
    values_in(tr.run.answer or "", col, expected[:10])
    assert not tr.run.files, "a question is answered, not saved"


SURE = ["what is the score of Ana Silva?", "what's the position for Dan Wu?", "who is the player with a score of 70?"]


@pytest.mark.parametrize("question", SURE)
def test_a_lookup_with_named_column_and_a_value_of_the_data_runs_without_asking(root: Path, question: str) -> None:
    tr = ask(root, question)
    assert tr.decision.next == "execute", tr.decision.reply


@pytest.mark.parametrize("question", [
    "what is the score for Zed Unknown?",             # a value no column holds: the column is a guess, said
    "what is the score of the golfer from peru?",     # golfer, peru: words nothing reads
])
def test_an_uncertain_lookup_is_restated_never_run(root: Path, question: str) -> None:
    tr = ask(root, question)
    assert tr.run is None and tr.decision.next in ("restate_confirm", "ask_slots", "ask_intent"), tr.decision.reply


COLS = ("player", "country", "team_name", "score", "rounds", "position")
SHEET = SheetInfo(None, COLS, numeric=frozenset({"score", "rounds"}))


@pytest.mark.parametrize("question", [
    "how many players have a score over 70?",
    "what is the average score for Kenya?",
    "which player has the highest score?",
    "what is the total of rounds for the guards?",
    "list the distinct countries",
    "what is the most common position?",
])
def test_aggregates_and_rankings_are_not_lookups(question: str) -> None:
    assert read_question(question, find_columns(question, SHEET), SHEET) is None


@pytest.mark.parametrize("question,conds", [
    ("what is the score for player Ana Silva?", [("player", "eq", "Ana Silva")]),
    ("what is the rounds for a score after 60 and a position of center?", [("score", "gt", 60), ("position", "eq", "center")]),
    ("what is the country with a score under 70 and rounds at most 2?", [("score", "lt", 70), ("rounds", "le", 2)]),
    ("what is the team name when the score is more than 1,000?", [("score", "gt", 1000)]),
    ("who is the player with a team name of red owls?", [("team_name", "eq", "red owls")]),
])
def test_condition_clauses(question: str, conds: list[tuple[str, str, object]] | None) -> None:
    r = read_question(question, find_columns(question, SHEET), SHEET)
    assert r is not None
    got = [(c.column, c.op, c.value) for c in r.conds]
    if conds is not None:
        assert got == conds


def test_plural_singular_and_spaced_column_names_are_found() -> None:
    sheet = SheetInfo(None, ("candidates", "team_name", "category"))
    hits = column_hits("the candidate of the team name in categories", [], sheet)
    assert [h.column for h in hits] == ["candidates", "team_name", "category"]


@pytest.mark.parametrize("request_text,measure,rows", [
    ("what is the average score per position in roster.csv?", "score_mean", "rows"),
    ("total rounds for each country in roster.csv", "rounds_sum", "rows"),
    ("按 position 统计 roster.csv 的 score 平均值", "score_平均", "行数"),
])
def test_summary_columns_are_named_in_the_language_of_the_request(root: Path, request_text: str, measure: str, rows: str) -> None:
    s = Session(Workspace.at(root))
    tr = s.turn(request_text)
    if tr.run is None and tr.decision.next == "restate_confirm":
        tr = s.turn("go")
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    got = pd.read_csv(root / tr.run.files[0]["path"])
    key = "country" if "country" in request_text else "position"
    df = table(root)
    column, agg = ("rounds", "sum") if "rounds" in request_text else ("score", "mean")
    expected = df.groupby(key)[column].agg(agg)
    assert list(got.columns) == [key, measure, rows]
    assert dict(zip(got[key], got[measure], strict=True)) == pytest.approx(expected.to_dict())
    assert dict(zip(got[key], got[rows], strict=True)) == df.groupby(key).size().to_dict()


@pytest.mark.parametrize("request_text,test_name", [
    ("t-test of score by position in roster.csv", "difference"),
    ("chi-square test of country and position in roster.csv", "chi"),
    ("is there a significant association between country and position in roster.csv?", "chi"),
    ("anova of score across positions in roster.csv", "difference"),
])
def test_statistical_test_words_are_tests_never_file_names(root: Path, request_text: str, test_name: str) -> None:
    tr = ask(root, request_text)
    assert tr.decision.request.file == "roster.csv" and not tr.decision.request.missing_file_name, tr.decision.reply
    op = tr.decision.request.op("stat_test")
    assert op is not None and op.args["test"] == test_name, tr.decision.reply
    assert "not understood" not in tr.decision.reply, tr.decision.reply


def test_a_hyphenated_column_in_the_plural_is_a_column_not_a_missing_file(tmp_path: Path) -> None:
    pd.DataFrame({"wins": [1, 2, 0], "top-10": [1, 3, 1], "top-25": [4, 6, 2], "events": [10, 15, 12]}).to_csv(tmp_path / "golf.csv", index=False)
    tr = Session(Workspace.at(tmp_path)).turn("what is the number of top-25s in events under 13 and 1 top-10?")
    assert tr.decision.request.file == "golf.csv", tr.decision.reply
    assert tr.decision.next == "restate_confirm" and "not a count" in tr.decision.reply, tr.decision.reply
