"""A leaf evaluation whose values were fitted to game results (Texel's method) instead of set
by hand: docs/engines.md, "The leaf's values fitted to game results".

A point's *features*, for one player, are how many of its four lines make each pattern
(closed two up to five) and which way its lines combine, if any (`COMBOS`). A position's
features for the side to move are those of every candidate point, summed, once as the side
to move's and once as the opponent's. The fit (`bench/texel/fit.py`) finds one value per
feature and colour of the side to move: the leaf is the sum of the values. The values live
in `gobang/ai/fitted.py`, written by the fit.
"""

from __future__ import annotations

from collections.abc import Sequence

from .patterns import FIVE, FOUR, FOUR_OPEN, THREE, THREE_CLOSED, TWO, TWO_CLOSED
from .position import BLACK, FOUL_SUSPECTS, WHITE, Position

# The line patterns counted, one feature each, in this order, and their names.
LINE_PATTERNS = (TWO_CLOSED, TWO, THREE_CLOSED, THREE, FOUR, FOUR_OPEN, FIVE)
LINE_NAMES = ("closed_two", "open_two", "closed_three", "open_three", "four", "open_four", "five")
# Ways two lines combine at one point, strongest first; a point counts the first that holds.
COMBOS = ("win_threat", "four_three", "double_three", "four_two", "three_two", "two_two")
FEATURES = LINE_NAMES + COMBOS
WIDTH = len(FEATURES)
_SLOT = {pattern: k for k, pattern in enumerate(LINE_PATTERNS)}
_COMBO_SLOT = {name: len(LINE_PATTERNS) + k for k, name in enumerate(COMBOS)}
# Leaf scores are integers: values (per feature, in win-chance logits) times this.
SCALE = 10_000


def combo(types: Sequence[int]) -> str | None:
    """How one point's lines combine for one player: an open four or two fours win, a four
    and an open three nearly so, down to two open twos that make a double three next."""
    fours = types.count(FOUR)
    threes = types.count(THREE)
    helpers = types.count(TWO) + types.count(THREE_CLOSED)
    if FOUR_OPEN in types or fours >= 2:
        return "win_threat"
    if fours and threes:
        return "four_three"
    if threes >= 2:
        return "double_three"
    if fours and helpers:
        return "four_two"
    if threes and helpers:
        return "three_two"
    if types.count(TWO) >= 2:
        return "two_two"
    return None


def point_features(types: Sequence[int]) -> list[int]:
    """The feature counts of one empty point for one player (`FEATURES` order)."""
    counts = [0] * WIDTH
    for t in types:
        if t in _SLOT:  # an overline counts nothing: it wins nowhere it is forbidden
            counts[_SLOT[t]] += 1
    kind = combo(types)
    if kind is not None:
        counts[_COMBO_SLOT[kind]] += 1
    return counts


def position_features(pos: Position, fouls: bool = True) -> list[int]:
    """The side to move's features then the opponent's, summed over the candidate points.
    With ``fouls`` (renju), black's forbidden points count nothing for black."""
    side = pos.to_move
    other = 3 - side
    mine = [0] * WIDTH
    theirs = [0] * WIDTH
    for i in pos.candidates():
        for player, total in ((side, mine), (other, theirs)):
            if fouls and pos.is_forbidden(i, player):
                continue
            for k, n in enumerate(point_features(pos.types[player][i])):
                total[k] += n
    return mine + theirs


class _PointValues(dict):
    """``values[types]`` -> the fitted worth of one point's lines, worked out once."""

    def __init__(self, weights: Sequence[float]) -> None:
        super().__init__()
        self._weights = tuple(weights)

    def __missing__(self, types: tuple[int, ...]) -> int:
        worth = sum(w * n for w, n in zip(self._weights, point_features(types), strict=True))
        value = round(worth * SCALE)
        self[types] = value
        return value


class FittedLeaf:
    """The leaf for the side to move, with the values fitted for its colour.

    ``weights[colour]`` is the pair (own values, opponent's values), each `WIDTH` numbers.
    In renju a point forbidden to black counts nothing for black: black can never play it.
    """

    def __init__(self, weights: dict[int, tuple[Sequence[float], Sequence[float]]]) -> None:
        for colour in (BLACK, WHITE):
            own, opp = weights[colour]
            if len(own) != WIDTH or len(opp) != WIDTH:
                raise ValueError(f"{WIDTH} values per side and colour, got {len(own)}/{len(opp)}")
        self._values = {c: (_PointValues(o), _PointValues(p)) for c, (o, p) in weights.items()}

    def evaluate(self, pos: Position, side: int) -> int:
        """Static worth of ``pos`` to ``side``, who is to move."""
        own_values, opp_values = self._values[side]
        if pos.renju:
            return self._renju(pos, side, own_values, opp_values)
        mine, theirs = pos.types[side], pos.types[3 - side]
        total = 0
        for i in pos.candidates():
            total += own_values[mine[i]] + opp_values[theirs[i]]
        return total

    def _renju(self, pos: Position, side: int, own_values: _PointValues,
               opp_values: _PointValues) -> int:
        """The same, less black's values at its forbidden points. Asking the referee is dear,
        so it is asked only where black's lines could make a foul at all: 41 µs a leaf in
        mid-game positions of renju games against 58 µs when every point is asked (the
        hand-set leaf: 9 µs; docs/engines.md, "Level 9")."""
        mine, theirs = pos.types[side], pos.types[3 - side]
        black, black_values = (mine, own_values) if side == BLACK else (theirs, opp_values)
        suspect = FOUL_SUSPECTS
        total = 0
        for i in pos.candidates():
            total += own_values[mine[i]] + opp_values[theirs[i]]
            types = black[i]
            if suspect[types] and pos.is_forbidden(i, BLACK):
                total -= black_values[types]
        return total
