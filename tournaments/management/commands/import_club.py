"""``manage.py import_club FILE [--slug NEW]``: create a club from a document written by
``export_club`` (``-`` reads standard input). Members are matched to existing accounts by user
name, or get a new account without a usable password. Nothing is written if anything is wrong."""

from __future__ import annotations

import json
import sys

from django.core.management.base import CommandError

from scoring.management import base
from scoring.messages import message
from scoring.rules import RuleViolation
from tournaments.services.club_data import import_club


class Command(base.Command):
    help = "Import a club exported with export_club (into an empty or a running install)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the exported JSON document, or - for standard input")
        parser.add_argument("--slug", help="give the imported club another address")

    def handle(self, *args, file, slug=None, **options):
        try:
            source = sys.stdin if file == "-" else open(file, encoding="utf-8")  # noqa: SIM115
        except OSError as problem:
            raise CommandError(f"Cannot read {file}: {problem.strerror}.") from None
        with source:
            try:
                document = json.load(source)
            except UnicodeDecodeError:
                raise CommandError(f"{file} is not UTF-8 text: not a club export.") from None
            except json.JSONDecodeError as problem:
                raise CommandError(f"{file} is not JSON: {problem}.") from None
        try:
            club = import_club(document=document, slug=slug)
        except RuleViolation as refusal:
            raise CommandError(" ".join(message(p) for p in refusal.problems)) from None
        games = club.games.count()
        self.stdout.write(f"Imported club {club.name} ({club.slug}) with {games} game(s).")
