"""What a guest's session may not open: pages for registered players send a guest to the
register form, which keeps the guest's games (docs/protocol.md, "Guests")."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import flash, redirect, url_for
from flask_babel import gettext
from flask_login import current_user, login_required


def registered_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """As `login_required`; a guest is sent to the register form with a message."""

    @functools.wraps(view)
    @login_required
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if current_user.guest:
            flash(gettext("Guests can play the computer and watch games. Register to do "
                          "more: your games stay yours."), "info")
            return redirect(url_for("auth.register"))
        return view(*args, **kwargs)

    return guarded
