"""Gobang: real-time gomoku for a community server.

The app factory is in gobang/factory.py and is imported on first use of `create_app`. The
computer's engine processes (`python -m gobang.ai.brain`) import this package too: importing
the web stack here cost each engine start 1.7 of its 1.8 seconds (docs/engines.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parent.parent

if TYPE_CHECKING:
    from gobang.factory import create_app

__all__ = ["ROOT", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from gobang.factory import create_app

        return create_app
    raise AttributeError(f"module 'gobang' has no attribute {name!r}")
