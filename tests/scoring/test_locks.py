"""A locked game (its round closed, its competition final) refuses every hand write through the
services, the pages, the table link and the API, until a manager reopens it with a reason."""

import pytest
from django.test import Client
from django.utils import translation

from scoring import etags, services
from scoring.models import AuditEvent, Game, Hand, LockReason
from scoring.services import Actor
from scoring.signals import game_changed
from tests.clients import api_as, login
from tests.scoring.rules.games import hand_documents

G1 = hand_documents("terziglio", "G1")
CLOSED = {"round": 3, "competition": "Spring league"}
SENTENCE = "Round 3 of Spring league is closed: an organizer of the club can reopen this game."

pytestmark = pytest.mark.django_db


@pytest.fixture
def locked(terziglio, olga):
    """Terziglio G1 played to hand 6 (still in progress), then locked: its round closed."""
    for document in G1[:6]:
        services.record_hand(game=terziglio, document=document, by=Actor.for_user(olga))
    services.lock_games(
        games=[terziglio], by=Actor.for_user(olga), reason=LockReason.ROUND_CLOSED, context=CLOSED
    )
    terziglio.refresh_from_db()
    return terziglio


def state(game):
    game = Game.objects.get(pk=game.pk)
    return (
        game.status,
        game.hand_count,
        list(game.totals),
        list(Hand.objects.filter(game=game).values_list("pk", "number", "version", "deltas")),
    )


def shown(game, number):
    return str(etags.hand_tag(Hand.objects.get(game=game, number=number)))


def table_phone(game):
    phone = Client()
    assert (
        phone.post(f"/t/{game.table_link.token}/", {"pin": game.table_link.pin}).status_code == 302
    )
    return phone


def test_locking_is_audited_and_bumps_the_version(locked, olga):
    assert locked.locked and locked.lock_reason == "round_closed" and locked.lock_context == CLOSED
    assert locked.version == 8
    event = AuditEvent.objects.get(game=locked, action="lock_game")
    assert event.before["locked"] is False and event.after == {
        "locked": True,
        "reason": "round_closed",
        "context": CLOSED,
    }
    # Locking again for the same reason changes nothing.
    assert (
        services.lock_games(
            games=[locked], by=Actor.for_user(olga), reason="round_closed", context=CLOSED
        )
        == []
    )


WRITES = {
    "record": lambda g, by: services.record_hand(
        game=g, document=G1[6], by=by, idempotency_key="k"
    ),
    "correct": lambda g, by: services.correct_hand(
        game=g, number=1, document={**G1[0], "soloist_points": 5}, by=by
    ),
    "corrections": lambda g, by: services.correct_hands(
        game=g, changes={1: {**G1[0], "soloist_points": 5}}, by=by
    ),
    "remove": lambda g, by: services.remove_hand(game=g, number=6, by=by, reason="x"),
    "abandon": lambda g, by: services.abandon_game(game=g, by=by, reason="x"),
}


@pytest.mark.parametrize(
    ("who", "write"),
    [("owner", name) for name in WRITES]
    + [("table link", name) for name in WRITES if name != "abandon"],  # never a table's to do
)
def test_every_hand_write_is_refused_while_locked(locked, olga, who, write):
    by = Actor.for_user(olga) if who == "owner" else Actor.for_table(locked.pk)
    before = state(locked)
    with pytest.raises(services.Locked) as refused:
        WRITES[write](locked, by)
    (problem,) = refused.value.problems
    assert (problem.field, problem.code, problem.params["reason"]) == (
        "game",
        "locked",
        "round_closed",
    )
    assert state(locked) == before


def test_the_api_answers_409_naming_the_round_and_who_can_reopen(locked, olga):
    api = api_as(olga)
    base = f"/api/v1/games/{locked.pk}"
    before = state(locked)
    game_etag = api.get(f"{base}/")["ETag"]
    answers = [
        api.post(f"{base}/hands/", G1[6], format="json", HTTP_IDEMPOTENCY_KEY="k"),
        api.put(
            f"{base}/hands/1/",
            {**G1[0], "soloist_points": 5},
            format="json",
            HTTP_IF_MATCH=shown(locked, 1),
        ),
        api.delete(f"{base}/hands/6/?reason=x", HTTP_IF_MATCH=shown(locked, 6)),
        api.post(
            f"{base}/corrections/", {"hands": {"1": G1[0]}}, format="json", HTTP_IF_MATCH=game_etag
        ),
        api.post(f"{base}/abandon/", {"reason": "x"}, format="json"),
    ]
    for response in answers:
        assert response.status_code == 409, response.json()
        assert response.json()["errors"] == [
            {"hand": None, "field": "game", "code": "locked", "message": SENTENCE}
        ]
    assert state(locked) == before
    detail = api.get(f"{base}/").json()
    assert detail["locked"] is True and detail["lock_reason"] == "round_closed"


def test_the_refusal_is_translated(locked, olga):
    api = api_as(olga)
    with translation.override("fr"):
        fr = api.post(
            f"/api/v1/games/{locked.pk}/hands/",
            G1[6],
            format="json",
            HTTP_IDEMPOTENCY_KEY="k",
            HTTP_ACCEPT_LANGUAGE="fr",
        )
    with translation.override("it"):
        it = api.post(
            f"/api/v1/games/{locked.pk}/hands/",
            G1[6],
            format="json",
            HTTP_IDEMPOTENCY_KEY="k",
            HTTP_ACCEPT_LANGUAGE="it",
        )
    assert fr.json()["errors"][0]["message"].startswith("Le tour 3 de Spring league est clos")
    assert it.json()["errors"][0]["message"].startswith("Il turno 3 di Spring league è chiuso")


def test_a_table_link_phone_is_refused_where_the_form_is(locked):
    phone = table_phone(locked)
    page = phone.get(f"/g/{locked.pk}/").content.decode()
    assert SENTENCE in page and 'id="hand-form"' not in page and "Reopen this game" not in page
    before = state(locked)
    form = {"dealer": "0", "outcome": "passed_out", "idempotency_key": "k"}
    queued = phone.post(f"/g/{locked.pk}/hands/", form, HTTP_X_OUTBOX="1")
    assert queued.status_code == 409 and SENTENCE in queued.content.decode()
    typed = phone.post(f"/g/{locked.pk}/hands/", form)
    assert typed.status_code == 409 and SENTENCE in typed.content.decode()
    hand_page = phone.get(f"/g/{locked.pk}/hands/1/").content.decode()
    assert SENTENCE in hand_page and "Save the correction" not in hand_page
    corrected = phone.post(
        f"/g/{locked.pk}/hands/1/",
        {
            "dealer": "0",
            "outcome": "played",
            "soloist": "1",
            "contract": "chiamo",
            "entry": "points",
            "soloist_points": "7",
            "sweep": "none",
            "etag": shown(locked, 1),
        },
    )
    assert corrected.status_code == 409 and SENTENCE in corrected.content.decode()
    removed = phone.post(
        f"/g/{locked.pk}/hands/6/", {"action": "remove", "reason": "x", "etag": shown(locked, 6)}
    )
    assert removed.status_code == 409 and SENTENCE in removed.content.decode()
    assert state(locked) == before


def test_only_a_manager_reopens_and_only_with_a_reason(locked, olga, sara):
    with pytest.raises(services.NotAllowed):
        services.reopen_game(game=locked, by=Actor.for_user(sara), reason="typo")
    with pytest.raises(services.NotAllowed):
        services.reopen_game(game=locked, by=Actor.for_table(locked.pk), reason="typo")
    assert (
        api_as(sara)
        .post(f"/api/v1/games/{locked.pk}/reopen/", {"reason": "typo"}, format="json")
        .status_code
        == 403
    )
    assert login(sara).post(f"/g/{locked.pk}/reopen/", {"reason": "typo"}).status_code == 403
    assert "Reopen this game" not in login(sara).get(f"/g/{locked.pk}/").content.decode()
    no_reason = api_as(olga).post(f"/api/v1/games/{locked.pk}/reopen/", {}, format="json")
    assert no_reason.status_code == 400 and no_reason.json()["errors"][0]["field"] == "reason"
    page = login(olga).post(f"/g/{locked.pk}/reopen/", {"reason": " "})
    assert page.status_code == 400 and 'data-field="reason"' in page.content.decode()
    assert Game.objects.get(pk=locked.pk).locked


def test_reopened_then_corrected_audits_both_and_announces_the_change_once(
    locked, olga, django_capture_on_commit_callbacks
):
    announced = []

    def count(sender, game_id, **kwargs):
        announced.append(game_id)

    game_changed.connect(count)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            reopened = api_as(olga).post(
                f"/api/v1/games/{locked.pk}/reopen/", {"reason": "dealer miscounted"}, format="json"
            )
        assert reopened.status_code == 200 and reopened.json()["locked"] is False
        assert announced == []
        with django_capture_on_commit_callbacks(execute=True):
            services.correct_hand(
                game=locked,
                number=1,
                document={**G1[0], "soloist_points": 5},
                by=Actor.for_user(olga),
                expected=[etags.hand_tag(Hand.objects.get(game=locked, number=1))],
                reason="recount",
            )
        assert announced == [locked.pk]
    finally:
        game_changed.disconnect(count)
    trail = list(AuditEvent.objects.filter(game=locked).values_list("action", "reason"))
    assert trail[-3:] == [
        ("lock_game", ""),
        ("reopen_game", "dealer miscounted"),
        ("correct_hand", "recount"),
    ]
    audit = api_as(olga).get(f"/api/v1/games/{locked.pk}/audit/").json()["results"]
    assert [e["action"] for e in audit][-3:] == ["lock_game", "reopen_game", "correct_hand"]


def test_locking_again_restores_the_reason_it_had(locked, olga):
    client = login(olga)
    assert client.post(f"/g/{locked.pk}/reopen/", {"reason": "typo"}).status_code == 302
    page = client.get(f"/g/{locked.pk}/").content.decode()
    assert 'id="hand-form"' in page and "Lock this game again" in page
    assert client.post(f"/g/{locked.pk}/lock/").status_code == 302
    game = Game.objects.get(pk=locked.pk)
    assert game.locked and (game.lock_reason, game.lock_context) == ("round_closed", CLOSED)
    assert SENTENCE in client.get(f"/g/{locked.pk}/").content.decode()
    # The API too: reopen, then lock again.
    api = api_as(olga)
    assert (
        api.post(
            f"/api/v1/games/{locked.pk}/reopen/", {"reason": "typo"}, format="json"
        ).status_code
        == 200
    )
    relocked = api.post(f"/api/v1/games/{locked.pk}/lock/")
    assert relocked.status_code == 200 and relocked.json()["locked"] is True
    assert api_as(None).post(f"/api/v1/games/{locked.pk}/lock/").status_code in (401, 403)


def test_a_game_locked_by_a_final_competition_is_not_reopened_alone(terziglio, olga):
    services.lock_games(
        games=[terziglio],
        by=Actor.for_user(olga),
        reason=LockReason.FINALIZED,
        context={"competition": "Spring league"},
    )
    with pytest.raises(services.Locked):
        services.reopen_game(game=terziglio, by=Actor.for_user(olga), reason="typo")
    response = api_as(olga).post(
        f"/api/v1/games/{terziglio.pk}/reopen/", {"reason": "typo"}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["errors"][0]["message"].startswith("Spring league is final")


def test_a_scorer_may_not_lock_a_game(terziglio, sara):
    with pytest.raises(services.NotAllowed):
        services.lock_games(games=[terziglio], by=Actor.for_user(sara), reason="manual")
    assert not Game.objects.get(pk=terziglio.pk).locked


def test_a_hand_for_an_abandoned_game_answers_409_gone_and_changes_nothing(terziglio, olga):
    """Not 400: the phone's outbox keeps a 409 with the reason (issue 33, point 3)."""
    for document in G1[:2]:
        services.record_hand(game=terziglio, document=document, by=Actor.for_user(olga))
    services.abandon_game(game=terziglio, by=Actor.for_user(olga), reason="Carla had to leave")
    before = state(terziglio)
    answer = api_as(olga).post(
        f"/api/v1/games/{terziglio.pk}/hands/", G1[2], format="json", HTTP_IDEMPOTENCY_KEY="k2"
    )
    assert answer.status_code == 409, answer.json()
    assert [(e["field"], e["code"]) for e in answer.json()["errors"]] == [
        ("game", "game_abandoned")
    ]
    form = {"dealer": "2", "outcome": "passed_out", "idempotency_key": "k3"}
    queued = login(olga).post(f"/g/{terziglio.pk}/hands/", form, HTTP_X_OUTBOX="1")
    assert queued.status_code == 409
    assert state(terziglio) == before
