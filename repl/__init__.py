"""The terminal: typer entry point, prompt-toolkit loop, slash commands, rich rendering."""

from __future__ import annotations

import sys

__version__ = "0.1.0"


def main() -> None:
    """The `wenqing` command. `--version` answers before anything heavy is imported; a plain command line (the
    REPL, or `decide`, with known options) runs without building the full command line, which reads everything
    else and explains `--help`."""
    if sys.argv[1:] in (["--version"], ["-V"]):
        sys.stdout.write(f"wenqing {__version__}\n")
        return
    import os
    import warnings

    if not os.environ.get("WENQING_WARNINGS"):  # a library's note to programmers (PerformanceWarning …) is no answer to a user
        warnings.simplefilter("ignore")
    for stream in (sys.stdout, sys.stderr):  # a lone surrogate from a file or a pipe never ends a run
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    from repl.fast import run_plain

    code = run_plain(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    from repl.cli import main as cli_main

    cli_main()
