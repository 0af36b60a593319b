"""The stack's own ceiling: Flask-SocketIO on eventlet that only relays moves.

`python bench/relay_server.py --port P` serves a `/room` namespace speaking just enough of the
wire contract for bench/load.py's players: `join_game` (the first to join is black; the second
makes the game start with `game_ready`), `place_stone` (broadcast as `stone_placed` to the room,
with the move number and whose turn it is), `game_over` after move 225, and `rematch`.
No login, no rules, no database, no clocks. Same Socket.IO settings and the same eventlet
server set-up as app.py, so a figure from the real server divided by the same figure from the
relay, measured in the same run, is what the application itself costs.
"""

from __future__ import annotations

import argparse

if __name__ == "__main__":
    import eventlet

    eventlet.monkey_patch()

import itertools  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from flask import Flask, request  # noqa: E402
from flask_socketio import Namespace, SocketIO, join_room  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from config import Config  # noqa: E402

BOARD_POINTS = 225
_IDS = itertools.count(1_000_000)


class RelayRoom(Namespace):
    def __init__(self, namespace: str) -> None:
        super().__init__(namespace)
        # game_id -> {"seats": {sid: colour}, "joined": set of sids, "moves": n, "rematch": set}
        self.games: dict[int, dict[str, Any]] = {}
        self.sids: dict[str, tuple[int, str]] = {}

    def on_join_game(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = data["game_id"]
        game = self.games.setdefault(game_id, _new_game({}))
        seats = game["seats"]
        if request.sid not in seats:
            seats[request.sid] = "white" if "black" in seats.values() else "black"
        color = seats[request.sid]
        game["joined"].add(request.sid)
        self.sids[request.sid] = (game_id, color)
        join_room(_room(game_id))
        status = "playing" if len(game["joined"]) == 2 else "waiting"
        if status == "playing" and game["moves"] == 0:
            self.emit("game_ready", {"game_id": game_id, "to_move": "black"},
                      room=_room(game_id))
        return {"ok": True, "state": {"game_id": game_id, "status": status, "you": color,
                                      "moves": [[0, 0]] * game["moves"],
                                      "to_move": _to_move(game["moves"])}}

    def on_place_stone(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = data["game_id"]
        game = self.games[game_id]
        color = game["seats"][request.sid]
        game["moves"] += 1
        number = game["moves"]
        over = number >= BOARD_POINTS
        self.emit("stone_placed", {
            "game_id": game_id, "row": data["row"], "col": data["col"], "color": color,
            "move": number, "to_move": None if over else _to_move(number), "clocks": None,
        }, room=_room(game_id))
        if over:
            self.emit("game_over", {"game_id": game_id, "result": {"reason": "board_full"}},
                      room=_room(game_id))
        return {"ok": True}

    def on_rematch(self, data: dict[str, Any]) -> dict[str, Any]:
        game_id = data["game_id"]
        game = self.games[game_id]
        game["rematch"].add(request.sid)
        if len(game["rematch"]) == 2:
            new_id = next(_IDS)
            # Colours swapped, as the real server does.
            swapped = {sid: ("white" if c == "black" else "black")
                       for sid, c in game["seats"].items()}
            self.games[new_id] = _new_game(swapped)
            self.emit("rematch_ready", {"game_id": new_id}, room=_room(game_id))
            del self.games[game_id]
        return {"ok": True}

    def on_disconnect(self, *reason: Any) -> None:
        self.sids.pop(request.sid, None)


def _new_game(seats: dict[str, str]) -> dict[str, Any]:
    return {"seats": seats, "joined": set(), "moves": 0, "rematch": set()}


def _room(game_id: int) -> str:
    return f"game:{game_id}"


def _to_move(moves: int) -> str:
    return "black" if moves % 2 == 0 else "white"


def create_relay(async_mode: str = "eventlet") -> tuple[Flask, SocketIO]:
    app = Flask(__name__)
    app.config["SECRET_KEY"] = "relay"
    socketio = SocketIO(
        app, async_mode=async_mode,
        ping_interval=Config.SOCKETIO_PING_INTERVAL, ping_timeout=Config.SOCKETIO_PING_TIMEOUT,
        max_http_buffer_size=Config.SOCKETIO_MAX_MESSAGE_BYTES,
    )
    socketio.on_namespace(RelayRoom("/room"))

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    return app, socketio


def main() -> None:
    parser = argparse.ArgumentParser(description="Relay moves between two clients per room.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5001)
    args = parser.parse_args()
    app, _socketio = create_relay()
    serve(app, args.host, args.port)


def serve(app: Flask, host: str, port: int) -> None:
    """Exactly as app.py serves (keep the two in step): TCP_NODELAY on the listener, which
    accepted sockets inherit, the same backlog, connection cap, socket buffers and garbage
    collector set-up."""
    import gc
    import socket

    import eventlet.wsgi

    class LeanProtocol(eventlet.wsgi.HttpProtocol):
        # the server's small socket buffers (see `lean_protocol`, gobang/transport/protocol.py).
        rbufsize = 2048
        wbufsize = 2048

    listener = eventlet.listen((host, port), backlog=Config.LISTEN_BACKLOG)
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    gc.freeze()
    gc.set_threshold(700, 10, 1_000)
    eventlet.wsgi.server(listener, app, log_output=False, max_size=Config.MAX_CONNECTIONS,
                         protocol=LeanProtocol)


if __name__ == "__main__":
    main()
