"""Every room event of a game in play carries the game's next number `v`, so that a client can
tell it missed any event (docs/protocol.md, "Numbered events")."""

from __future__ import annotations

import pytest

from gobang.services.notices import GAME, ActionError
from gobang.services.registry import build_services
from tests.services.conftest import FIVE_FOR_BLACK, play
from tests.support.clock import FakeClock

START_WALL = 1_800_000_000.0


@pytest.fixture
def wall() -> FakeClock:
    return FakeClock(START_WALL)


@pytest.fixture
def base_overrides(clock: FakeClock, wall: FakeClock) -> dict[str, object]:
    return {"CLOCK": clock, "WALL_CLOCK": wall}


def numbers(notices) -> list[int]:
    return [notice.payload["v"] for notice in notices if notice.target == GAME]


def actions_of_every_kind(env, live, black, white, watcher) -> list:
    """One of each thing players and spectators do in a game, in order, each one's notices:
    twelve events."""
    game_id = live.game_id
    return [
        env.play.draws.offer(game_id, black.id),
        env.play.draws.answer(game_id, white.id, False),
        env.play.chat.say(game_id, black, "sid-b", "hello"),
        env.play.moves.place_stone(game_id, black.id, 7, 7),
        env.play.takebacks.request(game_id, black.id),
        env.play.takebacks.answer(game_id, white.id, True),
        env.play.pauses.request(game_id, white.id),
        env.play.pauses.answer(game_id, black.id, True),
        env.play.pauses.resume(game_id, black.id),
        env.play.pauses.resume(game_id, white.id),
        env.play.seating.join(game_id, watcher.id, "sid-watch"),
        env.play.finisher.resign(game_id, white.id),
    ]


def test_a_new_game_numbers_its_events_from_the_wall_clock_in_milliseconds(started):
    live, _black, _white = started
    # game_ready was the one event so far.
    assert live.version == int(START_WALL * 1000) + 1


def test_the_events_of_every_kind_are_numbered_one_after_another(env, started, users):
    live, black, white = started
    (watcher,) = users("watcher")
    before = live.version
    found = [v for notices in actions_of_every_kind(env, live, black, white, watcher)
             for v in numbers(notices)]
    assert found == list(range(before + 1, before + 13))


def test_a_refused_action_takes_no_number(env, started):
    live, black, white = started
    before = live.version
    with pytest.raises(ActionError) as refused:
        env.play.moves.place_stone(live.game_id, white.id, 7, 7)
    assert refused.value.code == "not_your_turn"
    (placed,) = env.play.moves.place_stone(live.game_id, black.id, 7, 7)
    assert placed.payload["v"] == before + 1


def test_the_state_carries_the_number_of_the_last_event(env, started):
    live, black, white = started
    notices = play(env, live, black, white, FIVE_FOR_BLACK[:3])
    state = env.play.seating.state(live.game_id, white.id)
    assert state["v"] == numbers(notices)[-1]


def test_a_game_restored_after_a_restart_numbers_above_every_event_it_had(env, started, app,
                                                                          wall):
    live, black, white = started
    last = numbers(play(env, live, black, white, FIVE_FOR_BLACK[:4]))[-1]
    wall.advance(3)  # a restart takes seconds; a second process restores the game
    other = build_services(app)
    assert other.play.factory.restore() == 1
    (placed,) = other.play.moves.place_stone(live.game_id, black.id, 7, 9)
    assert placed.payload["v"] > last
    assert other.play.seating.state(live.game_id, black.id)["v"] == placed.payload["v"]


def test_the_last_move_sent_again_carries_the_last_number_without_counting_up(env, started):
    live, black, white = started
    play(env, live, black, white, FIVE_FOR_BLACK[:2])
    env.play.draws.offer(live.game_id, black.id)
    last = live.version
    repeated = env.play.moves.repeat_last(live)
    assert (repeated.event, repeated.payload["v"], repeated.payload["move"]) == (
        "stone_placed", last, 2)
    assert live.version == last


@pytest.mark.parametrize("after_the_end", ["rematch", "chat"])
def test_what_is_said_after_the_end_is_not_numbered(env, started, after_the_end):
    live, black, white = started
    env.play.finisher.resign(live.game_id, white.id)
    if after_the_end == "rematch":
        notices = env.play.rematches.offer(live.game_id, black.id)
    else:
        notices = env.play.chat.say(live.game_id, black, "sid-b", "good game")
    assert [notice.event for notice in notices] == [
        "rematch_offered" if after_the_end == "rematch" else "chat"]
    assert "v" not in notices[0].payload


def test_a_winning_move_is_numbered_before_the_end_it_brings(env, started):
    live, black, white = started
    notices = play(env, live, black, white, FIVE_FOR_BLACK)
    assert [(notice.event, notice.payload["v"]) for notice in notices if notice.target == GAME
            ] == [("stone_placed", live.version - 1), ("game_over", live.version)]


def test_a_move_the_database_refuses_takes_no_number(env, started, monkeypatch):
    live, black, white = started
    before = live.version

    def refuse(*_args):
        raise RuntimeError("disk full")

    monkeypatch.setattr(env.play.moves.writer, "write", refuse)
    with pytest.raises(ActionError):
        env.play.moves.place_stone(live.game_id, black.id, 7, 7)
    assert live.version == before
