"""An hour's arena of 200 players on a clock moved by hand: a pairing tick every 2 seconds,
games of random lengths and results drawn from the ratings by a seeded random source, a
few players pausing and coming back. After every tick: nobody free is left waiting while
another free player they may meet is waiting too, and no two players meet twice in a row."""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field

import pytest

from gobang.services.tournaments.arena import ArenaGame, ArenaStanding, standings
from gobang.services.tournaments.arena_event import Arena, ArenaBoard
from tests.support.clock import FakeClock

PLAYERS = 200
TICK = 2.0
HOUR = 3600.0


@dataclass
class Log:
    """What the simulation saw, for the tests to read."""

    boards: list[ArenaBoard] = field(default_factory=list)
    left_waiting: list[tuple[float, set[int]]] = field(default_factory=list)  # after ticks
    finished: list[tuple[ArenaGame, bool]] = field(default_factory=list)  # and counted
    last_opponents: list[dict[int, int]] = field(default_factory=list)  # as at each tick
    ratings: dict[int, int] = field(default_factory=dict)
    counted: list[ArenaGame] = field(default_factory=list)  # the arena's, at the end
    standings: list[ArenaStanding] = field(default_factory=list)  # the arena's, at the end


def result(rng: random.Random, board: ArenaBoard, ratings: dict[int, int]) -> ArenaGame:
    expected = 1 / (1 + 10 ** ((ratings[board.white] - ratings[board.black]) / 400))
    roll = rng.random()
    winner = None if roll < 0.08 else board.black if rng.random() < expected else board.white
    berserk = frozenset(player for player in (board.black, board.white)
                        if rng.random() < 0.1)
    return ArenaGame(board.black, board.white, winner, rng.randint(9, 120), board.started_at,
                     berserk)


def simulate(seed: int) -> Log:
    rng = random.Random(seed)
    clock = FakeClock(start=0.0)
    arena = Arena(0.0, HOUR, clock, random.Random(seed + 1))
    ratings = {player: rng.randint(800, 2600) for player in range(PLAYERS)}
    for player, rating in ratings.items():
        arena.join(player, rating)
    log, ends = Log(), []  # ends: a heap of (time, order, board)
    last: dict[int, int] = {}
    while clock() < HOUR or ends:
        while ends and ends[0][0] <= clock():
            _, _, board = heapq.heappop(ends)
            game = result(rng, board, ratings)
            log.finished.append((game, arena.finish(game)))
            last[board.black], last[board.white] = board.white, board.black
        if rng.random() < 0.05:  # someone steps away, or comes back
            player = rng.randrange(PLAYERS)
            arena.join(player, 0) if player in arena.paused else arena.pause(player)
        for board in arena.pair():
            log.boards.append(board)
            heapq.heappush(ends, (clock() + rng.uniform(20, 400), len(log.boards), board))
        log.left_waiting.append((clock(), arena.waiting()))
        log.last_opponents.append(dict(last))
        clock.advance(TICK)
    log.ratings, log.counted, log.standings = ratings, arena.games, arena.standings()
    return log


@pytest.fixture(scope="module", params=[11, 12], ids=lambda seed: f"seed{seed}")
def log(request) -> Log:
    return simulate(request.param)


def test_after_each_tick_no_two_waiting_players_could_have_been_paired(log):
    for (now, waiting), last in zip(log.left_waiting, log.last_opponents, strict=True):
        if now >= HOUR:
            continue
        for player in waiting:
            for other in waiting - {player}:
                assert last.get(player) == other or last.get(other) == player, (now, waiting)


def test_the_waiting_after_a_tick_are_few(log):
    # A guard on the check above: it reads something only if players do wait sometimes,
    # and a pairing that paired nobody would fail here.
    during = [len(waiting) for now, waiting in log.left_waiting if now < HOUR]
    assert max(during) <= 2
    assert any(during)


def test_nobody_meets_the_same_opponent_twice_in_a_row(log):
    opponents: dict[int, list[int]] = {}
    for board in log.boards:
        opponents.setdefault(board.black, []).append(board.white)
        opponents.setdefault(board.white, []).append(board.black)
    assert len(opponents) == PLAYERS
    for player, row in opponents.items():
        assert all(first != second for first, second in zip(row, row[1:], strict=False)), player


def test_every_game_started_in_the_hour_counts_even_if_it_ends_after(log):
    late = [game for game, _ in log.finished if game.started_at < HOUR]
    assert all(counted for _, counted in log.finished)
    assert len(late) == len(log.boards)
    assert max(board.started_at for board in log.boards) < HOUR


def test_the_arena_s_running_standings_are_those_computed_from_its_games(log):
    assert log.standings == standings(log.ratings, log.counted)


def test_nobody_plays_two_games_at_once(log):
    busy: dict[int, float] = {}
    ends = {(game.black, game.white, game.started_at): index
            for index, (game, _) in enumerate(log.finished)}
    assert len(ends) == len(log.boards)
    for board in sorted(log.boards, key=lambda b: b.started_at):
        for player in (board.black, board.white):
            assert busy.get(player, -1.0) <= board.started_at
        busy[board.black] = busy[board.white] = board.started_at
