"""A Socket.IO client for one namespace over a websocket, with the part of
`socketio.AsyncClient`'s interface the bench's seats use (`on`, `emit` with a callback, `call`,
`disconnect`, `connected`).

On this 2-core machine the bench's players share the cores with the servers they measure.
`AsyncClient` decodes each packet through several layers and runs every handler in a task of
its own: at 1,000 moves a second two bench processes of them took about half a core. This one
reads each frame in place, as bench/players.py's HallIdler does, and runs each handler as a
plain callback on the event loop, in the order the events came, so more of the machine is left
to the servers and a move's arrival is stamped sooner after it is read. It speaks the same wire
protocol (Engine.IO 4 over a websocket, Socket.IO 5 text packets); binary packets are not
needed by the bench and are not supported."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import aiohttp

Handler = Callable[..., Any]


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


class LeanClient:
    def __init__(self, http: aiohttp.ClientSession, cookie: str | None = None) -> None:
        self.http = http
        self.cookie = cookie
        self.namespace = "/"
        self.connected = False
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._handlers: dict[str, Handler] = {}
        self._acks: dict[int, Callable[[list[Any]], None]] = {}
        self._next_id = 0
        self._ready: asyncio.Future | None = None
        self._reader: asyncio.Task | None = None

    def on(self, event: str, handler: Handler, namespace: str = "/") -> None:
        self._handlers[event] = handler

    async def connect(self, url: str, namespaces: list[str], transports: Any = None,
                      wait_timeout: float = 60, socketio_path: str = "socket.io") -> None:
        (self.namespace,) = namespaces
        ws_url = (url.replace("http", "ws", 1).rstrip("/")
                  + f"/{socketio_path.strip('/')}/?EIO=4&transport=websocket")
        headers = {"Cookie": self.cookie} if self.cookie else {}
        self._ws = await self.http.ws_connect(ws_url, headers=headers, autoping=True,
                                              max_msg_size=0)
        opened = await self._ws.receive_str(timeout=wait_timeout)
        if not opened.startswith("0"):
            raise ConnectionError(f"no engine.io open packet: {opened[:80]}")
        self._ready = asyncio.get_running_loop().create_future()
        self._reader = asyncio.ensure_future(self._read())
        await self._ws.send_str(f"40{self.namespace},")
        await asyncio.wait_for(asyncio.shield(self._ready), wait_timeout)

    async def emit(self, event: str, data: Any = None, namespace: str | None = None,
                   callback: Handler | None = None) -> None:
        if self._ws is None or not self.connected:
            raise ConnectionError("not connected")
        ack = ""
        if callback is not None:
            self._next_id += 1
            ack = str(self._next_id)
            self._acks[self._next_id] = lambda args: callback(*args)
        await self._ws.send_str(f"42{self.namespace},{ack}{_dumps([event, data])}")

    async def call(self, event: str, data: Any = None, namespace: str | None = None,
                   timeout: float = 60) -> Any:
        """The server's acknowledgement: its one argument, or a tuple of several."""
        answer = asyncio.get_running_loop().create_future()

        def settle(*args: Any) -> None:
            if not answer.done():
                answer.set_result(args[0] if len(args) == 1 else args)

        await self.emit(event, data, callback=settle)
        # Awaited directly (asyncio.wait_for would wake this task one turn of the loop later),
        # so that the caller has the answer before any event that came after it.
        async with asyncio.timeout(timeout):
            return await answer

    async def disconnect(self) -> None:
        if self._ws is not None and not self._ws.closed:
            if self.connected:
                await self._ws.send_str(f"41{self.namespace},")
            await self._ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    async def _read(self) -> None:
        assert self._ws is not None
        reason = "transport close"
        try:
            async for message in self._ws:
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                if not self._packet(message.data):
                    reason = "io server disconnect"
                    break
        finally:
            self._closed(reason)

    def _packet(self, data: str) -> bool:
        """Handles one Engine.IO packet; False when the server ended the namespace."""
        if data == "2":
            asyncio.ensure_future(self._ws.send_str("3"))
            return True
        if not data.startswith("4"):
            return True
        kind, body = data[1], data[2:]
        prefix = f"{self.namespace},"
        if not body.startswith(prefix):
            return True
        body = body[len(prefix):]
        if kind == "2":
            self._event(body)
        elif kind == "3":
            self._ack(body)
        elif kind == "0":
            self.connected = True
            self._settle_ready(None)
        elif kind == "4":
            self._settle_ready(ConnectionError(f"connect refused: {body}"))
            return False
        elif kind == "1":
            return False
        return True

    def _event(self, body: str) -> None:
        digits = len(body) - len(body.lstrip("0123456789"))
        name, *args = json.loads(body[digits:])
        handler = self._handlers.get(name)
        if handler is not None:
            # After the tasks already woken, as a `call` waiting on an earlier answer: events
            # are handled in the order they were sent, as the pages handle them.
            asyncio.get_running_loop().call_soon(handler, *args)

    def _ack(self, body: str) -> None:
        digits = len(body) - len(body.lstrip("0123456789"))
        callback = self._acks.pop(int(body[:digits]), None)
        if callback is not None:
            callback(json.loads(body[digits:]))

    def _settle_ready(self, error: Exception | None) -> None:
        if self._ready is not None and not self._ready.done():
            if error is None:
                self._ready.set_result(None)
            else:
                self._ready.set_exception(error)

    def _closed(self, reason: str) -> None:
        was_connected, self.connected = self.connected, False
        self._settle_ready(ConnectionError(f"closed before connecting ({reason})"))
        self._acks.clear()
        if was_connected and "disconnect" in self._handlers:
            self._handlers["disconnect"](reason)
