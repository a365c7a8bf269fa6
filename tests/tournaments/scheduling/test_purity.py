"""The scheduling package is pure Python: every import is from the standard library or from the
package itself, so it runs (and is tested) without Django or the rest of the project."""

import ast
import sys
from pathlib import Path

import tournaments.scheduling

PACKAGE = Path(tournaments.scheduling.__file__).parent


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Top-level names of the absolute imports of one module, with their line numbers."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.append((node.lineno, (node.module or "").split(".")[0]))
    return found


def test_package_has_modules_to_scan():
    assert len(list(PACKAGE.glob("*.py"))) > 5


def test_every_import_is_from_the_standard_library_or_relative():
    foreign = [
        f"{path.name}:{line} imports {name}"
        for path in sorted(PACKAGE.glob("*.py"))
        for line, name in imported_modules(path)
        if name not in sys.stdlib_module_names
    ]
    assert foreign == []


def test_the_scan_catches_django_and_project_imports(tmp_path):
    module = tmp_path / "bad.py"
    module.write_text(
        "import django.db\nfrom scoring.rules import base\nfrom tournaments import models\n"
        "from . import sizes\nimport itertools\n"
    )
    names = [name for _, name in imported_modules(module)]
    assert names == ["django", "scoring", "tournaments", "itertools"]
    assert [n for n in names if n not in sys.stdlib_module_names] == [
        "django",
        "scoring",
        "tournaments",
    ]
