"""`GameTable.acting`: how every player's action on a game begins, and how actions on one game
happen one at a time."""

from __future__ import annotations

import threading

import pytest
from flask import Flask

from gobang.services.notices import ActionError
from gobang.services.play.checks import Pace, not_over
from gobang.services.play.results import Ending
from gobang.services.ratelimit import RateLimiter
from gobang.vocabulary import Reason, Status, opponent

WAIT = 10  # seconds: a deadline, never reached when the code is right


def refusal(action) -> str:
    with pytest.raises(ActionError) as refused:
        action()
    return refused.value.code


def act(env, game_id: int, user_id: int, **options) -> None:
    with env.play.table.acting(game_id, user_id, **options):
        pass


def held_elsewhere(lock) -> bool:
    """Whether another thread would have to wait for `lock`."""
    free: list[bool] = []

    def attempt() -> None:
        if lock.acquire(blocking=False):
            lock.release()
            free.append(True)
        else:
            free.append(False)

    thread = threading.Thread(target=attempt)
    thread.start()
    thread.join(WAIT)
    return free == [False]


def test_the_player_gets_the_game_and_their_colour(env, started):
    live, black, white = started
    with env.play.table.acting(live.game_id, white.id) as (found, color):
        assert (found, color) == (live, "white")


@pytest.mark.parametrize(("who", "game", "code"), [
    ("stranger", "live", "not_in_game"),
    ("black", "missing", "not_found"),
    ("black", "finished", "game_over"),
])
def test_an_action_is_refused_before_it_runs(env, started, users, who, game, code):
    live, black, white = started
    people = {"black": black, "stranger": users("stranger")[0]}
    game_id = 999 if game == "missing" else live.game_id
    if game == "finished":
        env.play.finisher.resign(live.game_id, white.id)
    assert refusal(lambda: act(env, game_id, people[who].id)) == code


def test_the_state_check_runs_on_the_game_with_its_lock_held(env, started):
    live, black, white = started
    env.play.pauses.request(live.game_id, black.id)
    env.play.pauses.answer(live.game_id, white.id, True)
    seen = []

    def check(game, color):
        seen.append((held_elsewhere(game.lock), game.paused, color))

    act(env, live.game_id, black.id, check=check)
    assert seen == [(True, True, "black")]


def test_a_game_that_is_over_may_still_be_checked_otherwise(env, started):
    """`in_play` is the default; resigning checks only that the game is not over."""
    live, black, _white = started
    live.status = Status.WAITING
    assert refusal(lambda: act(env, live.game_id, black.id)) == "conflict"
    act(env, live.game_id, black.id, check=not_over)


def test_a_player_past_their_pace_is_refused(env, started, clock):
    live, black, white = started
    pace = Pace(RateLimiter(2, 60, clock))
    act(env, live.game_id, black.id, pace=pace)
    act(env, live.game_id, black.id, pace=pace)
    assert refusal(lambda: act(env, live.game_id, black.id, pace=pace)) == "rate_limited"
    act(env, live.game_id, white.id, pace=pace)  # each player's own pace


def run_in_thread(app: Flask, body) -> threading.Thread:
    def target() -> None:
        with app.app_context():
            body()

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


def test_an_action_waits_while_another_acts_on_the_same_game(env, started, app):
    live, black, white = started
    inside, release = threading.Event(), threading.Event()
    order: list[str] = []

    def first() -> None:
        with env.play.table.acting(live.game_id, black.id):
            inside.set()
            release.wait(WAIT)
            order.append("first done")

    def second() -> None:
        with env.play.table.acting(live.game_id, white.id):
            order.append("second in")

    holder = run_in_thread(app, first)
    assert inside.wait(WAIT)
    waiter = run_in_thread(app, second)
    waiter.join(0.2)  # long enough to have entered, were it not held
    assert order == [] and waiter.is_alive()
    release.set()
    holder.join(WAIT)
    waiter.join(WAIT)
    assert order == ["first done", "second in"]


def test_the_second_action_sees_the_state_the_first_left(env, started, app):
    """Both players answer at once a draw offer that each thinks is open: the first ends the
    game, and the second is refused on the finished game, not applied to it."""
    live, black, white = started
    inside, release = threading.Event(), threading.Event()
    codes: list[str] = []

    def resign() -> None:
        with env.play.table.acting(live.game_id, black.id) as (game, color):
            inside.set()
            release.wait(WAIT)
            env.play.finisher.finish(game, Ending(opponent(color), Reason.RESIGN))

    def offer() -> None:
        codes.append(refusal(lambda: env.play.draws.offer(live.game_id, white.id)))

    holder = run_in_thread(app, resign)
    assert inside.wait(WAIT)
    waiter = run_in_thread(app, offer)
    waiter.join(0.2)
    release.set()
    holder.join(WAIT)
    waiter.join(WAIT)
    assert codes == ["game_over"]
