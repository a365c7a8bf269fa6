"""A list of players as an organizer pastes or uploads it, read into rows: the one parser of the
club's Players page (a paste box or a CSV file), its API and a competition's Entries page (new
names, one per line).

- **Pasted lines**: one player per line, ``name`` or ``name, e-mail`` (a comma or a semicolon
  before the address; a tail without ``@`` is part of the name: "Rossi, Mario"). Blank lines
  are skipped; spaces inside a name are folded.
- **A CSV file**: UTF-8 with or without a byte-order mark, cells separated by ``,`` or ``;``
  (whichever the first line holds more of). A first row naming its columns (``name``,
  ``email``, ``language``, or the same words in Italian and French) is a header, and then a name
  column is required; without one the columns are name, e-mail, language in that order.

Each row keeps the number of the line it came from, so that a refusal says "line 4: …". What
is read is checked here only for its shape (sizes, a name column); whether an address is an
address, a language known or a name free is the service's to say
(``scoring.services.players.add_players``). Refusals are ``RuleViolation`` problems on the
field the list came in (``lines``, ``file``), their sentences in ``scoring.messages``.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from scoring.rules import Problem, RuleViolation

#: At most this many players at once, each line at most ``LINE_MAX`` characters, a file at most
#: ``FILE_MAX`` bytes: a club's register, not a city's.
LINES_MAX = 500
LINE_MAX = 200
FILE_MAX = 100_000

#: Header cells, lower-cased, and the column each names.
HEADERS = {
    "name": "name",
    "nome": "name",
    "nom": "name",
    "email": "email",
    "e-mail": "email",
    "mail": "email",
    "language": "language",
    "lingua": "language",
    "langue": "language",
}


@dataclass(frozen=True)
class Listed:
    """One player of a list: the line it was on, a name, and an address and a language if given."""

    line: int
    name: str
    email: str = ""
    language: str = ""


def _refuse(field: str, code: str, **params) -> RuleViolation:
    return RuleViolation([Problem(field, code, params)])


def _fold(text: str) -> str:
    return " ".join(text.split())


def _check_size(field: str, lines: list[str]) -> None:
    for number, line in enumerate(lines, start=1):
        if len(line) > LINE_MAX:
            raise _refuse(field, "too_long", reason="list_line", line=number, max=LINE_MAX)
    filled = sum(1 for line in lines if line.strip())
    if filled > LINES_MAX:
        raise _refuse(field, "range", reason="list_lines", max=LINES_MAX, value=filled)


def from_lines(text: str, field: str = "lines", *, limits: bool = True) -> list[Listed]:
    """Pasted lines, ``name`` or ``name, e-mail`` each (see the module docstring); ``limits``:
    refuse a list over ``LINES_MAX`` players or a line over ``LINE_MAX`` characters."""
    lines = (text or "").splitlines()
    if limits:
        _check_size(field, lines)
    rows = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        name, email = line, ""
        cut = max(line.rfind(","), line.rfind(";"))
        if cut >= 0 and "@" in line[cut + 1 :]:
            name, email = line[:cut], line[cut + 1 :].strip()
        rows.append(Listed(number, _fold(name), email))
    return rows


def names(text: str) -> list[str]:
    """Only the names of pasted lines (a competition's new entrants, whose service refuses a
    name too long by its own rules)."""
    return [row.name for row in from_lines(text, limits=False) if row.name]


def from_csv(data: bytes, field: str = "file") -> list[Listed]:
    """A CSV file's players (see the module docstring)."""
    if len(data) > FILE_MAX:
        raise _refuse(field, "range", reason="list_file", max=FILE_MAX // 1000, value=len(data))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _refuse(field, "invalid", reason="list_encoding") from None
    lines = text.splitlines()
    _check_size(field, lines)
    first = next((line for line in lines if line.strip()), "")
    delimiter = ";" if first.count(";") > first.count(",") else ","
    table = list(enumerate(csv.reader(io.StringIO(text), delimiter=delimiter), start=1))
    table = [(number, cells) for number, cells in table if any(c.strip() for c in cells)]
    columns = {"name": 0, "email": 1, "language": 2}
    if table:
        header = [HEADERS.get(cell.strip().lower()) for cell in table[0][1]]
        if any(header):
            if "name" not in header:
                raise _refuse(field, "required", reason="list_name_column")
            columns = {key: header.index(key) for key in set(header) - {None}}
            table = table[1:]
    rows = []
    for number, cells in table:
        value = {key: cells[i].strip() if i < len(cells) else "" for key, i in columns.items()}
        rows.append(
            Listed(number, _fold(value["name"]), value.get("email", ""), value.get("language", ""))
        )
    return rows
