"""Threat-space search: can the attacker force a five with fours alone (VCF), or with
fours and open threes (VCT), whatever the defender does?

The defender's replies to a four are forced (the one five point); to an open three they are
every point where the attacker would make a four or better, plus the defender's own fours.
A forced reply that is forbidden to renju black cannot be played, which is how white wins
by driving black onto a forbidden point.
"""

from collections.abc import Callable

from .budget import Budget
from .position import FOUR_OPEN, THREE, Position

# At most this many open-three attacks are tried per VCT node, best first.
THREE_WIDTH = 8


class ThreatSearch:
    """Forced-win search on one position, within one budget. Leaves the position as found."""

    def __init__(self, position: Position, budget: Budget) -> None:
        self._pos = position
        self._budget = budget
        self._failed: dict[tuple[int, int, bool], int] = {}

    def winning_move(self, attacker: int, depth: int, threes: bool) -> int | None:
        """A first move of a forced win for ``attacker`` (who must be to move) in at most
        ``depth`` attacking moves, or None if none was found. ``threes`` allows open
        threes as threats (VCT), otherwise only fours (VCF). Raises OutOfBudget."""
        return self._attack(attacker, depth, threes)

    def still_wins(self, attacker: int, depth: int, threes: bool) -> bool:
        """With the defender to move: whether ``attacker`` wins however it defends, in at
        most ``depth`` more attacking moves. Raises OutOfBudget."""
        return self._defend(attacker, depth, threes)

    def _attack(self, attacker: int, depth: int, threes: bool) -> int | None:
        pos = self._pos
        self._budget.tick()
        defender = 3 - attacker
        fives = pos.fives(attacker)
        if fives:
            return fives[0]
        theirs = pos.fives(defender)
        if theirs:
            block = self._only_block(theirs, attacker)
            if block is None:
                return None
            won = self._after(block, lambda: self._defend(attacker, depth - 1, threes))
            return block if won else None
        if depth <= 0:
            return None
        key = (pos.hash, attacker, threes)
        if self._failed.get(key, -1) >= depth:
            return None
        for move in self._attacks(attacker, threes):
            if pos.best[attacker][move] >= FOUR_OPEN:
                return move
            if self._after(move, lambda: self._defend(attacker, depth - 1, threes)):
                return move
        self._failed[key] = depth
        return None

    def _attacks(self, attacker: int, threes: bool) -> list[int]:
        pos = self._pos
        best = pos.best[attacker]
        score = pos.scores[attacker]
        fours = [i for i in pos.threats[attacker] if not pos.is_forbidden(i, attacker)]
        fours.sort(key=lambda i: (-best[i], -score[i], i))
        if not threes:
            return fours
        opens = [i for i in pos.candidates() if best[i] == THREE]
        opens.sort(key=lambda i: (-score[i], i))
        opens = [i for i in opens if not pos.is_forbidden(i, attacker)][:THREE_WIDTH]
        return fours + opens

    def _defend(self, attacker: int, depth: int, threes: bool) -> bool:
        pos = self._pos
        self._budget.tick()
        defender = 3 - attacker
        if pos.fives(defender):
            return False
        fives = pos.fives(attacker)
        if fives:
            block = self._only_block(fives, defender)
            if block is None:
                return True
            return self._after(block, lambda: self._attack(attacker, depth, threes) is not None)
        if not threes:
            return False
        best = pos.best[attacker]
        if not any(best[i] >= FOUR_OPEN for i in pos.threats[attacker]):
            return False  # the attack fizzled: no open three left to answer
        replies = set(pos.threats[attacker]) | pos.threats[defender]
        ordered = sorted(replies, key=lambda i: (-pos.scores[attacker][i], i))
        for reply in ordered:
            if pos.is_forbidden(reply, defender):
                continue
            if not self._after(reply, lambda: self._attack(attacker, depth, threes) is not None):
                return False
        return True

    def _only_block(self, fives: list[int], mover: int) -> int | None:
        """The point ``mover`` must play against these five points, or None when it cannot
        stop them all (two points, or the only one forbidden to it)."""
        if len(set(fives)) > 1 or self._pos.is_forbidden(fives[0], mover):
            return None
        return fives[0]

    def _after(self, move: int, search: Callable[[], bool]) -> bool:
        """``search()`` with ``move`` played, the position restored afterwards."""
        self._pos.play(move)
        try:
            return search()
        finally:
            self._pos.undo()
