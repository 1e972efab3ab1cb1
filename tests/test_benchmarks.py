"""Smoke tests of the benchmark harnesses (figures are printed by the benchmarks, not asserted as timings)."""

from benchmarks.decide_latency import main


def test_decide_latency_runs(capsys):
    res = main(["--repeat", "1", "--labels", "/nonexistent", "--workspace", "examples"])
    assert res["decisions"] == res["utterances"] > 0 and res["p50_ms"] > 0
    assert "p99" in capsys.readouterr().out


def test_io_bench_runs_small(tmp_path, capsys):
    from benchmarks.io_bench import main as io_main

    io_main(["--rows", "300", "--csv-rows", "500", "--dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert "ratio naive / wenqing load" in out and "pd.read_csv(path, encoding=…)" in out and "start-up to a ready prompt" in out and "encoding gb18030" in out


def test_decide_accuracy_runs_without_labels(tmp_path, capsys):
    from benchmarks.decide_accuracy import main as acc_main

    assert acc_main(["--labels", str(tmp_path / "none.jsonl"), "--workspace", str(tmp_path)]) == 0
    assert "nothing to score" in capsys.readouterr().out


def test_decide_scale_runs_small(capsys):
    from benchmarks.decide_scale import main as scale_main

    res = scale_main(["--files", "6", "--columns", "30", "--repeat", "1"])
    out = capsys.readouterr().out
    assert "[no bytecode] this     decide '你好': cold" in out and "[bytecode   ] this     decide '你好': cold" in out
    assert "+30-column sheet" in out and "CPU p99" in out and res["cpu_p99_6_ms"] > 0
    assert res["hello_cold_s"] > 0 and res["p99_6_ms"] > 0
    assert res["version_s_bytecode"] > 0 and res["startup_s_no_bytecode"] > 0


def test_scale_curve_runs_small(capsys):
    from benchmarks.scale_curve import main as curve_main

    rows = curve_main(["--sizes", "2k"])
    assert [(r["rows"], r["work"]) for r in rows] == [(2000, "分析"), (2000, "group → export")]
    assert all(r["status"][-1] == "answered" and r["duck_secs"] > 0 and r["warm_secs"] > 0 for r in rows)
    assert "peak MB" in capsys.readouterr().out


def test_fuzz_runs_small(tmp_path, capsys):
    from benchmarks.fuzz import main as fuzz_main

    res = fuzz_main(["--utterances", "21", "--files", "4", "--dir", str(tmp_path)])
    assert res["utterances"]["output_lines"] == 21 and res["utterances"]["tracebacks"] == 0
    assert res["files"]["files"] == 4 + 4 and res["files"]["internal_errors"] == 0 and res["files"]["changed_sources"] == 0  # and the bombs
    out = capsys.readouterr().out
    assert "p99" in out and "through 分析" in out


def test_warm_session_runs_small(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "benchmarks" / "warm_session.py"
    out = subprocess.run([sys.executable, str(script), "--rows", "2000", "--skip-big", "--workdir", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "overall ratio wenqing/duckdb" in out.stdout and any(line.startswith("total ") for line in out.stdout.splitlines())
    assert out.stdout.count("→ answered") == 5, out.stdout
