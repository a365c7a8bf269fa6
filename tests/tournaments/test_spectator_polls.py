"""Spectators' polls answered before the middleware stack (issue 26, point 4;
tournaments/middleware.py): the second anonymous poll of a public standings table costs one
query and gets what Django would have answered; a hand, a competition made private, a member
or another language are never answered from a table kept for someone else."""

import time

import pytest
from django.db import DatabaseError
from django.http import HttpResponse
from django.test import Client, RequestFactory

from scoring.models import Club
from tournaments import middleware
from tournaments.models import Competition

from . import test_standings_render_cache as render_cache
from .test_standings_render_cache import PLAYER_LINK, STANDINGS, finish_a_game

pytestmark = pytest.mark.django_db

#: The public competition of the render-cache tests: six players, a round published.
coppa = render_cache.coppa


def poller(**headers) -> Client:
    """A spectator's browser polling the table as the page does (htmx)."""
    return Client(headers={"HX-Request": "true", **headers})


def test_the_next_polls_are_answered_with_one_query_and_what_django_answers(
    coppa, django_assert_num_queries
):
    poller().get(STANDINGS)  # the first ever computes the standings
    middleware.forget()
    with django_assert_num_queries(2):  # through Django: the competition, the snapshot's stamp
        first = poller().get(STANDINGS)
    assert first.status_code == 200
    with django_assert_num_queries(1):  # the kept table, once its stamp is checked
        again = poller().get(STANDINGS)
    assert again.status_code == 200 and again.content == first.content
    assert dict(again.headers) == dict(first.headers)
    with django_assert_num_queries(1):
        held = poller().get(STANDINGS, HTTP_IF_NONE_MATCH=first["ETag"])
    assert held.status_code == 304 and held.content == b""
    assert held["ETag"] == first["ETag"] and "Content-Type" not in held
    for name in ("Cache-Control", "Vary", "Content-Security-Policy", "Content-Language"):
        assert held[name] == first[name], name


def test_a_304_kept_from_django_is_the_304_django_sends(coppa, django_assert_num_queries):
    etag = Client().get(STANDINGS, HTTP_HX_REQUEST="true")["ETag"]
    middleware.forget()
    by_django = poller().get(STANDINGS, HTTP_IF_NONE_MATCH=etag)
    with django_assert_num_queries(1):
        kept = poller().get(STANDINGS, HTTP_IF_NONE_MATCH=etag)
    assert by_django.status_code == kept.status_code == 304
    assert dict(kept.headers) == dict(by_django.headers)
    with django_assert_num_queries(2):  # a 304 cannot answer a poll without the ETag
        assert poller().get(STANDINGS).status_code == 200
    with django_assert_num_queries(1):  # the 200 is kept now
        assert poller().get(STANDINGS).status_code == 200


def test_a_hand_that_changes_the_standings_reaches_the_next_poll_at_once(
    coppa, olga, django_capture_on_commit_callbacks
):
    before = poller().get(STANDINGS)
    assert poller().get(STANDINGS, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        finish_a_game(coppa, olga)
    after = poller().get(STANDINGS, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert 'data-version="2"' in after.content.decode()


def test_a_competition_made_private_answers_404_at_once(coppa):
    etag = poller().get(STANDINGS)["ETag"]
    assert poller().get(STANDINGS, HTTP_IF_NONE_MATCH=etag).status_code == 304
    Competition.objects.filter(pk=coppa.pk).update(public=False)
    assert poller().get(STANDINGS, HTTP_IF_NONE_MATCH=etag).status_code == 404
    assert poller().get(STANDINGS).status_code == 404


def test_a_signed_in_member_never_gets_the_table_kept_for_spectators(coppa, olga):
    etag = poller().get(STANDINGS)["ETag"]
    member = poller()
    member.force_login(olga)
    answer = member.get(STANDINGS, HTTP_IF_NONE_MATCH=etag)
    assert answer.status_code == 200 and PLAYER_LINK.search(answer.content.decode())
    assert not PLAYER_LINK.search(poller().get(STANDINGS).content.decode())


def test_a_visitor_with_a_message_waiting_goes_through_django(coppa, django_assert_num_queries):
    poller().get(STANDINGS)
    visitor = poller()
    visitor.cookies["messages"] = "waiting"
    with django_assert_num_queries(2):
        assert visitor.get(STANDINGS).status_code == 200


def test_each_language_and_each_size_has_its_own_kept_table(coppa):
    for _ in range(2):  # the second time from the kept answers
        assert "Punti" in poller(**{"Accept-Language": "it"}).get(STANDINGS).content.decode()
        assert "Points" in poller().get(STANDINGS).content.decode()
        big = poller().get(f"{STANDINGS}?big=1").content.decode()
        assert 'class="standings big"' in big
        assert 'class="standings big"' not in poller().get(STANDINGS).content.decode()


def test_a_setting_the_table_shows_reaches_the_polls_within_the_lifetime(coppa, monkeypatch):
    assert not PLAYER_LINK.search(poller().get(STANDINGS).content.decode())
    Club.objects.filter(pk=coppa.club_id).update(results_public=True)
    assert not PLAYER_LINK.search(poller().get(STANDINGS).content.decode())  # kept: stale
    later = time.monotonic() + middleware.LIFETIME + 1
    monkeypatch.setattr(middleware.time, "monotonic", lambda: later)
    assert PLAYER_LINK.search(poller().get(STANDINGS).content.decode())


def test_a_check_the_database_cannot_answer_sends_the_poll_through_django(
    coppa, monkeypatch, django_assert_num_queries
):
    poller().get(STANDINGS)

    class Down:
        def cursor(self):
            raise DatabaseError("connection refused")

    monkeypatch.setattr(middleware, "connection", Down())
    with django_assert_num_queries(2):
        assert poller().get(STANDINGS).status_code == 200


def kept_answer(status: int, etag: str, *, cookie: bool = False) -> HttpResponse:
    response = HttpResponse(b"table" if status == 200 else b"", status=status)
    response["ETag"] = etag
    if cookie:
        response.set_cookie("csrftoken", "x")
    return response


def shared_request():
    request = RequestFactory().get("/p/uno/coppa/standings/", HTTP_HX_REQUEST="true")
    middleware.share(request, 1, (1, None))
    return request


def test_a_304_never_replaces_the_200_it_confirms_and_answers_that_set_cookies_are_not_kept():
    middleware.keep(("a",), shared_request(), kept_answer(200, '"one"'))
    middleware.keep(("a",), shared_request(), kept_answer(304, '"one"'))
    assert middleware.recall(("a",)).content == b"table"
    middleware.keep(("a",), shared_request(), kept_answer(304, '"two"'))
    assert middleware.recall(("a",)).content is None and middleware.recall(("a",)).etag == '"two"'
    middleware.keep(("b",), shared_request(), kept_answer(200, '"one"', cookie=True))
    middleware.keep(("c",), RequestFactory().get("/"), kept_answer(200, '"one"'))
    assert middleware.recall(("b",)) is None and middleware.recall(("c",)) is None


def test_the_oldest_answer_goes_when_the_process_keeps_too_many(monkeypatch):
    monkeypatch.setattr(middleware, "CAPACITY", 2)
    for key in ("a", "b"):
        middleware.keep((key,), shared_request(), kept_answer(200, '"x"'))
    middleware.recall(("a",))  # read: the most recent now
    middleware.keep(("c",), shared_request(), kept_answer(200, '"x"'))
    assert middleware.recall(("b",)) is None
    assert middleware.recall(("a",)) and middleware.recall(("c",))


@pytest.mark.parametrize(
    "method, headers, cookies",
    [
        ("post", {"HTTP_HX_REQUEST": "true"}, {}),
        ("get", {}, {}),
        ("get", {"HTTP_HX_REQUEST": "true"}, {"sessionid": "abc"}),
    ],
    ids=["a POST", "not a poll", "a session"],
)
def test_only_anonymous_polls_have_a_key(method, headers, cookies):
    request = getattr(RequestFactory(), method)(STANDINGS, **headers)
    request.COOKIES.update(cookies)
    assert middleware.poll_key(request) is None
    poll = RequestFactory().get(STANDINGS, HTTP_HX_REQUEST="true")
    poll.COOKIES.update({"csrftoken": "t", "django_language": "it"})
    assert middleware.poll_key(poll)[-1] == "it"
