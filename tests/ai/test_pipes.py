"""A write to a child process that has ended raises at once, under eventlet as without it.

Eventlet's own write retries EPIPE forever (gobang/ai/pipes.py), so each case runs in a
process of its own, with eventlet patching the standard library as the server does ("green")
and without it ("plain"); eventlet is not imported into the test process.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = textwrap.dedent(
    """
    import sys
    if sys.argv[1] == "green":
        import eventlet
        eventlet.monkey_patch()  # as app.py does when it runs the server
    import subprocess
    sys.path.insert(0, ".")
    from gobang.ai.pipes import send

    CHILDREN = {
        "gone": "pass",
        "silent": "import signal; signal.pause()",  # never reads, until killed
        "reading": "import sys; print(len(sys.stdin.buffer.read()))",
    }
    child = subprocess.Popen([sys.executable, "-c", CHILDREN[sys.argv[2]]],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    if sys.argv[2] == "gone":
        child.wait()
    try:
        send(child.stdin, b"x" * int(sys.argv[3]), seconds=1)
        child.stdin.close()
        print("read", child.stdout.read().decode().strip())
    except OSError as error:
        print(type(error).__name__)
    child.kill()
    child.wait()
    """
)

# An engine that answers START, closes its input and then answers its first move: the
# adapter's next write goes to a pipe nobody can read.
SHORT_LIVED_ENGINE = textwrap.dedent(
    """
    import os, sys
    for line in sys.stdin:
        if line.startswith("START"):
            print("OK", flush=True)
        elif line.startswith("BEGIN"):
            os.close(0)
            print("7,7", flush=True)
            break
    """
)

ADAPTER_PROBE = textwrap.dedent(
    """
    import eventlet
    eventlet.monkey_patch()
    import sys
    sys.path.insert(0, ".")
    from gobang.ai import EngineAdapter
    from gobang.rules import Game

    adapter = EngineAdapter([sys.executable, "-c", sys.argv[1]], "freestyle",
                            lambda game: (0, 0), turn_seconds=1)
    game = Game("freestyle")
    first = adapter.move(game)
    game.place(first.row, first.col)
    second = adapter.move(game)
    print(first.by_engine, second.by_engine, second.problem)
    adapter.close()
    """
)


def run(*argv: str) -> str:
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


@pytest.mark.parametrize("mode", ["green", "plain"])
@pytest.mark.parametrize(
    ("child", "size", "outcome"),
    [
        ("gone", 4, "BrokenPipeError"),
        ("silent", 1_000_000, "TimeoutError"),  # more than the pipe holds
        ("reading", 1_000_000, "read 1000000"),
    ],
)
def test_a_write_to_a_child_ends_as_the_child_does(mode, child, size, outcome):
    assert run(PROBE, mode, child, str(size)) == outcome


def test_under_eventlet_an_engine_gone_between_moves_is_covered_by_the_fallback():
    assert run(ADAPTER_PROBE, SHORT_LIVED_ENGINE) == (
        "True False the engine closed its input (crashed?)")
