"""Team pages: the organizer's teams and matches, the public team standings."""

from django.urls import path

from teams import views

urlpatterns = [
    path("c/<slug:club_slug>/k/<slug:slug>/teams/", views.teams_page, name="competition-teams"),
    path(
        "c/<slug:club_slug>/k/<slug:slug>/teams/<int:team_id>/",
        views.team_page,
        name="competition-team",
    ),
    path(
        "c/<slug:club_slug>/k/<slug:slug>/matches/<int:match_id>/",
        views.team_match_page,
        name="competition-team-match",
    ),
    path(
        "p/<slug:club_slug>/<slug:slug>/team-standings/",
        views.public_team_standings,
        name="public-team-standings",
    ),
]
