"""Property tests: verdicts are invariant under the board's symmetries; replay and
take-back reproduce positions."""

from collections.abc import Callable

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gobang.rules import RULESETS, Board, ForbiddenMove, Game, forbidden_kind, outcome_after

Point = tuple[int, int]
N = 14  # largest coordinate

SYMMETRIES: list[Callable[[int, int], Point]] = [
    lambda r, c: (r, c),
    lambda r, c: (c, N - r),
    lambda r, c: (N - r, N - c),
    lambda r, c: (N - c, r),
    lambda r, c: (r, N - c),
    lambda r, c: (N - r, c),
    lambda r, c: (c, r),
    lambda r, c: (N - c, N - r),
]
SYMMETRY_IDS = [
    "identity",
    "rotate-90",
    "rotate-180",
    "rotate-270",
    "mirror-columns",
    "mirror-rows",
    "transpose",
    "anti-transpose",
]

# Clusters of stones in the middle (black-heavy so renju shapes are common), sometimes
# pushed against an edge so the wall is exercised too.
REGION = st.sampled_from([range(4, 11), range(0, 7), range(8, 15)])


@st.composite
def positions(draw: st.DrawFn) -> tuple[dict[Point, str], Point]:
    rows, cols = draw(REGION), draw(REGION)
    stones = draw(
        st.dictionaries(
            st.tuples(st.sampled_from(rows), st.sampled_from(cols)),
            st.sampled_from("XXXOO"),
            min_size=6,
            max_size=32,
        )
    )
    point = (draw(st.sampled_from(rows)), draw(st.sampled_from(cols)))
    assume(point not in stones)
    return stones, point


def board_of(stones: dict[Point, str], transform: Callable[[int, int], Point]) -> Board:
    grid = [["."] * 15 for _ in range(15)]
    for (r, c), ch in stones.items():
        tr, tc = transform(r, c)
        grid[tr][tc] = ch
    return Board.from_rows("".join(row) for row in grid)


@pytest.mark.parametrize("transform", SYMMETRIES, ids=SYMMETRY_IDS)
@settings(max_examples=60, deadline=None)
@given(positions())
def test_symmetry_never_changes_forbidden_kind(
    transform: Callable[[int, int], Point], position: tuple[dict[Point, str], Point]
) -> None:
    stones, (r, c) = position
    expected = forbidden_kind(board_of(stones, SYMMETRIES[0]), r, c)
    assert forbidden_kind(board_of(stones, transform), *transform(r, c)) == expected


@pytest.mark.parametrize("transform", SYMMETRIES, ids=SYMMETRY_IDS)
@settings(max_examples=60, deadline=None)
@given(positions(), st.sampled_from(["black", "white"]), st.sampled_from(RULESETS))
def test_symmetry_never_changes_outcome_after(
    transform: Callable[[int, int], Point],
    position: tuple[dict[Point, str], Point],
    color: str,
    ruleset: str,
) -> None:
    stones, (r, c) = position
    expected = outcome_after(board_of(stones, SYMMETRIES[0]), r, c, color, ruleset)
    assert outcome_after(board_of(stones, transform), *transform(r, c), color, ruleset) == expected


CENTRE = [(r, c) for r in range(3, 12) for c in range(3, 12)]
EVERYWHERE = [(r, c) for r in range(15) for c in range(15)]


def random_game(ruleset: str, choices: list[int]) -> Game:
    """Play legal moves picked by ``choices`` (mostly in the centre, where fives happen)
    until they run out or the game ends; forbidden renju points are skipped."""
    game = Game(ruleset)
    for choice in choices:
        if game.outcome is not None:
            break
        empty = [p for p in CENTRE if game.board.is_empty(*p)] or [
            p for p in EVERYWHERE if game.board.is_empty(*p)
        ]
        for k in range(len(empty)):
            try:
                game.place(*empty[(choice + k) % len(empty)])
                break
            except ForbiddenMove:
                continue
        else:
            break
    return game


games = st.tuples(
    st.sampled_from(RULESETS), st.lists(st.integers(0, 10_000), min_size=1, max_size=90)
)


@settings(max_examples=80, deadline=None)
@given(games)
def test_replaying_a_legal_game_reproduces_it(game_spec: tuple[str, list[int]]) -> None:
    ruleset, choices = game_spec
    game = random_game(ruleset, choices)
    replayed = Game.replay(game.moves, ruleset)
    assert replayed.board == game.board
    assert replayed.board.to_rows() == game.board.to_rows()
    assert replayed.outcome == game.outcome
    assert replayed.to_move == game.to_move


@settings(max_examples=60, deadline=None)
@given(games, st.integers(1, 90))
def test_take_back_matches_replay_of_the_shorter_game(
    game_spec: tuple[str, list[int]], n: int
) -> None:
    ruleset, choices = game_spec
    game = random_game(ruleset, choices)
    moves = game.moves
    n = min(n, len(moves))
    assert game.undo(n) == moves[len(moves) - n :]
    shorter = Game.replay(moves[: len(moves) - n], ruleset)
    assert game.board == shorter.board
    assert game.board.stone_count == shorter.board.stone_count
    assert game.moves == shorter.moves
    assert game.outcome is None
    assert game.to_move == shorter.to_move
