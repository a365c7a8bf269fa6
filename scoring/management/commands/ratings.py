"""``manage.py ratings CLUB_SLUG [--ruleset KEY] [--json] [--recompute]``: a club's stored ratings.

Prints the ratings best first (by ordinal, then games): every rating of the club — one per
player per game and the club-wide one — or, with ``--ruleset``, one game's. ``--json`` prints
``[{"player", "ruleset", "mu", "sigma", "ordinal", "games"}]`` (``player`` is the name;
``ruleset`` is null for the club-wide rating). ``--recompute`` first recomputes the club's
ratings from its finished games.
"""

from __future__ import annotations

import json

from django.core.management.base import CommandError

from scoring.management import base
from scoring.models import Club
from scoring.rules import RULESETS
from scoring.selectors.ratings import club_ratings
from scoring.services.ratings import recompute_club

KEYS = ("player", "ruleset", "mu", "sigma", "ordinal", "games")


class Command(base.Command):
    help = "Print a club's ratings, best first."

    def add_arguments(self, parser):
        parser.add_argument("club", help="the club's short name (slug)")
        parser.add_argument("--ruleset", choices=list(RULESETS), help="only this game's ratings")
        parser.add_argument("--json", dest="as_json", action="store_true", help="print JSON")
        parser.add_argument(
            "--recompute", action="store_true", help="recompute the ratings from the games first"
        )

    def handle(self, *args, club: str, ruleset, as_json: bool, recompute: bool, **options):
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(f"No club {club!r}.")
        if recompute:
            recompute_club(club=found)
        rows = club_ratings(found, ruleset=ruleset, every=ruleset is None)
        rows.sort(key=lambda r: (-r["ordinal"], -r["games"]))
        data = [dict(zip(KEYS, (r["name"], *(r[k] for k in KEYS[1:])), strict=True)) for r in rows]
        if as_json:
            self.stdout.write(json.dumps(data, ensure_ascii=False))
            return
        for place, row in enumerate(data, start=1):
            self.stdout.write(
                f"{place:>4}. {row['player']:<30} {row['ruleset'] or 'club-wide':<18} "
                f"{row['ordinal']:>7.2f}  mu {row['mu']:.2f} sigma {row['sigma']:.2f} "
                f"games {row['games']}"
            )
