"""The layering is checked, not hoped for: `lint-imports` with the contracts in pyproject.toml."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=tree, capture_output=True,
                          text=True, timeout=120)


def test_the_project_keeps_its_import_contracts() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(("module", "bad_import", "contract"), [
    ("gobang/rules/board.py", "import gobang.services.notices", "Layers"),
    ("gobang/services/play/finisher.py", "import gobang.services.hall.presence", "Play knows"),
    ("gobang/services/cluster/leases.py", "import gobang.services.play.table", "Cluster knows"),
    ("gobang/sockets/room.py", "import engineio", "Only gobang.transport"),
    ("gobang/services/hall/chat.py", "import flask_socketio", "Services never"),
    ("gobang/models.py", "import gobang.sockets.base", "Layers"),
])
def test_an_import_against_the_layers_is_caught(tmp_path: Path, module: str, bad_import: str,
                                                contract: str) -> None:
    shutil.copytree(ROOT / "gobang", tmp_path / "gobang",
                    ignore=shutil.ignore_patterns("__pycache__", "translations"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / module
    target.write_text(target.read_text() + f"\n{bad_import}  # noqa\n")
    result = lint_imports(tmp_path)
    assert result.returncode != 0
    broken = result.stdout.split("Broken contracts")[-1]
    assert contract in broken


def test_only_the_transport_names_the_private_parts_it_patches() -> None:
    from gobang.transport.patches import TOUCHES

    private = {touch.path.split(".")[-1] for touch in TOUCHES
               if touch.path.split(".")[-1].startswith("_")}
    outside = [f"{path.relative_to(ROOT)}: {name}"
               for path in sorted((ROOT / "gobang").rglob("*.py"))
               if "transport" not in path.relative_to(ROOT / "gobang").parts
               for name in sorted(private) if f".{name}" in path.read_text()]
    assert outside == []


def top_level_modules() -> set[str]:
    """Every package and module directly under gobang/, dotted."""
    found = set()
    for path in (ROOT / "gobang").iterdir():
        if path.suffix == ".py" and path.stem != "__init__":
            found.add(f"gobang.{path.stem}")
        elif (path / "__init__.py").is_file():
            found.add(f"gobang.{path.name}")
    return found


def test_every_package_but_the_transport_is_kept_from_eventlet_and_engineio() -> None:
    # A new package or module under gobang/ must be named in the contract, or it could import
    # eventlet unseen: add it to the contract's source_modules in pyproject.toml.
    with (ROOT / "pyproject.toml").open("rb") as file:
        contracts = tomllib.load(file)["tool"]["importlinter"]["contracts"]
    [only_transport] = [c for c in contracts if c["name"].startswith("Only gobang.transport")]
    missing = top_level_modules() - {"gobang.transport"} - set(only_transport["source_modules"])
    assert sorted(missing) == [], "not in the contract's source_modules (pyproject.toml)"
