"""Issue 22, point 8: abandoning a game through the API holds to the ``If-Match`` it is sent
with, as hand writes do: the game's ETag as read, 412 when the game changed since (a hand
entered meanwhile), and nothing changes then."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.models import Game
from scoring.services import Actor

pytestmark = pytest.mark.django_db

HAND = {"dealer": 0, "outcome": "played", "soloist": 1, "contract": "chiamo", "soloist_points": 5}


def test_an_abandon_sent_with_a_stale_etag_is_refused(api, olga, terziglio):
    url = f"/api/v1/games/{terziglio.pk}/"
    read = api.get(url)["ETag"]
    services.record_hand(game=terziglio, document=HAND, by=Actor.for_user(olga))
    refused = api.post(f"{url}abandon/", {"reason": "gone"}, format="json", HTTP_IF_MATCH=read)
    assert refused.status_code == 412
    (error,) = refused.json()["errors"]
    assert (error["field"], error["code"]) == ("If-Match", "stale")
    assert "This game changed since you read it" in error["message"]
    assert Game.objects.get(pk=terziglio.pk).status == "in_progress"
    for garbled in ("*", 'W/"x"', "nonsense"):
        answer = api.post(
            f"{url}abandon/", {"reason": "gone"}, format="json", HTTP_IF_MATCH=garbled
        )
        assert answer.status_code == 412, garbled
    current = api.get(url)["ETag"]
    done = api.post(f"{url}abandon/", {"reason": "gone"}, format="json", HTTP_IF_MATCH=current)
    assert done.status_code == 200
    assert Game.objects.get(pk=terziglio.pk).status == "abandoned"
    assert done["ETag"] != current


def test_without_if_match_an_abandon_is_made_as_before(api, terziglio):
    done = api.post(f"/api/v1/games/{terziglio.pk}/abandon/", {"reason": "gone"}, format="json")
    assert done.status_code == 200
    assert Game.objects.get(pk=terziglio.pk).status == "abandoned"
