"""The shapes of the competition API's answers: output serializers where the shape is fixed
(a competition's summary, an entry), and the round with its tables, whose figures come from
the draw as stored (``round_payload``, described for the schema by ``RoundOutput``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from scoring.api.common import ErrorSerializer, Moment, Output
from scoring.api.outputs import RULESET_KEYS, numbers
from scoring.api.schema import COMPETITION_OPTIONS
from scoring.messages import as_errors
from scoring.models import GameStatus, Role
from tournaments import selectors
from tournaments.api.common import may_manage
from tournaments.messages import DRAW_REFUSED_ADVICE
from tournaments.models import (
    STAGE_LENGTHS,
    Competition,
    EntryStatus,
    Format,
    Kind,
    RepeatObjective,
    Round,
    RoundStatus,
)
from tournaments.standings import SCHEMES, TIE_BREAKS


def _date(value: dt.date | None) -> str | None:
    return value.isoformat() if value else None


def _time(value: dt.time | None) -> str | None:
    return value.strftime("%H:%M") if value else None


def _moment(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value else None


class CompetitionSummary(Output):
    id = serializers.IntegerField(source="pk")
    club = serializers.CharField(source="club.slug")
    name = serializers.CharField()
    slug = serializers.CharField()
    kind = serializers.ChoiceField(Kind.values)
    format = serializers.ChoiceField(Format.choices)
    rulesets = serializers.ListField(child=serializers.ChoiceField(RULESET_KEYS))
    pairs = serializers.BooleanField()
    public = serializers.BooleanField()
    start_date = serializers.DateField(allow_null=True)
    end_date = serializers.DateField(allow_null=True)
    planned_rounds = serializers.IntegerField(allow_null=True)


@extend_schema_field(COMPETITION_OPTIONS)
class CompetitionOptionsField(serializers.JSONField):
    """A competition's house rules per ruleset."""


@extend_schema_field(
    {
        "type": "object",
        "nullable": True,
        "description": 'Points by place per table size: {"3": [4, 2, 0]}; null: the scheme\'s.',
        "additionalProperties": {"type": "array", "items": {"type": "number"}},
    }
)
class PlacementPointsField(serializers.JSONField):
    """Placement points per table size."""


class RoundSummary(Output):
    """A round as a competition lists it."""

    number = serializers.IntegerField()
    ruleset = serializers.ChoiceField(RULESET_KEYS)
    date = serializers.DateField(allow_null=True)
    start_time = serializers.CharField(allow_null=True, help_text="HH:MM, the club's time.")
    duration_minutes = serializers.IntegerField()
    status = serializers.ChoiceField(RoundStatus.choices)
    tables = serializers.IntegerField()
    published_at = Moment(allow_null=True)
    closed_at = Moment(allow_null=True)


@extend_schema_serializer(component_name="Competition")
class CompetitionOutput(CompetitionSummary):
    """A competition with its settings and a summary of its rounds (``competition_detail``)."""

    options = CompetitionOptionsField()
    table_size = serializers.IntegerField(allow_null=True)
    min_table_size = serializers.IntegerField(allow_null=True)
    max_table_size = serializers.IntegerField(allow_null=True)
    double_round = serializers.BooleanField()
    third_place = serializers.BooleanField()
    bracket_reset = serializers.BooleanField()
    cut_to = serializers.IntegerField(allow_null=True)
    early_rounds_hands_to_win = serializers.IntegerField(allow_null=True)
    semi_final_hands_to_win = serializers.IntegerField(allow_null=True)
    final_hands_to_win = serializers.IntegerField(allow_null=True)
    scheme = serializers.ChoiceField(list(SCHEMES))
    placement_points = PlacementPointsField(allow_null=True)
    tie_breaks = serializers.ListField(child=serializers.ChoiceField(list(TIE_BREAKS)))
    best_of = serializers.IntegerField(allow_null=True)
    min_rounds = serializers.IntegerField()
    notify_entrants = serializers.BooleanField()
    hands_must_be_accepted = serializers.BooleanField()
    description = serializers.CharField(allow_blank=True)
    created_at = Moment()
    finalized_at = Moment(allow_null=True, help_text="Null unless the results are final.")
    entries = serializers.IntegerField(help_text="How many entries, withdrawn ones included.")
    rounds = RoundSummary(many=True)
    role = serializers.ChoiceField(
        Role.choices, allow_null=True, help_text="The caller's role in the club."
    )
    can_manage = serializers.BooleanField()


def competition_detail(competition: Competition, role: str | None) -> dict[str, Any]:
    rounds = selectors.rounds_summary(competition)
    return CompetitionSummary(competition).data | {
        "options": competition.options,
        "table_size": competition.table_size,
        "min_table_size": competition.min_table_size,
        "max_table_size": competition.max_table_size,
        "double_round": competition.double_round,
        "third_place": competition.third_place,
        "bracket_reset": competition.bracket_reset,
        "cut_to": competition.cut_to,
        **{field: getattr(competition, field) for field in STAGE_LENGTHS},
        "scheme": competition.scheme,
        "placement_points": competition.placement_points,
        "tie_breaks": list(competition.tie_breaks),
        "best_of": competition.best_of,
        "min_rounds": competition.min_rounds,
        "notify_entrants": competition.notify_entrants,
        "hands_must_be_accepted": competition.hands_must_be_accepted,
        "description": competition.description,
        "created_at": _moment(competition.created_at),
        "finalized_at": _moment(competition.finalized_at),
        "entries": competition.entries.count(),
        "rounds": [
            {
                "number": r.number,
                "ruleset": r.ruleset,
                "date": _date(r.date),
                "start_time": _time(r.start_time),
                "duration_minutes": r.duration_minutes,
                "status": r.status,
                "tables": r.n_tables,
                "published_at": _moment(r.published_at),
                "closed_at": _moment(r.closed_at),
            }
            for r in rounds
        ],
        "role": role,
        "can_manage": may_manage(role),
    }


class Person(Output):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField(source="display_name")


class EntryOutput(Output):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    player = Person()
    partner = Person(allow_null=True)
    seed = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(EntryStatus.choices)
    late = serializers.BooleanField()
    registered_at = Moment()
    withdrawn_at = Moment(allow_null=True)
    etag = serializers.SerializerMethodField(
        help_text='The entry\'s ETag (`"e<entry id>.<version>"`): send it in `If-Match` to '
        "withdraw or reinstate this entry as read."
    )

    def get_etag(self, entry) -> str:
        tags = self.context.get("etags")
        tag = tags.get(entry.pk) if tags is not None else None
        return str(tag or selectors.entry_validator(entry))


class DrawProblemOutput(Output):
    """Why the last background draw of a draft round was refused; ``null`` once a draw
    succeeds (and on published rounds)."""

    at = serializers.DateTimeField(help_text="When the draw was refused.")
    asked_by = serializers.CharField(
        allow_null=True, help_text="Who asked for the draw (null: the system)."
    )
    problems = ErrorSerializer(many=True, help_text="The refusal, in the API's error shape.")
    advice = serializers.CharField(help_text="What to do, in the caller's language.")


def draw_problem(round_: Round) -> dict[str, Any] | None:
    """The round's refused background draw as the API and the round page show it."""
    refusal = selectors.draw_refusal(round_)
    if refusal is None:
        return None
    return {
        "at": refusal["at"],
        "asked_by": refusal["by_name"] or None,
        "problems": as_errors(refusal["problems"]),
        "advice": str(DRAW_REFUSED_ADVICE),
    }


class _SeatOutput(Output):
    position = serializers.IntegerField()
    entry = serializers.IntegerField()
    name = serializers.CharField()
    game_seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="The entry's seats in the table's game."
    )


class _MatchOutput(Output):
    games = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The games (hands) each side has won, in seat order: [2, 1] reads 2–1.",
    )
    finished = serializers.BooleanField()
    bella = serializers.BooleanField(
        help_text="The deciding game (the bella) was played, one win short each."
    )


class _TableGameOutput(Output):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(GameStatus.choices)
    hand_count = serializers.IntegerField()
    totals = serializers.ListField(child=serializers.IntegerField())
    match = _MatchOutput(
        allow_null=True,
        help_text="A match played to a number of wins (Briscola): its score in games.",
    )


class _TableOutput(Output):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    seats = _SeatOutput(many=True)
    game = _TableGameOutput(allow_null=True)
    forfeited = serializers.BooleanField()
    forfeit_reason = serializers.CharField(allow_blank=True)


class _ByeOutput(Output):
    entry = serializers.IntegerField()
    name = serializers.CharField()


#: How a round was drawn (``Round.method``, ``tournaments.services.draw``).
ROUND_METHODS = (
    "rotation",
    "standing",
    "rating",
    "random",
    "entered",
    "swiss",
    "knockout",
    "round_robin",
)


def _figure(help_text: str = "") -> serializers.IntegerField:
    return serializers.IntegerField(required=False, help_text=help_text)


class RepeatBounds(Output):
    fewest = serializers.IntegerField()
    spread = serializers.IntegerField()


class DrawMetrics(Output):
    """The quality figures of a draw (``services._tables.metrics_dict`` and what a draw adds)."""

    repeated_pairs = _figure("Meetings beyond a pair's first.")
    max_meetings = _figure("The most times two entries share a table.")
    byes_per_player = numbers(required=False, help_text="(fewest, most) byes of an entry.")
    first_dealer = numbers(required=False, help_text="(fewest, most) first deals of an entry.")
    sit_outs = numbers(required=False)
    lower_bound = _figure("The most rounds that can be played without any repeat.")
    perfect = serializers.BooleanField(required=False, help_text="No pair meets twice.")
    seconds = serializers.FloatField(required=False, help_text="Time spent drawing.")
    method = serializers.CharField(
        required=False, help_text="A rotation: how its schedule was built, in words."
    )
    objective = serializers.ChoiceField(RepeatObjective.choices, required=False, allow_null=True)
    bounds = RepeatBounds(required=False)
    matches = numbers(required=False, help_text="A knockout round: its bracket's match numbers.")


class RoundOutput(Output):
    """A round as every round endpoint answers it (``round_payload``)."""

    competition = serializers.IntegerField()
    number = serializers.IntegerField()
    ruleset = serializers.ChoiceField(RULESET_KEYS)
    date = serializers.DateField(allow_null=True)
    start_time = serializers.CharField(allow_null=True, help_text="HH:MM")
    duration_minutes = serializers.IntegerField()
    status = serializers.ChoiceField(RoundStatus.choices)
    published_at = serializers.DateTimeField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)
    method = serializers.ChoiceField(
        ROUND_METHODS, allow_blank=True, help_text="How the round was drawn; empty before a draw."
    )
    seed = serializers.IntegerField()
    metrics = DrawMetrics(help_text="The quality figures of the draw (`{}` before a draw).")
    tables = _TableOutput(many=True)
    byes = _ByeOutput(many=True)
    check_ins = serializers.ListField(child=serializers.IntegerField())
    draw_problem = DrawProblemOutput(
        allow_null=True,
        help_text="Why the last background draw was refused, until a draw succeeds.",
    )


def _match(game) -> dict[str, Any] | None:
    score = selectors.games_score(game)
    if score is None:
        return None
    return {
        "games": [score["home"], score["away"]],
        "finished": score["finished"],
        "bella": score["bella"],
    }


def round_payload(
    competition: Competition, round_: Round, check_ins: list[int] | None = None
) -> dict[str, Any]:
    """A round with its tables (seats in dealing order, the game of each table), byes, the
    entries checked in, and the quality figures of the draw. For Briscola pairs each entry's
    ``game_seats`` are its two players' seats in the game (0 and 2, or 1 and 3)."""
    pairs = competition.pairs
    tables = []
    for table in sorted(round_.tables.all(), key=lambda t: t.number):
        game = table.game
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        tables.append(
            {
                "id": table.pk,
                "number": table.number,
                "seats": [
                    {
                        "position": s.position,
                        "entry": s.entry_id,
                        "name": s.entry.name,
                        "game_seats": [s.position, s.position + 2] if pairs else [s.position],
                    }
                    for s in seats
                ],
                "game": None
                if game is None
                else {
                    "id": game.pk,
                    "status": game.status,
                    "hand_count": game.hand_count,
                    "totals": list(game.totals),
                    "match": _match(game),
                },
                "forfeited": table.forfeited,
                "forfeit_reason": table.forfeit_reason,
            }
        )
    return {
        "competition": competition.pk,
        "number": round_.number,
        "ruleset": round_.ruleset,
        "date": _date(round_.date),
        "start_time": _time(round_.start_time),
        "duration_minutes": round_.duration_minutes,
        "status": round_.status,
        "published_at": _moment(round_.published_at),
        "closed_at": _moment(round_.closed_at),
        "method": round_.method,
        "seed": round_.seed,
        "metrics": round_.metrics,
        "tables": tables,
        "byes": [{"entry": b.entry_id, "name": b.entry.name} for b in round_.byes.all()],
        "check_ins": sorted(
            round_.check_ins.values_list("entry_id", flat=True) if check_ins is None else check_ins
        ),
        "draw_problem": draw_problem(round_),
    }


def round_response(competition: Competition, number: int, code: int = 200) -> Response:
    round_ = selectors.round_with_tables(competition, number)
    response = Response(round_payload(competition, round_), status=code)
    if code == status.HTTP_201_CREATED:
        response["Location"] = f"/api/v1/competitions/{competition.pk}/rounds/{number}/"
    return response
