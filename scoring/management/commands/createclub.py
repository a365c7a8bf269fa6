"""``manage.py createclub SLUG --name NAME --owner USERNAME [--time-zone TZ] [--language L]
[--public]``: a club with its owner, for scripted set-ups (the same service as the page)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from scoring import services
from scoring.management import base
from scoring.messages import message
from scoring.models import Via
from scoring.rules import RuleViolation
from scoring.services import Actor


class Command(base.Command):
    help = "Create a club and make an existing account its owner."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the club's short name in addresses, e.g. circolo-roma")
        parser.add_argument("--name", required=True)
        parser.add_argument("--owner", required=True, help="user name of the owner's account")
        parser.add_argument("--time-zone", default=settings.TIME_ZONE)
        parser.add_argument(
            "--language", default=settings.LANGUAGE_CODE, choices=[c for c, _ in settings.LANGUAGES]
        )
        parser.add_argument(
            "--public", action="store_true", help="anyone may read results, schedules, standings"
        )

    def handle(self, *args, slug, name, owner, time_zone, language, public, **options):
        user = get_user_model().objects.filter(username=owner).first()
        if user is None:
            raise CommandError(f"No account has the user name {owner!r} (see createorganizer).")
        try:
            club = services.create_club(
                name=name,
                slug=slug,
                by=Actor.system(via=Via.ADMIN),
                owner=user,
                language=language,
                results_public=public,
                time_zone=time_zone,
            )
        except RuleViolation as violation:
            raise CommandError(
                " ".join(f"{p.field}: {message(p)}" for p in violation.problems)
            ) from None
        self.stdout.write(f"Created the club {club.name} ({club.slug}), owned by {owner}.")
