"""The pure packages stay pure: ``scoring/rules/``, ``tournaments/scheduling/`` and
``tournaments/standings/`` import nothing but the standard library and each other's own
modules, so they run (and are tested) without Django, the database or any installed package.

Imports are read with ``ast``, not by importing, so a forbidden import is named even when the
package would import fine in this environment. One row per module; the last tests check the
scan itself, so that a broken scan cannot pass silently.
"""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Dotted prefixes of the pure code: a relative import must land inside one of them.
PURE_PREFIXES = ("scoring.rules", "tournaments.scheduling", "tournaments.standings")

PURE_MODULES = sorted(
    [
        *(ROOT / "scoring" / "rules").glob("*.py"),
        *(ROOT / "tournaments" / "scheduling").glob("*.py"),
        *(ROOT / "tournaments" / "standings").glob("*.py"),
    ]
)


def dotted_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, module: str | None = None) -> list[tuple[int, str, bool]]:
    """``(line, dotted target, relative?)`` of every import of one module. Relative imports are
    resolved against ``module`` (the module's dotted name; a package's is its own name)."""
    module = module or dotted_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, False) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.append((node.lineno, node.module or "", False))
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            targets = [node.module] if node.module else [a.name for a in node.names]
            found += [(node.lineno, ".".join([*base, target]), True) for target in targets]
    return found


def foreign_imports(path: Path, module: str | None = None) -> list[str]:
    """What ``path`` imports from outside the standard library and the pure packages."""
    foreign = []
    for line, target, relative in imports_of(path, module):
        if relative:
            allowed = any(target == p or target.startswith(p + ".") for p in PURE_PREFIXES)
        else:
            allowed = target.split(".")[0] in sys.stdlib_module_names | {"__future__"}
        if not allowed:
            foreign.append(f"{path.name}:{line} imports {target}")
    return foreign


@pytest.mark.parametrize("path", PURE_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_pure_module_imports_only_the_standard_library_and_pure_modules(path):
    assert foreign_imports(path) == []


def test_every_pure_package_has_modules_to_scan():
    names = [str(p.relative_to(ROOT)) for p in PURE_MODULES]
    assert sum(n.startswith("scoring/rules/") for n in names) > 5
    assert sum(n.startswith("tournaments/standings/") for n in names) > 3
    assert "tournaments/standings/__init__.py" in names
    # The standings modules do import (from the standard library and from each other): a scan
    # finding nothing there would be broken, not reassuring.
    ranking = imports_of(ROOT / "tournaments" / "standings" / "ranking.py")
    assert any(not relative for _line, _target, relative in ranking)
    # Their relative imports are resolved inside the package, where they are allowed.
    relative = [target for _line, target, is_relative in ranking if is_relative]
    assert relative and all(target.startswith("tournaments.standings.") for target in relative)


def test_the_scan_catches_django_project_and_escaping_relative_imports(tmp_path):
    module = tmp_path / "bad.py"
    module.write_text(
        "import django.db\nfrom scoring.rules import base\nfrom tournaments import models\n"
        "from . import sizes\nimport itertools\nfrom __future__ import annotations\n"
        "from .. import models\nfrom ..rules.base import Problem\n"
    )
    inside_scheduling = foreign_imports(module, "tournaments.scheduling.bad")
    assert inside_scheduling == [
        "bad.py:1 imports django.db",
        "bad.py:2 imports scoring.rules",
        "bad.py:3 imports tournaments",
        "bad.py:7 imports tournaments.models",
        "bad.py:8 imports tournaments.rules.base",
    ]
    # At the top of the tournaments package (where labels.py sits) even ``from . import``
    # leaves the pure code; inside the standings package it stays there.
    assert "bad.py:4 imports tournaments.sizes" in foreign_imports(module, "tournaments.bad")
    inside_standings = foreign_imports(module, "tournaments.standings.bad")
    assert "bad.py:4 imports tournaments.standings.sizes" not in inside_standings
    assert "bad.py:7 imports tournaments.models" in inside_standings
