"""Renju forbidden moves for black, as the RIF rules define them.

Definitions used (all for black, all about lines through the new stone ``p``):

* five: exactly five in a row. A move that makes one is never forbidden.
* overline: six or more in a row.
* four: four stones (including ``p``) that one more black stone on the same line turns
  into exactly five. Fours are counted by their set of stones, so a straight four
  ``.XXXX.`` is one four while ``X.XXX.X`` (``p`` in the middle group) is two.
* three: a line that one more black stone ``q`` turns into a straight four (four in a
  row, both ends empty, each end making exactly five), where ``q`` is itself a legal
  black move once ``p`` is on the board. That last clause makes the check recursive.

Priority: five > overline > double-four > double-three.

Only the four lines through ``p`` are scanned, within ``REACH`` cells either side, and
the recursion only visits the (at most a few) completion points of candidate threes.
"""

from .board import Board
from .errors import Occupied
from .geometry import BLACK, BLACK_STONE, CENTER, DIRECTIONS, EMPTY

DOUBLE_THREE = "double_three"
DOUBLE_FOUR = "double_four"
OVERLINE = "overline"
FORBIDDEN_KINDS = (DOUBLE_THREE, DOUBLE_FOUR, OVERLINE)


def forbidden_kind(board: Board, row: int, col: int) -> str | None:
    """Why a black stone at the empty point ``(row, col)`` would be forbidden under renju:
    ``"overline"``, ``"double_four"``, ``"double_three"``, or None if it is legal
    (including any move that makes exactly five). Does not modify ``board``."""
    lines = board.lines_through(row, col)
    if lines[0][CENTER] != EMPTY:
        raise Occupied(row=row, col=col)
    return _forbidden(board, row, col, lines)


def _forbidden(board: Board, row: int, col: int, lines: list[list[int]]) -> str | None:
    """`forbidden_kind` for a point known to be empty, given its `Board.lines_through`.
    The stone is only imagined, in those lines, until a three has to be checked."""
    overline = False
    for line in lines:
        line[CENTER] = BLACK_STONE
        length = _run_length(line, CENTER)
        if length == 5:
            return None
        overline = overline or length > 5
    if overline:
        return OVERLINE

    fours = 0
    candidates: list[tuple[int, list[int]]] = []
    for d, line in enumerate(lines):
        line_fours = _count_fours(line)
        if line_fours:
            fours += line_fours
        else:
            # A line holding a four cannot also hold a three through the same stone.
            points = _straight_four_points(line)
            if points:
                candidates.append((d, points))
    if fours >= 2:
        return DOUBLE_FOUR
    if len(candidates) < 2:
        return None

    # A three counts only if a completion point is itself legal with this stone down.
    after = board.copy()
    after.put(row, col, BLACK)
    threes = 0
    for seen, (d, points) in enumerate(candidates):
        dr, dc = DIRECTIONS[d]
        completions = ((row + (k - CENTER) * dr, col + (k - CENTER) * dc) for k in points)
        if any(_forbidden(after, r, c, after.lines_through(r, c)) is None for r, c in completions):
            threes += 1
            if threes >= 2:
                return DOUBLE_THREE
        if threes + len(candidates) - seen - 1 < 2:
            return None
    return None


def _run_length(line: list[int], at: int) -> int:
    """Length of the unbroken black run through ``line[at]`` (which is black)."""
    lo = at
    while lo > 0 and line[lo - 1] == BLACK_STONE:
        lo -= 1
    hi = at
    last = len(line) - 1
    while hi < last and line[hi + 1] == BLACK_STONE:
        hi += 1
    return hi - lo + 1


def _count_fours(line: list[int]) -> int:
    """Number of distinct fours through the centre stone of a window."""
    fours: set[tuple[int, ...]] = set()
    last = len(line) - 1
    for k in range(CENTER - 4, CENTER + 5):
        if line[k] != EMPTY:
            continue
        line[k] = BLACK_STONE
        lo = k
        while lo > 0 and line[lo - 1] == BLACK_STONE:
            lo -= 1
        hi = k
        while hi < last and line[hi + 1] == BLACK_STONE:
            hi += 1
        line[k] = EMPTY
        # Exactly five, and it must contain the new stone for the four to be "made" by it.
        if hi - lo == 4 and lo <= CENTER <= hi:
            fours.add(tuple(j for j in range(lo, hi + 1) if j != k))
    return len(fours)


def _straight_four_points(line: list[int]) -> list[int]:
    """Window offsets of empty points that would turn the centre's line into a straight
    four containing the centre stone. Their legality is checked by the caller."""
    points = []
    for k in range(CENTER - 3, CENTER + 4):
        if line[k] != EMPTY:
            continue
        line[k] = BLACK_STONE
        if _run_length(line, CENTER) == 4:
            lo = CENTER
            while line[lo - 1] == BLACK_STONE:
                lo -= 1
            hi = lo + 3
            # q must be part of the four; both ends open, each making exactly five (not six).
            if (
                lo <= k <= hi
                and line[lo - 1] == EMPTY
                and line[hi + 1] == EMPTY
                and line[lo - 2] != BLACK_STONE
                and line[hi + 2] != BLACK_STONE
            ):
                points.append(k)
        line[k] = EMPTY
    return points
