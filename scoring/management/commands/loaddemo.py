"""``manage.py loaddemo``: a demo club to look around in, for local use only.

Creates the organizer login ``demo`` / ``demo`` and the club "Circolo Demo" it owns, with a dozen
players and finished, in-progress, corrected and abandoned games of every game the app scores
(built by :mod:`scoring.demo`); the apps registered in ``scoring.extensions.DEMO_LOADERS`` then
add theirs (a finished tournament and a running league, an open registration, a palio, and a
circuit with a second club the same login runs). Idempotent: running
it again changes nothing that is already there. Refuses to run with ``DEBUG=false`` because the
login has a known password.
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.db import transaction

from scoring import demo
from scoring.extensions import DEMO_LOADERS
from scoring.management import base

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo"


class Command(base.Command):
    help = (
        "Load the demo club (login demo / demo). Local development only: refused with DEBUG=false."
    )

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError(
                "loaddemo creates a login with a known password and is for local use only: "
                "it refuses to run with DEBUG=false."
            )
        with transaction.atomic():
            user, created = get_user_model().objects.get_or_create(
                username=DEMO_USERNAME, defaults={"first_name": "Demo", "is_staff": True}
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
            club, club_created = demo.load(user)
            lines = [line for loader in DEMO_LOADERS for line in loader(club, user)]
        verb = "Created" if created else "Kept"
        self.stdout.write(
            f"{verb} the organizer login {DEMO_USERNAME} / {DEMO_PASSWORD} (local use only)."
        )
        verb = "Created" if club_created else "Kept"
        self.stdout.write(f"{verb} the club {demo.summary(club)}")
        for line in lines:
            self.stdout.write(line)
