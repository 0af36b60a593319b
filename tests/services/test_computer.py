"""Games against the computer through the services: real engine processes at level 1."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from gobang.ai import EngineAdapter, NoLegalMove
from gobang.ai.openings import decide
from gobang.extensions import db
from gobang.models import Game, User
from gobang.rules import SIZE
from gobang.rules import Game as RulesGame
from gobang.services.computer.engines import CheapMoves, EnginePool, EngineSettings
from gobang.services.notices import ActionError
from tests.services.conftest import events
from tests.services.test_computer_pool import Pool
from tests.support.live import wait_until

WAIT_SECONDS = 60


@pytest.fixture
def human(users):
    return users("human_hu")[0]


@pytest.fixture
def seated(env, human):
    """`start` a game against level 1 and sit the human down; yields (live, human colour)."""
    made = []

    def start(color: str = "black", **choices):
        game_id, _ = env.computer.start(human, 1, color, **choices)
        live = env.play.table.get(game_id)
        notices = env.play.seating.join(game_id, human.id, "sid-h")
        assert "game_ready" in events(notices)
        made.append(live)
        return live

    yield start
    wait_until_quiet(env)
    env.computer.engines.close()


def wait_until_quiet(env) -> None:
    end = time.monotonic() + WAIT_SECONDS
    while env.computer.engines.searching():
        assert time.monotonic() < end
        time.sleep(0.02)


def computer_reply(env) -> list:
    """Tick until the computer has moved; its notices."""
    end = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < end:
        notices = env.computer.tick()
        if "stone_placed" in events(notices):
            return notices
        time.sleep(0.02)
    raise AssertionError("the computer did not move")


def test_a_computer_game_is_untimed_unless_a_clock_is_chosen(env, seated, human):
    live = seated("black")
    assert live.clocks is None
    assert live.white.player()["computer"] == 1
    assert live.white.username == "Computer · level 1"
    assert db.session.get(Game, live.game_id).computer_level == 1


def test_a_chosen_clock_runs_for_the_computer_too(env, seated, human, clock):
    live = seated("black", clock=[180, 2])
    env.play.moves.place_stone(live.game_id, human.id, 7, 7)
    clock.advance(1.5)
    assert live.clocks.left("white", clock()) == 180_000 - 1500
    computer_reply(env)


def test_the_computer_opens_when_it_plays_black(env, seated):
    live = seated("white")
    notices = computer_reply(env)
    placed = next(n for n in notices if n.event == "stone_placed")
    assert placed.payload["color"] == "black"
    assert len(live.rules.moves) == 1


def test_the_computer_answers_each_move_with_a_legal_one(env, seated, human):
    live = seated("black", ruleset="renju")
    for row, col in ((7, 7), (3, 3), (11, 11)):
        env.play.moves.place_stone(live.game_id, human.id, row, col)
        computer_reply(env)
    replayed = RulesGame.replay(list(live.rules.moves), "renju")
    assert len(replayed.moves) == 6


def test_a_take_back_is_instant_and_takes_back_the_computers_reply_too(env, seated, human):
    live = seated("black")
    env.play.moves.place_stone(live.game_id, human.id, 7, 7)
    computer_reply(env)
    notices = env.play.takebacks.request(live.game_id, human.id)
    assert events(notices) == ["undone"]
    assert live.rules.moves == []
    assert live.undo_request is None


def test_take_backs_against_the_computer_are_not_limited(env, seated, human):
    live = seated("black")
    for _ in range(5):
        env.play.moves.place_stone(live.game_id, human.id, 7, 7)
        computer_reply(env)
        env.play.takebacks.request(live.game_id, human.id)
    assert live.rules.moves == []


def test_a_reply_to_a_position_taken_back_is_not_played(env, seated, human):
    live = seated("black")
    env.play.moves.place_stone(live.game_id, human.id, 7, 7)
    env.computer.tick()  # the computer starts thinking about 7,7
    env.play.takebacks.request(live.game_id, human.id)
    wait_until_quiet(env)
    assert env.computer.tick() == []
    assert live.rules.moves == []


def test_a_reply_to_a_position_since_changed_is_not_played(env, seated, human):
    live = seated("black")
    env.play.moves.place_stone(live.game_id, human.id, 7, 7)
    env.computer.tick()  # the computer starts thinking about 7,7
    env.play.takebacks.request(live.game_id, human.id)
    env.play.moves.place_stone(live.game_id, human.id, 3, 3)  # its turn again, elsewhere
    wait_until_quiet(env)
    assert env.computer.tick() == []
    assert live.rules.moves == [(3, 3)]

def test_the_computer_does_not_accept_draws(env, seated, human):
    live = seated("black")
    with pytest.raises(ActionError) as refused:
        env.play.draws.offer(live.game_id, human.id)
    assert refused.value.code == "conflict"
    assert live.draw_offer is None


def test_a_game_against_the_computer_is_unrated_and_not_counted(env, seated, human):
    live = seated("black")
    notices = env.play.finisher.resign(live.game_id, human.id)
    over = next(n for n in notices if n.event == "game_over").payload["result"]
    assert over["winner"] == "white"
    assert over["scores"]["black"]["before"] == over["scores"]["black"]["after"]
    db.session.expire_all()
    me = db.session.get(User, human.id)
    assert (me.score, me.games, me.wins, me.losses) == (1000, 0, 0, 0)
    machine = db.session.get(User, live.white.user_id)
    assert (machine.games, machine.wins) == (0, 0)


@pytest.mark.parametrize("choice", [
    {"number": 0}, {"number": 10}, {"number": "1"}, {"number": True},
    {"number": 1, "color": "green"}, {"number": 1, "ruleset": "chess"},
    {"number": 1, "clock": [1, 1]},
])
def test_a_bad_choice_is_refused(env, human, choice):
    with pytest.raises(ActionError) as refused:
        env.computer.start(human, **choice)
    assert refused.value.code == "bad_request"


def test_random_colour_comes_from_the_random_source(env, users):
    first, second = users("first_fi", "second_se")
    colors = set()
    for person in (first, second):
        game_id, _ = env.computer.start(person, 1, "random")
        colors.add(env.play.table.get(game_id).color_of(person.id))
    assert colors <= {"black", "white"} and colors


@pytest.mark.parametrize("app_overrides", [
    {"COMPUTER_WORKERS": 1, "COMPUTER_GAMES_PER_WORKER": 1}])
def test_a_saturated_pool_refuses_a_new_computer_game_as_busy(env, users):
    first, second = users("first_fi", "second_se")
    env.computer.start(first, 1, "black")
    with pytest.raises(ActionError) as refused:
        env.computer.start(second, 1, "black")
    assert refused.value.code == "busy"


@pytest.mark.parametrize("app_overrides", [
    {"COMPUTER_WORKERS": 1, "COMPUTER_THINK_SECONDS": 3.0}])
def test_a_game_is_refused_when_the_games_levels_would_overload_the_workers(env, users):
    people = users(*(f"player{n}_pl" for n in range(10)))
    for person in people[:8]:  # eight level 8 games fill one worker (0.4 / 3.4 each)
        env.computer.start(person, 8, "white")
    with pytest.raises(ActionError) as refused:
        env.computer.start(people[8], 8, "white")
    assert refused.value.code == "busy"
    env.computer.start(people[9], 1, "white")  # a level 1 game costs next to nothing


def test_the_computer_rows_cannot_log_in_and_are_not_ranked(env, seated):
    live = seated("black")
    machine = db.session.get(User, live.white.user_id)
    assert not machine.is_active
    assert env.accounts.find(machine.username) is None
    assert db.session.scalar(select(User.computer_level).where(User.id == machine.id)) == 1


def test_a_broken_external_engine_is_covered_by_a_fallback_move():
    pool = EnginePool(EngineSettings(workers=1, games_per_worker=1,
                                     command=("python3", "-c", "pass"), nice=0))
    pool.think(1, 1, RulesGame("freestyle"))
    end = time.monotonic() + WAIT_SECONDS
    answers = []
    while not answers:
        assert time.monotonic() < end
        time.sleep(0.02)
        answers = pool.answers()
    move = answers[0].move
    assert move is not None and not move.by_engine and move.problem
    pool.close()


def test_the_computer_accepts_a_rematch_at_once_with_colours_swapped(env, seated, human):
    live = seated("black")
    env.play.finisher.resign(live.game_id, human.id)
    notices = env.play.rematches.offer(live.game_id, human.id)
    ready = next(n for n in notices if n.event == "rematch_ready")
    rematch = env.play.table.get(ready.payload["game_id"])
    assert rematch.color_of(human.id) == "white"
    assert rematch.black.computer == 1 and rematch.clocks is None


def test_the_abort_window_never_runs_against_the_computer(env, seated, clock):
    live = seated("white")
    assert live.abort_left(clock()) is None
    clock.advance(120)
    assert env.play.timekeeper.tick() == []
    computer_reply(env)
    assert live.abort_left(clock()) == 30  # the person's first reply is timed as usual


def test_the_builtin_engine_starts_whatever_the_servers_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where `gobang` does not import
    pool = EnginePool(EngineSettings(workers=1, games_per_worker=1, nice=0))
    pool.prepare(1, 1)  # a start takes longer than a level 1 move may
    end = time.monotonic() + WAIT_SECONDS
    while not pool.running():
        assert time.monotonic() < end
        time.sleep(0.02)
    pool.think(1, 1, RulesGame("freestyle"))
    end = time.monotonic() + WAIT_SECONDS
    answers = []
    while not answers:
        assert time.monotonic() < end
        time.sleep(0.02)
        answers = pool.answers()
    assert answers[0].move is not None and answers[0].move.by_engine
    pool.close()


# --- the computer over a stand-in engine, its pool's clock and threads run by hand ------------

START_SECONDS = 1.0  # what an engine's start costs on the pool's clock (about a second of CPU)


@pytest.fixture
def stand_in(env, tmp_path, monkeypatch):
    """The computer's engines: the stand-in engine (tests/ai/test_ai_adapter.py) behind a pool
    on a fake clock, each process start moving that clock by START_SECONDS; work run by hand."""
    pool = Pool(tmp_path)
    launch = EngineAdapter._launch

    def slow_launch(adapter: EngineAdapter) -> None:
        launch(adapter)
        pool.clock.advance(START_SECONDS)

    monkeypatch.setattr(EngineAdapter, "_launch", slow_launch)
    env.computer.engines = pool.pool
    yield pool
    pool.pool.close(wait_seconds=0)
    pool.run()


def sit_down(env, human, color: str = "black"):
    game_id, _ = env.computer.start(human, 1, color)
    assert "game_ready" in events(env.play.seating.join(game_id, human.id, "sid-h"))
    return env.play.table.get(game_id)


def first_reply(env, human, pool) -> list:
    """The human plays 7,7; the computer's notices once its answer is in."""
    live = sit_down(env, human)
    pool.run(1)  # whatever was started before the move (the engine, when it is)
    pool.pending.clear()  # the built-in fallback's start: not needed here
    env.play.moves.place_stone(live.game_id, human.id, 7, 7)
    assert env.computer.tick() == []  # the move is queued
    pool.run()
    return env.computer.tick()


def test_an_engine_starts_with_the_game_so_its_start_leaves_the_first_move_its_time(
        env, human, stand_in):
    notices = first_reply(env, human, stand_in)
    assert events(notices) == ["stone_placed"]
    assert "TURN 7,7" in stand_in.sent()  # the engine was asked, not the cheap level
    # Level 1: 0.05 + 1 s, all of it (a start would have taken START_SECONDS of it).
    assert stand_in.turn_limits() == [pytest.approx(1.05, abs=0.002)]


def test_an_engine_failure_is_covered_by_the_cheap_level_never_by_resigning(
        env, human, stand_in, monkeypatch, caplog):
    def broken(*_args, **_kwargs):
        raise RuntimeError("a bug on the engine's path")

    monkeypatch.setattr(EngineAdapter, "move", broken)
    stand_in.pool.prepare(1, 1)  # an engine runs: the move goes to it
    notices = first_reply(env, human, stand_in)
    assert events(notices) == ["stone_placed"]
    assert notices[0].payload["color"] == "white"
    cheap = [r.fields for r in caplog.records
             if r.getMessage() == "computer move from the cheap level"]
    assert cheap == [{"game_id": notices[0].payload["game_id"], "level": 1,
                      "problem": "no answer: a bug on the engine's path"}]


def test_the_computer_resigns_only_when_it_has_no_legal_point(env, human, stand_in, monkeypatch):
    def none_left(*_args, **_kwargs):
        raise NoLegalMove("no empty point the side to move may play")

    monkeypatch.setattr(EngineAdapter, "move", none_left)
    monkeypatch.setattr(CheapMoves, "__call__", none_left)
    stand_in.pool.prepare(1, 1)
    notices = first_reply(env, human, stand_in)
    assert "game_over" in events(notices)
    over = next(n for n in notices if n.event == "game_over").payload["result"]
    assert (over["winner"], over["reason"]) == ("black", "resign")


# Openings: the computer's steps are its own (gobang.ai.openings), taken on the ticker's tick.

def human_acts(env, live, person, rng) -> None:
    """The human's turn: its opening step (chosen as the computer would) or a move on the
    first free point in reading order (a weak player: the game ends soon)."""
    if live.in_opening():
        action = decide(live.opening, live.ruleset, 1, rng)
        color = live.color_of(person.id)
        with live.lock:
            env.play.openings.act(live, color, action)
        return
    for index in range(SIZE * SIZE):
        row, col = divmod(index, SIZE)
        if live.rules.board.get(row, col) is None:
            try:
                env.play.moves.place_stone(live.game_id, person.id, row, col)
                return
            except ActionError as refused:
                if refused.code != "forbidden_move":
                    raise
    raise AssertionError("no point left for the human")


def play_out(env, live, person) -> None:
    rng = random.Random(3)
    while live.status != "finished":
        if live.to_move() == live.color_of(person.id):
            human_acts(env, live, person, rng)
        else:
            assert wait_until(lambda: _computer_acted(env, live, person), WAIT_SECONDS), (
                "the computer did not act")


def _computer_acted(env, live, person) -> bool:
    env.computer.tick()
    return live.status == "finished" or live.to_move() == live.color_of(person.id)


@pytest.mark.parametrize("color", ["black", "white"])
@pytest.mark.parametrize(("ruleset", "rule"), [("freestyle", "swap2"),
                                               ("renju", "taraguchi-10")])
def test_the_computer_plays_a_whole_game_with_an_opening(env, seated, human, ruleset, rule,
                                                         color):
    live = seated(color, ruleset=ruleset, opening=rule)
    play_out(env, live, human)
    assert not live.in_opening() and live.result["reason"] in ("five", "resign")
    assert len(live.rules.moves) >= len(live.opening.stones) >= 5 - (rule == "swap2") * 2


# An external engine: the built-in brain run as one (it answers SWAP2BOARD), or one that
# answers every request with ERROR.
BRAIN = [sys.executable, "-m", "gobang.ai.brain", "--level", "1"]
REFUSING = [sys.executable, str(Path(__file__).resolve().parents[1] / "support"
                                / "slow_engine.py"), "0"]


@pytest.mark.parametrize("app_overrides", [{"ENGINE_COMMAND": BRAIN, "ENGINE_OPENINGS": []},
                                           {"ENGINE_COMMAND": BRAIN,
                                            "ENGINE_OPENINGS": ["swap2"]}])
def test_an_external_engine_is_refused_for_an_opening_it_does_not_play(env, human,
                                                                      app_overrides):
    ruleset, rule = (("freestyle", "swap2") if not app_overrides["ENGINE_OPENINGS"]
                     else ("renju", "taraguchi-10"))
    with pytest.raises(ActionError) as refused:
        env.computer.start(human, 1, "black", ruleset=ruleset, opening=rule)
    assert refused.value.code == "conflict"
    assert f"does not play the {rule} opening" in refused.value.message
    assert env.play.table.current_game_of(human.id) is None


@pytest.mark.parametrize("app_overrides", [{"ENGINE_COMMAND": BRAIN,
                                            "ENGINE_OPENINGS": ["swap2"]}])
@pytest.mark.parametrize("color", ["black", "white"])
def test_an_external_engine_that_plays_swap2_is_asked_its_steps(env, seated, human, color,
                                                               caplog):
    caplog.set_level("INFO", logger="gobang.computer")
    # The engine started first: a step is due a second after it is asked, and a start on a
    # busy machine (a Python process, niced) can take longer, when the server rightly chooses
    # instead. That fallback is the next test's; this one is about the engine's answers.
    env.computer.engines.prepare(1, 1)
    assert wait_until(lambda: env.computer.engines.running() >= 1, WAIT_SECONDS)
    live = seated(color, opening="swap2")
    play_out(env, live, human)
    assert "swap2 answer from the engine" in caplog.text
    assert "no swap2 answer" not in caplog.text
    assert live.result["reason"] in ("five", "resign")


@pytest.mark.parametrize("app_overrides", [{"ENGINE_COMMAND": REFUSING,
                                            "ENGINE_OPENINGS": ["swap2"]}])
def test_when_the_engine_gives_no_swap2_answer_the_server_chooses_the_step(env, seated, human,
                                                                          caplog):
    live = seated("white", opening="swap2")  # the computer places the first three stones
    assert wait_until(lambda: _computer_acted(env, live, human), WAIT_SECONDS)
    assert len(live.rules.moves) == 3 and "no swap2 answer from the engine" in caplog.text
