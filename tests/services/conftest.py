"""Services on their own, without sockets: a real database, a fake clock, users made directly."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from flask import Flask

from gobang.extensions import db
from gobang.models import Game, User
from gobang.services.registry import Services, services
from tests.support.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def base_overrides(clock: FakeClock) -> dict[str, object]:
    return {"CLOCK": clock, "RANDOM": random.Random(7)}


# Tournaments' tests drive the wall clock (WALL_CLOCK in their base_overrides) from here.
WALL_START = 1_800_000_000.0


@pytest.fixture
def wall() -> FakeClock:
    return FakeClock(WALL_START)


@pytest.fixture
def env(app: Flask) -> Iterator[Services]:
    """The app's services, inside an app context for the whole test; the computer's engines
    (started when a game against it is made) ended afterwards."""
    with app.app_context():
        found = services()
        yield found
        found.computer.engines.close()


@pytest.fixture
def users(env: Services):
    def make(*names: str) -> list[User]:
        return [env.accounts.register(name, "password1", "password1") for name in names]

    return make


@pytest.fixture
def hall_of(env):
    """Players in the hall: each with a hall connection."""

    def arrive(*people):
        for number, user in enumerate(people):
            env.lobby.hall.connect(user, f"hall-{user.id}-{number}")
        return people

    return arrive


def events(notices) -> list[str]:
    return [notice.event for notice in notices]


FIVE_FOR_BLACK = [(7, 7), (8, 7), (7, 8), (8, 8), (7, 9), (8, 9), (7, 10), (8, 10), (7, 11)]


@pytest.fixture
def started(env, users):
    """A game between black and white, both seated."""
    black, white = users("black_bo", "white_wu")
    live, _ = env.play.factory.create(black, white, "freestyle")
    env.play.seating.join(live.game_id, black.id, "sid-b")
    notices = env.play.seating.join(live.game_id, white.id, "sid-w")
    assert "game_ready" in events(notices)
    return live, black, white


def play(env, live, black, white, moves):
    notices = []
    for number, (row, col) in enumerate(moves):
        player = black if number % 2 == 0 else white
        notices = env.play.moves.place_stone(live.game_id, player.id, row, col)
    return notices


def seat(env, game: Game):
    """Both players of a stored game sit down: the live game, black and white."""
    live = env.play.table.get(game.id)
    env.play.seating.join(game.id, live.black.user_id, f"room-b-{game.id}")
    env.play.seating.join(game.id, live.white.user_id, f"room-w-{game.id}")
    return live, db.session.get(User, live.black.user_id), db.session.get(User, live.white.user_id)


def seat_and_win(env, game: Game) -> None:
    """Both players sit down and black makes five."""
    live, black, white = seat(env, game)
    play(env, live, black, white, FIVE_FOR_BLACK)
