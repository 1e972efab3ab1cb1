"""`wenqing decide`: decisions as JSON, as dry runs in fresh sessions."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from engine.catalog import CatalogCache, small_talk, with_results
from engine.intake import decide_checked
from engine.plan import decision_json, plan_for
from modes.catalog import Catalog
from modes.decision import SessionState
from tools.workspace import Workspace


def _run(ws: Workspace, cache: CatalogCache, history: list[str], utterance: str, item_id: str | None) -> dict[str, Any]:
    state = SessionState()
    built: list[Catalog] = []

    def seen(text: str) -> Catalog:  # outputs/x.csv named, or worked on by an earlier turn: a table this turn may read
        if small_talk(state.pending, text):
            return Catalog(())
        if not built:
            built.append(cache.build(ws))
        catalog = built[0]
        earlier = [p.request.file for p in (state.pending, state.last) if p is not None]
        return with_results(catalog, ws, text, earlier) if "." in text or any(earlier) else catalog

    for h in history:
        _, state = decide_checked(state, h, seen(h))
    cat = seen(utterance)
    d, _ = decide_checked(state, utterance, cat)
    out = decision_json(d, plan_for(d, cat), item_id)
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
    """One decision per line; a line that cannot be read, or that meets a bug, yields an error line and the
    batch goes on."""
    cache = CatalogCache()
    for raw in lines:
        if not raw.strip():
            continue
        item_id = None
        try:
            item = json.loads(raw)
            if not isinstance(item, dict):
                raise TypeError("each line must be a JSON object")
            item_id = item.get("id")
            history = item.get("history") or []
            if not isinstance(history, list):
                raise TypeError("history must be a list of strings")
            args = (ws, cache, [str(h) for h in history], str(item.get("utterance", "")), item_id)
            yield _run_model(*args, model) if model is not None else _run(*args)
        except (json.JSONDecodeError, AttributeError, TypeError) as e:
            yield {"id": item_id, "error": f"bad input line: {e}"}
        except Exception as e:  # noqa: BLE001  (a bug on one line must not lose the rest of the batch)
            yield {"id": item_id, "error": f"internal error: {type(e).__name__}"}
