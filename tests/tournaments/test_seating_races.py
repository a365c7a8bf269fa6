"""A hand typed before a swap or a replacement races the change, with real commits (issue 33
point 2): the phone's page was served at seating N (``Game.seating``) and the hand names it;
the organizer swaps or replaces the hand's soloist meanwhile. Whichever commits first, the
hand is never credited to a player who did not play it: either the hand is stored first and
the change is refused (``has_hands``: a table that started stays), or the change is first and
the hand is refused (409 ``seating_changed``, naming who replaced whom), nothing stored.

The hand starts 0 to 60 ms after the change (as seen in the issue: the change committed 24–60
ms before the hand), so that both orders happen. On SQLite the IMMEDIATE transactions
serialise the writers: a few tries there; PostgreSQL is where they race (``DATABASE_URL``).
"""

from __future__ import annotations

import time

import pytest
from django.conf import settings

from scoring import services as scoring
from scoring.models import Game, Hand
from scoring.services import Actor
from tests.concurrency import race
from tournaments import services
from tournaments.models import Round

from .helpers import enter, make_competition, tables_of, terziglio_won_by

pytestmark = pytest.mark.django_db(transaction=True)

TRIES = 40 if "postgresql" in settings.DATABASES["default"]["ENGINE"] else 4


def night(club, olga, attempt: int) -> tuple[Round, int, list[int], int]:
    """A club night of 7 published (a table of four, a table of three) and a late entrant with
    a bye: the round, the game of the table of three, its entries in seat order, and the late
    entrant."""
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, name=f"Sera {attempt}", format="club_night")
    enter(competition, olga, 7)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    late = services.add_entry(competition=competition, player=f"Zeno {attempt}", by=by)
    services.give_bye(round_=round_, entry=late, by=by)
    three = next(t for t in round_.tables.select_related("game") if t.seats.count() == 3)
    return round_, three.game_id, [s.entry_id for s in three.seats.order_by("position")], late.pk


def seated(game_id: int) -> list[int]:
    return list(
        Game.objects.get(pk=game_id).seats.order_by("index").values_list("player_id", flat=True)
    )


def test_a_hand_typed_before_a_swap_or_a_replacement_is_never_credited_to_another_player(
    club, players, olga
):
    by = Actor.for_user(olga)
    counts = {"hand first": 0, "change first": 0, "wrong player": 0}
    for attempt in range(TRIES):
        round_, game_id, entries, late = night(club, olga, attempt)
        soloist = entries[1]  # the hand below is won by seat 1: the entry the change moves
        other = next(e for t in tables_of(round_) if len(t) == 4 for e in t[1:2])
        swap = attempt % 2 == 0

        def change(round_, soloist=soloist, other=other, swap=swap, late=late):
            if swap:
                return services.swap_published(round_=round_, a=soloist, b=other, by=by)
            return services.replace_entry(round_=round_, absent=soloist, late=late, by=by)

        def page(game_id=game_id):
            """What the phone showed when the hand was typed: the seats and their version."""
            return seated(game_id), Game.objects.get(pk=game_id).seating

        def hand(shown, game_id=game_id, delay=(attempt % 4) * 0.02):
            time.sleep(delay)
            document = terziglio_won_by(1, 3)[0] | {"seating": shown[1]}
            return scoring.record_hand(game=game_id, document=document, by=by)

        (changed, outcome), (entered, answer) = race(
            (
                lambda pk=round_.pk: Round.objects.select_related("competition__club").get(pk=pk),
                change,
            ),
            (page, lambda shown: (shown, hand(shown))),
        )
        assert "error" not in {changed, entered}, (attempt, outcome, answer)
        if entered == "done" and seated(game_id) != answer[0][0]:
            counts["wrong player"] += 1  # stored, for seats that changed under it
        elif entered == "done":
            counts["hand first"] += 1  # the table started: the change is refused
            assert changed == "refused", (attempt, outcome)
            assert [(p.code, p.params["reason"]) for p in outcome.problems] == [
                ("not_allowed", "has_hands")
            ]
        else:
            counts["change first"] += 1  # the hand is refused, naming the change
            assert changed == "done", (attempt, outcome)
            assert not Hand.objects.filter(game_id=game_id).exists()
            (problem,) = answer.problems
            assert (problem.field, problem.code) == ("seating", "seating_changed")
            assert problem.params["reason"] == "replaced"  # who replaced whom at this table
    print(f"\nswap/replace against a hand typed before it, {TRIES} tries: {counts}")
    assert counts["wrong player"] == 0
    assert counts["hand first"] + counts["change first"] == TRIES
