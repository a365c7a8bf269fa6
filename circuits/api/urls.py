"""Circuit API under /api/v1/."""

from django.urls import path

from circuits.api import circuits

CIRCUIT = "circuits/<int:circuit_id>"
urlpatterns = [
    path("clubs/<slug:slug>/circuits/", circuits.ClubCircuits.as_view(), name="api-club-circuits"),
    path(f"{CIRCUIT}/", circuits.CircuitDetail.as_view(), name="api-circuit"),
    path(f"{CIRCUIT}/clubs/", circuits.CircuitClubs.as_view(), name="api-circuit-clubs"),
    path(
        f"{CIRCUIT}/clubs/<slug:club_slug>/accept/",
        circuits.CircuitClubAnswer.as_view(),
        name="api-circuit-club-accept",
    ),
    path(
        f"{CIRCUIT}/clubs/<slug:club_slug>/leave/",
        circuits.CircuitClubLeave.as_view(),
        name="api-circuit-club-leave",
    ),
    path(
        f"{CIRCUIT}/competitions/",
        circuits.CircuitCompetitions.as_view(),
        name="api-circuit-competitions",
    ),
    path(
        f"{CIRCUIT}/competitions/<int:competition_id>/",
        circuits.CircuitCompetition.as_view(),
        name="api-circuit-competition",
    ),
    path(f"{CIRCUIT}/links/", circuits.CircuitLinks.as_view(), name="api-circuit-links"),
    path(
        f"{CIRCUIT}/links/<int:link_id>/",
        circuits.CircuitLinkDetail.as_view(),
        name="api-circuit-link",
    ),
    path(
        f"{CIRCUIT}/standings/", circuits.CircuitStandings.as_view(), name="api-circuit-standings"
    ),
]
