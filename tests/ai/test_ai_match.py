"""The match harness: openings, schedule, rating arithmetic, and a resumable run."""

from __future__ import annotations

import json
import random

import pytest

from bench import ai_match
from gobang.rules import Game


def test_openings_are_distinct_legal_and_undecided():
    assert len(ai_match.OPENINGS) == 22
    assert len(set(ai_match.OPENINGS)) == 22
    for opening in ai_match.OPENINGS:
        game = Game.replay(opening, "renju")
        assert not game.is_over and game.to_move == "white"
        assert max(abs(r - 7) for r, _ in opening) <= 2 and max(abs(c - 7) for _, c in opening) <= 2


def test_the_wide_openings_are_legal_undecided_and_none_of_the_standard_ones():
    wide = ai_match.OPENING_SETS["wide"]
    assert len(set(wide)) == len(wide) == 22
    assert not set(wide) & set(ai_match.OPENINGS)
    for opening in wide:
        game = Game.replay(opening, "renju")
        assert not game.is_over and game.to_move == "white"


def test_a_game_from_another_opening_set_has_a_key_of_its_own():
    standard = ai_match.schedule([("1", "2")], ["freestyle"], games=2)
    wide = ai_match.schedule([("1", "2")], ["freestyle"], games=2, openings="wide")
    assert {s.key for s in standard}.isdisjoint(s.key for s in wide)
    assert standard[0].key == "freestyle|1|2|0|1|0"  # the keys of files recorded before
    assert wide[0].stones == ai_match.OPENING_SETS["wide"][0]


def test_schedule_plays_each_opening_twice_with_colours_swapped():
    specs = ai_match.schedule([("1", "2")], ["freestyle", "renju"], games=6)
    assert len(specs) == 12
    freestyle = [s for s in specs if s.ruleset == "freestyle"]
    assert [(s.opening, s.a_black) for s in freestyle] == [
        (0, True),
        (0, False),
        (1, True),
        (1, False),
        (2, True),
        (2, False),
    ]
    assert len({s.key for s in specs}) == 12


@pytest.mark.parametrize(
    ("score", "elo"), [(0.5, 0), (0.76, 200), (0.24, -200), (0.91, 400), (0.64, 100)]
)
def test_elo_difference_of_a_mean_score(score, elo):
    assert ai_match.elo_difference(score) == pytest.approx(elo, abs=3)


def test_pair_summary_counts_and_brackets_the_estimate():
    summary = ai_match.pair_summary([1.0] * 30 + [0.5] * 10 + [0.0] * 10)
    assert (summary["games"], summary["w"], summary["d"], summary["l"]) == (50, 30, 10, 10)
    assert summary["score"] == 0.7
    low, high = summary["elo_95"]
    assert low < summary["elo"] < high
    assert 0 < low and high < 400


def test_pair_summary_of_a_clean_sweep_still_has_a_wide_interval():
    low, high = ai_match.pair_summary([1.0, 1.0])["elo_95"]
    assert low < 100 < 400 < high


def test_bradley_terry_recovers_the_strengths_that_made_the_games():
    rng = random.Random(1)
    true = {"1": 0.0, "2": 150.0, "3": 350.0}
    games = []
    for a, b in (("1", "2"), ("2", "3"), ("1", "3")):
        expected = 1 / (1 + 10 ** ((true[b] - true[a]) / 400))
        games += [(a, b, float(rng.random() < expected)) for _ in range(600)]
    ratings = ai_match.bradley_terry(games, anchor="1")
    assert ratings["1"] == (0.0, 0.0)
    for player in ("2", "3"):
        elo, error = ratings[player]
        assert 0 < error < 40
        assert abs(elo - true[player]) < 3 * error


def test_bradley_terry_stays_finite_when_one_side_wins_everything():
    ratings = ai_match.bradley_terry([("1", "2", 0.0)] * 20, anchor="1")
    elo, error = ratings["2"]
    assert 300 < elo < 2000 and error > 0


@pytest.mark.parametrize("text", ["1", "1-", "-2", "1-2,3"])
def test_a_malformed_pair_is_refused(text):
    with pytest.raises(Exception, match="A-B"):
        ai_match.parse_pairs(text)


@pytest.mark.slow
def test_a_run_appends_each_game_and_skips_recorded_ones_when_resumed(tmp_path):
    out = tmp_path / "results.jsonl"
    argv = ["--pairs", "1-2", "--rulesets", "freestyle", "--games", "2", "--out", str(out)]
    first = ai_match.main(argv)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 2
    assert {r["a_black"] for r in records} == {True, False}
    assert all(r["fallbacks"] == {"a": 0, "b": 0} for r in records)
    assert first["freestyle"]["pairs"]["2 vs 1"]["games"] == 2
    assert first["freestyle"]["cpu_ms_per_move"]["1"]["moves"] > 0

    again = ai_match.main(argv)
    assert len(out.read_text().splitlines()) == 2
    assert again["freestyle"]["pairs"] == first["freestyle"]["pairs"]
