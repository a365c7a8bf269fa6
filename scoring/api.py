"""The scoring API under ``/api/v1/``: clubs, rulesets, games and their hands.

Views translate: request in, one selector or service call, response out. Errors have one shape,
``{"errors": [{"hand", "field", "code", "message"}]}`` (see ``scoring.api_errors``).

Hands are entered with an ``Idempotency-Key`` header: a phone on club Wi-Fi may resend, and the
resend gets the first answer back. Corrections carry the hand's version in ``If-Match``; the
version is the hand's ``ETag``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.parsers import JSONParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import access, selectors, services
from scoring.models import Club, Game, Hand, Via

ERRORS = inline_serializer(
    "Errors",
    {
        "errors": serializers.ListField(
            child=inline_serializer(
                "Error",
                {
                    "hand": serializers.IntegerField(allow_null=True),
                    "field": serializers.CharField(allow_null=True),
                    "code": serializers.CharField(),
                    "message": serializers.CharField(),
                },
            )
        )
    },
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description="A key the client makes for this entry (e.g. a UUID). A resend with the same key and "
    "body returns the first answer and stores nothing; the same key with another body is refused (422).",
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description="The hand's version as read (its ETag). A stale version gives 412, none 428.",
)


def error(status_code: int, field: str | None, code: str, message: str, **extra: Any) -> Response:
    return Response(
        {"errors": [{"hand": None, "field": field, "code": code, "message": message} | extra]},
        status=status_code,
    )


def not_allowed(request, game: Game | None = None, role: str | None = None) -> Response:
    """403 where the caller may read the game, 404 where it may not even know it exists."""
    if game is not None and access.can_read_game(request, game, role):
        return error(403, None, "permission_denied", _("You may not change this game."))
    return error(404, None, "not_found", _("Not found."))


def parse_version(header: str | None) -> int | None:
    if not header:
        return None
    value = header.strip().removeprefix("W/").strip('"')
    return int(value) if value.isdigit() else -1


def with_etag(response: Response, version: int) -> Response:
    response["ETag"] = f'"{version}"'
    return response


class ClubList(APIView):
    @extend_schema(
        summary="Clubs the caller can see",
        responses=inline_serializer(
            "Club",
            {
                "slug": serializers.CharField(),
                "name": serializers.CharField(),
                "role": serializers.CharField(allow_null=True),
            },
            many=True,
        ),
    )
    def get(self, request):
        return Response(
            [
                {"slug": club.slug, "name": club.name, "role": role}
                for club, role in selectors.clubs_for(request.user)
            ]
        )


class RulesetList(APIView):
    @extend_schema(
        summary="Every game the app scores, with its options and presets",
        responses=OpenApiTypes.OBJECT,
    )
    def get(self, request):
        return Response(selectors.rulesets_description())


GAME_DOCUMENT_EXAMPLE = OpenApiExample(
    "Terziglio with two hands",
    value={
        "ruleset": "terziglio",
        "options": {"target_score": 31},
        "players": [12, "Bruno", "Carla"],
        "hands": [
            {
                "dealer": 0,
                "outcome": "played",
                "soloist": 0,
                "contract": "chiamo",
                "soloist_points": 7,
            },
            {"dealer": 1, "outcome": "passed_out"},
        ],
    },
)


class ClubGames(APIView):
    parser_classes = [JSONParser]

    def club(self, request, slug: str) -> tuple[Club, str | None]:
        club = get_object_or_404(Club, slug=slug)
        role = selectors.role_of(request.user, club)
        return club, role

    @extend_schema(
        summary="Games of a club",
        parameters=[
            OpenApiParameter(
                "status", OpenApiTypes.STR, enum=["in_progress", "finished", "abandoned"]
            )
        ],
        responses=OpenApiTypes.OBJECT,
    )
    def get(self, request, slug: str):
        club, _role = self.club(request, slug)
        if not access.can_read_club(request, club, _role):
            return error(404, None, "not_found", _("Not found."))
        games = selectors.visible_games(request.user, club).annotate(n_seats=Count("seats"))
        if request.query_params.get("status"):
            games = games.filter(status=request.query_params["status"])
        games = games[:200]
        return Response(
            [
                {
                    "id": g.pk,
                    "ruleset": g.ruleset,
                    "title": g.title,
                    "status": g.status,
                    "hand_count": g.hand_count,
                    "totals": g.totals,
                    "created_at": g.created_at.isoformat(),
                    "finished_at": g.finished_at.isoformat() if g.finished_at else None,
                    "version": g.version,
                }
                for g in games
            ]
        )

    @extend_schema(
        summary="Start a game (optionally with its hands: an import)",
        description="The body is a game document: `ruleset`, `options`, `players` in seat order "
        "(ids of the club's players or names; a new name becomes a new player), optional `hands`.",
        request=OpenApiTypes.OBJECT,
        examples=[GAME_DOCUMENT_EXAMPLE],
        responses={201: OpenApiTypes.OBJECT, 400: ERRORS, 403: ERRORS, 404: ERRORS},
    )
    def post(self, request, slug: str):
        club, role = self.club(request, slug)
        by = access.actor_for(request, via=Via.API)
        try:
            game = services.import_game(club=club, document=request.data, by=by)
        except services.NotAllowed:
            if access.can_read_club(request, club, role):
                return error(
                    403, None, "permission_denied", _("Only members of the club may start games.")
                )
            return error(404, None, "not_found", _("Not found."))
        response = Response(selectors.game_detail(game), status=status.HTTP_201_CREATED)
        response["Location"] = f"/api/v1/games/{game.pk}/"
        return with_etag(response, game.version)


def readable_game(request, game_id: int) -> tuple[Game | None, str | None]:
    game = Game.objects.select_related("club").filter(pk=game_id).first()
    if game is None:
        return None, None
    role = selectors.role_of(request.user, game.club)
    if not access.can_read_game(request, game, role):
        return None, role
    return game, role


class GameDetail(APIView):
    @extend_schema(
        summary="A scored game",
        description="The shape of `manage.py score --json` plus `id`, `club`, `version`, `seats`. "
        "Send `If-None-Match` with the last ETag to poll cheaply (304 when nothing changed).",
        responses={200: OpenApiTypes.OBJECT, 304: None, 404: ERRORS},
    )
    def get(self, request, game_id: int):
        game, _role = readable_game(request, game_id)
        if game is None:
            return error(404, None, "not_found", _("Not found."))
        if parse_version(request.headers.get("If-None-Match")) == game.version:
            return with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), game.version)
        return with_etag(Response(selectors.game_detail(game)), game.version)


class GameExport(APIView):
    @extend_schema(
        summary="The game document (import/export format)", responses=OpenApiTypes.OBJECT
    )
    def get(self, request, game_id: int):
        game, _role = readable_game(request, game_id)
        if game is None:
            return error(404, None, "not_found", _("Not found."))
        return Response(selectors.export_game(game))


def _reason(request) -> str:
    data = request.data if isinstance(request.data, dict) else {}
    reason = data.get("reason", request.query_params.get("reason", ""))
    return reason if isinstance(reason, str) else ""


def _service_call(request, game_id: int, call):
    """Run a write and translate its refusals; the service authorises the caller."""
    try:
        return call()
    except Game.DoesNotExist:
        return error(404, None, "not_found", _("Not found."))
    except services.NotAllowed:
        game, role = readable_game(request, game_id)
        return not_allowed(request, game, role)
    except services.HandNotFound as missing:
        return error(
            404,
            "number",
            "not_found",
            _("This game has no hand %(number)s.") % {"number": missing.number},
        )
    except services.VersionConflict as conflict:
        return error(
            412,
            "If-Match",
            "stale",
            _(
                "Hand %(number)s was changed by someone else (now version %(version)s): reload it and try again."
            )
            % {"number": conflict.number, "version": conflict.current},
            current_version=conflict.current,
        )


class GameHands(APIView):
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Enter the next hand",
        description="The body is the hand document of the game's ruleset (see `/api/v1/rulesets/`).",
        parameters=[IDEMPOTENCY_KEY],
        request=OpenApiTypes.OBJECT,
        examples=[OpenApiExample("Briscola", value={"dealer": 1, "points": [67, 53]})],
        responses={201: OpenApiTypes.OBJECT, 400: ERRORS, 403: ERRORS, 404: ERRORS, 422: ERRORS},
    )
    def post(self, request, game_id: int):
        key = request.headers.get("Idempotency-Key", "").strip()
        if not key or len(key) > 128:
            return error(
                400,
                "Idempotency-Key",
                "required",
                _(
                    "Send an Idempotency-Key header (up to 128 characters) with every hand, e.g. a UUID."
                ),
            )
        game_stub = Game(pk=game_id)
        by = access.actor_for(request, game_stub, via=Via.API)

        def record():
            try:
                return services.record_hand(
                    game=game_id, document=request.data, by=by, idempotency_key=key
                )
            except services.IdempotencyConflict:
                return error(
                    422,
                    "Idempotency-Key",
                    "reused",
                    _("This Idempotency-Key was already used for a different hand."),
                )

        result = _service_call(request, game_id, record)
        if isinstance(result, Response):
            return result
        response = Response(result.payload, status=status.HTTP_201_CREATED)
        response["Location"] = f"/api/v1/games/{game_id}/hands/{result.payload['number']}/"
        if result.replayed:
            response["Idempotent-Replayed"] = "true"
        return with_etag(response, result.payload["version"])


class GameHand(APIView):
    parser_classes = [JSONParser]

    def hand(self, request, game_id: int, number: int) -> tuple[Game | None, Hand | None]:
        game, _role = readable_game(request, game_id)
        if game is None:
            return None, None
        return game, game.hands.filter(number=number).first()

    @extend_schema(summary="One hand", responses={200: OpenApiTypes.OBJECT, 404: ERRORS})
    def get(self, request, game_id: int, number: int):
        game, hand = self.hand(request, game_id, number)
        if hand is None:
            return error(404, None, "not_found", _("Not found."))
        return with_etag(Response(selectors.hand_payload(hand, game)), hand.version)

    @extend_schema(
        summary="Correct a hand",
        description='The body is the new hand document (or `{"document": …, "reason": …}`). The '
        "game is replayed from hand 1; if a later hand no longer fits, nothing changes and the 400 "
        "names that hand.",
        parameters=[IF_MATCH],
        request=OpenApiTypes.OBJECT,
        responses={200: OpenApiTypes.OBJECT, 400: ERRORS, 404: ERRORS, 412: ERRORS, 428: ERRORS},
    )
    def put(self, request, game_id: int, number: int):
        version = parse_version(request.headers.get("If-Match"))
        if version is None:
            return error(
                428,
                "If-Match",
                "required",
                _("Send If-Match with the version of the hand you corrected."),
            )
        body = request.data
        document, reason = body, ""
        if isinstance(body, dict) and "document" in body and set(body) <= {"document", "reason"}:
            document, reason = body["document"], body.get("reason", "")
            if not isinstance(reason, str):
                reason = ""
        by = access.actor_for(request, Game(pk=game_id), via=Via.API)
        result = _service_call(
            request,
            game_id,
            lambda: services.correct_hand(
                game=game_id,
                number=number,
                document=document,
                by=by,
                expected_version=version,
                reason=reason,
            ),
        )
        if isinstance(result, Response):
            return result
        hand = result.hands.get(number=number)
        return with_etag(Response(selectors.hand_payload(hand, result)), hand.version)

    @extend_schema(
        summary="Remove a hand",
        description='A reason is required (`{"reason": …}` or `?reason=`). Later hands move up one '
        "number and the game is replayed. `If-Match` is optional here.",
        responses={200: OpenApiTypes.OBJECT, 400: ERRORS, 404: ERRORS, 412: ERRORS},
    )
    def delete(self, request, game_id: int, number: int):
        by = access.actor_for(request, Game(pk=game_id), via=Via.API)
        version = parse_version(request.headers.get("If-Match"))
        result = _service_call(
            request,
            game_id,
            lambda: services.remove_hand(
                game=game_id,
                number=number,
                by=by,
                reason=_reason(request),
                expected_version=version,
            ),
        )
        if isinstance(result, Response):
            return result
        return with_etag(Response(selectors.game_status(result)), result.version)


class GameCorrections(APIView):
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Correct several hands at once",
        description='`{"hands": {"3": {...}, "4": {...}}, "versions": {"3": 1, "4": 2}, "reason": "..."}`: '
        "replayed together, accepted or refused as a whole.",
        request=OpenApiTypes.OBJECT,
        responses={200: OpenApiTypes.OBJECT, 400: ERRORS, 404: ERRORS, 412: ERRORS},
    )
    def post(self, request, game_id: int):
        body = request.data if isinstance(request.data, dict) else {}
        hands, versions = body.get("hands"), body.get("versions", {})
        if not isinstance(hands, dict) or not hands or not all(str(k).isdigit() for k in hands):
            return error(
                400, "hands", "required", _("Send hands as an object of hand number → document.")
            )
        if not isinstance(versions, dict) or not all(
            str(k).isdigit() and isinstance(v, int) for k, v in versions.items()
        ):
            return error(
                400, "versions", "type", _("Send versions as an object of hand number → version.")
            )
        reason = body.get("reason", "")
        by = access.actor_for(request, Game(pk=game_id), via=Via.API)
        result = _service_call(
            request,
            game_id,
            lambda: services.correct_hands(
                game=game_id,
                changes={int(k): v for k, v in hands.items()},
                expected_versions={int(k): v for k, v in versions.items()},
                by=by,
                reason=reason if isinstance(reason, str) else "",
            ),
        )
        if isinstance(result, Response):
            return result
        return with_etag(Response(selectors.game_detail(result)), result.version)


class GameAbandon(APIView):
    parser_classes = [JSONParser]
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Abandon a game (reason required)",
        request=OpenApiTypes.OBJECT,
        responses=OpenApiTypes.OBJECT,
    )
    def post(self, request, game_id: int):
        by = access.actor_for(request, via=Via.API)
        result = _service_call(
            request,
            game_id,
            lambda: services.abandon_game(game=game_id, by=by, reason=_reason(request)),
        )
        if isinstance(result, Response):
            return result
        return with_etag(Response(selectors.game_status(result)), result.version)


class GameAudit(APIView):
    @extend_schema(summary="The audit trail of a game", responses=OpenApiTypes.OBJECT)
    def get(self, request, game_id: int):
        game, role = readable_game(request, game_id)
        if game is None or (role is None and game.pk not in access.table_games(request)):
            return error(404, None, "not_found", _("Not found."))
        return Response(
            [
                {
                    "at": e.at.isoformat(),
                    "action": e.action,
                    "hand": e.hand_number,
                    "actor": e.actor_label,
                    "via": e.via,
                    "before": e.before,
                    "after": e.after,
                    "reason": e.reason,
                }
                for e in selectors.audit_of_game(game)
            ]
        )
