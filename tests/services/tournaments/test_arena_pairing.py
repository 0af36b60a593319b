"""Pairing an arena's free players (arena.pair_free, arena.colours) and the arena's record
(arena_event.Arena) with a clock moved by hand."""

from __future__ import annotations

import random

import pytest

from gobang.rules import BLACK, WHITE
from gobang.services.tournaments.arena import ArenaGame, colours, pair_free
from gobang.services.tournaments.arena_event import Arena
from tests.support.clock import FakeClock

PLACES = {name: place for place, name in enumerate("abcdefgh", start=1)}


def paired(free: str, last: dict[str, str] | None = None) -> set[str]:
    return {"".join(sorted(pair)) for pair in pair_free(free, PLACES, last or {})}


def test_free_players_meet_their_neighbours_in_the_standings():
    assert paired("fbdhace") == {"ab", "cd", "ef"}


def test_a_player_is_not_paired_with_the_opponent_just_played():
    assert paired("abcd", {"a": "b", "b": "a"}) == {"ac", "bd"}


def test_an_opponent_who_has_played_someone_since_is_still_not_met_again_at_once():
    # b's last game was against a; a has played c since: a-b would be b's back-to-back.
    assert paired("abcd", {"a": "c", "c": "a", "b": "a"}) == {"ad", "bc"}


def test_the_only_two_free_players_who_just_met_wait_for_someone_else():
    assert paired("ab", {"a": "b", "b": "a"}) == set()


def test_a_pair_the_nearest_first_pass_misses_is_recovered():
    # Nearest first pairs a-b, then c and d just met: a-c and b-d pair all four.
    assert paired("abcd", {"c": "d", "d": "c"}) == {"ac", "bd"}


def test_an_odd_player_out_is_the_lowest_placed():
    assert paired("abcde") == {"ab", "cd"}


class Coin(random.Random):
    def __init__(self, value: float) -> None:
        super().__init__()
        self.value = value

    def random(self) -> float:
        return self.value


@pytest.mark.parametrize(("history", "black"), [
    ({"a": [BLACK], "b": [WHITE]}, "b"),  # a had black last
    ({"a": [WHITE, BLACK, BLACK], "b": [BLACK, WHITE, BLACK]}, "b"),  # a's run is longer
    ({"a": [WHITE, WHITE], "b": [BLACK, WHITE]}, "a"),  # a's run of whites is longer
    ({"a": [BLACK, WHITE, BLACK], "b": [WHITE, BLACK]}, "b"),  # equal runs; a more blacks
])
def test_black_goes_to_the_player_leaning_less_to_it(history, black):
    assert colours("a", "b", history, Coin(0.0))[0] == black


@pytest.mark.parametrize(("coin", "black"), [(0.2, "a"), (0.8, "b")])
def test_a_coin_decides_between_players_who_lean_alike(coin, black):
    assert colours("a", "b", {}, Coin(coin))[0] == black


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(start=0.0)


@pytest.fixture
def arena(clock: FakeClock) -> Arena:
    arena = Arena(starts_at=10.0, ends_at=3610.0, clock=clock, rng=random.Random(3))
    for name, rating in zip("abcd", [2000, 1900, 1800, 1700], strict=True):
        arena.join(name, rating)
    return arena


def finish(arena: Arena, board, winner: str | None = None, stones: int = 40) -> bool:
    return arena.finish(ArenaGame(board.black, board.white, winner, stones, board.started_at))


def test_nobody_is_paired_before_the_start(arena, clock):
    assert arena.pair() == []


def test_at_the_start_players_are_paired_by_rating(arena, clock):
    clock.advance(10)
    boards = arena.pair()
    assert {frozenset((board.black, board.white)) for board in boards} == {
        frozenset("ab"), frozenset("cd")}
    assert arena.waiting() == set()


def test_a_finished_game_frees_its_players_and_scores(arena, clock):
    clock.advance(10)
    board = arena.pair()[0]
    assert finish(arena, board, winner=board.black)
    assert arena.waiting() == {board.black, board.white}
    assert arena.standings()[0].id == board.black


def test_a_game_that_ends_after_the_end_counts_when_it_started_before(arena, clock):
    clock.advance(3000)
    board = arena.pair()[0]
    clock.advance(1000)
    assert arena.is_over()
    assert finish(arena, board, winner=board.white)
    assert arena.standings()[0].points == 2
    assert arena.pair() == []


def test_a_paused_player_is_not_paired_and_keeps_their_points(arena, clock):
    clock.advance(10)
    board = arena.pair()[0]
    finish(arena, board, winner=board.black)
    arena.pause(board.black)
    assert board.black not in arena.waiting()
    arena.join(board.black, 0)
    assert board.black in arena.waiting()


def test_a_player_who_pauses_during_a_game_is_not_freed_by_its_end(arena, clock):
    clock.advance(10)
    board = arena.pair()[0]
    arena.pause(board.black)
    finish(arena, board, winner=board.black)
    assert arena.waiting() == {board.white}


def test_a_result_for_players_not_playing_here_is_refused(arena, clock):
    with pytest.raises(ValueError, match="not playing"):
        arena.finish(ArenaGame("a", "b", None, 40, 0.0))
