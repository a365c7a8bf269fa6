"""``Idempotency-Key`` on every API write (issue 34, point 3; ``scoring.api.idempotency``): a
resend gets the first answer, replayed, and nothing is done twice; the same key with another
body is refused (422), one still being answered too (409), a malformed key as well (400); a
refusal is not kept; keys are the caller's own and the operation's; old ones are purged.
Every write operation of the schema is walked in test_idempotency_census.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from registration import services as registration_services
from registration.models import Registration
from registration.services import registration as registration_service
from scoring import services as scoring_services
from scoring import tasks
from scoring.models import Hand, IdempotentRequest
from scoring.services import Actor, idempotency
from scoring.services.housekeeping import purge_idempotency_records
from scoring.services.queue import enqueue
from tests.clients import api_as
from tests.tournaments.helpers import make_competition
from tournaments import services as tournament_services
from tournaments.models import Competition

pytestmark = pytest.mark.django_db

CREATE = "/api/v1/clubs/uno/competitions/"
BODY = {"name": "Coppa", "rulesets": ["terziglio"], "format": "rotation", "planned_rounds": 3}


def send(client, body=BODY, key="k-1", url=CREATE, method="post", **extra):
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    return getattr(client, method)(url, body, format="json", **headers, **extra)


def errors(response) -> set[tuple[str, str]]:
    return {(e["field"], e["code"]) for e in response.json()["errors"]}


def test_a_resent_create_gets_the_first_answer_and_makes_nothing_again(api, club):
    first = send(api)
    assert first.status_code == 201, first.json()
    assert "Idempotent-Replayed" not in first
    again = send(api)
    assert again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert again["Location"] == first["Location"]
    assert Competition.objects.count() == 1


def test_the_replay_is_the_first_answer_even_when_things_changed_since(api, club):
    first = send(api).json()
    Competition.objects.update(name="Renamed")
    assert send(api).json()["name"] == first["name"] == "Coppa"


def test_without_a_key_every_send_is_a_new_request(api, club):
    """Which a client cannot tell from a refusal: the resend is refused, its name taken."""
    assert send(api, key=None).status_code == 201
    again = send(api, key=None)
    assert again.status_code == 400 and errors(again) == {("slug", "duplicate")}
    assert not IdempotentRequest.objects.exists()


def test_the_same_key_with_another_body_is_refused_naming_the_header(api, club):
    assert send(api).status_code == 201
    other = send(api, BODY | {"name": "Coppa bis"})
    assert other.status_code == 422
    assert errors(other) == {("Idempotency-Key", "reused")}
    assert "another request" in other.json()["errors"][0]["message"]
    assert Competition.objects.count() == 1


def test_the_same_key_with_another_query_is_another_body(api, club, olga):
    competition = make_competition(club, olga, name="Coppa", public=True)
    url = f"/api/v1/competitions/{competition.pk}/prizes/"
    body = {"object": "Prosciutto", "rank": 1}
    first = send(api, body, url=url)
    assert first.status_code == 201, first.json()
    assert send(api, body, url=url + "?x=1").status_code == 422


@pytest.mark.parametrize("key", ["", "   ", "k" * 256, "a\x01b", "tab\there"])
def test_a_malformed_key_is_refused_naming_the_header_and_nothing_is_made(api, club, key):
    response = send(api, key=key)
    assert response.status_code == 400
    assert errors(response) == {("Idempotency-Key", "invalid")}
    assert "255" in response.json()["errors"][0]["message"]
    assert not Competition.objects.exists() and not IdempotentRequest.objects.exists()


def test_a_key_of_255_characters_is_taken(api, club):
    assert send(api, key="k" * 255).status_code == 201
    assert send(api, key="k" * 255)["Idempotent-Replayed"] == "true"


def test_a_refusal_is_not_kept_so_the_fixed_request_runs_with_the_same_key(api, club):
    bad = send(api, BODY | {"planned_rounds": "many"})
    assert bad.status_code == 400
    assert not IdempotentRequest.objects.exists()
    fixed = send(api)
    assert fixed.status_code == 201 and "Idempotent-Replayed" not in fixed
    assert Competition.objects.count() == 1


def test_a_resend_while_the_first_is_still_being_answered_is_refused(api, club, monkeypatch):
    """The phone gives up waiting and sends again while the server is still making the first:
    409 ``in_flight``; once the first is answered, a resend gets its answer."""
    create = tournament_services.create_competition
    inner = []

    def slow_create(**kwargs):
        inner.append(send(api))  # the resend, arriving meanwhile
        return create(**kwargs)

    monkeypatch.setattr(tournament_services, "create_competition", slow_create)
    first = send(api)
    assert first.status_code == 201
    (resend,) = inner
    assert resend.status_code == 409
    assert errors(resend) == {("Idempotency-Key", "in_flight")}
    monkeypatch.setattr(tournament_services, "create_competition", create)
    assert send(api)["Idempotent-Replayed"] == "true"
    assert Competition.objects.count() == 1


def test_a_crash_forgets_the_claim(api, club, monkeypatch):
    def crash(**kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(tournament_services, "create_competition", crash)
    with pytest.raises(RuntimeError):
        send(api)
    assert not IdempotentRequest.objects.exists()


def test_a_claim_left_by_a_dead_worker_is_taken_over_after_a_while():
    claimed = idempotency.claim(client="user:1", operation="POST /x/", key="k", fingerprint="f")
    assert isinstance(claimed, idempotency.Claimed)
    with pytest.raises(idempotency.InFlight):
        idempotency.claim(client="user:1", operation="POST /x/", key="k", fingerprint="f")
    IdempotentRequest.objects.update(
        created_at=timezone.now() - timedelta(seconds=idempotency.IN_FLIGHT_SECONDS + 1)
    )
    again = idempotency.claim(client="user:1", operation="POST /x/", key="k", fingerprint="f")
    assert again == claimed


def test_keys_are_the_callers_own(api, club, oscar):
    """Oscar, organizer of the same club, sending Olga's key and body makes his own request."""
    assert send(api).status_code == 201
    his = send(api_as(oscar))
    assert "Idempotent-Replayed" not in his
    assert his.status_code == 400 and errors(his) == {("slug", "duplicate")}
    assert Competition.objects.count() == 1


def test_keys_are_the_operations_own(api, club, olga):
    assert send(api).status_code == 201
    competition = make_competition(club, olga, name="Lega", public=True)
    prize = send(
        api,
        {"object": "Prosciutto", "rank": 1},
        url=f"/api/v1/competitions/{competition.pk}/prizes/",
    )
    assert prize.status_code == 201 and "Idempotent-Replayed" not in prize


def test_a_resent_correction_gets_its_first_answer_and_etag(api, terziglio, olga):
    """A hand corrected with If-Match: the resend's If-Match is stale by then (it would be a
    412), but with its key it gets the first answer, ETag included."""
    scoring_services.record_hand(
        game=terziglio,
        document={"dealer": 0, "outcome": "played", "soloist": 2, "contract": "solo",
                  "soloist_points": 7},
        by=Actor.for_user(olga),
    )  # fmt: skip
    url = f"/api/v1/games/{terziglio.pk}/hands/1/"
    tag = api.get(url)["ETag"]
    document = {"ruleset": "terziglio", "dealer": 0, "outcome": "played", "soloist": 2,
                "contract": "solo", "soloist_points": 6}  # fmt: skip
    first = send(api, {"document": document}, url=url, method="put", HTTP_IF_MATCH=tag)
    assert first.status_code == 200, first.json()
    assert first["ETag"] != tag
    again = send(api, {"document": document}, url=url, method="put", HTTP_IF_MATCH=tag)
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again["ETag"] == first["ETag"] and again.json() == first.json()
    assert Hand.objects.get(game=terziglio).version == 2
    stale = send(api, {"document": document}, url=url, method="put", key=None, HTTP_IF_MATCH=tag)
    assert stale.status_code == 412


@pytest.mark.parametrize(("length", "status"), [(255, 201), (256, 400)])
def test_a_hand_key_is_up_to_255_characters_as_every_other(api, terziglio, length, status):
    document = {"ruleset": "terziglio", "dealer": 0, "outcome": "played", "soloist": 2,
                "contract": "solo", "soloist_points": 7}  # fmt: skip
    url = f"/api/v1/games/{terziglio.pk}/hands/"
    response = send(api, document, url=url, key="h" * length)
    assert response.status_code == status
    if status == 201:
        assert send(api, document, url=url, key="h" * length)["Idempotent-Replayed"] == "true"
    else:
        assert errors(response) == {("Idempotency-Key", "required")}


def test_the_hand_post_keeps_its_own_record(api, terziglio):
    document = {"ruleset": "terziglio", "dealer": 0, "outcome": "played", "soloist": 2,
                "contract": "solo", "soloist_points": 7}  # fmt: skip
    url = f"/api/v1/games/{terziglio.pk}/hands/"
    assert send(api, document, url=url, key="h-1").status_code == 201
    assert send(api, document, url=url, key="h-1")["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(game=terziglio).count() == 1
    assert not IdempotentRequest.objects.exists()


# ---------------------------------------------------------------------------------------------
# Anonymous callers: a registration resent


@pytest.fixture
def torneo(club, olga, monkeypatch):
    monkeypatch.setattr(registration_service, "enqueue_on_commit", enqueue)
    competition = make_competition(club, olga, name="Torneo", public=True)
    now = timezone.now()
    registration_services.set_registration(
        competition=competition,
        by=Actor.for_user(olga),
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=3),
        capacity=4,
    )
    return competition


def register(torneo, address="203.0.113.5", key="r-1"):
    body = {"name": "Anna", "email": "anna@example.org"}
    url = f"/api/v1/competitions/{torneo.pk}/registrations/"
    return send(api_as(None), body, url=url, key=key, REMOTE_ADDR=address)


def test_a_registration_resent_with_its_key_gets_the_first_201(torneo):
    first = register(torneo)
    assert first.status_code == 201, first.json()
    again = register(torneo)
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Registration.objects.count() == 1
    assert len(mail.outbox) == 1  # one confirmation mail
    without_key = register(torneo, key=None)
    assert without_key.status_code == 400 and errors(without_key) == {("email", "duplicate")}


def test_an_anonymous_key_is_its_address_own(torneo):
    assert register(torneo).status_code == 201
    elsewhere = register(torneo, address="198.51.100.7")
    assert elsewhere.status_code == 400 and errors(elsewhere) == {("email", "duplicate")}
    (row,) = IdempotentRequest.objects.all()
    assert row.client.startswith("address:") and "203.0.113.5" not in row.client


# ---------------------------------------------------------------------------------------------
# Lifetime


def test_first_answers_older_than_the_lifetime_are_purged(api, club, settings):
    settings.IDEMPOTENCY_TTL_HOURS = 48
    send(api, key="old")
    send(api, BODY | {"name": "Nuova"}, key="new")
    old = IdempotentRequest.objects.order_by("pk").first()
    IdempotentRequest.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(hours=49)
    )
    assert purge_idempotency_records() == 1
    assert IdempotentRequest.objects.count() == 1
    # Past its lifetime a resend is a new request.
    past = send(api, key="old")
    assert "Idempotent-Replayed" not in past
    assert past.status_code == 400 and errors(past) == {("slug", "duplicate")}
    assert send(api, BODY | {"name": "Nuova"}, key="new")["Idempotent-Replayed"] == "true"


def test_the_hourly_task_purges_them_with_the_configured_lifetime(api, club, settings):
    settings.IDEMPOTENCY_TTL_HOURS = 2
    send(api)
    IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(hours=3))
    assert tasks.purge_idempotency_records() == 1
    assert not IdempotentRequest.objects.exists()
