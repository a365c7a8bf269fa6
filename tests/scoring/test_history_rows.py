"""The live region's history lines are rendered once each and read back from the cache
(scoring/presenters/history_rows.py): the fetch a member's screen makes at each event of its
game's stream renders the new line only, and never shows a line that is no longer true."""

import re

import pytest
from django.core.cache import cache

from scoring import services
from scoring.services import Actor
from tests.clients import login
from tests.scoring.test_pages import G1

pytestmark = pytest.mark.django_db

ROW = "scoring/partials/history_row.html"
#: The CSRF token of a form, masked anew at each answer.
VOLATILE = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')


def rows_rendered(response) -> int:
    return sum(1 for t in response.templates if t.name == ROW)


def fresh(client, url, **headers) -> bytes:
    """The region as a cold cache renders it, every line anew."""
    cache.clear()
    return VOLATILE.sub(b"", client.get(url, **headers).content)


def test_a_fetch_after_a_new_hand_renders_only_its_line(olga, terziglio):
    by = Actor.for_user(olga)
    for document in G1[:3]:
        services.record_hand(game=terziglio, document=document, by=by)
    client = login(olga)
    url = f"/g/{terziglio.pk}/live/"
    assert rows_rendered(client.get(url)) == 3
    services.record_hand(game=terziglio, document=G1[3], by=by)
    after = client.get(url)
    assert rows_rendered(after) == 1
    assert after.content.decode().count('data-hand="') == 4
    assert VOLATILE.sub(b"", after.content) == fresh(client, url)


def test_a_correction_shows_the_new_figures_on_every_line_after_it(olga, terziglio):
    by = Actor.for_user(olga)
    for document in G1[:3]:
        services.record_hand(game=terziglio, document=document, by=by)
    client = login(olga)
    url = f"/g/{terziglio.pk}/live/"
    before = client.get(url).content
    services.correct_hand(game=terziglio, number=1, document=G1[0] | {"soloist_points": 6}, by=by)
    corrected = client.get(url)
    # The corrected line is rendered anew (and any whose running totals moved with it).
    assert rows_rendered(corrected) >= 1
    assert VOLATILE.sub(b"", corrected.content) == fresh(client, url)
    assert corrected.content != before
    services.remove_hand(game=terziglio, number=3, by=by, reason="typed twice")
    removed = client.get(url)
    assert removed.content.decode().count('data-hand="') == 2
    assert VOLATILE.sub(b"", removed.content) == fresh(client, url)


def test_each_language_has_its_own_lines(olga, terziglio):
    services.record_hand(game=terziglio, document=G1[0], by=Actor.for_user(olga))
    client = login(olga)
    url = f"/g/{terziglio.pk}/live/"
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it")
    assert rows_rendered(italian) == 1
    assert "dealt by" in english and "dealt by" not in italian.content.decode()
    assert VOLATILE.sub(b"", italian.content) == fresh(client, url, HTTP_ACCEPT_LANGUAGE="it")
