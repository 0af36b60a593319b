"""Match harness: protocol engines play each other through `EngineAdapter`s with the rules
engine as referee, from balanced openings, each opening twice with colours swapped.

    nice -n 19 python -m bench.ai_match --pairs 1-2,2-3 --rulesets freestyle,renju \\
        --games 20 --jobs 2 --out bench/ai_results.jsonl
    python -m bench.ai_match --report --out bench/ai_results.jsonl

Players are built-in levels (``3``) or engines named with ``--engine NAME=COMMAND`` (any
Gomocup protocol program). Every finished game is appended to ``--out`` as one JSON line,
and games already there are skipped, so a run can be stopped, resumed, or split over
machines and the files concatenated. ``--report`` prints W/D/L, score, Elo difference per
pair with a 95% interval, a Bradley-Terry rating list (draws as half wins, level 1 = 0)
and CPU per move per player (median, p99) from the engines' ``DEBUG cpu_ms`` lines.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from gobang.ai import BuiltinPlayer, EngineAdapter, NoLegalMove, builtin_argv
from gobang.rules import SIZE, Game

CENTRE = SIZE // 2


def _openings() -> list[tuple[tuple[int, int], ...]]:
    """Three stones near the centre: black in the middle, white touching it straight
    ("direct") or diagonally ("indirect"), black's second stone within two points, on one
    side only (mirror images play the same). 22 openings; colours are swapped per opening,
    so a lopsided one still scores even between equal players."""
    found = []
    for white in ((CENTRE - 1, CENTRE), (CENTRE - 1, CENTRE + 1)):
        for dr in range(-2, 3):
            for dc in range(0, 3):
                third = (CENTRE + dr, CENTRE + dc)
                if third in ((CENTRE, CENTRE), white) or (dc == 0 and dr >= 0):
                    continue
                found.append(((CENTRE, CENTRE), white, third))
    return found


def _wide_openings() -> list[tuple[tuple[int, int], ...]]:
    """Openings the standard ones never reach, to check that a level tuned on games from
    those did not learn them by heart: white two points from black's centre stone (straight,
    a knight's move, diagonal), black's second stone within two points of the centre on one
    side, touching neither. 22 openings."""
    found = []
    for white in ((CENTRE - 2, CENTRE), (CENTRE - 2, CENTRE + 1), (CENTRE - 2, CENTRE + 2)):
        for dr in range(-2, 3):
            for dc in range(0, 3):
                third = (CENTRE + dr, CENTRE + dc)
                touching = max(abs(third[0] - white[0]), abs(third[1] - white[1])) <= 1
                if third == (CENTRE, CENTRE) or touching or (dc == 0 and dr >= 0):
                    continue
                found.append(((CENTRE, CENTRE), white, third))
    return found


OPENINGS = _openings()
OPENING_SETS = {"standard": OPENINGS, "wide": _wide_openings()}


@dataclass(frozen=True)
class GameSpec:
    """One game: player ``a`` against ``b``; ``a_black`` says who has black."""

    a: str
    b: str
    ruleset: str
    opening: int
    a_black: bool
    round: int
    openings: str = "standard"

    @property
    def key(self) -> str:
        key = f"{self.ruleset}|{self.a}|{self.b}|{self.opening}|{int(self.a_black)}|{self.round}"
        # The standard set's keys are those of every file recorded before there were others.
        return key if self.openings == "standard" else f"{key}|{self.openings}"

    @property
    def stones(self) -> tuple[tuple[int, int], ...]:
        return OPENING_SETS[self.openings][self.opening]


def schedule(
    pairs: Sequence[tuple[str, str]], rulesets: Sequence[str], games: int,
    openings: str = "standard",
) -> list[GameSpec]:
    """``games`` per pair and ruleset: openings in order, each twice with colours swapped,
    going round the list again if more games are asked for."""
    count = len(OPENING_SETS[openings])
    specs = []
    for ruleset in rulesets:
        for a, b in pairs:
            for n in range(games):
                index = n // 2
                specs.append(GameSpec(a, b, ruleset, index % count, n % 2 == 0,
                                      index // count, openings))
    return specs


# --- playing -------------------------------------------------------------------------------

_ADAPTERS: dict[tuple[str, str], EngineAdapter] = {}
_ENGINES: dict[str, list[str]] = {}
_TURN_SECONDS = 5.0
# Starting an engine on a machine shared with other work can take long (the built-in one
# imports the gobang package); a slow start is not what a match measures.
START_SECONDS = 120.0
_CLOCK = "wall"


def _argv(player: str) -> list[str]:
    if player in _ENGINES:
        return _ENGINES[player]
    return builtin_argv(int(player)) + ["--stats", "--clock", _CLOCK]


def _adapter(player: str, ruleset: str) -> EngineAdapter:
    """Engines stay up between games in one worker: starting one costs more than a move."""
    key = (player, ruleset)
    if key not in _ADAPTERS:
        _ADAPTERS[key] = EngineAdapter(
            _argv(player),
            ruleset,
            BuiltinPlayer(),
            turn_seconds=_TURN_SECONDS,
            start_seconds=START_SECONDS,
        )
    return _ADAPTERS[key]


def _init_worker(engines: dict[str, list[str]], turn_seconds: float, clock: str) -> None:
    global _TURN_SECONDS, _CLOCK
    _ENGINES.update(engines)
    _TURN_SECONDS = turn_seconds
    _CLOCK = clock


def play(spec: GameSpec) -> dict:
    """Play one game and describe it as a JSON-ready dict (``score`` is a's: 1, 0.5 or 0)."""
    game = Game(spec.ruleset)
    for row, col in spec.stones:
        game.place(row, col)
    black, white = (spec.a, spec.b) if spec.a_black else (spec.b, spec.a)
    sides = {"black": _adapter(black, spec.ruleset), "white": _adapter(white, spec.ruleset)}
    cpu: dict[str, list[float]] = {"black": [], "white": []}
    fallbacks = {"black": 0, "white": 0}
    started = time.monotonic()
    stuck = False
    while not game.is_over:
        color = game.to_move
        try:
            move = sides[color].move(game)
        except NoLegalMove:
            stuck = True  # renju black with only forbidden points left: scored a draw
            break
        fallbacks[color] += not move.by_engine
        cpu[color] += [_cpu_ms(line) for line in move.debug if "cpu_ms=" in line]
        game.place(move.row, move.col)
    winner = None if stuck else game.outcome.winner
    a_color = "black" if spec.a_black else "white"
    score = 0.5 if winner is None else float(winner == a_color)
    b_color = "white" if spec.a_black else "black"
    return {
        "key": spec.key,
        "ruleset": spec.ruleset,
        "a": spec.a,
        "b": spec.b,
        "opening": spec.opening,
        "openings": spec.openings,
        "a_black": spec.a_black,
        "score": score,
        "moves": len(game.moves),
        # Every stone from the opening on, as [row, col]: a game can be replayed and studied.
        "record": [list(move) for move in game.moves],
        "no_legal_move": stuck,
        "seconds": round(time.monotonic() - started, 2),
        "fallbacks": {"a": fallbacks[a_color], "b": fallbacks[b_color]},
        "cpu_ms": {"a": cpu[a_color], "b": cpu[b_color]},
        "finished": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def _cpu_ms(line: str) -> float:
    for part in line.split():
        if part.startswith("cpu_ms="):
            return float(part.removeprefix("cpu_ms="))
    return math.nan


def run(
    specs: list[GameSpec],
    out: Path,
    jobs: int,
    engines: dict[str, list[str]],
    turn: float,
    clock: str = "wall",
) -> int:
    """Play the games not yet in ``out``, appending each as it ends; returns how many."""
    done = {r["key"] for r in read_results(out)}
    todo = [s for s in specs if s.key not in done]
    with ProcessPoolExecutor(
        jobs, initializer=_init_worker, initargs=(engines, turn, clock)
    ) as pool:
        for record in pool.map(play, todo):
            with out.open("a") as handle:
                handle.write(json.dumps(record) + "\n")
            print(_progress(record), file=sys.stderr, flush=True)
    return len(todo)


def _progress(record: dict) -> str:
    return (
        f"{record['ruleset']} {record['a']}-{record['b']} opening {record['opening']} "
        f"a_black={record['a_black']}: score {record['score']} in {record['moves']} moves"
    )


def read_results(path: Path) -> list[dict]:
    """The games recorded in ``path``, the first record of each game only (two runs sharing
    a file may both have played it)."""
    if not path.exists():
        return []
    records: dict[str, dict] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            record = json.loads(line)
            records.setdefault(record["key"], record)
    return list(records.values())


# --- figures -------------------------------------------------------------------------------


def elo_difference(score: float) -> float:
    """Elo points behind a mean score (0 < score < 1) under the logistic model."""
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def pair_summary(scores: Sequence[float]) -> dict:
    """W/D/L, mean score and its Elo difference with a 95% interval: the Wilson interval of
    the mean score, as if every game were a win or a loss. Draws make the true spread
    smaller, so the interval errs wide; unlike the plain normal one it does not shrink to
    nothing after a few games that all went one way."""
    n = len(scores)
    wins = sum(1 for s in scores if s == 1)
    draws = sum(1 for s in scores if s == 0.5)
    mean = sum(scores) / n
    z = 1.96
    centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = max(centre - half, 0.0), min(centre + half, 1.0)
    return {
        "games": n,
        "w": wins,
        "d": draws,
        "l": n - wins - draws,
        "score": round(mean, 3),
        "elo": round(elo_difference(mean)),
        "elo_95": [round(elo_difference(low)), round(elo_difference(high))],
    }


def bradley_terry(
    games: Iterable[tuple[str, str, float]], anchor: str
) -> dict[str, tuple[float, float]]:
    """Ratings (Elo scale, ``anchor`` = 0) and standard errors from (a, b, a's score) games,
    a draw being half a win each way. Fitted by the MM algorithm; errors from the inverse
    Fisher information with the anchor held fixed. A prior of one draw against a virtual
    player of equal strength keeps all-win records finite (as BayesElo does)."""
    games = list(games)
    players = sorted({p for a, b, _ in games for p in (a, b)})
    wins = {p: 0.5 for p in players}  # the prior draw
    pairs: dict[tuple[str, str], int] = {}
    for a, b, s in games:
        wins[a] += s
        wins[b] += 1 - s
        key = (min(a, b), max(a, b))
        pairs[key] = pairs.get(key, 0) + 1
    strength = {p: 1.0 for p in players}
    for _ in range(2000):
        new = {}
        for p in players:
            denominator = 1.0 / (strength[p] + 1.0)  # the virtual opponent at strength 1
            for (x, y), n in pairs.items():
                if p in (x, y):
                    other = y if p == x else x
                    denominator += n / (strength[p] + strength[other])
            new[p] = wins[p] / denominator
        scale = new[anchor]
        new = {p: v / scale for p, v in new.items()}
        if max(abs(math.log(new[p] / strength[p])) for p in players) < 1e-10:
            strength = new
            break
        strength = new
    factor = 400 / math.log(10)
    errors = _standard_errors(players, pairs, strength, anchor)
    return {p: (factor * math.log(strength[p]), factor * errors[p]) for p in players}


def _standard_errors(
    players: list[str], pairs: dict[tuple[str, str], int], strength: dict[str, float], anchor: str
) -> dict[str, float]:
    free = [p for p in players if p != anchor]
    index = {p: k for k, p in enumerate(free)}
    size = len(free)
    info = [[0.0] * size for _ in range(size)]
    for (x, y), n in pairs.items():
        p = strength[x] / (strength[x] + strength[y])
        w = n * p * (1 - p)
        for u, v in ((x, y), (y, x)):
            if u in index:
                info[index[u]][index[u]] += w
                if v in index:
                    info[index[u]][index[v]] -= w
    for p in free:  # the prior's virtual game
        q = strength[p] / (strength[p] + 1)
        info[index[p]][index[p]] += q * (1 - q)
    inverse = _invert(info)
    errors = {anchor: 0.0}
    errors.update({p: math.sqrt(max(inverse[index[p]][index[p]], 0.0)) for p in free})
    return errors


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inverse of a small symmetric positive definite matrix."""
    n = len(matrix)
    a = [row[:] + [float(i == j) for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col][col]
        a[col] = [v / lead for v in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                factor = a[r][col]
                a[r] = [v - factor * w for v, w in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(results: list[dict]) -> dict:
    """Per ruleset: pair summaries, rating list and CPU per move per player."""
    out: dict[str, dict] = {}
    for ruleset in sorted({r["ruleset"] for r in results}):
        mine = [r for r in results if r["ruleset"] == ruleset]
        pairs: dict[str, list[float]] = {}
        cpu: dict[str, list[float]] = {}
        fallbacks = 0
        for r in mine:
            # Scores from the stronger side's point of view: b is the higher level in a chain.
            pairs.setdefault(f"{r['b']} vs {r['a']}", []).append(1 - r["score"])
            cpu.setdefault(r["a"], []).extend(r["cpu_ms"]["a"])
            cpu.setdefault(r["b"], []).extend(r["cpu_ms"]["b"])
            fallbacks += r["fallbacks"]["a"] + r["fallbacks"]["b"]
        anchor = min((p for r in mine for p in (r["a"], r["b"])), key=_order)
        ratings = bradley_terry(((r["a"], r["b"], r["score"]) for r in mine), anchor)
        out[ruleset] = {
            "pairs": {k: pair_summary(v) for k, v in sorted(pairs.items(), key=lambda kv: kv[0])},
            "ratings": {
                p: {"elo": round(e), "elo_95": [round(e - 1.96 * s), round(e + 1.96 * s)]}
                for p, (e, s) in sorted(ratings.items(), key=lambda kv: _order(kv[0]))
            },
            "cpu_ms_per_move": {
                p: {
                    "moves": len(v),
                    "median": round(statistics.median(v), 2),
                    "p99": round(percentile(v, 0.99), 2),
                }
                for p, v in sorted(cpu.items(), key=lambda kv: _order(kv[0]))
                if v
            },
            "fallbacks": fallbacks,
        }
    return out


def markdown(summary: dict) -> str:
    """The report as Markdown tables, one set per ruleset, for docs/engines.md."""
    lines = []
    for ruleset, figures in summary.items():
        if ruleset == "machine":
            continue
        lines += [
            f"**{ruleset}**",
            "",
            "| pair | games | W-D-L | score | Elo (95%) |",
            "|---|---|---|---|---|",
        ]
        for pair, s in figures["pairs"].items():
            low, high = s["elo_95"]
            lines.append(
                f"| {pair} | {s['games']} | {s['w']}-{s['d']}-{s['l']} | {s['score']:.0%} "
                f"| {s['elo']:+d} ({low:+d}..{high:+d}) |"
            )
        lines += [
            "",
            "| player | rating (95%) | moves | CPU ms/move median | p99 |",
            "|---|---|---|---|---|",
        ]
        cpu = figures["cpu_ms_per_move"]
        for player, r in figures["ratings"].items():
            c = cpu.get(player, {"moves": 0, "median": math.nan, "p99": math.nan})
            low, high = r["elo_95"]
            lines.append(
                f"| {player} | {r['elo']:+d} ({low:+d}..{high:+d}) | {c['moves']} "
                f"| {c['median']} | {c['p99']} |"
            )
        lines += ["", f"Fallback moves: {figures['fallbacks']}.", ""]
    return "\n".join(lines)


def _order(player: str) -> tuple[int, str]:
    return (int(player), "") if player.isdigit() else (99, player)


# --- command line ------------------------------------------------------------------------


def parse_pairs(text: str) -> list[tuple[str, str]]:
    """``"1-2,2-3"`` -> [("1", "2"), ("2", "3")]; the second player is the one expected
    to be stronger."""
    pairs = []
    for item in text.split(","):
        a, sep, b = item.strip().partition("-")
        if not sep or not a or not b:
            raise argparse.ArgumentTypeError(f"pair {item!r} is not A-B")
        pairs.append((a, b))
    return pairs


def parse_engines(items: Sequence[str]) -> dict[str, list[str]]:
    engines = {}
    for item in items:
        name, sep, command = item.partition("=")
        if not sep or not name or name.isdigit():
            raise argparse.ArgumentTypeError(f"--engine {item!r}: use NAME=COMMAND")
        engines[name] = shlex.split(command)
    return engines


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    chain = ",".join(f"{n}-{n + 1}" for n in range(1, 8))
    parser.add_argument("--pairs", type=parse_pairs, default=parse_pairs(chain))
    parser.add_argument("--rulesets", default="freestyle,renju")
    parser.add_argument("--games", type=int, default=100, help="per pair and ruleset")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--openings", choices=sorted(OPENING_SETS), default="standard",
                        help="the set of three-stone openings the games start from")
    parser.add_argument("--turn-seconds", type=float, default=5.0, help="INFO timeout_turn")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="built-in levels' time backstop counts wall or their own CPU time",
    )
    parser.add_argument("--engine", action="append", default=[], help="NAME=COMMAND")
    parser.add_argument("--out", type=Path, default=Path("bench/ai_results.jsonl"))
    parser.add_argument("--report", action="store_true", help="only summarise --out")
    parser.add_argument("--markdown", action="store_true", help="print the summary as tables")
    args = parser.parse_args(argv)
    if not args.report:
        specs = schedule(args.pairs, args.rulesets.split(","), args.games, args.openings)
        engines = parse_engines(args.engine)
        run(specs, args.out, args.jobs, engines, args.turn_seconds, args.clock)
    summary = report(read_results(args.out))
    summary["machine"] = {"cpus": os.cpu_count(), "load_average": os.getloadavg()}
    print(markdown(summary) if args.markdown else json.dumps(summary, indent=1))
    return summary


if __name__ == "__main__":
    main()
