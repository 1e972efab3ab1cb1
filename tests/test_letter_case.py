"""Changing the letter case of text columns: 统一改为大写 / 小写 / 首字母大写, make the State column upper case."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from engine.session import Session, TurnResult
from tools.errors import ToolArgError
from tools.registry import call
from tools.workspace import Workspace

UPPER: Callable[[pd.Series], pd.Series] = lambda s: s.str.upper()  # noqa: E731
LOWER: Callable[[pd.Series], pd.Series] = lambda s: s.str.lower()  # noqa: E731
TITLE: Callable[[pd.Series], pd.Series] = lambda s: s.str.title()  # noqa: E731


def stores() -> pd.DataFrame:
    return pd.DataFrame({
        "State": ["ny", "Ca", "tX", None, "wa", "北京", "nY"],
        "City": ["new york", "los ANGELES", "austin", "boston", None, "haidian qu", "albany"],
        "Sales": [120, 340, 75, 90, 410, 66, 15],
        "Code": ["a-1", "B-2", "c-3", "d-4", "e-5", "f-6", "g-7"],
    })


@pytest.fixture
def root(tmp_path: Path) -> Path:
    stores().to_csv(tmp_path / "stores.csv", index=False)
    return tmp_path


def talk(root: Path, *turns: str) -> TurnResult:
    s = Session(Workspace.at(root))
    tr = None
    for t in turns:
        tr = s.turn(t)
    assert tr is not None
    if tr.run is None and tr.decision.next in ("restate_confirm", "plan_confirm"):
        tr = s.turn("继续")
    return tr


def written(root: Path, tr: TurnResult) -> pd.DataFrame:
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.reply, tr.run and tr.run.answer)
    paths = [f["path"] for f in tr.run.files if f["path"].endswith(".csv")]
    assert paths and all(p.startswith("outputs/") for p in paths), paths
    return pd.read_csv(root / paths[0])


@pytest.mark.parametrize("text, columns, change", [
    ("把 State 列统一改为大写", ["State"], UPPER),
    ("State列改成小写", ["State"], LOWER),
    ("City 首字母大写", ["City"], TITLE),
    ("把State和City都改成大写", ["State", "City"], UPPER),
    ("stores.csv 里的 City 全部转成小写", ["City"], LOWER),
    ("make the State column upper case", ["State"], UPPER),
    ("convert City to lowercase", ["City"], LOWER),
    ("capitalize City", ["City"], TITLE),
    ("uppercase the State and Code columns", ["State", "Code"], UPPER),
    ("put City in title case", ["City"], TITLE),
])
def test_the_columns_named_change_case_in_a_new_file(root: Path, text: str, columns: list[str], change: Callable[[pd.Series], pd.Series]) -> None:
    source = (root / "stores.csv").read_bytes()
    tr = talk(root, text)
    assert tr.decision.request.kinds() == ["letter_case"], (tr.decision.request.kinds(), tr.decision.reply)
    got = written(root, tr)
    expected = stores()
    for c in columns:
        expected[c] = change(expected[c])
    pd.testing.assert_frame_equal(got, expected, check_dtype=False)
    assert (root / "stores.csv").read_bytes() == source  # the source is never written
    cells = sum(int((change(stores()[c]) != stores()[c]).where(stores()[c].notna(), False).sum()) for c in columns)
    assert f"{cells:,}" in (tr.run.answer or "")  # type: ignore[union-attr]


@pytest.mark.parametrize("text", ["全部改成大写", "把 Sales 改成大写", "make it lower case"])
def test_without_a_text_column_it_asks_and_writes_nothing(root: Path, text: str) -> None:
    tr = talk(root, text)
    assert tr.run is None and tr.decision.next == "ask_slots", tr.decision.reply
    assert "大小写" in tr.decision.reply or "letter case" in tr.decision.reply
    assert not (root / "outputs").exists() or not any((root / "outputs").iterdir())


@pytest.mark.parametrize("turns, column, change", [
    (("全部改成大写", "State"), "State", UPPER),
    (("把文字改成小写", "用 City 这一列"), "City", LOWER),
    (("make it title case", "City"), "City", TITLE),
])
def test_an_answer_to_its_question_fills_the_column(root: Path, turns: tuple[str, str], column: str, change: Callable[[pd.Series], pd.Series]) -> None:
    tr = talk(root, *turns)
    expected = stores()
    expected[column] = change(expected[column])
    pd.testing.assert_frame_equal(written(root, tr), expected, check_dtype=False)


@pytest.mark.parametrize("text", ["stores.csv 里 City 包含 york 的行，不区分大小写", "筛选 State 以大写字母开头的行"])
def test_words_about_letters_are_not_a_case_change(root: Path, text: str) -> None:
    tr = talk(root, text)
    assert "letter_case" not in tr.decision.request.kinds()


def test_the_tool_refuses_what_has_no_case() -> None:
    df = stores()
    with pytest.raises(ToolArgError) as e:
        call("change_case", {"table": df, "columns": ["Sales"], "case": "upper"})
    assert "不是文本列" in e.value.zh
    with pytest.raises(ToolArgError):
        call("change_case", {"table": df, "columns": ["State"], "case": "sideways"})
    r = call("change_case", {"table": df, "columns": ["State"], "case": "lower"})
    pd.testing.assert_series_equal(r.data["State"], df["State"].str.lower())
    assert r.facts["changed"] == int(((df["State"].str.lower() != df["State"]) & df["State"].notna()).sum()) == 3  # Ca, tX, nY
    assert df["State"].tolist()[1] == "Ca"  # the input table is not changed
