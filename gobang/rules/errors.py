"""Typed rejections of a move, each carrying the wire contract's error code."""


class IllegalMove(ValueError):
    """Base class of every rejected move; ``code`` is the contract's error code."""

    code: str = "illegal_move"
    default_message: str = "illegal move"

    def __init__(
        self, message: str | None = None, *, row: int | None = None, col: int | None = None
    ) -> None:
        super().__init__(message or self.default_message)
        self.row = row
        self.col = col


class OutOfRange(IllegalMove):
    code = "out_of_range"
    default_message = "point is off the board"


class Occupied(IllegalMove):
    code = "occupied"
    default_message = "point is already occupied"


class NotYourTurn(IllegalMove):
    code = "not_your_turn"
    default_message = "it is not that colour's turn"


class GameOver(IllegalMove):
    code = "game_over"
    default_message = "the game is already over"


class ForbiddenMove(IllegalMove):
    """A renju black move that makes a double-three, double-four or overline."""

    code = "forbidden_move"
    default_message = "forbidden move"

    def __init__(self, kind: str, *, row: int | None = None, col: int | None = None) -> None:
        super().__init__(f"forbidden move: {kind}", row=row, col=col)
        self.kind = kind


class UnknownRuleset(ValueError):
    """A ruleset name that no ruleset answers to. Not an IllegalMove: no move was made."""

    def __init__(self, name: object, known: tuple[str, ...]) -> None:
        super().__init__(f"unknown ruleset {name!r}; expected one of {', '.join(known)}")
        self.name = name
