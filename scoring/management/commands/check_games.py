"""``manage.py check_games [--club SLUG]``: replay every game from its hands and report each
cached figure that differs (totals, hands played, card points, last dealer, status, a hand's
deltas), and what the apps built on scoring require of the games (a closed round of a competition
holds only finished games, a final competition only closed rounds). Exits with status 1 when
anything is found, 0 when every game agrees with its hands."""

from __future__ import annotations

from django.core.management.base import CommandError

from scoring.management import base
from scoring.models import Club, Game
from scoring.services import housekeeping


class Command(base.Command):
    help = "Replay every game from its hands and report cached figures that differ (exit 1)."

    def add_arguments(self, parser):
        parser.add_argument("--club", help="only the games of this club (its slug)")

    def handle(self, *args, club=None, **options):
        if club is not None and not Club.objects.filter(slug=club).exists():
            raise CommandError(f"No club has the address {club!r}.")
        games = Game.objects.all() if club is None else Game.objects.filter(club__slug=club)
        figures = broken = 0
        for found in housekeeping.check_games(club=club):
            if isinstance(found, housekeeping.Mismatch):
                figures += 1
            else:
                broken += 1
            self.stdout.write(str(found))
        checked = games.count()
        if figures:
            self.stderr.write(
                f"{figures} figure(s) differ from their replay, in {checked} game(s)."
            )
        if broken:
            self.stderr.write(f"{broken} rule(s) of the games' competitions broken.")
        if figures or broken:
            raise SystemExit(1)
        self.stdout.write(f"{checked} game(s) checked: every figure agrees with its hands.")
