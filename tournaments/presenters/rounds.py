"""A round's tables as the pages show them: whether a table is done, its seats and scores, how
far the round is, who it leaves out, the round timer, and the answer to "where do I sit?"."""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext as _

from scoring.models import GameStatus
from scoring.presenters.games import pair_sides
from tournaments import selectors
from tournaments.models import Competition, Entry, Round, Table
from tournaments.presenters.competitions import schedule_row


def table_done(table: Table) -> bool:
    return table.forfeited or (
        table.game is not None and table.game.status != GameStatus.IN_PROGRESS
    )


def schedule_progress(round_: Round, zone) -> dict:
    """A round's schedule row with how far it is: its number of tables and of tables done (its
    tables and their games loaded, ``selectors.schedule_of``)."""
    tables = list(round_.tables.all())
    return schedule_row(round_, zone) | {
        "tables": len(tables),
        "done": sum(1 for t in tables if table_done(t)),
    }


def unseated_rows(round_: Round, missing: list[Entry]) -> list[dict]:
    """The entries a drawn round leaves out (``selectors.unseated``), each with why: entered
    after the round was published, or not seated."""
    drawn_at = round_.published_at
    return [
        {
            "entry": e,
            "text": (
                _("%(name)s entered after round %(n)s was drawn and is not seated.")
                if drawn_at is not None and e.registered_at > drawn_at
                else _("%(name)s is not seated in this round.")
            )
            % {"name": e.name, "n": round_.number},
        }
        for e in missing
    ]


def timer_of(round_: Round, now: dt.datetime) -> dict:
    """The round timer at ``now``: ``state`` "idle" (not started: the round's expected
    duration), "running", "paused" or "over"; ``left`` and ``full`` in seconds; ``text`` as
    the screen shows it (h:mm:ss or mm:ss)."""
    full = round_.duration_minutes * 60
    left = round_.timer_left(now)
    if left == 0 and (round_.timer_started_at or round_.timer_remaining is not None):
        state = "over"
    elif round_.timer_started_at is not None:
        state = "running"
    elif round_.timer_remaining is not None:
        state = "paused"
    else:
        state = "idle"
    return {"state": state, "left": left, "full": full, "text": clock_text(left)}


def clock_text(seconds: int) -> str:
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def public_table(table: Table) -> dict:
    game = table.game
    seats = []
    if game is not None:
        place = {}
        if game.hand_count:
            place = {p.seat: p.place for p in game.rules.ranking(game.state())}
        seats = [
            {
                "name": s.player.display_name,
                "total": game.totals[s.index] if s.index < len(game.totals) else None,
                "place": place.get(s.index) if game.status == GameStatus.FINISHED else None,
            }
            for s in game.seats.all()
        ]
    else:
        seats = [{"name": s.entry.name, "total": None, "place": None} for s in table.seats.all()]
    # A game of pairs is shown pair against pair (partners share their side's total).
    sides = pair_sides(game, seats) if game is not None else None
    return {
        "table": table,
        "game": game,
        "seats": seats,
        "sides": sides,
        "score": match_score(game),
    }


def match_score(game) -> dict | None:
    """A match played to a number of wins (Briscola) as the screens show it: "2–1", and
    whether a deciding game (the *bella*) was needed. None for any other game."""
    score = selectors.games_score(game)
    if score is None:
        return None
    return {"text": f"{score['home']}–{score['away']}", "bella": score["bella"]}


def where_answer(competition: Competition, entry: Entry, found: dict, zone) -> dict:
    """ "Where do I sit?" answered from ``selectors.where_of``: the round being played (or the
    bye), the table, the seats (a pair's two), who deals first and who else sits there, and the
    next round."""
    playing, upcoming, seat = found["playing"], found["upcoming"], found["seat"]
    answer = {"entry": entry, "round": None, "next": None}
    if upcoming is not None:
        answer["next"] = schedule_row(upcoming, zone)
    if playing is None:
        return answer
    answer["round"] = schedule_row(playing, zone)
    if seat is None:
        answer["bye"] = True
        return answer
    table = seat.table
    others = found["table_entries"]
    n_entries = len(others)
    if competition.pairs:
        seats = [seat.position + 1, seat.position + 1 + n_entries]
    else:
        seats = [seat.position + 1]
    answer |= {
        "table": table,
        "seats": seats,
        "deals_first": seat.position == 0,
        "with": [e for e in others if e.pk != entry.pk],
        "game": table.game,
    }
    return answer
