"""A Swiss event's record (gobang/services/tournaments/swiss_event.py): late joiners,
absences, results, and the standings' tie-breaks on small examples checked by hand."""

from __future__ import annotations

import pytest

from gobang.rules import BLACK, WHITE
from gobang.services.tournaments.swiss import ABSENT, BYE, Board, RoundPairing
from gobang.services.tournaments.swiss_event import RoundNotFinished, SwissEvent, SwissRound

RATINGS = {"a": 2000, "b": 1900, "c": 1800, "d": 1700, "e": 1600}


def event_of(ratings: dict[str, int], *rounds: tuple[dict[str, float], str | None]
             ) -> SwissEvent:
    """An event from rounds written as {"ac": 1.0} (black first, black's points) and the
    bye."""
    event = SwissEvent()
    for player, rating in ratings.items():
        event.join(player, rating)
    for results, bye in rounds:
        boards = {Board(text[0], text[1]): points for text, points in results.items()}
        event.rounds.append(SwissRound(RoundPairing(tuple(boards), bye), frozenset(), boards))
    return event


def by_id(event: SwissEvent) -> dict:
    return {row.id: (row.points, row.buchholz, row.sonneborn_berger)
            for row in event.standings()}


# Round 1: a beats c, b draws d, e has the bye. Round 2: e beats a, c beats d, b has the bye.
# Points: a 1, b 1.5, c 1, d 0.5, e 2. A bye counts as a game against a player with one's
# own score: b's Buchholz is d's 0.5 and b's own 1.5; e's is its own 2 and a's 1.
FIVE = event_of(RATINGS, ({"ac": 1.0, "bd": 0.5}, "e"), ({"ea": 1.0, "cd": 1.0}, "b"))


@pytest.mark.parametrize(("player", "points", "buchholz", "sonneborn_berger"), [
    ("a", 1.0, 3.0, 1.0),    # c 1 + e 2; 1 x c's 1 + 0 x e's 2
    ("b", 1.5, 2.0, 1.75),   # d 0.5 + own 1.5; 0.5 x 0.5 + 1 x own 1.5
    ("c", 1.0, 1.5, 0.5),    # a 1 + d 0.5; 0 x 1 + 1 x 0.5
    ("d", 0.5, 2.5, 0.75),   # b 1.5 + c 1; 0.5 x 1.5 + 0 x 1
    ("e", 2.0, 3.0, 3.0),    # own 2 + a 1; 1 x own 2 + 1 x a's 1
])
def test_tie_breaks_by_hand(player, points, buchholz, sonneborn_berger):
    assert by_id(FIVE)[player] == (points, buchholz, sonneborn_berger)


def test_equal_points_are_split_by_buchholz():
    assert [row.id for row in FIVE.standings()] == ["e", "b", "a", "c", "d"]


def test_equal_points_and_buchholz_are_split_by_sonneborn_berger():
    # x beat A and lost to C; y beat B and lost to D. A beat B in round 2, D beat C in
    # round 1: Buchholz 1 + 1 for x, 0 + 2 for y; Sonneborn-Berger 1 for x, 0 for y.
    event = event_of({"y": 2000, "x": 1900, "A": 1800, "B": 1700, "C": 1600, "D": 1500},
                     ({"xA": 1.0, "yB": 1.0, "CD": 0.0}, None),
                     ({"Cx": 1.0, "Dy": 1.0, "AB": 1.0}, None))
    rows = by_id(event)
    assert (rows["x"], rows["y"]) == ((1.0, 2.0, 1.0), (1.0, 2.0, 0.0))
    order = [row.id for row in event.standings()]
    assert order.index("x") < order.index("y")


def test_equal_on_every_tie_break_the_higher_rating_is_first():
    event = event_of({"d": 1700, "a": 2000, "c": 1800, "b": 1900},
                     ({"ab": 0.5, "cd": 0.5}, None))
    assert [row.id for row in event.standings()] == ["a", "b", "c", "d"]
    assert [row.rank for row in event.standings()] == [1, 2, 3, 4]


def test_a_late_joiner_scores_nothing_for_the_rounds_missed():
    event = event_of(RATINGS, ({"ac": 1.0, "bd": 0.5}, "e"))
    event.join("f", 2500)
    late = next(player for player in event.players() if player.id == "f")
    assert (late.score, late.history, late.opponents) == (0.0, (ABSENT,), ())


def test_a_late_joiner_is_paired_in_the_next_round():
    event = event_of(RATINGS, ({"ac": 1.0, "bd": 0.5}, "e"))
    event.join("f", 2500)
    pairing = event.pair_next()
    assert pairing.bye is None
    assert any("f" in (board.black, board.white) for board in pairing.boards)


def test_an_absent_player_is_not_paired_and_scores_nothing():
    event = event_of(RATINGS)
    pairing = event.pair_next(absent={"a"})
    assert all("a" not in (board.black, board.white) for board in pairing.boards)
    for board in pairing.boards:
        event.record(board, 1.0)
    absent = next(player for player in event.players() if player.id == "a")
    assert (absent.score, absent.history) == (0.0, (ABSENT,))


def test_a_recorded_round_shows_in_the_players_histories():
    event = event_of(RATINGS, ({"ac": 1.0, "bd": 0.5}, "e"))
    players = {player.id: player for player in event.players()}
    assert players["a"].history == (BLACK,) and players["c"].history == (WHITE,)
    assert players["e"].history == (BYE,) and players["e"].score == 1.0
    assert players["d"].score == 0.5 and players["d"].opponents == ("b",)


def test_the_next_round_waits_for_every_result():
    event = event_of(RATINGS)
    pairing = event.pair_next()
    event.record(pairing.boards[0], 1.0)
    with pytest.raises(RoundNotFinished):
        event.pair_next()


@pytest.mark.parametrize("points", [0.25, 2.0, -1.0])
def test_a_result_must_be_a_win_a_draw_or_a_loss(points):
    event = event_of(RATINGS)
    pairing = event.pair_next()
    with pytest.raises(ValueError, match="points"):
        event.record(pairing.boards[0], points)


def test_a_result_for_a_board_not_in_play_is_refused():
    event = event_of(RATINGS)
    event.pair_next()
    with pytest.raises(ValueError, match="not a board"):
        event.record(Board("zz", "yy"), 1.0)


def test_a_player_joins_once():
    with pytest.raises(ValueError, match="already"):
        event_of(RATINGS).join("a", 1000)


def test_a_double_loss_scores_nothing_for_either_player():
    event = event_of({"a": 2000, "b": 1900})
    board, = event.pair_next().boards
    event.record(board, 0.0, 0.0)
    assert {row.id: row.points for row in event.standings()} == {"a": 0.0, "b": 0.0}
    assert all(player.opponents for player in event.players())  # they still met


@pytest.mark.parametrize(("black", "white"), [(1.0, 1.0), (0.5, 0.0), (0.0, 0.5)])
def test_white_points_other_than_the_rest_or_a_double_loss_are_refused(black, white):
    event = event_of({"a": 2000, "b": 1900})
    board, = event.pair_next().boards
    with pytest.raises(ValueError, match="white's points"):
        event.record(board, black, white)
