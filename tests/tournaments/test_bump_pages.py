"""The bump chart on the pages and in the API (issue 35, points 1, 4 and 5): the standings page
draws it with its text alternative and the arrows beside the ranks, the entry's own page
highlights its line without script, ``?after_round=N`` answers the standings after round N
(a bad N is a 400 naming the field), and a private competition is a 404 as its pages are."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.services import Actor
from tests.clients import api_as
from tournaments import selectors, services
from tournaments.presenters import bump

from .api_helpers import fields, url
from .test_bump_history import live_ranks, next_round
from .test_swiss_cut import swiss_of_eight

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_rounds(club, olga):
    competition = swiss_of_eight(club, olga, cut_to=None, planned_rounds=3)
    next_round(competition, olga)
    next_round(competition, olga, upset=["Anna", "Bruno"])
    before = live_ranks(competition)
    next_round(competition, olga, upset=["Carla"])
    competition.before = before
    return competition


def page(competition, path="standings/"):
    response = Client().get(f"/p/{competition.club.slug}/{competition.slug}/{path}")
    assert response.status_code == 200
    return response.content.decode()


def test_the_standings_page_draws_the_chart_with_its_text_alternative(three_rounds):
    html = page(three_rounds)
    chart = html[html.index('id="bump"') :]
    assert 'role="img"' in chart and 'aria-labelledby="bump-title bump-desc"' in chart
    assert re.search(r'<title id="bump-title">Rank of every entry of Svizzera after each', chart)
    # the data as a table behind a disclosure, one row per entry, one column per round
    details = chart[chart.index("<details") : chart.index("</details>")]
    assert details.count("<tr data-entry=") == 8 and details.count('<th scope="col">Round') == 3
    # the six leaders coloured, dashed and named at both ends; the two others grey
    assert chart.count('<g class="line featured') == 6 and chart.count('<g class="line other') == 2
    assert len(set(re.findall(r'stroke-dasharray="([^"]+)"', chart))) >= 5
    assert "js/bump.js" in html and "css/bump.css" in html


def test_the_arrows_beside_the_ranks_say_the_places_gained_in_words_too(three_rounds):
    html = page(three_rounds)
    now = live_ranks(three_rounds)
    moves = {e: three_rounds.before[e] - r for e, r in now.items() if three_rounds.before[e] != r}
    assert moves
    for entry, move in moves.items():
        row = re.search(rf'<tr data-entry="{entry}"[^>]*>(.*?)</tr>', html, re.S).group(1)
        arrow = f"▲{move}" if move > 0 else f"▼{-move}"
        words = "up" if move > 0 else "down"
        assert f'data-move="{move}"' in row and arrow in row
        assert re.search(rf'class="sr-only">{words} {abs(move)} places? since round 2<', row)


def test_an_entrys_page_highlights_its_own_line_without_script(three_rounds):
    entry = three_rounds.entries.order_by("pk").last()
    html = page(three_rounds, f"entries/{entry.pk}/")
    assert re.search(rf'<g class="line other mine" data-entry="{entry.pk}">', html) or re.search(
        rf'<g class="line featured mine" data-entry="{entry.pk}">', html
    )
    assert f'<tr data-entry="{entry.pk}" class="mine">' in html  # its row of the data table
    assert len(re.findall(r'class="[^"]*\bmine\b', html)) == 2  # nothing else


def test_after_round_gives_the_standings_as_they_stood_then(three_rounds, olga):
    api = api_as(olga)
    response = api.get(url(three_rounds, "standings/?after_round=2"))
    assert response.status_code == 200
    data = response.json()
    assert data["after_round"] == 2 and data["rounds_played"] == [1, 2, 3]
    ranks = {r["entry"]: r["rank"] for r in data["tables"][0]["rows"]}
    assert ranks == three_rounds.before
    assert {r["entry"]: r["rank"] for r in api.get(url(three_rounds, "standings/")).json()[
        "tables"][0]["rows"]} == live_ranks(three_rounds)  # fmt: skip


@pytest.mark.parametrize("value", ["4", "0", "two", "-1", "2.5", "", "²", "9" * 40])
def test_a_bad_after_round_is_a_400_naming_it(three_rounds, olga, value):
    response = api_as(olga).get(url(three_rounds, "standings/"), {"after_round": value})
    assert response.status_code == 400
    assert {field for field, _code in fields(response)} == {"after_round"}


def test_a_private_competition_answers_404_to_its_history_as_its_pages_do(three_rounds, olga):
    three_rounds.public = False
    three_rounds.save(update_fields=["public"])
    assert APIClient().get(url(three_rounds, "standings/?after_round=1")).status_code == 404
    assert APIClient().get(url(three_rounds, "standings/?after_round=x")).status_code == 404
    slug = f"/p/{three_rounds.club.slug}/{three_rounds.slug}/"
    assert Client().get(f"{slug}standings/").status_code == 404
    assert Client().get(slug).status_code == 404


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_lines_pass_contrast_and_differ_without_colour():
    assert all(contrast(colour, "#ffffff") >= 4.5 for colour in (*bump.COLOURS, bump.OTHER))
    assert len(set(bump.DASHES)) == len(bump.DASHES) == len(bump.COLOURS) == bump.FEATURED


def test_the_chart_waits_for_a_second_round(club, olga):
    competition = swiss_of_eight(club, olga, cut_to=None, planned_rounds=3)
    next_round(competition, olga)
    assert 'id="bump"' not in page(competition)
    assert selectors.played_rounds(competition) == [1]
    services.add_round(competition=competition, by=Actor.for_user(olga))  # drawn, not played
    assert selectors.played_rounds(competition) == [1]


class _Ancestors(HTMLParser):
    """The ids of the elements around the one whose id is ``wanted``, outermost first."""

    VOID = {"br", "img", "input", "link", "meta", "hr", "source", "circle", "line", "polyline"}

    def __init__(self, wanted: str):
        super().__init__()
        self.wanted, self.stack, self.found = wanted, [], None

    def handle_starttag(self, tag, attrs):
        found = dict(attrs).get("id")
        if found == self.wanted and self.found is None:
            self.found = [dict(a) for _t, a in self.stack]
        if tag not in self.VOID:
            self.stack.append((tag, attrs))

    def handle_startendtag(self, tag, attrs):
        if dict(attrs).get("id") == self.wanted and self.found is None:
            self.found = [dict(a) for _t, a in self.stack]

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break


def around(html: str, wanted: str) -> list[dict]:
    """The attributes of every element around the element ``id=wanted``, outermost first."""
    parser = _Ancestors(wanted)
    parser.feed(html)
    assert parser.found is not None, f"no element id={wanted}"
    return parser.found


def region_of(html: str, wanted: str) -> dict:
    """The nearest stream region (an element with data-stream-on) around ``id=wanted``."""
    regions = [a for a in around(html, wanted) if "data-stream-on" in a]
    assert regions, f"id={wanted} is in no stream region"
    return regions[-1]


@pytest.mark.parametrize("path", ["", "standings/"])
def test_the_chart_is_a_region_of_the_competitions_stream_and_refreshes_when_a_round_closes(
    club, olga, path, django_capture_on_commit_callbacks
):
    # One round closed: no chart yet, but its region is there to be asked for again.
    competition = swiss_of_eight(club, olga, cut_to=None, planned_rounds=3)
    next_round(competition, olga)
    address = f"/p/{club.slug}/{competition.slug}/{path}"
    html = page(competition, path)
    assert 'id="bump"' not in html
    start = html.index('<div id="bump-live"')
    attributes = dict(re.findall(r'([\w-]+)="([^"]*)"', html[start : html.index(">", start)]))
    assert attributes["data-stream"] == f"/p/{club.slug}/{competition.slug}/events/"
    assert attributes["data-stream-on"] == "standings"
    assert attributes["data-stream-src"] == address
    version = selectors.snapshot_stamp(competition)[0]
    assert attributes["data-version"] == str(version)
    # The second round closes: a standings event of another version; the region asked for
    # again from its address now holds the chart of two rounds, at the new version.
    with django_capture_on_commit_callbacks(execute=True):  # the standings stored again
        next_round(competition, olga, upset=["Anna"])
    html = page(competition, path)
    region = region_of(html, "bump")
    assert region["id"] == "bump-live" and region["data-stream-src"] == address
    assert int(region["data-version"]) == selectors.snapshot_stamp(competition)[0] > version
    chart = html[html.index('id="bump"') : html.index("</figure>")]
    assert chart.count('<th scope="col">Round') == 2
