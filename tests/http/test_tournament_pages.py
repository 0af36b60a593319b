"""The tournament pages and GET /api/tournaments/<id> over HTTP: what visitors, guests and
players see and may do, and the refusals' messages."""

from __future__ import annotations

import re

import pytest

from gobang.extensions import db
from gobang.models import Tournament
from gobang.services.arenas.schedule import Plan
from gobang.services.registry import services
from tests.support.forms import csrf_token, post_form, register
from tests.support.games import add_user, set_columns
from tests.support.html import by_testid, text


def make_arena(app, status: str = "scheduled", name: str = "Weekly arena") -> int:
    with app.app_context():
        made = services().arenas.schedule.create(
            Plan(name, "freestyle", (180, 2), 60, 10, 2), "host")
        made.status = status
        db.session.commit()
        return made.id


def flashes(page: str) -> list[str]:
    return re.findall(r'<li class="flash \w+">(.*?)</li>', page)


def join(client, tournament_id: int, action: str = "join"):
    return post_form(client, f"/tournaments/{tournament_id}/{action}", {},
                     page=f"/tournaments/{tournament_id}", follow_redirects=True)


@pytest.mark.parametrize("status, testid", [("scheduled", "upcoming-tournaments"),
                                            ("running", "running-tournaments"),
                                            ("finished", "recent-tournaments"),
                                            ("cancelled", "recent-tournaments")])
def test_the_list_shows_each_tournament_under_its_heading(app, client, status, testid):
    make_arena(app, status)
    page = client.get("/tournaments").get_data(as_text=True)
    [listed] = by_testid(page, testid)
    assert "Weekly arena" in page and listed is not None


def test_a_visitor_sees_the_rules_and_is_asked_to_log_in(app, client):
    tournament_id = make_arena(app)
    page = client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert text(page, "tournament-rules").startswith("freestyle · 3+2 · Rated · 60 minutes")
    assert text(page, "tournament-min-players") == "2"
    assert "Log in to join." in page and not by_testid(page, "tournament-join")


def test_a_player_joins_and_withdraws(app, client):
    tournament_id = make_arena(app)
    register(client, "alice")
    joined = join(client, tournament_id).get_data(as_text=True)
    assert by_testid(joined, "tournament-withdraw")
    assert client.get(f"/api/tournaments/{tournament_id}").get_json()["me"]["joined"] is True
    left = join(client, tournament_id, "withdraw").get_data(as_text=True)
    assert by_testid(left, "tournament-join")
    assert client.get(f"/api/tournaments/{tournament_id}").get_json()["me"]["joined"] is False


@pytest.mark.parametrize("status", ["finished", "cancelled"])
def test_joining_one_that_is_over_says_so(app, client, status):
    tournament_id = make_arena(app)
    register(client, "alice")
    token = csrf_token(client, f"/tournaments/{tournament_id}")
    with app.app_context():
        db.session.get(Tournament, tournament_id).status = status
        db.session.commit()
    page = client.post(f"/tournaments/{tournament_id}/join", data={"csrf_token": token},
                       follow_redirects=True).get_data(as_text=True)
    assert flashes(page) == ["This tournament is over."]
    assert client.get(f"/api/tournaments/{tournament_id}").get_json()["standings"] == []


def test_withdrawing_without_having_joined_says_so(app, client):
    tournament_id = make_arena(app)
    register(client, "alice")
    page = join(client, tournament_id, "withdraw").get_data(as_text=True)
    assert flashes(page) == ["You have not joined this tournament."]


def test_a_visitor_who_posts_is_sent_to_log_in(app, client):
    tournament_id = make_arena(app)
    response = client.post(f"/tournaments/{tournament_id}/join")
    assert response.status_code in (302, 400)
    assert client.get(f"/api/tournaments/{tournament_id}").get_json()["standings"] == []


def test_a_guest_is_sent_to_register(app, client):
    tournament_id = make_arena(app)
    client.post("/guest", data={"csrf_token": csrf_token(client, "/login")},
                environ_base={"REMOTE_ADDR": "10.1.1.1"})
    response = post_form(client, f"/tournaments/{tournament_id}/join", {},
                         page=f"/tournaments/{tournament_id}")
    assert response.status_code == 302 and "/register" in response.headers["Location"]
    assert client.get(f"/api/tournaments/{tournament_id}").get_json()["standings"] == []


@pytest.mark.parametrize("path, status", [("/tournaments/999", 404), ("/tournaments/abc", 404),
                                          ("/api/tournaments/999", 404)])
def test_an_unknown_tournament_is_not_found(client, path, status):
    response = client.get(path)
    assert response.status_code == status


def test_the_api_says_why_an_id_is_unknown(client):
    assert client.get("/api/tournaments/999").get_json() == {
        "error": "not_found", "message": "There is no tournament with that id."}


def test_the_api_gives_the_rules_times_and_standings(app, client):
    tournament_id = make_arena(app)
    register(client, "alice")
    join(client, tournament_id)
    data = client.get(f"/api/tournaments/{tournament_id}").get_json()
    assert {key: data[key] for key in ("name", "ruleset", "clock", "rated", "minutes",
                                       "min_players", "status", "opening")} == {
        "name": "Weekly arena", "ruleset": "freestyle", "clock": [180, 2], "rated": True,
        "minutes": 60, "min_players": 2, "status": "scheduled", "opening": "none"}
    assert 0 < data["seconds_to_start"] <= 600
    assert [(row["rank"], row["username"], row["points"]) for row in data["standings"]] == [
        (1, "alice", 0)]
    assert data["me"] == {"joined": True, "withdrawn": False, "game_id": None}


def test_a_profile_lists_the_player_s_tournaments(app, client):
    tournament_id = make_arena(app, name="Sunday arena")
    register(client, "alice")
    join(client, tournament_id)
    page = client.get("/u/alice").get_data(as_text=True)
    assert [e.text for e in by_testid(page, "profile-tournament")] == ["Sunday arena"]


@pytest.mark.parametrize("status, shown", [("scheduled", ["Weekly arena starts"]),
                                           ("running", ["Weekly arena running"]),
                                           ("finished", []), ("cancelled", [])])
def test_the_hall_shows_upcoming_and_running_tournaments(app, client, status, shown):
    make_arena(app, status)
    register(client, "alice")
    page = client.get("/hall").get_data(as_text=True)
    assert [" ".join(e.text.split()[:3]) for e in by_testid(page, "hall-tournament")] == shown


def moderator(app, client, name: str = "mona"):
    register(client, name)
    set_columns(app, name, moderator=True)
    return client


NEW_ARENA = {"name": "Friday arena", "ruleset": "renju", "clock": "300+3", "minutes": "45",
             "starts_in": "30", "min_players": "3", "opening": "taraguchi-10"}


def test_a_moderator_schedules_an_arena_from_the_page(app, client):
    moderator(app, client)
    response = post_form(client, "/tournaments/new", NEW_ARENA)
    assert response.status_code == 302
    with app.app_context():
        made = db.session.scalars(db.select(Tournament)).one()
        assert (made.name, made.ruleset, made.time_control(), made.minutes, made.min_players,
                made.opening, made.rated, made.created_by) == (
            "Friday arena", "renju", (300, 3), 45, 3, "taraguchi-10", False, "mona")


@pytest.mark.parametrize("changes, message", [
    ({"clock": "fast"}, "A clock is written as seconds+increment, such as 180+2, or none."),
    ({"minutes": "many"}, "Minutes, the start and the minimum of players are numbers."),
    ({"opening": "taraguchi-10", "ruleset": "freestyle"},
     "Opening must be one of none, swap, swap2 for freestyle."),
    ({"name": ""}, "A tournament&#39;s name has 1 to 80 characters."),
])
def test_a_bad_arena_from_the_page_is_refused_with_its_message(app, client, changes, message):
    moderator(app, client)
    response = post_form(client, "/tournaments/new", {**NEW_ARENA, **changes})
    assert response.status_code == 400
    assert flashes(response.get_data(as_text=True)) == [message]
    with app.app_context():
        assert db.session.scalars(db.select(Tournament)).all() == []


@pytest.mark.parametrize("who", ["visitor", "player"])
def test_only_moderators_may_schedule(app, client, who):
    if who == "player":
        register(client, "alice")
    response = client.get("/tournaments/new")
    assert response.status_code == (403 if who == "player" else 302)


def arena_game(app, *names: str) -> int:
    """A running arena that paired these players (all in the hall): its game's id."""
    with app.app_context():
        found = services()
        tournament_id = make_arena(app, "running")
        for number, name in enumerate(names):
            user = found.accounts.find(name)
            found.arenas.entries.join(user, tournament_id)
            found.lobby.hall.connect(user, f"hall-{number}")
        found.arenas.director.tick()
        return found.arenas.view.summary(db.session.get(Tournament, tournament_id),
                                         None)["games"][0]["game_id"]


def test_an_arena_player_goes_berserk_from_the_room(app, client):
    register(client, "alice")
    add_user(app, "bob")
    game_id = arena_game(app, "alice", "bob")
    room = client.get(f"/game/{game_id}").get_data(as_text=True)
    assert by_testid(room, "berserk")
    response = post_form(client, f"/tournaments/games/{game_id}/berserk", {},
                         page=f"/game/{game_id}", follow_redirects=True)
    page = response.get_data(as_text=True)
    assert flashes(page) == [
        "Berserk: half your time and no increment, a point more for a win."]
    assert not by_testid(page, "berserk")
    again = post_form(client, f"/tournaments/games/{game_id}/berserk", {},
                      page="/tournaments", follow_redirects=True)
    assert flashes(again.get_data(as_text=True)) == ["You already went berserk."]


def test_a_spectator_is_offered_no_berserk(app, client):
    add_user(app, "alice")
    add_user(app, "bob")
    register(client, "cyd")
    game_id = arena_game(app, "alice", "bob")
    assert not by_testid(client.get(f"/game/{game_id}").get_data(as_text=True), "berserk")


def make_swiss(app, name: str = "Weekly Swiss", rounds: int = 3, starts_in: float = 10) -> int:
    with app.app_context():
        return services().arenas.schedule.create(
            Plan(name, "freestyle", (180, 2), None, starts_in, 2, kind="swiss", rounds=rounds),
            "host").id


def swiss_round_one(app, *names: str) -> int:
    """A Swiss event starting now, with these players in the hall: round 1 paired."""
    with app.app_context():
        found = services()
        tournament_id = make_swiss(app, starts_in=0)
        for number, name in enumerate(names):
            user = found.accounts.find(name)
            found.arenas.entries.join(user, tournament_id)
            found.lobby.hall.connect(user, f"hall-{number}")
        found.swiss.director.tick()
        return tournament_id


def test_the_list_and_the_hall_show_a_swiss_event_with_its_rounds(app, client):
    make_swiss(app, rounds=5)
    listed = client.get("/tournaments").get_data(as_text=True)
    [item] = by_testid(listed, "tournament-item")
    assert "Weekly Swiss" in item.text and "Swiss · 5 rounds" in " ".join(item.text.split())
    register(client, "alice")
    hall = client.get("/hall").get_data(as_text=True)
    assert [" ".join(e.text.split()[:3]) for e in by_testid(hall, "hall-tournament")] == [
        "Weekly Swiss starts"]


def test_a_swiss_events_page_shows_its_rounds_and_tie_break_columns(app, client):
    tournament_id = make_swiss(app)
    page = client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert text(page, "tournament-rules").startswith("freestyle · 3+2 · Rated · Swiss · 3 rounds")
    assert text(page, "tournament-round") == "0 of 3"
    assert "Buchholz" in page and "S-B" in page
    assert by_testid(page, "tournament-boards")


def test_a_swiss_events_page_shows_the_boards_of_the_round(app, client):
    for name in ("alice", "bob", "cyd"):
        add_user(app, name)
    tournament_id = swiss_round_one(app, "alice", "bob", "cyd")
    page = client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    boards = [" ".join(e.text.split()) for e in by_testid(page, "tournament-board")]
    assert len(boards) == 2 and boards[1].endswith("· bye")
    assert text(page, "tournament-round") == "1 of 3"
    assert 'href="/game/' in page


def test_the_api_gives_a_swiss_events_round_boards_and_tie_breaks(app, client):
    add_user(app, "bob")
    register(client, "alice")
    tournament_id = swiss_round_one(app, "alice", "bob")
    data = client.get(f"/api/tournaments/{tournament_id}").get_json()
    assert {key: data[key] for key in ("kind", "rounds", "round", "minutes", "ends_at",
                                       "seconds_to_end", "seconds_to_next_round")} == {
        "kind": "swiss", "rounds": 3, "round": 1, "minutes": None, "ends_at": None,
        "seconds_to_end": None, "seconds_to_next_round": None}
    board, = data["boards"]
    assert board["result"] is None and board["game_id"] == data["me"]["game_id"]
    assert {row["username"]: [m["outcome"] for m in row["marks"]]
            for row in data["standings"]} == {"alice": ["playing"], "bob": ["playing"]}
    assert {"buchholz", "sonneborn_berger"} <= set(data["standings"][0])


def test_joining_a_swiss_event_says_when_the_player_is_paired(app, client):
    tournament_id = make_swiss(app)
    register(client, "alice")
    assert flashes(join(client, tournament_id).get_data(as_text=True)) == [
        "You joined: you will be paired from the next round."]


def test_a_profile_lists_a_swiss_event_with_its_place(app, client):
    add_user(app, "bob")
    register(client, "alice")
    swiss_round_one(app, "alice", "bob")
    page = client.get("/u/alice").get_data(as_text=True)
    assert [e.text for e in by_testid(page, "profile-tournament")] == ["Weekly Swiss"]


NEW_SWISS = {**NEW_ARENA, "kind": "swiss", "name": "Friday Swiss", "rounds": "7",
             "minutes": "45"}


def test_a_moderator_schedules_a_swiss_event_from_the_page(app, client):
    moderator(app, client)
    response = post_form(client, "/tournaments/new", NEW_SWISS)
    assert response.status_code == 302
    with app.app_context():
        made = db.session.scalars(db.select(Tournament)).one()
        assert (made.kind, made.name, made.rounds, made.minutes) == (
            "swiss", "Friday Swiss", 7, None)


@pytest.mark.parametrize("changes, message", [
    ({"rounds": "many"}, "Rounds, the start and the minimum of players are numbers."),
    ({"rounds": "0"}, "A Swiss event has 1 to 20 rounds."),
    ({"rounds": "21"}, "A Swiss event has 1 to 20 rounds."),
    ({"kind": "knockout"}, "A tournament is an arena or a Swiss event."),
])
def test_a_bad_swiss_event_from_the_page_is_refused_with_its_message(app, client, changes,
                                                                     message):
    moderator(app, client)
    response = post_form(client, "/tournaments/new", {**NEW_SWISS, **changes})
    assert response.status_code == 400
    assert flashes(response.get_data(as_text=True)) == [message]
    with app.app_context():
        assert db.session.scalars(db.select(Tournament)).all() == []


def test_a_swiss_game_offers_no_berserk(app, client):
    add_user(app, "bob")
    register(client, "alice")
    tournament_id = swiss_round_one(app, "alice", "bob")
    game_id = client.get(f"/api/tournaments/{tournament_id}").get_json()["me"]["game_id"]
    assert not by_testid(client.get(f"/game/{game_id}").get_data(as_text=True), "berserk")
