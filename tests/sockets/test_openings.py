"""Opening steps over the wire (docs/protocol.md, "Openings"): the events and refusals a
client sees."""

from __future__ import annotations

import pytest

from gobang.extensions import db
from gobang.models import User
from tests.sockets.conftest import services_of

THREE = [(7, 7), (7, 8), (8, 8)]


@pytest.fixture
def opening_room(player, app):
    """`first` and `second` seated at a game with `rule`; first places the first stone."""

    def make(rule: str, ruleset: str = "freestyle"):
        first, second = player("first_fa"), player("second_se")
        ids = [first.id, second.id]  # each a request: not inside the app context below
        with app.app_context():
            users = [db.session.get(User, user_id) for user_id in ids]
            live, _ = services_of(app).play.factory.create(*users, ruleset, opening=rule)
        for p in (first, second):
            assert p.emit("/room", "join_game", {"game_id": live.game_id})["ok"]
            p.received("/room")
        return first, second, live.game_id

    return make


def stone(client, game_id, row, col):
    return client.emit("/room", "place_stone", {"game_id": game_id, "row": row, "col": col})


def test_a_stone_of_the_opening_is_told_with_the_opening_after_it(opening_room):
    first, second, game_id = opening_room("swap2")
    assert stone(first, game_id, 7, 7) == {"ok": True}
    placed = second.received("/room", "stone_placed")[0]
    assert (placed["color"], placed["move"], placed["to_move"]) == ("black", 1, "black")
    assert placed["opening"]["step"] == {"player": first.id, "kind": "place"}


def test_a_colour_choice_tells_everyone_the_seats_after_it(opening_room):
    first, second, game_id = opening_room("swap")
    for row, col in THREE:
        stone(first, game_id, row, col)
    first.received("/room")
    ack = second.emit("/room", "opening_choose", {"game_id": game_id, "option": "black"})
    assert ack == {"ok": True}
    chosen = first.received("/room", "opening_chosen")[0]
    assert (chosen["player"], chosen["option"], chosen["to_move"]) == (second.id, "black",
                                                                       "white")
    assert (chosen["black"]["id"], chosen["white"]["id"]) == (second.id, first.id)
    assert chosen["opening"]["step"] is None
    state = first.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert (state["you"], state["to_move"]) == ("white", "white")


@pytest.mark.parametrize(("event", "data", "code"), [
    ("opening_choose", {"option": 3}, "bad_request"),
    ("opening_choose", {"option": "black"}, "not_your_turn"),
    ("opening_offer", {"points": [[1, 2]] * 11}, "bad_request"),
    ("opening_offer", {"points": [[1, "2"]]}, "bad_request"),
    ("opening_pick", {"row": 1}, "bad_request"),
    ("opening_pick", {"row": 1, "col": 2}, "not_your_turn"),
])
def test_malformed_or_untimely_opening_steps_are_refused(opening_room, event, data, code):
    first, second, game_id = opening_room("swap")
    ack = second.emit("/room", event, {"game_id": game_id, **data})
    assert ack["ok"] is False and ack["error"] == code


def test_ten_fifth_stones_offered_are_shown_and_one_is_picked(opening_room):
    first, second, game_id = opening_room("taraguchi-10", "renju")
    # Nobody swaps: first places the black stones, second the white ones.
    for number, (row, col) in enumerate([(7, 7), (6, 7), (9, 9), (4, 7)]):
        placer, chooser = (first, second) if number % 2 == 0 else (second, first)
        keep = "white" if chooser is second else "black"
        assert stone(placer, game_id, row, col) == {"ok": True}
        assert chooser.emit("/room", "opening_choose", {"game_id": game_id,
                                                        "option": keep}) == {"ok": True}
    points = [[3, col] for col in range(10)]
    assert first.emit("/room", "opening_offer", {"game_id": game_id, "points": points}) == {
        "ok": True}
    offered = second.received("/room", "fifth_offered")[0]
    assert offered["points"] == points and offered["opening"]["step"]["offers"] == points
    assert second.emit("/room", "opening_pick", {"game_id": game_id, "row": 3, "col": 2}) == {
        "ok": True}
    picked = first.received("/room", "stone_placed")[-1]
    assert (picked["row"], picked["col"], picked["move"], picked["to_move"]) == (3, 2, 5,
                                                                                 "white")
    assert picked["opening"]["step"] is None


def test_a_stone_outside_its_square_is_refused_with_its_code(opening_room):
    first, _second, game_id = opening_room("taraguchi-10", "renju")
    ack = stone(first, game_id, 0, 0)
    assert ack["error"] == "outside_area"
