"""The matcher pairs players by their rating in the pool's category, not by the all-games
score: two players of equal score but far apart in renju blitz wait for closer opponents."""

from __future__ import annotations

from gobang.extensions import db
from gobang.models import CategoryRating
from tests.sockets.test_hall_pools import found, queue

RENJU_BLITZ = [180, 2]  # 180 + 40 x 2 = 260 s: blitz


def rate(app, client, category: str, rating: float, deviation: float = 60.0) -> None:
    with app.app_context():
        db.session.add(CategoryRating(user_id=client.id, category=category, rating=rating,
                                      deviation=deviation, volatility=0.06, games=40))
        db.session.commit()


def test_equal_scores_far_apart_in_the_category_wait_for_closer_ones(app, player, tick):
    ann, bob, cy = player("ann"), player("bob"), player("cyd")
    rate(app, ann, "renju:blitz", 2000)
    rate(app, bob, "renju:blitz", 1300)
    rate(app, cy, "renju:blitz", 1990)
    rate(app, cy, "freestyle:rapid", 1300)  # another category: no bearing here
    for client in (ann, bob):
        queue(client, RENJU_BLITZ, "renju")
    tick()
    assert ann.received("/hall", "match_found") == []
    queue(cy, RENJU_BLITZ, "renju")
    tick()
    assert found(ann)["opponent"]["username"] == "cyd"
    assert bob.received("/hall", "match_found") == []


def test_a_newcomer_to_the_category_is_matched_from_the_start_with_a_wider_gap(app, player,
                                                                              tick):
    ann, bob = player("ann"), player("bob")
    rate(app, ann, "renju:blitz", 1590)  # settled; bob is new here: 1500, provisional
    for client in (ann, bob):
        queue(client, RENJU_BLITZ, "renju")
    tick()
    assert found(bob)["opponent"]["username"] == "ann"
