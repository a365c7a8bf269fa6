"""A resend answers as the first time (issue 22, point 5): the hand that finished a game, sent
again with the same ``Idempotency-Key`` (a phone that lost the answer, the page's outbox trying
again), gets the first answer even though the table link no longer writes to a finished game, or
the sender's role changed since. Only the same client finds its answer: another actor's resend
of the same key is refused as before and learns nothing."""

import pytest
from django.test import Client

from scoring import services
from scoring.models import Game, GameStatus, Hand
from scoring.services import Actor, members
from tests.builders import by
from tests.clients import api_as, with_pin

pytestmark = pytest.mark.django_db

#: The one hand that ends a Terziglio: Bruno (seat 1) makes a scegliete.
FINISHING = {"dealer": 2, "outcome": "played", "soloist": 1, "contract": "scegliete",
             "soloist_points": 8}  # fmt: skip
FINISHING_FORM = {
    "dealer": "2",
    "outcome": "played",
    "soloist": "1",
    "contract": "scegliete",
    "entry": "points",
    "soloist_points": "8",
    "sweep": "none",
}
OUTBOX = {"HTTP_X_OUTBOX": "1"}


def post_api(client, game, key: str, document=FINISHING):
    return client.post(
        f"/api/v1/games/{game.pk}/hands/",
        document,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


def test_a_table_phone_resending_the_finishing_hand_gets_the_first_answer(terziglio):
    phone = with_pin(terziglio)
    first = post_api(phone, terziglio, "end-1")
    assert first.status_code == 201, first.content
    assert Game.objects.get(pk=terziglio.pk).status == GameStatus.FINISHED
    again = post_api(phone, terziglio, "end-1")
    assert again.status_code == 201, again.content
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(game=terziglio).count() == 1


def test_a_new_key_from_the_table_phone_after_the_end_is_still_refused(terziglio):
    phone = with_pin(terziglio)
    assert post_api(phone, terziglio, "end-1").status_code == 201
    other = post_api(phone, terziglio, "end-2")
    assert other.status_code == 403
    assert Hand.objects.filter(game=terziglio).count() == 1


def test_another_table_phone_or_a_stranger_with_the_same_key_learns_nothing(terziglio, bea):
    """The key is looked up for the sender's own client only: a logged-in stranger's resend of
    it is refused as any write of hers (404: she may not even read the game)."""
    assert post_api(with_pin(terziglio), terziglio, "end-1").status_code == 201
    stranger = api_as(bea).post(
        f"/api/v1/games/{terziglio.pk}/hands/",
        FINISHING,
        format="json",
        HTTP_IDEMPOTENCY_KEY="end-1",
    )
    assert stranger.status_code in (403, 404)
    assert "number" not in stranger.json()
    anonymous = post_api(Client(), terziglio, "end-1")
    assert anonymous.status_code in (403, 404)
    assert "number" not in anonymous.json()


def test_a_scorer_whose_role_was_taken_away_gets_the_first_answer(club, terziglio, olga, sara):
    """Sara enters the finishing hand as a scorer; her role is then taken away. Her phone's
    resend gets the first answer; a new key from her is refused."""
    scorer = api_as(sara)
    first = scorer.post(
        f"/api/v1/games/{terziglio.pk}/hands/", FINISHING, format="json", HTTP_IDEMPOTENCY_KEY="s1"
    )
    assert first.status_code == 201, first.content
    members.change_role(club=club, user=sara, role="member", by=by(olga))
    again = scorer.post(
        f"/api/v1/games/{terziglio.pk}/hands/", FINISHING, format="json", HTTP_IDEMPOTENCY_KEY="s1"
    )
    assert (again.status_code, again.json()) == (201, first.json())
    fresh = scorer.post(
        f"/api/v1/games/{terziglio.pk}/hands/", FINISHING, format="json", HTTP_IDEMPOTENCY_KEY="s2"
    )
    assert fresh.status_code == 403


def test_the_outbox_resending_the_finishing_hand_gets_its_first_answer(terziglio):
    phone = with_pin(terziglio)
    form = FINISHING_FORM | {"idempotency_key": "box-1", "number": "1"}
    first = phone.post(f"/g/{terziglio.pk}/hands/", form, **OUTBOX)
    assert first.status_code == 201, first.content
    assert Game.objects.get(pk=terziglio.pk).status == GameStatus.FINISHED
    again = phone.post(f"/g/{terziglio.pk}/hands/", form, **OUTBOX)
    assert again.status_code == 201, again.content
    assert again.json()["number"] == 1
    assert again.json()["replayed"] is True
    assert Hand.objects.filter(game=terziglio).count() == 1


def test_the_page_form_sent_twice_after_the_end_leads_back_to_the_game(terziglio):
    phone = with_pin(terziglio)
    form = FINISHING_FORM | {"idempotency_key": "page-1", "number": "1"}
    assert phone.post(f"/g/{terziglio.pk}/hands/", form).status_code == 302
    again = phone.post(f"/g/{terziglio.pk}/hands/", form)
    assert again.status_code == 302
    assert again["Location"] == f"/g/{terziglio.pk}/"
    assert Hand.objects.filter(game=terziglio).count() == 1


def test_the_outbox_of_a_finished_game_is_still_refused_a_new_hand_or_a_bad_form(terziglio):
    phone = with_pin(terziglio)
    form = FINISHING_FORM | {"idempotency_key": "box-1", "number": "1"}
    assert phone.post(f"/g/{terziglio.pk}/hands/", form, **OUTBOX).status_code == 201
    new = phone.post(f"/g/{terziglio.pk}/hands/", form | {"idempotency_key": "box-2"}, **OUTBOX)
    assert new.status_code == 403
    assert new.json()["errors"][0]["code"] == "permission_denied"
    garbled = phone.post(
        f"/g/{terziglio.pk}/hands/", {"idempotency_key": "box-3", "dealer": "x"}, **OUTBOX
    )
    assert garbled.status_code == 403
    assert Hand.objects.filter(game=terziglio).count() == 1


def test_a_resend_after_the_game_was_locked_still_gets_the_first_answer(terziglio, olga):
    """The round closed (the game locked) between the first send and the resend."""
    phone = with_pin(terziglio)
    first = post_api(phone, terziglio, "end-1")
    assert first.status_code == 201
    services.lock_games(
        games=[terziglio],
        by=Actor.for_user(olga),
        reason="round_closed",
        context={"round": 1, "competition": "Spring league"},
    )
    again = post_api(phone, terziglio, "end-1")
    assert (again.status_code, again.json()) == (201, first.json())
    assert post_api(phone, terziglio, "end-2").status_code == 403
