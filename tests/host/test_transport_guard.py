"""The websocket frame checks and budget, with a hand-driven clock."""

from __future__ import annotations

import pytest

from gobang.transport_guard import FrameBudget, TransportGuard, frame_fault


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(("frame", "upgrading", "fault"), [
    ("3", False, None),
    ("6", False, None),
    ("1", False, None),
    ('42/room,["place_stone",{}]', False, None),
    ("40/hall,", False, None),
    ("2probe", True, None),
    ("5", True, None),
    ("2probe", False, "malformed frame"),
    ("5", False, "malformed frame"),
    ("", False, "malformed frame"),
    ("[]", False, "malformed frame"),
    ("4", False, "malformed frame"),
    ("4[[[[", False, "malformed frame"),
    ("3" + "[" * 5000, False, "malformed frame"),
    ("9", False, "malformed frame"),
    ("b!!!", False, "malformed frame"),
    (b"\x00\x01", False, "binary frame"),
])
def test_only_frames_a_client_sends_pass(frame, upgrading, fault):
    assert frame_fault(frame, upgrading) == fault


def test_a_burst_is_allowed_and_the_next_frame_is_not():
    budget = FrameBudget(rate=10, burst=5, clock=Clock())
    assert [budget.spend() for _ in range(6)] == [True] * 5 + [False]


def test_the_budget_refills_at_its_rate_up_to_the_burst():
    clock = Clock()
    budget = FrameBudget(rate=10, burst=5, clock=clock)
    for _ in range(5):
        budget.spend()
    clock.now = 0.2  # two frames' worth
    assert [budget.spend() for _ in range(3)] == [True, True, False]
    clock.now = 100.0
    assert sum(budget.spend() for _ in range(10)) == 5


def test_a_steady_sender_at_the_rate_is_never_refused():
    clock = Clock()
    budget = FrameBudget(rate=8, burst=1, clock=clock)
    for step in range(100):
        clock.now = step / 8  # exact in binary floating point, as 1/10 is not
        assert budget.spend()


class FakeSocket:
    def __init__(self, sid: str, closed: list[str]) -> None:
        self.sid = sid
        self.closed = closed

    def close(self, wait: bool = True, abort: bool = False, reason: str | None = None) -> None:
        # engine.io's close(wait=True) joins the send queue: with the writer gone (the client
        # dropped) it never returns, and the sweep with it.
        assert not wait, "close waited for a send queue that may never drain"
        self.closed.append(self.sid)


class FakeEngineIO:
    class reason:  # noqa: N801 - engine.io's own name
        SERVER_DISCONNECT = "server disconnect"

    def __init__(self) -> None:
        self.sockets: dict[str, FakeSocket] = {}
        self._async = {"websocket": None}  # a transport without websockets: nothing to wrap
        self.handlers = {"connect": lambda sid, environ: None}
        self.tasks: list = []
        self.closed: list[str] = []

    def on(self, event: str, handler) -> None:
        self.handlers[event] = handler

    def start_background_task(self, target) -> None:
        self.tasks.append(target)

    def disconnect(self, sid: str) -> None:
        self.sockets[sid].close()


class FakeManager:
    def __init__(self) -> None:
        self.joined: dict[str, str] = {}  # eio sid -> namespace

    def get_namespaces(self):
        return {"/hall", "/room"}

    def sid_from_eio_sid(self, eio_sid: str, namespace: str) -> str | None:
        return "sid" if self.joined.get(eio_sid) == namespace else None


class FakeSocketIO:
    def __init__(self) -> None:
        self.eio = FakeEngineIO()
        self.manager = FakeManager()


@pytest.fixture
def deadline():
    clock = Clock()
    server = FakeSocketIO()
    guard = TransportGuard(server, frames_per_second=None, frame_burst=1,
                           namespace_seconds=10, clock=clock)
    guard.install()
    return clock, server, guard


def open_connection(server: FakeSocketIO, sid: str) -> None:
    server.eio.sockets[sid] = FakeSocket(sid, server.eio.closed)
    server.eio.handlers["connect"](sid, {})


def test_a_connection_without_a_namespace_is_closed_at_its_deadline(deadline):
    clock, server, guard = deadline
    open_connection(server, "idle")
    clock.now = 9.9
    assert guard.sweep() == 0
    clock.now = 10
    assert guard.sweep() == 1
    assert server.eio.closed == ["idle"]
    assert "idle" not in server.eio.sockets


def test_a_connection_in_a_namespace_is_kept(deadline):
    clock, server, guard = deadline
    open_connection(server, "player")
    server.manager.joined["player"] = "/room"
    clock.now = 60
    assert guard.sweep() == 0
    assert "player" in server.eio.sockets


def test_a_connection_gone_before_its_deadline_is_forgotten(deadline):
    clock, server, guard = deadline
    open_connection(server, "gone")
    del server.eio.sockets["gone"]
    clock.now = 60
    assert guard.sweep() == 0
    assert not guard.pending


def test_one_sweeper_serves_every_connection(deadline):
    _clock, server, _guard = deadline
    for sid in ("a", "b", "c"):
        open_connection(server, sid)
    assert len(server.eio.tasks) == 1
