"""Visitors and guests over the sockets: a visitor without an account watches a game from
/room as a viewer, counted with its spectators, and every other event is refused; a guest
account is kept out of the hall and /site, cannot chat, and reaches no player's actions."""

from __future__ import annotations

import pytest

from gobang.extensions import socketio
from tests.sockets.conftest import Player, disconnect_all
from tests.support.forms import csrf_token, register

VISITORS_ONLY_WATCH = "Visitors can only watch. Log in, or play the computer as a guest."


class Viewer:
    """A /room connection without an account."""

    def __init__(self, app) -> None:
        self.client = socketio.test_client(app, namespace="/room",
                                           flask_test_client=app.test_client())

    def emit(self, event: str, data=None) -> dict:
        args = () if data is None else (data,)
        return self.client.emit(event, *args, namespace="/room", callback=True)

    def received(self, name: str | None = None) -> list[dict]:
        return [p["args"][0] for p in self.client.get_received("/room")
                if name is None or p["name"] == name]


@pytest.fixture
def viewer(app):
    made: list[Viewer] = []

    def make() -> Viewer:
        made.append(Viewer(app))
        return made[-1]

    yield make
    for each in made:
        if each.client.is_connected("/room"):
            each.client.disconnect("/room")


@pytest.fixture
def guest(app):
    """A guest account's player (made through the front page's button)."""
    made: list[Player] = []

    def make() -> Player:
        http = app.test_client()
        response = http.post("/guest", data={"csrf_token": csrf_token(http, "/login")})
        assert response.headers["Location"] == "/computer"
        made.append(Player(http.get("/api/me").get_json()["username"], http, app))
        return made[-1]

    yield make
    disconnect_all(made)


def state_of(player: Player, game_id: int) -> dict:
    state = player.emit("/room", "join_game", {"game_id": game_id})["state"]
    player.received("/room")
    return {key: state[key] for key in ("moves", "status", "to_move", "draw_offer",
                                         "undo_request", "pause_request", "paused", "chat")}


# Every room event but those that only read, with a payload that a player could send.
def acting_events(game_id: int) -> list[tuple[str, dict]]:
    return [
        ("place_stone", {"game_id": game_id, "row": 7, "col": 8}),
        ("resign", {"game_id": game_id}),
        ("offer_draw", {"game_id": game_id}),
        ("answer_draw", {"game_id": game_id, "accept": True}),
        ("request_undo", {"game_id": game_id}),
        ("answer_undo", {"game_id": game_id, "accept": True}),
        ("request_pause", {"game_id": game_id}),
        ("answer_pause", {"game_id": game_id, "accept": True}),
        ("resume", {"game_id": game_id}),
        ("rematch", {"game_id": game_id}),
        ("chat", {"game_id": game_id, "text": "hello"}),
        ("opening_choose", {"game_id": game_id, "option": "black"}),
        ("opening_offer", {"game_id": game_id, "points": [[0, 0]]}),
        ("opening_pick", {"game_id": game_id, "row": 0, "col": 0}),
    ]


ACTING_EVENTS = [event for event, _ in acting_events(0)]


# --- visitors ------------------------------------------------------------------------------

def test_a_visitor_connects_to_the_room_as_a_viewer(viewer):
    assert viewer().client.is_connected("/room")


def test_a_viewer_joins_a_live_game_and_is_counted_with_its_spectators(game_between, viewer):
    black, white, game_id = game_between()
    answer = viewer().emit("join_game", {"game_id": game_id})
    assert answer["ok"] is True
    state = answer["state"]
    assert (state["you"], state["status"], state["game_id"]) == ("spectator", "playing", game_id)
    assert black.received("/room", "spectators") == [{"game_id": game_id, "count": 1}]
    assert white.emit("/room", "join_game", {"game_id": game_id})["state"]["spectators"] == 1


def test_a_viewer_hears_the_games_moves(game_between, viewer):
    black, white, game_id = game_between()
    watcher = viewer()
    watcher.emit("join_game", {"game_id": game_id})
    assert black.emit("/room", "place_stone", {"game_id": game_id, "row": 7, "col": 7})["ok"]
    placed = watcher.received("stone_placed")
    assert [(p["row"], p["col"], p["color"]) for p in placed] == [(7, 7, "black")]


def test_a_viewer_leaving_is_no_longer_counted(game_between, viewer):
    black, white, game_id = game_between()
    watcher = viewer()
    watcher.emit("join_game", {"game_id": game_id})
    black.received("/room")
    watcher.client.disconnect("/room")
    assert black.received("/room", "spectators") == [{"game_id": game_id, "count": 0}]


def test_a_viewer_watches_a_finished_game(game_between, viewer):
    black, white, game_id = game_between()
    black.emit("/room", "resign", {"game_id": game_id})
    state = viewer().emit("join_game", {"game_id": game_id})["state"]
    assert (state["you"], state["status"], state["result"]["reason"]) == (
        "spectator", "finished", "resign")


def test_a_viewer_may_ask_for_renjus_forbidden_points(game_between, viewer):
    _black, _white, game_id = game_between(ruleset="renju")
    watcher = viewer()
    watcher.emit("join_game", {"game_id": game_id})
    assert watcher.emit("forbidden_points", {"game_id": game_id}) == {
        "ok": True, "move": 0, "points": []}


@pytest.mark.parametrize("event", ACTING_EVENTS)
def test_a_viewer_is_refused_every_action_and_nothing_changes(game_between, viewer, event):
    black, white, game_id = game_between()
    black.emit("/room", "place_stone", {"game_id": game_id, "row": 7, "col": 7})
    watcher = viewer()
    watcher.emit("join_game", {"game_id": game_id})
    white.received("/room")
    before = state_of(black, game_id)
    payload = dict(acting_events(game_id))[event]
    assert watcher.emit(event, payload) == {
        "ok": False, "error": "unauthorized", "message": VISITORS_ONLY_WATCH}
    assert black.received("/room") == [] and white.received("/room") == []
    assert state_of(black, game_id) == before


@pytest.mark.parametrize("app_overrides", [{"SPECTATOR_JOINS_PER_MINUTE": 2}])
def test_viewers_joining_are_paced_per_address(game_between, viewer, clock):
    _black, _white, game_id = game_between()
    assert [viewer().emit("join_game", {"game_id": game_id})["ok"] for _ in range(2)] == [
        True, True]
    third = viewer().emit("join_game", {"game_id": game_id})
    assert third["error"] == "rate_limited"
    clock.advance(60)
    assert viewer().emit("join_game", {"game_id": game_id})["ok"] is True


def test_a_viewer_cannot_fake_a_connect(viewer):
    assert viewer().emit("connect", {})["error"] == "bad_request"


@pytest.mark.parametrize("namespace", ["/hall", "/site"])
def test_a_visitor_is_still_refused_at_the_hall_and_site(app, namespace):
    client = socketio.test_client(app, namespace=namespace, flask_test_client=app.test_client())
    assert not client.is_connected(namespace)


# --- guests --------------------------------------------------------------------------------

@pytest.mark.parametrize("namespace", ["/hall", "/site"])
def test_a_guest_is_refused_at_the_hall_and_site(guest, namespace):
    assert not guest().connect(namespace).is_connected(namespace)


def test_a_guest_watches_another_game_as_a_spectator(game_between, guest):
    black, _white, game_id = game_between()
    state = guest().emit("/room", "join_game", {"game_id": game_id})["state"]
    assert state["you"] == "spectator"
    assert black.received("/room", "spectators") == [{"game_id": game_id, "count": 1}]


# A guest is a spectator of another's game: its players' actions are not theirs, and chat is
# refused to guests anywhere.
GUEST_REFUSALS = {event: "not_in_game" for event in ACTING_EVENTS} | {"chat": "registered_only"}


@pytest.mark.parametrize("event", ACTING_EVENTS)
def test_a_guest_reaches_no_players_action_in_another_game(game_between, guest, event):
    black, white, game_id = game_between()
    black.emit("/room", "place_stone", {"game_id": game_id, "row": 7, "col": 7})
    visitor = guest()
    visitor.emit("/room", "join_game", {"game_id": game_id})
    white.received("/room")
    before = state_of(black, game_id)
    answer = visitor.emit("/room", event, dict(acting_events(game_id))[event])
    assert (answer["ok"], answer["error"]) == (False, GUEST_REFUSALS[event])
    assert answer["message"]
    assert black.received("/room") == [] and white.received("/room") == []
    assert state_of(black, game_id) == before


def test_a_guests_chat_is_refused_with_a_reason(game_between, guest):
    _black, _white, game_id = game_between()
    visitor = guest()
    visitor.emit("/room", "join_game", {"game_id": game_id})
    assert visitor.emit("/room", "chat", {"game_id": game_id, "text": "hi"}) == {
        "ok": False, "error": "registered_only",
        "message": "Guests cannot chat. Register to chat with other players."}


def test_a_guest_who_registers_may_chat_at_once(game_between, guest):
    black, _white, game_id = game_between()
    visitor = guest()
    visitor.emit("/room", "join_game", {"game_id": game_id})
    assert register(visitor.http, "cleo_cl").headers["Location"] == "/hall"
    assert visitor.emit("/room", "chat", {"game_id": game_id, "text": "hi"}) == {"ok": True}
    # A spectator's line: in the spectators' chat, which the players do not hear mid-game.
    said = [(m["from"]["username"], m["channel"]) for m in visitor.received("/room", "chat")]
    assert said == [("cleo_cl", "spectators")]


def test_a_guest_cannot_be_challenged(player, guest):
    visitor = guest()
    alice = player("alice")
    alice.join_hall()
    answer = alice.emit("/hall", "challenge", {"username": visitor.name})
    assert (answer["ok"], answer["error"]) == (False, "registered_only")
    assert answer["message"] == f"{visitor.name} is a guest: guests play only the computer."
