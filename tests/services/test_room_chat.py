"""A game room's two chats (docs/protocol.md, "Two chats"): players write in the players'
channel, spectators in the spectators'; while the game is played the spectators' channel
reaches only those who hear it; after the end both are open to all."""

from __future__ import annotations

import pytest

from gobang.extensions import db
from gobang.services.notices import GAME, ROOM_USER, SPECTATOR_CHAT, ActionError

WATCHER_SID = "sid-watch"


@pytest.fixture
def room(env, started, users):
    """The started game with a spectator seated: (live, black, white, watcher)."""
    live, black, white = started
    (watcher,) = users("watcher")
    env.play.seating.join(live.game_id, watcher.id, WATCHER_SID)
    return live, black, white, watcher


def say(env, live, user, text="hello", channel=None):
    sid = WATCHER_SID if user.username == "watcher" else "sid-b"
    return env.play.chat.say(live.game_id, user, sid, text, channel)


def wants_spectators(user, on: bool = True) -> None:
    user.preferences = {"spectator_chat": on}
    db.session.commit()


@pytest.mark.parametrize(("who", "asked", "channel"), [
    ("black", None, "players"),
    ("black", "players", "players"),
    ("white", "players", "players"),
    ("watcher", None, "spectators"),
    ("watcher", "spectators", "spectators"),
])
def test_each_writes_in_their_own_channel(env, room, who, asked, channel):
    live, black, white, watcher = room
    user = {"black": black, "white": white, "watcher": watcher}[who]
    (notice,) = say(env, live, user, channel=asked)
    assert notice.payload["channel"] == channel
    assert [m["text"] for m in env.play.chat.history(live.game_id, channel)] == ["hello"]


@pytest.mark.parametrize(("who", "asked", "code"), [
    ("watcher", "players", "not_in_game"),
    ("black", "spectators", "not_in_game"),
    ("black", "everyone", "bad_request"),
    ("watcher", 1, "bad_request"),
    ("watcher", ["spectators"], "bad_request"),
])
def test_writing_in_another_channel_is_refused_and_changes_nothing(env, room, who, asked,
                                                                   code):
    live, black, _white, watcher = room
    user = black if who == "black" else watcher
    for _ in range(6):  # more than the rate limit's 5: the refusals took none of it
        with pytest.raises(ActionError) as refused:
            say(env, live, user, channel=asked)
        assert refused.value.code == code
    assert env.play.chat.history(live.game_id, "players") == []
    assert env.play.chat.history(live.game_id, "spectators") == []
    assert say(env, live, user)  # their own channel still takes a line


def test_a_players_line_goes_to_the_whole_room_numbered(env, room):
    live, black, _white, _watcher = room
    before = live.version
    (notice,) = say(env, live, black)
    assert (notice.target, notice.key, notice.payload["v"]) == (GAME, live.game_id, before + 1)


def test_a_spectators_line_in_play_goes_only_to_its_hearers_unnumbered(env, room):
    live, _black, _white, watcher = room
    before = live.version
    (notice,) = say(env, live, watcher, "nice block!")
    assert (notice.target, notice.key) == (SPECTATOR_CHAT, live.game_id)
    assert "v" not in notice.payload
    assert live.version == before  # players who do not hear it see no gap


@pytest.mark.parametrize("who", ["black", "watcher"])
def test_after_the_end_a_line_of_either_channel_goes_to_the_whole_room(env, room, who):
    live, black, white, watcher = room
    env.play.finisher.resign(live.game_id, white.id)
    (notice,) = say(env, live, black if who == "black" else watcher)
    assert (notice.target, notice.key) == (GAME, live.game_id)
    assert "v" not in notice.payload


def test_each_channel_keeps_its_own_last_fifty_lines(env, room, clock):
    live, black, _white, watcher = room
    for number in range(55):
        # Two speakers, past the rate limit's window each time.
        clock.advance(10)
        say(env, live, black, f"p{number}")
        say(env, live, watcher, f"s{number}")
    players = env.play.chat.history(live.game_id, "players")
    spectators = env.play.chat.history(live.game_id, "spectators")
    assert [m["text"] for m in players] == [f"p{n}" for n in range(5, 55)]
    assert [m["text"] for m in spectators] == [f"s{n}" for n in range(5, 55)]


@pytest.mark.parametrize(("who", "preference", "hears"), [
    ("watcher", False, True),
    ("black", False, False),
    ("black", True, True),
])
def test_who_hears_the_spectators_chat_in_play(env, room, who, preference, hears):
    live, black, _white, watcher = room
    user = black if who == "black" else watcher
    wants_spectators(user, preference)
    assert env.play.chat.hears_spectators(live.game_id, user.id) is hears


def test_after_the_end_everyone_hears_the_spectators_chat(env, room):
    live, black, white, _watcher = room
    env.play.finisher.resign(live.game_id, white.id)
    assert env.play.chat.hears_spectators(live.game_id, black.id) is True


@pytest.mark.parametrize(("who", "preference", "shown"), [
    ("watcher", False, ["nice block!"]),
    ("black", False, None),
    ("black", True, ["nice block!"]),
])
def test_the_join_state_carries_the_histories_the_joiner_may_read(env, room, who, preference,
                                                                  shown):
    live, black, _white, watcher = room
    say(env, live, black, "good luck")
    say(env, live, watcher, "nice block!")
    user = black if who == "black" else watcher
    wants_spectators(user, preference)
    state = env.play.seating.state(live.game_id, user.id)
    assert [m["text"] for m in state["chat"]] == ["good luck"]
    assert (state["spectator_chat"] if shown is None
            else [m["text"] for m in state["spectator_chat"]]) == shown


def test_after_the_end_the_join_state_carries_both_histories(env, room):
    live, black, white, watcher = room
    say(env, live, black, "good luck")
    say(env, live, watcher, "nice block!")
    env.play.finisher.resign(live.game_id, white.id)
    state = env.play.seating.state(live.game_id, black.id)
    assert [m["text"] for m in state["chat"]] == ["good luck"]
    assert [m["text"] for m in state["spectator_chat"]] == ["nice block!"]


def test_a_state_read_just_after_the_end_shows_the_spectators_chat(env, room):
    """A player's join decided before the end that they do not hear it; the state read after
    the end must not hide what the end opened."""
    live, black, white, watcher = room
    say(env, live, watcher, "nice block!")
    env.play.finisher.resign(live.game_id, white.id)
    state = env.play.seating.state(live.game_id, black.id, hears_spectators=False)
    assert [m["text"] for m in state["spectator_chat"]] == ["nice block!"]


def test_the_end_sends_each_player_what_the_spectators_said(env, room):
    live, black, white, watcher = room
    say(env, live, watcher, "nice block!")
    notices = env.play.finisher.resign(live.game_id, white.id)
    opened = [n for n in notices if n.event == "chat_opened"]
    assert sorted((n.target, n.key) for n in opened) == sorted(
        [(ROOM_USER, black.id), (ROOM_USER, white.id)])
    for notice in opened:
        assert notice.payload["game_id"] == live.game_id
        assert notice.payload["channel"] == "spectators"
        assert [m["text"] for m in notice.payload["chat"]] == ["nice block!"]


def test_the_end_of_a_game_whose_spectators_said_nothing_sends_no_chat(env, room):
    live, black, white, _watcher = room
    say(env, live, black, "good luck")
    notices = env.play.finisher.resign(live.game_id, white.id)
    assert "chat_opened" not in [n.event for n in notices]


def test_a_spectators_line_in_play_skips_those_who_block_its_author(env, room):
    live, black, _white, watcher = room
    env.social.blocks.block(black, watcher)
    (notice,) = say(env, live, watcher, "nice block!")
    assert (notice.target, notice.skip) == (SPECTATOR_CHAT, (black.id,))


def test_the_end_sends_a_player_none_of_the_spectators_lines_by_those_they_block(env, room):
    live, black, white, watcher = room
    env.social.blocks.block(black, watcher)
    say(env, live, watcher, "nice block!")
    notices = env.play.finisher.resign(live.game_id, white.id)
    opened = {n.key: n.payload["chat"] for n in notices if n.event == "chat_opened"}
    assert list(opened) == [white.id]
