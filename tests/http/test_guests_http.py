"""Guests over HTTP: visitors watch without an account; "Play the computer as a guest" makes
an account limited per address; a guest plays the computer from its own page, is sent to the
register form from every page for registered players, and keeps its games by registering."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select, update

from gobang.extensions import db
from gobang.models import Game, User
from gobang.services.computer.players import computer_user
from gobang.services.registry import services
from tests.support.forms import csrf_token, post_form, register
from tests.support.games import add_user, finish_game, start_game
from tests.support.html import by_testid, text


@pytest.fixture
def engines_closed(app):
    """A game against the computer starts its engines: they end with the test."""
    yield
    with app.app_context():
        services().computer.engines.close()


def page_of(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.get_data(as_text=True)


def become_guest(client, address: str = "10.1.1.1"):
    return client.post("/guest", data={"csrf_token": csrf_token(client, "/login")},
                       environ_base={"REMOTE_ADDR": address})


def guests(app) -> list[User]:
    with app.app_context():
        return list(db.session.scalars(select(User).where(User.guest)))


def user_count(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count(User.id)))


@pytest.fixture
def live_game(app) -> int:
    return start_game(app, add_user(app, "ann"), add_user(app, "ben"), [(7, 7)])


# --- watching ------------------------------------------------------------------------------

def test_a_visitor_opens_a_live_game_to_watch(client, live_game):
    page = page_of(client, f"/game/{live_game}")
    (room,) = by_testid(page, "back-to-hall")
    assert room.attrs["href"] == "/"
    assert re.search(rf'id="room" data-game-id="{live_game}" data-user-id=""', page)
    assert "vendor/socket.io.min.js" in page  # the room connects as a viewer
    assert text(page, "room-chat-closed") == "Log in or register to chat."
    assert "js/site.js" not in page  # nobody to challenge


def test_a_visitor_asking_for_no_such_game_gets_404(client):
    assert client.get("/game/12345").status_code == 404


def test_a_visitor_opens_the_replay_and_records_of_a_finished_game(app, client):
    game_id = finish_game(app, add_user(app, "ann"), add_user(app, "ben"))
    for path in (f"/game/{game_id}/replay", f"/game/{game_id}/record.txt",
                 f"/api/games/{game_id}"):
        assert client.get(path).status_code == 200, path


# --- becoming a guest ----------------------------------------------------------------------

def test_play_as_guest_makes_a_logged_in_guest_and_opens_the_computers_page(app, client):
    response = become_guest(client)
    assert (response.status_code, response.headers["Location"]) == (302, "/computer")
    me = client.get("/api/me").get_json()
    assert me["guest"] is True and re.fullmatch(r"Guest \d{6}", me["username"])
    page = page_of(client, "/computer")
    assert text(page, "guest-intro").startswith(f"You are playing as {me['username']}")
    assert [e.attrs["href"] for e in by_testid(page, "nav-computer")] == ["/computer"]
    assert [e.attrs["href"] for e in by_testid(page, "nav-register")] == ["/register"]
    assert by_testid(page, "nav-hall") == [] and by_testid(page, "nav-profile") == []


def test_play_as_guest_needs_the_forms_token(app, client):
    assert client.post("/guest").status_code == 400
    assert user_count(app) == 0


@pytest.mark.parametrize(("first", "landing"), [("guest", "/computer"), ("player", "/hall")])
def test_a_session_already_logged_in_makes_no_guest(app, client, first, landing):
    become_guest(client) if first == "guest" else register(client, "alice")
    before = user_count(app)
    assert become_guest(client).headers["Location"] == landing
    assert user_count(app) == before


@pytest.mark.parametrize("app_overrides", [{"GUESTS_PER_HOUR_PER_ADDRESS": 2}])
def test_guests_are_limited_per_address(app):
    for _ in range(2):
        assert become_guest(app.test_client()).status_code == 302
    refused = become_guest(app.test_client())
    assert refused.status_code == 429
    assert "Too many guest accounts were made from your address" in refused.get_data(
        as_text=True)
    assert become_guest(app.test_client(), "10.2.2.2").status_code == 302
    assert len(guests(app)) == 3


@pytest.mark.parametrize("app_overrides", [{"GUESTS_PER_HOUR_PER_ADDRESS": 0}])
def test_a_host_without_guest_play_offers_none(app, client):
    assert by_testid(page_of(client, "/"), "front-guest-play") == []
    assert become_guest(client).status_code == 404
    assert guests(app) == []


# --- what a guest may not open -------------------------------------------------------------

@pytest.mark.parametrize(("method", "path", "landing"), [
    ("get", "/hall", "/computer"),
    ("get", "/report", "/register"),
    ("post", "/report", "/register"),
    ("post", "/settings/password", "/register"),
    ("post", "/settings/delete", "/register"),
])
def test_a_guest_is_sent_on_from_the_pages_for_registered_players(app, client, method, path,
                                                                   landing):
    become_guest(client)
    data = {"csrf_token": csrf_token(client, "/computer"), "reason": "cheating",
            "old": "x", "new": "password2", "confirm": "password2", "password": "x"}
    response = getattr(client, method)(path, data=data if method == "post" else None)
    assert (response.status_code, response.headers["Location"]) == (302, landing)
    assert re.search(r'class="flash info">Guests [^<]+<', page_of(client, landing))
    (guest,) = guests(app)
    assert guest.guest and not guest.deleted  # nothing changed


def test_the_hall_sends_a_guest_on_with_the_rooms_new_game_terms(client):
    become_guest(client)
    response = client.get("/hall?computer=3&ruleset=renju&clock=300%2B3&color=black")
    assert response.headers["Location"] == (
        "/computer?computer=3&ruleset=renju&clock=300%2B3&color=black")


def test_moderation_is_forbidden_to_a_guest(client):
    become_guest(client)
    assert client.get("/moderation").status_code == 403


def test_a_guest_has_no_profile_page(app, client):
    become_guest(client)
    (guest,) = guests(app)
    assert client.get(f"/u/{guest.username}").status_code == 404


def test_a_guests_settings_offer_registering_instead_of_a_password(client):
    become_guest(client)
    page = page_of(client, "/settings")
    assert by_testid(page, "settings-guest")
    assert "Change password" not in page and by_testid(page, "preferences-form")


def test_a_guest_is_never_on_the_leaderboard(app, client):
    become_guest(client)
    with app.app_context():
        db.session.execute(update(User).where(User.guest).values(games=50, score=2000))
        db.session.commit()
    (guest,) = guests(app)
    assert guest.username not in page_of(app.test_client(), "/leaderboard")


# --- playing the computer ------------------------------------------------------------------

def start_computer(client, **fields: str):
    form = {"level": "1", "color": "black", "ruleset": "freestyle", "opening": "none",
            "clock": "", **fields}
    return post_form(client, "/computer", form)


def test_a_guest_starts_a_game_against_the_computer(app, client, engines_closed):
    become_guest(client)
    response = start_computer(client, level="4", clock="300,3", ruleset="renju",
                              opening="taraguchi-10")
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert (game.computer_level, game.rated, game.ruleset, game.opening) == (
            4, False, "renju", "taraguchi-10")
        assert game.time_control() == (300, 3) and game.black.guest
    page = page_of(client, f"/game/{game_id}")
    assert by_testid(page, "back-to-hall")[0].attrs["href"] == "/computer"
    assert by_testid(page, "new-opponent-link")[0].attrs["data-hall"] == "/computer"
    assert text(page, "room-chat-closed") == "Register to chat."


@pytest.mark.parametrize(("fields", "message"), [
    ({"level": "10"}, "Level must be a whole number from 1 to 9."),
    ({"level": "x"}, "Level must be a whole number from 1 to 9."),
    ({"color": "red"}, "Colour must be black, white or random."),
    ({"clock": "7,7"}, "Clock must be one of"),
    ({"clock": "soon"}, "Clock must be one of"),
    ({"ruleset": "chess"}, "ruleset"),
    ({"opening": "swap2", "ruleset": "renju"}, "opening"),
])
def test_a_wrong_choice_is_refused_with_a_message_and_starts_nothing(app, client, fields,
                                                                     message):
    become_guest(client)
    response = start_computer(client, **fields)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(func.count(Game.id))) == 0


def test_a_second_game_sends_the_guest_back_to_the_first(client, engines_closed):
    become_guest(client)
    first = start_computer(client).headers["Location"]
    again = start_computer(client)
    assert (again.status_code, again.headers["Location"]) == (302, first)
    page = page_of(client, "/computer")
    assert by_testid(page, "computer-back-to-game")[0].attrs["href"] == first


def test_the_rooms_new_game_terms_are_chosen_on_the_computers_page(client):
    become_guest(client)
    page = page_of(client, "/computer?computer=3&ruleset=renju&clock=300%2B3&color=white"
                           "&opening=taraguchi-10")
    chosen = re.findall(r'<option value="([^"]*)"[^>]* selected>', page)
    assert chosen == ["3", "white", "renju", "taraguchi-10", "300,3"]


def test_a_players_computer_page_starts_games_too(app, client, engines_closed):
    register(client, "alice")
    assert by_testid(page_of(client, "/computer"), "guest-intro") == []
    assert re.fullmatch(r"/game/\d+", start_computer(client).headers["Location"])


# --- registering keeps the games -----------------------------------------------------------

def guests_finished_game(app, guest_id: int) -> int:
    with app.app_context():
        machine = computer_user(2).id
    game_id = finish_game(app, guest_id, machine, "white", "resign", rated=False)
    with app.app_context():
        db.session.execute(update(Game).where(Game.id == game_id).values(computer_level=2))
        db.session.commit()
    return game_id


def test_registering_as_a_guest_keeps_the_guests_games_on_the_new_account(app, client):
    become_guest(client)
    (guest,) = guests(app)
    game_id = guests_finished_game(app, guest.id)
    assert "Guest" in text(page_of(client, "/register"), "register-guest")
    response = register(client, "alice")
    assert response.headers["Location"] == "/hall"
    me = client.get("/api/me").get_json()
    assert (me["id"], me["username"], me["guest"]) == (guest.id, "alice", False)
    profile = page_of(client, "/u/alice")
    assert [e.attrs["data-game-id"] for e in by_testid(profile, "computer-game-row")] == [
        str(game_id)]
    assert user_count(app) == 2  # alice and the computer: no second account


def test_a_guests_finished_game_shows_its_name_without_a_link(app):
    become_guest(app.test_client())
    (guest,) = guests(app)
    game_id = guests_finished_game(app, guest.id)
    visitor = app.test_client()
    replay = page_of(visitor, f"/game/{game_id}/replay")
    (name,) = by_testid(replay, "name-black")
    assert (name.tag, name.text) == ("span", guest.username)
    (front,) = by_testid(page_of(visitor, "/"), "front-game-black")
    assert (front.tag, front.text) == ("span", guest.username)
