"""Ruleset objects: what each one lets win, what it forbids, and how they are looked up."""

import pytest

from gobang.rules import (
    RULESETS,
    Board,
    Freestyle,
    Game,
    Outcome,
    Renju,
    Ruleset,
    Standard,
    UnknownRuleset,
    ruleset_named,
)

# Black's stones around (7, 7) make an open three across and an open three down.
DOUBLE_THREE_ROWS = ["." * 15] * 5 + [".......X......."] * 2 + [".....XX........"] + ["." * 15] * 7
DOUBLE_THREE_POINT = (7, 7)


@pytest.mark.parametrize(
    ("name", "length", "color", "wins"),
    [
        ("freestyle", 4, "black", False),
        ("freestyle", 5, "black", True),
        ("freestyle", 5, "white", True),
        ("freestyle", 6, "black", True),
        ("freestyle", 9, "white", True),
        ("standard", 4, "white", False),
        ("standard", 5, "black", True),
        ("standard", 5, "white", True),
        ("standard", 6, "black", False),
        ("standard", 6, "white", False),
        ("renju", 4, "white", False),
        ("renju", 5, "black", True),
        ("renju", 5, "white", True),
        ("renju", 6, "black", False),
        ("renju", 6, "white", True),
        ("renju", 9, "white", True),
    ],
)
def test_line_length_wins_per_ruleset_and_colour(
    name: str, length: int, color: str, wins: bool
) -> None:
    assert ruleset_named(name).wins(length, color) is wins


@pytest.mark.parametrize(
    ("name", "color", "expected"),
    [
        ("freestyle", "black", None),
        ("freestyle", "white", None),
        ("standard", "black", None),
        ("standard", "white", None),
        ("renju", "black", "double_three"),
        ("renju", "white", None),
    ],
)
def test_only_renju_forbids_and_only_for_black(name: str, color: str, expected: str | None) -> None:
    board = Board.from_rows(DOUBLE_THREE_ROWS)
    assert ruleset_named(name).forbidden_kind(board, *DOUBLE_THREE_POINT, color) == expected


@pytest.mark.parametrize(
    ("name", "cls"), [("freestyle", Freestyle), ("standard", Standard), ("renju", Renju)]
)
def test_ruleset_named_finds_each_ruleset(name: str, cls: type[Ruleset]) -> None:
    ruleset = ruleset_named(name)
    assert type(ruleset) is cls
    assert ruleset.name == name


def test_rulesets_lists_every_name_once() -> None:
    assert RULESETS == ("freestyle", "standard", "renju")


@pytest.mark.parametrize("name", ["gomoku", "", "Renju", " renju", None, ["renju"]])
def test_unknown_ruleset_name_is_a_clear_value_error(name: object) -> None:
    with pytest.raises(UnknownRuleset, match="expected one of freestyle, standard, renju"):
        ruleset_named(name)  # type: ignore[arg-type]
    assert issubclass(UnknownRuleset, ValueError)


@pytest.mark.parametrize("name", RULESETS)
def test_game_keeps_the_ruleset_name(name: str) -> None:
    assert Game(name).ruleset == name


def test_first_winning_run_is_reported() -> None:
    across = tuple((7, c) for c in range(3, 8))
    down = tuple((r, 7) for r in range(3, 8))
    assert Freestyle().outcome("white", (across, down), False) == Outcome("white", "five", across)


def test_losing_runs_on_a_full_board_make_a_draw() -> None:
    overline = tuple((7, c) for c in range(2, 8))
    assert Standard().outcome("black", (overline,), True) == Outcome(None, "board_full", None)


def test_no_run_and_room_left_means_play_on() -> None:
    assert Renju().outcome("black", (), False) is None


class SixOnly(Ruleset):
    """A made-up ruleset: only a line of exactly six wins."""

    name = "six_only"

    def wins(self, length: int, color: str) -> bool:
        return length == 6


@pytest.mark.parametrize(("length", "expected"), [(5, "none"), (6, "white_win")])
def test_shared_rules_follow_an_overridden_wins(length: int, expected: str) -> None:
    board = Board()
    for c in range(1, length):
        board.put(7, c, "white")
    assert SixOnly().outcome_after(board, 7, 0, "white") == expected


@pytest.mark.parametrize(("name", "color", "expected"), [
    ("renju", "black", True), ("renju", "white", False),
    ("freestyle", "black", False), ("standard", "black", False),
])
def test_only_renju_forbids_points_and_only_to_black(name: str, color: str,
                                                    expected: bool) -> None:
    assert ruleset_named(name).forbids(color) is expected
