"""Competition API under /api/v1/."""

from django.urls import path

from tournaments.api import (
    calls,
    changes,
    circuits,
    clock,
    competitions,
    entries,
    fees,
    prizes,
    registration,
    rounds,
    schedule,
    standings,
    teams,
)
from tournaments.views import live

COMPETITION = "competitions/<int:competition_id>"
ROUND = f"{COMPETITION}/rounds/<int:number>"

CIRCUIT = "circuits/<int:circuit_id>"
circuits_urls = [
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

urlpatterns = [
    path("games/<int:game_id>/director-call/", calls.GameCall.as_view(), name="api-game-call"),
    path("games/<int:game_id>/clock/", clock.GameClock.as_view(), name="api-game-clock"),
    path(f"{ROUND}/clock/", clock.RoundClock.as_view(), name="api-round-clock"),
    path(
        f"{ROUND}/tables/<int:table>/extra-time/",
        clock.TableExtraTime.as_view(),
        name="api-table-extra-time",
    ),
    path(f"{COMPETITION}/calls/", calls.CompetitionCalls.as_view(), name="api-calls"),
    path(f"{COMPETITION}/calls/<int:call_id>/", calls.CallAnswer.as_view(), name="api-call-answer"),
    path(
        "clubs/<slug:slug>/competitions/",
        competitions.ClubCompetitions.as_view(),
        name="api-club-competitions",
    ),
    path(f"{COMPETITION}/", competitions.CompetitionDetail.as_view(), name="api-competition"),
    path(
        f"{COMPETITION}/events/",
        live.competition_stream_by_id,
        name="api-competition-stream",
    ),
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
    path(f"{COMPETITION}/fee/", fees.CompetitionFee.as_view(), name="api-competition-fee"),
    path(f"{COMPETITION}/payments/", fees.Payments.as_view(), name="api-competition-payments"),
    path(
        f"{COMPETITION}/entries/<int:entry_id>/payment/",
        fees.EntryPayment.as_view(),
        name="api-entry-payment",
    ),
    path(
        f"{COMPETITION}/entries/<int:entry_id>/payment/undo/",
        fees.EntryPaymentUndo.as_view(),
        name="api-entry-payment-undo",
    ),
    path(f"{COMPETITION}/cash-report/", fees.CashReport.as_view(), name="api-cash-report"),
    path(f"{COMPETITION}/prizes/", prizes.Prizes.as_view(), name="api-competition-prizes"),
    path(
        f"{COMPETITION}/prizes/<int:prize_id>/",
        prizes.PrizeDetail.as_view(),
        name="api-competition-prize",
    ),
    path(f"{COMPETITION}/prize-rules/", prizes.PrizeRules.as_view(), name="api-prize-rules"),
    path(f"{COMPETITION}/awards/", prizes.Awards.as_view(), name="api-competition-awards"),
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
    path(f"{ROUND}/move/", changes.RoundMove.as_view(), name="api-round-move"),
    path(f"{ROUND}/close/", rounds.RoundClose.as_view(), name="api-round-close"),
    path(f"{ROUND}/reopen/", rounds.RoundReopen.as_view(), name="api-round-reopen"),
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
    *circuits_urls,
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
    # Registration (issue 24).
    path(
        f"{COMPETITION}/registration/",
        registration.RegistrationSettingsView.as_view(),
        name="api-registration",
    ),
    path(
        f"{COMPETITION}/registration/close/",
        registration.RegistrationClose.as_view(),
        name="api-registration-close",
    ),
    path(
        f"{COMPETITION}/registrations/",
        registration.Registrations.as_view(),
        name="api-registrations",
    ),
    path(
        f"{COMPETITION}/registrations/<int:registration_id>/withdraw/",
        registration.RegistrationWithdraw.as_view(),
        name="api-registration-withdraw",
    ),
    path(
        f"{COMPETITION}/registrations/<int:registration_id>/promote/",
        registration.RegistrationPromote.as_view(),
        name="api-registration-promote",
    ),
    path(
        f"{COMPETITION}/registrations/<int:registration_id>/confirm-partner/",
        registration.RegistrationConfirmPartner.as_view(),
        name="api-registration-confirm-partner",
    ),
    path(
        f"{COMPETITION}/registrations/<int:registration_id>/merge/",
        registration.RegistrationMerge.as_view(),
        name="api-registration-merge",
    ),
    path(
        f"{COMPETITION}/waiting-list/",
        registration.WaitingList.as_view(),
        name="api-waiting-list",
    ),
    path(
        f"{ROUND}/self-check-in/",
        registration.CheckInWindowView.as_view(),
        name="api-round-self-check-in",
    ),
    path(
        "registrations/confirm/",
        registration.RegistrationConfirm.as_view(),
        name="api-registration-confirm",
    ),
    path(
        "registrations/withdraw/",
        registration.RegistrationWithdrawByLink.as_view(),
        name="api-registration-withdraw-by-link",
    ),
    path(
        "registrations/check-in/",
        registration.SelfCheckIn.as_view(),
        name="api-registration-check-in",
    ),
]
