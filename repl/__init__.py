"""The terminal: typer entry point, prompt-toolkit loop, slash commands, rich rendering."""

__version__ = "0.1.0"
