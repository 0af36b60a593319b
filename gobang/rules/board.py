"""A 15x15 position stored as a flat bytearray of 225 cells (0 empty, 1 black, 2 white)."""

from collections.abc import Iterable

from .errors import Occupied
from .geometry import (
    CELLS,
    COLOR_OF,
    EMPTY,
    RAYS,
    SIZE,
    STONE_OF,
    WALL,
    WINDOWS,
    point_index,
    stone_of,
)

_CHARS = ".XO"
_STONE_OF_CHAR = {".": 0, "X": 1, "O": 2}

# Points of one straight run of stones, sorted from one end to the other.
Line = tuple[tuple[int, int], ...]


class Board:
    """A position with no notion of whose turn it is; `Game` adds the rules of play.

    Points are ``(row, col)`` with row 0 the top row and col 0 the left column.
    Colours are the strings ``"black"`` and ``"white"``.
    """

    __slots__ = ("_cells", "_count")

    def __init__(self) -> None:
        self._cells = bytearray(CELLS)
        self._count = 0

    @classmethod
    def from_rows(cls, rows: Iterable[str]) -> "Board":
        """Build a position from 15 strings, ``rows[0]`` the top: ``X`` black, ``O`` white,
        ``.`` empty. Raises ValueError on any other shape or character."""
        rows = list(rows)
        if len(rows) != SIZE:
            raise ValueError(f"expected {SIZE} rows, got {len(rows)}")
        board = cls()
        for r, text in enumerate(rows):
            if not isinstance(text, str) or len(text) != SIZE:
                raise ValueError(f"row {r} must be a string of {SIZE} characters")
            for c, ch in enumerate(text):
                stone = _STONE_OF_CHAR.get(ch)
                if stone is None:
                    raise ValueError(f"bad character {ch!r} in row {r}; use X, O or .")
                if stone:
                    board._cells[r * SIZE + c] = stone
                    board._count += 1
        return board

    def to_rows(self) -> list[str]:
        """The inverse of `from_rows`."""
        cells = self._cells
        return ["".join(_CHARS[cells[r * SIZE + c]] for c in range(SIZE)) for r in range(SIZE)]

    def get(self, row: int, col: int) -> str | None:
        """``"black"``, ``"white"`` or None for an empty point; OutOfRange off the board."""
        return COLOR_OF[self._cells[point_index(row, col)]]

    def is_empty(self, row: int, col: int) -> bool:
        return self._cells[point_index(row, col)] == EMPTY

    def put(self, row: int, col: int, color: str) -> tuple[Line, ...]:
        """Place a stone with no rule checks beyond the point being free, and return the
        runs of five or more stones of its colour that now pass through it (horizontal,
        vertical, diagonal, anti-diagonal order; almost always none).

        The runs come back from here rather than from a separate query because this is
        the hot path of every move: one scan while the cells are at hand. Which of them
        wins is the ruleset's business.
        """
        index = point_index(row, col)
        # A lookup rather than a call to stone_of, as this runs on every move.
        try:
            stone = STONE_OF[color]
        except (KeyError, TypeError):
            stone = stone_of(color)  # raises the usual ValueError
        cells = self._cells
        if cells[index] != EMPTY:
            raise Occupied(row=row, col=col)
        cells[index] = stone
        self._count += 1
        # A tuple, not a list: nearly every move returns the shared empty one.
        runs: tuple[Line, ...] = ()
        for forward, backward in RAYS[index]:
            ahead = 0
            for j in forward:
                if cells[j] != stone:
                    break
                ahead += 1
            behind = 0
            for j in backward:
                if cells[j] != stone:
                    break
                behind += 1
            if ahead + behind >= 4:
                run = (*backward[:behind], index, *forward[:ahead])
                runs += (tuple(sorted(divmod(i, SIZE) for i in run)),)
        return runs

    def remove(self, row: int, col: int) -> str:
        """Lift a stone off the board and return its colour; ValueError if the point is empty."""
        index = point_index(row, col)
        color = COLOR_OF[self._cells[index]]
        if color is None:
            raise ValueError(f"no stone at {(row, col)}")
        self._cells[index] = EMPTY
        self._count -= 1
        return color

    def lines_through(self, row: int, col: int) -> list[list[int]]:
        """The four lines through a point (horizontal, vertical, diagonal, anti-diagonal),
        each as the stone codes (``EMPTY``, ``BLACK_STONE``, ``WHITE_STONE``, ``WALL`` beyond
        the edge) of the points ``-REACH .. +REACH`` steps along ``DIRECTIONS[d]``, so the
        point itself is at ``CENTER``.

        Fresh lists the caller may scribble on: the renju check imagines stones in them.
        """
        cells = self._cells
        return [
            [WALL if j < 0 else cells[j] for j in window]
            for window in WINDOWS[point_index(row, col)]
        ]

    def stones(self, color: str | None = None) -> list[tuple[int, int]]:
        """Occupied points in row-major order, optionally only one colour's."""
        cells = self._cells
        if color is None:
            return [divmod(i, SIZE) for i in range(CELLS) if cells[i]]
        stone = stone_of(color)
        return [divmod(i, SIZE) for i in range(CELLS) if cells[i] == stone]

    @property
    def stone_count(self) -> int:
        return self._count

    @property
    def is_full(self) -> bool:
        return self._count == CELLS

    def copy(self) -> "Board":
        other = Board.__new__(Board)
        other._cells = bytearray(self._cells)
        other._count = self._count
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._cells == other._cells

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __str__(self) -> str:
        return "\n".join(self.to_rows())

    def __repr__(self) -> str:
        return f"Board.from_rows({self.to_rows()!r})"
