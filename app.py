"""Run Gobang on eventlet: `python app.py [--host H] [--port P]`.

`flask --app app run` also works, for development, on Flask's own server in threading mode.
"""

from __future__ import annotations

import argparse

if __name__ == "__main__":
    # Patching must come before anything else imports socket or threading.
    import eventlet

    eventlet.monkey_patch()

from gobang import create_app  # noqa: E402
from gobang.extensions import socketio  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve Gobang.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000)
    args = parser.parse_args()
    from eventlet import tpool

    try:
        server_app = create_app(
            {"SOCKETIO_ASYNC_MODE": "eventlet", "BLOCKING_OFFLOAD": tpool.execute}
        )
    except ValueError as exc:  # a malformed GOBANG_* setting: say which, without a traceback
        raise SystemExit(f"gobang: {exc}") from None
    socketio.run(server_app, host=args.host, port=args.port, log_output=False)


if __name__ == "__main__":
    main()
else:
    app = create_app()
