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
  player without an account). Each such player's devices that turned notifications on are told
  too, by Web Push, in a task (``tournaments.tasks.push_seats``), when VAPID keys are
  configured.
"""

from __future__ import annotations

from django.db import transaction

from scoring import live
from scoring.services import push, queue
from tournaments.extensions import STANDINGS_LISTENERS
from tournaments.models import Table
from tournaments.selectors.seat_news import seat_news

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
            if push.enabled():
                queue.enqueue("tournaments.tasks.push_seats", round_.pk)
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
    first (``selectors.seat_news``, two queries and one per app adding channels). The seating of
    a published round is what its public page shows; the channel is the player's own, and those
    the apps add for the entry (``SEAT_CHANNELS``)."""
    for news in seat_news(round_id):
        for user_id, deals in news.users:
            live.publish(live.user_channel(user_id), "table", news.data | {"first": deals})
        for channel in news.channels:
            live.publish(channel, "table", news.data | {"first": news.first})
