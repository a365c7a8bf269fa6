"""Competitions found by what they hold: the competitions a game is played in."""

from __future__ import annotations

from tournaments.models import Competition


def competitions_of_game(game_id: int) -> list[int]:
    """The competitions whose tables play game ``game_id`` (its standings follow the game)."""
    return list(
        Competition.objects.filter(rounds__tables__game_id=game_id)
        .values_list("pk", flat=True)
        .distinct()
    )
