"""Smoke tests of the analysis benchmarks (figures are printed, not asserted as timings)."""

from benchmarks.analysis_bench import main as bench_main


def test_analysis_bench_runs_small(tmp_path, capsys):
    res = bench_main(["--rows", "2000", "--dir", str(tmp_path)])
    assert len(res) >= 30 and "operations under" in capsys.readouterr().out

