"""The room's two chats over sockets (docs/protocol.md, "Two chats"): who receives a line of
each channel, mid-game and after the end, a player who asked to hear the spectators, and
each channel's history on a rejoin."""

from __future__ import annotations

import pytest

from tests.sockets.test_room import BLACK_FIVE, play
from tests.support.forms import csrf_token


@pytest.fixture
def watched(game_between, player):
    """A game in play with two spectators: (black, white, carol, dan, game_id)."""
    black, white, game_id = game_between()
    carol, dan = player("carol"), player("dan")
    for spectator in (carol, dan):
        assert spectator.emit("/room", "join_game", {"game_id": game_id})["ok"]
    for each in (black, white, carol, dan):
        each.received("/room")
    return black, white, carol, dan, game_id


def say(who, game_id: int, text: str, **extra) -> dict:
    return who.emit("/room", "chat", {"game_id": game_id, "text": text, **extra})


def texts(messages) -> list[str]:
    return [message["text"] for message in messages]


def hear_spectators(who, on: bool) -> None:
    """The player's account preference, as the Settings page or the room's switch saves it."""
    response = who.http.post("/settings/preferences/update", json={"spectator_chat": on},
                             headers={"X-CSRFToken": csrf_token(who.http, "/settings")})
    assert response.status_code == 200


def test_a_spectators_line_reaches_the_spectators_and_not_the_players_mid_game(watched):
    black, white, carol, dan, game_id = watched
    assert say(carol, game_id, "nice block!") == {"ok": True}
    for spectator in (carol, dan):
        (line,) = spectator.received("/room", "chat")
        assert line == {"game_id": game_id, "channel": "spectators",
                        "from": {"id": carol.id, "username": "carol"}, "role": "spectator",
                        "text": "nice block!", "ts": line["ts"]}
    assert black.received("/room", "chat") == []
    assert white.received("/room", "chat") == []


def test_a_players_line_reaches_everyone_in_the_room(watched):
    black, white, carol, dan, game_id = watched
    assert say(white, game_id, "good luck") == {"ok": True}
    for each in (black, white, carol, dan):
        (line,) = each.received("/room", "chat")
        assert (line["channel"], line["role"], line["text"]) == ("players", "white", "good luck")


@pytest.mark.parametrize(("who", "channel"), [("carol", "players"), ("black", "spectators")])
def test_writing_in_the_other_channel_is_refused_and_reaches_nobody(watched, who, channel):
    black, white, carol, dan, game_id = watched
    writer = carol if who == "carol" else black
    answer = say(writer, game_id, "hello", channel=channel)
    assert (answer["ok"], answer["error"]) == (False, "not_in_game")
    for each in (black, white, carol, dan):
        assert each.received("/room", "chat") == []
    state = dan.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert (state["chat"], state["spectator_chat"]) == ([], [])


def test_a_player_who_asked_to_hear_the_spectators_receives_their_lines(watched):
    black, white, carol, _dan, game_id = watched
    hear_spectators(black, True)
    black.emit("/room", "join_game", {"game_id": game_id})  # read when the player joins
    say(carol, game_id, "nice block!")
    assert texts(black.received("/room", "chat")) == ["nice block!"]
    assert white.received("/room", "chat") == []


def test_a_player_who_turns_it_off_and_joins_again_no_longer_hears_them(watched):
    black, _white, carol, _dan, game_id = watched
    hear_spectators(black, True)
    black.emit("/room", "join_game", {"game_id": game_id})
    hear_spectators(black, False)
    state = black.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert state["spectator_chat"] is None
    say(carol, game_id, "nice block!")
    assert black.received("/room", "chat") == []


def test_after_the_end_the_players_get_what_the_spectators_said_and_hear_them(watched):
    black, white, carol, dan, game_id = watched
    say(carol, game_id, "nice block!")
    play(black, white, game_id, BLACK_FIVE)
    for each in (carol, dan):
        each.received("/room")
    for each in (black, white):
        (opened,) = each.received("/room", "chat_opened")
        assert (opened["game_id"], opened["channel"], texts(opened["chat"])) == (
            game_id, "spectators", ["nice block!"])
    say(dan, game_id, "well played")
    for each in (black, white, carol, dan):
        (line,) = each.received("/room", "chat")
        assert (line["channel"], line["text"]) == ("spectators", "well played")
        assert "v" not in line


def test_channel_histories_on_a_rejoin(watched):
    black, white, carol, _dan, game_id = watched
    say(black, game_id, "good luck")
    say(carol, game_id, "nice block!")
    carol.room.disconnect("/room")
    carol.clients.pop("/room")
    again = carol.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert (texts(again["chat"]), texts(again["spectator_chat"])) == (
        ["good luck"], ["nice block!"])
    player_state = white.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert (texts(player_state["chat"]), player_state["spectator_chat"]) == (["good luck"], None)
    black.emit("/room", "resign", {"game_id": game_id})
    after = white.emit("/room", "join_game", {"game_id": game_id})["state"]
    assert (texts(after["chat"]), texts(after["spectator_chat"])) == (
        ["good luck"], ["nice block!"])


def test_a_spectator_who_goes_to_another_game_stops_hearing_the_first(game_between, watched):
    _black, _white, carol, dan, game_id = watched
    _b2, _w2, other_id = game_between("blackie2", "whitey2")
    assert dan.emit("/room", "join_game", {"game_id": other_id})["ok"]
    dan.received("/room")
    say(carol, game_id, "nice block!")
    assert dan.received("/room", "chat") == []
