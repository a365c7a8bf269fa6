"""Money as the club keeps it: integer cents of the club's currency (``Club.currency``), shown
in the reader's language by Babel (``format_money``: "12,50 €" in Italian, "€12.50" in English)
and read from what an organizer types (``parse_money``: "12,50", "12.5", "12")."""

from __future__ import annotations

import re
from decimal import Decimal

from babel.numbers import format_currency
from django.utils.translation import get_language, to_locale

_AMOUNT = re.compile(r"^\s*(\d{1,9})(?:[.,](\d{1,2}))?\s*$")


def format_money(cents: int, currency: str, language: str | None = None) -> str:
    """``cents`` of ``currency`` written for ``language`` (the active one by default)."""
    locale = to_locale(language or get_language() or "en")
    return format_currency(Decimal(cents) / 100, currency, locale=locale)


def format_plain(cents: int, *, comma: bool = False) -> str:
    """``cents`` as a plain decimal for a CSV cell or a form field: ``1250`` → ``"12.50"``
    (``"12,50"`` with ``comma``, as Italian and French spreadsheets read it)."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}{',' if comma else '.'}{part:02d}"


def parse_money(text: str) -> int | None:
    """What an organizer typed as cents (``"12,5"`` → 1250), or None if it is not an amount
    (a negative one included)."""
    match = _AMOUNT.match(str(text))
    if match is None:
        return None
    whole, part = match.groups()
    return int(whole) * 100 + int((part or "0").ljust(2, "0"))
