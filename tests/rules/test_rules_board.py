"""Board construction, access and copying."""

import pytest

from gobang.rules import SIZE, Board, Occupied, OutOfRange

EMPTY_ROWS = ["." * 15] * 15
SAMPLE_ROWS = ["X" + "." * 13 + "O"] + ["." * 15] * 13 + ["O" + "." * 13 + "X"]


def test_new_board_is_empty() -> None:
    board = Board()
    assert board.stone_count == 0
    assert board.to_rows() == EMPTY_ROWS
    assert not board.is_full


def test_from_rows_round_trips_through_to_rows() -> None:
    assert Board.from_rows(SAMPLE_ROWS).to_rows() == SAMPLE_ROWS


@pytest.mark.parametrize(
    ("row", "col", "expected"),
    [(0, 0, "black"), (0, 14, "white"), (14, 0, "white"), (14, 14, "black"), (7, 7, None)],
)
def test_get_reads_corners_top_row_first(row: int, col: int, expected: str | None) -> None:
    assert Board.from_rows(SAMPLE_ROWS).get(row, col) == expected


@pytest.mark.parametrize(("row", "col", "expected"), [(0, 0, False), (7, 7, True)])
def test_is_empty_reports_point(row: int, col: int, expected: bool) -> None:
    assert Board.from_rows(SAMPLE_ROWS).is_empty(row, col) is expected


def test_stone_count_counts_both_colours() -> None:
    assert Board.from_rows(SAMPLE_ROWS).stone_count == 4


def test_stones_lists_points_in_row_major_order() -> None:
    board = Board.from_rows(SAMPLE_ROWS)
    assert board.stones() == [(0, 0), (0, 14), (14, 0), (14, 14)]
    assert board.stones("black") == [(0, 0), (14, 14)]
    assert board.stones("white") == [(0, 14), (14, 0)]


def test_copy_is_independent() -> None:
    board = Board.from_rows(SAMPLE_ROWS)
    clone = board.copy()
    clone.put(7, 7, "black")
    assert board.is_empty(7, 7)
    assert clone.get(7, 7) == "black"
    assert clone.stone_count == board.stone_count + 1


def test_equality_compares_stones() -> None:
    assert Board.from_rows(SAMPLE_ROWS) == Board.from_rows(SAMPLE_ROWS)
    assert Board.from_rows(SAMPLE_ROWS) != Board()


def test_put_then_remove_restores_board() -> None:
    board = Board()
    board.put(3, 4, "white")
    assert board.remove(3, 4) == "white"
    assert board == Board()
    assert board.stone_count == 0


def test_put_on_occupied_point_raises_occupied() -> None:
    board = Board.from_rows(SAMPLE_ROWS)
    with pytest.raises(Occupied):
        board.put(0, 0, "white")


def test_remove_from_empty_point_raises_value_error() -> None:
    with pytest.raises(ValueError):
        Board().remove(7, 7)


@pytest.mark.parametrize("color", ["red", "", None, "Black"])
def test_put_rejects_unknown_colour(color: object) -> None:
    with pytest.raises(ValueError):
        Board().put(7, 7, color)  # type: ignore[arg-type]


@pytest.mark.parametrize(("row", "col"), [(-1, 0), (0, -1), (SIZE, 0), (0, SIZE), (True, 1)])
def test_get_off_the_board_raises_out_of_range(row: int, col: int) -> None:
    with pytest.raises(OutOfRange):
        Board().get(row, col)


def test_full_board_is_full() -> None:
    assert Board.from_rows(["XO" * 7 + "X"] * 15).is_full


@pytest.mark.parametrize(
    "rows",
    [
        EMPTY_ROWS[:14],
        EMPTY_ROWS + ["." * 15],
        ["." * 14] + EMPTY_ROWS[1:],
        ["x" + "." * 14] + EMPTY_ROWS[1:],
        ["+" + "." * 14] + EMPTY_ROWS[1:],
        [None] + EMPTY_ROWS[1:],
    ],
    ids=["14-rows", "16-rows", "short-row", "lower-case", "bad-char", "not-a-string"],
)
def test_from_rows_rejects_malformed_input(rows: list[str]) -> None:
    with pytest.raises(ValueError):
        Board.from_rows(rows)


def test_put_returns_no_runs_below_five() -> None:
    board = Board.from_rows(["XXX" + "." * 12] + EMPTY_ROWS[1:])
    assert board.put(0, 3, "black") == ()


@pytest.mark.parametrize(
    ("stones", "last", "run"),
    [
        ([(7, c) for c in (3, 4, 6, 7)], (7, 5), tuple((7, c) for c in range(3, 8))),
        ([(r, 0) for r in range(10, 14)], (14, 0), tuple((r, 0) for r in range(10, 15))),
        ([(k, k) for k in (0, 1, 2, 4, 5)], (3, 3), tuple((k, k) for k in range(6))),
        ([(k, 14 - k) for k in range(1, 5)], (0, 14), tuple((k, 14 - k) for k in range(5))),
    ],
    ids=["across-from-the-middle", "down-to-the-edge", "diagonal-overline", "anti-diagonal"],
)
def test_put_returns_the_run_of_five_or_more_it_completes(
    stones: list[tuple[int, int]], last: tuple[int, int], run: tuple[tuple[int, int], ...]
) -> None:
    board = Board()
    for point in stones:
        board.put(*point, "white")
    assert board.put(*last, "white") == (run,)


def test_put_returns_every_completed_run_across_before_down() -> None:
    board = Board()
    for point in [(7, 3), (7, 4), (7, 5), (7, 6), (3, 7), (4, 7), (5, 7), (6, 7)]:
        board.put(*point, "black")
    across = tuple((7, c) for c in range(3, 8))
    down = tuple((r, 7) for r in range(3, 8))
    assert board.put(7, 7, "black") == (across, down)


def test_put_ignores_the_other_colours_runs() -> None:
    board = Board.from_rows(["OOOO" + "." * 11] + EMPTY_ROWS[1:])
    assert board.put(0, 4, "black") == ()


def test_lines_through_reads_stones_walls_and_the_point_itself() -> None:
    # Centre at the top-left corner: the first five cells of every line are off the board.
    lines = Board.from_rows(SAMPLE_ROWS).lines_through(0, 0)
    wall, empty, black, white = 3, 0, 1, 2
    assert lines[0] == [wall] * 5 + [black] + [empty] * 5
    assert lines[1] == [wall] * 5 + [black] + [empty] * 5
    assert lines[2] == [wall] * 5 + [black] + [empty] * 5
    assert lines[3] == [wall] * 5 + [black] + [wall] * 5
    assert Board.from_rows(SAMPLE_ROWS).lines_through(0, 10)[0] == [empty] * 9 + [white, wall]


def test_lines_through_returns_copies() -> None:
    board = Board()
    board.lines_through(7, 7)[0][5] = 1
    assert board == Board()
