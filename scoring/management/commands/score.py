"""``manage.py score FILE``: score a whole game document and print the result.

The game document is ``{"ruleset", "options", "players", "hands"}`` (docs/rules/README.md
§11): the import/export format of a game. ``-`` reads standard input. ``--json`` prints the
scored game; an invalid document exits with status 2 and, with ``--json``, prints only
``{"errors": [...]}`` on standard output.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import CommandError

from scoring.management import base
from scoring.messages import as_errors
from scoring.rules import RULESETS, RuleViolation, engine


class Command(base.Command):
    help = (
        "Score a game document (JSON) and print each hand, the totals, the status and the ranking."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the game document, or - for standard input")
        parser.add_argument(
            "--json", dest="as_json", action="store_true", help="print the scored game as JSON"
        )

    def handle(self, *args, file: str, as_json: bool, **options):
        try:
            document = self.read(file)
            game, players = engine.score_document(document, RULESETS)
        except RuleViolation as violation:
            self.fail(as_errors(violation.problems), as_json)
        except ValueError as exc:  # not UTF-8, not JSON, or not a JSON object
            self.fail(
                [{"hand": None, "field": "document", "code": "type", "message": str(exc)}], as_json
            )
        data = game.as_dict(players)
        if as_json:
            self.stdout.write(_dumps(data))
        else:
            self.stdout.write(render_table(data))

    def read(self, file: str) -> dict[str, Any]:
        """The document of ``file``; ValueError when it is not UTF-8 text, not JSON, or not a
        JSON object."""
        try:
            if file == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(file, "rb") as handle:
                    data = handle.read()
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror}") from None
        name = "standard input" if file == "-" else file
        try:
            text = data.decode("utf-8-sig")  # a byte order mark is allowed
        except UnicodeDecodeError:
            raise ValueError(
                f"{name} is not UTF-8 text (a game document is JSON, in UTF-8)"
            ) from None
        try:
            document = _loads(text)
        except ValueError as exc:
            raise ValueError(f"{name} is not JSON: {exc}") from None
        if not isinstance(document, dict):
            raise ValueError(
                'A game document is a JSON object {"ruleset", "options", "players", "hands"}, '
                f"not {_kind(document)}"
            )
        return document

    def fail(self, errors: list[dict[str, Any]], as_json: bool) -> None:
        if as_json:
            self.stdout.write(_dumps({"errors": errors}))
        else:
            for error in errors:
                where = f"hand {error['hand']}: " if error["hand"] is not None else ""
                self.stderr.write(f"{where}{error['field']} ({error['code']}): {error['message']}")
        sys.stdout.flush()
        raise SystemExit(2)


def _loads(text: str) -> Any:
    return json.loads(text)


def _kind(value: Any) -> str:
    """What a JSON value is, in words."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int | float):
        return "a number"
    return "a string" if isinstance(value, str) else "a list"


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def render_table(data: dict[str, Any]) -> str:
    """A readable score sheet: per hand and player, the change and the running total."""
    players = [str(p) for p in data["players"]]
    width = max(12, *(len(p) + 2 for p in players))
    head = "Hand " + "".join(f"{p:>{width}}" for p in players)
    rule = "-" * len(head)
    lines = [f"{data['ruleset']}  options: {_dumps(data['options'])}", "", head, rule]
    for hand in data["hands"]:
        cells = (f"{d:+d} → {t}" for d, t in zip(hand["deltas"], hand["totals"], strict=True))
        lines.append(f"{hand['number']:>4} " + "".join(f"{c:>{width}}" for c in cells))
    lines.append(rule)
    lines.append("Tot  " + "".join(f"{t:>{width}}" for t in data["totals"]))
    if "card_points" in data:
        lines.append(f"card points per side: {data['card_points']}")
    lines.append(f"status: {data['status']}")
    if data["ranking"]:
        label = "ranking" if data["status"] == "finished" else "standings so far"
        places = ", ".join(f"{r['place']}. {players[r['seat']]}" for r in data["ranking"])
        lines.append(f"{label}: {places}")
    if data["next_dealer"] is not None:
        lines.append(f"next dealer: {players[data['next_dealer']]} (seat {data['next_dealer']})")
    return "\n".join(lines)
