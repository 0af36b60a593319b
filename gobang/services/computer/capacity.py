"""How many games the computer can play at once, from the cores and the games' levels.

A game at level L keeps an engine busy for `move_seconds(L)` each time the computer is to
move, then waits for the person to think (`think_seconds`, on average) before it asks
again: so on average it takes `load(L) = c / (c + think)` of one worker. A new computer game
is admitted while the loads of the games in play, with its own, add up to no more than the
workers (`admits`); at the cheap levels `games_per_worker` caps the count as well (each
game's state and queue entry cost memory, however cheap its moves).

With more load than that the engines would still answer within the levels' backstops (the
wall-clock budget gives queued moves less time, and cheap moves when none is left), but
those answers would be weaker than the level promised: refusing the game is the honest
answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gobang.services.computer.engines import EngineSettings

# The built-in engine's expected seconds per move, per level: the mean CPU per move its
# search took in bench/ai_match.py's run of 2026-12-02 into bench/ai_results-2026-12-02-ladder.jsonl
# (docs/engines.md, "Matches": 0.1 ms, 0.1 ms, 0.4 ms, 2 ms, 5 ms, 19 ms, 72 ms, 367 ms at
# levels 1-8), plus about 5 ms for the pipes and setting up the position, rounded up. Level
# 9 searches level 8's node cap with a leaf that costs twice as much and 12 root moves, not 8:
# in the matches of docs/engines.md, "Level 9" (1 s a move, "A wider root"), its mean CPU per
# move was within 10 % of level 8's, but it met the 0.7-s backstop on 6-12 % of its moves
# against level 8's 0.1-2 %; a quarter more than level 8 covers those moves when the backstop
# is the level's own 3.2 s.
EXPECTED_SECONDS: dict[int, float] = {
    1: 0.01, 2: 0.01, 3: 0.01, 4: 0.01, 5: 0.02, 6: 0.03, 7: 0.08, 8: 0.4, 9: 0.5}


def move_seconds(number: int, settings: EngineSettings) -> float:
    """Expected engine seconds for one move at level `number`. An external engine's are
    not known: its whole turn limit is counted."""
    if settings.command is None:
        return EXPECTED_SECONDS[number]
    return settings.turn_seconds(number)


def load(number: int, settings: EngineSettings) -> float:
    """The share of one worker a game at level `number` keeps busy."""
    cost = move_seconds(number, settings)
    return cost / (cost + settings.think_seconds)


def admits(in_play: Iterable[int], number: int, settings: EngineSettings) -> bool:
    """Whether a game at level `number` fits beside games at the levels `in_play`."""
    levels = [*in_play, number]
    if len(levels) > settings.capacity:
        return False
    # A hair of slack, so that five games of load 0.2 fill one worker despite rounding.
    return sum(load(n, settings) for n in levels) <= settings.workers + 1e-9


def games_that_fit(number: int, settings: EngineSettings) -> int:
    """How many games at level `number` alone the computer admits."""
    count = 0
    while admits([number] * count, number, settings):
        count += 1
    return count

