"""The results picture (issue 35, point 3): a valid PNG of each stated size (and an SVG), in the
club's language, drawn once per standings version (a second request is a cache read), changed
when the standings change, a 404 for a private competition and for a round not closed; the
public pages name it as their og:image / twitter:image, with a text alternative."""

from __future__ import annotations

import datetime as dt
import io
import re

import pytest
from django.test import Client
from PIL import Image

from scoring.services import Actor
from tournaments import pictures, services
from tournaments.pictures.content import content_of

from .helpers import briscola_won_by, make_competition, play, played_briscola_swiss

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(club, olga):
    return played_briscola_swiss(
        club, olga, name="Svizzera", names=["Zoe Giovannini-Bartolomei di Castelnuovo", "Élodie Ñúñez"], more=6, rounds=2,
        tie_breaks=["opponents_strength"],
    )  # fmt: skip


def image(response) -> Image.Image:
    assert response.status_code == 200, response.status_code
    picture = Image.open(io.BytesIO(response.content))
    picture.load()
    return picture


@pytest.mark.parametrize(("shape", "size"), [("portrait", (1080, 1350)), ("wide", (1200, 630))])
@pytest.mark.parametrize("where", ["picture", "rounds/2/picture"])
def test_the_picture_is_a_png_of_the_stated_size(swiss, shape, size, where):
    response = Client().get(f"/p/uno/svizzera/{where}/{shape}.png")
    assert response["Content-Type"] == "image/png"
    picture = image(response)
    assert (picture.format, picture.size) == ("PNG", size)


def test_the_png_lets_the_browsers_image_viewer_style_itself_and_the_svg_does_not(swiss):
    """A PNG runs nothing, and Chromium's viewer of an image opened on its own styles itself
    inline (tests/browser/test_csp.py saw the pages' policy block it): its policy is the
    pages' with inline styles. An SVG could hold a script or a style: the pages' policy."""
    png = Client().get("/p/uno/svizzera/picture/wide.png")["Content-Security-Policy"]
    svg = Client().get("/p/uno/svizzera/picture/wide.svg")["Content-Security-Policy"]
    page = Client().get("/p/uno/svizzera/")["Content-Security-Policy"]
    assert svg == page and "style-src 'self';" in page + ";"
    assert "style-src 'self' 'unsafe-inline'" in png
    assert png.replace(" 'unsafe-inline'", "") == page


def test_the_svg_says_the_same_with_a_title_and_description(swiss):
    response = Client().get("/p/uno/svizzera/picture/wide.svg")
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    svg = response.content.decode()
    assert 'width="1200" height="630"' in svg and 'role="img"' in svg
    content = content_of(swiss, None)
    assert f'<desc id="d">{content.alt()}</desc>' in svg
    for line in content.lines[:5]:  # the wide shape's five rows, long names cut
        assert f">{line.name[:12]}" in svg


def test_a_second_request_comes_from_the_cache(swiss):
    before = pictures.RENDERS["png"]
    first = Client().get("/p/uno/svizzera/picture/portrait.png").content
    second = Client().get("/p/uno/svizzera/picture/portrait.png").content
    assert pictures.RENDERS["png"] == before + 1
    assert first == second


def test_the_picture_changes_when_the_standings_do(swiss, olga, django_capture_on_commit_callbacks):
    by = Actor.for_user(olga)
    first = Client().get("/p/uno/svizzera/picture/portrait.png").content
    before = pictures.RENDERS["png"]
    round_ = services.add_round(competition=swiss, by=by)
    services.generate_round(round_=round_, by=by)
    services.publish_round(round_=round_, by=by)
    with django_capture_on_commit_callbacks(execute=True):  # the standings are stored again
        for table in round_.tables.select_related("game"):
            play(table.game, briscola_won_by(1, 2, 1), olga)  # the second seat wins this time
        services.close_round(round_=round_, by=by)
    again = Client().get("/p/uno/svizzera/picture/portrait.png").content
    assert again != first
    assert pictures.RENDERS["png"] == before + 1
    image(Client().get("/p/uno/svizzera/rounds/3/picture/wide.png"))


def test_the_round_picture_shows_the_standings_after_that_round(swiss):
    after_one = content_of(swiss, 1)
    assert after_one.title == "Classifica dopo Turno 1"  # the club's language: Italian
    # Round 1 alone: the four first seats won their only game (2 placement points), four lost.
    assert sorted(line.points for line in after_one.lines) == ["0"] * 4 + ["2"] * 4
    assert len(after_one.lines) == 8


def test_the_picture_speaks_the_clubs_language(swiss, club):
    for language, title in (("it", "Classifica"), ("fr", "Classement"), ("en", "Standings")):
        club.language = language
        club.save(update_fields=["language"])
        swiss.club = club
        assert content_of(swiss, None).title == title


def test_a_private_competitions_picture_is_a_404(swiss, olga):
    swiss.public = False
    swiss.save(update_fields=["public"])
    for path in ("picture/portrait.png", "picture/wide.svg", "rounds/1/picture/wide.png"):
        assert Client().get(f"/p/uno/svizzera/{path}").status_code == 404, path
    member = Client()
    member.force_login(olga)
    assert member.get("/p/uno/svizzera/picture/wide.png").status_code == 200


def test_a_round_not_closed_and_a_bad_shape_are_404(swiss, olga):
    by = Actor.for_user(olga)
    services.add_round(competition=swiss, by=by)
    for path in ("rounds/3/picture/wide.png", "rounds/9/picture/wide.png", "picture/square.png",
                 "picture/wide.gif"):  # fmt: skip
        assert Client().get(f"/p/uno/svizzera/{path}").status_code == 404, path


def test_the_public_page_declares_the_picture_with_its_text_alternative(swiss):
    html = Client().get("/p/uno/svizzera/").content.decode()
    og = re.search(r'<meta property="og:image" content="([^"]+)">', html)
    assert og and og.group(1).endswith("/p/uno/svizzera/picture/wide.png")
    assert og.group(1).startswith("http")
    assert '<meta property="og:image:width" content="1200">' in html
    assert '<meta name="twitter:card" content="summary_large_image">' in html
    assert f'<meta name="twitter:image" content="{og.group(1)}">' in html
    alt = content_of(swiss, None).alt()
    assert f'<meta property="og:image:alt" content="{alt}">' in html
    assert "data-share-picture" in html and 'href="/p/uno/svizzera/picture/portrait.png"' in html


def test_a_closed_rounds_page_declares_its_own_picture(swiss):
    html = Client().get("/p/uno/svizzera/rounds/2/").content.decode()
    assert re.search(r'<meta property="og:image" content="[^"]+/rounds/2/picture/wide.png">', html)


def test_a_competition_with_no_game_yet_still_has_a_picture(club, olga):
    make_competition(club, olga, name="Vuota")
    picture = image(Client().get("/p/uno/vuota/picture/wide.png"))
    assert picture.size == (1200, 630)


def test_the_picture_prints_the_days_its_rounds_were_played_not_today(swiss):
    first, second = swiss.rounds.order_by("number")
    first.date, second.date = dt.date(2024, 3, 9), dt.date(2024, 3, 23)
    first.save(update_fields=["date"])
    second.save(update_fields=["date"])
    assert content_of(swiss, None).footer == "Segnapunti · 9 – 23 Marzo 2024"
    assert content_of(swiss, 1).footer == "Segnapunti · 9 Marzo 2024"  # that round's own day
    second.date = dt.date(2024, 4, 6)
    second.save(update_fields=["date"])
    assert content_of(swiss, None).footer == "Segnapunti · 9 Marzo – 6 Aprile 2024"


def test_an_undated_round_is_dated_by_the_day_it_was_closed_in_the_clubs_time_zone(swiss):
    # Closed at 23:30 UTC on 1 June 2023: already 2 June in Rome.
    swiss.rounds.update(date=None, closed_at=dt.datetime(2023, 6, 1, 23, 30, tzinfo=dt.UTC))
    assert content_of(swiss, 2).footer == "Segnapunti · 2 Giugno 2023"
    assert content_of(swiss, None).footer == "Segnapunti · 2 Giugno 2023"
