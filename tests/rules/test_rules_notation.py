"""Notation: columns a..o left to right, rows 15..1 from the top."""

import pytest

from gobang.rules import IllegalMove, from_notation, to_notation

POINTS = [
    ("a15", 0, 0),
    ("o15", 0, 14),
    ("a1", 14, 0),
    ("o1", 14, 14),
    ("h8", 7, 7),
    ("a10", 5, 0),
    ("j3", 12, 9),
]


@pytest.mark.parametrize(("text", "row", "col"), POINTS)
def test_to_notation(text: str, row: int, col: int) -> None:
    assert to_notation(row, col) == text


@pytest.mark.parametrize(("text", "row", "col"), POINTS)
def test_from_notation(text: str, row: int, col: int) -> None:
    assert from_notation(text) == (row, col)


@pytest.mark.parametrize(("text", "row", "col"), POINTS)
def test_from_notation_accepts_upper_case(text: str, row: int, col: int) -> None:
    assert from_notation(text.upper()) == (row, col)


def test_notation_round_trips_every_point() -> None:
    points = [(r, c) for r in range(15) for c in range(15)]
    assert [from_notation(to_notation(r, c)) for r, c in points] == points


@pytest.mark.parametrize(
    "text",
    ["p1", "a0", "a16", "", "h", "8", "8h", "h08", "h 8", " h8", "h8 ", "hh8", "h-1", "\u212a8"],
)
def test_from_notation_rejects_bad_text(text: str) -> None:
    with pytest.raises(ValueError) as info:
        from_notation(text)
    assert not isinstance(info.value, IllegalMove)


@pytest.mark.parametrize("value", [None, 8, ("h", 8)])
def test_from_notation_rejects_non_strings(value: object) -> None:
    with pytest.raises(ValueError):
        from_notation(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(("row", "col"), [(-1, 0), (0, 15), (15, 0), (True, 0), (0, 1.0)])
def test_to_notation_rejects_points_off_the_board(row: object, col: object) -> None:
    with pytest.raises(ValueError):
        to_notation(row, col)  # type: ignore[arg-type]
