"""Who may read and write what, for every URL of the project, in one table.

The URL resolver is walked: every named pattern of our own apps and of the API must have a row
in ``EXPECTED`` (tests/authorization_helpers.py; a new URL without a row fails
``test_every_url_has_a_row`` in test_authorization_urls.py, naming it), and every row is tried for every persona, once for reading (GET) and once for each write method the
pattern answers (POST, PUT, PATCH, DELETE), each its own test id.

A row names the object its URL is filled from (``TARGETS``: a private club and a public one, a
public competition with a closed, a published and a draft round, a private competition, a game
with a table link, another game of the same club, a finished game of the public club) and who
may read and write it, as a level relative to that object's club:

    anyone      everybody, signed in or not
    login       any signed-in account
    members     a role in the object's club (scorer, organizer, owner)
    managers    owner or organizer of the object's club
    owners      an owner of the object's club (no persona is one: all of them are refused)
    table       members, and the session that opened this game's table link with its PIN
    nobody      the method is not served (405)
    read-only   (writes) the URL writes nothing: a POST answers as a GET would, or 405

``known`` says who may know that the object exists (by default: who may read it). Allowed means
2xx/3xx (or 400 for a write with an empty body: it got past authorization). Refused means a 302
to the login page where the page needs a login, {401, 403} for an API caller without
credentials, 403 for a caller who knows the object and 404 for one who must not learn it exists.

Personas: ``anonymous``; ``member``, an account that plays in club A (a player of the club is
linked to it) but holds no role there; ``scorer`` and ``organizer`` of club A; ``other``, the
organizer of club B; ``table``, an anonymous session that opened the table link of club A's
game with its PIN.

The world is built once for the module inside a transaction that is rolled back at the end;
each test runs in its own savepoint, so a write that gets through changes nothing for the next.
"""

from __future__ import annotations

import copy
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from circuits import services as circuit_services
from registration import services as registration_services
from scoring import services as scoring
from scoring.models import Game, Player, TableLink
from scoring.services import Actor, members
from teams.services import team_draw
from teams.services import teams as team_services
from tests.authorization_helpers import (
    EXPECTED,
    MANAGER_ROLES,
    PERSONAS,
    ROLES,
    SIGNED_IN,
    URLS,
    Row,
    Url,
)
from tests.builders import join, new_club
from tests.teams.mixed_helpers import mixed_event
from tournaments import services
from tournaments.models import Round
from tournaments.services import calls as call_services


def _cases():
    for name in sorted(set(URLS) & set(EXPECTED)):
        url = URLS[name]
        for row in EXPECTED[name]:
            for persona in PERSONAS:
                for method in ["get", *url.methods()]:
                    yield pytest.param(
                        name, row, persona, method, id=f"{name}[{row.target}]-{persona}-{method}"
                    )


# -- the world --------------------------------------------------------------------------------


def _build() -> dict[str, Any]:
    User = get_user_model()
    users = {
        name: User.objects.create_user(name)
        for name in ("olga", "oscar", "sara", "bea", "ugo", "mario")
    }
    club_a = new_club(users["olga"], name="Circolo Uno", slug="uno")
    join(club_a, users["oscar"], "organizer")
    join(club_a, users["sara"], "scorer")
    club_b = new_club(users["bea"], name="Circolo Due", slug="due", results_public=True)
    join(club_b, users["ugo"], "organizer")
    by_a, by_b = Actor.for_user(users["olga"]), Actor.for_user(users["bea"])
    a_players = [
        scoring.add_player(club=club_a, display_name=n, by=by_a) for n in ("Anna", "Bruno", "Carla")
    ]
    Player.objects.create(club=club_a, display_name="Mario", user=users["mario"])
    b_players = [
        scoring.add_player(club=club_b, display_name=n, by=by_b)
        for n in ("Elena", "Franco", "Gina")
    ]
    invitation = members.invite(club=club_a, by=by_a, role="member").invitation
    hand = {
        "dealer": 0,
        "outcome": "played",
        "soloist": 1,
        "contract": "chiamo",
        "soloist_points": 5,
    }
    win = {
        "dealer": 1,
        "outcome": "played",
        "soloist": 2,
        "contract": "scegliete",
        "soloist_points": 8,
    }

    def game(club, players, by, hands):
        g = scoring.start_game(club=club, ruleset="terziglio", players=players, by=by)
        for document in hands:
            scoring.record_hand(game=g, document=document, by=by)
        return Game.objects.get(pk=g.pk)

    table_game = game(club_a, a_players, by_a, [hand])
    other_game = game(club_a, a_players, by_a, [hand])
    public_game = game(club_b, b_players, by_b, [hand, win])
    assert public_game.status == "finished"

    competition = services.create_competition(
        club=club_a, by=by_a, name="Torneo", rulesets=["terziglio"], planned_rounds=3
    )
    private = services.create_competition(
        club=club_a, by=by_a, name="Interno", rulesets=["terziglio"], public=False
    )
    entries = [
        services.add_entry(competition=competition, player=n, by=by_a)
        for n in ("Anna", "Bruno", "Carla")
    ]
    services.add_entry(competition=private, player="Anna", by=by_a)
    # Registration open on both, one registration each (issue 24).
    registrations = {}
    for open_on in (competition, private):
        registration_services.set_registration(
            competition=open_on,
            by=by_a,
            opens_at=timezone.now() - timedelta(days=1),
            closes_at=timezone.now() + timedelta(days=1),
            capacity=10,
        )
        registrations[open_on.pk] = registration_services.register(
            competition=open_on, by=Actor(), name="Zoe", email="zoe@example.org"
        ).pk
    prizes = {
        c.pk: services.add_prize(competition=c, rank=1, amount_cents=100, by=by_a).pk
        for c in (competition, private)
    }
    for _ in range(3):
        services.add_round(competition=competition, by=by_a)
    rounds = {r.number: r for r in Round.objects.filter(competition=competition)}
    services.generate_round(round_=rounds[1], by=by_a)
    for number in (1, 2):
        round_ = Round.objects.get(pk=rounds[number].pk)
        services.publish_round(round_=round_, by=by_a)
    closing = Round.objects.get(pk=rounds[1].pk)
    played = closing.tables.get().game
    for document in (hand, win):
        scoring.record_hand(game=played, document=document, by=by_a)
    services.close_round(round_=Round.objects.get(pk=rounds[1].pk), by=by_a)
    published_table = Round.objects.get(pk=rounds[2].pk).tables.get()
    call = call_services.call_director(table=published_table, by=by_a, reason="rules")
    team_match = _team_competition(club_a, by_a)
    mixed, _teams = mixed_event(club_b, users["bea"], game="terziglio", size=3, count=2)

    def game_target(g):
        return {
            "club": {"uno": "A", "due": "B"}[g.club.slug],
            "game": g.pk,
            "game_id": g.pk,
            "number": 1,
            "token": TableLink.objects.get(game=g).token,
        }

    circuit = circuit_services.create_circuit(club=club_a, by=by_a, name="Circuito")
    circuit_services.invite_club(circuit=circuit, by=by_a, club=club_b)
    circuit_services.accept_invitation(circuit=circuit, by=by_b, club=club_b)
    circuit_services.add_competition(circuit=circuit, by=by_a, competition=competition)
    link = circuit_services.link_players(circuit=circuit, by=by_a, a=a_players[0], b=b_players[0])
    invited = circuit_services.create_circuit(club=club_a, by=by_a, name="Invito")
    circuit_services.invite_club(circuit=invited, by=by_a, club=club_b)

    competition_kwargs = {
        "club": "A",
        "club_slug": "uno",
        "slug": competition.slug,
        "competition_id": competition.pk,
        "entry_id": entries[0].pk,
        "registration_id": registrations[competition.pk],
        "prize_id": prizes[competition.pk],
        "call_id": call.pk,
        # The results picture's shape and format (tournaments/pictures).
        "shape": "wide",
        "fmt": "png",
    }
    targets = {
        "none": {"club": None},
        "club:A": {
            "club": "A",
            "slug": "uno",
            "player_id": a_players[0].pk,
            "invitation_id": invitation.pk,
        },
        "club:B": {"club": "B", "slug": "due", "player_id": b_players[0].pk},
        "game:table": game_target(table_game),
        "game:other": game_target(other_game),
        "game:public": game_target(public_game),
        "table:playing": {"club": "A", "game_id": published_table.game_id, "number": 1},
        "competition": competition_kwargs,
        "competition:private": {
            "club": "A",
            "club_slug": "uno",
            "slug": private.slug,
            "competition_id": private.pk,
            "entry_id": private.entries.get().pk,
            "registration_id": registrations[private.pk],
            "prize_id": prizes[private.pk],
            "shape": "wide",
            "fmt": "png",
        },
        "teams": {
            "club": "A",
            "club_slug": "uno",
            "slug": team_match.competition.slug,
            "competition_id": team_match.competition_id,
            "team_id": team_match.home_id,
            "match_id": team_match.pk,
            "round_number": team_match.round_number,
        },
        "teams:mixed": {
            "club": "B",
            "club_slug": "due",
            "slug": mixed.slug,
            "competition_id": mixed.pk,
        },
        "round:closed": competition_kwargs | {"number": 1},
        "round:published": competition_kwargs
        | {"number": 2, "table_id": published_table.pk, "table": published_table.number},
        "round:draft": competition_kwargs | {"number": 3},
        "circuit": {
            "club": "A",
            "club_slug": "uno",
            "slug": circuit.slug,
            "circuit_id": circuit.pk,
            "competition_id": competition.pk,
            "link_id": link.pk,
        },
        "circuit:invited": {
            "club": "A",
            "club_slug": "uno",
            "slug": invited.slug,
            "circuit_id": invited.pk,
        },
        "circuit:guest": {"club": "B", "club_slug": "due", "circuit_id": invited.pk},
    }
    assert [r.status for r in Round.objects.filter(competition=competition).order_by("number")] == [
        "closed",
        "published",
        "draft",
    ]
    assert Round.objects.get(competition=competition, number=3).tables.exists()  # a drawn draft
    return {
        "users": users,
        "targets": targets,
        "table_link": TableLink.objects.get(game=table_game),
    }


def _team_competition(club, by):
    """A public palio of two teams with one drawn match (the ``teams`` target)."""
    palio = services.create_competition(
        club=club, by=by, name="Palio", rulesets=["briscola"], format="round_robin"
    )
    team_services.set_team_rules(competition=palio, by=by, boards=1)
    for name in ("Borgo", "Castello"):
        roster = [scoring.new_player(club, f"{name} {i}").pk for i in (1, 2)]
        team_services.add_team(competition=palio, name=name, players=roster, by=by)
    (match,) = team_draw.draw_team_round(competition=palio, by=by)
    return match


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]),
    ):
        outer = transaction.atomic()
        outer.__enter__()
        try:
            built = _build()
            # Sessions and validators made once: each test's writes are rolled back.
            built["clients"] = {persona: _client(built, persona) for persona in PERSONAS}
            built["etags"] = {
                key: _etag(built, target)
                for key, target in built["targets"].items()
                if key.startswith("game:")
            } | {
                key: _round_etag(built, target)
                for key, target in built["targets"].items()
                if key.startswith("round:")
            }
            yield built
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def _client(built, persona: str) -> APIClient:
    client = APIClient()
    user = {"member": "mario", "scorer": "sara", "organizer": "oscar", "other": "ugo"}.get(persona)
    if user is not None:
        client.force_login(built["users"][user])
    if persona == "table":
        link = built["table_link"]
        response = client.post(reverse("table-link", args=[link.token]), {"pin": link.pin})
        assert response.status_code == 302, "the table link with its PIN opens the game"
    return client


def _etag(built, target) -> str:
    """A hand's validator as the API gives it (read by its club's owner)."""
    client = APIClient()
    client.force_authenticate(built["users"]["olga" if target["club"] == "A" else "bea"])
    path = reverse("api-game-hand", kwargs={"game_id": target["game_id"], "number": 1})
    return client.get(path)["ETag"]


def _round_etag(built, target) -> str:
    """A round's validator as the API gives it (read by its club's owner): deleting a round
    needs it."""
    client = APIClient()
    client.force_authenticate(built["users"]["olga"])
    kwargs = {"competition_id": target["competition_id"], "number": target["number"]}
    return client.get(reverse("api-competition-round", kwargs=kwargs))["ETag"]


# -- expectations -----------------------------------------------------------------------------


def who(level: str, target: dict[str, Any]) -> set[str]:
    roles = ROLES.get(target["club"], {})
    members = set(roles)
    if level == "anyone":
        return set(PERSONAS)
    if level == "login":
        return set(SIGNED_IN)
    if level == "members":
        return members
    if level == "managers":
        return {p for p, role in roles.items() if role in MANAGER_ROLES}
    if level == "owners":
        return {p for p, role in roles.items() if role == "owner"}
    if level == "table":
        return members | {"table"}
    if level in ("nobody", "read-only"):
        return set()
    raise AssertionError(f"unknown level {level!r}")


def expected(
    url: Url, row: Row, target: dict[str, Any], persona: str, method: str
) -> tuple[str, set[int] | None]:
    """("allowed", None) or ("refused", the statuses that say so)."""
    level = row.level(method)
    signed_in = persona in SIGNED_IN
    if row.auth and not signed_in:
        return "refused", {401, 403}
    if level == "nobody":
        return "refused", {405}
    if level == "read-only":
        if url.api:
            return "refused", {405}
        kind, codes = expected(url, row, target, persona, "get")
        return kind, None if codes is None else codes | {405}
    if persona in who(level, target):
        return "allowed", None
    if url.api and level == "login" and not signed_in:
        return "refused", {401, 403}
    known = persona in who(row.known or row.read, target)
    if row.login and not signed_in:
        return "refused", {302}
    if url.api and not signed_in and (row.auth or known):
        return "refused", {401, 403}
    return "refused", {403} if known else {404}


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "row", "persona", "method"), list(_cases()))
def test_authorization(world, name, row, persona, method):
    url = URLS[name]
    target = world["targets"][row.target]
    path = reverse(name, kwargs={k: target[k] for k in url.keys})
    client = world["clients"][persona]
    headers = {}
    if method in ("put", "delete") and url.api and row.target in world["etags"]:
        headers["HTTP_IF_MATCH"] = world["etags"][row.target]  # hands, rounds need a precondition
    cookies = copy.deepcopy(client.cookies)  # logging out must not sign the persona out for good
    send = getattr(client, method)
    response = (
        send(path, format="json", **headers)
        if url.api and method != "get"
        else send(path, **headers)
    )
    kind, codes = expected(url, row, target, persona, method)
    status = response.status_code
    client.cookies = cookies
    if kind == "allowed":
        # A write let through may still be refused by its values (400) or by the data's state
        # (409: e.g. no table of the round left to draw again): neither is an access answer.
        ok = 200 <= status < 400 or (method != "get" and status in (400, 409))
        assert ok, f"{persona} {method.upper()} {path}: expected allowed, got {status}"
    else:
        assert status in codes, (
            f"{persona} {method.upper()} {path}: expected {sorted(codes)}, got {status}"
        )
        if status == 302:
            assert response["Location"].startswith(reverse("login"))
