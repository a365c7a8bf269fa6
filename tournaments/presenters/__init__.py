"""View-model code of the competition pages: rows and figures turned into what templates show,
one module per idea: ``competitions`` (times in the club's zone, schedule rows, names),
``standings`` (tables with localized figures, how they are computed), ``draw`` (the quality of a
draw in words), ``rounds`` (a table's seats and scores, the round timer, "where do I sit?") and
``bracket``.

No writes, no queries and no request here: the views in ``tournaments.views`` read the rows
(``tournaments.selectors``) and hand them over. Every name is importable from here.
"""

from tournaments.presenters.bracket import bracket_view
from tournaments.presenters.competitions import (
    alphabetical,
    club_zone,
    game_names,
    round_times,
    schedule_row,
)
from tournaments.presenters.draw import (
    METRICS,
    draw_notice,
    draw_quality,
    metrics_rows,
    pair_name,
    repeats_of,
    swap_effect,
    swap_words,
    swiss_method,
    team_mates_line,
)
from tournaments.presenters.rounds import (
    clock_text,
    public_table,
    schedule_progress,
    table_done,
    timer_of,
    unseated_rows,
    where_answer,
)
from tournaments.presenters.standings import (
    TIE_BREAK_HELP,
    format_figure,
    points_by_table_size,
    standings_columns,
    standings_explained,
    standings_tables,
)

__all__ = [
    "METRICS",
    "TIE_BREAK_HELP",
    "alphabetical",
    "bracket_view",
    "clock_text",
    "club_zone",
    "draw_notice",
    "draw_quality",
    "format_figure",
    "game_names",
    "metrics_rows",
    "pair_name",
    "points_by_table_size",
    "public_table",
    "repeats_of",
    "round_times",
    "schedule_progress",
    "schedule_row",
    "standings_columns",
    "standings_explained",
    "standings_tables",
    "swap_effect",
    "swap_words",
    "swiss_method",
    "table_done",
    "team_mates_line",
    "timer_of",
    "unseated_rows",
    "where_answer",
]
