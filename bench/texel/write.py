"""Write the fitted values into the engine: gobang/ai/fitted.py, from the fit's output.

    .venv/bin/python -m bench.texel.write --black bench/texel/first.json \\
        --white bench/texel/per-colour.json

Black's values (those used when black is to move) and white's may come from different fits:
docs/engines.md, "Level 9", says which.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from gobang.ai.leaf import FEATURES

TARGET = Path(__file__).resolve().parents[2] / "gobang" / "ai" / "fitted.py"

TEMPLATE = '''"""The values of level 9's leaf, fitted to game results: docs/engines.md, "Level 9".

Written by `python -m bench.texel.write` from {black} (black's) and
{white} (white's); fit again and write again rather than edit. Per colour of the
side to move: its own points' values, then the opponent's, in win-chance logits per occurrence
of each feature of `gobang.ai.leaf.FEATURES` over the candidate points.
"""

from .leaf import FittedLeaf
from .position import BLACK, WHITE

WEIGHTS = {{
    BLACK: (
        {black_own},
        {black_opp},
    ),
    WHITE: (
        {white_own},
        {white_opp},
    ),
}}
FITTED_LEAF = FittedLeaf(WEIGHTS)
'''


def _row(values: list[float]) -> str:
    pairs = zip(values, FEATURES, strict=True)
    lines = [f"            {float(v)!r},  # {name}" for v, name in pairs]
    return "(\n" + "\n".join(lines) + "\n        )"


def module(black_file: Path, white_file: Path) -> str:
    black = json.loads(black_file.read_text())["1"]
    white = json.loads(white_file.read_text())["2"]
    return TEMPLATE.format(
        black=black_file.name, white=white_file.name,
        black_own=_row(black["own"]), black_opp=_row(black["opp"]),
        white_own=_row(white["own"]), white_opp=_row(white["opp"]),
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--black", type=Path, required=True)
    parser.add_argument("--white", type=Path, required=True)
    parser.add_argument("--target", type=Path, default=TARGET)
    args = parser.parse_args(argv)
    args.target.write_text(module(args.black, args.white))


if __name__ == "__main__":
    main()
