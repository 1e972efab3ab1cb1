"""Writing results, side by side in one run: wenqing's CSV writer against polars' write_csv, its xlsx writer against
XlsxWriter constant_memory alone, and top-N by nlargest against a full sort. Prints figures and ratios.

usage: python benchmarks/write_bench.py [--csv-rows 1000000] [--xlsx-rows 200000] [--repeat 3] [--dir DIR]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def frame(rows: int, text_formulas: bool = True) -> Any:
    """Eight columns as a filtered sales table has them: ids, text with Chinese, numbers, dates, a few formulas."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(7)
    notes = rng.choice(["加急", "普通", "", "=1+1", "@SUM(A1)"] if text_formulas else ["加急", "普通", ""], rows, p=None)
    return pd.DataFrame({
        "订单号": pd.array([f"SO{i:07d}" for i in range(rows)], dtype="str"),
        "城市": pd.array(rng.choice(["上海", "北京", "广州", "深圳", "杭州"], rows), dtype="str"),
        "产品": pd.array(rng.choice(["笔记本", "显示器", "键盘", "鼠标"], rows), dtype="str"),
        "数量": rng.integers(1, 50, rows),
        "单价": rng.choice([89.0, 199.0, 399.5, 1299.0], rows),
        "金额": rng.random(rows).round(2) * 10000,
        "日期": pd.to_datetime("2024-01-01") + pd.to_timedelta(rng.integers(0, 365, rows), unit="D"),
        "备注": pd.array(notes, dtype="str"),
    })


def side_by_side(fns: dict[str, Callable[[], Any]], repeat: int) -> dict[str, tuple[float, float]]:
    """Best wall-clock and CPU seconds of each function, the runs interleaved so that a busy machine weighs on
    every contender alike."""
    wall: dict[str, list[float]] = {k: [] for k in fns}
    cpu: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(repeat):
        for k, fn in fns.items():
            t, c = time.perf_counter(), time.process_time()
            fn()
            wall[k].append(time.perf_counter() - t)
            cpu[k].append(time.process_time() - c)
    return {k: (min(wall[k]), min(cpu[k])) for k in fns}


def xlsxwriter_alone(df: Any, path: Path) -> None:
    """The reference: XlsxWriter in constant_memory mode writing the same rows, no guard, no styling."""
    import xlsxwriter

    wb = xlsxwriter.Workbook(str(path), {"constant_memory": True})
    sh = wb.add_worksheet()
    sh.write_row(0, 0, [str(c) for c in df.columns])
    for r, row in enumerate(df.itertuples(index=False, name=None), start=1):
        sh.write_row(r, 0, row)
    wb.close()


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv-rows", type=int, default=1_000_000)
    ap.add_argument("--xlsx-rows", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", default=None)
    a = ap.parse_args(argv)
    from tools.workspace import Workspace
    from tools.write import write_csv_file, write_xlsx_file

    base = Path(a.dir) if a.dir else Path(tempfile.mkdtemp(prefix="wenqing-write-"))
    base.mkdir(parents=True, exist_ok=True)
    ws = Workspace.at(base)
    out: dict[str, float] = {}

    df = frame(a.csv_rows)
    contenders: dict[str, Callable[[], Any]] = {"wenqing write_csv_file (guard + BOM + atomic)": lambda: write_csv_file(ws, df, "bench")}
    try:
        import polars as pl

        pdf = pl.from_pandas(df)
        contenders["polars write_csv"] = lambda: pdf.write_csv(base / "polars.csv")
        contenders["polars from_pandas + write_csv"] = lambda: pl.from_pandas(df).write_csv(base / "polars2.csv")
    except ImportError:
        print("polars is not installed (pip install polars): no reference for CSV")
    csv_t = side_by_side(contenders, a.repeat)
    print(f"CSV, {a.csv_rows:,} rows × {len(df.columns)} columns (best of {a.repeat}; wall / CPU)")
    for k, (w, c) in csv_t.items():
        print(f"  {k:<46} {w:.3f} s / {c:.3f} s")
    ours = csv_t["wenqing write_csv_file (guard + BOM + atomic)"]
    out["csv_wenqing"] = ours[0]
    if "polars write_csv" in csv_t:
        ref = csv_t["polars write_csv"]
        out["csv_polars"] = ref[0]
        print(f"  ratio wenqing / polars write_csv               {ours[0] / ref[0]:.2f}× wall, {ours[1] / ref[1]:.2f}× CPU (goal ≤ 2×)")

    dx = frame(a.xlsx_rows)
    xlsx_t = side_by_side({"wenqing write_xlsx_file (styled, guarded)": lambda: write_xlsx_file(ws, dx, "bench"),
                           "XlsxWriter constant_memory alone": lambda: xlsxwriter_alone(dx, base / "alone.xlsx")}, a.repeat)
    print(f"xlsx, {a.xlsx_rows:,} rows × {len(dx.columns)} columns (best of {a.repeat}; wall / CPU)")
    for k, (w, c) in xlsx_t.items():
        print(f"  {k:<46} {w:.3f} s / {c:.3f} s")
    ours, ref = xlsx_t["wenqing write_xlsx_file (styled, guarded)"], xlsx_t["XlsxWriter constant_memory alone"]
    out["xlsx_wenqing"], out["xlsx_alone"] = ours[0], ref[0]
    print(f"  ratio wenqing / XlsxWriter alone               {ours[0] / ref[0]:.2f}× wall, {ours[1] / ref[1]:.2f}× CPU (goal ≤ 1.1×)")

    from tools.ops import top_n

    top_t = side_by_side({"top": lambda: top_n(df, "金额", 10),
                          "sort": lambda: df.sort_values("金额", ascending=False, kind="stable").head(10)}, a.repeat)
    out["top_wenqing"], out["top_sort"] = top_t["top"][0], top_t["sort"][0]
    ref = df.sort_values("金额", ascending=False, kind="stable").head(10).reset_index(drop=True)
    same = top_n(df, "金额", 10).data.equals(ref)
    print(f"top-10 of {a.csv_rows:,} rows: wenqing {out['top_wenqing'] * 1000:.1f} ms, full stable sort "
          f"{out['top_sort'] * 1000:.1f} ms, same rows: {same}")

    if not a.dir:
        shutil.rmtree(base, ignore_errors=True)
    return out


if __name__ == "__main__":
    main()
