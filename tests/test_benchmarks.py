"""Smoke tests of the benchmark harnesses (figures are printed by the benchmarks, not asserted as timings)."""

from benchmarks.decide_latency import main


def test_decide_latency_runs(capsys):
    res = main(["--repeat", "1", "--labels", "/nonexistent", "--workspace", "examples"])
    assert res["decisions"] == res["utterances"] > 0 and res["p50_ms"] > 0
    assert "p99" in capsys.readouterr().out
