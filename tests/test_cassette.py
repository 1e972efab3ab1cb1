"""Recorded model answers: recorded once against a server, replayed through the real openai client on loopback."""

from __future__ import annotations

import json
import socket

from fake_openai import PASS_REVIEW

from engine.cassette import Cassette, key
from engine.model import ModelConfig, load_config
from engine.session import Session

WHERE = {"intent": "work", "query": {"source": {"kind": "file", "file": "上海_poi.xlsx"},
                                     "where": {"column": "评分", "op": "ge", "value": 4.5}}}
VAGUE = "帮我整理出上海那份里口碑好的店"


def test_a_session_recorded_against_a_server_replays_without_it(ws, fake, tmp_path):
    tape = tmp_path / "tape.jsonl"
    server = fake([{"json": WHERE}, PASS_REVIEW])
    rec = ModelConfig(api_key="k", base_url=server.base_url, model="m", cassette=str(tape), cassette_mode="record")
    s = Session(ws, model=rec, model_sleep=lambda x: None)
    first = s.turn(VAGUE)
    done = s.turn("继续")
    assert first.decision.next == "restate_confirm" and done.run.status == "answered"
    lines = [json.loads(x) for x in tape.read_text(encoding="utf-8").splitlines()]
    assert [e["purpose"] for e in lines] == ["query", "review"] and lines[0]["request"] == VAGUE
    server.stop()

    cfg = load_config(env={"WENQING_MODEL_CASSETTE": str(tape)}, path=tmp_path / "none.toml")
    assert cfg.configured and cfg.cassette_mode == "replay"
    s2 = Session(ws, model=cfg, model_sleep=lambda x: None)
    again = s2.turn(VAGUE)
    assert again.decision.reply == first.decision.reply
    ran = s2.turn("继续")
    assert ran.run.status == "answered" and "60 行 → 18 行" in ran.run.answer and "60 行 → 18 行" in done.run.answer


def test_a_hand_written_answer_matches_on_the_request_and_a_miss_falls_back_to_the_rules(ws, tmp_path, monkeypatch):
    tape = tmp_path / "oracle.jsonl"
    tape.write_text(json.dumps({"match": {"purpose": "query", "request": VAGUE}, "answer": {"content": json.dumps(WHERE, ensure_ascii=False)}},
                               ensure_ascii=False) + "\n", encoding="utf-8")
    cfg = ModelConfig(cassette=str(tape))
    s = Session(ws, model=cfg, model_sleep=lambda x: None)
    d = s.turn(VAGUE).decision
    assert d.next == "restate_confirm" and "评分 不低于 4.5" in d.reply
    other = s.turn("帮我看看北京那份里哪些店不太行").decision  # not on the tape: 404, the rules decide
    assert other.rule != "model" and other.gate in ("clarify", "unknown", "act")


def test_keys_ignore_whitespace_but_not_words() -> None:
    a = [{"role": "user", "content": "<request>\"按城市  汇总\"</request>"}]
    b = [{"role": "user", "content": "<request>\"按城市 汇总\"</request>"}]
    c = [{"role": "user", "content": "<request>\"按区域 汇总\"</request>"}]
    assert key("query", a) == key("query", b) != key("query", c) and key("query", a) != key("chat", a)


def test_a_broken_cassette_is_said_and_the_rules_decide(ws, tmp_path):
    tape = tmp_path / "bad.jsonl"
    tape.write_text("{not json\n", encoding="utf-8")
    try:
        Cassette(tape)
        raise AssertionError("a broken cassette must be refused")
    except ValueError as e:
        assert "line 1" in str(e)
    s = Session(ws, model=ModelConfig(cassette=str(tape)), model_sleep=lambda x: None)
    tr = s.turn(VAGUE)
    assert tr.decision.gate in ("unknown", "clarify", "act") and any("录制文件读不了" in n for n in tr.notices)


def test_without_a_model_or_a_cassette_no_socket_is_opened(ws, monkeypatch, tmp_path):
    def refuse(*a, **k):
        raise AssertionError("a socket was opened")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "bind", refuse)
    cfg = load_config(env={}, path=tmp_path / "none.toml")
    assert not cfg.configured
    s = Session(ws, model=None)
    for u in ("你好", VAGUE, "北京_poi.xlsx按评分从高到低排序", "按城市汇总一下上海_poi.xlsx的评分"):
        s.turn(u)
