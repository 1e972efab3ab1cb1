"""`wenqing decide`: decisions as JSON, as dry runs in fresh sessions."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from engine.catalog import CatalogCache
from engine.plan import plan_for
from engine.session import decision_json
from modes.decision import SessionState
from modes.gate import decide
from tools.workspace import Workspace


def _run(ws: Workspace, cache: CatalogCache, history: list[str], utterance: str, item_id: str | None) -> dict[str, Any]:
    catalog = cache.build(ws)
    state = SessionState()
    for h in history:
        _, state = decide(state, h, catalog)
    d, _ = decide(state, utterance, catalog)
    out = decision_json(d, plan_for(d, catalog), item_id)
    cache.save(ws)
    return out


def _run_model(ws: Workspace, cache: CatalogCache, history: list[str], utterance: str, item_id: str | None, model: Any) -> dict[str, Any]:
    from engine.session import Session

    s = Session(ws, dry_run=True, cache=cache, model=model)
    for h in history:
        s.turn(h)
    tr = s.turn(utterance)
    return decision_json(tr.decision, tr.plan, item_id)


def decide_one(ws: Workspace, utterance: str, model: Any = None) -> dict[str, Any]:
    if model is not None:
        return _run_model(ws, CatalogCache(), [], utterance, None, model)
    return _run(ws, CatalogCache(), [], utterance, None)


def decide_batch(ws: Workspace, lines: Iterable[str], model: Any = None) -> Iterator[dict[str, Any]]:
    cache = CatalogCache()
    for raw in lines:
        if not raw.strip():
            continue
        try:
            item = json.loads(raw)
            args = (ws, cache, list(item.get("history") or []), str(item.get("utterance", "")), item.get("id"))
            yield _run_model(*args, model) if model is not None else _run(*args)
        except (json.JSONDecodeError, AttributeError, TypeError) as e:
            yield {"id": None, "error": f"bad input line: {e}"}
