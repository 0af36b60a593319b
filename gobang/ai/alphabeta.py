"""Iterative-deepening alpha-beta over the best-scored candidate points of each node.

Principal-variation search: the first move of a node (the transposition table's or a
killer's, else the best-scored) gets the full window, every other one a null window that
only asks "is it better?", searched again in full only when it is. The transposition table
keeps, per position, the depth searched, the score and whether it is exact or a bound, so a
position reached again by another move order (frequent in gomoku) is not searched twice;
killer moves (replies that refuted a sibling) are tried early. All of it lets a node cap
reach deeper iterations: see docs/engines.md, "Levels".
"""

from collections.abc import Callable

from .budget import Budget, OutOfBudget
from .position import FOUR, FOUR_OPEN, Position

WIN = 10_000_000
# How much a point is worth for blocking the opponent, relative to using it oneself.
DEFENCE_WEIGHT = 0.9
EXACT, LOWER, UPPER = 0, 1, 2


class AlphaBeta:
    """One move's search at one candidate width, within one budget."""

    def __init__(self, pos: Position, budget: Budget, width: int,
                 leaf: Callable[[int], int] | None = None) -> None:
        self._pos = pos
        # The static worth of a leaf for the side to move (the analysis uses a calmer one).
        self._leaf = leaf or pos.evaluation
        self._budget = budget
        self._width = width
        # hash -> (depth, bound kind, score, best move); kept across the iterations.
        self._table: dict[int, tuple[int, int, int, int]] = {}
        self._killers: dict[int, list[int]] = {}

    def best_move(self, moves: list[int], deepest: int) -> int:
        """The best of ``moves`` (best-scored first) by the deepest iteration the budget
        allows, deepening two plies at a time up to ``deepest``."""
        return self.best_and_score(moves, deepest)[0]

    def best_and_score(self, moves: list[int], deepest: int) -> tuple[int, int | None]:
        """`best_move`, with the score of the deepest iteration completed for the side to
        move (None when not even the first one was: the analysis then falls back on the
        static evaluation)."""
        moves = list(moves)
        best = moves[0]
        completed: int | None = None
        # Only depths of the deepest's parity: the leaf score counts the side to move's
        # points as its own, so an odd depth overrates the last mover's attacks (a depth-5
        # level scored 17-25 % against depth 4 on 2026-12-01, docs/engines.md).
        for depth in range(deepest % 2 or 2, deepest + 1, 2):
            found: list[int] = []
            try:
                score = self._root(moves, depth, found)
            except OutOfBudget:
                # A move that beat the previous iteration's best in full is better still.
                if found:
                    best = found[-1]
                break
            best = found[-1]
            completed = score
            if abs(score) >= WIN // 2:
                break
            moves.remove(best)
            moves.insert(0, best)
        return best, completed

    def principal_line(self, first: int, plies: int) -> list[int]:
        """``first`` and the table's best replies after it, up to ``plies`` moves: the line
        the search expects. Leaves the position as found."""
        pos = self._pos
        line = [first]
        pos.play(first)
        played = 1
        try:
            while len(line) < plies:
                entry = self._table.get(pos.hash)
                if entry is None or pos.cells[entry[3]]:
                    break
                line.append(entry[3])
                pos.play(entry[3])
                played += 1
        finally:
            for _ in range(played):
                pos.undo()
        return line

    def _root(self, moves: list[int], depth: int, found: list[int]) -> int:
        """Search ``moves`` to ``depth``, appending each new best to ``found``."""
        pos = self._pos
        alpha = -WIN - 1
        for k, move in enumerate(moves):
            pos.play(move)
            try:
                score = self._child(depth - 1, alpha, WIN + 1, 1, k == 0)
            finally:
                pos.undo()
            if score > alpha:
                alpha = score
                found.append(move)
        return alpha

    def _child(self, depth: int, alpha: int, beta: int, ply: int, first: bool) -> int:
        """The score of the move just played for the side that played it."""
        if first:
            return -self._negamax(depth, -beta, -alpha, ply)
        score = -self._negamax(depth, -alpha - 1, -alpha, ply)
        if alpha < score < beta:
            score = -self._negamax(depth, -beta, -alpha, ply)
        return score

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._budget.tick()
        pos = self._pos
        side = pos.to_move
        other = 3 - side
        if pos.fives(side):
            return WIN - ply
        theirs = pos.fives(other)
        if theirs:
            block = theirs[0]
            if len(set(theirs)) > 1 or pos.is_forbidden(block, side):
                return -WIN + ply + 1
            return self._search([block], depth, alpha, beta, ply)
        for i in pos.threats[side]:
            if pos.best[side][i] >= FOUR_OPEN and not pos.is_forbidden(i, side):
                return WIN - ply - 2
        if depth <= 0:
            return self._leaf(side)
        entry = self._table.get(pos.hash)
        hint = None
        if entry is not None:
            stored, kind, score, hint = entry
            if stored >= depth and (
                kind == EXACT
                or (kind == LOWER and score >= beta)
                or (kind == UPPER and score <= alpha)
            ):
                return score
        moves = self._moves(side, hint, ply)
        if not moves:
            return 0
        return self._search(moves, depth, alpha, beta, ply)

    def _search(self, moves: list[int], depth: int, alpha: int, beta: int, ply: int) -> int:
        pos = self._pos
        start = alpha
        best, best_move = -WIN - 1, moves[0]
        for k, move in enumerate(moves):
            pos.play(move)
            try:
                score = self._child(depth - 1, alpha, beta, ply + 1, k == 0)
            finally:
                pos.undo()
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self._killer(ply, move)
                        break
        kind = LOWER if best >= beta else UPPER if best <= start else EXACT
        # A win's score depends on the ply it was found at: keep only its move.
        self._table[pos.hash] = (depth if abs(best) < WIN // 2 else -1, kind, best, best_move)
        return best

    def _killer(self, ply: int, move: int) -> None:
        killers = self._killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]

    def _moves(self, side: int, hint: int | None, ply: int) -> list[int]:
        """The node's best-scored ``width`` legal points, the table's move and killers
        first; only blocks and counter-fours against an open three."""
        pos = self._pos
        other = 3 - side
        if any(pos.best[other][i] >= FOUR_OPEN for i in pos.threats[other]):
            moves = [
                i
                for i in pos.threats[other] | pos.threats[side]
                if pos.best[side][i] >= FOUR or i in pos.threats[other]
            ]
        else:
            moves = pos.candidates()
        mine, theirs = pos.scores[side], pos.scores[other]
        moves.sort(key=lambda i: -(mine[i] + DEFENCE_WEIGHT * theirs[i]))
        moves = [i for i in moves[: self._width + 4] if not pos.is_forbidden(i, side)]
        moves = moves[: self._width]
        for first in [*reversed(self._killers.get(ply, ())), hint]:
            if first is not None and first in moves:
                moves.remove(first)
                moves.insert(0, first)
        return moves
