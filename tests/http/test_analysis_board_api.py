"""The analysis board over HTTP: the page's address forms, GET /api/analysis/position, POST
/api/analysis/engine (each refusal, the answer's shape, its legal best move, the capacity and
the rate limit) and the line's .psq download."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest

from gobang.rules import Game
from gobang.services.registry import services
from tests.support.forms import csrf_token, register
from tests.support.games import BLACK_FIVE, add_user, finish_game, start_game, user_id

KEYS = {"ruleset", "moves", "to_move", "winner", "line", "forbidden"}
RENJU_DOUBLE_THREE = "g8,a15,h8,o1,i10,o15,i9,a1"
_TOKEN = re.compile(r'data-csrf-token="([^"]+)"')


@pytest.fixture(autouse=True)
def engines_stopped(app) -> Iterator[None]:
    yield
    with app.app_context():
        services().analysis_board.engines.close()


def refusal(response, status: int, code: str) -> str:
    assert response.status_code == status
    body = response.get_json()
    assert body["error"] == code
    assert isinstance(body["message"], str) and body["message"]
    return body["message"]


def ask(client, body, token: str | None = None):
    if token is None:
        token = _TOKEN.search(client.get("/analysis").get_data(as_text=True)).group(1)
    return client.post("/api/analysis/engine", json=body, headers={"X-CSRFToken": token})


@pytest.fixture
def player(client):
    register(client, "alice")
    return client


# ---------- the page ----------

@pytest.mark.parametrize("query", [
    "", "?ruleset=renju", f"?ruleset=renju&moves={RENJU_DOUBLE_THREE}"])
def test_the_page_opens_on_an_empty_board_or_the_line_given(client, query):
    response = client.get(f"/analysis{query}")
    assert response.status_code == 200
    assert 'id="board"' in response.get_data(as_text=True)


def test_the_page_refuses_a_bad_line_with_the_reason(client):
    response = client.get("/analysis?moves=h8,h8")
    assert response.status_code == 400
    assert "Move 2 (h8) is on a point already taken." in response.get_data(as_text=True)


def test_a_finished_game_s_move_is_sent_to_the_address_of_its_position(app, client):
    game_id = finish_game(app, add_user(app, "ann"), add_user(app, "ben"))
    response = client.get(f"/analysis?game={game_id}&move=4")
    assert response.status_code == 302
    query = parse_qs(urlsplit(response.headers["Location"]).query)
    assert query == {"ruleset": ["freestyle"], "moves": ["d8,a15,e8,b15"]}


def test_a_finished_game_without_a_move_opens_at_its_end(app, client):
    game_id = finish_game(app, add_user(app, "ann"), add_user(app, "ben"))
    location = client.get(f"/analysis?game={game_id}").headers["Location"]
    assert parse_qs(urlsplit(location).query)["moves"][0].count(",") == len(BLACK_FIVE) - 1


def test_a_game_in_play_is_refused_as_it_would_show_its_position(app, client):
    game_id = start_game(app, add_user(app, "ann"), add_user(app, "ben"), BLACK_FIVE[:3])
    response = client.get(f"/analysis?game={game_id}&move=2")
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "still being played" in page
    assert "e8" not in page and "[7, 4]" not in page


@pytest.mark.parametrize(("query", "status"), [
    ("?game=999999", 404), ("?game=abc", 400), ("?game=GAME&move=99", 400),
    ("?game=GAME&move=-1", 400)])
def test_a_game_that_cannot_be_shown_is_refused(app, client, query, status):
    game_id = finish_game(app, add_user(app, "ann"), add_user(app, "ben"))
    response = client.get("/analysis" + query.replace("GAME", str(game_id)))
    assert response.status_code == status
    assert 'data-testid="analysis-refusal"' in response.get_data(as_text=True)


# ---------- GET /api/analysis/position ----------

def test_a_position_s_shape(client):
    body = client.get(f"/api/analysis/position?ruleset=renju&moves={RENJU_DOUBLE_THREE}"
                      ).get_json()
    assert set(body) == KEYS
    assert body["moves"][0] == [7, 6]
    assert (body["to_move"], body["winner"], body["line"]) == ("black", None, None)
    assert body["forbidden"] == [[7, 8]]


@pytest.mark.parametrize("query", [
    "ruleset=go&moves=h8", "ruleset=standard&moves=p1", "ruleset=standard&moves=h8,h8",
    f"ruleset=renju&moves={RENJU_DOUBLE_THREE},i8",
    "ruleset=standard&moves=d8,a15,e8,b15,f8,c15,g8,d15,h8,a1"])
def test_a_bad_position_is_a_bad_request(client, query):
    refusal(client.get(f"/api/analysis/position?{query}"), 400, "bad_request")


# ---------- POST /api/analysis/engine ----------

def test_a_visitor_may_not_ask_the_engine(client):
    message = refusal(ask(client, {"ruleset": "standard", "moves": []}), 401, "unauthorized")
    assert "Log in" in message


def test_an_ask_without_the_csrf_token_is_refused(player):
    response = player.post("/api/analysis/engine", json={"ruleset": "standard", "moves": []})
    assert response.status_code == 400
    assert response.get_json()["error"] == "bad_request"


def test_the_engine_answers_a_player_with_a_legal_best_move(player):
    moves = [[7, 7], [6, 8], [6, 7]]
    response = ask(player, {"ruleset": "renju", "moves": moves})
    assert response.status_code == 200
    body = response.get_json()
    assert set(body) == {"win_chance", "best", "line"}
    assert -1 <= body["win_chance"] <= 1
    Game.replay([*moves, body["best"]], "renju")  # raises if the rules refuse the move
    assert body["line"][0] == body["best"]


def test_a_guest_may_ask_the_engine(app):
    guest = app.test_client()
    guest.post("/guest", data={"csrf_token": csrf_token(guest, "/login")},
               environ_base={"REMOTE_ADDR": "10.1.1.9"})
    assert guest.get("/api/me").get_json()["guest"] is True
    assert ask(guest, {"ruleset": "standard", "moves": "h8"}).status_code == 200


def test_a_bad_position_asked_of_the_engine_is_a_bad_request(player):
    refusal(ask(player, {"ruleset": "standard", "moves": "h8,h8"}), 400, "bad_request")
    refusal(ask(player, {"ruleset": "standard", "moves": [[7, 99]]}), 400, "bad_request")


@pytest.mark.parametrize("app_overrides", [{"ANALYSIS_BOARD_ASKS_PER_MINUTE": 1}])
def test_asking_too_often_is_rate_limited(player):
    assert ask(player, {"ruleset": "standard", "moves": "h8"}).status_code == 200
    refusal(ask(player, {"ruleset": "standard", "moves": "h8,i9"}), 429, "rate_limited")


@pytest.mark.parametrize("app_overrides", [{"ANALYSIS_BOARD_AT_ONCE": 1}])
def test_an_ask_while_every_engine_is_busy_is_unavailable(app, player):
    token = _TOKEN.search(player.get("/analysis").get_data(as_text=True)).group(1)
    with app.app_context(), services().analysis_board.engines.reserve():
        refusal(ask(player, {"ruleset": "standard", "moves": "h8"}, token), 503,
                "unavailable")
    assert ask(player, {"ruleset": "standard", "moves": "h8"}, token).status_code == 200


# ---------- the .psq download ----------

def test_the_line_downloads_as_psq(client):
    response = client.get("/analysis/line.psq?ruleset=standard&moves=h8,i9")
    assert response.status_code == 200
    assert 'filename="gobang-analysis.psq"' in response.headers["Content-Disposition"]
    assert response.get_data(as_text=True).splitlines()[1:3] == ["8,8,0", "9,7,0"]


def test_a_bad_line_downloads_nothing(client):
    response = client.get("/analysis/line.psq?ruleset=standard&moves=h8,h8")
    assert response.status_code == 400
    assert "already taken" in response.get_data(as_text=True)


def test_a_player_s_own_game_opens_too(app, player):
    game_id = finish_game(app, user_id(app, "alice"), add_user(app, "ben"))
    assert player.get(f"/analysis?game={game_id}&move=0").status_code == 302
