"""Games against the computer on `python app.py`: real engine processes, real clients."""

from __future__ import annotations

import queue

import pytest

from gobang.ai import BuiltinPlayer
from gobang.rules import Game as RulesGame

pytestmark = [pytest.mark.live]

# Engines start in a second or two of CPU at low priority on a busy machine.
REPLY_SECONDS = 60


def start(live_server, name: str, color: str, level: int = 1):
    """A player who asked for a computer game and joined its room: (http, room, game_id)."""
    http = live_server.user(name)
    hall = live_server.connect(http, "/hall")
    hall.wait_for("hello")
    answer = hall.ask("play_computer", {"level": level, "color": color})
    assert answer["ok"] is True, answer
    room = live_server.connect(http, "/room")
    state = room.ask("join_game", {"game_id": answer["game_id"]})["state"]
    assert state["status"] == "playing" and state["you"] == color
    return http, room, answer["game_id"]


def next_event(room, names=("stone_placed", "game_over")):
    """The next of `names` the room hears, as (name, payload); a `game_over` not among them
    fails at once, quoting it, rather than after REPLY_SECONDS."""
    while True:
        try:
            name, payload = room.inbox.get(timeout=REPLY_SECONDS)
        except queue.Empty:
            raise AssertionError(f"no {' or '.join(names)} within {REPLY_SECONDS} s") from None
        if name in names:
            return name, payload
        if name == "game_over":
            raise AssertionError(f"the game ended while waiting for {' or '.join(names)}: "
                                 f"{payload}")


def next_stone(room) -> dict:
    """The next `stone_placed`, whoever played it."""
    return next_event(room, ("stone_placed",))[1]


def test_a_whole_game_against_level_1_is_played_and_left_unrated(live_server):
    http, room, game_id = start(live_server, "ann", "black")
    rules, chooser = RulesGame("freestyle"), BuiltinPlayer(4)
    over = None
    while over is None:
        if rules.to_move == "black":
            row, col = chooser(rules)
            ack = room.ask("place_stone", {"game_id": game_id, "row": row, "col": col})
            assert ack == {"ok": True}, ack
        name, payload = next_event(room)
        if name == "game_over":
            over = payload
        else:
            rules.place(payload["row"], payload["col"], payload["color"])
    assert over["result"]["reason"] in ("five", "board_full")
    assert over["result"]["scores"]["black"]["before"] == over["result"]["scores"]["black"][
        "after"]
    me = http.get(live_server.url + "/api/me").json()
    assert (me["score"], me["games"]) == (1000, 0)
    record = http.get(f"{live_server.url}/api/games/{game_id}").json()
    assert record["status"] == "finished"
    assert len(record["moves"]) == len(rules.moves)


def test_a_reload_mid_game_comes_back_to_the_same_game_and_the_computer_goes_on(live_server):
    http, room, game_id = start(live_server, "ann", "white")
    first = next_stone(room)
    assert first["color"] == "black"
    assert room.ask("place_stone", {"game_id": game_id, "row": 0, "col": 0}) == {"ok": True}
    assert next_stone(room)["color"] == "white"  # our own move
    assert next_stone(room)["color"] == "black"
    room.disconnect()

    again = live_server.connect(http, "/room")
    state = again.ask("join_game", {"game_id": game_id})["state"]
    assert len(state["moves"]) == 3 and state["to_move"] == "white"
    assert state["black"]["computer"] == 1
    assert again.ask("place_stone", {"game_id": game_id, "row": 14, "col": 14}) == {"ok": True}
    colors = [next_stone(again)["color"], next_stone(again)["color"]]
    assert colors == ["white", "black"]


def test_after_a_server_crash_the_computer_plays_on(live_server):
    http, room, game_id = start(live_server, "ann", "black")
    assert room.ask("place_stone", {"game_id": game_id, "row": 7, "col": 7}) == {"ok": True}
    live_server.crash_and_restart()

    room = live_server.connect(http, "/room")
    state = room.ask("join_game", {"game_id": game_id})["state"]
    assert state["status"] == "playing" and state["moves"][0] == [7, 7]
    rules = RulesGame.replay([tuple(m) for m in state["moves"]], "freestyle")
    if state["to_move"] == "white":  # killed before the reply was saved: the usual case
        reply = next_stone(room)
        assert reply["color"] == "white"
        rules.place(reply["row"], reply["col"], "white")
    row, col = next((r, c) for r in range(15) for c in range(15) if rules.board.is_empty(r, c))
    assert room.ask("place_stone", {"game_id": game_id, "row": row, "col": col}) == {"ok": True}
    replies = [next_stone(room), next_stone(room)]
    assert [r["color"] for r in replies] == ["black", "white"]
