"""The circuit API's answers, typed for the schema: a circuit (``circuits.circuit_detail``), a
club's list of circuits, a club's place, a link, the standings (``selectors.circuit_standings``).
The views answer plain dicts; these serializers only describe them."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from scoring.api.common import Output
from tournaments.api.standings import OutlookOutput

PLACE_STATES = ["invited", "joined", "left"]


def _points_table(**kwargs) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Points for places 1, 2, 3...; null: the field rule (n - place + 1 among n).",
        **kwargs,
    )


class CircuitListItem(Output):
    """A circuit as a club lists it."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    club = serializers.CharField(help_text="The organizing club's address.")


class CircuitPlace(Output):
    """A club's place in a circuit."""

    club = serializers.CharField(help_text="The club's address.")
    state = serializers.ChoiceField(PLACE_STATES)


class CircuitClub(CircuitPlace):
    name = serializers.CharField(help_text="The club's name.")


class CircuitCompetitionItem(Output):
    """A competition of a circuit."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(help_text="The club's name.")
    club_slug = serializers.CharField(help_text="The club's address.")
    slug = serializers.CharField()
    final = serializers.BooleanField(help_text="Its results are final.")
    counts = serializers.BooleanField(help_text="Its club is still in the circuit.")
    public = serializers.BooleanField()


class LinkedPlayer(Output):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(help_text="The player's club's address.")


class CircuitLinkItem(Output):
    """Two players of two clubs linked as one person."""

    id = serializers.IntegerField()
    a = LinkedPlayer()
    b = LinkedPlayer()


class CircuitLinkMade(Output):
    """A new link: its id and the two players' ids."""

    id = serializers.IntegerField()
    a = serializers.IntegerField()
    b = serializers.IntegerField()


@extend_schema_serializer(component_name="Circuit")
class CircuitOutput(Output):
    """A circuit: its settings, clubs, competitions and links."""

    id = serializers.IntegerField()
    club = serializers.CharField(help_text="The organizing club's address.")
    name = serializers.CharField()
    slug = serializers.CharField()
    season = serializers.CharField(allow_blank=True)
    points_table = _points_table()
    best_of = serializers.IntegerField(allow_null=True, help_text="Null: every result.")
    min_events = serializers.IntegerField()
    public = serializers.BooleanField()
    description = serializers.CharField(allow_blank=True)
    clubs = CircuitClub(many=True)
    competitions = CircuitCompetitionItem(many=True)
    links = CircuitLinkItem(many=True)


class CircuitResult(Output):
    """One result of a person in one competition."""

    competition = serializers.IntegerField(help_text="The competition's id.")
    name = serializers.CharField(help_text="The competition's name.")
    club = serializers.CharField(help_text="The competition's club's name.")
    rank = serializers.IntegerField()
    entrants = serializers.IntegerField()
    points = serializers.FloatField()
    counted = serializers.BooleanField(help_text="False when dropped by best-N.")
    provisional = serializers.BooleanField(help_text="While its competition is not final.")


class CircuitStandingsRow(Output):
    rank = serializers.IntegerField(allow_null=True, help_text="Null when unranked.")
    ranked = serializers.BooleanField()
    person = serializers.IntegerField(help_text="The person: players linked across clubs are one.")
    name = serializers.CharField()
    players = serializers.ListField(child=serializers.IntegerField())
    clubs = serializers.ListField(child=serializers.CharField(), help_text="The clubs' names.")
    points = serializers.FloatField()
    events = serializers.IntegerField()
    results = CircuitResult(many=True)
    outlook = OutlookOutput(allow_null=True)


class CircuitStandingsOutput(Output):
    """A circuit's standings (``selectors.circuit_standings``)."""

    circuit = serializers.IntegerField()
    points_table = _points_table()
    best_of = serializers.IntegerField(allow_null=True)
    min_events = serializers.IntegerField()
    competitions = CircuitCompetitionItem(many=True)
    rows = CircuitStandingsRow(many=True)
    contenders = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="The persons who can still finish first; null when nothing is left to play.",
    )
