"""What a typed line goes through before understanding sees it: text that cannot be encoded is replaced,
control characters become spaces, and a line longer than any request is answered at once with a clear
message instead of being read."""

from __future__ import annotations

import re

from modes.catalog import Catalog
from modes.decision import Decision, Request, SessionState
from modes.dialogue import decide
from modes.text import language

MAX_UTTERANCE_CHARS = 500
_SURROGATES = re.compile("[\ud800-\udfff]")
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def encodable(text: str) -> str:
    """The text with lone surrogates (which no encoder accepts) replaced by U+FFFD."""
    return _SURROGATES.sub("\ufffd", text)


def clean(utterance: str) -> str:
    return _CONTROLS.sub(" ", encodable(utterance))


def too_long(utterance: str, lang: str) -> str:
    n = len(utterance)
    if lang == "en":
        return (f"That message is too long ({n} characters); I read at most {MAX_UTTERANCE_CHARS} at a time. "
                "Please say what to do in a short sentence, e.g. 'filter 上海_poi.xlsx where 评分 > 4'.")
    return (f"这句话太长了（{n} 个字符），我一次最多读 {MAX_UTTERANCE_CHARS} 个字符。"
            "请用一句简短的话说明要做什么，比如“筛选 上海_poi.xlsx，评分大于4”。")


def decide_checked(state: SessionState, utterance: str, catalog: Catalog) -> tuple[Decision, SessionState]:
    """`decide` for any input: cleaned first, and a line over the limit gets an answer without being read
    (the pending request, if any, stays pending)."""
    text = clean(utterance)
    if len(text) <= MAX_UTTERANCE_CHARS:
        return decide(state, text, catalog)
    lang = language(text[:MAX_UTTERANCE_CHARS])
    req = Request(intent="unknown", text=text[:MAX_UTTERANCE_CHARS], lang=lang)
    d = Decision(gate="unknown", next="ask_intent", mode="clarify", tier="none", confidence=0.9, request=req,
                 reply=too_long(text, lang), mode_reason="输入过长，没有读取", plan_style_reason="不执行", rule="too_long", lang=lang)
    return d, state.evolve(turn=state.turn + 1)
