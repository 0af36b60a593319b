"""The adapter drives protocol engines and covers for broken ones with the fallback."""

from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path

import pytest

from gobang.ai import EngineAdapter, EngineFailure, Swap2Refused, builtin_argv
from gobang.rules import Game, forbidden_kind
from gobang.rules.openings import FIRST, SECOND, Choose, Opening, Place

# A stand-in engine. It answers START with OK and each move request with the first free
# point, except that the first process started misbehaves once, as MODE says; every start
# and every command it reads is logged so tests can see restarts and what was sent.
FAKE_ENGINE = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path

    MODE, HERE = sys.argv[1], Path(sys.argv[2])
    log = HERE / "commands.log"
    first = not (HERE / "started").exists()
    (HERE / "started").touch()
    with log.open("a") as f:
        f.write("--- start\\n")
    taken, board = set(), None

    def say(text):
        sys.stdout.write(text + "\\n")
        sys.stdout.flush()

    def answer():
        global first
        if first and MODE != "good":
            first = False
            if MODE == "silent":
                time.sleep(30)
            elif MODE == "garbage":
                say("DEBUG thinking")
                say("what a nice board")
            elif MODE == "error":
                say("ERROR out of ideas")
            elif MODE == "occupied":
                x, y = sorted(taken)[0]
                say(f"{x},{y}")
            elif MODE == "off-board":
                say("15,3")
            elif MODE == "forbidden":
                say("4,7")
            elif MODE == "crash":
                sys.exit(3)
            return
        for y in range(15):
            for x in range(15):
                if (x, y) not in taken:
                    taken.add((x, y))
                    say(f"{x},{y}")
                    return

    for line in sys.stdin:
        line = line.strip()
        with log.open("a") as f:
            f.write(line + "\\n")
        if board is not None:
            if line == "DONE":
                taken = board
                board = None
                answer()
            else:
                x, y, _ = line.split(",")
                board.add((int(x), int(y)))
        elif line.startswith("START") or line == "RESTART":
            taken = set()
            say("OK")
        elif line == "BEGIN":
            answer()
        elif line.startswith("TURN"):
            x, y = line.split()[1].split(",")
            taken.add((int(x), int(y)))
            answer()
        elif line == "BOARD":
            board = set()
        elif line == "END":
            break
    """
)

# Renju, black to move: 7,4 (x=4, y=7) would make six in a row for black.
RENJU_MOVES = [
    (7, 1),
    (0, 14),
    (7, 2),
    (14, 0),
    (7, 3),
    (14, 14),
    (7, 5),
    (12, 12),
    (7, 6),
    (12, 2),
]


class Fallback:
    """Records the games it was asked about and plays a fixed free point."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, game: Game) -> tuple[int, int]:
        self.calls += 1
        return next(
            (r, c) for r in range(14, -1, -1) for c in range(15) if game.board.is_empty(r, c)
        )


@pytest.fixture
def fake(tmp_path: Path):
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)

    def make(mode: str, ruleset: str = "freestyle", turn_seconds: float = 2.0):
        fallback = Fallback()
        adapter = EngineAdapter(
            [sys.executable, str(script), mode, str(tmp_path)],
            ruleset,
            fallback,
            turn_seconds=turn_seconds,
        )
        return adapter, fallback

    yield make


def commands(tmp_path: Path) -> list[str]:
    return (tmp_path / "commands.log").read_text().splitlines()


def test_a_good_engine_plays_and_the_game_is_left_alone(fake, tmp_path):
    adapter, fallback = fake("good")
    game = Game.replay([(7, 7)])
    with adapter:
        move = adapter.move(game)
    assert (move.row, move.col, move.by_engine, move.problem) == (0, 0, True, None)
    assert game.moves == [(7, 7)] and fallback.calls == 0


def test_the_engine_is_told_the_rules_and_turn_limit_then_the_position(fake, tmp_path):
    adapter, _ = fake("good", ruleset="renju", turn_seconds=3)
    with adapter:
        adapter.move(Game.replay([(7, 7), (6, 8)], "renju"))
    assert commands(tmp_path)[1:8] == [
        "START 15",
        "INFO rule 4",
        "INFO timeout_turn 3000",
        "BOARD",
        "7,7,1",
        "8,6,2",
        "DONE",
    ]


def test_a_game_continued_from_the_engines_own_answer_is_sent_as_turn(fake, tmp_path):
    adapter, _ = fake("good")
    game = Game()
    with adapter:
        first = adapter.move(game)
        game.place(first.row, first.col)
        game.place(7, 7)
        adapter.move(game)
        game.place(8, 8)
        game.place(9, 9)  # two moves behind: the engine gets the whole board again
        adapter.move(game)
    sent = commands(tmp_path)
    assert "BEGIN" in sent and "TURN 7,7" in sent
    assert sent[-7:-1] == ["BOARD", "0,0,1", "7,7,2", "8,8,1", "9,9,2", "DONE"]
    assert sent.count("BOARD") == 1


@pytest.mark.parametrize(
    ("mode", "problem"),
    [
        ("silent", "no answer in time"),
        ("garbage", "not a move"),
        ("error", "engine error"),
        ("occupied", "occupied"),
        ("off-board", "off the board"),
        ("crash", "exited"),
    ],
)
def test_a_misbehaving_engine_is_covered_by_the_fallback_and_restarted(
    fake, tmp_path, mode, problem
):
    adapter, fallback = fake(mode, turn_seconds=0.3)
    game = Game.replay([(7, 7)])
    with adapter:
        covered = adapter.move(game)
        assert not covered.by_engine and problem in covered.problem
        assert fallback.calls == 1 and game.board.is_empty(covered.row, covered.col)
        game.place(covered.row, covered.col)
        game.place(3, 3)
        again = adapter.move(game)
    assert again.by_engine and fallback.calls == 1
    assert commands(tmp_path).count("--- start") == 2
    assert adapter.restarts == 1


def test_a_move_forbidden_to_renju_black_is_refused(fake, tmp_path):
    adapter, fallback = fake("forbidden", ruleset="renju")
    game = Game.replay(RENJU_MOVES, "renju")
    assert forbidden_kind(game.board, 7, 4) == "overline"
    with adapter:
        covered = adapter.move(game)
    assert not covered.by_engine and "forbidden" in covered.problem
    assert fallback.calls == 1


def test_an_engine_that_cannot_start_leaves_every_move_to_the_fallback(tmp_path):
    fallback = Fallback()
    adapter = EngineAdapter([str(tmp_path / "no-such-engine")], "freestyle", fallback)
    with adapter:
        first = adapter.move(Game())
        second = adapter.move(Game.replay([(14, 0)]))
    assert not first.by_engine and "cannot start" in first.problem
    assert not second.by_engine and fallback.calls == 2


def test_a_finished_game_is_refused(fake):
    adapter, _ = fake("good")
    won = Game.replay([(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3), (0, 4)])
    with adapter:
        with pytest.raises(ValueError):
            adapter.move(won)


def test_a_game_under_other_rules_is_told_its_rule_and_sent_whole(fake, tmp_path):
    adapter, _ = fake("good")
    game = Game()
    with adapter:
        first = adapter.move(game)
        game.place(first.row, first.col)
        game.place(7, 7)
        adapter.move(Game.replay(game.moves, "renju"))
    sent = commands(tmp_path)
    assert sent[-6:] == ["INFO rule 4", "BOARD", "0,0,1", "7,7,2", "DONE", "END"]
    assert "TURN 7,7" not in sent


def test_only_changed_settings_are_sent_again_for_a_move(fake, tmp_path):
    adapter, _ = fake("good", turn_seconds=3)
    game = Game()
    with adapter:
        first = adapter.move(game, info={"level": "5"})
        game.place(first.row, first.col)
        game.place(7, 7)
        second = adapter.move(game, turn_seconds=1.5, info={"level": "5"})
        game.place(second.row, second.col)
        game.place(8, 8)
        adapter.move(game, turn_seconds=1.5, info={"level": "8"})
    sent = commands(tmp_path)
    assert sent[2:6] == ["INFO rule 0", "INFO timeout_turn 3000", "INFO level 5", "BEGIN"]
    assert sent[6:8] == ["INFO timeout_turn 1500", "TURN 7,7"]
    assert sent[8:10] == ["INFO level 8", "TURN 8,8"]


@pytest.mark.serial  # bounds a wait on the wall clock
def test_an_answer_is_awaited_no_longer_than_the_moves_wait_then_the_fallback_plays(fake, tmp_path):
    adapter, fallback = fake("silent", turn_seconds=20)
    with adapter:
        asked = time.monotonic()
        covered = adapter.move(Game.replay([(7, 7)]), wait_seconds=0.3)
        waited = time.monotonic() - asked
    assert not covered.by_engine and "no answer in time" in covered.problem
    # 0.3 s, and the late engine killed at once rather than given 0.5 s to END.
    assert waited < 0.7 and fallback.calls == 1


def test_a_fallback_given_for_one_move_plays_that_move(fake):
    adapter, fallback = fake("error")
    with adapter:
        covered = adapter.move(Game.replay([(7, 7)]), fallback=lambda game: (3, 4))
    assert (covered.row, covered.col, covered.by_engine) == (3, 4, False)
    assert fallback.calls == 0


def test_warm_starts_the_process_before_the_first_move(fake, tmp_path):
    adapter, _ = fake("good")
    with adapter:
        assert not adapter.running
        assert adapter.warm() and adapter.running
        assert commands(tmp_path) == ["--- start", "START 15"]
    broken = EngineAdapter([str(tmp_path / "no-such-engine")], "freestyle", Fallback())
    assert not broken.warm() and not broken.running


@pytest.mark.slow
def test_the_builtin_engine_plays_a_whole_game_through_adapters():
    game = Game("renju")
    players = [
        EngineAdapter(builtin_argv(2, seed=1), "renju", Fallback()),
        EngineAdapter(builtin_argv(1, seed=2), "renju", Fallback()),
    ]
    try:
        while not game.is_over:
            move = players[len(game.moves) % 2].move(game)
            assert move.by_engine, move.problem
            game.place(move.row, move.col)
    finally:
        for player in players:
            player.close()
    assert game.outcome is not None


# --- swap2 (SWAP2BOARD) ---------------------------------------------------------------------

# A stand-in for engines without the SWAP2BOARD extension, or with a broken one: START gets
# OK; with ANSWER "UNKNOWN" every other line gets "UNKNOWN ...", as a brain that does not
# know the command answers; otherwise the SWAP2BOARD block's DONE gets ANSWER.
SWAP2_ENGINE = textwrap.dedent(
    """
    import sys

    ANSWER = sys.argv[1]
    for line in sys.stdin:
        line = line.strip()
        if line.startswith("START"):
            print("OK", flush=True)
        elif line == "END":
            break
        elif ANSWER == "UNKNOWN" and not line.startswith("INFO"):
            print(f"UNKNOWN command {line}", flush=True)
        elif line == "DONE":
            print(ANSWER, flush=True)
    """
)

# Stones in (row, col): black's two touching stones against white's one in a corner, the
# other way round, and three about even (the engine's own at level 8).
BLACK_AHEAD = [(7, 7), (0, 0), (7, 8)]
WHITE_AHEAD = [(0, 0), (7, 7), (14, 14)]
EVEN = [(6, 6), (8, 8), (6, 8)]


def swap2_opening(stones: list[tuple[int, int]]) -> Opening:
    log = [(FIRST, Place(point)) for point in stones[:3]]
    if len(stones) == 5:
        log += [(SECOND, Choose("place_two"))] + [(SECOND, Place(p)) for p in stones[3:]]
    return Opening("swap2", log)


@pytest.fixture
def swap2_engine(tmp_path: Path):
    script = tmp_path / "swap2_engine.py"
    script.write_text(SWAP2_ENGINE)

    def make(answer: str) -> EngineAdapter:
        return EngineAdapter([sys.executable, str(script), answer], "freestyle", Fallback(),
                             turn_seconds=2.0)

    return make


@pytest.fixture(scope="module")
def builtin():
    adapter = EngineAdapter(builtin_argv(8, seed=1), "standard", Fallback())
    yield adapter
    adapter.close()


def test_the_builtin_engine_places_the_three_swap2_stones(builtin):
    opening = Opening("swap2")
    answer = builtin.swap2(opening, "standard")
    assert len(answer.actions) == 3 and answer.move is None
    for action in answer.actions:
        opening = opening.apply(FIRST, action)
    assert opening.step.actor == SECOND


@pytest.mark.parametrize(("stones", "first", "places", "moves"), [
    (BLACK_AHEAD, Choose("black"), 0, False),  # SWAP
    (WHITE_AHEAD, Choose("white"), 0, True),  # stays white and plays the fourth stone
    (EVEN, Choose("place_two"), 2, False),  # places two more
    ([*BLACK_AHEAD, (14, 14), (7, 9)], Choose("black"), 0, False),  # SWAP
    ([*WHITE_AHEAD, (7, 8), (0, 14)], Choose("white"), 0, True),  # plays the sixth stone
])
def test_the_builtin_engines_swap2_choice_comes_back_as_the_openings_actions(
    builtin, stones, first, places, moves
):
    opening = swap2_opening(stones)
    answer = builtin.swap2(opening, "standard")
    assert answer.actions[0] == first and len(answer.actions) == 1 + places
    for action in answer.actions:
        opening = opening.apply(opening.step.actor, action)
    # Placing two hands the choice of colour to the first player; a colour ends the opening.
    assert opening.over or (places and opening.step.actor == FIRST)
    if moves:
        game = Game.replay([*opening.stones, answer.move], "standard")
        assert len(game.moves) == len(stones) + 1
    else:
        assert answer.move is None


def test_after_a_swap2_answer_the_engine_plays_the_game_on(builtin):
    opening = swap2_opening(WHITE_AHEAD)
    answer = builtin.swap2(opening, "standard")
    game = Game.replay([*opening.stones, answer.move, (3, 3)], "standard")
    move = builtin.move(game)
    assert move.by_engine and game.board.is_empty(move.row, move.col)


@pytest.mark.parametrize("answer", ["UNKNOWN", "ERROR swap2 is not supported"])
def test_an_engine_without_swap2_is_refused_and_restarted(swap2_engine, answer):
    adapter = swap2_engine(answer)
    with adapter:
        with pytest.raises(Swap2Refused):
            adapter.swap2(swap2_opening(BLACK_AHEAD), "freestyle")
        assert not adapter.running and len(adapter.failures) == 1


@pytest.mark.parametrize(("stones", "answer", "problem"), [
    ([], "what a nice board", "not a SWAP2BOARD answer"),
    ([], "7,7 8,8", "three stones"),
    ([], "SWAP", "empty board"),
    ([], "7,7 7,7 8,8", "refused"),
    (BLACK_AHEAD, "7,7", "occupied"),
    (BLACK_AHEAD, "15,3", "off-board"),
    (BLACK_AHEAD, "1,1 2,2 3,3", "not an answer"),
    ([*BLACK_AHEAD, (14, 14), (7, 9)], "1,1 2,2", "not an answer"),
])
def test_an_unusable_swap2_answer_is_an_engine_failure(swap2_engine, stones, answer, problem):
    adapter = swap2_engine(answer)
    with adapter:
        with pytest.raises(EngineFailure) as failed:
            adapter.swap2(swap2_opening(stones), "freestyle")
    assert not isinstance(failed.value, Swap2Refused) and problem in str(failed.value)


@pytest.mark.parametrize(("opening", "ruleset"), [
    (Opening("swap2", [(FIRST, Place((7, 7)))]), "freestyle"),  # one stone placed already
    (Opening("swap"), "freestyle"),
    (Opening("swap2"), "renju"),
    (swap2_opening(BLACK_AHEAD).apply(SECOND, Choose("black")), "freestyle"),  # over
])
def test_a_step_swap2board_does_not_ask_about_is_refused_before_the_engine_is_asked(
    swap2_engine, opening, ruleset
):
    adapter = swap2_engine("SWAP")
    with adapter:
        with pytest.raises(ValueError):
            adapter.swap2(opening, ruleset)
        assert not adapter.running


@pytest.mark.serial  # bounds a wait on the wall clock
def test_a_swap2_answer_is_awaited_no_longer_than_its_wait(swap2_engine):
    adapter = swap2_engine("")  # an empty line is no answer
    with adapter:
        assert adapter.warm()
        asked = time.monotonic()
        with pytest.raises(EngineFailure, match="no answer in time"):
            adapter.swap2(Opening("swap2"), "freestyle", wait_seconds=0.3)
        waited = time.monotonic() - asked
    assert waited < 0.7 and not adapter.running
