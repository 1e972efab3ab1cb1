import pytest

from modes.text import language, normalize, parse_number


@pytest.mark.parametrize(
    "raw,value",
    [("三万", 30000), ("3万", 30000), ("1.5万", 15000), ("两千", 2000), ("10k", 10000), ("1,234", 1234),
     ("4.5", 4.5), ("30%", 0.3), ("十二", 12), ("三万五千", 35000), ("一百二十", 120), ("３００００", None)],
)
def test_numbers(raw, value):
    if value is None:  # full-width digits are numbers after normalisation
        assert parse_number(normalize(raw)) == 30000
    else:
        assert parse_number(raw) == pytest.approx(value)


@pytest.mark.parametrize(
    "text,lang",
    [("帮我 filter 一下 employees.csv 里 city = Shenzhen", "zh"), ("Sort the POI file by 评分, highest first", "en"),
     ("hi", "en"), ("你好", "zh"), ("合并上海_poi和北京_poi", "zh"), ("Any outliers in 人均消费 in 上海_poi.xlsx?", "en")],
)
def test_language(text, lang):
    assert language(text) == lang


def test_normalize_full_width():
    assert normalize("评分＞４，人均消费＜２００") == "评分>4,人均消费<200"
