"""Chinese words with their part-of-speech class, from jieba, with the workspace's data words added to its dictionary.

Loaded the first time a request leaves words no rule read (most requests never need it); a missing or damaged
segmenter leaves `tokens` returning None, and callers read characters as before.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from modes.text import CJK

DATA_FREQ = 2_000_000  # a data word of the workspace wins over the general words around it (徐汇区 stays one word)


@dataclass(frozen=True)
class Token:
    word: str
    start: int
    end: int
    pos: str


@dataclass(frozen=True)
class Words:
    politeness: frozenset[str]
    request: frozenset[str]
    purpose: frozenset[str]
    operative: frozenset[str]
    function_classes: tuple[str, ...]


@cache
def words_toml() -> dict[str, Any]:
    """words.toml, read once."""
    return tomllib.loads((Path(__file__).parent / "words.toml").read_text(encoding="utf-8"))


def word_alternation(words: Iterable[str]) -> str:
    """A lexicon's words as one regex alternation: escaped, longest first, a space matching any run of spaces."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


@cache
def declined_lead() -> str:
    """The words that say a step is not to be done (不要 / 别 / no / without), as a regex alternation, from words.toml
    [drop_step]; never those that ask for one (remove / drop / 去掉 … remove duplicates), nor 别 inside a word (类别)."""
    w = words_toml()["drop_step"]
    zh = [x for x in w["lead_zh"] if not x.startswith("去掉") and x != "别"]
    en = [x for x in w["lead_en"] if x not in ("remove", "drop")]
    return rf"(?:{word_alternation(zh)}|(?<![\u4e00-\u9fff])别|(?<![a-z_])(?:{word_alternation(en)})(?![a-z_]))"


@cache
def words() -> Words:
    """The word lists of words.toml, read once."""
    data = words_toml()
    return Words(frozenset(data["function"]["politeness"]), frozenset(data["function"]["request"]), frozenset(data["function"]["purpose"]),
                 frozenset(data["operative"]["words"]), tuple(data["classes"]["function"]))


_state: dict[str, Any] = {}


def _tokenizer() -> Any:
    """jieba's part-of-speech tokenizer, loaded once; None when jieba is missing or cannot load its dictionary."""
    if "pos" not in _state:
        try:
            import logging

            import jieba
            import jieba.posseg

            jieba.setLogLevel(logging.ERROR)
            jieba.initialize()
            _state["jieba"], _state["pos"], _state["added"] = jieba, jieba.posseg.POSTokenizer(jieba.dt), set()
            _state["pos"].makesure_userdict_loaded()
            _state["total"], _state["was"] = jieba.dt.total, {}  # what the shipped dictionary said of each word added
        except Exception:  # noqa: BLE001  (an absent or damaged segmenter: characters are read as before)
            _state["pos"] = None
    return _state["pos"]


def available() -> bool:
    return _tokenizer() is not None


def words_inside(run: str) -> list[str] | None:
    """The words of the shipped dictionary (two to four characters) inside a run of Chinese, never the run itself, in
    the order they begin (幼儿园缴费: 幼儿, 幼儿园, 缴费); None without a segmenter. A data word added for the workspace
    counts only as the shipped dictionary had it."""
    if _tokenizer() is None:
        return None
    freq, was = _state["jieba"].dt.FREQ, _state["was"]
    out = []
    for i in range(len(run)):
        for k in (2, 3, 4):
            g = run[i : i + k]
            if len(g) == k and g != run and ((was[g][0] if g in was else freq.get(g)) or 0) > 0:
                out.append(g)
    return out


def reset_data_words() -> None:
    """Forget the data words of the workspaces read before: a session reads its own workspace's words only, whatever
    ran earlier in the same process (the segmenter's dictionary is shared). Nothing to do before it is loaded."""
    if _state.get("pos") is None or not _state.get("added"):
        return
    dt, tags = _state["jieba"].dt, _state["pos"].word_tag_tab
    for key, (freq, tag) in _state["was"].items():  # each word (and each start of one) as the shipped dictionary had it
        if freq is None:
            dt.FREQ.pop(key, None)
        else:
            dt.FREQ[key] = freq
        if tag is None:
            tags.pop(key, None)
        else:
            tags[key] = tag
    dt.total, dt.user_word_tag_tab = _state["total"], {}
    _state["added"], _state["was"] = set(), {}


def add_data_words(found: Iterable[str]) -> None:
    """File stems, sheet and column names, cell values: whole words of the dictionary, winning over general words."""
    if _tokenizer() is None:
        return
    added: set[str] = _state["added"]
    for w in found:
        w = w.strip()
        if w and w not in added and len(w) <= 20 and all(CJK.match(ch) for ch in w):
            was, dt, tags = _state["was"], _state["jieba"].dt, _state["pos"].word_tag_tab
            for key in (w[:k] for k in range(1, len(w) + 1)):  # (add_word writes the word and each start of it)
                was.setdefault(key, (dt.FREQ.get(key), tags.get(key)))
            _state["jieba"].add_word(w, freq=DATA_FREQ, tag="nz")
            added.add(w)


GENERAL_FREQ = 100  # a word the segmenter's dictionary counts this often is a word of the language, not a slip of the keys


def general_word(word: str) -> bool:
    """A common word of the language in its own right (数据, 表格), never one of the workspace's data words: it is
    what was meant, never a typo of a name one character away (数据 is no 数量). False without a segmenter."""
    if _tokenizer() is None or word in _state["added"]:
        return False
    return int(_state["jieba"].dt.FREQ.get(word) or 0) >= GENERAL_FREQ


def tokens(text: str) -> list[Token] | None:
    """The words of text in order, with their spans and classes; None without a segmenter."""
    tk = _tokenizer()
    if tk is None:
        return None
    out: list[Token] = []
    at = 0
    for pair in tk.cut(text):
        w = pair.word
        i = text.find(w, at)
        if i < 0:
            continue
        out.append(Token(w, i, i + len(w), pair.flag))
        at = i + len(w)
    return out


def is_content(tok: Token, data: frozenset[str]) -> bool:
    """A word that says something of its own: a data word, an operative word, or a word of a content class."""
    ws = words()
    if tok.word in data:
        return True
    if tok.word in ws.operative:
        return True
    if len(tok.word) < 2 or tok.word in ws.politeness or tok.word in ws.request or tok.word in ws.purpose:
        return False
    return not tok.pos.startswith(ws.function_classes)


def function_word(word: str) -> bool:
    """A word the segmenter reads as one word of a class with no content of its own (一下, 一些, 这样): never a
    column's name in another language. False without a segmenter."""
    toks = tokens(word) if CJK.search(word) else None
    return toks is not None and len(toks) == 1 and toks[0].pos.startswith(words().function_classes)
