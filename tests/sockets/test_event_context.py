"""A Socket.IO event's request context skips what Flask-SocketIO would throw away (the
cookie session, the URL match) but keeps what a handler may use; HTTP requests are
untouched."""

from __future__ import annotations

from typing import Any

from flask import Flask, request, url_for

from gobang.transport.sessions import SOCKET_SESSION_KEY

SOCKET_PATH = "/socket.io/"


def socket_environ(app: Flask, connected: bool) -> dict[str, Any]:
    """A Socket.IO connection's environ: after its connect, Flask-SocketIO has saved the
    session in it."""
    environ = app.test_request_context(SOCKET_PATH, query_string="EIO=4").request.environ
    if connected:
        environ[SOCKET_SESSION_KEY] = {}
    return environ


def test_an_event_after_the_connect_does_not_match_the_url(app):
    with app.request_context(socket_environ(app, connected=True)):
        assert request.routing_exception is None
        assert request.url_rule is None


def test_the_connect_itself_is_matched_as_flask_does(app):
    with app.request_context(socket_environ(app, connected=False)):
        assert request.routing_exception is not None  # the Socket.IO path has no route


def test_http_requests_are_still_routed(app):
    with app.test_request_context("/login"):
        assert request.url_rule is not None
        assert request.endpoint == "auth.login"


def test_url_for_works_in_an_event(app):
    with app.request_context(socket_environ(app, connected=True)):
        assert url_for("auth.login") == "/login"


def test_one_connection_binds_its_url_adapter_once(app):
    environ = socket_environ(app, connected=True)
    with app.request_context(environ) as first:
        adapter = first.url_adapter
    with app.request_context(environ) as second:
        assert second.url_adapter is adapter


def test_two_connections_do_not_share_an_adapter(app):
    with app.request_context(socket_environ(app, connected=True)) as one:
        with app.request_context(socket_environ(app, connected=True)) as other:
            assert one.url_adapter is not other.url_adapter
