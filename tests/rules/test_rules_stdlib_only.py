"""gobang.rules must import nothing outside the standard library."""

import ast
import sys
from pathlib import Path

import pytest

import gobang.rules

PACKAGE_DIR = Path(gobang.rules.__file__).parent
MODULES = sorted(PACKAGE_DIR.rglob("*.py"))


def foreign_imports(source: str) -> list[str]:
    """Top-level names of absolute imports that are not standard library modules.
    Relative imports (``from .x import y``) stay inside the package and are allowed."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        found += [n for n in names if n.split(".")[0] not in sys.stdlib_module_names]
    return found


def test_package_has_modules() -> None:
    assert {p.name for p in MODULES} >= {"__init__.py", "game.py", "renju.py"}


@pytest.mark.parametrize("module", MODULES, ids=[p.name for p in MODULES])
def test_module_imports_only_standard_library(module: Path) -> None:
    assert foreign_imports(module.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import os, re\nfrom collections.abc import Iterable", []),
        ("from .board import Board\nfrom . import geometry", []),
        ("import numpy", ["numpy"]),
        ("import os.path, flask.json", ["flask.json"]),
        ("from gobang.rules import Board", ["gobang.rules"]),
        ("def f():\n    import requests", ["requests"]),
    ],
    ids=["stdlib", "relative", "third-party", "dotted", "absolute-self", "nested"],
)
def test_import_checker_flags_non_stdlib_imports(source: str, expected: list[str]) -> None:
    assert foreign_imports(source) == expected
