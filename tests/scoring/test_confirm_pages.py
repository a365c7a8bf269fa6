"""The game page of a game whose hands must be accepted (verification cards, accepted totals with
the pending part, answers with errors next to the field), and the page's refusal of a hand already
entered from another phone."""

import re

import pytest
from django.utils import translation

from scoring import etags, services
from scoring.models import Acceptance, AuditAction, AuditEvent, Hand
from scoring.services import Actor
from tests.clients import login, with_pin

pytestmark = pytest.mark.django_db

HAND = {
    "dealer": "0",
    "outcome": "played",
    "soloist": "0",
    "contract": "chiamo",
    "entry": "points",
    "soloist_points": "7",
    "sweep": "none",
    "number": "1",
}


@pytest.fixture
def checked(club, players, olga):
    return services.start_game(
        club=club,
        ruleset="terziglio",
        players=players[:3],
        by=Actor.for_user(olga),
        hands_need_acceptance=True,
    )


def answer(client, game, number=1, **data):
    hand = Hand.objects.get(game=game, number=number)
    body = {"etag": str(etags.hand_tag(hand))} | data
    return client.post(f"/g/{game.pk}/hands/{number}/answer/", body)


def test_the_entry_form_asks_who_enters_and_the_hand_waits(checked, olga):
    client = login(olga)
    page = client.get(f"/g/{checked.pk}/").content.decode()
    assert "Who is entering this hand?" in page
    refused = client.post(f"/g/{checked.pk}/hands/", HAND)
    assert refused.status_code == 400  # who enters is required
    assert 'data-field="seat"' in refused.content.decode()
    assert client.post(f"/g/{checked.pk}/hands/", HAND | {"seat": "0"}).status_code == 302
    hand = Hand.objects.get(game=checked)
    assert (hand.acceptance, hand.entered_seat) == (Acceptance.PENDING, 0)
    page = client.get(f"/g/{checked.pk}/").content.decode()
    deltas = hand.deltas
    assert "Hand 1: please check" in page
    # The verification sentence: the hand in words, then each player's change.
    assert f"Anna +{deltas[0]}, Bruno \u2212{-deltas[1]}, Carla \u2212{-deltas[2]}" in page
    assert "Entered by Anna" in page
    # The totals count accepted hands only; what waits is shown apart.
    assert f"+{deltas[0]} pending" in page
    assert '<span class="score">0</span>' in page
    assert 'class="badge wait"' in page


def test_the_entering_player_is_refused_next_to_the_name(checked, olga):
    services.record_hand(
        game=checked,
        document={"dealer": 0, "outcome": "passed_out"},
        by=Actor.for_user(olga),
        seat=1,
    )
    response = answer(login(olga), checked, seat="1", action="accept")
    # Bruno entered it: his name is not even offered, and a forged answer is refused.
    assert response.status_code == 400
    assert Hand.objects.get(game=checked).acceptance == Acceptance.PENDING


def test_an_opponent_accepts_on_their_own_phone_through_the_table_link(checked, olga):
    services.record_hand(
        game=checked,
        document={
            "dealer": 0,
            "outcome": "played",
            "soloist": 0,
            "contract": "chiamo",
            "soloist_points": 7,
        },
        by=Actor.for_user(olga),
        seat=0,
    )
    phone = with_pin(checked)
    response = answer(phone, checked, seat="2", action="accept")
    assert response.status_code == 302
    hand = Hand.objects.get(game=checked)
    assert (hand.acceptance, hand.answered_seat) == (Acceptance.ACCEPTED, 2)
    event = AuditEvent.objects.get(action=AuditAction.ACCEPT_HAND)
    assert (event.via, event.after["player"]) == ("table", "Carla")
    page = phone.get(f"/g/{checked.pk}/").content.decode()
    assert "please check" not in page and "pending" not in page


def test_a_reject_needs_a_reason_shown_next_to_the_field_then_goes_back(checked, olga):
    services.record_hand(
        game=checked,
        document={"dealer": 0, "outcome": "passed_out"},
        by=Actor.for_user(olga),
        seat=0,
    )
    client = login(olga)
    response = answer(client, checked, seat="1", action="reject", reason="")
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="id_check1_reason_error"' in page
    response = answer(client, checked, seat="1", action="reject", reason="Carla dealt")
    assert response.status_code == 302
    page = client.get(f"/g/{checked.pk}/").content.decode()
    assert "Hand 1 was rejected" in page
    assert "Bruno rejected it: “Carla dealt”." in page
    assert f'href="/g/{checked.pk}/hands/1/"' in page


def test_a_page_in_italian_says_the_check_in_italian(checked, olga):
    services.record_hand(
        game=checked,
        document={"dealer": 0, "outcome": "passed_out"},
        by=Actor.for_user(olga),
        seat=0,
    )
    with translation.override("it"):
        page = login(olga).get(f"/g/{checked.pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Mano 1: controllate" in page


def test_a_hand_already_entered_from_another_phone_is_said_so_and_pointed_at(terziglio, olga):
    first, second = login(olga), login(olga)
    form = HAND | {"dealer": "0"}
    assert first.post(f"/g/{terziglio.pk}/hands/", form).status_code == 302
    response = second.post(f"/g/{terziglio.pk}/hands/", form)
    assert response.status_code == 409
    page = response.content.decode()
    assert "Hand 1 was just entered from another phone" in page
    assert 'just-entered" data-hand="1"' in page
    assert Hand.objects.filter(game=terziglio).count() == 1
    # The outbox gets the form back under the next number, marked for the phone's script.
    outbox = second.post(
        f"/g/{terziglio.pk}/hands/", form | {"idempotency_key": "x"}, HTTP_X_OUTBOX="1"
    )
    assert outbox.status_code == 409
    assert outbox["X-Refusal"] == "already_entered"
    assert 'name="number" value="2"' in outbox.content.decode()


@pytest.fixture
def pairs(club, players, olga):
    """A checked Briscola of Anna and Carla against Bruno and Dario; Anna entered hand 1."""
    game = services.start_game(
        club=club,
        ruleset="briscola",
        players=players,
        options={"format": "pairs"},
        by=Actor.for_user(olga),
        hands_need_acceptance=True,
    )
    services.record_hand(
        game=game, document={"dealer": 0, "points": [70, 50]}, by=Actor.for_user(olga), seat=0
    )
    return game


def check_card(page: str, number: int = 1) -> str:
    start = page.index(f'id="check-{number}"')
    return page[start : page.index("</section>", start)]


def chips(card: str) -> list[str]:
    return re.findall(r'<input type="radio" name="seat"[^>]*><span>([^<]+)</span>', card)


def test_a_pairs_check_card_names_both_players_of_each_side_and_offers_the_other_pair(pairs, olga):
    card = check_card(login(olga).get(f"/g/{pairs.pk}/").content.decode())
    assert '<p class="pairs">Anna and Carla against Bruno and Dario</p>' in card
    assert (
        "Entered by Anna, with Carla. Hand this phone to Bruno or Dario, of the other pair" in card
    )
    assert "a partner of" not in card
    # Carla is Anna's partner: the service would refuse her, so she is not offered.
    assert chips(card) == ["Bruno", "Dario"]


def test_the_partner_of_who_entered_a_pairs_hand_is_refused_and_the_card_stays(pairs, olga):
    response = answer(login(olga), pairs, seat="2", action="accept")
    assert response.status_code == 400
    assert chips(check_card(response.content.decode())) == ["Bruno", "Dario"]
    assert Hand.objects.get(game=pairs).acceptance == Acceptance.PENDING
    assert answer(login(olga), pairs, seat="3", action="accept").status_code == 302
    assert Hand.objects.get(game=pairs).acceptance == Acceptance.ACCEPTED


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", ("Anna et Carla contre Bruno et Dario", "avec Carla", "à Bruno ou Dario")),
        ("it", ("Anna e Carla contro Bruno e Dario", "con Carla", "a Bruno o Dario")),
    ],
)
def test_a_pairs_check_card_in_french_and_italian(pairs, olga, language, words):
    with translation.override(language):
        page = login(olga).get(f"/g/{pairs.pk}/", HTTP_ACCEPT_LANGUAGE=language)
    card = check_card(page.content.decode())
    assert all(w in card for w in words), card


def test_a_check_card_without_pairs_reads_as_before(checked, olga):
    services.record_hand(
        game=checked,
        document={"dealer": 0, "outcome": "passed_out"},
        by=Actor.for_user(olga),
        seat=0,
    )
    card = check_card(login(olga).get(f"/g/{checked.pk}/").content.decode())
    assert 'class="pairs"' not in card and "other pair" not in card
    assert "not Anna, nor a partner of Anna" in card
    assert chips(card) == ["Bruno", "Carla"]
