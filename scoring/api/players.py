"""The API of a club's players in bulk and of a player's e-mail settings (the club's organizers
only: an address is private). The same services and checks as the Players page."""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import access, players_list, selectors, services
from scoring.api import inputs
from scoring.api.common import ERRORS, Output, readable_club, signed_in
from scoring.api.errors import Refused
from scoring.api.idempotency import Idempotent
from scoring.api.pagination import Pages, page_of_queryset
from scoring.api.parsers import JSONParser
from scoring.api.schema import request_example
from scoring.models import MANAGERS, READERS, Player, Via
from scoring.rules import Problem
from scoring.services.players import EMAIL_MAX


@extend_schema_serializer(component_name="PlayersBulk")
class BulkInput(inputs.StrictInput):
    #: ``text`` or ``csv``: one of them (the schema says so).
    schema_extra = {"minProperties": 1, "maxProperties": 1}

    text = inputs.Text(
        required=False,
        allow_blank=True,
        help_text="Pasted lines: one player per line, a name or `name, e-mail`.",
    )
    csv = inputs.Text(
        required=False,
        allow_blank=True,
        help_text="A CSV file's text: columns name, email, language (a first row naming them is "
        "a header), separated by `,` or `;`.",
    )

    def validate(self, data):
        if ("text" in data) == ("csv" in data):
            self.refuse([Problem("text", "required", {"reason": "list_empty"})])
        return data


@extend_schema_serializer(component_name="PlayerName")
class PlayerName(Output):
    """A player of the club: its id (for games, invitations…) and name."""

    id = serializers.IntegerField(source="pk")
    name = serializers.CharField(source="display_name")


@extend_schema_serializer(component_name="PlayersBulkResult")
class BulkOutput(Output):
    created = PlayerName(many=True, help_text="The players the list added.")
    existing = PlayerName(
        many=True, help_text="The club's players the list named already: not added again."
    )


class PlayerCreate(inputs.StrictInput):
    """A new player of the club (``services.add_player``)."""

    display_name = inputs.Text(
        single_line=True,
        max_length=80,
        help_text="Unique in the club, whatever its case; a look-alike of a player's name is "
        "refused too.",
    )


@extend_schema_serializer(component_name="ClubPlayer")
class ClubPlayer(PlayerName):
    active = serializers.BooleanField(help_text="Inactive players are left out of new games.")
    linked = serializers.BooleanField(
        source="has_account", help_text="Whether an account plays as this player."
    )


def _player_row(player: Player) -> dict:
    player.has_account = player.user_id is not None
    return ClubPlayer(player).data


class ClubPlayers(Idempotent, APIView):
    """The club's players, as the Players page lists them: for the club's members."""

    parser_classes = [JSONParser]
    pagination_class = Pages
    not_allowed_message = _("Only the club's members see and add its players.")

    @extend_schema(
        summary="The club's players, with their ids, by name",
        description="Members of the club only (as its Players page). `search`: the players "
        "whose name holds it, whatever its case.",
        parameters=[
            OpenApiParameter("search", OpenApiTypes.STR, description="Part of a name, any case.")
        ],
        responses={200: ClubPlayer(many=True), 400: ERRORS, 403: ERRORS, 404: ERRORS},
    )
    def get(self, request, slug: str):
        club = readable_club(request, slug)
        signed_in(request)
        services.authorize_club(access.actor_for(request, via=Via.API), club, READERS)
        search = request.query_params.get("search", "")
        if len(search) > 80:
            raise Refused.rule("search", "range", min=0, max=80, value=len(search))
        return page_of_queryset(
            request,
            selectors.club_players(club, search=search),
            ordering=("display_name", "id"),
            serialize=lambda page: [_player_row(player) for player in page],
        )

    @extend_schema(
        summary="Add one player to the club",
        description="The same service and checks as the Players page's form: members who "
        "enter hands (scorers, organizers, owners).",
        request=PlayerCreate,
        examples=[request_example("Anna", {"display_name": "Anna"})],
        responses={201: ClubPlayer, 400: ERRORS, 403: ERRORS, 404: ERRORS},
    )
    def post(self, request, slug: str):
        club = readable_club(request, slug)
        signed_in(request)
        by = access.actor_for(request, via=Via.API)
        services.authorize_club(by, club)  # before the body is read
        serializer = PlayerCreate(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = services.add_player(club=club, by=by, **serializer.validated_data)
        return Response(_player_row(player), status=status.HTTP_201_CREATED)


class PlayersBulk(Idempotent, APIView):
    parser_classes = [JSONParser]
    not_allowed_message = _("Only the club's organizers may add players from a list.")

    @extend_schema(
        summary="Add several players at once (a pasted list or a CSV file's text)",
        description="All or nothing: every refusal names its line (`line` in the error), and "
        "nothing is added while one stands. Names the club already has are listed in "
        "`existing` with their players' ids, not added twice; 201 either way (also when the "
        "list added nobody). Organizers only.",
        request=BulkInput,
        examples=[
            request_example("Pasted lines", value={"text": "Anna, anna@example.org\nBruno"}),
            request_example(
                "CSV", value={"csv": "name;email;language\nCarla;carla@example.org;it"}
            ),
        ],
        responses={201: BulkOutput, 400: ERRORS, 403: ERRORS, 404: ERRORS},
    )
    def post(self, request, slug: str):
        club = readable_club(request, slug)
        by = access.actor_for(request, via=Via.API)
        services.authorize_club(by, club, MANAGERS)  # before the body is read
        serializer = BulkInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if "csv" in data:
            rows = players_list.from_csv(data["csv"].encode(), field="csv")
            field_name = "csv"
        else:
            rows, field_name = players_list.from_lines(data["text"], field="text"), "text"
        added = services.add_players(club=club, rows=rows, by=by, field_name=field_name)
        answer = BulkOutput({"created": added.created, "existing": added.existing}).data
        return Response(answer, status=status.HTTP_201_CREATED)


class EmailInput(inputs.StrictInput):
    email = inputs.Text(
        single_line=True,
        required=False,
        allow_blank=True,
        max_length=EMAIL_MAX,
        help_text="Blank: the address of the player's account, if any.",
    )
    language = inputs.Choice(
        ["", *(code for code, _name in settings.LANGUAGES)],
        required=False,
        help_text="The language of the player's e-mails; blank: the club's.",
    )
    results_by_email = inputs.Boolean(required=False)


class EmailOutput(Output):
    class Meta:
        ref_name = "PlayerEmail"

    id = serializers.IntegerField(source="pk")
    name = serializers.CharField(source="display_name")
    email = serializers.CharField()
    language = serializers.CharField()
    results_by_email = serializers.BooleanField()
    address = serializers.CharField(
        help_text="Where the results e-mails go: `email`, else the account's; blank: nowhere."
    )


def _email_answer(player: Player) -> dict:
    player.address = selectors.results_address(player)
    return EmailOutput(player).data


class PlayerEmail(Idempotent, APIView):
    parser_classes = [JSONParser]
    not_allowed_message = _("Only the club's organizers may see and change a player's e-mails.")

    def _player(self, request, slug: str, player_id: int):
        club = readable_club(request, slug)
        by = access.actor_for(request, via=Via.API)
        services.authorize_club(by, club, MANAGERS)
        player = get_object_or_404(
            Player.objects.select_related("user", "club"), club=club, pk=player_id
        )
        return player, by

    @extend_schema(
        summary="A player's e-mail settings (private: organizers only)",
        responses={200: EmailOutput, 403: ERRORS, 404: ERRORS},
    )
    def get(self, request, slug: str, player_id: int):
        player, _by = self._player(request, slug, player_id)
        return Response(_email_answer(player))

    @extend_schema(
        summary="Change a player's e-mail settings",
        description="Only the fields sent change; audited in the club's history. Organizers only.",
        request=EmailInput,
        responses={200: EmailOutput, 400: ERRORS, 403: ERRORS, 404: ERRORS},
    )
    def patch(self, request, slug: str, player_id: int):
        player, by = self._player(request, slug, player_id)
        serializer = EmailInput(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        services.update_player(player=player, by=by, **serializer.validated_data)
        return Response(_email_answer(player))
