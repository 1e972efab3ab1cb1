"""Fit the evidence weights of modes/evidence_weights.py on the labeled decision sets.

A reading's confidence is BASE_CONFIDENCE plus the weights of its evidence (a file inferred, a column
guessed, words no rule read, …); below RESTATE_BELOW the request is restated instead of run. The weights
are fitted as a logistic regression of "running it was right" on how often each kind of evidence occurs,
with the decision boundary held at RESTATE_BELOW and a weak prior on PRIOR_WEIGHTS (kinds of evidence
the data never shows keep those). A false run costs FALSE_RUN_COST times a needless restatement.

Items: the dev decision set (its label says run or not) and the external development sets (an item whose
acceptable answers exclude running must not run). Only items whose outcome the confidence decides are fitted.

usage: python benchmarks/calibrate_evidence.py [--write] [--sets smp,triage,tablegpt]
Prints the fit: per kind of evidence its count and weight before and after, and the run / not-run split
before and after (re-deciding every item's last turn with the weights). --write rewrites the weights table.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from scipy.optimize import minimize  # noqa: E402

from engine.catalog import CatalogCache  # noqa: E402
from engine.intake import decide_checked  # noqa: E402
from modes import dialogue, gate  # noqa: E402
from modes.decision import BASE_CONFIDENCE, RESTATE_BELOW, SessionState  # noqa: E402
from modes.evidence_weights import WEIGHTS  # noqa: E402
from tools.workspace import Workspace  # noqa: E402

SHARED = ROOT.parent / "shared" / "eval"
WEIGHTS_FILE = ROOT / "modes" / "evidence_weights.py"
DECIDED_BY_CONFIDENCE = ("enough_to_act", "low_confidence", "only_guesses")
FALSE_RUN_COST = 5.0  # running what should have been asked about is far worse than one question too many
SHARPNESS = 20.0  # a confidence 0.1 past the boundary is a logit of 2
PRIOR = 0.5  # pull toward PRIOR_WEIGHTS, so kinds the data rarely shows move little
# the weights before any fit, the prior of every fit (a fit never starts from its own output, so it does not drift)
PRIOR_WEIGHTS = {
    "column_translated": -0.48, "column_typo": -0.4, "file_description": -0.05, "file_fuzzy": -0.1, "file_inferred": -0.45, "file_only": -0.05,
    "file_preview_only": -0.4, "file_result": -0.05, "file_result_unsaid": -0.45, "file_type": -0.45, "gap_unsupported": -0.5, "value_typo": -0.4,
    "value_variants": -0.48, "words_unread": -0.4, "words_unread_more": -0.05, "words_unused": -0.5,
}


@dataclass
class Item:
    """One labeled turn and what the gate saw when it decided it."""

    set: str
    id: str
    ok: frozenset[str]  # the acceptable `next` values
    gate_args: tuple[Any, ...] | None  # (req, state, turns, multi_turn, catalog, prior) of the last gate call
    rule: str

    @property
    def run_ok(self) -> bool:
        return "execute" in self.ok

    @property
    def hold_ok(self) -> bool:
        return bool(self.ok - {"execute"})


def _labels() -> list[tuple[str, Path, dict[str, Any]]]:
    out = [("dev", SHARED / "workspace", json.loads(line)) for line in open(SHARED / "decisions_dev.jsonl", encoding="utf-8")]
    for name in ("smp", "triage", "tablegpt"):
        d = SHARED / "external_dev" / name
        if (d / "labels.jsonl").is_file():
            out += [(name, d / item["ws"], item) for item in map(json.loads, open(d / "labels.jsonl", encoding="utf-8"))]
    return out


def collect(sets: set[str]) -> list[Item]:
    """Decide every item in process, keeping the arguments of the gate call of its last turn."""
    seen: list[tuple[Any, ...]] = []
    real_gate = dialogue._gate

    def spy(*args: Any, **kw: Any) -> Any:
        seen.append(tuple(inspect.signature(real_gate).bind(*args, **kw).arguments.values()))
        return real_gate(*args, **kw)

    dialogue._gate = spy  # type: ignore[assignment]
    caches: dict[Path, CatalogCache] = defaultdict(CatalogCache)
    items: list[Item] = []
    try:
        for set_name, ws_dir, it in _labels():
            if set_name not in sets:
                continue
            ws = Workspace.at(ws_dir)
            catalog = caches[ws_dir].build(ws)
            state = SessionState()
            for h in it.get("history") or []:
                _, state = decide_checked(state, str(h), catalog)
            seen.clear()
            d, _ = decide_checked(state, it["utterance"], catalog)
            e = it["expect"]["next"]
            items.append(Item(set_name, it["id"], frozenset(e if isinstance(e, list) else [e]), seen[-1] if seen else None, d.rule))
    finally:
        dialogue._gate = real_gate  # type: ignore[assignment]
    return items


def redecide(item: Item, weights: dict[str, float]) -> str:
    """The item's `next` had its evidence carried these weights."""
    if item.gate_args is None:
        return "?"
    req, state, turns, multi_turn, catalog, prior = item.gate_args
    ev = tuple(replace(e, weight=weights[e.key]) if e.key in weights else e for e in req.evidence)
    d, _ = gate._gate(replace(req, evidence=ev), state, turns, multi_turn, catalog, prior)
    return str(d.next)


def _design(items: list[Item], keys: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Evidence counts per item and key, the weight of evidence outside the table, the label (+1 run) and the cost."""
    x = np.zeros((len(items), len(keys)))
    off = np.zeros(len(items))
    y = np.zeros(len(items))
    cost = np.zeros(len(items))
    for i, it in enumerate(items):
        req = it.gate_args[0]  # type: ignore[index]
        for e in req.evidence:
            if e.key in keys:
                x[i, keys.index(e.key)] += 1
            else:
                off[i] += e.weight
        y[i] = 1.0 if it.run_ok else -1.0
        cost[i] = 1.0 if it.run_ok else FALSE_RUN_COST
    return x, off, y, cost


def fit(items: list[Item], keys: list[str]) -> dict[str, float]:
    """Logistic regression of running-was-right on the evidence counts, boundary fixed at RESTATE_BELOW."""
    x, off, y, cost = _design(items, keys)
    w0 = np.array([PRIOR_WEIGHTS[k] for k in keys])
    seen = x.sum(axis=0) > 0

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        margin = SHARPNESS * y * (BASE_CONFIDENCE + off + x @ w - RESTATE_BELOW)
        p = np.exp(-np.logaddexp(0.0, margin))  # sigmoid(-margin), computed stably
        value = float(np.sum(cost * np.logaddexp(0.0, -margin)) + PRIOR * len(items) * np.sum((w - w0) ** 2))
        grad = -(SHARPNESS * (cost * p * y)) @ x + 2 * PRIOR * len(items) * (w - w0)
        return value, grad

    # evidence only ever lowers the confidence; kinds the data never shows keep their weight
    bounds = [(-1.0, -0.01) if s else (w, w) for w, s in zip(w0, seen, strict=True)]
    res = minimize(loss, w0, jac=True, method="L-BFGS-B", bounds=bounds)
    return {k: round(float(v), 2) for k, v in zip(keys, res.x, strict=True)}


def split(items: list[Item], weights: dict[str, float]) -> dict[str, Any]:
    """How the items come out with these weights: the right `next`, the right side of run / not run, false runs."""
    right = side = false_runs = needless_holds = 0
    for it in items:
        nxt = redecide(it, weights)
        ran = nxt == "execute"
        right += nxt in it.ok
        side += (ran and it.run_ok) or (not ran and it.hold_ok)
        false_runs += ran and not it.run_ok
        needless_holds += (not ran) and not it.hold_ok
    n = max(1, len(items))
    return {"items": len(items), "next_right": round(right / n, 3), "side_right": round(side / n, 3),
            "false_runs": false_runs, "needless_holds": needless_holds}


def write(weights: dict[str, float]) -> None:
    rows = "".join(f'    "{k}": {v},\n' for k, v in sorted(weights.items()))
    WEIGHTS_FILE.write_text(
        '"""How much each kind of evidence lowers the confidence of a reading (written by benchmarks/calibrate_evidence.py)."""\n\n'
        f"WEIGHTS: dict[str, float] = {{\n{rows}}}\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true", help="rewrite modes/evidence_weights.py with the fitted weights")
    ap.add_argument("--sets", default="dev,smp,triage,tablegpt")
    a = ap.parse_args(argv)
    if not (SHARED / "decisions_dev.jsonl").is_file():
        print(f"no labeled sets under {SHARED}; nothing to fit")
        return 0
    items = collect(set(a.sets.split(",")))
    fitted_on = [it for it in items if it.gate_args is not None and it.rule in DECIDED_BY_CONFIDENCE and it.run_ok != it.hold_ok]
    keys = sorted(WEIGHTS)
    counts = Counter(e.key for it in fitted_on for e in it.gate_args[0].evidence if e.key)  # type: ignore[index]
    by_set = Counter(it.set for it in fitted_on)
    print(f"{len(items)} items decided; {len(fitted_on)} decided by the confidence with one right side: {dict(by_set)}")
    new = fit(fitted_on, keys)
    print(f"{'evidence':<20}{'count':>6}{'before':>9}{'after':>9}")
    for k in keys:
        print(f"{k:<20}{counts[k]:>6}{WEIGHTS[k]:>9.2f}{new[k]:>9.2f}" + ("" if counts[k] else "   (not in the data: kept)"))
    gated = [it for it in items if it.gate_args is not None]  # every item the gate decided, fitted or not
    for name, w in (("before", dict(WEIGHTS)), ("after", new)):
        print(f"{name}: fitted items {split(fitted_on, w)}")
        for s in sorted({it.set for it in gated}):
            print(f"  {s:<9} every gated item {split([it for it in gated if it.set == s], w)}")
    for it in fitted_on:
        if redecide(it, new) == "execute" and not it.run_ok:
            print(f"runs though it should not, whatever the weights: {it.set} {it.id} (no evidence against it)"
                  if not it.gate_args[0].evidence else f"runs though it should not: {it.set} {it.id}")  # type: ignore[index]
    if a.write:
        write(new)
        print(f"wrote {WEIGHTS_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
