"""What each level can be relied on to see, on positions checked by the rules engine."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from bench.ai_tactics import BASE, load_generated, solves, suite, symmetric, verify
from gobang.ai import LEVELS, TOP_LEVEL, BuiltinPlayer
from gobang.rules import RULESETS, Game

HAND_MADE = [symmetric(t, k) for t in BASE for k in range(8)]


def still() -> float:
    """A clock that never moves: only the levels' node caps limit the search, so these
    tests give the same answer on an idle machine and on a busy one."""
    return 0.0


def ids(tactics):
    return [t.name for t in tactics]


def each_tactic(tactics):
    """Parametrize a test over ``tactics``, named by position."""
    tactics = list(tactics)
    return pytest.mark.parametrize("tactic", tactics, ids=ids(tactics))


def game_from_rows(rows: list[str], ruleset: str) -> Game:
    """A game whose board is ``rows`` (X black, O white); black and white stones are
    interleaved in reading order, so the side to move follows from the counts."""
    blacks = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X"]
    whites = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "O"]
    moves = [blacks[k // 2] if k % 2 == 0 else whites[k // 2] for k in range(len(blacks + whites))]
    return Game.replay(moves, ruleset)


def rows(*marked: str) -> list[str]:
    """15 rows: the given ones on top, padded with empty rows."""
    return [m.ljust(15, ".") for m in marked] + ["." * 15] * (15 - len(marked))


# Black to move in all three; lines are row 0 (top) to row 4.
OWN_FOUR = rows("OXXXX.", "", "", "O.....O", "O")
THEIR_FOUR = rows("", ".OOOO.X", "X", "", "X......X")  # white's open four: one end must go
BOTH_FOURS = rows("XXXX.", "OOOO.", "", "O", "X")


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("number", [1, 2, TOP_LEVEL])
def test_every_level_completes_its_own_five(ruleset, number):
    game = game_from_rows(OWN_FOUR, ruleset)
    assert BuiltinPlayer(number, random.Random(number))(game) == (0, 5)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seed", range(5))
def test_level_1_blocks_an_open_four(ruleset, seed):
    game = game_from_rows(THEIR_FOUR, ruleset)
    assert BuiltinPlayer(1, random.Random(seed))(game) in {(1, 0), (1, 5)}


@pytest.mark.parametrize("seed", range(5))
def test_level_1_takes_its_five_before_blocking(seed):
    game = game_from_rows(BOTH_FOURS, "freestyle")
    assert BuiltinPlayer(1, random.Random(seed))(game) == (0, 4)


@each_tactic(suite())
def test_suite_line_is_a_win_by_the_rules(tactic):
    verify(tactic)


@each_tactic(t for t in HAND_MADE if t.kind == "vcf")
@pytest.mark.parametrize("number", [3, TOP_LEVEL])
def test_level_3_and_up_win_a_vcf_position(tactic, number):
    assert solves(tactic, number, defender=2, clock=still)


@each_tactic(t for t in HAND_MADE if t.kind == "forbidden")
@pytest.mark.parametrize("number", [3, TOP_LEVEL])
def test_white_wins_when_blacks_only_block_is_forbidden(tactic, number):
    assert solves(tactic, number, defender=TOP_LEVEL, clock=still)


@pytest.mark.slow
@each_tactic(load_generated())
def test_top_level_solves_generated_positions(tactic):
    # Level 5 is the depth-2 search (level 4 before the 2026-12-02 table moved it up one).
    assert solves(tactic, TOP_LEVEL, defender=5, clock=still)


def test_levels_grow_in_budget_and_stay_within_four_seconds():
    numbers = sorted(LEVELS)
    assert numbers == list(range(1, 10))
    for low, high in zip(numbers, numbers[1:], strict=False):
        a, b = LEVELS[low], LEVELS[high]
        assert b.nodes >= a.nodes and b.seconds >= a.seconds and b.depth >= a.depth
        assert b.noise <= a.noise
    assert LEVELS[TOP_LEVEL].seconds < 4
    assert {f.name for f in fields(LEVELS[1])} >= {"nodes", "seconds", "depth", "vcf", "vct"}


@pytest.mark.parametrize("number", [1, 4])
def test_the_same_seed_replays_the_same_game(number):
    def play(seed: int) -> list[tuple[int, int]]:
        game = Game("freestyle")
        players = [
            BuiltinPlayer(number, random.Random(seed)),
            BuiltinPlayer(1, random.Random(seed)),
        ]
        while not game.is_over and len(game.moves) < 30:
            game.place(*players[len(game.moves) % 2](game))
        return game.moves

    assert play(3) == play(3)
