"""Profiles (`/u/<name>`), the leaderboard and the hall's top ten, over HTTP."""

from __future__ import annotations

import re

import pytest
from flask import render_template

from gobang.extensions import db
from gobang.models import CategoryRating
from gobang.services.history.players import hall_summary, score_chart
from tests.support.forms import register
from tests.support.games import add_user, delete_user, finish_game, set_columns, user_id
from tests.support.html import by_testid, section, text, texts


def page_of(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return response.get_data(as_text=True)


@pytest.fixture
def alice_and_bob(app, client) -> tuple[int, int]:
    """alice registered and logged in; bob an opponent row."""
    register(client, "alice")
    return user_id(app, "alice"), add_user(app, "bob")


@pytest.fixture
def alice_played(app, alice_and_bob) -> list[int]:
    """alice: a win as black, a loss as white, a draw as black; oldest first."""
    alice, bob = alice_and_bob
    return [
        finish_game(app, alice, bob, "black", "five"),
        finish_game(app, bob, alice, "black", "resign"),
        finish_game(app, alice, bob, None, "draw_agreed"),
    ]


# ---------- profile ----------

def test_profile_shows_the_counters(client, alice_played):
    page = page_of(client, "/u/alice")
    stats = {key: text(page, f"profile-{key}")
             for key in ("username", "score", "games", "wins", "losses", "draws", "win-rate")}
    # +30, then -35 (from 1030 against 970), then +1 for a draw against the higher-rated bob.
    assert stats == {"username": "alice", "score": "996", "games": "3", "wins": "1",
                     "losses": "1", "draws": "1", "win-rate": "33%"}


def test_profile_shows_a_provisional_rating_per_category(app, client, alice_played):
    ratings = by_testid(page_of(client, "/u/alice"), "profile-rating")
    assert [(r.attrs["data-category"], r.attrs["data-provisional"]) for r in ratings] == [
        ("freestyle:untimed", "true")]
    assert re.fullmatch(r"freestyle untimed 1\d{3}\? 3 games", ratings[0].text)


def test_a_casual_game_is_marked_casual_and_left_out_of_the_score_chart(app, client,
                                                                       alice_and_bob):
    alice, bob = alice_and_bob
    finish_game(app, alice, bob, "black", "five")
    finish_game(app, alice, bob, "black", "five", rated=False)
    page = page_of(client, "/u/alice")
    cells = by_testid(page, "game-score-change")
    assert [(cell.text, cell.attrs.get("data-casual")) for cell in cells] == [
        ("Casual", "true"), ("+30", None)]
    assert len(by_testid(section(page, "score-history"), "chart-point")) == 1


@pytest.mark.parametrize(("rated", "mark"), [(True, []), (False, ["Casual"])])
def test_the_replay_says_casual_for_a_casual_game(app, client, alice_and_bob, rated, mark):
    game_id = finish_game(app, *alice_and_bob, "black", "five", rated=rated)
    assert texts(page_of(client, f"/game/{game_id}/replay"), "unrated-mark") == mark


def test_another_players_profile_offers_to_challenge_them_in_the_hall(client, alice_and_bob):
    page = page_of(client, "/u/bob")
    (link,) = by_testid(page, "profile-challenge")
    assert (link.text, link.attrs["href"]) == ("Challenge bob", "/hall?challenge=bob")


def test_no_challenge_on_ones_own_profile_or_for_a_visitor(app, client, alice_and_bob):
    assert by_testid(page_of(client, "/u/alice"), "profile-challenge") == []
    assert by_testid(page_of(app.test_client(), "/u/bob"), "profile-challenge") == []


def test_the_profile_draws_each_categorys_rating_over_its_games(app, client, alice_and_bob):
    alice, bob = alice_and_bob
    finish_game(app, alice, bob, "black", "five")
    finish_game(app, alice, bob, "black", "five", rated=False)  # moved no rating
    finish_game(app, bob, alice, "black", "resign")
    page = page_of(client, "/u/alice")
    (chart,) = by_testid(page, "rating-chart")
    assert chart.attrs["data-category"] == "freestyle:untimed"
    svg = re.search(r'<svg class="score-chart" data-testid="rating-chart-svg".*?</svg>', page,
                    re.S).group(0)
    assert svg.count('data-testid="chart-point"') == 2
    assert re.search(r"Rating in freestyle untimed after each of 2 games, from 1500 to 1\d{3}",
                     svg)


def test_profile_without_rated_games_lists_no_ratings(client, alice_and_bob):
    page = page_of(client, "/u/alice")
    assert by_testid(page, "profile-ratings") == by_testid(page, "rating-chart") == []


@pytest.mark.parametrize("path", ["/u/ALICE", "/u/Alice", "/u/alice"])
def test_profile_lookup_ignores_case(client, alice_and_bob, path):
    assert text(page_of(client, path), "profile-username") == "alice"


def test_profile_without_games_has_no_chart_and_no_win_rate(client, alice_and_bob):
    page = page_of(client, "/u/bob")
    assert text(page, "profile-win-rate") == "–"
    assert by_testid(page, "score-chart") == []
    assert text(page, "no-games") == "No finished games yet."


@pytest.mark.parametrize("path", ["/u/nobody", "/u/deleted%20user", "/u/carol"])
def test_unknown_or_deleted_profile_is_404(app, client, path):
    register(client, "carol")
    delete_user(app, "carol")
    response = client.get(path)
    assert response.status_code == 404
    assert "Page not found" in response.get_data(as_text=True)


def test_profile_chart_has_one_point_per_scored_game(app, client, alice_and_bob, alice_played):
    alice, bob = alice_and_bob
    finish_game(app, alice, bob, None, "aborted")  # no score change, no point
    page = page_of(client, "/u/alice")
    assert len(by_testid(page, "score-chart")) == 1
    points = by_testid(section(page, "score-history"), "chart-point")
    assert [p.text for p in points] == ["Game 1: 1030", "Game 2: 995", "Game 3: 996"]


def test_profile_chart_is_svg_without_inline_style_or_script(client, alice_played):
    page = page_of(client, "/u/alice")
    svg = re.search(r"<svg class=\"score-chart\".*?</svg>", page, re.S).group(0)
    assert "style=" not in svg and "<script" not in svg and "<style" not in svg
    assert "<polyline" in svg


@pytest.mark.parametrize(
    ("scores", "highest_index", "lowest_index"),
    [([1030, 999, 1000], 0, 1), ([970, 1000, 1040, 1010], 2, 0), ([1000], 0, 0)],
)
def test_score_chart_puts_higher_scores_higher_and_games_left_to_right(
    scores, highest_index, lowest_index
):
    chart = score_chart(scores)
    ys = [p["y"] for p in chart["points"]]
    xs = [p["x"] for p in chart["points"]]
    assert len(chart["points"]) == len(scores)
    assert ys.index(min(ys)) == highest_index  # SVG y grows downwards
    assert ys.index(max(ys)) == lowest_index
    assert xs == sorted(xs) and len(set(xs)) == len(xs)
    assert all(chart["top"] <= y <= chart["bottom"] for y in ys)


def test_profile_lists_recent_games_newest_first(client, alice_played):
    page = page_of(client, "/u/alice")
    rows = list(zip(texts(page, "game-opponent"), texts(page, "game-color"),
                    texts(page, "game-result"), texts(page, "game-reason"),
                    texts(page, "game-score-change"), strict=True))
    assert rows == [
        ("bob", "black", "draw", "draw agreed", "+1"),
        ("bob", "white", "loss", "resignation", "-35"),
        ("bob", "black", "win", "five in a row", "+30"),
    ]
    assert [e.attrs["data-reason"] for e in by_testid(page, "game-reason")] == [
        "draw_agreed", "resign", "five"]


def test_the_profile_lists_each_games_ruleset_and_clock(app, client, alice_and_bob):
    finish_game(app, *alice_and_bob, "black", "five", ruleset="renju", clock=(600, 5))
    finish_game(app, *alice_and_bob, "black", "resign", clock=(180, 2))
    finish_game(app, *alice_and_bob, "white", "resign")
    page = page_of(client, "/u/alice")
    header = [cell.text for cell in by_testid(page, "games-column")]
    assert header[:6] == ["Opponent", "Colour", "Ruleset", "Clock", "Result", "Reason"]
    assert list(zip(texts(page, "game-ruleset"), texts(page, "game-clock"), strict=True)) == [
        ("freestyle", "No clock"), ("freestyle", "3+2"), ("renju", "10+5")]


def test_each_recent_game_links_to_its_replay(client, alice_played):
    page = page_of(client, "/u/alice")
    links = [e.attrs["href"] for e in by_testid(page, "replay-link")]
    assert links == [f"/game/{game_id}/replay" for game_id in reversed(alice_played)]


def test_aborted_game_is_listed_without_score_change(app, client, alice_and_bob):
    finish_game(app, *alice_and_bob, None, "aborted")
    page = page_of(client, "/u/alice")
    assert texts(page, "game-result") == ["aborted"]
    assert texts(page, "game-score-change") == ["±0"]
    assert text(page, "profile-games") == "0"


def test_a_game_without_moves_offers_no_replay(app, client, alice_and_bob):
    played = finish_game(app, *alice_and_bob, "white", "resign", moves=[(7, 7)])
    finish_game(app, *alice_and_bob, None, "aborted", moves=[])
    page = page_of(client, "/u/alice")
    assert len(by_testid(page, "game-row")) == 2
    assert [e.attrs["href"] for e in by_testid(page, "replay-link")] == [
        f"/game/{played}/replay"]


def test_deleted_opponent_is_named_but_not_linked(app, client, alice_and_bob, alice_played):
    delete_user(app, "bob")
    page = page_of(client, "/u/alice")
    assert set(texts(page, "game-opponent")) == {"deleted user"}
    assert 'href="/u/deleted' not in page


@pytest.fixture
def alice_played_25(app, alice_and_bob) -> list[int]:
    alice, bob = alice_and_bob
    return [finish_game(app, alice, bob, "black", "resign") for _ in range(25)]


@pytest.mark.parametrize(
    ("query", "rows", "newest"),
    [("", 20, True), ("?page=1", 20, True), ("?page=2", 5, False)],
)
def test_recent_games_are_paginated_by_twenty(client, alice_played_25, query, rows, newest):
    page = page_of(client, "/u/alice" + query)
    ids = [int(e.attrs["data-game-id"]) for e in by_testid(page, "game-row")]
    assert len(ids) == rows
    assert (alice_played_25[-1] in ids) is newest
    assert (alice_played_25[0] in ids) is not newest


@pytest.mark.parametrize("page", ["abc", "0", "-1", "", "1.5", "٢", "%00"])
def test_bad_page_number_gives_page_one(client, alice_played_25, page):
    body = page_of(client, f"/u/alice?page={page}")
    assert len(by_testid(body, "game-row")) == 20
    assert text(body, "pager-status") == "Page 1 of 2"


@pytest.mark.parametrize("page", ["3", "99999999999999999999999"])
def test_page_past_the_end_is_404(client, alice_played_25, page):
    assert client.get(f"/u/alice?page={page}").status_code == 404


def test_pager_links_keep_to_the_profile(client, alice_played_25):
    first = page_of(client, "/u/alice")
    assert by_testid(first, "pager-next")[0].attrs["href"] == "/u/alice?page=2"
    assert by_testid(first, "pager-prev") == []
    second = page_of(client, "/u/alice?page=2")
    assert by_testid(second, "pager-prev")[0].attrs["href"] == "/u/alice?page=1"
    assert by_testid(second, "pager-next") == []


# ---------- leaderboard ----------

def ranked(app, name: str, score: int, games: int = 5, wins: int = 0, **kw: object) -> int:
    return add_user(app, name, score=score, games=games, wins=wins, losses=games - wins, **kw)


def board_rows(page: str) -> list[tuple[str, str, str, str, str]]:
    return list(zip(texts(page, "leader-rank"), texts(page, "leader-name"),
                    texts(page, "leader-score"), texts(page, "leader-games"),
                    texts(page, "leader-win-rate"), strict=True))


def test_leaderboard_ranks_by_score_with_games_and_win_rate(app, client):
    ranked(app, "low", 950, games=8, wins=2)
    ranked(app, "top", 1200, games=10, wins=9)
    ranked(app, "mid", 1100, games=6, wins=4)
    assert board_rows(page_of(client, "/leaderboard")) == [
        ("1", "top", "1200", "10", "90%"),
        ("2", "mid", "1100", "6", "67%"),
        ("3", "low", "950", "8", "25%"),
    ]


def test_equal_scores_share_a_rank(app, client):
    for name, score in (("a1", 1100), ("b2", 1050), ("c3", 1050), ("d4", 1000)):
        ranked(app, name, score)
    assert texts(page_of(client, "/leaderboard"), "leader-rank") == ["1", "2", "2", "4"]


@pytest.mark.parametrize(
    ("games", "deleted", "listed"),
    [(4, False, False), (5, False, True), (40, False, True), (40, True, False), (0, False, False)],
)
def test_leaderboard_needs_five_games_and_a_live_account(app, client, games, deleted, listed):
    ranked(app, "anchor", 900)
    ranked(app, "tested", 1500, games=games, deleted=deleted)
    names = texts(page_of(client, "/leaderboard"), "leader-name")
    assert ("tested" in names) is listed


def test_real_games_put_a_player_on_the_board_after_five(app, client, alice_and_bob):
    alice, bob = alice_and_bob
    for played in range(1, 6):
        finish_game(app, alice, bob, "black", "five")
        names = texts(page_of(client, "/leaderboard"), "leader-name")
        assert names == (["alice", "bob"] if played == 5 else [])


def test_viewer_own_row_is_highlighted(app, client):
    register(client, "alice")
    ranked(app, "top", 1300)
    set_columns(app, "alice", games=7, wins=4, score=1100)
    page = page_of(client, "/leaderboard")
    rows = by_testid(page, "leader-row")
    assert [(r.attrs["data-username"], "me" in r.attrs.get("class", "")) for r in rows] == [
        ("top", False), ("alice", True)]
    assert text(page, "my-rank").startswith("Your rank: 2")


def test_anonymous_or_unranked_viewer_has_no_highlight(app, client):
    ranked(app, "top", 1300)
    anonymous = page_of(client, "/leaderboard")
    register(client, "alice")
    unranked = page_of(client, "/leaderboard")
    for page in (anonymous, unranked):
        assert all("me" not in r.attrs.get("class", "") for r in by_testid(page, "leader-row"))
        assert by_testid(page, "my-rank") == []


@pytest.fixture
def fifty_five_ranked(app) -> None:
    for n in range(55):
        ranked(app, f"p{n:02d}", 2000 - n)


@pytest.mark.parametrize(
    ("query", "first", "last", "count"),
    [("", "1", "50", 50), ("?page=2", "51", "55", 5), ("?page=x", "1", "50", 50)],
)
def test_leaderboard_is_paginated_by_fifty(client, fifty_five_ranked, query, first, last, count):
    ranks = texts(page_of(client, "/leaderboard" + query), "leader-rank")
    assert (ranks[0], ranks[-1], len(ranks)) == (first, last, count)


@pytest.mark.parametrize("query", ["?page=3", "?page=1000000000000000000000"])
def test_leaderboard_page_past_the_end_is_404(client, fifty_five_ranked, query):
    assert client.get("/leaderboard" + query).status_code == 404


def test_empty_leaderboard_is_a_page_not_an_error(client):
    page = page_of(client, "/leaderboard")
    assert text(page, "leaderboard-empty") == "Nobody is ranked yet."
    assert client.get("/leaderboard?page=2").status_code == 404


def test_viewer_ranked_on_a_later_page_gets_a_link_to_it(app, client, fifty_five_ranked):
    register(client, "alice")
    set_columns(app, "alice", games=5, score=1)
    page = page_of(client, "/leaderboard")
    assert text(page, "my-rank") == "Your rank: 56 · show me"
    assert 'href="/leaderboard?page=2"' in page


# ---------- the leaderboard of a category ----------

def rated(app, name: str, category: str, rating: float, deviation: float = 60.0,
          games: int = 30, **user_columns: object) -> int:
    """A player with a rating in `category` (settled: deviation 60, unless told)."""
    user = add_user(app, name, **user_columns)
    with app.app_context():
        db.session.add(CategoryRating(user_id=user, category=category, rating=rating,
                                      deviation=deviation, volatility=0.06, games=games))
        db.session.commit()
    return user


def category_rows(page: str) -> list[tuple[str, str, str, str]]:
    return list(zip(texts(page, "leader-rank"), texts(page, "leader-name"),
                    texts(page, "leader-rating"), texts(page, "leader-games"), strict=True))


def test_a_category_ranks_settled_ratings_best_first_sharing_equal_ones(app, client):
    rated(app, "mid", "renju:blitz", 1650.2)
    rated(app, "top", "renju:blitz", 1802.4, games=80)
    rated(app, "tie", "renju:blitz", 1649.9, games=12)
    assert category_rows(page_of(client, "/leaderboard/renju:blitz")) == [
        ("1", "top", "1802", "80"), ("2", "mid", "1650", "30"), ("2", "tie", "1650", "12")]


@pytest.mark.parametrize(("deviation", "columns", "listed"), [
    (75.0, {}, True), (75.1, {}, False), (200.0, {}, False),
    (60.0, {"deleted": True}, False), (60.0, {"computer_level": 4}, False)])
def test_a_category_lists_only_settled_ratings_of_live_players(app, client, deviation, columns,
                                                               listed):
    rated(app, "anchor", "renju:blitz", 1500)
    rated(app, "tested", "renju:blitz", 1900, deviation=deviation, **columns)
    names = texts(page_of(client, "/leaderboard/renju:blitz"), "leader-name")
    assert ("tested" in names) is listed


def test_the_tabs_are_all_games_then_each_category_with_ranked_players(app, client):
    rated(app, "ann", "renju:blitz", 1600)
    rated(app, "bo", "freestyle:rapid", 1600)
    rated(app, "cy", "standard:bullet", 1600, deviation=300)
    for path, current in (("/leaderboard", ""), ("/leaderboard/renju:blitz", "renju:blitz")):
        tabs = by_testid(page_of(client, path), "board-tab")
        assert [tab.attrs["data-category"] for tab in tabs] == [
            "", "freestyle:rapid", "renju:blitz"]
        assert [tab.attrs["data-category"] for tab in tabs
                if tab.attrs.get("aria-current") == "page"] == [current]


def test_a_category_nobody_is_ranked_in_is_an_empty_board(client):
    page = page_of(client, "/leaderboard/standard:classical")
    assert text(page, "leaderboard-empty") == "Nobody is ranked yet."


@pytest.mark.parametrize("path", ["/leaderboard/renju", "/leaderboard/chess:blitz",
                                  "/leaderboard/renju:slow", "/leaderboard/renju:blitz?page=2"])
def test_a_name_that_is_no_category_or_a_page_past_the_end_is_404(client, path):
    assert client.get(path).status_code == 404


# ---------- the hall's top ten ----------

def test_hall_summary_gives_the_top_ten_and_the_viewer_rank(app):
    ids = [ranked(app, f"p{n:02d}", 2000 - n) for n in range(12)]
    with app.app_context():
        summary = hall_summary(ids[11])
    assert [row["username"] for row in summary["top"]] == [f"p{n:02d}" for n in range(10)]
    assert summary["top"][0] == {"rank": 1, "id": ids[0], "username": "p00", "score": 2000,
                                 "games": 5, "win_rate": 0}
    assert summary["my_rank"] == 12


def test_hall_summary_of_an_unranked_viewer_has_no_rank(app):
    viewer = add_user(app, "newbie")
    with app.app_context():
        assert hall_summary(viewer)["my_rank"] is None
        assert hall_summary(None) == {"top": [], "my_rank": None}


@pytest.mark.parametrize(("my_rank", "expected"), [(3, "Your rank: 3"), (None, "Finish 5")])
def test_top10_include_renders_rows_and_rank(app, my_rank, expected):
    top = [{"rank": n, "username": f"p{n}", "score": 1100 - n, "games": 5} for n in (1, 2)]
    with app.test_request_context("/hall"):
        html = render_template("players/_top10.html", top=top, my_rank=my_rank)
    assert texts(html, "top10-row") == ["1. p1 1099 · 5 games", "2. p2 1098 · 5 games"]
    assert text(html, "top10-my-rank").startswith(expected)
