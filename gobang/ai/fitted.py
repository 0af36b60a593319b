"""The values of level 9's leaf, fitted to game results: docs/engines.md, "Level 9".

Written by `python -m bench.texel.write` from per-colour-308.json (black's) and
per-colour-308.json (white's); fit again and write again rather than edit. Per colour of the
side to move: its own points' values, then the opponent's, in win-chance logits per occurrence
of each feature of `gobang.ai.leaf.FEATURES` over the candidate points.
"""

from .leaf import FittedLeaf
from .position import BLACK, WHITE

WEIGHTS = {
    BLACK: (
        (
            0.020073,  # closed_two
            0.028049,  # open_two
            -0.005967,  # closed_three
            0.126638,  # open_three
            0.190649,  # four
            0.0,  # open_four
            0.0,  # five
            0.0,  # win_threat
            2.409447,  # four_three
            0.540265,  # double_three
            0.282736,  # four_two
            0.178372,  # three_two
            0.020892,  # two_two
        ),
        (
            -0.011407,  # closed_two
            -0.027896,  # open_two
            -0.028445,  # closed_three
            -0.080703,  # open_three
            -0.157747,  # four
            -0.275108,  # open_four
            0.0,  # five
            -0.518238,  # win_threat
            -1.287435,  # four_three
            -0.039755,  # double_three
            -0.250294,  # four_two
            -0.100551,  # three_two
            -0.00666,  # two_two
        ),
    ),
    WHITE: (
        (
            0.00351,  # closed_two
            0.052013,  # open_two
            0.025049,  # closed_three
            0.174588,  # open_three
            0.162965,  # four
            0.0,  # open_four
            0.0,  # five
            0.0,  # win_threat
            1.539899,  # four_three
            0.251839,  # double_three
            0.282661,  # four_two
            0.055723,  # three_two
            -0.035844,  # two_two
        ),
        (
            -0.019459,  # closed_two
            -0.015781,  # open_two
            0.004036,  # closed_three
            -0.083487,  # open_three
            -0.120552,  # four
            -1.019567,  # open_four
            0.0,  # five
            0.180307,  # win_threat
            -1.369677,  # four_three
            -0.139052,  # double_three
            -0.387174,  # four_two
            -0.124141,  # three_two
            -0.033626,  # two_two
        ),
    ),
}
FITTED_LEAF = FittedLeaf(WEIGHTS)
