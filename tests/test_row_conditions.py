"""Conditions and row changes real requests use: a text column holding any of several words, cells that are (not)
numbers, two columns compared row by row, value edits under a condition, and periods said without a year, as a
fiscal year or as a range of a year column. Every run is checked against pandas on data generated here; a request
that is not fully read restates or asks, never runs something else."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_letter_case import talk

from engine.session import Session, TurnResult
from tools.edits import delete_rows
from tools.ops import filter_rows
from tools.workspace import Workspace

WAITS = ("restate_confirm", "plan_confirm", "ask_slots", "ask_intent")


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    r = tmp_path_factory.mktemp("rowcond")
    rng = np.random.default_rng(11)
    n = 40
    kinds = ["当期值", "环比增长", "同比增长"]
    pd.DataFrame({
        "指标": [f"{f}_{kinds[i % 3]}" for i, f in enumerate(rng.choice(["苹果", "香蕉", "梨"], n))],
        "数值": rng.integers(1, 500, n),
    }).to_csv(r / "prices.csv", index=False)
    grades = rng.choice(["12", "NS", "7", "", "M/C", "15", "3,200"], n)
    pd.DataFrame({"Title": [f"T{i}" for i in range(n)], "Grade": grades, "Salary": rng.integers(100, 900, n)}).to_csv(r / "titles.csv", index=False)
    parties = ["Liberal", "Conservative", "Labour"]
    pd.DataFrame({"Election": range(1900, 1900 + n), "Party A": rng.choice(parties, n), "Party B": rng.choice(parties, n),
                  "Votes A": rng.integers(1, 5, n), "Votes B": rng.integers(1, 5, n)}).to_csv(r / "elections.csv", index=False)
    pd.DataFrame({"指标": ["热水供热能力", "蒸汽供热能力", "热水供热能力", "供热管道长度"], "2021年": [593226.0, 118784.0, 1.0, 5.0],
                  "2022年": [600194.0, 125543.0, 2.0, 6.0]}).to_csv(r / "heat.csv", index=False)
    pd.DataFrame({"Date": pd.date_range("2020-06-01", periods=150).strftime("%m/%d/%Y"), "Tested": rng.integers(0, 90, 150)}).to_csv(r / "oneyear.csv", index=False)
    pd.DataFrame({"日期": pd.date_range("2020-06-01", periods=600).strftime("%Y-%m-%d"), "件数": rng.integers(0, 90, 600)}).to_csv(r / "years.csv", index=False)
    pd.DataFrame({"Fiscal Year": np.repeat([2021, 2022, 2023], 6), "Region": list("ABCABC") * 3,
                  "Children": rng.integers(1, 300, 18)}).to_csv(r / "subsidy.csv", index=False)
    pd.DataFrame({"年份": range(2010, 2024), "产量": rng.integers(10, 99, 14)}).to_csv(r / "output.csv", index=False)
    return r


def table_of(root: Path, tr: TurnResult) -> pd.DataFrame:
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.reply, tr.run and tr.run.answer)
    paths = [f["path"] for f in tr.run.files if f["path"].endswith(".csv")]
    assert paths, tr.run.answer
    assert paths[0].startswith("outputs/")
    return pd.read_csv(root / paths[0], keep_default_na=False, dtype=str)


def same_rows(got: pd.DataFrame, want: pd.DataFrame) -> None:
    want = want.astype(str).replace({"nan": ""}).reset_index(drop=True)
    assert len(got) == len(want), (len(got), len(want))
    assert got[list(want.columns)].reset_index(drop=True).values.tolist() == want.values.tolist()


def read(root: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(root / name, keep_default_na=False, dtype=str)


# ---------------------------------------------------------------- the tools, against pandas


def test_numeric_conditions_are_exact_complements() -> None:
    df = pd.DataFrame({"g": ["12", "NS", None, " ", "3,200", "7.5", "M/C"]})
    as_num = pd.to_numeric(df["g"].fillna("").str.replace(",", "").str.strip().replace("", "x"), errors="coerce").notna()
    blank = df["g"].fillna("").str.strip() == ""
    for op, want in (("numeric", as_num), ("not_numeric", ~as_num & ~blank), ("blank_or_numeric", as_num | blank),
                     ("blank_or_not_numeric", ~as_num)):
        got = filter_rows(df, [{"column": "g", "op": op}]).data
        assert got["g"].tolist() == df[want]["g"].tolist(), op
    kept = delete_rows(df, [{"column": "g", "op": "not_numeric"}]).data
    assert kept["g"].fillna("<blank>").tolist() == ["12", "<blank>", " ", "3,200", "7.5"]


def test_two_text_columns_compare_as_text_and_numbers_as_numbers() -> None:
    df = pd.DataFrame({"a": ["x", "y", None, "z "], "b": ["x", "q", None, "z"], "n": [1, 2, 3, 4], "m": [1.0, 5, 3, 0]})
    assert filter_rows(df, [{"column": "a", "op": "eq", "value": {"column": "b"}}]).data["a"].tolist() == ["x", "z "]
    assert filter_rows(df, [{"column": "a", "op": "ne", "value": {"column": "b"}}]).data["a"].tolist() == ["y"]
    assert filter_rows(df, [{"column": "n", "op": "eq", "value": {"column": "m"}}]).data["n"].tolist() == [1, 3]


def test_contains_any_of_a_list_and_deleting_a_range() -> None:
    df = pd.DataFrame({"k": ["a_环比", "b_同比", "c_当期", None], "v": [1, 5, 9, None]})
    assert filter_rows(df, [{"column": "k", "op": "contains", "value": ["环比", "同比"]}]).data["k"].tolist() == ["a_环比", "b_同比"]
    assert filter_rows(df, [{"column": "k", "op": "not_contains", "value": ["环比", "同比"]}]).data["v"].tolist()[0] == 9
    kept = filter_rows(df, [{"column": "v", "op": "not_between", "value": 2, "value2": 9}]).data
    assert kept["v"].tolist()[:1] == [1] and len(kept) == 2  # the blank is not inside the range: a deletion keeps it


# ---------------------------------------------------------------- requests, run for real


ANY_OF = [
    "删除prices.csv中所有'指标'中包含'环比增长'或'同比增长'的数据行",
    "把prices.csv里指标含有环比增长或同比增长的行删掉",
    "in prices.csv, delete rows where 指标 contains 环比增长 or 同比增长",
]


@pytest.mark.parametrize("utterance", ANY_OF)
def test_delete_rows_containing_any_of_two_words(root: Path, utterance: str) -> None:
    df = read(root, "prices.csv")
    want = df[~df["指标"].str.contains("环比增长") & ~df["指标"].str.contains("同比增长")]
    same_rows(table_of(root, talk(root, utterance)), want)


@pytest.mark.parametrize("utterance", ["prices.csv 指标包含环比或同比的行", "prices.csv rows where 指标 contains 环比 or 同比",
                                       "筛选prices.csv中指标包含'当期值'或者'同比'的行"])
def test_keep_rows_containing_any_of_two_words(root: Path, utterance: str) -> None:
    df = read(root, "prices.csv")
    words = ["当期值", "同比"] if "当期值" in utterance else ["环比", "同比"]
    same_rows(table_of(root, talk(root, utterance)), df[df["指标"].str.contains(words[0]) | df["指标"].str.contains(words[1])])


NOT_A_NUMBER = [
    "删除titles.csv里Grade不是数字的行",
    "根据titles.csv的'Grade'列中的值删除所有包含非数字级别的行",
    "把titles.csv中Grade为非数字的记录去掉",
    "in titles.csv, delete rows where Grade is not a number",
    "remove rows of titles.csv with non-numeric Grade",
    "titles.csv 的 Grade 列里有些无效值，比如'NS'，请删除 Grade 不是数字的行",
    "titles.csv: Grade has invalid values such as NS; delete the rows whose Grade is not a number",
]


def _is_number(s: pd.Series) -> pd.Series:
    return pd.to_numeric(s.str.replace(",", "").str.strip().replace("", "x"), errors="coerce").notna()


@pytest.mark.parametrize("utterance", NOT_A_NUMBER)
def test_delete_rows_whose_value_is_not_a_number(root: Path, utterance: str) -> None:
    df = read(root, "titles.csv")
    want = df[_is_number(df["Grade"]) | (df["Grade"].str.strip() == "")]
    assert len(want) < len(df)
    same_rows(table_of(root, talk(root, utterance)), want)


@pytest.mark.parametrize("utterance", ["titles.csv 中 Grade 不是数字的行", "titles.csv rows where Grade is not numeric", "titles.csv 里 Grade 是数字的行"])
def test_keep_rows_by_whether_the_value_is_a_number(root: Path, utterance: str) -> None:
    df = read(root, "titles.csv")
    num, filled = _is_number(df["Grade"]), df["Grade"].str.strip() != ""
    want = df[num] if "是数字" in utterance and "不是" not in utterance else df[~num & filled]
    same_rows(table_of(root, talk(root, utterance)), want)


SAME = [
    ("elections.csv 中 Party A 和 Party B 相同的记录", "eq"),
    ("找出elections.csv里Party A与Party B都是同一党派的行", "eq"),
    ("elections.csv rows where Party A is the same as Party B", "eq"),
    ("elections.csv 里 Party A 与 Party B 不一样的行", "ne"),
    ("in elections.csv, rows where Party A and Party B are different", "ne"),
]


@pytest.mark.parametrize(("utterance", "op"), SAME)
def test_two_columns_compared_for_equality(root: Path, utterance: str, op: str) -> None:
    df = read(root, "elections.csv")
    eq = df["Party A"] == df["Party B"]
    same_rows(table_of(root, talk(root, utterance)), df[eq if op == "eq" else ~eq])


def test_two_number_columns_equal(root: Path) -> None:
    df = read(root, "elections.csv")
    same_rows(table_of(root, talk(root, "elections.csv 中 Votes A 和 Votes B 相等的行")), df[df["Votes A"].astype(int) == df["Votes B"].astype(int)])


EDITS = [
    ("把heat.csv中指标为热水供热能力的行的2021年改成600,000", "2021年", 600000),
    ("将heat.csv里所有指标为'热水供热能力'的记录的2021年数据更新为600,000", "2021年", 600000),
    ("把heat.csv中指标是蒸汽供热能力的2022年改为7", "2022年", 7),
    ("in heat.csv set 2021年 to 1,250 where 指标 is 供热管道长度", "2021年", 1250),
]


@pytest.mark.parametrize(("utterance", "column", "value"), EDITS)
def test_set_values_where_a_condition_holds(root: Path, utterance: str, column: str, value: int) -> None:
    before = (root / "heat.csv").read_bytes()
    tr = talk(root, utterance)
    got = table_of(root, tr)
    df = pd.read_csv(root / "heat.csv")
    target = "热水供热能力" if "热水" in utterance else "蒸汽供热能力" if "蒸汽" in utterance else "供热管道长度"
    hit = df["指标"] == target
    df.loc[hit, column] = value
    assert pd.to_numeric(got[column]).tolist() == df[column].tolist()
    assert pd.to_numeric(got["2021年" if column == "2022年" else "2022年"]).tolist() == df["2021年" if column == "2022年" else "2022年"].tolist()
    assert (root / "heat.csv").read_bytes() == before  # the source is never written
    assert f"{int(hit.sum())} 行" in (tr.run.answer or "") or f"{int(hit.sum())} of" in (tr.run.answer or "")


def test_month_range_without_a_year_uses_the_one_year_of_the_data_and_says_so(root: Path) -> None:
    s = Session(Workspace.at(root))
    tr = s.turn("oneyear.csv 从8月到9月的行")
    from modes.replies import goal_summary

    assert tr.decision.next == "execute"  # no other year could be meant: it runs, its "about to" line saying the dates
    assert "2020-08-01" in goal_summary(tr.decision.request, "zh")
    got = table_of(root, tr)
    df = read(root, "oneyear.csv")
    d = pd.to_datetime(df["Date"], format="%m/%d/%Y")
    same_rows(got, df[(d >= "2020-08-01") & (d <= "2020-09-30")])


@pytest.mark.parametrize("utterance", ["years.csv 从8月到9月的件数合计", "years.csv rows from August to September"])
def test_month_range_over_several_years_asks_which_year(root: Path, utterance: str) -> None:
    tr = Session(Workspace.at(root)).turn(utterance)
    assert tr.run is None and tr.decision.next == "ask_slots"
    assert "2020" in tr.decision.reply and "2022" in tr.decision.reply


@pytest.mark.parametrize("utterance", ["subsidy.csv 2023财年每个Region的Children合计", "in subsidy.csv total Children per Region for FY2022"])
def test_fiscal_year_on_the_fiscal_year_column(root: Path, utterance: str) -> None:
    y = 2023 if "2023" in utterance else 2022
    tr = talk(root, utterance)
    df = pd.read_csv(root / "subsidy.csv")
    want = df[df["Fiscal Year"] == y].groupby("Region")["Children"].sum()
    got = table_of(root, tr)
    col = next(c for c in got.columns if c != "Region" and "Children" in c)
    assert dict(zip(got["Region"], pd.to_numeric(got[col]), strict=True)) == want.to_dict()


@pytest.mark.parametrize("utterance", ["output.csv 2015年至2020年的产量合计", "output.csv total 产量 from 2015 to 2020"])
def test_year_range_on_a_year_column(root: Path, utterance: str) -> None:
    tr = talk(root, utterance)
    df = pd.read_csv(root / "output.csv")
    want = int(df[(df["年份"] >= 2015) & (df["年份"] <= 2020)]["产量"].sum())
    got = table_of(root, tr)
    assert pd.to_numeric(got[next(c for c in got.columns if "产量" in c)]).tolist() == [want]


def test_numbers_after_another_number_column_are_not_years(root: Path) -> None:
    tr = talk(root, "output.csv 产量在20到2020之间的行")
    df = read(root, "output.csv")
    same_rows(table_of(root, tr), df[(df["产量"].astype(int) >= 20) & (df["产量"].astype(int) <= 2020)])
    tr = talk(root, "output.csv 产量在2015到2020之间的行")
    if tr.run is not None:  # never the years 2015-2020 (6 rows): no amount is that large, or it is asked
        assert tr.run.status == "insufficient_context", tr.run.answer


def test_a_month_range_with_its_year_said_once_runs(root: Path) -> None:
    df = read(root, "years.csv")
    d = pd.to_datetime(df["日期"])
    want = int(df[(d >= "2021-08-01") & (d <= "2021-09-30")]["件数"].astype(int).sum())
    got = table_of(root, talk(root, "years.csv 2021年8月到9月的件数合计"))
    assert pd.to_numeric(got[next(c for c in got.columns if "件数" in c)]).tolist() == [want]
