"""Competition API under /api/v1/."""

from django.urls import path

from tournaments.api import changes, competitions, entries, rounds, schedule, standings, teams

COMPETITION = "competitions/<int:competition_id>"
ROUND = f"{COMPETITION}/rounds/<int:number>"

urlpatterns = [
    path(
        "clubs/<slug:slug>/competitions/",
        competitions.ClubCompetitions.as_view(),
        name="api-club-competitions",
    ),
    path(f"{COMPETITION}/", competitions.CompetitionDetail.as_view(), name="api-competition"),
    path(
        f"{COMPETITION}/finalize/",
        competitions.CompetitionFinalize.as_view(),
        name="api-competition-finalize",
    ),
    path(
        f"{COMPETITION}/reopen/",
        competitions.CompetitionReopen.as_view(),
        name="api-competition-reopen",
    ),
    path(f"{COMPETITION}/entries/", entries.Entries.as_view(), name="api-competition-entries"),
    path(
        f"{COMPETITION}/entries/<int:entry_id>/withdraw/",
        entries.EntryWithdraw.as_view(),
        name="api-competition-entry-withdraw",
    ),
    path(
        f"{COMPETITION}/entries/<int:entry_id>/reinstate/",
        entries.EntryReinstate.as_view(),
        name="api-competition-entry-reinstate",
    ),
    path(f"{COMPETITION}/rounds/", rounds.Rounds.as_view(), name="api-competition-rounds"),
    path(f"{COMPETITION}/season/", rounds.Season.as_view(), name="api-competition-season"),
    path(f"{ROUND}/", rounds.RoundDetail.as_view(), name="api-competition-round"),
    path(f"{ROUND}/check-ins/", rounds.RoundCheckIns.as_view(), name="api-round-check-ins"),
    path(f"{ROUND}/generate/", rounds.RoundGenerate.as_view(), name="api-round-generate"),
    path(f"{ROUND}/swap/", rounds.RoundSwap.as_view(), name="api-round-swap"),
    path(f"{ROUND}/publish/", rounds.RoundPublish.as_view(), name="api-round-publish"),
    path(f"{ROUND}/replace/", changes.RoundReplace.as_view(), name="api-round-replace"),
    path(f"{ROUND}/redraw/", changes.RoundRedraw.as_view(), name="api-round-redraw"),
    path(f"{ROUND}/unpublish/", changes.RoundUnpublish.as_view(), name="api-round-unpublish"),
    path(f"{ROUND}/close/", rounds.RoundClose.as_view(), name="api-round-close"),
    path(
        f"{COMPETITION}/tables/<int:table_id>/forfeit/",
        rounds.TableForfeit.as_view(),
        name="api-table-forfeit",
    ),
    path(
        f"{COMPETITION}/standings/",
        standings.Standings.as_view(),
        name="api-competition-standings",
    ),
    path("schedule/", schedule.SchedulePreview.as_view(), name="api-schedule-preview"),
    path(f"{COMPETITION}/team-rules/", teams.TeamRulesView.as_view(), name="api-team-rules"),
    path(f"{COMPETITION}/teams/", teams.Teams.as_view(), name="api-teams"),
    path(
        f"{COMPETITION}/teams/<int:team_id>/roster/",
        teams.TeamRoster.as_view(),
        name="api-team-roster",
    ),
    path(f"{COMPETITION}/team-matches/", teams.TeamMatches.as_view(), name="api-team-matches"),
    path(
        f"{COMPETITION}/team-matches/<int:match_id>/",
        teams.TeamMatchDetail.as_view(),
        name="api-team-match",
    ),
    path(
        f"{COMPETITION}/team-matches/<int:match_id>/lineup/",
        teams.TeamMatchLineup.as_view(),
        name="api-team-match-lineup",
    ),
    path(
        f"{COMPETITION}/team-matches/<int:match_id>/confirm/",
        teams.TeamMatchConfirm.as_view(),
        name="api-team-match-confirm",
    ),
    path(
        f"{COMPETITION}/team-standings/",
        teams.TeamStandings.as_view(),
        name="api-team-standings",
    ),
]
