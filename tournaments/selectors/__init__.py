"""Reads of competitions, one module per idea: ``standings`` (recomputed from the games),
``bracket`` (a knockout as drawn and played), ``rounds`` (a round's tables, check-ins, who it
leaves out, the round being played), ``draw`` (who met whom, every round as drawn, a refused
draw), ``entries`` (and the players who may enter), ``results_mail`` (what each player's results
e-mail says), ``seat_news`` (what a round tells each seated player) and ``competitions`` (a club's, a game's,
and what the organizer's page lists).

Every read a page, the API, a service or a task makes of more than one row lives here, as plain
rows or model instances with what the caller shows already loaded. Callers use this package's
names (``from tournaments import selectors; selectors.standings_of(...)``).
"""

from tournaments.selectors.bracket import (
    bracket_json,
    bracket_of,
    games_score,
    match_outcomes,
    match_scores,
)
from tournaments.selectors.changes import open_seats_of, seat_warnings
from tournaments.selectors.competitions import (
    adjustments_shown,
    club_competitions,
    competitions_of_game,
    last_event_id,
    public_games,
    rounds_summary,
    schedule_of,
    started,
)
from tournaments.selectors.draw import (
    draw_ended_since,
    draw_refusal,
    drawn_tables,
    entry_ratings,
    meetings,
    participant_count,
    played_before,
)
from tournaments.selectors.entries import (
    active_players,
    entered_players,
    entries_of,
    entry_validator,
    entry_validators,
)
from tournaments.selectors.fees import cash_report, desk_rows, fee_of, live_payments
from tournaments.selectors.field import still_in_bracket
from tournaments.selectors.history import (
    history_at,
    keep_history,
    played_rounds,
    standings_after,
    standings_history,
)
from tournaments.selectors.prizes import (
    awarded,
    categories,
    entry_categories,
    prize_list,
    prize_rules,
)
from tournaments.selectors.results_mail import final_letters, prizes_awarded, round_letters
from tournaments.selectors.rounds import (
    check_ins_by_round,
    current_round,
    last_check_in,
    last_round,
    late_seat_refusal,
    late_seat_tables,
    present_at,
    published_rounds,
    round_after,
    round_fingerprint,
    round_table,
    round_tables,
    round_validator,
    round_with_tables,
    rounds_of,
    rounds_with_snapshot_version,
    table_links,
    tables_to_reprint,
    unseated,
    where_of,
)
from tournaments.selectors.seat_news import SeatNews, seat_news
from tournaments.selectors.standings import (
    adjustments_of,
    as_json_number,
    labelled,
    results_of,
    seat_entries,
    snapshot_of,
    snapshot_stamp,
    standings_of,
)

__all__ = [
    "SeatNews",
    "active_players",
    "adjustments_of",
    "adjustments_shown",
    "as_json_number",
    "awarded",
    "bracket_json",
    "bracket_of",
    "cash_report",
    "categories",
    "check_ins_by_round",
    "club_competitions",
    "competitions_of_game",
    "current_round",
    "desk_rows",
    "draw_ended_since",
    "draw_refusal",
    "drawn_tables",
    "entered_players",
    "entries_of",
    "entry_categories",
    "entry_ratings",
    "entry_validator",
    "entry_validators",
    "fee_of",
    "final_letters",
    "games_score",
    "history_at",
    "keep_history",
    "labelled",
    "last_check_in",
    "last_event_id",
    "last_round",
    "late_seat_refusal",
    "late_seat_tables",
    "live_payments",
    "match_outcomes",
    "match_scores",
    "meetings",
    "open_seats_of",
    "participant_count",
    "played_before",
    "played_rounds",
    "present_at",
    "prize_list",
    "prize_rules",
    "prizes_awarded",
    "public_games",
    "published_rounds",
    "results_of",
    "round_after",
    "round_fingerprint",
    "round_letters",
    "round_table",
    "round_tables",
    "round_validator",
    "round_with_tables",
    "rounds_of",
    "rounds_summary",
    "rounds_with_snapshot_version",
    "schedule_of",
    "seat_entries",
    "seat_news",
    "seat_warnings",
    "snapshot_of",
    "snapshot_stamp",
    "standings_after",
    "standings_history",
    "standings_of",
    "started",
    "still_in_bracket",
    "table_links",
    "tables_to_reprint",
    "unseated",
    "where_of",
]
