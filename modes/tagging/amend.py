"""A change said to a restated request that waits: 对，但是只要前5个 / yes but only the top 5 / 只看前3个. Read as spans at
the start of the text (a confirming word, then "but", then the change); the words are data (words.toml [amend])."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from modes.tagging.segment import words_toml


@dataclass(frozen=True)
class Amendment:
    change: str  # the text of the change, the confirming word and "but" taken off
    confirmed: bool  # a confirming word opened the turn (对，但是… / yes but …)


def _alternatives(words: list[str] | tuple[str, ...]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    from modes.lexicon import CONFIRM_WORDS

    w = words_toml()["amend"]
    zh_but, en_but = _alternatives(w["but_zh"]), _alternatives(w["but_en"])
    confirm = _alternatives([c for c in CONFIRM_WORDS if c not in ("it", "do", "please", "run", "let's", "lets", "ahead")])
    but = rf"(?:{zh_but}|(?:{en_but})(?![a-z_]))"
    # the confirming word ends at a mark or at "but": 对了 / good morning / 是否… open no change
    lead = re.compile(rf"^\s*(?:{confirm})(?![a-z_])(?:\s*[,，。.!！]+\s*(?:{but}\s*[,，]?)?|\s*{but}\s*[,，]?)\s*(?P<change>\S.*)$", re.I)
    only = re.compile(rf"^\s*(?:(?:{zh_but})|(?:{en_but})(?![a-z_]))?\s*[,，]?\s*(?:{_alternatives(w['only_zh'])}|(?:{_alternatives(w['only_en'])})(?![a-z_]))", re.I)
    return lead, only


def amendment(text: str) -> Amendment | None:
    """The change a turn makes to what waits, or None when the turn opens with no "yes … but" and no "only"."""
    lead, only = _patterns()
    m = lead.match(text)
    if m is not None and m.group("change").strip(" ,，。.!！"):
        return Amendment(m.group("change").strip(), True)
    if only.match(text):
        return Amendment(text.strip(), False)
    return None
