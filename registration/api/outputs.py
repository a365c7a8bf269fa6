"""What the registration API answers about a registration: the registrant's read-back (no
address) and the organizers' read (the addresses, the player, a possible duplicate), paged."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.response import Response

from registration.models import RegistrationStatus
from scoring.api.common import Moment, Output
from scoring.api.pagination import page_of_rows


class RegisteredOutput(Output):
    """A registration as its registrant reads it back: no address."""

    id = serializers.IntegerField(source="pk")
    status = serializers.ChoiceField(RegistrationStatus.choices)
    position = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(source="display_name")
    entry = serializers.IntegerField(source="entry_id", allow_null=True)


class RegistrationOutput(RegisteredOutput):
    """A registration as the organizers of the club read it: the addresses too."""

    email = serializers.EmailField()
    partner_name = serializers.CharField()
    partner_email = serializers.CharField()
    player = serializers.IntegerField(source="player_id", allow_null=True)
    possible_duplicate_of = serializers.SerializerMethodField(
        help_text="Another player of the club with the registrant's name, whom the player made "
        "for this registration may be (`merge/` to make the entry name it); null when none.",
    )
    created_at = Moment()
    confirmed_at = Moment(allow_null=True)
    partner_confirmed_at = Moment(allow_null=True)
    withdrawn_at = Moment(allow_null=True)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_possible_duplicate_of(self, registration) -> int | None:
        other = getattr(registration, "possible_duplicate", None)
        return None if other is None else other.pk


def paged_registrations(request, rows) -> Response:
    """A page of ``rows``, in the order ``registrations_of`` gives: status, position, arrival."""
    order = {status_: index for index, status_ in enumerate(RegistrationStatus.values)}

    def key(registration):
        return (
            order[registration.status],
            registration.position or 0,
            registration.created_at.timestamp(),
            registration.pk,
        )

    def serialize(page):
        return RegistrationOutput(page, many=True).data

    return page_of_rows(request, rows, key=key, serialize=serialize)
