"""Team API under /api/v1/."""

from django.urls import path

from teams.api import teams

COMPETITION = "competitions/<int:competition_id>"

urlpatterns = [
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
        f"{COMPETITION}/team-rounds/<int:round_number>/schedule/",
        teams.TeamRoundSchedule.as_view(),
        name="api-team-round-schedule",
    ),
    path(
        f"{COMPETITION}/team-matches/<int:match_id>/schedule/",
        teams.TeamMatchSchedule.as_view(),
        name="api-team-match-schedule",
    ),
    path(
        f"{COMPETITION}/team-standings/",
        teams.TeamStandings.as_view(),
        name="api-team-standings",
    ),
    path(
        f"{COMPETITION}/team-head-to-head/",
        teams.TeamHeadToHead.as_view(),
        name="api-team-head-to-head",
    ),
    path(
        f"{COMPETITION}/mixed-team-standings/",
        teams.MixedTeamStandings.as_view(),
        name="api-mixed-team-standings",
    ),
]
