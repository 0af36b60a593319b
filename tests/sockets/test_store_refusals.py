"""A connection the stores cannot admit just now (Redis restarting, every pooled database
connection busy past its timeout) is refused as `unavailable`, which the pages retry: no
traceback, nothing half-registered, and the next try gets in."""

from __future__ import annotations

import pytest
import redis
import sqlalchemy.exc

from tests.sockets.conftest import services_of


@pytest.mark.parametrize("error", [
    sqlalchemy.exc.TimeoutError("QueuePool limit reached"),
    redis.ConnectionError("Connection refused"),
])
def test_a_connection_the_stores_cannot_admit_is_refused_and_the_retry_gets_in(
        player, app, monkeypatch, error):
    ann = player("ann")
    hall = services_of(app).lobby.hall
    admit = hall.connect

    def refuse(*args, **kwargs):
        raise error

    monkeypatch.setattr(hall, "connect", refuse)
    refused = ann.connect("/hall")
    assert not refused.is_connected("/hall")
    monkeypatch.setattr(hall, "connect", admit)
    again = ann.connect("/hall")
    assert again.is_connected("/hall")
    assert [name for name, _ in ann.events("/hall")][:1] == ["hello"]


def test_the_refusals_log_line_names_the_error_and_the_servers_call_that_met_it(
        player, app, monkeypatch, caplog):
    hall = services_of(app).lobby.hall

    def refuse(*args, **kwargs):
        raise redis.ConnectionError("Connection refused")

    monkeypatch.setattr(hall, "connect", refuse)
    player("ann").connect("/hall")
    [record] = [r for r in caplog.records if r.getMessage() == "store unreachable"]
    assert record.fields["error"] == "ConnectionError"
    assert record.fields["detail"] == "Connection refused"
    assert record.fields["at"].startswith("sockets/hall.py:")
