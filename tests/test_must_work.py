"""The seven behaviours the first issue asks for, run for real through a Session."""

import pandas as pd

from engine.session import Session


def tools_run(tr):
    return [] if tr.run is None else [s.tool for s in tr.run.steps]


def test_1_vague_request_asks_what_to_do(session: Session):
    tr = session.turn("帮我弄一下")
    assert tr.decision.next == "ask_intent" and tr.run is None
    assert "您想让我做什么" in tr.decision.reply


def test_2_profile_runs_silently_and_shows_a_table(session: Session):
    tr = session.turn("分析 examples/sample_data.xlsx")
    assert (tr.decision.mode, tr.decision.tier, tr.decision.next) == ("profile", "silent", "execute")
    assert tr.run.status == "answered" and tools_run(tr) == ["profile_dataset"]
    assert len(tr.run.table) == 122 and tr.run.profile["sheets"] == ["订单", "客户"]


def test_3_full_analysis_plan_card_then_city_totals(session: Session, ws_dir):
    session.turn("分析 sample_data.xlsx")
    tr = session.turn("帮我全面分析这个数据，按城市汇总并导出")
    assert (tr.decision.next, tr.decision.mode, tr.decision.tier) == ("plan_confirm", "plan_review", "hard")
    assert tr.run is None and not (ws_dir / "outputs").exists()
    tr = session.turn("继续")
    assert tr.decision.next == "execute" and tr.run.status == "answered"
    written = tr.run.files[-1]["path"]
    got = pd.read_csv(ws_dir / written, encoding="utf-8-sig").set_index("城市")["金额_合计"].sort_index()
    src = pd.read_excel(ws_dir / "sample_data.xlsx", sheet_name="订单", engine="openpyxl")
    want = src.groupby("城市")["金额"].sum().sort_index()
    assert got.to_dict() == want.to_dict()


def test_4_clarification_dialogue(session: Session, ws_dir):
    d1 = session.turn("帮我弄一下").decision
    d2 = session.turn("筛选一下 POI 数据").decision
    assert d1.next == "ask_intent"
    assert d2.next == "ask_slots" and set(d2.missing) >= {"file"} and "上海_poi.xlsx" in d2.reply
    tr3 = session.turn("筛选 上海_poi.xlsx，地址不为空")
    assert tr3.decision.next == "restate_confirm" and tr3.run is None
    assert tr3.decision.reply.endswith("确认请回复'继续'") and "地址不为空" in tr3.decision.reply
    tr4 = session.turn("继续")
    assert tr4.run.status == "answered"
    out = pd.read_csv(ws_dir / tr4.run.files[0]["path"], encoding="utf-8-sig")
    src = pd.read_excel(ws_dir / "上海_poi.xlsx", engine="openpyxl")
    keep = src[src["地址"].notna() & (src["地址"].astype(str).str.strip() != "")]
    assert len(out) == len(keep) and list(out["名称"]) == list(keep["名称"])
    assert tr4.run.files[0]["path"].startswith("outputs/") and tr4.run.files[0]["path"].endswith(".csv")


def test_5_that_file_means_the_current_file(session: Session):
    session.turn("预览 北京_poi.xlsx")
    d = session.turn("帮我筛一下那个文件").decision
    assert d.next == "ask_slots" and d.missing == ("condition",)
    assert d.slots["file"] == "北京_poi.xlsx" and "北京_poi.xlsx" in d.reply


def test_6_forget_drops_what_is_pending(session: Session):
    session.turn("筛选 上海_poi.xlsx，评分大于4")
    session.turn("把csv转成xlsx")
    assert session.state.pending is not None
    session.forget()
    d = session.turn("继续").decision
    assert d.gate == "unknown" and "没有待确认" in d.reply


def test_7_small_talk_gets_a_friendly_reply_and_no_tool(session: Session):
    for text in ("你好", "谢谢"):
        tr = session.turn(text)
        assert tr.decision.gate == "chat" and tr.run is None and tr.plan is None
        assert tr.decision.reply and "结果" not in tr.decision.reply


def test_full_analysis_alone_saves_the_statistics_of_every_sheet(session, ws_dir):
    from openpyxl import load_workbook

    session.turn("全面分析一下 sample_data.xlsx")
    tr = session.turn("继续")
    assert tr.run.status == "answered" and tr.run.files[0]["path"].endswith(".xlsx")
    wb = load_workbook(ws_dir / tr.run.files[0]["path"])
    assert len(wb.sheetnames) == 3 and wb.sheetnames[-1] == "说明"
    first = [c.value for c in next(wb[wb.sheetnames[0]].iter_rows(max_row=1))]
    assert first[:3] == ["列", "类型", "非空"]
    names = [r[0].value for r in wb[wb.sheetnames[0]].iter_rows(min_row=2)]
    assert "金额" in names and "订单号" in names
