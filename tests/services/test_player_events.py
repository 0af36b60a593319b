"""Tournaments created by players, within the host's limits, cancelling them, and each
event's chat (gobang/services/player_events), on wall and monotonic clocks the test moves."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from gobang.extensions import db
from gobang.models import ModerationEntry, Tournament, TournamentChatLine
from gobang.services.notices import ActionError
from tests.services.test_arenas import WALL_START, plan
from tests.support.clock import FakeClock

DAY = 24 * 3600
SAID_TOO_FAST = 5  # CHAT_MESSAGES_PER_WINDOW, in CHAT_WINDOW_SECONDS (10)


@pytest.fixture
def wall() -> FakeClock:
    return FakeClock(WALL_START)


@pytest.fixture
def base_overrides(clock, wall):
    return {"CLOCK": clock, "WALL_CLOCK": wall, "RANDOM": random.Random(7),
            "CHAT_REFUSED_WORDS": ["badword"]}


@pytest.fixture
def app_overrides():
    return {"PLAYER_TOURNAMENTS": True, "TOURNAMENTS_PER_DAY": 3}


@pytest.fixture
def hosting(env):
    return env.player_events.hosting


@pytest.fixture
def chat(env):
    return env.player_events.chat


@pytest.fixture
def ann(users):
    return users("ann")[0]


@pytest.fixture
def event(hosting, ann):
    """ann's arena: it starts in 5 minutes and lasts an hour."""
    return hosting.create(ann, plan())


def at(seconds_from_start: float) -> datetime:
    return datetime.fromtimestamp(WALL_START + seconds_from_start, UTC).replace(tzinfo=None)


def stored() -> list[Tournament]:
    return list(db.session.scalars(select(Tournament).order_by(Tournament.id)))


def refusal(action) -> ActionError:
    with pytest.raises(ActionError) as refused:
        action()
    return refused.value


# Creating


def test_a_player_s_event_is_theirs_and_under_the_players_limits(event, ann):
    assert (event.status, event.created_by, event.created_by_id, event.by_player) == (
        "scheduled", "ann", ann.id, True)


def test_the_creator_is_named_as_they_are_called_now(event, ann):
    ann.username = "anna"
    db.session.commit()
    assert event.creator_name == "anna"


@pytest.mark.parametrize("changes", [
    {"starts_in_minutes": 1}, {"starts_in_minutes": 7 * 24 * 60}, {"minutes": 10},
    {"minutes": 180},
])
def test_the_bounds_themselves_are_allowed(hosting, ann, changes):
    assert hosting.create(ann, plan(**changes)).status == "scheduled"


def test_a_player_s_swiss_event_is_bounded_by_its_rounds_not_minutes(hosting, ann):
    made = hosting.create(ann, plan(kind="swiss", rounds=5, minutes=None))
    assert (made.kind, made.rounds, made.minutes) == ("swiss", 5, None)


@pytest.mark.parametrize("changes, message", [
    ({"starts_in_minutes": 0.5}, "Your tournament starts 1 minute to 7 days from now."),
    ({"starts_in_minutes": 7 * 24 * 60 + 1}, "Your tournament starts 1 minute to 7 days from now."),
    ({"starts_in_minutes": float("nan")}, "Your tournament starts 1 minute to 7 days from now."),
    ({"minutes": 9}, "Your arena lasts 10 to 180 minutes."),
    ({"minutes": 181}, "Your arena lasts 10 to 180 minutes."),
    ({"name": "The BADWORD cup"}, "The name has a word this server does not allow."),
    ({"name": " "}, "A tournament's name has 1 to 80 characters."),
])
def test_a_player_s_plan_out_of_bounds_is_refused_and_nothing_is_stored(hosting, ann, changes,
                                                                        message):
    refused = refusal(lambda: hosting.create(ann, plan(**changes)))
    assert (refused.code, refused.message) == ("bad_request", message)
    assert stored() == []


@pytest.mark.parametrize("who, code", [("guest", "registered_only"), ("banned", "registered_only"),
                                       ("muted", "muted")])
def test_who_may_not_create_is_refused(env, hosting, ann, wall, who, code):
    user = env.guests.create("127.0.0.1") if who == "guest" else ann
    if who == "banned":
        ann.banned = True
    if who == "muted":
        ann.muted_until = at(3600)
    db.session.commit()
    assert refusal(lambda: hosting.create(user, plan())).code == code
    assert stored() == []


def test_a_mute_that_has_ended_no_longer_stops_anyone(hosting, ann, wall):
    ann.muted_until = at(60)
    db.session.commit()
    wall.advance(61)
    assert hosting.create(ann, plan()).status == "scheduled"


@pytest.mark.parametrize("app_overrides", [{"PLAYER_TOURNAMENTS": False}])
def test_where_the_host_does_not_allow_it_players_may_not(hosting, ann, users):
    mona, = users("mona")
    mona.moderator = True
    db.session.commit()
    assert (hosting.may_create(ann), hosting.may_create(mona)) == (False, True)
    assert refusal(lambda: hosting.create(ann, plan())).code == "forbidden"
    assert [t.created_by for t in stored()] == []


def test_one_upcoming_event_at_a_time(hosting, ann, event):
    refused = refusal(lambda: hosting.create(ann, plan(name="Second")))
    assert (refused.code, refused.message) == (
        "conflict", "You already have a tournament to come: one at a time, until it starts.")
    assert [t.name for t in stored()] == ["Weekly arena"]


@pytest.mark.parametrize("status", ["running", "finished", "cancelled"])
def test_once_it_has_started_or_gone_the_next_may_be_created(hosting, ann, event, status):
    event.status = status
    db.session.commit()
    assert hosting.create(ann, plan(name="Next")).status == "scheduled"


def test_at_most_per_day_then_again_24_hours_after(hosting, ann, wall):
    for number in range(3):  # each cancelled: cancelling gives no place back
        hosting.cancel(ann, hosting.create(ann, plan(name=f"Arena {number}")).id)
        wall.advance(3600)
    refused = refusal(lambda: hosting.create(ann, plan(name="Fourth")))
    assert (refused.code, refused.message) == (
        "rate_limited", "You may create 3 tournaments in 24 hours: try again later.")
    wall.advance(DAY - 3 * 3600 + 1)  # the first is 24 hours old
    assert hosting.create(ann, plan(name="Fourth")).status == "scheduled"


def test_another_player_s_events_do_not_count(hosting, ann, event, users):
    bob, = users("bob")
    assert hosting.create(bob, plan(name="Bob's")).created_by == "bob"


def test_moderators_are_not_limited(hosting, users):
    mona, = users("mona")
    mona.moderator = True
    db.session.commit()
    for number in range(4):
        hosting.create(mona, plan(name=f"Arena {number}", starts_in_minutes=0, minutes=24 * 60))
    assert [(t.created_by_id, t.by_player) for t in stored()] == [(mona.id, False)] * 4


def test_two_requests_at_once_make_one_event(hosting, ann, monkeypatch):
    """Both pass the checks before either is stored, as two processes would: the other
    request's event is committed between this one's checks and its insert."""
    schedule = hosting.schedule
    create = schedule.create

    def the_other_request_first(*args, **kwargs):
        monkeypatch.setattr(schedule, "create", create)
        create(plan(name="The other request's"), "ann", created_by_id=ann.id, by_player=True)
        return create(*args, **kwargs)

    monkeypatch.setattr(schedule, "create", the_other_request_first)
    assert refusal(lambda: hosting.create(ann, plan())).code == "conflict"
    assert [t.name for t in stored()] == ["The other request's"]


# Cancelling


@pytest.fixture
def people(users, ann):
    bob, mona = users("bob", "mona")
    mona.moderator = True
    db.session.commit()
    return {"ann": ann, "bob": bob, "mona": mona}


@pytest.mark.parametrize("who, status, reason, code, message", [
    ("ann", "running", None, "conflict", "It has started: only a moderator can cancel it now."),
    ("ann", "finished", None, "conflict", "That tournament is already over."),
    ("bob", "scheduled", None, "forbidden",
     "Only its creator or a moderator can cancel a tournament."),
    ("mona", "scheduled", None, "bad_request", "Say why, in 1 to 500 characters."),
    ("mona", "running", "  ", "bad_request", "Say why, in 1 to 500 characters."),
    ("mona", "cancelled", "spam", "conflict", "That tournament is already over."),
])
def test_a_cancel_that_is_not_allowed_changes_nothing(hosting, event, people, who, status,
                                                      reason, code, message):
    event.status = status
    db.session.commit()
    refused = refusal(lambda: hosting.cancel(people[who], event.id, reason))
    assert (refused.code, refused.message) == (code, message)
    db.session.expire_all()
    assert event.status == status
    assert db.session.scalars(select(ModerationEntry)).all() == []


def test_the_creator_cancels_before_the_start_without_a_log_entry(hosting, event, ann):
    assert hosting.cancel(ann, event.id).status == "cancelled"
    assert db.session.scalars(select(ModerationEntry)).all() == []


@pytest.mark.parametrize("status", ["scheduled", "running"])
def test_a_moderator_cancels_with_a_reason_in_the_moderation_log(hosting, event, people,
                                                                 status):
    event.status = status
    db.session.commit()
    assert hosting.cancel(people["mona"], event.id, "spam").status == "cancelled"
    entry = db.session.scalars(select(ModerationEntry)).one()
    assert (entry.moderator_id, entry.action, entry.target_id, entry.reason) == (
        people["mona"].id, "cancel_tournament", people["ann"].id,
        f"tournament {event.id} (Weekly arena): spam")


@pytest.mark.parametrize("who, status, right", [
    ("ann", "scheduled", "creator"), ("ann", "running", None), ("bob", "scheduled", None),
    ("mona", "scheduled", "moderator"), ("mona", "running", "moderator"),
    ("mona", "finished", None), (None, "scheduled", None),
])
def test_who_is_offered_the_cancel_button(hosting, event, people, who, status, right):
    event.status = status
    assert hosting.who_cancels(people.get(who), event) == right


# The event's chat


def say(chat, user, event, text: object = "hello"):
    return chat.say(user, event.id, text)


def texts(chat, event, reader=None, after=None) -> list[str]:
    return [line["text"] for line in chat.lines(event, reader, after)["lines"]]


def test_a_line_is_stored_and_everyone_reads_it(chat, event, ann):
    line = say(chat, ann, event)
    assert line == {"id": line["id"], "from": {"id": ann.id, "username": "ann"},
                    "text": "hello", "ts": "2027-01-15T08:00:00Z"}
    assert chat.lines(event, None) == {"lines": [line], "last_id": line["id"], "open": True}


def test_players_who_did_not_join_write_too(chat, event, users):
    bob, = users("bob")
    assert say(chat, bob, event)["from"]["username"] == "bob"


def test_after_the_cursor_only_the_new_lines_come(chat, event, ann, clock):
    first = say(chat, ann, event, "one")
    say(chat, ann, event, "two")
    assert texts(chat, event, after=first["id"]) == ["two"]
    assert chat.lines(event, None, after=first["id"] + 1) == {
        "lines": [], "last_id": first["id"] + 1, "open": True}


def test_the_newest_lines_are_shown_oldest_first(chat, event, ann, clock):
    for number in range(55):
        if number % SAID_TOO_FAST == 0:
            clock.advance(10)
        say(chat, ann, event, f"line {number}")
    assert texts(chat, event) == [f"line {number}" for number in range(5, 55)]


def test_a_blocker_does_not_see_the_blocked_player_s_lines_and_others_do(env, chat, event, ann,
                                                                        users):
    bob, cyd = users("bob", "cyd")
    env.social.blocks.block(bob, ann)
    say(chat, ann, event, "from ann")
    last = say(chat, cyd, event, "from cyd")
    assert texts(chat, event, bob.id) == ["from cyd"]
    assert texts(chat, event, cyd.id) == ["from ann", "from cyd"]
    assert texts(chat, event, ann.id) == ["from ann", "from cyd"]  # who blocks whom is not told
    assert chat.lines(event, bob.id, after=last["id"] - 1)["last_id"] == last["id"]


def test_the_cursor_moves_past_lines_the_reader_does_not_see(env, chat, event, ann, users):
    bob, = users("bob")
    env.social.blocks.block(bob, ann)
    hidden = say(chat, ann, event, "from ann")
    assert chat.lines(event, bob.id, after=hidden["id"] - 1) == {
        "lines": [], "last_id": hidden["id"], "open": True}


@pytest.mark.parametrize("text, message", [
    ("", "A message has 1 to 300 characters."),
    ("   ", "A message has 1 to 300 characters."),
    ("x" * 301, "A message has 1 to 300 characters."),
    (42, "Chat text must be a string."),
    (None, "Chat text must be a string."),
    ("what a badword", "Your message has a word this server does not allow in chat."),
])
def test_a_bad_line_is_refused_and_not_stored(chat, event, ann, text, message):
    refused = refusal(lambda: say(chat, ann, event, text))
    assert (refused.code, refused.message) == ("bad_request", message)
    assert db.session.scalars(select(TournamentChatLine)).all() == []


def test_the_longest_line_is_taken(chat, event, ann):
    assert say(chat, ann, event, "x" * 300)["text"] == "x" * 300


@pytest.mark.parametrize("who, code", [("guest", "registered_only"), ("muted", "muted")])
def test_guests_and_muted_players_are_refused(env, chat, event, ann, who, code):
    user = env.guests.create("127.0.0.1") if who == "guest" else ann
    ann.muted_until = at(3600)
    db.session.commit()
    refused = refusal(lambda: say(chat, user, event))
    assert refused.code == code
    assert db.session.scalars(select(TournamentChatLine)).all() == []


def test_a_muted_player_is_told_until_when(chat, event, ann):
    ann.muted_until = at(3600)
    db.session.commit()
    assert refusal(lambda: say(chat, ann, event)).extra == {"until": "2027-01-15T09:00:00Z"}


def test_too_fast_is_rate_limited_until_the_window_passes(chat, event, ann, clock):
    for _ in range(SAID_TOO_FAST):
        say(chat, ann, event)
    refused = refusal(lambda: say(chat, ann, event))
    assert (refused.code, refused.message) == (
        "rate_limited", "You are sending messages too fast; wait a moment.")
    clock.advance(10)
    assert say(chat, ann, event)["text"] == "hello"


def test_an_unknown_event_has_no_chat(chat, ann):
    assert refusal(lambda: chat.say(ann, 999, "hello")).code == "not_found"


@pytest.mark.parametrize("after_start, status, is_open", [
    (-300, "scheduled", True),
    (3600 + 29 * 60, "finished", True),   # the end is an hour after the start: 29 minutes on
    (3600 + 30 * 60, "finished", False),  # 30 minutes after the end
    (0, "cancelled", False),
])
def test_writing_closes_half_an_hour_after_the_end_or_at_once_when_cancelled(
        chat, event, ann, wall, after_start, status, is_open):
    said = say(chat, ann, event, "before")
    wall.advance(300 + after_start)  # the event starts 5 minutes after its creation
    event.status = status
    db.session.commit()
    if is_open:
        assert say(chat, ann, event, "after")["text"] == "after"
    else:
        refused = refusal(lambda: say(chat, ann, event, "after"))
        assert (refused.code, refused.message) == ("conflict",
                                                   "This tournament's chat is closed.")
    assert chat.lines(event, None)["open"] is is_open
    assert chat.lines(event, None)["lines"][0] == said  # still readable
