"""Issue 32, point 7b: the Swiss pairing rule (docs/swiss.md) is shown to entrants on the
competition's public page, in their language, for Swiss formats only."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from scoring.services import Actor
from tournaments import services

from .helpers import enter, make_competition


def public(competition, language="en") -> str:
    url = reverse("public-competition", args=[competition.club.slug, competition.slug])
    return Client(headers={"accept-language": language}).get(url).content.decode()


def test_a_swiss_public_page_says_how_pairings_are_made(club, olga):
    competition = make_competition(club, olga, format="swiss", public=True)
    html = public(competition)
    assert 'id="pairing-rule"' in html and "How pairings are made" in html
    assert "the best-ranked player takes seat 1 and deals first" in html
    assert "fewest byes so far" in html
    assert "Comment les tables sont formées" in public(competition, "fr")
    assert "Come si formano i tavoli" in public(competition, "it")


def test_other_formats_do_not_show_the_swiss_rule(club, olga):
    competition = make_competition(club, olga, format="club_night", public=True)
    assert 'id="pairing-rule"' not in public(competition)


def link_of(html: str) -> str:
    found = html.split('class="pairing-rule-link"', 1)
    return found[1].split("</p>", 1)[0] if len(found) == 2 else ""


def test_the_round_page_and_the_standings_link_to_how_pairings_are_made(club, olga):
    by = Actor.for_user(olga)
    for slug, format in (("svizzera", "swiss"), ("serata", "club_night")):
        competition = make_competition(club, olga, slug=slug, format=format, public=True)
        enter(competition, olga, 3)
        round_ = services.add_round(competition=competition, by=by)
        services.generate_round(round_=round_, by=by, seed=1)
        services.publish_round(round_=round_, by=by)
    client = Client()
    for address in ("/p/uno/svizzera/rounds/1/", "/p/uno/svizzera/standings/"):
        link = link_of(client.get(address).content.decode())
        assert 'href="/p/uno/svizzera/#pairing-rule"' in link, address
        assert "How pairings are made" in link
    assert "Come si formano i tavoli" in link_of(
        Client(headers={"accept-language": "it"}).get("/p/uno/svizzera/rounds/1/").content.decode()
    )
    for address in ("/p/uno/serata/rounds/1/", "/p/uno/serata/standings/"):
        assert link_of(client.get(address).content.decode()) == "", address
