"""Circuit pages: a season of competitions of one club or several (docs/circuits.md)."""

from django.urls import path

from circuits import streams, views

urlpatterns = [
    # Circuits: a season of competitions of one club or several (docs/views.md).
    path("c/<slug:slug>/circuits/", views.club_circuits, name="club-circuits"),
    path("c/<slug:club_slug>/circuits/<slug:slug>/", views.circuit_page, name="circuit"),
    path("circuits/<slug:club_slug>/<slug:slug>/", views.public_circuit, name="public-circuit"),
    path(
        "circuits/<slug:club_slug>/<slug:slug>/events/",
        streams.circuit_stream,
        name="circuit-stream",
    ),
    path(
        "circuits/<slug:club_slug>/<slug:slug>/projector/",
        views.circuit_projector,
        name="public-circuit-projector",
    ),
    path(
        "circuits/<slug:club_slug>/<slug:slug>/standings.csv",
        views.circuit_csv,
        name="public-circuit-csv",
    ),
]
