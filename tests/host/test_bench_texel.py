"""The fit behind level 9's leaf (bench/texel): its samples, its regression and the module it
writes into the engine."""

from __future__ import annotations

import importlib.util
import json
import math
import random

import pytest

from bench.texel.fit import fit, log_loss, quiet, samples
from bench.texel.write import module
from gobang.ai.leaf import FEATURES, WIDTH
from gobang.ai.position import BLACK, WHITE, Position
from gobang.rules import SIZE

# Black makes five on row 7 while white plays along row 0: black wins at its ninth stone.
BLACK_WINS = [(7, 3), (0, 0), (7, 4), (0, 2), (7, 5), (0, 4), (7, 6), (0, 6), (7, 7)]


def game(record, a_black=True, score=1.0, ruleset="freestyle"):
    return {"ruleset": ruleset, "a_black": a_black, "score": score,
            "record": [list(point) for point in record]}


def test_only_quiet_positions_are_samples_each_with_the_result_for_the_side_to_move():
    found = samples([game(BLACK_WINS)], "freestyle", fouls=False)
    # From four stones on. After five, black's open three is quiet for white, who cannot make
    # a four; after six black could make an open four, after seven it has one, and so on.
    assert [(s.colour, s.result) for s in found] == [(BLACK, 1.0), (WHITE, 0.0)]
    assert [len(s.features) for s in found] == [2 * WIDTH] * 2


def test_a_game_of_another_ruleset_gives_nothing():
    assert samples([game(BLACK_WINS, ruleset="renju")], "freestyle", fouls=False) == []


@pytest.mark.parametrize(("a_black", "score", "black_result"), [
    (True, 1.0, 1.0), (False, 1.0, 0.0), (False, 0.0, 1.0), (True, 0.5, 0.5)])
def test_the_result_is_blacks_whoever_a_was(a_black, score, black_result):
    found = samples([game(BLACK_WINS, a_black, score)], "freestyle", fouls=False)
    assert {s.result for s in found if s.colour == BLACK} == {black_result}


def test_a_position_with_an_open_four_to_make_is_not_quiet():
    pos = Position("freestyle")
    for row, col in BLACK_WINS[:6]:  # black's open three, black to move
        pos.play(row * SIZE + col)
    assert not quiet(pos)
    pos.undo()
    assert quiet(pos)


def test_the_regression_finds_the_values_that_made_the_results():
    rng = random.Random(7)
    truth = [0.8, -0.5, 0.3]  # two features and a constant
    rows, labels = [], []
    for _ in range(4000):
        x = [float(rng.randint(0, 3)), float(rng.randint(0, 3)), 1.0]
        p = 1 / (1 + math.exp(-sum(b * v for b, v in zip(truth, x, strict=True))))
        rows.append(x)
        labels.append(1.0 if rng.random() < p else 0.0)
    found = fit(rows, labels, ridge=0.0)
    assert found == pytest.approx(truth, abs=0.12)
    assert log_loss(rows, labels, found) < log_loss(rows, labels, [0.0, 0.0, 0.3])


def test_a_feature_that_never_occurs_keeps_the_value_zero():
    rows = [[0.0, float(k % 3), 1.0] for k in range(300)]
    labels = [float(k % 2) for k in range(300)]
    assert fit(rows, labels, ridge=1.0)[0] == 0.0


def test_the_written_module_holds_black_values_from_one_fit_and_whites_from_another(tmp_path):
    def values(base):
        return {"own": [base + k for k in range(WIDTH)], "opp": [-base - k for k in range(WIDTH)]}

    black, white = tmp_path / "black.json", tmp_path / "white.json"
    black.write_text(json.dumps({"1": values(1.0), "2": values(50.0)}))
    white.write_text(json.dumps({"1": values(90.0), "2": values(3.0)}))
    target = tmp_path / "written.py"
    target.write_text(module(black, white))
    spec = importlib.util.spec_from_file_location("gobang.ai.written_for_test", target)
    written = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(written)
    assert written.WEIGHTS[BLACK] == (tuple(values(1.0)["own"]), tuple(values(1.0)["opp"]))
    assert written.WEIGHTS[WHITE] == (tuple(values(3.0)["own"]), tuple(values(3.0)["opp"]))
    assert all(name in target.read_text() for name in FEATURES)
