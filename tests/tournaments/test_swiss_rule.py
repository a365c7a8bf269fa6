"""Issue 32, point 7b: the Swiss pairing rule (docs/swiss.md) is shown to entrants on the
competition's public page, in their language, for Swiss formats only."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from .helpers import make_competition


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
