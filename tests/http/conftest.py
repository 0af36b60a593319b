"""Fixtures the page and API tests share."""

from __future__ import annotations

import pytest

from tests.support.forms import register
from tests.support.games import add_user, finish_game, user_id


@pytest.fixture
def players(app, client) -> tuple[int, int]:
    """alice (logged in on `client`) and bob, by id."""
    register(client, "alice")
    return user_id(app, "alice"), add_user(app, "bob")


@pytest.fixture
def won_game(app, players) -> int:
    """A finished game of alice's (black) against bob, won with five."""
    return finish_game(app, *players, "black", "five")
