"""Loading, profiling, filtering, grouping and exporting big files through wenqing's tools, side by side with the
naive path (pandas.read_excel with openpyxl). Prints figures and ratios measured in the same run.

usage: python benchmarks/io_bench.py [--rows 200000] [--csv-rows 1000000] [--dir /tmp/wenqing-bench]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def make_workbook(path: Path, rows: int) -> None:
    from openpyxl import Workbook

    rng = random.Random(1)
    wb = Workbook(write_only=True)
    sh = wb.create_sheet("明细")
    sh.append(["订单号", "日期", "城市", "产品", "数量", "单价", "金额", "备注"])
    cities, products = ["上海", "北京", "广州", "深圳", "杭州", "成都"], ["笔记本", "显示器", "键盘", "鼠标", "耳机"]
    d0 = date(2024, 1, 1)
    for i in range(rows):
        q, p = rng.randint(1, 20), rng.choice([89.0, 199.0, 399.0, 1299.0, 5200.0])
        sh.append([f"SO{i:07d}", d0 + timedelta(days=rng.randint(0, 365)), rng.choice(cities), rng.choice(products), q, p,
                   round(q * p, 2), None if rng.random() < 0.3 else "加急"])
    wb.save(path)


def make_csv(path: Path, rows: int, encoding: str = "gb18030") -> None:
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(2)
    df = pd.DataFrame({
        "id": np.arange(rows), "城市": rng.choice(["上海", "北京", "广州", "深圳"], rows),
        "金额": rng.integers(1, 10000, rows), "评分": rng.random(rows).round(2) * 5,
        "日期": pd.to_datetime("2024-01-01") + pd.to_timedelta(rng.integers(0, 365, rows), unit="D"),
    })
    df.loc[rng.random(rows) < 0.1, "评分"] = None
    df.to_csv(path, index=False, encoding=encoding)


def csv_load_ratios(folder: Path, rows: int, base: Path) -> None:
    """wenqing's CSV load against pd.read_csv(path, encoding=…) on the same file, best of 3 each, interleaved."""
    import pandas as pd

    from tools.io import read_table

    utf8 = folder / f"big_{rows}_utf8.csv"
    if not utf8.exists():
        make_csv(utf8, rows, "utf-8")
    print(f"\n{rows:,}-row CSV load, wenqing read_table vs pd.read_csv(path, encoding=…) (goal ratio <= 1.3)")
    for path, enc in ((utf8, "utf-8"), (base, "gb18030")):
        ours, theirs = [], []
        for _ in range(3):
            t, t_ours = timed(lambda p=path: read_table(p))
            ours.append(t_ours)
            _, t_pd = timed(lambda p=path, e=enc: pd.read_csv(p, encoding=e))
            theirs.append(t_pd)
        assert len(t.df) == rows and t.encoding == enc
        print(f"  {enc:<8} ({path.stat().st_size / 1e6:5.1f} MB): wenqing {min(ours):6.2f} s   pandas {min(theirs):6.2f} s   "
              f"ratio {min(ours) / min(theirs):4.2f}")


def timed(fn):  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from tools.workspace import Workspace
from tools import registry
t = time.perf_counter()
res = registry.call("profile_dataset", {"ws": Workspace.at(sys.argv[2]), "path": sys.argv[3]})
secs = time.perf_counter() - t
print(json.dumps({"secs": secs, "rows": res.facts["rows"], "encoding": res.facts["encoding"],
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

STARTUP = r"""
import sys, time
t = time.perf_counter()
sys.path.insert(0, sys.argv[1])
from prompt_toolkit import PromptSession
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.input import create_pipe_input
from rich.console import Console
import repl.fast, repl.loop  # the start-up path of a plain `wenqing [--workspace DIR]`
from engine.session import Session
from tools.workspace import Workspace
s = Session(Workspace.at(sys.argv[2]))
with create_pipe_input() as inp:
    PromptSession(input=inp, output=DummyOutput(), completer=repl.loop.WenqingCompleter(s.ws))
print(time.perf_counter() - t, "pandas" in sys.modules)
"""


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--csv-rows", type=int, default=1_000_000)
    ap.add_argument("--dir", type=Path, default=Path("/tmp/wenqing-bench"))
    ap.add_argument("--skip-naive", action="store_true")
    a = ap.parse_args(argv)
    a.dir.mkdir(parents=True, exist_ok=True)
    xlsx, csvf = a.dir / f"big_{a.rows}.xlsx", a.dir / f"big_{a.csv_rows}.csv"
    if not xlsx.exists():
        print(f"generating {xlsx.name} …", flush=True)
        make_workbook(xlsx, a.rows)
    if not csvf.exists():
        print(f"generating {csvf.name} …", flush=True)
        make_csv(csvf, a.csv_rows)

    import pandas as pd

    from tools import registry
    from tools.workspace import Workspace

    ws = Workspace.at(a.dir)
    call = registry.call
    from tools.io import read_table

    _, t_read = timed(lambda: read_table(xlsx))
    prof, t_load = timed(lambda: call("profile_dataset", {"ws": ws, "path": xlsx.name}))
    df = prof.data
    filt, t_filter = timed(lambda: call("filter_rows", {"table": df, "conditions": [{"column": "金额", "op": "gt", "value": 5000}, {"column": "备注", "op": "not_empty"}]}))
    grp, t_group = timed(lambda: call("group_summarize", {"table": df, "keys": ["城市", "产品"], "measures": [{"column": "金额", "agg": "sum"}]}))
    _, t_csv = timed(lambda: call("write_csv", {"ws": ws, "table": filt.data, "stem": "bench_filter"}))
    _, t_xlsx = timed(lambda: call("write_xlsx", {"ws": ws, "table": grp.data, "stem": "bench_group"}))
    print(f"\n{a.rows:,}-row x 8-column workbook ({xlsx.stat().st_size / 1e6:.1f} MB)")
    print(f"  wenqing load (fast path):        {t_read:7.2f} s")
    print(f"  wenqing load+profile:            {t_load:7.2f} s")
    print(f"  filter (2 conditions):           {t_filter:7.3f} s  -> {filt.facts['rows_out']:,} rows")
    print(f"  group by 2 keys:                 {t_group:7.3f} s  -> {grp.facts['groups']} groups")
    print(f"  export filtered rows to CSV:     {t_csv:7.3f} s")
    print(f"  export groups to xlsx:           {t_xlsx:7.3f} s")
    if not a.skip_naive:
        _, t_naive = timed(lambda: pd.read_excel(xlsx, engine="openpyxl"))
        print(f"  naive pd.read_excel(openpyxl):   {t_naive:7.2f} s")
        print(f"  ratio naive / wenqing load:      {t_naive / t_read:7.1f} x  (target >= 10 x)")
        print(f"  ratio naive / load+profile:      {t_naive / t_load:7.1f} x")

    csv_load_ratios(a.dir, a.csv_rows, csvf)
    out = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), str(a.dir), csvf.name], capture_output=True, text=True, check=True)
    r = json.loads(out.stdout)
    print(f"\n{a.csv_rows:,}-row CSV, GB18030 ({csvf.stat().st_size / 1e6:.1f} MB), profiled in a fresh process")
    print(f"  profile: {r['secs']:.2f} s (target < 5 s), peak memory {r['peak_mb']:.0f} MB (target < 1024 MB), encoding {r['encoding']}")

    times = []
    for _ in range(5):
        out = subprocess.run([sys.executable, "-c", STARTUP, str(ROOT), str(ROOT / "examples")], capture_output=True, text=True, check=True)
        secs, pandas_loaded = out.stdout.split()
        times.append(float(secs))
    print(f"\nstart-up to a ready prompt (imports + session + prompt): best {min(times):.3f} s, median {sorted(times)[2]:.3f} s "
          f"(target < 0.35 s); pandas imported at start-up: {pandas_loaded}")


if __name__ == "__main__":
    main()
