"""The shape of the house, read from the code (``docs/architecture.md`` says it in words).

Every import of ``scoring/``, ``tournaments/``, ``registration/``, ``teams/``, ``circuits/``
and ``config/`` is read with ``ast``, not by importing, so a forbidden import is named even when
the package would import fine here:

- **pure code stays pure**: ``scoring.rules``, ``scoring.stats``, ``tournaments.scheduling``,
  ``tournaments.standings``, ``teams.standings`` and ``circuits.standings`` import the standard
  library, each other, and the one package each is allowed (the rating library; the SAT solver
  is loaded lazily by name);
- **one way between the apps**: ``tournaments`` imports ``scoring``, never the reverse;
  ``registration``, ``teams`` and ``circuits`` import ``tournaments`` and ``scoring``, which never
  import them (they plug in through ``scoring.extensions`` and ``tournaments.extensions``), and
  none of the three imports another;
- **layers**: models, selectors and services import no view, form, page presenter or API
  module; selectors write nothing and call no service;
- **no cycles** between modules, imports inside functions included (a task enqueued by its name
  breaks what would be one); a package's ``__init__`` counts as its own module;
- **no project import inside a function** unless a comment on that line, or just above the
  block of imports it belongs to, says why (a Celery task body, ``AppConfig.ready``, a heavy import done lazily);
- **sizes**: no module over ``MODULE_MAX`` lines (migrations and listed data aside), no function
  over ``FUNCTION_MAX`` lines outside the pure algorithms.

The last tests plant each kind of mistake in a scratch tree and check that the scan names it,
so that a broken scan cannot pass silently.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Each app above the ones it may import.
PLUGINS = ("registration", "teams", "circuits")
APPS = ("scoring", "tournaments", *PLUGINS, "config")
LAYERED = ("scoring", "tournaments", *PLUGINS)

#: Pure packages and modules, and the one third-party package each may import.
PURE = {
    "scoring.rules": set(),
    "scoring.stats": {"openskill"},
    "tournaments.scheduling": set(),
    "tournaments.standings": set(),
    "teams.standings": set(),
    "circuits.standings": set(),
}

#: ``(importer, imported)`` prefixes that must never meet.
FORBIDDEN = [
    ("scoring", "tournaments"),
    *[(low, plugin) for low in ("scoring", "tournaments", "config.settings") for plugin in PLUGINS],
    *[(a, b) for a in PLUGINS for b in PLUGINS if a != b],
    *[
        (f"{app}.{low}", f"{app2}.{high}")
        for app in LAYERED
        for app2 in LAYERED
        for low in ("models", "selectors", "services", "signals", "tasks", "live")
        for high in ("views", "forms", "api", "presenters", "urls", "sections", "streams")
    ],
    *[(f"{app}.selectors", f"{app2}.services") for app in LAYERED for app2 in LAYERED],
]

MODULE_MAX = 500
FUNCTION_MAX = 80
#: Modules that are data more than code (kept whole on purpose).
DATA_MODULES: set[str] = set()


@dataclass
class Module:
    name: str
    path: Path
    package: bool
    #: ``(line, target, at module level, commented)`` of every import of a project module.
    imports: list[tuple[int, str, bool, bool]] = field(default_factory=list)
    #: ``(line, top-level package)`` of every import outside the project.
    foreign: list[tuple[int, str]] = field(default_factory=list)


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def source_files(root: Path, apps=APPS) -> list[Path]:
    return sorted(
        p
        for app in apps
        for p in (root / app).rglob("*.py")
        if "migrations" not in p.parts and "__pycache__" not in p.parts
    )


def _type_checking_lines(tree: ast.AST) -> set[int]:
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in ast.walk(node):
                if hasattr(inner, "lineno"):
                    lines.add(inner.lineno)
    return lines


def _function_lines(tree: ast.AST) -> set[int]:
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines.update(range(node.lineno, node.end_lineno + 1))
    return lines


def scan(root: Path, apps=APPS) -> dict[str, Module]:
    """Every module of ``apps`` under ``root`` with its imports resolved to module names."""
    files = source_files(root, apps)
    modules = {
        module_name(p, root): Module(module_name(p, root), p, p.name == "__init__.py")
        for p in files
    }
    for module in modules.values():
        text = module.path.read_text(encoding="utf-8")
        lines = text.splitlines()
        tree = ast.parse(text)
        hidden, inside = _type_checking_lines(tree), _function_lines(tree)
        import_lines = {
            line
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for line in range(node.lineno, node.end_lineno + 1)
        }
        package = module.name if module.package else module.name.rpartition(".")[0]
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom) or node.lineno in hidden:
                continue
            commented = _commented(node, lines, import_lines)
            for target in _targets(node, package, modules):
                if target.split(".")[0] in apps:
                    module.imports.append(
                        (node.lineno, target, node.lineno not in inside, commented)
                    )
                else:
                    module.foreign.append((node.lineno, target.split(".")[0]))
    return modules


def _commented(node, lines: list[str], import_lines: set[int]) -> bool:
    """A comment on the import's own line, or just above the block of imports it is part of."""
    if "#" in lines[node.lineno - 1]:
        return True
    above = node.lineno - 1
    while above in import_lines:
        above -= 1
    return above >= 1 and lines[above - 1].strip().startswith("#")


def _targets(node, package: str, modules) -> list[str]:
    """The modules an import statement loads: ``from a import b`` is ``a.b`` when ``a/b.py``
    exists (a submodule), else ``a`` (a name defined there)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
        prefix = ".".join([*base, node.module] if node.module else base)
    else:
        prefix = node.module or ""
    targets = []
    for alias in node.names:
        candidate = f"{prefix}.{alias.name}"
        targets.append(candidate if candidate in modules else prefix)
    return sorted(set(targets))


def cycles(modules: dict[str, Module]) -> list[list[str]]:
    """The import cycles (strongly connected components of more than one module), over every
    import, those made inside a function included: a module that imports another inside a
    function still depends on it, and that one on it."""
    graph = {
        name: sorted({t for _l, t, _top, _c in m.imports if t in modules and t != name})
        for name, m in modules.items()
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for successor in graph[node]:
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for name in graph:
        if name not in index:
            visit(name)
    return found


def _pure_prefix(name: str) -> str | None:
    return next((p for p in PURE if name == p or name.startswith(p + ".")), None)


def impurities(modules: dict[str, Module]) -> list[str]:
    found = []
    for name, module in modules.items():
        prefix = _pure_prefix(name)
        if prefix is None:
            continue
        allowed = sys.stdlib_module_names | {"__future__"} | PURE[prefix]
        found += [
            f"{name}:{line} imports {top}" for line, top in module.foreign if top not in allowed
        ]
        found += [
            f"{name}:{line} imports {target}"
            for line, target, _t, _c in module.imports
            if _pure_prefix(target) is None
        ]
    return found


def forbidden_imports(modules: dict[str, Module]) -> list[str]:
    def under(name: str, prefix: str) -> bool:
        return name == prefix or name.startswith(prefix + ".")

    return [
        f"{name}:{line} imports {target}"
        for name, module in modules.items()
        for line, target, _top, _commented in module.imports
        for low, high in FORBIDDEN
        if under(name, low) and under(target, high)
    ]


def hidden_inner_imports(modules: dict[str, Module]) -> list[str]:
    return [
        f"{name}:{line} imports {target} inside a function without saying why"
        for name, module in modules.items()
        for line, target, top, commented in module.imports
        if not top and not commented
    ]


def oversized(modules: dict[str, Module]) -> list[str]:
    found = []
    for name, module in modules.items():
        text = module.path.read_text(encoding="utf-8")
        count = len(text.splitlines())
        if count > MODULE_MAX and name not in DATA_MODULES:
            found.append(f"{name} has {count} lines")
        if _pure_prefix(name) is not None:
            continue  # the pure algorithms may take the room they need
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = node.end_lineno - node.lineno + 1
                if length > FUNCTION_MAX:
                    found.append(f"{name}.{node.name} has {length} lines")
    return found


@pytest.fixture(scope="module")
def house() -> dict[str, Module]:
    return scan(ROOT)


def test_the_pure_code_imports_only_the_standard_library_and_pure_code(house):
    assert impurities(house) == []


def test_scoring_never_imports_tournaments_and_no_layer_imports_a_higher_one(house):
    assert forbidden_imports(house) == []


def test_no_module_imports_itself_back_through_another(house):
    assert cycles(house) == []


def test_an_import_inside_a_function_says_why(house):
    assert hidden_inner_imports(house) == []


def test_no_module_or_function_outgrows_its_limit(house):
    assert oversized(house) == []


def test_the_scan_reads_every_package(house):
    names = set(house)
    for prefix in (*PURE, "scoring.views", "scoring.services", "tournaments.views"):
        assert sum(n == prefix or n.startswith(prefix + ".") for n in names) >= 1, prefix
    assert sum(n.startswith("scoring.rules.") for n in names) > 5
    assert sum(n.startswith("tournaments.scheduling.") for n in names) > 5
    # The scan resolves submodules: the services package's init re-exports its modules.
    services = {t for _l, t, _top, _c in house["scoring.services"].imports}
    assert "scoring.services.hands" in services
    # ...and reads imports inside functions too (AppConfig.ready has some, commented).
    assert any(not top and commented for _l, _t, top, commented in house["scoring.apps"].imports)


# -- the scan catches what it is meant to catch -----------------------------------------------


def plant(tmp_path: Path, files: dict[str, str]) -> dict[str, Module]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for package in {p.parent for p in tmp_path.rglob("*.py")}:
        (package / "__init__.py").touch()
    return scan(tmp_path, apps=("scoring", "tournaments", *PLUGINS))


def test_a_planted_cycle_is_found(tmp_path):
    house = plant(
        tmp_path,
        {
            "scoring/views/games.py": "from scoring.views import hands\n",
            "scoring/views/hands.py": "from scoring.views.games import game_page\n",
            "scoring/models.py": "import itertools\n",
        },
    )
    assert cycles(house) == [["scoring.views.games", "scoring.views.hands"]]


def test_an_import_inside_a_function_still_makes_a_cycle_and_must_say_why(tmp_path):
    house = plant(
        tmp_path,
        {
            "scoring/a.py": "from scoring import b\n",
            "scoring/b.py": "def f():\n    from scoring import a\n",
            "scoring/c.py": "def g():\n    # a task body: loaded when it runs\n    import scoring.a\n",
        },
    )
    assert cycles(house) == [["scoring.a", "scoring.b"]]
    assert hidden_inner_imports(house) == [
        "scoring.b:2 imports scoring.a inside a function without saying why"
    ]


def test_planted_impure_and_upward_imports_are_named(tmp_path):
    house = plant(
        tmp_path,
        {
            "scoring/rules/bad.py": "import django.db\nfrom scoring import models\n"
            "from . import base\nimport itertools\n",
            "scoring/rules/base.py": "",
            "scoring/stats/ratings.py": "import openskill\nimport numpy\n",
            "scoring/models.py": "from tournaments.models import Round\n",
            "scoring/services/x.py": "from scoring.views import y\n",
            "scoring/views/y.py": "",
            "tournaments/models.py": "",
        },
    )
    assert sorted(impurities(house)) == [
        "scoring.rules.bad:1 imports django",
        "scoring.rules.bad:2 imports scoring.models",
        "scoring.stats.ratings:2 imports numpy",
    ]
    assert sorted(forbidden_imports(house)) == [
        "scoring.models:1 imports tournaments.models",
        "scoring.services.x:1 imports scoring.views.y",
    ]


def test_planted_imports_between_the_apps_built_on_competitions_are_named(tmp_path):
    """``registration``, ``teams`` and ``circuits`` import ``tournaments`` and ``scoring`` (allowed),
    never each other; ``tournaments`` and ``scoring`` never import them."""
    house = plant(
        tmp_path,
        {
            "tournaments/models.py": "",
            "tournaments/views.py": "from teams import models\n",
            "scoring/services/x.py": "def f():\n    # a hook, loaded late\n    import circuits.models\n",
            "teams/models.py": "from tournaments.models import Competition\nimport scoring\n",
            "teams/views.py": "from circuits.models import Circuit\n",
            "circuits/models.py": "from tournaments import models\n",
            "registration/services.py": "from teams.models import Team\n",
        },
    )
    assert sorted(forbidden_imports(house)) == [
        "registration.services:1 imports teams.models",
        "scoring.services.x:3 imports circuits.models",
        "teams.views:1 imports circuits.models",
        "tournaments.views:1 imports teams.models",
    ]


def test_planted_oversized_code_is_named(tmp_path):
    long_function = "def f():\n" + "    x = 1\n" * (FUNCTION_MAX + 1)
    house = plant(
        tmp_path,
        {
            "scoring/big.py": "x = 1\n" * (MODULE_MAX + 1),
            "scoring/views/long.py": long_function,
            "scoring/rules/algorithm.py": long_function,
        },
    )
    assert sorted(oversized(house)) == [
        f"scoring.big has {MODULE_MAX + 1} lines",
        f"scoring.views.long.f has {FUNCTION_MAX + 2} lines",
    ]
