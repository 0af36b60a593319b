"""The /room namespace: joining, moves, the end, disconnects and clocks."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from gobang.extensions import db, socketio
from gobang.models import Move
from tests.support.ratings import first_game_ratings


def play(black, white, game_id, moves):
    """Alternate moves, black first; every ack must be ok."""
    for index, (row, col) in enumerate(moves):
        mover = black if index % 2 == 0 else white
        ack = mover.emit("/room", "place_stone", {"game_id": game_id, "row": row, "col": col})
        assert ack == {"ok": True}, (row, col, ack)


# Black makes five on row 7 (cols 3..7) while white plays row 0.
BLACK_FIVE = [(7, 3), (0, 0), (7, 4), (0, 1), (7, 5), (0, 2), (7, 6), (0, 3), (7, 7)]


def test_join_returns_full_state_for_a_player(game_between):
    black, white, game_id = game_between()
    state = black.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert state["game_id"] == game_id
    assert state["status"] == "playing"
    assert state["you"] == "black"
    assert state["moves"] == []
    assert state["to_move"] == "black"
    assert state["ruleset"] == "freestyle"
    assert state["black"]["username"] == black.name
    assert state["white"] == {"id": white.id, "username": white.name, "score": 1000,
                              "rating": 1500}
    assert state["clocks"] == {"black_ms": 600_000, "white_ms": 600_000}
    assert state["result"] is None


def test_game_ready_when_both_players_are_present(player, tick):
    a, b = player("alice"), player("bob")
    for p in (a, b):
        p.emit("/hall", "start_match", {})
    tick()
    game_id = a.received("/hall", "match_found")[0]["game_id"]
    first = a.emit("/room", "join_game", {"game_id": game_id})
    assert first["state"]["status"] == "waiting"
    assert a.received("/room", "game_ready") == []
    b.emit("/room", "join_game", {"game_id": game_id})
    ready = a.received("/room", "game_ready")
    assert len(ready) == 1
    assert ready[0]["to_move"] == "black"
    assert ready[0]["clocks"] == {"black_ms": 600_000, "white_ms": 600_000}
    assert {ready[0]["black"]["username"], ready[0]["white"]["username"]} == {"alice", "bob"}


def test_an_opponent_arriving_while_a_join_waits_is_in_its_answer(player, tick, monkeypatch):
    """A join waits on I/O after taking its seat (publishing through Redis, the database):
    another join can run meanwhile. Its game_ready may reach this connection before the
    answer, so the answer must not be older: a page applies the answer last."""
    a, b = player("alice"), player("bob")
    for p in (a, b):
        p.emit("/hall", "start_match", {})
    tick()
    game_id = a.received("/hall", "match_found")[0]["game_id"]
    b.room  # noqa: B018 - connected before the join below runs inside a's
    room = socketio.server.namespace_handlers["/room"]
    publish, answers = room.publish, []

    def publish_while_the_opponent_joins(notices):
        publish(notices)
        if not answers:
            answers.append(None)
            answers.append(b.emit("/room", "join_game", {"game_id": game_id}))

    monkeypatch.setattr(room, "publish", publish_while_the_opponent_joins)
    first = a.emit("/room", "join_game", {"game_id": game_id})
    assert answers[1]["state"]["status"] == "playing"
    assert first["state"]["status"] == "playing"
    assert first["state"]["to_move"] == "black"


def test_move_before_opponent_arrives_is_refused(player, tick):
    a, b = player("alice"), player("bob")
    for p in (a, b):
        p.emit("/hall", "start_match", {})
    tick()
    found = a.received("/hall", "match_found")[0]
    a.emit("/room", "join_game", {"game_id": found["game_id"]})
    ack = a.emit("/room", "place_stone", {"game_id": found["game_id"], "row": 7, "col": 7})
    assert ack["error"] in ("conflict", "not_your_turn")


def test_spectator_joins_and_is_counted(game_between, player):
    black, white, game_id = game_between()
    carol = player("carol")
    state = carol.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert state["you"] == "spectator"
    assert black.received("/room", "spectators") == [{"game_id": game_id, "count": 1}]


def test_accepted_move_reaches_players_and_spectators(game_between, player):
    black, white, game_id = game_between()
    carol = player("carol")
    carol.emit("/room", "join_game", {"game_id": game_id})
    carol.received("/room")
    assert black.emit("/room", "place_stone", {"game_id": game_id, "row": 7, "col": 7}) == {
        "ok": True}
    for p in (black, white, carol):
        placed = p.received("/room", "stone_placed")
        assert placed == [{"game_id": game_id, "row": 7, "col": 7, "color": "black", "move": 1,
                           "to_move": "white",
                           "clocks": {"black_ms": 600_000, "white_ms": 600_000},
                           "abort_seconds": 30}]


def test_accepted_move_is_saved(game_between, app):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7), (7, 8)])
    with app.app_context():
        rows = db.session.scalars(select(Move).where(Move.game_id == game_id)).all()
        assert [(m.number, m.row, m.col, m.color) for m in rows] == [
            (1, 7, 7, "black"), (2, 7, 8, "white")]


@pytest.mark.parametrize(
    ("who", "payload", "code"),
    [
        ("white", {"row": 7, "col": 7}, "not_your_turn"),
        ("black", {"row": 15, "col": 0}, "out_of_range"),
        ("black", {"row": -1, "col": 3}, "out_of_range"),
        ("black", {"row": 3, "col": 15}, "out_of_range"),
        ("black", {"col": 3}, "bad_request"),
        ("black", {"row": 3}, "bad_request"),
        ("black", {}, "bad_request"),
        ("black", {"row": "7", "col": 3}, "bad_request"),
        ("black", {"row": 7, "col": "3"}, "bad_request"),
        ("black", {"row": True, "col": 3}, "bad_request"),
        ("black", {"row": None, "col": 3}, "bad_request"),
        ("black", {"row": 2.5, "col": 3}, "bad_request"),
        ("spectator", {"row": 7, "col": 7}, "not_in_game"),
    ],
)
def test_refused_moves_use_contract_codes_and_change_nothing(
    game_between, player, who, payload, code
):
    black, white, game_id = game_between()
    actor = {"black": black, "white": white, "spectator": player("carol")}[who]
    ack = actor.emit("/room", "place_stone", {"game_id": game_id, **payload})
    assert ack["ok"] is False
    assert ack["error"] == code
    assert ack["message"]
    assert black.emit("/room", "join_game", {"game_id": game_id})["state"]["moves"] == []
    assert black.received("/room", "stone_placed") == []


def test_occupied_point_is_refused(game_between):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7)])
    ack = white.emit("/room", "place_stone", {"game_id": game_id, "row": 7, "col": 7})
    assert ack["error"] == "occupied"


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"game_id": 999, "row": 1, "col": 1}, "not_found"),
        ({"game_id": "1", "row": 1, "col": 1}, "bad_request"),
        ({"row": 1, "col": 1}, "bad_request"),
    ],
)
def test_move_in_unknown_or_malformed_game_is_refused(game_between, payload, code):
    black, _white, _game_id = game_between()
    assert black.emit("/room", "place_stone", payload)["error"] == code


def test_join_unknown_game_is_not_found(player):
    assert player("alice").emit("/room", "join_game", {"game_id": 424242})["error"] == "not_found"


def test_five_in_a_row_ends_the_game_with_line_and_scores(game_between, app):
    black, white, game_id = game_between()
    play(black, white, game_id, BLACK_FIVE)
    over = white.received("/room", "game_over")
    assert over == [{"game_id": game_id, "result": {
        "winner": "black", "winner_id": black.id, "reason": "five",
        "line": [[7, 3], [7, 4], [7, 5], [7, 6], [7, 7]],
        "scores": {"black": {"before": 1000, "after": 1030},
                   "white": {"before": 1000, "after": 970}},
        "ratings": first_game_ratings("freestyle:rapid", winner="black")},
        "clocks": {"black_ms": 620_000, "white_ms": 620_000}}]
    assert black.http.get("/api/me").get_json()["score"] == 1030
    me = white.http.get("/api/me").get_json()
    assert (me["score"], me["games"], me["wins"], me["losses"], me["draws"]) == (970, 1, 0, 1, 0)


def test_winning_move_says_nobody_is_to_move(game_between):
    black, white, game_id = game_between()
    play(black, white, game_id, BLACK_FIVE)
    assert white.received("/room", "stone_placed")[-1]["to_move"] is None


def test_move_after_the_end_is_game_over(game_between):
    black, white, game_id = game_between()
    play(black, white, game_id, BLACK_FIVE)
    ack = white.emit("/room", "place_stone", {"game_id": game_id, "row": 3, "col": 3})
    assert ack["error"] == "game_over"


def test_finished_game_state_comes_from_the_record(game_between, player):
    black, white, game_id = game_between()
    play(black, white, game_id, BLACK_FIVE)
    state = player("carol").emit("/room", "join_game", {"game_id": game_id})["state"]
    assert state["status"] == "finished"
    assert state["you"] == "spectator"
    assert len(state["moves"]) == 9
    assert state["result"]["reason"] == "five"
    assert state["to_move"] is None


def test_resign_ends_the_game_for_the_opponent(game_between):
    black, white, game_id = game_between()
    assert white.emit("/room", "resign", {"game_id": game_id}) == {"ok": True}
    result = black.received("/room", "game_over")[0]["result"]
    assert (result["winner"], result["reason"], result["line"]) == ("black", "resign", None)
    assert white.emit("/room", "resign", {"game_id": game_id})["error"] == "game_over"


def test_spectator_cannot_resign(game_between, player):
    _black, _white, game_id = game_between()
    assert player("carol").emit("/room", "resign", {"game_id": game_id})["error"] == "not_in_game"


def test_leaving_starts_grace_and_coming_back_resumes(game_between, clock, tick):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7), (7, 8)])
    black.room.disconnect("/room")
    black.clients.pop("/room")
    assert white.received("/room", "opponent_left") == [
        {"game_id": game_id, "color": "black", "grace_seconds": 30}]
    clock.advance(29)
    tick()
    state = black.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert state["moves"] == [[7, 7], [7, 8]]
    assert state["to_move"] == "black"
    assert state["status"] == "playing"
    assert white.received("/room", "opponent_back") == [{"game_id": game_id, "color": "black"}]
    clock.advance(60)
    tick()
    assert white.received("/room", "game_over") == []


def test_staying_away_forfeits(game_between, clock, tick):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7)])
    white.room.disconnect("/room")
    clock.advance(30)
    tick()
    result = black.received("/room", "game_over")[0]["result"]
    assert (result["winner"], result["reason"]) == ("black", "disconnect")


@pytest.mark.parametrize("app_overrides", [{"FORFEIT_GRACE_SECONDS": 0}])
def test_zero_grace_forfeits_at_once(game_between):
    black, white, game_id = game_between()
    white.room.disconnect("/room")
    result = black.received("/room", "game_over")[0]["result"]
    assert (result["winner"], result["reason"]) == ("black", "disconnect")


def test_second_tab_takes_over_without_losing_the_game(game_between):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7), (6, 6)])
    old = black.room
    new = black.connect("/room")
    assert not old.is_connected("/room")
    assert "session_replaced" in [p["name"] for p in old.queue]
    state = new.emit("join_game", {"game_id": game_id}, namespace="/room", callback=True)["state"]
    assert state["moves"] == [[7, 7], [6, 6]]
    ack = new.emit("place_stone", {"game_id": game_id, "row": 5, "col": 5}, namespace="/room",
                   callback=True)
    assert ack == {"ok": True}


def test_clock_charges_the_mover_and_adds_increment(game_between, clock):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7)])
    clock.advance(12)
    play(white, black, game_id, [(7, 8)])
    placed = black.received("/room", "stone_placed")[-1]
    assert placed["clocks"] == {"black_ms": 600_000, "white_ms": 600_000 - 12_000 + 5_000}


def test_first_black_move_is_not_charged(game_between, clock):
    black, white, game_id = game_between()
    clock.advance(20)
    play(black, white, game_id, [(7, 7)])
    assert white.received("/room", "stone_placed")[-1]["clocks"]["black_ms"] == 600_000


@pytest.mark.parametrize("app_overrides", [{"CLOCK_INITIAL_SECONDS": 60}])
def test_flag_fall_ends_the_game_without_any_message(game_between, clock, tick):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7), (7, 8), (6, 6)])
    clock.advance(59)
    tick()
    assert black.received("/room", "game_over") == []
    clock.advance(1 + 5)
    tick()
    result = black.received("/room", "game_over")[0]["result"]
    assert (result["winner"], result["reason"]) == ("black", "timeout")


def test_no_first_move_aborts_without_score_change(game_between, clock, tick):
    black, white, game_id = game_between()
    clock.advance(30)
    tick()
    result = white.received("/room", "game_over")[0]["result"]
    assert (result["winner"], result["reason"]) == (None, "aborted")
    assert result["scores"]["black"] == {"before": 1000, "after": 1000}
    me = black.http.get("/api/me").get_json()
    assert (me["score"], me["games"]) == (1000, 0)


def test_no_first_reply_aborts(game_between, clock, tick):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7)])
    clock.advance(30)
    tick()
    assert white.received("/room", "game_over")[0]["result"]["reason"] == "aborted"


@pytest.mark.parametrize(("moves", "color"), [([], "black"), ([(7, 7)], "white")])
def test_an_abort_says_who_did_not_move_in_time(game_between, clock, tick, moves, color):
    black, white, game_id = game_between()
    play(black, white, game_id, moves)
    clock.advance(30)
    tick()
    why = {"cause": "no_first_move", "color": color, "seconds": 30}
    assert white.received("/room", "game_over")[0]["result"]["abort"] == why
    assert black.http.get(f"/api/games/{game_id}").get_json()["result"]["abort"] == why


@pytest.mark.parametrize(("arrive", "missing"), [(["black"], "white"), (["white"], "black"),
                                                 ([], None)])
def test_an_abort_says_who_never_came_to_the_game(player, tick, clock, arrive, missing):
    ann, ben = player("ann"), player("ben")
    seats = {}
    for someone in (ann, ben):
        someone.join_hall()
        someone.emit("/hall", "start_match", {"ruleset": "freestyle"})
    tick()
    for someone in (ann, ben):
        found = someone.received("/hall", "match_found")[0]
        seats[found["color"]] = someone
    game_id = found["game_id"]
    for color in arrive:
        seats[color].emit("/room", "join_game", {"game_id": game_id})
    clock.advance(30)
    tick()
    record = ann.http.get(f"/api/games/{game_id}").get_json()
    assert record["result"]["abort"] == {"cause": "no_show", "color": missing, "seconds": 30}


def test_a_game_that_ends_otherwise_carries_no_abort(game_between):
    black, white, game_id = game_between()
    white.emit("/room", "resign", {"game_id": game_id})
    assert "abort" not in black.received("/room", "game_over")[0]["result"]


def test_game_end_frees_players_for_the_hall(game_between):
    black, white, game_id = game_between()
    white.emit("/room", "resign", {"game_id": game_id})
    assert black.emit("/hall", "start_match", {}) == {"ok": True}


@pytest.mark.parametrize("event", ["join_game", "place_stone", "resign", "offer_draw",
                                   "answer_draw", "request_undo", "answer_undo", "rematch",
                                   "chat"])
@pytest.mark.parametrize("payload", [None, {}, "text", [1], {"game_id": None},
                                     {"game_id": 10**30}])
def test_every_room_event_answers_junk_with_a_contract_error(game_between, event, payload):
    black, _white, _game_id = game_between()
    ack = black.emit("/room", event, payload)
    assert ack["ok"] is False
    assert ack["error"] in ("bad_request", "not_found")


@pytest.mark.parametrize("event", ["disconnect", "connect"])
def test_clients_cannot_fake_connection_events(game_between, event):
    black, white, game_id = game_between()
    ack = black.emit("/room", event, {"x": 1})
    assert ack["error"] == "bad_request"
    assert white.received("/room", "opponent_left") == []
    play(black, white, game_id, [(7, 7)])


@pytest.mark.parametrize("namespace", ["/room", "/hall"])
def test_unknown_events_get_a_contract_error(player, namespace):
    alice = player("alice")
    ack = alice.emit(namespace, "teleport", {"game_id": 1})
    assert ack["ok"] is False
    assert ack["error"] == "bad_request"


def test_payload_ids_never_stand_in_for_the_session_user(game_between):
    black, white, game_id = game_between()
    forged = {"game_id": game_id, "row": 7, "col": 7, "color": "black", "user_id": black.id}
    assert white.emit("/room", "place_stone", forged)["error"] == "not_your_turn"
    assert white.emit("/room", "resign", {"game_id": game_id, "user_id": black.id}) == {
        "ok": True}
    result = black.received("/room", "game_over")[0]["result"]
    assert result["winner"] == "black"


@pytest.mark.parametrize("app_overrides", [{"MOVES_PER_SECOND": 3}])
def test_flooding_moves_gets_rate_limited(game_between, clock):
    black, _white, game_id = game_between()
    codes = [black.emit("/room", "place_stone", {"game_id": game_id, "row": 99, "col": 0})[
        "error"] for _ in range(4)]
    assert codes == ["out_of_range"] * 3 + ["rate_limited"]
    clock.advance(1)
    assert black.emit("/room", "place_stone", {"game_id": game_id, "row": 7, "col": 7}) == {
        "ok": True}


def _refusing_database(*_args, **_kwargs):
    from sqlalchemy.exc import OperationalError

    raise OperationalError("UPDATE games", {}, Exception("database is locked"))


def test_a_resign_the_database_refuses_is_answered_and_changes_nothing(game_between,
                                                                       monkeypatch):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7), (7, 8)])
    monkeypatch.setattr("gobang.services.play.finisher.save_result", _refusing_database)
    assert white.emit("/room", "resign", {"game_id": game_id})["error"] == "conflict"
    assert white.received("/room", "game_over") == []
    assert black.emit("/room", "place_stone", {"game_id": game_id, "row": 0, "col": 0})["ok"]


def test_a_draw_offer_survives_a_refused_acceptance(game_between, monkeypatch):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7), (7, 8)])
    assert black.emit("/room", "offer_draw", {"game_id": game_id})["ok"]
    with monkeypatch.context() as patched:
        patched.setattr("gobang.services.play.finisher.save_result", _refusing_database)
        ack = white.emit("/room", "answer_draw", {"game_id": game_id, "accept": True})
        assert ack["error"] == "conflict"
    assert white.emit("/room", "answer_draw", {"game_id": game_id, "accept": True})["ok"]
    assert white.received("/room", "game_over")[-1]["result"]["reason"] == "draw_agreed"


def test_a_move_the_database_refuses_is_heard_by_nobody(game_between, monkeypatch):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7), (7, 8)])
    white.received("/room")
    monkeypatch.setattr("gobang.services.play.move_writer.MoveWriter.write",
                        _refusing_database)
    ack = black.emit("/room", "place_stone", {"game_id": game_id, "row": 0, "col": 0})
    assert ack["error"] == "conflict"
    assert white.received("/room", "stone_placed") == []
    state = white.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert state["moves"] == [[7, 7], [7, 8]] and state["to_move"] == "black"
