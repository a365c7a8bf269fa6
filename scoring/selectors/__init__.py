"""Every read of the scoring app, one module per feature: ``clubs`` (roles, the games and
players of a club), ``games`` (a game, its hands, its history, its export), ``members`` (the
members page, a person's games), ``seating`` (who replaced whom at a game) and ``ratings``
(leaderboards, a player's profile).

They return plain rows, dicts and model instances for pages, the API and exports; each states
how many queries it makes, and tests pin them. Callers use this package's names
(``from scoring import selectors; selectors.history(game)``); the ratings' reads are
``scoring.selectors.ratings``.
"""

from scoring.selectors.clubs import (
    club_games,
    club_player,
    club_players,
    clubs_for,
    is_public_game,
    pending_claims,
    players_of,
    public_games,
    role_of,
    visible_games,
)
from scoring.selectors.games import (
    HistoryRow,
    Standing,
    audit_of_game,
    audit_of_hand,
    export_game,
    first_dealer,
    game_detail,
    game_status,
    hand_data,
    hand_id,
    hand_of,
    hand_payload,
    hands_of,
    history,
    player_names,
    ranking,
    rulesets_description,
    seats_of,
    standing,
    table_link,
    table_link_token,
)
from scoring.selectors.members import (
    games_of_user,
    has_api_token,
    members_page,
    pending_invitations,
)
from scoring.selectors.players import results_address, results_language
from scoring.selectors.seating import seating_change

__all__ = [
    "HistoryRow",
    "Standing",
    "audit_of_game",
    "audit_of_hand",
    "club_games",
    "club_player",
    "club_players",
    "clubs_for",
    "export_game",
    "first_dealer",
    "game_detail",
    "game_status",
    "games_of_user",
    "hand_data",
    "hand_id",
    "hand_of",
    "hand_payload",
    "hands_of",
    "has_api_token",
    "history",
    "is_public_game",
    "members_page",
    "pending_claims",
    "pending_invitations",
    "player_names",
    "players_of",
    "public_games",
    "ranking",
    "results_address",
    "results_language",
    "role_of",
    "rulesets_description",
    "seating_change",
    "seats_of",
    "standing",
    "table_link",
    "table_link_token",
    "visible_games",
]
