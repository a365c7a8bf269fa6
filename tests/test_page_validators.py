"""Every page that answers with a validator (an ETag) makes it of everything that changes its
bytes (issue 21, point 3): the same page in another language, or for another reader, never gets
a 304 for the bytes someone else was given.

The test walks every URL of the site (the API aside: its validators name resources, not pages),
fills its parameters from a small world (a club with public results, a game in progress, a
public competition with a published round), and for each page that sends an ETag asks again in
Italian and French, as another reader and anonymously: where the bytes differ, the ETag must
differ, and the first reader's ETag must not earn a 304.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import get_resolver
from django.urls.resolvers import URLResolver

from scoring import services as scoring
from scoring.services import Actor
from tests.clients import login
from tournaments import services

pytestmark = pytest.mark.django_db


def routes(patterns=None, prefix=""):
    """``(route, name)`` of every named URL pattern."""
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif pattern.name:
            yield prefix + str(pattern.pattern), pattern.name


@pytest.fixture
def world(club, players, olga):
    by = Actor.for_user(olga)
    club.results_public = True
    club.save(update_fields=["results_public"])
    game = scoring.start_game(club=club, ruleset="briscola", players=players[:2], by=by)
    scoring.record_hand(game=game, document={"dealer": 0, "points": [70, 50]}, by=by)
    competition = services.create_competition(
        club=club, by=by, name="Coppa", rulesets=["terziglio"], public=True
    )
    for name in ("Elio", "Fabio", "Gino", "Ugo", "Vera", "Zoe"):
        services.add_entry(competition=competition, player=name, by=by)
    round_ = services.add_round(
        competition=competition, by=by, date=dt.date(2026, 3, 6), start_time=dt.time(21, 0)
    )
    services.generate_round(round_=round_, by=by, seed=3)
    services.publish_round(round_=round_, by=by)
    return {
        "slug": club.slug,
        "club_slug": club.slug,
        "game_id": game.pk,
        "number": 1,
        "player_id": players[0].pk,
        "token": game.table_link.token,
        "competition": competition.slug,
    }


def pages(world) -> list[str]:
    """Every page's address that the world can fill (GET only, the API and admin aside)."""
    urls = []
    for route, _name in routes():
        if route.startswith(("api/", "admin/", "i18n/")):
            continue
        path = route
        for key, value in world.items():
            path = path.replace(f"<int:{key}>", str(value)).replace(f"<str:{key}>", str(value))
            if key == "club_slug":
                path = path.replace("<slug:club_slug>", str(value))
        path = path.replace(
            "<slug:slug>", world["competition"] if "club_slug" in route else world["slug"]
        )
        if "<" not in path:
            urls.append("/" + path)
    return urls


#: What differs between two answers without being what the page shows: the CSRF token of a
#: form (masked anew each time) and the moment a calendar was made.
VOLATILE = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"|DTSTAMP:[0-9TZ]+')


def shown(response) -> bytes:
    return VOLATILE.sub(b"", response.content)


def fetch(client: Client, url: str, language: str, etag: str | None = None):
    client.cookies["django_language"] = language
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(url, **headers)


def test_every_validator_changes_with_the_language_and_the_reader(world, olga, oscar):
    readers = {"olga": login(olga), "oscar": login(oscar), "anonymous": Client()}
    checked = []
    for url in pages(world):
        first = fetch(readers["olga"], url, "en")
        etag = first.headers.get("ETag")
        if first.status_code != 200 or etag is None:
            continue
        checked.append(url)
        for who, language in (("olga", "it"), ("olga", "fr"), ("oscar", "en"), ("anonymous", "en")):
            other = fetch(readers[who], url, language)
            if other.status_code != 200 or shown(other) == shown(first):
                continue
            assert other.headers.get("ETag") != etag, (url, who, language)
            again = fetch(readers[who], url, language, etag=etag)
            assert again.status_code != 304, (url, who, language)
    # The scan is not empty: the game's live region and the public pages send validators.
    assert f"/g/{world['game_id']}/live/" in checked
    assert "/p/uno/coppa/" in checked
    assert len(checked) >= 4, checked


def test_the_live_region_answers_304_to_the_same_reader_in_the_same_language(world, olga):
    client = login(olga)
    url = f"/g/{world['game_id']}/live/"
    first = fetch(client, url, "it")
    assert fetch(client, url, "it", etag=first.headers["ETag"]).status_code == 304
    # Switching language: the Italian validator is not the English page's.
    english = fetch(client, url, "en", etag=first.headers["ETag"])
    assert english.status_code == 200
    assert "Hands" in english.content.decode()


DESCRIPTION = re.compile(r'<meta name="description" content="([^"]{40,})">')


def test_every_page_has_a_meta_description_and_the_main_ones_their_own(world, olga):
    """Search engines show it under the link (issue 21, point 14: Lighthouse's SEO audit)."""
    client = login(olga)
    described = {}
    for url in pages(world):
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response["Content-Type"]:
            continue
        html = response.content.decode()
        if "<html" not in html:
            continue  # a fragment polled by htmx
        found = DESCRIPTION.findall(html)
        assert len(found) == 1, url
        described[url] = found[0]
    default = described["/login/"]
    game = f"/g/{world['game_id']}/"
    for url in ("/", game, f"{game}board/", "/p/uno/coppa/", "/p/uno/coppa/standings/"):
        assert described[url] != default, url
    assert "Coppa" in described["/p/uno/coppa/"] and "Briscola" in described[game]
    assert len(described) >= 10, described


def test_django_htmx_is_loaded_once_with_debug_on(client, settings):
    settings.DEBUG = True
    html = client.get("/").content.decode()
    assert html.count("django-htmx.js") == 1 and html.count("htmx-2.min.js") == 1
