"""A phone's hand POST goes the short way (scoring/api/quick.py): the same answer, byte for
byte and header for header, as DRF's whole way; a refusal before the service is still DRF's
(the service's own refusals: tests/scoring/test_quick_hand_refusals.py)."""

import json

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.views import APIView

from scoring.models import AuditEvent, Hand, IdempotencyRecord
from tests.scoring.test_hand_entry_perf import terziglio

HEADERS = ("Content-Type", "Location", "ETag", "Idempotent-Replayed", "Allow", "Vary")
PLAYED = {"dealer": 0, "outcome": "played", "soloist": 1, "contract": "chiamo", "soloist_points": 7}


@pytest.fixture
def token(olga):
    return Token.objects.create(user=olga).key


def send(game, token, document, key, **extra):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client.post(
        f"/api/v1/games/{game.pk}/hands/",
        json.dumps(document),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
        **extra,
    )


@pytest.fixture
def drf_only(monkeypatch):
    """DRF's whole way for every request: the short way declines."""
    from scoring.api import quick

    monkeypatch.setattr(quick, "goes_quickly", lambda meta: False)


@pytest.fixture
def no_drf(monkeypatch):
    """Fails if DRF's dispatch runs (its ``initial``: negotiation, authentication...)."""

    def refuse(self, request, *args, **kwargs):
        raise AssertionError("DRF's whole way ran")

    monkeypatch.setattr(APIView, "initial", refuse)


def answer_of(response):
    return response.status_code, response.content, {h: response.get(h) for h in HEADERS}


def test_a_phone_hand_post_goes_the_short_way(club, players, olga, token, no_drf):
    game = terziglio(club, players, olga)
    response = send(game, token, PLAYED, "k1")
    assert response.status_code == 201
    assert response.json()["number"] == 1
    assert Hand.objects.filter(game=game).count() == 1
    assert AuditEvent.objects.filter(game=game).exists()
    assert IdempotencyRecord.objects.filter(key="k1").exists()
    replay = send(game, token, PLAYED, "k1")
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(game=game).count() == 1


def comparable(response, game) -> tuple:
    """The answer with what names its game (its id, the ETags that carry it) left out."""
    body = response.json()
    for doc in (body, body["game"]):
        doc.pop("etag"), doc.pop("id", None)
    headers = {h: response.get(h) for h in HEADERS if h not in ("Location", "ETag")}
    assert response["Location"] == f"/api/v1/games/{game.pk}/hands/{body['number']}/"
    assert response["ETag"]
    return response.status_code, body, headers


def test_the_short_way_answers_as_drf_does(club, players, olga, token, monkeypatch):
    from scoring.api import quick

    quick_game, drf_game = terziglio(club, players, olga), terziglio(club, players, olga)
    quickly = [send(quick_game, token, PLAYED, "q1"), send(quick_game, token, PLAYED, "q1")]
    monkeypatch.setattr(quick, "goes_quickly", lambda meta: False)
    by_drf = [send(drf_game, token, PLAYED, "d1"), send(drf_game, token, PLAYED, "d1")]
    for ours, theirs in zip(quickly, by_drf, strict=True):
        assert comparable(ours, quick_game) == comparable(theirs, drf_game)
    assert by_drf[1]["Idempotent-Replayed"] == quickly[1]["Idempotent-Replayed"] == "true"


@pytest.mark.parametrize(
    ("document", "extra", "status"),
    [
        ({"dealer": 0, "outcome": "played"}, {}, 400),  # the rules refuse it
        ("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", {}, 400),  # too deep
        (PLAYED, {"HTTP_IDEMPOTENCY_KEY": "x" * 500}, 400),  # key too long
    ],
)
def test_a_refusal_is_drfs_and_changes_nothing(club, players, olga, token, document, extra, status):
    game = terziglio(club, players, olga)
    body = document if isinstance(document, dict) else None
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = client.post(
        f"/api/v1/games/{game.pk}/hands/",
        json.dumps(body) if body is not None else document,
        content_type="application/json",
        **({"HTTP_IDEMPOTENCY_KEY": "k1"} | extra),
    )
    assert response.status_code == status
    assert response.json()["errors"]
    assert not Hand.objects.filter(game=game).exists()


def test_a_wrong_token_gets_drfs_401(club, players, olga):
    game = terziglio(club, players, olga)
    response = send(game, "not-a-token", PLAYED, "k1")
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Token")
    assert not Hand.objects.filter(game=game).exists()


def test_someone_of_another_club_gets_a_404_as_before(club, players, olga, bea):
    game = terziglio(club, players, olga)
    other = Token.objects.create(user=bea).key
    response = send(game, other, PLAYED, "k1")
    assert response.status_code == 404
    assert response.json()["errors"]
    assert not Hand.objects.filter(game=game).exists()


@pytest.mark.parametrize(
    "extra",
    [{"HTTP_ACCEPT": "text/html"}, {"QUERY_STRING": "format=api"}],
)
def test_a_browser_request_goes_drfs_way(club, players, olga, token, no_drf, extra):
    game = terziglio(club, players, olga)
    with pytest.raises(AssertionError, match="DRF's whole way ran"):
        send(game, token, PLAYED, "k1", **extra)
