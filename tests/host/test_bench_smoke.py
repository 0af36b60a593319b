"""The load generator still runs: a few seconds of the single-game scenario, with sane fields;
and (under .ci/with-postgres) its several-processes scenarios and the failover bench, with
tiny counts."""

from __future__ import annotations

import os

import pytest

from bench import cluster as cluster_bench
from bench import load
from bench.arena_load import Free, with_partner
from bench.players import Pace
from tests.support.cluster import REQUIRE_ENV
from tests.support.databases import SERVER_ENV

# One process's benches share the machine: they run for fixed, short durations and check only
# that their figures are sane (every move delivered, round trips under 5 s), which holds beside
# other tests. Several processes' benches stay `serial`: their leases are a fraction of a second
# (as the cluster tests whose leases are, docs/testing.md "Parallel and serial").
pytestmark = [pytest.mark.live]
several_processes = pytest.mark.serial


@pytest.mark.own_servers  # one process on a SQLite file of its own, whatever the pass
@pytest.mark.parametrize("client", ["socketio", "lean"])
def test_single_game_bench_reports_sane_figures(client):
    report = load.main(["--scenario", "single", "--duration", "1", "--drain", "0.5",
                        "--client", client])

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


@pytest.mark.own_servers  # one process on a SQLite file of its own, whatever the pass
def test_throughput_bench_plays_the_relay_and_gobang_in_turns():
    report = load.main(["--scenario", "throughput", "--games", "4", "--duration", "1",
                        "--rounds", "2", "--drain", "0.5"])

    for kind in ("relay", "app"):
        figures = report[kind]
        assert figures["errors"] == 0, figures["error_samples"]
        assert figures["server_log_tracebacks"] == 0
        assert figures["moves_delivered"] == figures["moves_sent"] > 10
        assert len(figures["moves_per_s_by_turn"]) == figures["turns"] == 2
        assert all(rate > 0 for rate in figures["moves_per_s_by_turn"])
        assert figures["server_cpu_ms_per_move"] > 0
    assert report["ratio_moves_per_s"] > 0


@pytest.mark.parametrize(("every", "last_move_at", "now", "delay"), [
    (0.0, None, 9.0, 1.0),  # before the first window: wait for it
    (0.0, None, 10.5, 0.0),  # inside a window: at once
    (0.0, None, 11.2, 0.8),  # between windows: wait for the next
    (0.0, None, 14.0, 0.0),  # after the last: the run's deadline decides
    (1.0, 9.6, 10.4, 0.2),  # the pace's own wait, inside the window
    (1.0, 10.4, 10.5, 1.5),  # the pace's own wait ends between windows
])
def test_a_pace_with_windows_holds_moves_until_the_next_one(every, last_move_at, now, delay):
    pace = Pace(every)
    pace.play_only_in([(12.0, 13.0), (10.0, 11.0)])
    assert pace.delay(last_move_at, now) == pytest.approx(delay)


def test_an_arena_wait_counts_from_when_someone_the_player_may_meet_is_free_too():
    free = [Free("ann", 10.0, 13.0, "ben", True), Free("ben", 10.0, 14.0, "ann", True),
            Free("cyd", 12.0, 13.0, "dan", True),
            Free("eve", 9.0, 14.5, "ann", True)]  # she played ann before ann played ben

    # ann meets neither ben nor eve, who just played her: cyd from 12. ben may meet eve.
    assert with_partner(free[:3], free) == [1.0, 4.0, 1.0]


@pytest.mark.own_servers  # one process on a SQLite file of its own, whatever the pass
def test_computer_bench_reports_the_computers_replies_beside_the_human_games():
    # Level 1 answered 0.3-0.4 s after each move on a quiet machine: a drain of 5 s (the
    # scenario's least at level 1 is its backstop + 4 s) still waits for a reply ten times slower.
    report = load.main(["--scenario", "computer", "--computer-games", "2", "--computer-level",
                        "1", "--games", "2", "--duration", "3", "--drain", "5", "--no-relay"])

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


@pytest.mark.own_servers  # one process on a SQLite file of its own, whatever the pass
def test_analysis_bench_reports_analyses_finished_beside_the_games():
    report = load.main(["--scenario", "analysis", "--games", "2", "--analyses", "1",
                        "--analysis-moves", "12", "--duration", "3", "--drain", "0.5"])

    people = report["app"]
    assert people["errors"] == 0, people["error_samples"]
    assert people["server_log_tracebacks"] == 0
    assert people["moves_delivered"] == people["moves_sent"] >= 4
    analyses = people["analyses"]
    assert "error" not in analyses, analyses["error"]
    assert (analyses["failed"], analyses["refused"]) == (0, [])
    assert analyses["done"] >= 1
    assert 0 < analyses["seconds_p50"] <= analyses["seconds_max"]
    assert 0 < analyses["at_once_mean"] <= 1


def assert_sane_arena(arena: dict, players: int) -> None:
    """Everyone joined and was paired at the start and again after their games; every move
    reached both players; every game ended in the window was counted in the standings."""
    assert arena["errors"] == 0, arena["error_samples"]
    assert arena["server_log_tracebacks"] == 0, arena["server_log_traceback_samples"]
    assert arena["joined"] == arena["joined_before_start"] == players
    pairing = arena["pairing"]
    assert pairing["first_pairing"]["paired"] == players
    assert pairing["pairings"] >= players
    waits = pairing["wait_with_partner_s"]
    assert 0 <= waits["p50"] <= waits["p99"] <= waits["max"] < 5
    assert pairing["wait_s"]["max"] >= waits["max"]
    assert arena["moves_delivered"] == arena["moves_echoed"] == arena["moves_sent"] > 0
    assert 0 < arena["rtt_ms"]["p50"] <= arena["rtt_ms"]["p99"] < 5000
    standings = arena["standings"]
    # At least the first round's games end in the window (10-30 stones, a think of at most
    # --every a move: 1.5 s of one process's 3.5 s, 3 s of two processes' 5 s); how many more
    # do depends on who is free when, with no one paired twice running.
    assert standings["games_counted"] == arena["games_ended"] >= players // 2
    assert 0 <= standings["fresh_s"]["p50"] <= standings["fresh_s"]["max"] < 5
    assert standings["started_at_s"] is not None


@pytest.mark.own_servers  # one process on a SQLite file of its own, whatever the pass
def test_arena_bench_pairs_its_players_game_after_game_and_the_standings_follow():
    report = load.main(["--scenario", "arena", "--players", "6", "--duration", "3.5",
                        "--every", "0.05", "--drain", "2"])

    assert_sane_arena(report["app"], 6)


def needs_postgres():
    """Several processes need PostgreSQL (.ci/with-postgres), as tests/cluster do."""
    if not os.environ.get(SERVER_ENV):
        message = "several processes need PostgreSQL: run under .ci/with-postgres"
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(message)
        pytest.skip(message)


@several_processes
def test_single_game_bench_on_two_processes_reports_both_round_trips():
    needs_postgres()
    report = load.main(["--scenario", "single", "--processes", "2", "--duration", "1.5",
                        "--drain", "0.5"])

    cluster = report["cluster"]
    assert (cluster["processes"], len(cluster["process_rss_mb"])) == (2, 2)
    assert cluster["errors"] == 0, cluster["error_samples"]
    assert cluster["server_log_tracebacks"] == 0
    assert cluster["moves_delivered"] == cluster["moves_sent"] > 10
    assert report["app"]["moves_delivered"] == report["app"]["moves_sent"] > 10
    assert set(report["cluster_minus_single_rtt_ms"]) == {"p50", "p99"}


@several_processes
@pytest.mark.parametrize("client", ["socketio", "lean"])
def test_games_on_two_processes_follow_moved_and_deliver_every_move(client):
    needs_postgres()
    report = load.main(["--scenario", "thousand", "--processes", "2", "--games", "6",
                        "--every", "0.2", "--workers", "1", "--duration", "1", "--drain", "1",
                        "--client", client])

    cluster = report["cluster"]
    assert cluster["errors"] == 0, cluster["error_samples"]
    assert cluster["moves_delivered"] == cluster["moves_sent"] >= 6 * 2


@several_processes
def test_matching_on_two_processes_pairs_everyone_once():
    needs_postgres()
    report = load.main(["--scenario", "matching", "--processes", "2", "--players", "12",
                        "--workers", "1"])

    matching = report["app"]
    assert matching["errors"] == 0, matching["error_samples"]
    assert (matching["matched"], matching["games_with_two_players"]) == (12, 6)
    assert matching["users_in_two_games"] == 0


@several_processes
def test_idle_hall_on_two_processes_reports_memory_and_fresh_views():
    needs_postgres()
    report = load.main(["--scenario", "idle", "--processes", "2", "--connections", "20",
                        "--workers", "1", "--duration", "1", "--settle", "2"])

    idle = report["app"]
    assert idle["errors"] == 0, idle["error_samples"]
    assert len(idle["process_rss_mb"]) == 2
    arrivals = idle["after_arrivals"]
    assert arrivals["clients_matching"] == arrivals["clients_checked"] == 20


@pytest.mark.own_servers  # one process on a SQLite file of its own, whatever the pass
def test_idle_hall_on_one_process_holds_its_connections_and_their_copies_follow_the_churn():
    report = load.main(["--scenario", "idle", "--connections", "80", "--workers", "1",
                        "--duration", "0.5", "--settle", "3", "--changes-per-second", "4",
                        "--churn", "2"])

    idle = report["app"]
    assert idle["errors"] == 0, idle["error_samples"]
    assert idle["still_open_at_end"] == 80
    assert idle["server_log_tracebacks"] == 0, idle["server_log_traceback_samples"]
    churn = idle["after_churn"]
    assert churn["changes"] > 0
    assert churn["clients_matching"] == churn["clients_checked"] == 80
    assert churn["server_seq"] > idle["after_arrivals"]["server_seq"]


@several_processes
def test_failover_bench_kills_the_owner_and_loses_no_acknowledged_move():
    needs_postgres()
    report = cluster_bench.main(["failover", "--runs", "1"])

    assert report["runs"] == 1
    assert (report["acked_moves_lost"], report["database_short"]) == (0, 0)
    assert report["moved_elsewhere"] == 1
    assert 0 < report["moving_again_s"]["p50"] <= report["moving_again_s"]["max"] < 30
    assert report["server_log_tracebacks"] == 0


@several_processes
def test_arena_bench_on_two_processes_pairs_game_after_game():
    needs_postgres()
    report = load.main(["--scenario", "arena", "--processes", "2", "--players", "6",
                        "--duration", "5", "--every", "0.1", "--drain", "1"])

    assert report["app"]["processes"] == 2
    assert_sane_arena(report["app"], 6)
