"""What one stone does to one line: the pattern a player makes by playing an empty point.

A line through a point is read as an 11-cell window (5 either side) packed two bits a cell
(0 empty, 1 black, 2 white, 3 off the board). Classifying a window is slow pure Python, so
each distinct window is classified once and memoised per (player, five-rule); in play the
same few thousand windows come back over and over.
"""

from functools import cache

REACH = 5
WIDTH = 2 * REACH + 1
MASK = (1 << (2 * WIDTH)) - 1

# Line patterns made by playing the centre point, weakest first.
NONE = 0
TWO_CLOSED = 1  # one more stone makes a closed three
TWO = 2  # one more stone makes an open three
THREE_CLOSED = 3  # one more stone makes a four
THREE = 4  # one more stone makes an open four
FOUR = 5  # one more stone makes five, at one point
FOUR_OPEN = 6  # five at two or more points: cannot be stopped on this line
FIVE = 7
OVERLINE = 8  # six or more where only exactly five wins: worth nothing (forbidden to renju black)

_EMPTY, _OWN, _BLOCK = 0, 1, 2


def _run(line: list[int]) -> int:
    lo = hi = REACH
    while lo > 0 and line[lo - 1] == _OWN:
        lo -= 1
    while hi < WIDTH - 1 and line[hi + 1] == _OWN:
        hi += 1
    return hi - lo + 1


def _is_five(line: list[int], exact: bool) -> bool:
    run = _run(line)
    return run == 5 if exact else run >= 5


def _five_points(line: list[int], exact: bool) -> int:
    count = 0
    for k in range(1, WIDTH - 1):
        if line[k] == _EMPTY:
            line[k] = _OWN
            if _is_five(line, exact):
                count += 1
            line[k] = _EMPTY
    return count


def _shape(line: list[int], exact: bool) -> int:
    """Pattern of a window whose centre is already the player's stone."""
    if _is_five(line, exact):
        return FIVE
    if exact and _run(line) > 5:
        return OVERLINE
    fives = _five_points(line, exact)
    if fives:
        return FOUR_OPEN if fives >= 2 else FOUR
    best = NONE
    for k in range(1, WIDTH - 1):
        if line[k] != _EMPTY:
            continue
        line[k] = _OWN
        after = _five_points(line, exact) if not _is_five(line, exact) else 0
        line[k] = _EMPTY
        if after >= 2:
            return THREE
        if after == 1:
            best = THREE_CLOSED
    if best:
        return best
    for k in range(1, WIDTH - 1):
        if line[k] != _EMPTY:
            continue
        line[k] = _OWN
        after = _shape(line, exact)
        line[k] = _EMPTY
        if after == THREE:
            return TWO
        if after == THREE_CLOSED:
            best = TWO_CLOSED
    return best


@cache
def _classify_normalised(cells: tuple[int, ...], exact: bool) -> int:
    return _shape(list(cells), exact)


def classify(key: int, player: int, exact: bool) -> int:
    """Pattern that ``player`` (1 or 2) makes by playing the centre of the packed window
    ``key``. ``exact``: only exactly five wins for this player (standard, renju black)."""
    line = []
    for k in range(WIDTH):
        v = (key >> (2 * k)) & 3
        line.append(_EMPTY if v == 0 else _OWN if v == player else _BLOCK)
    line[REACH] = _OWN
    # Cells past the first blocker on either side cannot matter: fold them into blockers so
    # that more windows share one classification.
    for k in range(REACH - 1, -1, -1):
        if line[k] == _BLOCK:
            for j in range(k):
                line[j] = _BLOCK
            break
    for k in range(REACH + 1, WIDTH):
        if line[k] == _BLOCK:
            for j in range(k + 1, WIDTH):
                line[j] = _BLOCK
            break
    return _classify_normalised(tuple(line), exact)


class PatternTable(dict):
    """``table[key]`` -> pattern for one player under one five-rule, classified on first use."""

    __slots__ = ("player", "exact")

    def __init__(self, player: int, exact: bool) -> None:
        super().__init__()
        self.player = player
        self.exact = exact

    def __missing__(self, key: int) -> int:
        value = classify(key, self.player, self.exact)
        self[key] = value
        return value
