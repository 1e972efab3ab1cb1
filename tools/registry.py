"""The tool registry: typed plain functions registered by name. Only registered tools can run."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from tools.errors import ToolArgError


@dataclass
class ToolResult:
    """What a tool returns: data for the next step, facts to check, evidence to show."""

    data: Any = None
    facts: dict[str, Any] = field(default_factory=dict)
    evidence: dict[str, Any] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    func: Callable[..., ToolResult]
    params: tuple[str, ...]
    required: tuple[str, ...]


TOOLS: dict[str, Tool] = {}


def tool(func: Callable[..., ToolResult]) -> Callable[..., ToolResult]:
    """Register a tool: its name is the function's, its description the docstring, its schema the signature."""
    sig = inspect.signature(func)
    params = tuple(sig.parameters)
    required = tuple(n for n, p in sig.parameters.items() if p.default is inspect.Parameter.empty)
    TOOLS[func.__name__] = Tool(func.__name__, (func.__doc__ or "").strip().splitlines()[0], func, params, required)
    return func


def get_tool(name: str) -> Tool:
    _load()
    if name not in TOOLS:
        raise ToolArgError(f"没有名为 {name} 的工具。", f"There is no tool named {name}.")
    return TOOLS[name]


def call(name: str, args: dict[str, Any]) -> ToolResult:
    """Run a registered tool with bound arguments; a missing or unknown argument is an error, never a guess."""
    t = get_tool(name)
    missing = [p for p in t.required if p not in args]
    if missing:
        raise ToolArgError(
            f"工具 {name} 缺少参数：{', '.join(missing)}。", f"Tool {name} is missing arguments: {', '.join(missing)}."
        )
    unknown = [a for a in args if a not in t.params]
    if unknown:
        raise ToolArgError(f"工具 {name} 没有参数：{', '.join(unknown)}。", f"Tool {name} has no argument {', '.join(unknown)}.")
    from tools import outofcore

    routed = outofcore.route(name, args)  # a table on disk runs as SQL (or is loaded for a pandas-only tool)
    return routed if routed is not None else t.func(**args)


def names() -> list[str]:
    _load()
    return sorted(TOOLS)


def _load() -> None:
    """Import every tool module (a module imported on its own registers only its own tools); cached after the first call."""
    import tools.charts  # noqa: F401  (each module registers its tools)
    import tools.edits  # noqa: F401
    import tools.formula  # noqa: F401
    import tools.ops  # noqa: F401
    import tools.reshape  # noqa: F401
    import tools.stats  # noqa: F401
    import tools.stattests  # noqa: F401
    import tools.timeseries  # noqa: F401

    _load_optools()


@cache
def _load_optools() -> None:
    import tools.optools

    for m in pkgutil.iter_modules(tools.optools.__path__):  # one module per operation's tool, each registers itself
        importlib.import_module(f"tools.optools.{m.name}")
