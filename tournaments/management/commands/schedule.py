"""``manage.py schedule --players N --table-size K --rounds R``: print a seating schedule.

Players are numbered 0 … N-1. ``--format`` is ``rotation`` (the default: all rounds up front,
avoiding repeated meetings), ``swiss`` (successive Swiss rounds, everyone on equal points) or
``round_robin`` (tables of 2). The text output has a line per round, then the number of repeated
pairs and how many rounds could be repeat-free; ``--json`` prints
``{"rounds": …, "byes": …, "metrics": …}``. The work is done by
:mod:`tournaments.scheduling.cli`.
"""

from __future__ import annotations

import json

from django.core.management.base import CommandError

from scoring.management import base
from tournaments.scheduling.cli import FORMATS, build, render


class Command(base.Command):
    help = "Print a seating schedule for players 0 … N-1 and its quality figures."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True, help="number of players N")
        parser.add_argument("--table-size", type=int, required=True, help="seats per table K")
        parser.add_argument("--rounds", type=int, required=True, help="number of rounds R")
        parser.add_argument(
            "--format", dest="fmt", default="rotation", help=f"one of {', '.join(FORMATS)}"
        )
        parser.add_argument("--seed", type=int, default=0, help="another seed, another schedule")
        parser.add_argument("--json", dest="as_json", action="store_true", help="print JSON")

    def handle(self, *args, players, table_size, rounds, fmt, seed, as_json, **options):
        try:
            data = build(players, table_size, rounds, fmt, seed)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(json.dumps(data) if as_json else render(data))
