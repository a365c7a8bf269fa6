"""What the competitions announce to the live screens (``scoring.live``), after commit.

- Every recorded change of a competition (``services._common.record_event``: a round drawn,
  published, changed or closed, an entry, a check-in, a fee...) is a ``competition`` event on
  the competition's channel: its ``action`` and round number, and whether the competition is
  public now. Never the event's data or reason: a spectator may hear it.
- New standings (``services.standings.store_standings``) are a ``standings`` event with their
  version; the stream server turns it into the table itself for spectators
  (``tournaments.views.live``). The apps listening (``STANDINGS_LISTENERS``: each circuit
  counting the competition, on its own channel) hear it next.
- A table's game finishing is a ``table`` event (the organizer's round page, the public round).
- A change of the round's clock (the timer, the last-hand warning, a table's extra time) is a
  ``clock`` event on each of its tables' game channels: their phones ask for the clock again.
- A round that seats players (published, or changed after publishing) tells each seated player
  with an account, on their own channel: ``table`` with the competition, round and table, the
  others at the table (``with``) and whether they deal first (``first``); so are the channels
  the apps add for the entry (``SEAT_CHANNELS``: the page of its registration link, for a
  player without an account).
"""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse

from scoring import live
from tournaments.extensions import SEAT_CHANNELS, STANDINGS_LISTENERS
from tournaments.models import Entry, Table, TableSeat

#: Changes that seat players at a published round's tables.
SEATING = {
    "publish_round",
    "swap_published",
    "replace_entry",
    "redraw_tables",
    "seat_late_entrant",
}

#: Changes of what the tables' clocks show (the timer, the last-hand warning, extra time).
CLOCK_PREFIXES = ("timer_", "clock_")


def announce_change(competition, action: str, round_=None) -> None:
    """Called inside the write's transaction; the events leave once it commits."""
    number = round_.number if round_ is not None else None

    def send() -> None:
        live.publish(
            live.competition_channel(competition.pk),
            "competition",
            {
                "id": competition.pk,
                "action": action,
                "round": number,
                "public": bool(competition.public),
            },
        )
        if action in SEATING and round_ is not None:
            announce_seats(round_.pk)
        if action.startswith(CLOCK_PREFIXES) and round_ is not None:
            announce_clock(round_.pk)

    transaction.on_commit(send)


def announce_clock(round_id: int) -> None:
    """Tell each table's phones that the round's clock changed (they ask for it again)."""
    games = Table.objects.filter(round_id=round_id).exclude(game=None)
    for game_id in games.values_list("game_id", flat=True):
        live.publish(live.game_channel(game_id), "clock", {"id": game_id, "round": round_id})


def announce_standings(competition_id: int, version: int) -> None:
    def send() -> None:
        data = {"id": competition_id, "version": version}
        live.publish(live.competition_channel(competition_id), "standings", data)
        for listener in STANDINGS_LISTENERS:
            listener(competition_id, version)

    transaction.on_commit(send)


def announce_table(game_id: int, finished: bool) -> None:
    """A competition's game changed (after commit): its table, when it finished or reopened."""
    row = (
        Table.objects.filter(game_id=game_id)
        .values("number", "round__number", "round__competition_id")
        .first()
    )
    if row is None:
        return
    live.publish(
        live.competition_channel(row["round__competition_id"]),
        "table",
        {
            "id": row["round__competition_id"],
            "round": row["round__number"],
            "table": row["number"],
            "game": game_id,
            "finished": finished,
        },
    )


def announce_seats(round_id: int) -> None:
    """Tell each seated player with an account where they sit, with whom, and whether they deal
    first (one query). The seating of a published round is what its public page shows; the
    channel is the player's own."""
    seats = list(
        TableSeat.objects.filter(table__round_id=round_id)
        .order_by("table__number", "position")
        .values(
            "table_id",
            "position",
            "table__number",
            "table__round__number",
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
        data = {
            "competition": seat["table__round__competition__name"],
            "round": seat["table__round__number"],
            "table": seat["table__number"],
            "url": url,
            "with": others,
        }
        for user_id, deals in (
            (seat["entry__player__user_id"], first),
            # A pair's partner sits two seats on: the entry's own player deals its first hand.
            (seat["entry__partner__user_id"], False),
        ):
            if user_id is not None:
                live.publish(live.user_channel(user_id), "table", data | {"first": deals})
        for channel in channels.get(seat["entry_id"], ()):
            live.publish(channel, "table", data | {"first": first})
