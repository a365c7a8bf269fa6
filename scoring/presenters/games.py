"""The game page's context: totals, places, the history of hands in words, the entry form, who
deals next, and what a game whose hands must be accepted adds (the hands to check). Used by every
page that shows a game or part of it: the game page and its live region, a refused hand shown
again, the scoreboard, an answer to a waiting hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from django.urls import reverse
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import access, etags, selectors, services
from scoring.forms.confirmations import AnswerForm
from scoring.forms.games import ReasonForm
from scoring.forms.hands import hand_form
from scoring.links import site_url
from scoring.messages import message
from scoring.models import NOT_ACCEPTED, Acceptance, Game, GameStatus, Hand
from scoring.presenters.hands import hand_summary, signed, verification


def lock_message(game: Game) -> str | None:
    """Why the game may not change and who can reopen it, while it is locked."""
    if game.locked_at is None:
        return None
    return message(services.Locked("game", game.lock_reason, **game.lock_context).problems[0])


def game_context(request, game: Game, role: str | None, form=None, reopen_form=None) -> dict:
    seats = selectors.seats_of(game)
    names = [s.player.display_name for s in seats]
    rows = selectors.history(game)
    ranking = selectors.ranking(game) or []
    place_of = {r["seat"]: r["place"] for r in ranking}
    writable = access.can_write(request, game, role)
    if form is None and writable and game.status == GameStatus.IN_PROGRESS and not game.locked:
        form = hand_form(game, names, entering=True)
    manager = access.is_manager(role)
    if reopen_form is None and manager and game.locked:
        reopen_form = ReasonForm(auto_id="id_reopen_%s")
    confirmation = acceptance_context(game, rows, names)
    counted = confirmation.get("counted")
    provisional = confirmation.get("finished_waiting", False)
    return confirmation | {
        "game": game,
        "club": game.club,
        "role": role,
        "names": names,
        "seats": seats,
        "totals": (totals := _totals(game, names, None if provisional else counted, place_of)),
        "sides": pair_sides(game, totals),
        "provisional": provisional,
        "history": [_history_line(game, r, names) for r in reversed(rows)],
        "ranking": [
            {"place": r["place"], "name": names[r["seat"]], "total": game.totals[r["seat"]]}
            for r in ranking
        ],
        "winners": winners(names, ranking, counted.waiting if provisional else ()),
        "form": form,
        "writable": writable,
        "answerable": access.can_answer(request, game, role),
        # called by the template only where it shows the form (not on every poll of the totals)
        "table_link": partial(_table_link_of, request, game, role),
        "manager": manager,
        "lock_message": lock_message(game),
        "reopen_form": reopen_form,
        "next_dealer": _name(names, game.next_dealer),
        "sitting_out": _name(names, game.sitting_out_next),
        "lowest_wins": game.rules.lowest_wins,
        "side_names": _side_names(game, names),
        "share_url": site_url(request, reverse("game", args=[game.pk])),
        # Not a competition's game: the competition draws what follows it.
        "can_rematch": access.writes_hands(role)
        and game.status == GameStatus.FINISHED
        and not game.context,
    }


def winners(names: list[str], ranking: list[dict], waiting: Sequence[int] = ()) -> str | None:
    """Who won, as the game-over card says it: every player placed first, so both partners of a
    winning pair ("Giulia and Marta win!") or the players sharing a win; None before the end.
    ``waiting``: the numbers of the hands still to be accepted, on which the result depends
    ("Giulia and Marta win once hand 3 is accepted.")."""
    first = [names[r["seat"]] for r in ranking if r["place"] == 1]
    if not first:
        return None
    together = get_text_list(first, _("and"))
    if not waiting:
        return ngettext("%(names)s wins!", "%(names)s win!", len(first)) % {"names": together}
    values = {"names": together, "hands": get_text_list([str(n) for n in waiting], _("and"))}
    if len(waiting) == 1:
        text = ngettext(
            "%(names)s wins once hand %(hands)s is accepted.",
            "%(names)s win once hand %(hands)s is accepted.",
            len(first),
        )
    else:
        text = ngettext(
            "%(names)s wins once hands %(hands)s are accepted.",
            "%(names)s win once hands %(hands)s are accepted.",
            len(first),
        )
    return text % values


def _totals(game: Game, names: list[str], counted, place_of: dict[int, int]) -> list[dict]:
    """Each seat's total; a game whose hands must be accepted shows what counts, and what waits
    apart. The places follow every hand: not shown while some still wait."""
    waiting = counted is not None and bool(counted.waiting)
    return [
        {
            "seat": i,
            "name": name,
            "total": total if counted is None else counted.accepted[i],
            "pending": signed(counted.pending[i]) if waiting else None,
            "place": None if waiting else place_of.get(i),
        }
        for i, (name, total) in enumerate(zip(names, game.totals, strict=True))
    ]


def pair_sides(game: Game, seats: list[Any]) -> list[dict[str, Any]] | None:
    """A game of fixed pairs (Briscola in pairs), shown pair against pair: each side's items of
    ``seats`` (one per seat: ``_totals``'s, or the names), with its first seat's apart (a
    side's partners share its total). None for single players or sides that change."""
    sides = game.rules.sides(game.options, game.n)
    if not sides or all(len(side) == 1 for side in sides):
        return None
    return [{"seats": [seats[s] for s in side], "first": seats[side[0]]} for side in sides]


def _table_link_of(request, game: Game, role: str | None) -> str | None:
    """The table link this phone came in by (it holds the link already): the outbox keeps it
    with a queued hand, to offer the PIN page again if the table session ends before it is
    sent."""
    if role is not None or game.pk not in access.table_games(request):
        return None
    token = selectors.table_link_token(game)
    return None if token is None else reverse("table-link", args=[token])


def _name(names, seat):
    return None if seat is None else names[seat]


def _history_line(game: Game, row: selectors.HistoryRow, names: list[str]) -> dict:
    """One line of the history: the hand's data (``selectors.hand_data``, the API's shape) and
    its words: summary, dealer, and the delta and running total of each seat."""
    data = selectors.hand_data(row.hand, row.totals)
    return data | {
        "corrected": row.hand.corrected,
        "waiting": row.hand.acceptance == Acceptance.PENDING,
        "rejected": row.hand.acceptance == Acceptance.REJECTED,
        "summary": hand_summary(game.ruleset, data["document"], names),
        "dealer": names[row.dealer],
        "cells": list(zip(data["deltas"], data["totals"], strict=True)),
    }


def _side_names(game, names):
    sides = game.rules.sides(game.options, game.n)
    if not sides or game.card_points is None:
        return None
    return [
        {"name": " + ".join(names[s] for s in side), "points": points}
        for side, points in zip(sides, game.card_points, strict=True)
    ]


# -- confirmation by the table ----------------------------------------------------------------


def checks(
    game: Game, hands: list[Hand], names: list[str], bound: AnswerForm | None = None
) -> list[dict[str, Any]]:
    """The waiting and rejected hands of ``game``, oldest first, each with its sentence and its
    answer form (``bound`` for the one just answered with a problem)."""
    rows = []
    sides = game.rules.sides(game.options, game.n)
    pairs = pairs_of(sides, names)
    for hand in hands:
        if hand.acceptance not in NOT_ACCEPTED:
            continue
        form = bound if bound is not None and bound.hand_number == hand.number else None
        if form is None:
            form = AnswerForm(
                hand=hand, names=names, sides=sides, initial={"etag": etags.hand_tag(hand)}
            )
        rows.append(
            {
                "hand": hand,
                "number": hand.number,
                "rejected": hand.acceptance == Acceptance.REJECTED,
                "sentence": verification(game.ruleset, hand.document, hand.deltas, names),
                "entered_by": None if hand.entered_seat is None else names[hand.entered_seat],
                "answered_by": None if hand.answered_seat is None else names[hand.answered_seat],
                "form": form,
                **(pairs(hand.entered_seat) if pairs else {}),
            }
        )
    return rows


def pairs_of(sides, names: list[str]):
    """In a game of fixed pairs (``Ruleset.sides``: Briscola pairs), what the check card adds
    for a hand entered from a seat: both pairs by name ("Anna and Carla against Bruno and
    Dario"), the entering player's partner, and who may check it (the other pair); None in a
    game without pairs."""
    if not sides or len(sides) != 2 or all(len(side) == 1 for side in sides):
        return None
    words = [get_text_list([names[seat] for seat in side], _("and")) for side in sides]
    match = _("%(side)s against %(other)s") % {"side": words[0], "other": words[1]}

    def for_seat(entered: int | None) -> dict[str, str]:
        if entered is None:
            return {"pairs": match}
        own = next(side for side in sides if entered in side)
        partners = [names[seat] for seat in own if seat != entered]
        others = [names[seat] for side in sides if side is not own for seat in side]
        return {
            "pairs": match,
            "partners": get_text_list(partners, _("and")),
            "checkers": get_text_list(others),
        }

    return for_seat


def acceptance_context(game: Game, rows: list, names: list[str]) -> dict[str, Any]:
    """What the game page adds for a game whose hands must be accepted: the accepted totals and
    the pending part per seat, and the hands to check."""
    if not game.hands_need_acceptance:
        return {}
    hands = [row.hand for row in rows]
    counted = selectors.standing(game, hands)
    return {
        "counted": counted,
        "checks": checks(game, hands, names),
        "finished_waiting": game.status == GameStatus.FINISHED and bool(counted.waiting),
    }
