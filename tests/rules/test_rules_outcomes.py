"""Board outcomes: fives in every direction and at the edges, overlines per ruleset, draws."""

import dataclasses

import pytest

from gobang.rules import RULESETS, Board, Game, Outcome, outcome_after

# (id, first point, step): five points starting at `first`, walking by `step`.
LINES = [
    ("horizontal-top-left-corner", (0, 0), (0, 1)),
    ("horizontal-bottom-right-corner", (14, 10), (0, 1)),
    ("horizontal-middle", (7, 5), (0, 1)),
    ("vertical-top-right-corner", (0, 14), (1, 0)),
    ("vertical-bottom-left-corner", (10, 0), (1, 0)),
    ("vertical-middle", (4, 7), (1, 0)),
    ("diagonal-from-top-left-corner", (0, 0), (1, 1)),
    ("diagonal-to-bottom-right-corner", (10, 10), (1, 1)),
    ("diagonal-off-centre", (3, 8), (1, 1)),
    ("anti-diagonal-from-top-right-corner", (0, 14), (1, -1)),
    ("anti-diagonal-to-bottom-left-corner", (10, 4), (1, -1)),
    ("anti-diagonal-off-centre", (5, 9), (1, -1)),
]
LINE_PARAMS = [pytest.param(first, step, id=name) for name, first, step in LINES]


def points(first: tuple[int, int], step: tuple[int, int], n: int = 5) -> list[tuple[int, int]]:
    return [(first[0] + k * step[0], first[1] + k * step[1]) for k in range(n)]


def board_with(stones: list[tuple[int, int]], color: str) -> Board:
    board = Board()
    for row, col in stones:
        board.put(row, col, color)
    return board


def play(winner_points: list[tuple[int, int]], winner: str, ruleset: str) -> Game:
    """Play ``winner_points`` in order for ``winner``; the other side answers on every
    other point of rows far from them (X.X.X... makes no shape)."""
    taken = set(winner_points)
    rows = [r for r in range(15) if all(abs(r - p[0]) > 1 for p in taken)]
    filler = [(r, c) for r in rows for c in range(0, 15, 2)]
    game = Game(ruleset)
    if winner == "white":
        game.place(*filler.pop())
    for k, point in enumerate(winner_points):
        game.place(*point)
        if k < len(winner_points) - 1:
            game.place(*filler.pop())
    return game


@pytest.mark.parametrize("last", [0, 2, 4], ids=["end", "middle", "other-end"])
@pytest.mark.parametrize(("first", "step"), LINE_PARAMS)
def test_five_wins_in_every_direction_and_at_edges(
    first: tuple[int, int], step: tuple[int, int], last: int
) -> None:
    line = points(first, step)
    board = board_with([p for k, p in enumerate(line) if k != last], "black")
    assert outcome_after(board, *line[last], "black", "freestyle") == "black_win"


@pytest.mark.parametrize(("first", "step"), LINE_PARAMS)
def test_four_in_a_row_does_not_win(first: tuple[int, int], step: tuple[int, int]) -> None:
    line = points(first, step)
    board = board_with(line[:3], "white")
    assert outcome_after(board, *line[3], "white", "freestyle") == "none"


@pytest.mark.parametrize(("first", "step"), LINE_PARAMS)
def test_five_broken_by_an_opponent_stone_does_not_win(
    first: tuple[int, int], step: tuple[int, int]
) -> None:
    line = points(first, step)
    board = board_with(line[:2] + line[3:4], "black")
    board.put(*line[2], "white")
    assert outcome_after(board, *line[4], "black", "freestyle") == "none"


@pytest.mark.parametrize(("first", "step"), LINE_PARAMS)
def test_winning_line_is_reported_end_to_end(first: tuple[int, int], step: tuple[int, int]) -> None:
    line = points(first, step)
    # Finish in the middle so the line has to be gathered from both sides.
    game = play(line[:2] + line[3:] + line[2:3], "black", "freestyle")
    assert game.outcome == Outcome("black", "five", tuple(sorted(line)))
    assert game.outcome.line in (tuple(line), tuple(reversed(line)))


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("color", ["black", "white"])
def test_exact_five_wins_in_every_ruleset(ruleset: str, color: str) -> None:
    line = points((7, 3), (1, 1))
    board = board_with(line[:4], color)
    assert outcome_after(board, *line[4], color, ruleset) == f"{color}_win"


@pytest.mark.parametrize(
    ("ruleset", "color", "expected"),
    [
        ("freestyle", "black", "black_win"),
        ("freestyle", "white", "white_win"),
        ("standard", "black", "none"),
        ("standard", "white", "none"),
        ("renju", "black", "none"),  # forbidden for black; Game.place refuses it
        ("renju", "white", "white_win"),
    ],
)
def test_overline_result_per_ruleset(ruleset: str, color: str, expected: str) -> None:
    line = points((7, 2), (0, 1), 6)
    board = board_with(line[:2] + line[3:], color)
    assert outcome_after(board, *line[2], color, ruleset) == expected


@pytest.mark.parametrize(("ruleset", "winner"), [("freestyle", "black"), ("renju", "white")])
def test_overline_win_reports_every_stone(ruleset: str, winner: str) -> None:
    line = points((2, 4), (1, 0), 7)
    game = play(line[:3] + line[4:] + line[3:4], winner, ruleset)
    assert game.outcome == Outcome(winner, "five", tuple(line))


def test_overline_does_not_end_standard_game() -> None:
    line = points((2, 4), (1, 0), 6)
    game = play(line[:2] + line[3:] + line[2:3], "black", "standard")
    assert game.outcome is None
    assert game.to_move == "white"


def test_overline_with_a_five_elsewhere_wins_in_standard() -> None:
    across = points((7, 3), (0, 1))
    down = [(r, 7) for r in (4, 5, 6, 8, 9)]
    board = board_with(across[:4] + down, "black")
    assert outcome_after(board, 7, 7, "black", "standard") == "black_win"


# Full board with no five anywhere: colour by (col + 2*row) mod 4, giving runs of at most
# two across and on both diagonals and alternating stones down; 113 black, 112 white.
FULL_ROWS = [
    "".join("X" if (c + 2 * r) % 4 in (0, 1) else "O" for c in range(15)) for r in range(15)
]
LAST = (7, 7)  # a black point


def almost_full_board() -> Board:
    board = Board.from_rows(FULL_ROWS)
    board.remove(*LAST)
    return board


@pytest.mark.parametrize("ruleset", RULESETS)
def test_filling_the_board_without_five_is_a_draw(ruleset: str) -> None:
    assert outcome_after(almost_full_board(), *LAST, "black", ruleset) == "draw"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_game_ends_in_draw_on_full_board(ruleset: str) -> None:
    board = Board.from_rows(FULL_ROWS)
    blacks = [p for p in board.stones("black") if p != LAST] + [LAST]
    whites = board.stones("white")
    moves = [p for pair in zip(blacks, whites, strict=False) for p in pair] + [LAST]
    game = Game.replay(moves, ruleset)
    assert game.outcome == Outcome(None, "board_full", None)
    assert game.to_move is None
    assert game.board == board


def test_outcome_after_does_not_modify_board() -> None:
    board = almost_full_board()
    outcome_after(board, *LAST, "black", "freestyle")
    assert board == almost_full_board()
    assert board.stone_count == 224


@pytest.mark.parametrize(
    ("outcome", "result"),
    [
        (Outcome("black", "five", ((0, 0),)), "black_win"),
        (Outcome("white", "five", ((0, 0),)), "white_win"),
        (Outcome(None, "board_full", None), "draw"),
    ],
)
def test_outcome_result_names_the_result(outcome: Outcome, result: str) -> None:
    assert outcome.result == result


def test_outcome_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Outcome(None, "board_full", None).winner = "black"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ((7, 7, "black", "gomoku"), ValueError),
        ((7, 7, "green", "freestyle"), ValueError),
        ((15, 7, "black", "freestyle"), ValueError),
    ],
    ids=["unknown-ruleset", "unknown-colour", "off-board"],
)
def test_outcome_after_rejects_bad_arguments(args: tuple, error: type) -> None:
    with pytest.raises(error):
        outcome_after(Board(), *args)


def test_outcome_after_rejects_occupied_point() -> None:
    board = board_with([(7, 7)], "white")
    with pytest.raises(ValueError):
        outcome_after(board, 7, 7, "black", "freestyle")
