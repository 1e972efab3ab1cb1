"""Decisions on big workspaces: `wenqing decide "你好"` as a whole process (cold and warm catalog cache) and the
decide p99 over the dev set, on the dev workspace plus N extra files and on one 1,000-column sheet.

usage: python benchmarks/decide_scale.py [--files 500] [--columns 1000] [--repeat 5] [--dir /tmp/wq-decide-scale]
The workspaces are generated in --dir (default: a temporary folder) and deleted afterwards.
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

from benchmarks.decide_latency import best_p99, load, per_item  # noqa: E402
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


def process_seconds(ws: Path | None, utterance: str | None, env: dict[str, str] | None = None, args: list[str] | None = None) -> float:
    cmd = _command() + (args if args is not None else ["decide", "--workspace", str(ws), str(utterance)])
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    return time.perf_counter() - t


def startup_seconds(ws: Path, env: dict[str, str]) -> float:
    """Imports, a session and a prompt, in a fresh process (the interpreter's own start not counted)."""
    out = subprocess.run([sys.executable, "-c", STARTUP, str(ROOT), str(ws)], check=True, capture_output=True, text=True, env=env)
    return float(out.stdout.split()[0])


def startup_lines(many: Path, plain: Path, repeat: int = 5) -> dict[str, float]:
    """`decide "你好"` on the big workspace (cold and warm catalog cache), `--version` and start-up to a ready prompt,
    each without the project's bytecode (as this machine runs it) and with every module's bytecode."""
    res: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="wq-pyc-") as pyc:
        for label, env in (("as here", bytecode_env(None)), ("bytecode", bytecode_env(Path(pyc)))):
            process_seconds(many, "你好", env)  # writes the bytecode once when allowed
            cold = []
            for _ in range(repeat):
                shutil.rmtree(many / ".wenqing", ignore_errors=True)
                cold.append(process_seconds(many, "你好", env))
            warm = [process_seconds(many, "你好", env) for _ in range(repeat)]
            version = [process_seconds(None, None, env, ["--version"]) for _ in range(repeat)]
            start = [startup_seconds(plain, env) for _ in range(repeat)]
            key = label.replace(" ", "_")
            res.update({f"hello_cold_s_{key}": min(cold), f"hello_warm_s_{key}": min(warm), f"version_s_{key}": min(version),
                        f"startup_s_{key}": min(start)})
            print(f"  [{label:<8}] decide '你好': cold {min(cold):.3f} s (goal < 0.5)   warm {min(warm):.3f} s (goal < 0.3)   "
                  f"--version {min(version):.3f} s (goal < 0.2)   start-up to a prompt {min(start):.3f} s (goal < 0.35)")
    return res


def p99(ws: Path, items: list[dict], repeat: int) -> tuple[float, float, float, float]:
    """(catalog first-use ms, p50 ms, p99 ms, p99 of each item's best ms) over the items, in one process with a
    warm catalog."""
    from engine.catalog import CatalogCache
    from tools.workspace import Workspace

    w = Workspace.at(ws)
    t0 = time.perf_counter()
    catalog = CatalogCache(persist=False).build(w)
    for f in catalog.tables:  # the first decision that looks inside every file pays for this, once
        _ = f.sheets
    build = (time.perf_counter() - t0) * 1000
    each = per_item(catalog, items, repeat)
    times = sorted(t for ts in each for t in ts)
    return build, statistics.median(times), times[max(0, int(len(times) * 0.99) - 1)], best_p99(each)


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=500)
    ap.add_argument("--columns", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--labels", type=Path, default=SHARED / "decisions_dev.jsonl")
    ap.add_argument("--dir", type=Path, default=None)
    a = ap.parse_args(argv)
    base = a.dir or Path(tempfile.mkdtemp(prefix="wq-decide-scale-"))
    items = load(a.labels)
    res: dict[str, float] = {}
    try:
        many, wide, plain = base / "many", base / "wide", base / "plain"
        for ws in (many, wide, plain):
            seed_workspace(ws)
        make_many(many, a.files)
        make_wide(wide, a.columns)
        n_many = sum(1 for _ in many.iterdir())
        print(f"workspace of {n_many} files ({a.files} generated + the dev workspace); best of {a.repeat} whole processes:")
        res.update(startup_lines(many, plain, a.repeat))
        res["hello_cold_s"], res["hello_warm_s"] = res["hello_cold_s_as_here"], res["hello_warm_s_as_here"]
        shutil.rmtree(many / ".wenqing", ignore_errors=True)
        named = process_seconds(many, f"{PLACES[0]}_{TOPICS[0]}_2020_000 按地区汇总数量")
        res.update(named_cold_s=named)
        print(f"  decide naming one file, whole process, cold cache: {named:.3f} s")
        print(f"decide latency over {len(items)} utterances x {a.repeat} (goal p99 < 5 ms):")
        for label, ws in (("dev workspace", plain), (f"+{a.files} files", many), (f"+{a.columns}-column sheet", wide)):
            build, p50, pp, best = p99(ws, items, a.repeat)
            key = label.split()[0].strip("+").replace("-", "_")
            res[f"p99_{key}_ms"] = pp
            print(f"  {label:<22} p50 {p50:6.2f} ms   p99 {pp:6.2f} ms   p99 of best-of-{a.repeat} {best:6.2f} ms   "
                  f"(every file sampled once: {build:7.0f} ms)")
    finally:
        if a.dir is None:
            shutil.rmtree(base, ignore_errors=True)
    return res


if __name__ == "__main__":
    main()
