"""The workspace: the only directory wenqing reads from, and its outputs/ folder, the only place it writes."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tools.errors import FileMissing, OutsideWorkspace, WriteFailed

try:
    import fcntl
except ImportError:  # no advisory locks here: a temporary file is stray when its owner is gone or a day old
    fcntl = None  # type: ignore[assignment]

SPREADSHEET_EXTS = (".xlsx", ".xlsm", ".xls", ".ods", ".csv", ".tsv")
OUTPUTS = "outputs"
STATE_DIR = ".wenqing"
TMP_PREFIX = ".wq-tmp-"
_TMP_OWNER = re.compile(re.escape(TMP_PREFIX) + r"(\d+)-")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
MAX_DEPTH = 32  # folders below the workspace that a walk enters
MAX_FILES = 5000  # files a walk lists


def decodable(name: str) -> bool:
    """Whether a name read from the disk is valid UTF-8 (an invalid byte comes back as a lone surrogate)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown(name: str) -> str:
    """A name as it can be shown: bytes that are not UTF-8 become replacement characters."""
    return name if decodable(name) else os.fsencode(name).decode("utf-8", "replace")


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

    def files(self, include_outputs: bool = False, undecodable: bool = False) -> list[str]:
        """Workspace files (relative paths), skipping hidden folders and, unless asked, outputs/. A name that is not
        valid UTF-8 is left out (it cannot be named, read by name or written), unless `undecodable` asks for it."""
        return [rel for rel in self._walk(include_outputs) if undecodable or decodable(rel)]

    def _walk(self, include_outputs: bool) -> Iterator[str]:
        """The files of the tree, folder by folder as os.walk gives them, without recursion: at most MAX_DEPTH
        folders deep and MAX_FILES files, so a folder nested a thousand deep or holding 100,000 files costs a bound."""
        stack: list[tuple[Path, int]] = [(self.root, 0)]
        n = 0
        while stack:
            base, depth = stack.pop()
            try:
                with os.scandir(base) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError:
                continue
            top = base == self.root
            folders = []
            for e in entries:
                try:
                    is_dir = e.is_dir()
                except OSError:
                    continue
                if is_dir:  # a linked folder is never entered: only a link itself can lead out of the workspace
                    if (depth < MAX_DEPTH and not e.is_symlink() and not e.name.startswith(".")
                            and not (top and e.name == OUTPUTS and not include_outputs) and e.name not in ("__pycache__", "node_modules")):
                        folders.append(base / e.name)
                    continue
                if e.name.startswith((".", "~$")):
                    continue
                full = base / e.name
                if e.is_symlink() and not self.inside(full):
                    continue
                yield full.relative_to(self.root).as_posix()
                n += 1
                if n >= MAX_FILES:
                    return
            stack.extend((f, depth + 1) for f in reversed(folders))

    def spreadsheets(self) -> list[str]:
        return [f for f in self.files() if f.lower().endswith(SPREADSHEET_EXTS)]

    def output_files(self) -> list[str]:
        if not self.outputs.is_dir() or not self.inside(self.outputs):
            return []
        return sorted(
            f"{OUTPUTS}/{p.name}" for p in self.outputs.iterdir() if p.is_file() and not p.name.startswith(".")
        )

    def open_dir(self, name: str) -> tuple[int, Path]:
        """An open descriptor of the folder `name` at the workspace root (created if absent) and its real path.

        Refuses a folder that is, or leads through, a link out of the workspace: nothing is written there."""
        full = self.root / name
        try:
            full.mkdir()  # never follows a link at the name: an existing link gives FileExistsError
        except FileExistsError:
            pass
        except OSError as e:
            raise WriteFailed(
                f"无法在工作区里创建 {name}/ 文件夹（{type(e).__name__}），没有写入任何文件。请检查工作区的写权限。",
                f"Cannot create {name}/ in the workspace ({type(e).__name__}); nothing was written. Check write permission.",
            ) from e
        real = Path(os.path.realpath(full))
        if real == self.root or not self.inside(real):
            raise _escapes(name, real)
        try:
            fd = os.open(real, os.O_RDONLY | _DIRECTORY | _NOFOLLOW)
        except OSError as e:  # not a folder, or swapped for a link since it was checked
            raise WriteFailed(
                f"工作区里的 {name} 不是一个普通文件夹，没有写入任何文件。",
                f"{name} in the workspace is not a plain folder; nothing was written.",
            ) from e
        opened = _fd_path(fd)
        if opened is not None and (opened == self.root or self.root not in opened.parents):
            os.close(fd)
            raise _escapes(name, opened)
        return fd, real

    def state_dir(self) -> Path:
        """The real path of .wenqing/ (created if absent), refused when it is a link out of the workspace."""
        fd, real = self.open_dir(STATE_DIR)
        os.close(fd)
        return real

    def remove_stray_temporaries(self) -> int:
        """Delete temporary files left by exports whose process is gone; a running export's file is kept."""
        out = self.root / OUTPUTS
        if not out.is_dir():
            return 0
        try:
            fd, _ = self.open_dir(OUTPUTS)
        except (OutsideWorkspace, WriteFailed):
            return 0  # never delete anything outside the workspace
        n = 0
        try:
            for name in os.listdir(fd):
                if name.startswith(TMP_PREFIX) and _remove_if_orphaned(fd, name):
                    n += 1
        finally:
            os.close(fd)
        return n


def _escapes(name: str, real: Path) -> OutsideWorkspace:
    return OutsideWorkspace(
        f"{name}/ 指向工作区之外（{real}），为安全起见没有在那里写入任何文件。请把它换成工作区里的普通文件夹。",
        f"{name}/ points outside the workspace ({real}); nothing was written there. Replace it with a plain folder "
        "inside the workspace.",
    )


def _fd_path(fd: int) -> Path | None:
    """Where an open folder really is, as the kernel sees it (None where /proc is not available)."""
    try:
        return Path(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _remove_if_orphaned(dir_fd: int, name: str) -> bool:
    """Remove a temporary file that no running export holds: its owner process is gone, or nobody holds its lock."""
    m = _TMP_OWNER.match(name)
    owner_gone = m is not None and int(m.group(1)) != os.getpid() and not _alive(int(m.group(1)))
    fd = None
    if not owner_gone:
        try:
            fd = os.open(name, os.O_RDONLY | _NOFOLLOW | os.O_NONBLOCK, dir_fd=dir_fd)
        except FileNotFoundError:
            return False
        except OSError:  # a link or something else planted under our prefix: only the name goes
            pass
    try:
        if fd is not None:
            if fcntl is None:
                if time.time() - os.fstat(fd).st_mtime < 86400:
                    return False
            else:
                try:  # a writer holds this lock from creating its file until it is done with it
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    return False
        os.unlink(name, dir_fd=dir_fd)  # removes a planted link itself, never its target
        return True
    except OSError:
        return False
    finally:
        if fd is not None:
            os.close(fd)  # the lock is released only after the name is gone
