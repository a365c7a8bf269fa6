"""Undoing the hand just saved, and the two removals a player means when removing a middle hand
breaks the deal order (issue 10, points 4 and 5): services, and the pages that call them."""

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring import services
from scoring.etags import game_tag, hand_tag
from scoring.models import AuditEvent, Game, Hand
from scoring.rules import RuleViolation
from scoring.services import Actor
from tests.scoring.test_services import G1, codes, play, snapshot

pytestmark = pytest.mark.django_db


def dealers(game):
    return list(game.hands.order_by("number").values_list("number", "document__dealer"))


# -- remove this hand and the ones after it -----------------------------------------------------


def test_removing_a_hand_and_the_ones_after_it_keeps_the_earlier_hands(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:4], by)
    seated = [s.player for s in terziglio.seats.order_by("index")]
    alone = services.start_game(club=terziglio.club, ruleset="terziglio", players=seated, by=by)
    kept = snapshot(play(alone, G1[:1], by))
    stored = list(game.hands.order_by("number").values_list("document", flat=True))
    read = [hand_tag(Hand.objects.get(game=game, number=2))]
    game = services.remove_hands_from(
        game=game, number=2, by=by, reason="hand 2 was a misdeal", expected=read
    )
    assert dealers(game) == [(1, G1[0]["dealer"])]
    assert snapshot(game)[:3] == kept[:3]
    removed = AuditEvent.objects.filter(game=game, action="remove_hand").order_by("hand_number")
    assert [(e.hand_number, e.reason, e.before["document"]) for e in removed] == [
        (n, "hand 2 was a misdeal", stored[n - 1]) for n in (2, 3, 4)
    ]


def test_removing_the_ones_after_needs_a_reason_and_the_hand_the_client_saw(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:3], by)
    before = snapshot(game)
    with pytest.raises(RuleViolation) as caught:
        services.remove_hands_from(game=game, number=2, by=by, reason=" ")
    assert codes(caught.value) == {(None, "reason", "required")}
    stale = [hand_tag(Hand.objects.get(game=game, number=3))]
    with pytest.raises(services.VersionConflict):
        services.remove_hands_from(game=game, number=2, by=by, reason="x", expected=stale)
    with pytest.raises(services.HandNotFound):
        services.remove_hands_from(game=game, number=9, by=by, reason="x")
    assert snapshot(game) == before


# -- remove only this hand and fix the dealers ---------------------------------------------------


def test_fixing_the_dealers_gives_each_later_hand_the_dealer_in_turn(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:4], by)
    assert services.dealers_fixable(game=game, number=2)
    stored = [h.document for h in Hand.objects.filter(game=game).order_by("number")]
    game = services.remove_hand_fixing_dealers(
        game=game, number=2, by=by, reason="entered twice", expected=[game_tag(game)]
    )
    first = G1[0]["dealer"]
    assert dealers(game) == [(1, first), (2, (first + 1) % 3), (3, (first + 2) % 3)]
    # Everything but the dealer is kept, and the figures are those of a replay.
    for hand, original in zip(game.hands.order_by("number")[1:], stored[2:4], strict=True):
        assert {k: v for k, v in hand.document.items() if k != "dealer"} == {
            k: v for k, v in original.items() if k != "dealer"
        }
        assert hand.version == 2
    game.refresh_from_db()
    assert game.hand_count == 3
    assert sum(game.totals) == 0
    events = AuditEvent.objects.filter(game=game, at__isnull=False).exclude(
        action__in=["record_hand", "start_game"]
    )
    assert sorted((e.action, e.hand_number, e.reason) for e in events) == [
        ("correct_hand", 2, "entered twice"),
        ("correct_hand", 3, "entered twice"),
        ("remove_hand", 2, "entered twice"),
    ]


def test_fixing_the_dealers_is_refused_when_a_later_hand_no_longer_fits(club, players, olga):
    """Four at a Terziglio table: the dealer sits out. Hand 3's soloist (Bruno) would become its
    dealer, who gets no cards: the replay refuses, nothing changes."""
    by = Actor.for_user(olga)
    game = services.start_game(club=club, ruleset="terziglio", players=players, by=by)
    documents = [
        {"dealer": 0, "outcome": "passed_out"},
        {"dealer": 1, "outcome": "played", "soloist": 2, "contract": "solo", "soloist_points": 7},
        {"dealer": 2, "outcome": "played", "soloist": 1, "contract": "solo", "soloist_points": 7},
    ]
    game = play(game, documents, by)
    before = snapshot(game)
    assert not services.dealers_fixable(game=game, number=2)
    with pytest.raises(RuleViolation) as caught:
        services.remove_hand_fixing_dealers(game=game, number=2, by=by, reason="x")
    assert {p.hand for p in caught.value.problems} == {3}
    assert snapshot(game) == before


# -- undo -------------------------------------------------------------------------------------


def test_the_hand_just_saved_is_undone_by_who_saved_it_and_audited(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:2], by)
    hand = Hand.objects.get(game=game, number=2)
    game = services.undo_hand(
        game=game, number=2, by=by, expected=[hand_tag(hand)], within_seconds=10
    )
    assert game.hand_count == 1
    assert list(game.hands.values_list("number", flat=True)) == [1]
    event = AuditEvent.objects.get(game=game, action="undo_hand")
    assert (event.hand_number, event.actor, event.before["document"]) == (2, olga, G1[1])


def test_a_retried_undo_never_removes_a_second_hand(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:2], by)
    read = [hand_tag(Hand.objects.get(game=game, number=2))]
    services.undo_hand(game=game, number=2, by=by, expected=read, within_seconds=10)
    with pytest.raises(services.HandNotFound):
        services.undo_hand(game=game, number=2, by=by, expected=read, within_seconds=10)
    play(Game.objects.get(pk=game.pk), [G1[1]], by)  # hand 2 entered again: a new row
    with pytest.raises(services.VersionConflict):
        services.undo_hand(game=game, number=2, by=by, expected=read, within_seconds=10)
    assert Game.objects.get(pk=game.pk).hand_count == 2


@pytest.mark.parametrize("why", ["too_late", "not_the_last", "corrected", "someone_else"])
def test_undo_is_refused_after_the_window_or_from_another_client(terziglio, olga, oscar, why):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:3], by)
    number = 3
    if why == "too_late":
        Hand.objects.filter(game=game, number=3).update(
            created_at=timezone.now() - timedelta(seconds=11)
        )
    elif why == "not_the_last":
        number = 2
    elif why == "corrected":
        services.correct_hand(game=game, number=3, document=G1[2] | {"soloist_points": 5}, by=by)
    else:
        by = Actor.for_user(oscar)
    before = snapshot(game)
    read = [hand_tag(Hand.objects.get(game=game, number=number))]
    with pytest.raises(services.UndoExpired):
        services.undo_hand(game=game, number=number, by=by, expected=read, within_seconds=10)
    assert snapshot(game) == before
