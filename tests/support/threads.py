"""Work started at the same moment on several threads, each in an app context of its own: how
service tests race two writers on the same rows."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from flask import Flask

from gobang.extensions import db


def at_once(app: Flask, work: Callable[..., Any], calls: Sequence[tuple]) -> list[Any]:
    """`work(*args)` for every args of `calls`, all released by one barrier; their returns in
    the order they finished."""
    returned: list[Any] = []
    barrier = threading.Barrier(len(calls))

    def run(*args: Any) -> None:
        with app.app_context():
            barrier.wait()
            returned.append(work(*args))
            db.session.remove()

    threads = [threading.Thread(target=run, args=args) for args in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return returned
