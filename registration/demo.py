"""The demo club's open registration, added by ``manage.py loaddemo`` (registered in
``scoring.extensions.DEMO_LOADERS`` by ``RegistrationConfig.ready``, after the competitions').

* **Coppe di Briscola**: a Swiss tournament of Briscola pairs two Saturdays from the day the demo
  is loaded, registration open since yesterday for ten days, eight tables (sixteen pairs) and a
  waiting list beyond them: its public page shows "Register", the organizer's page the
  registrations as they come.

Through the public services, as the demo user, like an organizer would. A competition that
already exists (by its short name) is left alone.
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from registration import services
from registration.models import CapacityUnit
from scoring import demo as scoring_demo
from scoring.models import Club
from scoring.services import Actor
from tournaments import services as competitions
from tournaments.models import Competition, Format, Kind

NAME = "Coppe di Briscola"
SLUG = "coppe-di-briscola"
TABLES = 8


def load(club: Club, user) -> list[str]:
    """Add the demo tournament with its open registration unless it is there."""
    if club.slug != scoring_demo.CLUB_SLUG:
        return []
    if Competition.objects.filter(club=club, slug=SLUG).exists():
        return [f"Kept the tournament {NAME} and its registration"]
    by = Actor.for_user(user)
    today = timezone.localdate()
    saturday = today + dt.timedelta(days=7 + (5 - today.weekday()) % 7)
    competition = competitions.create_competition(
        club=club,
        by=by,
        name=NAME,
        slug=SLUG,
        rulesets=["briscola"],
        options={"briscola": {"format": "pairs"}},
        kind=Kind.TOURNAMENT,
        format=Format.SWISS,
        planned_rounds=4,
        start_date=saturday,
        public=True,
    )
    now = timezone.now()
    services.set_registration(
        competition=competition,
        by=by,
        opens_at=now - dt.timedelta(days=1),
        closes_at=now + dt.timedelta(days=10),
        capacity=TABLES,
        unit=CapacityUnit.TABLES,
    )
    return [f"Created the tournament {NAME}, registration open for {TABLES} tables of pairs"]
