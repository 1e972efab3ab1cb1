"""The terminal: typer entry point, prompt-toolkit loop, slash commands, rich rendering."""

from __future__ import annotations

import sys

__version__ = "0.1.0"


def main() -> None:
    """The `wenqing` command. `--version` answers before anything heavy is imported."""
    if sys.argv[1:] in (["--version"], ["-V"]):
        sys.stdout.write(f"wenqing {__version__}\n")
        return
    from repl.cli import main as cli_main

    cli_main()
