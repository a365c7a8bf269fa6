"""Translated labels for the keys of the pure standings and scheduling modules."""

from django.utils.translation import gettext_lazy as _

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
