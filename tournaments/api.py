"""The competition API under ``/api/v1/``: competitions of a club, their entries, rounds, tables
and standings, and a schedule preview.

Views translate: the request body is read strictly (a wrong type is a 400 naming the field,
before any service runs), then one service or selector is called and its answer shaped. Errors
have the scoring API's one shape, ``{"errors": [{"hand", "field", "code", "message"}]}``; a
``RuleViolation`` raised by a service becomes a 400 through ``scoring.api_errors``.

Who may do what: anyone reads a public competition, members of the club read all of its
competitions; writes need the club's owner or an organizer (the services check it again). A
refused write is a 403 where the caller may read the competition, a 404 where it may not even know
that it exists.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from contextlib import contextmanager
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.parsers import JSONParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import access
from scoring.api import ERRORS, error, parse_version, with_etag
from scoring.models import Club, Via
from scoring.rules import RuleViolation
from scoring.rules.base import Problems, is_int
from scoring.selectors import role_of
from scoring.services import MANAGERS, NotAllowed
from tournaments import selectors, services
from tournaments.models import (
    CheckIn,
    Competition,
    Entry,
    Round,
    StandingsSnapshot,
    Table,
)
from tournaments.scheduling import cli as schedule_cli

#: Limits of the schedule preview (it runs in the request).
PREVIEW_MAX_PLAYERS = 500
PREVIEW_MAX_ROUNDS = 60
PREVIEW_MAX_TABLE_SIZE = 8
MAX_SEED = 2**31 - 1  # Round.seed is a PositiveIntegerField
MAX_ENTRY_SEED = 32767  # Entry.seed is a PositiveSmallIntegerField
NAME_MAX = 120
PLAYER_NAME_MAX = 80

DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
TIME_RE = re.compile(r"\d{2}:\d{2}")
DATE_FORMAT = gettext_lazy("a date written YYYY-MM-DD")
TIME_FORMAT = gettext_lazy("a time written HH:MM")


# ---------------------------------------------------------------------------------------------
# Reading request bodies


class Body:
    """A JSON object read strictly. Each ``read`` records a problem instead of raising, so that
    every mistake of the body is reported at once by :meth:`check` (a ``RuleViolation``: 400)."""

    def __init__(self, data: Any, allowed: tuple[str, ...]):
        self.problems = Problems()
        if data is None or (hasattr(data, "keys") and not data):
            data = {}
        if not isinstance(data, dict):
            self.problems.add("document", "type", expected="object")
            self.data: dict[str, Any] = {}
            self.check()
        self.data = data
        for key in data:
            if key not in allowed:
                self.problems.add(str(key), "unknown_key")

    def check(self) -> None:
        if self.problems:
            raise RuleViolation(self.problems.items)

    def _value(self, key: str, required: bool) -> tuple[bool, Any]:
        if key not in self.data or self.data[key] is None:
            if required:
                self.problems.add(key, "required")
            return False, None
        return True, self.data[key]

    def integer(
        self,
        key: str,
        lo: int | None = None,
        hi: int | None = None,
        *,
        required: bool = False,
        default: Any = None,
    ) -> Any:
        """An integer, within ``lo … hi`` when they are given (else the service checks it)."""
        present, value = self._value(key, required)
        if not present:
            return default
        if not is_int(value):
            self.problems.add(key, "type", expected="integer")
            return default
        if lo is not None and hi is not None and not lo <= value <= hi:
            self.problems.add(key, "range", min=lo, max=hi, value=value)
            return default
        return value

    def string(
        self, key: str, *, required: bool = False, default: str = "", max_length: int = 0
    ) -> str:
        present, value = self._value(key, required)
        if not present:
            return default
        if not isinstance(value, str):
            self.problems.add(key, "type", expected="string")
            return default
        if max_length and len(value.strip()) > max_length:
            self.problems.add(key, "range", min=1, max=max_length, value=len(value.strip()))
            return default
        return value

    def boolean(self, key: str, default: bool) -> bool:
        present, value = self._value(key, False)
        if not present:
            return default
        if not isinstance(value, bool):
            self.problems.add(key, "type", expected="boolean")
            return default
        return value

    def strings(self, key: str, *, required: bool = False) -> list[str] | None:
        present, value = self._value(key, required)
        if not present:
            return None
        if not isinstance(value, list):
            self.problems.add(key, "type", expected="list")
            return None
        bad = [i for i, item in enumerate(value) if not isinstance(item, str)]
        for index in bad:
            self.problems.add(f"{key}[{index}]", "type", expected="string")
        return None if bad else value

    def integers(self, key: str, *, required: bool = True) -> list[int] | None:
        present, value = self._value(key, required)
        if not present:
            return None
        if not isinstance(value, list):
            self.problems.add(key, "type", expected="list")
            return None
        bad = [i for i, item in enumerate(value) if not is_int(item)]
        for index in bad:
            self.problems.add(f"{key}[{index}]", "type", expected="integer")
        return None if bad else value

    def player(self, key: str, *, required: bool) -> int | str | None:
        """A player of the club: an id, or a name (a new name makes a new player)."""
        present, value = self._value(key, required)
        if not present:
            return None
        if is_int(value):
            return value
        if isinstance(value, str) and value.strip():
            name = " ".join(value.split())
            if len(name) > PLAYER_NAME_MAX:
                self.problems.add(key, "range", min=1, max=PLAYER_NAME_MAX, value=len(name))
                return None
            return name
        self.problems.add(key, "type", expected="player")
        return None

    def date(self, key: str) -> dt.date | None:
        present, value = self._value(key, False)
        if not present:
            return None
        if isinstance(value, str) and DATE_RE.fullmatch(value):
            try:
                return dt.date.fromisoformat(value)
            except ValueError:
                pass
        self.problems.add(key, "type", expected=DATE_FORMAT)
        return None

    def time(self, key: str) -> dt.time | None:
        present, value = self._value(key, False)
        if not present:
            return None
        if isinstance(value, str) and TIME_RE.fullmatch(value):
            try:
                return dt.time.fromisoformat(value)
            except ValueError:
                pass
        self.problems.add(key, "type", expected=TIME_FORMAT)
        return None

    def options(self, key: str) -> dict[str, dict[str, Any]] | None:
        """House rules per ruleset: an object of objects."""
        present, value = self._value(key, False)
        if not present:
            return None
        if not isinstance(value, dict):
            self.problems.add(key, "type", expected="object")
            return None
        bad = [k for k, v in value.items() if v is not None and not isinstance(v, dict)]
        for k in bad:
            self.problems.add(f"{key}.{k}", "type", expected="object")
        return None if bad else value

    def placement_points(self, key: str) -> dict[str, list[int | float]] | None:
        """``{"3": [4, 2, 0], ...}``: a list of numbers per table size."""
        present, value = self._value(key, False)
        if not present:
            return None
        if not isinstance(value, dict):
            self.problems.add(key, "type", expected="object")
            return None
        before = len(self.problems.items)
        for size, points in value.items():
            path = f"{key}.{size}"
            if not str(size).isdigit():
                self.problems.add(path, "unknown_key")
            elif not isinstance(points, list) or not all(
                (is_int(p) or isinstance(p, float)) and abs(p) <= 1000 for p in points
            ):
                self.problems.add(path, "type", expected="list")
        return None if len(self.problems.items) > before else value


def _body(request, allowed: tuple[str, ...]) -> Body:
    return Body(request.data, allowed)


@contextmanager
def scheduler_refusals():
    """The pure scheduler refuses what it cannot seat with a ValueError (a third-place match
    with fewer than four entrants…): a 400 on ``round``, not a 500."""
    try:
        yield
    except ValueError as refused:
        raise RuleViolation(
            services.violation("round", "not_allowed", reason=str(refused)).problems
        ) from None


# ---------------------------------------------------------------------------------------------
# Who may read, and refusals


def _not_found() -> Response:
    return error(404, None, "not_found", _("Not found."))


def _forbidden() -> Response:
    return error(
        403,
        None,
        "permission_denied",
        _("Only the owner or an organizer of the club may change its competitions."),
    )


def _refusal(readable: bool) -> Response:
    """403 where the caller may read the competition (or the club's list), 404 otherwise."""
    return _forbidden() if readable else _not_found()


def _may_manage(role: str | None) -> bool:
    return role in MANAGERS


def _club(request, slug: str) -> tuple[Club | None, str | None, bool]:
    """The club, the caller's role, and whether the caller may see the club's competitions."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        return None, None, False
    role = role_of(request.user, club)
    visible = (
        role is not None
        or club.results_public
        or Competition.objects.filter(club=club, public=True).exists()
    )
    return club, role, visible


def _competition(request, competition_id: int) -> tuple[Competition | None, str | None]:
    """The competition if the caller may read it (members: all; others: public ones)."""
    competition = Competition.objects.select_related("club").filter(pk=competition_id).first()
    if competition is None:
        return None, None
    role = role_of(request.user, competition.club)
    if role is None and not competition.public:
        return None, None
    return competition, role


def _actor(request):
    return access.actor_for(request, via=Via.API)


# ---------------------------------------------------------------------------------------------
# Shapes of the answers


def _date(value: dt.date | None) -> str | None:
    return value.isoformat() if value else None


def _time(value: dt.time | None) -> str | None:
    return value.strftime("%H:%M") if value else None


def _moment(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value else None


def competition_summary(competition: Competition) -> dict[str, Any]:
    return {
        "id": competition.pk,
        "club": competition.club.slug,
        "name": competition.name,
        "slug": competition.slug,
        "kind": competition.kind,
        "format": competition.format,
        "rulesets": list(competition.rulesets),
        "pairs": competition.pairs,
        "public": competition.public,
        "start_date": _date(competition.start_date),
        "end_date": _date(competition.end_date),
        "planned_rounds": competition.planned_rounds,
    }


def competition_detail(competition: Competition, role: str | None) -> dict[str, Any]:
    rounds = competition.rounds.annotate(n_tables=Count("tables")).order_by("number")
    return competition_summary(competition) | {
        "options": competition.options,
        "table_size": competition.table_size,
        "double_round": competition.double_round,
        "third_place": competition.third_place,
        "scheme": competition.scheme,
        "placement_points": competition.placement_points,
        "tie_breaks": list(competition.tie_breaks),
        "best_of": competition.best_of,
        "min_rounds": competition.min_rounds,
        "notify_entrants": competition.notify_entrants,
        "description": competition.description,
        "created_at": _moment(competition.created_at),
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
        "can_manage": _may_manage(role),
    }


def _person(player) -> dict[str, Any] | None:
    if player is None:
        return None
    return {"id": player.pk, "name": player.display_name}


def entry_payload(entry: Entry) -> dict[str, Any]:
    return {
        "id": entry.pk,
        "name": entry.name,
        "player": _person(entry.player),
        "partner": _person(entry.partner) if entry.partner_id else None,
        "seed": entry.seed,
        "status": entry.status,
        "late": entry.late,
        "registered_at": _moment(entry.registered_at),
        "withdrawn_at": _moment(entry.withdrawn_at),
    }


def _round_with_tables(competition: Competition, number: int) -> Round | None:
    return (
        Round.objects.filter(competition=competition, number=number)
        .prefetch_related(
            "tables__game",
            "tables__seats__entry__player",
            "tables__seats__entry__partner",
            "byes__entry__player",
            "byes__entry__partner",
        )
        .first()
    )


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
    }


def _round_response(competition: Competition, number: int, code: int = 200) -> Response:
    round_ = _round_with_tables(competition, number)
    response = Response(round_payload(competition, round_), status=code)
    if code == status.HTTP_201_CREATED:
        response["Location"] = f"/api/v1/competitions/{competition.pk}/rounds/{number}/"
    return response


# ---------------------------------------------------------------------------------------------
# Schema pieces

COMPETITION = inline_serializer(
    "CompetitionSummary",
    {
        "id": serializers.IntegerField(),
        "club": serializers.CharField(),
        "name": serializers.CharField(),
        "slug": serializers.CharField(),
        "kind": serializers.CharField(),
        "format": serializers.CharField(),
        "rulesets": serializers.ListField(child=serializers.CharField()),
        "pairs": serializers.BooleanField(),
        "public": serializers.BooleanField(),
        "start_date": serializers.DateField(allow_null=True),
        "end_date": serializers.DateField(allow_null=True),
        "planned_rounds": serializers.IntegerField(allow_null=True),
    },
    many=True,
)
COMPETITION_CREATE = inline_serializer(
    "CompetitionCreate",
    {
        "name": serializers.CharField(max_length=NAME_MAX),
        "slug": serializers.CharField(required=False),
        "kind": serializers.ChoiceField(["tournament", "league"], required=False),
        "format": serializers.ChoiceField(
            ["rotation", "swiss", "round_robin", "knockout", "club_night"], required=False
        ),
        "rulesets": serializers.ListField(child=serializers.CharField()),
        "options": serializers.DictField(
            child=serializers.DictField(), required=False, help_text="House rules per ruleset."
        ),
        "table_size": serializers.IntegerField(required=False, allow_null=True),
        "planned_rounds": serializers.IntegerField(required=False, allow_null=True),
        "double_round": serializers.BooleanField(required=False),
        "third_place": serializers.BooleanField(required=False),
        "scheme": serializers.ChoiceField(
            ["placement", "game_score", "matches_won"], required=False
        ),
        "placement_points": serializers.DictField(
            child=serializers.ListField(child=serializers.FloatField()),
            required=False,
            allow_null=True,
            help_text='Points by place per table size: {"3": [4, 2, 0]}.',
        ),
        "tie_breaks": serializers.ListField(child=serializers.CharField(), required=False),
        "best_of": serializers.IntegerField(required=False, allow_null=True),
        "min_rounds": serializers.IntegerField(required=False),
        "start_date": serializers.DateField(required=False, allow_null=True),
        "end_date": serializers.DateField(required=False, allow_null=True),
        "public": serializers.BooleanField(required=False),
        "notify_entrants": serializers.BooleanField(required=False),
        "description": serializers.CharField(required=False),
    },
)
ENTRY = inline_serializer(
    "CompetitionEntry",
    {
        "id": serializers.IntegerField(),
        "name": serializers.CharField(),
        "player": serializers.DictField(),
        "partner": serializers.DictField(allow_null=True),
        "seed": serializers.IntegerField(allow_null=True),
        "status": serializers.ChoiceField(["active", "withdrawn"]),
        "late": serializers.BooleanField(),
        "registered_at": serializers.DateTimeField(),
        "withdrawn_at": serializers.DateTimeField(allow_null=True),
    },
)
ENTRY_CREATE = inline_serializer(
    "CompetitionEntryCreate",
    {
        "player": serializers.JSONField(help_text="A player's id, or a name (new or existing)."),
        "partner": serializers.JSONField(required=False, help_text="Briscola pairs: the partner."),
        "seed": serializers.IntegerField(required=False, min_value=1, max_value=MAX_ENTRY_SEED),
    },
)
ENTRIES = type(ENTRY)(many=True)
REASON = inline_serializer("CompetitionReason", {"reason": serializers.CharField(required=False)})
ROUND_CREATE = inline_serializer(
    "CompetitionRoundCreate",
    {
        "date": serializers.CharField(required=False, help_text="YYYY-MM-DD"),
        "start_time": serializers.CharField(required=False, help_text="HH:MM"),
        "duration_minutes": serializers.IntegerField(required=False, min_value=10, max_value=1440),
        "ruleset": serializers.CharField(required=False),
    },
)
CHECK_INS = inline_serializer(
    "CompetitionCheckIns",
    {"entries": serializers.ListField(child=serializers.IntegerField())},
)
GENERATE = inline_serializer(
    "CompetitionGenerate",
    {
        "seed": serializers.IntegerField(required=False, min_value=0, max_value=MAX_SEED),
        "method": serializers.ChoiceField(
            choices=["rotation", "standing"],
            required=False,
            help_text="Club nights only: seat players to meet new opponents (rotation) or with "
            "players of similar standing (standing).",
        ),
    },
)
SWAP = inline_serializer(
    "CompetitionSwap", {"a": serializers.IntegerField(), "b": serializers.IntegerField()}
)
FORFEIT = inline_serializer(
    "CompetitionForfeit",
    {
        "reason": serializers.CharField(),
        "points": serializers.DictField(
            child=serializers.DecimalField(max_digits=8, decimal_places=2),
            required=False,
            help_text="Points given to entries of the table, by entry id.",
        ),
    },
)
SCHEDULE_REQUEST = inline_serializer(
    "SchedulePreviewRequest",
    {
        "players": serializers.IntegerField(min_value=2, max_value=PREVIEW_MAX_PLAYERS),
        "table_size": serializers.IntegerField(min_value=2, max_value=PREVIEW_MAX_TABLE_SIZE),
        "rounds": serializers.IntegerField(min_value=1, max_value=PREVIEW_MAX_ROUNDS),
        "format": serializers.ChoiceField(list(schedule_cli.FORMATS), required=False),
        "seed": serializers.IntegerField(required=False, min_value=0, max_value=MAX_SEED),
    },
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="The ETag of the standings last read: 304 while they have not changed.",
)
WRITE_ERRORS = {400: ERRORS, 403: ERRORS, 404: ERRORS}


# ---------------------------------------------------------------------------------------------
# Competitions


class ClubCompetitions(APIView):
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Competitions of a club",
        description="Members see every competition of the club, others the public ones.",
        responses={200: COMPETITION, 404: ERRORS},
    )
    def get(self, request, slug: str):
        club, role, visible = _club(request, slug)
        if club is None or not visible:
            return _not_found()
        competitions = Competition.objects.filter(club=club).select_related("club")
        if role is None:
            competitions = competitions.filter(public=True)
        return Response([competition_summary(c) for c in competitions])

    @extend_schema(
        summary="Create a league or a tournament",
        description="Owners and organizers of the club. Every bad field is named in the 400.",
        request=COMPETITION_CREATE,
        responses={201: OpenApiTypes.OBJECT, **WRITE_ERRORS},
        examples=[
            OpenApiExample(
                "A Terziglio tournament of four rounds",
                value={
                    "name": "Torneo di primavera",
                    "rulesets": ["terziglio"],
                    "format": "rotation",
                    "planned_rounds": 4,
                    "start_date": "2026-04-11",
                },
            )
        ],
    )
    def post(self, request, slug: str):
        club, role, visible = _club(request, slug)
        if club is None:
            return _not_found()
        if not _may_manage(role):
            return _refusal(visible)
        body = _body(
            request,
            (
                "name",
                "slug",
                "kind",
                "format",
                "rulesets",
                "options",
                "table_size",
                "planned_rounds",
                "double_round",
                "third_place",
                "scheme",
                "placement_points",
                "tie_breaks",
                "best_of",
                "min_rounds",
                "start_date",
                "end_date",
                "public",
                "notify_entrants",
                "description",
            ),
        )
        fields: dict[str, Any] = {
            "name": body.string("name", required=True, max_length=NAME_MAX),
            "slug": body.string("slug", max_length=60),
            "kind": body.string("kind", default="tournament"),
            "format": body.string("format", default="rotation"),
            "rulesets": body.strings("rulesets", required=True) or [],
            "options": body.options("options"),
            "table_size": body.integer("table_size"),
            "planned_rounds": body.integer("planned_rounds"),
            "double_round": body.boolean("double_round", False),
            "third_place": body.boolean("third_place", False),
            "scheme": body.string("scheme", default="placement"),
            "placement_points": body.placement_points("placement_points"),
            "tie_breaks": body.strings("tie_breaks"),
            "best_of": body.integer("best_of"),
            "min_rounds": body.integer("min_rounds", default=0),
            "start_date": body.date("start_date"),
            "end_date": body.date("end_date"),
            "public": body.boolean("public", True),
            "notify_entrants": body.boolean("notify_entrants", False),
            "description": body.string("description"),
        }
        body.check()
        try:
            competition = services.create_competition(club=club, by=_actor(request), **fields)
        except NotAllowed:
            return _refusal(visible)
        response = Response(competition_detail(competition, role), status=status.HTTP_201_CREATED)
        response["Location"] = f"/api/v1/competitions/{competition.pk}/"
        return response


class CompetitionDetail(APIView):
    @extend_schema(
        summary="A competition, with a summary of its rounds",
        responses={200: OpenApiTypes.OBJECT, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, role = _competition(request, competition_id)
        if competition is None:
            return _not_found()
        return Response(competition_detail(competition, role))


class Entries(APIView):
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Entries of a competition (seed order)",
        responses={200: ENTRIES, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = _competition(request, competition_id)
        if competition is None:
            return _not_found()
        return Response([entry_payload(e) for e in selectors.entries_of(competition)])

    @extend_schema(
        summary="Enter a player (or a pair)",
        description="`player` (and `partner` for Briscola pairs) is the id of a player of the "
        "club or a name: a new name becomes a new player. After the first round is published the "
        "entry is `late`.",
        request=ENTRY_CREATE,
        responses={201: ENTRY, **WRITE_ERRORS},
        examples=[
            OpenApiExample("An existing player", value={"player": 12}),
            OpenApiExample("A new pair", value={"player": "Anna", "partner": "Bruno", "seed": 1}),
        ],
    )
    def post(self, request, competition_id: int):
        competition, role = _competition(request, competition_id)
        if competition is None:
            return _not_found()
        if not _may_manage(role):
            return _forbidden()
        body = _body(request, ("player", "partner", "seed"))
        player = body.player("player", required=True)
        partner = body.player("partner", required=False)
        seed = body.integer("seed", 1, MAX_ENTRY_SEED)
        body.check()
        try:
            entry = services.add_entry(
                competition=competition,
                player=player,
                partner=partner,
                seed=seed,
                by=_actor(request),
            )
        except NotAllowed:
            return _forbidden()
        entry = Entry.objects.select_related("player", "partner").get(pk=entry.pk)
        return Response(entry_payload(entry), status=status.HTTP_201_CREATED)


class EntryWithdraw(APIView):
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Withdraw an entry",
        description="Its results stay; it is no longer seated, and the draft rounds it was "
        "seated in are drawn again without it.",
        request=REASON,
        responses={200: ENTRY, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, entry_id: int):
        competition, role = _competition(request, competition_id)
        if competition is None:
            return _not_found()
        entry = (
            Entry.objects.select_related("player", "partner", "competition__club")
            .filter(pk=entry_id, competition=competition)
            .first()
        )
        if entry is None:
            return _not_found()
        if not _may_manage(role):
            return _forbidden()
        body = _body(request, ("reason",))
        reason = body.string("reason")
        body.check()
        try:
            # One transaction: if the draft rounds cannot be drawn again without the entry, the
            # 400 says so and the entry stays (the service commits the withdrawal first).
            with transaction.atomic(), scheduler_refusals():
                services.withdraw_entry(entry=entry, by=_actor(request), reason=reason.strip())
        except NotAllowed:
            return _forbidden()
        entry.refresh_from_db()
        return Response(entry_payload(entry))


# ---------------------------------------------------------------------------------------------
# Rounds


class Rounds(APIView):
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Rounds (or club nights) of a competition, with their tables",
        operation_id="v1_competitions_rounds_list",
        responses={200: OpenApiTypes.OBJECT, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = _competition(request, competition_id)
        if competition is None:
            return _not_found()
        present: dict[int, list[int]] = defaultdict(list)
        for round_id, entry_id in CheckIn.objects.filter(
            round__competition=competition
        ).values_list("round_id", "entry_id"):
            present[round_id].append(entry_id)
        return Response(
            [round_payload(competition, r, present[r.pk]) for r in selectors.rounds_of(competition)]
        )

    @extend_schema(
        summary="Add a round",
        description="`date` is `YYYY-MM-DD`, `start_time` `HH:MM`; `ruleset` defaults to the "
        "competition's first game.",
        request=ROUND_CREATE,
        responses={201: OpenApiTypes.OBJECT, **WRITE_ERRORS},
        examples=[
            OpenApiExample(
                "A Saturday afternoon",
                value={"date": "2026-04-11", "start_time": "15:30", "duration_minutes": 120},
            )
        ],
    )
    def post(self, request, competition_id: int):
        competition, role = _competition(request, competition_id)
        if competition is None:
            return _not_found()
        if not _may_manage(role):
            return _forbidden()
        body = _body(request, ("date", "start_time", "duration_minutes", "ruleset"))
        fields = {
            "date": body.date("date"),
            "start_time": body.time("start_time"),
            "duration_minutes": body.integer("duration_minutes", 10, 1440, default=90),
            "ruleset": body.string("ruleset") or None,
        }
        body.check()
        try:
            round_ = services.add_round(competition=competition, by=_actor(request), **fields)
        except NotAllowed:
            return _forbidden()
        return _round_response(competition, round_.number, status.HTTP_201_CREATED)


def _round_of(request, competition_id: int, number: int):
    """(competition, role, round) or a 404 response."""
    competition, role = _competition(request, competition_id)
    if competition is None:
        return None, None, None, _not_found()
    round_ = (
        Round.objects.select_related("competition__club")
        .filter(competition=competition, number=number)
        .first()
    )
    if round_ is None:
        return None, None, None, _not_found()
    return competition, role, round_, None


class RoundDetail(APIView):
    parser_classes = [JSONParser]

    @extend_schema(
        summary="A round: tables with their seats and games, byes, check-ins, quality figures",
        responses={200: OpenApiTypes.OBJECT, 404: ERRORS},
    )
    def get(self, request, competition_id: int, number: int):
        competition, _role, _round, refused = _round_of(request, competition_id, number)
        if refused:
            return refused
        return _round_response(competition, number)

    @extend_schema(
        summary="Reschedule a round",
        description="Only the fields sent change: `date` (`YYYY-MM-DD`) and `start_time` "
        "(`HH:MM`), `null` to clear them; `duration_minutes`; `ruleset` while the round is a "
        "draft.",
        request=ROUND_CREATE,
        responses={200: OpenApiTypes.OBJECT, **WRITE_ERRORS},
        examples=[OpenApiExample("Moved to 21:00", value={"start_time": "21:00"})],
    )
    def patch(self, request, competition_id: int, number: int):
        competition, role, round_, refused = _round_of(request, competition_id, number)
        if refused:
            return refused
        if not _may_manage(role):
            return _forbidden()
        body = _body(request, ("date", "start_time", "duration_minutes", "ruleset"))
        changes: dict[str, Any] = {}
        for key, read in (("date", body.date), ("start_time", body.time)):
            if key in body.data:
                changes[key] = read(key)
        if "duration_minutes" in body.data:
            changes["duration_minutes"] = body.integer("duration_minutes", 10, 1440, required=True)
        if "ruleset" in body.data:
            changes["ruleset"] = body.string("ruleset", required=True)
        body.check()
        try:
            services.update_round(round_=round_, by=_actor(request), **changes)
        except NotAllowed:
            return _forbidden()
        return _round_response(competition, number)


class RoundAction(APIView):
    """A write on one round; subclasses read the body and call the service."""

    parser_classes = [JSONParser]
    allowed: tuple[str, ...] = ()

    def act(self, round_: Round, body: Body, by) -> None:  # pragma: no cover
        raise NotImplementedError

    def post(self, request, competition_id: int, number: int):
        competition, role, round_, refused = _round_of(request, competition_id, number)
        if refused:
            return refused
        if not _may_manage(role):
            return _forbidden()
        body = _body(request, self.allowed)
        try:
            self.act(round_, body, _actor(request))
        except NotAllowed:
            return _forbidden()
        return _round_response(competition, number)


class RoundCheckIns(RoundAction):
    allowed = ("entries",)

    @extend_schema(
        summary="Who is present (only they are seated when the round is drawn)",
        request=CHECK_INS,
        responses={200: OpenApiTypes.OBJECT, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, number: int):
        return super().post(request, competition_id, number)

    def act(self, round_, body, by):
        entries = body.integers("entries")
        body.check()
        services.set_check_ins(round_=round_, entries=entries, by=by)


class RoundGenerate(RoundAction):
    allowed = ("seed", "method")

    @extend_schema(
        summary="Draw the tables of a draft round",
        description="Rotation and round robin plan every draft round at once; Swiss rounds, "
        "club nights and knockout rounds are drawn from the results so far. The same `seed` "
        "gives the same draw.",
        request=GENERATE,
        responses={200: OpenApiTypes.OBJECT, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, number: int):
        return super().post(request, competition_id, number)

    def act(self, round_, body, by):
        seed = body.integer("seed", 0, MAX_SEED)
        method = body.string("method") or None
        body.check()
        with scheduler_refusals():
            services.generate_round(round_=round_, by=by, seed=seed, method=method)


class RoundSwap(RoundAction):
    allowed = ("a", "b")

    @extend_schema(
        summary="Swap two entries in a draft round (seats, tables, or a seat and a bye)",
        request=SWAP,
        responses={200: OpenApiTypes.OBJECT, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, number: int):
        return super().post(request, competition_id, number)

    def act(self, round_, body, by):
        a = body.integer("a", 1, 2**63 - 1, required=True)
        b = body.integer("b", 1, 2**63 - 1, required=True)
        body.check()
        services.swap_in_round(round_=round_, a=a, b=b, by=by)


class RoundPublish(RoundAction):
    @extend_schema(
        summary="Publish a draft round: a game per table, the round becomes public",
        request=None,
        responses={200: OpenApiTypes.OBJECT, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, number: int):
        return super().post(request, competition_id, number)

    def act(self, round_, body, by):
        body.check()
        services.publish_round(round_=round_, by=by)


class RoundClose(RoundAction):
    @extend_schema(
        summary="Close a round once every table's game is finished or forfeited",
        request=None,
        responses={200: OpenApiTypes.OBJECT, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, number: int):
        return super().post(request, competition_id, number)

    def act(self, round_, body, by):
        body.check()
        services.close_round(round_=round_, by=by)


class TableForfeit(APIView):
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Settle a table that cannot finish",
        description="The table's game is abandoned (its hands stay readable); `points` gives "
        "entries of the table points instead, by entry id, with the `reason` (required).",
        request=FORFEIT,
        responses={200: OpenApiTypes.OBJECT, **WRITE_ERRORS},
        examples=[
            OpenApiExample(
                "A player left", value={"reason": "Bruno was taken ill", "points": {"41": 2}}
            )
        ],
    )
    def post(self, request, competition_id: int, table_id: int):
        competition, role = _competition(request, competition_id)
        if competition is None:
            return _not_found()
        table = (
            Table.objects.select_related("round__competition__club", "game")
            .filter(pk=table_id, round__competition=competition)
            .first()
        )
        if table is None:
            return _not_found()
        if not _may_manage(role):
            return _forbidden()
        body = _body(request, ("reason", "points"))
        reason = body.string("reason", required=True)
        points = body.data.get("points")
        if points is not None:
            if not isinstance(points, dict):
                body.problems.add("points", "type", expected="object")
            else:
                for key in points:
                    if not str(key).isdigit():
                        body.problems.add(f"points.{key}", "type", expected="integer")
        body.check()
        try:
            services.forfeit_table(table=table, by=_actor(request), reason=reason, points=points)
        except NotAllowed:
            return _forbidden()
        return _round_response(competition, table.round.number)


# ---------------------------------------------------------------------------------------------
# Standings


class Standings(APIView):
    @extend_schema(
        summary="Standings of a competition",
        description="Recomputed from the games whenever one changes and kept as a snapshot; the "
        "ETag is the snapshot's version: send it in `If-None-Match` to poll cheaply (304 while "
        "nothing changed).",
        parameters=[IF_NONE_MATCH],
        responses={200: OpenApiTypes.OBJECT, 304: None, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = _competition(request, competition_id)
        if competition is None:
            return _not_found()
        snapshot = StandingsSnapshot.objects.filter(competition=competition).first()
        if snapshot is None:
            services.store_standings(competition=competition)
            snapshot = StandingsSnapshot.objects.get(competition=competition)
        if parse_version(request.headers.get("If-None-Match")) == snapshot.version:
            return with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), snapshot.version)
        data = selectors.labelled(snapshot.data) | {
            "version": snapshot.version,
            "computed_at": _moment(snapshot.computed_at),
        }
        return with_etag(Response(data), snapshot.version)


# ---------------------------------------------------------------------------------------------
# Schedule preview


class SchedulePreview(APIView):
    parser_classes = [JSONParser]
    # Pure computation, but up to a few seconds of it: for signed-in users (organizers trying
    # sizes before they start), not for anyone on the internet.
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Preview a schedule (nothing is stored)",
        description="Players are numbered 0 … players-1. The answer is "
        '`{"rounds": [[[seat-ordered players of a table], …], …], "byes": [[…], …], '
        '"metrics": {"repeated_pairs", "max_meetings", "lower_bound", "perfect", '
        '"byes_per_player", "first_dealer", "seconds", "method"}}`. '
        f"At most {PREVIEW_MAX_PLAYERS} players and {PREVIEW_MAX_ROUNDS} rounds; a round robin "
        "is played at tables of 2. Signed-in callers only.",
        request=SCHEDULE_REQUEST,
        responses={200: OpenApiTypes.OBJECT, 400: ERRORS, 403: ERRORS},
        examples=[
            OpenApiExample(
                "13 players at tables of 3",
                value={"players": 13, "table_size": 3, "rounds": 4, "format": "rotation"},
            )
        ],
    )
    def post(self, request):
        body = _body(request, ("players", "table_size", "rounds", "format", "seed"))
        players = body.integer("players", 2, PREVIEW_MAX_PLAYERS, required=True)
        size = body.integer("table_size", 2, PREVIEW_MAX_TABLE_SIZE, required=True)
        rounds = body.integer("rounds", 1, PREVIEW_MAX_ROUNDS, required=True)
        fmt = body.string("format", default="rotation")
        seed = body.integer("seed", 0, MAX_SEED, default=0)
        if fmt and fmt not in schedule_cli.FORMATS:
            body.problems.add("format", "choice", choices=schedule_cli.FORMATS, value=fmt)
        if players is not None and size is not None and players < size:
            body.problems.add("players", "range", min=size, max=PREVIEW_MAX_PLAYERS, value=players)
        if fmt == "round_robin" and size not in (None, 2):
            body.problems.add("table_size", "choice", choices=(2,), value=size)
        body.check()
        try:
            data = schedule_cli.build(players, size, rounds, fmt, seed)
        except ValueError as refused:  # a case the checks above did not foresee
            return error(400, None, "invalid", str(refused))
        return Response(data)


__all__ = [
    "ClubCompetitions",
    "CompetitionDetail",
    "Entries",
    "EntryWithdraw",
    "RoundCheckIns",
    "RoundClose",
    "RoundDetail",
    "RoundGenerate",
    "RoundPublish",
    "RoundSwap",
    "Rounds",
    "SchedulePreview",
    "Standings",
    "TableForfeit",
]
