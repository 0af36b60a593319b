"""The hall view: bounded, ordered, sent as one batched `hall_update` per interval, with
sequence numbers so that a client can always put its copy right."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import update

from gobang.extensions import db
from gobang.models import User
from tests.support.pools import NO_ONE_WAITING


def apply(view: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """What a client does with a `hall_update`, as docs/protocol.md tells it."""
    assert change["seq"] == view["seq"] + 1
    result = {"seq": change["seq"], "counts": change.get("counts", view["counts"])}
    for part in ("players", "games"):
        key = "id" if part == "players" else "game_id"
        entries = {e[key]: e for e in view[part]}
        for gone in change[part]["removed"]:
            entries.pop(gone, None)
        entries.update({e[key]: e for e in change[part]["set"]})
        result[part] = list(entries.values())
    return result


def same_view(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Equal as sets of entries: the order is the documented one, a client sorts."""
    def keyed(view):
        return (view["seq"], view["counts"], sorted(map(repr, view["players"])),
                sorted(map(repr, view["games"])))
    return keyed(a) == keyed(b)


@pytest.fixture
def scored(app, player):
    """A player whose score is set before they come to the hall."""
    def make(name: str, score: int):
        someone = player(name)
        with app.app_context():
            db.session.execute(update(User).where(User.username == name).values(score=score))
            db.session.commit()
        return someone

    return make


def names(entries: list[dict[str, Any]]) -> list[str]:
    return [e["username"] for e in entries]


def test_arrivals_within_one_interval_make_one_update(player, next_update):
    alice = player("alice")
    alice.join_hall()
    next_update()
    alice.received("/hall")
    for name in ("bob", "carol", "dave"):
        player(name).join_hall()
    next_update()
    updates = alice.received("/hall", "hall_update")
    assert len(updates) == 1
    assert sorted(names(updates[0]["players"]["set"])) == ["bob", "carol", "dave"]
    assert updates[0]["counts"]["online"] == 4


def test_a_quiet_hall_is_sent_nothing(player, next_update):
    alice = player("alice")
    alice.join_hall()
    next_update()
    alice.received("/hall")
    for _ in range(3):
        next_update()
    assert alice.events("/hall") == []


def test_nothing_goes_out_before_the_interval_has_passed(player, next_update, tick, clock):
    alice = player("alice")
    alice.join_hall()
    next_update()
    alice.received("/hall")
    player("bob").join_hall()
    clock.advance(0.5)
    tick()
    assert alice.received("/hall", "hall_update") == []
    clock.advance(0.5)
    tick()
    assert len(alice.received("/hall", "hall_update")) == 1


@pytest.mark.parametrize("app_overrides", [{"HALL_LIST_SIZE": 2}])
@pytest.mark.parametrize(("scores", "listed"), [
    ({"alice": 1000, "bob": 1200, "carol": 900}, ["bob", "alice"]),
    ({"alice": 1100, "bob": 1100, "carol": 1100}, ["alice", "bob"]),  # same score: lower id
    ({"alice": 800, "bob": 900, "carol": 1500}, ["carol", "bob"]),
])
def test_the_list_holds_the_highest_scores_up_to_its_size(scored, next_update, app_overrides,
                                                          scores, listed):
    people = [scored(name, score) for name, score in scores.items()]
    for someone in people:
        someone.join_hall()
    next_update()
    view = people[0].emit("/hall", "hall_view")["view"]
    assert names(view["players"]) == listed
    assert view["counts"]["online"] == 3


@pytest.mark.parametrize("app_overrides", [{"HALL_LIST_SIZE": 1}])
def test_a_stronger_arrival_pushes_the_last_listed_out(scored, next_update, app_overrides):
    alice = scored("alice", 1000)
    alice.join_hall()
    next_update()
    alice_id = alice.id
    alice.received("/hall")
    scored("bob", 1300).join_hall()
    next_update()
    (change,) = alice.received("/hall", "hall_update")
    assert names(change["players"]["set"]) == ["bob"]
    assert change["players"]["removed"] == [alice_id]
    assert change["counts"]["online"] == 2


def test_a_listed_players_new_status_and_the_queue_count_go_out(player, next_update):
    alice, bob = player("alice"), player("bob")
    alice.join_hall()
    bob.join_hall()
    next_update()
    bob.received("/hall")
    assert alice.emit("/hall", "start_match", {"ruleset": "renju"})["ok"]
    next_update()
    (change,) = bob.received("/hall", "hall_update")
    assert [(e["username"], e["status"]) for e in change["players"]["set"]] == [
        ("alice", "queued")]
    assert change["counts"]["waiting"] == {**NO_ONE_WAITING, "renju/600+5": 1}


@pytest.mark.parametrize("app_overrides", [{"HALL_GAMES_SIZE": 1}])
def test_the_games_list_holds_the_highest_rated(scored, player, tick, next_update,
                                                app_overrides):
    watcher = player("watcher")
    watcher.join_hall()
    pairs = [("low_a", "low_b", 900), ("high_a", "high_b", 1400)]
    for a_name, b_name, score in pairs:
        for someone in (scored(a_name, score), scored(b_name, score)):
            assert someone.emit("/hall", "start_match", {})["ok"]
        tick()
    next_update()
    view = watcher.emit("/hall", "hall_view")["view"]
    assert [{g["black"]["username"], g["white"]["username"]} for g in view["games"]] == [
        {"high_a", "high_b"}]
    assert view["counts"]["playing"] == 4


def test_a_game_leaves_the_list_when_it_ends(game_between, player, next_update):
    black, _white, game_id = game_between()
    watcher = player("watcher")
    watcher.join_hall()
    next_update()
    assert [g["game_id"] for g in watcher.emit("/hall", "hall_view")["view"]["games"]] == [
        game_id]
    watcher.received("/hall")
    assert black.emit("/room", "resign", {"game_id": game_id})["ok"]
    next_update()
    (change,) = watcher.received("/hall", "hall_update")
    assert change["games"] == {"set": [], "removed": [game_id]}
    assert change["counts"]["playing"] == 0


def test_updates_applied_to_hello_give_the_servers_view(player, next_update):
    alice = player("alice")
    alice.join_hall()
    view = alice.received("/hall", "hello")[0]["view"]
    bob, carol, dave = player("bob"), player("carol"), player("dave")
    # Each step changes the view; the ticker pairs carol and dave as it sends the third.
    for step in (lambda: bob.join_hall(), lambda: carol.emit("/hall", "start_match", {}),
                 lambda: dave.emit("/hall", "start_match", {}),
                 lambda: bob.hall.disconnect("/hall")):
        step()
        next_update()
        for change in alice.received("/hall", "hall_update"):
            view = apply(view, change)
    assert view["seq"] == 4
    assert len(view["games"]) == 1
    assert same_view(view, alice.emit("/hall", "hall_view")["view"])


def test_hall_view_answers_the_whole_current_view(player, next_update):
    alice, bob = player("alice"), player("bob")
    alice.join_hall()
    bob.join_hall()
    next_update()
    answer = alice.emit("/hall", "hall_view", {})
    assert answer["ok"] is True
    assert answer["view"]["seq"] == 1
    assert names(answer["view"]["players"]) == ["alice", "bob"]
    assert answer["view"]["counts"] == {"online": 2, "playing": 0, "waiting": NO_ONE_WAITING}


@pytest.mark.parametrize("app_overrides", [{"HALL_VIEWS_PER_MINUTE": 3}])
def test_asking_for_the_whole_view_too_often_is_rate_limited(player, clock, app_overrides):
    hurried, paced = player("alice"), player("bob")
    codes = [hurried.emit("/hall", "hall_view").get("error") for _ in range(4)]
    paced_codes = []
    for _ in range(4):
        paced_codes.append(paced.emit("/hall", "hall_view").get("error"))
        clock.advance(20)  # three a minute
    assert codes == [None, None, None, "rate_limited"]
    assert paced_codes == [None] * 4
    assert hurried.emit("/hall", "hall_view")["ok"] is True  # the minute has passed


def test_a_page_that_misses_every_update_is_never_refused_the_view(app, player, clock):
    # The page asks for the view once per missed `hall_update`, one at a time.
    alice = player("alice")
    interval = app.config["HALL_UPDATE_SECONDS"]
    codes = set()
    for _ in range(round(3 * 60 / interval)):
        codes.add(alice.emit("/hall", "hall_view").get("error"))
        clock.advance(interval)
    assert codes == {None}


def test_hello_after_a_reconnect_carries_the_current_view(player, next_update):
    alice, bob = player("alice"), player("bob")
    alice.join_hall()
    next_update()
    alice.hall.disconnect("/hall")
    alice.clients.pop("/hall")
    bob.join_hall()
    next_update()
    alice.join_hall()
    hello_view = alice.received("/hall", "hello")[0]["view"]
    assert hello_view["seq"] == 2
    assert same_view(hello_view, bob.emit("/hall", "hall_view")["view"])


@pytest.mark.parametrize("prefix", ["", "   ", "a" * 21, 5, None, ["al"], {"p": "al"}])
def test_find_players_refuses_a_bad_prefix(player, prefix):
    alice = player("alice")
    answer = alice.emit("/hall", "find_players", {"prefix": prefix})
    assert (answer["ok"], answer["error"]) == (False, "bad_request")
    assert answer["message"]


@pytest.mark.parametrize(("prefix", "found"), [
    ("al", ["alfred", "alice"]),
    ("AL", ["alfred", "alice"]),
    ("ａｌｉ", ["alice"]),  # full-width letters, as names are stored (NFKC)
    ("bob", ["bob"]),
    (" bo ", ["bob"]),
    ("zed", []),  # registered, but not in the hall
    ("x", []),
])
def test_find_players_finds_online_players_by_name_prefix(player, prefix, found):
    people = [player(name) for name in ("alice", "alfred", "bob", "zed")]
    for someone in people[:3]:
        someone.join_hall()
    answer = people[0].emit("/hall", "find_players", {"prefix": prefix})
    assert answer["ok"] is True
    assert names(answer["players"]) == found


def test_find_players_tells_each_players_status(player):
    alice, bob = player("alice"), player("bob")
    bob.join_hall()
    assert bob.emit("/hall", "start_match", {})["ok"]
    answer = alice.emit("/hall", "find_players", {"prefix": "b"})
    assert answer["players"] == [{"id": bob.id, "username": "bob", "score": 1000,
                                  "status": "queued", "game_id": None}]


def test_a_listed_player_in_a_game_carries_the_game_to_watch(game_between, player,
                                                              next_update):
    black, _white, game_id = game_between()
    next_update()
    view = player("watcher").emit("/hall", "hall_view")["view"]
    assert {(e["username"], e["status"], e["game_id"]) for e in view["players"]} >= {
        (black.name, "playing", game_id)}


@pytest.mark.parametrize("app_overrides", [{"AUTH_ATTEMPTS_PER_MINUTE": 100}])
def test_find_players_answers_at_most_twenty(player, app_overrides):
    people = [player(f"pl{n:02d}") for n in range(22)]
    for someone in people:
        someone.join_hall()
    found = people[0].emit("/hall", "find_players", {"prefix": "pl"})["players"]
    assert names(found) == [f"pl{n:02d}" for n in range(20)]


@pytest.mark.parametrize("app_overrides", [{"HALL_LIST_SIZE": 1}])
def test_a_player_outside_the_list_is_found_and_challenged(scored, app_overrides):
    alice, bob = scored("alice", 1500), scored("bob", 900)
    for someone in (alice, bob):
        someone.join_hall()
    (found,) = alice.emit("/hall", "find_players", {"prefix": "bo"})["players"]
    assert alice.emit("/hall", "challenge", {"username": found["username"]})["ok"]
    assert len(bob.received("/hall", "challenge_received")) == 1


def test_my_own_status_is_told_to_me_at_once(player):
    alice = player("alice")
    alice.join_hall()
    alice.received("/hall")
    assert alice.emit("/hall", "start_match", {})["ok"]
    assert alice.emit("/hall", "cancel_match", {})["ok"]
    assert [me["status"] for me in alice.received("/hall", "me")] == ["queued", "idle"]


def test_both_players_get_their_new_figures_when_a_game_ends(game_between):
    black, white, game_id = game_between()
    for someone in (black, white):
        someone.received("/hall")
    assert black.emit("/room", "resign", {"game_id": game_id})["ok"]
    (black_me,) = black.received("/hall", "me")
    (white_me,) = white.received("/hall", "me")
    assert (black_me["me"]["games"], black_me["me"]["losses"], black_me["status"]) == (1, 1, "idle")
    assert (white_me["me"]["games"], white_me["me"]["wins"]) == (1, 1)
    assert white_me["me"]["score"] > 1000
