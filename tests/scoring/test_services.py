"""The write services: one door per write, rules through the engine, audit in the same
transaction, nothing stored when anything is wrong."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring import services
from scoring.etags import hand_tag
from scoring.models import AuditEvent, Game, Hand, IdempotencyRecord, Player, Seat, TableLink
from scoring.rules import RuleViolation
from scoring.services import Actor
from tests.scoring.rules.games import hand_documents

pytestmark = pytest.mark.django_db

#: The hands of the rules pages' Terziglio game G1 (docs/rules/terziglio.md §8).
G1 = hand_documents("terziglio", "G1")


def codes(error):
    return {(p.hand, p.field, p.code) for p in error.problems}


def snapshot(game):
    game = Game.objects.get(pk=game.pk)
    return (
        game.status,
        game.totals,
        game.hand_count,
        game.version,
        list(game.hands.values_list("number", "document", "deltas", "version")),
        AuditEvent.objects.filter(game=game).count(),
    )


def play(game, documents, by):
    for document in documents:
        services.record_hand(game=game, document=document, by=by)
    return Game.objects.get(pk=game.pk)


def test_start_game_seats_the_players_resolves_options_and_opens_a_table_link(club, players, olga):
    game = services.start_game(
        club=club,
        ruleset="calabrasella",
        players=players,
        options={"sweep_payment": 50},
        by=Actor.for_user(olga),
    )
    assert game.options == {
        "deals": 12,
        "sweep_payment": 50,
        "sitting_out_dealer_pays": False,
        "free_dealer": False,
    }
    assert list(Seat.objects.filter(game=game).values_list("index", "player__display_name")) == [
        (0, "Anna"),
        (1, "Bruno"),
        (2, "Carla"),
        (3, "Dario"),
    ]
    assert game.totals == [0, 0, 0, 0] and game.status == "in_progress" and game.hand_count == 0
    assert len(TableLink.objects.get(game=game).pin) == 6  # PIN_DIGITS: docs/architecture.md
    (event,) = AuditEvent.objects.filter(game=game)
    assert event.action == "start_game" and event.actor == olga
    assert event.after["players"] == ["Anna", "Bruno", "Carla", "Dario"]


def test_briscola_pairs_store_the_sides_of_the_seats(club, players, olga):
    game = services.start_game(
        club=club, ruleset="briscola", players=players, by=Actor.for_user(olga)
    )
    assert list(game.seats.order_by("index").values_list("side", flat=True)) == [0, 1, 0, 1]


def test_new_names_become_players_of_the_club_and_known_names_are_reused(club, players, olga):
    game = services.start_game(
        club=club,
        ruleset="terziglio",
        players=["anna", "  Zoe  Neri ", players[1].pk],
        by=Actor.for_user(olga),
    )
    seated = list(game.seats.order_by("index").values_list("player__display_name", flat=True))
    assert seated == ["Anna", "Zoe Neri", "Bruno"]
    assert Player.objects.filter(club=club).count() == 5


def test_start_game_reports_every_problem_and_creates_nothing(club, players, other_club, olga):
    stranger = other_club.players.first()
    with pytest.raises(RuleViolation) as caught:
        services.start_game(
            club=club,
            ruleset="terziglio",
            players=[players[0].pk, players[0].pk, stranger, 999_999, "New Person"],
            options={"target_score": 0},
            by=Actor.for_user(olga),
        )
    assert codes(caught.value) == {
        (None, "players", "range"),
        (None, "options.target_score", "range"),
        (None, "players[1]", "duplicate"),
        (None, "players[2]", "not_found"),
        (None, "players[3]", "not_found"),
    }
    assert not Game.objects.exists()
    assert not Player.objects.filter(display_name="New Person").exists()


def test_an_unknown_ruleset_is_refused(club, players, olga):
    with pytest.raises(RuleViolation) as caught:
        services.start_game(club=club, ruleset="scopa", players=players, by=Actor.for_user(olga))
    assert codes(caught.value) == {(None, "ruleset", "choice")}


def test_record_hand_stores_the_hand_and_updates_the_cache_and_the_audit(terziglio, sara):
    result = services.record_hand(game=terziglio, document=G1[0], by=Actor.for_user(sara))
    hand = Hand.objects.get(game=terziglio, number=1)
    assert hand.document == {**G1[0], "sweep": "none"}
    assert hand.deltas == [2, -1, -1]
    assert (hand.entered_by, hand.entered_via, hand.version) == (sara, "page", 1)
    game = Game.objects.get(pk=terziglio.pk)
    assert (game.totals, game.hand_count, game.last_dealer, game.version) == ([2, -1, -1], 1, 0, 2)
    assert result.payload["totals"] == [2, -1, -1]
    assert result.payload["game"]["next_dealer"] == 1
    event = AuditEvent.objects.get(game=game, action="record_hand")
    assert (event.hand_number, event.actor, event.after["deltas"]) == (1, sara, [2, -1, -1])


def test_an_invalid_hand_changes_nothing(terziglio, olga):
    by = Actor.for_user(olga)
    services.record_hand(game=terziglio, document=G1[0], by=by)
    before = snapshot(terziglio)
    with pytest.raises(RuleViolation) as caught:
        services.record_hand(game=terziglio, document={**G1[1], "dealer": 2}, by=by)
    assert codes(caught.value) == {(2, "dealer", "wrong_dealer")}
    assert snapshot(terziglio) == before


def test_the_game_finishes_and_refuses_another_hand(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1, by)
    assert (game.status, game.totals) == ("finished", [37, -32, -5])
    assert game.finished_at is not None and game.next_dealer is None
    before = snapshot(game)
    with pytest.raises(RuleViolation) as caught:
        services.record_hand(game=game, document={"dealer": 1, "outcome": "passed_out"}, by=by)
    assert codes(caught.value) == {(8, "game", "game_finished")}
    assert snapshot(game) == before


def test_a_resend_with_the_same_key_returns_the_first_answer_and_stores_nothing(terziglio, olga):
    by = Actor.for_user(olga)
    first = services.record_hand(game=terziglio, document=G1[0], by=by, idempotency_key="phone-1")
    again = services.record_hand(game=terziglio, document=G1[0], by=by, idempotency_key="phone-1")
    assert again.replayed and again.payload == first.payload
    assert Hand.objects.filter(game=terziglio).count() == 1
    assert IdempotencyRecord.objects.count() == 1


def test_the_same_key_with_another_document_is_a_conflict(terziglio, olga):
    by = Actor.for_user(olga)
    services.record_hand(game=terziglio, document=G1[0], by=by, idempotency_key="phone-1")
    with pytest.raises(services.IdempotencyConflict):
        services.record_hand(game=terziglio, document=G1[1], by=by, idempotency_key="phone-1")
    assert Hand.objects.filter(game=terziglio).count() == 1


def test_keys_are_scoped_per_client(terziglio, olga, sara):
    services.record_hand(
        game=terziglio, document=G1[0], by=Actor.for_user(olga), idempotency_key="k"
    )
    services.record_hand(
        game=terziglio, document=G1[1], by=Actor.for_user(sara), idempotency_key="k"
    )
    assert Hand.objects.filter(game=terziglio).count() == 2


def test_correcting_a_hand_replays_the_game_and_can_reopen_it(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1, by)
    new = {"dealer": 0, "outcome": "played", "soloist": 0, "contract": "solo", "soloist_points": 4}
    read = [hand_tag(Hand.objects.get(game=game, number=7))]
    game = services.correct_hand(
        game=game, number=7, document=new, by=by, expected=read, reason="typo"
    )
    assert (game.status, game.totals, game.finished_at) == ("in_progress", [9, -18, 9], None)
    hand = Hand.objects.get(game=game, number=7)
    assert (hand.version, hand.deltas) == (2, [-4, 2, 2])
    event = AuditEvent.objects.get(game=game, action="correct_hand")
    assert event.before["deltas"] == [24, -12, -12] and event.after["deltas"] == [-4, 2, 2]
    assert event.reason == "typo"
    services.record_hand(game=game, document={"dealer": 1, "outcome": "passed_out"}, by=by)


def test_a_correction_the_replay_rejects_changes_nothing_and_names_the_hand(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1, by)
    before = snapshot(game)
    new = {
        "dealer": 1,
        "outcome": "played",
        "soloist": 0,
        "contract": "scegliete",
        "soloist_points": 6,
    }
    with pytest.raises(RuleViolation) as caught:
        services.correct_hand(game=game, number=5, document=new, by=by)
    assert codes(caught.value) == {(6, "game", "game_finished")}
    assert snapshot(game) == before


def test_a_stale_version_is_refused(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:2], by)
    read = [hand_tag(Hand.objects.get(game=game, number=1))]
    services.correct_hand(
        game=game, number=1, document={**G1[0], "soloist_points": 8}, by=by, expected=read
    )
    with pytest.raises(services.VersionConflict) as caught:
        services.correct_hand(
            game=game, number=1, document={**G1[0], "soloist_points": 9}, by=by, expected=read
        )
    assert caught.value.current == 2


def test_several_hands_corrected_at_once_may_change_the_rotation_together(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:3], by)
    changes = {1: {**G1[0], "dealer": 1}, 2: {**G1[1], "dealer": 2}, 3: {**G1[2], "dealer": 0}}
    with pytest.raises(RuleViolation):
        services.correct_hand(game=game, number=1, document=changes[1], by=by)
    game = services.correct_hands(game=game, changes=changes, by=by)
    assert game.last_dealer == 0
    assert list(game.hands.values_list("version", flat=True)) == [2, 2, 2]


def test_an_unchanged_correction_is_not_a_new_version(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:1], by)
    services.correct_hand(game=game, number=1, document=G1[0], by=by)
    assert Hand.objects.get(game=game, number=1).version == 1


def test_correcting_a_missing_hand_is_not_found(terziglio, olga):
    with pytest.raises(services.HandNotFound):
        services.correct_hand(game=terziglio, number=3, document=G1[0], by=Actor.for_user(olga))


def test_removing_a_hand_needs_a_reason_and_renumbers_the_later_hands(club, players, olga):
    by = Actor.for_user(olga)
    game = services.start_game(
        club=club,
        ruleset="briscola",
        players=players[:2],
        options={"free_dealer": True, "hands_to_win": 5},
        by=by,
    )
    game = play(
        game,
        [
            {"dealer": 0, "points": [70, 50]},
            {"dealer": 1, "points": [40, 80]},
            {"dealer": 0, "points": [61, 59]},
        ],
        by,
    )
    with pytest.raises(RuleViolation) as caught:
        services.remove_hand(game=game, number=2, by=by, reason="  ")
    assert codes(caught.value) == {(None, "reason", "required")}
    game = services.remove_hand(game=game, number=2, by=by, reason="entered twice")
    assert list(game.hands.values_list("number", "document__points")) == [
        (1, [70, 50]),
        (2, [61, 59]),
    ]
    assert (game.totals, game.card_points, game.hand_count) == ([2, 0], [131, 109], 2)
    event = AuditEvent.objects.get(game=game, action="remove_hand")
    assert (event.hand_number, event.before["document"], event.reason) == (
        2,
        {"dealer": 1, "points": [40, 80]},
        "entered twice",
    )


def test_removing_a_hand_that_breaks_the_rotation_names_the_later_hand_in_the_old_numbering(
    terziglio, olga
):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:4], by)
    before = snapshot(game)
    with pytest.raises(RuleViolation) as caught:
        services.remove_hand(game=game, number=2, by=by, reason="mistake")
    assert codes(caught.value) == {(3, "dealer", "wrong_dealer")}
    assert snapshot(game) == before


def test_removing_the_last_hand_reopens_a_finished_game(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1, by)
    read = [hand_tag(Hand.objects.get(game=game, number=7))]
    game = services.remove_hand(game=game, number=7, by=by, reason="not played", expected=read)
    assert (game.status, game.totals, game.hand_count) == ("in_progress", [13, -20, 7], 6)


def test_an_abandoned_game_refuses_every_change(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:2], by)
    game = services.abandon_game(game=game, by=by, reason="Carla had to leave")
    assert game.status == "abandoned" and game.abandon_reason == "Carla had to leave"
    for call in (
        lambda: services.record_hand(game=game, document=G1[2], by=by),
        lambda: services.correct_hand(game=game, number=1, document=G1[0], by=by),
        lambda: services.remove_hand(game=game, number=1, by=by, reason="x"),
        lambda: services.abandon_game(game=game, by=by, reason="again"),
    ):
        with pytest.raises(RuleViolation) as caught:
            call()
        assert codes(caught.value) == {(None, "game", "game_abandoned")}


def test_import_game_stores_every_hand_and_is_audited_as_an_import(club, olga):
    document = {"ruleset": "terziglio", "players": ["Anna", "Bruno", "Carla"], "hands": G1}
    game = services.import_game(club=club, document=document, by=Actor.for_user(olga, via="import"))
    assert (game.status, game.totals, game.hand_count) == ("finished", [37, -32, -5], 7)
    assert set(game.hands.values_list("entered_via", flat=True)) == {"import"}
    assert AuditEvent.objects.get(game=game).action == "import_game"


def test_import_game_reports_a_bad_hand_with_its_number(club, olga):
    document = {
        "ruleset": "terziglio",
        "players": ["Anna", "Bruno", "Carla"],
        "hands": [G1[0], G1[0]],
    }
    with pytest.raises(RuleViolation) as caught:
        services.import_game(club=club, document=document, by=Actor.for_user(olga))
    assert codes(caught.value) == {(2, "dealer", "wrong_dealer")}
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ([], {(None, "document", "type")}),
        ({"players": ["A", "B", "C"]}, {(None, "ruleset", "required")}),
        (
            {"ruleset": "terziglio", "players": ["A", "B", "C"], "title": 3},
            {(None, "title", "type")},
        ),
        (
            {"ruleset": "terziglio", "players": ["A", "B", "C"], "deltas": []},
            {(None, "deltas", "unknown_key")},
        ),
    ],
)
def test_import_game_rejects_a_malformed_document(club, olga, document, expected):
    with pytest.raises(RuleViolation) as caught:
        services.import_game(club=club, document=document, by=Actor.for_user(olga))
    assert codes(caught.value) == expected


def test_only_members_and_the_games_table_link_may_write(terziglio, bea, olga):
    with pytest.raises(services.NotAllowed):
        services.record_hand(game=terziglio, document=G1[0], by=Actor.for_user(bea))
    with pytest.raises(services.NotAllowed):
        services.record_hand(game=terziglio, document=G1[0], by=Actor.for_table(terziglio.pk + 1))
    services.record_hand(game=terziglio, document=G1[0], by=Actor.for_table(terziglio.pk))
    with pytest.raises(services.NotAllowed):
        services.abandon_game(game=terziglio, by=Actor.for_table(terziglio.pk), reason="x")
    with pytest.raises(services.NotAllowed):
        services.start_game(
            club=terziglio.club,
            ruleset="terziglio",
            players=["A", "B", "C"],
            by=Actor.for_user(bea),
        )


def test_player_names_are_unique_in_a_club_whatever_the_case(club, players, olga):
    with pytest.raises(RuleViolation) as caught:
        services.add_player(club=club, display_name="  anna ", by=Actor.for_user(olga))
    assert codes(caught.value) == {(None, "display_name", "duplicate")}
    with pytest.raises(RuleViolation):
        services.add_player(club=club, display_name="   ", by=Actor.for_user(olga))


def test_the_audit_trail_is_append_only(terziglio):
    event = AuditEvent.objects.get(game=terziglio)
    with pytest.raises(TypeError):
        event.save()
    with pytest.raises(TypeError):
        event.delete()
    with pytest.raises(TypeError):
        AuditEvent.objects.filter(game=terziglio).update(reason="x")
    with pytest.raises(TypeError):
        AuditEvent.objects.filter(game=terziglio).delete()


def test_pin_guessing_is_limited_per_game(terziglio):
    link = TableLink.objects.get(game=terziglio)
    wrong = "0000" if link.pin != "0000" else "1111"
    results = [
        services.check_pin(link=link, pin=wrong, max_attempts=3, window_minutes=15)
        for _ in range(3)
    ]
    assert results == [False, False, False]
    # Locked: even the right PIN is refused until the window has passed.
    assert services.check_pin(link=link, pin=link.pin, max_attempts=3, window_minutes=15) is None
    TableLink.objects.filter(pk=link.pk).update(
        window_started=timezone.now() - timedelta(minutes=16)
    )
    assert services.check_pin(link=link, pin=link.pin, max_attempts=3, window_minutes=15) is True
    link.refresh_from_db()
    assert link.failures == 0


def test_database_constraints_hold_when_the_services_are_bypassed(terziglio):
    Hand.objects.create(game=terziglio, number=1, serial=1, document={}, deltas=[0, 0, 0])
    for bad in (
        lambda: Hand.objects.create(
            game=terziglio, number=1, serial=2, document={}, deltas=[0, 0, 0]
        ),
        lambda: Hand.objects.create(
            game=terziglio, number=2, serial=1, document={}, deltas=[0, 0, 0]
        ),
        lambda: Hand.objects.create(
            game=terziglio, number=0, serial=3, document={}, deltas=[0, 0, 0]
        ),
        lambda: Hand.objects.create(
            game=terziglio, number=2, serial=4, document={}, deltas=[0, 0, 0], version=0
        ),
        lambda: Game.objects.filter(pk=terziglio.pk).update(ruleset="scopa"),
        lambda: Game.objects.filter(pk=terziglio.pk).update(status="won"),
        lambda: Seat.objects.create(game=terziglio, index=3, player=terziglio.seats.first().player),
        lambda: Player.objects.create(club=terziglio.club, display_name="ANNA"),
        lambda: IdempotencyRecord.objects.bulk_create(
            [
                IdempotencyRecord(
                    client="c",
                    key="k",
                    game=terziglio,
                    fingerprint="f",
                    status_code=201,
                    response={},
                )
            ]
            * 2
        ),
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            bad()
