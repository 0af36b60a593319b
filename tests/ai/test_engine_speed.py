"""bench/engine_speed.py: positions from a match file's games, and searches that end by
nodes or depth alone, so that two runs of one engine agree on everything but the CPU."""

from __future__ import annotations

import json

from bench import engine_speed

GAME = {"key": "k", "ruleset": "freestyle",
        "record": [[7, 7], [8, 8], [7, 9], [9, 7], [5, 5], [10, 10], [3, 8], [11, 4], [4, 11],
                   [12, 12], [2, 2], [13, 2], [1, 13], [12, 6], [6, 12], [2, 10], [9, 1]]}


def match_file(tmp_path, *games):
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(game) + "\n" for game in games))
    return path


def test_positions_are_every_nth_of_each_game_of_the_ruleset_from_the_twelfth_stone(tmp_path):
    renju = {**GAME, "key": "r", "ruleset": "renju"}
    path = match_file(tmp_path, renju, GAME)
    found = engine_speed.positions(str(path), "freestyle", count=5, every=2)
    points = [y * 15 + x for x, y in GAME["record"]]
    assert found == [points[:12], points[:14]]


def test_the_same_engine_makes_the_same_moves_with_the_same_nodes(tmp_path):
    stones = engine_speed.positions(str(match_file(tmp_path, GAME)), "freestyle", 2, 2)
    first, second = (engine_speed.measure(stones, "freestyle", 6) for _ in range(2))
    assert first["nodes"] > 0
    assert (first["positions"], first["nodes"], first["moves"]) == (
        second["positions"], second["nodes"], second["moves"])
