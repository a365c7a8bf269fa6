"""The registration e-mails (issue 24): the registrant's confirmation link, the partner's,
"you are in" or "you are on the waiting list" with the withdrawal and check-in link, the
promotion from the waiting list (to a pair's partner too, with the competition's page), and the
organizer's withdrawal (to both of a pair). Each has a plain-text and an HTML part, in the
registration's language (``Registration.language``, else the club's); its link is on
``SITE_URL`` when set, else on the address of the request that caused it (``scoring.links``). Sent by the ``send_registration_mail``
task after the write's commit."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from registration.models import Registration
from scoring.links import site_url

#: The kinds of mail, each to whom: the registrant, the partner, or both (one e-mail each).
KINDS = {
    "confirm": ("email",),
    "partner": ("partner_email",),
    "registered": ("email",),
    "promoted": ("email",),
    "partner_promoted": ("partner_email",),
    "withdrawn": ("email", "partner_email"),
}
#: The kinds without a link of their own: they point to the competition's public page.
PAGE_KINDS = {"partner_promoted", "withdrawn"}
_CONFIRM = (gettext_lazy("confirm"), "api-registration-confirm")
_WITHDRAW = (gettext_lazy("withdraw"), "api-registration-withdraw-by-link")
_CHECK_IN = (gettext_lazy("check in"), "api-registration-check-in")
#: The API operations a link's token serves, by kind of mail (a waiting one: withdraw only).
API_FORMS = {
    "confirm": (_CONFIRM,),
    "partner": (_CONFIRM,),
    "registered": (_WITHDRAW, _CHECK_IN),
    "promoted": (_WITHDRAW, _CHECK_IN),
}


def api_forms(kind: str, registration: Registration) -> list[tuple[str, str]]:
    """What a program does with the link's token instead: (action, absolute API address)."""
    forms = API_FORMS.get(kind, ())
    if kind == "registered" and registration.status == "waiting":
        forms = forms[:1]
    return [(str(action), site_url(None, reverse(name))) for action, name in forms]


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
    if kind == "partner_promoted":
        return _("A place for your pair in %(competition)s") % params
    if kind == "withdrawn":
        return _("Your registration for %(competition)s is withdrawn") % params
    if registration.status == "waiting":
        return _("On the waiting list of %(competition)s") % params
    return _("You are registered for %(competition)s") % params


def send_registration_mail(registration_id: int, kind: str, token: str) -> int:
    """Send the ``kind`` e-mail of a registration with its link's ``token`` (none for the
    ``PAGE_KINDS``) to each of its recipients with an address; the number sent, 0 when the
    registration is gone."""
    registration = (
        Registration.objects.select_related("competition__club").filter(pk=registration_id).first()
    )
    if registration is None or kind not in KINDS:
        return 0
    competition = registration.competition
    club = competition.club
    addresses = [getattr(registration, field) for field in KINDS[kind]]
    sent = 0
    with translation.override(registration.language or club.language):
        if kind in PAGE_KINDS:
            url = site_url(None, reverse("public-competition", args=[club.slug, competition.slug]))
        else:
            url = registration_link(token)
        context = {
            "kind": kind,
            "registration": registration,
            "competition": competition,
            "club": club,
            "url": url,
            "token": token,
            "api_forms": api_forms(kind, registration),
            "language": translation.get_language(),
        }
        subject = _subject(kind, registration)
        text = render_to_string("registration/email/registration.txt", context)
        html = render_to_string("registration/email/registration.html", context)
    for to in dict.fromkeys(a for a in addresses if a):
        message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [to])
        message.attach_alternative(html, "text/html")
        message.send()
        sent += 1
    return sent
