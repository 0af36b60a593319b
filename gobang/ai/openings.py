"""The computer's side of an opening rule (swap, swap2, taraguchi-10): one legal action for
whatever step the opening is at, whoever acts.

Every decision rests on one number, black's `edge`: the static evaluation (the sum over the
points near the stones of what each side would make there) after the side to move's best
reply among the few best-scored points. A positive edge favours black.

- A stone to place (the three of swap and swap2, swap2's two more, each taraguchi stone and a
  placed fifth) goes where the position is left the most balanced, since the other player
  then picks a colour: near the stones, within the step's square, the centre region when the
  step allows anywhere.
- A colour to choose goes with the edge; swap2's second player places two more stones when
  the three leave a position too close to call.
- Taraguchi's fifth: black offers ten points when the worst of its ten best non-symmetric
  points (the one white will pick) is worth more to black than a balanced placed fifth after
  which white may swap; white picks the offered point worst for black.

Cheap on purpose (it runs in the server process): one `Position`, a dozen or two candidate
points, each looked at one reply deep. Weaker levels (the level's `noise`) choose a colour at
random more often and place from a wider band of nearly balanced points.
"""

from __future__ import annotations

import random

from gobang.rules import BLACK, SIZE, WHITE
from gobang.rules.openings import (
    OPENINGS_OF,
    Action,
    Choose,
    Offer,
    Opening,
    Pick,
    Place,
    Point,
    Step,
    symmetric_points,
    within,
)

from .levels import level as level_settings
from .position import BLACK as BLACK_STONE
from .position import Position

PLACE_TWO = "place_two"
# Candidate points looked at per stone to place, and replies per candidate (the best-scored).
CANDIDATES = 14
REPLIES = 6
# What the reply's evaluation leaves out: the other side then has the move. A stone on the
# empty board evaluates at 128; half of that stands for the tempo.
TEMPO = 64
# How far (in edge units) a placed stone may leave the position from the most balanced
# candidate and still be picked: the floor at every level, plus the level's noise times the
# spread.
SLACK = 4
SLACK_SPREAD = 40
# An edge smaller than this is too close to call: swap2's second player places two more.
CLOSE_CALL = 12
# Fifth stones looked at (one per class of symmetric points), for a placed fifth or offers.
FIFTH_CANDIDATES = 24
# Where stones go when the step allows anywhere: the central square of this side.
REGION = 9
# A stone goes within this distance of the stones already placed.
REACH = 2


def decide(opening: Opening, ruleset: str, level: int, rng: random.Random) -> Action:
    """A legal action for `opening.step`, for whichever player acts, under ``ruleset`` at
    ``level`` (1-9); all randomness from ``rng``. Raises ValueError when the opening is over,
    the level unknown or the opening not one ``ruleset`` is played with."""
    step = opening.step
    if step is None:
        raise ValueError("the opening is over")
    if opening.rule not in OPENINGS_OF.get(ruleset, ()):
        raise ValueError(f"{ruleset} is not played with the {opening.rule} opening")
    noise = level_settings(level).noise
    pos = _position(opening.stones, ruleset)
    if step.kind == "place":
        return Place(_balanced_point(pos, step.area, noise, rng))
    if step.kind == "choose":
        return Choose(_choice(step, edge(pos), noise, rng))
    if step.kind == "fifth":
        return _fifth(pos, opening.stones, step, noise, rng)
    return Pick(_worst_for_black(pos, step.offers))


def edge(pos: Position) -> int:
    """Black's advantage: the side to move's static worth after its best reply among the
    `REPLIES` best-scored points, less `TEMPO`; positive when black is better off."""
    side = pos.to_move
    mine, theirs = pos.scores[side], pos.scores[3 - side]
    replies = sorted(pos.candidates(), key=lambda i: mine[i] + theirs[i], reverse=True)
    best: int | None = None
    tried = 0
    for index in replies:
        if pos.is_forbidden(index, side):
            continue
        pos.play(index)
        value = pos.evaluation(side)
        pos.undo()
        best = value if best is None else max(best, value)
        tried += 1
        if tried == REPLIES:
            break
    if best is None:
        return 0
    # After that reply the other side has the move, worth about half a tempo to it.
    best -= TEMPO
    return best if side == BLACK_STONE else -best


def _edge_after(pos: Position, index: int) -> int:
    pos.play(index)
    value = edge(pos)
    pos.undo()
    return value


def _balanced_point(pos: Position, area: int | None, noise: float,
                    rng: random.Random) -> Point:
    """A point leaving the position about as balanced as the best candidate does."""
    scored = [(abs(_edge_after(pos, index)), index) for index in _places(pos, area, rng)]
    return divmod(_within_slack(scored, noise, rng), SIZE)


def _within_slack(scored: list[tuple[int, int]], noise: float, rng: random.Random) -> int:
    """One of the (cost, index) pairs whose cost is near the lowest, at random."""
    lowest = min(cost for cost, _ in scored)
    band = [index for cost, index in scored if cost <= lowest + SLACK + noise * SLACK_SPREAD]
    return rng.choice(band)


def _places(pos: Position, area: int | None, rng: random.Random) -> list[int]:
    """Up to `CANDIDATES` empty points for the next stone: within the step's square (the
    centre region when any point will do, the central 3x3 for a first stone) and, when there
    are stones, within `REACH` of one of them."""
    square = area if area is not None else (REGION if pos.history else 3)
    empty = [i for i in range(SIZE * SIZE)
             if not pos.cells[i] and within(divmod(i, SIZE), square)]
    near = [i for i in empty if _near(i, pos.history)]
    pool = near or empty
    return rng.sample(pool, CANDIDATES) if len(pool) > CANDIDATES else pool


def _near(index: int, stones: list[int]) -> bool:
    row, col = divmod(index, SIZE)
    return any(max(abs(row - r), abs(col - c)) <= REACH
               for r, c in (divmod(s, SIZE) for s in stones))


def _choice(step: Step, black_edge: int, noise: float, rng: random.Random) -> str:
    if rng.random() < noise / 2:
        return rng.choice(step.options)
    if PLACE_TWO in step.options and abs(black_edge) < CLOSE_CALL:
        return PLACE_TWO
    return BLACK if black_edge > 0 else WHITE


def _fifth(pos: Position, stones: list[Point], step: Step, noise: float,
           rng: random.Random) -> Action:
    """Place the fifth stone (balanced: white may swap after it) or offer ten, whichever
    leaves black better off; black is to move."""
    values = {index: _edge_after(pos, index) for index in _fifth_candidates(pos, stones, rng)}
    placed = _within_slack([(abs(v), i) for i, v in values.items()], noise, rng)
    ranked = sorted(values, key=values.__getitem__, reverse=True)
    offers = _non_symmetric([divmod(i, SIZE) for i in ranked], stones)[:step.count]
    # Placed, white swaps whenever the edge is black's: black gets minus its size.
    # Offered, white picks the worst of the ten for black and may not swap.
    offer_pays = (len(offers) == step.count
                  and values[_index(offers[-1])] > -abs(values[placed]))
    if rng.random() < noise / 2:
        offer_pays = len(offers) == step.count and rng.random() < 0.5
    if offer_pays:
        return Offer(tuple(offers))
    return Place(divmod(placed, SIZE))


def _fifth_candidates(pos: Position, stones: list[Point], rng: random.Random) -> list[int]:
    """One point of each class of symmetric points near the stones within the 9x9 square,
    at most `FIFTH_CANDIDATES` of them: symmetric points are worth the same."""
    pool = [i for i in range(SIZE * SIZE)
            if not pos.cells[i] and within(divmod(i, SIZE), 9) and _near(i, pos.history)]
    rng.shuffle(pool)
    chosen = [_index(p) for p in _non_symmetric([divmod(i, SIZE) for i in pool], stones)]
    return chosen[:FIFTH_CANDIDATES]


def _non_symmetric(points: list[Point], stones: list[Point]) -> list[Point]:
    """``points`` in order, less each one symmetric to an earlier one."""
    seen: set[Point] = set()
    kept = []
    for point in points:
        if point not in seen:
            kept.append(point)
            seen.update(symmetric_points(point, stones))
    return kept


def _worst_for_black(pos: Position, offers: tuple[Point, ...]) -> Point:
    return min(offers, key=lambda point: _edge_after(pos, _index(point)))


def _index(point: Point) -> int:
    return point[0] * SIZE + point[1]


def _position(stones: list[Point], ruleset: str) -> Position:
    pos = Position(ruleset)
    for point in stones:
        pos.play(_index(point))
    return pos
