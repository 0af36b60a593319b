"""Choosing a move: immediate fives and blocks, threat-space search for both sides, then
iterative-deepening alpha-beta over the best-scored candidate points."""

import random
import time
from collections.abc import Callable
from functools import partial

from .alphabeta import DEFENCE_WEIGHT, AlphaBeta
from .budget import Budget, OutOfBudget
from .fitted import FITTED_LEAF
from .levels import Level
from .position import CELLS, FOUR_OPEN, Position
from .threats import ThreatSearch

# Candidate moves tested as answers to an opponent's forced win.
DEFENCE_WIDTH = 12
# A root move that leaves two fives to make (or a five its block may not stop) wins.
WINNING = 10**9


class NoLegalMove(ValueError):
    """The side to move has no point it may play: in renju, black when every empty point
    left is forbidden. What that means for the game is the caller's business."""


class Engine:
    """Picks moves for the side to move of a `Position` at one `Level`.

    ``rng`` supplies all randomness (a seeded ``random.Random`` replays a game exactly) and
    ``clock`` the time for the backstop, so tests can control both.
    """

    def __init__(
        self,
        level: Level,
        rng: random.Random,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.level = level
        self._rng = rng
        self._clock = clock
        self.last_nodes = 0

    def choose(self, pos: Position, seconds: float | None = None) -> int:
        """The point (flat index) to play. ``seconds`` can only shorten the level's backstop.
        Never returns an occupied point or one forbidden to the side to move; raises
        NoLegalMove when there is none."""
        limit = self.level.seconds if seconds is None else min(seconds, self.level.seconds)
        budget = Budget(self.level.nodes, self._clock() + limit, self._clock)
        try:
            return self._choose(pos, budget)
        finally:
            self.last_nodes = budget.nodes

    def _choose(self, pos: Position, budget: Budget) -> int:
        side = pos.to_move
        other = 3 - side
        legal = [i for i in pos.candidates() if not pos.is_forbidden(i, side)]
        if not legal:
            legal = [i for i in range(CELLS) if not pos.cells[i] and not pos.is_forbidden(i, side)]
        if not legal:
            raise NoLegalMove("no empty point the side to move may play")
        forced = self._forced(pos, side, legal)
        if forced is not None:
            return forced
        level = self.level
        if level.vcf:
            for depth, threes in ((level.vcf, False), (level.vct, True)):
                if depth:
                    win = self._threat(pos, budget, side, depth, threes)
                    if win is not None:
                        return win
        moves = self._ordered(pos, side, legal)
        if level.defend:
            moves = self._refutations(pos, budget, other, moves) or moves
        if level.depth == 0:
            return self._pick(pos, side, moves)
        return self._alphabeta(pos, budget, moves)

    def _forced(self, pos: Position, side: int, legal: list[int]) -> int | None:
        """Own five, a block of the opponent's five, or own unstoppable four."""
        allowed = set(legal)
        for move in pos.fives(side):
            return move
        blocks = [i for i in pos.fives(3 - side) if i in allowed]
        if blocks:
            return min(blocks)
        if self.level.vcf:
            wins = sorted(i for i in pos.threats[side] if pos.best[side][i] >= FOUR_OPEN)
            for move in wins:
                if move in allowed and not pos.fives(3 - side):
                    return move
        return None

    def _threat(
        self, pos: Position, budget: Budget, attacker: int, depth: int, threes: bool
    ) -> int | None:
        sub = budget.share(0.3)
        try:
            return ThreatSearch(pos, sub).winning_move(attacker, depth, threes)
        except OutOfBudget:
            return None
        finally:
            budget.spend(sub)

    def _refutations(
        self, pos: Position, budget: Budget, other: int, moves: list[int]
    ) -> list[int]:
        """If the opponent, were it to move, would have a forced win, the moves among the
        best candidates (and own fours) after which it no longer has one."""
        pos.pass_turn()
        try:
            threat = self._opponent_wins(pos, budget, other)
        finally:
            pos.undo()
        if not threat:
            return moves
        side = 3 - other
        tried = moves[:DEFENCE_WIDTH] + [m for m in moves[DEFENCE_WIDTH:] if m in pos.threats[side]]
        safe = []
        for move in tried:
            pos.play(move)
            try:
                if not self._opponent_wins(pos, budget, other):
                    safe.append(move)
            finally:
                pos.undo()
        return safe

    def _opponent_wins(self, pos: Position, budget: Budget, other: int) -> bool:
        level = self.level
        if pos.fives(other):
            return True
        if self._threat(pos, budget, other, level.vcf, False) is not None:
            return True
        return bool(level.vct) and self._threat(pos, budget, other, level.vct, True) is not None

    def _ordered(self, pos: Position, side: int, moves: list[int]) -> list[int]:
        mine, theirs = pos.scores[side], pos.scores[3 - side]
        rng = self._rng
        keyed = [(-(mine[i] + DEFENCE_WEIGHT * theirs[i]), rng.random(), i) for i in moves]
        keyed.sort()
        return [i for _, _, i in keyed]

    def _pick(self, pos: Position, side: int, moves: list[int]) -> int:
        """A move whose score is within the level's noise of the best, at random."""
        mine, theirs = pos.scores[side], pos.scores[3 - side]
        value = {i: mine[i] + DEFENCE_WEIGHT * theirs[i] for i in moves[: self.level.width]}
        top = max(value.values())
        floor = top * (1 - self.level.noise)
        near = [i for i, v in value.items() if v >= floor]
        return self._rng.choice(near)

    def _alphabeta(self, pos: Position, budget: Budget, moves: list[int]) -> int:
        width = max(self.level.width, 1)
        leaf = partial(FITTED_LEAF.evaluate, pos) if self.level.fitted else pos.evaluation
        if self.level.reorder:
            moves = reordered(pos, moves, self.level.reorder, leaf)
        search = AlphaBeta(pos, budget, width, leaf)
        roots = self.level.root_width or width + 2
        return search.best_move(moves[:roots], self.level.depth)


def reordered(pos: Position, moves: list[int], count: int, leaf: Callable[[int], int]) -> list[int]:
    """The first ``count`` moves sorted by the leaf one move on, the rest after them: the
    alpha-beta searches only the first few, so the leaf of the level chooses which."""
    side = pos.to_move
    ahead = {move: _one_move_on(pos, move, side, leaf) for move in moves[:count]}
    return sorted(moves[:count], key=lambda m: -ahead[m]) + moves[count:]


def _one_move_on(pos: Position, move: int, side: int, leaf: Callable[[int], int]) -> int:
    """The worth to ``side`` of playing ``move``: a four is judged after its forced block."""
    other = 3 - side
    pos.play(move)
    try:
        fives = set(pos.fives(side))
        if not fives:
            return -leaf(other)
        block = min(fives)
        if len(fives) > 1 or pos.is_forbidden(block, other):
            return WINNING
        pos.play(block)
        try:
            return leaf(side)
        finally:
            pos.undo()
    finally:
        pos.undo()
