"""Every file the documents name is where they say: a path in backquotes in README.md,
``docs/`` or ``deploy/`` (``teams/services/team_draw.py``, ``templates/circuits/circuit*.html``)
exists in the tree. Files move (the apps of ``docs/architecture.md`` moved out of
``tournaments``); the documents must move with them."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP = "scoring|tournaments|registration|teams|circuits|config|templates|static|tests|bench|deploy|docs|clients|locale"
#: A path of the tree in backquotes; ``<club>``-style placeholders are URLs, not paths.
PATH = re.compile(rf"`((?:{TOP})/[A-Za-z0-9_./*-]+)`")


def documents() -> list[Path]:
    return [
        ROOT / "README.md",
        *sorted((ROOT / "docs").rglob("*.md")),
        *(ROOT / "deploy").glob("*.md"),
    ]


def named_paths(text: str) -> list[str]:
    return [match.group(1).rstrip(".") for match in PATH.finditer(text)]


def missing_in(text: str) -> list[str]:
    return [p for p in named_paths(text) if not any(ROOT.glob(p)) and not (ROOT / p).exists()]


def test_every_path_the_documents_name_exists():
    missing = {
        str(doc.relative_to(ROOT)): gone
        for doc in documents()
        if (gone := missing_in(doc.read_text(encoding="utf-8")))
    }
    assert missing == {}


def test_a_moved_file_named_by_a_document_is_found():
    text = "The draw lives in `tournaments/services/team_draw.py`; the pages in `templates/teams/team*.html`."
    assert named_paths(text) == ["tournaments/services/team_draw.py", "templates/teams/team*.html"]
    assert missing_in(text) == ["tournaments/services/team_draw.py"]
