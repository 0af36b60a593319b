"""The Flask request context of Socket.IO events, without the work Flask-SocketIO throws
away: decoding the cookie, matching the URL and binding it to the URL map on every event."""

from __future__ import annotations

from typing import Any

from flask import Flask, Request, Response
from flask.ctx import RequestContext
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from werkzeug.routing import MapAdapter

# Flask-SocketIO keeps each connection's session in its environ under this key, copied from
# the cookie session once, at connect; for every later event it pushes a request context
# (which opens the session from the cookie) and then replaces that session with the copy.
SOCKET_SESSION_KEY = "saved_session"


class EventSessionInterface(SecureCookieSessionInterface):
    """Skips the cookie's signature check, decompression and JSON decoding for the session
    Flask-SocketIO discards anyway: a tenth of the server's time per move (docs/performance.md).
    HTTP requests, and the connect event itself, open the session from the cookie as usual;
    only pages renew a cookie whose session did not change (`save_session`)."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if is_socket_event(request.environ):
            return self.session_class()
        return super().open_session(app, request)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        # A response that shared caches may keep (a replay's picture) is the same for everyone:
        # it must not carry the visitor's session cookie, which Flask renews on every request.
        if response.cache_control.public:
            return
        if not session.modified and response.mimetype != "text/html":
            # Only pages renew an unchanged cookie. A file or JSON answer to a request sent
            # before a form's POST (a page's script still loading) can reach the browser
            # after the POST's answer and would put back the cookie from before it, and with
            # it lose the POST's flash message: the likely way a browser test in CI lost one
            # (2026-12-06; not reproduced in a browser since: the HTTP tests pin the server's part).
            if session.accessed:
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)


# Where a connection's URL adapter is kept for its later events.
URL_ADAPTER_KEY = "gobang.url_adapter"


def is_socket_event(environ: dict[str, Any]) -> bool:
    """A Socket.IO event after the connect: Flask-SocketIO has saved the session copy."""
    return SOCKET_SESSION_KEY in environ


class EventRequestContext(RequestContext):
    """Does not match the URL for a Socket.IO event. The Socket.IO path has no route, so
    Flask would only raise and keep a NotFound that nothing reads: the exception and the
    matching were about a twentieth of the server's time per move (docs/performance.md)."""

    def match_request(self) -> None:
        if is_socket_event(self.request.environ):
            return
        super().match_request()
        if self.request.routing_exception is not None:
            _forget_tracebacks(self.request.routing_exception)


def _forget_tracebacks(error: BaseException) -> None:
    """A kept exception's traceback holds the frame that caught it, and that frame this
    context: a reference cycle. Every Socket.IO connection's connect event (its path has no
    route) left its context, request, user and URL adapter to wait for a full collection,
    a pause for every game of 0.6 s with 1,000 of them (docs/performance.md); every 404 did
    too. Flask raises the exception anew and needs none of it."""
    seen: BaseException | None = error
    while seen is not None:
        seen.__traceback__ = None
        seen = seen.__context__ or seen.__cause__


class SocketAwareFlask(Flask):
    """Flask with `EventRequestContext`, and one URL adapter per connection reused for every
    event on it (the adapter only depends on the connection's environ, which is the same
    dict for all of its events), so `url_for` still works in event handlers."""

    def request_context(self, environ: dict[str, Any]) -> RequestContext:
        return EventRequestContext(self, environ)

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        if request is None or not is_socket_event(request.environ):
            return super().create_url_adapter(request)
        adapter = request.environ.get(URL_ADAPTER_KEY)
        if adapter is None:
            adapter = request.environ[URL_ADAPTER_KEY] = super().create_url_adapter(request)
        return adapter
