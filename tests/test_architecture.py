"""The layering is checked, not hoped for: `lint-imports` with the contracts in pyproject.toml."""

from __future__ import annotations

import re
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
    ("gobang/services/tournaments/swiss.py", "import gobang.models", "Tournaments' rules"),
    ("gobang/services/arenas/view.py", "import gobang.services.player_events.chat",
     "Players' events (creating"),
    ("gobang/services/player_events/chat.py", "import gobang.services.registry",
     "Players' events ask"),
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


def layout_entries(text: str) -> list[str]:
    """The entries of a layout drawn in code blocks: an entry starts on a line that starts
    with a name, or on a branch of a tree (├─, └─), and goes on over the lines below it."""
    blocks = re.findall(r"^```\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE)
    entries: list[str] = []
    for line in "".join(blocks).splitlines():
        if not line.strip():
            continue
        if not entries or not line[:1].isspace() or "├─" in line or "└─" in line:
            entries.append(line)
        else:
            entries[-1] += "\n" + line
    return entries


# A path (`queue.py`, `play/`, `auth/forms.py`), or a word as an item of a list: followed by
# a comma, a colon, a bracket or the end of its line (`draws,`, `hall (...)`), not in a sentence.
PATH_OR_ITEM = r"[\w/]+\.py|[\w/]+/|(?<![\w'-])\w+(?=[ ]*(?:[,;:()]|$))"


def named_in_layout(text: str) -> set[str]:
    """The paths a layout names. Each entry stands for a folder: the one its first word names
    (`gobang/services/`; `play/` below the `gobang/services/` branch of a tree), or the folder
    of the module it names (`gobang/factory.py`), or else its parent's. A path or a listed
    word in the entry names that folder's module or package (`draws.py`, `draws,`,
    `openings/`, `auth/forms.py`); a path from `gobang/` names itself."""
    named: set[str] = set()
    parents: list[tuple[int, str]] = []  # (indent, folder) of the branches above this entry
    for entry in layout_entries(text):
        head_line = entry.splitlines()[0]
        body = head_line.lstrip(" │├└─")
        indent = len(head_line) - len(body)
        while parents and parents[-1][0] >= indent:
            parents.pop()
        parent = parents[-1][1] if parents else ""
        head = (body.split() or [""])[0].rstrip(",:")
        path = head if head.startswith("gobang/") else (
            parent + head if parent and head.endswith(("/", ".py")) else "")
        folder = path.rsplit("/", 1)[0] + "/" if "/" in path else parent
        parents.append((indent, folder))
        named.add(path)
        for token in re.findall(PATH_OR_ITEM, entry, flags=re.MULTILINE):
            if token.startswith("gobang/"):
                named.add(token)
            elif folder and not token.startswith("/"):
                named.update({folder + token, f"{folder}{token}.py"})
    return named


def gobang_modules() -> list[str]:
    """Every package (as "a/b/") and module below gobang/, but __init__ files and the
    translations' data."""
    found = []
    for path in sorted((ROOT / "gobang").rglob("*")):
        relative = path.relative_to(ROOT / "gobang").as_posix()
        if "__pycache__" in relative or relative.startswith("translations"):
            continue
        if path.is_dir() and (path / "__init__.py").is_file():
            found.append(relative + "/")
        elif path.suffix == ".py" and path.name != "__init__.py":
            found.append(relative)
    return found


@pytest.mark.parametrize(("page", "section"), [
    ("README.md", "## Layout"), ("docs/architecture.md", "## Layers")])
def test_every_package_and_module_is_named_in_the_layouts(page: str, section: str) -> None:
    text = (ROOT / page).read_text().split(section, 1)[1].split("\n## ", 1)[0]
    named = named_in_layout(text)
    missing = [relative for relative in gobang_modules() if f"gobang/{relative}" not in named]
    assert missing == [], f"{page}, {section}: name each (its path, or on its folder's line)"
