"""The tournaments' rules need the standard library only (and the pure rules' colours)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import gobang.services.tournaments

MODULES = sorted(Path(gobang.services.tournaments.__file__).parent.glob("*.py"))


def imported(source: str) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.append(node.module or "")
    return names


@pytest.mark.parametrize("module", MODULES, ids=[path.name for path in MODULES])
def test_a_tournament_module_imports_the_standard_library_and_the_rules_only(module):
    outside = [name for name in imported(module.read_text(encoding="utf-8"))
               if name.split(".")[0] not in sys.stdlib_module_names and name != "gobang.rules"]
    assert outside == []
