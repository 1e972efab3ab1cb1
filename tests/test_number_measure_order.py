"""Three kinds of request that used to run silently wrong.

1. A number compared with a numeric column is a number, whatever its digits look like (19058 is not 1905-08).
2. "Which month is highest" with no measure named: the one numeric column, else a question naming the
   candidates; never a count nobody asked for.
3. The values of a list condition come in the order written, whatever the hash seed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_never_silently_wrong import WAITS
from test_never_silently_wrong import talk as _talk

from engine.session import Session, TurnResult
from tools.workspace import Workspace


def talk(root: Path, turns: list[str]) -> TurnResult:
    return _talk(root, turns, confirm=True)


@pytest.fixture(scope="module")
def orders(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("numbers")
    rng = np.random.default_rng(11)
    n = 80
    pd.DataFrame({
        "订单号": [f"N{i:03d}" for i in range(n)],
        "日期": pd.date_range("2023-11-01", periods=n, freq="4D").strftime("%Y-%m-%d"),
        "城市": rng.choice(["上海", "北京", "广州", "深圳"], n),
        "amount": (10 ** rng.uniform(2.5, 5.8, n)).round(2),  # 300 to 600,000: every threshold below keeps some rows
        "金额": (10 ** rng.uniform(2.5, 5.8, n)).round(2),
        "数量": rng.integers(1, 60, n),
    }).to_csv(root / "orders.csv", index=False)
    return root


def kept_ids(root: Path, tr: TurnResult) -> list[str]:
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.next, tr.decision.reply)
    path = next(f["path"] for f in tr.run.files if f["path"].endswith(".csv"))
    return sorted(pd.read_csv(root / path)["订单号"])


# ---------------------------------------------------------------- 1. numbers on numeric columns

THRESHOLDS = ["2023", "19058", "20231", "19058.5", "2023.5", "27,479", "12,345.6", "201205", "20240"]
GT_FORMS = ["orders.csv 金额大于{v}", "orders.csv 筛出金额超过{v}的订单", "orders.csv 只看金额高于{v}的", "orders.csv rows where amount above {v}",
            "orders.csv amount greater than {v}", "orders.csv orders with amount over {v}"]
GE_FORMS = ["orders.csv 金额{v}以上", "orders.csv 金额不低于{v}", "orders.csv amount at least {v}", "orders.csv amount of {v} or more"]
LT_FORMS = ["orders.csv 金额低于{v}的订单", "orders.csv amount below {v}", "orders.csv 金额不超过{v}"]


def _number(v: str) -> float:
    return float(v.replace(",", ""))


def _cases() -> list[tuple[str, str, str]]:
    out = []
    for i, v in enumerate(THRESHOLDS):  # every digit shape with a few phrasings, not every pair: the suite stays fast
        out += [(GT_FORMS[i % len(GT_FORMS)].format(v=v), "gt", v), (GE_FORMS[i % len(GE_FORMS)].format(v=v), "ge", v),
                (LT_FORMS[i % len(LT_FORMS)].format(v=v), "lt" if "低于" in LT_FORMS[i % len(LT_FORMS)] or "below" in LT_FORMS[i % len(LT_FORMS)] else "le", v)]
    return out


@pytest.mark.parametrize("utterance,op,v", _cases())
def test_a_number_on_a_numeric_column_is_a_number(orders, utterance, op, v):
    df = pd.read_csv(orders / "orders.csv")
    col = df["amount"] if "amount" in utterance else df["金额"]
    x = _number(v)
    mask = {"gt": col > x, "ge": col >= x, "lt": col < x, "le": col <= x}[op]
    tr = talk(orders, [utterance])
    if tr.run is None:  # asking is allowed; reading the number as a date is not
        assert tr.decision.next in WAITS, tr.decision.reply
        assert "19" not in tr.decision.reply.split(v)[0][-3:], tr.decision.reply
        return
    assert kept_ids(orders, tr) == sorted(df.loc[mask, "订单号"]), (utterance, tr.run.answer)


@pytest.mark.parametrize("utterance,v", [("orders.csv 金额从19058起", "19058"), ("orders.csv amount from 20231 onwards", "20231"),
                                         ("orders.csv 金额自2023.5起", "2023.5")])
def test_period_words_after_a_numeric_column_never_read_a_date(orders, utterance, v):
    df = pd.read_csv(orders / "orders.csv")
    col = df["amount"] if "amount" in utterance else df["金额"]
    tr = talk(orders, [utterance])
    if tr.run is None:
        assert tr.decision.next in WAITS and "日期" not in tr.decision.reply, tr.decision.reply
        return
    assert kept_ids(orders, tr) == sorted(df.loc[col >= _number(v), "订单号"]), tr.run.answer


@pytest.mark.parametrize("utterance,lo", [
    ("orders.csv 日期大于2024-03-01", "2024-03-01"),
    ("orders.csv 日期在20240301以后", "2024-03-01"),
    ("orders.csv 日期大于20240301", "2024-03-01"),
    ("orders.csv 2024年3月以后的订单", "2024-03-01"),
])
def test_a_date_column_or_a_written_date_still_reads_a_date(orders, utterance, lo):
    df = pd.read_csv(orders / "orders.csv")
    tr = talk(orders, [utterance])
    strict = "大于" in utterance
    mask = (df["日期"] > lo) if strict else (df["日期"] >= lo)
    assert kept_ids(orders, tr) == sorted(df.loc[mask, "订单号"]), (utterance, tr.run and tr.run.answer)


# ---------------------------------------------------------------- 2. which month is highest


@pytest.fixture(scope="module")
def months(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    rng = np.random.default_rng(5)
    labels = [f"2024-{m:02d}" for m in range(1, 13)]
    two = tmp_path_factory.mktemp("two_measures")
    pd.DataFrame({"月份": labels, "销售额": rng.uniform(1e4, 9e4, 12).round(2), "订单数": rng.integers(5, 90, 12)}).to_csv(two / "monthly.csv", index=False)
    one = tmp_path_factory.mktemp("one_measure")
    pd.DataFrame({"月份": labels, "销售额": rng.uniform(1e4, 9e4, 12).round(2)}).to_csv(one / "monthly.csv", index=False)
    return two, one


@pytest.mark.parametrize("utterance", ["monthly.csv 哪个月最高", "monthly.csv 哪个月最低", "monthly.csv 哪一个月最好",
                                       "monthly.csv which month is highest", "monthly.csv which month was the lowest",
                                       "monthly.csv which month has the highest"])
def test_several_measures_unnamed_are_asked_about(months, utterance):
    two, _ = months
    tr = Session(Workspace.at(two)).turn(utterance)
    assert tr.run is None and tr.decision.next == "ask_slots", (tr.decision.next, tr.decision.reply)
    assert "销售额" in tr.decision.reply and "订单数" in tr.decision.reply, tr.decision.reply


@pytest.mark.parametrize("utterance,low", [("monthly.csv 哪个月最高", False), ("monthly.csv which month is the lowest", True),
                                           ("monthly.csv 哪个月最低", True), ("monthly.csv which month has the highest", False)])
def test_the_one_measure_is_used(months, utterance, low):
    _, one = months
    df = pd.read_csv(one / "monthly.csv")
    want = df.loc[df["销售额"].idxmin() if low else df["销售额"].idxmax(), "月份"]
    other = df.loc[df["销售额"].idxmax() if low else df["销售额"].idxmin(), "月份"]
    tr = talk(one, [utterance])
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.next, tr.decision.reply)
    assert want in (tr.run.answer or "") and other not in (tr.run.answer or ""), tr.run.answer


def test_a_named_measure_or_a_count_word_is_still_read(months):
    two, _ = months
    df = pd.read_csv(two / "monthly.csv")
    tr = talk(two, ["monthly.csv 哪个月订单数最高"])
    assert tr.run is not None and df.loc[df["订单数"].idxmax(), "月份"] in (tr.run.answer or ""), tr.run and tr.run.answer


# ---------------------------------------------------------------- 3. value lists, whatever the hash seed

ORDERED = [("筛出上海和北京的订单", ["上海", "北京"]), ("筛出北京和上海的订单", ["北京", "上海"]),
           ("只看深圳、广州、上海的", ["深圳", "广州", "上海"]), ("orders from 广州 and 北京", ["广州", "北京"]),
           ("去掉北京和深圳的订单", ["北京", "深圳"])]


def _decide(root: Path, seed: str) -> list[dict]:
    batch = "\n".join(json.dumps({"id": str(i), "history": [], "utterance": f"orders.csv {u}"}, ensure_ascii=False) for i, (u, _) in enumerate(ORDERED))
    env = {**os.environ, "PYTHONHASHSEED": seed}
    exe = Path(sys.executable).with_name("wenqing")
    out = subprocess.run([str(exe), "decide", "--workspace", str(root), "--backend", "rules", "--batch", "-"], input=batch,
                         capture_output=True, text=True, env=env, timeout=120, check=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def test_value_lists_keep_the_written_order_under_every_hash_seed(orders):
    runs = {seed: _decide(orders, seed) for seed in ("0", "1", "7", "42", "1234")}
    first = runs["0"]
    assert len(first) == len(ORDERED)
    for seed, got in runs.items():
        assert got == first, f"PYTHONHASHSEED={seed} decided differently"
    for d, (_, vals) in zip(first, ORDERED, strict=True):
        text = d["reply"] + json.dumps(d.get("plan"), ensure_ascii=False)
        positions = [text.find(v) for v in vals]
        assert all(p >= 0 for p in positions), (vals, text)  # the restatement names every value
        conds = [c for c in d["slots"].get("conditions", []) if isinstance(c.get("value"), list)] if isinstance(d.get("slots"), dict) else []
        if conds:
            assert conds[0]["value"] == vals, conds
        else:
            summary = (d.get("plan") or {}).get("goalSummary", "")
            assert [summary.find(v) for v in vals] == sorted(summary.find(v) for v in vals), summary
