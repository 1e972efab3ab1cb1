"""Decision latency per utterance without a model: p50 / p99 over a labeled set.

usage: python benchmarks/decide_latency.py [--labels DEV.jsonl] [--workspace DIR] [--repeat N]
Defaults to ../shared/eval when it exists, else to the bundled examples with a few built-in utterances.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.catalog import CatalogCache  # noqa: E402
from modes.catalog import Catalog  # noqa: E402
from modes.decision import SessionState  # noqa: E402
from modes.dialogue import decide  # noqa: E402
from tools.workspace import Workspace  # noqa: E402

BUILTIN = ["你好", "帮我弄一下", "筛选 上海_poi.xlsx，地址不为空", "sample_data 按城市汇总金额", "把csv转成xlsx",
           "北京_poi.xlsx 筛出朝阳区的，按人均消费升序排，导出成xlsx", "全面分析一下 sample_data", "Compare 上海_poi.xlsx with 北京_poi.xlsx"]


def load(labels: Path | None) -> list[dict]:
    if labels and labels.is_file():
        return [json.loads(line) for line in labels.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [{"history": [], "utterance": u} for u in BUILTIN]


def latencies(catalog: Catalog, items: list[dict], repeat: int) -> list[float]:
    """Milliseconds per decision (after each item's history), sorted."""
    return sorted(t for ts in per_item(catalog, items, repeat) for t in ts)


def per_item(catalog: Catalog, items: list[dict], repeat: int, cpu: list[list[float]] | None = None) -> list[list[float]]:
    """Each item's decision times over the repeats, in milliseconds of wall time; the same decisions' CPU time (of
    this thread: the work itself, without the time a busy machine gives to other processes) goes into `cpu` if given."""
    times: list[list[float]] = [[] for _ in items]
    if cpu is not None:
        cpu[:] = [[] for _ in items]
    for _ in range(repeat):
        for i, it in enumerate(items):
            state = SessionState()
            for h in it.get("history") or []:
                _, state = decide(state, h, catalog)
            c, s = time.thread_time(), time.perf_counter()
            decide(state, it["utterance"], catalog)
            times[i].append((time.perf_counter() - s) * 1000)
            if cpu is not None:
                cpu[i].append((time.thread_time() - c) * 1000)
    return times


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[max(0, int(len(ordered) * 0.99) - 1)]


def best_p99(times: list[list[float]]) -> float:
    """The 99th percentile of each item's best time: the work itself, without a busy machine's pauses."""
    best = sorted(min(ts) for ts in times)
    return best[max(0, int(len(best) * 0.99) - 1)]


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser()
    shared = ROOT.parent / "shared" / "eval"
    ap.add_argument("--labels", type=Path, default=shared / "decisions_dev.jsonl" if shared.is_dir() else None)
    ap.add_argument("--workspace", type=Path, default=shared / "workspace" if shared.is_dir() else ROOT / "examples")
    ap.add_argument("--repeat", type=int, default=20)
    a = ap.parse_args(argv)
    items = load(a.labels)
    ws = Workspace.at(a.workspace)
    t0 = time.perf_counter()
    catalog = CatalogCache(persist=False).build(ws)
    for f in catalog.tables:  # files are sampled when a decision first looks inside them: do it here, untimed
        _ = f.sheets
    build_ms = (time.perf_counter() - t0) * 1000
    t1 = time.perf_counter()
    per_item(catalog, items, 1)  # untimed: loads what a process loads once (word lists, the cross-language dictionary)
    first_ms = (time.perf_counter() - t1) * 1000
    cpu: list[list[float]] = []
    each = per_item(catalog, items, a.repeat, cpu)
    times = sorted(t for ts in each for t in ts)
    cpu_times = [t for ts in cpu for t in ts]
    res = {
        "utterances": len(items), "decisions": len(times), "catalog_build_ms": round(build_ms, 1),
        "p50_ms": round(statistics.median(times), 3), "p99_ms": round(p99(times), 3),
        "max_ms": round(times[-1], 3), "best_p99_ms": round(best_p99(each), 3),
        "cpu_p50_ms": round(statistics.median(cpu_times), 3), "cpu_p99_ms": round(p99(cpu_times), 3), "cpu_best_p99_ms": round(best_p99(cpu), 3),
    }
    print(f"workspace: {ws.root}")
    print(f"{res['utterances']} utterances x {a.repeat} = {res['decisions']} decisions (every file sampled once first, {res['catalog_build_ms']} ms; "
          f"one untimed pass first, {first_ms:.0f} ms)")
    print(f"decide latency (target p99 < 5 ms)      p50       p99       max   p99 of each utterance's best of {a.repeat}")
    print(f"  wall time                      {res['p50_ms']:8.2f}  {res['p99_ms']:8.2f}  {res['max_ms']:8.2f}  {res['best_p99_ms']:8.2f}")
    print(f"  CPU time of the deciding thread {res['cpu_p50_ms']:7.2f}  {res['cpu_p99_ms']:8.2f}  {max(cpu_times):8.2f}  {res['cpu_best_p99_ms']:8.2f}")
    return res


if __name__ == "__main__":
    main()
