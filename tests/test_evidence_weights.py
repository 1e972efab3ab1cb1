"""The confidence of a reading is derived from its evidence, weighted by the calibrated table."""

from __future__ import annotations

import ast
from pathlib import Path

import pandas as pd
import pytest

from engine.catalog import CatalogCache
from engine.intake import decide_checked
from modes import evidence_weights
from modes.catalog import Catalog
from modes.decision import BASE_CONFIDENCE, RESTATE_BELOW, Decision, SessionState
from tools.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    root = tmp_path_factory.mktemp("ev")
    pd.DataFrame({"城市": ["上海", "北京", "上海", "广州"], "金额": [10, 20, 30, 40], "State": ["ny", "ca", "tx", "ny"]}).to_csv(
        root / "sales.csv", index=False)
    return CatalogCache().build(Workspace.at(root))


def decide(catalog: Catalog, text: str) -> Decision:
    d, _ = decide_checked(SessionState(), text, catalog)
    return d


def test_the_table_is_what_the_code_reads(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    d = decide(catalog, "sales.csv 按城市汇总金额，顺便看看紫罗兰和猫头鹰")
    keys = [e.key for e in d.request.evidence]
    assert keys and all(k in evidence_weights.WEIGHTS for k in keys)
    assert all(e.weight == evidence_weights.WEIGHTS[e.key] for e in d.request.evidence)
    assert d.confidence == round(BASE_CONFIDENCE + sum(evidence_weights.WEIGHTS[k] for k in keys), 2)
    # a changed table changes the confidence: nothing holds a copy of the weights
    monkeypatch.setitem(evidence_weights.WEIGHTS, "words_unread", -0.2)
    again = decide(catalog, "sales.csv 按城市汇总金额，顺便看看紫罗兰和猫头鹰")
    assert again.confidence == round(BASE_CONFIDENCE - 0.2 + evidence_weights.WEIGHTS["words_unread_more"], 2)


def test_the_table_file_is_the_calibration_output() -> None:
    """The weights module holds exactly one table, every value lowers the confidence, and the script writes it."""
    tree = ast.parse((ROOT / "modes" / "evidence_weights.py").read_text(encoding="utf-8"))
    tables = [n for n in tree.body if isinstance(n, ast.AnnAssign)]
    assert len(tables) == 1 and ast.literal_eval(tables[0].value) == evidence_weights.WEIGHTS  # type: ignore[arg-type]
    assert all(-1.0 <= w < 0 for w in evidence_weights.WEIGHTS.values())
    from benchmarks.calibrate_evidence import PRIOR_WEIGHTS, WEIGHTS_FILE

    assert WEIGHTS_FILE == ROOT / "modes" / "evidence_weights.py" and set(PRIOR_WEIGHTS) == set(evidence_weights.WEIGHTS)


@pytest.mark.parametrize("base, words", [
    ("sales.csv 按城市汇总金额，顺便看看", ["紫罗兰", "猫头鹰", "潜水艇"]),
    ("把 sales.csv 按金额从高到低排，还有", ["望远镜", "蒲公英", "电吉他"]),
    ("sort sales.csv by 金额 with", ["zebra", "giraffe", "walrus"]),
    ("total 金额 per 城市 in sales.csv plus", ["kayak", "lantern", "violin"]),
])
def test_confidence_falls_as_unexplained_words_rise(catalog: Catalog, base: str, words: list[str]) -> None:
    joiner = " " if base.isascii() else "、"
    seen = []
    for n in range(1, len(words) + 1):
        d = decide(catalog, base + " " + joiner.join(words[:n]))
        assert set(d.request.unexplained) >= set(words[:n])
        assert d.next != "execute"  # a reading that leaves words unread is never run silently
        seen.append(d.confidence)
    clean = decide(catalog, base.rsplit("，", 1)[0].removesuffix(" with").removesuffix(" plus"))
    assert clean.confidence >= RESTATE_BELOW > seen[0]
    assert seen == sorted(seen, reverse=True) and len(set(seen)) == len(seen)


@pytest.mark.skipif(not (ROOT.parent / "shared" / "eval" / "decisions_dev.jsonl").is_file(), reason="no labeled sets here")
def test_the_calibration_fits_and_reports_the_split(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import calibrate_evidence

    assert calibrate_evidence.main(["--sets", "dev"]) == 0
    out = capsys.readouterr().out
    assert "words_unread" in out and "after: fitted items" in out
    dev_after = [line for line in out.splitlines() if line.strip().startswith("dev")][-1]
    assert "'false_runs': 0" in dev_after and "'next_right': 1.0" in dev_after
