"""The registration e-mails (issue 24): the registrant's confirmation link, the partner's,
"you are in" or "you are on the waiting list" with the withdrawal and check-in link, and the
promotion from the waiting list. Each has a plain-text and an HTML part, in the club's
language; its link is on ``SITE_URL`` (a task has no request: ``scoring.links``). Sent by the
``send_registration_mail`` task after the write's commit."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from scoring.links import site_url
from tournaments.models import Registration

#: The kinds of mail, each to whom.
KINDS = {"confirm", "partner", "registered", "promoted"}


def registration_link(token: str, request=None) -> str:
    return site_url(request, reverse("registration-link", args=[token]))


def _subject(kind: str, registration: Registration) -> str:
    params = {"competition": registration.competition.name}
    if kind == "confirm":
        return _("Confirm your registration for %(competition)s") % params
    if kind == "partner":
        return _("Confirm your pair for %(competition)s") % params
    if kind == "promoted":
        return _("A place for you in %(competition)s") % params
    if registration.status == "waiting":
        return _("On the waiting list of %(competition)s") % params
    return _("You are registered for %(competition)s") % params


def send_registration_mail(registration_id: int, kind: str, token: str) -> int:
    """Send the ``kind`` e-mail of a registration with its link's ``token``; 0 when the
    registration is gone."""
    registration = (
        Registration.objects.select_related("competition__club").filter(pk=registration_id).first()
    )
    if registration is None or kind not in KINDS:
        return 0
    club = registration.competition.club
    to = registration.partner_email if kind == "partner" else registration.email
    with translation.override(club.language):
        context = {
            "kind": kind,
            "registration": registration,
            "competition": registration.competition,
            "club": club,
            "url": registration_link(token),
        }
        subject = _subject(kind, registration)
        text = render_to_string("tournaments/email/registration.txt", context)
        html = render_to_string("tournaments/email/registration.html", context)
    message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [to])
    message.attach_alternative(html, "text/html")
    message.send()
    return 1
