"""Puzzles from analysed games (gobang/services/puzzles): harvested and verified, served to
the right players, judged move by move, and rated once per try. A real database, the engine's
real threat search, a clock that never moves (the node allowances alone decide)."""

from __future__ import annotations

import time

import pytest
from flask import Flask
from sqlalchemy import func, select

from gobang.extensions import db
from gobang.models import Puzzle, PuzzleAttempt
from gobang.services.analysis.service import Viewer
from gobang.services.analysis.stored import save_analysis
from gobang.services.notices import ActionError
from gobang.settings import SettingsRefused, load_settings
from tests.support.analysis import MISSED_VCF
from tests.support.games import add_user, finish_game
from tests.support.puzzles import (
    FAR,
    RENJU_FORBIDDEN,
    RENJU_POSITION,
    VCF_LINE,
    VCF_MISSED_AT,
    VCF_POSITION,
    VCT_POSITION,
    analysed_game,
)

WAIT_SECONDS = 60.0


def count(model) -> int:
    return db.session.scalar(select(func.count()).select_from(model))


@pytest.fixture
def vcf_puzzle(app, env):
    """A freestyle puzzle from a stored analysis, and a solver from no game of it."""
    analysed_game(app, VCF_POSITION, VCF_MISSED_AT)
    solver = add_user(app, "solver")
    puzzle = env.puzzles.next(solver, None)
    return puzzle, solver


def refused(call, *args) -> str:
    with pytest.raises(ActionError) as found:
        call(*args)
    return found.value.code


# --- harvesting --------------------------------------------------------------------------

def test_a_stored_missed_vcf_makes_one_verified_puzzle(app, env):
    _, _, game_id = analysed_game(app, VCF_POSITION, VCF_MISSED_AT)
    assert env.puzzles.harvester.harvest() == 1
    puzzle = db.session.scalars(select(Puzzle)).one()
    assert (puzzle.game_id, puzzle.move_number, puzzle.attacker, puzzle.kind) == (
        game_id, VCF_MISSED_AT, "black", "vcf")
    assert [tuple(p) for p in puzzle.moves] == VCF_POSITION
    assert [tuple(p) for p in puzzle.line] == VCF_LINE


def test_an_analysis_is_harvested_once(app, env):
    analysed_game(app, VCF_POSITION, VCF_MISSED_AT)
    env.puzzles.harvester.harvest()
    assert env.puzzles.harvester.harvest() == 0
    assert count(Puzzle) == 1


def test_a_missed_win_the_threat_search_cannot_confirm_is_not_kept(app, env):
    # Move 4 of the same game: white to move in a quiet position, no forced win there.
    analysed_game(app, VCF_POSITION, 4)
    assert env.puzzles.harvester.harvest() == 0
    assert count(Puzzle) == 0


def test_a_stored_game_the_rules_refuse_is_passed_over(app, env):
    black, white = add_user(app, "ann"), add_user(app, "bo")
    moves = [(7, 7), (7, 7), (8, 8), (9, 9)]  # the second stone on a taken point
    game_id = finish_game(app, black, white, "black", "resign", moves=moves)
    reviews = [{"number": 3, "missed_win": {"kind": "vcf", "line": [[8, 8]]}}]
    save_analysis(game_id, {"moves": reviews, "players": {}})
    assert env.puzzles.harvester.harvest() == 0
    analysed_game(app, VCF_POSITION, VCF_MISSED_AT, names=("cy", "di"))
    assert env.puzzles.harvester.harvest() == 1  # the mark moved past the refused one


def test_a_real_analysis_of_a_game_with_a_missed_vcf_is_served_as_a_puzzle(app, env):
    black = add_user(app, "black_player")
    white = add_user(app, "white_player")
    game_id = finish_game(app, black, white, "black", "resign", moves=MISSED_VCF)
    env.analysis.request(game_id, Viewer(black))
    end = time.monotonic() + WAIT_SECONDS
    try:
        while env.analysis.view(game_id, Viewer(None))["status"] != "done":
            assert time.monotonic() < end, "the analysis did not finish in time"
            env.analysis.queue.wait(0.5)
            for _ in env.tick():
                pass
    finally:
        env.analysis.queue.close()
    served = env.puzzles.next(add_user(app, "third"), "freestyle")  # harvests first
    # The game's missed VCF is kept as it is; a second missed win later in the same game
    # may be kept too (the served one of them is the random source's choice).
    kept = {(p.move_number, p.kind): p.moves
            for p in db.session.scalars(select(Puzzle).where(Puzzle.game_id == game_id))}
    assert kept[(VCF_MISSED_AT, "vcf")] == [list(p) for p in VCF_POSITION], kept
    assert served["moves"] in list(kept.values())


# --- choosing ----------------------------------------------------------------------------

@pytest.mark.parametrize("player", [0, 1])
def test_a_player_is_never_served_a_puzzle_from_their_own_game(app, env, player):
    ids = analysed_game(app, VCF_POSITION, VCF_MISSED_AT)
    assert refused(env.puzzles.next, ids[player], None) == "not_found"


@pytest.mark.parametrize(("asked", "served"), [
    ("freestyle", True), (None, True), ("renju", False), ("standard", False)])
def test_the_ruleset_asked_for_is_the_one_served(app, env, asked, served):
    analysed_game(app, VCF_POSITION, VCF_MISSED_AT)
    solver = add_user(app, "solver")
    if served:
        assert env.puzzles.next(solver, asked)["ruleset"] == "freestyle"
    else:
        assert refused(env.puzzles.next, solver, asked) == "not_found"


def test_a_puzzle_tried_is_not_served_again(vcf_puzzle, env):
    puzzle, solver = vcf_puzzle
    env.puzzles.move(solver, puzzle["id"], [], list(FAR))
    assert refused(env.puzzles.next, solver, None) == "not_found"


def test_a_try_left_unfinished_is_served_again_with_its_line(vcf_puzzle, env):
    puzzle, solver = vcf_puzzle
    answer = env.puzzles.move(solver, puzzle["id"], [], list(VCF_LINE[0]))
    again = env.puzzles.next(solver, None)
    assert (again["id"], again["line"]) == (puzzle["id"], [list(VCF_LINE[0]), answer["reply"]])


def test_visitors_may_not_solve(env):
    assert refused(env.puzzles.next, None, None) == "unauthorized"


# --- judging -----------------------------------------------------------------------------

def test_the_forced_line_is_accepted_to_the_end(vcf_puzzle, env):
    puzzle, solver = vcf_puzzle
    line: list[list[int]] = []
    replies = []
    answer: dict = {}
    for attack in [VCF_LINE[0], VCF_LINE[2]]:
        answer = env.puzzles.move(solver, puzzle["id"], line, list(attack))
        assert answer["ok"] and not answer["solved"]
        replies.append(tuple(answer["reply"]))
        line += [list(attack), answer["reply"]]
    assert replies[0] == VCF_LINE[1]  # the four's forced block
    # An open four on column 8: the reply blocked one end, the other makes five.
    five = (3, 8) if replies[1] == (8, 8) else (8, 8)
    answer = env.puzzles.move(solver, puzzle["id"], line, list(five))
    assert (answer["ok"], answer["solved"], answer["reply"]) == (True, True, None)
    attempt = db.session.scalars(select(PuzzleAttempt)).one()
    assert (attempt.status, attempt.plies) == ("solved", 5)


@pytest.mark.parametrize("wrong", [FAR, (4, 8), (7, 3)])
def test_a_move_that_lets_the_win_go_fails_with_the_solution(vcf_puzzle, env, wrong):
    puzzle, solver = vcf_puzzle
    answer = env.puzzles.move(solver, puzzle["id"], [], list(wrong))
    assert (answer["ok"], answer["error"]) == (False, "wrong_move")
    assert answer["solution"] == [list(p) for p in VCF_LINE]
    assert (answer["rating"]["solved"], answer["rating"]["failed"]) == (0, 1)


def test_a_failed_try_is_recorded_once(vcf_puzzle, env):
    puzzle, solver = vcf_puzzle
    env.puzzles.move(solver, puzzle["id"], [], list(FAR))
    assert refused(env.puzzles.move, solver, puzzle["id"], [], list(FAR)) == "conflict"
    attempt = db.session.scalars(select(PuzzleAttempt)).one()
    assert attempt.status == "failed"
    assert env.puzzles.standing(solver)["failed"] == 1


def test_a_renju_forbidden_move_is_refused_and_nothing_recorded(app, env):
    from gobang.rules import Game, forbidden_kind

    game = Game.replay(RENJU_POSITION, "renju")
    assert forbidden_kind(game.board, *RENJU_FORBIDDEN) is not None  # the set-up holds
    analysed_game(app, RENJU_POSITION, len(RENJU_POSITION) + 1, ruleset="renju")
    solver = add_user(app, "solver")
    puzzle = env.puzzles.next(solver, "renju")
    assert puzzle["attacker"] == "black"
    code = refused(env.puzzles.move, solver, puzzle["id"], [], list(RENJU_FORBIDDEN))
    assert code == "forbidden_move"
    assert count(PuzzleAttempt) == 0


@pytest.mark.parametrize(("moves", "move"), [
    ([], [7]), ([], [7, 15]), ([], "h8"), ([], [True, 3]), ([[7, 8]], [4, 8]),
    ([], list(VCF_POSITION[0])), ("[]", [7, 8])])
def test_bad_input_is_refused_and_nothing_recorded(vcf_puzzle, env, moves, move):
    puzzle, solver = vcf_puzzle
    assert refused(env.puzzles.move, solver, puzzle["id"], moves, move) == "bad_request"
    assert count(PuzzleAttempt) == 0


# --- ratings -----------------------------------------------------------------------------

@pytest.mark.parametrize(("moves", "sign"), [(["solve"], 1), ([FAR], -1)])
def test_ratings_move_once_per_try_in_the_right_direction(vcf_puzzle, env, moves, sign):
    puzzle, solver = vcf_puzzle
    start = env.puzzles.standing(solver)["rating"]
    own_start = db.session.get(Puzzle, puzzle["id"]).rating
    if moves == ["solve"]:
        line: list[list[int]] = []
        for attack in [VCF_LINE[0], VCF_LINE[2]]:
            reply = env.puzzles.move(solver, puzzle["id"], line, list(attack))["reply"]
            line += [list(attack), reply]
        five = [3, 8] if line[-1] == [8, 8] else [8, 8]
        answer = env.puzzles.move(solver, puzzle["id"], line, five)
    else:
        answer = env.puzzles.move(solver, puzzle["id"], [], list(FAR))
    after = env.puzzles.standing(solver)["rating"]
    assert sign * (after - start) > 0
    assert answer["rating"]["after"] == after
    db.session.expire_all()
    stored = db.session.get(Puzzle, puzzle["id"])
    assert sign * (stored.rating - own_start) < 0
    assert stored.attempts == 1
    attempt = db.session.scalars(select(PuzzleAttempt)).one()
    assert round(attempt.rating_before) == start and round(attempt.rating_after) == after


# --- settings ----------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "value"), [
    ("PUZZLE_JUDGE_NODES", 500_000), ("PUZZLE_VERIFY_NODES", 50), ("PUZZLE_SECONDS", 0),
    ("PUZZLE_HARVEST_BATCH", 0)])
def test_unsafe_puzzle_settings_stop_the_start(tmp_path, monkeypatch, name, value):
    monkeypatch.delenv("GOBANG_REDIS_URL", raising=False)
    monkeypatch.setenv(f"GOBANG_{name}", str(value))
    probe = Flask("probe", instance_path=str(tmp_path / "instance"),
                  instance_relative_config=True)
    with pytest.raises(SettingsRefused, match=name):
        load_settings(probe, None)


def test_a_vct_puzzle_is_won_against_the_engines_defence(app, env):
    """The solver here is the engine's own forced-win search, move after move; each reply is
    the server's defence, which after an open three has a choice."""
    from gobang.ai.budget import Budget
    from gobang.ai.evaluation import forced_win
    from gobang.ai.position import Position
    from gobang.rules import SIZE

    analysed_game(app, VCT_POSITION, len(VCT_POSITION) + 1)
    solver = add_user(app, "solver")
    puzzle = env.puzzles.next(solver, None)
    assert (puzzle["kind"], puzzle["attacker"]) == ("vct", "black")
    line: list[list[int]] = []
    for _ in range(10):
        pos = Position("freestyle")
        for row, col in [*VCT_POSITION, *line]:
            pos.play(row * SIZE + col)
        win = forced_win(pos, pos.to_move, Budget(50_000, float("inf"), lambda: 0.0))
        assert win is not None
        move = list(divmod(win.line[0], SIZE))
        answer = env.puzzles.move(solver, puzzle["id"], line, move)
        assert answer["ok"], answer
        if answer["solved"]:
            break
        line += [move, answer["reply"]]
    assert answer["solved"]
