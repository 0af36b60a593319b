"""Pairing one round of a Swiss event (gobang/services/tournaments/swiss.py): tables of
players, with their scores, past opponents and colour histories."""

from __future__ import annotations

import pytest

from gobang.rules import BLACK, WHITE
from gobang.services.tournaments.swiss import NoPairing, pair_round

from .helpers import pairs, pairs_of, swiss_player

P = swiss_player


def test_round_one_pairs_the_top_half_against_the_bottom_half_by_rating():
    field = [P(name, 2000 - 100 * number) for number, name in enumerate("abcdefgh")]
    assert pairs_of(pair_round(field)) == pairs("ae", "bf", "cg", "dh")


def test_the_order_players_are_given_in_does_not_matter():
    field = [P(name, 2000 - 100 * number) for number, name in enumerate("abcdefgh")]
    assert pair_round(field) == pair_round(field[::-1])


@pytest.mark.parametrize(("field", "expected"), [
    # After round one (a-e, b-f, c-g, d-h, the higher-rated won): each score group pairs
    # within itself, top half against bottom half.
    ([P("a", 2000, 1, "e", "B"), P("b", 1900, 1, "f", "W"), P("c", 1800, 1, "g", "B"),
      P("d", 1700, 1, "h", "W"), P("e", 1600, 0, "a", "W"), P("f", 1500, 0, "b", "B"),
      P("g", 1400, 0, "c", "W"), P("h", 1300, 0, "d", "B")],
     pairs("ac", "bd", "eg", "fh")),
    # The same, but a has met c: the next transposition in the group, a-d and b-c.
    ([P("a", 2000, 1, "ec", "BW"), P("b", 1900, 1, "fh", "WB"), P("c", 1800, 1, "ga", "BB"),
      P("d", 1700, 1, "he", "WW"), P("e", 1600, 0, "ad", "WB"), P("f", 1500, 0, "bg", "BW"),
      P("g", 1400, 0, "cf", "WB"), P("h", 1300, 0, "db", "BW")],
     pairs("ad", "bc", "eg", "fh")),
], ids=["groups", "rematch-avoided"])
def test_score_groups_are_paired_within_themselves(field, expected):
    assert pairs_of(pair_round(field)) == expected


def test_a_player_left_over_in_an_odd_group_floats_down_to_the_top_of_the_next():
    field = [P("a", 2000, 1, "d", "B"), P("b", 1900, 1, "e", "W"), P("c", 1800, 1, "f", "B"),
             P("d", 1700, 0, "a", "W"), P("e", 1600, 0, "b", "B"), P("f", 1500, 0, "c", "W")]
    pairing = pair_round(field)
    assert pairs_of(pairing) == pairs("ab", "cd", "ef")
    assert pairing.floated == ("c",)


def test_players_whose_colours_forbid_their_game_float_down_together():
    # a and b must both have white (two blacks in a row): they cannot meet, so both go
    # down to the next group, to the players who must have black.
    field = [P("a", 2000, 2, "xy", "BB"), P("b", 1900, 2, "xy", "BB"),
             P("c", 1800, 0, "xy", "WW"), P("d", 1700, 0, "xy", "WW")]
    pairing = pair_round(field)
    assert pairs_of(pairing) == pairs("ac", "bd")
    assert all(board.black in "cd" for board in pairing.boards)


@pytest.mark.parametrize(("first", "second"), [
    ("BB", "BB"), ("WW", "WW"),  # both would play the same colour a third time in a row
    ("BBWB", "BBWB"), ("WWBW", "WWBW"),  # both would take their difference to 3
    ("BB", "BWWBB"), ("BBWB", "WBB"),  # one of each
])
def test_two_players_whose_colours_forbid_the_game_are_not_paired(first, second):
    with pytest.raises(NoPairing):
        pair_round([P("a", played=first), P("b", played=second)])


@pytest.mark.parametrize(("first", "second"), [
    ("BB", "WW"), ("BBWB", "WWBW"), ("BB", "BW"), ("B-B", "W"), ("", "BB")])
def test_two_players_whose_colours_allow_the_game_are_paired(first, second):
    pairing = pair_round([P("a", played=first), P("b", played=second)])
    assert pairs_of(pairing) == pairs("ab")


def test_two_players_who_have_met_are_not_paired_again():
    with pytest.raises(NoPairing, match="no legal pairing"):
        pair_round([P("a", met="b", played="B"), P("b", met="a", played="W")])


def test_a_field_where_everyone_has_met_everyone_is_refused_whole():
    field = [P(name, met="abcd".replace(name, ""), played=played)
             for name, played in zip("abcd", ["BWB", "WBW", "BWW", "WBB"], strict=True)]
    with pytest.raises(NoPairing, match="4 players"):
        pair_round(field)


@pytest.mark.parametrize(("field", "bye"), [
    ([P("a", 2000), P("b", 1900), P("c", 1800), P("d", 1700), P("e", 1600)], "e"),
    # Lowest-ranked is by score first: e has a point, d none.
    ([P("a", 2000), P("b", 1900), P("c", 1800), P("d", 1700), P("e", 1600, 1)], "d"),
    # e has had a bye: the next one up.
    ([P("a", 2000, 1, "x", "B"), P("b", 1900, 1, "y", "W"), P("c", 1800, 1, "z", "B"),
      P("d", 1700, 1, "w", "W"), P("e", 1600, 1, "", "+")], "d"),
], ids=["lowest-rated", "lowest-score", "second-bye-refused"])
def test_the_bye_goes_to_the_lowest_ranked_player_without_one(field, bye):
    pairing = pair_round(field)
    assert pairing.bye == bye
    assert {bye} | {player for board in pairing.boards
                    for player in (board.black, board.white)} == {p.id for p in field}


def test_the_bye_moves_up_when_the_lowest_would_leave_the_rest_unpairable():
    # With c out, a and b would have to meet again; with b out, a meets c.
    field = [P("a", 2000, 1, "b", "B"), P("b", 1900, 1, "a", "W"), P("c", 1800)]
    assert pair_round(field).bye == "b"


def test_when_everyone_has_had_a_bye_an_odd_field_cannot_be_paired():
    field = [P(name, played="+") for name in "abc"]
    with pytest.raises(NoPairing, match="bye"):
        pair_round(field)


def test_an_empty_field_pairs_no_boards():
    assert pair_round([]).boards == ()


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        pair_round([P("a"), P("a")])


def test_round_one_gives_the_first_colour_to_the_top_board_and_alternates_down():
    field = [P(name, 2000 - 100 * number) for number, name in enumerate("abcd")]
    boards = pair_round(field, first_colour=WHITE).boards
    assert [(board.black, board.white) for board in boards] == [("c", "a"), ("b", "d")]
    assert pair_round(field, first_colour=BLACK).boards[0].black == "a"
