"""Players written short, for tables: a history as letters (B black, W white, + a bye,
- absent) and opponents as a string of one-letter ids."""

from __future__ import annotations

from gobang.rules import BLACK, WHITE
from gobang.services.tournaments.swiss import ABSENT, BYE, SwissPlayer

LETTERS = {"B": BLACK, "W": WHITE, "+": BYE, "-": ABSENT}


def history(letters: str) -> tuple[str, ...]:
    return tuple(LETTERS[letter] for letter in letters)


def swiss_player(id: str, rating: int = 1500, score: float = 0.0, met: str = "",
                 played: str = "") -> SwissPlayer:
    return SwissPlayer(id, rating, score, tuple(met), history(played))


def pairs_of(pairing) -> set[frozenset[str]]:
    return {frozenset((board.black, board.white)) for board in pairing.boards}


def pairs(*written: str) -> set[frozenset[str]]:
    """pairs("ae", "bf"): the boards as unordered pairs."""
    return {frozenset(text) for text in written}
