"""Broadcasts to a crowd go out a slice at a time, each recipient once, encoded once."""

from __future__ import annotations

from typing import Any

import pytest
from socketio import packet

from gobang.sockets.fanout import SLICE, PacedEmits

HALL = "/hall"


class Server:
    """What the manager asks of python-socketio's server; records sends and pauses."""

    packet_class = packet.Packet

    def __init__(self) -> None:
        self.log: list[tuple[str, ...]] = []

    def _send_eio_packet(self, eio_sid: str, eio_pkt: Any) -> None:
        self.log.append(("send", eio_sid, eio_pkt.data))

    def sleep(self, seconds: float = 0) -> None:
        self.log.append(("pause",))

    def sends(self) -> list[tuple[str, ...]]:
        return [entry for entry in self.log if entry[0] == "send"]


def manager_with(audience: int, room: str | None = None) -> tuple[PacedEmits, Server]:
    server = Server()
    manager = PacedEmits()
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
    manager.emit("hall_update", {"seq": 7}, HALL)
    recipients = [eio_sid for _send, eio_sid, _data in server.sends()]
    assert sorted(recipients) == sorted(f"e{n}" for n in range(audience))


@pytest.mark.parametrize(("audience", "pauses"), [
    (1, 0), (SLICE, 0), (SLICE + 1, 1), (2 * SLICE, 2), (3 * SLICE + 5, 3)])
def test_the_loop_gets_a_turn_after_each_slice_of_a_large_audience(audience: int,
                                                                    pauses: int) -> None:
    manager, server = manager_with(audience)
    manager.emit("hall_update", {"seq": 7}, HALL)
    assert server.log.count(("pause",)) == pauses


def test_no_more_than_a_slice_is_queued_between_two_turns() -> None:
    manager, server = manager_with(5 * SLICE)
    manager.emit("hall_update", {"seq": 7}, HALL)
    run = longest = 0
    for entry in server.log:
        run = 0 if entry == ("pause",) else run + 1
        longest = max(longest, run)
    assert longest == SLICE


def test_every_recipient_is_sent_the_same_socketio_event() -> None:
    manager, server = manager_with(2 * SLICE)
    manager.emit("hall_update", {"seq": 7}, HALL)
    assert {data for _send, _eio, data in server.sends()} == {
        '2/hall,["hall_update",{"seq":7}]'}


def test_a_skipped_connection_is_not_sent_the_update() -> None:
    manager, server = manager_with(2 * SLICE)
    manager.emit("hall_update", {"seq": 7}, HALL, skip_sid="s3")
    recipients = {eio_sid for _send, eio_sid, _data in server.sends()}
    assert "e3" not in recipients
    assert len(recipients) == 2 * SLICE - 1


def test_a_room_of_a_crowd_reaches_only_its_members() -> None:
    manager, server = manager_with(4 * SLICE, room="watchers")
    manager.emit("stone_placed", {"x": 7, "y": 7}, HALL, to="watchers")
    recipients = {eio_sid for _send, eio_sid, _data in server.sends()}
    assert recipients == {f"e{n}" for n in range(0, 4 * SLICE, 2)}
