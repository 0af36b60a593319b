"""Games against the computer on the pages: listed apart on the profile, never in the ladder."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from gobang.extensions import db
from gobang.models import Game, User
from gobang.services.computer.players import computer_user
from gobang.services.play.results import Ending, save_result
from tests.support.forms import register
from tests.support.games import start_game, user_id
from tests.support.html import by_testid, text, texts


def page_of(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return response.get_data(as_text=True)


@pytest.fixture
def alice_beat_the_computer(app, client) -> int:
    """alice, registered and logged in, won a game as black against level 3."""
    register(client, "alice")
    alice = user_id(app, "alice")
    with app.app_context():
        machine = computer_user(3).id
    game_id = start_game(app, alice, machine, [(7, 7), (0, 0)])
    with app.app_context():
        db.session.execute(update(Game).where(Game.id == game_id).values(computer_level=3))
        db.session.commit()
        assert save_result(game_id, alice, machine, Ending("black", "resign"), 60, None,
                           rated=False)
    return game_id


def test_the_profile_lists_games_against_the_computer_apart(client, alice_beat_the_computer):
    page = page_of(client, "/u/alice")
    assert by_testid(page, "game-row") == []
    assert text(page, "profile-games") == "0"
    assert text(page, "computer-games-count") == "1"
    assert texts(page, "computer-game-level") == ["3"]


def test_a_profile_without_computer_games_has_no_such_list(client):
    register(client, "alice")
    assert by_testid(page_of(client, "/u/alice"), "computer-games") == []


def test_the_computer_is_never_on_the_leaderboard(app, client, alice_beat_the_computer):
    with app.app_context():
        db.session.execute(update(User).where(User.computer_level == 3).values(games=50))
        db.session.commit()
    assert "Computer" not in page_of(client, "/leaderboard")


def test_the_hall_offers_eight_levels_of_the_computer(client):
    register(client, "alice")
    page = page_of(client, "/hall")
    assert len(by_testid(page, "computer-panel")) == 1
    assert page.count('<option value="8"') == 1


@pytest.mark.parametrize("path", ["/game/{id}/replay", "/game/{id}/record.txt",
                                  "/game/{id}/record.psq"])
def test_a_game_against_the_computer_has_its_replay_and_records(
        client, alice_beat_the_computer, path):
    response = client.get(path.format(id=alice_beat_the_computer))
    assert response.status_code == 200
    assert "Computer · level 3" in response.get_data(as_text=True)


def test_the_record_of_a_game_against_the_computer_names_it_as_the_room_does(
        client, alice_beat_the_computer):
    record = client.get(f"/api/games/{alice_beat_the_computer}").get_json()
    assert record["white"] == {"id": record["white"]["id"], "username": "Computer · level 3",
                               "score": 1000, "computer": 3}
    assert "computer" not in record["black"]


@pytest.mark.parametrize("app_overrides", [{"MATCH_POOLS": [[60, 0], None]}])
def test_the_computer_offers_the_hosts_clocks_and_untimed(client, app_overrides):
    register(client, "alice")
    page = page_of(client, "/hall")
    clock_select = page[page.index('data-testid="computer-clock"'):]
    clock_select = clock_select[:clock_select.index("</select>")]
    values = [part.split('"')[0] for part in clock_select.split('value="')[1:]]
    assert values == ["", "60,0", "600,5"]
