"""The players one follows who are online: sent to a hall connection as it arrives
(`following`), then what changed among them, with the hall's batched update
(`following_update`).

Only the players a follow names are looked at, and only when they come, go, or start or end
a game: the list costs nothing to someone who follows nobody, and the followers of a player
are read in one query per update, whoever changed. Apart from the hall's `hello`, which stays
within its size bound (docs/protocol.md).
"""

from __future__ import annotations

from typing import Any

from gobang.services.hall.presence import IDLE, PLAYING, Presence
from gobang.services.notices import HALL_USER, Notice
from gobang.services.social.follows import Follows
from gobang.services.store import LiveStore
from gobang.vocabulary import Namespace

# `following` lists at most this many players: 50 entries with 20-character Chinese names are
# about 10 KB of JSON as sent (5.5 KB with ASCII names).
FOLLOWING_SHOWN = 50

Entry = dict[str, Any]
# Who is online, and the game each plays (None: none).
Online = dict[int, int | None]


class FollowingList:
    def __init__(self, follows: Follows, presence: Presence, store: LiveStore) -> None:
        self.follows = follows
        self.presence = presence
        self.store = store
        # Who was online at the last update, and in which game. None until the first update
        # this process makes (a new leader starts from what it finds).
        self._last: Online | None = None

    def of(self, user_id: int) -> dict[str, Any]:
        """`following`: the online players the user follows, in name order, at most
        FOLLOWING_SHOWN."""
        followed = set(self.follows.followed_ids(user_id))
        if not followed:
            return {"players": []}
        live = self.presence.games.summaries()
        games = _games_of(live)
        found = sorted((p for p in self.presence.players(live) if p["id"] in followed),
                       key=lambda p: (p["username"].casefold(), p["id"]))
        return {"players": [_entry(p, games) for p in found[:FOLLOWING_SHOWN]]}

    def told(self, user_id: int) -> list[Notice]:
        """`following` again, whole, for the user's hall page (they followed or unfollowed
        someone from another page); nothing when they are not in the hall."""
        if not self.presence.is_here(user_id):
            return []
        return [Notice("following", self.of(user_id), HALL_USER, user_id)]

    def changed(self, live: list[Entry], online: list[Entry]) -> list[Notice]:
        """`following_update` for each follower in the hall of a player who came, went, or
        started or ended a game since the last update. `live` and `online` as the hall view
        has just read them."""
        games = _games_of(live)
        now: Online = {p["id"]: games.get(p["id"]) for p in online}
        before, self._last = self._last, now
        if before is None:
            return []
        gone = object()
        moved = [user_id for user_id in now.keys() | before.keys()
                 if now.get(user_id, gone) != before.get(user_id, gone)]
        follows = self.follows.followers_among(moved) if moved else []
        here = self.store.connected_among(Namespace.HALL, {f for f, _ in follows})
        by_follower: dict[int, list[int]] = {}
        for follower, followed in follows:
            if follower in here:
                by_follower.setdefault(follower, []).append(followed)
        players = {p["id"]: p for p in online}
        return [Notice("following_update", {
            "set": [_entry(players[i], games) for i in sorted(ids) if i in players],
            "removed": [i for i in sorted(ids) if i not in players]}, HALL_USER, follower)
            for follower, ids in by_follower.items()]


def _games_of(live: list[Entry]) -> dict[int, int]:
    return {player["id"]: game["game_id"] for game in live
            for player in (game["black"], game["white"])}


def _entry(player: Entry, games: dict[int, int]) -> Entry:
    """A HallPlayer without ratings: `status` "playing" (with the game to watch) or "idle"."""
    game_id = games.get(player["id"])
    return {"id": player["id"], "username": player["username"], "score": player["score"],
            "status": PLAYING if game_id is not None else IDLE, "game_id": game_id}
