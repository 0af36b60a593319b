"""The load generator still runs: a few seconds of the single-game scenario, with sane fields."""

from __future__ import annotations

import pytest

from bench import load

pytestmark = [pytest.mark.live]


def test_single_game_bench_reports_sane_figures():
    report = load.main(["--scenario", "single", "--duration", "1.5", "--drain", "0.5"])

    assert report["scenario"] == "single"
    assert report["machine"]["cpus"] >= 1
    for kind in ("relay", "app"):
        figures = report[kind]
        assert figures["errors"] == 0, figures["error_samples"]
        assert figures["server_log_tracebacks"] == 0
        assert figures["moves_delivered"] == figures["moves_sent"] > 10
        assert figures["moves_per_s"] > 0
        rtt = figures["rtt_ms"]
        assert 0 < rtt["p50"] <= rtt["p99"] <= rtt["max"] < 5000
        assert all(0 < mb < 2048 for mb in figures["server_rss_mb"])
    assert report["ratio_moves_per_s"] > 0
