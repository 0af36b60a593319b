"""Broadcasts to a crowd go out a slice at a time, each recipient once, encoded once; the
hall's update to a crowd from a green thread of its own, in the order emitted."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from socketio import packet

from gobang.services.metrics import Metrics
from gobang.services.store import MemoryQueue, MemoryStore
from gobang.transport.fanout import SLICE, PacedEmits
from tests.support.prometheus import sample

HALL = "/hall"
# A broadcast sent inline, paced; and one the crier sends from its own green thread.
INLINE, LATER = "chat_message", "hall_update"


class Server:
    """What the manager asks of python-socketio's server; records sends and pauses."""

    packet_class = packet.Packet

    def __init__(self, broken: int = 0, broken_pauses: int = 0) -> None:
        self.log: list[tuple[str, ...]] = []
        self.tasks: list[Any] = []
        # How many sends, and how many pauses, fail before the rest go through.
        self.broken = broken
        self.broken_pauses = broken_pauses

    def _send_eio_packet(self, eio_sid: str, eio_pkt: Any) -> None:
        if self.broken:
            self.broken -= 1
            raise OSError("connection reset")
        self.log.append(("send", eio_sid, eio_pkt.data))

    def start_background_task(self, target: Any, *args: Any) -> None:
        self.tasks.append(lambda: target(*args))

    def run_tasks(self) -> None:
        while self.tasks:
            self.tasks.pop(0)()

    def sleep(self, seconds: float = 0) -> None:
        if self.broken_pauses:
            self.broken_pauses -= 1
            raise RuntimeError("the hub went away")
        self.log.append(("pause",))

    def sends(self) -> list[tuple[str, ...]]:
        return [entry for entry in self.log if entry[0] == "send"]


def manager_with(audience: int, room: str | None = None, server: Server | None = None,
                 metrics: Metrics | None = None) -> tuple[PacedEmits, Server]:
    server = server or Server()
    manager = PacedEmits(metrics.emit_failed) if metrics else PacedEmits()
    manager.set_server(server)
    for n in range(audience):
        sid, eio_sid = f"s{n}", f"e{n}"
        manager.basic_enter_room(sid, HALL, None, eio_sid=eio_sid)
        manager.basic_enter_room(sid, HALL, sid, eio_sid=eio_sid)
        if room is not None and n % 2 == 0:
            manager.basic_enter_room(sid, HALL, room, eio_sid=eio_sid)
    return manager, server


@pytest.mark.parametrize("audience", [1, SLICE, SLICE + 1, 3 * SLICE + 5])
def test_everyone_in_the_hall_gets_the_update_once(audience: int) -> None:
    manager, server = manager_with(audience)
    manager.emit(INLINE, {"seq": 7}, HALL)
    recipients = [eio_sid for _send, eio_sid, _data in server.sends()]
    assert sorted(recipients) == sorted(f"e{n}" for n in range(audience))


@pytest.mark.parametrize(("audience", "pauses"), [
    (1, 0), (SLICE, 0), (SLICE + 1, 1), (2 * SLICE, 2), (3 * SLICE + 5, 3)])
def test_the_loop_gets_a_turn_after_each_slice_of_a_large_audience(audience: int,
                                                                    pauses: int) -> None:
    manager, server = manager_with(audience)
    manager.emit(INLINE, {"seq": 7}, HALL)
    assert server.log.count(("pause",)) == pauses


def test_no_more_than_a_slice_is_queued_between_two_turns() -> None:
    manager, server = manager_with(5 * SLICE)
    manager.emit(INLINE, {"seq": 7}, HALL)
    run = longest = 0
    for entry in server.log:
        run = 0 if entry == ("pause",) else run + 1
        longest = max(longest, run)
    assert longest == SLICE


def test_every_recipient_is_sent_the_same_socketio_event() -> None:
    manager, server = manager_with(2 * SLICE)
    manager.emit(INLINE, {"seq": 7}, HALL)
    assert {data for _send, _eio, data in server.sends()} == {
        '2/hall,["chat_message",{"seq":7}]'}


def test_a_skipped_connection_is_not_sent_the_update() -> None:
    manager, server = manager_with(2 * SLICE)
    manager.emit(INLINE, {"seq": 7}, HALL, skip_sid="s3")
    recipients = {eio_sid for _send, eio_sid, _data in server.sends()}
    assert "e3" not in recipients
    assert len(recipients) == 2 * SLICE - 1


def test_a_room_of_a_crowd_reaches_only_its_members() -> None:
    manager, server = manager_with(4 * SLICE, room="watchers")
    manager.emit("stone_placed", {"x": 7, "y": 7}, HALL, to="watchers")
    recipients = {eio_sid for _send, eio_sid, _data in server.sends()}
    assert recipients == {f"e{n}" for n in range(0, 4 * SLICE, 2)}


def recipients_of(server: Server) -> list[str]:
    return [eio_sid for _send, eio_sid, _data in server.sends()]


def test_the_halls_update_to_a_crowd_is_not_sent_by_the_emitter() -> None:
    manager, server = manager_with(SLICE + 1)
    manager.emit(LATER, {"seq": 7}, HALL)
    assert server.sends() == []
    assert len(server.tasks) == 1


def test_the_crier_sends_the_halls_update_to_everyone_once() -> None:
    manager, server = manager_with(3 * SLICE + 5)
    manager.emit(LATER, {"seq": 7}, HALL)
    server.run_tasks()
    assert sorted(recipients_of(server)) == sorted(f"e{n}" for n in range(3 * SLICE + 5))
    assert server.log.count(("pause",)) == 3


def test_the_halls_update_to_a_few_is_sent_at_once() -> None:
    manager, server = manager_with(SLICE)
    manager.emit(LATER, {"seq": 7}, HALL)
    assert len(server.sends()) == SLICE
    assert server.tasks == []


def test_updates_queued_while_one_goes_out_follow_it_in_order_on_one_green_thread() -> None:
    manager, server = manager_with(2 * SLICE)
    for seq in (7, 8, 9):
        manager.emit(LATER, {"seq": seq}, HALL)
    assert len(server.tasks) == 1
    server.run_tasks()
    to_first = [data for _send, eio_sid, data in server.sends() if eio_sid == "e0"]
    assert to_first == [f'2/hall,["hall_update",{{"seq":{seq}}}]' for seq in (7, 8, 9)]


@pytest.mark.parametrize(("queued", "run", "idle"), [
    (0, False, True),
    (1, False, False),
    (2, False, False),
    (2, True, True),
])
def test_the_crier_is_idle_only_with_nothing_left_to_send(queued: int, run: bool,
                                                          idle: bool) -> None:
    manager, server = manager_with(2 * SLICE)
    for seq in range(queued):
        manager.emit(LATER, {"seq": seq}, HALL)
    if run:
        server.run_tasks()
    assert manager.crier.idle() is idle


@pytest.mark.parametrize("event", [INLINE, LATER])
def test_a_connection_that_cannot_be_sent_to_does_not_cost_the_others_theirs(event: str) -> None:
    manager, server = manager_with(2 * SLICE, server=Server(broken=1))
    manager.emit(event, {"seq": 7}, HALL)
    server.run_tasks()
    assert len(server.sends()) == 2 * SLICE - 1


def test_the_crier_goes_on_after_a_delivery_that_died_midway() -> None:
    manager, server = manager_with(2 * SLICE, server=Server(broken_pauses=1))
    manager.emit(LATER, {"seq": 7}, HALL)
    manager.emit(LATER, {"seq": 8}, HALL)
    server.run_tasks()
    assert [data for _send, _eio, data in server.sends()].count(
        '2/hall,["hall_update",{"seq":8}]') == 2 * SLICE
    assert manager.crier.idle()


def test_a_new_update_after_the_crier_stopped_starts_it_again() -> None:
    manager, server = manager_with(2 * SLICE)
    manager.emit(LATER, {"seq": 7}, HALL)
    server.run_tasks()
    manager.emit(LATER, {"seq": 8}, HALL)
    assert len(server.tasks) == 1
    server.run_tasks()
    assert len(server.sends()) == 4 * SLICE


def test_an_update_for_a_few_waits_behind_one_for_a_crowd_still_going_out() -> None:
    manager, server = manager_with(SLICE + 1)
    manager.emit(LATER, {"seq": 7}, HALL)
    manager.emit(LATER, {"seq": 8}, HALL, to="s0")
    assert server.sends() == []
    server.run_tasks()
    to_first = [data for _send, eio_sid, data in server.sends() if eio_sid == "e0"]
    assert to_first == ['2/hall,["hall_update",{"seq":7}]', '2/hall,["hall_update",{"seq":8}]']


def failures(metrics: Metrics, where: str) -> float:
    text = metrics.exposition(MemoryStore(MemoryQueue()), queued=0, maintenance=False, process="p")
    return sample(text, "gobang_emit_failures_total", where=where)


@pytest.mark.parametrize("event", [INLINE, LATER])
def test_each_recipient_a_broadcast_could_not_reach_is_counted(event: str) -> None:
    metrics = Metrics()
    manager, server = manager_with(2 * SLICE, server=Server(broken=3), metrics=metrics)
    manager.emit(event, {"seq": 7}, HALL)
    server.run_tasks()
    assert failures(metrics, "broadcast") == 3


def test_a_broadcast_that_failed_for_many_is_logged_once(caplog: pytest.LogCaptureFixture
                                                         ) -> None:
    manager, server = manager_with(2 * SLICE, server=Server(broken=SLICE), metrics=Metrics())
    with caplog.at_level(logging.ERROR, logger="gobang.sockets"):
        manager.emit(INLINE, {"seq": 7}, HALL)
    assert [record.getMessage() for record in caplog.records] == ["broadcast not sent to some"]


def test_a_crowds_update_that_died_midway_is_counted() -> None:
    metrics = Metrics()
    manager, server = manager_with(2 * SLICE, server=Server(broken_pauses=1), metrics=metrics)
    manager.emit(LATER, {"seq": 7}, HALL)
    server.run_tasks()
    assert failures(metrics, "crier") == 1


def test_a_broadcast_that_reached_everyone_counts_no_failure() -> None:
    metrics = Metrics()
    manager, server = manager_with(2 * SLICE, metrics=metrics)
    manager.emit(INLINE, {"seq": 7}, HALL)
    assert failures(metrics, "broadcast") == 0


@pytest.mark.parametrize("audience", [1, 2, SLICE])
def test_each_recipient_of_an_emit_to_a_few_that_could_not_be_reached_is_counted(
        audience: int, caplog: pytest.LogCaptureFixture) -> None:
    # Every room event goes to a few: sent at once, unpaced, yet counted as a crowd's is.
    metrics = Metrics()
    manager, server = manager_with(audience, server=Server(broken=1), metrics=metrics)
    with caplog.at_level(logging.ERROR, logger="gobang.sockets"):
        manager.emit("stone_placed", {"x": 7, "y": 7}, HALL)
    assert (failures(metrics, "broadcast"), len(server.sends()), server.log.count(("pause",)),
            [record.getMessage() for record in caplog.records]) == (
        1, audience - 1, 0, ["broadcast not sent to some"])


def test_an_emit_to_one_connection_that_could_not_be_reached_is_counted() -> None:
    metrics = Metrics()
    manager, server = manager_with(3, server=Server(broken=1), metrics=metrics)
    manager.emit("game_state", {"v": 1}, HALL, to="s1")
    assert (failures(metrics, "broadcast"), server.sends()) == (1, [])


def test_an_emit_to_a_namespace_nobody_joined_sends_nothing() -> None:
    manager, server = manager_with(0)
    manager.emit("stone_placed", {"x": 7, "y": 7}, "/room", to="game-1")
    assert server.log == []
