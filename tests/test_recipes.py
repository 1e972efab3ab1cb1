"""Recipes: a plan saved after it ran, replayed on a second file after checking the columns it needs."""

import pandas as pd
import pytest

from engine import recipes
from engine.audit import Audit
from tools.errors import UserError


def test_save_and_replay_on_a_second_poi_file(session, ws, ws_dir):
    tr = session.turn("筛选 上海_poi.xlsx，地址不为空，按评分从高到低排")
    assert tr.run.status == "answered"
    plan, d = session.last_executed
    r = recipes.save(ws, "有地址的店", plan, d.request)
    assert r.needed_columns() == ["地址", "评分"] and recipes.list_names(ws) == ["有地址的店"]
    audit = Audit.in_memory()
    audit.start_run("r1", 0, "recipe", {}, 0)
    run = recipes.run(ws, "有地址的店", "北京_poi.xlsx", None, audit, "r1")
    assert run.status == "answered"
    out = pd.read_csv(ws_dir / run.files[0]["path"], encoding="utf-8-sig")
    src = pd.read_excel(ws_dir / "北京_poi.xlsx", engine="openpyxl")
    want = src[src["地址"].notna()].sort_values("评分", ascending=False, kind="stable")
    assert list(out["名称"]) == list(want["名称"])
    assert run.files[0]["path"] == "outputs/北京_poi_配方_有地址的店.csv"


def test_replay_names_the_missing_columns(session, ws):
    session.turn("筛选 上海_poi.xlsx，地址不为空")
    plan, d = session.last_executed
    recipes.save(ws, "poi", plan, d.request)
    with pytest.raises(UserError) as e:
        recipes.run(ws, "poi", "库存明细.csv", None, Audit.in_memory(), "x")
    assert "地址" in e.value.zh and "库存明细.csv" in e.value.zh


def test_bad_names(ws):
    with pytest.raises(UserError):
        recipes.load(ws, "../../etc/passwd")
    with pytest.raises(UserError):
        recipes.load(ws, "nope")


def test_a_chain_of_four_requests_is_saved_whole_and_replayed_on_next_months_file(tmp_path):
    """筛选 → 在这个结果里汇总 → 排序 → 取前几: each request went on from the one before; the recipe replays all four on
    another month's file, and the result is what pandas computes there."""
    import numpy as np
    import pandas as pd

    from engine.session import Session
    from tools.workspace import Workspace

    rng = np.random.default_rng(4)

    def month(seed_shift: int) -> pd.DataFrame:
        n = 80
        return pd.DataFrame({"单号": [f"N{seed_shift}{i:03d}" for i in range(n)], "区域": rng.choice(["华东", "华南", "华北"], n),
                             "产品": rng.choice(["甲", "乙", "丙", "丁", "戊"], n), "金额": rng.integers(100, 5000, n)})

    nov, dec = month(11), month(12)
    nov.to_csv(tmp_path / "销售_11月.csv", index=False)
    dec.to_csv(tmp_path / "销售_12月.csv", index=False)
    ws = Workspace.at(tmp_path)
    s = Session(ws)
    turns = ["筛选 销售_11月.csv 区域为华东", "在这个结果里按产品汇总金额", "把结果按金额合计降序排列", "在这个结果里取金额合计最大的3行"]
    for t in turns:
        tr = s.turn(t)
        if tr.run is None and tr.decision.next in ("restate_confirm", "plan_confirm"):
            tr = s.turn("继续")
        assert tr.run is not None and tr.run.status == "answered", (t, tr.decision.reply)
    assert len(s.chain) == 4
    plan, d = s.last_executed  # type: ignore[misc]
    r = recipes.save(ws, "华东前三", plan, d.request, s.chain)
    assert len(r.chain) == 3 and all(link["query"] for link in r.chain)
    run = recipes.run(ws, "华东前三", "销售_12月.csv", None, Audit.in_memory(), "chain1")
    assert run.status == "answered", run.notes
    written = [f["path"] for f in run.files if f["path"].endswith(".csv")]
    out = pd.read_csv(tmp_path / written[0]) if written else run.table
    want = dec[dec["区域"] == "华东"].groupby("产品")["金额"].sum().sort_values(ascending=False).head(3)
    assert out["产品"].tolist() == want.index.tolist()
    assert out["金额_合计"].tolist() == want.tolist()
