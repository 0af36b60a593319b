"""The engine pool: few engine processes shared by every computer game, each move answered
within its level's backstop + 1 s of its turn. A stand-in engine (tests/ai/test_ai_adapter.py)
plays; the pool's clock is a fake one moved by hand, and its threads are run by hand."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gobang.rules import Game
from gobang.services.computer.engines import CheapMoves, EnginePool, EngineSettings, Thought
from tests.ai.test_ai_adapter import FAKE_ENGINE
from tests.support.clock import FakeClock


class Pool:
    """An `EnginePool` over the stand-in engine, with its work run by `run`."""

    def __init__(self, tmp_path: Path, mode: str = "good", workers: int = 1) -> None:
        script = tmp_path / "fake_engine.py"
        script.write_text(FAKE_ENGINE)
        self.log = tmp_path / "commands.log"
        self.clock = FakeClock()
        self.pending: list[Callable[[], None]] = []
        settings = EngineSettings(
            workers=workers, games_per_worker=10, nice=0, reply_seconds=1.0,
            command=(sys.executable, str(script), mode, str(tmp_path)))
        self.pool = EnginePool(settings, self.clock, start=self.pending.append)

    def run(self, count: int | None = None) -> None:
        """Run the pending work (`count` pieces, or until there is none)."""
        while self.pending and count != 0:
            self.pending.pop(0)()
            count = None if count is None else count - 1

    def answers(self) -> dict[int, Thought]:
        return {thought.game_id: thought for thought in self.pool.answers()}

    def sent(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []

    def turn_limits(self) -> list[float]:
        return [int(line.rsplit(" ", 1)[1]) / 1000 for line in self.sent()
                if line.startswith("INFO timeout_turn")]


@pytest.fixture
def pools(tmp_path):
    made: list[Pool] = []

    def make(**options) -> Pool:
        made.append(Pool(tmp_path, **options))
        return made[-1]

    yield make
    for pool in made:
        pool.pool.close(wait_seconds=0)
        pool.run()


def test_two_games_share_one_engine_each_answered_at_its_own_position(pools):
    pool = pools()
    first, second = Game.replay([(7, 7)]), Game.replay([(0, 0), (0, 2)])
    pool.pool.think(1, 5, first)
    pool.pool.think(2, 5, second)
    pool.run()
    found = pool.answers()
    assert found[1].moves == ((7, 7),) and found[2].moves == ((0, 0), (0, 2))
    for thought, game in ((found[1], first), (found[2], second)):
        assert thought.move.by_engine
        assert game.board.is_empty(thought.move.row, thought.move.col)
    assert (found[2].move.row, found[2].move.col) == (0, 1)  # the engine saw game 2's stones
    sent = pool.sent()
    assert sent.count("--- start") == 1
    assert sent[sent.index("BOARD"):] == ["BOARD", "0,0,1", "2,0,2", "DONE"]


def test_a_game_waits_for_the_engine_and_is_answered_when_it_is_free(pools):
    pool = pools()
    pool.pool.think(1, 5, Game())
    pool.pool.think(2, 5, Game())
    assert len(pool.pending) == 1  # one engine: the second move waits in the queue
    pool.run(1)
    assert set(pool.answers()) == {1}
    assert pool.pool.thinking(2)
    pool.run()
    assert set(pool.answers()) == {2}


def test_a_move_that_queued_is_given_the_time_left_as_its_turn_limit(pools):
    pool = pools()
    pool.pool.think(1, 8, Game())
    pool.pool.think(2, 8, Game())
    pool.run(1)
    pool.clock.advance(2.0)  # game 2 has waited 2 s of its 3.2 + 1
    pool.run()
    assert pool.turn_limits() == pytest.approx([4.2, 2.2], abs=0.002)
    assert all(t.move.by_engine for t in pool.answers().values())


def test_a_move_queued_until_too_late_comes_from_the_cheap_level_without_the_engine(pools):
    pool = pools()
    pool.pool.think(1, 8, Game.replay([(7, 7)]))  # takes the one engine
    pool.pool.think(2, 1, Game.replay([(3, 3)]))
    pool.clock.advance(0.9)  # level 1: 0.05 + 1 s, 0.15 s left
    assert pool.answers() == {} and len(pool.pending) == 2
    pool.pending.pop()()  # the cheap move, in a thread of its own
    late = pool.answers()[2]
    assert not late.move.by_engine and "no engine free in time" in late.move.problem
    assert Game.replay([(3, 3)]).board.is_empty(late.move.row, late.move.col)
    pool.run()
    assert pool.answers()[1].move.by_engine
    assert "TURN 3,3" not in pool.sent() and "TURN 7,7" in pool.sent()


def test_a_failing_engine_is_covered_at_once_and_restarted_for_the_next_move(pools):
    pool = pools(mode="error")
    pool.pool.think(1, 3, Game.replay([(7, 7)]))
    pool.run(1)
    covered = pool.answers()[1].move
    assert not covered.by_engine and "engine error" in covered.problem
    assert len(pool.pending) == 1  # the built-in fallback starts, for the next failure
    pool.pending.clear()
    pool.pool.think(1, 3, Game.replay([(7, 7), (covered.row, covered.col), (9, 9)]))
    pool.run()
    assert pool.answers()[1].move.by_engine
    assert pool.sent().count("--- start") == 2


def test_engines_are_started_ahead_up_to_one_per_game_and_no_more_than_the_workers(pools):
    pool = pools(workers=2)
    pool.pool.prepare(5, 3)
    engines = list(pool.pending)
    assert len(engines) == 3  # two engines, and the fallback behind them
    pool.pending.clear()
    for work in engines[:2]:
        work()
    assert pool.pool.running() == 2
    assert pool.sent().count("--- start") == 2
    pool.pool.prepare(5, 3)
    assert pool.pending == []


def test_the_cheap_level_keeps_each_games_position_through_moves_and_take_backs():
    cheap = CheapMoves()
    # Black's four on row 7, blocked at 7,2; white has just blocked 7,7 too.
    full = [(7, 3), (7, 2), (7, 4), (0, 0), (7, 5), (0, 2), (7, 6), (7, 7)]
    cheap(Game.replay(full), 1, game_id=1)
    assert Game().board.is_empty(*cheap(Game.replay([(0, 0)]), 1, game_id=2))
    # Taken back: 7,7 is free again, and white must block there.
    assert cheap(Game.replay(full[:-1]), 1, game_id=1) == (7, 7)
