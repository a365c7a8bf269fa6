"""Translated labels for the keys of the pure standings and scheduling modules: the points
schemes, the tie-breaks and the names of a knockout's rounds."""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.scheduling.knockout import FINAL, QUARTER_FINALS, SEMI_FINALS, round_name

SCHEME_LABELS = {
    "placement": _("placement points"),
    "fair_placement": _("placement points, fair across table sizes"),
    "game_score": _("sum of game scores"),
    "matches_won": _("games won"),
}

TIE_BREAK_LABELS = {
    "points": _("Points"),
    "game_score": _("Game score"),
    "wins": _("Wins"),
    "head_to_head": _("Head to head"),
    "opponents_strength": _("Opponents' strength"),
    "hands_won": _("Hands won"),
    "card_points": _("Card points"),
    "games_played": _("Games played"),
}


def bracket_round_label(index: int, total: int) -> str:
    """The usual name of a knockout round, in the reader's language (Final, Semi-finals, …)."""
    key, size = round_name(index, total)
    names = {
        FINAL: gettext("Final"),
        SEMI_FINALS: gettext("Semi-finals"),
        QUARTER_FINALS: gettext("Quarter-finals"),
    }
    # Languages name the next two rounds by their own words (huitièmes, ottavi di finale).
    sized = {16: gettext("Round of 16"), 32: gettext("Round of 32")}
    return names.get(key) or sized.get(size) or gettext("Round of %(count)s") % {"count": size}
