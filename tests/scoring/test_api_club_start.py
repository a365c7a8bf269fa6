"""A club started from nothing through the API (issue 34, point 1): the club (its caller the
owner), its invitations, its players one by one and listed (paged, searched), the account's
token revoked. Each operation with its bad input (400 naming the field, nothing stored), its
refusals (anonymous 401, a member 403 where an organizer is needed, another club 404) and its
replay under one ``Idempotency-Key``."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.models import AuditEvent, Club, Invitation, InvitationStatus, Membership, Player
from tests.builders import join, new_club

pytestmark = pytest.mark.django_db


def client_of(user=None, *, token: str | None = None) -> APIClient:
    client = APIClient()
    if token is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    elif user is not None:
        client.force_authenticate(user)
    return client


def fields(answer) -> list[str | None]:
    return [error["field"] for error in answer.json()["errors"]]


@pytest.fixture
def api(olga):
    return client_of(olga)


@pytest.fixture
def nina_api(nina):
    return client_of(nina)


# -- POST /api/v1/clubs/ ----------------------------------------------------------------------


def test_an_account_starts_a_club_and_owns_it(nina_api, nina):
    answer = nina_api.post(
        "/api/v1/clubs/",
        {"name": " Circolo  Tre ", "slug": "tre", "time_zone": "Europe/Rome", "currency": "CHF"},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert answer["Location"] == "/api/v1/clubs/tre/"
    assert answer.json() == {
        "slug": "tre",
        "name": "Circolo Tre",
        "time_zone": "Europe/Rome",
        "language": "it",
        "results_public": False,
        "currency": "CHF",
        "role": "owner",
    }
    club = Club.objects.get(slug="tre")
    assert Membership.objects.get(club=club).user == nina
    assert AuditEvent.objects.filter(club=club, action="create_club").count() == 1
    # It is the caller's club from then on.
    assert nina_api.get("/api/v1/clubs/tre/").json()["role"] == "owner"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Uno bis", "slug": "uno"}, "slug"),  # taken
        ({"name": "Tre", "slug": "Tre Club"}, "slug"),
        ({"name": "Tre", "slug": "tre", "time_zone": "Mars/Olympus"}, "time_zone"),
        ({"name": "Tre", "slug": "tre", "language": "xx"}, "language"),
        ({"name": "", "slug": "tre"}, "name"),
        ({"slug": "tre"}, "name"),
        ({"name": "Tre"}, "slug"),
        ({"name": "Tre", "slug": "tre", "owner": 1}, "owner"),
    ],
)
def test_a_bad_club_is_refused_naming_its_field_and_nothing_is_made(nina_api, club, body, field):
    clubs = Club.objects.count()
    answer = nina_api.post("/api/v1/clubs/", body, format="json")
    assert answer.status_code == 400, answer.json()
    assert field in fields(answer)
    assert Club.objects.count() == clubs


def test_an_anonymous_caller_starts_no_club():
    answer = APIClient().post("/api/v1/clubs/", {"name": "Tre", "slug": "tre"}, format="json")
    assert answer.status_code == 401
    assert not Club.objects.filter(slug="tre").exists()


def test_a_club_resent_with_its_key_is_made_once(nina_api):
    body = {"name": "Tre", "slug": "tre"}
    first = nina_api.post("/api/v1/clubs/", body, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    again = nina_api.post("/api/v1/clubs/", body, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Club.objects.filter(slug="tre").count() == 1
    other = nina_api.post(
        "/api/v1/clubs/",
        {"name": "Quattro", "slug": "quattro"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k1",
    )
    assert other.status_code == 422


def test_an_account_starts_so_many_clubs_a_day(nina_api, settings):
    settings.CLUB_RATE_PER_ACCOUNT = (2, 86400)
    taken = nina_api.post("/api/v1/clubs/", {"name": "Uno", "slug": "a"}, format="json")
    assert taken.status_code == 201
    # A refused start (a bad address) does not count.
    assert (
        nina_api.post("/api/v1/clubs/", {"name": "X", "slug": "A"}, format="json").status_code
        == 400
    )
    assert (
        nina_api.post("/api/v1/clubs/", {"name": "Due", "slug": "b"}, format="json").status_code
        == 201
    )
    refused = nina_api.post("/api/v1/clubs/", {"name": "Tre", "slug": "c"}, format="json")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "too many clubs" in refused.json()["errors"][0]["message"]
    assert not Club.objects.filter(slug="c").exists()


# -- invitations -------------------------------------------------------------------------------


def test_an_organizer_invites_by_link_and_by_email(
    club, oscar, mailoutbox, site_url, django_capture_on_commit_callbacks
):
    api = client_of(oscar)
    anna = Player.objects.create(club=club, display_name="Anna")
    linked = api.post(
        "/api/v1/clubs/uno/invitations/", {"role": "member", "player": anna.pk}, format="json"
    )
    assert linked.status_code == 201, linked.json()
    body = linked.json()
    assert (body["role"], body["email"], body["player"], body["status"]) == (
        "member",
        "",
        anna.pk,
        "pending",
    )
    assert body["url"].startswith("http://testserver/invitation/")
    assert body["expires_at"] > body["created_at"]
    with django_capture_on_commit_callbacks(execute=True):
        mailed = api.post(
            "/api/v1/clubs/uno/invitations/",
            {"role": "organizer", "email": "o@club.example"},
            format="json",
        )
    assert mailed.status_code == 201
    assert mailed.json()["url"] is None  # the link went by e-mail, never in the answer
    assert [m.to for m in mailoutbox] == [["o@club.example"]]
    # The pending ones, newest first, without their links.
    listed = api.get("/api/v1/clubs/uno/invitations/").json()
    assert [i["id"] for i in listed["results"]][:2] == [mailed.json()["id"], body["id"]]
    assert all(i["url"] is None for i in listed["results"])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"role": "captain"}, "role"),
        ({}, "role"),
        ({"role": "owner"}, "role"),  # only an owner invites an owner
        ({"role": "member", "email": "not-an-address"}, "email"),
        ({"role": "member", "player": 999999}, "player"),
        ({"role": "member", "player": "Anna"}, "player"),
    ],
)
def test_a_bad_invitation_is_refused_naming_its_field(club, oscar, body, field):
    before = Invitation.objects.count()
    answer = client_of(oscar).post("/api/v1/clubs/uno/invitations/", body, format="json")
    assert answer.status_code == 400, answer.json()
    assert field in fields(answer)
    assert Invitation.objects.count() == before


def test_an_owner_invites_an_owner(club, api):
    answer = api.post("/api/v1/clubs/uno/invitations/", {"role": "owner"}, format="json")
    assert answer.status_code == 201


def test_who_may_invite(club, sara, nina, django_user_model):
    body = {"role": "member"}
    # A private club is no one's business but its members'; a public one asks for an account.
    assert (
        APIClient().post("/api/v1/clubs/uno/invitations/", body, format="json").status_code == 404
    )
    club.results_public = True
    club.save()
    assert (
        APIClient().post("/api/v1/clubs/uno/invitations/", body, format="json").status_code == 401
    )
    scorer = client_of(sara)  # a member of the club, not an organizer
    assert scorer.post("/api/v1/clubs/uno/invitations/", body, format="json").status_code == 403
    assert scorer.get("/api/v1/clubs/uno/invitations/").status_code == 403
    new_club(nina, name="Altro", slug="altro")  # nina runs another club: this one is not hers
    assert (
        client_of(nina).post("/api/v1/clubs/uno/invitations/", body, format="json").status_code
        == 403
    )
    club.results_public = False
    club.save()
    assert (
        client_of(nina).post("/api/v1/clubs/uno/invitations/", body, format="json").status_code
        == 404
    )
    assert not Invitation.objects.filter(club=club, created_by__in=[sara, nina]).exists()


def test_an_invitation_is_withdrawn_once(club, oscar, sara):
    api = client_of(oscar)
    made = api.post("/api/v1/clubs/uno/invitations/", {"role": "member"}, format="json").json()
    url = f"/api/v1/clubs/uno/invitations/{made['id']}/"
    assert client_of(sara).delete(url).status_code == 403
    assert api.delete(url).status_code == 204
    assert Invitation.objects.get(pk=made["id"]).status == InvitationStatus.REVOKED
    assert api.delete(url).status_code == 400  # withdrawn already
    assert api.delete("/api/v1/clubs/uno/invitations/999999/").status_code == 404


def test_an_invitation_resent_with_its_key_is_made_once(club, oscar):
    api = client_of(oscar)
    sent = [
        api.post(
            "/api/v1/clubs/uno/invitations/",
            {"role": "scorer"},
            format="json",
            HTTP_IDEMPOTENCY_KEY="inv-1",
        )
        for _ in range(2)
    ]
    assert [a.status_code for a in sent] == [201, 201]
    assert sent[1]["Idempotent-Replayed"] == "true"
    assert sent[1].json() == sent[0].json()
    assert Invitation.objects.filter(club=club, role="scorer", status="pending").count() == 1


# -- players -----------------------------------------------------------------------------------


@pytest.fixture
def many(club):
    names = ["Anna", "Bruno", "Carla", "Annalisa", "Gianni", "Marianna"]
    return {name: Player.objects.create(club=club, display_name=name).pk for name in names}


def test_members_list_the_players_with_ids_by_name(club, sara, many):
    answer = client_of(sara).get("/api/v1/clubs/uno/players/")
    assert answer.status_code == 200
    rows = answer.json()["results"]
    assert [r["name"] for r in rows] == sorted(many)
    assert rows[0] == {"id": many["Anna"], "name": "Anna", "active": True, "linked": False}


def test_the_players_list_is_searched_by_name_whatever_its_case(club, sara, many):
    answer = client_of(sara).get("/api/v1/clubs/uno/players/", {"search": "ANNA"})
    assert [r["name"] for r in answer.json()["results"]] == ["Anna", "Annalisa", "Marianna"]
    nothing = client_of(sara).get("/api/v1/clubs/uno/players/", {"search": "zz"})
    assert nothing.json()["results"] == []
    too_long = client_of(sara).get("/api/v1/clubs/uno/players/", {"search": "x" * 81})
    assert too_long.status_code == 400 and fields(too_long) == ["search"]


def test_the_players_list_is_paged(club, sara, many):
    api = client_of(sara)
    seen, url = [], "/api/v1/clubs/uno/players/?page_size=4"
    while url:
        page = api.get(url).json()
        assert len(page["results"]) <= 4
        seen += [r["name"] for r in page["results"]]
        url = page["next"]
    assert seen == sorted(many)
    bad = api.get("/api/v1/clubs/uno/players/", {"cursor": "forged"})
    assert bad.status_code == 400 and fields(bad) == ["cursor"]


def test_the_players_list_is_the_members_own(club, nina, many):
    club.results_public = True
    club.save()
    assert APIClient().get("/api/v1/clubs/uno/players/").status_code == 401
    assert client_of(nina).get("/api/v1/clubs/uno/players/").status_code == 403
    club.results_public = False
    club.save()
    assert client_of(nina).get("/api/v1/clubs/uno/players/").status_code == 404


def test_a_scorer_adds_a_player_once_under_one_key(club, sara):
    api = client_of(sara)
    sent = [
        api.post(
            "/api/v1/clubs/uno/players/",
            {"display_name": " Dora "},
            format="json",
            HTTP_IDEMPOTENCY_KEY="dora",
        )
        for _ in range(2)
    ]
    assert [a.status_code for a in sent] == [201, 201]
    dora = Player.objects.get(club=club, display_name="Dora")
    assert sent[0].json() == {"id": dora.pk, "name": "Dora", "active": True, "linked": False}
    assert sent[1]["Idempotent-Replayed"] == "true"


@pytest.mark.parametrize(
    "body", [{"display_name": "anna"}, {"display_name": ""}, {}, {"display_name": "x" * 81}]
)
def test_a_bad_player_is_refused_naming_its_field(club, sara, many, body):
    before = Player.objects.count()
    answer = client_of(sara).post("/api/v1/clubs/uno/players/", body, format="json")
    assert answer.status_code == 400, answer.json()
    assert fields(answer) == ["display_name"]
    assert Player.objects.count() == before


def test_only_members_who_enter_hands_add_players(club, nina, django_user_model):
    plain = django_user_model.objects.create_user("mimmo")
    join(club, plain, "member")
    body = {"display_name": "Dora"}
    assert APIClient().post("/api/v1/clubs/uno/players/", body, format="json").status_code == 404
    club.results_public = True
    club.save()
    assert APIClient().post("/api/v1/clubs/uno/players/", body, format="json").status_code == 401
    club.results_public = False
    club.save()
    assert (
        client_of(plain).post("/api/v1/clubs/uno/players/", body, format="json").status_code == 403
    )
    assert (
        client_of(nina).post("/api/v1/clubs/uno/players/", body, format="json").status_code == 404
    )
    assert not Player.objects.filter(display_name="Dora").exists()


def test_the_bulk_answers_201_with_the_ids_of_the_players_it_found(club, oscar, many):
    answer = client_of(oscar).post(
        "/api/v1/clubs/uno/players/bulk/", {"text": "anna\nCARLA"}, format="json"
    )
    assert answer.status_code == 201  # nothing new: still the one success status
    assert answer.json() == {
        "created": [],
        "existing": [{"id": many["Anna"], "name": "Anna"}, {"id": many["Carla"], "name": "Carla"}],
    }


# -- the account's token -----------------------------------------------------------------------


def test_a_token_is_revoked_by_its_own_call(olga):
    key = Token.objects.create(user=olga).key
    api = client_of(token=key)
    assert api.get("/api/v1/clubs/").status_code == 200
    assert api.delete("/api/v1/auth/token/").status_code == 204
    assert not Token.objects.filter(user=olga).exists()
    assert api.get("/api/v1/clubs/").status_code == 401
    assert APIClient().delete("/api/v1/auth/token/").status_code == 401
    # The next password call makes a new one.
    again = APIClient().post(
        "/api/v1/auth/token/", {"username": "olga", "password": "pw-olga"}, format="json"
    )
    assert again.status_code == 200 and again.json()["token"] != key
    assert get_user_model().objects.get(username="olga").auth_token.key == again.json()["token"]


# -- the account's token page ------------------------------------------------------------------


def test_the_token_page_makes_a_token_shown_once_and_revokes_it(client, olga):
    client.force_login(olga)
    page = client.get("/me/token/")
    assert page.status_code == 200
    assert "no token" in page.content.decode()
    made = client.post("/me/token/", {"action": "create"}, follow=True)
    key = Token.objects.get(user=olga).key
    assert made.redirect_chain == [("/me/token/", 302)]  # a reload sends nothing again
    assert made.status_code == 200 and key in made.content.decode()
    assert made["Cache-Control"] == "no-store"
    assert client_of(token=key).get("/api/v1/clubs/").status_code == 200
    # Shown once: the page says a token exists, never its key again.
    later = client.get("/me/token/").content.decode()
    assert key not in later and "Revoke the token" in later
    # A new one replaces it.
    client.post("/me/token/", {"action": "create"})
    assert Token.objects.get(user=olga).key != key
    revoked = client.post("/me/token/", {"action": "revoke"}, follow=True)
    assert not Token.objects.filter(user=olga).exists()
    assert "The token is revoked" in revoked.content.decode()


def test_the_token_page_refuses_an_unknown_action_and_needs_a_login(client, olga):
    assert client.get("/me/token/")["Location"].startswith("/login/")
    client.force_login(olga)
    refused = client.post("/me/token/", {"action": "steal"})
    assert refused.status_code == 400
    assert "Choose one of the buttons." in refused.content.decode()
    assert not Token.objects.filter(user=olga).exists()


def test_the_token_page_speaks_italian(client, olga):
    client.force_login(olga)
    page = client.get("/me/token/", HTTP_ACCEPT_LANGUAGE="it")
    assert "Il tuo account non ha un token." in page.content.decode()
