"""What the front page tells a visitor: who is here right now, and what has been played."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gobang.services.hall.view import HallView
from gobang.services.store import LiveStore
from gobang.vocabulary import Namespace, Status


@dataclass(frozen=True)
class Activity:
    online: int
    games_in_play: int


def activity(store: LiveStore, elsewhere: Iterable[int] = ()) -> Activity:
    """Online counts each player once, in the hall, in a game's room (spectators too) or on
    another page of the site (`elsewhere`, their /site connections)."""
    online = set(store.connected_users(Namespace.HALL)) | set(store.connected_users(Namespace.ROOM))
    online |= set(elsewhere)
    playing = sum(1 for game in store.games() if game.status == Status.PLAYING)
    return Activity(online=len(online), games_in_play=playing)


# Live games on the front page, each with a Watch link: the first of the hall's list.
LIVE_GAMES_SHOWN = 6


def live_games(view: HallView, limit: int = LIVE_GAMES_SHOWN) -> list[dict[str, Any]]:
    """The hall's live games as last sent to the hall (the highest-rated first): bounded and
    already worked out, so a crowd of visitors costs no more than reading it."""
    return view.snapshot()["games"][:limit]
