"""Issue 22, point 8: withdrawing (or reinstating) an entry through the API holds to the
``If-Match`` it is sent with: the entry's ``etag`` as listed, 412 when it changed since (it
was withdrawn and reinstated meanwhile), and nothing changes then."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import enter, make_competition
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def coppa(club, olga):
    competition = make_competition(club, olga, slug="coppa")
    enter(competition, olga, 3)
    return competition


def etag_of(api, competition, entry_id: int) -> str:
    listed = api.get(f"/api/v1/competitions/{competition.pk}/entries/").json()["results"]
    (etag,) = [e["etag"] for e in listed if e["id"] == entry_id]
    return etag


def test_a_withdrawal_as_read_is_made_and_a_stale_one_refused(api, coppa):
    entry = coppa.entries.order_by("pk").first()
    base = f"/api/v1/competitions/{coppa.pk}/entries/{entry.pk}"
    read = etag_of(api, coppa, entry.pk)
    assert read.startswith(f'"e{entry.pk}.')
    # Withdrawn and reinstated by someone else meanwhile: the same status, another entry state.
    assert api.post(f"{base}/withdraw/", {"reason": "ill"}, format="json").status_code == 200
    assert api.post(f"{base}/reinstate/", {"reason": "back"}, format="json").status_code == 200
    refused = api.post(f"{base}/withdraw/", {"reason": "ill"}, format="json", HTTP_IF_MATCH=read)
    assert refused.status_code == 412
    (error,) = refused.json()["errors"]
    assert (error["field"], error["code"]) == ("If-Match", "stale")
    assert "This entry changed since you read it" in error["message"]
    assert Entry.objects.get(pk=entry.pk).status == "active"

    current = etag_of(api, coppa, entry.pk)
    assert current != read
    made = api.post(f"{base}/withdraw/", {"reason": "ill"}, format="json", HTTP_IF_MATCH=current)
    assert made.status_code == 200 and made.json()["status"] == "withdrawn"
    assert made.json()["etag"] != current
    again = api.post(f"{base}/reinstate/", {}, format="json", HTTP_IF_MATCH=current)
    assert again.status_code == 412  # the withdrawal changed it
    assert Entry.objects.get(pk=entry.pk).status == "withdrawn"


def test_another_entrys_validator_is_refused(api, coppa):
    first, second = coppa.entries.order_by("pk")[:2]
    other = etag_of(api, coppa, second.pk)
    url = f"/api/v1/competitions/{coppa.pk}/entries/{first.pk}/withdraw/"
    assert api.post(url, {}, format="json", HTTP_IF_MATCH=other).status_code == 412
    assert Entry.objects.get(pk=first.pk).status == "active"
