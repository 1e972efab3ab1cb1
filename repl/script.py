"""Running a conversation without a terminal (`wenqing chat --script`, or turns piped on stdin)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.session import Session
from repl.commands import Context, dispatch
from repl.render import Renderer
from tools.workspace import Workspace

FAILED = ("failed", "escalated")


def run_lines(ws: Workspace, lines: list[str], events_path: Path | None, render: Renderer | None = None, model: Any = None) -> int:
    """Run the turns; 0 when every run ended normally, 1 when a run failed or stopped (or a turn hit an internal error)."""
    render = render or Renderer.plain()
    session = Session(ws, model=model)
    ctx = Context(session, render)
    out = events_path.open("w", encoding="utf-8", errors="replace") if events_path else None
    code = 0
    try:
        for raw in lines:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            render.say(f"> {line}")
            try:
                if line.startswith("/"):
                    dispatch(ctx, line)
                    if not ctx.running:
                        break
                    continue
                tr = session.turn(line)
            except Exception as e:  # a bug: say so and go on with the next turn
                from repl.loop import log_error

                render.say(f"出错了（内部错误 {type(e).__name__}），这一步没有完成，会话继续。{log_error(ws, e)}")
                code = 1
                continue
            if tr.run is not None and tr.run.status in FAILED:
                code = 1
            render.turn(tr)
            if out:
                for ev in tr.events:
                    out.write(json.dumps(ev, ensure_ascii=False, default=str) + "\n")
                out.flush()
    finally:
        if out:
            out.close()
    return code
