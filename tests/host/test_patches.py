"""The server refuses to start, in one line, when a library no longer has what it patches
(gobang/transport/patches.py, docs/upgrading.md)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from gobang.transport.patches import REFUSED, TOUCHES, Touch, assigns, refusals

ROOT = Path(__file__).resolve().parents[2]


def no_such_module(name: str) -> types.ModuleType:
    raise ImportError(name)


def module_without(touch: Touch) -> types.SimpleNamespace:
    """The touch's module as an upgrade might leave it: its class, without the member."""
    owner, *member = touch.path.split(".")
    return types.SimpleNamespace(**({owner: types.SimpleNamespace()} if member else {}))


def test_the_installed_libraries_have_everything_the_server_patches():
    # In a process of its own: eventlet is not imported into the test process.
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-c",
         "from gobang.transport.patches import refusals; print(refusals())"],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "[]\n"), done.stderr[-2000:]


@pytest.mark.parametrize("touch", TOUCHES, ids=Touch.name)
def test_a_library_without_a_patched_attribute_gives_one_line_naming_it(touch):
    lines = refusals([touch], import_module=lambda _name: module_without(touch),
                     version=lambda _distribution: "9.9.9")
    assert lines == [f"refusing to start: {touch.name()}: no such attribute in "
                     f"{touch.distribution} 9.9.9 (written for {touch.pinned}; "
                     f"docs/upgrading.md)"]


def test_a_patched_method_whose_parameters_changed_is_refused():
    touch = Touch("lib", "1.0", "lib", "Thing.call", ("self", "data"))
    changed = types.SimpleNamespace(Thing=types.SimpleNamespace(call=lambda data, more: None))
    lines = refusals([touch], import_module=lambda _name: changed, version=lambda _d: "2.0")
    assert lines == ["refusing to start: lib.Thing.call: parameters (data, more) in lib 2.0 "
                     "(written for 1.0; docs/upgrading.md)"]


def test_a_module_gone_is_refused():
    touch = Touch("lib", "1.0", "lib.gone", "Thing")
    lines = refusals([touch], import_module=no_such_module, version=lambda _d: "2.0")
    assert lines == ["refusing to start: lib.gone.Thing: no module in lib 2.0 "
                     "(written for 1.0; docs/upgrading.md)"]


class Made:
    """A class setting its attributes in __init__, as engine.io's server sets `sockets`."""

    def __init__(self) -> None:
        self.sockets: dict[str, object] = {}
        self.handlers = {}


@pytest.mark.parametrize(("path", "fault"), [
    ("Made.sockets", []),
    ("Made.handlers", []),
    ("Made.gone", ["refusing to start: tests.Made.gone: no such attribute in lib 2.0 "
                   "(written for 1.0; docs/upgrading.md)"]),
])
def test_an_attribute_set_on_instances_is_looked_for_in_its_class_code(path, fault):
    touch = Touch("lib", "1.0", "tests", path, assigned=True)
    found = types.SimpleNamespace(Made=Made)
    assert refusals([touch], import_module=lambda _name: found, version=lambda _d: "2.0") == fault


def test_a_comparison_is_not_taken_for_an_assignment():
    class Compares:
        def check(self) -> bool:
            return self.sockets == {}

    assert not assigns(Compares, "sockets")


def touched_column() -> set[str]:
    """The last name of each backticked name in the "what is touched" column of
    docs/upgrading.md's table: `Socket.close(wait=False)` is `close`, `_async["websocket"]`
    is `_async`."""
    page = (ROOT / "docs" / "upgrading.md").read_text()
    table = page.split("## What is touched")[1].split("\n## ")[0]
    rows = [line.split("|") for line in table.splitlines() if line.startswith("| ")]
    named = set()
    for row in rows[1:]:  # after the header
        for code in re.findall(r"`([^`]+)`", row[2]):
            named.add(re.split(r"[(\[]", code)[0].split(".")[-1])
    return named


def test_every_patched_attribute_is_in_the_table_of_docs_upgrading():
    assert sorted({t.path.split(".")[-1] for t in TOUCHES} - touched_column()) == []


def test_every_name_in_the_table_of_docs_upgrading_is_checked_at_start_up():
    # Classes subclassed (`HttpProtocol`) count as checked through their members' rows.
    checked = {part for touch in TOUCHES for part in touch.path.split(".")}
    assert sorted(touched_column() - checked) == [], "not in TOUCHES (gobang/transport/patches.py)"


# Starts app.py with engine.io's Socket.schedule_ping deleted, as an upgrade might: PYTHONMALLOC
# is set, so app.py does not start itself again without the deletion.
CHANGED_LIBRARY = """
import runpy, sys
import engineio.socket
del engineio.socket.Socket.schedule_ping
sys.argv = ["app.py", "--port", "0"]
runpy.run_path("app.py", run_name="__main__")
"""


@pytest.mark.live
def test_app_py_refuses_to_start_on_a_changed_library_with_one_line(tmp_path):
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("GOBANG_")},
           "PYTHONMALLOC": "malloc", "GOBANG_SECRET_KEY": "patches-test",
           "GOBANG_DATABASE_URL": f"sqlite:///{tmp_path / 'refused.sqlite3'}"}
    done = subprocess.run([sys.executable, "-c", CHANGED_LIBRARY], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    refused = [line for line in done.stderr.splitlines() if "refusing to start" in line]
    assert (done.returncode, refused, "Traceback" in done.stderr) == (REFUSED, [
        "gobang: refusing to start: engineio.socket.Socket.schedule_ping: no such attribute "
        "in python-engineio 4.15.1 (written for 4.15.1; docs/upgrading.md)"], False)


def test_each_patch_was_written_for_the_version_requirements_txt_pins():
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        name, _, version = line.partition("==")
        pins[name.split("[")[0].lower()] = version
    assert [t.name() for t in TOUCHES if pins.get(t.distribution.lower()) != t.pinned] == []
