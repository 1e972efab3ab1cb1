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


def best(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


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
    out["csv_wenqing"] = best(lambda: write_csv_file(ws, df, "bench"), a.repeat)
    try:
        import polars as pl

        pdf = pl.from_pandas(df)
        out["csv_polars"] = best(lambda: pdf.write_csv(base / "polars.csv"), a.repeat)
        out["csv_polars_from_pandas"] = best(lambda: pl.from_pandas(df).write_csv(base / "polars2.csv"), a.repeat)
    except ImportError:
        print("polars is not installed (pip install polars): no reference for CSV")
    print(f"CSV, {a.csv_rows:,} rows × {len(df.columns)} columns (best of {a.repeat})")
    print(f"  wenqing write_csv_file (guard + BOM + atomic)  {out['csv_wenqing']:.3f} s")
    if "csv_polars" in out:
        print(f"  polars write_csv                              {out['csv_polars']:.3f} s")
        print(f"  polars from_pandas + write_csv                {out['csv_polars_from_pandas']:.3f} s")
        print(f"  ratio wenqing / polars write_csv              {out['csv_wenqing'] / out['csv_polars']:.2f}× (goal ≤ 2×)")

    dx = frame(a.xlsx_rows)
    out["xlsx_wenqing"] = best(lambda: write_xlsx_file(ws, dx, "bench"), a.repeat)
    out["xlsx_alone"] = best(lambda: xlsxwriter_alone(dx, base / "alone.xlsx"), a.repeat)
    print(f"xlsx, {a.xlsx_rows:,} rows × {len(dx.columns)} columns (best of {a.repeat})")
    print(f"  wenqing write_xlsx_file (styled, guarded)     {out['xlsx_wenqing']:.3f} s")
    print(f"  XlsxWriter constant_memory alone              {out['xlsx_alone']:.3f} s")
    print(f"  ratio wenqing / XlsxWriter alone              {out['xlsx_wenqing'] / out['xlsx_alone']:.2f}× (goal ≤ 1.1×)")

    from tools.ops import top_n

    out["top_wenqing"] = best(lambda: top_n(df, "金额", 10), a.repeat)
    out["top_sort"] = best(lambda: df.sort_values("金额", ascending=False, kind="stable").head(10), a.repeat)
    ref = df.sort_values("金额", ascending=False, kind="stable").head(10).reset_index(drop=True)
    same = top_n(df, "金额", 10).data.equals(ref)
    print(f"top-10 of {a.csv_rows:,} rows: wenqing {out['top_wenqing'] * 1000:.1f} ms, full stable sort "
          f"{out['top_sort'] * 1000:.1f} ms, same rows: {same}")

    if not a.dir:
        shutil.rmtree(base, ignore_errors=True)
    return out


if __name__ == "__main__":
    main()
