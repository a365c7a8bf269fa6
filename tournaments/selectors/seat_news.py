"""What a round that seats players tells each of them (``tournaments.live.announce_seats`` on
their streams, ``tasks.push_seats`` on their phones by Web Push): one row per seat, in table
order, read in one query and one per app adding channels (``SEAT_CHANNELS``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse

from tournaments.extensions import SEAT_CHANNELS
from tournaments.models import Entry, TableSeat


@dataclass(frozen=True)
class SeatNews:
    #: ``{"competition", "round", "table", "url", "with"}``: the stream event's data.
    data: dict
    #: Whether the seat deals the table's first hand.
    first: bool
    #: ``(user id, deals first)`` of the entry's players with an account: a pair's partner sits
    #: two seats on, so only the entry's own player deals its first hand.
    users: list[tuple[int, bool]] = field(default_factory=list)
    #: The live channels the apps add for the entry (``SEAT_CHANNELS``: its registration link's
    #: page, for a player without an account).
    channels: list[str] = field(default_factory=list)
    #: When the round was published (a round unpublished and published again is news again).
    published_at: str = ""


def seat_news(round_id: int) -> list[SeatNews]:
    seats = list(
        TableSeat.objects.filter(table__round_id=round_id)
        .order_by("table__number", "position")
        .values(
            "table_id",
            "position",
            "table__number",
            "table__round__number",
            "table__round__published_at",
            "table__round__competition__name",
            "table__round__competition__slug",
            "table__round__competition__club__slug",
            "entry__player__display_name",
            "entry__partner__display_name",
            "entry_id",
            "entry__player__user_id",
            "entry__partner__user_id",
        )
    )
    channels: dict[int, list[str]] = {}
    for hook in SEAT_CHANNELS:
        for entry_id, more in hook(round_id).items():
            channels.setdefault(entry_id, []).extend(more)
    names: dict[int, list[tuple[int, str]]] = {}
    for seat in seats:
        name = Entry.name_of(
            seat["entry__player__display_name"], seat["entry__partner__display_name"]
        )
        names.setdefault(seat["table_id"], []).append((seat["position"], name))
    news = []
    for seat in seats:
        url = reverse(
            "public-round",
            args=[
                seat["table__round__competition__club__slug"],
                seat["table__round__competition__slug"],
                seat["table__round__number"],
            ],
        )
        others = [n for position, n in names[seat["table_id"]] if position != seat["position"]]
        first = seat["position"] == min(p for p, _n in names[seat["table_id"]])
        users = [
            (user_id, deals)
            for user_id, deals in (
                (seat["entry__player__user_id"], first),
                (seat["entry__partner__user_id"], False),
            )
            if user_id is not None
        ]
        published = seat["table__round__published_at"]
        news.append(
            SeatNews(
                data={
                    "competition": seat["table__round__competition__name"],
                    "round": seat["table__round__number"],
                    "table": seat["table__number"],
                    "url": url,
                    "with": others,
                },
                first=first,
                users=users,
                channels=channels.get(seat["entry_id"], []),
                published_at=published.isoformat() if published else "",
            )
        )
    return news
