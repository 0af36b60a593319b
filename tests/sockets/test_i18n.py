"""Socket acknowledgements speak the language of the page that opened the connection; the
error codes stay English. Each event runs in a request context made from the handshake, so
the `lang` cookie and Accept-Language of that handshake pick the language."""

from __future__ import annotations

from gobang.extensions import socketio


def seated(player, tick, chinese: set[str]):
    """alice and bob matched and joined; those named in `chinese` carry the `lang` cookie
    from before their first connection. Returns (black, white, game_id)."""
    a, b = player("alice"), player("bob")
    for p in (a, b):
        if p.name in chinese:
            p.http.set_cookie("lang", "zh_Hans")
        assert p.emit("/hall", "start_match", {})["ok"]
    tick()
    found = a.received("/hall", "match_found")[-1]
    black, white = (a, b) if found["color"] == "black" else (b, a)
    for p in (black, white):
        assert p.emit("/room", "join_game", {"game_id": found["game_id"]})["ok"]
    return black, white, found["game_id"]


def test_error_message_follows_the_lang_cookie_and_the_code_does_not(player, tick):
    black, white, game_id = seated(player, tick, chinese={"alice", "bob"})
    ack = white.emit("/room", "place_stone", {"game_id": game_id, "row": 7, "col": 7})
    assert ack == {"ok": False, "error": "not_your_turn", "message": "还没轮到你。"}


def test_each_connection_has_its_own_language(player, tick):
    black, white, game_id = seated(player, tick, chinese={"alice"})
    assert black.emit("/room", "place_stone", {"game_id": game_id, "row": 7, "col": 7})["ok"]
    expected = {
        "occupied": {"alice": "该位置已有棋子。", "bob": "That point is already taken."},
        "not_your_turn": {"alice": "还没轮到你。", "bob": "It is not your turn."},
    }
    taken = white.emit("/room", "place_stone", {"game_id": game_id, "row": 7, "col": 7})
    assert (taken["error"], taken["message"]) == ("occupied", expected["occupied"][white.name])
    early = black.emit("/room", "place_stone", {"game_id": game_id, "row": 0, "col": 0})
    assert (early["error"], early["message"]) == (
        "not_your_turn", expected["not_your_turn"][black.name])


def test_accept_language_of_the_handshake_is_used(app, player):
    alice = player("alice")
    hall = socketio.test_client(app, namespace="/hall", flask_test_client=alice.http,
                                headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    alice.clients["/hall"] = hall
    ack = alice.emit("/hall", "challenge", {"username": "alice"})
    assert (ack["error"], ack["message"]) == ("bad_request", "不能挑战自己。")


def test_messages_with_names_are_translated_whole(player):
    alice, bob = player("alice"), player("bob")
    alice.http.set_cookie("lang", "zh_Hans")
    alice.join_hall()
    bob.join_hall()
    assert alice.emit("/hall", "challenge", {"username": "bob"})["ok"]
    ack = alice.emit("/hall", "challenge", {"username": "bob"})
    assert (ack["error"], ack["message"]) == ("conflict", "你已经向 bob 发出过挑战。")
