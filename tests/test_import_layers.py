"""Understanding is layered: no module of modes/ reaches, directly or through others, back to a module that reaches it.

Every import counts, those written inside a function included (a deferred import hides a cycle, it does not break
it). The operation registry finds its operations by scanning its package, so an operation depends on the registry
and never the other way round.
"""

from __future__ import annotations

import ast
from pathlib import Path

MODES = Path(__file__).resolve().parent.parent / "modes"


def _modules() -> dict[str, Path]:
    out = {}
    for p in MODES.rglob("*.py"):
        parts = p.relative_to(MODES.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = p
    return out


def _edges(mods: dict[str, Path]) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, p in mods.items():
        package = m if p.name == "__init__.py" else m.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([node.module] if node.module else []))
                names = [base] + [f"{base}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            edges[m] |= {n for n in names if n in mods and n != m}
    return edges


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected parts of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                part = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    part.append(x)
                    if x == v:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def test_no_module_of_understanding_imports_its_way_back_to_itself() -> None:
    assert _cycles(_edges(_modules())) == []


def test_the_cycle_finder_sees_a_cycle_hidden_in_a_function() -> None:
    """The check can fail: a deferred import back to a module that imports this one is a cycle."""
    edges = _edges(_modules())
    assert "modes.opspec" in edges["modes.query"] or "modes.conditions" in edges["modes.query"]
    edges["modes.lexicon"] = edges["modes.lexicon"] | {"modes.query"}  # as `from modes.query import …` inside a function
    assert any("modes.lexicon" in c and "modes.query" in c for c in _cycles(edges))


def test_the_registry_names_no_operation() -> None:
    """The registry finds the operations in its package; it imports none of them by name."""
    edges = _edges(_modules())
    assert not {e for e in edges["modes.opspec"] if e.startswith("modes.opspecs.")}
    assert {"modes.opspecs.core", "modes.opspecs.analysis", "modes.opspecs.english"} <= set(_modules())


def test_the_order_operations_are_tried_in_does_not_depend_on_which_module_was_imported_first() -> None:
    """The model's prompt lists the operations in this order and recorded answers are keyed on the prompt."""
    import subprocess
    import sys

    def order(first: str) -> str:
        code = f"import {first}\nfrom modes import opspec\nprint(' '.join(s.name for s in opspec.all_ops()))" if first else \
            "from modes import opspec\nprint(' '.join(s.name for s in opspec.all_ops()))"
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              cwd=MODES.parent).stdout

    plain = order("")
    assert plain.split()[:3] == ["profile", "filter", "sort"]
    assert order("modes.opspecs.english") == plain and order("modes.opspecs.bins") == plain
