"""The scoring API: the clubs a caller sees, a club's settings (its owners change them), the
games the app scores, and a club's games (a new game, optionally with its hands, is an
import)."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import RegexValidator
from django.db.models import Count
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import access, etags, rates, selectors, services
from scoring.api import inputs, outputs
from scoring.api.common import (
    ERRORS,
    Moment,
    Output,
    readable_club,
    signed_in,
    with_etag,
)
from scoring.api.errors import Refused
from scoring.api.idempotency import Idempotent
from scoring.api.pagination import Pages, page_of_queryset, page_of_rows
from scoring.api.parsers import JSONParser
from scoring.api.schema import request_example, sends
from scoring.models import GameStatus, Role, Via
from scoring.models.clubs import CURRENCIES
from scoring.rules import RULESETS, Problem, RuleViolation
from scoring.services.clubs import NAME_MAX, SLUG, SLUG_MAX

GAME_DOCUMENT_EXAMPLE = request_example(
    "Terziglio with two hands",
    {
        "ruleset": "terziglio",
        "options": {"target_score": 31},
        "players": [12, "Bruno", "Carla"],
        "hands": [
            {
                "ruleset": "terziglio",
                "dealer": 0,
                "outcome": "played",
                "soloist": 0,
                "contract": "chiamo",
                "soloist_points": 7,
            },
            {"ruleset": "terziglio", "dealer": 1, "outcome": "passed_out"},
        ],
    },
)


@extend_schema_serializer(component_name="Club")
class ClubOutput(Output):
    """A club and its settings (``club_detail``)."""

    slug = serializers.CharField()
    name = serializers.CharField()
    time_zone = serializers.CharField(help_text="An IANA time zone (Europe/Rome).")
    language = serializers.ChoiceField([code for code, _name in settings.LANGUAGES])
    results_public = serializers.BooleanField()
    currency = serializers.ChoiceField([code for code, _name in CURRENCIES])
    role = serializers.ChoiceField(
        Role.choices, allow_null=True, help_text="The caller's role in the club."
    )


def club_detail(club, role) -> dict:
    return {
        "slug": club.slug,
        "name": club.name,
        "time_zone": club.time_zone,
        "language": club.language,
        "results_public": club.results_public,
        "currency": club.currency,
        "role": role,
    }


class ClubCreate(inputs.StrictInput):
    """A new club (``services.create_club``)."""

    name = inputs.Text(single_line=True, max_length=NAME_MAX)
    slug = inputs.Text(
        single_line=True,
        max_length=SLUG_MAX,
        validators=[RegexValidator(rf"^{SLUG.pattern}$")],  # the schema's pattern
        help_text="The club's address (`/c/{slug}/`): lower-case letters and digits, words "
        "joined by `-` or `_`; it never changes.",
    )
    time_zone = inputs.Text(
        single_line=True,
        required=False,
        max_length=64,
        help_text="An IANA time zone (Europe/Rome); by default the server's.",
    )
    language = inputs.Choice([code for code, _name in settings.LANGUAGES], required=False)
    results_public = inputs.Boolean(required=False)
    currency = inputs.Choice([code for code, _name in CURRENCIES], required=False)


class ClubList(Idempotent, APIView):
    anyone_may = ("GET",)
    parser_classes = [JSONParser]
    pagination_class = Pages

    class OutputSerializer(Output):
        class Meta:
            ref_name = "ClubSummary"

        slug = serializers.CharField()
        name = serializers.CharField()
        role = serializers.CharField(allow_null=True)

    @extend_schema(
        summary="Clubs the caller can see",
        description="The caller's clubs first, then the public ones, each by name.",
        responses=OutputSerializer(many=True),
    )
    def get(self, request):
        rows = [
            {"slug": club.slug, "name": club.name, "role": role}
            for club, role in selectors.clubs_for(request.user)
        ]
        return page_of_rows(
            request,
            rows,
            key=lambda row: (row["role"] is None, row["name"], row["slug"]),
            serialize=lambda page: self.OutputSerializer(page, many=True).data,
        )

    @extend_schema(
        summary="Start a club: the caller becomes its owner",
        description="The same service and checks as the New club page: `slug` is the club's "
        "address (`/c/{slug}/`: lower-case letters, digits, `-` or `_`, at most 60), unique. "
        "Any signed-in account; at most `CLUB_RATE_PER_ACCOUNT` clubs an account (20 a day by "
        "default), then 429 with `Retry-After`. Audited in the club's history.",
        request=ClubCreate,
        examples=[request_example("A club", {"name": "Circolo Uno", "slug": "uno"})],
        extensions=sends(_201=("Location",)),
        responses={201: ClubOutput, 400: ERRORS, 401: ERRORS, 429: ERRORS},
    )
    def post(self, request):
        signed_in(request)
        serializer = ClubCreate(data=request.data)
        serializer.is_valid(raise_exception=True)
        quota = rates.club_quota(request.user)
        refusal = quota.take()
        if refusal is not None:
            raise rates.api_refusal(refusal)
        try:
            club = services.create_club(
                by=access.actor_for(request, via=Via.API), **serializer.validated_data
            )
        except BaseException:
            quota.give_back()  # nothing was made: the try does not count
            raise
        response = Response(club_detail(club, Role.OWNER), status=status.HTTP_201_CREATED)
        response["Location"] = f"/api/v1/clubs/{club.slug}/"
        return response


class ClubInput(inputs.StrictInput):
    name = inputs.Text(single_line=True, required=False, max_length=NAME_MAX)
    time_zone = inputs.Text(
        single_line=True,
        required=False,
        max_length=64,
        help_text="An IANA time zone (Europe/Rome): the club's schedules and calendars follow.",
    )
    language = inputs.Choice(
        [code for code, _name in settings.LANGUAGES],
        required=False,
        help_text="The club's e-mails, and its pages for visitors who ask for no language the "
        "site speaks.",
    )
    results_public = inputs.Boolean(required=False)
    currency = inputs.Choice(
        [code for code, _name in CURRENCIES],
        required=False,
        help_text="The currency of the competitions' fees and money prizes (ISO 4217).",
    )


class ClubDetail(Idempotent, APIView):
    anyone_may = ("GET",)
    parser_classes = [JSONParser]
    not_allowed_message = _("Only the club's owners may change its settings.")

    @extend_schema(summary="A club and its settings", responses={200: ClubOutput, 404: ERRORS})
    def get(self, request, slug: str):
        club = readable_club(request, slug)
        return Response(club_detail(club, selectors.role_of(request.user, club)))

    @extend_schema(
        summary="Change a club's settings",
        description="The same service and checks as the club's settings page: only the fields "
        "sent change; the address (`slug`) stays. Owners only; audited in the club's history.",
        request=ClubInput,
        responses={200: ClubOutput, 400: ERRORS, 403: ERRORS, 404: ERRORS},
    )
    def patch(self, request, slug: str):
        club = readable_club(request, slug)
        by = access.actor_for(request, via=Via.API)
        services.authorize_club(by, club, (Role.OWNER,))  # before the body is read
        serializer = ClubInput(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        services.update_club(club=club, by=by, **serializer.validated_data)
        return Response(club_detail(club, selectors.role_of(request.user, club)))


class RulesetList(APIView):
    anyone_may = ("GET",)
    pagination_class = Pages

    @extend_schema(
        summary="Every game the app scores, with its options and presets",
        description="With each game's hand document and options as JSON Schema (`hand_schema`, "
        "`options_schema`): the same as the `…HandRequest` components of this schema.",
        responses={200: outputs.Ruleset(many=True)},
    )
    def get(self, request):
        order = {key: index for index, key in enumerate(RULESETS)}
        return page_of_rows(
            request,
            selectors.rulesets_description(),
            key=lambda row: (order[row["key"]], row["key"]),
            serialize=list,
        )


class ClubGames(Idempotent, APIView):
    anyone_may = ("GET",)
    parser_classes = [JSONParser]
    pagination_class = Pages
    not_allowed_message = _("Only members of the club may start games.")

    class OutputSerializer(Output):
        class Meta:
            ref_name = "ClubGame"

        id = serializers.IntegerField(source="pk")
        ruleset = serializers.ChoiceField(outputs.RULESET_KEYS)
        title = serializers.CharField()
        status = serializers.ChoiceField(GameStatus.choices)
        hand_count = serializers.IntegerField()
        totals = outputs.numbers(help_text="Per seat, in seat order.")
        created_at = Moment()
        finished_at = Moment(allow_null=True)
        version = serializers.IntegerField()

    @extend_schema(
        summary="Games of a club, newest first",
        parameters=[OpenApiParameter("status", OpenApiTypes.STR, enum=GameStatus.values)],
        responses={200: OutputSerializer(many=True), 400: ERRORS, 404: ERRORS},
    )
    def get(self, request, slug: str):
        club = readable_club(request, slug)
        games = selectors.visible_games(request.user, club).annotate(n_seats=Count("seats"))
        status_ = request.query_params.get("status")
        if status_ is not None:  # given, it is one of the statuses: "" is no status either
            if status_ not in GameStatus.values:
                raise Refused.rule(
                    "status", "choice", choices=tuple(GameStatus.values), value=status_
                )
            games = games.filter(status=status_)
        return page_of_queryset(
            request,
            games,
            ordering=("-created_at", "-id"),
            serialize=lambda page: self.OutputSerializer(page, many=True).data,
        )

    @extend_schema(
        summary="Start a game (optionally with its hands: an import)",
        description="The body is a game document: `ruleset`, `options`, `players` in seat order "
        "(ids of the club's players or names; a new name becomes a new player), optional `hands`. "
        "The rules engine reads it and names every problem. `hands_need_acceptance: true` "
        "(optional): each later hand counts once a player of another side accepts it "
        "(`…/hands/{number}/accept/`).",
        request=outputs.GameImport,
        examples=[GAME_DOCUMENT_EXAMPLE],
        extensions=sends(_201=("ETag", "Location")),
        responses={201: outputs.GameAnswer, 400: ERRORS, 403: ERRORS, 404: ERRORS},
    )
    def post(self, request, slug: str):
        club = readable_club(request, slug)
        by = access.actor_for(request, via=Via.API)
        document, need = request.data, False
        if isinstance(document, dict) and "hands_need_acceptance" in document:
            document = dict(document)
            need = document.pop("hands_need_acceptance")
            if not isinstance(need, bool):
                services.authorize_club(by, club)  # an outsider learns nothing from the body
                raise RuleViolation(
                    [Problem("hands_need_acceptance", "type", {"expected": "boolean"})]
                )
        game = services.import_game(club=club, document=document, by=by, hands_need_acceptance=need)
        response = Response(selectors.game_detail(game), status=status.HTTP_201_CREATED)
        response["Location"] = f"/api/v1/games/{game.pk}/"
        return with_etag(response, etags.game_tag(game))
