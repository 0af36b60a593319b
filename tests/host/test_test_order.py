"""The parallel pass hands its workers the modules that start servers first (tests/conftest.py,
heavy_first; tests/run keeps that order), so that short modules, not long ones, end it."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.conftest import heavy_first


@dataclass
class Collected:
    """What heavy_first reads of a collected test: its id and its marks."""

    nodeid: str
    marks: tuple[str, ...] = ()

    def get_closest_marker(self, name: str) -> str | None:
        return name if name in self.marks else None


@pytest.mark.parametrize("mark", ["live", "browser", "own_servers"])
def test_a_module_with_one_test_that_starts_a_server_goes_first_whole(mark):
    items = [Collected("tests/a.py::one"), Collected("tests/b.py::one"),
             Collected("tests/b.py::two", (mark,)), Collected("tests/a.py::two")]

    heavy_first(items)

    assert [i.nodeid for i in items] == [
        "tests/b.py::one", "tests/b.py::two", "tests/a.py::one", "tests/a.py::two"]


def test_other_marks_leave_the_order_as_collected():
    items = [Collected("tests/a.py::one", ("serial",)), Collected("tests/b.py::one", ("slow",))]

    heavy_first(items)

    assert [i.nodeid for i in items] == ["tests/a.py::one", "tests/b.py::one"]
