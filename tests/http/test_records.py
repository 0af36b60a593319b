"""The replay page and the record downloads, over HTTP; records are parsed back to moves."""

from __future__ import annotations

import json
import re

import pytest

from gobang.rules import from_notation
from tests.support.games import BLACK_FIVE, finish_game, start_game
from tests.support.html import by_testid, text

# Every corner and the centre, so a swapped x and y or an off-by-one cannot round-trip.
CORNERS = [(0, 0), (0, 14), (14, 0), (14, 14), (7, 7), (3, 11)]


def parse_txt(body: str) -> tuple[dict[str, str], list[tuple[int, int]]]:
    """`# Key: value` header lines, then one move per line in notation."""
    header, moves = {}, []
    for line in body.splitlines():
        if line.startswith("# "):
            key, _, value = line[2:].partition(": ")
            header[key] = value
        elif line.strip():
            moves.append(from_notation(line.strip()))
    return header, moves


_PSQ_HEADER = re.compile(r"Piskvorky (\d+)x(\d+), (\d+):(\d+), ([01])")
_PSQ_MOVE = re.compile(r"(\d+),(\d+),(\d+)")


def parse_psq(body: str) -> tuple[tuple[int, ...], list[tuple[int, int]], list[int], list[str]]:
    """Header numbers, moves as (row, col), think times, and the trailer lines after the moves,
    read the way Piskvork's openPsq() does: 1-based `x,y,time`, x the column."""
    lines = body.splitlines()
    header = _PSQ_HEADER.fullmatch(lines[0])
    assert header, lines[0]
    moves, times, index = [], [], 1
    while index < len(lines) and (move := _PSQ_MOVE.fullmatch(lines[index])):
        x, y, spent = (int(part) for part in move.groups())
        moves.append((y - 1, x - 1))
        times.append(spent)
        index += 1
    return tuple(int(n) for n in header.groups()), moves, times, lines[index:]


# ---------- replay page ----------

def test_replay_page_carries_the_moves_and_the_line(client, won_game):
    response = client.get(f"/game/{won_game}/replay")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    root = re.search(r"<div class=\"replay\" id=\"replay\"[^>]*>", page).group(0)
    moves = json.loads(re.search(r"data-moves='([^']*)'", root).group(1))
    line = json.loads(re.search(r"data-line='([^']*)'", root).group(1))
    assert moves == [list(m) for m in BLACK_FIVE]
    assert line == [[7, 3], [7, 4], [7, 5], [7, 6], [7, 7]]


def test_replay_page_shows_result_reason_players_and_controls(client, won_game):
    page = client.get(f"/game/{won_game}/replay").get_data(as_text=True)
    assert text(page, "replay-result") == "Black wins"
    assert text(page, "replay-reason") == "Five in a row"
    assert (text(page, "name-black"), text(page, "name-white")) == ("alice", "bob")
    assert (text(page, "score-change-black"), text(page, "score-change-white")) == ("+30", "-30")
    for control in ("replay-first", "replay-back", "replay-forward", "replay-last",
                    "numbers-toggle", "move-counter"):
        assert len(by_testid(page, control)) == 1, control
    assert by_testid(page, "replay-link") == []  # no link to the page itself
    assert '<script src="/static/js/replay.js"' in page


@pytest.mark.parametrize(("cause", "color", "seconds", "said"), [
    ("no_first_move", "black", 30, "Black did not move in 30 s."),
    ("no_first_move", "white", 30, "White did not move in 30 s."),
    ("no_show", "white", 30, "White did not come to the game in 30 s."),
    ("no_show", "black", 30, "Black did not come to the game in 30 s."),
    ("no_show", None, 30, "Neither player came to the game in 30 s."),
    ("both_left", None, None, "Both players left the game."),
    ("host", None, None, "The server's host aborted the game."),
    ("not_started", None, None, "The game could not be started."),
])
def test_the_replay_of_an_aborted_game_says_why(app, client, players, cause, color, seconds,
                                                said):
    why = {"cause": cause, "color": color, "seconds": seconds}
    game_id = finish_game(app, *players, None, "aborted", moves=[(7, 7)], abort=why)
    page = client.get(f"/game/{game_id}/replay").get_data(as_text=True)
    assert text(page, "replay-result") == "Aborted"
    assert text(page, "replay-reason") == said


def test_the_replay_of_a_game_aborted_before_causes_were_kept_gives_none(app, client, players):
    game_id = finish_game(app, *players, None, "aborted", moves=[(7, 7)])
    page = client.get(f"/game/{game_id}/replay").get_data(as_text=True)
    assert text(page, "replay-result") == "Aborted"
    assert by_testid(page, "replay-reason") == []


def test_the_replay_of_a_game_without_moves_says_so_and_offers_no_steps(app, client, players):
    why = {"cause": "no_first_move", "color": "black", "seconds": 30}
    game_id = finish_game(app, *players, None, "aborted", moves=[], abort=why)
    page = client.get(f"/game/{game_id}/replay").get_data(as_text=True)
    assert text(page, "replay-no-moves") == "No moves were played in this game."
    assert text(page, "replay-reason") == "Black did not move in 30 s."
    for control in ("replay-first", "replay-forward", "download-txt"):
        assert by_testid(page, control) == []


def test_replay_page_needs_no_inline_script_or_style(client, won_game):
    page = client.get(f"/game/{won_game}/replay").get_data(as_text=True)
    assert "style=" not in page and "<style" not in page
    assert re.findall(r"<script(?![^>]*\bsrc=)", page) == []


def test_replay_of_unknown_game_is_404(client):
    assert client.get("/game/4242/replay").status_code == 404


@pytest.mark.parametrize("status", ["playing", "waiting"])
def test_replay_of_game_in_play_points_to_the_live_room(app, client, players, status):
    game_id = start_game(app, *players, BLACK_FIVE[:3], status=status)
    response = client.get(f"/game/{game_id}/replay")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "still going on" in text(page, "replay-not-ready")
    assert by_testid(page, "watch-live")[0].attrs["href"] == f"/game/{game_id}"
    assert "data-moves" not in page


# ---------- downloads ----------

@pytest.mark.parametrize(("suffix", "filename"), [("txt", "gobang-{}.txt"),
                                                  ("psq", "gobang-{}.psq")])
def test_download_is_an_attachment_with_a_filename(client, won_game, suffix, filename):
    response = client.get(f"/game/{won_game}/record.{suffix}")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="{filename.format(won_game)}"')


@pytest.mark.parametrize("suffix", ["txt", "psq"])
def test_download_of_unknown_game_is_404(client, suffix):
    assert client.get(f"/game/4242/record.{suffix}").status_code == 404


@pytest.mark.parametrize("suffix", ["txt", "psq"])
def test_download_of_game_in_play_is_404(app, client, players, suffix):
    game_id = start_game(app, *players, BLACK_FIVE[:3])
    assert client.get(f"/game/{game_id}/record.{suffix}").status_code == 404


def test_txt_record_parses_back_to_the_moves(app, client, players):
    game_id = finish_game(app, *players, "white", "resign", moves=CORNERS)
    _header, moves = parse_txt(client.get(f"/game/{game_id}/record.txt").get_data(as_text=True))
    assert moves == CORNERS


def test_txt_record_writes_centre_as_h8_and_top_left_as_a15(app, client, players):
    game_id = finish_game(app, *players, "white", "resign", moves=[(7, 7), (0, 0)])
    body = client.get(f"/game/{game_id}/record.txt").get_data(as_text=True)
    assert [line for line in body.splitlines() if not line.startswith("#")] == ["h8", "a15"]


@pytest.mark.parametrize(
    ("winner", "reason", "result"),
    [("black", "five", "black wins"), ("white", "timeout", "white wins"),
     (None, "draw_agreed", "draw"), (None, "aborted", "aborted")],
)
def test_txt_record_header(app, client, players, winner, reason, result):
    game_id = finish_game(app, *players, winner, reason, ruleset="renju")
    header, _moves = parse_txt(client.get(f"/game/{game_id}/record.txt").get_data(as_text=True))
    assert header["Black"].startswith("alice")
    assert header["White"].startswith("bob")
    assert (header["Ruleset"], header["Result"], header["Reason"]) == ("renju", result, reason)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", header["Date"])


def test_psq_record_parses_back_to_the_moves(app, client, players):
    game_id = finish_game(app, *players, "white", "resign", moves=CORNERS)
    _header, moves, _times, _trailer = parse_psq(
        client.get(f"/game/{game_id}/record.psq").get_data(as_text=True))
    assert moves == CORNERS


def test_psq_record_is_one_based_column_then_row(app, client, players):
    game_id = finish_game(app, *players, "white", "resign", moves=[(0, 14), (14, 0)])
    lines = client.get(f"/game/{game_id}/record.psq").get_data(as_text=True).splitlines()
    assert [line.rsplit(",", 1)[0] for line in lines[1:3]] == ["15,1", "1,15"]


def test_psq_header_says_15x15_two_humans_black_first(client, won_game):
    header, _moves, _times, _trailer = parse_psq(
        client.get(f"/game/{won_game}/record.psq").get_data(as_text=True))
    assert header == (15, 15, 0, 0, 0)


def test_psq_times_are_the_milliseconds_between_moves(client, won_game):
    # tests.support.games makes the moves one second apart, the first a second after the start.
    _header, _moves, times, _trailer = parse_psq(
        client.get(f"/game/{won_game}/record.psq").get_data(as_text=True))
    assert times == [1000] * len(BLACK_FIVE)


@pytest.mark.parametrize(("winner", "reason", "code"),
                         [("black", "five", "0"), ("black", "timeout", "15"),
                          (None, "draw_agreed", "0")])
def test_psq_trailer_names_the_players_then_the_finish_code(
    app, client, players, winner, reason, code
):
    game_id = finish_game(app, *players, winner, reason)
    _header, _moves, _times, trailer = parse_psq(
        client.get(f"/game/{game_id}/record.psq").get_data(as_text=True))
    assert trailer == ["homo-alice", "homo-bob", code]


def test_the_record_of_a_game_without_a_clock_says_so(app, client, players):
    game_id = finish_game(app, *players)
    record = client.get(f"/api/games/{game_id}").get_json()
    assert (record["clock"], record["clocks"]) == (None, None)
    assert client.get(f"/game/{game_id}/replay").status_code == 200
