"""Berserk in an arena's game: before their first stone a player may halve their own time and
lose their increment (the pure `arena.berserk_clock` says by how much), for a point more if
they then win a game of at least 14 stones (arena.BERSERK_MIN_STONES)."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import select, update

from gobang.extensions import db
from gobang.models import Game, Tournament, TournamentGame, User
from gobang.services.arenas.schedule import ARENA
from gobang.services.notices import ActionError
from gobang.services.play.checks import not_over
from gobang.services.play.live import LiveGame
from gobang.services.play.table import GameTable
from gobang.services.tournaments.arena import berserk_clock
from gobang.vocabulary import BLACK, WHITE


class Berserk:
    def __init__(self, table: GameTable) -> None:
        self.table = table

    def go(self, user: User, game_id: int) -> None:
        """Refused: not an arena's game (`not_found`), no clock, an opening rule or a stone
        already placed (`conflict`), already berserk (`conflict`)."""
        link = link_of(game_id)
        if link is None:
            raise ActionError("not_found", gettext("Berserk is offered only in arena games."))
        with self.table.acting(game_id, user.id, check=not_over) as (live, color):
            cut_ms, bare = _cut(live, color, berserk_of(link, color))
            clocks = live.clocks.copy()
            clocks.cut(color, cut_ms, bare)
            # Stored first, in one transaction; the live game changes only once both are.
            db.session.execute(update(Game).where(Game.id == game_id).values(
                black_ms=clocks.black_ms, white_ms=clocks.white_ms))
            if color == BLACK:
                link.black_berserk = True
            else:
                link.white_berserk = True
            db.session.commit()
            live.clocks.cut(color, cut_ms, bare)


def _cut(live: LiveGame, color: str, already: bool) -> tuple[int, bool]:
    """The milliseconds to take off `color`'s time, and whether the increment goes."""
    if already:
        raise ActionError("conflict", gettext("You already went berserk."))
    if live.opening is not None:
        raise ActionError("conflict", gettext("Berserk is not offered with an opening rule."))
    if len(live.rules.moves) >= (1 if color == BLACK else 2):
        raise ActionError("conflict", gettext("Berserk is only before your first stone."))
    found = berserk_clock(*live.time_control) if live.time_control else None
    if found is None or live.clocks is None:
        raise ActionError("conflict", gettext("Berserk needs a clock."))
    initial, increment = live.time_control
    return round((initial - found[0]) * 1000), increment > 0


def link_of(game_id: int) -> TournamentGame | None:
    """An arena's record of its game; None for any other game (a Swiss event's games have
    no berserk)."""
    return db.session.scalars(select(TournamentGame).join(
        Tournament, Tournament.id == TournamentGame.tournament_id).where(
        TournamentGame.game_id == game_id, Tournament.kind == ARENA)).first()


def berserk_of(link: TournamentGame, color: str) -> bool:
    return link.black_berserk if color == BLACK else link.white_berserk


def bare_colours(game_id: int) -> frozenset[str]:
    """The colours of an arena's game that went berserk: they play without increment, after a
    restart too (play's factory asks when it brings a game back)."""
    link = link_of(game_id)
    if link is None:
        return frozenset()
    return frozenset(color for color, went in ((BLACK, link.black_berserk),
                                               (WHITE, link.white_berserk)) if went)
