"""Game flow: turns, typed errors, replay and take-back."""

import pytest

from gobang.rules import (
    RULESETS,
    ForbiddenMove,
    Game,
    GameOver,
    IllegalMove,
    NotYourTurn,
    Occupied,
    Outcome,
    OutOfRange,
)

# Black wins across row 7 on its fifth move; white plays along row 0.
BLACK_WINS = [(7, 3), (0, 0), (7, 4), (0, 1), (7, 5), (0, 2), (7, 6), (0, 3), (7, 7)]


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (OutOfRange, "out_of_range"),
        (Occupied, "occupied"),
        (NotYourTurn, "not_your_turn"),
        (GameOver, "game_over"),
        (ForbiddenMove, "forbidden_move"),
    ],
)
def test_error_classes_carry_contract_codes(error: type[IllegalMove], code: str) -> None:
    assert error.code == code
    assert issubclass(error, IllegalMove)
    assert issubclass(error, ValueError)


def test_forbidden_move_carries_its_kind() -> None:
    error = ForbiddenMove("double_four", row=3, col=4)
    assert (error.kind, error.row, error.col) == ("double_four", 3, 4)


def test_new_game_starts_empty_with_black_to_move() -> None:
    game = Game()
    assert game.ruleset == "freestyle"
    assert game.moves == []
    assert game.board.stone_count == 0
    assert game.to_move == "black"
    assert game.outcome is None
    assert game.last_move is None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_colours_alternate_starting_with_black(ruleset: str) -> None:
    game = Game(ruleset)
    seen = []
    for move in [(7, 7), (7, 8), (8, 8), (6, 6)]:
        seen.append(game.to_move)
        game.place(*move)
    assert seen == ["black", "white", "black", "white"]
    assert [game.board.get(*m) for m in game.moves] == seen


def test_unknown_ruleset_is_rejected() -> None:
    with pytest.raises(ValueError):
        Game("gomoku")


def test_place_returns_none_while_play_goes_on() -> None:
    assert Game().place(7, 7) is None


def test_place_returns_outcome_of_winning_move() -> None:
    game = Game.replay(BLACK_WINS[:-1])
    outcome = game.place(*BLACK_WINS[-1])
    assert outcome == Outcome("black", "five", tuple((7, c) for c in range(3, 8)))
    assert game.outcome == outcome
    assert game.to_move is None
    assert game.is_over


def test_place_accepts_colour_of_side_to_move() -> None:
    game = Game()
    game.place(7, 7, "black")
    game.place(7, 8, color="white")
    assert game.moves == [(7, 7), (7, 8)]


@pytest.mark.parametrize("color", ["white", "red", "Black", ""])
def test_place_with_wrong_colour_raises_not_your_turn(color: str) -> None:
    game = Game()
    with pytest.raises(NotYourTurn):
        game.place(7, 7, color)
    assert game.moves == []


@pytest.mark.parametrize(
    ("row", "col"),
    [(-1, 0), (0, -1), (15, 0), (0, 15), (True, 0), (0, False), (7.0, 7), ("7", 7), (None, 7)],
)
def test_place_off_the_board_or_not_int_raises_out_of_range(row: object, col: object) -> None:
    game = Game()
    with pytest.raises(OutOfRange):
        game.place(row, col)  # type: ignore[arg-type]
    assert game.moves == []


def test_place_on_occupied_point_raises_occupied() -> None:
    game = Game.replay([(7, 7)])
    with pytest.raises(Occupied):
        game.place(7, 7)
    assert game.to_move == "white"


def test_place_after_the_end_raises_game_over() -> None:
    game = Game.replay(BLACK_WINS)
    with pytest.raises(GameOver):
        game.place(14, 14)


def test_game_over_is_reported_before_other_errors() -> None:
    game = Game.replay(BLACK_WINS)
    with pytest.raises(GameOver):
        game.place(7, 7, "white")


def test_renju_forbidden_move_raises_forbidden_move() -> None:
    # Black makes open threes across and down at (7, 7).
    game = Game.replay([(7, 5), (0, 0), (7, 6), (0, 2), (5, 7), (0, 4), (6, 7), (0, 6)], "renju")
    with pytest.raises(ForbiddenMove) as info:
        game.place(7, 7)
    assert info.value.kind == "double_three"
    assert game.to_move == "black"
    assert game.board.is_empty(7, 7)


@pytest.mark.parametrize("ruleset", ["freestyle", "standard"])
def test_double_three_is_allowed_outside_renju(ruleset: str) -> None:
    game = Game.replay([(7, 5), (0, 0), (7, 6), (0, 2), (5, 7), (0, 4), (6, 7), (0, 6)], ruleset)
    assert game.place(7, 7) is None


def test_moves_is_a_copy() -> None:
    game = Game.replay([(7, 7)])
    game.moves.append((0, 0))
    assert game.moves == [(7, 7)]


@pytest.mark.parametrize(
    ("index", "color"), [(0, "black"), (1, "white"), (2, "black"), (224, "black")]
)
def test_color_of_move(index: int, color: str) -> None:
    assert Game.color_of_move(index) == color


@pytest.mark.parametrize("index", [-1, True, 1.0])
def test_color_of_move_rejects_bad_index(index: object) -> None:
    with pytest.raises(ValueError):
        Game.color_of_move(index)  # type: ignore[arg-type]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_replay_reproduces_moves_board_and_outcome(ruleset: str) -> None:
    live = Game(ruleset)
    for move in BLACK_WINS:
        live.place(*move)
    replayed = Game.replay(BLACK_WINS, ruleset)
    assert replayed.moves == live.moves
    assert replayed.board == live.board
    assert replayed.outcome == live.outcome


def test_replay_accepts_lists_and_notation() -> None:
    assert Game.replay([[7, 7], "h9", (8, 8)]).moves == [(7, 7), (6, 7), (8, 8)]


@pytest.mark.parametrize("move", [(7,), (7, 7, 7), 7, None])
def test_replay_rejects_items_that_are_not_pairs(move: object) -> None:
    with pytest.raises(OutOfRange):
        Game.replay([move])  # type: ignore[list-item]


def test_replay_raises_first_illegal_move() -> None:
    with pytest.raises(Occupied):
        Game.replay([(7, 7), (7, 7)])


def test_replay_of_move_after_the_end_raises_game_over() -> None:
    with pytest.raises(GameOver):
        Game.replay([*BLACK_WINS, (14, 14)])


def test_undo_takes_back_last_move() -> None:
    game = Game.replay([(7, 7), (7, 8)])
    assert game.undo() == [(7, 8)]
    assert game.moves == [(7, 7)]
    assert game.board.is_empty(7, 8)
    assert game.to_move == "white"


def test_undo_several_moves_matches_replay_of_prefix() -> None:
    game = Game.replay(BLACK_WINS[:-1])
    assert game.undo(3) == BLACK_WINS[5:8]
    expected = Game.replay(BLACK_WINS[:5])
    assert game.moves == expected.moves
    assert game.board == expected.board
    assert game.board.stone_count == 5
    assert game.to_move == expected.to_move


def test_undo_after_the_end_reopens_the_game() -> None:
    game = Game.replay(BLACK_WINS)
    game.undo()
    assert game.outcome is None
    assert game.to_move == "black"
    assert game.place(*BLACK_WINS[-1]) is not None


def test_undo_everything_returns_to_start() -> None:
    game = Game.replay(BLACK_WINS)
    game.undo(len(BLACK_WINS))
    assert game.board.stone_count == 0
    assert game.moves == []
    assert game.to_move == "black"


def test_undo_zero_moves_changes_nothing() -> None:
    game = Game.replay(BLACK_WINS)
    assert game.undo(0) == []
    assert game.moves == BLACK_WINS
    assert game.outcome is not None


@pytest.mark.parametrize("n", [3, -1, True, 1.0])
def test_undo_rejects_bad_count(n: int) -> None:
    game = Game.replay([(7, 7), (7, 8)])
    with pytest.raises(ValueError):
        game.undo(n)
    assert game.moves == [(7, 7), (7, 8)]
