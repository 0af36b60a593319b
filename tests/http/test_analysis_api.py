"""GET and POST /api/games/<id>/analysis over HTTP, and the analysis in the game's export
and .txt record. No ticker runs here: a request stays queued."""

from __future__ import annotations

import re
import time

import pytest

from gobang.ai.evaluation import analyse_game
from gobang.services.analysis.stored import save_analysis
from tests.support.analysis import FORTY_MOVES, MISSED_VCF
from tests.support.forms import csrf_token, register
from tests.support.games import add_user, finish_game, start_game

KEYS = {"game_id", "status", "position", "progress", "analysis", "can_request"}


_PAGE_TOKEN = re.compile(r'data-csrf-token="([^"]+)"')


def page_token(client, page: str) -> str:
    """The token a page hands its scripts (base.html's data-csrf-token), as their fetch
    POSTs send it; a form's token on pages without it (a visitor's)."""
    found = _PAGE_TOKEN.search(client.get(page).get_data(as_text=True))
    return found.group(1) if found else csrf_token(client, page)


def post(client, game_id: int, page: str = "/hall"):
    token = page_token(client, page)
    return client.post(f"/api/games/{game_id}/analysis", headers={"X-CSRFToken": token})


@pytest.fixture
def game(app, players) -> int:
    return finish_game(app, *players, "black", "resign", moves=FORTY_MOVES)


@pytest.fixture
def analysed(app, players) -> int:
    """A finished game with its analysis stored: move 11 is a blunder missing a VCF."""
    game_id = finish_game(app, *players, "white", "resign", moves=MISSED_VCF)
    found = analyse_game("freestyle", MISSED_VCF, 5.0, time.monotonic).as_dict()
    with app.app_context():
        save_analysis(game_id, found)
    return game_id


def test_get_of_a_game_never_analysed(client, game):
    body = client.get(f"/api/games/{game}/analysis").get_json()
    assert set(body) == KEYS
    assert body == {"game_id": game, "status": "none", "position": None, "progress": None,
                    "analysis": None, "can_request": True}


def test_a_visitor_may_read_but_not_request(app, game):
    body = app.test_client().get(f"/api/games/{game}/analysis").get_json()
    assert (body["status"], body["can_request"]) == ("none", False)


def test_post_queues_and_answers_202_with_the_get_shape(client, game):
    response = post(client, game)
    assert response.status_code == 202
    body = response.get_json()
    assert set(body) == KEYS
    assert (body["status"], body["position"], body["can_request"]) == ("queued", 1, False)
    assert client.get(f"/api/games/{game}/analysis").get_json() == body


def refusal(response, status: int, code: str) -> None:
    assert response.status_code == status
    body = response.get_json()
    assert body["error"] == code
    assert isinstance(body["message"], str) and body["message"]


def test_a_visitor_is_unauthorized(app, game):
    visitor = app.test_client()
    refusal(post(visitor, game, page="/login"), 401, "unauthorized")


def test_a_guest_is_unauthorized(app, game):
    guest = app.test_client()
    guest.post("/guest", data={"csrf_token": csrf_token(guest, "/login")},
               environ_base={"REMOTE_ADDR": "10.1.1.9"})
    assert guest.get("/api/me").get_json()["guest"] is True
    refusal(post(guest, game, page="/computer"), 401, "unauthorized")


def test_a_spectator_is_forbidden(app, game):
    carl = app.test_client()
    register(carl, "carl")
    refusal(post(carl, game), 403, "forbidden")


@pytest.mark.parametrize("app_overrides", [{"ANALYSIS_BY_SPECTATORS": True}])
def test_a_spectator_may_ask_when_the_host_allows_it(app, game):
    carl = app.test_client()
    register(carl, "carl")
    assert post(carl, game).status_code == 202


def test_a_game_in_play_is_a_bad_request(app, client, players):
    game_id = start_game(app, *players, FORTY_MOVES[:6])
    refusal(post(client, game_id), 400, "bad_request")


def test_an_unknown_game_is_not_found(client, players):
    refusal(post(client, 999_999), 404, "not_found")
    refusal(client.get("/api/games/999999/analysis"), 404, "not_found")


def test_a_second_pending_request_is_a_conflict(app, client, players, game):
    other = finish_game(app, *players, "black", "resign", moves=FORTY_MOVES[:8])
    assert post(client, game).status_code == 202
    refusal(post(client, other), 409, "conflict")


@pytest.mark.parametrize("app_overrides", [{"ANALYSIS_QUEUE_AT_MOST": 1}])
def test_a_full_queue_is_unavailable(app, client, players, game):
    dan, erin = add_user(app, "dan"), add_user(app, "erin")
    queued = finish_game(app, dan, erin, "black", "resign", moves=FORTY_MOVES[:8])
    with app.app_context():
        from gobang.services.analysis.service import Viewer
        from gobang.services.registry import services

        services().analysis.request(queued, Viewer(dan))
    refusal(post(client, game), 503, "unavailable")


def test_post_without_the_token_is_refused(client, game):
    response = client.post(f"/api/games/{game}/analysis")
    assert response.status_code == 400
    assert client.get(f"/api/games/{game}/analysis").get_json()["status"] == "none"


def test_an_analysed_game_is_returned_with_200_and_nothing_queued(client, analysed):
    response = post(client, analysed)
    assert response.status_code == 200
    body = response.get_json()
    assert (body["status"], body["position"], body["can_request"]) == ("done", None, False)
    assert len(body["analysis"]["moves"]) == len(MISSED_VCF)


def test_the_analysis_has_the_contract_shape(client, analysed):
    found = client.get(f"/api/games/{analysed}/analysis").get_json()["analysis"]
    assert set(found) == {"engine", "moves", "players"}
    move = found["moves"][10]
    assert set(move) == {"number", "color", "move", "before", "after", "best", "label",
                         "missed_win"}
    assert (move["number"], move["color"], move["move"]) == (11, "black", [0, 13])
    assert move["label"] == "blunder"
    assert move["missed_win"]["kind"] == "vcf" and move["missed_win"]["line"]
    for color in ("black", "white"):
        assert set(found["players"][color]) == {"inaccuracy", "mistake", "blunder",
                                                "accuracy"}


def test_the_export_includes_the_analysis(client, analysed, game):
    assert client.get(f"/api/games/{analysed}").get_json()["analysis"]["moves"]
    assert client.get(f"/api/games/{game}").get_json()["analysis"] is None


def test_the_txt_record_annotates_the_moves_and_sums_up(client, analysed):
    body = client.get(f"/game/{analysed}/record.txt").get_data(as_text=True)
    lines = body.splitlines()
    assert any(line.startswith("# Analysis: gobang-analysis") for line in lines)
    black = client.get(f"/api/games/{analysed}/analysis").get_json()["analysis"]["players"][
        "black"]
    assert (f"# Black accuracy: {black['accuracy']}%, inaccuracies {black['inaccuracy']}, "
            f"mistakes {black['mistake']}, blunders {black['blunder']}") in lines
    moves = [line for line in lines if not line.startswith("#")]
    assert moves[10].startswith("n15  # blunder, best ")
    assert "missed VCF" in moves[10]


def test_the_txt_record_annotates_only_the_judged_moves(client, analysed):
    found = client.get(f"/api/games/{analysed}/analysis").get_json()["analysis"]["moves"]
    judged = [m["number"] for m in found if m["label"] or m["missed_win"]]
    body = client.get(f"/game/{analysed}/record.txt").get_data(as_text=True)
    moves = [line for line in body.splitlines() if not line.startswith("#")]
    assert [n for n, line in enumerate(moves, start=1) if "  # " in line] == judged
