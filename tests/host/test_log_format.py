"""The log line's fields: key=value, each value as Python writes it, an enum as its value."""

from __future__ import annotations

import logging

from gobang.logs import KeyValueFormatter
from gobang.vocabulary import Reason


def line(**fields: object) -> str:
    record = logging.LogRecord("gobang.games", logging.INFO, __file__, 1, "game_over", None, None)
    record.fields = fields
    return KeyValueFormatter().format(record)


def test_an_enum_field_is_logged_as_its_value() -> None:
    assert line(reason=Reason.RESIGN).endswith(" event=game_over reason='resign'")


def test_other_fields_are_logged_as_python_writes_them() -> None:
    assert line(game_id=7, name="ann").endswith(" event=game_over game_id=7 name='ann'")
