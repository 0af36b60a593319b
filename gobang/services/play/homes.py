"""Where each live game is played when several processes share the work.

A game is played by the process holding its lease (gobang/services/cluster/leases.py); the
process keeps it by renewing the leases of all its games every tick. When a process dies its
leases run out, and a game it played is adopted from the database by the process a player's
`join_game` reaches, or by the leader's sweep if nobody comes: as after a restart, with the
side to move charged up to the dead process's last sign of life. The database stays the
fence: a stale process can write neither a second move of a number nor a second result.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from flask_babel import gettext
from redis.exceptions import RedisError
from sqlalchemy import select

from gobang.extensions import db
from gobang.models import Game
from gobang.services.clock import Clock
from gobang.services.cluster.directory import Directory
from gobang.services.cluster.leases import Leases
from gobang.services.events import Bus, GameAdopted
from gobang.services.notices import ActionError, Notice
from gobang.services.play.factory import GameFactory
from gobang.services.play.live import LiveGame
from gobang.services.play.moves import Moves
from gobang.services.play.table import HANDED_OUT, GameTable, game_lease
from gobang.vocabulary import Status


class GameHomes:
    def __init__(self, table: GameTable, factory: GameFactory, moves: Moves, leases: Leases,
                 directory: Directory, shared: bool, clock: Clock,
                 sweep_seconds: float, bus: Bus) -> None:
        self.table = table
        self.bus = bus
        self.factory = factory
        self.moves = moves
        self.leases = leases
        self.directory = directory
        self.shared = shared
        self.clock = clock
        self.sweep_seconds = sweep_seconds
        self._swept_at: float | None = None
        # Redis failed us since the last good tick: emits may have been lost meanwhile.
        self._outage = False
        self._adopting = KeyedLocks()
        # Another process lived at the last keep-alive step: not asked again for each of a
        # crowd's new games until the next step. Not remembered when none did: a process that
        # just started must get games at once.
        self._others_alive = False

    def locate(self, game_id: int) -> None:
        """Before a join: refuses with `moved` a game another live process plays, and adopts
        a live game that no process plays (yet: handed out; or any more: its process died)."""
        if not self.shared or self.table.get(game_id) is not None:
            return
        self.table.check_not_elsewhere(game_id)
        if _status(game_id) in (None, Status.FINISHED):
            # No such game (the join answers not_found), or one read from the database and
            # played by nobody: nothing to adopt, nor to wait for while Redis is young.
            return
        if not self.directory.settled():
            # Redis restarted empty a moment ago: the processes that play their games have
            # not yet taken their leases again, and a game taken now would be played twice.
            raise ActionError("conflict", gettext(
                "The game is moving to another server; try again in a moment."))
        self._adopt(game_id)

    def hand_out(self, lives: Sequence[LiveGame]) -> None:
        """A new game made by the leader's matcher (or a challenge) is not kept by the
        process that made it: the first of its players to join takes it on the process their
        connection reached, so games spread over the processes instead of all landing on the
        leader. Until then its lease is marked handed out, which the sweep leaves alone for
        a few leases; nobody joining by then, the sweep adopts it (and its abort runs).
        A process alone on Redis keeps it: it would only adopt it back."""
        if not self.shared or not lives or not self._others():
            return
        self.leases.hand_over([game_lease(live.game_id) for live in lives], HANDED_OUT,
                              3 * self.sweep_seconds)
        for live in lives:
            self.table.let_go(live.game_id)

    def _others(self) -> bool:
        if not self._others_alive:
            self._others_alive = self.directory.others_alive()
        return self._others_alive

    def reclaim(self) -> int:
        """At start-up: the games this process played before it stopped (the same
        PROCESS_NAME, its leases or its last homes still in Redis) come back at once, as a
        single process's do after a restart; the rest wait for their players or the sweep."""
        me = self.leases.me
        reclaimed = 0
        for game_id in self._unfinished():
            holder = self.leases.holder(game_lease(game_id))
            if holder == me or (holder is None and self.directory.last_home(game_id) == me):
                self._adopt(game_id)
                reclaimed += 1
        return reclaimed

    def _unfinished(self) -> list[int]:
        ids = db.session.scalars(select(Game.id).where(Game.status != Status.FINISHED)).all()
        db.session.commit()  # end the read transaction
        return list(ids)

    def keep(self) -> list[Notice]:
        """Every tick, on every process: this process's sign of life and its games' leases;
        a game whose lease another process took meanwhile is let go. After Redis was
        unreachable, each game's last move goes out again, so every page resyncs."""
        if not self.shared:
            return []
        try:
            self.directory.stamp()
            self._others_alive = self.directory.others_alive()
            lost = self.leases.renew([game_lease(live.game_id) for live in self.table.all()])
            gone = [self._keep_or_let_go(name) for name in lost]
        except RedisError:
            self._outage = True
            raise
        if not self._outage:
            return [notice for notice in gone if notice is not None]
        self._outage = False
        return [n for n in map(self.moves.repeat_last, self.table.all()) if n is not None]

    def _keep_or_let_go(self, name: str) -> Notice | None:
        """A lease found free is taken again; one another process holds is let go."""
        if not self.leases.take(name):
            return self._let_go(name)
        # Free because Redis lost its data (restarted empty): the players' user -> game
        # entries and the game's home went with it, and the hall would greet its players as
        # idle, free to be challenged. Written again from the game played here.
        live = self.table.get(int(name.split(":")[1]))
        if live is not None:
            self.table.add_many([live])
        return None

    def _let_go(self, name: str) -> Notice | None:
        """Another process took the game while this one stalled past its lease (a lease
        found free, Redis restarted empty, is simply taken again): theirs now. Its pages
        here get its last move again: they ask this process for the game, which answers
        `moved`, and follow it."""
        live = self.table.get(int(name.split(":")[1]))
        if live is None:
            return None
        notice = self.moves.repeat_last(live)
        self.table.let_go(live.game_id)
        return notice

    def sweep(self) -> list[Notice]:
        """The leader, every `sweep_seconds`: live games in the database that no process
        plays, their process dead and no player back to adopt them, are adopted here (their
        clocks and forfeits must still run)."""
        now = self.clock()
        if not self.shared or (self._swept_at is not None
                               and now - self._swept_at < self.sweep_seconds):
            return []
        self._swept_at = now
        if not self.directory.settled():
            return []
        # New games a dead process reserved: those it committed are adopted just below.
        self.table.settle_stale()
        notices: list[Notice] = []
        elsewhere = [game_id for game_id in self._unfinished() if self.table.get(game_id) is None]
        # One read for all: a crowd's handed-out games were a round trip each, every sweep.
        holders = self.leases.holders([game_lease(game_id) for game_id in elsewhere])
        for game_id, holder in zip(elsewhere, holders, strict=True):
            if holder is None:
                live = self._adopt(game_id)
                # Its process may have died before its players heard of it.
                notices += self.bus.publish(GameAdopted(live)) if live else []
        return notices

    def _adopt(self, game_id: int) -> LiveGame | None:
        # Both players of a handed-out game join at once, often on the same process: the
        # second must find the game the first adopted, not read it again from the database
        # into a second LiveGame (each would hold one player, and neither would start).
        with self._adopting.hold(game_id):
            found = self.table.get(game_id)
            if found is not None:
                return found
            if not self.leases.take(game_lease(game_id), over=HANDED_OUT):
                self.table.check_not_elsewhere(game_id)  # somebody was quicker
                return None
            previous = self.directory.last_home(game_id)
            last_alive = self.directory.alive_at(previous) if previous else None
            live = self.factory.adopt(game_id, last_alive)
            if live is None:
                self.leases.release(game_lease(game_id))
            return live


def _status(game_id: int) -> str | None:
    return db.session.scalar(select(Game.status).where(Game.id == game_id))


class KeyedLocks:
    """One lock per key, kept only while somebody holds or waits for it."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[int, tuple[threading.Lock, list[int]]] = {}

    @contextmanager
    def hold(self, key: int) -> Iterator[None]:
        with self._guard:
            lock, users = self._locks.setdefault(key, (threading.Lock(), [0]))
            users[0] += 1
        try:
            with lock:
                yield
        finally:
            with self._guard:
                users[0] -= 1
                if not users[0]:
                    del self._locks[key]
