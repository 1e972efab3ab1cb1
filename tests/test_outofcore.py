"""The out-of-core engine: the same tools over a CSV kept on disk give what the pandas tools give."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tools import registry
from tools.outofcore import BigTable
from tools.workspace import Workspace


@pytest.fixture()
def big(tmp_path, monkeypatch):
    """A GB18030 CSV with blanks, ties, duplicates and formula-like text, read with the engine forced on."""
    monkeypatch.setenv("WENQING_ENGINE", "duckdb")
    rng = np.random.default_rng(7)
    n = 3000
    df = pd.DataFrame({
        "编号": [f"{i % 2500:05d}" for i in range(n)],
        "城市": rng.choice(["上海", "北京", "广州", "深圳"], n),
        "金额": rng.integers(1, 500, n),
        "评分": rng.choice([1.5, 2.0, 3.5, np.nan], n),
        "备注": rng.choice(["", "加急", "=cmd|' /C calc'!A0", "退货"], n),
    })
    df.loc[::97, "城市"] = None
    (tmp_path / "订单.csv").write_bytes(df.to_csv(index=False).encode("gb18030"))
    pd.DataFrame({"城市": ["上海", "北京", "成都"], "区域": ["华东", "华北", "西南"]}).to_csv(tmp_path / "城市.csv", index=False)
    return Workspace.at(tmp_path)


def pandas_frame(ws: Workspace) -> pd.DataFrame:
    return pd.read_csv(ws.root / "订单.csv", encoding="gb18030", dtype={"编号": str})


def test_profile_reads_through_a_transcoded_copy(big):
    res = registry.call("profile_dataset", {"ws": big, "path": "订单.csv"})
    assert isinstance(res.data, BigTable) and res.evidence["engine"] == "duckdb"
    df = pandas_frame(big)
    assert res.facts["rows"] == len(df) and res.facts["encoding"] == "gb18030"
    blanks = {c["name"]: c["blanks"] for c in res.facts["column_info"]}
    assert blanks == {c: int(df[c].isna().sum()) for c in df.columns}
    assert [c["type"] for c in res.facts["column_info"]] == ["文本", "文本", "整数", "小数", "文本"]
    cache = big.root / ".wenqing" / "cache"
    copies = list(cache.glob("*.utf8.csv"))
    assert len(copies) == 1 and pd.read_csv(copies[0])["金额"].sum() == df["金额"].sum()
    made = copies[0].stat().st_mtime_ns
    again = registry.call("profile_dataset", {"ws": big, "path": "订单.csv"})
    assert again.facts["column_info"] == res.facts["column_info"]
    assert list(cache.glob("*.utf8.csv")) == copies and copies[0].stat().st_mtime_ns == made  # transcoded once


def test_filter_group_sort_top_dedupe_match_pandas(big):
    t = registry.call("profile_dataset", {"ws": big, "path": "订单.csv"}).data
    df = pandas_frame(big)
    f = registry.call("filter_rows", {"table": t, "conditions": [{"column": "金额", "op": "gt", "value": 250},
                                                                 {"column": "城市", "op": "eq", "value": "上海"}]})
    want = df[(df["金额"] > 250) & (df["城市"] == "上海")]
    assert isinstance(f.data, BigTable) and f.facts["rows_out"] == len(want)
    assert f.data.to_pandas()["编号"].tolist() == want["编号"].tolist()

    g = registry.call("group_summarize", {"table": t, "keys": ["城市"], "measures": [{"column": "金额", "agg": "sum"},
                                                                                    {"column": "评分", "agg": "mean"}]})
    exp = df.groupby("城市", dropna=False, sort=True).agg(金额_合计=("金额", "sum"), 评分_平均=("评分", "mean"), 行数=("金额", "size")).reset_index()
    assert g.data["城市"].tolist()[:-1] == exp["城市"].tolist()[:-1] and pd.isna(g.data["城市"].iloc[-1])
    assert g.data["金额_合计"].tolist() == exp["金额_合计"].tolist() and g.data["行数"].tolist() == exp["行数"].tolist()
    assert np.allclose(g.data["评分_平均"], exp["评分_平均"])

    s = registry.call("sort_rows", {"table": t, "by": ["评分"], "ascending": False}).data.to_pandas()
    assert s["编号"].tolist() == df.sort_values("评分", ascending=False, kind="stable")["编号"].tolist()
    top = registry.call("top_n", {"table": t, "by": "金额", "n": 7}).data
    assert top["编号"].tolist() == df.sort_values("金额", ascending=False, kind="stable").head(7)["编号"].tolist()
    d = registry.call("deduplicate", {"table": t, "subset": ["编号"]})
    assert d.data.to_pandas()["编号"].tolist() == df.drop_duplicates(subset=["编号"])["编号"].tolist() and d.facts["removed"] == 500


def test_join_and_export_stream_to_disk(big):
    t = registry.call("profile_dataset", {"ws": big, "path": "订单.csv"}).data
    j = registry.call("join_tables", {"ws": big, "table": t, "other_path": "城市.csv", "on": "城市"})
    df = pandas_frame(big)
    exp = df.merge(pd.read_csv(big.root / "城市.csv"), on="城市", how="left")
    got = j.data.to_pandas()
    assert got["区域"].fillna("").tolist() == exp["区域"].fillna("").tolist()
    w = registry.call("write_csv", {"ws": big, "table": j.data, "stem": "关联"})
    raw = (big.root / w.facts["path"]).read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    back = pd.read_csv(big.root / w.facts["path"], encoding="utf-8-sig", dtype={"编号": str})
    assert len(back) == len(exp) and back["编号"].tolist() == exp["编号"].tolist()
    risky = int(df["备注"].fillna("").str.startswith("=").sum())
    assert w.facts["inert_cells"] == risky and (back["备注"] == "'=cmd|' /C calc'!A0").sum() == risky


def test_a_tool_without_sql_gets_the_table_in_memory(big):
    t = registry.call("profile_dataset", {"ws": big, "path": "订单.csv"}).data
    res = registry.call("add_column", {"table": t, "name": "双倍", "left": "金额", "op": "*", "right": 2})
    assert isinstance(res.data, pd.DataFrame) and (res.data["双倍"] == res.data["金额"] * 2).all()


def test_a_value_beyond_the_sample_widens_the_column(tmp_path, monkeypatch):
    monkeypatch.setenv("WENQING_ENGINE", "duckdb")
    lines = ["id,qty"] + [f"{i},{i % 9}" for i in range(120_000)] + ["x1,lots"]
    (tmp_path / "late.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = registry.call("profile_dataset", {"ws": Workspace.at(tmp_path), "path": "late.csv"})
    assert res.facts["rows"] == 120_001 and {c["type"] for c in res.facts["column_info"]} == {"文本"}


def test_column_statistics_match_the_pandas_tool(big, monkeypatch):
    t = registry.call("profile_dataset", {"ws": big, "path": "订单.csv"}).data
    ours = registry.call("describe_columns", {"table": t}).data
    monkeypatch.setenv("WENQING_ENGINE", "pandas")
    plain = registry.call("profile_dataset", {"ws": big, "path": "订单.csv"}).data
    assert isinstance(plain, pd.DataFrame)
    theirs = registry.call("describe_columns", {"table": plain}).data
    pd.testing.assert_frame_equal(ours, theirs, check_dtype=False)


def test_most_common_values_break_ties_by_first_appearance(tmp_path, monkeypatch):
    monkeypatch.setenv("WENQING_ENGINE", "duckdb")
    pd.DataFrame({"v": ["乙", "甲", "乙", "甲", "丙", "丁", "丁"], "ok": [True, False, True, True, False, True, True],
                  "n": range(7)}).to_csv(tmp_path / "t.csv", index=False)
    t = registry.call("profile_dataset", {"ws": Workspace.at(tmp_path), "path": "t.csv"}).data
    got = registry.call("describe_columns", {"table": t}).data.set_index("列")
    assert got.loc["v", "最常见"] == "乙(2)、甲(2)、丁(2)" and got.loc["v", "不同值"] == 4
    assert got.loc["ok", "最常见"] == "True(5)、False(2)"


def test_whitespace_only_text_is_blank_as_in_pandas(tmp_path, monkeypatch):
    cells = ["a", " ", "\t", "\u3000", "\u00a0b", " x ", "", "\u3000\u3000", "b"]
    pd.DataFrame({"k": range(len(cells)), "t": cells}).to_csv(tmp_path / "w.csv", index=False)
    ws = Workspace.at(tmp_path)
    blanks = {}
    for engine in ("duckdb", "pandas"):
        monkeypatch.setenv("WENQING_ENGINE", engine)
        res = registry.call("profile_dataset", {"ws": ws, "path": "w.csv"})
        blanks[engine] = {c["name"]: c["blanks"] for c in res.facts["column_info"]}
        kept = registry.call("filter_rows", {"table": res.data, "conditions": [{"column": "t", "op": "not_empty"}]}).data
        blanks[engine]["kept"] = list(pd.DataFrame(kept.to_pandas() if isinstance(kept, BigTable) else kept)["k"])
    assert blanks["duckdb"] == blanks["pandas"] and blanks["pandas"]["t"] == 5


def test_a_header_only_csv(tmp_path, monkeypatch):
    monkeypatch.setenv("WENQING_ENGINE", "duckdb")
    (tmp_path / "h.csv").write_text("a,b\n", encoding="utf-8")
    res = registry.call("profile_dataset", {"ws": Workspace.at(tmp_path), "path": "h.csv"})
    assert res.facts["rows"] == 0 and [c["blanks"] for c in res.facts["column_info"]] == [0, 0]


@pytest.mark.parametrize("stat,op,of", [("mean", "lt", "评分"), ("median", "ge", "评分"), ("min", "eq", "评分"), ("max", "lt", "金额")])
def test_a_column_against_a_figure_of_a_column_keeps_the_rows_pandas_keeps(big, stat, op, of):
    res = registry.call("profile_dataset", {"ws": big, "path": "订单.csv"})
    cond = {"column": "评分", "op": op, "value": {"column": of, "stat": stat}}
    kept = registry.call("filter_rows", {"table": res.data, "conditions": [cond]}).data
    df = pandas_frame(big)
    figure = getattr(df[of], stat)()
    want = df[{"lt": df["评分"] < figure, "ge": df["评分"] >= figure, "eq": df["评分"] == figure}[op]]
    got = kept.to_pandas() if isinstance(kept, BigTable) else kept
    assert len(want) > 0 and list(got["编号"]) == list(want["编号"])


def _orders(n: int, late: dict[str, str] | None = None, ragged: bool = False) -> str:
    """A CSV whose first rows type 编号 and 金额 as integers; `late` puts other text in those columns near the end,
    `ragged` adds a row with one field too many there."""
    rng = np.random.default_rng(3)
    cities = rng.choice(["上海", "北京", "广州"], n)
    lines = ["编号,城市,金额,备注"] + [f"{i},{c},{int(a)},{'' if i % 7 else '加急'}" for i, c, a in zip(range(n), cities, rng.integers(1, 900, n), strict=True)]
    if late:
        lines[-3] = f"{late.get('编号', n - 3)},上海,{late.get('金额', 5)},"
    if ragged:
        lines[-2] = lines[-2] + ",多出来"
    return "\n".join(lines) + "\n"


def _group_export(tmp_path, monkeypatch, text: str):
    from engine.session import Session

    monkeypatch.setenv("WENQING_ENGINE", "duckdb")
    (tmp_path / "订单.csv").write_text(text, encoding="utf-8")
    passes: list[str] = []
    run = BigTable.run

    def counted(self, sql, said=True):
        if "LIMIT" not in sql:
            passes.append(sql)
        return run(self, sql, said)

    monkeypatch.setattr(BigTable, "run", counted)
    s = Session(Workspace.at(tmp_path))
    tr = s.turn("订单.csv 按城市汇总金额，导出csv")
    if tr.run is None:
        tr = s.turn("继续")
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    got = pd.read_csv(tmp_path / tr.run.files[0]["path"], encoding="utf-8-sig")
    events = [e["state_transition"] for e in s.audit.run(s.last_run_id)["events"]]
    return got, passes, events, tr


def _pandas_sums(tmp_path, **kw) -> pd.DataFrame:
    df = pd.read_csv(tmp_path / "订单.csv", **kw)
    df["金额"] = pd.to_numeric(df["金额"], errors="coerce")
    return df.groupby("城市", sort=True)["金额"].sum().reset_index()


def test_a_group_of_a_big_file_reads_it_once(tmp_path, monkeypatch):
    """The profile before a group takes no pass of its own: the group's pass counts the rows; the answer is pandas'."""
    got, passes, events, tr = _group_export(tmp_path, monkeypatch, _orders(5000, late={"编号": "X-1"}))
    want = _pandas_sums(tmp_path)
    assert got["城市"].tolist() == want["城市"].tolist() and got["金额_合计"].tolist() == want["金额"].tolist()
    assert len(passes) == 1 and "GROUP BY" in passes[0]  # the id column that stops being a number is not read at all
    assert "running -> retried" not in events
    assert tr.run.profile["rows"] == 5000 and tr.run.steps[1].facts["rows_in"] == 5000


@pytest.mark.parametrize("late", [{"金额": "约300"}, {"金额": "12.5"}])
def test_a_value_past_the_first_rows_that_breaks_a_read_column_runs_the_request_again(tmp_path, monkeypatch, late):
    got, passes, events, _ = _group_export(tmp_path, monkeypatch, _orders(5000, late=late))
    want = _pandas_sums(tmp_path)
    assert "running -> retried" in events
    assert got["城市"].tolist() == want["城市"].tolist()
    assert np.allclose(got["金额_合计"].astype(float), want["金额"].astype(float))


def test_a_ragged_row_past_the_first_rows_gets_the_pandas_reading(tmp_path, monkeypatch):
    got, _, events, tr = _group_export(tmp_path, monkeypatch, _orders(5000, ragged=True))
    want = _pandas_sums(tmp_path, on_bad_lines="skip")
    assert "running -> retried" in events
    assert got["金额_合计"].tolist() == want["金额"].tolist() and tr.run.steps[1].facts["rows_in"] == 4999


@pytest.mark.parametrize("cells", [
    {"k": range(9), "t": ["a", " ", "\t", "\u3000", "\u00a0b", " x ", "", "\u3000\u3000", "b"], "ok": [True, False, None] * 3},
    {"t": ["甲", "乙", "", " "], "n": [1, None, 3, 4]},
    {"t": [], "n": []},
])
def test_column_summary_counts_blanks_as_the_pandas_tool(tmp_path, monkeypatch, cells):
    """Text blanks come from the most-common pass (missing and whitespace-only groups), numbers' from theirs."""
    pd.DataFrame(cells).to_csv(tmp_path / "w.csv", index=False)
    ws = Workspace.at(tmp_path)
    got = {}
    for engine in ("duckdb", "pandas"):
        monkeypatch.setenv("WENQING_ENGINE", engine)
        t = registry.call("profile_dataset", {"ws": ws, "path": "w.csv"}).data
        got[engine] = registry.call("describe_columns", {"table": t}).data
    assert got["duckdb"][["列", "非空", "空值"]].to_dict("records") == got["pandas"][["列", "非空", "空值"]].to_dict("records")


def test_integers_beyond_two_to_the_53_stay_exact(tmp_path, monkeypatch):
    """A decimal cannot hold them: the column is read again as text and cast, as pandas keeps int64."""
    monkeypatch.setenv("WENQING_ENGINE", "duckdb")
    big = [9007199254740993 + i for i in range(6)] + [123456789012345678]
    pd.DataFrame({"身份": pd.array(big, dtype="Int64"), "城市": list("甲乙甲乙甲乙甲")}).to_csv(tmp_path / "ids.csv", index=False)
    t = registry.call("profile_dataset", {"ws": Workspace.at(tmp_path), "path": "ids.csv"}).data
    got = registry.call("group_summarize", {"table": t, "keys": ["城市"], "measures": [{"column": "身份", "agg": "sum"}]}).data
    want = pd.read_csv(tmp_path / "ids.csv").groupby("城市")["身份"].sum()
    assert t.types["身份"] == "BIGINT" and [int(v) for v in got["身份_合计"]] == [int(v) for v in want]
