"""The public competition pages: open without login, private ones a 404, the standings'
304 and query count, where do I sit, the projector."""

import datetime as dt

import pytest
from django.test import Client

from scoring.services import Actor
from tests.clients import login
from tournaments import services
from tournaments.models import StandingsSnapshot

from .pages_helpers import published_competition, standings_rows, win

pytestmark = pytest.mark.django_db


PUBLIC = [
    "/p/{c}/{k}/",
    "/p/{c}/{k}/standings/",
    "/p/{c}/{k}/rounds/1/",
    "/p/{c}/{k}/where/",
    "/p/{c}/{k}/projector/",
    "/p/{c}/{k}/calendar.ics",
    "/p/{c}/{k}/standings.csv",
]


def test_public_pages_open_without_login_and_a_private_one_is_404(
    olga, sara, bea, club, players, other_club
):
    published_competition(club, olga)
    published_competition(club, olga, name="Privata", public=False)
    anonymous = Client()
    for url in PUBLIC:
        assert anonymous.get(url.format(c="uno", k="coppa")).status_code == 200, url
        assert anonymous.get(url.format(c="uno", k="privata")).status_code == 404, url
        assert login(bea).get(url.format(c="uno", k="privata")).status_code == 404, url
        assert login(sara).get(url.format(c="uno", k="privata")).status_code == 200, url
    assert anonymous.get("/p/uno/coppa/rounds/2/").status_code == 404


def test_the_public_round_links_every_game_when_the_club_results_are_public(bea, other_club):
    names = ["Elena", "Franco", "Gina", "Hugo", "Irma", "Luca"]
    _competition, round_ = published_competition(other_club, bea, names)
    anonymous = Client()
    html = anonymous.get("/p/due/coppa/rounds/1/").content.decode()
    for table in round_.tables.all():
        assert f'href="/g/{table.game_id}/"' in html
        assert anonymous.get(f"/g/{table.game_id}/").status_code == 200  # hand history
    assert "Leagues and tournaments" in anonymous.get("/c/due/").content.decode()
    assert 'href="/p/due/coppa/"' in anonymous.get("/c/due/").content.decode()


def test_the_standings_partial_answers_304_until_a_hand_changes_them(
    olga, club, players, django_capture_on_commit_callbacks
):
    competition, round_ = published_competition(club, olga)
    client = Client(headers={"HX-Request": "true"})  # polled by htmx
    first = client.get("/p/uno/coppa/standings/")
    assert first.status_code == 200 and first.has_header("ETag")
    assert "no-cache" in first["Cache-Control"]
    assert 'hx-get="/p/uno/coppa/standings/"' in first.content.decode()
    unchanged = client.get("/p/uno/coppa/standings/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert unchanged.status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        win(round_.tables.get(number=1).game, Actor.for_user(olga))
    assert StandingsSnapshot.objects.get(competition=competition).version == 2
    changed = client.get("/p/uno/coppa/standings/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    rows = standings_rows(changed.content.decode())
    assert rows[0][2] == "4"  # the winner of a table of three
    assert (
        client.get("/p/uno/coppa/standings/", HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 304
    )


def test_the_public_standings_page_takes_a_fixed_number_of_queries(
    olga, club, players, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    competition, round_ = published_competition(club, olga)
    client = Client()
    client.get("/p/uno/coppa/")  # the snapshot is computed once, then only read
    with django_assert_max_num_queries(3):
        assert client.get("/p/uno/coppa/").status_code == 200
    with django_assert_max_num_queries(2):
        assert client.get("/p/uno/coppa/standings/", HTTP_HX_REQUEST="true").status_code == 200
    by = Actor.for_user(olga)
    with django_capture_on_commit_callbacks(execute=True):
        for table in round_.tables.select_related("game"):
            win(table.game, by)
    services.close_round(round_=round_, by=by)
    for _ in range(3):
        services.add_round(competition=competition, by=by)
    with django_assert_max_num_queries(3):
        html = client.get("/p/uno/coppa/").content.decode()
    assert html.count('class="round-row"') == 4 and len(standings_rows(html)) == 6


def test_unranked_and_withdrawn_entries_are_listed_after_and_marked(olga, club, players):
    _competition, round_ = published_competition(
        club, olga, kind="league", format="club_night", min_rounds=1
    )
    by = Actor.for_user(olga)
    first = round_.tables.get(number=1)
    win(first.game, by)
    services.withdraw_entry(entry=first.seats.get(position=0).entry, by=by, reason="moved away")
    html = Client().get("/p/uno/coppa/").content.decode()
    rows = standings_rows(html)
    assert [rank for rank, _name, _points in rows] == ["1", "2", "2", "–", "–", "–"]
    assert "Not ranked yet (ranked from 1 night played)" in html
    withdrawn = first.seats.get(position=0).entry.name
    # the name cell also holds who can still win (a league with nights left)
    assert any(name.startswith(withdrawn + " withdrawn") for _rank, name, _points in rows)


def test_where_do_i_sit(olga, club, players):
    _competition, round_ = published_competition(club, olga)
    services.update_round(
        round_=round_,
        by=Actor.for_user(olga),
        date=dt.date(2025, 3, 1),
        start_time=dt.time(21, 0),
    )
    seat = round_.tables.get(number=2).seats.get(position=1)
    page = Client().get(f"/p/uno/coppa/where/?entry={seat.entry_id}").content.decode()
    assert '<p class="big-answer">Table 2</p>' in page
    assert "Seat 2" in page and "21:00–22:30" in page and "Sat 1 Mar 2025" in page
    others = [s.entry.name for s in round_.tables.get(number=2).seats.exclude(pk=seat.pk)]
    assert "With: " + ", ".join(others) in page
    assert Client().get("/p/uno/coppa/where/?entry=999999").status_code == 400


def test_the_projector_shows_big_standings_and_the_current_tables(olga, club, players):
    published_competition(club, olga)
    html = Client().get("/p/uno/coppa/projector/").content.decode()
    assert 'class="projector"' in html and 'class="pager-list standings-list"' in html
    assert html.count('class="pager-item table-box') == 2
    assert 'data-reload="60"' in html  # it refreshes by itself (static/js/projector.js)
    only = Client().get("/p/uno/coppa/projector/?show=tables").content.decode()
    assert "standings-list" not in only


def test_the_standings_opened_directly_are_a_whole_page_and_polled_a_fragment(olga, club, players):
    """Issue 21, point 14: a link to /standings/ gave an unstyled fragment."""
    published_competition(club, olga)
    client = Client()
    page = client.get("/p/uno/coppa/standings/")
    html = page.content.decode()
    assert html.startswith("<!doctype html>") and "css/app.css" in html
    assert 'href="/p/uno/coppa/"' in html and len(standings_rows(html)) == 6
    polled = client.get("/p/uno/coppa/standings/", HTTP_HX_REQUEST="true")
    assert polled.content.decode().lstrip().startswith('<div id="standings"')
    assert polled["ETag"] != page["ETag"] and "HX-Request" in polled["Vary"]
    assert (
        client.get("/p/uno/coppa/standings/", HTTP_IF_NONE_MATCH=polled["ETag"]).status_code == 200
    )
