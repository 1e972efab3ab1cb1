"""The workspace: the only directory wenqing reads from, and its outputs/ folder, the only place it writes."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tools.errors import FileMissing, OutsideWorkspace

SPREADSHEET_EXTS = (".xlsx", ".xlsm", ".xls", ".ods", ".csv", ".tsv")
OUTPUTS = "outputs"
STATE_DIR = ".wenqing"
TMP_PREFIX = ".wq-tmp-"


@dataclass(frozen=True)
class Workspace:
    root: Path

    @classmethod
    def at(cls, root: str | os.PathLike[str]) -> Workspace:
        return cls(Path(root).resolve())

    @property
    def outputs(self) -> Path:
        return self.root / OUTPUTS

    def inside(self, path: Path) -> bool:
        real = Path(os.path.realpath(path))
        return real == self.root or self.root in real.parents

    def resolve(self, rel: str | os.PathLike[str], must_exist: bool = True) -> Path:
        """The real path of `rel` if it lies inside the workspace; refuses anything else."""
        p = Path(rel)
        if p.is_absolute() or ".." in p.parts:
            raise OutsideWorkspace(
                f"只能读取工作区 {self.root.name}/ 里的文件，{rel} 在工作区之外。",
                f"I can only read files inside the workspace {self.root.name}/; {rel} is outside it.",
            )
        full = self.root / p
        if not self.inside(full):
            raise OutsideWorkspace(
                f"{rel} 指向工作区之外，已拒绝。", f"{rel} points outside the workspace; refused."
            )
        if must_exist and not full.exists():
            raise FileMissing(f"找不到文件 {rel}。", f"File {rel} does not exist.")
        return Path(os.path.realpath(full))

    def rel(self, path: Path) -> str:
        return Path(os.path.realpath(path)).relative_to(self.root).as_posix()

    def files(self, include_outputs: bool = False) -> list[str]:
        """Workspace files (relative paths), skipping hidden folders and, unless asked, outputs/."""
        found: list[str] = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            base = Path(dirpath)
            rel_dir = base.relative_to(self.root)
            dirnames[:] = sorted(
                d
                for d in dirnames
                if not d.startswith(".")
                and not (rel_dir == Path(".") and d == OUTPUTS and not include_outputs)
                and d not in ("__pycache__", "node_modules")
            )
            for name in sorted(filenames):
                if name.startswith((".", "~$")):
                    continue
                full = base / name
                if not self.inside(full):
                    continue
                found.append(full.relative_to(self.root).as_posix())
            if len(found) > 5000:
                break
        return found

    def spreadsheets(self) -> list[str]:
        return [f for f in self.files() if f.lower().endswith(SPREADSHEET_EXTS)]

    def output_files(self) -> list[str]:
        if not self.outputs.is_dir():
            return []
        return sorted(
            f"{OUTPUTS}/{p.name}" for p in self.outputs.iterdir() if p.is_file() and not p.name.startswith(".")
        )

    def remove_stray_temporaries(self) -> int:
        """Delete temporary files an interrupted export left behind."""
        n = 0
        if self.outputs.is_dir():
            for p in self.outputs.iterdir():
                if p.name.startswith(TMP_PREFIX):
                    try:
                        p.unlink()
                        n += 1
                    except OSError:
                        pass
        return n
