"""``manage.py check_games [--club SLUG]``: replay every game from its hands and report each
cached figure that differs (totals, hands played, card points, last dealer, status, a hand's
deltas). Exits with status 1 when anything differs, 0 when every game agrees with its hands."""

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
        found = 0
        for mismatch in housekeeping.check_games(club=club):
            found += 1
            self.stdout.write(str(mismatch))
        checked = games.count()
        if found:
            self.stderr.write(f"{found} figure(s) differ from their replay, in {checked} game(s).")
            raise SystemExit(1)
        self.stdout.write(f"{checked} game(s) checked: every figure agrees with its hands.")
