"""Statistical requests as people write them: two groups compared by a test, several statistics of one column, counts and
shares within a subset, one value against another on a measure. Run end to end on data generated here; every figure is
recomputed with pandas or scipy, and a request that cannot be read exactly is asked about, never answered otherwise."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from engine.session import Session
from tools.fmt import num, pct
from tools.workspace import Workspace

RNG = np.random.default_rng(9)
N = 240
SCORES = pd.DataFrame({
    "学号": [f"S{i:04d}" for i in range(N)],
    "班级": RNG.choice(["一班", "二班", "三班"], N),
    "组别": RNG.choice(["实验组", "对照组"], N),
    "性别": RNG.choice(["男", "女"], N),
    "数学": RNG.normal(72, 11, N).round(1),
    "语文": RNG.normal(80, 8, N).round(1),
    "缺勤": RNG.choice([0, 1, 2, 3, 5], N, p=[0.4, 0.25, 0.15, 0.12, 0.08]),
})
SCORES.loc[SCORES["组别"] == "实验组", "数学"] += 4
CITIES = pd.DataFrame({"城市": ["北京", "上海", "广州", "深圳"], "人口": [2189.3, 2487.1, 1881.1, 1768.2], "面积": [16410, 6340, 7434, 1997]})
SONGS = pd.DataFrame({"歌手": RNG.choice(["张三", "李四"], 90), "贡献": RNG.choice(["主唱", "混音", "吉他", "作曲"], 90), "年份": RNG.integers(2000, 2020, 90)})


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    SCORES.to_csv(tmp_path / "成绩.csv", index=False)
    CITIES.to_csv(tmp_path / "城市.csv", index=False)
    SONGS.to_csv(tmp_path / "作品.csv", index=False)
    return Workspace.at(tmp_path)


def run(ws: Workspace, text: str):
    s = Session(ws)
    tr = s.turn(text)
    if tr.run is None and tr.decision.next == "restate_confirm":
        tr = s.turn("继续")
    assert tr.run is not None, tr.decision.reply
    assert tr.run.status == "answered", tr.run.notes
    return tr


def facts_of(tr, tool: str) -> dict:
    return next(o.facts for o in tr.run.steps if o.tool == tool and o.status == "success")


# ---------------------------------------------------------------- one value against another


@pytest.mark.parametrize(("text", "a", "b", "col", "agg"), [
    ("成绩.csv 一班的数学比二班高多少", "一班", "二班", "数学", "mean"),
    ("成绩.csv 里二班的语文平均分比一班低多少", "二班", "一班", "语文", "mean"),
    ("成绩.csv 一班和三班的语文相差多少", "一班", "三班", "语文", "mean"),
    ("成绩.csv 三班的缺勤总数比一班多多少", "三班", "一班", "缺勤", "sum"),
    ("In 成绩.csv, how much higher is the 数学 of 一班 than 二班?", "一班", "二班", "数学", "mean"),
    ("成绩.csv: what is the difference in 语文 between 三班 and 二班?", "三班", "二班", "语文", "mean"),
    ("成绩.csv: how much more total 缺勤 does 二班 have than 三班?", "二班", "三班", "缺勤", "sum"),
    ("In 成绩.csv, how much higher is the mean 数学 where 班级 is 一班 than 二班?", "一班", "二班", "数学", "mean"),
    ("成绩.csv 男生的数学比女生高多少", "男", "女", "数学", "mean"),
    ("成绩.csv 性别为女的语文平均分比男的低多少", "女", "男", "语文", "mean"),
    ("成绩.csv 对照组的数学比实验组低多少", "对照组", "实验组", "数学", "mean"),
])
def test_two_values_of_a_column_compared(ws, text, a, b, col, agg):
    tr = run(ws, text)
    f = facts_of(tr, "value_gap")
    key = next(k for k in ("班级", "性别", "组别") if a in set(SCORES[k]))
    assert [o.tool for o in tr.run.steps] == ["profile_dataset", "value_gap"]  # no filter narrows the rows first
    per = SCORES.groupby(key)[col].agg(agg)
    assert (f["a"], f["b"], f["agg"]) == (a, b, agg)
    assert f["value_a"] == pytest.approx(per[a], abs=1e-3) and f["value_b"] == pytest.approx(per[b], abs=1e-3)
    assert f["diff"] == pytest.approx(per[a] - per[b], abs=1e-3)
    lang = "en" if "how" in text or "what" in text else "zh"
    for v in (per[a], per[b], abs(per[a] - per[b])):  # both figures and their difference are said, never one pooled figure
        assert num(round(v, 4), lang) in tr.run.answer
    pooled = SCORES[SCORES[key].isin([a, b])][col].agg(agg)
    assert num(round(pooled, 4), lang) not in tr.run.answer


def test_one_row_per_value_is_compared_as_written(ws):
    s = Session(ws)
    tr = s.turn("城市.csv 上海的人口比北京多多少")
    assert tr.decision.next == "execute", tr.decision.reply  # one row each: nothing to average, nothing to restate
    f = facts_of(tr, "value_gap")
    assert f["diff"] == pytest.approx(2487.1 - 2189.3) and f["rows_a"] == f["rows_b"] == 1


@pytest.mark.parametrize(("text", "a", "b", "col", "lang"), [("城市.csv 上海的人口是深圳的几倍", "上海", "深圳", "人口", "zh"),
                                                        ("城市.csv: how many times larger is the 面积 of 北京 than 深圳?", "北京", "深圳", "面积", "en")])
def test_how_many_times_one_value_is_the_other(ws, text, a, b, col, lang):
    tr = run(ws, text)
    by = CITIES.set_index("城市")[col]
    f = facts_of(tr, "value_gap")
    assert f["ratio"] == pytest.approx(by[a] / by[b], abs=1e-4) and f["diff"] == pytest.approx(by[a] - by[b])
    assert num(round(by[a] / by[b], 4), lang) in tr.run.answer


def test_several_rows_per_value_restates_which_figure(ws):
    d = Session(ws, dry_run=True).turn("成绩.csv 一班的数学比二班高多少").decision
    assert d.next == "restate_confirm" and "平均值" in d.reply


@pytest.mark.parametrize("text", ["成绩.csv 一班比二班高多少", "成绩.csv: how much higher is 一班 than 二班?"])
def test_no_measure_named_is_asked(ws, text):
    d = Session(ws, dry_run=True).turn(text).decision
    assert d.next == "ask_slots" and "gap_column" in d.missing


# ---------------------------------------------------------------- several statistics of one column


@pytest.mark.parametrize("text", ["成绩.csv 计算缺勤的平均值和众数，以及众数出现的次数",
                                  "成绩.csv 缺勤的众数是多少，出现了几次？平均值呢",
                                  "In 成绩.csv, what is the mean and the mode of 缺勤, and how many times does the mode occur?"])
def test_mean_mode_and_how_often_the_mode_occurs(ws, text):
    tr = run(ws, text)
    vals = facts_of(tr, "column_stats")["values"]["缺勤"]
    counts = SCORES["缺勤"].value_counts()
    assert vals["mode"] == str(counts.index[0]) and vals["mode_count"] == int(counts.iloc[0])
    assert vals["mean"] == pytest.approx(SCORES["缺勤"].mean(), abs=1e-4)
    assert str(int(counts.iloc[0])) in tr.run.answer


def test_mode_of_text_column_with_its_count(ws):
    tr = run(ws, "作品.csv 贡献的众数是什么，出现了多少次")
    counts = SONGS["贡献"].value_counts()
    vals = facts_of(tr, "column_stats")["values"]["贡献"]
    assert vals["mode"] == counts.index[0] and vals["mode_count"] == int(counts.iloc[0])


@pytest.mark.parametrize("text", ["成绩.csv 计算数学的平均值、方差和标准差", "成绩.csv: the mean, variance and standard deviation of 数学"])
def test_mean_variance_and_std(ws, text):
    vals = facts_of(run(ws, text), "column_stats")["values"]["数学"]
    x = SCORES["数学"]
    assert (vals["mean"], vals["var"], vals["std"]) == pytest.approx((x.mean(), x.var(), x.std()), abs=1e-3)


# ---------------------------------------------------------------- two groups and many groups compared by a test


@pytest.mark.parametrize("text", ["成绩.csv 按组别列将数据分为两组，分别计算数学的平均值，并做T检验",
                                  "成绩.csv 请先基于'组别'列将数据分成两组，然后分别计算这两组中'数学'的平均值，并进行t检验，判断两组是否存在显著性差异",
                                  "成绩.csv: split the rows into two groups by 组别, compute the mean 数学 of each group and run a t-test"])
def test_two_groups_welch_t_test(ws, text):
    d = Session(ws, dry_run=True).turn(text).decision
    assert d.next == "execute", d.reply  # every word of the request is read
    f = facts_of(run(ws, text), "group_difference_test")
    g = {k: v["数学"] for k, v in SCORES.groupby("组别")}
    res = stats.ttest_ind(g[next(iter(f["means"]))], g[list(f["means"])[1]], equal_var=False)
    assert f["statistic"] == pytest.approx(res.statistic, abs=1e-3) and f["p"] == pytest.approx(res.pvalue, abs=1e-4)
    assert f["means"] == {k: pytest.approx(v.mean(), abs=1e-3) for k, v in g.items()}


@pytest.mark.parametrize("text", ["成绩.csv 不同班级的数学是否存在显著差异？我们希望通过单因素方差分析来验证",
                                  "成绩.csv: run a one-way ANOVA of 数学 across 班级"])
def test_one_way_anova_across_groups(ws, text):
    f = facts_of(run(ws, text), "group_difference_test")
    res = stats.f_oneway(*[v["数学"] for _, v in SCORES.groupby("班级")])
    assert f["statistic"] == pytest.approx(res.statistic, abs=1e-3) and f["p"] == pytest.approx(res.pvalue, abs=1e-4)


# ---------------------------------------------------------------- counts and shares within a subset


@pytest.mark.parametrize(("text", "col", "value", "key", "df"), [
    ("作品.csv 张三在各项贡献中的次数以及所占比例", "歌手", "张三", "贡献", SONGS),
    ("作品.csv 李四在各贡献中的次数和占比", "歌手", "李四", "贡献", SONGS),
    ("成绩.csv 性别为女的学生中，各班级的人数和占比", "性别", "女", "班级", SCORES),
])
def test_count_and_share_within_a_subset(ws, text, col, value, key, df):
    tr = run(ws, text)
    table = tr.run.table.set_index(key)
    want = df[df[col] == value][key].value_counts()
    assert table["行数"].to_dict() == want.to_dict()
    assert table["占比(%)"].to_dict() == pytest.approx((want / want.sum() * 100).round(2).to_dict())
    for k, n in want.items():  # each count is said beside its share
        assert f"{k} {pct(n / want.sum())}（{n} 行）" in tr.run.answer


# ---------------------------------------------------------------- times written as text

GAPS = RNG.uniform(1, 90, 11).round(3)
RACE = pd.DataFrame({"车手": [f"D{i}" for i in range(15)],
                     "用时": ["1:31:05.250"] + [f"+{g // 60:.0f}:{g % 60:06.3f}" if g >= 60 else f"+{g}" for g in GAPS] + ["+1 Lap", "+2 Laps", "Engine"]})
PACE = pd.DataFrame({"选手": [f"R{i}" for i in range(16)], "配速": [f"{m}:{s:02d}" for m, s in zip(RNG.integers(4, 7, 16), RNG.integers(0, 60, 16), strict=True)]})


def test_times_with_gaps_to_the_leader(tmp_path):
    RACE.to_csv(tmp_path / "比赛.csv", index=False)
    tr = run(Workspace.at(tmp_path), "比赛.csv 计算用时的平均值、方差以及标准差")
    secs = pd.Series([pd.to_timedelta("1:31:05.250").total_seconds()] * 12) + pd.Series([0.0, *GAPS])  # the leader, then leader + gap
    vals = facts_of(tr, "column_stats")["values"]["用时"]
    assert (vals["mean"], vals["var"], vals["std"]) == pytest.approx((secs.mean(), secs.var(), secs.std()), abs=1e-3)
    assert "3 个值不是时间" in tr.run.answer and "+1 Lap" in tr.run.answer and "Engine" in tr.run.answer


def test_times_without_gaps_in_english(tmp_path):
    PACE.to_csv(tmp_path / "pace.csv", index=False)
    tr = run(Workspace.at(tmp_path), "pace.csv: what is the mean and median of 配速?")
    secs = pd.to_timedelta("0:" + PACE["配速"]).dt.total_seconds()
    vals = facts_of(tr, "column_stats")["values"]["配速"]
    assert (vals["mean"], vals["median"]) == pytest.approx((secs.mean(), secs.median()), abs=1e-3)
    assert "from 16 values read as times" in tr.run.answer


def test_text_that_is_not_times_is_not_averaged(tmp_path):
    RACE.assign(用时=["fast", "slow", "ok"] * 5).to_csv(tmp_path / "比赛.csv", index=False)
    d = Session(Workspace.at(tmp_path), dry_run=True).turn("比赛.csv 计算用时的平均值和标准差").decision
    assert d.next != "execute"


# ---------------------------------------------------------------- where two columns' shares differ most

DEATHS = pd.DataFrame({"疾病类别": [f"病{i}" for i in range(40)], "男性": RNG.integers(0, 300, 40), "女性": RNG.integers(0, 300, 40)})
DEATHS.loc[[3, 9], ["男性", "女性"]] = 0


def _gaps(df: pd.DataFrame, key: str) -> pd.Series:
    sums = df.groupby(key, sort=False)[["男性", "女性"]].sum()
    t = sums["男性"] + sums["女性"]
    return ((sums["男性"] - sums["女性"]) / t * 100).abs()[t > 0]


@pytest.mark.parametrize(("text", "which"), [("死因.csv 哪种疾病类别中男性和女性的比例差异最大？", "max"),
                                             ("死因.csv 哪个疾病类别的男性与女性占比差距最小", "min"),
                                             ("死因.csv: which 疾病类别 has the largest difference between the shares of 男性 and 女性?", "max")])
def test_row_where_two_shares_differ_most(tmp_path, text, which):
    DEATHS.to_csv(tmp_path / "死因.csv", index=False)
    tr = run(Workspace.at(tmp_path), text)
    f = facts_of(tr, "share_gap")
    g = _gaps(DEATHS, "疾病类别")
    best = g.max() if which == "max" else g.min()
    assert [r["label"] for r in f["extreme"]] == list(g[g.round(4) == round(best, 4)].index)[:5]
    assert f["no_share"] == 2 and f["extreme"][0]["gap"] == pytest.approx(best, abs=0.01)


def test_category_on_several_rows_is_added_up_first(tmp_path):
    two = DEATHS.assign(疾病类别=[f"病{i % 10}" for i in range(40)])
    two.to_csv(tmp_path / "死因.csv", index=False)
    f = facts_of(run(Workspace.at(tmp_path), "死因.csv 哪种疾病类别中男性和女性的比例差异最大？"), "share_gap")
    g = _gaps(two, "疾病类别")
    assert f["summed"] and f["extreme"][0]["label"] == g.idxmax()


@pytest.mark.parametrize(("text", "want"), [("1:28:37.554", (False, 5317.554)), ("+5.462", (True, 5.462)), ("+1:03.569", (True, 63.569)),
                                            ("12.3 secs", (False, 12.3)), ("4:35", (False, 275.0)), ("4:2:0", None), ("+1 Lap", None), ("Gearbox", None)])
def test_time_cells(text, want):
    from tools.durations import parse_time

    got = parse_time(text)
    assert (got[:2] if got else None) == (pytest.approx(want) if want else None)


@pytest.mark.parametrize("text", ["成绩.csv 小明的数学比小红高多少", "成绩.csv 数学的极差是多少"])
def test_comparisons_that_name_no_two_values_never_run_a_gap(ws, text):
    d = Session(ws, dry_run=True).turn(text).decision
    assert "value_gap" not in d.request.kinds() or d.next == "ask_slots"


# ---------------------------------------------------------------- named columns as shares of their sum

EXAM = pd.DataFrame({"成绩段": ["16-18", "19-21", "22-24", "25-27", "合计"], "男": [175, 520, 610, 330, 0], "女": [260, 740, 655, 280, 0]})
EXAM.loc[4, ["男", "女"]] = EXAM[["男", "女"]].iloc[:4].sum()


@pytest.mark.parametrize(("text", "rows"), [("考试.csv 成绩段为19-21的候选人中，男与女的比例各是多少？", ["19-21"]),
                                            ("考试.csv 男和女的比例分别是多少", ["16-18", "19-21", "22-24", "25-27"]),
                                            ("考试.csv: what are the shares of 男 and 女?", ["16-18", "19-21", "22-24", "25-27"])])
def test_named_columns_as_shares_of_their_sum(tmp_path, text, rows):
    EXAM.to_csv(tmp_path / "考试.csv", index=False)
    tr = run(Workspace.at(tmp_path), text)
    f = facts_of(tr, "column_shares")
    kept = EXAM[EXAM["成绩段"].isin(rows)]  # the table's own total row is never counted again
    m, w = kept["男"].sum(), kept["女"].sum()
    assert [s["pct"] for s in f["shares"]] == pytest.approx([m / (m + w) * 100, w / (m + w) * 100], abs=0.01)
    assert f["ratio"] == pytest.approx(m / w, abs=1e-4)


def test_shares_per_group_are_not_read_as_column_shares(ws):
    d = Session(ws, dry_run=True).turn("成绩.csv 各班级数学和语文的占比").decision
    assert "column_shares" not in d.request.kinds()
