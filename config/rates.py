"""The rates of the anonymous writes that send e-mail (scoring/rates.py), from the environment.

Each is written as DRF's throttle rates are, ``<number>/<period>`` with a period of ``second``,
``minute``, ``hour`` or ``day`` (or their first letter: ``20/h``), or ``off``; a setting holds
``(number, seconds)``, or None when off. A value that does not read so stops the start.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

#: Each setting and its default: README "Configuration" says what each counts.
DEFAULTS = {
    # Public registration (registration/views.py, registration/api): per client address, per
    # e-mail address registered (the registrant's and a partner's), per competition.
    "REGISTRATION_RATE_PER_ADDRESS": "20/hour",
    "REGISTRATION_RATE_PER_EMAIL": "5/hour",
    "REGISTRATION_RATE_PER_COMPETITION": "200/hour",
    # Sign-up (/signup/): per client address, per e-mail address asked for.
    "SIGNUP_RATE_PER_ADDRESS": "10/hour",
    "SIGNUP_RATE_PER_EMAIL": "3/hour",
    # An invitation answered (/invitation/<token>/, and a sign-up by invitation): per client
    # address, per invitation.
    "INVITATION_RATE_PER_ADDRESS": "20/hour",
    "INVITATION_RATE_PER_INVITATION": "5/hour",
    # Clubs started through the API (POST /api/v1/clubs/): per account.
    "CLUB_RATE_PER_ACCOUNT": "20/day",
}

SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_RATE = re.compile(r"([0-9]{1,9})/(s|sec|second|m|min|minute|h|hour|d|day)")


def parse_rate(text: str) -> tuple[int, int] | None:
    """``(number, seconds)`` of ``20/hour``, None for ``off``; ValueError otherwise."""
    text = text.strip().lower()
    if text == "off":
        return None
    found = _RATE.fullmatch(text)
    if found is None or int(found[1]) < 1:
        raise ValueError(text)
    return int(found[1]), SECONDS[found[2][0]]


def throttle_rates(env, refuse: Callable[[str], Any]) -> dict[str, tuple[int, int] | None]:
    """Every rate setting read from ``env`` (its default when unset)."""
    rates = {}
    for name, default in DEFAULTS.items():
        raw = env.str(name, default=default)
        try:
            rates[name] = parse_rate(raw)
        except ValueError:
            refuse(f"{name} must be a rate such as {default} (or off), got {raw!r}")
    return rates
