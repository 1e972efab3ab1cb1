"""Follow-ups work on the last result, corrections keep what they do not name, and joins use the keys and sheets
the user states. Every figure is recomputed with pandas on data made here; a run is either exactly that figure
or a question/restatement, never another table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from engine.session import Session
from tools.workspace import Workspace


@pytest.fixture
def shop(tmp_path):
    rng = np.random.default_rng(7)
    n = 160
    orders = pd.DataFrame({
        "订单号": [f"D{i:03d}" for i in range(n)],
        "下单日期": pd.date_range("2023-06-01", periods=n, freq="5D").strftime("%Y-%m-%d"),
        "区域": rng.choice(["华东", "华北", "华南", "西南"], n),
        "金额": rng.integers(500, 20000, n),
        "是否退货": rng.choice(["是", "否"], n, p=[0.2, 0.8]),
        "客户编号": rng.choice([f"C{i:02d}" for i in range(1, 13)], n),
    })
    orders.to_csv(tmp_path / "订单.csv", index=False)
    clients = pd.DataFrame({"Client Code": [f"C{i:02d}" for i in range(1, 13)], "Tier": rng.choice(["Gold", "Silver"], 12),
                            "Country": rng.choice(["China", "Japan"], 12)})
    clients.to_csv(tmp_path / "客户.csv", index=False)
    staff = pd.DataFrame({"工号": [f"E{i:02d}" for i in range(40)], "部门": rng.choice(["技术部", "销售部"], 40),
                          "等级": list(rng.choice(["A", "B", "C"], 39)) + ["b"], "月薪": rng.integers(8000, 40000, 40)})
    staff.to_excel(tmp_path / "员工.xlsx", index=False)
    plan = pd.DataFrame({"部门": ["销售", "技术", "财务", "人事"], "计划金额": [500, 800, 200, 150]})
    actual = pd.DataFrame({"部门": ["销售", "技术", "财务", "人事"], "实际金额": [520, 750, 210, 90], "季度": ["Q4"] * 4})
    with pd.ExcelWriter(tmp_path / "预算.xlsx") as w:
        plan.to_excel(w, sheet_name="计划", index=False)
        actual.to_excel(w, sheet_name="实际", index=False)
    return tmp_path, {"orders": orders, "clients": clients, "staff": staff, "plan": plan, "actual": actual}


def run(s: Session, utterance: str):
    """One request; a restatement or plan card is confirmed once (what it restated is then what runs)."""
    tr = s.turn(utterance)
    if tr.run is None and tr.decision.next in ("restate_confirm", "plan_confirm"):
        tr = s.turn("继续")
    return tr


def written(root, tr) -> pd.DataFrame:
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.reply, tr.run and tr.run.answer)
    return pd.read_csv(root / tr.run.files[0]["path"])


def filtered(s: Session, root, orders: pd.DataFrame) -> pd.DataFrame:
    """A first result: the orders over 5000 (written to outputs/)."""
    got = written(root, run(s, "订单.csv 里筛选金额大于5000的行"))
    want = orders[orders["金额"] > 5000]
    assert list(got["订单号"]) == list(want["订单号"])
    return want


# ---------------------------------------------------------------- 1. follow-ups run on the last result


@pytest.mark.parametrize("utterance", ["在这个结果里按区域统计订单数", "在刚才的结果里，每个区域有多少个订单", "在这个结果中按区域统计行数",
                                       "in this result, count the orders for each 区域"])
def test_a_count_after_a_filter_runs_on_the_result(shop, utterance):
    root, d = shop
    s = Session(Workspace.at(root))
    want = filtered(s, root, d["orders"]).groupby("区域").size().to_dict()
    tr = run(s, utterance)
    if tr.run is None:
        assert tr.decision.next in ("ask_slots", "restate_confirm"), tr.decision.reply
        return
    assert tr.decision.request.file.startswith("outputs/"), tr.decision.request.file
    got = written(root, tr)
    count = next(c for c in got.columns if c in ("行数", "rows", "count", "订单数"))
    assert dict(zip(got["区域"], got[count], strict=True)) == want


@pytest.mark.parametrize("utterance", ["在这个结果里，哪个区域的平均订单金额最高", "在刚才的结果里哪个区域的平均金额最高",
                                       "在这个结果里哪个区域的订单平均金额最高"])
def test_a_question_after_a_filter_is_answered_on_the_result(shop, utterance):
    root, d = shop
    s = Session(Workspace.at(root))
    means = filtered(s, root, d["orders"]).groupby("区域")["金额"].mean()
    tr = run(s, utterance)
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    assert tr.decision.request.file.startswith("outputs/")
    assert means.idxmax() in tr.run.answer and f"{means.max():,.2f}".rstrip("0").rstrip(".").replace(",", "") in tr.run.answer.replace(",", "")


@pytest.mark.parametrize("utterance", ["然后按区域汇总含税金额", "然后每个区域的含税金额合计是多少", "then sum 含税金额 by 区域"])
def test_then_after_a_new_column_uses_that_column(shop, utterance):
    root, d = shop
    s = Session(Workspace.at(root))
    added = written(root, run(s, "在订单.csv里加一列 含税金额 = 金额 * 1.13"))
    orders = d["orders"].assign(含税金额=d["orders"]["金额"] * 1.13)
    assert np.allclose(added["含税金额"], orders["含税金额"])
    tr = run(s, utterance)
    assert tr.decision.request.file.startswith("outputs/"), tr.decision.request.file
    got = written(root, tr) if tr.run and tr.run.files else pd.DataFrame(tr.run.table)
    col = next(c for c in got.columns if c.startswith("含税金额"))
    want = orders.groupby("区域")["含税金额"].sum()
    assert np.allclose([dict(zip(got["区域"], got[col], strict=True))[k] for k in want.index], want.to_numpy())


@pytest.mark.parametrize("utterance", ["在这个结果里，只保留等级是A或B的", "在这个结果里只要等级为A、B的人", "在这个结果中筛选等级是B或A的行"])
def test_keeping_values_in_the_result_filters_its_rows(shop, utterance):
    root, d = shop
    s = Session(Workspace.at(root))
    staff = d["staff"]
    first = written(root, run(s, "员工.xlsx 里筛选月薪大于20000的人"))
    assert len(first) == int((staff["月薪"] > 20000).sum())
    got = written(root, run(s, utterance))
    want = staff[(staff["月薪"] > 20000) & staff["等级"].isin(["A", "B"])]  # exact case: the stray 'b' is not B
    assert list(got["工号"]) == list(want["工号"])


@pytest.mark.parametrize("utterance", ["在这个结果里去掉退货的订单", "在这个结果里剔除退货的订单", "在这个结果里只要没有退货的订单",
                                       "在这个结果里筛选是否退货为否的行"])
def test_excluding_a_yes_no_flag_in_the_result(shop, utterance):
    root, d = shop
    s = Session(Workspace.at(root))
    want = filtered(s, root, d["orders"])
    got = written(root, run(s, utterance))
    assert list(got["订单号"]) == list(want[want["是否退货"] == "否"]["订单号"])


def test_an_outputs_path_is_that_file(shop):
    root, d = shop
    s = Session(Workspace.at(root))
    first = filtered(s, root, d["orders"])
    made = next(p for p in (root / "outputs").iterdir()).name
    run(s, "订单.csv 按区域汇总金额")  # another result comes between: the path, not the last result, is the input
    got = written(root, run(s, f"筛选 outputs/{made}，是否退货不等于是"))
    assert list(got["订单号"]) == list(first[first["是否退货"] != "是"]["订单号"])
    got = written(root, run(s, f"filter outputs/{made} where 区域 is 华东"))
    assert list(got["订单号"]) == list(first[first["区域"] == "华东"]["订单号"])
    tr = run(s, f"{made} 里按区域统计订单数")
    assert tr.decision.request.file == f"outputs/{made}"
    got = written(root, tr)
    assert dict(zip(got["区域"], got["行数"], strict=True)) == first.groupby("区域").size().to_dict()


# ---------------------------------------------------------------- 2. corrections replace what they name, keep the rest


@pytest.mark.parametrize(("correction", "dept_kept"), [("不对，我是说筛选等级是A或B的行", False), ("条件改成等级为A、B", False),
                                                    ("不对，是等级为B或者A的", True)])
def test_a_correction_keeps_the_result_it_works_on(shop, correction, dept_kept):
    """A whole new condition replaces the old one; a correction naming one column replaces that column's condition only."""
    root, d = shop
    s = Session(Workspace.at(root))
    staff = d["staff"]
    first = run(s, "员工.xlsx 里筛选月薪大于20000的人")
    written(root, first)
    s.turn("在这个结果里只保留部门是技术部的")
    tr = s.turn(correction)
    assert tr.run is None and tr.decision.next == "restate_confirm", tr.decision.reply
    assert tr.decision.request.file == first.run.files[0]["path"]  # the first step's table (where the user saw it saved)
    got = written(root, s.turn("继续"))
    want = staff[(staff["月薪"] > 20000) & staff["等级"].isin(["A", "B"]) & ((staff["部门"] == "技术部") | (not dept_kept))]
    assert list(got["工号"]) == list(want["工号"])


@pytest.mark.parametrize("correction", ["条件改成：2024年下单，金额大于10000，是否退货为否，区域不等于华北",
                                        "条件改成 2024年下单、金额大于10000、没有退货、区域不是华北"])
def test_a_correction_keeps_every_condition_it_states(shop, correction):
    root, d = shop
    s = Session(Workspace.at(root))
    s.turn("找出2024年下单、金额超过1万的订单，不要华北的")
    tr = s.turn(correction)
    assert tr.decision.next == "restate_confirm" and "是否退货" in tr.decision.reply, tr.decision.reply
    got = written(root, s.turn("继续"))
    o = d["orders"]
    want = o[o["下单日期"].str.startswith("2024") & (o["金额"] > 10000) & (o["是否退货"] == "否") & (o["区域"] != "华北")]
    assert list(got["订单号"]) == list(want["订单号"])


@pytest.mark.parametrize(("correction", "unread"), [("条件改成：金额大于10000，买家没有投诉过", "投诉"),
                                                    ("条件改成金额大于10000，并且要看物流时效", "物流时效")])
def test_a_correction_names_what_it_did_not_understand(shop, correction, unread):
    root, _ = shop
    s = Session(Workspace.at(root))
    s.turn("找出2024年下单、金额超过1万的订单，不要华北的")
    tr = s.turn(correction)
    assert tr.run is None and tr.decision.next in ("restate_confirm", "ask_slots")
    assert "没理解" in tr.decision.reply and unread in tr.decision.reply, tr.decision.reply


@pytest.mark.parametrize("utterance", ["员工.xlsx 里等级为B的人", "员工.xlsx 里筛选等级是B的行", "员工.xlsx rows where 等级 is B"])
def test_a_value_written_in_its_own_case_is_never_another_case(shop, utterance):
    root, d = shop
    got = written(root, run(Session(Workspace.at(root)), utterance))
    assert list(got["工号"]) == list(d["staff"][d["staff"]["等级"] == "B"]["工号"])


# ---------------------------------------------------------------- 3. joins


def merged(d) -> pd.DataFrame:
    return d["orders"].merge(d["clients"], left_on="客户编号", right_on="Client Code", how="left")


@pytest.mark.parametrize("utterance", ["订单的客户编号对应客户的Client Code，把订单.csv和客户.csv关联起来",
                                       "把订单.csv和客户.csv关联，订单.客户编号 = 客户.Client Code",
                                       "join 订单.csv with 客户.csv where 客户编号 matches Client Code",
                                       "订单.csv 和 客户.csv 合并，客户编号和Client Code对应"])
def test_keys_named_differently_are_used_as_stated(shop, utterance):
    root, d = shop
    got = written(root, run(Session(Workspace.at(root)), utterance))
    want = merged(d)
    assert list(got["订单号"]) == list(want["订单号"]) and list(got["Tier"]) == list(want["Tier"])


@pytest.mark.parametrize(("first", "answer"), [("把订单.csv和客户.csv按客户编号关联起来", "Client Code"),
                                               ("join 订单.csv and 客户.csv on 客户编号", "用 Client Code 这一列")])
def test_a_key_the_second_table_lacks_is_asked_then_answered(shop, first, answer):
    root, d = shop
    s = Session(Workspace.at(root))
    tr = s.turn(first)
    assert tr.run is None and tr.decision.next == "ask_slots" and "Client Code" in tr.decision.reply, tr.decision.reply
    tr = s.turn(answer)
    assert tr.decision.next == "restate_confirm", tr.decision.reply
    got = written(root, s.turn("继续"))
    assert list(got["Country"]) == list(merged(d)["Country"])


@pytest.mark.parametrize("utterance", ["预算.xlsx 里把计划和实际两个sheet按部门合并", "把预算.xlsx的计划表和实际表按部门关联",
                                       "join the 计划 and 实际 sheets of 预算.xlsx on 部门"])
def test_two_sheets_of_one_workbook_are_joined(shop, utterance):
    root, d = shop
    got = written(root, run(Session(Workspace.at(root)), utterance))
    want = d["plan"].merge(d["actual"], on="部门", how="left")
    assert list(got.columns) == list(want.columns) and got["实际金额"].tolist() == want["实际金额"].tolist()


@pytest.mark.parametrize("utterance", ["预算.xlsx 里把计划和实际两个sheet按部门合并，算执行率 = 实际金额/计划金额",
                                       "把预算.xlsx的计划表和实际表按部门合并，再加一列 执行率 = 实际金额 / 计划金额"])
def test_a_ratio_asked_with_a_join_is_computed_on_the_joined_table(shop, utterance):
    root, d = shop
    got = written(root, run(Session(Workspace.at(root)), utterance))
    want = d["plan"].merge(d["actual"], on="部门", how="left")
    assert np.allclose(got["执行率"], want["实际金额"] / want["计划金额"], atol=1e-4)


def test_a_ratio_with_no_formula_is_named_never_dropped(shop):
    root, _ = shop
    tr = Session(Workspace.at(root)).turn("预算.xlsx 里把计划和实际两个sheet按部门合并，算执行率")
    # named back: not understood, or asked how it is computed (两列相除) — never run without it
    assert tr.run is None and "执行率" in tr.decision.reply and ("没理解" in tr.decision.reply or "要怎么算" in tr.decision.reply), tr.decision.reply


@pytest.mark.parametrize("utterance", ["在这个结果里加一列 执行率 = 实际金额 / 计划金额", "然后加一列 执行率 = 实际金额 / 计划金额",
                                       "在这个结果里算执行率 = 实际金额/计划金额"])
def test_a_ratio_after_a_join_runs_on_the_joined_result(shop, utterance):
    root, d = shop
    s = Session(Workspace.at(root))
    written(root, run(s, "把预算.xlsx的计划表和实际表按部门合并"))
    got = written(root, run(s, utterance))
    want = d["plan"].merge(d["actual"], on="部门", how="left")
    assert np.allclose(got["执行率"], want["实际金额"] / want["计划金额"], atol=1e-4)


@pytest.mark.parametrize("utterance", ["预算.xlsx 的 汇总 表看一下", "预算.xlsx的汇总表", "预算.xlsx 的 Summary 工作表", "show the Summary sheet of 预算.xlsx"])
def test_a_missing_sheet_is_said_with_the_sheets_there_are(shop, utterance):
    root, _ = shop
    tr = Session(Workspace.at(root)).turn(utterance)
    assert tr.run is None and tr.decision.next == "ask_slots", tr.decision.reply
    assert "计划" in tr.decision.reply and "实际" in tr.decision.reply
    assert ("没有名为" in tr.decision.reply) or ("no sheet named" in tr.decision.reply), tr.decision.reply


@pytest.mark.parametrize(("utterance", "value"), [("客户.csv 里 Tier 为 gold 的行", "gold"), ("客户.csv 里 Tier 为 Gold 的行", "Gold"),
                                                  ("客户.csv 里 gold 的客户", "gold"), ("客户.csv rows where Tier is Gold", "Gold")])
def test_of_two_spellings_the_one_written_is_used(tmp_path, utterance, value):
    df = pd.DataFrame({"Client Code": [f"C{i}" for i in range(8)], "Tier": ["Gold", "gold", "Gold", "Silver", "gold", "Gold", "Silver", "Gold"]})
    df.to_csv(tmp_path / "客户.csv", index=False)
    got = written(tmp_path, run(Session(Workspace.at(tmp_path)), utterance))
    assert list(got["Client Code"]) == list(df[df["Tier"] == value]["Client Code"])
