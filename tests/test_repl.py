"""The interactive loop, driven through prompt-toolkit's pipe input and a rich console writing to a string."""

from io import StringIO

from prompt_toolkit import PromptSession
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from repl.loop import WenqingCompleter, run_repl


def drive(ws, keys: str) -> str:
    buf = StringIO()
    console = Console(file=buf, width=100, no_color=True)
    with create_pipe_input() as inp:
        inp.send_text(keys)
        prompt = PromptSession(input=inp, output=DummyOutput())
        run_repl(ws, prompt=prompt, console=console)
    return buf.getvalue()


def test_clarification_dialogue_in_the_repl(ws, ws_dir):
    out = drive(ws, "帮我弄一下\r筛选一下 POI 数据\r筛选 上海_poi.xlsx，地址不为空\r继续\r/exit\r")
    assert "您想让我做什么" in out and "上海_poi.xlsx、北京_poi.xlsx" in out
    assert "确认请回复'继续'" in out and "已保存到 outputs/上海_poi_筛选.csv（45 行）" in out
    assert (ws_dir / "outputs" / "上海_poi_筛选.csv").exists()


def test_plan_card_slash_commands_and_ctrl_d(ws):
    out = drive(ws, "全面分析一下北京_poi\r/forget\r继续\r/help\r/files\r/nope\r\x04")
    assert "方案卡" in out and "describe_columns" in out
    assert "没有待确认的操作" in out and "/trace" in out and "北京_poi.xlsx" in out
    assert "没有这个命令：/nope" in out and "再见" in out


def test_ctrl_c_cancels_the_line_only(ws):
    out = drive(ws, "你好\r\x03谢谢\r\x04")
    assert "你好！" in out and "不客气" in out


def test_completion_of_commands_and_files(ws):
    from prompt_toolkit.document import Document

    c = WenqingCompleter(ws)
    assert [x.text for x in c.get_completions(Document("/fo"), None)] == ["/forget"]
    assert "上海_poi.xlsx" in [x.text for x in c.get_completions(Document("预览 上海"), None)]


def test_a_bug_does_not_end_the_session(ws, monkeypatch):
    from engine.session import Session

    def boom(self, line):
        raise RuntimeError("bug")

    monkeypatch.setattr(Session, "turn", boom)
    out = drive(ws, "你好\r/help\r\x04")
    assert "内部错误 RuntimeError" in out and "/forget" in out and "再见" in out
    assert (ws.root / ".wenqing" / "errors.log").read_text(encoding="utf-8").count("RuntimeError: bug") == 1
