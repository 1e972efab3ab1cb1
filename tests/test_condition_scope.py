"""How far a condition reaches: or inside a value list, sequencing words, question words, exclusions, period suffixes.

Every result is recomputed with pandas on data made here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import header
from test_analyst_requests import talk
from test_analyst_requests import written as table

from engine.session import Session
from tools.workspace import Workspace


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("scope")
    rng = np.random.default_rng(11)
    n = 120
    hired = pd.Timestamp("2015-01-01") + pd.to_timedelta(rng.integers(0, 3300, n), unit="D")
    pd.DataFrame({"emp_id": [f"E{i:03d}" for i in range(n)], "department": rng.choice(["Sales", "Marketing", "Engineering", "Finance"], n),
                  "rating": rng.integers(1, 6, n), "hire_date": hired.strftime("%Y-%m-%d"),
                  "salary": rng.integers(5000, 30000, n)}).to_csv(root / "staff.csv", index=False)
    m = 90
    pd.DataFrame({"订单号": [f"S{i:03d}" for i in range(m)], "区域": rng.choice(["华北", "华南", "华东", "西南"], m),
                  "城市": rng.choice(["北京", "广州", "上海", "成都"], m), "销售员": rng.choice(["张伟", "李娜", "王芳", "刘洋", "陈静"], m),
                  "产品类别": rng.choice(["文具耗材", "电子产品", "家具"], m), "数量": rng.integers(1, 50, m),
                  "销售额": rng.integers(1000, 40000, m), "是否退货": rng.choice(["是", "否"], m, p=[0.25, 0.75]),
                  "日期": (pd.Timestamp("2023-06-01") + pd.to_timedelta(rng.integers(0, 500, m), unit="D")).strftime("%Y-%m-%d"),
                  }).to_csv(root / "orders.csv", index=False)
    return root


def ids(root: Path, text: str, key: str = "emp_id") -> list[str]:
    return sorted(table(root, talk(root, text))[key])


def per_group(root: Path, text: str, key: str, measure: str) -> dict:
    got = table(root, talk(root, text))
    col = next(c for c in got.columns if c.startswith(measure) and c != key)
    return dict(zip(got[key], got[col], strict=True))


@pytest.mark.parametrize("text", [
    "staff.csv 中 Sales 或 Marketing 部门、rating 不低于4、且 2020年以前入职的员工",
    "staff.csv 里 Sales或Marketing部门，rating 至少 4，并且 2020年以前入职",
    "staff.csv: Sales or Marketing department, rating at least 4 and hired before 2020",
])
def test_or_joins_the_values_of_one_column_and_the_conditions_stay_and(root, text):
    df = pd.read_csv(root / "staff.csv")
    want = df[df.department.isin(["Sales", "Marketing"]) & (df.rating >= 4) & (pd.to_datetime(df.hire_date) < "2020-01-01")]
    assert ids(root, text) == sorted(want["emp_id"])


def test_or_between_whole_conditions_still_joins_them(root):
    df = pd.read_csv(root / "staff.csv")
    want = df[(df.rating >= 5) | (df.department == "Finance")]
    assert ids(root, "staff.csv 筛选 rating 不低于5 或者 department 是 Finance") == sorted(want["emp_id"])


@pytest.mark.parametrize("text", [
    "orders.csv 先筛选区域为华北或华南，再按城市汇总销售额",
    "orders.csv 先筛选区域是华北、华南，然后按城市汇总销售额",
    "orders.csv filter 区域 is 华北 or 华南, then sum 销售额 by 城市",
])
def test_a_value_list_ends_at_a_sequencing_word(root, text):
    df = pd.read_csv(root / "orders.csv")
    want = df[df["区域"].isin(["华北", "华南"])].groupby("城市")["销售额"].sum()
    assert per_group(root, text, "城市", "销售额") == pytest.approx(want.to_dict())


@pytest.mark.parametrize("text", ["orders.csv 2024年销售额排名前三的销售员是谁", "orders.csv 销售员是哪些人",
                                  "orders.csv 2024年销售员 is who with the top 销售额"])
def test_a_question_word_is_never_a_value(root, text):
    tr = Session(Workspace.at(root)).turn(text)
    said = (tr.decision.reply or "") + (tr.run.answer if tr.run and tr.run.answer else "")
    for q in ("谁", "哪些", "who"):
        assert f"等于 {q}" not in said and f"= {q}" not in said and f"为 {q}" not in said, said
    assert tr.run is None or tr.run.status != "answered" or "0 行" not in said, said


@pytest.mark.parametrize("text", [
    "orders.csv 筛出区域为华东且销售额>20000的订单，剔除退货订单（是否退货=是）",
    "orders.csv 只看区域是华东、销售额大于20000的订单，去掉是否退货为是的",
])
def test_an_exclusion_negates_only_its_own_condition(root, text):
    df = pd.read_csv(root / "orders.csv")
    want = df[(df["区域"] == "华东") & (df["销售额"] > 20000) & (df["是否退货"] != "是")]
    assert len(want) > 0
    assert ids(root, text, "订单号") == sorted(want["订单号"])


@pytest.mark.parametrize("text,drop,measure,agg", [
    ("orders.csv 不包括文具耗材，其他产品类别的平均数量分别是多少", "文具耗材", "数量", "mean"),
    ("orders.csv 除了家具，其余产品类别的销售额合计各自是多少", "家具", "销售额", "sum"),
])
def test_excluded_value_then_the_others_per_group(root, text, drop, measure, agg):
    df = pd.read_csv(root / "orders.csv")
    want = df[df["产品类别"] != drop].groupby("产品类别")[measure].agg(agg)
    assert per_group(root, text, "产品类别", measure) == pytest.approx(want.to_dict())


@pytest.mark.parametrize("text,unit", [("staff.csv 按入职年份统计人数", "Y"), ("staff.csv count employees by hire year", "Y"),
                                       ("staff.csv 按入职季度统计人数", "Q"), ("staff.csv 按入职月份统计人数", "M")])
def test_a_period_word_after_a_date_column_buckets_the_date(root, text, unit):
    df = pd.read_csv(root / "staff.csv")
    want = pd.to_datetime(df.hire_date).dt.to_period(unit).value_counts()
    tr = talk(root, text)
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.next, tr.decision.reply)
    counts = sorted(int(v) for v in tr.run.table[header(tr, "行数")] if v > 0)
    assert counts == sorted(int(v) for v in want.values)
