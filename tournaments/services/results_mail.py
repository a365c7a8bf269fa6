"""Sending the results e-mails: each player's results after a round closes, and the final
standings once the competition is declared final (the tasks ``mail_round_results`` and
``mail_final_results``, enqueued after the commit of ``close_round`` and
``finalize_competition``).

Each e-mail has a plain-text and an HTML part in the player's language (else the club's), a
link to the competition's public page, and an unsubscribe link (``scoring.links``) also given
in the ``List-Unsubscribe`` and ``List-Unsubscribe-Post`` headers (RFC 8058: a mail program's
one-click button).

Sent once: the row recording it (``ResultsMail``, unique per player, round and edition, or per
player and competition for the final) is written in the transaction of its sending, one player at a
time, so a task run twice, a retry, or a round closed again after a reopening sends each player
each results once: a second run finds the row (or waits on its unique index until the first
commits, then finds it) and skips; a sending that fails rolls its row back, so that a retry
sends it. A worker killed after the SMTP server accepted an e-mail and before its row committed
(milliseconds) leaves it unrecorded: it is sent again, with the same ``Message-ID``
(``message_id``). A round closed again after its n-th reopening (``services.reopen_round``) sends edition
n, the "corrected results", once: closing it twice more without a reopening sends nothing. A player who opted out meanwhile is re-read in that transaction, and skipped.

Never left half done: ``requeue_stalled`` (a beat task, ``config/workers.py``) sends the task
of a mailing that is due and incomplete again once nothing happened to it for
``RESULTS_MAIL_STALLED_SECONDS`` (its worker killed in the middle, say), and marks it re-queued
(``results_requeued_at``) so that it is sent again once per that interval, never by two checks.
"""

from __future__ import annotations

from datetime import timedelta
from email.utils import parseaddr

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from scoring.links import site_url, unsubscribe_url
from scoring.models import Player
from scoring.services import queue
from tournaments import selectors
from tournaments.models import Competition, ResultsMail, Round, RoundStatus
from tournaments.selectors.results_mail import Letter


def message_id(competition: Competition, what: str, player_id: int) -> str:
    """The same ``Message-ID`` for every sending of one player's results (``what``: a round's
    edition, or the final): one sent again in the window the module docstring leaves (accepted
    by the SMTP server, its record not yet committed) is the same message to mail programs."""
    domain = parseaddr(settings.DEFAULT_FROM_EMAIL)[1].rpartition("@")[2] or "localhost"
    return f"<results-{competition.pk}-{what}-{player_id}@{domain}>"


def _message(letter: Letter, competition: Competition, template: str, subject: str, what: str):
    unsubscribe = unsubscribe_url(letter.player.pk)
    page = reverse("public-competition", args=[competition.club.slug, competition.slug])
    context = letter.context | {
        "competition": competition,
        "club": competition.club,
        "page_url": site_url(None, page),
        "unsubscribe_url": unsubscribe,
    }
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string(f"tournaments/mail/{template}.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[letter.address],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Message-ID": message_id(competition, what, letter.player.pk),
        },
    )
    message.attach_alternative(
        render_to_string(f"tournaments/mail/{template}.html", context), "text/html"
    )
    return message


def _send_once(
    letter: Letter, competition: Competition, round_: Round | None, make, edition: int = 0
) -> bool:
    """Send ``letter`` unless it was sent already (see the module docstring); True if sent."""
    with transaction.atomic():
        if not Player.objects.filter(pk=letter.player.pk, results_by_email=True).exists():
            return False
        try:
            with transaction.atomic():
                ResultsMail.objects.create(
                    player=letter.player, competition=competition, round=round_, edition=edition
                )
        except IntegrityError:  # sent already (by this task's earlier run, or another's)
            return False
        with translation.override(letter.language):
            make(letter).send(fail_silently=False)
    return True


def _unsent(
    letters: list[Letter], competition: Competition, round_: Round | None, edition: int = 0
):
    sent = set(
        ResultsMail.objects.filter(
            competition=competition, round=round_, edition=edition
        ).values_list("player_id", flat=True)
    )
    return [letter for letter in letters if letter.player.pk not in sent]


def send_round_results(*, round_: Round) -> int:
    """E-mail each player of a closed round their results (see the module docstring); the
    number sent. Nothing for a round no longer closed (reopened before the task ran)."""
    round_ = Round.objects.select_related("competition__club").get(pk=round_.pk)
    if round_.status != RoundStatus.CLOSED or round_.deleted_at is not None:
        return 0
    competition, edition = round_.competition, round_.reopenings

    def make(letter: Letter):
        if edition:
            subject = _("%(competition)s: your corrected results of round %(number)s")
        else:
            subject = _("%(competition)s: your results of round %(number)s")
        subject %= {"competition": competition.name, "number": round_.number}
        letter.context.update(round=round_, corrected=bool(edition))
        return _message(
            letter, competition, "round_results", subject, f"round-{round_.pk}-{edition}"
        )

    letters = _unsent(selectors.round_letters(round_), competition, round_, edition)
    return sum(_send_once(letter, competition, round_, make, edition) for letter in letters)


def send_final_results(*, competition: Competition) -> int:
    """E-mail each player of a competition declared final its final standings and prizes (see
    the module docstring); the number sent. Nothing if it was reopened before the task ran."""
    competition = Competition.objects.select_related("club").get(pk=competition.pk)
    if competition.finalized_at is None:
        return 0

    def make(letter: Letter):
        subject = _("%(competition)s: the final standings") % {"competition": competition.name}
        return _message(letter, competition, "final_results", subject, "final")

    letters = _unsent(selectors.final_letters(competition), competition, None)
    return sum(_send_once(letter, competition, None, make) for letter in letters)


def requeue_stalled(*, now=None) -> list[str]:
    """Send again the task of each results mailing that is due and incomplete and for which
    nothing happened for ``RESULTS_MAIL_STALLED_SECONDS`` (see the module docstring): a round
    closed, or a competition declared final, in the last ``RESULTS_MAIL_CHECK_HOURS``, longer
    ago than that, neither re-queued nor e-mailing anyone since, with a player still to receive
    their e-mail. Returns what was re-queued ("round 12", "competition 3")."""
    now = now or timezone.now()
    quiet = now - timedelta(seconds=settings.RESULTS_MAIL_STALLED_SECONDS)
    since = now - timedelta(hours=settings.RESULTS_MAIL_CHECK_HOURS)
    not_lately = Q(results_requeued_at__isnull=True) | Q(results_requeued_at__lte=quiet)
    requeued = []
    rounds = Round.objects.filter(
        not_lately,
        status=RoundStatus.CLOSED,
        deleted_at__isnull=True,
        closed_at__range=(since, quiet),
    ).select_related("competition__club")
    for round_ in rounds:
        mails = ResultsMail.objects.filter(round=round_, edition=round_.reopenings)
        if mails.filter(sent_at__gt=quiet).exists():
            continue  # in progress
        letters = selectors.round_letters(round_)
        if _unsent(letters, round_.competition, round_, round_.reopenings) and _mark(
            Round.objects.filter(not_lately, pk=round_.pk), now
        ):
            queue.enqueue_on_commit("tournaments.tasks.mail_round_results", round_.pk)
            requeued.append(f"round {round_.pk}")
    competitions = Competition.objects.filter(
        not_lately, finalized_at__range=(since, quiet)
    ).select_related("club")
    for competition in competitions:
        mails = ResultsMail.objects.filter(competition=competition, round=None)
        if mails.filter(sent_at__gt=quiet).exists():
            continue  # in progress
        letters = selectors.final_letters(competition)
        if _unsent(letters, competition, None) and _mark(
            Competition.objects.filter(not_lately, pk=competition.pk), now
        ):
            queue.enqueue_on_commit("tournaments.tasks.mail_final_results", competition.pk)
            requeued.append(f"competition {competition.pk}")
    return requeued


def _mark(rows, now) -> bool:
    """Mark the mailing re-queued at ``now`` unless another check did it first (the update is
    conditional: of two checks at once, one finds nothing left to mark)."""
    return rows.update(results_requeued_at=now) == 1
