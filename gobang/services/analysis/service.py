"""Who may read and request a game's analysis, and what they are told: the HTTP views call
this and return what it gives (docs/protocol.md, "Analysis")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from gobang.extensions import db
from gobang.models import Game
from gobang.services.analysis.queue import NOTHING, AnalysisQueue, QueueState
from gobang.services.analysis.stored import stored_analysis
from gobang.services.notices import ActionError


@dataclass(frozen=True)
class Viewer:
    """Who asks: `user_id` None for a visitor; guests' accounts may read but not request."""

    user_id: int | None
    guest: bool = False


class Analyses:
    def __init__(self, queue: AnalysisQueue, by_spectators: bool) -> None:
        self.queue = queue
        # Whether people other than the game's two players may ask for its analysis.
        self._by_spectators = by_spectators

    def view(self, game_id: int, viewer: Viewer) -> dict[str, Any]:
        """The game's analysis state; ActionError `not_found` when there is no such game."""
        game = self._game(game_id)
        return self._payload(game, viewer, stored_analysis(game_id))

    def request(self, game_id: int, viewer: Viewer) -> tuple[dict[str, Any], bool]:
        """Ask for the game's analysis: (its state, whether it was queued now). A game
        analysed already is returned as it is, nothing queued. ActionError with the
        contract's code when refused."""
        if viewer.user_id is None or viewer.guest:
            raise ActionError("unauthorized", gettext(
                "Log in with an account to ask for an analysis."))
        game = self._game(game_id)
        stored = stored_analysis(game_id)
        if stored is not None:
            return self._payload(game, viewer, stored), False
        refusal = self._refusal(game, viewer)
        if refusal is not None:
            raise refusal
        moves = tuple((m.row, m.col) for m in game.moves)
        self.queue.request(game.id, viewer.user_id, game.ruleset, moves)
        return self._payload(game, viewer, None), True

    def _game(self, game_id: int) -> Game:
        game = db.session.get(Game, game_id)
        if game is None:
            raise ActionError("not_found", gettext("There is no such game."))
        return game

    def _refusal(self, game: Game, viewer: Viewer) -> ActionError | None:
        """Why `viewer` (a registered player) may not have the game analysed, if they may
        not: a game still in play or without moves, or a spectator when the host says so."""
        if game.status != "finished" or not game.moves:
            return ActionError("bad_request", gettext(
                "Only a finished game with moves can be analysed."))
        if game.color_of(viewer.user_id) is None and not self._by_spectators:
            return ActionError("forbidden", gettext(
                "Only the game's players can ask for its analysis."))
        return None

    def _payload(self, game: Game, viewer: Viewer, stored: dict[str, Any] | None,
                 ) -> dict[str, Any]:
        state = QueueState("done") if stored is not None else self.queue.state(game.id)
        can = (state.status in (NOTHING.status, "failed") and viewer.user_id is not None
               and not viewer.guest and self._refusal(game, viewer) is None
               and not self.queue.pending_for(viewer.user_id))
        return {"game_id": game.id, "status": state.status, "position": state.position,
                "progress": state.progress, "analysis": stored, "can_request": can}
