"""Draw, take-back, pause, rematch, chat and spectators in a game room."""

from __future__ import annotations

import pytest

from tests.sockets.test_room import BLACK_FIVE, play


def test_draw_offer_is_announced_to_the_room(game_between, player):
    black, white, game_id = game_between()
    carol = player("carol")
    carol.emit("/room", "join_game", {"game_id": game_id})
    carol.received("/room")
    assert black.emit("/room", "offer_draw", {"game_id": game_id}) == {"ok": True}
    for p in (white, carol):
        assert p.received("/room", "draw_offered") == [{"game_id": game_id, "by": "black"}]


def test_accepted_draw_scores_half_each(game_between):
    black, white, game_id = game_between()
    black.emit("/room", "offer_draw", {"game_id": game_id})
    assert white.emit("/room", "answer_draw", {"game_id": game_id, "accept": True}) == {
        "ok": True}
    result = black.received("/room", "game_over")[0]["result"]
    assert (result["winner"], result["winner_id"], result["reason"]) == (
        None, None, "draw_agreed")
    me = black.http.get("/api/me").get_json()
    assert (me["score"], me["games"], me["draws"]) == (1000, 1, 1)


def test_declined_draw_keeps_playing(game_between):
    black, white, game_id = game_between()
    black.emit("/room", "offer_draw", {"game_id": game_id})
    white.emit("/room", "answer_draw", {"game_id": game_id, "accept": False})
    assert black.received("/room", "draw_declined") == [{"game_id": game_id, "by": "white"}]
    play(black, white, game_id, [(7, 7)])


def test_a_declined_offer_is_not_repeated_at_once_and_the_answer_says_when(game_between):
    black, white, game_id = game_between()
    black.emit("/room", "offer_draw", {"game_id": game_id})
    white.emit("/room", "answer_draw", {"game_id": game_id, "accept": False})
    play(black, white, game_id, [(7, 7), (8, 8)])
    white.received("/room")
    again = black.emit("/room", "offer_draw", {"game_id": game_id})
    assert (again["error"], again["moves_left"]) == ("conflict", 8)
    assert "after 8 more moves" in again["message"]
    assert white.received("/room", "draw_offered") == []


def test_only_one_open_draw_offer(game_between):
    black, _white, game_id = game_between()
    black.emit("/room", "offer_draw", {"game_id": game_id})
    assert black.emit("/room", "offer_draw", {"game_id": game_id})["error"] == "conflict"


def test_draw_offer_lapses_when_the_offerer_moves(game_between):
    black, white, game_id = game_between()
    black.emit("/room", "offer_draw", {"game_id": game_id})
    play(black, white, game_id, [(7, 7)])
    ack = white.emit("/room", "answer_draw", {"game_id": game_id, "accept": True})
    assert ack["error"] == "conflict"


@pytest.mark.parametrize(("who", "code"), [("black", "conflict"), ("spectator", "not_in_game")])
def test_only_the_opponent_answers_a_draw(game_between, player, who, code):
    black, _white, game_id = game_between()
    black.emit("/room", "offer_draw", {"game_id": game_id})
    actor = black if who == "black" else player("carol")
    assert actor.emit("/room", "answer_draw", {"game_id": game_id, "accept": True})[
        "error"] == code


@pytest.mark.parametrize("accept", [None, "yes", 1])
def test_answer_needs_a_boolean(game_between, accept):
    black, white, game_id = game_between()
    black.emit("/room", "offer_draw", {"game_id": game_id})
    ack = white.emit("/room", "answer_draw", {"game_id": game_id, "accept": accept})
    assert ack["error"] == "bad_request"


def test_take_back_of_own_last_move_and_the_reply(game_between):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7), (7, 8), (6, 6), (5, 5)])
    assert black.emit("/room", "request_undo", {"game_id": game_id}) == {"ok": True}
    assert white.received("/room", "undo_requested") == [{"game_id": game_id, "by": "black"}]
    assert white.emit("/room", "answer_undo", {"game_id": game_id, "accept": True}) == {
        "ok": True}
    undone = black.received("/room", "undone")[0]
    assert undone["moves"] == [[7, 7], [7, 8]]
    assert undone["to_move"] == "black"
    play(black, white, game_id, [(9, 9)])


def test_take_back_right_after_own_move(game_between):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7), (7, 8), (6, 6)])
    black.emit("/room", "request_undo", {"game_id": game_id})
    white.emit("/room", "answer_undo", {"game_id": game_id, "accept": True})
    assert black.received("/room", "undone")[0]["moves"] == [[7, 7], [7, 8]]


def test_take_back_is_saved(game_between):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7), (7, 8), (6, 6)])
    black.emit("/room", "request_undo", {"game_id": game_id})
    white.emit("/room", "answer_undo", {"game_id": game_id, "accept": True})
    record = black.http.get(f"/api/games/{game_id}").get_json()
    assert record["moves"] == [[7, 7], [7, 8]]


def test_declined_take_back_changes_nothing(game_between):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7), (7, 8)])
    black.emit("/room", "request_undo", {"game_id": game_id})
    white.emit("/room", "answer_undo", {"game_id": game_id, "accept": False})
    assert black.received("/room", "undo_declined") == [{"game_id": game_id, "by": "white"}]
    state = black.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert state["moves"] == [[7, 7], [7, 8]]


def test_at_most_three_take_backs_per_player(game_between):
    black, white, game_id = game_between()
    for _ in range(3):
        play(black, white, game_id, [(7, 7), (7, 8)])
        black.emit("/room", "request_undo", {"game_id": game_id})
        white.emit("/room", "answer_undo", {"game_id": game_id, "accept": True})
    play(black, white, game_id, [(7, 7)])
    assert black.emit("/room", "request_undo", {"game_id": game_id})["error"] == "conflict"


def test_take_back_without_a_move_is_refused(game_between):
    black, _white, game_id = game_between()
    assert black.emit("/room", "request_undo", {"game_id": game_id})["error"] == "conflict"


def test_take_back_refused_after_the_end(game_between):
    black, white, game_id = game_between()
    play(black, white, game_id, BLACK_FIVE)
    assert black.emit("/room", "request_undo", {"game_id": game_id})["error"] == "game_over"


def test_pause_stops_clocks_and_moves_until_both_resume(game_between, clock):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7), (7, 8)])
    black.emit("/room", "request_pause", {"game_id": game_id})
    assert white.received("/room", "pause_requested") == [{"game_id": game_id, "by": "black"}]
    white.emit("/room", "answer_pause", {"game_id": game_id, "accept": True})
    paused = black.received("/room", "paused")[0]
    clock.advance(300)
    ack = black.emit("/room", "place_stone", {"game_id": game_id, "row": 1, "col": 1})
    assert ack["error"] == "conflict"
    black.emit("/room", "resume", {"game_id": game_id})
    assert white.received("/room", "resume_requested") == [{"game_id": game_id, "by": "black"}]
    white.emit("/room", "resume", {"game_id": game_id})
    resumed = black.received("/room", "resumed")[0]
    assert resumed["clocks"] == paused["clocks"]
    play(black, white, game_id, [(1, 1)])


def test_rematch_when_both_offer_swaps_colours(game_between, player):
    black, white, game_id = game_between()
    carol = player("carol")
    carol.emit("/room", "join_game", {"game_id": game_id})
    white.emit("/room", "resign", {"game_id": game_id})
    assert black.emit("/room", "rematch", {"game_id": game_id}) == {"ok": True}
    assert white.received("/room", "rematch_offered") == [{"game_id": game_id, "by": "black"}]
    white.emit("/room", "rematch", {"game_id": game_id})
    ready = carol.received("/room", "rematch_ready")
    assert len(ready) == 1
    new_id = ready[0]["game_id"]
    state = white.emit("/room", "join_game", {"game_id": new_id})["state"]
    assert state["you"] == "black"
    assert state["black"]["username"] == white.name


def test_a_player_leaving_a_finished_game_withdraws_the_rematch_offer(game_between):
    black, white, game_id = game_between()
    white.emit("/room", "resign", {"game_id": game_id})
    black.emit("/room", "rematch", {"game_id": game_id})
    black.received("/room")
    white.room.disconnect("/room")
    assert black.received("/room", "players_in_room") == [
        {"game_id": game_id, "colors": ["black"]}]
    state = black.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert (state["rematch_offers"], state["players_in_room"]) == ([], ["black"])


def test_a_player_back_at_a_finished_game_is_told_and_a_rematch_can_start(game_between):
    black, white, game_id = game_between()
    white.emit("/room", "resign", {"game_id": game_id})
    white.room.disconnect("/room")
    white.clients.pop("/room")
    black.received("/room")
    state = white.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert state["players_in_room"] == ["black", "white"]
    assert black.received("/room", "players_in_room") == [
        {"game_id": game_id, "colors": ["black", "white"]}]
    white.emit("/room", "rematch", {"game_id": game_id})
    black.emit("/room", "rematch", {"game_id": game_id})
    assert len(black.received("/room", "rematch_ready")) == 1


def test_the_state_of_a_game_in_play_says_which_players_are_in_the_room(game_between):
    black, white, game_id = game_between()
    assert black.emit("/room", "join_game", {"game_id": game_id})["state"][
        "players_in_room"] == ["black", "white"]
    white.room.disconnect("/room")
    assert black.emit("/room", "join_game", {"game_id": game_id})["state"][
        "players_in_room"] == ["black"]


def test_rematch_before_the_end_is_refused(game_between):
    black, _white, game_id = game_between()
    assert black.emit("/room", "rematch", {"game_id": game_id})["error"] == "conflict"


def test_room_chat_is_tagged_with_role(game_between, player):
    black, white, game_id = game_between()
    carol = player("carol")
    carol.emit("/room", "join_game", {"game_id": game_id})
    assert carol.emit("/room", "chat", {"game_id": game_id, "text": "  good luck  "}) == {
        "ok": True}
    message = carol.received("/room", "chat")[0]
    assert message["from"] == {"id": carol.id, "username": "carol"}
    assert (message["role"], message["text"], message["game_id"]) == (
        "spectator", "good luck", game_id)
    assert message["ts"].endswith("Z")
    white.emit("/room", "chat", {"game_id": game_id, "text": "thanks"})
    assert carol.received("/room", "chat")[-1]["role"] == "white"
    assert black.received("/room", "chat")[-1]["role"] == "white"


def test_room_chat_history_comes_with_the_state(game_between):
    black, white, game_id = game_between()
    black.emit("/room", "chat", {"game_id": game_id, "text": "hi"})
    state = white.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert [m["text"] for m in state["chat"]] == ["hi"]


@pytest.mark.parametrize("text", ["", "   ", "x" * 301, None, 42, ["hi"]])
def test_room_chat_rejects_bad_text(game_between, text):
    black, _white, game_id = game_between()
    assert black.emit("/room", "chat", {"game_id": game_id, "text": text})["error"] == (
        "bad_request")


def test_room_chat_is_rate_limited(game_between):
    black, _white, game_id = game_between()
    acks = [black.emit("/room", "chat", {"game_id": game_id, "text": f"m{i}"}) for i in range(6)]
    assert [a["ok"] for a in acks] == [True] * 5 + [False]
    assert acks[-1]["error"] == "rate_limited"


def test_outsider_who_has_not_joined_cannot_chat(game_between, player):
    _black, _white, game_id = game_between()
    ack = player("carol").emit("/room", "chat", {"game_id": game_id, "text": "hi"})
    assert ack["error"] == "not_in_game"


@pytest.mark.parametrize("event", ["offer_draw", "request_undo", "request_pause", "resume",
                                   "rematch"])
def test_spectators_can_only_watch(game_between, player, event):
    _black, _white, game_id = game_between()
    carol = player("carol")
    carol.emit("/room", "join_game", {"game_id": game_id})
    assert carol.emit("/room", event, {"game_id": game_id})["error"] == "not_in_game"


def test_spectator_count_drops_when_one_leaves(game_between, player):
    black, _white, game_id = game_between()
    carol = player("carol")
    carol.emit("/room", "join_game", {"game_id": game_id})
    carol.room.disconnect("/room")
    assert black.received("/room", "spectators")[-1] == {"game_id": game_id, "count": 0}


def test_spectator_count_drops_when_one_leaves_a_finished_game(game_between, player):
    black, white, game_id = game_between()
    carol = player("carol")
    carol.emit("/room", "join_game", {"game_id": game_id})
    white.emit("/room", "resign", {"game_id": game_id})
    black.received("/room")
    carol.room.disconnect("/room")
    assert black.received("/room", "spectators") == [{"game_id": game_id, "count": 0}]
    assert black.emit("/room", "join_game", {"game_id": game_id})["state"]["spectators"] == 0


def test_a_spectator_arriving_after_the_end_is_counted(game_between, player):
    black, white, game_id = game_between()
    white.emit("/room", "resign", {"game_id": game_id})
    black.received("/room")
    state = player("carol").emit("/room", "join_game", {"game_id": game_id})["state"]
    assert state["spectators"] == 1
    assert black.received("/room", "spectators") == [{"game_id": game_id, "count": 1}]


@pytest.mark.parametrize("app_overrides", [{"NEGOTIATIONS_PER_MINUTE": 2}])
@pytest.mark.parametrize("ask", ["offer_draw", "request_undo", "request_pause"])
def test_asking_the_opponent_again_and_again_is_rate_limited(game_between, app_overrides, ask):
    black, white, game_id = game_between()
    play(black, white, game_id, [(7, 7), (7, 8)])
    codes = [black.emit("/room", ask, {"game_id": game_id}).get("error") for _ in range(3)]
    assert codes[2] == "rate_limited"


@pytest.mark.parametrize("app_overrides", [{"SPECTATOR_JOINS_PER_MINUTE": 3}])
def test_joining_and_leaving_as_a_spectator_is_rate_limited(game_between, player,
                                                            app_overrides):
    _black, _white, game_id = game_between()
    watcher = player("watcher")
    codes = []
    for _ in range(4):
        codes.append(watcher.emit("/room", "join_game", {"game_id": game_id}).get("error"))
        watcher.room.disconnect("/room")
        watcher.clients.pop("/room")
    assert codes == [None, None, None, "rate_limited"]


@pytest.mark.parametrize("app_overrides", [{"UNKNOWN_EVENTS_PER_MINUTE": 3}])
def test_unknown_events_are_rate_limited(player, app_overrides):
    someone = player("someone")
    codes = [someone.emit("/room", "teleport", {}).get("error") for _ in range(4)]
    assert codes == ["bad_request"] * 3 + ["rate_limited"]
