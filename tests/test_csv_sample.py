"""A CSV's catalog sample read without pandas: the same facts as the pandas reading, or no answer (pandas reads it)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.catalog import SAMPLE_ROWS, file_info, plain_sheet_info, sheet_info
from tools.io import NA_STRINGS, csv_sample, read_table

ROOT = Path(__file__).resolve().parent.parent


def _by_pandas(p: Path):
    return sheet_info(read_table(p, nrows=SAMPLE_ROWS, sample=True).df, None)


def _write(p: Path, header: list[str], rows: list[list[str]], sep: str = ",", encoding: str = "utf-8", eol: str = "\n") -> Path:
    def cell(v: str) -> str:
        return '"' + v.replace('"', '""') + '"' if any(ch in v for ch in (sep, '"', "\n", "\r")) else v

    p.write_bytes((eol.join(sep.join(cell(v) for v in r) for r in [header, *rows]) + eol).encode(encoding))
    return p


def _columns(rng: random.Random, n: int) -> tuple[list[str], list[list[str]]]:
    cities = ["上海", "北京", "广州", "深圳", " 杭州 ", "成都,西", 'say "hi"', "多\n行"]
    makers = {
        "编号": lambda i: str(i),
        "整数": lambda i: rng.choice(["+5", "-3", "0", "12", "-0", str(rng.randint(-10**12, 10**12))]),
        "小数": lambda i: rng.choice(["1.", ".5", "-.25", "3.14159", "100", "-7", "0.1"]),
        "有空": lambda i: rng.choice(["1", "2", *NA_STRINGS[:6], "", "NA"]),
        "城市": lambda i: rng.choice(cities + [""]),
        "混合": lambda i: rng.choice(["12", "abc", "3.5", "N/A", "x1"]),
        "工号": lambda i: rng.choice(["00123", "00456", "789", ""]) if i < 150 else str(rng.randint(1, 999)),
        "日期": lambda i: rng.choice(["2023-01-05", "2024-12-31", "1999-07-01", ""]),
        "全空": lambda i: rng.choice(["", "NULL"]),
    }
    names = list(makers)
    rng.shuffle(names)
    names = names[: rng.randint(2, len(names))]
    return names, [[makers[c](i) for c in names] for i in range(n)]


@pytest.mark.parametrize("seed", range(12))
def test_the_plain_sample_tells_what_the_pandas_sample_tells(tmp_path, seed):
    rng = random.Random(seed)
    header, rows = _columns(rng, rng.choice([5, 300, 2600]))
    sep = rng.choice([",", ";", "\t"])
    encoding = rng.choice(["utf-8", "utf-8-sig", "gb18030"])
    p = _write(tmp_path / "t.csv", header, rows, sep, encoding, rng.choice(["\n", "\r\n"]))
    plain = csv_sample(p, SAMPLE_ROWS)
    assert plain is not None, (header, sep, encoding)
    assert plain.rows == min(len(rows), SAMPLE_ROWS)
    assert plain_sheet_info(plain) == _by_pandas(p)
    assert file_info(p, "t.csv").sheets == (_by_pandas(p),)


def test_a_file_beyond_the_head_is_sampled_on_its_first_megabyte(tmp_path):
    rows = [[str(i), f"城市{i % 7}", f"{i * 1.5:.1f}", "2024-03-0" + str(1 + i % 9)] for i in range(60_000)]
    p = _write(tmp_path / "big.csv", ["id", "城市", "金额", "日期"], rows)
    assert p.stat().st_size > 1024**2
    plain = csv_sample(p, SAMPLE_ROWS)
    assert plain is not None and plain.rows == SAMPLE_ROWS
    got = plain_sheet_info(plain)
    assert got == _by_pandas(p) and got is not None and got.years == {"日期": (2024, 2024)} and got.ranges["金额"] == (0.0, 2998.5)


@pytest.mark.parametrize("header,rows", [
    (["a", "b"], [["True", "1"], ["false", "2"]]),           # booleans: pandas' own reading
    (["a", "b"], [["1e5", "1"], ["2", "2"]]),                # an exponent
    (["a", "b"], [[" 12", "1"], ["3 ", "2"]]),               # padded numbers
    (["a", "b"], [["inf", "1"], ["2", "2"]]),
    (["a", "b"], [["12345678901234567890", "1"], ["2", "2"]]),  # past int64
    (["a", "b"], [["1.2345678901234567", "1"], ["2", "2"]]),   # more digits than a double keeps
    (["a", "b"], [["1", "2", "3"], ["4", "5"]]),             # ragged
    (["a", "a"], [["1", "2"]]),                              # a repeated name
    (["报表", ""], [["日期", "金额"], ["2024-01-01", "3"]]),  # a title row above the header
    (["a", "b"], [["2024-02-30", "1"], ["2024-01-01", "2"]]),  # a day no calendar has
    (["a", "b"], [["2024/01/05", "1"], ["2024/02/01", "2"]]),  # dates written another way
])
def test_what_pandas_might_read_otherwise_is_left_to_pandas(tmp_path, header, rows):
    p = _write(tmp_path / "odd.csv", header, rows)
    plain = csv_sample(p, SAMPLE_ROWS)
    assert plain is None or plain_sheet_info(plain) is None
    assert file_info(p, "odd.csv").sheets == (_by_pandas(p),)


def test_na_strings_are_pandas_own():
    from pandas._libs.parsers import STR_NA_VALUES

    assert set(NA_STRINGS) == set(STR_NA_VALUES)


def test_sampling_a_plain_csv_does_not_import_pandas(tmp_path):
    p = _write(tmp_path / "t.csv", ["城市", "金额"], [["上海", "1.5"], ["北京", "2"]])
    code = ("import sys; from pathlib import Path; from engine.catalog import file_info\n"
            f"info = file_info(Path({str(p)!r}), 't.csv'); print(info.sheets[0].numeric == {{'金额'}}, 'pandas' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["True", "False"], out.stderr[-2000:]
