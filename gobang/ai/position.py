"""The engine's own board: stones plus, for every empty point, the pattern each player would
make there on each of the four lines, kept up to date one move at a time.

Playing a stone only changes the windows of the (at most 40) empty points within five cells
of it along its four lines, so `play` reclassifies just those and keeps what they were, for
`undo` to put back without classifying anything. The rules engine's
`forbidden_kind` stays the referee for renju black; this class only keeps a `Board` in step
for it to look at.
"""

import random

from gobang.rules import RULESETS, SIZE, Board, forbidden_kind

from .patterns import (
    FIVE,
    FOUR,
    FOUR_OPEN,
    MASK,
    OVERLINE,
    REACH,
    THREE,
    THREE_CLOSED,
    TWO,
    TWO_CLOSED,
    PatternTable,
)

BLACK, WHITE = 1, 2
CELLS = SIZE * SIZE
COLOR_NAME = {BLACK: "black", WHITE: "white"}
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))

# Value of one line pattern for the player who would make it.
_VALUE = (0, 2, 8, 12, 60, 70, 1000, 100_000, 0)
# How a point's own lines combine: two strong lines at one point are a winning threat.
WIN_THREAT = 20_000
FOUR_THREE = 10_000
DOUBLE_THREE = 5_000


def _build_lines() -> tuple[list[list[int]], list[list[tuple[int, int]]]]:
    """Lines per direction, each a list of cell indices, and for every cell and direction the
    (line number, slot) it sits at. Slots are offset by REACH so that off-board padding can sit
    in slots 0..REACH-1."""
    lines: list[list[list[int]]] = []
    where: list[list[tuple[int, int]]] = [[(0, 0)] * 4 for _ in range(CELLS)]
    for d, (dr, dc) in enumerate(DIRECTIONS):
        found: list[list[int]] = []
        for r in range(SIZE):
            for c in range(SIZE):
                pr, pc = r - dr, c - dc
                if 0 <= pr < SIZE and 0 <= pc < SIZE:
                    continue  # not the start of a line
                cells = []
                rr, cc = r, c
                while 0 <= rr < SIZE and 0 <= cc < SIZE:
                    cells.append(rr * SIZE + cc)
                    rr, cc = rr + dr, cc + dc
                for slot, index in enumerate(cells):
                    where[index][d] = (len(found), slot + REACH)
                found.append(cells)
        lines.append(found)
    return lines, where


LINES, WHERE = _build_lines()


def _padded_code(length: int) -> int:
    code = 0
    for slot in range(length + 2 * REACH):
        if slot < REACH or slot >= length + REACH:
            code |= 3 << (2 * slot)
    return code


def _neighbourhood(index: int, radius: int) -> tuple[int, ...]:
    r0, c0 = divmod(index, SIZE)
    return tuple(
        r * SIZE + c
        for r in range(max(0, r0 - radius), min(SIZE, r0 + radius + 1))
        for c in range(max(0, c0 - radius), min(SIZE, c0 + radius + 1))
        if (r, c) != (r0, c0)
    )


NEAR = tuple(_neighbourhood(i, 2) for i in range(CELLS))
# AFFECTED[index] = (direction, cell) pairs whose window holds ``index``.
AFFECTED = tuple(
    tuple(
        (d, LINES[d][WHERE[i][d][0]][s - REACH])
        for d in range(4)
        for s in range(WHERE[i][d][1] - REACH, WHERE[i][d][1] + REACH + 1)
        if REACH <= s < REACH + len(LINES[d][WHERE[i][d][0]]) and s != WHERE[i][d][1]
    )
    for i in range(CELLS)
)
_ZOBRIST_SEED = 20_261_201
_zrandom = random.Random(_ZOBRIST_SEED)
PASS = -1
PASS_KEY = _zrandom.getrandbits(64)
ZOBRIST = tuple((0, _zrandom.getrandbits(64), _zrandom.getrandbits(64)) for _ in range(CELLS))


def point_score(types: tuple[int, ...]) -> int:
    """Worth of one empty point to one player, from the patterns of its four lines."""
    t0, t1, t2, t3 = types
    score = _VALUE[t0] + _VALUE[t1] + _VALUE[t2] + _VALUE[t3]
    fours = (t0 == FOUR) + (t1 == FOUR) + (t2 == FOUR) + (t3 == FOUR)
    threes = (t0 == THREE) + (t1 == THREE) + (t2 == THREE) + (t3 == THREE)
    if FOUR_OPEN in types or fours >= 2:
        score += WIN_THREAT
    elif fours and threes:
        score += FOUR_THREE
    elif threes >= 2:
        score += DOUBLE_THREE
    return score


def strongest(types: tuple[int, ...]) -> int:
    """The best line pattern at a point, an overline counting as nothing; two fours at one
    point count as an open four (two five points)."""
    best = 0
    for t in types:
        if t != OVERLINE and t > best:
            best = t
    if types.count(FOUR) >= 2:
        best = max(best, FOUR_OPEN)
    return best


class _Summaries(dict):
    """``summaries[types]`` -> (point_score, strongest), worked out once per combination:
    a move updates some 40 points twice over, and only a few hundred combinations occur."""

    def __missing__(self, types: tuple[int, ...]) -> tuple[int, int]:
        value = (point_score(types), strongest(types))
        self[types] = value
        return value


SUMMARIES = _Summaries()


class _FoulSuspects(dict):
    """``suspects[types]``: whether black's lines at a point could make it forbidden in renju
    (two threes or fours, an open four, an overline) and it is not a five: only then is the
    referee asked, which is dear."""

    def __missing__(self, types: tuple[int, ...]) -> bool:
        strong = sum(1 for t in types if t >= THREE and t != OVERLINE)
        value = FIVE not in types and (OVERLINE in types or FOUR_OPEN in types or strong >= 2)
        self[types] = value
        return value


FOUL_SUSPECTS = _FoulSuspects()

# READS[index] = (direction, line, shift) of the point's four windows in the packed lines.
READS = tuple(
    tuple((d, WHERE[i][d][0], 2 * (WHERE[i][d][1] - REACH)) for d in range(4))
    for i in range(CELLS)
)
# AROUND[index] = per direction, (direction, line, ((cell, shift), ...)) for the other cells
# of that line whose windows hold ``index``: each holds it in that direction's window only.
AROUND = tuple(
    tuple(
        (d, READS[i][d][1], tuple((j, READS[j][d][2]) for dj, j in AFFECTED[i] if dj == d))
        for d in range(4)
    )
    for i in range(CELLS)
)
# WINDOWS[index] = (line, shift) for the four directions in turn, flat.
WINDOWS = tuple(
    tuple(x for _, line, shift in READS[i] for x in (line, shift)) for i in range(CELLS)
)
_NO_TYPES = (0, 0, 0, 0)


def _reclassify(types: list, scores: list, best: list, threats: set, j: int, old: tuple,
                d: int, pattern: int, was: int) -> None:
    """One player's point ``j`` with direction ``d``'s pattern now ``pattern``: its types,
    score, strongest pattern and threat-set membership (touched only where a four is or was
    so). Called from the search's hottest loop, hence the unpacked arguments."""
    t0, t1, t2, t3 = old
    if d == 0:
        new = (pattern, t1, t2, t3)
    elif d == 1:
        new = (t0, pattern, t2, t3)
    elif d == 2:
        new = (t0, t1, pattern, t3)
    else:
        new = (t0, t1, t2, pattern)
    score, strongest = SUMMARIES[new]
    types[j], scores[j], best[j] = new, score, strongest
    if strongest >= FOUR:
        threats.add(j)
    elif was >= FOUR:
        threats.discard(j)


class Position:
    """Stones, side to move and the per-point patterns of both players.

    ``types[p][i]`` is the list of four line patterns player ``p`` makes by playing empty
    point ``i``; ``scores[p][i]`` and ``best[p][i]`` summarise them. ``threats[p]`` holds the
    empty points where ``p`` would make a four or better.
    """

    def __init__(self, ruleset: str = "freestyle") -> None:
        if ruleset not in RULESETS:
            raise ValueError(f"unknown ruleset {ruleset!r}")
        self.ruleset = ruleset
        self.cells = [0] * CELLS
        self.codes = [[_padded_code(len(line)) for line in LINES[d]] for d in range(4)]
        exact = {BLACK: ruleset != "freestyle", WHITE: ruleset == "standard"}
        self.tables = (None, PatternTable(BLACK, exact[BLACK]), PatternTable(WHITE, exact[WHITE]))
        self.types: list[list[tuple[int, ...]]] = [[], [_NO_TYPES] * CELLS, [_NO_TYPES] * CELLS]
        self.scores: list[list[int]] = [[], [0] * CELLS, [0] * CELLS]
        self.best: list[list[int]] = [[], [0] * CELLS, [0] * CELLS]
        self.threats: list[set[int]] = [set(), set(), set()]
        self.near = [0] * CELLS
        self.history: list[int] = []
        self.hash = 0
        self.board = Board()  # the referee's view, for forbidden_kind
        # Per move played, the points it changed with what they were, for `undo`.
        self._saved: list[list[tuple]] = []
        for i in range(CELLS):
            self._refresh_point(i)

    @property
    def to_move(self) -> int:
        return BLACK if len(self.history) % 2 == 0 else WHITE

    @property
    def renju(self) -> bool:
        return self.ruleset == "renju"

    def play(self, index: int) -> None:
        """Put the side to move's stone on empty point ``index``; no rule checks."""
        player = self.to_move
        self.cells[index] = player
        codes = self.codes
        for d, line, shift in READS[index]:
            codes[d][line] |= player << (shift + 2 * REACH)
        self.history.append(index)
        self.hash ^= ZOBRIST[index][player]
        if self.renju:
            self.board.put(*divmod(index, SIZE), COLOR_NAME[player])
        near = self.near
        for j in NEAR[index]:
            near[j] += 1
        self._saved.append(self._reclassify_around(index))

    def pass_turn(self) -> None:
        """Let the other side move twice: how the search asks what the opponent threatens."""
        self.history.append(PASS)
        self.hash ^= PASS_KEY

    def undo(self) -> None:
        index = self.history.pop()
        if index == PASS:
            self.hash ^= PASS_KEY
            return
        player = self.cells[index]
        self.cells[index] = 0
        codes = self.codes
        for d, line, shift in READS[index]:
            codes[d][line] &= ~(3 << (shift + 2 * REACH))
        self.hash ^= ZOBRIST[index][player]
        if self.renju:
            self.board.remove(*divmod(index, SIZE))
        near = self.near
        for j in NEAR[index]:
            near[j] -= 1
        # What the points were before the move is what they are again: no need to
        # classify their windows a second time.
        self._restore(self._saved.pop())

    def _restore(self, saved: list[tuple]) -> None:
        _, ty1, ty2 = self.types
        _, sc1, sc2 = self.scores
        _, be1, be2 = self.best
        _, th1, th2 = self.threats
        # A point is in a threat set exactly when its best is a four or more: the set is
        # touched only where that is or was so (most points hold neither).
        for j, types1, score1, best1, types2, score2, best2 in saved:
            if best1 >= FOUR:
                th1.add(j)
            elif be1[j] >= FOUR:
                th1.discard(j)
            ty1[j], sc1[j], be1[j] = types1, score1, best1
            if best2 >= FOUR:
                th2.add(j)
            elif be2[j] >= FOUR:
                th2.discard(j)
            ty2[j], sc2[j], be2[j] = types2, score2, best2

    def _set_point(
        self,
        index: int,
        black: tuple[int, ...],
        black_score: int,
        black_best: int,
        white: tuple[int, ...],
        white_score: int,
        white_best: int,
    ) -> None:
        self._set_point_of(BLACK, index, black, black_score, black_best)
        self._set_point_of(WHITE, index, white, white_score, white_best)

    def _refresh_point(self, index: int) -> None:
        """Classify the four windows of empty point ``index`` for both players."""
        l0, s0, l1, s1, l2, s2, l3, s3 = WINDOWS[index]
        c0, c1, c2, c3 = self.codes
        w0, w1 = (c0[l0] >> s0) & MASK, (c1[l1] >> s1) & MASK
        w2, w3 = (c2[l2] >> s2) & MASK, (c3[l3] >> s3) & MASK
        for p in (BLACK, WHITE):
            table = self.tables[p]
            types = (table[w0], table[w1], table[w2], table[w3])
            score, best = SUMMARIES[types]
            self._set_point_of(p, index, types, score, best)

    def _set_point_of(self, p: int, index: int, types: tuple, score: int, best: int) -> None:
        self.types[p][index] = types
        self.scores[p][index] = score
        self.best[p][index] = best
        if best >= FOUR:
            self.threats[p].add(index)
        else:
            self.threats[p].discard(index)

    def _reclassify_around(self, index: int) -> list[tuple]:
        """Empty ``index`` (just played) and reclassify the empty points whose windows hold
        it; returns what they were before. A point's other three windows do not hold
        ``index``, so only the shared direction's pattern is looked up, and a point whose
        pattern there stays the same for both players is left as it is: most of the points
        four or five cells away. The hottest code of the search: its loop is written out, with
        one call per player whose point changed."""
        cells, codes = self.cells, self.codes
        _, t1, t2 = self.tables
        _, ty1, ty2 = self.types
        _, sc1, sc2 = self.scores
        _, be1, be2 = self.best
        _, th1, th2 = self.threats
        saved = [(index, ty1[index], sc1[index], be1[index], ty2[index], sc2[index], be2[index])]
        self._set_point(index, _NO_TYPES, 0, 0, _NO_TYPES, 0, 0)
        for d, line, points in AROUND[index]:
            code = codes[d][line]  # the one line all these points' changed windows are on
            for j, shift in points:
                if cells[j]:
                    continue
                window = (code >> shift) & MASK
                new1, new2 = t1[window], t2[window]
                old1, old2 = ty1[j], ty2[j]
                if old1[d] == new1 and old2[d] == new2:
                    continue
                was1, was2 = be1[j], be2[j]
                saved.append((j, old1, sc1[j], was1, old2, sc2[j], was2))
                if old1[d] != new1:
                    _reclassify(ty1, sc1, be1, th1, j, old1, d, new1, was1)
                if old2[d] != new2:
                    _reclassify(ty2, sc2, be2, th2, j, old2, d, new2, was2)
        return saved

    # --- questions the search asks -------------------------------------------------------

    def fives(self, player: int) -> list[int]:
        """Empty points where ``player`` would complete a winning five."""
        return [i for i in self.threats[player] if FIVE in self.types[player][i]]

    def is_forbidden(self, index: int, player: int) -> bool:
        """Whether ``player`` may not play ``index`` (renju black only), as the rules say."""
        if player != BLACK or not self.renju:
            return False
        if not FOUL_SUSPECTS[self.types[BLACK][index]]:
            return False  # cannot be a double three, double four or overline: skip the check
        return forbidden_kind(self.board, *divmod(index, SIZE)) is not None

    def candidates(self) -> list[int]:
        """Empty points within two of a stone (the centre on an empty board)."""
        if not self.history:
            return [CELLS // 2]
        cells, near = self.cells, self.near
        return [i for i in range(CELLS) if near[i] and not cells[i]]

    def evaluation(self, player: int) -> int:
        """Static worth of the position to ``player``, who is to move."""
        other = 3 - player
        mine, theirs = self.scores[player], self.scores[other]
        own = 0
        opp = 0
        for i in self.candidates():
            own += mine[i]
            opp += theirs[i]
        return own - opp


__all__ = [
    "BLACK",
    "CELLS",
    "FIVE",
    "FOUR",
    "FOUR_OPEN",
    "THREE",
    "THREE_CLOSED",
    "TWO",
    "TWO_CLOSED",
    "WHITE",
    "Position",
]
