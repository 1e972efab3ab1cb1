"""Completion: the name at the cursor whatever precedes it, by prefix, pinyin initials, substring or fuzzy."""

import pytest
from prompt_toolkit.document import Document

from engine.catalog import CatalogCache
from repl.complete import WenqingCompleter, initials, match_rank, tails


def completer(ws, current=None):
    cache = CatalogCache()
    return WenqingCompleter(ws, catalog=lambda: cache.build(ws), current_file=lambda: current)


def texts(c, before):
    return [(x.text, x.start_position) for x in c.get_completions(Document(before), None)]


@pytest.mark.parametrize("before, expected", [
    ("看看北", ("北京_poi.xlsx", -1)),           # no space before the name
    ("预览上海", ("上海_poi.xlsx", -2)),
    ("看看bj", ("北京_poi.xlsx", -2)),            # pinyin initials
    ("打开kcmx", ("库存明细.csv", -4)),
    ("预览sample", ("sample_data.xlsx", -6)),
    ("预览 sdx", ("sample_data.xlsx", -3)),       # fuzzy: the letters in order
    ("看看订", ("订单", -1)),                     # a sheet
])
def test_files_and_sheets_complete_without_a_space(ws, before, expected):
    assert expected in texts(completer(ws), before)


def test_columns_and_values_of_the_current_file(ws):
    c = completer(ws, current="北京_poi.xlsx")
    got = {x.text: (x.start_position, x.display_meta_text) for x in c.get_completions(Document("按评"), None)}
    assert got["评分"] == (-1, "数值 · 3.1–5")
    got = {x.text: (x.start_position, x.display_meta_text) for x in c.get_completions(Document("筛选区是朝"), None)}
    assert got == {"朝阳区": (-1, "区 的值")}
    # the column's type and a sample value are in the menu's meta column
    metas = {x.text: x.display_meta_text for x in c.get_completions(Document("看看人"), None)}
    assert metas["人均消费"] == "数值 · 39–383"
    metas = {x.text: x.display_meta_text for x in completer(ws).get_completions(Document("sample_data 按城"), None)}
    assert metas["城市"] == "文本 · 上海"
    metas = {x.text: x.display_meta_text for x in completer(ws).get_completions(Document("sample_data 按日"), None)}
    assert metas["日期"] == "日期 · 2024"
    assert {x.text for x in c.get_completions(Document("筛选dz"), None)} >= {"地址"}


def test_the_file_named_on_the_line_gives_the_columns(ws):
    c = completer(ws)  # no current file
    assert ("人均消费", -1) in texts(c, "北京_poi.xlsx里人")
    assert ("金额", -1) in texts(c, "sample_data 按城市汇总金")
    assert ("杭州", -1) in texts(c, "sample_data 城市是杭")
    assert not any(t == "人均消费" for t, _ in texts(c, "看看人"))  # no file in focus: no columns


def test_slash_commands_and_nothing_for_an_exact_name(ws):
    c = completer(ws)
    assert [x.text for x in c.get_completions(Document("/op"), None)] == ["/open"]
    assert ("北京_poi.xlsx", -12) not in texts(c, "北京_poi.xlsx")


def test_matching_rules():
    assert tails("筛选 上海，地址") == ["地址", "址"]
    assert initials("北京_poi.xlsx") == "bj_poi.xlsx"
    assert match_rank("北", "北京") == 0 and match_rank("bj", "北京_poi") == 1
    assert match_rank("poi", "北京_poi") == 2 and match_rank("sdx", "sample_data.xlsx") == 3
    assert match_rank("北", "南京") is None and match_rank("x", "ax") is None


@pytest.mark.parametrize("value, shown", [(19609.86, "19,609.86"), (384.0, "384"), (3.1, "3.1"), (1234567.0, "1,234,567")])
def test_number_ranges_in_the_menu_read_as_written(value, shown):
    from repl.complete import _num

    assert _num(value) == shown


def test_a_latin_word_is_replaced_whole_never_entered_in_the_middle(tmp_path):
    """Tab on "md" or "cs" must not offer "discount" or "Sheet1" for their last letter (→ mdiscount, cSheet1)."""
    import pandas as pd

    from tools.workspace import Workspace

    with pd.ExcelWriter(tmp_path / "orders.xlsx") as w:
        pd.DataFrame({"discount": [0.1, 0.2], "city": ["a", "b"]}).to_excel(w, sheet_name="Sheet1", index=False)
    c = completer(Workspace(tmp_path), current="orders.xlsx")
    for before in ("md", "show md", "cs", "orders cs", "看看md"):
        for text, start in texts(c, before):
            word = before.split()[-1].removeprefix("看看")
            assert -start == len(word), (before, text, start)  # the whole Latin word is what is replaced
            assert not (before + text[-start:]).endswith(("mdiscount", "cSheet1"))
    assert ("discount", -1) in texts(c, "看看d")  # a Latin word after Chinese still completes
    assert ("discount", -4) in texts(c, "disc")
    assert tails("看看md") == ["看看md", "看md", "md"]
