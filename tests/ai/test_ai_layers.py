"""gobang.ai uses the standard library and the rules' public names (those of gobang.rules, and
the opening rules' own module), nothing of the web."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import gobang.ai
import gobang.rules
import gobang.rules.openings

MODULES = sorted(Path(gobang.ai.__file__).parent.rglob("*.py"))


def imports(source: str) -> list[tuple[str, list[str]]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.append((node.module or "", [alias.name for alias in node.names]))
    return found


@pytest.mark.parametrize("module", MODULES, ids=[p.name for p in MODULES])
def test_engine_imports_only_stdlib_and_public_rules(module):
    for name, names in imports(module.read_text(encoding="utf-8")):
        top = name.split(".")[0]
        if name == "gobang.rules":
            assert set(names) <= set(gobang.rules.__all__), names
        elif name == "gobang.rules.openings":
            assert all(hasattr(gobang.rules.openings, n) and not n.startswith("_")
                       for n in names), names
        else:
            assert top in sys.stdlib_module_names, name
