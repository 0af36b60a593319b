"""Who is in the hall and what they are doing.

The hall as a whole hears of this through the batched `HallView`; here only the player
concerned is told at once (the `me` event), so their own page never waits for a batch.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from gobang.extensions import db
from gobang.models import User, username_key
from gobang.services.events import GameEnded, PlayerAway
from gobang.services.hall.matcher import Matcher
from gobang.services.hall.state import GameList, PresenceState
from gobang.services.notices import HALL_USER, Notice
from gobang.services.play.table import GameTable
from gobang.services.store import LiveStore
from gobang.vocabulary import Namespace

PLAYING, QUEUED, IDLE = "playing", "queued", "idle"

# A user's absence from their game in play: {"game_id", "seconds_left"} or None.
Absence = Callable[[int], dict[str, Any] | None]


class Presence:
    def __init__(self, store: LiveStore, table: GameTable, matcher: Matcher,
                 absence: Absence, state: PresenceState, games: GameList,
                 categories: tuple[str, ...] = ()) -> None:
        self.store = store
        self.table = table
        self.matcher = matcher
        self.absence = absence
        # The player objects of those in the hall, and of those on other pages of the site
        # (online, and so listed and open to challenges, though not in the hall).
        self.state = state
        self.games = games
        # The rating categories the hall's pools and challenges offer, in `hello`'s order
        # (`rating_categories`): a listed player carries their ratings in these, and in no
        # other, so the view stays bounded.
        self.categories = categories

    def arrive(self, user: User, sid: str) -> str | None:
        """Make `sid` the user's hall connection; returns the older one it replaces."""
        replaced = self.store.claim_connection(Namespace.HALL, user.id, sid)
        self.state.hall_add(user.id, self.listed(user))
        return replaced

    def depart(self, user_id: int, sid: str) -> bool:
        """False when a newer connection had replaced `sid`: the user is still here."""
        if not self.store.release_connection(Namespace.HALL, user_id, sid):
            return False
        self.state.hall_remove(user_id)
        return True

    def is_here(self, user_id: int) -> bool:
        return self.store.connection(Namespace.HALL, user_id) is not None

    def visit(self, user: User, sid: str) -> None:
        """A page other than the hall opened its /site connection."""
        self.state.page_add(user.id, sid, self.listed(user))

    def leave_page(self, user_id: int, sid: str) -> bool:
        """True when that was the user's last page outside the hall."""
        return self.state.page_remove(user_id, sid)

    def elsewhere(self) -> list[int]:
        """The users with a page of the site open outside the hall."""
        return self.state.page_users()

    def is_online(self, user_id: int) -> bool:
        """In the hall or on any other page: someone a challenge can reach."""
        return self.is_here(user_id) or self.state.on_pages(user_id)

    def status(self, user_id: int) -> str:
        if self.table.current_game_of(user_id) is not None:
            return PLAYING
        return QUEUED if self.matcher.is_queued(user_id) else IDLE

    def entry(self, player: dict[str, Any]) -> dict[str, Any]:
        """A HallPlayer: the player, their status, and the game they play (to watch it)."""
        game_id = self.table.current_game_of(player["id"])
        if game_id is not None:
            return {**player, "status": PLAYING, "game_id": game_id}
        status = QUEUED if self.matcher.is_queued(player["id"]) else IDLE
        return {**player, "status": status, "game_id": None}

    def players(self, live: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """Everyone online, without status (a snapshot: safe to read while others arrive):
        those in the hall or on another page of the site, and the players of every live game,
        who are on its page and not in the hall but are still online, playing, and worth a
        Watch link. `live`: the live games' summaries, when the caller has just read them
        (with several processes each read decodes every process's games)."""
        online = {**self.state.page_players(), **self.state.hall_players()}
        for game in self.games.summaries() if live is None else live:
            for player in (game["black"], game["white"]):
                online.setdefault(player["id"], player)
        return list(online.values())

    def find(self, prefix: str, limit: int) -> list[dict[str, Any]]:
        """Players here whose name starts with `prefix`, compared as names are stored (NFKC,
        without regard to case), in name order."""
        key = username_key(unicodedata.normalize("NFKC", prefix))
        found = sorted((p for p in self.players() if username_key(p["username"]).startswith(key)),
                       key=lambda p: (username_key(p["username"]), p["id"]))
        return [self.entry(p) for p in found[:limit]]

    def changed(self, user_id: int) -> list[Notice]:
        """`me` to the user (their status or figures changed), if they are in the hall."""
        here, elsewhere = self.is_here(user_id), self.state.on_pages(user_id)
        if not here and not elsewhere:
            return []
        user = db.session.get(User, user_id)
        if user is None:
            return []
        if elsewhere:  # their new score, for the view
            self.state.page_update(user_id, self.listed(user))
        if not here:
            return []
        self.state.hall_add(user_id, self.listed(user))
        return [Notice("me", self.personal(user), HALL_USER, user_id)]

    def listed(self, user: User) -> dict[str, Any]:
        """The player as the hall lists them: the Player and, once they have a rated game in a
        category on offer, `ratings`, one entry per category in `self.categories`' order:
        `[rating, provisional]` (provisional 1 or 0), or null where they have none (they stand
        at the start there, 1500 and provisional). By place rather than by name, and 1 or 0
        rather than true or false: 50 players rated in every category would otherwise add some
        7 KB, and 2 KB more, to `hello`, over its 16 KB (docs/protocol.md)."""
        mine = {row.category: row.summary() for row in user.ratings}
        if not any(category in mine for category in self.categories):
            return user.player()
        ratings = [[mine[category]["rating"], int(mine[category]["provisional"])]
                   if category in mine else None for category in self.categories]
        return {**user.player(), "ratings": ratings}

    def personal(self, user: User) -> dict[str, Any]:
        """What `hello` and `me` say of the user: figures, status, the pool they wait in
        (`queue`, an extension: a page opened again while queued shows that pool's button as
        the pressed one), and how long they have to go back to a game in play they left
        (`away`, an extension)."""
        status = self.status(user.id)
        return {"me": user.stats(), "status": status,
                "queue": self._queue(user.id) if status == QUEUED else None,
                "away": self.absence(user.id)}

    def _queue(self, user_id: int) -> dict[str, Any] | None:
        pool = self.matcher.pool_of(user_id)
        return None if pool is None else pool.wire()

    def player_away(self, away: PlayerAway) -> list[Notice]:
        """A player left their game's page or came back: their hall counts down, or stops."""
        return self.changed(away.user_id)

    def game_ended(self, ended: GameEnded) -> list[Notice]:
        """New scores for the view, new figures for both players' hall pages, and the result
        for a player who is in the hall while their game ended (they left it, say)."""
        notices = []
        for user_id in ended.user_ids:
            notices += self.changed(user_id)
            if ended.result is not None and ended.players and self.is_here(user_id):
                notices.append(Notice("game_result", _result_for(ended, user_id), HALL_USER,
                                      user_id))
        return notices


def _result_for(ended: GameEnded, user_id: int) -> dict[str, Any]:
    black, white = ended.players
    color, other = ("black", white) if black["id"] == user_id else ("white", black)
    return {"game_id": ended.game_id, "color": color, "opponent": other,
            "result": ended.result}
