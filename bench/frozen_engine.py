"""The built-in engine as it stood at a fixed commit, kept as a reference player: a stronger
engine is measured against the same opponent however the engine changes afterwards
(docs/engines.md, "A stronger engine: the reference").

    python -m bench.frozen_engine --level 8          # a Gomocup protocol engine on stdin/out
    nice -n 19 python -m bench.ai_match \\
        --engine "frozen8=python -m bench.frozen_engine --level 8" --pairs frozen8-8 \\
        --games 200 --turn-seconds 1 --out bench/ai_results-stronger.jsonl

The engine's files (gobang/ai, gobang/rules and the package's __init__) are taken from the
commit with `git archive` into a folder of the system's temporary directory, once per commit,
and the engine runs from there: nothing of the engine is copied into this repository, and a
clone without that commit (a shallow one) is told so. The arguments after the script's are
the brain's own (`--level`, `--seed`).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

# Level 8 as issue "Learn from every game" measured it: 10 % against a Gomocup engine at 1 s
# a move. The last commit that changed gobang/ai or gobang/rules before a stronger engine.
FROZEN = "dd621ae1054be47210b0dfc589d66b87b1ccfc50"
ROOT = Path(__file__).resolve().parent.parent
PATHS = ("gobang/__init__.py", "gobang/ai", "gobang/rules")


class MissingCommit(RuntimeError):
    """The repository does not hold the reference commit (a shallow clone)."""


def extracted(commit: str = FROZEN, into: Path | None = None) -> Path:
    """A folder holding the commit's engine files, made once: a half-made folder is never
    used, since it is renamed into place only when complete."""
    home = into or Path(tempfile.gettempdir()) / f"gobang-engine-{commit[:12]}"
    if home.is_dir():
        return home
    found = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{commit}^{{commit}}"],
                           capture_output=True)
    if found.returncode != 0:
        raise MissingCommit(f"commit {commit[:12]} is not in this clone: the reference engine "
                            "needs the repository's history (git fetch --unshallow)")
    building = Path(tempfile.mkdtemp(prefix=home.name + ".", dir=home.parent))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, *PATHS],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(building)], input=archive, check=True)
    try:
        building.rename(home)
    except OSError:  # another process made it meanwhile: theirs is as good
        subprocess.run(["rm", "-rf", str(building)], check=True)
    return home


def argv(brain_args: list[str]) -> list[str]:
    return [sys.executable, "-m", "gobang.ai.brain", *brain_args]


def environment(home: Path) -> dict[str, str]:
    """Only the reference's files on the path: the engine of today must not be imported."""
    return {**os.environ, "PYTHONPATH": str(home), "PYTHONSAFEPATH": "1"}


def main() -> None:
    home = extracted()
    os.chdir(home)
    os.execve(sys.executable, argv(sys.argv[1:]), environment(home))


if __name__ == "__main__":
    main()
