"""The hall view: what everyone in the hall sees, bounded whatever the hall's size, and sent
as one batched update per interval.

Per-change broadcasts cost every change times every connection: a crowd of N arriving is N
squared messages. Here the view is worked out again from the live state at most once per
interval, compared with what was last sent, and the difference goes out as one `hall_update`
to the whole hall (encoded once). The cost is one message per connection per interval, however
much changes, and nothing at all while the hall is quiet.

Each update carries a sequence number. An update only makes sense on top of the view it was
computed from, so a newcomer's `hello` carries the last view sent (not a fresher one) and its
`seq`; a client that sees a gap asks for the whole view again (`snapshot`).
"""

from __future__ import annotations

import heapq
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from gobang.services.clock import Clock
from gobang.services.hall.following import FollowingList
from gobang.services.hall.matcher import Matcher
from gobang.services.hall.presence import Presence
from gobang.services.hall.state import GameList, ViewRecord
from gobang.services.notices import HALL, Notice
from gobang.services.pools import Pools, pool_name, wire
from gobang.vocabulary import RULESETS

Entry = dict[str, Any]


@dataclass(frozen=True)
class ViewSizes:
    players: int
    games: int


@dataclass
class _Sent:
    """The view as last sent: entries by id, in the view's order."""

    seq: int = 0
    counts: dict[str, Any] = field(default_factory=dict)
    players: dict[int, Entry] = field(default_factory=dict)
    games: dict[int, Entry] = field(default_factory=dict)


class HallView:
    def __init__(self, presence: Presence, games: GameList, matcher: Matcher, clock: Clock,
                 sizes: ViewSizes, interval: float, pools: Pools, record: ViewRecord,
                 following: FollowingList | None = None) -> None:
        self.pools = pools
        # Told, with each update, who of the players one follows came, went or changed game.
        self.following = following
        self.presence = presence
        # Every process's live games, as summaries.
        self.games = games
        self.matcher = matcher
        self.clock = clock
        self.sizes = sizes
        self.interval = interval
        # The view as last sent, shared by every process (the leader writes it).
        self.record = record
        self._due = clock()
        # The ticker computes updates while handlers read snapshots (threads under `flask run`).
        self._lock = threading.Lock()

    def snapshot(self) -> dict[str, Any]:
        """The whole view as last sent: what `hello` and `hall_view` carry."""
        sent = self._last_sent()
        return {"seq": sent.seq, "counts": sent.counts, "players": list(sent.players.values()),
                "games": list(sent.games.values())}

    def _last_sent(self) -> _Sent:
        with self._lock:
            found = self.record.read()
        if found is None:  # nothing sent yet: an empty hall
            return _Sent(counts={"online": 0, "playing": 0, "waiting": dict.fromkeys(
                self.pools.names(RULESETS), 0)})
        return _Sent(found["seq"], found["counts"],
                     {p["id"]: p for p in found["players"]},
                     {g["game_id"]: g for g in found["games"]})

    def flush(self) -> list[Notice]:
        """One `hall_update` when the interval has passed and the view changed, and the
        followers' `following_update`s; else nothing."""
        now = self.clock()
        if now < self._due:
            return []
        self._due = now + self.interval
        live = self.games.summaries()
        online = self.presence.players(live)
        told = self.following.changed(live, online) if self.following is not None else []
        counts, players = self._counts(live, online), self._players(online)
        games = self._games(live)
        before = self._last_sent()
        update: dict[str, Any] = {
            "players": _difference(before.players, players),
            "games": _difference(before.games, games)}
        if counts != before.counts:
            update["counts"] = counts
        elif not any(update["players"].values()) and not any(update["games"].values()):
            return told
        with self._lock:
            self.record.write({"seq": before.seq + 1, "counts": counts,
                               "players": list(players.values()),
                               "games": list(games.values())})
        return [Notice("hall_update", {"seq": before.seq + 1, **update}, HALL), *told]

    def _counts(self, live: list[Entry], online: list[Entry]) -> dict[str, Any]:
        """Waiting players by pool, every pool named (`freestyle/300+3`,
        `freestyle/600+5/swap2`), empty ones too: the page's quick-pairing grid shows each.
        Playing: both seats of each live game."""
        waiting = Counter(pool_name(e.ruleset, e.clock, e.opening)
                          for e in self.matcher.queued())
        playing = 2 * len(live)
        return {"online": len(online), "playing": playing,
                "waiting": {name: waiting[name] for name in self.pools.names(RULESETS)}}

    def _players(self, online: list[Entry]) -> dict[int, Entry]:
        """The highest scores first, then the lowest id: a stable order that keeps the
        strongest players on show and changes only when a score does."""
        top = heapq.nsmallest(self.sizes.players, online,
                              key=lambda p: (-p["score"], p["id"]))
        return {p["id"]: self.presence.entry(p) for p in top}

    def _games(self, live: list[Entry]) -> dict[int, Entry]:
        """The highest-rated games first (the sum of both players' scores), then the oldest."""
        top = heapq.nsmallest(
            self.sizes.games, live,
            key=lambda g: (-(g["black"]["score"] + g["white"]["score"]), g["game_id"]))
        return {g["game_id"]: self._listed(g) for g in top}

    def _listed(self, game: Entry) -> Entry:
        """A game as the view lists it: its clock left out when it is the default one (hello's
        `default_clock`), as most games' is, which keeps a full list within its size."""
        if game.get("clock", "omitted") != wire(self.pools.default):
            return game
        return {key: value for key, value in game.items() if key != "clock"}


def _difference(before: dict[int, Entry], after: dict[int, Entry]) -> dict[str, list[Any]]:
    """Entries added or changed, and the ids no longer listed."""
    return {"set": [entry for key, entry in after.items() if before.get(key) != entry],
            "removed": [key for key in before if key not in after]}
