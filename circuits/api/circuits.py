"""Circuits (``docs/circuits.md``): a club's circuits and a new one, one circuit and its
settings, the clubs invited and their answer, the competitions added, the players linked, and
the standings.

Who may: anyone reads a public circuit, members of its clubs a private one (404 otherwise).
The organizing club's owners and organizers change it, invite clubs and link players; another
club's owners and organizers accept, leave, and add or remove their own competitions. The
services decide; a refusal that names a club is a 400 naming the field.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from circuits import selectors, services
from circuits.api import circuit_outputs as out
from circuits.models import Circuit, CircuitLink
from scoring.api import inputs
from scoring.api.common import ERRORS
from scoring.api.idempotency import Idempotent
from scoring.api.pagination import Pages, page_of_queryset
from scoring.api.parsers import JSONParser
from scoring.api.schema import request_example, sends
from scoring.models import Club, Membership
from scoring.services import NotAllowed
from tournaments.api.common import WRITE_ERRORS, actor, club_of, may_manage, read_body

NAME_MAX = Circuit._meta.get_field("name").max_length


class CircuitView(Idempotent, APIView):
    not_allowed_message = _(
        "Only the owner or an organizer of the organizing club may change this circuit."
    )


def readable_circuit(request, circuit_id: int) -> Circuit:
    """The circuit; 404 unless public or the caller is a member of one of its clubs."""
    circuit = Circuit.objects.select_related("club").filter(pk=circuit_id).first()
    if circuit is None:
        raise NotFound()
    if not circuit.public and not (
        request.user.is_authenticated
        and Membership.objects.filter(
            user=request.user, club__circuit_places__circuit=circuit
        ).exists()
    ):
        raise NotFound()
    return circuit


def managed_circuit(request, circuit_id: int, club: Club | None = None) -> Circuit:
    """``readable_circuit`` for a write of the circuit's organizers (or of ``club``'s managers):
    anyone else gets a 403 before the body is read."""
    circuit = readable_circuit(request, circuit_id)
    if not services.is_manager(actor(request), club or circuit.club):
        raise NotAllowed()
    return circuit


def circuit_detail(circuit: Circuit) -> dict[str, Any]:
    return {
        "id": circuit.pk,
        "club": circuit.club.slug,
        "name": circuit.name,
        "slug": circuit.slug,
        "season": circuit.season,
        "points_table": circuit.points_table,
        "best_of": circuit.best_of,
        "min_events": circuit.min_events,
        "public": circuit.public,
        "description": circuit.description,
        "clubs": [
            {"club": p.club.slug, "name": p.club.name, "state": p.state}
            for p in selectors.places_of(circuit)
        ],
        "competitions": [
            {k: v for k, v in c.items() if k != "competition"}
            for c in selectors.competitions_of(circuit)
        ],
        "links": [
            {
                "id": link.pk,
                "a": {"id": link.a_id, "name": link.a.display_name, "club": link.a.club.slug},
                "b": {"id": link.b_id, "name": link.b.display_name, "club": link.b.club.slug},
            }
            for link in selectors.links_of(circuit)
        ],
    }


class CircuitSettingsInput(inputs.StrictInput):
    name = inputs.Text(required=False, max_length=NAME_MAX, single_line=True)
    season = inputs.Text(required=False, max_length=40, single_line=True)
    points_table = inputs.ListOf(
        child=inputs.Integer(),
        required=False,
        allow_null=True,
        help_text="Points for places 1, 2, 3...: never increasing, never negative. Null: the "
        "field rule (n - place + 1 among n entries).",
    )
    best_of = inputs.Integer(required=False, allow_null=True, help_text="Null: every result.")
    min_events = inputs.Integer(required=False)
    public = inputs.Boolean(required=False)
    description = inputs.Text(required=False, max_length=2000)


class CircuitCreateInput(CircuitSettingsInput):
    name = inputs.Text(max_length=NAME_MAX, single_line=True)
    slug = inputs.Text(required=False, max_length=60, single_line=True)


class ClubCircuits(CircuitView):
    anyone_may = ("GET",)
    parser_classes = [JSONParser]
    pagination_class = Pages

    @extend_schema(
        summary="Circuits of a club",
        description="The circuits the club organizes or is invited to; visitors see the public "
        "ones.",
        responses={200: out.CircuitListItem(many=True), 404: ERRORS},
    )
    def get(self, request, slug: str):
        club, role, _visible = club_of(request, slug)
        circuits = selectors.circuits_of(club) if role else selectors.public_circuits_of(club)
        return page_of_queryset(
            request,
            circuits,
            ordering=("-created_at", "-id"),
            serialize=lambda page: [
                {"id": c.pk, "name": c.name, "slug": c.slug, "club": c.club.slug} for c in page
            ],
        )

    @extend_schema(
        summary="Create a circuit",
        description="Owners and organizers of the club; the club is its first member. Every bad "
        "field is named in the 400.",
        request=CircuitCreateInput,
        extensions=sends(_201=("Location",)),
        responses={201: out.CircuitOutput, **WRITE_ERRORS},
        examples=[
            request_example(
                "Best 6 results of the season",
                value={"name": "Circuito 2026", "season": "2026", "best_of": 6, "min_events": 3},
            )
        ],
    )
    def post(self, request, slug: str):
        club, role, visible = club_of(request, slug)
        if not may_manage(role):
            raise NotAllowed() if visible else NotFound()
        body = read_body(CircuitCreateInput, request)
        circuit = services.create_circuit(club=club, by=actor(request), **body)
        response = Response(circuit_detail(circuit), status=status.HTTP_201_CREATED)
        response["Location"] = f"/api/v1/circuits/{circuit.pk}/"
        return response


class CircuitDetail(CircuitView):
    anyone_may = ("GET",)
    parser_classes = [JSONParser]

    @extend_schema(
        summary="A circuit: its settings, clubs, competitions and links",
        responses={200: out.CircuitOutput, 404: ERRORS},
    )
    def get(self, request, circuit_id: int):
        return Response(circuit_detail(readable_circuit(request, circuit_id)))

    @extend_schema(
        summary="Change a circuit's settings",
        description="Only the fields sent change; audited.",
        request=CircuitSettingsInput,
        responses={200: out.CircuitOutput, **WRITE_ERRORS},
        examples=[request_example("A points table", value={"points_table": [25, 18, 15, 12]})],
    )
    def patch(self, request, circuit_id: int):
        circuit = managed_circuit(request, circuit_id)
        body = read_body(CircuitSettingsInput, request, partial=True)
        services.change_circuit(circuit=circuit, by=actor(request), **body)
        return Response(circuit_detail(circuit))


class CircuitClubs(CircuitView):
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        club = inputs.Text(max_length=60, single_line=True, help_text="The club's address.")

    @extend_schema(
        summary="Invite a club",
        description="The club joins when its owner or an organizer accepts "
        "(`POST .../clubs/{club}/accept/`). A club that left may be invited again.",
        request=InputSerializer,
        responses={201: out.CircuitPlace, **WRITE_ERRORS},
    )
    def post(self, request, circuit_id: int):
        circuit = managed_circuit(request, circuit_id)
        body = read_body(self.InputSerializer, request)
        place = services.invite_club(circuit=circuit, by=actor(request), club=body["club"])
        return Response(
            {"club": place.club.slug, "state": place.state}, status=status.HTTP_201_CREATED
        )


class CircuitClubAnswer(CircuitView):
    """Accept an invitation (``accept``) or leave / decline (``leave``)."""

    service = staticmethod(services.accept_invitation)

    @extend_schema(
        summary="Accept the circuit's invitation for a club",
        description="The club's owner or an organizer only (its consent); audited on both sides.",
        request=None,
        responses={200: out.CircuitPlace, **WRITE_ERRORS},
    )
    def post(self, request, circuit_id: int, club_slug: str):
        found = Club.objects.filter(slug=club_slug).first()
        if found is None:
            raise NotFound()
        circuit = managed_circuit(request, circuit_id, found)
        place = self.service(circuit=circuit, by=actor(request), club=found)
        return Response({"club": place.club.slug, "state": place.state})


class CircuitClubLeave(CircuitClubAnswer):
    service = staticmethod(services.leave_circuit)

    @extend_schema(
        summary="Leave the circuit, or decline its invitation",
        description="The club's owner or an organizer. Its competitions stay listed but no "
        "longer count, for the results already in too.",
        request=None,
        responses={200: out.CircuitPlace, **WRITE_ERRORS},
    )
    def post(self, request, circuit_id: int, club_slug: str):
        return super().post(request, circuit_id, club_slug)


class CircuitCompetitions(CircuitView):
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        competition = inputs.Integer(help_text="The competition's id.")

    @extend_schema(
        summary="Add a competition",
        description="A competition of a club of the circuit, by that club's owner or an "
        "organizer; a competition counts once.",
        request=InputSerializer,
        responses={201: out.CircuitOutput, **WRITE_ERRORS},
    )
    def post(self, request, circuit_id: int):
        circuit = readable_circuit(request, circuit_id)
        if not any(
            services.is_manager(actor(request), place.club)
            for place in selectors.places_of(circuit)
            if place.joined
        ):
            raise NotAllowed()
        body = read_body(self.InputSerializer, request)
        services.add_competition(
            circuit=circuit, by=actor(request), competition=body["competition"]
        )
        return Response(circuit_detail(circuit), status=status.HTTP_201_CREATED)


class CircuitCompetition(CircuitView):
    @extend_schema(
        summary="Take a competition out of the circuit",
        request=None,
        responses={204: None, **WRITE_ERRORS},
    )
    def delete(self, request, circuit_id: int, competition_id: int):
        circuit = readable_circuit(request, circuit_id)
        services.remove_competition(circuit=circuit, by=actor(request), competition=competition_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CircuitLinks(CircuitView):
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        a = inputs.Integer(help_text="A player's id.")
        b = inputs.Integer(help_text="A player of another club of the circuit.")

    @extend_schema(
        summary="Link two players of two clubs as one person",
        description="Organizers of the circuit; audited, undone by deleting the link.",
        request=InputSerializer,
        responses={201: out.CircuitLinkMade, **WRITE_ERRORS},
    )
    def post(self, request, circuit_id: int):
        circuit = managed_circuit(request, circuit_id)
        body = read_body(self.InputSerializer, request)
        link = services.link_players(circuit=circuit, by=actor(request), **body)
        return Response({"id": link.pk, "a": link.a_id, "b": link.b_id}, status=201)


class CircuitLinkDetail(CircuitView):
    @extend_schema(summary="Undo a link", request=None, responses={204: None, **WRITE_ERRORS})
    def delete(self, request, circuit_id: int, link_id: int):
        circuit = managed_circuit(request, circuit_id)
        if not CircuitLink.objects.filter(circuit=circuit, pk=link_id).exists():
            raise NotFound()
        services.unlink_players(circuit=circuit, by=actor(request), link=link_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CircuitStandings(CircuitView):
    anyone_may = ("GET",)

    @extend_schema(
        summary="A circuit's standings",
        description="Every person with a result: rank (null when unranked: below the minimum "
        "attendance), points of the counted results, and each result (`counted` false when "
        "dropped by best-N, `provisional` while its competition is not final). While competitions "
        "are left to finish, each row's `outlook` says who can still win, as a league's standings "
        "do (`status`, `best`, `worst`, `exact`, `ranks_exact`, `reason`: `open` when people may "
        "still enter, `budget` when too many ways are left to check them all), and `contenders` "
        "lists the persons who can still finish first; both null when nothing is left to play.",
        responses={200: out.CircuitStandingsOutput, 404: ERRORS},
    )
    def get(self, request, circuit_id: int):
        return Response(selectors.circuit_standings(readable_circuit(request, circuit_id)))
