"""What chat refuses (docs/protocol.md, "Requests and answers"): a muted player's lines, in
the hall and in a room, and a line with a word the host listed; nobody hears a refused line."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from gobang.models import utcnow
from tests.support.games import set_columns


def mute(app, name: str, minutes: float) -> datetime:
    until = utcnow() + timedelta(minutes=minutes)
    set_columns(app, name, muted_until=until)
    return until


def test_a_muted_player_is_refused_in_the_hall_until_when(app, player):
    ann, ben = player("ann"), player("ben")
    ben.join_hall()
    until = mute(app, "ann", 30)
    answer = ann.emit("/hall", "chat", {"text": "hello"})
    assert (answer["ok"], answer["error"], answer["until"]) == (
        False, "muted", until.isoformat() + "Z")
    assert ben.received("/hall", "chat") == []


def test_a_muted_player_is_refused_in_their_game_room(app, game_between):
    black, white, game_id = game_between()
    mute(app, black.name, 5)
    answer = black.emit("/room", "chat", {"game_id": game_id, "text": "gg"})
    assert answer["error"] == "muted"
    assert white.received("/room", "chat") == []


def test_a_mute_that_has_run_out_refuses_nothing(app, player):
    ann = player("ann")
    mute(app, "ann", -1)
    assert ann.emit("/hall", "chat", {"text": "back"}) == {"ok": True}


@pytest.mark.parametrize("app_overrides", [{"CHAT_REFUSED_WORDS": ["Darn"]}])
@pytest.mark.parametrize(("text", "refused"), [
    ("darn it", True), ("DARN", True), ("Oh, darn!", True), ("darnation", False),
    ("all good", False),
])
def test_a_listed_word_is_refused_in_any_case_as_a_whole_word(player, text, refused):
    answer = player("ann").emit("/hall", "chat", {"text": text})
    assert (answer.get("error") == "bad_request") is refused
