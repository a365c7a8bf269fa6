"""The team competitions' refusals, each naming the field at fault, registered with ``scoring.messages``
(imported by the app's ``AppConfig.ready``)."""

from django.utils.translation import gettext_lazy

from scoring.messages import register

#: Competitions between teams (``services.teams``, ``services.team_draw``).
TEAM_REASONS = {
    ("inconsistent", "points_not_ordered"): gettext_lazy(
        "A won match must be worth at least a drawn one, and a drawn one at least a lost one."
    ),
    ("inconsistent", "team_format"): gettext_lazy(
        "Teams play a round robin, a Swiss or a knockout: choose one of these formats."
    ),
    ("inconsistent", "mixed_tables_format"): gettext_lazy(
        "Teams at mixed tables play the competition's own rounds: choose rotation, Swiss or "
        "club nights."
    ),
    ("inconsistent", "mixed_tables_need_three"): gettext_lazy(
        "Mixed tables need tables of three players or more: for a game of two, the teams meet "
        "in team matches."
    ),
    ("not_allowed", "teams_playing"): gettext_lazy(
        "The teams have started playing: how they meet can no longer change."
    ),
    ("not_allowed", "mixed_tables_standings"): gettext_lazy(
        "These teams meet at mixed tables: their standings are the mixed-tables team standings."
    ),
    ("not_allowed", "mixed_tables_draw"): gettext_lazy(
        "These teams meet at mixed tables: draw the tables from the competition's rounds."
    ),
    ("inconsistent", "pairs_need_briscola"): gettext_lazy(
        "A pair against a pair at each board is for Briscola only."
    ),
    ("not_allowed", "matches_drawn"): gettext_lazy(
        "Matches are already drawn: their boards can no longer change."
    ),
    ("not_allowed", "not_teams"): gettext_lazy("This competition is not between teams."),
    ("look_alike", "team_name"): gettext_lazy(
        "“%(value)s” reads as “%(existing)s”, another team of this competition, but is written with"
        " %(character)s: choose a name that reads differently."
    ),
    ("duplicate", "team_name_taken"): gettext_lazy(
        "Another team of this competition is already called “%(value)s”."
    ),
    ("duplicate", "on_another_team"): gettext_lazy(
        "%(value)s is already on a team of this competition (%(team)s)."
    ),
    ("not_allowed", "in_a_lineup"): gettext_lazy(
        "This player is in the lineup of a match: take them out of it first."
    ),
    ("not_allowed", "not_on_roster"): gettext_lazy("This player is not on the team's roster."),
    ("duplicate", "two_boards"): gettext_lazy(
        "%(value)s is already at board %(board)s of this match: a player sits at one board only."
    ),
    ("not_allowed", "lineup_fixed"): gettext_lazy(
        "A game of this match has started, and the lineup may not change during a match."
    ),
    ("not_allowed", "board_started"): gettext_lazy(
        "The game of this board has started: its players can no longer change."
    ),
    ("not_allowed", "boards_unfinished"): gettext_lazy(
        "Some boards of this match have not finished: its result is not known yet."
    ),
    ("inconsistent", "contradicts_boards"): gettext_lazy(
        "The boards give %(expected_score)s, not %(value)s: the result comes from the boards."
    ),
    ("not_allowed", "schedule_drawn"): gettext_lazy(
        "The round robin is already drawn: every round of it is in the schedule."
    ),
    ("not_allowed", "team_round_unfinished"): gettext_lazy(
        "A match of the last round has not finished: the next round is drawn from its results."
    ),
    ("not_allowed", "all_rounds_drawn"): gettext_lazy("Every planned round is already drawn."),
    ("not_allowed", "knockout_drawn_match"): gettext_lazy(
        "A knockout match ended level: a knockout match needs a winner. Play a deciding board."
    ),
}

TEAM_FIELDS = {
    ("teams", "range"): gettext_lazy(
        "At least %(min)s teams are needed to draw the matches; there are %(value)s."
    ),
}

register(reasons=TEAM_REASONS, fields=TEAM_FIELDS)

#: The dates of the matches between teams (``services.team_schedule``).
TEAM_SCHEDULE_REASONS = {
    ("not_found", "no_team_round"): gettext_lazy("There is no match in round %(value)s."),
    ("not_found", "team_match_elsewhere"): gettext_lazy(
        "This match is not one of this competition's, or not of this round."
    ),
    ("not_allowed", "match_played"): gettext_lazy(
        "This match has been played (its result is confirmed): its date no longer changes."
    ),
    ("not_allowed", "team_round_played"): gettext_lazy(
        "Every match of this round has been played: there is nothing left to date."
    ),
    ("range", "before_competition"): gettext_lazy(
        "The competition starts on %(start)s: choose a date from then on."
    ),
    ("range", "after_competition"): gettext_lazy(
        "The competition ends on %(end)s: choose a date up to then."
    ),
    ("inconsistent", "time_without_date"): gettext_lazy(
        "A start time needs a date: choose the date too, or leave the time out."
    ),
}

register(reasons=TEAM_SCHEDULE_REASONS)
