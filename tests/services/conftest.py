"""Services on their own, without sockets: a real database, a fake clock, users made directly."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from flask import Flask

from gobang.models import User
from gobang.services.registry import Services, services
from tests.support.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def base_overrides(clock: FakeClock) -> dict[str, object]:
    return {"CLOCK": clock, "RANDOM": random.Random(7)}


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


def events(notices) -> list[str]:
    return [notice.event for notice in notices]
