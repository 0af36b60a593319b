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


def test_computer_bench_reports_the_computers_replies_beside_the_human_games():
    report = load.main(["--scenario", "computer", "--computer-games", "2", "--computer-level",
                        "1", "--games", "2", "--duration", "3", "--drain", "8", "--no-relay"])

    people = report["app"]
    assert people["errors"] == 0, people["error_samples"]
    assert people["server_log_tracebacks"] == 0
    assert people["moves_delivered"] == people["moves_sent"] >= 4
    computer = people["computer"]
    assert computer["errors"] == 0, computer["error_samples"]
    # Two games, and a rematch for each that a level-1 game lost in time to start one.
    assert computer["refused_busy"] == 0 and computer["games_started"] >= 2
    settings = computer["settings"]
    assert int(settings["GOBANG_COMPUTER_WORKERS"]) * int(
        settings["GOBANG_COMPUTER_GAMES_PER_WORKER"]) >= 2
    level = computer["per_level"]["1"]
    assert level["backstop_s"] == 0.05
    # Each game's first move was answered, its engine process started for it.
    assert level["first_reply_ms"]["replies"] == 2
    assert level["unanswered"] == 0
    replies = level["reply_ms"]
    assert 0 < replies["p50"] <= replies["p99"] <= replies["max"]
    assert 0 <= level["later_than_backstop_plus_1s"] <= level["replies"]
    assert computer["engines_cpu_pct"] > 0
    assert max(computer["engines_rss_mb"]) > 0
