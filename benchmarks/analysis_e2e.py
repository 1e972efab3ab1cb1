"""Real analysis requests written by others (../shared/eval/external_dev/tablegpt, answerable ones), carried out
end to end through a session (a restatement is confirmed with 继续), each result judged against a pandas
computation written here. Prints how many were carried out correctly and the rest by reason.

usage: python benchmarks/analysis_e2e.py [--limit 84] [--dir ../shared/eval/external_dev/tablegpt] [--show]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT = ROOT.parent / "shared" / "eval" / "external_dev" / "tablegpt"


def _src(root: Path) -> Any:
    import pandas as pd

    return pd.read_csv(next(p for p in sorted(root.iterdir()) if p.suffix == ".csv"))


def _out(root: Path, run: Any) -> Any:
    import pandas as pd

    if not run.files:
        return None
    p = root / run.files[0]["path"]
    return pd.read_csv(p) if p.suffix == ".csv" else pd.read_excel(p, sheet_name=0)


def _same_rows(root: Path, run: Any, keep: Callable[[Any], Any], key: str | None = None) -> bool:
    out, src = _out(root, run), _src(root)
    if out is None:
        return False
    want = src[keep(src)]
    if len(out) != len(want):
        return False
    k = key or str(src.columns[0])
    return sorted(map(str, out[k])) == sorted(map(str, want[k]))


def _chart_values(root: Path, run: Any) -> list[list[Any]] | None:
    from openpyxl import load_workbook

    xs = [f for f in run.files if f["path"].endswith(".xlsx")]
    if not xs:
        return None
    sh = load_workbook(root / xs[0]["path"])["数据"]
    if not sh._charts:
        return None
    return [list(r) for r in sh.iter_rows(values_only=True)]


def _num_in(answer: str | None, v: float) -> bool:
    from tools.fmt import num

    return bool(answer) and any(s in answer for s in {num(round(v, 4)), num(round(v, 2)), f"{v:,.2f}", f"{round(v, 2):g}"})


def _row(root: Path, name: str) -> Any:
    src = _src(root)
    return src[src.iloc[:, 0].astype(str).str.strip() == name].iloc[0]


def _years(row: Any, lo: int, hi: int) -> Any:
    import pandas as pd

    return pd.Series({y: float(row[f"{y}年"]) for y in range(lo, hi + 1) if f"{y}年" in row.index and pd.notna(row[f"{y}年"])})


def j002(root: Path, run: Any) -> bool:
    src, t = _src(root), run.table
    months = [c for c in src.columns if c != "指标"][::-1]  # the file lists the newest month first
    row = src.iloc[0][months].astype(float)
    want = ((row - row.shift(1)) / row.shift(1).abs() * 100).round(2)
    col = f"{months[-1]}增长(%)"
    if t is None or col not in t.columns:
        return False
    got, exp = float(t.iloc[0][col]), float(want.iloc[-1])
    return (got != got and exp != exp) or abs(got - exp) < 0.01  # both blank (a month without data) or equal


def j124(root: Path, run: Any) -> bool:
    out, src = _out(root, run), _src(root)
    if out is None:
        return False
    new = [c for c in out.columns if c not in src.columns]
    return len(new) == 1 and ((out[new[0]] - (src["2011年"] - src["2010年"])).abs().fillna(0) < 1e-6).all()


def j142(root: Path, run: Any) -> bool:
    rows = _chart_values(root, run)
    row = _years(_row(root, "民用机动运输船数"), 2004, 2022)
    return rows is not None and [float(r[1]) for r in rows[1:]] == row.tolist()


def j222(root: Path, run: Any) -> bool:
    v = _years(_row(root, "执业(助理)医师数"), 2010, 2023)
    return all(_num_in(run.answer, x) for x in (v.mean(), v.var(), v.median()))


def j238(root: Path, run: Any) -> bool:
    rows = _chart_values(root, run)
    src = _src(root)
    return rows is not None and [r[0] for r in rows[1:]] == [f"{y}年" for y in range(2018, 2022)] and len(rows[0]) - 1 == len(src)


def j262(root: Path, run: Any) -> bool:
    row = _years(_row(root, "住户部门非金融交易资金运用劳动者报酬"), 2004, 2021)
    return _chart_values(root, run) is not None and f"{row.idxmax()}年" in (run.answer or "") and _num_in(run.answer, row.max())


def j014(root: Path, run: Any) -> bool:
    from scipy import stats

    v = _years(_row(root, "普通高等学校招生数"), 2013, 2023)
    return f"回归系数 {round(stats.linregress(v.index, v.values).slope, 4)}" in (run.answer or "")


def j132(root: Path, run: Any) -> bool:
    src = _src(root)
    rates = {}
    for _, r in src.iterrows():
        a, b = float(r["2014年"]), float(r["2019年"])
        if a > 0 and b >= 0:
            rates[str(r["指标"])] = ((b / a) ** (1 / 5) - 1) * 100
    best = max(rates, key=lambda k: rates[k])
    return f"年均增长率最高的是 {best}（{round(rates[best], 2):g}%）" in (run.answer or "")


def j180(root: Path, run: Any) -> bool:
    src, t = _src(root), run.table
    if t is None or "2022年增长(%)" not in t.columns:
        return False
    a, b = src["2021年"].astype(float), src["2022年"].astype(float)
    want = ((b - a) / a.abs() * 100).round(2)
    got = t["2022年增长(%)"].astype(float)
    return bool(((got - want).abs().fillna(0) < 0.01).all() and (got.isna() == want.isna()).all())


JUDGES: dict[str, Callable[[Path, Any], bool]] = {
    "tg-014": j014,
    "tg-132": j132,
    "tg-180": j180,
    "tg-002": j002,
    "tg-018": lambda r, run: _same_rows(r, run, lambda s: ~(s["成交量"] < 10000)),
    "tg-050": lambda r, run: _same_rows(r, run, lambda s: __import__("pandas").to_numeric(s["Grade"], errors="coerce").notna()),
    "tg-054": lambda r, run: _same_rows(r, run, lambda s: ~s["指标"].astype(str).str.contains("煤炭开采和洗选业")),
    "tg-124": j124,
    "tg-142": j142,
    "tg-146": lambda r, run: _same_rows(r, run, lambda s: ~s["指标"].astype(str).str.contains("环比增长|同比增长")),
    "tg-160": lambda r, run: _same_rows(r, run, lambda s: (s["Designated Doctor Address"].astype(str) == "True") & (s["State Code"] == "TX"), "License"),
    "tg-166": lambda r, run: _same_rows(r, run, lambda s: s["Country"] == "United States", "Player"),
    "tg-222": j222,
    "tg-238": j238,
    "tg-262": j262,
    "tg-276": lambda r, run: _same_rows(r, run, lambda s: s["College"] == "North Carolina", "Player"),
    "tg-280": lambda r, run: _same_rows(r, run, lambda s: s["Record"] != "14–50", "Game"),
}


def _reason(tr: Any) -> str:
    if tr.run is not None and tr.run.status == "answered":
        return "ran, result not the one asked for" if tr.run else "ran"
    if tr.run is not None:
        return f"stopped: {tr.run.fallback_reason or tr.run.status}"
    reply = tr.decision.reply or ""
    if "做不了" in reply or "cannot" in reply:
        return "said it cannot do a part"
    return {"ask_slots": "asked for a missing detail", "ask_intent": "asked what to do", "reply": "answered as chat"}.get(tr.decision.next, tr.decision.next)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser()
    p.add_argument("--dir", default=str(DEFAULT))
    p.add_argument("--limit", type=int, default=0)
    p.add_argument("--show", action="store_true")
    a = p.parse_args(argv)
    from engine.session import Session
    from tools.workspace import Workspace

    d = Path(a.dir)
    if not (d / "labels.jsonl").is_file():
        print(f"no labels at {d}: nothing to run")
        return {"items": 0}
    items = [json.loads(x) for x in open(d / "labels.jsonl", encoding="utf-8")]
    items = [i for i in items if "is_reject=False" in i["source"]]
    if a.limit:
        items = items[: a.limit]
    reasons: Counter[str] = Counter()
    correct = judged = 0
    for it in items:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "ws"
            shutil.copytree(d / it["ws"], root)
            s = Session(Workspace.at(root))
            tr = s.turn(it["utterance"])
            if tr.run is None and "继续" in (tr.decision.reply or ""):
                tr = s.turn("继续")
            judge = JUDGES.get(it["id"])
            ok = False
            if tr.run is not None and tr.run.status == "answered" and judge is not None:
                judged += 1
                try:
                    ok = bool(judge(root, tr.run))
                except Exception as e:  # a judge that cannot read the result counts as wrong
                    ok = False
                    reasons[f"judge error {type(e).__name__}"] += 1
            why = "correct" if ok else ("ran, result judged wrong" if judge and tr.run is not None and tr.run.status == "answered"
                                         else "ran, no judge written (not counted correct)" if tr.run is not None and tr.run.status == "answered"
                                         else _reason(tr))
            correct += ok
            reasons[why] += 1
            if a.show:
                print(f"{it['id']:8} {why:45} {it['utterance'][:60]}")
    n = len(items)
    print(f"\ntablegpt answerable requests: {n}; carried out correctly (judged with pandas): {correct} ({correct / max(n, 1):.0%}); judges run: {judged}")
    for k, v in reasons.most_common():
        print(f"  {v:3}  {k}")
    return {"items": n, "correct": correct, "reasons": dict(reasons)}


if __name__ == "__main__":
    main()
