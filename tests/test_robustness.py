"""Hostile and damaged input: random byte flips, an export killed mid-write, XML defences, the table cache."""

import os
import random
import signal
import subprocess
import sys
import time

import pytest
from conftest import EXAMPLES, ROOT

from tools.errors import UserError
from tools.io import read_table


def test_one_hundred_byte_flips_only_raise_typed_errors(tmp_path):
    raw = (EXAMPLES / "上海_poi.xlsx").read_bytes()
    rng = random.Random(11)
    outcomes = {"read": 0, "refused": 0}
    for i in range(100):
        data = bytearray(raw)
        for _ in range(rng.randint(1, 8)):
            pos = rng.randrange(len(data))
            data[pos] = rng.randrange(256)
        p = tmp_path / f"flip{i}.xlsx"
        p.write_bytes(bytes(data))
        try:
            read_table(p)
            outcomes["read"] += 1
        except UserError as e:
            assert e.zh and e.en
            outcomes["refused"] += 1
    assert sum(outcomes.values()) == 100 and outcomes["refused"] > 0


def test_xml_defences_are_installed():
    import defusedxml  # noqa: F401
    from openpyxl.xml import DEFUSEDXML

    assert DEFUSEDXML is True


WRITER = r"""
import sys
sys.path.insert(0, sys.argv[1])
import pandas as pd
from tools.write import write_csv_file
from tools.workspace import Workspace
df = pd.DataFrame({"a": range(3_000_000), "b": ["文本"] * 3_000_000})
print("ready", flush=True)
write_csv_file(Workspace.at(sys.argv[2]), df, "big")
"""


def test_export_killed_mid_write_leaves_no_partial_file(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(ROOT), str(tmp_path)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    outputs = tmp_path / "outputs"
    final = outputs / "big.csv"
    if final.exists():  # the write finished before the kill: then it is complete
        assert final.read_bytes().count(b"\n") == 3_000_001
    from engine.session import Session
    from tools.workspace import Workspace

    Session(Workspace.at(tmp_path))  # start-up removes stray temporaries
    assert not [p for p in outputs.iterdir() if p.name.startswith(".wq-tmp-")] if outputs.exists() else True


def test_follow_ups_reuse_the_loaded_table(session):
    session.turn("预览 sample_data.xlsx")
    session.turn("sample_data 按城市汇总金额")
    assert session.tables.hits >= 1


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_symlinked_directory_out_of_the_workspace_is_not_listed(tmp_path):
    from tools.workspace import Workspace

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.csv").write_text("a\n1\n")
    root = tmp_path / "ws"
    root.mkdir()
    os.symlink(outside, root / "linked")
    assert Workspace.at(root).files() == []


def test_xml_entity_bomb_is_not_expanded(tmp_path):
    import resource
    import zipfile

    import pandas as pd

    src = tmp_path / "ok.xlsx"
    pd.DataFrame({"名称": ["甲", "乙"], "数量": [1, 2]}).to_excel(src, index=False)
    bomb = tmp_path / "bomb.xlsx"
    lol = '<!DOCTYPE lolz [<!ENTITY lol "lol">' + "".join(
        f'<!ENTITY lol{i} "{"&lol{};".format(i - 1 if i > 1 else "") * 10}">' for i in range(1, 10)
    ).replace("&lol0;", "&lol;") + "]>"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(bomb, "w") as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "xl/sharedStrings.xml":
                text = data.decode()
                head, rest = text.split("?>", 1) if text.startswith("<?xml") else ("", text)
                data = ((head + "?>") if head else "").encode() + lol.encode() + rest.replace("甲", "&lol9;").encode()
            zout.writestr(item, data)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        t = read_table(bomb)
        cells = " ".join(map(str, t.df.to_numpy().ravel()))
        assert "lollollol" not in cells
    except UserError as e:
        assert e.zh
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200 * 1024  # < 200 MB more


def test_an_empty_sheet_is_described_not_a_crash(tmp_path):
    from openpyxl import Workbook

    wb = Workbook()
    wb.active.title = "空表"
    wb.create_sheet("数据").append(["a", "b"])
    wb.save(tmp_path / "two.xlsx")
    with pytest.raises(UserError, match="是空的"):
        read_table(tmp_path / "two.xlsx", "空表")
    assert list(read_table(tmp_path / "two.xlsx", "数据").df.columns) == ["a", "b"]
