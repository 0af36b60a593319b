"""The websocket frame checks and budget, with a hand-driven clock, and the frame loop over a
scripted websocket shaped like eventlet's (eventlet itself is not imported here: it warns on
every fork, and the bench tests in this directory fork)."""

from __future__ import annotations

import gc
import weakref

import pytest

from gobang.transport.guard import (
    FRAMES_PER_TURN,
    FrameBudget,
    FrameErrors,
    GuardedWebSocket,
    TransportGuard,
    frame_fault,
)
from gobang.transport.patches import LibraryChanged, installed_version
from gobang.transport.polling import SEPARATOR, post_fault


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


class FakeWebSocketClass:
    def __init__(self, handler, server) -> None:
        self.handler = handler


class FakeEngineIO:
    class reason:  # noqa: N801 - engine.io's own name
        SERVER_DISCONNECT = "server disconnect"

    def __init__(self) -> None:
        self.sockets: dict[str, FakeSocket] = {}
        self._async = {"websocket": FakeWebSocketClass}
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
                           namespace_seconds=10, max_message_bytes=16, clock=clock,
                           sleep=lambda seconds: None)
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


def test_one_sweep_closes_every_connection_past_its_deadline(deadline):
    clock, server, guard = deadline
    for sid in ("a", "b", "c"):
        open_connection(server, sid)
    clock.now = 10
    assert guard.sweep() == 3
    assert server.eio.closed == ["a", "b", "c"]

def test_one_sweeper_serves_every_connection(deadline):
    _clock, server, _guard = deadline
    for sid in ("a", "b", "c"):
        open_connection(server, sid)
    assert len(server.eio.tasks) == 1


def guard_for(server: FakeSocketIO) -> TransportGuard:
    return TransportGuard(server, frames_per_second=None, frame_burst=1, namespace_seconds=0,
                          max_message_bytes=16, clock=Clock(), sleep=lambda seconds: None)


class HandlerOwner:
    """engine.io's Socket, whose websocket handler the websocket class is given."""

    connected = closed = False

    def __init__(self) -> None:
        self.given: list = []

    def websocket_handler(self, ws) -> None:
        self.given.append(ws)


def test_every_websocket_the_server_makes_is_guarded():
    server = FakeSocketIO()
    guard_for(server).install()
    connection, plain = HandlerOwner(), object()
    server.eio._async["websocket"](connection.websocket_handler, None).handler(plain)
    [given] = connection.given
    assert isinstance(given, GuardedWebSocket) and given._ws is plain


@pytest.mark.parametrize("table", [{"websocket": None}, {}])
def test_an_engineio_without_a_websocket_class_refuses_to_start_in_one_line(table):
    server = FakeSocketIO()
    server.eio._async = table
    with pytest.raises(LibraryChanged) as refused:
        guard_for(server).install()
    assert str(refused.value) == (
        f"refusing to start: engineio.server.Server._async: no websocket class in "
        f"python-engineio {installed_version('python-engineio')} (written for 4.15.1; "
        f"docs/upgrading.md)")


class ClientClosed(Exception):
    """eventlet's ConnectionClosedError."""


class ProtocolFailed(Exception):
    """eventlet's FailedConnectionError."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(status, message)
        self.status = status
        self.message = message


TEXT, CONTINUATION, CLOSE, PING, PONG = 1, 0, 8, 9, 0xA
SILENCE = -1  # no frame: the read times out


class Message:
    """eventlet's RFC6455WebSocket.Message, what the guard reads of it."""

    def __init__(self, opcode: int) -> None:
        self.opcode = opcode
        self.data: list[bytes] = []
        self.finished = False

    def push(self, data: bytes, final: bool) -> None:
        self.finished = final
        self.data.append(data)

    def getvalue(self) -> str:
        return b"".join(self.data).decode()


class ScriptedWebSocket:
    """Frames (fin, opcode, payload) as eventlet's `_recv_frame` returns them, then the
    client closes."""

    def __init__(self, frames: list[tuple[bool, int, bytes]]) -> None:
        self.frames = iter(frames)
        self.control: list[tuple[int, str]] = []
        self.closed_with = None
        self.iterator = self._iter_frames()  # eventlet makes its frame loop as it opens

    def _iter_frames(self):
        while True:
            yield self._recv_frame()

    def _recv_frame(self, message: Message | None = None) -> Message:
        fin, opcode, payload = next(self.frames, (True, CLOSE, b""))
        if opcode == SILENCE:
            self._time_out()
        if opcode == CLOSE:
            raise ClientClosed()
        if opcode == 0xF:
            raise ProtocolFailed(1002, "Unknown opcode received.")
        if message is None or opcode & 8:
            message = Message(opcode)
        for start in range(0, len(payload), 4):  # as recv hands a frame over in pieces
            message.push(payload[start:start + 4], final=fin)
        if not payload:
            message.push(b"", final=fin)
        return message

    def _time_out(self) -> None:
        # As eventlet's socket read: the exception is made before the wait, then raised.
        timed_out = TimeoutError("timed out")
        raise timed_out

    def _handle_control_frame(self, opcode: int, data: str) -> None:
        self.control.append((opcode, data))

    def close(self, close_data=None) -> None:
        self.closed_with = close_data


class Connection:
    connected = False
    closed = False


def guarded(frames, budget: FrameBudget | None = None, max_message_bytes: int = 16,
            sleeps: list | None = None) -> tuple[GuardedWebSocket, ScriptedWebSocket]:
    ws = ScriptedWebSocket(frames)
    sleep = (sleeps if sleeps is not None else []).append
    return GuardedWebSocket(ws, budget, Connection(), max_message_bytes=max_message_bytes,
                            sleep=sleep, errors=FrameErrors(ClientClosed, ProtocolFailed)), ws


def messages(guard: GuardedWebSocket) -> list:
    """What engine.io reads: messages until the connection ends (None)."""
    read = []
    while (message := guard.wait()) is not None:
        read.append(message)
    return read


def test_data_messages_are_handed_on():
    guard, _ws = guarded([(True, TEXT, b"3"), (True, TEXT, b"42/room,[]")])
    assert messages(guard) == ["3", "42/room,[]"]


@pytest.mark.parametrize("opcode", [PONG, PING], ids=["pong", "ping"])
def test_control_frames_spend_the_frame_budget(opcode, caplog):
    budget = FrameBudget(rate=1, burst=5, clock=Clock())
    guard, ws = guarded([(True, opcode, b"")] * 10 + [(True, TEXT, b"3")], budget)
    assert messages(guard) == []
    assert len(ws.control) == 5  # answered (PING) or dropped (PONG) by eventlet, as before
    assert [r.fields["reason"] for r in caplog.records] == ["too many frames"]


def test_continuation_frames_spend_the_frame_budget():
    budget = FrameBudget(rate=1, burst=3, clock=Clock())
    guard, _ws = guarded([(False, TEXT, b"4"), (False, CONTINUATION, b""),
                          (False, CONTINUATION, b""), (True, CONTINUATION, b"")], budget)
    assert messages(guard) == []


def test_a_fragmented_message_is_handed_on_whole():
    guard, _ws = guarded([(False, TEXT, b"42/room"), (True, PING, b"hi"),
                          (True, CONTINUATION, b",[]")])
    assert messages(guard) == ["42/room,[]"]


def test_a_fragmented_message_at_the_limit_is_handed_on():
    guard, _ws = guarded([(False, TEXT, b"42/room,"), (True, CONTINUATION, b"[[]]" * 2)])
    assert messages(guard) == ["42/room,[[]][[]]"]


@pytest.mark.parametrize("budget", [None, FrameBudget(rate=1, burst=1_000, clock=Clock())],
                         ids=["budget off", "budget on"])
def test_a_fragmented_message_past_the_limit_is_refused(budget, caplog):
    guard, _ws = guarded([(False, TEXT, b"42/room,"), (False, CONTINUATION, b"[[]]" * 2),
                          (True, CONTINUATION, b"]")], budget)
    assert messages(guard) == []
    assert [r.fields["reason"] for r in caplog.records] == ["message too long"]


def test_empty_fragments_count_towards_the_limit():
    guard, _ws = guarded([(False, TEXT, b"4")] + [(False, CONTINUATION, b"")] * 100
                         + [(True, CONTINUATION, b"3")])
    assert messages(guard) == []


def test_a_new_message_starts_its_count_afresh():
    frames = [(False, TEXT, b"42/room,"), (True, CONTINUATION, b"[]")] * 5
    guard, _ws = guarded(frames)
    assert messages(guard) == ["42/room,[]"] * 5


@pytest.mark.parametrize("budget", [None, FrameBudget(rate=1, burst=1_000, clock=Clock())],
                         ids=["budget off", "budget on"])
def test_a_sender_that_keeps_sending_yields_every_few_frames(budget):
    sleeps: list = []
    guard, _ws = guarded([(True, PONG, b"")] * (FRAMES_PER_TURN * 10), budget, sleeps=sleeps)
    assert messages(guard) == []
    assert sleeps == [0] * 10


def test_a_protocol_error_closes_with_its_status_and_one_log_line(caplog):
    guard, ws = guarded([(True, 0xF, b"")])
    assert messages(guard) == []
    assert ws.closed_with == (1002, "Unknown opcode received.")
    assert [r.fields["reason"] for r in caplog.records] == ["protocol error"]


def test_frames_read_after_the_server_closed_the_connection_are_dropped_unlogged(caplog):
    guard, _ws = guarded([(True, TEXT, b"[]")] * 3)
    guard._connection.closed = True
    assert messages(guard) == []
    assert not caplog.records


class PlainWebSocket:
    """A websocket read through `wait` only (the threading mode's)."""

    def __init__(self, messages: list[str]) -> None:
        self.messages = iter(messages)

    def wait(self) -> str | None:
        return next(self.messages, None)


def test_a_websocket_without_a_frame_reader_spends_a_token_per_message_and_yields():
    sleeps: list = []
    budget = FrameBudget(rate=1, burst=FRAMES_PER_TURN * 2, clock=Clock())
    guard = GuardedWebSocket(PlainWebSocket(["6"] * (FRAMES_PER_TURN * 3)), budget,
                             Connection(), max_message_bytes=16, sleep=sleeps.append,
                             errors=None)
    assert len(messages(guard)) == FRAMES_PER_TURN * 2
    assert len(sleeps) == 2


def read_and_freed(frames) -> tuple[list, bool]:
    """What engine.io reads of `frames`, and whether the websocket was freed by reference
    counting alone once the connection ended: full collections are rare
    (gobang/transport/memory.py)."""
    gc.disable()
    try:
        guard, ws = guarded(frames)
        read = messages(guard)
        freed = weakref.ref(ws)
        del guard, ws
        return read, freed() is None
    finally:
        gc.enable()


def test_a_guarded_websocket_is_freed_without_waiting_for_a_full_collection():
    """eventlet's unused frame loop, an unstarted generator, holds its websocket: a cycle per
    connection, freed only by a full collection."""
    assert read_and_freed([(True, TEXT, b"3")]) == (["3"], True)


def test_a_read_that_timed_out_ends_the_connection():
    guard, _ws = guarded([(True, TEXT, b"3"), (True, SILENCE, b"")])
    assert messages(guard) == ["3"]


def test_a_connection_whose_read_timed_out_is_freed_without_a_full_collection():
    """The timed-out read's exception is held by a frame of its own traceback: kept, it held
    the connection until a full collection (up to 15 MB after 1,000 silent connections)."""
    assert read_and_freed([(True, SILENCE, b"")]) == ([], True)



# --- a long-polling POST's body (gobang/transport/polling.py) ---

MESSAGE = '42/room,["place_stone",{}]'


def test_a_post_with_as_many_frames_as_allowed_passes():
    assert post_fault(SEPARATOR.join([MESSAGE] * 3).encode(), 3, None) is None


def test_a_post_with_more_frames_than_allowed_is_refused():
    assert post_fault(SEPARATOR.join([MESSAGE] * 4).encode(), 3, None) == (
        "too many frames in one request")


def test_every_frame_of_a_post_is_checked_not_only_the_first():
    body = SEPARATOR.join([MESSAGE, MESSAGE, "junk"]).encode()
    assert post_fault(body, 16, None) == "malformed frame"
