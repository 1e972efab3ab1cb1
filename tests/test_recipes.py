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
