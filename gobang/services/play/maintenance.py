"""Maintenance mode: no new game may start while the games in play finish."""

from __future__ import annotations

from flask_babel import lazy_gettext

from gobang.services.notices import ActionError

MAINTENANCE_MESSAGE = lazy_gettext("The server is in maintenance: no new games start for now. "
                                   "Games in play finish normally.")


class Maintenance:
    """Set by the host (`flask --app app maintenance on`) through the admin desk."""

    def __init__(self) -> None:
        self.on = False

    def check_open(self) -> None:
        if self.on:
            raise ActionError("conflict", str(MAINTENANCE_MESSAGE))
