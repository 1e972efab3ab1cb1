"""The condition grammar, on a schema of its own (not the example files)."""

import pytest

from modes.catalog import SheetInfo
from modes.conditions import parse_conditions
from modes.resolve import find_columns
from modes.text import normalize

STAFF = SheetInfo(
    "Sheet1",
    ("姓名", "部门", "城市", "月薪", "入职日期", "邮箱", "库存数量", "安全库存", "country"),
    values={"部门": frozenset({"销售部", "财务部", "人事部"}), "城市": frozenset({"上海", "北京", "广州"}),
            "country": frozenset({"Japan", "Germany", "France"})},
    numeric=frozenset({"月薪", "库存数量", "安全库存"}),
    dates=frozenset({"入职日期"}),
    years={"入职日期": (2018, 2024)},
)


def conds(text):
    t = normalize(text)
    cp = parse_conditions(t, STAFF, find_columns(t, STAFF))
    return [(c.column, c.op, c.value if c.op != "between" else (c.value, c.value2)) for c in cp.conds], cp.logic


@pytest.mark.parametrize(
    "text,expected",
    [
        ("月薪大于三万", [("月薪", "gt", 30000)]),
        ("月薪超过1.5万", [("月薪", "gt", 15000)]),
        ("月薪不低于10k", [("月薪", "ge", 10000)]),
        ("salary at least 20000", [("月薪", "ge", 20000)]),
        ("月薪≤２万", [("月薪", "le", 20000)]),
        ("月薪 不到 8000", [("月薪", "lt", 8000)]),
        ("月薪在1万到2万之间", [("月薪", "between", (10000, 20000))]),
        ("月薪两万以上", [("月薪", "ge", 20000)]),
        ("邮箱为空", [("邮箱", "empty", None)]),
        ("email is not empty", [("邮箱", "not_empty", None)]),
        ("邮箱没填的", [("邮箱", "empty", None)]),
        ("姓名包含王", [("姓名", "contains", "王")]),
        ("姓名以张开头", [("姓名", "startswith", "张")]),
        ("库存数量低于安全库存", [("库存数量", "lt", {"column": "安全库存"})]),
        ("2020年以后入职", [("入职日期", "ge", {"date": "2020-01-01"})]),
        ("入职日期在2021年3月以前", [("入职日期", "lt", {"date": "2021-03-01"})]),
        ("部门不是财务部", [("部门", "ne", "财务部")]),
        ("country is Japan", [("country", "eq", "Japan")]),
    ],
)
def test_single_conditions(text, expected):
    got, _ = conds(text)
    assert got == expected


def test_value_list_and_values_alone():
    got, _ = conds("上海和北京的员工")
    assert got == [("城市", "in", ["上海", "北京"])] or got == [("城市", "in", ["北京", "上海"])]
    got, _ = conds("销售部的人")
    assert got == [("部门", "eq", "销售部")]
    got, _ = conds("country is Japan or Germany")
    assert got == [("country", "in", ["Japan", "Germany"])]


def test_and_or():
    got, logic = conds("城市 = 上海 且 月薪>=20000")
    assert got == [("城市", "eq", "上海"), ("月薪", "ge", 20000)] and logic == "and"
    got, logic = conds("月薪大于3万或者部门是人事部")
    assert ("月薪", "gt", 30000) in got and ("部门", "eq", "人事部") in got and logic == "or"


def test_quarter_without_a_year_over_several_years_is_asked_about():
    t = normalize("Q3 入职的")
    cp = parse_conditions(t, STAFF, find_columns(t, STAFF))
    assert [(c.column, c.how, c.closest) for c in cp.conds] == [("入职日期", "month_no_year", ("2018", "2024"))]
    got, _ = conds("2022年下半年入职")
    assert got == [("入职日期", "between", ({"date": "2022-07-01"}, {"date": "2022-12-31"}))]


def test_unknown_column_is_reported_not_swapped():
    t = normalize("年龄大于30")
    cp = parse_conditions(t, STAFF, find_columns(t, STAFF))
    assert len(cp.conds) == 1 and cp.conds[0].column is None and cp.conds[0].raw == "年龄"


def test_question_words_are_not_values():
    got, _ = conds("月薪是什么类型")
    assert got == []


def test_percentages_follow_how_the_column_stores_them():
    sheet = SheetInfo("S", ("增长率", "占比"), numeric=frozenset({"增长率", "占比"}), ranges={"增长率": (-12.0, 35.0), "占比": (0.01, 0.4)})
    for text, want in (("增长率大于10%", ("增长率", "gt", 10)), ("占比大于10%", ("占比", "gt", 0.1)), ("增长率 20%以上", ("增长率", "ge", 20))):
        t = normalize(text)
        c = parse_conditions(t, sheet, find_columns(t, sheet)).conds[0]
        assert (c.column, c.op, c.value) == want


def test_values_absent_from_the_data_are_asked_about_not_dropped():
    sheet = SheetInfo("S", ("区", "评分"), values={"区": frozenset({"朝阳区", "海淀区", "东城区"})}, numeric=frozenset({"评分"}))
    for text, absent in (("海淀区和丰台区的店", "丰台区"), ("顺义区评分大于4的", "顺义区")):
        t = normalize(text)
        conds = parse_conditions(t, sheet, find_columns(t, sheet)).conds
        gone = [c for c in conds if c.how == "absent_value"]
        assert [c.value for c in gone] == [absent] and gone[0].column == "区" and "朝阳区" in gone[0].closest
    t = normalize("按区汇总评分")
    assert not parse_conditions(t, sheet, find_columns(t, sheet)).conds


@pytest.mark.parametrize("text,expected", [
    ("城市为上海且月薪大于20000", [("城市", "eq", "上海"), ("月薪", "gt", 20000)]),
    ("部门是财务部并且城市为北京", [("部门", "eq", "财务部"), ("城市", "eq", "北京")]),
    ("城市是广州但月薪低于8000", [("城市", "eq", "广州"), ("月薪", "lt", 8000)]),
    ("部门为人事部同时库存数量小于安全库存", [("部门", "eq", "人事部"), ("库存数量", "lt", {"column": "安全库存"})]),
])
def test_a_value_ends_at_a_joining_word(text, expected):
    assert conds(text)[0] == expected
