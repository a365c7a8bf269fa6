"""Throttled guessing: passwords at ``/login/`` and ``/api/v1/auth/token/``, table-link PINs.

One mechanism, :class:`Backoff`, on the shared cache (``CACHES["default"]``: local memory by
default, Redis with ``CACHE_URL``, where every web process counts together). Every try counts
against a key (an account, a client's address, a browser session) before the password or PIN is
even checked, so parallel guessers are counted too; from the ``free``-th try on, each one makes
the key wait longer before the next: 1 s, 2 s, 4 s… up to ``max_delay``. A right guess gives the
try back: the account's or session's count starts again, the address's loses that one try (a
club's Wi-Fi is one address for every player in the room). Counts are forgotten ``memory``
seconds after the first try.

Why not django-axes: it locks out for a fixed cool-off (no growing delay), writes a database row
per failure, answers the API outside our error shape, and does not declare Django 6.1 yet. DRF's
own rate throttles count requests, not wrong guesses. This module is DRF's throttle idea (the
shared cache, the client address as DRF's ``get_ident`` sees it behind ``NUM_PROXIES``) with the
delay growing per wrong guess.
"""

from __future__ import annotations

import hashlib
import math
import time
import unicodedata
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

from scoring.rules import Problem

#: The clock (tests move it).
now = time.time


@dataclass(frozen=True)
class Backoff:
    """Counts tries against ``scope`` keys and says how long a key must wait."""

    scope: str
    free: int
    max_delay: int
    memory: int = 3600
    first_delay: int = 1

    def _key(self, ident: str) -> str:
        digest = hashlib.sha256(ident.encode("utf-8", "surrogatepass")).hexdigest()[:40]
        return f"guess:{self.scope}:{digest}"

    def wait(self, ident: str) -> int:
        """Seconds ``ident`` must still wait before its next try (0: it may try now)."""
        until = cache.get(self._key(ident) + ":until", 0)
        return max(0, math.ceil(until - now()))

    def attempt(self, ident: str) -> None:
        """Count one try (before it is checked); from the ``free``-th on, delay the next one."""
        key = self._key(ident)
        cache.add(key, 0, timeout=self.memory)
        try:
            tries = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=self.memory)
            tries = 1
        excess = tries - self.free
        if excess >= 0:
            delay = min(self.max_delay, self.first_delay * 2 ** min(excess, 30))
            cache.set(key + ":until", now() + delay, timeout=self.memory)

    def succeed(self, ident: str) -> None:
        """A right guess: this key starts again."""
        key = self._key(ident)
        cache.delete_many([key, key + ":until"])

    def forgive(self, ident: str) -> None:
        """A right guess from a shared key (an address): that try does not count."""
        try:
            if cache.decr(self._key(ident)) < 0:
                cache.set(self._key(ident), 0, timeout=self.memory)
        except ValueError:
            pass


def client_address(request) -> str:
    """The caller's address as DRF's throttles see it (``REST_FRAMEWORK["NUM_PROXIES"]``
    trusted proxies in front: the address they forwarded)."""
    return BaseThrottle().get_ident(request) or ""


LOGIN_MAX_DELAY = 15 * 60


def _login_backoffs() -> tuple[Backoff, Backoff]:
    free = settings.LOGIN_MAX_ATTEMPTS
    return (
        Backoff("login-account", free=free, max_delay=LOGIN_MAX_DELAY),
        # A club room is one address: many players may log in from it.
        Backoff("login-address", free=4 * free, max_delay=LOGIN_MAX_DELAY),
    )


def _pin_backoffs() -> tuple[Backoff, Backoff]:
    free, window = settings.PIN_MAX_ATTEMPTS, settings.PIN_WINDOW_MINUTES * 60
    return (
        Backoff("pin-session", free=free, max_delay=window, memory=max(window, 3600)),
        Backoff("pin-address", free=4 * free, max_delay=window, memory=max(window, 3600)),
    )


#: How long an address that typed a wrong PIN for a link stays a suspect for that link.
PIN_SUSPECT_SECONDS = 60 * 60


def _suspect_key(request, link) -> str:
    return Backoff("pin-wrong", free=0, max_delay=0)._key(f"{link.pk}:{client_address(request)}")


def pin_suspect(request, link) -> bool:
    """Whether this caller's address typed a wrong PIN for ``link`` in the last hour (then a
    link under siege refuses it new sessions: ``services.check_pin``)."""
    return bool(cache.get(_suspect_key(request, link)))


def note_wrong_pin(request, link) -> None:
    cache.set(_suspect_key(request, link), 1, timeout=PIN_SUSPECT_SECONDS)


class Guard:
    """The keys one try is counted against: ``personal`` (an account, a session) is cleared by
    a right guess, ``shared`` (an address) only gets that try back."""

    def __init__(self, backoffs: tuple[Backoff, Backoff], personal: str, shared: str):
        (self.personal_backoff, self.shared_backoff) = backoffs
        self.personal, self.shared = personal, shared

    def wait(self) -> int:
        return max(self.personal_backoff.wait(self.personal), self.shared_backoff.wait(self.shared))

    def attempt(self) -> None:
        self.personal_backoff.attempt(self.personal)
        self.shared_backoff.attempt(self.shared)

    def succeed(self) -> None:
        self.personal_backoff.succeed(self.personal)
        self.shared_backoff.forgive(self.shared)


def account_key(username) -> str:
    """The account a typed username names, as login reads it: NFKC (Django's username field
    normalises so) and case-folded, so that look-alikes (``luc𝓲𝒶``, ``LUCIA``) count against
    the one account ``lucia`` instead of each getting free tries of their own."""
    if not isinstance(username, str):
        return ""
    folded = unicodedata.normalize("NFKC", username).strip().casefold()
    return unicodedata.normalize("NFKC", folded)


def login_guard(request, username) -> Guard:
    """Password tries: per account (``account_key``) and per address."""
    return Guard(
        _login_backoffs(), f"user:{account_key(username)}", f"ip:{client_address(request)}"
    )


RESET_MAX_DELAY = 60 * 60


def reset_guard(request, email) -> Guard:
    """Password-reset e-mails asked for: per address asked about (known or not: the answer must
    not tell) and per client. ``PASSWORD_RESET_MAX_MAILS`` free, then a wait from a minute
    doubling up to an hour; a client may ask about four times as many."""
    free = settings.PASSWORD_RESET_MAX_MAILS
    backoffs = (
        Backoff("reset-email", free=free, max_delay=RESET_MAX_DELAY, first_delay=60),
        Backoff("reset-client", free=4 * free, max_delay=RESET_MAX_DELAY, first_delay=60),
    )
    return Guard(backoffs, f"email:{account_key(email)}", f"ip:{client_address(request)}")


def pin_guard(request, link) -> Guard:
    """PIN tries on one table link: per browser session and per address."""
    if not request.session.session_key:
        request.session.save()
    session = request.session.session_key
    return Guard(
        _pin_backoffs(), f"{link.pk}:session:{session}", f"{link.pk}:ip:{client_address(request)}"
    )


def throttled(field: str, wait: int, *, reset: bool = False) -> Problem:
    """The refusal of a throttled try (``reset``: of a password-reset e-mail asked for too
    often), for ``scoring.messages``."""
    return Problem(field, "reset_throttled" if reset else "throttled", {"wait": wait})
