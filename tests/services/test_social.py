"""Following and blocking (gobang/services/social), alone: what they keep and what they
refuse. What blocks do to challenges, chat and pairings is in tests/services/test_blocks.py."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from gobang.extensions import db
from gobang.models import Block, Follow
from gobang.services.notices import ActionError


def rows(model) -> int:
    return db.session.scalar(select(func.count()).select_from(model))


# (the service, its adding method, its removing method, its table)
RELATIONS = [("follows", "follow", "unfollow", Follow), ("blocks", "block", "unblock", Block)]


@pytest.fixture
def social(env):
    return env.social


@pytest.mark.parametrize(("service", "add", "remove", "model"), RELATIONS)
def test_adding_twice_keeps_one_row_and_says_the_second_changed_nothing(
        social, users, service, add, remove, model):
    alice, bob = users("alice", "bob")
    relation = getattr(social, service)
    assert [getattr(relation, add)(alice, bob), getattr(relation, add)(alice, bob)] == [
        True, False]
    assert rows(model) == 1


@pytest.mark.parametrize(("service", "add", "remove", "model"), RELATIONS)
def test_removing_twice_says_the_second_changed_nothing(social, users, service, add, remove,
                                                         model):
    alice, bob = users("alice", "bob")
    relation = getattr(social, service)
    getattr(relation, add)(alice, bob)
    assert [getattr(relation, remove)(alice.id, bob.id),
            getattr(relation, remove)(alice.id, bob.id)] == [True, False]
    assert rows(model) == 0


@pytest.mark.parametrize(("service", "add", "message"), [
    ("follows", "follow", "You cannot follow yourself."),
    ("blocks", "block", "You cannot block yourself.")])
def test_nobody_follows_or_blocks_themself(social, users, service, add, message):
    (alice,) = users("alice")
    with pytest.raises(ActionError) as refused:
        getattr(getattr(social, service), add)(alice, alice)
    assert (refused.value.code, refused.value.message) == ("bad_request", message)
    assert rows(Follow) + rows(Block) == 0


def closed(env, user):
    env.accounts.close(user)
    return user


def computer(env, user):
    from gobang.services.computer.players import computer_user

    return computer_user(3)


@pytest.mark.parametrize("other", [
    pytest.param(lambda env, user: None, id="nobody"),
    pytest.param(closed, id="a-closed-account"),
    pytest.param(computer, id="the-computer")])
@pytest.mark.parametrize(("service", "add"), [("follows", "follow"), ("blocks", "block")])
def test_only_a_player_with_an_account_can_be_followed_or_blocked(env, users, service, add,
                                                                   other):
    alice, bob = users("alice", "bob")
    with pytest.raises(ActionError) as refused:
        getattr(getattr(env.social, service), add)(alice, other(env, bob))
    assert refused.value.code == "not_found"
    assert rows(Follow) + rows(Block) == 0


@pytest.mark.parametrize("app_overrides", [{"FOLLOWS_AT_MOST": 2, "BLOCKS_AT_MOST": 2}])
@pytest.mark.parametrize(("service", "add", "model", "message"), [
    ("follows", "follow", Follow,
     "You follow 2 players, as many as one can: unfollow someone first."),
    ("blocks", "block", Block,
     "You block 2 players, as many as one can: unblock someone first.")])
def test_past_the_limit_nothing_is_added_and_the_refusal_says_why(social, users, service, add,
                                                                  model, message):
    alice, bob, carol, dave = users("alice", "bob", "carol", "dave")
    relation = getattr(social, service)
    getattr(relation, add)(alice, bob)
    getattr(relation, add)(alice, carol)
    with pytest.raises(ActionError) as refused:
        getattr(relation, add)(alice, dave)
    assert (refused.value.code, refused.value.message) == ("conflict", message)
    assert rows(model) == 2
    assert getattr(relation, add)(alice, bob) is False  # one already there is no new one


@pytest.mark.parametrize("app_overrides", [{"FOLLOWS_AT_MOST": 1, "BLOCKS_AT_MOST": 1}])
@pytest.mark.parametrize(("service", "add"), [("follows", "follow"), ("blocks", "block")])
def test_a_closed_account_no_longer_counts_toward_the_limit(env, users, service, add):
    alice, bob, carol = users("alice", "bob", "carol")
    relation = getattr(env.social, service)
    getattr(relation, add)(alice, bob)
    closed(env, bob)
    assert getattr(relation, add)(alice, carol) is True
    assert [user.username for user in relation.listing(alice.id)] == ["carol"]


def test_blocking_a_followed_player_stops_following_them(social, users):
    alice, bob = users("alice", "bob")
    social.follows.follow(alice, bob)
    social.blocks.block(alice, bob)
    assert not social.follows.follows(alice.id, bob.id)


def test_a_blocked_player_cannot_be_followed_until_unblocked(social, users):
    alice, bob = users("alice", "bob")
    social.blocks.block(alice, bob)
    with pytest.raises(ActionError) as refused:
        social.follows.follow(alice, bob)
    assert refused.value.code == "conflict"
    assert rows(Follow) == 0
    social.blocks.unblock(alice.id, bob.id)
    assert social.follows.follow(alice, bob) is True


def test_being_blocked_does_not_stop_one_following(social, users):
    """The blocked player is not told: nothing they can do changes because of it."""
    alice, bob = users("alice", "bob")
    social.blocks.block(alice, bob)
    assert social.follows.follow(bob, alice) is True


def test_the_lists_are_in_name_order(social, users):
    alice, *others = users("alice", "Zed", "bob", "carol")
    for other in others:
        social.follows.follow(alice, other)
        social.blocks.block(alice, other)
    assert [u.username for u in social.follows.listing(alice.id)] == []  # blocking unfollowed
    assert [u.username for u in social.blocks.listing(alice.id)] == ["bob", "carol", "Zed"]


@pytest.mark.parametrize(("blocker", "blocked", "between"), [
    (0, 1, (True, False)), (1, 0, (False, True))])
def test_between_says_who_blocks_whom(social, users, blocker, blocked, between):
    people = users("alice", "bob")
    social.blocks.block(people[blocker], people[blocked])
    assert social.blocks.between(people[0].id, people[1].id) == between


@pytest.mark.parametrize("read", [10_000, 1], ids=["one-query", "a-query-a-player"])
def test_apart_names_the_pairs_either_of_whom_blocks_the_other(social, users, monkeypatch,
                                                               read):
    monkeypatch.setattr("gobang.services.social.blocks.APART_READ", read)
    alice, bob, carol, dave = users("alice", "bob", "carol", "dave")
    social.blocks.block(alice, bob)
    social.blocks.block(dave, carol)
    social.blocks.block(alice, dave)
    assert social.blocks.apart([alice.id, bob.id, carol.id, dave.id]) == {
        frozenset({alice.id, bob.id}), frozenset({carol.id, dave.id}),
        frozenset({alice.id, dave.id})}
    assert social.blocks.apart([alice.id, carol.id]) == set()
