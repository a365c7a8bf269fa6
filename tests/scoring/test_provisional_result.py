"""The other side to the end (issue 37, point 2): in a game whose hands must be accepted, the
phone holding the table link accepts or rejects every waiting hand, the one that decided the
game included, after the game is over; until then the result reads as provisional (who wins
once which hand is accepted, with the totals the hands make), never as accepted totals of 0."""

import pytest
from django.utils import translation

from scoring import etags, services
from scoring.models import Acceptance, AuditAction, AuditEvent, GameStatus, Hand
from scoring.services import Actor
from tests.clients import login, with_pin

pytestmark = pytest.mark.django_db


@pytest.fixture
def decided(club, players, olga):
    """Briscola in pairs (Anna + Carla against Bruno + Dario), three hands entered by Anna:
    hands 1 and 2 accepted by Bruno, hand 3 (which wins the match for Anna and Carla) waits."""
    by = Actor.for_user(olga)
    game = services.start_game(
        club=club, ruleset="briscola", players=players, by=by, hands_need_acceptance=True
    )
    for dealer, points in enumerate([[70, 50], [40, 80], [90, 30]]):
        services.record_hand(
            game=game, document={"dealer": dealer, "points": points}, by=by, seat=0
        )
    for number in (1, 2):
        services.accept_hand(game=game, number=number, by=by, seat=1)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    return game


def answer(client, game, number, **data):
    hand = Hand.objects.get(game=game, number=number)
    return client.post(
        f"/g/{game.pk}/hands/{number}/answer/", {"etag": str(etags.hand_tag(hand))} | data
    )


def test_the_table_link_phone_is_offered_the_deciding_hand_after_the_end(decided):
    page = with_pin(decided).get(f"/g/{decided.pk}/").content.decode()
    assert "Hand 3: please check" in page
    assert f'action="/g/{decided.pk}/hands/3/answer/"' in page
    assert 'name="action" value="accept"' in page and 'name="action" value="reject"' in page
    # The game is over: no more hands from this phone.
    assert 'id="hand-form"' not in page


def test_the_table_link_phone_accepts_the_deciding_hand_after_the_end(decided):
    phone = with_pin(decided)
    response = answer(phone, decided, 3, seat="3", action="accept")
    assert response.status_code == 302
    hand = Hand.objects.get(game=decided, number=3)
    assert (hand.acceptance, hand.answered_seat) == (Acceptance.ACCEPTED, 3)
    event = AuditEvent.objects.get(action=AuditAction.ACCEPT_HAND, hand_number=3)
    assert (event.via, event.after["player"]) == ("table", "Dario")
    page = phone.get(f"/g/{decided.pk}/").content.decode()
    assert "Anna and Carla win!" in page and "Final ranking" in page
    assert "provisional" not in page and "please check" not in page


def test_the_table_link_phone_rejects_the_deciding_hand_with_a_reason_after_the_end(decided):
    phone = with_pin(decided)
    refused = answer(phone, decided, 3, seat="1", action="reject", reason="")
    assert refused.status_code == 400
    assert 'id="id_check3_reason_error"' in refused.content.decode()
    assert Hand.objects.get(game=decided, number=3).acceptance == Acceptance.PENDING
    response = answer(phone, decided, 3, seat="1", action="reject", reason="We made 40")
    assert response.status_code == 302
    hand = Hand.objects.get(game=decided, number=3)
    assert (hand.acceptance, hand.reject_reason) == (Acceptance.REJECTED, "We made 40")
    page = phone.get(f"/g/{decided.pk}/").content.decode()
    assert "Bruno rejected it: “We made 40”." in page


def test_the_partner_of_who_entered_is_still_refused_after_the_end(decided):
    response = answer(with_pin(decided), decided, 3, seat="2", action="accept")
    assert response.status_code == 400
    assert Hand.objects.get(game=decided, number=3).acceptance == Acceptance.PENDING


def test_an_abandoned_game_takes_no_answer_from_the_table_link(decided, olga):
    phone = with_pin(decided)
    services.abandon_game(game=decided, by=Actor.for_user(olga), reason="Left")
    assert answer(phone, decided, 3, seat="1", action="accept").status_code == 403
    assert Hand.objects.get(game=decided, number=3).acceptance == Acceptance.PENDING


def test_the_result_reads_as_provisional_until_the_deciding_hand_is_accepted(decided, olga):
    for client in (with_pin(decided), login(olga)):
        page = client.get(f"/g/{decided.pk}/live/").content.decode()
        assert "Anna and Carla win once hand 3 is accepted." in page
        assert "Provisional ranking" in page and "Final ranking" not in page
        # The totals are those the hands make (2 for Anna and Carla, 1 for Bruno and Dario,
        # one card per pair), marked provisional: not 1 1 with "+1 pending", and not yet a
        # winner's box.
        scores = [int(s.split("<")[0]) for s in page.split('<span class="score">')[1:]]
        assert scores == [2, 1]
        assert 'pending-points">+' not in page
        assert page.count(">provisional</span>") == 2  # one per pair
        assert "total winner" not in page


def test_two_waiting_hands_are_both_named(club, players, olga):
    by = Actor.for_user(olga)
    game = services.start_game(
        club=club, ruleset="briscola", players=players, by=by, hands_need_acceptance=True
    )
    for dealer, points in enumerate([[70, 50], [90, 30]]):
        services.record_hand(
            game=game, document={"dealer": dealer, "points": points}, by=by, seat=1
        )
    page = with_pin(game).get(f"/g/{game.pk}/live/").content.decode()
    assert "Anna and Carla win once hands 1 and 2 are accepted." in page


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("fr", "Anna et Carla gagnent une fois la donne 3 acceptée."),
        ("it", "Anna e Carla vincono quando la mano 3 sarà accettata."),
    ],
)
def test_the_provisional_result_is_translated(decided, language, text):
    phone = with_pin(decided)
    with translation.override(language):
        page = phone.get(f"/g/{decided.pk}/live/", HTTP_ACCEPT_LANGUAGE=language)
    assert text in page.content.decode()
