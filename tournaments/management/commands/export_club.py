"""``manage.py export_club SLUG [-o FILE]``: the club's whole data as one versioned JSON document
(tournaments/services/club_data.py): settings, members without passwords, players, games with
every hand and audit event, competitions with their rounds, tables and events, and those between
teams with their teams, rosters, matches, boards and lineups (a visiting club is named by its
address and name)."""

from __future__ import annotations

import json
import sys

from django.core.management.base import CommandError

from scoring.management import base
from scoring.models import Club
from tournaments.services.club_data import export_club


class Command(base.Command):
    help = "Export a club's data (players, members, games, competitions, audit) as JSON."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the club's short name in addresses")
        parser.add_argument("-o", "--output", help="write to this file instead of standard output")

    def handle(self, *args, slug, output=None, **options):
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"No club has the address {slug!r}.")
        text = json.dumps(export_club(club=club), ensure_ascii=False, indent=1, sort_keys=True)
        if not output:
            sys.stdout.write(text + "\n")
            return
        try:
            with open(output, "w", encoding="utf-8") as target:
                target.write(text + "\n")
        except OSError as problem:
            raise CommandError(f"Cannot write {output}: {problem.strerror}.") from None
        games = club.games.count()
        self.stdout.write(
            f"Exported club {club.name} ({club.slug}) with {games} game(s) to {output}."
        )
