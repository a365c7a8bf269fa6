"""Who replaced whom at a game since a seating version (``Game.seating``): the words of the
refusal of a hand typed for seats that changed since (``services.record_hand``).

Every change of a game's seats is audited (``services.reseat_game``: the players before and
after, and the seating version it made); the change since version ``since`` is the players of
the first such event after it against the players seated now.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.models import AuditAction, AuditEvent, Game


def seating_change(game: Game, since: int) -> dict[str, Any]:
    """The params of the ``seating_changed`` refusal of a hand typed at seating ``since`` of
    ``game`` (whose seats changed since): ``reason`` (see :func:`change_between`), the names it
    needs, and ``seating``, the version now. Two queries."""
    events = [
        event
        for event in AuditEvent.objects.filter(game=game, action=AuditAction.RESEAT_GAME).order_by(
            "at", "id"
        )
        if isinstance(event.after, dict) and event.after.get("seating", 0) > since
    ]
    now = [seat.player.display_name for seat in game.seats.select_related("player")]
    params: dict[str, Any] = {"reason": "reseated", "players": now}
    if events and isinstance(events[0].before, dict):
        params = change_between(list(events[0].before.get("players") or ()), now)
    return params | {"seating": game.seating}


def change_between(before: Sequence[str], after: Sequence[str]) -> dict[str, Any]:
    """What changed from the players ``before`` to those ``after`` (names in seat order), as
    a refusal's params: ``replaced`` (``new`` sits where ``old`` sat, nobody else moved),
    ``swapped`` (the same players, two of them, ``a`` and ``b``, in each other's seat),
    ``left`` (``old`` went, the others kept their order), ``joined`` (``new`` came, likewise),
    else ``reseated`` with the ``players`` now."""
    before, after = list(before), list(after)
    moved = [i for i, (was, now) in enumerate(zip(before, after, strict=False)) if was != now]
    if len(before) == len(after) and len(moved) == 1 and after[moved[0]] not in before:
        return {"reason": "replaced", "old": before[moved[0]], "new": after[moved[0]]}
    if len(before) == len(after) and len(moved) == 2:
        i, j = moved
        if (before[i], before[j]) == (after[j], after[i]):
            return {"reason": "swapped", "a": before[i], "b": before[j]}
    for fewer, more, reason, name in (
        (after, before, "left", "old"),
        (before, after, "joined", "new"),
    ):
        gone = [n for n in more if n not in fewer]
        if (
            len(more) == len(fewer) + 1
            and len(gone) == 1
            and [n for n in more if n != gone[0]] == fewer
        ):
            return {"reason": reason, name: gone[0]}
    return {"reason": "reseated", "players": after}
