"""The hall's services alone, on a fake clock: presence, matching, challenges, maintenance."""

from __future__ import annotations

import json

import pytest
import sqlalchemy

from gobang.extensions import db
from gobang.services.notices import ActionError
from tests.services.conftest import events
from tests.support.pools import NO_ONE_WAITING

FIVE_FOR_BLACK = [(7, 7), (8, 7), (7, 8), (8, 8), (7, 9), (8, 9), (7, 10), (8, 10), (7, 11)]


def test_hello_carries_the_view_as_last_sent(env, users, hall_of, clock):
    alice, bob = hall_of(*users("alice", "bob"))
    env.lobby.view.flush()
    clock.advance(env.lobby.view.interval)
    (carol,) = hall_of(*users("carol"))
    _replaced, hello = env.lobby.hall.connect(carol, "carol-again")
    assert [p["username"] for p in hello["view"]["players"]] == ["alice", "bob"]
    assert hello["view"]["seq"] == 1


def test_two_queued_players_are_paired_on_the_next_tick(env, users, hall_of):
    alice, bob = hall_of(*users("alice", "bob"))
    env.lobby.matchmaking.start(alice, "freestyle")
    env.lobby.matchmaking.start(bob, "freestyle")
    notices = env.lobby.matchmaking.run()
    assert events(notices)[:2] == ["match_found", "match_found"]
    assert env.play.table.current_game_of(alice.id) == env.play.table.current_game_of(bob.id)


@pytest.mark.parametrize("app_overrides", [{"MATCH_BATCH_GAMES": 2}])
def test_a_crowd_is_paired_a_batch_of_games_per_step(env, users, hall_of):
    """The ticker sends each step before making the next, so a step must hold one batch's
    notices and the later games must not exist yet."""
    crowd = hall_of(*users(*(f"pp{number}" for number in range(10))))
    for user in crowd:
        env.lobby.matchmaking.start(user, "freestyle")
    steps = env.lobby.matchmaking.steps()
    first = next(steps)
    assert events(first)[:4] == ["match_found"] * 4
    assert len(env.play.table.all()) == 2
    assert [events(step).count("match_found") for step in steps] == [4, 2]
    assert len(env.play.table.all()) == 5


def test_a_batch_of_games_is_saved_in_one_commit(env, users, hall_of):
    crowd = hall_of(*users(*(f"pp{number}" for number in range(8))))
    for user in crowd:
        env.lobby.matchmaking.start(user, "freestyle")
    commits = []
    sqlalchemy.event.listen(db.session(), "after_commit", commits.append)
    assert [events(step).count("match_found") for step in env.lobby.matchmaking.steps()] == [8]
    assert len(commits) == 1


def test_a_pairing_with_a_deleted_player_queues_the_partner_again(env, users, hall_of):
    alice, bob, carol, dave = hall_of(*users("alice", "bob", "carol", "dave"))
    for user in (alice, bob, carol, dave):
        env.lobby.matchmaking.start(user, "freestyle")
    db.session.delete(bob)
    db.session.commit()
    notices = env.lobby.matchmaking.run()
    assert events(notices).count("match_found") == 2
    assert env.play.table.current_game_of(carol.id) == env.play.table.current_game_of(dave.id)
    assert env.play.table.current_game_of(alice.id) is None
    assert env.lobby.matcher.is_queued(alice.id)


def test_leaving_the_hall_leaves_the_queue(env, users, hall_of):
    (alice,) = hall_of(*users("alice"))
    env.lobby.matchmaking.start(alice, None)
    env.lobby.hall.disconnect(alice.id, f"hall-{alice.id}-0")
    assert not env.lobby.matcher.is_queued(alice.id)


def test_an_accepted_challenge_starts_a_game(env, users, hall_of):
    alice, bob = hall_of(*users("alice", "bob"))
    challenge_id, notices = env.lobby.challenges.send(alice, "bob", "renju", [300, 3])
    assert events(notices)[0] == "challenge_received"
    notices = env.lobby.challenges.answer(bob, challenge_id, True)
    assert events(notices).count("match_found") == 2
    game = env.play.table.get(env.play.table.current_game_of(alice.id))
    assert (game.ruleset, game.clocks.increment_ms) == ("renju", 3000)


@pytest.mark.parametrize("choice", [[180.0, 2.0], [180, 2.5], [True, 2], ["180", "2"], [60, 0]])
def test_a_challenge_clock_must_be_one_of_the_choices_in_whole_seconds(env, users, hall_of,
                                                                       choice):
    alice, _bob = hall_of(*users("alice", "bob"))
    with pytest.raises(ActionError) as refused:
        env.lobby.challenges.send(alice, "bob", "freestyle", choice)
    assert refused.value.code == "bad_request"


def test_a_rematch_takes_a_queued_player_out_of_the_queue(env, users, hall_of):
    """One live game per player: A offers a rematch, then presses Match; B accepts the
    rematch; C presses Match. C must not be paired with A."""
    a, b, c = hall_of(*users("aa_a", "bb_b", "cc_c"))
    live, _ = env.play.factory.create(a, b, "freestyle")
    env.play.seating.join(live.game_id, a.id, "room-a")
    env.play.seating.join(live.game_id, b.id, "room-b")
    env.play.finisher.resign(live.game_id, b.id)
    env.play.rematches.offer(live.game_id, a.id)
    env.lobby.matchmaking.start(a, None)
    env.play.rematches.offer(live.game_id, b.id)
    env.lobby.matchmaking.start(c, None)
    assert events(env.lobby.matchmaking.run()) == []
    assert env.play.table.current_game_of(c.id) is None
    assert not env.lobby.matcher.is_queued(a.id)


def test_maintenance_empties_the_queue_and_refuses_new_games(env, users, hall_of):
    (alice,) = hall_of(*users("alice"))
    env.lobby.matchmaking.start(alice, None)
    assert "maintenance" in events(env.lobby.hall.set_maintenance(True))
    assert not env.lobby.matcher.is_queued(alice.id)
    with pytest.raises(ActionError) as refused:
        env.lobby.matchmaking.start(alice, None)
    assert refused.value.code == "conflict"


def test_a_challenge_finds_a_name_typed_in_full_width_letters(env, users, hall_of):
    alice, _bob = hall_of(*users("alice", "bob"))
    _challenge_id, notices = env.lobby.challenges.send(alice, "ｂｏｂ", "freestyle")
    assert events(notices)[0] == "challenge_received"


def test_the_view_sends_nothing_while_nothing_changes(env, users, hall_of, clock):
    hall_of(*users("alice"))
    assert events(env.lobby.view.flush()) == ["hall_update"]
    for _ in range(3):
        clock.advance(env.lobby.view.interval)
        assert env.lobby.view.flush() == []


def test_the_view_waits_for_its_interval(env, users, hall_of, clock):
    hall_of(*users("alice"))
    env.lobby.view.flush()
    hall_of(*users("bob"))
    clock.advance(env.lobby.view.interval / 2)
    assert env.lobby.view.flush() == []
    clock.advance(env.lobby.view.interval / 2)
    assert events(env.lobby.view.flush()) == ["hall_update"]


def test_an_update_carries_only_what_changed(env, users, hall_of, clock):
    alice, bob = hall_of(*users("alice", "bob"))
    env.lobby.view.flush()
    env.lobby.matchmaking.start(alice, "standard")
    env.lobby.hall.disconnect(bob.id, f"hall-{bob.id}-1")
    clock.advance(env.lobby.view.interval)
    (update,) = env.lobby.view.flush()
    assert update.payload == {
        "seq": 2,
        "counts": {"online": 1, "playing": 0,
                   "waiting": {**NO_ONE_WAITING, "standard/600+5": 1}},
        "players": {"set": [{**alice.player(), "status": "queued", "game_id": None}],
                    "removed": [bob.id]},
        "games": {"set": [], "removed": []}}


def test_a_finished_game_updates_scores_statuses_and_games(env, users, hall_of, clock):
    alice, bob = hall_of(*users("alice", "bob"))
    live, _ = env.play.factory.create(alice, bob, "freestyle")
    env.play.seating.join(live.game_id, alice.id, "room-a")
    env.play.seating.join(live.game_id, bob.id, "room-b")
    env.lobby.view.flush()
    env.play.finisher.resign(live.game_id, bob.id)
    clock.advance(env.lobby.view.interval)
    (update,) = env.lobby.view.flush()
    listed = update.payload["players"]["set"]
    assert {(p["username"], p["score"] > 1000, p["status"]) for p in listed} == {
        ("alice", True, "idle"), ("bob", False, "idle")}
    assert update.payload["games"]["removed"] == [live.game_id]


@pytest.mark.parametrize(("prefix", "found"), [
    ("A", ["alfred", "alice"]), ("ali", ["alice"]), ("ＡＬＦ", ["alfred"]), ("c", []),
])
def test_presence_finds_players_here_by_prefix(env, users, hall_of, prefix, found):
    hall_of(*users("alice", "alfred", "bob"))
    users("carol")
    assert [p["username"] for p in env.lobby.presence.find(prefix, 20)] == found


# docs/protocol.md states these bounds (an empty chat: it adds its own). Measured as Socket.IO
# sends JSON: compact, anything outside ASCII as \uXXXX escapes (6 bytes a character). Rated:
# every player rated in every category on offer, each listed player's `ratings` full.
HELLO_BOUNDS = [
    ("abcdefghijklmnopq{:03d}", False, 9_600),
    ("五子棋玩家名字很长的一位棋手第{:03d}号位", False, 17_300),
    ("abcdefghijklmnopq{:03d}", True, 14_900),
    ("五子棋玩家名字很长的一位棋手第{:03d}号位", True, 22_600),
]


def rate(user, categories, rating=1623.4, deviation=60.0):
    from gobang.models import CategoryRating

    for category in categories:
        db.session.add(CategoryRating(user_id=user.id, category=category, rating=rating,
                                      deviation=deviation, volatility=0.06, games=20))
    db.session.commit()


@pytest.mark.parametrize(("pattern", "rated", "bound"), HELLO_BOUNDS)
def test_hello_in_a_full_hall_stays_within_its_documented_bound(env, users, hall_of, pattern,
                                                                rated, bound):
    people = users(*(pattern.format(n) for n in range(60)))
    for person in people if rated else ():
        rate(person, env.lobby.presence.categories)
    hall_of(*people)
    for black, white in zip(people[:40:2], people[1:40:2], strict=True):
        env.play.factory.create(black, white, "freestyle")
    env.lobby.view.flush()
    _replaced, hello = env.lobby.hall.connect(people[0], "again")
    assert (len(hello["view"]["players"]), len(hello["view"]["games"])) == (50, 20)
    assert all(len(p["username"]) == 20 for p in hello["view"]["players"])
    assert all(("ratings" in p) is rated for p in hello["view"]["players"])
    assert len(json.dumps(hello, separators=(",", ":"))) <= bound


def test_the_hall_lists_a_players_ratings_in_the_categories_on_offer_by_place(env, users,
                                                                             hall_of, clock):
    ann, ben = users("ann", "ben")
    rate(ann, ["renju:rapid"], rating=1701.6)
    rate(ann, ["freestyle:blitz"], rating=1432.2, deviation=200.0)
    rate(ann, ["freestyle:classical"])  # no clock on offer is classical
    _replaced, hello = env.lobby.hall.connect(ann, "hall-ann")
    categories = hello["rating_categories"]
    assert categories == ["freestyle:blitz", "freestyle:rapid", "freestyle:untimed",
                          "standard:blitz", "standard:rapid", "standard:untimed",
                          "renju:blitz", "renju:rapid", "renju:untimed"]
    hall_of(ben)
    env.lobby.view.flush()
    listed = {p["username"]: p for p in env.lobby.view.snapshot()["players"]}
    assert "ratings" not in listed["ben"]  # a newcomer everywhere
    expected = [None] * len(categories)
    expected[categories.index("freestyle:blitz")] = [1432, 1]
    expected[categories.index("renju:rapid")] = [1702, 0]
    assert listed["ann"]["ratings"] == expected


@pytest.mark.parametrize(("time_control", "listed"), [
    ((180, 2), [180, 2]), (None, None), ((600, 5), "left out")])
def test_the_hall_lists_a_live_games_clock_unless_it_is_the_default(env, users, time_control,
                                                                    listed):
    """The default clock (hello's default_clock, 10+5 here) goes without saying: most games
    are played with it, and the list's size is bounded."""
    black, white = users("ann", "ben")
    env.play.factory.create(black, white, "freestyle", time_control=time_control)
    env.lobby.view.flush()
    (game,) = env.lobby.view.snapshot()["games"]
    assert game.get("clock", "left out") == listed


@pytest.mark.parametrize("text", ["a" * 300, "棋" * 300])
def test_hello_brings_the_newest_chat_within_its_byte_bound(env, users, hall_of, text):
    import json

    from gobang.services.hall.chat import HELLO_CHAT_BYTES

    (alice,) = hall_of(*users("alice"))
    env.lobby.chat.limiter.enabled = False
    for number in range(50):
        env.lobby.chat.say(alice, f"{number} {text}"[:300])
    recent = env.lobby.chat.recent()
    assert 0 < len(recent) < 50
    assert len(json.dumps(recent)) <= HELLO_CHAT_BYTES
    assert recent[-1]["text"].startswith("49 ")


@pytest.mark.parametrize("app_overrides", [{"HALL_LIST_SIZE": 1}])
def test_an_arrival_beyond_the_lists_size_still_updates_the_counts(env, users, hall_of, clock):
    hall_of(*users("alice"))
    env.lobby.view.flush()
    hall_of(*users("bob"))  # the same score, a later id: not listed
    clock.advance(env.lobby.view.interval)
    (update,) = env.lobby.view.flush()
    assert update.payload["counts"]["online"] == 2
    assert update.payload["players"] == {"set": [], "removed": []}


def test_the_playing_count_is_both_players_of_each_game(env, users, hall_of, clock):
    alice, bob = hall_of(*users("alice", "bob"))
    live, _ = env.play.factory.create(alice, bob, "freestyle")
    env.play.seating.join(live.game_id, alice.id, "room-a")
    env.play.seating.join(live.game_id, bob.id, "room-b")
    (update,) = env.lobby.view.flush()
    assert update.payload["counts"]["playing"] == 2


def test_leaving_the_site_cancels_every_challenge_received(env, users, hall_of):
    alice, bob, carol = hall_of(*users("alice", "bob", "carol"))
    first, _notices = env.lobby.challenges.send(alice, "bob", "freestyle")
    second, _notices = env.lobby.challenges.send(carol, "bob", "freestyle")
    notices = env.lobby.hall.disconnect(bob.id, f"hall-{bob.id}-1")
    cancelled = {n.payload["challenge_id"] for n in notices if n.event == "challenge_cancelled"}
    assert cancelled == {first, second}


def test_a_challenge_is_answered_only_by_the_player_challenged(env, users, hall_of):
    alice, _bob = hall_of(*users("alice", "bob"))
    challenge_id, _notices = env.lobby.challenges.send(alice, "bob", "freestyle")
    with pytest.raises(ActionError) as refused:
        env.lobby.challenges.answer(alice, challenge_id, True)
    assert refused.value.code == "not_found"
    assert env.play.table.current_game_of(alice.id) is None
