"""The ticker: a round of time-driven work shares the hub with everyone else."""

from __future__ import annotations

import pytest

from gobang.sockets import ticker
from tests.sockets.conftest import services_of


class SteppingTimer:
    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture
def crowd_queued(player):
    for number in range(6):
        assert player(f"crowd{number}").emit("/hall", "start_match", {}) == {"ok": True}


@pytest.mark.parametrize(("step", "yields_at_least", "yields_at_most"), [
    (0.0, 0, 0),  # a round within its slice keeps the hub
    (ticker.SLICE_SECONDS, 3, 99),  # a round past it lets others run between the games
])
def test_a_round_yields_the_hub_once_its_slice_is_spent(app, crowd_queued, monkeypatch, step,
                                                         yields_at_least, yields_at_most):
    yields: list[float] = []
    monkeypatch.setattr(ticker.socketio, "sleep", yields.append)
    found = services_of(app)
    ticker.tick_once(app, found, timer=SteppingTimer(step))
    assert len(found.play.table.all()) == 3
    assert yields_at_least <= len(yields) <= yields_at_most


@pytest.fixture
def watcher_and_arrival(player, next_update):
    """A watcher in the hall with its view up to date, and an arrival not yet sent to it."""
    watcher = player("watcher")
    watcher.join_hall()
    next_update()
    watcher.received("/hall")
    player("arrival").join_hall()
    return watcher


@pytest.mark.parametrize(("last_still_going_out", "updates"), [(True, 0), (False, 1)])
def test_the_halls_next_update_waits_until_the_last_has_gone_out(
        watcher_and_arrival, next_update, monkeypatch, last_still_going_out, updates):
    crier = ticker.socketio.server.manager.crier
    monkeypatch.setattr(crier, "idle", lambda: not last_still_going_out)
    next_update()
    assert len(watcher_and_arrival.received("/hall", "hall_update")) == updates


def test_a_held_back_update_goes_out_at_the_first_round_after(watcher_and_arrival, next_update,
                                                              tick, monkeypatch):
    crier = ticker.socketio.server.manager.crier
    monkeypatch.setattr(crier, "idle", lambda: False)
    next_update()
    monkeypatch.undo()
    tick()
    assert [u["counts"]["online"]
            for u in watcher_and_arrival.received("/hall", "hall_update")] == [2]
