"""Registration pages (issue 24).

- ``registration_page`` (``/c/<club>/k/<competition>/registration/``): the organizer's settings,
  every registration with its address, the waiting list (move, promote), the partner confirmed
  at the desk, a player merged, and the self check-in window with who is missing;
- ``register_page`` (``/p/<club>/<competition>/register/``): the public form;
- ``registration_link`` (``/r/<token>/``): an e-mailed link: confirm, withdraw, check in (each
  a button: opening a link never changes anything, mail scanners open them too);
- ``check_in_page`` (``/p/<club>/<competition>/check-in/``): the check-in poster's page;
- ``registration_poster``: the printable posters with their QR codes.
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from registration import rates as registration_rates
from registration import selectors, services
from registration.forms import CheckInWindowForm, MergeForm, RegisterForm, RegistrationSettingsForm
from registration.models import LinkPurpose, Registration, RegistrationStatus
from registration.services import checkin
from registration.services.registration import find_link, link_refusal
from scoring import access, rates
from scoring.links import qr_svg, site_url
from scoring.messages import message
from scoring.models import MANAGERS, Player
from scoring.rules import RuleViolation
from scoring.views.access import call_service, speak_club_language, submit
from tournaments.models import RoundStatus
from tournaments.presenters import club_zone
from tournaments.selectors import active_players
from tournaments.views.access import organizer_or_404, public_or_404, round_or_404


def _settings_initial(found) -> dict:
    if found is None:
        now = timezone.localtime().replace(minute=0, second=0, microsecond=0)
        return {
            "opens_at": now,
            "closes_at": now + timedelta(days=14),
            "capacity": 32,
            "waiting_list": True,
            "eligibility": "anyone",
            "unit": "entries",
        }
    return {
        "opens_at": timezone.localtime(found.opens_at),
        "closes_at": timezone.localtime(found.closes_at),
        "capacity": found.capacity,
        "unit": found.unit,
        "waiting_list": found.waiting_list,
        "eligibility": found.eligibility,
        "note": found.note,
    }


@login_required
def registration_page(request, club_slug: str, slug: str):
    competition, role = organizer_or_404(request, club_slug, slug, manage=True)
    with timezone.override(club_zone(competition.club)):
        found = selectors.registration_settings(competition)
        drafts = list(competition.rounds.filter(status=RoundStatus.DRAFT).order_by("number"))
        page = {
            "form": RegistrationSettingsForm(initial=_settings_initial(found)),
            "window_form": CheckInWindowForm(rounds=drafts),
            "errors": [],
        }
        status = 200
        if request.method == "POST":
            handler = ACTIONS.get(request.POST.get("action"), _save_settings)
            answer = handler(request, competition, page, drafts)
            if answer is not None:
                return answer
            status = 400
        return render(
            request,
            "registration/registration.html",
            _organizer_context(request, competition, role, page, drafts),
            status=status,
        )


def _organizer_context(request, competition, role, page, drafts) -> dict:
    grouped = selectors.registrations_of(competition)
    players = [p for p in active_players(competition.club)]
    check_ins = [
        {"round": r} | selectors.check_in_state(r) for r in drafts if hasattr(r, "check_in_window")
    ]
    return {
        "club": competition.club,
        "competition": competition,
        "role": role,
        "summary": selectors.registration_summary(competition),
        "form": page["form"],
        "window_form": page["window_form"],
        "errors": page["errors"],
        "grouped": grouped,
        "waiting": grouped[RegistrationStatus.WAITING],
        "merge_players": players,
        "check_ins": check_ins,
        "refusals": selectors.refusals_of(competition),
        "public_url": site_url(
            request,
            reverse("registration-register", args=[competition.club.slug, competition.slug]),
        ),
    }


def _back(competition):
    return redirect(
        "competition-registration", club_slug=competition.club.slug, slug=competition.slug
    )


def _save_settings(request, competition, page, drafts):
    form = page["form"] = RegistrationSettingsForm(request.POST)
    if form.is_valid() and submit(
        form,
        services.set_registration,
        competition=competition,
        by=access.actor_for(request),
        **form.cleaned_data,
    ):
        messages.success(request, _("Registration settings saved."))
        return _back(competition)
    return None


def _attempt(request, competition, page, service, done: str, /, **kwargs):
    """Call an action's service: on success a message and back, else its refusal above.
    (Positional-only: the services of ``close`` and ``move`` take a ``competition=`` too.)"""
    try:
        call_service(service, by=access.actor_for(request), **kwargs)
    except RuleViolation as refusal:
        page["errors"] = [message(p) for p in refusal.problems]
        return None
    messages.success(request, done)
    return _back(competition)


def _number(raw: str) -> int:
    """A posted id or number: ASCII digits only ("²" is a digit to ``isdigit`` but not to
    ``int``), bounded; 0 (found nowhere: a 404) otherwise."""
    return int(raw) if re.fullmatch(r"[0-9]{1,18}", raw) else 0


def _registration(request, competition) -> Registration:
    found = get_object_or_404(
        Registration.objects.select_related("entry"),
        competition=competition,
        pk=_number(request.POST.get("registration", "")),
    )
    found.competition = competition
    return found


def _close(request, competition, page, drafts):
    return _attempt(
        request,
        competition,
        page,
        services.close_registration,
        _("Registration closed."),
        competition=competition,
    )


def _withdraw(request, competition, page, drafts):
    """The organizer's withdrawal: a page that asks first (who, and that they are e-mailed),
    then its confirmation withdraws."""
    registration = _registration(request, competition)
    if request.POST.get("confirmed") != "yes":
        return render(
            request,
            "registration/registration_withdraw.html",
            {
                "club": competition.club,
                "competition": competition,
                "registration": registration,
                "reason": request.POST.get("reason", ""),
            },
        )
    return _attempt(
        request,
        competition,
        page,
        services.withdraw_registration,
        _("%(name)s withdrew.") % {"name": registration.display_name},
        registration=registration,
        reason=request.POST.get("reason", ""),
    )


def _promote(request, competition, page, drafts):
    registration = _registration(request, competition)
    return _attempt(
        request,
        competition,
        page,
        services.promote,
        _("%(name)s is in.") % {"name": registration.display_name},
        registration=registration,
    )


def _confirm_partner(request, competition, page, drafts):
    registration = _registration(request, competition)
    return _attempt(
        request,
        competition,
        page,
        services.confirm_partner,
        _("%(name)s: the pair is confirmed.") % {"name": registration.display_name},
        registration=registration,
    )


def _move(request, competition, page, drafts):
    """One place up or down the waiting list (``reorder_waiting`` with the new order)."""
    registration = _registration(request, competition)
    order = [r.pk for r in selectors.registrations_of(competition)[RegistrationStatus.WAITING]]
    if registration.pk in order:
        i = order.index(registration.pk)
        j = i - 1 if request.POST.get("direction") == "up" else i + 1
        if 0 <= j < len(order):
            order[i], order[j] = order[j], order[i]
    return _attempt(
        request,
        competition,
        page,
        services.reorder_waiting,
        _("Waiting list reordered."),
        competition=competition,
        order=order,
    )


def _merge(request, competition, page, drafts):
    registration = _registration(request, competition)
    form = MergeForm(request.POST, players=active_players(competition.club))
    if not form.is_valid():
        page["errors"] = [e for errors in form.errors.values() for e in errors]
        return None
    player = get_object_or_404(Player, club=competition.club, pk=form.cleaned_data["player"])
    return _attempt(
        request,
        competition,
        page,
        services.merge_player,
        _("%(name)s is now %(player)s.")
        % {
            "name": (registration.player or registration).display_name,
            "player": player.display_name,
        },
        registration=registration,
        player=player,
    )


def _open_check_in(request, competition, page, drafts):
    form = page["window_form"] = CheckInWindowForm(request.POST, rounds=drafts)
    if not form.is_valid():
        return None
    round_ = round_or_404(competition, form.cleaned_data["round"])
    if submit(
        form,
        services.open_check_in,
        round_=round_,
        by=access.actor_for(request),
        minutes=form.cleaned_data["minutes"],
    ):
        messages.success(request, _("Self check-in is open."))
        return _back(competition)
    return None


def _close_check_in(request, competition, page, drafts):
    round_ = round_or_404(competition, _number(request.POST.get("round", "")))
    return _attempt(
        request,
        competition,
        page,
        services.close_check_in,
        _("Self check-in is closed."),
        round_=round_,
    )


ACTIONS = {
    "close": _close,
    "withdraw": _withdraw,
    "promote": _promote,
    "confirm_partner": _confirm_partner,
    "move": _move,
    "merge": _merge,
    "open_check_in": _open_check_in,
    "close_check_in": _close_check_in,
}


# -- the registrant's pages -------------------------------------------------------------------


def register_page(request, club_slug: str, slug: str):
    """The public registration form: the places, the deadline, the note; a refusal next to its
    field (or above the form), and what was typed kept."""
    competition, role = public_or_404(request, club_slug, slug)
    summary = selectors.registration_summary(competition)
    if summary is None:
        raise Http404
    user = request.user if request.user.is_authenticated else None
    form = RegisterForm(
        request.POST or None,
        pairs=competition.pairs,
        account=user is not None,
        players=active_players(competition.club) if role in MANAGERS else None,
        initial={
            "name": (user.get_full_name() or user.get_username()) if user else "",
            "email": user.email if user else "",
        },
    )
    done = refusal = None
    if request.method == "POST" and form.is_valid():
        done, refusal = _register(request, competition, form)
        if done is not None:
            summary = selectors.registration_summary(competition)
    with timezone.override(club_zone(competition.club)):
        response = render(
            request,
            "registration/registration_form.html",
            {
                "club": competition.club,
                "competition": competition,
                "role": role,
                "summary": summary,
                "form": form,
                "done": done,
            },
            status=400 if request.method == "POST" and done is None else 200,
        )
    return rates.page_refusal(response, refusal) if refusal is not None else response


def _register(request, competition, form):
    """``(registration, None)``; ``(None, refusal)`` beyond a rate (``registration.rates``), its
    sentence above the form; ``(None, None)`` refused by the service (counts given back)."""
    counted, refusal = registration_rates.take(request, competition, form.cleaned_data)
    if refusal is not None:
        form.add_error(None, message(refusal.problem))
        return None, refusal
    done = submit(
        form,
        services.register,
        competition=competition,
        by=access.actor_for(request),
        language=get_language(),
        **form.cleaned_data,
    )
    if done is None:
        counted.give_back()
    return done, None


def registration_link(request, token: str):
    """An e-mailed link: what it is for, and its button. A link that no longer serves (used,
    expired) says so by name beside the registration's status; a button pressed on it is
    refused the same way (400); an unknown link is a 404 that says so."""
    link = find_link(token)
    purposes = {LinkPurpose.CONFIRM, LinkPurpose.PARTNER, LinkPurpose.MANAGE}
    problem = link_refusal(link, purposes)
    registration = link.registration if link is not None else None
    if registration is not None:
        speak_club_language(request, registration.competition.club)
    refusal = None
    if request.method == "POST":
        refusal = problem or _link_action(request, link, token)
        if refusal is None:
            return redirect("registration-link", token=token)
    # Just used by its button: the page says it was done ("Confirmed, thank you."), not also that
    # the link, used by that very press, no longer serves.
    done = any(m.level == messages.SUCCESS for m in messages.get_messages(request))
    notes = [message(p) for p in problem.problems] if problem and not (refusal or done) else []
    status = 400 if refusal is not None else 404 if link is None else 200
    return _link_page(request, link, registration, refusal, notes, token, status)


def _link_action(request, link, token):
    """The link's button pressed: confirm, withdraw or check in (a refusal is returned)."""
    by = access.actor_for(request)
    action = request.POST.get("action")
    try:
        if link.purpose in (LinkPurpose.CONFIRM, LinkPurpose.PARTNER):
            services.confirm_registration(token=token, by=by)
            messages.success(request, _("Confirmed, thank you."))
        elif action == "withdraw":
            services.withdraw_registration(token=token, by=by, reason=_("by the player"))
            messages.success(request, _("You have withdrawn."))
        elif action == "check_in":
            entry = checkin.entry_of(by=by, token=token)
            round_ = services.check_in_self(entry=entry, by=by)
            messages.success(
                request, _("You are checked in for %(round)s.") % {"round": round_.label}
            )
    except RuleViolation as refusal:
        return refusal
    return None


def _link_page(request, link, registration, refusal, notes, token, status):
    competition = registration.competition if registration else None
    open_round = checkin.open_round(competition) if competition else None
    checked_in = False
    if open_round is not None and registration.entry_id:
        checked_in = open_round.check_ins.filter(entry_id=registration.entry_id).exists()
    usable = link is not None and link_refusal(link, {link.purpose}) is None
    return render(
        request,
        "registration/registration_link.html",
        {
            "link": link,
            "usable": usable and registration is not None and registration.standing,
            "registration": registration,
            "competition": competition,
            "club": competition.club if competition else None,
            "errors": [message(p) for p in refusal.problems] if refusal else [],
            "notes": notes,
            "open_round": open_round,
            "checked_in": checked_in,
            "token": token,
        },
        status=status,
    )


def check_in_page(request, club_slug: str, slug: str):
    """The check-in poster's page: a signed-in player checks in here; anyone else is told to
    open the link of their registration e-mail."""
    competition, role = public_or_404(request, club_slug, slug)
    open_round = checkin.open_round(competition)
    errors, done = [], None
    if request.method == "POST":
        if not request.user.is_authenticated:
            raise PermissionDenied
        by = access.actor_for(request)
        try:
            entry = checkin.entry_of(by=by, competition=competition)
            done = services.check_in_self(entry=entry, by=by)
        except RuleViolation as refusal:
            errors = [message(p) for p in refusal.problems]
    return render(
        request,
        "registration/check_in.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "open_round": open_round,
            "errors": errors,
            "done": done,
        },
        status=400 if errors else 200,
    )


@login_required
def registration_poster(request, club_slug: str, slug: str, kind: str = "register"):
    """A printable poster: the registration form's QR code, or the check-in page's."""
    competition, role = organizer_or_404(request, club_slug, slug, manage=True)
    name = "registration-register" if kind == "register" else "registration-check-in"
    url = site_url(request, reverse(name, args=[competition.club.slug, competition.slug]))
    with timezone.override(club_zone(competition.club)):
        return render(
            request,
            "registration/registration_poster.html",
            {
                "club": competition.club,
                "competition": competition,
                "role": role,
                "kind": kind,
                "url": url,
                "qr": qr_svg(url),
                "summary": selectors.registration_summary(competition),
            },
        )
