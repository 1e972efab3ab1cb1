"""Which understanding to use: the rules alone, or an OpenAI-compatible model when one is configured.
Read without importing the model client, so that a run without a model never pays for it."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CONFIG_PATH = Path.home() / ".config" / "wenqing" / "config.toml"
BACKENDS = ("rules", "model", "auto")


@dataclass(frozen=True)
class ModelConfig:
    api_key: str | None = None
    base_url: str | None = None
    model: str | None = None
    timeout: float = 30.0
    send_cell_values: bool = True
    token_budget: int = 8000
    cassette: str | None = None  # recorded answers (engine.cassette): replayed, or recorded while a real model answers
    cassette_mode: str = "replay"

    @property
    def configured(self) -> bool:
        return bool(self.api_key and self.model) or bool(self.cassette and self.cassette_mode == "replay")

    def describe(self, lang: str = "zh") -> str:
        zh = lang != "en"
        if not self.configured:
            return ("未配置模型：只用规则（完全离线）。设置 OPENAI_API_KEY、WENQING_MODEL（可选 OPENAI_BASE_URL）即可启用。" if zh else
                    "No model configured: rules only (fully offline). Set OPENAI_API_KEY and WENQING_MODEL (optionally OPENAI_BASE_URL) to add one.")
        if self.cassette and self.cassette_mode == "replay":
            return f"模型回答从录制文件回放：{self.cassette}（不连网络）。" if zh else f"Model answers replayed from {self.cassette} (no network)."
        if zh:
            cells = "发送" if self.send_cell_values else "不发送（只发列名、类型和计数）"
            return f"模型 {self.model} @ {self.base_url or '默认地址'}；超时 {self.timeout:g} 秒；单元格内容：{cells}；每次请求的 token 预算 {self.token_budget}。"
        cells = "sent" if self.send_cell_values else "not sent (only column names, types and counts)"
        return (f"Model {self.model} @ {self.base_url or 'the default address'}; timeout {self.timeout:g} s; cell values: {cells}; "
                f"token budget per request {self.token_budget}.")


def load_config(env: dict[str, str] | None = None, path: Path | None = None, send_cell_values: bool = True) -> ModelConfig:
    """Environment variables first, then ~/.config/wenqing/config.toml."""
    env = dict(os.environ) if env is None else env
    file: dict[str, Any] = {}
    p = path or CONFIG_PATH
    if p.is_file():
        try:
            file = tomllib.loads(p.read_text(encoding="utf-8")).get("model", {})
        except (tomllib.TOMLDecodeError, OSError):
            file = {}
    return ModelConfig(
        api_key=env.get("OPENAI_API_KEY") or file.get("api_key"),
        base_url=env.get("OPENAI_BASE_URL") or file.get("base_url"),
        model=env.get("WENQING_MODEL") or file.get("model"),
        timeout=float(env.get("WENQING_MODEL_TIMEOUT") or file.get("timeout") or 30.0),
        send_cell_values=send_cell_values and bool(file.get("send_cell_values", True)),
        token_budget=int(file.get("token_budget") or 8000),
        cassette=env.get("WENQING_MODEL_CASSETTE") or None,
        cassette_mode="record" if (env.get("WENQING_MODEL_CASSETTE_MODE") or "").strip().lower() == "record" else "replay",
    )


def for_backend(backend: str, send_cell_values: bool = True, env: dict[str, str] | None = None) -> ModelConfig | None:
    """rules: never a model; auto: the model when one is configured; model: a configured model or a clear error."""
    from tools.errors import UserError

    if backend not in BACKENDS:
        raise UserError(f"--backend 只能是 {'、'.join(BACKENDS)}。", f"--backend must be one of {', '.join(BACKENDS)}.")
    if backend == "rules":
        return None
    cfg = load_config(env, send_cell_values=send_cell_values)
    if not cfg.configured:
        if backend == "model":
            raise UserError("--backend model 需要先配置模型：设置 OPENAI_API_KEY 和 WENQING_MODEL（可选 OPENAI_BASE_URL），"
                            "或写入 ~/.config/wenqing/config.toml 的 [model] 段。",
                            "--backend model needs a configured model: set OPENAI_API_KEY and WENQING_MODEL (OPENAI_BASE_URL optional).")
        return None
    return cfg
