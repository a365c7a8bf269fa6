"""Competition API under /api/v1/."""

from django.urls import path

from tournaments.api import (
    calls,
    changes,
    clock,
    competitions,
    entries,
    fees,
    head_to_head,
    prizes,
    rounds,
    schedule,
    standings,
)
from tournaments.views import live

COMPETITION = "competitions/<int:competition_id>"
ROUND = f"{COMPETITION}/rounds/<int:number>"

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
    path(
        f"{COMPETITION}/head-to-head/", head_to_head.HeadToHead.as_view(), name="api-head-to-head"
    ),
    path("schedule/", schedule.SchedulePreview.as_view(), name="api-schedule-preview"),
]
