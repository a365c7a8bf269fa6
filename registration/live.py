"""What registration adds to the live screens (``scoring.live``): a registration's own channel,
heard by the page of its e-mailed link (a player without an account), which learns there where
its entry sits when a round seats it (``tournaments.extensions.SEAT_CHANNELS``)."""

from __future__ import annotations

from registration.models import Registration


def registration_channel(registration_id: int) -> str:
    """A registration's own channel: its e-mailed link's page (no account needed)."""
    return f"registration:{registration_id}"


def seat_channels(round_id: int) -> dict[int, list[str]]:
    """The channel of each registration whose entry is seated in the round (one query)."""
    rows = Registration.objects.filter(entry__table_seats__table__round_id=round_id)
    return {
        entry_id: [registration_channel(pk)] for entry_id, pk in rows.values_list("entry_id", "pk")
    }
