"""Choosing a move: immediate fives and blocks, threat-space search for both sides, then
iterative-deepening alpha-beta over the best-scored candidate points."""

import random
import time
from collections.abc import Callable

from .budget import Budget, OutOfBudget
from .levels import Level
from .position import CELLS, FOUR, FOUR_OPEN, Position
from .threats import ThreatSearch

WIN = 10_000_000
# How much a point is worth for blocking the opponent, relative to using it oneself.
DEFENCE_WEIGHT = 0.9
# Candidate moves tested as answers to an opponent's forced win.
DEFENCE_WIDTH = 12


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
        return self._alphabeta_root(pos, budget, moves)

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

    # --- alpha-beta --------------------------------------------------------------------

    def _alphabeta_root(self, pos: Position, budget: Budget, moves: list[int]) -> int:
        moves = moves[: max(self.level.width, 1) + 2]
        best = moves[0]
        table: dict[int, int] = {}
        # Only depths of the level's parity: the leaf score counts the side to move's
        # points as its own, so an odd depth overrates the last mover's attacks (a depth-5
        # level scored 17-25 % against depth 4 on 2026-12-01, docs/engines.md).
        deepest = self.level.depth
        for depth in range(deepest % 2 or 2, deepest + 1, 2):
            try:
                best, score = self._root_iteration(pos, budget, moves, depth, table)
            except OutOfBudget:
                break
            if abs(score) >= WIN // 2:
                break
            moves.remove(best)
            moves.insert(0, best)
        return best

    def _root_iteration(
        self, pos: Position, budget: Budget, moves: list[int], depth: int, table: dict[int, int]
    ) -> tuple[int, int]:
        alpha = -WIN - 1
        best = moves[0]
        for move in moves:
            pos.play(move)
            try:
                score = -self._negamax(pos, budget, depth - 1, -WIN - 1, -alpha, 1, table)
            finally:
                pos.undo()
            if score > alpha:
                alpha, best = score, move
        return best, alpha

    def _negamax(
        self,
        pos: Position,
        budget: Budget,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        table: dict[int, int],
    ) -> int:
        budget.tick()
        side = pos.to_move
        other = 3 - side
        if pos.fives(side):
            return WIN - ply
        theirs = pos.fives(other)
        if theirs:
            block = theirs[0]
            if len(set(theirs)) > 1 or pos.is_forbidden(block, side):
                return -WIN + ply + 1
            moves = [block]
        else:
            for i in pos.threats[side]:
                if pos.best[side][i] >= FOUR_OPEN and not pos.is_forbidden(i, side):
                    return WIN - ply - 2
            if depth <= 0:
                return pos.evaluation(side)
            moves = self._node_moves(pos, side, table)
            if not moves:
                return 0
        best_move = moves[0]
        for move in moves:
            pos.play(move)
            try:
                score = -self._negamax(pos, budget, depth - 1, -beta, -alpha, ply + 1, table)
            finally:
                pos.undo()
            if score > alpha:
                alpha, best_move = score, move
                if alpha >= beta:
                    break
        table[pos.hash] = best_move
        return alpha

    def _node_moves(self, pos: Position, side: int, table: dict[int, int]) -> list[int]:
        other = 3 - side
        if any(pos.best[other][i] >= FOUR_OPEN for i in pos.threats[other]):
            # An open three must be answered: block it or counter with a four.
            moves = [
                i
                for i in pos.threats[other] | pos.threats[side]
                if pos.best[side][i] >= FOUR or i in pos.threats[other]
            ]
        else:
            moves = pos.candidates()
        mine, theirs = pos.scores[side], pos.scores[other]
        moves.sort(key=lambda i: -(mine[i] + DEFENCE_WEIGHT * theirs[i]))
        moves = [i for i in moves[: self.level.width + 4] if not pos.is_forbidden(i, side)]
        moves = moves[: self.level.width]
        hint = table.get(pos.hash)
        if hint is not None and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        return moves
