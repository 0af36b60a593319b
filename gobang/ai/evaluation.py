"""Judging a finished game's moves: how good each position is for black, which moves threw
away a win, and how accurately each side played (docs/engines.md, "Analysis").

Deterministic for a given node allowance: the search is capped by nodes, the clock is only
a backstop, and candidate moves are ordered without randomness.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from gobang.rules import SIZE, Game

from .alphabeta import DEFENCE_WEIGHT, WIN, AlphaBeta
from .budget import Budget, OutOfBudget
from .position import BLACK, CELLS, WHITE, Position
from .threats import ThreatSearch

ENGINE_NAME = "gobang-analysis"
ENGINE_VERSION = "1"

# Nodes per position: about a tenth of a second each on the development machine, so that
# a 40-move game is done well within half a minute (docs/performance.md).
DEFAULT_NODES = 6000
# The alpha-beta part: depth and candidate width (level 6's, docs/engines.md "Levels").
DEPTH = 4
WIDTH = 6
# Threat searches: attacking moves a VCF may chain, and a (cheaper) VCT.
VCF_DEPTH = 12
VCT_DEPTH = 3
# Fractions of the position's nodes the threat searches may spend.
VCF_SHARE = 0.25
VCT_SHARE = 0.25
# A score of this many points is a 73 % win chance (logistic 2/(1+e^-1) - 1 = 0.46).
SCORE_SCALE = 1500.0
# The most one empty point counts for in the analysis's worth of a position (`calm_worth`).
POINT_CAP = 1000
# Moves shown in a line.
LINE_PLIES = 7

# Thresholds on the drop of the mover's win chance (-1..1), lichess's.
LABELS: tuple[tuple[float, str], ...] = (
    (0.3, "blunder"),
    (0.2, "mistake"),
    (0.1, "inaccuracy"),
)
LABEL_NAMES = tuple(name for _, name in reversed(LABELS))


@dataclass(frozen=True)
class ForcedWin:
    """A forced win for the side to move: by fours alone ("vcf") or with threes ("vct")."""

    kind: str
    line: tuple[int, ...]


@dataclass(frozen=True)
class Evaluation:
    """``win_chance`` for black, -1 (white wins) .. 1 (black wins); ``best`` the engine's
    move for the side to move (None when it has none); ``line`` the expected moves from
    here; ``forced`` the side to move's forced win, when one was found."""

    win_chance: float
    best: int | None
    line: tuple[int, ...] = ()
    forced: ForcedWin | None = None


@dataclass(frozen=True)
class MoveReview:
    number: int
    color: str
    move: tuple[int, int]
    before: float
    after: float
    best: tuple[int, int] | None
    label: str | None
    missed_win: dict | None

    def as_dict(self) -> dict:
        return {
            "number": self.number, "color": self.color, "move": list(self.move),
            "before": round(self.before, 4), "after": round(self.after, 4),
            "best": list(self.best) if self.best is not None else None,
            "label": self.label, "missed_win": self.missed_win,
        }


@dataclass(frozen=True)
class GameAnalysis:
    moves: tuple[MoveReview, ...]
    players: dict[str, dict] = field(default_factory=dict)
    engine: str = f"{ENGINE_NAME} {ENGINE_VERSION}"

    def as_dict(self) -> dict:
        return {"engine": self.engine, "moves": [m.as_dict() for m in self.moves],
                "players": self.players}


def logistic(score: float) -> float:
    """A search score (points for the side to move) as a -1..1 win chance."""
    return 2.0 / (1.0 + math.exp(-score / SCORE_SCALE)) - 1.0


def label_for(drop: float) -> str | None:
    """The label of a move that lowered its player's win chance by ``drop``."""
    for threshold, name in LABELS:
        if drop >= threshold - 1e-9:
            return name
    return None


def move_accuracy(before: float, after: float) -> float:
    """Lichess's per-move accuracy from the mover's win chances (-1..1) before and after,
    taken as win percentages (0..100); clamped to 0..100."""
    before_pct, after_pct = 50 + 50 * before, 50 + 50 * after
    value = 103.1668 * math.exp(-0.04354 * (before_pct - after_pct)) - 3.1669
    return min(100.0, max(0.0, value))


def evaluate(pos: Position, seconds: float, clock: Callable[[], float],
             nodes: int = DEFAULT_NODES, depth: int = DEPTH) -> Evaluation:
    """How the position stands for black, with the best move for the side to move, within
    ``nodes`` (and ``seconds`` on ``clock`` as a backstop), the alpha-beta part ``depth``
    plies deep at most. Leaves ``pos`` as found."""
    budget = Budget(nodes, clock() + seconds, clock)
    side = pos.to_move
    sign = 1.0 if side == BLACK else -1.0
    legal = legal_moves(pos, side)
    if not legal:  # renju black with only forbidden points left, or a full board
        return Evaluation(0.0, None)
    forced = _immediate(pos, side, legal)
    if forced is not None:
        return forced if side == BLACK else _flip(forced)
    win = forced_win(pos, side, budget)
    if win is not None:
        return Evaluation(sign, win.line[0], win.line, win)
    if _defenceless(pos, side, budget):
        return Evaluation(-sign, legal[0], (legal[0],))
    return _searched(pos, side, legal, budget, sign, depth)


def _defenceless(pos: Position, side: int, budget: Budget) -> bool:
    """Whether the opponent's four or open three (just played) goes on to a forced win
    whatever the side to move does: how a move that keeps a forced win is told from one
    that lets it go."""
    return still_wins(pos, 3 - side, budget,
                      ((VCF_DEPTH, False, VCF_SHARE), (VCT_DEPTH, True, VCT_SHARE)))


def still_wins(pos: Position, attacker: int, budget: Budget,
               tries: Sequence[tuple[int, bool, float]]) -> bool:
    """Whether every defence of the side to move loses to `attacker`'s threats: each try is
    (depth, open threes count as threats, share of `budget`), tried in turn until one
    proves it. A try that runs out of its share proves nothing."""
    for depth, threes, share in tries:
        sub = budget.share(share)
        try:
            if ThreatSearch(pos, sub).still_wins(attacker, depth, threes):
                return True
        except OutOfBudget:
            pass
        finally:
            budget.spend(sub)
    return False


def _flip(found: Evaluation) -> Evaluation:
    return Evaluation(-found.win_chance, found.best, found.line, found.forced)


def _immediate(pos: Position, side: int, legal: list[int]) -> Evaluation | None:
    """A five to make, or the opponent's five that cannot be stopped (for black's sake)."""
    own = pos.fives(side)
    if own:
        return Evaluation(1.0, own[0], (own[0],), ForcedWin("vcf", (own[0],)))
    theirs = set(pos.fives(3 - side))
    if len(theirs) > 1 or (theirs and not theirs <= set(legal)):
        block = min(theirs & set(legal), default=legal[0])
        return Evaluation(-1.0, block, (block,))
    return None


def forced_win(pos: Position, side: int, budget: Budget) -> ForcedWin | None:
    """The side to move's forced win by VCF, else by a shallow VCT, with its line."""
    for kind, depth, share in (("vcf", VCF_DEPTH, VCF_SHARE), ("vct", VCT_DEPTH, VCT_SHARE)):
        sub = budget.share(share)
        try:
            search = ThreatSearch(pos, sub)
            move = search.winning_move(side, depth, kind == "vct")
            if move is not None:
                return ForcedWin(kind, tuple(_threat_line(pos, search, side, move, depth,
                                                          kind == "vct")))
        except OutOfBudget:
            pass
        finally:
            budget.spend(sub)
    return None


def _threat_line(pos: Position, search: ThreatSearch, side: int, first: int, depth: int,
                 threes: bool) -> list[int]:
    """The forced win played out: each attack, and the defender's forced block after a
    four (after a three the defender has a choice: the line stops there)."""
    line = [first]
    played = 0
    try:
        move: int | None = first
        while move is not None and len(line) < LINE_PLIES * 2:
            won = move in pos.fives(side)
            pos.play(move)
            played += 1
            fives = set(pos.fives(side))
            if won or len(fives) != 1:
                break  # a five, an open four, or an open three: no single forced reply
            block = fives.pop()
            pos.play(block)
            played += 1
            line.append(block)
            depth -= 1
            move = search.winning_move(side, depth, threes) if depth > 0 else None
            if move is not None:
                line.append(move)
    except OutOfBudget:
        pass  # the line so far is still the win's start
    finally:
        for _ in range(played):
            pos.undo()
    return line


def legal_moves(pos: Position, side: int) -> list[int]:
    """The points ``side`` may play near the stones (anywhere, when none), best-scored first."""
    legal = [i for i in pos.candidates() if not pos.is_forbidden(i, side)]
    if not legal:
        legal = [i for i in range(CELLS) if not pos.cells[i] and not pos.is_forbidden(i, side)]
    # Best-scored first, ties by point: no randomness, so the same nodes give the same answer.
    mine, theirs = pos.scores[side], pos.scores[3 - side]
    legal.sort(key=lambda i: (-(mine[i] + DEFENCE_WEIGHT * theirs[i]), i))
    return legal


def calm_worth(pos: Position, player: int) -> int:
    """The position's worth to ``player`` (to move) with each point counted at most
    `POINT_CAP`. The engine's own worth counts an opponent's open three at 20,000 (its two
    open-four points), which is right for choosing a move but would call every position
    after a three lost, though the side to move simply blocks it: the search has already
    scored the threats that are real (fives, open fours) as wins."""
    mine, theirs = pos.scores[player], pos.scores[3 - player]
    total = 0
    for i in pos.candidates():
        total += min(mine[i], POINT_CAP) - min(theirs[i], POINT_CAP)
    return total


def _searched(pos: Position, side: int, legal: list[int], budget: Budget,
              sign: float, depth: int) -> Evaluation:
    search = AlphaBeta(pos, budget, WIDTH, partial(calm_worth, pos))
    best, score = search.best_and_score(legal[: WIDTH + 2], depth)
    if score is None:  # not even the shallowest iteration fitted: the static worth
        score = calm_worth(pos, side)
    if abs(score) >= WIN // 2:
        chance = 1.0 if score > 0 else -1.0
    else:
        chance = logistic(score)
    return Evaluation(sign * chance, best, tuple(search.principal_line(best, LINE_PLIES)))


# --- a whole game ------------------------------------------------------------------------

Progress = Callable[[int, int], None]


def analyse_game(ruleset: str, moves: Sequence[Sequence[int]], seconds_per_position: float,
                 clock: Callable[[], float], progress: Progress | None = None,
                 nodes: int = DEFAULT_NODES) -> GameAnalysis:
    """Every move of a game judged: ``moves`` as (row, col) pairs, black first. Raises the
    rules' IllegalMove (a ValueError) for a move list that is not a game. ``progress(done,
    total)`` is called after each position."""
    game = Game.replay(moves, ruleset)  # the referee checks the moves and knows the end
    points = [row * SIZE + col for row, col in game.moves]
    total = len(points) + 1
    pos = Position(ruleset)
    # befores[k]: the position before move k+1 searched from its side to move; afters[k]:
    # the position after move k+1 searched one ply shallower, so that both searches end
    # with the same side to move at their leaves. The static worth favours one side by its
    # tempo, and comparing leaves of opposite parity made every move look like a gain.
    befores: list[Evaluation] = []
    afters: list[Evaluation] = []
    for k in range(total):
        if k == len(points) and game.outcome is not None and game.outcome.winner is not None:
            won = 1.0 if game.outcome.winner == "black" else -1.0
            afters.append(Evaluation(won, None))
        else:
            if k > 0:
                afters.append(evaluate(pos, seconds_per_position, clock, nodes, DEPTH - 1))
            if k < len(points):
                befores.append(_again(afters[-1] if afters else None, pos,
                                      seconds_per_position, clock, nodes))
        if k < len(points):
            pos.play(points[k])
        if progress is not None:
            progress(k + 1, total)
    reviews = tuple(_review(k, points[k], befores[k], afters[k]) for k in range(len(points)))
    return GameAnalysis(reviews, summary(reviews))


def _again(shallow: Evaluation | None, pos: Position, seconds: float,
           clock: Callable[[], float], nodes: int) -> Evaluation:
    """The position searched at full depth, unless the shallower search already found it
    won or lost by force (a threat search, whatever the depth)."""
    if shallow is not None and abs(shallow.win_chance) >= 1.0:
        return shallow
    return evaluate(pos, seconds, clock, nodes, DEPTH)


def _review(k: int, point: int, before: Evaluation, after: Evaluation) -> MoveReview:
    color = "black" if k % 2 == 0 else "white"
    sign = 1.0 if color == "black" else -1.0
    drop = sign * (before.win_chance - after.win_chance)
    missed = None
    forced = before.forced
    if forced is not None and not _kept(forced, point, after, sign):
        missed = {"kind": forced.kind, "line": [list(divmod(i, SIZE)) for i in forced.line]}
    return MoveReview(
        number=k + 1, color=color, move=divmod(point, SIZE),
        before=before.win_chance, after=after.win_chance,
        best=divmod(before.best, SIZE) if before.best is not None else None,
        label=label_for(drop), missed_win=missed,
    )


def _kept(forced: ForcedWin, point: int, after: Evaluation, sign: float) -> bool:
    """Whether the move played keeps the forced win: the line's own move, or any move after
    which the mover still wins by force."""
    return point == forced.line[0] or sign * after.win_chance >= 1.0


def summary(reviews: Sequence[MoveReview]) -> dict[str, dict]:
    """Per colour: how many moves got each label, and the mean of the moves' accuracies."""
    players: dict[str, dict] = {}
    for color, sign in (("black", 1.0), ("white", -1.0)):
        own = [r for r in reviews if r.color == color]
        counts = {name: sum(1 for r in own if r.label == name) for name in LABEL_NAMES}
        scores = [move_accuracy(sign * r.before, sign * r.after) for r in own]
        accuracy = round(sum(scores) / len(scores), 1) if scores else None
        players[color] = {**counts, "accuracy": accuracy}
    return players


__all__ = [
    "BLACK",
    "WHITE",
    "Evaluation",
    "ForcedWin",
    "GameAnalysis",
    "MoveReview",
    "analyse_game",
    "evaluate",
    "label_for",
    "move_accuracy",
]
