"""Confirmation by the table: in a game whose hands must be accepted, a hand counts once a player
of another side accepts it; a rejected hand goes back for correction. And two phones, one
truth: a hand already entered from another phone is refused as such."""

import pytest

from scoring import etags, selectors, services
from scoring.models import Acceptance, AuditAction, AuditEvent, Game, Hand, LockReason
from scoring.rules import RuleViolation
from scoring.services import Actor
from tests.clients import api_as, with_pin
from tests.scoring.rules.games import hand_documents

G1 = hand_documents("terziglio", "G1")
# Hand 1 of G1: Anna (seat 0) dealt, made "chiamo" with 7.

pytestmark = pytest.mark.django_db


@pytest.fixture
def checked(club, players, olga):
    """A Terziglio game of Anna, Bruno and Carla whose hands must be accepted."""
    return services.start_game(
        club=club,
        ruleset="terziglio",
        players=players[:3],
        by=Actor.for_user(olga),
        hands_need_acceptance=True,
    )


def enter(game, olga, document, seat=0, **kwargs):
    return services.record_hand(
        game=game, document=document, by=Actor.for_user(olga), seat=seat, **kwargs
    )


def tag(game, number):
    return (etags.hand_tag(Hand.objects.get(game=game, number=number)),)


def test_a_hand_entered_in_a_checked_game_is_pending_and_does_not_count(checked, olga):
    enter(checked, olga, G1[0])
    checked.refresh_from_db()
    hand = checked.hands.get()
    assert (hand.acceptance, hand.entered_seat) == (Acceptance.PENDING, 0)
    counted = selectors.standing(checked, [hand])
    assert counted.accepted == (0, 0, 0)
    assert counted.pending == tuple(hand.deltas)
    assert counted.waiting == (1,)
    # The deal moves on all the same: the cards were played.
    assert checked.next_dealer == 1


def test_hands_of_a_game_without_confirmation_count_at_once(terziglio, olga):
    services.record_hand(game=terziglio, document=G1[0], by=Actor.for_user(olga))
    assert terziglio.hands.get().acceptance == Acceptance.ACCEPTED


def test_a_player_of_another_side_accepts_and_the_audit_says_who(checked, olga):
    enter(checked, olga, G1[0])
    version = Game.objects.get(pk=checked.pk).version
    game = services.accept_hand(
        game=checked, number=1, by=Actor.for_user(olga), seat=2, expected=tag(checked, 1)
    )
    hand = game.hands.get()
    assert (hand.acceptance, hand.answered_seat) == (Acceptance.ACCEPTED, 2)
    assert game.version == version + 1
    assert selectors.standing(game, [hand]).accepted == tuple(game.totals)
    event = AuditEvent.objects.get(action=AuditAction.ACCEPT_HAND)
    assert (event.hand_number, event.after["seat"], event.after["player"]) == (1, 2, "Carla")


def test_the_player_who_entered_the_hand_may_not_accept_it(checked, olga):
    enter(checked, olga, G1[0], seat=1)
    with pytest.raises(RuleViolation) as refused:
        services.accept_hand(game=checked, number=1, by=Actor.for_user(olga), seat=1)
    assert [(p.field, p.code) for p in refused.value.problems] == [("seat", "same_side")]
    assert checked.hands.get().acceptance == Acceptance.PENDING


def test_a_partner_of_the_entering_player_may_not_accept(club, players, olga):
    game = services.start_game(
        club=club,
        ruleset="briscola",
        players=players,
        options={"format": "pairs"},
        by=Actor.for_user(olga),
        hands_need_acceptance=True,
    )
    sides = {s.index: s.side for s in game.seats.all()}
    partner = next(i for i in range(1, 4) if sides[i] == sides[0])
    opponent = next(i for i in range(1, 4) if sides[i] != sides[0])
    enter(game, olga, {"dealer": 0, "points": [70, 50]}, seat=0)
    with pytest.raises(RuleViolation):
        services.accept_hand(game=game, number=1, by=Actor.for_user(olga), seat=partner)
    services.accept_hand(game=game, number=1, by=Actor.for_user(olga), seat=opponent)
    assert game.hands.get().acceptance == Acceptance.ACCEPTED


def test_a_rejected_hand_goes_back_for_correction_then_is_pending_again(checked, olga):
    enter(checked, olga, G1[0])
    by = Actor.for_user(olga)
    services.reject_hand(game=checked, number=1, by=by, seat=1, reason=" Anna made 6 ")
    hand = checked.hands.get()
    assert (hand.acceptance, hand.reject_reason) == (Acceptance.REJECTED, "Anna made 6")
    event = AuditEvent.objects.get(action=AuditAction.REJECT_HAND)
    assert (event.reason, event.after["player"]) == ("Anna made 6", "Bruno")
    # A rejected hand is not accepted until corrected.
    with pytest.raises(services.Conflict):
        services.accept_hand(game=checked, number=1, by=by, seat=1)
    services.correct_hand(game=checked, number=1, document=G1[0] | {"soloist_points": 6}, by=by)
    hand.refresh_from_db()
    assert (hand.acceptance, hand.answered_seat) == (Acceptance.PENDING, None)
    services.accept_hand(game=checked, number=1, by=by, seat=1)
    hand.refresh_from_db()
    assert hand.acceptance == Acceptance.ACCEPTED


def test_a_correction_of_an_accepted_hand_must_be_accepted_again(checked, olga):
    by = Actor.for_user(olga)
    enter(checked, olga, G1[0])
    services.accept_hand(game=checked, number=1, by=by, seat=2)
    services.correct_hand(game=checked, number=1, document=G1[0] | {"soloist_points": 6}, by=by)
    assert checked.hands.get().acceptance == Acceptance.PENDING
    assert selectors.standing(checked, list(checked.hands.all())).waiting == (1,)


def test_answering_twice_the_same_way_changes_nothing(checked, olga):
    by = Actor.for_user(olga)
    enter(checked, olga, G1[0])
    services.accept_hand(game=checked, number=1, by=by, seat=2, expected=tag(checked, 1))
    version = Game.objects.get(pk=checked.pk).version
    services.accept_hand(game=checked, number=1, by=by, seat=2, expected=tag(checked, 1))
    assert Game.objects.get(pk=checked.pk).version == version
    assert AuditEvent.objects.filter(action=AuditAction.ACCEPT_HAND).count() == 1
    with pytest.raises(services.Conflict) as refused:  # an accepted hand is corrected instead
        services.reject_hand(game=checked, number=1, by=by, seat=2, reason="no")
    assert refused.value.problems[0].code == "accepted"


def test_a_reject_needs_a_reason_and_a_real_seat(checked, olga):
    by = Actor.for_user(olga)
    enter(checked, olga, G1[0])
    with pytest.raises(RuleViolation) as refused:
        services.reject_hand(game=checked, number=1, by=by, seat=2, reason="  ")
    assert refused.value.problems[0].field == "reason"
    with pytest.raises(RuleViolation) as refused:
        services.accept_hand(game=checked, number=1, by=by, seat=5)
    assert (refused.value.problems[0].field, refused.value.problems[0].code) == (
        "seat",
        "not_a_seat",
    )


def test_answers_respect_a_stale_validator_and_a_locked_game(checked, olga):
    by = Actor.for_user(olga)
    enter(checked, olga, G1[0])
    old = tag(checked, 1)
    services.correct_hand(game=checked, number=1, document=G1[0] | {"soloist_points": 6}, by=by)
    with pytest.raises(services.VersionConflict):
        services.accept_hand(game=checked, number=1, by=by, seat=2, expected=old)
    services.lock_games(games=[checked], by=by, reason=LockReason.MANUAL)
    with pytest.raises(services.Locked):
        services.accept_hand(game=checked, number=1, by=by, seat=2)
    assert checked.hands.get().acceptance == Acceptance.PENDING


def test_a_game_without_confirmation_refuses_answers(terziglio, olga):
    services.record_hand(game=terziglio, document=G1[0], by=Actor.for_user(olga))
    with pytest.raises(services.Conflict):
        services.accept_hand(game=terziglio, number=1, by=Actor.for_user(olga), seat=1)


def test_the_table_link_may_accept(checked, olga):
    enter(checked, olga, G1[0])
    services.accept_hand(game=checked, number=1, by=Actor.for_table(checked.pk), seat=1)
    assert checked.hands.get().acceptance == Acceptance.ACCEPTED


def test_a_hand_already_entered_from_another_phone_is_refused_as_such(terziglio, olga):
    by = Actor.for_user(olga)
    services.record_hand(game=terziglio, document=G1[0], by=by, number=1)
    with pytest.raises(services.AlreadyEntered) as refused:
        # The second phone still showed hand 1, dealt by Anna.
        services.record_hand(game=terziglio, document=G1[0], by=by, number=1)
    assert (refused.value.problems[0].field, refused.value.problems[0].code) == (
        "number",
        "already_entered",
    )
    assert terziglio.hands.count() == 1


def test_a_resent_hand_gets_its_first_answer_not_already_entered(terziglio, olga):
    by = Actor.for_user(olga)
    first = services.record_hand(
        game=terziglio, document=G1[0], by=by, number=1, idempotency_key="k"
    )
    again = services.record_hand(
        game=terziglio, document=G1[0], by=by, number=1, idempotency_key="k"
    )
    assert again.replayed and again.payload == first.payload


# -- API ----------------------------------------------------------------------------------------


def test_api_accepts_with_if_match_and_documents_it(checked, olga):
    enter(checked, olga, G1[0])
    api = api_as(olga)
    url = f"/api/v1/games/{checked.pk}/hands/1/accept/"
    assert api.post(url, {"seat": 2}, format="json").status_code == 428
    etag = str(tag(checked, 1)[0])
    answer = api.post(url, {"seat": 2}, format="json", HTTP_IF_MATCH=etag)
    assert answer.status_code == 200, answer.json()
    assert answer.json()["acceptance"] == "accepted"
    # A resend is harmless.
    assert api.post(url, {"seat": 2}, format="json", HTTP_IF_MATCH=etag).status_code == 200
    detail = api.get(f"/api/v1/games/{checked.pk}/").json()
    assert detail["pending_hands"] == []
    assert detail["accepted_totals"] == detail["totals"]


def test_api_refusals_name_the_field(checked, olga):
    enter(checked, olga, G1[0])
    api = api_as(olga)
    etag = str(tag(checked, 1)[0])
    reject = f"/api/v1/games/{checked.pk}/hands/1/reject/"
    answer = api.post(reject, {"seat": 2}, format="json", HTTP_IF_MATCH=etag)
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "reason"
    answer = api.post(reject, {"seat": 0, "reason": "no"}, format="json", HTTP_IF_MATCH=etag)
    assert (answer.status_code, answer.json()["errors"][0]["code"]) == (400, "same_side")
    answer = api.post(reject, {"seat": "x", "reason": "no"}, format="json", HTTP_IF_MATCH=etag)
    assert (answer.status_code, answer.json()["errors"][0]["field"]) == (400, "seat")
    answer = api.post(reject, {"seat": 1, "reason": "7 not 8"}, format="json", HTTP_IF_MATCH=etag)
    assert answer.status_code == 200
    assert answer.json()["reject_reason"] == "7 not 8"
    detail = api.get(f"/api/v1/games/{checked.pk}/").json()
    assert detail["pending_hands"] == [1]
    assert detail["accepted_totals"] == [0, 0, 0]
    accept = f"/api/v1/games/{checked.pk}/hands/1/accept/"
    answer = api.post(accept, {"seat": 1}, format="json", HTTP_IF_MATCH=etag)
    assert (answer.status_code, answer.json()["errors"][0]["code"]) == (409, "rejected")


def test_api_answers_on_a_locked_game_are_409(checked, olga):
    enter(checked, olga, G1[0])
    services.lock_games(games=[checked], by=Actor.for_user(olga), reason=LockReason.MANUAL)
    answer = api_as(olga).post(
        f"/api/v1/games/{checked.pk}/hands/1/accept/",
        {"seat": 2},
        format="json",
        HTTP_IF_MATCH=str(tag(checked, 1)[0]),
    )
    assert (answer.status_code, answer.json()["errors"][0]["code"]) == (409, "locked")


def test_api_outsiders_learn_nothing(checked, olga, bea, other_club):
    enter(checked, olga, G1[0])
    answer = api_as(bea).post(
        f"/api/v1/games/{checked.pk}/hands/1/accept/",
        {"seat": "bad"},
        format="json",
        HTTP_IF_MATCH=str(tag(checked, 1)[0]),
    )
    assert answer.status_code == 404


def test_api_starts_a_game_whose_hands_must_be_accepted(club, players, olga, sara):
    api = api_as(olga)
    body = {"ruleset": "terziglio", "players": ["Anna", "Bruno", "Carla"]}
    answer = api.post(
        f"/api/v1/clubs/{club.slug}/games/", body | {"hands_need_acceptance": "yes"}, format="json"
    )
    assert (answer.status_code, answer.json()["errors"][0]["field"]) == (
        400,
        "hands_need_acceptance",
    )
    answer = api.post(
        f"/api/v1/clubs/{club.slug}/games/", body | {"hands_need_acceptance": True}, format="json"
    )
    assert answer.status_code == 201
    assert answer.json()["hands_need_acceptance"] is True
    assert Game.objects.get(pk=answer.json()["id"]).hands_need_acceptance


def test_a_hand_sent_after_the_game_ended_says_the_game_is_over(club, players, olga):
    by = Actor.for_user(olga)
    game = services.start_game(club=club, ruleset="briscola", players=players, by=by)
    for dealer, points in [(0, [70, 50]), (1, [40, 80]), (2, [90, 30])]:
        services.record_hand(game=game, document={"dealer": dealer, "points": points}, by=by)
    game.refresh_from_db()
    assert game.status == "finished"
    with pytest.raises(RuleViolation) as refused:
        services.record_hand(game=game, document={"dealer": 2, "points": [70, 50]}, by=by, number=3)
    assert not isinstance(refused.value, services.AlreadyEntered)


# -- issue 37 point 2: the other side answers through the API to the end, as on the page -------


@pytest.fixture
def decided(club, players, olga):
    """A checked Briscola of pairs decided by its third hand, all three waiting; a table phone."""
    by = Actor.for_user(olga)
    game = services.start_game(
        club=club, ruleset="briscola", players=players, by=by, hands_need_acceptance=True
    )
    for dealer, points in [(0, [70, 50]), (1, [40, 80]), (2, [90, 30])]:
        services.record_hand(game=game, document={"dealer": dealer, "points": points}, by=by)
    game.refresh_from_db()
    assert game.status == "finished"
    return game


def _api_answer(client, game, number, verb, body):
    return client.post(
        f"/api/v1/games/{game.pk}/hands/{number}/{verb}/",
        body,
        content_type="application/json",
        HTTP_IF_MATCH=str(tag(game, number)[0]),
    )


def test_api_a_table_link_accepts_the_deciding_hand_after_the_game_is_over(decided):
    answer = _api_answer(with_pin(decided), decided, 3, "accept", {"seat": 1})
    assert answer.status_code == 200, answer.json()
    assert answer.json()["acceptance"] == "accepted"
    event = AuditEvent.objects.get(action=AuditAction.ACCEPT_HAND)
    assert (event.via, event.actor_id) == ("api", None)


def test_api_a_table_link_rejects_a_hand_after_the_game_is_over(decided):
    answer = _api_answer(with_pin(decided), decided, 2, "reject", {"seat": 1, "reason": "40?"})
    assert answer.status_code == 200, answer.json()
    assert Hand.objects.get(game=decided, number=2).reject_reason == "40?"


def test_api_a_table_link_still_may_not_enter_a_hand_once_the_game_is_over(decided):
    answer = with_pin(decided).post(
        f"/api/v1/games/{decided.pk}/hands/",
        {"dealer": 3, "points": [60, 60]},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="late",
    )
    assert answer.status_code == 403
    assert Hand.objects.filter(game=decided).count() == 3


def test_api_a_table_link_of_an_abandoned_game_may_not_answer(decided, olga):
    phone = with_pin(decided)
    services.abandon_game(game=decided, by=Actor.for_user(olga), reason="they left")
    answer = _api_answer(phone, decided, 3, "accept", {"seat": 1})
    assert answer.status_code == 403
    assert Hand.objects.get(game=decided, number=3).acceptance == Acceptance.PENDING


def test_api_a_table_links_answer_with_a_bad_seat_after_the_end_names_the_field(decided):
    answer = _api_answer(with_pin(decided), decided, 3, "accept", {"seat": "x"})
    assert (answer.status_code, answer.json()["errors"][0]["field"]) == (400, "seat")
