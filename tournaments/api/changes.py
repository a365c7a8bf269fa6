"""Changing a published round (``services.changes``): an absent entry replaced, the tables not
started drawn again, the round back to a draft; swapping two entries is ``rounds.RoundSwap``
(a draft's seats, or a published round's tables). Each answers with the round as it now is;
a refusal of the round's state (a hand entered, a round not being played) is a 409.

The round resource has no ETag, so these writes take no ``If-Match``: each is decided on the
rows as read under the round's lock, and a table that started meanwhile refuses it (409).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema

from scoring.api import inputs
from scoring.api.schema import request_example
from tournaments import services
from tournaments.api.common import WRITE_ERRORS
from tournaments.api.payloads import RoundOutput
from tournaments.api.rounds import ID_MAX, RoundAction
from tournaments.models import Round


class RoundReplace(RoundAction):
    class InputSerializer(inputs.StrictInput):
        absent = inputs.Integer(
            min_value=1, max_value=ID_MAX, help_text="The entry id of the player who is absent."
        )
        late = inputs.Integer(
            min_value=1,
            max_value=ID_MAX,
            required=False,
            allow_null=True,
            help_text="An active entry with no seat in this round; leave it out (or null) for "
            "a bye: the table plays with one fewer, if its game allows that many players.",
        )

    @extend_schema(
        summary="Replace an absent entry of a published round, by a late entrant or a bye",
        description="Only at a table whose game has no hand yet (409 otherwise). The game is "
        "seated again in place: its table link and PIN stay. The table's entries are e-mailed "
        "again when the competition e-mails its entrants.",
        request=InputSerializer,
        responses={200: RoundOutput, **WRITE_ERRORS},
        examples=[request_example("Zeno takes Bruno's seat", {"absent": 12, "late": 31})],
    )
    def post(self, request, competition_id: int, number: int):
        return super().post(request, competition_id, number)

    def act(self, *, round_, by, absent, late=None):
        services.replace_entry(round_=round_, absent=absent, late=late, by=by)


class RoundRedraw(RoundAction):
    class InputSerializer(inputs.StrictInput):
        seed = inputs.Integer(required=False, min_value=0, max_value=Round.SEED_MAX)

    @extend_schema(
        summary="Draw again the tables of a published round that have no hand yet",
        description="Their entries are dealt again into tables of the same sizes, the fewest "
        "repeated meetings kept; the tables with hands stay. 409 when fewer than two tables "
        "have no hand, and for a bracket or a round robin.",
        request=InputSerializer,
        responses={200: RoundOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, number: int):
        return super().post(request, competition_id, number)

    def act(self, *, round_, by, seed=None):
        services.redraw_tables(round_=round_, by=by, seed=seed)


class RoundUnpublish(RoundAction):
    class InputSerializer(inputs.StrictInput):
        reason = inputs.Text(required=False, allow_blank=True)

    @extend_schema(
        summary="Take a published round back to a draft",
        description="Only while no game of the round has a hand, no table is settled and no "
        "later round is published (409 otherwise). Its games are abandoned; its tables stay as "
        "drawn, and publishing again starts new games with new table links.",
        request=InputSerializer,
        responses={200: RoundOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, number: int):
        return super().post(request, competition_id, number)

    def act(self, *, round_, by, reason=""):
        services.unpublish_round(round_=round_, by=by, reason=reason)


class RoundMove(RoundAction):
    class InputSerializer(inputs.StrictInput):
        entry = inputs.Integer(min_value=1, max_value=ID_MAX, help_text="The entry to move.")
        table = inputs.Integer(
            min_value=0,
            max_value=10_000,
            help_text="The number of the table it goes to; 0 for a bye (in a draft only).",
        )
        seat = inputs.Integer(
            min_value=1,
            max_value=10_000,
            required=False,
            allow_null=True,
            help_text="Its seat there, 1 dealing first; one past the last seat (or left out): "
            "it joins the table. A seat taken is given up by its occupant, who takes the "
            "entry's old place.",
        )

    @extend_schema(
        summary="Move an entry to any seat of a round not started (the manual pairing editor)",
        description="A draft, or a published round between tables whose games have no hand "
        "yet (409 otherwise, and for a bracket or a round robin once published). The tables "
        "after the move must each seat a number of entries inside the competition's range, "
        "no entry twice and no withdrawn entry (400 naming `entry`, `table` or `seat`; "
        "nothing changes). The round's quality figures (`metrics`) are measured again; a "
        "published round's games are seated again in place (same table links).",
        request=InputSerializer,
        responses={200: RoundOutput, **WRITE_ERRORS},
        examples=[
            request_example("Bruno to table 2, seat 1", {"entry": 12, "table": 2, "seat": 1})
        ],
    )
    def post(self, request, competition_id: int, number: int):
        return super().post(request, competition_id, number)

    def act(self, *, round_, by, entry, table, seat=None):
        services.move_entry(round_=round_, entry=entry, table=table, seat=seat, by=by)
