"""The package as an application: a wheel built from the repo installs into a fresh venv and runs."""

import os
import shutil
import subprocess
import sys
import venv
import zipfile

from conftest import ROOT

PACKAGES = ("repl", "modes", "engine", "tools")


def test_wheel_installs_into_a_fresh_venv_and_runs(tmp_path):
    src = tmp_path / "src"  # build from a copy, so the checkout gets no build/ folder
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, src / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-q", "-w", str(dist)],
                   check=True, capture_output=True, timeout=300)
    (wheel,) = dist.glob("wenqing-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = z.read(next(n for n in names if n.endswith("/METADATA"))).decode()
        entry = z.read(next(n for n in names if n.endswith("/entry_points.txt"))).decode()
    assert {n.split("/")[0] for n in names if n.endswith(".py")} == set(PACKAGES)
    assert "wenqing = repl:main" in entry and "Requires-Dist: pypinyin" in meta

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    py = bindir / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--no-index", "-q", str(wheel)],
                   check=True, capture_output=True, timeout=300)
    out = subprocess.run([str(bindir / "wenqing"), "--version"], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    version = __import__("repl").__version__
    assert out.returncode == 0 and out.stdout == f"wenqing {version}\n"

    # The installed code, with the dependencies borrowed from the test's environment, answers a real request.
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    deps = [p for p in sys.path if p.endswith("site-packages")]
    with open(os.path.join(site, "borrowed_deps.pth"), "w", encoding="utf-8") as f:
        f.write("\n".join(deps) + "\n")
    shutil.copy(ROOT / "examples" / "上海_poi.xlsx", tmp_path / "上海_poi.xlsx")
    run = subprocess.run([str(bindir / "wenqing"), "decide", "--workspace", str(tmp_path), "预览 上海_poi.xlsx"],
                         capture_output=True, text=True, encoding="utf-8", cwd=tmp_path, timeout=120)
    assert '"slots": {"file": "上海_poi.xlsx"' in run.stdout, run.stderr
    where = subprocess.run([str(py), "-c", "import repl; print(repl.__file__)"], capture_output=True, text=True, cwd=tmp_path)
    assert where.stdout.startswith(str(env_dir))
