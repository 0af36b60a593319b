"""Levels 1-9 in one table: how hard each level looks before it moves."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Level:
    """Search budget of one level.

    ``nodes`` caps the positions visited per move (threat search and alpha-beta together);
    ``seconds`` is the wall-clock backstop should a slow machine not reach the cap in time.
    ``depth`` is the deepest alpha-beta iteration (0: no alpha-beta, pick by pattern score),
    ``width`` the candidate moves tried per alpha-beta node. ``vcf``/``vct`` give the number
    of attacking moves a threat search may chain (0: off); ``defend`` also runs them for the
    opponent. ``noise`` is how far below the best score a move may be and still be picked at
    random (a fraction of the best), which keeps the weak levels varied. ``fitted`` scores
    the alpha-beta's leaves with the values fitted to game results (`gobang.ai.fitted`), not
    the hand-set pattern scores; ``reorder`` puts that many of the best-scored root moves in
    the order of the fitted leaf one move on before the search picks its candidates;
    ``root_width`` is how many of them the alpha-beta searches (0: ``width`` + 2).
    ``turn_share`` is the share of a turn limit (``INFO timeout_turn``) the search may use;
    the rest pays for start-up and pipes.
    """

    nodes: int
    seconds: float
    depth: int
    width: int
    vcf: int
    vct: int
    defend: bool
    noise: float
    fitted: bool = False
    reorder: int = 0
    root_width: int = 0
    turn_share: float = 0.7


LEVELS: dict[int, Level] = {
    1: Level(nodes=0, seconds=0.05, depth=0, width=8, vcf=0, vct=0, defend=False, noise=1.0),
    2: Level(nodes=0, seconds=0.05, depth=0, width=8, vcf=0, vct=0, defend=False, noise=0.95),
    3: Level(nodes=300, seconds=0.1, depth=0, width=6, vcf=4, vct=0, defend=False, noise=0.25),
    4: Level(nodes=1000, seconds=0.3, depth=0, width=6, vcf=8, vct=0, defend=True, noise=0.0),
    5: Level(nodes=1500, seconds=0.6, depth=2, width=8, vcf=8, vct=0, defend=True, noise=0.0),
    6: Level(nodes=3000, seconds=1.0, depth=4, width=6, vcf=10, vct=0, defend=True, noise=0.0),
    7: Level(nodes=6000, seconds=2.0, depth=6, width=6, vcf=14, vct=0, defend=True, noise=0.0),
    8: Level(nodes=12000, seconds=3.2, depth=8, width=6, vcf=16, vct=4, defend=True, noise=0.0),
    # Level 8's search with the fitted leaf and a wider root, using 0.9 of a turn limit:
    # its slowest moves are where it lost as white (docs/engines.md, "Level 9").
    9: Level(nodes=12000, seconds=3.2, depth=8, width=6, vcf=16, vct=4, defend=True, noise=0.0,
             fitted=True, reorder=16, root_width=12, turn_share=0.9),
}
TOP_LEVEL = max(LEVELS)


def level(number: int) -> Level:
    """The settings of level ``number``; ValueError outside 1..9."""
    try:
        return LEVELS[number]
    except (KeyError, TypeError):
        raise ValueError(f"level must be one of {sorted(LEVELS)}, not {number!r}") from None
