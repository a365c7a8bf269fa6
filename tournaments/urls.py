"""Competition pages: organizer pages under /c/<club>/k/<competition>/, public ones under /p/."""

from django.urls import path

from tournaments.views import (
    calls,
    clock,
    competitions,
    desk,
    entries,
    exports,
    head_to_head,
    live,
    pictures,
    printouts,
    prizes,
    public,
    rounds,
)

urlpatterns = [
    path("g/<int:game_id>/director/", calls.table_call, name="table-call"),
    path("g/<int:game_id>/clock/", clock.table_clock, name="table-clock"),
    path("c/<slug:club_slug>/k/<slug:slug>/calls/", calls.calls_panel, name="director-calls"),
    path(
        "c/<slug:club_slug>/k/<slug:slug>/calls/<int:call_id>/",
        calls.answer_call,
        name="director-call-answer",
    ),
    path(
        "c/<slug:club_slug>/k/<slug:slug>/rounds/<int:number>/clock/",
        clock.round_clock,
        name="round-clock",
    ),
    path("c/<slug:slug>/k/new/", competitions.competition_new, name="competition-new"),
    path("c/<slug:club_slug>/k/<slug:slug>/", competitions.competition_page, name="competition"),
    path(
        "c/<slug:club_slug>/k/<slug:slug>/settings/",
        competitions.competition_settings,
        name="competition-settings",
    ),
    path(
        "c/<slug:club_slug>/k/<slug:slug>/entries/",
        entries.entries_page,
        name="competition-entries",
    ),
    path("c/<slug:club_slug>/k/<slug:slug>/desk/", desk.desk_page, name="competition-desk"),
    path(
        "c/<slug:club_slug>/k/<slug:slug>/desk/events/",
        live.desk_stream,
        name="competition-desk-stream",
    ),
    path(
        "c/<slug:club_slug>/k/<slug:slug>/desk/report/",
        desk.cash_report,
        name="competition-cash-report",
    ),
    path(
        "c/<slug:club_slug>/k/<slug:slug>/desk/report.csv",
        desk.cash_report_csv,
        name="competition-cash-csv",
    ),
    path("c/<slug:club_slug>/k/<slug:slug>/prizes/", prizes.prizes_page, name="competition-prizes"),
    path(
        "c/<slug:club_slug>/k/<slug:slug>/prizes/results/",
        prizes.results_sheet,
        name="competition-results-sheet",
    ),
    path("c/<slug:club_slug>/k/<slug:slug>/rounds/<int:number>/", rounds.round_page, name="round"),
    path(
        "c/<slug:club_slug>/k/<slug:slug>/rounds/<int:number>/cards/",
        printouts.round_cards,
        name="round-cards",
    ),
    path(
        "c/<slug:club_slug>/k/<slug:slug>/rounds/<int:number>/sheets/",
        printouts.round_sheets,
        name="round-sheets",
    ),
    path("p/<slug:club_slug>/<slug:slug>/", public.public_competition, name="public-competition"),
    path(
        "p/<slug:club_slug>/<slug:slug>/events/",
        live.competition_stream,
        name="competition-stream",
    ),
    path(
        "p/<slug:club_slug>/<slug:slug>/standings/",
        public.public_standings,
        name="public-standings",
    ),
    path(
        "p/<slug:club_slug>/<slug:slug>/rounds/<int:number>/",
        public.public_round,
        name="public-round",
    ),
    path(
        "p/<slug:club_slug>/<slug:slug>/standings/how/",
        public.standings_how,
        name="public-standings-how",
    ),
    path(
        "p/<slug:club_slug>/<slug:slug>/entries/<int:entry_id>/",
        public.public_entry,
        name="public-entry",
    ),
    path(
        "p/<slug:club_slug>/<slug:slug>/picture/<str:shape>.<str:fmt>",
        pictures.results_picture,
        name="results-picture",
    ),
    path(
        "p/<slug:club_slug>/<slug:slug>/rounds/<int:number>/picture/<str:shape>.<str:fmt>",
        pictures.round_picture,
        name="round-picture",
    ),
    path(
        "p/<slug:club_slug>/<slug:slug>/head-to-head/",
        head_to_head.head_to_head_page,
        name="public-head-to-head",
    ),
    path("p/<slug:club_slug>/<slug:slug>/bracket/", public.bracket, name="public-bracket"),
    path("p/<slug:club_slug>/<slug:slug>/where/", public.where_page, name="public-where"),
    path("p/<slug:club_slug>/<slug:slug>/projector/", public.projector, name="public-projector"),
    path("p/<slug:club_slug>/<slug:slug>/timer/", public.round_timer, name="public-timer"),
    path(
        "p/<slug:club_slug>/<slug:slug>/calendar.ics", exports.calendar_ics, name="public-calendar"
    ),
    path(
        "p/<slug:club_slug>/<slug:slug>/standings.csv",
        exports.standings_csv,
        name="public-standings-csv",
    ),
]
