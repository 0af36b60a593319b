"""The engine's side of a puzzle, with no database: whether a position is a forced win for
the attacker, and how a solver's move in it is judged. Every search is capped by a node
allowance (the clock only a backstop), so one call costs at most a few tens of
milliseconds, and the callers may run it off the event loop (docs/engines.md, "Puzzles")."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gobang.ai.budget import Budget
from gobang.ai.evaluation import (
    VCF_DEPTH,
    VCT_DEPTH,
    ForcedWin,
    evaluate,
    forced_win,
    still_wins,
)
from gobang.ai.position import BLACK, WHITE, Position
from gobang.rules import SIZE, Game, IllegalMove
from gobang.rules.errors import ForbiddenMove

Point = tuple[int, int]

# Verdicts on a solver's move.
SOLVED, KEPT, WRONG, FORBIDDEN, ILLEGAL = "solved", "kept", "wrong", "forbidden", "illegal"


@dataclass(frozen=True)
class Budgets:
    """Search nodes per call: `verify` a harvested position, `judge` a solver's move (the
    defence's reply included), and the clock's backstop for either."""

    verify: int = 20_000
    judge: int = 6_000
    seconds: float = 0.5


@dataclass(frozen=True)
class Verdict:
    """What a move did: `kind` one of the verdicts above; `reply` the defender's answer
    when the win is kept and the game goes on."""

    kind: str
    reply: Point | None = None


def attacker_of(moves: Sequence[Point]) -> str:
    """The side to move after `moves`: the one a puzzle asks to win."""
    return "black" if len(moves) % 2 == 0 else "white"


def _position(ruleset: str, moves: Sequence[Point]) -> Position:
    pos = Position(ruleset)
    for row, col in moves:
        pos.play(row * SIZE + col)
    return pos


def verify(ruleset: str, moves: Sequence[Point], budgets: Budgets,
           clock: Callable[[], float]) -> ForcedWin | None:
    """The attacker's forced win from the position after `moves` (it is to move), found by
    the threat search within `budgets.verify` nodes; None when none was found. The moves
    must be a real game's (IllegalMove otherwise) that has not ended."""
    game = Game.replay(moves, ruleset)
    if game.is_over:
        return None
    pos = _position(ruleset, moves)
    return forced_win(pos, pos.to_move, Budget(budgets.verify, clock() + budgets.seconds, clock))


def judge(ruleset: str, moves: Sequence[Point], move: Point, budgets: Budgets,
          clock: Callable[[], float], threes: bool, trusted: bool = False) -> Verdict:
    """Judge the attacker's `move` in the position after `moves` (the attacker to move).
    `threes`: whether open threes count as threats (a VCT puzzle) or only fours.

    Refused before judging: a point the rules do not allow (ILLEGAL), renju black's
    forbidden point (FORBIDDEN). A five solves it. Otherwise the move keeps the win when,
    with the defender to move, every defence loses to the threat search; the reply is then
    the engine's best defence. Anything else, the search's budget run out included, is
    WRONG, except the stored, verified line's own move (`trusted`), which is not searched
    again: a solver who plays the line is never failed by a search that ran short."""
    game = Game.replay(moves, ruleset)
    try:
        outcome = game.place(*move)
    except ForbiddenMove:
        return Verdict(FORBIDDEN)
    except IllegalMove:
        return Verdict(ILLEGAL)
    if outcome is not None:
        won = outcome.winner == attacker_of(moves)
        return Verdict(SOLVED if won else WRONG)
    pos = _position(ruleset, game.moves)
    attacker = WHITE if pos.to_move == BLACK else BLACK
    budget = Budget(budgets.judge, clock() + budgets.seconds, clock)
    if not trusted and not _still_wins(pos, attacker, budget, threes):
        return Verdict(WRONG)
    return Verdict(KEPT, _defence(pos, budget, clock))


def _still_wins(pos: Position, attacker: int, budget: Budget, threes: bool) -> bool:
    """Whether every defence loses: by fours alone, then (a VCT puzzle) with threes too.
    Half the budget for the search, the rest left for the reply."""
    tries = ((VCF_DEPTH, False), (VCT_DEPTH, True)) if threes else ((VCF_DEPTH, False),)
    return still_wins(pos, attacker, budget,
                      [(depth, with_threes, 0.5 / len(tries)) for depth, with_threes in tries])


def _defence(pos: Position, budget: Budget, clock: Callable[[], float]) -> Point:
    """The defender's move: the block of a four when there is one (the only move), else the
    engine's best defence within the nodes left."""
    fives = pos.fives(pos.to_move ^ 3)
    if fives:
        return divmod(fives[0], SIZE)
    nodes = max(200, budget.limit - budget.nodes)
    seconds = max(0.05, budget.deadline - clock())
    found = evaluate(pos, seconds, clock, nodes).best
    if found is None:  # no legal point left: cannot happen on a board with a win to play
        raise ValueError("the defender has no move")
    return divmod(found, SIZE)


def line_points(line: Sequence[Sequence[int]]) -> list[Point]:
    """A stored line as (row, col) tuples."""
    return [(int(row), int(col)) for row, col in line]


def forced_line(win: ForcedWin) -> list[Point]:
    return [divmod(i, SIZE) for i in win.line]
