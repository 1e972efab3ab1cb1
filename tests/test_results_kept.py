"""Results are kept compact and typed: wenqing's own copies are Parquet (.wenqing/results/, .wenqing/named/) read back
with their types, and outputs/ holds only what the user asked to save and the final table of a request — a request
made in steps, one turn each, leaves one file there, its earlier tables kept as results."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from engine.session import Session
from tools.workspace import Workspace


@pytest.fixture
def sales(tmp_path) -> tuple[Workspace, pd.DataFrame]:
    rng = np.random.default_rng(22)
    n = 150
    df = pd.DataFrame({"订单号": range(1, n + 1), "客户": rng.choice(["甲", "乙", "丙", "丁"], n), "城市": rng.choice(["北京", "上海"], n),
                       "数量": rng.integers(1, 20, n), "单价": rng.choice([19.5, 49.9, 99.0], n),
                       "日期": pd.date_range("2024-01-01", periods=n, freq="D").strftime("%Y-%m-%d")})
    df.to_csv(tmp_path / "销售.csv", index=False)
    return Workspace.at(tmp_path), df


def _run(s: Session, text: str):
    tr = s.turn(text)
    tr = tr if tr.run is not None else s.turn("继续")
    assert tr.run is not None and tr.run.status == "answered", tr.decision.reply
    return tr


def _outputs(ws: Workspace) -> list[str]:
    d = ws.root / "outputs"
    return sorted(p.name for p in d.iterdir()) if d.is_dir() else []


def test_a_request_in_three_steps_leaves_one_file_in_outputs(sales):
    ws, df = sales
    s = Session(ws)
    _run(s, "先把销售.csv里城市是北京的筛出来")
    _run(s, "然后在这个结果里按客户汇总数量")
    last = _run(s, "再在这个结果里按数量_合计降序排序")
    assert _outputs(ws) == [last.run.files[0]["path"].split("/")[-1]]
    want = df[df["城市"] == "北京"].groupby("客户")["数量"].sum().sort_values(ascending=False)
    got = pd.read_csv(ws.root / last.run.files[0]["path"])
    assert got["客户"].tolist() == want.index.tolist() and got["数量_合计"].tolist() == want.tolist()
    # the steps on the way are results still: /show 2 and 3, as Parquet
    _, grouped = s.result_table("2")
    _, filtered = s.result_table("3")
    assert s.result_path("2").endswith(".parquet") and s.result_path("3").endswith(".parquet")
    assert sorted(filtered["订单号"]) == sorted(df[df["城市"] == "北京"]["订单号"])
    assert dict(zip(grouped["客户"], grouped["数量_合计"], strict=True)) == want.to_dict()
    assert "中间结果" in " ".join(last.run.notes)


def test_a_request_in_three_steps_said_at_once_writes_one_file(sales):
    ws, df = sales
    s = Session(ws)
    tr = _run(s, "销售.csv 里筛选城市是北京的，然后按客户汇总数量，再按数量_合计降序排序")
    assert _outputs(ws) == [tr.run.files[0]["path"].split("/")[-1]]


def test_a_file_the_user_asked_to_save_stays_in_outputs(sales):
    ws, _ = sales
    s = Session(ws)
    first = _run(s, "把销售.csv里城市是北京的筛出来导出成xlsx")
    second = _run(s, "在这个结果里按客户汇总数量")
    assert sorted(_outputs(ws)) == sorted(f["path"].split("/")[-1] for f in (*first.run.files, *second.run.files))


def test_a_result_round_trips_through_parquet_with_its_types(sales):
    ws, _ = sales
    s = Session(ws)
    table = pd.DataFrame({"n": [1, 2, 3], "x": [1.5, None, 2.25], "day": pd.to_datetime(["2024-01-02", "2024-02-29", None]),
                          "name": ["甲", None, "丙"]})
    kept = s._keep_copy(table, "t", "结果", "abcdef123")
    assert kept == f".wenqing/results/{s.owner}/t_结果_abcdef.parquet" and (ws.root / kept).read_bytes()[:4] == b"PAR1"
    from tools.io import read_table

    back = read_table(ws.root / kept).df
    pd.testing.assert_frame_equal(back, table)
    assert back["n"].dtype.kind == "i" and back["x"].dtype.kind == "f" and back["day"].dtype.kind == "M"


def test_a_shown_result_and_a_named_one_are_parquet_and_read_back_typed(sales):
    ws, df = sales
    s = Session(ws)
    tr = _run(s, "销售.csv 每月的数量合计")
    held = s.state.last_result
    assert held and held.startswith(".wenqing/results/") and held.endswith(".parquet"), (held, tr.run.files)
    s.name_result("1", "月表")
    assert s.named_results() == {"月表": ".wenqing/named/月表.parquet"}
    _, named = s.result_table("月表")
    assert named["数量_合计"].dtype.kind == "i" and named["数量_合计"].sum() == df["数量"].sum()
    follow = _run(s, "在月表里筛选数量_合计大于100的")
    assert follow.decision.request.file == ".wenqing/named/月表.parquet"
    got = pd.read_csv(ws.root / follow.run.files[0]["path"])
    assert got["数量_合计"].tolist() == named[named["数量_合计"] > 100]["数量_合计"].tolist()


def test_a_table_parquet_cannot_hold_is_kept_as_csv(sales):
    from tools.write import kept_bytes

    data, ext = kept_bytes(pd.DataFrame([[1, "a"]], columns=["x", "x"]))
    assert ext == "csv" and data.startswith(b"\xef\xbb\xbf")
    data, ext = kept_bytes(pd.DataFrame({"m": [1, "a", 2.5]}))
    assert ext == "csv"  # a column of mixed kinds: CSV keeps each value as written
