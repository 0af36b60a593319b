"""Finished games as downloadable files: a plain move list and Piskvork's PSQ format."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from gobang.models import Game
from gobang.rules import SIZE, to_notation
from gobang.services.openings.stored import opening_lines, opening_of


def result_text(game: Game) -> str:
    """The record file's result line; files stay English whatever the page's language."""
    if game.reason == "aborted":
        return "aborted"
    if game.winner is None:
        return "draw"
    return f"{game.winner} wins"


def score_line(before: int | None, after: int | None) -> str:
    if before is None or after is None:
        return ""
    return f" ({before} -> {after}, {after - before:+d})"


def _date(moment: datetime | None) -> str:
    return moment.isoformat(timespec="seconds") + "Z" if moment else "unknown"


def record_txt(game: Game, analysis: dict[str, Any] | None = None) -> str:
    """Comment lines (`# `) with the players, ruleset, result, reason and date, then one move
    per line in board notation (`h8`), black first. With the game's computer `analysis`
    (docs/protocol.md's Analysis), its per-player summary in the header and each judged
    move's label, better move and missed win after the move, as a `  # ` comment."""
    header = [
        f"Gobang game {game.id}",
        f"Black: {game.black.username}"
        + score_line(game.black_score_before, game.black_score_after),
        f"White: {game.white.username}"
        + score_line(game.white_score_before, game.white_score_after),
        f"Ruleset: {game.ruleset}",
        *_opening(game),
        f"Result: {result_text(game)}",
        f"Reason: {game.reason or ''}",
        f"Date: {_date(game.ended_at)}",
        f"Moves: {len(game.moves)}",
        *_analysis_summary(analysis),
    ]
    notes = _annotations(analysis)
    lines = [f"# {line}" for line in header]
    for number, move in enumerate(game.moves, start=1):
        note = notes.get(number)
        plain = to_notation(move.row, move.col)
        lines.append(f"{plain}  # {note}" if note else plain)
    return "\n".join(lines) + "\n"


def _analysis_summary(analysis: dict[str, Any] | None) -> list[str]:
    if analysis is None:
        return []
    lines = [f"Analysis: {analysis['engine']}"]
    for color in ("black", "white"):
        player = analysis["players"][color]
        accuracy = "-" if player["accuracy"] is None else f"{player['accuracy']}%"
        lines.append(f"{color.capitalize()} accuracy: {accuracy}, "
                     f"inaccuracies {player['inaccuracy']}, mistakes {player['mistake']}, "
                     f"blunders {player['blunder']}")
    return lines


def _annotations(analysis: dict[str, Any] | None) -> dict[int, str]:
    """Per move number, e.g. `mistake, best g7; missed VCF h9 h10 j9`; unlabelled moves
    that missed nothing get none."""
    notes: dict[int, str] = {}
    for move in (analysis or {}).get("moves", []):
        parts = []
        if move["label"]:
            best = move["best"]
            parts.append(move["label"] + (f", best {to_notation(*best)}" if best else ""))
        missed = move["missed_win"]
        if missed:
            line = " ".join(to_notation(row, col) for row, col in missed["line"])
            parts.append(f"missed {missed['kind'].upper()} {line}")
        if parts:
            notes[move["number"]] = "; ".join(parts)
    return notes


def _opening(game: Game) -> list[str]:
    """The opening's steps, with the players' names as they ended seated (black, white)."""
    opening = opening_of(game)
    if opening is None:
        return []
    return opening_lines(opening, game.black.username, game.white.username)


def _think_times(game: Game) -> list[int]:
    """Milliseconds each move took, from the previous move (or the start) to this one."""
    times, previous = [], game.started_at
    for move in game.moves:
        spent = (move.created_at - previous).total_seconds() if previous else 0
        times.append(max(0, round(spent * 1000)))
        previous = move.created_at
    return times


# Piskvork's error code for a game lost on time; every other ending is a standard finish (0).
_PSQ_TIMEOUT = 15


def record_psq(game: Game) -> str:
    """The PSQ format of Piskvork, the Gomocup tournament manager.

    Source: savePsq() and openPsq() in plastovicka/Piskvork, source/game.cpp:
    - header `Piskvorky <width>x<height>, <level1>:<level2>, <h>`: the levels are 0 for a human
      player (a computer's level is 1..11), and h is 0 when the first player moved first;
    - one line `x,y,time` per move, 1-based, x the column and y the row counted from the top,
      time the milliseconds the move took;
    - trailer: the two players (`homo-` marks a human for Piskvork, which would otherwise try to
      start an engine by that name), then the finish code (0 normal, 15 timeout).
    """
    moves = [(move.row, move.col) for move in game.moves]
    return psq_text(moves, _think_times(game), game.black.username, game.white.username,
                    timeout=game.reason == "timeout")


def psq_text(moves: Sequence[tuple[int, int]], times_ms: Sequence[int], black: str,
             white: str, timeout: bool = False) -> str:
    """Any move list (row, col), black first, in the PSQ format `record_psq` describes:
    also the analysis board's line, which has no players and no times (zeros)."""
    lines = [f"Piskvorky {SIZE}x{SIZE}, 0:0, 0"]
    for (row, col), spent in zip(moves, times_ms, strict=True):
        lines.append(f"{col + 1},{row + 1},{spent}")
    lines.append(f"homo-{black}")
    lines.append(f"homo-{white}")
    lines.append(str(_PSQ_TIMEOUT if timeout else 0))
    return "\n".join(lines) + "\n"


def download_name(game: Game, extension: str) -> str:
    return f"gobang-{game.id}.{extension}"
