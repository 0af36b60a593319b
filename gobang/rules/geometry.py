"""Board size, stone codes and precomputed line tables shared by the rule modules.

The tables (a few hundred KB of tuples, built once at import) spare the hot loops of the
win and forbidden-move checks any row/column bounds arithmetic.
"""

from .errors import OutOfRange

SIZE = 15
CELLS = SIZE * SIZE

BLACK = "black"
WHITE = "white"
COLORS = (BLACK, WHITE)

EMPTY = 0
BLACK_STONE = 1
WHITE_STONE = 2
# Marks an off-board cell in a window; it blocks lines like a stone of neither colour.
WALL = 3

STONE_OF = {BLACK: BLACK_STONE, WHITE: WHITE_STONE}
COLOR_OF: tuple[str | None, ...] = (None, BLACK, WHITE)

# Horizontal, vertical, diagonal (down-right) and anti-diagonal (down-left).
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (1, -1))

# Half-width of the window the forbidden-move check looks at: a five through the
# point spans at most 4 cells either side, and one more cell decides "exactly five".
REACH = 5
CENTER = REACH


def _ray(row: int, col: int, dr: int, dc: int) -> tuple[int, ...]:
    cells = []
    r, c = row + dr, col + dc
    while 0 <= r < SIZE and 0 <= c < SIZE:
        cells.append(r * SIZE + c)
        r, c = r + dr, c + dc
    return tuple(cells)


def _window(row: int, col: int, dr: int, dc: int) -> tuple[int, ...]:
    cells = []
    for k in range(-REACH, REACH + 1):
        r, c = row + k * dr, col + k * dc
        cells.append(r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else -1)
    return tuple(cells)


# RAYS[index][d] == (forward, backward): cell indices walking away from the point to the edge.
RAYS = tuple(
    tuple(
        (_ray(i // SIZE, i % SIZE, dr, dc), _ray(i // SIZE, i % SIZE, -dr, -dc))
        for dr, dc in DIRECTIONS
    )
    for i in range(CELLS)
)

# WINDOWS[index][d]: the 2*REACH+1 cells centred on the point, -1 where off the board.
WINDOWS = tuple(
    tuple(_window(i // SIZE, i % SIZE, dr, dc) for dr, dc in DIRECTIONS) for i in range(CELLS)
)


def point_index(row: object, col: object) -> int:
    """Flat cell index of a point; OutOfRange for anything but in-range ints (bools too)."""
    if type(row) is not int or type(col) is not int:
        raise OutOfRange("row and col must be integers", row=None, col=None)
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise OutOfRange(row=row, col=col)
    return row * SIZE + col


def stone_of(color: str) -> int:
    try:
        return STONE_OF[color]
    except (KeyError, TypeError):
        raise ValueError(f"colour must be 'black' or 'white', not {color!r}") from None


def opponent(color: str) -> str:
    """The other colour."""
    return WHITE if stone_of(color) == BLACK_STONE else BLACK
