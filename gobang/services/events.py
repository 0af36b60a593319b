"""A small in-process bus: how the play domain tells others that games ended, were adopted,
or that a player left their game's page.

The hall must hear of every game that ends (its players' statuses), while play must not know
the hall exists. Play publishes an event; whoever the
registry subscribed answers with the notices it wants sent. Synchronous, so the notices go out
in the same order as the change that caused them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gobang.services.notices import Notice


@dataclass(frozen=True)
class GameEnded:
    game_id: int
    user_ids: tuple[int, int]
    # The contract's Result, and the Player objects (black, white): what a player who is
    # elsewhere is told of the end (the hall's `game_result`).
    result: dict[str, Any] | None = None
    players: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class GameAdopted:
    """A live game whose process died is played by this one now (several processes): a game
    still waiting for its players is announced to them again, in case its process died
    before telling them. `live` is the LiveGame."""

    live: Any


@dataclass(frozen=True)
class PlayerAway:
    """A player of a game in play left its page, or came back to it: their forfeit countdown
    started or stopped."""

    game_id: int
    user_id: int


Handler = Callable[[Any], list[Notice]]


class Bus:
    def __init__(self) -> None:
        self._handlers: dict[type, list[Handler]] = defaultdict(list)

    def subscribe(self, kind: type, handler: Handler) -> None:
        self._handlers[kind].append(handler)

    def publish(self, event: object) -> list[Notice]:
        return [notice for handler in self._handlers[type(event)] for notice in handler(event)]
