"""Opening rules step by step (gobang/rules/openings.py): who acts, what they may do, the
refusals, and who holds black at the end."""

from __future__ import annotations

import pytest

from gobang.rules.errors import IllegalMove
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

C = 7  # the centre


def play(rule: str, *steps) -> Opening:
    opening = Opening(rule)
    for actor, action in steps:
        opening = opening.apply(actor, action)
    return opening


def refusal(opening: Opening, actor: str, action) -> str:
    with pytest.raises(IllegalMove) as refused:
        opening.apply(actor, action)
    return refused.value.code


THREE = [(FIRST, Place((7, 7))), (FIRST, Place((7, 8))), (FIRST, Place((8, 8)))]


def test_no_opening_is_over_at_once_with_the_first_player_black():
    opening = Opening("none")
    assert (opening.over, opening.black, opening.stones) == (True, FIRST, [])


@pytest.mark.parametrize(("choice", "black"), [("black", SECOND), ("white", FIRST)])
def test_swap_the_second_player_picks_a_colour_after_three_stones(choice, black):
    before = play("swap", *THREE)
    assert (before.step.actor, before.step.kind, before.step.options) == (
        SECOND, "choose", ("black", "white"))
    after = before.apply(SECOND, Choose(choice))
    assert (after.over, after.black, after.stones) == (True, black, [(7, 7), (7, 8), (8, 8)])


def test_swap_the_second_player_may_not_place_the_first_three():
    assert refusal(Opening("swap"), SECOND, Place((7, 7))) == "not_your_turn"


@pytest.mark.parametrize(("choice", "black"), [("black", SECOND), ("white", FIRST)])
def test_swap2_taking_a_colour_ends_the_opening(choice, black):
    after = play("swap2", *THREE, (SECOND, Choose(choice)))
    assert (after.over, after.black, len(after.stones)) == (True, black, 3)


@pytest.mark.parametrize(("choice", "black"), [("black", FIRST), ("white", SECOND)])
def test_swap2_two_more_stones_and_the_first_player_picks(choice, black):
    two = play("swap2", *THREE, (SECOND, Choose("place_two")),
               (SECOND, Place((6, 6))), (SECOND, Place((9, 9))))
    assert (two.step.actor, two.step.kind) == (FIRST, "choose")
    after = two.apply(FIRST, Choose(choice))
    assert (after.over, after.black, len(after.stones)) == (True, black, 5)


@pytest.mark.parametrize(("actor", "action", "code"), [
    (SECOND, Choose("place_two"), "bad_request"),   # swap2's option, not swap's
    (SECOND, Place((0, 0)), "conflict"),             # a colour is to be chosen
    (FIRST, Choose("black"), "not_your_turn"),
])
def test_swap_refusals_at_the_choice(actor, action, code):
    assert refusal(play("swap", *THREE), actor, action) == code


@pytest.mark.parametrize(("point", "code"), [((7, 7), "occupied"), ((15, 0), "out_of_range")])
def test_a_placed_stone_is_checked_as_a_move(point, code):
    assert refusal(play("swap", THREE[0]), FIRST, Place(point)) == code


def test_after_the_end_nothing_more_is_taken():
    assert refusal(Opening("none"), FIRST, Place((7, 7))) == "conflict"


# Taraguchi-10: a symmetric position (the blacks on the centre column, the whites mirrored
# across it), each stone in its square, nobody swapping.
T4 = [(FIRST, Place((C, C))), (SECOND, Choose("white")),
      (SECOND, Place((8, 6))), (FIRST, Choose("black")),
      (FIRST, Place((9, 7))), (SECOND, Choose("white")),
      (SECOND, Place((8, 8))), (FIRST, Choose("black"))]


@pytest.mark.parametrize(("stones_before", "point", "area"), [
    (0, (7, 8), 1), (2, (9, 7), 3), (4, (10, 7), 5), (6, (11, 8), 7)])
def test_taraguchi_each_stone_outside_its_square_is_refused(stones_before, point, area):
    opening = play("taraguchi-10", *T4[:stones_before])
    assert (opening.step.kind, opening.step.area) == ("place", area)
    assert refusal(opening, opening.step.actor, Place(point)) == "outside_area"


def test_taraguchi_a_swap_is_offered_to_the_other_player_after_each_stone():
    opening = play("taraguchi-10", T4[0])
    assert (opening.step.actor, opening.step.kind) == (SECOND, "choose")


def test_taraguchi_a_swap_hands_the_next_stone_to_the_new_holder_of_its_colour():
    # SECOND takes black after the first stone: FIRST now holds white and places the second.
    opening = play("taraguchi-10", T4[0], (SECOND, Choose("black")))
    assert (opening.black, opening.step.actor, opening.step.area) == (SECOND, FIRST, 3)


def test_taraguchi_black_places_the_fifth_within_9x9_then_white_may_swap():
    four = play("taraguchi-10", *T4)
    assert (four.step.actor, four.step.kind, four.step.area) == (FIRST, "fifth", 9)
    assert refusal(four, FIRST, Place((12, 7))) == "outside_area"
    fifth = four.apply(FIRST, Place((11, 11)))
    assert (fifth.step.actor, fifth.step.kind) == (SECOND, "choose")
    after = fifth.apply(SECOND, Choose("black"))
    assert (after.over, after.black, len(after.stones)) == (True, SECOND, 5)


TEN = ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (0, 7), (1, 1), (1, 2))


def test_taraguchi_ten_offered_fifths_and_white_picks_one():
    offered = play("taraguchi-10", *T4, (FIRST, Offer(TEN)))
    assert (offered.step.actor, offered.step.kind, offered.step.offers) == (SECOND, "pick", TEN)
    assert refusal(offered, SECOND, Pick((2, 2))) == "not_offered"
    after = offered.apply(SECOND, Pick((0, 3)))
    assert (after.over, after.black, after.stones[-1]) == (True, FIRST, (0, 3))


@pytest.mark.parametrize(("points", "code"), [
    (TEN[:9], "bad_request"),                       # nine, not ten
    ((*TEN[:9], (0, 0)), "repeated_offer"),
    ((*TEN[:9], (0, 14)), "symmetric_offer"),       # the mirror of (0, 0) in this position
    ((*TEN[:9], (C, C)), "occupied"),
])
def test_taraguchi_offers_refused(points, code):
    assert refusal(play("taraguchi-10", *T4), FIRST, Offer(points)) == code


def test_points_are_symmetric_only_under_the_positions_own_symmetries():
    stones = [(C, C), (8, 6), (9, 7), (8, 8)]  # black, white, black, white
    assert symmetric_points((0, 0), stones) == {(0, 0), (0, 14)}
    assert symmetric_points((0, 0), [(C, C)]) == {
        (0, 0), (0, 14), (14, 0), (14, 14)}


@pytest.mark.parametrize(("point", "area", "inside"), [
    ((7, 7), 1, True), ((7, 8), 1, False), ((9, 5), 5, True), ((10, 7), 5, False)])
def test_the_central_squares(point, area, inside):
    assert within(point, area) == inside


def test_an_opening_is_rebuilt_from_its_log_after_a_restart():
    before = play("taraguchi-10", *T4, (FIRST, Offer(TEN)))
    again = Opening("taraguchi-10", before.log)
    assert (again.step, again.stones, again.black) == (before.step, before.stones, before.black)


def test_a_log_that_does_not_follow_the_opening_is_refused():
    with pytest.raises(ValueError, match="does not follow"):
        Opening("swap", [(SECOND, Place((7, 7)))])


def test_an_unknown_opening_is_refused():
    with pytest.raises(ValueError, match="unknown opening"):
        Opening("pro")
