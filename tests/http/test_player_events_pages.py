"""Players' events over HTTP where the host allows them: creating one from /tournaments/new,
who is named as its creator, cancelling it from its page, and its chat
(`POST /api/tournaments/<id>/chat`, the `chat` part of `GET /api/tournaments/<id>`)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from gobang.extensions import db
from gobang.models import ModerationEntry, Tournament, utcnow
from tests.http.test_tournament_pages import NEW_ARENA, flashes, make_arena, moderator
from tests.support.forms import csrf_token, post_form, register
from tests.support.games import set_columns, user_id
from tests.support.html import by_testid, text

PLAYERS_ARENA = {**NEW_ARENA, "name": "Alice's arena", "starts_in": "30", "minutes": "60"}


@pytest.fixture
def app_overrides():
    return {"PLAYER_TOURNAMENTS": True, "TOURNAMENTS_PER_DAY": 3}


def create(client, **changes):
    return post_form(client, "/tournaments/new", {**PLAYERS_ARENA, **changes})


def created(app) -> list[tuple[str, str, bool]]:
    with app.app_context():
        return [(t.name, t.created_by, t.by_player)
                for t in db.session.scalars(db.select(Tournament).order_by(Tournament.id))]


def page_token(client, tournament_id: int) -> str:
    """The token the event's page gives its chat script (data-csrf-token)."""
    page = client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    return re.search(r'data-csrf-token="([^"]+)"', page).group(1)


def say(client, tournament_id: int, body: object, token: str | None = None):
    headers = {"X-CSRFToken": token or page_token(client, tournament_id)}
    return client.post(f"/api/tournaments/{tournament_id}/chat", json=body, headers=headers)


def chat(client, tournament_id: int, after: str | None = None):
    query = "" if after is None else f"?chat_after={after}"
    return client.get(f"/api/tournaments/{tournament_id}{query}")


# Creating


def test_a_player_finds_the_link_and_creates_an_event_named_theirs(app, client):
    register(client, "alice")
    index = client.get("/tournaments").get_data(as_text=True)
    assert [link.attrs["href"] for link in by_testid(index, "create-tournament-link")] == [
        "/tournaments/new"]
    response = create(client)
    assert response.status_code == 302
    address = response.headers["Location"]
    assert text(client.get(address).get_data(as_text=True), "tournament-creator") == "alice"
    assert client.get(address.replace("/tournaments/", "/api/tournaments/")).get_json()[
        "created_by"] == "alice"
    assert text(client.get("/tournaments").get_data(as_text=True),
                "tournament-item-creator") == "· by alice"
    assert created(app) == [("Alice's arena", "alice", True)]


def test_the_form_states_a_player_s_limits(client):
    register(client, "alice")
    page = client.get("/tournaments/new").get_data(as_text=True)
    assert text(page, "player-limits") == (
        "Your tournament starts 1 minute to 7 days from now; an arena lasts 10 to 180 minutes. "
        "You may have one to come at a time, and create 3 in 24 hours.")


@pytest.mark.parametrize("changes, message", [
    ({"starts_in": "0"}, "Your tournament starts 1 minute to 7 days from now."),
    ({"starts_in": "nan"}, "Your tournament starts 1 minute to 7 days from now."),
    ({"minutes": "240"}, "Your arena lasts 10 to 180 minutes."),
    ({"clock": "fast"}, "A clock is written as seconds+increment, such as 180+2, or none."),
])
def test_a_player_s_bad_event_is_refused_with_its_message(app, client, changes, message):
    register(client, "alice")
    response = create(client, **changes)
    assert response.status_code == 400
    assert flashes(response.get_data(as_text=True)) == [message]
    assert created(app) == []


def test_a_second_upcoming_event_is_refused_on_the_page(app, client):
    register(client, "alice")
    create(client)
    response = create(client, name="Another")
    assert response.status_code == 400
    assert flashes(response.get_data(as_text=True)) == [
        "You already have a tournament to come: one at a time, until it starts."]
    assert created(app) == [("Alice's arena", "alice", True)]


def test_a_muted_player_is_refused_on_the_page(app, client):
    register(client, "alice")
    set_columns(app, "alice", muted_until=utcnow() + timedelta(hours=1))
    response = create(client)
    assert response.status_code == 400
    assert flashes(response.get_data(as_text=True))[0].startswith("A moderator has muted you")
    assert created(app) == []


def test_a_moderator_is_not_held_to_the_players_limits(app, client):
    moderator(app, client)
    assert not by_testid(client.get("/tournaments/new").get_data(as_text=True), "player-limits")
    for name in ("One", "Two"):
        assert create(client, name=name, starts_in="0", minutes="600").status_code == 302
    assert created(app) == [("One", "mona", False), ("Two", "mona", False)]


@pytest.mark.parametrize("app_overrides", [{"PLAYER_TOURNAMENTS": False}])
def test_where_the_host_does_not_allow_it_a_player_gets_no_form(app, client):
    register(client, "alice")
    assert not by_testid(client.get("/tournaments").get_data(as_text=True),
                         "create-tournament-link")
    assert client.get("/tournaments/new").status_code == 403


def test_a_guest_is_sent_to_register(client):
    client.post("/guest", data={"csrf_token": csrf_token(client, "/login")},
                environ_base={"REMOTE_ADDR": "10.1.1.1"})
    response = client.get("/tournaments/new")
    assert response.status_code == 302 and "/register" in response.headers["Location"]


def test_the_host_s_events_are_by_the_host(app, client):
    tournament_id = make_arena(app)
    page = client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert text(page, "tournament-creator") == "host"


# Cancelling


def alice_s_event(app, client) -> int:
    register(client, "alice")
    return int(create(client).headers["Location"].rsplit("/", 1)[1])


def cancel(client, tournament_id: int, **fields):
    return post_form(client, f"/tournaments/{tournament_id}/cancel", fields,
                     page=f"/tournaments/{tournament_id}", follow_redirects=True)


def status_of(app, tournament_id: int) -> str:
    with app.app_context():
        return db.session.get(Tournament, tournament_id).status


def test_the_creator_cancels_from_the_page(app, client):
    tournament_id = alice_s_event(app, client)
    page = client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert by_testid(page, "tournament-cancel") and not by_testid(page,
                                                                  "tournament-cancel-reason")
    done = cancel(client, tournament_id).get_data(as_text=True)
    assert flashes(done) == ["The tournament is cancelled."]
    assert status_of(app, tournament_id) == "cancelled"


def test_another_player_has_no_button_and_is_refused(app, client):
    tournament_id = alice_s_event(app, client)
    other = app.test_client()
    register(other, "bob")
    assert not by_testid(other.get(f"/tournaments/{tournament_id}").get_data(as_text=True),
                         "tournament-cancel")
    done = cancel(other, tournament_id).get_data(as_text=True)
    assert flashes(done) == ["Only its creator or a moderator can cancel a tournament."]
    assert status_of(app, tournament_id) == "scheduled"


def test_a_moderator_cancels_with_a_reason_and_the_log_shows_it(app, client):
    tournament_id = alice_s_event(app, client)
    mona = moderator(app, app.test_client())
    page = mona.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert by_testid(page, "tournament-cancel-reason")
    done = cancel(mona, tournament_id, reason="spam").get_data(as_text=True)
    assert flashes(done) == ["The tournament is cancelled."]
    log = mona.get("/moderation/log").get_data(as_text=True)
    [entry] = by_testid(log, "log-entry")
    assert "cancel_tournament" in entry.text and f"tournament {tournament_id}" in entry.text
    with app.app_context():
        assert db.session.scalars(db.select(ModerationEntry.target_id)).one() == user_id(
            app, "alice")


def test_cancelling_an_unknown_event_is_not_found(client):
    register(client, "alice")
    response = post_form(client, "/tournaments/999/cancel", {}, page="/tournaments/new")
    assert response.status_code == 404


# The event's chat


def test_a_line_is_read_by_a_visitor_on_the_next_poll(app, client):
    tournament_id = alice_s_event(app, client)
    response = say(client, tournament_id, {"text": "<b>hello</b>"})
    assert response.status_code == 201
    line = response.get_json()["line"]
    assert (line["from"]["username"], line["text"]) == ("alice", "<b>hello</b>")
    visitor = app.test_client()
    assert chat(visitor, tournament_id).get_json()["chat"] == {
        "lines": [line], "last_id": line["id"], "open": True}


def test_after_the_cursor_only_new_lines_come(app, client):
    tournament_id = alice_s_event(app, client)
    first = say(client, tournament_id, {"text": "one"}).get_json()["line"]
    say(client, tournament_id, {"text": "two"})
    lines = chat(client, tournament_id, str(first["id"])).get_json()["chat"]["lines"]
    assert [line["text"] for line in lines] == ["two"]


@pytest.mark.parametrize("after", ["-1", "x", "1.5", "1" * 19, "²"])
def test_a_bad_cursor_is_a_bad_request(app, client, after):
    tournament_id = alice_s_event(app, client)
    response = chat(client, tournament_id, after)
    assert (response.status_code, response.get_json()) == (400, {
        "error": "bad_request", "message": "chat_after is the id of a chat line: a whole number."})


@pytest.mark.parametrize("body, status, code", [
    ({"text": ""}, 400, "bad_request"),
    ({"text": "x" * 301}, 400, "bad_request"),
    ({}, 400, "bad_request"),
    ("hello", 400, "bad_request"),
])
def test_a_bad_line_is_refused_with_its_code(app, client, body, status, code):
    tournament_id = alice_s_event(app, client)
    response = say(client, tournament_id, body)
    assert (response.status_code, response.get_json()["error"]) == (status, code)
    assert chat(client, tournament_id).get_json()["chat"]["lines"] == []


def test_a_visitor_may_not_write(app, client):
    tournament_id = alice_s_event(app, client)
    visitor = app.test_client()
    response = say(visitor, tournament_id, {"text": "hi"})
    assert (response.status_code, response.get_json()["error"]) == (401, "unauthorized")
    page = visitor.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert text(page, "event-chat-closed") == "Log in to chat."


def test_a_guest_may_not_write(app, client):
    tournament_id = alice_s_event(app, client)
    guest = app.test_client()
    guest.post("/guest", data={"csrf_token": csrf_token(guest, "/login")},
               environ_base={"REMOTE_ADDR": "10.1.1.2"})
    response = say(guest, tournament_id, {"text": "hi"})
    assert (response.status_code, response.get_json()["error"]) == (403, "registered_only")


def test_a_muted_player_is_told_until_when(app, client):
    tournament_id = alice_s_event(app, client)
    until = utcnow().replace(microsecond=0) + timedelta(hours=1)
    set_columns(app, "alice", muted_until=until)
    response = say(client, tournament_id, {"text": "hi"})
    assert response.status_code == 403
    assert {key: response.get_json()[key] for key in ("error", "until")} == {
        "error": "muted", "until": until.isoformat() + "Z"}


def test_without_the_token_nothing_is_said(app, client):
    tournament_id = alice_s_event(app, client)
    response = client.post(f"/api/tournaments/{tournament_id}/chat", json={"text": "hi"})
    assert response.status_code == 400
    assert chat(client, tournament_id).get_json()["chat"]["lines"] == []


def test_an_unknown_event_s_chat_is_not_found(client):
    register(client, "alice")
    response = say(client, 999, {"text": "hi"}, token=csrf_token(client, "/tournaments/new"))
    assert (response.status_code, response.get_json()["error"]) == (404, "not_found")


def test_a_blocker_s_poll_leaves_out_the_blocked_player_s_lines(app, client):
    tournament_id = alice_s_event(app, client)
    say(client, tournament_id, {"text": "from alice"})
    bob = app.test_client()
    register(bob, "bob")
    post_form(bob, "/u/alice/block", {}, page="/u/alice")
    assert chat(bob, tournament_id).get_json()["chat"]["lines"] == []
    assert len(chat(app.test_client(), tournament_id).get_json()["chat"]["lines"]) == 1


def test_a_cancelled_event_s_chat_is_closed_and_still_read(app, client):
    tournament_id = alice_s_event(app, client)
    say(client, tournament_id, {"text": "see you"})
    cancel(client, tournament_id)
    response = say(client, tournament_id, {"text": "too late"})
    assert (response.status_code, response.get_json()["error"]) == (409, "conflict")
    data = chat(client, tournament_id).get_json()["chat"]
    assert ([line["text"] for line in data["lines"]], data["open"]) == (["see you"], False)
    page = client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert text(page, "event-chat-closed") == "This tournament's chat is closed."
