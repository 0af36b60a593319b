"""A Gomocup engine that is no use: it says OK to START, then answers every move request with
ERROR after a pause (`python slow_engine.py SECONDS [MARKS]`). Tests plug it in as
ENGINE_COMMAND to see the server stay responsive while an engine takes its time, and the
fallback play. With MARKS (a file) it appends `started <t>` when it is started and `asked <t>`
when a move is asked of it, `t` being `time.monotonic()` (the system's, so a test can compare
it with its own), so that a test waits for what happened rather than for a while."""

import sys
import time

PAUSE = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
MARKS = sys.argv[2] if len(sys.argv) > 2 else None


def mark(what: str) -> None:
    if MARKS is not None:
        with open(MARKS, "a") as marks:
            marks.write(f"{what} {time.monotonic()}\n")


for line in sys.stdin:
    word = line.strip().split(" ", 1)[0].upper()
    if word in ("START", "RESTART"):
        if word == "START":
            mark("started")
        print("OK", flush=True)
    elif word in ("BEGIN", "TURN", "DONE"):
        mark("asked")
        time.sleep(PAUSE)
        print("ERROR too slow to be of use", flush=True)
    elif word == "END":
        break
