"""The API of a club's invitations: invite someone with a role (by e-mail, or as a one-time
link handed over), list the pending invitations, withdraw one. The same service and rules as
the club's Members page (``scoring.services.members``): owners and organizers only, and only an
owner invites or withdraws an owner."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import access, selectors, services
from scoring.api import inputs
from scoring.api.common import ERRORS, Moment, Output, readable_club, signed_in
from scoring.api.idempotency import Idempotent
from scoring.api.pagination import Pages, page_of_queryset
from scoring.api.parsers import JSONParser
from scoring.api.schema import request_example
from scoring.models import MANAGERS, Invitation, InvitationStatus, Role, Via
from scoring.services import members
from scoring.services.actors import violation


class InvitationCreate(inputs.StrictInput):
    """An invitation (``services.members.invite``)."""

    role = inputs.Choice(Role.choices, help_text="Only an owner invites an owner.")
    email = inputs.Text(
        single_line=True,
        required=False,
        allow_blank=True,
        max_length=members.EMAIL_MAX,
        help_text="Where the link is mailed; without it the answer carries the link (`url`) "
        "to hand over.",
    )
    player = inputs.Integer(
        required=False,
        allow_null=True,
        help_text="The id of the club's player the invitee is (linked on accepting); a player "
        "no account plays as yet.",
    )


@extend_schema_serializer(component_name="Invitation")
class InvitationOutput(Output):
    id = serializers.IntegerField(source="pk")
    role = serializers.ChoiceField(Role.choices)
    email = serializers.CharField(help_text="Blank: no e-mail was sent.")
    player = serializers.IntegerField(source="player_id", allow_null=True)
    status = serializers.ChoiceField(InvitationStatus.choices)
    created_at = Moment()
    expires_at = Moment()
    url = serializers.CharField(
        allow_null=True,
        help_text="The one-time link, in the answer that made an invitation without `email` "
        "(never again: only its hash is kept); null otherwise.",
    )


def _invitation(invitation: Invitation, url: str | None = None) -> dict:
    invitation.url = url
    return InvitationOutput(invitation).data


class ClubInvitations(Idempotent, APIView):
    parser_classes = [JSONParser]
    pagination_class = Pages
    not_allowed_message = _("Only the club's owners and organizers may invite members.")

    def _club(self, request, slug: str):
        club = readable_club(request, slug)
        signed_in(request)
        by = access.actor_for(request, via=Via.API)
        services.authorize_club(by, club, MANAGERS)  # before the body is read
        return club, by

    @extend_schema(
        summary="The club's pending invitations, newest first",
        description="Owners and organizers only, as the Members page.",
        responses={200: InvitationOutput(many=True), 400: ERRORS, 403: ERRORS, 404: ERRORS},
    )
    def get(self, request, slug: str):
        club, _by = self._club(request, slug)
        return page_of_queryset(
            request,
            selectors.pending_invitations(club),
            ordering=("-created_at", "-id"),
            serialize=lambda page: [_invitation(invitation) for invitation in page],
        )

    @extend_schema(
        summary="Invite someone to the club with a role",
        description="With `email`, the one-time link is mailed (in the club's language); "
        "without, the answer's `url` is the link to hand over, shown this once. The link "
        "serves once and expires at `expires_at`. Owners and organizers only; audited.",
        request=InvitationCreate,
        examples=[
            request_example("An organizer, by e-mail", {"role": "organizer", "email": "o@x.it"}),
            request_example("A player's link", {"role": "member", "player": 12}),
        ],
        responses={201: InvitationOutput, 400: ERRORS, 403: ERRORS, 404: ERRORS},
    )
    def post(self, request, slug: str):
        club, by = self._club(request, slug)
        serializer = InvitationCreate(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        player = None
        if data.get("player") is not None:
            player = selectors.club_player(club, data["player"])
            if player is None:
                raise violation("player", "not_found", value=data["player"])
        invited = members.invite(
            club=club,
            by=by,
            role=data["role"],
            email=data.get("email", ""),
            player=player,
            request=request,
        )
        url = None if invited.invitation.email else invited.url
        return Response(_invitation(invited.invitation, url), status=status.HTTP_201_CREATED)


class ClubInvitation(Idempotent, APIView):
    not_allowed_message = _("Only the club's owners and organizers may withdraw invitations.")

    @extend_schema(
        summary="Withdraw a pending invitation",
        description="Its link no longer serves. Owners and organizers (an owner's invitation: "
        "owners only); audited. An invitation answered already is a 400.",
        responses={204: None, 400: ERRORS, 403: ERRORS, 404: ERRORS},
    )
    def delete(self, request, slug: str, invitation_id: int):
        club = readable_club(request, slug)
        signed_in(request)
        by = access.actor_for(request, via=Via.API)
        services.authorize_club(by, club, MANAGERS)
        invitation = get_object_or_404(Invitation, club=club, pk=invitation_id)
        members.revoke_invitation(invitation=invitation, by=by)
        return Response(status=status.HTTP_204_NO_CONTENT)
