"""Site-wide polish over HTTP: the score chart's starting point, the replay page's keyboard
hints and links, and the header's menu."""

from __future__ import annotations

import pytest

from gobang.services.history.players import score_chart
from tests.support.forms import register
from tests.support.games import add_user, finish_game, user_id
from tests.support.html import by_testid, section


def page_of(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return response.get_data(as_text=True)


def polyline(page: str) -> list[tuple[float, float]]:
    (line,) = by_testid(page, "chart-line")
    return [tuple(map(float, pair.split(","))) for pair in line.attrs["points"].split()]


# ---------- score chart ----------

@pytest.mark.parametrize(("winner", "start_is_higher"), [("black", False), ("white", True)])
def test_score_chart_starts_from_the_starting_score(app, client, winner, start_is_higher):
    register(client, "alice")
    finish_game(app, user_id(app, "alice"), add_user(app, "bob"), winner, "resign")
    page = page_of(client, "/u/alice")
    (start,) = by_testid(section(page, "score-history"), "chart-start")
    assert start.attrs["data-score"] == str(app.config["INITIAL_SCORE"])
    (first, last) = polyline(section(page, "score-history"))
    assert first == (float(start.attrs["cx"]), float(start.attrs["cy"]))
    assert (first[1] > last[1]) is not start_is_higher  # SVG y grows downwards
    # one point per game; the start is not a game
    assert len(by_testid(section(page, "score-history"), "chart-point")) == 1


@pytest.mark.parametrize("app_overrides", [{"INITIAL_SCORE": 1500}])
def test_score_chart_starts_from_the_configured_starting_score(app, client):
    register(client, "alice")
    finish_game(app, user_id(app, "alice"), add_user(app, "bob"), "black", "five")
    (start,) = by_testid(section(page_of(client, "/u/alice"), "score-history"), "chart-start")
    assert start.attrs["data-score"] == "1500"


def test_score_chart_start_sits_left_of_the_first_game():
    chart = score_chart([1016, 1001], start=1000)
    xs = [chart["start"]["x"]] + [p["x"] for p in chart["points"]]
    assert xs == sorted(xs) and len(set(xs)) == 3
    assert [p["n"] for p in chart["points"]] == [1, 2]
    assert chart["start"]["n"] == 0


def test_player_without_games_has_no_chart(client):
    register(client, "alice")
    page = page_of(client, "/u/alice")
    assert by_testid(page, "no-chart") and not by_testid(page, "chart-start")


# ---------- replay page ----------

@pytest.fixture
def finished_game(app) -> int:
    return finish_game(app, add_user(app, "ann"), add_user(app, "ben"), "black", "five")


def test_replay_page_does_not_link_to_itself(client, finished_game):
    page = page_of(client, f"/game/{finished_game}/replay")
    assert f'href="/game/{finished_game}/replay"' not in page


def test_replay_key_hints_are_marked_for_keyboards_only(client, finished_game):
    (hint,) = by_testid(page_of(client, f"/game/{finished_game}/replay"), "keyboard-hint")
    assert "keyboard-hint" in hint.attrs["class"].split()


# ---------- header ----------

@pytest.mark.parametrize(("logged_in", "on_bar", "in_menu"), [
    (False, ["nav-login", "nav-register"], ["nav-leaderboard", "language-switcher"]),
    (True, ["nav-hall", "nav-profile"],
     ["nav-leaderboard", "nav-settings", "nav-username", "logout", "language-switcher"]),
])
def test_header_keeps_two_links_on_the_bar_and_the_rest_in_the_menu(
        client, logged_in, on_bar, in_menu):
    if logged_in:
        register(client, "alice")
    page = page_of(client, "/leaderboard")
    header = page[page.index("<header"):page.index("</header>")]
    bar, menu = header.split('data-testid="site-menu"', 1)
    assert [testid for testid in on_bar if f'data-testid="{testid}"' in bar] == on_bar
    assert [testid for testid in in_menu if f'data-testid="{testid}"' in menu] == in_menu
    assert "<summary" in menu
