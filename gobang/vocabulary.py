"""The words every layer shares: namespaces, game statuses, why a game ended, colours, rulesets.

Standard library and the rules engine only, so that anything above may import it. The enums
are strings, so they go onto the wire and into the database as the contract spells them.
"""

from __future__ import annotations

from enum import StrEnum

from gobang.rules import BLACK, COLORS, RULESETS, WHITE, opponent

__all__ = ["BLACK", "COLORS", "RULESETS", "WHITE", "Namespace", "Reason", "Status",
           "UNSCORED_REASONS", "PROVISIONAL_DEVIATION", "color_of", "opponent"]


class Namespace(StrEnum):
    HALL = "/hall"
    ROOM = "/room"
    # Every other page of a logged-in player: personal notices (challenges) wherever they are.
    SITE = "/site"


class Status(StrEnum):
    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


class Reason(StrEnum):
    FIVE = "five"
    BOARD_FULL = "board_full"
    RESIGN = "resign"
    DISCONNECT = "disconnect"
    TIMEOUT = "timeout"
    DRAW_AGREED = "draw_agreed"
    ABORTED = "aborted"


class AbortCause(StrEnum):
    """Why a game was aborted (a Result's `abort`, docs/protocol.md)."""

    NO_FIRST_MOVE = "no_first_move"  # the side to move did not make its first move in time
    NO_SHOW = "no_show"  # a player (or both) never came to the game
    BOTH_LEFT = "both_left"  # both left (a restart nobody came back from)
    HOST = "host"  # the host's abort-game
    NOT_STARTED = "not_started"  # made while its players were freed elsewhere: never started


# An aborted game changes nobody's score or counters.
UNSCORED_REASONS = frozenset({Reason.ABORTED})

# A category rating whose deviation is at least this is provisional, shown with "?"
# (lichess's 110): the ratings' arithmetic and the models that show them agree on it here.
PROVISIONAL_DEVIATION = 110.0


def color_of(black_id: int, white_id: int, user_id: int | None) -> str | None:
    """The colour `user_id` plays in a game between `black_id` and `white_id`, or None."""
    if user_id == black_id:
        return BLACK
    if user_id == white_id:
        return WHITE
    return None
