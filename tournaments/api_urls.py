"""Competition API under /api/v1/."""

from django.urls import path

from tournaments import api

COMPETITION = "competitions/<int:competition_id>"
ROUND = f"{COMPETITION}/rounds/<int:number>"

urlpatterns = [
    path(
        "clubs/<slug:slug>/competitions/",
        api.ClubCompetitions.as_view(),
        name="api-club-competitions",
    ),
    path(f"{COMPETITION}/", api.CompetitionDetail.as_view(), name="api-competition"),
    path(f"{COMPETITION}/entries/", api.Entries.as_view(), name="api-competition-entries"),
    path(
        f"{COMPETITION}/entries/<int:entry_id>/withdraw/",
        api.EntryWithdraw.as_view(),
        name="api-competition-entry-withdraw",
    ),
    path(f"{COMPETITION}/rounds/", api.Rounds.as_view(), name="api-competition-rounds"),
    path(f"{ROUND}/", api.RoundDetail.as_view(), name="api-competition-round"),
    path(f"{ROUND}/check-ins/", api.RoundCheckIns.as_view(), name="api-round-check-ins"),
    path(f"{ROUND}/generate/", api.RoundGenerate.as_view(), name="api-round-generate"),
    path(f"{ROUND}/swap/", api.RoundSwap.as_view(), name="api-round-swap"),
    path(f"{ROUND}/publish/", api.RoundPublish.as_view(), name="api-round-publish"),
    path(f"{ROUND}/close/", api.RoundClose.as_view(), name="api-round-close"),
    path(
        f"{COMPETITION}/tables/<int:table_id>/forfeit/",
        api.TableForfeit.as_view(),
        name="api-table-forfeit",
    ),
    path(
        f"{COMPETITION}/standings/",
        api.Standings.as_view(),
        name="api-competition-standings",
    ),
    path("schedule/", api.SchedulePreview.as_view(), name="api-schedule-preview"),
]
