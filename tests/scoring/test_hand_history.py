"""A hand's history follows the hand, not its number (issue 21, point 1): after a removal moves
the later hands up, each hand's page, the API's audit and a club's export still name the events
of that very hand, by its serial."""

import importlib
from types import SimpleNamespace

import pytest

from scoring import selectors, services
from scoring.etags import hand_tag
from scoring.models import AuditAction, AuditEvent, Hand
from tests.builders import by
from tests.clients import api_as, login
from tournaments.services.club_data import export_club, import_club

PASSED = {"outcome": "passed_out"}


def passed(dealer):
    return {"dealer": dealer, **PASSED}


@pytest.fixture
def three_hands(terziglio, olga):
    for dealer in range(3):
        services.record_hand(game=terziglio, document=passed(dealer), by=by(olga))
    return terziglio


def remove_first(game, olga):
    """Hand 1 removed: the hands entered second and third are now hands 1 and 2."""
    services.remove_hand(game=game, number=1, by=by(olga), reason="a mistake")


def test_serials_are_given_once_and_never_follow_the_numbers(three_hands, olga):
    game = three_hands
    assert list(game.hands.order_by("number").values_list("number", "serial")) == [
        (1, 1),
        (2, 2),
        (3, 3),
    ]
    remove_first(game, olga)
    assert list(game.hands.order_by("number").values_list("number", "serial")) == [(1, 2), (2, 3)]
    services.record_hand(game=game, document=passed(0), by=by(olga))
    # The next hand gets serial 4: serial 1 belonged to the removed hand and is not given again.
    assert game.hands.get(number=3).serial == 4


def test_the_page_of_a_moved_hand_shows_its_own_history_not_the_removed_hands(three_hands, olga):
    game = three_hands
    remove_first(game, olga)
    page = login(olga).get(f"/g/{game.pk}/hands/1/").content.decode()
    trail = page.split('class="trail"', 1)[1].split("</ol>", 1)[0]
    # Hand 1 is now the hand entered second: its one event is its entry, as hand 2.
    assert trail.count("<li>") == 1
    assert "hand entered" in trail
    assert "hand removed" not in trail
    assert "then hand 2" in trail  # entered as hand 2
    removed = AuditEvent.objects.get(game=game, action=AuditAction.REMOVE_HAND)
    assert removed.hand_serial == 1


def test_a_selector_reads_the_trail_by_serial(three_hands, olga):
    game = three_hands
    remove_first(game, olga)
    for hand in Hand.objects.filter(game=game):
        trail = selectors.audit_of_hand(game, hand)
        assert {e.hand_serial for e in trail} == {hand.serial}
        assert trail[0].action == AuditAction.RECORD_HAND


def test_the_api_audit_names_each_events_hand_by_serial_and_number_then(three_hands, olga):
    game = three_hands
    remove_first(game, olga)
    rows = api_as(olga).get(f"/api/v1/games/{game.pk}/audit/").json()["results"]
    entries = [(r["action"], r["hand"], r["hand_serial"]) for r in rows if r["hand"] is not None]
    assert entries[:3] == [("record_hand", 1, 1), ("record_hand", 2, 2), ("record_hand", 3, 3)]
    assert entries[3:] == [("remove_hand", 1, 1)]
    hand = api_as(olga).get(f"/api/v1/games/{game.pk}/hands/1/").json()
    assert hand["serial"] == 2


def test_an_undone_hands_serial_is_not_given_again(terziglio, olga, settings):
    services.record_hand(game=terziglio, document=passed(0), by=by(olga))
    hand = terziglio.hands.get()
    services.undo_hand(
        game=terziglio, number=1, by=by(olga), expected=[hand_tag(hand)], within_seconds=60
    )
    services.record_hand(game=terziglio, document=passed(0), by=by(olga))
    assert terziglio.hands.get().serial == 2
    undone = AuditEvent.objects.get(game=terziglio, action=AuditAction.UNDO_HAND)
    assert undone.hand_serial == 1


def test_a_correction_after_the_move_joins_the_moved_hands_own_trail(three_hands, olga):
    game = three_hands
    remove_first(game, olga)
    services.correct_hand(
        game=game,
        number=1,
        document={
            "dealer": 1,
            "outcome": "played",
            "soloist": 2,
            "contract": "chiamo",
            "soloist_points": 7,
        },
        by=by(olga),
        reason="it was played",
    )
    moved = game.hands.get(number=1)
    actions = [e.action for e in selectors.audit_of_hand(game, moved)]
    assert actions == [AuditAction.RECORD_HAND, AuditAction.CORRECT_HAND]


# -- the upgrade: serials worked out from an older trail (migration 0014) ----------------------

UPGRADE = importlib.import_module("scoring.migrations.0014_hand_serial")


def trail(*rows):
    """Events ``(action, number, at)`` in order, with ids 1, 2, 3..."""
    return [
        SimpleNamespace(id=i, action=action, hand_number=number, at=at, after=None)
        for i, (action, number, at) in enumerate(rows, start=1)
    ]


def test_the_upgrade_follows_entries_removals_and_undos():
    events = trail(
        ("start_game", None, 0),
        ("record_hand", 1, 1),  # serial 1
        ("record_hand", 2, 2),  # serial 2
        ("record_hand", 3, 3),  # serial 3
        ("correct_hand", 2, 4),  # serial 2
        ("remove_hand", 1, 5),  # serial 1 leaves: 2, 3 are hands 1, 2
        ("correct_hand", 1, 6),  # serial 2
        ("record_hand", 3, 7),  # serial 4
        ("undo_hand", 3, 8),  # serial 4 leaves
        ("record_hand", 3, 9),  # serial 5
        ("remove_hand", 2, 10),  # removed with the hands after it: serials 3 and 5
        ("remove_hand", 3, 10),
    )
    of_event, alive, given = UPGRADE.serials(events, hand_count=1)
    assert of_event == {2: 1, 3: 2, 4: 3, 5: 2, 6: 1, 7: 2, 8: 4, 9: 4, 10: 5, 11: 3, 12: 5}
    assert (alive, given) == ([2], 5)


def test_the_upgrade_counts_an_imports_hands_and_refuses_a_trail_that_does_not_add_up():
    imported = trail(("import_game", None, 0), ("record_hand", 3, 1))
    imported[0].after = {"hands": [{}, {}]}
    assert UPGRADE.serials(imported, hand_count=3) == ({2: 3}, [1, 2, 3], 3)
    with pytest.raises(UPGRADE.Untold):
        UPGRADE.serials(trail(("record_hand", 2, 0)), hand_count=1)
    with pytest.raises(UPGRADE.Untold):
        UPGRADE.serials(trail(("record_hand", 1, 0)), hand_count=2)


def test_a_clubs_export_carries_each_hands_history_to_the_copy(three_hands, olga):

    game = three_hands
    remove_first(game, olga)
    copy = import_club(document=export_club(club=game.club), slug="copia")
    copied = copy.games.get()
    for hand in copied.hands.all():
        original = game.hands.get(number=hand.number)
        assert hand.serial == original.serial
        assert [e.action for e in selectors.audit_of_hand(copied, hand)] == [
            e.action for e in selectors.audit_of_hand(game, original)
        ]
