"""Issue 22, point 8: a DELETE of a round names the round it deletes.

The later draft rounds move up one number when one is deleted, so ``DELETE …/rounds/3/`` sent
twice used to delete two rounds. Now it needs ``If-Match`` with the round's ETag as read (its
row, not its number: ``"r<round id>.<version>"``): the second DELETE finds the round it names
gone and answers 404, and the round that took number 3 stays; a round changed since it was
read is a 412, no validator a 428. Nothing is deleted by a refused DELETE.
"""

from __future__ import annotations

import pytest

from scoring.services import Actor
from tests.clients import api_as
from tests.concurrency import race
from tests.tournaments.helpers import enter, make_competition
from tournaments import services
from tournaments.models import Round


@pytest.fixture
def four_drafts(club, olga):
    competition = make_competition(club, olga, slug="coppa")
    enter(competition, olga, 3)
    for _ in range(4):
        services.add_round(competition=competition, by=Actor.for_user(olga))
    return competition


def path(competition, number: int) -> str:
    return f"/api/v1/competitions/{competition.pk}/rounds/{number}/"


def live(competition) -> list[int]:
    """The ids of the competition's rounds, in number order."""
    return list(Round.objects.filter(competition=competition).values_list("pk", flat=True))


@pytest.mark.django_db
def test_a_delete_sent_twice_deletes_one_round(api, four_drafts):
    first, second, third, fourth = live(four_drafts)
    etag = api.get(path(four_drafts, 3))["ETag"]
    assert etag.startswith(f'"r{third}.')

    assert api.delete(path(four_drafts, 3), HTTP_IF_MATCH=etag).status_code == 204
    assert live(four_drafts) == [first, second, fourth]  # round 4 is round 3 now

    again = api.delete(path(four_drafts, 3), HTTP_IF_MATCH=etag)
    assert again.status_code == 404
    assert live(four_drafts) == [first, second, fourth]


@pytest.mark.django_db
def test_without_if_match_nothing_is_deleted(api, four_drafts):
    before = live(four_drafts)
    response = api.delete(path(four_drafts, 3))
    assert response.status_code == 428
    (error,) = response.json()["errors"]
    assert (error["field"], error["code"]) == ("If-Match", "required")
    assert "ETag of the round" in error["message"]
    assert api.delete(path(four_drafts, 3), HTTP_IF_MATCH="*").status_code == 428
    assert live(four_drafts) == before


@pytest.mark.django_db
def test_another_rounds_validator_or_a_stale_one_is_a_412(api, four_drafts):
    before = live(four_drafts)
    second = api.get(path(four_drafts, 2))["ETag"]
    refused = api.delete(path(four_drafts, 3), HTTP_IF_MATCH=second)
    assert refused.status_code == 412
    assert refused.json()["errors"][0]["code"] == "stale"
    assert "Round 3 is not the round you read" in refused.json()["errors"][0]["message"]

    read = api.get(path(four_drafts, 3))["ETag"]
    changed = api.patch(path(four_drafts, 3), {"start_time": "21:00"}, format="json")
    assert changed.status_code == 200
    assert api.delete(path(four_drafts, 3), HTTP_IF_MATCH=read).status_code == 412
    assert api.delete(path(four_drafts, 3), HTTP_IF_MATCH='W/"x", "nonsense').status_code == 412
    assert live(four_drafts) == before
    current = api.get(path(four_drafts, 3))["ETag"]
    assert current != read
    assert api.delete(path(four_drafts, 3), HTTP_IF_MATCH=current).status_code == 204


@pytest.mark.django_db
def test_the_etag_names_the_round_not_its_number(api, four_drafts):
    fourth = live(four_drafts)[3]
    before = api.get(path(four_drafts, 4))["ETag"]
    third = api.get(path(four_drafts, 3))["ETag"]
    assert api.delete(path(four_drafts, 3), HTTP_IF_MATCH=third).status_code == 204
    # The round that was 4 keeps its validator under its new number, and is deleted with it.
    assert api.get(path(four_drafts, 3))["ETag"] == before
    assert api.delete(path(four_drafts, 3), HTTP_IF_MATCH=before).status_code == 204
    assert fourth not in live(four_drafts) and len(live(four_drafts)) == 2


@pytest.mark.django_db(transaction=True)
def test_five_deletes_at_once_delete_one_round(olga, four_drafts):
    """The same DELETE sent five times at once (PostgreSQL: five connections, serialised on
    the competition's row): one 204, four 404, and only the round named is deleted."""
    first, second, _third, fourth = live(four_drafts)
    etag = api_as(olga).get(path(four_drafts, 3))["ETag"]
    delete = (
        lambda: api_as(olga),
        lambda client: client.delete(path(four_drafts, 3), HTTP_IF_MATCH=etag).status_code,
    )
    outcomes = race(*[delete] * 5)
    assert [kind for kind, _status in outcomes] == ["done"] * 5
    statuses = [status for _kind, status in outcomes]
    assert sorted(statuses) == [204, 404, 404, 404, 404]
    assert live(four_drafts) == [first, second, fourth]
