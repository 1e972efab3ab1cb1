"""The scale curve: 分析 and group → export end to end through a wenqing session, on CSVs of growing size, side by side
with DuckDB alone doing the same work in one process. Each run is a fresh process: wall time, time per row, peak RSS.

usage: python benchmarks/scale_curve.py [--sizes 10k,1M,5M,10M] [--encoding utf-8|gb18030] [--dir DIR] [--repeat N]
       [--baseline OTHER_CHECKOUT]
The CSVs are generated in --dir (default: a temporary folder) and deleted afterwards. 30M rows (~2 GB) is heavy:
pass it explicitly (--sizes 30M) and only on a machine with the disk and time for it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

GENERATE = """
COPY (
  SELECT i AS 订单号,
         ['上海','北京','广州','深圳','杭州','成都','武汉','西安'][1 + (hash(i) % 8)::INT] AS 城市,
         ['笔记本','显示器','键盘','鼠标','耳机'][1 + (hash(i * 7) % 5)::INT] AS 产品,
         1 + (hash(i * 13) % 20)::INT AS 数量,
         round(((hash(i * 31) % 100000) / 10.0)::DOUBLE, 1) AS 金额,
         CASE WHEN hash(i * 17) % 10 = 0 THEN NULL ELSE '2024-' || lpad((1 + hash(i) % 12)::VARCHAR, 2, '0') || '-01' END AS 日期
  FROM range({n}) t(i)
) TO '{path}' (FORMAT csv, HEADER true)
"""

WENQING = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from engine.session import Session
from tools.workspace import Workspace
s = Session(Workspace.at(sys.argv[2]))
if sys.argv[4] == "warm" and hasattr(s, "warm_up"):  # what the REPL loads while the user types, as the reference imports duckdb before its clock
    s.warm_up(background=False)
t = time.perf_counter()
statuses = []
tr = s.turn(sys.argv[3])
if tr.run is None and tr.decision.next in ("restate_confirm", "plan_confirm"):
    statuses.append(tr.decision.next)
    tr = s.turn("继续")
statuses.append(tr.run.status if tr.run else tr.decision.next)
secs = time.perf_counter() - t
print(json.dumps({"secs": secs, "statuses": statuses, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

DUCKDB = r"""
import json, resource, sys, time
import duckdb
t = time.perf_counter()
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")
con.execute("SET memory_limit = '1GB'")
src = f"read_csv('{sys.argv[1]}', header = true)"
if sys.argv[3] == "analyse":
    cols = [r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {src}").fetchall()]
    counts = ", ".join("count(" + chr(34) + c + chr(34) + ")" for c in cols)
    con.execute(f"SELECT count(*), {counts} FROM {src}").fetchall()
    con.execute(f"SELECT avg(数量), min(数量), max(数量), avg(金额), min(金额), max(金额), count(DISTINCT 城市), count(DISTINCT 产品), "
                f"count(DISTINCT 日期) FROM {src}").fetchall()
    for c in ("城市", "产品", "日期"):
        con.execute(f"SELECT {c}, count(*) FROM {src} GROUP BY 1 ORDER BY 2 DESC LIMIT 3").fetchall()
else:
    con.execute(f"COPY (SELECT 城市, sum(金额) AS 金额_合计, count(*) AS 行数 FROM {src} GROUP BY 1 ORDER BY 1) TO '{sys.argv[2]}' (HEADER true)")
print(json.dumps({"secs": time.perf_counter() - t, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

WORK = {
    "分析": ("全面分析一下 订单.csv", "analyse"),
    "group → export": ("订单.csv 按城市汇总金额，导出csv", "group"),
}


def parse_size(s: str) -> int:
    s = s.strip().lower()
    mult = {"k": 1_000, "m": 1_000_000}.get(s[-1], 1)
    return int(float(s[:-1] if s[-1] in "km" else s) * mult)


def make_csv(path: Path, n: int, encoding: str) -> None:
    import duckdb

    target = path if encoding == "utf-8" else path.with_suffix(".utf8.tmp")
    duckdb.connect().execute(GENERATE.format(n=n, path=str(target)))
    if encoding != "utf-8":
        with target.open("r", encoding="utf-8", newline="") as src, path.open("w", encoding=encoding, newline="") as dst:
            shutil.copyfileobj(src, dst, 8 * 1024**2)
        target.unlink()


def child(code: str, *args: str) -> dict:
    """Run one side in a fresh process: its own timing of the work, and the whole process's wall time (interpreter
    start, imports, session) as a user waits for it."""
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    return {**json.loads(out.stdout.strip().splitlines()[-1]), "process_secs": time.perf_counter() - t}


def best(runs: list[dict]) -> dict:
    """The fastest of several runs of one side (each figure its own minimum: the least disturbed run of a busy machine)."""
    out = dict(runs[-1])
    for k in ("secs", "process_secs", "rss_mb"):
        out[k] = min(r[k] for r in runs)
    return out


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10k,1M,5M,10M", help="comma-separated row counts, e.g. 10k,1M,30M")
    ap.add_argument("--encoding", default="utf-8", choices=["utf-8", "gb18030"])
    ap.add_argument("--dir", type=Path, default=None)
    ap.add_argument("--repeat", type=int, default=1, help="runs of each side, the best kept (they alternate)")
    ap.add_argument("--baseline", type=Path, default=None, help="an earlier checkout, measured in the same run (before)")
    a = ap.parse_args(argv)
    base = a.dir or Path(tempfile.mkdtemp(prefix="wq-scale-"))
    rows: list[dict] = []
    print("What each figure includes. DuckDB s: connect, settings, the query and its file, after `import duckdb`.")
    print("cold s: the first request of a fresh session, after importing the session module; it imports pandas, understanding")
    print("and the tools on the way. warm s: the same request after Session.warm_up(), what the REPL loads while the user types")
    print("(the modules; for a CSV read out of core, also its DuckDB database, which the reference makes inside its time).")
    print("proc: whole processes as a user waits for them, interpreter start and every import included.")
    print(f"{'rows':>11} {'work':<15} {'cold s':>7} {'warm s':>7} {'µs/row':>7} {'peak MB':>8} {'duckdb s':>8} {'duck MB':>8} "
          f"{'cold ×':>6} {'warm ×':>6} {'wq proc':>8} {'duck proc':>9} {'proc ×':>6}" + ("   before: cold × proc ×" if a.baseline else "") + "  status")
    try:
        for n in (parse_size(s) for s in a.sizes.split(",")):
            ws = base / f"ws_{n}"
            ws.mkdir(parents=True, exist_ok=True)
            csv = ws / "订单.csv"
            t = time.perf_counter()
            make_csv(csv, n, a.encoding)
            gen = time.perf_counter() - t
            print(f"{n:>11,} generated {csv.stat().st_size / 1e6:,.0f} MB ({a.encoding}) in {gen:.1f} s", flush=True)
            for label, (request, duck_work) in WORK.items():
                runs: dict[str, list[dict]] = {"cold": [], "warm": [], "duck": [], "before": []}
                for _ in range(a.repeat):
                    for side in ("cold", "warm", "before"):
                        if side == "before" and a.baseline is None:
                            continue
                        shutil.rmtree(ws / "outputs", ignore_errors=True)
                        shutil.rmtree(ws / ".wenqing", ignore_errors=True)  # every run starts cold: no cached copy yet
                        root = a.baseline if side == "before" else ROOT
                        runs[side].append(child(WENQING, str(root), str(ws), request, "warm" if side == "warm" else "cold"))
                    # DuckDB alone reads UTF-8 only (without extensions); for GB18030 the column stays empty
                    if a.encoding == "utf-8":
                        runs["duck"].append(child(DUCKDB, str(csv), str(base / f"duck_{n}.csv"), duck_work))
                w, warm = best(runs["cold"]), best(runs["warm"])
                d = best(runs["duck"]) if runs["duck"] else None
                b = best(runs["before"]) if runs["before"] else None
                row = {"rows": n, "work": label, "secs": w["secs"], "warm_secs": warm["secs"], "us_per_row": w["secs"] / n * 1e6,
                       "rss_mb": w["rss_mb"], "duck_secs": d["secs"] if d else None, "duck_rss_mb": d["rss_mb"] if d else None,
                       "status": w["statuses"], "process_secs": w["process_secs"], "duck_process_secs": d["process_secs"] if d else None}
                if b is not None:
                    row.update(before_secs=b["secs"], before_process_secs=b["process_secs"])
                rows.append(row)

                def ratio(x: float, y: float | None) -> str:
                    return f"{x / y:6.1f}" if y else "     -"

                nan = float("nan")
                before = (f"   {ratio(b['secs'], d['secs'] if d else None):>13} {ratio(b['process_secs'], d['process_secs'] if d else None)}"
                          if b is not None else "")
                print(f"{n:>11,} {label:<15} {w['secs']:7.2f} {warm['secs']:7.2f} {row['us_per_row']:7.2f} {w['rss_mb']:8.0f} "
                      f"{(d['secs'] if d else nan):8.2f} {(d['rss_mb'] if d else nan):8.0f} {ratio(w['secs'], d['secs'] if d else None)} "
                      f"{ratio(warm['secs'], d['secs'] if d else None)} {w['process_secs']:8.2f} {(d['process_secs'] if d else nan):9.2f} "
                      f"{ratio(w['process_secs'], d['process_secs'] if d else None)}{before}  {'/'.join(w['statuses'])}", flush=True)
            shutil.rmtree(ws, ignore_errors=True)
    finally:
        if a.dir is None:
            shutil.rmtree(base, ignore_errors=True)
    by = {(r["rows"], r["work"]): r for r in rows}
    for label in WORK:
        if (1_000_000, label) in by and (10_000_000, label) in by:
            k = by[(10_000_000, label)]["us_per_row"] / by[(1_000_000, label)]["us_per_row"]
            print(f"time per row 10M / 1M, {label}: {k:.2f} (goal <= 1.5)")
    return rows


if __name__ == "__main__":
    main()
