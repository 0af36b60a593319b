"""Each pytest-xdist worker hands out ports from its own block, below the kernel's ephemeral
range, and never one that is bound."""

from __future__ import annotations

import socket

import pytest

from tests.support import ports


@pytest.mark.parametrize(("worker", "index"), [
    ("", 0), ("gw0", 0), ("gw1", 1), ("gw7", 7), ("master", 0),
])
def test_each_worker_has_its_own_block(worker, index):
    assert ports.worker_index(worker) == index


def test_the_blocks_end_below_the_ephemeral_range():
    assert ports.FIRST + ports.WORKERS * ports.BLOCK <= 32_768


def test_a_port_someone_has_bound_is_skipped():
    first = ports.free_port()
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", first))
        handed = {ports.free_port() for _ in range(ports.BLOCK)}  # once round the block
    assert first not in handed
