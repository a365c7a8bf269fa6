"""Celery tasks of competitions. They take ids, reload, and call a service or a selector; they
are enqueued after commit by the services (eager when no broker is configured). Those that
write run again when PostgreSQL breaks off their transaction to resolve a deadlock or a
serialization failure (``scoring.retries``); the e-mails are not sent twice.

Acknowledged late (``CELERY_TASK_ACKS_LATE``): a worker killed in the middle of a task leaves it
to the broker, which hands it to another worker (``CELERY_VISIBILITY_TIMEOUT_SECONDS``), because
running these again is safe: the standings and ratings are recomputed from the hands, a draw of a
draft round replaces its tables in one transaction, the results mails and the seat notifications
record each message in the transaction of its sending and skip what was sent. Acknowledged on
receipt (``acks_late=False``, lost with a killed worker rather than run twice): ``announce_round``,
whose e-mails are recorded nowhere (run twice, it mails everyone twice), and ``search_design``,
which may outlast the visibility timeout (the broker would hand it to a second worker while the
first still searches).

The services enqueue these tasks, so this module imports ``tournaments.services`` only inside the
task bodies that call them (when they run): a module-level import either way would be a cycle.
"""

from __future__ import annotations

import hashlib
import json
import logging

from celery import shared_task
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mass_mail
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import gettext as _

from scoring.links import serving, site_url
from scoring.retries import retry_on_conflict
from scoring.rules import Problem, RuleViolation
from scoring.selectors import results_address, results_language
from scoring.services import Actor, NotAllowed, push
from tournaments import selectors
from tournaments.models import Competition, EntryStatus, Round
from tournaments.scheduling.sat import solve

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
@retry_on_conflict
def recompute_standings(competition_id: int) -> None:
    from tournaments import services  # a task body: the services enqueue this task

    competition = Competition.objects.filter(pk=competition_id).select_related("club").first()
    if competition is not None:
        # The points first, at once on every screen; who can still win (the slow part) next.
        services.store_standings(competition=competition, outlook=False)
        services.store_standings(competition=competition)


@shared_task(ignore_result=True)
def recompute_standings_for_game(game_id: int) -> None:
    for competition_id in selectors.competitions_of_game(game_id):
        recompute_standings(competition_id)


@shared_task(ignore_result=True)
@retry_on_conflict
def generate_round(
    round_id: int,
    user_id: int | None,
    seed: int | None = None,
    method: str | None = None,
    objective: str | None = None,
) -> None:
    """Draw a round's tables in the background (large competitions).

    Nobody waits for the answer, so a refusal (too few present, the previous round still open,
    the round published meanwhile, the asker no longer an organizer) is not the task's error:
    it is kept on the round (``services.record_draw_refusal``), where the round page and the API
    show it until a draw succeeds, and the task ends normally, eager inside the request (no
    500) as on a worker (not lost in its log). Anything else is a bug and still raises."""
    from tournaments import services  # a task body: the services enqueue these tasks

    round_ = Round.objects.select_related("competition__club").filter(pk=round_id).first()
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    if round_ is None:
        return
    by = Actor.for_user(user) if user else Actor.system()
    try:
        services.generate_round(round_=round_, by=by, seed=seed, method=method, objective=objective)
    except RuleViolation as refusal:
        services.record_draw_refusal(round_=round_, by=by, refusal=refusal)
    except NotAllowed:
        refusal = RuleViolation([Problem("round", "not_allowed", {"reason": "not_manager"})])
        services.record_draw_refusal(round_=round_, by=by, refusal=refusal)


@shared_task(acks_late=False)
def search_design(groups: int, table_size: int, rounds: int, seconds: float = 600.0):
    """The complete SAT search for ``rounds`` repeat-free rounds of ``groups`` tables of
    ``table_size`` (large instances the constructions miss), in the background: the rounds found,
    False when there are none, None when the time ran out."""
    return solve(groups, table_size, rounds, seconds)


def _when(round_: Round) -> str:
    """A round's date and start as the pages show them, in the active language: the date and
    time of a round are the club's wall clock, kept as they were entered."""
    parts = []
    if round_.date:
        parts.append(formats.date_format(round_.date, "D j M Y"))
    if round_.start_time:
        parts.append(formats.time_format(round_.start_time, "H:i"))
    return " · ".join(parts)


def _announced(entry, club_language: str) -> list[tuple[str, str]]:
    """Whom a table e-mail reaches for ``entry``: each of its players with an address
    (``results_address``: the player's own, as a registration gives it, else the account's), in
    the registration's language, else the player's, else the club's."""
    registration = getattr(entry, "registration", None)
    wanted = getattr(registration, "language", "")
    return [
        (address, wanted or results_language(player, club_language))
        for player in filter(None, (entry.player, entry.partner))
        if (address := results_address(player))
    ]


def _on(origin: str, path: str) -> str:
    with serving(origin):
        return site_url(None, path)


@shared_task(ignore_result=True, acks_late=False)
def announce_round(round_id: int, entry_ids: list[int] | None = None, origin: str = "") -> int:
    """E-mail each active entrant with an address (account or not) where to sit in a just-published
    round (only the entries ``entry_ids`` after a change moved them, ``services.changes``), in
    their language (``_announced``), one e-mail per address. Its link is on ``SITE_URL`` when
    set, else on ``origin``, the address of the request that published it (``scoring.links``)."""
    round_ = Round.objects.select_related("competition__club").filter(pk=round_id).first()
    if round_ is None:
        return 0
    competition = round_.competition
    messages, seen = [], set()
    link = reverse("public-round", args=[competition.club.slug, competition.slug, round_.number])
    for table in round_.tables.prefetch_related(
        "seats__entry__player__user", "seats__entry__partner__user", "seats__entry__registration"
    ):
        seats = list(table.seats.all())
        for seat in seats:
            if entry_ids is not None and seat.entry_id not in entry_ids:
                continue
            if seat.entry.status == EntryStatus.WITHDRAWN:
                continue  # still seated until replaced, but not coming: no table to go to
            # The others at the table: the recipient is not their own opponent.
            names = [other.entry.name for other in seats if other.entry_id != seat.entry_id]
            for email, language in _announced(seat.entry, competition.club.language):
                if email.lower() in seen:
                    continue
                seen.add(email.lower())
                with translation.override(language):
                    subject = _("%(competition)s: round %(number)s") % {
                        "competition": competition.name,
                        "number": round_.number,
                    }
                    body = _("You play at table %(table)s with %(names)s. %(when)s\n%(url)s") % {
                        "table": table.number,
                        "names": ", ".join(names),
                        "when": _when(round_),
                        "url": _on(origin, link),
                    }
                messages.append((subject, body, settings.DEFAULT_FROM_EMAIL, [email]))
    if messages:
        send_mass_mail(messages, fail_silently=False)
    return len(messages)


@shared_task(ignore_result=True)
@retry_on_conflict
def mail_round_results(round_id: int, origin: str = "") -> int:
    """E-mail each player of a just-closed round their results, once
    (``services.send_round_results``)."""
    from tournaments import services  # a task body: the services enqueue this task

    round_ = Round.objects.filter(pk=round_id).first()
    if round_ is None:
        return 0
    with serving(origin):  # the links on the address of the request that closed the round
        return services.send_round_results(round_=round_)


@shared_task(ignore_result=True)
@retry_on_conflict
def mail_final_results(competition_id: int, origin: str = "") -> int:
    """E-mail each player of a competition just declared final its final standings, once
    (``services.send_final_results``)."""
    from tournaments import services  # a task body: the services enqueue this task

    competition = Competition.objects.filter(pk=competition_id).first()
    if competition is None:
        return 0
    with serving(origin):
        return services.send_final_results(competition=competition)


@shared_task(ignore_result=True)
def requeue_stalled_results_mail() -> int:
    """The beat check of the results mailings (``services.results_mail.requeue_stalled``,
    ``config/workers.py``): the number of mailings sent again."""
    from tournaments import services  # a task body: the services enqueue these tasks

    requeued = services.requeue_stalled()
    if requeued:
        log.warning("results mail: sent again, stalled: %s", ", ".join(requeued))
    return len(requeued)


def seat_message(news: selectors.SeatNews, deals: bool) -> dict:
    """The notification of a seat, in the active language: "Round 3 is published: table 4,
    with Anna, Bruno · you deal first" under the competition's name; a tap opens My games."""
    data = news.data
    body = _("Round %(round)s is published: table %(table)s") % {
        "round": data["round"],
        "table": data["table"],
    }
    if data["with"]:
        body += ", " + _("with %(names)s") % {"names": ", ".join(data["with"])}
    if deals:
        body += " · " + _("you deal first")
    return {
        "title": data["competition"],
        "body": body,
        "url": reverse("my-games"),
        "tag": data["url"],
    }


@shared_task(ignore_result=True)
def push_seats(round_id: int) -> int:
    """Tell each seated player's devices where they sit now, by Web Push
    (``scoring.services.push``), once per device for each version of their seat: the table,
    the others there, the first deal and when the round was published. A change that does not
    move a player, or this task run twice, sends them nothing new. Returns the messages sent."""
    sent, seats = 0, selectors.seat_news(round_id)
    told = push.subscribed(user_id for news in seats for user_id, _deals in news.users)
    for news in seats:
        for user_id, deals in news.users:
            if user_id not in told:
                continue
            seat = [news.published_at, news.data["table"], news.data["with"], deals]
            version = hashlib.sha256(json.dumps(seat).encode()).hexdigest()[:32]
            sent += push.notify(
                user_id=user_id,
                topic=f"round:{round_id}",
                version=version,
                message=lambda news=news, deals=deals: seat_message(news, deals),
            )
    return sent
