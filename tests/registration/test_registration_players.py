"""Registration links an existing player (issue 34, point 6; docs/registration.md): the
signed-in registrant's own player, the player an organizer names (API and desk form), the
club's player of that name and address; never a second player of one name without a word:
one made beside a player of the same name is listed to the organizers as a possible duplicate,
whom they merge."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from registration import services as registration_services
from registration.models import Registration
from registration.services import registration as registration_service
from scoring import services as scoring
from scoring.models import Player
from scoring.services import Actor
from scoring.services.queue import enqueue
from tests.builders import new_club
from tests.clients import api_as, login
from tests.tournaments.helpers import make_competition

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def mails_now(monkeypatch):
    monkeypatch.setattr(registration_service, "enqueue_on_commit", enqueue)


@pytest.fixture
def torneo(club, olga):
    competition = make_competition(club, olga, name="Torneo", slug="torneo", public=True)
    now = timezone.now()
    registration_services.set_registration(
        competition=competition,
        by=Actor.for_user(olga),
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=3),
        capacity=8,
    )
    return competition


@pytest.fixture
def anna(club):
    """The club's Anna Rossi, with no account."""
    return scoring.new_player(club, "Anna Rossi")


def url(competition) -> str:
    return f"/api/v1/competitions/{competition.pk}/registrations/"


def errors(response) -> set[tuple[str, str]]:
    return {(e["field"], e["code"]) for e in response.json()["errors"]}


def test_a_signed_in_registrant_linked_to_a_player_is_entered_as_that_player(
    club, torneo, anna, django_user_model
):
    user = django_user_model.objects.create_user("anna", email="anna@example.org")
    anna.user = user
    anna.save()
    made = api_as(user).post(url(torneo), {"name": "Anna Rossi"}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["status"] == "entered"
    assert torneo.entries.get().player == anna
    assert list(Player.objects.filter(club=club).values_list("display_name", flat=True)) == [
        "Anna Rossi"
    ]


def test_the_organizer_registers_an_existing_player_by_id(club, torneo, anna, olga, sara):
    made = api_as(olga).post(url(torneo), {"player": anna.pk}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["status"] == "entered" and made.json()["name"] == "Anna Rossi"
    registration = Registration.objects.get()
    assert registration.player == anna and registration.user is None
    assert torneo.entries.get().player == anna
    assert Player.objects.filter(club=club).count() == 1
    # The same player again, a player of no club of ours, someone not an organizer: refused.
    again = api_as(olga).post(url(torneo), {"player": anna.pk}, format="json")
    assert again.status_code == 400 and errors(again) == {("player", "duplicate")}
    other = scoring.new_player(new_club(olga, name="Altro", slug="altro"), "Bea")
    stranger = api_as(olga).post(url(torneo), {"player": other.pk}, format="json")
    assert stranger.status_code == 400 and errors(stranger) == {("player", "not_found")}
    bruno = scoring.new_player(club, "Bruno")
    for who in (None, sara):
        refused = api_as(who).post(url(torneo), {"player": bruno.pk}, format="json")
        assert refused.status_code in (401, 403), refused.content
    assert Registration.objects.count() == 1 and torneo.entries.count() == 1


def test_the_organizer_registers_an_existing_player_at_the_desk_form(club, torneo, anna, olga):
    page = login(olga).get("/p/uno/torneo/register/")
    assert "An existing player of the club" in page.content.decode()
    assert f'<option value="{anna.pk}">Anna Rossi</option>' in page.content.decode()
    done = login(olga).post("/p/uno/torneo/register/", {"player": anna.pk})
    assert done.status_code == 200, done.content
    assert torneo.entries.get().player == anna
    assert Player.objects.filter(club=club).count() == 1
    anonymous = api_as(None).get("/p/uno/torneo/register/")
    assert "An existing player of the club" not in anonymous.content.decode()


def test_the_same_name_and_address_is_the_clubs_player(club, torneo, anna):
    """No account, but the club's Anna Rossi's own address, confirmed by its link: her."""
    scoring.update_player(player=anna, by=Actor.system(), email="anna@example.org")
    made = api_as(None).post(
        url(torneo), {"name": "anna rossi", "email": "Anna@example.org"}, format="json"
    )
    assert made.status_code == 201 and made.json()["status"] == "unconfirmed"
    token = re.search(r"/r/([\w-]+)/", mail.outbox[-1].body).group(1)
    api_as(None).post("/api/v1/registrations/confirm/", {"token": token}, format="json")
    assert torneo.entries.get().player == anna
    assert Player.objects.filter(club=club).count() == 1


def test_a_namesake_is_flagged_for_the_organizer_never_silently_doubled(
    club, torneo, anna, olga, django_user_model
):
    """Another Anna Rossi (another address, no account linked): a new player, since nobody
    said she is the club's Anna, listed as a possible duplicate of her until merged."""
    user = django_user_model.objects.create_user("anna2", email="other@example.org")
    made = api_as(user).post(url(torneo), {"name": "Anna Rossi"}, format="json")
    assert made.status_code == 201 and made.json()["status"] == "entered"
    registration = Registration.objects.get()
    assert registration.player != anna
    assert registration.player.display_name == "Anna Rossi (2)"
    listed = api_as(olga).get(url(torneo)).json()["results"][0]
    assert listed["possible_duplicate_of"] == anna.pk
    desk = login(olga).get("/c/uno/k/torneo/registration/").content.decode()
    assert "possible duplicate of Anna Rossi" in desk
    assert f'<option value="{anna.pk}" selected>Anna Rossi</option>' in desk
    merged = api_as(olga).post(
        f"/api/v1/competitions/{torneo.pk}/registrations/{registration.pk}/merge/",
        {"player": anna.pk},
        format="json",
    )
    assert merged.status_code == 200, merged.content
    listed = api_as(olga).get(url(torneo)).json()["results"][0]
    assert listed["possible_duplicate_of"] is None
    assert (
        "possible duplicate of"
        not in login(olga).get("/c/uno/k/torneo/registration/").content.decode()
    )
