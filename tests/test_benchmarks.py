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
