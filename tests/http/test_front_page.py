"""The front page (`/`): what a visitor sees before signing up, and where a player lands."""

from __future__ import annotations

import pytest

from tests.sockets.conftest import (  # noqa: F401  (fixtures: live players on a fake clock)
    base_overrides,
    clock,
    game_between,
    next_update,
    player,
    tick,
)
from tests.support.forms import register
from tests.support.games import add_user, delete_user, finish_game
from tests.support.html import by_testid, text, texts


def front(app, **headers) -> str:
    """The front page as a visitor (a client with no session) sees it."""
    response = app.test_client().get("/", headers=headers)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_player_lands_in_the_hall(client):
    register(client, "alice")
    assert client.get("/").headers["Location"] == "/hall"


@pytest.mark.parametrize(("testid", "href"), [
    ("front-register", "/register"), ("front-login", "/login"),
    ("nav-register", "/register"), ("nav-login", "/login")])
def test_visitor_is_offered_sign_up_and_log_in(app, testid, href):
    (link,) = by_testid(front(app), testid)
    assert link.attrs["href"] == href


def test_visitor_sees_what_the_site_is_not_a_login_form(app):
    page = front(app)
    assert text(page, "front-title") == "Gomoku: five in a row, live"
    assert 'name="password"' not in page


def test_empty_site_shows_nobody_online_and_no_games(app):
    page = front(app)
    assert [e.attrs["data-count"] for e in by_testid(page, "front-online")] == ["0"]
    assert [e.attrs["data-count"] for e in by_testid(page, "front-playing")] == ["0"]
    assert by_testid(page, "front-no-games")


def test_players_on_other_pages_count_as_online(app, player):  # noqa: F811
    from tests.sockets.test_site import open_page

    open_page(player("ann"))
    player("ben").join_hall()
    assert by_testid(front(app), "front-online")[0].attrs["data-count"] == "2"


def test_hall_visitors_count_as_online(app, player):  # noqa: F811
    for name in ("ann", "ben", "cat"):
        player(name).join_hall()
    page = front(app)
    assert by_testid(page, "front-online")[0].attrs["data-count"] == "3"
    assert text(page, "front-online") == "3 players online"


def test_players_in_a_game_count_as_online_and_playing(app, game_between):  # noqa: F811
    game_between()
    page = front(app)
    assert by_testid(page, "front-online")[0].attrs["data-count"] == "2"
    assert by_testid(page, "front-playing")[0].attrs["data-count"] == "1"
    assert text(page, "front-playing") == "1 game in play"


def test_live_games_are_offered_to_watch(app, game_between, next_update):  # noqa: F811
    black, white, game_id = game_between("ann", "ben")
    next_update()
    page = front(app)
    assert [e.attrs["data-game-id"] for e in by_testid(page, "front-live-game")] == [
        str(game_id)]
    assert (texts(page, "front-live-black"), texts(page, "front-live-white")) == (
        [black.name], [white.name])
    assert [e.attrs["href"] for e in by_testid(page, "front-watch-link")] == [f"/game/{game_id}"]


def test_no_live_games_says_so(app):
    assert by_testid(front(app), "front-no-live-games")


def test_visitor_is_offered_the_computer_as_a_guest(app):
    (button,) = by_testid(front(app), "front-guest-play")
    assert button.tag == "button" and button.text == "Play the computer as a guest"
    assert 'action="/guest"' in front(app)


@pytest.fixture
def ann_and_ben(app) -> tuple[int, int]:
    return add_user(app, "ann"), add_user(app, "ben")


def test_recent_games_newest_first_with_replays_and_profiles(app, ann_and_ben):
    ann, ben = ann_and_ben
    older = finish_game(app, ann, ben, "black", "five")
    newer = finish_game(app, ben, ann, "white", "resign")
    page = front(app)
    assert [e.attrs["data-game-id"] for e in by_testid(page, "front-game")] == [
        str(newer), str(older)]
    assert [e.attrs["href"] for e in by_testid(page, "front-replay-link")] == [
        f"/game/{newer}/replay", f"/game/{older}/replay"]
    assert [e.attrs["href"] for e in by_testid(page, "front-game-black")] == ["/u/ben", "/u/ann"]


def test_recent_games_leave_out_aborted_ones(app, ann_and_ben):
    finish_game(app, *ann_and_ben, None, "aborted")
    assert by_testid(front(app), "front-game") == []


def test_a_recent_game_without_moves_offers_no_replay(app, ann_and_ben):
    game_id = finish_game(app, *ann_and_ben, "white", "resign", moves=[])
    page = front(app)
    assert [e.attrs["data-game-id"] for e in by_testid(page, "front-game")] == [str(game_id)]
    assert by_testid(page, "front-replay-link") == []


def test_the_computer_in_a_recent_game_is_named_without_a_link(app, ann_and_ben):
    computer = add_user(app, "Computer · level 3", computer_level=3)
    finish_game(app, ann_and_ben[0], computer, "black", "five", rated=False)
    page = front(app)
    assert texts(page, "front-game-white") == ["Computer · level 3"]
    assert "href" not in by_testid(page, "front-game-white")[0].attrs


def test_deleted_player_in_a_recent_game_is_not_linked(app, ann_and_ben):
    finish_game(app, *ann_and_ben, "black", "five")
    delete_user(app, "ann")
    page = front(app)
    assert texts(page, "front-game-black") == ["deleted user"]
    assert "href" not in by_testid(page, "front-game-black")[0].attrs


def test_top_players_link_to_their_profiles(app, ann_and_ben):
    ann, ben = ann_and_ben
    for _ in range(5):
        finish_game(app, ann, ben, "black", "five")
    page = front(app)
    rows = texts(page, "top10-row")
    assert [row.split()[1] for row in rows] == ["ann", "ben"]
    assert 'href="/u/ann"' in page
    assert "Your rank" not in page


def test_front_page_in_chinese(app, ann_and_ben):
    finish_game(app, *ann_and_ben, "black", "five")
    page = front(app, **{"Accept-Language": "zh-CN"})
    assert text(page, "front-title") == "五子棋：实时对弈，五子连珠"
    assert text(page, "front-register") == "注册"
    assert text(page, "front-login") == "登录"
    assert text(page, "front-online") == "0 位玩家在线"
    assert text(page, "front-playing") == "0 局对弈中"
    assert texts(page, "front-replay-link") == ["复盘"]
