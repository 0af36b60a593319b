"""The values of level 9's leaf, fitted to game results: docs/engines.md, "Level 9".

Written by `python -m bench.texel.write` from first-fit-scaled.json (black's) and
per-colour-132.json (white's); fit again and write again rather than edit. Per colour of the
side to move: its own points' values, then the opponent's, in win-chance logits per occurrence
of each feature of `gobang.ai.leaf.FEATURES` over the candidate points.
"""

from .leaf import FittedLeaf
from .position import BLACK, WHITE

WEIGHTS = {
    BLACK: (
        (
            0.006101,  # closed_two
            0.032537,  # open_two
            0.010574,  # closed_three
            0.191154,  # open_three
            0.187087,  # four
            0.0,  # open_four
            0.0,  # five
            0.0,  # win_threat
            2.680219,  # four_three
            0.650736,  # double_three
            0.0,  # four_two
            0.0,  # three_two
            0.0,  # two_two
        ),
        (
            -0.006101,  # closed_two
            -0.021962,  # open_two
            -0.019929,  # closed_three
            -0.105745,  # open_three
            -0.142349,  # four
            -0.467717,  # open_four
            0.0,  # five
            -0.390442,  # win_threat
            -0.703608,  # four_three
            -0.085409,  # double_three
            0.0,  # four_two
            0.0,  # three_two
            0.0,  # two_two
        ),
    ),
    WHITE: (
        (
            0.006856,  # closed_two
            0.053546,  # open_two
            0.03611,  # closed_three
            0.154301,  # open_three
            0.189694,  # four
            0.0,  # open_four
            0.0,  # five
            0.0,  # win_threat
            0.850497,  # four_three
            0.433039,  # double_three
            0.123612,  # four_two
            0.056786,  # three_two
            -0.036031,  # two_two
        ),
        (
            -0.020932,  # closed_two
            -0.027894,  # open_two
            -0.014508,  # closed_three
            -0.10147,  # open_three
            -0.14115,  # four
            -0.830913,  # open_four
            0.0,  # five
            0.112483,  # win_threat
            -0.65005,  # four_three
            -0.302399,  # double_three
            -0.272746,  # four_two
            -0.146277,  # three_two
            0.016996,  # two_two
        ),
    ),
}
FITTED_LEAF = FittedLeaf(WEIGHTS)
