"""Rates of the anonymous writes that send e-mail: public registration, sign-up, an invitation
answered (issue 33). One anonymous address registered 500 people with 500 addresses in 52 s,
and the club's sender mailed all 500; now each such write counts against keys (the client's
address, an e-mail address, a competition, an invitation), each at most ``number`` writes a
``period`` (settings ``*_RATE_PER_*``, config/rates.py; a period is a fixed window of the
clock, an hour from xx:00 to xx:00), and a write beyond is refused before anything is stored or
sent: 429 with ``Retry-After`` (the seconds until the period ends) and a sentence naming what
was limited.

The counts are the throttles' (``scoring.throttles``): the shared cache (Redis with
``CACHE_URL``), and while Redis does not answer the database (``GuessCounter``), so that every
web process counts together and a restart forgets nothing. A refused write is not counted (a
flood from one address does not use up a competition's rate for everyone else); a write that
its service then refuses (a typo, a person registered already) gives its counts back, as
nothing was sent.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

from django.conf import settings
from rest_framework.exceptions import ErrorDetail, Throttled

from scoring import throttles
from scoring.messages import message
from scoring.rules import Problem

# The throttles' counts (the cache, or the database while Redis is down): one mechanism.
_counts = throttles._counts


@dataclass(frozen=True)
class Rate:
    """At most ``settings.<setting>`` writes per key: ``(number, seconds)``, None when off."""

    scope: str
    setting: str
    #: The refusal's reason (its sentence: ``("throttled", reason)`` in the message catalog).
    reason: str

    def limit(self) -> tuple[int, int] | None:
        return getattr(settings, self.setting)

    def _window(self, period: int) -> tuple[int, float]:
        """The period now in (its number since the epoch) and when it ends."""
        number = int(throttles.now() // period)
        return number, (number + 1) * period

    def _key(self, ident: str, window: int) -> str:
        digest = hashlib.sha256(ident.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        return f"rate:{self.scope}:{digest}:{window}"

    def wait(self, ident: str) -> int:
        """Seconds until ``ident`` may write again (0: now)."""
        limit = self.limit()
        if limit is None:
            return 0
        window, ends = self._window(limit[1])
        if _counts("tries", self._key(ident, window)) < limit[0]:
            return 0
        return max(1, math.ceil(ends - throttles.now()))

    def take(self, ident: str) -> tuple[int, str]:
        """Count one write: the count of the period (over ``number``: a parallel writer took
        the last one) and the key it was counted against (to give it back to)."""
        limit = self.limit()
        if limit is None:
            return 0, ""
        window, _ends = self._window(limit[1])
        key = self._key(ident, window)
        return _counts("count", key, limit[1]), key

    def give_back(self, key: str) -> None:
        limit = self.limit()
        if limit is not None and key:
            _counts("uncount", key, limit[1])


@dataclass(frozen=True)
class Refusal:
    """A write refused by ``rate``: its problem (for ``scoring.messages``) and its wait."""

    rate: Rate
    wait: int
    value: str = ""

    @property
    def problem(self) -> Problem:
        return Problem(
            "rate",
            "throttled",
            {"reason": self.rate.reason, "wait": self.wait, "value": self.value},
        )


class Quota:
    """The keys one write counts against: ``(rate, ident, shown)`` (``shown``: the value its
    sentence names, an e-mail address; an empty ``ident`` is not counted)."""

    def __init__(self, *keys: tuple[Rate, str, str]):
        self.keys = [(rate, ident, shown) for rate, ident, shown in keys if ident]
        self.taken: list[tuple[Rate, str]] = []

    def refusal(self) -> Refusal | None:
        """Why a write now is refused (the first key that must wait), without counting it."""
        for rate, ident, shown in self.keys:
            wait = rate.wait(ident)
            if wait:
                return Refusal(rate, wait, shown)
        return None

    def take(self) -> Refusal | None:
        """Count the write against every key, or refuse it (then nothing is counted)."""
        refused = self.refusal()
        if refused is not None:
            return refused
        for rate, ident, shown in self.keys:
            tries, key = rate.take(ident)
            self.taken.append((rate, key))
            limit = rate.limit()
            if limit is not None and tries > limit[0]:  # a parallel write took the last one
                self.give_back()
                return Refusal(rate, rate.wait(ident) or 1, shown)
        return None

    def give_back(self) -> None:
        """The write was not made (its service refused it): its counts are given back."""
        for rate, key in self.taken:
            rate.give_back(key)
        self.taken = []


def email_key(email) -> str:
    """An e-mail address as one key whatever its case or look-alike spelling."""
    return throttles.account_key(email)


SIGNUP_ADDRESS = Rate("signup-address", "SIGNUP_RATE_PER_ADDRESS", "signup_address")
SIGNUP_EMAIL = Rate("signup-email", "SIGNUP_RATE_PER_EMAIL", "signup_email")
INVITATION_ADDRESS = Rate("invitation-address", "INVITATION_RATE_PER_ADDRESS", "invitation_address")
INVITATION = Rate("invitation", "INVITATION_RATE_PER_INVITATION", "invitation")
#: Clubs an account starts through the API: a program cannot open thousands of them.
CLUB_ACCOUNT = Rate("club-account", "CLUB_RATE_PER_ACCOUNT", "club_account")


def _invitation_keys(request, invitation) -> list[tuple[Rate, str, str]]:
    address = throttles.client_address(request)
    return [(INVITATION_ADDRESS, address, ""), (INVITATION, str(invitation.pk), "")]


def signup_quota(request, email: str, invitation=None) -> Quota:
    """An account asked for: per client address and per e-mail address; by an ``invitation``,
    also as an answer to it (``invitation_quota``)."""
    address = throttles.client_address(request)
    keys = [(SIGNUP_ADDRESS, address, ""), (SIGNUP_EMAIL, email_key(email), email)]
    return Quota(*keys, *(_invitation_keys(request, invitation) if invitation else ()))


def invitation_quota(request, invitation) -> Quota:
    """An invitation answered (accepted or declined): per client address and per invitation."""
    return Quota(*_invitation_keys(request, invitation))


def club_quota(user) -> Quota:
    """A club started by ``user`` (``POST /api/v1/clubs/``): per account."""
    return Quota((CLUB_ACCOUNT, f"user:{user.pk}", ""))


def api_refusal(refusal: Refusal) -> Throttled:
    """The API's 429 for ``refusal``: ``Retry-After`` from its wait, its sentence in the one
    error shape (``scoring.api.errors``)."""
    error = Throttled(wait=refusal.wait)
    error.detail = ErrorDetail(message(refusal.problem), "throttled")
    return error


def page_refusal(response, refusal: Refusal):
    """A page's answer to ``refusal`` (its sentence shown above the form): 429, Retry-After."""
    response.status_code = 429
    response["Retry-After"] = str(refusal.wait)
    return response
