"""Coordinate notation: columns a..o left to right, rows 15..1 top to bottom ("h8" = (7, 7))."""

import re

from .geometry import SIZE

_LETTERS = "abcdefghijklmno"
_PATTERN = re.compile(r"([a-o])(1[0-5]|[1-9])")


def to_notation(row: int, col: int) -> str:
    """``(0, 0)`` -> ``"a15"``, ``(14, 14)`` -> ``"o1"``; ValueError off the board."""
    if type(row) is not int or type(col) is not int or not (0 <= row < SIZE and 0 <= col < SIZE):
        raise ValueError(f"not a board point: {(row, col)!r}")
    return f"{_LETTERS[col]}{SIZE - row}"


def from_notation(text: str) -> tuple[int, int]:
    """``"h8"`` (or ``"H8"``) -> ``(7, 7)``. Plain ValueError (not IllegalMove) on bad text."""
    if not isinstance(text, str):
        raise ValueError(f"notation must be a string, not {type(text).__name__}")
    # isascii: str.lower() maps some non-ASCII letters (e.g. the Kelvin sign) onto a..o.
    match = _PATTERN.fullmatch(text.lower()) if text.isascii() else None
    if match is None:
        raise ValueError(f"not a board point: {text!r}")
    letter, number = match.groups()
    return SIZE - int(number), _LETTERS.index(letter)
