"""As black under renju the engine never picks a forbidden point, however busy the board."""

from __future__ import annotations

import random

from gobang.ai.levels import LEVELS, TOP_LEVEL
from gobang.ai.position import BLACK, Position
from gobang.ai.search import Engine
from gobang.rules import SIZE, Game, forbidden_kind


def crowded_renju_games(seed: int, count: int):
    """Random renju games packed into the middle 7x7, where black's shapes get tangled and
    forbidden points are common. Yields (game, position) at each black turn."""
    rng = random.Random(seed)
    for _ in range(count):
        game = Game("renju")
        pos = Position("renju")
        while not game.is_over:
            if game.to_move == "black":
                yield game, pos
            free = [(r, c) for r in range(4, 11) for c in range(4, 11) if game.board.is_empty(r, c)]
            rng.shuffle(free)
            legal = (
                (r, c)
                for r, c in free
                if game.to_move == "white" or forbidden_kind(game.board, r, c) is None
            )
            row, col = next(legal, (None, None))
            if row is None:
                break
            game.place(row, col)
            pos.play(row * SIZE + col)


def is_forbidden(game: Game, point: tuple[int, int]) -> bool:
    return forbidden_kind(game.board, *point) is not None


def test_low_levels_never_choose_a_forbidden_point():
    engines = [Engine(LEVELS[n], random.Random(n)) for n in (1, 2, 3)]
    checked = tempting = 0
    for game, pos in crowded_renju_games(seed=1, count=60):
        # Forbidden points scored among black's best candidates show the test can bite.
        scores = pos.scores[BLACK]
        top = sorted(pos.candidates(), key=lambda i: -scores[i])[:3]
        tempting += any(is_forbidden(game, divmod(i, SIZE)) for i in top)
        for engine in engines:
            move = divmod(engine.choose(pos), SIZE)
            assert game.board.is_empty(*move)
            assert not is_forbidden(game, move), (move, game.board.to_rows())
            checked += 1
    assert checked > 2000
    assert tempting > 50


def test_top_level_never_chooses_a_forbidden_point():
    engine = Engine(LEVELS[TOP_LEVEL], random.Random(8))
    games = crowded_renju_games(seed=99, count=2)
    for n, (game, pos) in enumerate(games):
        if n % 3:
            continue
        move = divmod(engine.choose(pos, seconds=0.2), SIZE)
        assert not is_forbidden(game, move)
