"""Pairing one round of a Swiss event, in the spirit of FIDE's Dutch system (Handbook C.04.3,
with the basic rules of C.04.1); docs/tournaments.md says where it is simpler.

Players in (`SwissPlayer`: score, past opponents, a history of colours, byes and absences),
a `RoundPairing` out, or `NoPairing` when the field cannot be paired whole: never half a
round. Pure: no clock, no randomness (the first board's colour is an argument).

The absolute rules (C.04.1 b, d, f, g): no rematch; a player has at most one bye; nobody
plays the same colour three times in a row; nobody's colour difference goes past 2. Within
them, score groups are paired from the top, the top half of a group against its bottom half,
players who cannot be paired in their group float down to the next (C.04.3 A.3, A.4). Before
a board is committed, an Edmonds matching (matching.py) proves that everybody still unpaired
can be paired legally, so a choice in a high group never strands a lower one.

In gomoku black moves first: it stands for chess's white, and the colour difference is the
games with black less the games with white.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gobang.rules import BLACK, WHITE, opponent

from .matching import UNMATCHED, augment, is_perfect, maximum_matching

BYE = "bye"  # a round with a pairing-allocated bye: no opponent, no colour, a win's points
ABSENT = "absent"  # a round not played: absent, or not yet joined; no points
MAX_COLOUR_DIFFERENCE = 2  # C.04.1 f
BYE_POINTS = 1.0
SEARCH_BUDGET = 2000  # candidate boards tried per score group before the best found stands

PlayerId = int | str


class NoPairing(Exception):
    """The field cannot be paired whole under the absolute rules."""


@dataclass(frozen=True)
class SwissPlayer:
    """A player as the pairing needs them, before the round is paired. `history` has one
    entry per round so far: BLACK, WHITE, BYE or ABSENT."""

    id: PlayerId
    rating: int
    score: float = 0.0
    opponents: tuple[PlayerId, ...] = ()
    history: tuple[str, ...] = ()

    @property
    def colours(self) -> tuple[str, ...]:
        """The colours of the games played, oldest first: rounds without a game are skipped,
        as FIDE does when it counts colours in a row (C.04.3 A.6)."""
        return tuple(entry for entry in self.history if entry in (BLACK, WHITE))

    @property
    def colour_difference(self) -> int:
        colours = self.colours
        return colours.count(BLACK) - colours.count(WHITE)

    @property
    def had_bye(self) -> bool:
        return BYE in self.history

    def may_play(self, colour: str) -> bool:
        """Whether this colour keeps the absolute colour rules (C.04.1 f and g)."""
        step = 1 if colour == BLACK else -1
        if abs(self.colour_difference + step) > MAX_COLOUR_DIFFERENCE:
            return False
        return self.colours[-2:] != (colour, colour)

    def preference(self) -> str | None:
        """The colour owed: the rarer one, else the one not played last; None before any
        game (C.04.1 h)."""
        difference = self.colour_difference
        if difference:
            return WHITE if difference > 0 else BLACK
        colours = self.colours
        return opponent(colours[-1]) if colours else None


@dataclass(frozen=True)
class Board:
    black: PlayerId
    white: PlayerId


@dataclass(frozen=True)
class RoundPairing:
    """The boards from the top, the bye (None with an even field), and the players who
    floated down: paired against someone of a lower score."""

    boards: tuple[Board, ...]
    bye: PlayerId | None = None
    floated: tuple[PlayerId, ...] = ()


def rank_key(player: SwissPlayer) -> tuple[float, int, str]:
    """The pairing order (C.04.3 A.2): score, then rating, then the id as the last word."""
    return (-player.score, -player.rating, str(player.id))


def pair_round(players: Sequence[SwissPlayer], first_colour: str = BLACK) -> RoundPairing:
    """Pair the players present for the next round. `first_colour` is what the higher player
    of the top board gets when neither has a colour owed (the draw of C.04.3 E.5, made by
    the caller); it alternates down the boards."""
    ordered = sorted(players, key=rank_key)
    if len({player.id for player in ordered}) != len(ordered):
        raise ValueError("a player is listed twice")
    return _Pairer(ordered).pair(first_colour)


class _Pairer:
    """One round's pairing. Players are numbered by their pairing order; `alive` marks those
    still unpaired and `match` always holds a perfect legal matching of them."""

    def __init__(self, ordered: list[SwissPlayer]) -> None:
        self.players = ordered
        index = {player.id: number for number, player in enumerate(ordered)}
        self.adjacent: list[list[int]] = [[] for _ in ordered]
        for number, player in enumerate(ordered):
            met = {index[other] for other in player.opponents if other in index}
            for other in range(number + 1, len(ordered)):
                if other not in met and _colours_fit(player, ordered[other]):
                    self.adjacent[number].append(other)
                    self.adjacent[other].append(number)
        self.edges = [set(neighbours) for neighbours in self.adjacent]
        self.alive = [True] * len(ordered)
        self.match: list[int] = []

    def pair(self, first_colour: str) -> RoundPairing:
        bye = self._choose_bye() if len(self.players) % 2 else None
        if bye is None:
            self.match = maximum_matching(self.adjacent, self.alive)
            if not is_perfect(self.match, self.alive):
                raise NoPairing(self._why())
        pairs = self._pair_groups()
        boards = _boards(self.players, pairs, first_colour)
        floated = tuple(self.players[min(pair)].id for pair in pairs
                        if self.players[pair[0]].score != self.players[pair[1]].score)
        return RoundPairing(boards, None if bye is None else self.players[bye].id, floated)

    def _choose_bye(self) -> int:
        """The lowest-ranked player without a bye whose absence leaves a field that can be
        paired whole (C.04.1 c and d)."""
        for number in reversed(range(len(self.players))):
            if self.players[number].had_bye:
                continue
            self.alive[number] = False
            self.match = maximum_matching(self.adjacent, self.alive)
            if is_perfect(self.match, self.alive):
                return number
            self.alive[number] = True
        raise NoPairing(f"no bye can be given: of {len(self.players)} players, none who has not "
                        "had a bye leaves a field that can be paired without a rematch or a "
                        "broken colour rule")

    def _why(self) -> str:
        unpaired = [self.players[v].id for v in range(len(self.players))
                    if self.match[v] == UNMATCHED]
        return (f"no legal pairing for the {len(self.players)} players: every pairing leaves "
                f"some of {unpaired} without an opponent they have not met and whose colours "
                "allow the game")

    def _pair_groups(self) -> list[tuple[int, int]]:
        """Score groups from the top; who cannot be paired in a group moves down to the next
        one; the last group is paired whole."""
        groups: dict[float, list[int]] = {}
        for number, player in enumerate(self.players):
            if self.alive[number]:
                groups.setdefault(player.score, []).append(number)
        pairs: list[tuple[int, int]] = []
        movers: list[int] = []
        for score in sorted(groups, reverse=True):
            bracket = _Bracket(self, movers, groups[score])
            found, movers = bracket.pair()
            pairs += found
        pairs += self._pair_by_matching(movers)
        return pairs

    def _pair_by_matching(self, left: list[int]) -> list[tuple[int, int]]:
        """The last group's leftovers, paired as the proven matching pairs them."""
        pairs = [(v, self.match[v]) for v in left if v < self.match[v]]
        for first, second in pairs:
            self.alive[first] = self.alive[second] = False
        return pairs

    def commit(self, first: int, second: int) -> list[int] | None:
        """Take a board off the field if the rest can still be paired whole: the matching
        that proves it, or None (nothing changed)."""
        if second not in self.edges[first]:
            return None
        old_first, old_second = self.match[first], self.match[second]
        match = self.match.copy()
        self.alive[first] = self.alive[second] = False
        match[first] = match[second] = UNMATCHED
        if old_first == second:
            return match
        match[old_first] = match[old_second] = UNMATCHED
        # Two players lost their partners: one augmenting path between them mends it.
        if augment(self.adjacent, match, old_first, self.alive):
            return match
        self.alive[first] = self.alive[second] = True
        return None

    def release(self, first: int, second: int) -> None:
        self.alive[first] = self.alive[second] = True


class _Bracket:
    """One score group with the players moved down to it (C.04.3 A.3): the moved-down players
    first, each against the highest resident who fits; then the residents' top half
    against their bottom half, S1[i] against S2[i] first, then S2's transpositions in order,
    then exchanges with S1's lowest (C.04.3 B, D, simplified to a depth-first search). A
    player none fits moves down. The search stops at a pairing with as many boards as the
    group can hold, or when its budget is spent, keeping the best found: the first try
    always finishes, since floating a player never breaks the proven matching."""

    def __init__(self, pairer: _Pairer, movers: list[int], residents: list[int]) -> None:
        self.pairer = pairer
        self.movers = movers
        self.residents = residents
        self.most = (len(movers) + len(residents)) // 2
        self.budget = SEARCH_BUDGET
        self.best: tuple[list[tuple[int, int]], list[int], list[int]] | None = None

    def pair(self) -> tuple[list[tuple[int, int]], list[int]]:
        self._search(self.movers, self.residents, [], [])
        assert self.best is not None  # the first descent always reaches a leaf
        pairs, floaters, match = self.best
        pairer = self.pairer
        pairer.match = match
        for first, second in pairs:
            pairer.alive[first] = pairer.alive[second] = False
        return pairs, sorted(floaters)

    def _search(self, movers: list[int], residents: list[int], pairs: list[tuple[int, int]],
                floaters: list[int]) -> bool:
        """True once a pairing with the most boards possible is found."""
        if not movers and not residents:
            if self.best is None or len(pairs) > len(self.best[0]):
                self.best = (pairs, floaters, self.pairer.match.copy())
            return len(pairs) == self.most
        if self.best is not None and (
                len(pairs) + (len(movers) + len(residents)) // 2 <= len(self.best[0])):
            return False
        player = (movers or residents)[0]
        rest_movers = movers[1:] if movers else movers
        rest_residents = residents if movers else residents[1:]
        for other in self._candidates(player, rest_movers, rest_residents, bool(movers)):
            if self.budget <= 0:
                break
            self.budget -= 1
            if self._try(player, other, rest_movers, rest_residents, pairs, floaters):
                return True
        return self._search(rest_movers, rest_residents, pairs, floaters + [player])

    def _try(self, player: int, other: int, movers: list[int], residents: list[int],
             pairs: list[tuple[int, int]], floaters: list[int]) -> bool:
        pairer = self.pairer
        saved = pairer.match
        match = pairer.commit(player, other)
        if match is None:
            return False
        pairer.match = match
        done = self._search([v for v in movers if v != other],
                            [v for v in residents if v != other],
                            pairs + [(player, other)], floaters)
        pairer.match = saved
        pairer.release(player, other)
        return done

    @staticmethod
    def _candidates(player: int, movers: list[int], residents: list[int],
                    moved: bool) -> list[int]:
        if moved:
            return residents + movers
        top = (len(residents) + 1) // 2  # with the player: the top half, S1
        s1, s2 = residents[:top - 1], residents[top - 1:]
        return s2 + s1[::-1]


def _colours_fit(first: SwissPlayer, second: SwissPlayer) -> bool:
    return ((first.may_play(BLACK) and second.may_play(WHITE))
            or (first.may_play(WHITE) and second.may_play(BLACK)))


def _boards(players: list[SwissPlayer], pairs: list[tuple[int, int]],
            first_colour: str) -> tuple[Board, ...]:
    """The boards ordered by their higher player, each with its colours."""
    boards = []
    for number, (first, second) in enumerate(sorted(pairs, key=min)):
        higher, lower = players[min(first, second)], players[max(first, second)]
        initial = first_colour if number % 2 == 0 else opponent(first_colour)
        higher_colour = colour_of_higher(higher, lower, initial)
        if higher_colour == BLACK:
            boards.append(Board(higher.id, lower.id))
        else:
            boards.append(Board(lower.id, higher.id))
    return tuple(boards)


def colour_of_higher(higher: SwissPlayer, lower: SwissPlayer, initial: str) -> str:
    """The colour the higher-ranked player of a board gets (C.04.3 E, simplified): what the
    absolute rules force; else both preferences when they differ; else the player owed a
    colour by the wider difference; else alternation from the latest game in which the two
    had different colours; else the higher player's preference; else the lower player's
    opposite; else `initial`."""
    forced = [colour for colour in (BLACK, WHITE)
              if higher.may_play(colour) and lower.may_play(opponent(colour))]
    if len(forced) == 1:
        return forced[0]
    mine, theirs = higher.preference(), lower.preference()
    if mine and theirs and mine != theirs:
        return mine
    wide, narrow = abs(higher.colour_difference), abs(lower.colour_difference)
    if wide != narrow:
        return mine if wide > narrow and mine else opponent(theirs or initial)
    alternated = _alternation(higher.colours, lower.colours)
    if alternated:
        return alternated
    if mine:
        return mine
    return opponent(theirs) if theirs else initial


def _alternation(higher: tuple[str, ...], lower: tuple[str, ...]) -> str | None:
    """C.04.3 E.3: back from the latest game, the first in which the two had different
    colours; the higher player gets the opposite of theirs then."""
    for mine, theirs in zip(reversed(higher), reversed(lower), strict=False):
        if mine != theirs:
            return opponent(mine)
    return None
