"""Nothing foreign is committed: no installed tree of someone else's code is tracked by git.

Third-party code comes from its lock file (``pyproject.toml`` for Python, ``clients/package-lock.json``
restored by ``npm ci`` in ``.ci/clients``), never from the repository. These tests read what git
tracks (``git ls-files``) and fail on any path inside an installed tree: ``node_modules/``, a Python
environment (a folder holding ``pyvenv.cfg``, or ``site-packages/`` / ``dist-packages/``), and check
that ``.gitignore`` keeps the usual ones out. The last test plants each kind in a list of paths so
that a broken scan cannot pass silently.
"""

from __future__ import annotations

import subprocess
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[1]

#: Folder names that only ever hold installed third-party code.
VENDORED_DIRS = {"node_modules", "bower_components", "site-packages", "dist-packages"}
#: A file that marks its folder as a Python environment (``python -m venv`` writes it).
VENV_MARKER = "pyvenv.cfg"


def vendored(paths: list[str]) -> list[str]:
    """The tracked paths that lie inside an installed tree, in the order given."""
    venvs = {str(PurePosixPath(p).parent) for p in paths if PurePosixPath(p).name == VENV_MARKER}
    found = []
    for path in paths:
        pure = PurePosixPath(path)
        parents = {str(parent) for parent in pure.parents}
        if VENDORED_DIRS & set(pure.parts[:-1]) or pure.name == VENV_MARKER or parents & venvs:
            found.append(path)
    return found


def git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_no_vendored_tree_is_tracked():
    listing = git("ls-files", "-z")
    assert listing.returncode == 0, listing.stderr
    tracked = [path for path in listing.stdout.split("\0") if path]
    assert len(tracked) > 100, "git ls-files listed almost nothing: is this a checkout?"
    offenders = vendored(tracked)
    assert offenders == [], (
        f"{len(offenders)} tracked files belong to an installed tree, first {offenders[:5]}: "
        "remove them with `git rm -r --cached` (the lock file restores them)"
    )


def test_gitignore_keeps_the_installed_trees_out():
    candidates = [
        "clients/node_modules/openapi-fetch/package.json",
        "node_modules/anything/index.js",
        ".venv/pyvenv.cfg",
        ".venv/lib/python3.12/site-packages/django/__init__.py",
    ]
    answer = git("check-ignore", "--no-index", *candidates)
    ignored = set(answer.stdout.split())
    assert ignored == set(candidates), f"not ignored: {sorted(set(candidates) - ignored)}"


def test_the_scan_names_each_kind_of_planted_tree():
    planted = [
        "README.md",
        "clients/package-lock.json",
        "clients/node_modules/openapi-fetch/dist/index.js",
        "static/vendor/bower_components/htmx/htmx.js",
        "env/pyvenv.cfg",
        "env/bin/activate",
        "build/lib/python3.12/site-packages/six.py",
        "usr/lib/python3/dist-packages/apt/__init__.py",
        "docs/node_modules.md",
        "scoring/rules/site.py",
    ]
    assert vendored(planted) == [
        "clients/node_modules/openapi-fetch/dist/index.js",
        "static/vendor/bower_components/htmx/htmx.js",
        "env/pyvenv.cfg",
        "env/bin/activate",
        "build/lib/python3.12/site-packages/six.py",
        "usr/lib/python3/dist-packages/apt/__init__.py",
    ]
