"""Numbers, dates and times written as text are read as what they are, said, and never silently dropped.

Every file is generated here from numbers and dates held in the test, so each expected result comes from those
values (pandas), not from wenqing's reading of the text. A phrasing either gives exactly that result or restates /
asks; the ones marked RUN must run (directly or after 继续).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_never_silently_wrong import WAITS, talk

from engine.session import TurnResult
from tools.values import as_dates, as_numbers, as_times, reading_notes, recording

N = 60


def _money(v: float, i: int) -> str:
    """One amount written the ways people write them in a sheet."""
    forms = [f"{v:,.2f}", f"¥{v:,.0f}", f"{v / 1e4:g}万", f"{v:,.2f}元", f"{v:.2f}"]
    return forms[i % len(forms)]


@pytest.fixture(scope="module")
def data() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(11)
    amounts = np.round(rng.uniform(50_000, 990_000, N), 2)
    amounts[1::5] = np.round(amounts[1::5])  # the ¥ form is written without cents
    amounts[2::5] = np.round(amounts[2::5] / 1e4, 1) * 1e4  # the 万 form writes one decimal of 万: keep such values exact
    signed = [date(2024, 1, 1) + timedelta(days=int(d)) for d in rng.integers(0, 700, N)]
    due = [d + timedelta(days=int(k)) for d, k in zip(signed, rng.integers(120, 700, N), strict=True)]
    contracts = pd.DataFrame({
        "合同编号": [f"HT{i:03d}" for i in range(N)],
        "合同金额": amounts, "签订日期": signed, "到期日期": due,
        "负责人": rng.choice(["关羽", "张飞", "赵云"], N),
        "状态": rng.choice(["履行中", "已完成"], N),
    })
    contracts.loc[7, "合同金额"] = np.nan  # written as 待定
    contracts.loc[9, "合同金额"] = np.nan  # left blank
    minutes = rng.integers(17 * 60, 21 * 60, 90)
    punch = pd.DataFrame({"姓名": np.repeat(["冯凯", "王芳", "陈晨"], 30), "下班分钟": minutes,
                          "状态": rng.choice(["正常", "迟到", "缺勤"], 90)})
    april = [datetime(2025, 4, 1, 9, 0) + timedelta(hours=int(h)) for h in rng.integers(0, 29 * 24, 40)]
    april += [datetime(2025, 4, 30, 14, 27), datetime(2025, 4, 30, 23, 59), datetime(2025, 5, 1, 0, 0), datetime(2025, 3, 31, 23, 59)]
    tickets = pd.DataFrame({"工单号": [f"T{i:03d}" for i in range(len(april))], "创建时间": april,
                            "渠道": rng.choice(["电话", "微信"], len(april))})
    stock = pd.DataFrame({"物料": [f"M{i:02d}" for i in range(30)], "数量": rng.integers(-5, 40, 30), "单价": rng.integers(5, 90, 30)})
    stock.loc[[3, 11], "数量"] = [-3, -8]
    long = pd.DataFrame({"大区": np.repeat(["华北", "华东", "华南"], 4), "季度": ["2024Q1", "2024Q2", "2024Q3", "2024Q4"] * 3,
                         "数值": np.round(rng.uniform(800, 3000, 12), 1)})
    return {"contracts": contracts, "punch": punch, "tickets": tickets, "stock": stock, "long": long}


def _contracts_as_text(c: pd.DataFrame) -> pd.DataFrame:
    out = c.copy().astype(object)
    out["合同金额"] = [("待定" if i == 7 else None) if pd.isna(v) else _money(float(v), i) for i, v in enumerate(c["合同金额"])]
    out["签订日期"] = [d.strftime("%Y/%m/%d") if i % 3 else f"{d.year}年{d.month}月{d.day}日" for i, d in enumerate(c["签订日期"])]
    out["到期日期"] = [f"{d.year}年{d.month:02d}月{d.day:02d}日" for d in c["到期日期"]]
    return out


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory, data: dict[str, pd.DataFrame]) -> Path:
    r = tmp_path_factory.mktemp("textvalues")
    text = _contracts_as_text(data["contracts"])
    with pd.ExcelWriter(r / "合同台账.xlsx") as w:
        text.to_excel(w, index=False)
    text.rename(columns={"合同编号": "编号"}).to_csv(r / "contract_list.csv", index=False)
    p = data["punch"]
    pd.DataFrame({"姓名": p["姓名"], "下班打卡": [f"{m // 60:02d}:{m % 60:02d}" for m in p["下班分钟"]], "状态": p["状态"]}).to_excel(
        r / "考勤.xlsx", index=False)
    t = data["tickets"]
    pd.DataFrame({"工单号": t["工单号"], "创建时间": [d.strftime("%Y-%m-%d %H:%M") for d in t["创建时间"]], "渠道": t["渠道"]}).to_csv(
        r / "工单.csv", index=False)
    data["stock"].to_csv(r / "库存.csv", index=False)
    pd.DataFrame({"班次": [f"S{i}" for i in range(8)], "开始": ["9:05", "20:30", "8:59", "10:00", "19:45", "7:30", None, "21:15"]}).to_csv(
        r / "shifts.csv", index=False)
    data["long"].to_csv(r / "季度业绩.csv", index=False)
    return r


def outcome(root: Path, turns: list[str], must_run: bool) -> TurnResult | None:
    """None when the turn asked or restated (allowed unless must_run); else the answered run."""
    tr = talk(root, turns, must_run)
    if tr.run is None:
        assert not must_run, (tr.decision.next, tr.decision.reply)
        assert tr.decision.next in WAITS, (tr.decision.next, tr.decision.reply)
        return None
    assert tr.run.status == "answered", (tr.run.status, tr.run.fallback_reason, tr.run.notes)
    return tr


def written(root: Path, tr: TurnResult) -> pd.DataFrame:
    paths = [f["path"] for f in tr.run.files if f["path"].endswith(".csv")] if tr.run else []
    assert paths, tr.run and tr.run.answer
    return pd.read_csv(root / paths[0])


# ---------------------------------------------------------------- reading text as numbers, dates, times


@pytest.mark.parametrize("text, value", [
    ("1,234.50", 1234.5), ("¥1,234", 1234.0), ("￥ 1,234.5", 1234.5), ("12.5万", 125000.0), ("3亿", 3e8), ("(300)", -300.0),
    ("-1,000", -1000.0), ("1,234元", 1234.0), ("$ 99.9", 99.9), ("12.5万元", 125000.0), ("  42 ", 42.0),
])
def test_amounts_written_as_text_read_as_numbers(text: str, value: float) -> None:
    s = pd.Series([text, "100", None], name="金额")
    assert as_numbers(s).tolist()[:2] == [pytest.approx(value), 100.0]


def test_cells_that_do_not_read_are_counted_and_named() -> None:
    s = pd.Series(["1,000", "2,500.5", "待定", None, "", "3,000", "4,000"], name="合同金额")
    with recording() as found:
        got = as_numbers(s)
    assert got.sum() == pytest.approx(10500.5) and int(got.isna().sum()) == 3
    notes = reading_notes(found, "zh")
    assert notes == ["合同金额 按数字读取（原文是文本）；有 1 行不是数字（“待定”），没有参与计算或比较"]
    assert "1 rows are not numbers ('待定')" in reading_notes(found, "en")[0]


def test_text_that_is_mostly_words_is_not_called_numbers() -> None:
    with recording() as found:
        as_numbers(pd.Series(["上海", "北京", "12", "广州"], name="城市"))
    assert reading_notes(found, "zh") == []


@pytest.mark.parametrize("text, day", [
    ("2025年3月4日", "2025-03-04"), ("2025年03月04日", "2025-03-04"), ("2025/3/4", "2025-03-04"), ("2025.03.04", "2025-03-04"),
    ("2025-03-04", "2025-03-04"), ("2025年3月4号", "2025-03-04"),
])
def test_dates_written_as_text(text: str, day: str) -> None:
    got = as_dates(pd.Series(["2026年1月2日", text], name="日期"))
    assert [d.strftime("%Y-%m-%d") for d in got] == ["2026-01-02", day]


def test_clock_times_written_as_text() -> None:
    got = as_times(pd.Series(["08:49", "18:30:15", None, "9:05"], name="打卡"))
    assert got is not None and [None if pd.isna(v) else int(v.total_seconds()) for v in got] == [8 * 3600 + 49 * 60, 18 * 3600 + 30 * 60 + 15, None, 9 * 3600 + 5 * 60]
    assert as_times(pd.Series(["张三", "李四"])) is None


# ---------------------------------------------------------------- requests on text-typed files, run for real

AMOUNT_FILTERS = [
    (["合同台账里合同金额大于50万的合同"], True),
    (["合同台账.xlsx 筛选 合同金额超过500000"], True),
    (["合同台账里金额超过50万的合同有哪些"], False),
    (["contract_list.csv: rows where 合同金额 is greater than 500000"], False),
    (["筛选 contract_list.csv，合同金额大于500000"], True),
]


@pytest.mark.parametrize("turns, must_run", AMOUNT_FILTERS)
def test_amount_filters_on_text_amounts(root: Path, data: dict[str, pd.DataFrame], turns: list[str], must_run: bool) -> None:
    tr = outcome(root, turns, must_run)
    if tr is None:
        return
    c = data["contracts"]
    expected = c.loc[c["合同金额"] > 500_000, "合同编号"].tolist()
    key = "编号" if "contract_list" in turns[0] else "合同编号"
    assert written(root, tr)[key].tolist() == expected
    said = " ".join(tr.run.notes)
    assert "合同金额" in said and ("按数字读取" in said or "read as numbers" in said) and ("1 行" in said or "1 rows" in said)


GROUP_SUMS = [
    (["合同台账按负责人汇总合同金额"], "sum", True),
    (["合同台账里每个负责人的合同金额合计"], "sum", False),
    (["合同台账按负责人求合同金额的平均值"], "mean", True),
    (["total 合同金额 by 负责人 in contract_list.csv"], "sum", False),
    (["contract_list.csv 按负责人分组，计算合同金额最大值"], "max", True),
]


@pytest.mark.parametrize("turns, agg, must_run", GROUP_SUMS)
def test_group_figures_of_text_amounts(root: Path, data: dict[str, pd.DataFrame], turns: list[str], agg: str, must_run: bool) -> None:
    tr = outcome(root, turns, must_run)
    if tr is None:
        return
    expected = data["contracts"].groupby("负责人")["合同金额"].agg(agg)
    out = written(root, tr).set_index(written(root, tr).columns[0])
    col = next(c for c in out.columns if c.startswith("合同金额"))
    assert out[col].round(2).to_dict() == expected.round(2).to_dict()


@pytest.mark.parametrize("turns, descending, n", [
    (["合同台账按合同金额从高到低排序"], True, None),
    (["contract_list.csv 按合同金额升序排列"], False, None),
    (["合同台账里合同金额最高的3个合同"], True, 3),
    (["sort contract_list.csv by 合同金额 descending"], True, None),
])
def test_text_amounts_are_ordered_by_value(root: Path, data: dict[str, pd.DataFrame], turns: list[str], descending: bool, n: int | None) -> None:
    tr = outcome(root, turns, False)
    if tr is None:
        return
    c = data["contracts"]
    order = c.sort_values("合同金额", ascending=not descending, kind="stable", na_position="last")
    key = "编号" if "contract_list" in turns[0] else "合同编号"
    got = written(root, tr)[key].tolist() if tr.run.files else []
    expected = order["合同编号"].tolist()
    assert got[: n or len(got)] == expected[: n or len(got)] and len(got) >= (n or N)


DATE_FILTERS = [
    (["合同台账里2025年签订的、合同金额大于50万的合同"], lambda c: (c["签订日期"].map(lambda d: d.year) == 2025) & (c["合同金额"] > 500_000), False),
    (["合同台账筛选到期日期小于2025-12-01且状态等于履行中"], lambda c: (c["到期日期"] < date(2025, 12, 1)) & (c["状态"] == "履行中"), True),
    (["合同台账里签订日期在2024年之后的合同"], lambda c: c["签订日期"] >= date(2024, 1, 1), False),
    (["合同台账.xlsx 筛选 到期日期 早于 2026-01-01"], lambda c: c["到期日期"] < date(2026, 1, 1), False),
]


@pytest.mark.parametrize("turns, keep, must_run", DATE_FILTERS)
def test_date_filters_on_dates_written_as_text(root: Path, data: dict[str, pd.DataFrame], turns: list[str], keep, must_run: bool) -> None:  # type: ignore[no-untyped-def]
    tr = outcome(root, turns, must_run)
    if tr is None:
        return
    c = data["contracts"]
    assert written(root, tr)["合同编号"].tolist() == c.loc[keep(c), "合同编号"].tolist()


@pytest.mark.parametrize("turns, must_run", [
    (["考勤按姓名分组，求下班打卡的最大值"], True),
    (["考勤.xlsx 按姓名求下班打卡的最小值"], False),
    (["考勤里每个人下班打卡的最大值"], False),
])
def test_clock_times_as_text_give_times(root: Path, data: dict[str, pd.DataFrame], turns: list[str], must_run: bool) -> None:
    tr = outcome(root, turns, must_run)
    if tr is None:
        return
    agg = "min" if "最小" in turns[0] else "max"
    p = data["punch"]
    expected = {k: f"{m // 60:02d}:{m % 60:02d}" for k, m in p.groupby("姓名")["下班分钟"].agg(agg).items()}
    out = written(root, tr)
    col = next(c for c in out.columns if c.startswith("下班打卡"))
    assert dict(zip(out["姓名"], out[col], strict=True)) == expected
    assert any("下班打卡 按时间读取" in n for n in tr.run.notes)


# ---------------------------------------------------------------- a period is absent only when it is


def test_no_rows_for_other_conditions_is_not_called_an_absent_period(root: Path) -> None:
    tr = talk(root, ["合同台账里2025年签订的、合同金额大于9亿的合同"], confirm=True)
    assert tr.run is not None and tr.run.status == "insufficient_context"
    assert tr.run.fallback_reason == "no_rows_match"


def test_an_absent_period_is_still_said(root: Path) -> None:
    tr = talk(root, ["合同台账.xlsx 筛选 签订日期小于2001-01-01"], confirm=True)
    assert tr.run is not None and tr.run.fallback_reason == "period_absent"


def test_a_column_that_does_not_read_as_dates_is_said() -> None:
    from engine.executor import _no_rows

    table = pd.DataFrame({"日期": ["上午", "下午"]})
    stop = _no_rows(table, [{"column": "日期", "op": "lt", "value": {"date": "2025-01-01"}}])
    assert stop.reason == "dates_unreadable" and "读不成日期" in stop.zh


# ---------------------------------------------------------------- a day bound covers the whole day

APRIL = [
    (["工单.csv 里4月的工单"], False),
    (["筛选工单：创建时间在2025年4月"], True),
    (["工单.csv 筛选 创建时间 介于 2025-04-01 和 2025-04-30 之间"], True),
    (["工单里2025年4月电话渠道的工单"], False),
    (["工单.csv: 创建时间 between 2025-04-01 and 2025-04-30"], False),
]


@pytest.mark.parametrize("turns, must_run", APRIL)
def test_a_month_on_a_column_with_times_keeps_its_last_day(root: Path, data: dict[str, pd.DataFrame], turns: list[str], must_run: bool) -> None:
    tr = outcome(root, turns, must_run)
    if tr is None:
        return
    t = data["tickets"]
    keep = (t["创建时间"] >= datetime(2025, 4, 1)) & (t["创建时间"] < datetime(2025, 5, 1))
    if "电话" in turns[0]:
        keep &= t["渠道"] == "电话"
    got = written(root, tr)["工单号"].tolist()
    assert got == t.loc[keep, "工单号"].tolist()
    if "电话" not in turns[0]:
        assert "T040" in got and "T041" in got and "T042" not in got  # 04-30 14:27 and 23:59 in, 05-01 00:00 out


def test_a_day_bound_on_times_covers_the_day() -> None:
    from tools.ops import filter_rows

    t = pd.DataFrame({"t": ["2025-04-30 14:27", "2025-04-30 00:00", "2025-05-01 00:00", "2025-04-29 23:59"]})
    day = {"date": "2025-04-30"}
    rows = {op: filter_rows(t, [{"column": "t", "op": op, "value": day}]).data["t"].tolist() for op in ("eq", "le", "gt", "lt", "ge")}
    assert rows["eq"] == ["2025-04-30 14:27", "2025-04-30 00:00"]
    assert rows["le"] == ["2025-04-30 14:27", "2025-04-30 00:00", "2025-04-29 23:59"]
    assert rows["gt"] == ["2025-05-01 00:00"]
    assert rows["lt"] == ["2025-04-29 23:59"]
    assert rows["ge"] == ["2025-04-30 14:27", "2025-04-30 00:00", "2025-05-01 00:00"]


# ---------------------------------------------------------------- negative numbers are a condition

NEGATIVE = [
    ["库存.csv 里有没有数量是负数的异常记录"],
    ["库存里数量为负数的行"],
    ["库存.csv 数量为负的记录有哪些"],
    ["库存里数量小于0的行"],
    ["rows of 库存.csv where 数量 is negative"],
    ["库存.csv: negative 数量 rows"],
]


@pytest.mark.parametrize("turns", NEGATIVE)
def test_negative_is_a_condition_on_the_column(root: Path, data: dict[str, pd.DataFrame], turns: list[str]) -> None:
    tr = outcome(root, turns, True)
    assert tr is not None
    s = data["stock"]
    expected = s.loc[s["数量"] < 0, "物料"].tolist()
    if tr.run.files:
        assert written(root, tr)["物料"].tolist() == expected
    else:
        assert str(len(expected)) in (tr.run.answer or "")


def test_positive_and_not_negative(root: Path, data: dict[str, pd.DataFrame]) -> None:
    s = data["stock"]
    for turn, keep in (("库存.csv 里数量是正数的行有哪些", s["数量"] > 0), ("筛选库存.csv，数量非负", s["数量"] >= 0),
                       ("库存.csv 里数量是正数的行有多少", s["数量"] > 0), ("库存.csv rows where 数量 is positive", s["数量"] > 0)):
        tr = outcome(root, [turn], True)
        assert tr is not None
        if tr.run.files:
            assert written(root, tr)["物料"].tolist() == s.loc[keep, "物料"].tolist(), turn
        else:
            assert f"共有 {int(keep.sum())} 行" in (tr.run.answer or ""), (turn, tr.run.answer)


# ---------------------------------------------------------------- a statistic said with no column is kept


@pytest.mark.parametrize("turns, agg", [
    (["季度业绩.csv 按季度求平均"], "mean"),
    (["季度业绩.csv 筛选 数值 大于 0", "在这个结果里按季度求平均"], "mean"),
    (["季度业绩.csv 按季度算一下平均值"], "mean"),
    (["季度业绩.csv 按季度求最大值"], "max"),
    (["季度业绩.csv 筛选 数值 大于 0", "then the average by 季度"], "mean"),
])
def test_a_bare_statistic_is_not_replaced_by_sums(root: Path, data: dict[str, pd.DataFrame], turns: list[str], agg: str) -> None:
    tr = talk(root, turns, confirm=True)
    if tr.run is None:
        assert tr.decision.next in WAITS
        return
    out = written(root, tr)
    expected = data["long"].groupby("季度")["数值"].agg(agg).round(2)
    col = next(c for c in out.columns if c.startswith("数值"))
    assert col.endswith(("平均", "mean") if agg == "mean" else ("最大", "max"))
    assert dict(zip(out["季度"], out[col].round(2), strict=True)) == expected.to_dict()


# ---------------------------------------------------------------- a day with no year is used or named


@pytest.mark.parametrize("utterance", ["考勤按日期9月15号之后缺勤的记录", "9月15号之后缺勤的记录", "9月15日以后迟到的", "3月1号之前的缺勤记录"])
def test_a_day_with_no_year_is_never_dropped_silently(tmp_path: Path, utterance: str) -> None:
    days = pd.date_range("2025-09-01", periods=20, freq="D")
    pd.DataFrame({"日期": days.strftime("%Y-%m-%d"), "姓名": ["甲", "乙"] * 10, "状态": ["缺勤", "迟到", "正常", "缺勤"] * 5}).to_csv(
        tmp_path / "考勤.csv", index=False)
    tr = talk(tmp_path, ["考勤.csv", utterance], confirm=True)
    if tr.run is None:
        assert tr.decision.next in WAITS and ("9月15" in tr.decision.reply or "3月1" in tr.decision.reply)
        return
    conds = [c for s in tr.plan.steps for c in s.args.get("conditions", [])] if tr.plan else []
    assert any(c["column"] == "日期" for c in conds), conds


@pytest.mark.parametrize("turn, op, at", [
    ("考勤里下班打卡晚于20:00的记录", "gt", "20:00"), ("考勤.xlsx 筛选 下班打卡大于19:30", "gt", "19:30"),
    ("考勤里下班打卡早于17:45的", "lt", "17:45"), ("考勤.xlsx 下班打卡小于 18:05 的行", "lt", "18:05"),
])
def test_clock_times_compare_as_times(root: Path, data: dict[str, pd.DataFrame], turn: str, op: str, at: str) -> None:
    tr = outcome(root, [turn], False)
    if tr is None:
        return
    h, m = (int(x) for x in at.split(":"))
    p = data["punch"]
    keep = p["下班分钟"] > h * 60 + m if op == "gt" else p["下班分钟"] < h * 60 + m
    out = written(root, tr)
    assert len(out) == int(keep.sum()) and out["姓名"].tolist() == p.loc[keep, "姓名"].tolist()


def test_a_preview_says_which_text_columns_read_as_numbers_dates_or_times(root: Path) -> None:
    tr = outcome(root, ["看一下合同台账"], True)
    assert tr is not None
    said = tr.run.answer or ""
    assert "合同金额 是写成文本的数字" in said and "签订日期、到期日期 是写成文本的日期" in said
    tr = outcome(root, ["看一下考勤.xlsx"], True)
    assert tr is not None and "下班打卡 是写成文本的时间" in (tr.run.answer or "")


@pytest.mark.parametrize("turn, keep", [
    ("shifts.csv 筛选 开始晚于9:30", ["S1", "S3", "S4", "S7"]),
    ("shifts.csv 里开始早于9:00的班次", ["S2", "S5"]),
    ("shifts.csv: rows where 开始 is less than 10:00", ["S0", "S2", "S5"]),
])
def test_clock_times_without_a_leading_zero_compare_as_times(root: Path, turn: str, keep: list[str]) -> None:
    tr = outcome(root, [turn], False)  # on both engines: the out-of-core one hands clock times to pandas
    if tr is None:
        return
    assert written(root, tr)["班次"].tolist() == keep


@pytest.mark.parametrize("turns, kind", [
    (["把合同台账的合同金额转换成数字，去掉千分位逗号"], "number"),
    (["合同台账 合同金额转数值"], "number"),
    (["convert 合同金额 in 合同台账 to numbers"], "number"),
    (["合同台账的签订日期转成日期格式"], "date"),
    (["合同台账的到期日期和签订日期转换为日期"], "date"),
])
def test_text_is_converted_on_request_and_what_did_not_convert_is_kept(root: Path, data: dict[str, pd.DataFrame], turns: list[str], kind: str) -> None:
    tr = outcome(root, turns, True)
    assert tr is not None
    out = pd.read_csv(root / tr.run.files[0]["path"], dtype=str)
    c = data["contracts"]
    if kind == "number":
        got = out["合同金额"].tolist()
        assert got[7] == "待定" and pd.isna(got[9])
        keep = c["合同金额"].notna()
        assert [float(v) for v in out.loc[keep, "合同金额"]] == pytest.approx(c.loc[keep, "合同金额"].tolist())
        assert "1" in (tr.run.answer or "") and "待定" in (tr.run.answer or "")
    else:
        for col in [h for h in ("签订日期", "到期日期") if h in turns[0]]:
            assert out[col].tolist() == [d.isoformat() for d in c[col]]
    assert not any("按数字读取" in n or "按日期读取" in n for n in tr.run.notes)
