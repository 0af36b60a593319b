"""The hall's turnstile: first come first served, one let in per turn of the event loop."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

import pytest
from greenlet import GreenletExit, getcurrent, greenlet

from gobang.sockets.turnstile import Turnstile


class Loop:
    """A cooperative loop shaped like eventlet's hub: each turn runs the green threads that
    were ready when it began; one woken or paused during a turn runs in the next."""

    def __init__(self) -> None:
        self.main = getcurrent()
        self.ready: deque[greenlet] = deque()
        self.turn = 0

    def spawn(self, work: Callable[[], object]) -> greenlet:
        thread = greenlet(work, parent=self.main)
        self.ready.append(thread)
        return thread

    def pause(self) -> None:
        self.ready.append(getcurrent())
        self.main.switch()

    def event(self) -> Event:
        return Event(self)

    def run(self) -> None:
        while self.ready:
            self.turn += 1
            now, self.ready = self.ready, deque()
            for thread in now:
                if not thread.dead:
                    thread.switch()


class Event:
    def __init__(self, loop: Loop) -> None:
        self.loop = loop
        self.is_set = False
        self.waiter: greenlet | None = None

    def wait(self) -> None:
        if not self.is_set:
            self.waiter = getcurrent()
            self.loop.main.switch()

    def set(self) -> None:
        self.is_set = True
        if self.waiter is not None:
            self.loop.ready.append(self.waiter)


def turnstile(loop: Loop, inside_at_most: int = 1) -> Turnstile:
    return Turnstile(loop.spawn, loop.pause, loop.event, inside_at_most)


def caller(loop: Loop, gate: Turnstile, name: int, log: list, io_waits: int = 0,
           fail: bool = False) -> Callable[[], None]:
    def work() -> None:
        try:
            with gate.turn():
                log.append((name, loop.turn))
                for _ in range(io_waits):  # a handler waiting on Redis, say
                    loop.pause()
                if fail:
                    raise ValueError("refused")
        except ValueError:
            log.append(("raised", loop.turn))
    return work


def test_callers_are_let_in_in_the_order_they_came() -> None:
    loop, log = Loop(), []
    gate = turnstile(loop)
    for name in range(6):
        loop.spawn(caller(loop, gate, name, log))
    loop.run()
    assert [name for name, _turn in log] == list(range(6))


@pytest.mark.parametrize("inside_at_most", [1, 4])
def test_one_caller_is_let_in_per_turn_of_the_loop(inside_at_most: int) -> None:
    """Handlers that never wait still each get a turn of their own, so the loop reads its
    sockets between any two of them."""
    loop, log = Loop(), []
    gate = turnstile(loop, inside_at_most)
    for name in range(8):
        loop.spawn(caller(loop, gate, name, log))
    loop.run()
    turns = [turn for _name, turn in log]
    assert len(set(turns)) == len(turns)


@pytest.mark.parametrize("inside_at_most", [1, 2, 4])
def test_no_more_than_the_limit_are_inside_at_once(inside_at_most: int) -> None:
    loop, inside, most = Loop(), [0], [0]
    gate = turnstile(loop, inside_at_most)

    def work() -> None:
        with gate.turn():
            inside[0] += 1
            most[0] = max(most[0], inside[0])
            for _ in range(5):
                loop.pause()
            inside[0] -= 1

    for _ in range(12):
        loop.spawn(work)
    loop.run()
    assert most[0] == inside_at_most
    assert inside[0] == 0


def test_callers_that_wait_inside_overlap_up_to_the_limit() -> None:
    """With room for several, a handler waiting on I/O does not hold up the next one."""
    loop, log = Loop(), []
    gate = turnstile(loop, 3)
    for name in range(3):
        loop.spawn(caller(loop, gate, name, log, io_waits=10))
    loop.run()
    first, last = log[0][1], log[-1][1]
    assert last - first < 10


def test_a_caller_that_raises_gives_its_place_back() -> None:
    loop, log = Loop(), []
    gate = turnstile(loop)
    loop.spawn(caller(loop, gate, 0, log, fail=True))
    for name in range(1, 4):
        loop.spawn(caller(loop, gate, name, log))
    loop.run()
    assert [name for name, _turn in log] == [0, "raised", 1, 2, 3]


def test_a_caller_killed_while_waiting_keeps_no_place() -> None:
    loop, log = Loop(), []
    gate = turnstile(loop)
    loop.spawn(caller(loop, gate, 0, log, io_waits=3))
    doomed = loop.spawn(caller(loop, gate, 1, log))
    loop.spawn(caller(loop, gate, 2, log))
    loop.turn += 1
    for thread in list(loop.ready):  # everyone queues; the pump is spawned
        loop.ready.popleft()
        thread.switch()
    doomed.throw(GreenletExit)
    loop.run()
    assert [name for name, _turn in log] == [0, 2]
    assert gate.waiting == 0


def test_a_place_given_then_abandoned_is_given_back() -> None:
    """Killed after the pump let it in but before it ran: the place is freed for the next."""
    loop, log = Loop(), []
    gate = turnstile(loop)
    doomed = loop.spawn(caller(loop, gate, 0, log))
    loop.spawn(caller(loop, gate, 1, log))
    loop.turn += 1
    for thread in list(loop.ready):
        loop.ready.popleft()
        thread.switch()
    pump = loop.ready.popleft()  # the pump: lets `doomed` in, then pauses
    pump.switch()
    doomed.throw(GreenletExit)
    loop.run()
    assert [name for name, _turn in log] == [1]


def test_the_limit_must_let_someone_in() -> None:
    with pytest.raises(ValueError):
        Turnstile(lambda work: None, lambda: None, threading.Event, 0)


def test_native_threads_all_get_through_within_the_limit() -> None:
    """`flask run` and the socket tests run the threading mode: there the pump is a thread."""
    inside, most, done = [0], [0], []
    lock = threading.Lock()

    def spawn(work: Callable[[], None]) -> None:
        threading.Thread(target=work, daemon=True).start()

    gate = Turnstile(spawn, lambda: time.sleep(0), threading.Event, 2)

    def work(name: int) -> None:
        with gate.turn():
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            time.sleep(0.001)
            with lock:
                inside[0] -= 1
        done.append(name)

    threads = [threading.Thread(target=work, args=(name,)) for name in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert sorted(done) == list(range(40))
    assert most[0] <= 2
