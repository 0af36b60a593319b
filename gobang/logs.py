"""Structured logging: one line per event on stderr, as key=value pairs."""

from __future__ import annotations

import logging
import sys
from enum import Enum
from typing import Any

_configured = False


class KeyValueFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        fields = getattr(record, "fields", None) or {}
        parts = [
            self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            f"level={record.levelname.lower()}",
            f"logger={record.name}",
            f"event={record.getMessage()}",
        ]
        parts += [f"{key}={_shown(value)!r}" for key, value in fields.items()]
        line = " ".join(parts)
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def _shown(value: Any) -> Any:
    """An enum as its value (`reason='resign'`): its repr, `<Reason.RESIGN: 'resign'>`, is
    noise to a reader and to anything that parses the line."""
    return value.value if isinstance(value, Enum) else value


# Socket.IO's own loggers report exceptions raised in event handlers. Setting their level
# here, before the server is built, also keeps them from adding a handler of their own, so
# those errors come out in the same one-line format (their INFO chatter stays off).
_LIBRARY_LOGGERS = ("socketio.server", "engineio.server")


def configure(level: str) -> None:
    global _configured
    root = logging.getLogger("gobang")
    root.setLevel(level.upper())
    if not _configured:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(KeyValueFormatter())
        root.addHandler(handler)
        root.propagate = False
        for name in _LIBRARY_LOGGERS:
            library = logging.getLogger(name)
            library.setLevel(logging.ERROR)
            library.addHandler(handler)
            library.propagate = False
        _configured = True


def event(logger: logging.Logger, name: str, **fields: Any) -> None:
    """Log one event with its fields; never pass passwords or cookies here."""
    logger.info(name, extra={"fields": fields})
