"""Reading words: the segmenter with the workspace's data words, and which words a reading may leave out."""

from __future__ import annotations

import pytest

from modes import evidence
from modes.tagging import segment

DATA = frozenset({"性别", "女", "男", "部门", "销售部", "徐汇区", "区"})


def left(text: str, consumed: list[tuple[int, int]] | None = None) -> list[str]:
    return evidence.unexplained(text, consumed or [], (), DATA)


def test_a_data_word_is_one_word_and_counts_whatever_its_length() -> None:
    segment.add_data_words(DATA)
    words = [t.word for t in segment.tokens("徐汇区评分最高的两家") or []]
    assert "徐汇区" in words
    assert left("女的有几个") == ["女"]


@pytest.mark.parametrize("text", ["麻烦帮我筛一下，谢谢", "做完发给领导看", "条件改成这样吧"])
def test_politeness_purpose_and_words_about_the_request_never_count(text: str) -> None:
    assert left(text) == []


@pytest.mark.parametrize(("text", "words"), [
    ("并且要看物流时效", ["物流时效"]),         # one phrase, not 物流 and 时效 apart
    ("顺便算一下波动性", ["波动性"]),
    ("销售部以外的", ["销售部以外"]),            # a value and an exclusion no rule read: one phrase, it counts
])
def test_words_left_out_are_named_whole(text: str, words: list[str]) -> None:
    assert left(text) == words


def test_without_a_segmenter_characters_are_read_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(segment._state, "pos", None)
    assert segment.tokens("物流时效") is None
    assert evidence.unexplained("并且要看物流时效", [], (), DATA) == evidence.unexplained("并且要看物流时效", [])
