"""Following and blocking over the wire (docs/protocol.md, "Following and blocking"): a
blocked player tries every event that could reach the blocker, is answered as anyone would
be, reaches nothing and changes nothing; the blocker is refused `blocked`; the hall tells
followers who of those they follow is online."""

from __future__ import annotations

import pytest

from tests.support.forms import post_form


def block(blocker, blocked) -> None:
    response = post_form(blocker.http, f"/u/{blocked.name}/block", {}, page=f"/u/{blocked.name}")
    assert response.status_code == 302


def follow(follower, followed) -> None:
    response = post_form(follower.http, f"/u/{followed.name}/follow", {},
                         page=f"/u/{followed.name}")
    assert response.status_code == 302


@pytest.fixture
def blocker_and_blocked(player):
    """alice blocks bob; both in the hall, alice also with another page open (/site)."""
    alice, bob = player("alice"), player("bob")
    block(alice, bob)
    for each in (alice, bob):
        each.join_hall()
        each.received("/hall")
    alice.connect("/site")
    return alice, bob


def nothing_reached(player) -> bool:
    return player.events("/hall") == [] and player.events("/site") == []


# ---------- what a blocked player tries ----------

def test_a_blocked_player_s_challenge_is_answered_as_any_and_reaches_no_page(
        blocker_and_blocked):
    alice, bob = blocker_and_blocked
    ack = bob.emit("/hall", "challenge", {"username": "alice", "ruleset": "renju"})
    assert ack["ok"] is True and ack["challenge_id"]
    assert nothing_reached(alice)


def test_the_blocker_cannot_accept_the_hidden_challenge_by_its_id(blocker_and_blocked):
    alice, bob = blocker_and_blocked
    challenge_id = bob.emit("/hall", "challenge", {"username": "alice"})["challenge_id"]
    ack = alice.emit("/hall", "answer_challenge", {"challenge_id": challenge_id, "accept": True})
    assert (ack["ok"], ack["error"]) == (False, "not_found")
    assert bob.received("/hall", "match_found") == []


def test_the_hidden_challenge_ends_for_its_sender_as_an_unanswered_one_does(
        blocker_and_blocked, player):
    alice, bob = blocker_and_blocked
    carol = player("carol")
    carol.join_hall()
    first = bob.emit("/hall", "challenge", {"username": "alice"})["challenge_id"]
    bob.emit("/hall", "challenge", {"username": "carol"})  # challenging another ends it
    assert bob.received("/hall", "challenge_cancelled") == [{"challenge_id": first}]
    assert nothing_reached(alice)


def test_a_blocked_player_s_hall_chat_reaches_everyone_but_the_blocker(blocker_and_blocked,
                                                                      player):
    alice, bob = blocker_and_blocked
    carol = player("carol")
    carol.join_hall()
    carol.received("/hall")
    assert bob.emit("/hall", "chat", {"text": "hello"}) == {"ok": True}
    assert [m["text"] for m in carol.received("/hall", "chat")] == ["hello"]
    assert [m["text"] for m in bob.received("/hall", "chat")] == ["hello"]  # as ever
    assert alice.received("/hall", "chat") == []


def test_the_blocker_s_hall_chat_still_reaches_the_blocked_player(blocker_and_blocked):
    alice, bob = blocker_and_blocked
    assert alice.emit("/hall", "chat", {"text": "hi"}) == {"ok": True}
    assert [m["text"] for m in bob.received("/hall", "chat")] == ["hi"]


def test_the_blocker_s_hello_leaves_out_the_blocked_player_s_lines(blocker_and_blocked):
    alice, bob = blocker_and_blocked
    assert bob.emit("/hall", "chat", {"text": "hello"}) == {"ok": True}
    alice.hall.disconnect("/hall")
    alice.connect("/hall")
    [hello] = alice.received("/hall", "hello")
    assert hello["chat"] == []


def test_the_blocker_s_challenge_is_refused_blocked_and_reaches_nobody(blocker_and_blocked):
    alice, bob = blocker_and_blocked
    ack = alice.emit("/hall", "challenge", {"username": "bob"})
    assert ack == {"ok": False, "error": "blocked",
                   "message": "You have blocked bob: unblock them to challenge them."}
    assert bob.events("/hall") == []


@pytest.mark.parametrize("blocker", [0, 1], ids=["alice-blocks-bob", "bob-blocks-alice"])
def test_the_pools_never_pair_a_blocked_pair(player, tick, clock, blocker):
    people = [player("alice"), player("bob")]
    block(people[blocker], people[1 - blocker])
    for each in people:
        each.join_hall()
        assert each.emit("/hall", "start_match", {"ruleset": "freestyle"})["ok"]
    for _second in range(40):
        clock.advance(1)
        tick()
    assert [each.received("/hall", "match_found") for each in people] == [[], []]
    carol = player("carol")
    carol.join_hall()
    carol.emit("/hall", "start_match", {"ruleset": "freestyle"})
    tick()
    assert len(carol.received("/hall", "match_found")) == 1


# ---------- in a game's room ----------

def test_a_blocked_player_s_room_chat_reaches_everyone_but_the_blocker(game_between, player):
    black, white, game_id = game_between()
    block(white, black)
    watcher = player("watcher")
    assert watcher.emit("/room", "join_game", {"game_id": game_id})["ok"]
    for each in (black, white, watcher):
        each.received("/room")
    assert black.emit("/room", "chat", {"game_id": game_id, "text": "gl"}) == {"ok": True}
    [line] = watcher.numbered("/room", "chat")
    assert line["text"] == "gl" and "v" not in line
    assert white.received("/room", "chat") == []
    assert [m["text"] for m in black.received("/room", "chat")] == ["gl"]


def test_a_blocker_watching_a_game_is_not_sent_the_blocked_player_s_lines(game_between,
                                                                          player):
    black, white, game_id = game_between()
    fan = player("fan")
    block(fan, white)
    assert fan.emit("/room", "join_game", {"game_id": game_id})["ok"]
    fan.received("/room")
    white.emit("/room", "chat", {"game_id": game_id, "text": "from white"})
    black.emit("/room", "chat", {"game_id": game_id, "text": "from black"})
    assert [m["text"] for m in fan.received("/room", "chat")] == ["from black"]
    state = fan.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert [m["text"] for m in state["chat"]] == ["from black"]


def test_a_blocked_player_s_rematch_offer_is_answered_and_reaches_nobody(game_between):
    black, white, game_id = game_between()
    block(white, black)
    assert white.emit("/room", "resign", {"game_id": game_id})["ok"]
    for each in (black, white):
        each.received("/room")
    assert black.emit("/room", "rematch", {"game_id": game_id}) == {"ok": True}
    assert white.received("/room", "rematch_offered") == []
    ack = white.emit("/room", "rematch", {"game_id": game_id})
    assert (ack["ok"], ack["error"]) == (False, "blocked")
    assert black.received("/room") == []


# ---------- following ----------

def test_the_hall_greets_with_the_online_players_one_follows_after_hello(player):
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    follow(alice, bob)
    follow(alice, carol)
    bob.join_hall()
    alice.join_hall()
    names = [name for name, _payload in alice.events("/hall")]
    assert names.index("following") == names.index("hello") + 1


def test_the_following_list_names_the_followed_online_players(player):
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    follow(alice, bob)
    follow(alice, carol)
    bob.join_hall()
    alice.join_hall()
    [following] = alice.received("/hall", "following")
    assert [(p["username"], p["status"]) for p in following["players"]] == [("bob", "idle")]


def test_a_followed_player_arriving_is_told_with_the_next_update(player, next_update):
    alice, bob = player("alice"), player("bob")
    follow(alice, bob)
    alice.join_hall()
    next_update()
    alice.received("/hall")
    bob.join_hall()
    next_update()
    [update] = alice.received("/hall", "following_update")
    assert ([p["username"] for p in update["set"]], update["removed"]) == (["bob"], [])


def test_following_from_another_page_sends_the_hall_page_its_list_again(player):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    alice.join_hall()
    alice.received("/hall")
    follow(alice, bob)
    [following] = alice.received("/hall", "following")
    assert [p["username"] for p in following["players"]] == ["bob"]


def test_blocking_cancels_the_open_challenge_between_the_two(player):
    alice, bob = player("alice"), player("bob")
    for each in (alice, bob):
        each.join_hall()
    challenge_id = bob.emit("/hall", "challenge", {"username": "alice"})["challenge_id"]
    block(alice, bob)
    for each in (alice, bob):
        assert each.received("/hall", "challenge_cancelled") == [{"challenge_id": challenge_id}]
