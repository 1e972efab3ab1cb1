"""Eight kinds of request that used to give a different result than asked, run for real through a session.

Each phrasing either produces exactly the result recomputed here with pandas, or restates / asks: never a
different result. Phrasings marked `RUN` must also run (directly, or after 继续) and give that result.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from engine.session import Session, TurnResult
from tools.workspace import Workspace

WAITS = ("restate_confirm", "plan_confirm", "ask_slots", "ask_intent")
RUN = True


@pytest.fixture(scope="module")
def ws_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("nsw")
    rng = np.random.default_rng(7)
    n = 48
    pd.DataFrame({
        "订单号": [f"D{i:03d}" for i in range(n)],
        "城市": rng.choice(["上海", "北京", "广州", "深圳"], n),
        "产品": rng.choice(["苹果", "香蕉", "橙子"], n),
        "日期": pd.date_range("2023-01-03", periods=n, freq="7D").strftime("%Y-%m-%d"),
        "实际销量": rng.integers(10, 100, n),
        "目标销量": rng.integers(10, 100, n),
        "金额": rng.integers(1000, 40000, n),
    }).to_csv(root / "sales.csv", index=False)
    pd.DataFrame({"地区": ["甲", "乙", "丙", "丁"], "2015年": [1, 2, 3, 4], "2016年": [5, 6, 7, 8], "2017年": [2, 2, 2, 2],
                  "2018年": [9, 1, 3, 5], "2019年": [4, 4, 6, 2], "2020年": [7, 8, 9, 10]}).to_csv(root / "years.csv", index=False)
    pd.DataFrame({"Team_Name": ["Shanghai Sharks", "Beijing Ducks", "Shanghai Sharks", "Guangdong Tigers", "Beijing Ducks"],
                  "Points": [27479, 1200, 3300, 15000, 2600], "Wins": [10, 5, 7, 9, 3]}).to_csv(root / "teams.csv", index=False)
    pd.DataFrame({"文件名": ["a.csv", "b.xlsx", "c.csv", "d.pdf"], "格式": ["csv", "xlsx", "csv", "pdf"],
                  "大小": [10, 20, 30, 40]}).to_csv(root / "formats.csv", index=False)
    return root


def sales(root: Path) -> pd.DataFrame:
    return pd.read_csv(root / "sales.csv")


def talk(root: Path, turns: list[str], confirm: bool = False) -> TurnResult:
    s = Session(Workspace.at(root))
    tr = None
    for t in turns:
        tr = s.turn(t)
    assert tr is not None
    if confirm and tr.run is None and tr.decision.next in ("restate_confirm", "plan_confirm"):
        tr = s.turn("继续")
    return tr


def result_table(root: Path, tr: TurnResult) -> pd.DataFrame:
    assert tr.run is not None and tr.run.status == "answered", (tr.decision.reply, tr.run and tr.run.answer)
    tables = [f["path"] for f in tr.run.files if f["path"].endswith((".csv", ".xlsx"))]
    assert tables, tr.run.answer
    p = root / tables[0]
    return pd.read_csv(p) if p.suffix == ".csv" else pd.read_excel(p, engine="openpyxl")


def verdict(root: Path, turns: list[str], check: Callable[[pd.DataFrame, TurnResult], None], must_run: bool) -> str:
    """'asked' when the last turn restated or asked; otherwise the run's result must pass the check."""
    tr = talk(root, turns, confirm=must_run)
    if tr.run is None:
        assert not must_run, f"did not run: {tr.decision.next} {tr.decision.reply}"
        assert tr.decision.next in WAITS, (tr.decision.next, tr.decision.reply)
        return "asked"
    check(result_table(root, tr) if tr.run.files else pd.DataFrame(), tr)
    return "ran"


def same_ids(expected: pd.DataFrame) -> Callable[[pd.DataFrame, TurnResult], None]:
    def check(got: pd.DataFrame, tr: TurnResult) -> None:
        assert sorted(got["订单号"]) == sorted(expected["订单号"]), tr.run and tr.run.answer
    return check


def group_sum(expected: pd.Series, measure: str = "金额") -> Callable[[pd.DataFrame, TurnResult], None]:
    def check(got: pd.DataFrame, tr: TurnResult) -> None:
        key = expected.index.name
        col = next(c for c in got.columns if c.startswith(measure) and c != key)
        assert dict(zip(got[key], got[col], strict=True)) == pytest.approx(expected.to_dict()), tr.run and tr.run.answer
    return check


def answer_has(value: Any) -> Callable[[pd.DataFrame, TurnResult], None]:
    def check(got: pd.DataFrame, tr: TurnResult) -> None:
        assert tr.run is not None and str(value) in (tr.run.answer or ""), (value, tr.run and tr.run.answer)
    return check


# ---------------------------------------------------------------- 1. exclusion words


def _not(col: str, *vals: str) -> Callable[[pd.DataFrame], pd.DataFrame]:
    return lambda df: df[~df[col].isin(vals)]


EXCLUSION = [
    ("sales.csv 剔除上海的订单", _not("城市", "上海"), RUN),
    ("sales.csv 排除城市是北京的行", _not("城市", "北京"), RUN),
    ("sales.csv 不包括广州的订单", _not("城市", "广州"), not RUN),
    ("sales.csv 里去掉上海和北京", _not("城市", "上海", "北京"), RUN),
    ("从 sales.csv 中排除产品为香蕉的记录", _not("产品", "香蕉"), RUN),
    ("remove rows where 城市 is 上海 from sales.csv", _not("城市", "上海"), RUN),
    ("sales.csv excluding 深圳", _not("城市", "深圳"), not RUN),
    ("sales.csv 除了北京以外的订单", _not("城市", "北京"), not RUN),
    ("sales.csv 把苹果的订单都删掉", _not("产品", "苹果"), RUN),
    ("drop the 橙子 rows from sales.csv", _not("产品", "橙子"), not RUN),
    ("sales.csv 不要深圳和广州的", _not("城市", "深圳", "广州"), not RUN),
    ("sales.csv 剔除掉上海的", _not("城市", "上海"), not RUN),
]


@pytest.mark.parametrize("utterance,keep,must_run", EXCLUSION)
def test_exclusion_words_never_keep_what_was_excluded(ws_root, utterance, keep, must_run):
    verdict(ws_root, [utterance], same_ids(keep(sales(ws_root))), must_run)


def test_exclusion_then_summary(ws_root):
    df = sales(ws_root)
    expected = df[df["城市"] != "广州"].groupby("产品")["金额"].sum()
    verdict(ws_root, ["sales.csv 不包括广州的订单，按产品汇总金额"], group_sum(expected), RUN)


# ---------------------------------------------------------------- 2. parts not understood are never dropped


def _median(df: pd.DataFrame) -> Any:
    v = df["金额"].median()
    return int(v) if float(v).is_integer() else v


def held(root: Path, utterance: str) -> str:
    """The reply of a request that must wait (restate or ask), never run."""
    tr = talk(root, [utterance])
    assert tr.run is None, f"ran: {tr.run and tr.run.answer}"
    assert tr.decision.next in WAITS
    return tr.decision.reply


DROPPED = [  # median, std, shares, charts, running totals and growth per group are operations now: tests/test_analysis_ops.py checks them
    # (a month without its year is read now, on the data's only year: tests/test_trial_findings.py checks that result)
    "sales.csv 预测下个月的金额",
    "sales.csv 每个城市金额的排名第几",
    "sales.csv 预测明年每个城市的金额",
    "sales.csv forecast next month's 金额",
    "sales.csv 计算金额的偏度",
    "sales.csv what is the kurtosis of 金额",
    "sales.csv 按城市汇总金额，再做个词云",
    "sales.csv 按产品汇总金额并画一张箱线图",
    "sales.csv 用聚类把城市分成三类",
    "sales.csv 金额合计，然后做个雷达图",
]


@pytest.mark.parametrize("utterance", DROPPED)
def test_a_part_that_cannot_be_done_is_said_never_dropped(ws_root, utterance):
    reply = held(ws_root, utterance)
    assert any(w in reply.casefold() for w in ("做不了", "没理解", "不支持", "cannot", "not understood", "not supported")), reply


CODES = [  # a code no rule read (an ID outside the sample, a customer number) is a condition never applied
    "sales.csv X9999的金额合计是多少",
    "sales.csv 客户C1024的金额合计",
    "sales.csv what is the total 金额 of order ZX-5501",
    "sales.csv 门店SH02的平均金额",
]


@pytest.mark.parametrize("utterance", CODES)
def test_a_code_that_was_not_read_is_named_never_summed_over(ws_root, utterance):
    code = re.search(r"[A-Za-z]+-?\d+", utterance).group(0)  # type: ignore[union-attr]
    tr = talk(ws_root, [utterance])
    if tr.run is not None:  # order ZX-5501 read as 订单号 = ZX-5501: the condition runs, matches no row, and no figure is given
        conds = [c for o in tr.decision.request.ops if o.kind == "filter" for c in o.args.get("conditions", [])]
        assert any(c.value == code for c in conds) and tr.run.status != "answered" and tr.run.fallback_reason == "no_rows_match", tr.run
        return
    assert tr.decision.next in WAITS and code in tr.decision.reply, tr.decision.reply


@pytest.mark.parametrize("utterance,n", [("sales.csv top5 金额", 5), ("sales.csv 金额 top10", 10), ("sales.csv TOP3的金额", 3)])
def test_top_n_glued_to_its_number_is_a_ranking_never_a_percentile(ws_root, utterance, n):
    tr = talk(ws_root, [utterance], confirm=True)
    got = result_table(ws_root, tr)
    want = sales(ws_root).nlargest(n, "金额")
    assert sorted(got["金额"], reverse=True) == list(want["金额"]), tr.run and tr.run.answer


def test_a_month_with_its_year_is_a_filter_that_runs(ws_root):
    df = sales(ws_root)
    d = pd.to_datetime(df["日期"])
    expected = int(df[(d.dt.year == 2023) & (d.dt.month == 3)]["金额"].sum())
    verdict(ws_root, ["sales.csv 2023年3月的金额合计是多少"], answer_has(expected), RUN)


def test_export_of_a_table_whose_values_name_the_format_keeps_every_row(ws_root):
    for u in ("把 formats.csv 导出成 xlsx", "formats.csv 转成 csv", "export formats.csv as csv"):
        tr = talk(ws_root, [u], confirm=True)
        got = result_table(ws_root, tr)
        assert len(got) == 4 and sorted(got["格式"]) == ["csv", "csv", "pdf", "xlsx"], u


# ---------------------------------------------------------------- 3. the last result is the input


def _grouped(df: pd.DataFrame, key: str) -> pd.DataFrame:
    return df.groupby(key)["金额"].sum()


RESULTS: list[tuple[list[str], Callable[[pd.DataFrame], Any], str]] = [
    (["sales.csv 按城市汇总金额", "在这个结果里只看金额大于200000的"], lambda df: _grouped(df, "城市")[lambda s: s > 200000], "group"),
    (["sales.csv 筛选城市是上海的", "把刚才的结果按金额降序排"], lambda df: df[df["城市"] == "上海"], "ids"),
    (["sales.csv 按产品汇总金额", "然后按金额从高到低排序"], lambda df: _grouped(df, "产品"), "group_sorted"),
    (["filter sales.csv where 城市 is 北京", "then sort by 金额 descending"], lambda df: df[df["城市"] == "北京"], "ids"),
    (["sales.csv 筛选产品是苹果的", "在结果里按城市汇总金额"], lambda df: _grouped(df[df["产品"] == "苹果"], "城市"), "group"),
    (["sales.csv 按城市汇总金额", "then export it as xlsx"], lambda df: _grouped(df, "城市"), "group"),
    (["sales.csv 筛选金额大于20000的", "接着按城市分组汇总金额"], lambda df: _grouped(df[df["金额"] > 20000], "城市"), "group"),
    (["sales.csv 按产品汇总金额", "把刚才的结果导出成xlsx"], lambda df: _grouped(df, "产品"), "group"),
    (["sales.csv 筛选城市是深圳的", "在这个结果里去掉产品是香蕉的"], lambda df: df[(df["城市"] == "深圳") & (df["产品"] != "香蕉")], "ids"),
    (["sales.csv 筛选城市是广州的", "then keep only 订单号 and 金额"], lambda df: df[df["城市"] == "广州"], "ids"),
]


@pytest.mark.parametrize("turns,expect,kind", RESULTS)
def test_the_next_request_works_on_the_last_result(ws_root, turns, expect, kind):
    expected = expect(sales(ws_root))

    def check(got: pd.DataFrame, tr: TurnResult) -> None:
        if kind == "ids":
            same_ids(expected)(got, tr)
            return
        group_sum(expected)(got, tr)
        if kind == "group_sorted":
            col = next(c for c in got.columns if c.startswith("金额"))
            assert list(got[col]) == sorted(got[col], reverse=True)

    assert verdict(ws_root, turns, check, RUN) == "ran"


# ---------------------------------------------------------------- 4. an answer to wenqing's own question


ANSWERS: list[tuple[list[str], Callable[[pd.DataFrame, pd.DataFrame], None]]] = [
    (["sales.csv 按那个分组", "用 城市 这一列"], lambda df, got: group_sum(df.groupby("城市")["金额"].sum())(got, None)),  # type: ignore[arg-type]
    (["sales.csv 按那个分组", "就用产品吧"], lambda df, got: group_sum(df.groupby("产品")["金额"].sum())(got, None)),  # type: ignore[arg-type]
    (["sales.csv 排个序", "金额"], lambda df, got: None if list(got["金额"]) == sorted(df["金额"]) else pytest.fail("not sorted by 金额")),
    (["sales.csv 排个序", "用金额这一列"], lambda df, got: None if list(got["金额"]) == sorted(df["金额"]) else pytest.fail("not sorted")),
    (["sales.csv 找异常值", "实际销量"], lambda df, got: None),
    (["sales.csv 只保留几列", "城市和金额"], lambda df, got: None if list(got.columns) == ["城市", "金额"] else pytest.fail(str(got.columns))),
    (["sort sales.csv", "金额"], lambda df, got: None if list(got["金额"]) == sorted(df["金额"]) else pytest.fail("not sorted")),
    (["sales.csv 看看哪两列有关系", "实际销量和目标销量"], lambda df, got: None),
    (["group sales.csv by that column", "城市"], lambda df, got: group_sum(df.groupby("城市")["金额"].sum())(got, None)),  # type: ignore[arg-type]
    (["sales.csv 只保留几列", "订单号、产品"], lambda df, got: None if list(got.columns) == ["订单号", "产品"] else pytest.fail(str(got.columns))),
    (["group teams.csv by that column", "Team_Name"], lambda df, got: None if sorted(got["Team_Name"]) == ["Beijing Ducks", "Guangdong Tigers", "Shanghai Sharks"]
     else pytest.fail(str(got))),
]


@pytest.mark.parametrize("turns,check", ANSWERS)
def test_an_answer_fills_the_slot_and_never_starts_a_new_action(ws_root, turns, check):
    s = Session(Workspace.at(ws_root))
    first = s.turn(turns[0])
    assert first.run is None and first.decision.next == "ask_slots"
    tr = s.turn(turns[1])
    assert tr.run is None, f"an answer ran something: {tr.run and tr.run.answer}"
    assert tr.decision.next == "restate_confirm", tr.decision.reply  # every answer here names a real column: the slot is filled
    kinds = set(tr.decision.request.kinds())
    assert kinds & set(first.decision.request.kinds()), (kinds, first.decision.request.kinds())
    done = s.turn("继续")
    assert done.run is not None and done.run.status == "answered", done.decision.reply
    if done.run.files:
        check(sales(ws_root), result_table(ws_root, done))


@pytest.mark.parametrize("answer", ["用名称这一列", "用 地址 这列", "the 颜色 column"])
def test_an_answer_naming_no_column_asks_again(ws_root, answer):
    s = Session(Workspace.at(ws_root))
    s.turn("sales.csv 按那个分组")
    tr = s.turn(answer)
    assert tr.run is None and tr.decision.next in ("ask_slots", "ask_intent"), tr.decision.reply


# ---------------------------------------------------------------- 5. quoted names, glued names, 27,479, year columns


def _teams(root: Path) -> pd.DataFrame:
    return pd.read_csv(root / "teams.csv")


def _years(root: Path) -> pd.DataFrame:
    return pd.read_csv(root / "years.csv")


def rows_of(col: str, expected_values: Callable[[Path], list[Any]]) -> Callable[[Path], Callable[[pd.DataFrame, TurnResult], None]]:
    def make(root: Path) -> Callable[[pd.DataFrame, TurnResult], None]:
        want = sorted(expected_values(root))

        def check(got: pd.DataFrame, tr: TurnResult) -> None:
            assert sorted(got[col]) == want, tr.run and tr.run.answer
        return check
    return make


NAMES = [
    ("teams.csv 里 'Shanghai Sharks' 的 Points 是多少", lambda r: answer_has(int(_teams(r).query("Team_Name == 'Shanghai Sharks'")["Points"].sum())), not RUN),
    ('teams.csv 筛选 Team_Name 是 "Beijing Ducks" 的', rows_of("Points", lambda r: list(_teams(r).query("Team_Name == 'Beijing Ducks'")["Points"])), RUN),
    ("teams.csv 按Team_Name分组汇总Points", lambda r: group_sum(_teams(r).groupby("Team_Name")["Points"].sum(), "Points"), RUN),
    ("teams.csv 筛选 Points 大于 27,000 的", rows_of("Points", lambda r: list(_teams(r).query("Points > 27000")["Points"])), RUN),
    ("teams.csv Points 超过1,500的队", rows_of("Points", lambda r: list(_teams(r).query("Points > 1500")["Points"])), not RUN),
    ("teams.csv where Points > 2,000", rows_of("Points", lambda r: list(_teams(r).query("Points > 2000")["Points"])), RUN),
    ("years.csv 2019年大于3的地区", rows_of("地区", lambda r: list(_years(r).query("`2019年` > 3")["地区"])), RUN),
    ("years.csv 2016年小于7的地区", rows_of("地区", lambda r: list(_years(r).query("`2016年` < 7")["地区"])), RUN),
    ("years.csv 按2018年降序排序", rows_of("地区", lambda r: list(_years(r)["地区"])), RUN),
    ("years.csv 2020年的合计是多少", lambda r: answer_has(int(_years(r)["2020年"].sum())), RUN),
    ("years.csv 2015年至2020年各地区的合计", lambda r: pytest.fail, not RUN),
    ("teams.csv 筛选 Team_Name 为 'Guangdong Tigers'", rows_of("Points", lambda r: [15000]), not RUN),
]


@pytest.mark.parametrize("utterance,make_check,must_run", NAMES)
def test_names_numbers_and_year_columns_are_read_as_written(ws_root, utterance, make_check, must_run):
    if "至" in utterance:  # a range of year columns is a range of columns: never a date filter, each row's total over it
        tr = talk(ws_root, [utterance], confirm=True)
        assert "日期" not in tr.decision.reply
        assert tr.run is not None and tr.run.table is not None, tr.decision.reply
        got = tr.run.table
        years = _years(ws_root)
        want = years.set_index("地区")[[f"{y}年" for y in range(2015, 2021)]].sum(axis=1)
        assert dict(zip(got["地区"], got["合计"], strict=True)) == pytest.approx(want.to_dict())
        return
    verdict(ws_root, [utterance], make_check(ws_root), must_run)


def test_sorting_by_a_year_column_orders_by_that_column(ws_root):
    tr = talk(ws_root, ["years.csv 按2018年降序排序"], confirm=True)
    got = result_table(ws_root, tr)
    assert list(got["2018年"]) == sorted(_years(ws_root)["2018年"], reverse=True)


# ---------------------------------------------------------------- 6. a column against a column or its average


CROSS = [
    ("sales.csv 实际销量低于目标销量的订单", lambda df: df[df["实际销量"] < df["目标销量"]], RUN),
    ("sales.csv 金额高于平均的订单", lambda df: df[df["金额"] > df["金额"].mean()], RUN),
    ("sales.csv rows where 实际销量 is greater than 目标销量", lambda df: df[df["实际销量"] > df["目标销量"]], RUN),
    ("sales.csv 筛选实际销量高于平均值的", lambda df: df[df["实际销量"] > df["实际销量"].mean()], RUN),
    ("sales.csv 目标销量超过实际销量的订单", lambda df: df[df["目标销量"] > df["实际销量"]], RUN),
    ("sales.csv rows where 金额 is above the average", lambda df: df[df["金额"] > df["金额"].mean()], RUN),
    ("sales.csv where 金额 is below the mean", lambda df: df[df["金额"] < df["金额"].mean()], not RUN),
    ("sales.csv 实际销量低于平均水平的订单", lambda df: df[df["实际销量"] < df["实际销量"].mean()], RUN),
    ("sales.csv 实际销量大于等于目标销量的", lambda df: df[df["实际销量"] >= df["目标销量"]], not RUN),
    ("sales.csv 金额低于平均金额的订单", lambda df: df[df["金额"] < df["金额"].mean()], RUN),
    ("sales.csv 里实际销量超过了平均值的订单", lambda df: df[df["实际销量"] > df["实际销量"].mean()], not RUN),
]


@pytest.mark.parametrize("utterance,keep,must_run", CROSS)
def test_a_column_compared_with_a_column_or_its_average(ws_root, utterance, keep, must_run):
    verdict(ws_root, [utterance], same_ids(keep(sales(ws_root))), must_run)


@pytest.mark.parametrize("utterance,count", [
    ("sales.csv 金额低于平均金额的行有多少", lambda df: int((df["金额"] < df["金额"].mean()).sum())),
    ("sales.csv 实际销量低于目标销量的有多少条", lambda df: int((df["实际销量"] < df["目标销量"]).sum())),
])
def test_counting_rows_against_a_column_or_average(ws_root, utterance, count):
    tr = talk(ws_root, [utterance], confirm=True)
    if tr.run is None:
        assert tr.decision.next in WAITS
        return
    assert f"共有 {count(sales(ws_root))} 行" in (tr.run.answer or ""), tr.run.answer


# ---------------------------------------------------------------- 7. statements and questions about wenqing are chat


CHAT = [
    "这个表是财务上周发我的", "sales.csv 是财务上周发我的", "my boss sent me sales.csv yesterday", "你会把我的数据传到网上吗",
    "会不会把我的原文件改掉", "你叫什么名字", "what can you do", "你支持哪些格式", "is my data uploaded anywhere?",
    "sales.csv 是同事整理的", "teams.csv 昨天才发给我", "will you change my files?",
    # talk that names nothing of the workspace
    "你是不是很无聊啊", "我是不是太胖了", "周末比较想去爬山", "你觉得猫和狗是什么关系", "你不是机器人吗",
]


@pytest.mark.parametrize("utterance", CHAT)
def test_statements_and_questions_about_wenqing_run_no_tool(ws_root, utterance):
    tr = talk(ws_root, [utterance])
    assert tr.run is None and tr.decision.gate == "chat" and tr.decision.next == "reply", (tr.decision.next, tr.decision.reply)


# what other apps do, talk to wenqing as a person, the conversation itself, general knowledge, and questions about
# wenqing's own name and undo: each a reply of its kind, never a tool and never "which file?"
TALK: list[tuple[str, str]] = [
    ("上海明天会下雨吗", "service"), ("帮我订一张去深圳的机票", "service"), ("查一下今晚北京到广州的高铁", "service"),
    ("打开微信", "service"), ("放一首周杰伦的歌", "service"), ("what's the weather like in Beijing tomorrow", "service"),
    ("book me a hotel near the station", "service"), ("play some music", "service"), ("open gmail", "service"),
    ("这部剧第五集讲了什么", "service"),
    ("你喜欢吃辣吗", "persona"), ("你是不是真人", "persona"), ("你多大了", "persona"), ("do you like cats", "persona"),
    ("are you a robot", "persona"), ("你觉得今天开心吗", "persona"),
    ("我刚才说了什么", "conversation"), ("你记得我们聊到哪了吗，我说的倒数第二句话是什么", "conversation"), ("what did I just say", "conversation"),
    ("definition of entropy", "knowledge"), ("what does serendipity mean", "knowledge"), ("光合作用是什么意思", "knowledge"),
    ("怎么撤销刚才的操作", "undo"), ("how do I undo an export", "undo"), ("can I take that back?", "undo"),
    ("你为什么叫问清", "name"), ("what's your name", "name"), ("问清这个名字是什么意思", "name"),
]


@pytest.mark.parametrize("utterance,kind", TALK)
def test_talk_that_is_not_about_the_workspace_gets_a_reply_of_its_kind(ws_root, utterance, kind):
    tr = talk(ws_root, [utterance])
    assert tr.run is None and tr.decision.next == "reply", (tr.decision.next, tr.decision.reply)
    assert tr.decision.rule == f"chat:{kind}", (tr.decision.rule, tr.decision.reply)


@pytest.fixture()
def travel_ws(tmp_path: Path) -> Path:
    pd.DataFrame({"航班号": ["CA1", "MU2", "CZ3", "CA4"], "出发城市": ["北京", "上海", "广州", "北京"],
                  "到达城市": ["上海", "广州", "北京", "广州"], "票价": [800, 900, 1000, 700]}).to_csv(tmp_path / "航班.csv", index=False)
    pd.DataFrame({"date": ["2024-01-01", "2024-01-02", "2024-01-03"], "city": ["Paris", "Oslo", "Paris"],
                  "weather": ["rain", "snow", "sun"], "temp": [8, -3, 12]}).to_csv(tmp_path / "weather.csv", index=False)
    return tmp_path


@pytest.mark.parametrize("utterance,expect", [
    ("航班.csv 里到达城市是广州的航班", lambda f: f[f["到达城市"] == "广州"]),
    ("航班.csv 按出发城市汇总票价", None),
    ("filter weather.csv where weather is rain", lambda f: f[f["weather"] == "rain"]),
    ("weather.csv 里 city 是 Paris 的行", lambda f: f[f["city"] == "Paris"]),
])
def test_a_service_word_that_names_the_workspace_is_work(travel_ws, utterance, expect):
    """航班 / weather are a file or a column here: the request works on it, with the rows pandas keeps."""
    tr = talk(travel_ws, [utterance], confirm=True)
    assert tr.decision.gate == "act" and tr.run is not None and tr.run.status == "answered", tr.decision.reply
    if expect is not None:
        name = "航班.csv" if "航班" in utterance else "weather.csv"
        want = expect(pd.read_csv(travel_ws / name))
        got = result_table(travel_ws, tr)
        assert got.reset_index(drop=True).equals(want.reset_index(drop=True)), (got, want)


# ---------------------------------------------------------------- 8. setting a request aside for a new one


ASIDE: list[tuple[list[str], Callable[[pd.DataFrame], Any], str]] = [
    (["sales.csv 筛选上海的", "算了这个先放着，帮我把 sales.csv 按产品汇总金额"], lambda df: _grouped(df, "产品"), "group"),
    (["sales.csv 按那个排序", "never mind, filter sales.csv where 城市 is 北京"], lambda df: df[df["城市"] == "北京"], "ids"),
    (["sales.csv 找异常值", "算了，帮我把 sales.csv 按城市汇总金额"], lambda df: _grouped(df, "城市"), "group"),
    (["sort sales.csv", "forget it, filter sales.csv where 产品 is 苹果"], lambda df: df[df["产品"] == "苹果"], "ids"),
    (["sales.csv 按那个分组", "先不管这个了，sales.csv 筛选城市是深圳的"], lambda df: df[df["城市"] == "深圳"], "ids"),
    (["sales.csv 排个序", "算了，筛选 sales.csv 产品是香蕉的"], lambda df: df[df["产品"] == "香蕉"], "ids"),
    (["sales.csv 只保留几列", "scratch that, group sales.csv by 产品 and sum 金额"], lambda df: _grouped(df, "产品"), "group"),
    (["sales.csv 找异常值", "先放一放，把 sales.csv 里北京的订单筛出来"], lambda df: df[df["城市"] == "北京"], "ids"),
    (["sales.csv 排个序", "不管了，sales.csv 按城市汇总金额"], lambda df: _grouped(df, "城市"), "group"),
    (["sales.csv 按那个分组", "算了 帮我筛选 sales.csv 里广州的订单"], lambda df: df[df["城市"] == "广州"], "ids"),
]


@pytest.mark.parametrize("turns,expect,kind", ASIDE)
def test_setting_a_request_aside_decides_the_new_one(ws_root, turns, expect, kind):
    expected = expect(sales(ws_root))
    tr = talk(ws_root, turns)
    assert tr.decision.next != "cancel" and tr.decision.gate == "act", tr.decision.reply
    check = same_ids(expected) if kind == "ids" else group_sum(expected)
    assert verdict(ws_root, turns, check, RUN) == "ran"
