"""The brain speaks the Gomocup protocol: commands in, ``OK``/``x,y``/``ERROR``/``UNKNOWN`` out."""

from __future__ import annotations

import io
import random
import subprocess
import sys

import pytest

from gobang.ai.brain import ABOUT, Brain
from gobang.ai.search import Engine
from gobang.rules.openings import FIRST, SECOND, Choose, Opening, Place


def talk(*lines: str, level: int = 1, seed: int = 0) -> list[str]:
    """Answers of one brain session to ``lines`` (BOARD blocks given line by line)."""
    out = io.StringIO()
    brain = Brain(level, random.Random(seed), out)
    for line in lines:
        if not brain.handle(line):
            break
    return out.getvalue().splitlines()


def point(answer: str) -> tuple[int, int]:
    x, y = answer.split(",")
    return int(x), int(y)


def test_start_15_answers_ok():
    assert talk("START 15") == ["OK"]


@pytest.mark.parametrize("size", ["19", "20", "0", "", "fifteen"])
def test_start_with_another_size_is_an_error(size):
    [answer] = talk(f"START {size}")
    assert answer.startswith("ERROR ")


@pytest.mark.parametrize("command", ["FOO", "SWAP2 BOARD", "PLAY 1,2", "hello world"])
def test_unknown_command_answers_unknown(command):
    [answer] = talk("START 15", command)[1:]
    assert answer.startswith("UNKNOWN")


def test_about_names_the_engine():
    assert talk("ABOUT") == [ABOUT]


def test_info_gets_no_answer():
    assert talk("START 15", "INFO timeout_turn 5000", "INFO rule 4", "INFO folder /tmp") == ["OK"]


def searched_nodes(*lines: str) -> int:
    """Nodes the level-1 brain searched for its last answer, after ``lines``."""
    out = io.StringIO()
    brain = Brain(1, random.Random(0), out, stats=True)
    for line in ("START 15", *lines, "TURN 7,7"):
        brain.handle(line)
    debug = [line for line in out.getvalue().splitlines() if line.startswith("DEBUG")]
    return int(debug[-1].rsplit("nodes=", 1)[1])


def test_info_level_switches_the_level_and_an_unknown_one_is_ignored():
    assert searched_nodes() == 0  # level 1 searches nothing
    assert searched_nodes("INFO level 4") > 0
    assert searched_nodes("INFO level 10", "INFO level x") == 0


def test_begin_opens_at_the_centre():
    assert talk("START 15", "BEGIN")[1:] == ["7,7"]


def test_turn_is_answered_with_a_free_point_on_the_board():
    answers = talk("START 15", "TURN 7,7", "TURN 8,8", level=3)[1:]
    moves = [point(a) for a in answers]
    assert len(moves) == 2
    for x, y in moves:
        assert 0 <= x < 15 and 0 <= y < 15
    assert len({(7, 7), (8, 8), *moves}) == 4


def test_board_field_1_is_own_stone_and_the_engine_completes_its_five():
    # Own stones x=3..6 on row y=2, blocked on the left; opponent scattered.
    own = [f"{x},2,1" for x in (3, 4, 5, 6)]
    theirs = ["2,2,2", "10,10,2", "12,3,2", "0,14,2"]
    answers = talk("START 15", "BOARD", *own, *theirs, "DONE")
    assert answers[1:] == ["7,2"]


def test_board_field_2_is_opponent_and_the_engine_blocks_its_four():
    theirs = [f"9,{y},2" for y in (4, 5, 6, 7)] + ["1,1,2"]
    own = ["9,3,1", "0,14,1", "14,0,1", "14,14,1"]
    answers = talk("START 15", "BOARD", *theirs, *own, "DONE")
    assert answers[1:] == ["9,8"]


@pytest.mark.parametrize(
    "body",
    [
        ["1,1,1", "1,1,2"],  # the same point twice
        ["1,1,1", "2,2,1"],  # two own stones, none of the opponent's
        ["1,1,3"],  # a field we do not support
        ["1,1"],  # no field
        ["15,0,1"],  # off the board
    ],
    ids=["duplicate", "counts", "field-3", "no-field", "off-board"],
)
def test_impossible_board_is_an_error_and_leaves_the_game_as_it_was(body):
    answers = talk("START 15", "TURN 7,7", "BOARD", *body, "DONE", "TURN 7,7", level=1)
    assert answers[2].startswith("ERROR ")
    # The old game is still on: 7,7 is taken there.
    assert answers[3].startswith("ERROR ") and "occupied" in answers[3]


@pytest.mark.parametrize(
    ("turn", "why"),
    [("TURN 7,7", "occupied"), ("TURN 15,3", "off"), ("TURN -1,0", "off"), ("TURN a,b", "x,y")],
)
def test_bad_turn_is_an_error(turn, why):
    answers = talk("START 15", "TURN 7,7", turn)
    assert answers[2].startswith("ERROR ") and why in answers[2]


def test_commands_before_start_are_errors():
    [answer] = talk("TURN 7,7")
    assert answer.startswith("ERROR ")


def test_begin_on_a_board_with_stones_is_an_error():
    answers = talk("START 15", "TURN 7,7", "BEGIN")
    assert answers[2].startswith("ERROR ")


def test_restart_clears_the_board():
    assert talk("START 15", "TURN 3,3", "RESTART", "BEGIN")[2:] == ["OK", "7,7"]


def test_takeback_of_the_last_move_is_ok_and_frees_the_point():
    answers = talk("START 15", "BEGIN", "TAKEBACK 7,7", "TURN 7,7")
    assert answers[1:3] == ["7,7", "OK"]
    assert not answers[3].startswith("ERROR")


def test_end_stops_the_session():
    assert talk("START 15", "END", "BEGIN") == ["OK"]


def test_rule_4_makes_black_keep_off_a_forbidden_five_shape():
    # Black (own, to move) x=1,2,3 and 5,6 on row 7: 4,7 would be six in a row, an
    # overline, forbidden in renju and no win; in freestyle it wins at once.
    own = [f"{x},7,1" for x in (1, 2, 3, 5, 6)]
    theirs = ["14,14,2", "14,0,2", "0,14,2", "12,12,2", "12,2,2"]
    board = ["BOARD", *own, *theirs, "DONE"]
    assert talk("START 15", *board)[1] == "4,7"
    assert talk("START 15", "INFO rule 4", *board)[1] != "4,7"


def test_the_same_seed_plays_the_same_moves():
    lines = ["START 15", "TURN 7,7", "TURN 6,5", "TURN 9,9", "TURN 3,12"]
    assert talk(*lines, level=1, seed=5) == talk(*lines, level=1, seed=5)


def test_the_program_speaks_the_protocol_on_its_pipes():
    done = subprocess.run(
        [sys.executable, "-m", "gobang.ai.brain", "--level", "2", "--seed", "1"],
        input="START 15\nINFO rule 1\nBEGIN\nTURN 8,8\nWHAT\nEND\n",
        capture_output=True,
        text=True,
        timeout=30,
    )
    lines = done.stdout.splitlines()
    assert done.returncode == 0
    assert lines[:2] == ["OK", "7,7"]
    assert point(lines[2]) not in {(7, 7), (8, 8)}
    assert lines[3].startswith("UNKNOWN")


def test_the_program_refuses_an_unknown_level():
    done = subprocess.run(
        [sys.executable, "-m", "gobang.ai.brain", "--level", "10"],
        input="",
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode != 0 and "level" in done.stderr


# Renju, black to move, 112 stones each: the one empty point (x=11, y=3) is an overline.
NO_LEGAL_MOVE = [
    "XOXOXXOOXOOXOXX",
    "OXXOXXOXOXXXXOO",
    "XXXXOOOXXXXOXXO",
    "OOOOXOXOOXO.OOX",
    "OXXOXOXXOOOOXXX",
    "XOXOOOXOXXOXOXO",
    "XOOOXXOOOOXXOXX",
    "XOXXOOOXXOXOOOX",
    "XXOXXOXOXOOOOXX",
    "OOOXOXXXOXOXXOO",
    "OXOXXXOXOXOOXXO",
    "XXXOXOOXXOXOXOX",
    "OXXOXOOOXOXOOXX",
    "OOOOXXXOOXOOXXO",
    "XOXOOXOXOXXXOOO",
]


def test_black_with_only_forbidden_points_left_gets_an_error_not_a_move():
    stones = [
        f"{x},{y},{1 if ch == 'X' else 2}"
        for y, row in enumerate(NO_LEGAL_MOVE)
        for x, ch in enumerate(row)
        if ch != "."
    ]
    answers = talk("START 15", "INFO rule 4", "BOARD", *stones, "DONE")
    assert answers[1].startswith("ERROR ") and "no empty point" in answers[1]
    freestyle = talk("START 15", "BOARD", *stones, "DONE")
    assert freestyle[1] == "11,3"


# SWAP2BOARD: stones as x,y (column, row). Black's two touching stones against white's one in
# a corner, the other way round, and three the engine itself placed about evenly (level 8).
BLACK_AHEAD = ["7,7", "0,0", "8,7"]
WHITE_AHEAD = ["0,0", "7,7", "14,14"]
EVEN = ["6,6", "8,8", "8,6"]


def swap2_session(*stones: str, rule: int = 0, level: int = 8, seed: int = 1) -> list[str]:
    """The real brain program's answers after START to one SWAP2BOARD block with ``stones``
    (and a TURN after it)."""
    done = subprocess.run(
        [sys.executable, "-m", "gobang.ai.brain", "--level", str(level), "--seed", str(seed)],
        input="\n".join(["START 15", f"INFO rule {rule}", "SWAP2BOARD", *stones, "DONE",
                         "END", ""]),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "OK"
    return lines[1:]


def as_rows(answer: str) -> list[tuple[int, int]]:
    """(row, col) points of an answer of x,y points separated by spaces."""
    return [(y, x) for x, y in (point(part) for part in answer.split())]


def swap2_after(stones: list[str]) -> Opening:
    points = as_rows(" ".join(stones))
    log = [(FIRST, Place(p)) for p in points[:3]]
    if len(points) == 5:
        log += [(SECOND, Choose("place_two"))] + [(SECOND, Place(p)) for p in points[3:]]
    return Opening("swap2", log)


@pytest.mark.parametrize("rule", [0, 1])
def test_swap2board_with_no_stones_is_answered_with_three_opening_stones(rule):
    [answer] = swap2_session(rule=rule)
    opening = Opening("swap2")
    for stone in as_rows(answer):
        opening = opening.apply(FIRST, Place(stone))  # refuses an occupied or off-board one
    assert len(opening.stones) == 3 and opening.step.actor == SECOND


@pytest.mark.parametrize(("stones", "shape"), [
    (BLACK_AHEAD, "SWAP"),  # takes black
    (WHITE_AHEAD, "one point"),  # stays white and plays the fourth stone
    (EVEN, "two points"),  # places the fourth and fifth and lets the opponent choose
])
def test_swap2board_with_three_stones_swaps_stays_white_or_places_two(stones, shape):
    [answer] = swap2_session(*stones)
    if shape == "SWAP":
        assert answer == "SWAP"
        return
    placed = as_rows(answer)
    opening = swap2_after(stones)
    if shape == "one point":
        [fourth] = placed
        assert fourth not in opening.stones and all(0 <= v < 15 for v in fourth)
        return
    assert len(placed) == 2
    opening = opening.apply(SECOND, Choose("place_two"))
    for stone in placed:
        opening = opening.apply(SECOND, Place(stone))  # refuses an occupied or off-board one


@pytest.mark.parametrize(("stones", "shape"), [
    ([*BLACK_AHEAD, "14,14", "9,7"], "SWAP"),  # takes black
    ([*WHITE_AHEAD, "8,7", "14,0"], "one point"),  # stays white and plays the sixth stone
])
def test_swap2board_with_five_stones_swaps_or_plays_the_sixth_as_white(stones, shape):
    [answer] = swap2_session(*stones)
    if shape == "SWAP":
        assert answer == "SWAP"
        return
    [sixth] = as_rows(answer)
    assert sixth not in swap2_after(stones).stones and all(0 <= v < 15 for v in sixth)


def test_after_swap2board_the_game_goes_on_from_its_stones():
    # The brain stayed white and played the fourth stone; black's fifth comes as a TURN.
    answers = talk("START 15", "SWAP2BOARD", *WHITE_AHEAD, "DONE", "TURN 3,3", level=8)
    fourth, fifth = point(answers[1]), point(answers[2])
    assert len({(0, 0), (7, 7), (14, 14), (3, 3), fourth, fifth}) == 6


@pytest.mark.parametrize(("lines", "why"), [
    (["INFO rule 4", "SWAP2BOARD", "DONE"], "renju"),
    (["SWAP2BOARD", "7,7", "8,8", "DONE"], "0, 3 or 5"),
    (["SWAP2BOARD", "7,7", "8,8", "7,7", "DONE"], "impossible"),
    (["SWAP2BOARD", "7,7", "8,8", "15,9", "DONE"], "off"),
])
def test_a_swap2board_the_brain_cannot_answer_is_an_error(lines, why):
    [answer] = talk("START 15", *lines)[1:]
    assert answer.startswith("ERROR ") and why in answer


@pytest.mark.parametrize(("level", "seconds"), [(1, 0.7), (8, 0.7), (9, 0.9)])
def test_a_turn_limit_leaves_the_search_its_levels_share(monkeypatch, level, seconds):
    """Level 9 searches 0.9 of a turn: its moves cut short were where it lost as white."""
    asked: list[float | None] = []
    choose = Engine.choose

    def spy(self, pos, limit=None):
        asked.append(limit)
        return choose(self, pos, limit)

    monkeypatch.setattr(Engine, "choose", spy)
    answer = talk("START 15", "INFO timeout_turn 1000", "BEGIN", level=level)[-1]
    assert point(answer) and asked == [pytest.approx(seconds)]
