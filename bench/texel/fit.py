"""Fit the leaf's values to game results (Texel's method): docs/engines.md, "The leaf's values
fitted to game results".

    .venv/bin/python -m bench.texel.fit bench/texel/games-*.jsonl --ruleset freestyle \\
        --per-colour --out bench/texel/weights.json

Every quiet position of the games (four stones or more; no five to make for either side, no
open four to make for the side to move) gives the features of `gobang.ai.leaf` for the side
to move and the game's result for it (1, 1/2, 0). A logistic model, with a constant and the
mover's colour, is fitted by Newton's method with a ridge on the feature values. It is fitted
on the games from openings of even number and scored (log loss) on the others (both colours of
an opening fall on one side), then fitted on all of them; the values written are the last
fit's. Pure Python: numpy is not among the project's
dependencies and 30 features by 10,000 positions take seconds.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from gobang.ai.leaf import COMBOS, FEATURES, WIDTH, position_features
from gobang.ai.position import BLACK, FOUR_OPEN, WHITE, Position
from gobang.rules import SIZE

# The combinations a 10-feature fit leaves out (the three below a double three).
WEAK_COMBOS = COMBOS[3:]


@dataclass(frozen=True)
class Sample:
    game: int
    fold: int  # 0: fitted on, 1: held out; by opening, so both colours of one fall together
    colour: int
    features: tuple[int, ...]
    result: float


def quiet(pos: Position) -> bool:
    side = pos.to_move
    if pos.fives(side) or pos.fives(3 - side):
        return False
    return not any(
        pos.best[side][i] >= FOUR_OPEN and not pos.is_forbidden(i, side)
        for i in pos.threats[side]
    )


def samples(games: Iterable[dict], ruleset: str, fouls: bool) -> list[Sample]:
    found = []
    for number, game in enumerate(g for g in games if g["ruleset"] == ruleset and "record" in g):
        black_score = game["score"] if game["a_black"] else 1 - game["score"]
        pos = Position(ruleset)
        for row, col in game["record"]:
            pos.play(row * SIZE + col)
            if len(pos.history) < 4 or not quiet(pos):
                continue
            mover = pos.to_move
            result = black_score if mover == BLACK else 1 - black_score
            features = position_features(pos, fouls and ruleset == "renju")
            fold = game.get("opening", number) % 2
            found.append(Sample(number, fold, mover, tuple(features), result))
    return found


def design(sample: Sample, keep: Sequence[bool], coloured: bool) -> list[float]:
    """The row the model sees: the kept features, then the colour and a constant."""
    row = [float(n) for n, k in zip(sample.features, keep, strict=True) if k]
    if not coloured:
        row.append(1.0 if sample.colour == BLACK else 0.0)
    row.append(1.0)
    return row


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            if factor:
                for c in range(col, n + 1):
                    a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def fit(rows: list[list[float]], labels: list[float], ridge: float) -> list[float]:
    """Logistic regression by Newton's method; the ridge spares the last (constant) term
    and keeps features that never occur at zero."""
    d = len(rows[0])
    beta = [0.0] * d
    for _ in range(25):
        gradient = [-ridge * b for b in beta]
        gradient[-1] = 0.0
        hessian = [[0.0] * d for _ in range(d)]
        for k in range(d - 1):
            hessian[k][k] = ridge
        for x, y in zip(rows, labels, strict=True):
            p = 1 / (1 + math.exp(-sum(b * v for b, v in zip(beta, x, strict=True))))
            error = y - p
            weight = p * (1 - p)
            nonzero = [(k, v) for k, v in enumerate(x) if v]
            for k, v in nonzero:
                gradient[k] += error * v
                row = hessian[k]
                for j, u in nonzero:
                    row[j] += weight * v * u
        step = _solve(hessian, gradient)
        beta = [b + s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return beta


def log_loss(rows: list[list[float]], labels: list[float], beta: Sequence[float]) -> float:
    total = 0.0
    for x, y in zip(rows, labels, strict=True):
        z = sum(b * v for b, v in zip(beta, x, strict=True))
        p = min(max(1 / (1 + math.exp(-z)), 1e-12), 1 - 1e-12)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(rows)


def values(beta: Sequence[float], keep: Sequence[bool]) -> tuple[list[float], list[float]]:
    """Own and opponent's values per feature, zero for the features left out."""
    full, it = [], iter(beta)
    for k in keep:
        full.append(round(next(it), 6) if k else 0.0)
    return full[:WIDTH], full[WIDTH:]


def fitted(found: list[Sample], keep: Sequence[bool], ridge: float, coloured: bool) -> dict:
    groups = {BLACK: [s for s in found if s.colour == BLACK],
              WHITE: [s for s in found if s.colour == WHITE]} if coloured else {0: found}
    out: dict = {"held_out": {}, "positions": {}}
    for key, group in groups.items():
        rows = [design(s, keep, coloured) for s in group]
        labels = [s.result for s in group]
        train = [k for k, s in enumerate(group) if s.fold == 0]
        test = [k for k, s in enumerate(group) if s.fold == 1]
        # The baseline: the colour (one set for both) and the constant only.
        base = [row[-2:] if not coloured else row[-1:] for row in rows]
        beta = fit([rows[k] for k in train], [labels[k] for k in train], ridge)
        colour_only = fit([base[k] for k in train], [labels[k] for k in train], ridge)
        out["held_out"][str(key)] = {
            "fitted": round(log_loss([rows[k] for k in test], [labels[k] for k in test], beta), 4),
            "colour_only": round(log_loss([base[k] for k in test], [labels[k] for k in test],
                                          colour_only), 4),
        }
        out["positions"][str(key)] = [len(train), len(test)]
        whole = fit(rows, labels, ridge)
        own, opp = values(whole, keep)
        for colour in ((BLACK, WHITE) if key == 0 else (key,)):
            out[str(colour)] = {"own": own, "opp": opp}
    return out


def scaled(found: list[Sample], given: dict) -> dict:
    """``given`` values (any scale) in win-chance logits: one factor, fitted with the colour
    and a constant on all the samples, like the scale of today's values in docs/engines.md."""
    weights = given["own"] + given["opp"]
    rows = [[sum(w * n for w, n in zip(weights, s.features, strict=True)),
             1.0 if s.colour == BLACK else 0.0, 1.0] for s in found]
    labels = [s.result for s in found]
    train = [k for k, s in enumerate(found) if s.fold == 0]
    test = [k for k, s in enumerate(found) if s.fold == 1]
    beta = fit([rows[k] for k in train], [labels[k] for k in train], 0.0)
    held_out = log_loss([rows[k] for k in test], [labels[k] for k in test], beta)
    factor = fit(rows, labels, 0.0)[0]
    values = {side: [round(factor * v, 6) for v in given[side]] for side in ("own", "opp")}
    return {"factor": factor, "held_out": round(held_out, 4), "1": values, "2": values}


def _written(result: dict, out: Path | None) -> dict:
    if out:
        out.write_text(json.dumps(result, indent=1) + "\n")
    return result


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--ruleset", default="freestyle")
    parser.add_argument("--per-colour", action="store_true", help="one set of values a colour")
    parser.add_argument("--features", type=int, choices=(10, 13), default=13)
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--no-fouls", action="store_true",
                        help="count renju black's forbidden points like any other")
    parser.add_argument("--scale", type=Path,
                        help="only fit the scale of the values in this file (own, opp)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    games = [json.loads(line) for f in args.files for line in f.read_text().splitlines() if line]
    found = samples(games, args.ruleset, not args.no_fouls)
    if args.scale:
        result = scaled(found, json.loads(args.scale.read_text()))
        print(json.dumps(result))
        return _written(result, args.out)
    names = [f"own_{n}" for n in FEATURES] + [f"opp_{n}" for n in FEATURES]
    keep = [args.features == 13 or not name.endswith(WEAK_COMBOS) for name in names]
    result = fitted(found, keep, args.ridge, args.per_colour)
    result["features"] = list(FEATURES)
    result["games"] = len({s.game for s in found})
    print(json.dumps({k: result[k] for k in ("games", "positions", "held_out")}))
    for colour in ("1", "2"):
        for side in ("own", "opp"):
            pairs = zip(FEATURES, result[colour][side], strict=True)
            print(colour, side, " ".join(f"{name}={value:+.4f}" for name, value in pairs),
                  flush=True)
    return _written(result, args.out)


if __name__ == "__main__":
    main()
