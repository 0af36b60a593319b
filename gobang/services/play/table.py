"""The table of live games, as every collaborator in play sees it: find a game, a player's
game and colour, or a user's current game; add and drop games."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from gobang.extensions import db
from gobang.models import Game
from gobang.services.clock import Clock
from gobang.services.cluster.directory import Directory
from gobang.services.cluster.leases import Leases
from gobang.services.notices import ActionError
from gobang.services.play.live import LiveGame
from gobang.services.store import LiveStore
from gobang.vocabulary import Status


def game_lease(game_id: int) -> str:
    return f"game:{game_id}"


class GameTable:
    """This process's live games. With several processes each game is played by the one
    holding its lease (gobang/services/cluster/): a request for a game played elsewhere is
    answered `moved`, with the path that reaches its process."""

    def __init__(self, store: LiveStore, clock: Clock, leases: Leases,
                 directory: Directory) -> None:
        self.store = store
        self.clock = clock
        self.leases = leases
        self.directory = directory

    def add(self, live: LiveGame) -> None:
        self.leases.take(game_lease(live.game_id))
        self.directory.settle(live.game_id)
        self.store.put_game(live.game_id, live, live.people_ids())

    def get(self, game_id: int) -> LiveGame | None:
        return self.store.get_game(game_id)

    def drop(self, game_id: int) -> None:
        self.store.drop_game(game_id)
        self.directory.forget(game_id)
        self.leases.release(game_lease(game_id))

    def let_go(self, game_id: int) -> None:
        """Another process took the game (this one stalled past its lease): it is theirs,
        and still its players'."""
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

    def check_not_elsewhere(self, game_id: int) -> None:
        """Refuses with `moved` a game another live process plays."""
        holder = self.leases.holder(game_lease(game_id))
        if holder is None or holder == self.leases.me:
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
        if game_id is not None:
            raise ActionError("busy", gettext("You have a game in progress."), game_id=game_id)

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
