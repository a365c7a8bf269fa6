"""The round's clock as a table's phone shows it: from the server's time, never the phone's.

The phone gets the server's ``now`` and the ``deadline`` (both in milliseconds since the epoch)
while the timer runs, or what is ``left`` while it waits; it counts down from its own clock
corrected by the difference between the server's ``now`` and its own at the answer
(static/js/table_clock.js). ``extra`` is the time the director gave this table only;
``last_hand`` the seconds before the end at which the clock says "last hand".
"""

from __future__ import annotations

import datetime as dt

from tournaments.models import Table
from tournaments.presenters.rounds import clock_text, timer_of


def _ms(moment: dt.datetime) -> int:
    return int(moment.timestamp() * 1000)


def clock_of(table: Table, now: dt.datetime) -> dict:
    round_ = table.round
    extra = table.extra_seconds
    timer = timer_of(round_, now)
    full = round_.duration_minutes * 60
    left = (full if round_.timer_remaining is None else round_.timer_remaining) + extra
    deadline = None
    if round_.timer_started_at is not None:
        ends = round_.timer_started_at + dt.timedelta(seconds=left)
        deadline = _ms(ends)
        left = max(0, int((ends - now).total_seconds()))
    state = timer["state"]
    if state == "over" and left > 0:
        state = "running" if deadline is not None else "paused"
    if state == "running" and left == 0:
        state = "over"
    warning = round_.last_hand_minutes
    return {
        "state": state,
        "now": _ms(now),
        "deadline": deadline,
        "left": left,
        "extra": extra,
        "extra_minutes": extra // 60,
        "text": clock_text(left),
        "last_hand": warning * 60 if warning else None,
    }
