"""Run Gobang on eventlet: `python app.py [--host H] [--port P] [--async-mode M]`.

Here: the allocator, the arguments, eventlet's patching (first, before anything imports
socket), the check of the patched libraries, the app. The server itself and every patch of a
library's internals are in gobang/transport/. `--async-mode threading` (or
GOBANG_ASYNC_MODE=threading) serves on OS threads instead, without eventlet: a spike kept
working (gobang/transport/threaded.py; docs/architecture.md, "The eventlet question").

`flask --app app run` also works, for development, on Flask's own server in threading mode.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gobang.transport.patches import Touch


def _use_system_allocator() -> None:
    """Run on the C library's malloc rather than Python's own small-object allocator, by
    starting this same command again with PYTHONMALLOC=malloc (kept when already set, e.g.
    to `pymalloc`). Python's allocator gives memory back a whole 1 MiB arena at a time, only
    once every object in it is gone: after 2,000 connections dropped, the few thousand
    long-lived objects made meanwhile (database connections and their statement caches,
    query caches, timers, what the ticker keeps) sat one or two to a 16 KiB pool across
    40-50 arenas, and RSS stayed 30-50 MB above its baseline for good. glibc's malloc_trim
    (heap_trimmer, gobang/transport/memory.py) gives back any free 4 KiB page instead: RSS
    came back to within 5 MB (bench/attacks.py memory, docs/security.md)."""
    if "PYTHONMALLOC" not in os.environ:
        os.environ["PYTHONMALLOC"] = "malloc"
        _prefer_jemalloc()
        os.execv(sys.executable, sys.orig_argv)


def _prefer_jemalloc() -> None:
    """jemalloc in glibc's place where the host has it (Debian: libjemalloc2), unless the host
    preloads something itself. glibc's malloc costs a move about a third more CPU than
    Python's allocator (docs/performance.md); jemalloc is as quick as Python's and, unlike
    it, gives freed pages back to the system on its own, a few seconds after they are
    freed."""
    if os.environ.get("LD_PRELOAD"):
        return
    import ctypes.util

    found = ctypes.util.find_library("jemalloc")
    if found:
        os.environ["LD_PRELOAD"] = found
        os.environ.setdefault("MALLOC_CONF", "background_thread:true,dirty_decay_ms:5000")


ASYNC_MODES = ("eventlet", "threading")


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Serve Gobang.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--async-mode", choices=ASYNC_MODES,
                        default=os.environ.get("GOBANG_ASYNC_MODE") or ASYNC_MODES[0])
    args = parser.parse_args()
    if args.async_mode not in ASYNC_MODES:  # a default from the environment is not checked
        parser.error(f"GOBANG_ASYNC_MODE: choose from {', '.join(ASYNC_MODES)}")
    return args


if __name__ == "__main__":
    _use_system_allocator()  # first: the new process starts from here again
    if _arguments().async_mode == "eventlet":
        # Patching must come before anything else imports socket or threading.
        import eventlet

        eventlet.monkey_patch()
        # psycopg (PostgreSQL) waits for the server in C by default, which would stall every
        # green thread for the length of each query; its select() wait goes through the hub.
        os.environ.setdefault("PSYCOPG_WAIT_FUNC", "wait_select")

from gobang import create_app  # noqa: E402
from gobang.settings import SettingsRefused  # noqa: E402
from gobang.transport.patches import REFUSED, LibraryChanged, refusals  # noqa: E402


def main() -> None:
    args = _arguments()
    # Each async mode is one module of gobang/transport/ with the same three functions.
    if args.async_mode == "threading":
        from gobang.transport import threaded as mode
    else:
        from gobang.transport import server as mode
    _refuse_changed_libraries(mode.touched())
    settings = mode.settings()
    # A process restarted on the same port keeps its name, so it takes its games back at
    # once (several processes; PROCESS_NAME set by the host wins).
    settings["SERVE_PORT"] = args.port
    try:
        server_app = create_app(settings)
    except ValueError as exc:  # a malformed GOBANG_* setting: say which, without a traceback
        raise SystemExit(f"gobang: {exc}") from None
    except SettingsRefused as exc:  # settings that must not run, e.g. several processes on SQLite
        sys.stderr.write(f"gobang: refusing to start: {exc}\n")
        raise SystemExit(2) from None
    except LibraryChanged as exc:  # found changed as the transport is installed
        sys.stderr.write(f"gobang: {exc}\n")
        raise SystemExit(REFUSED) from None
    mode.serve(server_app, args.host, args.port)


def _refuse_changed_libraries(touches: tuple[Touch, ...]) -> None:
    """What the server patches must still be there as written (gobang/transport/patches.py;
    `touches`: the async mode's own rows): else one line each, exit status 2, before anything
    is served."""
    lines = refusals(touches)
    if lines:
        sys.stderr.write("".join(f"gobang: {line}\n" for line in lines))
        raise SystemExit(REFUSED)


if __name__ == "__main__":
    main()
else:
    app = create_app()
