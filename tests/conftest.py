from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from engine.catalog import CatalogCache
from engine.session import Session
from modes.decision import SessionState
from modes.dialogue import decide
from tools.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent

# what only a program would write: a missing value's repr, a failure code, a traceback, an internal check's wording
LEAK = re.compile(r"(?<![A-Za-z_])(?:nan|NaN|None|NaT|<NA>)(?![A-Za-z_])|\[失败|Traceback|内部检查|bad_argument\]")


def write_workbook(folder: Path, name: str, sheets: dict) -> Path:
    """A workbook of these sheets (name -> DataFrame) written into the folder."""
    import pandas as pd

    with pd.ExcelWriter(folder / name) as w:
        for sheet, df in sheets.items():
            df.to_excel(w, sheet_name=sheet, index=False)
    return folder / name


def said_in(tr) -> list[str]:
    """Every text a turn shows the user: the reply, the notices, the answer and its notes."""
    texts = [tr.decision.reply or "", *tr.notices]
    if tr.run is not None:
        texts += [tr.run.answer or "", *tr.run.notes, *tr.run.data_notes]
    return [t for t in texts if t]


@pytest.fixture(autouse=True)
def _no_internal_text_reaches_the_user(monkeypatch):
    """Every turn of every test: no text a user sees carries nan, None, [失败 … unless the user's own words did."""
    real = Session.turn
    leaks: list[tuple[str, str]] = []

    def turn(self, utterance):
        tr = real(self, utterance)
        if not LEAK.search(utterance):
            leaks.extend((utterance, t) for t in said_in(tr) if LEAK.search(t))
        return tr

    monkeypatch.setattr(Session, "turn", turn)
    yield
    assert not leaks, leaks[:5]
EXAMPLES = ROOT / "examples"
DATA = [p for p in EXAMPLES.iterdir() if p.suffix in (".xlsx", ".csv")]


@pytest.fixture
def ws_dir(tmp_path: Path) -> Path:
    """A fresh copy of the bundled example files."""
    d = tmp_path / "ws"
    d.mkdir()
    for p in DATA:
        shutil.copy(p, d / p.name)
    return d


@pytest.fixture
def ws(ws_dir: Path) -> Workspace:
    return Workspace.at(ws_dir)


@pytest.fixture
def session(ws: Workspace) -> Session:
    return Session(ws)


@pytest.fixture
def fake():
    """Start scripted OpenAI-compatible servers on 127.0.0.1 (make(replies, default)); stopped after the test."""
    from fake_openai import FakeOpenAI

    servers = []

    def make(replies, default=None):
        s = FakeOpenAI(replies, default).start()
        servers.append(s)
        return s

    yield make
    for s in servers:
        s.stop()


@pytest.fixture(scope="session")
def catalog():
    return CatalogCache().build(Workspace.at(EXAMPLES))


def run_turns(catalog, turns: list[str]):
    """Decide a conversation (dry run) and return the last decision."""
    state = SessionState()
    d = None
    for t in turns:
        d, state = decide(state, t, catalog)
    return d


def confirmed_reading(ws: Workspace, text: str, *said: str):
    """A request read through a column's meaning: restated naming each reading, carried out only after 继续."""
    s = Session(ws)
    first = s.turn(text)
    reply = first.decision.reply or ""
    assert first.run is None, "a column read by meaning is never used silently"
    for m in said:
        assert m in reply, reply
    assert "继续" in reply or "'go'" in reply  # the confirmation word, in the request's language
    tr = s.turn("继续")
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    return tr


def result_frame(tr):
    """The table a run produced, in memory, whichever engine read it."""
    from tools.outofcore import in_memory

    return in_memory(tr.run.table)


def written_table(ws: Workspace, tr):
    """The table a run wrote first, read back."""
    import pandas as pd

    assert tr.run.files, tr.run.answer
    return pd.read_csv(ws.root / tr.run.files[0]["path"])


def header(tr, name: str) -> str:
    """A header wenqing writes (行数, 金额_合计), as a run in the request's language names it (rows, 金额_sum)."""
    from tools.localise import header_en

    return header_en(name) if tr.decision.lang == "en" else name


def say(ctx, buf, line: str) -> str:
    """What the REPL prints for one line: a slash command, or a request and its rendered turn."""
    from repl.commands import dispatch

    start = buf.tell()
    if line.startswith("/"):
        dispatch(ctx, line)
    else:
        ctx.session.last_tr = ctx.session.turn(line)
        ctx.render.turn(ctx.session.last_tr)
    return buf.getvalue()[start:]


def answered(s: Session, utterance: str):
    """A request carried out: confirmed (继续, or go in an English session) when it was restated first; the run must answer."""
    tr = s.turn(utterance)
    if tr.run is None and tr.decision.next in ("restate_confirm", "plan_confirm"):
        tr = s.turn("继续" if tr.decision.lang == "zh" else "go")
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    return tr
