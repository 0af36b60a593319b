"""What a test needs from the machine: missing, it skips locally and fails in CI, where a
GOBANG_REQUIRE_* variable says the machine was set up to have it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import NoReturn

import pytest


def missing(message: str, require_env: str) -> NoReturn:
    if os.environ.get(require_env) == "1":
        pytest.fail(message)
    pytest.skip(message)


def require_binary(name: str, places: tuple[str, ...], require_env: str) -> str:
    """The path of a Debian package's program, found on PATH or in its usual places."""
    found = shutil.which(name) or next((p for p in places if Path(p).exists()), None)
    if found is None:
        missing(f"{name} is not installed (apt-get install {name})", require_env)
    return found
