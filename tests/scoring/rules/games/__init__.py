"""The complete games of the rules pages (docs/rules/<game>.md §8) as data, one module per game.

``COMPLETE_GAMES[key]`` is the list of ``pytest.param`` rows of that game, named after the page's
example ids (``G1``...); :func:`complete_game` picks one row's values by key and id.
"""

from . import briscola, briscola_chiamata, calabrasella, terziglio, turkish

COMPLETE_GAMES = {
    "terziglio": terziglio.GAMES,
    "calabrasella": calabrasella.GAMES,
    "turkish": turkish.GAMES,
    "briscola": briscola.GAMES,
    "briscola_chiamata": briscola_chiamata.GAMES,
}


def complete_game(key: str, game_id: str) -> tuple:
    """``(players, options, hands, ranking, card_points)`` of game ``game_id`` of ruleset ``key``."""
    (row,) = [row for row in COMPLETE_GAMES[key] if row.id == game_id]
    return tuple(row.values)


def hand_documents(key: str, game_id: str) -> list[dict]:
    """The hand documents of game ``game_id``, in order: what a phone sends for it."""
    return [hand[0] for hand in complete_game(key, game_id)[2]]
