"""The team services, called as ``from teams import services`` then ``services.add_team(...)``,
as every app's services are."""

from teams.services.team_draw import draw_team_round
from teams.services.team_schedule import schedule_team_matches
from teams.services.teams import (
    NAME_MAX,
    TEAM_FORMATS,
    add_team,
    add_to_roster,
    authorize_lineup,
    confirm_match_result,
    remove_from_roster,
    set_lineup,
    set_team_rules,
)

__all__ = [
    "NAME_MAX",
    "TEAM_FORMATS",
    "add_team",
    "add_to_roster",
    "authorize_lineup",
    "confirm_match_result",
    "draw_team_round",
    "remove_from_roster",
    "schedule_team_matches",
    "set_lineup",
    "set_team_rules",
]
