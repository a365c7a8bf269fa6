"""The short way of the API's content negotiation (scoring/api/negotiation.py) answers exactly
what DRF's full negotiation answers."""

import pytest
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from scoring.api.negotiation import ShortcutNegotiation
from scoring.api.renderers import BrowsableAPIRenderer

RENDERERS = [JSONRenderer(), BrowsableAPIRenderer()]


def chosen(negotiation, accept: str | None, query: str = ""):
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(APIRequestFactory().get(f"/api/v1/rulesets/{query}", **headers))
    renderer, media_type = negotiation.select_renderer(request, RENDERERS)
    return type(renderer), media_type


@pytest.mark.parametrize(
    ("accept", "query"),
    [
        (None, ""),
        ("*/*", ""),
        ("application/json", ""),
        ("  application/json ", ""),
        ("text/html", ""),
        ("text/html,application/xhtml+xml,*/*;q=0.8", ""),
        ("application/json; indent=4", ""),
        (None, "?format=api"),
        ("*/*", "?format=json"),
        ("*/*", "?page=2&format=api"),
    ],
)
def test_the_short_way_chooses_what_drf_chooses(accept, query):
    assert chosen(ShortcutNegotiation(), accept, query) == chosen(
        DefaultContentNegotiation(), accept, query
    )


def test_a_phone_gets_json_without_the_full_negotiation(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the full negotiation ran")

    monkeypatch.setattr(DefaultContentNegotiation, "select_renderer", refuse)
    for accept in (None, "*/*", "application/json"):
        assert chosen(ShortcutNegotiation(), accept) == (JSONRenderer, "application/json")


def test_a_browser_still_gets_the_browsable_api(client):
    answer = client.get("/api/v1/rulesets/", HTTP_ACCEPT="text/html")
    assert answer["Content-Type"].startswith("text/html")
    assert client.get("/api/v1/rulesets/")["Content-Type"] == "application/json"


def test_an_unacceptable_type_is_still_refused(client):
    assert client.get("/api/v1/rulesets/", HTTP_ACCEPT="application/xml").status_code == 406
