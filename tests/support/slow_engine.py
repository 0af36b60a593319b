"""A Gomocup engine that is no use: it says OK to START, then answers every move request with
ERROR after a pause (`python slow_engine.py SECONDS`). Tests plug it in as ENGINE_COMMAND to
see the server stay responsive while an engine takes its time, and the fallback play."""

import sys
import time

PAUSE = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0

for line in sys.stdin:
    word = line.strip().split(" ", 1)[0].upper()
    if word in ("START", "RESTART"):
        print("OK", flush=True)
    elif word in ("BEGIN", "TURN", "DONE"):
        time.sleep(PAUSE)
        print("ERROR too slow to be of use", flush=True)
    elif word == "END":
        break
