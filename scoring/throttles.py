"""Throttled guessing: passwords at ``/login/`` and ``/api/v1/auth/token/``, table-link PINs.

One mechanism, :class:`Backoff`, on the shared cache (``CACHES["default"]``: local memory by
default, Redis with ``CACHE_URL``, where every web process counts together). While Redis does not
answer, the counts move to the database (``scoring.models.GuessCounter``) rather than each
process's memory, so every process still counts together and a restart forgets nothing; back
from Redis, they start from its counts again. Every try counts
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
from django.core.cache import cache, caches
from django.db import transaction
from django.db.models import F
from rest_framework.throttling import BaseThrottle

from scoring.models import GuessCounter
from scoring.rules import Problem

#: The clock (tests move it).
now = time.time


class _CacheCounts:
    """The counts in the shared cache (Redis, or this process's memory without ``CACHE_URL``)."""

    def count(self, key: str, memory: int) -> int:
        cache.add(key, 0, timeout=memory)
        try:
            return cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=memory)
            return 1

    def tries(self, key: str) -> int:
        return cache.get(key, 0)

    def mark(self, key: str, memory: int) -> None:
        cache.set(key, 1, timeout=memory)

    def until(self, key: str) -> float:
        return cache.get(key + ":until", 0)

    def hold(self, key: str, until: float, memory: int) -> None:
        cache.set(key + ":until", until, timeout=memory)

    def clear(self, key: str) -> None:
        cache.delete_many([key, key + ":until"])

    def uncount(self, key: str, memory: int) -> None:
        try:
            if cache.decr(key) < 0:
                cache.set(key, 0, timeout=memory)
        except ValueError:
            pass


class _DatabaseCounts:
    """The same counts in the database (``GuessCounter``), while Redis does not answer: one
    count for every web process, kept across restarts. Each change locks its row."""

    def _live(self, key: str):
        return GuessCounter.objects.filter(key=key, expires__gt=now())

    def count(self, key: str, memory: int) -> int:
        with transaction.atomic():
            row, _created = GuessCounter.objects.select_for_update().get_or_create(
                key=key, defaults={"expires": now() + memory}
            )
            if row.expires <= now():
                row.tries, row.until, row.expires = 0, 0, now() + memory
            row.tries += 1
            row.save()
            return row.tries

    def tries(self, key: str) -> int:
        return self._live(key).values_list("tries", flat=True).first() or 0

    def mark(self, key: str, memory: int) -> None:
        GuessCounter.objects.update_or_create(
            key=key, defaults={"tries": 1, "until": 0, "expires": now() + memory}
        )

    def until(self, key: str) -> float:
        return self._live(key).values_list("until", flat=True).first() or 0

    def hold(self, key: str, until: float, memory: int) -> None:
        GuessCounter.objects.filter(key=key).update(until=until)

    def clear(self, key: str) -> None:
        GuessCounter.objects.filter(key=key).delete()

    def uncount(self, key: str, memory: int) -> None:
        GuessCounter.objects.filter(key=key, tries__gt=0).update(tries=F("tries") - 1)


_CACHE, _DATABASE = _CacheCounts(), _DatabaseCounts()


def _cache_down() -> bool:
    """Whether the shared cache is a Redis found down (``config.cache.RedisCache.down``)."""
    down = getattr(caches["default"], "down", None)
    return bool(down and down())


def _counts(operation: str, *args):
    """``operation`` on the cache's counts, or on the database's while Redis is down (also when
    this very operation found it down: the cache then answered from this process's memory)."""
    if not _cache_down():
        result = getattr(_CACHE, operation)(*args)
        if not _cache_down():
            return result
    return getattr(_DATABASE, operation)(*args)


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
        until = _counts("until", self._key(ident))
        return max(0, math.ceil(until - now()))

    def attempt(self, ident: str) -> None:
        """Count one try (before it is checked); from the ``free``-th on, delay the next one."""
        key = self._key(ident)
        excess = _counts("count", key, self.memory) - self.free
        if excess >= 0:
            delay = min(self.max_delay, self.first_delay * 2 ** min(excess, 30))
            _counts("hold", key, now() + delay, self.memory)

    def succeed(self, ident: str) -> None:
        """A right guess: this key starts again."""
        _counts("clear", self._key(ident))

    def forgive(self, ident: str) -> None:
        """A right guess from a shared key (an address): that try does not count."""
        _counts("uncount", self._key(ident), self.memory)


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
    return bool(_counts("tries", _suspect_key(request, link)))


def note_wrong_pin(request, link) -> None:
    _counts("mark", _suspect_key(request, link), PIN_SUSPECT_SECONDS)


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
