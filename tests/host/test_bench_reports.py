"""What the bench's reports keep of a server's log once the log is gone."""

from __future__ import annotations

import pytest

from bench.load import traceback_samples

TRACEBACK = """INFO  started
ERROR [gobang.sockets] broadcast failed
Traceback (most recent call last):
  File "fanout.py", line 1, in _run
    delivery.send(server)
OSError: [Errno 32] Broken pipe
INFO  still going"""


@pytest.mark.parametrize(("log", "samples"), [
    ("", []),
    ("INFO  quiet\nINFO  still quiet", []),
    (TRACEBACK, ["ERROR [gobang.sockets] broadcast failed | OSError: [Errno 32] Broken pipe"]),
    ("\n".join([TRACEBACK] * 5), [
        "ERROR [gobang.sockets] broadcast failed | OSError: [Errno 32] Broken pipe"] * 3),
])
def test_each_traceback_is_kept_as_its_message_and_its_exception(log, samples):
    assert traceback_samples(log) == samples
