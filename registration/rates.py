"""The rates of public registration (``scoring.rates``, issue 33): an anonymous registration
counts per client address, per e-mail address (the registrant's and a pair's partner's: each
is mailed) and per competition; one made signed in counts per e-mail address only (the account
was throttled when it signed up, and a club room shares one address). A refusal is counted for
the organizer's page (``services.note_refusal``)."""

from __future__ import annotations

from registration import services
from scoring import rates, throttles

ADDRESS = rates.Rate("register-address", "REGISTRATION_RATE_PER_ADDRESS", "registration_address")
EMAIL = rates.Rate("register-email", "REGISTRATION_RATE_PER_EMAIL", "registration_email")
COMPETITION = rates.Rate(
    "register-competition", "REGISTRATION_RATE_PER_COMPETITION", "registration_competition"
)
#: The organizer's page's word for each refusal.
REASONS = {ADDRESS: "address", EMAIL: "email", COMPETITION: "competition"}


def quota(request, competition, body: dict) -> rates.Quota:
    """The keys of one registration of ``competition`` with ``body`` (its name and e-mail
    addresses, as the form or the API read them)."""
    user = request.user if request.user.is_authenticated else None
    email = body.get("email") or (user.email if user is not None else "")
    keys = [
        (EMAIL, rates.email_key(address), address)
        for address in dict.fromkeys(a.strip() for a in (email, body.get("partner_email")) if a)
    ]
    if user is None:
        keys = [(ADDRESS, throttles.client_address(request), ""), *keys]
        keys.append((COMPETITION, str(competition.pk), ""))
    return rates.Quota(*keys)


def take(request, competition, body: dict) -> tuple[rates.Quota, rates.Refusal | None]:
    """Count one registration, or refuse it (then counted for the organizer's page)."""
    counted = quota(request, competition, body)
    refusal = counted.take()
    if refusal is not None:
        services.note_refusal(competition, REASONS[refusal.rate])
    return counted, refusal
