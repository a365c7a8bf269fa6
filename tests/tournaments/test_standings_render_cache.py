"""Spectators and players together (issue 26, point 4): the public standings table is rendered
once per snapshot version and language and served from the cache to every visitor with no role
in the club (tournaments/views/standings_cache.py), while the page around it (its forms, their
CSRF token, the header) stays each visitor's own."""

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.test.signals import template_rendered

from scoring import services as scoring
from scoring.models import Club
from scoring.services import Actor
from tournaments import services
from tournaments.models import Competition, StandingsSnapshot
from tournaments.views import standings_cache

pytestmark = pytest.mark.django_db

SIX = ["Anna", "Bruno", "Carla", "Dario", "Elio", "Fabio"]
PAGE = "/p/uno/coppa/"
STANDINGS = "/p/uno/coppa/standings/"
TABLE = standings_cache.FRAGMENT
PLAYER_LINK = re.compile(r'href="/c/uno/players/\d+/"')


@pytest.fixture
def coppa(club, olga, players) -> Competition:
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club,
        by=by,
        name="Coppa",
        rulesets=["terziglio"],
        options={"terziglio": {"target_score": 2}},
    )
    for name in SIX:
        services.add_entry(competition=competition, player=name, by=by)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=9)
    services.publish_round(round_=round_, by=by)
    return competition


@pytest.fixture
def renders():
    """The names of the templates rendered while the test runs, in order."""
    names: list[str] = []

    def count(sender, template, context, **kwargs):
        names.append(template.name)

    template_rendered.connect(count)
    yield names
    template_rendered.disconnect(count)


def finish_a_game(competition, olga) -> None:
    """A chiamo hand at table 1: with the target at 2 its game is over, the standings change."""
    game = competition.rounds.get(number=1).tables.get(number=1).game
    scoring.record_hand(
        game=game,
        document={
            "dealer": 0,
            "outcome": "played",
            "soloist": 1,
            "contract": "chiamo",
            "soloist_points": 7,
        },
        by=Actor.for_user(olga),
    )


def token_of(html: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


# -- rendered once -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url, headers",
    [(STANDINGS, {}), (STANDINGS, {"HX-Request": "true"}), (PAGE, {})],
    ids=["standings page", "polled table", "competition page"],
)
def test_the_table_is_rendered_once_for_every_anonymous_spectator(coppa, renders, url, headers):
    first = Client(headers=headers).get(url)
    assert first.status_code == 200 and renders.count(TABLE) == 1
    for _ in range(3):  # three more spectators, each with a CSRF cookie of their own
        again = Client(headers=headers).get(url)
        assert again.status_code == 200
        assert '<div id="standings"' in again.content.decode()
    assert renders.count(TABLE) == 1


def test_a_cached_poll_reads_the_snapshots_version_not_its_tables(coppa, django_assert_num_queries):
    Client().get(STANDINGS)
    with django_assert_num_queries(2) as queries:  # the competition, the snapshot's version
        assert Client().get(STANDINGS).status_code == 200
    assert not any('"data"' in query["sql"] for query in queries.captured_queries)


def test_a_hand_that_changes_the_standings_changes_the_page_at_once(
    coppa, olga, renders, django_capture_on_commit_callbacks
):
    client = Client()
    before = client.get(STANDINGS)
    assert 'data-version="1"' in before.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        finish_a_game(coppa, olga)
    after = client.get(STANDINGS, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert 'data-version="2"' in after.content.decode()
    assert after.content != before.content and renders.count(TABLE) == 2
    polled = Client().get(STANDINGS, HTTP_HX_REQUEST="true")  # same version, same language
    assert 'data-version="2"' in polled.content.decode() and renders.count(TABLE) == 2


def test_a_setting_the_table_shows_changes_it_without_a_new_version(coppa):
    assert not PLAYER_LINK.search(Client().get(STANDINGS).content.decode())
    Club.objects.filter(pk=coppa.club_id).update(results_public=True)
    assert PLAYER_LINK.search(Client().get(STANDINGS).content.decode())


# -- never mixed ---------------------------------------------------------------------------------


def test_italian_and_english_spectators_each_get_their_own_language(coppa, renders):
    italian = Client(headers={"Accept-Language": "it"})
    english = Client()
    for _ in range(2):  # the second time from the cache
        for client, points, other in ((italian, "Punti", "Points"), (english, "Points", "Punti")):
            for url in (STANDINGS, PAGE):
                html = client.get(url).content.decode()
                assert f'<th scope="col">{points}</th>' in html
                assert f'<th scope="col">{other}</th>' not in html
    assert renders.count(TABLE) == 2  # one per language


def test_a_signed_in_organizer_gets_their_own_table_and_page(coppa, olga):
    anonymous = Client().get(STANDINGS).content.decode()  # in the cache now
    organizer = Client()
    organizer.force_login(olga)
    html = organizer.get(STANDINGS).content.decode()
    assert PLAYER_LINK.search(html) and "Log out" in html
    assert not PLAYER_LINK.search(anonymous) and "Log out" not in anonymous
    # And the other way round: the organizer's table never reaches a spectator.
    cache.clear()
    organizer.get(STANDINGS)
    organizer.get(PAGE)
    for url in (STANDINGS, PAGE):
        html = Client().get(url).content.decode()
        assert not PLAYER_LINK.search(html) and "Log out" not in html
        assert "Organizer page" not in html


# -- the page around the table stays the visitor's ----------------------------------------------


def test_each_spectator_gets_a_csrf_token_of_their_own_and_the_language_switch_works(coppa):
    tokens = set()
    for _ in range(2):
        client = Client(enforce_csrf_checks=True)
        html = client.get(STANDINGS).content.decode()
        token = token_of(html)
        assert f'"X-CSRFToken": "{token}"' in html
        tokens.add(token)
        switched = client.post(
            "/i18n/setlang/",
            {"language": "it", "next": STANDINGS, "csrfmiddlewaretoken": token},
        )
        assert switched.status_code == 302
        assert '<th scope="col">Punti</th>' in client.get(STANDINGS).content.decode()
    assert len(tokens) == 2
    stamp = coppa.snapshot.version, coppa.snapshot.computed_at
    cached = cache.get(standings_cache.cache_key(coppa, stamp, big=False))
    assert cached is not None and "csrf" not in cached.lower()


def test_the_cached_page_keeps_its_content_security_policy(coppa):
    Client().get(STANDINGS)
    answer = Client().get(STANDINGS)
    policy = answer["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "nonce" not in policy
    assert "nonce" not in answer.content.decode()


# -- one render after a change, not one per spectator --------------------------------------------


def test_a_request_waits_for_the_table_another_is_rendering(monkeypatch):
    key = "standings-html:test"
    cache.add(f"{key}:rendering", 1)  # another request is rendering it

    def other_request_done(seconds):
        cache.set(key, "<div>theirs</div>")

    monkeypatch.setattr(standings_cache.time, "sleep", other_request_done)
    rendered = []
    html = standings_cache.render_once(key, lambda: rendered.append(1) or "<div>mine</div>")
    assert html == "<div>theirs</div>" and rendered == []


def test_a_request_renders_the_table_itself_when_the_other_render_never_comes(monkeypatch):
    key = "standings-html:test"
    cache.add(f"{key}:rendering", 1)
    clock = iter(range(0, 1000))
    monkeypatch.setattr(standings_cache.time, "monotonic", lambda: next(clock))
    monkeypatch.setattr(standings_cache.time, "sleep", lambda seconds: None)
    assert standings_cache.render_once(key, lambda: "<div>mine</div>") == "<div>mine</div>"
    assert cache.get(key) == "<div>mine</div>"


def test_the_render_lock_is_given_back(monkeypatch):
    key = "standings-html:test"
    assert standings_cache.render_once(key, lambda: "<div>one</div>") == "<div>one</div>"
    assert cache.add(f"{key}:rendering", 1)  # free again

    def fails():
        raise RuntimeError("a bug")

    cache.delete(f"{key}:rendering")
    with pytest.raises(RuntimeError):
        standings_cache.render_once("standings-html:other", fails)
    assert cache.add("standings-html:other:rendering", 1)


def test_a_snapshot_made_anew_never_meets_the_table_kept_from_before(
    coppa, olga, django_capture_on_commit_callbacks
):
    """A database restored or made anew counts its versions from 1 again: the time the
    snapshot was computed keeps its table apart from the one the cache kept."""
    polled = Client(headers={"HX-Request": "true"})
    before = polled.get(STANDINGS).content.decode()
    StandingsSnapshot.objects.filter(competition=coppa).delete()
    with django_capture_on_commit_callbacks(execute=True):
        finish_a_game(coppa, olga)
    assert StandingsSnapshot.objects.get(competition=coppa).version == 1
    after = polled.get(STANDINGS).content.decode()
    assert 'data-version="1"' in after and after != before


def test_the_polled_table_a_spectator_kept_is_sent_again_to_a_member(coppa, olga):
    """The browser keeps the polled table: signed in since, its ETag must not get a 304."""
    client = Client(headers={"HX-Request": "true"})
    anonymous = client.get(STANDINGS)
    assert client.get(STANDINGS, HTTP_IF_NONE_MATCH=anonymous["ETag"]).status_code == 304
    big = client.get(f"{STANDINGS}?big=1", HTTP_IF_NONE_MATCH=anonymous["ETag"])
    assert big.status_code == 200 and 'class="standings big"' in big.content.decode()
    client.force_login(olga)
    member = client.get(STANDINGS, HTTP_IF_NONE_MATCH=anonymous["ETag"])
    assert member.status_code == 200 and PLAYER_LINK.search(member.content.decode())


def test_with_debug_an_edited_template_is_read_again(settings, monkeypatch):
    digest = standings_cache.templates_digest()
    settings.DEBUG = True
    monkeypatch.setattr(standings_cache, "TEMPLATES", standings_cache.TEMPLATES[:1])
    assert standings_cache.templates_digest() != digest
    settings.DEBUG = False
    assert standings_cache.templates_digest() == digest  # read once per process


# -- the whole page, for spectators --------------------------------------------------------------

WHOLE = "tournaments/standings.html"


def test_the_whole_page_is_rendered_once_for_every_spectator_with_their_own_token(coppa, renders):
    tokens = set()
    for _ in range(4):
        client = Client()
        html = client.get(STANDINGS).content.decode()
        assert '<div id="standings"' in html and standings_cache.TOKEN_SLOT not in html
        assert f'"X-CSRFToken": "{token_of(html)}"' in html
        tokens.add(token_of(html))
    assert renders.count(WHOLE) == 1 and len(tokens) == 4
    # another address (its links back carry it): a page of its own
    Client().get(STANDINGS + "?big=1")
    assert renders.count(WHOLE) == 2


def test_a_visitor_with_a_message_waiting_or_signed_in_gets_a_page_of_their_own(
    coppa, renders, sara
):
    from django.contrib.messages import constants
    from django.contrib.messages.storage.base import Message
    from django.contrib.messages.storage.cookie import CookieStorage
    from django.test import RequestFactory

    Client().get(STANDINGS)
    assert renders.count(WHOLE) == 1
    client = Client()
    storage = CookieStorage(RequestFactory().get("/"))
    client.cookies["messages"] = storage._encode([Message(constants.INFO, "Bentornati")])
    assert "Bentornati" in client.get(STANDINGS).content.decode()
    assert renders.count(WHOLE) == 2
    stranger = Client()
    stranger.force_login(sara)
    assert "Log out" in stranger.get(STANDINGS).content.decode()
    assert renders.count(WHOLE) == 3
    Client().get(STANDINGS)  # spectators still get the page kept
    assert renders.count(WHOLE) == 3
