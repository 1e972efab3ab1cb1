from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.catalog import CatalogCache
from engine.session import Session
from modes.decision import SessionState
from modes.gate import decide
from tools.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent
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
    assert "继续" in reply
    tr = s.turn("继续")
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    return tr


def written_table(ws: Workspace, tr):
    """The table a run wrote first, read back."""
    import pandas as pd

    assert tr.run.files, tr.run.answer
    return pd.read_csv(ws.root / tr.run.files[0]["path"])
