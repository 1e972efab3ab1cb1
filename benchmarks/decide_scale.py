"""Decisions on big workspaces: `wenqing decide "你好"` as a whole process (cold and warm catalog cache) and the
decide p99 over the dev set, on the dev workspace plus N extra files and on one 1,000-column sheet.

usage: python benchmarks/decide_scale.py [--files 500] [--columns 1000] [--repeat 5] [--dir DIR [--keep]] [--baseline OTHER/.venv/bin/wenqing]
The workspaces are generated in --dir (default: a temporary folder) and deleted afterwards unless --keep is given.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.decide_latency import best_p99, load, p99, per_item  # noqa: E402
from benchmarks.io_bench import STARTUP  # noqa: E402

SHARED = ROOT.parent / "shared" / "eval"
TOPICS = ["销售", "库存", "订单", "客户", "员工", "采购", "财务", "门店", "物流", "会员"]
PLACES = ["华东", "华南", "华北", "西南", "东北", "西北", "华中"]


def make_many(root: Path, n: int) -> None:
    """n small tables (half csv, half xlsx) with varied names and columns."""
    import pandas as pd

    rng = random.Random(3)
    for i in range(n):
        topic, place = TOPICS[i % len(TOPICS)], PLACES[(i // len(TOPICS)) % len(PLACES)]
        rows = 60
        df = pd.DataFrame({
            "编号": [f"N{i:03d}{j:03d}" for j in range(rows)],
            "地区": [rng.choice(PLACES) for _ in range(rows)],
            f"{topic}额": [rng.randint(1, 9999) for _ in range(rows)],
            "数量": [rng.randint(1, 50) for _ in range(rows)],
            "日期": [f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}" for _ in range(rows)],
            "备注": [rng.choice(["", "加急", "退货", "正常"]) for _ in range(rows)],
        })
        stem = f"{place}_{topic}_{2020 + i % 5}_{i:03d}"
        if i % 2:
            df.to_csv(root / f"{stem}.csv", index=False)
        else:
            df.to_excel(root / f"{stem}.xlsx", index=False)


def make_wide(root: Path, columns: int) -> None:
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(4)
    data = {f"指标{j:04d}" if j % 3 else f"field_{j:04d}": rng.integers(0, 100, 50) for j in range(columns)}
    pd.DataFrame(data).to_excel(root / "宽表.xlsx", index=False)


def seed_workspace(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    src = SHARED / "workspace" if (SHARED / "workspace").is_dir() else ROOT / "examples"
    for p in src.iterdir():
        if p.is_file() and not p.name.startswith("."):
            shutil.copy2(p, root / p.name)


def _command() -> list[str]:
    exe = Path(sys.executable).with_name("wenqing")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "repl.cli"]


def bytecode_env(prefix: Path | None) -> dict[str, str]:
    """The environment to run in: as it is here (prefix None), or with every module's bytecode written once into
    `prefix` and read from there (as an installed package has it)."""
    env = dict(os.environ)
    if prefix is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(prefix)
    return env


def process_seconds(ws: Path | None, utterance: str | None, env: dict[str, str] | None = None, args: list[str] | None = None,
                    command: list[str] | None = None) -> float:
    cmd = (command or _command()) + (args if args is not None else ["decide", "--workspace", str(ws), str(utterance)])
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    return time.perf_counter() - t


def startup_seconds(ws: Path, env: dict[str, str], python: str = sys.executable, root: Path = ROOT) -> float:
    """Imports, a session and a prompt, in a fresh process (the interpreter's own start not counted)."""
    out = subprocess.run([python, "-c", STARTUP, str(root), str(ws)], check=True, capture_output=True, text=True, env=env)
    return float(out.stdout.split()[0])


def startup_lines(many: Path, plain: Path, repeat: int = 5, baseline: Path | None = None) -> dict[str, float]:
    """`decide "你好"` on the big workspace (cold and warm catalog cache), `--version` and start-up to a ready prompt,
    each without bytecode (PYTHONDONTWRITEBYTECODE and no bytecode in the cache used) and with every module's bytecode;
    with a baseline (another checkout's wenqing), its figures are measured in turn with these, side by side."""
    res: dict[str, float] = {}
    runs = [("this", _command(), sys.executable, ROOT)]
    if baseline is not None:  # <checkout>/.venv/bin/wenqing
        runs.append(("baseline", [str(baseline)], str(baseline.with_name("python")), baseline.parent.parent.parent))
    with tempfile.TemporaryDirectory(prefix="wq-pyc-") as pyc, tempfile.TemporaryDirectory(prefix="wq-nopyc-") as none:
        for label, env in (("no bytecode", {**bytecode_env(Path(none)), "PYTHONDONTWRITEBYTECODE": "1"}), ("bytecode", bytecode_env(Path(pyc)))):
            figures: dict[str, dict[str, list[float]]] = {name: {"cold": [], "warm": [], "version": [], "start": []} for name, *_ in runs}
            for _name, cmd, *_ in runs:
                process_seconds(many, "你好", env, command=cmd)  # writes the bytecode once when allowed
            for _ in range(repeat):  # the checkouts in turn, so a busy moment of the machine falls on both
                for name, cmd, python, root in runs:
                    f = figures[name]
                    shutil.rmtree(many / ".wenqing", ignore_errors=True)
                    f["cold"].append(process_seconds(many, "你好", env, command=cmd))
                    f["warm"].append(process_seconds(many, "你好", env, command=cmd))
                    f["version"].append(process_seconds(None, None, env, ["--version"], command=cmd))
                    f["start"].append(startup_seconds(plain, env, python, root))
            for name, *_ in runs:
                f = figures[name]
                key = label.replace(" ", "_") + ("" if name == "this" else "_baseline")
                res.update({f"hello_cold_s_{key}": min(f["cold"]), f"hello_warm_s_{key}": min(f["warm"]),
                            f"version_s_{key}": min(f["version"]), f"startup_s_{key}": min(f["start"])})
                print(f"  [{label:<11}] {name:<8} decide '你好': cold {min(f['cold']):.3f} s (goal < 0.5)   warm {min(f['warm']):.3f} s "
                      f"(goal < 0.3)   --version {min(f['version']):.3f} s (goal < 0.2)   start-up to a prompt {min(f['start']):.3f} s (goal < 0.35)")
    return res


def latency(ws: Path, items: list[dict], repeat: int) -> tuple[float, float, float, float, float, float]:
    """(catalog first-use ms, p50 ms, p99 ms, p99 of each item's best ms, CPU p99 ms, CPU p99 of each item's best ms)
    over the items, in one process with a warm catalog, after one untimed pass."""
    from engine.catalog import CatalogCache
    from tools.workspace import Workspace

    w = Workspace.at(ws)
    t0 = time.perf_counter()
    catalog = CatalogCache(persist=False).build(w)
    for f in catalog.tables:  # the first decision that looks inside every file pays for this, once
        _ = f.sheets
    build = (time.perf_counter() - t0) * 1000
    per_item(catalog, items, 1)
    cpu: list[list[float]] = []
    each = per_item(catalog, items, repeat, cpu)
    times = [t for ts in each for t in ts]
    return build, statistics.median(times), p99(times), best_p99(each), p99([t for ts in cpu for t in ts]), best_p99(cpu)


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=500)
    ap.add_argument("--columns", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--labels", type=Path, default=SHARED / "decisions_dev.jsonl")
    ap.add_argument("--dir", type=Path, default=None)
    ap.add_argument("--baseline", type=Path, default=None, help="another checkout's .venv/bin/wenqing, measured side by side")
    ap.add_argument("--keep", action="store_true", help="keep the generated workspaces in --dir (and reuse them)")
    a = ap.parse_args(argv)
    base = a.dir or Path(tempfile.mkdtemp(prefix="wq-decide-scale-"))
    items = load(a.labels)
    res: dict[str, float] = {}
    try:
        many, wide, plain = base / "many", base / "wide", base / "plain"
        if not (a.keep and many.is_dir() and wide.is_dir() and plain.is_dir()):
            for ws in (many, wide, plain):
                seed_workspace(ws)
            make_many(many, a.files)
            make_wide(wide, a.columns)
        n_many = sum(1 for p in many.iterdir() if not p.name.startswith("."))
        print(f"workspace of {n_many} files ({a.files} generated + the dev workspace); best of {a.repeat} whole processes:")
        res.update(startup_lines(many, plain, a.repeat, a.baseline))
        res["hello_cold_s"], res["hello_warm_s"] = res["hello_cold_s_no_bytecode"], res["hello_warm_s_no_bytecode"]
        shutil.rmtree(many / ".wenqing", ignore_errors=True)
        named = process_seconds(many, f"{PLACES[0]}_{TOPICS[0]}_2020_000 按地区汇总数量")
        res.update(named_cold_s=named)
        print(f"  decide naming one file, whole process, cold cache: {named:.3f} s")
        print(f"decide latency over {len(items)} utterances x {a.repeat} (goal p99 < 5 ms), wall time and the deciding thread's CPU time:")
        print(f"  {'':<22} {'p50':>6}  {'p99':>7}  {'p99 best-of-' + str(a.repeat):>14}  {'CPU p99':>8}  {'CPU best-of':>11}")
        for label, ws in (("dev workspace", plain), (f"+{a.files} files", many), (f"+{a.columns}-column sheet", wide)):
            build, p50, pp, best, cpu, cpu_best = latency(ws, items, a.repeat)
            key = label.split()[0].strip("+").replace("-", "_")
            res[f"p99_{key}_ms"], res[f"cpu_p99_{key}_ms"] = pp, cpu
            print(f"  {label:<22} {p50:6.2f}  {pp:7.2f}  {best:14.2f}  {cpu:8.2f}  {cpu_best:11.2f}   (every file sampled once: {build:6.0f} ms)")
    finally:
        if a.dir is None or not a.keep:
            shutil.rmtree(base, ignore_errors=True)
    return res


if __name__ == "__main__":
    main()
