"""Value edits read as said: 支付方式为现金的 names the value 现金, an edit that changes nothing says so, blanks of a
named column take a given value, and title case keeps acronyms and names a follow-up step it does not run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_letter_case import talk, written

from engine.session import Session
from tools.workspace import Workspace


def pay() -> pd.DataFrame:
    rng = np.random.default_rng(7)
    n = 40
    return pd.DataFrame({
        "单号": [f"P{i:03d}" for i in range(n)],
        "支付方式": rng.choice(["现金", "微信", "支付宝", "银行卡"], n),
        "部门": rng.choice(["销售部", "财务部", None], n, p=[0.45, 0.4, 0.15]),
        "金额": rng.integers(10, 900, n),
    })


def staff() -> pd.DataFrame:
    return pd.DataFrame({"Department": ["HR", "engineering", "Engineering", "hr", "sales", "IT", "it", "marketing ops"],
                         "Score": [3, 4, 5, 2, 4, 3, 5, 1]})


@pytest.fixture
def root(tmp_path: Path) -> Path:
    pay().to_csv(tmp_path / "pay.csv", index=False)
    staff().to_csv(tmp_path / "staff.csv", index=False)
    return tmp_path


@pytest.mark.parametrize("text", [
    "把pay里支付方式为现金的改成线下现金",
    "pay 支付方式是现金的记录改为线下现金",
    "把 pay 中支付方式为现金的行换成线下现金",
    "pay里支付方式等于现金的都改成线下现金",
])
def test_trailing_particle_is_not_part_of_the_value(root: Path, text: str) -> None:
    src = pay()
    out = written(root, talk(root, text))
    want = src["支付方式"].where(src["支付方式"] != "现金", "线下现金")
    assert (src["支付方式"] == "现金").sum() > 0
    assert out["支付方式"].tolist() == want.tolist()
    assert out.drop(columns="支付方式").equals(src.drop(columns="支付方式"))


@pytest.mark.parametrize("text, missing", [
    ("把pay里支付方式为信用卡的改成线下", "信用卡"),
    ("把pay里支付方式为现今的改成线下现金", "现今"),
])
def test_edit_that_changes_nothing_says_so(root: Path, text: str, missing: str) -> None:
    tr = talk(root, text)
    assert tr.run is not None and tr.run.status != "answered"
    said = " ".join(str(x) for x in [tr.run.answer, *tr.run.notes] if x)
    assert missing in said and "没有改" in said and "最接近" in said, said
    assert not (root / "outputs").exists() or not any((root / "outputs").iterdir())  # nothing written


@pytest.mark.parametrize("text, value", [
    ("把pay里的空部门填成未知", "未知"),
    ("pay 部门为空的填为待定", "待定"),
    ("pay 部门的空值补成未分配", "未分配"),
    ("in pay, fill blanks in 部门 with Unknown", "Unknown"),
    ("直接把pay.csv里的空部门填成未知，保存回原文件", "未知"),
])
def test_fill_blanks_of_a_named_column_with_a_value(root: Path, text: str, value: str) -> None:
    src = pay()
    raw = (root / "pay.csv").read_bytes()
    out = written(root, talk(root, text))
    assert out["部门"].tolist() == src["部门"].fillna(value).tolist()
    assert out["金额"].tolist() == src["金额"].tolist() and out["支付方式"].tolist() == src["支付方式"].tolist()
    assert (root / "pay.csv").read_bytes() == raw  # the source is never overwritten, whatever was asked


def test_save_back_to_source_is_answered_plainly(root: Path) -> None:
    tr = Session(Workspace.at(root)).turn("直接把pay.csv里的空部门填成未知，保存回原文件")
    assert tr.decision.next == "plan_confirm"
    assert "未知" in tr.decision.reply and "原文件" in tr.decision.reply and "outputs/" in tr.decision.reply


@pytest.mark.parametrize("text", ["staff 把 Department 改成首字母大写", "make Department in staff title case"])
def test_title_case_keeps_acronyms(root: Path, text: str) -> None:
    out = written(root, talk(root, text))
    assert out["Department"].tolist() == ["HR", "Engineering", "Engineering", "HR", "Sales", "IT", "IT", "Marketing Ops"]


@pytest.mark.parametrize("text, dropped", [
    ("staff 把 Department 统一成首字母大写后按部门统计人数", "按部门统计人数"),
    ("staff: make Department title case, then count rows by Department", "count rows by Department"),
])
def test_follow_up_step_not_run_is_named(root: Path, text: str, dropped: str) -> None:
    tr = Session(Workspace.at(root)).turn(text)
    assert tr.run is None and tr.decision.next == "restate_confirm"
    assert dropped in tr.decision.reply and ("没用上" in tr.decision.reply or "not used" in tr.decision.reply)


@pytest.mark.parametrize("text, value", [
    ("筛选pay中支付方式是现金的记录", "现金"),
    ("pay 里支付方式为微信的行", "微信"),
    ("show the rows of pay where 支付方式 is 支付宝", "支付宝"),
])
def test_filter_value_without_its_particle(root: Path, text: str, value: str) -> None:
    src = pay()
    out = written(root, talk(root, text))
    assert out["单号"].tolist() == src.loc[src["支付方式"] == value, "单号"].tolist()
