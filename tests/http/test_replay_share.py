"""The replay's sharing: the picture of a position (GET /game/<id>/position.png), the link to a
move (?move=N) with its Open Graph preview, the move list and the game's details in the header."""

from __future__ import annotations

import io
import struct
from urllib.parse import parse_qs, urlsplit

import pytest
from PIL import Image

from gobang.extensions import db
from gobang.models import Game
from gobang.services.history.board_image import PIXELS, VIEW
from tests.support.games import BLACK_FIVE, finish_game, start_game
from tests.support.html import by_testid, metas, text

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WOOD = (220, 176, 107)


def set_game(app, game_id: int, **columns: object) -> None:
    with app.app_context():
        game = db.session.get(Game, game_id)
        for key, value in columns.items():
            setattr(game, key, value)
        db.session.commit()


def picture(client, game_id: int, query: str = ""):
    return client.get(f"/game/{game_id}/position.png{query}")


def pixel(body: bytes, row: int, col: int, off: float = 0.0) -> tuple[int, int, int]:
    """The colour at point (row, col), or `off` board units right of it and below: off the
    grid's lines, still inside a stone."""
    unit = PIXELS / VIEW
    margin = (VIEW - 14) / 2
    image = Image.open(io.BytesIO(body)).convert("RGB")
    return image.getpixel((round((margin + col + off) * unit), round((margin + row + off) * unit)))


def near(color: tuple[int, int, int], wanted: tuple[int, int, int], by: int = 12) -> bool:
    return all(abs(a - b) <= by for a, b in zip(color, wanted, strict=True))


# ---------- the picture ----------

def test_the_picture_is_a_png_of_the_whole_board(client, won_game):
    response = picture(client, won_game)
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    body = response.get_data()
    assert body.startswith(PNG_SIGNATURE)
    width, height = struct.unpack(">II", body[16:24])  # IHDR, right after the signature
    assert (width, height) == (PIXELS, PIXELS)
    assert int(response.headers["Content-Length"]) == len(body)


def test_the_picture_shows_the_stones_played_by_then(client, won_game):
    empty = picture(client, won_game, "?move=0").get_data()
    one = picture(client, won_game, "?move=1").get_data()
    two = picture(client, won_game, "?move=2").get_data()
    # Just off the point, away from the grid's lines: wood, then a black stone (d8, (7, 3)).
    assert near(pixel(empty, 7, 3, off=0.25), WOOD)
    assert max(pixel(one, 7, 3, off=0.25)) < 60
    # Move 2 is white's, at a15 (0, 0); at move 1 it is not there yet.
    assert near(pixel(one, 0, 0, off=0.25), WOOD)
    assert min(pixel(two, 0, 0, off=0.25)) > 230


def test_the_last_move_is_marked_red(client, won_game):
    one = picture(client, won_game, "?move=1").get_data()
    two = picture(client, won_game, "?move=2").get_data()
    red = (229, 57, 53)
    assert near(pixel(one, 7, 3), red, by=30)
    assert max(pixel(two, 7, 3)) < 60  # no longer the last move: a plain black stone
    assert near(pixel(two, 0, 0), red, by=30)


def test_each_move_has_its_own_picture_and_none_is_the_final_one(client, won_game):
    bodies = [picture(client, won_game, f"?move={n}").get_data()
              for n in range(len(BLACK_FIVE) + 1)]
    assert len(set(bodies)) == len(bodies)
    assert picture(client, won_game).get_data() == bodies[-1]


@pytest.mark.parametrize("move", ["abc", "-1", "1.5", "", "3x", "10", "99999", "٣"])
def test_a_bad_move_is_refused_with_a_message(client, won_game, move):
    response = picture(client, won_game, f"?move={move}")
    assert response.status_code == 400
    assert response.mimetype == "text/plain"
    message = response.get_data(as_text=True)
    assert message == "The move must be a whole number from 0 to 9."
    assert "Traceback" not in message


def test_the_picture_of_an_unknown_game_is_404(client):
    assert picture(client, 4242).status_code == 404


@pytest.mark.parametrize("status", ["playing", "waiting", "paused"])
def test_no_picture_of_a_game_still_in_play(app, client, players, status):
    game_id = start_game(app, *players, BLACK_FIVE[:3], status=status)
    for query in ("", "?move=1", "?move=0"):
        assert picture(client, game_id, query).status_code == 404


def test_the_picture_may_be_cached_for_long_and_revalidated(client, won_game):
    response = picture(client, won_game, "?move=3")
    cache = response.cache_control
    assert cache.public and cache.max_age >= 30 * 24 * 3600
    assert not cache.no_store and not cache.private
    # The client is logged in: a shared cache must not keep (and hand on) its session cookie.
    assert "Set-Cookie" not in response.headers
    tag = response.headers["ETag"]
    again = client.get(f"/game/{won_game}/position.png?move=3", headers={"If-None-Match": tag})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == tag
    other = picture(client, won_game, "?move=4")
    assert other.headers["ETag"] != tag
    stale = client.get(f"/game/{won_game}/position.png?move=4", headers={"If-None-Match": tag})
    assert stale.status_code == 200 and stale.get_data().startswith(PNG_SIGNATURE)


def test_a_game_without_moves_has_an_empty_board(app, client, players):
    why = {"cause": "no_first_move", "color": "black", "seconds": 30}
    game_id = finish_game(app, *players, None, "aborted", moves=[], abort=why)
    body = picture(client, game_id).get_data()
    assert body.startswith(PNG_SIGNATURE)
    assert near(pixel(body, 7, 7, off=0.25), WOOD)
    assert picture(client, game_id, "?move=1").status_code == 400


# ---------- the replay page: link, preview, list, details ----------

def test_open_graph_preview_of_the_final_position(client, won_game):
    tags = metas(client.get(f"/game/{won_game}/replay").get_data(as_text=True))
    assert tags["og:title"] == "alice vs bob — Black wins"
    assert tags["og:url"] == f"http://localhost/game/{won_game}/replay"
    assert tags["og:image"] == f"http://localhost/game/{won_game}/position.png"
    assert tags["twitter:card"] == "summary_large_image"
    assert tags["og:type"] == "website"
    assert (tags["og:image:width"], tags["og:image:height"]) == (str(PIXELS), str(PIXELS))
    assert "Move 9 of 9" in tags["og:description"]
    assert tags["description"] == tags["og:description"]


def test_open_graph_preview_of_a_shared_move_shows_that_move(client, won_game):
    page = client.get(f"/game/{won_game}/replay?move=4").get_data(as_text=True)
    tags = metas(page)
    assert parse_qs(urlsplit(tags["og:url"]).query) == {"move": ["4"]}
    image = urlsplit(tags["og:image"])
    assert (image.scheme, image.netloc) == ("http", "localhost")
    assert parse_qs(image.query) == {"move": ["4"]}
    served = client.get(f"{image.path}?{image.query}")
    assert served.status_code == 200
    assert served.get_data() == picture(client, won_game, "?move=4").get_data()
    assert "Move 4 of 9" in tags["og:description"]
    assert by_testid(page, "share-link")[0].attrs["value"] == tags["og:url"]


def test_the_preview_names_the_clock_and_the_opening(app, client, players):
    game_id = finish_game(app, *players, "black", "five", clock=(600, 5))
    set_game(app, game_id, opening="swap2")
    page = client.get(f"/game/{game_id}/replay").get_data(as_text=True)
    assert text(page, "replay-clock") == "10+5"
    assert text(page, "replay-opening-rule") == "Swap2"
    assert text(page, "replay-ruleset") == "Freestyle"
    assert metas(page)["og:description"].startswith("Freestyle · 10+5 · Swap2 · ")


def test_a_game_without_clock_or_opening_says_so(client, won_game):
    page = client.get(f"/game/{won_game}/replay").get_data(as_text=True)
    assert text(page, "replay-clock") == "No clock"
    assert text(page, "replay-opening-rule") == "No opening rule"


def test_a_deleted_player_is_not_named_in_the_preview(app, client, players, won_game):
    from tests.support.games import delete_user

    delete_user(app, "bob")
    tags = metas(client.get(f"/game/{won_game}/replay").get_data(as_text=True))
    assert tags["og:title"] == "alice vs deleted user — Black wins"


def test_the_shared_move_is_where_the_page_opens(client, won_game):
    page = client.get(f"/game/{won_game}/replay?move=4").get_data(as_text=True)
    assert text(page, "move-counter") == "Move 4 of 9"
    links = [by_testid(page, f"move-{n}")[0] for n in range(1, 10)]
    assert [link.attrs.get("aria-current") for link in links] == [None] * 3 + ["step"] + [None] * 5
    assert 'data-start="4"' in page


@pytest.mark.parametrize("move", ["abc", "10", "-2"])
def test_a_mistyped_shared_move_opens_the_final_position(client, won_game, move):
    response = client.get(f"/game/{won_game}/replay?move={move}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert text(page, "move-counter") == "Move 9 of 9"
    assert metas(page)["og:image"] == f"http://localhost/game/{won_game}/position.png"


def test_the_move_list_links_each_move_to_its_position(client, won_game):
    page = client.get(f"/game/{won_game}/replay").get_data(as_text=True)
    links = [by_testid(page, f"move-{n}")[0] for n in range(1, 10)]
    assert [link.attrs["href"] for link in links] == [
        f"/game/{won_game}/replay?move={n}" for n in range(1, 10)]
    assert [link.text for link in links[:3]] == ["1. black d8", "2. white a15", "3. black e8"]
    assert links[-1].attrs["aria-current"] == "step"
    assert by_testid(page, "move-10") == []


def test_the_page_leaves_an_empty_place_for_the_evaluation_graph(client, won_game):
    page = client.get(f"/game/{won_game}/replay").get_data(as_text=True)
    graph = by_testid(page, "evaluation-graph")
    assert len(graph) == 1 and graph[0].text == "" and "hidden" in graph[0].attrs
