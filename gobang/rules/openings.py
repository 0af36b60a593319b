"""Opening rules: who places the first stones and who ends up with which colour.

An opening is judged step by step like a move. Its whole state is the log of what the two
players did, so that it survives a reload and a restart as the moves do: `Opening(rule, log)`
is rebuilt from the log, says what comes next (`step`: who acts, what they may do) and, once
over (`step is None`), who holds black and which stones were placed. From then on the game is
played as any other, the stones of the opening being its first moves (black, white, black...).

The players are FIRST (who places the first stone, black for now) and SECOND. The rules:

- `none`: no opening; FIRST is black.
- `swap`: FIRST places three stones (black, white, black) anywhere; SECOND picks a colour.
- `swap2` (the Gomoku World Championships since 2009, Gomocup): FIRST places three stones;
  SECOND takes black (FIRST, white, places the fourth stone in play), takes white (and places
  the fourth stone in play), or places two more stones (white, then black) and lets FIRST pick
  a colour.
- `taraguchi-10` (renju; RIF, European Championships since 2010): the first stone at the
  centre, the second within the central 3x3 square, the third within 5x5, the fourth within
  7x7, each placed by whoever holds its colour then, and after each the other player may swap
  colours. Then black either places the fifth stone within 9x9, after which white may swap, or
  offers ten fifth stones, no two of them symmetric in the position, of which white picks one.
  White plays the sixth stone in play.

Standard library only, as the rest of the rules.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .errors import IllegalMove, Occupied, OutOfRange
from .geometry import BLACK, SIZE, WHITE

FIRST = "first"
SECOND = "second"
CENTRE = SIZE // 2
TARAGUCHI_OFFERS = 10
OPENINGS = ("none", "swap", "swap2", "taraguchi-10")
# The openings each ruleset may be played with.
OPENINGS_OF = {"freestyle": ("none", "swap", "swap2"), "standard": ("none", "swap", "swap2"),
               "renju": ("none", "taraguchi-10")}

Point = tuple[int, int]


class OpeningRefused(IllegalMove):
    """A step the opening does not allow; `code` is the wire contract's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Place:
    point: Point


@dataclass(frozen=True)
class Choose:
    """A colour taken (`black` or `white`), or in swap2 `place_two`."""

    option: str


@dataclass(frozen=True)
class Offer:
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Pick:
    point: Point


Action = Place | Choose | Offer | Pick


@dataclass(frozen=True)
class Step:
    """What comes next: `actor` (FIRST or SECOND) may `place` (within the central square of
    side `area`, None: anywhere), `choose` one of `options`, place or `offer` `count` fifth
    stones (`fifth`), or `pick` one of `offers`."""

    actor: str
    kind: str
    area: int | None = None
    options: tuple[str, ...] = ()
    count: int = 0
    offers: tuple[Point, ...] = ()


@dataclass
class _Walk:
    """The opening replayed from its log: the stones so far and who holds black."""

    stones: list[Point] = field(default_factory=list)
    black: str = FIRST
    offers: tuple[Point, ...] = ()

    def holder(self, color: str) -> str:
        return self.black if color == BLACK else other(self.black)

    def next_color(self) -> str:
        return BLACK if len(self.stones) % 2 == 0 else WHITE


def other(player: str) -> str:
    return SECOND if player == FIRST else FIRST


class Opening:
    def __init__(self, rule: str, log: Sequence[tuple[str, Action]] = ()) -> None:
        if rule not in OPENINGS:
            raise ValueError(f"unknown opening {rule!r}; expected one of {', '.join(OPENINGS)}")
        self.rule = rule
        self.log = tuple(log)
        self.step, self._walk = _replay(rule, self.log)

    @property
    def over(self) -> bool:
        return self.step is None

    @property
    def stones(self) -> list[Point]:
        return list(self._walk.stones)

    @property
    def black(self) -> str:
        """Who holds black now (FIRST or SECOND)."""
        return self._walk.black

    def color_of(self, player: str) -> str:
        """The colour `player` (FIRST or SECOND) holds now."""
        return BLACK if player == self._walk.black else WHITE

    def player_of(self, color: str) -> str:
        """Who (FIRST or SECOND) holds `color` now."""
        return self._walk.holder(color)

    @property
    def to_act(self) -> str | None:
        """The colour of whoever acts next (the seat, not the colour of the next stone);
        None once the opening is over."""
        return None if self.step is None else self.color_of(self.step.actor)

    def apply(self, actor: str, action: Action) -> Opening:
        """The opening after `actor` did `action`; refuses (OpeningRefused, or the move's own
        refusals: out_of_range, occupied) what the step does not allow."""
        step = self.step
        if step is None:
            raise OpeningRefused("conflict", "the opening is over")
        if actor != step.actor:
            raise OpeningRefused("not_your_turn", "it is the other player's turn in the opening")
        _check(step, action, self._walk)
        return Opening(self.rule, (*self.log, (actor, action)))


def _replay(rule: str, log: tuple[tuple[str, Action], ...]) -> tuple[Step | None, _Walk]:
    """Runs the rule's script over the log; returns the step after the last logged action."""
    walk = _Walk()
    script = _SCRIPTS[rule](walk)
    step = next(script, None)
    for actor, action in log:
        if step is None or actor != step.actor:
            raise ValueError("the log does not follow the opening")
        _check(step, action, walk)
        step = _send(script, action)
    return step, walk


def _send(script: Iterator[Step], action: Action) -> Step | None:
    try:
        return script.send(action)  # type: ignore[attr-defined]
    except StopIteration:
        return None


# Each script is a generator: it yields the next Step and receives the action taken, keeping
# the walk (stones, black) up to date. Actions reach it checked (_check).

def _none(walk: _Walk):
    return
    yield


def _swap(walk: _Walk):
    yield from _place(walk, FIRST, 3)
    choice = yield Step(SECOND, "choose", options=(BLACK, WHITE))
    _take(walk, SECOND, choice.option)


def _swap2(walk: _Walk):
    yield from _place(walk, FIRST, 3)
    choice = yield Step(SECOND, "choose", options=(BLACK, WHITE, "place_two"))
    if choice.option != "place_two":
        _take(walk, SECOND, choice.option)
        return
    yield from _place(walk, SECOND, 2)
    choice = yield Step(FIRST, "choose", options=(BLACK, WHITE))
    _take(walk, FIRST, choice.option)


def _taraguchi(walk: _Walk):
    for area in (1, 3, 5, 7):
        placer = walk.holder(walk.next_color())
        place = yield Step(placer, "place", area=area)
        walk.stones.append(place.point)
        yield from _swap_offered(walk, other(placer))
    fifth = yield Step(walk.black, "fifth", area=9, count=TARAGUCHI_OFFERS)
    if isinstance(fifth, Place):
        walk.stones.append(fifth.point)
        yield from _swap_offered(walk, other(walk.black))
        return
    walk.offers = fifth.points
    pick = yield Step(other(walk.black), "pick", offers=fifth.points)
    walk.stones.append(pick.point)
    walk.offers = ()


def _place(walk: _Walk, player: str, count: int):
    for _ in range(count):
        place = yield Step(player, "place")
        walk.stones.append(place.point)


def _swap_offered(walk: _Walk, chooser: str):
    choice = yield Step(chooser, "choose", options=(BLACK, WHITE))
    _take(walk, chooser, choice.option)


def _take(walk: _Walk, chooser: str, color: str) -> None:
    walk.black = chooser if color == BLACK else other(chooser)


_SCRIPTS = {"none": _none, "swap": _swap, "swap2": _swap2, "taraguchi-10": _taraguchi}


def _check(step: Step, action: Action, walk: _Walk) -> None:
    kinds = {"place": (Place,), "choose": (Choose,), "fifth": (Place, Offer), "pick": (Pick,)}
    if not isinstance(action, kinds[step.kind]):
        raise OpeningRefused("conflict", f"the opening expects {step.kind} now")
    if isinstance(action, Choose) and action.option not in step.options:
        raise OpeningRefused("bad_request", f"choose one of {', '.join(step.options)}")
    if isinstance(action, Place):
        _check_point(action.point, walk.stones, step.area)
    if isinstance(action, Offer):
        _check_offers(action.points, walk.stones, step.count)
    if isinstance(action, Pick) and action.point not in step.offers:
        raise OpeningRefused("not_offered", "pick one of the offered fifth stones")


def _check_point(point: Point, stones: Sequence[Point], area: int | None) -> None:
    row, col = point
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise OutOfRange(row=row, col=col)
    if point in stones:
        raise Occupied(row=row, col=col)
    if area is not None and not within(point, area):
        raise OpeningRefused("outside_area", f"this stone goes within the central {area}x{area}")


def within(point: Point, area: int) -> bool:
    """Whether `point` lies in the central square of side `area`."""
    half = area // 2
    return abs(point[0] - CENTRE) <= half and abs(point[1] - CENTRE) <= half


def _check_offers(points: Sequence[Point], stones: Sequence[Point], count: int) -> None:
    if len(points) != count:
        raise OpeningRefused("bad_request", f"offer exactly {count} fifth stones")
    if len(set(points)) != len(points):
        raise OpeningRefused("repeated_offer", "each fifth stone may be offered once")
    for point in points:
        _check_point(point, stones, None)
    seen: set[Point] = set()
    for point in points:
        if point in seen:
            raise OpeningRefused("symmetric_offer",
                                 "two offered fifth stones are symmetric in this position")
        seen.update(symmetric_points(point, stones))


# The eight symmetries of the square board about its centre, on offsets from the centre.
_SYMMETRIES = (
    lambda r, c: (r, c), lambda r, c: (c, -r), lambda r, c: (-r, -c), lambda r, c: (-c, r),
    lambda r, c: (r, -c), lambda r, c: (-r, c), lambda r, c: (c, r), lambda r, c: (-c, -r),
)


def _moved(symmetry, point: Point) -> Point:
    row, col = symmetry(point[0] - CENTRE, point[1] - CENTRE)
    return row + CENTRE, col + CENTRE


def symmetric_points(point: Point, stones: Sequence[Point]) -> set[Point]:
    """`point` and every point it is symmetric to in the position: its images under each
    symmetry of the board that maps the black stones onto the black ones and the white onto
    the white (stones in move order: black first)."""
    blacks, whites = set(stones[0::2]), set(stones[1::2])
    keeping = [s for s in _SYMMETRIES
               if {_moved(s, p) for p in blacks} == blacks
               and {_moved(s, p) for p in whites} == whites]
    return {_moved(s, point) for s in keeping}
