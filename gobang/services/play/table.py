"""The table of live games, as every collaborator in play sees it: find a game, a player's
game and colour, or a user's current game; add and drop games."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

from flask_babel import gettext
from sqlalchemy import or_, select

from gobang.extensions import db
from gobang.models import Game
from gobang.services.clock import Clock
from gobang.services.cluster.directory import Directory
from gobang.services.cluster.leases import Leases
from gobang.services.notices import ActionError
from gobang.services.play.checks import Check, Pace, in_play
from gobang.services.play.live import LiveGame
from gobang.services.store import LiveStore, Reservations
from gobang.vocabulary import Status


def game_lease(game_id: int) -> str:
    return f"game:{game_id}"


# The holder of a new game's lease until a process takes it (several processes: gobang/
# services/play/homes.py, `hand_out`); no process is ever named so.
HANDED_OUT = "(handed out)"


class Acting(NamedTuple):
    """A player acting on their game, inside `GameTable.acting`."""

    live: LiveGame
    color: str


class GameTable:
    """This process's live games. With several processes each game is played by the one
    holding its lease (gobang/services/cluster/): a request for a game played elsewhere is
    answered `moved`, with the path that reaches its process."""

    def __init__(self, store: LiveStore, clock: Clock, leases: Leases,
                 directory: Directory, reservations: Reservations) -> None:
        self.store = store
        self.reservations = reservations
        self.clock = clock
        self.leases = leases
        self.directory = directory

    def reserve(self, lives: Sequence[LiveGame]) -> dict[int, ActionError]:
        """New games, flushed and not yet committed: their players are in them from now on,
        whichever process asks (store.Reservations). Returns the refused games by id (a
        player has a game already). The database is asked first, in the games' own
        transaction: the live store's user -> game map is lost with Redis's data, and a
        player whose game only the database still knows must not be given a second one."""
        refused = self._known_to_database(lives)
        refused.update(self.reservations.reserve(
            [(live.game_id, live.people_ids()) for live in lives
             if live.game_id not in refused]))
        return {game_id: _busy(other) for game_id, other in refused.items()}

    def _known_to_database(self, lives: Sequence[LiveGame]) -> dict[int, int]:
        """The new games with a player in another unfinished game, each with that game: one
        indexed query for the batch (the computer, in many games at once, is nobody's)."""
        people = {user_id for live in lives for user_id in live.people_ids()}
        if not people:
            return {}
        rows = db.session.execute(select(Game.id, Game.black_id, Game.white_id).where(
            Game.status != Status.FINISHED, Game.id.not_in([live.game_id for live in lives]),
            or_(Game.black_id.in_(people), Game.white_id.in_(people)))).all()
        playing = {user_id: game_id for game_id, *players in rows for user_id in players}
        refused: dict[int, int] = {}
        for live in lives:
            other = next((playing[u] for u in live.people_ids() if u in playing), None)
            if other is not None:
                refused[live.game_id] = other
        return refused

    def confirm(self, game_ids: Sequence[int]) -> list[int]:
        """The reserved games are committed; returns those another process freed meanwhile."""
        return self.reservations.confirm(game_ids)

    def release(self, game_ids: Sequence[int]) -> None:
        """The reserved games were rolled back: their players are free."""
        self.reservations.release(game_ids)

    def settle_stale(self) -> list[int]:
        """Games reserved by a process that died before it confirmed them: those committed
        stay (returned; nobody plays them yet), the rest free their players."""
        stale = self.reservations.stale()
        if not stale:
            return []
        committed = set(db.session.scalars(select(Game.id).where(Game.id.in_(stale))))
        db.session.commit()  # end the read transaction
        self.reservations.confirm(sorted(committed))
        self.reservations.release([game_id for game_id in stale if game_id not in committed])
        return sorted(committed)

    def add(self, live: LiveGame) -> None:
        self.add_many([live])

    def add_many(self, lives: Sequence[LiveGame], reserved: bool = False) -> None:
        """Games into play here, a round trip for all (`reserved`: new games, whose players
        are in them already)."""
        self.leases.take_many([game_lease(live.game_id) for live in lives])
        self.directory.settle([live.game_id for live in lives])
        for live in lives:
            self.store.put_game(live.game_id, live, live.people_ids(), mapped=reserved)

    def get(self, game_id: int) -> LiveGame | None:
        return self.store.get_game(game_id)

    def drop(self, game_id: int) -> None:
        self.store.drop_game(game_id)
        self.directory.forget(game_id)
        self.leases.release(game_lease(game_id))

    def let_go(self, game_id: int) -> None:
        """Another process took the game (this one stalled past its lease), or will take it
        (a new game handed out): it is theirs, and still its players'."""
        self.store.forget_game(game_id)

    def all(self) -> list[LiveGame]:
        return self.store.games()

    def player_game(self, game_id: int, user_id: int) -> tuple[LiveGame, str]:
        """The live game and the player's colour in it; refuses anyone else."""
        live = self.store.get_game(game_id)
        if live is None:
            self.check_not_elsewhere(game_id)
            if db.session.get(Game, game_id) is None:
                raise ActionError("not_found", gettext("There is no such game."))
            raise ActionError("game_over", gettext("The game is over."))
        color = live.color_of(user_id)
        if color is None:
            raise ActionError("not_in_game", gettext("You are not a player in this game."))
        return live, color

    @contextmanager
    def acting(self, game_id: int, user_id: int, pace: Pace | None = None,
               check: Check = in_play) -> Iterator[Acting]:
        """How every player's action on a game begins: the game and the player's colour
        found (or refused: `not_found`, `moved`, `game_over`, `not_in_game`), the player's
        pace checked, then the game's lock held while `check` refuses what the game's state
        does not allow and the action runs. Actions on one game so happen one at a time, each
        on the state the one before left, and the events they make are numbered in that
        order (live.room_notice).

        Two things said in a room do not begin here, on purpose: a rematch is offered on a
        finished game, which is a database row no longer on this table (Rematches reads the
        row and takes no game lock: nothing in play can race it), and chat is open to
        spectators and goes on after the end (RoomChat finds the speaker's channel itself;
        its lines are numbered through room_notice under the lock while the game is played)."""
        live, color = self.player_game(game_id, user_id)
        if pace is not None:
            pace.check(user_id)
        with live.lock:
            check(live, color)
            yield Acting(live, color)

    def check_not_elsewhere(self, game_id: int) -> None:
        """Refuses with `moved` a game another live process plays."""
        holder = self.leases.holder(game_lease(game_id))
        if holder is None or holder in (self.leases.me, HANDED_OUT):
            return
        path = self.directory.path_of(holder)
        if path is None:
            raise ActionError("conflict", gettext(
                "The game is moving to another server; try again in a moment."))
        raise ActionError("moved", gettext("The game is played on another server."), path=path)

    def current_game_of(self, user_id: int) -> int | None:
        return self.store.game_of_user(user_id)

    def check_free(self, user_id: int) -> None:
        """One live game per player, whichever path would start another."""
        game_id = self.current_game_of(user_id)
        if game_id is not None and not self._left_behind(user_id, game_id):
            raise _busy(game_id)

    def _left_behind(self, user_id: int, game_id: int) -> bool:
        """Whether the user's entry names a game they are not in after all, now dropped: one
        that is over, or that was never committed (its process died after reserving it)."""
        if self.store.get_game(game_id) is not None:
            return False
        row = db.session.get(Game, game_id)
        if row is not None and row.status != Status.FINISHED and user_id in (row.black_id,
                                                                            row.white_id):
            return False
        if game_id in self.reservations.stale():
            return bool(self.reservations.release([game_id]))
        return self.reservations.forget_entry(user_id, game_id)

    def computer_games(self) -> int:
        """Games against the computer in play or about to start."""
        return sum(1 for g in self.store.games()
                   if g.computer_color() is not None and g.status != Status.FINISHED)

    def summaries(self) -> list[dict[str, Any]]:
        """The contract's LiveGame list, oldest first."""
        games = [g for g in self.store.games() if g.status != Status.FINISHED]
        return [g.live_summary() for g in sorted(games, key=lambda g: g.game_id)]

    def clocks(self, live: LiveGame) -> dict[str, int] | None:
        return live.clocks.snapshot(self.clock()) if live.clocks else None


def _busy(game_id: int) -> ActionError:
    return ActionError("busy", gettext("You have a game in progress."), game_id=game_id)
