"""The app's version, as pyproject.toml states it: the API schema's ``info.version`` and the
changelog of docs/api.md follow it."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def app_version() -> str:
    """pyproject.toml's ``version`` (the checkout's own, even where the installed metadata is
    older), or the installed package's when the file is not there."""
    try:
        return tomllib.loads(PYPROJECT.read_text())["project"]["version"]
    except FileNotFoundError:
        return metadata.version("segnapunti")
