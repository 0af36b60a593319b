"""Where a lost game turned: for each game a player lost in a match file (bench/ai_match.py
keeps every game's stones), the first move of the loser after which the winner had a forced
win its threat search can see, and which of the loser's best-scored candidates there would
have left the winner without one.

    python -m bench.ai_turns --out bench/ai_results-stronger.jsonl --player 9 --games 10

A game whose turning move had safe candidates was lost by a search too shallow to see the
forced win coming; one with none was lost earlier, beyond the search's horizon here. The
searches are the engine's own (gobang/ai/threats.py: fours to ``--vcf`` attacking moves,
then fours and open threes to ``--vct``), each capped at ``--nodes`` positions: a win past
the cap is not seen, so the figures are a lower bound on what a deeper search would find.
Every move of the loser is searched, then every candidate at the turning move: at the
default horizon 10 lost games took 2.5 minutes of one core, and can take several times that
in crowded games; ``--games`` and ``--ruleset`` keep a study short.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.ai_match import read_results
from gobang.ai.budget import Budget, OutOfBudget
from gobang.ai.evaluation import legal_moves
from gobang.ai.position import Position
from gobang.ai.threats import ThreatSearch
from gobang.rules import SIZE

# Candidates of the loser checked at the turning move, best-scored first.
WIDTH = 16


@dataclass(frozen=True)
class Horizon:
    """How deep and how long the threat searches look."""

    vcf: int = 20
    vct: int = 12
    nodes: int = 60_000


@dataclass(frozen=True)
class Turn:
    """The loser's move number ``ply`` (from 1, opening stones counted) turned the game;
    ``safe`` are the ranks (0 = best-scored) of its candidates that would not have."""

    ply: int
    played: tuple[int, int]
    safe: tuple[int, ...]


def wins(pos: Position, side: int, horizon: Horizon) -> bool:
    """Whether ``side``, to move, has a forced win the threat search finds in time."""
    if pos.fives(side):
        return True
    for depth, threes in ((horizon.vcf, False), (horizon.vct, True)):
        budget = Budget(horizon.nodes, float("inf"), time.monotonic)
        try:
            if ThreatSearch(pos, budget).winning_move(side, depth, threes) is not None:
                return True
        except OutOfBudget:
            pass
    return False


def candidates(pos: Position) -> list[int]:
    """The side to move's points in the order the engine scores them, best first."""
    return legal_moves(pos, pos.to_move)


def turning_move(ruleset: str, stones: Sequence[Sequence[int]], loser: int,
                 horizon: Horizon = Horizon()) -> Turn | None:
    """The first move of ``loser`` (1 black, 2 white) after which the other side has a
    forced win, with the safe candidates there; None if no move of the loser gave one."""
    pos = Position(ruleset)
    winner = 3 - loser
    for ply, (row, col) in enumerate(stones, start=1):
        index = row * SIZE + col
        if pos.to_move == loser and _gives_win(pos, index, winner, horizon):
            safe = tuple(rank for rank, move in enumerate(candidates(pos)[:WIDTH])
                         if move != index and not _gives_win(pos, move, winner, horizon))
            return Turn(ply, (row, col), safe)
        pos.play(index)
    return None


def _gives_win(pos: Position, move: int, winner: int, horizon: Horizon) -> bool:
    pos.play(move)
    try:
        return wins(pos, winner, horizon)
    finally:
        pos.undo()


def lost_games(records: list[dict], player: str) -> list[tuple[dict, int]]:
    """(record, loser's colour) of every game ``player`` lost that kept its stones."""
    lost = []
    for record in records:
        if "record" not in record or record["score"] == 0.5:
            continue
        as_a = record["a"] == player
        if not as_a and record["b"] != player:
            continue
        if record["score"] == (0.0 if as_a else 1.0):
            black = record["a_black"] == as_a
            lost.append((record, 1 if black else 2))
    return lost


def report(records: list[dict], player: str, horizon: Horizon,
           games: int | None = None) -> list[str]:
    lines = []
    avoidable = 0
    lost = lost_games(records, player)[:games]
    for record, loser in lost:
        turn = turning_move(record["ruleset"], record["record"], loser, horizon)
        colour = "black" if loser == 1 else "white"
        if turn is None:
            lines.append(f"{record['key']}: lost as {colour}, no turning move found")
            continue
        avoidable += bool(turn.safe)
        lines.append(
            f"{record['key']}: lost as {colour}; move {turn.ply} {turn.played} let the "
            f"winner force a five; safe candidates (ranks of {WIDTH}): {list(turn.safe)}")
    lines.append(f"{len(lost)} games lost by {player} studied; {avoidable} turned at a move where "
                 f"a safe candidate was among the best {WIDTH}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_turns", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="a bench.ai_match results file")
    parser.add_argument("--player", required=True, help="whose lost games to study")
    parser.add_argument("--ruleset", help="only games of this ruleset")
    parser.add_argument("--games", type=int, help="only the first N lost games")
    parser.add_argument("--vcf", type=int, default=Horizon.vcf)
    parser.add_argument("--vct", type=int, default=Horizon.vct)
    parser.add_argument("--nodes", type=int, default=Horizon.nodes)
    args = parser.parse_args(argv)
    horizon = Horizon(args.vcf, args.vct, args.nodes)
    records = [r for r in read_results(args.out) if args.ruleset in (None, r["ruleset"])]
    for line in report(records, args.player, horizon, args.games):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
