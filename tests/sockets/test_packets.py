"""The server's Socket.IO packets: JSON only, in both directions."""

from __future__ import annotations

import pytest
from socketio import packet

from gobang.transport.packets import MalformedPacket, StrictPacket


class Tripwire(dict):
    """A payload that fails the test if anything walks it before encoding."""

    def values(self):
        raise AssertionError("the payload was walked looking for binary data")


def test_an_outgoing_event_is_text_without_walking_its_payload():
    sent = StrictPacket(packet.EVENT, namespace="/hall", data=["hall_update", Tripwire(seq=1)])
    assert sent.packet_type == packet.EVENT
    assert sent.encode() == '2/hall,["hall_update",{"seq":1}]'


@pytest.mark.parametrize("encoded", ['5/hall,1-["chat",{"_placeholder":true,"num":0}]',
                                     '6/hall,1-3[{"_placeholder":true,"num":0}]'])
def test_an_incoming_binary_packet_is_refused(encoded):
    with pytest.raises(MalformedPacket):
        StrictPacket(encoded_packet=encoded)
