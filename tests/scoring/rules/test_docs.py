"""The rules pages (docs/rules/) and the test suite name the same examples.

Every worked example, invalid example and correction of a game page (``T4``, ``X1``, ``XO2``,
``G1``, ``R3``...) must be a named row of that game's tests: a ``pytest.param(..., id=...)``
whose id is the example id or starts with ``<id>-``, or, for corrections, a test function
named ``test_<id>_<game>_...``. Every validation rule (``V7`` of §5) must be a row of
the test_validation*.py files (one per family of games) named ``<letter>-V7-...``, the letter
being the one of the page's examples (``T`` for Terziglio). The rows are read from the test files' source with ``ast``, without
running them.

The pages restate the workspace's reference specification (``../shared/rules/`` beside the
checkout, as CI lays it out) in the project's own words, but the examples are data and must
stay identical. When the reference is present, its examples' data (every table row but its
"Why" column, the game headings, the code in the prose and the code blocks) is compared with
the pages'. When it is absent (a clone on its own) that comparison cannot be made; it is not
skipped, because the part that needs only the repository (the pages parse into examples and
each one is a test row) still runs and still guards the pages.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs" / "rules"
REFERENCE = ROOT.parent / "shared" / "rules"
TESTS = Path(__file__).resolve().parent
GAMES = ["terziglio", "calabrasella", "turkish", "briscola", "briscola_chiamata"]

EXAMPLE_ID = re.compile(r"^[A-Z]+\d+$")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
BOLD_GAME = re.compile(r"^\*\*([A-Z]+\d+)\*\*")


def sections(text: str) -> dict[str, str]:
    """The page cut at its ``## N.`` headings, keyed by number (``"8"``); ``""`` is the top."""
    parts = re.split(r"^## (\d+)\. .*$", text, flags=re.MULTILINE)
    return {"": parts[0], **dict(zip(parts[1::2], parts[2::2], strict=True))}


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def example_records(text: str) -> list[tuple]:
    """The data of a page's examples, in order: one record per table row of the worked
    examples (cells by column, the prose "Why" column left out, under the game heading it
    belongs to), per game heading, per line of prose with code in it, per code block."""
    records: list[tuple] = []
    examples = text[text.index("## 8. Worked examples") :]
    heading, header = "", None
    for line in examples.splitlines():
        if line.startswith("|"):
            row = cells(line)
            if header is None:
                header = row
            elif not set("".join(row)) <= set("-: "):
                kept = tuple((c, v) for c, v in zip(header, row, strict=True) if c != "Why")
                records.append(("row", heading, kept))
            continue
        header = None
        if match := BOLD_GAME.match(line):
            heading = match.group(1)
            records.append(("game", " ".join(line.split())))
        elif line.startswith("#"):
            heading = line
        elif spans := CODE_SPAN.findall(line):
            records.append(("code", heading, tuple(spans)))
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    return records + [("block", block) for block in blocks]


def example_ids(text: str) -> list[str]:
    """Ids of the worked, invalid and correction examples (section 8), in order."""
    ids = []
    for line in sections(text)["8"].splitlines():
        first = cells(line)[0] if line.startswith("|") else ""
        if EXAMPLE_ID.match(first):
            ids.append(first)
        elif match := BOLD_GAME.match(line):
            ids.append(match.group(1))
    return ids


def validation_rules(text: str) -> list[str]:
    """``V1``, ``V2``... of the page's validation table."""
    (validation,) = [body for body in sections(text).values() if "| V1 |" in body]
    return re.findall(r"^\| (V\d+) \|", validation, flags=re.MULTILINE)


def named_rows(path: Path) -> tuple[set[str], set[str]]:
    """Ids of the ``pytest.param`` rows and names of the test functions of one module."""
    ids, functions = set(), set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "param":
            ids |= {
                k.value.value
                for k in node.keywords
                if k.arg == "id" and isinstance(k.value, ast.Constant)
            }
        elif isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            functions.add(node.name)
    return ids, functions


def is_row(example: str, ids: set[str]) -> bool:
    return example in ids or any(row.startswith(f"{example}-") for row in ids)


def missing_rows(game: str) -> list[str]:
    text = (DOCS / f"{game}.md").read_text(encoding="utf-8")
    ids: set[str] = set()
    for path in (TESTS / f"test_{game}.py", TESTS / "games" / f"{game}.py"):
        ids |= named_rows(path)[0]
    _, corrections = named_rows(TESTS / "test_corrections.py")
    longer_keys = [key for key in GAMES if key != game and key.startswith(game)]
    missing = []
    for example in example_ids(text):
        by_function = any(
            name.startswith(f"test_{example}_{game}_")
            and not any(name.startswith(f"test_{example}_{key}_") for key in longer_keys)
            for name in corrections
        )
        if not (is_row(example, ids) or by_function):
            missing.append(example)
    letter = re.match(r"[A-Z]+", example_ids(text)[0]).group(0)
    validation_ids: set[str] = set()
    for path in sorted(TESTS.glob("test_validation*.py")):
        validation_ids |= named_rows(path)[0]
    missing += [
        f"{letter}-{rule}"
        for rule in validation_rules(text)
        if not is_row(f"{letter}-{rule}", validation_ids)
    ]
    return missing


@pytest.mark.parametrize("game", GAMES)
def test_every_example_and_validation_rule_of_the_page_is_a_named_test_row(game):
    assert missing_rows(game) == [], f"docs/rules/{game}.md examples with no test row"


@pytest.mark.parametrize("page", ["README", *GAMES])
def test_the_page_keeps_the_reference_examples_exactly(page):
    """Always: the page parses into examples (a game page into ids and validation rules).
    With ``../shared/rules`` beside the checkout: the same examples, data for data."""
    text = (DOCS / f"{page}.md").read_text(encoding="utf-8")
    if page == "README":
        ours = re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    else:
        ours = example_records(text)
        assert len(example_ids(text)) >= 10 and validation_rules(text)[0] == "V1"
    assert ours
    reference = REFERENCE / f"{page}.md"
    if reference.is_file():
        theirs_text = reference.read_text(encoding="utf-8")
        if page == "README":
            theirs = re.findall(
                r"^```[a-z]*\n(.*?)^```", theirs_text, flags=re.MULTILINE | re.DOTALL
            )
        else:
            theirs = example_records(theirs_text)
            assert validation_rules(text) == validation_rules(theirs_text)
            assert sorted(sections(text)) == sorted(sections(theirs_text))
        assert ours == theirs


def test_the_parsers_find_what_they_look_for():
    """The scan is checked on a small page, so that a parser finding nothing cannot pass."""
    page = (
        "# Game\n\n## 5. Validation\n\n| # | Rule |\n|---|---|\n| V1 | keys |\n| V2 | dealer |\n\n"
        "## 8. Worked examples\n\n| # | Hand document | Why | Deltas |\n|---|---|---|---|\n"
        '| Z1 | `{"dealer": 0}` | because | `[1, -1]` |\n\n**G1** — 2 players\n\n'
        "Ranking: `[0, 1]`\n\n| # | Correction |\n|---|---|\n| R1 | `{}` |\n"
    )
    assert example_ids(page) == ["Z1", "G1", "R1"]
    assert validation_rules(page) == ["V1", "V2"]
    records = example_records(page)
    assert ("row", "## 8. Worked examples", (("#", "Z1"), ("Hand document", '`{"dealer": 0}`'),
            ("Deltas", "`[1, -1]`"))) in records  # fmt: skip
    assert ("code", "G1", ("[0, 1]",)) in records
    assert is_row("T4", {"T4-every-trick"}) and is_row("G1", {"G1"})
    assert not is_row("T1", {"T10-passed-out", "T1x"})
