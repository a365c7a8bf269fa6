"""One anonymous address registers 500 people with 500 different e-mail addresses (issue 33,
point 4): how many are accepted, how many refused, how many e-mails the club's sender sends.

    .venv/bin/python bench/registration_flood.py [--people 500] [--page] [--database-url URL]
        [--json]

In this process, through Django's test client (every request from the one address
``203.0.113.66``, as one flooder's would be; ``--addresses N``: N addresses taking turns): a club, a competition open to ``anyone`` with a
place for each and a waiting list, then ``--people`` registrations by
``POST /api/v1/competitions/<id>/registrations/`` (``--page``: the public form), each with
an address of its own. E-mail goes to Django's in-memory outbox (``EMAIL_BACKEND=locmem``),
tasks run eagerly (no broker); the throttles count in this process's cache (or in the database
while a Redis of ``CACHE_URL`` is down), with the rates of the settings (README
"Configuration": ``REGISTRATION_RATE_*``). The database is a scratch SQLite file unless
``--database-url`` names one (it is migrated, and left with the bench's rows).

Prints the answers by status, accepted (201, or the page's "done"), refused (429), other,
registrations stored and e-mails sent, and the refusals the organizer's page counts.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from collections import Counter

# bench/ is this script's first path entry.
from django_setup import run_on_bench_database

ADDRESS = "203.0.113.66"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=500, help="registrations sent (500)")
    parser.add_argument("--page", action="store_true", help="through the public form, not the API")
    parser.add_argument(
        "--addresses", type=int, default=1, help="client addresses taking turns (1: one flooder)"
    )
    parser.add_argument("--database-url", default=None, help="a scratch database (SQLite file)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.people < 1 or not 1 <= args.addresses <= 65_000:
        parser.error("--people must be at least 1, --addresses from 1 to 65000")
    return args


def make_competition(people: int):
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from registration import services as registration
    from scoring import services as scoring
    from scoring.services import Actor
    from tournaments import services

    owner = get_user_model().objects.create_user("flood-owner", password=None)
    by = Actor.for_user(owner)
    club = scoring.create_club(name="Flood club", slug="flood", by=by)
    competition = services.create_competition(
        club=club, by=by, name="Torneo di Scopa", rulesets=["terziglio"], public=True
    )
    now = timezone.now()
    registration.set_registration(
        competition=competition,
        by=by,
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=1),
        capacity=people,
        waiting_list=True,
        eligibility="anyone",
    )
    return competition


def address(n: int) -> str:
    """The ``n``-th client address (the first is ``ADDRESS``)."""
    return ADDRESS if n == 0 else f"198.18.{n // 256}.{n % 256}"


def flood(competition, people: int, page: bool, addresses: int) -> tuple[Counter, float]:
    from django.test import Client
    from rest_framework.test import APIClient

    statuses: Counter = Counter()
    if page:
        url = f"/p/{competition.club.slug}/{competition.slug}/register/"
    else:
        url = f"/api/v1/competitions/{competition.pk}/registrations/"
    kind = Client if page else APIClient
    clients = [kind(REMOTE_ADDR=address(n)) for n in range(addresses)]
    began = time.monotonic()
    for i in range(people):
        client = clients[i % addresses]
        body = {"name": f"Persona {i}", "email": f"persona{i}@example.org"}
        if page:
            answer = client.post(url, body)
            done = answer.status_code == 200 and b'id="registration-done"' in answer.content
            statuses["accepted" if done else answer.status_code] += 1
        else:
            answer = client.post(url, body, format="json")
            statuses["accepted" if answer.status_code == 201 else answer.status_code] += 1
    return statuses, time.monotonic() - began


def refusals_counted(competition) -> int | None:
    """The refusals the organizer's page shows (None where the code has no such count)."""
    try:
        from registration.models import RegistrationRefusals
    except ImportError:
        return None
    found = RegistrationRefusals.objects.filter(competition=competition).first()
    return found.refused if found is not None else 0


def run(args) -> int:
    from django.core import mail
    from django.db import connection

    from registration.models import Registration

    mail.outbox = []
    competition = make_competition(args.people)
    logging.getLogger("django.request").setLevel(logging.ERROR)  # not a line per 429
    statuses, seconds = flood(competition, args.people, args.page, args.addresses)
    results = {
        "people": args.people,
        "through": "page" if args.page else "api",
        "addresses": args.addresses,
        "answers": {str(k): v for k, v in sorted(statuses.items(), key=str)},
        "accepted": statuses["accepted"],
        "refused": statuses[429],
        "other": sum(n for k, n in statuses.items() if k not in ("accepted", 429)),
        "stored": Registration.objects.filter(competition=competition).count(),
        "emails_sent": len(mail.outbox),
        "refusals_counted": refusals_counted(competition),
        "seconds": round(seconds, 2),
    }
    connection.close()
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(
            f"{results['people']} registrations from {results['addresses']} address(es) "
            f"({results['through']}) in "
            f"{results['seconds']} s: {results['accepted']} accepted, {results['refused']} "
            f"refused (429), {results['other']} other; {results['stored']} stored, "
            f"{results['emails_sent']} e-mails sent; refusals on the organizer's page: "
            f"{results['refusals_counted']} (answers {results['answers']})"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    os.environ["EMAIL_BACKEND"] = "locmem"
    os.environ.pop("CELERY_BROKER_URL", None)
    return run_on_bench_database(args.database_url, lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
