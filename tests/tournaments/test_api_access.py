"""The competition API, who may do what: other clubs, scorers, anonymous callers, strange
bodies, the refusal worded as on the page, a draft round's seating kept inside the club."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import Game
from scoring.services import Actor
from tests.clients import api_as
from tournaments import services
from tournaments.models import Competition, CompetitionEvent, Entry, Round, Table

from .api_helpers import fields, url
from .helpers import enter, make_competition, play, terziglio_won_by

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# Who may do what


def write_calls(client, competition) -> list:
    """One call to every write URL of ``competition`` (valid bodies where it matters)."""
    round_ = competition.rounds.order_by("number").first()
    number = round_.number if round_ else 1
    table = Table.objects.filter(round__competition=competition).first()
    entry = competition.entries.first()
    ids = list(competition.entries.values_list("pk", flat=True))
    return [
        client.post(url(competition, "entries/"), {"player": "Intruso"}, format="json"),
        client.post(url(competition, f"entries/{entry.pk}/withdraw/"), {}, format="json"),
        client.post(url(competition, "rounds/"), {"date": "2026-01-01"}, format="json"),
        client.post(
            url(competition, f"rounds/{number}/check-ins/"), {"entries": ids}, format="json"
        ),
        client.post(url(competition, f"rounds/{number}/generate/"), {"seed": 1}, format="json"),
        client.post(
            url(competition, f"rounds/{number}/swap/"), {"a": ids[0], "b": ids[1]}, format="json"
        ),
        client.post(url(competition, f"rounds/{number}/publish/"), format="json"),
        client.post(url(competition, f"rounds/{number}/close/"), format="json"),
        client.post(
            url(competition, f"tables/{table.pk}/forfeit/"), {"reason": "x"}, format="json"
        ),
    ]


def read_calls(client, competition) -> list:
    return [
        client.get(url(competition)),
        client.get(url(competition, "entries/")),
        client.get(url(competition, "rounds/")),
        client.get(url(competition, "rounds/1/")),
        client.get(url(competition, "standings/")),
    ]


def drawn_in(club, owner, **fields) -> Competition:
    competition = make_competition(club, owner, planned_rounds=2, **fields)
    enter(competition, owner, 6)
    first = services.add_round(competition=competition, by=Actor.for_user(owner))
    services.generate_round(round_=first, by=Actor.for_user(owner), seed=1)
    return competition


def snapshot_of_writes():
    return (
        CompetitionEvent.objects.count(),
        Entry.objects.count(),
        Round.objects.count(),
        Game.objects.count(),
        list(Round.objects.values_list("status", flat=True)),
    )


def test_an_organizer_of_club_a_gets_403_or_404_on_every_club_b_competition(oscar, bea, other_club):
    public = drawn_in(other_club, bea, name="Aperto")
    private = drawn_in(other_club, bea, name="Chiuso", public=False)
    client = api_as(oscar)
    before = snapshot_of_writes()
    # Round 1 is a draft: outside the club it does not exist yet, its seating included.
    writes = write_calls(client, public)
    assert [r.status_code for r in writes] == [403] * 3 + [404] * 6
    assert {r.status_code for r in write_calls(client, private)} == {404}
    assert {r.status_code for r in read_calls(client, private)} == {404}
    assert [r.status_code for r in read_calls(client, public)] == [200, 200, 200, 404, 200]
    assert client.get(url(public, "rounds/")).json()["results"] == []
    body = {"name": "Intrusione", "rulesets": ["briscola"]}
    assert client.post("/api/v1/clubs/due/competitions/", body, format="json").status_code == 403
    assert [c["id"] for c in client.get("/api/v1/clubs/due/competitions/").json()["results"]] == [
        public.pk
    ]
    assert snapshot_of_writes() == before
    assert not CompetitionEvent.objects.filter(actor=oscar).exists()


def test_a_scorer_reads_everything_and_writes_nothing(club, olga, sara):
    private = drawn_in(club, olga, name="Interno", public=False)
    client = api_as(sara)
    before = snapshot_of_writes()
    responses = write_calls(client, private)
    assert {r.status_code for r in responses} == {403}
    assert all(fields(r) == {(None, "permission_denied")} for r in responses)
    assert {r.status_code for r in read_calls(client, private)} == {200}
    assert snapshot_of_writes() == before


def test_anyone_reads_a_public_competition_and_nobody_anonymous_writes(club, olga):
    public = drawn_in(club, olga, name="Aperto")
    anonymous = APIClient()
    assert [r.status_code for r in read_calls(anonymous, public)] == [200, 200, 200, 404, 200]
    assert anonymous.get(url(public)).json()["can_manage"] is False
    before = snapshot_of_writes()
    writes = write_calls(anonymous, public)
    assert [r.status_code for r in writes] == [403] * 3 + [404] * 6
    assert snapshot_of_writes() == before


@pytest.mark.parametrize("body", [None, [], "x", 5, [1, 2], {"zzz": 1}])
def test_no_write_answers_500_to_a_strange_body(api, drawn, body):
    round_ = drawn.rounds.get(number=1)
    table = round_.tables.first()
    entry = drawn.entries.first()
    paths = [
        "entries/",
        f"entries/{entry.pk}/withdraw/",
        "rounds/",
        "rounds/1/check-ins/",
        "rounds/1/generate/",
        "rounds/1/swap/",
        "rounds/1/close/",
        f"tables/{table.pk}/forfeit/",
    ]
    for path in paths:
        response = api.post(url(drawn, path), body, format="json")
        assert response.status_code < 500, (path, response.content)
        if response.status_code == 400:
            fields(response)
    for path in ("/api/v1/clubs/uno/competitions/", "/api/v1/schedule/"):
        assert api.post(path, body, format="json").status_code == 400


@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_a_refusal_reads_the_same_on_the_page_and_in_the_api(api, drawn, olga, language):
    api.post(url(drawn, "rounds/1/publish/"))
    play(drawn.rounds.get(number=1).tables.get(number=1).game, terziglio_won_by(1, 3), olga)
    refused = api.post(url(drawn, "rounds/1/close/"), format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert refused.status_code == 400 and fields(refused) == {("round", "unfinished")}
    from_api = refused.json()["errors"][0]["message"]
    page = Client()
    page.force_login(olga)
    response = page.post(
        f"/c/{drawn.club.slug}/k/{drawn.slug}/rounds/1/",
        {"action": "close", "confirm": "yes"},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    shown = re.findall(
        r'<p class="error" role="alert" data-action="close">(.*?)</p>', response.content.decode()
    )
    assert [html.unescape(text) for text in shown] == [from_api]
    expected = {
        "en": "Table 2 has not finished: finish or forfeit it first.",
        "fr": "La table 2 n'a pas terminé\u00a0: terminez-la ou déclarez-la forfait d'abord.",
        "it": "Il tavolo 2 non ha finito: prima fallo finire o chiudilo con forfait.",
    }[language]
    assert from_api == expected


def test_a_draft_rounds_seating_never_reaches_anyone_outside_the_club(club, olga, sara, bea):
    """Its public page is a 404; so are its API resource, its place in the rounds' list and its
    tables, until it is published. Members of the club see it, as on the organizer pages."""
    competition = drawn_in(club, olga, name="Aperto")
    table = Table.objects.filter(round__competition=competition, round__number=1).first()
    for client in (APIClient(), api_as(bea)):
        assert client.get(url(competition, "rounds/1/")).status_code == 404
        assert client.get(url(competition, "rounds/")).json()["results"] == []
        forfeit = client.post(url(competition, f"tables/{table.pk}/forfeit/"), {}, format="json")
        assert forfeit.status_code == 404

    def seating(client):
        return [t["seats"] for t in client.get(url(competition, "rounds/1/")).json()["tables"]]

    drawn = seating(api_as(sara))
    assert drawn and all(drawn)
    services.publish_round(round_=competition.rounds.get(number=1), by=Actor.for_user(olga))
    assert seating(APIClient()) == drawn
