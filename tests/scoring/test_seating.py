"""A hand names the seating it was typed for (issue 33 point 2): ``Game.seating`` goes up when
other players take the game's seats (``reseat_game``); a hand sent with an older seating is
refused (409 ``seating_changed``, naming who replaced whom) and nothing is stored, by the
service, the API (both ways) and the page; a hand without a seating is taken as before."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.utils import translation

from scoring import services
from scoring.messages import message
from scoring.models import AuditEvent, Game, Hand
from scoring.rules import RuleViolation
from scoring.selectors.seating import change_between
from scoring.services import Actor, Conflict
from tests.clients import api_as, with_pin

pytestmark = pytest.mark.django_db

HAND = {"dealer": 0, "outcome": "played", "soloist": 1, "contract": "chiamo", "soloist_points": 7}
PAGE_HAND = {
    "dealer": "0",
    "outcome": "played",
    "soloist": "1",
    "contract": "chiamo",
    "entry": "points",
    "soloist_points": "7",
    "sweep": "none",
}
REPLACED = "The players changed after this hand was typed: Dario replaced Carla at this table."


def seated(game) -> list[str]:
    return list(game.seats.order_by("index").values_list("player__display_name", flat=True))


def replace_carla(game, players, olga) -> Game:
    """The organizer seats Dario where Carla sat (a replacement before the first hand)."""
    return services.reseat_game(
        game=game, players=[players[0], players[1], players[3]], by=Actor.for_user(olga), reason="x"
    )


def test_a_hand_typed_before_a_replacement_is_refused_naming_it_and_nothing_is_stored(
    terziglio, players, olga
):
    assert terziglio.seating == 1
    game = replace_carla(terziglio, players, olga)
    assert game.seating == 2
    with pytest.raises(Conflict) as refused:
        services.record_hand(game=game, document=HAND | {"seating": 1}, by=Actor.for_user(olga))
    (problem,) = refused.value.problems
    assert (problem.field, problem.code) == ("seating", "seating_changed")
    assert problem.params == {"reason": "replaced", "old": "Carla", "new": "Dario", "seating": 2}
    assert message(problem) == REPLACED
    assert Hand.objects.count() == 0
    assert Game.objects.get(pk=game.pk).hand_count == 0
    assert not AuditEvent.objects.filter(action="record_hand").exists()


def test_the_seating_shown_now_is_taken_and_so_is_a_hand_that_names_none(terziglio, players, olga):
    by = Actor.for_user(olga)
    game = replace_carla(terziglio, players, olga)
    services.record_hand(game=game, document=HAND | {"seating": 2}, by=by)
    stored = Hand.objects.get()
    assert "seating" not in stored.document  # said by the request, never stored
    other = services.start_game(club=game.club, ruleset="terziglio", players=players[:3], by=by)
    other = replace_carla(other, players, olga)
    services.record_hand(game=other, document=HAND, by=by)  # an older client: as before
    assert Game.objects.get(pk=other.pk).hand_count == 1


def test_a_replayed_hand_keys_on_its_document_not_its_seating(terziglio, players, olga):
    by = Actor.for_user(olga)
    first = services.record_hand(
        game=terziglio, document=HAND | {"seating": 1}, by=by, idempotency_key="k"
    )
    again = services.record_hand(game=terziglio, document=HAND, by=by, idempotency_key="k")
    assert again.replayed and again.payload == first.payload
    assert Hand.objects.count() == 1


def test_reseating_the_same_players_in_the_same_seats_changes_no_seating(terziglio, players, olga):
    game = services.reseat_game(
        game=terziglio, players=players[:3], by=Actor.for_user(olga), reason="x"
    )
    assert game.seating == 1
    services.record_hand(game=game, document=HAND | {"seating": 1}, by=Actor.for_user(olga))
    assert Hand.objects.count() == 1


@pytest.mark.parametrize("value", ["1", 0, -3, True, 1.5, None, [1]])
def test_a_seating_that_is_not_a_version_is_refused_by_its_field(terziglio, olga, value):
    with pytest.raises(RuleViolation) as refused:
        services.record_hand(
            game=terziglio, document=HAND | {"seating": value}, by=Actor.for_user(olga)
        )
    assert [(p.field, p.code) for p in refused.value.problems] == [("seating", "type")]
    assert message(refused.value.problems[0]) == "Seating: enter a whole number."
    assert Hand.objects.count() == 0


def test_the_change_named_is_the_one_since_the_seating_the_phone_saw(terziglio, players, olga):
    by = Actor.for_user(olga)
    anna, bruno, carla, dario = players
    services.reseat_game(game=terziglio, players=[bruno, anna, carla], by=by, reason="x")  # 2
    services.reseat_game(game=terziglio, players=[bruno, anna, dario], by=by, reason="x")  # 3
    for seen, expected in (
        (2, {"reason": "replaced", "old": "Carla", "new": "Dario"}),
        (1, {"reason": "reseated", "players": ["Bruno", "Anna", "Dario"]}),
    ):
        with pytest.raises(Conflict) as refused:
            services.record_hand(game=terziglio, document=HAND | {"seating": seen}, by=by)
        assert refused.value.problems[0].params == expected | {"seating": 3}
    with pytest.raises(Conflict) as refused:  # a seating the game never had: said plainly
        services.record_hand(game=terziglio, document=HAND | {"seating": 9}, by=by)
    assert refused.value.problems[0].params["reason"] == "reseated"


def test_what_changed_between_two_seatings():
    assert change_between(["A", "B", "C"], ["A", "B", "D"]) == {
        "reason": "replaced", "old": "C", "new": "D"
    }  # fmt: skip
    assert change_between(["A", "B", "C"], ["B", "A", "C"]) == {
        "reason": "swapped",
        "a": "A",
        "b": "B",
    }
    assert change_between(["A", "B", "C", "D"], ["A", "B", "C"]) == {"reason": "left", "old": "D"}
    assert change_between(["A", "B", "C"], ["A", "B", "C", "D"]) == {"reason": "joined", "new": "D"}
    assert change_between(["A", "B", "C"], ["C", "A", "B"]) == {
        "reason": "reseated", "players": ["C", "A", "B"]
    }  # fmt: skip
    assert change_between(["A", "B", "C"], ["D", "E", "C"])["reason"] == "reseated"


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "Anna and Bruno swapped seats"),
        ("fr", "Anna et Bruno ont échangé leurs places"),
        ("it", "Anna e Bruno si sono scambiati di posto"),
    ],
)
def test_a_swap_of_seats_is_named_in_every_language(terziglio, players, olga, language, sentence):
    by = Actor.for_user(olga)
    services.reseat_game(
        game=terziglio, players=[players[1], players[0], players[2]], by=by, reason="x"
    )
    with pytest.raises(Conflict) as refused:
        services.record_hand(game=terziglio, document=HAND | {"seating": 1}, by=by)
    with translation.override(language):
        assert sentence in message(refused.value.problems[0])


# -- the API, both ways -------------------------------------------------------------------------


def post(api, game, document, key="k1"):
    return api.post(
        f"/api/v1/games/{game.pk}/hands/",
        json.dumps(document),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


def test_the_api_refuses_a_hand_for_seats_that_changed_with_409(terziglio, players, olga):
    game = replace_carla(terziglio, players, olga)
    api = api_as(olga)
    assert api.get(f"/api/v1/games/{game.pk}/").json()["seating"] == 2
    response = post(api, game, HAND | {"ruleset": "terziglio", "seating": 1})
    assert response.status_code == 409
    assert response.json()["errors"] == [
        {"hand": None, "field": "seating", "code": "seating_changed", "message": REPLACED}
    ]
    assert Hand.objects.count() == 0
    response = post(api, game, HAND | {"ruleset": "terziglio", "seating": "2"}, key="k2")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["seating"]
    response = post(api, game, HAND | {"ruleset": "terziglio", "seating": 2}, key="k3")
    assert response.status_code == 201
    assert seated(game) == ["Anna", "Bruno", "Dario"] and Hand.objects.count() == 1


# -- the page and its outbox --------------------------------------------------------------------


def test_the_outbox_is_told_409_seating_changed_with_the_sentence(terziglio, players, olga):
    phone = with_pin(terziglio)
    page = phone.get(f"/g/{terziglio.pk}/").content.decode()
    assert 'name="seating" value="1"' in page
    replace_carla(terziglio, players, olga)
    response = phone.post(
        f"/g/{terziglio.pk}/hands/",
        PAGE_HAND | {"idempotency_key": "k1", "number": "1", "seating": "1"},
        HTTP_X_OUTBOX="1",
    )
    assert response.status_code == 409
    assert response.json()["errors"] == [
        {"hand": None, "field": "seating", "code": "seating_changed", "message": REPLACED}
    ]
    assert Hand.objects.count() == 0


def test_the_page_shows_why_with_the_players_now_and_takes_the_hand_sent_again(
    terziglio, players, olga
):
    browser = Client()
    browser.force_login(olga)
    replace_carla(terziglio, players, olga)
    url = f"/g/{terziglio.pk}/hands/"
    response = browser.post(url, PAGE_HAND | {"number": "1", "seating": "1"})
    assert response.status_code == 409
    page = response.content.decode()
    assert REPLACED in page
    assert 'name="seating" value="2"' in page  # the form names the seats shown now
    assert Hand.objects.count() == 0
    response = browser.post(url, PAGE_HAND | {"number": "1", "seating": "2"})
    assert response.status_code == 302
    assert Hand.objects.count() == 1


def test_a_wrong_hand_shown_again_keeps_the_seating_it_was_typed_for(terziglio, players, olga):
    browser = Client()
    browser.force_login(olga)
    replace_carla(terziglio, players, olga)
    response = browser.post(
        f"/g/{terziglio.pk}/hands/", PAGE_HAND | {"soloist_points": "x", "seating": "1"}
    )
    assert response.status_code == 400
    assert 'name="seating" value="1"' in response.content.decode()
