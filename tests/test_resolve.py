"""Resolving files, sheets and columns by name, description, typo and meaning."""

import pytest

from modes.catalog import Catalog, FileInfo, SheetInfo
from modes.resolve import find_files, find_sheet, resolve_column
from modes.text import normalize

CAT = Catalog((
    FileInfo("销售明细.xlsx", (SheetInfo("明细", ("日期", "城市", "销售额")), SheetInfo("汇总", ("城市", "合计")))),
    FileInfo("库存表.csv", (SheetInfo(None, ("sku", "仓库", "库存数量")),)),
    FileInfo("customers.xlsx", (SheetInfo("Sheet1", ("name", "email", "country")),)),
    FileInfo("杭州_门店.xlsx", (SheetInfo("Sheet1", ("店名", "评分")),)),
    FileInfo("苏州_门店.xlsx", (SheetInfo("Sheet1", ("店名", "评分")),)),
    FileInfo("readme.txt"),
))


@pytest.mark.parametrize(
    "text,how,paths",
    [
        ("预览 销售明细.xlsx", "named", ["销售明细.xlsx"]),
        ("预览 销售明细", "named", ["销售明细.xlsx"]),
        ("看看 CUSTOMERS.XLSX", "named", ["customers.xlsx"]),
        ("看看销售明系", "fuzzy", ["销售明细.xlsx"]),
        ("打开 custmers.xlsx", "fuzzy", ["customers.xlsx"]),
        ("库存那个表按仓库汇总", "description", ["库存表.csv"]),
        ("the customer list, how many rows", ("description", "fuzzy"), ["customers.xlsx"]),
        ("杭州的门店表", "description", ["杭州_门店.xlsx"]),
        ("对比杭州和苏州的门店评分", "description", ["杭州_门店.xlsx", "苏州_门店.xlsx"]),
    ],
)
def test_files_resolve(text, how, paths):
    ref = find_files(normalize(text), CAT)
    assert ref.how in (how if isinstance(how, tuple) else (how,)) and ref.paths == paths


def test_several_candidates_and_missing_files():
    ref = find_files(normalize("筛选门店数据"), CAT)
    assert ref.how == "ambiguous" and ref.candidates == ["杭州_门店.xlsx", "苏州_门店.xlsx"]
    ref = find_files(normalize("打开 南京_门店.xlsx"), CAT)
    assert ref.how == "missing" and ref.missing_name == "南京_门店.xlsx"
    assert set(ref.candidates) >= {"杭州_门店.xlsx", "苏州_门店.xlsx"}
    ref = find_files(normalize("销售明细.csv 按城市汇总"), CAT)
    assert ref.how == "missing" and ref.missing_name == "销售明细.csv"


def test_current_file_and_type():
    assert find_files(normalize("这个文件有多少行"), CAT, current="库存表.csv").paths == ["库存表.csv"]
    assert find_files(normalize("这个文件有多少行"), CAT).how == "current_missing"
    ref = find_files(normalize("把csv转成xlsx"), CAT)
    assert ref.how == "type" and ref.paths == ["库存表.csv"] and ref.target_format == "xlsx"


def test_sheets():
    f = CAT.get("销售明细.xlsx")
    assert find_sheet("的 汇总 sheet", f)[0] == "汇总"
    assert find_sheet("的 Sheet3", f)[:2] == (None, "Sheet3")


@pytest.mark.parametrize(
    "raw,col,how",
    [("销售额", "销售额", "exact"), ("sales amount", "销售额", "synonym"), ("城市列", "城市", "exact"),
     ("城事", "城市", "typo"), ("日期的", None, "unknown")],
)
def test_columns(raw, col, how):
    sheet = CAT.get("销售明细.xlsx").sheets[0]
    got, got_how, closest = resolve_column(raw, sheet)
    if col is None:
        assert got is None or got == "日期"
    else:
        assert (got, got_how) == (col, how)


def test_unknown_column_lists_closest():
    sheet = CAT.get("customers.xlsx").sheets[0]
    col, how, closest = resolve_column("emial", sheet)
    assert col == "email"
    col, how, closest = resolve_column("salary", sheet)
    assert col is None and how == "unknown" and closest


def test_a_file_like_name_that_matches_nothing_is_a_missing_file():
    ref = find_files(normalize("看看 sales_2023 的数据"), CAT)
    assert ref.how == "missing" and ref.missing_name == "sales_2023"
    assert find_files(normalize("按 sku 排序"), CAT).how == "none"  # a column, not a file


OFFICE = Catalog((
    FileInfo("统计年鉴摘录.xlsx", (SheetInfo("Sheet1", ("指标", "2021年", "2022年")),)),
    FileInfo("汇总报表.xlsx", (SheetInfo("Sheet1", ("地区", "金额")),)),
    FileInfo("人事档案.xlsx", (SheetInfo("员工", ("部门", "月薪")),)),
))


@pytest.mark.parametrize("text", ["按部门统计月薪的中位数", "统计一下各部门的人数", "汇总的月薪是多少", "把部门的月薪汇总一下"])
def test_a_word_for_what_to_do_never_describes_a_file(text):
    assert find_files(normalize(text), OFFICE).how == "none"


@pytest.mark.parametrize("text,path", [("统计年鉴里2022年最高的指标", "统计年鉴摘录.xlsx"), ("年鉴的数据", "统计年鉴摘录.xlsx"),
                                       ("汇总报表里的金额", "汇总报表.xlsx")])
def test_the_other_words_of_such_a_name_still_do(text, path):
    assert find_files(normalize(text), OFFICE).paths == [path]
