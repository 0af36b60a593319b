"""Every private part of a library the server touches, checked when `python app.py` starts.

Most of these patches are assignments that never fail: after an upgrade that renamed what they
patch, the server would start and serve without the protection or the speed they gave. So
each one is listed with the version it was written against, and a start-up finds each still
there (with the parameters it is called with, where those matter) or refuses to start: exit
status 2 and one line naming the attribute, the installed version and the pinned one.
docs/upgrading.md has the same table with what each patch does and the test that proves it.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

# Exit status of a start refused for a library that no longer has what is patched.
REFUSED = 2


@dataclass(frozen=True)
class Touch:
    """One private attribute: `path` is dotted below `module` (a class, then its member)."""

    distribution: str
    pinned: str
    module: str
    path: str
    parameters: tuple[str, ...] | None = None  # the call's parameters, where they matter
    # Set on each instance by the class's own code (`self.name = ...` in it or a base), so
    # looked for in that code: making an instance needs a connection, or a server.
    assigned: bool = False

    def name(self) -> str:
        return f"{self.module}.{self.path}"


class LibraryChanged(Exception):
    """A library found changed once the server is being made, where the table's check cannot
    see (the argument is the one line to print: `refusal`)."""


# The versions the patches were written for (requirements.txt pins the same: a test checks).
PINNED = {"eventlet": "0.41.3", "python-engineio": "4.15.1", "python-socketio": "5.18.1",
          "Flask-SocketIO": "5.7.0", "Flask": "3.1.3"}


def _touch(distribution: str, module: str, path: str, *parameters: str,
           assigned: bool = False) -> Touch:
    return Touch(distribution, PINNED[distribution], module, path, parameters or None, assigned)


EVENTLET, ENGINEIO, SOCKETIO = "eventlet", "python-engineio", "python-socketio"

# The async driver's table (thread, queue, websocket class...) that each engine.io server
# copies: the frame guard replaces its websocket class (guard.py), and refuses to start when
# the mode running has none.
ENGINEIO_ASYNC = _touch(ENGINEIO, "engineio.server", "Server._async", assigned=True)

TOUCHES: tuple[Touch, ...] = (
    _touch(EVENTLET, "eventlet.websocket", "RFC6455WebSocket._apply_mask",
           "data", "mask", "length", "offset"),
    _touch(EVENTLET, "eventlet.websocket", "RFC6455WebSocket._recv_frame", "self", "message"),
    _touch(EVENTLET, "eventlet.websocket", "RFC6455WebSocket._handle_control_frame",
           "self", "opcode", "data"),
    _touch(EVENTLET, "eventlet.hubs.epolls", "Hub.do_poll"),
    _touch(EVENTLET, "eventlet.wsgi", "HttpProtocol._read_request_line", "self"),
    _touch(EVENTLET, "eventlet.wsgi", "HttpProtocol.rbufsize"),
    _touch(EVENTLET, "eventlet.wsgi", "HttpProtocol.wbufsize"),
    _touch(EVENTLET, "eventlet.tpool", "Proxy"),
    _touch(ENGINEIO, "engineio.socket", "Socket.schedule_ping", "self"),
    _touch(ENGINEIO, "engineio.socket", "Socket.close", "self", "wait", "abort", "reason"),
    _touch(ENGINEIO, "engineio.async_drivers.eventlet",
           "WebSocketWSGI._negotiate_permessage_deflate", "self", "extensions"),
    _touch(ENGINEIO, "engineio.payload", "Payload.max_decode_packets"),
    _touch(SOCKETIO, "socketio.server", "Server._handle_eio_message", "self", "eio_sid", "data"),
    _touch(SOCKETIO, "socketio.server", "Server._send_eio_packet", "self", "eio_sid", "eio_pkt"),
    _touch(SOCKETIO, "socketio.redis_manager", "RedisManager._publish", "self", "data"),
    _touch(SOCKETIO, "socketio.redis_manager", "RedisManager._redis_connect", "self"),
    _touch(EVENTLET, "eventlet.websocket", "RFC6455WebSocket.iterator", assigned=True),
    _touch(EVENTLET, "eventlet.wsgi", "HttpProtocol.handle", "self"),
    _touch(EVENTLET, "eventlet.wsgi", "HttpProtocol.handle_one_request", "self"),
    _touch(EVENTLET, "eventlet.wsgi", "HttpProtocol.rfile", assigned=True),
    _touch(EVENTLET, "eventlet.wsgi", "HttpProtocol.environ", assigned=True),
    ENGINEIO_ASYNC,
    _touch(ENGINEIO, "engineio.server", "Server.handlers", assigned=True),
    _touch(ENGINEIO, "engineio.server", "Server.sockets", assigned=True),
    _touch(ENGINEIO, "engineio.server", "Server.handle_request",
           "self", "environ", "start_response"),
    _touch(SOCKETIO, "socketio.server", "Server.packet_class", assigned=True),
    _touch(SOCKETIO, "socketio.manager", "Manager.emit", "self", "event", "data", "namespace",
           "room", "skip_sid", "callback", "to", "kwargs"),
    _touch(SOCKETIO, "socketio.manager", "Manager.get_participants", "self", "namespace", "room"),
    _touch(SOCKETIO, "socketio.manager", "Manager.rooms", assigned=True),
    _touch(SOCKETIO, "socketio.redis_manager", "RedisManager.redis", assigned=True),
    _touch(SOCKETIO, "socketio.redis_manager", "RedisManager.connected", assigned=True),
    _touch(SOCKETIO, "socketio.redis_manager", "RedisManager.channel", assigned=True),
    _touch("Flask-SocketIO", "flask_socketio", "Namespace._set_socketio", "self", "socketio"),
    _touch("Flask-SocketIO", "flask_socketio", "SocketIO.namespace_handlers", assigned=True),
    _touch("Flask", "flask.ctx", "RequestContext"),
)


def fault(touch: Touch, import_module: Callable[[str], ModuleType]) -> str | None:
    """What is wrong with `touch` in the installed library, or None."""
    try:
        found: Any = import_module(touch.module)
    except ImportError:
        return "no module"
    *owners, member = touch.path.split(".")
    for part in owners:
        if not hasattr(found, part):
            return "no such attribute"
        found = getattr(found, part)
    if not hasattr(found, member):
        return None if touch.assigned and assigns(found, member) else "no such attribute"
    found = getattr(found, member)
    if touch.parameters is not None:
        try:
            parameters = tuple(inspect.signature(found).parameters)
        except (TypeError, ValueError):
            return "no signature"
        if parameters != touch.parameters:
            return f"parameters ({', '.join(parameters)})"
    return None


def installed_version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def refusals(touches: Iterable[Touch] = TOUCHES,
             import_module: Callable[[str], ModuleType] = importlib.import_module,
             version: Callable[[str], str] = installed_version) -> list[str]:
    """One line for each touch the installed libraries no longer have as it was written."""
    lines = []
    for touch in touches:
        found = fault(touch, import_module)
        if found is not None:
            lines.append(refusal(touch, found, version))
    return lines


def refusal(touch: Touch, fault: str,
            version: Callable[[str], str] = installed_version) -> str:
    """The one line a start refused for `touch` prints (after "gobang: ")."""
    return (f"refusing to start: {touch.name()}: {fault} in {touch.distribution} "
            f"{version(touch.distribution)} (written for {touch.pinned}; docs/upgrading.md)")


def assigns(owner: Any, name: str) -> bool:
    """Whether the code of class `owner`, or of a base, sets `self.<name>`."""
    return any(_sets_in_own_code(cls, name) for cls in getattr(owner, "__mro__", ()))


# Kept per process: a library's code does not change under a running process, and reading it
# is most of the start-up check's time (0.28 s of a server's 0.7 s start, 2026-12-05): a
# process forked from one that has checked (the tests' fork server) need not read it again.
@functools.cache
def _sets_in_own_code(cls: type, name: str) -> bool:
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):  # a builtin, or code without its source
        return False
    return re.search(rf"\bself\.{re.escape(name)}\s*(:[^=\n]*)?=(?!=)", source) is not None
