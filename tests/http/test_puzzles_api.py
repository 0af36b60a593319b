"""The puzzles page and API over HTTP: each refusal's code and status, and the answers'
shapes. Puzzles come from stored analyses (tests/support/puzzles.py), harvested by the first
request for one, as on a running server."""

from __future__ import annotations

import re

import pytest

from tests.support.forms import csrf_token, register
from tests.support.puzzles import (
    FAR,
    RENJU_FORBIDDEN,
    RENJU_POSITION,
    VCF_LINE,
    VCF_MISSED_AT,
    VCF_POSITION,
    analysed_game,
)

PUZZLE_KEYS = {"id", "ruleset", "moves", "to_move", "attacker", "kind", "rating", "line",
               "player"}
RATING_KEYS = {"rating", "rd", "provisional", "solved", "failed", "before", "after"}
_PAGE_TOKEN = re.compile(r'data-csrf-token="([^"]+)"')


def token(client) -> str:
    return _PAGE_TOKEN.search(client.get("/puzzles").get_data(as_text=True)).group(1)


def post_move(client, puzzle_id: int, moves, move, with_token: bool = True):
    headers = {"X-CSRFToken": token(client)} if with_token else {}
    return client.post(f"/api/puzzles/{puzzle_id}/move", json={"moves": moves, "move": move},
                       headers=headers)


@pytest.fixture
def puzzle_id(app, client) -> int:
    analysed_game(app, VCF_POSITION, VCF_MISSED_AT)
    register(client, "solver")
    return client.get("/api/puzzles/next").get_json()["id"]


def test_next_has_the_puzzles_shape(app, client):
    analysed_game(app, VCF_POSITION, VCF_MISSED_AT)
    register(client, "solver")
    body = client.get("/api/puzzles/next?ruleset=freestyle").get_json()
    assert set(body) == PUZZLE_KEYS
    assert (body["moves"], body["to_move"], body["line"]) == (
        [list(p) for p in VCF_POSITION], "black", [])


@pytest.mark.parametrize(("query", "status", "code"), [
    ("?ruleset=renju", 404, "not_found"), ("?ruleset=chess", 400, "bad_request")])
def test_next_refusals(app, client, query, status, code):
    analysed_game(app, VCF_POSITION, VCF_MISSED_AT)
    register(client, "solver")
    response = client.get(f"/api/puzzles/next{query}")
    assert response.status_code == status
    assert response.get_json()["error"] == code and response.get_json()["message"]


def test_no_puzzle_left_is_404_not_found(client):
    register(client, "solver")
    response = client.get("/api/puzzles/next")
    assert response.status_code == 404
    assert response.get_json()["message"].startswith("No puzzle left")


def test_a_visitor_gets_401_with_a_message(app):
    response = app.test_client().get("/api/puzzles/next")
    assert response.status_code == 401
    assert response.get_json()["error"] == "unauthorized" and response.get_json()["message"]


def test_a_visitors_move_gets_401(app, puzzle_id):
    visitor = app.test_client()
    headers = {"X-CSRFToken": csrf_token(visitor, "/login")}
    response = visitor.post(f"/api/puzzles/{puzzle_id}/move", json={"moves": [], "move": [7, 8]},
                            headers=headers)
    assert response.status_code == 401


def test_a_kept_move_gets_the_reply(client, puzzle_id):
    response = post_move(client, puzzle_id, [], list(VCF_LINE[0]))
    assert response.status_code == 200
    assert response.get_json() == {"ok": True, "reply": list(VCF_LINE[1]), "solved": False}


def test_a_wrong_move_has_the_failures_shape(client, puzzle_id):
    body = post_move(client, puzzle_id, [], list(FAR)).get_json()
    assert (body["ok"], body["error"]) == (False, "wrong_move")
    assert body["solution"] == [list(p) for p in VCF_LINE]
    assert set(body["rating"]) == RATING_KEYS
    assert body["rating"]["failed"] == 1
    assert body["move_number"] == VCF_MISSED_AT


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"moves": [], "move": [7]}, 400, "bad_request"),
    ({"moves": [[7, 8]], "move": [4, 8]}, 400, "bad_request"),
    ({"move": [7, 8]}, 400, "bad_request"),
    ({"moves": [], "move": list(VCF_POSITION[0])}, 400, "bad_request"),
])
def test_move_refusals(client, puzzle_id, body, status, code):
    response = client.post(f"/api/puzzles/{puzzle_id}/move", json=body,
                           headers={"X-CSRFToken": token(client)})
    assert response.status_code == status
    assert response.get_json()["error"] == code


def test_a_move_in_no_puzzle_is_404(client, puzzle_id):
    assert post_move(client, puzzle_id + 1, [], [7, 8]).status_code == 404


def test_a_move_in_a_puzzle_tried_already_is_409(client, puzzle_id):
    post_move(client, puzzle_id, [], list(FAR))
    response = post_move(client, puzzle_id, [], list(FAR))
    assert (response.status_code, response.get_json()["error"]) == (409, "conflict")


def test_a_move_without_the_csrf_token_is_400(client, puzzle_id):
    response = post_move(client, puzzle_id, [], list(VCF_LINE[0]), with_token=False)
    assert (response.status_code, response.get_json()["error"]) == (400, "bad_request")


def test_a_renju_forbidden_move_is_400_forbidden_move(app, client):
    analysed_game(app, RENJU_POSITION, len(RENJU_POSITION) + 1, ruleset="renju")
    register(client, "solver")
    puzzle_id = client.get("/api/puzzles/next?ruleset=renju").get_json()["id"]
    response = post_move(client, puzzle_id, [], list(RENJU_FORBIDDEN))
    assert (response.status_code, response.get_json()["error"]) == (400, "forbidden_move")


def test_a_guest_may_solve(app, client):
    analysed_game(app, VCF_POSITION, VCF_MISSED_AT)
    client.post("/guest", data={"csrf_token": csrf_token(client, "/login")})
    puzzle_id = client.get("/api/puzzles/next").get_json()["id"]
    assert post_move(client, puzzle_id, [], list(VCF_LINE[0])).get_json()["ok"] is True


@pytest.mark.parametrize(("signed_in", "shown", "hidden"), [
    (True, 'data-testid="puzzle-rating"', 'data-testid="puzzles-login"'),
    (False, 'data-testid="puzzles-login"', 'data-testid="puzzle-rating"')])
def test_the_page_shows_the_rating_or_asks_to_log_in(app, client, signed_in, shown, hidden):
    if signed_in:
        register(client, "solver")
    html = client.get("/puzzles").get_data(as_text=True)
    assert shown in html and hidden not in html


def test_the_site_menu_links_the_puzzles(client):
    assert 'href="/puzzles"' in client.get("/login").get_data(as_text=True)
