"""How many computer games are admitted: the games' loads, c / (c + think), must fit in the
workers, c being the level's expected engine seconds per move (docs/engines.md, Capacity)."""

from __future__ import annotations

import pytest

from gobang.ai import LEVELS
from gobang.services.computer.capacity import EXPECTED_SECONDS, admits, games_that_fit, load
from gobang.services.computer.engines import EngineSettings


def settings(workers: int = 1, think: float = 8.0, per_worker: int = 25,
             **options) -> EngineSettings:
    return EngineSettings(workers=workers, games_per_worker=per_worker,
                          think_seconds=think, **options)


@pytest.mark.parametrize(("workers", "think", "number", "games"), [
    (1, 8.0, 8, 21),    # 0.4 s a move: 0.4 / 8.4 = 0.048 of a worker each
    (1, 8.0, 9, 17),    # 0.5 / 8.5 = 0.059
    (1, 8.0, 7, 25),    # 0.08 / 8.08 = 0.010: the count cap (25 a worker) decides
    (3, 8.0, 8, 63),
    (1, 4.0, 8, 11),    # quicker players, fewer games: 0.4 / 4.4 = 0.091
    (1, 1.0, 7, 13),    # 0.08 / 1.08 = 0.074
    (1, 8.0, 5, 25),    # cheap levels: the count cap (25 a worker) decides
    (2, 8.0, 1, 50),
    (1, 0.0, 8, 1),     # players answering at once: a game keeps a worker busy
    (1, 0.0, 1, 1),
])
def test_games_that_fit_at_one_level(workers, think, number, games):
    assert games_that_fit(number, settings(workers, think)) == games


def test_an_external_engine_counts_its_whole_turn_limit():
    external = settings(think=5.0, command=("pbrain",),
                        level_options={8: {"timeout_turn": "5000"}})
    assert load(8, external) == pytest.approx(0.5)
    assert games_that_fit(8, external) == 2


def test_a_level_8_game_is_refused_where_a_level_1_game_still_fits():
    found = settings()
    in_play = [8] * 20 + [7]  # 20 x 0.048 + 0.010 = 0.962 of the one worker
    assert not admits(in_play, 8, found)
    assert admits(in_play, 1, found)


def test_every_level_has_its_expected_seconds():
    assert set(EXPECTED_SECONDS) == set(LEVELS)
