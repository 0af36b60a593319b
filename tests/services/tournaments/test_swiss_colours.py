"""Who gets which colour on a Swiss board (swiss.colour_of_higher): what the absolute rules
force, then the colour owed by the difference, then alternation, then rank. Black moves
first, so it stands for chess's white."""

from __future__ import annotations

import pytest

from gobang.rules import BLACK, WHITE
from gobang.services.tournaments.swiss import colour_of_higher

from .helpers import swiss_player


def colour(higher: str, lower: str, initial: str = BLACK) -> str:
    return colour_of_higher(swiss_player("h", played=higher), swiss_player("l", played=lower),
                            initial)


@pytest.mark.parametrize(("higher", "lower", "expected"), [
    ("BB", "W", WHITE),  # the higher player may not have black a third time
    ("W", "WW", WHITE),  # the lower player may not have white a third time
    ("BWBB", "BW", WHITE),  # black would take the higher player's difference to 3
])
def test_the_absolute_rules_decide_first(higher, lower, expected):
    assert colour(higher, lower) == expected


def test_two_players_owed_different_colours_both_get_theirs():
    assert colour("B", "W") == WHITE


def test_the_wider_colour_difference_is_served_before_alternation():
    # Both want black: the higher player to alternate, the lower being a black short. The
    # difference wins.
    assert colour("BW", "WBW") == WHITE


def test_with_equal_differences_alternation_from_the_last_game_they_differed_decides():
    # Both are owed white by one; back from the last game, they differ in the second last,
    # where the higher player had white: black for them now.
    assert colour("BWB", "WBB") == BLACK


def test_with_identical_histories_the_higher_player_gets_their_colour():
    assert colour("BW", "BW") == BLACK


def test_a_player_without_games_leaves_the_choice_to_the_other_s_preference():
    assert colour("", "B") == BLACK


def test_without_any_preference_the_initial_colour_goes_to_the_higher_player():
    assert colour("", "", initial=WHITE) == WHITE


def test_rounds_without_a_game_are_skipped_when_colours_are_counted_in_a_row():
    # Black, a bye, black: two blacks in a row as FIDE counts them, so white now.
    assert colour("B+B", "") == WHITE
