"""What a block does, service by service: no challenge, chat line or pairing of the blocked
player reaches the blocker, and the blocked player is not told (docs/protocol.md, "Blocking").
"""

from __future__ import annotations

import pytest

from gobang.services.notices import USER, ActionError
from tests.services.conftest import FIVE_FOR_BLACK, events, play


@pytest.fixture
def blocked_pair(env, users, hall_of):
    """alice blocks bob; both in the hall."""
    alice, bob = hall_of(*users("alice", "bob"))
    env.social.blocks.block(alice, bob)
    return alice, bob


def open_challenges(env) -> list:
    return env.lobby.challenges.book.all()


# ---------- challenges ----------

def test_a_blocked_player_s_challenge_is_answered_as_any_and_reaches_nobody(env, blocked_pair):
    alice, bob = blocked_pair
    challenge_id, notices = env.lobby.challenges.send(bob, "alice", "freestyle")
    assert challenge_id
    assert "challenge_received" not in events(notices)
    assert [c.challenge_id for c in open_challenges(env)] == [challenge_id]


def test_the_blocker_cannot_accept_a_hidden_challenge_even_by_its_id(env, blocked_pair):
    alice, bob = blocked_pair
    challenge_id, _ = env.lobby.challenges.send(bob, "alice", "freestyle")
    with pytest.raises(ActionError) as refused:
        env.lobby.challenges.answer(alice, challenge_id, True)
    assert refused.value.code == "not_found"
    assert env.play.table.current_game_of(alice.id) is None
    assert len(open_challenges(env)) == 1


def test_a_hidden_challenge_ends_as_any_and_only_its_sender_hears_of_it(env, blocked_pair):
    alice, bob = blocked_pair
    challenge_id, _ = env.lobby.challenges.send(bob, "alice", "freestyle")
    notices = env.lobby.hall.disconnect(bob.id, f"hall-{bob.id}-1")
    assert [(n.event, n.target, n.key) for n in notices] == [
        ("challenge_cancelled", USER, bob.id)]
    assert open_challenges(env) == []


def test_the_blocker_s_challenge_to_whom_they_block_is_refused_and_changes_nothing(
        env, blocked_pair):
    alice, bob = blocked_pair
    env.lobby.matchmaking.start(alice, "freestyle")
    with pytest.raises(ActionError) as refused:
        env.lobby.challenges.send(alice, "bob", "freestyle")
    assert (refused.value.code, refused.value.message) == (
        "blocked", "You have blocked bob: unblock them to challenge them.")
    assert open_challenges(env) == []
    assert env.lobby.matcher.is_queued(alice.id)  # a challenge sent would have unqueued her


@pytest.mark.parametrize("blocker", [0, 1])
def test_dropping_the_challenges_between_two_players_tells_both(env, users, hall_of, blocker):
    alice, bob = hall_of(*users("alice", "bob"))
    sender, other = (alice, bob) if blocker == 0 else (bob, alice)
    challenge_id, _ = env.lobby.challenges.send(sender, other.username, "freestyle")
    notices = env.lobby.challenges.drop_between(alice.id, bob.id)
    assert sorted((n.event, n.key) for n in notices) == sorted(
        [("challenge_cancelled", alice.id), ("challenge_cancelled", bob.id)])
    assert open_challenges(env) == []


# ---------- hall chat ----------

def test_a_hall_chat_line_is_not_sent_to_those_who_block_its_author(env, blocked_pair):
    alice, bob = blocked_pair
    (line,) = env.lobby.chat.say(bob, "hello all")
    assert line.skip == (alice.id,)
    (answer,) = env.lobby.chat.say(alice, "hi")
    assert answer.skip == ()  # the blocked player still hears the blocker


def test_hello_s_chat_leaves_out_the_lines_of_those_one_blocks(env, blocked_pair, users,
                                                                 hall_of):
    alice, bob = blocked_pair
    (carol,) = hall_of(*users("carol"))
    env.lobby.chat.say(bob, "from bob")
    env.lobby.chat.say(carol, "from carol")
    assert [m["text"] for m in env.lobby.hall.connect(alice, "again")[1]["chat"]] == [
        "from carol"]
    assert [m["text"] for m in env.lobby.hall.connect(carol, "again")[1]["chat"]] == [
        "from bob", "from carol"]


# ---------- a game's room ----------

def test_a_room_chat_line_skips_its_author_s_blockers_and_carries_no_number(env, started):
    live, black, white = started
    env.social.blocks.block(white, black)
    (line,) = env.play.chat.say(live.game_id, black, "sid-b", "good luck")
    assert line.skip == (white.id,)
    assert "v" not in line.payload
    (answer,) = env.play.chat.say(live.game_id, white, "sid-w", "thanks")
    assert answer.skip == () and "v" in answer.payload


def test_the_room_s_chat_history_leaves_out_the_lines_of_those_one_blocks(env, started):
    live, black, white = started
    env.play.chat.say(live.game_id, black, "sid-b", "from black")
    env.play.chat.say(live.game_id, white, "sid-w", "from white")
    env.social.blocks.block(white, black)
    black_id, white_id = black.id, white.id  # reading a state lets go of the session
    assert [m["text"] for m in env.play.seating.state(live.game_id, white_id)["chat"]] == [
        "from white"]
    assert [m["text"] for m in env.play.seating.state(live.game_id, black_id)["chat"]] == [
        "from black", "from white"]


@pytest.fixture
def finished(env, started):
    live, black, white = started
    play(env, live, black, white, FIVE_FOR_BLACK)
    return live, black, white


def test_a_blocked_player_s_rematch_offer_is_answered_and_goes_no_further(env, finished):
    live, black, white = finished
    env.social.blocks.block(white, black)
    assert env.play.rematches.offer(live.game_id, black.id) == []
    assert env.play.rematches.open_offers(live.game_id) == []
    with pytest.raises(ActionError) as refused:
        env.play.rematches.offer(live.game_id, white.id)
    assert refused.value.code == "blocked"
    assert env.play.table.current_game_of(white.id) is None


# ---------- pools ----------

@pytest.mark.parametrize("blocker", [0, 1], ids=["alice-blocks-bob", "bob-blocks-alice"])
def test_matching_never_pairs_two_players_either_of_whom_blocks_the_other(
        env, users, hall_of, clock, blocker):
    alice, bob = hall_of(*users("alice", "bob"))
    people = (alice, bob)
    env.social.blocks.block(people[blocker], people[1 - blocker])
    for user in people:
        env.lobby.matchmaking.start(user, "freestyle")
    clock.advance(600)
    assert env.lobby.matchmaking.run() == []
    (carol,) = hall_of(*users("carol"))
    env.lobby.matchmaking.start(carol, "freestyle")
    assert events(env.lobby.matchmaking.run()).count("match_found") == 2
    assert env.lobby.matcher.is_queued(alice.id) != env.lobby.matcher.is_queued(bob.id)
