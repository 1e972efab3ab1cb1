"""Each analysis tool on a generated table of many rows (default 1,000,000): prints seconds per operation.

usage: python benchmarks/analysis_bench.py [--rows 1000000] [--dir /tmp/wenqing-analysis-bench]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOAL_S = 2.0


def make_table(rows: int) -> Any:
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(1)
    return pd.DataFrame({
        "日期": pd.Timestamp("2021-01-01") + pd.to_timedelta(rng.integers(0, 4 * 365, rows), unit="D"),
        "区域": rng.choice(["华东", "华北", "华南", "西部", "东北"], rows),
        "产品": rng.choice(["笔记本", "显示器", "键盘", "鼠标", "耳机"], rows),
        "销售额": rng.gamma(2.0, 500.0, rows).round(2),
        "成本": rng.gamma(2.0, 300.0, rows).round(2),
        "数量": rng.integers(1, 50, rows),
    })


def cases(rows: int) -> list[tuple[str, str, dict[str, Any]]]:
    gt = [{"column": "销售额", "op": "gt", "value": 1000}]
    east = [{"column": "区域", "op": "eq", "value": "华东"}]
    return [
        ("中位数/标准差/方差/分位数", "column_stats", {"columns": ["销售额"], "stats": ["median", "std", "var", "q1", "q3", "iqr", "p90", "cv"]}),
        ("describe 多列", "column_stats", {"columns": ["销售额", "成本", "数量"]}),
        ("分组中位数", "column_stats", {"columns": ["销售额"], "stats": ["median", "std"], "by": ["区域"]}),
        ("众数", "column_stats", {"columns": ["区域", "数量"], "stats": ["mode", "nunique"]}),
        ("占比", "share_of_total", {"keys": ["区域"], "column": "销售额"}),
        ("组内占比", "share_of_total", {"keys": ["产品"], "column": "销售额", "within": ["区域"]}),
        ("满足条件的比例", "proportion_where", {"conditions": gt}),
        ("组内满足条件的比例", "proportion_where", {"conditions": gt, "by": ["区域"]}),
        ("最高和最低(并列全列)", "extremes", {"by": "销售额"}),
        ("按两列之比筛选", "rows_by_share_of_column", {"numerator": "成本", "denominator": "销售额", "op": "gt", "percent": 50.0}),
        ("两列之比(逐行, 取最高)", "column_ratio", {"numerator": "成本", "denominator": "销售额", "label": "产品", "which": "max"}),
        ("高于组内平均", "compare_to_aggregate", {"column": "销售额", "by": ["区域"]}),
        ("每组前3", "top_n_per_group", {"by": ["区域"], "column": "销售额", "n": 3}),
        ("组内排名", "rank_rows", {"column": "销售额", "by": ["区域"]}),
        ("按月汇总", "bucket_dates", {"column": "日期", "unit": "month", "value": "销售额"}),
        ("按星期汇总", "bucket_dates", {"column": "日期", "unit": "weekday", "value": "销售额"}),
        ("环比", "period_growth", {"column": "日期", "value": "销售额", "unit": "month"}),
        ("同比", "period_growth", {"column": "日期", "value": "销售额", "unit": "quarter", "kind": "yoy"}),
        ("年均增长率", "cagr", {"column": "日期", "value": "销售额"}),
        ("累计", "running_total", {"column": "销售额", "order_by": "日期"}),
        ("透视表", "pivot_table", {"rows": ["区域"], "columns": "产品", "value": "销售额"}),
        ("交叉计数", "pivot_table", {"rows": ["区域"], "columns": "产品"}),
        ("宽转长", "unpivot", {"id_columns": ["日期", "区域", "产品"], "value_columns": ["销售额", "成本"]}),
        ("公式列", "formula_column", {"name": "毛利率", "expression": "(销售额 - 成本) / 销售额 × 100"}),
        ("条件替换", "replace_values", {"column": "成本", "value": 0, "conditions": east}),
        ("值映射", "map_values", {"column": "区域", "mapping": {"华东": "East", "华北": "North"}}),
        ("填空(中位数)", "fill_blanks", {"columns": ["销售额"], "method": "median"}),
        ("删除行", "delete_rows", {"conditions": gt}),
        ("Welch t 检验", "welch_t_test", {"column": "销售额", "group": "区域", "levels": ["华东", "华北"]}),
        ("方差分析", "anova_test", {"column": "销售额", "group": "区域"}),
        ("卡方检验", "chi_square_test", {"a": "区域", "b": "产品"}),
        ("正态性检验(抽样5000)", "normality_test", {"column": "销售额"}),
        ("Spearman 相关", "correlation_test", {"a": "销售额", "b": "成本", "method": "spearman"}),
        ("线性趋势", "linear_trend", {"x": "数量", "y": "销售额"}),
        ("查值", "lookup_value", {"key_column": "区域", "key": "西部", "columns": ["销售额"]}),
    ]


def main(argv: list[str] | None = None) -> list[tuple[str, float]]:
    p = argparse.ArgumentParser()
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--dir", default=None)
    a = p.parse_args(argv)
    import pandas as pd

    from tools import registry
    from tools.workspace import Workspace

    t0 = time.perf_counter()
    df = make_table(a.rows)
    print(f"{a.rows:,} rows generated in {time.perf_counter() - t0:.2f} s; goal per operation < {GOAL_S} s\n")
    results: list[tuple[str, float]] = []
    width = 26
    print(f"{'operation':<{width}} {'tool':<22} {'seconds':>8}  rows out")
    for label, name, args in cases(a.rows):
        t = time.perf_counter()
        res = registry.call(name, {"table": df, **args})
        dt = time.perf_counter() - t
        results.append((label, dt))
        n = len(res.data) if res.data is not None else 0
        print(f"{label:<{width - 2}} {name:<22} {dt:>8.3f}  {n:,}{'' if dt < GOAL_S else '  (over goal)'}")
    monthly = registry.call("bucket_dates", {"table": df, "column": "日期", "unit": "month", "value": "销售额"}).data
    wide = monthly.assign(年=monthly["月份"].str[:4] + "年", 区=1).pivot_table(index="区", columns="年", values="销售额_合计", aggfunc="sum").reset_index()
    wide["区"] = "全部"
    with tempfile.TemporaryDirectory(dir=a.dir) as d:
        ws = Workspace.at(d)
        import numpy as np

        months = [f"{y}年{m}月" for y in range(2015, 2023) for m in range(1, 13)]
        monthly_wide = pd.DataFrame({"指标": [f"指标{i}" for i in range(a.rows // 100)],
                                     **{c: np.random.default_rng(i).uniform(1, 100, a.rows // 100) for i, c in enumerate(months)}})
        big = pd.DataFrame({"指标": [f"指标{i}" for i in range(a.rows)],
                            **{f"{y}年": np.random.default_rng(y).uniform(1, 100, a.rows).round(2) for y in range(2015, 2023)}})
        for label, name, args in [("宽表汇总", "wide_summary", {"table": wide}), ("宽表增长", "wide_growth", {"table": wide}),
                                  ("按年的各月方差(宽表)", "wide_stats_per_year", {"table": monthly_wide, "stats": ["var", "mean"]}),
                                  ("两期对比(阈值, 每行一项)", "wide_change", {"table": big, "first": "2016年", "last": "2021年", "above": 10.0}),
                                  ("按月柱状图(汇总后)", "write_chart", {"ws": ws, "table": monthly, "kind": "bar", "x": "月份", "y": ["销售额_合计"], "stem": "bench"})]:
            t = time.perf_counter()
            registry.call(name, args)
            dt = time.perf_counter() - t
            results.append((label, dt))
            print(f"{label:<{width - 2}} {name:<22} {dt:>8.3f}")
    over = [x for x, dt in results if dt >= GOAL_S]
    print(f"\n{len(results) - len(over)}/{len(results)} operations under {GOAL_S} s" + (f"; over: {', '.join(over)}" if over else ""))
    del pd
    return results


if __name__ == "__main__":
    main()
