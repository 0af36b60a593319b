"""An arena player's sheet (gobang/services/tournaments/arena.py): lichess's points, fire,
berserk and early draws, on rows of results."""

from __future__ import annotations

import pytest

from gobang.services.tournaments.arena import (
    ArenaGame,
    berserk_clock,
    performance_of,
    result_counts,
    sheet_of,
    standings,
)

LONG = 40  # stones: long enough for berserk's point, too long for an early draw


def game(word: str, number: int) -> ArenaGame:
    """One of "me"'s games written as a word: W, D or L, then "b" if "me" went berserk,
    then the stones placed if not LONG: "Wb13", "D19"."""
    outcome, rest = word[0], word[1:]
    berserk = rest.startswith("b")
    stones = int(rest.lstrip("b") or LONG)
    opponent = f"o{number}"
    winner = {"W": "me", "D": None, "L": opponent}[outcome]
    return ArenaGame("me", opponent, winner, stones, float(number),
                     frozenset({"me"}) if berserk else frozenset())


def row(results: str) -> str:
    games = [game(word, number) for number, word in enumerate(results.split())]
    return sheet_of("me", games).row()


@pytest.mark.parametrize(("results", "marks"), [
    ("W D L", "2 1 0"),
    ("W W W", "2 2 4"),
    ("W W W W W", "2 2 4 4 4"),
    ("L W W W", "0 2 2 4"),
])
def test_after_two_wins_in_a_row_wins_count_double(results, marks):
    assert row(results) == marks


@pytest.mark.parametrize(("results", "marks"), [
    ("W W W L W", "2 2 4 0 2"),
    ("W W W D W W W", "2 2 4 2 2 2 4"),  # a draw on fire counts double, then the fire is out
    ("W L W W", "2 0 2 2"),
])
def test_a_game_not_won_puts_the_fire_out(results, marks):
    assert row(results) == marks


@pytest.mark.parametrize(("results", "marks"), [
    ("D19", "0"), ("D20", "1"),
    ("W W D19 W", "2 2 0 2"),  # no points even on fire, and the fire is out
])
def test_a_draw_of_fewer_than_twenty_stones_scores_nothing(results, marks):
    assert row(results) == marks


def test_an_early_draw_scores_nothing_for_the_opponent_either():
    early = ArenaGame("me", "you", None, 12, 0.0)
    assert sheet_of("you", [early]).row() == "0"


@pytest.mark.parametrize(("results", "marks"), [
    ("Wb", "3"), ("Wb14", "3"),
    ("Wb13", "2"),  # 13 stones: the berserker moving first has placed 7, the other 6
    ("Db", "1"), ("Lb", "0"),
    ("W W Wb", "2 2 5"),  # the berserk point is added, not doubled
])
def test_berserk_adds_a_point_to_a_win_of_at_least_fourteen_stones(results, marks):
    assert row(results) == marks


def test_the_opponent_s_berserk_is_no_point_for_the_winner():
    won = ArenaGame("me", "you", "me", LONG, 0.0, frozenset({"you"}))
    assert sheet_of("me", [won]).row() == "2"


@pytest.mark.parametrize(("results", "on_fire"), [
    ("W", False), ("W W", True), ("W W L", False), ("W W W", True), ("", False)])
def test_a_player_is_on_fire_after_two_wins(results, on_fire):
    games = [game(word, number) for number, word in enumerate(results.split())]
    assert sheet_of("me", games).on_fire is on_fire


def test_the_total_is_the_sum_of_the_marks():
    games = [game(word, number) for number, word in enumerate("W W Wb D L".split())]
    assert sheet_of("me", games).total == 2 + 2 + 5 + 2 + 0


def test_the_performance_is_the_mean_of_opponents_ratings_plus_or_minus_500():
    games = [ArenaGame("me", "q", "me", LONG, 0.0), ArenaGame("r", "me", "r", LONG, 1.0),
             ArenaGame("me", "s", None, LONG, 2.0)]
    ratings = {"me": 1500, "q": 1500, "r": 1600, "s": 1700}
    assert performance_of("me", games, ratings) == round((2000 + 1100 + 1700) / 3)


def test_standings_put_more_points_first_whatever_the_performance():
    # a: 2 points, performance 1500; d: 1 point, performance 2500 (a draw with b).
    ratings = {"a": 1500, "b": 2500, "c": 1000, "d": 1000}
    games = [ArenaGame("a", "c", "a", LONG, 0.0), ArenaGame("b", "d", None, LONG, 0.0)]
    assert [row.id for row in standings(ratings, games)] == ["a", "d", "b", "c"]


def test_equal_points_are_split_by_performance():
    # Both won once: a against 1800 (performance 2300), b against 1000 (1500).
    ratings = {"a": 1200, "b": 2000, "x": 1800, "y": 1000}
    games = [ArenaGame("a", "x", "a", LONG, 0.0), ArenaGame("b", "y", "b", LONG, 0.0)]
    rows = standings(ratings, games)
    assert [(row.id, row.points, row.performance) for row in rows[:2]] == [
        ("a", 2, 2300), ("b", 2, 1500)]


def test_a_player_without_games_is_placed_by_rating_where_others_are_by_performance():
    # All on 0 points: b and a have no games (2000, 1200); x and y drew early, y against
    # x's 1900, x against y's 1000.
    ratings = {"a": 1200, "b": 2000, "x": 1900, "y": 1000}
    games = [ArenaGame("x", "y", None, 12, 0.0)]
    assert [row.id for row in standings(ratings, games)] == ["b", "y", "a", "x"]


@pytest.mark.parametrize(("started_at", "counts"), [(3599.0, True), (3600.0, False),
                                                    (3601.0, False)])
def test_a_game_started_before_the_end_counts_however_late_it_ends(started_at, counts):
    assert result_counts(started_at, ends_at=3600.0) is counts


@pytest.mark.parametrize(("clock", "berserk"), [
    ((180, 0), (90, 0)), ((180, 2), (90, 0)), ((300, 3), (150, 0)),
    ((60, 2), (60, 0)),  # under 40 increments: only the increment goes, as lichess's 1+2
    ((0, 2), None),  # no initial time: no berserk
])
def test_berserk_halves_the_clock_and_drops_the_increment(clock, berserk):
    assert berserk_clock(*clock) == berserk
