"""The computer's side of an opening (gobang/ai/openings.py): a legal action at every step of
every opening rule, for both players, at every level."""

from __future__ import annotations

import random
import time

import pytest

from gobang.ai.openings import decide
from gobang.rules.openings import (
    FIRST,
    SECOND,
    Choose,
    Offer,
    Opening,
    Pick,
    Place,
    symmetric_points,
    within,
)

RULES = [("swap", "freestyle"), ("swap", "standard"), ("swap2", "freestyle"),
         ("swap2", "standard"), ("taraguchi-10", "renju")]
SEEDS = range(8)
LEVELS = (1, 3, 5, 8)


def play(rule: str, *actions) -> Opening:
    """The opening after ``actions``, each taken by whoever the step calls on."""
    opening = Opening(rule)
    for action in actions:
        opening = opening.apply(opening.step.actor, action)
    return opening


def played_out(rule: str, ruleset: str, level: int, seed: int) -> list[tuple[Opening, object]]:
    """Every (opening before, action decided) of one opening driven to its end by `decide`
    for both players; `apply` refuses any illegal action."""
    rng = random.Random(seed)
    opening = Opening(rule)
    steps = []
    while not opening.over:
        action = decide(opening, ruleset, level, rng)
        steps.append((opening, action))
        opening = opening.apply(opening.step.actor, action)
    return steps


# Taraguchi-10 up to the fifth stone: 7,7 then 6,7, 8,8 and 9,5, nobody swapping.
TARAGUCHI_FOUR = [Place((7, 7)), Choose("white"), Place((6, 7)), Choose("white"),
                  Place((8, 8)), Choose("white"), Place((9, 5)), Choose("white")]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("rule", "ruleset"), RULES)
def test_decide_drives_every_opening_to_its_end_with_legal_actions(rule, ruleset, level):
    for seed in SEEDS:
        steps = played_out(rule, ruleset, level, seed)
        assert steps, "the opening never asked anything"
        assert {opening.step.actor for opening, _ in steps} == {FIRST, SECOND}


@pytest.mark.parametrize(("rule", "ruleset", "kinds"), [
    ("swap", "freestyle", {"place", "choose"}),
    ("swap2", "standard", {"place", "choose", "place_two"}),
    ("taraguchi-10", "renju", {"place", "choose", "fifth", "offer", "pick"}),
])
def test_over_many_seeds_every_kind_of_step_and_choice_comes_up(rule, ruleset, kinds):
    seen = set()
    for seed in range(30):
        for opening, action in played_out(rule, ruleset, 1 + seed % 8, seed):
            seen.add(opening.step.kind)
            if isinstance(action, Choose) and action.option == "place_two":
                seen.add("place_two")
            if isinstance(action, Offer):
                seen.add("offer")
    assert kinds <= seen


@pytest.mark.parametrize("level", LEVELS)
def test_each_taraguchi_stone_lies_within_its_square(level):
    for seed in SEEDS:
        for opening, action in played_out("taraguchi-10", "renju", level, seed):
            if isinstance(action, Place):
                assert within(action.point, opening.step.area), (opening.step, action)


@pytest.mark.parametrize("rule", ["swap", "swap2"])
def test_swap_stones_stay_near_the_centre(rule):
    for seed in SEEDS:
        for _, action in played_out(rule, "freestyle", 8, seed):
            if isinstance(action, Place):
                assert within(action.point, 9), action


def test_taraguchi_offers_are_ten_points_no_two_symmetric():
    before = play("taraguchi-10", *TARAGUCHI_FOUR)
    offers = [action for level in (1, 2) for seed in range(25)
              if isinstance(action := decide(before, "renju", level, random.Random(seed)), Offer)]
    assert offers, "no seed offered"
    for offer in offers:
        assert len(offer.points) == 10
        seen: set[tuple[int, int]] = set()
        for point in offer.points:
            assert point not in seen and point not in before.stones
            seen |= symmetric_points(point, before.stones)


def test_white_picks_the_offered_point_worst_for_black():
    # Black's 7,7 and 8,8: a far corner is the offer that helps black least.
    offers = ((0, 0), (9, 9), (6, 6), (8, 7), (6, 8), (5, 7), (8, 6), (10, 10), (7, 9), (9, 8))
    before = play("taraguchi-10", *TARAGUCHI_FOUR, Offer(offers))
    assert before.step.kind == "pick"
    for seed in SEEDS:
        assert decide(before, "renju", 8, random.Random(seed)) == Pick((0, 0))


# Stones in order (black, white, black...): black's two stones touch while white's one is in a
# corner, or the other way round.
BLACK_AHEAD = [(7, 7), (0, 0), (7, 8)]
WHITE_AHEAD = [(0, 0), (7, 7), (14, 14)]


@pytest.mark.parametrize(("rule", "stones", "choice"), [
    ("swap", BLACK_AHEAD, "black"),
    ("swap", WHITE_AHEAD, "white"),
    ("swap2", BLACK_AHEAD, "black"),
    ("swap2", WHITE_AHEAD, "white"),
    ("swap2", [*BLACK_AHEAD, (14, 14), (7, 9)], "black"),
    ("swap2", [*WHITE_AHEAD, (7, 8), (0, 14)], "white"),
])
@pytest.mark.parametrize("level", [4, 6, 8])
def test_a_lopsided_position_is_taken_from_its_stronger_side(rule, stones, choice, level):
    actions = [Place(point) for point in stones[:3]]
    if len(stones) == 5:
        actions += [Choose("place_two"), Place(stones[3]), Place(stones[4])]
    before = play(rule, *actions)
    assert before.step.kind == "choose"
    for seed in SEEDS:
        assert decide(before, "freestyle", level, random.Random(seed)) == Choose(choice)


def test_the_weakest_level_sometimes_takes_the_weaker_side():
    before = play("swap", *[Place(point) for point in BLACK_AHEAD])
    choices = {decide(before, "freestyle", 1, random.Random(seed)) for seed in range(40)}
    assert choices == {Choose("black"), Choose("white")}


@pytest.mark.parametrize(("rule", "ruleset"), RULES)
def test_the_same_seed_decides_the_same_opening(rule, ruleset):
    def actions() -> list[object]:
        return [action for _, action in played_out(rule, ruleset, 5, 3)]

    assert actions() == actions()


@pytest.mark.parametrize(("opening", "ruleset"), [
    (Opening("none"), "freestyle"),  # over from the start
    (Opening("swap2"), "renju"),  # renju is not played with swap2
    (Opening("taraguchi-10"), "freestyle"),
])
def test_a_step_that_is_not_there_is_refused(opening, ruleset):
    with pytest.raises(ValueError):
        decide(opening, ruleset, 5, random.Random(0))


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError):
        decide(Opening("swap"), "freestyle", 10, random.Random(0))


@pytest.mark.serial  # measures CPU time per call
def test_each_decision_is_cheap():
    played_out("swap2", "standard", 8, 0)  # the first call classifies the patterns it meets
    worst = 0.0
    for rule, ruleset in RULES:
        for seed in range(4):
            rng = random.Random(seed)
            opening = Opening(rule)
            while not opening.over:
                started = time.process_time()
                action = decide(opening, ruleset, 8, rng)
                worst = max(worst, time.process_time() - started)
                opening = opening.apply(opening.step.actor, action)
    # Under 30 ms on a 2-core machine at load 4 (docs/engines.md, Openings); generous for CI.
    assert worst < 0.15
