"""The interactive loop, driven through prompt-toolkit's pipe input and a rich console writing to a string."""

from io import StringIO

from prompt_toolkit import PromptSession
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from repl.complete import WenqingCompleter
from repl.loop import run_repl


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


def drive_at(ws, keys: str, width: int) -> str:
    buf = StringIO()
    console = Console(file=buf, width=width, no_color=True)
    with create_pipe_input() as inp:
        inp.send_text(keys)
        run_repl(ws, prompt=PromptSession(input=inp, output=DummyOutput()), console=console)
    return buf.getvalue()


def test_tab_completes_file_column_and_value_without_a_space(ws, ws_dir):
    import pandas as pd

    out = drive_at(ws, "预览北\t\r筛选区是朝\t的行\r按评\t从高到低排序\r继续\r/exit\r", 100)
    src = pd.read_excel(ws_dir / "北京_poi.xlsx", engine="calamine")
    assert f"北京_poi.xlsx共 {len(src)} 行" in out  # 北 → 北京_poi.xlsx
    n = int((src["区"] == "朝阳区").sum())  # 朝 → 朝阳区, a value of the current file's column 区
    assert f"筛选：{len(src)} 行 → {n} 行" in out
    filtered = pd.read_csv(ws_dir / "outputs" / "北京_poi_筛选.csv", encoding="utf-8-sig")
    assert len(filtered) == n and set(filtered["区"]) == {"朝阳区"}
    assert "按 评分" in out  # 评 → 评分, a column of the current file
    # the order said right after the rows were kept orders those rows (restated, then confirmed)
    ranked = pd.read_csv(ws_dir / "outputs" / "北京_poi_筛选排序.csv", encoding="utf-8-sig")
    assert list(ranked["评分"]) == sorted(filtered["评分"], reverse=True)


def wide_workspace(tmp_path):
    import pandas as pd

    from tools.workspace import Workspace

    d = tmp_path / "wide"
    d.mkdir()
    n = 12
    df = pd.DataFrame({
        "编号": [f"R{i:04d}" for i in range(n)],
        "说明": ["[bold]不是标记[/bold]\x1b[31m红\n换行"] * n,
        "日期": pd.date_range("2021-02-11", periods=n, freq="D"),
        "地址": [f"上海市长宁区解放路{i}号某某大厦三楼东侧第二个门进去左转再右转的办公室" for i in range(n)],
        **{f"指标{j}": [i * 1000.5 + j for i in range(n)] for j in range(14)},
    })
    df.to_csv(d / "宽表.csv", index=False)
    return Workspace.at(d), df


def table_lines(out: str, title: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if title in line)
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(("…", "宽表.csv")))
    return lines[start + 1:end]


def test_previews_fit_80_and_150_columns_and_never_split_a_value(tmp_path):
    from rich.cells import cell_len

    ws, df = wide_workspace(tmp_path)
    shown = {}
    for width in (80, 150):
        out = drive_at(ws, "预览宽\t\r/exit\r", width)
        assert all(cell_len(line) <= width for line in out.splitlines())
        body = table_lines(out, "结果预览（共 12 行，显示 10 行）")
        ids = list(df["编号"].head(10))
        rows = [line for line in body if any(i in line for i in ids)]
        assert [next(i for i in ids if i in line) for line in rows] == ids  # one line per row, in order
        frame = [line for line in body if line not in rows]
        assert len(frame) == (2 if width < 100 else 4)  # header + rule, or the box's four frame lines: nothing wrapped
        header = next(line for line in frame if "编号" in line)
        cols = [c for c in df.columns if c in header]
        note = next(line for line in out.splitlines() if line.startswith("… 还有"))
        assert note.startswith(f"… 还有 {len(df.columns) - len(cols)} 列未显示：")
        assert all("…" in line for line in rows)  # the long address is cut with …, not wrapped
        assert all("[bold]" in line for line in rows)  # cell text is shown as it is, never read as markup
        assert "\x1b" not in out and "2021-02-11" in out
        shown[width] = len(cols)
    assert 3 <= shown[80] < shown[150] < len(df.columns)


def test_history_lists_requests_with_their_results(ws, ws_dir):
    import pandas as pd

    out = drive_at(ws, "筛选一下 POI 数据\r上海_poi.xlsx\r地址不为空\r继续\r你好\r/history\r/open 1\r/exit\r", 120)
    src = pd.read_excel(ws_dir / "上海_poi.xlsx", engine="calamine")
    kept = int(src["地址"].notna().sum())
    hist = out[out.index("最近的请求"):]
    row = next(line for line in hist.splitlines() if "筛选一下 POI 数据" in line)
    assert "筛选一下 POI 数据 → 上海_poi.xlsx → 地址不为空" in row and "继续" not in hist.split("/open")[0]
    assert f"{len(src)} 行 → {kept} 行" in row and "outputs/上海_poi_筛选.csv" in hist
    assert row.split("│")[1].strip() == "1" and "你好" not in hist
    assert str(ws_dir / "outputs" / "上海_poi_筛选.csv") in out  # /open 1 prints the result's path


def test_open_launches_the_system_opener_only_when_asked(ws, ws_dir):
    opened = []
    keys = "预览 上海_poi.xlsx\r/open 1\r把北京_poi.xlsx转成csv\r/open 1\r/open 1 打开\r/open 2 打开\r/open 9\r/exit\r"
    buf = StringIO()
    with create_pipe_input() as inp:
        inp.send_text(keys)
        run_repl(ws, prompt=PromptSession(input=inp, output=DummyOutput()), console=Console(file=buf, width=120), opener=opened.append)
    out = buf.getvalue()
    written = sorted((ws_dir / "outputs").iterdir())
    assert len(written) == 1 and written[0].suffix == ".csv"
    assert "第 1 个请求（预览 上海_poi.xlsx）没有写出文件" in out  # before the export, result 1 is the preview
    assert out.count(str(written[0])) == 2 and opened == written  # printed twice, opened once (when asked)
    assert "第 2 个请求（预览 上海_poi.xlsx）没有写出文件" in out and "没有第 9 个结果；/history 里有 2 个" in out


def test_trace_lists_every_turn_of_the_request(ws):
    out = drive_at(ws, "帮我弄一下\r筛选一下 POI 数据\r上海_poi.xlsx\r地址不为空\r继续\r/trace\r/exit\r", 150)
    part = out[out.index("这次请求的每一轮"):]
    turns = [line.split("│")[1].strip() for line in part.splitlines() if line.startswith("│") and line.split("│")[1].strip().isdigit()]
    assert turns[:5] == ["1", "2", "3", "4", "5"]
    for words in ("帮我弄一下", "筛选一下 POI 数据", "上海_poi.xlsx", "地址不为空", "继续"):
        assert words in part


def test_an_english_preview_says_its_hidden_columns_in_english(tmp_path):
    import pandas as pd

    from tools.workspace import Workspace

    df = pd.DataFrame({f"Metric {j}": [i * 1000.5 + j for i in range(5)] for j in range(16)})
    df.to_csv(tmp_path / "wide.csv", index=False)
    out = drive_at(Workspace.at(tmp_path), "preview wide.csv\r/exit\r", 80)
    note = next(line for line in out.splitlines() if line.startswith("…"))
    assert "more column" in note and "not shown:" in note and "未显示" not in out
