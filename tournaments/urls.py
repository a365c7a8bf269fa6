"""Competition pages: organizer pages under /c/<club>/k/<competition>/, public ones under /p/."""

from django.urls import path

from tournaments import views

urlpatterns = [
    path("c/<slug:slug>/k/new/", views.competition_new, name="competition-new"),
    path("c/<slug:club_slug>/k/<slug:slug>/", views.competition_page, name="competition"),
    path(
        "c/<slug:club_slug>/k/<slug:slug>/entries/",
        views.entries_page,
        name="competition-entries",
    ),
    path("c/<slug:club_slug>/k/<slug:slug>/rounds/<int:number>/", views.round_page, name="round"),
    path(
        "c/<slug:club_slug>/k/<slug:slug>/rounds/<int:number>/cards/",
        views.round_cards,
        name="round-cards",
    ),
    path("p/<slug:club_slug>/<slug:slug>/", views.public_competition, name="public-competition"),
    path(
        "p/<slug:club_slug>/<slug:slug>/standings/",
        views.public_standings,
        name="public-standings",
    ),
    path(
        "p/<slug:club_slug>/<slug:slug>/rounds/<int:number>/",
        views.public_round,
        name="public-round",
    ),
    path("p/<slug:club_slug>/<slug:slug>/where/", views.where_page, name="public-where"),
    path("p/<slug:club_slug>/<slug:slug>/projector/", views.projector, name="public-projector"),
    path("p/<slug:club_slug>/<slug:slug>/calendar.ics", views.calendar_ics, name="public-calendar"),
    path(
        "p/<slug:club_slug>/<slug:slug>/standings.csv",
        views.standings_csv,
        name="public-standings-csv",
    ),
]
