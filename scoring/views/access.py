"""How a page reaches a club or a game, and who may: the lookups every scoring page starts
with, and the two ways a page calls a service.

Who may read or write what is decided in ``scoring.access`` (shared with the API); this module
turns its answers into a page's 404 and 403. ``call_service``, ``submit`` and ``attempt`` are how a
view calls a service: a ``NotAllowed`` becomes a 403; with ``submit`` a ``RuleViolation`` goes
next to the form fields it names, with ``attempt`` into an error message above the next page.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.timezone import get_current_timezone_name
from django.utils.translation import get_language
from django.utils.translation.trans_real import parse_accept_lang_header

from scoring import access, selectors
from scoring.messages import message
from scoring.models import MANAGERS, Club, Game, Role
from scoring.rules import RuleViolation
from scoring.services import NotAllowed

OWNERS = (Role.OWNER,)


def own_language(request) -> bool:
    """Whether the visitor chose a language the site speaks: with the language switch (its
    cookie) or in the browser (``Accept-Language``)."""
    if request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) in dict(settings.LANGUAGES):
        return True
    for code, _quality in parse_accept_lang_header(request.headers.get("Accept-Language", "")):
        try:
            translation.get_supported_language_variant(code)
        except LookupError:
            continue
        return True
    return False


def speak_club_language(request, club: Club, language: str = "") -> None:
    """A club's pages are in the club's language (or ``language``, a player's own) for a visitor
    who chose none of the site's (``own_language``); the others keep theirs."""
    language = language or club.language
    if language != get_language() and not own_language(request):
        translation.activate(language)
        request.LANGUAGE_CODE = language


def club_or_404(request, slug: str) -> tuple[Club, str | None]:
    """The club and the requester's role in it; 404 unless the club may be read."""
    club = get_object_or_404(Club, slug=slug)
    speak_club_language(request, club)
    role = selectors.role_of(request.user, club)
    if not access.can_read_club(request, club, role):
        raise Http404
    return club, role


def manager_club_or_404(request, slug: str) -> tuple[Club, str]:
    """A club page for its owners and organizers: 404 outside the club, 403 for other roles."""
    club = get_object_or_404(Club, slug=slug)
    speak_club_language(request, club)
    role = selectors.role_of(request.user, club)
    if role is None:
        raise Http404
    if role not in MANAGERS:
        raise PermissionDenied
    return club, role


def owner_club_or_404(request, slug: str) -> tuple[Club, str]:
    """A club page for its owners: 404 outside the club, 403 for its other members."""
    club, role = manager_club_or_404(request, slug)
    if role not in OWNERS:
        raise PermissionDenied
    return club, role


def game_or_404(request, game_id: int) -> tuple[Game, str | None]:
    """The game (its club loaded) and the requester's role; 404 unless it may be read. Cached
    on the request, so that an ETag function and its view share the queries."""
    cache = request.__dict__.setdefault("_games", {})
    if game_id not in cache:
        game = get_object_or_404(Game.objects.select_related("club"), pk=game_id)
        speak_club_language(request, game.club)
        cache[game_id] = (game, access.readable_game_or_404(request, game))
    return cache[game_id]


def call_service(service, /, **kwargs: Any) -> Any:
    """``service(**kwargs)``, its ``NotAllowed`` answered with a 403."""
    try:
        return service(**kwargs)
    except NotAllowed:
        raise PermissionDenied from None


def submit(form, service, /, **kwargs: Any) -> Any:
    """``service(**kwargs)`` on behalf of ``form``: a ``RuleViolation`` it raises is put next to
    the fields it names (``form.add_rule_errors``) and None is returned; a ``NotAllowed`` is a
    403. The caller tells success by ``form.errors`` (empty) or by the result."""
    try:
        return call_service(service, **kwargs)
    except RuleViolation as violation:
        form.add_rule_errors(violation)
        return None


def attempt(request, service, /, **kwargs: Any) -> Any:
    """``service(**kwargs)`` for a page that answers with a redirect: a ``RuleViolation`` it
    raises becomes an error message on the next page and None is returned; a ``NotAllowed`` is a
    403."""
    try:
        return call_service(service, **kwargs)
    except RuleViolation as violation:
        messages.error(request, rule_text(violation))
        return None


def rule_text(violation: RuleViolation) -> str:
    """A refusal as one sentence (each problem's, joined), for a message above a page."""
    return " ".join(message(p) for p in violation.problems)


# -- validators of pages -----------------------------------------------------------------------


def fingerprint(*parts: Any) -> str:
    """A short digest of plain values (their ``repr``), for an ETag."""
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


def viewer(request, role: str | None, *, table_game: int | None = None) -> tuple:
    """Everything about the request that changes a page's bytes besides its data: the language
    and the time zone it is shown in, who is looking (anonymous, which user, with which role; a
    phone holding ``table_game``'s table link, and whether it may still write), and the CSRF
    secret its forms' tokens are made from. A page's ETag includes it, so that a page kept by
    the browser is never taken for the page another language or another viewer gets."""
    user = request.user
    # A first visit has no CSRF cookie yet: make the secret now (the answer sets the cookie),
    # so that the ETag given with the page matches the visitor's next request.
    get_token(request)
    csrf = request.META.get("CSRF_COOKIE") or ""
    table = None
    if table_game is not None and table_game in access.table_games(request):
        table = table_game in access.table_writable(request)
    return (
        get_language(),
        get_current_timezone_name(),
        user.pk if user.is_authenticated else None,
        role,
        table,
        hashlib.blake2b(csrf.encode(), digest_size=6).hexdigest(),
    )
