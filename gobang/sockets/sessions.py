"""The Flask session for Socket.IO events, without decoding the cookie on every event."""

from __future__ import annotations

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface

# Flask-SocketIO keeps each connection's session in its environ under this key, copied from
# the cookie session once, at connect; for every later event it pushes a request context
# (which opens the session from the cookie) and then replaces that session with the copy.
SOCKET_SESSION_KEY = "saved_session"


class EventSessionInterface(SecureCookieSessionInterface):
    """Skips the cookie's signature check, decompression and JSON decoding for the session
    Flask-SocketIO discards anyway: a tenth of the server's time per move (docs/performance.md).
    HTTP requests, and the connect event itself, open the session from the cookie as usual."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if SOCKET_SESSION_KEY in request.environ:
            return self.session_class()
        return super().open_session(app, request)
