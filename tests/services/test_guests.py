"""Guest accounts through the service: made per address within a limit, named so that no
person can take the name, turned into a full account by registering, and swept when unused."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from gobang.extensions import db
from gobang.models import Game, User, utcnow
from gobang.services.accounts.accounts import AccountError
from gobang.services.guests.guests import Guests
from gobang.services.history.players import computer_games
from gobang.services.notices import ActionError
from gobang.services.ratelimit import RateLimiter

HOUR = 3600


@pytest.fixture
def app_overrides() -> dict[str, object]:
    return {"GUESTS_PER_HOUR_PER_ADDRESS": 3}


def refusal(call) -> str:
    with pytest.raises(ActionError) as refused:
        call()
    return refused.value.code


def test_a_guest_gets_a_generated_name_and_no_password(env):
    guest = env.guests.create("10.0.0.1")
    assert re.fullmatch(r"Guest \d{6}", guest.username)
    assert (guest.guest, guest.is_active, guest.score, guest.games) == (True, True, 1000, 0)
    assert env.accounts.find(guest.username) == guest
    assert env.accounts.authenticate(guest.username, "") is None
    assert env.accounts.authenticate(guest.username, "!") is None


def test_nobody_can_register_a_guests_name(env):
    guest = env.guests.create("10.0.0.1")
    with pytest.raises(AccountError):
        env.accounts.register(guest.username, "password1", "password1")


@pytest.mark.parametrize("name", ["guest_123456", "Guest-7", "GUEST42", "guest０１"])
def test_a_name_that_would_pass_for_a_guests_is_refused(env, name):
    assert env.accounts.name_problem(name) == "Names like Guest 123456 are kept for guests."


@pytest.mark.parametrize("name", ["guesthouse", "guest_", "myguest1", "guest_1a"])
def test_names_merely_starting_with_guest_are_free(env, name):
    assert env.accounts.name_problem(name) is None


def test_guests_are_limited_per_address_per_hour(env, clock):
    for _ in range(3):
        env.guests.create("10.0.0.1")
    assert refusal(lambda: env.guests.create("10.0.0.1")) == "rate_limited"
    assert env.guests.create("10.0.0.2").guest  # another address has its own count
    clock.advance(HOUR)
    assert env.guests.create("10.0.0.1").guest
    assert db.session.scalar(select(db.func.count(User.id)).where(User.guest)) == 5


@pytest.mark.parametrize("app_overrides", [{"GUESTS_PER_HOUR_PER_ADDRESS": 0}])
def test_a_host_may_offer_no_guests(env):
    assert not env.guests.open
    assert refusal(lambda: env.guests.create("10.0.0.1")) == "not_found"
    assert db.session.scalar(select(User.id)) is None


class Repeating(random.Random):
    """Draws each of `numbers` in turn: names that clash, then one that does not."""

    def __init__(self, numbers: list[int]) -> None:
        super().__init__(0)
        self.numbers = numbers

    def randrange(self, *_args, **_kwargs) -> int:
        return self.numbers.pop(0)


def test_a_name_already_taken_is_drawn_again(env):
    guests = Guests(RateLimiter(10, HOUR), Repeating([111111, 111111, 222222]), 1000, 10)
    assert guests.create("a").username == "Guest 111111"
    assert guests.create("a").username == "Guest 222222"


def test_no_free_name_is_a_conflict_and_makes_nothing(env):
    guests = Guests(RateLimiter(10, HOUR), Repeating([111111] * 6), 1000, 10)
    guests.create("a")
    assert refusal(lambda: guests.create("a")) == "conflict"
    assert db.session.scalar(select(db.func.count(User.id))) == 1


def finished_computer_game(env, user: User) -> int:
    game_id, _ = env.computer.start(user, 1, "black")
    env.play.seating.join(game_id, user.id, "sid-guest")
    env.play.finisher.resign(game_id, user.id)
    return game_id


def test_registering_turns_the_guest_into_the_account_with_its_games(env):
    guest = env.guests.create("10.0.0.1")
    guest_id, guest_name = guest.id, guest.username
    game_id = finished_computer_game(env, guest)
    account = env.accounts.register("ann_an", "password1", "password1", guest=guest)
    assert account.id == guest_id
    assert (account.username, account.guest) == ("ann_an", False)
    assert env.accounts.authenticate("ann_an", "password1") == account
    assert env.accounts.find(guest_name) is None  # a guest's name goes with the guest
    assert [row["game_id"] for row in computer_games(account.id).items] == [game_id]
    assert db.session.get(Game, game_id).black_id == account.id


def test_a_refused_registration_leaves_the_guest_as_it_was(env):
    guest = env.guests.create("10.0.0.1")
    name = guest.username
    with pytest.raises(AccountError):
        env.accounts.register("ann_an", "password1", "different", guest=guest)
    db.session.rollback()
    again = db.session.get(User, guest.id)
    assert (again.username, again.guest) == (name, True)


def test_unused_guests_are_removed_and_the_others_kept(env, users):
    idle, played, recent = (env.guests.create(f"10.0.0.{n}") for n in (1, 2, 3))
    finished_computer_game(env, played)
    (person,) = users("bob_bo")
    for user in (idle, played, person):
        user.created_at = utcnow() - timedelta(days=10)
    db.session.commit()
    assert env.guests.remove_unused(utcnow() - timedelta(days=7)) == 1
    left = set(db.session.scalars(select(User.id).where(User.computer_level.is_(None))))
    assert left == {played.id, recent.id, person.id}
