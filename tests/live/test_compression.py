"""Websockets go uncompressed whatever the client offers: a compressor per connection cost more
memory than a whole idle connection may (docs/performance.md)."""

from __future__ import annotations

import pytest
import websocket

pytestmark = [pytest.mark.live]

OFFERS = [
    "permessage-deflate",
    "permessage-deflate; client_max_window_bits",  # what Chromium offers
    "permessage-deflate; server_no_context_takeover; client_no_context_takeover",
]


@pytest.mark.parametrize("offer", OFFERS)
def test_an_offer_of_compression_is_declined_and_the_connection_works(live_server, offer):
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{live_server.port}/socket.io/?EIO=4&transport=websocket",
        header=[f"Sec-WebSocket-Extensions: {offer}"], timeout=10)
    try:
        assert "sec-websocket-extensions" not in ws.getheaders()
        assert ws.recv().startswith("0")  # engine.io's open packet, readable as it came
    finally:
        ws.close()
