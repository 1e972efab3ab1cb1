"""Understanding on files and columns the rules were not written against: an HR roster, sales with two sheets,
an English customer list. The workspace is generated here."""

import random

import pandas as pd
import pytest
from conftest import run_turns

from engine.catalog import CatalogCache
from tools.workspace import Workspace


@pytest.fixture(scope="module")
def cat(tmp_path_factory):
    d = tmp_path_factory.mktemp("unseen")
    rng = random.Random(7)
    n = 80
    pd.DataFrame({
        "工号": [f"E{i:04d}" for i in range(n)], "姓名": [f"员工{i}" for i in range(n)],
        "部门": [rng.choice(["销售部", "财务部", "人事部", "技术部"]) for _ in range(n)],
        "岗位": [rng.choice(["经理", "专员", "主管"]) for _ in range(n)],
        "入职日期": pd.to_datetime([f"20{rng.randint(15, 24)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}" for _ in range(n)]),
        "月薪": [rng.randint(6000, 40000) for _ in range(n)],
        "邮箱": [None if rng.random() < 0.2 else f"e{i}@corp.cn" for i in range(n)],
    }).to_excel(d / "员工花名册.xlsx", index=False)
    with pd.ExcelWriter(d / "销售明细2024.xlsx") as w:
        pd.DataFrame({
            "日期": pd.to_datetime([f"2024-{rng.randint(1, 6):02d}-{rng.randint(1, 28):02d}" for _ in range(n)]),
            "区域": [rng.choice(["华东", "华南", "华北"]) for _ in range(n)],
            "销售员": [rng.choice(["张三", "李四", "王五"]) for _ in range(n)],
            "产品": [rng.choice(["A款", "B款", "C款"]) for _ in range(n)],
            "销量": [rng.randint(1, 50) for _ in range(n)], "销售额": [rng.randint(100, 9000) for _ in range(n)],
        }).to_excel(w, sheet_name="明细", index=False)
        pd.DataFrame({"区域": ["华东", "华南", "华北"], "目标": [100000, 80000, 60000]}).to_excel(w, sheet_name="目标", index=False)
    pd.DataFrame({
        "name": [f"Cust {i}" for i in range(n)], "email": [f"c{i}@x.com" for i in range(n)],
        "country": [rng.choice(["Japan", "Germany", "France", "USA"]) for _ in range(n)],
        "signup_date": [f"2023-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}" for _ in range(n)],
        "plan": [rng.choice(["free", "pro", "team"]) for _ in range(n)], "mrr": [rng.choice([0, 29, 99, 299]) for _ in range(n)],
    }).to_csv(d / "customers.csv", index=False)
    return CatalogCache().build(Workspace.at(d))


CASES = [
    # (utterance, next, mode, file, conditions as (column, op, value))
    ("员工花名册里技术部月薪超过两万的人", "execute", "transform", "员工花名册.xlsx", {("月薪", "gt", 20000), ("部门", "eq", "技术部")}),
    ("花名册 按部门统计平均月薪", "execute", "transform", "员工花名册.xlsx", set()),
    ("给我看下花名册前5行", "execute", "profile", "员工花名册.xlsx", set()),
    ("2020年以后入职的经理", "restate_confirm", "transform", "员工花名册.xlsx", {("入职日期", "ge", "2020-01-01"), ("岗位", "eq", "经理")}),
    ("邮箱没填的员工有哪些", "execute", "transform", "员工花名册.xlsx", {("邮箱", "empty", None)}),
    ("销售明细 Q1 的数据", "execute", "transform", "销售明细2024.xlsx", {("日期", "between", "2024-01-01")}),
    ("销售明细2024 的 目标 sheet 导出", "execute", "export_data", "销售明细2024.xlsx", set()),
    ("哪个产品卖得最好", "restate_confirm", "transform", "销售明细2024.xlsx", set()),
    ("customers.csv where country is Japan or Germany", "execute", "transform", "customers.csv", {("country", "in", ("Japan", "Germany"))}),
    ("customers signed up after 2023-06-01", "execute", "transform", "customers.csv", {("signup_date", "ge", "2023-06-02")}),
    ("average mrr by country in customers.csv", "execute", "transform", "customers.csv", set()),
    ("sort customers by mrr descending", "execute", "transform", "customers.csv", set()),
    ("员工花名册 年龄大于30的", "ask_slots", "clarify", "员工花名册.xlsx", None),
    ("销售明细 按客户汇总", "ask_slots", "clarify", "销售明细2024.xlsx", None),
    ("看一下 sales.xlsx", "ask_slots", "clarify", None, None),
    ("删掉花名册里没有邮箱的员工，然后直接保存", "plan_confirm", "plan_review", "员工花名册.xlsx", {("邮箱", "not_empty", None)}),
]


def _norm(c):
    v = c.value
    if isinstance(v, dict):
        v = v.get("date") or v.get("column")
    if isinstance(v, list):
        v = tuple(v)
    return (c.column, c.op, v)


@pytest.mark.parametrize("utterance,nxt,mode,file,conds", CASES)
def test_unseen_workspace(cat, utterance, nxt, mode, file, conds):
    d = run_turns(cat, [utterance])
    assert (d.next, d.mode, d.slots["file"]) == (nxt, mode, file), d.reply
    if conds is not None:
        f = d.request.op("filter")
        assert {_norm(c) for c in (f.args["conditions"] if f else [])} == conds


def test_english_dedupe_names_the_column(cat):
    d = run_turns(cat, ["customers.csv: remove duplicate emails"])
    assert d.request.op("dedupe").args == {"subset": ["email"]}


def test_best_seller_question_uses_the_amount_column(cat):
    d = run_turns(cat, ["哪个产品卖得最好"])
    g = d.request.op("group").args
    assert g["keys"] == ["产品"] and g["measures"] == [{"column": "销售额", "agg": "sum"}]


@pytest.fixture(scope="module")
def grades(tmp_path_factory):
    d = tmp_path_factory.mktemp("grades")
    rng = random.Random(5)
    n = 60
    pd.DataFrame({"学号": [f"{i:04d}" for i in range(n)], "姓名": [f"学生{i}" for i in range(n)],
                  "班级": [rng.choice(["一班", "二班", "三班"]) for _ in range(n)], "语文": [rng.randint(50, 100) for _ in range(n)],
                  "数学": [rng.randint(40, 100) for _ in range(n)], "英语": [rng.randint(45, 100) for _ in range(n)]}).to_excel(d / "期末成绩.xlsx", index=False)
    return d


@pytest.mark.parametrize(
    "utterance,kinds,args",
    [("各班语文平均分", ["group"], {"keys": ["班级"], "measures": [{"column": "语文", "agg": "mean"}]}),
     ("哪个班英语平均分最高", ["group", "top_n"], {"keys": ["班级"], "measures": [{"column": "英语", "agg": "mean"}], "question": True}),
     ("三班数学最高的是谁", ["filter", "top_n"], {"n": 1, "by": "数学", "ascending": False, "question": True})],
)
def test_grade_book(grades, utterance, kinds, args):
    cat = CatalogCache().build(Workspace.at(grades))
    d = run_turns(cat, [utterance])
    assert d.gate == "act" and d.request.kinds() == kinds
    assert d.request.op(kinds[-1] if kinds[-1] != "top_n" or "by" in args else kinds[0]).args == args


def test_who_question_answers_with_the_row(grades):
    from engine.session import Session

    s = Session(Workspace.at(grades))
    s.turn("预览 期末成绩.xlsx")
    tr = s.turn("三班数学最高的是谁")
    assert tr.run.status == "answered" and "班级：三班" in tr.run.answer and "学号：00" in tr.run.answer
