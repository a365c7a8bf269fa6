"""Reads of a club's players' e-mail settings: where a player's results e-mails go."""

from __future__ import annotations

from scoring.models import Player


def results_address(player: Player) -> str:
    """The address a player's results e-mails go to: their own (``Player.email``), else their
    linked account's; "" for none. Private to the club's organizers. No query when the
    player's account is loaded (``select_related("user")``)."""
    if player.email:
        return player.email
    return getattr(player.user, "email", "") or "" if player.user_id else ""


def results_language(player: Player, club_language: str) -> str:
    """The language of a player's results e-mails: theirs, else their club's."""
    return player.language or club_language
