"""Who replaced whom at a game since a seating version (``Game.seating``): the words of the
refusal of a hand typed for seats that changed since (``services.record_hand``).

Every change of a game's seats is audited (``services.reseat_game``: the players before and
after, and the seating version it made); the change since version ``since`` is the players of
the first such event after it against the players seated now.
"""

from __future__ import annotations

from collections import Counter
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
    a refusal's params: ``replaced`` (one came in, ``new``, where one went, ``old``),
    ``swapped`` (the same players, two of them, ``a`` and ``b``, in each other's seat),
    ``left`` (``old`` went, nobody came), ``joined`` (``new`` came), else ``reseated`` with
    the ``players`` now."""
    gone = list((Counter(before) - Counter(after)).elements())
    came = list((Counter(after) - Counter(before)).elements())
    if len(gone) == 1 and len(came) == 1:
        return {"reason": "replaced", "old": gone[0], "new": came[0]}
    if len(gone) == 1 and not came:
        return {"reason": "left", "old": gone[0]}
    if len(came) == 1 and not gone:
        return {"reason": "joined", "new": came[0]}
    moved = [i for i, (was, now) in enumerate(zip(before, after, strict=False)) if was != now]
    if not gone and not came and len(moved) == 2:
        return {"reason": "swapped", "a": before[moved[0]], "b": before[moved[1]]}
    return {"reason": "reseated", "players": list(after)}
